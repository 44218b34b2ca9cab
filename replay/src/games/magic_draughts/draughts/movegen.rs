//! Legal move generation under the Russian rules, and perft.

use std::sync::LazyLock;

use fgn_notation::{Color, Path};

use super::board::{
    shift, side, step, DMove, DraughtsBoard, BLACK_FORWARD, DIRS, MAX_CAPTURES, RANK_1, RANK_8, SQUARE_OF, VALID,
    WHITE_FORWARD,
};

/// Iterates the set bits of a bitboard, lowest first.
#[derive(Debug)]
struct Bits(u64);

impl Iterator for Bits {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// The state of the depth-first search for the capture sequences of one piece.
///
/// A sequence is extended jump by jump; jumped pieces are recorded in a mask
/// but stay in `occupied`, because under the Russian rules they leave the board
/// only when the move is over: until then they block the way and may not be
/// jumped again.
struct CaptureSearch<'a> {
    /// Where finished moves go.
    out: &'a mut Vec<DMove>,
    /// Every piece on the board except the capturing one, whose start square
    /// is empty while it moves (it may pass over it or land on it again).
    occupied: u64,
    /// The opponent's pieces, jumped ones included.
    enemy: u64,
    /// The rank where a man of the mover becomes a king.
    far_rank: u64,
    /// The start square of the capturing piece.
    from: u8,
    /// The landing square of every jump so far.
    landings: [u8; MAX_CAPTURES],
    /// The square of the piece jumped in every jump so far.
    jumped: [u8; MAX_CAPTURES],
}

impl CaptureSearch<'_> {
    /// Continues the sequence of a man standing on `at` after `n` jumps that
    /// took the pieces in `captured`.
    fn man(&mut self, at: u8, n: usize, captured: u64) {
        let mut extended = false;
        // `n` never reaches MAX_CAPTURES (see its documentation); the check only
        // keeps the array writes below in bounds whatever the input.
        if n < MAX_CAPTURES {
            let victims = self.enemy & !captured;
            for dir in DIRS {
                let Some(over) = step(at, dir) else { continue };
                if victims >> over & 1 == 0 {
                    continue;
                }
                let Some(to) = step(over, dir) else { continue };
                if self.occupied >> to & 1 != 0 {
                    continue;
                }
                extended = true;
                self.landings[n] = to;
                self.jumped[n] = over;
                let captured = captured | 1 << over;
                // A man that reaches the far rank is a king at once and goes on
                // capturing as one within the same move.
                if self.far_rank >> to & 1 != 0 {
                    self.king(to, n + 1, captured, true);
                } else {
                    self.man(to, n + 1, captured);
                }
            }
        }
        if !extended && n > 0 {
            self.emit(n, false);
        }
    }

    /// Continues the sequence of a king standing on `at` after `n` jumps that
    /// took the pieces in `captured`; `promoted` says whether it began the
    /// move as a man.
    fn king(&mut self, at: u8, n: usize, captured: u64, promoted: bool) {
        let mut extended = false;
        if n < MAX_CAPTURES {
            let victims = self.enemy & !captured;
            for dir in DIRS {
                let Some(over) = self.first_piece(at, dir) else {
                    continue;
                };
                if victims >> over & 1 == 0 {
                    continue;
                }
                let captured = captured | 1 << over;
                // The landing squares are the empty ones beyond the victim, up to
                // the next piece or the edge; at most six on an 8x8 board.
                let mut landings = [0u8; 8];
                let mut count = 0;
                let mut continues = 0u8;
                let mut next = step(over, dir);
                while let Some(to) = next {
                    if self.occupied >> to & 1 != 0 {
                        break;
                    }
                    if self.king_can_capture(to, captured) {
                        continues |= 1 << count;
                    }
                    landings[count] = to;
                    count += 1;
                    next = step(to, dir);
                }
                for (i, &to) in landings[..count].iter().enumerate() {
                    // If the capture can go on from some landing square, the king
                    // must land on one of those; otherwise any landing square ends
                    // the move.
                    if continues != 0 && continues >> i & 1 == 0 {
                        continue;
                    }
                    extended = true;
                    self.landings[n] = to;
                    self.jumped[n] = over;
                    if continues == 0 {
                        self.emit(n + 1, promoted);
                    } else {
                        self.king(to, n + 1, captured, promoted);
                    }
                }
            }
        }
        if !extended && n > 0 {
            self.emit(n, promoted);
        }
    }

    /// The first occupied square from `at` in direction `dir`, if any before the edge.
    #[inline]
    fn first_piece(&self, at: u8, dir: i8) -> Option<u8> {
        let mut next = step(at, dir);
        while let Some(sq) = next {
            if self.occupied >> sq & 1 != 0 {
                return Some(sq);
            }
            next = step(sq, dir);
        }
        None
    }

    /// Whether a king on `at` could jump a piece not in `captured`.
    fn king_can_capture(&self, at: u8, captured: u64) -> bool {
        let victims = self.enemy & !captured;
        DIRS.into_iter().any(|dir| {
            self.first_piece(at, dir).is_some_and(|over| {
                victims >> over & 1 != 0 && step(over, dir).is_some_and(|to| self.occupied >> to & 1 == 0)
            })
        })
    }

    /// Records the finished sequence of the first `n` jumps as a move.
    fn emit(&mut self, n: usize, promotes: bool) {
        let start = SQUARE_OF[usize::from(self.from)];
        let mut squares = [start; MAX_CAPTURES + 1];
        let mut jumped = [start; MAX_CAPTURES];
        for i in 0..n {
            squares[i + 1] = SQUARE_OF[usize::from(self.landings[i])];
            jumped[i] = SQUARE_OF[usize::from(self.jumped[i])];
        }
        if let Some(path) = Path::new(&squares[..=n]) {
            self.out.push(DMove::new(path, jumped, n, promotes, true));
        }
    }
}

