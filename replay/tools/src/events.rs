//! A log as a table: one flat row per event with its action in typed
//! columns, what the rules made of it (captures, deaths, HP, coins,
//! charges, reveals, the result) and the state hash after it, for `fgn
//! events` (docs/analysis.md, docs/json.md §16); and one row for a file
//! that cannot be read as FGN, so that every file is accounted for.
//!
//! [`EVENTS`] is the table's one definition: every column with its type,
//! whether it may be null and whether it is written by default, from which
//! the NDJSON rows, the Parquet files and the schemas are all made
//! ([`crate::table`]). The default columns are never null (a reader that
//! guesses types from the first rows would otherwise lose the values of a
//! column null in all of them); the sparse ones are asked for by name. The
//! account of an event is [`Replay::apply_changes`]'s, narrowed here to the
//! kinds an analyst counts.

use std::borrow::Cow;
use std::sync::Arc;

use fgn_notation::{
    Action, Actor, Color, Document, Event, ObjectKind, Outcome, Parsed, PieceKind, Reason, Square, UnitKind,
};

use fgn_replay::changes::{Change, Piece};
use fgn_replay::{Digest, Replay};

use crate::counts::EventCounts;
use crate::summary::{phase_parts, LogFault, Status, Summary};
use crate::table::{Cell, Column, ColumnType, Field, Scalar, Table};

/// What every row of one file shares: where it came from, its game, and
/// what the rules say of it (its summary's status and first fault).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FileFacts {
    /// The file the log was read from (`None` for standard input).
    pub file: Option<String>,
    /// The `Game` tag.
    pub game: Option<String>,
    /// Valid, invalid or unsupported.
    pub status: Status,
    /// The first fault, `None` for a valid log.
    pub fault: Option<LogFault>,
}

impl FileFacts {
    /// The facts of a log with this summary, read from `file`.
    pub fn of(summary: &Summary, file: Option<&str>) -> FileFacts {
        FileFacts {
            file: file.map(str::to_string),
            game: summary.game.clone(),
            status: summary.status,
            fault: summary.error.clone(),
        }
    }
}

/// What a row stands for: its `type`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RowKind {
    /// One event of a log that reads as FGN.
    Event,
    /// A file that cannot be read as FGN (a syntax error, not UTF-8): one
    /// row, with the error in the `error_*` columns.
    Unreadable,
}

impl RowKind {
    /// Its spelling in the `type` column.
    pub fn name(self) -> &'static str {
        match self {
            RowKind::Event => "event",
            RowKind::Unreadable => "unreadable",
        }
    }
}

/// One event of a log as a row (or the one row of a file that cannot be
/// read, [`RowKind::Unreadable`], whose event fields are empty).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EventRow {
    /// An event, or a file that cannot be read.
    pub kind: RowKind,
    /// The file's facts, shared by its rows.
    pub facts: Arc<FileFacts>,
    /// The event's 0-based index in the log.
    pub index: usize,
    /// Its 1-based line in the file.
    pub line: u32,
    /// The move number it carries.
    pub n: u32,
    /// `w`, `b` or `@`.
    pub actor: Option<Actor>,
    /// The event line in canonical spelling, without comment.
    pub event: String,
    /// The clock annotation in milliseconds.
    pub clock_ms: Option<u64>,
    /// The action, typed.
    pub action: ActionColumns,
    /// Whether the rules accepted it (false from the first rule error on,
    /// and for every event of a log that cannot be replayed).
    pub applied: bool,
    /// What the event did, counted ([`EventCounts`]; all 0 for an event
    /// the rules did not accept).
    pub counts: EventCounts,
    /// What the event changed, of the kinds [`Consequence`] lists.
    pub consequences: Vec<Consequence>,
    /// The phase after the event (`fgn show`'s `status.phase`).
    pub phase: Option<&'static str>,
    /// The outcome decided or recorded after the event.
    pub outcome: Option<Outcome>,
    /// Its reason.
    pub reason: Option<Reason>,
    /// The state hash after the event.
    pub state_hash: Option<Digest>,
}

