//! Leaderboard standings (RULES.md section 1, "Leaderboard"), each game
//! apart.
//!
//! RULES.md gives leaderboard points for survival-chess only: in a
//! multiplayer game a win gives the winner one point when the winner's
//! player id is a VK profile. Draws, losses, aborted and single-player games
//! give nothing, and only logs that validate count (the caller's check).
//! Its shared conventions carry time limits, resignation and chat over to
//! every game, but not the leaderboard, so the other games get no points
//! here: [`defines_points`] (the rules' parameter, from fgn-replay) says
//! which games have them, and callers say so rather than invent a scale.

use std::collections::BTreeMap;

use fgn_notation::{Color, Game, Header, Outcome, Tag};
use serde::Serialize;

use fgn_replay::ruleset::parameter_tags;
use fgn_replay::{Digest, Phase, Replay};

/// Whether the rules give leaderboard points for a game: the rules' own
/// answer, re-exported where the standings are made.
pub use fgn_replay::ruleset::defines_points;

/// A VK profile id: `vk:` and decimal digits.
pub fn is_vk_id(id: &str) -> bool {
    id.strip_prefix("vk:")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A VK profile id in its one spelling: RULES.md writes it `vk:<number>`,
/// and a number's leading zeros do not change it, so `vk:01001` is
/// `vk:1001` (and `vk:000` is `vk:0`). `None` when `id` is not a VK id.
///
/// ```
/// use fgn_tools::standings::normal_vk_id;
/// assert_eq!(normal_vk_id("vk:01001").as_deref(), Some("vk:1001"));
/// assert_eq!(normal_vk_id("vk:000").as_deref(), Some("vk:0"));
/// assert_eq!(normal_vk_id("vk:"), None);
/// ```
pub fn normal_vk_id(id: &str) -> Option<String> {
    if !is_vk_id(id) {
        return None;
    }
    let digits = id["vk:".len()..].trim_start_matches('0');
    Some(format!("vk:{}", if digits.is_empty() { "0" } else { digits }))
}

/// What makes two logs one game for the leaderboard: the game and its
/// rules (`Game`, `Rules`, `Mode` and the tags that set rule parameters),
/// the players (`WhiteId` and `BlackId`, VK ids in their one spelling), and
/// every event, clocks included, compared as the log hash compares them.
/// Tags that only describe the game (names, `Date`, `Event`, `Site`, a
/// comment) and spacing are left out, so copies of one game that differ in
/// them (a trailing space in a name, say) count once. An id is compared as
/// written but for a VK id's leading zeros: `vk:1001 ` (with a space) is
/// no VK id, gives no points, and is another player.
pub fn game_key(game: &Game) -> Digest {
    let kept = |name: &str| {
        matches!(name, "Game" | "Rules" | "Mode" | "WhiteId" | "BlackId")
            || game
                .kind()
                .is_some_and(|k| parameter_tags(k).iter().any(|(_, tags)| tags.contains(&name)))
    };
    let tags = game
        .header
        .tags
        .iter()
        .filter(|t| kept(&t.name))
        .map(|t| {
            let value = match t.name.as_str() {
                "WhiteId" | "BlackId" => normal_vk_id(&t.value).unwrap_or_else(|| t.value.clone()),
                _ => t.value.clone(),
            };
            Tag {
                name: t.name.clone(),
                value,
            }
        })
        .collect();
    let key = Game {
        header: Header { tags },
        events: game.events.clone(),
    };
    crate::loghash::log_hash(&key)
}

/// How one game ended for one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Finish {
    /// The player won (a point).
    Win,
    /// A draw (no point).
    Draw,
    /// The player lost (no point).
    Loss,
}

/// What one valid log gives one player in the standings of its game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The player's id (`vk:<number>`, in [`normal_vk_id`]'s spelling).
    pub id: String,
    /// The player's name as this log gives it, if it does.
    pub name: Option<String>,
    /// How the game ended for the player.
    pub finish: Finish,
}

/// The entries a valid log gives, one per VK player of a finished
/// multiplayer game of a game RULES.md gives points for (`replay` is the
/// log replayed to its end). Aborted, unfinished and single-player games,
/// and players without a VK id, give none.
pub fn entries(header: &Header, replay: &Replay) -> Vec<Entry> {
    if !header.game().is_some_and(defines_points) || header.get("Mode") != Some("multiplayer") {
        return Vec::new();
    }
    let Phase::Over(d) = replay.phase() else {
        return Vec::new();
    };
    let finish = |color: Color| match d.outcome {
        Outcome::Draw => Some(Finish::Draw),
        Outcome::Abort => None,
        _ if d.outcome.winner() == Some(color) => Some(Finish::Win),
        _ => Some(Finish::Loss),
    };
    [(Color::White, "WhiteId", "White"), (Color::Black, "BlackId", "Black")]
        .into_iter()
        .filter_map(|(color, id_tag, name_tag)| {
            let id = header.get(id_tag).and_then(normal_vk_id)?;
            Some(Entry {
                id,
                name: header.get(name_tag).map(str::to_string),
                finish: finish(color)?,
            })
        })
        .collect()
}

/// The order of a game in time for naming its players: its `Date` tag read
/// as a calendar date ([`fgn_notation::Date::parse`]: `2025-03-01`, or
/// `2025.03.01` as PGN writes it; anything else counts as no date, older
/// than every date), then its path.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Recency {
    date: Option<fgn_notation::Date>,
    path: String,
}

impl Recency {
    /// The recency of the log at `path` with this `Date` tag value.
    pub fn new(date: Option<&str>, path: &str) -> Recency {
        Recency {
            date: date.and_then(fgn_notation::Date::parse),
            path: path.to_string(),
        }
    }
}

