//! The tools built on the public API of [`fgn_replay`], one module per
//! concern: durable appends to a log file ([`append`], docs/append.md),
//! a log's [`summary`] (its verdict, players, result, hashes and
//! warnings), [`archive`] filters and statistics over summaries, what an
//! event did as [`counts`] (captures, deaths, coins, spells, charges), a
//! log as flat [`events`] rows, a log's positions as one viewer saw them, event by
//! event ([`frames`]), leaderboard [`standings`], a log replayed under
//! changed rules ([`impact`], docs/impact.md), the [`loghash`] chain over a
//! log's canonical text, a player's view aligned with the full log that
//! replays it ([`align`]), rule errors located and worded once
//! ([`placed`]), verify-view's comparison ([`verify_view`]), a board
//! picture drawn as an SVG document ([`svg`]), survival-chess and
//! magic-draughts games to and from PGN and PDN ([`pgn`], [`pdn`],
//! docs/interchange.md), where logs come from (files, directories,
//! compressed logs and archives: [`inputs`]) and work over many of them
//! on several threads with the results in input order ([`parallel`]).
//!
//! They are a crate of their own so that the compiler, not review, keeps
//! them to `fgn_replay`'s public surface: a tool can do nothing a game
//! server or any other user of the library could not, and whatever a tool
//! needs that the library does not give is a question about the library's
//! API, asked in the open. The random game generator is not here but in
//! `fgn_replay::gen`, because the rules' own unit tests play random games
//! with it. The `fgn` binary is a thin shell over both crates.
//!
//! # Log hashes
//!
//! A log hash ([`loghash::chain`], `fgn hash`) is a chain over the log's
//! canonical text, one value per event, so a newer download is checked to
//! extend an older one (docs/hashing.md, "Log hashes"). Comments and
//! spelling never change it. A state or knowledge hash is
//! [`fgn_replay::Replay::state_hash`]'s and
//! [`fgn_replay::Replay::knowledge_hash`]'s.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_tools::loghash;
//!
//! let header = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n";
//! let setup = "0 w place Ke1 Pe2\n0 b place Ke8 Pe7\n0 w ready\n0 b ready\n";
//! let a = parse(format!("{header}{setup}1 w e2-e4\n").as_bytes()).document.game;
//! let b = parse(format!("{header}{setup}1 w E2-E4 ; the same move, spelled otherwise\n").as_bytes()).document.game;
//! let (chain_a, chain_b) = (loghash::chain(&a), loghash::chain(&b));
//! assert_eq!(chain_a.log_hash(), chain_b.log_hash());
//! assert!(chain_a.log_hash().to_string().starts_with("blake3:"));
//! // Each prefix of the log has its own value: the hash after the setup
//! // is the log hash of the log cut there.
//! let mut prefix = a.clone();
//! prefix.events.truncate(4);
//! assert_eq!(loghash::chain(&prefix).log_hash(), chain_a.events[3]);
//! ```
//!
//! # Append durably
//!
//! [`append::append`] adds event lines to a log file: under an exclusive
//! lock it reads and replays the file, checks the new events, and replaces
//! the log atomically by the log with them in canonical spelling (written
//! beside it, synced, renamed over it). All or nothing: a refused event
//! leaves the file as it was, and the error says which event and rule
//! ([`append::AppendError`]); a crash never leaves part of a batch.
//!
//! ```
//! use fgn_replay::Rule;
//! use fgn_tools::append::{append, AppendError};
//!
//! let dir = std::env::temp_dir().join(format!("fgn-append-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("game.fgn");
//! std::fs::write(
//!     &path,
//!     "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
//!      0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pe7 Pf7 Pg7\n0 w ready\n0 b ready\n",
//! )
//! .unwrap();
//!
//! let appended = append(&path, &["1 w e2-e4", "1 b g7-g6"]).unwrap();
//! assert_eq!(appended.events, 6);
//!
//! // An illegal event: nothing of the batch is written.
//! let before = std::fs::read(&path).unwrap();
//! let Err(AppendError::EventRule { index, error, line, .. }) = append(&path, &["2 w Qd1-g4", "2 b Ke8-e9"]) else {
//!     panic!("the king cannot leave the board");
//! };
//! assert_eq!((index, line), (1, 12));
//! assert_eq!(error.rule, Rule::Square);
//! assert_eq!(std::fs::read(&path).unwrap(), before);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

// `unsafe` is denied across the workspace and allowed only in the fgn
// binary's `main.rs`; a library crate forbids it, which no `allow` undoes.
#![forbid(unsafe_code)]

pub mod align;
pub mod append;
pub mod archive;
pub mod counts;
pub mod diff;
pub mod events;
pub mod frames;
pub mod games;
pub mod impact;
pub mod inputs;
pub mod loghash;
pub mod parallel;
pub mod pdn;
pub mod pgn;
pub mod placed;
pub mod standings;
pub mod summary;
pub mod svg;
pub mod table;
pub mod verify_view;
