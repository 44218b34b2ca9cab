//! The toy game server of `replay/examples/toy_server.rs`, driven with a
//! scripted standard input: what it prints for each player, what it
//! refuses, and the log it leaves, which `fgn validate` must accept.
//!
//! The example's source is compiled into this test binary and its `run`
//! called with the script, the same function its `main` calls with the
//! process's standard input: so the test needs no second cargo build of
//! the example (which `cargo test --test e2e` would not make) and sees
//! standard output and standard error apart.

use std::path::Path;

use crate::util::{run, scratch_dir};

// `main` is the example's own and unused here.
#[allow(dead_code)]
#[path = "../../replay/examples/toy_server.rs"]
mod server;

/// The toy server's exit code, standard output and standard error for
/// `args` with `script` as its standard input.
fn serve(args: &[&str], script: &str) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = server::run(&args, script.as_bytes(), &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("UTF-8 output"),
        String::from_utf8(err).expect("UTF-8 errors"),
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the server wrote its log")
}

/// `fgn validate` accepts the file the server left.
fn assert_valid(path: &Path) {
    let (code, stdout, stderr) = run(&["validate", path.to_str().expect("UTF-8 path")], b"");
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(stdout, "1 valid, 0 invalid\n");
}

const SEED: &str = "0707070707070707070707070707070707070707070707070707070707070707";

