//! magic-draughts's number distribution and Koschei's ranks are ruleset
//! parameters (RULES.md: every default is a parameter), set by header tags.

use fgn_notation::parse;
use fgn_replay::referee::shuffle_order;
use fgn_replay::{validate, Place, Rule, Ruleset};

const GAME: &str = include_str!("../../../corpus/magic-draughts/valid/05-charm-then-no-moves.fgn");

/// The corpus game with `tag` added after the `Rules` tag.
fn with_tag(tag: &str) -> fgn_replay::Verdict {
    let text = GAME.replacen("[Rules \"1.0\"]\n", &format!("[Rules \"1.0\"]\n{tag}\n"), 1);
    let parsed = parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    validate(&parsed.document.game).expect("supported")
}

fn event_line(verdict: &fgn_replay::Verdict) -> String {
    let parsed = parse(GAME.as_bytes());
    match verdict.error.as_ref().map(|e| e.place) {
        Some(Place::Event(i)) => parsed.document.game.events[i].to_string(),
        other => format!("{other:?}"),
    }
}

#[test]
fn the_default_counts_give_the_documented_shuffle_order() {
    let counts = fgn_replay::ruleset::DraughtsRules::default().numbers;
    assert_eq!(shuffle_order(&counts), [1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 0, 0]);
    assert_eq!(shuffle_order(&[2, 2, 2, 2, 2, 2]), [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 0]);
}

#[test]
fn the_default_tags_change_nothing() {
    let v = with_tag("[Numbers \"0=3 1=1 2=2 3=2 4=2 5=2\"]\n[RevengeRanks \"4\"]");
    assert!(v.error.is_none(), "{:?}", v.error);
}

#[test]
fn with_only_plain_checkers_a_magic_reveal_is_refused() {
    let v = with_tag("[Numbers \"0=12 1=0 2=0 3=0 4=0 5=0\"]");
    let e = v.error.clone().expect("refused");
    assert_eq!(e.rule, Rule::Reveal, "{e}");
    assert_eq!(event_line(&v), "2 @ reveal e5 4");
}

#[test]
fn koschei_returns_checkers_only_to_the_parameters_ranks() {
    let v = with_tag("[RevengeRanks \"3\"]");
    let e = v.error.clone().expect("refused");
    assert_eq!(e.rule, Rule::Spell, "{e}");
    assert_eq!(event_line(&v), "7 w spell 5 f4");
    assert!(e.message.contains("first 3 ranks"), "{e}");
}

#[test]
fn malformed_or_impossible_values_are_refused_with_the_tag() {
    for tag in [
        "[Numbers \"0=3 1=1 2=2 3=2 4=2\"]",
        "[Numbers \"0=3 1=1 2=2 3=2 4=2 5=3\"]",
        "[Numbers \"0=3 0=1 2=2 3=2 4=2 5=2\"]",
        "[RevengeRanks \"0\"]",
        "[RevengeRanks \"8\"]",
    ] {
        let text = GAME.replacen("[Rules \"1.0\"]\n", &format!("[Rules \"1.0\"]\n{tag}\n"), 1);
        let game = parse(text.as_bytes()).document.game;
        match validate(&game) {
            Err(fgn_replay::StartError::Header { tag: Some(t), error }) => {
                assert!(tag.contains(&t), "{tag}: {t}");
                assert_eq!(error.rule, Rule::Parameter);
            }
            other => panic!("{tag}: {:?}", other.map(|v| v.error)),
        }
    }
    let json = r#"{"numbers": [3, 1, 2, 2, 2, 1]}"#;
    let e = Ruleset::from_json(fgn_notation::GameKind::MagicDraughts, json).unwrap_err();
    assert!(e.contains("add up to 11"), "{e}");
}
