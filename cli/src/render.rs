//! Drawing a replayed position for `fgn show`: text for the terminal, JSON for programs.

use std::fmt::Write as _;

use fgn_notation::{Color, Square};
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

/// The position as text: the board with coordinates, then who is to move,
/// check and the result.
pub fn text(replay: &Replay, viewer: Option<Color>, shown: usize, last: Option<&(String, u32)>) -> String {
    let mut out = String::new();
    match replay {
        Replay::Survival(s) => {
            let board = s.engine.board();
            let size = board.size();
            let files: String = (0..size.files).map(|f| format!(" {}", (b'a' + f) as char)).collect();
            let _ = writeln!(out, "    {files}");
            for r in (0..size.ranks).rev() {
                let _ = write!(out, "{:>3} ", r + 1);
                for f in 0..size.files {
                    let sq = Square::new(f, r).expect("on board");
                    let cell = match board.piece_at(sq) {
                        Some(p) if visible(replay, viewer, p.color) => p.symbol(),
                        // Dark squares are dotted, light ones blank, so the
                        // grid stays readable on a large board.
                        _ if (f + r) % 2 == 0 => '·',
                        _ => ' ',
                    };
                    let _ = write!(out, " {cell}");
                }
                let _ = writeln!(out, " {}", r + 1);
            }
            let _ = writeln!(out, "    {files}");
            let _ = writeln!(out);
            if let Some((event, line)) = last {
                let _ = writeln!(out, "after event {shown} (line {line}): {event}");
            } else {
                let _ = writeln!(out, "at the start (no events)");
            }
            let _ = writeln!(out, "{}", turn_text(replay));
            if s.engine.in_check() && matches!(replay.turn(), Turn::Move { .. }) {
                let _ = writeln!(out, "check");
            }
            let _ = writeln!(out, "result: {}", phase_text(replay));
            if let (Some(v), Turn::Setup { .. }) = (viewer, replay.turn()) {
                let _ = writeln!(
                    out,
                    "(as {}: the opponent's setup is hidden until both are ready)",
                    v.name()
                );
            }
        }
    }
    out
}

/// The position as JSON.
pub fn json(replay: &Replay, viewer: Option<Color>, shown: usize) -> serde_json::Value {
    match replay {
        Replay::Survival(s) => {
            let board = s.engine.board();
            let pieces: Vec<_> = board
                .pieces()
                .filter(|(_, p)| visible(replay, viewer, p.color))
                .map(|(sq, p)| serde_json::json!({"square": sq.to_string(), "color": p.color.name(), "piece": p.kind.char().to_string()}))
                .collect();
            let turn = match replay.turn() {
                Turn::Setup { ready } => {
                    serde_json::json!({"phase": "setup", "white_ready": ready[0], "black_ready": ready[1]})
                }
                Turn::Move { side, number } => {
                    serde_json::json!({"phase": "play", "side": side.name(), "number": number.0})
                }
            };
            serde_json::json!({
                "game": "survival-chess",
                "events_applied": shown,
                "view": viewer.map_or("all", Color::name),
                "board": board.size().to_string(),
                "pieces": pieces,
                "turn": turn,
                "check": s.engine.in_check() && matches!(replay.turn(), Turn::Move { .. }),
                "result": phase_text(replay),
            })
        }
    }
}
