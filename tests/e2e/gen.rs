//! `fgn gen`: the same arguments give byte-identical files, every generated
//! game validates (with clocks, time limits, chat and salts too), a pinned
//! log hash per game notices any change to the generator, and arguments
//! that cannot make a game are one clear error with exit 2.

use crate::util::{run, scratch_dir};

const GAMES: [&str; 4] = [
    "survival-chess",
    "open-world-chess",
    "great-war-chess",
    "magic-draughts",
];

/// The arguments that turn on everything the session rules allow: time
/// limits (and so clocks and timeouts), chat, resignations, and salts in
/// the games with a world seed.
fn busy(game: &str) -> Vec<&str> {
    let mut args = vec!["--chat", "0.05", "--resign", "0.002", "--timeout", "0.05"];
    if game == "survival-chess" || game == "great-war-chess" {
        args.extend(["--time-control", "setup=60 move=20"]);
    } else {
        args.extend(["--time-control", "move=20", "--salts"]);
    }
    args
}

fn gen(extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["gen"];
    args.extend_from_slice(extra);
    run(&args, b"")
}

#[test]
fn the_same_arguments_give_byte_identical_files() {
    for game in GAMES {
        let mut dirs = Vec::new();
        for run_no in 0..2 {
            let dir = scratch_dir(&format!("gen-same-{game}-{run_no}"));
            let out = dir.to_str().expect("a UTF-8 path").to_string();
            let mut args = vec![
                "--game", game, "--seed", "42", "--count", "3", "--out", &out, "--plies", "60",
            ];
            args.extend(busy(game));
            let (code, stdout, stderr) = gen(&args);
            assert_eq!(code, Some(0), "{game}: {stderr}");
            // What was written is said once, on standard error.
            assert_eq!(stdout, "", "{game}");
            assert_eq!(stderr, format!("wrote 3 files in {out}\n"), "{game}");
            dirs.push(dir);
        }
        for i in 1..=3 {
            let name = format!("{game}-42-{i}.fgn");
            let a = std::fs::read(dirs[0].join(&name)).expect("written");
            let b = std::fs::read(dirs[1].join(&name)).expect("written");
            assert!(!a.is_empty());
            assert_eq!(a, b, "{name} differs between two runs");
        }
        let first = std::fs::read(dirs[0].join(format!("{game}-42-1.fgn"))).unwrap();
        let second = std::fs::read(dirs[0].join(format!("{game}-42-2.fgn"))).unwrap();
        assert_ne!(first, second, "{game}: games 1 and 2 of a batch are the same");
        // Without --out the one game goes to standard output, the same bytes.
        let mut args = vec!["--game", game, "--seed", "42", "--plies", "60"];
        args.extend(busy(game));
        let (code, stdout, _) = gen(&args);
        assert_eq!(code, Some(0));
        assert_eq!(stdout.as_bytes(), first, "{game}: standard output and file 1 differ");
    }
}

#[test]
fn every_generated_game_validates_with_and_without_clocks_chat_and_salts() {
    for game in GAMES {
        for (label, extra) in [("plain", Vec::new()), ("busy", busy(game))] {
            let dir = scratch_dir(&format!("gen-valid-{game}-{label}"));
            let out = dir.to_str().unwrap().to_string();
            let mut args = vec![
                "--game", game, "--seed", "7", "--count", "8", "--out", &out, "--plies", "120",
            ];
            args.extend(extra.iter().copied());
            let (code, _, stderr) = gen(&args);
            assert_eq!(code, Some(0), "{game} {label}: {stderr}");
            let (code, stdout, stderr) = run(&["validate", "-v", &out], b"");
            assert_eq!(code, Some(0), "{game} {label}: {stderr}");
            assert!(stdout.contains("8 valid, 0 invalid"), "{game} {label}: {stdout}");
            // A resignation at the cap at the latest: every game has a result.
            for line in stdout.lines().filter(|l| l.starts_with("valid: ")) {
                assert!(
                    !line.ends_with("(in progress)"),
                    "{game} {label}: a game without a result: {line}"
                );
            }
            if label == "busy" {
                let text: String = (1..=8)
                    .map(|i| std::fs::read_to_string(dir.join(format!("{game}-7-{i}.fgn"))).unwrap())
                    .collect();
                for form in ["{t=", " chat \"", " @ timeout "] {
                    assert!(text.contains(form), "{game}: no `{form}` in eight busy games");
                }
                assert_eq!(
                    text.contains(" salt "),
                    game != "survival-chess" && game != "great-war-chess"
                );
            }
        }
    }
}

/// One game per game with everything on, pinned by its log hash: a change
/// to the generator (or to what the rules let it do) changes it. Review
/// the new game before changing a value here.
#[test]
fn generated_games_are_pinned_by_their_log_hash() {
    let pinned = [
        (
            "survival-chess",
            "blake3:c1f83c3b70dc1bb9833af8b8622e3dd00782001ba9cb35206568411642360e51",
        ),
        (
            "open-world-chess",
            "blake3:a813d8a8094783432bb5545c7aaa38b4ac174e3551f1d251d52ed65ba64b72bb",
        ),
        (
            "great-war-chess",
            "blake3:c02ac12e36b8d7a050cb851874148ad3233e8a547d8fcff6174bc7b2270776fe",
        ),
        (
            "magic-draughts",
            "blake3:cd055d581b8f6df735b5517b0f6f89ab7c848867636487b63e3e2f74e7ac8253",
        ),
    ];
    for (game, hash) in pinned {
        let mut args = vec!["--game", game, "--seed", "2026", "--plies", "40"];
        args.extend(busy(game));
        let (code, text, stderr) = gen(&args);
        assert_eq!(code, Some(0), "{stderr}");
        let (code, stdout, _) = run(&["hash", "-"], text.as_bytes());
        assert_eq!(code, Some(0));
        assert_eq!(stdout, format!("{hash}  <stdin>\n"), "{game}:\n{text}");
    }
}

