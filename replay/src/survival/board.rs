//! The survival-chess board: a padded mailbox for any W x H from 6x6 to 26x26.
//!
//! Why a mailbox and not bitboards: boards go up to 26x26 (676 squares), so a
//! bitboard would be several machine words and every shift a multi-word
//! operation. A mailbox with two rings of off-board sentinels needs no bounds
//! checks in move generation (knights jump at most two squares), handles
//! every size with the same code, and is fast enough: replay checks one given
//! move per ply rather than searching.

use std::fmt;

use fgn_notation::{BoardSize, Color, PieceKind, Square};

/// Off-board sentinel cell.
const OFF: u8 = 0xFF;
/// Empty cell.
const EMPTY: u8 = 0;
const COLOR_BIT: u8 = 0b1000;
/// A pawn that has not moved since setup (it may double-step).
const UNMOVED_BIT: u8 = 0b1_0000;
const KIND_MASK: u8 = 0b111;

fn kind_code(kind: PieceKind) -> u8 {
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

fn color_code(color: Color) -> u8 {
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
    from: usize,
    to: usize,
    moved: u8,
    captured: u8,
}

/// Words of the occupancy sets: (26 + 4)^2 = 900 cells at most.
const OCC_WORDS: usize = 15;

const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The board: pieces, which pawns may still double-step, and the kings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    size: BoardSize,
    stride: isize,
    cells: Vec<u8>,
    /// Cell index of each side's king (white, black); 0 when it has none.
    kings: [usize; 2],
    /// Which cells hold a piece of each side, one bit per cell, so that
    /// finding a side's pieces never scans the empty board.
    occupied: [[u64; OCC_WORDS]; 2],
    knight: [isize; 8],
    king: [isize; 8],
    rook: [isize; 4],
    bishop: [isize; 4],
}

impl Board {
    /// An empty board of the given size.
    pub fn empty(size: BoardSize) -> Board {
        let stride = isize::from(size.files) + 4;
        let rows = usize::from(size.ranks) + 4;
        let mut cells = vec![OFF; stride as usize * rows];
        for rank in 0..size.ranks {
            for file in 0..size.files {
                cells[Self::index_with(stride, file, rank)] = EMPTY;
            }
        }
        let off = |(df, dr): (i8, i8)| isize::from(dr) * stride + isize::from(df);
        Board {
            size,
            stride,
            cells,
            kings: [0, 0],
            occupied: [[0; OCC_WORDS]; 2],
            knight: KNIGHT_STEPS.map(off),
            king: KING_STEPS.map(off),
            rook: ROOK_DIRS.map(off),
            bishop: BISHOP_DIRS.map(off),
        }
    }

    fn index_with(stride: isize, file: u8, rank: u8) -> usize {
        ((isize::from(rank) + 2) * stride + isize::from(file) + 2) as usize
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Whether `sq` lies on this board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.file_index() < self.size.files && sq.rank_index() < self.size.ranks
    }

    fn index(&self, sq: Square) -> usize {
        Self::index_with(self.stride, sq.file_index(), sq.rank_index())
    }

    fn square(&self, index: usize) -> Square {
        let i = index as isize;
        let (rank, file) = (i / self.stride - 2, i % self.stride - 2);
        Square::new(file as u8, rank as u8).expect("on-board cell")
    }

