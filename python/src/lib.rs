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

// `unsafe` is denied across the workspace and allowed only in the fgn
// binary's `main.rs`; a library crate forbids it, which no `allow` undoes.
#![forbid(unsafe_code)]

mod convert;
mod errors;
mod log;
mod replay;
mod tables;

use pyo3::prelude::*;

#[pymodule]
fn _fgn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    log::register(m)?;
    replay::register(m)?;
    tables::register(m)?;
    Ok(())
}
