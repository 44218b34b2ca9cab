//! `fgn leaderboard`: each game's standings, which logs count, the names
//! shown, the exit code and the JSON document (issue #14).

use serde_json::Value;

use crate::schema::Schema;
use crate::util::{self, run, scratch_dir};

/// A finished multiplayer survival-chess game on 8x8, fool's mate: black
/// wins. `white` and `black` are (name, id); `date` the `Date` tag, if any.
fn fools_mate(white: (&str, &str), black: (&str, &str), date: Option<&str>) -> String {
    let date = date.map_or(String::new(), |d| format!("[Date \"{d}\"]\n"));
    format!(
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Mode \"multiplayer\"]\n[White \"{}\"]\n[WhiteId \"{}\"]\n[Black \"{}\"]\n[BlackId \"{}\"]\n{date}[Board \"8x8\"]\n\n\
0 w place Ke1 Qd1 Bf1 Pd2 Pe2 Pf2 Pg2\n0 b place Ke8 Qd8 Pe7\n0 w ready\n0 b ready\n\
1 w f2-f3\n1 b e7-e5\n2 w g2-g4\n2 b Qd8-h4#\n2 @ result 0-1 mate\n",
        white.0, white.1, black.0, black.1
    )
}

/// Regression (issue 14): standings were computed but the run exited 2 (a
/// player's view cannot be validated) and listed 133 `skipped:` lines on
/// standard output under the table. Skipped logs now go to standard error,
/// one line each, and computed standings exit 0.
#[test]
fn skipped_logs_go_to_standard_error_and_standings_exit_0() {
    let (code, stdout, stderr) = run(&["leaderboard", "corpus"], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.contains("skipped:"), "{stdout}");
    let skipped: Vec<&str> = stderr.lines().filter(|l| l.starts_with("skipped: ")).collect();
    assert!(skipped.len() > 100, "{stderr}");
    assert!(
        skipped.iter().any(|l| l.contains("/views/")),
        "views are listed as skipped: {stderr}"
    );
    // One line per skipped log and no diagnostics but the torn-append
    // warning of the corpus's torn log (docs/notation.md §2.6, issue 36),
    // on one line as validate writes it (issue 39, item 11).
    let rest: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("skipped: ")).collect();
    assert_eq!(
        rest,
        ["corpus/syntax-errors/se-16-torn-last-line.fgn:10:12: [warning] torn append: line 10 has no line end, so it is left out (the lines before it are read)"],
        "{stderr}"
    );
    // A log that cannot be checked is said as every command says it.
    assert!(
        skipped
            .iter()
            .any(|l| l.ends_with("/views/01-bishop-queen-mate.white.fgn: unsupported (`fgn validate` says why)")),
        "{stderr}"
    );
    let summary = stdout.lines().last().unwrap();
    assert!(summary.ends_with(&format!("{} skipped", skipped.len())), "{summary}");
}

/// Regression (issue 39, item 10): with --quiet the leaderboard still
/// counted the skipped logs on standard error, which are no error (the
/// standings are computed, exit 0): quiet leaves out all but errors,
/// warnings about the input, and the standings asked for.
#[test]
fn quiet_leaves_out_the_skipped_logs_and_their_count() {
    let (code, stdout, stderr) = run(&["--quiet", "leaderboard", "corpus"], b"");
    assert_eq!(code, Some(0));
    // Only the torn-append warning (warnings are kept).
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(": [warning] torn append"), "{stderr}");
    assert!(!stdout.contains("counted, "), "no summary line: {stdout}");
    assert!(stdout.contains("rank"), "the standings are the output asked for");
}

