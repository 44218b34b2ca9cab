//! open-world-chess as a board picture: pieces with their HP, objects and
//! merchants, fog (for the referee) or what the viewer cannot see, and
//! beside the board the moves left, curses, coins and what the world owes.

use fgn_notation::{Color, ObjectKind, Square};

use super::state::{OpenWorldKnowledge, OpenWorldState, Public};
use crate::changes::values::{MovingPiece, OwedOutcome};
use crate::core::picture::{count, Charset, Occupant, Picture, Shade, Text, CHESS_LETTERS};

/// A piece with its HP written after it (`♘5`, `♚10`).
fn piece(color: Color, kind: fgn_notation::PieceKind, hp: u64) -> Occupant {
    Occupant {
        label: Some(hp.to_string()),
        ..Occupant::chess(color, kind)
    }
}

/// An object's mark with symbols and in ASCII: letters with symbols,
/// where no piece is a letter, and in ASCII marks that no piece, merchant
/// (`M`) or square mark (`.`, `#`) uses, since there `r` and `k` would be
/// black's rook and king.
const fn object_marks(o: ObjectKind) -> (char, char) {
    match o {
        ObjectKind::Regen => ('r', '+'),
        ObjectKind::Hp => ('h', '^'),
        ObjectKind::Damage => ('d', '!'),
        ObjectKind::Kinghp => ('k', '*'),
        ObjectKind::Clone => ('c', '&'),
        ObjectKind::Coin => ('$', '$'),
    }
}

fn object(o: ObjectKind) -> Occupant {
    let (unicode, ascii) = object_marks(o);
    Occupant {
        owner: None,
        kind: o.name().to_string(),
        glyph: Text {
            unicode: unicode.to_string(),
            ascii: ascii.to_string(),
        },
        label: None,
    }
}

fn merchant() -> Occupant {
    Occupant::letter(None, "merchant", 'M')
}

/// A board of `public`'s size whose squares `cell` fills, in square
/// order, with the legend of open-world-chess. Squares are at least two
/// characters wide: a piece and its HP.
fn board(public: &Public, mut cell: impl FnMut(Square) -> (Option<Occupant>, Shade)) -> Picture {
    let size = public.board.0;
    let mut picture = Picture::new(size.files, size.ranks);
    picture.square_width = 2;
    for c in &mut picture.cells {
        let (figure, shade) = cell(c.square);
        c.figures.extend(figure);
        c.shade = shade;
    }
    picture
        .legend
        .push(Text::ascii_only(format!("{CHESS_LETTERS}, each with its HP")));
    picture.legend.push(Text::by(|charset| {
        let marks: Vec<String> = ObjectKind::ALL
            .iter()
            .map(|&kind| {
                let (unicode, ascii) = object_marks(kind);
                let mark = if charset == Charset::Ascii { ascii } else { unicode };
                format!("{mark} {}", kind.name())
            })
            .collect();
        format!(
            "objects: {}; M merchant; {} fog or unseen",
            marks.join(", "),
            charset.shade_mark()
        )
    }));
    picture
}

/// The notes everyone's picture has: the moves left while a side is to
/// act, and the curses; then the coins of `coins`' sides.
fn note_counters(picture: &mut Picture, public: &Public, in_play: bool, coins: &[(Color, u32)]) {
    if in_play {
        picture.note(format!("moves left in this turn: {}", public.moves_left));
    }
    for c in [Color::White, Color::Black] {
        if public.curses[c] > 0 {
            picture.note(format!(
                "{} is cursed: {} fewer next turn",
                c.name(),
                count(u64::from(public.curses[c]), "move")
            ));
        }
    }
    for (c, n) in coins {
        picture.note(format!("{} has {}", c.name(), count(u64::from(*n), "coin")));
    }
}

/// A piece held on its path by the world's damage roll, on no square of
/// the board meanwhile: on the damage object's `square` where the referee
/// tells it, "on its path" to its owner, whose knowledge has no square.
fn note_moving(picture: &mut Picture, moving: &MovingPiece, square: Option<Square>) {
    let on = square.map_or("on its path".to_string(), |sq| format!("on {sq}"));
    picture.note(format!(
        "{}'s {} ({} HP) waits {on} for the world's damage roll, on its way to {}",
        moving.color.name(),
        moving.piece.name(),
        moving.hp,
        moving.to
    ));
}

