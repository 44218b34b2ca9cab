//! `fgn convert`: survival-chess to and from PGN (docs/interchange.md),
//! checked by round trips and against python-chess's reading of the same
//! games (fixtures computed once by tests/fixtures-tools/pgn_python_chess.py).

use std::collections::BTreeSet;
use std::path::Path;

use fgn_notation::{Action, Actor, Color, PieceKind};
use fgn_replay::Replay;
use fgn_tools::pgn::{fen_placement, read_pgn};

use crate::util::{root, run, scratch, scratch_dir};

/// The log hash of every file `fgn hash` lists under `dirs`, by file.
fn hashes(dirs: &[&str]) -> Vec<(String, String)> {
    let mut args = vec!["hash"];
    args.extend_from_slice(dirs);
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .map(|l| {
            let (hash, file) = l.split_once("  ").expect("a hash line");
            (file.to_string(), hash.to_string())
        })
        .collect()
}

/// Regression (issue 40): no survival-chess game could go to a chess
/// program. Every 8x8 survival-chess game of the corpus and 200 generated
/// ones (random setups with clocks, chat, timeouts and resignations, and
/// classical ones left unfinished) go to PGN and back with the log hash
/// unchanged; the only game passed over is one that never left its setup,
/// and it is named.
#[test]
fn pgn_round_trip_keeps_the_log_hash_of_every_8x8_game() {
    let dir = scratch_dir("pgn-round-trip");
    let (random, classical) = (dir.join("random"), dir.join("classical"));
    let (random, classical) = (random.to_str().unwrap(), classical.to_str().unwrap());
    for args in [
        vec![
            "gen",
            "--game",
            "survival-chess",
            "--seed",
            "7",
            "--count",
            "100",
            "--board",
            "8x8",
        ]
        .into_iter()
        .chain([
            "--time-control",
            "setup=120 move=60",
            "--chat",
            "0.05",
            "--resign",
            "0.005",
        ])
        .chain(["--plies", "120", "--out", random])
        .collect::<Vec<_>>(),
        vec![
            "gen",
            "--game",
            "survival-chess",
            "--seed",
            "8",
            "--count",
            "100",
            "--board",
            "8x8",
        ]
        .into_iter()
        .chain([
            "--setup",
            "classical",
            "--clocks",
            "--unfinished",
            "--plies",
            "80",
            "--out",
            classical,
        ])
        .collect(),
    ] {
        let (code, _, err) = run(&args, b"");
        assert_eq!(code, Some(0), "{err}");
    }
    let corpus = "corpus/survival-chess/valid";
    let (code, pgn, notes) = run(&["convert", "--to", "pgn", corpus, random, classical], b"");
    assert_eq!(code, Some(0), "{notes}");
    let exported = scratch("pgn-round-trip", "all.pgn", pgn.as_bytes());
    let back = dir.join("back");
    let back = back.to_str().unwrap();
    let (code, _, err) = run(&["convert", "--from", "pgn", "--out", back, &exported], b"");
    assert_eq!(code, Some(0), "{err}");
    let returned: BTreeSet<String> = hashes(&[back]).into_iter().map(|(_, h)| h).collect();
    let mut kept = 0;
    for (file, hash) in hashes(&[corpus, random, classical]) {
        let skipped = notes.lines().any(|l| l.starts_with(&format!("{file}: skipped: ")));
        let eight = std::fs::read_to_string(root().join(&file))
            .unwrap()
            .contains("[Board \"8x8\"]");
        if eight && !skipped {
            assert!(
                returned.contains(&hash),
                "{file} did not come back with its log hash {hash}"
            );
            kept += 1;
        } else if eight {
            assert!(
                notes.contains(&format!("{file}: skipped: it ended in its setup")),
                "{file} is 8x8 and was skipped: {notes}"
            );
        } else {
            assert!(notes.contains(&format!("{file}: skipped: a ")), "{file}: {notes}");
        }
    }
    assert_eq!(returned.len(), kept);
    assert!(kept >= 200 + 5, "only {kept} games went through");
}

