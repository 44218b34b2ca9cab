//! The command line itself: help, usage errors and exit codes.

use crate::util::{fgn, fgn_binary, fgn_in_process, scratch_dir};

/// Through the binary: help is exit 0 of the process, with the text on
/// its standard output.
#[test]
fn help_names_every_command() {
    let out = fgn_binary(&["--help"], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["fmt", "json", "from-json", "validate", "show", "leaderboard", "rules"] {
        assert!(text.contains(cmd), "--help does not mention {cmd}:\n{text}");
    }
}

/// Through the binary: a command line the operating system hands over
/// that clap refuses, and a path that cannot be read, end the process with
/// exit status 2.
#[test]
fn usage_errors_exit_with_2() {
    for args in [
        &["frobnicate"][..],
        &["fmt"][..],
        &["show", "--at", "x", "-"][..],
        &["validate", "no/such/file.fgn"][..],
    ] {
        let out = fgn_binary(args, b"");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn fmt_of_several_files_needs_check_or_write() {
    let out = fgn(&["fmt", "-", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_show_prints_the_survival_defaults() {
    let out = fgn(&["rules", "show", "survival-chess"], b"");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["board"], "12x12");
    assert_eq!(v["limits"]["pawn"], 8);
    // Regression: with --format json the game's name came out as `"file"`;
    // the output is the ruleset alone, in either format.
    let json = fgn(&["--format", "json", "rules", "show", "survival-chess"], b"");
    assert_eq!(json.stdout, out.stdout);
    assert!(v.get("file").is_none(), "{v}");
}

/// A small deterministic generator, so the inputs are the same on every run.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn random_bytes_never_crash_any_command() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..40 {
        let len = (xorshift(&mut state) % 600) as usize;
        let mut bytes: Vec<u8> = (0..len).map(|_| xorshift(&mut state) as u8).collect();
        // Half of the inputs start like a real log, so the parser gets past the header.
        if round % 2 == 0 {
            let mut log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n".to_vec();
            log.append(&mut bytes);
            bytes = log;
        }
        for cmd in [
            &["json", "-"][..],
            &["validate", "-"],
            &["fmt", "-"],
            &["show", "-"],
            &["from-json", "-"],
        ] {
            let out = fgn_in_process(cmd, &bytes).unwrap_or_else(|p| panic!("{cmd:?} panicked on round {round}: {p}"));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.code, 0..=2),
                "{cmd:?} on round {round}: exit {}\n{stderr}",
                out.code
            );
            assert!(
                !stderr.contains("panicked") && !stderr.contains("internal error"),
                "{cmd:?} panicked on round {round}: {stderr}"
            );
        }
    }
}

#[test]
fn truncated_and_damaged_corpus_logs_never_crash() {
    let mut state = 42u64;
    let mut damaged_logs = Vec::new();
    for path in crate::util::fgn_files(&crate::util::corpus()) {
        let text = std::fs::read(&path).unwrap();
        for _ in 0..3 {
            let mut damaged = text.clone();
            let cut = (xorshift(&mut state) as usize) % (damaged.len() + 1);
            damaged.truncate(cut);
            if !damaged.is_empty() {
                let i = (xorshift(&mut state) as usize) % damaged.len();
                damaged[i] = xorshift(&mut state) as u8;
            }
            damaged_logs.push((path.display().to_string(), damaged));
        }
    }
    // Runs in this process share nothing, so the logs are spread over a
    // thread per core: the loop then takes its share of a busy machine.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|scope| {
        for first in 0..threads {
            let damaged_logs = &damaged_logs;
            scope.spawn(move || {
                for (name, damaged) in damaged_logs.iter().skip(first).step_by(threads) {
                    for cmd in [&["validate", "-"][..], &["show", "-"], &["fmt", "-"]] {
                        let out =
                            fgn_in_process(cmd, damaged).unwrap_or_else(|p| panic!("{cmd:?} panicked on {name}: {p}"));
                        let stderr = String::from_utf8_lossy(&out.stderr);
                        assert!(
                            matches!(out.code, 0..=2) && !stderr.contains("internal error"),
                            "{cmd:?} on {name}: exit {}\n{stderr}",
                            out.code
                        );
                    }
                }
            });
        }
    });
}

#[test]
fn a_bad_token_on_line_4_exits_1_naming_line_and_column() {
    let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1 Zz9\n";
    let out = fgn(&["json", "-"], log);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("<stdin>:4:15"), "{stderr}");
    let out = fgn(&["--format", "json", "fmt", "-"], log);
    let line: serde_json::Value = serde_json::from_slice(out.stderr.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!((line["line"].as_u64(), line["column"].as_u64()), (Some(4), Some(15)));
}

