//! `fgn show` and `fgn validate` output formats (`fgn leaderboard`: leaderboard.rs).

use crate::util::fgn;

fn stdout(args: &[&str]) -> (Option<i32>, String) {
    let out = fgn(args, b"");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn show_draws_a_12x12_position() {
    let (code, text) = stdout(&["show", "corpus/survival-chess/valid/01-bishop-queen-mate.fgn"]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!(text);
}

#[test]
fn show_as_a_player_during_setup_hides_the_opponent() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (_, all) = stdout(&["show", "--at", "3", file]);
    let (code, white) = stdout(&["show", "--at", "3", "--as", "white", file]);
    assert_eq!(code, Some(0));
    let black_pieces = ['♚', '♛', '♜', '♝', '♞', '♟'];
    assert!(all.contains(black_pieces), "{all}");
    assert!(!white.contains(black_pieces), "white sees black's setup:\n{white}");
    assert!(white.contains('♔'), "{white}");
}

/// A move held on its path by the world's damage roll is on no square:
/// the text says where it waits, to the referee and to its owner only.
#[test]
fn show_says_which_piece_waits_for_the_worlds_roll() {
    let file = crate::util::scratch(
        "show-text",
        "waiting.fgn",
        b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n0 @ spawn d3 damage\n1 w e2-e3\n1 w Bf1-c4\n1 @ damage d3 2\n",
    );
    let (code, all) = stdout(&["show", "--at", "3", &file]);
    assert_eq!(code, Some(0));
    assert!(
        all.contains("white's bishop (5 HP) waits on d3 for the world's damage roll, on its way to c4"),
        "{all}"
    );
    let (_, white) = stdout(&["show", "--at", "3", "--as", "white", &file]);
    assert!(
        white.contains("white's bishop (5 HP) waits on its path for the world's damage roll, on its way to c4"),
        "{white}"
    );
    let (_, black) = stdout(&["show", "--at", "3", "--as", "black", &file]);
    assert!(!black.contains("waits"), "{black}");
    let (_, after) = stdout(&["show", &file]);
    assert!(!after.contains("waits"), "{after}");
}

#[test]
fn show_json_describes_the_state() {
    let (code, text) = stdout(&[
        "--format",
        "json",
        "show",
        "--at",
        "6",
        "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
    ]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["state"]["game"], "survival-chess");
    assert_eq!(v["events_applied"], 6);
    assert_eq!(v["state"]["position"]["board"], "12x12");
    assert!(v["state"]["position"]["pieces"].as_array().unwrap().len() > 4);
    assert!(v["state_hash"].as_str().unwrap().starts_with("blake3:"), "{v}");
    assert_eq!((&v["format"], &v["version"]), (&"fgn-show".into(), &3.into()), "{v}");
    assert_eq!(v["type"], "state", "{v}");
}

/// Regression: after the result, `show` said "black to move" and its JSON
/// gave a turn; a finished game has nobody to move.
#[test]
fn show_after_the_end_says_the_game_is_over() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (code, text) = stdout(&["show", file]);
    assert_eq!(code, Some(0));
    assert!(text.contains("the game is over"), "{text}");
    assert!(!text.contains("to move"), "{text}");
    let (_, json) = stdout(&["--format", "json", "show", file]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["state"]["progress"]["turn"], serde_json::Value::Null, "{v}");
    assert_eq!(v["state"]["progress"]["status"]["phase"], "over", "{v}");
    assert_eq!(v["state"]["progress"]["status"]["outcome"], "1-0", "{v}");
}

#[test]
fn show_as_a_player_gives_the_hash_of_its_knowledge() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let json = |viewer: &str| -> serde_json::Value {
        let (code, text) = stdout(&["--format", "json", "show", "--at", "3", "--as", viewer, file]);
        assert_eq!(code, Some(0));
        serde_json::from_str(&text).unwrap()
    };
    let (white, black, all) = (json("white"), json("black"), json("all"));
    assert_eq!(white["knowledge"]["viewer"], "w");
    assert_ne!(white["knowledge_hash"], black["knowledge_hash"]);
    assert_ne!(white["knowledge_hash"], all["state_hash"]);
    assert!(white["knowledge_hash"].as_str().unwrap().starts_with("blake3:"));
    assert!(white.get("state_hash").is_none() && all.get("knowledge_hash").is_none());
    assert!(all["state"].is_object() && all.get("knowledge").is_none());
}

#[test]
fn show_at_beyond_the_log_is_a_usage_error() {
    let (code, _) = stdout(&[
        "show",
        "--at",
        "9999",
        "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
    ]);
    assert_eq!(code, Some(2));
}

