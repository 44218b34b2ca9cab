//! FGN, Fog Game Notation: the text form of board-game event logs.
//!
//! This crate is syntax only: it turns FGN text into typed values
//! ([`parse()`]), prints them back in canonical form ([`Game::canonical_text`],
//! [`Document::formatted`]) and converts to and from JSON ([`json`]). Whether
//! a log is legal under its game's rules is decided by `fgn-replay`, whose
//! crate documentation shows the rest of what a game server or a tool does
//! with a parsed log (validate, replay, legal actions, the referee, views,
//! hashes, diff, append).
//!
//! # Parse a log
//!
//! [`parse()`] reads every line it can and reports every line it cannot: a
//! [`Parsed`] holds the [`Document`] (the [`Game`] with its comments and the
//! line of each tag and event) and the [`Diagnostic`]s, each with its line,
//! column and what was expected.
//!
//! ```
//! let parsed = fgn_notation::parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w E2-e4 ; upper case accepted\n");
//! assert!(parsed.is_ok());
//! assert_eq!(parsed.document.game.events[0].to_string(), "1 w e2-e4");
//! assert_eq!(parsed.document.event_lines, [4]);
//! ```
//!
//! Bad input never panics: each line at fault is one diagnostic, and the
//! lines around it are still read. [`Diagnostic::render`] draws it against
//! its line as the `fgn` command prints it.
//!
//! ```
//! let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-z99\n1 b e7-e5\n";
//! let parsed = fgn_notation::parse(log);
//! assert!(!parsed.is_ok());
//! let d = &parsed.diagnostics[0];
//! assert_eq!((d.line, d.column), (4, 8));
//! assert_eq!(d.message, "in `e2-z99`: expected a target square or `?`, found `z99`");
//! assert_eq!(
//!     d.render("game.fgn"),
//!     "error: in `e2-z99`: expected a target square or `?`, found `z99`\n  --> game.fgn:4:8\n   |\n 4 | 1 w e2-z99\n   |        ^^^\n"
//! );
//! // The good line after the bad one was still read.
//! assert_eq!(parsed.document.game.events[0].to_string(), "1 b e7-e5");
//! ```
//!
//! One event line on its own, as a server receives it from a player, is
//! read for the game of a header with [`Header::parse_event`].
//!
//! A file may hold several games one after the other (docs/notation.md
//! §2.8): [`split::split`] finds each game's text in a file's bytes and
//! [`split::GameReader`] in a stream, one game in memory at a time; each
//! game is read with the file's line numbers ([`split::GameText::parse`]).
//!
//! # Print and convert
//!
//! The canonical text ([`Game::canonical_text`]) drops comments and writes
//! every token in one spelling; [`Document::formatted`] keeps the comments
//! where they stood (`fgn fmt`). The JSON form ([`json::to_json`],
//! [`json::from_json`], docs/json.md) holds exactly what the text holds.
//!
//! ```
//! use fgn_notation::{json, parse};
//!
//! let doc = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n1 w E2-E4   ; the king's pawn\n").document;
//! assert_eq!(doc.game.canonical_text(), "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-e4\n");
//! assert_eq!(doc.formatted(), "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-e4 ; the king's pawn\n");
//!
//! let value = json::to_json(&doc.game);
//! assert_eq!(value["header"]["Game"], "survival-chess");
//! assert_eq!(json::from_json(&value.to_string()).unwrap(), doc.game);
//! ```

// `unsafe` is denied across the workspace and allowed only in the fgn
// binary's `main.rs`; a library crate forbids it, which no `allow` undoes.
#![forbid(unsafe_code)]

pub mod action;
pub mod diagnostic;
pub mod document;
pub mod forms;
pub mod header;
pub mod json;
mod lines;
pub mod parse;
mod quick;
mod short;
pub mod split;
pub mod types;

pub use action::{
    Action, Check, ChessMove, Event, Item, MagicNumber, ObjectKind, Outcome, Path, Placement, Reason, Salt, Seed,
    SeenPiece, Spell, SpellNumber, UnitMove,
};
pub use diagnostic::Diagnostic;
pub use document::{Anchor, Comment, Document, Game};
pub use header::{BoardSize, Date, Header, PartialDate, Perspective, Tag, TimeControl};
pub use parse::{parse, parse_in_runs, Parsed, Run, Streamed, MAX_DIAGNOSTICS, MAX_FILE_BYTES, MAX_LINE_BYTES};
pub use types::{
    Actor, ByColor, Clock, Color, Figure, File, GameKind, MoveNumber, PieceKind, Square, UnitKind, UnitSet, ValueError,
    MAX_BOARD_DIM,
};
