//! The survival-chess board for sizes up to 8x8 (the 8x8 of the classical
//! game among them): bitboards, one `u64` per piece kind and per side.
//!
//! Squares are numbered `rank * 8 + file` on an 8x8 grid whatever the board
//! size; a smaller board is the lower-left part of the grid, and `on` says
//! which squares belong to it. The squares off the board are treated as
//! occupied when a slider's line is traced (a rectangle holds every line
//! that leaves it, so the line stops at its edge) and are masked out of
//! every target set, so one set of tables serves every size that fits.
//!
//! Replay asks three questions after every ply, and each is a handful of
//! word operations here: is this move legal (the king's square is tested
//! for attackers on the occupancy after the move), does it give check (the
//! same test for the other king), and has the side to move any legal move
//! (pinned pieces found once, from the king's lines; then the first piece
//! that is not pinned and has a target settles it). A cell array beside the
//! bitboards answers "what stands on this square" without a search, and
//! uses the codes of `pieces.rs`, so that the mailbox and these bitboards
//! share [`Undo`].
//!
//! Replay plays a valid move in one call, [`Bits::play_checked`]: every
//! check of the move done once on the piece looked up once, the move
//! made, then check and legal-move existence for the opponent. It refuses
//! anything else with the board untouched, and the engine's general path
//! (the separate questions above) finds and words the fault.
//!
//! What the call costs was measured with callgrind and kept where it paid:
//! the checkers of the move are found once (the piece that moved, and a
//! slider uncovered through the square it left) and passed on, so that
//! legal-move existence never traces the king's lines again for them; out
//! of check, the pieces on no line of the king (which no pin can hold)
//! are tried first with shifts of whole sets (pawn steps and captures,
//! the squares next to sliders, knight steps), and only when none has a
//! move are pins worked out, from the king's lines on the empty grid; a
//! slider's ray stops at a sentinel blocker instead of branching on an
//! empty line; a move changes the sets of its two pieces by both squares
//! at once.

use fgn_notation::{BoardSize, Check, ChessMove, Color, PieceKind, Square};

use super::pieces::{
    color_code, decode, kind_code, side, Move, Piece, Undo, BISHOP_DIRS, COLOR_BIT, EMPTY, KIND_MASK, KING_STEPS,
    KNIGHT_STEPS, ROOK_DIRS, UNMOVED_BIT,
};

/// The kind codes of `pieces.rs`, as indices of [`Bits::kinds`].
const KING: usize = 1;
const QUEEN: usize = 2;
const ROOK: usize = 3;
const BISHOP: usize = 4;
const KNIGHT: usize = 5;
const PAWN: usize = 6;

/// The eight directions of the lines (file step, rank step): north, east,
/// south, west, then north-east, south-east, south-west, north-west.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];
/// Whether a direction goes to higher square numbers (so that its first
/// square is the lowest set bit of a line).
const ASCENDING: [bool; 8] = [true, true, false, false, true, false, false, true];
const ROOK_LINES: [usize; 4] = [0, 1, 2, 3];
const BISHOP_LINES: [usize; 4] = [4, 5, 6, 7];

const fn on_grid(file: i32, rank: i32) -> bool {
    file >= 0 && file < 8 && rank >= 0 && rank < 8
}

/// Every square beyond each square in each direction, to the grid's edge.
static RAYS: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if !on_grid(f, r) {
                    break;
                }
                t[d][sq] |= 1 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    t
};

