//! The rules engines of the FGN games: a log is replayed event by event, each
//! event either producing the next state or a rule error that names it.
//!
//! [`Replay`] is the entry point: built from a log's header (which picks the
//! game and its ruleset), it applies events one at a time and leaves the
//! state untouched when an event breaks a rule. Around it is what a game
//! server or a tool needs, each part shown below with an example that runs
//! as a doctest: [validate](#validate-a-log) a log, [replay it step by
//! step](#replay-step-by-step), list the [legal actions](#legal-actions),
//! [apply a move that arrives](#a-move-arrives) to a live game, derive the
//! [world events the referee owes](#the-referees-part), make [a player's
//! view](#a-players-view), [hash](#hashes) states and what a player knows,
//! and [diff](#diff) two positions. Reading the text is `fgn_notation`'s
//! part ([`fgn_notation::parse()`], [`fgn_notation::Header::parse_event`]);
//! the tools built on this API (durable appends to a log file, log hashes,
//! summaries, archives, standings, rule-change impact) are the `fgn_tools`
//! crate's, which sees only what is public here. The random game generator
//! is [`gen`]. `replay/examples/toy_server.rs` puts the pieces together into
//! a small game server.
//!
//! The examples use one short survival-chess game on an 8x8 board:
//!
//! ```text
//! [Game "survival-chess"]
//! [Rules "1.0"]
//! [Board "8x8"]
//!
//! 0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2
//! 0 b place Ke8 Pe7 Pf7 Pg7
//! 0 w ready
//! 0 b ready
//! 1 w e2-e4
//! 1 b g7-g6
//! 2 w Qd1-g4
//! ```
//!
//! # Validate a log
//!
//! [`validate`] replays a whole [`Game`] and stops at the first rule error:
//! the [`Verdict`] holds the replay after the last event that applied, how
//! many did, and the [`RuleError`] with its [`Rule`] id and message.
//! [`locate`] turns the error's [`Place`] into the line and column of the
//! file the log was read from. A header that cannot start a game at all
//! (no engine, a bad parameter tag) is a [`StartError`] instead.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_replay::{locate, validate, Phase, Rule};
//!
//! const HEADER: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n";
//! const SETUP: &str = "0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pe7 Pf7 Pg7\n0 w ready\n0 b ready\n";
//!
//! let valid = parse(format!("{HEADER}{SETUP}1 w e2-e4\n1 b g7-g6\n2 w Qd1-g4\n").as_bytes());
//! assert!(valid.is_ok(), "{:?}", valid.diagnostics);
//! let verdict = validate(&valid.document.game).unwrap();
//! assert_eq!(verdict.error, None);
//! assert_eq!(verdict.applied, 7);
//! assert_eq!(verdict.replay.phase(), Phase::Playing); // a game in progress is valid
//!
//! // Black's king steps onto the open d-file, where white's queen attacks
//! // it: line 10 breaks a rule.
//! let invalid = parse(format!("{HEADER}{SETUP}1 w e2-e4\n1 b Ke8-d7\n2 w Qd1-g4\n").as_bytes());
//! let verdict = validate(&invalid.document.game).unwrap();
//! let error = verdict.error.unwrap();
//! assert_eq!(error.rule, Rule::KingSafety);
//! assert_eq!(error.rule.name(), "king-safety");
//! assert_eq!(locate(&invalid.document, error.place), (10, 5));
//! assert_eq!(verdict.applied, 5); // the replay stands after the last good event
//! assert_eq!(
//!     error.to_string(),
//!     "the move leaves black's king attacked; legal moves of the king on e8: Ke8-f8 [king-safety]"
//! );
//! ```
//!
//! # Replay step by step
//!
//! [`Replay::new`] starts a game from its header; [`Replay::apply`]
//! applies one event after another, and [`Replay::state`] is the canonical
//! state after each: the shared rules' [`Progress`] (whose turn, the phase,
//! clocks) and the game's [`Position`]. [`Replay::apply_changes`] also
//! says what each event changed, as typed [`Change`]s.
//!
//! ```
//! use fgn_notation::{parse, Color, MoveNumber};
//! use fgn_replay::{Position, Replay, Turn};
//!
//! let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
//!            0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pe7 Pf7 Pg7\n0 w ready\n0 b ready\n\
//!            1 w e2-e4\n1 b g7-g6\n2 w Qd1-g4\n";
//! let game = parse(log.as_bytes()).document.game;
//! let mut replay = Replay::new(&game.header).unwrap();
//! let mut after_each = Vec::new();
//! for event in &game.events {
//!     replay.apply(event).unwrap();
//!     let state = replay.state();
//!     let Position::Survival(position) = &state.position else { unreachable!() };
//!     let turn = match state.progress.turn {
//!         Some(Turn::Setup { ready }) => format!("setup, ready: white {} black {}", ready.white, ready.black),
//!         Some(Turn::Move { side, number }) => format!("{} to play move {number}", side.name()),
//!         None => "decided".to_string(),
//!     };
//!     after_each.push(format!("{event}: {} pieces, {turn}", position.pieces.len()));
//! }
//! assert_eq!(
//!     after_each,
//!     [
//!         "0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2: 6 pieces, setup, ready: white false black false",
//!         "0 b place Ke8 Pe7 Pf7 Pg7: 10 pieces, setup, ready: white false black false",
//!         "0 w ready: 10 pieces, setup, ready: white true black false",
//!         "0 b ready: 10 pieces, white to play move 1",
//!         "1 w e2-e4: 10 pieces, black to play move 1",
//!         "1 b g7-g6: 10 pieces, white to play move 2",
//!         "2 w Qd1-g4: 10 pieces, black to play move 2",
//!     ]
//! );
//! assert_eq!(replay.turn(), Some(Turn::Move { side: Color::Black, number: MoveNumber(2) }));
//! ```
//!
//! # Legal actions
//!
//! [`Replay::legal_actions`] lists every player action the rules allow as
//! the next event, in canonical spelling with the move number it must
//! carry: what a client offers its player, or a bot picks from.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_replay::Replay;
//!
//! let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
//!            0 w place Ke1 Pe2\n0 b place Ke8\n0 w ready\n0 b ready\n";
//! let game = parse(log.as_bytes()).document.game;
//! let replay = fgn_replay::validate(&game).unwrap().replay;
//! let legal: Vec<String> = replay.legal_actions().iter().map(|e| e.to_string()).collect();
//! assert_eq!(legal.len(), 6); // the king's four steps and the pawn's two
//! assert!(legal.contains(&"1 w e2-e4".to_string()));
//! assert!(legal.contains(&"1 w Ke1-d1".to_string()));
//! // Each of them applies; nothing else does.
//! for event in replay.legal_actions() {
//!     assert!(replay.clone().apply(&event).is_ok());
//! }
//! ```
//!
//! # A move arrives
//!
//! A server holds the live [`Replay`] of each game. When a player sends an
//! event line, the server reads it for the game
//! ([`fgn_notation::Header::parse_event`]: a syntax error is a
//! [`fgn_notation::Diagnostic`] with its column), completes its spelling
//! ([`Replay::canonical`]: the check markers canonical FGN writes) and
//! applies it. A refused event is a [`RuleError`] to send back, and the game
//! is exactly as it was: the next event may be tried at once.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_replay::{validate, Rule};
//!
//! let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
//!            0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pe7 Pf7 Pg7\n0 w ready\n0 b ready\n\
//!            1 w e2-e4\n";
//! let header = parse(log.as_bytes()).document.game.header;
//! let mut live = validate(&parse(log.as_bytes()).document.game).unwrap().replay;
//!
//! // Black tries to move its pawn three squares: refused, with the rule it breaks.
//! let before = live.state();
//! let event = header.parse_event("1 b e7-e4").unwrap();
//! let refused = live.apply(&event).unwrap_err();
//! assert_eq!(refused.rule, Rule::Move);
//! assert!(refused.message.contains("e7"), "{refused}");
//! assert_eq!(live.state(), before); // the game is unchanged
//! assert_eq!(live.events_applied(), 5);
//!
//! // A line that is not FGN is refused before the rules see it.
//! let syntax = header.parse_event("1 b e7-e99").unwrap_err();
//! assert_eq!(syntax.column, 8);
//! assert_eq!(syntax.message, "in `e7-e99`: expected a target square or `?`, found `e99`");
//!
//! // A legal move, written without its check marker: completed, then applied.
//! let event = header.parse_event("1 b e7-e5").unwrap();
//! let event = live.canonical(&event).unwrap_or(event);
//! live.apply(&event).unwrap();
//! let event = header.parse_event("2 w Bf1-b5").unwrap();
//! let event = live.canonical(&event).unwrap_or(event);
//! assert_eq!(event.to_string(), "2 w Bf1-b5+");
//! live.apply(&event).unwrap();
//! assert_eq!(live.events_applied(), 7);
//! ```
//!
//! # The referee's part
//!
//! In open-world-chess and magic-draughts the world acts too: spawns,
//! damage rolls and clones, reveals of hidden numbers, the result once the
//! game is decided, and the seed after it. The server keeps the world seed
//! secret (the header publishes its commitment, `SeedCommit`), and after
//! each player's event [`Replay::owed_world_events`] (the [`referee`])
//! derives from it every world event the rules owe, in order, until a
//! player is to act. Timeouts come from the clocks, not from the seed:
//! [`Replay::due_timeout`] is the `@ timeout` owed at a clock reading.
//!
//! ```
//! use fgn_notation::{parse, Action, Clock};
//! use fgn_replay::{Phase, Replay};
//!
//! // A magic-draughts game: every checker has a hidden number that the seed gives.
//! let seed = [42u8; 32];
//! let commit: String = fgn_replay::seed::commitment(&seed).iter().map(|b| format!("{b:02x}")).collect();
//! let log = format!(
//!     "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[TimeControl \"move=60\"]\n[SeedCommit \"blake3:{commit}\"]\n\n\
//!      1 w e3-f4 {{t=5}}\n1 b h6-g5 {{t=9}}\n"
//! );
//! let doc = parse(log.as_bytes()).document;
//! let mut live = fgn_replay::validate(&doc.game).unwrap().replay;
//! assert!(live.owed_world_events(&seed).is_empty()); // nothing is owed: white is to move
//!
//! // White captures on g5: the world owes the captured checker's number.
//! live.apply(&doc.game.header.parse_event("2 w f4:h6 {t=12}").unwrap()).unwrap();
//! let owed = live.owed_world_events(&seed);
//! assert_eq!(owed.len(), 1);
//! let Action::Reveal { square, number } = owed[0].action else { panic!("{}", owed[0]) };
//! assert_eq!(square.to_string(), "g5");
//! assert!((0..=5).contains(&number.get()));
//! for event in &owed {
//!     live.apply(event).unwrap(); // the server appends them to the log too
//! }
//!
//! // Black thinks for too long: its 60 seconds, from t=12, run out at t=72.
//! assert_eq!(live.due_timeout(Clock(71_999)), None);
//! let timeout = live.due_timeout(Clock(72_000)).unwrap();
//! assert_eq!(timeout.to_string(), "2 @ timeout b {t=72}");
//! live.apply(&timeout).unwrap();
//! // White does not grant extra time: black loses on time; the referee
//! // owes the result, then reveals the seed, which anyone can check.
//! live.apply(&doc.game.header.parse_event("2 w extra no").unwrap()).unwrap();
//! let end: Vec<String> = live.owed_world_events(&seed).iter().map(|e| e.to_string()).collect();
//! assert_eq!(end[0], "2 @ result 1-0 timeout");
//! assert!(end[1].starts_with("2 @ seed "));
//! for event in live.owed_world_events(&seed) {
//!     live.apply(&event).unwrap();
//! }
//! assert!(matches!(live.phase(), Phase::Over(_)));
//! assert!(live.finish().is_ok()); // nothing owed is missing
//! ```
//!
//! # A player's view
//!
//! What a player may see of a log is decided here, never by the caller:
//! [`view()`] writes the log as one player knew it (survival-chess's
//! opponent's setup hidden until both are ready, open-world-chess's fog,
//! magic-draughts's seed left out), and [`ViewWriter`] streams it as the
//! full log grows, which is what a server sends each player.
//! [`Replay::knowledge`] is what a viewer knows now, as a value.
//!
//! ```
//! use fgn_notation::{parse, Color};
//! use fgn_replay::{view, KnownPosition, Viewer, ViewWriter};
//!
//! let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
//!            0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pe7 Pf7 Pg7\n0 w ready\n0 b ready\n1 w e2-e4\n";
//! let game = parse(log.as_bytes()).document.game;
//!
//! // Black's view: white's placements are hidden until both are ready,
//! // then the world shows white's setup as it stands.
//! let black = view(&game, Color::Black).unwrap();
//! assert_eq!(black.header.get("Perspective"), Some("black"));
//! let lines: Vec<String> = black.events.iter().map(|e| e.to_string()).collect();
//! assert_eq!(
//!     lines,
//!     [
//!         "0 b place Ke8 Pe7 Pf7 Pg7",
//!         "0 w ready",
//!         "0 b ready",
//!         "0 @ setup w Qd1 Ke1 Bf1 Pe2 Pf2 Pg2",
//!         "1 w e2-e4",
//!     ]
//! );
//!
//! // The same, streamed: the view's lines for each event of the full log.
//! let mut writer = ViewWriter::new(&game.header, Color::Black).unwrap();
//! let mut out = Vec::new();
//! writer.push(0, &game.events[0], &mut out).unwrap();
//! assert!(out.is_empty()); // black sees nothing of white's placement
//!
//! // What black knows during the setup: its own pieces only.
//! let mut replay = fgn_replay::Replay::new(&game.header).unwrap();
//! for event in &game.events[..2] {
//!     replay.apply(event).unwrap();
//! }
//! let KnownPosition::Survival(known) = replay.knowledge(Viewer::Black).position else { unreachable!() };
//! assert_eq!(known.hidden_setups, [Color::White]);
//! assert_eq!(known.position.pieces.len(), 4);
//! ```
//!
//! # Hashes
//!
//! A state hash ([`Replay::state_hash`]) and a knowledge hash
//! ([`Replay::knowledge_hash`]) are blake3 over the documented bytes of
//! [`State`] and [`Knowledge`] (docs/hashing.md). Comments and spelling
//! never change a hash. A log hash (`fgn hash`), the chain over a log's
//! canonical text, is `fgn_tools::loghash`'s.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_replay::{validate, Viewer};
//!
//! let header = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n";
//! let setup = "0 w place Ke1 Pe2\n0 b place Ke8 Pe7\n0 w ready\n0 b ready\n";
//! let a = parse(format!("{header}{setup}1 w e2-e4\n").as_bytes()).document.game;
//! let b = parse(format!("{header}{setup}1 w E2-E4 ; the same move, spelled otherwise\n").as_bytes()).document.game;
//! let replay = validate(&a).unwrap().replay;
//! assert_eq!(replay.state_hash(), validate(&b).unwrap().replay.state_hash());
//! assert!(replay.state_hash().to_string().starts_with("blake3:"));
//! // The position after the setup alone is another state.
//! let mut prefix = a.clone();
//! prefix.events.truncate(4);
//! assert_ne!(replay.state_hash(), validate(&prefix).unwrap().replay.state_hash());
//! // Once both setups are shown, white and black know the same position.
//! assert_eq!(replay.knowledge(Viewer::White).position, replay.knowledge(Viewer::Black).position);
//! ```
//!
//! # Diff
//!
//! [`state_changes`] (and [`knowledge_changes`] for what one viewer knows)
//! compares two positions of one game into typed [`Change`]s: what moved,
//! was captured, died, changed HP, what objects, coins, charges and
//! reveals differ (`fgn diff`, docs/json.md "Changes"). Given the event
//! that led from one to the other, the pieces are paired by its squares.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_replay::{state_changes, validate, Change};
//!
//! let header = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n";
//! let setup = "0 w place Ke1 Qd1 Pe2\n0 b place Ke8 Pd7\n0 w ready\n0 b ready\n";
//! let a = parse(format!("{header}{setup}1 w e2-e4\n1 b d7-d5\n2 w e4xd5\n").as_bytes()).document.game;
//! let b = parse(format!("{header}{setup}1 w e2-e4\n1 b d7-d5\n2 w Qd1-g4\n").as_bytes()).document.game;
//! let (a, b) = (validate(&a).unwrap().replay.state(), validate(&b).unwrap().replay.state());
//!
//! // Two games that part at the last move: what only the first has is
//! // `removed`, what only the second has is `placed`.
//! let changes = state_changes(&a, &b, None);
//! let json: Vec<String> = changes.iter().map(|c| serde_json::to_string(c).unwrap()).collect();
//! assert_eq!(
//!     json,
//!     [
//!         r#"{"type":"removed","square":"d1","color":"w","piece":"Q"}"#,
//!         r#"{"type":"placed","square":"e4","color":"w","piece":"P"}"#,
//!         r#"{"type":"placed","square":"g4","color":"w","piece":"Q"}"#,
//!         r#"{"type":"removed","square":"d5","color":"w","piece":"P"}"#,
//!         r#"{"type":"placed","square":"d5","color":"b","piece":"P"}"#,
//!     ]
//! );
//!
//! // With the event that led there, its squares pair the pieces: the
//! // account of one capture.
//! let mut replay = validate(&parse(format!("{header}{setup}1 w e2-e4\n1 b d7-d5\n").as_bytes()).document.game)
//!     .unwrap()
//!     .replay;
//! let capture = parse(format!("{header}2 w e4xd5\n").as_bytes()).document.game.events.remove(0);
//! let account = replay.apply_changes(&capture).unwrap();
//! assert!(account.contains(&Change::Captured {
//!     square: "d5".parse().unwrap(),
//!     color: fgn_notation::Color::Black,
//!     piece: fgn_replay::changes::Piece::Chess(fgn_notation::PieceKind::Pawn),
//! }));
//! assert!(account.iter().any(|c| matches!(c, Change::Moved { .. })), "{account:?}");
//! ```

