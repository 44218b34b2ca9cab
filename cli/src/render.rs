//! Drawing a replayed position for `fgn show`: text for the terminal, JSON for programs.

use std::fmt::Write as _;

use fgn_notation::ObjectKind;
use fgn_notation::{Color, Square};
use fgn_replay::magic::{spell_name, DraughtsState};
use fgn_replay::owc::OpenWorld;
use fgn_replay::survival::{SurvivalKnowledge, SurvivalState};
use fgn_replay::{KnownPosition, Position, Progress, Replay, Viewer};

use crate::cmd_replay::{phase_text, turn_text};

/// A board of `files` x `ranks` with coordinates on all sides; `cell` gives
/// each square's symbol, `None` for an empty one. Dark empty squares are
/// dotted and light ones blank, so the grid stays readable when large.
fn grid(files: u8, ranks: u8, mut cell: impl FnMut(Square) -> Option<char>) -> String {
    let mut out = String::new();
    let letters: String = (0..files).map(|f| format!(" {}", (b'a' + f) as char)).collect();
    let _ = writeln!(out, "    {letters}");
    for r in (0..ranks).rev() {
        let _ = write!(out, "{:>3} ", r + 1);
        for f in 0..files {
            let sq = Square::new(f, r).expect("boards are at most 26x26");
            let c = cell(sq).unwrap_or(if (f + r) % 2 == 0 { '·' } else { ' ' });
            let _ = write!(out, " {c}");
        }
        let _ = writeln!(out, " {}", r + 1);
    }
    let _ = writeln!(out, "    {letters}");
    out
}

fn draughts_symbol(color: Color, king: bool) -> char {
    match (color, king) {
        (Color::White, false) => '⛀',
        (Color::White, true) => '⛁',
        (Color::Black, false) => '⛂',
        (Color::Black, true) => '⛃',
    }
}

fn number_text(n: Option<u8>) -> String {
    match n {
        None => "not revealed yet".into(),
        Some(0) => "plain".into(),
        Some(n) => format!("{n}, {}", spell_name(n)),
    }
}

