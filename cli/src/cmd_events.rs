//! `fgn events`: every event of every log as one flat JSON row per line, or
//! as Parquet files (docs/analysis.md, docs/json.md §16); and the table
//! options `events` shares with `fgn json --parquet` (the columns, the
//! schema, the Parquet folder). The rows, their columns and the writers
//! are `fgn_tools::events` and `fgn_tools::table`'s; this file only reads
//! the logs and hands the rows on.

use std::path::{Path, PathBuf};

use fgn_tools::table::{ParquetWriter, Selection, Table};

use crate::cmd_syntax::file_name;
use crate::report::Reporter;

/// How much of the output is written at once.
const BLOCK: usize = 64 * 1024;

/// The forms of `--schema`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaForm {
    /// DuckDB's `columns={...}` clause.
    Duckdb,
    /// A JSON description of the columns.
    Json,
}

/// The table options of `events` and `json`.
#[derive(Clone, Copy, Debug)]
pub struct TableOptions<'a> {
    /// `--parquet DIR`.
    pub parquet: Option<&'a Path>,
    /// `--force`.
    pub force: bool,
    /// `--columns LIST`.
    pub columns: Option<&'a str>,
    /// `--schema FORM`.
    pub schema: Option<SchemaForm>,
}

/// What a table command does once its options are read.
pub enum Plan<R: 'static> {
    /// Nothing more (the schema was printed, or the options were refused
    /// and reported).
    Done,
    /// Write the selected columns as NDJSON.
    Ndjson(Selection),
    /// Write them as Parquet files into the folder.
    Parquet(Box<ParquetWriter<R>>, PathBuf),
}

/// Reads the table options: the columns chosen (a name the table does not
/// have is a usage error listing its names), the schema printed, or the
/// Parquet folder made ready (its earlier part files refused without
/// `--force`, removed with it, so that the folder holds one run's table).
pub fn plan<R: 'static>(table: &'static Table<R>, options: &TableOptions, rep: &mut Reporter) -> Plan<R> {
    let selection = match options.columns {
        None => table.default_selection(),
        Some(spec) => match table.select(spec) {
            Ok(s) => s,
            Err(e) => {
                rep.error(&e);
                return Plan::Done;
            }
        },
    };
    match options.schema {
        Some(SchemaForm::Duckdb) => {
            rep.print(&format!("{}\n", table.duckdb_columns(&selection)));
            return Plan::Done;
        }
        Some(SchemaForm::Json) => {
            rep.print(&table.json_description(&selection));
            return Plan::Done;
        }
        None => {}
    }
    let Some(dir) = options.parquet else {
        return Plan::Ndjson(selection);
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        rep.error(&format!(
            "{}: cannot make the directory: {}",
            dir.display(),
            crate::texts::io_error_text(&e)
        ));
        return Plan::Done;
    }
    let existing = ParquetWriter::existing_parts(table, dir);
    if !existing.is_empty() && !options.force {
        for path in &existing {
            rep.error(&format!(
                "{}: not written: it already exists (--force overwrites it)",
                path.display()
            ));
        }
        return Plan::Done;
    }
    for path in &existing {
        if let Err(e) = std::fs::remove_file(path) {
            rep.error(&format!(
                "{}: not replaced: {}",
                path.display(),
                crate::texts::io_error_text(&e)
            ));
            return Plan::Done;
        }
    }
    match ParquetWriter::new(table, selection, dir) {
        Ok(writer) => Plan::Parquet(Box::new(writer), dir.to_path_buf()),
        Err(e) => {
            rep.error(&e);
            Plan::Done
        }
    }
}

/// Hands rows to the Parquet writer in input order, reporting the first
/// error once and dropping the rows after it.
pub struct ParquetSink<R: 'static> {
    writer: Option<Box<ParquetWriter<R>>>,
    dir: PathBuf,
}

impl<R: 'static> ParquetSink<R> {
    /// A sink into `writer`, which writes into `dir`.
    pub fn new(writer: Box<ParquetWriter<R>>, dir: PathBuf) -> Self {
        ParquetSink {
            writer: Some(writer),
            dir,
        }
    }

    /// Writes `rows`; an error is reported and ends the writing.
    pub fn push(&mut self, rows: &[R], rep: &mut Reporter) {
        let Some(writer) = self.writer.as_mut() else { return };
        for row in rows {
            if let Err(e) = writer.push(row) {
                rep.error(&e);
                self.writer = None;
                return;
            }
        }
    }

    /// Closes the files and says what was written.
    pub fn finish(self, rep: &mut Reporter) {
        let Some(writer) = self.writer else { return };
        match writer.finish() {
            Ok(files) => rep.wrote(&self.dir, Some(files.len())),
            Err(e) => rep.error(&e),
        }
    }
}

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
    (summary, file_name(&log.input))
}
