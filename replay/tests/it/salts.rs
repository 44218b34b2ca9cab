//! Players' salts in the world seed (NOTATION.md, "Player entropy";
//! docs/notation.md §12.9): the salted game key against the vectors an
//! independent implementation computed (tests/fixtures/salt_vectors.py and
//! salt_vectors.txt), where a salt may stand, salted games validating with
//! their seed and failing at the first outcome a changed salt refutes, and
//! salts in the state, its hashes, the views and the game API.

use fgn_notation::{parse, Action, Actor, ByColor, Color, Event, Game, GameKind, MoveNumber, Salt};
use fgn_replay::gen::{generate, Options};
use fgn_replay::referee::derive_numbers;
use fgn_replay::ruleset::DraughtsRules;
use fgn_replay::seed::{self, Draws, Salts};
use fgn_replay::{validate, view, Place, Replay, Rule, RuleError, Viewer};

fn vectors() -> impl Iterator<Item = Vec<&'static str>> {
    include_str!("../fixtures/salt_vectors.txt")
        .lines()
        .map(|l| l.split(' ').collect())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn seed_named(name: &str) -> [u8; 32] {
    match name {
        "zero" => [0; 32],
        "inc" => std::array::from_fn(|i| i as u8),
        other => panic!("no seed {other}"),
    }
}

/// The salts the vector file names: `none`, `5eed`, `long` (the bytes 0 to
/// 63, the longest salt) and `00` (one zero byte).
fn salt_named(name: &str) -> Option<Salt> {
    match name {
        "none" => None,
        "long" => Some(Salt::new(&(0..64u8).collect::<Vec<_>>()).unwrap()),
        other => Some(other.parse().unwrap()),
    }
}

fn salts_named(white: &str, black: &str) -> Salts {
    ByColor {
        white: salt_named(white),
        black: salt_named(black),
    }
}

#[test]
fn the_salted_game_key_agrees_with_the_independent_vectors() {
    let mut checked = 0;
    for v in vectors() {
        match v[..] {
            ["key", s, w, b, key] => {
                assert_eq!(hex(&seed::game_key(&seed_named(s), &salts_named(w, b))), key, "{v:?}");
            }
            ["below", s, w, b, label, n, value] => {
                let draws = Draws::salted(&seed_named(s), &salts_named(w, b));
                assert_eq!(draws.below(label, n.parse().unwrap()).to_string(), value, "{v:?}");
            }
            ["numbers", s, w, b, side, ..] => {
                let draws = Draws::salted(&seed_named(s), &salts_named(w, b));
                let color = if side == "w" { Color::White } else { Color::Black };
                let numbers = derive_numbers(&draws, color, &DraughtsRules::default().numbers);
                let expected: Vec<u8> = v[5..].iter().map(|n| n.parse().unwrap()).collect();
                assert_eq!(numbers.to_vec(), expected, "{v:?}");
            }
            ["material", s, w, b, bytes] => {
                assert_eq!(
                    hex(&seed::salted_key_material(&seed_named(s), &salts_named(w, b))),
                    bytes,
                    "{v:?}"
                );
            }
            _ => panic!("a vector line of an unknown kind: {v:?}"),
        }
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} vectors");
}

/// Without salts the key is the unsalted one of docs/notation.md §12.2, so
/// every game from before salts keeps its outcomes; one zero byte of salt
/// is a salt, not its absence.
#[test]
fn no_salt_keeps_the_old_key_and_a_zero_byte_is_a_salt() {
    let zero = [0u8; 32];
    assert_eq!(
        hex(&seed::game_key(&zero, &Salts::default())),
        "aa92747542cb29f3382771b0db146e090073617e9cea85bac422dd9487a36446"
    );
    assert_eq!(Draws::new(&zero).key(), seed::game_key(&zero, &Salts::default()));
    let keys = [
        seed::game_key(&zero, &Salts::default()),
        seed::game_key(&zero, &salts_named("00", "none")),
        seed::game_key(&zero, &salts_named("none", "00")),
        seed::game_key(&zero, &salts_named("00", "00")),
    ];
    for i in 0..keys.len() {
        for j in i + 1..keys.len() {
            assert_ne!(keys[i], keys[j], "keys {i} and {j}");
        }
    }
}

