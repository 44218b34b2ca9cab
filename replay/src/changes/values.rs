//! The values of a game's position that its account of changes reports
//! whole: a great-war-chess turn's moved units, a magic-draughts capture,
//! and the open-world-chess outcome the world owes with the piece that
//! waits for it. They are defined here, below every game, so that the
//! account's [`Change`](super::Change) names no game's module, and each
//! game's state holds them as they are (the public paths are
//! `fgn_replay::position::*`).

use fgn_notation::{Color, PieceKind, Square, UnitKind};
use serde::Serialize;

/// The units that moved this turn, where they stand now.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Moved {
    /// Their square (the start square, after a failed attack).
    pub square: Square,
    /// The units, in the order `I C A` (with any units they captured).
    pub units: Vec<UnitKind>,
}

/// A captured checker, off the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct Captured {
    /// Whose checker it was.
    pub color: Color,
    /// Where it was captured.
    pub square: Square,
    /// The starting square of a starting checker; `None` for one that
    /// Koschei's Revenge put back (which is plain).
    pub origin: Option<Square>,
    /// Its number once revealed.
    pub number: Option<u8>,
}

/// A random outcome the world owes, with the move that waits for it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OwedOutcome {
    /// A damage roll for the damage object on `square`.
    Damage {
        /// The object's square.
        square: Square,
        /// Whether the moving piece passes over it (else it ends its move there).
        on_path: bool,
        /// The moving piece as it stands now.
        moving: MovingPiece,
    },
    /// A clone's square, one of `candidates` (square order).
    Clone {
        /// The square of the clone object (and the cloned piece).
        square: Square,
        /// Where the clone may go.
        candidates: Vec<Square>,
        /// The moving piece.
        moving: MovingPiece,
    },
}

/// The piece of a move that waits for the world: where it goes, what is
/// left of its path, and its promotion.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MovingPiece {
    /// The move's target square.
    pub to: Square,
    /// Whose it is.
    pub color: Color,
    /// Which piece (before any promotion).
    pub piece: PieceKind,
    /// Hit points.
    pub hp: u64,
    /// Maximum hit points.
    pub max_hp: u64,
    /// Whether it has the range upgrade.
    pub range: bool,
    /// The squares it has still to pass over, in path order.
    pub path: Vec<Square>,
    /// The piece it promotes to on arrival.
    pub promotion: Option<PieceKind>,
}
