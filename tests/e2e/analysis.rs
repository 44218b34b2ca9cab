//! Issue 14's analysis export and archive tools through the binary: the
//! summary `fgn json` carries (checked against what `show`, `hash` and
//! `validate` say of the same logs), `fgn events` rows (flat, one type per
//! column, counted against the games' own moves), `fgn select`'s filters
//! and duplicates, `fgn stats`, every new output against its schema, and
//! the export loaded into DuckDB for real.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{json, Value};

use crate::schema::Schema;
use crate::util::{self, fgn, run};

/// The lines of a run's standard output, each parsed as JSON.
fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = fgn(args, b"");
    assert!(
        matches!(out.status.code(), Some(0..=2)) && !out.stdout.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: not a JSON line ({e}): {l}")))
        .collect()
}

/// The corpus's documents by file, as `fgn json --ndjson corpus` writes them.
fn corpus_documents() -> BTreeMap<String, Value> {
    json_lines(&["json", "--ndjson", "corpus"])
        .into_iter()
        .map(|d| (d["file"].as_str().expect("a file").to_string(), d))
        .collect()
}

fn schema(name: &str) -> Schema {
    Schema::load_from(&util::root().join("docs").join(name))
}

fn assert_valid(schema: &Schema, doc: &Value, what: &str) {
    if let Some(e) = schema.errors(doc) {
        panic!("{what}: does not validate:\n{e}\n{doc}");
    }
}

