//! The game trait: everything one game provides to the rest of fgn, in
//! one contract. The session drives a game's turns and moves through it
//! ([`crate::session::Session`]); the replay, the referee and players'
//! views ask it for the game's state, what a viewer knows, the legal
//! actions, the world events the rules owe and how each event shows in a
//! view. Every game implements it in its own folder under `games/`, and
//! the registry (`games/mod.rs`) lists the games.
//!
//! The values a game hands out are plain serialisable data: the CLI
//! renders them, views and hashes are built from them, and nothing
//! outside this crate needs to know how an engine stores its board.
//!
//! This module sits just above `core/` and imports nothing else of the
//! crate, so that the session below the games and everything above them
//! see the games only through it.

use std::fmt::{Debug, Display};

use fgn_notation::{Action, Actor, ChessMove, Color, Event, Figure, GameKind, MoveNumber, Reason};
use serde::Serialize;

use crate::core::error::{Fault, Rule};
use crate::core::picture::Picture;
use crate::core::progress::{Decision, Progress, Turn};
use crate::core::seed::{Draws, Salts};
use crate::core::viewer::Viewer;

/// One game: its parameters, its state and what each viewer knows of it,
/// its moves (checked, played, listed and spelled), the world events its
/// rules owe, and how a player's view shows it.
pub trait Game: Clone + Debug {
    /// Which game this is.
    const KIND: GameKind;

    /// `state` drawn as a board picture (what stands on each square, the
    /// legend, the notes); `in_play` says whether a turn is under way, for
    /// the notes on it (check, the moves left), which follow the public
    /// progress.
    fn state_picture(state: &Self::State, in_play: bool) -> Picture;

    /// What one viewer knows, drawn as [`Game::state_picture`] draws a state.
    fn knowledge_picture(knowledge: &Self::Knowledge, in_play: bool) -> Picture;

    /// The game's parameters (its ruleset: board, limits, options).
    type Params;
    /// The position and the engine's counters, as a plain value: no caches
    /// and no history, and nothing that the events so far do not fix.
    type State: Clone + Eq + Serialize + Debug;
    /// What one viewer knows of the state.
    type Knowledge: Clone + Eq + Serialize + Debug;
    /// A world event the rules owe before anything else may happen; its
    /// `Display` is how messages describe it. A game whose world never
    /// owes anything names [`std::convert::Infallible`].
    type Owed: Display;
    /// What a player's view of the game keeps between events.
    type View: GameView<Self>;

    /// Whether canonical FGN may write a move of this game otherwise than
    /// a log does ([`Game::spelled`]): the chess games fill in promotion
    /// pieces and check markers; a game without may leave its logs
    /// unreplayed when they are formatted.
    const COMPLETES_MOVES: bool = false;

    /// The game at its start under `params`, with the world seed's
    /// commitment `commit` from the header (ignored by a game without
    /// random outcomes).
    fn new(params: Self::Params, commit: Option<[u8; 32]>) -> Self;

    /// The canonical state.
    fn state(&self) -> Self::State;

    /// What `viewer` knows now.
    fn knowledge(&self, viewer: Viewer) -> Self::Knowledge;

    /// Adjusts the shared rules' `progress` (the clocks already left out)
    /// to what `viewer`, who knows `knowledge`, knows of it. The default
    /// leaves it as it is: the progress is public.
    fn known_progress(&self, _viewer: Viewer, _knowledge: &Self::Knowledge, _progress: &mut Progress) {}

    /// Every player action the rules allow now, for each side that may
    /// act, in canonical spelling and with the move number it must carry
    /// (no clock): moves, purchases, spells, `end`, and in setup every
    /// single placement, removal and `ready`. Chat, resignation, `extra`
    /// and world events are not listed. The session's own conditions
    /// (a result due, an answer to a timeout awaited) are the caller's.
    fn legal_actions(&self, out: &mut Vec<Event>);

    /// The move `m` of `side` as canonical FGN writes it (promotion and
    /// check markers filled in) if it is a legal move here; `None` for any
    /// other, and always in a game without chess moves.
    fn canonical_move(&self, _side: Color, _m: &ChessMove) -> Option<ChessMove> {
        None
    }

