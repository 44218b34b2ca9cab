//! magic-draughts as a board picture: men and kings on the dark squares,
//! the spells each side must cast, and the captured checkers with their
//! numbers once revealed. Everything on the board is public, so a
//! viewer's picture is the state's.

use fgn_notation::Color;

use super::engine::spell_name;
use super::state::DraughtsState;
use crate::core::picture::{Charset, Occupant, Picture, Text};

/// A draughts piece: its Unicode symbol, or a letter (`w` and `b` men,
/// `W` and `B` kings).
fn figure(color: Color, king: bool) -> Occupant {
    let glyph = Text::by(|charset| symbol(color, king, charset).to_string());
    Occupant {
        owner: Some(color),
        kind: if king { "king" } else { "man" }.to_string(),
        glyph,
        label: None,
    }
}

fn symbol(color: Color, king: bool, charset: Charset) -> char {
    match (color, king, charset) {
        (Color::White, false, Charset::Unicode) => '⛀',
        (Color::White, true, Charset::Unicode) => '⛁',
        (Color::Black, false, Charset::Unicode) => '⛂',
        (Color::Black, true, Charset::Unicode) => '⛃',
        (Color::White, false, Charset::Ascii) => 'w',
        (Color::White, true, Charset::Ascii) => 'W',
        (Color::Black, false, Charset::Ascii) => 'b',
        (Color::Black, true, Charset::Ascii) => 'B',
    }
}

/// A captured checker's number as the notes give it.
fn number_text(n: Option<u8>) -> String {
    match n {
        None => "not revealed yet".into(),
        Some(0) => "plain".into(),
        Some(n) => format!("{n}, {}", spell_name(n)),
    }
}

impl DraughtsState {
    /// The position as a picture: the pieces on a checkered 8x8 board,
    /// with the legend of their symbols; in a magic game, the spells due
    /// and the captured checkers.
    pub(crate) fn picture(&self) -> Picture {
        let mut picture = Picture::new(8, 8);
        picture.checkered = true;
        for piece in &self.pieces {
            picture.place(piece.square, figure(piece.color, piece.king));
        }
        picture.legend.push(Text::by(|charset| {
            let s = |color, king| symbol(color, king, charset);
            format!(
                "pieces: {} white man, {} white king, {} black man, {} black king",
                s(Color::White, false),
                s(Color::White, true),
                s(Color::Black, false),
                s(Color::Black, true),
            )
        }));
        if !self.magic {
            picture.note("plain Russian draughts (magic off)");
            return picture;
        }
        for color in [Color::White, Color::Black] {
            let spells = &self.spells_due[color];
            if !spells.is_empty() {
                let list: Vec<String> = spells.iter().map(|&n| format!("{n} ({})", spell_name(n))).collect();
                picture.note(format!(
                    "{} casts before its next move: {}",
                    color.name(),
                    list.join(", ")
                ));
            }
        }
        for color in [Color::White, Color::Black] {
            let taken: Vec<String> = self
                .captured
                .iter()
                .filter(|c| c.color == color)
                .map(|c| format!("{} ({})", c.square, number_text(c.number)))
                .collect();
            if !taken.is_empty() {
                picture.note(format!("{}'s captured checkers: {}", color.name(), taken.join("; ")));
            }
        }
        picture
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::{ByColor, Square};

    use super::super::{Captured, DraughtsPiece};
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    fn position(magic: bool) -> DraughtsState {
        DraughtsState {
            magic,
            pieces: vec![
                DraughtsPiece {
                    square: sq("a1"),
                    color: Color::White,
                    king: false,
                    origin: Some(sq("a1")),
                },
                DraughtsPiece {
                    square: sq("h8"),
                    color: Color::White,
                    king: true,
                    origin: Some(sq("c3")),
                },
                DraughtsPiece {
                    square: sq("e5"),
                    color: Color::Black,
                    king: false,
                    origin: None,
                },
            ],
            reveals_owed: vec![],
            spells_due: ByColor {
                white: vec![],
                black: vec![4, 1],
            },
            returnable: ByColor::default(),
            captured: vec![
                Captured {
                    color: Color::White,
                    square: sq("d4"),
                    origin: Some(sq("e3")),
                    number: Some(0),
                },
                Captured {
                    color: Color::Black,
                    square: sq("f6"),
                    origin: Some(sq("f6")),
                    number: Some(4),
                },
                Captured {
                    color: Color::White,
                    square: sq("b2"),
                    origin: Some(sq("b2")),
                    number: None,
                },
            ],
        }
    }

    #[test]
    fn men_and_kings_have_symbols_and_letters() {
        let picture = position(true).picture();
        let glyph = |name: &str, charset| {
            let cell = picture.cell(sq(name)).expect("on the board");
            cell.figures
                .iter()
                .map(|f| f.glyph.get(charset).to_string())
                .collect::<String>()
        };
        assert_eq!(
            (glyph("a1", Charset::Unicode), glyph("a1", Charset::Ascii)),
            ("⛀".into(), "w".into())
        );
        assert_eq!(
            (glyph("h8", Charset::Unicode), glyph("h8", Charset::Ascii)),
            ("⛁".into(), "W".into())
        );
        assert_eq!(
            (glyph("e5", Charset::Unicode), glyph("e5", Charset::Ascii)),
            ("⛂".into(), "b".into())
        );
        assert_eq!(picture.cell(sq("h8")).expect("h8").figures[0].kind, "king");
        assert!(picture.checkered);
        assert_eq!(
            picture.legend[0].get(Charset::Ascii),
            "pieces: w white man, W white king, b black man, B black king"
        );
    }

    #[test]
    fn spells_due_and_captured_checkers_are_noted_by_side() {
        assert_eq!(
            position(true).picture().notes,
            [
                "black casts before its next move: 4 (Firebird's Call), 1 (Gorynych's Fury)",
                "white's captured checkers: d4 (plain); b2 (not revealed yet)",
                "black's captured checkers: f6 (4, Firebird's Call)",
            ]
        );
    }

    #[test]
    fn plain_draughts_notes_only_that_magic_is_off() {
        assert_eq!(position(false).picture().notes, ["plain Russian draughts (magic off)"]);
    }
}
