//! What is asked of many logs at once: `fgn.games` (each log's summary)
//! and the tables of docs/analysis.md (`fgn.games_table`,
//! `fgn.events_table`), over files, directories and archives read as the
//! CLI reads them, on all cores with the GIL released.
//!
//! A table is written by `fgn_tools::table`'s in-memory Parquet writer
//! from the table's one definition, and read by pyarrow on the Python
//! side: its columns and types are those of `fgn json --parquet` and
//! `fgn events --parquet`, with no second list of them here.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;

use fgn_notation::split::{game_name, split, stray_parsed, GameBytes, GameText};
use fgn_notation::{parse as parse_fgn, Diagnostic, Parsed};
use fgn_tools::events::EVENTS;
use fgn_tools::games::{GameRow, GAMES};
use fgn_tools::inputs::{games_past_the_limit, io_error_text, walk_games, Input, InputError, NoStdin};
use fgn_tools::parallel::run_parallel;
use fgn_tools::summary::{summarize, Summary};
use fgn_tools::table::{ParquetBuffer, Table};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Games>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(games_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(events_parquet, m)?)?;
    Ok(())
}

/// One log found below the paths, read: its name (the file, `ARCHIVE:MEMBER`
/// for a member of an archive, `FILE#N` for a game of a file of several)
/// and what the reader made of it, with the file's line numbers.
struct Found {
    name: String,
    parsed: Parsed,
}

/// The logs of one input as the `fgn` command reads them
/// (cli/src/pipeline.rs): a game the walk read from its file is one log;
/// a file of several games is split into its games, each named `FILE#N`
/// and parsed with the file's line numbers; text before its first game is
/// a log of its own named `FILE` that cannot be read (its one syntax
/// error), as it is a row of the command's tables.
fn logs_of(mut input: Input) -> Result<Vec<Found>, InputError> {
    let bytes = input.take_bytes(&NoStdin)?;
    let name = input.name();
    if let Input::Game(game) = &mut input {
        let stray = game.before.take().map(|stray| Found {
            name: game.file.clone(),
            parsed: stray_parsed(stray),
        });
        let text = GameText {
            text: &bytes,
            first_line: game.lines_before.saturating_add(1),
            ordinal: None,
        };
        let found = Found {
            name,
            parsed: text.parse(),
        };
        return Ok(stray.into_iter().chain([found]).collect());
    }
    // A file of several games too large to read whole, found below a
    // directory, is read again game by game, as the CLI reads it.
    let mut bytes = bytes;
    if let Some(games) = games_past_the_limit(&input, &mut bytes, &NoStdin) {
        let cannot = |e: std::io::Error| InputError {
            file: Some(name.clone()),
            message: format!("cannot read: {}", io_error_text(&e)),
            empty: false,
        };
        let mut found = Vec::new();
        for game in games.map_err(cannot)? {
            found.push(game_of(
                &name,
                game.map_err(cannot)?
                    .as_ref()
                    .map(GameBytes::as_text)
                    .map_err(Clone::clone),
            ));
        }
        return Ok(found);
    }
    let games = split(&bytes);
    if games.is_one_log() {
        return Ok(vec![Found {
            name,
            parsed: parse_fgn(&bytes),
        }]);
    }
    Ok(games.map(|game| game_of(&name, game)).collect())
}

/// A game of the file `name` of several as a log of its own, `FILE#N`, or
/// the text before its first game as a log named `FILE` that reads as its
/// one syntax error.
fn game_of(name: &str, game: Result<GameText<'_>, Diagnostic>) -> Found {
    match game {
        Ok(game) => Found {
            name: game_name(name, game.ordinal),
            parsed: game.parse(),
        },
        Err(stray) => Found {
            name: name.to_owned(),
            parsed: stray_parsed(stray),
        },
    }
}

