//! `fgn diff`'s comparison as plain data: whether two logs are the same
//! game after canonicalisation, and if not where they part (a header tag,
//! an event, or one ending first) and how their positions differ there and
//! at the end, from the referee's or one player's perspective
//! ([`compare`]). The `fgn` command words and prints it; the Python
//! package hands it over as its JSON form (docs/json.md §14.3).

use std::borrow::Cow;

use fgn_notation::{Action, Color, Document, Event, Game};
use fgn_replay::{knowledge_changes, state_changes, Change, Completion, Digest, Replay, StartError, ViewError, Viewer};
use serde::Serialize;

use crate::align::{self, made_view, Alignment};
use crate::loghash;
use crate::placed::PlacedError;

/// One of the two logs as it is compared.
///
/// What is compared is the canonical log (the file's events with
/// `completion`'s markers), a view file as it stands, or the player's view
/// made of a full log (`view`). The file's own events are read where they
/// are, not copied: a copy, its lines and the positions' maps held every
/// event of both logs two and three times more (issue 36).
struct Log {
    name: String,
    doc: Document,
    /// The player's view made of a full log (`None`: the file's events are
    /// the ones compared).
    view: Option<Game>,
    /// The markers the compared events complete (the referee's log; a view
    /// is compared as it stands).
    completion: Completion,
    /// For each event of a made view, the line of the file it comes from
    /// (the event of the full log that the view's line reports); `None`:
    /// the file's own lines, one an event.
    lines: Option<Vec<u32>>,
    /// The log hash of what is compared, whose markers it completes as
    /// [`loghash::chain`] does (a view's too).
    log_hash: Digest,
    /// How the compared events stand in the full log that replays their
    /// positions, if one can.
    alignment: Result<Alignment, String>,
    /// The side a full log is compared as, whose view may not show a rule
    /// error's event (`None`: the referee's, or a view, which has no
    /// hidden events).
    viewer: Option<Color>,
}

impl Log {
    /// The compared log, before its markers are completed.
    fn game(&self) -> &Game {
        self.view.as_ref().unwrap_or(&self.doc.game)
    }

    /// The compared event at `i`, markers completed, if there is one.
    fn event(&self, i: usize) -> Option<Cow<'_, Event>> {
        let event = self.game().events.get(i)?;
        Some(match self.completion.move_at(i) {
            Some(m) => Cow::Owned(Event {
                action: Action::Move(*m),
                ..event.clone()
            }),
            None => Cow::Borrowed(event),
        })
    }

    /// The line of the file the compared event at `i` comes from.
    fn line(&self, i: usize) -> Option<u32> {
        self.lines.as_ref().unwrap_or(&self.doc.event_lines).get(i).copied()
    }
}

/// A rule error in one log, placed in its file.
#[derive(Clone, Debug, Serialize)]
pub struct DiffFault {
    pub line: u32,
    pub column: u32,
    pub rule: &'static str,
    pub message: String,
}

/// The positions of a log at the points asked for, and what stopped its
/// replay early.
struct Replayed {
    at: Vec<Replay>,
    fault: Option<DiffFault>,
    /// The replay stopped at a rule error of an event the side compared as
    /// may not see: neither the event nor the error is told (`fault` is
    /// then `None`).
    hidden_fault: bool,
    /// How many of the compared events the positions cover.
    applied: usize,
}

/// One line of a file, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// Its line number in the file (`None`: a line the file does not hold,
    /// such as the `Perspective` tag of a view made from it).
    pub line: Option<u32>,
    pub text: String,
}

/// What the report says of one log.
#[derive(Clone, Debug, Serialize)]
pub struct LogReport {
    pub file: String,
    pub log_hash: Digest,
    pub events: usize,
    pub error: Option<DiffFault>,
}

/// The first tag where the headers part.
#[derive(Clone, Debug, Serialize)]
pub struct HeaderPart {
    pub tag: String,
    pub a: Option<Line>,
    pub b: Option<Line>,
}