#[test]
fn validate_json_gives_a_line_per_file_and_a_summary() {
    let (code, text) = stdout(&["--format", "json", "validate", "corpus/survival-chess/valid"]);
    assert_eq!(code, Some(0));
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = lines.last().unwrap();
    assert_eq!(summary["invalid"], 0);
    assert_eq!(summary["valid"].as_u64().unwrap() as usize, lines.len() - 1);
    assert!(lines[..lines.len() - 1].iter().all(|l| l["status"] == "valid"));
}

#[test]
fn show_refuses_a_log_with_syntax_errors() {
    let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n0 b place Ke12 Zz\n0 w ready\n";
    let out = fgn(&["show", "-"], log);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no position is drawn from a damaged log");
}

#[test]
fn a_view_cannot_be_validated_and_is_not_called_invalid() {
    let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Perspective \"white\"]\n\n0 w place Ke1\n";
    let out = fgn(&["validate", "-"], log);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 invalid, 1 unsupported"));
}

/// Regression: `show --as black` printed "(an event not shown from black's
/// view)" for white's moves, `ready` and chat, which every player sees.
#[test]
fn show_as_a_player_names_public_events_as_its_view_writes_them() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let last = |at: &str| {
        let (code, text) = stdout(&["show", "--at", at, "--as", "black", file]);
        assert_eq!(code, Some(0));
        text.lines()
            .find(|l| l.starts_with("after event"))
            .unwrap_or_default()
            .to_string()
    };
    assert!(last("7").ends_with("1 w Bf1-a6"), "{}", last("7"));
    assert!(last("17").ends_with("5 b chat \"well played\""), "{}", last("17"));
    assert!(last("6").contains("0 @ setup w Ra1 Qd1 Ke1"), "{}", last("6"));
    // White's placements are secret while black sets up.
    assert!(last("3").contains("nothing of it is seen"), "{}", last("3"));
}

/// Regression: a player's knowledge carried the clock of the opponent's
/// hidden setup edit, so two logs that differ only there gave the player
/// different knowledge hashes though identical views.
#[test]
fn a_players_knowledge_holds_no_clock_of_hidden_events() {
    let file = "corpus/survival-chess/valid/12-setup-timeout-auto-ready.fgn";
    let (code, json) = stdout(&["--format", "json", "show", "--at", "2", "--as", "white", file]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["knowledge"]["progress"]["clock_ms"], serde_json::Value::Null, "{v}");
    assert_eq!(
        v["knowledge"]["progress"]["turn_started_ms"],
        serde_json::Value::Null,
        "{v}"
    );
}

/// docs/json.md: `clock_ms` and `turn_started_ms` are `null` while the log
/// has had no reading. Regression: before the first move of a log without
/// readings (in survival-chess's setup, in open-world-chess's first turn)
/// `turn_started_ms` was 0, the game's start, though nothing in the log
/// says when that was; the text output shows no clocks at all.
#[test]
fn show_writes_no_turn_start_before_the_first_move_of_a_log_without_readings() {
    for (file, at) in [
        ("corpus/survival-chess/valid/01-bishop-queen-mate.fgn", "0"),
        ("corpus/survival-chess/valid/01-bishop-queen-mate.fgn", "2"),
        ("corpus/open-world-chess/valid/owc-06-every-bonus-and-refusals.fgn", "0"),
    ] {
        let (code, json) = stdout(&["--format", "json", "show", "--at", at, file]);
        assert_eq!(code, Some(0));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let progress = &v["state"]["progress"];
        assert_eq!(
            progress["clock_ms"],
            serde_json::Value::Null,
            "{file} at {at}: {progress}"
        );
        assert_eq!(
            progress["turn_started_ms"],
            serde_json::Value::Null,
            "{file} at {at}: {progress}"
        );
        let (_, text) = stdout(&["show", "--at", at, file]);
        assert!(!text.contains("t=0"), "{file} at {at}: {text}");
    }
    // With a reading, the setup's limit is timed from the game's start.
    let file = "corpus/survival-chess/valid/07-timeout-extra-yes.fgn";
    let (_, json) = stdout(&["--format", "json", "show", "--at", "1", file]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["state"]["progress"]["turn_started_ms"], 0, "{v}");
}

