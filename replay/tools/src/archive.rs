//! Working over an archive of summaries: which logs a selection keeps
//! ([`Filter`], `fgn select`), what a set of games adds up to ([`Stats`],
//! `fgn stats`) and which files hold the same game ([`Duplicates`]). No
//! rules here: everything is read off [`Summary`] values and the
//! [`EventCounts`] of each log, in the order the files come, and every
//! accumulator holds counts, never the logs.

use std::collections::{BTreeMap, HashMap};

use fgn_notation::{Color, Outcome, PartialDate, Reason};
use serde::Serialize;

use fgn_replay::Digest;

use crate::counts::EventCounts;
use crate::summary::{Status, Summary};

/// A selection of logs: every criterion given must hold (an empty filter
/// keeps everything); a list criterion holds when any of its values does.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// The `Game` tags kept.
    pub games: Vec<String>,
    /// Names or ids of which one must have played (either side).
    pub players: Vec<String>,
    /// A name or id white must have.
    pub white: Option<String>,
    /// A name or id black must have.
    pub black: Option<String>,
    /// The outcomes kept (decided or recorded).
    pub outcomes: Vec<Outcome>,
    /// The reasons kept.
    pub reasons: Vec<Reason>,
    /// The earliest `Date` kept ([`date_in`]).
    pub since: Option<PartialDate>,
    /// The latest `Date` kept.
    pub until: Option<PartialDate>,
    /// The fewest moves kept.
    pub min_moves: Option<usize>,
    /// The most moves kept.
    pub max_moves: Option<usize>,
    /// The statuses kept (valid, invalid, unsupported).
    pub statuses: Vec<Status>,
}

/// Whether the `Date` tag `date` lies within the bounds, compared as dates
/// (each bound the days it stands for: `--until 2025-03` keeps every day
/// of March 2025, `--since 2025` every day from 1 January 2025 on); the tag
/// is read by [`PartialDate::parse_tag`], so that PGN's `2025.??.??` is
/// the year 2025. `None`: the bounds cannot tell, because the log has no
/// date that can be read, or one too vague for a bound (`2025.??.??` for
/// `--since 2025-03`). Such a log never matches a date filter.
pub fn date_in(date: Option<&str>, since: Option<PartialDate>, until: Option<PartialDate>) -> Option<bool> {
    if since.is_none() && until.is_none() {
        return Some(true);
    }
    let date = date.and_then(PartialDate::parse_tag)?;
    let (first, last) = (date.first_day(), date.last_day());
    // Each bound holds when every day the tag stands for is within it,
    // fails when none is, and cannot tell otherwise.
    let after = since.map(|s| {
        let s = s.first_day();
        if first >= s {
            Some(true)
        } else if last < s {
            Some(false)
        } else {
            None
        }
    });
    let before = until.map(|u| {
        let u = u.last_day();
        if last <= u {
            Some(true)
        } else if first > u {
            Some(false)
        } else {
            None
        }
    });
    match (after.unwrap_or(Some(true)), before.unwrap_or(Some(true))) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// What a [`Filter`] makes of one log.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Selection {
    /// Every criterion holds.
    Kept,
    /// Some criterion fails.
    Dropped,
    /// Every other criterion holds, but the log's `Date` cannot be read or
    /// is too vague for a date bound ([`date_in`]): passed over, which
    /// `fgn select` tells the user, since the log might be one they want.
    Undated,
}

/// Whether `who` names one side of the game: its name or its id, exactly.
fn plays(who: &str, name: Option<&str>, id: Option<&str>) -> bool {
    name == Some(who) || id == Some(who)
}

impl Filter {
    /// Whether the log of `s` is selected.
    pub fn matches(&self, s: &Summary) -> bool {
        self.select(s) == Selection::Kept
    }