/// The fields of every action type, one column each: the game JSON's
/// names and spellings (docs/json.md §6), with `see`'s piece taken apart
/// into `color`, `piece` and `hp` and lists of squares as arrays of
/// strings, so that no column changes type between rows.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ActionColumns {
    /// The action's type (the `action` column).
    pub kind: &'static str,
    /// The piece moved or seen.
    pub piece: Option<PieceKind>,
    /// The colour a `timeout`, `setup` or seen piece names.
    pub color: Option<Color>,
    /// The HP of a seen piece.
    pub hp: Option<u64>,
    /// The maximum HP of a seen piece of the viewer's own (in a view).
    pub max_hp: Option<u64>,
    /// Where a move, march, shot, draughts move or spell starts.
    pub from: Option<Square>,
    /// Where it ends.
    pub to: Option<Square>,
    /// The one square of `remove`, `buy`, `spawn`, `damage`, `clone`,
    /// `reveal`, `see` and Firebird's Call.
    pub square: Option<Square>,
    /// A draughts path or Koschei's Revenge's squares (else empty).
    pub squares: Vec<Square>,
    /// Setup placements as written (`Ke1`; else empty).
    pub placements: Vec<String>,
    /// Whether the move captures.
    pub capture: Option<bool>,
    /// The promotion written.
    pub promotion: Option<PieceKind>,
    /// `check` or `mate` written.
    pub check: Option<fgn_notation::Check>,
    /// The units that march.
    pub units: Option<String>,
    /// The unit a great-war-chess `remove` takes back.
    pub unit: Option<UnitKind>,
    /// What `buy` buys.
    pub item: Option<&'static str>,
    /// Whether the purchase's target is hidden.
    pub hidden: Option<bool>,
    /// A spawned or seen object.
    pub object: Option<ObjectKind>,
    /// A damage roll.
    pub amount: Option<u8>,
    /// The viewer's coins that `coins` tells (in a view).
    pub count: Option<u64>,
    /// A revealed number or a spell's number.
    pub number: Option<u8>,
    /// A spell's name.
    pub spell: Option<&'static str>,
    /// Gorynych's Fury's file (a letter).
    pub spell_file: Option<String>,
    /// A `result`'s outcome.
    pub result_outcome: Option<Outcome>,
    /// A `result`'s reason.
    pub result_reason: Option<Reason>,
    /// A chat message.
    pub text: Option<String>,
    /// An `extra` answer.
    pub granted: Option<bool>,
    /// A revealed seed (hex).
    pub seed: Option<String>,
    /// A player's salt (hex).
    pub salt: Option<String>,
}

