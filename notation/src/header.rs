//! Header tags: `[Name "value"]`, kept in file order.
//!
//! The tags that every game shares are read into typed values here
//! ([`Header::game`], [`Header::perspective`], [`BoardSize`], ...). Rule
//! parameters (`MovesPerTurn`, `Magic`, ...) belong to the rules: `replay`
//! reads and checks them.

use std::fmt;
use std::str::FromStr;

use crate::action::{parse_hex32, write_quoted};
use crate::types::{Color, GameKind, Square, ValueError, MAX_BOARD_DIM};

/// One header tag.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag {
    /// `[A-Za-z][A-Za-z0-9_]*`
    pub name: String,
    /// The unescaped value.
    pub value: String,
}

impl Tag {
    /// Writes the tag's line without its line end, as [`fmt::Display`]
    /// shows it, straight to `out`: a canonical text's header is written
    /// (or compared) this way without the formatting machinery.
    pub(crate) fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        out.write_char('[')?;
        out.write_str(&self.name)?;
        out.write_char(' ')?;
        write_quoted(out, &self.value)?;
        out.write_char(']')
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// A calendar date as the `Date` tag writes it: `YYYY-MM-DD`, or
/// `YYYY.MM.DD` as PGN does.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Date {
    /// The year, 0 to 9999.
    pub year: u16,
    /// The month, 1 to 12.
    pub month: u8,
    /// The day, 1 to the month's last (29 February only in leap years).
    pub day: u8,
}

impl Date {
    /// Reads a `Date` tag's value: four, two and two digits joined by `-`
    /// or by `.` (one separator throughout), nothing before or after, and a
    /// day the month has. The one reading of dates every command shares
    /// (the leaderboard's latest game, `select --since`, `stats`), so that
    /// `2025-02-30`, `2025.03-07` or a trailing space is no date anywhere.
    pub fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        let sep = *b.get(4)?;
        let digits = |r: std::ops::Range<usize>| -> Option<u16> {
            let part = b.get(r)?;
            part.iter()
                .try_fold(0u16, |n, &c| c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0')))
        };
        if b.len() != 10 || !matches!(sep, b'-' | b'.') || b[7] != sep {
            return None;
        }
        let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let last = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        (1..=last).contains(&day).then_some(Date {
            year,
            month: month as u8,
            day: day as u8,
        })
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// Whether `name` is a well-formed tag name.
pub fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The header of a log: its tags in file order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Header {
    /// The tags, in file order, names unique.
    pub tags: Vec<Tag>,
}

impl Header {
    /// The value of the tag `name`, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|t| t.name == name).map(|t| t.value.as_str())
    }

    /// The game, from the `Game` tag.
    pub fn game(&self) -> Option<GameKind> {
        self.get("Game")?.parse().ok()
    }

    /// Whose point of view the log is written from (`None`: the full log).
    pub fn perspective(&self) -> Option<Color> {
        match self.get("Perspective")?.parse::<Perspective>().ok()? {
            Perspective::All => None,
            Perspective::Of(c) => Some(c),
        }
    }
}

/// The value of the `Perspective` tag.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Perspective {
    /// `all`: the full log.
    All,
    /// `white` or `black`: one player's view.
    Of(Color),
}

impl FromStr for Perspective {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Perspective, ValueError> {
        match s {
            "all" => Ok(Perspective::All),
            "white" => Ok(Perspective::Of(Color::White)),
            "black" => Ok(Perspective::Of(Color::Black)),
            _ => Err(ValueError {
                expected: "all, white or black",
            }),
        }
    }
}

/// The `Board` tag: `WxH`, each 1..=26. Which sizes a game allows is a rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct BoardSize {
    /// Number of files.
    pub files: u8,
    /// Number of ranks.
    pub ranks: u8,
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

impl FromStr for BoardSize {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<BoardSize, ValueError> {
        const E: ValueError = ValueError {
            expected: "a board size WxH such as 12x12 (each 1..26)",
        };
        let (w, h) = s.split_once('x').ok_or(E)?;
        let dim = |t: &str| -> Result<u8, ValueError> {
            if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) || t.starts_with('0') {
                return Err(E);
            }
            let v: u8 = t.parse().map_err(|_| E)?;
            if v == 0 || v > MAX_BOARD_DIM {
                return Err(E);
            }
            Ok(v)
        };
        Ok(BoardSize {
            files: dim(w)?,
            ranks: dim(h)?,
        })
    }
}

impl serde::Serialize for BoardSize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The `TimeControl` tag: `setup=120 move=60` (seconds; either may be left out).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TimeControl {
    /// Seconds for the secret setup.
    pub setup_seconds: Option<u32>,
    /// Seconds per move.
    pub move_seconds: Option<u32>,
}

