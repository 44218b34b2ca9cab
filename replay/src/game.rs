//! The game API every engine implements: its canonical state, what each
//! player knows of it, and the actions the rules allow now.
//!
//! These are plain serialisable values: the CLI renders them, views and
//! hashes are built from them, and nothing outside this crate needs to know
//! how an engine stores its board.

use fgn_notation::Event;
use serde::Serialize;

use crate::core::Viewer;
use crate::session::Engine;

/// What a game engine provides beyond the shared rules: the three views of
/// its position that the rest of fgn consumes.
#[allow(dead_code)] // implemented by the engines in the commits that follow
pub(crate) trait GameRules: Engine {
    /// The position and the engine's counters, as a plain value: no caches
    /// and no history, and nothing that the events so far do not fix.
    type State: Clone + Eq + Serialize + std::fmt::Debug;
    /// What one viewer knows of the state.
    type Knowledge: Clone + Eq + Serialize + std::fmt::Debug;

    /// The canonical state.
    fn state(&self) -> Self::State;

    /// What `viewer` knows now.
    fn knowledge(&self, viewer: Viewer) -> Self::Knowledge;

    /// Every player action the rules allow now, for each side that may
    /// act, in canonical spelling and with the move number it must carry
    /// (no clock): moves, purchases, spells, `end`, and in setup every
    /// single placement, removal and `ready`. Chat, resignation, `extra`
    /// and world events are not listed. The session's own conditions
    /// (a result due, an answer to a timeout awaited) are the caller's.
    fn legal_actions(&self, out: &mut Vec<Event>);
}
