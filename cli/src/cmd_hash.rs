//! `fgn hash` and `fgn verify-extends`: log hashes, state hashes, and the
//! append-only check between two downloads of one game.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use fgn_notation::split::{game_name, split};
use fgn_notation::{Color, Document};
use fgn_replay::{Digest, HashTrail, Replay, Viewer};
use fgn_tools::align::hidden_fault;
use fgn_tools::diff::first_parting;
use fgn_tools::loghash::{chain, view_chain, Chain};
use fgn_tools::placed::PlacedError;

use crate::cmd_syntax::parse_all;
use crate::cmd_view::Side;
use crate::out::outln;
use crate::report::{Format, Reporter};
use fgn_tools::inputs::Input;

/// What `fgn hash` prints for each file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// The log hash.
    Log,
    /// The chain's value after every event.
    Chain,
    /// The state (or, with `--as`, knowledge) hash after every event.
    States,
}

/// The chain of a log, or of a side's view of it; `None` when reported.
fn chain_of(name: &str, doc: &Document, side: Option<Color>, rep: &mut Reporter) -> Option<Chain> {
    match side {
        None => Some(chain(&doc.game)),
        Some(c) => match view_chain(&doc.game, c) {
            Ok(ch) => Some(ch),
            Err(e) if e.is_unsupported() => {
                rep.unsupported(name, &e.to_string());
                None
            }
            // The view up to a rule error is what the player saw, and is
            // hashed like the log itself, which is hashed up to the error too.
            Err(fgn_replay::ViewError::Rule { view, error }) => {
                if hidden_fault(&doc.game, c, &error) {
                    rep.invalid(name, &crate::texts::hidden_fault_message(name, c));
                } else {
                    rep.invalid(name, &format!("{error} (the view up to that event is hashed)"));
                }
                Some(chain(&view))
            }
            Err(e) => {
                rep.error(&format!("{name}: {e}"));
                None
            }
        },
    }
}

/// The state hash (or `side`'s knowledge hash) after every event, as far
/// as the log replays; `None` when reported.
fn state_hashes(name: &str, doc: &Document, side: Option<Color>, rep: &mut Reporter) -> Option<Vec<Digest>> {
    if doc.game.perspective().is_some() {
        rep.error(&format!(
            "{name} is a player's view: `fgn hash --states` needs the full log (`fgn show VIEW` prints the view's knowledge hash)"
        ));
        return None;
    }
    let mut replay = match Replay::new(&doc.game.header) {
        Ok(r) => r,
        Err(e) if e.is_unsupported() => {
            rep.unsupported(name, &e.to_string());
            return None;
        }
        Err(e) => {
            rep.invalid(name, &e.to_string());
            return None;
        }
    };
    let mut out = Vec::with_capacity(doc.game.events.len());
    let mut trail = HashTrail::new(side.map(Viewer::of));
    for (i, event) in doc.game.events.iter().enumerate() {
        if let Err(e) = replay.apply(event) {
            match side {
                // As a player, an event it may not see is not told, nor its error.
                Some(c) if hidden_fault(&doc.game, c, &e) => {
                    rep.invalid(name, &crate::texts::hidden_fault_message(name, c))
                }
                // Told at the event that was applied, wherever the error
                // points.
                _ => {
                    let (line, column) = fgn_replay::locate(doc, fgn_replay::Place::Event(i));
                    let placed = PlacedError::at_event(event, line, column, &e);
                    crate::cmd_replay::report_placed(name, &placed, rep);
                }
            }
            rep.note(&format!(
                "{name}: state hashes end at event {i}, the last one that applied"
            ));
            break;
        }
        out.push(trail.after(&replay, Some(event)));
    }
    Some(out)
}

