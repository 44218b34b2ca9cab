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
//! The modules, in their dependency order, bottom to top (each uses only
//! modules listed before it, never one listed after it):
//!
//! - `params`: the parameters (rules data) and their header tags.
//! - `told`: what a player's view has told its player, read from its lines
//!   literally: the one reading the view's writer and its reader share.
//! - `engine`: the game's type, [`OpenWorld`], with its data (the world an
//!   event changes, the seed check's history, the checkpoint) and the
//!   values that data holds (pieces, square flags, a move's path, the move
//!   in transit and the outcome it owes, the spawn window, the draws and
//!   their [`Cause`]s). It stands below the board and the other rules, not
//!   above them as in the other games, because each of them is an `impl
//!   OpenWorld` block on this data; the engine's turns are `turns`, above
//!   the rules they call.
//! - `board`: squares, cells and the move geometry.
//! - `light`: light, ageing, fog, vision and the spawn window.
//! - `outcomes`: the random outcomes: what may spawn, what a seed derives,
//!   a `@ spawn`, whether the world owes an event, and the seed check.
//! - `resolve`: a move's steps in rule order, and the `@ damage` and
//!   `@ clone` that it waits for (it uses nothing of `outcomes`).
//! - `shop`: purchases.
//! - `turns`: the start (pieces and the starting light), who may act, what
//!   a player's or the world's action does to the turn, and its end.
//! - `state`: the values of the game API (state, knowledge) as read from
//!   the game, the legal actions and the progress a viewer knows.
//! - `referee`: the world event owed first (`OwedEvent`) and the one a
//!   seed gives next.
//! - `sight`: what a player finds on the board as its view tells it (the
//!   squares it sees, their content, what its own move waits for).
//! - `known`: a player's view read on its own into what the player knows.
//! - `view`: a player's view in the fog, and its reader (`known`).
//! - `changes`: the game's part of the account of changes, over `state`'s
//!   values.
//! - `picture`: the state and each viewer's knowledge as a picture.
//! - `game`: its `Game` contract, the top: nothing in the folder uses it.
//!
//! Where the time goes, and why it is laid out so (docs/performance.md):
//! an event costs a checkpoint, which copies the board's two vectors as
//! plain slices of the same length and the rest as small values (a move in
//! transit is `Copy`: its path is an `engine::Line`, not a list); a move
//! costs its geometry, which allocates nothing, and its light, which walks
//! the window around the piece in square order straight into the spawn
//! window; a turn's end costs one pass over the board for the ageing; and a
//! revealed seed costs one blake3 draw per square that rolled, each named on
//! the stack. The list of legal actions, which the fuzzers and the
//! generator ask for at most events, comes from each piece's rays and steps.

mod board;
pub(crate) mod changes;
mod engine;
mod game;
mod known;
mod light;
mod outcomes;
pub(crate) mod params;
mod picture;
mod referee;
mod resolve;
mod shop;
mod sight;
mod state;
#[cfg(test)]
mod tests;
mod told;
mod turns;
mod view;

pub use crate::changes::values::{MovingPiece, OwedOutcome};
pub use engine::{Cause, OpenWorld};
pub use outcomes::{derive_clone, derive_damage, derive_spawn};
pub use state::{KnownPiece, KnownSquare, LitSquare, OpenWorldKnowledge, OpenWorldState, PieceState, Public};
