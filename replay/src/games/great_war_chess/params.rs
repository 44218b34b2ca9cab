//! great-war-chess's parameters (RULES.md section 3): their defaults, the
//! header tags that set them, what the rules require of them and the tags
//! a generated game writes for them. The machinery all games share
//! (rules files, overrides, time tags) is in [`crate::ruleset`].

use fgn_notation::{BoardSize, GameKind, Tag, TimeControl};
use serde::{Deserialize, Serialize};

use crate::core::params::{
    decimal, push_tag, setup_board_problem, setup_game_tag, time_control_value, Board, Parameters, Problem, MOVE_TIME,
    SETUP_TIME,
};

/// How many units of each movable kind one side sets up in great-war-chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UnitCounts {
    /// Infantry (I).
    pub infantry: u8,
    /// Cavalry (C).
    pub cavalry: u8,
    /// Artillery (A).
    pub artillery: u8,
}

impl Default for UnitCounts {
    fn default() -> UnitCounts {
        UnitCounts {
            infantry: 8,
            cavalry: 2,
            artillery: 2,
        }
    }
}

/// The parameters of great-war-chess (RULES.md section 3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GreatWarRules {
    /// Board size, W x H with 6 <= W, H <= 26 and H even. Tag `Board`.
    pub board: Board,
    /// Fortifications per side; 0 (none) by default. Tag `Fortifications`.
    pub fortifications: u8,
    /// Charges each side starts with. Tag `Charges`.
    pub charges: u32,
    /// Units per side.
    pub units: UnitCounts,
    /// Seconds for the secret setup; none by default. Tag `SetupSeconds` or `TimeControl "setup=..."`.
    pub setup_seconds: Option<u32>,
    /// Seconds per turn; none by default. Tag `MoveSeconds` or `TimeControl "move=..."`.
    pub move_seconds: Option<u32>,
}

impl Default for GreatWarRules {
    fn default() -> GreatWarRules {
        GreatWarRules {
            board: Board(BoardSize { files: 8, ranks: 8 }),
            fortifications: 0,
            charges: 40,
            units: UnitCounts::default(),
            setup_seconds: None,
            move_seconds: None,
        }
    }
}

impl Parameters for GreatWarRules {
    const GAME: GameKind = GameKind::GreatWarChess;
    const RULES_VERSION: &'static str = "1.0";
    const TAGS: &'static [(&'static str, &'static [&'static str])] = &[
        ("board", &["Board"]),
        ("fortifications", &["Fortifications"]),
        ("charges", &["Charges"]),
        ("units", &[]),
        ("setup_seconds", SETUP_TIME),
        ("move_seconds", MOVE_TIME),
    ];
    const HAS_SETUP: bool = true;

    fn problem(&self) -> Option<Problem> {
        let size = self.board.0;
        if let Some(message) = setup_board_problem(size, "great-war-chess") {
            return Problem::found(&["Board"], message);
        }
        if self.charges == 0 {
            return Problem::found(
                &["Charges"],
                "charges must be at least 1: a side with 0 charges has lost".into(),
            );
        }
        if self.units.infantry == 0 {
            return Problem::found(
                &[],
                "units.infantry must be at least 1: a side without infantry has lost".into(),
            );
        }
        // A square holds one unit of each kind of a side, and cavalry and
        // artillery never stand on a fortification, so every kind must fit
        // on the own half beside the fortifications.
        let half = u32::from(size.files) * u32::from(size.ranks) / 2;
        let forts = u32::from(self.fortifications);
        if forts + 1 > half {
            return Problem::found(
                &["Fortifications", "Board"],
                format!("{forts} fortifications do not fit on a half of {half} squares beside the other units"),
            );
        }
        let u = self.units;
        for (name, count, room) in [
            ("infantry", u.infantry, half),
            ("cavalry", u.cavalry, half - forts),
            ("artillery", u.artillery, half - forts),
        ] {
            if u32::from(count) > room {
                return Problem::found(
                    &["Fortifications", "Board"],
                    format!("{count} {name} do not fit: a side's half has room for {room}"),
                );
            }
        }
        None
    }

    fn apply_tag(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "Fortifications" => {
                self.fortifications = decimal(value)
                    .and_then(|v| u8::try_from(v).ok())
                    .ok_or_else(|| "a number of fortifications per side 0..255".to_string())?;
            }
            "Charges" => {
                self.charges = decimal(value)
                    .filter(|&v| v > 0)
                    .ok_or_else(|| "a number of charges, at least 1".to_string())?;
            }
            _ => setup_game_tag(
                (name, value),
                "great-war-chess",
                &mut self.board,
                (&mut self.setup_seconds, &mut self.move_seconds),
            )?,
        }
        Ok(())
    }

    fn time_control(&self) -> TimeControl {
        TimeControl {
            setup_seconds: self.setup_seconds,
            move_seconds: self.move_seconds,
        }
    }

    fn write_tags(&self, tags: &mut Vec<Tag>) {
        let d = GreatWarRules::default();
        if self.board != d.board {
            push_tag(tags, "Board", self.board.0.to_string());
        }
        if self.fortifications != d.fortifications {
            push_tag(tags, "Fortifications", self.fortifications.to_string());
        }
        if self.charges != d.charges {
            push_tag(tags, "Charges", self.charges.to_string());
        }
        if let Some(tc) = time_control_value(self.setup_seconds, self.move_seconds) {
            push_tag(tags, "TimeControl", tc);
        }
    }
}