/// `fgn hash`; `b3sum`: each log hash as bare hex, as b3sum writes its
/// lines (`--format b3sum`), instead of `blake3:<hex>`.
pub fn hash(paths: &[PathBuf], side: Option<Side>, what: What, b3sum: bool, rep: &mut Reporter) {
    let side = side.map(Side::color);
    crate::pipeline::each(
        paths,
        rep,
        |log, rep| {
            let (name, p) = (log.name, log.parsed);
            if !p.is_ok() {
                // A log with syntax errors has no canonical text to hash.
                rep.invalid(&name, "not hashed: it has syntax errors");
                return;
            }
            let doc = &p.document;
            match what {
                What::Log => {
                    let Some(ch) = chain_of(&name, doc, side, rep) else {
                        return;
                    };
                    match rep.format {
                        Format::Text => {
                            let (shown, escaped) = escape_name(&name);
                            let prefix = if escaped { "\\" } else { "" };
                            let hash = ch.log_hash().to_string();
                            // The `blake3:` names what the hex is: a log
                            // hash, over the canonical events, which must
                            // not pass for a hash of the file's bytes.
                            // b3sum's form leaves it out, on request.
                            let hash = match b3sum {
                                true => hash.strip_prefix("blake3:").unwrap_or(&hash),
                                false => &hash,
                            };
                            outln!(rep, "{prefix}{hash}  {shown}")
                        }
                        Format::Json => outln!(
                            rep,
                            "{}",
                            serde_json::json!({"type": "hash", "file": name, "log_hash": ch.log_hash()})
                        ),
                    }
                }
                What::Chain => {
                    let Some(ch) = chain_of(&name, doc, side, rep) else {
                        return;
                    };
                    print_per_event(
                        &name,
                        doc,
                        side.is_some(),
                        ("chain", "log_hash"),
                        ch.header,
                        &ch.events,
                        rep,
                    );
                }
                What::States => {
                    let Some(hashes) = state_hashes(&name, doc, side, rep) else {
                        return;
                    };
                    let start = match Replay::new(&doc.game.header) {
                        Ok(r) => match side {
                            None => r.state_hash(),
                            Some(c) => r.knowledge_hash(Viewer::of(c)),
                        },
                        Err(_) => return,
                    };
                    let key = if side.is_some() { "knowledge_hash" } else { "state_hash" };
                    print_per_event(&name, doc, false, ("states", key), start, &hashes, rep);
                }
            }
        },
        |(), _| {},
    );
}

/// One line per event: its line in the file (a view's events have no line
/// of their own in the full log, so they are numbered from 1) and the value
/// after it, after a first line for the header or the start. In JSON one
/// object of `"type"` KIND (`chain` or `states`) whose each event is
/// `{"index", "line", KEY}`, KEY naming what the value hashes (`log_hash`,
/// `state_hash` or `knowledge_hash`, as in every output).
fn print_per_event(
    name: &str,
    doc: &Document,
    is_view: bool,
    (kind, key): (&str, &str),
    first: Digest,
    values: &[Digest],
    rep: &Reporter,
) {
    let line = |i: usize| -> String {
        if is_view {
            format!("event {}", i + 1)
        } else {
            format!("line {}", doc.event_lines.get(i).copied().unwrap_or(0))
        }
    };
    match rep.format {
        Format::Text => {
            // Escaped as the plain lines are, so a name never makes a line.
            let (name, escaped) = escape_name(name);
            let prefix = if escaped { "\\" } else { "" };
            outln!(rep, "{prefix}{first}  {name} start");
            for (i, v) in values.iter().enumerate() {
                outln!(rep, "{prefix}{v}  {name} {}", line(i));
            }
        }
        Format::Json => {
            let values: Vec<_> = values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let at = if is_view {
                        serde_json::json!(null)
                    } else {
                        serde_json::json!(doc.event_lines.get(i))
                    };
                    let mut entry = serde_json::json!({"index": i, "line": at});
                    entry[key] = serde_json::json!(v);
                    entry
                })
                .collect();
            outln!(
                rep,
                "{}",
                serde_json::json!({"type": kind, "file": name, "start": first, "events": values})
            );
        }
    }
}

