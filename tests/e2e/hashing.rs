//! `fgn hash` (log hashes, chains, state hashes, `--check`) and `fgn
//! verify-extends` through the binary.

use crate::util::fgn;

const LOG: &str = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    crate::util::run(args, b"")
}

/// Writes `text` to a fresh file in the target folder and returns its path.
fn scratch(name: &str, text: &str) -> String {
    crate::util::scratch("hashing", name, text.as_bytes())
}

fn log_text() -> String {
    std::fs::read_to_string(crate::util::root().join(LOG)).unwrap()
}

#[test]
fn hash_prints_one_b3sum_line_per_log_and_ignores_formatting() {
    let (code, out, _) = run(&["hash", LOG]);
    assert_eq!(code, Some(0));
    let (hash, file) = out.trim_end().split_once("  ").expect("HASH  FILE");
    assert_eq!(file, LOG);
    assert!(hash.starts_with("blake3:") && hash.len() == 7 + 64, "{hash}");
    // fmt's output, comments and all, hashes alike; a changed clock does not.
    let formatted = fgn(&["fmt", LOG], b"");
    let same = scratch("formatted.fgn", &String::from_utf8_lossy(&formatted.stdout));
    let (_, out2, _) = run(&["hash", &same]);
    assert!(out2.starts_with(hash), "{out2}");
    let changed = scratch("changed.fgn", &log_text().replace("1 w Bf1-a6", "1 w Bf1-a6 {t=3}"));
    let (_, out3, _) = run(&["hash", &changed]);
    assert!(!out3.starts_with(hash));
}

#[test]
fn chain_and_states_print_a_value_per_event() {
    let (code, chain, _) = run(&["hash", "--chain", LOG]);
    assert_eq!(code, Some(0));
    let events = fgn_notation::parse(log_text().as_bytes()).document.game.events.len();
    assert_eq!(chain.lines().count(), events + 1, "{chain}");
    assert!(chain.lines().nth(1).unwrap().ends_with(" line 12"), "{chain}");
    // The last value of the chain is the log hash.
    let (_, log, _) = run(&["hash", LOG]);
    assert_eq!(chain.lines().last().unwrap().split("  ").next(), log.split("  ").next());
    let (code, states, _) = run(&["hash", "--states", LOG]);
    assert_eq!(code, Some(0));
    assert_eq!(states.lines().count(), events + 1);
    // After the mate the last state hash is the one show prints.
    let (_, show, _) = run(&["show", LOG]);
    let last = states.lines().last().unwrap().split("  ").next().unwrap();
    assert!(show.contains(&format!("state hash: {last}")), "{show}");
    // A player's hashes differ from the referee's during setup.
    let (_, white, _) = run(&["hash", "--states", "--as", "white", LOG]);
    assert_ne!(white.lines().nth(1), states.lines().nth(1));
    let (code, json, _) = run(&["--format", "json", "hash", "--chain", LOG]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["file"], LOG);
    assert_eq!(v["events"].as_array().unwrap().len(), events);
    assert_eq!(v["events"][0]["line"], 12);
    let (code, view, _) = run(&["hash", "--as", "black", LOG]);
    assert_eq!(code, Some(0));
    assert_ne!(view.split("  ").next(), log.split("  ").next());
}