/// The squares reached by single steps of `steps` from each square.
const fn step_table<const N: usize>(steps: [(i8, i8); N]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < N {
            let (f, r) = ((sq % 8) as i32 + steps[i].0 as i32, (sq / 8) as i32 + steps[i].1 as i32);
            if on_grid(f, r) {
                t[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

const KNIGHT_TARGETS: [u64; 64] = step_table(KNIGHT_STEPS);
const KING_TARGETS: [u64; 64] = step_table(KING_STEPS);

/// The squares a pawn of each side (white, black) on each square attacks.
const PAWN_ATTACKS: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut s = 0;
        while s < 2 {
            let fwd = if s == 0 { 1 } else { -1 };
            if on_grid(f - 1, r + fwd) {
                t[s][sq] |= 1 << ((r + fwd) * 8 + f - 1);
            }
            if on_grid(f + 1, r + fwd) {
                t[s][sq] |= 1 << ((r + fwd) * 8 + f + 1);
            }
            s += 1;
        }
        sq += 1;
    }
    t
};

/// The squares strictly between two squares on one line (empty when they
/// share none).
static BETWEEN: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
            let mut passed = 0u64;
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if !on_grid(f, r) {
                    break;
                }
                let b = (r * 8 + f) as usize;
                t[a][b] = passed;
                passed |= 1 << b;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// The direction (an index of [`DIRECTIONS`]) from one square to another
/// on a line with it, or [`NO_LINE`].
static DIRECTION: [[u8; 64]; 64] = {
    let mut t = [[NO_LINE; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if !on_grid(f, r) {
                    break;
                }
                t[a][(r * 8 + f) as usize] = d as u8;
            }
            d += 1;
        }
        a += 1;
    }
    t
};
const NO_LINE: u8 = 8;

/// The single steps along a rook's lines, then a bishop's: a slider has a
/// move to some square that is empty or an enemy's exactly when it has one
/// to such a square next to it.
static ROOK_STEPS_FROM: [u64; 64] = step_table(ROOK_DIRS);
static BISHOP_STEPS_FROM: [u64; 64] = step_table(BISHOP_DIRS);

/// Every square on a rook's lines, then a bishop's, from each square of the
/// empty grid.
const ROOK_LINES_FROM: [u64; 64] = lines_from(ROOK_LINES);
const BISHOP_LINES_FROM: [u64; 64] = lines_from(BISHOP_LINES);

const fn lines_from(dirs: [usize; 4]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRECTIONS[dirs[i]].0;
                r += DIRECTIONS[dirs[i]].1;
                if !on_grid(f, r) {
                    break;
                }
                t[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Every square on a line (straight or diagonal) with each square: only a
/// piece there can be pinned to a king on the square, or uncover a check
/// of it.
static LINES_FROM: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = ROOK_LINES_FROM[sq] | BISHOP_LINES_FROM[sq];
        sq += 1;
    }
    t
};

#[inline]
fn lines_through(sq: usize) -> u64 {
    LINES_FROM[sq]
}

/// The line of `d` from `sq` up to and including the first square of
/// `blockers` on it.
#[inline]
fn ray(d: usize, sq: usize, blockers: u64) -> u64 {
    // A sentinel blocker on the last square of the grid in the direction
    // (h8 going up, a1 going down), from which the ray is empty, stands in
    // for "no blocker": the line is then kept whole, without a branch.
    let line = RAYS[d][sq];
    let first = if ASCENDING[d] {
        (line & blockers | 1 << 63).trailing_zeros()
    } else {
        63 - (line & blockers | 1).leading_zeros()
    };
    line ^ RAYS[d][first as usize]
}

#[inline]
fn rook_attacks(sq: usize, blockers: u64) -> u64 {
    ROOK_LINES.iter().fold(0, |a, &d| a | ray(d, sq, blockers))
}

#[inline]
fn bishop_attacks(sq: usize, blockers: u64) -> u64 {
    BISHOP_LINES.iter().fold(0, |a, &d| a | ray(d, sq, blockers))
}

/// The squares of a set, lowest first.
fn squares(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            sq
        })
    })
}

#[inline]
fn index(sq: Square) -> usize {
    usize::from(sq.rank_index()) * 8 + usize::from(sq.file_index())
}

fn square(i: usize) -> Square {
    Square::new((i % 8) as u8, (i / 8) as u8).expect("grid squares are on the notation's board")
}

/// A board of at most 8 files and 8 ranks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct Bits {
    size: BoardSize,
    /// The squares of the board.
    on: u64,
    /// The code of each square's piece (`EMPTY` when none).
    cells: [u8; 64],
    /// The squares of each side's pieces (white, black).
    colors: [u64; 2],
    /// The squares of each kind of piece, by kind code (index 0 unused).
    kinds: [u64; 7],
    /// The pawns that have not moved since setup (they may double-step).
    unmoved: u64,
}

impl Bits {
    /// An empty board of `size`, which must be at most 8x8.
    pub(super) fn empty(size: BoardSize) -> Bits {
        debug_assert!(Bits::fits(size));
        let mut on = 0;
        for r in 0..size.ranks {
            for f in 0..size.files {
                on |= 1u64 << (r * 8 + f);
            }
        }
        Bits {
            size,
            on,
            cells: [EMPTY; 64],
            colors: [0; 2],
            kinds: [0; 7],
            unmoved: 0,
        }
    }

    /// Whether a board of `size` fits in the bitboards.
    pub(super) fn fits(size: BoardSize) -> bool {
        size.files <= 8 && size.ranks <= 8
    }

    pub(super) fn size(&self) -> BoardSize {
        self.size
    }

