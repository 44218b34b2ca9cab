//! Text to typed values.
//!
//! A log is read line by line: each line is checked for encoding and control
//! characters, split into tokens, and each token is read by a small nom
//! grammar. A line with a fault is reported and left out; the lines around
//! it are still read, so one bad line never hides the others.
//!
//! Nearly every line of a log is one of a few plain forms (a move of any
//! game, a setup line, a spell, a world event, `end`, the result). Once the
//! header is closed, at the first event line, each line is first offered
//! to the one-pass reader of `quick.rs` (`quick_event`), which reads it
//! from the rest of the file up to and including its line feed: no line
//! search before it, no UTF-8 pass (it accepts ASCII bytes it names one by
//! one), no tokens, no nom, no `check_form`, no allocation beyond what the
//! event holds, and no line or column computed but the action's offset.
//! It accepts only lines that the general reader turns into the same event
//! and that the form check admits. Whatever it does not accept (a comment,
//! a run of spaces, CR LF, a view's hidden square, a torn last line, a
//! fault) goes to the general reader here, so every diagnostic is the
//! general reader's and the general reader alone checks UTF-8, line by
//! line. The tests compare both readers line by line and, on mutated
//! corpus logs of every game, document by document.

use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, one_of};
use nom::combinator::{all_consuming, cut, map, opt};
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::sequence::preceded;
use nom::IResult;
use std::ops::Range;

use crate::action::{
    Action, Check, ChessMove, Event, Item, MagicNumber, ObjectKind, Outcome, Path, Placement, Reason, SeenPiece, Spell,
    SpellNumber, UnitMove, MAX_PATH,
};
use crate::diagnostic::{Diagnostic, Severity};
use crate::document::{Anchor, Comment, Document, Game};
use crate::forms::check_form;
use crate::header::{is_tag_name, respelled_known_tag, Header, Tag};
use crate::lines::{memchr_byte, memchr_newline};
use crate::quick::quick_event;
use crate::types::{Actor, Clock, Color, Figure, File, GameKind, MoveNumber, PieceKind, Square, UnitKind, UnitSet};

/// The largest file FGN reads, in bytes (64 MiB).
pub const MAX_FILE_BYTES: usize = 64 << 20;
pub use crate::lines::MAX_LINE_BYTES;
/// How many events' room a parse reserves at most before it reads a file.
const RESERVED_EVENTS: usize = 1 << 16;
/// How many diagnostics one file reports before it stops reading.
pub const MAX_DIAGNOSTICS: usize = 100;

/// The result of reading a log: the document (every line that was read
/// without fault) and the diagnostics of the others.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// What could be read.
    pub document: Document,
    /// What could not, in line order.
    pub diagnostics: Vec<Diagnostic>,
    /// What [`Parsed::is_formatted`] knows of the text without writing it.
    read: ReadAs,
}

/// How the lines of a parsed text were read: the length of the text, and
/// the indices of the events the general reader read (in order). Every
/// other event was read by the one-pass reader, which takes only lines
/// spelled exactly as canonical FGN writes their event.
#[derive(Clone, Debug, Default)]
struct ReadAs {
    len: usize,
    general_events: Vec<u32>,
    /// Where the last lines of the text, every one of them taken by the
    /// one-pass reader, begin: the index of their first event and its byte
    /// offset. Nothing but canonical event lines stands from there to the
    /// end of the text (no comment, blank line or torn line), so a
    /// comparison that has matched everything before that offset is done.
    quick_tail: Option<(u32, usize)>,
}

impl Parsed {
    /// Whether every complete line was read without fault (a torn last
    /// line is only a warning).
    pub fn is_ok(&self) -> bool {
        no_error(&self.diagnostics)
    }

    /// Whether the last line was torn (had no line end) and was left out.
    pub fn is_torn(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Warning)
    }

    /// Where the text's tail of one-pass lines begins (`ReadAs::quick_tail`).
    #[cfg(test)]
    pub(crate) fn quick_tail(&self) -> Option<(u32, usize)> {
        self.read.quick_tail
    }

    /// Whether `text`, the bytes this was parsed from, is exactly the
    /// canonical text of the document as parsed: what
    /// [`Document::is_formatted`] says, found without writing the lines
    /// the one-pass reader read (every line of a canonical log but a few),
    /// since that reader takes a line only in its canonical spelling. What
    /// `fgn fmt --check` asks, where writing each line to compare it cost
    /// a third of the time.
    ///
    /// It answers for the document as [`parse`] made it; once `document`
    /// has been changed, ask [`Document::is_formatted`]. Given other bytes
    /// than the parsed ones it may answer wrongly (a text of another length
    /// is compared line by line, in full).
    ///
    /// ```
    /// let text = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 {t=1.5}\n";
    /// assert!(fgn_notation::parse(text).is_formatted(text));
    /// // A trailing zero in the clock is not canonical.
    /// let text = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 {t=1.50}\n";
    /// assert!(!fgn_notation::parse(text).is_formatted(text));
    /// ```
    pub fn is_formatted(&self, text: &[u8]) -> bool {
        if text.len() != self.read.len {
            return self.document.is_formatted(text);
        }
        self.document
            .is_formatted_as_read(text, &self.read.general_events, self.read.quick_tail)
    }
}

/// Whether `diagnostics` hold only warnings (a torn last line).
fn no_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().all(|d| d.severity == Severity::Warning)
}

/// How far into a file [`parse`] looks for a NUL byte to tell a binary
/// file from a log, as git does: text never holds one, and binary formats
/// nearly always have one near their start.
const BINARY_PROBE_BYTES: usize = 8192;

/// The UTF-8 encoding of U+FEFF, the byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reads a log from its bytes.
pub fn parse(src: &[u8]) -> Parsed {
    parse_with(src, LogParser::default(), None)
}

// The header's event reader is defined here, beside the reader it runs:
// it reads the line after the header's canonical text, so it needs the
// whole parser and the document's `Game`, which the header module stays
// below.
impl Header {
    /// Reads `line`, one event line of the log this header starts, as
    /// [`parse`](crate::parse()) reads it in the file (which actions an
    /// actor may write depends on the game): what a game server does with
    /// an event a player sends. An end-of-line comment is allowed and
    /// dropped. The diagnostic of a line that is not one event is at line 1,
    /// the line's own, with the column in `line`.
    ///
    /// ```
    /// use fgn_notation::{parse, Action};
    ///
    /// let header = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n").document.game.header;
    /// let event = header.parse_event("1 w E2-e4 ; upper case accepted").unwrap();
    /// assert!(matches!(event.action, Action::Move(_)));
    /// assert_eq!(event.to_string(), "1 w e2-e4");
    ///
    /// // Spells are magic-draughts's: a survival-chess log cannot hold one.
    /// let refused = header.parse_event("1 w spell 3 skip").unwrap_err();
    /// assert_eq!((refused.line, refused.column), (1, 5));
    /// assert!(refused.message.contains("spell"), "{}", refused.message);
    /// ```
    pub fn parse_event(&self, line: &str) -> Result<Event, Diagnostic> {
        if let Some(at) = line.find(['\n', '\r']) {
            return Err(Diagnostic::at_bytes(
                1,
                "",
                0,
                0,
                format!("an event is one line, but this one holds a line end after byte {at}"),
            ));
        }
        // The line is read where it would stand in the file, after the
        // header, so that the parser applies the game's forms to it.
        let mut text = Game {
            header: self.clone(),
            events: Vec::new(),
        }
        .canonical_text();
        let header_lines = text.matches('\n').count() as u32;
        text.push_str(line);
        text.push('\n');
        let parsed = parse(text.as_bytes());
        if let Some(mut d) = parsed.diagnostics.into_iter().next() {
            d.line = d.line.saturating_sub(header_lines).max(1);
            return Err(d);
        }
        let document = parsed.document;
        match document.game.events.into_iter().next() {
            Some(event) if document.event_lines.first() == Some(&(header_lines + 1)) => Ok(event),
            _ => {
                let found = match line.trim_start_matches(' ').chars().next() {
                    None => "a blank line",
                    Some(';') => "a comment line",
                    Some('[') => "a header tag",
                    Some(_) => "a line that holds no event",
                };
                Err(Diagnostic::at_bytes(
                    1,
                    line,
                    0,
                    line.len(),
                    format!("expected an event line (`MOVE-NUMBER ACTOR ACTION`), found {found}"),
                ))
            }
        }
    }
}

/// About how many bytes of a text [`parse_in_runs`] reads before it hands
/// their events on: a few thousand events, whose lists stay in the
/// processor's cache.
const RUN_BYTES: usize = 32 << 10;

/// Events as [`parse_in_runs`] hands them on: the next run of a log's
/// events in file order, with where each stands.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    /// The header (complete: the first event closed it).
    pub header: &'a Header,
    /// The index in the log of the run's first event.
    pub first: usize,
    /// The events.
    pub events: &'a [Event],
    /// The 1-based line of each event ([`Document::event_lines`]).
    pub lines: &'a [u32],
    /// The 1-based column of each event's action ([`Document::event_columns`]).
    pub columns: &'a [u32],
}

/// A log read by [`parse_in_runs`]: all of it but the events, which went
/// to the caller.
#[derive(Debug)]
pub struct Streamed {
    /// The header, the tags' lines and the comments; no events, and no
    /// event lines or columns.
    pub document: Document,
    /// What could not be read, in line order, as [`Parsed::diagnostics`].
    pub diagnostics: Vec<Diagnostic>,
    /// How many events were read and handed on.
    pub events: usize,
}

impl Streamed {
    /// Whether every complete line was read without fault, as [`Parsed::is_ok`].
    pub fn is_ok(&self) -> bool {
        no_error(&self.diagnostics)
    }
}

