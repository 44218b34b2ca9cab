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

/// Writes `count` random games of `game` (`fgn gen`, at most 30 plies)
/// into `dir`.
fn generate(dir: &std::path::Path, game: &str, count: usize) {
    let (code, _, stderr) = run(&[
        "gen",
        "--game",
        game,
        "--seed",
        "42",
        "--count",
        &count.to_string(),
        "--plies",
        "30",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// Issue 42: the parallel pipeline hands out work in batches, and the
/// worker holding the next report writes it. Every command that reads many
/// files (the list `commands::MANY`) gives the very output of one job, on
/// standard output and standard error alike, over the corpus and a few
/// hundred generated games of every game, some of them broken by a line
/// that is no event, with a path that does not exist and a file that
/// cannot be read among them, on 2 and 3 jobs.
#[test]
fn every_many_file_command_gives_the_output_of_one_job_over_an_archive() {
    let dir = scratch_dir("parallel-archive");
    for (game, count) in [
        ("survival-chess", 150),
        ("open-world-chess", 50),
        ("great-war-chess", 50),
        ("magic-draughts", 50),
    ] {
        generate(&dir, game, count);
    }
    let mut logs = crate::util::fgn_files(&dir);
    assert_eq!(logs.len(), 300);
    for log in logs.iter().step_by(37) {
        let mut text = std::fs::read(log).unwrap();
        text.extend_from_slice(b"this is no event\n");
        std::fs::write(log, text).unwrap();
    }
    // Reading `/proc/self/mem` from its start fails (nothing is mapped
    // there), whoever runs the test, root included.
    let unreadable = dir.join("survival-chess-42-7a.fgn");
    std::os::unix::fs::symlink("/proc/self/mem", &unreadable).unwrap();
    logs.push(unreadable);
    let rules = dir.join("rules.json");
    std::fs::write(
        &rules,
        r#"{"open-world-chess": {"moves_per_turn": 2}, "survival-chess": {"move_seconds": 600}}"#,
    )
    .unwrap();
    let rules = rules.to_str().unwrap();
    let commands: [&[&str]; 9] = [
        &["validate", "--verbose"],
        &["fmt", "--check"],
        &["json", "--ndjson"],
        &["events", "--ndjson"],
        &["hash"],
        &["select", "--min-moves", "10"],
        &["stats"],
        &["impact", "--rules", rules],
        &["leaderboard"],
    ];
    let mut names: Vec<&str> = commands.iter().map(|args| args[0]).collect();
    let mut many = crate::commands::MANY.to_vec();
    names.sort_unstable();
    many.sort_unstable();
    assert_eq!(names, many, "every command that reads many files is run here");
    let paths = ["corpus", dir.to_str().unwrap(), "no/such/file.fgn"];
    for args in commands {
        let one = run(&[&["--jobs", "1"], args, &paths].concat());
        for told in ["survival-chess-42-7a.fgn: cannot read", "no/such/file.fgn"] {
            assert!(one.2.contains(told), "{args:?} reports {told}:\n{}", one.2);
        }
        for jobs in ["2", "3"] {
            let many = run(&[&["--jobs", jobs], args, &paths].concat());
            // Compared apart, so that a difference shows where it is.
            assert_eq!(many.0, one.0, "{args:?} with {jobs} jobs: exit code");
            assert_eq!(many.1, one.1, "{args:?} with {jobs} jobs: standard output");
            assert_eq!(many.2, one.2, "{args:?} with {jobs} jobs: standard error");
        }
    }
}

/// Issue 42: a run that stops (`validate` at the first log a rules file
/// does not fit) stops at the same log whatever the number of jobs, and
/// nothing of the logs or directories after it is reported, however far
/// ahead the walk and the workers' batches ran.
#[test]
fn a_run_stops_at_the_same_log_whatever_the_number_of_jobs() {
    let dir = scratch_dir("parallel-stop");
    generate(&dir.join("a"), "magic-draughts", 120);
    generate(&dir.join("b"), "survival-chess", 120);
    // Directories without a log are noted only when the run came to them
    // before it stopped, however far ahead the walk ran.
    std::fs::create_dir_all(dir.join("0-empty")).unwrap();
    std::fs::create_dir_all(dir.join("c-empty")).unwrap();
    let rules = dir.join("draughts.json");
    std::fs::write(&rules, r#"{"revenge_ranks": 4}"#).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (rules, empty, a, b, c) = (
        rules.to_str().unwrap(),
        path("0-empty"),
        path("a"),
        path("b"),
        path("c-empty"),
    );
    let args = ["validate", "--verbose", "--rules", rules, &empty, &a, &b, &c];
    let one = run(&[&["--jobs", "1"][..], &args].concat());
    assert_eq!(one.0, Some(2), "{}", one.2);
    let first = crate::util::fgn_files(&dir.join("b"))[0].display().to_string();
    assert!(
        one.2.contains(&format!("validation stops at the first one, {first}\n")),
        "{}",
        one.2
    );
    // Of the survival-chess logs, only the first is named, by the stop.
    assert!(!one.1.contains("/b/"), "{}", one.1);
    assert_eq!(one.2.matches("/b/").count(), 1, "{}", one.2);
    assert!(one.1.lines().count() > 60, "the draughts logs are reported: {}", one.1);
    assert!(one.2.contains("0-empty: no *.fgn files in it"), "{}", one.2);
    assert!(!one.2.contains("c-empty"), "{}", one.2);
    for jobs in ["2", "3", "8"] {
        assert_eq!(run(&[&["--jobs", jobs][..], &args].concat()), one, "{jobs} jobs");
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
