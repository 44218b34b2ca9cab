//! Rule details that no corpus log can show, each pinned by a test that a
//! deliberate bug in the rules code makes fail (issue 12's mutants; see
//! docs/testing.md, "Mutation testing"). What a log can show is in the
//! corpus instead: corpus/survival-chess/valid/30-default-queen-moves-diagonally-8x8.fgn,
//! 31-acting-exactly-at-the-time-limits-8x8.fgn, and open-world-chess's
//! owc-21-curses-leave-one-move.fgn, owc-19-kinghp-at-full-hp-saves-the-king.fgn
//! and owc-20-bare-promotion-makes-a-queen.fgn.

use fgn_notation::{parse, Action, Actor, Color, Figure, Game, PieceKind};
use fgn_replay::{complete_markers, validate_with, Place, Rule, Ruleset};

/// What a rules file's parameters for `game` (a JSON object) come to: the
/// ruleset's own check, or the error that stopped reading it.
fn rules_file_check(game: fgn_notation::GameKind, json: &str) -> Result<(), String> {
    Ruleset::from_json(game, json).and_then(|rules| rules.check())
}

fn game(text: &str) -> Game {
    let parsed = parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    parsed.document.game
}

/// Survival-chess rules whose per-kind limits allow ten pawns, so that the
/// 16-piece total is the limit a full army reaches first. Under the
/// default limits (1 + 1 + 2 + 2 + 2 + 8 = 16) every 17th piece is also one
/// too many of its kind, so only changed limits can show the total.
fn ten_pawn_rules() -> Ruleset {
    Ruleset::from_json(
        fgn_notation::GameKind::SurvivalChess,
        r#"{"board":"8x8","limits":{"pawn":10}}"#,
    )
    .expect("valid parameters")
}

const FULL_WHITE_ARMY: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
    0 w place Ke1 Qd1 Ra1 Rh1 Bc1 Bf1 Nb1 Ng1\n\
    0 w place Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2\n";

/// RULES.md section 1: "at most 16 pieces". Guards the total check of
/// `place`: with it ignored, a 17th piece (a 9th pawn, which the changed
/// limits allow) would be set up.
#[test]
fn a_seventeenth_piece_is_refused_by_the_total_when_the_kinds_allow_it() {
    let log = game(&format!("{FULL_WHITE_ARMY}0 w place Pa3\n"));
    let verdict = validate_with(&log, ten_pawn_rules()).expect("supported");
    let error = verdict.error.expect("the 17th piece is refused");
    assert_eq!(error.rule, Rule::SetupLimit, "{error}");
    assert_eq!(error.place, Place::Event(2), "{error}");
    assert!(error.message.contains("at most 16 pieces"), "{error}");

    // The same pawn is fine while the total has room: the limit is the
    // total, not the pawns.
    let log = game(&format!("{FULL_WHITE_ARMY}0 w remove g1\n0 w place Pa3\n"));
    let verdict = validate_with(&log, ten_pawn_rules()).expect("supported");
    assert!(verdict.error.is_none(), "{:?}", verdict.error);
}

/// The game API's side of the same rule: guards the total check of the
/// legal setup actions, which must not offer a 17th piece either.
#[test]
fn no_legal_placement_is_offered_beyond_sixteen_pieces() {
    let log = game(FULL_WHITE_ARMY);
    let verdict = validate_with(&log, ten_pawn_rules()).expect("supported");
    assert!(verdict.error.is_none(), "{:?}", verdict.error);
    let legal = verdict.replay.legal_actions();
    let white_places = legal
        .iter()
        .filter(|e| e.actor == Actor::Player(Color::White) && matches!(e.action, Action::Place { .. }))
        .count();
    assert_eq!(white_places, 0, "white has 16 pieces but may place more");
    // White may still remove and get ready; black, with no pieces, may
    // place, a pawn included, so the list is not simply empty.
    assert!(legal
        .iter()
        .any(|e| e.actor == Actor::Player(Color::White) && e.action == Action::Ready));
    assert!(legal.iter().any(|e| {
        e.actor == Actor::Player(Color::Black)
            && matches!(&e.action, Action::Place { placements }
                if placements[0].figure == Figure::Piece(PieceKind::Pawn))
    }));

    // One piece fewer, and white may place again: a pawn (a 9th, allowed by
    // the changed limits) among them.
    let log = game(&format!("{FULL_WHITE_ARMY}0 w remove g1\n"));
    let verdict = validate_with(&log, ten_pawn_rules()).expect("supported");
    assert!(verdict.replay.legal_actions().iter().any(|e| {
        e.actor == Actor::Player(Color::White)
            && matches!(&e.action, Action::Place { placements }
                if placements[0].figure == Figure::Piece(PieceKind::Pawn))
    }));
}

