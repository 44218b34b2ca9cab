//! Issue 40 item 2: several games in one file (docs/notation.md §2.8).
//! Every file is written here from the corpus: each game of a file of
//! several must give what its log gives alone, named `FILE#N`, its places
//! the file's lines.

use std::path::Path;

use fgn_notation::split::split;
use serde_json::Value;

use crate::util::{corpus, fgn_files, gzip, run, scratch_dir};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a test file");
    path.display().to_string()
}

/// The corpus logs that can stand in a file of several games as they are
/// (the path as the tests name it, from the workspace root, and the
/// bytes), and the ones that cannot: a log is one game of such a file when
/// the file of it written twice in a row holds two games. The others are
/// damaged on purpose: a torn last line would glue the next game to it, a
/// log without a `Game` tag is no game of its own.
fn concatenable_logs() -> (Vec<(String, Vec<u8>)>, Vec<String>) {
    let root = crate::util::root();
    let (mut logs, mut left_out) = (Vec::new(), Vec::new());
    for path in fgn_files(&corpus()) {
        let name = path.strip_prefix(&root).expect("below the root").display().to_string();
        let bytes = std::fs::read(&path).expect("a corpus log");
        let twice = [bytes.clone(), bytes.clone()].concat();
        let games: Vec<_> = split(&twice).collect();
        if bytes.ends_with(b"\n") && games.len() == 2 && games.iter().all(Result::is_ok) {
            logs.push((name, bytes));
        } else {
            left_out.push(name);
        }
    }
    (logs, left_out)
}

/// How many blank and comment lines end `log`: they go with the game
/// after it in a file of several.
fn trailing_quiet_lines(log: &[u8]) -> u32 {
    String::from_utf8_lossy(log)
        .lines()
        .rev()
        .take_while(|l| {
            let l = l.trim_start_matches(' ');
            l.is_empty() || l.starts_with(';')
        })
        .count() as u32
}

/// The JSON lines of `text`.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect()
}

/// `value` with its file named `to` and every `line` in it moved down by
/// `offset`, when its file is `from`.
fn renamed(mut value: Value, from: &str, to: &str, offset: u64) -> Value {
    fn shift(value: &mut Value, offset: u64) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match (key.as_str(), v.as_u64()) {
                        ("line", Some(line)) => *v = Value::from(line + offset),
                        _ => shift(v, offset),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| shift(v, offset)),
            _ => {}
        }
    }
    if value["file"] == from {
        value["file"] = Value::from(to);
        shift(&mut value, offset);
    }
    value
}

