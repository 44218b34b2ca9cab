//! Several games in one file (docs/notation.md §2.8): where each game's
//! text begins, found from the lines alone, without reading a game.
//!
//! A game's header is a run of tag lines (with blank and comment lines
//! among them) that holds its `[Game …]` tag line; the blank and comment
//! lines just before it are the game's too, as a comment line belongs to
//! the tag or event after it (§9.3). A new game begins at
//! the first tag line of such a run when the run follows an event line of
//! the game before it, or at a `Game` tag line when the game before has
//! its own `Game` tag and no event yet (a game that has not begun). A run
//! of tag lines after events that holds no `Game` tag is the game's own
//! (its tags after the first event are errors of that game, as in a file
//! of one game). A `[Game` inside a comment or a quoted string is never a
//! tag line, since a line is classified by its first character that is not
//! a space (§2.2).
//!
//! A file that holds fewer than two games is one log, read exactly as
//! before multi-game files existed: splitting never changes what a file of
//! one game means.
//!
//! ```
//! use fgn_notation::split::split;
//!
//! let file = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n\n; the second game\n[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n";
//! let games: Vec<_> = split(file).map(Result::unwrap).collect();
//! assert_eq!(games.len(), 2);
//! // The blank and comment lines before a header go with its game.
//! assert_eq!((games[1].ordinal, games[1].first_line), (Some(2), 5));
//! assert!(games[1].text.starts_with(b"\n; the second game\n[Game"));
//! // A game's diagnostics and lines are the file's.
//! let parsed = games[1].parse();
//! assert_eq!(parsed.document.event_lines, [10]);
//! ```

use std::io::{self, BufRead};

use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::lines::{memchr_newline, MAX_LINE_BYTES};
use crate::parse::{parse_after, parse_in_runs_after, Parsed, Run, Streamed, MAX_FILE_BYTES};

/// The UTF-8 encoding of U+FEFF, the byte order mark, which the first line
/// of a file may start with (an error of that game, §2.1, but not one that
/// moves where the game begins).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How much of a line decides its kind: a line longer than FGN reads is an
/// error whatever it holds, so only its head is looked at, by the reader of
/// a text and the reader of a stream alike.
const HEAD_BYTES: usize = MAX_LINE_BYTES + 2;

/// The most bytes of one game a stream reader keeps: one more than FGN
/// reads, so that the parser says the game is too large.
const KEPT_BYTES: usize = MAX_FILE_BYTES + 1;

/// What stands between a file's name and a game's ordinal in the name of
/// a game of a file of several (`month.fgn#12`, and `month.fgn#12:4031:5`
/// in a diagnostic, the line being the file's).
pub const GAME_SEPARATOR: char = '#';

/// The name in messages of the game `ordinal` of the file `file`: the
/// file's name alone for a file of one log (`None`).
///
/// ```
/// use fgn_notation::split::game_name;
/// assert_eq!(game_name("month.fgn", Some(12)), "month.fgn#12");
/// assert_eq!(game_name("game.fgn", None), "game.fgn");
/// ```
pub fn game_name(file: &str, ordinal: Option<usize>) -> String {
    match ordinal {
        Some(n) => format!("{file}{GAME_SEPARATOR}{n}"),
        None => file.to_string(),
    }
}

/// One game of a file, as [`split`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameText<'a> {
    /// Its text: from its header's first line to the line before the next
    /// game's header (blank and comment lines after its last event are its
    /// own), or the whole file when the file is one log.
    pub text: &'a [u8],
    /// The file's line (1-based) that the text starts at.
    pub first_line: u32,
    /// Its place among the file's games (1-based), or `None` when the file
    /// is one log: what names it (`FILE#N`, and `FILE` alone for one log).
    pub ordinal: Option<usize>,
}

impl GameText<'_> {
    /// Reads the game as [`crate::parse()`] reads a log, with the file's line
    /// numbers in its diagnostics and its document.
    pub fn parse(&self) -> Parsed {
        parse_after(self.text, self.first_line.saturating_sub(1))
    }

    /// Reads the game as [`crate::parse_in_runs`] does, with the file's line
    /// numbers.
    pub fn parse_in_runs(&self, each: impl FnMut(Run<'_>)) -> Streamed {
        parse_in_runs_after(self.text, self.first_line.saturating_sub(1), each)
    }
}

