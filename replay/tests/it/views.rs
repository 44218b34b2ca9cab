//! Players' views of generated games: a view holds nothing the player could
//! not know (logs that differ only in what it cannot see give it the same
//! view, and a change it can see changes the view), a view is written
//! append-only, and viewing a view again changes nothing.

use fgn_notation::{
    Action, Actor, Color, Event, Figure, Game, MagicNumber, ObjectKind, PieceKind, Placement, Square, UnitKind,
};
use fgn_replay::gen::{generate, Options, Setup};
use fgn_replay::ruleset::{Board, Ruleset, SurvivalRules};
use fgn_replay::{view, KnownPosition, Replay, ViewError, ViewWriter, Viewer};
use proptest::prelude::*;

const SIDES: [Color; 2] = [Color::White, Color::Black];

/// A generated game of `options` with at most `plies` decisions, left
/// open at the cap as a game in progress is.
fn generated(options: Options, plies: usize) -> Game {
    let options = Options {
        plies,
        resign_at_cap: false,
        ..options
    };
    generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

/// A survival-chess game on 8x8 from the classical setup, which places each
/// army in one event (the setup edits below take it apart).
fn survival_game(seed: u64) -> Game {
    let rules = Ruleset::Survival(SurvivalRules {
        board: Board(fgn_notation::BoardSize { files: 8, ranks: 8 }),
        ..SurvivalRules::default()
    });
    let options = Options {
        setup: Setup::Classical,
        ..Options::under(rules, seed)
    };
    generated(options, 60)
}

fn owc_game(seed: u64) -> Game {
    generated(Options::new(fgn_notation::GameKind::OpenWorldChess, seed), 100)
}

fn magic_game(seed: u64) -> Game {
    generated(Options::new(fgn_notation::GameKind::MagicDraughts, seed), 120)
}

fn the_view(game: &Game, side: Color) -> Game {
    view(game, side).unwrap_or_else(|e| panic!("{e}\n{}", game.canonical_text()))
}

fn without_seed(game: &Game) -> Game {
    let mut g = game.clone();
    g.events.retain(|e| !matches!(e.action, Action::Seed { .. }));
    g
}

fn prefix(game: &Game, n: usize) -> Game {
    Game {
        header: game.header.clone(),
        events: game.events[..n].to_vec(),
    }
}

/// The view of every `cuts`-th prefix is a prefix of the view, the view of
/// the view is the view, and the other side's view of it is refused.
fn check_append_only_and_idempotent(game: &Game, cuts: &[usize]) {
    for side in SIDES {
        let full = the_view(game, side);
        assert_eq!(full.perspective(), Some(side));
        assert!(!full.events.iter().any(|e| matches!(e.action, Action::Seed { .. })));
        for &cut in cuts {
            let cut = cut % (game.events.len() + 1);
            let part = the_view(&prefix(game, cut), side);
            assert_eq!(part.header, full.header);
            assert!(
                full.events.starts_with(&part.events),
                "the view of the first {cut} events is not a prefix of the view:\n{}\n---\n{}",
                part.canonical_text(),
                full.canonical_text()
            );
        }
        assert_eq!(the_view(&full, side).canonical_text(), full.canonical_text());
        let other = view(&full, side.opponent());
        assert!(matches!(other, Err(ViewError::OtherSide { .. })));
        assert!(
            !other.unwrap_err().is_unsupported(),
            "asking for the other side is a fault, not a missing engine"
        );
        // A server writing the view as the log grows starts the file with
        // the same header as the view made at once.
        let writer = ViewWriter::new(&game.header, side).expect("a supported game");
        assert_eq!(writer.header(), &full.header);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn survival_views_are_append_only_and_idempotent(seed in any::<u64>(), cuts in prop::collection::vec(any::<usize>(), 6)) {
        check_append_only_and_idempotent(&survival_game(seed), &cuts);
    }

    #[test]
    fn magic_views_are_append_only_and_idempotent(seed in any::<u64>(), cuts in prop::collection::vec(any::<usize>(), 6)) {
        check_append_only_and_idempotent(&magic_game(seed), &cuts);
    }

    #[test]
    fn owc_views_are_append_only_and_idempotent(seed in any::<u64>(), cuts in prop::collection::vec(any::<usize>(), 5)) {
        check_append_only_and_idempotent(&owc_game(seed), &cuts);
    }
}

// ---------------------------------------------------------------------------
// survival-chess: the opponent's setup edits are hidden.

/// The game with `color`'s setup made another way to the same end: its
/// pieces placed one at a time in reverse order, and each taken back and put
/// down again once.
fn setup_edited(game: &Game, color: Color) -> Game {
    let mut out = game.clone();
    let at = out
        .events
        .iter()
        .position(|e| e.actor == Actor::Player(color) && matches!(e.action, Action::Place { .. }))
        .expect("the generator places each army in one event");
    let Action::Place { placements } = out.events[at].action.clone() else {
        unreachable!("found as a placement")
    };
    let event = |action| Event {
        action,
        ..out.events[at].clone()
    };
    let mut edits = Vec::new();
    for p in placements.iter().rev() {
        edits.push(event(Action::Place { placements: vec![*p] }));
        edits.push(event(Action::Remove {
            unit: None,
            square: p.square,
        }));
        edits.push(event(Action::Place { placements: vec![*p] }));
    }
    out.events.splice(at..=at, edits);
    out
}

/// The setup events only, with `color`'s first pawn one square further
/// forward (still on its own half of an 8x8 board).
fn setup_with_pawn_moved(game: &Game, color: Color) -> Game {
    let mut out = game.clone();
    out.events.retain(|e| e.n.0 == 0);
    for e in &mut out.events {
        if let (Actor::Player(c), Action::Place { placements }) = (e.actor, &mut e.action) {
            if c == color {
                let pawn: &mut Placement = placements
                    .iter_mut()
                    .find(|p| p.figure == Figure::Piece(PieceKind::Pawn))
                    .expect("the army has pawns");
                let rank = match color {
                    Color::White => pawn.square.rank_index() + 1,
                    Color::Black => pawn.square.rank_index() - 1,
                };
                pawn.square = Square::new(pawn.square.file_index(), rank).expect("on the board");
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn survival_opponents_setup_edits_do_not_show(seed in any::<u64>()) {
        let game = survival_game(seed);
        for side in SIDES {
            let edited = setup_edited(&game, side.opponent());
            prop_assert!(fgn_replay::validate(&edited).expect("supported").error.is_none());
            prop_assert_eq!(the_view(&edited, side).canonical_text(), the_view(&game, side).canonical_text());
            // The player's own edits are its own events: they show.
            let own = setup_edited(&game, side);
            prop_assert_ne!(the_view(&own, side).canonical_text(), the_view(&game, side).canonical_text());
        }
    }

    #[test]
    fn survival_opponents_final_setup_shows(seed in any::<u64>()) {
        let game = survival_game(seed);
        for side in SIDES {
            let setup = setup_with_pawn_moved(&game, Color::White);
            let other = setup_with_pawn_moved(&game, Color::Black);
            prop_assert!(fgn_replay::validate(&setup).expect("supported").error.is_none());
            prop_assert!(fgn_replay::validate(&other).expect("supported").error.is_none());
            let only_setup = prefix(&game, 4);
            let moved = if side == Color::White { &other } else { &setup };
            prop_assert_ne!(the_view(moved, side).canonical_text(), the_view(&only_setup, side).canonical_text());
        }
    }
}

// ---------------------------------------------------------------------------
// magic-draughts: the numbers show only in reveals; the seed never.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn magic_seed_does_not_show(seed in any::<u64>()) {
        let game = magic_game(seed);
        for side in SIDES {
            prop_assert_eq!(the_view(&without_seed(&game), side).canonical_text(), the_view(&game, side).canonical_text());
        }
    }

    #[test]
    fn magic_a_changed_reveal_shows(seed in any::<u64>()) {
        let game = without_seed(&magic_game(seed));
        let Some(at) = game.events.iter().position(|e| matches!(e.action, Action::Reveal { .. })) else {
            return Ok(());
        };
        let Action::Reveal { square, number } = game.events[at].action else { unreachable!("a reveal") };
        let mut changed = prefix(&game, at + 1);
        changed.events[at].action = Action::Reveal {
            square,
            number: MagicNumber::new(if number.get() == 0 { 1 } else { 0 }).expect("0..=5"),
        };
        // The changed prefix replays (the_view fails on a rule error).
        for side in SIDES {
            prop_assert_ne!(the_view(&changed, side).canonical_text(), the_view(&prefix(&game, at + 1), side).canonical_text());
        }
    }
}

// ---------------------------------------------------------------------------
// open-world-chess: what happens in the fog does not show.

/// Replays `a` and `b` side by side and checks that they give `side` the
/// same view lines event by event as long as `side` sees the same in both;
/// returns how many events were compared.
fn same_view_while_unseen(a: &Game, b: &Game, side: Color) -> usize {
    let (mut ra, mut rb) = (Replay::new(&a.header).unwrap(), Replay::new(&b.header).unwrap());
    let (mut wa, mut wb) = (
        ViewWriter::new(&a.header, side).unwrap(),
        ViewWriter::new(&b.header, side).unwrap(),
    );
    assert_eq!(wa.header(), wb.header());
    for (i, (ea, eb)) in a.events.iter().zip(&b.events).enumerate() {
        if rb.apply(eb).is_err() {
            return i;
        }
        ra.apply(ea).expect("the generated game is valid");
        if ra.knowledge(Viewer::of(side)) != rb.knowledge(Viewer::of(side)) {
            return i;
        }
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        wa.push(i, ea, &mut la).unwrap();
        wb.push(i, eb, &mut lb).unwrap();
        assert_eq!(
            la,
            lb,
            "event {i} (`{ea}` / `{eb}`) shows differently to {}",
            side.name()
        );
    }
    a.events.len().min(b.events.len())
}

/// Whether `side` sees `square` now (its knowledge lists the square).
fn sees(replay: &Replay, side: Color, square: Square) -> bool {
    match replay.knowledge(Viewer::of(side)).position {
        KnownPosition::OpenWorld(k) => k.seen.iter().any(|s| s.square == square),
        _ => panic!("an open-world-chess replay"),
    }
}

/// The spawns of `game` and whether `side` saw each square when it spawned.
fn spawns(game: &Game, side: Color) -> Vec<(usize, Square, ObjectKind, bool)> {
    let mut replay = Replay::new(&game.header).unwrap();
    let mut out = Vec::new();
    for (i, e) in game.events.iter().enumerate() {
        replay.apply(e).expect("the generated game is valid");
        if let Action::Spawn { square, object } = e.action {
            out.push((i, square, object, sees(&replay, side, square)));
        }
    }
    out
}

fn other_object(object: ObjectKind) -> ObjectKind {
    if object == ObjectKind::Regen {
        ObjectKind::Hp
    } else {
        ObjectKind::Regen
    }
}

#[test]
fn owc_seed_does_not_show() {
    for seed in 0..8 {
        let game = owc_game(seed);
        for side in SIDES {
            assert_eq!(
                the_view(&without_seed(&game), side),
                the_view(&game, side),
                "game {seed}"
            );
        }
    }
}

#[test]
fn owc_objects_spawned_in_the_fog_do_not_show_until_seen() {
    let (mut compared, mut cases) = (0, 0);
    for seed in 0..10 {
        let game = without_seed(&owc_game(seed));
        for side in SIDES {
            for (i, square, object, seen) in spawns(&game, side) {
                if seen {
                    continue;
                }
                let mut changed = game.clone();
                changed.events[i].action = Action::Spawn {
                    square,
                    object: other_object(object),
                };
                let n = same_view_while_unseen(&game, &changed, side);
                assert!(n > i, "game {seed}: the changed spawn {i} itself shows");
                compared += n - i;
                cases += 1;
            }
        }
    }
    assert!(cases >= 20, "only {cases} spawns in the fog");
    assert!(compared >= 200, "only {compared} events compared after the changes");
}

/// Replays games `seeds` and, at each event that `edit` changes (given the
/// position before and after it, the player and the event), replaces it and
/// compares the player's views while it sees the same in both; returns how
/// many changed events were compared.
fn unseen_edits(
    seeds: std::ops::Range<u64>,
    edit: impl Fn(&Replay, &Replay, Color, usize, &Event) -> Option<Action>,
) -> usize {
    let mut cases = 0;
    for seed in seeds {
        let game = without_seed(&owc_game(seed));
        for side in SIDES {
            let mut replay = Replay::new(&game.header).unwrap();
            for (i, e) in game.events.iter().enumerate() {
                let before = replay.clone();
                replay.apply(e).expect("the generated game is valid");
                let Some(action) = edit(&before, &replay, side, i, e) else {
                    continue;
                };
                let mut changed = game.clone();
                changed.events[i].action = action;
                // A change that the player sees at once (a roll on a piece
                // that then lands in sight) ends the comparison before it;
                // only the others tell about the fog.
                if same_view_while_unseen(&game, &changed, side) > i {
                    cases += 1;
                }
            }
        }
    }
    cases
}

/// The side to move.
fn mover(replay: &Replay) -> Option<Color> {
    match replay.turn() {
        Some(fgn_replay::Turn::Move { side, .. }) => Some(side),
        Some(fgn_replay::Turn::Setup { .. }) | None => None,
    }
}

#[test]
fn owc_damage_rolled_in_the_fog_does_not_show_until_seen() {
    let cases = unseen_edits(0..48, |before, after, side, _, e| match e.action {
        Action::Damage { square, amount }
            if mover(before) != Some(side) && !sees(before, side, square) && !sees(after, side, square) =>
        {
            Some(Action::Damage {
                square,
                amount: if amount == 1 { 2 } else { amount - 1 },
            })
        }
        _ => None,
    });
    assert!(cases >= 8, "only {cases} damage rolls in the fog");
}

#[test]
fn owc_moves_made_in_the_fog_do_not_show() {
    let cases = unseen_edits(0..8, |before, _, side, i, e| {
        let (Actor::Player(mover), Action::Move(m)) = (e.actor, &e.action) else {
            return None;
        };
        let unseen = |sq: Option<Square>| sq.is_some_and(|sq| !sees(before, side, sq));
        // Every third such move: each comparison replays the game twice.
        if mover == side || !unseen(m.from) || !unseen(m.to) || i % 3 != 0 {
            return None;
        }
        // Another move of the opponent, as far from the player's sight.
        // The legal list is in canonical spelling already.
        let other = before.legal_actions().into_iter().find_map(|o| match o.action {
            Action::Move(o) if o != *m && unseen(o.from) && unseen(o.to) && !o.capture => Some(o),
            _ => None,
        })?;
        Some(Action::Move(other))
    });
    assert!(cases >= 10, "only {cases} moves in the fog");
}

#[test]
fn owc_a_spawn_in_sight_shows() {
    let mut cases = 0;
    for seed in 0..6 {
        let game = without_seed(&owc_game(seed));
        for side in SIDES {
            for (i, square, object, seen) in spawns(&game, side) {
                if !seen {
                    continue;
                }
                let mut changed = prefix(&game, i + 1);
                changed.events[i].action = Action::Spawn {
                    square,
                    object: other_object(object),
                };
                assert_ne!(the_view(&changed, side), the_view(&prefix(&game, i + 1), side));
                cases += 1;
            }
        }
    }
    assert!(cases >= 10, "only {cases} spawns in sight");
}

#[test]
fn owc_a_promotion_into_the_fog_does_not_show_the_piece() {
    // Black clears the squares within 2 of h8 and keeps pawns on f5 and g5,
    // which see h7 but not h8: it sees White's pawn leave h7 and not the
    // queen it became. (An attack into the fog cannot happen: the piece
    // attacked is the player's own, whose square it always sees.)
    let log = r#"[Game "open-world-chess"]
[Rules "1.2"]
[Mode "single"]
[White "Mira"]
[Black "Lev"]

1 w g2-g3
1 w g3-g4
1 w end
1 b h7-h6
1 b h6-h5
1 b g7-g6
2 w end
2 b g6-g5
2 b f7-f6
2 b f6-f5
3 w end
3 b e7-e6
3 b Bf8-c5
3 b Ng8-e7
4 w end
4 b e6-e5
4 b Rh8-h6
4 b Rh6-a6
5 w g4xh5
5 w h5-h6
5 w h6-h7
5 b end
6 w h7-h8
"#;
    let game = parsed(log);
    // The move's line, before the observations that follow it (squares
    // going out of sight as the pawn leaves them).
    let last = |side| {
        the_view(&game, side)
            .events
            .iter()
            .rfind(|e| matches!(e.action, fgn_notation::Action::Move(_)))
            .map(ToString::to_string)
    };
    assert_eq!(last(Color::White).as_deref(), Some("6 w h7-h8=Q"));
    assert_eq!(last(Color::Black).as_deref(), Some("6 w Ph7-?"));
}

#[test]
fn owc_views_hide_moves_and_observe() {
    // Not vacuous: the generated games do have moves seen in part or not at
    // all, hidden purchase targets and observations.
    let mut forms = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let game = owc_game(seed);
        for side in SIDES {
            for e in the_view(&game, side).events {
                let form = match &e.action {
                    Action::Hidden => "?",
                    Action::Move(m) if m.from.is_none() => "out of the fog",
                    Action::Move(m) if m.to.is_none() => "into the fog",
                    Action::See { .. } => "see",
                    _ => continue,
                };
                assert_ne!(e.actor, Actor::Player(side), "{side:?}'s own move hidden: {e}");
                forms.insert(form);
            }
        }
    }
    assert_eq!(forms.len(), 4, "{forms:?}");
}

// ---------------------------------------------------------------------------
// great-war-chess: the opponent's setup edits are hidden, its final setup is
// not.

/// A random game on 8x8 with 0, 1 or 2 fortifications per side (by `seed`),
/// so that setups with and without fortifications are both drawn.
fn gwc_game(seed: u64) -> Game {
    let rules = fgn_replay::ruleset::GreatWarRules {
        fortifications: (seed % 3) as u8,
        ..Default::default()
    };
    let game = without_setup_removals(&generated(Options::under(Ruleset::GreatWar(rules), seed), 80));
    let v = fgn_replay::validate(&game).expect("supported");
    assert!(v.error.is_none(), "{:?}\n{}", v.error, game.canonical_text());
    game
}

/// `game` with every setup placement that is later taken back left out,
/// and the removals with them, so that each unit a side sets up is placed
/// once, in one event of its own (the generator sometimes takes units back).
fn without_setup_removals(game: &Game) -> Game {
    let mut drop = vec![false; game.events.len()];
    for (i, e) in game.events.iter().enumerate() {
        let Action::Remove { unit, square } = e.action else {
            continue;
        };
        let placed = (0..i).rev().find(|&j| {
            !drop[j]
                && game.events[j].actor == e.actor
                && matches!(&game.events[j].action, Action::Place { placements }
                    if placements.iter().any(|p| p.square == square && unit.is_none_or(|u| p.figure == Figure::Unit(u))))
        });
        drop[i] = true;
        if let Some(j) = placed {
            drop[j] = true;
        }
    }
    let mut out = game.clone();
    let mut keep = drop.iter().map(|d| !d);
    out.events.retain(|_| keep.next().unwrap_or(true));
    out
}

/// `color`'s setup placements in the order they were made (one unit per
/// event, none taken back: see [`without_setup_removals`]).
fn gwc_placements(game: &Game, color: Color) -> Vec<Placement> {
    game.events
        .iter()
        .filter(|e| e.n.0 == 0 && e.actor == Actor::Player(color))
        .filter_map(|e| match &e.action {
            Action::Place { placements } => Some(placements.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The game with `color`'s setup made another way to the same end: all its
/// placements moved to where its first one was, fortifications first (a unit
/// may stand on a fortification only once it is there), the units in reverse
/// order, each unit placed, taken back and placed again.
fn gwc_setup_edited(game: &Game, color: Color) -> Game {
    let ours = |e: &Event| e.n.0 == 0 && e.actor == Actor::Player(color) && matches!(e.action, Action::Place { .. });
    let at = game.events.iter().position(ours).expect("each side places its units");
    let template = game.events[at].clone();
    let event = |action| Event {
        action,
        ..template.clone()
    };
    let placements = gwc_placements(game, color);
    let is_fort = |p: &Placement| p.figure == Figure::Unit(UnitKind::Fortification);
    let mut edits: Vec<Event> = placements
        .iter()
        .filter(|p| is_fort(p))
        .map(|p| event(Action::Place { placements: vec![*p] }))
        .collect();
    for p in placements.iter().rev().filter(|p| !is_fort(p)) {
        let Figure::Unit(unit) = p.figure else {
            unreachable!("great-war-chess places units")
        };
        edits.push(event(Action::Place { placements: vec![*p] }));
        edits.push(event(Action::Remove {
            unit: Some(unit),
            square: p.square,
        }));
        edits.push(event(Action::Place { placements: vec![*p] }));
    }
    let mut out = game.clone();
    out.events.retain(|e| !ours(e));
    out.events.splice(at..at, edits);
    out
}

/// The setup events only (move number 0), with `color`'s cavalry `index`
/// (0 or 1) placed on another own square where no unit or fortification of
/// `color` stands (always legal: cavalry may stand alone).
fn gwc_setup_with_cavalry_moved(game: &Game, color: Color, index: usize) -> Game {
    let taken: Vec<Square> = gwc_placements(game, color).iter().map(|p| p.square).collect();
    let ranks = match color {
        Color::White => 0..4,
        Color::Black => 4..8,
    };
    let free = ranks
        .flat_map(|r| (0..8).map(move |f| Square::new(f, r).expect("on the board")))
        .find(|s| !taken.contains(s))
        .expect("a half of 8x8 has room beyond 12 units and 2 fortifications");
    let mut out = game.clone();
    out.events.retain(|e| e.n.0 == 0);
    let mut seen = 0;
    for e in &mut out.events {
        if let (Actor::Player(c), Action::Place { placements }) = (e.actor, &mut e.action) {
            for p in placements
                .iter_mut()
                .filter(|p| c == color && p.figure == Figure::Unit(UnitKind::Cavalry))
            {
                if seen == index {
                    p.square = free;
                }
                seen += 1;
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn gwc_views_are_append_only_and_idempotent(seed in any::<u64>(), cuts in prop::collection::vec(any::<usize>(), 6)) {
        check_append_only_and_idempotent(&gwc_game(seed), &cuts);
    }

    #[test]
    fn gwc_opponents_setup_edits_do_not_show(seed in any::<u64>()) {
        let game = gwc_game(seed);
        for side in SIDES {
            let edited = gwc_setup_edited(&game, side.opponent());
            prop_assert!(fgn_replay::validate(&edited).expect("supported").error.is_none());
            prop_assert_eq!(the_view(&edited, side).canonical_text(), the_view(&game, side).canonical_text());
            // The player's own edits are its own events: they show.
            let own = gwc_setup_edited(&game, side);
            prop_assert!(fgn_replay::validate(&own).expect("supported").error.is_none());
            prop_assert_ne!(the_view(&own, side).canonical_text(), the_view(&game, side).canonical_text());
        }
    }

    #[test]
    fn gwc_opponents_final_setup_shows(seed in any::<u64>(), index in 0usize..2) {
        let game = gwc_game(seed);
        let mut setup = game.clone();
        setup.events.retain(|e| e.n.0 == 0);
        for side in SIDES {
            let moved = gwc_setup_with_cavalry_moved(&game, side.opponent(), index);
            prop_assert!(fgn_replay::validate(&moved).expect("supported").error.is_none());
            prop_assert_ne!(the_view(&moved, side).canonical_text(), the_view(&setup, side).canonical_text());
        }
    }
}

/// Every prefix of `game` up to the first move after setup, as each side's
/// view, replays alone to that side's knowledge of the prefix. The prefixes
/// where the opponent is readied and the player not, before any `@ setup`
/// reveals it, are the ones that guard the stand-in setup; how many there
/// were is returned.
fn setup_prefixes_replay_to_the_same_knowledge(game: &Game) -> usize {
    let setup_len = game.events.iter().take_while(|e| e.n.0 == 0).count();
    let mut opponent_ready_unseen = 0;
    for n in 0..=(setup_len + 1).min(game.events.len()) {
        let part = prefix(game, n);
        let mut replay = Replay::new(&part.header).expect("a supported game");
        for e in part.events.iter() {
            replay.apply(e).expect("a valid generated game");
        }
        for side in SIDES {
            let v = the_view(&part, side);
            // Readied by its `ready`, or by the world when its setup time ran out.
            let ready = |c: Color| {
                v.events.iter().any(|e| match (e.actor, &e.action) {
                    (Actor::Player(p), Action::Ready) => p == c,
                    (Actor::World, Action::Timeout { color }) => e.n.0 == 0 && *color == c,
                    _ => false,
                })
            };
            let revealed = v.events.iter().any(|e| matches!(e.action, Action::Setup { .. }));
            if ready(side.opponent()) && !ready(side) && !revealed {
                opponent_ready_unseen += 1;
            }
            let (full, s, origins) = fgn_replay::replayable(&v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(s, side);
            assert_eq!(origins.len(), full.events.len());
            // Each event is applied, as `fgn show` does: a prefix may stop
            // before the result its last event decided.
            let mut again = Replay::new(&full.header).expect("a replayable view starts");
            for e in full.events.iter() {
                again.apply(e).unwrap_or_else(|error| {
                    panic!(
                        "{side:?}'s view of the first {n} events:\n{}\nreplayed as\n{}\n{error:?}",
                        v.canonical_text(),
                        full.canonical_text()
                    )
                });
            }
            assert_eq!(
                again.knowledge_hash(Viewer::of(side)),
                replay.knowledge_hash(Viewer::of(side)),
                "{side:?}'s view of the first {n} events replays to other knowledge"
            );
        }
    }
    opponent_ready_unseen
}

/// Found by the `views` fuzz target: a view that ends in setup with the
/// opponent ready, its placements not yet revealed, replayed as a `ready`
/// with nothing placed, which the rules refuse ("white needs its king on
/// the board before `ready`"), so `fgn show` of such a view failed.
#[test]
fn a_view_in_setup_with_the_opponent_ready_unseen_replays() {
    let text = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[TimeControl \"setup=120 move=60\"]\n\n\
                0 w place Kf1 Ra2 Rb3 Pf2 Pg2 Ph2 {t=4}\n0 w ready {t=31}\n";
    let parsed = fgn_notation::parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    let game = parsed.document.game;
    assert_eq!(setup_prefixes_replay_to_the_same_knowledge(&game), 1);
    let mut unseen = 0;
    for seed in 0..6 {
        unseen += setup_prefixes_replay_to_the_same_knowledge(&generated(
            Options::new(fgn_notation::GameKind::SurvivalChess, seed),
            40,
        ));
        unseen += setup_prefixes_replay_to_the_same_knowledge(&gwc_game(seed));
    }
    assert!(unseen > 0, "no generated setup had the opponent ready unseen");
}

/// Found by the `views` fuzz target in corpus game gwc-11: `@ setup` lists
/// an infantry in its own fortification before the fortification (square
/// order, units in `I C A F` order), and `replayable` placed them in that
/// order, which the rules refuse ("a fortification goes on an empty
/// square; c3 is not empty"), so neither view of the game could be drawn.
#[test]
fn a_view_whose_opponent_set_up_infantry_in_a_fortification_replays() {
    let text = "[Game \"great-war-chess\"]\n[Rules \"1.0\"]\n[Board \"6x6\"]\n[Fortifications \"2\"]\n\n\
                0 w place Fc3 Ic3 Ff3 Ia2 Ib2 Cb2 Id2 Ie2 Ce2 If2 Ib1 Ab1 Ie1 Ae1\n\
                0 b place Fa4 Ia4 Fe5 Ib5 Cb5 Ic5 Ia6 Ib6 Ab6 Id6 Ie6 Ce6 Ae6 If6\n\
                0 w ready\n0 b ready\n1 w ICe2-d3\n";
    each_view_replays_to_its_knowledge(&parsed(text));
}

/// Each side's view of the whole valid log `game` replays alone, without
/// a rule error, to that side's knowledge of the log.
fn each_view_replays_to_its_knowledge(game: &Game) {
    let verdict = fgn_replay::validate(game).expect("a supported game");
    assert!(verdict.error.is_none(), "{:?}", verdict.error);
    for side in SIDES {
        let v = the_view(game, side);
        let (full, _, _) = fgn_replay::replayable(&v).unwrap_or_else(|e| panic!("{e}"));
        let again = fgn_replay::validate(&full).expect("a replayable view starts");
        assert_eq!(again.error, None, "{side:?}:\n{}", full.canonical_text());
        assert_eq!(
            again.replay.knowledge_hash(Viewer::of(side)),
            verdict.replay.knowledge_hash(Viewer::of(side)),
            "{side:?}"
        );
    }
}

fn parsed(text: &str) -> Game {
    let parsed = fgn_notation::parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    parsed.document.game
}

/// Guards the setup timeout in `replayable` (mutation testing): a side
/// readied by `@ timeout` in setup, not by `ready`, is revealed at its
/// timeout. Corpus game 12 has black time out in setup after white's
/// `ready`; every view prefix of it must replay.
#[test]
fn views_of_a_setup_timeout_replay_at_every_prefix() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/survival-chess/valid/12-setup-timeout-auto-ready.fgn"
    );
    let text = std::fs::read_to_string(path).expect("corpus game 12");
    let game = parsed(&text);
    assert!(game
        .events
        .iter()
        .any(|e| e.n.0 == 0 && matches!(e.action, Action::Timeout { .. })));
    assert!(setup_prefixes_replay_to_the_same_knowledge(&game) > 0);
}

/// Found by mutation testing (`revealed` with `||` for `&&` in
/// `replayable` survived): white's view of a log in which black's setup
/// time ran out while white was still setting up, `0 @ timeout b`, was
/// replayed with black readied with nothing (its placements are hidden
/// from white), so `fgn show` of the view said the game was aborted
/// (`no-king`) where the game went on. The stand-in setup now stands
/// before an opponent's setup timeout as before its `ready`.
#[test]
fn a_view_in_setup_with_the_opponent_timed_out_unseen_replays() {
    let game = parsed(
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[TimeControl \"setup=120 move=60\"]\n\n\
         0 w place Kf1 Pe2 {t=10}\n0 b place Kg12 Qd10 {t=22}\n\
         0 @ timeout b {t=120.5}\n0 @ timeout w {t=120.5}\n1 w e2-e3 {t=130}\n",
    );
    assert!(fgn_replay::validate(&game).expect("supported").error.is_none());
    assert!(setup_prefixes_replay_to_the_same_knowledge(&game) > 0);
}

/// The other side of the fix above: when the opponent's setup time ran
/// out with no king placed, the log aborts the game there, before the
/// player is ready (so no `@ setup` ever reveals the opponent's), and the
/// view, which shows the abort, must replay to it with nothing placed for
/// the opponent rather than a stand-in king.
#[test]
fn a_view_of_a_setup_aborted_at_the_opponents_timeout_replays_to_the_abort() {
    let game = parsed(
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[TimeControl \"setup=120 move=60\"]\n\n\
         0 w place Kf1 Pe2 {t=10}\n0 b place Qd10 {t=22}\n\
         0 @ timeout b {t=120.5}\n0 @ result abort no-king\n",
    );
    each_view_replays_to_its_knowledge(&game);
}

/// Guards the stand-in setup's place (mutation testing): the `place` that
/// stands in for an opponent's unrevealed setup goes right before the
/// opponent's `ready` and stands with it, not before some earlier event
/// of the opponent's such as a chat.
#[test]
fn a_stand_in_setup_stands_with_the_opponents_ready() {
    let game = parsed(
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n\
         0 w place Ke1 Pe2 {t=4}\n0 w chat \"ready soon\" {t=9}\n0 w ready {t=31}\n",
    );
    let v = the_view(&game, Color::Black);
    let shown: Vec<&Action> = v.events.iter().map(|e| &e.action).collect();
    assert!(matches!(shown[..], [Action::Chat { .. }, Action::Ready]), "{shown:?}");
    let (full, side, origins) = fgn_replay::replayable(&v).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(side, Color::Black);
    let actions: Vec<&Action> = full.events.iter().map(|e| &e.action).collect();
    assert!(
        matches!(actions[..], [Action::Chat { .. }, Action::Place { .. }, Action::Ready]),
        "{}",
        full.canonical_text()
    );
    assert_eq!(origins, [0, 1, 1]);
}

/// Guards `ViewError::is_unsupported` (mutation testing), which tells
/// `fgn hash` and `fgn diff` a view that cannot be made (exit status 2)
/// from a faulty log (status 1).
#[test]
fn a_view_error_tells_a_missing_engine_from_a_faulty_log() {
    let owc = the_view(&owc_game(3), Color::White);
    let not_alone = fgn_replay::replayable(&owc).expect_err("an open-world-chess view does not replay alone");
    assert!(matches!(not_alone, ViewError::NotReplayable(_)) && not_alone.is_unsupported());

    let unknown_rules = parsed("[Game \"survival-chess\"]\n[Rules \"9.9\"]\n\n0 w place Ke1\n");
    let e = view(&unknown_rules, Color::White).expect_err("no engine for rules 9.9");
    assert!(matches!(e, ViewError::Start(_)) && e.is_unsupported(), "{e}");

    let faulty = parsed("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n0 w place Kd1\n");
    let e = view(&faulty, Color::White).expect_err("a second white king breaks a rule");
    assert!(matches!(e, ViewError::Rule { .. }) && !e.is_unsupported(), "{e}");
}

/// Every square token of an event line (a letter and one or two digits,
/// not inside a longer word), as byte ranges.
fn square_tokens(line: &str) -> Vec<std::ops::Range<usize>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_lowercase() && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if starts && (1..=2).contains(&digits) && b.get(i + 1 + digits).is_none_or(|c| !c.is_ascii_alphanumeric()) {
            out.push(i..i + 1 + digits);
            i += 1 + digits;
        } else {
            i += 1;
        }
    }
    out
}

/// An event naming a square off the board is refused by the rules; every
/// view and every player's knowledge must refuse it the same way, leaving
/// the view written so far and the knowledge as they were, instead of
/// indexing the board with it (issue 36: `1 w e2-e9` on 8x8 panicked in
/// the open-world-chess view). Every square of every event of every valid
/// corpus log of every game is replaced in turn by squares one file past,
/// one rank past and far off the board.
#[test]
fn an_event_naming_a_square_off_the_board_is_refused_by_views_and_knowledge_alike() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut refused = 0usize;
    for game in [
        "survival-chess",
        "magic-draughts",
        "open-world-chess",
        "great-war-chess",
    ] {
        let mut paths: Vec<_> = std::fs::read_dir(corpus.join(game).join("valid"))
            .expect("corpus")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("corpus log");
            let log = fgn_notation::parse(text.as_bytes()).document.game;
            let Ok(mut replay) = Replay::new(&log.header) else {
                continue;
            };
            let mut rules = Ruleset::defaults(log.kind().expect("a game"));
            rules.apply_header(&log.header, None).expect("the log's parameters");
            let size = match &rules {
                Ruleset::Survival(r) => r.board.0,
                Ruleset::OpenWorld(r) => r.board.0,
                Ruleset::GreatWar(r) => r.board.0,
                Ruleset::Draughts(_) => fgn_notation::BoardSize { files: 8, ranks: 8 },
            };
            let (files, ranks) = (size.files, size.ranks);
            let file_past = char::from(b'a' + files.min(25));
            let off = [format!("{file_past}1"), format!("a{}", ranks + 1), "z26".to_owned()];
            let mut writers: Vec<(ViewWriter, Vec<Event>)> = SIDES
                .iter()
                .map(|&side| (ViewWriter::new(&log.header, side).expect("a view starts"), Vec::new()))
                .collect();
            for (i, event) in log.events.iter().enumerate() {
                let line = event.to_string();
                // One of the three off-board squares per square token, in
                // turn, keeps the test fast while every kind is tried.
                for (t, token) in square_tokens(&line).into_iter().enumerate() {
                    let square = &off[(i + t) % off.len()];
                    let mutated = format!("{}{}{}", &line[..token.start], square, &line[token.end..]);
                    let Ok(bad) = log.header.parse_event(&mutated) else {
                        continue;
                    };
                    let mut tried = replay.clone();
                    if tried.apply(&bad).is_ok() {
                        continue;
                    }
                    refused += 1;
                    assert_eq!(tried.state_hash(), replay.state_hash(), "{mutated}");
                    for viewer in [Viewer::White, Viewer::Black, Viewer::Everyone] {
                        assert_eq!(tried.knowledge_hash(viewer), replay.knowledge_hash(viewer), "{mutated}");
                    }
                    for (writer, out) in &mut writers {
                        let before = out.len();
                        assert!(writer.push(i, &bad, out).is_err(), "{}: {mutated}", path.display());
                        assert_eq!(out.len(), before, "a refused event adds no view line: {mutated}");
                    }
                }
                replay.apply(event).expect("a valid corpus log");
                for (writer, out) in &mut writers {
                    writer.push(i, event, out).expect("a valid corpus log");
                }
            }
            // The refused events left the views exactly as the log gives them.
            for ((_, out), side) in writers.iter().zip(SIDES) {
                assert_eq!(
                    *out,
                    view(&log, side).expect("a valid log's view").events,
                    "{}",
                    path.display()
                );
            }
        }
    }
    assert!(refused > 3000, "only {refused} off-board events were tried");
}

/// The text of a log of `game` under `tags` with `events`, parsed.
fn log(game: &str, tags: &str, events: &str) -> Game {
    let text = format!("[Game \"{game}\"]\n[Rules \"1.0\"]\n{tags}\n{events}");
    let parsed = fgn_notation::parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    parsed.document.game
}

/// Whether `side`'s knowledge at the end of `game` holds a piece or unit
/// of the opponent, and what it says is hidden.
fn knows_opponent_setup(game: &Game, side: Color) -> (bool, bool) {
    let mut replay = Replay::new(&game.header).expect("a replay");
    for e in game.events.iter() {
        replay.apply(e).unwrap_or_else(|err| panic!("{err:?}"));
    }
    let opponent = side.opponent();
    match replay.knowledge(Viewer::of(side)).position {
        KnownPosition::Survival(k) => (
            k.position.pieces.iter().any(|p| p.color == opponent),
            k.hidden_setups.contains(&opponent),
        ),
        KnownPosition::GreatWar(k) => (
            k.position.stacks.iter().any(|s| s.color == opponent),
            k.hidden_setups.contains(&opponent),
        ),
        other => panic!("not a game with a setup: {other:?}"),
    }
}

#[test]
fn an_aborted_setup_is_revealed_alike_in_views_and_knowledge() {
    // The late side is readied as it stands and cannot start: both are
    // ready, so both setups are revealed (RULES.md), in the view and in
    // the knowledge `show --as` draws, before the abort.
    let survival = log(
        "survival-chess",
        "[TimeControl \"setup=60\"]\n",
        "0 w place Pa2\n0 b place Ke8\n0 b ready\n0 @ timeout w\n0 @ result abort no-king\n",
    );
    let great_war = log(
        "great-war-chess",
        "[TimeControl \"setup=60\"]\n",
        "0 w place Ca1\n0 b place Ia8 Ib8 Ic8 Id8 Ie8 If8 Ig8 Ih8 Ca7 Cb7 Aa6 Ab6\n0 b ready\n0 @ timeout w\n0 @ result abort no-infantry\n",
    );
    for game in [&survival, &great_war] {
        for side in SIDES {
            let view = the_view(game, side);
            let revealed = view
                .events
                .iter()
                .any(|e| matches!(e.action, Action::Setup { color, .. } if color == side.opponent()));
            let (known, hidden) = knows_opponent_setup(game, side);
            assert!(
                revealed,
                "{side:?}'s view reveals the setup:\n{}",
                view.canonical_text()
            );
            assert_eq!((known, hidden), (true, false), "{side:?}'s knowledge as its view");
        }
    }
    // The late side alone readied while the other still sets up: nothing is
    // revealed to either, in the view or the knowledge.
    let early = log(
        "survival-chess",
        "[TimeControl \"setup=60\"]\n",
        "0 w place Pa2\n0 b place Ke8\n0 @ timeout w\n0 @ result abort no-king\n",
    );
    for side in SIDES {
        let view = the_view(&early, side);
        assert!(!view.events.iter().any(|e| matches!(e.action, Action::Setup { .. })));
        assert_eq!(knows_opponent_setup(&early, side), (false, true));
    }
}

#[test]
fn a_view_of_a_log_that_says_perspective_all_has_one_perspective_tag() {
    let game = log("survival-chess", "[Perspective \"all\"]\n", "0 w place Ke1\n");
    for side in SIDES {
        let view = the_view(&game, side);
        let tags: Vec<&str> = view.header.tags.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(tags, ["Game", "Rules", "Perspective"], "{side:?}");
        let text = view.canonical_text();
        let reread = fgn_notation::parse(text.as_bytes());
        assert!(reread.is_ok(), "the view reads back: {:?}", reread.diagnostics);
        assert_eq!(
            the_view(&reread.document.game, side).canonical_text(),
            text,
            "viewing again changes nothing"
        );
    }
}
