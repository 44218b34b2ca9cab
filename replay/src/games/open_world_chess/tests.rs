//! The game API of open-world-chess against the rules engine itself: over
//! random seeded games, the listed actions are exactly the player actions
//! of their kinds that apply, and a rejected event leaves the state as it was.

use std::collections::BTreeSet;

use fgn_notation::{Action, Actor, ChessMove, Color, Event, Item, MoveNumber, PieceKind, Square};
use proptest::prelude::*;

use super::engine::Unit;
use super::{OpenWorld, OpenWorldState};
use crate::core::viewer::Viewer;
use crate::game::Game;
use crate::ruleset::{OpenWorldRules, Ruleset};
use crate::Replay;

fn engine(replay: &Replay) -> &OpenWorld {
    match &replay.sessions {
        crate::Sessions::OpenWorld(s) => &s.engine,
        _ => unreachable!("an open-world-chess replay"),
    }
}

/// A generated game under `rules` from `seed`, of at most 25 decisions.
fn random_game(rules: OpenWorldRules, seed: u64) -> fgn_notation::Game {
    let options = crate::gen::Options {
        plies: 25,
        resign_at_cap: false,
        ..crate::gen::Options::under(Ruleset::OpenWorld(rules), seed)
    };
    crate::gen::generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

/// Parameters that make the shop busy: many merchants, cheap items and
/// many coins, so that purchases of every kind come up.
fn busy_rules(price: u32) -> OpenWorldRules {
    let merchants = ["c3", "f3", "b4", "d5", "e4", "g5", "c6", "f6"]
        .iter()
        .map(|s| s.parse().expect("a square"))
        .collect();
    OpenWorldRules {
        merchants: Some(merchants),
        shop_price: price,
        spawn_chance: 40,
        coin_share: 60,
        ..OpenWorldRules::default()
    }
}

/// Every move, `end` and purchase event of the kinds the referee lists,
/// for both sides: every from-to pair with `-` and `x` (the letter of the
/// piece on `from`, a pawn's if none; a pawn reaching its far rank with
/// each promotion piece), and every item on every square. Each side
/// carries the move number it would have to: the late buyer its ended
/// turn's, anyone else the current turn's.
fn candidates(game: &OpenWorld) -> Vec<Event> {
    let (side, number) = game.current();
    let mut out = Vec::new();
    for actor in [Color::White, Color::Black] {
        let n = match game.world.late_shop {
            Some((buyer, n)) if buyer == actor => n,
            _ => number,
        };
        let event = |action: Action| Event {
            n,
            actor: Actor::Player(actor),
            action,
            clock_ms: None,
        };
        let squares: Vec<Square> = game.squares().collect();
        for &from in &squares {
            let piece = game.piece(from).map_or(PieceKind::Pawn, |u| u.kind);
            // The side that is not to move is refused before its squares
            // matter; its own pieces' moves are the ones worth trying.
            let tries_moves = actor == side || game.piece(from).is_some_and(|u| u.color == actor);
            for &to in squares.iter().filter(|_| tries_moves) {
                let far = piece == PieceKind::Pawn && to.rank_index() == game.far_rank(actor);
                let promotions: &[Option<PieceKind>] = if far {
                    &[
                        Some(PieceKind::Queen),
                        Some(PieceKind::Rook),
                        Some(PieceKind::Bishop),
                        Some(PieceKind::Knight),
                    ]
                } else {
                    &[None]
                };
                for capture in [false, true] {
                    for &promotion in promotions {
                        out.push(event(Action::Move(ChessMove {
                            piece,
                            from: Some(from),
                            to: Some(to),
                            capture,
                            promotion,
                            check: None,
                        })));
                    }
                }
            }
            for item in [Item::Range, Item::Hp, Item::Drain] {
                out.push(event(Action::Buy {
                    item,
                    square: Some(from),
                    hidden: false,
                }));
            }
        }
        out.push(event(Action::Buy {
            item: Item::Curse,
            square: None,
            hidden: false,
        }));
        out.push(event(Action::End));
    }
    out
}

/// Checks the referee's list at the replay's current point: every listed
/// action applies, no other candidate does, and every rejected candidate
/// leaves the state as it was.
fn check_point(replay: &mut Replay, index: usize) {
    let before: OpenWorldState = engine(replay).state();
    let mut listed = Vec::new();
    // A result due or an awaited answer to a timeout are the session's
    // conditions, not the engine's: then no player action applies.
    if replay.phase() == crate::Phase::Playing {
        engine(replay).legal_actions(&mut listed);
    }
    for e in &listed {
        let mut trial = replay.clone();
        if let Err(error) = trial.apply_at(index, e) {
            panic!("listed `{e}` is refused at event {index}: {error}");
        }
    }
    let mut rejected = 0usize;
    for e in candidates(engine(replay)) {
        if listed.contains(&e) {
            continue;
        }
        if replay.apply_at(index, &e).is_ok() {
            let list: Vec<String> = listed.iter().map(ToString::to_string).collect();
            panic!("`{e}` applies at event {index} but is not listed: {}", list.join(", "));
        }
        // Building the state is the slow part: compare after every
        // purchase and `end`, and after every 31st move.
        rejected += 1;
        if !matches!(e.action, Action::Move(_)) || rejected.is_multiple_of(31) {
            assert_eq!(
                engine(replay).state(),
                before,
                "`{e}` was rejected but changed the state"
            );
        }
    }
}

/// Replays `game` checking the referee's list before every event. (The
/// generator draws the players' actions from that list, so the points of
/// the game are the check; the candidates are what tests the list.)
fn check_game(game: &fgn_notation::Game, rules: OpenWorldRules) {
    let mut replay = Replay::with_rules(&game.header, Ruleset::OpenWorld(rules)).expect("a generated game starts");
    for (i, event) in game.events.iter().enumerate() {
        check_point(&mut replay, i);
        if let Err(e) = replay.apply_at(i, event) {
            panic!("generated event {i} `{event}` is refused: {e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    #[test]
    fn the_listed_actions_are_exactly_those_that_apply(seed in any::<u64>(), price in 0u32..2) {
        let rules = busy_rules(price);
        let game = random_game(rules.clone(), seed);
        check_game(&game, rules);
    }
}

#[test]
fn purchases_of_every_kind_are_listed_in_busy_games() {
    let rules = busy_rules(0);
    let mut kinds = BTreeSet::new();
    for i in 0..2u64 {
        let game = random_game(rules.clone(), i + 40);
        let mut replay = Replay::with_rules(&game.header, Ruleset::OpenWorld(rules.clone())).expect("starts");
        for (index, event) in game.events.iter().enumerate() {
            let mut listed = Vec::new();
            engine(&replay).legal_actions(&mut listed);
            for e in listed {
                if let Action::Buy { item, .. } = e.action {
                    kinds.insert(item.name());
                }
            }
            replay.apply_at(index, event).expect("a generated event applies");
        }
    }
    for kind in ["range", "hp", "drain", "curse"] {
        assert!(kinds.contains(kind), "no `buy {kind}` listed: {kinds:?}");
    }
}

#[test]
fn the_referee_lists_the_opening_moves_and_nothing_while_the_world_owes() {
    let game = OpenWorld::new(OpenWorldRules::default(), None);
    let mut listed = Vec::new();
    game.legal_actions(&mut listed);
    // Eight pawn steps, four knight jumps and `end`.
    assert_eq!(listed.len(), 13, "{listed:?}");
    assert!(listed
        .iter()
        .all(|e| e.n == MoveNumber(1) && e.actor == Actor::Player(Color::White)));
    let text = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n0 @ spawn d3 damage\n1 w d2-d3\n";
    let parsed = fgn_notation::parse(text.as_bytes());
    let v = crate::validate(&parsed.document.game).expect("supported");
    assert_eq!(v.applied, 2, "{:?}", v.error);
    assert_eq!(
        v.error.map(|e| e.place),
        Some(crate::Place::End),
        "the damage roll is owed"
    );
    let owc = engine(&v.replay);
    let mut listed = Vec::new();
    owc.legal_actions(&mut listed);
    assert!(listed.is_empty(), "{listed:?}");
    assert!(matches!(
        owc.state().owed,
        Some(super::OwedOutcome::Damage { on_path: false, .. })
    ));
}

/// Regression: while a move waited on its path for the world's damage
/// roll, its piece was off the board and in no part of its owner's
/// knowledge, so a player's account lost its own bishop until the roll. Now
/// the owner knows it as `moving`; the opponent, and everyone, do not; and
/// a piece waiting for a roll at its target stands there, in `own`.
#[test]
fn a_piece_waiting_for_the_world_is_in_its_owners_knowledge_only() {
    let text =
        "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n0 @ spawn d3 damage\n1 w e2-e3\n1 w Bf1-c4\n1 @ damage d3 2\n";
    let parsed = fgn_notation::parse(text.as_bytes());
    let game = &parsed.document.game;
    let mut replay = Replay::new(&game.header).expect("an open-world-chess header");
    for (i, event) in game.events[..3].iter().enumerate() {
        replay.apply_at(i, event).expect("legal");
    }
    let before_roll = replay.knowledge(Viewer::White);
    let white = engine(&replay).knowledge(Viewer::White);
    let moving = white.moving.as_ref().expect("white's pawn waits for the roll");
    assert_eq!(
        (moving.to.to_string(), moving.color, moving.piece, moving.path.len()),
        ("c4".into(), Color::White, PieceKind::Bishop, 0),
        "the bishop waits on d3, the last square of its path before c4"
    );
    assert_eq!(white.own.len(), 15, "the bishop is off the board meanwhile");
    assert!(engine(&replay).knowledge(Viewer::Black).moving.is_none());
    assert!(engine(&replay).knowledge(Viewer::Everyone).moving.is_none());
    let json = serde_json::to_value(&white).unwrap();
    assert_eq!(json["moving"]["to"], "c4", "{json}");
    replay.apply_at(3, &game.events[3]).expect("the roll");
    let white = engine(&replay).knowledge(Viewer::White);
    assert!(white.moving.is_none());
    assert_eq!(white.own.len(), 16);
    assert!(
        serde_json::to_value(&white).unwrap().get("moving").is_none(),
        "left out when there is none, so other knowledge serialises as before"
    );
    // The player's account of the roll says the pawn stopped waiting.
    let at_target = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n0 @ spawn d3 damage\n1 w d2-d3\n";
    let target_game = fgn_notation::parse(at_target.as_bytes()).document.game;
    let v = crate::validate(&target_game).expect("supported");
    let white = engine(&v.replay).knowledge(Viewer::White);
    assert!(white.moving.is_none() && white.own.iter().any(|p| p.square.to_string() == "d3"));
    let changes =
        crate::changes::knowledge_changes(&before_roll, &replay.knowledge(Viewer::White), Some(&game.events[3]));
    assert!(
        changes.iter().any(|c| matches!(
            c,
            crate::changes::Change::Moving {
                before: Some(_),
                after: None
            }
        )),
        "{changes:?}"
    );
}

#[test]
fn a_viewer_knows_what_it_sees_and_everyone_the_public_part() {
    let game = OpenWorld::new(OpenWorldRules::default(), None);
    let white = game.knowledge(Viewer::White);
    // White's pieces light ranks 1 to 4 for it; black's army is out of sight.
    assert_eq!(white.seen.len(), 32);
    assert!(white
        .seen
        .iter()
        .all(|s| s.square.rank_index() < 4 && s.enemy.is_none()));
    assert_eq!(white.own.len(), 16);
    assert_eq!(white.coins, Some(0));
    let everyone = game.knowledge(Viewer::Everyone);
    assert!(everyone.seen.is_empty() && everyone.own.is_empty() && everyone.coins.is_none());
    assert_eq!(everyone.public.merchants.len(), 2);
    // Knowledge and state are plain JSON values without floats.
    for value in [
        serde_json::to_value(&white).unwrap(),
        serde_json::to_value(game.state()).unwrap(),
    ] {
        assert!(!format!("{value}").contains('.'), "{value}");
    }
}

#[test]
fn a_pawn_promotes_only_to_a_queen_rook_bishop_or_knight() {
    let mut game = OpenWorld::new(OpenWorldRules::default(), None);
    let (g7, g8): (Square, Square) = ("g7".parse().unwrap(), "g8".parse().unwrap());
    game.set(g8, None);
    game.set(g7, Some(game.fresh_unit(Color::White, PieceKind::Pawn)));
    for (promotion, ok) in [
        (Some(PieceKind::King), false),
        (Some(PieceKind::Pawn), false),
        (Some(PieceKind::Knight), true),
    ] {
        let m = ChessMove {
            piece: PieceKind::Pawn,
            from: Some(g7),
            to: Some(g8),
            capture: false,
            promotion,
            check: None,
        };
        let mut trial = game.clone();
        trial.checkpoint();
        let applied = trial.player(Color::White, MoveNumber(1), &Action::Move(m));
        assert_eq!(applied.is_ok(), ok, "{promotion:?}: {applied:?}");
    }
}

/// The list of moves as it was first written, kept as the reference: every
/// pair of squares tried through the move check's geometry, in square
/// order of the piece, then of the target.
fn moves_by_every_pair(game: &OpenWorld, color: Color) -> Vec<ChessMove> {
    let mut out = Vec::new();
    for from in game.squares() {
        let Some(unit) = game.piece(from).filter(|u| u.color == color) else {
            continue;
        };
        for to in game.squares() {
            let target = game.piece(to);
            if target.is_some_and(|t| t.color == color) || from == to {
                continue;
            }
            let capture = target.is_some();
            if game.geometry(unit, from, to, capture).is_ok() {
                out.push(ChessMove {
                    piece: unit.kind,
                    from: Some(from),
                    to: Some(to),
                    capture,
                    promotion: None,
                    check: None,
                });
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random crowded positions on boards from 8x6 to 26x26, with ranged
    /// pawns and kings and long ranges: the moves generated from each
    /// piece's rays and steps are exactly those the geometry accepts, in
    /// the same order. (Generated games rarely put a ranged pawn next to
    /// an enemy two squares diagonally away; these positions do.)
    #[test]
    fn generated_moves_equal_every_pair_the_geometry_accepts(
        files in 8u8..=26,
        ranks in 6u8..=26,
        range_steps in 0u8..6,
        pieces in proptest::collection::vec((any::<u16>(), 0usize..6, any::<bool>(), any::<bool>()), 1..120),
    ) {
        let rules = OpenWorldRules {
            board: crate::ruleset::Board(fgn_notation::BoardSize { files, ranks }),
            range_steps,
            ..OpenWorldRules::default()
        };
        let mut game = OpenWorld::new(rules, None);
        for sq in game.squares().collect::<Vec<_>>() {
            game.set(sq, None);
        }
        let kinds = [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen, PieceKind::King];
        let count = usize::from(files) * usize::from(ranks);
        for (at, kind, white, range) in pieces {
            let sq = game.square_at(usize::from(at) % count);
            let color = if white { Color::White } else { Color::Black };
            let unit = Unit { range, ..game.fresh_unit(color, kinds[kind]) };
            game.set(sq, Some(unit));
        }
        for color in [Color::White, Color::Black] {
            prop_assert_eq!(game.moves(color), moves_by_every_pair(&game, color));
        }
    }
}

/// RULES.md §2 "clone: ... an adjacent square is empty, on the board and
/// not a merchant": at each corner of an empty 10x8 board (no merchants
/// off 8x8) a knight's clone may go to exactly the three neighbours on
/// the board, and beside an edge to the five. cargo-mutants found the
/// lower edge of the board unguarded: no corpus game clones a piece on
/// the first rank.
#[test]
fn a_clone_goes_only_to_neighbours_on_the_board() {
    let rules = OpenWorldRules {
        board: crate::ruleset::Board(fgn_notation::BoardSize { files: 10, ranks: 8 }),
        ..OpenWorldRules::default()
    };
    let mut game = OpenWorld::new(rules, None);
    for sq in game.squares().collect::<Vec<_>>() {
        game.set(sq, None);
    }
    let knight = game.fresh_unit(Color::White, PieceKind::Knight);
    let squares = |list: &str| -> Vec<Square> { list.split(' ').map(|s| s.parse().expect("a square")).collect() };
    for (at, expected) in [
        ("a1", "b1 a2 b2"),
        ("j1", "i1 i2 j2"),
        ("a8", "a7 b7 b8"),
        ("j8", "i7 j7 i8"),
        ("e1", "d1 f1 d2 e2 f2"),
        ("a4", "a3 b3 b4 a5 b5"),
        ("j5", "i4 j4 i5 i6 j6"),
        ("e8", "d7 e7 f7 d8 f8"),
    ] {
        let at: Square = at.parse().expect("a square");
        assert_eq!(game.clone_squares(knight, at), squares(expected), "a clone beside {at}");
    }
}
