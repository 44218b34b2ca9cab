//! The board layout, the move value [`DMove`], the [`DraughtsBoard`] value
//! with its setters, and playing a move.
//!
//! The 32 dark squares live in a "padded" 36-bit layout inside a `u64`: the
//! dark square on file `f` and rank `r` has bit `(9 * r + f) / 2`. Bits 4, 13,
//! 22 and 31 belong to no square (they are "ghost" squares). With this layout
//! the four diagonal neighbours of every square are always the same distance
//! away (+5 up-right, +4 up-left, -4 down-right, -5 down-left), and a step off
//! the board lands either on a ghost bit or outside bits 0..36. Move generation
//! can therefore shift whole bitboards instead of looking up every square, and
//! a step is checked against one mask.

use std::fmt;

use fgn_notation::{Action, Color, Path, Square};

/// How many bits the padded layout uses, ghost squares included.
const BITS: u8 = 36;

/// The padded bit index of the dark square on `file`, `rank` (both below 8).
const fn padded(file: u8, rank: u8) -> u8 {
    (rank * 9 + file) / 2
}

/// The bits of the 32 playable squares.
pub(super) const VALID: u64 = {
    let mut mask = 0u64;
    let mut rank = 0;
    while rank < 8 {
        // The dark squares of a rank are those whose file has the rank's parity (a1 is dark).
        let mut file = rank % 2;
        while file < 8 {
            mask |= 1 << padded(file, rank);
            file += 2;
        }
        rank += 1;
    }
    mask
};

/// Rank 1, where black men become kings.
pub(super) const RANK_1: u64 = 0b1111;

/// Rank 8, where white men become kings.
pub(super) const RANK_8: u64 = 0b1111 << 32;

/// Bit offsets of the four diagonal directions: up-right, up-left, down-right, down-left.
pub(super) const DIRS: [i8; 4] = [5, 4, -4, -5];

/// The forward directions of white men (towards rank 8).
pub(super) const WHITE_FORWARD: [i8; 2] = [5, 4];

/// The forward directions of black men (towards rank 1).
pub(super) const BLACK_FORWARD: [i8; 2] = [-4, -5];

/// `a1`, the filler for unused slots of square arrays.
pub(super) const A1: Square = match Square::new(0, 0) {
    Some(sq) => sq,
    // Evaluated at compile time: if this arm were ever taken the crate would not build.
    None => panic!("a1 is a square"),
};

/// The [`Square`] of every padded bit; ghost bits map to `a1` and are never read.
pub(super) const SQUARE_OF: [Square; BITS as usize] = {
    let mut table = [A1; BITS as usize];
    let mut bit = 0u8;
    while bit < BITS {
        // Inverting `padded`: 2 * bit is 9 * rank + file, or one more than that.
        let rank = (2 * bit) / 9;
        let file = 2 * bit - 9 * rank;
        if file < 8 {
            if let Some(sq) = Square::new(file, rank) {
                table[bit as usize] = sq;
            }
        }
        bit += 1;
    }
    table
};

/// The padded bit of `sq`, or `None` when it is not a dark square of the 8x8 board.
pub(super) fn bit_of(sq: Square) -> Option<u8> {
    let (file, rank) = (sq.file_index(), sq.rank_index());
    (file < 8 && rank < 8 && (file + rank) % 2 == 0).then(|| padded(file, rank))
}

/// The square one step from `bit` in direction `dir`, if it is on the board.
#[inline]
pub(super) fn step(bit: u8, dir: i8) -> Option<u8> {
    let to = bit.wrapping_add_signed(dir);
    (to < BITS && VALID >> to & 1 != 0).then_some(to)
}

/// Every bit of `board` moved by `dir` (positive is up the board), kept on the board.
#[inline]
pub(super) fn shift(board: u64, dir: i8) -> u64 {
    let moved = if dir >= 0 { board << dir } else { board >> -dir };
    moved & VALID
}

/// The index (0 for white, 1 for black) of a side in the per-colour arrays.
#[inline]
pub(super) const fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Why a square cannot hold a draughts piece, or `None` if it can.
pub(super) fn square_problem(sq: Square) -> Option<String> {
    if sq.file_index() >= 8 || sq.rank_index() >= 8 {
        Some(format!("{sq} is off the 8x8 board"))
    } else if bit_of(sq).is_none() {
        Some(format!(
            "{sq} is a light square; draughts is played on the dark squares"
        ))
    } else {
        None
    }
}

/// The most pieces one move can capture, the capacity of [`DMove::captured`].
///
/// No sequence on an 8x8 board can capture more than 10 pieces: an exhaustive
/// search over every king route (pieces placed wherever a route needs them,
/// which only loosens the rules, and men's jumps being short king jumps) finds
/// no longer one. 12, one side's full set, leaves a margin; the generator also
/// stops extending a sequence at this length rather than overflow.
pub const MAX_CAPTURES: usize = 12;

