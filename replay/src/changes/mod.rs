//! What differs between two positions of one game, as a list of typed
//! [`Change`]s: the account of what an event did (the position before it
//! against the position after it, [`crate::Replay::apply_changes`]) and the
//! difference between two games at the same point (`fgn diff`).
//!
//! There is one comparison, over the game API's plain values: two
//! [`State`]s ([`state_changes`]) or two [`Knowledge`]s of one viewer
//! ([`knowledge_changes`]). Every field of every game's position is
//! compared, so the list is empty exactly when the two values are equal:
//! each game's comparison, in its folder (`games/<game>/changes.rs`, a
//! `state` and a `knowledge` function each), takes the first position
//! apart field by field, so that a field added to a position does not
//! compile there until it is compared too. This file holds what they
//! share: the [`Change`] type, the pairing of pieces, the progress, and
//! the dispatch to each game.
//! Computed on knowledge it holds only what that viewer knows: a square
//! out of the viewer's sight is never looked at, and the squares an event
//! names are used only where the viewer sees them, as its view writes them.
//!
//! Pieces (chess pieces, great-war-chess units, draughts men and kings)
//! carry no identity in the positions, so the comparison pairs them: a
//! piece that stands on the same square in both is the same piece (its HP
//! and other attributes are compared); with an event, a piece that left
//! the event's `from` square and one of its side that arrived on its `to`
//! square is the piece that moved. The rest left the board or came onto
//! it, and with an event the game's rules say how (captured, died,
//! destroyed, removed, placed). docs/json.md ("Changes") lists every kind
//! with its fields.

pub(crate) mod account;
pub(crate) mod values;

pub(crate) use account::progress_changes;
use account::{Account, Context};
pub use account::{Change, Light, Piece, ToMove};

use fgn_notation::Event;

use crate::games::pair_game;
use crate::state::{Knowledge, KnownPosition, Position, State};
use account::progress;

/// What changed from `before` to `after`, two states of one game. With
/// `event` (the event that led from one to the other) pieces are paired by
/// its squares and what left the board is named by the game's rules;
/// without it, the two are positions of two games, and what only one has
/// is `removed` (only the first) or `placed` (only the second).
pub fn state_changes(before: &State, after: &State, event: Option<&Event>) -> Vec<Change> {
    if before.game != after.game {
        return vec![Change::Game {
            before: before.game,
            after: after.game,
        }];
    }
    let cx = Context::new(&before.progress, &after.progress, event);
    let mut out = Vec::new();
    pair_game!(Position, &before.position, &after.position, G, a, b => G::state_changes(a, b, &cx, &mut out),
        // The game tag decides the position's kind; two positions of one
        // game are always of one kind.
        _ => out.push(Change::Game {
            before: before.game,
            after: after.game,
        })
    );
    progress(&before.progress, &after.progress, &mut out);
    out
}

/// What changed from `before` to `after`, two knowledges of one viewer,
/// as [`state_changes`] does for states. Only what the viewer knows is
/// compared, and `event`'s squares are used only where the viewer sees
/// them, so the list never says what the viewer could not know.
pub fn knowledge_changes(before: &Knowledge, after: &Knowledge, event: Option<&Event>) -> Vec<Change> {
    if before.game != after.game {
        return vec![Change::Game {
            before: before.game,
            after: after.game,
        }];
    }
    if before.viewer != after.viewer {
        return vec![Change::Viewer {
            before: before.viewer,
            after: after.viewer,
        }];
    }
    let cx = Context::new(&before.progress, &after.progress, event);
    let mut out = Vec::new();
    pair_game!(KnownPosition, &before.position, &after.position, G, a, b => G::knowledge_changes(a, b, &cx, &mut out),
        _ => out.push(Change::Game {
            before: before.game,
            after: after.game,
        })
    );
    progress(&before.progress, &after.progress, &mut out);
    out
}
