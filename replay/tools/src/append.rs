//! Durable appends: new events are checked against a log file and added to
//! it as whole lines, safely against crashes and against other appenders.
//!
//! [`append`] holds an exclusive advisory lock on the file for the whole
//! read–check–write: it reads the file, replays it, checks every new event
//! against the game, and only then writes the log with all of them to a
//! temporary file next to it, syncs it and renames it over the log (and
//! syncs the folder). A batch is all or nothing: one refused event refuses
//! the whole batch and the file is left as it was, and a crash or a
//! `kill -9` at any point leaves either the old log or the new one whole
//! at the log's name, never part of a batch.
//! New events may be written in any spelling FGN reads; what is written is
//! the canonical spelling `fgn fmt` would give them (markers completed).
//!
//! A file whose last line has no line end holds a torn append (an append
//! that a crash cut short, docs/notation.md §2.6). Nothing is appended after
//! it, since the new line would be glued to the torn one; [`repair`] cuts
//! the torn line, under the same lock (appends no longer tear a line, but
//! another writer, or an fgn older than the rename, may have). It also
//! removes the temporary file of an append killed before its rename, which
//! the next append removes too. docs/append.md describes both.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use fgn_notation::diagnostic::Severity;
use fgn_notation::{parse, Actor, Anchor, Diagnostic, Document, Event, Game, Header, MAX_FILE_BYTES, MAX_LINE_BYTES};

use fgn_replay::{Digest, Place, Replay, RuleError, StartError, Turn};

use crate::loghash;

/// How many characters of a torn line messages show; longer ones end in `…`.
pub const TORN_SHOWN_CHARS: usize = 80;

/// What an append wrote.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Appended {
    /// The lines written, without line ends, in canonical spelling (an
    /// event's comment kept as `fmt` writes it).
    pub lines: Vec<String>,
    /// How many events the log holds now.
    pub events: usize,
    /// The log hash of the file now ([`loghash::chain`]).
    pub log_hash: Digest,
    /// The new events (0-based indices in the batch) that were given as a
    /// bare action (`Qd8-c7`), whose move number and side were filled in
    /// from the game: the side to act and its move number.
    pub completed: Vec<usize>,
}

/// What [`check`] decided: the bytes to append and what they hold.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Planned {
    /// The bytes to append: whole lines, each ending in LF (empty when there
    /// are no new events).
    pub bytes: Vec<u8>,
    /// What the file holds once they are appended.
    pub appended: Appended,
}

/// A torn last line: the bytes after the file's last line end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TornLine {
    /// Its 1-based line number.
    pub line: u32,
    /// Where it starts: the length of the file's complete lines, in bytes.
    pub start: u64,
    /// Its bytes (not necessarily UTF-8).
    pub bytes: Vec<u8>,
}

impl TornLine {
    /// The torn line of a file's bytes, if its last line has no line end
    /// (an empty file has no lines and is not torn).
    pub fn of(file: &[u8]) -> Option<TornLine> {
        if file.is_empty() || file.ends_with(b"\n") {
            return None;
        }
        let start = file.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = file.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        Some(TornLine {
            line,
            start: start as u64,
            bytes: file[start..].to_vec(),
        })
    }

    /// The line as it may be shown on a terminal: invalid UTF-8 and control
    /// characters replaced by U+FFFD, at most [`TORN_SHOWN_CHARS`]
    /// characters, and `…` when it is longer.
    pub fn shown(&self) -> String {
        let text = String::from_utf8_lossy(&self.bytes);
        let mut shown: String = text
            .chars()
            .take(TORN_SHOWN_CHARS)
            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
            .collect();
        if text.chars().nth(TORN_SHOWN_CHARS).is_some() {
            shown.push('…');
        }
        shown
    }
}

/// Why nothing was appended (or, for a failed sync, why the append may not
/// be durable).
#[derive(Debug)]
pub enum AppendError {
    /// The file could not be opened, locked, read, written, cut or synced.
    Io {
        /// What was being done: `open`, `lock`, `read`, `write`, `cut`,
        /// `sync` or `remove` (the leftover of a killed append).
        action: &'static str,
        /// The error.
        error: io::Error,
    },
    /// The path names something other than a regular file.
    NotAFile,
    /// The file, or the file with the new events, would be larger than FGN reads.
    TooLarge {
        /// Its size in bytes.
        bytes: u64,
    },
    /// The file's last line is torn: nothing is appended until [`repair`] cuts it.
    Torn(TornLine),
    /// The file itself has syntax errors (every diagnostic of the file).
    FileSyntax(Vec<Diagnostic>),
    /// The file cannot be replayed: its game has no engine, it is a
    /// player's view, or its header breaks a rule.
    FileStart {
        /// The error.
        error: StartError,
        /// The line of the tag at fault (1 when no tag is).
        line: u32,
    },
    /// One of the file's own events breaks a rule.
    FileRule {
        /// The error.
        error: RuleError,
        /// The event, as the file spells it.
        event: String,
        /// Its line.
        line: u32,
        /// The column where its action starts.
        column: u32,
    },
    /// A new event is not one line of FGN that holds an event.
    EventSyntax {
        /// Its 0-based index in the batch.
        index: usize,
        /// The fault, at the line the event would have had in the file and
        /// its column in the event's text.
        diagnostic: Diagnostic,
    },
    /// A new event breaks a rule.
    EventRule {
        /// Its 0-based index in the batch.
        index: usize,
        /// The error.
        error: RuleError,
        /// The event the error names (usually the new event; an earlier
        /// one when the new event exposes it, as a revealed seed does).
        event: String,
        /// That event's line (for a new event, the line it would have had).
        line: u32,
        /// The column where its action starts.
        column: u32,
    },
}

