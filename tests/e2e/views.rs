//! `fgn view` and `fgn verify-view` over the corpus: every valid game of the
//! games with engines, from both sides.

use std::path::Path;

use crate::util;
use crate::util::{corpus, fgn, fgn_files, root};

const GAMES: [&str; 4] = [
    "survival-chess",
    "magic-draughts",
    "open-world-chess",
    "great-war-chess",
];

fn rel(path: &Path) -> String {
    path.strip_prefix(root()).expect("below the root").display().to_string()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Writes `text` to a fresh file in the target folder and returns its path.
fn scratch(name: &str, text: &[u8]) -> String {
    crate::util::scratch("views", name, text)
}

/// The view's text with its event number `drop` (0-based, counting event
/// lines after the header) left out, and the 1-based line where the
/// shortened text first departs from the view: the line the event stood
/// on, or, when the lines after it are the same event again (`26 b ?`
/// twice), the line after that run, since leaving out either copy gives
/// the same text.
fn drop_event(view: &str, drop: usize) -> (String, usize) {
    let mut out = String::new();
    let mut events = 0;
    let mut in_events = false;
    let mut dropped_line = 0;
    for (i, line) in view.lines().enumerate() {
        if line.is_empty() {
            in_events = true;
        } else if in_events {
            events += 1;
            if events - 1 == drop {
                dropped_line = i + 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    let lines: Vec<&str> = view.lines().collect();
    while lines.get(dropped_line) == Some(&lines[dropped_line - 1]) {
        dropped_line += 1;
    }
    (out, dropped_line)
}

#[test]
fn every_valid_game_has_verified_idempotent_views_from_both_sides() {
    let mut checked = 0;
    for game in GAMES {
        for path in fgn_files(&corpus().join(game).join("valid")) {
            let file = rel(&path);
            for (side, other) in [("white", "black"), ("black", "white")] {
                let out = fgn(&["view", "--as", side, &file], b"");
                assert_eq!(out.status.code(), Some(0), "{file} as {side}: {}", stderr(&out));
                let text = String::from_utf8(out.stdout).expect("views are UTF-8");
                let tag = format!("[Perspective \"{side}\"]");
                let rules = text.lines().position(|l| l.starts_with("[Rules "));
                assert_eq!(
                    text.lines().nth(rules.expect("a Rules tag") + 1),
                    Some(tag.as_str()),
                    "{file}"
                );
                assert!(!text.contains(" @ seed "), "{file} as {side} shows the seed");

                let name = format!("{}.{side}.fgn", path.file_stem().unwrap().to_string_lossy());
                let view = scratch(&name, text.as_bytes());
                let verified = fgn(&["verify-view", &file, &view], b"");
                assert_eq!(
                    verified.status.code(),
                    Some(0),
                    "{file} as {side}: {}",
                    stderr(&verified)
                );

                let again = fgn(&["view", "--as", side, &view], b"");
                assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
                assert_eq!(String::from_utf8_lossy(&again.stdout), text, "{file}: view of the view");

                let refused = fgn(&["view", "--as", other, &view], b"");
                assert_eq!(refused.status.code(), Some(2), "{file}: viewed from the other side");
                assert!(stderr(&refused).contains(&format!("it cannot be viewed as {other}")));

                // Dropping any one event is noticed, at its line or (for the
                // last one) as a missing event.
                let events = text.lines().skip_while(|l| !l.is_empty()).count().saturating_sub(1);
                if events > 0 {
                    let drop = (checked * 7) % events;
                    let (short, line) = drop_event(&text, drop);
                    let short_view = scratch(&format!("short-{name}"), short.as_bytes());
                    let failed = fgn(&["verify-view", &file, &short_view], b"");
                    let err = stderr(&failed);
                    assert_eq!(failed.status.code(), Some(1), "{file}: dropped event {drop} unnoticed");
                    let place = if line == text.lines().count() {
                        format!("{short_view}:{}:", line - 1)
                    } else {
                        format!("{short_view}:{line}:")
                    };
                    assert!(err.contains(&place), "{file}: expected {place} in {err}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 80, "only {checked} views");
}

#[test]
fn corpus_views_are_the_views_of_their_full_logs() {
    let mut checked = 0;
    for game in GAMES {
        for view in fgn_files(&corpus().join(game).join("views")) {
            let name = view.file_name().unwrap().to_string_lossy().into_owned();
            let full = name.replace(".white.fgn", ".fgn").replace(".black.fgn", ".fgn");
            let full = rel(&corpus().join(game).join("valid").join(full));
            let out = fgn(&["verify-view", &full, &rel(&view)], b"");
            assert_eq!(out.status.code(), Some(0), "{}: {}", rel(&view), stderr(&out));
            // A view converts to JSON like any log.
            let json = fgn(&["json", &rel(&view)], b"");
            assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
            let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
            assert!(value.to_string().contains("Perspective"), "{}", rel(&view));
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} corpus views");
}

#[test]
fn a_changed_event_is_named_with_what_was_expected() {
    let full = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let view = String::from_utf8(fgn(&["view", "--as", "white", full], b"").stdout).unwrap();
    let changed = view.replacen("1 b a11-a9", "1 b a11-a10", 1);
    assert_ne!(changed, view);
    let line = changed.lines().position(|l| l == "1 b a11-a10").unwrap() + 1;
    let path = scratch("changed.white.fgn", changed.as_bytes());
    let out = fgn(&["verify-view", full, &path], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains(&format!("{path}:{line}:")), "{err}");
    assert!(err.contains("expected `1 b a11-a9` here"), "{err}");

    // The opponent's setup edits must not show: a view holding one fails.
    let leaky = view.replacen("0 w ready\n", "0 w ready\n0 b place Ke12\n", 1);
    let path = scratch("leaky.white.fgn", leaky.as_bytes());
    let out = fgn(&["verify-view", full, &path], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn validating_a_view_answers_2() {
    let view = "corpus/open-world-chess/views/owc-01-raid-king-killed.white.fgn";
    let out = fgn(&["validate", view], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("fgn verify-view FULL VIEW"), "{}", stderr(&out));
}

#[test]
fn a_log_with_a_rule_error_gets_its_view_up_to_the_error() {
    // Black moves out of turn: black's view reports black's own fault as
    // validate does (white's says only that there is one, see below).
    let file = "corpus/survival-chess/invalid/07-move-out-of-turn.fgn";
    let out = fgn(&["view", "--as", "black", file], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.starts_with(&format!("{file}:")), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[Perspective \"black\"]"), "{text}");
    let valid = fgn(&["validate", file], b"");
    assert_eq!(stderr(&valid), err, "the same rule error as validate reports");
    let out = fgn(&["view", "--as", "white", file], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("[Perspective \"white\"]"));
    // A new file (an existing one is refused without --force, see
    // `view_out_writes_a_new_file_says_so_and_overwrites_only_with_force`);
    // `--output` is the old spelling of `--out`, still read.
    let output = scratch("out.white.fgn", b"");
    std::fs::remove_file(&output).unwrap();
    let to_file = fgn(
        &[
            "view",
            "--as",
            "white",
            "--output",
            &output,
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        ],
        b"",
    );
    assert_eq!(to_file.status.code(), Some(0));
    assert!(to_file.stdout.is_empty());
    assert!(std::fs::read_to_string(&output).unwrap().contains("0 @ setup b "));
}

/// Regression (issue 36): `view --as white` of a log where black's hidden
/// setup breaks a rule printed black's event and the rule's message (which
/// names the square) in its error. The side that made the event still
/// gets the whole fault, and `hash --as` says no more than `view`.
#[test]
fn a_views_error_never_shows_an_event_its_side_does_not_see() {
    let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
        0 w place Ke1 Ng1\n0 b place Ke8 Nb1\n";
    let file = scratch("hidden-fault.fgn", log.as_bytes());
    // Another log the same to white: black's hidden setup is legal there.
    let other = scratch(
        "hidden-fault-other.fgn",
        b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Ng1\n0 b place Ke8 Nc6\n",
    );
    for args in [
        &["view", "--as", "white", file.as_str()][..],
        &["hash", "--as", "white", file.as_str()],
        &["show", "--as", "white", file.as_str()],
        &["--format", "json", "show", "--as", "white", file.as_str()],
        &["diff", "--as", "white", file.as_str(), other.as_str()],
        &[
            "--format",
            "json",
            "diff",
            "--as",
            "white",
            other.as_str(),
            file.as_str(),
        ],
    ] {
        let out = fgn(args, b"");
        let err = stderr(&out);
        if args.contains(&"diff") {
            // diff says whether the logs differ as white knows them: they
            // do not; the rule error is a note.
            assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{args:?}");
        }
        assert!(err.contains("an event white may not see"), "{args:?}: {err}");
        let all = format!("{err}{}", String::from_utf8_lossy(&out.stdout));
        for secret in ["Nb1", "Ke8", "[setup]", "b place", "two knights"] {
            assert!(!all.contains(secret), "{args:?} shows `{secret}`: {all}");
        }
    }
    let out = fgn(&["view", "--as", "black", &file], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(":6:5: [setup] `0 b place Ke8 Nb1`"),
        "{}",
        stderr(&out)
    );
}

/// `fgn show` draws a view file as its player knew the game: for every
/// valid survival-chess and magic-draughts game and both sides, the view's
/// knowledge (and its hash) is the full log's knowledge for that side, at
/// the end and half way.
/// Every view of every valid corpus game is drawn from the view file alone
/// (issue 37: open-world-chess views could not be), as the player's
/// knowledge of the full log.
#[test]
fn show_draws_a_view_as_its_player_knew_the_game() {
    let mut checked = 0;
    for game in [
        "survival-chess",
        "magic-draughts",
        "open-world-chess",
        "great-war-chess",
    ] {
        for path in util::fgn_files(&util::corpus().join(game).join("valid")) {
            let full = path.display().to_string();
            for side in ["white", "black"] {
                let view = util::fgn(&["view", &full, "--as", side], b"");
                assert!(
                    view.status.success(),
                    "{full}: {}",
                    String::from_utf8_lossy(&view.stderr)
                );
                let events = fgn_notation::parse(&view.stdout).document.game.events.len();
                // At the start, at a third, half way and at the end: an
                // open-world-chess view is read on its own, the others are
                // replayed through a full log; both give the player's
                // knowledge of the full log at the same point.
                for at in [0, events / 3, events / 2, events] {
                    let at = at.to_string();
                    let show_view = util::fgn(&["--format", "json", "show", "--at", &at, "-"], &view.stdout);
                    assert!(
                        show_view.status.success(),
                        "{full} {side} --at {at}: {}",
                        String::from_utf8_lossy(&show_view.stderr)
                    );
                    let a: serde_json::Value = serde_json::from_slice(&show_view.stdout).unwrap();
                    assert!(a["knowledge"].is_object(), "{full} {side}");
                    if at == events.to_string() {
                        let show_full = util::fgn(&["--format", "json", "show", "--as", side, &full], b"");
                        let b: serde_json::Value = serde_json::from_slice(&show_full.stdout).unwrap();
                        assert_eq!(a["knowledge"], b["knowledge"], "{full} as {side}");
                        assert_eq!(a["knowledge_hash"], b["knowledge_hash"], "{full} as {side}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 400, "only {checked} views drawn");
}

/// Issue 36: an open-world-chess move to a square off the board panicked
/// every command that replays a player's view or knowledge (exit 101). Each
/// refuses it as the rule error it is, at its line, with exit 1 (as the
/// other player, without telling the event it may not see).
#[test]
fn a_square_off_the_board_is_a_rule_error_for_every_command_as_a_player() {
    let bad = util::scratch(
        "off-board",
        "e9.fgn",
        b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e9\n",
    );
    let commands: [&[&str]; 6] = [
        &["view", "--as", "white", &bad],
        &["show", "--as", "white", &bad],
        &["show", "--as", "black", &bad],
        &["hash", "--as", "white", &bad],
        &["hash", "--as", "black", "--states", &bad],
        &["diff", "--as", "white", &bad, &bad],
    ];
    for args in commands {
        let out = fgn(args, b"");
        let err = stderr(&out);
        // `diff` of a log with itself finds no difference (exit 0) and
        // says where the replay of both stopped.
        let code = if args[0] == "diff" { 0 } else { 1 };
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        // White's own faulty move is told to white; to black it is an
        // event black may not see, and only that much is said.
        if args.contains(&"black") {
            assert!(err.contains("an event black may not see"), "{args:?}: {err}");
            assert!(!err.contains("e2-e9") && !err.contains("not on the"), "{args:?}: {err}");
        } else {
            assert!(err.contains("e9 is not on the 8x8 board"), "{args:?}: {err}");
        }
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Regression (issue 37): `fgn show --as white` drew the turn and the
/// result from the referee's replay, so after a king died of a damage roll
/// white did not see, it told white "the game is decided" and the result
/// due. A player is shown the turn and result it knows, the one its
/// knowledge (and its hash) holds.
#[test]
fn show_as_a_player_tells_only_the_turn_and_result_it_knows() {
    let file = "corpus/open-world-chess/valid/owc-08-damage-ramp-king-dies-of-damage.fgn";
    let shown = |viewer: &str| {
        let out = fgn(&["show", "--at", "101", "--as", viewer, file], b"");
        assert!(out.status.success(), "{}", stderr(&out));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let all = shown("all");
    assert!(all.contains("the game is decided"), "{all}");
    let white = shown("white");
    assert!(!white.contains("decided"), "{white}");
    assert!(white.contains("result: in progress"), "{white}");
    assert!(white.contains(" to move"), "{white}");
}

/// A view file read on its own trusts its lines (`fgn verify-view` checks
/// them against the full log): an open-world-chess view with a line left
/// out, repeated or moved is drawn or refused, never a crash.
#[test]
fn a_damaged_open_world_chess_view_is_drawn_or_refused_never_a_crash() {
    for path in util::fgn_files(&util::corpus().join("open-world-chess").join("views")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let events: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        for (k, &i) in events.iter().enumerate().step_by(19) {
            let mut damaged: Vec<Vec<&str>> = Vec::new();
            let mut without = lines.clone();
            without.remove(i);
            damaged.push(without);
            let mut twice = lines.clone();
            twice.insert(i, lines[i]);
            damaged.push(twice);
            if let Some(&j) = events.get(k + 3) {
                let mut moved = lines.clone();
                moved.swap(i, j);
                damaged.push(moved);
            }
            for lines in damaged {
                let damaged = lines.join("\n") + "\n";
                for args in [&["show", "-"][..], &["--format", "json", "show", "-"], &["html", "-"]] {
                    let out = fgn(args, damaged.as_bytes());
                    let err = stderr(&out);
                    assert!(
                        matches!(out.status.code(), Some(0..=2)) && !err.contains("internal error"),
                        "{} with line {} damaged, {args:?}: {err}",
                        path.display(),
                        i + 1
                    );
                }
            }
        }
    }
}

/// Regression (issue 39, item 12): `view --output FILE` overwrote FILE
/// and said nothing, where `from-json` refused and `gen` listed paths. Every
/// `--out` now refuses an existing file unless --force, and says once on
/// standard error what it wrote (nothing with -q).
#[test]
fn view_out_writes_a_new_file_says_so_and_overwrites_only_with_force() {
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let target = scratch("out-policy.white.fgn", b"");
    std::fs::remove_file(&target).unwrap();
    let view = |extra: &[&str]| {
        let mut args = vec!["view", "--as", "white", "--out", &target];
        args.extend_from_slice(extra);
        args.push(log);
        fgn(&args, b"")
    };
    let first = view(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(first.stdout.is_empty());
    assert_eq!(stderr(&first), format!("wrote {target}\n"));
    let written = std::fs::read(&target).unwrap();
    assert_eq!(written, fgn(&["view", "--as", "white", log], b"").stdout);

    std::fs::write(&target, b"keep me").unwrap();
    let again = view(&[]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(
        stderr(&again),
        format!("error: {target}: not written: it already exists (--force overwrites it)\n")
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me", "refused means untouched");

    let forced = view(&["--force", "-q"]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert!(forced.stderr.is_empty(), "-q: {}", stderr(&forced));
    assert_eq!(std::fs::read(&target).unwrap(), written);
}

/// Regression (issue 39, item 13): `verify-view --format json` wrote
/// nothing on standard output where `verify-extends` writes a result
/// object; its text verdict was a note on standard error.
#[test]
fn verify_view_writes_its_verdict_as_verify_extends_does() {
    let full = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let view = "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn";
    let json = fgn(&["--format", "json", "verify-view", full, view], b"");
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    assert!(json.stderr.is_empty(), "{}", stderr(&json));
    let result: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let events = fgn(&["--format", "json", "json", view], b"");
    let events: serde_json::Value = serde_json::from_slice(&events.stdout).unwrap();
    assert_eq!(
        result,
        serde_json::json!({"type": "view", "full": full, "view": view, "side": "white", "verified": true,
            "events": events["events"].as_array().unwrap().len()})
    );
    let text = fgn(&["verify-view", full, view], b"");
    assert_eq!(
        String::from_utf8_lossy(&text.stdout),
        format!("{view} is the white view of {full}\n")
    );
    assert!(text.stderr.is_empty());
}
