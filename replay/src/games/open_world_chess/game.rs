//! The game's contract: `impl Game for OpenWorld`, each part of it answered
//! by the module below that holds its concern. The top of the folder:
//! nothing in it calls the trait's methods on [`OpenWorld`].

use fgn_notation::{Action, ChessMove, Color, Event, GameKind, MoveNumber};

use super::engine::OpenWorld;
use super::params::OpenWorldRules;
use super::referee::OwedEvent;
use super::state::{OpenWorldKnowledge, OpenWorldState};
use super::view::Fog;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{Decision, Progress, Turn};
use crate::core::seed::Draws;
use crate::core::viewer::Viewer;
use crate::game::{Game, Spelling};

impl Game for OpenWorld {
    const KIND: GameKind = GameKind::OpenWorldChess;

    fn state_picture(state: &Self::State, in_play: bool) -> crate::core::picture::Picture {
        state.picture(in_play)
    }

    fn knowledge_picture(knowledge: &Self::Knowledge, in_play: bool) -> crate::core::picture::Picture {
        knowledge.picture(in_play)
    }

    type Params = OpenWorldRules;
    type State = OpenWorldState;
    type Knowledge = OpenWorldKnowledge;
    type Owed = OwedEvent;
    type View = Fog;

    const COMPLETES_MOVES: bool = true;

    fn new(params: OpenWorldRules, commit: Option<[u8; 32]>) -> OpenWorld {
        OpenWorld::new(params, commit)
    }

    fn state(&self) -> OpenWorldState {
        self.state_now()
    }

    fn knowledge(&self, viewer: Viewer) -> OpenWorldKnowledge {
        self.knowledge_now(viewer)
    }

    fn known_progress(&self, viewer: Viewer, knowledge: &OpenWorldKnowledge, progress: &mut Progress) {
        self.known_progress_now(viewer, knowledge, progress);
    }

    fn legal_actions(&self, out: &mut Vec<Event>) {
        self.legal_actions_now(out);
    }

    fn canonical_move(&self, side: Color, m: &ChessMove) -> Option<ChessMove> {
        OpenWorld::canonical_move(self, side, m)
    }

    fn awaits_seed(&self) -> bool {
        self.awaits_seed_now()
    }

    fn next_outcome(&self, draws: &Draws) -> Option<Action> {
        self.next_outcome_now(draws)
    }

    fn turn(&self) -> Turn {
        self.world.turn
    }

    fn player(&mut self, actor: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        self.player_action(actor, n, action)
    }

    fn world(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        self.world_action(action)
    }

    fn checkpoint(&mut self) {
        self.save();
    }

    // Open-world chess has no check markers; a move's only completion is
    // the promotion piece, which depends on the board's size and the mover
    // alone, so the position before or after the move spells it alike.
    fn spelled(
        &self,
        side: Color,
        m: &ChessMove,
        _spelling: Spelling,
        _mated: impl FnOnce() -> bool,
    ) -> Option<ChessMove> {
        self.canonical_move(side, m).filter(|full| full != m)
    }

    fn rollback(&mut self) {
        self.restore();
    }

    fn setup_timeout(&mut self, _side: Color) -> Result<Option<Decision>, Fault> {
        Err(Fault::new(Rule::Timeout, "open-world-chess has no setup"))
    }

    fn owes_world_event(&self) -> bool {
        self.owes_world_event_now()
    }

    fn owed_world_event(&self) -> Option<OwedEvent> {
        self.owed_event()
    }

    fn extending(&self) -> Option<Color> {
        self.world.late_shop.map(|(buyer, _)| buyer)
    }

    fn shared_event(&mut self, decided: bool) {
        if decided {
            // Nothing further happens once the game is decided (RULES.md:
            // "When a king dies nothing further happens"): the purchases
            // are over, but no turn ends and nothing ages. Spawns the world
            // owes (with spawn_chance 100) may still follow a resignation,
            // as every owed event may; any others rolled nothing, and a
            // revealed seed that gives one there refutes it at this event,
            // the first after them (docs/rules.md).
            self.world.late_shop = None;
            if self.spawn_owed().is_none() {
                self.close_spawn_window();
            }
        } else {
            // Spawns come right after the move that lit their squares
            // (NOTATION.md: "World events come right after the action that
            // caused them"), and a timeout never comes while one is owed:
            // the squares still open rolled nothing.
            self.close_spawn_window();
            self.close_late_shop();
        }
    }

    fn at_event(&mut self, index: usize) {
        self.event = index;
    }

    fn seed(&mut self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Result<(), Fault> {
        crate::core::seed::check_revealed(seed, self.commit, self.world.seed_seen)?;
        self.verify_seed(seed, salts)?;
        self.world.seed_seen = true;
        Ok(())
    }

    fn refuted_by_seed(&self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Option<Fault> {
        crate::core::seed::check_revealed(seed, self.commit, false).ok()?;
        self.verify_draws(seed, salts, false).err()
    }

    fn without_world_seed(&self) -> Option<&'static str> {
        self.commit.is_none().then_some(crate::core::seed::NO_COMMITMENT)
    }

    fn has_random_outcomes(&self) -> bool {
        true
    }
}
