//! The game's type, [`OpenWorld`], and its data: the [`World`] an event
//! can change, the history the seed check keeps, the checkpoint an event
//! is undone to, and the values they hold (pieces, the square flags, a
//! move's path, the move in transit and the outcome owed, the spawn window,
//! the draws and their causes). Below every module that adds an `impl
//! OpenWorld` block for its concern (board, light, outcomes, resolve, shop,
//! turns, state, referee): what it defines itself needs none of them.

use fgn_notation::{ByColor, Color, MoveNumber, ObjectKind, PieceKind, Square};

use super::params::OpenWorldRules;
use crate::core::progress::Turn;

/// The state of an open-world-chess game.
#[derive(Clone, Debug)]
pub struct OpenWorld {
    pub(super) rules: OpenWorldRules,
    pub(super) files: u8,
    pub(super) ranks: u8,
    /// Everything an event can change but the seed-check history.
    pub(super) world: World,
    /// Every random outcome so far, for the seed check: append-only, so a
    /// rejected event is undone by cutting it back to its saved length.
    pub(super) draws: Vec<Draw>,
    pub(super) commit: Option<[u8; 32]>,
    /// The index of the event being applied, to name it in later messages.
    pub(super) event: usize,
    /// The state before the event being applied, to go back to when it is
    /// rejected (its buffers reused from event to event).
    pub(super) saved: Box<Checkpoint>,
}

/// The mutable data of a game: everything an event can change, apart from
/// the append-only seed-check history. [`Clone::clone_from`] is written by
/// hand, destructuring every field, so that a new field cannot be left out
/// of the checkpoint and the buffers are reused without allocating.
#[derive(Debug)]
pub(super) struct World {
    pub(super) pieces: Vec<Option<Unit>>,
    /// Each square's flags ([`LIT`], [`FRESH`],
    /// [`OCCUPIED`] kept in step with `pieces`, and the fixed
    /// [`MERCHANT`]), apart from its age
    /// and object: arrays of bytes, so that the ageing at every turn's end
    /// is one pass the compiler can do many squares at a time.
    pub(super) light: Vec<u8>,
    /// Turns since each square was last lit.
    pub(super) ages: Vec<u8>,
    /// The object lying on each square (only lit squares hold one).
    pub(super) objects: Vec<Option<ObjectKind>>,
    pub(super) coins: ByColor<u32>,
    pub(super) curses: ByColor<u32>,
    pub(super) turn: Turn,
    pub(super) moves_left: u32,
    /// The moves played in the current turn: the next move's place within
    /// it, less one, which names its draws (a curse shortens the turn, not
    /// the count).
    pub(super) played: u32,
    /// The side whose last move ended on a merchant square may buy now.
    pub(super) shop_open: bool,
    /// The move being resolved while the world owes an outcome.
    pub(super) transit: Option<Transit>,
    /// The outcome the world owes before anything else may happen.
    pub(super) owed: Option<Owed>,
    /// The squares that turned lit with the last move (or the start) and
    /// may still get a `@ spawn`.
    pub(super) spawns: SpawnWindow,
    /// A king died: the result is the next event.
    pub(super) decided: bool,
    /// Whose king died, and on which square (for an attacking king, the
    /// square it attacked): who saw it die knows the game is decided.
    pub(super) fallen: Option<(Color, Square)>,
    /// The side whose turn ended with a move onto a merchant square, and
    /// that turn's number: it may still buy.
    pub(super) late_shop: Option<(Color, MoveNumber)>,
    /// The seed has been revealed and checked.
    pub(super) seed_seen: bool,
}

impl Clone for World {
    fn clone(&self) -> World {
        let World {
            pieces,
            light,
            ages,
            objects,
            coins,
            curses,
            turn,
            moves_left,
            played,
            shop_open,
            transit,
            owed,
            spawns,
            decided,
            fallen,
            late_shop,
            seed_seen,
        } = self;
        World {
            pieces: pieces.clone(),
            light: light.clone(),
            ages: ages.clone(),
            objects: objects.clone(),
            coins: *coins,
            curses: *curses,
            turn: *turn,
            moves_left: *moves_left,
            played: *played,
            shop_open: *shop_open,
            transit: *transit,
            owed: owed.clone(),
            spawns: spawns.clone(),
            decided: *decided,
            fallen: *fallen,
            late_shop: *late_shop,
            seed_seen: *seed_seen,
        }
    }

