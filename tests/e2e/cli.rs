//! The command line itself: help, usage errors and exit codes.

use crate::util::fgn;

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
