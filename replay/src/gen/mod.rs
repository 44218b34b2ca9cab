//! Random legal games of every game, played through the game API: the one
//! generator behind `fgn gen`, the property tests, the benchmarks and the
//! bench corpus (docs/gen.md).
//!
//! A game is built only with what a game server has: [`Replay::legal_actions`]
//! gives the players' choices, [`Replay::apply`] takes every event (so the
//! shared session rules check the clocks, timeouts, move numbers, salts and
//! results of the generated log as they would a recorded one), and the
//! referee ([`Replay::owed_world_events`]) writes every world event the rules
//! owe: spawns, damage rolls, clones, reveals, the result and the seed. The
//! generator itself decides only what players and clocks decide: which legal
//! action, when to chat or resign, how long a move takes, when a side runs
//! out of time and whether its opponent grants extra time.
//!
//! Everything random comes from the options' seed (and the game's index in
//! a batch) through blake3 `derive_key`: the same [`Options`] give the same
//! game, byte for byte, on every machine.
//!
//! ```
//! use fgn_notation::GameKind;
//! use fgn_replay::gen::{generate, Options};
//!
//! let options = Options::new(GameKind::MagicDraughts, 7);
//! let game = generate(&options).unwrap();
//! // The seed is committed in the header, and the game validates with it.
//! assert!(game.header.get("SeedCommit").is_some());
//! let verdict = fgn_replay::validate(&game).unwrap();
//! assert!(verdict.error.is_none());
//! assert_eq!(generate(&options).unwrap(), game);
//! ```

pub(crate) mod rng;

use std::fmt;

use fgn_notation::{
    Action, Actor, Check, Clock, Color, Event, Figure, Game, GameKind, Header, MoveNumber, PieceKind, Salt, Tag,
    TimeControl,
};

use crate::core::seed::{commitment, salt_events, Salts};
use crate::ruleset::{self, Ruleset};
use crate::{Phase, Replay, RuleError, StartError, Turn};
use rng::Rng;

/// The blake3 `derive_key` context of a generated game's key, from which
/// every other value of the game is derived (docs/gen.md, "Seeds").
pub const GAME_CONTEXT: &str = "fgn gen v1 2026-12-01 game";

/// The context of the world seed a generated game commits to.
pub const WORLD_CONTEXT: &str = "fgn gen v1 2026-12-01 world seed";

/// The context of the players' salts of a generated game.
pub const SALT_CONTEXT: &str = "fgn gen v1 2026-12-01 salt";

/// The context of the seeds of the players' and the clocks' choices.
pub const CHOICE_CONTEXT: &str = "fgn gen v1 2026-12-01 choices";

/// The bytes of each generated salt.
const SALT_BYTES: usize = 16;

/// The most setup events a generated game writes before it gives up on a
/// setup that does not end (no rules allow one that long: at most a few
/// hundred placements per side on the largest boards).
const MAX_SETUP_EVENTS: usize = 4096;

/// A probability, in parts per million, so that options and their text
/// (`0.05`) compare and print exactly, without floating point.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Rate(u32);

impl Rate {
    /// Never.
    pub const NEVER: Rate = Rate(0);
    /// Always.
    pub const ALWAYS: Rate = Rate(1_000_000);

    /// `n` in a million, if `n` is at most a million.
    pub const fn per_million(n: u32) -> Option<Rate> {
        if n <= 1_000_000 {
            Some(Rate(n))
        } else {
            None
        }
    }

