//! `fgn_replay::gen`: generated games of every game validate, with and
//! without clocks, time limits, chat and salts; most reach a result under
//! the finishing bias; the same options give the same game; chat and
//! clock readings do not change the moves; and the options that cannot
//! make a game are refused with their reason.

use fgn_notation::{Action, Actor, Game, GameKind, Header, Tag};
use fgn_replay::gen::{generate, GenError, Options, Rate, Setup};
use fgn_replay::{validate, validate_with_params, Phase, RulesFile, Ruleset};

fn rate(text: &str) -> Rate {
    text.parse().expect("a rate")
}

/// `rules` with the time limits of a `TimeControl` tag `spec`, set as the
/// header would set them.
fn timed(mut rules: Ruleset, spec: &str) -> Ruleset {
    let header = Header {
        tags: vec![Tag {
            name: "TimeControl".into(),
            value: spec.into(),
        }],
    };
    rules
        .apply_header(&header, None)
        .expect("a time control the game takes");
    rules
}

fn made(options: &Options) -> Game {
    generate(options).unwrap_or_else(|e| panic!("{} seed {}: {e}", options.game(), options.seed))
}

/// Validates `game` and says whether it reached its result.
fn valid_and_over(game: &Game, what: &str) -> bool {
    let v = validate(game).expect("supported");
    assert!(
        v.error.is_none(),
        "{what}: {}\n{}",
        v.error.map(|e| e.to_string()).unwrap_or_default(),
        game.canonical_text()
    );
    matches!(v.replay.phase(), Phase::Over(_))
}

fn count(game: &Game, keyword: &str) -> usize {
    game.events
        .iter()
        .filter(|e| fgn_notation::forms::keyword(&e.action) == keyword)
        .count()
}

/// The finishing bias alone (no resignation at the cap) decides most games
/// of every game, and every game validates.
#[test]
fn most_generated_games_reach_a_result_and_all_validate() {
    for game in GameKind::ALL {
        let mut over = 0;
        for seed in 0..12 {
            let options = Options {
                resign_at_cap: false,
                ..Options::new(game, seed)
            };
            over += usize::from(valid_and_over(&made(&options), &format!("{game} seed {seed}")));
        }
        assert!(over >= 7, "{game}: only {over} of 12 games reached a result");
    }
}

/// With a resignation at the cap every game has a result, however short.
#[test]
fn a_resignation_at_the_cap_finishes_every_game() {
    for game in GameKind::ALL {
        for seed in 0..4 {
            let options = Options {
                plies: 6,
                ..Options::new(game, seed)
            };
            let g = made(&options);
            assert!(valid_and_over(&g, &format!("{game} seed {seed}")), "{game} seed {seed}");
            assert!(g.events.iter().any(|e| matches!(e.action, Action::Result { .. })));
        }
    }
}

/// Clocks under time limits, timeouts with both answers, chat,
/// resignations and salts: every game validates, and each of them occurs.
#[test]
fn games_with_clocks_timeouts_chat_and_salts_validate() {
    for game in GameKind::ALL {
        let spec = if game.has_setup() {
            "setup=60 move=20"
        } else {
            "move=20"
        };
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        for seed in 0..10 {
            let mut options = Options::new(game, seed);
            options.rules = timed(options.rules, spec);
            options.clocks = true;
            options.plies = 80;
            options.rates.chat = rate("0.05");
            options.rates.timeout = rate("0.05");
            options.rates.resign = rate("0.002");
            if game.has_seed() {
                options.salts = Some(options.player_salts());
            }
            let g = made(&options);
            valid_and_over(&g, &format!("{game} seed {seed}"));
            for keyword in ["chat", "timeout", "extra", "salt", "result"] {
                *seen.entry(keyword).or_default() += count(&g, keyword);
            }
            // Every player event of the game itself carries a clock reading.
            for e in &g.events {
                let timed = !matches!(e.action, Action::Chat { .. } | Action::Salt { .. });
                if matches!(e.actor, Actor::Player(_)) && timed {
                    assert!(e.clock_ms.is_some(), "{game} seed {seed}: `{e}` has no clock reading");
                }
            }
        }
        for keyword in ["chat", "timeout", "extra", "result"] {
            assert!(seen[keyword] > 0, "{game}: no `{keyword}` in ten games: {seen:?}");
        }
        assert_eq!(seen["salt"] > 0, game.has_seed(), "{game}: {seen:?}");
    }
}

/// A setup limit with timeouts: the world auto-readies late sides (and
/// aborts the game when one has no king), and the logs validate.
#[test]
fn setup_timeouts_are_written_and_validate() {
    let mut setup_timeouts = 0;
    for game in [GameKind::SurvivalChess, GameKind::GreatWarChess] {
        for seed in 0..10 {
            let mut options = Options::new(game, seed);
            options.rules = timed(options.rules, "setup=30");
            options.clocks = true;
            options.plies = 20;
            options.rates.timeout = rate("0.5");
            let g = made(&options);
            valid_and_over(&g, &format!("{game} seed {seed}"));
            setup_timeouts += g
                .events
                .iter()
                .filter(|e| e.n.0 == 0 && matches!(e.action, Action::Timeout { .. }))
                .count();
        }
    }
    assert!(setup_timeouts >= 5, "only {setup_timeouts} setup timeouts");
}

/// The same options give the same game; another seed or index another one.
#[test]
fn the_same_options_give_the_same_game() {
    for game in GameKind::ALL {
        let options = Options {
            plies: 40,
            clocks: true,
            ..Options::new(game, 11)
        };
        let text = made(&options).canonical_text();
        assert_eq!(made(&options).canonical_text(), text, "{game}");
        let other = Options {
            index: 2,
            ..options.clone()
        };
        assert_ne!(made(&other).canonical_text(), text, "{game}");
        let other = Options { seed: 12, ..options };
        assert_ne!(made(&other).canonical_text(), text, "{game}");
    }
}