#[test]
fn a_missing_path_is_reported_and_the_others_are_still_checked() {
    let out = fgn(&["validate", "no/such/file.fgn", "corpus/magic-draughts/valid"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Every log of the folder is still checked, however many the corpus holds.
    let logs = crate::util::fgn_files(&crate::util::corpus().join("magic-draughts/valid")).len();
    assert!(stdout.contains(&format!("{logs} valid, 0 invalid")), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/file.fgn"));
}

#[test]
fn standard_input_twice_is_a_usage_error() {
    let out = fgn(&["validate", "-", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only once"));
}

#[test]
fn fmt_write_keeps_links_and_permissions_and_refuses_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("fgn-fmt-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let messy = "[Game \"survival-chess\"]\n[Rules   \"1.0\"]\n\n0 w place KE1\n";
    let real = dir.join("real.fgn");
    std::fs::write(&real, messy).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("link.fgn");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = fgn(&["fmt", "--write", link.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link is kept"
    );
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n"
    );
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o600,
        "permissions are kept"
    );
    let ro = dir.join("ro.fgn");
    std::fs::write(&ro, messy).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = fgn(&["fmt", "--write", ro.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&ro).unwrap(),
        messy,
        "a read-only file is left alone"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    for args in [
        &["validate", "--verbose", "corpus"][..],
        &["json", "corpus"],
        &["rules", "show", "survival-chess"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fgn"))
            .args(args)
            .current_dir(crate::util::root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then hang up, as `| head -c1` would.
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        let _ = stdout.read(&mut one);
        drop(stdout);
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        assert!(matches!(status.code(), Some(0..=2)), "{args:?}: {status:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn rules_show_prints_the_open_world_defaults() {
    let out = fgn(&["rules", "show", "open-world-chess"], b"");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["moves_per_turn"], 3);
    assert_eq!(v["shop_price"], 6);
    assert_eq!(v["bonus_weights"]["regen"], 42);
    assert_eq!(v["damage_ramp_start"], 100);
}

/// Regression: with standard error on a full device, `validate` panicked
/// (exit 101, outside the documented codes); lost diagnostics must not
/// change the exit code.
#[test]
fn a_full_standard_error_loses_diagnostics_but_not_the_exit_code() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return assert!(!std::path::Path::new("/dev/full").exists());
    };
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(["validate", "corpus/syntax-errors"])
        .current_dir(crate::util::root())
        .stdout(std::process::Stdio::null())
        .stderr(full)
        .status()
        .expect("fgn runs");
    assert_eq!(status.code(), Some(1));
}

/// Issue #13: a 50 MB file of one line without a line end made `validate`
/// write 104 MB to standard error (the torn line and a caret line as wide).
#[test]
fn a_huge_torn_line_gives_a_short_report() {
    let dir = scratch_dir("huge-torn");
    let path = dir.join("one-line.fgn");
    std::fs::write(&path, vec![b'x'; 50_000_000]).unwrap();
    let out = fgn(&["validate", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.len() < 2_000, "{} bytes on stderr", out.stderr.len());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 1 (50000000 bytes) has no line end"), "{stderr}");
}

/// Issue #13: files that are not logs at all (empty, too large, binary,
/// starting with a byte order mark) get one error each that says so.
#[test]
fn files_that_are_not_logs_get_one_error_each() {
    let dir = scratch_dir("not-logs");
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("empty.fgn", Vec::new(), "the file is empty"),
        (
            "big.fgn",
            vec![b'\n'; 70_000_000],
            "the file is larger than 67108864 bytes",
        ),
        (
            // A PNG's first bytes: a gzip header, as this once was, is now
            // read as a compressed log (issue 40; tests/e2e/archives.rs).
            "binary.fgn",
            b"\x89PNG\r\n\x1a\n\0\0".to_vec(),
            "this is not a text file",
        ),
        (
            "bom.fgn",
            b"\xEF\xBB\xBF[Game \"survival-chess\"]\n[Rules \"1.0\"]\n".to_vec(),
            "byte order mark",
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = fgn(&["validate", path.to_str().unwrap()], b"");
        assert_eq!(out.status.code(), Some(1), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.contains("[syntax]") && stderr.contains(expected),
            "{name}: {stderr}"
        );
    }
}

/// The torn last line and the rule error of one log, the case where a
/// file had diagnostics of both kinds.
const TORN_WITH_RULE_ERROR: &[u8] =
    b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n0 w place Ke2\n0 b place Ke12\n0 w rea";

/// Regression (issue 14): `validate` wrote a file's syntax diagnostics
/// (here the torn line 7, caret style) before its rule error (line 5, one
/// line): now in file order, one line each.
#[test]
fn validate_reports_a_files_diagnostics_in_file_order_one_line_each() {
    let (code, _, stderr) = crate::util::run(&["validate", "-"], TORN_WITH_RULE_ERROR);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("<stdin>:5:5: [setup-limit] "), "{stderr}");
    assert!(lines[1].starts_with("<stdin>:7:8: [warning] torn append"), "{stderr}");
    let (_, _, json) = crate::util::run(&["--format", "json", "validate", "-"], TORN_WITH_RULE_ERROR);
    let at: Vec<u64> = json
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["line"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(at, [5, 7], "{json}");
    // Syntax errors are one line too, `[syntax]` where a rule error names its rule.
    let (_, _, stderr) = crate::util::run(&["validate", "corpus/syntax-errors/se-01-bad-square.fgn"], b"");
    assert_eq!(
        stderr,
        "corpus/syntax-errors/se-01-bad-square.fgn:4:8: [syntax] in `e2-z99`: expected a target square or `?`, found `z99`\n"
    );
}

/// Regression (issue 14): a rules file with no parameters for a log's game
/// was reported once per game and its logs counted as "not checked"; the
/// run now stops there with one error and exit 2.
#[test]
fn validate_stops_at_the_first_log_a_rules_file_does_not_fit() {
    let rules = crate::util::scratch("validate-rules", "draughts.json", br#"{"revenge_ranks": 4}"#);
    let (code, stdout, stderr) = crate::util::run(&["validate", "--rules", &rules, "corpus/survival-chess/valid"], b"");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "", "no summary of a run that stopped");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("logs of survival-chess"), "{stderr}");
    // Logs of a game the file fits are still checked before the stop.
    let (code, stdout, _) = crate::util::run(&["validate", "--rules", &rules, "corpus/magic-draughts/valid"], b"");
    let valid = crate::util::fgn_files(&crate::util::corpus().join("magic-draughts/valid")).len();
    assert_eq!((code, stdout), (Some(0), format!("{valid} valid, 0 invalid\n")));
}

#[test]
fn validate_with_a_missing_rules_file_stops_before_any_log() {
    let (code, stdout, stderr) = crate::util::run(
        &["validate", "--rules", "no/such/rules.json", "corpus/survival-chess"],
        b"",
    );
    assert_eq!(code, Some(2));
    assert_eq!(stdout, "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no/such/rules.json: cannot read"), "{stderr}");
}

/// Regression (issue 14): a path that cannot be read was left out of the
/// summary, and its JSON diagnostic did not name it.
#[test]
fn a_missing_path_is_counted_and_named_in_json() {
    let (code, stdout, _) = crate::util::run(&["validate", "no/such/file.fgn", "corpus/magic-draughts/valid"], b"");
    assert_eq!(code, Some(2));
    let valid = crate::util::fgn_files(&crate::util::corpus().join("magic-draughts/valid")).len();
    assert_eq!(stdout, format!("{valid} valid, 0 invalid, 1 not checked\n"));
    let (_, stdout, stderr) = crate::util::run(
        &[
            "--format",
            "json",
            "validate",
            "no/such/file.fgn",
            "corpus/magic-draughts/valid",
        ],
        b"",
    );
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["not_checked"], 1, "{summary}");
    let error: serde_json::Value = serde_json::from_str(stderr.lines().next().unwrap()).unwrap();
    assert_eq!(error["file"], "no/such/file.fgn", "{error}");
    assert_eq!(error["kind"], "error");
}

#[test]
fn quiet_leaves_out_summaries_and_notes_but_not_errors() {
    let (code, stdout, stderr) = crate::util::run(&["--quiet", "validate", "corpus/survival-chess/valid"], b"");
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));
    let canonical = crate::util::scratch(
        "quiet-fmt",
        "canonical.fgn",
        b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n",
    );
    let (code, _, stderr) = crate::util::run(&["fmt", "--check", &canonical], b"");
    assert_eq!((code, stderr.as_str()), (Some(0), "all files are in canonical form\n"));
    let (code, _, stderr) = crate::util::run(&["-q", "fmt", "--check", &canonical], b"");
    assert_eq!(
        (code, stderr.as_str()),
        (Some(0), ""),
        "no `all files are in canonical form`"
    );
    let (code, _, stderr) = crate::util::run(&["-q", "validate", "-"], TORN_WITH_RULE_ERROR);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("[setup-limit]"), "errors stay: {stderr}");
    // Regression: `hash --check --quiet` printed every `OK` line. As with
    // `b3sum --check --quiet`, only the failures are printed.
    let good = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (_, line, _) = crate::util::run(&["hash", good], b"");
    let hash = line.split_whitespace().next().unwrap();
    let sums = crate::util::scratch(
        "quiet-sums",
        "sums",
        format!("{hash}  {good}\n{hash}  {canonical}\n").as_bytes(),
    );
    let (code, stdout, _) = crate::util::run(&["hash", "--check", &sums], b"");
    assert_eq!(code, Some(1));
    assert_eq!(stdout, format!("{good}: OK\n{canonical}: FAILED\n"));
    let (code, stdout, _) = crate::util::run(&["-q", "hash", "--check", &sums], b"");
    assert_eq!((code, stdout), (Some(1), format!("{canonical}: FAILED\n")));
}

#[test]
fn color_always_paints_never_and_piped_auto_do_not() {
    let file = "corpus/survival-chess/invalid/02-two-queens.fgn";
    let (_, _, painted) = crate::util::run(&["--color", "always", "validate", file], b"");
    assert!(painted.contains("\x1b[1;31m[setup-limit]\x1b[0m"), "{painted:?}");
    assert!(painted.contains(&format!("\x1b[1m{file}:")), "{painted:?}");
    for args in [&["--color", "never"][..], &["--color", "auto"], &[]] {
        let (_, _, plain) = crate::util::run(&[args, &["validate", file]].concat(), b"");
        assert!(!plain.contains('\x1b'), "{args:?}: {plain:?}");
    }
    let (_, board, _) = crate::util::run(
        &[
            "--color",
            "always",
            "show",
            "corpus/open-world-chess/valid/owc-04-fog-10x10-in-progress.fgn",
        ],
        b"",
    );
    assert!(board.contains("\x1b[2m"), "fog and coordinates are dimmed: {board:?}");
    // The file's unreadable object on standard output is JSON, never painted.
    let (_, unreadable, _) = crate::util::run(
        &["--color", "always", "json", "corpus/syntax-errors/se-01-bad-square.fgn"],
        b"",
    );
    assert!(
        !unreadable.contains('\x1b') && unreadable.contains("\"type\": \"unreadable\""),
        "{unreadable:?}"
    );
    let (_, _, caret) = crate::util::run(
        &["--color", "always", "json", "corpus/syntax-errors/se-01-bad-square.fgn"],
        b"",
    );
    assert!(caret.starts_with("\x1b[1;31merror\x1b[0m: "), "{caret:?}");
}

#[test]
fn completions_are_written_for_each_shell() {
    for (shell, marker) in [("bash", "_fgn()"), ("zsh", "#compdef fgn"), ("fish", "complete -c fgn")] {
        let (code, script, _) = crate::util::run(&["completions", shell], b"");
        assert_eq!(code, Some(0), "{shell}");
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("leaderboard") && script.contains("ascii"), "{shell}");
    }
    let (code, _, _) = crate::util::run(&["completions", "tcsh"], b"");
    assert_eq!(code, Some(2));
}

#[test]
fn man_writes_roff_pages() {
    let (code, page, _) = crate::util::run(&["man"], b"");
    assert_eq!(code, Some(0));
    assert!(page.contains(".TH fgn 1"), "{page}");
    assert!(page.contains("leaderboard") && page.contains("\\-\\-quiet"), "{page}");
    let (code, page, _) = crate::util::run(&["man", "validate"], b"");
    assert_eq!(code, Some(0));
    assert!(
        page.contains(".TH fgn\\-validate 1") || page.contains(".TH fgn-validate 1"),
        "{page}"
    );
    let (code, _, stderr) = crate::util::run(&["man", "frobnicate"], b"");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("not a command"), "{stderr}");
}

