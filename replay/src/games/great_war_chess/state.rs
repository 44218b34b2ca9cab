//! The state values of great-war-chess, read from the game: its state,
//! what each side knows of it, and the actions the rules allow now.

use crate::changes::values::Moved;
use fgn_notation::{Action, Actor, BoardSize, ByColor, Color, Event, Figure, MoveNumber, Placement, Square, UnitKind};
use serde::Serialize;

use super::engine::{kinds, GreatWar};
use crate::core::progress::Turn;
use crate::core::viewer::Viewer;

/// A side's units on one square, as the state lists them.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Stack {
    /// Where it stands.
    pub square: Square,
    /// Whose it is.
    pub color: Color,
    /// Its units by letter, in the order `I C A F` (`F`: the square is a
    /// fortification of this side).
    pub units: Vec<UnitKind>,
}

/// The position of a great-war-chess game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct GreatWarState {
    /// The board size.
    pub board: BoardSize,
    /// Every stack, in square order (rank 1 first, files a.. within a rank).
    pub stacks: Vec<Stack>,
    /// Each side's charges.
    pub charges: ByColor<u64>,
    /// The units that moved this turn; `Some` once the turn's movement is used.
    pub moved: Option<Moved>,
    /// The square of the stack that fired this turn; `Some` once the turn's
    /// shot is used.
    pub fired_from: Option<Square>,
}

/// What one viewer knows of a great-war-chess game: the position with the
/// units of every setup still secret to it left out. There is no fog
/// after setup.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct GreatWarKnowledge {
    /// The sides whose setup the viewer cannot see yet, white first.
    pub hidden_setups: Vec<Color>,
    /// The position as the viewer sees it.
    pub position: GreatWarState,
}

impl GreatWar {
    /// Every stack with its square, in square order.
    pub(crate) fn stacks(&self) -> Vec<Stack> {
        self.squares()
            .filter_map(|square| {
                let cell = self.at(square);
                let color = cell.side?;
                let mut units: Vec<UnitKind> = kinds(cell.units).collect();
                if cell.fort {
                    units.push(UnitKind::Fortification);
                }
                Some(Stack { square, color, units })
            })
            .collect()
    }

    /// `color`'s units on the board as placements, in square order: its
    /// setup, when both are ready.
    pub(crate) fn placements(&self, color: Color) -> Vec<Placement> {
        self.stacks()
            .into_iter()
            .filter(|s| s.color == color)
            .flat_map(|s| {
                s.units.into_iter().map(move |kind| Placement {
                    figure: Figure::Unit(kind),
                    square: s.square,
                })
            })
            .collect()
    }

    fn setup_actions(&self, side: Color, out: &mut Vec<Event>) {
        let event = |action: Action| Event {
            n: MoveNumber(0),
            actor: Actor::Player(side),
            action,
            clock_ms: None,
        };
        for square in crate::core::setup::own_half(self.size(), side) {
            for kind in UnitKind::ALL {
                let placement = Placement {
                    figure: Figure::Unit(kind),
                    square,
                };
                // A placement is listed when the engine would take it.
                if self.clone().place(side, &[placement]).is_ok() {
                    out.push(event(Action::Place {
                        placements: vec![placement],
                    }));
                }
            }
            for kind in UnitKind::ALL {
                if self.clone().remove(side, Some(kind), square).is_ok() {
                    out.push(event(Action::Remove {
                        unit: Some(kind),
                        square,
                    }));
                }
            }
        }
        if self.missing(side).is_none() {
            out.push(event(Action::Ready));
        }
    }
}

impl GreatWar {
    pub(super) fn state_now(&self) -> GreatWarState {
        GreatWarState {
            board: self.size(),
            stacks: self.stacks(),
            charges: self.charges,
            moved: self.moved.map(|(square, bits)| Moved {
                square,
                units: kinds(bits).collect(),
            }),
            fired_from: self.fired,
        }
    }

    pub(super) fn knowledge_now(&self, viewer: Viewer) -> GreatWarKnowledge {
        let hidden_setups = crate::core::setup::hidden_setups(self.turn, viewer);
        let mut position = self.state_now();
        position.stacks.retain(|s| !hidden_setups.contains(&s.color));
        GreatWarKnowledge {
            hidden_setups,
            position,
        }
    }

    pub(super) fn legal_actions_now(&self, out: &mut Vec<Event>) {
        match self.turn {
            Turn::Setup { ready } => {
                for side in [Color::White, Color::Black] {
                    if !ready[side] {
                        self.setup_actions(side, out);
                    }
                }
            }
            Turn::Move { side, number } => {
                let event = |action: Action| Event {
                    n: number,
                    actor: Actor::Player(side),
                    action,
                    clock_ms: None,
                };
                out.extend(self.movements(side).into_iter().map(|m| event(Action::March(m))));
                out.extend(
                    self.shots(side)
                        .into_iter()
                        .map(|(from, to)| event(Action::Shot { from, to })),
                );
                out.push(event(Action::End));
            }
        }
    }
}
