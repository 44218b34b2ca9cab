//! What is asked of many logs at once: `fgn.games` (each log's summary)
//! and the tables of docs/analysis.md (`fgn.games_table`,
//! `fgn.events_table`), over files, directories and archives read as the
//! CLI reads them, on all cores with the GIL released.
//!
//! A table is written by `fgn_tools::table`'s in-memory Parquet writer
//! from the table's one definition, and read by pyarrow on the Python
//! side: its columns and types are those of `fgn json --parquet` and
//! `fgn events --parquet`, with no second list of them here.

use std::path::PathBuf;

use fgn_notation::parse as parse_fgn;
use fgn_tools::events::EVENTS;
use fgn_tools::games::{GameRow, GAMES};
use fgn_tools::summary::{summarize, Summary};
use fgn_tools::table::{ParquetBuffer, Table};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(games_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(events_parquet, m)?)?;
    Ok(())
}

/// One log found below the paths: its name (the file, or `ARCHIVE:MEMBER`
/// for a member of an archive) and its text.
struct Found {
    name: String,
    bytes: Vec<u8>,
}

/// Runs `process` on every log below `paths`, in parallel, and `finish`
/// on each result in input order. A path that cannot be read ends the run
/// with its error, as `OSError`.
fn each_log<D: Send>(
    paths: &[PathBuf],
    process: impl Fn(Found) -> D + Sync,
    mut finish: impl FnMut(D) + Send,
) -> Result<(), String> {
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        finish(process(Found {
            name: path.display().to_string(),
            bytes,
        }));
    }
    Ok(())
}

/// The summary of each log below `paths` (files, directories, archives),
/// in input order, as docs/json.md §15 writes it, with its `file`.
#[pyfunction]
fn games(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Vec<Py<PyAny>>> {
    let mut found: Vec<(String, Summary)> = Vec::new();
    py.detach(|| each_log(&paths, |f| (f.name, summarize(&parse_fgn(&f.bytes))), |d| found.push(d)))
        .map_err(PyOSError::new_err)?;
    found
        .into_iter()
        .map(|(file, summary)| {
            let mut value = serde_json::to_value(&summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
            if let serde_json::Value::Object(map) = &mut value {
                map.insert("file".into(), file.into());
            }
            crate::to_py(py, &value)
        })
        .collect()
}

/// The rows of `table`, the columns `columns` names (`fgn events
/// --columns`'s list; the default columns without it), as one Parquet
/// file's bytes.
fn parquet<R: Send + 'static>(
    py: Python<'_>,
    table: &'static Table<R>,
    paths: &[PathBuf],
    columns: Option<&str>,
    rows: impl Fn(Found) -> Vec<R> + Sync + Send,
) -> PyResult<Py<PyBytes>> {
    // The CLI's `--columns` list, read by the table's own check.
    let selection = match columns {
        None => table.default_selection(),
        Some(spec) => table.select(spec).map_err(PyValueError::new_err)?,
    };
    let bytes = py.detach(|| -> Result<Vec<u8>, String> {
        let mut buffer = ParquetBuffer::new(table, selection)?;
        let mut failed = None;
        each_log(paths, rows, |rows| {
            for row in &rows {
                if failed.is_none() {
                    failed = buffer.push(row).err();
                }
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        buffer.finish()
    });
    let bytes = bytes.map_err(PyOSError::new_err)?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// The games table of the logs below `paths` as Parquet bytes (the
/// partition column `game` in its place among the columns);
/// `fgn.games_table` reads them into pyarrow.
#[pyfunction]
#[pyo3(signature = (paths, columns=None))]
fn games_parquet(py: Python<'_>, paths: Vec<PathBuf>, columns: Option<&str>) -> PyResult<Py<PyBytes>> {
    parquet(py, &GAMES, &paths, columns, |f| {
        let parsed = parse_fgn(&f.bytes);
        vec![GameRow {
            file: Some(f.name),
            readable: parsed.is_ok(),
            summary: summarize(&parsed),
        }]
    })
}

/// The events table of the logs below `paths` as Parquet bytes;
/// `fgn.events_table` reads them into pyarrow.
#[pyfunction]
#[pyo3(signature = (paths, columns=None))]
fn events_parquet(py: Python<'_>, paths: Vec<PathBuf>, columns: Option<&str>) -> PyResult<Py<PyBytes>> {
    parquet(py, &EVENTS, &paths, columns, |f| {
        let parsed = parse_fgn(&f.bytes);
        let summary = summarize(&parsed);
        let mut rows = Vec::new();
        fgn_tools::events::each_row(&parsed, &summary, Some(&f.name), |row| rows.push(row));
        rows
    })
}
