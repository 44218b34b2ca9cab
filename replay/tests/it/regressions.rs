//! One test per bug found in review, so that none comes back.

use fgn_notation::parse;
use fgn_replay::{validate, validate_with, Place, Rule, Ruleset};

fn verdict(text: &str) -> Option<fgn_replay::RuleError> {
    let parsed = parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    validate(&parsed.document.game).expect("supported").error
}

const CAPTURE: &str = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[TimeControl \"move=60\"]\n\n1 w e3-f4 {t=1}\n1 b h6-g5 {t=2}\n2 w f4:h6 {t=3}\n";

#[test]
fn a_timeout_cannot_come_between_a_capture_and_its_reveals() {
    let e = verdict(&format!("{CAPTURE}2 @ timeout b {{t=70}}\n")).expect("refused");
    assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::Event(3)), "{e}");
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
    assert_eq!(e.rule, Rule::SetupLimit, "{e}");
    assert_eq!(e.place, Place::Event(10), "the tenth pawn row holds the 256th pawn");
}

#[test]
fn a_second_seed_is_refused() {
    let game = fgn_replay::gen::generate(&fgn_replay::gen::Options::new(fgn_notation::GameKind::MagicDraughts, 3))
        .expect("generated");
    let mut text = game.canonical_text();
    let seed = text.lines().last().unwrap().to_string();
    assert!(seed.contains("@ seed"), "{seed}");
    text.push_str(&seed);
    text.push('\n');
    let e = verdict(&text).expect("refused");
    assert!(e.message.contains("revealed already"), "{e}");
}

#[test]
fn random_survival_games_work_on_every_board_size() {
    for (files, ranks) in [(6u8, 6u8), (7, 6), (8, 8), (26, 26), (26, 6), (6, 26)] {
        let size = fgn_notation::BoardSize { files, ranks };
        let rules = fgn_replay::Ruleset::Survival(fgn_replay::ruleset::SurvivalRules {
            board: fgn_replay::ruleset::Board(size),
            ..Default::default()
        });
        // Both setups: the classical army is cut to fit narrow boards.
        for setup in [fgn_replay::gen::Setup::Random, fgn_replay::gen::Setup::Classical] {
            let options = fgn_replay::gen::Options {
                setup,
                plies: 60,
                ..fgn_replay::gen::Options::under(rules.clone(), 5)
            };
            let game = fgn_replay::gen::generate(&options).expect("generated");
            let v = validate(&game).expect("supported");
            assert!(v.error.is_none(), "{size} {setup:?}: {:?}", v.error);
        }
    }
}

