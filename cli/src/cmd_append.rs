//! `fgn append` and `fgn append --repair`: the library's durable append
//! (`fgn_tools::append`) with its refusals reported as every command
//! reports them.

use std::path::Path;

use fgn_replay::StartError;
use fgn_tools::append::{AppendError, TornLine};
use fgn_tools::placed::PlacedError;

use crate::out::outln;
use crate::report::{Format, Reporter};

/// `fgn append FILE EVENT...`.
pub fn append(path: &Path, events: &[String], rep: &mut Reporter) {
    let name = path.display().to_string();
    if path.as_os_str() == "-" {
        return rep.error("append writes to a log file, not to standard output: name the file");
    }
    if fgn_tools::inputs::is_packed(path) {
        return rep.file_error(
            &name,
            "not appended to: it is compressed or an archive, and fgn never writes into those",
        );
    }
    match fgn_tools::append::append(path, events) {
        Ok(appended) => {
            // A bare action is written with the move number and side the
            // game gave it: say so, since the line is not what was typed.
            for &k in &appended.completed {
                if let (Some(given), Some(line)) = (events.get(k), appended.lines.get(k)) {
                    rep.note(&format!(
                        "{name}: `{}` is written as `{line}` (the move number and side of the side to act)",
                        given.trim()
                    ));
                }
            }
            report_appended(&name, &appended, rep);
        }
        Err(e) => {
            // A file of several games reads as one log with a header after
            // its events; it is refused for what it is, not for that
            // (looked for only once the file was refused, so an append pays
            // nothing for it).
            let several = matches!(e, AppendError::FileSyntax(_))
                .then(|| std::fs::read(path).ok())
                .flatten()
                .filter(|bytes| !fgn_notation::split::split(bytes).is_one_log());
            match several {
                Some(bytes) => {
                    let games = fgn_notation::split::count_games(&bytes);
                    rep.file_error(&name, &fgn_tools::inputs::several_games(games, "this command"));
                }
                None => report(&name, &e, rep),
            }
            let index = match &e {
                AppendError::EventSyntax { index, .. } | AppendError::EventRule { index, .. } => Some(*index),
                _ => None,
            };
            let batch = match index {
                Some(index) if events.len() > 1 => {
                    format!(
                        " (event {} of {} is refused, so none is appended: a batch is all or nothing)",
                        index + 1,
                        events.len()
                    )
                }
                _ => String::new(),
            };
            // A file that could not be opened or read was never touched; a
            // refusal, or a write taken back, is worth saying so about.
            let untouched = matches!(
                e,
                AppendError::NotAFile
                    | AppendError::Io {
                        action: "open" | "lock" | "read",
                        ..
                    }
            );
            if e.file_unchanged() && !untouched {
                rep.note(&format!("{name}: nothing appended; the file is unchanged{batch}"));
            }
            // With --format json a refusal has its result object too, so
            // that a program reading standard output alone learns of it.
            if rep.format == Format::Json {
                outln!(
                    rep,
                    "{}",
                    serde_json::json!({
                        "type": "refusal",
                        "file": name,
                        "error": error_text(&e),
                        "event": index.map(|i| i + 1),
                        "unchanged": e.file_unchanged(),
                    })
                );
            }
        }
    }
}

/// The library's message of a refusal, with the system's error in words
/// (never Rust's `(os error N)`).
fn error_text(e: &AppendError) -> String {
    match e {
        AppendError::Io { error, .. } => e
            .to_string()
            .replace(&error.to_string(), &crate::texts::io_error_text(error)),
        _ => e.to_string(),
    }
}

/// Writes what an append wrote: the count and lines in text, the result
/// object in JSON.
fn report_appended(name: &str, appended: &fgn_tools::append::Appended, rep: &mut Reporter) {
    match rep.format {
        // The file is the output; what was appended is a report, which
        // --quiet leaves out (the JSON result is the output asked for).
        Format::Text if rep.quiet => {}
        Format::Text => {
            let count = appended.lines.len();
            let noun = if count == 1 { "event" } else { "events" };
            outln!(
                rep,
                "{name}: appended {count} {noun} ({} in the log), log hash {}",
                appended.events,
                appended.log_hash
            );
            for line in &appended.lines {
                outln!(rep, "  {line}");
            }
        }
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::json!({
                "type": "append",
                "file": name,
                "appended": appended.lines.len(),
                "lines": appended.lines,
                "events": appended.events,
                "log_hash": appended.log_hash.to_string(),
            })
        ),
    }
}

/// `fgn append --repair FILE`.
pub fn repair(path: &Path, rep: &mut Reporter) {
    let name = path.display().to_string();
    match fgn_tools::append::repair(path) {
        Ok(repaired) => {
            let cut = &repaired.torn;
            match rep.format {
                Format::Text => {
                    if let Some(bytes) = repaired.leftover {
                        outln!(
                            rep,
                            "{name}: removed the temporary file of an append killed before it finished ({bytes} bytes, never part of the log)"
                        );
                    }
                    match cut {
                        Some(torn) => outln!(
                            rep,
                            "{name}: cut the torn line {}: `{}` ({} bytes)",
                            torn.line,
                            torn.shown(),
                            torn.bytes.len()
                        ),
                        // What was cut is the output asked for; that
                        // nothing was is a report, which --quiet leaves out.
                        None if rep.quiet => {}
                        None => outln!(rep, "{name}: the last line is complete; nothing to repair"),
                    }
                }
                Format::Json => outln!(
                    rep,
                    "{}",
                    serde_json::json!({
                        "type": "repair",
                        "file": name,
                        "repaired": cut.is_some(),
                        "line": cut.as_ref().map(|t| t.line),
                        "bytes": cut.as_ref().map(|t| t.bytes.len()),
                        "cut": cut.as_ref().map(TornLine::shown),
                        "leftover_removed": repaired.leftover,
                    })
                ),
            }
        }
        Err(e) => report(&name, &e, rep),
    }
}

/// Reports why `name` was not appended to (or repaired): a refusal is an
/// invalid input (exit 1); a file that cannot be used or checked, exit 2.
fn report(name: &str, e: &AppendError, rep: &mut Reporter) {
    match e {
        AppendError::Io { .. } => rep.error(&format!("{name}: {}", error_text(e))),
        AppendError::NotAFile => rep.error(&format!("{name}: {e}")),
        AppendError::TooLarge { .. } | AppendError::Torn(_) => rep.invalid(name, &e.to_string()),
        AppendError::FileSyntax(diagnostics) => {
            for d in diagnostics {
                rep.diagnostic(name, d, "syntax");
            }
        }
        AppendError::FileStart { error, line } => match error {
            StartError::Header { error: rule, .. } if !error.is_unsupported() => {
                rep.rule_error(name, *line, 1, rule.rule.name(), &rule.message)
            }
            _ => rep.unsupported(name, &error.to_string()),
        },
        AppendError::FileRule {
            error,
            event,
            line,
            column,
        }
        | AppendError::EventRule {
            error,
            event,
            line,
            column,
            ..
        } => crate::cmd_replay::report_placed(name, &PlacedError::at_event(event, *line, *column, error), rep),
        AppendError::EventSyntax { diagnostic, .. } => rep.diagnostic(name, diagnostic, "syntax"),
    }
}
