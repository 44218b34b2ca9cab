//! The tools built on the game API: durable appends, archives, flat event
//! rows, summaries, standings, rule-change impact, log hashes and the
//! random game generator. They use the crate's public items only.

pub mod align;
pub mod append;
pub mod archive;
pub mod events;
pub mod gen;
pub mod impact;
pub mod loghash;
pub mod placed;
pub(crate) mod rng;
pub mod standings;
pub mod summary;
pub mod verify_view;