/// The referee's account of a move that waits for the world's outcome.
fn note_owed(picture: &mut Picture, owed: &OwedOutcome) {
    match owed {
        OwedOutcome::Damage {
            square,
            on_path: true,
            moving,
        } => note_moving(picture, moving, Some(*square)),
        OwedOutcome::Damage { square, .. } => {
            picture.note(format!("the world owes the damage roll for the piece on {square}"));
        }
        OwedOutcome::Clone { square, candidates, .. } => {
            let list: Vec<String> = candidates.iter().map(Square::to_string).collect();
            picture.note(format!(
                "the world owes the square of the clone of the piece on {square}: one of {}",
                list.join(", ")
            ));
        }
    }
}

impl OpenWorldState {
    /// The referee's picture: every piece, merchant and object, and the
    /// squares out of the light in fog; both sides' coins, and what the
    /// world owes. `in_play` tells whether a side is to act (the game is
    /// not decided), which alone makes the moves left worth noting.
    pub(crate) fn picture(&self, in_play: bool) -> Picture {
        let mut picture = board(&self.public, |sq| {
            let lit = self.lit.iter().find(|l| l.square == sq);
            let shade = if lit.is_some() { Shade::Clear } else { Shade::Fog };
            let figure = if let Some(u) = self.pieces.iter().find(|u| u.square == sq) {
                Some(piece(u.color, u.piece, u.hp))
            } else if self.public.merchants.contains(&sq) {
                Some(merchant())
            } else {
                lit.and_then(|l| l.object).map(object)
            };
            (figure, shade)
        });
        let coins = [(Color::White, self.coins.white), (Color::Black, self.coins.black)];
        note_counters(&mut picture, &self.public, in_play, &coins);
        if let Some(owed) = &self.owed {
            note_owed(&mut picture, owed);
        }
        picture
    }
}

