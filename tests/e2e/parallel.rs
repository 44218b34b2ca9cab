//! Issue #11: commands over many files run on several jobs with the very
//! output of one job, and directories are walked as before (every `*.fgn`
//! below, links into directories not followed; hidden ones with --hidden).

use crate::util::scratch_dir;

/// Exit code, standard output and standard error of a run.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    crate::util::run(args, b"")
}

#[test]
fn every_job_count_gives_the_output_of_one_job() {
    let rules = scratch_dir("parallel-rules").join("two-moves.json");
    std::fs::write(&rules, r#"{"open-world-chess": {"moves_per_turn": 2}}"#).unwrap();
    let rules = rules.to_str().unwrap();
    let commands: [&[&str]; 8] = [
        &["validate", "--verbose", "corpus"],
        // Written as it comes once its turn has come (issue 36), in order.
        &["events", "--ndjson", "corpus"],
        &["--format", "json", "validate", "corpus"],
        &["hash", "corpus"],
        &["fmt", "--check", "corpus"],
        &["json", "--ndjson", "corpus"],
        &["impact", "--rules", rules, "corpus/open-world-chess"],
        &["leaderboard", "corpus/survival-chess"],
    ];
    for args in commands {
        let one = run(&[&["--jobs", "1"], args].concat());
        assert!(!one.1.is_empty() || !one.2.is_empty(), "{args:?} says something");
        for jobs in ["2", "3", "8"] {
            assert_eq!(
                run(&[&["--jobs", jobs], args].concat()),
                one,
                "{args:?} with {jobs} jobs"
            );
        }
    }
}

#[test]
fn reports_follow_file_order_with_syntax_and_rule_errors_interleaved() {
    let (_, _, stderr) = run(&[
        "--jobs",
        "4",
        "validate",
        "corpus/survival-chess/invalid",
        "corpus/syntax-errors",
    ]);
    let files: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("  --> ").or(Some(l)))
        .filter_map(|l| l.split(':').next())
        .filter(|f| f.ends_with(".fgn"))
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "diagnostics come file by file, in path order");
}

#[test]
fn directories_are_walked_as_before() {
    let dir = scratch_dir("parallel-walk");
    let log = std::fs::read(crate::util::corpus().join("survival-chess/valid/01-bishop-queen-mate.fgn")).unwrap();
    std::fs::create_dir_all(dir.join(".hidden/deeper")).unwrap();
    std::fs::create_dir_all(dir.join("b")).unwrap();
    for f in [
        "a.fgn",
        ".hidden/h.fgn",
        ".hidden/deeper/d.fgn",
        "b/c.fgn",
        "b/not-a-log.txt",
    ] {
        std::fs::write(dir.join(f), &log).unwrap();
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("b"), dir.join("link-to-b")).unwrap();
        std::os::unix::fs::symlink(dir.join("a.fgn"), dir.join("link-to-a.fgn")).unwrap();
    }
    let names = |hidden: &[&'static str]| -> Vec<String> {
        let (code, stdout, _) = run(&[hidden, &["hash", dir.to_str().unwrap()]].concat());
        assert_eq!(code, Some(0));
        stdout
            .lines()
            .map(|l| {
                l.split("  ")
                    .nth(1)
                    .unwrap()
                    .strip_prefix(dir.to_str().unwrap())
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let mut expected = vec!["/.hidden/deeper/d.fgn", "/.hidden/h.fgn", "/a.fgn", "/b/c.fgn"];
    if cfg!(unix) {
        // A link to a file is a file; a link to a directory is not entered.
        expected.push("/link-to-a.fgn");
    }
    assert_eq!(names(&["--hidden"]), expected);
    // Hidden directories are walked only with --hidden (issue 39).
    assert_eq!(names(&[]), expected[2..]);
}

#[test]
fn a_missing_path_is_reported_in_its_place_and_the_rest_is_checked() {
    let (code, stdout, stderr) = run(&[
        "--jobs",
        "2",
        "validate",
        "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        "no/such/file.fgn",
        "corpus/survival-chess/valid/02-back-rank-black-wins.fgn",
    ]);
    assert_eq!(code, Some(2));
    assert_eq!(stdout, "2 valid, 0 invalid, 1 not checked\n");
    assert!(stderr.contains("no/such/file.fgn"), "{stderr}");
}

/// Runs `fgn` with `args` and `FGN_DEBUG_PANIC=wanted` (a debug build's
/// forced panic on the file whose name contains it), killed if it runs
/// past a minute: the exit code (`None` when killed), stdout and stderr.
fn run_forcing_a_panic(args: &[&str], wanted: &str) -> (Option<i32>, String, String) {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(args)
        .current_dir(crate::util::root())
        .env("FGN_DEBUG_PANIC", wanted)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fgn starts");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(out) => {
            let out = out.expect("fgn runs");
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        }
        Err(_) => {
            // The run hangs: end it (by its own id) and say so.
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            (None, String::new(), String::new())
        }
    }
}

/// Issue 36: a worker that panicked left its file's report missing, and
/// every report after it waited forever. A panic while working on one file
/// is that file's internal error (exit 2), and every other file is still
/// reported, in order, whatever the number of jobs.
#[test]
fn a_worker_panic_is_the_files_internal_error_and_the_run_goes_on() {
    let dir = scratch_dir("worker-panic");
    let log = std::fs::read(crate::util::corpus().join("open-world-chess/valid/owc-01-raid-king-killed.fgn")).unwrap();
    for i in 1..=40 {
        std::fs::write(dir.join(format!("g{i:02}.fgn")), &log).unwrap();
    }
    let dir = dir.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["validate", dir],
        &["hash", "--as", "white", dir],
        &["json", "--ndjson", dir],
    ];
    for args in commands {
        for jobs in [None, Some("1"), Some("2"), Some("8")] {
            let args: Vec<&str> = jobs
                .map_or(vec![], |j| vec!["--jobs", j])
                .into_iter()
                .chain(args.iter().copied())
                .collect();
            let (code, stdout, stderr) = run_forcing_a_panic(&args, "g07");
            assert_eq!(
                code,
                Some(2),
                "{args:?} ends with an internal error, not a hang:\n{stderr}"
            );
            assert!(
                stderr.contains("g07.fgn: internal error (a bug in fgn, please report it): forced by FGN_DEBUG_PANIC"),
                "{args:?}: {stderr}"
            );
            assert!(
                !stderr.contains("panicked at"),
                "the default panic message is not printed: {stderr}"
            );
            if args.contains(&"validate") {
                assert!(
                    stdout.contains("39 valid, 0 invalid, 1 not checked"),
                    "{args:?}: {stdout}"
                );
            } else {
                // One line for each other file, none for the one that failed.
                let lines: Vec<&str> = stdout.lines().collect();
                assert_eq!(lines.len(), 39, "{args:?}: {stdout}");
                assert!(!stdout.contains("g07.fgn"), "{args:?}: {stdout}");
                assert!(lines.iter().any(|l| l.contains("g40.fgn")), "{args:?}: {stdout}");
            }
        }
    }
}
