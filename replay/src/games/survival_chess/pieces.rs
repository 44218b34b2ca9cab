//! What a cell of either board representation holds and what both trade
//! in: the pieces, their codes in a cell, the steps and lines they move
//! along, a move and what takes it back. The bitboards (`bits.rs`) and the
//! mailbox (`mailbox.rs`) both keep a cell per square with these codes, so
//! that one [`Undo`] takes a move back on either, and the board
//! (`board.rs`) hands out the same [`Piece`] and [`Move`] whichever it
//! holds.

use fgn_notation::{Color, PieceKind, Square};

/// Off-board sentinel cell.
pub(super) const OFF: u8 = 0xFF;
/// Empty cell.
pub(super) const EMPTY: u8 = 0;
pub(super) const COLOR_BIT: u8 = 0b1000;
/// A pawn that has not moved since setup (it may double-step).
pub(super) const UNMOVED_BIT: u8 = 0b1_0000;
pub(super) const KIND_MASK: u8 = 0b111;

pub(super) fn kind_code(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::King => 1,
        PieceKind::Queen => 2,
        PieceKind::Rook => 3,
        PieceKind::Bishop => 4,
        PieceKind::Knight => 5,
        PieceKind::Pawn => 6,
    }
}

fn code_kind(code: u8) -> PieceKind {
    match code & KIND_MASK {
        1 => PieceKind::King,
        2 => PieceKind::Queen,
        3 => PieceKind::Rook,
        4 => PieceKind::Bishop,
        5 => PieceKind::Knight,
        _ => PieceKind::Pawn,
    }
}

pub(super) fn color_code(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => COLOR_BIT,
    }
}

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Which piece.
    pub kind: PieceKind,
}

/// A move on the board: from, to and the promotion piece (only on the far rank).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// From.
    pub from: Square,
    /// To.
    pub to: Square,
    /// The promotion piece, when a pawn reaches the far rank.
    pub promotion: Option<PieceKind>,
}

/// What playing a move changed, so that it can be taken back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The square the piece left, in the numbering of the board that made it.
    pub(super) from: usize,
    /// The square it went to.
    pub(super) to: usize,
    /// The moved piece's code before the move.
    pub(super) moved: u8,
    /// The captured piece's code (`EMPTY` when none).
    pub(super) captured: u8,
}

/// A knight's, then a king's single steps (file, rank), and the lines of the
/// rook and the bishop, in the order moves are listed.
pub(super) const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
pub(super) const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
pub(super) const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
pub(super) const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

pub(super) fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub(super) fn decode(code: u8) -> Option<Piece> {
    if code == EMPTY || code == OFF {
        return None;
    }
    let color = if code & COLOR_BIT == 0 {
        Color::White
    } else {
        Color::Black
    };
    Some(Piece {
        color,
        kind: code_kind(code),
    })
}
