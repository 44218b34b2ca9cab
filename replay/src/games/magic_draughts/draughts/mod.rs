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
#![warn(missing_docs)]

mod board;
mod movegen;
mod moves;
#[cfg(test)]
mod perft;
#[cfg(test)]
mod tests;

pub use board::DraughtsBoard;
pub use moves::DMove;

/// The most pieces one move can capture, the capacity of [`DMove::captured`].
///
/// No sequence on an 8x8 board can capture more than 10 pieces: an exhaustive
/// search over every king route (pieces placed wherever a route needs them,
/// which only loosens the rules, and men's jumps being short king jumps) finds
/// no longer one. 12, one side's full set, leaves a margin; the generator also
/// stops extending a sequence at this length rather than overflow.
pub const MAX_CAPTURES: usize = 12;

// A capture's path (start plus one landing per capture) must fit in a notation path.
const _: () = assert!(MAX_CAPTURES < fgn_notation::action::MAX_PATH);