    /// What the filter makes of the log of `s`.
    pub fn select(&self, s: &Summary) -> Selection {
        let white = |who: &str| plays(who, s.white.as_deref(), s.white_id.as_deref());
        let black = |who: &str| plays(who, s.black.as_deref(), s.black_id.as_deref());
        let any = |list: &[String], f: &dyn Fn(&String) -> bool| list.is_empty() || list.iter().any(f);
        let others = any(&self.games, &|g| s.game.as_deref() == Some(g.as_str()))
            && any(&self.players, &|p| white(p) || black(p))
            && self.white.as_deref().is_none_or(white)
            && self.black.as_deref().is_none_or(black)
            && (self.outcomes.is_empty() || s.outcome.is_some_and(|o| self.outcomes.contains(&o)))
            && (self.reasons.is_empty() || s.reason.is_some_and(|r| self.reasons.contains(&r)))
            && self.min_moves.is_none_or(|m| s.moves >= m)
            && self.max_moves.is_none_or(|m| s.moves <= m)
            && (self.statuses.is_empty() || self.statuses.contains(&s.status));
        match (others, date_in(s.date.as_deref(), self.since, self.until)) {
            (true, Some(true)) => Selection::Kept,
            (true, None) => Selection::Undated,
            _ => Selection::Dropped,
        }
    }

    /// Why no log could match the filter, when two of its criteria
    /// contradict each other (`--min-moves 50 --max-moves 10`, `--since`
    /// after `--until`): a usage error rather than an empty selection.
    pub fn contradiction(&self) -> Option<String> {
        if let (Some(min), Some(max)) = (self.min_moves, self.max_moves) {
            if min > max {
                return Some(format!(
                    "--min-moves {min} is more than --max-moves {max}: no log can match"
                ));
            }
        }
        if let (Some(since), Some(until)) = (self.since, self.until) {
            if since.first_day() > until.last_day() {
                return Some(format!("--since {since} is after --until {until}: no log can match"));
            }
        }
        None
    }
}

/// Groups of files holding the same game (the same log hash), in the order
/// their first copies came.
#[derive(Debug, Default)]
pub struct Duplicates {
    first: HashMap<Digest, usize>,
    groups: Vec<(Digest, Vec<String>)>,
}

impl Duplicates {
    /// Notes that `file` holds the game of `hash`; true when it is the
    /// first copy seen.
    pub fn add(&mut self, hash: Digest, file: String) -> bool {
        match self.first.get(&hash) {
            Some(&i) => {
                self.groups[i].1.push(file);
                false
            }
            None => {
                self.first.insert(hash, self.groups.len());
                self.groups.push((hash, vec![file]));
                true
            }
        }
    }

    /// The groups of two or more files, each with its log hash.
    pub fn groups(&self) -> impl Iterator<Item = (&Digest, &[String])> {
        self.groups
            .iter()
            .filter(|(_, files)| files.len() > 1)
            .map(|(h, f)| (h, f.as_slice()))
    }
}

/// A player's wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Games aborted.
    pub aborted: usize,
}

impl Record {
    /// Counts a game of `outcome` for the player of `side`.
    fn add(&mut self, outcome: Outcome, side: Color) {
        match outcome {
            Outcome::Draw => self.draws += 1,
            Outcome::Abort => self.aborted += 1,
            o if o.winner() == Some(side) => self.wins += 1,
            _ => self.losses += 1,
        }
    }
}

/// A game kind's results from white's side, as chess databases count
/// them: a decisive game is one side's win, never both a win and a loss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    /// Games white won (`1-0`).
    pub white_wins: usize,
    /// Games drawn (`1/2-1/2`).
    pub draws: usize,
    /// Games black won (`0-1`).
    pub black_wins: usize,
    /// Games aborted (`abort`).
    pub aborted: usize,
}

impl Results {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::WhiteWins => self.white_wins += 1,
            Outcome::BlackWins => self.black_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Abort => self.aborted += 1,
        }
    }
}

/// A player's games of one game kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayerStats {
    /// The player id, or the name for a player without one (`id`, as the
    /// leaderboard spells it).
    pub id: String,
    /// The name of the player's latest game by `Date` (then by input order).
    pub name: Option<String>,
    /// Decided games played.
    pub games: usize,
    /// As white.
    pub white: Record,
    /// As black.
    pub black: Record,
    /// Both sides together.
    pub total: Record,
    #[serde(skip)]
    latest: Option<Option<fgn_notation::Date>>,
}