/// Reads a log as [`parse`] does, with the same diagnostics, but hands its
/// events to `each` a run at a time as it reads them instead of keeping
/// them: what a caller that looks at each event once (validation) needs,
/// in memory and time that do not grow with the log beyond its text. Runs
/// come in file order, none empty, each after the header is complete.
///
/// ```
/// let text = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n0 b place Ke8\n";
/// let mut seen = Vec::new();
/// let streamed = fgn_notation::parse_in_runs(text, |run| {
///     seen.extend(run.events.iter().zip(run.lines).map(|(e, line)| (e.to_string(), *line)));
/// });
/// assert!(streamed.is_ok());
/// assert_eq!(streamed.events, 2);
/// assert_eq!(seen, [("0 w place Ke1".to_string(), 5), ("0 b place Ke8".to_string(), 6)]);
/// assert!(streamed.document.game.events.is_empty());
/// ```
pub fn parse_in_runs(src: &[u8], each: impl FnMut(Run<'_>)) -> Streamed {
    parse_in_runs_of(src, RUN_BYTES, 0, each)
}

/// [`parse`] of a text that stands after `lines_before` lines of its file:
/// one game of a file of several ([`crate::split`]), whose diagnostics and
/// lines are the file's.
pub(crate) fn parse_after(src: &[u8], lines_before: u32) -> Parsed {
    let p = LogParser {
        lines_before: clamped_lines_before(lines_before),
        ..LogParser::default()
    };
    parse_with(src, p, None)
}

/// [`parse_in_runs`] of a text that stands after `lines_before` lines of
/// its file, as [`parse_after`].
pub(crate) fn parse_in_runs_after(src: &[u8], lines_before: u32, each: impl FnMut(Run<'_>)) -> Streamed {
    parse_in_runs_of(src, RUN_BYTES, lines_before, each)
}

/// `lines_before`, lowered where needed so that a text's line numbers
/// cannot pass `u32::MAX`: a text of at most [`MAX_FILE_BYTES`] has at
/// most that many lines (a file with more than four billion lines before
/// a game gets wrong line numbers for it, never a panic).
fn clamped_lines_before(lines_before: u32) -> u32 {
    lines_before.min(u32::MAX - MAX_FILE_BYTES as u32 - 1)
}

/// [`parse_in_runs`] with runs of about `run_bytes` of text (0: a line),
/// of a text that stands after `lines_before` lines of its file.
fn parse_in_runs_of(src: &[u8], run_bytes: usize, lines_before: u32, mut each: impl FnMut(Run<'_>)) -> Streamed {
    let mut events = 0;
    let mut count = |run: Run<'_>| {
        events += run.events.len();
        each(run);
    };
    let parser = LogParser {
        run_bytes,
        lines_before: clamped_lines_before(lines_before),
        ..LogParser::default()
    };
    let parsed = parse_with(src, parser, Some(&mut count));
    Streamed {
        document: parsed.document,
        diagnostics: parsed.diagnostics,
        events,
    }
}

/// [`parse`] with every line taken by the general reader, for the tests
/// that hold the one-pass reader to it.
#[cfg(test)]
fn parse_general(src: &[u8]) -> Parsed {
    let p = LogParser {
        general_only: true,
        ..LogParser::default()
    };
    parse_with(src, p, None)
}

fn parse_with(src: &[u8], mut p: LogParser, each: Option<&mut dyn FnMut(Run<'_>)>) -> Parsed {
    p.read.len = src.len();
    p.doc.lines_before = p.lines_before;
    // A file that is not a log at all gets one diagnostic that says so,
    // not the errors of every line it happens to break.
    if let Some(message) = not_a_log(src) {
        p.diag(Diagnostic::at_bytes(
            p.lines_before.saturating_add(1),
            "",
            0,
            0,
            message,
        ));
        return p.finish_unread();
    }
    // A byte order mark is an error (docs/notation.md §2.1), but one an
    // editor adds without asking: it is reported once and the rest of the
    // file is read as if it were not there, so that the lines after it are
    // still checked and nothing else on line 1 is blamed on it.
    let (src, bom) = match src.strip_prefix(BOM) {
        Some(rest) => {
            p.diag(Diagnostic::at_bytes(
                1,
                "",
                0,
                0,
                "the file starts with a byte order mark (U+FEFF); FGN files are UTF-8 without one",
            ));
            (rest, true)
        }
        None => (src, false),
    };
    let mut parsed = p.read_lines(src, each);
    if bom {
        // The tail's offset counts from after the mark; a text with one is
        // not canonical anyway, so the comparison is left to do in full.
        parsed.read.quick_tail = None;
        // Columns on line 1 count the mark, as an editor shows them.
        for d in parsed.diagnostics.iter_mut().skip(1).filter(|d| d.line == 1) {
            d.column += 1;
        }
    }
    parsed
}

/// Why `src` cannot be read as a log at all, if it cannot: it is empty, too
/// large, or not text.
fn not_a_log(src: &[u8]) -> Option<String> {
    if src.is_empty() {
        return Some("the file is empty; an FGN log has at least its `Game` and `Rules` tags".into());
    }
    if src.len() > MAX_FILE_BYTES {
        // Readers stop one byte past the limit, so the exact size is not
        // known here; only that it is too large.
        return Some(format!(
            "the file is larger than {MAX_FILE_BYTES} bytes (64 MiB), the most FGN reads; nothing is read"
        ));
    }
    // A file that starts as a log does (a tag, a comment, a blank line,
    // perhaps after a byte order mark) is read line by line even with a NUL
    // in it: a crash can leave a block of NULs after the last good line, and
    // the lines before them must not be lost. UTF-16 text ("[\0G\0...") has
    // a NUL as its second byte, which no log has. Such a file, every log,
    // needs no search for a NUL at all.
    let text = src.strip_prefix(BOM).unwrap_or(src);
    let starts_like_a_log = matches!(text.first(), Some(b'[' | b';' | b' ' | b'\n' | b'\r')) && text.get(1) != Some(&0);
    if starts_like_a_log {
        return None;
    }
    let probe = &src[..src.len().min(BINARY_PROBE_BYTES)];
    let nul = memchr_byte(0, probe)?;
    let line = probe[..nul].iter().filter(|&&b| b == b'\n').count() + 1;
    Some(format!(
        "this is not a text file (a NUL byte at line {line}, byte {}); FGN logs are UTF-8 text",
        nul + 1
    ))
}

impl LogParser {
    /// Reads every line of `src` (at most [`MAX_FILE_BYTES`], not empty),
    /// and with `each`, hands the events on in runs as it goes
    /// ([`parse_in_runs`]) instead of keeping them.
    fn read_lines(mut self, src: &[u8], each: Option<&mut dyn FnMut(Run<'_>)>) -> Parsed {
        // Where the lines after the last one the general reader took begin
        // (`ReadAs::quick_tail`): the index of their first event and their
        // byte offset. Only the general reader's lines move it, so that the
        // one-pass reader's loop pays nothing for it (kept in `self`, not in
        // a local that would take a register from that loop).
        self.read.quick_tail = Some((0, 0));
        let Some(each) = each else {
            // Room for the events from the start (a move line is about ten
            // bytes), up to a bound, so that a log is not copied as its lists
            // grow.
            let lines = (src.len() / 10).min(RESERVED_EVENTS);
            self.doc.game.events.reserve(lines);
            self.doc.event_lines.reserve(lines);
            self.doc.event_columns.reserve(lines);
            let line_no = match self.read_stretch(src, 0, self.lines_before) {
                Ok((_, line_no)) => line_no,
                Err(capped_at) => return self.finish(capped_at),
            };
            // Only a text read to its end has a tail, and only one with an
            // event in it: a torn line ends the loop with none (its bytes
            // follow), and the cap on diagnostics drops it, with lines left
            // unread.
            let events = self.doc.game.events.len();
            self.read.quick_tail = self.read.quick_tail.filter(|&(first, _)| (first as usize) < events);
            return self.finish(line_no);
        };
        // The text is read a stretch of whole lines at a time, and the
        // events of each stretch are handed on and dropped: the lists stay
        // the size of a stretch, in the processor's cache, however long the
        // log is. Room for a stretch's events, or for a shorter text's:
        // a stretch's room (some 200 KiB) taken for each small log was most
        // of what reading it allocated, and its free the allocator's work.
        let lines = (self.run_bytes.min(src.len()) / 10).min(RESERVED_EVENTS);
        self.doc.game.events.reserve(lines);
        self.doc.event_lines.reserve(lines);
        self.doc.event_columns.reserve(lines);
        let (mut start, mut line_no) = (0, self.lines_before);
        while start < src.len() {
            let cut = (start + self.run_bytes).min(src.len());
            let end = memchr_newline(&src[cut..]).map_or(src.len(), |i| cut + i + 1);
            let read = self.read_stretch(&src[..end], start, line_no);
            self.hand_on(each);
            match read {
                Ok(at) => (start, line_no) = at,
                Err(capped_at) => return self.finish(capped_at),
            }
        }
        // Nothing of the text is kept to compare it with.
        self.read.quick_tail = None;
        self.finish(line_no)
    }

    /// Hands the events read so far to `each` and drops them.
    fn hand_on(&mut self, each: &mut dyn FnMut(Run<'_>)) {
        if self.doc.game.events.is_empty() {
            return;
        }
        each(Run {
            header: &self.doc.game.header,
            first: self.handed_on,
            events: &self.doc.game.events,
            lines: &self.doc.event_lines,
            columns: &self.doc.event_columns,
        });
        self.handed_on += self.doc.game.events.len();
        self.doc.game.events.clear();
        self.doc.event_lines.clear();
        self.doc.event_columns.clear();
    }

    /// Reads the lines of `src` from byte `start` (the start of a line; the
    /// lines before it were numbered up to `line_no`) to its end; returns
    /// where it stopped (the end of `src`) and the number of the last line
    /// read, or `Err` with that number when the cap on diagnostics was
    /// reached and nothing more is to be read.
    fn read_stretch(&mut self, src: &[u8], mut start: usize, mut line_no: u32) -> Result<(usize, u32), u32> {
        while start < src.len() {
            line_no += 1;
            // Most lines are one of a few plain forms, `12 w Ng1-f3+` above
            // all: read in one pass here, line end included. Anything else,
            // and anything this pass does not accept, takes the general
            // reader, which gives every diagnostic.
            if let Some(game) = self.quick {
                if let Some((action_start, end)) =
                    quick_event(&src[start..], game, self.view, &mut self.doc.game.events)
                {
                    self.pushed_quick_event(line_no, action_start, src, start..start + end);
                    start += end + 1;
                    continue;
                }
            }
            let (end, next, complete) = match memchr_newline(&src[start..]) {
                Some(i) => (start + i, start + i + 1, true),
                None => (src.len(), src.len(), false),
            };
            let line = &src[start..end];
            let line_start = start;
            start = next;
            if !complete {
                // A torn line longer than any line FGN reads is not shown: it
                // may be the whole of a damaged file, and echoing it (with a
                // caret line as wide) would bury the message.
                let shown = std::str::from_utf8(line).ok().filter(|t| t.len() <= MAX_LINE_BYTES);
                let text = shown.unwrap_or("");
                let len = if shown.is_some() { line.len() } else { 0 };
                let size = if shown.is_some() {
                    String::new()
                } else {
                    format!(" ({} bytes)", line.len())
                };
                let mut torn = Diagnostic::at_bytes(
                line_no,
                text,
                len,
                0,
                format!(
                    "torn append: line {line_no}{size} has no line end, so it is left out (the lines before it are read)"
                ),
            );
                torn.severity = Severity::Warning;
                self.diag(torn);
                self.read.quick_tail = None;
                break;
            }
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            // The first event line closes the header, as `line` does it, and
            // then the one-pass reader may take it like the lines after it.
            if !self.seen_event_line && line.first().is_some_and(u8::is_ascii_digit) {
                self.seen_event_line = true;
                self.close_header(
                    line_no,
                    std::str::from_utf8(line).ok().filter(|t| t.len() <= MAX_LINE_BYTES),
                );
                if let Some(game) = self.quick {
                    if let Some((action_start, _)) =
                        quick_event(&src[line_start..], game, self.view, &mut self.doc.game.events)
                    {
                        self.pushed_quick_event(line_no, action_start, src, line_start..line_start + line.len());
                        if self.cap_diagnostics(line_no) {
                            return Err(line_no);
                        }
                        continue;
                    }
                }
            }
            self.line(line_no, line);
            self.read.quick_tail = Some((self.doc.game.events.len() as u32, start));
            if self.cap_diagnostics(line_no) {
                return Err(line_no);
            }
        }
        Ok((start, line_no))
    }
}

#[derive(Default)]
struct LogParser {
    doc: Document,
    diagnostics: Vec<Diagnostic>,
    /// Comments on lines of their own, waiting for the tag or event they precede.
    pending_comments: Vec<String>,
    game: Option<GameKind>,
    view: Option<Color>,
    seen_event_line: bool,
    reported_no_game: bool,
    header_closed: bool,
    /// The chess game whose plain move lines the one-pass reader takes,
    /// once the header is closed (`None`: every line takes the general one).
    quick: Option<GameKind>,
    /// Whether the one-pass reader is off (for the tests that compare).
    general_only: bool,
    /// How the lines were read, for [`Parsed::is_formatted`].
    read: ReadAs,
    /// How many events were handed on and dropped ([`parse_in_runs`]).
    handed_on: usize,
    /// How many bytes [`parse_in_runs`] reads before it hands their events
    /// on (a stretch ends at the end of the line this many bytes in).
    run_bytes: usize,
    /// How many lines of the file stand before the text read (0 but for
    /// the later games of a file of several), so that every line number
    /// given out is the file's.
    lines_before: u32,
    /// The names of the tags read so far, once there are more than
    /// [`SCAN_TAGS`], so that a tag given twice is found in constant time:
    /// searching the header's list for every tag made a header of n tags
    /// cost n² (160,000 tags took 25 s; issue 36). Empty for the usual
    /// header of a few tags, which a scan of the list checks faster than a
    /// set is built.
    tag_names: std::collections::HashSet<String>,
}

/// Up to this many tags, a repeated tag is found by scanning the header's
/// list; past it, by the set of names ([`LogParser::tag_names`]).
const SCAN_TAGS: usize = 32;

impl LogParser {
    /// Whether the header read so far has a tag `name`.
    fn tag_seen(&mut self, name: &str) -> bool {
        let tags = &self.doc.game.header.tags;
        if tags.len() < SCAN_TAGS {
            return tags.iter().any(|t| t.name == name);
        }
        if self.tag_names.is_empty() {
            self.tag_names.extend(tags.iter().map(|t| t.name.clone()));
        }
        self.tag_names.contains(name)
    }
}

/// A fault within a line: where (bytes) and what was expected.
struct Fault {
    start: usize,
    len: usize,
    message: String,
}

impl Fault {
    fn expected(tok: &Token<'_>, expected: &str) -> Fault {
        Fault {
            start: tok.start,
            len: tok.text.len(),
            message: format!("expected {expected}, found `{}`", tok.text),
        }
    }
}

/// The tokens of one line. Nearly every event has at most eight, so they
/// live on the stack; a long `place` list spills to the heap.
type Tokens<'a> = smallvec::SmallVec<[Token<'a>; 8]>;

/// A token of an event line and its byte offset.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    start: usize,
}

impl LogParser {
    fn diag(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Reads one line; `known` is its text when the whole file is known to
    /// be valid UTF-8.
    fn line(&mut self, line_no: u32, bytes: &[u8]) {
        // A header tag as the canonical text spells it, the usual line
        // before the events, is read in one pass; any other spelling, and
        // every fault, takes the general reader below.
        if !self.seen_event_line && !self.general_only {
            if let Some((name_end, close)) = plain_tag(bytes) {
                if let Ok(text) = std::str::from_utf8(bytes) {
                    let value = text[name_end + 2..close].to_string();
                    let name = &text[1..name_end];
                    if let Err(f) = self.add_tag(line_no, 1, name, value, name_end + 1..close + 1, None) {
                        self.diag(Diagnostic::at_bytes(line_no, text, f.start, f.len, f.message));
                    }
                    return;
                }
            }
        }
        // What kind of line it is shows in its first byte, even when the rest
        // cannot be read: an event line ends the header whether or not it is
        // readable, so that a tag after it is still reported.
        let first = bytes.iter().find(|&&b| b != b' ');
        if first.is_some_and(|&b| b != b'[' && b != b';') && !self.seen_event_line {
            self.seen_event_line = true;
            self.close_header(
                line_no,
                std::str::from_utf8(bytes).ok().filter(|t| t.len() <= MAX_LINE_BYTES),
            );
        }
        if bytes.len() > MAX_LINE_BYTES {
            self.diag(Diagnostic::at_bytes(
                line_no,
                "",
                0,
                0,
                format!(
                    "line is {} bytes long; FGN lines are at most {MAX_LINE_BYTES} bytes",
                    bytes.len()
                ),
            ));
            return;
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
                let column = valid.chars().count() + 1;
                self.diag(Diagnostic {
                    severity: Severity::Error,
                    line: line_no,
                    column: column as u32,
                    width: 1,
                    message: format!(
                        "invalid UTF-8 (byte 0x{:02x}); FGN files are UTF-8",
                        bytes[e.valid_up_to()]
                    ),
                    source_line: String::new(),
                });
                return;
            }
        };
        // Printable ASCII, the usual case, holds no control character and no
        // byte order mark; only other lines need the scan by characters.
        let plain_ascii = bytes.iter().all(|&b| (0x20..0x7f).contains(&b));
        let fault = if plain_ascii {
            None
        } else {
            text.char_indices().find(|&(_, c)| c.is_control() || c == '\u{FEFF}')
        };
        if let Some((i, c)) = fault {
            let what = if c == '\u{FEFF}' {
                "a byte order mark (U+FEFF); FGN files are UTF-8 without one".to_string()
            } else {
                format!(
                    "control character U+{:04X}; FGN lines hold no control characters (tabs included)",
                    c as u32
                )
            };
            self.diag(Diagnostic::at_bytes(line_no, text, i, c.len_utf8(), what));
            return;
        }
        let body = text.trim_start_matches(' ');
        if body.is_empty() {
            return;
        }
        if let Some(comment) = body.strip_prefix(';') {
            self.pending_comments.push(comment.trim_matches(' ').to_string());
            return;
        }
        let result = if body.starts_with('[') {
            self.tag_line(line_no, text)
        } else {
            self.event_line(line_no, text)
        };
        if let Err(f) = result {
            self.diag(Diagnostic::at_bytes(line_no, text, f.start, f.len, f.message));
        }
    }

    fn tag_line(&mut self, line_no: u32, text: &str) -> Result<(), Fault> {
        let open = text.find('[').unwrap_or(0);
        if self.seen_event_line {
            return Err(Fault {
                start: open,
                len: 1,
                message: "header tags come before the first event".into(),
            });
        }
        let after = &text[open + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        if !is_tag_name(name) {
            return Err(Fault {
                start: open + 1,
                len: name_len.max(1),
                message: "expected a tag name ([A-Za-z][A-Za-z0-9_]*) after `[`".into(),
            });
        }
        let mut pos = open + 1 + name_len;
        let spaces = text[pos..].len() - text[pos..].trim_start_matches(' ').len();
        if spaces == 0 {
            return Err(Fault {
                start: pos,
                len: 1,
                message: format!("expected a space and a quoted value after the tag name `{name}`"),
            });
        }
        pos += spaces;
        let (value, used) = read_quoted(&text[pos..]).map_err(|(off, msg)| Fault {
            start: pos + off,
            len: 1,
            message: msg,
        })?;
        let value_start = pos;
        pos += used;
        if !text[pos..].starts_with(']') {
            return Err(Fault {
                start: pos,
                len: 1,
                message: "expected `]` after the tag value".into(),
            });
        }
        pos += 1;
        let comment = trailing_comment(text, pos)?;
        self.add_tag(line_no, open + 1, name, value, value_start..pos - 1, comment)
    }

    /// Records a tag read from line `line_no`, its name at byte
    /// `name_start`, its value's quoted text at `quoted`, unless the header
    /// refuses it: a second tag of the name, a known tag's value out of its
    /// form, `Perspective` out of place.
    fn add_tag(
        &mut self,
        line_no: u32,
        name_start: usize,
        name: &str,
        value: String,
        quoted: std::ops::Range<usize>,
        comment: Option<String>,
    ) -> Result<(), Fault> {
        let name_len = name.len();
        if self.tag_seen(name) {
            return Err(Fault {
                start: name_start,
                len: name_len,
                message: format!("the tag `{name}` appears twice"),
            });
        }
        let value = match respelled_known_tag(name, &value) {
            Ok(respelled) => respelled.unwrap_or(value),
            Err(e) => {
                return Err(Fault {
                    start: quoted.start,
                    len: quoted.len(),
                    message: format!("the value of `{name}`: {e}, found \"{value}\""),
                })
            }
        };
        if name == "Perspective" {
            let after_rules = self.doc.game.header.tags.last().is_some_and(|t| t.name == "Rules");
            if !after_rules {
                return Err(Fault {
                    start: name_start,
                    len: name_len,
                    message: "the `Perspective` tag comes right after the `Rules` tag".into(),
                });
            }
        }
        let index = self.doc.game.header.tags.len();
        self.flush_comments(Anchor::BeforeTag(index));
        if let Some(c) = comment {
            self.doc.comments.push(Comment {
                anchor: Anchor::OnTag(index),
                text: c,
            });
        }
        if !self.tag_names.is_empty() {
            self.tag_names.insert(name.to_string());
        }
        self.doc.game.header.tags.push(Tag {
            name: name.to_string(),
            value,
        });
        self.doc.tag_lines.push(line_no);
        Ok(())
    }

    /// Ends the header at the first event line (`text`), or at the end of a
    /// file without events (`None`), and reports missing required tags there.
    fn close_header(&mut self, line_no: u32, text: Option<&str>) {
        if self.header_closed {
            return;
        }
        self.header_closed = true;
        let header = &self.doc.game.header;
        self.game = header.game();
        self.view = header.perspective();
        if !self.general_only {
            self.quick = self.game;
        }
        let missing: Vec<&str> = ["Game", "Rules"]
            .into_iter()
            .filter(|r| header.get(r).is_none())
            .collect();
        for required in missing {
            let consequence = if required == "Game" && text.is_some() {
                // Said once here: without a game no event can be read.
                self.reported_no_game = true;
                "; without it the events cannot be read"
            } else {
                "; it is required before the first event"
            };
            self.diag(Diagnostic::at_bytes(
                line_no,
                text.unwrap_or(""),
                0,
                text.map_or(0, str::len),
                format!("the header has no valid `{required}` tag{consequence}"),
            ));
        }
    }

    fn event_line(&mut self, line_no: u32, text: &str) -> Result<(), Fault> {
        self.seen_event_line = true;
        self.close_header(line_no, Some(text));
        let Some(game) = self.game else {
            if !self.reported_no_game {
                self.reported_no_game = true;
                return Err(Fault {
                    start: 0,
                    len: text.len(),
                    message: "events cannot be read without a valid `Game` tag in the header".into(),
                });
            }
            return Ok(());
        };
        let mut tokens = Tokens::new();
        let comment = tokenize(text, &mut tokens)?;
        let event = read_event(game, text, &tokens)?;
        if let Err(message) = check_form(game, self.view, &event) {
            let first = tokens.get(2).map_or(0, |t| t.start);
            let last = tokens.last().map_or(text.len(), |t| t.start + t.text.len());
            return Err(Fault {
                start: first,
                len: last.saturating_sub(first),
                message,
            });
        }
        let action_start = tokens.get(2).map_or(0, |t| t.start);
        let before = &text[..action_start];
        // Columns count characters; in ASCII they are bytes.
        let column = if before.is_ascii() {
            before.len()
        } else {
            before.chars().count()
        };
        self.push_event(line_no, event, comment, column as u32 + 1);
        Ok(())
    }

    /// Adds an event read from line `line_no`, its action starting at
    /// `column`, with the comments before it and its own.
    fn push_event(&mut self, line_no: u32, event: Event, comment: Option<String>, column: u32) {
        let index = self.handed_on + self.doc.game.events.len();
        self.read.general_events.push(index as u32);
        if !self.pending_comments.is_empty() {
            self.flush_comments(Anchor::BeforeEvent(index));
        }
        if let Some(c) = comment {
            self.doc.comments.push(Comment {
                anchor: Anchor::OnEvent(index),
                text: c,
            });
        }
        self.doc.game.events.push(event);
        self.doc.event_lines.push(line_no);
        self.doc.event_columns.push(column);
    }

    /// Records where the event the one-pass reader has just pushed from
    /// the bytes `line` of `src` (without its line feed) stands: line
    /// `line_no`, its action at byte `action_start` (the line is ASCII, so
    /// its columns are its bytes); and gives it the comments that came
    /// before it (it has none of its own).
    #[inline(always)]
    fn pushed_quick_event(&mut self, line_no: u32, action_start: usize, src: &[u8], line: Range<usize>) {
        let index = self.doc.game.events.len() - 1;
        // Only a debug build looks at the event and the line: the slicing
        // and indexing would cost a release build a few instructions an
        // event even with the assertions gone.
        if cfg!(debug_assertions) {
            let event = &self.doc.game.events[index];
            assert!(
                check_form(self.quick.expect("a game"), self.view, event).is_ok(),
                "{event:?}"
            );
            // `Parsed::is_formatted` trusts this of every line the one-pass
            // reader takes.
            assert_eq!(
                event.to_string().as_bytes(),
                &src[line],
                "the one-pass reader took a line that is not canonical"
            );
        }
        if !self.pending_comments.is_empty() {
            self.flush_comments(Anchor::BeforeEvent(self.handed_on + index));
        }
        self.doc.event_lines.push(line_no);
        self.doc.event_columns.push(action_start as u32 + 1);
    }

    fn flush_comments(&mut self, anchor: Anchor) {
        for text in self.pending_comments.drain(..) {
            self.doc.comments.push(Comment { anchor, text });
        }
    }

    /// The result for a file none of whose lines were read: its one
    /// diagnostic, and no complaint about tags it could not have shown.
    fn finish_unread(self) -> Parsed {
        Parsed {
            document: self.doc,
            diagnostics: self.diagnostics,
            read: self.read,
        }
    }

    /// Keeps the first [`MAX_DIAGNOSTICS`] diagnostics and one more saying
    /// that there were more; true when there were. It runs after every line
    /// and once more at the end, since closing the header and a torn last
    /// line add diagnostics of their own (a fuzzed file once reached 102).
    fn cap_diagnostics(&mut self, line_no: u32) -> bool {
        if self.diagnostics.len() <= MAX_DIAGNOSTICS {
            return false;
        }
        self.diagnostics.truncate(MAX_DIAGNOSTICS);
        // The lines after this one are not read, so no tail ends the text.
        self.read.quick_tail = None;
        self.diag(Diagnostic::at_bytes(
            line_no,
            "",
            0,
            0,
            format!("more than {MAX_DIAGNOSTICS} errors; the rest of the file is not read"),
        ));
        true
    }

    fn finish(mut self, last_line: u32) -> Parsed {
        if !self.header_closed {
            self.close_header(last_line.max(1), None);
        }
        self.cap_diagnostics(last_line.max(1));
        self.flush_comments(Anchor::End);
        Parsed {
            document: self.doc,
            diagnostics: self.diagnostics,
            read: self.read,
        }
    }
}

/// Where the name of a tag line in its canonical spelling ends and where
/// its closing quote stands: `[Name "value"]` with nothing around it, one
/// space, and a value of printable ASCII without quotes or backslashes
/// (nothing to unescape). Any other line: `None`.
fn plain_tag(b: &[u8]) -> Option<(usize, usize)> {
    if b.len() > MAX_LINE_BYTES || b.first() != Some(&b'[') || !b.get(1)?.is_ascii_alphabetic() {
        return None;
    }
    let name_end = 2 + b[2..].iter().position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))?;
    let value = b[name_end..].strip_prefix(b" \"")?.strip_suffix(b"\"]")?;
    let plain = value
        .iter()
        .all(|&c| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\');
    plain.then_some((name_end, name_end + 2 + value.len()))
}

/// Reads a double-quoted string with `\"` and `\\` escapes from the start of
/// `s`; returns the text and the bytes used, or the offset and message of the fault.
fn read_quoted(s: &str) -> Result<(String, usize), (usize, String)> {
    if !s.starts_with('"') {
        return Err((0, "expected a double-quoted value".into()));
    }
    // Nearly every quoted text has no escape: it is copied at once.
    if let Some(end) = s.bytes().skip(1).position(|b| b == b'"' || b == b'\\') {
        if s.as_bytes()[end + 1] == b'"' {
            return Ok((s[1..end + 1].to_string(), end + 2));
        }
    }
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, i + 1)),
            '\\' => match chars.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((j, _)) => {
                    return Err((
                        j - 1,
                        "unknown escape: only `\\\"` and `\\\\` are allowed in quoted text".into(),
                    ))
                }
                None => return Err((i, "unterminated quoted text".into())),
            },
            c => out.push(c),
        }
    }
    Err((0, "unterminated quoted text: this quote has no closing `\"`".into()))
}

