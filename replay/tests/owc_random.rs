//! Generated open-world-chess games validate with their revealed seed, and
//! changing any one recorded outcome fails validation at that event.

use fgn_notation::{Action, ObjectKind};
use fgn_replay::owc::random::random_game;
use fgn_replay::ruleset::OpenWorldRules;
use fgn_replay::{validate, Phase, Place};

fn world(i: u64) -> [u8; 32] {
    std::array::from_fn(|b| (b as u64 * 17 + i * 3) as u8)
}

#[test]
fn generated_games_validate_with_their_seed() {
    let mut ended = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for i in 0..24u64 {
        let game = random_game(OpenWorldRules::default(), world(i), i, 1500);
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
        let game = random_game(OpenWorldRules::default(), world(i), i, 1500);
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
            if error.rule == "seed" {
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
        let game = random_game(rules.clone(), world(i), i, 1500);
        assert_eq!(game.header.get("ShopPrice"), Some("1"));
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "game {i}: {:?}", v.error);
        bought |= game.events.iter().any(|e| matches!(e.action, Action::Buy { .. }));
    }
    assert!(bought, "no purchase in twelve games with cheap shops");
}