/// The lengths of the decided games, in moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Lengths {
    /// The shortest.
    pub min: Option<usize>,
    /// The median (the lower middle of an even count).
    pub median: Option<usize>,
    /// The mean.
    pub mean: Option<f64>,
    /// The longest.
    pub max: Option<usize>,
    /// Games per ten moves: `[{"from": 0, "to": 9, "games": 3}, ...]`.
    pub histogram: Vec<Bucket>,
}

/// A bucket of [`Lengths::histogram`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// The fewest moves in it.
    pub from: usize,
    /// The most.
    pub to: usize,
    /// How many games.
    pub games: usize,
}

/// How wide a histogram bucket is, in moves.
pub const BUCKET: usize = 10;

/// One game kind's statistics.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameStats {
    /// The `Game` tag (`None`: logs without one).
    pub game: Option<String>,
    /// Distinct logs (a copy with the same log hash counts once).
    pub logs: usize,
    /// Of them valid.
    pub valid: usize,
    /// Invalid.
    pub invalid: usize,
    /// Unsupported (views).
    pub unsupported: usize,
    /// Valid games with a result (decided or recorded).
    pub decided: usize,
    /// Valid logs of a game with random outcomes that no revealed seed
    /// checked (`outcomes_checked` false: no `SeedCommit`, over without
    /// `@ seed`, or in progress and not yet due its seed).
    pub outcomes_unchecked: usize,
    /// The decided games by result, from white's side.
    pub results: Results,
    /// The decided games by outcome as a result spells it (`1-0`, `0-1`,
    /// `1/2-1/2`, `abort`), in the order of those strings: an object keyed
    /// by outcome in JSON.
    pub outcomes: BTreeMap<&'static str, usize>,
    /// The decided games by reason, in name order.
    pub reasons: BTreeMap<&'static str, usize>,
    /// What the events of the valid logs did, summed ([`EventCounts`]),
    /// when they were counted (`fgn stats --counts`; `None` otherwise):
    /// an invalid log's events are not counted, even those its rules
    /// accepted before its fault, as no other statistic counts an invalid
    /// log's game.
    pub counts: Option<EventCounts>,
    /// The lengths of the decided games.
    pub lengths: Lengths,
    /// The players of decided games, by player id (or name).
    pub players: Vec<PlayerStats>,
}

#[derive(Debug, Default)]
struct Accumulator {
    stats: GameStats,
    lengths: BTreeMap<usize, usize>,
    players: BTreeMap<String, PlayerStats>,
}

/// The statistics of an archive, accumulated one summary at a time.
#[derive(Debug, Default)]
pub struct Stats {
    games: BTreeMap<Option<String>, Accumulator>,
}