/// Regression (issue 14): the wins of all four games were mixed in one
/// table. RULES.md gives points for survival-chess only; the other games
/// are named with their counts and no standings.
#[test]
fn each_game_has_its_own_standings_and_only_survival_chess_has_points() {
    let (_, stdout, _) = run(&["leaderboard", "corpus"], b"");
    let sections: Vec<&str> = stdout.split("\n\n").collect();
    let survival = sections
        .iter()
        .find(|s| s.starts_with("survival-chess: "))
        .expect(&stdout);
    assert!(
        survival.contains("a point per multiplayer win of a VK player"),
        "{survival}"
    );
    assert!(survival.contains("rank  player id"), "{survival}");
    for game in ["open-world-chess", "great-war-chess", "magic-draughts"] {
        let section = sections
            .iter()
            .find(|s| s.starts_with(&format!("{game}: ")))
            .unwrap_or_else(|| panic!("no {game} section:\n{stdout}"));
        assert!(
            section.contains("RULES.md defines no leaderboard points for this game"),
            "{section}"
        );
        assert_eq!(section.lines().count(), 1, "no table for {game}: {section}");
    }
}

/// Regression (issue 14): the name shown for an id was that of whichever
/// file was read last. It is the name of the id's latest game by `Date`
/// (then by path), the same with any number of jobs.
#[test]
fn the_name_shown_is_that_of_the_latest_game_with_any_number_of_jobs() {
    let dir = scratch_dir("leaderboard-names");
    let eve = "vk:7007";
    // Read in path order a, b, c; the latest by date is b.
    let games = [
        ("a.fgn", "Eve (newest name)", Some("2025-05-02")),
        ("b.fgn", "Eve (latest game)", Some("2025-06-01")),
        ("c.fgn", "Eve (old name)", Some("2025-01-01")),
        ("d.fgn", "Eve (no date)", None),
    ];
    for (i, (file, name, date)) in games.iter().enumerate() {
        let opponent = format!("vk:{}", 100 + i);
        let log = fools_mate(("Opponent", &opponent), (name, eve), *date);
        std::fs::write(dir.join(file), log).unwrap();
    }
    let dir = dir.to_str().unwrap();
    let mut outputs = Vec::new();
    for jobs in ["1", "2", "4"] {
        let (code, stdout, stderr) = run(&["--jobs", jobs, "leaderboard", dir], b"");
        assert_eq!(code, Some(0), "{stderr}");
        let row = stdout.lines().find(|l| l.contains(eve)).expect(&stdout).to_string();
        assert!(row.contains("Eve (latest game)"), "{jobs} jobs: {row}");
        outputs.push(stdout);
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    // Without a date anywhere, the last path names the player.
    let undated = scratch_dir("leaderboard-undated");
    for (file, name) in [("x.fgn", "Early path"), ("y.fgn", "Late path")] {
        std::fs::write(undated.join(file), fools_mate(("O", "vk:1"), (name, eve), None)).unwrap();
    }
    let (_, stdout, _) = run(&["leaderboard", undated.to_str().unwrap()], b"");
    assert!(stdout.contains("Late path"), "{stdout}");
}

/// W/D/L columns (issue 14), with their values: a win, a draw (stalemate)
/// and a loss.
#[test]
fn the_table_has_wins_draws_and_losses() {
    let dir = scratch_dir("leaderboard-wdl");
    let (anna, boris) = (("Anna", "vk:1"), ("Boris", "vk:2"));
    std::fs::write(dir.join("1.fgn"), fools_mate(anna, boris, None)).unwrap();
    std::fs::write(dir.join("2.fgn"), fools_mate(boris, anna, None)).unwrap();
    let stalemate =
        std::fs::read_to_string(util::root().join("corpus/survival-chess/valid/06-stalemate-draw.fgn")).unwrap();
    std::fs::write(dir.join("3.fgn"), stalemate).unwrap();
    let (code, stdout, stderr) = run(&["leaderboard", dir.to_str().unwrap()], b"");
    assert_eq!(code, Some(0), "{stderr}");
    let header = stdout.lines().find(|l| l.starts_with("rank")).expect(&stdout);
    let columns: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(columns, ["rank", "player", "id", "name", "W", "D", "L", "points"]);
    let (_, json, _) = run(&["--format", "json", "leaderboard", dir.to_str().unwrap()], b"");
    let v: Value = serde_json::from_str(&json).unwrap();
    let rows = v["games"][0]["standings"].as_array().unwrap();
    let row = |id: &str| {
        rows.iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id}: {v}"))
    };
    // Each won one fool's mate as black and lost the other.
    for id in ["vk:1", "vk:2"] {
        assert_eq!(
            (row(id)["wins"].as_u64(), row(id)["losses"].as_u64()),
            (Some(1), Some(1)),
            "{v}"
        );
        assert_eq!(row(id)["points"], 1);
    }
    let drawn: u64 = rows.iter().map(|r| r["draws"].as_u64().unwrap()).sum();
    assert!(drawn >= 1, "the stalemate is a draw for its VK players: {v}");
}

