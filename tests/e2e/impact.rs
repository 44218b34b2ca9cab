//! `fgn impact` and rules files: what changed rules do to the corpus, rules
//! files keyed by game over a mixed archive, `--rules` winning over header
//! tags, bad rules files, and `--resimulate` (the referee reproducing every
//! seed-revealed corpus game, and a changed parameter changing its course).

use std::path::PathBuf;

use serde_json::Value;

use crate::schema::Schema;
use crate::util::{self, fgn};

/// A rules file with `json` in the test's scratch folder, by `name`.
fn rules_file(name: &str, json: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("impact-{name}.json"));
    std::fs::write(&path, json).expect("a writable scratch folder");
    path.display().to_string()
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = fgn(args, b"");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `fgn --format json impact ...`: the game lines and the summary, each
/// checked against docs/fgn-impact.schema.json.
fn impact_json(args: &[&str]) -> (Option<i32>, Vec<Value>, Value) {
    let schema = Schema::load_from(&util::root().join("docs").join("fgn-impact.schema.json"));
    let mut all = vec!["--format", "json", "impact"];
    all.extend_from_slice(args);
    let r = run(&all);
    let mut lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    for line in &lines {
        if let Some(e) = schema.errors(line) {
            panic!("{e}\n{line:#}");
        }
    }
    let summary = lines.pop().expect("a summary line");
    (r.code, lines, summary["summary"].clone())
}

/// The corpus files of `game` (valid ones) that reveal their seed.
fn seeded(game: &str) -> Vec<String> {
    util::fgn_files(&util::corpus().join(game).join("valid"))
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .any(|l| l.contains(" @ seed "))
        })
        .map(|p| p.strip_prefix(util::root()).unwrap().display().to_string())
        .collect()
}

