//! A log as a table: one flat row per event with its action in typed
//! columns, what the rules made of it (captures, deaths, HP, coins,
//! charges, reveals, the result) and the state hash after it, for `fgn
//! events` (docs/json.md §16).
//!
//! The shape is fixed so that DuckDB's `read_json_auto` and pandas read
//! the rows without surprises: every column is in every row, `null` where
//! it does not apply, and has one JSON type; the consequences are an array
//! of structs that all have the same fields. The account of an event is
//! [`Replay::apply_changes`]'s, narrowed here to the kinds an analyst
//! counts.

use fgn_notation::{Action, Actor, Color, Document, Event, ObjectKind, Outcome, PieceKind, Reason, Square, UnitKind};
use serde::Serialize;

use fgn_replay::changes::{Change, Piece};
use fgn_replay::{Digest, Replay};

use crate::counts::EventCounts;
use crate::summary::phase_parts;

/// One event of a log as a row.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct EventRow {
    /// The file the log was read from (`None` for standard input).
    pub file: Option<String>,
    /// The `Game` tag.
    pub game: Option<String>,
    /// The event's 0-based index in the log.
    pub index: usize,
    /// Its 1-based line in the file.
    pub line: u32,
    /// The move number it carries.
    pub n: u32,
    /// `w`, `b` or `@`.
    pub actor: Actor,
    /// The event line in canonical spelling, without comment.
    pub event: String,
    /// The clock annotation in milliseconds.
    pub clock_ms: Option<u64>,
    /// The action, typed.
    #[serde(flatten)]
    pub action: ActionColumns,
    /// Whether the rules accepted it (false from the first rule error on,
    /// and for every event of a log that cannot be replayed).
    pub applied: bool,
    /// Pieces of the other side this event took: captured, destroyed,
    /// changed sides, or died where a player acted.
    pub captures: usize,
    /// Pieces whose HP ran out (open-world-chess), whoever acted.
    pub deaths: usize,
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
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize)]
pub struct ActionColumns {
    /// The action's `type`.
    #[serde(rename = "type")]
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
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
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
/// own rules as far as they accept it. A log that cannot be replayed (a
/// view, a header at fault) gives its events unapplied.
pub fn rows(doc: &Document, file: Option<&str>) -> Vec<EventRow> {
    let mut out = Vec::with_capacity(doc.game.events.len());
    each_row(doc, file, |row| out.push(row));
    out
}

/// [`rows`] handed to `each` one at a time, in event order, for a writer
/// that does not hold them all (a long log's rows take many times its
/// text; issue 36).
pub fn each_row(doc: &Document, file: Option<&str>, mut each: impl FnMut(EventRow)) {
    let game = &doc.game;
    let mut replay = Replay::new(&game.header).ok();
    let name = game.header.get("Game").map(str::to_string);
    let mut hashes = fgn_replay::HashTrail::new(None);
    for (index, event) in game.events.iter().enumerate() {
        let applied = replay.as_mut().map(|r| r.apply_changes(event));
        let mut row = row(file, name.clone(), doc, index, event);
        match (applied, &replay) {
            (Some(Ok(changes)), Some(r)) => {
                row.applied = true;
                row.consequences = changes.iter().filter_map(consequence).collect();
                let counts = EventCounts::of(event, &changes);
                (row.captures, row.deaths) = (counts.captures as usize, counts.deaths as usize);
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

fn row(file: Option<&str>, game: Option<String>, doc: &Document, index: usize, event: &Event) -> EventRow {
    EventRow {
        file: file.map(str::to_string),
        game,
        index,
        line: doc.event_lines.get(index).copied().unwrap_or(0),
        n: event.n.0,
        actor: event.actor,
        event: event.to_string(),
        clock_ms: event.clock_ms.map(|c| c.0),
        action: ActionColumns::of(&event.action),
        applied: false,
        captures: 0,
        deaths: 0,
        consequences: Vec::new(),
        phase: None,
        outcome: None,
        reason: None,
        state_hash: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_is_counted_and_later_events_after_an_error_are_unapplied() {
        let text = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Pe4\n0 b place Ke8 Pd5\n0 w ready\n0 b ready\n1 w e4xd5\n1 b Ke8-e9\n2 w d5-d6\n";
        let rows = rows(&fgn_notation::parse(text.as_bytes()).document, Some("x.fgn"));
        assert_eq!(rows.len(), 7);
        let capture = &rows[4];
        assert_eq!((capture.captures, capture.action.kind, capture.line), (1, "move", 9));
        assert_eq!(capture.consequences[0].kind, "captured");
        assert_eq!(capture.consequences[0].piece.as_deref(), Some("P"));
        assert!(capture.state_hash.is_some());
        assert!(
            !rows[5].applied && !rows[6].applied,
            "the replay stops at the first refused event"
        );
        assert_eq!(rows[6].state_hash, None);
    }
}
