//! A player's view of survival-chess (docs/notation.md §6): the secret
//! setup's ([`crate::core::setup::view_after`]), with each move written
//! canonically, check markers and all.

use fgn_notation::{Action, Actor, Color, Event, Figure, Placement, Reason};

use super::engine::Survival;
use crate::core::setup::{self, ViewNote};
use crate::game::{GameView, ViewReplay};

/// What a survival-chess view keeps between events: whose it is.
#[derive(Clone, Debug)]
pub struct SecretSetup {
    side: Color,
}

impl GameView<Survival> for SecretSetup {
    type Before = ViewNote;
    type Reader = std::convert::Infallible;

    const REPLAY: ViewReplay = ViewReplay::SetupRevealed {
        placed_first: None,
        too_little_placed: Reason::NoKing,
    };

    fn new(_game: &Survival, side: Color) -> SecretSetup {
        SecretSetup { side }
    }

    fn before(&self, game: &Survival, event: &Event) -> ViewNote {
        let canonical = match (event.actor, &event.action) {
            (Actor::Player(mover), Action::Move(m)) => game.canonical_move(mover, m).map(Action::Move),
            _ => None,
        };
        ViewNote::new(game.turn, canonical)
    }

    fn after(&mut self, game: &Survival, event: &Event, before: ViewNote, out: &mut Vec<Event>) {
        setup::view_after(self.side, event, before, game.turn, |color| setup_of(game, color), out);
    }
}

/// `color`'s setup as it stands, in square order.
fn setup_of(game: &Survival, color: Color) -> Vec<Placement> {
    game.board()
        .pieces()
        .filter(|(_, p)| p.color == color)
        .map(|(square, p)| Placement {
            figure: Figure::Piece(p.kind),
            square,
        })
        .collect()
}
