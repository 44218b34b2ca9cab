//! magic-draughts through the game API: the [`Game`] contract over the
//! engine, its state values, the reveals its referee derives and its view.
//! The top of the folder: nothing in it uses this module.

use fgn_notation::{Action, Color, Event, GameKind, MoveNumber};

use super::engine::{spell_name, MagicDraughts};
use super::params::DraughtsRules;
use super::referee::OwedReveal;
use super::state::DraughtsState;
use super::view;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{Decision, Turn};
use crate::core::seed::Draws;
use crate::core::viewer::Viewer;
use crate::game::Game;

impl Game for MagicDraughts {
    const KIND: GameKind = GameKind::MagicDraughts;

    fn state_picture(state: &Self::State, _in_play: bool) -> crate::core::picture::Picture {
        state.picture()
    }

    fn knowledge_picture(knowledge: &Self::Knowledge, _in_play: bool) -> crate::core::picture::Picture {
        knowledge.picture()
    }

    type Params = DraughtsRules;
    type State = DraughtsState;
    // Everything on the board is public, and the state holds only numbers
    // the log has revealed: what any viewer knows is the state.
    type Knowledge = DraughtsState;
    type Owed = OwedReveal;
    type View = view::Public;

    fn new(params: DraughtsRules, commit: Option<[u8; 32]>) -> MagicDraughts {
        MagicDraughts::new(params, commit)
    }

    fn state(&self) -> DraughtsState {
        self.state_now()
    }

    fn knowledge(&self, viewer: Viewer) -> DraughtsState {
        self.knowledge_now(viewer)
    }

    fn legal_actions(&self, out: &mut Vec<Event>) {
        self.legal_actions_now(out);
    }

    fn awaits_seed(&self) -> bool {
        self.awaits_seed_now()
    }

    fn next_outcome(&self, draws: &Draws) -> Option<Action> {
        self.next_reveal(draws)
    }

    fn turn(&self) -> Turn {
        self.turn
    }

    fn player(&mut self, side: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        let Turn::Move { side: to_move, number } = self.turn else {
            return Err(Fault::new(Rule::Turn, "magic-draughts has no setup"));
        };
        if side != to_move {
            return Err(Fault::new(Rule::Turn, format!("it is {}'s turn", to_move.name())));
        }
        if n != number {
            return Err(Fault::new(
                Rule::MoveNumber,
                format!("{}'s turn carries move number {number}, not {n}", side.name()),
            ));
        }
        match action {
            Action::Draughts { path, capture } => self.normal_move(side, number, path, *capture),
            Action::Spell(spell) => self.cast(side, spell),
            other => Err(Fault::new(
                Rule::Move,
                format!(
                    "`{}` is not an action of magic-draughts",
                    fgn_notation::forms::keyword(other)
                ),
            )),
        }
    }

    fn world(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        match action {
            Action::Reveal { square, number } => self.reveal(*square, *number),
            other => Err(Fault::new(
                Rule::WorldEvent,
                format!(
                    "`{}` is not a world event of magic-draughts",
                    fgn_notation::forms::keyword(other)
                ),
            )),
        }
    }

    // Every change is made after the checks that can refuse the event
    // (a probing move is taken back), so there is nothing to save.
    fn checkpoint(&mut self) {}

    fn rollback(&mut self) {}

    fn setup_timeout(&mut self, _side: Color) -> Result<Option<Decision>, Fault> {
        Err(Fault::new(Rule::Timeout, "magic-draughts has no setup"))
    }

    fn owes_world_event(&self) -> bool {
        !self.owed.is_empty()
    }

    fn owed_world_event(&self) -> Option<OwedReveal> {
        self.owed.first().map(|o| OwedReveal { square: o.square })
    }

    fn undecided_because(&self) -> Option<String> {
        let Turn::Move { side, .. } = self.turn else {
            return None;
        };
        let next = self.spells[side].first()?;
        Some(format!(
            "{} first casts its spells (next: spell {next}, {})",
            side.name(),
            spell_name(*next)
        ))
    }

    fn at_event(&mut self, index: usize) {
        self.event = index;
    }

    fn has_random_outcomes(&self) -> bool {
        self.rules.magic
    }

    fn without_world_seed(&self) -> Option<&'static str> {
        if !self.rules.magic {
            return Some("magic is off in this game: nothing is drawn from a seed");
        }
        self.commit.is_none().then_some(crate::core::seed::NO_COMMITMENT)
    }

    fn seed(&mut self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Result<(), Fault> {
        if !self.rules.magic {
            return Err(Fault::new(
                Rule::Seed,
                "magic is off in this game: there is nothing a seed decides",
            ));
        }
        crate::core::seed::check_revealed(seed, self.commit, self.seed_seen)?;
        self.verify_reveals(seed, salts)?;
        self.seed_seen = true;
        Ok(())
    }

    fn refuted_by_seed(&self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Option<Fault> {
        if !self.rules.magic {
            return None;
        }
        crate::core::seed::check_revealed(seed, self.commit, false).ok()?;
        self.verify_reveals(seed, salts).err()
    }
}
