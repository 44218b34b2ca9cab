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
//!
//! The files: `board` (pieces, squares and move geometry), `light` (light,
//! ageing, fog, vision and the spawn window), `resolve` (a move's steps and
//! the world events they owe), `outcomes` (the random outcomes: what may
//! spawn, what a seed derives, the seed check), `shop` (purchases),
//! `engine` (turns), `state` (the values of the game API: state,
//! knowledge, legal actions), `referee` (what the world owes and the
//! outcomes a seed gives) and `view` (a player's view in the fog). This
//! file holds the game's data and its checkpoint, `game` its `Game` contract.
//!
//! Where the time goes, and why it is laid out so (docs/performance.md):
//! an event costs a checkpoint, which copies the board's two vectors as
//! plain slices of the same length and the rest as small values (a move in
//! transit is `Copy`: its path is a `board::Line`, not a list); a move
//! costs its geometry, which allocates nothing, and its light, which walks
//! the window around the piece in square order straight into the spawn
//! window; a turn's end costs one pass over the board for the ageing; and a
//! revealed seed costs one blake3 draw per square that rolled, each named on
//! the stack. The list of legal actions, which the fuzzers and the
//! generator ask for at most events, comes from each piece's rays and steps.

use fgn_notation::{ByColor, Color, MoveNumber, ObjectKind, PieceKind, Square};

mod board;
pub(crate) mod changes;
mod engine;
mod game;
mod light;
mod outcomes;
pub(crate) mod params;
mod picture;
mod referee;
mod resolve;
mod shop;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use crate::changes::values::{MovingPiece, OwedOutcome};
pub use board::Unit;
pub use outcomes::{derive_clone, derive_damage, derive_spawn, Cause};
pub use state::{KnownPiece, KnownSquare, LitSquare, OpenWorldKnowledge, OpenWorldState, PieceState, Public};

use crate::core::progress::Turn;
use light::SpawnWindow;
use outcomes::Draw;
use params::OpenWorldRules;
use resolve::{Owed, Transit};

/// The state of an open-world-chess game.
#[derive(Clone, Debug)]
pub struct OpenWorld {
    rules: OpenWorldRules,
    files: u8,
    ranks: u8,
    /// Everything an event can change but the seed-check history.
    world: World,
    /// Every random outcome so far, for the seed check: append-only, so a
    /// rejected event is undone by cutting it back to its saved length.
    draws: Vec<Draw>,
    commit: Option<[u8; 32]>,
    /// The index of the event being applied, to name it in later messages.
    event: usize,
    /// The state before the event being applied, to go back to when it is
    /// rejected (its buffers reused from event to event).
    saved: Box<Checkpoint>,
}

/// The mutable data of a game: everything an event can change, apart from
/// the append-only seed-check history. [`Clone::clone_from`] is written by
/// hand, destructuring every field, so that a new field cannot be left out
/// of the checkpoint and the buffers are reused without allocating.
#[derive(Debug)]
struct World {
    pieces: Vec<Option<Unit>>,
    /// Each square's flags ([`light::LIT`], [`light::FRESH`],
    /// [`light::OCCUPIED`] kept in step with `pieces`, and the fixed
    /// [`light::MERCHANT`]), apart from its age
    /// and object: arrays of bytes, so that the ageing at every turn's end
    /// is one pass the compiler can do many squares at a time.
    light: Vec<u8>,
    /// Turns since each square was last lit.
    ages: Vec<u8>,
    /// The object lying on each square (only lit squares hold one).
    objects: Vec<Option<ObjectKind>>,
    coins: ByColor<u32>,
    curses: ByColor<u32>,
    turn: Turn,
    moves_left: u32,
    /// The moves played in the current turn: the next move's place within
    /// it, less one, which names its draws (a curse shortens the turn, not
    /// the count).
    played: u32,
    /// The side whose last move ended on a merchant square may buy now.
    shop_open: bool,
    /// The move being resolved while the world owes an outcome.
    transit: Option<Transit>,
    /// The outcome the world owes before anything else may happen.
    owed: Option<Owed>,
    /// The squares that turned lit with the last move (or the start) and
    /// may still get a `@ spawn`.
    spawns: SpawnWindow,
    /// A king died: the result is the next event.
    decided: bool,
    /// Whose king died, and on which square (for an attacking king, the
    /// square it attacked): who saw it die knows the game is decided.
    fallen: Option<(Color, Square)>,
    /// The side whose turn ended with a move onto a merchant square, and
    /// that turn's number: it may still buy.
    late_shop: Option<(Color, MoveNumber)>,
    /// The seed has been revealed and checked.
    seed_seen: bool,
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
struct Checkpoint {
    world: World,
    draws: usize,
}

impl OpenWorld {
    /// A game at its start: both armies on their first two ranks and the
    /// starting light (its spawns may be the log's first events).
    pub(crate) fn new(rules: OpenWorldRules, commit: Option<[u8; 32]>) -> OpenWorld {
        let (files, ranks) = (rules.board.0.files, rules.board.0.ranks);
        let count = usize::from(files) * usize::from(ranks);
        let world = World {
            pieces: vec![None; count],
            light: vec![0; count],
            ages: vec![0; count],
            objects: vec![None; count],
            coins: ByColor::both(0),
            curses: ByColor::both(0),
            turn: Turn::Move {
                side: Color::White,
                number: MoveNumber(1),
            },
            moves_left: u32::from(rules.moves_per_turn),
            played: 0,
            shop_open: false,
            transit: None,
            owed: None,
            spawns: SpawnWindow::default(),
            decided: false,
            fallen: None,
            late_shop: None,
            seed_seen: false,
        };
        let mut game = OpenWorld {
            files,
            ranks,
            saved: Box::new(Checkpoint {
                world: world.clone(),
                draws: 0,
            }),
            world,
            draws: Vec::new(),
            commit,
            event: 0,
            rules,
        };
        for sq in game.rules.merchant_squares() {
            let i = game.index(sq);
            game.world.light[i] |= light::MERCHANT;
        }
        let shift = (files - 8) / 2;
        let back = crate::core::params::CLASSICAL_BACK_RANK;
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
        game.light_start();
        game
    }

    /// Remembers the state before an event: a move resolves in several
    /// steps, and a rejected event must leave the game exactly as it was.
    fn save(&mut self) {
        self.saved.world.clone_from(&self.world);
        self.saved.draws = self.draws.len();
    }

    /// Goes back to the last checkpoint.
    fn restore(&mut self) {
        self.world.clone_from(&self.saved.world);
        self.draws.truncate(self.saved.draws);
    }
}