fn spells_text(spells: &[u8]) -> String {
    spells
        .iter()
        .map(|&n| format!("{n} ({})", spell_name(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn draughts_notes(out: &mut String, game: &DraughtsState) {
    if !game.magic {
        let _ = writeln!(out, "plain Russian draughts (magic off)");
        return;
    }
    for color in [Color::White, Color::Black] {
        let spells = &game.spells_due[color];
        if !spells.is_empty() {
            let _ = writeln!(
                out,
                "{} casts before its next move: {}",
                color.name(),
                spells_text(spells)
            );
        }
    }
    for color in [Color::White, Color::Black] {
        let taken: Vec<String> = game
            .captured
            .iter()
            .filter(|c| c.color == color)
            .map(|c| format!("{} ({})", c.square, number_text(c.number)))
            .collect();
        if !taken.is_empty() {
            let _ = writeln!(out, "{}'s captured checkers: {}", color.name(), taken.join("; "));
        }
    }
}

fn survival_grid(position: &SurvivalState) -> String {
    grid(position.board.files, position.board.ranks, |sq| {
        position.pieces.iter().find(|p| p.square == sq).map(|p| {
            fgn_replay::survival::board::Piece {
                color: p.color,
                kind: p.piece,
            }
            .symbol()
        })
    })
}

fn survival_notes(out: &mut String, position: &SurvivalState, progress: &Progress) {
    if position.in_check && progress.turn.is_some() {
        let _ = writeln!(out, "check");
    }
}

fn draughts_grid(game: &DraughtsState) -> String {
    grid(8, 8, |sq| {
        game.pieces
            .iter()
            .find(|p| p.square == sq)
            .map(|p| draughts_symbol(p.color, p.king))
    })
}

fn hidden_setups_note(out: &mut String, known: &SurvivalKnowledge) {
    if !known.hidden_setups.is_empty() {
        let who: Vec<&str> = known.hidden_setups.iter().map(|c| c.name()).collect();
        let _ = writeln!(out, "(hidden until both are ready: {}'s setup)", who.join(" and "));
    }
}

fn object_letter(o: ObjectKind) -> char {
    match o {
        ObjectKind::Regen => 'r',
        ObjectKind::Hp => 'h',
        ObjectKind::Damage => 'd',
        ObjectKind::Kinghp => 'k',
        ObjectKind::Clone => 'c',
        ObjectKind::Coin => '$',
    }
}

/// What `viewer` knows of `sq`: own pieces always; other squares only when
/// the viewer sees them (lit and near one of its pieces); merchants always.
fn owc_known(game: &OpenWorld, viewer: Option<Color>, sq: Square) -> bool {
    match viewer {
        None => true,
        Some(v) => game.piece(sq).is_some_and(|u| u.color == v) || game.sees(v, sq),
    }
}

/// An open-world-chess board: three characters a square, a piece with its
/// HP (`♘5`), an object letter, `M` for a merchant, `·` for a lit empty
/// square, and shading for fog or what the viewer cannot see.
fn owc_grid(game: &OpenWorld, viewer: Option<Color>) -> String {
    let (files, ranks) = game.size();
    let mut out = String::new();
    let letters: String = (0..files).map(|f| format!(" {} ", (b'a' + f) as char)).collect();
    let _ = writeln!(out, "    {letters}");
    for r in (0..ranks).rev() {
        let _ = write!(out, "{:>3} ", r + 1);
        for f in 0..files {
            let sq = Square::new(f, r).expect("on board");
            let cell = game.cell(sq);
            let known = owc_known(game, viewer, sq);
            let text = match (game.piece(sq), known) {
                (Some(u), true) => {
                    let symbol = fgn_replay::survival::board::Piece {
                        color: u.color,
                        kind: u.kind,
                    }
                    .symbol();
                    if u.hp > 99 {
                        format!("{symbol}**")
                    } else {
                        format!("{symbol}{:<2}", u.hp)
                    }
                }
                _ if cell.merchant => " M ".to_string(),
                (_, false) => "░░░".to_string(),
                _ if !cell.lit => "░░░".to_string(),
                _ => match cell.object {
                    Some(o) => format!(" {} ", object_letter(o)),
                    None => " · ".to_string(),
                },
            };
            out.push_str(&text);
        }
        let _ = writeln!(out, " {}", r + 1);
    }
    let _ = writeln!(out, "    {letters}");
    let _ = writeln!(
        out,
        "objects: r regen, h hp, d damage, k kinghp, c clone, $ coin; M merchant; ░ fog or unseen"
    );
    out
}

/// The position as text: the board with coordinates, then who is to move,
/// check, spells and the result. A player's view is drawn from what it
/// knows, the full view from the state.
pub fn text(replay: &Replay, viewer: Option<Color>, shown: usize, last: Option<&(String, u32)>) -> String {
    let state = replay.state();
    let knowledge = viewer.map(|c| replay.knowledge(Viewer::of(c)));
    let mut notes = String::new();
    let mut out = match (&state.position, knowledge.as_ref().map(|k| &k.position)) {
        (Position::Survival(p), None) => {
            survival_notes(&mut notes, p, &state.progress);
            survival_grid(p)
        }
        (_, Some(KnownPosition::Survival(k))) => {
            survival_notes(&mut notes, &k.position, &state.progress);
            hidden_setups_note(&mut notes, k);
            survival_grid(&k.position)
        }
        (Position::Draughts(p), None) | (_, Some(KnownPosition::Draughts(p))) => {
            draughts_notes(&mut notes, p);
            draughts_grid(p)
        }
        (Position::OpenWorld(_), _) | (_, Some(KnownPosition::OpenWorld(_))) => {
            let Replay::OpenWorld(s) = replay else {
                unreachable!("an open-world-chess position comes from its replay")
            };
            owc_notes(&mut notes, &s.engine, viewer);
            owc_grid(&s.engine, viewer)
        }
    };
    let _ = writeln!(out);
    match last {
        Some((event, line)) => {
            let _ = writeln!(out, "after event {shown} (line {line}): {event}");
        }
        None => {
            let _ = writeln!(out, "at the start (no events)");
        }
    }
    let _ = writeln!(out, "{}", turn_text(replay));
    out.push_str(&notes);
    let _ = writeln!(out, "result: {}", phase_text(replay));
    let _ = writeln!(
        out,
        "{}: {}",
        if viewer.is_some() {
            "knowledge hash"
        } else {
            "state hash"
        },
        hash(replay, viewer)
    );
    out
}

fn owc_notes(out: &mut String, game: &OpenWorld, viewer: Option<Color>) {
    let _ = writeln!(out, "moves left in this turn: {}", game.moves_left());
    for c in [Color::White, Color::Black] {
        // A player's coins are its own secret.
        if viewer.is_none_or(|v| v == c) {
            let _ = writeln!(out, "{} has {} coins", c.name(), game.coins(c));
        }
    }
}

/// The state hash, or for a player the hash of what it knows.
fn hash(replay: &Replay, viewer: Option<Color>) -> fgn_replay::Digest {
    match viewer {
        None => replay.state_hash(),
        Some(c) => replay.knowledge_hash(Viewer::of(c)),
    }
}

/// The position as JSON: the serialised state (or, for a player, what it
/// knows) with its hash (docs/json.md, "fgn show").
pub fn json(replay: &Replay, viewer: Option<Color>, shown: usize) -> serde_json::Value {
    match viewer {
        None => serde_json::json!({
            "events_applied": shown,
            "hash": replay.state_hash(),
            "state": replay.state(),
        }),
        Some(c) => serde_json::json!({
            "events_applied": shown,
            "hash": replay.knowledge_hash(Viewer::of(c)),
            "knowledge": replay.knowledge(Viewer::of(c)),
        }),
    }
}
