//! `fgn diff A B [--as white|black]`: whether two logs are the same game
//! after canonicalisation, and if not where they part (a header tag, an
//! event, or one ending first) and how their positions differ there and at
//! the end, from the referee's or one player's perspective.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use fgn_notation::{Action, Color, Document, Event, Game};
use fgn_replay::{knowledge_changes, state_changes, Change, Completion, Digest, Replay, StartError, ViewError, Viewer};
use fgn_tools::align::{self, made_view, Alignment};
use fgn_tools::loghash;
use fgn_tools::placed::PlacedError;
use serde::Serialize;
use serde_json::Value;

use crate::cmd_hash::{first_parting, read_pair};
use crate::cmd_view::Side;
use crate::out::outln;
use crate::report::{Format, Reporter, Status};

/// One of the two logs as it is compared.
///
/// What is compared is the canonical log (the file's events with
/// `completion`'s markers), a view file as it stands, or the player's view
/// made of a full log (`view`). The file's own events are read where they
/// are, not copied: a copy, its lines and the positions' maps held every
/// event of both logs two and three times more (issue 36).
struct Log {
    name: String,
    doc: Document,
    /// The player's view made of a full log (`None`: the file's events are
    /// the ones compared).
    view: Option<Game>,
    /// The markers the compared events complete (the referee's log; a view
    /// is compared as it stands).
    completion: Completion,
    /// For each event of a made view, the line of the file it comes from
    /// (the event of the full log that the view's line reports); `None`:
    /// the file's own lines, one an event.
    lines: Option<Vec<u32>>,
    /// The log hash of what is compared, whose markers it completes as
    /// [`loghash::chain`] does (a view's too).
    log_hash: Digest,
    /// How the compared events stand in the full log that replays their
    /// positions, if one can.
    alignment: Result<Alignment, String>,
    /// The side a full log is compared as, whose view may not show a rule
    /// error's event (`None`: the referee's, or a view, which has no
    /// hidden events).
    viewer: Option<Color>,
}

impl Log {
    /// The compared log, before its markers are completed.
    fn game(&self) -> &Game {
        self.view.as_ref().unwrap_or(&self.doc.game)
    }

    /// The compared event at `i`, markers completed, if there is one.
    fn event(&self, i: usize) -> Option<Cow<'_, Event>> {
        let event = self.game().events.get(i)?;
        Some(match self.completion.move_at(i) {
            Some(m) => Cow::Owned(Event {
                action: Action::Move(*m),
                ..event.clone()
            }),
            None => Cow::Borrowed(event),
        })
    }

    /// The line of the file the compared event at `i` comes from.
    fn line(&self, i: usize) -> Option<u32> {
        self.lines.as_ref().unwrap_or(&self.doc.event_lines).get(i).copied()
    }
}

/// A rule error in one log, placed in its file.
#[derive(Serialize)]
struct DiffFault {
    line: u32,
    column: u32,
    rule: &'static str,
    message: String,
}

/// The positions of a log at the points asked for, and what stopped its
/// replay early.
struct Replayed {
    at: Vec<Replay>,
    fault: Option<DiffFault>,
    /// The replay stopped at a rule error of an event the side compared as
    /// may not see: neither the event nor the error is told (`fault` is
    /// then `None`).
    hidden_fault: bool,
    /// How many of the compared events the positions cover.
    applied: usize,
}

/// One line of a file, for the report.
#[derive(Serialize)]
struct Line {
    /// Its line number in the file (`None`: a line the file does not hold,
    /// such as the `Perspective` tag of a view made from it).
    line: Option<u32>,
    text: String,
}

/// What the report says of one log.
#[derive(Serialize)]
struct LogReport {
    file: String,
    log_hash: Digest,
    events: usize,
    error: Option<DiffFault>,
}

/// The first tag where the headers part.
#[derive(Serialize)]
struct HeaderPart {
    tag: String,
    a: Option<Line>,
    b: Option<Line>,
}

/// The first event where the logs part, by its 0-based `index` (as every
/// output counts events); the text report says `event index + 1`.
#[derive(Serialize)]
struct EventPart {
    index: usize,
    a: Option<Line>,
    b: Option<Line>,
}