/// `fgn hash --check SUMS...`: every line `blake3:<hex>  FILE` of each
/// SUMS file is checked against the log hash of FILE, as `b3sum -c` does.
pub fn check(sums: &[PathBuf], side: Option<Side>, rep: &mut Reporter) {
    let side = side.map(Side::color);
    let (mut ok, mut failed, mut unread) = (0, 0, 0);
    let mut members = Members::default();
    for sums_path in sums {
        let input = if sums_path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::File(sums_path.clone())
        };
        let text = match fgn_tools::inputs::read_text(&input, rep.io()) {
            Ok(t) => t,
            Err(e) => {
                rep.error(&e);
                continue;
            }
        };
        // The members of archives that the lines name are read first, each
        // archive once, however many of its members are listed.
        let named: Vec<String> = text.lines().filter_map(sums_line).map(|(_, file)| file).collect();
        members.read_for(&named, side, rep);
        let mut checked = 0;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let Some((expected, file)) = sums_line(line) else {
                rep.error(&format!(
                    "{}:{}: expected `blake3:<64 hex>  FILE` (or `\\` and that, with `\\\\` and `\\n` in FILE), found `{}`",
                    sums_path.display(),
                    n + 1,
                    line.escape_debug()
                ));
                continue;
            };
            checked += 1;
            let verdict = match members
                .get(&file)
                .unwrap_or_else(|| actual(Path::new(&file), side, rep))
            {
                Ok(h) if h.to_string() == expected => Verdict::Ok,
                Ok(_) => Verdict::Mismatch,
                Err(why) => Verdict::Unchecked(why),
            };
            match verdict {
                Verdict::Ok => ok += 1,
                Verdict::Mismatch => failed += 1,
                Verdict::Unchecked(_) => unread += 1,
            }
            // The name as the SUMS line spelled it, escaped as in `fgn hash`
            // output, so that a name never makes a line of its own.
            let (shown, escaped) = escape_name(&file);
            let prefix = if escaped { "\\" } else { "" };
            match (rep.format, &verdict) {
                // As `b3sum --check --quiet` does: only the failures.
                (Format::Text, Verdict::Ok) if rep.quiet => {}
                (Format::Text, Verdict::Ok) => outln!(rep, "{prefix}{shown}: OK"),
                (Format::Text, Verdict::Mismatch) => outln!(rep, "{prefix}{shown}: FAILED"),
                (Format::Text, Verdict::Unchecked(why)) => outln!(rep, "{prefix}{shown}: FAILED {why}"),
                (Format::Json, Verdict::Ok) => {
                    outln!(
                        rep,
                        "{}",
                        serde_json::json!({"type": "check", "file": file, "ok": true})
                    )
                }
                // A failure says why, as the text line does: a program must
                // tell a changed log from one it could not read.
                (Format::Json, Verdict::Mismatch) => outln!(
                    rep,
                    "{}",
                    serde_json::json!({"type": "check", "file": file, "ok": false, "reason": MISMATCH})
                ),
                (Format::Json, Verdict::Unchecked(why)) => {
                    outln!(
                        rep,
                        "{}",
                        serde_json::json!({"type": "check", "file": file, "ok": false, "reason": why})
                    )
                }
            }
        }
        if checked == 0 {
            // As b3sum and sha256sum say: a SUMS file that names no file
            // checks nothing, and must not pass for one whose files all match.
            rep.error(&format!(
                "{}: no properly formatted lines (`blake3:<64 hex>  FILE`): nothing was checked",
                if sums_path.as_os_str() == "-" {
                    "standard input".to_string()
                } else {
                    sums_path.display().to_string()
                }
            ));
        }
    }
    let list = sums
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if failed > 0 {
        rep.invalid(
            &list,
            &format!("{failed} of {} computed hashes did NOT match", ok + failed),
        );
    }
    if unread > 0 {
        rep.invalid(
            &list,
            &format!("{unread} listed files could not be checked (each line says why)"),
        );
    }
}

/// The reason `hash --check --format json` gives for a log whose hash is
/// not the one listed.
const MISMATCH: &str = "its log hash is not the one listed";

