//! What the world of open-world-chess owes and how the referee derives
//! it: the damage roll or clone square a move in transit waits for, and
//! the spawns on the squares a move (or the start) lit.

use std::fmt;

use fgn_notation::{Action, Square};

use super::engine::{OpenWorld, Owed};
use super::outcomes::{derive_clone, derive_damage, derive_spawn};
use crate::core::seed::Draws;

/// The world event the rules owe first in open-world-chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OwedEvent {
    /// A damage roll against the moving piece, for the damage object on `square`.
    Damage {
        /// The object's square.
        square: Square,
    },
    /// The square of the clone picked up on `object`.
    Clone {
        /// The square the clone object was on.
        object: Square,
    },
    /// A spawn on `square`, which turned lit: with `spawn_chance` 100 every
    /// square that rolls gets an object.
    Spawn {
        /// The lit square.
        square: Square,
    },
}

impl fmt::Display for OwedEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OwedEvent::Damage { square } => write!(f, "`@ damage {square} N` for the damage object there"),
            OwedEvent::Clone { object } => write!(f, "`@ clone SQUARE` for the clone picked up on {object}"),
            OwedEvent::Spawn { square } => write!(
                f,
                "`@ spawn {square} KIND`: {square} turned lit, and with spawn_chance 100 every square that rolls gets an object"
            ),
        }
    }
}

impl OpenWorld {
    /// The world event owed first: the outcome of the move in transit, or
    /// a spawn that `spawn_chance` 100 makes certain.
    pub(super) fn owed_event(&self) -> Option<OwedEvent> {
        match &self.world.owed {
            Some(Owed::Damage { square, .. }) => Some(OwedEvent::Damage { square: *square }),
            Some(Owed::Clone { object, .. }) => Some(OwedEvent::Clone { object: *object }),
            None => self.spawn_owed().map(|square| OwedEvent::Spawn { square }),
        }
    }

    /// Whether the world still owes its seed: a commitment whose seed is
    /// not revealed yet.
    pub(super) fn awaits_seed_now(&self) -> bool {
        self.commit.is_some() && !self.world.seed_seen
    }

    /// The world event the seed gives next: the owed damage roll or clone
    /// square of the move in transit, else the next spawn in the window the
    /// last move (or the start) lit, skipping the squares the seed gives no
    /// object; `None` when the window holds no more objects.
    pub(super) fn next_outcome_now(&self, draws: &Draws) -> Option<Action> {
        let rules = &self.rules;
        if let Some((square, candidates)) = self.owed() {
            // An owed outcome always belongs to the move in transit.
            let (n, cause) = self.cause()?;
            return Some(match candidates {
                None => Action::Damage {
                    square,
                    amount: derive_damage(rules, draws, n, cause, square),
                },
                Some(c) => Action::Clone {
                    square: derive_clone(draws, n, cause, square, &c),
                },
            });
        }
        let window = &self.world.spawns;
        window.squares.iter().find_map(|&square| {
            derive_spawn(rules, draws, window.n, window.cause, square).map(|object| Action::Spawn { square, object })
        })
    }
}