    /// The piece on `sq` (which must be on the board).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[self.index(sq)])
    }

    /// Whether the pawn on `sq` may still double-step.
    pub fn is_unmoved_pawn(&self, sq: Square) -> bool {
        self.cells[self.index(sq)] & UNMOVED_BIT != 0
    }

    /// Puts a piece on an empty on-board square; a pawn put here counts as
    /// not yet moved when `unmoved` is set.
    pub fn put(&mut self, sq: Square, piece: Piece, unmoved: bool) {
        let i = self.index(sq);
        let mut code = kind_code(piece.kind) | color_code(piece.color);
        if unmoved && piece.kind == PieceKind::Pawn {
            code |= UNMOVED_BIT;
        }
        self.clear(sq);
        self.cells[i] = code;
        set_bit(&mut self.occupied[side(piece.color)], i);
        if piece.kind == PieceKind::King {
            self.kings[side(piece.color)] = i;
        }
    }

    /// Empties an on-board square.
    pub fn clear(&mut self, sq: Square) {
        let i = self.index(sq);
        if let Some(p) = decode(self.cells[i]) {
            if p.kind == PieceKind::King && self.kings[side(p.color)] == i {
                self.kings[side(p.color)] = 0;
            }
            clear_bit(&mut self.occupied[side(p.color)], i);
        }
        self.cells[i] = EMPTY;
    }

    /// The square of `color`'s king, if it has one.
    pub fn king(&self, color: Color) -> Option<Square> {
        let i = self.kings[side(color)];
        (i != 0).then(|| self.square(i))
    }

    /// Every piece with its square, rank 1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let size = self.size;
        (0..size.ranks).flat_map(move |r| {
            (0..size.files).filter_map(move |f| {
                let sq = Square::new(f, r).expect("board dims are at most 26");
                self.piece_at(sq).map(|p| (sq, p))
            })
        })
    }

    /// Whether `target` is attacked by any piece of `by`.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        self.attacked_index(self.index(target), by)
    }

    fn attacked_index(&self, t: usize, by: Color) -> bool {
        let c = color_code(by);
        let cells = &self.cells;
        let at = |i: isize| cells[(t as isize + i) as usize];
        let is = |code: u8, kind: u8| code != OFF && code != EMPTY && code & (KIND_MASK | COLOR_BIT) == kind | c;
        // A pawn of `by` attacks diagonally forward, so it stands one rank behind the target.
        let back = if by == Color::White { -self.stride } else { self.stride };
        if is(at(back - 1), 6) || is(at(back + 1), 6) {
            return true;
        }
        if self.knight.iter().any(|&d| is(at(d), 5)) || self.king.iter().any(|&d| is(at(d), 1)) {
            return true;
        }
        for (dirs, slider) in [(&self.rook, 3u8), (&self.bishop, 4u8)] {
            for &d in dirs {
                let mut i = t as isize + d;
                loop {
                    let code = cells[i as usize];
                    if code == EMPTY {
                        i += d;
                        continue;
                    }
                    if code != OFF && code & COLOR_BIT == c {
                        let k = code & KIND_MASK;
                        if k == slider || k == 2 {
                            return true;
                        }
                    }
                    break;
                }
            }
        }
        false
    }

    /// Whether `color`'s king is attacked. A side without a king is never in check.
    pub fn in_check(&self, color: Color) -> bool {
        let k = self.kings[side(color)];
        k != 0 && self.attacked_index(k, color.opponent())
    }

    fn far_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.size.ranks - 1,
            Color::Black => 0,
        }
    }

    /// Calls `f` with every pseudo-legal move (moves that may leave the own
    /// king attacked) of the piece on cell `from`; stops when `f` returns true.
    fn piece_moves(&self, from: usize, f: &mut impl FnMut(usize, Option<PieceKind>) -> bool) -> bool {
        let code = self.cells[from];
        let own = code & COLOR_BIT;
        let enemy = |c: u8| c != OFF && c != EMPTY && c & COLOR_BIT != own;
        let cells = &self.cells;
        match code & KIND_MASK {
            6 => {
                let color = if own == 0 { Color::White } else { Color::Black };
                let fwd = if own == 0 { self.stride } else { -self.stride };
                let far = self.far_rank(color);
                let mut emit = |to: usize| {
                    if self.square(to).rank_index() == far {
                        [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight]
                            .into_iter()
                            .any(|p| f(to, Some(p)))
                    } else {
                        f(to, None)
                    }
                };
                let one = (from as isize + fwd) as usize;
                if cells[one] == EMPTY {
                    if emit(one) {
                        return true;
                    }
                    let two = (one as isize + fwd) as usize;
                    if code & UNMOVED_BIT != 0 && cells[two] == EMPTY && emit(two) {
                        return true;
                    }
                }
                for side_step in [-1, 1] {
                    let to = (one as isize + side_step) as usize;
                    if enemy(cells[to]) && emit(to) {
                        return true;
                    }
                }
                false
            }
            5 | 1 => {
                let steps = if code & KIND_MASK == 5 {
                    &self.knight
                } else {
                    &self.king
                };
                for &d in steps {
                    let to = (from as isize + d) as usize;
                    let c = cells[to];
                    if (c == EMPTY || enemy(c)) && f(to, None) {
                        return true;
                    }
                }
                false
            }
            k => {
                let dirs: &[isize] = match k {
                    3 => &self.rook,
                    4 => &self.bishop,
                    _ => &[
                        self.rook[0],
                        self.rook[1],
                        self.rook[2],
                        self.rook[3],
                        self.bishop[0],
                        self.bishop[1],
                        self.bishop[2],
                        self.bishop[3],
                    ],
                };
                for &d in dirs {
                    let mut to = from as isize + d;
                    loop {
                        let c = cells[to as usize];
                        if c == EMPTY {
                            if f(to as usize, None) {
                                return true;
                            }
                            to += d;
                            continue;
                        }
                        if enemy(c) && f(to as usize, None) {
                            return true;
                        }
                        break;
                    }
                }
                false
            }
        }
    }

    fn make(&mut self, from: usize, to: usize, promotion: Option<PieceKind>) -> Undo {
        let moved = self.cells[from];
        let captured = self.cells[to];
        let mut landed = moved & !UNMOVED_BIT;
        if let Some(p) = promotion {
            landed = kind_code(p) | (moved & COLOR_BIT);
        }
        let me = usize::from(moved & COLOR_BIT != 0);
        self.cells[to] = landed;
        self.cells[from] = EMPTY;
        clear_bit(&mut self.occupied[me], from);
        set_bit(&mut self.occupied[me], to);
        if captured != EMPTY {
            clear_bit(&mut self.occupied[1 - me], to);
            if captured & KIND_MASK == 1 {
                self.kings[1 - me] = 0;
            }
        }
        if moved & KIND_MASK == 1 {
            self.kings[me] = to;
        }
        Undo {
            from,
            to,
            moved,
            captured,
        }
    }

    fn unmake(&mut self, u: Undo) {
        let me = usize::from(u.moved & COLOR_BIT != 0);
        self.cells[u.from] = u.moved;
        self.cells[u.to] = u.captured;
        set_bit(&mut self.occupied[me], u.from);
        clear_bit(&mut self.occupied[me], u.to);
        if u.moved & KIND_MASK == 1 {
            self.kings[me] = u.from;
        }
        if u.captured != EMPTY {
            set_bit(&mut self.occupied[1 - me], u.to);
            if u.captured & KIND_MASK == 1 {
                self.kings[1 - me] = u.to;
            }
        }
    }

    /// Plays the pseudo-legal move `m` and returns what takes it back.
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (fi, ti) = (self.index(m.from), self.index(m.to));
        self.make(fi, ti, m.promotion)
    }

    /// Takes back the move that returned `undo` (the last one played).
    pub fn unmake_move(&mut self, undo: Undo) {
        self.unmake(undo);
    }

    /// Whether moving leaves the mover's king unattacked.
    fn is_legal(&mut self, from: usize, to: usize, promotion: Option<PieceKind>) -> bool {
        let mover = if self.cells[from] & COLOR_BIT == 0 {
            Color::White
        } else {
            Color::Black
        };
        let undo = self.make(from, to, promotion);
        let ok = !self.in_check(mover);
        self.unmake(undo);
        ok
    }

    fn own_cells(&self, color: Color) -> impl Iterator<Item = usize> + '_ {
        self.occupied[side(color)].iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }

    /// Whether the piece on cell `from` is pinned to its own king: it stands
    /// on a line from the king with nothing between them, and the first
    /// piece beyond it on that line is an enemy slider moving along it.
    fn is_pinned(&self, from: usize) -> bool {
        let code = self.cells[from];
        let me = usize::from(code & COLOR_BIT != 0);
        let king = self.kings[me];
        if king == 0 {
            return false;
        }
        let (ks, fs) = (self.square(king), self.square(from));
        let df = i32::from(fs.file_index()) - i32::from(ks.file_index());
        let dr = i32::from(fs.rank_index()) - i32::from(ks.rank_index());
        let diagonal = df.abs() == dr.abs();
        if !(df == 0 || dr == 0 || diagonal) {
            return false;
        }
        let step = dr.signum() as isize * self.stride + df.signum() as isize;
        let mut i = king as isize + step;
        while i as usize != from {
            if self.cells[i as usize] != EMPTY {
                return false;
            }
            i += step;
        }
        i += step;
        loop {
            let c = self.cells[i as usize];
            if c == EMPTY {
                i += step;
                continue;
            }
            if c == OFF || (c & COLOR_BIT != 0) == (me != 0) {
                return false;
            }
            let k = c & KIND_MASK;
            return k == 2 || (k == 4 && diagonal) || (k == 3 && !diagonal);
        }
    }

    /// Every legal move of `color`.
    pub fn legal_moves(&self, color: Color) -> Vec<Move> {
        let mut scratch = self.clone();
        let mut out = Vec::new();
        for from in self.own_cells(color) {
            let mut found = Vec::new();
            self.piece_moves(from, &mut |to, p| {
                found.push((to, p));
                false
            });
            for (to, p) in found {
                if scratch.is_legal(from, to, p) {
                    out.push(Move {
                        from: self.square(from),
                        to: self.square(to),
                        promotion: p,
                    });
                }
            }
        }
        out
    }

    /// Every legal move of the piece on `from`.
    pub fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        let mut scratch = self.clone();
        let fi = self.index(from);
        let mut found = Vec::new();
        self.piece_moves(fi, &mut |to, p| {
            found.push((to, p));
            false
        });
        found
            .into_iter()
            .filter(|&(to, p)| scratch.is_legal(fi, to, p))
            .map(|(to, p)| Move {
                from,
                to: self.square(to),
                promotion: p,
            })
            .collect()
    }

    /// Whether `color` has at least one legal move. Stops at the first one,
    /// which is why replay can afford to ask after every ply: out of check,
    /// a piece that is not pinned and has any move at all settles it without
    /// looking at attacks.
    pub fn has_legal_move(&mut self, color: Color) -> bool {
        let in_check = self.in_check(color);
        self.has_legal_move_in(color, in_check)
    }

    /// [`Board::has_legal_move`] when the caller knows already whether
    /// `color` is in check.
    pub fn has_legal_move_in(&mut self, color: Color, in_check: bool) -> bool {
        let king = self.kings[side(color)];
        if in_check && king != 0 {
            return self.has_answer_to_check(color, king);
        }
        // Few pieces are pinned (or kings): they wait on the stack.
        let mut pinned: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
        for from in self.own_cells(color) {
            if from == king || self.is_pinned(from) {
                pinned.push(from);
            } else if self.piece_moves(from, &mut |_, _| true) {
                return true;
            }
        }
        // Pinned pieces may still move along the pin, and the king may step
        // to a square that is not attacked: those need the full test.
        pinned.into_iter().any(|from| self.any_legal_from(from, |_| true))
    }

    /// Whether some pseudo-legal move of the piece on `from` whose target
    /// passes `wanted` leaves its king safe.
    fn any_legal_from(&mut self, from: usize, wanted: impl Fn(usize) -> bool) -> bool {
        let mut found: Vec<(usize, Option<PieceKind>)> = Vec::new();
        self.piece_moves(from, &mut |to, p| {
            if wanted(to) {
                found.push((to, p));
            }
            false
        });
        found.into_iter().any(|(to, p)| self.is_legal(from, to, p))
    }

    /// In check: the king steps away, or (against a single checker) another
    /// piece captures the checker or blocks its line. Only king moves and
    /// moves by pinned pieces need the attack test; the others answer the
    /// check by where they land.
    fn has_answer_to_check(&mut self, color: Color, king: usize) -> bool {
        // The king is tried first: it usually has a safe square, found with
        // one attack test, where the other pieces would all be looked at.
        if self.any_legal_from(king, |_| true) {
            return true;
        }
        let mut checkers = [0usize; 2];
        // Against two checkers only the king can move.
        if self.checkers(king, color.opponent(), &mut checkers) == 1 {
            let checker = checkers[0];
            let mut answers = [0usize; 32];
            answers[0] = checker;
            let mut n = 1;
            if matches!(self.cells[checker] & KIND_MASK, 2..=4) {
                let (ks, cs) = (self.square(king), self.square(checker));
                let df = i32::from(cs.file_index()) - i32::from(ks.file_index());
                let dr = i32::from(cs.rank_index()) - i32::from(ks.rank_index());
                let step = dr.signum() as isize * self.stride + df.signum() as isize;
                let mut i = king as isize + step;
                while i as usize != checker && n < answers.len() {
                    answers[n] = i as usize;
                    n += 1;
                    i += step;
                }
            }
            let answers = &answers[..n];
            let own: Vec<usize> = self.own_cells(color).filter(|&c| c != king).collect();
            for from in own {
                if self.is_pinned(from) {
                    if self.any_legal_from(from, |to| answers.contains(&to)) {
                        return true;
                    }
                } else if self.piece_moves(from, &mut |to, _| answers.contains(&to)) {
                    return true;
                }
            }
        }
        false
    }

    /// The pieces of `by` attacking cell `target`, up to two (written to
    /// `out`); returns how many were found.
    fn checkers(&self, target: usize, by: Color, out: &mut [usize; 2]) -> usize {
        let c = color_code(by);
        let cells = &self.cells;
        let mut n = 0;
        let mut add = |i: usize, n: &mut usize| {
            if *n < 2 {
                out[*n] = i;
            }
            *n += 1;
        };
        let is = |code: u8, kind: u8| code != OFF && code != EMPTY && code & (KIND_MASK | COLOR_BIT) == kind | c;
        let back = if by == Color::White { -self.stride } else { self.stride };
        for d in [back - 1, back + 1] {
            let i = (target as isize + d) as usize;
            if is(cells[i], 6) {
                add(i, &mut n);
            }
        }
        for &d in &self.knight {
            let i = (target as isize + d) as usize;
            if is(cells[i], 5) {
                add(i, &mut n);
            }
        }
        for &d in &self.king {
            let i = (target as isize + d) as usize;
            if is(cells[i], 1) {
                add(i, &mut n);
            }
        }
        for (dirs, slider) in [(&self.rook, 3u8), (&self.bishop, 4u8)] {
            for &d in dirs {
                let mut i = target as isize + d;
                loop {
                    let code = cells[i as usize];
                    if code == EMPTY {
                        i += d;
                        continue;
                    }
                    if code != OFF && code & COLOR_BIT == c && (code & KIND_MASK == slider || code & KIND_MASK == 2) {
                        add(i as usize, &mut n);
                    }
                    break;
                }
            }
        }
        n
    }

    /// Whether `m` is a pseudo-legal move of the piece on its `from` square
    /// (geometry and occupancy only; the king's safety is not checked).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (fi, ti) = (self.index(m.from), self.index(m.to));
        let code = self.cells[fi];
        let target = self.cells[ti];
        if code == EMPTY || fi == ti || (target != EMPTY && target & COLOR_BIT == code & COLOR_BIT) {
            return false;
        }
        let df = i32::from(m.to.file_index()) - i32::from(m.from.file_index());
        let dr = i32::from(m.to.rank_index()) - i32::from(m.from.rank_index());
        if code & KIND_MASK == 6 {
            let color = if code & COLOR_BIT == 0 {
                Color::White
            } else {
                Color::Black
            };
            let fwd = if color == Color::White { 1 } else { -1 };
            if (m.to.rank_index() == self.far_rank(color)) != m.promotion.is_some() {
                return false;
            }
            return match (df, dr) {
                (0, r) if r == fwd => target == EMPTY,
                (0, r) if r == 2 * fwd => {
                    let middle = (fi as isize + fwd as isize * self.stride) as usize;
                    code & UNMOVED_BIT != 0 && target == EMPTY && self.cells[middle] == EMPTY
                }
                (-1 | 1, r) if r == fwd => target != EMPTY,
                _ => false,
            };
        }
        m.promotion.is_none() && self.reaches(fi, ti, df, dr)
    }

    /// Whether the piece (not a pawn) on cell `fi` reaches cell `ti` by its
    /// geometry, through empty squares for sliders. `df`, `dr` are the file
    /// and rank distances from `fi` to `ti`.
    fn reaches(&self, fi: usize, ti: usize, df: i32, dr: i32) -> bool {
        let (adf, adr) = (df.abs(), dr.abs());
        let straight = (adf == 0) != (adr == 0);
        let diagonal = adf == adr && adf != 0;
        match self.cells[fi] & KIND_MASK {
            1 => adf.max(adr) == 1,
            5 => (adf == 1 && adr == 2) || (adf == 2 && adr == 1),
            2 if straight || diagonal => self.ray_clear(fi, ti, df, dr),
            3 if straight => self.ray_clear(fi, ti, df, dr),
            4 if diagonal => self.ray_clear(fi, ti, df, dr),
            _ => false,
        }
    }

    /// Whether every cell strictly between `fi` and `ti` (on one line) is empty.
    fn ray_clear(&self, fi: usize, ti: usize, df: i32, dr: i32) -> bool {
        let step = dr.signum() as isize * self.stride + df.signum() as isize;
        let mut i = fi as isize + step;
        while i as usize != ti {
            if self.cells[i as usize] != EMPTY {
                return false;
            }
            i += step;
        }
        true
    }

    /// After a move from `from` to `to` has been played, whether it checks
    /// the opponent of its mover: directly by the piece now on `to`, or by a
    /// slider behind `from`. The same answer as `in_check`, found by looking
    /// at two lines instead of every attack on the king.
    pub fn gives_check(&self, from: Square, to: Square) -> bool {
        let ti = self.index(to);
        let code = self.cells[ti];
        let me = usize::from(code & COLOR_BIT != 0);
        let king = self.kings[1 - me];
        if king == 0 {
            return false;
        }
        let ks = self.square(king);
        let df = i32::from(ks.file_index()) - i32::from(to.file_index());
        let dr = i32::from(ks.rank_index()) - i32::from(to.rank_index());
        let direct = if code & KIND_MASK == 6 {
            let fwd = if me == 0 { 1 } else { -1 };
            df.abs() == 1 && dr == fwd
        } else {
            self.reaches(ti, king, df, dr)
        };
        if direct {
            return true;
        }
        // A discovered check: the first piece from the king through the
        // vacated square is a slider of the mover that moves along that line.
        let df = i32::from(from.file_index()) - i32::from(ks.file_index());
        let dr = i32::from(from.rank_index()) - i32::from(ks.rank_index());
        let diagonal = df.abs() == dr.abs();
        if !(df == 0 || dr == 0 || diagonal) {
            return false;
        }
        let step = dr.signum() as isize * self.stride + df.signum() as isize;
        let mut i = king as isize + step;
        loop {
            let c = self.cells[i as usize];
            if c == EMPTY {
                i += step;
                continue;
            }
            if c == OFF || usize::from(c & COLOR_BIT != 0) != me {
                return false;
            }
            let k = c & KIND_MASK;
            return k == 2 || (k == 4 && diagonal) || (k == 3 && !diagonal);
        }
    }

    /// Whether playing the pseudo-legal move `m` leaves the mover's king safe.
    /// `in_check` says whether the mover's king is attacked now.
    pub fn is_legal_move(&mut self, m: Move, in_check: bool) -> bool {
        let (fi, ti) = (self.index(m.from), self.index(m.to));
        // Out of check, a piece other than the king that is not pinned
        // cannot expose its king, so no attack needs computing.
        if !in_check && self.cells[fi] & KIND_MASK != 1 && !self.is_pinned(fi) {
            return true;
        }
        self.is_legal(fi, ti, m.promotion)
    }

    /// The move `m` in notation as it stands here: piece letter and capture
    /// marker from the board, no check marker.
    pub fn notate(&self, m: Move) -> fgn_notation::ChessMove {
        fgn_notation::ChessMove {
            piece: self.piece_at(m.from).map_or(PieceKind::Pawn, |p| p.kind),
            from: Some(m.from),
            to: Some(m.to),
            capture: self.piece_at(m.to).is_some(),
            promotion: m.promotion,
            check: None,
        }
    }

    /// Plays `m`, which must be pseudo-legal; returns the captured piece.
    pub fn play(&mut self, m: Move) -> Option<Piece> {
        let (fi, ti) = (self.index(m.from), self.index(m.to));
        let undo = self.make(fi, ti, m.promotion);
        decode(undo.captured)
    }

    /// The number of leaf nodes of the legal move tree to `depth` plies, with
    /// `color` to move: the standard cross-check of a move generator.
    pub fn perft(&mut self, color: Color, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(color);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for m in moves {
            let (fi, ti) = (self.index(m.from), self.index(m.to));
            let undo = self.make(fi, ti, m.promotion);
            total += self.perft(color.opponent(), depth - 1);
            self.unmake(undo);
        }
        total
    }
}