#[test]
fn check_says_ok_or_failed_per_file_and_exits_1_on_a_mismatch() {
    let (_, sums, _) = run(&["hash", "corpus/survival-chess/valid", "corpus/magic-draughts/valid"]);
    let good = scratch("good.sums", &sums);
    let (code, out, _) = run(&["hash", "--check", &good]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.lines().all(|l| l.ends_with(": OK")), "{out}");
    let first = sums.lines().next().unwrap();
    let (hash, file) = first.split_once("  ").unwrap();
    let wrong = hash.replacen(&hash[7..8], if &hash[7..8] == "0" { "1" } else { "0" }, 1);
    let bad = scratch("bad.sums", &format!("{wrong}  {file}\n{hash}  missing.fgn\n"));
    let (code, out, err) = run(&["hash", "--check", &bad]);
    assert_eq!(code, Some(1));
    assert!(
        out.starts_with(&format!(
            "{file}: FAILED\nmissing.fgn: FAILED cannot read: no such file or directory\n"
        )),
        "{out}"
    );
    assert!(err.contains("1 of 1 computed hashes did NOT match"), "{err}");
    assert!(err.contains("1 listed files could not be checked"), "{err}");
    // SUMS from standard input, as b3sum -c - reads them.
    let out = fgn(&["hash", "--check", "-"], sums.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // A line that is not `blake3:<64 hex>  FILE` is an error, not a FAILED file.
    let malformed = scratch("malformed.sums", &format!("zzz  {file}\n{}  {file}\n", &hash[7..]));
    let (code, out, err) = run(&["hash", "--check", &malformed]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        out.is_empty() && err.matches("expected `blake3:<64 hex>  FILE`").count() == 2,
        "{err}"
    );
}

/// Regression (issue 36): a torn last line was `OK` (its hash leaves the
/// line out), an unparseable file was "FAILED open or read", and a SUMS
/// file with no lines, or a closed standard input, checked nothing and
/// exited 0.
#[test]
fn check_fails_a_torn_or_unparseable_file_and_refuses_sums_that_check_nothing() {
    let (_, sums, _) = run(&["hash", LOG]);
    let hash = sums.split("  ").next().unwrap();
    let text = log_text();
    let torn = scratch("check-torn.fgn", text.strip_suffix('\n').unwrap());
    let broken = scratch("check-broken.fgn", &text.replace("1 w ", "1 w !"));
    let listed = scratch("torn-and-broken.sums", &format!("{hash}  {torn}\n{hash}  {broken}\n"));
    let (code, out, err) = run(&["hash", "--check", &listed]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        out,
        format!(
            "{torn}: FAILED torn last line (no line end)\n{broken}: FAILED syntax errors (`fgn validate` shows them)\n"
        )
    );
    assert!(err.contains("2 listed files could not be checked"), "{err}");
    // Nothing to check is an error, from a file, from standard input, and
    // from a standard input that is closed.
    let empty = scratch("empty.sums", "");
    let blank = scratch("blank.sums", "\n  \n");
    for sums in [&empty, &blank] {
        let (code, out, err) = run(&["hash", "--check", sums]);
        assert_eq!(code, Some(2), "{sums}: {out}{err}");
        assert!(err.contains("no properly formatted lines"), "{err}");
    }
    let (code, _, err) = crate::util::run(&["hash", "--check", "-"], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("standard input: no properly formatted lines"), "{err}");
    let closed = std::process::Command::new("sh")
        .args(["-c", "exec \"$0\" hash --check - <&-", env!("CARGO_BIN_EXE_fgn")])
        .output()
        .unwrap();
    assert_eq!(closed.status.code(), Some(2), "{closed:?}");
}

/// Regression (issue 36): a name with a line feed made a line of its own
/// in `fgn hash` output, which a SUMS reader took for another entry.
#[test]
fn hash_escapes_names_as_b3sum_does_and_check_reads_them_back() {
    let dir = crate::util::scratch_dir("hashing-names");
    let text = log_text();
    for name in ["line\nfeed.fgn", "back\\slash.fgn", "plain.fgn"] {
        std::fs::write(dir.join(name), &text).unwrap();
    }
    let (code, sums, err) = run(&["hash", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (hash, _) = sums.split_once("  ").unwrap();
    let hash = hash.trim_start_matches('\\');
    let d = dir.display();
    assert_eq!(
        sums,
        format!("\\{hash}  {d}/back\\\\slash.fgn\n\\{hash}  {d}/line\\nfeed.fgn\n{hash}  {d}/plain.fgn\n")
    );
    let (_, chain, _) = run(&["hash", "--chain", dir.join("line\nfeed.fgn").to_str().unwrap()]);
    assert!(
        chain
            .lines()
            .all(|l| l.starts_with("\\blake3:") && l.contains("line\\nfeed.fgn")),
        "{chain}"
    );
    let listed = scratch("escaped.sums", &sums);
    let (code, out, err) = run(&["hash", "--check", &listed]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!("\\{d}/back\\\\slash.fgn: OK\n\\{d}/line\\nfeed.fgn: OK\n{d}/plain.fgn: OK\n")
    );
    // An escape b3sum does not write is not a name.
    let odd = scratch("odd-escape.sums", &format!("\\{hash}  {d}/line\\tfeed.fgn\n"));
    let (code, _, err) = run(&["hash", "--check", &odd]);
    assert_eq!(code, Some(2), "{err}");
}

/// Regression (issue 36): with standard output closed, `fgn hash` wrote
/// its lines nowhere and exited 0.
#[test]
fn hash_with_standard_output_closed_exits_2() {
    let out = std::process::Command::new("sh")
        .args(["-c", "exec \"$0\" hash \"$1\" >&-", env!("CARGO_BIN_EXE_fgn"), LOG])
        .current_dir(crate::util::root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write to standard output"));
    // Standard output sent to /dev/null on purpose is not closed.
    let null = std::process::Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(["hash", LOG])
        .current_dir(crate::util::root())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(null.code(), Some(0));
}

/// Regression (session 26): `/dev/null` opened for reading and writing,
/// as Python's `subprocess.DEVNULL` and Node's `"ignore"` give a
/// program's standard output, was taken for a closed standard output (it
/// is what Rust's runtime puts in place of one), so that `fgn validate`
/// run from Python failed with exit 2 and wrote nothing. Only a standard
/// output closed before fgn started is one.
#[test]
fn standard_output_on_dev_null_opened_for_reading_and_writing_is_not_closed() {
    for args in [
        vec!["hash", LOG],
        vec!["validate", LOG],
        vec!["--jobs", "2", "json", "corpus/survival-chess/valid"],
    ] {
        let null = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fgn"))
            .args(&args)
            .current_dir(crate::util::root())
            .stdout(null)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Closed, the same commands fail, with standard input closed too (the
    // dynamic loader then opens the libraries on the lowest free
    // descriptors, 0 and 1, and closes them before fgn looks).
    for (command, script) in [
        ("hash", "exec \"$0\" \"$1\" \"$2\" >&-"),
        ("validate", "exec \"$0\" \"$1\" \"$2\" >&-"),
        ("hash", "exec \"$0\" \"$1\" \"$2\" <&- >&-"),
    ] {
        let out = std::process::Command::new("sh")
            .args(["-c", script, env!("CARGO_BIN_EXE_fgn"), command, LOG])
            .current_dir(crate::util::root())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("it was closed when fgn started"));
    }
}

/// Regression (issue 36): verify-extends accepted appended events that
/// break the rules without a word.
#[test]
fn verify_extends_fails_when_appended_events_break_the_rules() {
    let text = log_text();
    let lines: Vec<&str> = text.lines().collect();
    let old = scratch("rules-old.fgn", &(lines[..20].join("\n") + "\n"));
    // Line 20 again: white moves twice.
    let new = scratch("rules-new.fgn", &(lines[..20].join("\n") + "\n" + lines[19] + "\n"));
    let (code, out, err) = run(&["verify-extends", &old, &new]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("rules-new.fgn:21:5: [turn]"), "{err}");
    assert!(
        err.contains("appended event 1 (event 10 of the log) breaks a rule"),
        "{err}"
    );
    // An OLD that already breaks a rule is no game to extend.
    let broken = lines[..19].join("\n") + "\n1 w a1-a8\n";
    let old = scratch("rules-broken-old.fgn", &broken);
    let new = scratch("rules-broken-new.fgn", &(broken + "1 w chat \"x\"\n"));
    let (code, _, err) = run(&["verify-extends", &old, &new]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("itself breaks a rule at its event 9"), "{err}");
    // A game without an engine is compared as text, and the note says so.
    let header = "[Game \"survival-chess\"]\n[Rules \"9.9\"]\n\n";
    let old = scratch("rules-unknown-old.fgn", &format!("{header}0 w place Ke1\n"));
    let new = scratch(
        "rules-unknown-new.fgn",
        &format!("{header}0 w place Ke1\n0 w place Kd1\n"),
    );
    let (code, _, err) = run(&["verify-extends", &old, &new]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("the rules were not checked"), "{err}");
}

/// Regression: logs with syntax errors made verify-extends exit 1 (a
/// verdict) though its help promises 2 (it cannot compare them).
#[test]
fn verify_extends_and_verify_view_refuse_what_they_cannot_compare() {
    let (code, _, err) = run(&["verify-extends", "corpus/syntax-errors/se-01-bad-square.fgn", LOG]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot compare"), "{err}");
    // Regression (issue 36): a file with syntax errors made verify-view
    // exit 1, a verdict, though it has none to give.
    for (full, view) in [
        (
            "corpus/syntax-errors/se-01-bad-square.fgn",
            "corpus/open-world-chess/views/owc-01-raid-king-killed.white.fgn",
        ),
        (
            "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn",
            "corpus/syntax-errors/se-01-bad-square.fgn",
        ),
    ] {
        let (code, _, err) = run(&["verify-view", full, view]);
        assert_eq!(code, Some(2), "verify-view {full} {view}: {err}");
        assert!(err.contains("cannot compare"), "{err}");
    }
    // A view given as the full log certifies nothing.
    let view = "corpus/open-world-chess/views/owc-01-raid-king-killed.white.fgn";
    let (code, _, err) = run(&["verify-view", view, view]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a full log"), "{err}");
}

#[test]
fn verify_extends_accepts_appends_and_names_the_first_difference() {
    let text = log_text();
    let lines: Vec<&str> = text.lines().collect();
    // The first 20 lines: the header and the first events.
    let old = scratch("old.fgn", &(lines[..20].join("\n") + "\n"));
    let (code, out, err) = run(&["verify-extends", &old, LOG]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("extends") && out.contains("appended"), "{out}");
    // The other way round NEW lacks events.
    let (code, _, err) = run(&["verify-extends", LOG, &old]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is missing"), "{err}");
    // A changed event is named with both lines.
    let changed = scratch("changed-new.fgn", &text.replace("1 b a11-a9", "1 b a11-a10"));
    let (code, _, err) = run(&["verify-extends", &old, &changed]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("event 8 differs") && err.contains(":19 `1 b a11-a9`") && err.contains("`1 b a11-a10`"),
        "{err}"
    );
    // A torn last line of OLD is reported; the complete events are compared.
    let torn = scratch("torn.fgn", &(lines[..20].join("\n") + "\n1 w Qd1"));
    let (code, _, err) = run(&["verify-extends", &torn, LOG]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("torn") || err.contains("line end"), "{err}");
    // A different header never extends.
    let other = scratch(
        "other-header.fgn",
        &text.replacen("[Rules \"1.0\"]", "[Rules \"1.0\"]\n[Room \"x\"]", 1),
    );
    let (code, _, err) = run(&["verify-extends", &old, &other]);
    assert_eq!(code, Some(1));
    assert!(err.contains("headers differ"), "{err}");
}

/// Regression (issue 39, item 13): `hash --check --format json` gave
/// `{"file", "ok": false}` for a missing file, without the reason the text
/// line gives; every failed line now says why.
#[test]
fn hash_check_in_json_says_why_a_line_failed() {
    let dir = crate::util::scratch_dir("hash-check-reasons");
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (_, line, _) = crate::util::run(&["hash", log], b"");
    let other = crate::util::run(
        &["hash", "corpus/survival-chess/valid/02-back-rank-black-wins.fgn"],
        b"",
    )
    .1;
    let other_hash = other.split_whitespace().next().unwrap();
    let missing = dir.join("missing.fgn").display().to_string();
    let sums = format!("{line}{other_hash}  {log}\n{other_hash}  {missing}\n");
    let path = dir.join("SUMS");
    std::fs::write(&path, sums).unwrap();
    let out = fgn(&["--format", "json", "hash", "--check", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            serde_json::json!({"type": "check", "file": log, "ok": true}),
            serde_json::json!({"type": "check", "file": log, "ok": false, "reason": "its log hash is not the one listed"}),
            serde_json::json!({"type": "check", "file": missing, "ok": false, "reason": "cannot read: no such file or directory"}),
        ]
    );
}

/// Regression (issue 39, item 14): hash lines are `blake3:<hex>  FILE`,
/// which b3sum's tool chain cannot read; `--format b3sum` writes the bare
/// hex in b3sum's line form, and only `fgn hash` (plain) accepts it, as
/// only `fgn show` accepts `--format svg`.
#[test]
fn hash_format_b3sum_writes_bare_hex_and_only_hash_takes_it() {
    let dir = "corpus/magic-draughts/valid";
    let plain = crate::util::run(&["hash", dir], b"").1;
    let b3sum = fgn(&["hash", "--format", "b3sum", dir], b"");
    assert_eq!(b3sum.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&b3sum.stdout), plain.replace("blake3:", ""));
    for line in String::from_utf8_lossy(&b3sum.stdout).lines() {
        let (hex, _) = line.split_once("  ").unwrap();
        assert!(hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()), "{line}");
    }
    // Such lines cannot pass for `blake3:` ones: --check refuses them as
    // it refuses b3sum's own hashes of the bytes.
    let sums = scratch("b3sum-form.sums", &String::from_utf8_lossy(&b3sum.stdout));
    let (code, out, _) = crate::util::run(&["hash", "--check", &sums], b"");
    assert_eq!((code, out.as_str()), (Some(2), ""));
    for args in [
        &["validate", dir][..],
        &["hash", "--chain", dir],
        &["hash", "--states", dir],
        &["hash", "--check", "SUMS"],
        &["json", dir],
    ] {
        let mut all = vec!["--format", "b3sum"];
        all.extend_from_slice(args);
        let out = fgn(&all, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: --format b3sum writes log hashes"),
            "{args:?}"
        );
    }
}
