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

/// The JSON of one corpus log, as `fgn json --ndjson` writes it: one line.
fn ndjson_of(log: &str) -> String {
    let (code, line, err) = run(&["json", "--ndjson", log], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(line.lines().count(), 1, "{line}");
    line
}

/// Issue 38, item 3: `from-json` read its whole input before it wrote a
/// game (978 MB for one game of 200,000 events). It reads a stream: each
/// game is written before the next document is read. Fed through a pipe,
/// the first game's file is there while the second line has not been
/// written yet; the second, malformed, then ends the run with its error
/// and the tally of what was written.
#[test]
fn from_json_writes_each_game_of_a_pipe_before_it_reads_the_next() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let first = ndjson_of(log);
    let (_, canonical, _) = run(&["from-json", "-"], first.as_bytes());
    let out_dir = scratch_dir("from-json-pipe").join("games");
    let out = out_dir.display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(["from-json", "--out", &out, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fgn starts");
    let mut pipe = child.stdin.take().expect("standard input is piped");
    pipe.write_all(first.as_bytes()).expect("the first line is written");
    pipe.flush().expect("flushed");
    let written = out_dir.join("0001-01-bishop-queen-mate.fgn");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&written).ok().as_deref() != Some(canonical.as_str()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the first game was not written while the pipe stayed open"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = "{\"format\": \"fgn\", \"version\": 3,\n";
    pipe.write_all(second.as_bytes()).expect("the second line is written");
    drop(pipe);
    let ran = child.wait_with_output().expect("fgn ends");
    let err = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(1), "{err}");
    assert!(ran.stdout.is_empty());
    assert_eq!(
        err,
        // The place is the whole input's: the end, after the second line.
        format!("error: <stdin>: not JSON: EOF while parsing a value at line 3 column 0\nwrote 1 file in {out}\n")
    );
    assert_eq!(std::fs::read_to_string(&written).unwrap(), canonical);
}

/// Issue 38, item 3: an array is read one element at a time, each game
/// written as it comes: a fault of the JSON in the third element leaves
/// the two before it written, and says where the fault is in the whole
/// input.
#[test]
fn from_json_writes_each_element_of_an_array_before_a_fault_after_it() {
    let logs = [
        "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        "corpus/magic-draughts/valid/01-plain-capture-all.fgn",
    ];
    let (code, array, err) = run(&["json", logs[0], logs[1]], b"");
    assert_eq!(code, Some(0), "{err}");
    let cut = array.trim_end().strip_suffix(']').expect("an array");
    let broken = format!("{cut},\n  {{\"format\": \"fgn\", \"version\": 3, \"header\": {{}} \"events\": []}}\n]\n");
    let line = broken.lines().count() - 1;
    let out_dir = scratch_dir("from-json-array-fault");
    let out = out_dir.display().to_string();
    let (code, stdout, err) = run(&["from-json", "--out", &out, "-"], broken.as_bytes());
    assert_eq!((code, stdout.as_str()), (Some(1), ""), "{err}");
    assert_eq!(
        err,
        format!("error: <stdin>: not JSON: expected `,` or `}}` at line {line} column 48\nwrote 2 files in {out}\n")
    );
    let names: Vec<String> = crate::util::fgn_files(&out_dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["0001-01-bishop-queen-mate.fgn", "0002-01-plain-capture-all.fgn"]
    );
    // Read whole, the same input is refused at the same place: the
    // stream's places are those of the whole input.
    let whole = fgn_notation::json::from_json(&broken).unwrap_err();
    assert!(err.contains(&whole), "{whole}");
}

/// Issue 38, item 3: version 4 documents (`"type": "game"` after the
/// version) read as the game of version 3, and an object of `"type":
/// "unreadable"`, which `fgn json` writes for a file it could not read,
/// is skipped with a note naming its file, and counted in the tally.
/// Hand-written documents, so that the reader is held to the format, not
/// to what the writer of the day writes.
#[test]
fn from_json_reads_version_4_and_skips_unreadable_objects() {
    use serde_json::{json, Value};
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    // `fgn json` writes version 4: its document, less `type`, is version 3's.
    let mut v3: Value = serde_json::from_str(&ndjson_of(log)).unwrap();
    v3["version"] = 3.into();
    v3.as_object_mut().unwrap().remove("type");
    let (_, canonical, _) = run(&["from-json", "-"], v3.to_string().as_bytes());
    let mut v4 = serde_json::Map::new();
    v4.insert("format".into(), "fgn".into());
    v4.insert("version".into(), 4.into());
    v4.insert("type".into(), "game".into());
    for (key, value) in v3.as_object().unwrap() {
        if key != "format" && key != "version" {
            v4.insert(key.clone(), value.clone());
        }
    }
    let v4 = Value::Object(v4);
    let unreadable = json!({"format": "fgn", "version": 4, "type": "unreadable",
        "file": "archive/torn.fgn",
        "summary": {"status": "invalid", "error": {"kind": "syntax", "line": 3, "column": 1, "message": "x"}}});
    let (code, text, err) = run(&["from-json", "-"], v4.to_string().as_bytes());
    assert_eq!((code, text.as_str(), err.as_str()), (Some(0), canonical.as_str(), ""));

    // One game beside an unreadable object is still one game.
    let stream = format!("{unreadable}\n{v4}\n");
    let (code, text, err) = run(&["from-json", "-"], stream.as_bytes());
    assert_eq!((code, text.as_str()), (Some(0), canonical.as_str()), "{err}");
    let note = "<stdin>: line 1: skipped: it stands for archive/torn.fgn, which `fgn json` could not read\n";
    assert_eq!(err, note);

    // In an array with --out: the games keep their places' numbers, and
    // the tally counts the skipped object.
    let array = json!([v4, unreadable, v3]).to_string();
    let out_dir = scratch_dir("from-json-v4");
    let out = out_dir.display().to_string();
    let (code, _, err) = run(&["from-json", "--out", &out, "-"], array.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        err,
        format!(
            "<stdin>: document 2 of the array: skipped: it stands for archive/torn.fgn, which `fgn json` could not read\n\
             wrote 2 files in {out}; skipped 1 object for a file that `fgn json` could not read\n"
        )
    );
    for name in ["0001-01-bishop-queen-mate.fgn", "0003-01-bishop-queen-mate.fgn"] {
        assert_eq!(
            std::fs::read_to_string(out_dir.join(name)).unwrap(),
            canonical,
            "{name}"
        );
    }

    // `type` is version 4's: before it, an unknown field; in it, a game or
    // an unreadable file's object only.
    let mut typed = v3.clone();
    typed["type"] = "game".into();
    let (code, _, err) = run(&["from-json", "-"], typed.to_string().as_bytes());
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not an FGN JSON game: unknown field `type`"), "{err}");
    let mut other = v4.clone();
    other["type"] = "totals".into();
    let (code, _, err) = run(&["from-json", "-"], other.to_string().as_bytes());
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err,
        "error: <stdin>: \"type\" is \"totals\": expected \"game\" (or \"unreadable\", for a file `fgn json` could not read)\n"
    );
}
