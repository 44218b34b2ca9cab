//! The public values of the game API: a game's [`State`] and what a viewer
//! knows of it ([`Knowledge`]), whatever the game. Both are plain data:
//! they serialise to JSON (`fgn show --format json`, docs/json.md) and to
//! the canonical bytes of state hashes (docs/hashing.md).

use fgn_notation::{Clock, GameKind, MoveNumber};
use serde::{Serialize, Serializer};

use crate::game::Viewer;
use crate::magic::DraughtsState;
use crate::seed::Salts;
use crate::session::{Phase, Turn};
use crate::survival::{SurvivalKnowledge, SurvivalState};

/// Where the shared rules stand: the same for every viewer, since turns,
/// clocks and results are public in every game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct Progress {
    /// Whose turn it is (or the setup, with who is ready); `None` once the
    /// game is decided, when nobody is to act but the world.
    pub turn: Option<Turn>,
    /// Playing, awaiting an answer to a timeout, decided, or over.
    pub status: Phase,
    /// The move number the last event carried (0 before any): the number
    /// a world event, chat, `extra` or `resign` must carry next.
    pub last_number: MoveNumber,
    /// The last clock reading in the log, in milliseconds since the game began.
    #[serde(serialize_with = "millis")]
    pub clock_ms: Option<Clock>,
    /// When the running time limit started (the turn, or the setup), where
    /// the clock readings show it: `None` while the log has had no reading,
    /// and when the event that started it had none and the readings around
    /// it leave its time open.
    #[serde(serialize_with = "millis")]
    pub turn_started_ms: Option<Clock>,
    /// The salts the players have given (public once given). Left out of
    /// JSON and of the hashed bytes while neither has given one, so that
    /// the states of unsalted games encode as they always have.
    #[serde(skip_serializing_if = "unsalted")]
    pub salts: Salts,
}

fn unsalted(salts: &Salts) -> bool {
    !crate::seed::is_salted(salts)
}

fn millis<S: Serializer>(c: &Option<Clock>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_some(&c.millis()),
        None => s.serialize_none(),
    }
}

/// A game's position, by game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum Position {
    /// survival-chess
    Survival(SurvivalState),
    /// open-world-chess
    OpenWorld(crate::owc::State),
    /// magic-draughts
    Draughts(DraughtsState),
    /// great-war-chess
    GreatWar(crate::gwc::GreatWarState),
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
    OpenWorld(crate::owc::Knowledge),
    /// magic-draughts: everything on the board is public, and the state
    /// holds only numbers the log has revealed.
    Draughts(DraughtsState),
    /// great-war-chess: during setup the viewer's own units; everything after.
    GreatWar(crate::gwc::GreatWarKnowledge),
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
