//! The four games, a folder each. Everything that belongs to one game
//! lives in its folder; what the rest of the crate sees of them goes
//! through the game trait and the registry.

pub mod great_war_chess;
pub mod magic_draughts;
pub mod open_world_chess;
pub mod survival_chess;