impl Stats {
    /// Counts the game of `s` (call it once per distinct game), and, when
    /// the events are counted, `counts`, what a valid log's events did
    /// ([`EventCounts::of_log`]; ignored for another log). Pass `None` for
    /// every log when the events are not counted, `Some` for every log when
    /// they are, so that each game's `counts` says which.
    pub fn add(&mut self, s: &Summary, counts: Option<EventCounts>) {
        let acc = self.games.entry(s.game.clone()).or_default();
        acc.stats.game = s.game.clone();
        acc.stats.logs += 1;
        match s.status {
            Status::Valid => acc.stats.valid += 1,
            Status::Invalid => acc.stats.invalid += 1,
            Status::Unsupported => acc.stats.unsupported += 1,
        }
        if s.status == Status::Valid && s.outcomes_checked == Some(false) {
            acc.stats.outcomes_unchecked += 1;
        }
        if let Some(counts) = counts {
            let sum = acc.stats.counts.get_or_insert_default();
            if s.status == Status::Valid {
                *sum = sum.plus(counts);
            }
        }
        let (Status::Valid, Some(outcome), Some(reason)) = (s.status, s.outcome, s.reason) else {
            return;
        };
        acc.stats.decided += 1;
        acc.stats.results.add(outcome);
        *acc.stats.outcomes.entry(outcome.text()).or_default() += 1;
        *acc.stats.reasons.entry(reason.name()).or_default() += 1;
        *acc.lengths.entry(s.moves).or_default() += 1;
        let sides = [
            (Color::White, &s.white, &s.white_id),
            (Color::Black, &s.black, &s.black_id),
        ];
        for (side, name, id) in sides {
            let Some(key) = id.clone().or_else(|| name.clone()) else {
                continue;
            };
            let p = acc.players.entry(key.clone()).or_default();
            p.id = key;
            p.games += 1;
            match side {
                Color::White => p.white.add(outcome, side),
                Color::Black => p.black.add(outcome, side),
            }
            p.total.add(outcome, side);
            // The name shown is the latest game's: a later date wins, an
            // equal or missing one goes by input order.
            let date = s.date.as_deref().and_then(fgn_notation::Date::parse);
            if name.is_some() && p.latest.as_ref().is_none_or(|l| date >= *l) {
                p.latest = Some(date);
                p.name = name.clone();
            }
        }
    }

    /// The statistics per game kind, in name order (logs without a game
    /// first); players by games
    /// played, then wins, then id.
    pub fn finish(self) -> Vec<GameStats> {
        self.games
            .into_values()
            .map(|acc| {
                let mut stats = acc.stats;
                stats.lengths = lengths(&acc.lengths);
                stats.players = acc.players.into_values().collect();
                stats.players.sort_by(|a, b| {
                    (b.games, b.total.wins)
                        .cmp(&(a.games, a.total.wins))
                        .then_with(|| a.id.cmp(&b.id))
                });
                stats
            })
            .collect()
    }
}