impl ActionColumns {
    /// The columns of `action`.
    pub fn of(action: &Action) -> ActionColumns {
        let mut c = ActionColumns::default();
        let placements = |list: &[fgn_notation::Placement]| list.iter().map(ToString::to_string).collect();
        c.kind = match action {
            Action::Place { placements: p } => {
                c.placements = placements(p);
                "place"
            }
            Action::Remove { unit, square } => {
                (c.unit, c.square) = (*unit, Some(*square));
                "remove"
            }
            Action::Ready => "ready",
            Action::End => "end",
            Action::Resign => "resign",
            Action::Chat { text } => {
                c.text = Some(text.clone());
                "chat"
            }
            Action::Extra { granted } => {
                c.granted = Some(*granted);
                "extra"
            }
            Action::Timeout { color } => {
                c.color = Some(*color);
                "timeout"
            }
            Action::Result { outcome, reason } => {
                (c.result_outcome, c.result_reason) = (Some(*outcome), Some(*reason));
                "result"
            }
            Action::Seed { seed } => {
                c.seed = Some(seed.to_string());
                "seed"
            }
            Action::Salt { salt } => {
                c.salt = Some(salt.to_string());
                "salt"
            }
            Action::Move(m) => {
                (c.piece, c.from, c.to, c.capture) = (Some(m.piece), m.from, m.to, Some(m.capture));
                (c.promotion, c.check) = (m.promotion, m.check);
                "move"
            }
            Action::Buy { item, square, hidden } => {
                (c.item, c.square, c.hidden) = (Some(item.name()), *square, Some(*hidden));
                "buy"
            }
            Action::Spawn { square, object } => {
                (c.square, c.object) = (Some(*square), Some(*object));
                "spawn"
            }
            Action::Damage { square, amount } => {
                (c.square, c.amount) = (Some(*square), Some(*amount));
                "damage"
            }
            Action::Clone { square } => {
                c.square = Some(*square);
                "clone"
            }
            Action::March(m) => {
                (c.units, c.from, c.to, c.capture) =
                    (Some(m.units.to_string()), Some(m.from), Some(m.to), Some(m.capture));
                "march"
            }
            Action::Shot { from, to } => {
                (c.from, c.to) = (Some(*from), Some(*to));
                "shot"
            }
            Action::Draughts { path, capture } => {
                (c.from, c.to, c.capture) = (Some(path.from()), Some(path.to()), Some(*capture));
                c.squares = path.squares().to_vec();
                "draughts"
            }
            Action::Reveal { square, number } => {
                (c.square, c.number) = (Some(*square), Some(number.get()));
                "reveal"
            }
            Action::Spell(spell) => {
                use fgn_notation::Spell;
                c.number = Some(spell.number().get());
                c.spell = Some(match spell {
                    Spell::Skip { .. } => "skip",
                    Spell::Fury { file } => {
                        c.spell_file = Some(file.to_string());
                        "fury"
                    }
                    Spell::Potion { from, to } | Spell::Charm { from, to } => {
                        (c.from, c.to) = (Some(*from), Some(*to));
                        if matches!(spell, Spell::Potion { .. }) {
                            "potion"
                        } else {
                            "charm"
                        }
                    }
                    Spell::Firebird { square } => {
                        c.square = Some(*square);
                        "firebird"
                    }
                    Spell::Revenge { squares } => {
                        c.squares = squares.clone();
                        "revenge"
                    }
                });
                "spell"
            }
            Action::Hidden => "hidden",
            Action::See {
                square,
                piece,
                object,
                hidden,
            } => {
                c.square = Some(*square);
                if let Some(p) = piece {
                    (c.color, c.piece, c.hp, c.max_hp) = (Some(p.color), Some(p.piece), Some(p.hp), p.max);
                }
                c.object = *object;
                c.hidden = Some(*hidden);
                "see"
            }
            Action::Coins { count } => {
                c.count = Some(*count);
                "coins"
            }
            Action::Held { square } => {
                c.square = Some(*square);
                "held"
            }
            Action::Setup { color, placements: p } => {
                c.color = Some(*color);
                c.placements = placements(p);
                "setup"
            }
        };
        c
    }
}

/// One thing an event did, flat: every consequence has the same fields.
/// `before` and `after` are the values' canonical spellings as strings
/// (HP `"12"`, an object `"regen"`, a piece `"Q"`, a colour `"w"`, a phase
/// `"over"`), `null` for none; `delta` is `after - before` for the
/// counted kinds (`hp`, `max_hp`, `coins`, `charges`, `curses`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Consequence {
    /// `placed`, `removed`, `captured`, `died`, `destroyed`,
    /// `changed_sides`, `promoted`, `hp`, `max_hp`, `range`, `object`,
    /// `coins`, `charges`, `curses`, `revealed` or `status`.
    pub kind: &'static str,
    /// The square it happened on.
    pub square: Option<Square>,
    /// Whose piece, coins or charges.
    pub color: Option<Color>,
    /// Which piece.
    pub piece: Option<String>,
    /// The value before.
    pub before: Option<String>,
    /// The value after.
    pub after: Option<String>,
    /// `after - before`, for counted kinds.
    pub delta: Option<i64>,
}

fn text<T: ToString>(v: Option<T>) -> Option<String> {
    v.map(|v| v.to_string())
}