impl OpenWorldKnowledge {
    /// A player's picture: its own pieces wherever they stand, and what it
    /// sees (enemy pieces, objects); merchants, which everyone knows; the
    /// rest unknown. Only its own coins, a player's secret, and its piece
    /// held on its path by the world. `in_play` as for [`State::picture`].
    pub(crate) fn picture(&self, in_play: bool) -> Picture {
        let mut picture = board(&self.public, |sq| {
            let seen = self.seen.iter().find(|s| s.square == sq);
            let shade = if seen.is_some() { Shade::Clear } else { Shade::Unknown };
            let figure = if let Some(u) = self.own.iter().find(|u| u.square == sq) {
                Some(piece(u.color, u.piece, u.hp))
            } else if let Some(e) = seen.and_then(|s| s.enemy.as_ref()) {
                Some(piece(e.color, e.piece, e.hp))
            } else if self.public.merchants.contains(&sq) {
                Some(merchant())
            } else {
                seen.and_then(|s| s.object).map(object)
            };
            (figure, shade)
        });
        let own: Vec<(Color, u32)> = self.viewer.color().zip(self.coins).into_iter().collect();
        note_counters(&mut picture, &self.public, in_play, &own);
        if let Some(moving) = &self.moving {
            note_moving(&mut picture, moving, None);
        }
        picture
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::{BoardSize, ByColor, MoveNumber, PieceKind};

    use super::super::{KnownPiece, KnownSquare, LitSquare, PieceState};
    use super::*;
    use crate::core::picture::Charset;
    use crate::core::viewer::Viewer;
    use crate::ruleset::Board;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    fn public() -> Public {
        Public {
            board: Board(BoardSize { files: 8, ranks: 6 }),
            merchants: vec![sq("d3")],
            curses: ByColor { white: 0, black: 1 },
            turn: MoveNumber(4),
            side: Color::White,
            moves_left: 2,
            shop: None,
            late_shop: None,
        }
    }

    fn unit(square: &str, color: Color, piece: PieceKind, hp: u64) -> PieceState {
        PieceState {
            square: sq(square),
            color,
            piece,
            hp,
            max_hp: hp,
            range: false,
        }
    }

    fn lit(square: &str, object: Option<ObjectKind>) -> LitSquare {
        LitSquare {
            square: sq(square),
            age: 0,
            lit_this_turn: false,
            object,
        }
    }

    fn state() -> OpenWorldState {
        OpenWorldState {
            public: public(),
            pieces: vec![
                unit("a1", Color::White, PieceKind::King, 12),
                unit("h6", Color::Black, PieceKind::Knight, 5),
            ],
            lit: vec![lit("a1", None), lit("b1", Some(ObjectKind::Coin)), lit("a2", None)],
            coins: ByColor { white: 1, black: 3 },
            owed: Some(OwedOutcome::Clone {
                square: sq("a2"),
                candidates: vec![sq("a3"), sq("b2")],
                moving: MovingPiece {
                    to: sq("a2"),
                    color: Color::White,
                    piece: PieceKind::King,
                    hp: 12,
                    max_hp: 12,
                    range: false,
                    path: vec![],
                    promotion: None,
                },
            }),
            spawnable: vec![],
        }
    }

    /// What a square shows in ASCII, and its shade.
    fn shown(picture: &Picture, square: &str) -> (String, Shade) {
        let cell = picture.cell(sq(square)).expect("on the board");
        let text = cell
            .figures
            .iter()
            .map(|f| format!("{}{}", f.glyph.get(Charset::Ascii), f.label.as_deref().unwrap_or("")))
            .collect();
        (text, cell.shade)
    }

    #[test]
    fn the_referee_sees_every_piece_and_the_unlit_squares_in_fog() {
        let picture = state().picture(true);
        assert_eq!(shown(&picture, "a1"), ("K12".into(), Shade::Clear));
        assert_eq!(
            shown(&picture, "h6"),
            ("n5".into(), Shade::Fog),
            "a piece in the fog is shown"
        );
        assert_eq!(shown(&picture, "b1"), ("$".into(), Shade::Clear));
        assert_eq!(
            shown(&picture, "d3"),
            ("M".into(), Shade::Fog),
            "merchants are known to all"
        );
        assert_eq!(shown(&picture, "a2"), (String::new(), Shade::Clear));
        assert_eq!(shown(&picture, "e5"), (String::new(), Shade::Fog));
        assert_eq!(picture.square_width, 2);
        assert_eq!(
            picture.legend[1].get(Charset::Ascii),
            "objects: + regen, ^ hp, ! damage, * kinghp, & clone, $ coin; M merchant; # fog or unseen"
        );
        assert_eq!(
            picture.notes,
            [
                "moves left in this turn: 2",
                "black is cursed: 1 move fewer next turn",
                "white has 1 coin",
                "black has 3 coins",
                "the world owes the square of the clone of the piece on a2: one of a3, b2",
            ]
        );
        assert!(!state().picture(false).notes.iter().any(|n| n.starts_with("moves left")));
    }

    #[test]
    fn a_player_sees_its_own_pieces_and_its_sight_the_rest_is_unknown() {
        let knowledge = OpenWorldKnowledge {
            viewer: Viewer::of(Color::Black),
            public: public(),
            seen: vec![
                KnownSquare {
                    square: sq("g4"),
                    object: None,
                    enemy: Some(KnownPiece {
                        color: Color::White,
                        piece: PieceKind::Rook,
                        hp: 7,
                    }),
                },
                KnownSquare {
                    square: sq("h5"),
                    object: Some(ObjectKind::Damage),
                    enemy: None,
                },
            ],
            own: vec![unit("h6", Color::Black, PieceKind::Knight, 5)],
            moving: Some(MovingPiece {
                to: sq("f5"),
                color: Color::Black,
                piece: PieceKind::Queen,
                hp: 9,
                max_hp: 9,
                range: false,
                path: vec![sq("g5")],
                promotion: None,
            }),
            coins: Some(2),
        };
        let picture = knowledge.picture(true);
        assert_eq!(
            shown(&picture, "h6"),
            ("n5".into(), Shade::Unknown),
            "its own piece, wherever"
        );
        assert_eq!(shown(&picture, "g4"), ("R7".into(), Shade::Clear));
        assert_eq!(shown(&picture, "h5"), ("!".into(), Shade::Clear));
        assert_eq!(shown(&picture, "d3"), ("M".into(), Shade::Unknown));
        assert_eq!(
            shown(&picture, "a1"),
            (String::new(), Shade::Unknown),
            "the white king is out of sight"
        );
        assert_eq!(
            picture.notes,
            [
                "moves left in this turn: 2",
                "black is cursed: 1 move fewer next turn",
                "black has 2 coins",
                "black's queen (9 HP) waits on its path for the world's damage roll, on its way to f5",
            ]
        );
    }

    /// Regression (issue 37): in ASCII the objects `r` and `k` read as
    /// black's rook and king. Every object's ASCII mark is one no piece,
    /// merchant or square mark uses, and no two objects share one.
    #[test]
    fn ascii_object_marks_clash_with_nothing_else_on_the_board() {
        let taken: String = "KQRBNPkqrbnpM"
            .chars()
            .chain([Charset::Ascii.empty_mark(), Charset::Ascii.shade_mark()])
            .collect();
        let marks: Vec<char> = ObjectKind::ALL.iter().map(|&o| object_marks(o).1).collect();
        for (i, mark) in marks.iter().enumerate() {
            assert!(!taken.contains(*mark), "{mark}");
            assert!(!marks[..i].contains(mark), "{mark} twice");
            assert_eq!(object(ObjectKind::ALL[i]).glyph.get(Charset::Ascii), mark.to_string());
        }
    }
}
