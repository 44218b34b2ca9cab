//! What the rules engines make of every corpus log, in-process and in one
//! snapshot: each valid game's result and hashes (state, every state on
//! the way, both players' knowledge, the log and both views), each invalid game's rule error,
//! each log's canonical text (what `fgn fmt` writes) and each view file's
//! replay. The end-to-end tests (`tests/e2e/corpus.rs`)
//! pin the same through the `fgn` binary, file by file; this test needs no
//! binary and runs in well under a second, which is what lets cargo-mutants
//! try every mutant of the rules code against the whole corpus
//! (docs/testing.md, "cargo-mutants").

use std::fmt::Write;
use std::path::{Path, PathBuf};

use fgn_notation::{parse, Action, Color, Seed};
use fgn_replay::{replayable, validate, view, Viewer};
use fgn_tools::loghash;

const GAMES: [&str; 4] = [
    "survival-chess",
    "open-world-chess",
    "great-war-chess",
    "magic-draughts",
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn logs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "fgn"));
    files.sort();
    files
}

/// Every corpus log of `kind` (`valid`, `invalid`) of every game, parsed,
/// with its path.
fn corpus_logs(kind: &str) -> Vec<(PathBuf, fgn_notation::Game)> {
    GAMES
        .iter()
        .flat_map(|game| logs(&corpus().join(game).join(kind)))
        .map(|path| {
            let game = parse(&std::fs::read(&path).expect("a readable corpus file"))
                .document
                .game;
            (path, game)
        })
        .collect()
}

/// One line (or a few) for one log, as the engines see it.
fn verdict_of(kind: &str, text: &[u8]) -> String {
    let parsed = parse(text);
    if !parsed.is_ok() {
        return format!("does not parse: {} diagnostics", parsed.diagnostics.len());
    }
    let game = parsed.document.game;
    let mut out = String::new();
    if kind == "views" {
        let side = game.perspective().expect("a view file names its player");
        match replayable(&game) {
            // An open-world-chess view is read on its own (issue 37).
            Err(fgn_replay::ViewError::NotReplayable(_)) => {
                let (mut reader, _) = fgn_replay::ViewReader::new(&game.header, None).expect("a view that is read");
                let read = game
                    .events
                    .iter()
                    .enumerate()
                    .take_while(|(i, e)| reader.read(*i, e).is_ok())
                    .count();
                write!(
                    out,
                    "reads {read} of {} events; knowledge {}",
                    game.events.len(),
                    reader.knowledge().hash()
                )
                .unwrap();
            }
            Err(e) => write!(out, "not replayable alone: {e}").unwrap(),
            Ok((full, s, origins)) => {
                assert_eq!(s, side);
                assert_eq!(origins.len(), full.events.len());
                let v = validate(&full).expect("a replayable view starts");
                write!(
                    out,
                    "replays {} of {} events; knowledge {}",
                    v.applied,
                    full.events.len(),
                    v.replay.knowledge_hash(Viewer::of(side))
                )
                .unwrap();
                if let Some(e) = v.error {
                    write!(out, "; {e}").unwrap();
                }
            }
        }
        return out;
    }
    let v = match validate(&game) {
        Ok(v) => v,
        Err(e) => return format!("does not start: {e}"),
    };
    let r = &v.replay;
    write!(out, "{} of {} events applied", v.applied, game.events.len()).unwrap();
    // What `fgn fmt` writes: the markers the rules fill in, up to any error.
    let canonical = fgn_replay::complete_markers(&game).canonical_text();
    write!(out, "; canonical {}", blake3::hash(canonical.as_bytes())).unwrap();
    match &v.error {
        Some(e) => write!(out, "; [{}] {:?}: {}", e.rule.name(), e.place, e.message).unwrap(),
        None => {
            write!(out, "; {:?}", r.phase()).unwrap();
            write!(out, "\n  state {}", r.state_hash()).unwrap();
            // Every state on the way, not only the last: a world event owed
            // in between (a damage roll, a reveal) is part of the state.
            let mut states = blake3::Hasher::new();
            let mut replay = fgn_replay::Replay::new(&game.header).expect("it started once");
            for e in game.events.iter() {
                replay.apply(e).expect("a valid log applies");
                states.update(&replay.state_hash().0);
            }
            write!(out, "\n  states {}", states.finalize()).unwrap();
            for viewer in [Viewer::White, Viewer::Black, Viewer::Everyone] {
                write!(out, "\n  {viewer:?} knows {}", r.knowledge_hash(viewer)).unwrap();
            }
            write!(out, "\n  log {}", loghash::chain(&game).log_hash()).unwrap();
            for side in [Color::White, Color::Black] {
                match view(&game, side) {
                    Ok(vw) => write!(out, "\n  {side:?}'s view {}", loghash::chain(&vw).log_hash()).unwrap(),
                    Err(e) => write!(out, "\n  {side:?}'s view refused: {e}").unwrap(),
                }
            }
        }
    }
    out
}

