//! great-war-chess as a board picture: each square's stack as its unit
//! letters, the charges, what this turn has used, and the setups still
//! hidden from the viewer.

use fgn_notation::{Color, UnitKind};

use super::state::{GreatWarKnowledge, GreatWarState};
use crate::core::picture::{Occupant, Picture, Text};

/// The name of a unit kind, as the legend spells it.
fn unit_name(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Infantry => "infantry",
        UnitKind::Cavalry => "cavalry",
        UnitKind::Artillery => "artillery",
        UnitKind::Fortification => "fortification",
    }
}

impl GreatWarState {
    /// The position as a picture: each stack's units by letter (`I`, `IC`,
    /// `ICA`, `IF` for infantry on a fortification), upper case for white
    /// and lower case for black, on squares three characters wide so that
    /// the largest stack fits.
    pub(crate) fn picture(&self) -> Picture {
        let mut picture = Picture::new(self.board.files, self.board.ranks);
        picture.square_width = 3;
        for stack in &self.stacks {
            for &unit in &stack.units {
                let letter = match stack.color {
                    Color::White => unit.char(),
                    Color::Black => unit.char().to_ascii_lowercase(),
                };
                picture.place(
                    stack.square,
                    Occupant::letter(Some(stack.color), unit_name(unit), letter),
                );
            }
        }
        picture.legend.push(Text::plain(
            "units: I infantry, C cavalry, A artillery, F fortification; upper case white, lower case black",
        ));
        picture.note(format!(
            "charges: white {}, black {}",
            self.charges.white, self.charges.black
        ));
        if let Some(moved) = &self.moved {
            let units: String = moved.units.iter().map(|u| u.char()).collect();
            picture.note(format!("this turn's movement is used ({units} on {})", moved.square));
        }
        if let Some(square) = self.fired_from {
            picture.note(format!("this turn's shot is used (fired from {square})"));
        }
        picture
    }
}

impl GreatWarKnowledge {
    /// What the viewer knows as a picture: the position without the
    /// setups it cannot see yet, whose halves are shaded unknown and which
    /// a note names.
    pub(crate) fn picture(&self) -> Picture {
        let mut picture = self.position.picture();
        crate::core::setup::hide_setups(&mut picture, self.position.board, &self.hidden_setups);
        picture
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::{BoardSize, ByColor, Square};

    use super::super::{Moved, Stack};
    use super::*;
    use crate::core::picture::{Charset, Shade};

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    fn position() -> GreatWarState {
        GreatWarState {
            board: BoardSize { files: 8, ranks: 8 },
            stacks: vec![
                Stack {
                    square: sq("b2"),
                    color: Color::White,
                    units: vec![UnitKind::Infantry, UnitKind::Fortification],
                },
                Stack {
                    square: sq("c7"),
                    color: Color::Black,
                    units: vec![UnitKind::Infantry, UnitKind::Cavalry, UnitKind::Artillery],
                },
            ],
            charges: ByColor { white: 5, black: 2 },
            moved: Some(Moved {
                square: sq("c7"),
                units: vec![UnitKind::Cavalry],
            }),
            fired_from: Some(sq("b2")),
        }
    }

    fn letters(picture: &Picture, square: &str) -> String {
        let cell = picture.cell(sq(square)).expect("on the board");
        cell.figures.iter().map(|f| f.glyph.get(Charset::Ascii)).collect()
    }

    #[test]
    fn a_stack_is_its_letters_in_the_owners_case() {
        let picture = position().picture();
        assert_eq!(letters(&picture, "b2"), "IF");
        assert_eq!(letters(&picture, "c7"), "ica");
        assert_eq!(letters(&picture, "d4"), "");
        let fort = &picture.cell(sq("b2")).expect("b2").figures[1];
        assert_eq!((fort.owner, fort.kind.as_str()), (Some(Color::White), "fortification"));
        assert_eq!((picture.square_width, picture.checkered), (3, false));
    }

    #[test]
    fn charges_and_the_used_movement_and_shot_are_noted() {
        assert_eq!(
            position().picture().notes,
            [
                "charges: white 5, black 2",
                "this turn's movement is used (C on c7)",
                "this turn's shot is used (fired from b2)",
            ]
        );
    }

    #[test]
    fn the_viewer_is_told_which_setup_is_hidden() {
        let knowledge = GreatWarKnowledge {
            hidden_setups: vec![Color::White],
            position: GreatWarState {
                stacks: vec![],
                moved: None,
                fired_from: None,
                ..position()
            },
        };
        let picture = knowledge.picture();
        assert!(picture.cells.iter().all(|c| c.figures.is_empty()));
        assert_eq!(
            picture.notes,
            [
                "charges: white 5, black 2",
                "(hidden until both are ready: white's setup)"
            ]
        );
        // White's half (ranks 1..4 of 8) is unknown, not drawn as empty.
        for cell in &picture.cells {
            let expected = if cell.square.rank_index() < 4 {
                Shade::Unknown
            } else {
                Shade::Clear
            };
            assert_eq!(cell.shade, expected, "{}", cell.square);
        }
    }
}
