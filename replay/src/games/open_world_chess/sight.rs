//! What a player finds on the board of open-world-chess, as its view
//! tells it: the squares it sees, what stands on each (its own pieces with
//! what their owner knows of them), the outcome its own move waits for,
//! and all of that at the game's start. Below both the view's writer
//! (`view`) and its reader (`known`), which start from the same reading.

use fgn_notation::{Color, Square};

use super::engine::OpenWorld;
use super::told::{Spot, Told, ToldPiece};

/// Whether `side` sees `sq`: in sight by the rules, or holding one of its
/// own pieces (known wherever they stand).
pub(super) fn sees(engine: &OpenWorld, side: Color, sq: Square) -> bool {
    engine.piece(sq).is_some_and(|u| u.color == side) || engine.sees(side, sq)
}

/// What `side` finds on `sq`: an enemy piece with its HP, an own one with
/// its maximum and upgrade too, and the object.
pub(super) fn content(engine: &OpenWorld, side: Color, sq: Square) -> Spot {
    Spot {
        piece: engine.piece(sq).map(|u| {
            let own = u.color == side;
            ToldPiece {
                color: u.color,
                kind: u.kind,
                hp: u.hp,
                max: own.then_some(u.max),
                range: own && u.range,
            }
        }),
        object: engine.cell(sq).object,
    }
}

/// The square of the outcome the world owes `side`'s own move, if it owes
/// one: a damage roll on its path or at its target, or a clone's square.
pub(super) fn held(engine: &OpenWorld, side: Color) -> Option<Square> {
    let (square, _) = engine.owed()?;
    (engine.moving_color() == Some(side)).then_some(square)
}

/// What a view of `side` has told at `engine`'s start: what the player
/// sees of the starting position, which the rules fix, so that it needs
/// no observation.
pub(super) fn start_told(engine: &OpenWorld, side: Color) -> Told {
    let (files, ranks) = engine.size();
    let mut told = Told::new(side, files, ranks);
    for (i, sq) in engine.squares().enumerate() {
        told.spots[i] = sees(engine, side, sq).then(|| content(engine, side, sq));
    }
    told
}