/// Two positions compared, after `a_events` of A's and `b_events` of B's
/// compared events.
#[derive(Serialize)]
struct Point {
    a_events: usize,
    b_events: usize,
    changes: Vec<Change>,
}

/// The document `fgn diff --format json` writes (docs/fgn-diff.schema.json).
#[derive(Serialize)]
struct Report {
    format: &'static str,
    version: u32,
    /// Always `diff` (docs/json.md §17, "The type of every object").
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(rename = "as")]
    perspective: Option<Color>,
    same: bool,
    a: LogReport,
    b: LogReport,
    header: Option<HeaderPart>,
    event: Option<EventPart>,
    there: Option<Point>,
    end: Option<Point>,
}

/// The side both logs are compared as: the one asked for, or the one the
/// views among them belong to.
fn perspective(a: &Document, b: &Document, asked: Option<Color>) -> Result<Option<Color>, String> {
    let views = [("A", a.game.perspective()), ("B", b.game.perspective())];
    let side = asked.or(views[0].1).or(views[1].1);
    for (which, view) in views {
        match (view, side) {
            (Some(v), Some(s)) if v != s => {
                let wanted = match asked {
                    Some(_) => format!("--as {}", s.name()),
                    None => format!("the other file is {}'s view", s.name()),
                };
                return Err(format!(
                    "{which} is {}'s view and {wanted}: what one player knew does not tell what the other did",
                    v.name()
                ));
            }
            _ => {}
        }
    }
    Ok(side)
}

/// The log as compared from `side`'s perspective (`None`: the referee's).
fn prepare(name: String, doc: Document, side: Option<Color>) -> Result<Log, ViewError> {
    let (view, completion, lines, alignment) = match (side, doc.game.perspective()) {
        (None, _) => (None, fgn_replay::completion(&doc.game), None, Ok(Alignment::identity())),
        // A view compares as it is; its positions come from a full log
        // that gives its player the same knowledge, where there is one.
        (Some(_), Some(_)) => {
            let alignment = Alignment::of_view(&doc.game)
                .map(|(alignment, _)| alignment)
                .map_err(|e| e.to_string());
            (None, Completion::default(), None, alignment)
        }
        // The view ends at a rule error, as `fgn view` writes it; the
        // replay of the positions reports the error.
        (Some(color), None) => {
            let made = made_view(&doc.game, color)?;
            let lines = made.origins.iter().map(|&i| doc.event_lines[i]).collect();
            (Some(made.view), Completion::default(), Some(lines), Ok(made.alignment))
        }
    };
    let log_hash = match (&view, side) {
        (Some(v), _) => loghash::log_hash_completed(v, &fgn_replay::completion(v)),
        (None, Some(_)) => loghash::log_hash_completed(&doc.game, &fgn_replay::completion(&doc.game)),
        (None, None) => loghash::log_hash_completed(&doc.game, &completion),
    };
    let viewer = side.filter(|_| doc.game.perspective().is_none());
    Ok(Log {
        name,
        doc,
        view,
        completion,
        lines,
        log_hash,
        alignment,
        viewer,
    })
}

/// Replays `log`'s positions, keeping the replay after each prefix of its
/// compared events in `points` (capped where a rule error stops it).
fn replay_points(log: &Log, points: &[usize]) -> Result<Replayed, String> {
    let alignment = log.alignment.as_ref().map_err(Clone::clone)?;
    let compared = log.game().events.len();
    match align::replay_points(&log.doc.game, alignment, compared, points, log.viewer) {
        Ok(p) => Ok(Replayed {
            at: p.at,
            fault: p.error.map(|e| DiffFault::from(PlacedError::new(&log.doc, &e))),
            hidden_fault: p.hidden,
            applied: p.applied,
        }),
        Err(StartError::Header { tag, error }) => Ok(Replayed {
            at: Vec::new(),
            fault: Some(DiffFault::from(PlacedError::in_header(
                &log.doc,
                tag.as_deref(),
                &error,
            ))),
            hidden_fault: false,
            applied: 0,
        }),
    }
}

impl From<PlacedError> for DiffFault {
    fn from(p: PlacedError) -> DiffFault {
        DiffFault {
            line: p.line,
            column: p.column,
            rule: p.rule.name(),
            message: p.message,
        }
    }
}

