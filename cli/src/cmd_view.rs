//! `fgn view` and `fgn verify-view`: players' views of logs.

use std::path::{Path, PathBuf};

use fgn_notation::diagnostic::Diagnostic;
use fgn_notation::{Color, Document, Game, Parsed};
use fgn_replay::ViewError;

use crate::cmd_replay::{check, Checked};
use crate::cmd_syntax::parse_all;
use crate::report::{Reporter, Status};

/// Whose view to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// White's view.
    White,
    /// Black's view.
    Black,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// Reads and parses one file; `None` (already reported) when it cannot be
/// read or has syntax errors.
fn read_one(path: &Path, rep: &mut Reporter) -> Option<(String, Vec<u8>, Document)> {
    let mut parsed = parse_all(&[path.to_path_buf()], rep);
    if parsed.len() != 1 {
        if rep.status == Status::Ok {
            rep.error(&format!("{}: expected one file", path.display()));
        }
        return None;
    }
    let (input, bytes, p): (_, _, Parsed) = parsed.remove(0);
    // A torn last line is only a warning: the complete lines are the log.
    p.is_ok().then(|| (input.name(), bytes, p.document))
}

/// Reports why no (complete) view of `doc` for `side` could be made. A rule
/// error in the log is reported by replaying it as `validate` does, so that
/// it has the same place and wording, when the faulty event is one `side`
/// sees; otherwise only that there is one (see [`hidden_fault`]).
fn report_view_error(name: &str, doc: &Document, side: Color, error: &ViewError, rep: &mut Reporter) {
    match error {
        ViewError::Unsupported(_) | ViewError::NotReplayable(_) => rep.unsupported(name, &error.to_string()),
        ViewError::OtherSide { .. } => rep.error(&format!("{name}: {error}")),
        ViewError::Rule { error, .. } if hidden_fault(doc, side, error) => {
            rep.invalid(name, &hidden_fault_message(name, side))
        }
        ViewError::Start(_) | ViewError::Rule { .. } => {
            if let Checked::Valid(_) = check(name, doc, None, rep) {
                rep.invalid(name, &error.to_string());
            }
        }
    }
}

/// Whether the event a rule error of the full log names may be something
/// `side` does not see, so that neither it nor the error's message (which
/// names its squares and pieces) may be shown in anything made for `side`:
/// a view is what a server sends a player, and so may be what it says
/// about one. Only `side`'s own events, the header and the end of the log
/// are taken as seen; an opponent's or the world's event is hidden, even in
/// a game where that one was public, since what is hidden differs by game
/// and phase and this must never leak.
pub fn hidden_fault(doc: &Document, side: Color, error: &fgn_replay::RuleError) -> bool {
    match error.place {
        fgn_replay::Place::Event(i) => doc
            .game
            .events
            .get(i)
            .is_none_or(|e| e.actor != fgn_notation::Actor::Player(side)),
        fgn_replay::Place::Header | fgn_replay::Place::End => false,
    }
}

/// What is said of a rule error [`hidden_fault`] keeps from `side`.
pub fn hidden_fault_message(name: &str, side: Color) -> String {
    format!(
        "the log breaks a rule at an event {} may not see, so its view ends before it; \
         the event and the rule are not shown here (`fgn validate {name}` shows them)",
        side.name()
    )
}

/// `fgn view`.
pub fn view(path: &Path, side: Side, output: Option<&PathBuf>, rep: &mut Reporter) {
    let Some((name, _, doc)) = read_one(path, rep) else {
        return;
    };
    let mut text = String::new();
    if let Err(e) = fgn_replay::view::write_view(&doc.game, side.color(), &mut text) {
        report_view_error(&name, &doc, side.color(), &e, rep);
        // The view up to the faulty event is still what the player saw.
        if !matches!(e, ViewError::Rule { .. }) {
            return;
        }
    }
    match output {
        Some(out) => {
            if let Err(e) = std::fs::write(out, text) {
                rep.error(&format!("{}: cannot write: {e}", out.display()));
            }
        }
        None => crate::out::print(&text),
    }
}

