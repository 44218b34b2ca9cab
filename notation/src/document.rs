//! A parsed log: the game (header and events) plus what only formatting
//! needs (comments and line numbers).

use std::fmt::Write as _;

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
            let _ = writeln!(out, "{event}");
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
}

impl Document {
    /// The canonical text with the comments kept where they stood: comment
    /// lines before the tag or event they preceded, end-of-line comments
    /// after one space. Formatting twice changes nothing.
    pub fn formatted(&self) -> String {
        let mut out = String::new();
        let mut comments = self.comments.iter().peekable();
        let mut take = |out: &mut String, anchor: Anchor, own_line: bool| {
            while let Some(c) = comments.next_if(|c| c.anchor == anchor) {
                if own_line {
                    out.push_str(&comment_text(&c.text));
                    out.push('\n');
                } else {
                    // An end-of-line comment goes before the line end that
                    // the caller has not written yet.
                    out.push(' ');
                    out.push_str(&comment_text(&c.text));
                }
            }
        };
        for (i, tag) in self.game.header.tags.iter().enumerate() {
            take(&mut out, Anchor::BeforeTag(i), true);
            let _ = write!(out, "{tag}");
            take(&mut out, Anchor::OnTag(i), false);
            out.push('\n');
        }
        out.push('\n');
        for (i, event) in self.game.events.iter().enumerate() {
            take(&mut out, Anchor::BeforeEvent(i), true);
            let _ = write!(out, "{event}");
            take(&mut out, Anchor::OnEvent(i), false);
            out.push('\n');
        }
        take(&mut out, Anchor::End, true);
        out
    }
}

fn comment_text(text: &str) -> String {
    if text.is_empty() {
        ";".to_string()
    } else {
        format!("; {text}")
    }
}
