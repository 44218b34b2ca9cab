//! State and knowledge hashes against the vectors an independent
//! implementation of docs/hashing.md computed (tests/fixtures/hash_vectors.py
//! and hash_vectors.txt): the bytes are a format, and a change to them
//! must be deliberate.

use fgn_notation::parse;
use fgn_replay::hash::{digest, encode, STATE_CONTEXT};
use fgn_replay::{Replay, Viewer};

fn vector(name: &str) -> String {
    let text = include_str!("fixtures/hash_vectors.txt");
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
    replay.apply(0, &game.events[0]).unwrap();
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
