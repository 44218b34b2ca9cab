//! Leaderboard scoring (RULES.md section 1, "Leaderboard"): in a
//! multiplayer game a win gives the winner one point when the winner's
//! player id is a VK profile. Draws, losses, aborted and single-player games
//! give nothing, and only logs that validate count (the caller's check).

use fgn_notation::{Color, Header};

use crate::{Phase, Replay};

/// A point won in one game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Point {
    /// Who won it.
    pub winner: Color,
    /// The winner's player id (`vk:<number>`).
    pub id: String,
    /// The winner's name as this log gives it, if it does.
    pub name: Option<String>,
}

/// A VK profile id: `vk:` and decimal digits.
pub fn is_vk_id(id: &str) -> bool {
    id.strip_prefix("vk:")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The point the game of a valid log gives, if any: `replay` is the log
/// replayed to its end.
pub fn point(header: &Header, replay: &Replay) -> Option<Point> {
    if header.get("Mode") != Some("multiplayer") {
        return None;
    }
    let Phase::Over(d) = replay.phase() else {
        return None;
    };
    let winner = d.outcome.winner()?;
    let (id_tag, name_tag) = match winner {
        Color::White => ("WhiteId", "White"),
        Color::Black => ("BlackId", "Black"),
    };
    let id = header.get(id_tag).filter(|id| is_vk_id(id))?;
    Some(Point {
        winner,
        id: id.to_string(),
        name: header.get(name_tag).map(str::to_string),
    })
}
