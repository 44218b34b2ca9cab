//! Logs and events: `fgn.parse`, `fgn.read`, the `Log` and `Event`
//! classes, and what is asked of a whole log (`validate`, `view`,
//! `verify_view`, `log_hash`).

use std::sync::Arc;

use fgn_notation::split::{count_games, split, GameText};
use fgn_notation::{parse as parse_fgn, Color, Event as FgnEvent, Parsed};
use fgn_tools::inputs::{game_of_file, Input, NoStdin};
use fgn_tools::placed::PlacedError;
use fgn_tools::summary::{phase_parts, summarize, Status, Summary};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::convert::{serialized, to_py};
use crate::errors::{rule_error, several_games_error, syntax_error, view_error};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Event>()?;
    m.add_class::<Log>()?;
    m.add_class::<Validation>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(view, m)?)?;
    m.add_function(wrap_pyfunction!(verify_view, m)?)?;
    m.add_function(wrap_pyfunction!(log_hash, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    Ok(())
}

/// One event of a log: `str()` is its canonical FGN line. Two events are
/// equal when they are the same event, wherever they were read.
#[pyclass(module = "fgn", frozen, eq)]
#[derive(Clone, Debug)]
pub struct Event {
    pub event: FgnEvent,
    /// The 1-based line of the file it was read from (None: not read from
    /// a file).
    #[pyo3(get)]
    pub line: Option<u32>,
}

impl PartialEq for Event {
    fn eq(&self, other: &Event) -> bool {
        self.event == other.event
    }
}

#[pymethods]
impl Event {
    /// The move number the event carries.
    #[getter]
    fn number(&self) -> u32 {
        self.event.n.0
    }

    /// Who acts: `w`, `b` or `@` (the world).
    #[getter]
    fn actor(&self) -> String {
        self.event.actor.to_string()
    }

    /// The clock reading in milliseconds, or None.
    #[getter]
    fn clock_ms(&self) -> Option<u64> {
        self.event.clock_ms.map(|c| c.millis())
    }

    /// The action as docs/json.md §6 writes it (a dict with its `type`).
    #[getter]
    fn action(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.event.action)
    }

    /// The event as docs/json.md §4 writes it.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.event)
    }

    fn __str__(&self) -> String {
        self.event.to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Event({})", py_repr(py, Some(&self.event.to_string())))
    }
}

/// A log read without a syntax error: its header, its events and where
/// they stand in its file.
#[pyclass(module = "fgn", frozen)]
#[derive(Clone, Debug)]
pub struct Log {
    pub parsed: Arc<Parsed>,
    /// The file it was read from (None: parsed from a string).
    #[pyo3(get)]
    pub file: Option<String>,
}

impl Log {
    fn game(&self) -> &fgn_notation::Game {
        &self.parsed.document.game
    }

    /// A rule error of this log, placed in its file.
    pub fn placed_error(&self, py: Python<'_>, error: &fgn_replay::RuleError) -> PyErr {
        let placed = PlacedError::new(&self.parsed.document, error);
        let index = match error.place {
            fgn_replay::Place::Event(i) => Some(i),
            _ => None,
        };
        rule_error(
            py,
            self.file.as_deref(),
            Some((placed.line, placed.column)),
            index,
            error,
            placed.message,
        )
    }
}

