//! Pieces and squares: the board's cells, its square order, and the
//! geometry of the moves (as in chess, with range upgrades and no check).
//!
//! Two ways into the geometry, which must agree: the move check asks
//! whether one move is a move of its piece ([`OpenWorld::geometry`],
//! answering with the path as a [`Line`] value or the [`Unreachable`]
//! reason, text only when an error is shown), and the list of moves walks
//! each piece's rays and steps ([`OpenWorld::each_move`]), collecting the
//! targets on the stack and sorting them into square order. A test in
//! `tests.rs` compares the list with every pair of squares the move check
//! accepts, over random crowded positions on every board size.

use fgn_notation::{ChessMove, Color, ObjectKind, PieceKind, Square};

use super::engine::{Line, OpenWorld, Unit};

/// Why a piece cannot go from one square to another: the move check's
/// answer, made into text only when an error is shown (the list of legal
/// actions asks the geometry without ever showing one).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Unreachable {
    /// A ranged pawn's attack that is not one or two squares diagonally forward.
    RangedPawnAttack,
    /// A pawn's attack that is not one square diagonally forward.
    PawnAttack,
    /// A pawn's diagonal move onto an empty square.
    PawnDiagonalOnlyToAttack,
    /// A ranged pawn's step that is not straight forward onto empty squares.
    RangedPawnStep,
    /// A pawn's step that is not one square straight forward onto an empty one.
    PawnStep,
    /// Any other piece: off its lines, or blocked.
    NotItsMove,
}

impl Unreachable {
    /// The rule the move breaks, as the error says it.
    pub(super) fn rule(self) -> &'static str {
        match self {
            Unreachable::RangedPawnAttack => {
                "a pawn with range attacks one or two squares diagonally forward, over an empty square"
            }
            Unreachable::PawnAttack => "a pawn attacks one square diagonally forward",
            Unreachable::PawnDiagonalOnlyToAttack => "a pawn moves diagonally only to attack an enemy piece",
            Unreachable::RangedPawnStep => {
                "a pawn with range steps one or two squares straight forward onto empty squares"
            }
            Unreachable::PawnStep => "a pawn steps one square straight forward onto an empty square (no double step)",
            Unreachable::NotItsMove => "that is not its move, or a piece stands in the way",
        }
    }
}

/// Which squares of a ray a piece may land on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lands {
    /// Empty squares only (a pawn's step).
    Quiet,
    /// An enemy's square only (a pawn's attack).
    Attack,
    /// Both (every other piece).
    Both,
}

/// The targets of one piece, with whether each is an attack: at most four
/// rays across the largest board and four more diagonals, kept on the
/// stack so that listing moves allocates nothing per piece.
pub(super) struct Targets {
    squares: [(Square, bool); Targets::CAPACITY],
    len: usize,
}

impl Targets {
    /// Eight rays of at most 25 squares each (a 26x26 board's).
    const CAPACITY: usize = 8 * (fgn_notation::MAX_BOARD_DIM as usize - 1);

    fn new() -> Targets {
        Targets {
            squares: [(Square::new(0, 0).expect("a1"), false); Targets::CAPACITY],
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn push(&mut self, target: (Square, bool)) {
        self.squares[self.len] = target;
        self.len += 1;
    }

    fn as_slice(&self) -> &[(Square, bool)] {
        &self.squares[..self.len]
    }

    fn sort_unstable_by_key<K: Ord>(&mut self, key: impl FnMut(&(Square, bool)) -> K) {
        self.squares[..self.len].sort_unstable_by_key(key);
    }
}

/// A square's light and object.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Cell {
    /// Lit (else fogged).
    pub lit: bool,
    /// Turns since it was last lit.
    pub age: u8,
    /// Lit during the current turn.
    pub fresh: bool,
    /// The object lying there.
    pub object: Option<ObjectKind>,
    /// A merchant square.
    pub merchant: bool,
}

impl OpenWorld {
    /// A new piece of `kind` with the kind's initial HP and no upgrades.
    pub(super) fn fresh_unit(&self, color: Color, kind: PieceKind) -> Unit {
        let hp = self.rules.hp;
        let full = match kind {
            PieceKind::Pawn => hp.pawn,
            PieceKind::Knight => hp.knight,
            PieceKind::Bishop => hp.bishop,
            PieceKind::Rook => hp.rook,
            PieceKind::Queen => hp.queen,
            PieceKind::King => hp.king,
        };
        Unit {
            color,
            kind,
            hp: u64::from(full),
            max: u64::from(full),
            range: false,
        }
    }