/// The consequence a change stands for, `None` for the bookkeeping an
/// analyst does not count (light, sight, turn, clocks, ...).
pub fn consequence(change: &Change) -> Option<Consequence> {
    let kind = kind(change)?;
    let c = |square, color, piece: Option<&Piece>| Consequence {
        kind,
        square,
        color,
        piece: piece.map(ToString::to_string),
        before: None,
        after: None,
        delta: None,
    };
    // HP and charges count in 64 bits and stay far below 2^63 (an HP grows
    // by at most 65535 an event from at most 65535, charges by a few
    // thousand gains from at most `u32::MAX`), so they fit a signed count.
    let signed = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let counted = |mut con: Consequence, before: i64, after: i64| {
        (con.before, con.after, con.delta) = (Some(before.to_string()), Some(after.to_string()), Some(after - before));
        Some(con)
    };
    let spelled = |mut con: Consequence, before: Option<String>, after: Option<String>| {
        (con.before, con.after) = (before, after);
        Some(con)
    };
    match change {
        Change::Placed { square, color, piece }
        | Change::Removed { square, color, piece }
        | Change::Captured { square, color, piece }
        | Change::Died { square, color, piece }
        | Change::Destroyed { square, color, piece } => Some(c(Some(*square), Some(*color), Some(piece))),
        Change::ChangedSides {
            square,
            piece,
            before,
            after,
        } => spelled(
            c(Some(*square), Some(*before), Some(piece)),
            text(Some(before)),
            text(Some(after)),
        ),
        Change::Promoted {
            square,
            color,
            before,
            after,
        } => spelled(
            c(Some(*square), Some(*color), Some(before)),
            text(Some(before)),
            text(Some(after)),
        ),
        Change::Hp {
            square,
            color,
            piece,
            before,
            after,
        }
        | Change::MaxHp {
            square,
            color,
            piece,
            before,
            after,
        } => counted(
            c(Some(*square), Some(*color), Some(piece)),
            signed(*before),
            signed(*after),
        ),
        Change::Range {
            square,
            color,
            piece,
            before,
            after,
        } => spelled(
            c(Some(*square), Some(*color), Some(piece)),
            text(Some(before)),
            text(Some(after)),
        ),
        Change::Object { square, before, after } => spelled(
            c(Some(*square), None, None),
            before.map(|o| o.name().to_string()),
            after.map(|o| o.name().to_string()),
        ),
        Change::Coins { color, before, after } | Change::Curses { color, before, after } => {
            counted(c(None, Some(*color), None), i64::from(*before), i64::from(*after))
        }
        Change::Charges { color, before, after } => {
            counted(c(None, Some(*color), None), signed(*before), signed(*after))
        }
        Change::Revealed {
            square,
            color,
            before,
            after,
        } => spelled(c(Some(*square), Some(*color), None), text(*before), text(*after)),
        Change::Status { before, after } => spelled(
            c(None, None, None),
            Some(phase_parts(*before).0.to_string()),
            Some(phase_parts(*after).0.to_string()),
        ),
        // `kind` has sorted out every other change.
        _ => None,
    }
}

/// The kind of consequence a change is (its `type` in docs/json.md §14),
/// `None` for the bookkeeping an analyst does not count.
fn kind(change: &Change) -> Option<&'static str> {
    Some(match change {
        Change::Placed { .. } => "placed",
        Change::Removed { .. } => "removed",
        Change::Captured { .. } => "captured",
        Change::Died { .. } => "died",
        Change::Destroyed { .. } => "destroyed",
        Change::ChangedSides { .. } => "changed_sides",
        Change::Promoted { .. } => "promoted",
        Change::Hp { .. } => "hp",
        Change::MaxHp { .. } => "max_hp",
        Change::Range { .. } => "range",
        Change::Object { .. } => "object",
        Change::Coins { .. } => "coins",
        Change::Charges { .. } => "charges",
        Change::Curses { .. } => "curses",
        Change::Revealed { .. } => "revealed",
        Change::Status { .. } => "status",
        // Bookkeeping of the positions and the shared rules: listed by
        // name so that a kind added to `Change` is decided on here.
        Change::Moved { .. }
        | Change::Seen { .. }
        | Change::Unseen { .. }
        | Change::Unmoved { .. }
        | Change::Origin { .. }
        | Change::Light { .. }
        | Change::Sight { .. }
        | Change::Spawnable { .. }
        | Change::MovesLeft { .. }
        | Change::Shop { .. }
        | Change::LateShop { .. }
        | Change::ToMove { .. }
        | Change::Owed { .. }
        | Change::Moving { .. }
        | Change::Board { .. }
        | Change::Merchants { .. }
        | Change::InCheck { .. }
        | Change::HiddenSetups { .. }
        | Change::Movement { .. }
        | Change::Fired { .. }
        | Change::Magic { .. }
        | Change::CaptureRecord { .. }
        | Change::RevealsOwed { .. }
        | Change::SpellsDue { .. }
        | Change::Returnable { .. }
        | Change::Turn { .. }
        | Change::Salt { .. }
        | Change::Number { .. }
        | Change::Clock { .. }
        | Change::TurnStarted { .. }
        | Change::Game { .. }
        | Change::Viewer { .. } => return None,
    })
}

