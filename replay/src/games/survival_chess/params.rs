//! survival-chess's parameters (RULES.md section 1): their defaults, the
//! header tags that set them, what the rules require of them and the tags
//! a generated game writes for them. The machinery all games share
//! (rules files, overrides, time tags) is in [`crate::ruleset`].

use fgn_notation::{BoardSize, GameKind, Tag, TimeControl};
use serde::{Deserialize, Serialize};

use crate::core::params::{
    push_tag, setup_board_problem, setup_game_tag, time_control_value, Board, Parameters, Problem, MOVE_TIME,
    SETUP_TIME,
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