fn set_bit(bits: &mut [u64; OCC_WORDS], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64; OCC_WORDS], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn decode(code: u8) -> Option<Piece> {
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

impl fmt::Display for Board {
    /// The placement in FEN style: ranks from the top, runs of empty squares as numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..self.size.ranks).rev() {
            let mut empty = 0;
            for file in 0..self.size.files {
                let sq = Square::new(file, r).expect("on board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        let c = p.kind.char();
                        write!(
                            f,
                            "{}",
                            if p.color == Color::White {
                                c
                            } else {
                                c.to_ascii_lowercase()
                            }
                        )?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

/// Reads a placement in FEN style (ranks from the top separated by `/`,
/// `KQRBNP` white, `kqrbnp` black, runs of empty squares as decimal numbers)
/// onto a board of `size`. Pawns are marked unmoved only where `unmoved` says.
/// This is a setup, not yet a position: legality is for the caller to judge.
pub fn board_from_placement(placement: &str, size: BoardSize, unmoved: &[Square]) -> Result<Board, String> {
    let mut board = Board::empty(size);
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != usize::from(size.ranks) {
        return Err(format!(
            "{} ranks in the placement, the board has {}",
            rows.len(),
            size.ranks
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = size.ranks - 1 - i as u8;
        let mut file: u32 = 0;
        let mut digits = String::new();
        let flush = |digits: &mut String, file: &mut u32| -> Result<(), String> {
            if !digits.is_empty() {
                *file += digits.parse::<u32>().map_err(|e| e.to_string())?;
                digits.clear();
            }
            Ok(())
        };
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            flush(&mut digits, &mut file)?;
            let kind = PieceKind::from_char(c.to_ascii_uppercase()).ok_or_else(|| format!("unknown piece `{c}`"))?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if file >= u32::from(size.files) {
                return Err(format!("rank {} is longer than {} files", rank + 1, size.files));
            }
            let sq = Square::new(file as u8, rank).expect("checked against the size");
            board.put(sq, Piece { color, kind }, unmoved.contains(&sq));
            file += 1;
        }
        flush(&mut digits, &mut file)?;
        if file != u32::from(size.files) {
            return Err(format!(
                "rank {} has {file} files, the board has {}",
                rank + 1,
                size.files
            ));
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn start_position_has_twenty_moves() {
        let size = BoardSize { files: 8, ranks: 8 };
        let unmoved: Vec<Square> = (0..8)
            .flat_map(|f| [Square::new(f, 1).unwrap(), Square::new(f, 6).unwrap()])
            .collect();
        let mut b = board_from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", size, &unmoved).unwrap();
        assert_eq!(b.legal_moves(Color::White).len(), 20);
        assert_eq!(b.perft(Color::White, 3), 8902);
        assert_eq!(b.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    }

    #[test]
    fn a_pinned_piece_may_not_move_off_the_line() {
        let size = BoardSize { files: 8, ranks: 8 };
        let b = board_from_placement("4r2k/8/8/8/8/8/4B3/4K3", size, &[]).unwrap();
        let moves = b.legal_moves_from(sq("e2"));
        assert!(moves.is_empty(), "{moves:?}");
    }

    #[test]
    fn shortcuts_agree_with_the_plain_definitions_over_random_games() {
        // gives_check against in_check, is_pseudo_legal against the move
        // generator, on every legal move of many random positions.
        let size = BoardSize { files: 8, ranks: 8 };
        let unmoved: Vec<Square> = (0..8)
            .flat_map(|f| [Square::new(f, 1).unwrap(), Square::new(f, 6).unwrap()])
            .collect();
        let mut rng = crate::rng::Rng::new(42);
        for _ in 0..12 {
            let mut b = board_from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", size, &unmoved).unwrap();
            let mut side = Color::White;
            for _ in 0..80 {
                let moves = b.legal_moves(side);
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    assert!(b.is_pseudo_legal(m), "{m:?} in {b}");
                    let undo = b.make_move(m);
                    assert_eq!(b.gives_check(m.from, m.to), b.in_check(side.opponent()), "{m:?} in {b}");
                    b.unmake_move(undo);
                }
                // Every (from, to) pair of the side to move, with the promotion
                // the rules would need: accepted exactly when generated.
                let check = b.in_check(side);
                let own: Vec<Square> = b.pieces().filter(|(_, p)| p.color == side).map(|(sq, _)| sq).collect();
                for &from in &own {
                    for to in (0..8).flat_map(|f| (0..8).map(move |r| Square::new(f, r).unwrap())) {
                        let pawn = b.piece_at(from).is_some_and(|p| p.kind == PieceKind::Pawn);
                        let far = if side == Color::White { 7 } else { 0 };
                        let promotion = (pawn && to.rank_index() == far).then_some(PieceKind::Queen);
                        let m = Move { from, to, promotion };
                        let accepted = b.is_pseudo_legal(m) && b.is_legal_move(m, check);
                        assert_eq!(accepted, moves.contains(&m), "{m:?} in {b}");
                    }
                }
                let check = b.in_check(side);
                assert!(b.has_legal_move_in(side, check), "{b}");
                let m = moves[rng.below(moves.len())];
                b.make_move(m);
                side = side.opponent();
                let check = b.in_check(side);
                assert_eq!(b.has_legal_move_in(side, check), !b.legal_moves(side).is_empty(), "{b}");
            }
        }
    }

    #[test]
    fn double_step_depends_on_the_unmoved_mark_not_the_rank() {
        let size = BoardSize { files: 12, ranks: 12 };
        let b = board_from_placement("k11/12/12/12/12/12/12/12/4P7/12/12/K11", size, &[sq("e4")]).unwrap();
        let tos: Vec<String> = b.legal_moves_from(sq("e4")).iter().map(|m| m.to.to_string()).collect();
        assert_eq!(tos, ["e5", "e6"]);
        let b = board_from_placement("k11/12/12/12/12/12/12/12/4P7/12/12/K11", size, &[]).unwrap();
        assert_eq!(b.legal_moves_from(sq("e4")).len(), 1);
    }
}
