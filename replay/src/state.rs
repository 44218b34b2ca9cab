//! The public values of the game API: a game's [`State`] and what a viewer
//! knows of it ([`Knowledge`]), whatever the game. Both are plain data:
//! they serialise to JSON (`fgn show --format json`, docs/json.md) and to
//! the canonical bytes of state hashes (docs/hashing.md).

use fgn_notation::GameKind;
use serde::Serialize;

use crate::core::viewer::Viewer;
use crate::games::magic_draughts::DraughtsState;

use crate::core::progress::Progress;
use crate::games::survival_chess::{SurvivalKnowledge, SurvivalState};

/// A game's position, by game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum Position {
    /// survival-chess
    Survival(SurvivalState),
    /// open-world-chess
    OpenWorld(crate::games::open_world_chess::State),
    /// magic-draughts
    Draughts(DraughtsState),
    /// great-war-chess
    GreatWar(crate::games::great_war_chess::GreatWarState),
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

/// What a viewer knows of a position, by game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum KnownPosition {
    /// survival-chess
    Survival(SurvivalKnowledge),
    /// open-world-chess: what the viewer sees and its own pieces and coins.
    OpenWorld(crate::games::open_world_chess::Knowledge),
    /// magic-draughts: everything on the board is public, and the state
    /// holds only numbers the log has revealed.
    Draughts(DraughtsState),
    /// great-war-chess: during setup the viewer's own units; everything after.
    GreatWar(crate::games::great_war_chess::GreatWarKnowledge),
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
