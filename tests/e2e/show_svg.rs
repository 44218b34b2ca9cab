//! `fgn show --format svg`: the board as an SVG document for every game
//! and board size, whole, as each player and from view files, read back
//! with an XML parser; `--flip` and its default; the format refused by
//! every other command.

use crate::util::run;

/// A drawn square: its name, shade and figures (fgn-tools' svg contract),
/// whether it is highlighted.
#[derive(Debug, PartialEq)]
struct Drawn {
    square: String,
    shade: String,
    figures: String,
    highlight: bool,
}

/// `fgn --format svg show ARGS...`, which must succeed, read back: the
/// root's ARIA role and the squares in document order.
fn svg(args: &[&str]) -> Vec<Drawn> {
    let mut all = vec!["--format", "svg", "show"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, b"");
    assert_eq!(code, Some(0), "{args:?}: {err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{args:?}: not XML: {e}\n{out}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{args:?}");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert_eq!(root.attribute("role"), Some("img"));
    assert!(!out.contains("href"), "{args:?}: nothing is fetched");
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("square"))
        .map(|n| Drawn {
            square: n.attribute("data-square").unwrap_or_default().to_string(),
            shade: n.attribute("data-shade").unwrap_or_default().to_string(),
            figures: n.attribute("data-figures").unwrap_or_default().to_string(),
            highlight: n.attribute("data-highlight") == Some("true"),
        })
        .collect()
}

/// The board size a log's header names; `None` for the game's default.
fn board_tag(file: &str) -> Option<(usize, usize)> {
    let text = std::fs::read_to_string(file).expect("a corpus log");
    let tag = text
        .lines()
        .find_map(|l| l.strip_prefix("[Board \"").and_then(|l| l.strip_suffix("\"]")))?;
    let (files, ranks) = tag.split_once('x')?;
    Some((files.parse().ok()?, ranks.parse().ok()?))
}

/// The size of the board the squares make up, checked to be a whole
/// rectangle with every square once (and the header's size when it names
/// one).
fn board_size(file: &str, squares: &[Drawn]) -> (usize, usize) {
    let at = |d: &Drawn| -> (usize, usize) {
        let square: fgn_notation::Square = d.square.parse().expect("a square");
        (usize::from(square.file_index()), usize::from(square.rank_index()))
    };
    let files = squares.iter().map(|d| at(d).0 + 1).max().unwrap_or(0);
    let ranks = squares.iter().map(|d| at(d).1 + 1).max().unwrap_or(0);
    let mut names: Vec<&str> = squares.iter().map(|d| d.square.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), files * ranks, "{file}: every square once");
    assert_eq!(squares.len(), files * ranks, "{file}: every square once");
    if let Some(size) = board_tag(file) {
        assert_eq!((files, ranks), size, "{file}");
    }
    (files, ranks)
}

/// A game and the board size its header names (`None`: the default).
type GameAndSize = (&'static str, Option<(usize, usize)>);

/// One valid log of each game for each board size the corpus has.
fn one_log_per_game_and_size() -> Vec<String> {
    let mut chosen: Vec<(GameAndSize, String)> = Vec::new();
    for game in [
        "survival-chess",
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
    ] {
        let mut files: Vec<String> = std::fs::read_dir(format!("corpus/{game}/valid"))
            .expect("a corpus folder")
            .flatten()
            .map(|e| e.path().display().to_string())
            .filter(|p| p.ends_with(".fgn"))
            .collect();
        files.sort();
        for file in files {
            let size = board_tag(&file);
            if !chosen.iter().any(|(chosen, _)| *chosen == (game, size)) {
                chosen.push(((game, size), file));
            }
        }
    }
    chosen.into_iter().map(|(_, file)| file).collect()
}

#[test]
fn every_game_and_size_is_drawn_whole_and_as_each_player() {
    let logs = one_log_per_game_and_size();
    assert!(logs.len() >= 14, "{logs:?}");
    for file in &logs {
        let whole = board_size(file, &svg(&[file]));
        for side in ["white", "black"] {
            assert_eq!(board_size(file, &svg(&["--as", side, file])), whole, "{file} as {side}");
        }
    }
    let sizes: Vec<(usize, usize)> = logs.iter().map(|f| board_size(f, &svg(&[f]))).collect();
    for size in [(6, 6), (26, 26), (26, 6), (12, 12)] {
        assert!(sizes.contains(&size), "{size:?} drawn: {sizes:?}");
    }
}

/// The last move is outlined: the squares the last event names.
#[test]
fn the_last_move_is_highlighted() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    // Event 15 is `5 w Qh9xf11#`.
    let text = std::fs::read_to_string(file).expect("a log");
    assert!(text.contains("5 w Qh9xf11#"), "the log changed");
    let squares = svg(&["--at", "15", file]);
    let lit: Vec<&str> = squares
        .iter()
        .filter(|d| d.highlight)
        .map(|d| d.square.as_str())
        .collect();
    let mut lit = lit;
    lit.sort_unstable();
    assert_eq!(lit, ["f11", "h9"]);
    // At the start nothing is.
    assert!(svg(&["--at", "0", file]).iter().all(|d| !d.highlight));
}

