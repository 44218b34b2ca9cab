//! State and knowledge hashes against the vectors an independent
//! implementation of docs/hashing.md computed (tests/fixtures/hash_vectors.py
//! and hash_vectors.txt): the bytes are a format, and a change to them
//! must be deliberate.

use fgn_notation::parse;
use fgn_replay::hash::{digest, encode, STATE_CONTEXT};
use fgn_replay::{Replay, Viewer};

fn vector(name: &str) -> String {
    let text = include_str!("../fixtures/hash_vectors.txt");
    text.lines()
        .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_string()))
        .unwrap_or_else(|| panic!("no vector {name}"))
}

#[derive(serde::Serialize)]
struct Sample {
    n: u8,
    name: &'static str,
    list: Vec<Option<u16>>,
    side: Side,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Side {
    White,
}

#[test]
fn the_documented_sample_encodes_and_hashes_as_specified() {
    let v = Sample {
        n: 7,
        name: "e4",
        list: vec![None, Some(258)],
        side: Side::White,
    };
    let hex: String = encode(&v).unwrap().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, vector("sample-bytes "));
    let d = digest(STATE_CONTEXT, &v).unwrap().to_string();
    assert_eq!(d, format!("blake3:{}", vector("sample-state-digest ")));
}

#[test]
fn a_survival_state_and_a_players_knowledge_hash_to_the_vectors() {
    let text = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"6x6\"]\n\n0 w place Ke1 Pa2 {t=1.5}\n";
    let parsed = parse(text.as_bytes());
    assert!(parsed.is_ok());
    let game = &parsed.document.game;
    let mut replay = Replay::new(&game.header).unwrap();
    replay.apply(&game.events[0]).unwrap();
    assert_eq!(
        replay.state_hash().to_string(),
        format!("blake3:{}", vector("survival-6x6-place-state "))
    );
    assert_eq!(
        replay.knowledge_hash(Viewer::Black).to_string(),
        format!("blake3:{}", vector("survival-6x6-place-black "))
    );
    // White knows its own setup, so its hash differs from black's.
    assert_ne!(
        replay.knowledge_hash(Viewer::White),
        replay.knowledge_hash(Viewer::Black)
    );
}

#[test]
fn comments_and_spelling_do_not_change_a_state_hash_but_a_move_does() {
    let a = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n";
    let b = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w C3-D4 ; the same move\n";
    let c = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-b4\n";
    let end = |t: &str| {
        let g = parse(t.as_bytes()).document.game;
        fgn_replay::validate(&g).unwrap().replay.state_hash()
    };
    assert_eq!(end(a), end(b));
    assert_ne!(end(a), end(c));
}

fn game_of(text: &str) -> fgn_notation::Game {
    let parsed = parse(text.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    parsed.document.game
}

#[test]
fn the_log_chain_matches_the_independent_vectors() {
    // Comments, spacing and upper-case squares are not part of the log.
    let text =
        "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w C3-d4   ; opening\n1 b f6-g5 {t=2.25}\n";
    let chain = fgn_tools::loghash::chain(&game_of(text));
    let hex = |d: fgn_replay::Digest| d.to_string().trim_start_matches("blake3:").to_string();
    assert_eq!(hex(chain.header), vector("log-header "));
    assert_eq!(hex(chain.events[0]), vector("log-event-1 "));
    assert_eq!(hex(chain.events[1]), vector("log-event-2 "));
    assert_eq!(chain.log_hash(), chain.events[1]);
}

/// Spellings NOTATION.md takes for the same event hash alike: a corpus game
/// with every `+`/`#` and `=Q` left out, its squares in upper case and its
/// comments gone has the log hash of the original.
#[test]
fn markers_left_out_and_upper_case_squares_hash_alike() {
    let original = include_str!("../../../corpus/survival-chess/valid/01-bishop-queen-mate.fgn");
    let mut plain = String::new();
    for line in original.lines() {
        let line = line.split(';').next().unwrap_or("").trim_end();
        if line.starts_with('[') {
            plain.push_str(line);
        } else {
            // Squares (a file letter before a digit) in upper case.
            let chars: Vec<char> = line.replace(['+', '#'], "").replace("=Q", "").chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                let square_file = c.is_ascii_lowercase() && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
                plain.push(if square_file { c.to_ascii_uppercase() } else { c });
            }
        }
        plain.push('\n');
    }
    let (a, b) = (game_of(original), game_of(&plain));
    assert_ne!(
        a.canonical_text(),
        b.canonical_text(),
        "the test must change the spelling"
    );
    assert_eq!(fgn_tools::loghash::chain(&a), fgn_tools::loghash::chain(&b));
}

#[test]
fn any_change_to_an_event_changes_the_log_hash_and_a_prefix_has_the_prefix_chain() {
    let original = game_of(include_str!(
        "../../../corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn"
    ));
    let full = fgn_tools::loghash::chain(&original);
    for n in [0, 1, original.events.len() / 2] {
        let mut prefix = original.clone();
        prefix.events.truncate(n);
        let p = fgn_tools::loghash::chain(&prefix);
        assert_eq!(p.header, full.header);
        assert_eq!(p.events[..], full.events[..n]);
    }
    let mut changed = original.clone();
    let last = changed.events.len() - 1;
    changed.events[last].clock_ms = Some(fgn_notation::Clock(999_999));
    assert_ne!(fgn_tools::loghash::chain(&changed).log_hash(), full.log_hash());
    let mut header = original.clone();
    header.header.tags[0].value.push(' ');
    assert_ne!(fgn_tools::loghash::chain(&header).header, full.header);
}
