//! The rules engines of the FGN games: a log is replayed event by event, each
//! event either producing the next state or a rule error that names it.
//!
//! [`Replay`] is the entry point: built from a log's header (which picks the
//! game and its ruleset), it applies events one at a time and leaves the
//! state untouched when an event breaks a rule.

pub mod append;
pub mod changes;
pub mod draughts;
pub mod error;
pub mod game;
pub mod gwc;
pub mod hash;
pub mod impact;
pub mod loghash;
pub mod magic;
pub mod owc;
pub mod referee;
pub mod rng;
pub mod ruleset;
pub mod seed;
pub mod session;
mod setup;
pub mod standings;
pub mod state;
pub mod survival;
pub mod view;

use fgn_notation::{Document, Event, Game, GameKind, Header};

use game::GameRules;

/// Runs `$body` with `$s` bound to the session of whichever game `$replay` is.
macro_rules! each_game {
    ($replay:expr, $s:ident => $body:expr) => {
        match $replay {
            Replay::Survival($s) => $body,
            Replay::Draughts($s) => $body,
            Replay::OpenWorld($s) => $body,
            Replay::GreatWar($s) => $body,
        }
    };
}

pub use changes::{knowledge_changes, state_changes, Change};
pub use error::{Fault, Place, Rule, RuleError};
pub use game::Viewer;
pub use hash::Digest;
pub use ruleset::{Overridden, Params, RulesFile, Ruleset};
pub use session::{Decision, Engine, Phase, Session, Turn};
pub use state::{Knowledge, KnownPosition, Position, Progress, State};
pub use view::{replayable, view, ViewError, ViewWriter};

/// A game being replayed, whatever the game.
#[derive(Clone, Debug)]
pub enum Replay {
    /// survival-chess
    Survival(Session<survival::Survival>),
    /// magic-draughts
    Draughts(Session<magic::MagicDraughts>),
    /// open-world-chess
    OpenWorld(Session<owc::OpenWorld>),
    /// great-war-chess
    GreatWar(Session<gwc::GreatWar>),
}

/// Why a log cannot be replayed at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StartError {
    /// The game's engine is not built yet.
    Unsupported(GameKind),
    /// The header breaks a rule (unknown rules version, bad parameter, a view).
    Header {
        /// The tag at fault, if one is.
        tag: Option<String>,
        /// The error.
        error: RuleError,
    },
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Unsupported(g) => write!(f, "{g} is not supported yet: no rules engine validates it"),
            StartError::Header { error, .. } => error.fmt(f),
        }
    }
}

impl StartError {
    /// Whether the log cannot be checked rather than breaks a rule: a game
    /// or a rules version without an engine, or a player's view (which is
    /// checked against its full log with `verify-view`, not against the rules).
    pub fn is_unsupported(&self) -> bool {
        match self {
            StartError::Unsupported(_) => true,
            StartError::Header { error, .. } => matches!(error.rule, Rule::Perspective | Rule::RulesVersion),
        }
    }
}

fn header_error(tag: Option<&str>, fault: Fault) -> StartError {
    StartError::Header {
        tag: tag.map(str::to_string),
        error: RuleError::at(Place::Header, fault),
    }
}

impl Replay {
    /// A replay of the game the header names, at its start, under the
    /// game's default ruleset changed by the header's parameter tags.
    pub fn new(header: &Header) -> Result<Replay, StartError> {
        let game = header
            .game()
            .ok_or_else(|| header_error(Some("Game"), Fault::new(Rule::Header, "the header names no game")))?;
        let rules = Ruleset::defaults(game).ok_or(StartError::Unsupported(game))?;
        Replay::with_rules(header, rules)
    }

    /// Like [`Replay::new`], starting from `rules` instead of the defaults
    /// (the header's parameter tags still change them: `rules` is a base,
    /// as a generated game's rules are for its own header).
    pub fn with_rules(header: &Header, rules: Ruleset) -> Result<Replay, StartError> {
        Replay::start(header, rules, None).map(|(replay, _)| replay)
    }

