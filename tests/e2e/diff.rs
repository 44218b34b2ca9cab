//! `fgn diff` through the binary: every valid corpus game is the same as
//! itself and as its canonical copy, and a copy with one event changed to
//! another legal one differs at that line; headers, prefixes, rule errors
//! and unreadable files; `--as` compares what one player knows and shows
//! nothing it could not; the JSON validates against
//! docs/fgn-diff.schema.json, whose change kinds are exactly those the
//! account produces.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use fgn_notation::{Event, Game};
use fgn_replay::{knowledge_changes, state_changes, Replay, Viewer};
use serde_json::Value;

use crate::schema::Schema;
use crate::util::{self, fgn, run};

/// Writes `text` to a fresh file in the target folder and returns its path.
fn scratch(name: &str, text: &str) -> String {
    util::scratch("diff", name, text.as_bytes())
}

fn schema() -> Schema {
    Schema::load_from(&util::root().join("docs").join("fgn-diff.schema.json"))
}

/// `fgn --format json diff ARGS`: the exit code and the document, checked
/// against the schema.
fn json_diff(schema: &Schema, args: &[&str], stdin: &[u8]) -> (Option<i32>, Value) {
    let mut all = vec!["--format", "json", "diff"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, stdin);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}\n{err}"));
    if let Some(e) = schema.errors(&doc) {
        panic!("{args:?}: the diff does not validate:\n{e}\n{doc:#}");
    }
    (code, doc)
}

fn valid_games() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for game in [
        "survival-chess",
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
    ] {
        out.extend(util::fgn_files(&util::corpus().join(game).join("valid")));
    }
    out
}

fn rel(path: &Path) -> String {
    path.strip_prefix(util::root()).unwrap().display().to_string()
}

fn parse(text: &str) -> fgn_notation::Document {
    let parsed = fgn_notation::parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    parsed.document
}

#[test]
fn every_valid_game_is_the_same_as_itself_and_its_canonical_copy() {
    let schema = schema();
    for path in valid_games() {
        let file = rel(&path);
        for side in [None, Some("white"), Some("black")] {
            let mut args = vec![file.as_str(), file.as_str()];
            if let Some(s) = side {
                args.extend(["--as", s]);
            }
            let (code, doc) = json_diff(&schema, &args, b"");
            assert_eq!(code, Some(0), "{file} {side:?}: {doc:#}");
            assert_eq!(doc["same"], true);
        }
        // Comments, spacing and spellings of the same event do not count:
        // the copy `from-json` writes back has none of the comments.
        let json = fgn(&["json", &file], b"").stdout;
        let copy = fgn(&["from-json", "-"], &json).stdout;
        let (code, out, err) = run(&["diff", &file, "-"], &copy);
        assert_eq!(code, Some(0), "{file}: {out}{err}");
        assert!(out.starts_with("same: "), "{out}");
    }
}

/// Another legal action for the event at `index` (with its clock reading),
/// if the rules list one.
fn alternative(game: &Game, index: usize) -> Option<Event> {
    let mut replay = Replay::new(&game.header).ok()?;
    for e in game.events.iter().take(index) {
        replay.apply(e).ok()?;
    }
    let event = &game.events[index];
    let written = replay.canonical(event).unwrap_or_else(|| event.clone());
    replay
        .legal_actions()
        .into_iter()
        .map(|e| Event {
            clock_ms: event.clock_ms,
            ..e
        })
        .find(|e| e.to_string() != written.to_string())
}

