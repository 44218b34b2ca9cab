//! Validation throughput over a generated corpus, next to blake3 hashing of
//! the same bytes in the same run (the baseline the figures are relative to).
//!
//! Run with `cargo bench -p fgn-replay`. It prints plies per second on one
//! core for parsing plus replay, and for replay of already-parsed events,
//! for 8x8 and 12x12 survival-chess games.

use std::hint::black_box;
use std::time::{Duration, Instant};

use fgn_notation::{parse, Action, BoardSize, Game};
use fgn_replay::magic::random::random_game as random_draughts;
use fgn_replay::owc::random::random_game as random_owc;
use fgn_replay::ruleset::OpenWorldRules;
use fgn_replay::survival::random::random_game;

/// Runs `f` repeatedly for at least `min` and returns the best time per run,
/// which is the least disturbed by the rest of the machine.
fn best_of(min: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while start.elapsed() < min || runs < 3 {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

fn plies(games: &[Game]) -> usize {
    games
        .iter()
        .flat_map(|g| &g.events)
        .filter(|e| matches!(e.action, Action::Move(_)))
        .count()
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games_per_size = if quick { 4 } else { 400 };
    let min = if quick {
        Duration::from_millis(10)
    } else {
        Duration::from_secs(2)
    };
    println!("survival-chess validation, one core, best of repeated runs over {games_per_size} random games per size");
    println!(
        "{:<7} {:>8} {:>8} {:>15} {:>15} {:>15} {:>13} {:>8}",
        "board", "plies", "MiB", "parse+replay", "parse only", "replay only", "blake3", "ratio"
    );
    for (files, ranks) in [(8u8, 8u8), (12, 12)] {
        let size = BoardSize { files, ranks };
        let games: Vec<Game> = (0..games_per_size)
            .map(|i| random_game(size, i as u64 + 1, 300))
            .collect();
        let texts: Vec<String> = games.iter().map(Game::canonical_text).collect();
        let bytes: usize = texts.iter().map(String::len).sum();
        let n = plies(&games);
        for g in &games {
            let v = fgn_replay::validate(g).expect("supported game");
            assert!(v.error.is_none(), "generated games are legal: {:?}", v.error);
        }
        let full = best_of(min, || {
            for t in &texts {
                let parsed = parse(t.as_bytes());
                black_box(fgn_replay::validate(&parsed.document.game).expect("supported").applied);
            }
        });
        if std::env::var_os("FGN_BENCH_PROFILE_PARSE").is_some() {
            // For profilers: parse the texts for a while and nothing else.
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(10) {
                for t in &texts {
                    black_box(parse(t.as_bytes()).document.game.events.len());
                }
            }
        }
        let parse_only = best_of(min, || {
            for t in &texts {
                black_box(parse(t.as_bytes()).document.game.events.len());
            }
        });
        let replay = best_of(min, || {
            for g in &games {
                black_box(fgn_replay::validate(g).expect("supported").applied);
            }
        });
        let hash = best_of(min, || {
            for t in &texts {
                black_box(blake3::hash(t.as_bytes()));
            }
        });
        let rate = |d: Duration| n as f64 / d.as_secs_f64();
        let mib = bytes as f64 / (1024.0 * 1024.0);
        println!(
            "{:<7} {:>8} {:>8.2} {:>11.2} M/s {:>11.2} M/s {:>11.2} M/s {:>7.0} MiB/s {:>7.1}x",
            size.to_string(),
            n,
            mib,
            rate(full) / 1e6,
            rate(parse_only) / 1e6,
            rate(replay) / 1e6,
            mib / hash.as_secs_f64(),
            full.as_secs_f64() / hash.as_secs_f64(),
        );
    }
    println!();
    println!("magic-draughts validation ({games_per_size} random seeded games each, spells and reveals included)");
    println!(
        "{:<7} {:>8} {:>8} {:>15} {:>15} {:>15} {:>13} {:>8}",
        "magic", "plies", "MiB", "parse+replay", "parse only", "replay only", "blake3", "ratio"
    );
    for magic in [true, false] {
        let games: Vec<Game> = (0..games_per_size)
            .map(|i| {
                let world: [u8; 32] = std::array::from_fn(|b| (b * 13 + i) as u8);
                random_draughts(world, magic, i as u64, 300)
            })
            .collect();
        let texts: Vec<String> = games.iter().map(Game::canonical_text).collect();
        let bytes: usize = texts.iter().map(String::len).sum();
        let n = games
            .iter()
            .flat_map(|g| &g.events)
            .filter(|e| matches!(e.action, Action::Draughts { .. }))
            .count();
        for g in &games {
            let v = fgn_replay::validate(g).expect("supported game");
            assert!(v.error.is_none(), "generated games are legal: {:?}", v.error);
        }
        let full = best_of(min, || {
            for t in &texts {
                let parsed = parse(t.as_bytes());
                black_box(fgn_replay::validate(&parsed.document.game).expect("supported").applied);
            }
        });
        let parse_only = best_of(min, || {
            for t in &texts {
                black_box(parse(t.as_bytes()).document.game.events.len());
            }
        });
        let replay = best_of(min, || {
            for g in &games {
                black_box(fgn_replay::validate(g).expect("supported").applied);
            }
        });
        let hash = best_of(min, || {
            for t in &texts {
                black_box(blake3::hash(t.as_bytes()));
            }
        });
        let rate = |d: Duration| n as f64 / d.as_secs_f64();
        let mib = bytes as f64 / (1024.0 * 1024.0);
        println!(
            "{:<7} {:>8} {:>8.2} {:>11.2} M/s {:>11.2} M/s {:>11.2} M/s {:>7.0} MiB/s {:>7.1}x",
            if magic { "on" } else { "off" },
            n,
            mib,
            rate(full) / 1e6,
            rate(parse_only) / 1e6,
            rate(replay) / 1e6,
            mib / hash.as_secs_f64(),
            full.as_secs_f64() / hash.as_secs_f64(),
        );
    }
    println!();
    println!("open-world-chess validation ({games_per_size} random seeded games, seed re-derivation included)");
    println!(
        "{:<7} {:>8} {:>8} {:>15} {:>15} {:>15} {:>13} {:>8}",
        "rules", "events", "MiB", "parse+replay", "parse only", "replay only", "blake3", "ratio"
    );
    for (name, rules) in [
        ("default", OpenWorldRules::default()),
        (
            "busy",
            OpenWorldRules {
                spawn_chance: 50,
                shop_price: 1,
                coin_share: 30,
                ..OpenWorldRules::default()
            },
        ),
    ] {
        let games: Vec<Game> = (0..games_per_size)
            .map(|i| {
                let world: [u8; 32] = std::array::from_fn(|b| (b * 7 + i) as u8);
                random_owc(rules.clone(), world, i as u64, 600)
            })
            .collect();
        let texts: Vec<String> = games.iter().map(Game::canonical_text).collect();
        let bytes: usize = texts.iter().map(String::len).sum();
        let n: usize = games.iter().map(|g| g.events.len()).sum();
        for g in &games {
            let v = fgn_replay::validate(g).expect("supported game");
            assert!(v.error.is_none(), "generated games are legal: {:?}", v.error);
        }
        let full = best_of(min, || {
            for t in &texts {
                let parsed = parse(t.as_bytes());
                black_box(fgn_replay::validate(&parsed.document.game).expect("supported").applied);
            }
        });
        let parse_only = best_of(min, || {
            for t in &texts {
                black_box(parse(t.as_bytes()).document.game.events.len());
            }
        });
        let replay = best_of(min, || {
            for g in &games {
                black_box(fgn_replay::validate(g).expect("supported").applied);
            }
        });
        let hash = best_of(min, || {
            for t in &texts {
                black_box(blake3::hash(t.as_bytes()));
            }
        });
        let rate = |d: Duration| n as f64 / d.as_secs_f64();
        let mib = bytes as f64 / (1024.0 * 1024.0);
        println!(
            "{:<7} {:>8} {:>8.2} {:>11.2} M/s {:>11.2} M/s {:>11.2} M/s {:>7.0} MiB/s {:>7.1}x",
            name,
            n,
            mib,
            rate(full) / 1e6,
            rate(parse_only) / 1e6,
            rate(replay) / 1e6,
            mib / hash.as_secs_f64(),
            full.as_secs_f64() / hash.as_secs_f64(),
        );
    }
    println!("ratio: time to parse and validate the bytes / time for blake3 to hash the same bytes");
}