/// Salts are public: `show` prints both to every viewer once one is given,
/// and nothing about salts before (or in a game without them).
#[test]
fn show_prints_the_salts_to_every_viewer() {
    let file = "corpus/open-world-chess/valid/owc-18-salted-seed-revealed.fgn";
    let line = "salts: white e1dd1d4f191437aac98b23498737dcab, black 59489ba005d9b37569d293f033dfe339";
    for viewer in ["all", "white", "black"] {
        let (code, text) = stdout(&["show", "--at", "2", "--as", viewer, file]);
        assert_eq!(code, Some(0));
        assert!(text.lines().any(|l| l == line), "{viewer}:\n{text}");
        let (_, one) = stdout(&["show", "--at", "1", "--as", viewer, file]);
        assert!(
            one.contains("salts: white e1dd1d4f191437aac98b23498737dcab, black none"),
            "{one}"
        );
    }
    let (_, start) = stdout(&["show", "--at", "0", file]);
    assert!(!start.contains("salts:"), "{start}");
}

/// Writes a survival-chess log on the default 12x12 board whose events
/// follow the header, and returns its path.
fn survival_log(name: &str, events: &str) -> String {
    crate::util::scratch(
        "replay-cmds",
        name,
        format!("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n{events}").as_bytes(),
    )
}

#[test]
fn legal_move_lists_sort_by_square_not_as_text() {
    // A rook on j1 of a 12x12 board: as text, j10 to j12 would come before
    // j2; by square (rank, then file) they come last.
    let file = survival_log(
        "rook-list.fgn",
        "0 w place Ke1 Rj1\n0 b place Ke12\n0 w ready\n0 b ready\n1 w Rj1-k2\n",
    );
    let (code, _, err) = crate::util::run(&["validate", &file], b"");
    assert_eq!(code, Some(1), "{err}");
    let expected = "its legal moves: Rj1-f1, Rj1-g1, Rj1-h1, Rj1-i1, Rj1-k1, Rj1-l1, Rj1-j2, Rj1-j3, Rj1-j4, \
                    Rj1-j5, Rj1-j6, Rj1-j7, Rj1-j8, Rj1-j9, Rj1-j10, Rj1-j11, Rj1-j12\n";
    assert!(err.ends_with(expected), "{err}");
}

#[test]
fn a_survival_chess_syntax_error_suggests_survival_chess_notation() {
    let file = survival_log("misspelt-placement.fgn", "0 w place Ke1 I2b\n");
    let (code, _, err) = crate::util::run(&["validate", &file], b"");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("expected a piece letter and a square, such as Ke1, found `I2b`"),
        "{err}"
    );
    assert!(
        !err.contains("Ib2") && !err.contains("unit"),
        "great-war-chess words: {err}"
    );
}

#[test]
fn show_at_takes_a_move_address() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let last_event = |at: &str| -> String {
        let (code, text) = stdout(&["show", "--at", at, file]);
        assert_eq!(code, Some(0), "--at {at}");
        text.lines()
            .find(|l| l.starts_with("after event") || l.starts_with("at the start"))
            .unwrap_or_else(|| panic!("--at {at}: no last event line in\n{text}"))
            .to_string()
    };
    // Six setup events, then move 1 is events 7 (white) and 8 (black).
    assert_eq!(last_event("1w"), last_event("7"));
    assert_eq!(last_event("1b"), last_event("8"));
    assert_eq!(last_event("3w"), last_event("11"));
    // White's part of move 5 is its mate and the world's result after it,
    // up to black's first event of move 5 (a chat).
    assert!(last_event("5w").contains("5 @ result 1-0 mate"), "{}", last_event("5w"));
    assert_eq!(last_event("5b"), last_event("end"));
    assert_eq!(last_event("end"), last_event("17"));
    // The count form is as it was.
    let (_, none) = stdout(&["show", file]);
    let (_, all) = stdout(&["show", "--at", "end", file]);
    assert_eq!(none, all);
    // Addresses the log has no event for, and move 0 (the setup, where
    // both sides act at once), are errors.
    for (at, message) in [
        ("6w", "--at 6w: the log has no event of white's move 6"),
        ("0w", "move 0 is the setup"),
        ("18", "--at 18: the log has 17 events"),
        ("12x", "a move address such as 12w or 12b, or end"),
    ] {
        let (code, _, err) = crate::util::run(&["show", "--at", at, file], b"");
        assert_eq!(code, Some(2), "--at {at}: {err}");
        assert!(err.contains(message), "--at {at}: {err}");
    }
}

#[test]
fn show_at_a_negative_number_gets_a_hint_not_clap_s_tip() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (code, _, err) = crate::util::run(&["show", "--at", "-1", file], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot be negative") && err.contains("--at end"), "{err}");
    assert!(!err.contains("'-- -1'"), "{err}");
}