#[pymethods]
impl Log {
    /// The header's tags, in file order, as a dict.
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for tag in &self.game().header.tags {
            dict.set_item(&tag.name, &tag.value)?;
        }
        Ok(dict)
    }

    /// The events, in log order.
    #[getter]
    fn events(&self) -> Vec<Event> {
        let doc = &self.parsed.document;
        doc.game
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| Event {
                event: e.clone(),
                line: doc.event_lines.get(i).copied(),
            })
            .collect()
    }

    /// The `Game` tag, or None.
    #[getter]
    fn game_name(&self) -> Option<String> {
        self.game().header.get("Game").map(str::to_string)
    }

    /// Whose view the log is (`w` or `b`), None for a full log.
    #[getter]
    fn perspective(&self) -> Option<String> {
        self.game().perspective().map(|c| c.to_string())
    }

    /// Whether the last line had no line end and was left out.
    #[getter]
    fn torn(&self) -> bool {
        self.parsed.is_torn()
    }

    /// The log as docs/json.md §2 writes it (`fgn json` without `file`
    /// and `summary`).
    fn to_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &fgn_notation::json::to_json(self.game()))
    }

    /// The canonical text with the comments kept (`fgn fmt`).
    fn formatted(&self) -> String {
        self.parsed.document.formatted()
    }

    fn __len__(&self) -> usize {
        self.game().events.len()
    }

    /// The canonical text (`fgn fmt --strip-comments`'s form).
    fn __str__(&self) -> String {
        self.game().canonical_text()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Log(game={}, events={}, file={})",
            py_repr(py, Some(self.game().header.get("Game").unwrap_or(""))),
            self.game().events.len(),
            py_repr(py, self.file.as_deref())
        )
    }
}

/// How Python writes the string `text` in a `repr` (`'a.fgn'`, `None`), so
/// that the objects' `repr`s read as Python, not as Rust's `Some("a.fgn")`.
pub fn py_repr(py: Python<'_>, text: Option<&str>) -> String {
    match text {
        None => "None".into(),
        Some(text) => pyo3::types::PyString::new(py, text)
            .repr()
            .map_or_else(|_| format!("{text:?}"), |r| r.to_string()),
    }
}

/// The text of a log, from `str` or `bytes`.
fn text_bytes(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(s) = text.extract::<String>() {
        return Ok(s.into_bytes());
    }
    Err(PyTypeError::new_err("a log's text is str or bytes"))
}

/// Reads the text of a log; raises `fgn.SyntaxError` at its first line
/// that is not FGN.
pub fn log_of(py: Python<'_>, bytes: Vec<u8>, file: Option<String>) -> PyResult<Log> {
    let parsed = py.detach(|| parse_fgn(&bytes));
    parsed_log(py, parsed, file)
}

/// The `Log` of what was read of the file `file`; raises
/// `fgn.SyntaxError` at its first line that is not FGN.
fn parsed_log(py: Python<'_>, parsed: Parsed, file: Option<String>) -> PyResult<Log> {
    if !parsed.is_ok() {
        return Err(syntax_error(py, file.as_deref(), &parsed.diagnostics));
    }
    Ok(Log {
        parsed: Arc::new(parsed),
        file,
    })
}

/// Parses the text of a log (str or bytes) into a `Log`.
#[pyfunction]
#[pyo3(signature = (text, file=None))]
fn parse(py: Python<'_>, text: &Bound<'_, PyAny>, file: Option<String>) -> PyResult<Log> {
    log_of(py, text_bytes(text)?, file)
}

/// The one log that `path` names, read as the `fgn` commands that take
/// one log read it, for `taker` (the function's name, for its refusal):
/// its name and what was read. A path `FILE#N` that names no file is game
/// N of the file of several games FILE (docs/notation.md §2.8), read with
/// the file's line numbers; a compressed log is decompressed. Raises
/// `OSError` for a file that cannot be read (an archive too: it holds many
/// logs) or a game the file does not hold, and `fgn.Error` for a file of
/// several games, which is not one log.
fn one_log(py: Python<'_>, path: &std::path::Path, taker: &str) -> PyResult<(String, Parsed)> {
    let read = py.detach(|| -> Result<_, String> {
        if !path.exists() {
            if let Some(game) = game_of_file(path, &NoStdin) {
                let mut input = game?;
                let name = input.name();
                let lines_before = match &input {
                    Input::Game(game) => game.lines_before,
                    _ => 0,
                };
                let bytes = input.take_bytes(&NoStdin).map_err(|e| e.to_string())?;
                let text = GameText {
                    text: &bytes,
                    first_line: lines_before.saturating_add(1),
                    ordinal: None,
                };
                return Ok(Ok((name, text.parse())));
            }
        }
        let input = Input::File(path.to_path_buf());
        let bytes = input.read_bytes(&NoStdin).map_err(|e| e.to_string())?;
        if !split(&bytes).is_one_log() {
            return Ok(Err((input.name(), count_games(&bytes))));
        }
        Ok(Ok((input.name(), parse_fgn(&bytes))))
    });
    match read {
        Err(why) => Err(PyOSError::new_err(why)),
        Ok(Err((file, games))) => Err(several_games_error(py, &file, games, taker)),
        Ok(Ok(log)) => Ok(log),
    }
}

