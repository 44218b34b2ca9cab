//! A player's view read on its own gives the player's knowledge (issue
//! 37): for every prefix of a valid game and both players, what
//! [`ViewReader`] reads from the view that prefix makes equals what
//! [`Replay::knowledge`] gives for that player at the same point of the
//! full log, knowledge hash and all. Over every valid corpus game of the
//! game whose views are read (open-world-chess) and over generated games
//! on several boards, with and without chat and salts.

use std::path::PathBuf;

use fgn_notation::{Color, Game, GameKind};
use fgn_replay::gen::{generate, Options, Rate, Rates};
use fgn_replay::ruleset::{Board, OpenWorldRules, Ruleset};
use fgn_replay::{Replay, ViewReader, ViewWriter, Viewer};

const SIDES: [Color; 2] = [Color::White, Color::Black];

/// Replays `full` and writes each side's view as it goes, reading every
/// line of the view as it is written; after each event of the full log
/// the knowledge read equals the replay's. Returns how many points were
/// compared.
fn check(name: &str, full: &Game) -> usize {
    let mut compared = 0;
    for side in SIDES {
        let mut replay = Replay::new(&full.header).expect("a game with an engine");
        let mut writer = ViewWriter::new(&full.header, side).expect("a view");
        let (mut reader, _) = ViewReader::new(writer.header(), None).expect("a view that is read");
        let viewer = Viewer::of(side);
        assert_eq!(
            reader.knowledge(),
            replay.knowledge(viewer),
            "{name} as {side:?} at the start"
        );
        let mut lines = Vec::new();
        let mut read = 0;
        for (i, event) in full.events.iter().enumerate() {
            if writer.push(i, event, &mut lines).is_err() {
                break;
            }
            replay.apply(event).expect("a valid log");
            for line in &lines[read..] {
                reader
                    .read(read, line)
                    .unwrap_or_else(|e| panic!("{name} as {side:?}: the view's line `{line}` cannot be read: {e}"));
                read += 1;
            }
            let (known, expected) = (reader.knowledge(), replay.knowledge(viewer));
            if known != expected {
                let context: Vec<String> = lines[read.saturating_sub(40)..]
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                panic!(
                    "{name} as {side:?} after event {} `{event}`:\n{}\nthe view's last lines:\n{}",
                    i + 1,
                    differences(&known, &expected),
                    context.join("\n")
                );
            }
            assert_eq!(known.hash(), expected.hash());
            compared += 1;
        }
    }
    compared
}

/// Where two knowledges differ, as JSON: each differing field, and for a
/// list the entries only one side has.
fn differences(read: &fgn_replay::Knowledge, replayed: &fgn_replay::Knowledge) -> String {
    use serde_json::Value;
    fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                    let (va, vb) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                    walk(&format!("{path}.{k}"), va, vb, out);
                }
            }
            (Value::Array(x), Value::Array(y)) if x != y => {
                let only =
                    |p: &Vec<Value>, q: &Vec<Value>| p.iter().filter(|v| !q.contains(v)).cloned().collect::<Vec<_>>();
                out.push(format!(
                    "{path}: read only {:?}; replayed only {:?}",
                    only(x, y),
                    only(y, x)
                ));
            }
            _ if a != b => out.push(format!("{path}: read {a}, replayed {b}")),
            _ => {}
        }
    }
    let (a, b) = (
        serde_json::to_value(read).unwrap_or_default(),
        serde_json::to_value(replayed).unwrap_or_default(),
    );
    let mut out = Vec::new();
    walk("", &a, &b, &mut out);
    out.join("\n")
}

#[test]
fn every_corpus_view_read_alone_is_its_players_knowledge() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/open-world-chess/valid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "fgn"))
        .collect();
    files.sort();
    let mut compared = 0;
    for path in &files {
        let text = std::fs::read(path).expect("a corpus log");
        let game = fgn_notation::parse(&text).document.game;
        compared += check(&path.display().to_string(), &game);
    }
    assert!(
        files.len() >= 20 && compared > 1000,
        "{} files, {compared} points",
        files.len()
    );
}

#[test]
fn every_generated_view_read_alone_is_its_players_knowledge() {
    let mut compared = 0;
    let square = |s: &str| -> fgn_notation::Square { s.parse().expect("a square") };
    // A busy world besides the default one: every square that lights
    // spawns, half of it coins, the shop cheap and everywhere in the
    // middle, so that purchases (late ones and curses too), clones and
    // damage rolls on paths come often.
    let busy = |board: Board| OpenWorldRules {
        board,
        spawn_chance: 100,
        coin_share: 50,
        shop_price: 1,
        merchants: Some(["c3", "d4", "e4", "d5", "e5", "f6", "c6", "f3"].map(square).to_vec()),
        ..OpenWorldRules::default()
    };
    for (files, ranks, crowded) in [
        (8, 8, false),
        (10, 10, false),
        (8, 6, false),
        (12, 9, false),
        (8, 8, true),
        (9, 9, true),
    ] {
        for seed in 0..25u64 {
            let board = Board(fgn_notation::BoardSize { files, ranks });
            let rules = Ruleset::OpenWorld(if crowded {
                busy(board)
            } else {
                OpenWorldRules {
                    board,
                    ..OpenWorldRules::default()
                }
            });
            let mut options = Options {
                plies: 400,
                resign_at_cap: seed % 3 == 0,
                ..Options::under(rules, seed)
            };
            if seed % 2 == 1 {
                // Chat, resignations and timeouts with their answers, and
                // salts: the shared rules' events a view reads itself.
                options.rates = Rates {
                    chat: Rate::per_million(100_000).expect("a rate"),
                    resign: Rate::per_million(5_000).expect("a rate"),
                    ..Rates::DEFAULT
                };
                options.clocks = true;
                options.salts = Some(options.player_salts());
            }
            assert_eq!(options.game(), GameKind::OpenWorldChess);
            let game = generate(&options).unwrap_or_else(|e| panic!("{e}"));
            compared += check(
                &format!("generated {files}x{ranks} (busy: {crowded}) seed {seed}"),
                &game,
            );
        }
    }
    assert!(compared > 5000, "{compared} points");
}