// `unsafe` is denied across the workspace and allowed only in the fgn
// binary's `main.rs`; a library crate forbids it, which no `allow` undoes.
#![forbid(unsafe_code)]

pub mod changes;
mod core;
mod game;
mod games;
pub mod gen;
mod picture;
pub mod referee;
pub mod ruleset;
mod session;
mod state;
pub mod view;

pub use crate::core::{error, hash, seed};

/// The plain values each game's state and knowledge are made of, as
/// [`Position`] and [`KnownPosition`] hold them (docs/json.md).
pub mod position {
    pub use crate::games::great_war_chess::{GreatWarKnowledge, GreatWarState, Moved, Stack};
    pub use crate::games::magic_draughts::{spell_name, Captured, DraughtsPiece, DraughtsState};
    pub use crate::games::open_world_chess::{
        KnownPiece, KnownSquare, LitSquare, MovingPiece, OpenWorldKnowledge, OpenWorldState, OwedOutcome, PieceState,
        Public,
    };
    pub use crate::games::survival_chess::{ChessPiece, SurvivalKnowledge, SurvivalState};
}

use fgn_notation::{Action, Actor, Document, Event, Game, GameKind, Header, Run};

use games::{each_game, for_kind, game_enum, map_game};
use session::LogStop;

pub use crate::core::error::{Fault, Place, Rule, RuleError};
pub use crate::core::hash::Digest;
pub use crate::core::picture::{Cell, Charset, Occupant, Picture, Shade, Text};
pub use crate::core::Viewer;
pub use crate::core::{Decision, Phase, Progress, Turn};
pub use changes::{knowledge_changes, state_changes, Change};
pub use game::leaves_position;
use game::Game as _;
pub use ruleset::{Overridden, Params, RulesFile, Ruleset};
use session::Session;
pub use state::{Knowledge, KnownPosition, Position, State};
pub use view::{replayable, view, ViewError, ViewReader, ViewWriter};