/// The done-when of issue 40 item 2: `fgn validate` over a multi-game
/// `.fgn.gz` of the whole corpus gives the verdicts, counts, messages and
/// exit code it gives over the logs one by one, each log named `FILE#N`
/// and every line moved down by the lines of the games before it; on one
/// job or two alike.
#[test]
fn a_multi_game_file_of_the_corpus_gives_the_verdicts_and_places_of_its_logs() {
    let (logs, left_out) = concatenable_logs();
    // Only logs damaged on purpose are left out: every valid and invalid
    // log of the four games is in, those ending in comments too.
    assert!(
        left_out.iter().all(|name| name.starts_with("corpus/syntax-errors/")),
        "{left_out:?}"
    );
    assert!(logs.len() > 300, "{}", logs.len());
    let file: Vec<u8> = logs.iter().flat_map(|(_, bytes)| bytes.clone()).collect();
    // The splitter gives back exactly the logs.
    let games: Vec<_> = split(&file)
        .map(|g| g.expect("no text before the first game"))
        .collect();
    assert_eq!(games.len(), logs.len());
    let dir = scratch_dir("multigame-corpus");
    let multi = write(&dir, "corpus.fgn.gz", &gzip(&file));

    let paths: Vec<&str> = logs.iter().map(|(name, _)| name.as_str()).collect();
    let mut args = vec!["--jobs", "1", "validate", "--format", "json"];
    args.extend(&paths);
    let (code, out, err) = run(&args, b"");
    assert_ne!(code, Some(0), "the corpus has invalid logs: {err}");
    let (mut expected_out, mut expected_err) = (json_lines(&out), json_lines(&err));
    let mut offset = 0u64;
    for (i, ((name, bytes), game)) in logs.iter().zip(&games).enumerate() {
        // Each game starts at its log's first line, or at the comment
        // lines that end the log before it.
        let before = if i == 0 {
            0
        } else {
            trailing_quiet_lines(&logs[i - 1].1)
        };
        assert_eq!(u64::from(game.first_line + before), offset + 1, "{name}");
        let to = format!("{multi}#{}", i + 1);
        for v in expected_out.iter_mut().chain(expected_err.iter_mut()) {
            *v = renamed(v.take(), name, &to, offset);
        }
        offset += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    }
    // Compressed, the file's games are read one at a time on the walk;
    // plain, the file is read whole and split where it is worked on: the
    // same games either way.
    let plain = write(&dir, "corpus.fgn", &file);
    let (plain_code, plain_out, plain_err) = run(&["validate", "--format", "json", &plain], b"");
    let compressed_name = |text: &str| text.replace(&format!("\"{plain}#"), &format!("\"{multi}#"));
    assert_eq!(plain_code, code);
    assert_eq!(json_lines(&compressed_name(&plain_out)), expected_out);
    assert_eq!(json_lines(&compressed_name(&plain_err)), expected_err);
    for jobs in ["1", "2"] {
        let (multi_code, multi_out, multi_err) = run(&["--jobs", jobs, "validate", "--format", "json", &multi], b"");
        assert_eq!(multi_code, code, "--jobs {jobs}: {multi_err}");
        for (got, expected) in [(&multi_out, &expected_out), (&multi_err, &expected_err)] {
            let got = json_lines(got);
            for (i, (got, expected)) in got.iter().zip(expected.iter()).enumerate() {
                assert_eq!(got, expected, "--jobs {jobs}, line {}", i + 1);
            }
            assert_eq!(got.len(), expected.len(), "--jobs {jobs}");
        }
    }
    // In text, a place is the game's name, then the file's line and column.
    let two_queens = paths
        .iter()
        .position(|p| *p == "corpus/survival-chess/invalid/02-two-queens.fgn")
        .expect("a corpus log");
    let line = 13
        + paths[..two_queens]
            .iter()
            .zip(&logs)
            .map(|(_, (_, bytes))| bytes.iter().filter(|&&b| b == b'\n').count() as u32)
            .sum::<u32>();
    let (_, _, err) = run(&["validate", &multi], b"");
    let place = format!("{multi}#{}:{line}:5: [setup-limit] ", two_queens + 1);
    assert!(err.lines().any(|l| l.starts_with(&place)), "{place}\n{err}");
}

const A: &str = "; a first game\n[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b f6-g5\n";
const B: &str =
    "\n; a second game\n[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n1 w  c3-d4   ; spaces\n";