    /// A replay under the game's defaults changed by the header's parameter
    /// tags and then by `params`, a rules file's parameters for this game,
    /// which win over the tags; with the header tags they overrode.
    pub fn with_params(header: &Header, params: Option<&Params>) -> Result<(Replay, Vec<Overridden>), StartError> {
        let game = header
            .game()
            .ok_or_else(|| header_error(Some("Game"), Fault::new(Rule::Header, "the header names no game")))?;
        let rules = Ruleset::defaults(game).ok_or(StartError::Unsupported(game))?;
        Replay::start(header, rules, params)
    }

    fn start(
        header: &Header,
        mut rules: Ruleset,
        params: Option<&Params>,
    ) -> Result<(Replay, Vec<Overridden>), StartError> {
        let game = header
            .game()
            .ok_or_else(|| header_error(Some("Game"), Fault::new(Rule::Header, "the header names no game")))?;
        let version = header.get("Rules").unwrap_or("");
        let expected = ruleset::rules_version(game);
        if version != expected {
            return Err(header_error(
                Some("Rules"),
                Fault::new(
                    Rule::RulesVersion,
                    format!("{game} rules version {expected} is implemented, not \"{version}\""),
                ),
            ));
        }
        if header.perspective().is_some() {
            return Err(header_error(
                Some("Perspective"),
                Fault::new(
                    Rule::Perspective,
                    "a player's view cannot be validated against the rules; check it against its full log with `fgn verify-view FULL VIEW`",
                ),
            ));
        }
        let overridden = rules
            .apply_header(header, params)
            .map_err(|(tag, fault)| header_error(Some(&tag), fault))?;
        let time = rules.time_control();
        let replay = match rules {
            Ruleset::Survival(r) => Replay::Survival(Session::new(survival::Survival::new(r), time, game.has_seed())),
            Ruleset::GreatWar(r) => Replay::GreatWar(Session::new(gwc::GreatWar::new(r), time, game.has_seed())),
            Ruleset::OpenWorld(r) => {
                let commit = header
                    .get("SeedCommit")
                    .and_then(|c| fgn_notation::header::parse_seed_commit(c).ok());
                Replay::OpenWorld(Session::new(owc::OpenWorld::new(r, commit), time, game.has_seed()))
            }
            Ruleset::Draughts(r) => {
                // The tag's form was checked when the header was read.
                let commit = header
                    .get("SeedCommit")
                    .and_then(|c| fgn_notation::header::parse_seed_commit(c).ok());
                Replay::Draughts(Session::new(
                    magic::MagicDraughts::new(r, commit),
                    time,
                    game.has_seed(),
                ))
            }
        };
        Ok((replay, overridden))
    }

    /// Applies the event with index `index`; on error the replay is unchanged.
    pub fn apply(&mut self, index: usize, event: &Event) -> Result<(), RuleError> {
        each_game!(self, s => s.apply(index, event))
    }

    /// Applies the event like [`Replay::apply`] and gives the account of
    /// what it changed in the state: [`state_changes`] of the states before
    /// and after it (empty for an event that changes nothing, such as
    /// chat). On error the replay is unchanged and there is no account. The
    /// account costs two states and their comparison per event, so
    /// validation uses [`Replay::apply`].
    pub fn apply_changes(&mut self, index: usize, event: &Event) -> Result<Vec<Change>, RuleError> {
        let before = self.state();
        self.apply(index, event)?;
        Ok(state_changes(&before, &self.state(), Some(event)))
    }

    /// Checks that nothing owed is missing at the end of the log.
    pub fn finish(&self) -> Result<(), RuleError> {
        each_game!(self, s => s.finish())
    }

    /// The shared rules' phase (playing, awaiting an answer, decided, over).
    pub fn phase(&self) -> Phase {
        each_game!(self, s => s.phase())
    }

    /// The current turn.
    pub fn turn(&self) -> Turn {
        each_game!(self, s => s.engine.turn())
    }

    /// The shared rules' part of the state (turn, phase, last move number, clocks).
    pub fn progress(&self) -> Progress {
        each_game!(self, s => s.progress())
    }

    /// How many events have been applied: the index the next event of the
    /// log has.
    pub fn events_applied(&self) -> usize {
        each_game!(self, s => s.events())
    }

    /// The salts the players have given so far (`salt` events).
    pub fn salts(&self) -> seed::Salts {
        each_game!(self, s => s.salts())
    }

