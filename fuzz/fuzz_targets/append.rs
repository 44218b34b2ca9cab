//! Appends to logs played by the engine driver: `append::check` never
//! panics; what it accepts, appended to the file, is a log that validates
//! with the hash it announced, and what it refuses leaves nothing to write.
#![no_main]

use arbitrary::Unstructured;
use fgn_tools::append::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(Some(played)) = fgn_fuzz::play(&mut u) else {
        return;
    };
    // The played log, cut at an event the input picks; the events after the
    // cut (perhaps with a byte changed, perhaps an arbitrary line) are
    // appended.
    let Ok(cut) = u.choose_index(played.game.events.len() + 1) else {
        return;
    };
    let mut head = played.game.clone();
    let tail: Vec<String> = head.events.split_off(cut).iter().map(|e| e.to_string()).collect();
    let mut lines = tail;
    if let Ok(true) = u.arbitrary::<bool>() {
        if let Ok(line) = u.arbitrary::<String>() {
            let at = u.choose_index(lines.len() + 1).unwrap_or(0);
            lines.insert(at, line);
        }
    }
    let file = head.canonical_text();
    match check(file.as_bytes(), &lines) {
        Ok(planned) => {
            let mut after = file.into_bytes();
            after.extend_from_slice(&planned.bytes);
            let parsed = fgn_notation::parse(&after);
            assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
            // Every event applies; the log need not be finished (a world
            // event may still be owed), as append allows.
            let verdict = fgn_replay::validate(&parsed.document.game).expect("the header replays");
            assert_eq!(
                verdict.applied,
                parsed.document.game.events.len(),
                "{:?}",
                verdict.error
            );
            assert_eq!(planned.appended.events, parsed.document.game.events.len());
            assert_eq!(
                planned.appended.log_hash,
                fgn_tools::loghash::chain(&parsed.document.game).log_hash()
            );
        }
        // Every event of the played game's tail applies after the head, so
        // only the inserted line can be the one refused.
        Err(e) => assert!(lines.len() > played.game.events.len() - cut, "{e}"),
    }
});