/// The rows of a log read from `file`: every event, replayed under its
/// own rules as far as they accept it, or the one row of a file that
/// cannot be read ([`each_row`]).
pub fn rows(parsed: &Parsed, file: Option<&str>) -> Vec<EventRow> {
    let summary = crate::summary::summarize(parsed);
    let mut out = Vec::with_capacity(parsed.document.game.events.len().max(1));
    each_row(parsed, &summary, file, |row| out.push(row));
    out
}

/// [`rows`] handed to `each` one at a time, in event order, for a writer
/// that does not hold them all (a long log's rows take many times its
/// text; issue 36), with the log's summary already made. A log that
/// cannot be replayed (a view, a header at fault) gives its events
/// unapplied; a file with a syntax error gives one row of kind
/// [`RowKind::Unreadable`] carrying its error, and no event rows (the
/// events read before the error are not the log's).
pub fn each_row(parsed: &Parsed, summary: &Summary, file: Option<&str>, mut each: impl FnMut(EventRow)) {
    let facts = Arc::new(FileFacts::of(summary, file));
    let doc = &parsed.document;
    if !parsed.is_ok() {
        let mut row = row(&facts, doc, 0, None);
        row.kind = RowKind::Unreadable;
        return each(row);
    }
    let game = &doc.game;
    let mut replay = Replay::new(&game.header).ok();
    let mut hashes = fgn_replay::HashTrail::new(None);
    for (index, event) in game.events.iter().enumerate() {
        let applied = replay.as_mut().map(|r| r.apply_changes(event));
        let mut row = row(&facts, doc, index, Some(event));
        match (applied, &replay) {
            (Some(Ok(changes)), Some(r)) => {
                row.applied = true;
                row.consequences = changes.iter().filter_map(consequence).collect();
                row.counts = EventCounts::of(event, &changes);
                let (phase, decision) = phase_parts(r.phase());
                row.phase = Some(phase);
                (row.outcome, row.reason) = (decision.map(|d| d.0), decision.map(|d| d.1));
                row.state_hash = Some(hashes.after(r, Some(event)));
            }
            // The first event the rules refuse ends the replay: the state
            // after later events is not defined.
            _ => replay = None,
        }
        each(row);
    }
}

fn row(facts: &Arc<FileFacts>, doc: &Document, index: usize, event: Option<&Event>) -> EventRow {
    EventRow {
        kind: RowKind::Event,
        facts: Arc::clone(facts),
        index,
        line: event.map_or(0, |_| doc.event_lines.get(index).copied().unwrap_or(0)),
        n: event.map_or(0, |e| e.n.0),
        actor: event.map(|e| e.actor),
        event: event.map(ToString::to_string).unwrap_or_default(),
        clock_ms: event.and_then(|e| e.clock_ms.map(|c| c.0)),
        action: event.map(|e| ActionColumns::of(&e.action)).unwrap_or_default(),
        applied: false,
        counts: EventCounts::default(),
        consequences: Vec::new(),
        phase: None,
        outcome: None,
        reason: None,
        state_hash: None,
    }
}

/// The fields of a consequence in the `consequences` column.
const CONSEQUENCE_FIELDS: [Field; 7] = [
    field("kind", Scalar::Enum, false),
    field("square", Scalar::Str, true),
    field("color", Scalar::Enum, true),
    field("piece", Scalar::Str, true),
    field("before", Scalar::Str, true),
    field("after", Scalar::Str, true),
    field("delta", Scalar::Int, true),
];

const fn field(name: &'static str, ty: Scalar, nullable: bool) -> Field {
    Field { name, ty, nullable }
}

/// A column written by default: never null.
const fn dense(
    name: &'static str,
    ty: Scalar,
    doc: &'static str,
    get: for<'a> fn(&'a EventRow) -> Cell<'a>,
) -> Column<EventRow> {
    Column {
        name,
        ty: ColumnType::Scalar(ty),
        nullable: false,
        default: true,
        doc,
        get,
    }
}