#[test]
fn the_json_document_validates_against_its_schema() {
    let schema = Schema::load_from(&util::root().join("docs").join("fgn-leaderboard.schema.json"));
    for paths in [
        &["corpus"][..],
        &["corpus/survival-chess/valid"],
        &["corpus/magic-draughts"],
    ] {
        let (code, stdout, stderr) = run(&[&["--format", "json", "leaderboard"], paths].concat(), b"");
        assert_eq!(code, Some(0), "{stderr}");
        let doc: Value = serde_json::from_str(&stdout).unwrap();
        if let Some(e) = schema.errors(&doc) {
            panic!("{paths:?}: {e}\n{doc:#}");
        }
        let games = doc["games"].as_array().unwrap();
        assert!(!games.is_empty());
        for g in games {
            assert_eq!(g["points_defined"], g["game"] == "survival-chess", "{g}");
        }
    }
    // A document that breaks it is refused: a game without points but with rows.
    let mut bad: Value = serde_json::from_str(&run(&["--format", "json", "leaderboard", "corpus"], b"").1).unwrap();
    let rows = bad["games"][0]["standings"].clone();
    bad["games"][1]["standings"] = rows;
    assert!(schema.errors(&bad).is_some());
}

#[test]
fn standings_of_the_survival_corpus_are_pinned() {
    let (code, stdout, _) = run(&["leaderboard", "corpus/survival-chess/valid"], b"");
    assert_eq!(code, Some(0));
    insta::assert_snapshot!(stdout);
}

/// A game counts once in the standings however many copies of it (same log
/// hash, whatever the file name or comments) the archive holds.
#[test]
fn a_copied_game_counts_once() {
    let dir = scratch_dir("leaderboard-copies");
    let src = util::root().join("corpus/survival-chess/valid");
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    // A copy with a comment added is still the same game.
    let text = std::fs::read_to_string(src.join("01-bishop-queen-mate.fgn")).unwrap();
    std::fs::write(dir.join("zz-copy.fgn"), format!("; downloaded twice\n{text}")).unwrap();
    let (_, original, _) = run(&["leaderboard", "corpus/survival-chess/valid"], b"");
    let (_, copied, err) = run(&["leaderboard", dir.to_str().unwrap()], b"");
    assert_eq!(copied, original);
    assert!(
        err.contains("zz-copy.fgn: the same game as") && err.contains("counted once"),
        "{err}"
    );
}

/// Regression (issue 36): copies of one game that differ in a tag that
/// only describes it (a trailing space in a name, an `Event`, a `Date`)
/// had different log hashes, and one win counted three times.
#[test]
fn copies_that_differ_in_descriptive_tags_count_once_and_are_named() {
    let dir = scratch_dir("leaderboard-tag-copies");
    let game = fools_mate(("Anna", "vk:1001"), ("Boris", "vk:2002"), Some("2025-03-14"));
    std::fs::write(dir.join("a.fgn"), &game).unwrap();
    std::fs::write(dir.join("b.fgn"), game.replace("\"Boris\"", "\"Boris \"")).unwrap();
    std::fs::write(
        dir.join("c.fgn"),
        game.replace("[Board", "[Event \"Cup\"]\n[Board")
            .replace("2025-03-14", "2025-03-15"),
    )
    .unwrap();
    // Another game of the same players (a different first move) counts apart.
    std::fs::write(dir.join("d.fgn"), game.replace("1 w f2-f3", "1 w f2-f4")).unwrap();
    let (code, stdout, stderr) = run(&["leaderboard", dir.to_str().unwrap()], b"");
    assert_eq!(code, Some(0), "{stderr}");
    let boris = stdout.lines().find(|l| l.contains("vk:2002")).expect(&stdout);
    let cells: Vec<&str> = boris.split_whitespace().collect();
    assert_eq!(cells[cells.len() - 4..], ["2", "0", "0", "2"], "{stdout}");
    for copy in ["b.fgn", "c.fgn"] {
        assert!(
            stderr.contains(&format!("{copy}: the same game as {}", dir.join("a.fgn").display())),
            "{stderr}"
        );
    }
    assert!(stdout.contains("2 logs counted"), "{stdout}");
}