    /// The parts per million.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// Whether the event this rate is the chance of happens, by one draw of
    /// `rng`; a rate of 0 draws nothing, so that a feature left off does
    /// not change the rest of the game.
    fn hit(self, rng: &mut Rng) -> bool {
        self.0 > 0 && (rng.below(1_000_000) as u32) < self.0
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, part) = (self.0 / 1_000_000, self.0 % 1_000_000);
        if part == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{part:06}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl std::str::FromStr for Rate {
    type Err = String;

    /// A decimal probability from 0 to 1 with at most six fraction digits
    /// (`0`, `0.05`, `1`).
    fn from_str(s: &str) -> Result<Rate, String> {
        let bad = || format!("expected a probability from 0 to 1 such as 0.05 (at most six decimals), not \"{s}\"");
        let (whole, part) = s.split_once('.').unwrap_or((s, ""));
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !digits(part) || part.len() > 6 || (s.contains('.') && part.is_empty())
        {
            return Err(bad());
        }
        let whole: u32 = match whole {
            "0" => 0,
            "1" => 1,
            _ => return Err(bad()),
        };
        let part: u32 = if part.is_empty() {
            0
        } else {
            format!("{part:0<6}").parse().map_err(|_| bad())?
        };
        Rate::per_million(whole * 1_000_000 + part).ok_or_else(bad)
    }
}

/// How each side's setup is made, in the games with a secret setup.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Setup {
    /// Drawn one legal placement at a time (a king first, in
    /// survival-chess), now and then taking a piece back, until a random
    /// number of pieces stand (survival-chess) or every unit does
    /// (great-war-chess).
    #[default]
    Random,
    /// survival-chess only: the classical army on each side's two nearest
    /// ranks, one `place` event per side, so that on 8x8 the games are
    /// chess games from the classical start (survival-chess has no
    /// castling and no en passant), playable by any chess program.
    Classical,
}

/// How often the players and the clocks do what the session rules allow
/// besides playing: each is the chance per player decision (a move, `end`,
/// a purchase, a spell, a setup action), except `extra`, the chance that a
/// timeout's answer grants extra time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rates {
    /// A player writes a chat message before the decision (and once more
    /// after the result).
    pub chat: Rate,
    /// The side to move resigns instead.
    pub resign: Rate,
    /// The side to move runs out of time instead (only with clocks and a
    /// time limit in the rules); in setup, the chance per side that it is
    /// late.
    pub timeout: Rate,
    /// The opponent of a late side answers `extra yes` rather than `extra no`.
    pub extra: Rate,
}

impl Rates {
    /// No chat and no resignations; a timeout in 50 decisions (where the
    /// rules have a time limit and clocks run); extra time granted half the
    /// time.
    pub const DEFAULT: Rates = Rates {
        chat: Rate::NEVER,
        resign: Rate::NEVER,
        timeout: Rate(20_000),
        extra: Rate(500_000),
    };
}

impl Default for Rates {
    fn default() -> Rates {
        Rates::DEFAULT
    }
}

/// Everything a generated game depends on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Options {
    /// The seed every value of the game is derived from.
    pub seed: u64,
    /// The game's number in a batch made from one seed (`fgn gen --count`),
    /// from 1: games of the same seed and different indices are unrelated.
    pub index: u64,
    /// The game and its parameters (the defaults, changed by a rules file
    /// or `fgn gen`'s options); those a header tag can carry are written
    /// into the header.
    pub rules: Ruleset,
    /// The most player decisions after setup (and timeouts); the game ends
    /// there if it is not decided by then.
    pub plies: usize,
    /// How setups are made.
    pub setup: Setup,
    /// The salts the players give first in the log (games with a world
    /// seed only); `fgn gen --salts` gives [`Options::player_salts`].
    pub salts: Option<Salts>,
    /// Player events carry clock readings (`{t=...}`), within the rules'
    /// time limits unless a timeout is drawn.
    pub clocks: bool,
    /// Chat, resignations, timeouts and extra-time answers.
    pub rates: Rates,
    /// The chance per decision that the player prefers an action that
    /// finishes the game: a mating move, else a capture (in
    /// great-war-chess an attack); otherwise every legal action
    /// is equally likely.
    pub finish: Rate,
    /// When the game reaches `plies` undecided, the side to move resigns,
    /// so that every game has a result.
    pub resign_at_cap: bool,
}

impl Options {
    /// The default cap on decisions after setup.
    pub const DEFAULT_PLIES: usize = 300;

    /// The default finishing bias.
    pub const DEFAULT_FINISH: Rate = Rate(900_000);

    /// The default options for `game` from `seed` (the first game of the
    /// batch): the game's default rules, 300 decisions, a random setup, no
    /// salts, no clocks, no chat or resignations, a 0.9 finishing bias and a
    /// resignation at the cap.
    pub fn new(game: GameKind, seed: u64) -> Options {
        Options {
            seed,
            index: 1,
            rules: Ruleset::defaults(game),
            plies: Options::DEFAULT_PLIES,
            setup: Setup::Random,
            salts: None,
            clocks: false,
            rates: Rates::DEFAULT,
            finish: Options::DEFAULT_FINISH,
            resign_at_cap: true,
        }
    }

