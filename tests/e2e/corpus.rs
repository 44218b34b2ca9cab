//! The corpus through the binary: every log's JSON, every syntax error's
//! diagnostics and every validation verdict are pinned by snapshots, and
//! formatting and JSON conversion are checked to be lossless.

use std::path::Path;

use crate::util::{corpus, fgn, fgn_files, root};

/// The path of a corpus file as given on the command line (relative to the
/// workspace root, so that messages and snapshots do not depend on where
/// the checkout is).
fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .expect("corpus files are below the root")
        .display()
        .to_string()
}

fn is_syntax_error_case(path: &Path) -> bool {
    rel(path).starts_with("corpus/syntax-errors/")
}

/// The report of one run: exit code, then standard output and error.
fn transcript(args: &[&str]) -> String {
    let out = fgn(args, b"");
    format!(
        "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn every_log_converts_to_pinned_json_or_pinned_diagnostics() {
    insta::glob!("../../corpus", "**/*.fgn", |path| {
        let file = rel(path);
        if is_syntax_error_case(path) {
            let out = fgn(&["json", &file], b"");
            let stderr = String::from_utf8_lossy(&out.stderr);
            // A torn last line is only a warning: the complete lines convert.
            let torn = stderr.starts_with("warning: torn append");
            assert_eq!(out.status.code(), Some(if torn { 0 } else { 1 }), "{file}: {stderr}");
            insta::assert_snapshot!(transcript(&["json", &file]));
        } else {
            let out = fgn(&["json", &file], b"");
            assert_eq!(
                out.status.code(),
                Some(0),
                "{file}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("fgn json writes JSON");
            insta::assert_json_snapshot!(value);
        }
    });
}

#[test]
fn fmt_is_idempotent_on_every_log() {
    for path in fgn_files(&corpus()).iter().filter(|p| !is_syntax_error_case(p)) {
        let file = rel(path);
        let once = fgn(&["fmt", &file], b"");
        assert!(
            once.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&once.stderr)
        );
        let twice = fgn(&["fmt", "-"], &once.stdout);
        assert!(twice.status.success());
        assert_eq!(
            String::from_utf8_lossy(&twice.stdout),
            String::from_utf8_lossy(&once.stdout),
            "{file}"
        );
        let check = fgn(&["fmt", "--check", "-"], &once.stdout);
        assert!(check.status.success(), "{file}: formatted text fails --check");
    }
}

#[test]
fn json_then_from_json_then_json_is_the_same() {
    for path in fgn_files(&corpus()).iter().filter(|p| !is_syntax_error_case(p)) {
        let file = rel(path);
        let json = fgn(&["json", &file], b"");
        assert!(json.status.success(), "{file}");
        let text = fgn(&["from-json", "-"], &json.stdout);
        assert!(
            text.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&text.stderr)
        );
        let again = fgn(&["json", "-"], &text.stdout);
        // The same document, but for the file it was read from (standard
        // input has no name) and the place of an error in the summary (the
        // canonical text has no comments, so its lines are not the file's).
        let strip = |bytes: &[u8]| {
            let mut doc: serde_json::Value = serde_json::from_slice(bytes).expect("fgn json writes JSON");
            let obj = doc.as_object_mut().expect("a document");
            obj.remove("file");
            if let Some(error) = obj["summary"]["error"].as_object_mut() {
                error.remove("line");
                error.remove("column");
            }
            // A warning's line too (a tag's line moves with the comments).
            if let Some(warnings) = obj["summary"]["warnings"].as_array_mut() {
                for w in warnings {
                    w.as_object_mut().expect("a warning").remove("line");
                }
            }
            doc
        };
        assert_eq!(strip(&again.stdout), strip(&json.stdout), "{file}");
    }
}