#[test]
fn the_default_game_takes_a_legal_move_refuses_an_illegal_one_and_goes_on() {
    let dir = scratch_dir("toy-server-default");
    let file = dir.join("game.fgn");
    let (code, stdout, stderr) = serve(
        &[file.to_str().unwrap()],
        "1 w e2-e4\n1 b e7-e4\n\n1 b e7-e99\n1 b e7-e5 ; the legal answer\n",
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "stdin:2:5: [move] `1 b e7-e4`: the pawn on e7 cannot move to e4; its legal moves: e7-e5, e7-e6\n\
         stdin:4:8: in `e7-e99`: expected a target square or `?`, found `e99`\n"
    );
    // Each player's view: the opponent's setup is hidden until both are
    // ready, then shown by the world in one line.
    assert_eq!(
        stdout,
        "> 0 w place Ke1 Qd1 Ra1 Rh1 Nb1 Ng1 Bc1 Bf1 Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2\n\
         \x20 white sees: 0 w place Ke1 Qd1 Ra1 Rh1 Nb1 Ng1 Bc1 Bf1 Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2\n\
         \x20 black sees nothing\n\
         > 0 b place Ke8 Qd8 Ra8 Rh8 Nb8 Ng8 Bc8 Bf8 Pa7 Pb7 Pc7 Pd7 Pe7 Pf7 Pg7 Ph7\n\
         \x20 white sees nothing\n\
         \x20 black sees: 0 b place Ke8 Qd8 Ra8 Rh8 Nb8 Ng8 Bc8 Bf8 Pa7 Pb7 Pc7 Pd7 Pe7 Pf7 Pg7 Ph7\n\
         > 0 w ready\n\
         \x20 white sees: 0 w ready\n\
         \x20 black sees: 0 w ready\n\
         > 0 b ready\n\
         \x20 white sees: 0 b ready\n\
         \x20 white sees: 0 @ setup b Pa7 Pb7 Pc7 Pd7 Pe7 Pf7 Pg7 Ph7 Ra8 Nb8 Bc8 Qd8 Ke8 Bf8 Ng8 Rh8\n\
         \x20 black sees: 0 b ready\n\
         \x20 black sees: 0 @ setup w Ra1 Nb1 Bc1 Qd1 Ke1 Bf1 Ng1 Rh1 Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2\n\
         next: white to play move 1\n\
         > 1 w e2-e4\n\
         \x20 white sees: 1 w e2-e4\n\
         \x20 black sees: 1 w e2-e4\n\
         next: black to play move 1\n\
         > 1 b e7-e5\n\
         \x20 white sees: 1 b e7-e5\n\
         \x20 black sees: 1 b e7-e5\n\
         next: white to play move 2\n"
    );
    assert_eq!(
        read(&file),
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
         0 w place Ke1 Qd1 Ra1 Rh1 Nb1 Ng1 Bc1 Bf1 Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2\n\
         0 b place Ke8 Qd8 Ra8 Rh8 Nb8 Ng8 Bc8 Bf8 Pa7 Pb7 Pc7 Pd7 Pe7 Pf7 Pg7 Ph7\n\
         0 w ready\n0 b ready\n1 w e2-e4\n1 b e7-e5\n"
    );
    assert_valid(&file);

    // Opened again, the game goes on where it stood; the server completes
    // the mate marker and writes the result the mate owes.
    let (code, stdout, stderr) = serve(
        &[file.to_str().unwrap()],
        "2 w Qd1-h5\n2 b Nb8-c6\n3 w Bf1-c4\n3 b Ng8-f6\n4 w Qh5xf7\n",
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(stdout.starts_with("next: white to play move 2\n"), "{stdout}");
    assert!(
        stdout.ends_with(
            "> 4 w Qh5xf7#\n\
             \x20 white sees: 4 w Qh5xf7#\n\
             \x20 black sees: 4 w Qh5xf7#\n\
             > 4 @ result 1-0 mate\n\
             \x20 white sees: 4 @ result 1-0 mate\n\
             \x20 black sees: 4 @ result 1-0 mate\n\
             next: the game is over: 1-0 mate\n"
        ),
        "{stdout}"
    );
    assert!(read(&file).ends_with("4 w Qh5xf7#\n4 @ result 1-0 mate\n"));
    assert_valid(&file);
}

#[test]
fn a_seeded_game_gets_the_world_events_the_referee_owes() {
    let dir = scratch_dir("toy-server-magic");
    let file = dir.join("game.fgn");
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = serve(
        &[path, "--seed", SEED, "Game=magic-draughts", "Rules=1.0"],
        "1 w e3-f4\n1 b h6-h5\n1 b h6-g5\n2 w f4:h6\n2 b resign\n",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.starts_with("stdin:2:5: [move] `1 b h6-h5`: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The capture owes the captured checker's number: the server reveals
    // it to both; after the resignation the result and the seed follow,
    // and the seed stays out of both views.
    let seed_line = format!("2 @ seed {SEED}");
    assert!(
        stdout.contains(
            "> 2 w f4:h6\n\
             \x20 white sees: 2 w f4:h6\n\
             \x20 black sees: 2 w f4:h6\n\
             > 2 @ reveal g5 3\n\
             \x20 white sees: 2 @ reveal g5 3\n\
             \x20 black sees: 2 @ reveal g5 3\n\
             next: black to play move 2\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!(
            "> 2 @ result 1-0 resign\n\
             \x20 white sees: 2 @ result 1-0 resign\n\
             \x20 black sees: 2 @ result 1-0 resign\n\
             > {seed_line}\n\
             \x20 white sees nothing\n\
             \x20 black sees nothing\n\
             next: the game is over: 1-0 resign\n"
        )),
        "{stdout}"
    );
    let log = read(&file);
    assert!(
        log.starts_with("[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[SeedCommit \"blake3:"),
        "{log}"
    );
    assert!(
        log.ends_with(&format!(
            "\n\n1 w e3-f4\n1 b h6-g5\n2 w f4:h6\n2 @ reveal g5 3\n2 b resign\n2 @ result 1-0 resign\n{seed_line}\n"
        )),
        "{log}"
    );
    assert_valid(&file);

    // Another seed than the one the header commits to is refused before
    // anything is written.
    let other = "08".repeat(32);
    let (code, stdout, stderr) = serve(&[path, "--seed", &other], "");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("is not the one"), "{stderr}");
    assert_eq!(read(&file), log);
}

#[test]
fn open_world_chess_views_keep_the_fog() {
    let dir = scratch_dir("toy-server-owc");
    let file = dir.join("game.fgn");
    let (code, stdout, stderr) = serve(
        &[
            file.to_str().unwrap(),
            "--seed",
            SEED,
            "Game=open-world-chess",
            "Rules=1.2",
        ],
        "1 w e2-e3\n",
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    // The first spawns are owed before anyone moves; with this seed they
    // all fall in black's light, so white sees none of them.
    assert!(
        stdout.starts_with("> 0 @ spawn c5 hp\n  white sees nothing\n  black sees: 0 @ spawn c5 hp\n"),
        "{stdout}"
    );
    // White's move is in the fog for black, who sees that white moved.
    assert!(
        stdout.contains("> 1 w e2-e3\n  white sees: 1 w e2-e3\n  white sees: 1 @ see c5 hp\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  black sees: 1 w ?\nnext: white to play move 1\n"),
        "{stdout}"
    );
    assert_valid(&file);
}

#[test]
fn a_move_that_comes_too_late_gets_the_timeout_first() {
    let dir = scratch_dir("toy-server-timeout");
    let file = dir.join("game.fgn");
    let (code, stdout, stderr) = serve(
        &[
            file.to_str().unwrap(),
            "Game=survival-chess",
            "Rules=1.0",
            "Board=8x8",
            "TimeControl=move=60",
        ],
        "0 w place Ke1 Pe2 {t=1}\n0 b place Ke8 Pe7 {t=2}\n0 w ready {t=3}\n0 b ready {t=4}\n\
         1 w e2-e4 {t=10}\n1 b e7-e5 {t=100}\n1 w extra no {t=101}\n",
    );
    assert_eq!(code, 0, "{stderr}");
    // Black's 60 seconds ran out at t=70: its move at t=100 brings the
    // timeout, and then it must wait for white's answer.
    assert_eq!(
        stderr,
        "stdin:6:5: [extra] `1 b e7-e5 {t=100}`: black's time ran out: white must answer `extra yes` or `extra no` first\n"
    );
    assert!(stdout.ends_with("next: the game is over: 1-0 timeout\n"), "{stdout}");
    assert!(read(&file)
        .ends_with("1 w e2-e4 {t=10}\n1 @ timeout b {t=100}\n1 w extra no {t=101}\n1 @ result 1-0 timeout\n"));
    assert_valid(&file);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = scratch_dir("toy-server-usage");
    let file = dir.join("game.fgn");
    let path = file.to_str().unwrap();
    let (code, _, stderr) = serve(&[], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("no log FILE given"), "{stderr}");
    let (code, _, stderr) = serve(&[path, "Game=open-world-chess", "Rules=1.2"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("needs its world seed"), "{stderr}");
    assert!(!file.exists(), "nothing is created for a refused start");
    let (code, _, stderr) = serve(&[path, "--seed", "abc"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("expected 64 hex digits"), "{stderr}");
}