    /// The default options for a game under `rules` from `seed`: as
    /// [`Options::new`] for the game of `rules`, with those rules.
    pub fn under(rules: Ruleset, seed: u64) -> Options {
        Options {
            rules,
            ..Options::new(GameKind::SurvivalChess, seed)
        }
    }

    /// The game generated.
    pub fn game(&self) -> GameKind {
        self.rules.game()
    }

    /// The key of the game these options make: blake3 `derive_key` under
    /// [`GAME_CONTEXT`] of the game's name, a zero byte, the seed and the
    /// index (each eight bytes, little-endian).
    pub fn game_key(&self) -> [u8; 32] {
        let mut material = Vec::new();
        material.extend_from_slice(self.game().name().as_bytes());
        material.push(0);
        material.extend_from_slice(&self.seed.to_le_bytes());
        material.extend_from_slice(&self.index.to_le_bytes());
        blake3::derive_key(GAME_CONTEXT, &material)
    }

    /// The world seed of the game: blake3 `derive_key` under
    /// [`WORLD_CONTEXT`] of the game key. It is committed in the header
    /// and revealed after the result in the games that have one.
    pub fn world_seed(&self) -> [u8; 32] {
        blake3::derive_key(WORLD_CONTEXT, &self.game_key())
    }

    /// The salts the players give with `fgn gen --salts`: for each colour the
    /// first 16 bytes of blake3 `derive_key` under [`SALT_CONTEXT`] of
    /// the game key and the colour's letter (`w`, `b`).
    pub fn player_salts(&self) -> Salts {
        let salt = |c: Color| {
            let mut material = self.game_key().to_vec();
            material.push(c.char() as u8);
            let bytes = blake3::derive_key(SALT_CONTEXT, &material);
            Salt::new(&bytes[..SALT_BYTES])
        };
        Salts {
            white: salt(Color::White),
            black: salt(Color::Black),
        }
    }

    /// The seed of one stream of choices (`moves`, `session`, `clocks`):
    /// the first eight bytes, little-endian, of blake3 `derive_key` under
    /// [`CHOICE_CONTEXT`] of the game key and the stream's name. Separate
    /// streams keep the moves of a game the same when chat or clocks are
    /// switched on.
    fn stream(&self, name: &str) -> Rng {
        let mut material = self.game_key().to_vec();
        material.extend_from_slice(name.as_bytes());
        let bytes = blake3::derive_key(CHOICE_CONTEXT, &material);
        Rng::new(u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes")))
    }
}

/// Why a game cannot be generated.
#[derive(Clone, PartialEq, Debug)]
pub enum GenError {
    /// The rules cannot start a game (a bad parameter).
    Start(StartError),
    /// Salts were asked for in a game without a world seed.
    NoWorldSeed(GameKind),
    /// The classical setup was asked for in a game other than survival-chess.
    ClassicalSetup(GameKind),
    /// An event the generator made was refused: a bug in the generator or
    /// in the game API, reported rather than written.
    Refused {
        /// The event.
        event: Box<Event>,
        /// Why the rules refused it.
        error: Box<RuleError>,
    },
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Start(e) => write!(f, "the rules cannot start a game: {e}"),
            GenError::NoWorldSeed(g) => write!(
                f,
                "{g} has no world seed here, so its players give no salts (salts belong to open-world-chess and magic-draughts with magic on)"
            ),
            GenError::ClassicalSetup(g) => {
                write!(f, "the classical setup is survival-chess's; {g} has no classical army")
            }
            GenError::Refused { event, error } => {
                write!(f, "the generated event `{event}` was refused ({error}): this is a bug")
            }
        }
    }
}

impl std::error::Error for GenError {}

