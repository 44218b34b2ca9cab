//! Generated open-world-chess games validate with their revealed seed, and
//! changing any one recorded outcome fails validation at that event.

use fgn_notation::Game;
use fgn_notation::{Action, ObjectKind};
use fgn_replay::gen::{generate, Options};
use fgn_replay::ruleset::OpenWorldRules;
use fgn_replay::{validate, Phase, Place, Ruleset};

/// The generated game of seed `i` under `rules`, left open if 500
/// decisions do not decide it.
fn random_game(rules: OpenWorldRules, i: u64) -> Game {
    let options = Options {
        plies: 500,
        resign_at_cap: false,
        ..Options::under(Ruleset::OpenWorld(rules), i)
    };
    generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn generated_games_validate_with_their_seed() {
    let mut ended = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for i in 0..24u64 {
        let game = random_game(OpenWorldRules::default(), i);
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "game {i}: {:?}\n{}", v.error, game.canonical_text());
        if matches!(v.replay.phase(), Phase::Over(_)) {
            ended += 1;
        }
        for e in &game.events {
            kinds.insert(fgn_notation::forms::keyword(&e.action));
        }
    }
    assert!(ended >= 12, "only {ended} of 24 games ended");
    for k in ["spawn", "damage", "chess move", "end", "result", "seed"] {
        assert!(kinds.contains(k), "no `{k}` in any generated game: {kinds:?}");
    }
}

#[test]
fn changing_any_recorded_outcome_fails_at_that_event() {
    let mut checked = 0;
    for i in 0..20u64 {
        let game = random_game(OpenWorldRules::default(), i);
        if !game.events.iter().any(|e| matches!(e.action, Action::Seed { .. })) {
            continue;
        }
        for (index, e) in game.events.iter().enumerate() {
            let changed_action = match e.action {
                Action::Damage { square, amount } => Action::Damage {
                    square,
                    amount: if amount == 1 { 2 } else { amount - 1 },
                },
                Action::Spawn { square, object } => Action::Spawn {
                    square,
                    object: if object == ObjectKind::Coin {
                        ObjectKind::Regen
                    } else {
                        ObjectKind::Coin
                    },
                },
                _ => continue,
            };
            let mut changed = game.clone();
            changed.events[index].action = changed_action;
            let v = validate(&changed).expect("supported");
            let error = v
                .error
                .unwrap_or_else(|| panic!("game {i}: changing event {index} went unnoticed"));
            // A changed outcome can change the game after it (a piece that
            // no longer dies); the error is never later than the change's
            // own event when only the seed can tell.
            if error.rule == fgn_replay::Rule::Seed {
                assert_eq!(error.place, Place::Event(index), "game {i}: {error}");
            } else {
                assert!(
                    matches!(error.place, Place::Event(p) if p >= index) || error.place == Place::End,
                    "game {i}: {error}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} outcomes changed");
}

#[test]
fn games_under_changed_parameters_carry_them_in_the_header() {
    let rules = OpenWorldRules {
        shop_price: 1,
        spawn_chance: 60,
        coin_share: 40,
        damage_ramp_start: 3,
        ..OpenWorldRules::default()
    };
    let mut bought = false;
    for i in 0..12u64 {
        let game = random_game(rules.clone(), i);
        assert_eq!(game.header.get("ShopPrice"), Some("1"));
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "game {i}: {:?}", v.error);
        bought |= game.events.iter().any(|e| matches!(e.action, Action::Buy { .. }));
    }
    assert!(bought, "no purchase in twelve games with cheap shops");
}

/// The open-world-chess test vectors of docs/notation.md, computed by an
/// independent Python implementation (the `blake3` package).
#[test]
fn the_documented_open_world_test_vectors_hold() {
    use fgn_replay::owc::{derive_clone, derive_damage, derive_spawn};
    use fgn_replay::seed::Draws;
    let sq = |s: &str| s.parse::<fgn_notation::Square>().unwrap();
    let rules = OpenWorldRules::default();
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    for (seed, starts, ramp, dmg, cln) in [
        (
            [0u8; 32],
            vec![
                ("f3", ObjectKind::Regen),
                ("a6", ObjectKind::Regen),
                ("d6", ObjectKind::Damage),
            ],
            [
                "damage", "damage", "hp", "damage", "damage", "damage", "damage", "damage",
            ],
            1,
            "f4",
        ),
        (
            std::array::from_fn(|i| i as u8),
            vec![
                ("a3", ObjectKind::Hp),
                ("d3", ObjectKind::Regen),
                ("h5", ObjectKind::Regen),
                ("b6", ObjectKind::Regen),
                ("f6", ObjectKind::Clone),
            ],
            ["kinghp", "damage", "coin", "damage", "hp", "regen", "damage", "regen"],
            2,
            "e4",
        ),
    ] {
        let draws = Draws::new(&seed);
        let got: Vec<(String, ObjectKind)> = (3..=6)
            .flat_map(|r| files.iter().map(move |f| format!("{f}{r}")))
            .filter_map(|s| derive_spawn(&rules, &draws, 0, None, sq(&s)).map(|o| (s, o)))
            .collect();
        let want: Vec<(String, ObjectKind)> = starts.iter().map(|(s, o)| (s.to_string(), *o)).collect();
        assert_eq!(got, want);
        let always = OpenWorldRules {
            spawn_chance: 100,
            ..OpenWorldRules::default()
        };
        let got: Vec<&str> = files
            .iter()
            .map(|f| {
                derive_spawn(&always, &draws, 150, Some(9), sq(&format!("{f}1")))
                    .unwrap()
                    .name()
            })
            .collect();
        assert_eq!(got, ramp);
        assert_eq!(derive_damage(&rules, &draws, 7, 42, sq("d4")), dmg);
        assert_eq!(
            derive_clone(&draws, 7, 42, sq("e5"), &[sq("d4"), sq("e4"), sq("f4")]),
            sq(cln)
        );
    }
}