// A capture's path (start plus one landing per capture) must fit in a notation path.
const _: () = assert!(MAX_CAPTURES < fgn_notation::action::MAX_PATH);

/// A legal draughts move, as [`DraughtsBoard::legal_moves`] lists it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DMove {
    /// The start square and every landing square: two squares for a plain
    /// move, one more than the number of captured pieces for a capture.
    pub path: Path,
    /// Whether a man became a king during the move (at its end, or on the far
    /// rank in the middle of a capture that then went on as a king's).
    pub promotes: bool,
    /// Whether the move captures (written with `:`).
    pub capture: bool,
    /// The captured pieces' squares in jump order; only the first `captured_len` count.
    captured: [Square; MAX_CAPTURES],
    /// How many pieces the move captures.
    captured_len: u8,
}

impl DMove {
    /// A move with the first `captured_len` entries of `captured` (at most
    /// [`MAX_CAPTURES`]; the generator guarantees it) as its captures.
    pub(super) fn new(
        path: Path,
        captured: [Square; MAX_CAPTURES],
        captured_len: usize,
        promotes: bool,
        capture: bool,
    ) -> DMove {
        DMove {
            path,
            promotes,
            capture,
            captured,
            captured_len: captured_len.min(MAX_CAPTURES) as u8,
        }
    }

    /// The squares of the captured pieces, in the order they were jumped
    /// (empty for a plain move). This is the order in which the world reveals
    /// the captured checkers' numbers.
    pub(crate) fn captured(&self) -> &[Square] {
        &self.captured[..usize::from(self.captured_len)]
    }

    /// The move as a notation action (`Action::Draughts`).
    pub(crate) fn action(&self) -> Action {
        Action::Draughts {
            path: self.path,
            capture: self.capture,
        }
    }
}

