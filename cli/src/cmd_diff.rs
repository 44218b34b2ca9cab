//! `fgn diff A B [--as white|black]`: whether two logs are the same game
//! after canonicalisation, and if not where they part (a header tag, an
//! event, or one ending first) and how their positions differ there and at
//! the end, from the referee's or one player's perspective. The
//! comparison is `fgn_tools::diff`'s; this file reads the two files and
//! words and prints what it finds.

use std::collections::BTreeMap;
use std::path::Path;

use fgn_notation::Color;
use fgn_replay::{Change, ViewError};
use fgn_tools::diff::{compare, DiffError, Line, Point, Positions, Report};
use serde_json::Value;

use crate::cmd_hash::read_pair;
use crate::cmd_view::Side;
use crate::out::outln;
use crate::report::{Format, Reporter, Status};

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
    let Some([a, b]) = read_pair(first, second, "diff", rep) else {
        return;
    };
    let found = match compare(a, b, side.map(Side::color)) {
        Ok(found) => found,
        Err(DiffError::Perspective(e)) => return rep.error(&e),
        Err(DiffError::View { name, error }) => return report_view_error(&name, &error, rep),
    };
    let report = &found.report;
    for (log, positions) in [&report.a, &report.b].into_iter().zip(&found.positions) {
        note_positions(log, positions, report.same, rep);
    }
    if !report.same {
        rep.status = rep.status.max(Status::Invalid);
    }
    match rep.format {
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::to_string_pretty(report).expect("a diff serialises")
        ),
        Format::Text => print_text(report, rep),
    }
}

/// Notes how far a log's positions go where a rule error stopped them
/// early, or why they are not compared.
fn note_positions(log: &fgn_tools::diff::LogReport, positions: &Positions, same: bool, rep: &Reporter) {
    match positions {
        Positions::Replayed { applied, hidden_fault } => {
            if let Some(f) = &log.error {
                rep.note(&format!(
                    "{}:{}:{}: [{}] {}; its positions go as far as it replays, its first {} events",
                    log.file, f.line, f.column, f.rule, f.message, applied
                ));
            }
            if let Some(side) = hidden_fault {
                rep.note(&format!(
                    "{}: {}; its positions go as far as it replays, its first {} events",
                    log.file,
                    crate::texts::hidden_fault_message(&log.file, *side),
                    applied
                ));
            }
        }
        Positions::NotCompared(why) => {
            if !same {
                rep.note(&format!("{}: its positions are not compared: {why}", log.file));
            }
        }
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
