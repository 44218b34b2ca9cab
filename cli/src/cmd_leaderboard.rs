//! `fgn leaderboard`: the standings of each game, from the logs that validate.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use fgn_notation::diagnostic::Severity;
use fgn_notation::GameKind;
use fgn_replay::Digest;
use fgn_tools::standings::{self, Entry, Recency, Standing, Standings};
use unicode_width::UnicodeWidthStr;

use crate::cmd_replay::{check, Checked};
use crate::out::{count, outln, Paint, Stream};
use crate::report::{Format, Reporter, Status};

/// What one log gives the leaderboard.
enum Counted {
    /// A valid log: its game, the key that tells copies of one game
    /// ([`standings::game_key`]), its recency and entries.
    Log {
        name: String,
        game: GameKind,
        hash: Digest,
        recency: Recency,
        entries: Vec<Entry>,
        /// Its random outcomes were never checked by a revealed seed.
        unchecked: bool,
    },
    /// A log that does not count, and why.
    Skipped { name: String, reason: &'static str },
}

/// One game's part of the leaderboard.
#[derive(Default)]
struct GameBoard {
    counted: usize,
    /// Of them, logs whose random outcomes no revealed seed checked.
    unchecked: usize,
    standings: Standings,
}

/// Replays one log for the leaderboard, reporting nothing itself: a log
/// that does not count gets one `skipped:` line later, not its diagnostics
/// (`fgn validate` gives those).
fn tally(log: crate::pipeline::Log, rep: &mut Reporter) -> Counted {
    rep.withdraw();
    let name = log.name;
    // The torn-append warning is the one diagnostic kept (docs/notation.md
    // §2.6): the log counts on its complete lines, and the line left out
    // may be the result that would have changed the standings.
    if log.parsed.is_ok() && log.parsed.is_torn() {
        if let Some(torn) = log.parsed.diagnostics.iter().find(|d| d.severity == Severity::Warning) {
            rep.diagnostic(&name, torn, "syntax");
        }
    }
    if !log.parsed.is_ok() {
        return Counted::Skipped {
            name,
            reason: "syntax errors",
        };
    }
    let doc = &log.parsed.document;
    let Some(game) = doc.game.kind() else {
        return Counted::Skipped {
            name,
            reason: "no game in the header",
        };
    };
    // The check's own report is dropped: the scratch reporter keeps all
    // it writes and is never written.
    let mut scratch = rep.scratch();
    let checked = check(&name, doc, None, &mut scratch);
    let replay = match checked {
        Checked::Valid(replay) => replay,
        Checked::Invalid => {
            return Counted::Skipped {
                name,
                reason: "invalid (`fgn validate` says why)",
            }
        }
        Checked::Unsupported => {
            return Counted::Skipped {
                name,
                reason: "unsupported (`fgn validate` says why)",
            }
        }
    };
    // `--strict`: a log with warnings does not count, as it does not pass
    // `fgn validate --strict`.
    let torn = log.parsed.diagnostics.iter().any(|d| d.severity == Severity::Warning);
    let warned = torn || replay.unchecked_outcomes().is_some() || !fgn_tools::summary::tag_warnings(doc).is_empty();
    if rep.strict && warned {
        return Counted::Skipped {
            name,
            reason: "warnings, which --strict makes errors (`fgn validate --strict` says which)",
        };
    }
    Counted::Log {
        game,
        unchecked: replay.outcomes_checked() == Some(false),
        hash: standings::game_key(&doc.game),
        recency: Recency::new(doc.game.header.get("Date"), &name),
        entries: standings::entries(&doc.game.header, &replay),
        name,
    }
}

/// `fgn leaderboard`.
pub fn leaderboard(paths: &[PathBuf], rep: &mut Reporter) {
    let mut boards: BTreeMap<GameKind, GameBoard> = BTreeMap::new();
    let mut skipped: Vec<(String, &'static str)> = Vec::new();
    // A game counts once however many copies of it the archive holds: the
    // same players and events are the same game, whatever tags that only
    // describe it say (standings::game_key).
    let mut games: HashMap<Digest, String> = HashMap::new();
    let walked = crate::pipeline::each(paths, rep, tally, |counted, rep| {
        let (name, game, hash, recency, entries, unchecked) = match counted {
            Counted::Log {
                name,
                game,
                hash,
                recency,
                entries,
                unchecked,
            } => (name, game, hash, recency, entries, unchecked),
            Counted::Skipped { name, reason } => {
                if !rep.quiet && rep.format == Format::Text {
                    rep.eprint(&format!("skipped: {name}: {reason}\n"));
                }
                return skipped.push((name, reason));
            }
        };
        if let Some(first) = games.get(&hash) {
            rep.note(&format!(
                "{name}: the same game as {first} (the same players and events), counted once"
            ));
            // A copy may still give the players' latest names.
            if let Some(board) = boards.get_mut(&game) {
                for entry in &entries {
                    board.standings.name_from(entry, &recency);
                }
            }
            return;
        }
        games.insert(hash, name);
        let board = boards.entry(game).or_default();
        board.counted += 1;
        board.unchecked += usize::from(unchecked);
        for entry in &entries {
            board.standings.add(entry, &recency);
        }
    });
    let counted: usize = boards.values().map(|b| b.counted).sum();
    // Standings computed are a result: skipped logs are listed, not a
    // failure. A path that could not be read stays an error (exit 2), and
    // so does a run that counted nothing.
    if counted > 0 && walked.unreadable == 0 {
        rep.status = Status::Ok;
    } else if counted == 0 && rep.status == Status::Ok {
        rep.error("no log validates, so there are no standings");
    }
    match rep.format {
        Format::Text => text(&boards, counted, skipped.len(), rep),
        Format::Json => {
            let games: Vec<_> = boards
                .iter()
                .map(|(game, board)| {
                    serde_json::json!({
                        "game": game,
                        "points_defined": standings::defines_points(*game),
                        "counted": board.counted,
                        "outcomes_unchecked": board.unchecked,
                        "standings": board.standings.rows(),
                    })
                })
                .collect();
            let skipped: Vec<_> = skipped
                .iter()
                .map(|(file, reason)| serde_json::json!({"file": file, "reason": reason}))
                .collect();
            let document =
                serde_json::json!({"type": "leaderboard", "games": games, "counted": counted, "skipped": skipped});
            outln!(rep, "{}", escape_bidi(&document.to_string()));
        }
    }
}

/// The text report: a table per game with points, a line per game
/// without, then the count of logs (with --quiet, no count).
fn text(boards: &BTreeMap<GameKind, GameBoard>, counted: usize, skipped: usize, rep: &Reporter) {
    let mut first = true;
    for (game, board) in boards {
        if !std::mem::take(&mut first) {
            outln!(rep, "");
        }
        let mut logs = count(board.counted, "log");
        if board.unchecked > 0 {
            logs += &format!(" ({} with random outcomes no revealed seed checked)", board.unchecked);
        }
        if !standings::defines_points(*game) {
            outln!(
                rep,
                "{}: {logs} counted; RULES.md defines no leaderboard points for this game, so it has no standings",
                rep.paint(Paint::Strong, Stream::Out, game.name())
            );
            continue;
        }
        outln!(
            rep,
            "{}: {logs} counted; a point per multiplayer win of a VK player (RULES.md)",
            rep.paint(Paint::Strong, Stream::Out, game.name())
        );
        let rows = board.standings.rows();
        if rows.is_empty() {
            outln!(rep, "no VK player has finished a multiplayer game");
            continue;
        }
        rep.print(&table(&rows));
    }
    // The skipped logs are not errors (the standings are computed), so
    // --quiet leaves out even their count, as every command leaves out
    // what is neither an error nor the output asked for.
    if rep.quiet {
        return;
    }
    if !first {
        outln!(rep, "");
    }
    outln!(rep, "{} counted, {skipped} skipped", count(counted, "log"));
}

/// The standings as aligned columns: each column as wide as its widest
/// cell as a terminal shows it, so long and wide names keep the columns
/// straight.
fn table(rows: &[Standing]) -> String {
    let header = ["rank", "player id", "name", "W", "D", "L", "points"];
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            [
                r.rank.to_string(),
                r.id.clone(),
                r.name.as_deref().map_or_else(|| "-".to_string(), printable),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
                r.points.to_string(),
            ]
        })
        .collect();
    let mut widths = header.map(UnicodeWidthStr::width);
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    // Numbers are right-aligned, the id and the name left-aligned.
    let left = [false, true, true, false, false, false, false];
    let line = |cells: &[&str]| -> String {
        let parts: Vec<String> = cells
            .iter()
            .zip(widths)
            .zip(left)
            .map(|((cell, w), left)| {
                let pad = " ".repeat(w - cell.width());
                if left {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        format!("{}\n", parts.join("  ").trim_end())
    };
    let mut out = line(&header);
    for row in &cells {
        out += &line(&row.each_ref().map(String::as_str));
    }
    out
}

/// Whether `c` is a bidirectional formatting character: it reorders the
/// text after it on a terminal, so a name holding one could make a row of
/// the table read as another player's, or push its numbers out of place
/// (the "Trojan Source" characters, and the marks).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A name as one table cell: control characters (a tab would break the
/// columns) and bidirectional formatting characters shown as U+FFFD.
fn printable(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_control() || is_bidi_control(c) {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// JSON text with every bidirectional formatting character written as a
/// `\uXXXX` escape: the same JSON value (such a character can stand only
/// in a string), but one that a terminal or a log viewer shows as it is.
fn escape_bidi(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if is_bidi_control(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, name: &str) -> Standing {
        Standing {
            rank: 1,
            id: id.into(),
            name: Some(name.into()),
            wins: 12,
            draws: 0,
            losses: 3,
            points: 12,
        }
    }

    /// Regression (issue 14): a name wider than its column pushed the
    /// columns after it out of line.
    #[test]
    fn wide_and_long_names_keep_the_columns_straight() {
        let rows = [
            row("vk:1", "Анна"),
            row("vk:22", "Ivan the Terrible of All the Russias"),
            row("vk:333", "李小龍"),
        ];
        let text = table(&rows);
        let lines: Vec<&str> = text.lines().collect();
        // The points column ends at the same terminal column on every line.
        let widths: Vec<usize> = lines.iter().map(|l| l.width()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{text}");
        // And the W column starts at the same column on every line.
        let w_at = |l: &str| l.find(" 12 ").map(|i| l[..i].width());
        let first = w_at(lines[1]);
        assert!(first.is_some(), "{text}");
        assert!(lines[1..].iter().all(|l| w_at(l) == first), "{text}");
    }

    #[test]
    fn a_tab_in_a_name_is_not_written_into_the_table() {
        assert_eq!(printable("A\tB"), "A\u{FFFD}B");
    }

    /// Regression (issue 36): a right-to-left override in a name was
    /// written as it is, reordering the rest of the row on a terminal.
    #[test]
    fn bidi_controls_in_a_name_are_never_written_raw() {
        let name = "Anna\u{202E}1 :stniop\u{2066}x\u{200F}";
        assert_eq!(printable(name), "Anna\u{FFFD}1 :stniop\u{FFFD}x\u{FFFD}");
        let json = serde_json::json!({ "name": name }).to_string();
        let escaped = escape_bidi(&json);
        assert!(!escaped.chars().any(is_bidi_control), "{escaped}");
        assert!(escaped.contains("\\u202e"), "{escaped}");
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back["name"], name, "the JSON value is unchanged");
    }
}