/// A column written only when asked for by `--columns`: null where it does
/// not apply.
const fn sparse(
    name: &'static str,
    ty: Scalar,
    doc: &'static str,
    get: for<'a> fn(&'a EventRow) -> Cell<'a>,
) -> Column<EventRow> {
    Column {
        name,
        ty: ColumnType::Scalar(ty),
        nullable: true,
        default: false,
        doc,
        get,
    }
}

/// A list column written only when asked for (`[]` where it does not
/// apply, never null).
const fn list(
    name: &'static str,
    ty: ColumnType,
    doc: &'static str,
    get: for<'a> fn(&'a EventRow) -> Cell<'a>,
) -> Column<EventRow> {
    Column {
        name,
        ty,
        nullable: false,
        default: false,
        doc,
        get,
    }
}

/// A value as fgn's JSON spells it, null for none.
fn spelled<'a, T: serde::Serialize>(v: Option<T>) -> Cell<'a> {
    Cell::or_null(v, |v| Cell::spelled(&v))
}

fn squares(list: &[Square]) -> Cell<'_> {
    Cell::List(list.iter().map(|s| Cow::Owned(s.to_string())).collect())
}

fn fault(r: &EventRow) -> Option<&LogFault> {
    r.facts.fault.as_ref()
}

/// The events table: one row per event, and one per file that cannot be
/// read (docs/analysis.md lists these columns, and a test holds the list
/// to this definition).
pub static EVENTS: Table<EventRow> = Table {
    name: "events",
    columns: &EVENT_COLUMNS,
    partition: "game",
};