#[test]
fn version_names_the_rules_of_each_game() {
    let (code, text, _) = crate::util::run(&["--version"], b"");
    assert_eq!(code, Some(0));
    assert!(
        text.starts_with(&format!("fgn {}\n", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    for game in fgn_notation::GameKind::ALL {
        let line = format!("  {game} {}\n", fgn_replay::ruleset::rules_version(game));
        assert!(text.contains(&line), "{line:?} missing:\n{text}");
    }
    assert!(text.contains("open-world-chess 1.2"), "{text}");
}

#[test]
fn fmt_check_diff_prints_a_unified_diff_per_file() {
    let dir = scratch_dir("fmt-diff");
    let messy = dir.join("messy.fgn");
    std::fs::write(
        &messy,
        "[Game \"survival-chess\"]\n[Rules   \"1.0\"]\n\n0 w place KE1\n",
    )
    .unwrap();
    let clean = dir.join("clean.fgn");
    std::fs::write(&clean, "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n").unwrap();
    let (code, stdout, stderr) = crate::util::run(&["fmt", "--check", "--diff", dir.to_str().unwrap()], b"");
    assert_eq!(code, Some(1), "{stderr}");
    let name = messy.display().to_string();
    assert_eq!(
        stdout,
        format!(
            "--- {name}\n+++ {name} (canonical)\n@@ -1,4 +1,4 @@\n [Game \"survival-chess\"]\n-[Rules   \"1.0\"]\n+[Rules \"1.0\"]\n \n-0 w place KE1\n+0 w place Ke1\n"
        )
    );
    // --diff belongs to --check.
    let (code, _, _) = crate::util::run(&["fmt", "--diff", &name], b"");
    assert_eq!(code, Some(2));
}

/// Regression (issue 14): `-h` and `--help` opened with different
/// sentences, and the `--format` help every command shows talked about
/// validate's results.
#[test]
fn short_and_long_help_open_with_the_same_sentence() {
    let (_, top, _) = crate::util::run(&["--help"], b"");
    // The commands are listed in groups (issue 39), each line indented,
    // between the usage and the options.
    let listed: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Usage:"))
        .skip(1)
        .take_while(|l| !l.starts_with("Options:"))
        .filter(|l| l.starts_with("  "))
        .collect();
    let commands: Vec<String> = listed
        .iter()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() > 15, "{commands:?}");
    // Regression: the one-paragraph helps of show and rules lost their
    // full stop in this list (clap drops it), so the list mixed two styles.
    for line in listed {
        assert!(
            line.ends_with(['.', '?']),
            "a command's summary without its full stop: {line}"
        );
    }
    for cmd in std::iter::once(None).chain(commands.iter().map(Some)) {
        let args = |flag: &'static str| -> Vec<&str> { cmd.map(String::as_str).into_iter().chain([flag]).collect() };
        let (_, short, _) = crate::util::run(&args("-h"), b"");
        let (_, long, _) = crate::util::run(&args("--help"), b"");
        assert_eq!(short.lines().next(), long.lines().next(), "{cmd:?}");
    }
    let (_, fmt_help, _) = crate::util::run(&["fmt", "--help"], b"");
    let format_help: String = fmt_help
        .split("--format <FORMAT>")
        .nth(1)
        .and_then(|s| s.split("\n  -").next())
        .unwrap_or_default()
        .to_string();
    assert!(!format_help.is_empty(), "{fmt_help}");
    assert!(!format_help.contains("validate"), "{format_help}");
}

#[test]
fn show_ascii_draws_letters_on_every_board() {
    for file in [
        "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        "corpus/open-world-chess/valid/owc-04-fog-10x10-in-progress.fgn",
        "corpus/magic-draughts/valid/04-charm-and-fury-win.fgn",
        "corpus/great-war-chess/valid/gwc-01-raids-no-charges.fgn",
    ] {
        let (code, text, _) = crate::util::run(&["show", "--ascii", file], b"");
        assert_eq!(code, Some(0));
        let board: String = text.split("\n\n").next().unwrap().to_string();
        assert!(board.is_ascii(), "{file}:\n{board}");
    }
    let (_, text, _) = crate::util::run(
        &[
            "show",
            "--ascii",
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        ],
        b"",
    );
    assert!(text.contains('K') && text.contains("K Q R B N P white"), "{text}");
}

/// Regression: `fmt --write` compared the file with what it had read and
/// then renamed its rewrite over it without the lock `fgn append` takes,
/// so a line appended between the two went to the replaced file and was
/// lost. Here the test holds the lock while fmt runs and appends a line
/// before releasing it: fmt must wait, see the file changed and keep it.
#[test]
fn fmt_write_waits_for_an_appenders_lock_and_loses_no_line() {
    use std::io::Write;
    let messy = b"[Game \"survival-chess\"]\n[Rules   \"1.0\"]\n\n0 w place KE1\n";
    let path = crate::util::scratch("fmt-lock", "log.fgn", messy);
    let mut held = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    held.lock().unwrap();
    let fmt = std::process::Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(["fmt", "--write", &path])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for fmt to have read the file and reached the lock on an
    // idle machine; on a busy one fmt may read after the append, which it
    // then formats whole, and nothing is lost either way.
    std::thread::sleep(std::time::Duration::from_millis(400));
    held.write_all(b"0 b place Ke8\n").unwrap();
    held.unlock().unwrap();
    drop(held);
    let out = fmt.wait_with_output().unwrap();
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(
        now.ends_with("0 b place Ke8\n"),
        "the appended line was lost: {now:?} ({})",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A torn download (issue 35 item 7): valid with a warning, and refused by
/// every command that reports validity under `--strict`, in text and JSON.
#[test]
fn strict_refuses_a_torn_download_in_every_command_that_reports_validity() {
    let torn = crate::util::scratch(
        "strict",
        "torn.fgn",
        b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n0 b pla",
    );
    let (code, out, err) = crate::util::run(&["validate", &torn], b"");
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("[warning]"), "{err}");
    let (code, out, _) = crate::util::run(&["validate", "--strict", &torn], b"");
    assert_eq!((code, out.as_str()), (Some(1), "0 valid, 1 invalid\n"));
    let (code, out, _) = crate::util::run(&["--format", "json", "validate", "--strict", &torn], b"");
    assert_eq!(code, Some(1));
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        (line["status"].as_str(), line["warnings"].as_u64()),
        (Some("invalid"), Some(1))
    );
    let (code, out, _) = crate::util::run(&["json", &torn], b"");
    assert_eq!(code, Some(0));
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["summary"]["warnings"][0]["kind"], "torn-line", "{doc:#}");
    for args in [
        &["json", "--strict"][..],
        &["select", "--strict"][..],
        &["stats", "--strict"][..],
    ] {
        let mut args = args.to_vec();
        args.push(&torn);
        let (code, _, err) = crate::util::run(&args, b"");
        assert_eq!(code, Some(1), "{args:?}: {err}");
    }
    let (_, _, err) = crate::util::run(&["leaderboard", "--strict", &torn], b"");
    assert!(err.contains("skipped") && err.contains("--strict"), "{err}");
}

/// Issue 36 item 6: a finished seeded game without its seed, and a game
/// with random outcomes and no `SeedCommit`, are valid but say that their
/// outcomes were never checked, in text, `--verbose`, JSON and stats; and
/// `--strict` refuses them.
#[test]
fn random_outcomes_no_seed_checked_are_said_and_refused_by_strict() {
    let seeded =
        std::fs::read_to_string(crate::util::corpus().join("open-world-chess/valid/owc-18-salted-seed-revealed.fgn"))
            .unwrap();
    let unrevealed: String = seeded
        .lines()
        .filter(|l| !l.contains("@ seed"))
        .map(|l| format!("{l}\n"))
        .collect();
    let unrevealed = crate::util::scratch("unchecked", "unrevealed.fgn", unrevealed.as_bytes());
    let uncommitted = crate::util::scratch(
        "unchecked",
        "uncommitted.fgn",
        b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e3\n",
    );
    for (file, says) in [
        (&unrevealed, "seed was not revealed"),
        (&uncommitted, "no `SeedCommit`"),
    ] {
        let (code, out, err) = crate::util::run(&["validate", "--verbose", file], b"");
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("[warning]") && err.contains(says), "{err}");
        assert!(out.contains("random outcomes not checked"), "{out}");
        let (code, _, _) = crate::util::run(&["validate", "--strict", file], b"");
        assert_eq!(code, Some(1));
        let (_, out, _) = crate::util::run(&["json", file], b"");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["summary"]["outcomes_checked"], false, "{doc:#}");
        assert_eq!(doc["summary"]["warnings"][0]["kind"], "outcomes-unchecked", "{doc:#}");
    }
    let (_, out, _) = crate::util::run(&["--format", "json", "stats", &unrevealed, &uncommitted], b"");
    let stats: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["games"][0]["outcomes_unchecked"], 2, "{stats:#}");
    let (_, out, _) = crate::util::run(&["leaderboard", &unrevealed, &uncommitted], b"");
    assert!(
        out.contains("(2 with random outcomes no revealed seed checked)"),
        "{out}"
    );
    let (_, out, _) = crate::util::run(&["--format", "json", "leaderboard", &unrevealed, &uncommitted], b"");
    let board: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(board["games"][0]["outcomes_unchecked"], 2, "{board:#}");
    // The seed revealed: checked, and nothing to warn about.
    let (code, out, err) = crate::util::run(
        &[
            "validate",
            "--strict",
            "--verbose",
            "corpus/open-world-chess/valid/owc-18-salted-seed-revealed.fgn",
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("random outcomes checked by the revealed seed"), "{out}");
}

