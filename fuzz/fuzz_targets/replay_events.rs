//! Arbitrary event sequences into every engine: no panic, and a refused
//! event leaves the state and every player's knowledge as they were.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(Some(played)) = fgn_fuzz::play(&mut u) {
        // What the driver accepted is a log that validates, event for event.
        let verdict = fgn_replay::validate(&played.game).expect("the header started a replay once");
        assert_eq!(verdict.applied, played.game.events.len(), "{:?}", verdict.error);
        assert_eq!(verdict.replay.state_hash(), played.replay.state_hash());
    }
});
