//! A stand-in for open-world-chess's game API while its engine is being
//! reorganised; replaced by the engine's own implementation.

use fgn_notation::Event;
use serde::Serialize;

use crate::game::{GameRules, Viewer};
use crate::owc::OpenWorld;

/// The state of an open-world-chess game (stand-in).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct OwcState {}

impl GameRules for OpenWorld {
    type State = OwcState;
    type Knowledge = OwcState;
    fn state(&self) -> OwcState {
        OwcState {}
    }
    fn knowledge(&self, _viewer: Viewer) -> OwcState {
        OwcState {}
    }
    fn legal_actions(&self, _out: &mut Vec<Event>) {}
}