/// A random legal game made by `options` (see the module documentation).
pub fn generate(options: &Options) -> Result<Game, GenError> {
    let game = options.game();
    if options.setup == Setup::Classical && options.rules.classical_army(Color::White).is_none() {
        return Err(GenError::ClassicalSetup(game));
    }
    let world = options.world_seed();
    let seeded = options.rules.has_world_seed();
    if options.salts.is_some_and(|s| crate::core::seed::is_salted(&s)) && !seeded {
        return Err(GenError::NoWorldSeed(game));
    }
    let mut tags = vec![
        Tag {
            name: "Game".into(),
            value: game.name().into(),
        },
        Tag {
            name: "Rules".into(),
            value: ruleset::rules_version(game).into(),
        },
    ];
    tags.extend(parameter_tags(&options.rules));
    if seeded {
        let hex: String = commitment(&world).iter().map(|b| format!("{b:02x}")).collect();
        tags.push(Tag {
            name: "SeedCommit".into(),
            value: format!("blake3:{hex}"),
        });
    }
    let header = Header { tags };
    let replay = Replay::with_rules(&header, options.rules.clone()).map_err(GenError::Start)?;
    let mut maker = Maker {
        options,
        world,
        replay,
        events: Vec::new(),
        moves: options.stream("moves"),
        session: options.stream("session"),
        clocks: options.stream("clocks"),
        time: options.rules.time_control(),
    };
    maker.play()?;
    Ok(Game {
        header,
        events: maker.events,
    })
}

/// The header tags that carry `rules`: one per parameter that differs from
/// the game's default and that a tag can set (docs/rules.md); parameters
/// only a rules file sets (`limits`, `units`) are not written, and such a
/// game validates under the same rules file.
pub fn parameter_tags(rules: &Ruleset) -> Vec<Tag> {
    ruleset::header_tags(rules)
}

/// Chat messages the players write (plain ASCII, no quotes to escape).
const CHAT: [&str; 6] = ["gl hf", "hm", "nice move", "thinking...", "oops", "gg"];

/// The longest a move takes without a time limit, in milliseconds.
const FREE_THINK_MS: usize = 20_000;

/// A game being made: the options, the live replay and its log, and the
/// three streams of choices.
struct Maker<'a> {
    options: &'a Options,
    world: [u8; 32],
    replay: Replay,
    events: Vec<Event>,
    /// The players' setup and play choices and the finishing bias.
    moves: Rng,
    /// Chat, resignations, timeouts and extra-time answers.
    session: Rng,
    /// How long each decision takes.
    clocks: Rng,
    time: TimeControl,
}