#[test]
fn a_copy_with_one_event_changed_differs_at_that_line() {
    let schema = schema();
    let mut changed = 0;
    let games = valid_games();
    for path in &games {
        let file = rel(path);
        let text = std::fs::read_to_string(path).unwrap();
        let doc = parse(&text);
        let n = doc.game.events.len();
        // A later event where possible, else any that has an alternative.
        let Some((index, other)) = (n / 2..n)
            .chain(0..n / 2)
            .find_map(|i| alternative(&doc.game, i).map(|e| (i, e)))
        else {
            continue;
        };
        let line = doc.event_lines[index];
        let copy: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == line as usize {
                    other.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        let copy = copy.join("\n") + "\n";
        let (code, doc) = json_diff(&schema, &[&file, "-"], copy.as_bytes());
        assert_eq!(code, Some(1), "{file}: {doc:#}");
        assert_eq!(doc["event"]["index"], index, "{file}");
        assert_eq!(doc["event"]["a"]["line"], line, "{file}");
        assert_eq!(doc["event"]["b"]["line"], line, "{file}");
        assert_eq!(doc["event"]["b"]["text"], other.to_string(), "{file}");
        assert_eq!(doc["header"], Value::Null, "{file}");
        // Another legal action leaves another position.
        let there = doc["there"]["changes"].as_array().expect("positions compared");
        assert!(!there.is_empty(), "{file}: {doc:#}");
        let (code, out, _) = run(&["diff", &file, "-"], copy.as_bytes());
        assert_eq!(code, Some(1));
        assert!(
            out.contains(&format!("  A:{line}  ")) && out.contains(&format!("  B:{line}  {other}")),
            "{out}"
        );
        changed += 1;
    }
    assert!(
        changed + 4 >= games.len(),
        "only {changed} of {} games changed",
        games.len()
    );
}

#[test]
fn a_pinned_difference_in_words() {
    let file = "corpus/survival-chess/valid/03-promotion-default-queen.fgn";
    let text = std::fs::read_to_string(util::root().join(file)).unwrap();
    let copy = text.replace("2 b Nd8xe6", "2 b Nd8-c6");
    let (code, out, err) = run(&["diff", file, "-"], copy.as_bytes());
    assert_eq!(code, Some(1));
    insta::assert_snapshot!(format!("{out}--- stderr\n{err}"));
}

#[test]
fn headers_prefixes_and_rule_errors() {
    let schema = schema();
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let text = std::fs::read_to_string(util::root().join(file)).unwrap();
    let renamed = text.replace("[White \"", "[White \"X");
    let (code, doc) = json_diff(&schema, &[file, "-"], renamed.as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(doc["header"]["tag"], "White");
    assert_eq!(doc["event"], Value::Null, "the events are the same");
    assert_eq!(doc["end"]["changes"], serde_json::json!([]), "so are the positions");
    let (_, out, _) = run(&["diff", file, "-"], renamed.as_bytes());
    assert!(out.contains("header: the tag `White` differs"), "{out}");

    // B lacks A's last two events.
    let lines: Vec<&str> = text.lines().collect();
    let short = lines[..lines.len() - 2].join("\n") + "\n";
    let (code, doc) = json_diff(&schema, &[file, "-"], short.as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(doc["event"]["b"], Value::Null);
    assert!(doc["event"]["a"]["line"].is_u64());
    let (_, out, _) = run(&["diff", file, "-"], short.as_bytes());
    assert!(out.contains("  B: ends before it"), "{out}");

    // A rule error: compared as far as it replays, and said.
    let broken = text.replace("4 w Ba6xc8", "4 w Ba6-b8");
    let (code, doc) = json_diff(&schema, &[file, "-"], broken.as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(doc["b"]["error"]["rule"], "move", "{doc:#}");
    assert!(doc["end"]["b_events"].as_u64() < doc["end"]["a_events"].as_u64());
    let (_, _, err) = run(&["diff", file, "-"], broken.as_bytes());
    assert!(
        err.contains("<stdin>:") && err.contains("as far as it replays"),
        "{err}"
    );
    // Two copies of a log that breaks a rule are still the same.
    let same = scratch("broken.fgn", &broken);
    let (code, _, err) = run(&["diff", &same, &same], b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("[move]"), "{err}");
}

#[test]
fn help_explains_diff() {
    let (code, out, _) = run(&["--help"], b"");
    assert_eq!(code, Some(0));
    assert!(out.contains("diff"), "{out}");
    let (code, out, _) = run(&["help", "diff"], b"");
    assert_eq!(code, Some(0));
    assert!(out.contains("--as") && out.contains("Exit 2"), "{out}");
}

#[test]
fn unreadable_inputs_exit_2() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (code, _, err) = run(&["diff", file, "no/such/file.fgn"], b"");
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&["diff", "corpus/syntax-errors/se-01-bad-square.fgn", file], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("se-01-bad-square.fgn:"),
        "the syntax error is shown: {err}"
    );
    let (code, _, _) = run(&["diff", "corpus/survival-chess/valid", file], b"");
    assert_eq!(code, Some(2), "a folder is not a log");
    let (code, _, err) = run(&["diff", file], b"");
    assert_eq!(code, Some(2), "{err}");
}

/// An 8x8 open-world-chess game where black's first move is far from
/// every white piece, so white sees nothing of it.
const FOG: &str = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e3\n1 w end\n1 b a7-a6\n1 b end\n2 w d2-d3\n";

#[test]
fn as_a_player_a_difference_it_cannot_see_is_no_difference() {
    let schema = schema();
    let a = scratch("fog-a.fgn", FOG);
    let b = scratch("fog-b.fgn", &FOG.replace("1 b a7-a6", "1 b h7-h6"));
    let (code, doc) = json_diff(&schema, &[&a, &b, "--as", "white"], b"");
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc["same"], true);
    let (code, out, _) = run(&["diff", &a, &b, "--as", "white"], b"");
    assert_eq!(code, Some(0));
    assert!(out.starts_with("same: white's views"), "{out}");
    for side in [None, Some("black")] {
        let mut args = vec![a.as_str(), b.as_str()];
        args.extend(side.iter().flat_map(|s| ["--as", s]));
        let (code, doc) = json_diff(&schema, &args, b"");
        assert_eq!(code, Some(1), "{side:?}");
        assert!(doc["end"]["changes"].as_array().unwrap().contains(&serde_json::json!(
            {"type": "placed", "square": "h6", "color": "b", "piece": "P"}
        )));
    }

    // The opponent's setup edits are hidden: two orders of the same setup
    // are the same to the other player, and to the referee they are not.
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let text = std::fs::read_to_string(util::root().join(file)).unwrap();
    let black_place = text
        .lines()
        .find(|l| l.starts_with("0 b place"))
        .expect("black places")
        .split(';')
        .next()
        .unwrap()
        .trim()
        .to_string();
    let mut figures: Vec<&str> = black_place.split(' ').skip(3).collect();
    figures.reverse();
    let reordered = text.replace(&black_place, &format!("0 b place {}", figures.join(" ")));
    let b = scratch("setup-order.fgn", &reordered);
    let (code, _) = json_diff(&schema, &[file, &b, "--as", "white"], b"");
    assert_eq!(code, Some(0));
    let (code, doc) = json_diff(&schema, &[file, &b], b"");
    assert_eq!(code, Some(1));
    assert_eq!(doc["end"]["changes"], serde_json::json!([]), "the same position");
}

#[test]
fn views_compare_as_their_players() {
    let schema = schema();
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let view = fgn(&["view", "--as", "black", file], b"").stdout;
    let view = scratch("black.fgn", &String::from_utf8(view).unwrap());
    let (code, doc) = json_diff(&schema, &[&view, file], b"");
    assert_eq!(code, Some(0), "a view is compared with the log's view of its side");
    assert_eq!(doc["as"], "b");
    let (code, _, err) = run(&["diff", &view, file, "--as", "white"], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("black's view"), "{err}");
}

/// The kinds of the changes seen so far, each change checked against the
/// schema's `change` definition.
struct Kinds<'a> {
    schemas: &'a boon::Schemas,
    index: boon::SchemaIndex,
    seen: BTreeSet<String>,
    /// Every distinct change already checked, as JSON text: the same change
    /// comes up thousands of times (the pairs of end positions repeat the
    /// same squares and settings), and a value that validated once
    /// validates again, so each is checked once.
    checked: HashSet<String>,
}