/// What may follow the last token of a line: spaces and a comment.
fn trailing_comment(text: &str, pos: usize) -> Result<Option<String>, Fault> {
    let rest = &text[pos..];
    let trimmed = rest.trim_start_matches(' ');
    if trimmed.is_empty() {
        return Ok(None);
    }
    match trimmed.strip_prefix(';') {
        Some(c) => Ok(Some(c.trim_matches(' ').to_string())),
        None => {
            let start = pos + rest.len() - trimmed.len();
            Err(Fault {
                start,
                len: trimmed.len(),
                message: format!("expected the end of the line or a `;` comment, found `{trimmed}`"),
            })
        }
    }
}

/// Splits an event line into tokens (runs of non-spaces; a quoted string is
/// one token) and its comment.
fn tokenize<'a>(text: &'a str, tokens: &mut Tokens<'a>) -> Result<Option<String>, Fault> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' => i += 1,
            b';' => return Ok(Some(text[i + 1..].trim_matches(' ').to_string())),
            b'"' => {
                let (_, used) = read_quoted(&text[i..]).map_err(|(off, message)| Fault {
                    start: i + off,
                    len: 1,
                    message,
                })?;
                tokens.push(Token {
                    text: &text[i..i + used],
                    start: i,
                });
                i += used;
                if i < bytes.len() && bytes[i] != b' ' && bytes[i] != b';' {
                    return Err(Fault {
                        start: i,
                        len: 1,
                        message: "expected a space after the closing quote".into(),
                    });
                }
            }
            _ => {
                let end = text[i..].find([' ', ';', '"']).map_or(text.len(), |e| i + e);
                if end < text.len() && bytes[end] == b'"' {
                    return Err(Fault {
                        start: end,
                        len: 1,
                        message: "a quoted string starts a token of its own: put a space before `\"`".into(),
                    });
                }
                tokens.push(Token {
                    text: &text[i..end],
                    start: i,
                });
                i = end;
            }
        }
    }
    Ok(None)
}