#[test]
fn black_sees_the_board_from_its_side_unless_told_otherwise() {
    let file = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let first = |args: &[&str]| svg(args).first().map(|d| d.square.clone()).unwrap_or_default();
    assert_eq!(first(&[file]), "a12");
    assert_eq!(first(&["--as", "white", file]), "a12");
    assert_eq!(
        first(&["--as", "black", file]),
        "l1",
        "black's side: rank 1 on top, files reversed"
    );
    assert_eq!(first(&["--as", "black", "--no-flip", file]), "a12");
    assert_eq!(first(&["--flip", file]), "l1");
    assert_eq!(first(&["--flip", "--no-flip", file]), "a12", "the last one given wins");
    // The text board turns alike.
    let (code, text, _) = run(&["show", "--as", "black", file], b"");
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = text.lines().take(2).collect();
    assert!(lines[0].trim_start().starts_with("l k j"), "{text}");
    assert!(lines[1].trim_start().starts_with("1 "), "{text}");
    // A black view file is drawn from black's side.
    let view = "corpus/survival-chess/views/12-setup-timeout-auto-ready.black.fgn";
    let squares = svg(&[view]);
    let (files, ranks) = board_size(view, &squares);
    let corner = |file: usize, rank: usize| format!("{}{rank}", char::from(b'a' + file as u8 - 1));
    assert_eq!(squares[0].square, corner(files, 1), "black's view from black's side");
    assert_eq!(svg(&["--no-flip", view])[0].square, corner(1, ranks));
}

#[test]
fn view_files_of_survival_great_war_and_draughts_are_drawn() {
    for view in [
        "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn",
        "corpus/great-war-chess/views/gwc-02-fortifications-resign.black.fgn",
        "corpus/great-war-chess/views/gwc-01-raids-no-charges.white.fgn",
        "corpus/magic-draughts/views/13-in-progress.black.fgn",
    ] {
        let size = board_size(view, &svg(&[view]));
        for at in ["0", "1", "5"] {
            assert_eq!(board_size(view, &svg(&["--at", at, view])), size, "{view} at {at}");
        }
    }
}

/// During the secret setup a player's board shows the opponent's half as
/// unknown, not as empty squares.
#[test]
fn a_hidden_setup_is_drawn_unknown() {
    let file = "corpus/great-war-chess/valid/gwc-01-raids-no-charges.fgn";
    let squares = svg(&["--at", "1", "--as", "black", file]);
    let (_, ranks) = board_size(file, &squares);
    for d in &squares {
        let rank: usize = d.square[1..].parse().expect("a rank");
        let expected = if rank <= ranks / 2 { "unknown" } else { "clear" };
        assert_eq!(d.shade, expected, "{d:?}");
    }
    // The whole board shows white's setup as it is.
    assert!(svg(&["--at", "1", file]).iter().all(|d| d.shade == "clear"));
}

#[test]
fn no_other_command_writes_svg() {
    for args in [
        &["--format", "svg", "validate", "corpus/survival-chess/valid"][..],
        &[
            "--format",
            "svg",
            "json",
            "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
        ],
        &["stats", "--format", "svg", "corpus/survival-chess/valid"],
    ] {
        let (code, out, err) = run(args, b"");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("--format svg") && err.contains("show"), "{args:?}: {err}");
    }
}

/// One small board pinned whole (reviewed by eye: a 6x6 great-war-chess
/// game with stacks, the last move, a failed attack `Ic5xd4`, outlined).
#[test]
fn a_small_board_is_pinned() {
    let (code, out, _) = run(
        &[
            "--format",
            "svg",
            "show",
            "--at",
            "15",
            "corpus/great-war-chess/valid/gwc-06-fortification-falls.fgn",
        ],
        b"",
    );
    assert_eq!(code, Some(0));
    insta::assert_snapshot!(out);
}
