//! Every limit of docs/notation.md §2.7, tried at the limit and one past it,
//! and the inputs that are not logs at all (§2.1): each gets one clear
//! diagnostic, never a flood of them and never a panic.

use fgn_notation::{parse, Parsed, MAX_BOARD_DIM, MAX_FILE_BYTES, MAX_LINE_BYTES};

fn errors(parsed: &Parsed) -> Vec<String> {
    parsed
        .diagnostics
        .iter()
        .map(|d| format!("{}:{}: {}", d.line, d.column, d.message))
        .collect()
}

/// A log of `game` with `body` as its events (and `tags` in its header).
fn log(game: &str, rules: &str, tags: &str, body: &str) -> String {
    format!("[Game \"{game}\"]\n[Rules \"{rules}\"]\n{tags}\n{body}\n")
}

/// Asserts that `ok` parses cleanly and `bad` gives exactly one error,
/// on the line of its last event, whose message holds `expected`.
fn at_and_past(ok: &str, bad: &str, expected: &str) {
    let parsed = parse(ok.as_bytes());
    assert!(parsed.is_ok(), "at the limit:\n{ok}\n{:?}", errors(&parsed));
    let parsed = parse(bad.as_bytes());
    let errs = errors(&parsed);
    assert_eq!(errs.len(), 1, "one past the limit:\n{bad}\n{errs:?}");
    assert!(errs[0].contains(expected), "{errs:?} should say {expected:?}");
}

#[test]
fn an_empty_file_gets_one_error_saying_so() {
    let parsed = parse(b"");
    assert_eq!(
        errors(&parsed),
        ["1:1: the file is empty; an FGN log has at least its `Game` and `Rules` tags"]
    );
}

#[test]
fn a_binary_file_gets_one_error_saying_it_is_not_text() {
    // The start of a gzip archive: a NUL byte in its header.
    let mut bytes = vec![0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00];
    bytes.extend((0..5000u32).map(|i| (i * 7919 % 251) as u8));
    let parsed = parse(&bytes);
    assert_eq!(
        errors(&parsed),
        ["1:1: this is not a text file (a NUL byte at line 1, byte 4); FGN logs are UTF-8 text"]
    );
}

#[test]
fn a_nul_byte_past_the_probe_is_a_control_character_of_its_line() {
    // Text for the first 8192 bytes: not a binary file, so the NUL is an
    // ordinary error of the line that holds it.
    let mut src = log("survival-chess", "1.0", "", "");
    while src.len() < 8200 {
        src.push_str("; padding comment line\n");
    }
    src.push_str("; a nul \0 here\n");
    let parsed = parse(src.as_bytes());
    let errs = errors(&parsed);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("control character U+0000"), "{errs:?}");
}

#[test]
fn a_byte_order_mark_is_one_error_and_the_rest_is_read() {
    let src = format!("\u{FEFF}{}", log("survival-chess", "1.0", "", "0 w place Ke1"));
    let parsed = parse(src.as_bytes());
    assert_eq!(
        errors(&parsed),
        ["1:1: the file starts with a byte order mark (U+FEFF); FGN files are UTF-8 without one"]
    );
    assert_eq!(
        parsed.document.game.header.game(),
        Some(fgn_notation::GameKind::SurvivalChess)
    );
    assert_eq!(parsed.document.game.events.len(), 1, "the event after the mark is read");
    // An error later on line 1 is placed counting the mark, as an editor shows it.
    let parsed = parse("\u{FEFF}[Game survival-chess]\n".as_bytes());
    let errs = errors(&parsed);
    assert!(
        errs[0].starts_with("1:1: the file starts with a byte order mark"),
        "{errs:?}"
    );
    assert!(errs[1].starts_with("1:8: "), "{errs:?}");
}

#[test]
fn a_mark_inside_the_file_is_still_an_error_of_its_line() {
    let src = log("survival-chess", "1.0", "", "; a mark \u{FEFF} in a comment");
    let errs = errors(&parse(src.as_bytes()));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("4:10: a byte order mark"), "{errs:?}");
}

