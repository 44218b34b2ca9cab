//! What fgn says about itself: help, the manual pages, shell completions,
//! the install lines of README.md, and the nearest name offered on a typo
//! (issue 39, items 6 to 9).

use std::path::Path;
use std::process::Command;

use fgn_notation::{GameKind, Outcome, Reason};

use crate::util::{root, run, scratch_dir};

/// Regression (issue 39, item 6): `fgn json --help` said format version 2
/// while fgn wrote 3, `fgn from-json --help` named the versions it read
/// before 3, and docs/json.md §7's example showed version 2 and
/// open-world-chess rules 1.0. The helps are held to the constants the
/// code writes and reads, and the example to what `fgn json` writes for
/// the file it names.
#[test]
fn json_help_and_docs_name_the_format_version_fgn_writes() {
    use fgn_notation::json::{READ_VERSIONS, VERSION};
    let (_, help, _) = run(&["json", "--help"], b"");
    assert!(help.contains(&format!("(format version {VERSION})")), "{help}");
    assert_eq!(help.matches("format version").count(), 1, "{help}");
    let (_, help, _) = run(&["from-json", "--help"], b"");
    let (last, before) = READ_VERSIONS.split_last().expect("versions are read");
    let before: Vec<String> = before.iter().map(u32::to_string).collect();
    let read = format!("versions {} and {last} are read", before.join(", "));
    assert!(help.contains(&read), "{read:?} missing:\n{help}");

    let docs = std::fs::read_to_string(root().join("docs/json.md")).expect("docs/json.md");
    let section = docs
        .split("\n## 7. ")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/json.md has a §7");
    let example = section
        .lines()
        .find(|l| l.starts_with("{\"format\":\"fgn\""))
        .expect("§7 has an example line");
    let quoted = |key: &str| -> String {
        let rest = example.split(&format!("\"{key}\":")).nth(1).expect(key);
        let value = rest.split([',', '}']).next().unwrap_or_default();
        value.trim_matches('"').to_string()
    };
    let file = quoted("file");
    let (code, out, err) = run(&["json", "--ndjson", &file], b"");
    assert_eq!(code, Some(0), "{err}");
    let written: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(quoted("version"), written["version"].to_string(), "{example}");
    assert_eq!(written["version"], VERSION);
    for tag in ["Game", "Rules", "Mode"] {
        assert_eq!(
            quoted(tag),
            written["header"][tag].as_str().unwrap_or_default(),
            "{tag} in {example}"
        );
    }
}

/// A roff line as a reader sees it: escapes and font changes undone.
fn unroff(line: &str) -> String {
    line.replace("\\fB", "")
        .replace("\\fR", "")
        .replace("\\fI", "")
        .replace("\\-", "-")
        .replace("\\&", "")
        .replace("\\\\", "\\")
}

/// The section `name` of a roff page: the lines after its `.SH` up to the
/// next.
fn section<'p>(page: &'p str, name: &str) -> Option<&'p str> {
    let start = page
        .find(&format!(".SH {name}\n"))
        .or_else(|| page.find(&format!(".SH \"{name}\"\n")))?;
    let body = &page[start..];
    let body = &body[body.find('\n')? + 1..];
    Some(body.split("\n.SH ").next().unwrap_or(body))
}

/// Every command with a page, as the words after `fgn` (none for fgn's
/// own page), found from fgn's page down through each page's list of
/// commands (`fgn-rules-show(1)` is `rules show`).
fn pages() -> Vec<Vec<String>> {
    let mut found = vec![Vec::new()];
    let mut at = 0;
    while at < found.len() {
        let words = found[at].clone();
        let mut args = vec!["man".to_string()];
        args.extend(words.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, page, err) = run(&args, b"");
        assert_eq!(code, Some(0), "fgn {args:?}: {err}");
        let prefix = std::iter::once("fgn".to_string())
            .chain(words.iter().cloned())
            .collect::<Vec<_>>()
            .join("-");
        for line in section(&page, "SUBCOMMANDS").unwrap_or_default().lines().map(unroff) {
            if let Some(name) = line
                .strip_prefix(&format!("{prefix}-"))
                .and_then(|l| l.strip_suffix("(1)"))
            {
                let mut sub = words.clone();
                sub.push(name.to_string());
                found.push(sub);
            }
        }
        at += 1;
    }
    found
}