impl AppendError {
    /// Whether the file is as it was before the call. Only a failed sync
    /// (of the folder, after the new log was renamed over the old one)
    /// leaves lines written that may not survive a power cut; a failed
    /// write or rename leaves the old log in place.
    pub fn file_unchanged(&self) -> bool {
        !matches!(self, AppendError::Io { action: "sync", .. })
    }
}

impl fmt::Display for AppendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppendError::Io { action: "sync", error } => write!(
                f,
                "cannot sync the file: {error} (the lines were written but may not survive a crash)"
            ),
            AppendError::Io {
                action: "remove",
                error,
            } => write!(
                f,
                "cannot remove the temporary file an append killed before it finished left next to the log: {error}"
            ),
            AppendError::Io { action, error } => write!(f, "cannot {action} the file: {error}"),
            AppendError::NotAFile => f.write_str("not a regular file"),
            AppendError::TooLarge { bytes } => write!(
                f,
                "the log would be {bytes} bytes; FGN reads files of at most {MAX_FILE_BYTES} bytes"
            ),
            AppendError::Torn(torn) => write!(
                f,
                "line {} is torn (it has no line end): `{}` ({} bytes); nothing is appended after a torn line \
                 until it is cut (`fgn append --repair FILE` shows and cuts it)",
                torn.line,
                torn.shown(),
                torn.bytes.len()
            ),
            AppendError::FileSyntax(diagnostics) => {
                let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
                match errors.first() {
                    Some(d) => write!(
                        f,
                        "the file has syntax errors: line {}, column {}: {}",
                        d.line, d.column, d.message
                    )?,
                    None => f.write_str("the file has syntax errors")?,
                }
                if errors.len() > 1 {
                    write!(f, " (and {} more)", errors.len() - 1)?;
                }
                Ok(())
            }
            AppendError::FileStart { error, line } => write!(f, "line {line}: {error}"),
            AppendError::FileRule { error, event, line, .. } => {
                write!(f, "the file breaks a rule at line {line}: `{event}`: {error}")
            }
            AppendError::EventSyntax { index, diagnostic } => write!(
                f,
                "new event {}, column {}: {}",
                index + 1,
                diagnostic.column,
                diagnostic.message
            ),
            AppendError::EventRule {
                index, error, event, ..
            } => write!(f, "new event {} is refused: `{event}`: {error}", index + 1),
        }
    }
}

impl std::error::Error for AppendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AppendError::Io { error, .. } => Some(error),
            AppendError::FileStart {
                error: StartError::Header { error, .. },
                ..
            } => Some(error),
            AppendError::FileRule { error, .. } | AppendError::EventRule { error, .. } => Some(error),
            _ => None,
        }
    }
}

fn io_error(action: &'static str) -> impl FnOnce(io::Error) -> AppendError {
    move |error| AppendError::Io { action, error }
}

/// Appends `events` (each one whole event line, in any spelling FGN reads)
/// to the log at `path`, all or none, durably.
///
/// Under an exclusive advisory lock on the file ([`File::lock`]), it reads
/// the file, checks it and the new events with [`check`], and replaces the
/// log by the log with the new lines, atomically: written to
/// [`temporary_path`], synced, renamed over the log, the folder synced. So
/// the file at `path` is a new file after each append (its permissions
/// kept); a reader that follows the log must open it again by name. Other appenders (processes
/// or threads) that use this function wait for the lock, so appends never
/// interleave and every one is checked against the log as the previous one
/// left it. The lock is advisory: a writer that does not take it is not
/// kept out. The file is never created: a log starts with its header,
/// which is not an append.
pub fn append<S: AsRef<str>>(path: &Path, events: &[S]) -> Result<Appended, AppendError> {
    // Opened for writing although the new log is written to another file,
    // so that a log its user may not write is refused as before.
    let mut file = open_locked(path, OpenOptions::new().read(true).write(true))?;
    let existing = read_all(&mut file)?;
    let planned = check(&existing, events)?;
    if !planned.bytes.is_empty() {
        replace_durably(path, &file, &[&existing, &planned.bytes], None)?;
    }
    Ok(planned.appended)
}

/// What [`repair`] did: the torn line it cut and the leftover of a killed
/// append it removed, each `None` when there was none.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Repaired {
    /// The torn last line, cut from the log.
    pub torn: Option<TornLine>,
    /// The size in bytes of the temporary file ([`temporary_path`]) that an
    /// append killed before its rename left next to the log, now removed.
    pub leftover: Option<u64>,
}

/// Cuts the torn last line of the log at `path` (truncates the file to the
/// end of its last complete line and syncs it), under the same lock as
/// [`append`], and removes the temporary file a killed append may have
/// left next to it (never part of the log). Nothing else in the file is
/// checked.
pub fn repair(path: &Path) -> Result<Repaired, AppendError> {
    let mut file = open_locked(path, OpenOptions::new().read(true).write(true))?;
    let leftover = remove_leftover(path)?;
    let existing = read_all(&mut file)?;
    let Some(torn) = TornLine::of(&existing) else {
        return Ok(Repaired { torn: None, leftover });
    };
    file.set_len(torn.start).map_err(io_error("cut"))?;
    // A cut changes only the file's size, which sync_all (and not always
    // sync_data) makes durable.
    file.sync_all().map_err(io_error("sync"))?;
    Ok(Repaired {
        torn: Some(torn),
        leftover,
    })
}

