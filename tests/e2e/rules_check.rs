//! `fgn rules check FILE`: a rules file checked as `--rules` reads it,
//! without a log (issue 39, item 17).

use crate::util::{run, scratch};

/// A rules file that can be used is valid (exit 0) and the games it gives
/// parameters to are named; one that cannot is invalid (exit 1) with the
/// error `--rules` gives, naming the games meant and the field, or the
/// nearest name to a misspelt one; one that cannot be read is an I/O error
/// (exit 2). With --format json the file's line is validate's.
#[test]
fn rules_check_says_whether_a_rules_file_can_be_used() {
    let keyed = scratch(
        "rules-check",
        "keyed.json",
        br#"{"open-world-chess": {"moves_per_turn": 2}}"#,
    );
    let (code, out, err) = run(&["rules", "check", &keyed], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!("{keyed}: valid: parameters for open-world-chess (moves_per_turn)\n")
    );
    let one = scratch("rules-check", "one.json", br#"{"board": "10x10", "move_seconds": 30}"#);
    let (code, out, err) = run(&["rules", "check", &one], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!(
            "{one}: valid: parameters for survival-chess, open-world-chess, great-war-chess (board, move_seconds)\n"
        )
    );
    let (code, out, _) = run(&["--quiet", "rules", "check", &keyed], b"");
    assert_eq!((code, out.as_str()), (Some(0), ""));

    let typed = scratch("rules-check", "typed.json", br#"{"board": 10}"#);
    let (code, out, err) = run(&["rules", "check", &typed], b"");
    assert_eq!(code, Some(1));
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!("error: {typed}: rules for survival-chess, open-world-chess, great-war-chess: `board`: invalid type: integer `10`, expected a string\n")
    );
    // --rules says the same of it, as a usage error of the run.
    let (code, _, err) = run(&["validate", "--rules", &typed, "corpus/survival-chess/valid"], b"");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("rules for survival-chess, open-world-chess, great-war-chess: `board`"),
        "{err}"
    );

    let misspelt = scratch(
        "rules-check",
        "misspelt.json",
        br#"{"survival-chess": {}, "magic-draugts": {}}"#,
    );
    let (code, _, err) = run(&["rules", "check", &misspelt], b"");
    assert_eq!(code, Some(1));
    assert!(err.trim_end().ends_with("did you mean `magic-draughts`?"), "{err}");

    let (code, out, err) = run(&["--format", "json", "rules", "check", &typed], b"");
    assert_eq!(code, Some(1));
    let line: serde_json::Value = serde_json::from_str(out.trim()).expect("a JSON line");
    assert_eq!(
        (line["file"].as_str(), line["status"].as_str()),
        (Some(typed.as_str()), Some("invalid"))
    );
    let diagnostic: serde_json::Value = serde_json::from_str(err.trim()).expect("a JSON diagnostic");
    assert_eq!(diagnostic["kind"], "invalid");

    let (code, out, err) = run(&["rules", "check", "no-such-rules.json"], b"");
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("no-such-rules.json"), "{err}");
}
