//! `fgn select`: the logs of an archive that match a filter, as paths or
//! (`--format json`) as their summaries, and `--duplicates`: the groups of
//! files that hold the same game. The filter and the groups are
//! `fgn_tools::archive`'s; the summaries `fgn_tools::summary`'s.

use std::path::PathBuf;

use fgn_tools::archive::{Duplicates, Filter, Selection};
use fgn_tools::summary::{ErrorKind, Summary, WarningKind};

use crate::out::outln;
use crate::report::{Format, Reporter};

/// Reports a summary's rule fault on standard error, as `validate` does (a
/// syntax error is reported by the pipeline already; an unsupported log
/// is said as every command says it, but as a note, since selecting it is
/// not an error).
pub fn report_fault(name: &str, summary: &Summary, rep: &mut Reporter) {
    let Some(e) = &summary.error else { return };
    match e.kind {
        ErrorKind::Syntax => {}
        ErrorKind::Rule => rep.rule_error(name, e.line, e.column, e.rule.unwrap_or("header"), &e.message),
        ErrorKind::Unsupported => rep.unsupported_note(name, &e.message),
    }
}

/// Under `--strict`, reports a summary's warnings that the pipeline has not
/// (a torn last line it has), each as an error of its file; without it they
/// stay in the summary (`warnings`) and in `stats`' count.
pub fn report_strict_warnings(name: &str, summary: &Summary, rep: &mut Reporter) {
    if !rep.strict {
        return;
    }
    for w in summary.warnings.iter().filter(|w| w.kind != WarningKind::TornLine) {
        rep.warning(name, w.line, &w.message);
    }
}

/// Runs `sink` on the summary of every input, in input order, on the
/// streaming pipeline, with each input's fault reported by the worker.
pub fn each_summary(
    paths: &[PathBuf],
    rep: &mut Reporter,
    mut sink: impl FnMut(String, Summary, &mut Reporter) + Send,
) {
    each_summary_with(paths, rep, |_, _| (), |name, summary, (), rep| sink(name, summary, rep));
}

/// [`each_summary`], with `more`, what else a command needs of each log
/// and its summary, worked out by the worker too (on every core, as the
/// summary is) and handed to `sink` beside it.
pub fn each_summary_with<T: Send>(
    paths: &[PathBuf],
    rep: &mut Reporter,
    more: impl Fn(&fgn_notation::Parsed, &Summary) -> T + Sync,
    mut sink: impl FnMut(String, Summary, T, &mut Reporter) + Send,
) {
    crate::pipeline::each(
        paths,
        rep,
        |log, rep| {
            let summary = fgn_tools::summary::summarize(&log.parsed);
            report_fault(&log.name, &summary, rep);
            report_strict_warnings(&log.name, &summary, rep);
            let more = more(&log.parsed, &summary);
            (log.name, summary, more)
        },
        |(name, summary, more), rep| sink(name, summary, more, rep),
    );
}

/// `fgn select`. Every input's fault is reported on standard error as
/// `validate` reports it (exit 1 when some input is invalid, whether or not
/// it is selected); the selection on standard output is complete either way.
///
/// A filter no log can match (`--min-moves 50 --max-moves 10`) is a usage
/// error, as `fmt --check --write` is. Logs passed over because their
/// `Date` cannot answer a date bound are counted, and a note says how many.
pub fn select(paths: &[PathBuf], filter: &Filter, duplicates: bool, rep: &mut Reporter) {
    if let Some(why) = filter.contradiction() {
        rep.error(&why);
        return;
    }
    let format = rep.format;
    let mut groups = Duplicates::default();
    let mut undated = 0usize;
    each_summary(paths, rep, |name, summary, rep| {
        match filter.select(&summary) {
            Selection::Kept => {}
            Selection::Dropped => return,
            Selection::Undated => {
                undated += 1;
                return;
            }
        }
        if duplicates {
            if let Some(hash) = summary.log_hash {
                groups.add(hash, name);
            }
            return;
        }
        match format {
            Format::Text => outln!(rep, "{name}"),
            Format::Json => outln!(
                rep,
                "{}",
                serde_json::json!({"type": "summary", "file": name, "summary": summary})
            ),
        }
    });
    if undated > 0 {
        let logs = if undated == 1 { "log" } else { "logs" };
        rep.note(&format!(
            "{undated} {logs} passed over by --since/--until: no Date tag, one that is no date, \
             or one too vague for the bound (such as 2025.??.?? for 2025-03)"
        ));
    }
    if duplicates {
        for (hash, files) in groups.groups() {
            match format {
                Format::Text => {
                    outln!(rep, "{hash}");
                    for f in files {
                        outln!(rep, "  {f}");
                    }
                }
                Format::Json => outln!(
                    rep,
                    "{}",
                    serde_json::json!({"type": "duplicates", "log_hash": hash, "files": files})
                ),
            }
        }
    }
}