#[test]
fn every_corpus_log_gets_the_pinned_verdict() {
    let mut all = String::new();
    let mut count = 0;
    for game in GAMES {
        for kind in ["valid", "invalid", "views"] {
            for path in logs(&corpus().join(game).join(kind)) {
                let text = std::fs::read(&path).expect("a readable corpus file");
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                let verdict = verdict_of(kind, &text);
                match kind {
                    "valid" => assert!(!verdict.contains('['), "{game}/{kind}/{name}: {verdict}"),
                    "invalid" => assert!(verdict.contains('['), "{game}/{kind}/{name}: {verdict}"),
                    _ => {}
                }
                writeln!(all, "{game}/{kind}/{name}: {verdict}").unwrap();
                count += 1;
            }
        }
    }
    // corpus/README.md promises at least 25 valid and 10 invalid logs a game.
    assert!(count >= 4 * 35, "only {count} corpus logs were found");
    insta::assert_snapshot!(all);
}

/// Every invalid corpus log, replayed to its faulty event: the refusal
/// leaves the state, every viewer's knowledge and the count of applied
/// events exactly as they were. The engines mutate as they check and put
/// back what a refused event changed; this pins that they do, in every
/// game, for every kind of fault the corpus holds.
#[test]
fn a_refused_event_changes_nothing() {
    let mut refused = 0;
    for game in GAMES {
        for path in logs(&corpus().join(game).join("invalid")) {
            let parsed = parse(&std::fs::read(&path).expect("a readable corpus file"));
            let log = parsed.document.game;
            let Ok(verdict) = validate(&log) else { continue };
            let Some(fgn_replay::Place::Event(at)) = verdict.error.map(|e| e.place) else {
                continue;
            };
            let mut replay = fgn_replay::Replay::new(&log.header).expect("it started once");
            for event in log.events[..at].iter() {
                replay.apply(event).expect("the events before the fault apply");
            }
            let snapshot = |r: &fgn_replay::Replay| {
                let knowledge = [Viewer::White, Viewer::Black, Viewer::Everyone].map(|v| r.knowledge_hash(v));
                (r.state_hash(), knowledge, r.events_applied(), r.phase())
            };
            let before = snapshot(&replay);
            // A revealed seed that refutes an outcome blames the outcome's
            // event, which applied when it came: nothing is refused there.
            if replay.apply(&log.events[at]).is_ok() {
                continue;
            }
            assert_eq!(
                before,
                snapshot(&replay),
                "{}: the refused event {at} changed the game",
                path.display()
            );
            refused += 1;
        }
    }
    assert!(
        refused >= 4 * 10,
        "only {refused} invalid logs were refused at an event"
    );
}