static EVENT_COLUMNS: [Column<EventRow>; 57] = [
    dense("type", Scalar::Enum, "`event`, or `unreadable` for the one row of a file that cannot be read as FGN", |r| Cell::str(r.kind.name())),
    dense("file", Scalar::Str, "the file, as given or found below a folder given; `-` for standard input", |r| Cell::str(r.facts.file.as_deref().unwrap_or("-"))),
    dense("game", Scalar::Enum, "the `Game` tag; `\"\"` without one", |r| Cell::str(r.facts.game.as_deref().unwrap_or(""))),
    dense("status", Scalar::Enum, "the file's status: `valid`, `invalid` or `unsupported` (its summary's)", |r| Cell::spelled(&r.facts.status)),
    dense("index", Scalar::Int, "the event's 0-based index in its log (0 in an `unreadable` row)", |r| Cell::count(r.index)),
    dense("line", Scalar::Int, "its 1-based line in the file (0 in an `unreadable` row)", |r| Cell::Int(r.line.into())),
    dense("n", Scalar::Int, "its move number", |r| Cell::Int(r.n.into())),
    dense("actor", Scalar::Enum, "`w`, `b` or `@`; `\"\"` in an `unreadable` row", |r| r.actor.map_or(Cell::str(""), |a| Cell::spelled(&a))),
    dense("event", Scalar::Str, "the event line in canonical spelling, without comment", |r| Cell::str(&r.event)),
    dense("action", Scalar::Enum, "the action's type (docs/json.md §6): `move`, `spell`, `buy`, ...", |r| Cell::str(r.action.kind)),
    dense("applied", Scalar::Bool, "whether the rules accepted the event; false from a log's first rule error on, and in a log that cannot be replayed", |r| Cell::Bool(r.applied)),
    dense("captures", Scalar::Int, "pieces of the other side the side acting took (docs/json.md §16); 0 for an event not applied", |r| Cell::count(r.counts.captures)),
    dense("deaths", Scalar::Int, "open-world-chess pieces whose HP ran out, whoever's and whatever killed them", |r| Cell::count(r.counts.deaths)),
    dense("coins_spent", Scalar::Int, "open-world-chess coins paid at a merchant (the falls of either side's coin count)", |r| Cell::count(r.counts.coins_spent)),
    dense("coins_gained", Scalar::Int, "open-world-chess coins picked up (the rises of either side's coin count)", |r| Cell::count(r.counts.coins_gained)),
    dense("spells_cast", Scalar::Int, "magic-draughts spells cast: 1 for a `spell` event other than a declined one (`skip`)", |r| Cell::count(r.counts.spells_cast)),
    dense("charges_spent", Scalar::Int, "great-war-chess charges paid for an attack or shot (1 each, successful or not)", |r| Cell::count(r.counts.charges_spent)),
    dense("error_kind", Scalar::Enum, "the file's first fault: `syntax`, `rule` or `unsupported`; `\"\"` for a valid log", |r| fault(r).map_or(Cell::str(""), |f| Cell::spelled(&f.kind))),
    dense("error_line", Scalar::Int, "its 1-based line; 0 for a valid log", |r| Cell::Int(fault(r).map_or(0, |f| f.line.into()))),
    dense("error_column", Scalar::Int, "its 1-based column; 0 for a valid log", |r| Cell::Int(fault(r).map_or(0, |f| f.column.into()))),
    dense("error_message", Scalar::Str, "what is wrong, as `fgn validate` words it; `\"\"` for a valid log", |r| Cell::str(fault(r).map_or("", |f| f.message.as_str()))),
    sparse("error_rule", Scalar::Enum, "the rule the first fault breaks (docs/rules.md); null for a syntax error or a valid log", |r| spelled(fault(r).and_then(|f| f.rule))),
    sparse("error_index", Scalar::Int, "the 0-based index of the event at fault; null where the fault is in the header, at the end, or a syntax error", |r| Cell::or_null(fault(r).and_then(|f| f.index), Cell::count)),
    sparse("clock_ms", Scalar::Int, "the event's clock annotation in milliseconds", |r| Cell::or_null(r.clock_ms, Cell::count)),
    sparse("piece", Scalar::Enum, "the piece moved (`move`) or seen (`see`)", |r| spelled(r.action.piece)),
    sparse("color", Scalar::Enum, "the colour of `timeout`, `setup` and a seen piece", |r| spelled(r.action.color)),
    sparse("hp", Scalar::Int, "a seen piece's HP", |r| Cell::or_null(r.action.hp, Cell::count)),
    sparse("max_hp", Scalar::Int, "the maximum HP of a seen piece of the viewer's own", |r| Cell::or_null(r.action.max_hp, Cell::count)),
    sparse("from", Scalar::Str, "where a move, march, shot, draughts move, Potion or Charm starts", |r| spelled(r.action.from)),
    sparse("to", Scalar::Str, "where it ends", |r| spelled(r.action.to)),
    sparse("square", Scalar::Str, "the one square of `remove`, `buy`, `spawn`, `damage`, `clone`, `reveal`, `see`, `held` and Firebird's Call", |r| spelled(r.action.square)),
    list("squares", ColumnType::StrList, "a draughts path, or Koschei's Revenge's squares", |r| squares(&r.action.squares)),
    list("placements", ColumnType::StrList, "a `place` or `setup` list as written (`Ke1`)", |r| Cell::List(r.action.placements.iter().map(|p| Cow::Borrowed(p.as_str())).collect())),
    sparse("capture", Scalar::Bool, "whether a move, march or draughts move is written as a capture", |r| Cell::or_null(r.action.capture, Cell::Bool)),
    sparse("promotion", Scalar::Enum, "the promotion written", |r| spelled(r.action.promotion)),
    sparse("check", Scalar::Enum, "`check` or `mate` written", |r| spelled(r.action.check)),
    sparse("units", Scalar::Str, "the units that march", |r| Cell::or_null(r.action.units.as_deref(), Cell::str)),
    sparse("unit", Scalar::Enum, "the unit a great-war-chess `remove` takes back", |r| spelled(r.action.unit)),
    sparse("item", Scalar::Enum, "what `buy` buys", |r| Cell::or_null(r.action.item, Cell::str)),
    sparse("hidden", Scalar::Bool, "whether a purchase's target or a seen square is hidden", |r| Cell::or_null(r.action.hidden, Cell::Bool)),
    sparse("object", Scalar::Enum, "a spawned or seen object", |r| Cell::or_null(r.action.object.map(|o| o.name()), Cell::str)),
    sparse("amount", Scalar::Int, "a damage roll", |r| Cell::or_null(r.action.amount, Cell::count)),
    sparse("count", Scalar::Int, "the viewer's coins that `coins` tells (in a view)", |r| Cell::or_null(r.action.count, Cell::count)),
    sparse("number", Scalar::Int, "a revealed checker's number, or a spell's number", |r| Cell::or_null(r.action.number, Cell::count)),
    sparse("spell", Scalar::Enum, "the spell's name", |r| Cell::or_null(r.action.spell, Cell::str)),
    sparse("spell_file", Scalar::Str, "Gorynych's Fury's file", |r| Cell::or_null(r.action.spell_file.as_deref(), Cell::str)),
    sparse("result_outcome", Scalar::Enum, "a `result` action's outcome", |r| spelled(r.action.result_outcome)),
    sparse("result_reason", Scalar::Enum, "a `result` action's reason", |r| spelled(r.action.result_reason)),
    sparse("text", Scalar::Str, "a chat message", |r| Cell::or_null(r.action.text.as_deref(), Cell::str)),
    sparse("granted", Scalar::Bool, "an `extra` answer", |r| Cell::or_null(r.action.granted, Cell::Bool)),
    sparse("seed", Scalar::Str, "a revealed seed (hex)", |r| Cell::or_null(r.action.seed.as_deref(), Cell::str)),
    sparse("salt", Scalar::Str, "a player's salt (hex)", |r| Cell::or_null(r.action.salt.as_deref(), Cell::str)),
    list("consequences", ColumnType::Structs(&CONSEQUENCE_FIELDS), "what the event changed, of the kinds docs/json.md §16 lists", |r| Cell::Structs(r.consequences.iter().map(consequence_cells).collect())),
    sparse("phase", Scalar::Enum, "where the game stands after the event: `playing`, `awaiting-extra`, `result-due` or `over`; null when not applied", |r| Cell::or_null(r.phase, Cell::str)),
    sparse("outcome", Scalar::Enum, "the outcome decided or recorded after the event", |r| spelled(r.outcome)),
    sparse("reason", Scalar::Enum, "its reason", |r| spelled(r.reason)),
    sparse("state_hash", Scalar::Str, "the state hash after the event (`fgn hash --states`); null when not applied", |r| spelled(r.state_hash)),
];