/// The first tag where the two headers part, with both lines.
fn header_part(a: &Log, b: &Log) -> Option<HeaderPart> {
    let (ta, tb) = (&a.game().header.tags, &b.game().header.tags);
    let i = first_parting(ta, tb)?;
    let line = |log: &Log, tag: Option<&fgn_notation::Tag>| {
        tag.map(|t| Line {
            line: log
                .doc
                .game
                .header
                .tags
                .iter()
                .position(|x| x == t)
                .and_then(|j| log.doc.tag_lines.get(j).copied()),
            text: t.to_string(),
        })
    };
    let tag = ta.get(i).or(tb.get(i)).map(|t| t.name.clone()).unwrap_or_default();
    Some(HeaderPart {
        tag,
        a: line(a, ta.get(i)),
        b: line(b, tb.get(i)),
    })
}

/// The index of the first compared event where the logs part, by their
/// texts, or the end of the shorter one; `None` when every event is the
/// same. Each pair of texts is written in turn, not every event's kept.
fn event_parting(a: &Log, b: &Log) -> Option<usize> {
    use std::fmt::Write;
    let (mut ta, mut tb) = (String::new(), String::new());
    let text = |log: &Log, i: usize, out: &mut String| {
        out.clear();
        log.event(i).map(|e| write!(out, "{e}").expect("writing to a String"))
    };
    let n = a.game().events.len().max(b.game().events.len());
    (0..n).find(|&i| text(a, i, &mut ta) != text(b, i, &mut tb) || ta != tb)
}

/// The changes between the two positions, as the perspective knows them.
fn changes(side: Option<Color>, a: &Replay, b: &Replay) -> Vec<Change> {
    match side {
        None => state_changes(&a.state(), &b.state(), None),
        Some(c) => knowledge_changes(&a.knowledge(Viewer::of(c)), &b.knowledge(Viewer::of(c)), None),
    }
}

/// Why no view of a log could be made, so that nothing can be compared
/// from the player's perspective: a usage error (exit 2), not a verdict.
fn report_view_error(name: &str, error: &ViewError, rep: &mut Reporter) {
    if error.is_unsupported() {
        rep.unsupported(name, &error.to_string());
    } else {
        rep.error(&format!("{name}: no view of it can be made: {error}"));
    }
}

/// `fgn diff`.
pub fn diff(first: &Path, second: &Path, side: Option<Side>, rep: &mut Reporter) {
    let Some([(a_name, a_doc), (b_name, b_doc)]) = read_pair(first, second, "diff", rep) else {
        return;
    };
    let side = match perspective(&a_doc, &b_doc, side.map(Side::color)) {
        Ok(s) => s,
        Err(e) => return rep.error(&e),
    };
    let (a, b) = match (
        prepare(a_name.clone(), a_doc, side),
        prepare(b_name.clone(), b_doc, side),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return report_view_error(&a_name, &e, rep),
        (_, Err(e)) => return report_view_error(&b_name, &e, rep),
    };
    let hashes = (a.log_hash, b.log_hash);
    let same = hashes.0 == hashes.1;
    let parting = if same { None } else { event_parting(&a, &b) };
    let header = if same { None } else { header_part(&a, &b) };
    let event = parting.map(|i| {
        let line = |log: &Log| {
            log.event(i).map(|e| Line {
                line: log.line(i),
                text: e.to_string(),
            })
        };
        EventPart {
            index: i,
            a: line(&a),
            b: line(&b),
        }
    });
    // The positions after the first differing event (or, for the log
    // that lacks it, at its end), and at both ends.
    let (na, nb) = (a.game().events.len(), b.game().events.len());
    let mut points = Vec::new();
    if let Some(i) = parting {
        points.push(((i + 1).min(na), (i + 1).min(nb)));
    }
    if !same {
        points.push((na, nb));
    }
    let replayed = (
        replay_points(&a, &points.iter().map(|p| p.0).collect::<Vec<_>>()),
        replay_points(&b, &points.iter().map(|p| p.1).collect::<Vec<_>>()),
    );
    let mut compared_points: Vec<Option<Point>> = points.iter().map(|_| None).collect();
    if let (Ok(ra), Ok(rb)) = &replayed {
        if ra.at.len() == points.len() && rb.at.len() == points.len() {
            for (slot, (&(ka, kb), (pa, pb))) in compared_points
                .iter_mut()
                .zip(points.iter().zip(ra.at.iter().zip(&rb.at)))
            {
                *slot = Some(Point {
                    a_events: ka.min(ra.applied),
                    b_events: kb.min(rb.applied),
                    changes: changes(side, pa, pb),
                });
            }
        }
    }
    let (a_report, b_report) = (
        log_report(&a, replayed.0, hashes.0, same, rep),
        log_report(&b, replayed.1, hashes.1, same, rep),
    );
    let end = compared_points.pop().flatten();
    let there = compared_points.pop().flatten();
    let report = Report {
        format: "fgn-diff",
        version: 3,
        kind: "diff",
        perspective: side,
        same,
        a: a_report,
        b: b_report,
        header,
        event,
        there,
        end,
    };
    if !same {
        rep.status = rep.status.max(Status::Invalid);
    }
    match rep.format {
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::to_string_pretty(&report).expect("a diff serialises")
        ),
        Format::Text => print_text(&report, rep),
    }
}