/// Chat and clock readings come from streams of their own: switching them
/// on adds messages and readings to the same game (without time limits,
/// where nobody runs out of time). Open-world-chess is the exception for
/// chat: its outcomes are drawn under labels holding the index of the
/// event that caused them, which a chat message before it moves.
#[test]
fn chat_and_clocks_leave_the_moves_alone() {
    for game in GameKind::ALL {
        let chat = if game == GameKind::OpenWorldChess {
            Rate::NEVER
        } else {
            rate("0.2")
        };
        for seed in 0..3 {
            let plain = Options {
                plies: 60,
                ..Options::new(game, seed)
            };
            let busy = Options {
                clocks: true,
                rates: fgn_replay::gen::Rates { chat, ..plain.rates },
                ..plain.clone()
            };
            let mut stripped = made(&busy);
            assert_eq!(count(&stripped, "chat") > 0, chat > Rate::NEVER, "{game} seed {seed}");
            stripped.events.retain(|e| !matches!(e.action, Action::Chat { .. }));
            for e in &mut stripped.events {
                e.clock_ms = None;
            }
            assert_eq!(
                stripped.canonical_text(),
                made(&plain).canonical_text(),
                "{game} seed {seed}"
            );
        }
    }
}

/// The world seed is committed in the header and revealed after the
/// result, in the games that have one, and only there.
#[test]
fn the_world_seed_is_committed_and_revealed() {
    for game in GameKind::ALL {
        let options = Options::new(game, 5);
        let g = made(&options);
        let seed = g.events.iter().find_map(|e| match e.action {
            Action::Seed { seed } => Some(seed.0),
            _ => None,
        });
        if game.has_seed() {
            assert_eq!(seed, Some(options.world_seed()), "{game}");
            let hex: String = fgn_replay::seed::commitment(&options.world_seed())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(g.header.get("SeedCommit"), Some(format!("blake3:{hex}").as_str()));
        } else {
            assert_eq!(seed, None, "{game}");
            assert_eq!(g.header.get("SeedCommit"), None, "{game}");
        }
    }
    // Plain draughts has no world seed either.
    let plain = Ruleset::from_json(GameKind::MagicDraughts, r#"{"magic": false}"#).unwrap();
    let g = made(&Options::under(plain, 5));
    assert_eq!(g.header.get("SeedCommit"), None);
    assert_eq!(g.header.get("Magic"), Some("off"));
    valid_and_over(&g, "plain draughts");
}

/// The classical setup on 8x8: one `place` per side, then both ready, and
/// chess from the start position.
#[test]
fn the_classical_setup_places_each_army_at_once() {
    let rules = Ruleset::from_json(GameKind::SurvivalChess, r#"{"board": "8x8"}"#).unwrap();
    let options = Options {
        setup: Setup::Classical,
        ..Options::under(rules, 3)
    };
    let g = made(&options);
    let lines: Vec<String> = g.events.iter().take(4).map(ToString::to_string).collect();
    assert_eq!(
        lines[0],
        "0 w place Ra1 Pa2 Nb1 Pb2 Bc1 Pc2 Qd1 Pd2 Ke1 Pe2 Bf1 Pf2 Ng1 Pg2 Rh1 Ph2"
    );
    assert!(lines[1].starts_with("0 b place Ra8 Pa7"), "{}", lines[1]);
    assert_eq!(lines[2..], ["0 w ready", "0 b ready"]);
    assert_eq!(g.header.get("Board"), Some("8x8"));
    valid_and_over(&g, "classical");
}

/// A parameter no header tag carries (setup limits) is kept by the rules
/// the game was made under: the game validates under the same rules file.
#[test]
fn games_under_a_rules_file_validate_under_it() {
    let file = RulesFile::parse(r#"{"survival-chess": {"board": "8x8", "limits": {"pawn": 2, "total": 6}}}"#).unwrap();
    let params = file.params(GameKind::SurvivalChess).unwrap();
    let mut rules = Ruleset::defaults(GameKind::SurvivalChess);
    rules.apply_header(&Header::default(), params).unwrap();
    for seed in 0..6 {
        let g = made(&Options::under(rules.clone(), seed));
        assert_eq!(g.header.get("Board"), Some("8x8"));
        let v = validate_with_params(&g, params).expect("supported");
        assert!(v.error.is_none(), "seed {seed}: {:?}", v.error);
        // No side sets up more than the file's six pieces.
        for side in [fgn_notation::Color::White, fgn_notation::Color::Black] {
            let placed = g
                .events
                .iter()
                .filter(|e| e.actor == Actor::Player(side) && matches!(e.action, Action::Place { .. }))
                .count();
            let removed = g
                .events
                .iter()
                .filter(|e| e.actor == Actor::Player(side) && matches!(e.action, Action::Remove { .. }))
                .count();
            assert!(placed - removed <= 6, "seed {seed}: {placed} placed, {removed} removed");
        }
    }
}

#[test]
fn options_that_cannot_make_a_game_are_refused() {
    let classical = Options {
        setup: Setup::Classical,
        ..Options::new(GameKind::GreatWarChess, 1)
    };
    assert_eq!(
        generate(&classical),
        Err(GenError::ClassicalSetup(GameKind::GreatWarChess))
    );
    let salted = Options::new(GameKind::SurvivalChess, 1);
    let salted = Options {
        salts: Some(salted.player_salts()),
        ..salted
    };
    let e = generate(&salted).unwrap_err();
    assert_eq!(e, GenError::NoWorldSeed(GameKind::SurvivalChess));
    assert!(e.to_string().contains("no world seed"), "{e}");
}