#[test]
fn the_summary_agrees_with_show_hash_and_validate() {
    let docs = corpus_documents();
    let mut valid = 0;
    for (file, doc) in &docs {
        let s = &doc["summary"];
        if doc["type"] == "unreadable" {
            // A file that cannot be read has its object, with its syntax
            // error, and no game.
            assert!(file.contains("/syntax-errors/"), "{file}");
            assert_eq!(
                (&s["status"], &s["error"]["kind"]),
                (&json!("invalid"), &json!("syntax")),
                "{file}"
            );
            continue;
        }
        assert_eq!(doc["type"], "game", "{file}");
        assert_eq!(s["events"], doc["events"].as_array().map_or(0, Vec::len), "{file}");
        if file.contains("/views/") {
            assert_eq!(s["status"], "unsupported", "{file}");
            continue;
        }
        let (_, hash, _) = run(&["hash", file], b"");
        assert_eq!(
            s["log_hash"].as_str(),
            hash.split_whitespace().next(),
            "{file}: the summary's log hash is not fgn hash's"
        );
        let checked = fgn(&["--format", "json", "validate", file], b"");
        let verdict: Value = serde_json::from_slice(checked.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
        assert_eq!(s["status"], verdict["status"], "{file}");
        // One spelling per concept: validate's line gives a valid log's
        // phase and result as the summary does (it once gave one string,
        // "1-0 mate"), and nothing of them for an invalid one.
        for field in ["phase", "outcome", "reason"] {
            let expected = if s["status"] == "valid" {
                &s[field]
            } else {
                &Value::Null
            };
            assert_eq!(&verdict[field], expected, "{file}: {field}");
        }
        assert!(verdict.get("result").is_none(), "{file}: {verdict}");
        if s["status"] == "valid" {
            valid += 1;
            let (code, shown, err) = run(&["--format", "json", "show", file], b"");
            assert_eq!(code, Some(0), "{file}: {err}");
            let shown: Value = serde_json::from_str(&shown).expect("show writes JSON");
            assert_eq!(s["state_hash"], shown["state_hash"], "{file}");
            let status = &shown["state"]["progress"]["status"];
            assert_eq!(s["phase"], status["phase"], "{file}");
            assert_eq!(
                s["outcome"],
                status.get("outcome").cloned().unwrap_or(Value::Null),
                "{file}"
            );
            assert_eq!(
                s["reason"],
                status.get("reason").cloned().unwrap_or(Value::Null),
                "{file}"
            );
            assert_eq!(s["events_applied"], s["events"], "{file}");
        } else {
            // The error is the one validate reports, at the same place.
            let first: Value = String::from_utf8_lossy(&checked.stderr)
                .lines()
                .find_map(|l| serde_json::from_str(l).ok())
                .expect("validate reports the fault");
            let e = &s["error"];
            assert_eq!((&e["line"], &e["column"]), (&first["line"], &first["column"]), "{file}");
            if first["kind"] == "rule" {
                assert_eq!(e["rule"], first["rule"], "{file}");
                assert_eq!(e["message"], first["message"], "{file}");
            }
        }
    }
    assert!(valid >= 80, "only {valid} valid logs summarised");
}

#[test]
fn json_of_several_paths_is_one_array_and_from_json_reads_it_back() {
    let dir = "corpus/magic-draughts/valid";
    let (code, text, err) = run(&["json", dir], b"");
    assert_eq!(code, Some(0), "{err}");
    let all: Value = serde_json::from_str(&text).expect("fgn json DIR writes one JSON value");
    let docs = all.as_array().expect("an array");
    assert_eq!(docs.len(), util::fgn_files(&util::root().join(dir)).len());
    assert!(docs
        .iter()
        .all(|d| d["file"].as_str().is_some_and(|f| f.starts_with(dir))));
    // Two files give an array too, and no file that converts gives `[]`.
    let (_, two, _) = run(
        &[
            "json",
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
            "corpus/survival-chess/valid/03-promotion-default-queen.fgn",
        ],
        b"",
    );
    assert_eq!(
        serde_json::from_str::<Value>(&two).unwrap().as_array().map(Vec::len),
        Some(2)
    );
    // Files that cannot be read are accounted for, each by an object of
    // type `unreadable` with its summary.
    let (_, none, _) = run(
        &[
            "json",
            "corpus/syntax-errors/se-01-bad-square.fgn",
            "corpus/syntax-errors/se-02-unknown-action.fgn",
        ],
        b"",
    );
    let unreadable: Vec<Value> = serde_json::from_str(&none).unwrap();
    let lines: Vec<(&Value, &Value, &Value)> = unreadable
        .iter()
        .map(|d| {
            (
                &d["type"],
                &d["summary"]["error"]["line"],
                &d["summary"]["error"]["column"],
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            (&json!("unreadable"), &json!(4), &json!(8)),
            (&json!("unreadable"), &json!(9), &json!(5))
        ]
    );

    // The array and the NDJSON both come back as one file per game.
    for (form, args) in [("array", vec!["json", dir]), ("ndjson", vec!["json", "--ndjson", dir])] {
        // A folder that does not exist yet is made.
        let out_dir = util::scratch_dir(&format!("from-json-{form}")).join("games");
        let input = fgn(&args, b"").stdout;
        let out_arg = out_dir.display().to_string();
        let (code, _, err) = {
            let o = fgn(&["from-json", "--out-dir", &out_arg, "-"], &input);
            (
                o.status.code(),
                o.stdout,
                String::from_utf8_lossy(&o.stderr).into_owned(),
            )
        };
        assert_eq!(code, Some(0), "{form}: {err}");
        let written = util::fgn_files(&out_dir);
        assert_eq!(written.len(), docs.len(), "{form}");
        for (path, doc) in written.iter().zip(docs) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let original = Path::new(doc["file"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(name.ends_with(&original), "{name} is not named after {original}");
            let again = fgn(&["json", &path.display().to_string()], b"").stdout;
            let again: Value = serde_json::from_slice(&again).unwrap();
            assert_eq!(again["events"], doc["events"], "{form}: {name}");
            // The same summary, but for the lines of the warnings: the
            // canonical text has no comments, so a tag's line moves.
            let lineless = |summary: &Value| {
                let mut s = summary.clone();
                if let Some(warnings) = s["warnings"].as_array_mut() {
                    for w in warnings {
                        w.as_object_mut().expect("a warning").remove("line");
                    }
                }
                s
            };
            assert_eq!(lineless(&again["summary"]), lineless(&doc["summary"]), "{form}: {name}");
        }
        // A second run refuses to overwrite.
        let o = fgn(&["from-json", "--out-dir", &out_arg, "-"], &input);
        assert_eq!(o.status.code(), Some(2), "{form}: existing files are never overwritten");
    }
    // Several games without --out-dir are a usage error, not a merged log.
    let input = fgn(&["json", "--ndjson", dir], b"").stdout;
    let o = fgn(&["from-json", "-"], &input);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

/// Regression (issue 36): from-json took the last of two equal keys
/// silently (another JSON reader takes the first: two programs, two
/// games), and converted a document whose summary's `log_hash` was not its
/// game's, as if the hash vouched for nothing.
#[test]
fn from_json_refuses_duplicate_keys_and_a_log_hash_that_is_not_the_games() {
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (_, json, _) = run(&["json", log], b"");
    let (code, text, err) = run(&["from-json", "-"], json.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert!(text.starts_with("[Game \"survival-chess\"]"), "{text}");
    // A key twice, in an event, in the header, at the top; in a single
    // document, an NDJSON stream and an array.
    let twice = [
        json.replacen("\"n\": 1,", "\"n\": 1, \"n\": 2,", 1),
        json.replacen("\"White\": \"Anna\",", "\"White\": \"Anna\", \"White\": \"Eve\",", 1),
        json.replacen("\"version\": 4,", "\"version\": 4, \"version\": 4,", 1),
        format!("[{json}, {}]", json.replacen("\"n\": 1,", "\"n\": 1, \"n\": 1,", 1)),
    ];
    for (k, doc) in twice.iter().enumerate() {
        assert_ne!(doc, &json, "case {k} changed nothing");
        let (code, text, err) = run(&["from-json", "-"], doc.as_bytes());
        assert_eq!(code, Some(1), "case {k}: {err}");
        assert!(text.is_empty(), "case {k}: {text}");
        assert!(err.contains("twice"), "case {k}: {err}");
    }
    // A changed event or tag under the summary of the original.
    let changed = json.replacen("\"Anna\"", "\"Anne\"", 1);
    let (code, text, err) = run(&["from-json", "-"], changed.as_bytes());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        text.is_empty() && err.contains("the summary's \"log_hash\" is blake3:"),
        "{err}"
    );
    // Without a summary, or with a null hash, there is nothing to check.
    let mut bare: Value = serde_json::from_str(&changed).unwrap();
    bare["summary"]["log_hash"] = Value::Null;
    let (code, _, err) = run(&["from-json", "-"], bare.to_string().as_bytes());
    assert_eq!(code, Some(0), "{err}");
    bare.as_object_mut().unwrap().remove("summary");
    let (code, _, err) = run(&["from-json", "-"], bare.to_string().as_bytes());
    assert_eq!(code, Some(0), "{err}");
}

/// Regression for issue 14: version 1 documents, written by the fgn of
/// before version 2 (committed in tests/e2e/fixtures/json-v1), still read
/// back, the nested seen piece included, as the same games.
#[test]
fn from_json_reads_version_1_documents() {
    let fixtures = util::root().join("tests/e2e/fixtures/json-v1");
    let one = fixtures.join("owc-04-fog-10x10-in-progress.white.json");
    let v1 = std::fs::read_to_string(&one).unwrap();
    assert!(
        v1.contains("\"version\": 1") && v1.contains("\"piece\": {"),
        "the fixture is a version 1 document with a seen piece"
    );
    let (code, text, err) = run(&["from-json", &one.display().to_string()], b"");
    assert_eq!(code, Some(0), "{err}");
    // The view as fgn wrote it when the fixture was made, kept beside it:
    // issue 37 added `@ see SQUARE ?`, own pieces' maxima, `@ coins` and
    // `@ held` to open-world-chess views, so the corpus's views are newer.
    let old_views = fixtures.join("owc-views");
    let canonical = std::fs::read_to_string(old_views.join("owc-04-fog-10x10-in-progress.white.fgn")).unwrap();
    let events = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with('[') && !l.starts_with(';') && !l.is_empty())
            .map(|l| l.split(" ;").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(events(&text), events(&canonical));

    // Version 1's NDJSON and its stream of pretty documents (what `fgn
    // json DIR` wrote before it wrote an array).
    for name in ["owc-views.ndjson", "survival-views.pretty-stream.json"] {
        let out_dir = util::scratch_dir(&format!("v1-{name}"));
        let path = fixtures.join(name).display().to_string();
        let (code, _, err) = run(&["from-json", "--out-dir", &out_dir.display().to_string(), &path], b"");
        assert_eq!(code, Some(0), "{name}: {err}");
        // The games written are the corpus's views, by their log hashes
        // (the pretty stream of version 1 had no `file` to name them by).
        let game = if name.starts_with("owc") {
            "open-world-chess"
        } else {
            "survival-chess"
        };
        let hashes = |dir: &Path| -> BTreeSet<String> {
            let (_, sums, _) = run(&["hash", &dir.display().to_string()], b"");
            sums.lines()
                .map(|l| l.split_whitespace().next().unwrap().to_string())
                .collect()
        };
        // The fixtures were written before the corpus gained more views, so
        // each written game is one of the corpus's views, not all of them.
        let written = hashes(&out_dir);
        assert!(written.len() >= 2, "{name}");
        let views = match game {
            "open-world-chess" => hashes(&old_views),
            _ => hashes(&util::corpus().join(game).join("views")),
        };
        assert!(written.is_subset(&views), "{name}: {written:?} not among {views:?}");
    }
}

#[test]
fn events_rows_are_flat_and_count_what_the_games_did() {
    let rows = json_lines(&["events", "--ndjson", "--columns", "all", "corpus"]);
    let docs = corpus_documents();
    let schema = schema("fgn-events.schema.json");
    let keys: BTreeSet<String> = rows[0].as_object().unwrap().keys().cloned().collect();
    let mut types: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    let mut per_file: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for row in &rows {
        assert_valid(&schema, row, "an events row");
        let these: BTreeSet<String> = row.as_object().unwrap().keys().cloned().collect();
        assert_eq!(these, keys, "every row has the same columns");
        for (k, v) in row.as_object().unwrap() {
            let t = match v {
                Value::Null => continue,
                Value::Bool(_) => "bool",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            types.entry(k.clone()).or_default().insert(t);
        }
        per_file
            .entry(row["file"].as_str().unwrap().to_string())
            .or_default()
            .push(row);
    }
    for (k, t) in &types {
        assert_eq!(t.len(), 1, "column {k} has several JSON types: {t:?}");
    }
    assert!(!types.values().any(|t| t.contains("object")), "no column is an object");
    assert_eq!(
        per_file.keys().collect::<Vec<_>>(),
        docs.keys().collect::<Vec<_>>(),
        "rows for every file, as json has an object for every file"
    );
    let mut captures_checked = 0;
    for (file, rows) in &per_file {
        let doc = &docs[file];
        if doc["type"] == "unreadable" {
            // One row, with the error the summary gives.
            let (row, error) = (rows[0], &doc["summary"]["error"]);
            assert_eq!((rows.len(), &row["type"]), (1, &json!("unreadable")), "{file}");
            assert_eq!(
                (&row["error_line"], &row["error_column"]),
                (&error["line"], &error["column"]),
                "{file}"
            );
            continue;
        }
        assert!(
            rows.iter()
                .all(|r| r["type"] == "event" && r["status"] == doc["summary"]["status"]),
            "{file}"
        );
        let summary = &doc["summary"];
        assert_eq!(rows.len() as u64, summary["events"].as_u64().unwrap(), "{file}");
        assert_eq!(
            rows.iter().filter(|r| r["applied"] == true).count() as u64,
            summary["events_applied"].as_u64().unwrap(),
            "{file}"
        );
        let indices: Vec<u64> = rows.iter().map(|r| r["index"].as_u64().unwrap()).collect();
        assert_eq!(
            indices,
            (0..rows.len() as u64).collect::<Vec<_>>(),
            "{file}: rows in log order"
        );
        if let Some(last) = rows.iter().rev().find(|r| r["applied"] == true) {
            assert_eq!(last["state_hash"], summary["state_hash"], "{file}");
        }
        // In survival-chess every capture takes exactly one piece; in
        // draughts a capture takes one piece per jump.
        let game = summary["game"].as_str().unwrap_or_default();
        let applied = rows.iter().filter(|r| r["applied"] == true);
        let counted: u64 = applied.clone().map(|r| r["captures"].as_u64().unwrap()).sum();
        let expected: Option<u64> = match game {
            "survival-chess" => Some(
                applied
                    .filter(|r| r["action"] == "move" && r["capture"] == true)
                    .count() as u64,
            ),
            "magic-draughts" => Some(
                applied
                    .filter(|r| r["action"] == "draughts" && r["capture"] == true)
                    .map(|r| r["squares"].as_array().unwrap().len() as u64 - 1)
                    .sum(),
            ),
            _ => None,
        };
        if let Some(expected) = expected.filter(|_| summary["status"] == "valid") {
            assert_eq!(counted, expected, "{file}: captures");
            captures_checked += 1;
        }
    }
    assert!(
        captures_checked >= 40,
        "only {captures_checked} games' captures checked"
    );
}

#[test]
fn an_owc_fight_is_a_capture_and_a_death_with_hp() {
    let rows = json_lines(&[
        "events",
        "--ndjson",
        "--columns",
        "all",
        "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn",
    ]);
    let fight = rows
        .iter()
        .find(|r| r["event"] == "2 w Nd4xc6 {t=33}")
        .expect("the knight's fight");
    assert_eq!(
        (fight["captures"].as_u64(), fight["deaths"].as_u64()),
        (Some(1), Some(1))
    );
    let kinds: Vec<&str> = fight["consequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["hp", "died"]);
    assert_eq!(fight["consequences"][0]["delta"], -4);
    let result = rows
        .last()
        .filter(|r| r["action"] == "result")
        .or_else(|| rows.iter().rev().find(|r| r["action"] == "result"))
        .expect("a result");
    assert_eq!(result["phase"], "over");
    assert!(result["result_outcome"].is_string() && result["outcome"] == result["result_outcome"]);
}

#[test]
fn select_keeps_exactly_what_the_summaries_say() {
    let docs = corpus_documents();
    let pick = |args: &[&str]| -> BTreeSet<String> {
        let mut all = vec!["select"];
        all.extend_from_slice(args);
        all.push("corpus");
        let out = fgn(&all, b"");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    };
    let expect = |f: &dyn Fn(&Value) -> bool| -> BTreeSet<String> {
        docs.iter()
            .filter(|(_, d)| f(&d["summary"]))
            .map(|(k, _)| k.clone())
            .collect()
    };
    type Keeps = Box<dyn Fn(&Value) -> bool>;
    let cases: Vec<(Vec<&str>, Keeps)> = vec![
        (vec!["--outcome", "1-0"], Box::new(|s| s["outcome"] == "1-0")),
        (
            vec!["--outcome", "0-1", "--outcome", "1/2-1/2"],
            Box::new(|s| s["outcome"] == "0-1" || s["outcome"] == "1/2-1/2"),
        ),
        (
            vec!["--reason", "mate", "--valid"],
            Box::new(|s| s["reason"] == "mate" && s["status"] == "valid"),
        ),
        (
            vec!["--game", "magic-draughts", "--min-moves", "20", "--max-moves", "30"],
            Box::new(|s| s["game"] == "magic-draughts" && (20..=30).contains(&s["moves"].as_u64().unwrap())),
        ),
        (
            vec!["--player", "vk:1001"],
            Box::new(|s| s["white_id"] == "vk:1001" || s["black_id"] == "vk:1001"),
        ),
        (
            vec!["--black", "Boris"],
            Box::new(|s| s["black"] == "Boris" || s["black_id"] == "Boris"),
        ),
        (
            vec!["--since", "2025-03-15", "--until", "2025-03"],
            Box::new(|s| {
                s["date"]
                    .as_str()
                    .is_some_and(|d| ("2025-03-15".."2025-04").contains(&d))
            }),
        ),
        (
            vec!["--game", "survival-chess", "--valid"],
            Box::new(|s| s["game"] == "survival-chess" && s["status"] == "valid"),
        ),
    ];
    for (args, f) in cases {
        let got = pick(&args);
        assert!(!got.is_empty(), "{args:?} selects nothing in the corpus: a weak case");
        assert_eq!(got, expect(f.as_ref()), "{args:?}");
    }
    // Invalid logs include those with syntax errors, which no document has.
    let invalid = pick(&["--invalid"]);
    assert!(invalid.contains("corpus/syntax-errors/se-01-bad-square.fgn"));
    assert!(invalid.is_superset(&expect(&|s| s["status"] == "invalid")));
    // The JSON form is the summaries, in the same order, and validates.
    let select_schema = schema("fgn-select.schema.json");
    let lines = json_lines(&["--format", "json", "select", "--outcome", "1-0", "corpus"]);
    assert_eq!(
        lines
            .iter()
            .map(|l| l["file"].as_str().unwrap().to_string())
            .collect::<BTreeSet<_>>(),
        pick(&["--outcome", "1-0"])
    );
    for l in &lines {
        assert_valid(&select_schema, l, "a select line");
        assert_eq!(l["summary"], docs[l["file"].as_str().unwrap()]["summary"]);
    }
    // Bad filter values are usage errors.
    for bad in [["--outcome", "white"], ["--since", "March"], ["--reason", "checkmate"]] {
        let (code, _, err) = run(&["select", bad[0], bad[1], "corpus"], b"");
        assert_eq!(code, Some(2), "{bad:?}: {err}");
    }
}

#[test]
fn duplicates_are_found_by_log_hash_and_counted_once() {
    let dir = util::scratch_dir("analysis-duplicates");
    let original = util::corpus().join("survival-chess/valid/01-bishop-queen-mate.fgn");
    let text = std::fs::read_to_string(&original).unwrap();
    std::fs::write(dir.join("a.fgn"), &text).unwrap();
    // The same game with a comment and another spacing: the same log hash.
    std::fs::write(dir.join("b.fgn"), text.replacen("\n\n", "\n\n; downloaded twice\n", 1)).unwrap();
    std::fs::copy(
        util::corpus().join("survival-chess/valid/03-promotion-default-queen.fgn"),
        dir.join("c.fgn"),
    )
    .unwrap();
    let arg = dir.display().to_string();
    let (code, out, err) = run(&["select", "--duplicates", &arg], b"");
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("blake3:"));
    assert!(lines[1].ends_with("a.fgn") && lines[2].ends_with("b.fgn"), "{out}");
    let stats = json_lines(&["--format", "json", "stats", &arg]);
    assert_eq!(stats[0]["files"], 3);
    assert_eq!(stats[0]["games"][0]["logs"], 2, "the copy counts once");
    assert_eq!(stats[0]["duplicates"][0]["files"].as_array().unwrap().len(), 2);
    assert_valid(&schema("fgn-stats.schema.json"), &stats[0], "stats");
}

#[test]
fn stats_add_up_to_the_summaries() {
    let docs = corpus_documents();
    let stats = json_lines(&["--format", "json", "stats", "corpus"]);
    assert_eq!(stats.len(), 1);
    let stats = &stats[0];
    assert_valid(&schema("fgn-stats.schema.json"), stats, "stats of the corpus");
    for g in stats["games"].as_array().unwrap() {
        let name = g["game"].as_str();
        let Some(name) = name else { continue };
        let decided: Vec<&Value> = docs
            .values()
            .map(|d| &d["summary"])
            .filter(|s| s["game"] == name && s["status"] == "valid" && s["outcome"].is_string())
            .collect();
        assert_eq!(g["decided"].as_u64(), Some(decided.len() as u64), "{name}");
        let by_outcome = |o: &str| decided.iter().filter(|s| s["outcome"] == o).count() as u64;
        for (outcome, games) in g["outcomes"].as_object().unwrap() {
            assert_eq!(games.as_u64(), Some(by_outcome(outcome)), "{name}");
        }
        let r = &g["results"];
        assert_eq!(r["white_wins"].as_u64(), Some(by_outcome("1-0")), "{name}");
        assert_eq!(r["black_wins"].as_u64(), Some(by_outcome("0-1")), "{name}");
        assert_eq!(r["draws"].as_u64(), Some(by_outcome("1/2-1/2")), "{name}");
        assert_eq!(r["aborted"].as_u64(), Some(by_outcome("abort")), "{name}");
        // Every decisive game gives one player's win and the other's loss.
        let players = g["players"].as_array().unwrap();
        let sum = |k: &str| players.iter().map(|p| p["total"][k].as_u64().unwrap()).sum::<u64>();
        let decisive = by_outcome("1-0") + by_outcome("0-1");
        assert!(sum("wins") <= decisive && sum("losses") <= decisive, "{name}");
        let lengths = &g["lengths"];
        if let (Some(min), Some(max)) = (lengths["min"].as_u64(), lengths["max"].as_u64()) {
            let moves: Vec<u64> = decided.iter().map(|s| s["moves"].as_u64().unwrap()).collect();
            assert_eq!(
                (min, max),
                (*moves.iter().min().unwrap(), *moves.iter().max().unwrap()),
                "{name}"
            );
        }
    }
    let (code, text, _) = run(&["stats", "corpus/survival-chess/valid"], b"");
    assert_eq!(code, Some(0));
    assert!(text.contains("survival-chess: ") && text.contains("vk:1001"), "{text}");
}

/// Issue 38: `fgn stats`' counts per game kind are the sums of what the
/// events did, counted here on their own from `fgn events`' consequences
/// over generated games of all four kinds: a death is a `died`
/// consequence, a capture one of `captured`, `destroyed`,
/// `changed_sides`, or a `died` piece of the side opposing the side whose
/// move it is (the world's damage rolls resolve the last player's move),
/// coins spent and gained the falls and rises of `coins`, a spell cast a
/// `spell` row that is no `skip`, and a charge spent a row whose own
/// side's `charges` changed. Generated games seldom pick up a coin and
/// never reach a merchant with six, so two corpus games that shop join
/// them.
#[test]
fn stats_counts_are_the_events_consequences_summed() {
    let dir = util::scratch_dir("stats-counts");
    let arg = dir.display().to_string();
    for game in [
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
        "survival-chess",
    ] {
        let (code, _, err) = run(
            &[
                "gen", "-q", "--game", game, "--seed", "38", "--count", "25", "--out", &arg,
            ],
            b"",
        );
        assert_eq!(code, Some(0), "{err}");
    }
    for shop in ["owc-07-shop-every-item-curse.fgn", "owc-09-drain-kills-king.fgn"] {
        let from = util::corpus().join("open-world-chess/valid").join(shop);
        std::fs::copy(from, dir.join(shop)).expect("a corpus log");
    }
    let mut counted: BTreeMap<String, BTreeMap<&str, u64>> = BTreeMap::new();
    let mut mover = String::new();
    for row in json_lines(&["events", "--ndjson", "--columns", "all", &arg]) {
        let game = row["game"].as_str().unwrap().to_string();
        let c = counted.entry(game).or_default();
        if row["actor"] != "@" {
            mover = row["actor"].as_str().unwrap().to_string();
        }
        if row["applied"] != true {
            continue;
        }
        let mut add = |k: &'static str, n: u64| *c.entry(k).or_default() += n;
        if row["action"] == "spell" && row["spell"] != "skip" {
            add("spells_cast", 1);
        }
        for con in row["consequences"].as_array().unwrap() {
            let kind = con["kind"].as_str().unwrap();
            let delta = con["delta"].as_i64().unwrap_or(0);
            match kind {
                "captured" | "destroyed" | "changed_sides" => add("captures", 1),
                "died" => {
                    add("deaths", 1);
                    if con["color"].as_str() != Some(mover.as_str()) {
                        add("captures", 1);
                    }
                }
                "coins" if delta < 0 => add("coins_spent", delta.unsigned_abs()),
                "coins" => add("coins_gained", delta.unsigned_abs()),
                "charges" if con["color"] == row["actor"] => add("charges_spent", 1),
                _ => {}
            }
        }
    }
    let stats = &json_lines(&["--format", "json", "stats", "--counts", &arg])[0];
    assert_valid(&schema("fgn-stats.schema.json"), stats, "stats of generated games");
    let games = stats["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for g in games {
        let name = g["game"].as_str().unwrap();
        assert_eq!(g["valid"], g["logs"], "{name}: every log is valid");
        let expected = &counted[name];
        for (key, n) in g["counts"].as_object().unwrap() {
            assert_eq!(
                n.as_u64(),
                Some(expected.get(key.as_str()).copied().unwrap_or(0)),
                "{name}: {key}"
            );
        }
    }
    let by = |name: &str| &games.iter().find(|g| g["game"] == name).unwrap()["counts"];
    // Each kind's own counts are there to be checked.
    let owc = by("open-world-chess");
    for key in ["deaths", "coins_spent", "coins_gained"] {
        assert!(owc[key].as_u64() > Some(0), "{key}: {owc}");
    }
    assert!(by("great-war-chess")["charges_spent"].as_u64() > Some(0));
    assert!(by("magic-draughts")["spells_cast"].as_u64() > Some(0));
    assert!(by("survival-chess")["captures"].as_u64() > Some(0));
    // Without --counts the events are not replayed again, and each game
    // says so with null counts.
    let uncounted = &json_lines(&["--format", "json", "stats", &arg])[0];
    assert!(
        uncounted["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["counts"].is_null()),
        "{uncounted}"
    );
    let (_, plain, _) = run(&["stats", &arg], b"");
    assert!(!plain.contains("events:"), "{plain}");
    // The text output shows the counts that are not 0, and only those.
    let (_, text, _) = run(&["stats", "--counts", &arg], b"");
    let survival = text
        .split("\n\n")
        .find(|part| part.starts_with("survival-chess"))
        .unwrap();
    let captures = by("survival-chess")["captures"].as_u64().unwrap();
    assert!(
        survival.contains(&format!("  events:   captures {captures}\n")),
        "{survival}"
    );
}

/// Issue 38, item 4: `validate --format json` writes one `result` per file
/// the corpus holds, syntax errors included, each with the first fault as
/// the summary words it (`select --format json`'s), and then `totals`;
/// a file that cannot be read has no result and counts in `not_checked`.
#[test]
fn validate_writes_a_result_per_file_with_the_summarys_error_then_totals() {
    let summaries: BTreeMap<String, Value> = json_lines(&["--format", "json", "select", "corpus"])
        .into_iter()
        .map(|s| (s["file"].as_str().unwrap().to_string(), s["summary"].clone()))
        .collect();
    let mut lines = json_lines(&["--format", "json", "validate", "corpus", "corpus/no-such-file.fgn"]);
    let totals = lines.pop().expect("the totals");
    assert_eq!(totals["type"], "totals", "{totals}");
    assert_eq!(totals["not_checked"], 1, "{totals}");
    assert_eq!(lines.len(), summaries.len(), "a result for every file");
    let mut syntax = 0;
    for line in &lines {
        assert_eq!(line["type"], "result", "{line}");
        let file = line["file"].as_str().unwrap();
        let summary = &summaries[file];
        assert_eq!(line["status"], summary["status"], "{file}");
        assert_eq!(line["error"], summary["error"], "{file}");
        assert_eq!(line["error"].is_null(), line["status"] == "valid", "{file}");
        syntax += usize::from(line["error"]["kind"] == "syntax");
    }
    assert!(syntax >= 30, "the syntax errors have their results: {syntax}");
    let count = |status: &str| lines.iter().filter(|l| l["status"] == status).count();
    assert_eq!(totals["valid"].as_u64(), Some(count("valid") as u64));
    assert_eq!(totals["invalid"].as_u64(), Some(count("invalid") as u64));
    assert_eq!(totals["unsupported"].as_u64(), Some(count("unsupported") as u64));
}

/// Issue 38: every JSON object a command writes on standard output names
/// what it is in `type` (docs/json.md §17.4), right after `format` and
/// `version` where it has them, with one spelling per kind. `fgn rules
/// show`'s rules file is the one output without (§17.4 says why).
#[test]
fn every_object_on_standard_output_names_its_type() {
    let dir = util::scratch_dir("types");
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let other = "corpus/survival-chess/valid/02-back-rank-black-wins.fgn";
    let view = "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn";
    let copy = dir.join("copy.fgn").display().to_string();
    std::fs::copy(util::root().join(log), &copy).unwrap();
    let sums = dir.join("SUMS").display().to_string();
    std::fs::write(&sums, fgn(&["hash", log, other], b"").stdout).unwrap();
    let rules = dir.join("rules.json").display().to_string();
    std::fs::write(&rules, fgn(&["rules", "show", "survival-chess"], b"").stdout).unwrap();
    let appended = util::scratch(
        "types",
        "grow.fgn",
        b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n",
    );
    let bad = "corpus/syntax-errors/se-01-bad-square.fgn";
    let runs: [(&[&str], &[&str]); 23] = [
        (&["json", "--ndjson", log, bad], &["game", "unreadable"]),
        (&["json", log, bad], &["game", "unreadable"]),
        (&["events", log, bad], &["event", "unreadable"]),
        (&["events", "--schema", "json"], &["schema"]),
        (
            &["validate", log, "corpus/syntax-errors/se-01-bad-square.fgn"],
            &["result", "totals"],
        ),
        (&["rules", "check", &rules], &["result"]),
        (&["select", "corpus/survival-chess"], &["summary"]),
        (&["select", "--duplicates", log, &copy], &["duplicates"]),
        (&["stats", "corpus/survival-chess"], &["stats"]),
        (&["show", log], &["state"]),
        (&["show", "--as", "white", log], &["knowledge"]),
        (&["hash", log], &["hash"]),
        (&["hash", "--chain", log], &["chain"]),
        (&["hash", "--states", log], &["states"]),
        (&["hash", "--check", &sums], &["check"]),
        (&["verify-extends", log, log], &["extends"]),
        (&["verify-view", log, view], &["view"]),
        (&["diff", log, other], &["diff"]),
        (
            &["impact", "--rules", &rules, "corpus/survival-chess/valid"],
            &["impact", "totals"],
        ),
        (&["leaderboard", "corpus/survival-chess/valid"], &["leaderboard"]),
        (&["append", &appended, "1 w c3-d4"], &["append"]),
        (&["append", &appended, "1 w c3-d4"], &["refusal"]),
        (&["append", "--repair", &appended], &["repair"]),
    ];
    for (args, types) in runs {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let out = fgn(&all, b"");
        // `fgn json` of several files writes one array of its objects.
        let objects: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
            .into_iter::<Value>()
            .map(|v| v.unwrap_or_else(|e| panic!("{args:?}: not JSON ({e})")))
            .flat_map(|v| match v {
                Value::Array(items) => items,
                v => vec![v],
            })
            .collect();
        assert!(
            !objects.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut seen = BTreeSet::new();
        for object in &objects {
            let keys: Vec<&String> = object.as_object().expect("an object").keys().collect();
            let at = usize::from(keys.first() == Some(&&"format".to_string())) * 2;
            assert_eq!(keys.get(at).map(|k| k.as_str()), Some("type"), "{args:?}: {object}");
            seen.insert(object["type"].as_str().unwrap().to_string());
        }
        let expected: BTreeSet<String> = types.iter().map(|t| t.to_string()).collect();
        assert_eq!(seen, expected, "{args:?}");
    }
}

#[test]
fn the_new_outputs_do_not_depend_on_jobs() {
    for args in [
        &["events", "--ndjson", "corpus/magic-draughts"][..],
        &["--format", "json", "stats", "corpus"],
        &["select", "--valid", "corpus"],
        &["json", "corpus/great-war-chess"],
    ] {
        let with = |jobs: &str| {
            let mut all = vec!["--jobs", jobs];
            all.extend_from_slice(args);
            fgn(&all, b"").stdout
        };
        assert_eq!(with("1"), with("4"), "{args:?}");
    }
}

#[test]
fn every_json_output_validates_against_its_schema() {
    let validate = schema("fgn-validate.schema.json");
    let diagnostic = schema("fgn-diagnostic.schema.json");
    let hash = schema("fgn-hash.schema.json");
    let stderr_lines = |args: &[&str]| -> Vec<Value> {
        let out = fgn(args, b"");
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: stderr is not JSON lines ({e}): {l}"))
            })
            .collect()
    };
    let mut kinds = BTreeSet::new();
    let gen_out = util::scratch_dir("schema-gen").display().to_string();
    for args in [
        &["--format", "json", "validate", "corpus"][..],
        &["--format", "json", "json", "corpus"],
        &["--format", "json", "events", "--ndjson", "corpus"],
        &["--format", "json", "select", "corpus"],
        &["--format", "json", "hash", "corpus", "missing.fgn"],
        &["--format", "json", "select", "--outcome", "x", "corpus"],
        // A note: what --out wrote.
        &[
            "--format",
            "json",
            "gen",
            "--game",
            "survival-chess",
            "--seed",
            "1",
            "--force",
            "--out",
            &gen_out,
        ],
    ] {
        for line in stderr_lines(args) {
            assert_valid(&diagnostic, &line, &format!("{args:?}: a diagnostic"));
            kinds.insert(line["kind"].as_str().unwrap().to_string());
        }
    }
    for kind in ["syntax", "warning", "rule", "note", "error", "usage", "unsupported"] {
        assert!(kinds.contains(kind), "no diagnostic of kind {kind} was checked");
    }
    let lines = json_lines(&["--format", "json", "validate", "corpus"]);
    assert!(lines.len() > 200);
    for line in &lines {
        assert_valid(&validate, line, "a validate line");
    }
    let sums = util::scratch("analysis-sums", "corpus.sums", &fgn(&["hash", "corpus"], b"").stdout);
    for args in [
        &["--format", "json", "hash", "corpus"][..],
        &["--format", "json", "hash", "--chain", "corpus/survival-chess/valid"],
        &["--format", "json", "hash", "--states", "corpus/great-war-chess/valid"],
        &[
            "--format",
            "json",
            "hash",
            "--as",
            "black",
            "corpus/open-world-chess/valid",
        ],
        &["--format", "json", "hash", "--check", &sums],
        &[
            "--format",
            "json",
            "verify-extends",
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        ],
        &[
            "--format",
            "json",
            "verify-view",
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
            "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn",
        ],
    ] {
        let lines = json_lines(args);
        assert!(!lines.is_empty(), "{args:?}");
        for line in &lines {
            assert_valid(&hash, line, &format!("{args:?}"));
        }
    }
}

/// Where the DuckDB tests find Python with the `modules` they import
/// (`duckdb`, and for the tables' test `pandas` and `pyarrow`): `.ci/test`
/// installs them, pinned, and sets FGN_REQUIRE_DUCKDB, so that a missing
/// package fails the run there rather than skipping the test.
pub(crate) fn python_with(modules: &[&str]) -> Option<String> {
    let python = std::env::var("FGN_PYTHON").unwrap_or_else(|_| "python3".into());
    let import = format!("import {}", modules.join(", "));
    let ok = std::process::Command::new(&python)
        .args(["-c", &import])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    assert!(
        std::env::var_os("FGN_REQUIRE_DUCKDB").is_none(),
        "FGN_REQUIRE_DUCKDB is set but `{python} -c '{import}'` fails: install them with pip (.ci/test does, pinned)"
    );
    eprintln!("note: this test needs `{python}` with {modules:?} (pip install them); .ci/test runs it");
    None
}

#[test]
fn duckdb_loads_the_export_and_agrees_with_fgn() {
    let Some(python) = python_with(&["duckdb"]) else { return };
    let dir = util::scratch_dir("analysis-duckdb");
    let games = dir.join("games.ndjson");
    let events = dir.join("events.ndjson");
    std::fs::write(&games, fgn(&["json", "--ndjson", "corpus"], b"").stdout).unwrap();
    std::fs::write(
        &events,
        fgn(&["events", "--ndjson", "--columns", "all", "corpus"], b"").stdout,
    )
    .unwrap();
    // The queries an analyst starts with; each answer is printed as JSON
    // and compared with fgn's own counts below. Both files are read with
    // read_json_auto and nothing told about their columns.
    let script = r#"
import duckdb, json, sys
con = duckdb.connect()
con.execute("CREATE TABLE games AS SELECT * FROM read_json_auto(?, format='newline_delimited')", [sys.argv[1]])
con.execute("CREATE TABLE events AS SELECT * FROM read_json_auto(?, format='newline_delimited')", [sys.argv[2]])
types = {row[0]: row[1] for row in con.execute("DESCRIBE events").fetchall()}
out = {
  "types": types,
  "summary_type": con.execute("SELECT typeof(summary) FROM games LIMIT 1").fetchone()[0],
  "per_result": con.execute("SELECT summary.game, summary.outcome, summary.reason, count(*) FROM games WHERE summary.status = 'valid' AND summary.outcome IS NOT NULL GROUP BY ALL ORDER BY ALL").fetchall(),
  "unreadable": con.execute("SELECT count(*) FROM games WHERE type = 'unreadable' AND summary.error.kind = 'syntax'").fetchone()[0],
  "captures": con.execute("SELECT file, sum(captures)::BIGINT, count(*) FROM events WHERE applied GROUP BY file ORDER BY file").fetchall(),
  "events_per_game": con.execute("SELECT file, count(*) FROM events WHERE type = 'event' GROUP BY file ORDER BY file").fetchall(),
  "joined": con.execute("SELECT count(*) FROM games g JOIN (SELECT file, max(index) AS last FROM events WHERE type = 'event' GROUP BY file) e USING (file) WHERE g.summary.events = e.last + 1").fetchone()[0],
  "deaths": con.execute("SELECT count(*) FROM (SELECT unnest(consequences) AS c FROM events) WHERE c.kind = 'died'").fetchone()[0],
}
print(json.dumps(out))
"#;
    let out = std::process::Command::new(&python)
        .args([
            "-c",
            script,
            &games.display().to_string(),
            &events.display().to_string(),
        ])
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "the DuckDB script failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).expect("the script prints JSON");

    // No column is typed JSON (mixed types) by DuckDB's inference.
    let types = answer["types"].as_object().unwrap();
    for (column, t) in types {
        assert!(
            !t.as_str().unwrap().contains("JSON"),
            "DuckDB types the column {column} as {t}"
        );
    }
    assert_eq!(types["captures"], "BIGINT");
    assert!(
        types["consequences"].as_str().unwrap().starts_with("STRUCT("),
        "{}",
        types["consequences"]
    );
    assert!(
        answer["summary_type"].as_str().unwrap().starts_with("STRUCT("),
        "{}",
        answer["summary_type"]
    );

    // Games per result: fgn stats' counts.
    let docs = corpus_documents();
    let stats = &json_lines(&["--format", "json", "stats", "corpus"])[0];
    let mut from_stats = BTreeMap::new();
    for g in stats["games"].as_array().unwrap() {
        for (outcome, games) in g["outcomes"].as_object().unwrap() {
            from_stats.insert(
                (g["game"].as_str().unwrap().to_string(), outcome.clone()),
                games.as_u64().unwrap(),
            );
        }
    }
    let mut from_duckdb = BTreeMap::new();
    for row in answer["per_result"].as_array().unwrap() {
        let key = (
            row[0].as_str().unwrap().to_string(),
            row[1].as_str().unwrap().to_string(),
        );
        *from_duckdb.entry(key).or_insert(0) += row[3].as_u64().unwrap();
    }
    assert_eq!(from_duckdb, from_stats, "games per result");

    // Every file that cannot be read has its object.
    let unreadable = docs.values().filter(|d| d["type"] == "unreadable").count() as u64;
    assert_eq!(answer["unreadable"].as_u64(), Some(unreadable));
    assert!(unreadable > 10);

    // Captures and events per game: the rows fgn wrote, and the summaries.
    let rows = json_lines(&["events", "--ndjson", "corpus"]);
    let mut captures: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for r in rows.iter().filter(|r| r["applied"] == true) {
        let e = captures.entry(r["file"].as_str().unwrap().to_string()).or_default();
        e.0 += r["captures"].as_u64().unwrap();
        e.1 += 1;
    }
    let from_duckdb: BTreeMap<String, (u64, u64)> = answer["captures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_string(),
                (r[1].as_u64().unwrap(), r[2].as_u64().unwrap()),
            )
        })
        .collect();
    assert_eq!(from_duckdb, captures, "captures per game");
    assert!(
        captures.values().map(|c| c.0).sum::<u64>() > 100,
        "the corpus has captures"
    );
    for row in answer["events_per_game"].as_array().unwrap() {
        let file = row[0].as_str().unwrap();
        assert_eq!(row[1], docs[file]["summary"]["events"], "{file}: events per game");
    }
    assert_eq!(
        answer["events_per_game"].as_array().unwrap().len() as u64,
        docs.len() as u64 - unreadable
    );
    assert_eq!(
        answer["joined"].as_u64(),
        Some(
            docs.values()
                .filter(|d| d["type"] == "game" && d["summary"]["events"] != 0)
                .count() as u64
        )
    );
    let deaths: u64 = rows.iter().map(|r| r["deaths"].as_u64().unwrap()).sum();
    assert_eq!(answer["deaths"].as_u64(), Some(deaths));
    assert!(deaths > 0);
}

/// Regression (issue 39, item 12): `from-json` spelt its option
/// `--out-dir` where `gen` and `html` say `--out`, refused an existing file
/// with no way to overwrite it, and said nothing of what it wrote. It now
/// takes `--out` (the old spelling still read), `--force`, and says once on
/// standard error what it wrote (nothing with -q).
#[test]
fn from_json_out_says_what_it_wrote_and_overwrites_only_with_force() {
    let input = fgn(&["json", "--ndjson", "corpus/magic-draughts/valid"], b"").stdout;
    let games = input.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    assert!(games > 1);
    let out_dir = util::scratch_dir("from-json-out-policy").join("games");
    let out = out_dir.display().to_string();
    let (code, stdout, err) = run(&["from-json", "--out", &out, "-"], &input);
    assert_eq!((code, stdout.as_str()), (Some(0), ""), "{err}");
    assert_eq!(err, format!("wrote {games} files in {out}\n"));
    let first = util::fgn_files(&out_dir).remove(0);
    let made = std::fs::read(&first).unwrap();
    std::fs::write(&first, b"edited").unwrap();

    // Each existing file is refused, and the rest are still written.
    let (code, _, err) = run(&["from-json", "--out-dir", &out, "-"], &input);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.lines()
            .filter(|l| l.ends_with("not written: it already exists (--force overwrites it)"))
            .count(),
        games,
        "{err}"
    );
    assert!(err.ends_with(&format!("wrote 0 files in {out}\n")), "{err}");
    assert_eq!(std::fs::read(&first).unwrap(), b"edited");

    let (code, stdout, err) = run(&["-q", "from-json", "--out", &out, "--force", "-"], &input);
    assert_eq!((code, stdout.as_str(), err.as_str()), (Some(0), "", ""));
    assert_eq!(std::fs::read(&first).unwrap(), made);
}

/// Regression (issue 39, item 12): `events` refused to run without
/// `--ndjson`, its only form; the flag is still accepted.
#[test]
fn events_writes_ndjson_without_being_told_to() {
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let plain = fgn(&["events", log], b"");
    assert_eq!(
        plain.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&plain.stderr)
    );
    assert!(!plain.stdout.is_empty());
    assert_eq!(plain.stdout, fgn(&["events", "--ndjson", log], b"").stdout);
}

/// A folder of copies of one valid game, one per `Date` value, each file
/// named after its date's index; returns the folder.
fn dated_copies(folder: &str, dates: &[&str]) -> String {
    let dir = util::scratch_dir(folder);
    let text = std::fs::read_to_string(util::corpus().join("survival-chess/valid/01-bishop-queen-mate.fgn")).unwrap();
    assert!(text.contains("[Date \"2025-03-14\"]"));
    for (i, date) in dates.iter().enumerate() {
        let dated = text.replace("[Date \"2025-03-14\"]", &format!("[Date \"{date}\"]"));
        std::fs::write(dir.join(format!("d{i}.fgn")), dated).unwrap();
    }
    dir.display().to_string()
}

#[test]
fn select_compares_dates_as_dates_and_counts_the_logs_passed_over() {
    let dates = [
        "garbage",
        "14.03.2025",
        "2025.??.??",
        "2025.03.??",
        "2026-01-05",
        "2025.02.28",
    ];
    let dir = dated_copies("select-dates", &dates);
    let pick = |bounds: &[&str]| -> (Vec<usize>, String) {
        let (code, out, err) = run(&[&["select"], bounds, &[dir.as_str()]].concat(), b"");
        assert_eq!(code, Some(0), "{bounds:?}: {err}");
        let mut picked: Vec<usize> = out
            .lines()
            .map(|l| l.rsplit_once("/d").unwrap().1.trim_end_matches(".fgn").parse().unwrap())
            .collect();
        picked.sort();
        (picked, err)
    };
    // (bounds, the dates kept, how many are passed over)
    let cases: [(&[&str], &[usize], usize); 7] = [
        // "garbage" and a day-first date are no dates; a year-only date is
        // before 2026 whatever its month.
        (&["--since", "2026"], &[4], 2),
        (&["--until", "2025-02"], &[5], 3),
        // A year-only date is too vague for a month bound, and passed over.
        (&["--since", "2025-03"], &[3, 4], 3),
        (&["--since", "2025"], &[2, 3, 4, 5], 2),
        // 2025-3 is March 2025, as 2025-03.
        (&["--since", "2025-3", "--until", "2025-03"], &[3], 3),
        (&["--since", "2025.02.28", "--until", "2025-02-28"], &[5], 3),
        (&["--game", "survival-chess"], &[0, 1, 2, 3, 4, 5], 0),
    ];
    for (bounds, kept, passed_over) in cases {
        let (picked, err) = pick(bounds);
        assert_eq!(picked, kept, "{bounds:?}");
        if passed_over == 0 {
            assert_eq!(err, "", "{bounds:?}");
        } else {
            let logs = if passed_over == 1 { "log" } else { "logs" };
            assert!(
                err.contains(&format!("{passed_over} {logs} passed over by --since/--until")),
                "{bounds:?}: {err}"
            );
        }
    }
    // In JSON the count comes as a note on standard error; --quiet leaves it out.
    let (_, _, err) = run(&["--format", "json", "select", "--since", "2026", &dir], b"");
    let note: Value = serde_json::from_str(err.trim()).expect("one JSON note");
    assert_eq!(note["kind"], "note");
    assert!(
        note["message"].as_str().unwrap().starts_with("2 logs passed over"),
        "{note}"
    );
    let (_, _, err) = run(&["-q", "select", "--since", "2026", &dir], b"");
    assert_eq!(err, "");
}

#[test]
fn impossible_date_bounds_are_usage_errors() {
    for (bound, message) in [
        ("2025-13", "2025-13 is no date: months are 1 to 12"),
        ("2025-00", "2025-00 is no date: months are 1 to 12"),
        ("2025-02-30", "2025-02-30 is no date: 2025-02 has days 1 to 28"),
        ("2025-3-7x", "expected YYYY, YYYY-MM or YYYY-MM-DD"),
        ("25-03", "expected YYYY, YYYY-MM or YYYY-MM-DD"),
    ] {
        for option in ["--since", "--until"] {
            let (code, out, err) = run(&["select", option, bound, "corpus"], b"");
            assert_eq!(code, Some(2), "{option} {bound}: {err}");
            assert!(out.is_empty() && err.contains(message), "{option} {bound}: {err}");
        }
    }
}

#[test]
fn contradictory_select_filters_are_usage_errors() {
    for (filters, message) in [
        (
            &["--valid", "--invalid"][..],
            "--valid and --invalid exclude each other",
        ),
        (
            &["--min-moves", "50", "--max-moves", "10"][..],
            "--min-moves 50 is more than --max-moves 10",
        ),
        (
            &["--since", "2025-04", "--until", "2025-03-31"][..],
            "--since 2025-04 is after --until 2025-03-31",
        ),
    ] {
        let (code, out, err) = run(&[&["select"], filters, &["corpus"]].concat(), b"");
        assert_eq!(code, Some(2), "{filters:?}: {err}");
        assert!(out.is_empty(), "{filters:?}: {out}");
        assert_eq!(err, format!("error: {message}: no log can match\n"), "{filters:?}");
    }
    // Bounds that meet are no contradiction: the one month, the one length.
    let (code, _, err) = run(
        &[
            "select",
            "--since",
            "2025-03",
            "--until",
            "2025-03",
            "--min-moves",
            "5",
            "--max-moves",
            "5",
            "corpus",
        ],
        b"",
    );
    assert!(matches!(code, Some(0 | 1)), "{err}");
    assert!(!err.contains("no log can match"), "{err}");
}
