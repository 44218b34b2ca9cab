//! Random legal survival-chess games, for benchmarks and property tests.
//!
//! The games are made by the engine itself, so they test replay speed and
//! the notation round trip, not the engine's correctness (perft fixtures
//! from an independent implementation do that).

use fgn_notation::{
    Action, Actor, BoardSize, Color, Event, Figure, Game, Header, MoveNumber, PieceKind, Placement, Square, Tag,
};

use super::Survival;
use crate::rng::Rng;
use crate::ruleset::{Board as BoardParam, SurvivalRules};
use crate::session::{Engine, Turn};

/// A setup for `color` on its own half: the classical army on its two
/// nearest ranks, centred, with the pawns one rank further in on boards of
/// 12 ranks or more so that double steps start off the second rank.
fn army(size: BoardSize, color: Color) -> Vec<Placement> {
    let shift = (size.files.saturating_sub(8)) / 2;
    let deep = if size.ranks >= 12 { 1 } else { 0 };
    let (back, pawns) = match color {
        Color::White => (0, 1 + deep),
        Color::Black => (size.ranks - 1, size.ranks - 2 - deep),
    };
    let order = crate::ruleset::CLASSICAL_BACK_RANK;
    // A board narrower than eight files gets the army's right-hand part,
    // which always holds the king (boards have at least six files).
    let dropped = 8usize.saturating_sub(usize::from(size.files));
    let mut out = Vec::new();
    for (i, kind) in order.into_iter().skip(dropped).enumerate() {
        let file = shift + i as u8;
        out.push(Placement {
            figure: Figure::Piece(kind),
            square: Square::new(file, back).expect("on board"),
        });
        out.push(Placement {
            figure: Figure::Piece(PieceKind::Pawn),
            square: Square::new(file, pawns).expect("on board"),
        });
    }
    out
}

/// A random legal game on a survival-chess board of `size`, at most
/// `max_plies` long, ending with its result when it is decided.
pub fn random_game(size: BoardSize, seed: u64, max_plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let rules = SurvivalRules {
        board: BoardParam(size),
        ..SurvivalRules::default()
    };
    let mut engine = Survival::new(rules);
    let mut events = Vec::new();
    let push = |events: &mut Vec<Event>, n: u32, actor: Actor, action: Action| {
        events.push(Event {
            n: MoveNumber(n),
            actor,
            action,
            clock_ms: None,
        });
    };
    for color in [Color::White, Color::Black] {
        let placements = army(size, color);
        let action = Action::Place { placements };
        engine
            .player(color, MoveNumber(0), &action)
            .expect("the generated army is a legal setup");
        push(&mut events, 0, Actor::Player(color), action);
    }
    let mut decision = None;
    for color in [Color::White, Color::Black] {
        decision = engine
            .player(color, MoveNumber(0), &Action::Ready)
            .expect("both sides have kings");
        push(&mut events, 0, Actor::Player(color), Action::Ready);
    }
    let mut plies = 0;
    while decision.is_none() && plies < max_plies {
        let Turn::Move { side, number } = engine.turn() else {
            break;
        };
        let moves = engine.board().legal_moves(side);
        let m = moves[rng.below(moves.len())];
        let raw = engine.board().notate(m);
        let full = engine.canonical_move(side, &raw).expect("legal moves are canonical");
        let action = Action::Move(full);
        decision = engine.player(side, number, &action).expect("a legal move plays");
        push(&mut events, number.0, Actor::Player(side), action);
        plies += 1;
    }
    if let Some(d) = decision {
        let n = events.last().map_or(0, |e| e.n.0);
        push(
            &mut events,
            n,
            Actor::World,
            Action::Result {
                outcome: d.outcome,
                reason: d.reason,
            },
        );
    }
    let tags = vec![
        Tag {
            name: "Game".into(),
            value: "survival-chess".into(),
        },
        Tag {
            name: "Rules".into(),
            value: "1.0".into(),
        },
        Tag {
            name: "Board".into(),
            value: size.to_string(),
        },
    ];
    Game {
        header: Header { tags },
        events,
    }
}