/// Writes the move in FGN: `c3-d4` for a plain move, `c3:e5:c7` for a capture.
impl fmt::Display for DMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.capture { ":" } else { "-" };
        for (i, sq) in self.path.squares().iter().enumerate() {
            if i > 0 {
                f.write_str(separator)?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// A Russian-draughts position: where the men and kings of both sides stand,
/// and whose move it is.
///
/// Every bitboard holds only playable squares, and the four are pairwise
/// disjoint; every constructor and setter keeps it so.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DraughtsBoard {
    /// Men of white (index 0) and black (index 1), in the padded layout.
    pub(super) men: [u64; 2],
    /// Kings of white and black, in the padded layout.
    pub(super) kings: [u64; 2],
    /// The side to move.
    pub(super) to_move: Color,
}

impl DraughtsBoard {
    /// The starting position: white men on ranks 1 to 3, black men on ranks 6
    /// to 8, white to move.
    pub(crate) fn start() -> DraughtsBoard {
        let row = |rank: u64| 0b1111u64 << (9 * rank).div_ceil(2);
        DraughtsBoard {
            men: [row(0) | row(1) | row(2), row(5) | row(6) | row(7)],
            kings: [0, 0],
            to_move: Color::White,
        }
    }

    /// A position with the given pieces and side to move.
    ///
    /// Fails, saying why, when a square is off the board or light, when two
    /// pieces share a square, or when a man stands on the rank where it would
    /// already have become a king.
    #[cfg(test)]
    pub(crate) fn from_pieces(
        white_men: &[Square],
        white_kings: &[Square],
        black_men: &[Square],
        black_kings: &[Square],
        to_move: Color,
    ) -> Result<DraughtsBoard, String> {
        let mut pos = DraughtsBoard {
            men: [0, 0],
            kings: [0, 0],
            to_move,
        };
        let groups = [
            (white_men, Color::White, false),
            (white_kings, Color::White, true),
            (black_men, Color::Black, false),
            (black_kings, Color::Black, true),
        ];
        for (squares, color, king) in groups {
            for &sq in squares {
                if pos.piece_at(sq).is_some() {
                    return Err(format!("two pieces on {sq}"));
                }
                pos.put(sq, color, king)?;
            }
        }
        Ok(pos)
    }

    /// The piece on `sq` as its colour and whether it is a king; `None` for an
    /// empty square or one that is not a dark square of the board.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<(Color, bool)> {
        let mask = 1u64 << bit_of(sq)?;
        [Color::White, Color::Black].into_iter().find_map(|color| {
            let s = side(color);
            if self.men[s] & mask != 0 {
                Some((color, false))
            } else if self.kings[s] & mask != 0 {
                Some((color, true))
            } else {
                None
            }
        })
    }

    /// The side to move.
    pub(crate) fn to_move(self) -> Color {
        self.to_move
    }

    /// How many pieces (men and kings) `color` has on the board.
    pub(crate) fn count(&self, color: Color) -> u32 {
        let s = side(color);
        (self.men[s] | self.kings[s]).count_ones()
    }

    /// Takes whatever piece stands on `sq` off the board and returns it (as in
    /// [`DraughtsBoard::piece_at`]); does nothing for an empty or unplayable square.
    pub(crate) fn remove(&mut self, sq: Square) -> Option<(Color, bool)> {
        let piece = self.piece_at(sq)?;
        if let Some(bit) = bit_of(sq) {
            let keep = !(1u64 << bit);
            for s in 0..2 {
                self.men[s] &= keep;
                self.kings[s] &= keep;
            }
        }
        Some(piece)
    }

    /// Puts a man or king of `color` on `sq`, replacing any piece there.
    ///
    /// Fails, leaving the position unchanged, when `sq` is not a dark square of
    /// the board, or when a man would stand on the far rank of its side (such a
    /// man is a king; pass `king = true` instead).
    pub(crate) fn put(&mut self, sq: Square, color: Color, king: bool) -> Result<(), String> {
        let Some(bit) = bit_of(sq) else {
            return Err(square_problem(sq).unwrap_or_else(|| format!("{sq} is not a playable square")));
        };
        let mask = 1u64 << bit;
        let far_rank = if color == Color::White { RANK_8 } else { RANK_1 };
        if !king && far_rank & mask != 0 {
            return Err(format!(
                "a {} man cannot stand on {sq}: on that rank it is a king",
                color.name()
            ));
        }
        self.remove(sq);
        let s = side(color);
        if king {
            self.kings[s] |= mask;
        } else {
            self.men[s] |= mask;
        }
        Ok(())
    }

    /// Makes `color` the side to move.
    pub(crate) fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// Plays `mv`, a move from [`DraughtsBoard::legal_moves`] of this position: the
    /// piece goes from the first square of the path to the last, the captured
    /// pieces leave the board (only now, at the end of the sequence), a
    /// promoted man becomes a king, and the other side is to move.
    ///
    /// A move that does not come from this position's legal moves is applied
    /// as far as it makes sense (squares that are not on the board are
    /// ignored); the result is then unspecified, but it is always a well-formed
    /// position and this never panics.
    pub(crate) fn play(&mut self, mv: &DMove) {
        let me = side(self.to_move);
        let them = 1 - me;
        let mut captured = 0u64;
        for &sq in mv.captured() {
            if let Some(bit) = bit_of(sq) {
                captured |= 1 << bit;
            }
        }
        self.men[them] &= !captured;
        self.kings[them] &= !captured;
        if let (Some(from), Some(to)) = (bit_of(mv.path.from()), bit_of(mv.path.to())) {
            let (from, to) = (1u64 << from, 1u64 << to);
            let was_king = self.kings[me] & from != 0;
            if was_king || self.men[me] & from != 0 {
                self.men[me] &= !from;
                self.kings[me] &= !from;
                // Clearing the target in every set keeps the bitboards disjoint even
                // for a move that did not come from `legal_moves`.
                for s in 0..2 {
                    self.men[s] &= !to;
                    self.kings[s] &= !to;
                }
                if was_king || mv.promotes {
                    self.kings[me] |= to;
                } else {
                    self.men[me] |= to;
                }
            }
        }
        self.to_move = self.to_move.opponent();
    }
}

/// Writes the squares of `men` and `kings` as the fixture files do, `K`
/// before kings, or `-` for none.
fn write_pieces(f: &mut fmt::Formatter<'_>, men: u64, kings: u64) -> fmt::Result {
    let mut all = men | kings;
    if all == 0 {
        return f.write_str("-");
    }
    let mut first = true;
    while all != 0 {
        let bit = all.trailing_zeros() as u8;
        all &= all - 1;
        if !first {
            f.write_str(",")?;
        }
        first = false;
        if kings >> bit & 1 != 0 {
            f.write_str("K")?;
        }
        write!(f, "{}", SQUARE_OF[usize::from(bit)])?;
    }
    Ok(())
}

/// Writes the position as `side=w ; white=a1,c1,Kd4 ; black=-`, squares in
/// rank order (rank 1 first, files `a`.. within a rank).
impl fmt::Display for DraughtsBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "side={} ; white=", self.to_move)?;
        write_pieces(f, self.men[0], self.kings[0])?;
        f.write_str(" ; black=")?;
        write_pieces(f, self.men[1], self.kings[1])
    }
}
