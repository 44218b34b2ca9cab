//! Who looks at a game.

use fgn_notation::Color;
use serde::Serialize;

/// Who looks at a game: one of the players, or everyone (what both players
/// and any spectator know: the public part).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
pub enum Viewer {
    /// What white knows.
    #[serde(rename = "w")]
    White,
    /// What black knows.
    #[serde(rename = "b")]
    Black,
    /// What everyone knows.
    #[serde(rename = "everyone")]
    Everyone,
}

impl Viewer {
    /// The viewer of `color`.
    pub fn of(color: Color) -> Viewer {
        match color {
            Color::White => Viewer::White,
            Color::Black => Viewer::Black,
        }
    }

    /// The player's colour, `None` for everyone.
    pub fn color(self) -> Option<Color> {
        match self {
            Viewer::White => Some(Color::White),
            Viewer::Black => Some(Color::Black),
            Viewer::Everyone => None,
        }
    }

    /// Whether this viewer knows what `owner` keeps to itself (its own
    /// setup, its coins): only `owner` does.
    pub fn is(self, owner: Color) -> bool {
        self.color() == Some(owner)
    }
}
