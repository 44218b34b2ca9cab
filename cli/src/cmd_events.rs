//! `fgn events`: every event of every log as one flat JSON row per line, or
//! as Parquet files (docs/analysis.md, docs/json.md §16). The rows, their
//! columns and the writers are `fgn_tools::events` and
//! `fgn_tools::table`'s, the options it shares with `fgn json --parquet`
//! are `crate::tables`'; this file only reads the logs and hands the rows
//! on.

use std::path::PathBuf;

use crate::cmd_syntax::file_name;
use crate::report::Reporter;
use crate::tables::{plan, ParquetSink, Plan, TableOptions};

/// How much of the output is written at once.
const BLOCK: usize = 64 * 1024;

/// `fgn events`: the rows of every log in input order, as NDJSON or into
/// Parquet files. A log whose rules refuse an event gives its later
/// events unapplied, and its rule error is reported on standard error
/// (exit 1); a log that cannot be replayed (a view) gives every event
/// unapplied and a note; a file that cannot be read as FGN gives one row
/// of type `unreadable`, its syntax error reported as every command
/// reports it.
pub fn events(paths: &[PathBuf], options: &TableOptions, rep: &mut Reporter) {
    let table = &fgn_tools::events::EVENTS;
    match plan(table, options, rep) {
        Plan::Done => {}
        Plan::Ndjson(selection) => {
            crate::pipeline::each(
                paths,
                rep,
                |log, rep| {
                    // Rows are written as they come, a block at a time: a
                    // long log's rows are many times its text, and held
                    // whole they took gigabytes (issue 36).
                    let mut text = String::new();
                    let (summary, file) = summarized(&log, rep);
                    fgn_tools::events::each_row(&log.parsed, &summary, file.as_deref(), |row| {
                        table.write_json(&selection, &row, &mut text);
                        if text.len() >= BLOCK {
                            rep.print(&text);
                            text.clear();
                        }
                    });
                    rep.print(&text);
                },
                |(), _| {},
            );
        }
        Plan::Parquet(writer, dir) => {
            let mut sink = ParquetSink::new(writer, dir);
            crate::pipeline::each(
                paths,
                rep,
                |log, rep| {
                    let mut rows = Vec::new();
                    let (summary, file) = summarized(&log, rep);
                    fgn_tools::events::each_row(&log.parsed, &summary, file.as_deref(), |row| rows.push(row));
                    rows
                },
                |rows, rep| sink.push(&rows, rep),
            );
            sink.finish(rep);
        }
    }
}

/// A log's summary and file name, with its rule error or note reported
/// (its syntax errors the pipeline has reported).
fn summarized(log: &crate::pipeline::Log, rep: &mut Reporter) -> (fgn_tools::summary::Summary, Option<String>) {
    let summary = fgn_tools::summary::summarize(&log.parsed);
    if log.parsed.is_ok() {
        crate::cmd_select::report_fault(&log.name, &summary, rep);
    }
    (summary, file_name(&log.input, &log.name))
}