/// The text of line `line` (1-based) of `bytes`, for showing a diagnostic.
fn line_text(bytes: &[u8], line: u32) -> String {
    let raw = bytes.split(|&b| b == b'\n').nth(line as usize - 1).unwrap_or(&[]);
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    std::str::from_utf8(raw).unwrap_or("").to_string()
}

/// Where a view parts from the expected one: the line and what was expected.
fn first_difference(expected: &Game, view: &Document) -> Option<(u32, String)> {
    let tags = (&expected.header.tags, &view.game.header.tags);
    let events = (&expected.events, &view.game.events);
    // The line after the header, for a tag missing at its end.
    let first_event_line = view
        .event_lines
        .first()
        .copied()
        .unwrap_or_else(|| view.tag_lines.last().map_or(1, |l| l + 1));
    for i in 0..tags.0.len().max(tags.1.len()) {
        match (tags.0.get(i), tags.1.get(i)) {
            (Some(e), Some(v)) if e == v => {}
            (Some(e), Some(_)) => return Some((view.tag_lines[i], format!("expected the tag `{e}` here"))),
            (Some(e), None) => return Some((first_event_line, format!("the header ends early: expected `{e}`"))),
            (None, _) => {
                return Some((
                    view.tag_lines[i],
                    "the full log's view has no more tags: this one is extra".into(),
                ))
            }
        }
    }
    let last_line = view.event_lines.last().copied().unwrap_or(first_event_line);
    for i in 0..events.0.len().max(events.1.len()) {
        match (events.0.get(i), events.1.get(i)) {
            (Some(e), Some(v)) if e == v => {}
            (Some(e), Some(_)) => return Some((view.event_lines[i], format!("expected `{e}` here"))),
            (Some(e), None) => {
                let missing = events.0.len() - i;
                return Some((
                    last_line,
                    format!("the view is missing {missing} event(s) after this line, the first `{e}`"),
                ));
            }
            (None, _) => {
                let extra = events.1.len() - i;
                return Some((
                    view.event_lines[i],
                    format!("the view has {extra} event(s) more than the full log gives, from this line on"),
                ));
            }
        }
    }
    None
}

/// `fgn verify-view`.
pub fn verify(full_path: &Path, view_path: &Path, rep: &mut Reporter) {
    let (Some((full_name, _, full)), Some((view_name, view_bytes, view))) =
        (read_one(full_path, rep), read_one(view_path, rep))
    else {
        // Syntax errors are reported as faults of the file (exit 1), but
        // with one, there is no verdict on the view at all: exit 2, as
        // verify-extends and diff say it.
        return rep.error("cannot compare: verify-view takes two readable logs without syntax errors");
    };
    if let Some(side) = full.game.perspective() {
        // A view compared with itself would certify nothing.
        return rep.error(&format!(
            "{full_name} is {}'s view, not a full log: verify-view checks a view against the log it came from",
            side.name()
        ));
    }
    let Some(side) = view.game.perspective() else {
        return rep.invalid(
            &view_name,
            "not a player's view: it has no [Perspective \"white\"] or [Perspective \"black\"] tag after [Rules]",
        );
    };
    let expected = match fgn_replay::view(&full.game, side) {
        Ok(v) => v,
        Err(e) => {
            rep.note(&format!("{full_name}: no view of it can be verified: {e}"));
            return report_view_error(&full_name, &full, side, &e, rep);
        }
    };
    match first_difference(&expected, &view) {
        None => rep.note(&format!("{view_name}: the {} view of {full_name}", side.name())),
        Some((line, message)) => {
            let text = line_text(&view_bytes, line);
            let d = Diagnostic::at_bytes(
                line,
                &text,
                0,
                text.len(),
                format!("not the {} view of {full_name}: {message}", side.name()),
            );
            rep.diagnostic(&view_name, &d, "view");
        }
    }
}
