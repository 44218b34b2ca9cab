//! The rules every game shares (RULES.md: time limits, resignation, chat,
//! results), around a game engine that knows its own moves.
//!
//! A [`Session`] checks, for every event: clock annotations never go
//! backwards and respect the time limits; move numbers follow the FGN
//! convention; timeouts, extra-time answers and resignations come at
//! moments they can; a result comes exactly when the game is decided and
//! says how; after it only chat and the seed may follow; the players'
//! salts come first in the log, once each, in a game with a world seed.
//! Everything about the board is the engine's.
//!
//! Every event is one transaction ([`Session::apply`]): the session's
//! tally is saved and the engine checkpointed, so that a refused event
//! leaves nothing changed. A player's move in play, almost every event of
//! a log, first tries one pass without it: the same checks as tests that
//! send the event on to the transaction instead of wording a fault, then
//! [`Game::play_valid`], which changes nothing unless it plays the move.
//! That pass costs a fraction of the transaction, which copies the tally,
//! moves `Result`s of faults through every step and asks the engine its
//! questions one at a time.

use fgn_notation::{Action, Actor, Clock, Color, Event, GameKind, MoveNumber, Reason, TimeControl};

use crate::core::error::{Fault, Place, Rule, RuleError};
use crate::core::progress::{Decision, Phase, Progress, Turn};
use crate::core::seed::Salts;
use crate::game::Game;

/// When a running time limit started, as far as the clock readings show
/// it. Readings never go backwards, so an event without one happened no
/// earlier than the last reading before it and no later than the first
/// reading after it: the limit started at or after `after` (the last
/// reading at or before the event that started it, t=0 before any), and at
/// or before `before` (that event's own reading, or else the first reading
/// since), which is `None` while no reading has bounded it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Start {
    after: Clock,
    before: Option<Clock>,
}

impl Start {
    /// A limit that started at t=0, the game's beginning.
    const AT_ZERO: Start = Start {
        after: Clock(0),
        before: Some(Clock(0)),
    };

    /// A limit started by an event with the reading `reading` (if any),
    /// after the log's last reading `last` (that reading, if the event has
    /// one).
    fn at(reading: Option<Clock>, last: Option<Clock>) -> Start {
        Start {
            after: last.unwrap_or(Clock(0)),
            before: reading,
        }
    }

    /// A later event reads `reading`: the limit started no later.
    #[inline]
    fn bound(&mut self, reading: Clock) {
        if self.before.is_none() {
            self.before = Some(reading);
        }
    }

    /// The start when the readings pin it: the event that started it had
    /// a reading, or the readings around it are equal.
    fn known(self) -> Option<Clock> {
        self.before.filter(|&b| b == self.after)
    }
}

/// Where the shared rules stand between events: everything of theirs that
/// an event can change, kept as one value so that a rejected event can put
/// it back whole.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Tally {
    phase: Phase,
    last_n: MoveNumber,
    last_clock: Option<Clock>,
    /// When the current turn began (or the game, for setup).
    turn_start: Start,
    /// When the turn before it began: the time of the side that may still
    /// extend that turn ([`Game::extending`]).
    ended_turn_start: Start,
    /// When the last event happened, where a reading shows it: its own
    /// reading, or, for a world event its action caused, the time of the
    /// event before it.
    last_at: Option<Clock>,
    events: usize,
    /// The first event that was neither chat nor a salt, by its keyword:
    /// from it on no salt may come.
    opened_by: Option<&'static str>,
}

/// A game in progress: the engine and the shared rules around it.
#[derive(Clone, Debug)]
pub struct Session<E> {
    /// The game engine.
    pub(crate) engine: E,
    time: TimeControl,
    has_seed: bool,
    at: Tally,
    /// The salts the players have given. Outside the [`Tally`] an event
    /// saves and restores, because only a salt event changes them, as the
    /// last thing it does once it cannot be refused any more: copying 66
    /// bytes per event to take back what never changes cost more than the
    /// rest of the transaction.
    salts: Salts,
    /// Whether the engine assumed, at the last move, that the side to move
    /// has a legal move ([`Game::play_valid`]), which the next move has
    /// not proved yet. Only [`Session::apply_in_log`] sets it.
    unproved_moves: bool,
    /// Whether a revealed seed matched the commitment and re-derived every
    /// recorded random outcome: set once, by the `@ seed` that passes.
    seed_checked: bool,
}

