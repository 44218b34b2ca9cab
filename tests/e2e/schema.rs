//! The JSON Schema of the JSON form, `docs/fgn-game.schema.json`: it is a
//! valid draft 2020-12 schema, every document `fgn json` writes (pretty and
//! `--ndjson`, corpus and inline samples of every action of every game)
//! validates against it, and documents that are not FGN JSON games are
//! rejected by it and by `fgn from-json` alike.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::util;

/// Small logs that between them use every action type of every game, and
/// every spell. Syntax only: they need not be legal games.
const SAMPLES: &[(&str, &str)] = &[
    (
        "survival-chess",
        r#"[Game "survival-chess"]
[Rules "1.0"]
[White "Anna \"A\" \\ B"]
[TimeControl "setup=120 move=60"]

0 w place Ke1 Qd1 Pe2
0 w remove e2
0 b place KE12 Qd12
0 w ready {t=1.5}
0 b ready
1 w Pe2-e4
1 b Qd12xd1+
2 w e11-e12=Q#
2 w e11-e12
2 b chat "gg; \"well\" played"
2 @ timeout w
2 b extra yes
2 w extra no
2 w resign
2 @ result 0-1 resign {t=12.345}
"#,
    ),
    (
        "survival-chess-view",
        r#"[Game "survival-chess"]
[Rules "1.0"]
[Perspective "white"]

0 w place Ke1
0 w ready
0 @ setup b Ke12 Qd12
1 w e2-e4
"#,
    ),
    (
        "open-world-chess",
        r#"[Game "open-world-chess"]
[Rules "1.0"]
[Merchants "d5 E4"]
[TimeControl "move=60 setup=120"]
[SeedCommit "blake3:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"]

0 w salt 5eed
0 b salt 00112233445566778899aabbccddeeff
0 @ spawn e5 regen
0 @ spawn f6 coin
1 w e2-e4
1 w Ng1-f3
1 w end
1 b buy range e11
1 b buy hp d11
1 b buy drain d2
1 b buy curse
1 b Qd12xd2 {t=3}
1 @ damage d4 3
1 @ clone f5
1 @ spawn g7 kinghp
2 @ timeout w
2 b extra no
2 @ result 0-1 king-killed
2 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
"#,
    ),
    (
        "open-world-chess-view",
        r#"[Game "open-world-chess"]
[Rules "1.0"]
[Perspective "black"]

1 w ?
1 w N?-e5
1 w Ne5-?
1 w buy drain ?
1 w buy hp e2
1 @ see f6 regen
1 @ see e5 bN:5
1 @ see e6 wQ:12 coin
1 @ see f6 empty
1 @ see e7 bQ:7/9
1 @ see f6 ?
1 @ coins 3
1 @ held e4
"#,
    ),
    (
        "great-war-chess",
        r#"[Game "great-war-chess"]
[Rules "1.0"]
[Board "12x12"]

0 w place Ib2 Cb2 Ad1 Fe3
0 w remove Cb2
0 b place IB11 Cb11
0 w ready
0 b ready
1 w Ib2-b3
1 w CAIb2-c3
1 w ICb2xb7
1 w Ad1*d6
1 w end
1 b chat ""
1 b resign
1 @ result 1-0 no-infantry
"#,
    ),
    (
        "great-war-chess-view",
        r#"[Game "great-war-chess"]
[Rules "1.0"]
[Perspective "white"]

0 w place Ib2
0 w ready
0 @ setup b Ib11 Cb11 Fe10
"#,
    ),
    (
        "magic-draughts",
        r#"[Game "magic-draughts"]
[Rules "1.0"]
[Magic "on"]

0 b salt ff
1 w c3-d4
1 b f6:d4:b2
1 @ reveal d4 2
1 @ reveal c3 0
2 w spell 1 c
2 w spell 2 d6 h2
2 w spell 3 e3 a5
2 w spell 4 c7
2 w spell 5 a1 c1 e3
2 w spell 5
2 w spell 2 skip
2 w a1-h8
2 b resign
2 @ result 1-0 resign
2 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
"#,
    ),
];

fn schema_path() -> PathBuf {
    util::root().join("docs").join("fgn-game.schema.json")
}