fn read_event(game: GameKind, text: &str, tokens: &[Token<'_>]) -> Result<Event, Fault> {
    let end_fault = |expected: &str| Fault {
        start: text.len(),
        len: 0,
        message: format!("expected {expected}, found the end of the line"),
    };
    let num_tok = tokens.first().ok_or_else(|| end_fault("a move number"))?;
    let n: MoveNumber = num_tok
        .text
        .parse()
        .map_err(|e: crate::types::ValueError| Fault::expected(num_tok, e.expected))?;
    let actor_tok = tokens.get(1).ok_or_else(|| end_fault("an actor: w, b or @"))?;
    let actor: Actor = actor_tok
        .text
        .parse()
        .map_err(|_| Fault::expected(actor_tok, "an actor: w, b or @"))?;
    let mut rest = &tokens[2..];
    let mut clock_ms = None;
    if let Some((last, init)) = rest.split_last() {
        if last.text.starts_with('{') {
            let inner = last.text.strip_prefix("{t=").and_then(|t| t.strip_suffix('}'));
            let clock = inner.and_then(|t| t.parse::<Clock>().ok());
            clock_ms = Some(clock.ok_or_else(|| {
                Fault::expected(
                    last,
                    "a clock annotation such as {t=12.5} (seconds, up to 3 fraction digits)",
                )
            })?);
            rest = init;
        }
    }
    let action = read_action(game, actor, text, rest)?;
    Ok(Event {
        n,
        actor,
        action,
        clock_ms,
    })
}

/// The action tokens of one event, read left to right.
struct Args<'a, 't> {
    text: &'a str,
    tokens: &'t [Token<'a>],
    next: usize,
}

impl<'a> Args<'a, '_> {
    fn take(&mut self, expected: &str) -> Result<Token<'a>, Fault> {
        let t = self.tokens.get(self.next).copied().ok_or_else(|| Fault {
            start: self.text.len(),
            len: 0,
            message: format!("expected {expected}, found the end of the line"),
        })?;
        self.next += 1;
        Ok(t)
    }

    fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.next).copied()
    }

    fn value<T: std::str::FromStr<Err = crate::types::ValueError>>(&mut self) -> Result<T, Fault> {
        // The empty text never parses, and its error says what was expected.
        let expected = "".parse::<T>().err().map_or("a value", |e| e.expected);
        let t = self.take(expected)?;
        t.text
            .parse()
            .map_err(|e: crate::types::ValueError| Fault::expected(&t, e.expected))
    }

    fn square(&mut self) -> Result<Square, Fault> {
        self.value()
    }

    fn done(&self) -> Result<(), Fault> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Fault {
                start: t.start,
                len: self
                    .tokens
                    .last()
                    .map_or(t.text.len(), |l| l.start + l.text.len() - t.start),
                message: format!(
                    "expected the end of the event (or a clock {{t=...}}), found `{}`",
                    t.text
                ),
            }),
        }
    }

    fn rest(&mut self) -> &[Token<'a>] {
        let r = &self.tokens[self.next..];
        self.next = self.tokens.len();
        r
    }
}

/// How a game's setup lines are written, for messages that show one: what
/// one placement is and an example of a list, in the game's own figures
/// (great-war-chess places units, the chess games pieces), so that no
/// message of one game suggests another's notation.
fn placement_words(game: GameKind) -> (&'static str, &'static str) {
    match game {
        GameKind::GreatWarChess => (
            "a unit letter and a square, such as Ib2",
            "units and squares, such as Ib2 Cb1",
        ),
        _ => (
            "a piece letter and a square, such as Ke1",
            "pieces and squares, such as Ke1 Qd1",
        ),
    }
}