#[test]
fn file_size_at_and_past_the_limit() {
    // Exactly the limit: a valid log padded with comment lines is read.
    let mut src = log("survival-chess", "1.0", "", "0 w place Ke1").into_bytes();
    let line = b"; padding\n";
    while src.len() + line.len() <= MAX_FILE_BYTES {
        src.extend_from_slice(line);
    }
    while src.len() < MAX_FILE_BYTES {
        src.insert(src.len() - 1, b'x');
    }
    assert_eq!(src.len(), MAX_FILE_BYTES);
    let parsed = parse(&src);
    assert!(parsed.is_ok(), "{:?}", errors(&parsed));
    assert_eq!(parsed.document.game.events.len(), 1);
    // One byte more: one error, nothing else (no missing-tag errors).
    src.push(b'\n');
    assert_eq!(
        errors(&parse(&src)),
        ["1:1: the file is larger than 67108864 bytes (64 MiB), the most FGN reads; nothing is read"]
    );
}

#[test]
fn line_length_at_and_past_the_limit() {
    let chat = |len: usize| {
        // `1 w chat "` and the closing quote take 11 bytes.
        log(
            "survival-chess",
            "1.0",
            "",
            &format!("1 w chat \"{}\"", "a".repeat(len - 11)),
        )
    };
    at_and_past(&chat(MAX_LINE_BYTES), &chat(MAX_LINE_BYTES + 1), "at most 4096 bytes");
}

#[test]
fn a_torn_line_longer_than_any_line_is_not_echoed() {
    let mut src = log("survival-chess", "1.0", "", "0 w place Ke1").into_bytes();
    src.extend(std::iter::repeat_n(b'x', 5_000_000));
    let parsed = parse(&src);
    let d = &parsed.diagnostics;
    assert_eq!(d.len(), 1, "{:?}", errors(&parsed));
    assert!(
        d[0].message.contains("line 5 (5000000 bytes) has no line end"),
        "{}",
        d[0].message
    );
    let shown = d[0].render("big.fgn");
    assert!(shown.len() < 300, "the report stays short: {} bytes", shown.len());
    // A torn line of ordinary length is still shown with its caret.
    let parsed = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-e4");
    assert!(parsed.diagnostics[0].render("t.fgn").contains("1 w e2-e4"));
}

#[test]
fn board_size_at_and_past_the_limit() {
    let board = |files: u8, ranks: u8| log("survival-chess", "1.0", &format!("[Board \"{files}x{ranks}\"]"), "");
    for (ok, bad) in [
        (
            board(MAX_BOARD_DIM, MAX_BOARD_DIM),
            board(MAX_BOARD_DIM + 1, MAX_BOARD_DIM),
        ),
        (
            board(MAX_BOARD_DIM, MAX_BOARD_DIM),
            board(MAX_BOARD_DIM, MAX_BOARD_DIM + 1),
        ),
        (board(1, 1), board(0, 1)),
    ] {
        let parsed = parse(ok.as_bytes());
        assert!(parsed.is_ok(), "{ok}: {:?}", errors(&parsed));
        let errs = errors(&parse(bad.as_bytes()));
        assert!(!errs.is_empty() && errs[0].starts_with("3:"), "{bad}: {errs:?}");
    }
}

#[test]
fn squares_at_and_past_the_limit() {
    let mv = |to: &str| log("survival-chess", "1.0", "", &format!("1 w Ka1-{to}"));
    at_and_past(&mv("z26"), &mv("z27"), "square");
}

#[test]
fn move_numbers_at_and_past_the_limit() {
    let chat = |n: u64| log("survival-chess", "1.0", "", &format!("{n} w chat \"hi\""));
    at_and_past(&chat(u64::from(u32::MAX)), &chat(u64::from(u32::MAX) + 1), "");
}