/// After the result the world owes only its seed, and only where the
/// header committed to one that no `@ seed` has revealed yet (NOTATION.md,
/// "Seeds and provable fairness"): so a referee (`Referee::next`) offers
/// exactly that `@ seed` to each finished corpus game, whatever seed it
/// holds, and nothing to the others. cargo-mutants found the referee's
/// "awaits the seed" test unpinned in open-world-chess.
#[test]
fn a_finished_game_owes_only_an_unrevealed_seed() {
    let (mut finished, mut awaiting) = (0, 0);
    for (path, log) in corpus_logs("valid") {
        let verdict = validate(&log).expect("a valid log starts");
        if !matches!(verdict.replay.phase(), fgn_replay::Phase::Over(_)) {
            continue;
        }
        let committed = log.header.tags.iter().any(|t| t.name == "SeedCommit");
        let revealed = log.events.iter().any(|e| matches!(e.action, Action::Seed { .. }));
        let offered = fgn_replay::referee::Referee::new([7; 32]).next(&verdict.replay);
        let owed = committed && !revealed;
        assert_eq!(
            offered.map(|e| e.action),
            owed.then_some(Action::Seed { seed: Seed([7; 32]) }),
            "{}",
            path.display()
        );
        finished += 1;
        awaiting += usize::from(owed);
    }
    assert!(finished >= 4 * 15, "only {finished} corpus games are finished");
    assert!(
        awaiting > 0 && awaiting < finished,
        "{awaiting} of {finished} await their seed"
    );
}

/// The referee derives every world event of every valid corpus log (but
/// its timeouts, which come from clocks): before each `@` event, the world
/// events the rules owe under the log's revealed seed start with it, and a
/// game whose seed is not in the log (none, or not yet revealed) owes its
/// `@ result` (`Replay::owed_result`).
/// cargo-mutants found unpinned that a decided game first gets the world
/// events its last move owes (a reveal, a damage roll) and then its
/// result.
#[test]
fn the_referee_owes_each_world_event_a_corpus_log_holds() {
    let (mut checked, mut before_a_result) = (0, 0);
    for (path, log) in corpus_logs("valid") {
        let seed = log.events.iter().find_map(|e| match e.action {
            Action::Seed { seed } => Some(seed.0),
            _ => None,
        });
        let mut replay = fgn_replay::Replay::new(&log.header).expect("a valid log starts");
        let mut previous_owed = false;
        for (i, event) in log.events.iter().enumerate() {
            let world = event.actor == fgn_notation::Actor::World;
            let derived = !matches!(event.action, Action::Timeout { .. } | Action::Seed { .. });
            // Without the seed only the result can be derived.
            let checkable = seed.is_some() || matches!(event.action, Action::Result { .. });
            if world && derived && checkable {
                let owed = match seed {
                    Some(seed) => replay.owed_world_events(&seed).first().map(|e| e.action.clone()),
                    None => replay.owed_result().map(|e| e.action),
                };
                assert_eq!(
                    owed.as_ref(),
                    Some(&event.action),
                    "{} event {i}: {event}",
                    path.display()
                );
                checked += 1;
                if matches!(event.action, Action::Result { .. }) && previous_owed {
                    before_a_result += 1;
                }
            }
            previous_owed = world && derived && !matches!(event.action, Action::Result { .. });
            replay.apply(event).expect("a valid log");
        }
    }
    assert!(checked > 500, "only {checked} world events checked");
    assert!(
        before_a_result > 0,
        "no corpus game owes a world event between its deciding move and its result"
    );
}

/// `game`'s events fed to a [`fgn_replay::Validation`] in runs of `size`
/// events, as `fgn_notation::parse_in_runs` would hand them on.
fn validated_in_runs(doc: &fgn_notation::Document, size: usize) -> Option<fgn_replay::Validated> {
    let mut validation = fgn_replay::Validation::new(&doc.game.header, None).expect("a log with an engine");
    let mut first = 0;
    while first < doc.game.events.len() {
        let end = (first + size).min(doc.game.events.len());
        validation.feed(fgn_notation::Run {
            header: &doc.game.header,
            first,
            events: &doc.game.events[first..end],
            lines: &doc.event_lines[first..end],
            columns: &doc.event_columns[first..end],
        });
        first = end;
    }
    validation.finish()
}