/// The first event where the logs part, by its 0-based `index` (as every
/// output counts events); the text report says `event index + 1`.
#[derive(Clone, Debug, Serialize)]
pub struct EventPart {
    pub index: usize,
    pub a: Option<Line>,
    pub b: Option<Line>,
}

/// Two positions compared, after `a_events` of A's and `b_events` of B's
/// compared events.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    pub a_events: usize,
    pub b_events: usize,
    pub changes: Vec<Change>,
}

/// The document `fgn diff --format json` writes (docs/fgn-diff.schema.json).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub format: &'static str,
    pub version: u32,
    /// Always `diff` (docs/json.md §17, "The type of every object").
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(rename = "as")]
    pub perspective: Option<Color>,
    pub same: bool,
    pub a: LogReport,
    pub b: LogReport,
    pub header: Option<HeaderPart>,
    pub event: Option<EventPart>,
    pub there: Option<Point>,
    pub end: Option<Point>,
}

/// The side both logs are compared as: the one asked for, or the one the
/// views among them belong to.
fn perspective(a: &Document, b: &Document, asked: Option<Color>) -> Result<Option<Color>, String> {
    let views = [("A", a.game.perspective()), ("B", b.game.perspective())];
    let side = asked.or(views[0].1).or(views[1].1);
    for (which, view) in views {
        match (view, side) {
            (Some(v), Some(s)) if v != s => {
                let wanted = match asked {
                    Some(_) => format!("--as {}", s.name()),
                    None => format!("the other file is {}'s view", s.name()),
                };
                return Err(format!(
                    "{which} is {}'s view and {wanted}: what one player knew does not tell what the other did",
                    v.name()
                ));
            }
            _ => {}
        }
    }
    Ok(side)
}

/// The log as compared from `side`'s perspective (`None`: the referee's).
fn prepare(name: String, doc: Document, side: Option<Color>) -> Result<Log, ViewError> {
    let (view, completion, lines, alignment) = match (side, doc.game.perspective()) {
        (None, _) => (None, fgn_replay::completion(&doc.game), None, Ok(Alignment::identity())),
        // A view compares as it is; its positions come from a full log
        // that gives its player the same knowledge, where there is one.
        (Some(_), Some(_)) => {
            let alignment = Alignment::of_view(&doc.game)
                .map(|(alignment, _)| alignment)
                .map_err(|e| e.to_string());
            (None, Completion::default(), None, alignment)
        }
        // The view ends at a rule error, as `fgn view` writes it; the
        // replay of the positions reports the error.
        (Some(color), None) => {
            let made = made_view(&doc.game, color)?;
            let lines = made.origins.iter().map(|&i| doc.event_lines[i]).collect();
            (Some(made.view), Completion::default(), Some(lines), Ok(made.alignment))
        }
    };
    let log_hash = match (&view, side) {
        (Some(v), _) => loghash::log_hash_completed(v, &fgn_replay::completion(v)),
        (None, Some(_)) => loghash::log_hash_completed(&doc.game, &fgn_replay::completion(&doc.game)),
        (None, None) => loghash::log_hash_completed(&doc.game, &completion),
    };
    let viewer = side.filter(|_| doc.game.perspective().is_none());
    Ok(Log {
        name,
        doc,
        view,
        completion,
        lines,
        log_hash,
        alignment,
        viewer,
    })
}

