//! The game API's promises, checked over random walks through games:
//! every listed legal action applies, no other action of those kinds does,
//! and a rejected event leaves the state exactly as it was.

use fgn_notation::{
    Action, Actor, BoardSize, ChessMove, Color, Event, Figure, Game, Header, MagicNumber, MoveNumber, Path, PieceKind,
    Placement, Spell, SpellNumber, Square, Tag,
};
use fgn_replay::{Phase, Position, Replay, Turn};
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

fn header(tags: &[(&str, &str)]) -> Header {
    Header {
        tags: tags
            .iter()
            .map(|(n, v)| Tag {
                name: n.to_string(),
                value: v.to_string(),
            })
            .collect(),
    }
}

fn player(n: MoveNumber, side: Color, action: Action) -> Event {
    Event {
        n,
        actor: Actor::Player(side),
        action,
        clock_ms: None,
    }
}

fn world(n: MoveNumber, action: Action) -> Event {
    Event {
        n,
        actor: Actor::World,
        action,
        clock_ms: None,
    }
}

/// The spelling the legal list uses for an event that applies: the engine's
/// canonical move, or Koschei's squares in square order (any order applies).
fn canonical(replay: &Replay, e: &Event) -> Event {
    if let Some(c) = replay.canonical(e) {
        return c;
    }
    match &e.action {
        Action::Spell(Spell::Revenge { squares }) => {
            let mut squares = squares.clone();
            squares.sort();
            Event {
                action: Action::Spell(Spell::Revenge { squares }),
                ..e.clone()
            }
        }
        _ => e.clone(),
    }
}

/// Checks the three promises at the replay's current point, against
/// `candidates` (actions of the kinds the legal list covers, right or
/// wrong), and returns the legal list.
fn check_point(replay: &mut Replay, candidates: &[Event], context: &str) -> Vec<Event> {
    let legal = replay.legal_actions();
    for e in &legal {
        let mut r = replay.clone();
        if let Err(err) = r.apply(e) {
            panic!("{context}: listed `{e}` is refused: {err}");
        }
    }
    let before = replay.state();
    let saved = replay.clone();
    let mut applied = Vec::new();
    for c in candidates {
        let canon = canonical(replay, c);
        match replay.apply(c) {
            Ok(()) => {
                assert!(
                    legal.contains(&canon),
                    "{context}: `{c}` applies but `{canon}` is not listed"
                );
                applied.push(canon);
                *replay = saved.clone();
            }
            Err(_) => assert_eq!(replay.state(), before, "{context}: the refused `{c}` changed the state"),
        }
    }
    applied.sort_by_key(|e| e.to_string());
    applied.dedup();
    let mut listed: Vec<String> = legal.iter().map(|e| e.to_string()).collect();
    listed.sort();
    listed.dedup();
    assert_eq!(listed.len(), legal.len(), "{context}: an action is listed twice");
    assert_eq!(
        applied.len(),
        legal.len(),
        "{context}: the candidates do not cover the list"
    );
    legal
}

fn squares(files: u8, ranks: u8) -> Vec<Square> {
    (0..ranks)
        .flat_map(|r| (0..files).filter_map(move |f| Square::new(f, r)))
        .collect()
}