/// One game of a stream, as [`GameReader`] reads it: [`GameText`] with its
/// bytes owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBytes {
    /// Its text, at most one byte more than FGN reads (a longer game is cut
    /// there, so that the parser says it is too large).
    pub text: Vec<u8>,
    /// The stream's line (1-based) that the text starts at.
    pub first_line: u32,
    /// Its place among the stream's games, as [`GameText::ordinal`].
    pub ordinal: Option<usize>,
}

impl GameBytes {
    /// The game as a [`GameText`], to parse it.
    pub fn as_text(&self) -> GameText<'_> {
        GameText {
            text: &self.text,
            first_line: self.first_line,
            ordinal: self.ordinal,
        }
    }
}

/// What a line is, as far as finding games needs (§2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    Blank,
    Comment,
    GameTag,
    Tag,
    Event,
}

/// The kind of `line`, its bytes without the line feed.
fn line_kind(line: &[u8]) -> LineKind {
    let line = &line[..line.len().min(HEAD_BYTES)];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some(at) = line.iter().position(|&b| b != b' ') else {
        return LineKind::Blank;
    };
    match line[at] {
        b';' => LineKind::Comment,
        b'[' if names_game(&line[at + 1..]) => LineKind::GameTag,
        b'[' => LineKind::Tag,
        _ => LineKind::Event,
    }
}

/// Whether `after`, what follows a tag line's `[`, starts with the tag name
/// `Game` (and not a longer name such as `Games`).
fn names_game(after: &[u8]) -> bool {
    after.starts_with(b"Game") && !after.get(4).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// What a line does to the games: the rule of the module's documentation,
/// fed one line kind at a time.
#[derive(Clone, Copy, Debug, Default)]
struct Boundaries {
    seen_event: bool,
    seen_game_tag: bool,
    /// Whether a run of tag lines after an event is open: it starts the
    /// next game if a `Game` tag line comes before the next event line.
    header_open: bool,
}

/// What a line means for where games begin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// It belongs where the line before it does.
    Same,
    /// It opens a run of tag lines after events, which may be the next
    /// game's header.
    OpenHeader,
    /// The open run is the game's own after all (an event line followed it).
    CloseHeader,
    /// A `Game` tag line: the next game begins at the open run's first line.
    GameAtHeader,
    /// A `Game` tag line: the next game begins at this line.
    GameHere,
}

impl Boundaries {
    fn step(&mut self, kind: LineKind) -> Step {
        match kind {
            LineKind::Blank | LineKind::Comment => Step::Same,
            LineKind::Event => {
                self.seen_event = true;
                if std::mem::take(&mut self.header_open) {
                    Step::CloseHeader
                } else {
                    Step::Same
                }
            }
            LineKind::Tag if self.seen_event && !self.header_open => {
                self.header_open = true;
                Step::OpenHeader
            }
            LineKind::Tag => Step::Same,
            LineKind::GameTag => {
                let step = if self.header_open {
                    Step::GameAtHeader
                } else if self.seen_event || self.seen_game_tag {
                    Step::GameHere
                } else {
                    Step::Same
                };
                if step != Step::Same {
                    *self = Boundaries::default();
                }
                self.seen_game_tag = true;
                step
            }
        }
    }
}

/// The games of `src`, a file's or a stream's whole text, in order; the
/// first item is an error instead when text stands before the first game
/// of a file of several (an event line before its first header): one
/// diagnostic, at that text's first line. A text of fewer than two games
/// gives one [`GameText`], the whole text, with no ordinal; an empty one
/// too (the parser says it is empty).
pub fn split(src: &[u8]) -> Split<'_> {
    let mut split = Split {
        src,
        pos: 0,
        line: 1,
        games: 0,
        stray: None,
        whole: false,
    };
    if game_tag_lines_up_to_two(src) < 2 {
        split.whole = true;
        return split;
    }
    let (first_end, first_lines, first_has_game) = piece_end(src, 0);
    if first_end == src.len() {
        split.whole = true;
    } else if !first_has_game {
        let (second_end, _, _) = piece_end(src, first_end);
        if second_end == src.len() {
            // Text before the one game there is: a file of one log.
            split.whole = true;
        } else {
            split.stray = Some(stray_text(&src[..first_end], 1));
            split.pos = first_end;
            split.line = 1 + first_lines;
        }
    }
    split
}