/// docs/snapshot-testing.md, included so that the Rust code in it is
/// compiled and run as doctests: the document's example of snapshot-testing
/// one's own ruleset cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../docs/snapshot-testing.md")]
pub struct SnapshotTestingDoc;

/// A game being replayed, whatever the game.
///
/// Opaque: what it holds is the session of its game, which only this
/// crate sees; everything a caller needs is a method.
#[derive(Clone, Debug)]
pub struct Replay {
    sessions: Sessions,
}

game_enum! {
    /// The session of whichever game a [`Replay`] replays.
    #[derive(Clone, Debug)]
    pub(crate) enum Sessions(Session)
}

/// Why a log cannot be replayed at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StartError {
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
            StartError::Header { error, .. } => error.fmt(f),
        }
    }
}

impl StartError {
    /// Whether the log cannot be checked rather than breaks a rule: a game
    /// or a rules version without an engine, or a player's view (which is
    /// checked against its full log with `verify-view`, not against the rules).
    pub fn is_unsupported(&self) -> bool {
        let StartError::Header { error, .. } = self;
        matches!(error.rule, Rule::Perspective | Rule::RulesVersion)
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
        let rules = Ruleset::defaults(game);
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
        let rules = Ruleset::defaults(game);
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
        // The tag's form was checked when the header was read; a game
        // without random outcomes ignores it.
        let commit = header
            .get("SeedCommit")
            .and_then(|c| fgn_notation::header::parse_seed_commit(c).ok());
        let replay = Replay {
            sessions: map_game!(Ruleset, rules, Sessions, r => {
                Session::new(game::Game::new(r, commit), time, game.has_seed())
            }),
        };
        Ok((replay, overridden))
    }

    /// Applies `event` as the event with index `index` of its log (the
    /// crate's loops, which know it; callers outside apply the next event).
    pub(crate) fn apply_at(&mut self, index: usize, event: &Event) -> Result<(), RuleError> {
        each_game!(Sessions, &mut self.sessions, s => s.apply(index, event))
    }

    /// Applies `event` as the next event of the log, the one with index
    /// [`Replay::events_applied`]: what a server does when an event
    /// arrives. On error the replay is unchanged, so the caller may refuse
    /// the event and go on.
    ///
    /// ```
    /// use fgn_notation::parse;
    /// use fgn_replay::{Replay, Rule};
    ///
    /// let header = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n").document.game.header;
    /// let mut replay = Replay::new(&header).unwrap();
    /// replay.apply(&header.parse_event("0 w place Ke1 Pe2").unwrap()).unwrap();
    /// // A white piece on black's half is refused, and the setup stays as it was.
    /// let before = replay.state();
    /// let error = replay.apply(&header.parse_event("0 w place Qd8").unwrap()).unwrap_err();
    /// assert_eq!(error.rule, Rule::Setup);
    /// assert_eq!(replay.state(), before);
    /// assert_eq!(replay.events_applied(), 1);
    /// ```
    pub fn apply(&mut self, event: &Event) -> Result<(), RuleError> {
        self.apply_at(self.events_applied(), event)
    }

    /// Applies the event like [`Replay::apply`] and gives the account of
    /// what it changed in the state: [`state_changes`] of the states before
    /// and after it (empty for an event that changes nothing, such as
    /// chat). On error the replay is unchanged and there is no account. The
    /// account costs two states and their comparison per event, so
    /// validation uses [`Replay::apply`].
    ///
    /// ```
    /// use fgn_notation::parse;
    /// use fgn_replay::{Change, Replay};
    ///
    /// let header = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n").document.game.header;
    /// let mut replay = Replay::new(&header).unwrap();
    /// let account = replay.apply_changes(&header.parse_event("1 w c3-d4").unwrap()).unwrap();
    /// assert!(matches!(account[0], Change::Moved { from: Some(f), to: Some(t), .. }
    ///     if f.to_string() == "c3" && t.to_string() == "d4"));
    /// ```
    pub fn apply_changes(&mut self, event: &Event) -> Result<Vec<Change>, RuleError> {
        // A chat leaves the position as it was: only the progress is
        // compared, so that its account does not cost a look at the whole
        // board (a 26x26 open-world-chess board made each chat line cost
        // hundreds of squares twice over; issue 36).
        if leaves_position(event) {
            let before = self.progress();
            self.apply(event)?;
            return Ok(changes::progress_changes(&before, &self.progress()));
        }
        let before = self.state();
        self.apply(event)?;
        Ok(state_changes(&before, &self.state(), Some(event)))
    }