/// Why [`Session::apply_in_log`] did not apply an event.
#[derive(Debug)]
pub(crate) enum LogStop {
    /// The rules refuse it.
    Refused(RuleError),
    /// The engine's assumption that the side to move had a legal move was
    /// wrong: the log must be replayed from its start without assumptions.
    Replay,
}

/// Whether the readings prove that an action with the reading `now` came
/// more than `limit` seconds after the limit `start`ed: even from the latest
/// the limit can have started, more than the limit passed. Returns that
/// least time and the limit, in milliseconds. Nothing is proved while no
/// reading bounds the start, nor of an action without a reading of its own.
#[inline]
fn late_by(limit: u32, start: Start, now: Option<Clock>) -> Option<(u64, u64)> {
    let (start, now) = (start.before?, now?);
    let elapsed = now.millis().saturating_sub(start.millis());
    (elapsed > u64::from(limit) * 1000).then_some((elapsed, u64::from(limit) * 1000))
}

fn secs(ms: u64) -> String {
    Clock(ms).to_string()
}

impl<E: Game> Session<E> {
    /// The first outcome recorded so far that `seed` refutes
    /// ([`Game::refuted_by_seed`]), under the salts given so far.
    pub(crate) fn refuted_by_seed(&self, seed: &[u8; 32]) -> Option<RuleError> {
        let fault = self.engine.refuted_by_seed(seed, &self.salts)?;
        let place = Place::Event(fault.event?);
        Some(RuleError::at(place, fault))
    }

    /// `None` for a game without random outcomes; else whether a revealed
    /// seed has checked them.
    pub(crate) fn outcomes_checked(&self) -> Option<bool> {
        self.engine.has_random_outcomes().then_some(self.seed_checked)
    }