/// Issue 35 item 5: a tag that looks like a parameter is warned about
/// (and refused under `--strict`), at its line.
#[test]
fn a_tag_that_looks_like_a_parameter_is_a_warning_at_its_line() {
    let file = crate::util::scratch(
        "lookalike",
        "hp.fgn",
        b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[MoveSecond \"30\"]\n\n0 w place Ke1\n",
    );
    let (code, _, err) = crate::util::run(&["validate", &file], b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("hp.fgn:3:1: [warning] tag `MoveSecond`") && err.contains("`MoveSeconds`"),
        "{err}"
    );
    let (code, _, _) = crate::util::run(&["validate", "--strict", &file], b"");
    assert_eq!(code, Some(1));
}

/// Most tests, the crash loops above and the corpus loops among them, run
/// fgn in this process (`util::fgn`): what such a run writes and its exit
/// code must be the binary's, byte for byte, or those tests would prove
/// nothing about the binary. Compared over commands that read standard
/// input, directories with several jobs, diagnostics in both formats, a
/// usage error, help, a player's view, and each command the corpus loops
/// run on files named relative to the workspace root, as they name them.
#[test]
fn a_run_in_this_process_writes_what_the_binary_writes() {
    let root = crate::util::root();
    let log = std::fs::read(root.join("corpus/survival-chess/valid/01-bishop-queen-mate.fgn")).expect("a corpus log");
    let dir = root.join("corpus/magic-draughts").display().to_string();
    let json = fgn_binary(
        &["json", "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn"],
        b"",
    )
    .stdout;
    let gwc = "corpus/great-war-chess/valid/gwc-01-raids-no-charges.fgn";
    let cases: Vec<(Vec<&str>, &[u8])> = vec![
        (vec!["json", "corpus/syntax-errors/se-01-bad-square.fgn"], b""),
        (
            vec!["json", "corpus/magic-draughts/valid/01-plain-capture-all.fgn"],
            b"",
        ),
        (
            vec![
                "validate",
                "--verbose",
                "corpus/great-war-chess/invalid/gwc-i01-setup-off-own-half.fgn",
            ],
            b"",
        ),
        (vec!["validate", "--verbose", gwc], b""),
        (vec!["show", gwc], b""),
        (vec!["hash", "--as", "black", gwc], b""),
        (
            vec!["fmt", "corpus/survival-chess/invalid/01-place-on-opponents-half.fgn"],
            b"",
        ),
        (vec!["from-json", "-"], &json),
        (vec!["view", "--as", "white", gwc], b""),
        (
            vec![
                "verify-view",
                "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn",
                "corpus/open-world-chess/views/owc-01-raid-king-killed.white.fgn",
            ],
            b"",
        ),
        (
            vec![
                "diff",
                gwc,
                "corpus/great-war-chess/valid/gwc-02-fortifications-resign.fgn",
            ],
            b"",
        ),
        (vec!["validate", "-"], &log),
        (vec!["--format", "json", "validate", "-"], TORN_WITH_RULE_ERROR),
        (vec!["validate", "-"], TORN_WITH_RULE_ERROR),
        (vec!["show", "--as", "white", "-"], &log),
        (vec!["--format", "json", "show", "-"], &log),
        (vec!["fmt", "-"], b"[Game \"survival-chess\"]\n\n0 w nonsense\n"),
        (vec!["--jobs", "3", "validate", "-v", &dir], b""),
        (vec!["--jobs", "2", "events", "--ndjson", &dir], b""),
        (vec!["--color", "always", "validate", &dir], b""),
        (vec!["view", "--as", "black", "-"], &log),
        (vec!["validate", "--no-such-flag"], b""),
        (vec!["--format", "json", "frobnicate"], b""),
        (vec!["fmt", "--help"], b""),
    ];
    for (args, stdin) in cases {
        let binary = fgn_binary(&args, stdin);
        let inside = fgn_in_process(&args, stdin).unwrap_or_else(|p| panic!("{args:?} panicked: {p}"));
        assert_eq!(Some(inside.code), binary.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&inside.stdout),
            String::from_utf8_lossy(&binary.stdout),
            "{args:?}"
        );
        assert_eq!(
            String::from_utf8_lossy(&inside.stderr),
            String::from_utf8_lossy(&binary.stderr),
            "{args:?}"
        );
    }
}