const OWC: &str = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[TimeControl \"move=60\"]\n\n";

#[test]
fn after_a_last_move_onto_a_merchant_the_opponent_is_on_the_clock() {
    // e3-e4 ends white's turn on the merchant e4: black is now to move, and
    // its late move is caught even though white may still buy.
    let e = verdict(&format!(
        "{OWC}1 w e2-e3 {{t=1}}\n1 w Qd1-e2 {{t=2}}\n1 w e3-e4 {{t=3}}\n1 b e7-e6 {{t=500}}\n"
    ))
    .expect("late");
    assert_eq!(e.rule, Rule::TimeLimit, "{e}");
    let log = format!("{OWC}1 w e2-e3 {{t=1}}\n1 w Qd1-e2 {{t=2}}\n1 w e3-e4 {{t=3}}\n1 @ timeout b {{t=70}}\n1 w extra no\n1 @ result 1-0 timeout\n");
    assert!(verdict(&log).is_none());
}

#[test]
fn a_world_event_without_a_clock_starts_the_next_turn_at_the_last_reading() {
    let log = format!(
        "{OWC}0 @ spawn d3 damage\n1 w e2-e3 {{t=1}}\n1 w Qd1-e2 {{t=2}}\n1 w d2-d3 {{t=3}}\n1 @ damage d3 1\n1 b e7-e6 {{t=500}}\n"
    );
    let e = verdict(&log).expect("black is late");
    assert_eq!(e.rule, Rule::TimeLimit, "{e}");
}

#[test]
fn an_open_world_promotion_is_written_out_canonically() {
    let parsed = parse(b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e3\n");
    let game = parsed.document.game;
    let replay = fgn_replay::Replay::new(&game.header).unwrap();
    // A pawn move to the far rank written without a piece becomes =Q.
    let m = parse(b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n5 w g7-g8\n")
        .document
        .game
        .events[0]
        .clone();
    let full = replay.canonical(&m).expect("a promotion is completed");
    assert_eq!(full.to_string(), "5 w g7-g8=Q");
}

#[test]
fn spawns_the_parameters_rule_out_are_refused_without_a_seed() {
    let e = verdict("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[SpawnChance \"0\"]\n\n0 @ spawn c3 coin\n")
        .expect("refused");
    assert_eq!(e.rule, Rule::WorldEvent, "{e}");
    let e = verdict("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[CoinShare \"0\"]\n\n0 @ spawn c3 coin\n")
        .expect("refused");
    assert_eq!(e.rule, Rule::WorldEvent, "{e}");
    assert!(verdict("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n0 @ spawn c3 coin\n").is_none());
}

#[test]
fn generated_games_under_any_parameters_carry_them() {
    use fgn_replay::ruleset::{BonusWeights, OpenWorldRules, PieceHp};
    let rules = OpenWorldRules {
        bonus_weights: BonusWeights {
            regen: 10,
            hp: 10,
            damage: 40,
            kinghp: 20,
            clone: 20,
        },
        hp: PieceHp {
            pawn: 2,
            ..PieceHp::default()
        },
        damage_roll: 3,
        range_steps: 3,
        spawn_chance: 40,
        ..OpenWorldRules::default()
    };
    for i in 0..6u64 {
        let options = fgn_replay::gen::Options {
            plies: 270,
            resign_at_cap: false,
            ..fgn_replay::gen::Options::under(fgn_replay::Ruleset::OpenWorld(rules.clone()), i)
        };
        let game = fgn_replay::gen::generate(&options).expect("generated");
        let v = validate(&game).expect("supported");
        assert!(v.error.is_none(), "game {i}: {:?}", v.error);
    }
}

#[test]
fn a_purchase_naming_a_square_off_the_board_is_a_rule_error() {
    let log = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[ShopPrice \"1\"]\n\n0 @ spawn c3 coin\n1 w Nb1-c3\n1 w Nc3-e4\n1 w buy hp a9\n";
    let e = verdict(log).expect("refused, not a panic");
    assert_eq!(e.rule, Rule::Square, "{e}");
}

/// White's third move ends on the merchant e4 at t=50 with a coin in hand
/// (a one-coin shop), so white may still buy after its last move.
const OWC_LATE_SHOP: &str = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[TimeControl \"move=60\"]\n[ShopPrice \"1\"]\n\n0 @ spawn c3 coin\n1 w Nb1-c3 {t=10}\n1 w e2-e3 {t=20}\n1 w Nc3-e4 {t=50}\n";

#[test]
fn a_purchase_after_the_last_move_counts_against_the_movers_time() {
    // The turn began at t=0: a purchase at t=100 is 100 s into it.
    let e = verdict(&format!("{OWC_LATE_SHOP}1 w buy curse {{t=100}}\n")).expect("late purchase");
    assert_eq!((e.rule, e.place), (Rule::TimeLimit, Place::Event(4)), "{e}");
    assert!(verdict(&format!("{OWC_LATE_SHOP}1 w buy curse {{t=55}}\n")).is_none());
}

#[test]
fn the_opponents_time_starts_at_the_last_purchase_after_the_last_move() {
    // Black moves 58 s after white's last purchase (and 63 s after its last move).
    let log = format!("{OWC_LATE_SHOP}1 w buy curse {{t=55}}\n1 b e7-e6 {{t=113}}\n");
    assert!(verdict(&log).is_none(), "{:?}", verdict(&log));
    let e = verdict(&format!("{OWC_LATE_SHOP}1 w buy curse {{t=55}}\n1 b e7-e6 {{t=116}}\n")).expect("late");
    assert_eq!((e.rule, e.place), (Rule::TimeLimit, Place::Event(5)), "{e}");
    // A timeout is early until the limit counted from the purchase has run out.
    let e = verdict(&format!(
        "{OWC_LATE_SHOP}1 w buy curse {{t=55}}\n1 @ timeout b {{t=113}}\n"
    ))
    .expect("early");
    assert_eq!(e.rule, Rule::Timeout, "{e}");
}

/// RULES.md section 2: "After the last move the turn ends at the next event
/// that is not a purchase or chat". Chat of either side keeps white's
/// purchases after its last move open; a timeout (which the session
/// handles without the engine) ends them, so a purchase after it, or
/// after the answer to it, is refused and is no legal action any more.
/// Regression: the engine never learnt of the timeout and took the
/// purchase, applying a curse to black's running turn.
#[test]
fn purchases_after_the_last_move_end_at_the_first_event_that_is_not_a_purchase_or_chat() {
    let chat = "1 b chat \"hurry\" {t=51}\n1 w chat \"no\" {t=52}\n";
    assert!(verdict(&format!("{OWC_LATE_SHOP}{chat}1 w buy curse {{t=53}}\n")).is_none());
    // The timeout ends white's turn; its answer comes before anything else.
    let after = "1 @ timeout b {t=111}\n1 w extra yes {t=112}\n";
    let log = format!("{OWC_LATE_SHOP}{chat}{after}1 w buy curse {{t=113}}\n");
    let e = verdict(&log).expect("a purchase after the turn ended");
    assert_eq!((e.rule, e.place), (Rule::Turn, Place::Event(8)), "{e}");
    let mut game = parse(log.as_bytes()).document.game;
    game.events.pop();
    let v = validate(&game).expect("supported");
    assert!(v.error.is_none(), "{:?}", v.error);
    let buys = v
        .replay
        .legal_actions()
        .into_iter()
        .filter(|e| matches!(e.action, fgn_notation::Action::Buy { .. }))
        .count();
    assert_eq!(buys, 0, "white may still buy");
}

/// NOTATION.md: "World events come right after the action that caused
/// them". A spawn on a square the last move lit is refused once a timeout
/// and its answer have come between; right after the move it is taken.
/// Regression: the session handles the timeout without the engine, whose
/// spawn window stayed open.
#[test]
fn a_spawn_comes_right_after_the_move_that_lit_its_square_not_after_a_timeout() {
    let log = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[MovesPerTurn \"1\"]\n[FogAfter \"1\"]\n\
               [TimeControl \"move=10\"]\n\n1 w a2-a3\n1 b Ng8-f6\n2 w a3-a4\n2 b Nf6-g4\n";
    assert!(verdict(&format!("{log}2 @ spawn g6 coin\n")).is_none());
    let e = verdict(&format!("{log}2 @ timeout w\n2 b extra yes\n2 @ spawn g6 coin\n")).expect("a late spawn");
    assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::Event(6)), "{e}");
}

/// An open-world-chess log under `tags` whose starting light spawns `object`
/// on every square it may, in square order, but for those in `skip`.
fn owc_start_spawns(tags: &str, object: &str, skip: &[&str]) -> String {
    let mut log = format!("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n{tags}\n");
    for rank in 3..=6 {
        for file in 'a'..='h' {
            let sq = format!("{file}{rank}");
            if !["d5", "e4"].contains(&sq.as_str()) && !skip.contains(&sq.as_str()) {
                log.push_str(&format!("0 @ spawn {sq} {object}\n"));
            }
        }
    }
    log
}

#[test]
fn with_spawn_chance_100_every_square_that_rolls_must_spawn() {
    let all = owc_start_spawns("[SpawnChance \"100\"]\n", "regen", &[]);
    assert!(verdict(&format!("{all}1 w e2-e3\n")).is_none());
    // The last square's spawn is missing when white moves.
    let log = owc_start_spawns("[SpawnChance \"100\"]\n", "regen", &["h6"]);
    let e = verdict(&format!("{log}1 w e2-e3\n")).expect("a spawn is missing");
    assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::Event(29)), "{e}");
    assert!(e.message.contains("h6"), "{e}");
    let e = verdict(&log).expect("the log ends without it");
    assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::End), "{e}");
    // A square skipped in the middle: the next spawn is refused.
    let log = owc_start_spawns("[SpawnChance \"100\"]\n", "regen", &["c3"]);
    let e = verdict(&log).expect("c3 is owed first");
    assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::Event(2)), "{e}");
}

