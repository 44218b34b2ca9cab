//! What the commands that replay a player's side do, over logs that break a
//! rule somewhere (an event the replay refused, put back where it was
//! tried, with the valid events after it): `view`, `show --as`,
//! `hash --as --states` and `diff --as` step a view writer and a replay
//! event by event and read each player's knowledge, its hash and its
//! changes; `events`, `json` and `validate` read the rows and the summary.
//! Nothing may panic (issue 36: a move to a square off the board panicked
//! every one of them), the view must refuse exactly the event the rules
//! refuse, and the view of the faulty log is the view up to it.
#![no_main]

use arbitrary::Unstructured;
use fgn_notation::{parse, Color};
use fgn_replay::{knowledge_changes, replayable, view, Place, Replay, ViewError, ViewWriter, Viewer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(Some(played)) = fgn_fuzz::play(&mut u) else {
        return;
    };
    let Ok(pick) = u.arbitrary::<usize>() else { return };
    let Some(log) = fgn_fuzz::with_refused(&played, pick) else {
        return;
    };
    // The file's text, read back as the commands read it.
    let parsed = parse(log.canonical_text().as_bytes());
    let _ = fgn_tools::summary::summarize(&parsed);
    let _ = fgn_tools::events::rows(&parsed, None);
    for (side, viewer) in [(Color::White, Viewer::White), (Color::Black, Viewer::Black)] {
        let mut writer = ViewWriter::new(&log.header, side).expect("the header started a replay once");
        let mut replay = Replay::new(&log.header).expect("the header started a replay once");
        let mut lines = Vec::new();
        let mut before = replay.knowledge(viewer);
        let mut refused_at = None;
        for (i, event) in log.events.iter().enumerate() {
            let written = writer.push(i, event, &mut lines);
            let applied = replay.apply(event);
            assert_eq!(
                written.is_ok(),
                applied.is_ok(),
                "the view and the rules disagree on `{event}`"
            );
            if applied.is_err() {
                refused_at = Some(i);
                break;
            }
            let after = replay.knowledge(viewer);
            let _ = replay.knowledge_hash(viewer);
            let _ = knowledge_changes(&before, &after, Some(event));
            before = after;
        }
        let _ = replay.legal_actions();
        match view(&log, side) {
            Ok(v) => {
                assert_eq!(refused_at, None, "a view of a log the rules refuse");
                assert_eq!(v.events, lines);
                let _ = replayable(&v);
            }
            Err(ViewError::Rule { view, error }) => {
                assert_eq!(refused_at.map(Place::Event), Some(error.place), "{error}");
                assert_eq!(view.events, lines, "the view up to the faulty event");
                let _ = replayable(&view);
            }
            Err(e) => panic!("the header started a replay once: {e}"),
        }
    }
});
