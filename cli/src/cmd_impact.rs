//! `fgn impact`: what a change of rules does to recorded games. The
//! comparison is `fgn_tools::impact`'s; this file reads the inputs and
//! writes the report (docs/impact.md).

use std::path::{Path, PathBuf};

use fgn_tools::impact::{Divergence, Failure, Impact, ImpactSummary, Mode, VerdictChange};
use serde::Serialize;

use crate::cmd_replay::{load_rules, report_overrides};
use crate::out::outln;
use crate::report::{Format, Reporter, Status};
use crate::texts::status_text;

/// One game's line of `--format json`: its file and its impact.
#[derive(Serialize)]
struct GameReport<'a> {
    /// Always `impact` (docs/json.md §17, "The type of every object").
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    changed: bool,
    #[serde(flatten)]
    impact: &'a Impact,
}

/// What became of one log in `impact`.
enum Compared {
    /// Compared under both rule sets.
    Compared(Box<Impact>),
    /// Not compared (reported); the game, when a one-game rules file does
    /// not fit it.
    NotChecked(Option<fgn_notation::GameKind>),
}

/// `fgn impact --rules FILE [--resimulate] PATH...`.
pub fn impact(paths: &[PathBuf], rules_path: &Path, resimulate: bool, rep: &mut Reporter) {
    let rules = match load_rules(Some(rules_path), rep.io()) {
        Ok(r) => r,
        Err(e) => return rep.error(&e),
    };
    let rules = &rules;
    let mut summary = ImpactSummary::default();
    crate::pipeline::each(
        paths,
        rep,
        |log, rep| {
            let name = &log.name;
            let p = &log.parsed;
            if !p.is_ok() {
                // The syntax errors are reported; a log that cannot be read
                // cannot be compared, which is the command's failure (exit 2).
                rep.error(&format!("{name}: not compared: it cannot be read as FGN"));
                return Compared::NotChecked(None);
            }
            let Some(kind) = p.document.game.kind() else {
                rep.error(&format!("{name}: not compared: the header names no game"));
                return Compared::NotChecked(None);
            };
            let Ok(params) = rules.params(kind) else {
                return Compared::NotChecked(Some(kind));
            };
            let impact = match fgn_tools::impact::impact(&p.document, params, resimulate) {
                Ok(impact) => impact,
                Err(e) => {
                    rep.unsupported(name, &e.to_string());
                    return Compared::NotChecked(None);
                }
            };
            report_overrides(name, &impact.overridden, rep);
            match rep.format {
                Format::Text if impact.changed() => rep.print(&game_text(name, &impact)),
                Format::Text => {}
                Format::Json => outln!(
                    rep,
                    "{}",
                    serde_json::to_string(&GameReport {
                        kind: "impact",
                        file: name,
                        changed: impact.changed(),
                        impact: &impact,
                    })
                    .expect("an impact serialises")
                ),
            }
            Compared::Compared(Box::new(impact))
        },
        |compared, rep| match compared {
            Compared::Compared(impact) => summary.add(&impact),
            Compared::NotChecked(refused) => {
                if let Some(game) = refused {
                    rules.refuse_once(game, rep);
                }
                summary.not_checked += 1;
            }
        },
    );
    match rep.format {
        // `--quiet` keeps the games that changed (the output asked for) and
        // leaves out the table that sums them up.
        Format::Text if rep.quiet => {}
        Format::Text => rep.print(&summary_text(&summary)),
        Format::Json => outln!(rep, "{}", serde_json::json!({ "type": "totals", "summary": summary })),
    }
    if summary.changed > 0 {
        rep.status = rep.status.max(Status::Invalid);
    }
}

/// A changed game's block of the text report.
fn game_text(name: &str, impact: &Impact) -> String {
    let kinds: Vec<&str> = impact.changes.iter().map(|c| c.name()).collect();
    let how = match impact.mode {
        Mode::Strict => "",
        Mode::Resimulated => " (resimulated)",
    };
    let mut out = format!("{name}: {}{how}\n", kinds.join(", "));
    let (before, after) = (&impact.before, &impact.after);
    for change in &impact.changes {
        let line = match change {
            VerdictChange::BecameInvalid => match impact.mode {
                Mode::Strict => format!("first failing event: {}", failure_text(after.failure.as_ref())),
                Mode::Resimulated => format!(
                    "first action that becomes illegal: {}",
                    failure_text(after.failure.as_ref())
                ),
            },
            VerdictChange::BecameValid => format!("no longer fails at {}", failure_text(before.failure.as_ref())),
            VerdictChange::FailureMoved => format!(
                "failed at {}; now fails at {}",
                failure_text(before.failure.as_ref()),
                failure_text(after.failure.as_ref())
            ),
            VerdictChange::WorldEvents => match &impact.diverged {
                Some(d) => divergence_text(d),
                None => continue,
            },
            VerdictChange::Result => format!(
                "result: {} -> {}",
                before.status.map_or("none".into(), status_text),
                after.status.map_or("none".into(), status_text)
            ),
            VerdictChange::StateHash => format!(
                "final state: {} -> {}",
                before.state_hash.map_or("none".into(), |h| h.to_string()),
                after.state_hash.map_or("none".into(), |h| h.to_string())
            ),
        };
        out += &format!("  {line}\n");
    }
    if let Some(note) = &impact.note {
        out += &format!("  {note}\n");
    }
    out
}

/// `line 24:5: `1 w c2-c3` [turn] it is black's turn`.
fn failure_text(failure: Option<&Failure>) -> String {
    let Some(f) = failure else {
        return "nothing".into();
    };
    let place = match (f.line, f.column) {
        (Some(l), Some(c)) => format!("line {l}:{c}: "),
        (Some(l), None) => format!("line {l}: "),
        _ => "a derived world event: ".into(),
    };
    let event = f.event.as_ref().map_or(String::new(), |e| format!("`{e}` "));
    format!("{place}{event}[{}] {}", f.rule, f.message)
}

/// Where the derived world events part from the recorded ones.
fn divergence_text(d: &Divergence) -> String {
    match (&d.recorded, &d.derived) {
        (Some(r), Some(x)) => format!(
            "the world parts at line {}: the log has `{}`, the changed rules derive `{x}`",
            r.line, r.event
        ),
        (Some(r), None) => format!(
            "the world parts at line {}: the log has `{}`, the changed rules derive nothing there",
            r.line, r.event
        ),
        (None, Some(x)) => format!("the world parts after the log's world events: the changed rules derive `{x}`"),
        (None, None) => "the world events differ".into(),
    }
}

/// The summary table.
fn summary_text(s: &ImpactSummary) -> String {
    let mut out = String::new();
    let mut row = |label: &str, n: usize| out += &format!("{label:<22}{n:>6}\n");
    row("games checked", s.checked);
    row("unchanged", s.unchanged);
    row("changed", s.changed);
    for (change, n) in &s.by_change {
        row(&format!("  {}", change.name()), *n);
    }
    row("resimulated", s.resimulated);
    row("not checked", s.not_checked);
    out
}