#[test]
fn a_kind_whose_share_is_100_is_the_only_one_that_can_spawn() {
    let tags = "[SpawnChance \"100\"]\n[CoinShare \"100\"]\n";
    assert!(verdict(&owc_start_spawns(tags, "coin", &[])).is_none());
    let e = verdict(&owc_start_spawns(tags, "regen", &[])).expect("only coins");
    assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::Event(0)), "{e}");
    let tags = "[BonusWeights \"regen=0 hp=100 damage=0 kinghp=0 clone=0\"]\n[CoinShare \"0\"]\n";
    assert!(verdict(&owc_start_spawns(tags, "hp", &["a3"])).is_none());
    for object in ["regen", "damage", "coin", "kinghp", "clone"] {
        let e = verdict(&owc_start_spawns(tags, object, &[])).expect("only hp");
        assert_eq!((e.rule, e.place), (Rule::WorldEvent, Place::Event(0)), "{object}: {e}");
    }
}

#[test]
fn a_shop_price_of_0_is_allowed() {
    // Nothing in RULES.md asks for a price of at least 1: free items need no coins.
    let log = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[ShopPrice \"0\"]\n\n1 w e2-e3\n1 w e3-e4\n1 w buy hp e4\n1 w buy curse\n1 w end\n";
    assert!(verdict(log).is_none(), "{:?}", verdict(log));
}

#[test]
fn a_parameter_problem_names_the_tag_at_fault() {
    for (tag, value) in [
        ("FogAfter", "0"),
        ("MovesPerTurn", "0"),
        ("SpawnChance", "101"),
        ("CoinShare", "101"),
        ("DamageMax", "101"),
        ("DamageRoll", "0"),
        ("RangeSteps", "0"),
        ("BonusWeights", "regen=0 hp=0 damage=20 kinghp=0 clone=0"),
        ("PieceHp", "pawn=0 knight=5 bishop=5 rook=7 queen=9 king=10"),
        ("Merchants", "d5 i4"),
    ] {
        let text = format!("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[{tag} \"{value}\"]\n\n");
        let parsed = parse(text.as_bytes());
        assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
        match fgn_replay::Replay::new(&parsed.document.game.header) {
            Err(fgn_replay::StartError::Header { tag: at, error }) => {
                assert_eq!(at.as_deref(), Some(tag), "{error}");
                assert_eq!(error.rule, Rule::Parameter, "{error}");
                assert!(error.message.contains(tag), "{error}");
            }
            Ok(_) => panic!("{tag} \"{value}\" is accepted"),
        }
    }
}

#[test]
fn chat_may_stand_between_an_action_and_the_world_events_it_owes() {
    // docs/rules.md says what the session does: chat may come at any time.
    assert!(verdict(&format!("{CAPTURE}2 b chat \"ouch\"\n2 @ reveal g5 0\n")).is_none());
    let log = format!("{OWC}0 @ spawn d3 damage\n1 w d2-d3 {{t=1}}\n1 b chat \"careful\"\n1 @ damage d3 1\n");
    assert!(verdict(&log).is_none(), "{:?}", verdict(&log));
    // Anything else of a player is refused there.
    let e = verdict(&format!("{CAPTURE}2 b e7-e6\n")).expect("refused");
    assert_eq!(e.rule, Rule::WorldEvent, "{e}");
}
