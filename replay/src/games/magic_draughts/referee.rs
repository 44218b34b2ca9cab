//! What the world of magic-draughts owes and how the referee derives it:
//! after a capture, the reveal of each captured checker's number, which
//! the seed gave it at the start.

use std::fmt;

use fgn_notation::{Action, Color, MagicNumber, Square};

use super::engine::{derive_numbers, Checker, MagicDraughts};
use crate::core::seed::Draws;

/// The reveal the world owes first: the number of the checker captured on
/// `square`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OwedReveal {
    /// Where the checker was captured.
    pub square: Square,
}

impl fmt::Display for OwedReveal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`@ reveal {} N` for the checker captured there", self.square)
    }
}

impl MagicDraughts {
    /// Whether the world still owes its seed: a magic game with a
    /// commitment whose seed is not revealed yet.
    pub(super) fn awaits_seed_now(&self) -> bool {
        self.rules.magic && self.commit.is_some() && !self.seed_seen
    }

    /// The reveal the world owes next under `draws`, with the number the
    /// seed gave the captured checker (0 for one Koschei's Revenge put
    /// back); `None` when none is owed.
    pub(super) fn next_reveal(&self, draws: &Draws) -> Option<Action> {
        let (square, checker) = self.next_owed()?;
        let numbers = starting_numbers(draws, &self.rules.numbers);
        let n = match checker {
            Checker::Original { color, index } => numbers[usize::from(color == Color::Black)][usize::from(index)],
            Checker::Returned(_) => 0,
        };
        Some(Action::Reveal {
            square,
            number: MagicNumber::new(n)?,
        })
    }
}

/// The numbers the seed gives each side's starting checkers (white's,
/// then black's), in the order of [`super::engine::starting_squares`].
fn starting_numbers(draws: &Draws, counts: &[u8; 6]) -> [[u8; 12]; 2] {
    [
        derive_numbers(draws, Color::White, counts),
        derive_numbers(draws, Color::Black, counts),
    ]
}