/// Regression (issue 36): `vk:01001` counted as another player than
/// `vk:1001`; RULES.md's `vk:<number>` is a number, and leading zeros do
/// not change it.
#[test]
fn a_vk_id_with_leading_zeros_is_the_same_player() {
    let dir = scratch_dir("leaderboard-zeros");
    let first = fools_mate(("Anna", "vk:1001"), ("Boris", "vk:2002"), Some("2025-01-01"));
    let second =
        fools_mate(("Anna", "vk:1001"), ("Boris", "vk:002002"), Some("2025-01-02")).replace("1 w f2-f3", "1 w f2-f4");
    std::fs::write(dir.join("a.fgn"), first).unwrap();
    std::fs::write(dir.join("b.fgn"), second).unwrap();
    let (code, stdout, stderr) = run(&["--format", "json", "leaderboard", dir.to_str().unwrap()], b"");
    assert_eq!(code, Some(0), "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let ids: Vec<&str> = doc["games"][0]["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["vk:2002", "vk:1001"], "{stdout}");
    assert_eq!(doc["games"][0]["standings"][0]["wins"], 2, "{stdout}");
}

/// Regression (issue 36): the torn-append warning every command gives
/// (docs/notation.md §2.6) was withdrawn with the other diagnostics.
#[test]
fn a_torn_last_line_is_warned_about_and_the_log_still_counts() {
    let dir = scratch_dir("leaderboard-torn");
    let game = fools_mate(("Anna", "vk:1001"), ("Boris", "vk:2002"), None);
    std::fs::write(dir.join("torn.fgn"), format!("{game}2 w chat \"g")).unwrap();
    let (code, stdout, stderr) = run(&["leaderboard", dir.to_str().unwrap()], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("torn.fgn:") && stderr.contains("torn append"),
        "{stderr}"
    );
    assert!(stdout.contains("1 log counted"), "{stdout}");
}

/// Regression (issue 36): a right-to-left override in a name reached the
/// terminal raw and reordered the rest of the row.
#[test]
fn bidi_controls_in_names_never_reach_the_output_raw() {
    let dir = scratch_dir("leaderboard-bidi");
    let name = "Boris\u{202E}0 :stniop";
    std::fs::write(
        dir.join("a.fgn"),
        fools_mate(("Anna", "vk:1001"), (name, "vk:2002"), None),
    )
    .unwrap();
    let dir = dir.to_str().unwrap();
    let (code, stdout, _) = run(&["leaderboard", dir], b"");
    assert_eq!(code, Some(0));
    assert!(
        !stdout.contains('\u{202E}') && stdout.contains("Boris\u{FFFD}0 :stniop"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&["--format", "json", "leaderboard", dir], b"");
    assert_eq!(code, Some(0));
    assert!(!stdout.contains('\u{202E}') && stdout.contains("\\u202e"), "{stdout}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["games"][0]["standings"][0]["name"], name);
}

#[test]
fn nothing_to_count_is_an_error() {
    let (code, _, stderr) = run(&["leaderboard", "corpus/syntax-errors/se-01-bad-square.fgn"], b"");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no log validates"), "{stderr}");
}