/// Regression (issue 39, item 7): `fgn man` listed `fgn-help(1)`, which
/// `fgn man help` refused; `fgn man validate` had the synopsis
/// `fgn-validate …` (no such program) and left out the global options;
/// no page had EXIT STATUS or EXAMPLES. Now every command's page (a
/// command of a command too: `fgn man rules show`) renders with its
/// synopsis `fgn COMMAND`, the global options, the exit codes and
/// examples of itself.
#[test]
fn every_command_has_a_manual_page_with_its_synopsis_exit_status_and_examples() {
    let pages = pages();
    let names: Vec<String> = pages.iter().map(|w| w.join(" ")).collect();
    for expected in ["validate", "rules", "rules show", "rules check", "man", "gen"] {
        assert!(names.iter().any(|n| n == expected), "no page of {expected}: {names:?}");
    }
    assert!(pages.len() > 20, "{names:?}");
    assert!(!names.iter().any(|n| n.split(' ').any(|w| w == "help")), "{names:?}");
    for words in &pages {
        let mut args = vec!["man"];
        args.extend(words.iter().map(String::as_str));
        let (code, page, err) = run(&args, b"");
        assert_eq!(code, Some(0), "fgn {args:?}: {err}");
        let command = std::iter::once("fgn")
            .chain(words.iter().map(String::as_str))
            .collect::<Vec<_>>();
        assert!(page.contains(&format!(".TH {} 1", command.join("-"))), "{page}");
        let synopsis = unroff(section(&page, "SYNOPSIS").expect("a SYNOPSIS"));
        assert!(synopsis.starts_with(&format!("{} ", command.join(" "))), "{synopsis}");
        let options = unroff(section(&page, "OPTIONS").expect("an OPTIONS section"));
        for global in ["--format", "--quiet", "--strict", "--color", "--hidden"] {
            assert!(options.contains(global), "{command:?} lacks {global}: {options}");
        }
        // `--jobs` is an option of the commands that read many files only
        // (issue 39, item 18), so only their pages give it.
        assert_eq!(
            options.contains("--jobs"),
            words.len() == 1 && crate::commands::MANY.contains(&words[0].as_str()),
            "{command:?} and --jobs: {options}"
        );
        let status = unroff(section(&page, "EXIT STATUS").expect("an EXIT STATUS section"));
        for code in ["0", "1", "2"] {
            assert!(status.contains(&format!(".TP\n{code}\n")), "{command:?}: {status}");
        }
        let examples = examples(&page);
        assert!(!examples.is_empty(), "{command:?} has no examples");
        if let Some(own) = words.first() {
            assert!(
                examples
                    .iter()
                    .any(|e| e.contains(&format!("fgn {}", words.join(" "))) || e.contains(&format!("fgn {own}"))),
                "{command:?}'s examples do not use it: {examples:?}"
            );
        }
    }
    let (code, _, err) = run(&["man", "help"], b"");
    assert_eq!(code, Some(2), "help has no page, and is not listed: {err}");
}

/// The shell lines of a page's EXAMPLES: each between `.nf` and `.fi`.
fn examples(page: &str) -> Vec<String> {
    let section = section(page, "EXAMPLES").unwrap_or_default();
    section
        .split(".nf\n")
        .skip(1)
        .filter_map(|s| s.split("\n.fi").next())
        .map(unroff)
        .collect()
}

