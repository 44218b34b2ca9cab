//! A player's view of magic-draughts (docs/notation.md §6): everything on
//! the board is public, so the view is the log, less the world's seed.

use fgn_notation::{Action, Color, Event};

use super::engine::MagicDraughts;
use crate::game::{GameView, ViewReplay};

/// A magic-draughts view, which keeps nothing between events.
#[derive(Clone, Debug)]
pub struct Public;

impl GameView<MagicDraughts> for Public {
    type Before = ();
    type Reader = std::convert::Infallible;

    const REPLAY: ViewReplay = ViewReplay::AsLogged;

    fn new(_game: &MagicDraughts, _side: Color) -> Public {
        Public
    }

    fn before(&self, _game: &MagicDraughts, _event: &Event) {}

    fn after(&mut self, _game: &MagicDraughts, event: &Event, (): (), out: &mut Vec<Event>) {
        // The seed would tell every number not yet revealed.
        if !matches!(event.action, Action::Seed { .. }) {
            out.push(event.clone());
        }
    }
}