fn lengths(counts: &BTreeMap<usize, usize>) -> Lengths {
    let n: usize = counts.values().sum();
    if n == 0 {
        return Lengths::default();
    }
    let total: usize = counts.iter().map(|(len, c)| len * c).sum();
    let middle = (n - 1) / 2;
    let mut seen = 0;
    let median = counts.iter().find_map(|(&len, &c)| {
        seen += c;
        (seen > middle).then_some(len)
    });
    let mut histogram: Vec<Bucket> = Vec::new();
    for (&len, &c) in counts {
        let from = len / BUCKET * BUCKET;
        match histogram.last_mut() {
            Some(b) if b.from == from => b.games += c,
            _ => histogram.push(Bucket {
                from,
                to: from + BUCKET - 1,
                games: c,
            }),
        }
    }
    Lengths {
        min: counts.keys().next().copied(),
        median,
        mean: Some(total as f64 / n as f64),
        max: counts.keys().next_back().copied(),
        histogram,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_compare_as_dates_at_the_bounds_precision() {
        let b = |text| Some(PartialDate::parse_bound(text).unwrap());
        assert_eq!(date_in(Some("2025-03-15"), b("2025-03"), b("2025-03")), Some(true));
        assert_eq!(date_in(Some("2025.03.15"), b("2025-03-15"), None), Some(true));
        assert_eq!(date_in(Some("2025-03-15"), b("2025-03-16"), None), Some(false));
        assert_eq!(date_in(Some("2025-04-01"), None, b("2025-03")), Some(false));
        assert_eq!(date_in(Some("2025-02-28"), None, b("2025-2")), Some(true));
        assert_eq!(date_in(None, b("2025"), None), None);
        assert_eq!(date_in(None, None, None), Some(true));
        // A `Date` that is no calendar date is within no bound, as the
        // leaderboard reads it as no date: the bounds cannot tell.
        for bad in [
            "2025-02-30",
            "2023-02-29",
            "2025.03-07",
            "2025-03-07 ",
            "garbage",
            "14.03.2025",
        ] {
            assert_eq!(date_in(Some(bad), b("2020"), None), None, "{bad:?}");
            assert_eq!(date_in(Some(bad), None, b("2030")), None, "{bad:?}");
        }
    }

    #[test]
    fn a_date_with_unknown_parts_matches_only_bounds_it_is_precise_enough_for() {
        let b = |text| Some(PartialDate::parse_bound(text).unwrap());
        assert_eq!(date_in(Some("2025.??.??"), b("2025"), None), Some(true));
        assert_eq!(date_in(Some("2025.??.??"), b("2025-03"), None), None);
        assert_eq!(date_in(Some("2025.??.??"), b("2026"), None), Some(false));
        assert_eq!(date_in(Some("2025.??.??"), None, b("2024-12-31")), Some(false));
        assert_eq!(date_in(Some("2025.03.??"), b("2025-03"), b("2025-03")), Some(true));
        assert_eq!(date_in(Some("2025.03.??"), b("2025-03-10"), None), None);
    }

    #[test]
    fn contradictory_filters_are_named() {
        let b = |text| Some(PartialDate::parse_bound(text).unwrap());
        let moves = Filter {
            min_moves: Some(50),
            max_moves: Some(10),
            ..Filter::default()
        };
        assert!(moves.contradiction().unwrap().contains("--min-moves 50"));
        let dates = Filter {
            since: b("2025-04"),
            until: b("2025-03"),
            ..Filter::default()
        };
        assert!(dates
            .contradiction()
            .unwrap()
            .contains("--since 2025-04 is after --until 2025-03"));
        // The same month as both bounds is that month, no contradiction.
        let month = Filter {
            since: b("2025-03"),
            until: b("2025-03"),
            min_moves: Some(10),
            max_moves: Some(10),
            ..Filter::default()
        };
        assert_eq!(month.contradiction(), None);
    }

    #[test]
    fn the_median_and_histogram_of_lengths() {
        let l = lengths(&BTreeMap::from([(3, 1), (12, 2), (15, 1)]));
        assert_eq!((l.min, l.median, l.max), (Some(3), Some(12), Some(15)));
        assert_eq!(l.mean, Some(10.5));
        assert_eq!(
            l.histogram.iter().map(|b| (b.from, b.games)).collect::<Vec<_>>(),
            [(0, 1), (10, 3)]
        );
    }

    /// The game's results are white's and black's wins apart (version 2's
    /// record counted both as wins and never a loss), and only a valid
    /// log's counts are summed.
    #[test]
    fn results_are_from_whites_side_and_counts_are_the_valid_logs() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/survival-chess");
        let mut stats = Stats::default();
        for (file, captures) in [
            ("valid/01-bishop-queen-mate.fgn", 1),
            ("valid/02-back-rank-black-wins.fgn", 2),
            ("invalid/07-move-out-of-turn.fgn", 4),
        ] {
            let bytes = std::fs::read(corpus.join(file)).expect("a corpus log");
            let summary = crate::summary::summarize(&fgn_notation::parse(&bytes));
            let counts = EventCounts {
                captures,
                ..EventCounts::default()
            };
            stats.add(&summary, Some(counts));
        }
        let games = stats.finish();
        let g = &games[0];
        assert_eq!((g.valid, g.invalid, g.decided), (2, 1, 2));
        let expected = Results {
            white_wins: 1,
            draws: 0,
            black_wins: 1,
            aborted: 0,
        };
        assert_eq!(g.results, expected);
        assert_eq!(g.outcomes, BTreeMap::from([("0-1", 1), ("1-0", 1)]));
        assert_eq!(
            g.counts.map(|c| c.captures),
            Some(3),
            "the invalid log's 4 are not counted"
        );
    }

    #[test]
    fn duplicates_are_grouped_under_their_first_copy() {
        let mut d = Duplicates::default();
        assert!(d.add(Digest([1; 32]), "a".into()));
        assert!(d.add(Digest([2; 32]), "b".into()));
        assert!(!d.add(Digest([1; 32]), "c".into()));
        let groups: Vec<_> = d.groups().collect();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].1, ["a", "c"]);
    }
}