    fn clone_from(&mut self, source: &World) {
        let World {
            pieces,
            light,
            ages,
            objects,
            coins,
            curses,
            turn,
            moves_left,
            played,
            shop_open,
            transit,
            owed,
            spawns,
            decided,
            fallen,
            late_shop,
            seed_seen,
        } = self;
        // The board's size never changes: a plain copy of the same length.
        pieces.copy_from_slice(&source.pieces);
        light.copy_from_slice(&source.light);
        ages.copy_from_slice(&source.ages);
        objects.copy_from_slice(&source.objects);
        *coins = source.coins;
        *curses = source.curses;
        *turn = source.turn;
        *moves_left = source.moves_left;
        *played = source.played;
        *shop_open = source.shop_open;
        *transit = source.transit;
        owed.clone_from(&source.owed);
        spawns.clone_from(&source.spawns);
        *decided = source.decided;
        *fallen = source.fallen;
        *late_shop = source.late_shop;
        *seed_seen = source.seed_seen;
    }
}

/// What a checkpoint keeps: the world, and how long the history was.
#[derive(Clone, Debug)]
pub(super) struct Checkpoint {
    pub(super) world: World,
    pub(super) draws: usize,
}

impl OpenWorld {
    /// Remembers the state before an event: a move resolves in several
    /// steps, and a rejected event must leave the game exactly as it was.
    pub(super) fn save(&mut self) {
        self.saved.world.clone_from(&self.world);
        self.saved.draws = self.draws.len();
    }

    /// Goes back to the last checkpoint.
    pub(super) fn restore(&mut self) {
        self.world.clone_from(&self.saved.world);
        self.draws.truncate(self.saved.draws);
    }

    /// A side's coins.
    pub(crate) fn coins(&self, color: Color) -> u32 {
        self.world.coins[color]
    }

    /// The world event the engine waits for: a damage roll on a square, or
    /// a clone's square among candidates.
    /// The king that died and where, once one has.
    pub(super) fn fallen(&self) -> Option<(Color, Square)> {
        self.world.fallen
    }

    /// The target of the move under way, if any.
    pub(super) fn moving_to(&self) -> Option<Square> {
        self.world.transit.as_ref().map(|t| t.to)
    }

    /// Whose move is under way (in transit: waiting for the world), if any.
    pub(super) fn moving_color(&self) -> Option<Color> {
        self.world.transit.as_ref().map(|t| t.unit.color)
    }

    pub(crate) fn owed(&self) -> Option<(Square, Option<Vec<Square>>)> {
        match &self.world.owed {
            Some(Owed::Damage { square, .. }) => Some((*square, None)),
            Some(Owed::Clone { object, candidates }) => Some((*object, Some(candidates.clone()))),
            None => None,
        }
    }

    /// The move in transit's full-move number and cause, for deriving its outcomes.
    pub(crate) fn cause(&self) -> Option<(u32, Cause)> {
        self.world.transit.as_ref().map(|t| (t.n, t.cause))
    }

    /// Whose turn it is, and which.
    pub(super) fn turn_now(&self) -> Turn {
        self.world.turn
    }

    /// The side to move and its turn's number.
    pub(super) fn current(&self) -> (Color, MoveNumber) {
        match self.world.turn {
            Turn::Move { side, number } => (side, number),
            // Open-world-chess has no setup; its turn is never this.
            Turn::Setup { .. } => (Color::White, MoveNumber(0)),
        }
    }
}

// The values the data holds. They are defined here, below the modules that
// work with them (board, light, outcomes, resolve), because the world's
// fields are made of them.

/// A square's light flag: lit (else fogged).
pub(super) const LIT: u8 = 1;
/// A square's light flag: lit during the current turn (it does not age at its end).
pub(super) const FRESH: u8 = 2;
/// A square's light flag: a piece stands there (it does not age either).
pub(super) const OCCUPIED: u8 = 4;
/// A square's flag: a merchant square (never rolls for an object).
pub(super) const MERCHANT: u8 = 8;

/// A piece on the board with its hit points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unit {
    /// Whose.
    pub color: Color,
    /// Which piece.
    pub kind: PieceKind,
    /// Hit points.
    pub hp: u64,
    /// Maximum hit points.
    pub max: u64,
    /// Whether the shop's range upgrade is on it (pawns and kings).
    pub range: bool,
}

/// The squares a move passes over, strictly between its square and its
/// target, in path order: `between` steps of `(df, dr)` from `from`. A
/// value, not a list, so that checking and resolving a move allocates
/// nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Line {
    pub(super) from: Square,
    pub(super) df: i8,
    pub(super) dr: i8,
    pub(super) between: u8,
}

