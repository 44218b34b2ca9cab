//! What differs between two magic-draughts positions, as [`Change`]s: the
//! game's part of the one comparison in [`crate::changes`], which holds
//! the pairing of pieces and the progress all games share.

use fgn_notation::{Color, Square};

use super::engine::MagicDraughts;
use super::state::{DraughtsPiece, DraughtsState};
use crate::changes::account::{board, differ, men, per_side, Account, Change, Context, Leave, Man, Piece, Sight};

/// The changes of two knowledges of one viewer: everything on a
/// magic-draughts board is public, and a knowledge is a state holding only
/// the numbers the log has revealed, so they compare as states.
fn knowledge(a: &DraughtsState, b: &DraughtsState, cx: &Context, out: &mut Vec<Change>) {
    state(a, b, cx, out);
}

/// The changes of two magic-draughts states.
fn state(a: &DraughtsState, b: &DraughtsState, cx: &Context, out: &mut Vec<Change>) {
    let DraughtsState {
        magic: magic_a,
        pieces: pieces_a,
        reveals_owed: owed_a,
        spells_due: spells_a,
        returnable: returnable_a,
        captured: captured_a,
    } = a;
    differ(out, magic_a, &b.magic, |before, after| Change::Magic { before, after });
    let checkers = |pieces: &[DraughtsPiece]| {
        board(pieces.iter().map(|p| {
            let piece = if p.king { Piece::King } else { Piece::Man };
            (
                p.square,
                Man {
                    origin: Some(p.origin),
                    ..Man::plain(p.color, piece)
                },
            )
        }))
    };
    // A checker that leaves the board in an event is captured when the
    // list of captured checkers gains it; Gorynych's Fury removes the others.
    let gained: Vec<(Square, Color)> = b
        .captured
        .iter()
        .skip(captured_a.len())
        .map(|c| (c.square, c.color))
        .collect();
    let leave = |sq: Square, color: Color| {
        if gained.contains(&(sq, color)) {
            Leave::Captured
        } else {
            Leave::Removed
        }
    };
    let start = out.len();
    men(
        (&checkers(pieces_a), &Sight::All),
        (&checkers(&b.pieces), &Sight::All),
        &cx.steps(),
        cx,
        &leave,
        out,
    );
    let captures: Vec<(Square, Color)> = out[start..]
        .iter()
        .filter_map(|c| match c {
            Change::Captured { square, color, .. } => Some((*square, *color)),
            _ => None,
        })
        .collect();
    for index in 0..captured_a.len().max(b.captured.len()) {
        let (x, y) = (captured_a.get(index), b.captured.get(index));
        match (x, y) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) if (x.color, x.square, x.origin) == (y.color, y.square, y.origin) => {
                out.push(Change::Revealed {
                    square: y.square,
                    color: y.color,
                    before: x.number,
                    after: y.number,
                })
            }
            (None, Some(y)) if cx.event.is_some() && captures.contains(&(y.square, y.color)) => {}
            _ => out.push(Change::CaptureRecord {
                index,
                before: x.copied(),
                after: y.copied(),
            }),
        }
    }
    differ(out, owed_a, &b.reveals_owed, |before, after| Change::RevealsOwed {
        before,
        after,
    });
    per_side(out, spells_a, &b.spells_due, |color, before, after| Change::SpellsDue {
        color,
        before,
        after,
    });
    per_side(out, returnable_a, &b.returnable, |color, before, after| {
        Change::Returnable { color, before, after }
    });
}

impl Account for MagicDraughts {
    fn state_changes(a: &DraughtsState, b: &DraughtsState, cx: &Context, out: &mut Vec<Change>) {
        state(a, b, cx, out)
    }

    fn knowledge_changes(a: &DraughtsState, b: &DraughtsState, cx: &Context, out: &mut Vec<Change>) {
        knowledge(a, b, cx, out)
    }
}
