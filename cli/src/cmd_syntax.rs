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
    let (inputs, errors) = collect(paths);
    for e in &errors {
        rep.error(e);
    }
    if inputs.is_empty() && errors.is_empty() {
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

/// `fgn fmt`; with `diff` (and `check`), a unified diff of each file that
/// is not canonical, from its text to the canonical one, on standard output.
pub fn fmt(paths: &[PathBuf], check: bool, diff: bool, write: bool, rep: &mut Reporter) {
    if check && write {
        rep.error("--check and --write exclude each other");
        return;
    }
    if !check && !write {
        // Printing is for one log; a directory or several paths are for
        // --check or --write, which stream.
        let parsed = parse_all(paths, rep);
        if parsed.len() > 1 {
            rep.error("formatting several files needs --check or --write (without them fmt prints one file)");
            return;
        }
        for (input, _, p) in parsed {
            if let Some(text) = formatted(&input, p, write, rep) {
                crate::out::print(&text);
            }
        }
        return;
    }
    let mut unformatted = 0;
    crate::pipeline::each(
        paths,
        rep,
        |log, rep| {
            let Some(text) = formatted(&log.input, log.parsed, write, rep) else {
                return false;
            };
            if text.as_bytes() == log.bytes.as_slice() {
                return false;
            }
            match &log.input {
                _ if check => {
                    rep.invalid(&log.name, "not in canonical form (run `fgn fmt --write` on it)");
                    if diff {
                        crate::out::print(&unified_diff(&log.name, &log.bytes, &text));
                    }
                    return true;
                }
                Input::Stdin => rep.error("--write needs files, not standard input"),
                Input::File(path) => {
                    if let Err(e) = write_in_place(path, &log.bytes, text.as_bytes()) {
                        rep.error(&format!("{}: not rewritten: {e}", path.display()));
                    }
                }
            }
            false
        },
        |not_canonical, _| unformatted += usize::from(not_canonical),
    );
    if check && unformatted == 0 && rep.status == Status::Ok {
        rep.note("all files are in canonical form");
    }
}

/// What `fmt --write` would change in the file `name`, as `diff -u` writes
/// it: `--- name`, `+++ name (canonical)`, then hunks with three lines of
/// context.
fn unified_diff(name: &str, old: &[u8], new: &str) -> String {
    // A log that parsed is UTF-8 text; the lossy reading never changes it.
    let old = String::from_utf8_lossy(old);
    let diff = similar::TextDiff::from_lines(old.as_ref(), new);
    let mut text = diff
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (canonical)"))
        .to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The canonical text of a log, or `None` (reported) when it has syntax
/// errors or a torn last line: formatting a torn file would drop its last
/// line, so fmt refuses it in every mode; the warning already says where
/// the line is.
fn formatted(input: &Input, p: Parsed, write: bool, rep: &mut Reporter) -> Option<String> {
    if !p.is_ok() || p.is_torn() {
        if p.is_ok() {
            rep.invalid(&input.name(), "not formatted: the last line is torn (no line end)");
        } else if write {
            rep.note(&format!("{}: not rewritten because it has errors", input.name()));
        }
        return None;
    }
    // Canonical text writes the markers the rules derive (`=Q`, `+`, `#`),
    // so a log whose game has an engine is completed before printing.
    let mut document = p.document;
    document.game = fgn_replay::complete_markers(&document.game);
    Some(document.formatted())
}

/// Rewrites a log in place, safely: the new text goes to a sibling file
/// with the original's permissions, is synced, and is renamed over the
/// original only if the original still holds exactly what was read (a log is
/// append-only, and a line appended meanwhile must not be lost). A symbolic
/// link is followed, so the link stays and its target is formatted; a
/// read-only file is refused.
fn write_in_place(path: &std::path::Path, original: &[u8], bytes: &[u8]) -> Result<(), String> {
    let target = std::fs::canonicalize(path).map_err(|e| format!("cannot resolve: {e}"))?;
    let meta = std::fs::metadata(&target).map_err(|e| e.to_string())?;
    if meta.permissions().readonly() {
        return Err("the file is read-only".into());
    }
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(".fgn-fmt.tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.set_permissions(meta.permissions())?;
        f.sync_all()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {e}", tmp.display()));
    }
    let unchanged = std::fs::read(&target).is_ok_and(|now| now == original);
    if !unchanged {
        let _ = std::fs::remove_file(&tmp);
        return Err("the file changed while it was being formatted; nothing was written".into());
    }
    std::fs::rename(&tmp, &target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        e.to_string()
    })
}

/// `fgn json`.
pub fn json(paths: &[PathBuf], ndjson: bool, rep: &mut Reporter) {
    crate::pipeline::each(
        paths,
        rep,
        |log, _| {
            if !log.parsed.is_ok() {
                return;
            }
            let doc = JsonGame::from(&log.parsed.document.game);
            let text = if ndjson {
                let mut value = serde_json::to_value(&doc).expect("a game always serializes");
                if let (Input::File(path), Some(obj)) = (&log.input, value.as_object_mut()) {
                    obj.insert("file".into(), path.display().to_string().into());
                }
                value.to_string()
            } else {
                serde_json::to_string_pretty(&doc).expect("a game always serializes")
            };
            crate::out::print(&format!("{text}\n"));
        },
        |(), _| {},
    );
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
    match from_json(text) {
        Ok(game) => {
            // A faithful conversion: the events as the JSON has them (so that
            // json -> from-json -> json is the identity); `fgn fmt` adds the
            // markers the rules derive.
            crate::out::print(&game.canonical_text());
        }
        Err(e) => rep.invalid(&input.name(), &e),
    }
}
