//! The table options `fgn events` and `fgn json --parquet` share
//! (docs/analysis.md): the columns chosen, the schema printed, and the
//! Parquet folder made ready and written in input order. Below both
//! commands, so that neither reaches into the other.

use std::path::{Path, PathBuf};

use fgn_tools::table::{ParquetWriter, Selection, Table};

use crate::report::Reporter;

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