fn read_placements(game: GameKind, tokens: &[Token<'_>]) -> Result<Vec<Placement>, Fault> {
    tokens
        .iter()
        .map(|t| {
            let mut chars = t.text.chars();
            // One letter, read as `Figure::from_str` reads a one-letter text,
            // without making that text: a setup line has a dozen of them.
            let figure = chars.next().and_then(|c| {
                PieceKind::from_char(c)
                    .map(Figure::Piece)
                    .or_else(|| UnitKind::from_char(c).map(Figure::Unit))
            });
            let square = chars.as_str().parse().ok();
            match (figure, square) {
                (Some(figure), Some(square)) => Ok(Placement { figure, square }),
                _ => Err(Fault::expected(t, placement_words(game).0)),
            }
        })
        .collect()
}

fn read_action(game: GameKind, actor: Actor, text: &str, tokens: &[Token<'_>]) -> Result<Action, Fault> {
    let mut args = Args { text, tokens, next: 0 };
    let head = args.take("an action")?;
    // Keywords are words without digits; most events are moves, and a token
    // with a digit skips the keyword comparisons.
    if head.text.bytes().any(|c| c.is_ascii_digit()) {
        let action = read_move(game, &head)?;
        args.done()?;
        return Ok(action);
    }
    let action = match head.text {
        "place" => {
            let list = args.rest();
            if list.is_empty() {
                return Err(Fault {
                    start: text.len(),
                    len: 0,
                    message: format!("expected {} after `place`", placement_words(game).1),
                });
            }
            Action::Place {
                placements: read_placements(game, list)?,
            }
        }
        "remove" => {
            let square_words = match game {
                GameKind::GreatWarChess => "a square such as e2, or a unit and square such as Cb2",
                _ => "a square such as e2",
            };
            let t = args.take(square_words)?;
            if let Ok(square) = t.text.parse() {
                Action::Remove { unit: None, square }
            } else {
                let mut chars = t.text.chars();
                let unit = chars.next().and_then(UnitKind::from_char);
                match (unit, chars.as_str().parse()) {
                    (Some(unit), Ok(square)) => Action::Remove {
                        unit: Some(unit),
                        square,
                    },
                    _ => return Err(Fault::expected(&t, square_words)),
                }
            }
        }
        "ready" => Action::Ready,
        "end" => Action::End,
        "resign" => Action::Resign,
        "chat" => {
            let t = args.take("a quoted message")?;
            if !t.text.starts_with('"') {
                return Err(Fault::expected(&t, "a quoted message such as \"good game\""));
            }
            let (text, _) = read_quoted(t.text).map_err(|(off, message)| Fault {
                start: t.start + off,
                len: 1,
                message,
            })?;
            Action::Chat { text }
        }
        "extra" => {
            let t = args.take("yes or no")?;
            match t.text {
                "yes" => Action::Extra { granted: true },
                "no" => Action::Extra { granted: false },
                _ => return Err(Fault::expected(&t, "yes or no")),
            }
        }
        "timeout" => Action::Timeout { color: args.value()? },
        "result" => {
            let t = args.take("an outcome: 1-0, 0-1, 1/2-1/2 or abort")?;
            let outcome = match t.text {
                "1-0" => Outcome::WhiteWins,
                "0-1" => Outcome::BlackWins,
                "1/2-1/2" => Outcome::Draw,
                "abort" => Outcome::Abort,
                _ => return Err(Fault::expected(&t, "an outcome: 1-0, 0-1, 1/2-1/2 or abort")),
            };
            let t = args.take("a reason such as resign")?;
            let reason = Reason::from_name(t.text).ok_or_else(|| {
                Fault::expected(&t, &format!("a reason: {}", Reason::ALL.map(Reason::name).join(", ")))
            })?;
            Action::Result { outcome, reason }
        }
        "seed" => Action::Seed { seed: args.value()? },
        "salt" => Action::Salt {
            salt: Box::new(args.value()?),
        },
        "buy" => {
            let t = args.take("an item: range, hp, drain or curse")?;
            let item = match t.text {
                "range" => Item::Range,
                "hp" => Item::Hp,
                "drain" => Item::Drain,
                "curse" => Item::Curse,
                _ => return Err(Fault::expected(&t, "an item: range, hp, drain or curse")),
            };
            let (mut square, mut hidden) = (None, false);
            if item.has_target() {
                let t = args.take("a target square (or `?` in a view)")?;
                if t.text == "?" {
                    hidden = true;
                } else {
                    square = Some(
                        t.text
                            .parse()
                            .map_err(|_| Fault::expected(&t, "a target square such as e2 (or `?` in a view)"))?,
                    );
                }
            }
            Action::Buy { item, square, hidden }
        }
        "spawn" => {
            let square = args.square()?;
            let t = args.take("an object kind")?;
            let object = read_object(&t)?;
            Action::Spawn { square, object }
        }
        "damage" => {
            let square = args.square()?;
            let t = args.take("a damage roll 1..5")?;
            let amount = small_number(t.text)
                .filter(|&a| a >= 1)
                .ok_or_else(|| Fault::expected(&t, "a damage roll such as 3"))?;
            Action::Damage { square, amount }
        }
        "clone" => Action::Clone { square: args.square()? },
        "reveal" => {
            let square = args.square()?;
            let t = args.take("a checker number 0..5")?;
            let number = small_number(t.text)
                .and_then(MagicNumber::new)
                .ok_or_else(|| Fault::expected(&t, "a checker number 0..5 (0 for plain)"))?;
            Action::Reveal { square, number }
        }
        "spell" => read_spell(&mut args)?,
        "?" => Action::Hidden,
        "see" => {
            let square = args.square()?;
            let (mut piece, mut object) = (None, None);
            let first = args.take("what is seen: empty, an object, a piece such as bN:5, or ? (out of sight)")?;
            let hidden = first.text == "?";
            if !hidden && first.text != "empty" {
                let mut pending = Some(first);
                if let Some(p) = pending.and_then(|t| read_seen_piece(t.text)) {
                    piece = Some(p);
                    pending = args.peek();
                    if pending.is_some() {
                        args.next += 1;
                    }
                }
                if let Some(t) = pending {
                    object = Some(read_object(&t).map_err(|_| {
                        Fault::expected(
                            &t,
                            "empty, an object kind (regen, hp, damage, kinghp, clone, coin), a piece such as bN:5 (an own piece with its maximum: wN:5/7), or ? (out of sight)",
                        )
                    })?);
                }
            }
            Action::See {
                square,
                piece,
                object,
                hidden,
            }
        }
        "coins" => {
            let t = args.take("a count of coins such as 7")?;
            let count = count_number(t.text).ok_or_else(|| Fault::expected(&t, "a count of coins such as 7"))?;
            Action::Coins { count }
        }
        "held" => Action::Held { square: args.square()? },
        "setup" => {
            let color = args.value()?;
            let list = args.rest();
            if list.is_empty() {
                return Err(Fault {
                    start: text.len(),
                    len: 0,
                    message: format!("expected {} after the colour", placement_words(game).1),
                });
            }
            Action::Setup {
                color,
                placements: read_placements(game, list)?,
            }
        }
        // A word without digits is no move: say so rather than pick apart its letters.
        word if !word.contains(|c: char| c.is_ascii_digit() || c == '?') => {
            return Err(Fault::expected(
                &head,
                &format!("an action of {game} ({})", keywords(game, actor)),
            ));
        }
        _ => read_move(game, &head)?,
    };
    args.done()?;
    Ok(action)
}

/// A move token of `game`.
fn read_move(game: GameKind, head: &Token<'_>) -> Result<Action, Fault> {
    Ok(match game {
        GameKind::SurvivalChess | GameKind::OpenWorldChess => Action::Move(token_grammar(
            head,
            chess_move,
            "a chess move such as e2-e4, Ng1xf3+ or e7-e8=Q, or an action keyword",
        )?),
        GameKind::GreatWarChess => token_grammar(
            head,
            unit_action,
            "a unit move such as ICb2-b7 or Ib2xb3, a shot such as Ad1*d6, or an action keyword",
        )?,
        GameKind::MagicDraughts => token_grammar(
            head,
            draughts_move,
            "a draughts move such as c3-d4 or a capture such as c3:e5:c7, or an action keyword",
        )?,
    })
}

/// The action keywords a game admits for an actor, for messages.
fn keywords(game: GameKind, actor: Actor) -> String {
    let mut words: Vec<&str> = Vec::new();
    if actor == Actor::World {
        words.extend(["timeout", "result"]);
        if game.has_seed() {
            words.push("seed");
        }
        words.extend(match game {
            GameKind::OpenWorldChess => &["spawn", "damage", "clone", "see", "coins", "held"][..],
            GameKind::MagicDraughts => &["reveal"][..],
            _ => &["setup"][..],
        });
    } else {
        if game.has_setup() {
            words.extend(["place", "remove", "ready"]);
        }
        if matches!(game, GameKind::OpenWorldChess | GameKind::GreatWarChess) {
            words.push("end");
        }
        words.extend(["resign", "chat", "extra"]);
        if game.has_seed() {
            words.push("salt");
        }
        words.push(match game {
            GameKind::OpenWorldChess => "buy, or a move such as e2-e4",
            GameKind::SurvivalChess => "or a move such as e2-e4",
            GameKind::GreatWarChess => "or a unit move such as ICb2-b7 or a shot such as Ad1*d6",
            GameKind::MagicDraughts => "spell, or a move such as c3-d4 or c3:e5:c7",
        });
    }
    words.join(", ")
}

fn small_number(s: &str) -> Option<u8> {
    if s.len() > 1 && s.starts_with('0') || s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A count 0..2^64-1 as canonical text writes it: digits without a
/// leading zero (but `0` itself).
fn count_number(s: &str) -> Option<u64> {
    if s.len() > 1 && s.starts_with('0') || s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn read_object(t: &Token<'_>) -> Result<ObjectKind, Fault> {
    ObjectKind::from_name(t.text)
        .ok_or_else(|| Fault::expected(t, "an object kind: regen, hp, damage, kinghp, clone or coin"))
}

/// `bN:5`: colour, piece letter, `:` and HP 1..65535.
fn read_seen_piece(s: &str) -> Option<SeenPiece> {
    let mut chars = s.chars();
    let color = match chars.next()? {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return None,
    };
    let piece = PieceKind::from_char(chars.next()?)?;
    let points = chars.as_str().strip_prefix(':')?;
    let (hp, max) = match points.split_once('/') {
        Some((hp, max)) => (hp, Some(max)),
        None => (points, None),
    };
    // HP is at least 1, and so is a maximum.
    let count = |s: &str| count_number(s).filter(|&n| n >= 1);
    Some(SeenPiece {
        color,
        piece,
        hp: count(hp)?,
        max: match max {
            Some(max) => Some(count(max)?),
            None => None,
        },
    })
}

fn read_spell(args: &mut Args<'_, '_>) -> Result<Action, Fault> {
    let t = args.take("a spell number 1..5")?;
    let number = small_number(t.text)
        .and_then(SpellNumber::new)
        .ok_or_else(|| Fault::expected(&t, "a spell number 1..5"))?;
    if args.peek().is_some_and(|t| t.text == "skip") {
        args.next += 1;
        return Ok(Action::Spell(Spell::Skip { number }));
    }
    let spell = match number.get() {
        1 => {
            let t = args.take("a file letter (or skip)")?;
            Spell::Fury {
                file: t
                    .text
                    .parse::<File>()
                    .map_err(|_| Fault::expected(&t, "a file letter such as c (or skip)"))?,
            }
        }
        2 => Spell::Potion {
            from: args.square()?,
            to: args.square()?,
        },
        3 => Spell::Charm {
            from: args.square()?,
            to: args.square()?,
        },
        4 => Spell::Firebird { square: args.square()? },
        _ => {
            let mut squares = Vec::new();
            while args.peek().is_some() {
                squares.push(args.square()?);
            }
            Spell::Revenge { squares }
        }
    };
    Ok(Action::Spell(spell))
}

/// The error of the token grammars: the innermost place that failed and the
/// innermost description of what was expected there.
#[derive(Debug)]
struct TokenError<'a> {
    at: &'a str,
    expected: Option<&'static str>,
}

impl<'a> ParseError<&'a str> for TokenError<'a> {
    fn from_error_kind(input: &'a str, _: ErrorKind) -> Self {
        TokenError {
            at: input,
            expected: None,
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        // Of two failed alternatives, the one that read further says more.
        if other.at.len() < self.at.len() {
            other
        } else {
            self
        }
    }
}

impl<'a> ContextError<&'a str> for TokenError<'a> {
    fn add_context(_: &'a str, ctx: &'static str, mut other: Self) -> Self {
        other.expected.get_or_insert(ctx);
        other
    }
}

type TResult<'a, T> = IResult<&'a str, T, TokenError<'a>>;

fn token_grammar<'a, T>(tok: &Token<'a>, grammar: fn(&'a str) -> TResult<'a, T>, what: &str) -> Result<T, Fault> {
    match all_consuming(grammar)(tok.text) {
        Ok((_, v)) => Ok(v),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let offset = tok.text.len() - e.at.len();
            let Some(expected) = e.expected else {
                return Err(Fault::expected(tok, what));
            };
            if offset == 0 {
                return Err(Fault::expected(tok, expected));
            }
            let found = if e.at.is_empty() {
                "the end of the move".to_string()
            } else {
                format!("`{}`", e.at)
            };
            Err(Fault {
                start: tok.start + offset,
                len: e.at.len(),
                message: format!("in `{}`: expected {}, found {found}", tok.text, expected),
            })
        }
        Err(nom::Err::Incomplete(_)) => Err(Fault::expected(tok, what)),
    }
}

fn fail<'a, T>(input: &'a str, expected: &'static str) -> TResult<'a, T> {
    Err(nom::Err::Error(TokenError {
        at: input,
        expected: Some(expected),
    }))
}

fn square(input: &str) -> TResult<'_, Square> {
    match Square::read_prefix(input) {
        Some((sq, len)) => Ok((&input[len..], sq)),
        None => fail(input, "a square (file a..z, rank 1..26)"),
    }
}

