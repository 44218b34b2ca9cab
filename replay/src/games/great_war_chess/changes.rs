//! What differs between two great-war-chess positions, as [`Change`]s:
//! the game's part of the one comparison in [`crate::changes`], which
//! holds the pairing of pieces and the progress all games share.

use fgn_notation::{Color, Square};

use super::engine::GreatWar;
use super::state::{GreatWarKnowledge, GreatWarState, Stack};
use crate::changes::account::{
    board, differ, hidden_setups, men, per_side, taken, Account, Change, Context, Leave, Man, Piece, Sight,
};

/// The changes of two great-war-chess states.
fn state(a: &GreatWarState, b: &GreatWarState, cx: &Context, out: &mut Vec<Change>) {
    position(a, b, (&Sight::All, &Sight::All), cx, out);
}

/// The changes of two knowledges of one viewer: the sides whose setup is
/// still hidden, then the position the viewer sees.
fn knowledge(a: &GreatWarKnowledge, b: &GreatWarKnowledge, cx: &Context, out: &mut Vec<Change>) {
    hidden_setups(&a.hidden_setups, &b.hidden_setups, out);
    let sights = (&Sight::Hidden(&a.hidden_setups), &Sight::Hidden(&b.hidden_setups));
    position(&a.position, &b.position, sights, cx, out);
}

/// The changes of two great-war-chess positions, each seen through its sight.
fn position(a: &GreatWarState, b: &GreatWarState, sights: (&Sight, &Sight), cx: &Context, out: &mut Vec<Change>) {
    let GreatWarState {
        board: board_a,
        stacks: stacks_a,
        charges: charges_a,
        moved: moved_a,
        fired_from: fired_a,
    } = a;
    differ(out, board_a, &b.board, |before, after| Change::Board { before, after });
    let units = |stacks: &[Stack]| {
        board(stacks.iter().flat_map(|s| {
            s.units
                .iter()
                .map(move |&u| (s.square, Man::plain(s.color, Piece::Unit(u))))
        }))
    };
    let leave = |_: Square, _: Color| taken(cx, Leave::Destroyed);
    men(
        (&units(stacks_a), sights.0),
        (&units(&b.stacks), sights.1),
        &cx.steps(),
        cx,
        &leave,
        out,
    );
    per_side(out, charges_a, &b.charges, |color, before, after| Change::Charges {
        color,
        before,
        after,
    });
    differ(out, moved_a, &b.moved, |before, after| Change::Movement {
        before,
        after,
    });
    differ(out, fired_a, &b.fired_from, |before, after| Change::Fired {
        before,
        after,
    });
}

impl Account for GreatWar {
    fn state_changes(a: &GreatWarState, b: &GreatWarState, cx: &Context, out: &mut Vec<Change>) {
        state(a, b, cx, out)
    }

    fn knowledge_changes(a: &GreatWarKnowledge, b: &GreatWarKnowledge, cx: &Context, out: &mut Vec<Change>) {
        knowledge(a, b, cx, out)
    }
}