/// The SAN tokens of each game of a PGN text written by fgn: comments,
/// tags, move numbers and results left out.
fn san_tokens(pgn: &str) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut moves = Vec::new();
    let mut in_comment = false;
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            if in_comment || word.starts_with('{') {
                in_comment = !word.ends_with('}');
                continue;
            }
            match word {
                "1-0" | "0-1" | "1/2-1/2" | "*" => games.push(std::mem::take(&mut moves)),
                w if w.ends_with('.') => {}
                w => moves.push(w.to_string()),
            }
        }
    }
    games
}

/// Independent check (issue 40): python-chess, which knows chess and PGN
/// but nothing of fgn, read the PGN fgn writes for the 8x8 corpus games and
/// 52 generated ones (tests/e2e/fixtures/pgn). The export is pinned byte
/// for byte, and python-chess agrees with fgn move by move: the same SAN
/// (disambiguation, captures, promotions, check and mate marks) and the same
/// position after every move. It refuses exactly the moves standard chess
/// does not have: a pawn's double step from a square other than its second
/// rank (survival-chess allows it from any square it was set up on).
#[test]
fn python_chess_reads_the_exported_games_as_fgn_plays_them() {
    let dir = scratch_dir("pgn-python-chess");
    let (random, classical) = (dir.join("random"), dir.join("classical"));
    let (random, classical) = (random.to_str().unwrap(), classical.to_str().unwrap());
    for args in [
        vec![
            "gen",
            "--game",
            "survival-chess",
            "--seed",
            "40",
            "--count",
            "40",
            "--board",
            "8x8",
        ]
        .into_iter()
        .chain([
            "--setup",
            "classical",
            "--clocks",
            "--plies",
            "120",
            "--chat",
            "0.02",
            "--out",
            classical,
        ])
        .collect::<Vec<_>>(),
        vec![
            "gen",
            "--game",
            "survival-chess",
            "--seed",
            "41",
            "--count",
            "12",
            "--board",
            "8x8",
        ]
        .into_iter()
        .chain([
            "--time-control",
            "setup=120 move=60",
            "--chat",
            "0.05",
            "--plies",
            "80",
            "--out",
            random,
        ])
        .collect(),
    ] {
        let (code, _, err) = run(&args, b"");
        assert_eq!(code, Some(0), "{err}");
    }
    let (code, pgn, err) = run(
        &[
            "convert",
            "--to",
            "pgn",
            "corpus/survival-chess/valid",
            classical,
            random,
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    let fixtures = root().join("tests/e2e/fixtures/pgn");
    let pinned = std::fs::read_to_string(fixtures.join("exported.pgn")).unwrap();
    assert!(
        pgn == pinned,
        "the export changed: regenerate the fixtures (tests/fixtures-tools/pgn_python_chess.py)"
    );
    let python: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("python-chess.json")).unwrap()).unwrap();
    let python = python["games"].as_array().unwrap();
    let ours = read_pgn(&pinned);
    let sans = san_tokens(&pinned);
    assert_eq!((ours.len(), sans.len()), (python.len(), python.len()));
    let (mut refused, mut moves) = (0, 0);
    for ((read, san), theirs) in ours.iter().zip(&sans).zip(python) {
        let game = read.game.as_ref().expect("fgn reads its own export");
        let mut replay = Replay::new(&game.header).unwrap();
        let mut fens = Vec::new();
        let mut played = Vec::new();
        for event in &game.events {
            replay.apply(event).unwrap();
            if let (Action::Move(m), Actor::Player(side)) = (&event.action, event.actor) {
                // FEN's side to move: the mover's opponent, also after a
                // move that ends the game.
                let next = if side == Color::White { 'b' } else { 'w' };
                fens.push(format!("{} {next}", fen_placement(&replay).unwrap()));
                played.push((*m, side));
            }
        }
        let strings = |key: &str| -> Vec<String> {
            theirs[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        let (their_san, their_fen) = (strings("san"), strings("fen"));
        let n = their_san.len();
        assert_eq!(their_san[..], san[..n], "SAN differs in game at line {}", read.at.line);
        assert_eq!(
            their_fen[..],
            fens[..n],
            "positions differ in game at line {}",
            read.at.line
        );
        moves += n;
        if theirs["errors"].as_array().unwrap().is_empty() {
            assert_eq!(n, san.len());
            let mate = game.events.iter().any(|e| {
                matches!(
                    e.action,
                    Action::Result {
                        reason: fgn_notation::Reason::Mate,
                        ..
                    }
                )
            });
            let stalemate = game.events.iter().any(|e| {
                matches!(
                    e.action,
                    Action::Result {
                        reason: fgn_notation::Reason::Stalemate,
                        ..
                    }
                )
            });
            assert_eq!(
                theirs["checkmate"].as_bool(),
                Some(mate),
                "game at line {}",
                read.at.line
            );
            assert_eq!(
                theirs["stalemate"].as_bool(),
                Some(stalemate),
                "game at line {}",
                read.at.line
            );
        } else {
            refused += 1;
            let (m, side) = played[n];
            let (from, to) = (m.from.unwrap(), m.to.unwrap());
            let second = if side == Color::White { 1 } else { 6 };
            assert!(
                m.piece == PieceKind::Pawn
                    && from.rank_index().abs_diff(to.rank_index()) == 2
                    && from.rank_index() != second,
                "python-chess refused `{}` in game at line {}: {:?}",
                san[n],
                read.at.line,
                theirs["errors"]
            );
        }
    }
    assert!(
        refused < 5 && moves > 2000,
        "{refused} games refused, {moves} moves compared"
    );
}

/// PGN that chess programs write (no fgn tags or comments; move numbers,
/// NAGs, marks, a variation, `%clk`): the start position or the FEN becomes
/// the setups, mates are the replay's, and a decisive result the position
/// does not make is a resignation.
#[test]
fn foreign_pgn_reads_into_valid_fgn() {
    let dir = scratch_dir("pgn-foreign");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let (code, _, err) = run(
        &[
            "convert",
            "--from",
            "pgn",
            "--out",
            out,
            "tests/e2e/fixtures/pgn/foreign.pgn",
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("wrote 4 files in"), "{err}");
    let (code, _, err) = run(&["validate", out], b"");
    assert_eq!(code, Some(0), "{err}");
    let read = |name: &str| std::fs::read_to_string(Path::new(out).join(name)).unwrap();
    assert!(read("foreign-0001.fgn").ends_with("2 b Qd8-h4#\n2 @ result 0-1 mate\n"));
    assert!(read("foreign-0002.fgn").contains("[PgnTimeControl \"300+2\"]\n"));
    assert!(read("foreign-0003.fgn").contains("0 w place Ra1 Kg1 Pf2 Pg2 Ph2\n"));
    assert!(read("foreign-0004.fgn").ends_with("2 w resign\n2 @ result 0-1 resign\n"));
    // Many games need --out, as from-json's do.
    let (code, _, err) = run(&["convert", "--from", "pgn", "tests/e2e/fixtures/pgn/foreign.pgn"], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("holds 4 games; give --out DIR"), "{err}");
}

/// What PGN holds that survival-chess has not is refused at its line and
/// column, and the games after it are still read.
#[test]
fn pgn_refusals_name_the_place_and_the_reason() {
    let cases: &[(&str, &str)] = &[
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *",
            "1:35: [pgn] `O-O` is castling, which survival-chess does not have",
        ),
        (
            "1. e4 a6 2. e5 d5 3. exd6 *",
            "1:22: [pgn] `exd6` would capture en passant, which survival-chess does not have: d6 is empty",
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/PPPPPPPP/PPPPKPPP w - - 0 1\"]\n*",
            "1:1: [pgn] the FEN's position is not a legal survival-chess setup",
        ),
        (
            "[FEN \"4k3/8/8/4R3/8/8/8/4K3 w - - 0 1\"]\n*",
            "1:1: [pgn] the FEN's position is not a legal survival-chess setup",
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n*",
            "1:1: [pgn] the FEN has `b` to move",
        ),
        (
            "1. f3 e5 2. g4 Qh4# 1-0",
            "1:21: [pgn] the game ends 1-0, but survival-chess decides 0-1 (mate)",
        ),
        ("1. e4 e5 1/2-1/2", "1:10: [pgn] a draw the position does not make"),
        ("1. e4 e5 2. Ke3 *", "1:13: [pgn] `Ke3` is no legal move of white here"),
        ("1. e4 {unclosed", "1:7: [pgn] this comment has no closing `}`"),
    ];
    for (pgn, expected) in cases {
        let file = scratch("pgn-refusals", "bad.pgn", format!("{pgn}\n\n1. d4 d5 *\n").as_bytes());
        let (code, out, err) = run(&["convert", "--from", "pgn", &file], b"");
        assert_eq!(code, Some(1), "{pgn}: {err}");
        assert!(err.contains(&format!("{file}:{expected}")), "{pgn}:\n{err}");
        // The good game after the bad one is still read (but for text that
        // stops being PGN, the unclosed comment).
        if !expected.contains("comment") {
            assert!(out.contains("1 b d7-d5\n"), "{pgn}: {out}");
        }
    }
}

/// A game PGN cannot hold is passed over with a note that says why, and
/// the run still succeeds for the games it could write.
#[test]
fn to_pgn_passes_over_what_pgn_cannot_hold_with_a_note() {
    let (code, out, err) = run(
        &[
            "convert",
            "--to",
            "pgn",
            "corpus/survival-chess/valid/12-setup-timeout-auto-ready.fgn",
            "corpus/magic-draughts/valid",
            "corpus/survival-chess/valid/20-fools-mate-8x8.fgn",
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("[Event \"?\"]\n")
            && out
                .ends_with("1. f3 e5 2. g4 Qh4#\n{[%fgn 2 @ result 0-1 mate]} {[%fgn 2 b chat \"sorry :)\"]} 0-1\n\n"),
        "{out}"
    );
    assert!(
        err.contains("12-setup-timeout-auto-ready.fgn: skipped: a 12x12 board: PGN holds 8x8 games only"),
        "{err}"
    );
    assert!(
        err.contains(": skipped: magic-draughts: PGN holds survival-chess games only"),
        "{err}"
    );
    let (code, _, err) = run(&["convert", "--to", "pgn", "corpus/survival-chess/invalid"], b"");
    assert_eq!(code, Some(1), "{err}");
}

/// A rules file for plain Russian draughts, for `fgn gen --rules`.
fn plain_rules() -> String {
    scratch("pdn-rules", "plain.json", br#"{"magic": false}"#)
}

/// Regression (issue 40): no draughts game could go to draughts software.
/// Every plain game of the corpus and 100 generated ones (with clocks,
/// chat, timeouts and resignations) go to PDN and back with the log hash
/// unchanged; every magic game is written (its spells and reveals as
/// comments) and refused on the way back, with a note that says why.
#[test]
fn pdn_round_trip_keeps_the_log_hash_of_every_plain_game() {
    let dir = scratch_dir("pdn-round-trip");
    let (plain, magic) = (dir.join("plain"), dir.join("magic"));
    let (plain, magic) = (plain.to_str().unwrap(), magic.to_str().unwrap());
    let rules = plain_rules();
    for args in [
        vec![
            "gen",
            "--game",
            "magic-draughts",
            "--seed",
            "5",
            "--count",
            "100",
            "--rules",
            &rules,
        ]
        .into_iter()
        .chain([
            "--time-control",
            "move=60",
            "--chat",
            "0.05",
            "--resign",
            "0.005",
            "--out",
            plain,
        ])
        .collect::<Vec<_>>(),
        vec![
            "gen",
            "--game",
            "magic-draughts",
            "--seed",
            "6",
            "--count",
            "10",
            "--clocks",
            "--out",
            magic,
        ],
    ] {
        let (code, _, err) = run(&args, b"");
        assert_eq!(code, Some(0), "{err}");
    }
    let corpus = "corpus/magic-draughts/valid";
    let (code, pdn, notes) = run(&["convert", "--to", "pdn", corpus, plain, magic], b"");
    assert_eq!(code, Some(0), "{notes}");
    assert!(
        pdn.contains("[GameType \"25\"]\n") && pdn.contains("{[%fgn 2 @ reveal "),
        "{pdn}"
    );
    let exported = scratch("pdn-round-trip", "all.pdn", pdn.as_bytes());
    let back = dir.join("back");
    let back = back.to_str().unwrap();
    let (code, _, err) = run(&["convert", "--from", "pdn", "--out", back, &exported], b"");
    assert_eq!(code, Some(1), "{err}");
    let returned: BTreeSet<String> = hashes(&[back]).into_iter().map(|(_, h)| h).collect();
    let (mut kept, mut magic_games) = (0, 0);
    for (file, hash) in hashes(&[corpus, plain, magic]) {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        if text.contains("[Magic \"off\"]") {
            assert!(
                returned.contains(&hash),
                "{file} did not come back with its log hash {hash}"
            );
            kept += 1;
        } else {
            assert!(!returned.contains(&hash), "{file} is magic and came back");
            magic_games += 1;
        }
    }
    assert_eq!((returned.len(), kept), (kept, 100 + 5));
    let refusals = err
        .matches("[pdn] a magic game: PDN is read into plain Russian draughts")
        .count();
    assert_eq!(refusals, magic_games, "{err}");
}

/// PDN as draughts programs write it (tests/e2e/fixtures/pdn/russian.pdn:
/// three games of `fgn gen`, rewritten by hand in those programs' forms,
/// the long `GameType`, captures with `x` or `:`, multi-captures by their
/// first and last squares, no fgn tags or comments) reads into the games it
/// was written from.
#[test]
fn pdn_as_draughts_programs_write_it_reads_into_the_same_games() {
    let dir = scratch_dir("pdn-foreign");
    let (src, out) = (dir.join("src"), dir.join("out"));
    let (src, out) = (src.to_str().unwrap(), out.to_str().unwrap());
    let rules = plain_rules();
    let gen = [
        "gen",
        "--game",
        "magic-draughts",
        "--seed",
        "12",
        "--count",
        "3",
        "--rules",
        &rules,
        "--out",
        src,
    ];
    let (code, _, err) = run(&gen, b"");
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(
        &[
            "convert",
            "--from",
            "pdn",
            "--out",
            out,
            "tests/e2e/fixtures/pdn/russian.pdn",
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    let sorted = |dir: &str| {
        let mut h: Vec<String> = hashes(&[dir]).into_iter().map(|(_, h)| h).collect();
        h.sort();
        h
    };
    assert_eq!(sorted(out), sorted(src));
}

/// What PDN holds that plain Russian draughts from the start has not is
/// refused at its place.
#[test]
fn pdn_refusals_name_the_place_and_the_reason() {
    let cases: &[(&str, &str)] = &[
        (
            "[GameType \"20\"]\n1. 32-28 *",
            "1:1: [pdn] the game type \"20\" is not Russian draughts (25)",
        ),
        ("[FEN \"W:W21:B1\"]\n*", "1:1: [pdn] a game from a set-up position"),
        ("1. c3-d5 *", "1:4: [pdn] `c3-d5` is no legal move here"),
        (
            "1. c3-d4 f6-e5 2. a3-b4 *",
            "1:19: [pdn] `a3-b4` is no legal move here (a capture, when there is one, must be taken)",
        ),
        ("1. c3-d4 1/2-1/2", "1:10: [pdn] a draw the position does not make"),
    ];
    for (pdn, expected) in cases {
        let file = scratch("pdn-refusals", "bad.pdn", format!("{pdn}\n\n1. c3-d4 *\n").as_bytes());
        let (code, out, err) = run(&["convert", "--from", "pdn", &file], b"");
        assert_eq!(code, Some(1), "{pdn}: {err}");
        assert!(err.contains(&format!("{file}:{expected}")), "{pdn}:\n{err}");
        assert!(out.ends_with("1 w c3-d4\n"), "{pdn}: {out}");
    }
}

/// Independent check (issue 40): pydraughts, which knows Russian draughts
/// but nothing of fgn, played the moves of the PDN fgn writes for the plain
/// corpus games and 40 generated ones (tests/e2e/fixtures/pdn, computed
/// once by tests/fixtures-tools/pdn_pydraughts.py). The export is pinned
/// byte for byte; pydraughts takes every move as exactly one of its legal
/// moves, has as many legal moves as fgn before every move (every capture
/// sequence and landing square counted), and ends the games fgn ends for
/// want of pieces or moves.
#[test]
fn pydraughts_plays_the_exported_games_as_fgn_does() {
    let dir = scratch_dir("pdn-pydraughts");
    let generated = dir.join("generated");
    let generated = generated.to_str().unwrap();
    let rules = plain_rules();
    let gen = [
        "gen",
        "--game",
        "magic-draughts",
        "--seed",
        "50",
        "--count",
        "40",
        "--rules",
        &rules,
    ]
    .into_iter()
    .chain(["--clocks", "--chat", "0.02", "--out", generated]);
    let (code, _, err) = run(&gen.collect::<Vec<_>>(), b"");
    assert_eq!(code, Some(0), "{err}");
    let mut args = vec!["convert", "--to", "pdn"];
    let corpus = [
        "01-plain-capture-all",
        "02-plain-blocked",
        "03-plain-resign-chat",
        "18-plain-shorter-capture-chosen",
        "25-plain-king-must-land-where-capture-goes-on",
    ]
    .map(|name| format!("corpus/magic-draughts/valid/{name}.fgn"));
    args.extend(corpus.iter().map(String::as_str));
    args.push(generated);
    let (code, pdn, err) = run(&args, b"");
    assert_eq!(code, Some(0), "{err}");
    let fixtures = root().join("tests/e2e/fixtures/pdn");
    let pinned = std::fs::read_to_string(fixtures.join("exported.pdn")).unwrap();
    assert!(
        pdn == pinned,
        "the export changed: regenerate the fixtures (tests/fixtures-tools/pdn_pydraughts.py)"
    );
    let theirs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("pydraughts.json")).unwrap()).unwrap();
    let theirs = theirs["games"].as_array().unwrap();
    let ours = fgn_tools::pdn::read_pdn(&pinned);
    assert_eq!(ours.len(), theirs.len());
    let mut moves = 0;
    for (read, theirs) in ours.iter().zip(theirs) {
        let game = read.game.as_ref().expect("fgn reads its own export");
        assert_eq!(
            theirs["error"],
            serde_json::Value::Null,
            "game at line {}",
            read.at.line
        );
        let mut replay = Replay::new(&game.header).unwrap();
        let mut counts = Vec::new();
        let mut played = Vec::new();
        for event in &game.events {
            if let Action::Draughts { .. } = event.action {
                counts.push(serde_json::Value::from(replay.legal_actions().len()));
                played.push(serde_json::Value::from(event.action.to_string()));
            }
            replay.apply(event).unwrap();
        }
        assert_eq!(
            theirs["moves"].as_array().unwrap(),
            &played,
            "game at line {}",
            read.at.line
        );
        assert_eq!(
            theirs["legal_counts"].as_array().unwrap(),
            &counts,
            "game at line {}",
            read.at.line
        );
        let no_moves = game.events.iter().any(|e| {
            matches!(
                e.action,
                Action::Result {
                    reason: fgn_notation::Reason::NoPieces | fgn_notation::Reason::NoMoves,
                    ..
                }
            )
        });
        if no_moves {
            assert_eq!(theirs["over"].as_bool(), Some(true), "game at line {}", read.at.line);
        }
        moves += played.len();
    }
    assert!(moves > 2000, "{moves} moves compared");
}