/// The games of a text, from [`split`].
#[derive(Clone, Debug)]
pub struct Split<'a> {
    src: &'a [u8],
    pos: usize,
    /// The line `pos` starts.
    line: u32,
    games: usize,
    stray: Option<Diagnostic>,
    /// Whether the text is one log, given whole.
    whole: bool,
}

impl Split<'_> {
    /// Whether the text is one log (it will be given whole): what a
    /// command asks before it reads a file as it always did.
    pub fn is_one_log(&self) -> bool {
        self.whole
    }
}

impl<'a> Iterator for Split<'a> {
    type Item = Result<GameText<'a>, Diagnostic>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(stray) = self.stray.take() {
            return Some(Err(stray));
        }
        if self.whole {
            self.whole = false;
            self.pos = self.src.len();
            self.games = 1;
            return Some(Ok(GameText {
                text: self.src,
                first_line: 1,
                ordinal: None,
            }));
        }
        if self.pos >= self.src.len() {
            return None;
        }
        let (end, lines, _) = piece_end(self.src, self.pos);
        self.games += 1;
        let game = GameText {
            text: &self.src[self.pos..end],
            first_line: self.line,
            ordinal: Some(self.games),
        };
        self.pos = end;
        self.line = self.line.saturating_add(lines);
        Some(Ok(game))
    }
}

/// How many `Game` tag lines `src` holds, counted up to two: a text with
/// fewer is one log, found without looking at every line. It is asked of
/// every file a command reads, so the search is memchr's (vector
/// instructions, many bytes at a time), for `[Game`, which stands nowhere
/// else in nearly every log.
fn game_tag_lines_up_to_two(src: &[u8]) -> usize {
    let mut found = 0;
    for at in memchr::memmem::find_iter(src, b"[Game") {
        let line_start = src[..at].iter().rposition(|&b| b != b' ').map_or(0, |p| p + 1);
        let starts_line = line_start == 0 || src[line_start - 1] == b'\n' || &src[..line_start] == BOM;
        if starts_line && names_game(&src[at + 1..]) {
            found += 1;
            if found == 2 {
                break;
            }
        }
    }
    found
}