#[test]
fn games_with_engines_validate_as_pinned() {
    for game in [
        "survival-chess",
        "magic-draughts",
        "open-world-chess",
        "great-war-chess",
    ] {
        let base = corpus().join(game);
        if !base.exists() {
            continue;
        }
        // Players' views cannot be validated; they are read, printed and converted.
        for path in fgn_files(&base).into_iter().filter(|p| !rel(p).contains("/views/")) {
            let file = rel(&path);
            let out = fgn(&["validate", &file], b"");
            let expected = if file.contains("/invalid/") { 1 } else { 0 };
            assert_eq!(
                out.status.code(),
                Some(expected),
                "{file}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    insta::glob!(
        "../../corpus",
        "{survival-chess,magic-draughts,open-world-chess,great-war-chess}/{valid,invalid}/*.fgn",
        |path| {
            insta::assert_snapshot!(transcript(&["validate", "--verbose", &rel(path)]));
        }
    );
}

/// Issue 5's promise: in every seeded open-world-chess game of the corpus,
/// changing any one recorded outcome fails validation at that event (or,
/// when the change alters what follows, no later than the first event it
/// makes impossible).
#[test]
fn changing_any_outcome_of_a_seeded_corpus_game_fails() {
    use fgn_notation::{Action, ObjectKind};
    let mut changed_count = 0;
    for path in fgn_files(&corpus().join("open-world-chess/valid")) {
        let parsed = fgn_notation::parse(&std::fs::read(&path).unwrap());
        let game = parsed.document.game;
        if !game.events.iter().any(|e| matches!(e.action, Action::Seed { .. })) {
            continue;
        }
        for (i, e) in game.events.iter().enumerate() {
            let other = match e.action {
                Action::Damage { square, amount } => Action::Damage {
                    square,
                    amount: if amount == 1 { 2 } else { amount - 1 },
                },
                Action::Spawn { square, object } => Action::Spawn {
                    square,
                    object: if object == ObjectKind::Coin {
                        ObjectKind::Hp
                    } else {
                        ObjectKind::Coin
                    },
                },
                _ => continue,
            };
            let mut changed = game.clone();
            changed.events[i].action = other;
            let v = fgn_replay::validate(&changed).expect("supported");
            let error = v
                .error
                .unwrap_or_else(|| panic!("{}: changing event {i} went unnoticed", rel(&path)));
            if error.rule == fgn_replay::Rule::Seed {
                assert_eq!(error.place, fgn_replay::Place::Event(i), "{}: {error}", rel(&path));
            }
            changed_count += 1;
        }
    }
    assert!(
        changed_count >= 50,
        "only {changed_count} outcomes in the seeded corpus games"
    );
}

/// Issue #12's readable summary of every valid game, pinned so that a rule
/// change shows up in review as what it does to each game: the final
/// position as `fgn show` draws it (with the result and the state hash),
/// the event count, the log hash and the hashes of both players' views.
#[test]
fn every_valid_game_has_a_pinned_summary() {
    insta::glob!(
        "../../corpus",
        "{survival-chess,magic-draughts,open-world-chess,great-war-chess}/valid/*.fgn",
        |path| {
            let file = rel(path);
            let run = |args: &[&str]| {
                let out = fgn(args, b"");
                assert!(
                    out.status.success(),
                    "{args:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                String::from_utf8(out.stdout).expect("fgn writes UTF-8")
            };
            let json: serde_json::Value = serde_json::from_str(&run(&["json", &file])).expect("fgn json writes JSON");
            let events = json["events"].as_array().map_or(0, Vec::len);
            let hash = |args: &[&str]| {
                let mut all = vec!["hash"];
                all.extend_from_slice(args);
                all.push(&file);
                let text = run(&all);
                text.split_whitespace().next().unwrap_or_default().to_string()
            };
            let summary = format!(
                "{}\nevents: {events}\nlog hash: {}\nwhite's view: {}\nblack's view: {}\n",
                run(&["show", &file]).trim_end(),
                hash(&[]),
                hash(&["--as", "white"]),
                hash(&["--as", "black"]),
            );
            insta::assert_snapshot!(summary);
        }
    );
}

/// The rule → file map of corpus/README.md (issue #12): every `.fgn` path it
/// names exists below corpus/, every test it names (`file.rs::function`) is
/// a function of that file, every row names something, and every corpus file
/// is named in some row, so that each log says which rule it is there for.
#[test]
fn the_readme_maps_every_corpus_file_and_names_only_files_that_exist() {
    use std::collections::BTreeSet;
    let readme = std::fs::read_to_string(corpus().join("README.md")).expect("corpus/README.md");
    let map = readme
        .split_once("\n## The map")
        .map(|(_, map)| map)
        .expect("corpus/README.md has a section `## The map`");
    // A row is a list item with its indented continuation lines.
    let mut rows: Vec<String> = Vec::new();
    for line in map.lines() {
        if line.starts_with("- ") {
            rows.push(line.to_string());
        } else if line.starts_with("  ") && !rows.is_empty() {
            let row = rows.last_mut().expect("a row to continue");
            row.push(' ');
            row.push_str(line.trim());
        }
    }
    // RULES.md has some ninety rules; far fewer rows means the list was not read.
    assert!(rows.len() >= 80, "only {} rows in the map", rows.len());
    let mut named = BTreeSet::new();
    let mut problems = Vec::new();
    for row in &rows {
        // The backticked words of a row; its code spans hold no backticks.
        let spans: Vec<&str> = row.split('`').skip(1).step_by(2).collect();
        let files: Vec<&str> = spans.iter().copied().filter(|s| s.ends_with(".fgn")).collect();
        let tests: Vec<&str> = spans.iter().copied().filter(|s| s.contains(".rs::")).collect();
        if files.is_empty() && tests.is_empty() {
            problems.push(format!("a row names no file and no test: {row}"));
        }
        for file in files {
            if !corpus().join(file).is_file() {
                problems.push(format!("no such corpus file: {file}"));
            }
            named.insert(file.to_string());
        }
        for test in tests {
            let (path, function) = test.split_once("::").expect("file::function");
            match std::fs::read_to_string(root().join(path)) {
                Ok(text) if text.contains(&format!("fn {function}(")) => {}
                Ok(_) => problems.push(format!("{path} has no function {function}")),
                Err(e) => problems.push(format!("{path}: {e}")),
            }
        }
    }
    for path in fgn_files(&corpus()) {
        let file = path
            .strip_prefix(corpus())
            .expect("below corpus/")
            .to_string_lossy()
            .replace('\\', "/");
        if !named.contains(&file) {
            problems.push(format!("corpus/README.md's map names no row for {file}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