    /// The position of `sq` in the square-order vectors of the world, for
    /// a square on the board only: off it, the position is another
    /// square's or past the end (the rules check a square from a log with
    /// [`Self::on_board`] before they change anything at it).
    pub(super) fn index(&self, sq: Square) -> usize {
        usize::from(sq.rank_index()) * usize::from(self.files) + usize::from(sq.file_index())
    }

    pub(super) fn on_board(&self, sq: Square) -> bool {
        sq.file_index() < self.files && sq.rank_index() < self.ranks
    }

    /// The rank `color`'s pawns promote on.
    pub(super) fn far_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.ranks - 1,
            Color::Black => 0,
        }
    }

    /// Every square of the board in square order (rank 1 first).
    pub(crate) fn squares(&self) -> impl Iterator<Item = Square> {
        let (files, ranks) = (self.files, self.ranks);
        (0..ranks).flat_map(move |r| (0..files).map(move |f| Square::new(f, r).expect("on board")))
    }

    /// The board size.
    pub(crate) fn size(&self) -> (u8, u8) {
        (self.files, self.ranks)
    }

    /// The piece on `sq`; none off the board. A square read from a log
    /// may lie off the board (`e9` on 8x8), and callers such as the views
    /// ask about an event's squares before the rules have refused it, so
    /// every question about a square is answered for any square: off the
    /// board nothing stands, nothing lies and nothing is lit.
    pub(crate) fn piece(&self, sq: Square) -> Option<Unit> {
        if !self.on_board(sq) {
            return None;
        }
        self.world.pieces[self.index(sq)]
    }

    /// The light and object of `sq`; an unlit empty cell off the board
    /// (see [`Self::piece`]).
    pub(crate) fn cell(&self, sq: Square) -> Cell {
        if !self.on_board(sq) {
            return Cell::default();
        }
        let i = self.index(sq);
        let light = self.world.light[i];
        Cell {
            lit: light & super::engine::LIT != 0,
            age: self.world.ages[i],
            fresh: light & super::engine::FRESH != 0,
            object: self.world.objects[i],
            merchant: light & super::engine::MERCHANT != 0,
        }
    }

    /// Puts `unit` on `sq` (or empties it), keeping the square's
    /// [`super::engine::OCCUPIED`] flag in step.
    pub(super) fn set(&mut self, sq: Square, unit: Option<Unit>) {
        let i = self.index(sq);
        self.world.pieces[i] = unit;
        let occupied = if unit.is_some() { super::engine::OCCUPIED } else { 0 };
        self.world.light[i] = (self.world.light[i] & !super::engine::OCCUPIED) | occupied;
    }

    /// The squares strictly between `from` and `to` if they lie on one
    /// rank, file or diagonal (the path of a slider or a ranged step);
    /// `None` otherwise, and for `from == to`.
    fn line(from: Square, to: Square) -> Option<Line> {
        let df = i16::from(to.file_index()) - i16::from(from.file_index());
        let dr = i16::from(to.rank_index()) - i16::from(from.rank_index());
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) || (df == 0 && dr == 0) {
            return None;
        }
        let steps = df.abs().max(dr.abs());
        Some(Line {
            from,
            df: df.signum() as i8,
            dr: dr.signum() as i8,
            between: (steps - 1) as u8,
        })
    }

    /// The squares the piece passes over if `from`-`to` is a move of its
    /// geometry (objects and fog never block; pieces do), or why not.
    pub(super) fn geometry(&self, unit: Unit, from: Square, to: Square, capture: bool) -> Result<Line, Unreachable> {
        let df = i32::from(to.file_index()) - i32::from(from.file_index());
        let dr = i32::from(to.rank_index()) - i32::from(from.rank_index());
        let (adf, adr) = (df.abs(), dr.abs());
        let reach = self.reach(unit);
        let path = Self::line(from, to);
        let clear = |path: &Line| path.squares().all(|sq| self.piece(sq).is_none());
        let ok = match unit.kind {
            PieceKind::Knight => (adf == 1 && adr == 2) || (adf == 2 && adr == 1),
            PieceKind::King => path.as_ref().is_some_and(|p| adf.max(adr) <= reach && clear(p)),
            PieceKind::Rook => path.as_ref().is_some_and(|p| (adf == 0 || adr == 0) && clear(p)),
            PieceKind::Bishop => path.as_ref().is_some_and(|p| adf == adr && clear(p)),
            PieceKind::Queen => path.as_ref().is_some_and(clear),
            PieceKind::Pawn => {
                let steps = dr * i32::from(Self::forward(unit.color));
                let straight = df == 0 && steps >= 1 && steps <= reach;
                let diagonal = adf == steps && steps >= 1 && steps <= reach;
                path.as_ref()
                    .is_some_and(|p| clear(p) && ((straight && !capture) || (diagonal && capture)))
            }
        };
        if ok {
            // A knight jumps: it passes over nothing.
            return Ok(match (unit.kind, path) {
                (PieceKind::Knight, _) | (_, None) => Line::jump(from),
                (_, Some(p)) => p,
            });
        }
        Err(match unit.kind {
            PieceKind::Pawn if capture && unit.range => Unreachable::RangedPawnAttack,
            PieceKind::Pawn if capture => Unreachable::PawnAttack,
            PieceKind::Pawn if df != 0 => Unreachable::PawnDiagonalOnlyToAttack,
            PieceKind::Pawn if unit.range => Unreachable::RangedPawnStep,
            PieceKind::Pawn => Unreachable::PawnStep,
            _ => Unreachable::NotItsMove,
        })
    }

    /// How many squares a pawn or king goes in a step: one, or the shop's
    /// range with the upgrade.
    fn reach(&self, unit: Unit) -> i32 {
        if unit.range {
            i32::from(self.rules.range_steps)
        } else {
            1
        }
    }

    /// The rank direction `color`'s pawns move in.
    fn forward(color: Color) -> i8 {
        match color {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The square `k` steps from `from` in direction `(df, dr)`, if it is
    /// on the board.
    fn step(&self, from: Square, df: i8, dr: i8, k: i32) -> Option<Square> {
        let f = i32::from(from.file_index()) + i32::from(df) * k;
        let r = i32::from(from.rank_index()) + i32::from(dr) * k;
        if f < 0 || r < 0 || f >= i32::from(self.files) || r >= i32::from(self.ranks) {
            return None;
        }
        Square::new(f as u8, r as u8)
    }

    /// The targets of `unit` along the ray from `from` in direction
    /// `(df, dr)`, at most `reach` squares: the empty squares up to the
    /// first piece and that piece's square if it is an enemy's, as far as
    /// `lands` allows.
    fn ray(&self, unit: Unit, from: Square, (df, dr): (i8, i8), reach: i32, lands: Lands, out: &mut Targets) {
        for k in 1..=reach {
            let Some(sq) = self.step(from, df, dr, k) else { return };
            match self.piece(sq) {
                None if lands != Lands::Attack => out.push((sq, false)),
                None => {}
                Some(u) => {
                    if lands != Lands::Quiet && u.color != unit.color {
                        out.push((sq, true));
                    }
                    return;
                }
            }
        }
    }

    /// Every square `unit` on `from` may go to, in square order, each with
    /// whether it is an attack: the same squares [`Self::geometry`] accepts
    /// with the capture marker the target asks for, generated from the
    /// piece's rays and steps rather than tried square by square.
    fn targets(&self, unit: Unit, from: Square, out: &mut Targets) {
        out.clear();
        const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const BISHOP: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
        const QUEEN: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
        const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        // Further than any board: a slider's ray ends at the edge.
        let far = i32::from(self.files.max(self.ranks));
        let (rays, reach): (&[(i8, i8)], i32) = match unit.kind {
            PieceKind::Knight => (&KNIGHT, 1),
            PieceKind::Rook => (&ROOK, far),
            PieceKind::Bishop => (&BISHOP, far),
            PieceKind::Queen => (&QUEEN, far),
            PieceKind::King => (&QUEEN, self.reach(unit)),
            PieceKind::Pawn => {
                // Straight forward onto empty squares, diagonally forward
                // only to attack.
                let (reach, fwd) = (self.reach(unit), Self::forward(unit.color));
                self.ray(unit, from, (0, fwd), reach, Lands::Quiet, out);
                self.ray(unit, from, (-1, fwd), reach, Lands::Attack, out);
                self.ray(unit, from, (1, fwd), reach, Lands::Attack, out);
                (&[], 0)
            }
        };
        for &d in rays {
            self.ray(unit, from, d, reach, Lands::Both, out);
        }
        out.sort_unstable_by_key(|&(sq, _)| sq);
    }

    /// Calls `each` with every move of `color`'s pieces that the geometry
    /// allows, with its attack marker (promotion left to the default), in
    /// square order of the piece's square, then of the target.
    pub(super) fn each_move(&self, color: Color, mut each: impl FnMut(ChessMove)) {
        let mut targets = Targets::new();
        for (i, piece) in self.world.pieces.iter().enumerate() {
            let Some(unit) = piece.filter(|u| u.color == color) else {
                continue;
            };
            let from = self.square_at(i);
            self.targets(unit, from, &mut targets);
            for &(to, capture) in targets.as_slice() {
                each(ChessMove {
                    piece: unit.kind,
                    from: Some(from),
                    to: Some(to),
                    capture,
                    promotion: None,
                    check: None,
                });
            }
        }
    }

    /// Every move of `color`'s pieces that the geometry allows, with its
    /// attack marker (promotion left to the default), in square order of
    /// the piece's square, then of the target.
    #[cfg(test)]
    pub(crate) fn moves(&self, color: Color) -> Vec<ChessMove> {
        let mut out = Vec::new();
        self.each_move(color, |m| out.push(m));
        out
    }

    /// The square at position `i` of the square-order vectors.
    pub(super) fn square_at(&self, i: usize) -> Square {
        let files = usize::from(self.files);
        Square::new((i % files) as u8, (i / files) as u8).expect("an index of the board")
    }

    /// The move `m` as canonical FGN writes it (the promotion piece written
    /// out), if it names a pawn reaching the far rank.
    pub(crate) fn canonical_move(&self, mover: Color, m: &ChessMove) -> Option<ChessMove> {
        let to = m.to?;
        (m.piece == PieceKind::Pawn && to.rank_index() == self.far_rank(mover) && m.promotion.is_none()).then_some(
            ChessMove {
                promotion: Some(PieceKind::Queen),
                ..*m
            },
        )
    }

    /// The squares a clone of `unit` on `at` may go to, in square order:
    /// adjacent, empty, not a merchant, and for a pawn not its promotion rank.
    pub(super) fn clone_squares(&self, unit: Unit, at: Square) -> Vec<Square> {
        let far = self.far_rank(unit.color);
        // The neighbours in square order: rank below first, files left to right.
        let mut out = Vec::new();
        for dr in -1i32..=1 {
            for df in -1i32..=1 {
                if df == 0 && dr == 0 {
                    continue;
                }
                let (f, r) = (i32::from(at.file_index()) + df, i32::from(at.rank_index()) + dr);
                if f < 0 || r < 0 || f >= i32::from(self.files) || r >= i32::from(self.ranks) {
                    continue;
                }
                let sq = Square::new(f as u8, r as u8).expect("on board");
                if self.piece(sq).is_none()
                    && !self.cell(sq).merchant
                    && !(unit.kind == PieceKind::Pawn && sq.rank_index() == far)
                {
                    out.push(sq);
                }
            }
        }
        out
    }
}