impl DraughtsBoard {
    /// Replaces the contents of `out` with every legal move of the side to
    /// move, under the Russian rules.
    ///
    /// Capturing is compulsory, so when any capture exists only captures are
    /// listed, each of them complete (a capturing piece jumps while it can).
    /// Any capture may be chosen, not only the longest. The order of the moves
    /// is deterministic but otherwise unspecified. No two moves have the same
    /// path: the path fixes every jumped piece, as each leg of a capture jumps
    /// exactly one piece along one diagonal.
    pub(crate) fn legal_moves(&self, out: &mut Vec<DMove>) {
        out.clear();
        self.append_legal_moves(out);
    }

    /// Appends the legal moves to `out`, leaving what was there.
    fn append_legal_moves(&self, out: &mut Vec<DMove>) {
        let me = side(self.to_move);
        let them = 1 - me;
        let (men, kings) = (self.men[me], self.kings[me]);
        let enemy = self.men[them] | self.kings[them];
        let occupied = men | kings | enemy;
        let empty = VALID & !occupied;
        let start = out.len();

        // Men with a capture are found for all men at once: a man can jump in
        // direction `dir` when the next square holds an enemy and the one after
        // that is empty.
        let mut capturing_men = 0;
        for dir in DIRS {
            capturing_men |= men & shift(enemy, -dir) & shift(empty, -2 * dir);
        }
        if capturing_men != 0 || kings != 0 {
            let mut search = CaptureSearch {
                out: &mut *out,
                occupied,
                enemy,
                far_rank: if self.to_move == Color::White { RANK_8 } else { RANK_1 },
                from: 0,
                landings: [0; MAX_CAPTURES],
                jumped: [0; MAX_CAPTURES],
            };
            for from in Bits(capturing_men) {
                search.from = from;
                search.occupied = occupied & !(1 << from);
                search.man(from, 0, 0);
            }
            for from in Bits(kings) {
                search.from = from;
                search.occupied = occupied & !(1 << from);
                search.king(from, 0, 0, false);
            }
        }
        if out.len() > start {
            return;
        }

        let paths = QUIET_PATHS.as_slice();
        let (forward, far_rank) = match self.to_move {
            Color::White => (WHITE_FORWARD, RANK_8),
            Color::Black => (BLACK_FORWARD, RANK_1),
        };
        for dir in forward {
            for to in Bits(shift(men, dir) & empty) {
                let from = to.wrapping_add_signed(-dir);
                out.extend(quiet_move(paths, from, to, far_rank >> to & 1 != 0));
            }
        }
        for from in Bits(kings) {
            for dir in DIRS {
                let mut next = step(from, dir);
                while let Some(to) = next {
                    if empty >> to & 1 == 0 {
                        break;
                    }
                    out.extend(quiet_move(paths, from, to, false));
                    next = step(to, dir);
                }
            }
        }
    }

    /// The number of move sequences of `depth` plies from this position (1 for
    /// depth 0), the standard check of a move generator.
    #[cfg(test)]
    pub(crate) fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        // One vector serves every level: each level appends its moves and
        // truncates them away when done, so the search allocates almost nothing.
        let mut stack = Vec::with_capacity(256);
        self.perft_with(depth, &mut stack)
    }

    /// [`DraughtsBoard::perft`] for `depth >= 1`, with the move stack of the levels above.
    #[cfg(test)]
    fn perft_with(&self, depth: u32, stack: &mut Vec<DMove>) -> u64 {
        let start = stack.len();
        self.append_legal_moves(stack);
        let count = stack.len() - start;
        if depth <= 1 {
            stack.truncate(start);
            return count as u64;
        }
        let mut total = 0;
        for i in start..start + count {
            let mut next = *self;
            next.play(&stack[i]);
            total += next.perft_with(depth - 1, stack);
        }
        stack.truncate(start);
        total
    }
}

/// The two-square path of every (from, to) pair of padded bits, `from * 36 + to`.
///
/// `Path::new` is an out-of-line call that fills and copies a 16-square
/// buffer; plain moves are most of all moves generated, and copying a ready
/// path instead roughly doubles the speed of move generation.
static QUIET_PATHS: LazyLock<Vec<Option<Path>>> = LazyLock::new(|| {
    let mut table = Vec::with_capacity(SQUARE_OF.len() * SQUARE_OF.len());
    for &from in &SQUARE_OF {
        for &to in &SQUARE_OF {
            table.push(Path::new(&[from, to]));
        }
    }
    table
});

/// A one-square man move or a king's slide from `from` to `to`, with `paths`
/// the [`QUIET_PATHS`] table. (It is always `Some` for bits on the board.)
#[inline]
fn quiet_move(paths: &[Option<Path>], from: u8, to: u8, promotes: bool) -> Option<DMove> {
    let path = (*paths.get(usize::from(from) * SQUARE_OF.len() + usize::from(to))?)?;
    Some(DMove::new(path, [path.from(); MAX_CAPTURES], 0, promotes, false))
}