/// The temporary file an append writes the new log to before it renames it
/// over the log: the log's real path (a symbolic link followed) with
/// `.fgn-append.tmp` added, in the same folder, so the rename never
/// crosses file systems. Only the holder of the log's lock writes it.
pub fn temporary_path(path: &Path) -> io::Result<PathBuf> {
    Ok(real_and_temporary(path)?.1)
}

/// The log's real path (a symbolic link followed) and its [`temporary_path`].
fn real_and_temporary(path: &Path) -> io::Result<(PathBuf, PathBuf)> {
    let real = std::fs::canonicalize(path)?;
    let mut name = real.clone().into_os_string();
    name.push(".fgn-append.tmp");
    Ok((real, PathBuf::from(name)))
}

/// Removes the temporary file of an append killed before its rename, and
/// returns its size. The caller holds the log's lock, so no live append is
/// writing it.
fn remove_leftover(path: &Path) -> Result<Option<u64>, AppendError> {
    let tmp = temporary_path(path).map_err(io_error("open"))?;
    match std::fs::symlink_metadata(&tmp) {
        Ok(meta) => {
            std::fs::remove_file(&tmp).map_err(io_error("remove"))?;
            Ok(Some(meta.len()))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(AppendError::Io {
            action: "remove",
            error,
        }),
    }
}

/// Decides an append without touching any file: `existing` is the log's
/// bytes, `events` the new event lines. The log must be valid FGN that
/// replays without a rule error (it need not be finished: a result or an
/// owed world event may still be missing) and must not be torn; every new
/// event must be one line holding one event (an end-of-line comment is
/// kept) that the rules accept after the ones before it.
///
/// ```
/// use fgn_tools::append::{check, AppendError};
///
/// let log = b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n";
/// // The first event of a header-only log brings the blank line after the header.
/// let planned = check(log, &["1 w c3-d4"]).unwrap();
/// assert_eq!(planned.bytes, b"\n1 w c3-d4\n");
/// assert_eq!(planned.appended.events, 1);
/// // Black cannot move first: the whole batch is refused.
/// let refused = check(log, &["1 b d6-c5"]).unwrap_err();
/// assert!(matches!(refused, AppendError::EventRule { index: 0, line: 5, .. }), "{refused}");
/// ```
pub fn check<S: AsRef<str>>(existing: &[u8], events: &[S]) -> Result<Planned, AppendError> {
    let total = existing.len() as u64;
    if total > MAX_FILE_BYTES as u64 {
        return Err(AppendError::TooLarge { bytes: total });
    }
    let parsed = parse(existing);
    if !parsed.is_ok() {
        return Err(AppendError::FileSyntax(parsed.diagnostics));
    }
    if let Some(torn) = TornLine::of(existing) {
        return Err(AppendError::Torn(torn));
    }
    let doc = parsed.document;
    let mut replay = Replay::new(&doc.game.header).map_err(|error| AppendError::FileStart {
        line: header_line(&doc, &error),
        error,
    })?;
    for event in &doc.game.events {
        replay.apply(event).map_err(|error| {
            let (event, line, column) = event_place(&doc, &error);
            AppendError::FileRule {
                error,
                event,
                line,
                column,
            }
        })?;
    }

    // The canonical layout puts a blank line between the header and the
    // events; the first event appended to a header-only file brings it.
    let blank_line = !events.is_empty() && doc.game.events.is_empty() && !last_line_is_blank(existing);
    let first_line = existing.iter().filter(|&&b| b == b'\n').count() as u32 + u32::from(blank_line) + 1;
    let (events, completed) = complete_bare_actions(&replay, &doc.game.header, events, first_line)?;
    let new = read_new_events(&doc.game.header, &events, first_line)?;

    let known = doc.game.events.len();
    let mut written = Document::default();
    for (k, event) in new.game.events.iter().enumerate() {
        let event = replay.canonical(event).unwrap_or_else(|| event.clone());
        if let Err(error) = replay.apply(&event) {
            let (event, line, column) = match error.place {
                Place::Event(i) if i >= known => (
                    spelled(&new.game.events, i - known),
                    first_line + (i - known) as u32,
                    new.event_columns.get(i - known).copied().unwrap_or(1),
                ),
                _ => event_place(&doc, &error),
            };
            return Err(AppendError::EventRule {
                index: k,
                error,
                event,
                line,
                column,
            });
        }
        written.game.events.push(event);
    }
    written.comments = new.comments;

    // The lines are what `fmt` writes for these events: a document with no
    // header formats as a blank line followed by its event lines.
    let text = written.formatted();
    let lines: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
    if let Some((k, line)) = lines.iter().enumerate().find(|(_, l)| l.len() > MAX_LINE_BYTES) {
        return Err(AppendError::EventSyntax {
            index: k,
            diagnostic: Diagnostic::at_bytes(
                first_line + k as u32,
                events[k].as_ref(),
                0,
                0,
                format!(
                    "in canonical spelling this event's line is {} bytes long; FGN lines are at most {MAX_LINE_BYTES} bytes",
                    line.len()
                ),
            ),
        });
    }
    let mut bytes = Vec::new();
    if blank_line {
        bytes.push(b'\n');
    }
    for line in &lines {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    let after = total + bytes.len() as u64;
    if after > MAX_FILE_BYTES as u64 {
        return Err(AppendError::TooLarge { bytes: after });
    }

    let mut game = doc.game;
    game.events.extend(written.game.events);
    Ok(Planned {
        bytes,
        appended: Appended {
            lines,
            events: game.events.len(),
            log_hash: loghash::log_hash(&game),
            completed,
        },
    })
}

/// Whether a new event is a bare action (`Qd8-c7`, `resign`): its first
/// word is no move number (and no actor, which a line without its number
/// would start with). Blank lines, comments and header tags are not.
fn is_bare_action(event: &str) -> bool {
    let first = event.trim_start_matches(' ').split(' ').next().unwrap_or("");
    first.starts_with(|c: char| c.is_ascii_alphabetic()) && !matches!(first, "w" | "b")
}

/// The new events with the move number and side of each bare action filled
/// in from the game, and the indices of those filled in. Each bare action
/// is the side to act's, at its move number, in the game as the file and
/// the batch's events before it leave it (replayed on a copy of `replay`).
/// During a secret setup both sides act and in a decided game neither, so
/// there a bare action is refused. Once an earlier new event is refused,
/// the rest are filled in from the turn before it, so that the refusal of
/// that first event is the one reported.
fn complete_bare_actions<S: AsRef<str>>(
    replay: &Replay,
    header: &Header,
    events: &[S],
    first_line: u32,
) -> Result<(Vec<String>, Vec<usize>), AppendError> {
    let mut filled: Vec<String> = events.iter().map(|e| e.as_ref().to_string()).collect();
    let completed: Vec<usize> = (0..filled.len()).filter(|&k| is_bare_action(&filled[k])).collect();
    if completed.is_empty() {
        return Ok((filled, completed));
    }
    let mut game = replay.clone();
    let mut refused = false;
    for (k, text) in filled.iter_mut().enumerate() {
        if completed.contains(&k) {
            let why = match game.turn() {
                Some(Turn::Move { side, number }) => {
                    *text = format!("{number} {} {text}", Actor::Player(side));
                    None
                }
                _ if refused => None,
                Some(Turn::Setup { .. }) => Some(
                    "during the secret setup both sides act, so the side cannot be filled in: \
                     write the move number and side (`0 w place ...`)",
                ),
                None => Some(
                    "the game is decided and nobody is to move, so the move number and side cannot be \
                     filled in: write them",
                ),
            };
            if let Some(why) = why {
                return Err(AppendError::EventSyntax {
                    index: k,
                    diagnostic: Diagnostic::at_bytes(first_line + k as u32, text, 0, text.len(), why.to_string()),
                });
            }
        }
        if refused {
            continue;
        }
        // The event is replayed only to know the turn after it; whether it
        // is accepted is decided (and reported) by `check` itself.
        match header.parse_event(text) {
            Ok(event) => {
                let event = game.canonical(&event).unwrap_or(event);
                refused = game.apply(&event).is_err();
            }
            Err(_) => refused = true,
        }
    }
    Ok((filled, completed))
}

/// The text of new event `k` as read, for messages.
fn spelled(events: &[Event], k: usize) -> String {
    events.get(k).map(Event::to_string).unwrap_or_default()
}

/// Reads the new event lines with the notation's own parser, after the
/// log's header (so that each is read as an event of the log's game), and
/// checks that each is exactly one event line. Diagnostics are moved to
/// the line each event would have in the file, starting at `first_line`.
fn read_new_events<S: AsRef<str>>(header: &Header, events: &[S], first_line: u32) -> Result<Document, AppendError> {
    let header_text = Game {
        header: header.clone(),
        events: Vec::new(),
    }
    .canonical_text();
    // The canonical text of a header ends in the blank line after it.
    let header_lines = header_text.matches('\n').count() as u32;
    let mut text = header_text;
    for (k, event) in events.iter().enumerate() {
        let event = event.as_ref();
        if let Some(at) = event.find('\n') {
            return Err(AppendError::EventSyntax {
                index: k,
                diagnostic: Diagnostic::at_bytes(
                    first_line + k as u32,
                    "",
                    0,
                    0,
                    format!(
                        "a new event is one line, but this one holds a line end after byte {at}; give each event as an argument of its own"
                    ),
                ),
            });
        }
        text.push_str(event);
        text.push('\n');
    }
    let parsed = parse(text.as_bytes());
    let moved = |line: u32| line.saturating_sub(header_lines + 1) as usize;
    if let Some(d) = parsed.diagnostics.first() {
        let index = moved(d.line).min(events.len().saturating_sub(1));
        let mut diagnostic = d.clone();
        diagnostic.line = first_line + index as u32;
        return Err(AppendError::EventSyntax { index, diagnostic });
    }
    // Lines that read without fault but hold no event (blank lines,
    // comment lines, a header tag) are not appends of events.
    let doc = parsed.document;
    for (k, event) in events.iter().enumerate() {
        let line = header_lines + 1 + k as u32;
        if doc.event_lines.get(k) != Some(&line) {
            let event = event.as_ref();
            let found = match event.trim_start_matches(' ').chars().next() {
                None => "a blank line",
                Some(';') => "a comment line",
                Some('[') => "a header tag",
                Some(_) => "a line that holds no event",
            };
            return Err(AppendError::EventSyntax {
                index: k,
                diagnostic: Diagnostic::at_bytes(
                    first_line + k as u32,
                    event,
                    0,
                    event.len(),
                    format!("expected an event line (`MOVE-NUMBER ACTOR ACTION`), found {found}"),
                ),
            });
        }
    }
    debug_assert!(doc.comments.iter().all(|c| matches!(c.anchor, Anchor::OnEvent(_))));
    Ok(doc)
}

/// Whether the file's last line holds nothing but spaces (or there are no lines).
fn last_line_is_blank(file: &[u8]) -> bool {
    let body = file.strip_suffix(b"\n").unwrap_or(file);
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    body[start..].iter().all(|&b| b == b' ' || b == b'\r')
}

/// The event a rule error of the file names, with its line and column.
fn event_place(doc: &Document, error: &RuleError) -> (String, u32, u32) {
    match error.place {
        Place::Event(i) => (
            spelled(&doc.game.events, i),
            doc.event_lines.get(i).copied().unwrap_or(1),
            doc.event_columns.get(i).copied().unwrap_or(1),
        ),
        Place::Header | Place::End => (String::new(), doc.event_lines.last().copied().unwrap_or(1), 1),
    }
}

/// The line of the header tag a start error names (1 when it names none).
fn header_line(doc: &Document, error: &StartError) -> u32 {
    let StartError::Header { tag: Some(tag), .. } = error else {
        return 1;
    };
    doc.game
        .header
        .tags
        .iter()
        .position(|t| &t.name == tag)
        .and_then(|i| doc.tag_lines.get(i).copied())
        .unwrap_or(1)
}

/// Opens the regular file at `path` and takes its exclusive lock. When the
/// path was renamed over while the lock was awaited (as every append and
/// `fmt --write` does), the lock holds a file that is no longer the log, so
/// the new file is opened and locked instead. There is no bound on these
/// rounds: each one means that another writer finished, so the appenders
/// as a whole always progress, as they do waiting for one lock.
fn open_locked(path: &Path, options: &OpenOptions) -> Result<File, AppendError> {
    loop {
        let file = options.open(path).map_err(io_error("open"))?;
        // Checked before the first read, so that a FIFO or a device is never
        // read (which could wait forever).
        if !file.metadata().map_err(io_error("open"))?.is_file() {
            return Err(AppendError::NotAFile);
        }
        file.lock().map_err(io_error("lock"))?;
        if still_at(path, &file).map_err(io_error("open"))? {
            return Ok(file);
        }
    }
}

/// Whether `file` is still the file at `path`.
#[cfg(unix)]
fn still_at(path: &Path, file: &File) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let (named, held) = (std::fs::metadata(path)?, file.metadata()?);
    Ok(named.dev() == held.dev() && named.ino() == held.ino())
}

/// Whether `file` is still the file at `path`: without Unix file identities
/// the open file is taken to be the log.
#[cfg(not(unix))]
fn still_at(_path: &Path, _file: &File) -> io::Result<bool> {
    Ok(true)
}

/// The whole file, refused when it is larger than FGN reads.
fn read_all(file: &mut File) -> Result<Vec<u8>, AppendError> {
    let size = file.metadata().map_err(io_error("read"))?.len();
    if size > MAX_FILE_BYTES as u64 {
        return Err(AppendError::TooLarge { bytes: size });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // One byte more than FGN reads, so that a file growing under a writer
    // that ignores the lock is still caught by the size check in `check`.
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error("read"))?;
    Ok(bytes)
}

/// What the tests call after each step of [`replace_durably`].
type Crash<'a> = Option<&'a mut dyn FnMut(Step) -> io::Result<()>>;

/// A step of [`replace_durably`], after which the tests simulate a crash
/// ([`Step::Written`] after every byte of the new log).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    /// The temporary file was created, empty.
    Created,
    /// This many bytes of the new log are in the temporary file.
    Written(usize),
    /// The temporary file holds the whole new log and is synced.
    Synced,
    /// The temporary file was renamed over the log.
    Renamed,
}

