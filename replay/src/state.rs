//! The public values of the game API: a game's [`State`] and what a viewer
//! knows of it ([`Knowledge`]), whatever the game. Both are plain data:
//! they serialise to JSON (`fgn show --format json`, docs/json.md) and to
//! the canonical bytes of state hashes (docs/hashing.md).

use fgn_notation::GameKind;
use serde::Serialize;

use crate::core::hash::{self, Digest};
use crate::core::progress::Progress;
use crate::core::viewer::Viewer;
use crate::game::{KnowledgeOf, StateOf};
use crate::games::game_enum;

game_enum! {
    /// A game's position, by game.
    #[derive(Clone, PartialEq, Eq, Debug, Serialize)]
    #[serde(untagged)]
    pub enum Position(StateOf)
}

/// The canonical state of a game after some events: the position, the
/// engine's counters and the shared rules' progress; no caches and no
/// history. The state after event N depends on events 1..N only.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct State {
    /// Which game.
    pub game: GameKind,
    /// The shared rules' progress.
    pub progress: Progress,
    /// The position.
    pub position: Position,
}

game_enum! {
    /// What a viewer knows of a position, by game: in open-world-chess
    /// what the viewer sees and its own pieces and coins; in magic-draughts
    /// everything on the board, which is public, with the numbers the log
    /// has revealed; in the games with a secret setup, during setup the
    /// viewer's own setup and everything after.
    #[derive(Clone, PartialEq, Eq, Debug, Serialize)]
    #[serde(untagged)]
    pub enum KnownPosition(KnowledgeOf)
}

/// What one viewer knows of a game now.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Knowledge {
    /// Which game.
    pub game: GameKind,
    /// Who knows it.
    pub viewer: Viewer,
    /// The shared rules' progress (public).
    pub progress: Progress,
    /// The position as the viewer knows it.
    pub position: KnownPosition,
}

impl State {
    /// The state hash: blake3 over the canonical bytes of this state
    /// (docs/hashing.md), [`crate::Replay::state_hash`]'s.
    pub fn hash(&self) -> Digest {
        hash::digest(hash::STATE_CONTEXT, self).expect("states hold no floats")
    }
}

impl Knowledge {
    /// The knowledge hash: blake3 over the canonical bytes of what the
    /// viewer knows (docs/hashing.md), [`crate::Replay::knowledge_hash`]'s.
    pub fn hash(&self) -> Digest {
        hash::digest(hash::KNOWLEDGE_CONTEXT, self).expect("knowledge holds no floats")
    }
}