/// Where the piece of `src` that starts at `start` (a line start) ends:
/// its end, how many lines it holds and whether it holds a `Game` tag line.
fn piece_end(src: &[u8], start: usize) -> (usize, u32, bool) {
    let mut bounds = Boundaries::default();
    let (mut pos, mut lines) = (start, 0u32);
    // The run of tag lines that may start the next game, with the blank
    // and comment lines just before it: its offset and how many lines
    // stand before it in the piece.
    let mut header = (start, 0u32);
    // Where the run of blank and comment lines that ends at the current
    // line began, if the lines before it are one: they go with what
    // follows them.
    let mut quiet = None;
    while pos < src.len() {
        let end = memchr_newline(&src[pos..]).map_or(src.len(), |i| pos + i);
        let mut line = &src[pos..end];
        if pos == 0 {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        let kind = line_kind(line);
        let game_before = bounds.seen_game_tag;
        match bounds.step(kind) {
            Step::GameHere => {
                let (at, before) = quiet.unwrap_or((pos, lines));
                return (at, before, game_before);
            }
            Step::GameAtHeader => return (header.0, header.1, game_before),
            Step::OpenHeader => header = quiet.unwrap_or((pos, lines)),
            _ => {}
        }
        quiet = match kind {
            LineKind::Blank | LineKind::Comment => quiet.or(Some((pos, lines))),
            _ => None,
        };
        lines = lines.saturating_add(1);
        pos = (end + 1).min(src.len());
    }
    (src.len(), lines, bounds.seen_game_tag)
}

/// The one diagnostic of text before the first game of a file of several:
/// at its first line that is not blank or a comment.
fn stray_text(text: &[u8], first_line: u32) -> Diagnostic {
    let mut line_no = first_line;
    for line in text.split(|&b| b == b'\n') {
        if !matches!(line_kind(line), LineKind::Blank | LineKind::Comment) {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let shown = std::str::from_utf8(line).ok().filter(|t| t.len() <= MAX_LINE_BYTES);
            let shown = shown.unwrap_or("");
            return Diagnostic::at_bytes(line_no, shown, 0, shown.len(), STRAY_MESSAGE);
        }
        line_no = line_no.saturating_add(1);
    }
    Diagnostic::at_bytes(first_line, "", 0, 0, STRAY_MESSAGE)
}

/// What the text before the first game of a file of several reads as when
/// it is taken as a log of its own, as every command that reads many logs
/// takes it (named as its file, `FILE` without `#N`), so that the file is
/// accounted for as any log it cannot read is: nothing read, and `stray`,
/// the one diagnostic [`split`] and [`GameReader`] give that text.
///
/// ```
/// use fgn_notation::split::{split, stray_parsed};
///
/// let game = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n";
/// let file = format!("junk\n{game}{game}");
/// let stray = split(file.as_bytes()).next().unwrap().unwrap_err();
/// let parsed = stray_parsed(stray.clone());
/// assert!(!parsed.is_ok());
/// assert_eq!(parsed.diagnostics, [stray]);
/// ```
pub fn stray_parsed(stray: Diagnostic) -> Parsed {
    let mut parsed = Parsed::default();
    parsed.diagnostics.push(stray);
    parsed
}

/// [`stray_parsed`] as [`crate::parse_in_runs`] gives it: no events.
pub fn stray_streamed(stray: Diagnostic) -> Streamed {
    Streamed {
        document: Document::default(),
        diagnostics: vec![stray],
        events: 0,
    }
}

/// What [`stray_text`] says.
const STRAY_MESSAGE: &str = "this file holds several games, and this line stands before the first one's header; \
     only blank and comment lines may come before it (docs/notation.md §2.8)";

/// The games of a stream read one at a time, as [`split`] finds them in a
/// text: only the game being read is held in memory (two when text stands
/// before the first one), so a stream of any length is read in memory
/// that does not grow with it. A game longer than FGN reads is kept up to
/// one byte past the limit (the parser then says it is too large) and the
/// games after it are still found; a stream that is one log so far is read
/// no further than that (it is one log, too large).
///
/// ```
/// use fgn_notation::split::GameReader;
///
/// let file = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n0 w place Ke1\n[Game \"survival-chess\"]\n[Rules \"1.0\"]\n0 w place Ke1\n";
/// let games: Vec<_> = GameReader::new(file.as_bytes()).map(|g| g.unwrap().unwrap()).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!((games[1].first_line, games[1].ordinal), (4, Some(2)));
/// assert!(games[1].as_text().parse().is_ok());
/// ```
#[derive(Debug)]
pub struct GameReader<R> {
    reader: R,
    /// The piece being read.
    piece: Vec<u8>,
    piece_first_line: u32,
    /// The open run of tag lines that may start the next game (with the
    /// blank and comment lines before it), and its first line.
    header: Vec<u8>,
    header_first_line: u32,
    /// The blank and comment lines read since the last other line, which
    /// go with the line that follows them, and their first line.
    quiet: Vec<u8>,
    quiet_first_line: u32,
    bounds: Boundaries,
    /// The line being read, kept up to [`KEPT_BYTES`].
    line: Vec<u8>,
    /// How many lines were read.
    lines: u32,
    /// Text before the first game, held until it is known whether the
    /// stream holds several games.
    stray: Option<(Vec<u8>, u32)>,
    /// How many pieces were handed on (or held as stray text).
    pieces: usize,
    games: usize,
    /// Pieces ready to be handed on.
    ready: std::collections::VecDeque<Result<GameBytes, Diagnostic>>,
    done: bool,
}

impl<R: BufRead> GameReader<R> {
    /// A reader of the games of `reader`.
    pub fn new(reader: R) -> GameReader<R> {
        GameReader {
            reader,
            piece: Vec::new(),
            piece_first_line: 1,
            header: Vec::new(),
            header_first_line: 0,
            quiet: Vec::new(),
            quiet_first_line: 0,
            bounds: Boundaries::default(),
            line: Vec::new(),
            lines: 0,
            stray: None,
            pieces: 0,
            games: 0,
            ready: std::collections::VecDeque::new(),
            done: false,
        }
    }

    /// Reads the next line into `self.line` (kept up to [`KEPT_BYTES`],
    /// its line feed included).
    fn read_line(&mut self) -> io::Result<LineRead> {
        self.line.clear();
        let mut any = false;
        loop {
            // Until a second game shows that the stream holds several, it
            // is one log, which is read no further than one byte past the
            // limit: a stream that decompresses to gigabytes without a line
            // end (a "bomb") costs what a large log costs.
            if self.games == 0 && self.held() >= KEPT_BYTES {
                return Ok(LineRead::Cut);
            }
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(if any { LineRead::Line } else { LineRead::End });
            }
            any = true;
            let (take, complete) = match memchr_newline(chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let room = KEPT_BYTES.saturating_sub(self.line.len());
            self.line.extend_from_slice(&chunk[..take.min(room)]);
            self.reader.consume(take);
            if complete {
                return Ok(LineRead::Line);
            }
        }
    }

    /// How many bytes of the stream are held, not yet handed on.
    fn held(&self) -> usize {
        let stray = self.stray.as_ref().map_or(0, |(text, _)| text.len());
        stray + self.piece.len() + self.quiet.len() + self.header.len() + self.line.len()
    }

    /// Reads lines until a piece is complete or the stream ends.
    fn read_piece(&mut self) -> io::Result<()> {
        while self.ready.is_empty() && !self.done {
            let read = self.read_line()?;
            if read != LineRead::Line {
                self.done = true;
                let line = std::mem::take(&mut self.line);
                for pending in [std::mem::take(&mut self.quiet), std::mem::take(&mut self.header), line] {
                    push_kept(&mut self.piece, &pending);
                }
                self.end_piece(true, self.bounds.seen_game_tag);
                return Ok(());
            }
            self.lines = self.lines.saturating_add(1);
            let body = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            let body = if self.lines == 1 {
                body.strip_prefix(BOM).unwrap_or(body)
            } else {
                body
            };
            let kind = line_kind(body);
            let game_before = self.bounds.seen_game_tag;
            let quiet_line = matches!(kind, LineKind::Blank | LineKind::Comment);
            match self.bounds.step(kind) {
                Step::Same if self.bounds.header_open => push_kept(&mut self.header, &self.line),
                // Blank and comment lines wait to go with what follows them.
                Step::Same if quiet_line => {
                    if self.quiet.is_empty() {
                        self.quiet_first_line = self.lines;
                    }
                    push_kept(&mut self.quiet, &self.line);
                }
                Step::Same => {
                    let quiet = std::mem::take(&mut self.quiet);
                    push_kept(&mut self.piece, &quiet);
                    push_kept(&mut self.piece, &self.line);
                }
                Step::OpenHeader => {
                    self.header_first_line = self.quiet_first_line(self.lines);
                    self.header = std::mem::take(&mut self.quiet);
                    push_kept(&mut self.header, &self.line);
                }
                Step::CloseHeader => {
                    let header = std::mem::take(&mut self.header);
                    push_kept(&mut self.piece, &header);
                    push_kept(&mut self.piece, &self.line);
                }
                Step::GameHere => {
                    self.end_piece(false, game_before);
                    self.piece_first_line = self.quiet_first_line(self.lines);
                    self.piece = std::mem::take(&mut self.quiet);
                    push_kept(&mut self.piece, &self.line);
                }
                Step::GameAtHeader => {
                    self.end_piece(false, game_before);
                    self.piece_first_line = self.header_first_line;
                    self.piece = std::mem::take(&mut self.header);
                    push_kept(&mut self.piece, &self.line);
                }
            }
        }
        Ok(())
    }

    /// The first line of the waiting blank and comment lines, or `line`
    /// when none wait.
    fn quiet_first_line(&self, line: u32) -> u32 {
        if self.quiet.is_empty() {
            line
        } else {
            self.quiet_first_line
        }
    }

    /// Hands on the piece read (or holds it, as text before the first game
    /// a first game that may be the only one); `last` when the stream
    /// ended with it, `has_game` when it holds a `Game` tag line.
    fn end_piece(&mut self, last: bool, has_game: bool) {
        let text = std::mem::take(&mut self.piece);
        let first_line = self.piece_first_line;
        self.pieces += 1;
        match (self.pieces, last) {
            // The only piece: one log.
            (1, true) => self.ready.push_back(Ok(GameBytes {
                text,
                first_line: 1,
                ordinal: None,
            })),
            (1, false) if !has_game => self.stray = Some((text, first_line)),
            // The one game after text before it: one log, given whole.
            (2, true) if self.stray.is_some() => {
                let (mut whole, _) = self.stray.take().expect("held stray text");
                push_kept(&mut whole, &text);
                self.ready.push_back(Ok(GameBytes {
                    text: whole,
                    first_line: 1,
                    ordinal: None,
                }));
            }
            _ => {
                if let Some((stray, stray_line)) = self.stray.take() {
                    self.ready.push_back(Err(stray_text(&stray, stray_line)));
                }
                self.games += 1;
                self.ready.push_back(Ok(GameBytes {
                    text,
                    first_line,
                    ordinal: Some(self.games),
                }));
            }
        }
    }
}

/// What [`GameReader::read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineRead {
    /// A line, in `line`.
    Line,
    /// Nothing: the stream ended.
    End,
    /// The stream, one log so far, passed the limit: it is read no further.
    Cut,
}

