//! Great War Chess (RULES.md section 3): stacks of infantry, cavalry and
//! artillery (and fortifications, with the parameter) after a secret
//! setup; each turn one movement and one shot, every attack paid for with
//! a charge and succeeding only with support.
//!
//! The modules, in dependency order, bottom to top (each uses only
//! modules listed before it, never one listed after it):
//! - `params`: the parameters (units, fortifications, charges) and header tags.
//! - `engine`: the game's type, `GreatWar`, and every rule (setup, moves, shots, support, charges).
//! - `state`: the state and knowledge values read from `GreatWar`, and the legal actions.
//! - `view`: a player's view, the secret setup's.
//! - `changes`: the game's part of the account of changes.
//! - `picture`: the position and a viewer's knowledge as a picture.
//! - `game`: `impl Game for GreatWar`, the top, which nothing here uses.

pub(crate) mod changes;
mod engine;
mod game;
pub(crate) mod params;
mod picture;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use crate::changes::values::Moved;
pub use engine::GreatWar;
pub use state::{GreatWarKnowledge, GreatWarState, Stack};
