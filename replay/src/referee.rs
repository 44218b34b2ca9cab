//! The referee: given the world seed, the world events a live game's rules
//! owe next. It is the one place that asks for them: the random outcomes
//! each game derives from [`Draws`] (`Game::next_outcome`: the spawns,
//! damage rolls and clones of open-world-chess, the reveals of
//! magic-draughts), the result once the game is decided, and the `@ seed`
//! reveal after it. Timeouts are not the
//! seed's: they come from clocks ([`Replay::due_timeout`]).
//!
//! The random game generator (`gen`, `fgn gen`) takes its world events
//! from here too, so a generated log, a server running a game
//! and `fgn impact --resimulate` all derive the same events from a seed.
//!
//! ```
//! use fgn_notation::{parse, Action};
//! use fgn_replay::Replay;
//!
//! // A server's open-world-chess game: the seed is secret, its commitment public.
//! let seed = [7u8; 32];
//! let commit: String = fgn_replay::seed::commitment(&seed).iter().map(|b| format!("{b:02x}")).collect();
//! let log = format!("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[SeedCommit \"blake3:{commit}\"]\n");
//! let game = parse(log.as_bytes()).document.game;
//! let mut replay = Replay::new(&game.header).unwrap();
//!
//! // Before the first move the world owes the spawns the seed gives the starting light.
//! let owed = replay.owed_world_events(&seed);
//! assert!(!owed.is_empty());
//! assert!(owed.iter().all(|e| matches!(e.action, Action::Spawn { .. })));
//! for event in &owed {
//!     replay.apply(event).unwrap();
//! }
//! // Now it is white's move: the world owes nothing until a player acts.
//! assert!(replay.owed_world_events(&seed).is_empty());
//!
//! // White resigns: the referee owes the result, then reveals the seed.
//! let resign = parse(b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n0 w resign\n").document.game.events[0].clone();
//! replay.apply(&resign).unwrap();
//! let end: Vec<String> = replay.owed_world_events(&seed).iter().map(|e| e.to_string()).collect();
//! assert_eq!(end[0], "0 @ result 0-1 resign");
//! assert!(end[1].starts_with("0 @ seed "));
//! ```

use fgn_notation::{Action, Actor, Clock, Color, Event, Seed};

use crate::core::progress::Phase;
use crate::core::seed::Draws;
use crate::game::Game;
use crate::games::each_game;
use crate::Replay;
use crate::Sessions;

// The derivations of the random outcomes from a seed (docs/notation.md),
// for a server or a checker that derives them itself.
pub use crate::games::magic_draughts::{derive_numbers, shuffle_order};
pub use crate::games::open_world_chess::{derive_clone, derive_damage, derive_spawn, Cause};

/// The most world events the referee derives in a row before a player must
/// act. No game comes near it (a window of spawns is at most a 26x26
/// board); it only keeps a bug from running forever.
const MAX_OWED_RUN: usize = 1 << 16;

/// The referee of one game: the world seed, from which it derives every
/// world event the rules owe.
#[derive(Clone, Debug)]
pub struct Referee {
    seed: [u8; 32],
}

impl Referee {
    /// The referee of the game whose world seed is `seed`.
    pub fn new(seed: [u8; 32]) -> Referee {
        Referee { seed }
    }

    /// The next world event the rules owe in `replay`, carrying the move
    /// number of the event before it and no clock; `None` when a player
    /// is to act next (or nothing more can happen).
    pub fn next(&self, replay: &Replay) -> Option<Event> {
        let action = owed_action(replay, &self.seed)?;
        Some(Event {
            n: replay.progress().last_number,
            actor: Actor::World,
            action,
            clock_ms: None,
        })
    }
}

impl Replay {
    /// Every world event the rules owe now, in order, until a player is
    /// to act: what a server writes after the last event, derived from the
    /// world seed `seed` by a [`Referee`]. Each one applies to the replay
    /// after the ones before it (at the indices after the events applied).
    pub fn owed_world_events(&self, seed: &[u8; 32]) -> Vec<Event> {
        let referee = Referee::new(*seed);
        let mut replay = self.clone();
        let mut out = Vec::new();
        while let Some(event) = referee.next(&replay) {
            if out.len() >= MAX_OWED_RUN || replay.apply(&event).is_err() {
                break;
            }
            out.push(event);
        }
        out
    }
}