    /// The game key of this game if its world seed is `seed`: from the seed
    /// and the salts given so far (the seed alone when there are none). A
    /// referee draws every world event it owes from it, once the players
    /// have had their chance to give salts:
    /// `seed::Draws::from_key(replay.game_key(&seed))`, or [`Replay::draws`].
    pub fn game_key(&self, seed: &[u8; 32]) -> [u8; 32] {
        seed::game_key(seed, &self.salts())
    }

    /// The draws of this game if its world seed is `seed`, under the game
    /// key of [`Replay::game_key`].
    pub fn draws(&self, seed: &[u8; 32]) -> seed::Draws {
        seed::Draws::from_key(self.game_key(seed))
    }
}

impl Replay {
    /// Which game this is.
    pub fn game(&self) -> GameKind {
        match self {
            Replay::Survival(_) => GameKind::SurvivalChess,
            Replay::Draughts(_) => GameKind::MagicDraughts,
            Replay::OpenWorld(_) => GameKind::OpenWorldChess,
            Replay::GreatWar(_) => GameKind::GreatWarChess,
        }
    }

    /// The canonical state now (the referee's: everything the log fixes).
    pub fn state(&self) -> State {
        let position = match self {
            Replay::Survival(s) => Position::Survival(s.engine.state()),
            Replay::Draughts(s) => Position::Draughts(s.engine.state()),
            Replay::OpenWorld(s) => Position::OpenWorld(s.engine.state()),
            Replay::GreatWar(s) => Position::GreatWar(s.engine.state()),
        };
        State {
            game: self.game(),
            progress: each_game!(self, s => s.progress()),
            position,
        }
    }

    /// What `viewer` knows now.
    pub fn knowledge(&self, viewer: Viewer) -> Knowledge {
        let position = match self {
            Replay::Survival(s) => KnownPosition::Survival(s.engine.knowledge(viewer)),
            Replay::Draughts(s) => KnownPosition::Draughts(s.engine.knowledge(viewer)),
            Replay::OpenWorld(s) => KnownPosition::OpenWorld(s.engine.knowledge(viewer)),
            Replay::GreatWar(s) => KnownPosition::GreatWar(s.engine.knowledge(viewer)),
        };
        // The last clock reading, and the turn start taken from it, may
        // belong to an event the viewer did not see (an opponent's hidden
        // setup edit, a world event in the fog): the clocks a player knows
        // are those of the events in its view, not part of its knowledge.
        let progress = Progress {
            clock_ms: None,
            turn_started_ms: None,
            ..each_game!(self, s => s.progress())
        };
        Knowledge {
            game: self.game(),
            viewer,
            progress,
            position,
        }
    }

    /// The state hash now: blake3 over the canonical bytes of [`Replay::state`]
    /// (docs/hashing.md).
    pub fn state_hash(&self) -> Digest {
        hash::digest(hash::STATE_CONTEXT, &self.state()).expect("states hold no floats")
    }

    /// The hash of what `viewer` knows now: a player's hash never covers
    /// what the player cannot see.
    pub fn knowledge_hash(&self, viewer: Viewer) -> Digest {
        hash::digest(hash::KNOWLEDGE_CONTEXT, &self.knowledge(viewer)).expect("knowledge holds no floats")
    }

    /// Every player action the rules allow as the next event, for each side
    /// that may act, in canonical spelling with the move number it must
    /// carry and no clock: moves, purchases, spells, `end`, and in setup
    /// every single placement, removal and `ready`. Chat, resignation,
    /// `extra`, salts (any bytes a player picks) and world events are not
    /// listed, so the list is empty while a timeout awaits its answer, the
    /// world owes an event, or the game is decided.
    pub fn legal_actions(&self) -> Vec<Event> {
        let mut out = Vec::new();
        each_game!(self, s => {
            if s.phase() == Phase::Playing && !s.engine.owes_world_event() {
                s.engine.legal_actions(&mut out);
            }
        });
        out
    }