/// Reads the log file at `path` into a `Log`; `"FILE#N"` is game N of a
/// file of several games, and a file of several games raises `fgn.Error`.
#[pyfunction]
fn read(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Log> {
    let (name, parsed) = one_log(py, &path, "fgn.read")?;
    parsed_log(py, parsed, Some(name))
}

/// What `fgn.validate` says of a log: the fields of `fgn validate
/// --format json`'s `result` (docs/json.md §17.1) and the log's whole
/// summary (§15).
#[pyclass(module = "fgn", frozen)]
#[derive(Debug)]
pub struct Validation {
    summary: Summary,
    #[pyo3(get)]
    file: Option<String>,
}

#[pymethods]
impl Validation {
    /// `valid`, `invalid` or `unsupported`.
    #[getter]
    fn status(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.summary.status)
    }

    /// Whether the log is valid.
    #[getter]
    fn valid(&self) -> bool {
        self.summary.status == Status::Valid
    }

    /// The first fault (`kind`, `rule`, `line`, `column`, `index`,
    /// `message`), None for a valid log.
    #[getter]
    fn error(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.summary.error)
    }

    /// The log's summary, as docs/json.md §15 writes it.
    #[getter]
    fn summary(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.summary)
    }

    /// The `result` object `fgn validate --format json` writes for this
    /// log: where a valid log's shared rules stand (`phase`, `outcome`,
    /// `reason`; None for a log that is not valid, as there), whether its
    /// outcomes were checked, how many warnings and the first fault.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let s = &self.summary;
        let valid = s.status == Status::Valid;
        let result = serde_json::json!({
            "type": "result",
            "file": self.file,
            "status": s.status,
            "phase": if valid { s.phase } else { None },
            "outcome": if valid { s.outcome } else { None },
            "reason": if valid { s.reason } else { None },
            "outcomes_checked": s.outcomes_checked,
            "warnings": s.warnings.len(),
            "error": s.error,
        });
        to_py(py, &result)
    }

    fn __bool__(&self) -> bool {
        self.valid()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let status = serde_json::to_value(self.summary.status).unwrap_or_default();
        format!(
            "Validation(status={}, file={})",
            py_repr(py, status.as_str()),
            py_repr(py, self.file.as_deref())
        )
    }
}

/// Validates a log (a `Log`, or the path of a log file, `"FILE#N"` for
/// game N of a file of several games): never raises for what the log
/// holds (a syntax error is an invalid log), only for a file that cannot
/// be read (`OSError`) or a path to a file of several games, which is not
/// one log (`fgn.Error`).
#[pyfunction]
fn validate(py: Python<'_>, log: &Bound<'_, PyAny>) -> PyResult<Validation> {
    if let Ok(log) = log.cast::<Log>() {
        let log = log.get();
        let parsed = log.parsed.clone();
        let summary = py.detach(|| summarize(&parsed));
        return Ok(Validation {
            summary,
            file: log.file.clone(),
        });
    }
    let path: std::path::PathBuf = log
        .extract()
        .map_err(|_| PyTypeError::new_err("validate takes a Log or the path of a log file"))?;
    let (name, parsed) = one_log(py, &path, "fgn.validate")?;
    let summary = py.detach(|| summarize(&parsed));
    Ok(Validation {
        summary,
        file: Some(name),
    })
}