/// RULES.md section 1: promotion "to Q, R, B or N (default Q)", and
/// section 2: open-world-chess promotes "as in Survival Chess". Guards the
/// canonical spelling `fgn fmt` writes for a promotion that names no
/// piece: it must be `=Q`, in both games.
#[test]
fn a_promotion_without_a_piece_is_written_as_a_queen() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    for (file, bare) in [
        (
            "survival-chess/valid/30-default-queen-moves-diagonally-8x8.fgn",
            "3 w b7-b8",
        ),
        (
            "open-world-chess/valid/owc-20-bare-promotion-makes-a-queen.fgn",
            "2 w b7-b8",
        ),
    ] {
        let path = format!("{corpus}/{file}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let log = game(&text);
        let completed = complete_markers(&log);
        let mut promotions = 0;
        let mut seen = false;
        for (before, after) in log.events.iter().zip(&completed.events) {
            let (Action::Move(b), Action::Move(a)) = (&before.action, &after.action) else {
                continue;
            };
            if b.promotion.is_none() && a.promotion.is_some() {
                assert_eq!(a.promotion, Some(PieceKind::Queen), "{file}: {before} became {after}");
                promotions += 1;
            }
            if before.to_string() == bare {
                assert_eq!(after.to_string(), format!("{bare}=Q"), "{file}");
                seen = true;
            }
        }
        assert!(
            seen && promotions > 0,
            "{file} has no promotion `{bare}` without a piece"
        );
    }
}

/// Canonical FGN writes `+` and `#` exactly where a move checks or mates
/// (docs/notation.md), and `fgn fmt` fills them in where a log left them
/// out, as RULES.md section 1's check and mate "as in classical chess"
/// decide. Guards the check marker of survival-chess's canonical move,
/// which cargo-mutants found unpinned: nothing read what `fmt` writes.
#[test]
fn left_out_check_and_mate_markers_are_written_in() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/survival-chess/valid/17-legal-mate-no-markers-8x8.fgn"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let completed = complete_markers(&game(&text));
    let moves: Vec<String> = completed
        .events
        .iter()
        .filter(|e| matches!(e.action, Action::Move(_)))
        .map(ToString::to_string)
        .collect();
    assert!(moves.contains(&"6 w Bc4xf7+".to_string()), "{moves:?}");
    assert!(moves.contains(&"7 w Nc3-d5#".to_string()), "{moves:?}");
    // Every other move gives no check, and is written without a marker.
    let marked = moves.iter().filter(|m| m.ends_with('+') || m.ends_with('#')).count();
    assert_eq!(marked, 2, "{moves:?}");
}

/// An event the notation admits only in another game, made the way a game
/// server that builds its events (rather than parsing a log) could make it:
/// parsed under an open-world-chess header, which admits salts, spawns and
/// seeds.
fn open_world_event(line: &str) -> fgn_notation::Event {
    let header = game("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n").header;
    header.parse_event(line).unwrap_or_else(|e| panic!("{line}: {e:?}"))
}