/// Replaces the log at `path` (held open and locked as `log`) by the
/// concatenation of `parts`, so that a crash at any point leaves either
/// the old log or the whole new one at `path`, never part of a batch: the
/// new log is written to [`temporary_path`] with the log's permissions
/// (and owner and group, where this process may set them), synced, renamed
/// over the log, and the folder is synced so that the rename survives a
/// power cut. A leftover of an append killed before its rename is removed
/// first. When the tests give `crash`, the new log is written byte by
/// byte and `crash` is called after each step, stopping it where it
/// returns an error: where a kill could.
fn replace_durably(path: &Path, log: &File, parts: &[&[u8]], mut crash: Crash<'_>) -> Result<(), AppendError> {
    remove_leftover(path)?;
    let (real, tmp) = real_and_temporary(path).map_err(io_error("open"))?;
    let meta = log.metadata().map_err(io_error("read"))?;
    let crash_tested = crash.is_some();
    let mut step = |s: Step| crash.as_mut().map_or(Ok(()), |crash| crash(s));
    let mut write = || -> io::Result<()> {
        // create_new: never through a link planted at the temporary name.
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        step(Step::Created)?;
        keep_owner(&file, &meta);
        file.set_permissions(meta.permissions())?;
        let mut written = 0;
        for part in parts {
            if crash_tested {
                for byte in part.iter() {
                    file.write_all(std::slice::from_ref(byte))?;
                    written += 1;
                    step(Step::Written(written))?;
                }
            } else {
                file.write_all(part)?;
            }
        }
        file.sync_all()?;
        step(Step::Synced)
    };
    if let Err(error) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(AppendError::Io { action: "write", error });
    }
    if let Err(error) = std::fs::rename(&tmp, &real) {
        let _ = std::fs::remove_file(&tmp);
        return Err(AppendError::Io { action: "write", error });
    }
    step(Step::Renamed).map_err(io_error("sync"))?;
    sync_folder(&real).map_err(io_error("sync"))
}

