//! Generated magic-draughts games validate, including their seeds, and a
//! changed reveal is caught at that reveal.

use fgn_notation::{Action, Game, MagicNumber, Spell, SpellNumber};
use fgn_replay::gen::{generate, Options};
use fgn_replay::ruleset::DraughtsRules;
use fgn_replay::{validate, Phase, Place, Ruleset};

/// The generated game of seed `i`, with magic or plain, left open if 400
/// decisions do not decide it.
fn random_game(magic: bool, i: u64) -> Game {
    let rules = Ruleset::Draughts(DraughtsRules {
        magic,
        ..DraughtsRules::default()
    });
    let options = Options {
        plies: 400,
        resign_at_cap: false,
        ..Options::under(rules, i)
    };
    generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn generated_games_validate_with_their_seed() {
    let mut decided = 0;
    let mut spells = 0;
    for i in 0..60u64 {
        let game = random_game(true, i);
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "game {i}: {:?}\n{}", v.error, game.canonical_text());
        if matches!(v.replay.phase(), Phase::Over(_)) {
            decided += 1;
        }
        spells += game
            .events
            .iter()
            .filter(|e| matches!(e.action, Action::Spell(_)))
            .count();
    }
    assert!(decided > 30, "only {decided} of 60 games ended");
    assert!(spells > 100, "only {spells} spells cast");
}

#[test]
fn plain_games_validate() {
    for i in 0..30u64 {
        let game = random_game(false, i);
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "game {i}: {:?}", v.error);
    }
}

/// Changes a reveal of a magic checker whose spell was skipped to another
/// magic number, with the skip changed to match, so that the log stays
/// consistent and only the seed can refute it.
fn tamper(game: &Game) -> Option<(Game, usize)> {
    for (i, e) in game.events.iter().enumerate() {
        let Action::Reveal { number, .. } = e.action else {
            continue;
        };
        let n = number.get();
        if n == 0 {
            continue;
        }
        let skip = game.events[i..].iter().position(|e| {
            e.action
                == Action::Spell(Spell::Skip {
                    number: SpellNumber::new(n).unwrap(),
                })
        })?;
        // Only the first pending spell of that number is this checker's if no
        // other reveal of n stands between.
        let between = game.events[i + 1..i + skip].iter().any(|e| {
            matches!(e.action, Action::Reveal { number, .. } if number.get() == n)
                || matches!(&e.action, Action::Spell(sp) if sp.number().get() == n)
        });
        if between {
            continue;
        }
        let other = if n == 5 { 4 } else { n + 1 };
        let mut changed = game.clone();
        if let Action::Reveal { square, .. } = game.events[i].action {
            changed.events[i].action = Action::Reveal {
                square,
                number: MagicNumber::new(other).unwrap(),
            };
        }
        changed.events[i + skip].action = Action::Spell(Spell::Skip {
            number: SpellNumber::new(other).unwrap(),
        });
        return Some((changed, i));
    }
    None
}

#[test]
fn a_changed_reveal_is_refuted_by_the_seed_at_that_reveal() {
    let mut refuted = 0;
    for i in 0..40u64 {
        let game = random_game(true, i + 100);
        if !game.events.iter().any(|e| matches!(e.action, Action::Seed { .. })) {
            continue;
        }
        let Some((changed, index)) = tamper(&game) else {
            continue;
        };
        let v = validate(&changed).expect("supported");
        let Some(error) = v.error else {
            panic!("game {i}: the changed reveal at event {index} went unnoticed")
        };
        // Counts may already rule the changed number out; otherwise only the
        // seed can, and it names the reveal itself.
        if error.rule == fgn_replay::Rule::Seed {
            assert_eq!(error.place, Place::Event(index), "game {i}: {error}");
            refuted += 1;
        } else {
            assert_eq!(error.rule, fgn_replay::Rule::Reveal, "game {i}: {error}");
        }
    }
    assert!(refuted >= 5, "only {refuted} games were refuted by their seed");
}