    /// Why the log's random outcomes were never checked, where a reader
    /// should be told: a game with random outcomes and no `SeedCommit` (no
    /// seed can ever prove them), or a finished game whose seed was not
    /// revealed. A game in progress with a commitment is not yet due its
    /// seed, and says nothing.
    pub(crate) fn unchecked_outcomes(&self) -> Option<&'static str> {
        if !self.engine.has_random_outcomes() || self.seed_checked {
            return None;
        }
        if self.engine.without_world_seed().is_some() {
            return Some(
                "its random outcomes were never checked: the header has no `SeedCommit`, so no seed can prove them",
            );
        }
        matches!(self.at.phase, Phase::Over(_)).then_some(
            "its random outcomes were never checked: the game is over and its seed was not revealed (`@ seed`)",
        )
    }

    /// A new game with `engine` at its start, under the time limits `time`.
    /// `has_seed` says whether the game may end with `@ seed`.
    pub fn new(engine: E, time: TimeControl, has_seed: bool) -> Session<E> {
        Session {
            engine,
            time,
            has_seed,
            at: Tally {
                phase: Phase::Playing,
                last_n: MoveNumber(0),
                last_clock: None,
                // White's first turn, or the setup, starts with the game.
                turn_start: Start::AT_ZERO,
                ended_turn_start: Start::AT_ZERO,
                last_at: None,
                events: 0,
                opened_by: None,
            },
            salts: Salts::default(),
            unproved_moves: false,
            seed_checked: false,
        }
    }

    /// Which game this is.
    pub(crate) fn game(&self) -> GameKind {
        E::KIND
    }

    /// The shared rules' phase.
    pub fn phase(&self) -> Phase {
        self.at.phase
    }

    /// The shared rules' part of the state.
    pub fn progress(&self) -> Progress {
        let decided = matches!(self.at.phase, Phase::ResultDue(_) | Phase::Over(_));
        Progress {
            turn: (!decided).then(|| self.engine.turn()),
            status: self.at.phase,
            last_number: self.at.last_n,
            clock_ms: self.at.last_clock,
            // A log without readings says nothing of time, not even that
            // the game began at t=0.
            turn_started_ms: self.at.last_clock.and(self.at.turn_start.known()),
            salts: self.salts,
        }
    }

    /// The latest time the running limit can have started, as far as the
    /// readings show (`None` while no reading since the event that started
    /// it bounds it): what a move's time is proved late against.
    pub(crate) fn limit_started_by(&self) -> Option<Clock> {
        self.at.turn_start.before
    }

    /// The salts the players have given so far.
    pub fn salts(&self) -> Salts {
        self.salts
    }

    /// How many events have been applied.
    pub fn events(&self) -> usize {
        self.at.events
    }

    /// Applies the next event of the log (its index is `index`). On error
    /// nothing changes: the session stays at the state before the event.
    #[inline]
    pub fn apply(&mut self, index: usize, event: &Event) -> Result<(), RuleError> {
        if self.apply_valid_move(index, event, false) {
            return Ok(());
        }
        self.apply_general(index, event)
    }

    /// [`Session::apply`] in a loop over a whole log, which knows whether
    /// the next event is a player's move (`reply_next`): after a valid move
    /// followed by a move, the engine may leave out whether the side to
    /// move has a legal move (most of the cost of a chess move), since the
    /// next move, once played, proves that it had one. Any event that is
    /// not played at once is first preceded by the check the assumption
    /// left out; when that finds no legal move, the game had in fact ended
    /// (or the last move's `+` was false), and the answer is
    /// [`LogStop::Replay`]: the caller replays the log from its start with
    /// [`Session::apply`], which then finds the fault where it is.
    #[inline]
    pub(crate) fn apply_in_log(&mut self, index: usize, event: &Event, reply_next: bool) -> Result<(), LogStop> {
        if self.apply_valid_move(index, event, reply_next) {
            return Ok(());
        }
        if std::mem::take(&mut self.unproved_moves) && !self.engine.can_move() {
            return Err(LogStop::Replay);
        }
        self.apply_general(index, event).map_err(LogStop::Refused)
    }

    /// Whether a move's assumption is still to be proved (never after the
    /// last event of a log, which has no next move to assume one of).
    pub(crate) fn has_unproved_moves(&self) -> bool {
        self.unproved_moves
    }

    /// The usual event, a player's move in play, applied in one pass when
    /// the engine plays it at once ([`Game::play_valid`]): every check
    /// [`Session::step`] makes of such an event, in its order, each of them
    /// here a test that sends the event to the general path rather than a
    /// fault to word. Returns whether the event was applied; when not,
    /// nothing has changed. It skips the general path's saving of the tally
    /// and the engine's checkpoint, which a refused event would need: this
    /// path refuses nothing, and changes the tally only after the engine
    /// has played the move.
    #[inline]
    fn apply_valid_move(&mut self, index: usize, event: &Event, reply_next: bool) -> bool {
        let (Phase::Playing, Actor::Player(side), Action::Move(_)) = (self.at.phase, event.actor, &event.action) else {
            return false;
        };
        let now = event.clock_ms;
        if let (Some(last), Some(now)) = (self.at.last_clock, now) {
            if now < last {
                return false;
            }
        }
        // `step` would time an extending side against the turn it ended, and
        // refuses a move while world events are owed.
        if self.engine.extending().is_some() || self.engine.owes_world_event() {
            return false;
        }
        let turn_before = self.engine.turn();
        // `check_time` for the side to move (the engine refuses any other side).
        if let Some(limit) = self.time.move_seconds {
            if late_by(limit, self.at.turn_start, now).is_some() {
                return false;
            }
        }
        self.engine.at_event(index);
        let Some((decision, assumed)) = self.engine.play_valid(side, event.n, &event.action, reply_next) else {
            return false;
        };
        // This move of the side to move proves the last move's assumption
        // that it had one, and perhaps makes its own.
        self.unproved_moves = assumed;
        // From here on, what `step` does after a player's accepted move.
        if self.at.opened_by.is_none() {
            self.at.opened_by = Some(fgn_notation::forms::keyword(&event.action));
        }
        self.at.phase = decision.map_or(Phase::Playing, Phase::ResultDue);
        self.at.last_n = event.n;
        self.read_clock(now, turn_before);
        self.at.events += 1;
        true
    }

    /// After an accepted event with the reading `reading` (if any), which
    /// found the turn `turn_before`: the reading bounds the starts of the
    /// running limits, and a turn passed on by the event starts with it.
    #[inline]
    fn read_clock(&mut self, reading: Option<Clock>, turn_before: Turn) {
        self.at.last_at = reading;
        if let Some(now) = reading {
            self.at.last_clock = Some(now);
            self.at.turn_start.bound(now);
            self.at.ended_turn_start.bound(now);
        }
        let turn_after = self.engine.turn();
        if turn_after != turn_before && !matches!(turn_after, Turn::Setup { .. }) {
            self.at.ended_turn_start = self.at.turn_start;
            self.at.turn_start = Start::at(reading, self.at.last_clock);
        }
    }

    /// [`Session::apply`] for any event, in a transaction.
    fn apply_general(&mut self, index: usize, event: &Event) -> Result<(), RuleError> {
        let before = self.at;
        self.engine.checkpoint();
        self.engine.at_event(index);
        match self.step(event) {
            Ok(()) => {
                self.at.events += 1;
                Ok(())
            }
            Err(fault) => {
                self.at = before;
                self.engine.rollback();
                Err(RuleError::at(Place::Event(index), fault))
            }
        }
    }

    fn step(&mut self, event: &Event) -> Result<(), Fault> {
        if let (Some(last), Some(now)) = (self.at.last_clock, event.clock_ms) {
            if now < last {
                return Err(Fault::new(
                    Rule::Clock,
                    format!("the clock goes backwards: t={now} after t={last}"),
                ));
            }
        }
        let carried = matches!(event.actor, Actor::World)
            || matches!(
                event.action,
                Action::Chat { .. } | Action::Resign | Action::Extra { .. }
            );
        if carried && event.n != self.at.last_n {
            return Err(Fault::new(
                Rule::MoveNumber,
                format!(
                    "this event carries the move number of the event before it, {}, not {}",
                    self.at.last_n, event.n
                ),
            ));
        }
        let turn_before = self.engine.turn();
        // An event of the side extending its ended turn (not its chat,
        // resignation or answer to a timeout) belongs to that turn.
        let extends = match (event.actor, &event.action) {
            (Actor::Player(_), Action::Chat { .. } | Action::Resign | Action::Extra { .. }) => false,
            (Actor::Player(p), _) => self.engine.extending() == Some(p),
            (Actor::World, _) => false,
        };
        let next_phase = self.dispatch(event)?;
        if matches!(
            event.action,
            Action::Timeout { .. }
                | Action::Extra { .. }
                | Action::Resign
                | Action::Result { .. }
                | Action::Seed { .. }
        ) {
            // An event the engine does not see, but one that is not a
            // purchase or chat; a setup timeout is the engine's own.
            if !matches!(turn_before, Turn::Setup { .. }) {
                self.engine
                    .shared_event(!matches!(next_phase, Phase::Playing | Phase::AwaitingExtra { .. }));
            }
        }
        // Committed: the engine has accepted the event (or it was the session's own).
        if self.at.opened_by.is_none() && !matches!(event.action, Action::Chat { .. } | Action::Salt { .. }) {
            self.at.opened_by = Some(fgn_notation::forms::keyword(&event.action));
        }
        self.at.phase = next_phase;
        self.at.last_n = event.n;
        // A turn begins at the event that passed it on, and is timed from
        // that event's reading; an event without one began it at a time the
        // readings around it bound. The world writes what an action causes
        // right after it (NOTATION.md), so such a world event without a
        // reading (the damage roll after a turn's last move) happened when
        // the event before it did.
        let caused = matches!(event.actor, Actor::World)
            && !matches!(
                event.action,
                Action::Timeout { .. } | Action::Result { .. } | Action::Seed { .. }
            );
        let reading = event.clock_ms.or(if caused { self.at.last_at } else { None });
        self.read_clock(reading, turn_before);
        // The ended turn's last event so far, or a fresh full limit: the
        // opponent's time, or the late side's, starts here.
        if extends || matches!(event.action, Action::Extra { granted: true }) {
            self.at.turn_start = Start::at(event.clock_ms, self.at.last_clock);
        }
        Ok(())
    }

    /// Checks and applies `event`, returning the phase that follows it.
    fn dispatch(&mut self, event: &Event) -> Result<Phase, Fault> {
        let action = &event.action;
        match (self.at.phase, event.actor, action) {
            (_, Actor::Player(_), Action::Chat { .. }) => return Ok(self.at.phase),
            (_, Actor::Player(p), Action::Salt { salt }) => {
                self.salt(p, event.n, **salt)?;
                return Ok(self.at.phase);
            }
            (Phase::Over(_), Actor::World, Action::Seed { seed }) if self.has_seed => {
                self.engine.seed(&seed.0, &self.salts)?;
                self.seed_checked = true;
                return Ok(self.at.phase);
            }
            (Phase::Over(d), _, _) => {
                return Err(Fault::new(
                    Rule::AfterResult,
                    format!(
                        "the game is over ({}); only {} may follow",
                        d.text(),
                        if self.has_seed { "chat and `@ seed`" } else { "chat" }
                    ),
                ))
            }
            (Phase::ResultDue(d), Actor::World, Action::Result { outcome, reason }) => {
                if let Some(owed) = self.engine.owed_world_event() {
                    return Err(Fault::new(
                        Rule::Result,
                        format!("the result comes after the world events of the last action: {owed}"),
                    ));
                }
                let said = Decision {
                    outcome: *outcome,
                    reason: *reason,
                };
                if said != d {
                    return Err(Fault::new(
                        Rule::Result,
                        format!("the result is `{}`, not `{}`", d.text(), said.text()),
                    ));
                }
                return Ok(Phase::Over(d));
            }
            (Phase::ResultDue(d), Actor::World, _) if self.engine.owes_world_event() => {
                self.engine.world(action)?;
                return Ok(Phase::ResultDue(d));
            }
            (Phase::ResultDue(d), _, _) => {
                // What the log needs next: the owed world events, then the result.
                let next = match self.engine.owed_world_event() {
                    Some(owed) => format!("the world owes {owed} first, then `@ result {}`", d.text()),
                    None => format!("the next event must be `@ result {}`", d.text()),
                };
                return Err(Fault::new(
                    Rule::Result,
                    format!("the game is decided ({}): {next}", d.reason.name()),
                ));
            }
            (_, Actor::World, Action::Result { outcome, reason }) => {
                let said = Decision {
                    outcome: *outcome,
                    reason: *reason,
                };
                let why = self
                    .engine
                    .undecided_because()
                    .map_or(String::new(), |w| format!(": {w}"));
                return Err(Fault::new(
                    Rule::Result,
                    format!(
                        "the game is not decided, so `result {}` cannot be recorded{why}",
                        said.text()
                    ),
                ));
            }
            (_, Actor::World, Action::Seed { .. }) => {
                return Err(Fault::new(
                    Rule::Seed,
                    "the world reveals its seed only after the result",
                ));
            }
            _ => {}
        }
        if self.engine.owes_world_event() {
            // The world writes what an action owes right after it; only chat
            // (answered above) and a resignation, both possible at any time,
            // may come in between, and the result then waits for the owed
            // events.
            let allowed = match (event.actor, action) {
                (Actor::Player(_), Action::Resign) => true,
                (Actor::World, Action::Timeout { .. }) => false,
                (Actor::World, _) => true,
                (Actor::Player(_), _) => false,
            };
            if !allowed {
                // Described only for the error: every owed world event
                // (each reveal of magic-draughts) passes here.
                let owed = self
                    .engine
                    .owed_world_event()
                    .map(|o| o.to_string())
                    .unwrap_or_default();
                return Err(Fault::new(
                    Rule::WorldEvent,
                    format!("the world owes {owed} before anything else happens"),
                ));
            }
        }
        let turn = self.engine.turn();
        let decided = |d: Option<Decision>| Ok(d.map_or(Phase::Playing, Phase::ResultDue));
        match (self.at.phase, event.actor, action) {
            (Phase::AwaitingExtra { late }, Actor::Player(p), Action::Extra { granted }) => {
                if p != late.opponent() {
                    return Err(Fault::new(
                        Rule::Extra,
                        format!(
                            "only {} may answer {}'s timeout, and {} ran out of time itself",
                            late.opponent().name(),
                            late.name(),
                            p.name()
                        ),
                    ));
                }
                if *granted {
                    Ok(Phase::Playing)
                } else {
                    Ok(Phase::ResultDue(Decision::win(p, Reason::Timeout)))
                }
            }
            (_, Actor::Player(_), Action::Extra { .. }) => Err(Fault::new(
                Rule::Extra,
                "`extra` answers a timeout, and no timeout awaits an answer",
            )),
            (_, Actor::Player(p), Action::Resign) => {
                if matches!(turn, Turn::Setup { .. }) {
                    return Err(Fault::new(Rule::Resign, "a player may resign only after setup"));
                }
                Ok(Phase::ResultDue(Decision::win(p.opponent(), Reason::Resign)))
            }
            (Phase::AwaitingExtra { late }, _, _) => Err(Fault::new(
                Rule::Extra,
                format!(
                    "{}'s time ran out: {} must answer `extra yes` or `extra no` first",
                    late.name(),
                    late.opponent().name()
                ),
            )),
            (_, Actor::World, Action::Timeout { color }) => self.timeout(*color, turn, event.clock_ms),
            (_, Actor::World, _) => decided(self.engine.world(action)?),
            (_, Actor::Player(p), _) if self.engine.extending() == Some(p) => {
                // The engine says first whether the event extends the ended
                // turn at all (else its own error is the one to report);
                // a rejected event is rolled back whole.
                let decision = self.engine.player(p, event.n, action)?;
                self.check_time(p, turn, true, event.clock_ms)?;
                decided(decision)
            }
            (_, Actor::Player(p), _) => {
                self.check_time(p, turn, false, event.clock_ms)?;
                decided(self.engine.player(p, event.n, action)?)
            }
        }
    }

    /// `side` gives its salt: only where a world seed is committed to, only
    /// while the log has held nothing but chat and salts, and once per
    /// player (NOTATION.md, "Player entropy"). A salt is no move, so it is
    /// not timed.
    fn salt(&mut self, side: Color, n: MoveNumber, salt: fgn_notation::Salt) -> Result<(), Fault> {
        if let Some(why) = self.engine.without_world_seed() {
            return Err(Fault::new(
                Rule::Salt,
                format!("a salt adds to the world seed, and {why}"),
            ));
        }
        if let Some(first) = self.at.opened_by {
            return Err(Fault::new(
                Rule::Salt,
                format!(
                    "a salt comes first in the log, before any world event and any move (chat aside), \
                     but a `{first}` comes before this one"
                ),
            ));
        }
        if self.salts[side].is_some() {
            return Err(Fault::new(
                Rule::Salt,
                format!(
                    "{} has given its salt already: each player gives at most one",
                    side.name()
                ),
            ));
        }
        if n != MoveNumber(0) {
            return Err(Fault::new(
                Rule::MoveNumber,
                format!("a salt comes before the first move and carries move number 0, not {n}"),
            ));
        }
        // The last step of a salt event, which nothing after it can refuse
        // (see `Session::salts`).
        self.salts[side] = Some(salt);
        Ok(())
    }

    /// Checks that `side` acts within its time: in setup, the setup limit;
    /// in play, the move limit of its turn, or (`extending`) of the turn it
    /// ended and is still adding to.
    fn check_time(&self, side: Color, turn: Turn, extending: bool, now: Option<Clock>) -> Result<(), Fault> {
        match turn {
            Turn::Setup { ready } => {
                if let (Some(limit), false) = (self.time.setup_seconds, ready[side]) {
                    if let Some((at, lim)) = late_by(limit, Start::AT_ZERO, now) {
                        return Err(Fault::new(
                            Rule::TimeLimit,
                            format!("{} acts at t={} in setup, after the {} s setup limit ran out, and no timeout was recorded", side.name(), secs(at), secs(lim)),
                        ));
                    }
                }
            }
            Turn::Move { side: to_move, .. } if to_move == side || extending => {
                let start = if extending {
                    self.at.ended_turn_start
                } else {
                    self.at.turn_start
                };
                if let Some(limit) = self.time.move_seconds {
                    if let Some((elapsed, lim)) = late_by(limit, start, now) {
                        // Where the start's reading is missing, the time is
                        // the least the readings after it allow.
                        let least = if start.known().is_some() { "" } else { "at least " };
                        return Err(Fault::new(
                            Rule::TimeLimit,
                            format!(
                                "{} moves {least}{} s into its turn, over the {} s move limit, and no timeout was recorded",
                                side.name(),
                                secs(elapsed),
                                secs(lim)
                            ),
                        ));
                    }
                }
            }
            Turn::Move { .. } => {}
        }
        Ok(())
    }

    fn timeout(&mut self, color: Color, turn: Turn, now: Option<Clock>) -> Result<Phase, Fault> {
        // A timeout is early only when the readings prove it: even from
        // the earliest the limit can have started to the timeout's own
        // reading, less than the limit passed. Without its reading the
        // timeout may have come at any time after the last one.
        let early = |limit: u32, start: Start| -> Result<(), Fault> {
            if let Some(now) = now {
                let elapsed = now.millis().saturating_sub(start.after.millis());
                if elapsed < u64::from(limit) * 1000 {
                    let most = if start.known().is_some() { "" } else { "at most " };
                    return Err(Fault::new(
                        Rule::Timeout,
                        format!(
                            "{}'s time has not run out: {most}{} s of {} s used",
                            color.name(),
                            secs(elapsed),
                            limit
                        ),
                    ));
                }
            }
            Ok(())
        };
        match turn {
            Turn::Setup { ready } => {
                let Some(limit) = self.time.setup_seconds else {
                    return Err(Fault::new(
                        Rule::Timeout,
                        "this game has no setup time limit, so nobody can run out of setup time",
                    ));
                };
                if ready[color] {
                    return Err(Fault::new(
                        Rule::Timeout,
                        format!("{} is ready already, so its setup time cannot run out", color.name()),
                    ));
                }
                early(limit, Start::AT_ZERO)?;
                Ok(self
                    .engine
                    .setup_timeout(color)?
                    .map_or(Phase::Playing, Phase::ResultDue))
            }
            Turn::Move { side, .. } => {
                let Some(limit) = self.time.move_seconds else {
                    return Err(Fault::new(
                        Rule::Timeout,
                        "this game has no move time limit, so nobody can run out of time",
                    ));
                };
                if side != color {
                    return Err(Fault::new(
                        Rule::Timeout,
                        format!(
                            "it is {}'s turn, so {}'s time cannot run out",
                            side.name(),
                            color.name()
                        ),
                    ));
                }
                early(limit, self.at.turn_start)?;
                Ok(Phase::AwaitingExtra { late: color })
            }
        }
    }

    /// Checks the end of the log: nothing owed may be missing.
    pub fn finish(&self) -> Result<(), RuleError> {
        if let (Phase::ResultDue(d), None) = (self.at.phase, self.engine.owed_world_event()) {
            return Err(RuleError::at(
                Place::End,
                Fault::new(
                    Rule::Result,
                    format!(
                        "the game is decided ({}) but the log ends without `@ result {}`",
                        d.reason.name(),
                        d.text()
                    ),
                ),
            ));
        }
        if let Some(owed) = self.engine.owed_world_event() {
            return Err(RuleError::at(
                Place::End,
                Fault::new(Rule::WorldEvent, format!("the log ends while the world owes {owed}")),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::{Action, Actor, BoardSize, Check, Clock, Color, Event, MoveNumber};

    use crate::gen::{generate, Options, Rate, Rates};
    use crate::ruleset::{Board, SurvivalRules};
    use crate::{Replay, Ruleset};

    /// The events to try in place of `event`: itself, and copies with a
    /// clock reading far too late or going backwards, the wrong move number
    /// and every check marker, so that both paths meet refusals of every
    /// kind the one-pass path tests for.
    fn variants(event: &Event) -> Vec<Event> {
        let mut out = vec![event.clone()];
        for clock in [Some(Clock(0)), Some(Clock(10_000_000)), None] {
            out.push(Event {
                clock_ms: clock,
                ..event.clone()
            });
        }
        out.push(Event {
            n: MoveNumber(event.n.0 + 1),
            ..event.clone()
        });
        if let Action::Move(m) = &event.action {
            for check in [None, Some(Check::Check), Some(Check::Mate)] {
                out.push(Event {
                    action: Action::Move(fgn_notation::ChessMove { check, ..*m }),
                    ..event.clone()
                });
            }
        }
        out
    }

    /// Regression guard for the one-pass move (`Session::apply_valid_move`):
    /// over random survival-chess games with clocks (some readings left
    /// out), a move time limit, timeouts, extra time, chat and
    /// resignations, every event and its variants applied by `apply` and
    /// by the general transaction (`apply_general`) give the same verdict
    /// and leave the same session.
    #[test]
    fn the_one_pass_move_agrees_with_the_general_path() {
        let (mut fast, mut checked) = (0usize, 0usize);
        for (i, size) in [(8, 8), (6, 6), (10, 10)].into_iter().enumerate() {
            for seed in 0..6 {
                let rules = SurvivalRules {
                    board: Board(BoardSize {
                        files: size.0,
                        ranks: size.1,
                    }),
                    move_seconds: Some(30),
                    ..SurvivalRules::default()
                };
                // Without the finishing bias, so that games run long.
                let options = Options {
                    plies: 120,
                    finish: Rate::NEVER,
                    clocks: true,
                    rates: Rates {
                        chat: Rate::per_million(50_000).expect("a rate"),
                        resign: Rate::per_million(10_000).expect("a rate"),
                        ..Rates::DEFAULT
                    },
                    ..Options::under(Ruleset::Survival(rules.clone()), 10 * i as u64 + seed)
                };
                let mut game = generate(&options).expect("a random survival-chess game");
                // Every third event without its reading, so that turns also
                // begin at unknown times, bounded by the readings after them
                // (which leaves the game valid: a reading left out proves
                // nothing late).
                for event in game.events.iter_mut().skip(1).step_by(3) {
                    event.clock_ms = None;
                }
                let Ok(Replay {
                    sessions: crate::Sessions::Survival(mut session),
                }) = Replay::new(&game.header)
                else {
                    panic!("a survival-chess header");
                };
                for (index, event) in game.events.iter().enumerate() {
                    // Each variant also after a chat 31 s after the last
                    // reading, whose reading bounds a turn begun by an
                    // event without one.
                    let last = session.progress().clock_ms.map_or(0, Clock::millis);
                    let chat = Event {
                        n: session.progress().last_number,
                        actor: Actor::Player(Color::White),
                        action: Action::Chat { text: "tick".into() },
                        clock_ms: Some(Clock(last + 31_000)),
                    };
                    let mut chatted = session.clone();
                    chatted.apply(index, &chat).expect("chat may come at any time");
                    for variant in variants(event) {
                        for (before, index) in [(&session, index), (&chatted, index + 1)] {
                            let (mut one, mut general) = (before.clone(), before.clone());
                            let a = one.apply(index, &variant);
                            let b = general.apply_general(index, &variant);
                            assert_eq!(a, b, "event {index}: {variant:?}");
                            assert_eq!(format!("{one:?}"), format!("{general:?}"), "event {index}: {variant:?}");
                            fast += usize::from(before.clone().apply_valid_move(index, &variant, false));
                            checked += 1;
                        }
                    }
                    session.apply(index, event).expect("the random game is legal");
                }
            }
        }
        // Most variants are refused, and many moves take the one pass.
        assert!(fast > 500 && checked > 3 * fast, "{fast} one-pass of {checked}");
    }
}
