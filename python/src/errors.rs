//! The package's exceptions: `fgn.Error`, and below it `fgn.SyntaxError`
//! (a line that is not FGN), `fgn.RuleError` (an event or header that
//! breaks a rule) and `fgn.UnsupportedError` (a log no engine can check:
//! a player's view, a game or rules version without an engine). Each
//! carries its place as attributes, set on the instance when raised.

use fgn_notation::Diagnostic;
use fgn_replay::{RuleError as ReplayRuleError, StartError, ViewError};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

pyo3::create_exception!(
    fgn,
    Error,
    PyException,
    "Every error fgn raises about a log (not about a file that cannot be opened: that is OSError)."
);
pyo3::create_exception!(
    fgn,
    SyntaxError,
    Error,
    "A line that is not FGN: `file`, `line`, `column` (1-based), `message`, and `diagnostics`, every error of the file as (line, column, message)."
);
pyo3::create_exception!(
    fgn,
    RuleError,
    Error,
    "An event or a header that breaks a rule: `rule` (docs/rules.md's id), `message`, and where the log has a file, `file`, `line` and `column`; `index`, the 0-based event at fault, or None."
);
pyo3::create_exception!(
    fgn,
    UnsupportedError,
    Error,
    "A log no engine can check: a player's view, or a game or rules version without an engine."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("SyntaxError", py.get_type::<SyntaxError>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    Ok(())
}

/// An exception of type `T` with message `message` and the attributes
/// `attributes`.
fn raise<T: pyo3::PyTypeInfo>(py: Python<'_>, message: String, attributes: &[(&str, Py<PyAny>)]) -> PyErr {
    let err = PyErr::from_type(py.get_type::<T>(), (message,));
    let value = err.value(py);
    for (name, v) in attributes {
        if let Err(e) = value.setattr(*name, v) {
            return e;
        }
    }
    err
}

fn obj<'py, T: IntoPyObject<'py>>(py: Python<'py>, v: T) -> Py<PyAny> {
    use pyo3::IntoPyObjectExt;
    v.into_py_any(py).unwrap_or_else(|_| py.None())
}

/// `fgn.SyntaxError` for a file's diagnostics (its first error leads).
pub fn syntax_error(py: Python<'_>, file: Option<&str>, diagnostics: &[Diagnostic]) -> PyErr {
    use fgn_notation::diagnostic::Severity;
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    let Some(first) = errors.first() else {
        return Error::new_err("the log has no syntax error");
    };
    let all: Vec<Py<PyAny>> = errors
        .iter()
        .map(
            |d| match PyTuple::new(py, [obj(py, d.line), obj(py, d.column), obj(py, d.message.as_str())]) {
                Ok(t) => t.into_any().unbind(),
                Err(_) => py.None(),
            },
        )
        .collect();
    let place = file.unwrap_or("<string>");
    raise::<SyntaxError>(
        py,
        format!("{place}:{}:{}: {}", first.line, first.column, first.message),
        &[
            ("file", obj(py, file)),
            ("line", obj(py, first.line)),
            ("column", obj(py, first.column)),
            ("message", obj(py, first.message.as_str())),
            ("diagnostics", obj(py, all)),
        ],
    )
}

/// `fgn.Error` for the file of several games `file` (docs/notation.md
/// §2.8), which holds `games`, given to `taker`, a function that takes one
/// log: the refusal of the `fgn` commands that take one log
/// ([`fgn_tools::inputs::several_games`]), and where all the games are
/// read. The file and the number of games are its attributes.
pub fn several_games_error(py: Python<'_>, file: &str, games: usize, taker: &str) -> PyErr {
    let refusal = fgn_tools::inputs::several_games(games, taker);
    raise::<Error>(
        py,
        format!("{file}: {refusal} (\"{file}#1\" to \"{file}#{games}\"), or read them all with fgn.games()"),
        &[("file", obj(py, file)), ("games", obj(py, games))],
    )
}

/// `fgn.RuleError` for a rule error placed in a file (or in no file: a
/// live replay's event, `line` and `column` None).
pub fn rule_error(
    py: Python<'_>,
    file: Option<&str>,
    place: Option<(u32, u32)>,
    index: Option<usize>,
    error: &ReplayRuleError,
    message: String,
) -> PyErr {
    let text = match (file, place) {
        (Some(f), Some((l, c))) => format!("{f}:{l}:{c}: {} ({})", message, error.rule.name()),
        _ => format!("{} ({})", message, error.rule.name()),
    };
    raise::<RuleError>(
        py,
        text,
        &[
            ("file", obj(py, file)),
            ("line", obj(py, place.map(|p| p.0))),
            ("column", obj(py, place.map(|p| p.1))),
            ("index", obj(py, index)),
            ("rule", obj(py, error.rule.name())),
            ("message", obj(py, message)),
        ],
    )
}

/// The error of a header no replay starts from: unsupported, or a rule
/// error in the header.
pub fn start_error(py: Python<'_>, error: &StartError) -> PyErr {
    if error.is_unsupported() {
        return UnsupportedError::new_err(error.to_string());
    }
    let StartError::Header { error, .. } = error;
    rule_error(py, None, None, None, error, error.message.clone())
}

/// The error of a view that cannot be made.
pub fn view_error(py: Python<'_>, error: &ViewError) -> PyErr {
    match error {
        ViewError::Start(e) => start_error(py, e),
        ViewError::Rule { error, .. } => rule_error(py, None, None, None, error, error.message.clone()),
        e if e.is_unsupported() => UnsupportedError::new_err(e.to_string()),
        e => pyo3::exceptions::PyValueError::new_err(e.to_string()),
    }
}
