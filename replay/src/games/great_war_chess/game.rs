//! great-war-chess through the game API: the [`Game`] contract over the
//! engine, its state values, its picture and its view. The top of the
//! folder: nothing in it uses this module.

use fgn_notation::{Action, Color, Event, GameKind, MoveNumber, Outcome, Reason};

use super::engine::GreatWar;
use super::params::GreatWarRules;
use super::state::{GreatWarKnowledge, GreatWarState};
use super::view;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{Decision, Turn};
use crate::core::setup;
use crate::core::viewer::Viewer;
use crate::game::Game;

impl Game for GreatWar {
    const KIND: GameKind = GameKind::GreatWarChess;

    fn state_picture(state: &Self::State, _in_play: bool) -> crate::core::picture::Picture {
        state.picture()
    }

    fn knowledge_picture(knowledge: &Self::Knowledge, _in_play: bool) -> crate::core::picture::Picture {
        knowledge.picture()
    }

    type Params = GreatWarRules;
    type State = GreatWarState;
    type Knowledge = GreatWarKnowledge;
    // The world of great-war-chess never owes an event.
    type Owed = std::convert::Infallible;
    type View = view::SecretSetup;

    fn new(params: GreatWarRules, _commit: Option<[u8; 32]>) -> GreatWar {
        GreatWar::new(params)
    }

    fn state(&self) -> GreatWarState {
        self.state_now()
    }

    fn knowledge(&self, viewer: Viewer) -> GreatWarKnowledge {
        self.knowledge_now(viewer)
    }

    fn legal_actions(&self, out: &mut Vec<Event>) {
        self.legal_actions_now(out);
    }

    fn owed_world_event(&self) -> Option<std::convert::Infallible> {
        None
    }

    fn turn(&self) -> Turn {
        self.turn
    }

    fn player(&mut self, side: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        match self.turn {
            Turn::Setup { ready } => {
                setup::check_setup_action(ready, side, n, action)?;
                match action {
                    Action::Place { placements } => self.place(side, placements).map(|()| None),
                    Action::Remove { square, unit } => self.remove(side, *unit, *square).map(|()| None),
                    _ => {
                        if let Some(missing) = self.missing(side) {
                            return Err(Fault::new(
                                Rule::Setup,
                                format!(
                                    "{} places all its units before `ready`; still to place: {missing}",
                                    side.name()
                                ),
                            ));
                        }
                        self.make_ready(side, ready);
                        Ok(None)
                    }
                }
            }
            Turn::Move { side: to_move, number } => {
                crate::core::progress::check_turn(side, n, to_move, number)?;
                self.play(side, number, action)
            }
        }
    }

    // Every change is made after the checks that can refuse the event, so
    // there is nothing to save.
    fn checkpoint(&mut self) {}

    fn rollback(&mut self) {}

    fn setup_timeout(&mut self, side: Color) -> Result<Option<Decision>, Fault> {
        let Turn::Setup { ready } = self.turn else {
            return Err(Fault::new(Rule::Timeout, "setup is over"));
        };
        self.make_ready(side, ready);
        // Units not placed are out of the game; without infantry the late
        // side cannot start, and the game is aborted at once.
        if !self.has_infantry(side) {
            return Ok(Some(Decision {
                outcome: Outcome::Abort,
                reason: Reason::NoInfantry,
            }));
        }
        Ok(None)
    }
}
