//! Drawing a replayed position for `fgn show`: text for the terminal, JSON for programs.

use std::fmt::Write as _;

use fgn_notation::ObjectKind;
use fgn_notation::{Color, Square};
use fgn_replay::magic::{spell_name, MagicDraughts};
use fgn_replay::owc::OpenWorld;
use fgn_replay::{Replay, Turn};

use crate::cmd_replay::{phase_text, turn_text};

/// Whether `viewer` may see the piece of `owner` now. During a secret setup
/// a player sees only its own pieces; afterwards survival-chess has no fog.
fn visible(replay: &Replay, viewer: Option<Color>, owner: Color) -> bool {
    match (viewer, replay.turn()) {
        (Some(v), Turn::Setup { .. }) => v == owner,
        _ => true,
    }
}

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

fn draughts_notes(out: &mut String, game: &MagicDraughts) {
    if !game.magic() {
        let _ = writeln!(out, "plain Russian draughts (magic off)");
        return;
    }
    for color in [Color::White, Color::Black] {
        let spells = game.pending_spells(color);
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
            .captured()
            .iter()
            .filter(|c| c.color == color)
            .map(|c| format!("{} ({})", c.square, number_text(c.number)))
            .collect();
        if !taken.is_empty() {
            let _ = writeln!(out, "{}'s captured checkers: {}", color.name(), taken.join("; "));
        }
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
/// check, spells and the result.
pub fn text(replay: &Replay, viewer: Option<Color>, shown: usize, last: Option<&(String, u32)>) -> String {
    let mut out = match replay {
        Replay::Survival(s) => {
            let board = s.engine.board();
            let size = board.size();
            grid(size.files, size.ranks, |sq| {
                board
                    .piece_at(sq)
                    .filter(|p| visible(replay, viewer, p.color))
                    .map(|p| p.symbol())
            })
        }
        Replay::Draughts(s) => grid(8, 8, |sq| {
            s.engine.position().piece_at(sq).map(|(c, k)| draughts_symbol(c, k))
        }),
        Replay::OpenWorld(s) => owc_grid(&s.engine, viewer),
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
    match replay {
        Replay::Survival(s) => {
            if s.engine.in_check() && matches!(replay.turn(), Turn::Move { .. }) {
                let _ = writeln!(out, "check");
            }
        }
        Replay::Draughts(s) => draughts_notes(&mut out, &s.engine),
        Replay::OpenWorld(s) => {
            if matches!(replay.turn(), Turn::Move { .. }) {
                let _ = writeln!(out, "moves left in this turn: {}", s.engine.moves_left());
            }
            for c in [Color::White, Color::Black] {
                // A player's coins are its own secret.
                if viewer.is_none_or(|v| v == c) {
                    let _ = writeln!(out, "{} has {} coins", c.name(), s.engine.coins(c));
                }
            }
        }
    }
    let _ = writeln!(out, "result: {}", phase_text(replay));
    if let (Some(v), Turn::Setup { .. }) = (viewer, replay.turn()) {
        let _ = writeln!(
            out,
            "(as {}: the opponent's setup is hidden until both are ready)",
            v.name()
        );
    }
    out
}

/// The position as JSON.
pub fn json(replay: &Replay, viewer: Option<Color>, shown: usize) -> serde_json::Value {
    let turn = match replay.turn() {
        Turn::Setup { ready } => {
            serde_json::json!({"phase": "setup", "white_ready": ready.white, "black_ready": ready.black})
        }
        Turn::Move { side, number } => serde_json::json!({"phase": "play", "side": side.name(), "number": number.0}),
    };
    let mut value = serde_json::json!({
        "events_applied": shown,
        "view": viewer.map_or("all", Color::name),
        "turn": turn,
        "result": phase_text(replay),
    });
    let extra = match replay {
        Replay::Survival(s) => {
            let board = s.engine.board();
            let pieces: Vec<_> = board
                .pieces()
                .filter(|(_, p)| visible(replay, viewer, p.color))
                .map(|(sq, p)| {
                    serde_json::json!({"square": sq.to_string(), "color": p.color.name(), "piece": p.kind.char().to_string()})
                })
                .collect();
            serde_json::json!({
                "game": "survival-chess",
                "board": board.size().to_string(),
                "pieces": pieces,
                "check": s.engine.in_check() && matches!(replay.turn(), Turn::Move { .. }),
            })
        }
        Replay::OpenWorld(s) => {
            let game = &s.engine;
            let (files, ranks) = game.size();
            let squares: Vec<Square> = (0..ranks)
                .flat_map(|r| (0..files).map(move |f| Square::new(f, r).expect("on board")))
                .collect();
            let pieces: Vec<_> = squares
                .iter()
                .filter(|&&sq| owc_known(game, viewer, sq))
                .filter_map(|&sq| game.piece(sq).map(|u| (sq, u)))
                .map(|(sq, u)| {
                    let mut piece = serde_json::json!({"square": sq.to_string(), "color": u.color.name(),
                        "piece": u.kind.char().to_string(), "hp": u.hp});
                    // An enemy is seen with its type and HP only; its maximum
                    // and upgrades are its owner's knowledge.
                    if viewer.is_none_or(|v| v == u.color) {
                        piece["max_hp"] = u.max.into();
                        piece["range"] = u.range.into();
                    }
                    piece
                })
                .collect();
            let objects: Vec<_> = squares
                .iter()
                .filter(|&&sq| owc_known(game, viewer, sq) && game.cell(sq).lit)
                .filter_map(|&sq| {
                    game.cell(sq)
                        .object
                        .map(|o| serde_json::json!({"square": sq.to_string(), "object": o.name()}))
                })
                .collect();
            let lit: Vec<String> = squares
                .iter()
                .filter(|&&sq| owc_known(game, viewer, sq) && game.cell(sq).lit)
                .map(Square::to_string)
                .collect();
            let merchants: Vec<String> = squares
                .iter()
                .filter(|&&sq| game.cell(sq).merchant)
                .map(Square::to_string)
                .collect();
            let coins: serde_json::Map<String, serde_json::Value> = [Color::White, Color::Black]
                .into_iter()
                .filter(|&c| viewer.is_none_or(|v| v == c))
                .map(|c| (c.name().to_string(), serde_json::json!(game.coins(c))))
                .collect();
            serde_json::json!({
                "game": "open-world-chess",
                "board": format!("{files}x{ranks}"),
                "pieces": pieces,
                "objects": objects,
                "lit": lit,
                "merchants": merchants,
                "coins": coins,
                "moves_left": game.moves_left(),
            })
        }
        Replay::Draughts(s) => {
            let game = &s.engine;
            let pieces: Vec<_> = (0..8u8)
                .flat_map(|r| (0..8u8).map(move |f| (f, r)))
                .filter_map(|(f, r)| Square::new(f, r))
                .filter_map(|sq| game.position().piece_at(sq).map(|(c, k)| (sq, c, k)))
                .map(|(sq, c, k)| serde_json::json!({"square": sq.to_string(), "color": c.name(), "king": k}))
                .collect();
            let captured: Vec<_> = game
                .captured()
                .iter()
                .map(|c| serde_json::json!({"color": c.color.name(), "square": c.square.to_string(), "number": c.number}))
                .collect();
            serde_json::json!({
                "game": "magic-draughts",
                "board": "8x8",
                "magic": game.magic(),
                "pieces": pieces,
                "captured": captured,
                "pending_spells": {"white": game.pending_spells(Color::White), "black": game.pending_spells(Color::Black)},
            })
        }
    };
    if let (Some(obj), serde_json::Value::Object(more)) = (value.as_object_mut(), extra) {
        obj.extend(more);
    }
    value
}
