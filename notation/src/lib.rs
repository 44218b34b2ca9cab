//! FGN, Fog Game Notation: the text form of board-game event logs.
//!
//! This crate is syntax only: it turns FGN text into typed values
//! ([`parse()`]), prints them back in canonical form ([`Game::canonical_text`],
//! [`Document::formatted`]) and converts to and from JSON ([`json`]). Whether
//! a log is legal under its game's rules is decided by `fgn-replay`.
//!
//! ```
//! let parsed = fgn_notation::parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w E2-e4 ; upper case accepted\n");
//! assert!(parsed.is_ok());
//! assert_eq!(parsed.document.game.events[0].to_string(), "1 w e2-e4");
//! ```

pub mod action;
pub mod diagnostic;
pub mod document;
pub mod forms;
pub mod header;
pub mod json;
pub mod parse;
pub mod types;

pub use action::{
    Action, Check, ChessMove, Event, Item, MagicNumber, ObjectKind, Outcome, Path, Placement, Reason, Salt, Seed,
    SeenPiece, Spell, SpellNumber, UnitMove,
};
pub use diagnostic::Diagnostic;
pub use document::{Anchor, Comment, Document, Game};
pub use header::{BoardSize, Header, Perspective, Tag, TimeControl};
pub use parse::{parse, Parsed, MAX_DIAGNOSTICS, MAX_FILE_BYTES, MAX_LINE_BYTES};
pub use types::{
    Actor, ByColor, Clock, Color, Figure, File, GameKind, MoveNumber, PieceKind, Square, UnitKind, UnitSet, ValueError,
    MAX_BOARD_DIM,
};
