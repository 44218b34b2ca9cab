//! The survival-chess board for every size: a padded mailbox, up to 26x26.
//!
//! Boards go up to 26x26 (676 squares), where a bitboard would be several
//! machine words and every shift a multi-word operation. A mailbox with two
//! rings of off-board sentinels needs no bounds checks in move generation
//! (knights jump at most two squares) and handles every size with the same
//! code; boards of at most 8x8 use the bitboards of `bits.rs` instead, and
//! the differential test in `board.rs` holds the two to the same answers.

use fgn_notation::{BoardSize, Color, PieceKind, Square};

use super::pieces::{
    color_code, decode, kind_code, side, Move, Piece, Undo, BISHOP_DIRS, COLOR_BIT, EMPTY, KIND_MASK, KING_STEPS,
    KNIGHT_STEPS, OFF, ROOK_DIRS, UNMOVED_BIT,
};

/// Words of the occupancy sets: (26 + 4)^2 = 900 cells at most.
const OCC_WORDS: usize = 15;

/// The mailbox board: pieces, which pawns may still double-step, and the kings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct Mailbox {
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

impl Mailbox {
    /// An empty board of the given size.
    pub(super) fn empty(size: BoardSize) -> Mailbox {
        let stride = isize::from(size.files) + 4;
        let rows = usize::from(size.ranks) + 4;
        let mut cells = vec![OFF; stride as usize * rows];
        for rank in 0..size.ranks {
            for file in 0..size.files {
                cells[Self::index_with(stride, file, rank)] = EMPTY;
            }
        }
        let off = |(df, dr): (i8, i8)| isize::from(dr) * stride + isize::from(df);
        Mailbox {
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
    pub(super) fn size(&self) -> BoardSize {
        self.size
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
    pub(super) fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[self.index(sq)])
    }

    /// Whether the pawn on `sq` may still double-step.
    pub(super) fn is_unmoved_pawn(&self, sq: Square) -> bool {
        self.cells[self.index(sq)] & UNMOVED_BIT != 0
    }

    /// Puts a piece on an empty on-board square; a pawn put here counts as
    /// not yet moved when `unmoved` is set.
    pub(super) fn put(&mut self, sq: Square, piece: Piece, unmoved: bool) {
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
    pub(super) fn clear(&mut self, sq: Square) {
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
    pub(super) fn king(&self, color: Color) -> Option<Square> {
        let i = self.kings[side(color)];
        (i != 0).then(|| self.square(i))
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
    pub(super) fn in_check(&self, color: Color) -> bool {
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
    pub(super) fn make_move(&mut self, m: Move) -> Undo {
        let (fi, ti) = (self.index(m.from), self.index(m.to));
        self.make(fi, ti, m.promotion)
    }

    /// Takes back the move that returned `undo` (the last one played).
    pub(super) fn unmake_move(&mut self, undo: Undo) {
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
    pub(super) fn legal_moves(&self, color: Color) -> Vec<Move> {
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
    pub(super) fn legal_moves_from(&self, from: Square) -> Vec<Move> {
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
    pub(super) fn has_legal_move(&mut self, color: Color) -> bool {
        let in_check = self.in_check(color);
        self.has_legal_move_in(color, in_check)
    }

    /// [`ChessBoard::has_legal_move`] when the caller knows already whether
    /// `color` is in check.
    pub(super) fn has_legal_move_in(&mut self, color: Color, in_check: bool) -> bool {
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
    pub(super) fn is_pseudo_legal(&self, m: Move) -> bool {
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
    pub(super) fn gives_check(&self, from: Square, to: Square) -> bool {
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
    pub(super) fn is_legal_move(&mut self, m: Move, in_check: bool) -> bool {
        let (fi, ti) = (self.index(m.from), self.index(m.to));
        // Out of check, a piece other than the king that is not pinned
        // cannot expose its king, so no attack needs computing.
        if !in_check && self.cells[fi] & KIND_MASK != 1 && !self.is_pinned(fi) {
            return true;
        }
        self.is_legal(fi, ti, m.promotion)
    }
}

fn set_bit(bits: &mut [u64; OCC_WORDS], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64; OCC_WORDS], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}