/// The letters before a square: `KE1` is K on e1, `ICA2` is I and C on a2
/// (the square's file is the last letter before the first digit).
fn letters_then_square(input: &str) -> TResult<'_, (&str, Square)> {
    let (rest, letters) = take_while1(|c: char| c.is_ascii_alphabetic())(input)?;
    let prefix = &letters[..letters.len() - 1];
    let (rest2, sq) = square(&input[prefix.len()..]).map_err(|_| {
        nom::Err::Error(TokenError {
            at: rest,
            expected: Some("a rank number 1..26"),
        })
    })?;
    Ok((rest2, (prefix, sq)))
}

fn chess_piece(input: &str) -> TResult<'_, PieceKind> {
    match input.chars().next().and_then(PieceKind::from_char) {
        Some(p) => Ok((&input[1..], p)),
        None => fail(input, "a piece letter K, Q, R, B, N or P"),
    }
}

fn chess_move(input: &str) -> TResult<'_, ChessMove> {
    if input.starts_with('?') {
        return fail(
            input,
            "the letter of the piece that was seen before `?`, as in `P?-e5` or `N?-e5`",
        );
    }
    // `N?`: a piece seen coming out of the fog.
    let hidden_from = map(nom::sequence::terminated(chess_piece, char('?')), |p| (p, None));
    let seen_from = |i| {
        let (rest, (prefix, sq)) = letters_then_square(i)?;
        let piece = match prefix {
            "" => PieceKind::Pawn,
            p => match p.chars().next().and_then(PieceKind::from_char) {
                Some(k) if p.len() == 1 => k,
                _ => return fail(i, "a piece letter K, Q, R, B, N (or none for a pawn) and a square"),
            },
        };
        Ok((rest, (piece, Some(sq))))
    };
    let (input, (piece, from)) = alt((hidden_from, seen_from))(input)?;
    let (input, sep) = nom::error::context("`-` (a move) or `x` (a capture)", one_of("-x"))(input)?;
    let (input, to) = nom::error::context(
        "a target square or `?`",
        alt((map(char('?'), |_| None), map(square, Some))),
    )(input)?;
    let (input, promotion) = opt(preceded(
        char('='),
        cut(nom::error::context("a promotion piece Q, R, B or N", promotion_piece)),
    ))(input)?;
    let (input, check) = opt(map(one_of("+#"), |c| if c == '+' { Check::Check } else { Check::Mate }))(input)?;
    if !input.is_empty() {
        return fail(input, "the end of the move (after an optional =Q and + or #)");
    }
    Ok((
        input,
        ChessMove {
            piece,
            from,
            to,
            capture: sep == 'x',
            promotion,
            check,
        },
    ))
}

fn promotion_piece(input: &str) -> TResult<'_, PieceKind> {
    match input.chars().next().and_then(PieceKind::from_char) {
        Some(p) if p.is_promotion_target() => Ok((&input[1..], p)),
        _ => fail(input, "a promotion piece Q, R, B or N"),
    }
}

fn unit_action(input: &str) -> TResult<'_, Action> {
    let (rest, (prefix, from)) = letters_then_square(input)?;
    let Ok(units) = prefix.parse::<UnitSet>() else {
        return fail(
            input,
            "the moving units (distinct letters of I, C, A) and a square, such as ICb2",
        );
    };
    let (rest, sep) = nom::error::context("`-` (a move), `x` (an attack) or `*` (a shot)", one_of("-x*"))(rest)?;
    let (rest, to) = nom::error::context("a target square", square)(rest)?;
    if !rest.is_empty() {
        return fail(rest, "the end of the move");
    }
    if sep == '*' {
        if units.to_string() != "A" {
            return fail(input, "the artillery alone before a shot, as in `Ad1*d6`");
        }
        return Ok((rest, Action::Shot { from, to }));
    }
    Ok((
        rest,
        Action::March(UnitMove {
            units,
            from,
            to,
            capture: sep == 'x',
        }),
    ))
}