/// Parameters a header tag carries are written into the header, so the
/// games validate alone; a parameter only a rules file sets needs the file.
#[test]
fn games_under_a_rules_file_carry_its_tagged_parameters() {
    let dir = scratch_dir("gen-rules");
    let rules = dir.join("rules.json");
    std::fs::write(
        &rules,
        r#"{"open-world-chess": {"moves_per_turn": 2, "shop_price": 1}, "survival-chess": {"board": "8x8", "limits": {"total": 6}}}"#,
    )
    .unwrap();
    let rules = rules.to_str().unwrap();
    let (code, text, stderr) = gen(&["--game", "open-world-chess", "--seed", "3", "--rules", rules]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(text.contains("[MovesPerTurn \"2\"]\n[ShopPrice \"1\"]\n"), "{text}");
    let (code, _, stderr) = run(&["validate", "-"], text.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");

    let out = dir.join("survival");
    let out = out.to_str().unwrap();
    let (code, _, stderr) = gen(&[
        "--game",
        "survival-chess",
        "--seed",
        "3",
        "--count",
        "4",
        "--rules",
        rules,
        "--out",
        out,
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stdout, stderr) = run(&["validate", "--rules", rules, out], b"");
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // The board is in the header; --board wins over the file.
    let (_, text, _) = gen(&[
        "--game",
        "survival-chess",
        "--seed",
        "3",
        "--rules",
        rules,
        "--board",
        "10x10",
    ]);
    assert!(text.contains("[Board \"10x10\"]"), "{text}");
}

#[test]
fn arguments_that_cannot_make_a_game_are_one_error_with_exit_2() {
    let dir = scratch_dir("gen-errors");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"board\": ").unwrap();
    let bad = bad.to_str().unwrap();
    let a_file = dir.join("a-file");
    std::fs::write(&a_file, "").unwrap();
    let under_a_file = a_file.join("out");
    let under_a_file = under_a_file.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["--game", "chess", "--seed", "1"],
            "invalid value 'chess' for '--game <GAME>'",
        ),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--count", "0"],
            "invalid value '0' for '--count <K>'",
        ),
        (vec!["--game", "survival-chess"], "--seed <N>"),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--rules", bad],
            "rules file",
        ),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--out", under_a_file],
            "cannot make the directory",
        ),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--count", "2"],
            "give --out DIR",
        ),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--salts"],
            "no world seed",
        ),
        (
            vec!["--game", "magic-draughts", "--seed", "1", "--setup", "classical"],
            "classical setup",
        ),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--board", "7x7"],
            "--board \"7x7\"",
        ),
        (
            vec!["--game", "survival-chess", "--seed", "1", "--chat", "1.5"],
            "a probability from 0 to 1",
        ),
    ] {
        let (code, stdout, stderr) = gen(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?} wrote {stdout}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // One message, not one per game.
        let errors = stderr.lines().filter(|l| l.starts_with("error")).count();
        assert_eq!(errors, 1, "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new(under_a_file).exists());
}

#[test]
fn the_help_explains_every_option_and_its_default() {
    let (code, help, _) = run(&["gen", "--help"], b"");
    assert_eq!(code, Some(0));
    for option in [
        "--game",
        "--seed",
        "--count",
        "--out",
        "--force",
        "--plies",
        "--rules",
        "--board",
        "--time-control",
        "--clocks",
        "--salts",
        "--setup",
        "--chat",
        "--resign",
        "--timeout",
        "--extra",
        "--finish",
        "--unfinished",
    ] {
        assert!(help.contains(option), "{option} is not in the help");
    }
    for default in [
        "[default: 300]",
        "[default: 0.9]",
        "[default: 0.02]",
        "[default: 0.5]",
        "[default: random]",
    ] {
        assert!(help.contains(default), "{default} is not in the help");
    }
    assert!(help.contains("docs/gen.md"));
}

/// Regression (issue 39, item 12): `gen --out DIR` overwrote the files of
/// an earlier run and listed every path on standard output, where
/// `from-json --out` refused and printed nothing. Every `--out` refuses a
/// file that exists unless --force and says once, on standard error, what
/// it wrote (nothing with -q).
#[test]
fn gen_out_refuses_existing_files_unless_forced_and_says_what_it_wrote() {
    let dir = scratch_dir("gen-out-policy");
    let out = dir.to_str().unwrap();
    let args = ["--game", "magic-draughts", "--seed", "5", "--count", "2", "--out", out];
    let (code, stdout, stderr) = gen(&args);
    assert_eq!((code, stdout.as_str()), (Some(0), ""), "{stderr}");
    assert_eq!(stderr, format!("wrote 2 files in {out}\n"));
    let second = dir.join("magic-draughts-5-2.fgn");
    let made = std::fs::read(&second).unwrap();

    // The first file is kept, so the run stops there, having written nothing.
    std::fs::remove_file(&second).unwrap();
    let (code, stdout, stderr) = gen(&args);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    let first = dir.join("magic-draughts-5-1.fgn");
    assert_eq!(
        stderr,
        format!(
            "error: {}: not written: it already exists (--force overwrites it)\nwrote 0 files in {out}\n",
            first.display()
        )
    );
    assert!(!second.exists());

    let mut forced = vec!["-q"];
    forced.extend(args);
    forced.push("--force");
    let (code, stdout, stderr) = gen(&forced);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));
    assert_eq!(std::fs::read(&second).unwrap(), made);
}