    /// Checks that nothing owed is missing at the end of the log.
    pub fn finish(&self) -> Result<(), RuleError> {
        each_game!(Sessions, &self.sessions, s => s.finish())
    }

    /// The shared rules' phase (playing, awaiting an answer, decided, over).
    pub fn phase(&self) -> Phase {
        each_game!(Sessions, &self.sessions, s => s.phase())
    }

    /// Whose turn it is, as [`Replay::progress`] has it: `None` once the
    /// game is decided, when nobody is to act but the world.
    pub fn turn(&self) -> Option<Turn> {
        self.progress().turn
    }

    /// The shared rules' part of the state (turn, phase, last move number, clocks).
    pub fn progress(&self) -> Progress {
        each_game!(Sessions, &self.sessions, s => s.progress())
    }

    /// The latest time the running time limit can have started, as far as
    /// the clock readings show (`Session::limit_started_by`).
    pub(crate) fn limit_started_by(&self) -> Option<fgn_notation::Clock> {
        each_game!(Sessions, &self.sessions, s => s.limit_started_by())
    }

    /// How many events have been applied: the index the next event of the
    /// log has.
    pub fn events_applied(&self) -> usize {
        each_game!(Sessions, &self.sessions, s => s.events())
    }

    /// Whether the log's random outcomes have been checked against a
    /// revealed seed: `None` for a game that draws nothing from a seed
    /// (survival-chess, great-war-chess, magic-draughts with magic off);
    /// `Some(true)` once an `@ seed` re-derived every recorded outcome.
    pub fn outcomes_checked(&self) -> Option<bool> {
        each_game!(Sessions, &self.sessions, s => s.outcomes_checked())
    }

