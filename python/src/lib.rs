//! The `fgn` Python package's native module, `fgn._fgn` (docs/python.md).
//!
//! Every function here calls fgn-notation, fgn-replay or fgn-tools and
//! converts what they return into Python values: the rules, the summaries,
//! the hashes and the tables' columns are theirs, never written again
//! here. The Python side (`python/fgn/__init__.py`) only re-exports this
//! module and adds the pyarrow conversion of the tables.
//!
//! Values cross into Python as their JSON forms (docs/json.md): a state,
//! a knowledge, a summary or an event's action becomes the dict that
//! `json.loads` would make of fgn's JSON output, so that the CLI's JSON
//! and the package's values cannot disagree. The GIL is released while
//! Rust works on a log.

mod errors;
mod log;
mod replay;
mod tables;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A JSON value as the Python value `json.loads` makes of it.
fn to_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// A serialisable value as the Python value of its JSON form.
fn serialized<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let json = serde_json::to_value(value).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    to_py(py, &json)
}

#[pymodule]
fn _fgn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    log::register(m)?;
    replay::register(m)?;
    tables::register(m)?;
    Ok(())
}