/// Regression (issue 39, item 10): `-q` left `diff`'s "same: ...",
/// `verify-extends`' verdict and `stats`' "N files, N distinct logs" in.
/// Quiet means only errors and the output asked for, in every command:
/// each runs here with -q on inputs it accepts, and writes nothing on
/// standard error, and on standard output only what it exists to write.
#[test]
fn quiet_writes_only_errors_and_the_output_asked_for_in_every_command() {
    let dir = scratch_dir("quiet-every-command");
    let at = |name: &str| dir.join(name).display().to_string();
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let view = "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn";
    let valid = "corpus/survival-chess/valid";
    let canonical = at("canonical.fgn");
    std::fs::write(&canonical, fgn(&["fmt", log], b"").stdout).unwrap();
    let untidy = at("untidy.fgn");
    std::fs::write(
        &untidy,
        format!("{}\n\n", String::from_utf8_lossy(&fgn(&["fmt", log], b"").stdout)),
    )
    .unwrap();
    let sums = at("SUMS");
    std::fs::write(&sums, fgn(&["hash", valid], b"").stdout).unwrap();
    let rules = at("rules.json");
    std::fs::write(&rules, fgn(&["rules", "show", "survival-chess"], b"").stdout).unwrap();
    let json = at("games.json");
    std::fs::write(&json, fgn(&["json", valid], b"").stdout).unwrap();
    let one_json = at("game.json");
    std::fs::write(&one_json, fgn(&["json", log], b"").stdout).unwrap();
    let (view_out, gen_out, json_out, site) = (at("view.fgn"), at("gen"), at("from-json"), at("site"));
    // Each command line, and whether its standard output is what it was
    // asked for (else it has none: its work is a file or its exit status).
    let cases: Vec<(Vec<&str>, bool)> = vec![
        (vec!["fmt", log], true),
        (vec!["fmt", "--check", &canonical], false),
        (vec!["fmt", "--write", &untidy], false),
        (vec!["json", valid], true),
        (vec!["validate", valid], false),
        (vec!["validate", "--rules", &rules, log], false),
        (vec!["impact", "--rules", &rules, log], false),
        (vec!["show", log], true),
        (vec!["html", log], true),
        (vec!["html", "--out", &site, valid], false),
        (vec!["leaderboard", valid], true),
        (vec!["completions", "bash"], true),
        (vec!["man"], true),
        (vec!["rules", "show", "survival-chess"], true),
        (vec!["view", "--as", "white", log], true),
        (vec!["view", "--as", "white", "--out", &view_out, log], false),
        (vec!["verify-view", log, view], false),
        (vec!["hash", valid], true),
        (vec!["hash", "--check", &sums], false),
        (vec!["verify-extends", log, &canonical], false),
        (vec!["diff", log, &canonical], false),
        (vec!["append", &canonical, "5 w chat \"thanks\""], false),
        (vec!["append", "--repair", &canonical], false),
        (
            vec![
                "gen",
                "--game",
                "survival-chess",
                "--seed",
                "1",
                "--count",
                "2",
                "--out",
                &gen_out,
            ],
            false,
        ),
        (vec!["from-json", &one_json], true),
        (vec!["from-json", "--out", &json_out, &json], false),
        (vec!["events", valid], true),
        (vec!["select", "--outcome", "1-0", valid], true),
        (vec!["stats", valid], true),
    ];
    for (args, writes) in cases {
        let mut all = vec!["-q"];
        all.extend_from_slice(&args);
        let out = fgn(&all, b"");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?} -q wrote on standard error");
        assert_eq!(
            !stdout.is_empty(),
            writes,
            "{args:?} -q wrote on standard output:\n{stdout}"
        );
    }
    // What -q leaves out of stats is its summary line alone.
    let loud = String::from_utf8_lossy(&fgn(&["stats", valid], b"").stdout).into_owned();
    let quiet = String::from_utf8_lossy(&fgn(&["-q", "stats", valid], b"").stdout).into_owned();
    let (summary, tables) = loud.split_once("\n\n").unwrap();
    assert!(summary.ends_with("distinct logs"), "{summary}");
    assert_eq!(quiet, format!("{tables}"));
}