    /// Why the log's random outcomes were never checked, when a reader
    /// must be told: a game with random outcomes and no `SeedCommit`, or
    /// one that is over without its seed revealed (docs/rules.md, "Seeds").
    pub fn unchecked_outcomes(&self) -> Option<&'static str> {
        each_game!(Sessions, &self.sessions, s => s.unchecked_outcomes())
    }

    /// The salts the players have given so far (`salt` events).
    pub fn salts(&self) -> seed::Salts {
        each_game!(Sessions, &self.sessions, s => s.salts())
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
        each_game!(Sessions, &self.sessions, s => s.game())
    }

    /// The canonical state now (the referee's: everything the log fixes).
    pub fn state(&self) -> State {
        let position = map_game!(Sessions, &self.sessions, Position, s => s.engine.state());
        State {
            game: self.game(),
            progress: each_game!(Sessions, &self.sessions, s => s.progress()),
            position,
        }
    }

    /// What `viewer` knows now.
    pub fn knowledge(&self, viewer: Viewer) -> Knowledge {
        // The last clock reading, and the turn start taken from it, may
        // belong to an event the viewer did not see (an opponent's hidden
        // setup edit, a world event in the fog): the clocks a player knows
        // are those of the events in its view, not part of its knowledge.
        let mut progress = Progress {
            clock_ms: None,
            turn_started_ms: None,
            ..self.progress()
        };
        // The rest of the progress is public, but for what the game says a
        // viewer cannot know of it (the turn in open-world-chess's fog).
        let position = map_game!(Sessions, &self.sessions, KnownPosition, s => {
            let known = s.engine.knowledge(viewer);
            s.engine.known_progress(viewer, &known, &mut progress);
            known
        });
        Knowledge {
            game: self.game(),
            viewer,
            progress,
            position,
        }
    }

    /// The progress as `viewer` knows it: the clocks are left out of a
    /// player's knowledge ([`Replay::knowledge`]).
    fn known_progress(&self, viewer: Option<Viewer>) -> Progress {
        let progress = self.progress();
        match viewer {
            None => progress,
            Some(_) => Progress {
                clock_ms: None,
                turn_started_ms: None,
                ..progress
            },
        }
    }

    /// The state hash now: blake3 over the canonical bytes of [`Replay::state`]
    /// (docs/hashing.md).
    pub fn state_hash(&self) -> Digest {
        self.state().hash()
    }

    /// The hash of what `viewer` knows now: a player's hash never covers
    /// what the player cannot see.
    pub fn knowledge_hash(&self, viewer: Viewer) -> Digest {
        self.knowledge(viewer).hash()
    }

    /// Every player action the rules allow as the next event, for each side
    /// that may act, in canonical spelling with the move number it must
    /// carry and no clock: moves, purchases, spells, `end`, and in setup
    /// every single placement, removal and `ready`. Chat, resignation,
    /// `extra`, salts (any bytes a player picks) and world events are not
    /// listed, so the list is empty while a timeout awaits its answer, the
    /// world owes an event, or the game is decided.
    ///
    /// ```
    /// use fgn_notation::parse;
    /// use fgn_replay::Replay;
    ///
    /// // Plain Russian draughts: white has seven first moves.
    /// let header = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n").document.game.header;
    /// let replay = Replay::new(&header).unwrap();
    /// let moves: Vec<String> = replay.legal_actions().iter().map(|e| e.to_string()).collect();
    /// assert_eq!(moves.len(), 7);
    /// assert!(moves.contains(&"1 w c3-d4".to_string()));
    /// ```
    pub fn legal_actions(&self) -> Vec<Event> {
        let mut out = Vec::new();
        each_game!(Sessions, &self.sessions, s => {
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
        let (Action::Move(m), Actor::Player(side)) = (&event.action, event.actor) else {
            return None;
        };
        let full = each_game!(Sessions, &self.sessions, s => s.engine.canonical_move(side, m))?;
        Some(Event {
            action: Action::Move(full),
            ..event.clone()
        })
    }
}

/// The game with every legal move written canonically (promotion piece and
/// check markers filled in), as far as the log replays; events from the
/// first rule error on are left as they are. Games without an engine come
/// back unchanged.
pub fn complete_markers(game: &Game) -> Game {
    let mut out = game.clone();
    complete_markers_in_place(&mut out);
    out
}

/// [`complete_markers`] of a game one owns, without copying it: what `fgn
/// fmt` does to each log it reads.
pub fn complete_markers_in_place(game: &mut Game) {
    completion(game).apply_to(game);
}

/// Whether `text`, the bytes `parsed` was read from, is its log's
/// canonical text, the one `fgn fmt` writes: the text of the document as
/// parsed ([`fgn_notation::Parsed::is_formatted`]), with no move whose
/// canonical spelling differs ([`completion`]). What `fgn fmt --check`
/// asks of each file; a text with a line that could not be read, or a
/// torn last line, is not canonical.
///
/// ```
/// let text = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
///     0 w place Ke1 Qd1\n0 b place Ke8 Pf7\n0 w ready\n0 b ready\n1 w Qd1-e2+\n";
/// assert!(fgn_replay::is_canonical(&fgn_notation::parse(text), text));
/// // Without the check marker the rules derive, it is not.
/// let text = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
///     0 w place Ke1 Qd1\n0 b place Ke8 Pf7\n0 w ready\n0 b ready\n1 w Qd1-e2\n";
/// assert!(!fgn_replay::is_canonical(&fgn_notation::parse(text), text));
/// ```
pub fn is_canonical(parsed: &fgn_notation::Parsed, text: &[u8]) -> bool {
    // The text is compared first: it costs little beside the replay the
    // completion needs, and a text that differs needs no replay.
    parsed.is_formatted(text) && completion(&parsed.document.game).moves().is_empty()
}

/// What [`complete_markers`] rewrites in `game`, without rewriting it.
pub fn completion(game: &Game) -> Completion {
    // Only chess moves have markers to fill in ([`game::Game::spelled`]),
    // so the logs of the games without them need no replay.
    if game.kind().map(|kind| for_kind!(kind, G => G::COMPLETES_MOVES)) == Some(false) {
        return Completion::default();
    }
    validate_completing(game).map(|(_, c)| c).unwrap_or_default()
}

/// The moves of a log whose canonical spelling differs from the log's, as
/// far as the log replays ([`complete_markers`]), each with its event's
/// index, in log order.
///
/// ```
/// use fgn_notation::parse;
///
/// let text = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
///     0 w place Ke1 Qd1\n0 b place Ke8 Pf7\n0 w ready\n0 b ready\n1 w Qd1-e2\n";
/// let mut game = parse(text.as_bytes()).document.game;
/// let (verdict, completion) = fgn_replay::validate_completing(&game).unwrap();
/// assert_eq!(verdict.error, None);
/// // The queen's move gives check, which the log left unmarked.
/// let moves: Vec<_> = completion.moves().iter().map(|(i, m)| (*i, m.to_string())).collect();
/// assert_eq!(moves, [(4, "Qd1-e2+".to_string())]);
/// completion.apply_to(&mut game);
/// assert_eq!(game.events[4].to_string(), "1 w Qd1-e2+");
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Completion {
    moves: Vec<(usize, fgn_notation::ChessMove)>,
}

impl Completion {
    /// The moves to rewrite, with the indices of their events.
    pub fn moves(&self) -> &[(usize, fgn_notation::ChessMove)] {
        &self.moves
    }

    /// The event at `index` of `game` as the completion writes it: the
    /// rewritten move, or `None` when the event stays as it is.
    pub fn move_at(&self, index: usize) -> Option<&fgn_notation::ChessMove> {
        self.moves
            .binary_search_by_key(&index, |(i, _)| *i)
            .ok()
            .map(|k| &self.moves[k].1)
    }

    /// Rewrites the moves of `game`, the game the completion was made of.
    /// An index past the end of another, shorter game is skipped rather
    /// than a panic: the completion of one game says nothing of another.
    pub fn apply_to(&self, game: &mut Game) {
        for (i, m) in &self.moves {
            if let Some(event) = game.events.get_mut(*i) {
                event.action = Action::Move(*m);
            }
        }
    }
}

/// The state hashes (or one player's knowledge hashes) after each event of
/// a log, as `fgn hash --states` and `fgn events` write them: a hash is
/// worked out anew only when the event may have changed what it covers.
/// After an event that [`leaves_position`] and leaves the (known) progress
/// as it was, such as a chat without a clock reading (or any chat, for a
/// player, whose knowledge holds no clocks), the state is the one before
/// it, and so is its hash; hashing it again cost the whole board per chat
/// line (issue 36).
///
/// After such an event that changes the progress (a chat line with a clock
/// reading), the state hash is the position's bytes, kept from the first
/// such event after the position last changed, hashed again around the new
/// progress: a first blake3 chunk and the tree's left edge over kept
/// chaining values, instead of an encoding of the whole board for each
/// line (`hash::StateBytes`).
#[derive(Clone, Debug)]
pub struct HashTrail {
    viewer: Option<Viewer>,
    last: Option<(Progress, Digest)>,
    /// The state's bytes cut around its progress, for the position of
    /// `last` (`None`: not cut yet since the position last changed).
    bytes: Option<hash::StateBytes>,
}

impl HashTrail {
    /// A trail of state hashes (`None`) or of `viewer`'s knowledge hashes.
    pub fn new(viewer: Option<Viewer>) -> HashTrail {
        HashTrail {
            viewer,
            last: None,
            bytes: None,
        }
    }

    /// The hash of `replay` now, just after it applied `event` (`None`:
    /// before any event): [`Replay::state_hash`] or
    /// [`Replay::knowledge_hash`]. Asked after every event of the log, in
    /// order, so that the hash it keeps is the one just before `event`.
    pub fn after(&mut self, replay: &Replay, event: Option<&Event>) -> Digest {
        let progress = replay.known_progress(self.viewer);
        if let (Some((before, digest)), Some(event)) = (&self.last, event) {
            if leaves_position(event) {
                if *before == progress {
                    return *digest;
                }
                // Only the progress changed; a player's knowledge holds
                // no clocks, so this is a state hash.
                if self.viewer.is_none() {
                    if self.bytes.is_none() {
                        let state = replay.state();
                        self.bytes = hash::StateBytes::of(&state, state.game, &state.progress);
                    }
                    if let Some(bytes) = &mut self.bytes {
                        let digest = bytes.digest(&progress);
                        self.last = Some((progress, digest));
                        return digest;
                    }
                }
            }
        }
        // The position may have changed: its bytes are cut anew when needed.
        self.bytes = None;
        let digest = match self.viewer {
            None => replay.state_hash(),
            Some(v) => replay.knowledge_hash(v),
        };
        self.last = Some((progress, digest));
        digest
    }
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
///
/// ```
/// use fgn_notation::parse;
/// use fgn_replay::{validate, Rule, StartError};
///
/// let game = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b d6-c5\n2 w d4-e5\n").document.game;
/// let verdict = validate(&game).unwrap();
/// assert_eq!(verdict.error.map(|e| e.rule), None);
///
/// // A header the rules cannot start from is no verdict at all.
/// let game = parse(b"[Game \"magic-draughts\"]\n[Rules \"0.9\"]\n").document.game;
/// let Err(StartError::Header { tag, error }) = validate(&game) else { panic!() };
/// assert_eq!((tag.as_deref(), error.rule), (Some("Rules"), Rule::RulesVersion));
/// ```
pub fn validate(game: &Game) -> Result<Verdict, StartError> {
    let replay = Replay::new(&game.header)?;
    Ok(run(replay, game, Vec::new(), None))
}

/// [`validate`] and [`complete_markers`] in one replay: the verdict, and
/// the moves canonical FGN writes otherwise than the log as far as it
/// replays. What a summary needs, whose log hash is over the completed
/// log; the replay stops at the first rule error for both.
pub fn validate_completing(game: &Game) -> Result<(Verdict, Completion), StartError> {
    let replay = Replay::new(&game.header)?;
    let mut completion = Completion::default();
    let verdict = run(replay, game, Vec::new(), Some(&mut completion.moves));
    Ok((verdict, completion))
}

/// Replays a whole game under `rules` as a base the header's tags change,
/// stopping at the first rule error.
pub fn validate_with(game: &Game, rules: Ruleset) -> Result<Verdict, StartError> {
    let replay = Replay::with_rules(&game.header, rules)?;
    Ok(run(replay, game, Vec::new(), None))
}

/// Replays a whole game under its defaults and header changed by a rules
/// file's parameters (which win over the header, [`Replay::with_params`]),
/// stopping at the first rule error.
// Never inlined, so that a profile of the binary (bench/run.sh's
// instruction counts per stage) finds replay under this name even when
// link-time optimisation inlines across crates; it is called once a file.
#[inline(never)]
pub fn validate_with_params(game: &Game, params: Option<&Params>) -> Result<Verdict, StartError> {
    let (replay, overridden) = Replay::with_params(&game.header, params)?;
    Ok(run(replay, game, overridden, None))
}

/// A validation fed a log's events a run at a time, as
/// [`fgn_notation::parse_in_runs`] reads them: what [`validate_with_params`]
/// finds, in memory and time that do not grow with the log beyond its
/// text. Each run is applied as it comes but for its last event, which
/// waits for the next run to show whether a move follows it (what lets the
/// engine assume, as [`validate`] does, that the side to move has one).
///
/// ```
/// use fgn_notation::parse_in_runs;
/// use fgn_replay::{Place, Validation};
///
/// let text = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n0 w place Ke2\n";
/// let mut validation = None;
/// let streamed = parse_in_runs(text, |run| {
///     validation
///         .get_or_insert_with(|| Validation::new(run.header, None).expect("a survival-chess header"))
///         .feed(run);
/// });
/// assert!(streamed.is_ok());
/// let validated = validation.expect("events were read").finish().expect("no replay of the whole log is needed");
/// let error = validated.verdict.error.expect("a second king");
/// assert_eq!(error.place, Place::Event(1));
/// let refused = validated.refused.expect("the refused event");
/// assert_eq!((refused.event.to_string().as_str(), refused.line, refused.column), ("0 w place Ke2", 6, 5));
/// ```
#[derive(Clone, Debug)]
pub struct Validation {
    replay: Replay,
    overridden: Vec<Overridden>,
    /// Whether the engine may assume that the side to move can move.
    assume: bool,
    /// The last event of the last run, not yet applied.
    held: Option<Located>,
    /// How many events were handed in.
    fed: usize,
    /// The line of the last event handed in.
    last_line: Option<u32>,
    /// The index of the first refused event, its rule error, and the event
    /// the error is at, if it is at one.
    refused: Option<(usize, RuleError, Option<Located>)>,
    /// The log must be validated whole: an assumption failed, or the error
    /// is at an event of a run that is gone.
    needs_whole: bool,
    /// The seed revealed after the refused event, if one is.
    seed_after: Option<[u8; 32]>,
}

/// An event of a log with where it stands in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// Its index in the log.
    pub index: usize,
    /// The event.
    pub event: Event,
    /// Its 1-based line.
    pub line: u32,
    /// The 1-based column of its action.
    pub column: u32,
}

/// What a [`Validation`] found.
#[derive(Clone, Debug)]
pub struct Validated {
    /// The verdict, as [`validate_with_params`] gives it.
    pub verdict: Verdict,
    /// The event the verdict's error is at, if it is at one.
    pub refused: Option<Located>,
    /// The line of the log's last event, where an error at the end points.
    pub last_line: Option<u32>,
}

impl Validation {
    /// Starts a validation of a log with `header`, under its defaults and
    /// header changed by a rules file's `params` ([`Replay::with_params`]).
    pub fn new(header: &Header, params: Option<&Params>) -> Result<Validation, StartError> {
        let (replay, overridden) = Replay::with_params(header, params)?;
        let assume = each_game!(Sessions, &replay.sessions, s => s.engine.may_assume_moves());
        Ok(Validation {
            replay,
            overridden,
            assume,
            held: None,
            fed: 0,
            last_line: None,
            refused: None,
            needs_whole: false,
            seed_after: None,
        })
    }

    /// Applies the next run of the log's events (the one after the last
    /// run fed), up to its last event, which waits for the next run.
    /// Nothing is applied once an event was refused.
    pub fn feed(&mut self, run: Run<'_>) {
        let (Some(last), Some(&line), Some(&column)) = (run.events.last(), run.lines.last(), run.columns.last()) else {
            return;
        };
        debug_assert_eq!(run.first, self.fed, "runs come in order");
        self.fed = run.first + run.events.len();
        self.last_line = Some(line);
        if self.is_done() {
            if self.refused.is_some() {
                self.look_for_seed(&run, run.first);
            }
            return;
        }
        let held = self.held.take();
        if let Some(held) = &held {
            if let Some(refused) = self.apply(held.index, std::slice::from_ref(&held.event), run.events.first()) {
                return self.refuse(refused, Some(held), Some(&run));
            }
        }
        let body = &run.events[..run.events.len() - 1];
        if let Some(refused) = self.apply(run.first, body, Some(last)) {
            return self.refuse(refused, held.as_ref(), Some(&run));
        }
        if !self.is_done() {
            self.held = Some(Located {
                index: self.fed - 1,
                event: last.clone(),
                line,
                column,
            });
        }
    }

    /// Whether nothing more is to be applied: an event was refused, or an
    /// assumption failed.
    fn is_done(&self) -> bool {
        self.refused.is_some() || self.needs_whole
    }

    /// Keeps `error` with the event it is at, found among the event that
    /// waited and the current run; an error at an event before them (a
    /// revealed seed that refutes an outcome logged earlier) needs the whole
    /// log to be shown.
    fn refuse(&mut self, (index, error): (usize, RuleError), held: Option<&Located>, run: Option<&Run<'_>>) {
        let located = match error.place {
            Place::Event(i) => {
                let in_run = run.and_then(|r| {
                    let k = i.checked_sub(r.first).filter(|&k| k < r.events.len())?;
                    Some(Located {
                        index: i,
                        event: r.events[k].clone(),
                        line: r.lines[k],
                        column: r.columns[k],
                    })
                });
                match in_run.or_else(|| held.filter(|h| h.index == i).cloned()) {
                    Some(located) => Some(located),
                    None => {
                        self.needs_whole = true;
                        return;
                    }
                }
            }
            Place::End | Place::Header => None,
        };
        self.refused = Some((index, error, located));
        if let Some(run) = run {
            self.look_for_seed(run, index + 1);
        }
    }

    /// Remembers the seed a world event of `run` at or after the log's
    /// event `from` reveals, if it is the first one seen after a refused
    /// event: at the end, an outcome before the refused event that the
    /// seed refutes is the error to report ([`forged_before`]).
    fn look_for_seed(&mut self, run: &Run<'_>, from: usize) {
        if self.seed_after.is_some() || self.refused.as_ref().is_some_and(|(_, e, _)| e.rule == Rule::Seed) {
            return;
        }
        let skip = from.saturating_sub(run.first);
        self.seed_after = run.events.iter().skip(skip).find_map(|e| match (&e.action, e.actor) {
            (Action::Seed { seed }, Actor::World) => Some(seed.0),
            _ => None,
        });
    }

    /// Applies `events`, the log's from `first`, followed in the log by
    /// `next`; returns the index and error of the one refused, if one was.
    /// A failed assumption marks the validation as needing the whole log.
    fn apply(&mut self, first: usize, events: &[Event], next: Option<&Event>) -> Option<(usize, RuleError)> {
        let assume = self.assume;
        match each_game!(Sessions, &mut self.replay.sessions, s => apply_run(s, first, events, next, assume, None)) {
            Ok(refused) => refused,
            Err(()) => {
                self.needs_whole = true;
                None
            }
        }
    }

    /// Applies the event that waited and checks the end of the log. `None`
    /// when the log must be validated whole, by [`validate_with_params`],
    /// which finds the fault where it is: the engine's assumption that the
    /// side to move could move was wrong somewhere (at a mate or stalemate
    /// the log does not mark), or a revealed seed refuted an outcome of an
    /// earlier run, which is gone.
    pub fn finish(mut self) -> Option<Validated> {
        if let Some(held) = self.held.take() {
            if !self.is_done() {
                if let Some(refused) = self.apply(held.index, std::slice::from_ref(&held.event), None) {
                    self.refuse(refused, Some(&held), None);
                }
            }
        }
        // A seed revealed after the refused event that refutes an outcome
        // before it: that outcome is the error, at an event of a run that
        // is gone.
        if let (Some(seed), Some((index, ..))) = (self.seed_after, &self.refused) {
            let earlier = each_game!(Sessions, &self.replay.sessions, s => s.refuted_by_seed(&seed));
            if earlier.is_some_and(|e| matches!(e.place, Place::Event(j) if j < *index)) {
                self.needs_whole = true;
            }
        }
        if self.needs_whole {
            return None;
        }
        debug_assert!(!each_game!(Sessions, &self.replay.sessions, s => s.has_unproved_moves()));
        let (applied, error, refused) = match self.refused {
            Some((index, error, located)) => (index, Some(error), located),
            None => (self.fed, self.replay.finish().err(), None),
        };
        Some(Validated {
            verdict: Verdict {
                replay: self.replay,
                applied,
                error,
                overridden: self.overridden,
            },
            refused,
            last_line: self.last_line,
        })
    }
}

/// Replays `game` from `replay`, and pushes onto `written`, when it is
/// given, the moves whose canonical spelling differs from the log's.
fn run(
    mut replay: Replay,
    game: &Game,
    overridden: Vec<Overridden>,
    mut written: Option<&mut Vec<(usize, fgn_notation::ChessMove)>>,
) -> Verdict {
    // The game is matched once for the whole log, not once per event, so
    // that each game's loop calls its own session directly. A game whose
    // engine may assume that the side to move can move (and whose log then
    // proves it) keeps its start, in case the assumption fails and the log
    // must be replayed without it; the moves written by then are dropped,
    // since the second pass writes them again.
    let start = each_game!(Sessions, &replay.sessions, s => s.engine.may_assume_moves()).then(|| replay.clone());
    let stopped = match start {
        Some(start) => {
            match each_game!(Sessions, &mut replay.sessions, s => apply_all(s, &game.events, true, written.as_deref_mut()))
            {
                Ok(stopped) => stopped,
                Err(()) => {
                    replay = start;
                    if let Some(written) = written.as_deref_mut() {
                        written.clear();
                    }
                    each_game!(Sessions, &mut replay.sessions, s => apply_all(s, &game.events, false, written))
                        .expect("a replay without the assumption never starts again")
                }
            }
        }
        None => each_game!(Sessions, &mut replay.sessions, s => apply_all(s, &game.events, false, written))
            .expect("a replay without the assumption never starts again"),
    };
    debug_assert!(!each_game!(Sessions, &replay.sessions, s => s.has_unproved_moves()));
    let (applied, error) = match stopped {
        Some((i, error)) => (i, Some(forged_before(&replay, &game.events, i, error))),
        None => (game.events.len(), replay.finish().err()),
    };
    Verdict {
        replay,
        applied,
        error,
        overridden,
    }
}

/// The error to report for the event `refused` of `events`, refused with
/// `error` by `replay` (which stands just before it): when the log reveals
/// its seed later and that seed refutes an outcome recorded before the
/// refused event, that outcome's line is the one forged, and its error is
/// reported instead of the one it caused (docs/rules.md, "Seeds"). A user
/// checking a download learns which line was tampered with, not which
/// honest move the tampering broke.
fn forged_before(replay: &Replay, events: &[Event], refused: usize, error: RuleError) -> RuleError {
    if error.rule == Rule::Seed {
        return error;
    }
    let seed = events
        .get(refused + 1..)
        .unwrap_or_default()
        .iter()
        .find_map(|e| match (&e.action, e.actor) {
            (Action::Seed { seed }, Actor::World) => Some(seed.0),
            _ => None,
        });
    seed.and_then(|seed| each_game!(Sessions, &replay.sessions, s => s.refuted_by_seed(&seed)))
        .filter(|forged| matches!(forged.place, Place::Event(j) if j < refused))
        .unwrap_or(error)
}

/// Applies `events` in order until one is refused; returns its index and
/// the error, or `None` when every event was applied.
///
/// With `assume`, at a move the log follows with a player's move the
/// engine may assume that the side to move has one
/// ([`Session::apply_in_log`]); `Err` when that was wrong somewhere, and
/// the log must be replayed without it. Without it the answer is never
/// `Err`.
///
/// With `written`, each player's move, played or refused, is spelled as
/// canonical FGN writes it ([`game::Game::spelled`]) and pushed there with its
/// index where that differs from the log.
fn apply_all<G: game::Game>(
    session: &mut Session<G>,
    events: &[Event],
    assume: bool,
    written: Option<&mut Vec<(usize, fgn_notation::ChessMove)>>,
) -> Result<Option<(usize, RuleError)>, ()> {
    apply_run(session, 0, events, None, assume, written)
}

/// Whether `event` is a player's move: what lets the engine assume, at the
/// move before it, that the side to move has one.
fn is_players_move(event: &Event) -> bool {
    matches!((event.actor, &event.action), (Actor::Player(_), Action::Move(_)))
}

/// [`apply_all`] over a run of a log's events whose first is the log's
/// event `first`, followed in the log by `next` (`None` at the log's end);
/// the indices given and returned are the log's.
fn apply_run<G: game::Game>(
    session: &mut Session<G>,
    first: usize,
    events: &[Event],
    next: Option<&Event>,
    assume: bool,
    mut written: Option<&mut Vec<(usize, fgn_notation::ChessMove)>>,
) -> Result<Option<(usize, RuleError)>, ()> {
    for (k, event) in events.iter().enumerate() {
        let i = first + k;
        let reply_next = assume && events.get(k + 1).or(next).is_some_and(is_players_move);
        let refused = match session.apply_in_log(i, event, reply_next) {
            Ok(()) => None,
            Err(LogStop::Refused(error)) => Some(error),
            Err(LogStop::Replay) => return Err(()),
        };
        if let (Some(written), Action::Move(m), Actor::Player(side)) =
            (written.as_deref_mut(), &event.action, event.actor)
        {
            let spelling = match refused {
                None => game::Spelling::Played,
                Some(_) => game::Spelling::Refused,
            };
            let mated = || matches!(session.phase(), Phase::ResultDue(d) if d.reason == fgn_notation::Reason::Mate);
            if let Some(full) = session.engine.spelled(side, m, spelling, mated) {
                written.push((i, full));
            }
        }
        if let Some(error) = refused {
            return Ok(Some((i, error)));
        }
    }
    Ok(None)
}

/// Where `place` is in the file `doc` was read from, as (line, column),
/// 1-based: an event's line and the column of its action; the end of the
/// log at its last line; the header at line 1 (of its game's text, in a
/// file of several games: [`Document::lines_before`] plus one).
pub fn locate(doc: &Document, place: Place) -> (u32, u32) {
    let first = doc.lines_before.saturating_add(1);
    match place {
        Place::Event(i) => (
            doc.event_lines.get(i).copied().unwrap_or(first),
            doc.event_columns.get(i).copied().unwrap_or(1),
        ),
        Place::End => (
            doc.event_lines
                .last()
                .or(doc.tag_lines.last())
                .copied()
                .unwrap_or(first),
            1,
        ),
        Place::Header => (first, 1),
    }
}

/// The line of the header tag `tag` in the file `doc` was read from, or
/// the first line of its text when the header has no such tag.
pub fn tag_line(doc: &Document, tag: Option<&str>) -> u32 {
    tag.and_then(|t| doc.game.header.tags.iter().position(|x| x.name == t))
        .and_then(|i| doc.tag_lines.get(i).copied())
        .unwrap_or(doc.lines_before.saturating_add(1))
}

#[cfg(test)]
mod tests {
    use fgn_notation::{Action, BoardSize, Check, Game, PieceKind};

    use crate::games::each_game;
    use crate::gen::{generate, Options, Rate};
    use crate::ruleset::{Board, SurvivalRules};
    use crate::Sessions;
    use crate::{complete_markers, Replay, Ruleset};

    /// What `complete_markers` did before it took survival-chess markers
    /// from one application: ask `Replay::canonical` for every move, then
    /// apply its answer.
    fn complete_by_probing(game: &Game) -> Game {
        let mut out = game.clone();
        let Ok(mut replay) = Replay::new(&game.header) else {
            return out;
        };
        for (i, event) in game.events.iter().enumerate() {
            if let Some(full) = replay.canonical(event) {
                out.events[i] = full;
            }
            if replay.apply_at(i, &out.events[i]).is_err() {
                break;
            }
        }
        out
    }

    /// A random survival-chess game on a board of `size` (files, ranks)
    /// from `seed`, of at most `plies` plies, playing for a finish at
    /// `finish` per million.
    fn survival_game(size: (u8, u8), seed: u64, plies: usize, finish: u32) -> Game {
        let rules = SurvivalRules {
            board: Board(BoardSize {
                files: size.0,
                ranks: size.1,
            }),
            ..SurvivalRules::default()
        };
        let options = Options {
            plies,
            finish: Rate::per_million(finish).expect("a rate"),
            ..Options::under(Ruleset::Survival(rules), seed)
        };
        generate(&options).expect("a random survival-chess game")
    }

    /// Regression guard for `complete_markers`'s one application per
    /// survival-chess move: over random games on bitboard and mailbox
    /// boards, with every move's markers and promotion piece dropped or
    /// replaced at random and now and then a move made illegal, it writes
    /// exactly what probing each move and applying it wrote, up to and
    /// including the move where the replay stops.
    #[test]
    fn one_application_completes_markers_as_probing_did() {
        let mut rng = crate::gen::rng::Rng::new(11);
        let mut stopped = 0;
        for (i, size) in [(8, 8), (6, 6), (10, 10)].into_iter().enumerate() {
            for seed in 0..8 {
                let mut game = survival_game(size, 100 * i as u64 + seed, 150, 300_000);
                let spoil = seed % 2 == 1;
                for event in &mut game.events {
                    if let Action::Move(m) = &mut event.action {
                        m.check = [None, Some(Check::Check), Some(Check::Mate)][rng.below(3)];
                        if m.promotion.is_some() && rng.below(2) == 0 {
                            m.promotion = None;
                        }
                        if spoil && rng.below(60) == 0 {
                            m.piece = PieceKind::King;
                        }
                    }
                }
                let (one, probed) = (complete_markers(&game), complete_by_probing(&game));
                assert_eq!(one.events, probed.events, "seed {seed} on {size:?}");
                stopped += usize::from(crate::validate(&one).expect("a header").error.is_some());
            }
        }
        // Some games stop early, at a spoiled move.
        assert!(stopped > 0, "no game stopped");
    }

    /// Guards the shortcut that leaves draughts and great-war-chess logs to
    /// `complete_markers` unreplayed: no event of theirs is ever rewritten
    /// by `Replay::canonical`.
    #[test]
    fn games_without_markers_are_complete_as_they_are() {
        use fgn_notation::GameKind;
        let mut events = 0;
        for game in [GameKind::MagicDraughts, GameKind::GreatWarChess] {
            for seed in 0..12 {
                let options = Options {
                    plies: 300,
                    ..Options::new(game, seed)
                };
                let log = crate::gen::generate(&options).expect("a generated game");
                assert_eq!(complete_by_probing(&log), log, "{game:?} seed {seed}");
                assert_eq!(complete_markers(&log), log);
                events += log.events.len();
            }
        }
        assert!(events > 2000, "{events} events");
    }

    /// Guards that the validation loop checks its assumption rather than
    /// replaying the log whenever a move is not played at once: an illegal
    /// move after a move, where the side to move did have moves, is refused
    /// on the spot, without starting again (which would give the same
    /// verdict, twice as slowly).
    #[test]
    fn an_illegal_move_after_a_move_is_refused_without_replaying_the_log() {
        let game = survival_game((8, 8), 3, 60, 0);
        let j = (1..game.events.len())
            .find(|&j| {
                matches!(game.events[j - 1].action, Action::Move(_)) && matches!(game.events[j].action, Action::Move(_))
            })
            .expect("two moves in a row");
        let mut log = game.clone();
        log.events.truncate(j + 1);
        if let Action::Move(m) = &mut log.events[j].action {
            m.piece = if m.piece == PieceKind::King {
                PieceKind::Queen
            } else {
                PieceKind::King
            };
        }
        let mut replay = Replay::new(&log.header).expect("a header");
        let stopped = each_game!(Sessions, &mut replay.sessions, s => super::apply_all(s, &log.events, true, None));
        assert!(matches!(stopped, Ok(Some((i, _))) if i == j), "{stopped:?}");
    }

    /// Guards the validation loop's assumption that the side to move has a
    /// legal move when the log's next event is a move
    /// (`Session::apply_in_log`): over random survival-chess games on
    /// bitboard boards that mostly end in mate or stalemate, with markers
    /// changed at random, the result line dropped and a move played after
    /// the end, or an event left out, validation stops at the same event
    /// with the same error and the same state as `Replay::apply` event by
    /// event, which assumes nothing; and some of those logs do need the
    /// replay from the start.
    #[test]
    fn assuming_the_side_to_move_can_move_changes_no_verdict_nor_completion() {
        let mut rng = crate::gen::rng::Rng::new(7);
        let (mut replayed, mut checked) = (0, 0);
        for (i, size) in [(8, 8), (6, 6)].into_iter().enumerate() {
            for seed in 0..24 {
                let game = survival_game(size, 1000 * i as u64 + seed, 200, 900_000);
                let moves: Vec<usize> = (0..game.events.len())
                    .filter(|&k| matches!(game.events[k].action, Action::Move(_)))
                    .collect();
                let mut variants = vec![game.clone()];
                let mut marked = game.clone();
                for event in &mut marked.events {
                    if let Action::Move(m) = &mut event.action {
                        if rng.below(4) == 0 {
                            m.check = [None, Some(Check::Check), Some(Check::Mate)][rng.below(3)];
                        }
                    }
                }
                variants.push(marked);
                // The log cut after its last move, and then each earlier move
                // played again: a move after the end (or out of turn).
                if let Some(&last) = moves.last() {
                    for &again in moves.iter().rev().take(4) {
                        let mut after_end = game.clone();
                        after_end.events.truncate(last + 1);
                        after_end.events.push(game.events[again].clone());
                        variants.push(after_end.clone());
                        // The same with the last move's marker left out or
                        // written `+`: on a mate, the move after it is what
                        // shows that the assumption was wrong.
                        for marker in [None, Some(Check::Check)] {
                            let mut unmarked = after_end.clone();
                            if let Action::Move(m) = &mut unmarked.events[last].action {
                                m.check = marker;
                            }
                            variants.push(unmarked);
                        }
                    }
                }
                for _ in 0..4 {
                    let mut gap = game.clone();
                    if !gap.events.is_empty() {
                        gap.events.remove(rng.below(gap.events.len()));
                    }
                    variants.push(gap);
                }
                for variant in &variants {
                    let start = Replay::new(&variant.header).expect("a header");
                    let mut probe = start.clone();
                    replayed += usize::from(
                        each_game!(Sessions, &mut probe.sessions, s => super::apply_all(s, &variant.events, true, None)).is_err(),
                    );
                    let assuming = super::run(start.clone(), variant, Vec::new(), None);
                    // What a server applying the events one by one gets.
                    let mut plain = start;
                    let stopped = variant
                        .events
                        .iter()
                        .enumerate()
                        .find_map(|(i, e)| plain.apply_at(i, e).err().map(|error| (i, error)));
                    let (applied, error) = match stopped {
                        Some((i, error)) => (i, Some(error)),
                        None => (variant.events.len(), plain.finish().err()),
                    };
                    assert_eq!(
                        (assuming.applied, &assuming.error),
                        (applied, &error),
                        "seed {seed} on {size:?}"
                    );
                    assert_eq!(assuming.replay.state(), plain.state(), "seed {seed} on {size:?}");
                    // The completion `fmt` and the log hash use, against each
                    // move's canonical spelling asked of a plain replay
                    // before the move as written is applied.
                    let mut reference = variant.clone();
                    let mut r = Replay::new(&variant.header).expect("a header");
                    for (i, e) in variant.events.iter().enumerate() {
                        let full = r.canonical(e);
                        let applied = r.apply_at(i, e).is_ok();
                        if let Some(full) = full {
                            reference.events[i] = full;
                        }
                        if !applied {
                            break;
                        }
                    }
                    assert_eq!(complete_markers(variant), reference, "seed {seed} on {size:?}");
                    // The summary's one replay gives both at once.
                    let (verdict, completion) = super::validate_completing(variant).expect("a header");
                    assert_eq!(
                        (verdict.applied, &verdict.error),
                        (applied, &error),
                        "seed {seed} on {size:?}"
                    );
                    let mut completed = variant.clone();
                    completion.apply_to(&mut completed);
                    assert_eq!(completed, reference, "seed {seed} on {size:?}");
                    // Applied to a shorter game, it rewrites what is there
                    // and never indexes past its end.
                    let mut shorter = variant.clone();
                    shorter.events.truncate(shorter.events.len() / 2);
                    completion.apply_to(&mut shorter);
                    assert_eq!(
                        shorter.events[..],
                        reference.events[..shorter.events.len()],
                        "seed {seed} on {size:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 300, "{checked} logs");
        assert!(replayed > 10, "only {replayed} logs needed the replay from the start");
    }
}