/// A syntax error in the middle of a file loses none of the games after
/// it, and text before the first game is one error of the file, counted
/// as an invalid log of its own.
#[test]
fn an_error_in_one_game_leaves_the_others_read() {
    let dir = scratch_dir("multigame-errors");
    let broken = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n1 x c3-d4\n";
    let path = write(&dir, "three.fgn", format!("{A}{broken}{B}").as_bytes());
    let (code, out, err) = run(&["validate", &path], b"");
    assert_eq!(code, Some(1));
    assert_eq!(out, "2 valid, 1 invalid\n");
    // Line 10 of the file is the broken game's third line.
    assert!(err.starts_with(&format!("{path}#2:10:")), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let stray = write(&dir, "stray.fgn", format!("1 w c3-d4\n{A}{B}").as_bytes());
    let (code, out, err) = run(&["validate", &stray], b"");
    assert_eq!(code, Some(1));
    assert_eq!(out, "2 valid, 1 invalid\n");
    assert!(
        err.starts_with(&format!("{stray}:1:1: [syntax] this file holds several games")),
        "{err}"
    );
    // Read from standard input, the games are named by it.
    let (_, _, err) = run(&["validate", "-"], format!("{A}{broken}").as_bytes());
    assert!(err.starts_with("<stdin>#2:10:"), "{err}");
}

/// The text before the first game of a file of several, which only blank
/// and comment lines may be (docs/notation.md §2.8), as every way of
/// reading such a file sees it.
const STRAY: &str = "junk line here\n";

/// Checks what `validate` and `json` say of `path`, a file of several
/// games (or an archive holding one, `named` being the file's name in the
/// reports) whose text before its first game is [`STRAY`] and whose games
/// are `valid` valid logs then `invalid` invalid ones, on `jobs` jobs: the
/// stray text is an invalid log of its own named as the file, with its one
/// syntax error at 1:1, and every game after it is still read.
fn assert_stray_text_is_an_invalid_log(path: &str, named: &str, valid: usize, invalid: usize, jobs: &str) {
    let case = format!("{named} on {jobs} jobs");
    let (code, out, err) = run(&["--jobs", jobs, "validate", path], b"");
    assert_eq!(code, Some(1), "{case}: {err}");
    assert_eq!(out, format!("{valid} valid, {} invalid\n", invalid + 1), "{case}");
    assert!(
        err.starts_with(&format!("{named}:1:1: [syntax] this file holds several games")),
        "{case}: {err}"
    );

    let (code, out, err) = run(&["--jobs", jobs, "validate", "--format", "json", path], b"");
    assert_eq!(code, Some(1), "{case}: {err}");
    let rows = json_lines(&out);
    let results: Vec<&Value> = rows.iter().filter(|r| r["type"] == "result").collect();
    assert_eq!(results.len(), valid + invalid + 1, "{case}");
    let first = results[0];
    assert_eq!(
        (&first["file"], &first["status"], &first["error"]["kind"]),
        (&Value::from(named), &Value::from("invalid"), &Value::from("syntax")),
        "{case}: {first}"
    );
    assert_eq!(
        (&first["error"]["line"], &first["error"]["column"]),
        (&Value::from(1), &Value::from(1))
    );
    assert_eq!(results[1]["file"], format!("{named}#1"), "{case}");
    let totals = rows.last().expect("a totals row");
    assert_eq!(
        (&totals["type"], &totals["valid"], &totals["invalid"]),
        (&Value::from("totals"), &Value::from(valid), &Value::from(invalid + 1)),
        "{case}"
    );

    let (code, out, err) = run(&["--jobs", jobs, "json", "--ndjson", path], b"");
    assert_eq!(code, Some(1), "{case}: {err}");
    let documents = json_lines(&out);
    assert_eq!(documents.len(), valid + invalid + 1, "{case}");
    assert_eq!(
        (&documents[0]["type"], &documents[0]["file"]),
        (&Value::from("unreadable"), &Value::from(named)),
        "{case}"
    );
    assert_eq!(documents[1]["file"], format!("{named}#1"), "{case}");
}

/// Regression: text before the first game of a file of several was one
/// syntax error on standard error but no log of the reports, so the file
/// was not accounted for (`2 valid, 0 invalid` and exit 1; no `result`
/// row, no `unreadable` document). It is an invalid log named as the file
/// on every way such a file is read: whole and split where it is worked
/// on (a plain file, an archive's member), and game by game on the walk
/// (a compressed file, a large file named on the command line).
#[test]
fn text_before_the_first_game_is_an_invalid_log_named_as_the_file() {
    let dir = scratch_dir("multigame-stray");
    let broken = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n1 x c3-d4\n";
    let text = format!("{STRAY}{A}{B}{broken}");
    let plain = write(&dir, "stray.fgn", text.as_bytes());
    let compressed = write(&dir, "stray.fgn.gz", &gzip(text.as_bytes()));
    let archive = write(
        &dir,
        "month.tar",
        &crate::archives::tar(&[("2025/stray.fgn".to_string(), text.into_bytes())]),
    );
    let member = format!("{archive}:2025/stray.fgn");
    let mut large = STRAY.to_string();
    let mut games = 0;
    while large.len() < 1 << 20 {
        large.push_str(A);
        games += 1;
    }
    let large = write(&dir, "large.fgn", large.as_bytes());
    for jobs in ["1", "2"] {
        assert_stray_text_is_an_invalid_log(&plain, &plain, 2, 1, jobs);
        assert_stray_text_is_an_invalid_log(&compressed, &compressed, 2, 1, jobs);
        assert_stray_text_is_an_invalid_log(&archive, &member, 2, 1, jobs);
        assert_stray_text_is_an_invalid_log(&large, &large, games, 0, jobs);
    }
}

/// `fmt` keeps a file of several games one file: each game canonical, one
/// blank line between them, the comments before a header with its game;
/// `--check` names each game not formatted; formatting twice changes
/// nothing; `--write` rewrites the file to what `fmt` prints.
#[test]
fn fmt_formats_each_game_and_keeps_one_file() {
    let dir = scratch_dir("multigame-fmt");
    let path = write(&dir, "two.fgn", format!("{A}{B}").as_bytes());
    let (code, out, err) = run(&["fmt", &path], b"");
    assert_eq!(code, Some(0), "{err}");
    let formatted = format!(
        "{}\n; a second game\n[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4 ; spaces\n",
        A
    );
    assert_eq!(out, formatted);
    let (code, _, err) = run(&["fmt", "--check", &path], b"");
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        format!("error: {path}#2: not in canonical form (run `fgn fmt --write` on it)\n")
    );
    let (code, _, err) = run(&["fmt", "--write", &path], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), formatted);
    let (code, again, _) = run(&["fmt", &path], b"");
    assert_eq!((code, again), (Some(0), formatted));
    let (code, _, err) = run(&["fmt", "--check", &path], b"");
    assert_eq!((code, err.as_str()), (Some(0), "all files are in canonical form\n"));
    // A game with an error keeps the file from being printed or rewritten.
    let broken = write(&dir, "broken.fgn", format!("{A}{B}1 x c3-d4\n").as_bytes());
    let (code, out, _) = run(&["fmt", "--write", &broken], b"");
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        std::fs::read_to_string(&broken).expect("the file"),
        format!("{A}{B}1 x c3-d4\n")
    );
}