fn schema_value() -> Value {
    let path = schema_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A compiled schema.
pub struct Schema {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Schema {
    fn load() -> Schema {
        Schema::load_from(&schema_path())
    }

    /// The schema in the file `path`, compiled (which checks it against
    /// the draft 2020-12 metaschema). Every schema under docs/ is known by
    /// its `$id`, so that one may refer to another's definitions (the
    /// summary is the game schema's, the groups of duplicates the select
    /// schema's).
    pub fn load_from(path: &Path) -> Schema {
        let read = |path: &Path| -> Value {
            let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        };
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V2020_12);
        let id = |value: &Value, path: &Path| -> String {
            value["$id"]
                .as_str()
                .map_or_else(|| path.display().to_string(), str::to_string)
        };
        let docs = util::root().join("docs");
        for entry in std::fs::read_dir(&docs).expect("docs/ is readable") {
            let other = entry.expect("a docs/ entry").path();
            if other.to_string_lossy().ends_with(".schema.json") {
                let value = read(&other);
                compiler
                    .add_resource(&id(&value, &other), value)
                    .unwrap_or_else(|e| panic!("{e:#}"));
            }
        }
        let value = read(path);
        let loc = id(&value, path);
        if !path.starts_with(&docs) {
            compiler.add_resource(&loc, value).unwrap_or_else(|e| panic!("{e:#}"));
        }
        // Compiling checks the schema against the draft 2020-12 metaschema.
        let index = compiler
            .compile(&loc, &mut schemas)
            .unwrap_or_else(|e| panic!("the schema does not compile: {e:#}"));
        Schema { schemas, index }
    }

    /// The validation errors of `doc`, or `None` when it is valid.
    pub fn errors(&self, doc: &Value) -> Option<String> {
        self.schemas.validate(doc, self.index).err().map(|e| format!("{e:#}"))
    }

    fn assert_valid(&self, doc: &Value, what: &str) {
        if let Some(e) = self.errors(doc) {
            panic!("{what}: `fgn json` output does not validate against the schema:\n{e}\n{doc:#}");
        }
    }
}

/// `fgn json` of one log given on standard input: the document.
fn json_of(text: &str) -> Value {
    let out = util::fgn(&["json", "-"], text.as_bytes());
    assert!(
        out.status.success(),
        "fgn json failed on a sample: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("fgn json writes one JSON document")
}

/// The corpus's logs: those with syntax errors (which `fgn json` may
/// refuse), and every other log (which it must convert).
fn corpus_logs() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let corpus = util::corpus();
    assert!(corpus.is_dir(), "{} is missing", corpus.display());
    let syntax_errors = corpus.join("syntax-errors");
    util::fgn_files(&corpus)
        .into_iter()
        .partition(|p| p.starts_with(&syntax_errors))
}

/// Checks that the logs `checked` take in the valid and invalid logs of
/// every game, so that a test over the corpus cannot pass by finding none.
fn assert_every_game_is_covered(checked: &[PathBuf]) {
    for game in [
        "survival-chess",
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
    ] {
        for kind in ["valid", "invalid"] {
            let folder = util::corpus().join(game).join(kind);
            assert!(
                checked.iter().any(|p| p.starts_with(&folder)),
                "no log of {} was checked",
                folder.display()
            );
        }
    }
}

/// The action types (and `spell/KIND`s) that the events of `doc` use.
fn action_types(doc: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for event in doc["events"].as_array().expect("events is an array") {
        let action = &event["action"];
        let kind = action["type"].as_str().expect("an action has a type").to_string();
        if let Some(spell) = action["spell"].as_str() {
            out.insert(format!("spell/{spell}"));
        }
        out.insert(kind);
    }
    out
}

#[test]
fn schema_is_json_and_compiles() {
    let schema = schema_value();
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    Schema::load();
}

#[test]
fn samples_of_every_action_validate() {
    let schema = Schema::load();
    let mut seen = BTreeSet::new();
    for (name, text) in SAMPLES {
        let doc = json_of(text);
        schema.assert_valid(&doc, name);
        seen.extend(action_types(&doc));
    }
    // The samples use every action type the schema knows, and the schema
    // knows every type the samples produce: a new action needs both.
    let value = schema_value();
    let mut known: BTreeSet<String> = value["$defs"]["action"]["properties"]["type"]["enum"]
        .as_array()
        .expect("the schema lists the action types")
        .iter()
        .map(|t| t.as_str().expect("a type is a string").to_string())
        .collect();
    for spell in value["$defs"]["action-spell"]["properties"]["spell"]["enum"]
        .as_array()
        .expect("the schema lists the spells")
    {
        known.insert(format!("spell/{}", spell.as_str().expect("a spell is a string")));
    }
    assert_eq!(seen, known, "the samples and the schema's list of action types differ");
}

#[test]
fn corpus_json_validates() {
    let schema = Schema::load();
    let (syntax_errors, logs) = corpus_logs();
    let mut checked = Vec::new();
    for path in logs.iter().chain(&syntax_errors) {
        let arg = path.display().to_string();
        let out = util::fgn(&["json", &arg], b"");
        if !out.status.success() {
            // Only a log with syntax errors may fail to convert; which of
            // them do is pinned by the corpus tests.
            assert!(
                syntax_errors.contains(path),
                "{arg}: fgn json fails: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            continue;
        }
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{arg}: fgn json did not write one JSON document: {e}"));
        schema.assert_valid(&doc, &arg);
        checked.push(path.clone());
    }
    // A missing or moved corpus folder would leave nothing to check.
    assert_every_game_is_covered(&checked);
}

#[test]
fn ndjson_lines_validate() {
    let schema = Schema::load();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("schema-ndjson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    for (name, text) in SAMPLES {
        std::fs::write(dir.join(format!("{name}.fgn")), text).expect("a sample file");
    }
    let arg = dir.display().to_string();
    let out = util::fgn(&["json", "--ndjson", &arg], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let lines: Vec<&str> = stdout.lines().collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(lines.len(), SAMPLES.len(), "one line per log:\n{stdout}");
    for line in lines {
        let doc: Value = serde_json::from_str(line).expect("each line is one JSON document");
        let file = doc["file"].as_str().expect("--ndjson names the file");
        assert!(file.ends_with(".fgn"), "{file}");
        schema.assert_valid(&doc, file);
    }

    // Standard input has no file name, so no "file" field.
    let out = util::fgn(&["json", "--ndjson", "-"], SAMPLES[0].1.as_bytes());
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert!(doc.get("file").is_none(), "{doc}");
    schema.assert_valid(&doc, "stdin");

    // The whole corpus in one run: a line for every log without syntax
    // errors (and for those with syntax errors that still convert), and
    // every line validates.
    let (_, logs) = corpus_logs();
    let arg = util::corpus().display().to_string();
    let out = util::fgn(&["json", "--ndjson", &arg], b"");
    let mut files = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let doc: Value = serde_json::from_str(line).expect("each line is one JSON document");
        let file = doc["file"].as_str().expect("--ndjson names the file");
        schema.assert_valid(&doc, file);
        files.push(PathBuf::from(file));
    }
    let missing: Vec<&PathBuf> = logs.iter().filter(|p| !files.contains(p)).collect();
    assert!(missing.is_empty(), "--ndjson left out {missing:?}");
    assert_every_game_is_covered(&files);
}

/// A valid document to spoil: white moves e2-e4 in survival-chess.
fn base() -> Value {
    json!({
        "format": "fgn",
        "version": 4,
        "type": "game",
        "header": {"Game": "survival-chess", "Rules": "1.0"},
        "events": [
            {"n": 0, "actor": "w", "action": {"type": "place", "placements": [{"figure": "K", "square": "e1"}]}},
            {
                "n": 1,
                "actor": "w",
                "action": {
                    "type": "move", "piece": "P", "from": "e2", "to": "e4",
                    "capture": false, "promotion": null, "check": null
                },
                "clock_ms": 1500
            }
        ]
    })
}

/// A current (version 4) open-world-chess view that sees a black knight on
/// e5, its piece spelled as versions 2 to 4 do (`flat`) or as version 1 did.
pub fn seen_piece(flat: bool) -> Value {
    let action = if flat {
        json!({"type": "see", "square": "e5", "color": "b", "piece": "N", "hp": 5})
    } else {
        json!({"type": "see", "square": "e5", "piece": {"color": "b", "piece": "N", "hp": 5}})
    };
    json!({
        "format": "fgn",
        "version": 4,
        "type": "game",
        "header": {"Game": "open-world-chess", "Rules": "1.2", "Perspective": "white"},
        "events": [{"n": 1, "actor": "@", "action": action}]
    })
}

fn from_json_accepts(doc: &Value) -> bool {
    util::fgn(&["from-json", "-"], doc.to_string().as_bytes())
        .status
        .success()
}

#[test]
fn schema_accepts_what_serde_accepts() {
    let schema = Schema::load();
    let doc = base();
    assert_eq!(schema.errors(&doc), None);
    assert!(from_json_accepts(&doc));
    // Version 2's seen piece is three fields of `see`; version 1's nested
    // object is refused in a version 3 document by both.
    assert_eq!(schema.errors(&seen_piece(true)), None);
    assert!(from_json_accepts(&seen_piece(true)));
    assert!(!from_json_accepts(&seen_piece(false)));
    // Optional fields may be null or left out on input.
    let spelled: [(&str, Value); 5] = [
        (
            "clock_ms null",
            json!({"n": 0, "actor": "w", "action": {"type": "ready"}, "clock_ms": null}),
        ),
        (
            "move without promotion and check",
            json!({"n": 1, "actor": "w", "action": {"type": "move", "piece": "P", "from": "e2", "to": "e4", "capture": false}}),
        ),
        (
            "remove with unit null",
            json!({"n": 0, "actor": "w", "action": {"type": "remove", "unit": null, "square": "e2"}}),
        ),
        (
            "chat with quotes",
            json!({"n": 0, "actor": "b", "action": {"type": "chat", "text": "a \"b\" \\ ; c"}}),
        ),
        (
            "result",
            json!({"n": 1, "actor": "@", "action": {"type": "result", "outcome": "1/2-1/2", "reason": "stalemate"}}),
        ),
    ];
    for (what, event) in spelled {
        let mut doc = base();
        doc["events"].as_array_mut().expect("events").push(event);
        assert_eq!(schema.errors(&doc), None, "{what}");
        assert!(from_json_accepts(&doc), "fgn from-json rejects {what}");
    }
}

#[test]
fn schema_rejects_invalid_documents() {
    let schema = Schema::load();
    type Spoil = fn(&mut Value);
    let spoils: [(&str, Spoil); 19] = [
        ("unknown action type", |d| {
            d["events"][1]["action"]["type"] = json!("castle")
        }),
        ("square off the board", |d| {
            d["events"][1]["action"]["to"] = json!("e27")
        }),
        ("square with rank 0", |d| d["events"][1]["action"]["to"] = json!("e0")),
        ("missing capture", |d| {
            d["events"][1]["action"]
                .as_object_mut()
                .expect("action")
                .remove("capture");
        }),
        ("missing placements", |d| {
            d["events"][0]["action"]
                .as_object_mut()
                .expect("action")
                .remove("placements");
        }),
        ("missing header", |d| {
            d.as_object_mut().expect("doc").remove("header");
        }),
        ("missing Game tag", |d| {
            d["header"].as_object_mut().expect("header").remove("Game");
        }),
        ("unknown event field", |d| d["events"][1]["comment"] = json!("nice")),
        ("unknown top-level field", |d| d["comments"] = json!([])),
        ("version 5", |d| d["version"] = json!(5)),
        ("a game typed unreadable", |d| d["type"] = json!("unreadable")),
        ("no type", |d| {
            d.as_object_mut().expect("an object").remove("type");
        }),
        ("a player's action by the world", |d| {
            d["events"][1]["actor"] = json!("@")
        }),
        ("a draughts move in survival-chess", |d| {
            d["events"][1]["action"] = json!({"type": "draughts", "path": ["c3", "d4"], "capture": false});
        }),
        ("a hidden square in a full log", |d| {
            d["events"][1]["action"]["from"] = Value::Null
        }),
        ("a promotion to a king", |d| {
            d["events"][1]["action"]["promotion"] = json!("K")
        }),
        ("a Perspective tag saying everyone", |d| {
            d["header"]["Perspective"] = json!("everyone")
        }),
        ("a summary without its fields", |d| {
            d["summary"] = json!({"status": "valid"})
        }),
        ("version 1's nested seen piece", |d| *d = seen_piece(false)),
    ];
    for (what, spoil) in spoils {
        let mut doc = base();
        spoil(&mut doc);
        assert!(schema.errors(&doc).is_some(), "the schema accepts {what}:\n{doc:#}");
    }
}
