//! Which options each command offers, and how `fgn --help` lists the
//! commands.

use crate::util::{fgn_binary, run};

/// The commands `fgn --help` lists, in its order, with the heading of the
/// group each is under.
fn listed() -> Vec<(String, String)> {
    let (code, top, _) = run(&["--help"], b"");
    assert_eq!(code, Some(0));
    let mut heading = String::new();
    let mut out = Vec::new();
    for line in top
        .lines()
        .skip_while(|l| !l.starts_with("Usage:"))
        .skip(1)
        .take_while(|l| !l.starts_with("Options:"))
    {
        if let Some(title) = line.strip_suffix(':').filter(|_| !line.starts_with(' ')) {
            heading = title.to_string();
        } else if let Some(name) = line.strip_prefix("  ").and_then(|l| l.split_whitespace().next()) {
            out.push((heading.clone(), name.to_string()));
        }
    }
    out
}

/// Regression (issue 39): `fgn --help` listed the commands in no order. It
/// lists them in groups by what they are for, every command once, and
/// `fgn help COMMAND` still gives a command's help.
#[test]
fn help_lists_the_commands_in_groups() {
    let listed = listed();
    let headings: Vec<&str> = listed.iter().map(|(h, _)| h.as_str()).fold(Vec::new(), |mut v, h| {
        if v.last() != Some(&h) {
            v.push(h);
        }
        v
    });
    assert_eq!(
        headings,
        [
            "Check logs",
            "Inspect a game",
            "Convert",
            "Trust: views, hashes and appends",
            "Archives",
            "Make games, set up fgn"
        ]
    );
    let group = |name: &str| listed.iter().find(|(_, n)| n == name).map(|(h, _)| h.as_str());
    assert_eq!(group("validate"), Some("Check logs"));
    assert_eq!(group("verify-extends"), Some("Trust: views, hashes and appends"));
    assert_eq!(group("stats"), Some("Archives"));
    assert_eq!(listed.last().map(|(_, n)| n.as_str()), Some("help"));
    let mut names: Vec<&str> = listed.iter().map(|(_, n)| n.as_str()).collect();
    names.sort_unstable();
    let count = names.len();
    names.dedup();
    assert_eq!(names.len(), count, "a command listed twice: {listed:?}");
    assert_eq!(count, 23, "{listed:?}");
    // `help COMMAND` is the command's own help, and `help` is `--help`.
    let (code, help, _) = run(&["help", "validate"], b"");
    let (_, own, _) = run(&["validate", "--help"], b"");
    assert_eq!((code, &help), (Some(0), &own));
    assert!(help.starts_with("Check that logs are legal"), "{help}");
    let (_, top, _) = run(&["help"], b"");
    assert_eq!(top, run(&["--help"], b"").1);
    // Through the binary too, where clap writes the help itself.
    let out = fgn_binary(&["--help"], b"");
    assert_eq!(String::from_utf8_lossy(&out.stdout), top);
}

/// The commands that read many files with parallel workers.
pub const MANY: [&str; 9] = [
    "fmt",
    "json",
    "validate",
    "impact",
    "leaderboard",
    "hash",
    "events",
    "select",
    "stats",
];

/// Regression (issue 39): `-j` was a global option, offered by every
/// command, even those that read one file (show, view, append,
/// verify-view, ...). Only the commands that read many files offer it,
/// after the command or before it as it used to be taken; the others
/// refuse it (exit 2).
#[test]
fn jobs_is_offered_only_by_commands_that_read_many_files() {
    for (_, name) in listed() {
        if name == "help" {
            continue;
        }
        let (code, help, _) = run(&[&name, "--help"], b"");
        assert_eq!(code, Some(0), "{name}");
        assert_eq!(
            help.contains("--jobs <N>"),
            MANY.contains(&name.as_str()),
            "{name}:\n{help}"
        );
    }
    let (_, top, _) = run(&["--help"], b"");
    assert!(!top.contains("--jobs"), "{top}");
    let dir = "corpus/magic-draughts/valid";
    let (code, before, _) = run(&["--jobs", "2", "validate", dir], b"");
    assert_eq!(code, Some(0));
    for args in [["validate", "-j", "2", dir], ["validate", "--jobs", "1", dir]] {
        assert_eq!(run(&args, b"").1, before, "{args:?}");
    }
    let log = "corpus/magic-draughts/valid/01-plain-capture-all.fgn";
    let (code, out, err) = run(&["-j", "2", "show", log], b"");
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert_eq!(
        err,
        "error: -j/--jobs is for the commands that read many files; `fgn show` takes none\n"
    );
    let (code, _, err) = run(&["view", "--as", "white", "-j", "2", log], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("unexpected argument '-j'"), "{err}");
}
