//! What differs between two open-world-chess positions, as [`Change`]s:
//! the game's part of the one comparison in [`crate::changes`], which
//! holds the pairing of pieces and the progress all games share.

use std::collections::{BTreeMap, BTreeSet};

use fgn_notation::{Color, ObjectKind, Square};

use super::engine::OpenWorld;
use super::state::{KnownSquare, LitSquare, OpenWorldKnowledge, OpenWorldState, PieceState, Public};
use crate::changes::account::{
    board, differ, men, per_side, Account, Change, Context, Leave, Light, Man, Piece, Sight, ToMove,
};
use crate::changes::values::OwedOutcome;

/// The open-world-chess piece waiting on its path for the world's damage
/// roll: it is off the board, held by the owed outcome, and the referee's
/// account puts it on the damage object's square, where it waits.
fn in_transit(owed: &Option<OwedOutcome>) -> Option<(Square, Man)> {
    match owed {
        Some(OwedOutcome::Damage {
            square,
            on_path: true,
            moving,
        }) => Some((
            *square,
            Man {
                hp: Some(moving.hp),
                max_hp: Some(moving.max_hp),
                range: Some(moving.range),
                ..Man::plain(moving.color, Piece::Chess(moving.piece))
            },
        )),
        _ => None,
    }
}

/// A piece of the board as the comparison sees it.
fn piece(p: &PieceState) -> (Square, Man) {
    (
        p.square,
        Man {
            hp: Some(p.hp),
            max_hp: Some(p.max_hp),
            range: Some(p.range),
            ..Man::plain(p.color, Piece::Chess(p.piece))
        },
    )
}

/// The changes of the public part of two positions.
fn public(a: &Public, b: &Public, cx: &Context, out: &mut Vec<Change>) {
    let Public {
        board: board_a,
        merchants: merchants_a,
        curses: curses_a,
        turn: turn_a,
        side: side_a,
        moves_left: moves_a,
        shop: shop_a,
        late_shop: late_a,
    } = a;
    differ(out, &board_a.0, &b.board.0, |before, after| Change::Board {
        before,
        after,
    });
    differ(out, merchants_a, &b.merchants, |before, after| Change::Merchants {
        before,
        after,
    });
    per_side(out, curses_a, &b.curses, |color, before, after| Change::Curses {
        color,
        before,
        after,
    });
    // The shared rules' `turn` says the same while the game is undecided.
    if cx.same_turn {
        let (x, y) = (
            ToMove {
                side: *side_a,
                number: *turn_a,
            },
            ToMove {
                side: b.side,
                number: b.turn,
            },
        );
        differ(out, &x, &y, |before, after| Change::ToMove { before, after });
    }
    differ(out, moves_a, &b.moves_left, |before, after| Change::MovesLeft {
        before,
        after,
    });
    differ(out, shop_a, &b.shop, |before, after| Change::Shop { before, after });
    differ(out, late_a, &b.late_shop, |before, after| Change::LateShop {
        before,
        after,
    });
}

/// The objects of two positions compared, on the squares `only` admits.
fn objects(
    out: &mut Vec<Change>,
    a: &BTreeMap<Square, ObjectKind>,
    b: &BTreeMap<Square, ObjectKind>,
    only: impl Fn(Square) -> bool,
) {
    let squares: BTreeSet<Square> = a.keys().chain(b.keys()).copied().collect();
    for square in squares.into_iter().filter(|&sq| only(sq)) {
        differ(
            out,
            &a.get(&square).copied(),
            &b.get(&square).copied(),
            |before, after| Change::Object { square, before, after },
        );
    }
}

