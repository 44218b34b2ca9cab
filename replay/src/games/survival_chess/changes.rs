//! What differs between two survival-chess positions, as [`Change`]s: the
//! game's part of the one comparison in [`crate::changes`], which holds
//! the pairing of pieces and the progress all games share.

use fgn_notation::{Color, Square};

use super::engine::Survival;
use super::state::{ChessPiece, SurvivalKnowledge, SurvivalState};
use crate::changes::account::{
    board, differ, hidden_setups, men, taken, Account, Change, Context, Leave, Man, Piece, Sight,
};

/// The changes of two survival-chess states.
fn state(a: &SurvivalState, b: &SurvivalState, cx: &Context, out: &mut Vec<Change>) {
    position(a, b, (&Sight::All, &Sight::All), cx, out);
}

/// The changes of two knowledges of one viewer: the sides whose setup is
/// still hidden, then the position the viewer sees.
fn knowledge(a: &SurvivalKnowledge, b: &SurvivalKnowledge, cx: &Context, out: &mut Vec<Change>) {
    hidden_setups(&a.hidden_setups, &b.hidden_setups, out);
    let sights = (&Sight::Hidden(&a.hidden_setups), &Sight::Hidden(&b.hidden_setups));
    position(&a.position, &b.position, sights, cx, out);
}

/// The changes of two survival-chess positions, each seen through its sight.
fn position(a: &SurvivalState, b: &SurvivalState, sights: (&Sight, &Sight), cx: &Context, out: &mut Vec<Change>) {
    let SurvivalState {
        board: board_a,
        pieces: pieces_a,
        in_check: check_a,
    } = a;
    differ(out, board_a, &b.board, |before, after| Change::Board { before, after });
    let chess = |pieces: &[ChessPiece]| {
        board(pieces.iter().map(|p| {
            (
                p.square,
                Man {
                    unmoved: Some(p.unmoved),
                    ..Man::plain(p.color, Piece::Chess(p.piece))
                },
            )
        }))
    };
    let leave = |_: Square, _: Color| taken(cx, Leave::Captured);
    men(
        (&chess(pieces_a), sights.0),
        (&chess(&b.pieces), sights.1),
        &cx.steps(),
        cx,
        &leave,
        out,
    );
    differ(out, check_a, &b.in_check, |before, after| Change::InCheck {
        before,
        after,
    });
}

impl Account for Survival {
    fn state_changes(a: &SurvivalState, b: &SurvivalState, cx: &Context, out: &mut Vec<Change>) {
        state(a, b, cx, out)
    }

    fn knowledge_changes(a: &SurvivalKnowledge, b: &SurvivalKnowledge, cx: &Context, out: &mut Vec<Change>) {
        knowledge(a, b, cx, out)
    }
}