/// What the report says of one log, with a note on how far its positions go.
fn log_report(log: &Log, replayed: Result<Replayed, String>, hash: Digest, same: bool, rep: &Reporter) -> LogReport {
    let error = match replayed {
        Ok(r) => {
            if let Some(f) = &r.fault {
                rep.note(&format!(
                    "{}:{}:{}: [{}] {}; its positions go as far as it replays, its first {} events",
                    log.name, f.line, f.column, f.rule, f.message, r.applied
                ));
            }
            if let (true, Some(side)) = (r.hidden_fault, log.viewer) {
                rep.note(&format!(
                    "{}: {}; its positions go as far as it replays, its first {} events",
                    log.name,
                    crate::texts::hidden_fault_message(&log.name, side),
                    r.applied
                ));
            }
            r.fault
        }
        Err(why) => {
            if !same {
                rep.note(&format!("{}: its positions are not compared: {why}", log.name));
            }
            None
        }
    };
    LogReport {
        file: log.name.clone(),
        log_hash: hash,
        events: log.game().events.len(),
        error,
    }
}

/// What is compared, in words.
fn whose(side: Option<Color>) -> String {
    match side {
        None => "the logs".into(),
        Some(c) => format!("{}'s views", c.name()),
    }
}

fn print_text(r: &Report, rep: &Reporter<'_>) {
    let what = whose(r.perspective);
    if r.same {
        // The exit status says it; --quiet leaves the line out.
        if rep.quiet {
            return;
        }
        outln!(
            rep,
            "same: {what} of {} and {} are the same ({}, {} events)",
            r.a.file,
            r.b.file,
            r.a.log_hash,
            r.a.events
        );
        return;
    }
    outln!(rep, "different: {what} of {} (A) and {} (B) differ", r.a.file, r.b.file);
    outln!(rep, "  A: {}  {} events", r.a.log_hash, r.a.events);
    outln!(rep, "  B: {}  {} events", r.b.log_hash, r.b.events);
    let line = |who: &str, l: &Option<Line>, missing: &str| match l {
        Some(Line { line: Some(n), text }) => outln!(rep, "  {who}:{n}  {text}"),
        Some(Line { line: None, text }) => outln!(rep, "  {who}  {text}"),
        None => outln!(rep, "  {who}: {missing}"),
    };
    if let Some(h) = &r.header {
        outln!(rep, "header: the tag `{}` differs", h.tag);
        line("A", &h.a, "has no such tag there");
        line("B", &h.b, "has no such tag there");
    }
    if let Some(e) = &r.event {
        let view = r
            .perspective
            .map_or(String::new(), |c| format!(" of {}'s view", c.name()));
        outln!(rep, "event {}{view} differs:", e.index + 1);
        line("A", &e.a, "ends before it");
        line("B", &e.b, "ends before it");
    }
    if let Some(p) = &r.there {
        print_point(
            &format!("after it (A's event {}, B's event {})", p.a_events, p.b_events),
            p,
            r.perspective,
            rep,
        );
    }
    if let Some(p) = &r.end {
        let same_point = r
            .there
            .as_ref()
            .is_some_and(|t| (t.a_events, t.b_events) == (p.a_events, p.b_events));
        if !same_point {
            print_point(
                &format!("at the end (A's event {}, B's event {})", p.a_events, p.b_events),
                p,
                r.perspective,
                rep,
            );
        }
    }
}

