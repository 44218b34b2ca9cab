//! One test per bug found in review, so that none comes back.

use fgn_notation::parse;
use fgn_replay::{validate, validate_with, Place, Ruleset};

fn verdict(text: &str) -> Option<fgn_replay::RuleError> {
    let parsed = parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    validate(&parsed.document.game).expect("supported").error
}

const CAPTURE: &str = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[TimeControl \"move=60\"]\n\n1 w e3-f4 {t=1}\n1 b h6-g5 {t=2}\n2 w f4:h6 {t=3}\n";

#[test]
fn a_timeout_cannot_come_between_a_capture_and_its_reveals() {
    let e = verdict(&format!("{CAPTURE}2 @ timeout b {{t=70}}\n")).expect("refused");
    assert_eq!((e.rule, e.place), ("world-event", Place::Event(3)), "{e}");
}

#[test]
fn a_resignation_while_reveals_are_owed_asks_for_the_reveals_first() {
    let e = verdict(&format!("{CAPTURE}2 b resign\n2 @ result 1-0 resign\n")).expect("refused");
    assert!(e.message.contains("reveal g5"), "{e}");
    let e = verdict(&format!("{CAPTURE}2 b resign\n")).expect("incomplete");
    assert!(e.message.contains("reveal g5"), "{e}");
    assert!(verdict(&format!(
        "{CAPTURE}2 b resign\n2 @ reveal g5 0\n2 @ result 1-0 resign\n"
    ))
    .is_none());
}

#[test]
fn a_rules_file_cannot_set_a_board_the_rules_forbid() {
    for json in [r#"{"board":"8x7"}"#, r#"{"board":"1x1"}"#, r#"{"limits":{"king":0}}"#] {
        assert!(
            Ruleset::from_json(fgn_notation::GameKind::SurvivalChess, json).is_err(),
            "{json}"
        );
    }
}

#[test]
fn setup_counts_cannot_overflow_under_high_limits() {
    let rules = Ruleset::from_json(
        fgn_notation::GameKind::SurvivalChess,
        r#"{"board":"26x26","limits":{"pawn":255,"total":255}}"#,
    )
    .unwrap();
    let mut log = String::from("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"26x26\"]\n\n0 w place Ka1\n");
    for r in 1..=10u8 {
        log.push_str("0 w place");
        for f in 0..26u8 {
            log.push_str(&format!(" P{}{}", (b'a' + f) as char, r + 1));
        }
        log.push('\n');
    }
    let parsed = parse(log.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    let v = validate_with(&parsed.document.game, rules).expect("supported");
    let e = v.error.expect("the 256th pawn is refused");
    assert_eq!(e.rule, "setup-limit", "{e}");
    assert_eq!(e.place, Place::Event(10), "the tenth pawn row holds the 256th pawn");
}

#[test]
fn a_second_seed_is_refused() {
    let game = fgn_replay::magic::random::random_game([5; 32], true, 3, 400);
    let mut text = game.canonical_text();
    let seed = text.lines().last().unwrap().to_string();
    assert!(seed.contains("@ seed"), "{seed}");
    text.push_str(&seed);
    text.push('\n');
    let e = verdict(&text).expect("refused");
    assert!(e.message.contains("revealed already"), "{e}");
}

#[test]
fn the_last_move_number_ends_the_game_without_overflow() {
    use fgn_notation::{Color, MoveNumber};
    use fgn_replay::session::{next_turn, Turn};
    let max = MoveNumber(u32::MAX);
    assert_eq!(
        next_turn(Color::White, max).unwrap(),
        Turn::Move {
            side: Color::Black,
            number: max
        }
    );
    let e = next_turn(Color::Black, max).expect_err("no number after the last");
    assert_eq!(e.rule, "move-number");
    assert_eq!(
        next_turn(Color::Black, MoveNumber(7)).unwrap(),
        Turn::Move {
            side: Color::White,
            number: MoveNumber(8)
        }
    );
}

#[test]
fn random_survival_games_work_on_every_board_size() {
    for (files, ranks) in [(6u8, 6u8), (7, 6), (8, 8), (26, 26), (26, 6), (6, 26)] {
        let size = fgn_notation::BoardSize { files, ranks };
        let game = fgn_replay::survival::random::random_game(size, 5, 60);
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "{size}: {:?}", v.error);
    }
}
