//! A log's positions as one viewer saw them, event by event: what `fgn
//! show` draws after one event and `fgn html` after every event.
//!
//! The log is a full log, drawn whole (the referee's) or as one player
//! knows it (`--as`), or a player's view file, drawn as its player knew
//! it. Each [`Frame`] holds the position after some of the file's events
//! as plain data: the state or the knowledge ([`Seen`]), from which its
//! picture, its hash and its progress come, and the last event as the
//! viewer saw it. The walk stops at the first event that breaks a rule and
//! says why ([`Stop`]), without telling a player what it could not see.
//!
//! ```
//! use fgn_notation::parse;
//! use fgn_replay::Viewer;
//! use fgn_tools::frames::{walk, Every};
//!
//! let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
//!            0 w place Ke1 Pe2\n0 b place Ke8 Pe7\n0 w ready\n0 b ready\n1 w e2-e3\n";
//! let game = parse(log.as_bytes()).document.game;
//! let mut hashes = Vec::new();
//! let walked = walk(&game, Viewer::White, None, game.events.len(), Every::Event, |frame| {
//!     hashes.push(frame.seen.hash());
//! })
//! .unwrap();
//! // The start and one frame after each of the five events.
//! assert_eq!(hashes.len(), 6);
//! assert_eq!(walked.frame.applied, 5);
//! assert!(walked.stop.is_none());
//! // White saw nothing of black's placement: its knowledge did not change.
//! assert_eq!(hashes[1], hashes[2]);
//! ```

use fgn_notation::{Color, Event, Game};
use serde::Serialize;

use fgn_replay::{
    Digest, Knowledge, Overridden, Params, Picture, Progress, Replay, RuleError, StartError, State, ViewError,
    ViewReader, ViewWriter, Viewer,
};

use crate::align::{hidden_fault, Alignment};

/// The position a frame shows: the whole state, or what one viewer knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Seen {
    /// The referee's: everything.
    State(Box<State>),
    /// A player's (or everyone's) knowledge.
    Knowledge(Box<Knowledge>),
}

impl Seen {
    /// The position as a board picture.
    pub fn picture(&self) -> Picture {
        match self {
            Seen::State(s) => s.picture(),
            Seen::Knowledge(k) => k.picture(),
        }
    }

    /// The shared rules' progress as the viewer knows it (the clocks left
    /// out of a player's).
    pub fn progress(&self) -> &Progress {
        match self {
            Seen::State(s) => &s.progress,
            Seen::Knowledge(k) => &k.progress,
        }
    }

    /// The state hash, or the knowledge hash of what the viewer knows.
    pub fn hash(&self) -> Digest {
        match self {
            Seen::State(s) => s.hash(),
            Seen::Knowledge(k) => k.hash(),
        }
    }

    /// Whether this is a viewer's knowledge rather than the whole state.
    pub fn is_knowledge(&self) -> bool {
        matches!(self, Seen::Knowledge(_))
    }
}

/// The file's last event in a frame, as the viewer saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Last {
    /// Its index among the file's events.
    pub index: usize,
    /// The lines the viewer saw of it: the event itself for the referee
    /// and in a view file; for a player drawn from a full log, what that
    /// player's view writes for it (an unseen move as `?`), none when it
    /// saw nothing of it.
    pub seen: Vec<Event>,
}

/// The position after some of the file's events.
#[derive(Clone, Debug)]
pub struct Frame {
    /// How many of the file's events it comes after (0: the start).
    pub applied: usize,
    /// The last of them, as the viewer saw it; `None` at the start.
    pub last: Option<Last>,
    /// The position.
    pub seen: Seen,
}

/// Which frames the walk hands out as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// The start and the position after each applied event.
    Event,
    /// None: only the last, in [`Walked::frame`].
    None,
}

/// Why a walk stopped before the end it was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The event after the last frame breaks a rule; the error is placed
    /// at the file's event.
    Fault(RuleError),
    /// An event the viewer may not see breaks a rule (a player drawn from
    /// a full log): neither the event nor the error may be told to it
    /// ([`hidden_fault`]).
    Hidden(Color),
}

/// What a walk ends with.
#[derive(Clone, Debug)]
pub struct Walked {
    /// The position after the last event that applied.
    pub frame: Frame,
    /// Why the walk stopped early, if it did.
    pub stop: Option<Stop>,
    /// The parameters the rules file overrode in the header.
    pub overridden: Vec<Overridden>,
}