/// Every single placement, removal and `ready` of both sides, and every
/// move (both markers, every promotion piece) of the pieces of the side to
/// move, without check markers.
fn survival_candidates(replay: &Replay, size: BoardSize) -> Vec<Event> {
    let all = squares(size.files, size.ranks);
    let mut out = Vec::new();
    match replay.turn() {
        // A decided game allows no player action.
        None => {}
        Some(Turn::Setup { .. }) => {
            for side in [Color::White, Color::Black] {
                let n = MoveNumber(0);
                out.push(player(n, side, Action::Ready));
                for &sq in &all {
                    out.push(player(n, side, Action::Remove { square: sq, unit: None }));
                    for kind in PieceKind::ALL {
                        let placements = vec![Placement {
                            figure: Figure::Piece(kind),
                            square: sq,
                        }];
                        out.push(player(n, side, Action::Place { placements }));
                    }
                }
            }
        }
        Some(Turn::Move { side, number }) => {
            let Position::Survival(state) = replay.state().position else {
                unreachable!("a survival replay has a survival position")
            };
            for p in state.pieces.iter().filter(|p| p.color == side) {
                for &to in &all {
                    for capture in [false, true] {
                        // Promotion pieces on pawn moves only: the others are
                        // refused alike, and would only slow the test.
                        let promotions: &[Option<PieceKind>] = if p.piece == PieceKind::Pawn {
                            &[
                                None,
                                Some(PieceKind::Queen),
                                Some(PieceKind::Rook),
                                Some(PieceKind::Bishop),
                                Some(PieceKind::Knight),
                            ]
                        } else {
                            &[None, Some(PieceKind::Queen)]
                        };
                        for &promotion in promotions {
                            let m = ChessMove {
                                piece: p.piece,
                                from: Some(p.square),
                                to: Some(to),
                                capture,
                                promotion,
                                check: None,
                            };
                            out.push(player(number, side, Action::Move(m)));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Walks a game from `replay` by choosing among the listed actions at
/// random, checking every point, for at most `steps` events; returns the
/// events played. Where no player may act, the world writes one of the
/// outcomes `owed` offers that applies (chosen at random), or the result.
fn walk(
    mut replay: Replay,
    seed: u64,
    steps: usize,
    candidates: impl Fn(&Replay) -> Vec<Event>,
    owed: impl Fn(&Replay) -> Vec<Event>,
) -> Vec<Event> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut below = |n: usize| (rng.next_u64() % n as u64) as usize;
    let mut played = Vec::new();
    while played.len() < steps {
        let index = played.len();
        let context = format!("seed {seed}, event {index}");
        let tried = candidates(&replay);
        let legal = check_point(&mut replay, &tried, &context);
        let next = if legal.is_empty() {
            let mut world: Vec<Event> = owed(&replay)
                .into_iter()
                .filter(|e| replay.clone().apply(e).is_ok())
                .collect();
            if let Phase::ResultDue(d) = replay.phase() {
                world.push(world_result(&replay, d));
            }
            if world.is_empty() {
                break;
            }
            world.swap_remove(below(world.len()))
        } else {
            // A setup is finished sooner than a uniform choice among some
            // hundred placements would finish it.
            let ready = legal.iter().find(|e| e.action == Action::Ready);
            match ready {
                Some(r) if below(8) == 0 => r.clone(),
                _ => legal[below(legal.len())].clone(),
            }
        };
        replay.apply(&next).expect("a listed or found event applies");
        played.push(next);
    }
    played
}

/// A game `fgn_replay::gen` makes from `options`, with at most `plies`
/// decisions and left open at the cap.
fn generated(options: fgn_replay::gen::Options, plies: usize) -> Game {
    let options = fgn_replay::gen::Options {
        plies,
        resign_at_cap: false,
        ..options
    };
    fgn_replay::gen::generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

fn world_result(replay: &Replay, d: fgn_replay::Decision) -> Event {
    world(
        replay.state().progress.last_number,
        Action::Result {
            outcome: d.outcome,
            reason: d.reason,
        },
    )
}

#[test]
fn survival_chess_legal_actions_are_exactly_the_legal_ones() {
    let size = BoardSize { files: 6, ranks: 6 };
    let mut long = 0;
    for seed in 0..6 {
        let h = header(&[("Game", "survival-chess"), ("Rules", "1.0"), ("Board", "6x6")]);
        let replay = Replay::new(&h).expect("supported");
        let played = walk(replay, seed, 70, |r| survival_candidates(r, size), |_| Vec::new());
        if played.iter().filter(|e| matches!(e.action, Action::Move(_))).count() >= 10 {
            long += 1;
        }
    }
    assert!(long >= 2, "only {long} random walks reach ten moves of play");
}

#[test]
fn survival_chess_games_from_the_generator_keep_the_promises() {
    let size = BoardSize { files: 8, ranks: 8 };
    for seed in 0..3 {
        let rules = fgn_replay::Ruleset::Survival(fgn_replay::ruleset::SurvivalRules {
            board: fgn_replay::ruleset::Board(size),
            ..Default::default()
        });
        // The classical setup: the walks above check setups point by point.
        let options = fgn_replay::gen::Options {
            setup: fgn_replay::gen::Setup::Classical,
            ..fgn_replay::gen::Options::under(rules, seed)
        };
        let game: Game = generated(options, 40);
        let mut replay = Replay::new(&game.header).expect("supported");
        for (i, e) in game.events.iter().enumerate() {
            let tried = survival_candidates(&replay, size);
            check_point(&mut replay, &tried, &format!("seed {seed}, event {i}"));
            replay.apply(e).expect("generated games are legal");
        }
    }
}

fn dark() -> Vec<Square> {
    squares(8, 8)
        .into_iter()
        .filter(|s| (s.file_index() + s.rank_index()) % 2 == 0)
        .collect()
}

/// Plain moves and single jumps of the side to move to every dark square,
/// each legal capture stopped one landing early, and every form of the due
/// spell.
/// Pushes onto `out` the `k`-element subsets of `items` in order, keeping
/// each one's order, until `out` holds `cap` of them.
fn subsets_of(items: &[Square], k: usize, chosen: &mut Vec<Square>, out: &mut Vec<Vec<Square>>, cap: usize) {
    if out.len() >= cap {
        return;
    }
    if chosen.len() == k {
        out.push(chosen.clone());
        return;
    }
    for (i, &sq) in items.iter().enumerate() {
        chosen.push(sq);
        subsets_of(&items[i + 1..], k, chosen, out, cap);
        chosen.pop();
    }
}

fn draughts_candidates(replay: &Replay) -> Vec<Event> {
    let Some(Turn::Move { side, number }) = replay.turn() else {
        return Vec::new();
    };
    let Position::Draughts(state) = replay.state().position else {
        unreachable!("a draughts replay has a draughts position")
    };
    let dark = dark();
    let mut out = Vec::new();
    let ev = |a: Action| player(number, side, a);
    if let Some(&due) = state.spells_due[side].first() {
        let n = SpellNumber::new(due).expect("spells are 1..5");
        out.push(ev(Action::Spell(Spell::Skip { number: n })));
        for f in 0..8 {
            if let Some(file) = fgn_notation::File::new(f) {
                out.push(ev(Action::Spell(Spell::Fury { file })));
            }
        }
        // Spells that move a piece, from every occupied square (own and
        // enemy, so that both spells meet pieces they may not move).
        for &a in &dark {
            out.push(ev(Action::Spell(Spell::Firebird { square: a })));
            if !state.pieces.iter().any(|p| p.square == a) {
                continue;
            }
            for &b in &dark {
                out.push(ev(Action::Spell(Spell::Potion { from: a, to: b })));
                out.push(ev(Action::Spell(Spell::Charm { from: a, to: b })));
            }
        }
        // Koschei's Revenge: sets of empty dark squares of every size up
        // to one more than the checkers it may return, found here rather
        // than taken from the list under test (the first few thousand of
        // each size, so that a crowded board stays quick).
        let empty: Vec<Square> = dark
            .iter()
            .copied()
            .filter(|&sq| !state.pieces.iter().any(|p| p.square == sq))
            .collect();
        let most = usize::from(state.returnable[side]).min(empty.len()) + 1;
        for size in 0..=most.min(empty.len()) {
            let mut sets = Vec::new();
            subsets_of(&empty, size, &mut Vec::new(), &mut sets, 3000);
            out.extend(
                sets.into_iter()
                    .map(|squares| ev(Action::Spell(Spell::Revenge { squares }))),
            );
        }
        // Koschei's sets in reverse order: any order of a right set applies.
        for e in replay.legal_actions() {
            if let Action::Spell(Spell::Revenge { squares }) = e.action {
                let mut squares = squares;
                squares.reverse();
                out.push(ev(Action::Spell(Spell::Revenge {
                    squares: squares.clone(),
                })));
                squares.pop();
                out.push(ev(Action::Spell(Spell::Revenge { squares })));
            }
        }
        return out;
    }
    for p in state.pieces.iter().filter(|p| p.color == side) {
        for &to in &dark {
            for capture in [false, true] {
                if let Some(path) = Path::new(&[p.square, to]) {
                    out.push(ev(Action::Draughts { path, capture }));
                }
            }
        }
    }
    // Captures of several jumps come from the list itself, with every
    // shorter prefix, which stops a capture that must go on.
    for e in replay.legal_actions() {
        if let Action::Draughts { path, capture: true } = e.action {
            let sq = path.squares();
            for len in 3..=sq.len() {
                if let Some(prefix) = Path::new(&sq[..len]) {
                    out.push(ev(Action::Draughts {
                        path: prefix,
                        capture: true,
                    }));
                }
            }
        }
    }
    out
}

/// The reveals the world could write now: every number for the next owed square.
fn owed_reveals(replay: &Replay) -> Vec<Event> {
    let Position::Draughts(state) = replay.state().position else {
        return Vec::new();
    };
    let n = replay.state().progress.last_number;
    state
        .reveals_owed
        .first()
        .map(|&square| {
            (0..=5)
                .filter_map(MagicNumber::new)
                .map(|number| world(n, Action::Reveal { square, number }))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn magic_draughts_legal_actions_are_exactly_the_legal_ones() {
    let (mut spells, mut captures, mut revenges) = (0, 0, 0);
    for seed in 0..5 {
        let h = header(&[
            ("Game", "magic-draughts"),
            ("Rules", "1.0"),
            (
                "SeedCommit",
                "blake3:0000000000000000000000000000000000000000000000000000000000000000",
            ),
        ]);
        let replay = Replay::new(&h).expect("supported");
        let played = walk(replay, seed, 130, draughts_candidates, owed_reveals);
        spells += played.iter().filter(|e| matches!(e.action, Action::Spell(_))).count();
        revenges += played
            .iter()
            .filter(|e| matches!(&e.action, Action::Spell(Spell::Revenge { squares }) if !squares.is_empty()))
            .count();
        captures += played
            .iter()
            .filter(|e| matches!(e.action, Action::Draughts { capture: true, .. }))
            .count();
    }
    assert!(
        spells >= 10 && captures >= 20 && revenges >= 1,
        "too little magic: {spells} spells ({revenges} returning checkers), {captures} captures"
    );
}

/// Every state and every viewer's knowledge has a canonical encoding (a
/// serde attribute such as `flatten` would make the encoder refuse it),
/// after every event of random games of every game.
#[test]
fn every_state_and_knowledge_hashes() {
    use fgn_notation::GameKind;
    let of =
        |game: GameKind, plies: usize| (0..4u64).map(move |i| generated(fgn_replay::gen::Options::new(game, i), plies));
    let games = of(GameKind::OpenWorldChess, 100)
        .chain(of(GameKind::MagicDraughts, 200))
        .chain(of(GameKind::SurvivalChess, 100))
        .chain(of(GameKind::GreatWarChess, 100));
    let mut hashed = 0;
    for game in games {
        let mut replay = Replay::new(&game.header).expect("supported");
        let mut seen = std::collections::HashSet::new();
        for e in game.events.iter() {
            replay.apply(e).expect("generated games are legal");
            seen.insert(replay.state_hash());
            for v in [
                fgn_replay::Viewer::White,
                fgn_replay::Viewer::Black,
                fgn_replay::Viewer::Everyone,
            ] {
                replay.knowledge_hash(v);
            }
            hashed += 1;
        }
        // Positions change as the game goes on, and so do their hashes.
        assert!(
            seen.len() * 2 > game.events.len(),
            "{} states for {} events",
            seen.len(),
            game.events.len()
        );
    }
    assert!(hashed > 1000);
}

/// Every single placement and removal of every unit kind on every square,
/// and `ready`, for both sides in setup; in play, every movement of every
/// unit set (legal or not, both markers) from each of the mover's stacks to
/// every square, every shot from each of its stacks, and `end`.
fn great_war_candidates(replay: &Replay) -> Vec<Event> {
    use fgn_notation::{UnitKind, UnitMove, UnitSet};
    let Position::GreatWar(state) = replay.state().position else {
        unreachable!("a great-war-chess replay has its position")
    };
    let all = squares(state.board.files, state.board.ranks);
    let mut out = Vec::new();
    match replay.turn() {
        // A decided game allows no player action.
        None => {}
        Some(Turn::Setup { .. }) => {
            for side in [Color::White, Color::Black] {
                let n = MoveNumber(0);
                out.push(player(n, side, Action::Ready));
                for &sq in &all {
                    for kind in UnitKind::ALL {
                        out.push(player(
                            n,
                            side,
                            Action::Remove {
                                square: sq,
                                unit: Some(kind),
                            },
                        ));
                        let placements = vec![Placement {
                            figure: Figure::Unit(kind),
                            square: sq,
                        }];
                        out.push(player(n, side, Action::Place { placements }));
                    }
                }
            }
        }
        Some(Turn::Move { side, number }) => {
            use UnitKind::{Artillery as A, Cavalry as C, Infantry as I};
            let sets: Vec<UnitSet> = [&[I][..], &[I, C], &[I, C, A], &[I, A], &[C], &[A], &[C, A]]
                .iter()
                .map(|k| UnitSet::new(k).expect("not empty"))
                .collect();
            out.push(player(number, side, Action::End));
            for s in state.stacks.iter().filter(|s| s.color == side) {
                for &to in &all {
                    out.push(player(number, side, Action::Shot { from: s.square, to }));
                    for &units in &sets {
                        for capture in [false, true] {
                            let m = UnitMove {
                                units,
                                from: s.square,
                                to,
                                capture,
                            };
                            out.push(player(number, side, Action::March(m)));
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn great_war_chess_legal_actions_are_exactly_the_legal_ones() {
    let mut long = 0;
    for seed in 0..2 {
        // Fortifications in one game of two, so that their rules are walked too.
        let forts = if seed == 0 { "2" } else { "0" };
        let h = header(&[
            ("Game", "great-war-chess"),
            ("Rules", "1.0"),
            ("Board", "6x6"),
            ("Fortifications", forts),
        ]);
        let replay = Replay::new(&h).expect("supported");
        let played = walk(replay, seed, 120, great_war_candidates, |_| Vec::new());
        let plays = played
            .iter()
            .filter(|e| matches!(e.action, Action::March(_) | Action::Shot { .. }))
            .count();
        if plays >= 10 {
            long += 1;
        }
    }
    assert!(long >= 1, "only {long} random walks reach ten actions of play");
}

#[test]
fn great_war_chess_games_from_the_generator_keep_the_promises() {
    use fgn_replay::ruleset::{Board, GreatWarRules};
    let mut decided = 0;
    for seed in 0..4 {
        let rules = GreatWarRules {
            board: Board(BoardSize { files: 6, ranks: 6 }),
            fortifications: (seed % 2) as u8 * 2,
            charges: 12,
            ..GreatWarRules::default()
        };
        let game: Game = generated(
            fgn_replay::gen::Options::under(fgn_replay::Ruleset::GreatWar(rules), seed),
            200,
        );
        let mut replay = Replay::new(&game.header).expect("supported");
        for (i, e) in game.events.iter().enumerate() {
            // Every point of play, and the setup's last points, are checked
            // in full; the long setup is only replayed.
            if !matches!(replay.turn(), Some(Turn::Setup { .. })) || i + 4 > game.events.len() {
                let tried = great_war_candidates(&replay);
                check_point(&mut replay, &tried, &format!("seed {seed}, event {i}"));
            }
            replay.apply(e).expect("generated games are legal");
        }
        replay.finish().expect("a generated game records its result");
        decided += usize::from(matches!(replay.phase(), Phase::Over(_)));
    }
    assert!(decided >= 2, "only {decided} of 4 generated games reach a result");
}

/// Guards the legal-action list on positions the random walks seldom
/// reach, such as Koschei's Revenge returning two checkers (the corpus has
/// several): at every position of every valid magic-draughts corpus log,
/// each listed action applies, none is listed twice, and the log's own
/// next move or spell is listed.
#[test]
fn every_listed_action_applies_at_every_position_of_the_magic_draughts_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/magic-draughts/valid");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "fgn"))
        .collect();
    paths.sort();
    let (mut positions, mut revenges) = (0, 0);
    for path in &paths {
        let game = fgn_notation::parse(&std::fs::read(path).expect("a readable log"))
            .document
            .game;
        let mut replay = Replay::new(&game.header).expect("a supported header");
        for (i, event) in game.events.iter().enumerate() {
            let legal = replay.legal_actions();
            let context = format!("{}, event {i}", path.display());
            for e in &legal {
                if let Err(err) = replay.clone().apply(e) {
                    panic!("{context}: listed `{e}` is refused: {err}");
                }
                if matches!(&e.action, Action::Spell(Spell::Revenge { squares }) if squares.len() >= 2) {
                    revenges += 1;
                }
            }
            let mut listed: Vec<String> = legal.iter().map(|e| e.to_string()).collect();
            listed.sort();
            listed.dedup();
            assert_eq!(listed.len(), legal.len(), "{context}: an action is listed twice");
            if matches!(event.action, Action::Draughts { .. } | Action::Spell(_)) {
                let mut own = event.clone();
                own.clock_ms = None;
                if let Action::Spell(Spell::Revenge { squares }) = &mut own.action {
                    squares.sort();
                }
                assert!(legal.contains(&own), "{context}: the log's `{event}` is not listed");
            }
            replay.apply(event).expect("a valid corpus log");
            positions += 1;
        }
    }
    assert!(positions > 500, "{positions} positions");
    assert!(revenges > 0, "no position offers a revenge of two checkers");
}