    /// Whether the game has a committed world seed that is not revealed
    /// yet, which the referee owes after the result.
    fn awaits_seed(&self) -> bool {
        false
    }

    /// The random outcome the world owes next under `draws` (a spawn, a
    /// damage roll, a clone's square, a reveal), as the referee writes it;
    /// `None` when the seed gives nothing more now, and always in a game
    /// without random outcomes.
    fn next_outcome(&self, _draws: &Draws) -> Option<Action> {
        None
    }

    /// The current turn.
    fn turn(&self) -> Turn;

    /// Applies a player's game action (not chat, resign or extra, which the
    /// session handles). The engine checks that it is this side's turn and
    /// that `n` is the turn's number. On error the engine is unchanged.
    fn player(&mut self, side: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault>;

    /// Applies a world event of the game (spawns, reveals, ...). On error the
    /// engine is unchanged.
    fn world(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        Err(Fault::new(
            Rule::WorldEvent,
            format!(
                "`{}` is not an event of this game",
                fgn_notation::forms::keyword(action)
            ),
        ))
    }

    /// The setup time ran out for `side`: the world readies it as it stands.
    fn setup_timeout(&mut self, side: Color) -> Result<Option<Decision>, Fault>;

    /// The world revealed its seed (after the result): the engine checks it
    /// against the commitment and re-derives every random outcome it saw
    /// from the game key of the seed and the players' `salts`.
    fn seed(&mut self, _seed: &[u8; 32], _salts: &Salts) -> Result<(), Fault> {
        Err(Fault::new(
            Rule::Seed,
            "this game has no randomness to reveal a seed for",
        ))
    }

    /// The first outcome recorded so far that `seed`, the seed a later
    /// line of the log reveals, refutes, as a fault at that outcome's
    /// event; `None` when the seed does not hash to the commitment (the
    /// reveal is then at fault, not an outcome) or refutes nothing yet.
    /// Validation asks this when an event is refused in a log whose seed
    /// is revealed after it: a forged outcome is reported where it was
    /// forged, not at the honest event it made fail.
    fn refuted_by_seed(&self, _seed: &[u8; 32], _salts: &Salts) -> Option<Fault> {
        None
    }

    /// Whether the game draws outcomes from a world seed (open-world-chess;
    /// magic-draughts with magic on), which only a revealed seed can prove.
    fn has_random_outcomes(&self) -> bool {
        false
    }

    /// Why the game has no world seed that a player's salt could add to
    /// (completing "a salt adds to the world seed, and ..."); `None` when
    /// it has one, committed to in the header.
    fn without_world_seed(&self) -> Option<&'static str> {
        Some("this game has no randomness, so it has no world seed")
    }

    /// Why a game that might look over is not decided yet (for example,
    /// spells still to be cast), for the message on an early result.
    fn undecided_because(&self) -> Option<String> {
        None
    }

    /// The side whose turn has passed to the opponent but may still add to
    /// it (open-world-chess: purchases after the turn's last move), if any.
    /// Its events count against the time of the turn they belong to, and
    /// the opponent's time starts again at each of them: a turn's time
    /// ends at the mover's last event of the turn.
    fn extending(&self) -> Option<Color> {
        None
    }

    /// The session applied an event of the shared rules other than chat or
    /// a salt (a timeout, an answer to one, a resignation, the result, the
    /// seed), which the engine does not see otherwise; `decided` says
    /// whether the game is decided after it. Such an event is one that is
    /// not a purchase or chat: open-world-chess ends there a turn still
    /// open to purchases after its last move. Never called on the move
    /// path, so it costs a move nothing.
    fn shared_event(&mut self, _decided: bool) {}

    /// Tells the engine the index of the event it is about to see, so that
    /// it can name earlier events in later messages.
    fn at_event(&mut self, _index: usize) {}

