//! A player's view of great-war-chess (docs/notation.md §6): the secret
//! setup's ([`crate::core::setup::view_after`]); every move after it is
//! public and spelled as the log spells it.

use fgn_notation::{Color, Event, Figure, Reason, UnitKind};

use super::engine::GreatWar;
use crate::core::setup::{self, ViewNote};
use crate::game::{GameView, ViewReplay};

/// What a great-war-chess view keeps between events: whose it is.
#[derive(Clone, Debug)]
pub struct SecretSetup {
    side: Color,
}

impl GameView<GreatWar> for SecretSetup {
    type Before = ViewNote;
    type Reader = std::convert::Infallible;

    // A fortification goes on an empty square, and `@ setup` lists it
    // after the infantry in its square.
    const REPLAY: ViewReplay = ViewReplay::SetupRevealed {
        placed_first: Some(Figure::Unit(UnitKind::Fortification)),
        too_little_placed: Reason::NoInfantry,
    };

    fn new(_game: &GreatWar, side: Color) -> SecretSetup {
        SecretSetup { side }
    }

    fn before(&self, game: &GreatWar, _event: &Event) -> ViewNote {
        ViewNote::new(game.turn, None)
    }

    fn after(&mut self, game: &GreatWar, event: &Event, before: ViewNote, out: &mut Vec<Event>) {
        setup::view_after(self.side, event, before, game.turn, |color| game.placements(color), out);
    }
}