fn print_point(when: &str, p: &Point, side: Option<Color>, rep: &Reporter<'_>) {
    let known = side.map_or(String::new(), |c| format!(" as {} knows them", c.name()));
    if p.changes.is_empty() {
        outln!(rep, "{when}, the positions are the same{known}");
        return;
    }
    outln!(rep, "{when}, the positions differ{known}:");
    // Light, sight and spawn windows change on many squares at once: one
    // line each lists the squares.
    let mut grouped: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for c in &p.changes {
        match c {
            Change::Light { square, .. } => grouped.entry("light").or_default().push(square.to_string()),
            Change::Sight { square, .. } => grouped.entry("sight").or_default().push(square.to_string()),
            Change::Spawnable { square, .. } => grouped.entry("spawnable").or_default().push(square.to_string()),
            other => outln!(rep, "  {}", describe(other)),
        }
    }
    for (what, squares) in grouped {
        let n = squares.len();
        let plural = if n == 1 { "" } else { "s" };
        outln!(rep, "  {what} differs on {n} square{plural}: {}", squares.join(" "));
    }
}

/// A value of a change's JSON, in words.
fn text(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.is_empty() => "none".into(),
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// A piece, `wP` or `w man`.
fn man(color: Color, piece: &fgn_replay::changes::Piece) -> String {
    use fgn_replay::changes::Piece;
    match piece {
        Piece::Man | Piece::King => format!("{} {piece}", color.char()),
        _ => format!("{}{piece}", color.char()),
    }
}

/// One change between A's position and B's, in words.
fn describe(change: &Change) -> String {
    let square = |s: &Option<fgn_notation::Square>| s.map_or("?".to_string(), |s| s.to_string());
    match change {
        Change::Removed { square, color, piece } => format!("{square}: {} in A only", man(*color, piece)),
        Change::Placed { square, color, piece } => format!("{square}: {} in B only", man(*color, piece)),
        Change::Unseen { square, color, piece } => {
            format!("{square}: {} seen in A, out of sight in B", man(*color, piece))
        }
        Change::Seen { square, color, piece } => {
            format!("{square}: {} out of sight in A, seen in B", man(*color, piece))
        }
        Change::Moved { from, to, color, piece } => {
            format!(
                "{}: on {} in A, on {} in B",
                man(*color, piece),
                square(from),
                square(to)
            )
        }
        other => {
            // Every other kind has `before` and `after`; the rest of its
            // fields say what they are of.
            let Ok(Value::Object(fields)) = serde_json::to_value(other) else {
                return format!("{other:?}");
            };
            let kind = fields.get("type").map(text).unwrap_or_default().replace('_', " ");
            let of: Vec<String> = fields
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "type" | "before" | "after"))
                .map(|(_, v)| text(v))
                .collect();
            let subject = if of.is_empty() {
                kind
            } else {
                format!("{kind} {}", of.join(" "))
            };
            match (fields.get("before"), fields.get("after")) {
                (Some(b), Some(a)) => format!("{subject}: {} in A, {} in B", value(b), value(a)),
                _ => subject,
            }
        }
    }
}

/// A `before` or `after` value in words: turns and statuses spelled out,
/// anything else as its JSON.
fn value(v: &Value) -> String {
    let field = |k: &str| v.get(k).map(text).unwrap_or_default();
    match (v.get("stage"), v.get("phase")) {
        (Some(stage), _) if stage == "play" => format!("{} to move, move {}", field("side"), field("number")),
        (Some(_), _) => format!(
            "setup (ready: w {}, b {})",
            text(&v["ready"]["w"]),
            text(&v["ready"]["b"])
        ),
        (_, Some(phase)) if phase == "awaiting-extra" => format!("awaiting the answer to {}'s timeout", field("late")),
        (_, Some(phase)) if phase == "playing" => "playing".into(),
        (_, Some(phase)) => format!("{} {} {}", text(phase), field("outcome"), field("reason")),
        _ => match v {
            Value::Object(_) => v.to_string(),
            other => text(other),
        },
    }
}