/// Issue #10's "done when": lowering `moves_per_turn` to 2 makes impact
/// report the open-world-chess corpus games it breaks, each with its first
/// failing event, which is the one `fgn validate --rules` names.
#[test]
fn lowering_moves_per_turn_to_two_reports_the_games_it_breaks_with_their_first_failing_event() {
    let rules = rules_file("moves2", r#"{"open-world-chess": {"moves_per_turn": 2}}"#);
    let (code, games, summary) = impact_json(&["--rules", &rules, "corpus/open-world-chess/valid"]);
    assert_eq!(code, Some(1));
    let broken: Vec<&Value> = games
        .iter()
        .filter(|g| g["changes"].as_array().unwrap().contains(&"became-invalid".into()))
        .collect();
    assert!(broken.len() >= 10, "{} broken of {}", broken.len(), games.len());
    assert_eq!(summary["by_change"]["became-invalid"], broken.len());
    for g in &broken {
        let file = g["file"].as_str().unwrap();
        assert_eq!(g["before"]["valid"], true, "{file}");
        let failure = &g["after"]["failure"];
        let (line, column, rule) = (&failure["line"], &failure["column"], failure["rule"].as_str().unwrap());
        let v = run(&["validate", "--rules", &rules, file]);
        assert_eq!(v.code, Some(1), "{file}: {}", v.stderr);
        let expected = format!(
            "{file}:{line}:{column}: [{rule}] `{}`",
            failure["event"].as_str().unwrap()
        );
        assert!(
            v.stderr.contains(&expected),
            "impact names {expected}, validate says:\n{}",
            v.stderr
        );
        // The event named is really on that line of the file.
        let text = std::fs::read_to_string(util::root().join(file)).unwrap();
        let logged = text.lines().nth(line.as_u64().unwrap() as usize - 1).unwrap();
        let event = failure["event"].as_str().unwrap();
        let move_part = event.split(" {").next().unwrap();
        assert!(logged.contains(move_part), "{file}:{line}: {logged} is not {event}");
    }
    // The text report names each broken game and its first failing event.
    let text = run(&["impact", "--rules", &rules, "corpus/open-world-chess/valid"]);
    assert_eq!(text.code, Some(1));
    for g in &broken {
        let file = g["file"].as_str().unwrap();
        assert!(
            text.stdout.contains(&format!("{file}: became-invalid")),
            "{}",
            text.stdout
        );
        let line = &g["after"]["failure"]["line"];
        assert!(
            text.stdout.contains(&format!("first failing event: line {line}:")),
            "{}",
            text.stdout
        );
    }
    assert!(text.stdout.contains("games checked"), "{}", text.stdout);
    // Regression: `--quiet` printed the summary table too. It keeps the
    // games that changed, the output asked for, and leaves out the table.
    let quiet = run(&["--quiet", "impact", "--rules", &rules, "corpus/open-world-chess/valid"]);
    assert_eq!(quiet.code, Some(1));
    assert!(!quiet.stdout.contains("games checked"), "{}", quiet.stdout);
    assert_eq!(
        quiet.stdout,
        text.stdout[..text.stdout.find("games checked").unwrap()],
        "the same report without the table"
    );
}

#[test]
fn a_rules_file_that_changes_nothing_exits_0() {
    for (name, json) in [
        ("empty", "{}"),
        (
            "defaults",
            r#"{"survival-chess": {"limits": {"king": 1}}, "magic-draughts": {"revenge_ranks": 4}}"#,
        ),
    ] {
        let rules = rules_file(name, json);
        let (code, games, summary) = impact_json(&[
            "--rules",
            &rules,
            "corpus/survival-chess/valid",
            "corpus/magic-draughts/valid",
        ]);
        assert_eq!(code, Some(0), "{name}");
        assert_eq!(summary["changed"], 0, "{name}");
        assert_eq!(summary["checked"], games.len(), "{name}");
        assert!(games
            .iter()
            .all(|g| g["changed"] == false && g["overridden"].as_array().unwrap().is_empty()));
        let text = run(&["impact", "--rules", &rules, "corpus/survival-chess/valid"]);
        assert_eq!(text.code, Some(0));
        assert!(
            text.stdout.starts_with("games checked"),
            "only the summary:\n{}",
            text.stdout
        );
    }
}

/// Before rules files could be keyed by game, one file failed with
/// "unknown field" on every log of another game.
#[test]
fn a_rules_file_keyed_by_game_serves_a_mixed_archive() {
    let rules = rules_file(
        "mixed",
        r#"{"open-world-chess": {"moves_per_turn": 2}, "survival-chess": {"board": "10x10"}}"#,
    );
    let all = [
        "corpus/survival-chess/valid",
        "corpus/open-world-chess/valid",
        "corpus/great-war-chess/valid",
        "corpus/magic-draughts/valid",
    ];
    let mut args = vec!["--rules", rules.as_str()];
    args.extend(all);
    let (code, games, summary) = impact_json(&args);
    assert_eq!(code, Some(1));
    assert_eq!(summary["not_checked"], 0);
    for g in &games {
        let changed = g["changed"] == true;
        match g["game"].as_str().unwrap() {
            "great-war-chess" | "magic-draughts" => assert!(!changed, "{g}"),
            _ => {}
        }
    }
    for game in ["survival-chess", "open-world-chess"] {
        assert!(
            games.iter().any(|g| g["game"] == game && g["changed"] == true),
            "no {game} game changed"
        );
    }
    let mut args = vec!["validate", "--rules", rules.as_str()];
    args.extend(all);
    let v = run(&args);
    assert_eq!(v.code, Some(1), "invalid games, but every log checked:\n{}", v.stderr);
    assert!(
        !v.stderr.contains("unknown field") && !v.stdout.contains("not checked"),
        "{}",
        v.stderr
    );

    // A one-game file over a mixed archive: `validate` stops at the first
    // log of a game whose parameters it does not hold, with one error
    // (issue 14), and prints no summary.
    let flat = rules_file("flat", r#"{"moves_per_turn": 2}"#);
    let v = run(&[
        "validate",
        "--rules",
        &flat,
        "corpus/survival-chess/valid",
        "corpus/open-world-chess/valid",
    ]);
    assert_eq!(v.code, Some(2));
    assert_eq!(
        v.stderr.matches("unknown field `moves_per_turn`").count(),
        1,
        "{}",
        v.stderr
    );
    assert!(v.stderr.contains("keyed by game name"), "{}", v.stderr);
    assert_eq!(v.stdout, "", "{}", v.stdout);
}

/// Regression: `--rules {"board":"10x10"}` on an `[Board "8x8"]` log
/// replayed at 8x8, the header silently winning.
#[test]
fn rules_override_a_board_header_tag_say_so_and_take_effect() {
    let file = "corpus/survival-chess/valid/20-fools-mate-8x8.fgn";
    let rules = rules_file("board10", r#"{"board": "10x10"}"#);
    let shown = run(&["--format", "json", "show", "--at", "0", "--rules", &rules, file]);
    assert_eq!(shown.code, Some(0), "{}", shown.stderr);
    let state: Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(state["state"]["position"]["board"], "10x10");
    let note: Value = serde_json::from_str(shown.stderr.lines().next().expect("an override line")).unwrap();
    assert_eq!(
        note,
        serde_json::json!({"file": file, "kind": "override", "tag": "Board", "header": "8x8", "parameter": "board", "used": "10x10"})
    );
    let text = run(&["validate", "--rules", &rules, file]);
    assert!(
        text.stderr.contains(&format!(
            r#"{file}: header tag [Board "8x8"] overridden: board = "10x10" from the rules file"#
        )),
        "{}",
        text.stderr
    );
    let (_, games, _) = impact_json(&["--rules", &rules, file]);
    assert_eq!(games[0]["overridden"][0]["tag"], "Board");
    assert_eq!(games[0]["overridden"][0]["used"], "10x10");
    assert_eq!(
        games[0]["changed"], true,
        "the game is played on another board: {}",
        games[0]
    );
}

#[test]
fn a_bad_rules_file_is_one_error_before_any_log_is_read() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("impact-no-such-file.json");
    let missing = missing.display().to_string();
    for (rules, expected) in [
        (missing.as_str(), "cannot read"),
        (&rules_file("not-json", "{\"board\": "), "not JSON"),
        (
            &rules_file("bad-game", r#"{"open-world-chess": {}, "chess": {}}"#),
            "`chess` is not a game",
        ),
        (
            &rules_file("bad-field", r#"{"open-world-chess": {"moves": 2}}"#),
            "unknown field `moves`",
        ),
        (
            &rules_file("bad-value", r#"{"open-world-chess": {"moves_per_turn": 0}}"#),
            "moves_per_turn must be at least 1",
        ),
    ] {
        for command in ["impact", "validate"] {
            let r = run(&[
                command,
                "--rules",
                rules,
                "corpus/open-world-chess/valid",
                "corpus/survival-chess/valid",
            ]);
            assert_eq!(r.code, Some(2), "{command} {rules}: {}", r.stderr);
            assert_eq!(r.stderr.lines().count(), 1, "one error, not one per log:\n{}", r.stderr);
            assert!(
                r.stderr.contains(expected) && r.stderr.starts_with("error: "),
                "{}",
                r.stderr
            );
            assert!(r.stdout.is_empty(), "no log was read: {}", r.stdout);
        }
    }
}

#[test]
fn impact_of_a_log_that_cannot_be_read_exits_2() {
    let rules = rules_file("empty-2", "{}");
    let r = run(&["impact", "--rules", &rules, "corpus/syntax-errors/se-01-bad-square.fgn"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("not compared"), "{}", r.stderr);
}

/// The referee's strongest test through the binary: re-deriving the world
/// events of every seed-revealed corpus game under its own rules gives the
/// recorded game back, so nothing changes.
#[test]
fn resimulating_under_unchanged_rules_reproduces_every_seeded_corpus_game() {
    let rules = rules_file("unchanged", "{}");
    let mut count = 0;
    for game in ["open-world-chess", "magic-draughts"] {
        let files = seeded(game);
        assert!(files.len() >= 8, "{game}: {files:?}");
        let mut args = vec!["--resimulate", "--rules", rules.as_str()];
        args.extend(files.iter().map(String::as_str));
        let (code, games, summary) = impact_json(&args);
        assert_eq!(code, Some(0), "{games:#?}");
        assert_eq!(summary["resimulated"], files.len());
        assert!(games
            .iter()
            .all(|g| g["mode"] == "resimulated" && g["diverged"].is_null()));
        count += files.len();
    }
    assert!(count >= 20);
}

#[test]
fn resimulating_with_a_changed_parameter_reports_another_course() {
    // magic-draughts: other counts of each number give the captured
    // checkers other numbers, and the spells cast for them no longer fit.
    let rules = rules_file("numbers", r#"{"magic-draughts": {"numbers": [2, 2, 2, 2, 2, 2]}}"#);
    let file = "corpus/magic-draughts/valid/04-charm-and-fury-win.fgn";
    let (code, games, _) = impact_json(&["--resimulate", "--rules", &rules, file]);
    assert_eq!(code, Some(1));
    let g = &games[0];
    assert_eq!(g["mode"], "resimulated");
    let changes = g["changes"].as_array().unwrap();
    assert!(changes.contains(&"world-events".into()), "{g:#}");
    let recorded = &g["diverged"]["recorded"];
    assert!(recorded["event"].as_str().unwrap().contains("@ reveal"), "{g:#}");
    assert!(g["diverged"]["derived"].as_str().unwrap().contains("@ reveal"), "{g:#}");
    let failure = &g["after"]["failure"];
    assert_eq!(failure["rule"], "spell", "the first spell cast no longer fits: {g:#}");
    let text = std::fs::read_to_string(util::root().join(file)).unwrap();
    let line = text
        .lines()
        .nth(failure["line"].as_u64().unwrap() as usize - 1)
        .unwrap();
    assert!(
        line.contains(" b spell ") || line.contains(" w spell "),
        "a player's action: {line}"
    );

    // open-world-chess: a lower spawn chance spawns other objects, and the
    // game goes otherwise (another final state, or an illegal action).
    let rules = rules_file("spawns", r#"{"open-world-chess": {"spawn_chance": 5}}"#);
    let files = seeded("open-world-chess");
    let mut args = vec!["--resimulate", "--rules", rules.as_str()];
    args.extend(files.iter().map(String::as_str));
    let (code, games, summary) = impact_json(&args);
    assert_eq!(code, Some(1));
    assert_eq!(
        summary["by_change"]["world-events"],
        games.len(),
        "every game's spawns change"
    );
    assert!(games.iter().all(|g| {
        let c = g["changes"].as_array().unwrap();
        c.contains(&"became-invalid".into()) || c.contains(&"state-hash".into())
    }));
    // The text report says where the world parts from the log.
    let text = run(&["impact", "--resimulate", "--rules", &rules, &files[0]]);
    assert_eq!(text.code, Some(1));
    assert!(
        text.stdout.contains("(resimulated)") && text.stdout.contains("the world parts at line"),
        "{}",
        text.stdout
    );
}

/// docs/fgn-rules.schema.json describes rules files and what `fgn rules
/// show` prints: every game's defaults fit it with every parameter named,
/// the files these tests use fit it, and what fgn refuses for a name or a
/// type (an unknown game, an unknown field, a string for a number) does not.
#[test]
fn rules_files_and_rules_show_fit_the_rules_schema() {
    let path = util::root().join("docs").join("fgn-rules.schema.json");
    let schema = Schema::load_from(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    for game in [
        "survival-chess",
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
    ] {
        let out = fgn(&["rules", "show", game], b"");
        assert!(out.status.success(), "{game}");
        let shown: Value = serde_json::from_slice(&out.stdout).expect("rules show writes JSON");
        assert_eq!(schema.errors(&shown), None, "{game}: {shown:#}");
        // Every parameter the schema knows is printed, and none besides.
        let named: std::collections::BTreeSet<&String> =
            value["$defs"][game]["properties"].as_object().unwrap().keys().collect();
        let printed: std::collections::BTreeSet<&String> = shown.as_object().unwrap().keys().collect();
        assert_eq!(named, printed, "{game}");
        // It also reads back as a rules file (one that sets every parameter,
        // so it wins over the logs' own parameter tags: some logs change).
        let rules = rules_file(&format!("shown-{game}"), &shown.to_string());
        let (code, games, summary) = impact_json(&["--rules", &rules, &format!("corpus/{game}/valid")]);
        assert_ne!(code, Some(2), "{game}: the printed defaults are not a rules file");
        assert_eq!(summary["not_checked"], 0, "{game}");
        assert_eq!(summary["checked"], games.len(), "{game}");
    }
    for good in [
        "{}",
        r#"{"board": "10x10"}"#,
        r#"{"moves_per_turn": 2}"#,
        r#"{"open-world-chess": {"moves_per_turn": 2}, "survival-chess": {"board": "10x10"}}"#,
        r#"{"survival-chess": {"limits": {"king": 1}}, "magic-draughts": {"revenge_ranks": 4}}"#,
        r#"{"magic-draughts": {"numbers": [2, 2, 2, 2, 2, 2]}}"#,
    ] {
        let doc: Value = serde_json::from_str(good).unwrap();
        assert_eq!(schema.errors(&doc), None, "{good}");
    }
    for bad in [
        r#"{"open-world-chess": {}, "chess": {}}"#,
        r#"{"open-world-chess": {"moves": 2}}"#,
        r#"{"moves_per_turn": "2"}"#,
        r#"{"board": "ten by ten"}"#,
        r#"{"magic-draughts": {"numbers": [1, 2, 3]}}"#,
    ] {
        let doc: Value = serde_json::from_str(bad).unwrap();
        assert!(schema.errors(&doc).is_some(), "the schema accepts {bad}");
        let rules = rules_file("schema-bad", bad);
        let out = fgn(&["validate", "--rules", &rules, "corpus/survival-chess/valid"], b"");
        assert_eq!(out.status.code(), Some(2), "fgn accepts {bad}");
    }
}