/// Survival chess has no randomness (RULES.md shared conventions: "All
/// randomness is the world's"; section 1 has none), so it has no world
/// events of its own, no world seed a salt could add to (docs/rules.md,
/// "Salts": they "need a world seed") and no seed to reveal (docs/rules.md:
/// "After the result only `chat` and, in games with a seed, `@ seed`").
/// The parser never lets such events into a survival-chess log, but the
/// library's `apply` takes any event; this guards the rules' own
/// refusals, each a typed error at the index of the event it refuses that
/// leaves the game as it was. cargo-mutants found them unpinned in
/// `session.rs`: the engines' default `world` and `without_world_seed`,
/// the `has_seed` guard of `@ seed`, the guard that sends a decided game's
/// world events to the engine only when it owes some, and the count of
/// applied events that `apply` takes its index from.
#[test]
fn a_survival_game_refuses_the_salts_spawns_and_seeds_of_other_games() {
    let header =
        game("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n[TimeControl \"move=30\"]\n").header;
    let mut replay = fgn_replay::Replay::new(&header).expect("supported");
    let accept = |replay: &mut fgn_replay::Replay, line: &str| {
        let event = header.parse_event(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        replay.apply(&event).unwrap_or_else(|e| panic!("{line}: {e}"));
    };
    let refuse = |replay: &mut fgn_replay::Replay, line: &str| {
        let before = replay.state();
        let error = replay.apply(&open_world_event(line)).expect_err(line);
        assert_eq!(replay.state(), before, "{line}: {error}");
        assert_eq!(error.place, Place::Event(replay.events_applied()), "{line}: {error}");
        error
    };

    // First in the log, where a salt comes in a game with a world seed.
    let error = refuse(&mut replay, "0 w salt 00112233445566778899aabbccddeeff");
    assert_eq!(error.rule, Rule::Salt, "{error}");
    assert!(error.message.contains("no world seed"), "{error}");

    for line in ["0 w place Ke1 Pe2", "0 b place Ke8 Pe7", "0 w ready", "0 b ready"] {
        accept(&mut replay, line);
    }
    let error = refuse(&mut replay, "0 @ spawn c3 regen");
    assert_eq!(error.place, Place::Event(4), "{error}");
    assert_eq!(error.rule, Rule::WorldEvent, "{error}");
    assert!(
        error.message.contains("`spawn` is not an event of this game"),
        "{error}"
    );

    // Decided by a resignation, the game owes its result before anything
    // else: a world event in between is refused for the result it skips.
    accept(&mut replay, "1 w e2-e4");
    accept(&mut replay, "1 b resign");
    let error = refuse(&mut replay, "1 @ timeout b");
    assert_eq!(error.rule, Rule::Result, "{error}");
    assert!(error.message.contains("`@ result 1-0 resign`"), "{error}");
    accept(&mut replay, "1 @ result 1-0 resign");

    let error = refuse(
        &mut replay,
        "1 @ seed 0000000000000000000000000000000000000000000000000000000000000000",
    );
    assert_eq!(error.place, Place::Event(7), "{error}");
    assert_eq!(error.rule, Rule::AfterResult, "{error}");
    assert!(error.message.contains("only chat may follow"), "{error}");
}

/// RULES.md §4 names the five spells; `fgn show` and the messages about a
/// spell that is due use these names. cargo-mutants found three of them
/// unpinned (a deleted name read "plain").
#[test]
fn the_spells_have_the_names_rules_md_gives_them() {
    let names: Vec<&str> = (0..=6).map(fgn_replay::position::spell_name).collect();
    assert_eq!(
        names,
        [
            "plain",
            "Gorynych's Fury",
            "Baba Yaga's Potion",
            "Leshy's Charm",
            "Firebird's Call",
            "Koschei's Revenge",
            "plain"
        ]
    );
}

#[test]
fn a_rules_file_must_number_every_checker_and_keep_revenge_on_the_board() {
    // The `Numbers` and `RevengeRanks` tags refuse such values as they are
    // read, so only a rules file (`--rules`) reaches these checks of the
    // magic-draughts parameters (RULES.md §4: "Each side's 12 checkers carry
    // hidden numbers"; Koschei's Revenge returns checkers to the caster's own
    // ranks).
    use fgn_notation::GameKind::MagicDraughts;
    let checked = |json: &str| rules_file_check(MagicDraughts, json);
    assert_eq!(checked("{}"), Ok(()));
    assert_eq!(
        checked(r#"{"numbers": [0, 2, 2, 2, 2, 4], "revenge_ranks": 7}"#),
        Ok(())
    );
    assert_eq!(
        checked(r#"{"numbers": [1, 1, 1, 1, 1, 1]}"#),
        Err(
            "rules for magic-draughts: numbers must give each of a side's 12 checkers a number: they add up to 6"
                .to_string()
        )
    );
    assert_eq!(
        checked(r#"{"numbers": [3, 1, 2, 2, 2, 3]}"#),
        Err(
            "rules for magic-draughts: numbers must give each of a side's 12 checkers a number: they add up to 13"
                .to_string()
        )
    );
    for ranks in [0, 8] {
        assert_eq!(
            checked(&format!(r#"{{"revenge_ranks": {ranks}}}"#)),
            Err(format!(
                "rules for magic-draughts: revenge_ranks must be 1 to 7, not {ranks}"
            ))
        );
    }
}

#[test]
fn a_rules_file_must_leave_the_army_room_beside_the_fortifications() {
    // Cavalry and artillery never stand on a fortification (RULES.md §3), so
    // they need squares of their own on the half (docs/rules.md). With the
    // default army the cavalry is always the first to run out of room; a
    // rules file with one cavalry shows the artillery's own limit.
    use fgn_notation::GameKind::GreatWarChess;
    let checked = |json: &str| rules_file_check(GreatWarChess, json);
    // 6x6: a half of 18 squares, 16 fortifications, two squares for the
    // two cavalry and two artillery.
    assert_eq!(checked(r#"{"board": "6x6", "fortifications": 16}"#), Ok(()));
    assert_eq!(
        checked(r#"{"board": "6x6", "fortifications": 17, "units": {"cavalry": 1}}"#),
        Err("rules for great-war-chess: 2 artillery do not fit: a side's half has room for 1".to_string())
    );
    assert_eq!(
        checked(r#"{"board": "6x6", "fortifications": 17, "units": {"cavalry": 1, "artillery": 1}}"#),
        Ok(())
    );
}

#[test]
fn every_parameter_tag_sets_its_parameter() {
    // Each game's parameter tags, every one given a value other than its
    // default, must land in the ruleset the replay runs under. The corpus
    // logs use only some of the tags (a log that needs, say, `DrainHp` to
    // show would be long), so this holds every tag to its field at once.
    use fgn_notation::{BoardSize, GameKind, Square};
    use fgn_replay::ruleset::{
        Board, BonusWeights, DraughtsRules, GreatWarRules, OpenWorldRules, PieceHp, SetupLimits, SurvivalRules,
        UnitCounts,
    };
    let applied = |kind: GameKind, rules: &str, tags: &str| -> Ruleset {
        let header = game(&format!("[Game \"{kind}\"]\n[Rules \"{rules}\"]\n{tags}")).header;
        let mut ruleset = Ruleset::defaults(kind);
        ruleset
            .apply_header(&header, None)
            .unwrap_or_else(|(tag, fault)| panic!("{kind}: tag {tag}: {}", fault.message));
        ruleset
    };
    let sq = |s: &str| -> Square { s.parse().expect("a square") };
    assert_eq!(
        applied(
            GameKind::SurvivalChess,
            "1.0",
            "[Board \"10x8\"]\n[SetupSeconds \"90\"]\n[MoveSeconds \"20\"]\n"
        ),
        Ruleset::Survival(SurvivalRules {
            board: Board(BoardSize { files: 10, ranks: 8 }),
            setup_seconds: Some(90),
            move_seconds: Some(20),
            limits: SetupLimits::default(),
        })
    );
    assert_eq!(
        applied(
            GameKind::GreatWarChess,
            "1.0",
            "[Board \"10x6\"]\n[Fortifications \"3\"]\n[Charges \"25\"]\n[TimeControl \"setup=100 move=50\"]\n"
        ),
        Ruleset::GreatWar(GreatWarRules {
            board: Board(BoardSize { files: 10, ranks: 6 }),
            fortifications: 3,
            charges: 25,
            units: UnitCounts::default(),
            setup_seconds: Some(100),
            move_seconds: Some(50),
        })
    );
    assert_eq!(
        applied(
            GameKind::MagicDraughts,
            "1.0",
            "[Magic \"off\"]\n[Board \"8x8\"]\n[Numbers \"0=2 1=2 2=2 3=2 4=2 5=2\"]\n[RevengeRanks \"2\"]\n[MoveSeconds \"15\"]\n"
        ),
        Ruleset::Draughts(DraughtsRules {
            magic: false,
            numbers: [2, 2, 2, 2, 2, 2],
            revenge_ranks: 2,
            move_seconds: Some(15),
        })
    );
    // `Magic "on"` is the default written out.
    assert_eq!(
        applied(GameKind::MagicDraughts, "1.0", "[Magic \"on\"]\n"),
        Ruleset::Draughts(DraughtsRules::default())
    );
    assert_eq!(
        applied(
            GameKind::OpenWorldChess,
            "1.2",
            "[Board \"10x8\"]\n[Merchants \"c3 h6\"]\n[MovesPerTurn \"2\"]\n[LightRadius \"3\"]\n\
             [SpawnChance \"40\"]\n[CoinShare \"30\"]\n\
             [BonusWeights \"regen=10 hp=20 damage=30 kinghp=15 clone=25\"]\n\
             [DamageRampStart \"5\"]\n[DamageRampStep \"7\"]\n[DamageMax \"60\"]\n[FogAfter \"4\"]\n\
             [ShopPrice \"9\"]\n[RegenHeal \"3\"]\n[DamageRoll \"4\"]\n[ShopHp \"5\"]\n[DrainHp \"6\"]\n\
             [RangeSteps \"3\"]\n[PieceHp \"pawn=2 knight=4 bishop=6 rook=8 queen=11 king=12\"]\n\
             [MoveSeconds \"45\"]\n"
        ),
        Ruleset::OpenWorld(OpenWorldRules {
            board: Board(BoardSize { files: 10, ranks: 8 }),
            merchants: Some(vec![sq("c3"), sq("h6")]),
            moves_per_turn: 2,
            light_radius: 3,
            spawn_chance: 40,
            coin_share: 30,
            bonus_weights: BonusWeights {
                regen: 10,
                hp: 20,
                damage: 30,
                kinghp: 15,
                clone: 25,
            },
            damage_ramp_start: 5,
            damage_ramp_step: 7,
            damage_max: 60,
            fog_after: 4,
            shop_price: 9,
            regen_heal: 3,
            damage_roll: 4,
            shop_hp: 5,
            drain_hp: 6,
            range_steps: 3,
            hp: PieceHp {
                pawn: 2,
                knight: 4,
                bishop: 6,
                rook: 8,
                queen: 11,
                king: 12,
            },
            move_seconds: Some(45),
        })
    );
    // A board too small for open-world-chess in either direction is refused.
    for board in ["7x8", "8x5"] {
        let header = game(&format!(
            "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[Board \"{board}\"]\n"
        ))
        .header;
        let mut ruleset = Ruleset::defaults(GameKind::OpenWorldChess);
        let (tag, fault) = ruleset.apply_header(&header, None).expect_err(board);
        assert_eq!(tag, "Board");
        assert!(
            fault.message.contains("at least 8 files and 6 ranks"),
            "{board}: {}",
            fault.message
        );
    }
}

#[test]
fn a_rules_file_is_held_to_what_open_world_chess_requires() {
    // Reached only through a rules file: the `Board` tag refuses a small
    // board as it is read, and no tag sets the bonus weights to nothing.
    use fgn_notation::GameKind::OpenWorldChess;
    let checked = |json: &str| rules_file_check(OpenWorldChess, json);
    assert_eq!(checked(r#"{"board": "8x6"}"#), Ok(()));
    for board in ["7x8", "8x5"] {
        assert_eq!(
            checked(&format!(r#"{{"board": "{board}"}}"#)),
            Err(format!(
                "rules for open-world-chess: board {board}: open-world-chess needs at least 8 files and 6 ranks"
            ))
        );
    }
    // A bonus is regen, hp, kinghp or clone by weight (RULES.md §2); damage
    // alone would leave nothing to draw.
    let no_bonus = r#"{"bonus_weights": {"regen": 0, "hp": 0, "kinghp": 0, "clone": 0, "damage": 100}}"#;
    assert_eq!(
        checked(no_bonus),
        Err("rules for open-world-chess: bonus_weights: regen, hp, kinghp and clone may not all be 0".to_string())
    );
    for one in ["regen", "hp", "kinghp", "clone"] {
        let json = format!(
            r#"{{"bonus_weights": {{"regen": 0, "hp": 0, "kinghp": 0, "clone": 0, "damage": 0, "{one}": 100}}}}"#
        );
        assert_eq!(checked(&json), Ok(()), "{one}");
    }
}

/// The state at the end of `text`, which must be valid.
fn final_state(text: &str) -> fgn_replay::State {
    let log = game(text);
    let mut replay = fgn_replay::Replay::new(&log.header).expect("supported");
    for e in log.events.iter() {
        replay.apply(e).unwrap_or_else(|err| panic!("{err}"));
    }
    replay.state()
}

/// Issue 35 item 4: counts count, never saturate. A side that starts with
/// the most charges the parameter allows (`u32::MAX`) still pays for its
/// shots and gains 4 a unit destroyed (RULES.md section 3): 4294967295 - 1
/// (a shot without support) - 1 + 8 (a supported shot destroying two).
#[test]
fn great_war_charges_count_past_the_parameters_range() {
    let text = "[Game \"great-war-chess\"]\n[Rules \"1.0\"]\n[Charges \"4294967295\"]\n\n\
        0 w place Ia2 Ib2 Cb2 Ic2 Id1 Ad1 Ie2 If2 Af2 Ig2 Cg2 Ih2\n\
        0 b place Ia7 Ib7 Cb7 Ic7 Id8 Ad8 Ie7 If7 Af7 Ig7 Ih7 Ca5\n\
        0 w ready\n0 b ready\n1 w Af2*f7\n1 w ICg2-g6\n1 b Ih7-h6\n1 b end\n2 w Af2*f7\n";
    let fgn_replay::Position::GreatWar(s) = final_state(text).position else {
        panic!("a great-war-chess state")
    };
    assert_eq!(s.charges.white, 4_294_967_301);
    assert_eq!(s.charges.black, 4_294_967_295 - 16);
    // The parameter itself is a count of charges a `u32` holds: one more
    // is refused with a clear error, not cut.
    let log = game("[Game \"great-war-chess\"]\n[Rules \"1.0\"]\n[Charges \"4294967296\"]\n\n0 w ready\n");
    let Err(error) = fgn_replay::validate(&log) else {
        panic!("refused")
    };
    assert!(error.to_string().contains("Charges"), "{error}");
}

/// Issue 35 item 4 in open-world-chess: HP count past 65535 (the largest
/// initial HP and shop bonus a tag sets), so a king of 65535 HP that buys
/// the shop's `hp` twice at 65535 each holds 3 * 65535, and its maximum too.
#[test]
fn open_world_hp_counts_past_the_parameters_range() {
    let text = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[Merchants \"e3\"]\n[ShopPrice \"0\"]\n\
        [ShopHp \"65535\"]\n[PieceHp \"king=65535\"]\n[SpawnChance \"0\"]\n\n\
        1 w e2-e3\n1 w buy hp e1\n1 w buy hp e1\n";
    let fgn_replay::Position::OpenWorld(s) = final_state(text).position else {
        panic!("an open-world-chess state")
    };
    let king = s
        .pieces
        .iter()
        .find(|p| p.piece == PieceKind::King && p.color == Color::White)
        .expect("white's king");
    assert_eq!((king.hp, king.max_hp), (3 * 65535, 3 * 65535));
    // A tag beyond what the parameter holds is refused, not cut.
    let log = game("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[ShopHp \"65536\"]\n\n1 w e2-e3\n");
    let Err(error) = fgn_replay::validate(&log) else {
        panic!("refused")
    };
    assert!(error.to_string().contains("ShopHp"), "{error}");
}

/// `game` (valid, under a move limit of `limit_ms`) with its readings
/// rewritten so that every turn takes 90% of the limit: the event that
/// passes a turn on (or answers a timeout with `extra yes`) comes 0.9 of a
/// limit after the turn began, every other event of a player at the same
/// time as the one before it, a timeout exactly as the limit runs out, and
/// world events without readings, as the world writes them. Leaving out the
/// reading of an event that began a turn then leaves the turn's start a
/// whole limit's worth of time uncertain.
fn timed_to_the_limit(game: &Game, limit_ms: u64) -> Game {
    use fgn_notation::Clock;
    let mut untimed = game.clone();
    for e in &mut untimed.events {
        e.clock_ms = None;
    }
    let mut replay = fgn_replay::Replay::new(&untimed.header).expect("a supported game");
    let mut out = game.clone();
    let (mut now, mut started) = (0, 0);
    for (i, event) in untimed.events.iter().enumerate() {
        let before = replay.progress().turn;
        replay.apply(event).expect("the game is valid without readings");
        let begins = replay.progress().turn != before || matches!(event.action, Action::Extra { granted: true });
        let reading = match (event.actor, &event.action) {
            (Actor::World, Action::Timeout { .. }) => {
                now = now.max(started + limit_ms);
                Some(now)
            }
            (Actor::World, _) => None,
            _ if begins => {
                now = now.max(started + limit_ms * 9 / 10);
                Some(now)
            }
            _ => Some(now),
        };
        if begins {
            started = now;
        }
        out.events[i].clock_ms = reading.map(Clock);
    }
    out
}

/// docs/rules.md, "Clock": a move is late, and a timeout early, only where
/// the clock readings prove it, so leaving a reading out of a valid log
/// (which only widens what the readings allow) never makes it invalid.
/// Random games of every game under a move limit, with timeouts, extra
/// time and chat, whose every turn takes 90% of the limit, each with every
/// reading left out in turn, and with every other one left out, must all
/// still validate. A turn begun by an event without a reading (a move,
/// `ready`, `end`, the last move or a purchase of open-world-chess, `extra
/// yes`) was timed from the reading before it, which refused it.
#[test]
fn a_turn_begun_without_a_reading_is_late_only_where_the_readings_prove_it() {
    use fgn_notation::{GameKind, Header, Tag};
    use fgn_replay::gen::{generate, Options, Rate};

    let rate = |text: &str| -> Rate { text.parse().expect("a rate") };
    let mut dropped = 0usize;
    for kind in GameKind::ALL {
        for seed in 0..3 {
            let mut options = Options::new(kind, seed);
            let header = Header {
                tags: vec![Tag {
                    name: "TimeControl".into(),
                    value: "move=20".into(),
                }],
            };
            options
                .rules
                .apply_header(&header, None)
                .expect("a time control the game takes");
            options.clocks = true;
            options.plies = 50;
            options.rates.chat = rate("0.05");
            options.rates.timeout = rate("0.08");
            let full = timed_to_the_limit(&generate(&options).expect("a random game"), 20_000);
            let check = |g: &Game, what: &str| {
                let v = fgn_replay::validate(g).expect("a supported game");
                assert!(
                    v.error.is_none(),
                    "{kind} seed {seed}, {what}: {}\n{}",
                    v.error.map(|e| e.to_string()).unwrap_or_default(),
                    g.canonical_text()
                );
            };
            check(&full, "every reading");
            let read: Vec<usize> = (0..full.events.len())
                .filter(|&i| full.events[i].clock_ms.is_some())
                .collect();
            for &i in &read {
                let mut g = full.clone();
                g.events[i].clock_ms = None;
                check(&g, &format!("without the reading of event {i}"));
                dropped += 1;
            }
            let mut g = full.clone();
            for &i in read.iter().step_by(2) {
                g.events[i].clock_ms = None;
            }
            check(&g, "without every other reading");
        }
    }
    assert!(dropped > 300, "only {dropped} readings left out");
}

/// docs/rules.md, "Clock": `@ timeout` is refused as early only where the
/// readings prove it, from the earliest the running limit can have begun
/// (the last reading at or before the event that began it, t=0 before any
/// reading) to the timeout's own reading. Regression: a turn begun before
/// any reading was not timed at all, so a timeout 50 s into the game
/// passed for one whose 60 s had run out.
#[test]
fn a_timeout_is_early_only_where_the_readings_prove_it() {
    let head = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[TimeControl \"move=60\"]\n\n";
    let cases = [
        ("0 @ timeout w {t=50}\n", true),
        ("0 @ timeout w {t=60}\n", false),
        // Black's turn began at white's move, at t=0 or later: 50 s at most.
        ("1 w c3-d4\n1 @ timeout b {t=50}\n", true),
        ("1 w c3-d4\n1 @ timeout b {t=61}\n", false),
        // White's turn began after t=10: 55 s at most.
        ("1 w c3-d4 {t=10}\n1 b f6-g5\n1 @ timeout w {t=65}\n", true),
        ("1 w c3-d4 {t=10}\n1 b f6-g5\n1 @ timeout w {t=70}\n", false),
        // A timeout without a reading may have come at any time.
        ("1 w c3-d4 {t=10}\n1 @ timeout b\n", false),
    ];
    for (events, early) in cases {
        let log = game(&format!("{head}{events}"));
        let error = fgn_replay::validate(&log).expect("a supported game").error;
        match error {
            Some(e) => assert!(early && e.rule == Rule::Timeout, "{events}: {e}"),
            None => assert!(!early, "{events}: the early timeout passed"),
        }
    }
}