impl Maker<'_> {
    /// Applies `event` and appends it to the log.
    fn push(&mut self, event: Event) -> Result<(), GenError> {
        match self.replay.apply(&event) {
            Ok(()) => {
                self.events.push(event);
                Ok(())
            }
            Err(error) => Err(GenError::Refused {
                event: Box::new(event),
                error: Box::new(error),
            }),
        }
    }

    /// Writes every world event the referee says the rules owe now.
    fn world_events(&mut self) -> Result<(), GenError> {
        for event in self.replay.owed_world_events(&self.world) {
            self.push(event)?;
        }
        Ok(())
    }

    /// The move number a carried event (chat, resignation, `extra`, a world
    /// event) takes: that of the event before it.
    fn carried(&self) -> MoveNumber {
        self.replay.progress().last_number
    }

    /// The last clock reading, in milliseconds (0 before the first).
    fn now(&self) -> u64 {
        self.replay.progress().clock_ms.map_or(0, Clock::millis)
    }

    /// A clock reading for a decision of `side`, when clocks are on: some
    /// time after the last reading, within what is left of the side's time
    /// limit. A side adding to a turn it has passed on (a purchase after
    /// open-world-chess's last move) takes no time, since its time is that
    /// of the turn it ended.
    fn clock_for(&mut self, side: Color) -> Option<Clock> {
        if !self.options.clocks {
            return None;
        }
        let now = self.now();
        let progress = self.replay.progress();
        let think = match progress.turn {
            Some(Turn::Setup { .. }) => match self.time.setup_seconds {
                // A geometric share of what is left, so that no number of
                // setup events can use it up.
                Some(limit) => {
                    let left = (u64::from(limit) * 1000).saturating_sub(now);
                    self.clocks.below((left / 8) as usize + 1) as u64
                }
                None => self.clocks.below(FREE_THINK_MS) as u64,
            },
            Some(Turn::Move { side: to_move, .. }) if to_move == side => match self.time.move_seconds {
                Some(limit) => {
                    let limit = u64::from(limit) * 1000;
                    // Timed from the latest the turn can have started, as
                    // the validator times it.
                    let start = self.replay.limit_started_by().map_or(now, Clock::millis);
                    let left = (start + limit).saturating_sub(now);
                    // A quarter of the limit at most, so that turns of
                    // several moves keep within it too.
                    self.clocks.below(left.min(limit / 4) as usize + 1) as u64
                }
                None => self.clocks.below(FREE_THINK_MS) as u64,
            },
            _ => 0,
        };
        Some(Clock(now + think))
    }

    /// Plays the whole game: salts, the world's first events, setup, play,
    /// the result and the seed.
    fn play(&mut self) -> Result<(), GenError> {
        if let Some(salts) = &self.options.salts {
            for event in salt_events(salts) {
                self.push(event)?;
            }
        }
        self.world_events()?;
        if self.options.setup == Setup::Classical {
            self.classical_setup()?;
        }
        let mut decisions = 0;
        let mut late = [false; 2];
        if matches!(self.replay.turn(), Some(Turn::Setup { .. }))
            && self.time.setup_seconds.is_some()
            && self.options.clocks
        {
            late = [
                self.options.rates.timeout.hit(&mut self.session),
                self.options.rates.timeout.hit(&mut self.session),
            ];
        }
        loop {
            self.world_events()?;
            match self.replay.phase() {
                Phase::Over(_) | Phase::ResultDue(_) => break,
                Phase::AwaitingExtra { late } => {
                    self.answer_timeout(late)?;
                    continue;
                }
                Phase::Playing => {}
            }
            if self.options.rates.chat.hit(&mut self.session) {
                self.chat()?;
            }
            match self.replay.turn() {
                // A game in play always has a turn.
                None => break,
                Some(Turn::Setup { ready }) => {
                    if self.events.len() >= MAX_SETUP_EVENTS || !self.setup_step(ready, &mut late)? {
                        break;
                    }
                }
                Some(Turn::Move { side, .. }) => {
                    if decisions >= self.options.plies {
                        if self.options.resign_at_cap {
                            self.resign(side)?;
                            continue;
                        }
                        break;
                    }
                    decisions += 1;
                    if self.options.rates.resign.hit(&mut self.session) {
                        self.resign(side)?;
                        continue;
                    }
                    if self.time.move_seconds.is_some()
                        && self.options.clocks
                        && self.options.rates.timeout.hit(&mut self.session)
                    {
                        self.timeout(side, self.time.move_seconds.unwrap_or(0))?;
                        continue;
                    }
                    if !self.play_step()? {
                        break;
                    }
                }
            }
        }
        self.world_events()?;
        if matches!(self.replay.phase(), Phase::Over(_)) && self.options.rates.chat.hit(&mut self.session) {
            self.chat()?;
        }
        Ok(())
    }

    /// The classical army of each side, one `place` event each, and both
    /// sides ready.
    fn classical_setup(&mut self) -> Result<(), GenError> {
        for color in [Color::White, Color::Black] {
            let Some(placements) = self.options.rules.classical_army(color) else {
                return Err(GenError::ClassicalSetup(self.options.game()));
            };
            let clock_ms = self.clock_for(color);
            self.push(Event {
                n: MoveNumber(0),
                actor: Actor::Player(color),
                action: Action::Place { placements },
                clock_ms,
            })?;
        }
        for color in [Color::White, Color::Black] {
            let clock_ms = self.clock_for(color);
            self.push(Event {
                n: MoveNumber(0),
                actor: Actor::Player(color),
                action: Action::Ready,
                clock_ms,
            })?;
        }
        Ok(())
    }

    /// One setup event of a side not yet ready, drawn from the legal
    /// actions; or, for a side drawn to be late, the world's timeout when
    /// it would have declared `ready` (and then the other side's too, if
    /// it is not ready by that time either). `false` when nothing can be done.
    fn setup_step(&mut self, ready: fgn_notation::ByColor<bool>, late: &mut [bool; 2]) -> Result<bool, GenError> {
        let sides: Vec<Color> = [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| !ready[c])
            .collect();
        if sides.is_empty() {
            return Ok(false);
        }
        let side = sides[self.moves.below(sides.len())];
        let legal: Vec<Event> = self
            .replay
            .legal_actions()
            .into_iter()
            .filter(|e| e.actor == Actor::Player(side))
            .collect();
        if legal.is_empty() {
            return Ok(false);
        }
        let Some(mut event) = self.setup_choice(side, &legal) else {
            return Ok(false);
        };
        let i = usize::from(side == Color::Black);
        if late[i] && (event.action == Action::Ready || self.session.below(16) == 0) {
            late[i] = false;
            let limit = u64::from(self.time.setup_seconds.unwrap_or(0)) * 1000;
            let at = self.now().max(limit) + self.clocks.below(5000) as u64 + 1;
            self.push(Event {
                n: self.carried(),
                actor: Actor::World,
                action: Action::Timeout { color: side },
                clock_ms: Some(Clock(at)),
            })?;
            // The other side's time has run out as well by now.
            let Some(Turn::Setup { ready }) = self.replay.turn() else {
                return Ok(true);
            };
            if !ready[side.opponent()] && self.replay.phase() == Phase::Playing {
                late[1 - i] = false;
                self.push(Event {
                    n: self.carried(),
                    actor: Actor::World,
                    action: Action::Timeout { color: side.opponent() },
                    clock_ms: Some(Clock(at)),
                })?;
            }
            return Ok(true);
        }
        event.clock_ms = self.clock_for(side);
        self.push(event)?;
        Ok(true)
    }

    /// A side's next setup action among `legal` (its own): a king first
    /// where there is one to place; then placements until the side's target
    /// (a random 4 to 16 pieces in survival-chess, every unit in
    /// great-war-chess), now and then a removal; then `ready`.
    fn setup_choice(&mut self, side: Color, legal: &[Event]) -> Option<Event> {
        let placed = self.placed(side);
        let places: Vec<&Event> = legal
            .iter()
            .filter(|e| matches!(e.action, Action::Place { .. }))
            .collect();
        let removes: Vec<&Event> = legal
            .iter()
            .filter(|e| matches!(e.action, Action::Remove { .. }))
            .collect();
        let ready = legal.iter().find(|e| e.action == Action::Ready);
        let kings: Vec<&Event> = places
            .iter()
            .copied()
            .filter(|e| {
                matches!(&e.action, Action::Place { placements }
                    if placements.iter().any(|p| p.figure == Figure::Piece(PieceKind::King)))
            })
            .collect();
        let target = match self.options.game() {
            // The same target for a side all setup long: drawn from the
            // game key, not the stream, so that it does not shift the draws.
            GameKind::SurvivalChess => 4 + (self.options.game_key()[usize::from(side == Color::Black)] % 13) as usize,
            _ => usize::MAX,
        };
        let pick = |rng: &mut Rng, v: &[&Event]| (*v[rng.below(v.len())]).clone();
        if !kings.is_empty() {
            return Some(pick(&mut self.moves, &kings));
        }
        if !removes.is_empty() && self.moves.below(16) == 0 {
            return Some(pick(&mut self.moves, &removes));
        }
        if placed < target && !places.is_empty() {
            return Some(pick(&mut self.moves, &places));
        }
        if let Some(r) = ready {
            return Some(r.clone());
        }
        let any: Vec<&Event> = legal.iter().collect();
        Some(pick(&mut self.moves, &any))
    }

    /// How many pieces or units `side` has placed and not taken back.
    fn placed(&self, side: Color) -> usize {
        let mut count = 0usize;
        for e in self.events.iter().filter(|e| e.actor == Actor::Player(side)) {
            match &e.action {
                Action::Place { placements } => count += placements.len(),
                Action::Remove { .. } => count = count.saturating_sub(1),
                _ => {}
            }
        }
        count
    }

    /// One decision in play, drawn from the legal actions with the
    /// finishing bias. `false` when no action is listed.
    fn play_step(&mut self) -> Result<bool, GenError> {
        let legal = self.replay.legal_actions();
        if legal.is_empty() {
            return Ok(false);
        }
        let mut pool: Vec<&Event> = legal.iter().collect();
        if self.options.finish.hit(&mut self.moves) {
            let mates: Vec<&Event> = legal.iter().filter(|e| mates(&e.action)).collect();
            let captures: Vec<&Event> = legal.iter().filter(|e| captures(&e.action)).collect();
            if !mates.is_empty() {
                pool = mates;
            } else if !captures.is_empty() {
                pool = captures;
            }
        }
        let mut event = pool[self.moves.below(pool.len())].clone();
        if let Actor::Player(side) = event.actor {
            event.clock_ms = self.clock_for(side);
        }
        self.push(event)?;
        Ok(true)
    }

    /// A chat message of a random player.
    fn chat(&mut self) -> Result<(), GenError> {
        let side = if self.session.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let text = CHAT[self.session.below(CHAT.len())].to_string();
        self.push(Event {
            n: self.carried(),
            actor: Actor::Player(side),
            action: Action::Chat { text },
            clock_ms: None,
        })
    }

    /// `side` resigns.
    fn resign(&mut self, side: Color) -> Result<(), GenError> {
        let clock_ms = self.clock_for(side);
        self.push(Event {
            n: self.carried(),
            actor: Actor::Player(side),
            action: Action::Resign,
            clock_ms,
        })
    }

    /// The world records that `side`, to move, ran out of its `limit`
    /// seconds: a reading some seconds past the end of its time.
    fn timeout(&mut self, side: Color, limit: u32) -> Result<(), GenError> {
        // From the latest the turn can have started, so that the timeout
        // comes after the time ran out however the readings are read.
        let start = self.replay.limit_started_by().map_or(self.now(), Clock::millis);
        let at = (start + u64::from(limit) * 1000).max(self.now()) + self.clocks.below(5000) as u64 + 1;
        self.push(Event {
            n: self.carried(),
            actor: Actor::World,
            action: Action::Timeout { color: side },
            clock_ms: Some(Clock(at)),
        })
    }

    /// The late side's opponent answers its timeout.
    fn answer_timeout(&mut self, late: Color) -> Result<(), GenError> {
        let granted = self.options.rates.extra.hit(&mut self.session);
        let at = self.now() + self.clocks.below(3000) as u64;
        self.push(Event {
            n: self.carried(),
            actor: Actor::Player(late.opponent()),
            action: Action::Extra { granted },
            clock_ms: Some(Clock(at)),
        })
    }
}

