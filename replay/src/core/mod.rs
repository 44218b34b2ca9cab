//! The leaf of the crate: what every game and the shared rules are written
//! in terms of, and nothing that names a game. Rule ids and faults, whose
//! turn it is and the phase, who looks, the secret setup's common checks,
//! the world seed and its draws, and
//! the canonical byte encoding that hashes are taken over. Nothing here
//! imports anything else of the crate.

pub mod error;
pub mod hash;
pub(crate) mod params;
pub mod picture;
pub mod progress;
pub mod seed;
pub(crate) mod setup;
pub mod viewer;

pub use progress::{Decision, Phase, Progress, Turn};
pub use viewer::Viewer;
