//! The timed stages over in-memory corpora, and the per-event cost across
//! log sizes, printed as markdown tables.

use std::hint::black_box;
use std::time::{Duration, Instant};

use fgn_notation::json::JsonDocument;
use fgn_notation::{parse, parse_in_runs, Color, Game};
use fgn_replay::{is_canonical, validate, view, Replay, Validation};
use fgn_tools::loghash;
use fgn_tools::summary::{summarize, Summary};

use crate::best_of;
use crate::corpora::Corpus;

/// What each stage does to one log's text (or, for `Replay`, to its events
/// already parsed), as the command named in its title does it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Parse,
    Validate,
    ValidateInRuns,
    Replay,
    LogHash,
    StateHashes,
    View,
    Json,
    JsonWriting,
    FmtCheck,
}

const STAGES: [Stage; 10] = [
    Stage::Parse,
    Stage::Validate,
    Stage::ValidateInRuns,
    Stage::Replay,
    Stage::LogHash,
    Stage::StateHashes,
    Stage::View,
    Stage::Json,
    Stage::JsonWriting,
    Stage::FmtCheck,
];

impl Stage {
    fn title(self) -> &'static str {
        match self {
            Stage::Parse => "parse",
            Stage::Validate => "parse + validate",
            Stage::ValidateInRuns => "parse + validate in runs",
            Stage::Replay => "validate (parsed)",
            Stage::LogHash => "hash",
            Stage::StateHashes => "hash --states",
            Stage::View => "view",
            Stage::Json => "json",
            Stage::JsonWriting => "json, writing alone",
            Stage::FmtCheck => "fmt --check",
        }
    }

    /// The one-word name `profile` takes for the stage.
    fn slug(self) -> &'static str {
        match self {
            Stage::Parse => "parse",
            Stage::Validate => "validate",
            Stage::ValidateInRuns => "validate-runs",
            Stage::Replay => "replay",
            Stage::LogHash => "hash",
            Stage::StateHashes => "states",
            Stage::View => "view",
            Stage::Json => "json",
            Stage::JsonWriting => "json-writing",
            Stage::FmtCheck => "fmt-check",
        }
    }

    /// Runs the stage over one log; `false` when the stage refuses it
    /// (a view of a game that has none, say), so it is left out.
    /// `summary` is the log's, made beforehand for the stage that only
    /// writes JSON (which refuses a log without it).
    fn run(self, text: &str, game: &Game, summary: Option<&Summary>, out: &mut Vec<u8>) -> bool {
        match self {
            Stage::Replay => return validate(game).is_ok_and(|v| black_box(v.error).is_none()),
            Stage::ValidateInRuns => return validate_in_runs(text),
            Stage::JsonWriting => {
                // What `json` does beyond parsing, validating and hashing:
                // serde_json writing the document of a parsed game whose
                // summary is known. `json` is held against parse +
                // validate plus this (issue #11: "no slower than validation
                // plus writing its output").
                out.clear();
                return summary.is_some()
                    && serde_json::to_writer(&mut *out, &JsonDocument::new(game, None, summary)).is_ok();
            }
            _ => {}
        }
        let parsed = parse(text.as_bytes());
        match self {
            Stage::Parse => black_box(parsed.document.game.events.len()) > 0,
            Stage::Validate | Stage::ValidateInRuns | Stage::Replay | Stage::JsonWriting => {
                validate(&parsed.document.game).is_ok_and(|v| black_box(v.error).is_none())
            }
            Stage::LogHash => {
                black_box(loghash::chain(&parsed.document.game).log_hash());
                true
            }
            Stage::StateHashes => {
                let Ok(mut replay) = Replay::new(&parsed.document.game.header) else {
                    return false;
                };
                for event in parsed.document.game.events.iter() {
                    if replay.apply(event).is_err() {
                        return false;
                    }
                    black_box(replay.state_hash());
                }
                true
            }
            Stage::View => {
                view(&parsed.document.game, Color::White).is_ok_and(|v| !black_box(v.canonical_text()).is_empty())
            }
            Stage::Json => {
                // As `fgn json --ndjson` writes it: one line per game, with
                // the game's summary (which validates it and hashes its log).
                let summary = summarize(&parsed);
                out.clear();
                serde_json::to_writer(
                    &mut *out,
                    &JsonDocument::new(&parsed.document.game, None, Some(&summary)),
                )
                .is_ok()
            }
            // As `fgn fmt --check` does it: the text is written only for a
            // log that is not canonical, which the generated ones are.
            Stage::FmtCheck => black_box(is_canonical(&parsed, text.as_bytes())),
        }
    }
}

