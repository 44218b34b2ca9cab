//! survival-chess through the game API: `impl Game for Survival`, the top
//! of the folder, which answers each of the trait's questions from the
//! engine (`engine.rs`), the state values (`state.rs`), the view
//! (`view.rs`) and the pictures (`picture.rs`) below it.

use fgn_notation::{Action, Check, ChessMove, Color, Event, GameKind, MoveNumber, Reason};

use super::engine::Survival;
use super::params::SurvivalRules;
use super::state::{SurvivalKnowledge, SurvivalState};
use super::view::SecretSetup;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{Decision, Turn};
use crate::core::setup;
use crate::core::viewer::Viewer;
use crate::game::{Game, Spelling};

impl Game for Survival {
    const KIND: GameKind = GameKind::SurvivalChess;

    fn state_picture(state: &Self::State, in_play: bool) -> crate::core::picture::Picture {
        state.picture(in_play)
    }

    fn knowledge_picture(knowledge: &Self::Knowledge, in_play: bool) -> crate::core::picture::Picture {
        knowledge.picture(in_play)
    }

    type Params = SurvivalRules;
    type State = SurvivalState;
    type Knowledge = SurvivalKnowledge;
    // The world of survival-chess never owes an event.
    type Owed = std::convert::Infallible;
    type View = SecretSetup;

    const COMPLETES_MOVES: bool = true;

    fn new(params: SurvivalRules, _commit: Option<[u8; 32]>) -> Survival {
        Survival::new(params)
    }

    fn state(&self) -> SurvivalState {
        self.state_now()
    }

    fn knowledge(&self, viewer: Viewer) -> SurvivalKnowledge {
        self.knowledge_now(viewer)
    }

    fn legal_actions(&self, out: &mut Vec<Event>) {
        self.legal_actions_now(out);
    }

    fn canonical_move(&self, side: Color, m: &ChessMove) -> Option<ChessMove> {
        Survival::canonical_move(self, side, m)
    }

    fn owed_world_event(&self) -> Option<std::convert::Infallible> {
        None
    }

    fn turn(&self) -> Turn {
        self.turn
    }

    fn spelled(
        &self,
        side: Color,
        m: &ChessMove,
        spelling: Spelling,
        mated: impl FnOnce() -> bool,
    ) -> Option<ChessMove> {
        match spelling {
            // The position after the move shows its marker: the side to
            // move in check, mated when the session found the game decided
            // by mate (never so under the validation loop's assumption,
            // which the next move proves).
            Spelling::Played => {
                // Nearly every move of a log is spelled canonically, which
                // its marker and promotion piece tell without building the
                // canonical move to compare it. A played move's written
                // `+` or `#` was held to the position by the rules, so
                // only a move without a marker can lack one, and only
                // then does the session's answer on mate matter.
                let marked_right = m.check.is_some() == self.check;
                if marked_right && m.promotion.is_some() == self.promotes(side, m) {
                    return None;
                }
                let check = self.check.then(|| if mated() { Check::Mate } else { Check::Check });
                // Both squares are there: a full log's move without them is refused.
                Some(self.written(side, m, check).unwrap_or(ChessMove { check, ..*m }))
            }
            Spelling::Refused => self.canonical_move(side, m),
        }
        .filter(|full| full != m)
    }

    #[inline]
    fn player(&mut self, side: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        match self.turn {
            Turn::Setup { ready } => {
                setup::check_setup_action(ready, side, n, action)?;
                match action {
                    Action::Place { placements } => self.place(side, placements).map(|()| None),
                    Action::Remove { square, .. } => self.remove(side, *square).map(|()| None),
                    _ => {
                        if !self.has_king_placed(side) {
                            return Err(Fault::new(
                                Rule::Setup,
                                format!("{} needs its king on the board before `ready`", side.name()),
                            ));
                        }
                        Ok(self.make_ready(side, ready))
                    }
                }
            }
            Turn::Move { side: to_move, number } => {
                let Action::Move(m) = action else {
                    return Err(Fault::new(
                        Rule::Setup,
                        format!(
                            "setup is over: `{}` is not possible now",
                            fgn_notation::forms::keyword(action)
                        ),
                    ));
                };
                crate::core::progress::check_turn(side, n, to_move, number)?;
                self.play(side, number, m)
            }
        }
    }

    /// A valid move on the bitboards, played at once: what
    /// [`Game::player`] does with it in the side's turn, without the
    /// general path's `Result`s.
    #[inline]
    fn play_valid(
        &mut self,
        side: Color,
        n: MoveNumber,
        action: &Action,
        reply_next: bool,
    ) -> Option<(Option<Decision>, bool)> {
        let (Turn::Move { side: to_move, number }, Action::Move(m)) = (self.turn, action) else {
            return None;
        };
        if side != to_move || n != number {
            return None;
        }
        self.play_quick(side, number, m, reply_next)
    }

    fn can_move(&mut self) -> bool {
        match self.turn {
            Turn::Move { side, .. } => self.board.has_legal_move_in(side, self.check),
            _ => true,
        }
    }

    fn may_assume_moves(&self) -> bool {
        self.board.has_bits()
    }

    // Every change is made after the checks that can refuse the event
    // (a probing move is taken back), so there is nothing to save.
    fn checkpoint(&mut self) {}

    fn rollback(&mut self) {}

    fn setup_timeout(&mut self, side: Color) -> Result<Option<Decision>, Fault> {
        let Turn::Setup { ready } = self.turn else {
            return Err(Fault::new(Rule::Timeout, "setup is over"));
        };
        if self.board.king(side).is_none() {
            // The late side cannot start: the game is aborted at once.
            let mut r = ready;
            r[side] = true;
            self.turn = Turn::Setup { ready: r };
            return Ok(Some(Decision {
                outcome: fgn_notation::Outcome::Abort,
                reason: Reason::NoKing,
            }));
        }
        Ok(self.make_ready(side, ready))
    }
}
