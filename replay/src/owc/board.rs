//! Pieces and squares: the board's cells, its square order, and the
//! geometry of the moves (as in chess, with range upgrades and no check).

use fgn_notation::{ChessMove, Color, ObjectKind, PieceKind, Square};

use super::OpenWorld;

/// A piece on the board with its hit points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unit {
    /// Whose.
    pub color: Color,
    /// Which piece.
    pub kind: PieceKind,
    /// Hit points.
    pub hp: u16,
    /// Maximum hit points.
    pub max: u16,
    /// Whether the shop's range upgrade is on it (pawns and kings).
    pub range: bool,
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
            hp: full,
            max: full,
            range: false,
        }
    }

    /// The position of `sq` in the square-order vectors of the world.
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
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        let (files, ranks) = (self.files, self.ranks);
        (0..ranks).flat_map(move |r| (0..files).map(move |f| Square::new(f, r).expect("on board")))
    }

    /// The board size.
    pub fn size(&self) -> (u8, u8) {
        (self.files, self.ranks)
    }

    /// The piece on `sq`.
    pub fn piece(&self, sq: Square) -> Option<Unit> {
        self.world.pieces[self.index(sq)]
    }

    /// The light and object of `sq`.
    pub fn cell(&self, sq: Square) -> Cell {
        self.world.cells[self.index(sq)]
    }

    pub(super) fn set(&mut self, sq: Square, unit: Option<Unit>) {
        let i = self.index(sq);
        self.world.pieces[i] = unit;
    }

    /// The squares a move passes over, strictly between `from` and `to`, for
    /// a slider (or a ranged step); `None` when `to` is not on a line.
    fn line(from: Square, to: Square) -> Option<Vec<Square>> {
        let df = i32::from(to.file_index()) - i32::from(from.file_index());
        let dr = i32::from(to.rank_index()) - i32::from(from.rank_index());
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) || (df == 0 && dr == 0) {
            return None;
        }
        let steps = df.abs().max(dr.abs());
        let (sf, sr) = (df.signum(), dr.signum());
        Some(
            (1..steps)
                .map(|k| {
                    let f = i32::from(from.file_index()) + sf * k;
                    let r = i32::from(from.rank_index()) + sr * k;
                    Square::new(f as u8, r as u8).expect("between two squares")
                })
                .collect(),
        )
    }

    /// The squares the piece passes over if `from`-`to` is a move of its
    /// geometry (objects and fog never block; pieces do), or why not.
    pub(super) fn geometry(&self, unit: Unit, from: Square, to: Square, capture: bool) -> Result<Vec<Square>, String> {
        let df = i32::from(to.file_index()) - i32::from(from.file_index());
        let dr = i32::from(to.rank_index()) - i32::from(from.rank_index());
        let (adf, adr) = (df.abs(), dr.abs());
        let reach = if unit.range {
            i32::from(self.rules.range_steps)
        } else {
            1
        };
        let path = Self::line(from, to);
        let clear = |path: &Vec<Square>| path.iter().all(|&sq| self.piece(sq).is_none());
        let ok = match unit.kind {
            PieceKind::Knight => (adf == 1 && adr == 2) || (adf == 2 && adr == 1),
            PieceKind::King => path.as_ref().is_some_and(|p| adf.max(adr) <= reach && clear(p)),
            PieceKind::Rook => path.as_ref().is_some_and(|p| (adf == 0 || adr == 0) && clear(p)),
            PieceKind::Bishop => path.as_ref().is_some_and(|p| adf == adr && clear(p)),
            PieceKind::Queen => path.as_ref().is_some_and(clear),
            PieceKind::Pawn => {
                let fwd = if unit.color == Color::White { 1 } else { -1 };
                let steps = dr * fwd;
                let straight = df == 0 && steps >= 1 && steps <= reach;
                let diagonal = adf == steps && steps >= 1 && steps <= reach;
                path.as_ref()
                    .is_some_and(|p| clear(p) && ((straight && !capture) || (diagonal && capture)))
            }
        };
        if ok {
            return Ok(if unit.kind == PieceKind::Knight {
                Vec::new()
            } else {
                path.unwrap_or_default()
            });
        }
        let how = match unit.kind {
            PieceKind::Pawn if capture && unit.range => {
                "a pawn with range attacks one or two squares diagonally forward, over an empty square"
            }
            PieceKind::Pawn if capture => "a pawn attacks one square diagonally forward",
            PieceKind::Pawn if df != 0 => "a pawn moves diagonally only to attack an enemy piece",
            PieceKind::Pawn if unit.range => {
                "a pawn with range steps one or two squares straight forward onto empty squares"
            }
            PieceKind::Pawn => "a pawn steps one square straight forward onto an empty square (no double step)",
            _ => "that is not its move, or a piece stands in the way",
        };
        Err(format!("the {} on {from} cannot go to {to}: {how}", unit.kind.name()))
    }

    /// Every move of `color`'s pieces that the geometry allows, with its
    /// attack marker (promotion left to the default).
    pub fn moves(&self, color: Color) -> Vec<ChessMove> {
        let mut out = Vec::new();
        for from in self.squares() {
            let Some(unit) = self.piece(from).filter(|u| u.color == color) else {
                continue;
            };
            for to in self.squares() {
                let target = self.piece(to);
                if target.is_some_and(|t| t.color == color) || from == to {
                    continue;
                }
                let capture = target.is_some();
                if self.geometry(unit, from, to, capture).is_ok() {
                    out.push(ChessMove {
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
        out
    }

    /// The move `m` as canonical FGN writes it (the promotion piece written
    /// out), if it names a pawn reaching the far rank.
    pub fn canonical_move(&self, mover: Color, m: &ChessMove) -> Option<ChessMove> {
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
