//! `fgn append` and `fgn append --repair` through the binary: refusals that
//! leave the file byte for byte as it was, torn tails, many appenders
//! racing on one file, and appends killed at random points.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::schema::Schema;
use crate::util::fgn;

/// `fgn --format json append`'s output, checked against its schema
/// (docs/fgn-append.schema.json).
fn append_result(out: &std::process::Output) -> serde_json::Value {
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let schema = Schema::load_from(&crate::util::root().join("docs").join("fgn-append.schema.json"));
    if let Some(e) = schema.errors(&result) {
        panic!("append's JSON does not fit its schema: {e}\n{result:#}");
    }
    result
}

/// A survival-chess log right after its setup: white and black each have a
/// king, a knight and a pawn, and white is to move.
const SETUP: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
    0 w place Ke1 Ng1 Pa2\n0 b place Ke8 Ng8 Pa7\n0 w ready\n0 b ready\n";

/// Writes `text` to a fresh file in the target folder and returns its path.
fn scratch(name: &str, text: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("append");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a scratch file");
    path
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = fgn(args, b"");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn append(path: &Path, events: &[&str]) -> (Option<i32>, String, String) {
    let path = path.to_str().expect("a UTF-8 path");
    run(&[&["append", path], events].concat())
}

/// The `i`th move (0-based) of an endless knight shuffle: both knights go
/// out and back, which survival-chess allows forever (it has no repetition
/// rule).
fn shuffle_move(i: usize) -> String {
    let number = i / 2 + 1;
    let out = (i / 2).is_multiple_of(2);
    match (i.is_multiple_of(2), out) {
        (true, true) => format!("{number} w Ng1-f3"),
        (true, false) => format!("{number} w Nf3-g1"),
        (false, true) => format!("{number} b Ng8-f6"),
        (false, false) => format!("{number} b Nf6-g8"),
    }
}

#[test]
fn refused_appends_leave_the_file_byte_identical() {
    let path = scratch("refused.fgn", SETUP.as_bytes());
    let cases: [(&str, &[&str], &str); 4] = [
        ("an illegal move", &["1 w Ng1-g3"], "[move]"),
        ("a move out of turn", &["1 b Ng8-f6"], "refused.fgn:9:5:"),
        ("a syntax error", &["1 w Ng1-z99"], ": [syntax] "),
        // All or nothing: the legal first event is not appended either.
        (
            "a batch with one bad event",
            &["1 w Ng1-f3", "1 b Ng8-f6", "2 w Nf3-f4"],
            "event 3 of 3",
        ),
    ];
    for (what, events, expected) in cases {
        let (code, out, err) = append(&path, events);
        assert_eq!(code, Some(1), "{what}: {err}");
        assert!(out.is_empty(), "{what}: {out}");
        assert!(err.contains(expected), "{what}: expected {expected:?} in {err}");
        assert!(err.contains("nothing appended; the file is unchanged"), "{what}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes(), "{what}");
    }
    // The syntax error is placed at the line the event would have had in
    // the file, on one line as the rule errors are (issue 39, item 11),
    // and names the event's text.
    let (_, _, err) = append(&path, &["1 w Ng1-z99"]);
    assert!(
        err.contains("refused.fgn:9:9: [syntax] ") && err.contains("`Ng1-z99`") && !err.contains(" --> "),
        "{err}"
    );
}

#[test]
fn accepted_events_are_written_canonically_and_the_log_stays_valid() {
    let path = scratch("accepted.fgn", SETUP.as_bytes());
    let (code, out, err) = append(&path, &["1 w NG1-F3 {t=2.50}   ;  out it goes ", "1 b Ng8-f6"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("appended 2 events (6 in the log)"), "{out}");
    let expected = format!("{SETUP}1 w Ng1-f3 {{t=2.5}} ; out it goes\n1 b Ng8-f6\n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);

    // The JSON result names the count and the log hash `fgn hash` gives.
    let file = path.to_str().unwrap();
    let out = fgn(&["--format", "json", "append", file, "2 w Nf3-g1"], b"");
    assert_eq!(out.status.code(), Some(0));
    let result = append_result(&out);
    assert_eq!(result["appended"], 1);
    assert_eq!(result["events"], 7);
    assert_eq!(result["lines"], serde_json::json!(["2 w Nf3-g1"]));
    let (_, hash, _) = run(&["hash", file]);
    assert_eq!(
        result["log_hash"].as_str().map(|h| format!("{h}  {file}\n")),
        Some(hash)
    );

    assert_eq!(run(&["validate", file]).0, Some(0));
    assert_eq!(
        run(&["fmt", "--check", file]).0,
        Some(0),
        "appended lines are canonical"
    );
}

#[test]
fn a_decided_game_takes_only_what_the_rules_allow_after_the_result() {
    let log = std::fs::read(crate::util::corpus().join("survival-chess/valid/20-fools-mate-8x8.fgn")).unwrap();
    let path = scratch("decided.fgn", &log);
    let (code, _, err) = append(&path, &["2 w chat \"well played\""]);
    assert_eq!(code, Some(0), "{err}");
    let before = std::fs::read(&path).unwrap();
    let (code, _, err) = append(&path, &["3 w e2-e4"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("[after-result]"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_torn_tail_is_reported_refused_and_repaired() {
    let torn = format!("{SETUP}1 w Ng1-");
    let path = scratch("torn.fgn", torn.as_bytes());
    let file = path.to_str().unwrap();
    // Every command reports it; validate still works on the complete lines.
    let (code, _, err) = run(&["validate", file]);
    assert_eq!(code, Some(0));
    assert!(err.contains("torn append: line 9"), "{err}");

    let (code, _, err) = append(&path, &["1 w Ng1-f3"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("line 9 is torn") && err.contains("`1 w Ng1-`"), "{err}");
    assert!(err.contains("fgn append --repair"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), torn.as_bytes());

    let (code, out, _) = run(&["append", "--repair", file]);
    assert_eq!(code, Some(0));
    assert!(out.contains("cut the torn line 9: `1 w Ng1-` (8 bytes)"), "{out}");
    assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
    // A complete file is left alone.
    let out = fgn(&["--format", "json", "append", "--repair", file], b"");
    let result = append_result(&out);
    assert_eq!(result["repaired"], false);
    assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
    assert_eq!(append(&path, &["1 w Ng1-f3"]).0, Some(0));

    // A long torn line with control characters is shown printable and cut short.
    let long = [SETUP.as_bytes(), b"0 w chat \"\x1b[2J", &[b'x'; 300]].concat();
    let path = scratch("torn-long.fgn", &long);
    let file = path.to_str().unwrap();
    let (code, _, err) = append(&path, &["0 w chat \"hi\""]);
    assert_eq!(code, Some(1));
    assert!(!err.contains('\x1b') && err.contains('…'), "{err}");
    let out = fgn(&["--format", "json", "append", "--repair", file], b"");
    let result = append_result(&out);
    assert_eq!(result["repaired"], true);
    assert_eq!(result["line"], 9);
    assert_eq!(result["bytes"], 14 + 300);
    assert!(result["cut"].as_str().is_some_and(|c| c.ends_with('…')), "{result}");
    assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
}

#[test]
fn a_file_that_cannot_be_used_is_an_error_with_exit_code_2() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("append");
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.fgn");
    let (code, _, err) = append(&missing, &["1 w Ng1-f3"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot open"), "{err}");
    assert!(!missing.exists(), "append never creates a log");
    assert_eq!(append(&dir, &["1 w Ng1-f3"]).0, Some(2));
    assert_eq!(run(&["append", "-", "1 w Ng1-f3"]).0, Some(2));
    let path = scratch("usage.fgn", SETUP.as_bytes());
    let file = path.to_str().unwrap();
    assert_eq!(run(&["append", file]).0, Some(2), "at least one EVENT");
    assert_eq!(run(&["append", "--repair", file, "1 w Ng1-f3"]).0, Some(2));
    assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
}

#[test]
fn an_append_waits_for_a_lock_held_elsewhere() {
    let path = scratch("held.fgn", SETUP.as_bytes());
    let held = std::fs::File::open(&path).unwrap();
    held.lock().expect("the test takes the lock");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(["append", path.to_str().unwrap(), "1 w Ng1-f3"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("fgn starts");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "append went ahead without the lock"
    );
    assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
    held.unlock().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{SETUP}1 w Ng1-f3\n"));
}

const APPENDERS: usize = 8;
const ATTEMPTS: usize = 25;

/// Runs `attempt(path, appender, attempt)` ATTEMPTS times in each of
/// APPENDERS threads at once, each attempt a run of the binary, and returns
/// every result.
fn in_parallel<T: Send + 'static>(path: &Path, attempt: fn(&Path, usize, usize) -> T) -> Vec<T> {
    let threads: Vec<_> = (0..APPENDERS)
        .map(|p| {
            let path = path.to_path_buf();
            std::thread::spawn(move || (0..ATTEMPTS).map(|a| attempt(&path, p, a)).collect::<Vec<T>>())
        })
        .collect();
    threads
        .into_iter()
        .flat_map(|t| t.join().expect("an appender"))
        .collect()
}

#[test]
fn concurrent_appenders_never_lose_or_interleave_events() {
    // Chat is legal at any time and keeps the move number of the event
    // before it, so every batch must be accepted.
    let path = scratch("concurrent-chat.fgn", SETUP.as_bytes());
    in_parallel(&path, |path, p, a| {
        let batch: Vec<String> = (0..3).map(|k| format!("0 w chat \"p{p} a{a} k{k}\"")).collect();
        let batch: Vec<&str> = batch.iter().map(String::as_str).collect();
        let (code, _, err) = append(path, &batch);
        assert_eq!(code, Some(0), "appender {p}, attempt {a}: {err}");
    });
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.strip_prefix(SETUP).expect("the log only grew").lines().collect();
    assert_eq!(lines.len(), APPENDERS * ATTEMPTS * 3);
    // Each batch stands whole and in order, and every one is there once.
    let mut batches = BTreeSet::new();
    for batch in lines.chunks(3) {
        let head = batch[0]
            .strip_suffix(" k0\"")
            .expect("a batch starts with its first line");
        for (k, line) in batch.iter().enumerate() {
            assert_eq!(*line, format!("{head} k{k}\""), "an interleaved batch: {batch:?}");
        }
        assert!(batches.insert(head.to_string()), "a batch appended twice: {head}");
    }
    assert_eq!(batches.len(), APPENDERS * ATTEMPTS);
    assert_eq!(run(&["validate", path.to_str().unwrap()]).0, Some(0));
}

#[test]
fn appenders_racing_for_the_next_move_get_each_move_accepted_once() {
    // Every attempt reads the log, takes the next move of the knight
    // shuffle and appends it with a chat line naming the attempt. Between
    // the read and the lock another appender may have played that move;
    // then the check under the lock must refuse the whole batch.
    let path = scratch("concurrent-moves.fgn", SETUP.as_bytes());
    let results = in_parallel(&path, |path, p, a| {
        let text = std::fs::read_to_string(path).unwrap();
        let played = text[SETUP.len()..].lines().filter(|l| !l.contains(" chat ")).count();
        let next = shuffle_move(played);
        let number = next.split(' ').next().unwrap().to_string();
        let chat = format!("{number} w chat \"p{p} a{a}\"");
        let (code, _, err) = append(path, &[&next, &chat]);
        match code {
            Some(0) => Some(chat),
            Some(1) => {
                assert!(err.contains("nothing appended"), "{err}");
                None
            }
            other => panic!("appender {p}, attempt {a}: exit {other:?}: {err}"),
        }
    });
    let mut accepted = BTreeSet::new();
    for chat in results.into_iter().flatten() {
        assert!(accepted.insert(chat));
    }
    assert!(!accepted.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.strip_prefix(SETUP).expect("the log only grew").lines().collect();
    // The moves are the shuffle in order, each followed by the chat of the
    // attempt that played it, and exactly the accepted attempts are there.
    assert_eq!(lines.len(), accepted.len() * 2);
    let mut present = BTreeSet::new();
    for (i, pair) in lines.chunks(2).enumerate() {
        assert_eq!(pair[0], shuffle_move(i));
        assert!(present.insert(pair[1].to_string()), "appended twice: {}", pair[1]);
    }
    assert_eq!(present, accepted);
    assert_eq!(run(&["validate", path.to_str().unwrap()]).0, Some(0));
}

/// A small deterministic generator for the kill test's batch sizes and
/// delays (xorshift64).
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// How many appends the kill test starts and kills with SIGKILL.
const KILLS: usize = 300;

/// How long the kill test may take before it stops starting appends, so
/// that a slow machine bounds its time rather than its count (300 attempts
/// take about 8 s on two idle cores with the debug build).
const KILL_BUDGET: std::time::Duration = std::time::Duration::from_secs(20);

/// How many attempts the kill test needs within its time to mean anything.
const KILLS_AT_LEAST: usize = 60;

/// What a reader of the log's folder can see of an append in progress: the
/// log's size and identity, and the size of the temporary file an append
/// writes next to it (`None` when there is none).
fn folder_state(path: &Path) -> (Option<(u64, u64)>, Option<u64>) {
    use std::os::unix::fs::MetadataExt;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".fgn-append.tmp");
    let log = std::fs::metadata(path).ok().map(|m| (m.len(), m.ino()));
    (log, std::fs::metadata(tmp).ok().map(|m| m.len()))
}

#[test]
fn killed_appends_leave_each_batch_wholly_in_or_out() {
    // Each attempt starts `fgn append` with a batch of 1 to 400 chat lines
    // and kills it with SIGKILL, which no code can catch. Half the kills
    // come after a random delay spread over an append's whole run (before
    // it opens the file, while it checks, writes, syncs or renames, or
    // after it is done); the other half watch the folder and strike a
    // random few microseconds after the first sign of writing, which is
    // where a batch written in place was cut in two. After each kill the
    // log must be exactly what it was or that plus the whole batch, and
    // the next append must go through whatever the killed one left behind.
    let path = scratch("killed.fgn", SETUP.as_bytes());
    let file = path.to_str().unwrap().to_string();
    let spawn = |batch: &[String]| {
        Command::new(env!("CARGO_BIN_EXE_fgn"))
            .arg("append")
            .arg(&file)
            .args(batch)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("fgn starts")
    };
    let batch_of = |attempt: usize, size: u64| -> Vec<String> {
        (0..size)
            .map(|k| format!("0 w chat \"attempt {attempt} line {k}\""))
            .collect()
    };
    // An append's run time, measured on this machine with a large batch:
    // the random delays are spread over one and a half times it.
    let started = std::time::Instant::now();
    for a in 0..5 {
        assert!(spawn(&batch_of(usize::MAX - a, 400)).wait().unwrap().success());
    }
    let span = started.elapsed() / 5 * 3 / 2;
    std::fs::write(&path, SETUP).unwrap();

    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut wholly_in, mut wholly_out, mut killed) = (0, 0, 0);
    let budget = std::time::Instant::now();
    for attempt in 0..KILLS {
        if budget.elapsed() > KILL_BUDGET {
            break;
        }
        let before = std::fs::read(&path).unwrap();
        let batch = batch_of(attempt, 1 + next_random(&mut state) % 400);
        let delay = span.mul_f64((next_random(&mut state) % 10_000) as f64 / 10_000.0);
        let watch = next_random(&mut state).is_multiple_of(2);
        let offset = std::time::Duration::from_micros(next_random(&mut state) % 30);
        let quiet = folder_state(&path);
        let mut child = spawn(&batch);
        let spawned = std::time::Instant::now();
        if watch {
            // Until the process ends or the folder changes, then the offset.
            while spawned.elapsed() < span && child.try_wait().unwrap().is_none() && folder_state(&path) == quiet {}
            let changed = std::time::Instant::now();
            while changed.elapsed() < offset {}
        } else {
            std::thread::sleep(delay);
        }
        let finished = child.try_wait().unwrap().is_some_and(|status| status.success());
        let _ = child.kill();
        child.wait().unwrap();
        killed += usize::from(!finished);
        let after = std::fs::read(&path).unwrap();
        let whole: Vec<u8> = [before.as_slice(), batch.join("\n").as_bytes(), b"\n"].concat();
        if after == before {
            assert!(!finished, "attempt {attempt}: an acknowledged append is missing");
            wholly_out += 1;
        } else {
            assert!(
                after == whole,
                "attempt {attempt}: the log holds part of a batch of {} lines (kill {}):\n{}",
                batch.len(),
                if watch {
                    "on the first sign of writing"
                } else {
                    "after a random delay"
                },
                String::from_utf8_lossy(&after[before.len().min(after.len())..])
            );
            wholly_in += 1;
        }
        // Keep the log small, so that every attempt takes about as long.
        if after.len() > 64 * 1024 {
            std::fs::write(&path, SETUP).unwrap();
        }
    }
    assert!(
        killed > 0 && wholly_in > 0 && wholly_out > 0,
        "in {wholly_in}, out {wholly_out}, killed {killed}"
    );
    assert!(
        wholly_in + wholly_out >= KILLS_AT_LEAST,
        "only {} attempts in the time allowed",
        wholly_in + wholly_out
    );
    // Whatever the last kill left behind, an append goes through and the log stays valid.
    assert_eq!(append(&path, &["0 w chat \"after the kills\""]).0, Some(0));
    assert_eq!(run(&["validate", &file]).0, Some(0));
}

#[test]
fn a_bare_action_gets_the_side_to_act_and_its_move_number() {
    let path = scratch("bare.fgn", SETUP.as_bytes());
    let (code, out, err) = append(&path, &["Ng1-f3", "Ng8-f6 ; out", "Nf3-g1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.ends_with("  1 w Ng1-f3\n  1 b Ng8-f6 ; out\n  2 w Nf3-g1\n"),
        "{out}"
    );
    // Each filled-in line is named on standard error.
    assert!(err.contains("`Ng1-f3` is written as `1 w Ng1-f3`"), "{err}");
    assert!(err.contains("`Nf3-g1` is written as `2 w Nf3-g1`"), "{err}");
    let expected = format!("{SETUP}1 w Ng1-f3\n1 b Ng8-f6 ; out\n2 w Nf3-g1\n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
    // An explicit line is read as before, with nothing said of it; and
    // --quiet leaves the note of a filled-in one out.
    let (code, _, err) = append(&path, &["2 b Nf6-g8"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let (code, _, err) = run(&["-q", "append", path.to_str().unwrap(), "Ng1-f3"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .ends_with("2 b Nf6-g8\n3 w Ng1-f3\n"));
    // A bare action out of turn is refused as the rules refuse that line.
    let (code, _, err) = append(&path, &["Ng1-f3"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("`3 b Ng1-f3`"), "{err}");

    // During the secret setup both sides act, so the side is not guessed.
    let setup = scratch(
        "bare-setup.fgn",
        b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n",
    );
    let before = std::fs::read(&setup).unwrap();
    let (code, _, err) = append(&setup, &["ready"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("during the secret setup both sides act"), "{err}");
    assert_eq!(std::fs::read(&setup).unwrap(), before);
}

#[test]
fn a_refused_append_writes_a_result_object_in_json() {
    let path = scratch("refused-json.fgn", SETUP.as_bytes());
    let file = path.to_str().unwrap();
    let out = fgn(&["--format", "json", "append", file, "1 w Ng1-f3", "1 b Ng8-g6"], b"");
    assert_eq!(out.status.code(), Some(1));
    let result = append_result(&out);
    assert_eq!(result["file"], file);
    assert_eq!(result["event"], 2);
    assert_eq!(result["unchanged"], true);
    assert!(
        result["error"].as_str().unwrap().starts_with("new event 2 is refused"),
        "{result}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), SETUP.as_bytes());
    // A file that cannot be opened: no event is at fault.
    let missing = path.with_file_name("no-such-log.fgn");
    let out = fgn(
        &["--format", "json", "append", missing.to_str().unwrap(), "1 w Ng1-f3"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let result = append_result(&out);
    assert_eq!(result["event"], serde_json::Value::Null);
    // Its error in words, as the diagnostic has it (issue 39, item 11).
    let error = result["error"].as_str().unwrap();
    assert!(
        error.contains("no such file or directory") && !error.contains("os error"),
        "{error}"
    );
}
