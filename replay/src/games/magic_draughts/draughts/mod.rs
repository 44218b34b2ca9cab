//! Russian draughts: positions, legal moves, playing them, and perft.
//!
//! This is the rules core of magic draughts (RULES.md section 4) without the
//! magic: an 8x8 board played on the dark squares (a1 is dark), men that move
//! one square diagonally forward and capture both ways, compulsory capture
//! with free choice among the captures, pieces jumped in a sequence that stay
//! on the board (blocking, and never jumped twice) until the sequence ends,
//! promotion at once (a man that reaches the far rank mid-capture carries on
//! as a king), and flying kings that must land where a capture continues when
//! some landing square allows it. Its move generator is held to
//! independent perft counts (`perft.rs`).
//!
//! The modules, in dependency order, bottom to top (each uses only
//! modules listed before it, never one listed after it):
//! - `board`: the padded bit layout, the move value `DMove`, the position `DraughtsBoard`, playing a move.
//! - `movegen`: every legal move of a position, and perft.
//! - `moves`: a written move looked up among the legal ones, or why it is not legal.
#![warn(missing_docs)]

mod board;
mod movegen;
mod moves;
#[cfg(test)]
mod perft;
#[cfg(test)]
mod tests;

pub use board::{DMove, DraughtsBoard};