/// Why a walk cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// The header cannot start a replay.
    Start(StartError),
    /// The file is a player's view that cannot be drawn: it cannot be
    /// replayed on its own.
    View(ViewError),
    /// The file is one player's view and the other player's (or the
    /// referee's) position was asked for.
    OtherSide {
        /// Whose view the file is.
        log: Color,
        /// The viewer asked for.
        asked: Viewer,
    },
}

/// Walks `file` up to its first `upto` events (all, when it has fewer) as
/// `viewer` saw it, handing out each frame `every` asks for to `each`,
/// and ends with the last. A view file is drawn as its own player knew it
/// (a `viewer` of the other side is refused). `params` (a rules file's)
/// win over the header's parameter tags.
pub fn walk(
    file: &Game,
    viewer: Viewer,
    params: Option<&Params>,
    upto: usize,
    every: Every,
    mut each: impl FnMut(&Frame),
) -> Result<Walked, WalkError> {
    // A player's view is drawn by replaying a full log that gives that
    // player the same knowledge; `alignment` maps its events back to the
    // file's.
    let (alignment, viewer, is_view) = match file.perspective() {
        None => (Alignment::identity(), viewer, false),
        Some(side) => {
            if viewer.color().is_some_and(|c| c != side) {
                return Err(WalkError::OtherSide {
                    log: side,
                    asked: viewer,
                });
            }
            match Alignment::of_view(file) {
                Ok((alignment, side)) => (alignment, Viewer::of(side), true),
                // No full log can stand for a view of open-world-chess: it
                // is read on its own.
                Err(ViewError::NotReplayable(_)) => return walk_read(file, params, upto, every, each),
                Err(e) => return Err(WalkError::View(e)),
            }
        }
    };
    let full = alignment.full(file);
    let (mut replay, overridden) = Replay::with_params(&full.header, params).map_err(WalkError::Start)?;
    let side = viewer.color();
    // A player drawn from a full log sees each event as its view writes it.
    let mut writer = match (is_view, side) {
        (false, Some(c)) => ViewWriter::new(&full.header, c).ok(),
        _ => None,
    };
    // The lines the viewer saw of the last event pushed to the writer.
    let mut seen_lines = Vec::new();
    let frame_at = |applied: usize, replay: &Replay, seen_lines: &[Event]| Frame {
        applied,
        last: applied.checked_sub(1).map(|index| Last {
            index,
            seen: match writer_side(is_view, side) {
                true => seen_lines.to_vec(),
                false => vec![file.events[index].clone()],
            },
        }),
        seen: match side {
            None => Seen::State(Box::new(replay.state())),
            Some(c) => Seen::Knowledge(Box::new(replay.knowledge(Viewer::of(c)))),
        },
    };
    let upto = upto.min(file.events.len());
    if every == Every::Event {
        each(&frame_at(0, &replay, &seen_lines));
    }
    let mut stop = None;
    // Frame `k` is the position once every full-log event standing for the
    // file's first `k` events has applied; `done` counts the file's events
    // whose frames are handed out.
    let mut done = 0;
    for (i, event) in full.events.iter().enumerate() {
        let origin = alignment.origin(i);
        if origin >= upto {
            break;
        }
        // Every file event before this one's is complete.
        while done < origin {
            done += 1;
            if every == Every::Event {
                each(&frame_at(done, &replay, &seen_lines));
            }
        }
        if let Some(w) = writer.as_mut() {
            seen_lines.clear();
            if w.push(i, event, &mut seen_lines).is_err() {
                writer = None;
                seen_lines.clear();
            }
        }
        if let Err(error) = replay.apply(event) {
            let error = alignment.to_file(error);
            stop = Some(match side.filter(|_| !is_view) {
                Some(c) if hidden_fault(file, c, &error) => Stop::Hidden(c),
                _ => Stop::Fault(error),
            });
            break;
        }
    }
    if stop.is_none() {
        while done < upto {
            done += 1;
            if every == Every::Event {
                each(&frame_at(done, &replay, &seen_lines));
            }
        }
    }
    Ok(Walked {
        frame: frame_at(done, &replay, &seen_lines),
        stop,
        overridden,
    })
}