impl FromStr for TimeControl {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<TimeControl, ValueError> {
        const E: ValueError = ValueError {
            expected: "a time control such as \"setup=120 move=60\" (whole seconds, 1..4294967295)",
        };
        let mut tc = TimeControl::default();
        if s.is_empty() {
            return Err(E);
        }
        for part in s.split(' ') {
            let (key, value) = part.split_once('=').ok_or(E)?;
            let secs: u32 = match value.parse() {
                Ok(v) if v > 0 && !value.starts_with('0') && !value.starts_with('+') => v,
                _ => return Err(E),
            };
            let slot = match key {
                "setup" => &mut tc.setup_seconds,
                "move" => &mut tc.move_seconds,
                _ => return Err(E),
            };
            if slot.replace(secs).is_some() {
                return Err(E);
            }
        }
        Ok(tc)
    }
}

/// The `Merchants` tag: space-separated squares (possibly none).
pub fn parse_square_list(s: &str) -> Result<Vec<Square>, ValueError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(' ')
        .map(|t| {
            t.parse().map_err(|_| ValueError {
                expected: "space-separated squares such as \"d5 e4\"",
            })
        })
        .collect()
}

/// The `SeedCommit` tag: `blake3:<64 lower-case hex>`.
pub fn parse_seed_commit(s: &str) -> Result<[u8; 32], ValueError> {
    s.strip_prefix("blake3:").and_then(parse_hex32).ok_or(ValueError {
        expected: "blake3:<64 lower-case hex digits>",
    })
}

/// Checks the value of a tag that the notation knows and returns its
/// canonical spelling, so that one game has one canonical text: time
/// controls as `setup=.. move=..`, merchant squares lower case in square
/// order. Unknown tags (and rule parameters, which `replay` checks) pass as
/// they are.
///
/// ```
/// use fgn_notation::header::normalize_known_tag;
///
/// assert_eq!(normalize_known_tag("Game", "survival-chess").unwrap(), "survival-chess");
/// assert_eq!(normalize_known_tag("Merchants", "e5 D4").unwrap(), "d4 e5");
/// assert_eq!(normalize_known_tag("Site", "anywhere at all").unwrap(), "anywhere at all");
/// assert!(normalize_known_tag("Mode", "solo").is_err());
/// ```
pub fn normalize_known_tag(name: &str, value: &str) -> Result<String, ValueError> {
    Ok(respelled_known_tag(name, value)?.unwrap_or_else(|| value.to_string()))
}

/// [`normalize_known_tag`] without a copy of a value that is already
/// canonical: `None` when `value` is kept as it is written (nearly every
/// tag of a log), so that the reader keeps the string it has.
pub(crate) fn respelled_known_tag(name: &str, value: &str) -> Result<Option<String>, ValueError> {
    let respelled = |canonical: String| (canonical != value).then_some(canonical);
    match name {
        "Game" => value
            .parse::<GameKind>()
            .map(|g| (g.name() != value).then(|| g.name().to_string())),
        "Rules" if value.is_empty() => Err(ValueError {
            expected: "a rules version such as 1.0",
        }),
        // NOTATION.md lists `all` (the full log, as when the tag is absent)
        // among the values, and other programs write it; it is kept as written.
        "Perspective" => value.parse::<Perspective>().map(|_| None),
        "Mode" => match value {
            "single" | "multiplayer" => Ok(None),
            _ => Err(ValueError {
                expected: "single or multiplayer",
            }),
        },
        "Board" => value.parse::<BoardSize>().map(|b| respelled(b.to_string())),
        "TimeControl" => {
            let tc = value.parse::<TimeControl>()?;
            let parts: Vec<String> = [("setup", tc.setup_seconds), ("move", tc.move_seconds)]
                .into_iter()
                .filter_map(|(k, v)| v.map(|v| format!("{k}={v}")))
                .collect();
            Ok(respelled(parts.join(" ")))
        }
        "Merchants" => {
            let mut squares = parse_square_list(value)?;
            squares.sort();
            if squares.windows(2).any(|w| w[0] == w[1]) {
                return Err(ValueError {
                    expected: "distinct squares",
                });
            }
            Ok(respelled(
                squares.iter().map(Square::to_string).collect::<Vec<_>>().join(" "),
            ))
        }
        "SeedCommit" => parse_seed_commit(value).map(|_| None),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_a_calendar_date_in_one_spelling() {
        let date = |year, month, day| Some(Date { year, month, day });
        assert_eq!(Date::parse("2025-03-01"), date(2025, 3, 1));
        assert_eq!(Date::parse("2025.12.31"), date(2025, 12, 31));
        assert_eq!(Date::parse("2024-02-29"), date(2024, 2, 29));
        assert_eq!(Date::parse("2000.02.29"), date(2000, 2, 29));
        assert_eq!(
            Date::parse("2025.03.07").map(|d| d.to_string()).as_deref(),
            Some("2025-03-07")
        );
        for bad in [
            "2025-02-30",
            "2023-02-29",
            "1900-02-29",
            "2025-04-31",
            "2025.03-07",
            "2025-03.07",
            "2025-03-07 ",
            " 2025-03-07",
            "2025-13-01",
            "2025-00-10",
            "2025-03-00",
            "25-03-01",
            "2025-03",
            "2025-3-01",
            "2025-03-01-x",
            "2025/03/01",
            "????.??.??",
            "\u{ff12}025-03-01",
            "",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad:?}");
        }
    }
}