/// A validation fed a log a run at a time (what `fgn validate` does, so
/// that a long log's events are not all kept) finds what `validate` finds
/// of the whole log, wherever the runs are cut: the events applied, the
/// error, the state and phase at the end, and the refused event with its
/// line and column; an error at the end points at the last event's line.
/// Over every corpus log with an engine and long generated games of every
/// game, in runs of one event up to the whole log. Where an assumption of
/// the validation loop fails (a mate or stalemate the log does not mark),
/// the validation says the log must be validated whole, as `fgn validate`
/// then does.
#[test]
fn a_validation_fed_in_runs_finds_what_validate_finds() {
    let mut docs: Vec<(String, fgn_notation::Document)> = Vec::new();
    for game in GAMES {
        for kind in ["valid", "invalid"] {
            for path in logs(&corpus().join(game).join(kind)) {
                let parsed = parse(&std::fs::read(&path).expect("a readable corpus file"));
                if parsed.is_ok() && fgn_replay::Validation::new(&parsed.document.game.header, None).is_ok() {
                    docs.push((path.display().to_string(), parsed.document));
                }
            }
        }
    }
    for rules in [
        "survival-chess",
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
    ] {
        let game: fgn_notation::GameKind = rules.parse().expect("a game");
        let defaults = fgn_replay::Ruleset::defaults(game);
        for seed in 0..3 {
            let options = fgn_replay::gen::Options {
                plies: 400,
                ..fgn_replay::gen::Options::under(defaults.clone(), seed)
            };
            let text = fgn_replay::gen::generate(&options)
                .expect("a generated game")
                .canonical_text();
            docs.push((
                format!("{rules} generated from {seed}"),
                parse(text.as_bytes()).document,
            ));
        }
    }
    let (mut compared, mut refused, mut assumed, mut refuted) = (0, 0, 0, 0);
    for (name, doc) in &docs {
        let whole = validate(&doc.game).expect("a log with an engine");
        let len = doc.game.events.len();
        for size in [1, 2, 3, 7, 64, len.max(1)] {
            let Some(v) = validated_in_runs(doc, size) else {
                // Only two things need the whole log: an error at an event
                // before the refused one, which is gone (a revealed seed
                // refutes an earlier outcome), and a failed assumption,
                // which only survival-chess makes (the corpus holds logs
                // that move on after an unmarked mate or stalemate).
                let earlier = matches!(whole.error.as_ref().map(|e| e.place), Some(fgn_replay::Place::Event(i)) if i < whole.applied);
                assert!(
                    earlier || name.contains("survival-chess/invalid"),
                    "{name} in runs of {size}"
                );
                if earlier {
                    refuted += 1;
                } else {
                    assumed += 1;
                }
                continue;
            };
            let at = format!("{name} in runs of {size}");
            assert_eq!(v.verdict.applied, whole.applied, "{at}");
            assert_eq!(v.verdict.error, whole.error, "{at}");
            assert_eq!(v.verdict.replay.phase(), whole.replay.phase(), "{at}");
            assert_eq!(v.verdict.replay.state_hash(), whole.replay.state_hash(), "{at}");
            let expected = match whole.error.as_ref().map(|e| e.place) {
                Some(fgn_replay::Place::Event(i)) => {
                    Some((doc.game.events[i].clone(), doc.event_lines[i], doc.event_columns[i]))
                }
                _ => None,
            };
            let found = v.refused.map(|r| (r.event, r.line, r.column));
            assert_eq!(found, expected, "{at}");
            assert_eq!(v.last_line, doc.event_lines.last().copied(), "{at}");
            compared += 1;
            refused += usize::from(expected.is_some());
        }
    }
    assert!(compared > 1_000, "{compared} validations compared");
    assert!(refused > 300, "{refused} refusals compared");
    assert!(
        assumed >= 3 && refuted >= 6,
        "{assumed} failed assumptions, {refuted} earlier outcomes refuted"
    );
    assert!(
        assumed + refuted < compared / 10,
        "{assumed} + {refuted} validations needed the whole log"
    );
}
