//! survival-chess's parameters (RULES.md section 1): their defaults, the
//! header tags that set them, what the rules require of them and the tags
//! a generated game writes for them, and the classical army of the
//! generator's classical games. The machinery all games share
//! (rules files, overrides, time tags) is in [`crate::ruleset`].

use fgn_notation::{BoardSize, Color, Figure, GameKind, PieceKind, Placement, Square, Tag, TimeControl};
use serde::{Deserialize, Serialize};

use crate::core::params::{
    push_tag, setup_board_problem, setup_game_tag, time_control_value, Board, Parameters, Problem, CLASSICAL_BACK_RANK,
    MOVE_TIME, SETUP_TIME,
};

/// How many pieces of each kind one side may set up in survival-chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SetupLimits {
    /// Kings (exactly this many are required before `ready`).
    pub king: u8,
    /// Queens at most.
    pub queen: u8,
    /// Rooks at most.
    pub rook: u8,
    /// Bishops at most.
    pub bishop: u8,
    /// Knights at most.
    pub knight: u8,
    /// Pawns at most.
    pub pawn: u8,
    /// Pieces in all at most.
    pub total: u8,
}

impl Default for SetupLimits {
    fn default() -> SetupLimits {
        SetupLimits {
            king: 1,
            queen: 1,
            rook: 2,
            bishop: 2,
            knight: 2,
            pawn: 8,
            total: 16,
        }
    }
}

/// The parameters of survival-chess (RULES.md section 1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SurvivalRules {
    /// Board size, W x H with 6 <= W, H <= 26 and H even. Tag `Board`.
    pub board: Board,
    /// Seconds for the secret setup; none by default. Tag `SetupSeconds` or `TimeControl "setup=..."`.
    pub setup_seconds: Option<u32>,
    /// Seconds per move; none by default. Tag `MoveSeconds` or `TimeControl "move=..."`.
    pub move_seconds: Option<u32>,
    /// Setup limits per side.
    pub limits: SetupLimits,
}

impl Default for SurvivalRules {
    fn default() -> SurvivalRules {
        SurvivalRules {
            board: Board(BoardSize { files: 12, ranks: 12 }),
            setup_seconds: None,
            move_seconds: None,
            limits: SetupLimits::default(),
        }
    }
}

impl Parameters for SurvivalRules {
    const GAME: GameKind = GameKind::SurvivalChess;
    const RULES_VERSION: &'static str = "1.0";
    // RULES.md section 1, "Leaderboard".
    const LEADERBOARD_POINTS: bool = true;
    const TAGS: &'static [(&'static str, &'static [&'static str])] = &[
        ("board", &["Board"]),
        ("setup_seconds", SETUP_TIME),
        ("move_seconds", MOVE_TIME),
        ("limits", &[]),
    ];
    const HAS_SETUP: bool = true;

    fn problem(&self) -> Option<Problem> {
        if let Some(message) = setup_board_problem(self.board.0, "survival-chess") {
            return Problem::found(&["Board"], message);
        }
        let l = &self.limits;
        // The board keeps one king per side, and checkmate needs one.
        if l.king != 1 {
            return Problem::found(
                &[],
                format!("limits.king must be 1 (exactly one king per side), not {}", l.king),
            );
        }
        if l.total == 0 {
            return Problem::found(&[], "limits.total must be at least 1".into());
        }
        None
    }

    fn apply_tag(&mut self, name: &str, value: &str) -> Result<(), String> {
        setup_game_tag(
            (name, value),
            "survival-chess",
            &mut self.board,
            (&mut self.setup_seconds, &mut self.move_seconds),
        )
    }

    fn time_control(&self) -> TimeControl {
        TimeControl {
            setup_seconds: self.setup_seconds,
            move_seconds: self.move_seconds,
        }
    }

    fn classical_army(&self, color: Color) -> Option<Vec<Placement>> {
        Some(classical_army(self.board.0, color))
    }

    fn write_tags(&self, tags: &mut Vec<Tag>) {
        let d = SurvivalRules::default();
        if self.board != d.board {
            push_tag(tags, "Board", self.board.0.to_string());
        }
        if let Some(tc) = time_control_value(self.setup_seconds, self.move_seconds) {
            push_tag(tags, "TimeControl", tc);
        }
    }
}

/// The setup of the generator's classical games for `color`, on its own half on its own half: the classical army
/// on its two nearest ranks, centred, with the pawns one rank further in
/// on boards of 12 ranks or more so that double steps start off the second
/// rank. A board narrower than eight files gets the army's right-hand part,
/// which always holds the king (boards have at least six files).
fn classical_army(size: BoardSize, color: Color) -> Vec<Placement> {
    let shift = (size.files.saturating_sub(8)) / 2;
    let deep = if size.ranks >= 12 { 1 } else { 0 };
    let (back, pawns) = match color {
        Color::White => (0, 1 + deep),
        Color::Black => (size.ranks - 1, size.ranks - 2 - deep),
    };
    let dropped = 8usize.saturating_sub(usize::from(size.files));
    let mut out = Vec::new();
    for (i, kind) in CLASSICAL_BACK_RANK.into_iter().skip(dropped).enumerate() {
        let file = shift + i as u8;
        for (figure, rank) in [(Figure::Piece(kind), back), (Figure::Piece(PieceKind::Pawn), pawns)] {
            if let Some(square) = Square::new(file, rank) {
                out.push(Placement { figure, square });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classical_army_stands_on_the_nearest_ranks() {
        let army = classical_army(BoardSize { files: 8, ranks: 8 }, Color::Black);
        let text: Vec<String> = army.iter().map(ToString::to_string).collect();
        assert_eq!(text.len(), 16);
        assert!(text.contains(&"Ke8".to_string()), "{text:?}");
        assert!(text.contains(&"Pa7".to_string()), "{text:?}");
        let narrow = classical_army(BoardSize { files: 6, ranks: 6 }, Color::White);
        assert!(narrow.iter().any(|p| p.figure == Figure::Piece(PieceKind::King)));
        assert_eq!(narrow.len(), 12);
    }
}