/// What `hash --check` found for one line.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// The log hash is the one listed.
    Ok,
    /// It is another.
    Mismatch,
    /// No log hash could be computed that the line could vouch for, and why
    /// (`cannot read: no such file or directory`, `syntax errors`, `torn
    /// last line`, ...).
    Unchecked(String),
}

/// A SUMS line read as `b3sum --check` reads it: `blake3:<64 hex>  FILE`,
/// or the same after a
/// backslash, FILE then holding `\\` for a backslash and
/// `\n` for a line feed (what `fgn hash` writes for such names). `None`
/// for a line of any other form, an unknown escape, or a name holding NUL
/// or U+FFFD (a name whose bytes were not UTF-8 could stand for several
/// files, and is refused as b3sum refuses it).
fn sums_line(line: &str) -> Option<(&str, String)> {
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let well_formed = |h: &str| {
        h.strip_prefix("blake3:")
            .is_some_and(|x| x.len() == 64 && x.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    };
    let (hash, file) = line.split_once("  ").filter(|(h, f)| well_formed(h) && !f.is_empty())?;
    let file = if escaped {
        unescape_name(file)?
    } else {
        file.to_string()
    };
    (!file.contains(['\0', '\u{FFFD}'])).then_some((hash, file))
}

/// A file name as `fgn hash` writes it on a line, escaped as b3sum escapes
/// it: `\\` for a backslash and `\n` for a line feed, and whether it was
/// (the line then starts with a backslash).
pub fn escape_name(name: &str) -> (String, bool) {
    if name.contains(['\\', '\n']) {
        (name.replace('\\', "\\\\").replace('\n', "\\n"), true)
    } else {
        (name.to_string(), false)
    }
}

/// The name [`escape_name`] escaped; `None` for any other backslash.
fn unescape_name(escaped: &str) -> Option<String> {
    let mut out = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                '\\' => out.push('\\'),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

/// The log hash of one file, quietly, or why there is none that a SUMS
/// line could vouch for: the file cannot be read, has syntax errors, has
/// a torn last line (its hash would leave that line out, so it would say
/// OK for a file that is not the one hashed), or its view cannot be made.
fn actual(path: &Path, side: Option<Color>, rep: &mut Reporter) -> Result<Digest, String> {
    // Read as every log is, at most one byte past the limit, which the
    // parser refuses.
    let bytes = match Input::File(path.to_path_buf()).read_bytes(rep.io()) {
        Ok(bytes) => bytes,
        // `FILE#N`, as `fgn hash` names the games of a file of several.
        Err(e) => match fgn_tools::inputs::game_of_file(path, rep.io()) {
            Some(Ok(mut game)) => game.take_bytes(rep.io()).map_err(|e| e.message)?,
            Some(Err(why)) => return Err(why),
            None => return Err(e.message),
        },
    };
    digest_of(&path.display().to_string(), fgn_notation::parse(&bytes), side, rep)
}

/// The log hash of a log read and parsed as `name`, quietly, or why there
/// is none that a SUMS line could vouch for ([`actual`]).
fn digest_of(
    name: &str,
    parsed: fgn_notation::Parsed,
    side: Option<Color>,
    rep: &mut Reporter,
) -> Result<Digest, String> {
    if !parsed.is_ok() {
        return Err("syntax errors (`fgn validate` shows them)".to_string());
    }
    if parsed.is_torn() {
        return Err("torn last line (no line end)".to_string());
    }
    chain_of(name, &parsed.document, side, rep)
        .map(|c| c.log_hash())
        .ok_or_else(|| "no view (reported above)".to_string())
}

/// The log hashes of the members of archives that SUMS lines name, as
/// `fgn hash ARCHIVE` names them: `ARCHIVE:MEMBER`, and `ARCHIVE:MEMBER#N`
/// for the games of a member of several. No file has such a name, so each
/// archive a line names is read once, from its start to its end, as
/// `fgn hash` reads it, and the hash of every member a line names is kept
/// (not its text: memory does not grow with the archive).
#[derive(Default)]
struct Members {
    /// The archives read, and why one broke where it did (its members
    /// after the break are not found).
    read: HashMap<PathBuf, Option<String>>,
    /// The log hash of each member named, or why there is none.
    found: HashMap<String, Result<Digest, String>>,
}

impl Members {
    /// Reads every archive that one of `names` (the FILEs of a SUMS
    /// file's lines) names a member of, unless it was read for an earlier
    /// SUMS file; a name that is a file's is left to [`actual`].
    fn read_for(&mut self, names: &[String], side: Option<Color>, rep: &mut Reporter) {
        let wanted: HashSet<&str> = names.iter().map(String::as_str).collect();
        for name in names {
            if Path::new(name).exists() {
                continue;
            }
            let Some(archive) = archive_of(name) else {
                continue;
            };
            if self.read.contains_key(&archive) {
                continue;
            }
            let mut broke = None;
            for item in fgn_tools::inputs::walk(std::slice::from_ref(&archive), true) {
                let mut input = match item {
                    Ok(input @ Input::Member(_)) => input,
                    Ok(_) => continue,
                    Err(e) if e.empty => continue,
                    Err(e) => {
                        broke = Some(e.message);
                        continue;
                    }
                };
                let member = input.name();
                let bytes = match input.take_bytes(rep.io()) {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        if wanted.contains(member.as_str()) {
                            self.found.insert(member, Err(e.message));
                        }
                        continue;
                    }
                };
                let games = split(&bytes);
                if games.is_one_log() {
                    if wanted.contains(member.as_str()) {
                        let digest = digest_of(&member, fgn_notation::parse(&bytes), side, rep);
                        self.found.insert(member, digest);
                    }
                    continue;
                }
                for game in games.flatten() {
                    let name = game_name(&member, game.ordinal);
                    if wanted.contains(name.as_str()) {
                        let digest = digest_of(&name, game.parse(), side, rep);
                        self.found.insert(name, digest);
                    }
                }
            }
            self.read.insert(archive, broke);
        }
    }

    /// The log hash of the member `name`, or why there is none; `None`
    /// when `name` names no member of an archive read.
    fn get(&self, name: &str) -> Option<Result<Digest, String>> {
        if let Some(found) = self.found.get(name) {
            return Some(found.clone());
        }
        if Path::new(name).exists() {
            return None;
        }
        let archive = archive_of(name)?;
        let broke = self.read.get(&archive)?;
        let member = &name[archive.as_os_str().len() + 1..];
        Some(Err(match broke {
            Some(why) => format!(
                "cannot read: {} holds no log {member} before it breaks ({why})",
                archive.display()
            ),
            None => format!("cannot read: {} holds no log {member}", archive.display()),
        }))
    }
}

/// The archive that `name` names a member of, `ARCHIVE:MEMBER`: the
/// shortest part before a `:` that is a compressed file or an archive.
fn archive_of(name: &str) -> Option<PathBuf> {
    name.match_indices(':')
        .map(|(at, _)| Path::new(&name[..at]))
        .find(|p| p.is_file() && fgn_tools::inputs::is_packed(p))
        .map(Path::to_path_buf)
}

/// Whether NEW, which has OLD's header and events first, is a valid
/// extension of the game: NEW is replayed, and an event that breaks a rule
/// is reported as `validate` reports it, with a word on whether it is one
/// of the appended events or already one of OLD's (exit 1 either way: a log
/// that breaks the rules is not a game to extend). A game without an engine,
/// or a player's view, is only compared as text, and the note says so.
fn rules_allow_extension(old_name: &str, new_name: &str, new: &Document, kept: usize, rep: &mut Reporter) -> bool {
    match fgn_replay::validate(&new.game) {
        Err(e) if e.is_unsupported() => {
            rep.note(&format!("{new_name}: the rules were not checked, only the text ({e})"));
            true
        }
        Ok(verdict) if verdict.error.is_none() => true,
        verdict => {
            let at = match verdict {
                Ok(fgn_replay::Verdict {
                    error:
                        Some(fgn_replay::RuleError {
                            place: fgn_replay::Place::Event(i),
                            ..
                        }),
                    ..
                }) => Some(i),
                _ => None,
            };
            // The rule error itself, with its place and rule, as validate says it.
            crate::cmd_replay::check(new_name, new, None, rep);
            let why = match at {
                Some(i) if i >= kept => format!(
                    "appended event {} (event {} of the log) breaks a rule, and events that break the rules do not extend a game",
                    i - kept + 1,
                    i + 1
                ),
                Some(i) => format!("{old_name} itself breaks a rule at its event {}, so there is no valid game to extend", i + 1),
                None => format!("{old_name}'s header breaks a rule, so there is no valid game to extend"),
            };
            rep.invalid(new_name, &format!("does not validly extend {old_name}: {why}"));
            false
        }
    }
}

/// Reads and parses the two logs a comparison takes (`verify-extends`,
/// `diff`), reporting what is wrong with them; `None` when either cannot be
/// read or has syntax errors, for then there is no verdict to give (exit
/// 2). A torn last line is only a warning: the complete events before it
/// are compared.
pub fn read_pair(first: &Path, second: &Path, command: &str, rep: &mut Reporter) -> Option<[(String, Document); 2]> {
    let mut out = Vec::new();
    for path in [first, second] {
        let mut parsed = parse_all(&[path.to_path_buf()], rep);
        if let (1, Some((input, _, p))) = (parsed.len(), parsed.pop()) {
            if p.is_ok() {
                out.push((input.name(), p.document));
            }
        }
    }
    let pair: Option<[(String, Document); 2]> = out.try_into().ok();
    if pair.is_none() {
        rep.error(&format!(
            "cannot compare: {command} takes two readable logs without syntax errors"
        ));
    }
    pair
}

/// `fgn verify-extends OLD NEW`: NEW has OLD's header and begins with all
/// of OLD's events, compared by the chain.
pub fn verify_extends(old: &Path, new: &Path, rep: &mut Reporter) {
    let Some([(old_name, old_doc), (new_name, new_doc)]) = read_pair(old, new, "verify-extends", rep) else {
        return;
    };
    let (a, b) = (chain(&old_doc.game), chain(&new_doc.game));
    if a.header != b.header {
        rep.invalid(
            &new_name,
            &format!("does not extend {old_name}: the headers differ (a log's header is fixed before its first event)"),
        );
        return;
    }
    if let Some(i) = first_parting(&a.events, &b.events).filter(|&i| i < a.events.len()) {
        let old_line = old_doc.event_lines.get(i).copied().unwrap_or(0);
        let old_event = &old_doc.game.events[i];
        match new_doc.game.events.get(i) {
            Some(new_event) => {
                let new_line = new_doc.event_lines.get(i).copied().unwrap_or(0);
                rep.invalid(
                    &new_name,
                    &format!(
                        "does not extend {old_name}: event {} differs: {old_name}:{old_line} `{old_event}`, {new_name}:{new_line} `{new_event}`",
                        i + 1,
                    ),
                );
            }
            None => rep.invalid(
                &new_name,
                &format!(
                    "does not extend {old_name}: it ends after {} events, and {old_name}:{old_line} `{old_event}` is missing",
                    b.events.len()
                ),
            ),
        }
        return;
    }
    let added = b.events.len() - a.events.len();
    if !rules_allow_extension(&old_name, &new_name, &new_doc, a.events.len(), rep) {
        return;
    }
    match rep.format {
        // The exit status says it; --quiet leaves the line out.
        Format::Text if rep.quiet => {}
        Format::Text => outln!(
            rep,
            "{new_name} extends {old_name}: {} events kept, {added} appended",
            a.events.len()
        ),
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::json!({"type": "extends", "old": old_name, "new": new_name, "extends": true, "kept": a.events.len(), "appended": added})
        ),
    }
}
