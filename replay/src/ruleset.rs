//! Ruleset parameters: every default of RULES.md as data, apart from the
//! rules code. A ruleset is built from its defaults, then from a `--rules`
//! file (JSON, any subset of the fields), then from the log's header tags.

use serde::{Deserialize, Serialize};

use fgn_notation::{BoardSize, GameKind, Header, TimeControl};

use crate::error::Fault;

/// A board size as a ruleset value, written `"12x12"` in JSON.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board(pub BoardSize);

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map(Board).map_err(serde::de::Error::custom)
    }
}

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

/// The parameters of magic-draughts (RULES.md section 4).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DraughtsRules {
    /// Whether checkers carry magic numbers. Tag `Magic "on"`/`"off"`.
    pub magic: bool,
    /// Seconds per move; none by default.
    pub move_seconds: Option<u32>,
}

impl Default for DraughtsRules {
    fn default() -> DraughtsRules {
        DraughtsRules {
            magic: true,
            move_seconds: None,
        }
    }
}

/// The ruleset of any game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum Ruleset {
    /// survival-chess
    Survival(SurvivalRules),
    /// magic-draughts
    Draughts(DraughtsRules),
}

/// The rules version each supported game implements.
pub fn rules_version(game: GameKind) -> &'static str {
    match game {
        GameKind::OpenWorldChess => "1.2",
        _ => "1.0",
    }
}

impl Ruleset {
    /// The defaults of `game`, or `None` when its engine is not built yet.
    pub fn defaults(game: GameKind) -> Option<Ruleset> {
        match game {
            GameKind::SurvivalChess => Some(Ruleset::Survival(SurvivalRules::default())),
            GameKind::MagicDraughts => Some(Ruleset::Draughts(DraughtsRules::default())),
            GameKind::OpenWorldChess | GameKind::GreatWarChess => None,
        }
    }

    /// The defaults of `game` changed by a JSON object of parameters (any
    /// subset of the fields; unknown fields are errors).
    pub fn from_json(game: GameKind, json: &str) -> Result<Ruleset, String> {
        let bad = |e: serde_json::Error| format!("rules for {game}: {e}");
        let rules = match game {
            GameKind::SurvivalChess => serde_json::from_str(json).map(Ruleset::Survival).map_err(bad)?,
            GameKind::MagicDraughts => serde_json::from_str(json).map(Ruleset::Draughts).map_err(bad)?,
            _ => return Err(format!("{game} is not supported yet")),
        };
        rules.check().map_err(|e| format!("rules for {game}: {e}"))?;
        Ok(rules)
    }

    /// Checks what the rules require of the parameters themselves, wherever
    /// they came from.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Ruleset::Survival(r) => {
                if let Some(problem) = survival_board_problem(r.board.0) {
                    return Err(problem);
                }
                let l = &r.limits;
                // The board keeps one king per side, and checkmate needs one.
                if l.king != 1 {
                    return Err(format!(
                        "limits.king must be 1 (exactly one king per side), not {}",
                        l.king
                    ));
                }
                if l.total == 0 {
                    return Err("limits.total must be at least 1".into());
                }
                Ok(())
            }
            Ruleset::Draughts(_) => Ok(()),
        }
    }

    /// Applies the log's parameter tags. A malformed value is a fault; tags
    /// that are not parameters of this game are left alone.
    pub fn apply_header(&mut self, header: &Header) -> Result<(), (String, Fault)> {
        for tag in &header.tags {
            let (name, value) = (tag.name.as_str(), tag.value.as_str());
            let fault = |expected: &str| {
                (
                    name.to_string(),
                    Fault::new(
                        "parameter",
                        format!("tag `{name}`: expected {expected}, found \"{value}\""),
                    ),
                )
            };
            match self {
                Ruleset::Survival(r) => match name {
                    "Board" => {
                        let size: BoardSize = value.parse().map_err(|_| fault("a board size WxH"))?;
                        if survival_board_problem(size).is_some() {
                            return Err(fault("a survival-chess board: W and H from 6 to 26, H even"));
                        }
                        r.board = Board(size);
                    }
                    "TimeControl" => {
                        let tc: TimeControl = value
                            .parse()
                            .map_err(|_| fault("a time control such as \"setup=120 move=60\""))?;
                        r.setup_seconds = tc.setup_seconds.or(r.setup_seconds);
                        r.move_seconds = tc.move_seconds.or(r.move_seconds);
                    }
                    "SetupSeconds" => {
                        r.setup_seconds = Some(seconds(value).ok_or_else(|| fault("whole seconds, at least 1"))?)
                    }
                    "MoveSeconds" => {
                        r.move_seconds = Some(seconds(value).ok_or_else(|| fault("whole seconds, at least 1"))?)
                    }
                    _ => {}
                },
                Ruleset::Draughts(r) => match name {
                    "Magic" => {
                        r.magic = match value {
                            "on" => true,
                            "off" => false,
                            _ => return Err(fault("on or off")),
                        }
                    }
                    "Board" if value != "8x8" => return Err(fault("8x8 (magic-draughts is played on 8x8 only)")),
                    "TimeControl" => {
                        let tc: TimeControl = value.parse().map_err(|_| fault("a time control such as \"move=60\""))?;
                        if tc.setup_seconds.is_some() {
                            return Err(fault("a move limit only: magic-draughts has no setup"));
                        }
                        r.move_seconds = tc.move_seconds.or(r.move_seconds);
                    }
                    "MoveSeconds" => {
                        r.move_seconds = Some(seconds(value).ok_or_else(|| fault("whole seconds, at least 1"))?)
                    }
                    _ => {}
                },
            }
        }
        Ok(())
    }

    /// The time limits of the ruleset.
    pub fn time_control(&self) -> TimeControl {
        match self {
            Ruleset::Survival(r) => TimeControl {
                setup_seconds: r.setup_seconds,
                move_seconds: r.move_seconds,
            },
            Ruleset::Draughts(r) => TimeControl {
                setup_seconds: None,
                move_seconds: r.move_seconds,
            },
        }
    }
}

/// Why `size` is not a survival-chess board (W and H from 6 to 26, H even).
fn survival_board_problem(size: BoardSize) -> Option<String> {
    let ok = (6..=26).contains(&size.files) && (6..=26).contains(&size.ranks) && size.ranks % 2 == 0;
    (!ok).then(|| format!("board {size}: survival-chess boards are W x H with W and H from 6 to 26 and H even"))
}

fn seconds(value: &str) -> Option<u32> {
    if value.starts_with('0') || value.starts_with('+') {
        return None;
    }
    value.parse().ok().filter(|&s| s > 0)
}