fn consequence_cells(c: &Consequence) -> Vec<Cell<'_>> {
    vec![
        Cell::str(c.kind),
        spelled(c.square),
        spelled(c.color),
        Cell::or_null(c.piece.as_deref(), Cell::str),
        Cell::or_null(c.before.as_deref(), Cell::str),
        Cell::or_null(c.after.as_deref(), Cell::str),
        Cell::or_null(c.delta, Cell::Int),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_is_counted_and_later_events_after_an_error_are_unapplied() {
        let text = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Pe4\n0 b place Ke8 Pd5\n0 w ready\n0 b ready\n1 w e4xd5\n1 b Ke8-e9\n2 w d5-d6\n";
        let rows = rows(&fgn_notation::parse(text.as_bytes()), Some("x.fgn"));
        assert_eq!(rows.len(), 7);
        let capture = &rows[4];
        assert_eq!(
            (capture.counts.captures, capture.action.kind, capture.line),
            (1, "move", 9)
        );
        assert_eq!(capture.consequences[0].kind, "captured");
        assert_eq!(capture.consequences[0].piece.as_deref(), Some("P"));
        assert!(capture.state_hash.is_some());
        assert!(
            !rows[5].applied && !rows[6].applied,
            "the replay stops at the first refused event"
        );
        assert_eq!(rows[6].state_hash, None);
        assert_eq!(
            rows[6].facts.status,
            Status::Invalid,
            "every row carries its file's status"
        );
    }

    #[test]
    fn a_file_with_a_syntax_error_is_one_unreadable_row_with_its_error() {
        let text = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke1\n1 w e2-z99\n";
        let rows = rows(&fgn_notation::parse(text.as_bytes()), Some("bad.fgn"));
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        assert_eq!((row.kind, row.facts.status), (RowKind::Unreadable, Status::Invalid));
        let mut json = String::new();
        EVENTS.write_json(&EVENTS.default_selection(), row, &mut json);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["type"], "unreadable");
        assert_eq!(
            (value["error_kind"].as_str(), value["error_line"].as_u64()),
            (Some("syntax"), Some(5))
        );
        assert!(
            value.as_object().unwrap().values().all(|v| !v.is_null()),
            "no default column is null: {json}"
        );
    }
}
