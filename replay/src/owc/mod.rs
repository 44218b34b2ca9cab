//! Open World Chess 1.2 (RULES.md section 2): chess in fog of war with hit
//! points, up to three moves a turn, light and ageing, random bonuses and
//! coins, and a shop.
//!
//! A move is resolved step by step in rule order (damage on the path,
//! combat, promotion, pick-up, lighting, spawns, purchases). Where a step
//! needs a random outcome the engine stops and owes the world event that
//! records it (`@ damage`, `@ clone`); spawns may follow a move, in square
//! order, on the squares it lit. With a revealed seed every outcome is
//! derived again and compared.

use fgn_notation::{Action, ChessMove, Color, Item, MoveNumber, ObjectKind, PieceKind, Reason, Square};

pub mod random;

use crate::error::{Fault, Rule};
use crate::ruleset::OpenWorldRules;
use crate::seed::Draws;
use crate::session::{next_turn, Decision, Engine, Turn};

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

/// A random outcome the log recorded (or did not), kept for the seed check.
#[derive(Clone, Debug)]
enum Draw {
    /// A square that turned lit and rolled for an object.
    Spawn {
        n: u32,
        cause: Option<usize>,
        square: Square,
        observed: Option<ObjectKind>,
        event: Option<usize>,
    },
    /// A damage roll.
    Damage {
        n: u32,
        cause: usize,
        square: Square,
        observed: u16,
        event: usize,
    },
    /// Where a clone went, among the candidates in square order.
    Clone {
        n: u32,
        cause: usize,
        square: Square,
        candidates: Vec<Square>,
        observed: Square,
        event: usize,
    },
}

/// What the world owes before anything else may happen.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Owed {
    /// A damage roll against the moving piece for the object on `square`.
    Damage { square: Square, on_path: bool },
    /// The square of a clone, one of `candidates`.
    Clone { object: Square, candidates: Vec<Square> },
}

/// The move being resolved while the world owes an outcome.
#[derive(Clone, Debug)]
struct Transit {
    unit: Unit,
    to: Square,
    path: Vec<Square>,
    next: usize,
    promotion: Option<PieceKind>,
    n: u32,
    cause: usize,
}

fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The state of an open-world-chess game.
#[derive(Clone, Debug)]
pub struct OpenWorld {
    rules: OpenWorldRules,
    files: u8,
    ranks: u8,
    pieces: Vec<Option<Unit>>,
    cells: Vec<Cell>,
    coins: [u32; 2],
    curses: [u32; 2],
    turn: Turn,
    moves_left: u32,
    /// The side whose last move ended on a merchant square may buy now.
    shop_open: bool,
    transit: Option<Transit>,
    owed: Option<Owed>,
    /// Squares that turned lit with the last move and may still get a
    /// `@ spawn`, in square order, with the index of their draw.
    spawnable: Vec<(Square, usize)>,
    draws: Vec<Draw>,
    commit: Option<[u8; 32]>,
    seed_seen: bool,
    event: usize,
    decided: bool,
    /// The full-move number and event index of the last move.
    last_cause: Option<(u32, usize)>,
    /// The side whose turn ended with a move onto a merchant square, and
    /// that turn's number: it may still buy.
    late_shop: Option<(Color, MoveNumber)>,
    /// The state before the event being applied, to go back to when it is
    /// rejected (buffers reused from event to event).
    saved: Box<Saved>,
}

/// What [`OpenWorld::save`] keeps.
#[derive(Clone, Debug, Default)]
struct Saved {
    pieces: Vec<Option<Unit>>,
    cells: Vec<Cell>,
    coins: [u32; 2],
    curses: [u32; 2],
    turn: Option<Turn>,
    moves_left: u32,
    shop_open: bool,
    transit: Option<Transit>,
    owed: Option<Owed>,
    spawnable: Vec<(Square, usize)>,
    draws: usize,
    decided: bool,
    last_cause: Option<(u32, usize)>,
    late_shop: Option<(Color, MoveNumber)>,
}

impl OpenWorld {
    /// Remembers the state before an event: a move resolves in several
    /// steps, and a rejected event must leave the game exactly as it was.
    fn save(&mut self) {
        let s = &mut self.saved;
        s.pieces.clone_from(&self.pieces);
        s.cells.clone_from(&self.cells);
        s.coins = self.coins;
        s.curses = self.curses;
        s.turn = Some(self.turn);
        s.moves_left = self.moves_left;
        s.shop_open = self.shop_open;
        s.transit.clone_from(&self.transit);
        s.owed.clone_from(&self.owed);
        s.spawnable.clone_from(&self.spawnable);
        s.draws = self.draws.len();
        s.decided = self.decided;
        s.last_cause = self.last_cause;
        s.late_shop = self.late_shop;
    }