    /// Plays a player's `action` numbered `n` at once when it is valid and
    /// cheap to check, returning what it decides; `None`, with nothing
    /// changed, for anything else, which then takes the general path
    /// ([`Game::player`]) that finds and words the fault. The session
    /// calls it only where [`Game::player`] would be called with the same
    /// arguments (in play, nothing owed, the side not extending an ended
    /// turn, within its time), so an engine that answers `Some` must answer
    /// exactly as [`Game::player`] would, and must need no
    /// [`Game::checkpoint`] for it. The default takes every action the
    /// general way.
    ///
    /// `reply_next` says that the log's next event is a player's move. The
    /// engine may then leave out working out whether the side to move has
    /// any legal move after this one, assume that it has, and say so in the
    /// second value: the next move, played, proves it. The session asks
    /// [`Game::can_move`] before anything else could rely on it, and when
    /// the assumption was wrong, the log is replayed from its start without
    /// it (`Session::apply_in_log`, which only [`crate::validate`]'s loop
    /// calls).
    #[inline]
    fn play_valid(
        &mut self,
        _side: Color,
        _n: MoveNumber,
        _action: &Action,
        _reply_next: bool,
    ) -> Option<(Option<Decision>, bool)> {
        None
    }

    /// Whether the side to move has a legal move. Asked only after
    /// [`Game::play_valid`] assumed it, before any other event is applied.
    fn can_move(&mut self) -> bool {
        true
    }

    /// Whether [`Game::play_valid`] ever assumes that the side to move
    /// can move, so that a log's replay may have to start again.
    fn may_assume_moves(&self) -> bool {
        false
    }

    /// Remembers the state before an event. The session calls it before
    /// every event and [`Game::rollback`] when the event is rejected, so
    /// that a rejected event leaves the game exactly as it was, however
    /// many steps the engine took before it found the fault.
    fn checkpoint(&mut self);

    /// Goes back to the last checkpoint.
    fn rollback(&mut self);

    /// Whether the last action owes world events; a cheap test asked for
    /// every event, where [`Game::owed_world_event`] says which.
    fn owes_world_event(&self) -> bool {
        self.owed_world_event().is_some()
    }

    /// The world event the last action owes first (for example a reveal
    /// after a capture), which messages describe by its [`Game::Owed`]
    /// `Display`; `None` when nothing is owed.
    fn owed_world_event(&self) -> Option<Self::Owed>;

    /// How canonical FGN writes `m`, a move of `side`'s in this log, as
    /// [`crate::complete_markers`] writes it, where that is not `m` itself:
    /// `None` where the log's spelling is canonical already, and always
    /// where the engine has nothing to fill in, which is every game but the
    /// chess ones. The engine is in the position `m` left when it was
    /// played, in the one it was refused in otherwise ([`Spelling`]).
    /// `mated` tells whether a played move decided the game by mate; it is
    /// asked only where the answer matters (a move whose spelling differs),
    /// so that the moves spelled canonically, nearly all, cost no look at
    /// the session.
    fn spelled(
        &self,
        _side: Color,
        _m: &ChessMove,
        _spelling: Spelling,
        _mated: impl FnOnce() -> bool,
    ) -> Option<ChessMove> {
        None
    }
}

/// What [`Game::spelled`] is told of the move it spells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spelling {
    /// The move was played: its check marker is read from the position it
    /// left, and from whether it mated.
    Played,
    /// The move was refused and changed nothing: it is spelled as playing
    /// it on a copy of the position would (a move that cannot be played
    /// that way keeps the log's spelling).
    Refused,
}

/// A player's view of a game (docs/notation.md §6): what it keeps between
/// events, and how each event of the full log shows in it. The view's
/// driver replays the full log; for each event it asks [`GameView::before`]
/// on the game as it stands, applies the event, and, when the rules accept
/// it, hands the note to [`GameView::after`] with the game after it.
pub trait GameView<G: Game>: Clone + Debug {
    /// What the view notes of the game just before an event.
    type Before;

    /// How a view of the game is replayed on its own, as a full log that
    /// gives its player the same knowledge.
    const REPLAY: ViewReplay;

    /// A view of the game read on its own into its player's knowledge,
    /// for a game whose [`GameView::REPLAY`] is [`ViewReplay::Read`];
    /// [`Infallible`](std::convert::Infallible) for the others.
    type Reader: ReadView<G>;

