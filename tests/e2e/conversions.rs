//! What `fmt --check --diff` and `from-json` say about an input they
//! cannot take as it is.

use crate::util::{run, scratch, scratch_dir};

/// Regression (issue 39): a log with CRLF line ends got a diff marking
/// every line changed, the change invisible, and nothing said why. A note
/// says that its lines end in CRLF, which canonical FGN writes as LF, and
/// the diff shows only the changes that can be seen.
#[test]
fn fmt_check_diff_says_a_crlf_file_has_crlf_line_ends_and_shows_the_other_changes() {
    let log = "[Game \"survival-chess\"]\r\n[Rules   \"1.0\"]\r\n[Board \"8x8\"]\r\n\r\n0 w place  Ke1\r\n";
    let file = scratch("fmt-crlf", "crlf.fgn", log.as_bytes());
    let (code, diff, err) = run(&["fmt", "--check", "--diff", &file], b"");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{file}: its lines end in CRLF (\\r\\n), which canonical FGN writes as LF (\\n); the diff leaves that change out"
        )),
        "{err}"
    );
    assert!(!diff.contains('\r'), "{diff:?}");
    let changed: Vec<&str> = diff.lines().filter(|l| l.starts_with(['-', '+'])).collect();
    assert_eq!(
        changed[2..],
        [
            "-[Rules   \"1.0\"]",
            "+[Rules \"1.0\"]",
            "-0 w place  Ke1",
            "+0 w place Ke1"
        ],
        "{diff}"
    );
    // Only the line ends differ: the note, and no diff at all.
    let only = scratch(
        "fmt-crlf",
        "only.fgn",
        log.replace("   ", " ").replace("  ", " ").as_bytes(),
    );
    let (code, diff, err) = run(&["fmt", "--check", "--diff", &only], b"");
    assert_eq!((code, diff.as_str()), (Some(1), ""), "{err}");
    assert!(err.contains("its lines end in CRLF"), "{err}");
    // Without --diff the note says why, and nothing of a diff.
    let (_, _, err) = run(&["fmt", "--check", &only], b"");
    assert!(err.ends_with("which canonical FGN writes as LF (\\n)\n"), "{err}");
    // A log with LF line ends gets no such note.
    let lf = scratch("fmt-crlf", "lf.fgn", log.replace("\r\n", "\n").as_bytes());
    let (_, _, err) = run(&["fmt", "--check", "--diff", &lf], b"");
    assert!(!err.contains("CRLF"), "{err}");
}

/// Regression (issue 39): `from-json` said "not an FGN JSON game: invalid
/// type ..." of an event it could not read, without saying which. The
/// error names the event counting from 1 and the field as a jq path.
#[test]
fn from_json_names_the_event_and_the_field_it_cannot_read() {
    let (code, json, err) = run(&["json", "corpus/survival-chess/valid/01-bishop-queen-mate.fgn"], b"");
    assert_eq!(code, Some(0), "{err}");
    let mut doc: serde_json::Value = serde_json::from_str(&json).expect("fgn json writes JSON");
    doc["events"][6]["action"]["to"] = "z99".into();
    let file = scratch("from-json-event", "bad.json", doc.to_string().as_bytes());
    let (code, out, err) = run(&["from-json", &file], b"");
    assert_eq!((code, out.as_str()), (Some(1), ""), "{err}");
    assert!(
        err.starts_with(&format!(
            "error: {file}: event 7 (counting from 1), at .events[6].action.to: expected a square"
        )),
        "{err}"
    );
    // In an array, after the document's place.
    let array = serde_json::json!([doc.clone(), doc]);
    let file = scratch("from-json-event", "bad-array.json", array.to_string().as_bytes());
    let out_dir = scratch_dir("from-json-event-out");
    let out_dir = out_dir.to_str().expect("a UTF-8 path");
    let (code, _, err) = run(&["from-json", "--out-dir", out_dir, &file], b"");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(": document 2 of the array: event 7 (counting from 1), at .events[6].action.to:"),
        "{err}"
    );
}
