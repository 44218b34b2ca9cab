//! Directory walks: which files a directory stands for, what an empty one
//! counts as, and the progress line of a long walk.

use std::path::Path;

use crate::util::{root, run, scratch_dir};

const LOG: &str = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";

/// A tree with a log at the top, logs in a `.git` directory and a hidden
/// file, and an empty directory beside it.
fn tree(name: &str) -> std::path::PathBuf {
    let dir = scratch_dir(name);
    let log = std::fs::read(root().join(LOG)).expect("a corpus log");
    for (at, file) in [("logs", "a.fgn"), ("logs/.git", "b.fgn"), ("logs", ".c.fgn")] {
        std::fs::create_dir_all(dir.join(at)).expect("a test directory");
        std::fs::write(dir.join(at).join(file), &log).expect("a test log");
    }
    std::fs::create_dir_all(dir.join("empty")).expect("a test directory");
    dir
}

fn path(dir: &Path, below: &str) -> String {
    dir.join(below).display().to_string()
}

/// Regression (issue 39): a directory walk went into `.git` and read
/// hidden files. It leaves out every name starting with `.` below a
/// directory given, as ripgrep does; `--hidden` takes them, and a hidden
/// file or directory named on the command line is read all the same.
#[test]
fn walks_leave_hidden_files_and_directories_out_unless_hidden_is_given() {
    let dir = tree("walk-hidden");
    let logs = path(&dir, "logs");
    let (code, out, err) = run(&["hash", &logs], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.ends_with("logs/a.fgn\n"), "{out}");
    // Global: before the command or after it.
    for args in [vec!["--hidden", "hash", &logs], vec!["hash", "--hidden", &logs]] {
        let (code, out, err) = run(&args, b"");
        assert_eq!(code, Some(0), "{err}");
        let files: Vec<&str> = out.lines().map(|l| l.rsplit('/').next().unwrap_or(l)).collect();
        assert_eq!(files, [".c.fgn", "b.fgn", "a.fgn"], "{out}");
    }
    let (hidden_file, git) = (path(&dir, "logs/.c.fgn"), path(&dir, "logs/.git"));
    let (code, out, err) = run(&["validate", &hidden_file, &git], b"");
    assert_eq!((code, out.as_str()), (Some(0), "2 valid, 0 invalid\n"), "{err}");
}

/// Regression (issue 39): an empty directory counted as "1 not checked".
/// It counts as nothing: beside logs it is a note, once; alone it is the
/// run's error (exit 2), once, naming it.
#[test]
fn an_empty_directory_counts_as_nothing_and_is_named_once() {
    let dir = tree("walk-empty");
    let (logs, empty) = (path(&dir, "logs"), path(&dir, "empty"));
    let (code, out, err) = run(&["validate", &logs, &empty], b"");
    assert_eq!((code, out.as_str()), (Some(0), "1 valid, 0 invalid\n"), "{err}");
    assert_eq!(err, format!("{empty}: no *.fgn files in it\n"));
    let (code, _, quiet) = run(&["-q", "validate", &logs, &empty], b"");
    assert_eq!((code, quiet.as_str()), (Some(0), ""));
    let (code, out, err) = run(&["validate", &empty], b"");
    assert_eq!((code, out.as_str()), (Some(2), "0 valid, 0 invalid\n"), "{err}");
    assert_eq!(err, format!("error: {empty}: no *.fgn files in it\n"));
    // A directory whose only logs are hidden holds none, and so do the
    // commands that do not stream (fmt printing one log, html's site).
    let hidden = path(&dir, "logs/.c.fgn");
    std::fs::rename(&hidden, dir.join("empty/.c.fgn")).expect("a rename");
    let (code, _, err) = run(&["fmt", &empty], b"");
    assert_eq!(
        (code, err),
        (Some(2), format!("error: {empty}: no *.fgn files in it\n"))
    );
    let site = path(&dir, "site");
    let (code, _, err) = run(&["html", "--out", &site, &logs, &empty], b"");
    assert_eq!(
        (code, err),
        (
            Some(0),
            format!("{empty}: no *.fgn files in it\nwrote 2 files in {site}\n")
        )
    );
    let (code, _, err) = run(&["--hidden", "validate", &empty], b"");
    assert_eq!(code, Some(0), "{err}");
}

/// The progress line (done of the files counted, the rate and the time
/// left) is written on a terminal only: never into a pipe, whatever the
/// run's length (here it shows at once, by the debug build's
/// `FGN_DEBUG_PROGRESS_AFTER`), so that output captured by a script or CI
/// stays what the run reports. On a terminal (a pseudo-terminal made by
/// `script`) it shows.
#[test]
fn the_progress_line_shows_on_a_terminal_only() {
    let fgn = env!("CARGO_BIN_EXE_fgn");
    let args = ["validate", "corpus/survival-chess/valid"];
    let piped = std::process::Command::new(fgn)
        .args(args)
        .env("FGN_DEBUG_PROGRESS_AFTER", "0")
        .current_dir(root())
        .output()
        .expect("fgn runs");
    let err = String::from_utf8_lossy(&piped.stderr);
    assert_eq!(piped.status.code(), Some(0), "{err}");
    assert!(!err.contains("files/s"), "{err}");
    // `script` (util-linux, on every Linux this is tested on) runs the
    // command on a pseudo-terminal and copies what it writes.
    let command = format!("{fgn} {}", args.join(" "));
    let shown = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("FGN_DEBUG_PROGRESS_AFTER", "0")
        .env_remove("FGN_NO_PROGRESS")
        .current_dir(root())
        .output()
        .expect("script runs");
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains(" files, ") && text.contains("files/s"), "{text}");
    assert!(text.contains(" valid, 0 invalid"), "{text}");
}

/// Regression: the progress line counted each game of a file read game by
/// game (a compressed one) as a file done, against a total that counts it
/// as one file, so that one file of 40 games showed `40/40 files`.
#[test]
fn the_progress_line_counts_a_file_of_many_games_as_one_file() {
    let fgn = env!("CARGO_BIN_EXE_fgn");
    let dir = crate::util::scratch_dir("walks-progress-games");
    let log = std::fs::read(root().join("corpus/survival-chess/valid/01-bishop-queen-mate.fgn")).expect("a log");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &log.repeat(40)).expect("gzip");
    let file = dir.join("month.fgn.gz");
    std::fs::write(&file, gz.finish().expect("gzip")).expect("a test file");
    let command = format!("{fgn} validate {}", file.display());
    let shown = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("FGN_DEBUG_PROGRESS_AFTER", "0")
        .env_remove("FGN_NO_PROGRESS")
        .output()
        .expect("script runs");
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("40 valid, 0 invalid"), "{text}");
    // Every count the line showed is of the one file.
    let counts: Vec<&str> = text
        .split(" files, ")
        .filter_map(|before| {
            before
                .rsplit(|c: char| c != '/' && c != '+' && !c.is_ascii_digit())
                .next()
        })
        .filter(|count| !count.is_empty())
        .collect();
    assert!(!counts.is_empty(), "{text}");
    let of_one_file = |count: &str| {
        let (done, total) = count.split_once('/').unwrap_or((count, "1"));
        matches!(done, "0" | "1") && total.trim_end_matches('+') == "1"
    };
    assert!(counts.iter().all(|c| of_one_file(c)), "{counts:?}");
}
