//! Any bytes: parsing never panics; what parses cleanly prints and parses
//! back to the same game and the same text (formatting is a fixed point),
//! and `is_formatted` says whether the input is that text. The games of
//! the bytes as a file of several (docs/notation.md §2.8) are the same by
//! the reader of bytes and the reader of a stream, and each parses without
//! a panic.
#![no_main]

use fgn_notation::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let games: Vec<_> = fgn_notation::split::split(data)
        .map(|g| g.map(|g| (g.text.to_vec(), g.first_line, g.ordinal)))
        .collect();
    let streamed: Vec<_> = fgn_notation::split::GameReader::new(data)
        .map(|g| g.expect("a slice reads").map(|g| (g.text, g.first_line, g.ordinal)))
        .collect();
    assert_eq!(games, streamed);
    for game in fgn_notation::split::split(data).flatten() {
        let _ = game.parse();
    }
    let parsed = parse(data);
    assert!(parsed.diagnostics.len() <= fgn_notation::MAX_DIAGNOSTICS + 1);
    if !parsed.diagnostics.is_empty() {
        return;
    }
    let text = parsed.document.formatted();
    // `fmt --check` compares without writing the text: the same answer.
    assert_eq!(parsed.document.is_formatted(data), data == text.as_bytes(), "{text}");
    assert!(parsed.document.is_formatted(text.as_bytes()));
    let again = parse(text.as_bytes());
    assert!(again.diagnostics.is_empty(), "{text}\n{:?}", again.diagnostics);
    assert_eq!(again.document.game, parsed.document.game, "{text}");
    assert_eq!(again.document.formatted(), text, "formatting twice");
    let canonical = parsed.document.game.canonical_text();
    let back = parse(canonical.as_bytes());
    assert_eq!(back.document.game, parsed.document.game, "{canonical}");
});
