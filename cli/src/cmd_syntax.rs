//! `fgn fmt`, `fgn json` and `fgn from-json`: the commands that need only the notation.

use std::io::Write;
use std::path::PathBuf;

use fgn_notation::json::{from_json, JsonGame};
use fgn_notation::{parse, Parsed};

use crate::inputs::{collect, Input};
use crate::report::{Reporter, Status};

/// Reads and parses every input, reporting syntax errors; yields the inputs
/// that parsed without fault.
pub fn parse_all(paths: &[PathBuf], rep: &mut Reporter) -> Vec<(Input, Vec<u8>, Parsed)> {
    let inputs = match collect(paths) {
        Ok(i) => i,
        Err(e) => {
            rep.error(&e);
            return Vec::new();
        }
    };
    if inputs.is_empty() {
        rep.error("no .fgn files found in the given paths");
    }
    let mut out = Vec::new();
    for input in inputs {
        let bytes = match input.read() {
            Ok(b) => b,
            Err(e) => {
                rep.error(&e);
                continue;
            }
        };
        let parsed = parse(&bytes);
        for d in &parsed.diagnostics {
            rep.diagnostic(&input.name(), d, "syntax");
        }
        out.push((input, bytes, parsed));
    }
    out
}

/// `fgn fmt`.
pub fn fmt(paths: &[PathBuf], check: bool, write: bool, rep: &mut Reporter) {
    if check && write {
        rep.error("--check and --write exclude each other");
        return;
    }
    let parsed = parse_all(paths, rep);
    if !check && !write && parsed.len() > 1 {
        rep.error("formatting several files needs --check or --write (without them fmt prints one file)");
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let mut unformatted = 0;
    for (input, bytes, p) in parsed {
        // Formatting a torn file would drop its last line, so fmt refuses it
        // in every mode; the warning above says where the line is.
        if !p.is_ok() || p.is_torn() {
            if p.is_ok() {
                rep.invalid(&input.name(), "not formatted: the last line is torn (no line end)");
            } else if write {
                rep.note(&format!("{}: not rewritten because it has errors", input.name()));
            }
            continue;
        }
        // Canonical text writes the markers the rules derive (`=Q`, `+`, `#`),
        // so a log whose game has an engine is completed before printing.
        let mut document = p.document;
        document.game = fgn_replay::complete_markers(&document.game);
        let text = document.formatted();
        if check {
            if text.as_bytes() != bytes.as_slice() {
                unformatted += 1;
                rep.invalid(&input.name(), "not in canonical form (run `fgn fmt --write` on it)");
            }
        } else if write {
            match &input {
                Input::Stdin => rep.error("--write needs files, not standard input"),
                Input::File(path) if text.as_bytes() != bytes.as_slice() => {
                    if let Err(e) = write_atomically(path, text.as_bytes()) {
                        rep.error(&format!("{}: cannot write: {e}", path.display()));
                    }
                }
                Input::File(_) => {}
            }
        } else if let Err(e) = stdout.write_all(text.as_bytes()) {
            rep.error(&format!("cannot write to standard output: {e}"));
        }
    }
    if check && unformatted == 0 && rep.status == Status::Ok {
        rep.note("all files are in canonical form");
    }
}

/// Replaces a file by writing a sibling and renaming it over, so that an
/// interrupted write never leaves half a log.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".fgn-fmt.tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// `fgn json`.
pub fn json(paths: &[PathBuf], ndjson: bool, rep: &mut Reporter) {
    let parsed = parse_all(paths, rep);
    let mut stdout = std::io::stdout().lock();
    for (input, _, p) in parsed {
        if !p.is_ok() {
            continue;
        }
        let doc = JsonGame::from(&p.document.game);
        let text = if ndjson {
            let mut value = serde_json::to_value(&doc).expect("a game always serializes");
            if let (Input::File(path), Some(obj)) = (&input, value.as_object_mut()) {
                obj.insert("file".into(), path.display().to_string().into());
            }
            value.to_string()
        } else {
            serde_json::to_string_pretty(&doc).expect("a game always serializes")
        };
        if let Err(e) = writeln!(stdout, "{text}") {
            rep.error(&format!("cannot write to standard output: {e}"));
            return;
        }
    }
}

/// `fgn from-json`.
pub fn from_json_cmd(path: &std::path::Path, rep: &mut Reporter) {
    let input = if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_path_buf())
    };
    let bytes = match input.read() {
        Ok(b) => b,
        Err(e) => return rep.error(&e),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return rep.invalid(&input.name(), "not UTF-8 text");
    };
    // `fgn json --ndjson` adds the source file's name; it is not part of the game.
    let text = strip_file_field(text);
    match from_json(&text) {
        Ok(game) => {
            // A faithful conversion: the events as the JSON has them (so that
            // json -> from-json -> json is the identity); `fgn fmt` adds the
            // markers the rules derive.
            if let Err(e) = std::io::stdout().lock().write_all(game.canonical_text().as_bytes()) {
                rep.error(&format!("cannot write to standard output: {e}"));
            }
        }
        Err(e) => rep.invalid(&input.name(), &e),
    }
}

fn strip_file_field(text: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(mut obj)) if obj.contains_key("file") => {
            obj.remove("file");
            serde_json::Value::Object(obj).to_string()
        }
        _ => text.to_string(),
    }
}