/// The commands that take one log refuse a file of several games with one
/// error that says how many it holds; `append` leaves it unchanged.
#[test]
fn one_log_commands_refuse_a_file_of_several_games() {
    let dir = scratch_dir("multigame-refusals");
    let text = format!("{A}{B}{A}");
    let path = write(&dir, "three.fgn", text.as_bytes());
    let refusal =
        format!("error: {path}: it holds 3 games (a file of several games, docs/notation.md §2.8), and this command takes one log");
    for args in [
        vec!["show", &path],
        vec!["view", "--as", "white", &path],
        vec!["verify-view", &path, &path],
        vec!["html", &path],
        vec!["append", &path, "2 w d4-e5"],
        vec!["verify-extends", &path, &path],
        vec!["diff", &path, &path],
    ] {
        let (code, _, err) = run(&args, b"");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with(&refusal), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), text);
}

/// A game of a file of several is named `FILE#N` wherever a command takes
/// one log (what `select` prints is what `show` reads), its places the
/// file's lines.
#[test]
fn one_log_commands_take_one_game_as_file_n() {
    let dir = scratch_dir("multigame-pick");
    let bad = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n1 w c3-d4\n1 b c3-d4\n";
    let path = write(&dir, "three.fgn", format!("{A}{bad}{A}").as_bytes());
    let (code, selected, err) = run(&["select", "--invalid", &path], b"");
    // Exit 1: the file has an invalid log, which select reports as validate does.
    assert_eq!(
        (code, selected.as_str()),
        (Some(1), format!("{path}#2\n").as_str()),
        "{err}"
    );
    let (code, _, err) = run(&["show", selected.trim_end()], b"");
    assert_eq!(code, Some(1), "{err}");
    // The second game's fifth line is the file's twelfth.
    assert!(err.starts_with(&format!("{path}#2:12:5: [move] ")), "{err}");
    let (code, out, err) = run(&["diff", &format!("{path}#1"), &format!("{path}#3")], b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with(&format!("same: the logs of {path}#1 and {path}#3 are the same")),
        "{out}"
    );
    let (code, _, err) = run(&["show", &format!("{path}#4")], b"");
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!("error: {path}: cannot read: it holds no game 4 (it holds 3)\n")
    );
}