/// Whether `action` is a move that mates.
fn mates(action: &Action) -> bool {
    matches!(action, Action::Move(m) if m.check == Some(Check::Mate))
}

/// Whether `action` captures or attacks: a chess capture, a draughts
/// capture, a great-war-chess attack. A shot is not one: it may be fired
/// at any square, most of them empty.
fn captures(action: &Action) -> bool {
    match action {
        Action::Move(m) => m.capture,
        Action::Draughts { capture, .. } => *capture,
        Action::March(m) => m.capture,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_and_print_exactly() {
        for (text, ppm, back) in [
            ("0", 0, "0"),
            ("1", 1_000_000, "1"),
            ("0.05", 50_000, "0.05"),
            ("0.000001", 1, "0.000001"),
            ("1.0", 1_000_000, "1"),
        ] {
            let r: Rate = text.parse().unwrap();
            assert_eq!(r.get(), ppm, "{text}");
            assert_eq!(r.to_string(), back);
        }
        for bad in ["", ".5", "1.5", "2", "0.0000001", "-0.1", "0.", "abc", "0,5"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad} was read");
        }
    }

    #[test]
    fn streams_and_seeds_differ_by_game_seed_and_index() {
        let a = Options::new(GameKind::OpenWorldChess, 1);
        let b = Options { index: 2, ..a.clone() };
        let c = Options::new(GameKind::OpenWorldChess, 2);
        let d = Options::new(GameKind::MagicDraughts, 1);
        let seeds: std::collections::BTreeSet<[u8; 32]> = [&a, &b, &c, &d].iter().map(|o| o.world_seed()).collect();
        assert_eq!(seeds.len(), 4);
        let salts = a.player_salts();
        assert_ne!(salts.white, salts.black);
        assert_eq!(salts.white.map(|s| s.bytes().len()), Some(SALT_BYTES));
    }
}
