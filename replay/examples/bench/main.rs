//! The library half of `bench/run.sh` (docs/performance.md): the speed of
//! every stage of fgn over generated corpora of every game, on one core,
//! next to blake3 hashing the same bytes in the same run; events per
//! second across log sizes; and the corpora on disk for the command-line
//! timings.
//!
//! ```text
//! cargo run --release -p fgn-replay --example bench -- stages [GAMES] [SECONDS] [CORPUS...]
//! cargo run --release -p fgn-replay --example bench -- sizes [MAX_BYTES] [SECONDS]
//! cargo run --release -p fgn-replay --example bench -- write DIR CORPUS FILES [MAX_EVENTS]
//! cargo run --release -p fgn-replay --example bench -- profile CORPUS [SECONDS] [GAMES] [STAGE]
//! ```
//!
//! `stages` and `sizes` print markdown tables for docs/performance.md.
//! Every figure is the best of repeated runs of the stage over the whole
//! corpus in memory (at least three runs and at least SECONDS of them),
//! since on a shared machine the least disturbed run is the one closest to
//! what the code costs; no file is read, so the figures are the libraries'
//! alone. `write` writes one corpus as one canonical `.fgn` file per game
//! and prints how many files, events and bytes it wrote. `profile`
//! runs one stage (STAGE, `replay` by default: validating parsed games)
//! over GAMES (400) logs of one corpus, over and over for SECONDS (0: once),
//! for a profiler (`perf record`, `valgrind --tool=callgrind`) to look at
//! one engine or stage.

mod corpora;
mod stages;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use corpora::Corpus;

/// Runs `f` at least three times and for at least `min`, and returns the
/// best time of one run.
pub fn best_of(min: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < 3 || start.elapsed() < min {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T, what: &str) -> T {
    match args.get(i) {
        None => default,
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!("bench: {what} must be a number, not `{a}`");
            std::process::exit(2)
        }),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bench stages [GAMES] [SECONDS] [CORPUS...] | bench sizes [MAX_BYTES] [SECONDS] | bench write DIR CORPUS FILES [MAX_EVENTS] | bench profile CORPUS [SECONDS] [GAMES] [STAGE]";
    match args.first().map(String::as_str) {
        Some("stages") => {
            let games = arg(&args, 1, 400u64, "GAMES");
            let secs = arg(&args, 2, 0.5f64, "SECONDS");
            let only: Vec<Corpus> = args.iter().skip(3).map(String::as_str).map(corpus_arg).collect();
            let corpora = if only.is_empty() { corpora::ALL.to_vec() } else { only };
            stages::stages(&corpora, games, Duration::from_secs_f64(secs));
        }
        Some("sizes") => {
            let max_bytes = arg(&args, 1, fgn_notation::MAX_FILE_BYTES, "MAX_BYTES");
            let secs = arg(&args, 2, 0.5f64, "SECONDS");
            stages::sizes(max_bytes, Duration::from_secs_f64(secs));
        }
        Some("write") if args.len() >= 4 => {
            let dir = PathBuf::from(&args[1]);
            let corpus = corpus_arg(&args[2]);
            let files = arg(&args, 3, 0u64, "FILES");
            let max = arg(&args, 4, 300usize, "MAX_EVENTS");
            write(&dir, corpus, files, max);
        }
        Some("profile") if args.len() >= 2 => {
            let corpus = corpus_arg(&args[1]);
            let secs = arg(&args, 2, 5.0f64, "SECONDS");
            let games = arg(&args, 3, 400u64, "GAMES");
            let stage = args.get(4).map_or("replay", String::as_str);
            if !stages::profile(corpus, games, Duration::from_secs_f64(secs), stage) {
                eprintln!("bench: no stage `{stage}`; one of {}", stages::stage_slugs().join(", "));
                std::process::exit(2)
            }
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2)
        }
    }
}

fn corpus_arg(slug: &str) -> Corpus {
    Corpus::from_slug(slug).unwrap_or_else(|| {
        let slugs: Vec<_> = corpora::ALL.iter().map(|c| c.slug()).collect();
        eprintln!("bench: no corpus `{slug}`; one of {}", slugs.join(", "));
        std::process::exit(2)
    })
}

/// Writes `files` games of `corpus` into `dir`, one canonical log each.
fn write(dir: &std::path::Path, corpus: Corpus, files: u64, max: usize) {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("bench: cannot make {}: {e}", dir.display());
        std::process::exit(2)
    }
    let (mut events, mut bytes) = (0usize, 0usize);
    for i in 0..files {
        let game = corpus.game(i, max);
        let text = game.canonical_text();
        events += game.events.len();
        bytes += text.len();
        let path = dir.join(format!("{}-{i:06}.fgn", corpus.slug()));
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("bench: cannot write {}: {e}", path.display());
            std::process::exit(2)
        }
    }
    println!("{files} {events} {bytes}");
}