/// One corpus measured: its size, blake3's time over its bytes, and each
/// stage's time (`None` when the stage refused some log).
struct Row {
    corpus: Corpus,
    games: usize,
    events: usize,
    bytes: usize,
    blake3: Duration,
    times: Vec<Option<Duration>>,
}

/// The games of a corpus as the stages measure them: open-world-chess games
/// count world events and `end`s, so they may be longer.
fn games_of(corpus: Corpus, games: u64) -> Vec<Game> {
    let max = match corpus {
        Corpus::OpenWorld(_) => 600,
        _ => 300,
    };
    (0..games).map(|i| corpus.game(i, max)).collect()
}

/// The names `profile` takes for the stages.
pub fn stage_slugs() -> Vec<&'static str> {
    STAGES.iter().map(|s| s.slug()).collect()
}

/// Runs one stage (by its slug; see [`stage_slugs`]) over `games` logs of
/// `corpus`, at least once and again and again for `time`, for a profiler
/// to look at; `false` when no stage has that slug.
pub fn profile(corpus: Corpus, games: u64, time: Duration, stage: &str) -> bool {
    let Some(stage) = STAGES.into_iter().find(|s| s.slug() == stage) else {
        return false;
    };
    let games = games_of(corpus, games);
    let texts: Vec<String> = games.iter().map(Game::canonical_text).collect();
    let summaries: Vec<Summary> = match stage {
        Stage::JsonWriting => texts.iter().map(|t| summarize(&parse(t.as_bytes()))).collect(),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let start = Instant::now();
    loop {
        for (i, (t, g)) in texts.iter().zip(&games).enumerate() {
            black_box(stage.run(t, g, summaries.get(i), &mut out));
        }
        if start.elapsed() >= time {
            break;
        }
    }
    true
}

fn measure(corpus: Corpus, games: u64, min: Duration) -> Row {
    let parsed = games_of(corpus, games);
    let texts: Vec<String> = parsed.iter().map(Game::canonical_text).collect();
    let summaries: Vec<Summary> = texts.iter().map(|t| summarize(&parse(t.as_bytes()))).collect();
    let mut out = Vec::new();
    let times = STAGES
        .iter()
        .map(|&stage| {
            // Every log must pass the stage once before it is timed: a
            // refused log would time an early return.
            let logs = || texts.iter().zip(&parsed).zip(&summaries);
            if !logs().all(|((t, g), sum)| stage.run(t, g, Some(sum), &mut out)) {
                eprintln!(
                    "bench: {} refuses some {} logs; left out",
                    stage.title(),
                    corpus.label()
                );
                return None;
            }
            Some(best_of(min, || {
                for ((t, g), sum) in logs() {
                    stage.run(t, g, Some(sum), &mut out);
                }
            }))
        })
        .collect();
    let blake3 = best_of(min, || {
        for t in &texts {
            black_box(blake3::hash(t.as_bytes()));
        }
    });
    Row {
        corpus,
        games: parsed.len(),
        events: parsed.iter().map(|g| g.events.len()).sum(),
        bytes: texts.iter().map(String::len).sum(),
        blake3,
        times,
    }
}

/// A rate with about three significant digits.
fn figure(x: f64) -> String {
    match x {
        x if x >= 100.0 => format!("{x:.0}"),
        x if x >= 10.0 => format!("{x:.1}"),
        x => format!("{x:.2}"),
    }
}

fn table_head(first: &[&str]) {
    let titles: Vec<&str> = first.iter().copied().chain(STAGES.iter().map(|s| s.title())).collect();
    println!("| {} |", titles.join(" | "));
    println!("| --- |{}", " ---: |".repeat(titles.len() - 1));
}

/// Measures every corpus and prints the three tables: MB/s, events/s and
/// each stage's time over blake3's time on the same bytes.
pub fn stages(corpora: &[Corpus], games: u64, min: Duration) {
    let rows: Vec<Row> = corpora.iter().map(|&c| measure(c, games, min)).collect();
    let cell = |t: Option<Duration>, f: &dyn Fn(f64) -> String| t.map_or("—".to_string(), |t| f(t.as_secs_f64()));

    println!("Throughput on one core, MB/s of FGN text (10^6 bytes; `validate (parsed)` also counts the text its events came from):");
    println!();
    table_head(&["corpus", "games", "events", "MB", "blake3"]);
    for r in &rows {
        let mb = r.bytes as f64 / 1e6;
        let cells: Vec<String> = r.times.iter().map(|&t| cell(t, &|s| figure(mb / s))).collect();
        println!(
            "| {} | {} | {} | {:.2} | {} | {} |",
            r.corpus.label(),
            r.games,
            r.events,
            mb,
            figure(mb / r.blake3.as_secs_f64()),
            cells.join(" | ")
        );
    }
    println!();
    println!("Events per second on one core, millions:");
    println!();
    table_head(&["corpus"]);
    for r in &rows {
        let cells: Vec<String> = r
            .times
            .iter()
            .map(|&t| cell(t, &|s| format!("{:.2}", r.events as f64 / s / 1e6)))
            .collect();
        println!("| {} | {} |", r.corpus.label(), cells.join(" | "));
    }
    println!();
    println!("Time of each stage over blake3's time on the same bytes (lower is faster; the figure that carries over to other machines):");
    println!();
    table_head(&["corpus"]);
    for r in &rows {
        let b = r.blake3.as_secs_f64();
        let cells: Vec<String> = r
            .times
            .iter()
            .map(|&t| cell(t, &|s| format!("{:.0}×", s / b)))
            .collect();
        println!("| {} | {} |", r.corpus.label(), cells.join(" | "));
    }
}

/// The longest game the corpus makes within `max` events, out of a few
/// seeds, stopping at the first that reaches nine tenths of `max`.
fn long_game(corpus: Corpus, max: usize) -> Game {
    let mut best = corpus.game(0, max);
    let started = Instant::now();
    for i in 1..16 {
        if best.events.len() >= max / 10 * 9 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
        let g = corpus.game(i, max);
        if g.events.len() > best.events.len() {
            best = g;
        }
    }
    best
}

/// Parses and validates single logs of growing length, from about a
/// thousand events to `max_bytes` of text, and prints the time per event.
/// Reads and validates one log as `fgn validate` does, its events a run at
/// a time (`parse_in_runs` feeding a `Validation`); whether it is valid.
fn validate_in_runs(text: &str) -> bool {
    let mut validation = None;
    let streamed = parse_in_runs(text.as_bytes(), |run| {
        if let Ok(v) = validation.get_or_insert_with(|| Validation::new(run.header, None)) {
            v.feed(run);
        }
    });
    let Some(Ok(validation)) = validation else {
        return false;
    };
    streamed.is_ok()
        && validation
            .finish()
            .is_some_and(|v| black_box(v.verdict.error).is_none())
}

pub fn sizes(max_bytes: usize, min: Duration) {
    println!("Time per event across log sizes, one log at a time on one core: parse + validate with the events kept, and read in runs as `fgn validate` does (`parse_in_runs` feeding a `Validation`):");
    println!();
    println!("| corpus | events | MB | M events/s | ns per event | in runs: M events/s | ns per event |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for corpus in [
        Corpus::Survival(8),
        Corpus::Draughts(true),
        Corpus::OpenWorld(false),
        Corpus::GreatWar(false),
    ] {
        let mut target = 1_000;
        let mut last = 0;
        loop {
            let mut game = long_game(corpus, target);
            let mut text = game.canonical_text();
            // A prefix of a legal log is a legal log: a game longer than the
            // file-size limit is cut to fit it.
            if text.len() > max_bytes {
                let per_event = text.len() / game.events.len().max(1) + 1;
                game.events.truncate(max_bytes / per_event);
                text = game.canonical_text();
            }
            let events = game.events.len();
            if events <= last {
                eprintln!(
                    "bench: {} games end before {target} events; the longest has {events}",
                    corpus.label()
                );
                break;
            }
            last = events;
            let time = best_of(min, || {
                let doc = parse(text.as_bytes()).document;
                let verdict = validate(&doc.game).expect("a game with an engine");
                assert!(verdict.error.is_none(), "generated games are legal");
            });
            let in_runs = best_of(min, || assert!(validate_in_runs(&text), "generated games are legal"));
            let (s, r) = (time.as_secs_f64(), in_runs.as_secs_f64());
            println!(
                "| {} | {} | {:.2} | {:.2} | {:.0} | {:.2} | {:.0} |",
                corpus.label(),
                events,
                text.len() as f64 / 1e6,
                events as f64 / s / 1e6,
                s * 1e9 / events as f64,
                events as f64 / r / 1e6,
                r * 1e9 / events as f64
            );
            if text.len() * 10 > max_bytes * 9 {
                break;
            }
            target = (target * 10).min(max_bytes / (text.len() / events + 1));
        }
    }
}