/// `from-json --multi` writes a file of several games from a stream of
/// documents, which reads back into the same games.
#[test]
fn from_json_writes_a_file_of_several_games() {
    let folder = corpus().join("magic-draughts/valid").display().to_string();
    let (code, ndjson, err) = run(&["json", "--ndjson", &folder], b"");
    assert_eq!(code, Some(0), "{err}");
    let (code, multi, err) = run(&["from-json", "--multi", "-"], ndjson.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    let dir = scratch_dir("multigame-from-json");
    let path = write(&dir, "all.fgn", multi.as_bytes());
    let (_, hashes, _) = run(&["hash", &path], b"");
    let (_, folder_hashes, _) = run(&["hash", &folder], b"");
    let hashes_of = |text: &str| {
        text.lines()
            .map(|l| l.split(' ').next().map(str::to_owned))
            .collect::<Vec<_>>()
    };
    assert_eq!(hashes_of(&hashes), hashes_of(&folder_hashes));
    assert!(hashes.lines().count() > 3, "{hashes}");
    // Each game's hash line names it `FILE#N`, which `--check` reads back.
    assert!(hashes.lines().all(|l| l.contains(&format!("  {path}#"))), "{hashes}");
    let (code, checked, err) = run(&["hash", "--check", "-"], hashes.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert!(checked.lines().all(|l| l.ends_with(": OK")), "{checked}");
    // Without --multi or --out, several games are refused, naming both.
    let (code, _, err) = run(&["from-json", "-"], ndjson.as_bytes());
    assert_eq!(code, Some(2));
    assert!(err.contains("--multi"), "{err}");
}

/// `convert --from pgn --multi` writes the games of a PGN file as one file
/// of several games, each the game `--out` writes to a file of its own.
#[test]
fn convert_from_pgn_writes_a_file_of_several_games() {
    let pgn = crate::util::root()
        .join("tests/e2e/fixtures/pgn/exported.pgn")
        .display()
        .to_string();
    let (code, multi, err) = run(&["convert", "--from", "pgn", "--multi", &pgn], b"");
    assert_eq!(code, Some(0), "{err}");
    let dir = scratch_dir("multigame-pgn");
    let (code, _, err) = run(
        &[
            "convert",
            "--from",
            "pgn",
            "--out",
            &dir.join("each").display().to_string(),
            &pgn,
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    let mut each: Vec<_> = std::fs::read_dir(dir.join("each"))
        .expect("the games")
        .map(|e| e.expect("a game").path())
        .collect();
    each.sort();
    let texts: Vec<String> = each
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a game"))
        .collect();
    assert!(texts.len() > 10, "{}", texts.len());
    assert_eq!(multi, texts.join("\n"));
    let path = write(&dir, "all.fgn", multi.as_bytes());
    let (code, out, err) = run(&["validate", &path], b"");
    assert_eq!(
        (code, out),
        (Some(0), format!("{} valid, 0 invalid\n", texts.len())),
        "{err}"
    );
}

/// `html DIR --out SITE` gives each game of a file of several a page of
/// its own, named by the file and the game's number, and a row of the
/// index named `FILE#N`.
#[test]
fn a_site_has_a_page_per_game() {
    let dir = scratch_dir("multigame-site");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).expect("a folder");
    write(&logs, "two.fgn", format!("{A}{B}").as_bytes());
    let site = dir.join("site").display().to_string();
    let (code, _, err) = run(&["html", &logs.display().to_string(), "--out", &site], b"");
    assert_eq!(code, Some(0), "{err}");
    let index = std::fs::read_to_string(dir.join("site/index.html")).expect("the index");
    for n in [1, 2] {
        assert!(dir.join(format!("site/two.fgn-{n}.html")).is_file(), "page {n}");
        assert!(index.contains(&format!("href=\"two.fgn-{n}.html\"")), "{index}");
        assert!(index.contains(&format!("two.fgn#{n}")), "{index}");
    }
    // Regression: text before the first game had no row of the index, as
    // a log that cannot be read has; it is the file's row, with its error.
    write(&logs, "two.fgn", format!("{STRAY}{A}{B}").as_bytes());
    let (code, _, err) = run(&["html", &logs.display().to_string(), "--out", &site, "--force"], b"");
    assert_eq!(code, Some(1), "{err}");
    let index = std::fs::read_to_string(dir.join("site/index.html")).expect("the index");
    assert!(
        index.contains("<tr class=\"invalid\"><td>two.fgn<div class=\"problem\">line 1: this file holds several games"),
        "{index}"
    );
    assert!(index.contains("href=\"two.fgn-2.html\""), "{index}");
}

/// A file of a megabyte or more named on the command line is read game by
/// game on the walk, as a compressed one is: the same reports as the file
/// read whole below a folder, on one job or two.
#[test]
fn a_large_named_file_is_read_game_by_game_with_the_same_reports() {
    let dir = scratch_dir("multigame-large");
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).expect("a folder");
    let bad = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n1 w c3-d4\n1 b c3-d4\n";
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str(A);
        text.push_str(bad);
    }
    let games = text.matches("[Game").count();
    let named = write(&dir, "large.fgn", text.as_bytes());
    let below = write(&folder, "large.fgn", text.as_bytes());
    let one = run(&["--jobs", "1", "validate", &named], b"");
    let two = run(&["--jobs", "2", "validate", &named], b"");
    assert_eq!(one, two);
    assert_eq!(one.1, format!("{} valid, {} invalid\n", games / 2, games / 2));
    // Below a folder the file is read whole and split there: the same.
    let (code, out, err) = run(&["--jobs", "2", "validate", &folder.display().to_string()], b"");
    assert_eq!((code, out, err.replace(&below, &named)), one);
    // The last game's error is its last move, the file's last line: every
    // line of the file before it is counted.
    let last_line = text.lines().count();
    assert!(
        one.2.contains(&format!("{named}#{games}:{last_line}:5: ")),
        "{}",
        one.2.lines().last().unwrap_or("")
    );
}

/// Regression: a file of several games larger than a log may be (64 MiB),
/// found below a folder, was read up to that limit and split there: every
/// game past it was lost, and the game cut at the limit was reported as a
/// torn append, a warning (exit 0, `N valid, 0 invalid`, with N short of
/// the file's games). Now such a file is read again game by game: every
/// game is reported, on one job or two. The same held for standard input,
/// which is now read on game by game past the limit.
#[test]
fn a_file_of_several_games_past_the_limit_below_a_folder_loses_no_game() {
    let dir = scratch_dir("multigame-past-the-limit");
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).expect("a folder");
    // Games of about a megabyte each, most of it a comment, so that the
    // file passes 64 MiB with few games to check.
    let padding = format!("; {}\n", "x".repeat(1021)).repeat(1024);
    let game = format!("{A}{padding}");
    let games = (fgn_notation::MAX_FILE_BYTES / game.len()) + 3;
    let text = game.repeat(games);
    assert!(text.len() > fgn_notation::MAX_FILE_BYTES);
    let file = write(&folder, "month.fgn", text.as_bytes());
    for jobs in ["1", "2"] {
        let (code, out, err) = run(
            &[
                "--jobs",
                jobs,
                "validate",
                "--format",
                "json",
                &folder.display().to_string(),
            ],
            b"",
        );
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(err, "", "{jobs} jobs");
        let results: Vec<Value> = json_lines(&out).into_iter().filter(|v| v["type"] == "result").collect();
        let names: Vec<String> = (1..=games).map(|n| format!("{file}#{n}")).collect();
        assert_eq!(
            results
                .iter()
                .map(|v| v["file"].as_str().unwrap_or("").to_string())
                .collect::<Vec<_>>(),
            names,
            "{jobs} jobs"
        );
        assert!(results.iter().all(|v| v["status"] == "valid"), "{jobs} jobs");
    }
    let (code, out, err) = run(&["validate", "-"], text.as_bytes());
    assert_eq!(
        (code, out, err),
        (Some(0), format!("{games} valid, 0 invalid\n"), String::new())
    );
    // `fmt` formats a file whole: it says it cannot, rather than calling
    // the game it cut at the limit torn.
    let (code, _, err) = run(&["fmt", "--check", &folder.display().to_string()], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with(&format!("error: {file}: cannot format: it is larger than")) && !err.contains("torn"),
        "{err}"
    );
}