/// One player's line in a game's standings.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Standing {
    /// 1 for the most points; players with equal points share a rank.
    pub rank: usize,
    /// The player id.
    pub id: String,
    /// The name of the player's latest game (by [`Recency`]), if it gives one.
    pub name: Option<String>,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points: one per win (RULES.md section 1).
    pub points: u32,
}

/// The standings of one game, built from the entries of its valid logs.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    players: BTreeMap<String, Tally>,
}

#[derive(Clone, Debug, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// The latest game seen with the name it gives.
    named: Option<(Recency, Option<String>)>,
}

impl Standings {
    /// Counts `entry`, from a log with this recency. The name kept for an
    /// id is that of its latest game, whatever order the logs come in.
    pub fn add(&mut self, entry: &Entry, recency: &Recency) {
        let tally = self.players.entry(entry.id.clone()).or_default();
        match entry.finish {
            Finish::Win => tally.wins += 1,
            Finish::Draw => tally.draws += 1,
            Finish::Loss => tally.losses += 1,
        }
        if tally.named.as_ref().is_none_or(|(seen, _)| recency > seen) {
            tally.named = Some((recency.clone(), entry.name.clone()));
        }
    }

    /// Takes the name `entry` gives, if its log is the latest of the id's,
    /// without counting the game: for another copy of a game already
    /// counted, whose header may name the player differently.
    pub fn name_from(&mut self, entry: &Entry, recency: &Recency) {
        if let Some(tally) = self.players.get_mut(&entry.id) {
            if tally.named.as_ref().is_none_or(|(seen, _)| recency > seen) {
                tally.named = Some((recency.clone(), entry.name.clone()));
            }
        }
    }

    /// The rows, most points first (ties by id), with shared ranks.
    pub fn rows(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = self
            .players
            .iter()
            .map(|(id, t)| Standing {
                rank: 0,
                id: id.clone(),
                name: t.named.as_ref().and_then(|(_, n)| n.clone()),
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                points: t.wins,
            })
            .collect();
        rows.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| a.id.cmp(&b.id)));
        let mut previous = None;
        for (i, row) in rows.iter_mut().enumerate() {
            row.rank = match previous {
                Some((points, rank)) if points == row.points => rank,
                _ => i + 1,
            };
            previous = Some((row.points, row.rank));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::GameKind;

    fn entry(id: &str, name: &str, finish: Finish) -> Entry {
        Entry {
            id: id.into(),
            name: Some(name.into()),
            finish,
        }
    }

    /// Regression (issue 14): the name shown was the last file read; it is
    /// the latest game's, by date and then path, in any order of reading.
    #[test]
    fn the_name_is_that_of_the_latest_game_in_any_order() {
        let games = [
            (
                entry("vk:1", "Old", Finish::Win),
                Recency::new(Some("2025-03-01"), "z.fgn"),
            ),
            (
                entry("vk:1", "New", Finish::Loss),
                Recency::new(Some("2025-03-02"), "a.fgn"),
            ),
            (entry("vk:1", "Undated", Finish::Draw), Recency::new(None, "zz.fgn")),
        ];
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let mut s = Standings::default();
            for i in order {
                s.add(&games[i].0, &games[i].1);
            }
            let rows = s.rows();
            assert_eq!(rows[0].name.as_deref(), Some("New"), "{order:?}");
            assert_eq!((rows[0].wins, rows[0].draws, rows[0].losses), (1, 1, 1));
            assert_eq!(rows[0].points, 1);
        }
    }

    #[test]
    fn on_the_same_date_the_later_path_names_the_player() {
        let mut s = Standings::default();
        s.add(
            &entry("vk:1", "B", Finish::Win),
            &Recency::new(Some("2025.03.01"), "b.fgn"),
        );
        s.add(
            &entry("vk:1", "A", Finish::Win),
            &Recency::new(Some("2025-03-01"), "a.fgn"),
        );
        assert_eq!(s.rows()[0].name.as_deref(), Some("B"));
    }

    #[test]
    fn equal_points_share_a_rank() {
        let mut s = Standings::default();
        let r = Recency::new(None, "x.fgn");
        s.add(&entry("vk:1", "A", Finish::Win), &r);
        s.add(&entry("vk:2", "B", Finish::Win), &r);
        s.add(&entry("vk:3", "C", Finish::Loss), &r);
        let ranks: Vec<usize> = s.rows().iter().map(|r| r.rank).collect();
        assert_eq!(ranks, [1, 1, 3]);
    }

    #[test]
    fn dates_are_read_only_when_they_are_calendar_dates() {
        // A value that is no calendar date is older than every date, so a
        // game dated `2025-02-30` does not name the player over one of
        // 2025-01-01.
        for bad in [
            "2025-02-30",
            "2023-02-29",
            "2025.03-07",
            "2025-03-07 ",
            "2025-13-01",
            "soon",
        ] {
            assert!(
                Recency::new(Some(bad), "b.fgn") < Recency::new(Some("2025-01-01"), "a.fgn"),
                "{bad:?}"
            );
            assert_eq!(Recency::new(Some(bad), "b.fgn"), Recency::new(None, "b.fgn"), "{bad:?}");
        }
        assert!(Recency::new(Some("2025.12.31"), "a.fgn") > Recency::new(Some("2025-12-30"), "b.fgn"));
    }

    #[test]
    fn only_survival_chess_has_points() {
        assert!(defines_points(GameKind::SurvivalChess));
        for g in [
            GameKind::OpenWorldChess,
            GameKind::GreatWarChess,
            GameKind::MagicDraughts,
        ] {
            assert!(!defines_points(g), "{g}");
        }
    }
}