/// Gives the new log the old one's owner and group. Only a privileged
/// process may give a file away, so a refusal is not an error: the new log
/// then belongs to whoever appended, as a file they wrote does.
#[cfg(unix)]
fn keep_owner(file: &File, old: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(new) = file.metadata() else { return };
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    }
}

/// Without Unix owners there is nothing to keep.
#[cfg(not(unix))]
fn keep_owner(_file: &File, _old: &std::fs::Metadata) {}

/// Syncs the folder that holds `path`, which makes a rename in it durable.
#[cfg(unix)]
fn sync_folder(path: &Path) -> io::Result<()> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    File::open(folder)?.sync_all()
}

/// Other systems make a rename durable without a folder's sync (and
/// cannot open a folder to sync it).
#[cfg(not(unix))]
fn sync_folder(_path: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETUP: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
        0 w place Ke1 Ng1 Pa2\n0 b place Ke8 Ng8 Pa7\n0 w ready\n0 b ready\n";

    /// A fresh file in the system's temporary folder holding `text`.
    fn scratch(name: &str, text: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("fgn-append-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let path = dir.join(name);
        std::fs::write(&path, text).expect("a scratch file");
        path
    }

    #[test]
    fn a_legal_event_is_appended_in_canonical_spelling() {
        let planned = check(SETUP.as_bytes(), &["1 w NG1-F3 {t=5.500}"]).expect("a legal move");
        assert_eq!(planned.bytes, b"1 w Ng1-f3 {t=5.5}\n");
        assert_eq!(planned.appended.lines, ["1 w Ng1-f3 {t=5.5}"]);
        assert_eq!(planned.appended.events, 5);
        let after = format!("{SETUP}1 w Ng1-f3 {{t=5.5}}\n");
        let game = parse(after.as_bytes()).document.game;
        assert_eq!(planned.appended.log_hash, loghash::chain(&game).log_hash());
    }

    #[test]
    fn markers_the_rules_derive_are_written_out() {
        // The queen's move mates: canonical FGN writes `#`.
        let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
            0 w place Ke1 Qd1 Ra1\n0 b place Kh8 Pg7 Ph7\n0 w ready\n0 b ready\n";
        let planned = check(log.as_bytes(), &["1 w Qd1-d8"]).expect("a legal move");
        assert_eq!(planned.appended.lines, ["1 w Qd1-d8#"]);
        // A false marker is not corrected but refused.
        let err = check(log.as_bytes(), &["1 w Ra1-a2+"]).unwrap_err();
        assert!(matches!(err, AppendError::EventRule { index: 0, .. }), "{err}");
    }

    #[test]
    fn an_end_of_line_comment_is_kept_as_fmt_writes_it() {
        let planned = check(
            SETUP.as_bytes(),
            &["1 w Ng1-f3   ;   a plan  ", "1 w chat \"hi ; there\""],
        )
        .unwrap();
        assert_eq!(
            planned.appended.lines,
            ["1 w Ng1-f3 ; a plan", "1 w chat \"hi ; there\""]
        );
    }

    #[test]
    fn a_refused_event_refuses_the_whole_batch_and_names_its_index() {
        let err = check(SETUP.as_bytes(), &["1 w Ng1-f3", "1 b Ng8-f6", "2 w Nf3-f5"]).unwrap_err();
        match err {
            AppendError::EventRule {
                index,
                error,
                event,
                line,
                column,
            } => {
                assert_eq!(index, 2);
                assert_eq!(event, "2 w Nf3-f5");
                // SETUP has 8 lines; the third new event would be line 11.
                assert_eq!((line, column), (11, 5));
                assert!(!error.message.is_empty());
            }
            other => panic!("expected a rule error, got {other}"),
        }
    }

    #[test]
    fn a_syntax_error_in_a_new_event_names_its_index_line_and_column() {
        let err = check(SETUP.as_bytes(), &["1 w Ng1-f3", "1 b Ng8-z99"]).unwrap_err();
        let AppendError::EventSyntax { index, diagnostic } = err else {
            panic!("expected a syntax error, got {err}");
        };
        assert_eq!(index, 1);
        assert_eq!((diagnostic.line, diagnostic.column), (10, 9));
        assert_eq!(diagnostic.source_line, "1 b Ng8-z99");
    }

    #[test]
    fn lines_that_hold_no_event_are_refused() {
        for (line, found) in [
            ("", "a blank line"),
            ("   ; only a comment", "a comment line"),
            ("[Event \"x\"]", "header tag"),
        ] {
            let err = check(SETUP.as_bytes(), &["1 w Ng1-f3", line]).unwrap_err();
            let AppendError::EventSyntax { index, diagnostic } = &err else {
                panic!("{line:?}: expected a syntax error, got {err}");
            };
            assert_eq!(*index, 1, "{line:?}");
            assert!(diagnostic.message.contains(found), "{line:?}: {}", diagnostic.message);
        }
        // A header tag is refused also when the log has no events yet, where
        // the parser alone would read it as part of the header.
        let header = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n";
        let err = check(header.as_bytes(), &["[Event \"x\"]"]).unwrap_err();
        assert!(matches!(err, AppendError::EventSyntax { index: 0, .. }), "{err}");
        let err = check(SETUP.as_bytes(), &["1 w Ng1-f3\n1 b Ng8-f6"]).unwrap_err();
        assert!(err.to_string().contains("holds a line end"), "{err}");
    }

    #[test]
    fn the_file_itself_must_be_a_valid_untorn_log() {
        let err = check(format!("{SETUP}1 w Ng1-f3").as_bytes(), &["1 b Ng8-f6"]).unwrap_err();
        let AppendError::Torn(torn) = &err else {
            panic!("expected a torn line, got {err}")
        };
        assert_eq!((torn.line, torn.start), (9, SETUP.len() as u64));
        assert_eq!(torn.bytes, b"1 w Ng1-f3");

        let err = check(format!("{SETUP}1 w Ng1-f3!\n").as_bytes(), &["1 w chat \"x\""]).unwrap_err();
        assert!(matches!(&err, AppendError::FileSyntax(d) if d[0].line == 9), "{err}");

        let err = check(format!("{SETUP}1 b Ng8-f6\n").as_bytes(), &["1 w chat \"x\""]).unwrap_err();
        assert!(
            matches!(&err, AppendError::FileRule { line: 9, column: 5, event, .. } if event == "1 b Ng8-f6"),
            "{err}"
        );

        let view = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Perspective \"white\"]\n\n";
        let err = check(view.as_bytes(), &["0 w place Ke1"]).unwrap_err();
        assert!(
            matches!(&err, AppendError::FileStart { line: 3, error } if error.is_unsupported()),
            "{err}"
        );
    }

    #[test]
    fn the_torn_line_is_the_one_the_parser_warns_about() {
        let file = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n0 w pla";
        let torn = TornLine::of(file).expect("torn");
        let warning = parse(file).diagnostics.pop().expect("the torn-append warning");
        assert_eq!(torn.line, warning.line);
        assert_eq!(torn.bytes, warning.source_line.as_bytes());
        assert_eq!(TornLine::of(b""), None);
        assert_eq!(TornLine::of(b"x\n"), None);
        assert_eq!(TornLine::of(b"x\r").map(|t| t.line), Some(1));
    }

    #[test]
    fn a_shown_torn_line_is_printable_and_cut_to_a_width() {
        let long = TornLine {
            line: 3,
            start: 0,
            bytes: [b"1 w \x1b[31m".as_slice(), &[b'a'; 200], b"\xff"].concat(),
        };
        let shown = long.shown();
        assert!(!shown.chars().any(char::is_control), "{shown}");
        assert_eq!(shown.chars().count(), TORN_SHOWN_CHARS + 1);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn the_first_event_of_a_header_only_log_brings_the_blank_line() {
        let header = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n";
        let planned = check(header.as_bytes(), &["0 w place Ke1"]).unwrap();
        assert_eq!(planned.bytes, b"\n0 w place Ke1\n");
        let planned = check(format!("{header}\n").as_bytes(), &["0 w place Ke1"]).unwrap();
        assert_eq!(planned.bytes, b"0 w place Ke1\n");
        // An empty batch writes nothing, not even the blank line.
        assert!(check(header.as_bytes(), &[] as &[&str]).unwrap().bytes.is_empty());
    }

    #[test]
    fn after_the_result_only_what_the_rules_allow_is_accepted() {
        let over = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
            0 w place Ke1 Qd1 Ra1\n0 b place Kh8 Pg7 Ph7\n0 w ready\n0 b ready\n1 w Qd1-d8#\n1 @ result 1-0 mate\n";
        assert!(check(over.as_bytes(), &["1 b chat \"gg\""]).is_ok());
        let err = check(over.as_bytes(), &["1 b Kh8-g8"]).unwrap_err();
        assert!(
            matches!(&err, AppendError::EventRule { error, .. } if error.rule == fgn_replay::Rule::AfterResult),
            "{err}"
        );
    }

    #[test]
    fn append_writes_and_a_refusal_leaves_the_file_byte_identical() {
        let path = scratch("refusal.fgn", SETUP.as_bytes());
        let appended = append(&path, &["1 w Ng1-f3"]).expect("a legal move");
        assert_eq!(appended.lines, ["1 w Ng1-f3"]);
        let before = std::fs::read(&path).unwrap();
        assert_eq!(before, format!("{SETUP}1 w Ng1-f3\n").as_bytes());
        let err = append(&path, &["1 b chat \"x\"", "1 w Nf3-g1"]).unwrap_err();
        assert!(err.file_unchanged());
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn repair_cuts_only_a_torn_line_and_append_works_after_it() {
        let path = scratch("repair.fgn", format!("{SETUP}1 w Ng1-").as_bytes());
        assert!(matches!(append(&path, &["1 w Ng1-f3"]), Err(AppendError::Torn(_))));
        let cut = repair(&path).expect("repairable").torn.expect("a torn line");
        assert_eq!(cut.bytes, b"1 w Ng1-");
        assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
        assert_eq!(repair(&path).expect("nothing to cut"), Repaired::default());
        assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
        append(&path, &["1 w Ng1-f3"]).expect("appendable after the repair");
    }

    #[test]
    fn a_missing_file_or_a_directory_is_an_error_and_nothing_is_created() {
        let dir = scratch("placeholder.fgn", b"").parent().unwrap().to_path_buf();
        let missing = dir.join("missing.fgn");
        let err = append(&missing, &["1 w Ng1-f3"]).unwrap_err();
        assert!(matches!(err, AppendError::Io { action: "open", .. }), "{err}");
        assert!(!missing.exists());
        assert!(matches!(repair(&missing), Err(AppendError::Io { action: "open", .. })));
        let err = append(&dir, &["1 w Ng1-f3"]).unwrap_err();
        assert!(matches!(err, AppendError::Io { .. } | AppendError::NotAFile), "{err}");
    }

    #[test]
    fn threads_appending_at_once_lose_nothing_and_never_interleave() {
        let path = scratch("threads.fgn", SETUP.as_bytes());
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for a in 0..25 {
                        let batch = [
                            format!("0 w chat \"t{t} a{a} first\""),
                            format!("0 b chat \"t{t} a{a} second\""),
                        ];
                        append(&path, &batch).expect("a chat is always legal");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("an appender thread");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let chats: Vec<&str> = text.strip_prefix(SETUP).expect("the log only grew").lines().collect();
        assert_eq!(chats.len(), 8 * 25 * 2);
        for pair in chats.chunks(2) {
            assert!(
                pair[0].ends_with(" first\""),
                "a batch starts with its first line: {pair:?}"
            );
            assert_eq!(pair[1], pair[0].replace("0 w", "0 b").replace(" first\"", " second\""));
        }
        let mut unique = chats.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), chats.len());
        let parsed = parse(text.as_bytes());
        assert!(parsed.is_ok() && !parsed.is_torn());
        let verdict = fgn_replay::validate(&parsed.document.game).unwrap();
        assert!(verdict.error.is_none(), "{:?}", verdict.error);
    }

    /// The log at `path` after [`replace_durably`] of `parts` is stopped at
    /// each step in turn (as a kill would stop it), with what was left at
    /// the temporary name.
    fn crash_at_every_step(path: &Path, before: &[u8], parts: &[&[u8]]) -> Vec<(Step, Vec<u8>, Option<Vec<u8>>)> {
        let mut stops = Vec::new();
        let mut stop_at = 0;
        loop {
            std::fs::write(path, before).unwrap();
            let log = File::open(path).unwrap();
            let mut seen = 0;
            let mut stopped = None;
            let mut crash = |step: Step| {
                seen += 1;
                if seen > stop_at {
                    stopped = Some(step);
                    return Err(io::Error::other("killed"));
                }
                Ok(())
            };
            let finished = replace_durably(path, &log, parts, Some(&mut crash)).is_ok();
            let leftover = std::fs::read(temporary_path(path).unwrap()).ok();
            match stopped {
                Some(step) => stops.push((step, std::fs::read(path).unwrap(), leftover)),
                None => {
                    assert!(finished);
                    return stops;
                }
            }
            stop_at += 1;
        }
    }

    #[test]
    fn a_crash_at_any_byte_of_an_append_leaves_the_old_log_or_the_whole_new_one() {
        let path = scratch("crash-steps.fgn", SETUP.as_bytes());
        let batch = b"1 w Ng1-f3\n1 b Ng8-f6\n1 w chat \"two moves\"\n";
        let whole = [SETUP.as_bytes(), batch].concat();
        let stops = crash_at_every_step(&path, SETUP.as_bytes(), &[SETUP.as_bytes(), batch]);
        // Created, every byte written, synced, renamed.
        assert_eq!(stops.len(), 1 + whole.len() + 2);
        for (step, log, _) in &stops {
            match step {
                Step::Renamed => assert_eq!(log, &whole, "after the rename the batch is wholly in"),
                _ => assert_eq!(
                    log,
                    SETUP.as_bytes(),
                    "before the rename ({step:?}) the batch is wholly out"
                ),
            }
        }
        // A stop before the rename takes back its temporary file; a kill
        // could not, and that leftover is what the next tests begin with.
        assert!(stops.iter().all(|(_, _, leftover)| leftover.is_none()));
    }

    #[test]
    fn the_leftover_of_a_killed_append_is_never_read_and_the_next_append_removes_it() {
        let path = scratch("leftover.fgn", SETUP.as_bytes());
        let tmp = temporary_path(&path).unwrap();
        let whole = format!("{SETUP}1 w Ng1-f3\n1 b Ng8-f6\n");
        // A kill may leave the temporary file holding any prefix of the new log.
        for cut in [0, 1, SETUP.len(), SETUP.len() + 4, whole.len() - 1, whole.len()] {
            std::fs::write(&path, SETUP).unwrap();
            std::fs::write(&tmp, &whole.as_bytes()[..cut]).unwrap();
            let appended = append(&path, &["1 w Ng1-f3"]).expect("the leftover is no obstacle");
            assert_eq!(appended.events, 5, "cut {cut}: the leftover's events are not the log's");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{SETUP}1 w Ng1-f3\n"));
            assert!(!tmp.exists(), "cut {cut}: the leftover is removed");
        }
        // A refused append removes nothing from the log and leaves the leftover to a repair.
        std::fs::write(&tmp, b"junk").unwrap();
        assert!(append(&path, &["1 w Nf3-g1"]).is_err());
        let repaired = repair(&path).unwrap();
        assert_eq!(
            repaired,
            Repaired {
                torn: None,
                leftover: Some(4)
            }
        );
        assert!(!tmp.exists());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{SETUP}1 w Ng1-f3\n"));
    }

    #[cfg(unix)]
    #[test]
    fn an_append_keeps_the_logs_permissions_and_a_symbolic_link_to_it() {
        use std::os::unix::fs::PermissionsExt;
        let path = scratch("kept.fgn", SETUP.as_bytes());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = path.with_file_name("kept-link.fgn");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&path, &link).unwrap();
        append(&link, &["1 w Ng1-f3"]).expect("through the link");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{SETUP}1 w Ng1-f3\n"));
    }
}