/// Replays `log`'s positions, keeping the replay after each prefix of its
/// compared events in `points` (capped where a rule error stops it).
fn replay_points(log: &Log, points: &[usize]) -> Result<Replayed, String> {
    let alignment = log.alignment.as_ref().map_err(Clone::clone)?;
    let compared = log.game().events.len();
    match align::replay_points(&log.doc.game, alignment, compared, points, log.viewer) {
        Ok(p) => Ok(Replayed {
            at: p.at,
            fault: p.error.map(|e| DiffFault::from(PlacedError::new(&log.doc, &e))),
            hidden_fault: p.hidden,
            applied: p.applied,
        }),
        Err(StartError::Header { tag, error }) => Ok(Replayed {
            at: Vec::new(),
            fault: Some(DiffFault::from(PlacedError::in_header(
                &log.doc,
                tag.as_deref(),
                &error,
            ))),
            hidden_fault: false,
            applied: 0,
        }),
    }
}

impl From<PlacedError> for DiffFault {
    fn from(p: PlacedError) -> DiffFault {
        DiffFault {
            line: p.line,
            column: p.column,
            rule: p.rule.name(),
            message: p.message,
        }
    }
}

/// The first tag where the two headers part, with both lines.
fn header_part(a: &Log, b: &Log) -> Option<HeaderPart> {
    let (ta, tb) = (&a.game().header.tags, &b.game().header.tags);
    let i = first_parting(ta, tb)?;
    let line = |log: &Log, tag: Option<&fgn_notation::Tag>| {
        tag.map(|t| Line {
            line: log
                .doc
                .game
                .header
                .tags
                .iter()
                .position(|x| x == t)
                .and_then(|j| log.doc.tag_lines.get(j).copied()),
            text: t.to_string(),
        })
    };
    let tag = ta.get(i).or(tb.get(i)).map(|t| t.name.clone()).unwrap_or_default();
    Some(HeaderPart {
        tag,
        a: line(a, ta.get(i)),
        b: line(b, tb.get(i)),
    })
}

/// The index of the first compared event where the logs part, by their
/// texts, or the end of the shorter one; `None` when every event is the
/// same. Each pair of texts is written in turn, not every event's kept.
fn event_parting(a: &Log, b: &Log) -> Option<usize> {
    use std::fmt::Write;
    let (mut ta, mut tb) = (String::new(), String::new());
    let text = |log: &Log, i: usize, out: &mut String| {
        out.clear();
        log.event(i).map(|e| write!(out, "{e}").expect("writing to a String"))
    };
    let n = a.game().events.len().max(b.game().events.len());
    (0..n).find(|&i| text(a, i, &mut ta) != text(b, i, &mut tb) || ta != tb)
}

/// The changes between the two positions, as the perspective knows them.
fn changes(side: Option<Color>, a: &Replay, b: &Replay) -> Vec<Change> {
    match side {
        None => state_changes(&a.state(), &b.state(), None),
        Some(c) => knowledge_changes(&a.knowledge(Viewer::of(c)), &b.knowledge(Viewer::of(c)), None),
    }
}

/// The index of the first place where two sequences part: the first
/// element that differs, or the end of the shorter one; `None` when they
/// are equal.
pub fn first_parting<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

/// How far one log's positions were compared, for what a report says of
/// it beside the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Its positions replay as far as `applied` of its compared events;
    /// `hidden_fault` is the side compared as when a rule error of an
    /// event that side may not see stopped them (the event and its error
    /// are not told; [`LogReport::error`] holds a fault that may be).
    Replayed {
        /// How many of the compared events the positions cover.
        applied: usize,
        /// The side whose view ends before a hidden rule error.
        hidden_fault: Option<Color>,
    },
    /// Its positions cannot be replayed (an open-world-chess view alone,
    /// a header no replay starts from), and why.
    NotCompared(String),
}

/// What [`compare`] finds: the report (`fgn diff --format json`'s
/// document, docs/fgn-diff.schema.json) and how far each log's positions
/// went.
#[derive(Debug)]
pub struct Diff {
    /// The document.
    pub report: Report,
    /// A's and B's positions.
    pub positions: [Positions; 2],
}

/// Why two logs cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffError {
    /// The two are views of different sides, or a view and the other
    /// side asked for.
    Perspective(String),
    /// No view of the log `name` can be made for the side compared as.
    View {
        /// The log, as named.
        name: String,
        /// Why.
        error: ViewError,
    },
}