impl Kinds<'_> {
    /// Checks every change of `changes` and notes its kind.
    fn add(&mut self, changes: &[fgn_replay::Change]) {
        for c in changes {
            let text = serde_json::to_string(c).unwrap();
            if self.checked.contains(&text) {
                continue;
            }
            let v: Value = serde_json::from_str(&text).unwrap();
            if let Err(e) = self.schemas.validate(&v, self.index) {
                panic!("{v} does not validate as a change: {e:#}");
            }
            self.seen.insert(v["type"].as_str().unwrap().to_string());
            self.checked.insert(text);
        }
    }
}

fn replay_to_end(game: &Game) -> Replay {
    let mut r = Replay::new(&game.header).unwrap();
    for e in game.events.iter() {
        r.apply(e).unwrap();
    }
    r
}

#[test]
fn the_schema_has_exactly_the_change_kinds_the_account_produces() {
    let path = util::root().join("docs").join("fgn-diff.schema.json");
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let in_schema: BTreeSet<String> = value["$defs"]["change"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["properties"]["type"]["const"].as_str().unwrap().to_string())
        .collect();
    let loc = path.display().to_string();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource(&loc, value).unwrap();
    let index = compiler.compile(&format!("{loc}#/$defs/change"), &mut schemas).unwrap();
    let mut kinds = Kinds {
        schemas: &schemas,
        index,
        seen: BTreeSet::new(),
        checked: HashSet::new(),
    };
    let mut ends = Vec::new();
    for path in valid_games() {
        let game = parse(&std::fs::read_to_string(&path).unwrap()).game;
        let mut replay = Replay::new(&game.header).unwrap();
        for e in game.events.iter() {
            let known = [Viewer::White, Viewer::Black].map(|v| replay.knowledge(v));
            let changes = replay.apply_changes(e).unwrap();
            kinds.add(&changes);
            for k in &known {
                kinds.add(&knowledge_changes(k, &replay.knowledge(k.viewer), Some(e)));
            }
        }
        ends.push(replay);
    }
    // What no event changes: the game, the viewer, the board and its
    // settings, which differ only between two games.
    let states: Vec<_> = ends.iter().map(Replay::state).collect();
    for a in &states {
        for b in &states {
            kinds.add(&state_changes(a, b, None));
        }
    }
    let (w, b) = (ends[0].knowledge(Viewer::White), ends[0].knowledge(Viewer::Black));
    kinds.add(&knowledge_changes(&w, &b, None));
    let plain =
        parse("[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b f6-e5\n2 w d4:f6\n");
    let magic = parse("[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n\n1 w c3-b4\n1 b d6-c5\n2 w b4:d6\n");
    let (x, y) = (replay_to_end(&plain.game), replay_to_end(&magic.game));
    kinds.add(&state_changes(&x.state(), &y.state(), None));
    assert_eq!(
        kinds.seen, in_schema,
        "produced kinds (left) against the schema's (right)"
    );
}
