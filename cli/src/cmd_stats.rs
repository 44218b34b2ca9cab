//! `fgn stats`: per game kind, the results (from white's side, by outcome
//! and by reason), the lengths, what the events did (captures, deaths,
//! coins, spells, charges) and each player's record, over every distinct
//! game of the paths; with `--duplicates`, the groups of files that hold
//! the same game. The accumulation is `fgn_tools::archive`'s, the counts
//! `fgn_tools::counts`'.

use std::path::PathBuf;

use fgn_tools::archive::{Duplicates, GameStats, Record, Stats};
use fgn_tools::counts::EventCounts;
use fgn_tools::summary::Status;

use crate::cmd_select::each_summary_with;
use crate::out::outln;
use crate::report::{Format, Reporter};

/// `fgn stats`. A game copied into several files (the same log hash)
/// counts once; the copies are listed under `duplicates`. Invalid logs are
/// counted as such and reported on standard error (exit 1), as by
/// `validate`; logs with syntax errors have no log hash and are counted
/// once each. With `counting`, each game also gets what the events of its
/// valid logs did (`--counts`), which replays every valid log a second time
/// with its account of changes: that costs many times what the rest of
/// `stats` costs (docs/select.md), so it is asked for.
pub fn stats(paths: &[PathBuf], counting: bool, rep: &mut Reporter) {
    let mut stats = Stats::default();
    let mut copies = Duplicates::default();
    let mut files = 0;
    // The counts replay a valid log once more, with its account of
    // changes; only valid logs' counts are summed (archive::GameStats).
    let counts = |parsed: &fgn_notation::Parsed, summary: &fgn_tools::summary::Summary| {
        if !counting {
            None
        } else if summary.status == Status::Valid {
            Some(EventCounts::of_log(&parsed.document.game))
        } else {
            Some(EventCounts::default())
        }
    };
    each_summary_with(paths, rep, counts, |name, summary, counts, _| {
        files += 1;
        let first = summary.log_hash.is_none_or(|hash| copies.add(hash, name));
        if first {
            stats.add(&summary, counts);
        }
    });
    let games = stats.finish();
    let duplicates: Vec<_> = copies
        .groups()
        .map(|(hash, files)| serde_json::json!({"log_hash": hash, "files": files}))
        .collect();
    match rep.format {
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::json!({"format": "fgn-stats", "version": 3, "type": "stats", "files": files, "games": games, "duplicates": duplicates})
        ),
        Format::Text => text(files, &games, &copies, rep),
    }
}

fn record(r: &Record) -> String {
    let aborted = if r.aborted > 0 {
        format!(" ({} aborted)", r.aborted)
    } else {
        String::new()
    };
    format!("{}/{}/{}{aborted}", r.wins, r.draws, r.losses)
}

/// The counts that are not 0, briefly: `captures 12, deaths 19, coins
/// spent 2`.
fn counts(c: &EventCounts) -> String {
    let all = [
        ("captures", c.captures),
        ("deaths", c.deaths),
        ("coins spent", c.coins_spent),
        ("coins gained", c.coins_gained),
        ("spells cast", c.spells_cast),
        ("charges spent", c.charges_spent),
    ];
    all.iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn text(files: usize, games: &[GameStats], copies: &Duplicates, rep: &Reporter<'_>) {
    let distinct: usize = games.iter().map(|g| g.logs).sum();
    // A summary line, which --quiet leaves out (the tables are the output
    // asked for).
    let mut first = true;
    if !rep.quiet {
        outln!(rep, "{files} files, {distinct} distinct logs");
        first = false;
    }
    for g in games {
        if !std::mem::take(&mut first) {
            outln!(rep, "");
        }
        outln!(
            rep,
            "{}: {} logs ({} valid, {} invalid, {} unsupported), {} decided",
            g.game.as_deref().unwrap_or("(no Game tag)"),
            g.logs,
            g.valid,
            g.invalid,
            g.unsupported,
            g.decided
        );
        if g.outcomes_unchecked > 0 {
            outln!(
                rep,
                "  {} valid logs with random outcomes no revealed seed checked",
                g.outcomes_unchecked
            );
        }
        let list = |counts: &std::collections::BTreeMap<&str, usize>| {
            counts
                .iter()
                .map(|(value, games)| format!("{value} {games}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if g.decided > 0 {
            outln!(rep, "  outcomes: {}", list(&g.outcomes));
            outln!(rep, "  reasons:  {}", list(&g.reasons));
            let l = &g.lengths;
            outln!(
                rep,
                "  moves:    min {}, median {}, mean {:.1}, max {}",
                l.min.unwrap_or(0),
                l.median.unwrap_or(0),
                l.mean.unwrap_or(0.0),
                l.max.unwrap_or(0)
            );
        }
        if let Some(c) = g.counts.filter(|c| !c.is_zero()) {
            outln!(rep, "  events:   {}", counts(&c));
        }
        if !g.players.is_empty() {
            let width = g.players.iter().map(|p| p.id.chars().count()).max().unwrap_or(0).max(6);
            outln!(
                rep,
                "  {:<width$}  {:>5}  {:<12} {:<12} {:<12} name",
                "player",
                "games",
                "W/D/L",
                "as white",
                "as black"
            );
            for p in &g.players {
                outln!(
                    rep,
                    "  {:<width$}  {:>5}  {:<12} {:<12} {:<12} {}",
                    p.id,
                    p.games,
                    record(&p.total),
                    record(&p.white),
                    record(&p.black),
                    p.name.as_deref().unwrap_or("")
                );
            }
        }
    }
    let groups: Vec<_> = copies.groups().collect();
    if !groups.is_empty() {
        outln!(rep, "");
        outln!(rep, "duplicates (the same log hash, counted once):");
        for (hash, files) in groups {
            outln!(rep, "  {hash}");
            for f in files {
                outln!(rep, "    {f}");
            }
        }
    }
}
