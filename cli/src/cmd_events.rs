//! `fgn events`: every event of every log as one flat JSON row per line
//! (docs/json.md §16). The rows, their consequences and hashes are
//! `fgn_tools::events`'s; this file only reads the logs and writes them.

use std::path::PathBuf;

use crate::cmd_syntax::file_name;
use crate::report::Reporter;

/// How much of the output is written at once.
const BLOCK: usize = 64 * 1024;

/// `fgn events --ndjson`: the rows of each log that reads without syntax
/// errors, in input order. A log whose rules refuse an event gives its
/// later events unapplied, and its rule error is reported on standard
/// error (exit 1); a log that cannot be replayed (a view) gives every
/// event unapplied and a note.
pub fn events(paths: &[PathBuf], rep: &mut Reporter) {
    crate::pipeline::each(
        paths,
        rep,
        |log, rep| {
            if !log.parsed.is_ok() {
                return;
            }
            let summary = fgn_tools::summary::summarize(&log.parsed);
            crate::cmd_select::report_fault(&log.name, &summary, rep);
            let file = file_name(&log.input);
            // Rows are written as they come, a block at a time: a long
            // log's rows are many times its text, and held whole they
            // took gigabytes (issue 36).
            let mut text = String::new();
            fgn_tools::events::each_row(&log.parsed.document, file.as_deref(), |row| {
                text.push_str(&serde_json::to_string(&row).expect("a row always serializes"));
                text.push('\n');
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
