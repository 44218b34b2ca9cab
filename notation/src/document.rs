//! A parsed log: the game (header and events) plus what only formatting
//! needs (comments and line numbers).

use std::fmt::{self, Write as _};

use crate::short::Ascii;

use crate::action::Event;
use crate::header::Header;
use crate::types::{Color, GameKind};

/// A game as FGN records it: header and events. Comments are not part of it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Game {
    /// The header tags.
    pub header: Header,
    /// The events, in log order.
    pub events: Vec<Event>,
}

impl Game {
    /// The game kind from the `Game` tag.
    pub fn kind(&self) -> Option<GameKind> {
        self.header.game()
    }

    /// Whose view this log is (`None`: the full log).
    pub fn perspective(&self) -> Option<Color> {
        self.header.perspective()
    }

    /// The canonical text: tags in file order, a blank line, the events, each
    /// line LF-terminated, no comments.
    pub fn canonical_text(&self) -> String {
        let mut out = String::new();
        for tag in &self.header.tags {
            let _ = writeln!(out, "{tag}");
        }
        out.push('\n');
        for event in &self.events {
            event.write_line(&mut out);
            out.push('\n');
        }
        out
    }
}

/// Where a comment stands relative to the tags and events.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Anchor {
    /// On a line of its own before the given tag.
    BeforeTag(usize),
    /// At the end of the given tag's line.
    OnTag(usize),
    /// On a line of its own before the given event.
    BeforeEvent(usize),
    /// At the end of the given event's line.
    OnEvent(usize),
    /// On a line of its own after everything else.
    End,
}

/// A comment kept for `fmt`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Comment {
    /// Where it stands.
    pub anchor: Anchor,
    /// The text after `;`, trimmed.
    pub text: String,
}

/// A parsed file: the game, the comments and where each line came from.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Document {
    /// The game.
    pub game: Game,
    /// The comments, in file order.
    pub comments: Vec<Comment>,
    /// The 1-based line of each tag.
    pub tag_lines: Vec<u32>,
    /// The 1-based line of each event.
    pub event_lines: Vec<u32>,
    /// The 1-based column (in characters) where each event's action starts.
    pub event_columns: Vec<u32>,
    /// How many lines of its file stand before the text this was read
    /// from: 0 for a file of one game, the lines of the games before it
    /// for a later game of a file of several (docs/notation.md §2.8). Every
    /// line above is the file's; a place with no line of its own (the
    /// header as a whole) is this plus one.
    pub lines_before: u32,
}

impl Document {
    /// The canonical text with the comments kept where they stood: comment
    /// lines before the tag or event they preceded, end-of-line comments
    /// after one space. Formatting twice changes nothing.
    pub fn formatted(&self) -> String {
        let mut out = String::new();
        self.write_formatted(&mut out);
        out
    }

    /// Whether `text` is exactly [`Document::formatted`]'s text, found
    /// without writing it: what `fgn fmt --check` asks of every file, where
    /// writing the text only to compare it cost as much as reading the file.
    pub fn is_formatted(&self, text: &[u8]) -> bool {
        self.matches(Matcher::new(text, None))
    }

    /// [`Document::is_formatted`] of `text`, the text this document was
    /// parsed from as it was parsed, where every event but those of
    /// `general_events` (indices, in order) was read by the one-pass
    /// reader, and the text ends in a run of such events' lines from
    /// `quick_tail` (the first one's index and byte offset) on: what
    /// `Parsed::is_formatted` asks.
    pub(crate) fn is_formatted_as_read(
        &self,
        text: &[u8],
        general_events: &[u32],
        quick_tail: Option<(u32, usize)>,
    ) -> bool {
        let read = ReadLines {
            event_lines: &self.event_lines,
            general_events,
            quick_tail,
            len: text.len(),
        };
        let mut matcher = Matcher::new(text, Some(read));
        // The lines read are the file's, which a later game of a file of
        // several does not start at line 1 of.
        matcher.line = self.lines_before.saturating_add(1);
        self.matches(matcher)
    }

    fn matches(&self, mut matcher: Matcher<'_>) -> bool {
        self.write_formatted(&mut matcher);
        matcher.same && matcher.rest.is_empty()
    }

    /// Writes [`Document::formatted`]'s text to `out`: the one place that
    /// says what it is, for both the text and the comparison with it.
    fn write_formatted<W: Sink>(&self, out: &mut W) {
        let mut comments = self.comments.iter().peekable();
        for (i, tag) in self.game.header.tags.iter().enumerate() {
            write_comments(out, &mut comments, Anchor::BeforeTag(i));
            let _ = tag.write_to(out);
            write_comments(out, &mut comments, Anchor::OnTag(i));
            out.push_ascii(b'\n');
        }
        out.push_ascii(b'\n');
        for (i, event) in self.game.events.iter().enumerate() {
            // Most events have no comment, which one look at the next
            // comment tells.
            let commented = comments
                .peek()
                .is_some_and(|c| matches!(c.anchor, Anchor::BeforeEvent(j) | Anchor::OnEvent(j) if j == i));
            if commented {
                write_comments(out, &mut comments, Anchor::BeforeEvent(i));
            }
            if out.matched_from(i) {
                return;
            }
            out.event_line(i, event);
            if commented {
                write_comments(out, &mut comments, Anchor::OnEvent(i));
            }
            out.push_ascii(b'\n');
        }
        write_comments(out, &mut comments, Anchor::End);
    }
}