/// A side as Python names it: `w`/`white` or `b`/`black`.
pub fn side(name: &str) -> PyResult<Color> {
    match name {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        _ => Err(PyValueError::new_err(format!(
            "a side is `w`, `white`, `b` or `black`, not {name:?}"
        ))),
    }
}

/// The view of the full log `log` for `side` (`fgn view`): what that
/// player could know, as a log. Raises `fgn.RuleError` where the log
/// breaks a rule, `fgn.UnsupportedError` where its game has no view that
/// replays.
#[pyfunction]
fn view(py: Python<'_>, log: &Log, side: &str) -> PyResult<Log> {
    let color = self::side(side)?;
    let game = log.game().clone();
    let made = py.detach(|| fgn_replay::view::view(&game, color));
    let made = match made {
        Ok(v) => v,
        Err(fgn_replay::ViewError::Rule { error, .. }) => return Err(log.placed_error(py, &error)),
        Err(e) => return Err(view_error(py, &e)),
    };
    log_of(py, made.canonical_text().into_bytes(), None)
}

/// Whether `view` is exactly the view of the full log `full` for the side
/// its `Perspective` tag names (`fgn verify-view`): a dict with
/// `verified`, `side` and `events`, or where it parts, `line` (of the
/// view) and `message`.
#[pyfunction]
fn verify_view(py: Python<'_>, full: &Log, view: &Log) -> PyResult<Py<PyAny>> {
    let Some(color) = view.game().perspective() else {
        return Err(PyValueError::new_err(
            "the view has no Perspective tag: it is a full log",
        ));
    };
    let (game, doc) = (full.game().clone(), view.parsed.clone());
    let checked = py.detach(|| fgn_tools::verify_view::verify_view(&game, color, &doc.document));
    let result = match checked {
        Ok(None) => {
            serde_json::json!({"verified": true, "side": color.name(), "events": doc.document.game.events.len()})
        }
        Ok(Some(d)) => {
            serde_json::json!({"verified": false, "side": color.name(), "line": d.line, "message": d.message})
        }
        Err(fgn_replay::ViewError::Rule { error, .. }) => return Err(full.placed_error(py, &error)),
        Err(e) => return Err(view_error(py, &e)),
    };
    to_py(py, &result)
}

/// The log hash (`fgn hash`): `blake3:` and 64 hex digits, the same for
/// every spelling of the same events.
#[pyfunction]
fn log_hash(py: Python<'_>, log: &Log) -> String {
    let game = log.game().clone();
    py.detach(|| fgn_tools::loghash::log_hash(&game)).to_string()
}

/// `fgn diff`: whether two logs are the same game after
/// canonicalisation (as `side`'s views, `w` or `b`, where given), and if
/// not where they part and how their positions differ, as the document of
/// `fgn diff --format json` (docs/json.md §14.3). Raises `ValueError` for
/// views of different sides, and the view's error where no view of a log
/// can be made.
#[pyfunction]
#[pyo3(signature = (a, b, side=None))]
fn diff(py: Python<'_>, a: &Log, b: &Log, side: Option<&str>) -> PyResult<Py<PyAny>> {
    let side = side.map(self::side).transpose()?;
    let name = |log: &Log| log.file.clone().unwrap_or_else(|| "<string>".into());
    let pair = (
        (name(a), a.parsed.document.clone()),
        (name(b), b.parsed.document.clone()),
    );
    let found = py.detach(|| fgn_tools::diff::compare(pair.0, pair.1, side));
    match found {
        Ok(found) => serialized(py, &found.report),
        Err(fgn_tools::diff::DiffError::Perspective(e)) => Err(PyValueError::new_err(e)),
        Err(fgn_tools::diff::DiffError::View { error, .. }) => Err(view_error(py, &error)),
    }
}

/// Where a phase stands, spelled as the summary spells it.
pub fn phase_name(phase: fgn_replay::Phase) -> &'static str {
    phase_parts(phase).0
}
