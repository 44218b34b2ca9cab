//! The command line itself: help, usage errors and exit codes.

use crate::util::{fgn, scratch_dir};

#[test]
fn help_names_every_command() {
    let out = fgn(&["--help"], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["fmt", "json", "from-json", "validate", "show", "leaderboard", "rules"] {
        assert!(text.contains(cmd), "--help does not mention {cmd}:\n{text}");
    }
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        &["frobnicate"][..],
        &["fmt"][..],
        &["show", "--at", "x", "-"][..],
        &["validate", "no/such/file.fgn"][..],
    ] {
        let out = fgn(args, b"");
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
            let out = fgn(cmd, &bytes);
            let code = out.status.code();
            assert!(
                matches!(code, Some(0..=2)),
                "{cmd:?} on round {round}: exit {code:?}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                !String::from_utf8_lossy(&out.stderr).contains("panicked"),
                "{cmd:?} panicked on round {round}"
            );
        }
    }
}

#[test]
fn truncated_and_damaged_corpus_logs_never_crash() {
    let mut state = 42u64;
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
            for cmd in [&["validate", "-"][..], &["show", "-"], &["fmt", "-"]] {
                let out = fgn(cmd, &damaged);
                assert!(
                    matches!(out.status.code(), Some(0..=2)),
                    "{cmd:?} on {}: {:?}",
                    path.display(),
                    out.status
                );
            }
        }
    }
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
            "binary.fgn",
            vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3],
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
        assert_eq!(stderr.matches("error:").count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
    }
}
