//! magic-draughts's parameters (RULES.md section 4): their defaults, the
//! header tags that set them, what the rules require of them and the tags
//! a generated game writes for them. The machinery all games share
//! (rules files, overrides, time tags) is in [`crate::ruleset`].

use fgn_notation::{GameKind, Tag, TimeControl};
use serde::{Deserialize, Serialize};

use crate::core::params::{decimal, push_tag, seconds, time_control_value, Parameters, Problem, MOVE_TIME};

/// The parameters of magic-draughts (RULES.md section 4).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DraughtsRules {
    /// Whether checkers carry magic numbers. Tag `Magic "on"`/`"off"`.
    pub magic: bool,
    /// How many of a side's twelve checkers carry each number: plain (0),
    /// then 1 to 5; they add up to 12. Tag `Numbers "0=3 1=1 2=2 3=2 4=2 5=2"`.
    pub numbers: [u8; 6],
    /// How many of the caster's own ranks, from its first, Koschei's
    /// Revenge returns checkers to (1 to 7). Tag `RevengeRanks "4"`.
    pub revenge_ranks: u8,
    /// Seconds per move; none by default.
    pub move_seconds: Option<u32>,
}

impl Default for DraughtsRules {
    fn default() -> DraughtsRules {
        DraughtsRules {
            magic: true,
            numbers: [3, 1, 2, 2, 2, 2],
            revenge_ranks: 4,
            move_seconds: None,
        }
    }
}

impl Parameters for DraughtsRules {
    const GAME: GameKind = GameKind::MagicDraughts;
    const RULES_VERSION: &'static str = "1.0";
    const TAGS: &'static [(&'static str, &'static [&'static str])] = &[
        ("magic", &["Magic"]),
        ("numbers", &["Numbers"]),
        ("revenge_ranks", &["RevengeRanks"]),
        ("move_seconds", MOVE_TIME),
    ];
    const HAS_SETUP: bool = false;
    // magic-draughts reads `Board` too, to refuse any board but 8x8.
    const ALSO_READ: &'static [&'static str] = &["Board"];

    fn problem(&self) -> Option<Problem> {
        let total: u32 = self.numbers.iter().map(|&n| u32::from(n)).sum();
        if total != 12 {
            return Problem::found(
                &["Numbers"],
                format!("numbers must give each of a side's 12 checkers a number: they add up to {total}"),
            );
        }
        if !(1..=7).contains(&self.revenge_ranks) {
            return Problem::found(
                &["RevengeRanks"],
                format!("revenge_ranks must be 1 to 7, not {}", self.revenge_ranks),
            );
        }
        None
    }

    fn apply_tag(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "Magic" => {
                self.magic = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err("on or off".into()),
                }
            }
            "Board" if value != "8x8" => return Err("8x8 (magic-draughts is played on 8x8 only)".into()),
            "TimeControl" => {
                let tc: TimeControl = value
                    .parse()
                    .map_err(|_| "a time control such as \"move=60\"".to_string())?;
                if tc.setup_seconds.is_some() {
                    return Err("a move limit only: magic-draughts has no setup".into());
                }
                self.move_seconds = tc.move_seconds.or(self.move_seconds);
            }
            "MoveSeconds" => {
                self.move_seconds = Some(seconds(value).ok_or_else(|| "whole seconds, at least 1".to_string())?)
            }
            "Numbers" => {
                let numbers = number_counts(value)
                    .filter(|n| n.iter().map(|&c| u32::from(c)).sum::<u32>() == 12)
                    .ok_or_else(|| {
                        "a count for each number 0 to 5, adding up to 12, such as \"0=3 1=1 2=2 3=2 4=2 5=2\""
                            .to_string()
                    })?;
                self.numbers = numbers;
            }
            "RevengeRanks" => {
                self.revenge_ranks = decimal(value)
                    .and_then(|v| u8::try_from(v).ok())
                    .filter(|v| (1..=7).contains(v))
                    .ok_or_else(|| "a number of ranks from 1 to 7".to_string())?;
            }
            _ => {}
        }
        Ok(())
    }

    fn time_control(&self) -> TimeControl {
        TimeControl {
            setup_seconds: None,
            move_seconds: self.move_seconds,
        }
    }

    fn has_world_seed(&self) -> bool {
        self.magic
    }

    fn write_tags(&self, tags: &mut Vec<Tag>) {
        let d = DraughtsRules::default();
        if self.magic != d.magic {
            push_tag(tags, "Magic", if self.magic { "on" } else { "off" }.into());
        }
        if self.numbers != d.numbers {
            let counts: Vec<String> = self
                .numbers
                .iter()
                .enumerate()
                .map(|(n, c)| format!("{n}={c}"))
                .collect();
            push_tag(tags, "Numbers", counts.join(" "));
        }
        if self.revenge_ranks != d.revenge_ranks {
            push_tag(tags, "RevengeRanks", self.revenge_ranks.to_string());
        }
        if let Some(tc) = time_control_value(None, self.move_seconds) {
            push_tag(tags, "TimeControl", tc);
        }
    }
}

/// `0=3 1=1 2=2 3=2 4=2 5=2`: a count for each of the numbers 0 to 5, each
/// named once, in any order.
fn number_counts(value: &str) -> Option<[u8; 6]> {
    let mut out = [0u8; 6];
    let mut seen = [false; 6];
    for item in value.split(' ') {
        let (k, v) = item.split_once('=')?;
        let k = decimal(k).map(|k| k as usize).filter(|&k| k < 6)?;
        if seen[k] {
            return None;
        }
        seen[k] = true;
        out[k] = decimal(v).and_then(|v| u8::try_from(v).ok())?;
    }
    seen.iter().all(|&s| s).then_some(out)
}