impl Replay {
    /// The `@ result` the rules owe now: the game is decided and every
    /// world event its last action owes is in. It needs no seed: it is what
    /// a server writes after a deciding move of survival-chess or
    /// great-war-chess, whose world owes nothing else (in the games with a
    /// seed, [`Replay::owed_world_events`] includes it).
    ///
    /// ```
    /// use fgn_notation::parse;
    ///
    /// let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
    ///             0 w place Ke1 Ra1\n0 b place Kh8 Pg7 Ph7\n0 w ready\n0 b ready\n";
    /// let mut replay = fgn_replay::validate(&parse(log).document.game).unwrap().replay;
    /// assert_eq!(replay.owed_result(), None); // the game goes on
    /// let header = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n").document.game.header;
    /// replay.apply(&header.parse_event("1 w Ra1-a8#").unwrap()).unwrap();
    /// let result = replay.owed_result().map(|e| e.to_string());
    /// assert_eq!(result.as_deref(), Some("1 @ result 1-0 mate"));
    /// ```
    pub fn owed_result(&self) -> Option<Event> {
        Some(Event {
            n: self.progress().last_number,
            actor: Actor::World,
            action: result_action(self)?,
            clock_ms: None,
        })
    }

    /// The `@ timeout` the clocks owe at the clock reading `now` (in
    /// milliseconds since the game began): the event a server writes when a
    /// side's time limit has run out while it was to act. `None` when no
    /// side's time is up at `now` (or the game has no time limit, or a side
    /// may not time out now: the game is decided, or a timeout awaits its
    /// answer). White's setup time is asked about before black's; after
    /// one timeout is applied, the other may be due too. The event is the
    /// one the rules accept: it is tried on a copy of the replay, so the
    /// time rules are decided where they are kept, in the session.
    ///
    /// ```
    /// use fgn_notation::{parse, Clock};
    ///
    /// let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n[TimeControl \"setup=120 move=60\"]\n\n\
    ///             0 w place Ke1 Pe2 {t=3}\n";
    /// let replay = fgn_replay::validate(&parse(log).document.game).unwrap().replay;
    /// // Both setups are timed from the start: white placed, black did nothing.
    /// assert_eq!(replay.due_timeout(Clock(119_999)), None);
    /// assert_eq!(replay.due_timeout(Clock(120_000)).unwrap().to_string(), "0 @ timeout w {t=120}");
    /// ```
    pub fn due_timeout(&self, now: Clock) -> Option<Event> {
        [Color::White, Color::Black].into_iter().find_map(|color| {
            let event = Event {
                n: self.progress().last_number,
                actor: Actor::World,
                action: Action::Timeout { color },
                clock_ms: Some(now),
            };
            self.clone().apply(&event).is_ok().then_some(event)
        })
    }
}

/// The draws of the game `replay` is, under its world seed: the one place
/// the referee gets them, so that a key that also depends on the log (the
/// players' salts) is wired in here alone.
fn draws(replay: &Replay, seed: &[u8; 32]) -> Draws {
    replay.draws(seed)
}

/// The world action the rules owe next, by the shared rules' phase: after
/// the result only the seed; a decided game its result once the owed
/// outcomes are in; a game in play the outcomes and spawns the seed gives.
fn owed_action(replay: &Replay, seed: &[u8; 32]) -> Option<Action> {
    match replay.phase() {
        // Only the late side's opponent may act: a timeout never comes
        // while the world owes an event.
        Phase::AwaitingExtra { .. } => None,
        Phase::Over(_) => awaits_seed(replay).then_some(Action::Seed { seed: Seed(*seed) }),
        Phase::ResultDue(_) if !owes(replay) => result_action(replay),
        Phase::ResultDue(_) | Phase::Playing => outcome(replay, &draws(replay, seed)),
    }
}

/// The result a decided game owes, once nothing else is owed before it.
fn result_action(replay: &Replay) -> Option<Action> {
    match replay.phase() {
        Phase::ResultDue(d) if !owes(replay) => Some(Action::Result {
            outcome: d.outcome,
            reason: d.reason,
        }),
        _ => None,
    }
}

/// Whether the engine owes a world event before anything else may happen.
fn owes(replay: &Replay) -> bool {
    each_game!(Sessions, &replay.sessions, s => s.engine.owes_world_event())
}

/// Whether the game has a committed seed that is not revealed yet.
fn awaits_seed(replay: &Replay) -> bool {
    each_game!(Sessions, &replay.sessions, s => s.engine.awaits_seed())
}

/// The random outcome the seed gives next, in games that have them.
fn outcome(replay: &Replay, draws: &Draws) -> Option<Action> {
    each_game!(Sessions, &replay.sessions, s => s.engine.next_outcome(draws))
}