impl Line {
    /// The path of a jump (a knight's move): no square.
    pub(super) fn jump(from: Square) -> Line {
        Line {
            from,
            df: 0,
            dr: 0,
            between: 0,
        }
    }

    /// How many squares the move passes over.
    pub(super) fn len(self) -> usize {
        usize::from(self.between)
    }

    /// The `k`-th square passed over (from 0), for `k < self.len()`.
    pub(super) fn get(self, k: usize) -> Square {
        let k = k as i32 + 1;
        let f = i32::from(self.from.file_index()) + i32::from(self.df) * k;
        let r = i32::from(self.from.rank_index()) + i32::from(self.dr) * k;
        Square::new(f as u8, r as u8).expect("between two squares of the board")
    }

    /// The squares passed over, in path order.
    pub(super) fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.len()).map(move |k| self.get(k))
    }
}

/// What caused a draw, as its label names it (docs/notation.md §12.6): the
/// starting light, or a move, by its side and its place within that side's
/// turn. Never an event's index in the log: chat and the other events a
/// server relays would shift it, and a server that knows the seed could
/// then choose an outcome by where it puts a player's chat line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The starting light, before any move (move number 0).
    Start,
    /// The move of `side` that was the `place`-th of its turn, counted from 1.
    Move {
        /// The side that moved.
        side: Color,
        /// The move's place within its turn: 1 for the turn's first move.
        place: u32,
    },
}

/// A random outcome the log recorded (or did not), kept for the seed check.
/// `event` is where a refutation is reported: the world event that
/// recorded the outcome, or for a spawn the log left out, the move that
/// lit the square (the event that went past it, for the starting light).
#[derive(Clone, Debug)]
pub(super) enum Draw {
    /// A square that turned lit and rolled for an object.
    Spawn {
        n: u32,
        cause: Cause,
        square: Square,
        observed: Option<ObjectKind>,
        event: Option<usize>,
    },
    /// A damage roll.
    Damage {
        n: u32,
        cause: Cause,
        square: Square,
        observed: u16,
        event: usize,
    },
    /// Where a clone went, among the candidates in square order.
    Clone {
        n: u32,
        cause: Cause,
        square: Square,
        candidates: Vec<Square>,
        observed: Square,
        event: usize,
    },
}

/// The squares that turned lit with one move (or the start) and may still
/// get a `@ spawn`, in square order, with the move that lit them.
#[derive(Debug)]
pub(super) struct SpawnWindow {
    /// The full-move number of the move that lit them (0 at the start).
    pub(super) n: u32,
    /// What lit them, as the draws' labels name it.
    pub(super) cause: Cause,
    /// The event of the move that lit them (`None` for the starting light),
    /// where a spawn the log left out is reported.
    pub(super) lit_at: Option<usize>,
    /// The squares still open, in square order.
    pub(super) squares: Vec<Square>,
}

impl Default for SpawnWindow {
    fn default() -> SpawnWindow {
        SpawnWindow {
            n: 0,
            cause: Cause::Start,
            lit_at: None,
            squares: Vec::new(),
        }
    }
}

impl Clone for SpawnWindow {
    fn clone(&self) -> SpawnWindow {
        let SpawnWindow {
            n,
            cause,
            lit_at,
            squares,
        } = self;
        SpawnWindow {
            n: *n,
            cause: *cause,
            lit_at: *lit_at,
            squares: squares.clone(),
        }
    }

    fn clone_from(&mut self, source: &SpawnWindow) {
        let SpawnWindow {
            n,
            cause,
            lit_at,
            squares,
        } = self;
        *n = source.n;
        *cause = source.cause;
        *lit_at = source.lit_at;
        squares.clone_from(&source.squares);
    }
}

/// What the world owes before anything else may happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Owed {
    /// A damage roll against the moving piece for the object on `square`.
    Damage { square: Square, on_path: bool },
    /// The square of a clone, one of `candidates`.
    Clone { object: Square, candidates: Vec<Square> },
}

/// The move being resolved while the world owes an outcome.
#[derive(Clone, Copy, Debug)]
pub(super) struct Transit {
    pub(super) unit: Unit,
    pub(super) to: Square,
    pub(super) path: Line,
    pub(super) next: usize,
    pub(super) promotion: Option<PieceKind>,
    pub(super) n: u32,
    /// The move as its draws' labels name it.
    pub(super) cause: Cause,
    /// The move's event in the log, where the spawns it owes are reported.
    pub(super) event: usize,
}