fn draughts_move(input: &str) -> TResult<'_, Action> {
    let (mut rest, first) = square(input)?;
    let (after, sep) = nom::error::context("`-` (a move) or `:` (a capture)", one_of("-:"))(rest)?;
    rest = after;
    let mut squares = vec![first];
    loop {
        let (after, sq) = nom::error::context("a landing square", square)(rest)?;
        squares.push(sq);
        rest = after;
        if squares.len() > MAX_PATH {
            return fail(input, "at most 16 squares in one draughts move");
        }
        match rest.chars().next() {
            Some(c) if c == sep => rest = &rest[1..],
            None => break,
            Some(_) => {
                return fail(
                    rest,
                    if sep == ':' {
                        "`:` and a landing square, or the end of the capture"
                    } else {
                        "the end of the move (a capture uses `:`)"
                    },
                )
            }
        }
    }
    let path = Path::new(&squares).expect("2..=MAX_PATH squares");
    Ok((
        rest,
        Action::Draughts {
            path,
            capture: sep == ':',
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The views a log can be written from: the full log and one player's.
    const VIEWS: [Option<Color>; 2] = [None, Some(Color::White)];

    /// The general reader's event for a line of `game` in `view`, and its
    /// action's offset.
    fn general(game: GameKind, view: Option<Color>, text: &str) -> Option<(Event, usize)> {
        let mut tokens = Tokens::new();
        let comment = tokenize(text, &mut tokens).ok()?;
        let event = read_event(game, text, &tokens).ok()?;
        (comment.is_none() && check_form(game, view, &event).is_ok()).then(|| (event, tokens[2].start))
    }

    /// The one-pass reader's event of one line (without its line end) and
    /// its action's offset; it must end at the line end.
    fn quick_line(text: &[u8], game: GameKind, view: Option<Color>) -> Option<(Event, usize)> {
        let mut line = text.to_vec();
        line.push(b'\n');
        // What follows the line feed is the next line's, never read.
        line.extend_from_slice(b"1 w e2-e4\n");
        let mut events = Vec::new();
        let (action_start, end) = quick_event(&line, game, view, &mut events)?;
        assert_eq!(end, text.len(), "{:?}", String::from_utf8_lossy(text));
        assert_eq!(events.len(), 1);
        Some((events.remove(0), action_start))
    }

    /// Whether the one-pass reader takes `text` in some game and view.
    fn quick_somewhere(text: &[u8]) -> bool {
        GameKind::ALL
            .into_iter()
            .any(|game| VIEWS.into_iter().any(|view| quick_line(text, game, view).is_some()))
    }

    /// Every line the one-pass reader takes, in every game and view, is one
    /// the general reader reads to the same event at the same offset and the
    /// form check admits.
    fn agree(text: &str) {
        for game in GameKind::ALL {
            for view in VIEWS {
                if let Some(quick) = quick_line(text.as_bytes(), game, view) {
                    assert!(check_form(game, view, &quick.0).is_ok(), "{text:?} in {game}");
                    assert_eq!(Some(quick), general(game, view, text), "{text:?} in {game}");
                }
            }
        }
    }

    #[test]
    fn syntax_messages_speak_the_logs_own_game() {
        use GameKind::*;
        // (game, a malformed line, what the message suggests, what belongs
        // to another game and must not be suggested).
        let cases: &[(GameKind, &str, &str, &[&str])] = &[
            (SurvivalChess, "0 w place K1e", "such as Ke1", &["Ib2", "unit"]),
            (
                SurvivalChess,
                "0 w place",
                "pieces and squares, such as Ke1 Qd1",
                &["Ib2", "unit"],
            ),
            (SurvivalChess, "0 w remove 2e", "a square such as e2", &["Cb2", "unit"]),
            (SurvivalChess, "0 @ setup w", "pieces and squares", &["unit"]),
            (SurvivalChess, "0 @ setup w K1e", "such as Ke1", &["Ib2", "unit"]),
            (GreatWarChess, "0 w place I2b", "such as Ib2", &["Ke1", "piece"]),
            (
                GreatWarChess,
                "0 w place",
                "units and squares, such as Ib2 Cb1",
                &["Ke1", "piece"],
            ),
            (
                GreatWarChess,
                "0 w remove 2b",
                "a unit and square such as Cb2",
                &["piece"],
            ),
            (GreatWarChess, "0 @ setup w", "units and squares", &["piece"]),
        ];
        for &(game, line, says, foreign) in cases {
            let text = format!("[Game \"{game}\"]\n[Rules \"1.0\"]\n\n{line}\n");
            let parsed = parse(text.as_bytes());
            let message = &parsed
                .diagnostics
                .first()
                .unwrap_or_else(|| panic!("{line:?} in {game} reads"))
                .message;
            assert!(message.contains(says), "{line:?} in {game}: {message}");
            for word in foreign {
                assert!(
                    !message.contains(word),
                    "{line:?} in {game} speaks of {word:?}: {message}"
                );
            }
        }
    }

    #[test]
    fn the_quick_move_number_is_the_move_number() {
        for number in [
            "0",
            "1",
            "7",
            "10",
            "01",
            "00",
            "",
            "123456789",
            "999999999",
            "4294967295",
            "4294967296",
            "1a",
            "-1",
            "+1",
        ] {
            let line = format!("{number} w e2-e4");
            let quick = quick_line(line.as_bytes(), GameKind::SurvivalChess, None).map(|(e, _)| e.n);
            // Numbers of ten digits and more are left to the general reader.
            let expected = number.parse::<MoveNumber>().ok().filter(|_| number.len() < 10);
            assert_eq!(quick, expected, "{number:?}");
        }
    }

    #[test]
    fn the_quick_reader_reads_what_the_general_reader_reads() {
        use GameKind::*;
        let plain: &[(GameKind, &str)] = &[
            (SurvivalChess, "1 w e2-e4"),
            (SurvivalChess, "12 b Ng8xf6+"),
            (SurvivalChess, "40 w e7-e8=Q#"),
            (SurvivalChess, "10 w Ka1-b2 {t=0}"),
            // The longest clock FGN reads.
            (SurvivalChess, "3 b e7-e5 {t=999999999999.999}"),
            (SurvivalChess, "9 b l12-l10"),
            (SurvivalChess, "0 w place Ke1"),
            (SurvivalChess, "0 b place Ke8 Qd8 Pa7 {t=3}"),
            (SurvivalChess, "0 w remove e2"),
            (SurvivalChess, "0 w ready"),
            (SurvivalChess, "5 b resign {t=1.25}"),
            (SurvivalChess, "5 @ result 1-0 resign"),
            (SurvivalChess, "5 @ result 1/2-1/2 stalemate"),
            (SurvivalChess, "5 @ timeout b"),
            (OpenWorldChess, "1 w e2-e4"),
            (OpenWorldChess, "2 b Kd8xd7"),
            (OpenWorldChess, "2 w end"),
            (OpenWorldChess, "2 w buy range e2"),
            (OpenWorldChess, "2 b buy curse"),
            (OpenWorldChess, "3 @ spawn e5 regen"),
            (OpenWorldChess, "3 @ damage d4 3"),
            (OpenWorldChess, "3 @ damage d4 255"),
            (OpenWorldChess, "3 @ clone f5"),
            (OpenWorldChess, "9 @ result 0-1 king-killed"),
            (
                OpenWorldChess,
                "9 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            ),
            (GreatWarChess, "1 w If2-e2"),
            (GreatWarChess, "1 b ICb7-b5 {t=4}"),
            (GreatWarChess, "1 w ICAd2xd3"),
            (GreatWarChess, "2 w Ad1*d6"),
            (GreatWarChess, "2 w end"),
            (GreatWarChess, "0 w place Ia2 Cb1 Ac1 Fd1"),
            (GreatWarChess, "0 b remove Cb2"),
            (GreatWarChess, "0 b remove Fh8"),
            (GreatWarChess, "0 b ready"),
            (MagicDraughts, "1 w e3-f4"),
            (MagicDraughts, "4 w b4:d6:f4"),
            (MagicDraughts, "2 @ reveal g5 5"),
            (MagicDraughts, "2 @ reveal g5 0"),
            (MagicDraughts, "2 b spell 5 skip"),
            (MagicDraughts, "2 b spell 1 skip {t=2}"),
            (MagicDraughts, "8 b spell 1 g"),
            (MagicDraughts, "4 b spell 2 c7 e3"),
            (MagicDraughts, "5 b spell 3 h2 a3"),
            (MagicDraughts, "4 b spell 4 a7"),
            (MagicDraughts, "14 w spell 5 c1 c3"),
            (MagicDraughts, "14 w spell 5"),
            (MagicDraughts, "14 w spell 5 {t=1}"),
            (
                MagicDraughts,
                "9 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            ),
        ];
        for &(game, text) in plain {
            assert!(
                quick_line(text.as_bytes(), game, None).is_some(),
                "{text:?} is read in one pass in {game}"
            );
            agree(text);
        }
        // Lines the one-pass reader leaves to the general one, whatever they are.
        let other: &[(GameKind, &str)] = &[
            (SurvivalChess, "01 w e2-e4"),
            (SurvivalChess, " 1 w e2-e4"),
            (SurvivalChess, "1  w e2-e4"),
            (SurvivalChess, "1 w e2-e4 "),
            (SurvivalChess, "1 w e2-e4 ; a comment"),
            (SurvivalChess, "1 w e2-e4;"),
            // Readable, but not canonical: the general reader's, so that
            // every line the one-pass reader takes is canonical.
            (SurvivalChess, "3 b Pe7-e5 {t=12.5}"),
            (SurvivalChess, "3 b e7-e5 {t=12.50}"),
            (SurvivalChess, "3 b e7-e5 {t=3.0}"),
            (SurvivalChess, "3 b e7-e5 {t=0.000}"),
            (SurvivalChess, "0 w remove E2"),
            (SurvivalChess, "1 w e2-E4"),
            (GreatWarChess, "1 b CIb7-b5"),
            (GreatWarChess, "1 w IB2-b3"),
            (GreatWarChess, "1 w AId2-d3"),
            (MagicDraughts, "4 w C3-D4"),
            (MagicDraughts, "4 w c3:E5"),
            (MagicDraughts, "8 b spell 1 G"),
            (SurvivalChess, "1 w B2-b4"),
            (SurvivalChess, "1 w E2-e4"),
            (SurvivalChess, "1 w Nbe2-e4"),
            (SurvivalChess, "1 w N?-e5"),
            (SurvivalChess, "1 w e2-?"),
            (SurvivalChess, "1 w e7-e8=K"),
            (SurvivalChess, "1 w e2-e4++"),
            (SurvivalChess, "1 w e2-e4 {t=1.2345}"),
            (SurvivalChess, "1 w e2-e4 {t=1} {t=2}"),
            // Longer than any clock: the one-pass reader stops looking.
            (SurvivalChess, "3 b e7-e5 {t=0000000000000000000000000012.5}"),
            (SurvivalChess, "1 @ e2-e4"),
            (SurvivalChess, "1 w Ne7-e8=Q"),
            (SurvivalChess, "1 w e2-e40"),
            (SurvivalChess, "1 w e2-e27"),
            (SurvivalChess, "1 w e2-e0"),
            (SurvivalChess, "1234567890 w e2-e4"),
            (SurvivalChess, "0 w place"),
            (SurvivalChess, "0 w place Ke1  Qd1"),
            (SurvivalChess, "0 w place Ke1 "),
            (SurvivalChess, "0 w place Ie1"),
            (SurvivalChess, "0 w remove Ke1"),
            (SurvivalChess, "0 w ready now"),
            (SurvivalChess, "0 w end"),
            (SurvivalChess, "0 @ ready"),
            (SurvivalChess, "0 w resign {t=}"),
            (SurvivalChess, "5 @ result 1-0 checkmate"),
            (SurvivalChess, "5 @ result 2-0 mate"),
            (SurvivalChess, "5 @ result 1-0"),
            (SurvivalChess, "5 w result 1-0 mate"),
            (SurvivalChess, "5 @ timeout x"),
            (
                SurvivalChess,
                "5 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            ),
            (SurvivalChess, "1 w chat \"hi\""),
            (OpenWorldChess, "1 w e2-e4+"),
            (OpenWorldChess, "1 w buy range ?"),
            (OpenWorldChess, "1 w buy curse e2"),
            (OpenWorldChess, "1 w buy range"),
            (OpenWorldChess, "3 @ spawn e5 gold"),
            (OpenWorldChess, "3 @ damage d4 0"),
            (OpenWorldChess, "3 @ damage d4 03"),
            (OpenWorldChess, "3 @ damage d4 256"),
            (OpenWorldChess, "3 w clone f5"),
            (OpenWorldChess, "3 @ see e5 empty"),
            (OpenWorldChess, "0 w place Ke1"),
            (
                OpenWorldChess,
                "9 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeF",
            ),
            (GreatWarChess, "1 w b2-b3"),
            (GreatWarChess, "1 w IIb2-b3"),
            (GreatWarChess, "1 w FIb2-b3"),
            (GreatWarChess, "1 w Ib2*b3"),
            (GreatWarChess, "1 w AIb2*b3"),
            (GreatWarChess, "1 w Ib2-b3x"),
            (GreatWarChess, "1 w I2-b3"),
            (GreatWarChess, "0 w remove e2"),
            (GreatWarChess, "0 w remove A2"),
            (GreatWarChess, "0 w place Ke1"),
            (MagicDraughts, "1 w c3-d4-e5"),
            (MagicDraughts, "1 w c3:d4-e5"),
            (MagicDraughts, "1 w c3"),
            (MagicDraughts, "1 w a1:b2:c3:d4:e5:f6:g7:h8:a1:b2:c3:d4:e5:f6:g7:h8:a1"),
            (MagicDraughts, "2 @ reveal g5 6"),
            (MagicDraughts, "2 @ reveal g5 00"),
            (MagicDraughts, "2 b spell 6 skip"),
            (MagicDraughts, "2 b spell 05 skip"),
            (MagicDraughts, "2 b spell 1 gh"),
            (MagicDraughts, "2 b spell 2 c7"),
            (MagicDraughts, "2 b spell 4 a7 b8"),
            (MagicDraughts, "2 b spell 1 skip x"),
        ];
        for &(game, text) in other {
            assert!(
                quick_line(text.as_bytes(), game, None).is_none(),
                "{text:?} is left to the general reader in {game}"
            );
            agree(text);
        }
        // The seed is the full log's: in a view the general reader reports it.
        let seed = b"9 @ seed 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        assert!(quick_line(seed, MagicDraughts, Some(Color::Black)).is_none());
        // A sixteen-square capture is the longest path.
        let longest = b"1 w a1:b2:c3:d4:e5:f6:g7:h8:a1:b2:c3:d4:e5:f6:g7:h8";
        assert!(quick_line(longest, MagicDraughts, None).is_some());
        // A line longer than FGN reads is the general reader's to report.
        let mut long = b"0 w place Ke1".to_vec();
        while long.len() <= MAX_LINE_BYTES {
            long.extend_from_slice(b" Qd1");
        }
        assert!(quick_line(&long, SurvivalChess, None).is_none());
        assert!(quick_line(&long[..MAX_LINE_BYTES - 3], SurvivalChess, None).is_some());
    }

    /// Every log of the corpus (valid, invalid, views, syntax errors) of
    /// the given directories, as bytes.
    fn corpus_logs() -> Vec<Vec<u8>> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let mut out = Vec::new();
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("the corpus is readable") {
                let path = entry.expect("a corpus entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "fgn") {
                    out.push(std::fs::read(&path).expect("a corpus log"));
                }
            }
        }
        out.sort();
        out
    }

    /// A log read by [`parse_in_runs_of`] put back together: the runs'
    /// events, lines and columns appended to the document, each run checked
    /// to be non-empty, to follow the one before and to see the final header.
    fn reassembled(src: &[u8], run_bytes: usize) -> (Document, Vec<Diagnostic>) {
        let mut runs = Vec::new();
        let streamed = parse_in_runs_of(src, run_bytes, 0, |run| {
            assert!(!run.events.is_empty(), "an empty run");
            assert_eq!(run.events.len(), run.lines.len());
            assert_eq!(run.events.len(), run.columns.len());
            runs.push((
                run.header.clone(),
                run.first,
                run.events.to_vec(),
                run.lines.to_vec(),
                run.columns.to_vec(),
            ));
        });
        let mut doc = streamed.document;
        assert!(doc.game.events.is_empty() && doc.event_lines.is_empty() && doc.event_columns.is_empty());
        for (header, first, events, lines, columns) in runs {
            assert_eq!(header, doc.game.header, "a run sees the whole header");
            assert_eq!(first, doc.game.events.len(), "runs follow each other");
            doc.game.events.extend(events);
            doc.event_lines.extend(lines);
            doc.event_columns.extend(columns);
        }
        assert_eq!(streamed.events, doc.game.events.len());
        (doc, streamed.diagnostics)
    }

    /// `parse_in_runs` hands on exactly the events `parse` keeps, with their
    /// lines and columns, and reads everything else alike (header, comments
    /// anchored at the same events, every diagnostic), however the text is
    /// cut into runs: a line at a time, a few lines, or the default's tens
    /// of kilobytes. Over every corpus log, and logs with what a cut could
    /// get wrong: a torn last line, a byte order mark, comments between
    /// events, syntax errors past the first run, and the cap on diagnostics.
    #[test]
    fn a_parse_in_runs_reads_what_parse_reads() {
        let mut logs = corpus_logs();
        let head = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n".to_vec();
        let mut long = head.clone();
        for i in 0..3_000u32 {
            long.extend_from_slice(format!("; before {i}\n0 w place Ke1 ; on {i}\n").as_bytes());
            if i % 700 == 0 {
                long.extend_from_slice(b"0 w place Kz99\n");
            }
        }
        logs.push(long.clone());
        long.extend_from_slice(b"0 w place Ke1");
        logs.push(long);
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(&head);
        bom.extend_from_slice(b"0 w place Ke1\n");
        logs.push(bom);
        let mut capped = head.clone();
        for _ in 0..(MAX_DIAGNOSTICS + 20) {
            capped.extend_from_slice(b"0 w place Kz99\n0 w place Ke1\n");
        }
        logs.push(capped);
        let mut cut_often = 0;
        for log in &logs {
            let whole = parse(log);
            for run_bytes in [0, 1, 37, 1_000, RUN_BYTES] {
                let (doc, diagnostics) = reassembled(log, run_bytes);
                assert_eq!(doc, whole.document, "runs of {run_bytes} bytes");
                assert_eq!(diagnostics, whole.diagnostics, "runs of {run_bytes} bytes");
            }
            cut_often += usize::from(log.len() > 2 * RUN_BYTES);
        }
        assert!(cut_often >= 2, "{cut_often} logs span more than two default runs");
    }

    /// Regression guard for the one-pass reader: on every corpus log, and on
    /// every log made from the start of one (its header and first event
    /// lines) by changing one byte of an event line to another byte that
    /// matters to the grammar of some game, the whole parse (document, line
    /// and column records, comments, every diagnostic) is the same as with
    /// the general reader alone. Every game's logs are mutated, and each of
    /// them at the first event line and the first few of every kind of line
    /// the one-pass reader takes (moves, setup, world events, spells).
    #[test]
    fn the_one_pass_reader_changes_no_parse_of_mutated_corpus_logs() {
        const BYTES: &[u8] = b" 09bx-=+:*;{IQ@\xff";
        /// How many event lines of each game and kind (by the action's first
        /// token's shape) are changed, over the whole corpus.
        const PER_KIND: usize = 2;
        let logs = corpus_logs();
        assert!(logs.len() > 50, "the corpus is found");
        let (mut compared, mut quick_lines) = (0usize, 0usize);
        let mut games_mutated = std::collections::BTreeSet::new();
        // How many lines of each game and kind were mutated so far: each kind
        // a few times over the whole corpus keeps the test short.
        let mut kinds: std::collections::HashMap<(GameKind, Vec<u8>), usize> = std::collections::HashMap::new();
        let mut canonical_logs = 0;
        for log in &logs {
            let (quick, general) = (parse(log), parse_general(log));
            assert_eq!(quick.document, general.document);
            assert_eq!(quick.diagnostics, general.diagnostics);
            // Skipping the lines the one-pass reader took changes no answer.
            let formatted = quick.document.is_formatted(log);
            assert_eq!(quick.is_formatted(log), formatted);
            assert_eq!(general.is_formatted(log), formatted);
            canonical_logs += usize::from(formatted);
            let Some(game) = general.document.game.kind() else {
                continue;
            };
            // The log up to its first event line, and the first lines of
            // each kind that the one-pass reader takes: each is mutated after
            // that start, on the line after the first event (syntax does not
            // depend on the events between), so that every parse is short.
            let mut lines = log.split_inclusive(|&b| b == b'\n');
            let (mut start, mut first_at) = (Vec::new(), None);
            for line in lines.by_ref() {
                let at = start.len();
                start.extend_from_slice(line);
                if !matches!(line[0], b'[' | b';' | b'\n' | b'\r') {
                    first_at = Some(at);
                    break;
                }
            }
            let Some(first_at) = first_at else {
                continue;
            };
            let mut bases = Vec::new();
            let first = kinds.entry((game, b"first".to_vec())).or_default();
            if *first < PER_KIND {
                *first += 1;
                bases.push((start.clone(), first_at));
            }
            for line in lines {
                let text = line.strip_suffix(b"\n").unwrap_or(line);
                if text.is_empty() || matches!(text[0], b'[' | b';') || !quick_somewhere(text) {
                    continue;
                }
                let count = kinds.entry((game, line_kind(text))).or_default();
                if *count < PER_KIND {
                    *count += 1;
                    let mut base = start.clone();
                    base.extend_from_slice(line);
                    bases.push((base, start.len()));
                }
            }
            if bases.iter().any(|(_, at)| *at == start.len()) {
                games_mutated.insert(game);
            }
            for (base, line_at) in &bases {
                let len = base[*line_at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(base.len() - line_at);
                for pos in *line_at..line_at + len {
                    for &byte in BYTES.iter().filter(|&&b| b != base[pos]) {
                        let mut mutated = base.clone();
                        mutated[pos] = byte;
                        let (quick, general) = (parse(&mutated), parse_general(&mutated));
                        let line = String::from_utf8_lossy(&mutated[*line_at..line_at + len]).into_owned();
                        assert_eq!(quick.document, general.document, "{line:?}");
                        assert_eq!(quick.diagnostics, general.diagnostics, "{line:?}");
                        assert_eq!(
                            quick.is_formatted(&mutated),
                            quick.document.is_formatted(&mutated),
                            "{line:?}"
                        );
                        compared += 1;
                        if quick_line(&mutated[*line_at..line_at + len], game, None).is_some() {
                            quick_lines += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(games_mutated.len(), GameKind::ALL.len(), "{games_mutated:?}");
        assert!(canonical_logs > 50, "{canonical_logs} corpus logs are canonical");
        eprintln!("{compared} mutated logs compared, {quick_lines} lines read in one pass");
        assert!(compared > 20_000, "{compared} mutated logs compared");
        // Many of the mutated lines are still plain lines (a changed digit,
        // square or marker), so the one-pass reader is compared where it
        // acts, too.
        assert!(quick_lines > 2_000, "{quick_lines} mutated lines read in one pass");
    }

    /// Regression guard for the one-pass tag reader (`plain_tag`): on the
    /// header of every corpus log, and on every header made from one by
    /// changing one byte of a tag line to a byte that matters to a tag's
    /// grammar, the parse is the same as with the general reader alone.
    #[test]
    fn the_one_pass_tag_reader_changes_no_parse_of_mutated_headers() {
        const BYTES: &[u8] = b" \"\\[]_;aZ09\t\x7f\xff";
        let (mut compared, mut plain_lines) = (0usize, 0usize);
        // Headers with the same tags in the same order are mutated once.
        let mut shapes = std::collections::HashSet::new();
        for log in corpus_logs() {
            // The header and the first event line after it.
            let lines: Vec<&[u8]> = log.split_inclusive(|&b| b == b'\n').collect();
            let Some(first_event) = lines.iter().position(|l| l.first().is_some_and(u8::is_ascii_digit)) else {
                continue;
            };
            let base: Vec<u8> = lines[..=first_event].concat();
            let (quick, general) = (parse(&base), parse_general(&base));
            assert_eq!(quick.document, general.document);
            assert_eq!(quick.diagnostics, general.diagnostics);
            let names: Vec<String> = general
                .document
                .game
                .header
                .tags
                .iter()
                .map(|t| t.name.clone())
                .collect();
            if !shapes.insert(names) {
                continue;
            }
            let mut at = 0;
            for line in &lines[..first_event] {
                if line.first() == Some(&b'[') {
                    // The name, the quotes and the value's first and last
                    // bytes: the middle of a long value (a seed commitment)
                    // holds nothing else.
                    let len = line.len() - 1;
                    let positions = (0..len).filter(|&p| p < 16 || p + 4 > len);
                    for pos in positions.map(|p| at + p) {
                        for &byte in BYTES.iter().filter(|&&b| b != base[pos]) {
                            let mut mutated = base.clone();
                            mutated[pos] = byte;
                            let (quick, general) = (parse(&mutated), parse_general(&mutated));
                            let shown = String::from_utf8_lossy(&mutated[at..at + line.len()]).into_owned();
                            assert_eq!(quick.document, general.document, "{shown:?}");
                            assert_eq!(quick.diagnostics, general.diagnostics, "{shown:?}");
                            compared += 1;
                            let text = &mutated[at..at + line.len() - 1];
                            plain_lines += usize::from(plain_tag(text.strip_suffix(b"\r").unwrap_or(text)).is_some());
                        }
                    }
                }
                at += line.len();
            }
        }
        assert!(compared > 10_000, "{compared} mutated headers compared");
        // Many mutated lines are still plain tags (a changed letter or digit
        // of a value), so the one-pass reader is compared where it acts.
        assert!(plain_lines > 2_000, "{plain_lines} mutated tag lines read in one pass");
    }

    /// The shape of an event line's action for choosing lines to mutate: its
    /// actor and its first token with the letters of a move and every digit
    /// folded to one byte, so `e2-e4` and `g1-f3` are one kind and `place`
    /// another; after a keyword its next token, a number of one digit kept,
    /// so each spell number is a kind of its own.
    fn line_kind(text: &[u8]) -> Vec<u8> {
        let mut tokens = text.split(|&b| b == b' ').skip(1);
        let actor = tokens.next().unwrap_or_default();
        let head = tokens.next().unwrap_or_default();
        let is_move = head.iter().any(u8::is_ascii_digit);
        let mut kind = actor.to_vec();
        kind.extend(head.iter().map(|&b| match b {
            b'a'..=b'z' if is_move => b'a',
            b'0'..=b'9' => b'0',
            b => b,
        }));
        if !is_move {
            kind.push(b' ');
            let next = tokens.next().unwrap_or_default();
            kind.extend(next.iter().map(|&b| match b {
                b'a'..=b'z' => b'a',
                b'0'..=b'9' if next.len() > 1 => b'0',
                b => b,
            }));
        }
        kind.dedup();
        kind
    }

    /// The forms an open-world-chess view gained with issue 37: a square
    /// out of sight (`@ see e5 ?`), an own piece's maximum (`wN:5/7`), the
    /// viewer's coins and the outcome its own move waits for; each read
    /// back as written, each refused where it does not belong.
    #[test]
    fn a_view_reads_sight_maxima_coins_and_held_moves() {
        let view = |line: &str| {
            let text = format!("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[Perspective \"white\"]\n\n{line}\n");
            crate::parse(text.as_bytes())
        };
        for line in [
            "3 @ see e5 ?",
            "3 @ see e5 wN:5/7",
            "3 @ see e5 wN:5/7 regen",
            "3 @ coins 0",
            "3 @ coins 12",
            "3 @ held d4",
        ] {
            let parsed = view(line);
            assert!(parsed.is_ok(), "{line}: {:?}", parsed.diagnostics);
            assert_eq!(parsed.document.game.events[0].to_string(), line);
        }
        for (line, expected) in [
            ("3 @ see e5 ? regen", "expected the end of the event"),
            ("3 @ see e5 wN:5/0", "a piece such as bN:5"),
            ("3 @ see e5 wN:5/07", "a piece such as bN:5"),
            ("3 @ see e5 wN:5/", "a piece such as bN:5"),
            ("3 @ coins 07", "a count of coins"),
            ("3 @ coins -1", "a count of coins"),
            ("3 @ coins", "a count of coins"),
            ("3 @ held", "square"),
            ("3 w held d4", "world's action"),
            ("3 w coins 2", "world's action"),
        ] {
            let parsed = view(line);
            let messages: Vec<&str> = parsed.diagnostics.iter().map(|d| d.message.as_str()).collect();
            assert!(
                messages.iter().any(|m| m.contains(expected)),
                "{line}: expected an error saying {expected:?}, got {messages:?}"
            );
        }
        // In a full log, and in another game's view, they are refused.
        let full =
            crate::parse(b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n3 @ coins 2\n3 @ held d4\n3 @ see e5 ?\n");
        assert_eq!(full.diagnostics.len(), 3, "{:?}", full.diagnostics);
        let survival = crate::parse(
            b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Perspective \"white\"]\n\n3 @ coins 2\n3 @ held d4\n",
        );
        assert_eq!(survival.diagnostics.len(), 2, "{:?}", survival.diagnostics);
    }

    proptest! {
        #[test]
        fn quick_and_general_readers_agree_on_any_line(text in "[0-9]{0,3}[ ]{0,2}[wb@ ]{0,2}[ ]{0,2}[KQRBNPEXa-ex?]{0,2}[0-9]{0,3}[-x:*?]{0,2}[a-eE?]{0,1}[0-9]{0,3}[=QKNX]{0,2}[+#]{0,2}[ ;\"]{0,2}(\\{t=[0-9.]{0,5}\\})?[ ]{0,1}") {
            agree(&text);
        }

        #[test]
        fn quick_and_general_readers_agree_on_move_lines(text in "[1-9][0-9]{0,2} [wb] [KQRBNPe]?[a-hB][1-9][0-9]?[-x][a-hE][1-9][0-9]?(=[QRBNKP])?[+#]?( \\{t=[0-9]{1,3}(\\.[0-9]{1,4})?\\})?") {
            prop_assert!(text.len() > 8);
            agree(&text);
        }

        #[test]
        fn quick_and_general_readers_agree_on_unit_and_draughts_lines(text in "[0-9]{1,2} [wb@] [ICAFBia-c]{0,4}[0-9]{1,2}([-x*:][a-cB][0-9]{1,2}){0,3}( \\{t=[0-9.]{1,4}\\})?") {
            agree(&text);
        }

        #[test]
        fn quick_and_general_readers_agree_on_keyword_lines(text in "[0-9]{1,2} [wb@] (place|remove|ready|end|resign|buy|spell|reveal|spawn|damage|clone|result|timeout)( (skip|curse|range|hp|drain|regen|coin|1-0|0-1|mate|[KQPICAFea-c?]?[a-c]?[0-9]{0,3}|[0-9]{1,3})){0,4}( \\{t=[0-9]{1,2}\\})?[ ;]{0,1}") {
            agree(&text);
        }
    }
}