#[test]
fn clocks_at_and_past_the_limit() {
    let chat = |t: &str| log("survival-chess", "1.0", "", &format!("1 w chat \"hi\" {{t={t}}}"));
    at_and_past(&chat("999999999999.999"), &chat("1000000000000"), "");
    at_and_past(&chat("1.999"), &chat("1.9999"), "");
}

#[test]
fn draughts_paths_at_and_past_the_limit() {
    // A capture lists at most 16 squares; the syntax does not check the
    // geometry (replay does), so a zigzag of dark squares will do.
    let path = |len: usize| {
        let squares: Vec<&str> = ["c3", "e5"].iter().cycle().take(len).copied().collect();
        log("magic-draughts", "1.0", "", &format!("1 w {}", squares.join(":")))
    };
    at_and_past(&path(16), &path(17), "");
}

#[test]
fn world_numbers_at_and_past_their_limits() {
    let owc = |body: &str| log("open-world-chess", "1.2", "", body);
    at_and_past(&owc("1 @ damage d4 255"), &owc("1 @ damage d4 256"), "");
    at_and_past(&owc("1 @ damage d4 1"), &owc("1 @ damage d4 0"), "");
    let md = |body: &str| log("magic-draughts", "1.0", "", body);
    at_and_past(&md("1 @ reveal e5 5"), &md("1 @ reveal e5 6"), "");
    at_and_past(&md("1 w spell 5 a1"), &md("1 w spell 6 a1"), "");
    let view = |body: &str| log("open-world-chess", "1.2", "[Perspective \"white\"]", body);
    at_and_past(
        &view("1 @ see c6 bN:18446744073709551615"),
        &view("1 @ see c6 bN:18446744073709551616"),
        "",
    );
    at_and_past(&view("1 @ see c6 bN:1"), &view("1 @ see c6 bN:0"), "");
}

#[test]
fn time_control_at_and_past_the_limit() {
    let tc = |s: u64| log("survival-chess", "1.0", &format!("[TimeControl \"move={s}\"]"), "");
    let parsed = parse(tc(u64::from(u32::MAX)).as_bytes());
    assert!(parsed.is_ok(), "{:?}", errors(&parsed));
    let errs = errors(&parse(tc(u64::from(u32::MAX) + 1).as_bytes()));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("3:"), "{errs:?}");
}

#[test]
fn many_tags_and_long_tag_values_are_bounded_by_the_line_and_file_limits() {
    // Tags have no count limit of their own: ten thousand of them are read.
    let tags: String = (0..10_000).map(|i| format!("[Note{i} \"x\"]\n")).collect();
    let parsed = parse(log("survival-chess", "1.0", &tags, "").as_bytes());
    assert!(parsed.is_ok(), "{:?}", errors(&parsed));
    assert_eq!(parsed.document.game.header.tags.len(), 10_002);
    // A tag value is bounded by the line: at the limit it is read, past it
    // the line is one error.
    let tag = |len: usize| {
        // `[Site "` and `"]` take 9 bytes.
        log(
            "survival-chess",
            "1.0",
            &format!("[Site \"{}\"]", "s".repeat(len - 9)),
            "",
        )
    };
    let parsed = parse(tag(MAX_LINE_BYTES).as_bytes());
    assert!(parsed.is_ok(), "{:?}", errors(&parsed));
    let errs = errors(&parse(tag(MAX_LINE_BYTES + 1).as_bytes()));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("at most 4096 bytes"), "{errs:?}");
}

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    // serde_json stops at a nesting depth of 128 with an error of its own.
    for depth in [129, 10_000, 1_000_000] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let err = fgn_notation::json::from_json(&text).expect_err("not a game");
        assert!(err.contains("recursion limit exceeded"), "depth {depth}: {err}");
    }
    let text = format!("{}{}", "[".repeat(127), "]".repeat(127));
    let err = fgn_notation::json::from_json(&text).expect_err("not a game");
    assert!(!err.contains("recursion"), "depth 127 is read: {err}");
    let text = format!("{{\"header\":{}{}}}", "{\"a\":".repeat(200_000), "}".repeat(200_001));
    assert!(fgn_notation::json::from_json(&text).is_err());
}

