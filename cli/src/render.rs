//! Drawing a replayed position for `fgn show`: text for the terminal, JSON for programs.

use std::fmt::Write as _;

use fgn_notation::ObjectKind;
use fgn_notation::{Color, Square};
use fgn_replay::gwc::GreatWarState;
use fgn_replay::magic::{spell_name, DraughtsState};
use fgn_replay::owc;
use fgn_replay::survival::SurvivalState;
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

/// The Unicode chess symbol of a piece.
fn chess_symbol(color: Color, kind: fgn_notation::PieceKind) -> char {
    use fgn_notation::PieceKind::*;
    let i = match kind {
        King => 0,
        Queen => 1,
        Rook => 2,
        Bishop => 3,
        Knight => 4,
        Pawn => 5,
    };
    match color {
        Color::White => ['♔', '♕', '♖', '♗', '♘', '♙'][i],
        Color::Black => ['♚', '♛', '♜', '♝', '♞', '♟'][i],
    }
}

/// A great-war-chess board: each square shows its stack's letters (`I`,
/// `IC`, `ICA`, `IF` for infantry on a fortification), upper case for
/// white and lower case for black; empty squares are dotted. Squares are
/// four characters wide so that the largest stack fits.
fn gwc_grid(p: &GreatWarState) -> String {
    let (files, ranks) = (p.board.files, p.board.ranks);
    let mut out = String::new();
    let letters: String = (0..files).map(|f| format!(" {:<3}", (b'a' + f) as char)).collect();
    let _ = writeln!(out, "    {letters}");
    for r in (0..ranks).rev() {
        let _ = write!(out, "{:>3} ", r + 1);
        for f in 0..files {
            let sq = Square::new(f, r).expect("boards are at most 26x26");
            let text = match p.stacks.iter().find(|s| s.square == sq) {
                Some(stack) => stack
                    .units
                    .iter()
                    .map(|u| match stack.color {
                        Color::White => u.char(),
                        Color::Black => u.char().to_ascii_lowercase(),
                    })
                    .collect(),
                None => "·".to_string(),
            };
            let _ = write!(out, " {text:<3}");
        }
        let _ = writeln!(out, " {}", r + 1);
    }
    let _ = writeln!(out, "    {letters}");
    out
}

