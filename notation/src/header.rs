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
        Date::new(year, u8::try_from(month).ok()?, u8::try_from(day).ok()?)
    }

    /// The date `year-month-day` when the month exists and has that day.
    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        let last = days_in_month(year, month)?;
        (1..=last).contains(&day).then_some(Date { year, month, day })
    }
}

/// How many days `month` (1 to 12) of `year` has; `None` for no month.
fn days_in_month(year: u16, month: u8) -> Option<u8> {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => Some(31),
        4 | 6 | 9 | 11 => Some(30),
        2 if leap => Some(29),
        2 => Some(28),
        _ => None,
    }
}

/// A date known to the year, the month or the day: a `Date` tag as PGN
/// writes a partly unknown date (`2025.03.??`, `2025.??.??`), or a bound of
/// `fgn select --since/--until` (`2025`, `2025-03`). It stands for the
/// days from [`PartialDate::first_day`] to [`PartialDate::last_day`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct PartialDate {
    /// The year, 0 to 9999.
    pub year: u16,
    /// The month, when known.
    pub month: Option<u8>,
    /// The day, when known (only with a month).
    pub day: Option<u8>,
}

impl PartialDate {
    /// Reads a `Date` tag's value: a calendar date as [`Date::parse`] reads
    /// it, or one whose day, or month and day, are `??` as PGN writes
    /// unknown parts (`2025.03.??`, `2025.??.??`, with either separator,
    /// one throughout). A value whose year is unknown (`????.??.??`), or
    /// whose day is known without its month, or anything else, is no date.
    pub fn parse_tag(text: &str) -> Option<PartialDate> {
        if let Some(d) = Date::parse(text) {
            return Some(d.into());
        }
        let b = text.as_bytes();
        if b.len() != 10 || !matches!(b[4], b'-' | b'.') || b[7] != b[4] || &b[8..] != b"??" {
            return None;
        }
        let year = std::str::from_utf8(&b[..4])
            .ok()
            .filter(|y| y.bytes().all(|c| c.is_ascii_digit()))?;
        let year: u16 = year.parse().ok()?;
        let month = match &b[5..7] {
            b"??" => None,
            m if m.iter().all(u8::is_ascii_digit) => {
                let m = (m[0] - b'0') * 10 + (m[1] - b'0');
                days_in_month(year, m)?;
                Some(m)
            }
            _ => return None,
        };
        Some(PartialDate { year, month, day: None })
    }

    /// Reads a date bound as a user types it: `YYYY`, `YYYY-MM` or
    /// `YYYY-MM-DD` (dots as PGN writes them are taken too, one separator
    /// throughout), the month and day in one or two digits (`2025-3` is
    /// March 2025). The error says why a bound is refused: an impossible
    /// month or day (`2025-13`, `2025-00`, `2025-02-30`) is no date.
    pub fn parse_bound(text: &str) -> Result<PartialDate, String> {
        let form = "expected YYYY, YYYY-MM or YYYY-MM-DD";
        let sep = if text.contains('.') { '.' } else { '-' };
        let parts: Vec<&str> = text.split(sep).collect();
        let number = |p: &str, widths: std::ops::RangeInclusive<usize>| -> Result<u16, String> {
            if widths.contains(&p.len()) && p.bytes().all(|c| c.is_ascii_digit()) {
                Ok(p.parse().expect("at most four digits"))
            } else {
                Err(form.to_string())
            }
        };
        if parts.len() > 3 || (text.contains('-') && text.contains('.')) {
            return Err(form.into());
        }
        let year = number(parts[0], 4..=4)?;
        let month = match parts.get(1) {
            None => None,
            Some(m) => {
                let m = number(m, 1..=2)?;
                let m = u8::try_from(m).ok().filter(|m| (1..=12).contains(m));
                Some(m.ok_or_else(|| format!("{text} is no date: months are 1 to 12"))?)
            }
        };
        let day = match (parts.get(2), month) {
            (None, _) => None,
            (Some(d), Some(m)) => {
                let d = number(d, 1..=2)?;
                let last = days_in_month(year, m).expect("a month 1 to 12");
                let d = u8::try_from(d).ok().filter(|d| (1..=last).contains(d));
                Some(d.ok_or_else(|| format!("{text} is no date: {year:04}-{m:02} has days 1 to {last}"))?)
            }
            (Some(_), None) => unreachable!("a day comes after a month"),
        };
        Ok(PartialDate { year, month, day })
    }

    /// The first day the date stands for.
    pub fn first_day(&self) -> Date {
        Date {
            year: self.year,
            month: self.month.unwrap_or(1),
            day: self.day.unwrap_or(1),
        }
    }

    /// The last day the date stands for.
    pub fn last_day(&self) -> Date {
        let month = self.month.unwrap_or(12);
        let day = self
            .day
            .unwrap_or_else(|| days_in_month(self.year, month).expect("a month 1 to 12"));
        Date {
            year: self.year,
            month,
            day,
        }
    }
}

impl From<Date> for PartialDate {
    fn from(d: Date) -> PartialDate {
        PartialDate {
            year: d.year,
            month: Some(d.month),
            day: Some(d.day),
        }
    }
}

impl fmt::Display for PartialDate {
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`: the parts known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
        }
        if let Some(d) = self.day {
            write!(f, "-{d:02}")?;
        }
        Ok(())
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

    #[test]
    fn a_date_tag_may_leave_the_day_or_month_unknown_as_pgn_does() {
        let partial = |year, month, day| Some(PartialDate { year, month, day });
        assert_eq!(PartialDate::parse_tag("2025.03.07"), partial(2025, Some(3), Some(7)));
        assert_eq!(PartialDate::parse_tag("2025.03.??"), partial(2025, Some(3), None));
        assert_eq!(PartialDate::parse_tag("2025-??-??"), partial(2025, None, None));
        for bad in [
            "????.??.??",
            "2025.??.07",
            "2025.13.??",
            "2025.03-??",
            "garbage",
            "14.03.2025",
            "2025",
        ] {
            assert_eq!(PartialDate::parse_tag(bad), None, "{bad:?}");
        }
        let year = PartialDate::parse_tag("2024.??.??").unwrap();
        assert_eq!(
            (year.first_day().to_string(), year.last_day().to_string()),
            ("2024-01-01".into(), "2024-12-31".into())
        );
        let feb = PartialDate::parse_tag("2024.02.??").unwrap();
        assert_eq!(feb.last_day().to_string(), "2024-02-29");
    }

    #[test]
    fn a_date_bound_is_a_year_month_or_day_that_exists() {
        let bound = |text| PartialDate::parse_bound(text).map(|d| d.to_string());
        assert_eq!(bound("2025"), Ok("2025".into()));
        assert_eq!(bound("2025-03"), Ok("2025-03".into()));
        assert_eq!(bound("2025-3"), Ok("2025-03".into()));
        assert_eq!(bound("2025.3.7"), Ok("2025-03-07".into()));
        assert_eq!(bound("2024-02-29"), Ok("2024-02-29".into()));
        for impossible in ["2025-13", "2025-00", "2025-02-30", "2025-04-31", "2025-03-00"] {
            let e = bound(impossible).unwrap_err();
            assert!(e.starts_with(&format!("{impossible} is no date")), "{impossible}: {e}");
        }
        for malformed in [
            "March",
            "25",
            "2025-",
            "2025-03-07-01",
            "2025.03-07",
            "2025-003",
            "",
            "2025-+3",
        ] {
            assert_eq!(
                bound(malformed),
                Err("expected YYYY, YYYY-MM or YYYY-MM-DD".into()),
                "{malformed:?}"
            );
        }
    }
}