#[test]
fn utf16_text_is_not_a_text_file() {
    let utf16: Vec<u8> = "[Game \"survival-chess\"]\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let errs = errors(&parse(&utf16));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("this is not a text file"), "{errs:?}");
}

#[test]
fn nuls_left_by_a_crash_after_good_lines_lose_nothing() {
    let mut src = log("survival-chess", "1.0", "", "0 w place Ke1").into_bytes();
    src.extend(std::iter::repeat_n(0u8, 4096));
    let parsed = parse(&src);
    assert_eq!(parsed.document.game.events.len(), 1, "{:?}", errors(&parsed));
    assert!(parsed.is_torn(), "the NUL block is the torn last line");
}

/// Regression (fuzzing, parse_roundtrip): a file with exactly
/// `MAX_DIAGNOSTICS` errors in its lines, a torn last line and no `Game`
/// tag got 102 diagnostics, since the torn line's warning and the header's
/// own errors came after the per-line cap.
#[test]
fn diagnostics_after_the_last_line_are_capped_too() {
    let limit = fgn_notation::MAX_DIAGNOSTICS;
    for (errors_in_lines, torn) in [(limit, true), (limit, false), (limit - 1, true), (limit + 1, true)] {
        let mut text = "[M\n".repeat(errors_in_lines);
        if torn {
            text.push_str("[W");
        }
        let parsed = parse(text.as_bytes());
        let errs = errors(&parsed);
        assert!(
            errs.len() <= limit + 1,
            "{errors_in_lines} errors, torn {torn}: {} diagnostics",
            errs.len()
        );
        if errs.len() == limit + 1 {
            assert!(
                errs[limit].contains(&format!("more than {limit} errors")),
                "{:?}",
                errs[limit]
            );
        }
        // Below the cap nothing is dropped: every line's error, the torn
        // warning and the missing `Game` tag are all there.
        if errors_in_lines < limit {
            assert_eq!(errs.len(), errors_in_lines + usize::from(torn) + 1, "{errs:?}");
        }
    }
    // The file the fuzzer found.
    let found = include_bytes!("fixtures/fuzz-102-diagnostics.fgn");
    assert!(parse(found).diagnostics.len() <= limit + 1);
}

/// The number of tags has no limit but the file size, and reading them is
/// linear (§2.7): a tag given twice was found by searching every tag read
/// before it, and the JSON header wrote each tag after searching the list
/// around it, so n tags cost n² (issue 36: 160,000 tags took 25 s, 300,000
/// never finished). A quarter of a million tags, the last a repeat of the
/// first of them, read with that one fault found, and write to JSON once
/// each. (Not timed: before the fix this test ran for many minutes;
/// docs/performance.md has the benchmark.)
#[test]
fn a_quarter_million_tags_are_read_and_written_with_a_repeat_found() {
    let n = 250_000;
    let mut tags = String::new();
    for i in 0..n {
        tags.push_str(&format!("[T{i} \"v{i}\"]\n"));
    }
    tags.push_str("[T0 \"again\"]\n");
    let parsed = parse(log("survival-chess", "1.1", &tags, "0 w resign").as_bytes());
    assert_eq!(
        errors(&parsed),
        [format!("{}:2: the tag `T0` appears twice", n + 3)],
        "only the repeat is a fault"
    );
    let header = &parsed.document.game.header;
    assert_eq!(header.tags.len(), n + 2);
    let json = fgn_notation::json::to_json(&parsed.document.game);
    let written = json["header"].as_object().expect("the header object");
    assert_eq!(written.len(), n + 2);
    assert_eq!(written["T0"], "v0");
    assert_eq!(written[&format!("T{}", n - 1)], format!("v{}", n - 1));
}