    /// The canonical spelling of `event` if it is a move that is legal here:
    /// the promotion piece and the check or mate marker written out, as
    /// canonical FGN requires. `None` for anything else.
    pub fn canonical(&self, event: &Event) -> Option<Event> {
        match (self, &event.action, event.actor) {
            (Replay::Survival(s), fgn_notation::Action::Move(m), fgn_notation::Actor::Player(side)) => {
                let full = s.engine.canonical_move(side, m)?;
                Some(Event {
                    action: fgn_notation::Action::Move(full),
                    ..event.clone()
                })
            }
            (Replay::OpenWorld(s), fgn_notation::Action::Move(m), fgn_notation::Actor::Player(side)) => {
                let full = s.engine.canonical_move(side, m)?;
                Some(Event {
                    action: fgn_notation::Action::Move(full),
                    ..event.clone()
                })
            }
            _ => None,
        }
    }
}

/// The game with every legal move written canonically (promotion piece and
/// check markers filled in), as far as the log replays; events from the
/// first rule error on are left as they are. Games without an engine come
/// back unchanged.
pub fn complete_markers(game: &Game) -> Game {
    let mut out = game.clone();
    let Ok(mut replay) = Replay::new(&game.header) else {
        return out;
    };
    for (i, event) in game.events.iter().enumerate() {
        if let Some(full) = replay.canonical(event) {
            out.events[i] = full;
        }
        if replay.apply(i, &out.events[i]).is_err() {
            break;
        }
    }
    out
}

/// The outcome of replaying a whole log.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The replay after the last event that applied.
    pub replay: Replay,
    /// How many events applied.
    pub applied: usize,
    /// The first rule error, if any.
    pub error: Option<RuleError>,
    /// The header tags a rules file's parameters overrode.
    pub overridden: Vec<Overridden>,
}

/// Replays a whole game, stopping at the first rule error.
pub fn validate(game: &Game) -> Result<Verdict, StartError> {
    let replay = Replay::new(&game.header)?;
    Ok(run(replay, game, Vec::new()))
}

/// Replays a whole game under `rules` as a base the header's tags change,
/// stopping at the first rule error.
pub fn validate_with(game: &Game, rules: Ruleset) -> Result<Verdict, StartError> {
    let replay = Replay::with_rules(&game.header, rules)?;
    Ok(run(replay, game, Vec::new()))
}

/// Replays a whole game under its defaults and header changed by a rules
/// file's parameters (which win over the header, [`Replay::with_params`]),
/// stopping at the first rule error.
pub fn validate_with_params(game: &Game, params: Option<&Params>) -> Result<Verdict, StartError> {
    let (replay, overridden) = Replay::with_params(&game.header, params)?;
    Ok(run(replay, game, overridden))
}

fn run(mut replay: Replay, game: &Game, overridden: Vec<Overridden>) -> Verdict {
    // The game is matched once for the whole log, not once per event, so
    // that each game's loop calls its own session directly.
    let stopped = each_game!(&mut replay, s => apply_all(s, &game.events));
    let (applied, error) = match stopped {
        Some((i, error)) => (i, Some(error)),
        None => (game.events.len(), replay.finish().err()),
    };
    Verdict {
        replay,
        applied,
        error,
        overridden,
    }
}

/// Applies `events` in order until one is refused; returns its index and
/// the error, or `None` when every event was applied.
fn apply_all<E: Engine>(session: &mut Session<E>, events: &[Event]) -> Option<(usize, RuleError)> {
    events
        .iter()
        .enumerate()
        .find_map(|(i, event)| session.apply(i, event).err().map(|e| (i, e)))
}

/// Where `place` is in the file `doc` was read from, as (line, column),
/// 1-based: an event's line and the column of its action; the end of the
/// log at its last line; the header at line 1.
pub fn locate(doc: &Document, place: Place) -> (u32, u32) {
    match place {
        Place::Event(i) => (
            doc.event_lines.get(i).copied().unwrap_or(1),
            doc.event_columns.get(i).copied().unwrap_or(1),
        ),
        Place::End => (doc.event_lines.last().or(doc.tag_lines.last()).copied().unwrap_or(1), 1),
        Place::Header => (1, 1),
    }
}

/// The line of the header tag `tag` in the file `doc` was read from, or 1
/// when the header has no such tag.
pub fn tag_line(doc: &Document, tag: Option<&str>) -> u32 {
    tag.and_then(|t| doc.game.header.tags.iter().position(|x| x.name == t))
        .and_then(|i| doc.tag_lines.get(i).copied())
        .unwrap_or(1)
}