/// [`walk`] over a player's view file that is read on its own
/// ([`ViewReader`]): each frame is the knowledge its lines give, and a line
/// that cannot be read stops the walk.
fn walk_read(
    file: &Game,
    params: Option<&Params>,
    upto: usize,
    every: Every,
    mut each: impl FnMut(&Frame),
) -> Result<Walked, WalkError> {
    let (mut reader, overridden) = ViewReader::new(&file.header, params).map_err(|e| match e {
        ViewError::Start(e) => WalkError::Start(e),
        e => WalkError::View(e),
    })?;
    let frame_at = |applied: usize, reader: &ViewReader| Frame {
        applied,
        last: applied.checked_sub(1).map(|index| Last {
            index,
            seen: vec![file.events[index].clone()],
        }),
        seen: Seen::Knowledge(Box::new(reader.knowledge())),
    };
    if every == Every::Event {
        each(&frame_at(0, &reader));
    }
    let upto = upto.min(file.events.len());
    let mut stop = None;
    let mut done = 0;
    for (i, event) in file.events[..upto].iter().enumerate() {
        if let Err(error) = reader.read(i, event) {
            stop = Some(Stop::Fault(error));
            break;
        }
        done = i + 1;
        if every == Every::Event {
            each(&frame_at(done, &reader));
        }
    }
    Ok(Walked {
        frame: frame_at(done, &reader),
        stop,
        overridden,
    })
}

/// Whether a frame's last event is taken from the view writer's lines (a
/// player drawn from a full log) rather than from the file.
fn writer_side(is_view: bool, side: Option<Color>) -> bool {
    side.is_some() && !is_view
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::parse;
    use fgn_replay::view;

    const FULL: &[u8] = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
        0 w place Ke1 Pe2\n0 b place Ke8\n0 b place Pe7\n0 w ready\n0 b ready\n1 w e2-e3\n1 b e7-e6\n";

    fn frames(file: &Game, viewer: Viewer) -> (Vec<Frame>, Walked) {
        let mut all = Vec::new();
        let walked = walk(file, viewer, None, usize::MAX, Every::Event, |f| all.push(f.clone())).expect("a walk");
        (all, walked)
    }

    /// Every frame is handed out once, in order, and the last is the one a
    /// walk for the last alone ends with.
    #[test]
    fn the_frames_come_in_order_and_end_where_a_walk_to_the_end_ends() {
        let full = parse(FULL).document.game;
        for viewer in [Viewer::Everyone, Viewer::White, Viewer::Black] {
            let (all, walked) = frames(&full, viewer);
            let applied: Vec<usize> = all.iter().map(|f| f.applied).collect();
            assert_eq!(applied, (0..=full.events.len()).collect::<Vec<_>>());
            let alone = walk(&full, viewer, None, usize::MAX, Every::None, |_| {
                panic!("no frame asked for")
            })
            .expect("a walk");
            assert_eq!(alone.frame.seen, walked.frame.seen);
            assert_eq!(all.last().map(|f| &f.seen), Some(&walked.frame.seen));
        }
    }

    /// A view file's frames are its player's knowledge at each of its
    /// events, as the full log drawn for that player has it at the same
    /// events; white's frames from the full log show black's hidden
    /// placements as nothing seen.
    #[test]
    fn a_view_files_frames_are_its_players_knowledge_of_the_full_log() {
        let full = parse(FULL).document.game;
        let white = view(&full, Color::White).expect("a view");
        let (from_view, _) = frames(&white, Viewer::Everyone);
        let (from_full, _) = frames(&full, Viewer::White);
        assert!(
            from_full[2].last.as_ref().is_some_and(|l| l.seen.is_empty()),
            "black's place is hidden"
        );
        // The view leaves out black's two placements, and shows black's
        // final setup after its `ready`.
        let in_view: Vec<String> = white.events.iter().map(ToString::to_string).collect();
        assert_eq!(in_view[2..4], ["0 b ready", "0 @ setup b Pe7 Ke8"]);
        assert_eq!(
            from_view[4].seen, from_full[5].seen,
            "after black's ready and the setup shown"
        );
        assert_ne!(
            from_view[2].seen, from_view[4].seen,
            "the setup shown changes what white knows"
        );
        assert_eq!(from_view.last().map(|f| &f.seen), from_full.last().map(|f| &f.seen));
        assert!(matches!(
            walk(&white, Viewer::Black, None, usize::MAX, Every::None, |_| {}),
            Err(WalkError::OtherSide { log: Color::White, .. })
        ));
    }

    /// A fault at an event the viewer may not see stops the walk without
    /// telling it; the referee is told, at the file's event.
    #[test]
    fn a_hidden_fault_stops_the_walk_untold() {
        let bad =
            parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n0 b place Ke9\n")
                .document
                .game;
        let white = walk(&bad, Viewer::White, None, usize::MAX, Every::None, |_| {}).expect("a walk");
        assert_eq!(white.stop, Some(Stop::Hidden(Color::White)));
        assert_eq!(white.frame.applied, 1);
        let referee = walk(&bad, Viewer::Everyone, None, usize::MAX, Every::None, |_| {}).expect("a walk");
        assert!(matches!(referee.stop, Some(Stop::Fault(ref e)) if e.place == fgn_replay::Place::Event(1)));
    }
}
