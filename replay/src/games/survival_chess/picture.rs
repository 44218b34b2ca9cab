//! survival-chess as a board picture: the pieces on a checkered board,
//! check while the game goes on, and the setups still hidden from the
//! viewer.

use super::state::{SurvivalKnowledge, SurvivalState};
use crate::core::picture::{Occupant, Picture, Text, CHESS_LETTERS};

impl SurvivalState {
    /// The position as a picture; `in_play` tells whether a side is to
    /// act (the game is not decided), which alone makes check worth noting.
    pub(crate) fn picture(&self, in_play: bool) -> Picture {
        let mut picture = Picture::new(self.board.files, self.board.ranks);
        picture.checkered = true;
        for piece in &self.pieces {
            picture.place(piece.square, Occupant::chess(piece.color, piece.piece));
        }
        picture.legend.push(Text::ascii_only(CHESS_LETTERS));
        if self.in_check && in_play {
            picture.note("check");
        }
        picture
    }
}

impl SurvivalKnowledge {
    /// What the viewer knows as a picture: the position without the
    /// setups it cannot see yet, whose halves are shaded unknown and which
    /// a note names.
    pub(crate) fn picture(&self, in_play: bool) -> Picture {
        let mut picture = self.position.picture(in_play);
        crate::core::setup::hide_setups(&mut picture, self.position.board, &self.hidden_setups);
        picture
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::{BoardSize, Color, PieceKind, Square};

    use super::super::state::ChessPiece;
    use super::*;
    use crate::core::picture::{Charset, Shade};

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    fn piece(square: &str, color: Color, piece: PieceKind) -> ChessPiece {
        ChessPiece {
            square: sq(square),
            color,
            piece,
            unmoved: false,
        }
    }

    fn position(in_check: bool) -> SurvivalState {
        SurvivalState {
            board: BoardSize { files: 6, ranks: 8 },
            pieces: vec![
                piece("a1", Color::White, PieceKind::King),
                piece("b2", Color::White, PieceKind::Pawn),
                piece("f8", Color::Black, PieceKind::King),
            ],
            in_check,
        }
    }

    #[test]
    fn every_piece_stands_on_its_square_of_a_checkered_board() {
        let picture = position(false).picture(true);
        assert_eq!((picture.files, picture.ranks, picture.checkered), (6, 8, true));
        assert_eq!(picture.cells.len(), 48);
        let glyphs = |name: &str| -> Vec<(String, String)> {
            let cell = picture.cell(sq(name)).expect("on the board");
            cell.figures
                .iter()
                .map(|f| {
                    (
                        f.glyph.get(Charset::Unicode).to_string(),
                        f.glyph.get(Charset::Ascii).to_string(),
                    )
                })
                .collect()
        };
        assert_eq!(glyphs("a1"), [("♔".to_string(), "K".to_string())]);
        assert_eq!(glyphs("f8"), [("♚".to_string(), "k".to_string())]);
        assert!(glyphs("c3").is_empty());
        assert!(picture.cells.iter().all(|c| c.shade == Shade::Clear));
        // The letters need a legend; the symbols do not.
        assert_eq!(picture.legend.len(), 1);
        assert_eq!(picture.legend[0].get(Charset::Unicode), "");
        assert!(picture.legend[0].get(Charset::Ascii).starts_with("pieces: K Q R B N P"));
    }

    #[test]
    fn check_is_noted_only_while_a_side_is_to_move() {
        assert_eq!(position(true).picture(true).notes, ["check"]);
        assert!(position(false).picture(true).notes.is_empty());
        assert!(position(true).picture(false).notes.is_empty(), "a decided game");
    }

    #[test]
    fn a_hidden_setup_is_noted() {
        let knowledge = SurvivalKnowledge {
            hidden_setups: vec![Color::Black],
            position: position(false),
        };
        let picture = knowledge.picture(true);
        assert_eq!(picture.notes, ["(hidden until both are ready: black's setup)"]);
        // Black's half (ranks 5..8 of 8) is unknown, not drawn as empty;
        // white's stays clear.
        for cell in &picture.cells {
            let expected = if cell.square.rank_index() >= 4 {
                Shade::Unknown
            } else {
                Shade::Clear
            };
            assert_eq!(cell.shade, expected, "{}", cell.square);
        }
    }
}