/// Writes the comments at `anchor` that come next: a comment on a line of
/// its own with its line end, one at the end of a line before the line end
/// that the caller has not written yet.
fn write_comments<'a, W: Sink>(
    out: &mut W,
    comments: &mut std::iter::Peekable<impl Iterator<Item = &'a Comment>>,
    anchor: Anchor,
) {
    let own_line = !matches!(anchor, Anchor::OnTag(_) | Anchor::OnEvent(_));
    while let Some(c) = comments.next_if(|c| c.anchor == anchor) {
        if !own_line {
            out.push_ascii(b' ');
        }
        out.push_ascii(b';');
        if !c.text.is_empty() {
            out.push_ascii(b' ');
            let _ = out.write_str(&c.text);
        }
        if own_line {
            out.push_ascii(b'\n');
        }
    }
}

/// Where [`Document::write_formatted`] writes: a text being written, or
/// a [`Matcher`] comparing.
trait Sink: Ascii + fmt::Write + Sized {
    /// Writes the line of event `index`, without its line end.
    fn event_line(&mut self, _index: usize, event: &Event) {
        event.write_line_to(self);
    }

    /// Whether all that is left to write, from the line of event `index`
    /// on, is known to match already (a matcher that reached the canonical
    /// tail of the text it was parsed from); the writing then stops.
    fn matched_from(&mut self, _index: usize) -> bool {
        false
    }
}

impl Sink for String {}

/// What a matcher knows of the lines of the text it compares with, when
/// that is the text the document was parsed from.
struct ReadLines<'a> {
    /// The line of each event.
    event_lines: &'a [u32],
    /// The events the general reader read, not yet passed; every other
    /// event's line is canonical as it stands.
    general_events: &'a [u32],
    /// The first event of the run of one-pass lines that ends the text,
    /// and the byte offset of its line.
    quick_tail: Option<(u32, usize)>,
    /// The length of the text.
    len: usize,
}

/// A sink that compares what is written with a text instead of keeping it.
struct Matcher<'a> {
    /// The text not yet matched.
    rest: &'a [u8],
    /// Whether everything written so far matched.
    same: bool,
    /// The line `rest` starts in (1-based), while `same`.
    line: u32,
    read: Option<ReadLines<'a>>,
}

impl<'a> Matcher<'a> {
    fn new(text: &'a [u8], read: Option<ReadLines<'a>>) -> Matcher<'a> {
        Matcher {
            rest: text,
            same: true,
            line: 1,
            read,
        }
    }

    fn matches(&mut self, bytes: &[u8]) {
        match self.rest.strip_prefix(bytes) {
            Some(rest) if self.same => {
                self.rest = rest;
                self.line += bytes.iter().filter(|&&b| b == b'\n').count() as u32;
            }
            _ => self.same = false,
        }
    }
}

impl Sink for Matcher<'_> {
    fn event_line(&mut self, index: usize, event: &Event) {
        if let Some(read) = &mut self.read {
            let general = read.general_events.first() == Some(&(index as u32));
            if general {
                read.general_events = &read.general_events[1..];
            } else if self.same && read.event_lines.get(index) == Some(&self.line) {
                // Everything so far matched, so `rest` starts at the line
                // the event was read from: the one-pass reader took it,
                // and it takes only a line that is the event's canonical
                // spelling, so the line matches as it stands.
                match crate::lines::memchr_newline(self.rest) {
                    Some(end) => self.rest = &self.rest[end..],
                    None => self.same = false,
                }
                return;
            }
        }
        event.write_line_to(self);
    }

    fn matched_from(&mut self, index: usize) -> bool {
        let Some(read) = &self.read else {
            return false;
        };
        // Where everything before the tail's first line matched (`rest` has
        // moved on exactly that far), the text holds from there on only
        // lines the one-pass reader took, each its event's canonical
        // spelling, one after the other to the end with nothing between
        // them (no comment): the rest of the canonical text is the rest of
        // the text. A matcher that differs already stays so.
        let at_tail = read.quick_tail == Some((index as u32, read.len - self.rest.len()));
        if at_tail {
            self.rest = &[];
        }
        at_tail
    }
}