/// The changes of two open-world-chess states.
fn state(a: &OpenWorldState, b: &OpenWorldState, cx: &Context, out: &mut Vec<Change>) {
    let OpenWorldState {
        public: public_a,
        pieces: pieces_a,
        lit: lit_a,
        coins: coins_a,
        owed: owed_a,
        spawnable: spawnable_a,
    } = a;
    let (transit_a, transit_b) = (in_transit(owed_a), in_transit(&b.owed));
    let mut steps = cx.steps();
    // A move that stops to wait for a roll on its path goes as far as the
    // damage object; the roll takes it on, to the next one or to its target.
    if let Some((s2, _)) = transit_b {
        if transit_a.map(|t| t.0) != Some(s2) {
            for step in &mut steps {
                step.1 = Some(s2);
            }
        }
    }
    if let (Some((s1, _)), Some(OwedOutcome::Damage { moving, .. })) = (transit_a, owed_a) {
        let next = transit_b.map_or(moving.to, |t| t.0);
        if next != s1 {
            steps.push((Some(s1), Some(next)));
        }
    }
    let pieces = |p: &[PieceState], transit: Option<(Square, Man)>| board(p.iter().map(piece).chain(transit));
    let leave = |_: Square, _: Color| Leave::Died;
    men(
        (&pieces(pieces_a, transit_a), &Sight::All),
        (&pieces(&b.pieces, transit_b), &Sight::All),
        &steps,
        cx,
        &leave,
        out,
    );
    let light = |lit: &[LitSquare]| -> BTreeMap<Square, Light> {
        lit.iter()
            .map(|l| {
                (
                    l.square,
                    Light {
                        age: l.age,
                        lit_this_turn: l.lit_this_turn,
                    },
                )
            })
            .collect()
    };
    let object = |lit: &[LitSquare]| -> BTreeMap<Square, ObjectKind> {
        lit.iter().filter_map(|l| Some((l.square, l.object?))).collect()
    };
    objects(out, &object(lit_a), &object(&b.lit), |_| true);
    let (la, lb) = (light(lit_a), light(&b.lit));
    for square in la.keys().chain(lb.keys()).copied().collect::<BTreeSet<_>>() {
        differ(
            out,
            &la.get(&square).copied(),
            &lb.get(&square).copied(),
            |before, after| Change::Light { square, before, after },
        );
    }
    let (sa, sb): (BTreeSet<Square>, BTreeSet<Square>) = (
        spawnable_a.iter().copied().collect(),
        b.spawnable.iter().copied().collect(),
    );
    for &square in sa.symmetric_difference(&sb) {
        out.push(Change::Spawnable {
            square,
            before: sa.contains(&square),
            after: sb.contains(&square),
        });
    }
    per_side(out, coins_a, &b.coins, |color, before, after| Change::Coins {
        color,
        before,
        after,
    });
    differ(out, owed_a, &b.owed, |before, after| Change::Owed { before, after });
    public(public_a, &b.public, cx, out);
}

/// The changes of two knowledges of one viewer: only the squares it sees
/// and its own pieces, coins and moving piece.
fn knowledge(a: &OpenWorldKnowledge, b: &OpenWorldKnowledge, cx: &Context, out: &mut Vec<Change>) {
    let OpenWorldKnowledge {
        viewer,
        public: public_a,
        seen: seen_a,
        own: own_a,
        moving: moving_a,
        coins: coins_a,
    } = a;
    let known = |seen: &[KnownSquare], own: &[PieceState]| {
        let enemies = seen.iter().filter_map(|s| {
            let e = s.enemy.as_ref()?;
            Some((
                s.square,
                Man {
                    hp: Some(e.hp),
                    ..Man::plain(e.color, Piece::Chess(e.piece))
                },
            ))
        });
        board(own.iter().map(piece).chain(enemies))
    };
    let squares = |seen: &[KnownSquare]| -> BTreeSet<Square> { seen.iter().map(|s| s.square).collect() };
    let (va, vb) = (squares(seen_a), squares(&b.seen));
    let (sight_a, sight_b) = (
        Sight::Fog {
            viewer: viewer.color(),
            seen: &va,
        },
        Sight::Fog {
            viewer: viewer.color(),
            seen: &vb,
        },
    );
    let leave = |_: Square, _: Color| Leave::Died;
    men(
        (&known(seen_a, own_a), &sight_a),
        (&known(&b.seen, &b.own), &sight_b),
        &cx.steps(),
        cx,
        &leave,
        out,
    );
    let object = |seen: &[KnownSquare]| -> BTreeMap<Square, ObjectKind> {
        seen.iter().filter_map(|s| Some((s.square, s.object?))).collect()
    };
    let (oa, ob) = (object(seen_a), object(&b.seen));
    objects(out, &oa, &ob, |sq| va.contains(&sq) && vb.contains(&sq));
    for &square in va.symmetric_difference(&vb) {
        let (before, after) = (va.contains(&square), vb.contains(&square));
        let object = if after { ob.get(&square) } else { oa.get(&square) };
        out.push(Change::Sight {
            square,
            before,
            after,
            object: object.copied(),
        });
    }
    if let (Some(color), Some(x), Some(y)) = (viewer.color(), coins_a, &b.coins) {
        differ(out, x, y, |before, after| Change::Coins { color, before, after });
    }
    differ(out, moving_a, &b.moving, |before, after| Change::Moving {
        before,
        after,
    });
    public(public_a, &b.public, cx, out);
}

impl Account for OpenWorld {
    fn state_changes(a: &OpenWorldState, b: &OpenWorldState, cx: &Context, out: &mut Vec<Change>) {
        state(a, b, cx, out)
    }

    fn knowledge_changes(a: &OpenWorldKnowledge, b: &OpenWorldKnowledge, cx: &Context, out: &mut Vec<Change>) {
        knowledge(a, b, cx, out)
    }
}