    pub(super) fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[index(sq)])
    }

    pub(super) fn is_unmoved_pawn(&self, sq: Square) -> bool {
        self.unmoved & (1 << index(sq)) != 0
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    fn king_index(&self, me: usize) -> Option<usize> {
        let k = self.kinds[KING] & self.colors[me];
        (k != 0).then(|| k.trailing_zeros() as usize)
    }

    /// Puts the piece with `code` on the empty square `i`.
    #[inline]
    fn set(&mut self, i: usize, code: u8) {
        let b = 1u64 << i;
        self.cells[i] = code;
        self.colors[usize::from(code & COLOR_BIT != 0)] |= b;
        self.kinds[usize::from(code & KIND_MASK)] |= b;
        if code & UNMOVED_BIT != 0 {
            self.unmoved |= b;
        }
    }

    /// Empties square `i`; returns the code of what stood there.
    #[inline]
    fn take(&mut self, i: usize) -> u8 {
        let code = self.cells[i];
        if code != EMPTY {
            let b = !(1u64 << i);
            self.cells[i] = EMPTY;
            self.colors[usize::from(code & COLOR_BIT != 0)] &= b;
            self.kinds[usize::from(code & KIND_MASK)] &= b;
            self.unmoved &= b;
        }
        code
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece, unmoved: bool) {
        let i = index(sq);
        self.take(i);
        let mut code = kind_code(piece.kind) | color_code(piece.color);
        if unmoved && piece.kind == PieceKind::Pawn {
            code |= UNMOVED_BIT;
        }
        self.set(i, code);
    }

    pub(super) fn clear(&mut self, sq: Square) {
        self.take(index(sq));
    }

    pub(super) fn king(&self, color: Color) -> Option<Square> {
        self.king_index(side(color)).map(square)
    }

    /// Whether a piece of side `by` attacks square `t` when the squares of
    /// `occupied` are taken, leaving out the pieces on `ignored` (a piece
    /// just captured).
    #[inline]
    fn attacked(&self, t: usize, by: usize, occupied: u64, ignored: u64) -> bool {
        let them = self.colors[by] & !ignored;
        let k = &self.kinds;
        // A pawn of `by` attacks `t` from where a pawn of the other side on `t` would attack.
        if (PAWN_ATTACKS[1 - by][t] & k[PAWN] | KNIGHT_TARGETS[t] & k[KNIGHT] | KING_TARGETS[t] & k[KING]) & them != 0 {
            return true;
        }
        let blockers = occupied | !self.on;
        let straight = (k[ROOK] | k[QUEEN]) & them;
        if straight != 0 && rook_attacks(t, blockers) & straight != 0 {
            return true;
        }
        let diagonal = (k[BISHOP] | k[QUEEN]) & them;
        diagonal != 0 && bishop_attacks(t, blockers) & diagonal != 0
    }

    /// The pieces of side `by` that attack square `t`.
    #[inline]
    fn attackers(&self, t: usize, by: usize) -> u64 {
        let k = &self.kinds;
        let blockers = self.occupied() | !self.on;
        (PAWN_ATTACKS[1 - by][t] & k[PAWN]
            | KNIGHT_TARGETS[t] & k[KNIGHT]
            | KING_TARGETS[t] & k[KING]
            | rook_attacks(t, blockers) & (k[ROOK] | k[QUEEN])
            | bishop_attacks(t, blockers) & (k[BISHOP] | k[QUEEN]))
            & self.colors[by]
    }

    /// The sliders (of both sides) that move along direction `d`.
    #[inline]
    fn sliders_along(&self, d: usize) -> u64 {
        let k = &self.kinds;
        if d < 4 {
            k[ROOK] | k[QUEEN]
        } else {
            k[BISHOP] | k[QUEEN]
        }
    }

    pub(super) fn in_check(&self, color: Color) -> bool {
        let me = side(color);
        self.king_index(me)
            .is_some_and(|k| self.attacked(k, 1 - me, self.occupied(), 0))
    }

    /// The squares the piece (not a pawn) with `code` on `from` attacks on
    /// this board, own pieces' squares included.
    #[inline]
    fn piece_attacks(&self, from: usize, code: u8) -> u64 {
        let blockers = self.occupied() | !self.on;
        let set = match usize::from(code & KIND_MASK) {
            KING => KING_TARGETS[from],
            KNIGHT => KNIGHT_TARGETS[from],
            ROOK => rook_attacks(from, blockers),
            BISHOP => bishop_attacks(from, blockers),
            _ => rook_attacks(from, blockers) | bishop_attacks(from, blockers),
        };
        set & self.on
    }

    /// Where the pawn on `from` of side `me` may go: steps to empty squares
    /// (two from its setup square) and captures.
    #[inline]
    fn pawn_targets(&self, from: usize, me: usize) -> u64 {
        let empty = !self.occupied() & self.on;
        let b = 1u64 << from;
        let (one, two) = if me == 0 {
            let one = (b << 8) & empty;
            (one, ((one & (self.unmoved << 8)) << 8) & empty)
        } else {
            let one = (b >> 8) & empty;
            (one, ((one & (self.unmoved >> 8)) >> 8) & empty)
        };
        one | two | PAWN_ATTACKS[me][from] & self.colors[1 - me]
    }

    /// Every target of the piece on `from`, own pieces' squares excluded.
    #[inline]
    fn targets(&self, from: usize) -> u64 {
        let code = self.cells[from];
        let me = usize::from(code & COLOR_BIT != 0);
        if usize::from(code & KIND_MASK) == PAWN {
            self.pawn_targets(from, me)
        } else {
            self.piece_attacks(from, code) & !self.colors[me]
        }
    }

    /// Whether moving the piece on `from` to `to` leaves its side's king
    /// unattacked (a side without a king is never attacked).
    #[inline]
    fn king_safe_after(&self, from: usize, to: usize) -> bool {
        let code = self.cells[from];
        let me = usize::from(code & COLOR_BIT != 0);
        let king = if usize::from(code & KIND_MASK) == KING {
            to
        } else {
            match self.king_index(me) {
                Some(k) => k,
                None => return true,
            }
        };
        let occupied = (self.occupied() & !(1 << from)) | 1 << to;
        !self.attacked(king, 1 - me, occupied, 1 << to)
    }

    /// The pieces of side `me` pinned to its king: the only piece between
    /// the king and an enemy slider on the slider's line.
    #[inline]
    fn pinned(&self, me: usize) -> u64 {
        let Some(king) = self.king_index(me) else {
            return 0;
        };
        let k = &self.kinds;
        let them = self.colors[1 - me];
        // The king's lines on the empty grid: no piece stands off the board,
        // so the part of a line beyond the board's edge holds no slider.
        let snipers =
            (ROOK_LINES_FROM[king] & (k[ROOK] | k[QUEEN]) | BISHOP_LINES_FROM[king] & (k[BISHOP] | k[QUEEN])) & them;
        let occupied = self.occupied();
        let mut pinned = 0;
        for s in squares(snipers) {
            let between = BETWEEN[king][s] & occupied;
            if between.count_ones() == 1 {
                pinned |= between & self.colors[me];
            }
        }
        pinned
    }

    /// Moves the piece on `from` to `to` (taking what stands there, and
    /// becoming `promotion` when given); the piece's sets change by the two
    /// squares at once, since both codes are known.
    #[inline]
    pub(super) fn make(&mut self, from: usize, to: usize, promotion: Option<PieceKind>) -> Undo {
        let (moved, captured) = (self.cells[from], self.cells[to]);
        let landed = match promotion {
            Some(p) => kind_code(p) | (moved & COLOR_BIT),
            None => moved & !UNMOVED_BIT,
        };
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        if captured != EMPTY {
            self.colors[usize::from(captured & COLOR_BIT != 0)] &= !to_bit;
            self.kinds[usize::from(captured & KIND_MASK)] &= !to_bit;
        }
        self.cells[from] = EMPTY;
        self.cells[to] = landed;
        self.colors[usize::from(moved & COLOR_BIT != 0)] ^= from_bit | to_bit;
        self.kinds[usize::from(moved & KIND_MASK)] &= !from_bit;
        self.kinds[usize::from(landed & KIND_MASK)] |= to_bit;
        // The piece that landed has moved, and the one taken is gone.
        self.unmoved &= !(from_bit | to_bit);
        Undo {
            from,
            to,
            moved,
            captured,
        }
    }

    #[inline]
    pub(super) fn unmake(&mut self, u: Undo) {
        self.take(u.to);
        self.set(u.from, u.moved);
        if u.captured != EMPTY {
            self.set(u.to, u.captured);
        }
    }

    pub(super) fn make_move(&mut self, m: Move) -> Undo {
        self.make(index(m.from), index(m.to), m.promotion)
    }

    pub(super) fn unmake_move(&mut self, undo: Undo) {
        self.unmake(undo);
    }

    #[inline]
    fn far_rank(&self, me: usize) -> u8 {
        if me == 0 {
            self.size.ranks - 1
        } else {
            0
        }
    }

    /// Calls `f` with every pseudo-legal move of the piece on `from`, in the
    /// mailbox's order (pawn steps, then captures to the lower and the
    /// higher file; steps and lines in the order of `pieces.rs`'s tables),
    /// so that both boards list a position's moves alike.
    fn each_move(&self, from: usize, f: &mut impl FnMut(usize, Option<PieceKind>)) {
        let code = self.cells[from];
        let me = usize::from(code & COLOR_BIT != 0);
        let kind = usize::from(code & KIND_MASK);
        let targets = self.targets(from);
        let (file, rank) = ((from % 8) as i32, (from / 8) as i32);
        let far = i32::from(self.far_rank(me));
        // Emits the move to the square (df, dr) away if it is a target;
        // says whether it was.
        let mut emit = |df: i32, dr: i32| {
            let (tf, tr) = (file + df, rank + dr);
            if !on_grid(tf, tr) || targets & (1 << (tr * 8 + tf)) == 0 {
                return false;
            }
            let to = (tr * 8 + tf) as usize;
            if kind == PAWN && tr == far {
                for p in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight] {
                    f(to, Some(p));
                }
            } else {
                f(to, None);
            }
            true
        };
        match kind {
            PAWN => {
                let fwd = if me == 0 { 1 } else { -1 };
                for (df, dr) in [(0, fwd), (0, 2 * fwd), (-1, fwd), (1, fwd)] {
                    emit(df, dr);
                }
            }
            KING | KNIGHT => {
                for (df, dr) in if kind == KING { KING_STEPS } else { KNIGHT_STEPS } {
                    emit(i32::from(df), i32::from(dr));
                }
            }
            _ => {
                let lines = [(ROOK_DIRS, kind != BISHOP), (BISHOP_DIRS, kind != ROOK)];
                for (df, dr) in lines.into_iter().filter(|l| l.1).flat_map(|l| l.0) {
                    let mut n = 1;
                    while emit(i32::from(df) * n, i32::from(dr) * n) {
                        n += 1;
                    }
                }
            }
        }
    }

    fn legal_moves_of(&self, from: usize, out: &mut Vec<Move>) {
        self.each_move(from, &mut |to, promotion| {
            if self.king_safe_after(from, to) {
                out.push(Move {
                    from: square(from),
                    to: square(to),
                    promotion,
                });
            }
        });
    }

    pub(super) fn legal_moves(&self, color: Color) -> Vec<Move> {
        let mut out = Vec::new();
        for from in squares(self.colors[side(color)]) {
            self.legal_moves_of(from, &mut out);
        }
        out
    }

    pub(super) fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        let mut out = Vec::new();
        if self.cells[index(from)] != EMPTY {
            self.legal_moves_of(index(from), &mut out);
        }
        out
    }

    pub(super) fn has_legal_move(&mut self, color: Color) -> bool {
        let in_check = self.in_check(color);
        self.has_legal_move_in(color, in_check)
    }

    /// Whether `color` has a legal move, `in_check` saying whether its king
    /// is attacked now.
    #[inline]
    pub(super) fn has_legal_move_in(&mut self, color: Color, in_check: bool) -> bool {
        let me = side(color);
        let checkers = match self.king_index(me) {
            Some(k) if in_check => self.attackers(k, 1 - me),
            _ => 0,
        };
        self.any_legal_move(me, checkers)
    }

    /// Whether side `me` has a legal move, `checkers` being the pieces that
    /// attack its king now. Out of check, a piece that is not pinned may
    /// make any of its moves, and the pieces on no line of the king cannot
    /// be pinned: they usually have a move, found with a few shifts of whole
    /// sets before any pin is worked out. In check against one piece, the
    /// pieces that are not pinned may make those moves that capture the
    /// checker or step onto its line; against two, only the king may move.
    /// The king's steps and the pinned pieces' moves are each tested
    /// against the attacks on the king after them.
    #[inline]
    fn any_legal_move(&self, me: usize, checkers: u64) -> bool {
        let own = self.colors[me];
        let Some(k) = self.king_index(me) else {
            // Without a king nothing is pinned and every target will do.
            return self.any_target(me, own, !own & self.on);
        };
        let king_bit = 1u64 << k;
        let on_lines = lines_through(k);
        if checkers == 0 && self.any_free_move(me, own & !on_lines & !king_bit) {
            return true;
        }
        let answers = if checkers == 0 {
            !own & self.on
        } else if checkers & (checkers - 1) == 0 {
            checkers | BETWEEN[k][checkers.trailing_zeros() as usize]
        } else {
            0
        };
        let pinned = self.pinned(me);
        // Out of check, the pieces off the king's lines have had their turn.
        let free = own & !pinned & !king_bit & if checkers == 0 { on_lines } else { !0 };
        if answers != 0 && self.any_target(me, free, answers) {
            return true;
        }
        let occupied = self.occupied() & !king_bit;
        for to in squares(KING_TARGETS[k] & self.on & !own) {
            if !self.attacked(to, 1 - me, occupied, 1 << to) {
                return true;
            }
        }
        squares(pinned).any(|from| squares(self.targets(from) & answers).any(|to| self.king_safe_after(from, to)))
    }

    /// Whether one of the pieces of `free` (of side `me`, out of check, none
    /// of them its king, none pinned) has a move: a pawn's step or capture,
    /// a slider's or a knight's step to a square that is not its side's (a
    /// slider that can go anywhere can go to a square next to it), all
    /// worked out on whole sets by shifts.
    #[inline]
    fn any_free_move(&self, me: usize, free: u64) -> bool {
        let own = self.colors[me];
        let open = !own & self.on;
        let empty = open & !self.colors[1 - me];
        let k = &self.kinds;
        let pawns = free & k[PAWN];
        let (steps, captures) = if me == 0 {
            (pawns << 8, ((pawns & !FILE_H) << 9 | (pawns & !FILE_A) << 7))
        } else {
            (pawns >> 8, ((pawns & !FILE_A) >> 9 | (pawns & !FILE_H) >> 7))
        };
        if steps & empty | captures & open & !empty != 0 {
            return true;
        }
        let straight = free & (k[ROOK] | k[QUEEN]);
        let diagonal = free & (k[BISHOP] | k[QUEEN]);
        let next = straight << 8
            | straight >> 8
            | (straight & !FILE_H) << 1
            | (straight & !FILE_A) >> 1
            | (diagonal & !FILE_H) << 9
            | (diagonal & !FILE_A) << 7
            | (diagonal & !FILE_H) >> 7
            | (diagonal & !FILE_A) >> 9;
        next & open != 0 || squares(free & k[KNIGHT]).any(|from| KNIGHT_TARGETS[from] & open != 0)
    }

    /// Whether one of the pieces of `free` (of side `me`, none of them its
    /// king, none pinned) has a target among `answers`.
    #[inline]
    fn any_target(&self, me: usize, free: u64, answers: u64) -> bool {
        let empty = !self.occupied() & self.on;
        let pawns = free & self.kinds[PAWN];
        // All the pawns' steps and captures at once, as shifted sets.
        let (one, two, captures) = if me == 0 {
            let one = (pawns << 8) & empty;
            let two = ((one & (self.unmoved << 8)) << 8) & empty;
            let caps = ((pawns & !FILE_H) << 9 | (pawns & !FILE_A) << 7) & self.colors[1];
            (one, two, caps)
        } else {
            let one = (pawns >> 8) & empty;
            let two = ((one & (self.unmoved >> 8)) >> 8) & empty;
            let caps = ((pawns & !FILE_A) >> 9 | (pawns & !FILE_H) >> 7) & self.colors[0];
            (one, two, caps)
        };
        if (one | two | captures) & answers != 0 {
            return true;
        }
        let k = &self.kinds;
        if answers == !self.colors[me] & self.on {
            // Every square not the mover's: the squares next to a piece settle it.
            if (k[KNIGHT] & free) != 0 && squares(k[KNIGHT] & free).any(|from| KNIGHT_TARGETS[from] & answers != 0) {
                return true;
            }
            let straight = free & (k[ROOK] | k[QUEEN]);
            let diagonal = free & (k[BISHOP] | k[QUEEN]);
            return squares(straight).any(|from| ROOK_STEPS_FROM[from] & answers != 0)
                || squares(diagonal).any(|from| BISHOP_STEPS_FROM[from] & answers != 0);
        }
        squares(free & !k[PAWN]).any(|from| self.piece_attacks(from, self.cells[from]) & answers != 0)
    }

    #[inline]
    pub(super) fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (index(m.from), index(m.to));
        let (code, to_bit) = (self.cells[from], 1u64 << to);
        let me = usize::from(code & COLOR_BIT != 0);
        if code == EMPTY || self.colors[me] & to_bit != 0 || self.on & to_bit == 0 {
            return false;
        }
        // A slider reaches a square on its lines when nothing stands between.
        let clear = BETWEEN[from][to] & self.occupied() == 0;
        let reaches = match usize::from(code & KIND_MASK) {
            PAWN => {
                let promotes = m.to.rank_index() == self.far_rank(me);
                return self.pawn_targets(from, me) & to_bit != 0 && promotes == m.promotion.is_some();
            }
            KING => KING_TARGETS[from] & to_bit != 0,
            KNIGHT => KNIGHT_TARGETS[from] & to_bit != 0,
            ROOK => ROOK_LINES_FROM[from] & to_bit != 0 && clear,
            BISHOP => BISHOP_LINES_FROM[from] & to_bit != 0 && clear,
            _ => lines_through(from) & to_bit != 0 && clear,
        };
        reaches && m.promotion.is_none()
    }

    /// After a move from `from` to `to` has been played: whether it checks
    /// the other king.
    #[inline]
    pub(super) fn gives_check(&self, from: Square, to: Square) -> bool {
        self.checkers_after(index(from), index(to)) != 0
    }

    /// After a move from `from` to `to` has been played: the mover's pieces
    /// that attack the other king, which are the piece now on `to` and a
    /// slider of the mover through the square `from` left. (The other king
    /// was not attacked before the move, so no other attack on it can be
    /// new.)
    #[inline]
    fn checkers_after(&self, from: usize, to: usize) -> u64 {
        let code = self.cells[to];
        let me = usize::from(code & COLOR_BIT != 0);
        let Some(king) = self.king_index(1 - me) else {
            return 0;
        };
        let (king_bit, occupied) = (1u64 << king, self.occupied());
        let slider_reaches = |lines: &[u64; 64]| lines[to] & king_bit != 0 && BETWEEN[to][king] & occupied == 0;
        let direct = match usize::from(code & KIND_MASK) {
            PAWN => PAWN_ATTACKS[me][to] & king_bit != 0,
            KNIGHT => KNIGHT_TARGETS[to] & king_bit != 0,
            KING => KING_TARGETS[to] & king_bit != 0,
            ROOK => slider_reaches(&ROOK_LINES_FROM),
            BISHOP => slider_reaches(&BISHOP_LINES_FROM),
            _ => slider_reaches(&LINES_FROM),
        };
        let direct = if direct { 1u64 << to } else { 0 };
        // Uncovered: the first piece from the king through `from` is a
        // slider of the mover along that line.
        let d = usize::from(DIRECTION[king][from]);
        if d == usize::from(NO_LINE) {
            return direct;
        }
        direct | ray(d, king, occupied | !self.on) & self.colors[me] & self.sliders_along(d)
    }

    /// Plays `m`, a move of `color` (whose king is attacked when
    /// `in_check`), when replay finds nothing wrong with it: both squares on
    /// the board, a piece of `color` of the written kind on the first, a
    /// promotion exactly when a pawn reaches the far rank, a pseudo-legal
    /// and legal move, `x` exactly on a capture, and its `+`/`#` marker (or
    /// none) true of the position after it. Returns whether it checks the
    /// opponent, whether the opponent then has no legal move, and whether
    /// that was assumed rather than worked out: with `assume_moves`, a move
    /// not marked `#` leaves the opponent's moves alone and takes it that
    /// the opponent has one (the caller proves it, see
    /// [`crate::game::Game::play_valid`]).
    ///
    /// `None` for any other move, with the board untouched: the engine's
    /// general path then finds the fault and words it, so this one call
    /// holds only the checks, each done once on the bitboards (the general
    /// path asks the board several questions, each working out the squares
    /// and the piece again).
    #[inline]
    pub(super) fn play_checked(
        &mut self,
        color: Color,
        m: &ChessMove,
        in_check: bool,
        assume_moves: bool,
    ) -> Option<(bool, bool, bool)> {
        let (from_sq, to_sq) = (m.from?, m.to?);
        // Both squares on the 8x8 grid, in one test: a file or rank of 8 or
        // more has a bit of 8 or more.
        if (from_sq.file_index() | from_sq.rank_index() | to_sq.file_index() | to_sq.rank_index()) >= 8 {
            return None;
        }
        let (from, to) = (index(from_sq), index(to_sq));
        let me = side(color);
        let code = self.cells[from];
        // A piece of the mover of the written kind (an empty square has no
        // kind, and a square off a smaller board is always empty).
        if code & (KIND_MASK | COLOR_BIT) != kind_code(m.piece) | color_code(color) {
            return None;
        }
        let to_bit = 1u64 << to;
        let occupied = self.occupied();
        if self.on & to_bit == 0 || self.colors[me] & to_bit != 0 || (occupied & to_bit != 0) != m.capture {
            return None;
        }
        let kind = usize::from(code & KIND_MASK);
        let promotion = if kind == PAWN && to_sq.rank_index() == self.far_rank(me) {
            Some(m.promotion.unwrap_or(PieceKind::Queen))
        } else if m.promotion.is_some() {
            return None;
        } else {
            None
        };
        // The geometry of `is_pseudo_legal`, for the piece already looked up.
        let reaches = match kind {
            PAWN => self.pawn_targets(from, me) & to_bit != 0,
            KING => KING_TARGETS[from] & to_bit != 0,
            KNIGHT => KNIGHT_TARGETS[from] & to_bit != 0,
            _ => {
                let lines = match kind {
                    ROOK => ROOK_LINES_FROM[from],
                    BISHOP => BISHOP_LINES_FROM[from],
                    _ => LINES_FROM[from],
                };
                lines & to_bit != 0 && BETWEEN[from][to] & occupied == 0
            }
        };
        if !reaches || !self.legal(from, to, kind, me, in_check) {
            return None;
        }
        let undo = self.make(from, to, promotion);
        let checkers = self.checkers_after(from, to);
        let check = checkers != 0;
        let assumed = assume_moves && m.check != Some(Check::Mate);
        let stuck = !assumed && !self.any_legal_move(1 - me, checkers);
        // No marker, `+` on a check that is no mate, `#` on a mate.
        let honest = matches!(
            (m.check, check, stuck),
            (None, _, _) | (Some(Check::Check), true, false) | (Some(Check::Mate), true, true)
        );
        if !honest {
            self.unmake(undo);
            return None;
        }
        Some((check, stuck, assumed))
    }

    #[inline]
    pub(super) fn is_legal_move(&mut self, m: Move, in_check: bool) -> bool {
        let (from, to) = (index(m.from), index(m.to));
        let code = self.cells[from];
        let me = usize::from(code & COLOR_BIT != 0);
        self.legal(from, to, usize::from(code & KIND_MASK), me, in_check)
    }

    /// Whether the pseudo-legal move from `from` to `to` of side `me`'s
    /// piece of `kind` leaves its king unattacked, `in_check` saying whether
    /// it is attacked now.
    #[inline(always)]
    fn legal(&self, from: usize, to: usize, kind: usize, me: usize, in_check: bool) -> bool {
        let Some(king) = self.king_index(me) else {
            return true;
        };
        if in_check || kind == KING {
            return self.king_safe_after(from, to);
        }
        // Out of check, a piece other than the king can only uncover an
        // attack along the line from its king through it: when it stands on
        // one and nothing stands between them, the first piece beyond it on
        // that line after the move must not be an enemy slider along the
        // line.
        let occupied = self.occupied();
        if lines_through(king) & (1 << from) == 0 || BETWEEN[king][from] & occupied != 0 {
            return true;
        }
        let d = usize::from(DIRECTION[king][from]);
        let to_bit = 1u64 << to;
        let after = (occupied & !(1 << from)) | to_bit | !self.on;
        ray(d, king, after) & self.colors[1 - me] & !to_bit & self.sliders_along(d) == 0
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::gen::rng::Rng;

    /// An 8x8 board, or if `small` a random one from 3x3 to 8x8.
    pub(in crate::games::survival_chess) fn board_size(small: bool, rng: &mut Rng) -> BoardSize {
        if small {
            BoardSize {
                files: 3 + rng.below(6) as u8,
                ranks: 3 + rng.below(6) as u8,
            }
        } else {
            BoardSize { files: 8, ranks: 8 }
        }
    }

    /// A crowded random position without kings on a board of `size`:
    /// each square taken with a chance between a third and two thirds, by
    /// either side, by pawns most of all (none on the first or last rank),
    /// each pawn unmoved or not at random.
    pub(in crate::games::survival_chess) fn crowded(size: BoardSize, rng: &mut Rng) -> Bits {
        let mut b = Bits::empty(size);
        let density = 3 + rng.below(4);
        for r in 0..size.ranks {
            for f in 0..size.files {
                if rng.below(9) >= density {
                    continue;
                }
                let kind = [
                    PieceKind::Queen,
                    PieceKind::Rook,
                    PieceKind::Bishop,
                    PieceKind::Knight,
                    PieceKind::Pawn,
                    PieceKind::Pawn,
                    PieceKind::Pawn,
                    PieceKind::Pawn,
                ][rng.below(8)];
                if kind == PieceKind::Pawn && (r == 0 || r == size.ranks - 1) {
                    continue;
                }
                let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
                let sq = Square::new(f, r).expect("on the board");
                b.put(sq, Piece { color, kind }, rng.below(2) == 0);
            }
        }
        b
    }

    #[test]
    fn set_shortcuts_agree_with_each_pieces_targets() {
        // `any_free_move` and `any_target` answer for a set of pieces at
        // once, with whole sets shifted a step in each direction: what the
        // legal-move search (mate, stalemate) asks first. Asked about one
        // piece, where a single wrong shift or mask changes the answer,
        // and about several, where two pieces reach one square, they must
        // agree with the pieces' own targets (`targets`, the move
        // generator's), in crowded positions where a piece often has one
        // way out or none, on 8x8 boards and smaller ones.
        let mut rng = Rng::new(3);
        let (mut with_targets, mut without) = (0, 0);
        for n in 0..3000 {
            let b = crowded(board_size(n % 4 == 2, &mut rng), &mut rng);
            for me in 0..2 {
                let own = b.colors[me];
                let every_target = |set: u64| squares(set).fold(0, |t, from| t | b.targets(from));
                let some = own & rng.next_u64();
                let singles = squares(own).map(|from| 1u64 << from);
                // Pairs too, in a sixth of the positions: two pieces that
                // reach the same square must not cancel each other out.
                let pairs = squares(own)
                    .flat_map(|a| squares(own).filter(move |&b| b > a).map(move |b| 1u64 << a | 1u64 << b))
                    .filter(|_| n % 2 == 0);
                for free in singles.chain(pairs).chain([own, some]) {
                    let targets = every_target(free);
                    if free.count_ones() == 1 {
                        if targets == 0 {
                            without += 1;
                        } else {
                            with_targets += 1;
                        }
                    }
                    let shown = format!("side {me}, pieces {free:#x}, in\n{b:?}");
                    assert_eq!(b.any_free_move(me, free), targets != 0, "{shown}");
                    let open = !own & b.on;
                    assert_eq!(b.any_target(me, free, open), targets & open != 0, "{shown}");
                    // Answers are never the mover's own squares (the
                    // search's are a checker and the squares between it and
                    // the king, or every square not the mover's).
                    let answers = rng.next_u64() & rng.next_u64() & open;
                    assert_eq!(
                        b.any_target(me, free, answers),
                        targets & answers != 0,
                        "{shown}, answers {answers:#x}"
                    );
                }
            }
        }
        assert!(
            without >= 5_000 && with_targets >= 30_000,
            "{without} pieces without a target, {with_targets} with"
        );
    }

    #[test]
    fn two_pieces_with_one_way_out_between_them_have_a_move() {
        // On a 3x3 board, the one square next to either of white's two
        // pieces that is open is next to both, from two sides: the search's
        // shifted sets of the two must add up there, not cancel. The
        // knights only stand in the way.
        let size = BoardSize { files: 3, ranks: 3 };
        let cases = [
            // Rooks on a1 and a3, a2 between them (up from one, down from the other).
            (
                &[
                    ("a1", PieceKind::Rook),
                    ("a3", PieceKind::Rook),
                    ("b1", PieceKind::Knight),
                    ("b3", PieceKind::Knight),
                ][..],
                ["a1", "a3"],
            ),
            // A rook on c2 (b2 to its left) and a bishop on a1 (b2 up and right).
            (
                &[
                    ("c2", PieceKind::Rook),
                    ("a1", PieceKind::Bishop),
                    ("c1", PieceKind::Knight),
                    ("c3", PieceKind::Knight),
                ][..],
                ["c2", "a1"],
            ),
        ];
        for (pieces, free) in cases {
            let mut b = Bits::empty(size);
            for &(at, kind) in pieces {
                b.put(
                    at.parse().unwrap(),
                    Piece {
                        color: Color::White,
                        kind,
                    },
                    false,
                );
            }
            let free = free.iter().fold(0, |set, at| set | 1u64 << index(at.parse().unwrap()));
            let targets = squares(free).fold(0, |t, from| t | b.targets(from));
            assert_ne!(targets, 0, "{pieces:?}");
            assert!(b.any_free_move(0, free), "{pieces:?}");
        }
    }
}