    /// Goes back to the last checkpoint.
    fn restore(&mut self) {
        let s = &mut self.saved;
        self.pieces.clone_from(&s.pieces);
        self.cells.clone_from(&s.cells);
        self.coins = s.coins;
        self.curses = s.curses;
        self.turn = s.turn.unwrap_or(self.turn);
        self.moves_left = s.moves_left;
        self.shop_open = s.shop_open;
        self.transit.clone_from(&s.transit);
        self.owed.clone_from(&s.owed);
        self.spawnable.clone_from(&s.spawnable);
        self.draws.truncate(s.draws);
        self.decided = s.decided;
        self.last_cause = s.last_cause;
        self.late_shop = s.late_shop;
    }

    /// A game at its start: both armies on their first two ranks and the
    /// starting light (its spawns may be the log's first events).
    pub fn new(rules: OpenWorldRules, commit: Option<[u8; 32]>) -> OpenWorld {
        let (files, ranks) = (rules.board.0.files, rules.board.0.ranks);
        let count = usize::from(files) * usize::from(ranks);
        let mut game = OpenWorld {
            files,
            ranks,
            pieces: vec![None; count],
            cells: vec![Cell::default(); count],
            coins: [0; 2],
            curses: [0; 2],
            turn: Turn::Move {
                side: Color::White,
                number: MoveNumber(1),
            },
            moves_left: u32::from(rules.moves_per_turn),
            shop_open: false,
            transit: None,
            owed: None,
            spawnable: Vec::new(),
            draws: Vec::new(),
            commit,
            seed_seen: false,
            event: 0,
            decided: false,
            saved: Box::default(),
            last_cause: None,
            late_shop: None,
            rules,
        };
        for sq in game.rules.merchant_squares() {
            let i = game.index(sq);
            game.cells[i].merchant = true;
        }
        let shift = (files - 8) / 2;
        let back = crate::ruleset::CLASSICAL_BACK_RANK;
        for (i, kind) in back.into_iter().enumerate() {
            let f = shift + i as u8;
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, ranks - 1, ranks - 2)] {
                game.set(
                    Square::new(f, back_rank).expect("on board"),
                    Some(game.fresh_unit(color, kind)),
                );
                game.set(
                    Square::new(f, pawn_rank).expect("on board"),
                    Some(game.fresh_unit(color, PieceKind::Pawn)),
                );
            }
        }
        let occupied: Vec<Square> = game.squares().filter(|&sq| game.piece(sq).is_some()).collect();
        let mut lit = Vec::new();
        for sq in occupied {
            lit.extend(game.light_around(sq));
        }
        game.open_spawn_window(lit, 0, None);
        for cell in &mut game.cells {
            cell.fresh = false;
        }
        game
    }

    fn fresh_unit(&self, color: Color, kind: PieceKind) -> Unit {
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

    fn index(&self, sq: Square) -> usize {
        usize::from(sq.rank_index()) * usize::from(self.files) + usize::from(sq.file_index())
    }

    fn on_board(&self, sq: Square) -> bool {
        sq.file_index() < self.files && sq.rank_index() < self.ranks
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
        self.pieces[self.index(sq)]
    }

    /// The light and object of `sq`.
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[self.index(sq)]
    }

    /// A side's coins.
    pub fn coins(&self, color: Color) -> u32 {
        self.coins[side(color)]
    }

    /// Moves left in the current turn.
    pub fn moves_left(&self) -> u32 {
        self.moves_left
    }

    fn set(&mut self, sq: Square, unit: Option<Unit>) {
        let i = self.index(sq);
        self.pieces[i] = unit;
    }

    /// Whether `viewer` sees `sq`: it is lit and within the light radius of
    /// one of the viewer's pieces. (Own pieces, own coins and merchants are
    /// known whatever the light.)
    pub fn sees(&self, viewer: Color, sq: Square) -> bool {
        if !self.cell(sq).lit {
            return false;
        }
        let r = i32::from(self.rules.light_radius);
        self.squares().any(|p| {
            self.piece(p).is_some_and(|u| u.color == viewer)
                && (i32::from(p.file_index()) - i32::from(sq.file_index())).abs() <= r
                && (i32::from(p.rank_index()) - i32::from(sq.rank_index())).abs() <= r
        })
    }

    /// The squares within the light radius of `center`, in square order.
    fn light_around(&self, center: Square) -> Vec<Square> {
        let r = i32::from(self.rules.light_radius);
        self.squares()
            .filter(|sq| {
                (i32::from(sq.file_index()) - i32::from(center.file_index())).abs() <= r
                    && (i32::from(sq.rank_index()) - i32::from(center.rank_index())).abs() <= r
            })
            .collect()
    }

    /// Lights `squares`; those that turn from fogged to lit, are empty and
    /// are not merchants roll for an object, in square order.
    fn open_spawn_window(&mut self, squares: Vec<Square>, n: u32, cause: Option<usize>) {
        let mut rolls: Vec<Square> = Vec::new();
        for sq in squares {
            let i = self.index(sq);
            let was_lit = self.cells[i].lit;
            let cell = &mut self.cells[i];
            cell.lit = true;
            cell.age = 0;
            cell.fresh = true;
            if !was_lit && !cell.merchant && self.pieces[i].is_none() {
                rolls.push(sq);
            }
        }
        rolls.sort();
        rolls.dedup();
        self.spawnable = rolls
            .into_iter()
            .map(|square| {
                self.draws.push(Draw::Spawn {
                    n,
                    cause,
                    square,
                    observed: None,
                    event: None,
                });
                (square, self.draws.len() - 1)
            })
            .collect();
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
    fn geometry(&self, unit: Unit, from: Square, to: Square, capture: bool) -> Result<Vec<Square>, String> {
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

    fn current(&self) -> (Color, MoveNumber) {
        match self.turn {
            Turn::Move { side, number } => (side, number),
            Turn::Setup { .. } => (Color::White, MoveNumber(0)),
        }
    }

    /// Ends the current turn: ageing, then the opponent's turn with its
    /// moves (curses taken off, at least one left).
    fn close_turn(&mut self) -> Result<(), Fault> {
        let (mover, number) = self.current();
        let fog_after = self.rules.fog_after;
        for i in 0..self.cells.len() {
            let occupied = self.pieces[i].is_some();
            let cell = &mut self.cells[i];
            if cell.lit && !cell.fresh && !occupied {
                cell.age = cell.age.saturating_add(1);
                if cell.age >= fog_after {
                    cell.lit = false;
                    cell.age = 0;
                    cell.object = None;
                }
            }
            cell.fresh = false;
        }
        self.turn = next_turn(mover, number)?;
        let next = mover.opponent();
        let curses = std::mem::take(&mut self.curses[side(next)]);
        self.moves_left = u32::from(self.rules.moves_per_turn).saturating_sub(curses).max(1);
        self.shop_open = false;
        Ok(())
    }

    fn king_died(&mut self, color: Color) -> Option<Decision> {
        self.decided = true;
        self.transit = None;
        self.owed = None;
        self.spawnable.clear();
        Some(Decision::win(color.opponent(), Reason::KingKilled))
    }

    /// Goes on resolving the move in transit until it needs the world or is done.
    fn resolve(&mut self) -> Result<Option<Decision>, Fault> {
        let Some(mut t) = self.transit.take() else {
            return Ok(None);
        };
        while t.next < t.path.len() {
            let sq = t.path[t.next];
            t.next += 1;
            if self.cell(sq).object == Some(ObjectKind::Damage) {
                self.owed = Some(Owed::Damage {
                    square: sq,
                    on_path: true,
                });
                self.transit = Some(t);
                return Ok(None);
            }
        }
        // Combat at the target, with the HP the piece has after the path.
        let mut unit = t.unit;
        if let Some(defender) = self.piece(t.to) {
            if unit.hp < defender.hp {
                let mut d = defender;
                d.hp -= unit.hp;
                self.set(t.to, Some(d));
                if unit.kind == PieceKind::King {
                    return Ok(self.king_died(unit.color));
                }
                return Ok(self.move_done(None));
            }
            unit.hp = if unit.hp > defender.hp {
                unit.hp - defender.hp
            } else {
                1
            };
            self.set(t.to, None);
            if defender.kind == PieceKind::King {
                self.set(t.to, Some(unit));
                return Ok(self.king_died(defender.color));
            }
        }
        if let Some(p) = t.promotion {
            unit.kind = p;
            unit.range = false;
        }
        self.set(t.to, Some(unit));
        self.pick_up(t)
    }

    /// The pick-up at the target, then lighting.
    fn pick_up(&mut self, t: Transit) -> Result<Option<Decision>, Fault> {
        let i = self.index(t.to);
        let Some(mut unit) = self.pieces[i] else {
            return Ok(self.move_done(None));
        };
        let king = unit.kind == PieceKind::King;
        match self.cells[i].object {
            Some(ObjectKind::Regen) if !king => {
                unit.hp = unit.hp.saturating_add(self.rules.regen_heal).min(unit.max).max(unit.hp);
                self.cells[i].object = None;
            }
            Some(ObjectKind::Hp) if !king => {
                unit.max = unit.max.saturating_add(1);
                unit.hp = unit.hp.saturating_add(1);
                self.cells[i].object = None;
            }
            Some(ObjectKind::Damage) => {
                self.owed = Some(Owed::Damage {
                    square: t.to,
                    on_path: false,
                });
                self.transit = Some(t);
                return Ok(None);
            }
            Some(ObjectKind::Kinghp) => {
                self.cells[i].object = None;
                if let Some(ks) = self.squares().find(|&s| {
                    self.piece(s)
                        .is_some_and(|u| u.color == unit.color && u.kind == PieceKind::King)
                }) {
                    let mut k = if ks == t.to {
                        unit
                    } else {
                        self.piece(ks).expect("found")
                    };
                    if k.hp < k.max {
                        k.hp = k.max;
                    } else {
                        k.max = k.max.saturating_add(1);
                        k.hp = k.hp.saturating_add(1);
                    }
                    if ks == t.to {
                        unit = k;
                    } else {
                        self.set(ks, Some(k));
                    }
                }
            }
            Some(ObjectKind::Clone) if !king => {
                self.cells[i].object = None;
                self.set(t.to, Some(unit));
                let candidates = self.clone_squares(unit, t.to);
                if !candidates.is_empty() {
                    self.owed = Some(Owed::Clone {
                        object: t.to,
                        candidates,
                    });
                    self.transit = Some(t);
                    return Ok(None);
                }
            }
            Some(ObjectKind::Coin) => {
                self.cells[i].object = None;
                self.coins[side(unit.color)] += 1;
            }
            _ => {}
        }
        self.set(t.to, Some(unit));
        Ok(self.light_and_finish(&t))
    }

    fn clone_squares(&self, unit: Unit, at: Square) -> Vec<Square> {
        let far = if unit.color == Color::White { self.ranks - 1 } else { 0 };
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
                let cell = self.cell(sq);
                if self.piece(sq).is_none()
                    && !cell.merchant
                    && !(unit.kind == PieceKind::Pawn && sq.rank_index() == far)
                {
                    out.push(sq);
                }
            }
        }
        out.sort();
        out
    }

    fn light_and_finish(&mut self, t: &Transit) -> Option<Decision> {
        let around = self.light_around(t.to);
        self.open_spawn_window(around, t.n, Some(t.cause));
        self.move_done(Some(t.to))
    }

    /// The move is resolved; `landed` is where the piece stands if it lives.
    fn move_done(&mut self, landed: Option<Square>) -> Option<Decision> {
        self.transit = None;
        self.owed = None;
        self.moves_left = self.moves_left.saturating_sub(1);
        self.shop_open = landed.is_some_and(|sq| self.cell(sq).merchant);
        None
    }

    /// After a move is fully resolved: with no moves left and no shop open,
    /// the turn ends at once.
    /// After a move is fully resolved: with no moves left the turn ends at
    /// once, so that the opponent is the side to move (for its clock too). If
    /// the last move ended on a merchant square, the mover may still buy until
    /// the next event that is not a purchase: those purchases belong to the
    /// turn just ended.
    fn maybe_close(&mut self) -> Result<(), Fault> {
        if self.transit.is_none() && self.owed.is_none() && !self.decided && self.moves_left == 0 {
            let (mover, number) = self.current();
            let late = self.shop_open.then_some((mover, number));
            self.close_turn()?;
            self.late_shop = late;
        }
        Ok(())
    }

    /// The side that may still buy after its turn's last move, if any.
    pub fn late_shop(&self) -> Option<(Color, MoveNumber)> {
        self.late_shop
    }

    fn play_move(&mut self, mover: Color, n: MoveNumber, m: &ChessMove) -> Result<Option<Decision>, Fault> {
        let (Some(from), Some(to)) = (m.from, m.to) else {
            return Err(Fault::new(Rule::Move, "a full log names both squares of a move"));
        };
        for sq in [from, to] {
            if !self.on_board(sq) {
                return Err(Fault::new(
                    Rule::Square,
                    format!("{sq} is not on the {}x{} board", self.files, self.ranks),
                ));
            }
        }
        if self.moves_left == 0 {
            return Err(Fault::new(
                Rule::Turn,
                format!("{} has no moves left in this turn", mover.name()),
            ));
        }
        let unit = match self.piece(from) {
            Some(u) if u.color == mover => u,
            Some(_) => {
                return Err(Fault::new(
                    Rule::Move,
                    format!("the piece on {from} is not {}'s", mover.name()),
                ))
            }
            None => return Err(Fault::new(Rule::Move, format!("there is no piece on {from}"))),
        };
        if unit.kind != m.piece {
            return Err(Fault::new(
                Rule::Marker,
                format!(
                    "the piece on {from} is a {} (`{}`), not `{}`",
                    unit.kind.name(),
                    unit.kind.char(),
                    m.piece.char()
                ),
            ));
        }
        let target = self.piece(to);
        if target.is_some_and(|t| t.color == mover) {
            return Err(Fault::new(
                Rule::Move,
                format!("{to} holds {}'s own piece", mover.name()),
            ));
        }
        if target.is_some() != m.capture {
            return Err(Fault::new(
                Rule::Marker,
                if m.capture {
                    format!("`x` marks an attack, but {to} holds no piece: write `-`")
                } else {
                    format!("{to} holds an enemy piece, so the move is an attack: write `x`")
                },
            ));
        }
        let path = self
            .geometry(unit, from, to, m.capture)
            .map_err(|e| Fault::new(Rule::Move, e))?;
        let far = if mover == Color::White { self.ranks - 1 } else { 0 };
        let promotion = match (unit.kind == PieceKind::Pawn && to.rank_index() == far, m.promotion) {
            (true, p) => Some(p.unwrap_or(PieceKind::Queen)),
            (false, None) => None,
            (false, Some(_)) => return Err(Fault::new(Rule::Promotion, "a pawn promotes only on the far rank")),
        };
        self.shop_open = false;
        self.spawnable.clear();
        self.set(from, None);
        self.last_cause = Some((n.0, self.event));
        self.transit = Some(Transit {
            unit,
            to,
            path,
            next: 0,
            promotion,
            n: n.0,
            cause: self.event,
        });
        self.resolve()
    }

    fn world_damage(&mut self, square: Square, amount: u8) -> Result<Option<Decision>, Fault> {
        let Some(Owed::Damage { square: due, on_path }) = self.owed.clone() else {
            return Err(Fault::new(
                Rule::WorldEvent,
                "no damage roll is owed: `@ damage` follows a move onto or over a damage object",
            ));
        };
        if square != due {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("the damage roll owed is for the object on {due}"),
            ));
        }
        if amount == 0 || amount > self.rules.damage_roll {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("a damage roll is 1..{}", self.rules.damage_roll),
            ));
        }
        let mut t = self.transit.take().expect("a damage roll belongs to a move");
        self.owed = None;
        let i = self.index(square);
        self.cells[i].object = None;
        self.draws.push(Draw::Damage {
            n: t.n,
            cause: t.cause,
            square,
            observed: u16::from(amount),
            event: self.event,
        });
        if on_path {
            t.unit.hp = t.unit.hp.saturating_sub(u16::from(amount));
            if t.unit.hp == 0 {
                // The piece dies on the way: the move ends there.
                if t.unit.kind == PieceKind::King {
                    return Ok(self.king_died(t.unit.color));
                }
                return Ok(self.move_done(None));
            }
            self.transit = Some(t);
            return self.resolve();
        }
        let mut unit = self.piece(t.to).expect("the piece stands on the object");
        unit.hp = unit.hp.saturating_sub(u16::from(amount));
        if unit.hp == 0 {
            self.set(t.to, None);
            if unit.kind == PieceKind::King {
                return Ok(self.king_died(unit.color));
            }
            return Ok(self.move_done(None));
        }
        self.set(t.to, Some(unit));
        Ok(self.light_and_finish(&t))
    }

    fn world_clone(&mut self, square: Square) -> Result<Option<Decision>, Fault> {
        let Some(Owed::Clone { object, candidates }) = self.owed.clone() else {
            return Err(Fault::new(
                Rule::WorldEvent,
                "no clone is owed: `@ clone` follows a pick-up of a clone object",
            ));
        };
        if !candidates.contains(&square) {
            let list: Vec<String> = candidates.iter().map(Square::to_string).collect();
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("the clone goes to one of {}, not {square}", list.join(", ")),
            ));
        }
        let t = self.transit.take().expect("a clone belongs to a move");
        self.owed = None;
        let unit = self.piece(object).expect("the cloned piece");
        let clone = self.fresh_unit(unit.color, unit.kind);
        self.set(square, Some(clone));
        self.draws.push(Draw::Clone {
            n: t.n,
            cause: t.cause,
            square: object,
            candidates,
            observed: square,
            event: self.event,
        });
        Ok(self.light_and_finish(&t))
    }

    fn world_spawn(&mut self, square: Square, object: ObjectKind) -> Result<Option<Decision>, Fault> {
        let Some(pos) = self.spawnable.iter().position(|&(sq, _)| sq == square) else {
            let list: Vec<String> = self.spawnable.iter().map(|(sq, _)| sq.to_string()).collect();
            return Err(Fault::new(
                Rule::WorldEvent,
                if list.is_empty() {
                    format!("nothing may spawn on {square} now: objects spawn on squares the last move turned from fogged to lit")
                } else {
                    format!(
                        "{square} cannot spawn now; the squares that may, in square order: {}",
                        list.join(", ")
                    )
                },
            ));
        };
        if let Some(first) = self.spawn_owed().filter(|&first| first != square) {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("with spawn_chance 100 every square that rolls gets an object, in square order: {first} first"),
            ));
        }
        let (_, draw) = self.spawnable[pos];
        let n = match self.draws.get(draw) {
            Some(Draw::Spawn { n, .. }) => *n,
            _ => 0,
        };
        if !spawn_possible(&self.rules, n, object) {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!(
                    "a `{}` cannot spawn at move {n} under these parameters (its chance is 0)",
                    object.name()
                ),
            ));
        }
        self.spawnable.drain(..=pos);
        let i = self.index(square);
        self.cells[i].object = Some(object);
        if let Some(Draw::Spawn { observed, event, .. }) = self.draws.get_mut(draw) {
            *observed = Some(object);
            *event = Some(self.event);
        }
        Ok(None)
    }

    fn buy(&mut self, buyer: Color, item: Item, square: Option<Square>) -> Result<Option<Decision>, Fault> {
        let late = self.late_shop.is_some_and(|(c, _)| c == buyer);
        if !self.shop_open && !late {
            return Err(Fault::new(
                Rule::Shop,
                "purchases come right after a move that ended on a merchant square",
            ));
        }
        let price = self.rules.shop_price;
        if self.coins[side(buyer)] < price {
            return Err(Fault::new(
                Rule::Shop,
                format!(
                    "{} has {} coins; an item costs {price}",
                    buyer.name(),
                    self.coins[side(buyer)]
                ),
            ));
        }
        if let Some(sq) = square.filter(|&sq| !self.on_board(sq)) {
            return Err(Fault::new(
                Rule::Square,
                format!("{sq} is not on the {}x{} board", self.files, self.ranks),
            ));
        }
        let target = square.map(|sq| (sq, self.piece(sq)));
        let mut decision = None;
        match (item, target) {
            // After the buyer's last move the opponent's turn has begun but
            // not been played: the curse shortens that turn.
            (Item::Curse, _) if late => self.moves_left = self.moves_left.saturating_sub(1).max(1),
            (Item::Curse, _) => self.curses[side(buyer.opponent())] += 1,
            (Item::Range, Some((sq, Some(mut u))))
                if u.color == buyer && matches!(u.kind, PieceKind::Pawn | PieceKind::King) =>
            {
                if u.range {
                    return Err(Fault::new(
                        Rule::Shop,
                        format!("the {} on {sq} has range already (once per piece)", u.kind.name()),
                    ));
                }
                u.range = true;
                self.set(sq, Some(u));
            }
            (Item::Hp, Some((sq, Some(mut u)))) if u.color == buyer => {
                u.max = u.max.saturating_add(self.rules.shop_hp);
                u.hp = u.hp.saturating_add(self.rules.shop_hp);
                self.set(sq, Some(u));
            }
            (Item::Drain, Some((sq, Some(mut u)))) if u.color != buyer => {
                if !self.sees(buyer, sq) {
                    return Err(Fault::new(
                        Rule::Shop,
                        format!("{} does not see {sq}, so it cannot drain the piece there", buyer.name()),
                    ));
                }
                u.hp = u.hp.saturating_sub(self.rules.drain_hp);
                if u.hp == 0 {
                    self.set(sq, None);
                    if u.kind == PieceKind::King {
                        decision = self.king_died(u.color);
                    }
                } else {
                    self.set(sq, Some(u));
                }
            }
            (item, _) => {
                let what = match item {
                    Item::Range => "an own pawn or king",
                    Item::Hp => "an own piece",
                    _ => "an enemy piece",
                };
                return Err(Fault::new(
                    Rule::Shop,
                    format!("`buy {}` needs {what} on its square", item.name()),
                ));
            }
        }
        self.coins[side(buyer)] -= price;
        Ok(decision)
    }

    /// The move `m` as canonical FGN writes it (the promotion piece written
    /// out), if it names a pawn reaching the far rank.
    pub fn canonical_move(&self, mover: Color, m: &ChessMove) -> Option<ChessMove> {
        let to = m.to?;
        let far = if mover == Color::White { self.ranks - 1 } else { 0 };
        (m.piece == PieceKind::Pawn && to.rank_index() == far && m.promotion.is_none()).then_some(ChessMove {
            promotion: Some(PieceKind::Queen),
            ..*m
        })
    }

    fn verify_seed(&self, seed: &[u8; 32]) -> Result<(), Fault> {
        let draws = Draws::new(seed);
        for d in &self.draws {
            match d {
                Draw::Spawn {
                    n,
                    cause,
                    square,
                    observed,
                    event,
                } => {
                    let derived = derive_spawn(&self.rules, &draws, *n, *cause, *square);
                    if derived != *observed {
                        let said =
                            observed.map_or("no object".to_string(), |o| format!("`spawn {square} {}`", o.name()));
                        let truth =
                            derived.map_or("no object".to_string(), |o| format!("`spawn {square} {}`", o.name()));
                        let fault = Fault::new(
                            Rule::Seed,
                            format!("the revealed seed gives {truth} on {square}, but the log has {said}"),
                        );
                        return Err(match event.or(*cause) {
                            Some(e) => fault.at(e),
                            None => fault,
                        });
                    }
                }
                Draw::Damage {
                    n,
                    cause,
                    square,
                    observed,
                    event,
                } => {
                    let derived = derive_damage(&self.rules, &draws, *n, *cause, *square);
                    if u16::from(derived) != *observed {
                        return Err(Fault::new(
                            Rule::Seed,
                            format!("the revealed seed rolls {derived} for the damage on {square}, not {observed}"),
                        )
                        .at(*event));
                    }
                }
                Draw::Clone {
                    n,
                    cause,
                    square,
                    candidates,
                    observed,
                    event,
                } => {
                    let derived = derive_clone(&draws, *n, *cause, *square, candidates);
                    if derived != *observed {
                        return Err(Fault::new(
                            Rule::Seed,
                            format!("the revealed seed puts the clone on {derived}, not {observed}"),
                        )
                        .at(*event));
                    }
                }
            }
        }
        Ok(())
    }

    /// The square whose spawn the world owes next: with `spawn_chance` 100
    /// every square that rolls gets an object (RULES.md: "possible" is
    /// exact), so the spawns are owed like any other outcome.
    fn spawn_owed(&self) -> Option<Square> {
        (self.rules.spawn_chance >= 100)
            .then(|| self.spawnable.first().map(|&(sq, _)| sq))
            .flatten()
    }

    /// The squares that may still get a `@ spawn` after the last move, in square order.
    pub fn spawnable(&self) -> Vec<Square> {
        self.spawnable.iter().map(|&(sq, _)| sq).collect()
    }

    /// The world event the engine waits for: a damage roll on a square, or
    /// a clone's square among candidates.
    pub fn owed(&self) -> Option<(Square, Option<Vec<Square>>)> {
        match &self.owed {
            Some(Owed::Damage { square, .. }) => Some((*square, None)),
            Some(Owed::Clone { object, candidates }) => Some((*object, Some(candidates.clone()))),
            None => None,
        }
    }

    /// The full-move number and event of the last move, whose outcomes and
    /// spawns are being recorded.
    pub fn last_cause(&self) -> Option<(u32, usize)> {
        self.last_cause
    }

    /// The move in transit's full-move number and causing event, for deriving its outcomes.
    pub fn cause(&self) -> Option<(u32, usize)> {
        self.transit.as_ref().map(|t| (t.n, t.cause))
    }

    /// Whether the side to move may buy now.
    pub fn shop_open(&self) -> bool {
        self.shop_open
    }

    /// Every move of `color`'s pieces that the geometry allows, with its
    /// attack marker (promotion left to the default).
    pub fn moves(&self, color: Color) -> Vec<ChessMove> {
        let mut out = Vec::new();
        let squares: Vec<Square> = self.squares().collect();
        for &from in &squares {
            let Some(unit) = self.piece(from).filter(|u| u.color == color) else {
                continue;
            };
            for &to in &squares {
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
}

/// The label base of a draw: full move, causing event (`start` for the
/// starting light) and square.
fn label(n: u32, cause: Option<usize>, square: Square) -> String {
    format!("{n}/{}/{square}", cause.map_or("start".to_string(), |c| c.to_string()))
}

/// What the seed gives a square that turned lit: no object, a coin or a bonus.
pub fn derive_spawn(
    r: &OpenWorldRules,
    draws: &Draws,
    n: u32,
    cause: Option<usize>,
    square: Square,
) -> Option<ObjectKind> {
    let base = label(n, cause, square);
    if draws.below(&format!("open-world-chess/spawn/{base}"), 100) >= u64::from(r.spawn_chance) {
        return None;
    }
    if draws.below(&format!("open-world-chess/coin/{base}"), 100) < u64::from(r.coin_share) {
        return Some(ObjectKind::Coin);
    }
    Some(bonus_kind(
        r,
        n,
        draws.below(&format!("open-world-chess/bonus/{base}"), 100),
        draws,
        &base,
    ))
}

/// The damage roll the seed gives for the object on `square`.
pub fn derive_damage(r: &OpenWorldRules, draws: &Draws, n: u32, cause: usize, square: Square) -> u8 {
    let roll = draws.below(
        &format!("open-world-chess/damage/{}", label(n, Some(cause), square)),
        u64::from(r.damage_roll),
    );
    1 + roll as u8
}

/// The square the seed gives a clone picked up on `square`.
pub fn derive_clone(draws: &Draws, n: u32, cause: usize, square: Square, candidates: &[Square]) -> Square {
    let k = draws.below(
        &format!("open-world-chess/clone/{}", label(n, Some(cause), square)),
        candidates.len() as u64,
    );
    candidates[k as usize]
}

/// The damage share (percent of bonuses) at full move `n`.
fn damage_share(r: &OpenWorldRules, n: u32) -> u32 {
    let ramp = n.saturating_sub(r.damage_ramp_start).saturating_mul(r.damage_ramp_step);
    r.bonus_weights.damage.saturating_add(ramp).min(r.damage_max)
}

/// Whether `object` can spawn at full move `n` at all: without the seed
/// that is all a log's spawns can be checked for.
fn spawn_possible(r: &OpenWorldRules, n: u32, object: ObjectKind) -> bool {
    if r.spawn_chance == 0 {
        return false;
    }
    let w = r.bonus_weights;
    let share = damage_share(r, n);
    match object {
        ObjectKind::Coin => r.coin_share > 0,
        _ if r.coin_share >= 100 => false,
        ObjectKind::Damage => share > 0,
        _ if share >= 100 => false,
        ObjectKind::Regen => w.regen > 0,
        ObjectKind::Hp => w.hp > 0,
        ObjectKind::Kinghp => w.kinghp > 0,
        ObjectKind::Clone => w.clone > 0,
    }
}

/// The bonus a roll `x` in 0..100 gives at full move `n`: damage with the
/// ramped share, otherwise one of the others by their weights.
fn bonus_kind(r: &OpenWorldRules, n: u32, x: u64, draws: &Draws, base: &str) -> ObjectKind {
    let w = r.bonus_weights;
    if x < u64::from(damage_share(r, n)) {
        return ObjectKind::Damage;
    }
    let total = u64::from(w.regen + w.hp + w.kinghp + w.clone);
    let mut y = draws.below(&format!("open-world-chess/kind/{base}"), total);
    for (kind, weight) in [
        (ObjectKind::Regen, w.regen),
        (ObjectKind::Hp, w.hp),
        (ObjectKind::Kinghp, w.kinghp),
        (ObjectKind::Clone, w.clone),
    ] {
        if y < u64::from(weight) {
            return kind;
        }
        y -= u64::from(weight);
    }
    ObjectKind::Clone
}

impl Engine for OpenWorld {
    fn turn(&self) -> Turn {
        self.turn
    }

    fn player(&mut self, actor: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        self.player_in_place(actor, n, action)
    }

    fn world(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        self.world_in_place(action)
    }

    fn checkpoint(&mut self) {
        self.save();
    }

    fn rollback(&mut self) {
        self.restore();
    }

    fn setup_timeout(&mut self, _side: Color) -> Result<Option<Decision>, Fault> {
        Err(Fault::new(Rule::Timeout, "open-world-chess has no setup"))
    }

    fn owes_world_event(&self) -> bool {
        self.owed.is_some() || self.spawn_owed().is_some()
    }

    fn owed_world_event(&self) -> Option<String> {
        match &self.owed {
            Some(Owed::Damage { square, .. }) => Some(format!("`@ damage {square} N` for the damage object there")),
            Some(Owed::Clone { object, .. }) => Some(format!("`@ clone SQUARE` for the clone picked up on {object}")),
            None => self.spawn_owed().map(|sq| {
                format!("`@ spawn {sq} KIND`: {sq} turned lit, and with spawn_chance 100 every square that rolls gets an object")
            }),
        }
    }

    fn extending(&self) -> Option<Color> {
        self.late_shop.map(|(buyer, _)| buyer)
    }

    fn at_event(&mut self, index: usize) {
        self.event = index;
    }

    fn seed(&mut self, seed: &[u8; 32]) -> Result<(), Fault> {
        crate::seed::check_revealed(seed, self.commit, self.seed_seen)?;
        self.verify_seed(seed)?;
        self.seed_seen = true;
        Ok(())
    }
}

impl OpenWorld {
    fn world_in_place(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        let decision = match action {
            Action::Damage { square, amount } => self.world_damage(*square, *amount)?,
            Action::Clone { square } => self.world_clone(*square)?,
            Action::Spawn { square, object } => return self.world_spawn(*square, *object),
            other => {
                return Err(Fault::new(
                    Rule::WorldEvent,
                    format!(
                        "`{}` is not a world event of open-world-chess",
                        fgn_notation::forms::keyword(other)
                    ),
                ))
            }
        };
        self.maybe_close()?;
        Ok(decision)
    }

    fn player_in_place(&mut self, actor: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        // The spawn window closes at the first event that is not a spawn.
        self.spawnable.clear();
        let buying = matches!(action, Action::Buy { .. });
        if let (Some((buyer, turn_number)), Action::Buy { item, square, .. }) = (self.late_shop, action) {
            if buyer == actor {
                if n != turn_number {
                    return Err(Fault::new(
                        Rule::MoveNumber,
                        format!(
                            "a purchase after {}'s last move carries that turn's number {turn_number}, not {n}",
                            actor.name()
                        ),
                    ));
                }
                return self.buy(actor, *item, *square);
            }
        }
        // Any other event closes the late shop.
        self.late_shop = None;
        let (mover, number) = self.current();
        if actor != mover {
            // The mover's turn ends at the opponent's event once its moves are spent.
            if self.moves_left == 0 && !self.decided {
                self.close_turn()?;
            } else {
                return Err(Fault::new(Rule::Turn, format!("it is {}'s turn", mover.name())));
            }
        } else if self.shop_open && !buying {
            self.shop_open = false;
            if self.moves_left == 0 {
                return Err(Fault::new(
                    Rule::Turn,
                    format!("{}'s turn is over: its moves are spent", mover.name()),
                ));
            }
        }
        let (mover, number) = if actor != mover {
            self.current()
        } else {
            (mover, number)
        };
        if n != number {
            return Err(Fault::new(
                Rule::MoveNumber,
                format!("{}'s turn carries move number {number}, not {n}", mover.name()),
            ));
        }
        let decision = match action {
            Action::Move(m) => self.play_move(actor, number, m)?,
            Action::End => {
                if self.moves_left == 0 {
                    return Err(Fault::new(
                        Rule::Turn,
                        "`end` ends a turn early, while a move remains; this one has none left",
                    ));
                }
                self.moves_left = 0;
                self.shop_open = false;
                self.close_turn()?;
                return Ok(None);
            }
            Action::Buy { item, square, .. } => self.buy(actor, *item, *square)?,
            other => {
                return Err(Fault::new(
                    Rule::Move,
                    format!(
                        "`{}` is not an action of open-world-chess",
                        fgn_notation::forms::keyword(other)
                    ),
                ))
            }
        };
        if decision.is_none() && !buying {
            self.maybe_close()?;
        }
        Ok(decision)
    }
}