/// Runs `process` on every log below `paths` (files, directories, the
/// members of archives, found by the CLI's walk) on every core, and
/// `finish` on each result in input order, until it breaks: on `jobs`
/// threads, every core by default (a Dask worker given one core of a
/// machine it shares passes 1). A directory with no log adds
/// nothing; any other path that cannot be read ends the run with its
/// error (an `OSError` in Python: a table must not leave files out
/// silently).
fn each_log<D: Send>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    process: impl Fn(Found) -> D + Sync,
    mut finish: impl FnMut(D) -> ControlFlow<()> + Send,
) -> Result<(), String> {
    let all = || std::thread::available_parallelism().map_or(1, usize::from);
    let jobs = jobs.unwrap_or_else(all).max(1);
    let mut failed = None;
    let work = |item: Result<Input, InputError>, _turn| -> Result<Vec<D>, InputError> {
        match item {
            Ok(input) => Ok(logs_of(input)?.into_iter().map(&process).collect()),
            Err(e) if e.empty => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    };
    run_parallel(walk_games(paths, false), jobs, &work, |done| match done {
        Ok(values) => {
            for d in values {
                finish(d)?;
            }
            ControlFlow::Continue(())
        }
        Err(e) => {
            failed = Some(e.to_string());
            ControlFlow::Break(())
        }
    });
    failed.map_or(Ok(()), Err)
}

/// How many summaries the walk may have ready before the Python loop
/// over them takes them: the run pauses there, so that a loop that stops
/// early leaves the rest of an archive unread.
const GAMES_AHEAD: usize = 1024;

/// What `fgn.games` yields: each log's summary, made on every core in a
/// thread of its own and taken in input order.
#[pyclass(module = "fgn")]
#[derive(Debug)]
struct Games {
    found: Mutex<Receiver<Result<(String, Summary), String>>>,
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // A poisoned lock is a panic in another `__next__`, after which
        // the receiver is as good as before.
        let next = py.detach(|| {
            let found = self.found.lock().unwrap_or_else(|e| e.into_inner());
            found.recv().ok()
        });
        match next {
            None => Ok(None),
            Some(Err(e)) => Err(PyOSError::new_err(e)),
            Some(Ok((file, summary))) => {
                let mut value = serde_json::to_value(&summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
                if let serde_json::Value::Object(map) = &mut value {
                    map.insert("file".into(), file.into());
                }
                crate::convert::to_py(py, &value).map(Some)
            }
        }
    }
}

/// The summary of each log below `paths` (files, directories, archives),
/// in input order, as docs/json.md §15 writes it, with its `file`; an
/// iterator, made as it is taken.
#[pyfunction]
#[pyo3(signature = (paths, jobs=None))]
fn games(paths: Vec<PathBuf>, jobs: Option<usize>) -> Games {
    let (send, found) = sync_channel(GAMES_AHEAD);
    std::thread::spawn(move || {
        let sent = each_log(
            &paths,
            jobs,
            |f| (f.name, summarize(&f.parsed)),
            // A loop that stopped taking them (the iterator dropped) stops
            // the run.
            |d| match send.send(Ok(d)) {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            },
        );
        if let Err(e) = sent {
            let _ = send.send(Err(e));
        }
    });
    Games {
        found: Mutex::new(found),
    }
}

/// The rows of `table`, the columns `columns` names (`fgn events
/// --columns`'s list; the default columns without it), as one Parquet
/// file's bytes.
fn parquet<R: Send + 'static>(
    py: Python<'_>,
    table: &'static Table<R>,
    paths: &[PathBuf],
    columns: Option<&str>,
    jobs: Option<usize>,
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
        each_log(paths, jobs, rows, |rows| {
            for row in &rows {
                if let Err(e) = buffer.push(row) {
                    failed = Some(e);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
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
#[pyo3(signature = (paths, columns=None, jobs=None))]
fn games_parquet(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    columns: Option<&str>,
    jobs: Option<usize>,
) -> PyResult<Py<PyBytes>> {
    parquet(py, &GAMES, &paths, columns, jobs, |f| {
        vec![GameRow {
            file: Some(f.name),
            readable: f.parsed.is_ok(),
            summary: summarize(&f.parsed),
        }]
    })
}

/// The events table of the logs below `paths` as Parquet bytes;
/// `fgn.events_table` reads them into pyarrow.
#[pyfunction]
#[pyo3(signature = (paths, columns=None, jobs=None))]
fn events_parquet(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    columns: Option<&str>,
    jobs: Option<usize>,
) -> PyResult<Py<PyBytes>> {
    parquet(py, &EVENTS, &paths, columns, jobs, |f| {
        let summary = summarize(&f.parsed);
        let mut rows = Vec::new();
        fgn_tools::events::each_row(&f.parsed, &summary, Some(&f.name), |row| rows.push(row));
        rows
    })
}