fn gwc_notes(out: &mut String, p: &GreatWarState) {
    let _ = writeln!(out, "charges: white {}, black {}", p.charges.white, p.charges.black);
    if let Some(m) = &p.moved {
        let units: String = m.units.iter().map(|u| u.char()).collect();
        let _ = writeln!(out, "this turn's movement is used ({units} on {})", m.square);
    }
    if let Some(sq) = p.fired_from {
        let _ = writeln!(out, "this turn's shot is used (fired from {sq})");
    }
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
        position
            .pieces
            .iter()
            .find(|p| p.square == sq)
            .map(|p| chess_symbol(p.color, p.piece))
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

fn hidden_setups_note(out: &mut String, hidden_setups: &[Color]) {
    if !hidden_setups.is_empty() {
        let who: Vec<&str> = hidden_setups.iter().map(|c| c.name()).collect();
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

/// What an open-world-chess board shows on one square.
enum OwcCell {
    /// A piece with its HP.
    Piece(Color, fgn_notation::PieceKind, u16),
    /// A merchant square (known to everyone).
    Merchant,
    /// An object lying on a lit square.
    Object(ObjectKind),
    /// A lit, empty square.
    Empty,
    /// Fog, or a square the viewer does not see.
    Unknown,
}

/// An open-world-chess board: three characters a square, a piece with its
/// HP (`♘5`), an object letter, `M` for a merchant, `·` for a lit empty
/// square, and shading for fog or what the viewer cannot see.
fn owc_grid(size: fgn_notation::BoardSize, cell: impl Fn(Square) -> OwcCell) -> String {
    let (files, ranks) = (size.files, size.ranks);
    let mut out = String::new();
    let letters: String = (0..files).map(|f| format!(" {} ", (b'a' + f) as char)).collect();
    let _ = writeln!(out, "    {letters}");
    for r in (0..ranks).rev() {
        let _ = write!(out, "{:>3} ", r + 1);
        for f in 0..files {
            let sq = Square::new(f, r).expect("on board");
            let text = match cell(sq) {
                OwcCell::Piece(color, kind, hp) => {
                    let symbol = chess_symbol(color, kind);
                    if hp > 99 {
                        format!("{symbol}**")
                    } else {
                        format!("{symbol}{hp:<2}")
                    }
                }
                OwcCell::Merchant => " M ".to_string(),
                OwcCell::Unknown => "░░░".to_string(),
                OwcCell::Object(o) => format!(" {} ", object_letter(o)),
                OwcCell::Empty => " · ".to_string(),
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

/// The referee's open-world-chess board: every piece, object and fog.
fn owc_state_grid(p: &owc::State) -> String {
    owc_grid(p.public.board.0, |sq| {
        if let Some(u) = p.pieces.iter().find(|u| u.square == sq) {
            return OwcCell::Piece(u.color, u.piece, u.hp);
        }
        if p.public.merchants.contains(&sq) {
            return OwcCell::Merchant;
        }
        match p.lit.iter().find(|l| l.square == sq) {
            Some(l) => l.object.map_or(OwcCell::Empty, OwcCell::Object),
            None => OwcCell::Unknown,
        }
    })
}

/// A player's open-world-chess board: its own pieces, and what it sees.
fn owc_known_grid(k: &owc::Knowledge) -> String {
    owc_grid(k.public.board.0, |sq| {
        if let Some(u) = k.own.iter().find(|u| u.square == sq) {
            return OwcCell::Piece(u.color, u.piece, u.hp);
        }
        let seen = k.seen.iter().find(|s| s.square == sq);
        if let Some(e) = seen.and_then(|s| s.enemy.as_ref()) {
            return OwcCell::Piece(e.color, e.piece, e.hp);
        }
        if k.public.merchants.contains(&sq) {
            return OwcCell::Merchant;
        }
        match seen {
            Some(s) => s.object.map_or(OwcCell::Empty, OwcCell::Object),
            None => OwcCell::Unknown,
        }
    })
}

fn owc_notes(out: &mut String, progress: &Progress, public: &owc::Public, coins: &[(Color, u32)]) {
    if progress.turn.is_some() {
        let _ = writeln!(out, "moves left in this turn: {}", public.moves_left);
    }
    for c in [Color::White, Color::Black] {
        if public.curses[c] > 0 {
            let _ = writeln!(
                out,
                "{} is cursed: {} move(s) fewer next turn",
                c.name(),
                public.curses[c]
            );
        }
    }
    for (c, n) in coins {
        let _ = writeln!(out, "{} has {n} coins", c.name());
    }
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
            hidden_setups_note(&mut notes, &k.hidden_setups);
            survival_grid(&k.position)
        }
        (Position::GreatWar(p), None) => {
            gwc_notes(&mut notes, p);
            gwc_grid(p)
        }
        (_, Some(KnownPosition::GreatWar(k))) => {
            gwc_notes(&mut notes, &k.position);
            hidden_setups_note(&mut notes, &k.hidden_setups);
            gwc_grid(&k.position)
        }
        (Position::Draughts(p), None) | (_, Some(KnownPosition::Draughts(p))) => {
            draughts_notes(&mut notes, p);
            draughts_grid(p)
        }
        (Position::OpenWorld(p), None) => {
            owc_notes(
                &mut notes,
                &state.progress,
                &p.public,
                &[(Color::White, p.coins.white), (Color::Black, p.coins.black)],
            );
            owc_state_grid(p)
        }
        (_, Some(KnownPosition::OpenWorld(k))) => {
            // A player's coins are its own secret.
            let own: Vec<(Color, u32)> = k.viewer.color().zip(k.coins).into_iter().collect();
            owc_notes(&mut notes, &state.progress, &k.public, &own);
            owc_known_grid(k)
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
    let salts = &state.progress.salts;
    if fgn_replay::seed::is_salted(salts) {
        // Salts are public: every viewer is shown both.
        let text = |s: &Option<fgn_notation::Salt>| s.map_or("none".to_string(), |s| s.to_string());
        let _ = writeln!(out, "salts: white {}, black {}", text(&salts.white), text(&salts.black));
    }
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
