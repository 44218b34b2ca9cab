//! Survival Chess (RULES.md section 1): chess on a W x H board after a
//! secret hand-placed setup, without castling or en passant.
//!
//! The modules, in their dependency order, bottom to top (each uses only
//! modules listed before it, and `view`, `changes` and `picture` none of
//! each other):
//!
//! - `params`: the parameters (board size, setup limits, time) and their
//!   header tags;
//! - `pieces`: the pieces, their codes in a board's cell, the steps they
//!   move along, a move and what takes it back;
//! - `bits`: the bitboards of the boards up to 8x8, with the one-call move;
//! - `mailbox`: the padded mailbox of every size up to 26x26;
//! - `board`: the board every size uses (`ChessBoard`), bitboards or a
//!   mailbox behind one interface;
//! - `engine`: the game's type (`Survival`) and its rules: setup, moves,
//!   their faults and their canonical spelling;
//! - `state`: the state and knowledge values (`SurvivalState`,
//!   `SurvivalKnowledge`) read from the game, and its legal actions;
//! - `view`: a player's view (`SecretSetup`);
//! - `changes`: the game's part of the account of changes;
//! - `picture`: the state and a knowledge as a board picture;
//! - `game`: `impl Game for Survival`, the top, which nothing here uses.
//!
//! `perft` (tests only) counts the board's moves against independent
//! generators.

mod bits;
pub mod board;
pub(crate) mod changes;
mod engine;
mod game;
mod mailbox;
pub(crate) mod params;
#[cfg(test)]
mod perft;
mod picture;
mod pieces;
mod state;
mod view;

pub use engine::Survival;
pub use state::{ChessPiece, SurvivalKnowledge, SurvivalState};