/// A folder holding what the examples name: a finished game `game.fgn`,
/// the same game cut short before its mate `old.fgn`, white's view
/// `white.fgn`, a folder of logs `games/` and a rules file `rules.json`;
/// and a home folder with nothing in it.
fn example_folder(name: &str) -> std::path::PathBuf {
    let dir = scratch_dir(name);
    let corpus = root().join("corpus");
    let game = std::fs::read_to_string(corpus.join("survival-chess/valid/20-fools-mate-8x8.fgn")).expect("the game");
    std::fs::write(dir.join("game.fgn"), &game).expect("game.fgn");
    let cut = game.split("2 b Qd8-h4#").next().expect("the mate");
    std::fs::write(dir.join("old.fgn"), cut).expect("old.fgn");
    let (code, view, err) = run(&["view", "--as", "white", "-"], game.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(dir.join("white.fgn"), view).expect("white.fgn");
    std::fs::write(dir.join("rules.json"), r#"{"survival-chess": {"board": "10x10"}}"#).expect("rules.json");
    std::fs::create_dir(dir.join("games")).expect("games/");
    for file in [
        "survival-chess/valid/01-bishop-queen-mate.fgn",
        "survival-chess/valid/10-white-resigns.fgn",
        "magic-draughts/valid/01-plain-capture-all.fgn",
    ] {
        let from = corpus.join(file);
        std::fs::copy(&from, dir.join("games").join(from.file_name().expect("a name"))).expect("a log");
    }
    std::fs::create_dir(dir.join("home")).expect("home/");
    dir
}

/// Runs the shell line `line` in `dir` with the fgn under test first on the
/// PATH and `dir/home` as the home folder: its exit code and what it wrote
/// on standard error.
fn sh(dir: &Path, line: &str) -> (Option<i32>, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_fgn"))
        .parent()
        .expect("the binary's folder");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env("PATH", path)
        .output()
        .expect("sh runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Every example of every manual page is a command line that works: run
/// by the shell in a folder holding the files the pages name, each exits
/// 0, or 1 where its result is that something is invalid or differs,
/// never 2 (a usage or I/O error). The install lines among them work in an
/// empty home folder (issue 39, item 8).
#[test]
fn the_examples_of_every_manual_page_run() {
    let dir = example_folder("manual-examples");
    let mut ran = 0;
    for words in pages() {
        let mut args = vec!["man"];
        args.extend(words.iter().map(String::as_str));
        let (_, page, _) = run(&args, b"");
        for line in examples(&page) {
            let (code, err) = sh(&dir, &line);
            assert!(
                matches!(code, Some(0 | 1)),
                "`{line}` (page of {words:?}) exited {code:?}: {err}"
            );
            ran += 1;
        }
    }
    assert!(ran > 30, "{ran} examples");
    let home = dir.join("home");
    for installed in [
        ".local/share/bash-completion/completions/fgn",
        ".config/fish/completions/fgn.fish",
        ".zfunc/_fgn",
        ".local/share/man/man1/fgn.1",
        ".local/share/man/man1/fgn-validate.1",
    ] {
        let text = std::fs::read_to_string(home.join(installed)).unwrap_or_default();
        assert!(text.len() > 100, "{installed} was not written");
    }
}

/// Regression (issue 39, item 8): README.md's install lines wrote the
/// completion script and the manual page into folders a fresh machine
/// does not have, and failed there. Each line of its Install block that
/// writes them is run in an empty home folder, and what it writes is
/// there afterwards.
#[test]
fn the_readme_install_lines_work_in_an_empty_home() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let block = readme
        .split("\n## Install\n")
        .nth(1)
        .and_then(|s| s.split("```sh\n").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("README.md has an Install block");
    let lines: Vec<&str> = block
        .lines()
        .filter(|l| l.contains("fgn completions") || l.contains("fgn man"))
        .collect();
    assert!(lines.len() >= 2, "{block}");
    let dir = scratch_dir("readme-install");
    std::fs::create_dir(dir.join("home")).expect("home/");
    for line in &lines {
        let (code, err) = sh(&dir, line);
        assert_eq!(code, Some(0), "`{line}`: {err}");
    }
    let home = dir.join("home");
    let completions = std::fs::read_to_string(home.join(".local/share/bash-completion/completions/fgn"));
    assert!(completions.is_ok_and(|s| s.contains("_fgn()")), "{lines:?}");
    let page = std::fs::read_to_string(home.join(".local/share/man/man1/fgn.1"));
    assert!(page.is_ok_and(|s| s.contains(".TH fgn 1")), "{lines:?}");
}

/// What bash completes after the words `words`, the last one being
/// completed, with fgn's completion script loaded.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let (code, script, _) = run(&["completions", "bash"], b"");
    assert_eq!(code, Some(0));
    let dir = scratch_dir(&format!("bash-completion-{}", words.join("-").replace('/', "_")));
    std::fs::write(dir.join("fgn.bash"), script).expect("the script");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let current = words.len() - 1;
    let line = format!(
        "source ./fgn.bash; COMP_WORDS=({}); COMP_CWORD={current}; _fgn fgn '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words[current],
        words[current - 1],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(line)
        .current_dir(&dir)
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Regression (issue 39, item 9): `gen --game <TAB>`, `rules show <TAB>`,
/// `--outcome` and `--reason` completed file names. They complete the
/// names of the notation's own lists: every game, outcome and reason.
#[test]
fn completions_offer_the_games_outcomes_and_reasons() {
    let games: Vec<String> = GameKind::ALL.iter().map(|g| g.name().to_string()).collect();
    assert_eq!(bash_completes(&["fgn", "gen", "--game", ""]), games);
    assert_eq!(bash_completes(&["fgn", "select", "--game", ""]), games);
    let shown = bash_completes(&["fgn", "rules", "show", ""]);
    assert!(games.iter().all(|g| shown.contains(g)), "{shown:?}");
    assert!(
        shown.iter().all(|w| w.starts_with('-') || games.contains(w)),
        "{shown:?}"
    );
    let outcomes: Vec<String> = Outcome::ALL.iter().map(|o| o.text().to_string()).collect();
    assert_eq!(bash_completes(&["fgn", "select", "--outcome", ""]), outcomes);
    let reasons: Vec<String> = Reason::ALL.iter().map(|r| r.name().to_string()).collect();
    assert_eq!(bash_completes(&["fgn", "select", "--reason", ""]), reasons);
    assert_eq!(bash_completes(&["fgn", "select", "--reason", "no-p"]), ["no-pieces"]);
}

/// Regression (issue 39, item 9): a misspelt game or reason got a list
/// without a hint, and `fgn help valdate` (unlike `fgn valdate`) no
/// suggestion at all. Each names the nearest value or command now.
#[test]
fn a_misspelt_game_reason_or_command_gets_the_nearest_name() {
    for (args, tip) in [
        (
            &["gen", "--game", "survival-chss", "--seed", "1"][..],
            "'survival-chess'",
        ),
        (&["rules", "show", "great-war-ches"], "'great-war-chess'"),
        (&["select", "--reason", "stalemat", "corpus"], "'stalemate'"),
        (&["select", "--game", "magic-draugts", "corpus"], "'magic-draughts'"),
        (&["valdate"], "'validate'"),
        (&["help", "valdate"], "'validate'"),
        (&["help", "rules", "chek"], "'check'"),
    ] {
        let (code, _, err) = run(args, b"");
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains("a similar") && err.contains(tip), "{args:?}: {err}");
    }
    let (code, _, err) = run(&["man", "valdate"], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("did you mean `validate`?"), "{err}");
    let (code, _, err) = run(&["help", "frobnicate"], b"");
    assert_eq!(code, Some(2));
    assert!(!err.contains("similar"), "{err}");
}