/// Regression (issue 39, item 11): `select`, `stats`, `hash`, `impact` and
/// `append` wrote syntax errors in the caret form among one-line rule
/// errors, and the commands said "cannot be checked" in three ways. Every
/// command that replays now writes each fault on one line, and a log that
/// cannot be checked is `FILE: unsupported: why` everywhere.
#[test]
fn every_command_that_replays_writes_faults_on_one_line_and_unsupported_alike() {
    let dir = scratch_dir("one-error-style");
    let corpus = crate::util::corpus();
    std::fs::copy(
        corpus.join("syntax-errors/se-01-bad-square.fgn"),
        dir.join("a-syntax.fgn"),
    )
    .unwrap();
    std::fs::copy(
        corpus.join("survival-chess/invalid/02-two-queens.fgn"),
        dir.join("b-rule.fgn"),
    )
    .unwrap();
    let d = dir.display().to_string();
    let one_line = |args: &[&str]| {
        let out = fgn(args, b"");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let faults: Vec<&str> = err.lines().filter(|l| l.contains(": [")).collect();
        assert!(faults.iter().any(|l| l.contains("[syntax]")), "{args:?}:\n{err}");
        assert!(!err.contains("-->"), "{args:?} wrote the caret form:\n{err}");
        err
    };
    let validate = one_line(&["validate", &d]);
    for args in [&["select", &d][..], &["stats", &d], &["events", &d]] {
        one_line(args);
    }
    // The same lines as validate's, in every command that reports faults of
    // an archive (hash only says that a log with syntax errors is not hashed).
    assert_eq!(one_line(&["select", &d]), validate);
    assert_eq!(one_line(&["stats", &d]), validate);
    let hashed = String::from_utf8_lossy(&fgn(&["hash", &d], b"").stderr).into_owned();
    assert!(hashed.lines().any(|l| l.contains("[syntax]")), "{hashed}");
    assert!(!hashed.contains("-->"), "{hashed}");

    // A player's view cannot be checked: said the same way everywhere.
    let view = "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn";
    let said = format!("{view}: unsupported: ");
    for args in [&["validate", view][..], &["select", view], &["events", view]] {
        let err = String::from_utf8_lossy(&fgn(args, b"").stderr).into_owned();
        assert!(err.starts_with(&said), "{args:?}:\n{err}");
    }
    let board = String::from_utf8_lossy(&fgn(&["leaderboard", view], b"").stderr).into_owned();
    assert!(board.contains(&format!("skipped: {view}: unsupported")), "{board}");
}

/// Regression (issue 39, item 11): a missing file was reported in Rust's
/// words, `No such file or directory (os error 2)`; messages say what went
/// wrong in fgn's words, without the error number.
#[test]
fn io_errors_are_worded_without_rust_text() {
    let missing = "no/such/file.fgn";
    for args in [
        &["validate", missing][..],
        &["fmt", missing],
        &["show", missing],
        &["hash", missing],
        &["diff", missing, missing],
        &["from-json", missing],
        &["append", missing, "1 w e2-e4"],
    ] {
        let out = fgn(args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no such file or directory"), "{args:?}: {err}");
        assert!(!err.contains("os error") && !err.contains("No such"), "{args:?}: {err}");
    }
}
