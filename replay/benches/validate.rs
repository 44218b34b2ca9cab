//! Validation throughput over generated corpora of every supported game,
//! next to blake3 hashing of the same bytes in the same run (the baseline the
//! figures are relative to).
//!
//! Run with `cargo bench -p fgn-replay`. For each corpus it prints plies (or
//! events) per second on one core for parsing plus replay, parsing alone and
//! replay of already-parsed events, and blake3's speed over the same text.
//! Set `FGN_BENCH_PROFILE_PARSE=1` to spend ten seconds parsing the first
//! corpus first, for a profiler.

use std::hint::black_box;
use std::time::{Duration, Instant};

use fgn_notation::{parse, Action, BoardSize, Game};
use fgn_replay::gen::{generate, Options, Rate, Setup};
use fgn_replay::ruleset::{Board, DraughtsRules, GreatWarRules, OpenWorldRules, SurvivalRules};
use fgn_replay::Ruleset;

/// A generated game under `rules` from `seed`, at most `plies` decisions
/// long and left open there: long games of uniformly random legal actions.
fn random_game(rules: Ruleset, setup: Setup, seed: u64, plies: usize) -> Game {
    let options = Options {
        setup,
        plies,
        finish: Rate::NEVER,
        resign_at_cap: false,
        ..Options::under(rules, seed)
    };
    generate(&options).expect("a generated game")
}

/// A survival-chess game from the classical setup on a `size` board.
fn random_survival(size: BoardSize, seed: u64, plies: usize) -> Game {
    let rules = Ruleset::Survival(SurvivalRules {
        board: Board(size),
        ..SurvivalRules::default()
    });
    random_game(rules, Setup::Classical, seed, plies)
}

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

fn header(title: &str, unit: &str) {
    println!();
    println!("{title}");
    println!(
        "{:<8} {:>8} {:>8} {:>15} {:>15} {:>15} {:>13} {:>8}",
        "corpus", unit, "MiB", "parse+replay", "parse only", "replay only", "blake3", "ratio"
    );
}

/// Measures one corpus; `count` says how many units (plies or events) a game has.
fn measure(label: &str, games: &[Game], count: impl Fn(&Game) -> usize, min: Duration) {
    let texts: Vec<String> = games.iter().map(Game::canonical_text).collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let n: usize = games.iter().map(count).sum();
    for g in games {
        let v = fgn_replay::validate(g).expect("supported game");
        assert!(v.error.is_none(), "generated games are legal: {:?}", v.error);
    }
    if std::env::var_os("FGN_BENCH_PROFILE_PARSE").is_some() {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            for t in &texts {
                black_box(parse(t.as_bytes()).document.game.events.len());
            }
        }
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
        for g in games {
            black_box(fgn_replay::validate(g).expect("supported").applied);
        }
    });
    let hash = best_of(min, || {
        for t in &texts {
            black_box(blake3::hash(t.as_bytes()));
        }
    });
    let rate = |d: Duration| n as f64 / d.as_secs_f64() / 1e6;
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!(
        "{:<8} {:>8} {:>8.2} {:>11.2} M/s {:>11.2} M/s {:>11.2} M/s {:>7.0} MiB/s {:>7.1}x",
        label,
        n,
        mib,
        rate(full),
        rate(parse_only),
        rate(replay),
        mib / hash.as_secs_f64(),
        full.as_secs_f64() / hash.as_secs_f64(),
    );
}

fn moves(g: &Game) -> usize {
    g.events
        .iter()
        .filter(|e| matches!(e.action, Action::Move(_) | Action::Draughts { .. }))
        .count()
}

fn main() {
    // `cargo test --benches` runs this without `--bench`; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let count = if quick { 4 } else { 400 };
    let min = if quick {
        Duration::from_millis(10)
    } else {
        Duration::from_secs(2)
    };
    println!("validation on one core, best of repeated runs, {count} random games per corpus");

    header("survival-chess", "plies");
    for (files, ranks) in [(8u8, 8u8), (12, 12)] {
        let size = BoardSize { files, ranks };
        let games: Vec<Game> = (0..count).map(|i| random_survival(size, i as u64 + 1, 300)).collect();
        measure(&size.to_string(), &games, moves, min);
    }

    header("magic-draughts (seeded; spells and reveals included)", "plies");
    for magic in [true, false] {
        let games: Vec<Game> = (0..count)
            .map(|i| {
                let rules = Ruleset::Draughts(DraughtsRules {
                    magic,
                    ..DraughtsRules::default()
                });
                random_game(rules, Setup::Random, i as u64, 300)
            })
            .collect();
        measure(if magic { "magic" } else { "plain" }, &games, moves, min);
    }

    header("open-world-chess (seeded; seed re-derivation included)", "events");
    for (label, rules) in [
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
        let games: Vec<Game> = (0..count)
            .map(|i| random_game(Ruleset::OpenWorld(rules.clone()), Setup::Random, i as u64, 400))
            .collect();
        measure(label, &games, |g| g.events.len(), min);
    }

    // Great-war-chess counts every event, setup placements and `end` included,
    // since each of them is a step the engine checks.
    header("great-war-chess (setup included)", "events");
    for (label, rules) in [
        ("default", GreatWarRules::default()),
        (
            "forts",
            GreatWarRules {
                fortifications: 2,
                ..GreatWarRules::default()
            },
        ),
    ] {
        let games: Vec<Game> = (0..count)
            .map(|i| random_game(Ruleset::GreatWar(rules.clone()), Setup::Random, i as u64 + 1, 300))
            .collect();
        measure(label, &games, |g| g.events.len(), min);
    }
    println!();
    println!("ratio: time to parse and validate the bytes / time for blake3 to hash the same bytes");
}