const OWC: &str = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[SeedCommit \"blake3:2ada83c1819a5372dae1238fc1ded123c8104fdaa15862aaee69428a1820fcda\"]\n\n";
const MAGIC: &str = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[SeedCommit \"blake3:2ada83c1819a5372dae1238fc1ded123c8104fdaa15862aaee69428a1820fcda\"]\n\n";

/// The first rule error of `header` followed by `events`, and the replay.
fn run(header: &str, events: &str) -> (Option<RuleError>, Replay) {
    let parsed = parse(format!("{header}{events}").as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    let v = validate(&parsed.document.game).expect("supported");
    (v.error, v.replay)
}

fn fails(header: &str, events: &str, rule: Rule, at: usize, says: &str) {
    let (error, _) = run(header, events);
    let error = error.unwrap_or_else(|| panic!("accepted:\n{events}"));
    assert_eq!((error.rule, error.place), (rule, Place::Event(at)), "{error}");
    assert!(error.message.contains(says), "{error}");
}

#[test]
fn salts_come_first_once_per_player_and_only_with_a_world_seed() {
    for header in [OWC, MAGIC] {
        // Both orders, and chat before them, are fine.
        for ok in [
            "0 w salt 5eed\n0 b salt 01\n",
            "0 b salt 01\n0 w salt 5eed\n",
            "0 w chat \"my salt next\"\n0 w salt 5eed\n",
            "0 b salt 01\n",
        ] {
            let (error, replay) = run(header, ok);
            assert_eq!(error, None, "{ok}");
            assert!(seed::is_salted(&replay.salts()));
        }
        fails(
            header,
            "0 w salt 5eed\n0 w salt 01\n",
            Rule::Salt,
            1,
            "white has given its salt already",
        );
        fails(
            header,
            "0 w salt 5eed {t=1}\n0 b salt 01 {t=0.5}\n",
            Rule::Clock,
            1,
            "backwards",
        );
        fails(
            header,
            "0 w salt 5eed\n0 b salt 01\n1 w resign\n",
            Rule::MoveNumber,
            2,
            "",
        );
    }
    fails(
        OWC,
        "1 w e2-e3\n1 b salt 01\n",
        Rule::Salt,
        1,
        "but a `chess move` comes before this one",
    );
    fails(
        OWC,
        "0 @ spawn c3 regen\n0 w salt 01\n",
        Rule::Salt,
        1,
        "but a `spawn` comes before",
    );
    fails(
        MAGIC,
        "1 w c3-d4\n1 b salt 01\n",
        Rule::Salt,
        1,
        "but a `draughts move` comes before",
    );
    fails(
        MAGIC,
        "0 w salt 01\n0 w resign\n0 b salt 02\n",
        Rule::Salt,
        2,
        "but a `resign` comes before",
    );
    // A move number other than 0.
    fails(
        OWC,
        "1 w salt 01\n",
        Rule::MoveNumber,
        0,
        "carries move number 0, not 1",
    );
    // No world seed: no SeedCommit, or magic off.
    let owc_plain = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n";
    fails(
        owc_plain,
        "0 w salt 01\n",
        Rule::Salt,
        0,
        "the header has no `SeedCommit`",
    );
    let magic_off = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n";
    fails(magic_off, "0 b salt 01\n", Rule::Salt, 0, "magic is off");
}

/// The notation admits no salt in a game without randomness, but the game
/// API takes any event: there it is a rule error, not a panic.
#[test]
fn a_salt_handed_to_a_game_without_randomness_is_refused() {
    let header = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n")
        .document
        .game
        .header;
    let mut replay = Replay::new(&header).unwrap();
    let before = replay.state();
    let salt = Event {
        n: MoveNumber(0),
        actor: Actor::Player(Color::White),
        action: Action::Salt {
            salt: Box::new("01".parse().unwrap()),
        },
        clock_ms: None,
    };
    let error = replay.apply(&salt).unwrap_err();
    assert_eq!(error.rule, Rule::Salt, "{error}");
    assert!(error.message.contains("no world seed"), "{error}");
    assert_eq!(replay.state(), before);
}

/// A refused salt leaves the replay as it was, salts included.
#[test]
fn a_refused_salt_changes_nothing() {
    let game = parse(format!("{OWC}0 w salt 5eed\n").as_bytes()).document.game;
    let mut replay = Replay::new(&game.header).unwrap();
    replay.apply(&game.events[0]).unwrap();
    let before = (replay.state(), replay.state_hash());
    let second = Event {
        action: Action::Salt {
            salt: Box::new("01".parse().unwrap()),
        },
        ..game.events[0].clone()
    };
    assert!(replay.apply(&second).is_err());
    assert_eq!((replay.state(), replay.state_hash()), before);
    assert_eq!(replay.salts().white, Some("5eed".parse().unwrap()));
}

/// The salts are part of the state: two logs that differ only in a salt
/// reach states with different hashes, for every viewer (salts are
/// public), while a log without salts encodes as it always has (no
/// `salts` field).
#[test]
fn the_state_and_every_knowledge_hash_cover_the_salts() {
    let (_, a) = run(OWC, "0 w salt 5eed\n");
    let (_, b) = run(OWC, "0 w salt 5eee\n");
    let (_, none) = run(OWC, "0 w chat \"no salt\"\n");
    assert_ne!(a.state_hash(), b.state_hash());
    assert_ne!(a.state_hash(), none.state_hash());
    for viewer in [Viewer::White, Viewer::Black, Viewer::Everyone] {
        assert_ne!(a.knowledge_hash(viewer), b.knowledge_hash(viewer), "{viewer:?}");
        let known = serde_json::to_value(a.knowledge(viewer)).unwrap();
        assert_eq!(known["progress"]["salts"], serde_json::json!({"w": "5eed", "b": null}));
    }
    let state = serde_json::to_value(none.state()).unwrap();
    assert!(state["progress"].get("salts").is_none(), "{state}");
}

/// The generated game of `game` and seed `i` with `salts`, left open if
/// `plies` decisions do not decide it.
fn generated(game: GameKind, i: u64, salts: Option<Salts>, plies: usize) -> Game {
    let options = Options {
        salts,
        plies,
        resign_at_cap: false,
        ..Options::new(game, i)
    };
    generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

fn some_salts(i: u64) -> Salts {
    let white: Vec<u8> = (0..(1 + i % 64)).map(|b| (b * 7 + i) as u8).collect();
    ByColor {
        white: (i % 3 != 2).then(|| Salt::new(&white).unwrap()),
        black: (i % 3 != 1).then(|| Salt::new(&[i as u8, 0x5e]).unwrap()),
    }
}

fn owc_game(i: u64) -> Game {
    generated(GameKind::OpenWorldChess, i, Some(some_salts(i)), 130)
}

fn magic_game(i: u64) -> Game {
    generated(GameKind::MagicDraughts, i, Some(some_salts(i)), 300)
}

fn has_seed(game: &Game) -> bool {
    game.events.iter().any(|e| matches!(e.action, Action::Seed { .. }))
}

/// The salt of `color` in `game` with one hex digit changed, as someone
/// altering the log after the fact would.
fn altered(game: &Game, color: Color, digit: usize) -> Option<Game> {
    let i = game
        .events
        .iter()
        .position(|e| e.actor == Actor::Player(color) && matches!(e.action, Action::Salt { .. }))?;
    let Action::Salt { salt } = &game.events[i].action else {
        unreachable!()
    };
    let mut text = salt.to_string();
    let d = text.as_bytes()[digit % text.len()];
    let other = if d == b'0' { "1" } else { "0" };
    text.replace_range(digit % text.len()..digit % text.len() + 1, other);
    let mut out = game.clone();
    out.events[i].action = Action::Salt {
        salt: Box::new(text.parse().unwrap()),
    };
    Some(out)
}

/// Where a seed check fails must be an event that recorded an outcome the
/// new key changes (a spawn, damage roll, clone or reveal, or the event
/// that went past a starting square the key now spawns on), or the move
/// whose lighting rolled a spawn the log does not have: never a salt, and
/// never the seed line.
fn assert_fails_at_an_outcome(game: &Game, what: &str) {
    let v = validate(game).expect("supported");
    let error = v
        .error
        .unwrap_or_else(|| panic!("{what}: an altered salt went unnoticed"));
    assert_eq!(error.rule, Rule::Seed, "{what}: {error}");
    let Place::Event(at) = error.place else {
        panic!("{what}: {error} is not at an event")
    };
    let event = &game.events[at];
    assert!(
        matches!(
            (event.actor, &event.action),
            (
                Actor::World,
                Action::Spawn { .. } | Action::Damage { .. } | Action::Clone { .. }
            ) | (Actor::World, Action::Reveal { .. } | Action::Seed { .. })
                | (Actor::Player(_), Action::Move(_))
        ),
        "{what}: fails at `{event}`: {error}"
    );
}

#[test]
fn salted_generated_games_validate_and_an_altered_salt_fails_at_an_outcome() {
    let mut seeded = 0;
    for i in 0..24u64 {
        for (game, kind) in [(owc_game(i), "open-world-chess"), (magic_game(i), "magic-draughts")] {
            let v = validate(&game).expect("supported");
            assert!(
                v.error.is_none(),
                "{kind} {i}: {:?}\n{}",
                v.error,
                game.canonical_text()
            );
            assert_eq!(v.replay.salts(), some_salts(i), "{kind} {i}");
            if !has_seed(&game) {
                continue;
            }
            seeded += 1;
            for color in [Color::White, Color::Black] {
                for digit in [0, 1, 5] {
                    if let Some(changed) = altered(&game, color, digit) {
                        assert_fails_at_an_outcome(&changed, &format!("{kind} {i}, {color:?}'s salt digit {digit}"));
                    }
                }
            }
        }
    }
    assert!(seeded >= 20, "only {seeded} games revealed their seed");
}

/// The same seed and choices with and without salts: the salts change the
/// outcomes, so the unsalted game's log does not validate with the salts
/// put in front of it.
#[test]
fn salts_change_the_outcomes() {
    for i in 0..6u64 {
        let unsalted = generated(GameKind::MagicDraughts, i, None, 300);
        if !has_seed(&unsalted) {
            continue;
        }
        let mut salted = unsalted.clone();
        salted.events.splice(0..0, seed::salt_events(&some_salts(i)));
        assert_fails_at_an_outcome(&salted, &format!("magic-draughts {i} with salts added"));
    }
}

/// What a referee needs from the game API: it takes the players' salts
/// as events, and the replay then gives it the game key every owed world
/// event is drawn from; before any salt that is the unsalted key.
#[test]
fn the_replay_gives_a_referee_the_salted_key() {
    let game = magic_game(4);
    let seed = game
        .events
        .iter()
        .find_map(|e| match e.action {
            Action::Seed { seed } => Some(seed.0),
            _ => None,
        })
        .expect("game 4 reveals its seed");
    let salts = some_salts(4);
    let mut replay = Replay::new(&game.header).unwrap();
    assert_eq!(replay.game_key(&seed), Draws::new(&seed).key());
    let given = seed::salt_events(&salts);
    assert_eq!(
        &game.events[..given.len()],
        &given[..],
        "the generator gives the salts first"
    );
    for e in given.iter() {
        replay.apply(e).unwrap();
    }
    assert_eq!(replay.salts(), salts);
    assert_eq!(replay.game_key(&seed), seed::game_key(&seed, &salts));
    // The generator drew the game's numbers from these draws, and the
    // game validates with its seed (salted_generated_games_validate...).
    assert_eq!(replay.draws(&seed).key(), Draws::salted(&seed, &salts).key());
    assert_ne!(replay.game_key(&seed), Draws::new(&seed).key());
}

/// Salts are public: both players' views keep both salts.
#[test]
fn views_keep_the_salts() {
    for i in 0..4u64 {
        for game in [owc_game(i), magic_game(i)] {
            let salts: Vec<&Event> = game
                .events
                .iter()
                .filter(|e| matches!(e.action, Action::Salt { .. }))
                .collect();
            assert!(!salts.is_empty());
            for side in [Color::White, Color::Black] {
                let v = view(&game, side).unwrap();
                let kept: Vec<&Event> = v
                    .events
                    .iter()
                    .filter(|e| matches!(e.action, Action::Salt { .. }))
                    .collect();
                assert_eq!(kept, salts, "{side:?}");
                assert_eq!(
                    &v.events[..salts.len()],
                    &game.events[..salts.len()],
                    "first in the view too"
                );
            }
        }
    }
}

/// Issue 15's promise for the corpus: every salted game of the corpus
/// validates with its seed, and changing any one digit of any salt in it
/// fails validation at the first recorded outcome the new key changes.
#[test]
fn altering_any_digit_of_a_salt_in_the_corpus_fails_at_an_outcome() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut games = 0;
    for game in ["open-world-chess", "magic-draughts"] {
        let mut paths: Vec<_> = std::fs::read_dir(corpus.join(game).join("valid"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for path in paths {
            let parsed = parse(&std::fs::read(&path).unwrap());
            let game = parsed.document.game;
            let salted = game.events.iter().any(|e| matches!(e.action, Action::Salt { .. }));
            if !salted {
                continue;
            }
            assert!(
                has_seed(&game),
                "{}: a salted corpus game reveals its seed",
                path.display()
            );
            let v = validate(&game).expect("supported");
            assert_eq!(v.error, None, "{}", path.display());
            for color in [Color::White, Color::Black] {
                let Some(Action::Salt { salt }) = game
                    .events
                    .iter()
                    .find(|e| e.actor == Actor::Player(color) && matches!(e.action, Action::Salt { .. }))
                    .map(|e| &e.action)
                else {
                    continue;
                };
                for digit in 0..2 * salt.bytes().len() {
                    let changed = altered(&game, color, digit).unwrap();
                    assert_fails_at_an_outcome(&changed, &format!("{} {color:?} digit {digit}", path.display()));
                }
            }
            games += 1;
        }
    }
    assert!(games >= 2, "only {games} salted corpus games");
}

/// A salt is an event like any other, so the log hash covers it: changing
/// one digit of a salt changes the log hash, and the chain from that event on.
#[test]
fn the_log_hash_covers_the_salts() {
    let game = magic_game(2);
    let changed = altered(&game, Color::Black, 0).unwrap();
    let (a, b) = (fgn_tools::loghash::chain(&game), fgn_tools::loghash::chain(&changed));
    assert_ne!(a.log_hash(), b.log_hash());
    assert_eq!(
        fgn_tools::loghash::header_value(&game),
        fgn_tools::loghash::header_value(&changed)
    );
}

/// docs/notation.md §12.10 copies its keys from the pinned vectors: each
/// key the table shows is one the independent implementation computed.
#[test]
fn the_documented_salt_vectors_are_the_pinned_ones() {
    let doc = include_str!("../../../docs/notation.md");
    let section = &doc[doc.find("### 12.10 Salt test vectors").expect("§12.10")..doc.find("## 13. Hashes").unwrap()];
    let pinned = include_str!("../fixtures/salt_vectors.txt");
    let mut keys = 0;
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(|c| c.trim().trim_matches('`')).collect();
        let name = |c: &str| if c == "–" { "none".to_string() } else { c.to_string() };
        let key: String = cells[4].chars().take(64).collect();
        let line = format!("key {} {} {} {key}", cells[1], name(cells[2]), name(cells[3]));
        assert!(pinned.lines().any(|l| l == line), "docs/notation.md §12.10: {line}");
        keys += 1;
    }
    assert!(keys >= 8, "only {keys} keys in the table");
}
