//! Magic Draughts (RULES.md section 4): Russian draughts where every checker
//! carries a hidden number, revealed when it is captured, and a captured
//! magic checker casts a spell for its owner at the start of the owner's
//! next turn. With `magic = false` it is plain Russian draughts.
//!
//! The modules, in dependency order, bottom to top (each uses only
//! modules listed before it, never one listed after it):
//! - `params`: the parameters (magic, the numbers, the revenge ranks) and header tags.
//! - `draughts`: Russian draughts on 32-square bitboards: board, move generation, move lookup, perft.
//! - `engine`: the game's type, `MagicDraughts`: checkers, numbers, moves, reveals, spells, seed check.
//! - `state`: the state values read from `MagicDraughts` (the knowledge is the state), the legal actions.
//! - `view`: a player's view, the log less the seed.
//! - `referee`: the reveal the world owes next (`OwedReveal`) and its number under the seed.
//! - `changes`: the game's part of the account of changes.
//! - `picture`: the position as a picture.
//! - `game`: `impl Game for MagicDraughts`, the top, which nothing here uses.

pub(crate) mod changes;
pub mod draughts;
mod engine;
mod game;
pub(crate) mod params;
mod picture;
mod referee;
mod state;
mod view;

pub use crate::changes::values::Captured;
pub use engine::{derive_numbers, shuffle_order, spell_name, MagicDraughts};
pub use state::{DraughtsPiece, DraughtsState};