impl Ascii for Matcher<'_> {
    fn push_ascii(&mut self, byte: u8) {
        match self.rest.split_first() {
            Some((&first, rest)) if first == byte && self.same => {
                self.rest = rest;
                self.line += u32::from(byte == b'\n');
            }
            _ => self.same = false,
        }
    }
}

impl fmt::Write for Matcher<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.matches(text.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::parse;

    /// A log with every kind of line `formatted` writes: comments before
    /// and on tags and events and at the end, an empty comment, a quoted
    /// chat, clocks, a placement, a move and a line of another game.
    const LOG: &str = "; a game\n[Game \"survival-chess\"]\n[Rules \"1.0\"] ; on a tag\n[Board \"8x8\"]\n[White \"A \\\"quoted\\\" name\"]\n\n\
        0 w place Ke1 Qd1 ;\n0 b place Ke8 {t=1.5}\n; before an event\n0 w ready\n0 b ready\n1 w Qd1-d7+ {t=12}\n1 b chat \"hi; there\"\n1 b Ke8xd7 ; takes\n; the end\n";

    #[test]
    fn the_formatted_text_is_formatted_and_every_other_text_is_not() {
        let doc = parse(LOG.as_bytes()).document;
        let text = doc.formatted();
        assert_eq!(text, LOG, "the log is canonical to begin with");
        assert!(doc.is_formatted(text.as_bytes()));
        let bytes = text.as_bytes();
        for at in 0..bytes.len() {
            let mut changed = bytes.to_vec();
            changed[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
            assert!(!doc.is_formatted(&changed), "byte {at} changed");
            let mut dropped = bytes.to_vec();
            dropped.remove(at);
            assert!(!doc.is_formatted(&dropped), "byte {at} dropped");
            let mut added = bytes.to_vec();
            added.insert(at, b' ');
            assert!(!doc.is_formatted(&added), "a space added at {at}");
        }
        assert!(!doc.is_formatted(&bytes[..bytes.len() - 1]));
        assert!(!doc.is_formatted(format!("{text}\n").as_bytes()));
        assert!(!doc.is_formatted(b""));
    }

    /// `Parsed::is_formatted` skips the lines the one-pass reader took;
    /// of every text it must say what writing every line would say.
    /// [`LOG`] ending in lines the one-pass reader takes, after a line it
    /// does not (a comment): the tail `Parsed::is_formatted` need not
    /// compare once all before it matched.
    const TAIL_LOG: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
        0 w place Ke1 Qd1\n0 b place Ke8 {t=1.5}\n0 w ready\n0 b ready\n1 w Qd1-d7+ {t=12}\n1 b Ke8xd7 ; takes\n\
        2 w Ke1-e2\n2 b Kd7-d6 {t=3}\n3 w Ke2-e3\n";

    #[test]
    fn a_parsed_text_is_formatted_exactly_when_its_document_says_so() {
        for log in [LOG, TAIL_LOG] {
            a_parsed_text_is_formatted_exactly_when_its_document_says_so_of(log);
        }
        // The second log has its tail from `2 w Ke1-e2` on, the first none.
        assert_eq!(parse(LOG.as_bytes()).quick_tail(), None);
        let at = TAIL_LOG.find("2 w").unwrap();
        assert_eq!(parse(TAIL_LOG.as_bytes()).quick_tail(), Some((6, at)));
    }

    fn a_parsed_text_is_formatted_exactly_when_its_document_says_so_of(log: &str) {
        let bytes = log.as_bytes();
        let same = |text: &[u8]| {
            let parsed = parse(text);
            let formatted = parsed.document.is_formatted(text);
            assert_eq!(
                parsed.is_formatted(text),
                formatted,
                "{}",
                String::from_utf8_lossy(text)
            );
            formatted
        };
        assert!(same(bytes));
        let mut formatted = 0;
        for at in 0..bytes.len() {
            for byte in [b'x', b' ', b'\n', b'0', b'1', b'e', b'E', b'P', b'+', b';'] {
                let mut changed = bytes.to_vec();
                changed[at] = byte;
                formatted += usize::from(same(&changed));
                changed.insert(at, byte);
                formatted += usize::from(same(&changed));
            }
            let mut dropped = bytes.to_vec();
            dropped.remove(at);
            formatted += usize::from(same(&dropped));
        }
        // Some changes keep the log canonical (another digit in a clock, a
        // letter in a comment), so both answers are tried.
        assert!(formatted > 50, "{formatted} changed logs are canonical");
        // A text of another length than the parsed one is compared in full.
        let parsed = parse(bytes);
        assert!(!parsed.is_formatted(&bytes[..bytes.len() - 1]));
        let mut other = bytes.to_vec();
        let at = log.find("Qd1-d7").unwrap();
        other[at + 1] = b'e';
        assert!(!parsed.is_formatted(format!("{}\n", String::from_utf8_lossy(&other)).as_bytes()));
    }
}
