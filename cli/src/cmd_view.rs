//! `fgn view` and `fgn verify-view`: players' views of logs.

use std::path::Path;

use fgn_notation::diagnostic::Diagnostic;
use fgn_notation::{Color, Document, Parsed};
use fgn_replay::ViewError;
use fgn_tools::align::hidden_fault;
use fgn_tools::verify_view::{verify_view, Difference};

use crate::cmd_replay::{check, Checked};
use crate::cmd_syntax::parse_all;
use crate::out::outln;
use crate::report::{Format, Reporter, Status};
use crate::texts::hidden_fault_message;

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
        ViewError::NotReplayable(_) | ViewError::NotRead(_) => rep.unsupported(name, &error.to_string()),
        ViewError::OtherSide { .. } => rep.error(&format!("{name}: {error}")),
        ViewError::Rule { error, .. } if hidden_fault(&doc.game, side, error) => {
            rep.invalid(name, &hidden_fault_message(name, side))
        }
        ViewError::Start(_) | ViewError::Rule { .. } => {
            if let Checked::Valid(_) = check(name, doc, None, rep) {
                rep.invalid(name, &error.to_string());
            }
        }
    }
}

/// `fgn view`.
pub fn view(path: &Path, side: Side, out: Option<&Path>, force: bool, rep: &mut Reporter) {
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
    match out {
        Some(out) => match Reporter::write_file(out, text.as_bytes(), force) {
            Ok(()) => rep.wrote(out, None),
            Err(e) => rep.error(&e),
        },
        None => rep.print(&text),
    }
}

/// The text of line `line` (1-based) of `bytes`, for showing a diagnostic.
fn line_text(bytes: &[u8], line: u32) -> String {
    let raw = bytes.split(|&b| b == b'\n').nth(line as usize - 1).unwrap_or(&[]);
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    std::str::from_utf8(raw).unwrap_or("").to_string()
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
    let difference = match verify_view(&full.game, side, &view) {
        Ok(d) => d,
        Err(e) => {
            rep.note(&format!("{full_name}: no view of it can be verified: {e}"));
            return report_view_error(&full_name, &full, side, &e, rep);
        }
    };
    match difference {
        // The verdict is the output asked for: a line for people (left out
        // with --quiet, as the exit status says it), a result object for
        // programs, as verify-extends writes one.
        None => match rep.format {
            Format::Text if rep.quiet => {}
            Format::Text => outln!(rep, "{view_name} is the {} view of {full_name}", side.name()),
            Format::Json => outln!(
                rep,
                "{}",
                serde_json::json!({"type": "view", "full": full_name, "view": view_name, "side": side.name(),
                    "verified": true, "events": view.game.events.len()})
            ),
        },
        Some(Difference { line, message }) => {
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