    /// The view of `side` at the game's start.
    fn new(game: &G, side: Color) -> Self;

    /// What the view needs of `game` before `event` is applied.
    fn before(&self, game: &G, event: &Event) -> Self::Before;

    /// `event` was applied, leaving `game`: appends the view's lines for it
    /// to `out` (none when the player saw nothing of it).
    fn after(&mut self, game: &G, event: &Event, before: Self::Before, out: &mut Vec<Event>);
}

/// How a player's view of a game is replayed on its own
/// ([`crate::view::replayable`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ViewReplay {
    /// The view is a full log as it stands: nothing is hidden in it that
    /// its player's knowledge holds.
    AsLogged,
    /// The opponent's setup, shown at once when both sides are ready, is
    /// placed where it was made (a secret setup with nothing hidden after).
    SetupRevealed {
        /// The figure a revealed setup's one `place` puts down before the
        /// others, where the game's rules need it so: `@ setup` lists a
        /// square's figures in the order of its own, and a figure that
        /// goes only on an empty square (great-war-chess's fortification)
        /// would otherwise come after the unit standing on it.
        placed_first: Option<Figure>,
        /// The reason of the abort that ends a game when a side is
        /// readied by its timeout with too little placed (no king, no
        /// infantry): a view that shows it keeps the opponent's setup
        /// empty, as the abort says it was.
        too_little_placed: Reason,
    },
    /// What the player did not see decides what it sees next (fog of war),
    /// so no full log can stand for the view: the view records every change
    /// of what its player knows, and is read on its own into the player's
    /// knowledge ([`crate::view::ViewReader`]).
    Read,
}

/// A player's view read on its own, line by line, into what its player
/// knows ([`ViewReplay::Read`]): the game's part of
/// [`crate::view::ViewReader`], which reads the shared rules' events
/// (results, resignations, timeouts, salts) itself.
pub trait ReadView<G: Game>: Clone + Debug + Sized {
    /// The reading of a view of `side` at `game`'s start; `None` for a
    /// game whose views are replayed as full logs.
    fn start(game: &G, side: Color) -> Option<Self>;

    /// Reads the view's next line (every line: the shared rules' events
    /// too, which may end a turn). An error says why the line cannot be
    /// read where it stands.
    fn read(&mut self, event: &Event) -> Result<(), Fault>;

    /// What the player knows now.
    fn knowledge(&self) -> G::Knowledge;

    /// The turn as the player knows it.
    fn turn(&self) -> Turn;

    /// The decision the player knows of before the result says it (a king
    /// seen dying), if any.
    fn decided(&self) -> Option<Decision>;
}

/// No reading: the views of a game that replays them as full logs.
impl<G: Game> ReadView<G> for std::convert::Infallible {
    fn start(_: &G, _: Color) -> Option<Self> {
        None
    }

    fn read(&mut self, _: &Event) -> Result<(), Fault> {
        match *self {}
    }

    fn knowledge(&self) -> G::Knowledge {
        match *self {}
    }

    fn turn(&self) -> Turn {
        match *self {}
    }

    fn decided(&self) -> Option<Decision> {
        match *self {}
    }
}

/// The state a game hands out ([`Game::State`]).
pub type StateOf<G> = <G as Game>::State;

/// The parameters of the game `G`.
pub type ParamsOf<G> = <G as Game>::Params;

/// What a viewer knows of a game ([`Game::Knowledge`]).
pub type KnowledgeOf<G> = <G as Game>::Knowledge;

/// What a player's view of a game keeps ([`Game::View`]).
pub type ViewOf<G> = <G as Game>::View;

/// Whether `event` leaves the position of every game exactly as it was,
/// applied or refused: a player's chat or salt, which the shared rules
/// handle without the game's engine. What is worked out from the position
/// (its hash, an account of changes, what a player sees) needs no new look
/// at the board after it, only at the progress.
pub fn leaves_position(event: &Event) -> bool {
    matches!(event.actor, Actor::Player(_)) && matches!(event.action, Action::Chat { .. } | Action::Salt { .. })
}
