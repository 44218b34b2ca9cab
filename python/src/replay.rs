//! `fgn.Replay`: a live game, as a game server holds one (fgn-replay's
//! crate documentation walks through the same calls in Rust).

use fgn_notation::{Event as FgnEvent, Header, Tag};
use fgn_replay::{Replay as FgnReplay, Viewer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::serialized;
use crate::errors::{rule_error, start_error, syntax_error};
use crate::log::{phase_name, side, Event, Log};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Replay>()?;
    Ok(())
}

/// A game being played or replayed: events applied one at a time, each
/// applied whole or refused with the game left as it was.
#[pyclass(module = "fgn")]
#[derive(Debug)]
pub struct Replay {
    replay: FgnReplay,
    header: Header,
}

/// A viewer as Python names it: a side, or None for everyone.
fn viewer(name: Option<&str>) -> PyResult<Viewer> {
    match name {
        None | Some("everyone") => Ok(Viewer::Everyone),
        Some(s) => Ok(match side(s)? {
            fgn_notation::Color::White => Viewer::White,
            fgn_notation::Color::Black => Viewer::Black,
        }),
    }
}

/// The header a `Replay` starts from: a `Log`'s, a dict of tags, or a
/// game's name with its other tags in `params`.
fn header_of(game: &Bound<'_, PyAny>, params: Option<&Bound<'_, PyDict>>) -> PyResult<Header> {
    let mut tags = Vec::new();
    if let Ok(log) = game.cast::<Log>() {
        tags = log.get().parsed.document.game.header.tags.clone();
    } else if let Ok(dict) = game.cast::<PyDict>() {
        for (k, v) in dict.iter() {
            tags.push(Tag {
                name: k.extract()?,
                value: v.str()?.to_string(),
            });
        }
    } else if let Ok(name) = game.extract::<String>() {
        tags.push(Tag {
            name: "Game".into(),
            value: name,
        });
    } else {
        return Err(PyTypeError::new_err(
            "a Replay starts from a game's name, a dict of header tags or a Log",
        ));
    }
    for (k, v) in params.into_iter().flat_map(|p| p.iter()) {
        let name: String = k.extract()?;
        let value = v.str()?.to_string();
        match tags.iter_mut().find(|t| t.name == name) {
            Some(t) => t.value = value,
            None => tags.push(Tag { name, value }),
        }
    }
    Ok(Header { tags })
}

#[pymethods]
impl Replay {
    /// A game at its start: `Replay("survival-chess", {"Rules": "1.0",
    /// "Board": "8x8"})`, `Replay({"Game": ..., ...})` or `Replay(log)`
    /// (its header; `Replay.of(log)` applies its events too). Raises
    /// `fgn.RuleError` for a header that breaks a rule and
    /// `fgn.UnsupportedError` for a game or rules version without an
    /// engine.
    #[new]
    #[pyo3(signature = (game, params=None))]
    fn new(py: Python<'_>, game: &Bound<'_, PyAny>, params: Option<&Bound<'_, PyDict>>) -> PyResult<Replay> {
        let header = header_of(game, params)?;
        let replay = FgnReplay::new(&header).map_err(|e| start_error(py, &e))?;
        Ok(Replay { replay, header })
    }

    /// The log replayed: its first `at` events (all by default). Raises
    /// `fgn.RuleError`, placed in the log's file, at the first event that
    /// breaks a rule.
    #[staticmethod]
    #[pyo3(signature = (log, at=None))]
    fn of(py: Python<'_>, log: &Log, at: Option<usize>) -> PyResult<Replay> {
        let game = &log.parsed.document.game;
        let header = game.header.clone();
        let mut replay = FgnReplay::new(&header).map_err(|e| start_error(py, &e))?;
        let events = &game.events[..at.unwrap_or(game.events.len()).min(game.events.len())];
        let refused = py.detach(|| {
            for event in events {
                replay.apply(event)?;
            }
            Ok(())
        });
        refused.map_err(|e| log.placed_error(py, &e))?;
        Ok(Replay { replay, header })
    }

    /// Applies one event (an `Event` or a line of FGN, its check marker
    /// completed as the rules spell it) and returns it as applied. Raises
    /// `fgn.SyntaxError` for a line that is not FGN and `fgn.RuleError`
    /// for an event that breaks a rule; either way the game is unchanged.
    fn apply(&mut self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<Event> {
        let event: FgnEvent = if let Ok(e) = event.cast::<Event>() {
            e.get().event.clone()
        } else if let Ok(line) = event.extract::<String>() {
            let read = self
                .header
                .parse_event(&line)
                .map_err(|d| syntax_error(py, None, std::slice::from_ref(&d)))?;
            self.replay.canonical(&read).unwrap_or(read)
        } else {
            return Err(PyTypeError::new_err("apply takes an Event or a line of FGN"));
        };
        self.replay
            .apply(&event)
            .map_err(|e| rule_error(py, None, None, None, &e, format!("`{event}`: {}", e.message)))?;
        Ok(Event { event, line: None })
    }

    /// The state as `fgn show --format json` writes it (`state`).
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.replay.state())
    }

    /// What `viewer` (`w`, `b`, or None for everyone) knows, as `fgn show
    /// --format json --as` writes it (`knowledge`).
    #[pyo3(signature = (viewer=None))]
    fn knowledge(&self, py: Python<'_>, viewer: Option<&str>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.replay.knowledge(self::viewer(viewer)?))
    }

    /// The state hash (docs/hashing.md).
    fn state_hash(&self) -> String {
        self.replay.state_hash().to_string()
    }

    /// The knowledge hash of `viewer`.
    #[pyo3(signature = (viewer=None))]
    fn knowledge_hash(&self, viewer: Option<&str>) -> PyResult<String> {
        Ok(self.replay.knowledge_hash(self::viewer(viewer)?).to_string())
    }

    /// Every event the side to act may play now, canonical.
    fn legal_actions(&self, py: Python<'_>) -> Vec<Event> {
        py.detach(|| self.replay.legal_actions())
            .into_iter()
            .map(|event| Event { event, line: None })
            .collect()
    }

    /// The world events the rules owe now, in order, derived from the
    /// 32-byte world seed `seed` (the server's secret): what a server
    /// appends after a player's event. Applying them is the caller's.
    fn owed_world_events(&self, seed: &[u8]) -> PyResult<Vec<Event>> {
        let seed: [u8; 32] = seed
            .try_into()
            .map_err(|_| PyValueError::new_err("a world seed is 32 bytes"))?;
        Ok(self
            .replay
            .owed_world_events(&seed)
            .into_iter()
            .map(|event| Event { event, line: None })
            .collect())
    }

    /// Where the shared rules stand: `playing`, `awaiting-extra`,
    /// `result-due` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.replay.phase())
    }

    /// How many events applied.
    #[getter]
    fn events_applied(&self) -> usize {
        self.replay.events_applied()
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> String {
        self.replay.game().to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Replay(game={}, events_applied={}, phase={})",
            crate::log::py_repr(py, Some(&self.replay.game().to_string())),
            self.replay.events_applied(),
            crate::log::py_repr(py, Some(phase_name(self.replay.phase())))
        )
    }
}