/// Appends `bytes` to `buf`, keeping at most [`KEPT_BYTES`].
fn push_kept(buf: &mut Vec<u8>, bytes: &[u8]) {
    let room = KEPT_BYTES.saturating_sub(buf.len());
    buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

impl<R: BufRead> Iterator for GameReader<R> {
    /// A game, or the text before the first game of a stream of several
    /// (as [`split`] gives it), or the stream's read error (after which
    /// nothing more is read).
    type Item = io::Result<Result<GameBytes, Diagnostic>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ready.is_empty() && !self.done {
            if let Err(e) = self.read_piece() {
                self.done = true;
                self.ready.clear();
                return Some(Err(e));
            }
        }
        self.ready.pop_front().map(Ok)
    }
}

/// How many games `src` holds as [`split`] finds them (1 for a text that
/// is one log): what a command that takes one log says when it is given
/// several.
pub fn count_games(src: &[u8]) -> usize {
    split(src).filter(Result::is_ok).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const A: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n0 b place Ke8\n";
    const B: &str =
        "; the second\n[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Site \"[Game x]\"]\n\n1 w c3-d4 ; [Game\n";

    /// A piece as the tests compare it: a game's text, first line and
    /// ordinal, or the line of the stray text's diagnostic.
    type Piece = Result<(Vec<u8>, u32, Option<usize>), u32>;

    /// The games of `src` by both readers, which must agree, as (text,
    /// first line, ordinal), with the stray diagnostic's line as text.
    fn both(src: &[u8]) -> Vec<Piece> {
        let by_text: Vec<_> = split(src)
            .map(|g| {
                g.map(|g| (g.text.to_vec(), g.first_line, g.ordinal))
                    .map_err(|d| d.line)
            })
            .collect();
        // A reader that hands out three bytes at a time, so that lines
        // cross the buffer's edges.
        let small = std::io::BufReader::with_capacity(3, src);
        let by_stream: Vec<_> = GameReader::new(small)
            .map(|g| {
                g.unwrap()
                    .map(|g| (g.text, g.first_line, g.ordinal))
                    .map_err(|d| d.line)
            })
            .collect();
        assert_eq!(
            by_text,
            by_stream,
            "the readers disagree on {:?}",
            String::from_utf8_lossy(src)
        );
        by_text
    }

    #[test]
    fn one_log_is_given_whole_whatever_it_holds() {
        for log in [
            A,
            "",
            "\n\n",
            "[Rules \"1.0\"]\n[Game \"x\"]\n1 w e2-e4\n",
            "1 w e2-e4\n[Game \"x\"]\n",
        ] {
            assert_eq!(
                both(log.as_bytes()),
                [Ok((log.as_bytes().to_vec(), 1, None))],
                "{log:?}"
            );
        }
        // A tag after the events that is not a `Game` tag stays the game's
        // own error (corpus/syntax-errors/se-07).
        let tag_after = format!("{A}[Black \"Boris\"]\n1 w e2-e3\n");
        assert_eq!(both(tag_after.as_bytes()).len(), 1);
    }

    #[test]
    fn games_start_at_their_header_and_keep_the_files_lines() {
        let file = format!("{A}{B}{A}");
        let games = both(file.as_bytes());
        assert_eq!(
            games,
            [
                Ok((A.as_bytes().to_vec(), 1, Some(1))),
                Ok((B.as_bytes().to_vec(), 6, Some(2))),
                Ok((A.as_bytes().to_vec(), 12, Some(3))),
            ]
        );
        // The parse of the second game has the file's lines.
        let second = split(file.as_bytes()).nth(1).unwrap().unwrap();
        assert_eq!(second.parse().document.event_lines, [11]);
        assert_eq!(count_games(file.as_bytes()), 3);
    }

    #[test]
    fn a_header_with_tags_before_its_game_tag_starts_at_its_first_tag() {
        let second = "[Rules \"1.0\"]\n; why\n[Game \"survival-chess\"]\n0 w place Ke1\n";
        let file = format!("{A}{second}");
        let games = both(file.as_bytes());
        assert_eq!(games[1], Ok((second.as_bytes().to_vec(), 6, Some(2))));
    }

    #[test]
    fn a_game_without_events_is_followed_by_the_next() {
        let header_only = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n";
        let file = format!("{header_only}{A}");
        let games = both(file.as_bytes());
        assert_eq!(games[0], Ok((header_only.as_bytes().to_vec(), 1, Some(1))));
        assert_eq!(games[1], Ok((A.as_bytes().to_vec(), 3, Some(2))));
    }

    #[test]
    fn text_before_the_first_of_several_games_is_one_error() {
        let file = format!("; fine\n1 w e2-e4\nmore\n{A}{A}");
        let games = both(file.as_bytes());
        assert_eq!(games.len(), 3);
        assert_eq!(games[0], Err(2));
        assert_eq!(games[1], Ok((A.as_bytes().to_vec(), 4, Some(1))));
        let d = split(file.as_bytes()).next().unwrap().unwrap_err();
        assert_eq!((d.line, d.column, d.source_line.as_str()), (2, 1, "1 w e2-e4"));
    }

    #[test]
    fn a_byte_order_mark_does_not_move_the_first_game() {
        let file = format!("\u{FEFF}{A}{A}");
        let games = both(file.as_bytes());
        assert_eq!(games.len(), 2);
        assert_eq!(games[0], Ok((file.as_bytes()[..3 + A.len()].to_vec(), 1, Some(1))));
    }

    #[test]
    fn a_game_past_the_limit_is_cut_and_the_next_is_found() {
        // A game, then one with a line of 64 MiB and more, then a game:
        // the stream reader keeps one byte past the limit of the second
        // and finds the third on its line.
        let mut file = A.as_bytes().to_vec();
        file.extend_from_slice(A.as_bytes());
        file.extend(std::iter::repeat_n(b'x', MAX_FILE_BYTES + 10));
        file.push(b'\n');
        file.extend_from_slice(A.as_bytes());
        let games: Vec<_> = GameReader::new(&file[..]).map(|g| g.unwrap().unwrap()).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].text.len(), KEPT_BYTES);
        assert!(games[1].as_text().parse().diagnostics[0]
            .message
            .contains("larger than"));
        assert_eq!((games[2].first_line, games[2].text.as_slice()), (12, A.as_bytes()));
    }

    #[test]
    fn a_stream_of_one_log_is_read_no_further_than_the_limit() {
        // An endless stream without a line end, as a decompression bomb
        // gives: one log, cut one byte past the limit.
        let mut endless = std::io::BufReader::new(std::io::repeat(b'x'));
        let games: Vec<_> = GameReader::new(&mut endless).map(|g| g.unwrap().unwrap()).collect();
        assert_eq!(games.len(), 1);
        assert_eq!((games[0].text.len(), games[0].ordinal), (KEPT_BYTES, None));
    }

    #[test]
    fn a_read_error_ends_the_games() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let mut games = GameReader::new(std::io::BufReader::new(Failing));
        assert!(games.next().unwrap().is_err());
        assert!(games.next().is_none());
    }

    /// A log: a head of blank, comment and tag lines, its `Game` and
    /// `Rules` tags, an event, and lines of events and comments.
    fn log() -> impl Strategy<Value = String> {
        let head = prop_oneof![
            Just(""),
            Just("; [Game \"x\"]"),
            Just("[Site \"[Game\"]"),
            Just("  [Date \"2025\"]"),
        ];
        let body = prop_oneof![
            Just(""),
            Just("; [Game \"x\"]"),
            Just("1 w e2-e4"),
            Just("1 w chat \"[Game\""),
        ];
        (prop::collection::vec(head, 0..4), prop::collection::vec(body, 0..6)).prop_map(|(head, body)| {
            let mut text = String::new();
            for l in head {
                text.push_str(l);
                text.push('\n');
            }
            text.push_str("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n1 w e2-e4\n");
            for l in body {
                text.push_str(l);
                text.push('\n');
            }
            text
        })
    }

    proptest! {
        #[test]
        fn splitting_concatenated_logs_gives_them_back(logs in prop::collection::vec(log(), 1..6)) {
            let file = logs.concat();
            let games: Vec<_> = both(file.as_bytes()).into_iter().map(Result::unwrap).collect();
            prop_assert_eq!(games.len(), logs.len());
            // Each log's game begins at its first tag line, or at the
            // blank and comment lines just before it, which may end the
            // log before.
            let lines: Vec<&str> = file.split_inclusive('\n').collect();
            let quiet = |l: &str| {
                let l = l.trim_end_matches('\n').trim_start_matches(' ');
                l.is_empty() || l.starts_with(';')
            };
            let mut starts = vec![0];
            let (mut offset, mut line) = (0, 0);
            for (i, log) in logs.iter().enumerate() {
                let count = log.split_inclusive('\n').count();
                if i > 0 {
                    let mut first = line;
                    while !lines[first].trim_start_matches(' ').starts_with('[') {
                        first += 1;
                    }
                    while first > 0 && quiet(lines[first - 1]) {
                        first -= 1;
                    }
                    starts.push(lines[..first].iter().map(|l| l.len()).sum());
                }
                offset += log.len();
                line += count;
            }
            prop_assert_eq!(offset, file.len());
            starts.push(file.len());
            for (i, (text, first_line, ordinal)) in games.iter().enumerate() {
                prop_assert_eq!(text.as_slice(), &file.as_bytes()[starts[i]..starts[i + 1]]);
                let line = 1 + file[..starts[i]].matches('\n').count() as u32;
                prop_assert_eq!(*first_line, line);
                prop_assert_eq!(*ordinal, (logs.len() > 1).then_some(i + 1));
            }
        }

        #[test]
        fn no_text_makes_a_reader_panic_or_lose_a_byte(bytes in prop::collection::vec(
            prop_oneof![Just(b'\n'), Just(b'['), Just(b' '), Just(b';'), Just(b'1'), Just(b'\r'), any::<u8>()], 0..200),
            games in 0usize..4,
        ) {
            let mut file = bytes;
            for _ in 0..games {
                file.extend_from_slice(A.as_bytes());
            }
            let pieces = both(&file);
            let texts: Vec<u8> = split(&file).filter_map(Result::ok).flat_map(|g| g.text.to_vec()).collect();
            // Every byte is some game's but the stray text's, which comes first.
            prop_assert!(file.ends_with(&texts));
            prop_assert!(!pieces.is_empty());
            for game in split(&file).filter_map(Result::ok) {
                let _ = game.parse();
            }
        }
    }
}