/// Compares the logs `a` and `b` (each its name and document) from
/// `asked`'s perspective (`None`: the referee's, unless one of them is a
/// player's view, which sets the side): by their log hashes, or the
/// hashes of that player's views; then, where they differ, the first tag
/// and event where they part and the positions' changes after that event
/// and at the ends.
pub fn compare(a: (String, Document), b: (String, Document), asked: Option<Color>) -> Result<Diff, DiffError> {
    let ((a_name, a_doc), (b_name, b_doc)) = (a, b);
    let side = perspective(&a_doc, &b_doc, asked).map_err(DiffError::Perspective)?;
    let (a, b) = match (
        prepare(a_name.clone(), a_doc, side),
        prepare(b_name.clone(), b_doc, side),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(error), _) => return Err(DiffError::View { name: a_name, error }),
        (_, Err(error)) => return Err(DiffError::View { name: b_name, error }),
    };
    let hashes = (a.log_hash, b.log_hash);
    let same = hashes.0 == hashes.1;
    let parting = if same { None } else { event_parting(&a, &b) };
    let header = if same { None } else { header_part(&a, &b) };
    let event = parting.map(|i| {
        let line = |log: &Log| {
            log.event(i).map(|e| Line {
                line: log.line(i),
                text: e.to_string(),
            })
        };
        EventPart {
            index: i,
            a: line(&a),
            b: line(&b),
        }
    });
    // The positions after the first differing event (or, for the log
    // that lacks it, at its end), and at both ends.
    let (na, nb) = (a.game().events.len(), b.game().events.len());
    let mut points = Vec::new();
    if let Some(i) = parting {
        points.push(((i + 1).min(na), (i + 1).min(nb)));
    }
    if !same {
        points.push((na, nb));
    }
    let replayed = (
        replay_points(&a, &points.iter().map(|p| p.0).collect::<Vec<_>>()),
        replay_points(&b, &points.iter().map(|p| p.1).collect::<Vec<_>>()),
    );
    let mut compared_points: Vec<Option<Point>> = points.iter().map(|_| None).collect();
    if let (Ok(ra), Ok(rb)) = &replayed {
        if ra.at.len() == points.len() && rb.at.len() == points.len() {
            for (slot, (&(ka, kb), (pa, pb))) in compared_points
                .iter_mut()
                .zip(points.iter().zip(ra.at.iter().zip(&rb.at)))
            {
                *slot = Some(Point {
                    a_events: ka.min(ra.applied),
                    b_events: kb.min(rb.applied),
                    changes: changes(side, pa, pb),
                });
            }
        }
    }
    let (a_positions, a_report) = log_report(&a, replayed.0, hashes.0);
    let (b_positions, b_report) = log_report(&b, replayed.1, hashes.1);
    let end = compared_points.pop().flatten();
    let there = compared_points.pop().flatten();
    let report = Report {
        format: "fgn-diff",
        version: 3,
        kind: "diff",
        perspective: side,
        same,
        a: a_report,
        b: b_report,
        header,
        event,
        there,
        end,
    };
    Ok(Diff {
        report,
        positions: [a_positions, b_positions],
    })
}

/// What the report says of one log, and how far its positions went.
fn log_report(log: &Log, replayed: Result<Replayed, String>, hash: Digest) -> (Positions, LogReport) {
    let (positions, error) = match replayed {
        Ok(r) => (
            Positions::Replayed {
                applied: r.applied,
                hidden_fault: log.viewer.filter(|_| r.hidden_fault),
            },
            r.fault,
        ),
        Err(why) => (Positions::NotCompared(why), None),
    };
    let report = LogReport {
        file: log.name.clone(),
        log_hash: hash,
        events: log.game().events.len(),
        error,
    };
    (positions, report)
}
