//! The games table: one row per file, its summary's fields flattened
//! (docs/analysis.md), what `fgn json --parquet` writes. [`GAMES`] is its
//! one definition ([`crate::table`]). Like the events table, its default
//! columns are never null: a tag that is absent is `""`, a count that does
//! not apply is 0, and the fields that have no honest dense value
//! (`error_index`, `outcomes_checked`) are asked for by name.

use std::borrow::Cow;

use crate::summary::{LogFault, Summary};
use crate::table::{Cell, Column, ColumnType, Scalar, Table};

/// One file as a row of the games table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRow {
    /// The file (`None` for standard input).
    pub file: Option<String>,
    /// Whether the file reads as FGN: `false` for a syntax error, whose
    /// row is of type `unreadable`.
    pub readable: bool,
    /// Its summary.
    pub summary: Summary,
}

fn fault(r: &GameRow) -> Option<&LogFault> {
    r.summary.error.as_ref()
}

fn tag(v: &Option<String>) -> Cell<'_> {
    Cell::str(v.as_deref().unwrap_or(""))
}

/// A value as fgn's JSON spells it, `""` for none.
fn spelled<'a, T: serde::Serialize>(v: Option<T>) -> Cell<'a> {
    v.map_or(Cell::str(""), |v| Cell::spelled(&v))
}

const fn dense(
    name: &'static str,
    ty: Scalar,
    doc: &'static str,
    get: for<'a> fn(&'a GameRow) -> Cell<'a>,
) -> Column<GameRow> {
    Column {
        name,
        ty: ColumnType::Scalar(ty),
        nullable: false,
        default: true,
        doc,
        get,
    }
}

/// The games table: one row per file, readable or not.
pub static GAMES: Table<GameRow> = Table {
    name: "games",
    columns: &GAME_COLUMNS,
    partition: "game",
};

static GAME_COLUMNS: [Column<GameRow>; 29] = [
    dense("type", Scalar::Enum, "`game`, or `unreadable` for a file that cannot be read as FGN", |r| Cell::str(if r.readable { "game" } else { "unreadable" })),
    dense("file", Scalar::Str, "the file, as given or found below a folder given; `-` for standard input", |r| Cell::str(r.file.as_deref().unwrap_or("-"))),
    dense("game", Scalar::Enum, "the `Game` tag; `\"\"` without one", |r| tag(&r.summary.game)),
    dense("status", Scalar::Enum, "`valid`, `invalid` or `unsupported`", |r| Cell::spelled(&r.summary.status)),
    dense("error_kind", Scalar::Enum, "the first fault: `syntax`, `rule` or `unsupported`; `\"\"` for a valid log", |r| fault(r).map_or(Cell::str(""), |f| Cell::spelled(&f.kind))),
    dense("error_rule", Scalar::Enum, "the rule it breaks (docs/rules.md); `\"\"` for a syntax error or a valid log", |r| Cell::str(fault(r).and_then(|f| f.rule).unwrap_or(""))),
    dense("error_line", Scalar::Int, "its 1-based line; 0 for a valid log", |r| Cell::Int(fault(r).map_or(0, |f| f.line.into()))),
    dense("error_column", Scalar::Int, "its 1-based column; 0 for a valid log", |r| Cell::Int(fault(r).map_or(0, |f| f.column.into()))),
    dense("error_message", Scalar::Str, "what is wrong, as `fgn validate` words it; `\"\"` for a valid log", |r| Cell::str(fault(r).map_or("", |f| f.message.as_str()))),
    dense("rules", Scalar::Enum, "the `Rules` tag; `\"\"` without one", |r| tag(&r.summary.rules)),
    dense("date", Scalar::Str, "the `Date` tag as written (it may have unknown parts, `2025-??-??`); `\"\"` without one", |r| tag(&r.summary.date)),
    dense("white", Scalar::Str, "the `White` tag; `\"\"` without one", |r| tag(&r.summary.white)),
    dense("white_id", Scalar::Str, "the `WhiteId` tag; `\"\"` without one", |r| tag(&r.summary.white_id)),
    dense("black", Scalar::Str, "the `Black` tag; `\"\"` without one", |r| tag(&r.summary.black)),
    dense("black_id", Scalar::Str, "the `BlackId` tag; `\"\"` without one", |r| tag(&r.summary.black_id)),
    dense("phase", Scalar::Enum, "`playing`, `awaiting-extra`, `result-due` or `over` after the last event that applied; `\"\"` when the log does not replay", |r| Cell::str(r.summary.phase.unwrap_or(""))),
    dense("outcome", Scalar::Enum, "the result decided or recorded (`1-0`, ...); `\"\"` for none", |r| spelled(r.summary.outcome)),
    dense("reason", Scalar::Enum, "its reason; `\"\"` for none", |r| spelled(r.summary.reason)),
    dense("events", Scalar::Int, "the events of the log", |r| Cell::count(r.summary.events)),
    dense("events_applied", Scalar::Int, "how many of them the rules accepted", |r| Cell::count(r.summary.events_applied)),
    dense("moves", Scalar::Int, "the players' moves of pieces among them", |r| Cell::count(r.summary.moves)),
    dense("last_number", Scalar::Int, "the move number of the last event (0 without events)", |r| Cell::Int(r.summary.last_number.into())),
    dense("state_hash", Scalar::Str, "the state hash after the last event that applied; `\"\"` when the log does not replay", |r| spelled(r.summary.state_hash)),
    dense("log_hash", Scalar::Str, "the log hash (`fgn hash`); `\"\"` for a file that cannot be read", |r| spelled(r.summary.log_hash)),
    dense("warnings", Scalar::Int, "how many warnings the summary gives", |r| Cell::count(r.summary.warnings.len())),
    Column {
        name: "error_index",
        ty: ColumnType::Scalar(Scalar::Int),
        nullable: true,
        default: false,
        doc: "the 0-based index of the event at fault; null where the fault is in the header, at the end, a syntax error, or for a valid log",
        get: |r| Cell::or_null(fault(r).and_then(|f| f.index), Cell::count),
    },
    Column {
        name: "outcomes_checked",
        ty: ColumnType::Scalar(Scalar::Bool),
        nullable: true,
        default: false,
        doc: "whether a revealed seed checked the game's random outcomes; null for a game without any or a log that does not replay to its end",
        get: |r| Cell::or_null(r.summary.outcomes_checked, Cell::Bool),
    },
    Column {
        name: "warning_kinds",
        ty: ColumnType::StrList,
        nullable: false,
        default: false,
        doc: "the kinds of the warnings, in order: `torn-line`, `parameter-tag`, `outcomes-unchecked`",
        get: |r| {
            let kinds = r.summary.warnings.iter().map(|w| match Cell::spelled(&w.kind) {
                Cell::Str(s) => s,
                _ => Cow::Borrowed(""),
            });
            Cell::List(kinds.collect())
        },
    },
    Column {
        name: "warning_messages",
        ty: ColumnType::StrList,
        nullable: false,
        default: false,
        doc: "their messages, in the same order",
        get: |r| Cell::List(r.summary.warnings.iter().map(|w| Cow::Borrowed(w.message.as_str())).collect()),
    },
];
