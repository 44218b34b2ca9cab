//! Views of arbitrary legal games: a view of a valid log is never refused,
//! viewing it again changes nothing, and a view replayed alone (as a full
//! log, or read on its own where no full log can stand for it) gives its
//! player exactly the knowledge the full log gives.
#![no_main]

use arbitrary::Unstructured;
use fgn_notation::Color;
use fgn_replay::{replayable, view, Viewer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(Some(played)) = fgn_fuzz::play(&mut u) else {
        return;
    };
    for (side, viewer) in [(Color::White, Viewer::White), (Color::Black, Viewer::Black)] {
        let v = view(&played.game, side).unwrap_or_else(|e| panic!("a view of a valid log: {e}"));
        assert_eq!(
            view(&v, side).expect("a view of its own side"),
            v,
            "viewing a view again"
        );
        match replayable(&v) {
            Ok((full, s, _)) => {
                assert_eq!(s, side);
                let verdict = fgn_replay::validate(&full).expect("a replayable view starts");
                assert_eq!(verdict.applied, full.events.len(), "{:?}", verdict.error);
                assert_eq!(
                    verdict.replay.knowledge_hash(viewer),
                    played.replay.knowledge_hash(viewer),
                    "the replayable view gives the knowledge the full log gives"
                );
            }
            Err(fgn_replay::ViewError::NotReplayable(_)) => {
                let (mut reader, _) = fgn_replay::ViewReader::new(&v.header, None).expect("a view that is read");
                for (i, e) in v.events.iter().enumerate() {
                    reader.read(i, e).unwrap_or_else(|e| panic!("a view of a valid log reads: {e}"));
                }
                assert_eq!(
                    reader.knowledge().hash(),
                    played.replay.knowledge_hash(viewer),
                    "the view read alone gives the knowledge the full log gives"
                );
            }
            Err(e) => assert!(e.is_unsupported(), "{e}"),
        }
    }
});
