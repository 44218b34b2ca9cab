//! Any text as JSON: `from-json` never panics; what it accepts converts
//! back to the same JSON and to FGN text that parses to the same game.
#![no_main]

use fgn_notation::json::{from_json, to_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(game) = from_json(text) else {
        return;
    };
    let json = to_json(&game).to_string();
    let back = from_json(&json).expect("fgn's own JSON reads back");
    assert_eq!(back, game, "{json}");
    let fgn = game.canonical_text();
    let parsed = fgn_notation::parse(fgn.as_bytes());
    assert!(parsed.diagnostics.is_empty(), "{fgn}\n{:?}", parsed.diagnostics);
    assert_eq!(parsed.document.game, game, "{fgn}");
});
