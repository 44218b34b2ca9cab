//! Aligning a log as one side knows it with the full log whose replay
//! gives its positions, and replaying those positions: what comparing two
//! logs as a player (`fgn diff --as`), drawing a player's view (`fgn show`)
//! or a server answering a player about a position needs.
//!
//! Three logs can be compared as a side: the full log itself (the
//! referee's), a player's view file (replayed through a full log that
//! gives its player the same knowledge, [`replayable`]), and the view made
//! of a full log ([`made_view`]). An [`Alignment`] says, for each prefix of
//! the compared events, how many of the full log's events give the
//! position after it, and for each of the full log's events which event of
//! the file it stands for.

use fgn_notation::{Actor, Color, Game};

use fgn_replay::{replayable, Place, Replay, RuleError, StartError, ViewError, ViewWriter};

/// How the compared events of a log stand in the full log that replays
/// them.
///
/// ```
/// use fgn_notation::{parse, Color};
/// use fgn_tools::align::{made_view, replay_points};
///
/// let doc = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b d6-c5\n").document;
/// let made = made_view(&doc.game, Color::White).unwrap();
/// assert_eq!(made.view.events.len(), 2);
/// assert_eq!(made.origins, [0, 1]);
/// let points = replay_points(&doc.game, &made.alignment, 2, &[0, 2], Some(Color::White)).unwrap();
/// assert_eq!((points.at.len(), points.applied, points.error), (2, 2, None));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Alignment {
    /// The full log, when it is not the file's own (`None`: a copy of the
    /// file's events would hold every event twice more; issue 36).
    full: Option<Game>,
    /// For each prefix of the compared log (0 to all its events), how many
    /// of the full log's events give the position after it (`None`: as
    /// many as the prefix holds).
    upto: Option<Vec<usize>>,
    /// Maps an event of the full log to the file's event it stands for,
    /// for placing its rule errors (`None`: each stands for itself).
    origins: Option<Vec<usize>>,
}

impl Alignment {
    /// A full log compared as it is: each event stands for itself.
    pub fn identity() -> Alignment {
        Alignment::default()
    }

    /// A player's view file, replayed through a full log that gives its
    /// player the same knowledge ([`replayable`]), with the side whose
    /// view it is.
    pub fn of_view(view: &Game) -> Result<(Alignment, Color), ViewError> {
        let (full, side, origins) = replayable(view)?;
        // How many of the full log's events stand for each of the view's,
        // summed: the events standing for its first `k` (counted, not
        // searched for each `k`, which took time quadratic in the log).
        let n = view.events.len();
        let mut upto = vec![0usize; n + 1];
        for &o in &origins {
            if o < n {
                upto[o + 1] += 1;
            }
        }
        for k in 1..=n {
            upto[k] += upto[k - 1];
        }
        let alignment = Alignment {
            full: Some(full),
            upto: Some(upto),
            origins: Some(origins),
        };
        Ok((alignment, side))
    }

    /// The full log to replay: the one built for a view file, else `own`
    /// (the file's own log).
    pub fn full<'a>(&'a self, own: &'a Game) -> &'a Game {
        self.full.as_ref().unwrap_or(own)
    }

    /// How many of the full log's events give the position after the
    /// compared log's first `k`.
    pub fn upto(&self, k: usize) -> usize {
        self.upto.as_ref().map_or(k, |u| u[k])
    }

    /// The file's event that the full log's event `j` stands for.
    pub fn origin(&self, j: usize) -> usize {
        self.origins.as_ref().map_or(j, |o| o[j])
    }

    /// `error`, found by replaying the full log, placed at the file's event
    /// it stands for.
    pub fn to_file(&self, mut error: RuleError) -> RuleError {
        if let Place::Event(j) = error.place {
            error.place = Place::Event(self.origin(j));
        }
        error
    }

    /// How many of the `compared` events the positions cover once `applied`
    /// of the full log's events applied.
    fn compared_applied(&self, applied: usize, compared: usize) -> usize {
        match &self.upto {
            None => applied.min(compared),
            Some(upto) => upto.iter().take_while(|&&n| n <= applied).count().saturating_sub(1),
        }
    }
}

/// A player's view made of a full log, as far as the log replays.
#[derive(Clone, Debug)]
pub struct MadeView {
    /// The view: the full log's header with its `Perspective` tag, and the
    /// events the player saw, up to the first rule error of the full log.
    pub view: Game,
    /// For each of the view's events, the full log's event it reports.
    pub origins: Vec<usize>,
    /// How the view's events stand in the full log: the position after its
    /// last event is the full log's end, hidden events after it included.
    pub alignment: Alignment,
}

/// The view of `full` for `side`, ending at its first rule error as
/// [`fgn_replay::view::write_view`] writes it (the replay of its positions
/// reports the error), with where each of its events comes from.
pub fn made_view(full: &Game, side: Color) -> Result<MadeView, ViewError> {
    let mut writer = ViewWriter::new(&full.header, side)?;
    let (mut events, mut origins) = (Vec::new(), Vec::new());
    for (i, event) in full.events.iter().enumerate() {
        let before = events.len();
        if writer.push(i, event, &mut events).is_err() {
            break;
        }
        origins.resize(origins.len() + events.len() - before, i);
    }
    let mut upto: Vec<usize> = std::iter::once(0).chain(origins.iter().map(|&i| i + 1)).collect();
    // The end is the end of the log, hidden events after the view's last
    // line included.
    if let Some(last) = upto.last_mut() {
        *last = full.events.len();
    }
    let alignment = Alignment {
        full: None,
        upto: Some(upto),
        origins: None,
    };
    let view = Game {
        header: writer.header().clone(),
        events,
    };
    Ok(MadeView {
        view,
        origins,
        alignment,
    })
}

/// Whether the event a rule error of the full log `game` names may be
/// something `side` does not see, so that neither it nor the error's
/// message (which names its squares and pieces) may be shown in anything
/// made for `side`: a view is what a server sends a player, and so may be
/// what it says about one. Only `side`'s own events, the header and the
/// end of the log are taken as seen; an opponent's or the world's event is
/// hidden, even in a game where that one was public, since what is hidden
/// differs by game and phase and this must never leak.
///
/// ```
/// use fgn_notation::{parse, Color};
/// use fgn_tools::align::hidden_fault;
/// use fgn_replay::validate;
///
/// let doc = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b c3-d4\n").document;
/// let error = validate(&doc.game).unwrap().error.unwrap();
/// assert!(hidden_fault(&doc.game, Color::White, &error));
/// assert!(!hidden_fault(&doc.game, Color::Black, &error));
/// ```
pub fn hidden_fault(game: &Game, side: Color, error: &RuleError) -> bool {
    match error.place {
        Place::Event(i) => game.events.get(i).is_none_or(|e| e.actor != Actor::Player(side)),
        Place::Header | Place::End => false,
    }
}

/// The positions of a compared log at the points asked for, and what
/// stopped its replay early.
#[derive(Debug)]
pub struct Points {
    /// The replay after each point's compared events (capped where a rule
    /// error stopped it).
    pub at: Vec<Replay>,
    /// The rule error that stopped the replay, placed at the file's event,
    /// when the side compared as may see it.
    pub error: Option<RuleError>,
    /// The replay stopped at a rule error of an event the side compared as
    /// may not see ([`hidden_fault`]): neither the event nor the error is
    /// told (`error` is then `None`).
    pub hidden: bool,
    /// How many of the compared events the positions cover.
    pub applied: usize,
}

/// Replays the full log of `own` (the file's log) through `alignment`,
/// keeping the replay after each prefix of the `compared` events in
/// `points`. `viewer` is the side a full log is compared as, whose view
/// may not show a rule error's event (`None`: the referee's, or a view
/// file, which has no hidden events).
pub fn replay_points(
    own: &Game,
    alignment: &Alignment,
    compared: usize,
    points: &[usize],
    viewer: Option<Color>,
) -> Result<Points, StartError> {
    let game = alignment.full(own);
    let mut replay = Replay::new(&game.header)?;
    let targets: Vec<usize> = points.iter().map(|&k| alignment.upto(k)).collect();
    let mut at: Vec<Option<Replay>> = targets.iter().map(|&t| (t == 0).then(|| replay.clone())).collect();
    let (mut error, mut hidden) = (None, false);
    let mut applied = 0;
    for (i, event) in game.events.iter().enumerate() {
        if let Err(e) = replay.apply(event) {
            let e = alignment.to_file(e);
            if viewer.is_some_and(|c| hidden_fault(own, c, &e)) {
                hidden = true;
            } else {
                error = Some(e);
            }
            break;
        }
        applied = i + 1;
        for (slot, &t) in at.iter_mut().zip(&targets) {
            if t == applied {
                *slot = Some(replay.clone());
            }
        }
    }
    let at = at.into_iter().map(|r| r.unwrap_or_else(|| replay.clone())).collect();
    Ok(Points {
        at,
        error,
        hidden,
        applied: alignment.compared_applied(applied, compared),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::parse;

    const FULL: &[u8] = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
        0 w place Ke1\n0 b place Ke8\n0 w place Qd1\n0 b place Qd8\n0 w ready\n0 b ready\n";

    /// The view made of a full log and the view file written from it align
    /// with the same full log: the positions after each of the view's
    /// prefixes are the same, and a hidden setup is neither shown nor
    /// counted as shown.
    #[test]
    fn a_made_view_and_its_view_file_align_alike() {
        let full = parse(FULL).document.game;
        let made = made_view(&full, Color::White).expect("a view");
        assert!(
            made.view.events.len() < full.events.len(),
            "black's placements are hidden"
        );
        assert_eq!(made.origins.len(), made.view.events.len());
        let (file_alignment, side) = Alignment::of_view(&made.view).expect("a replayable view");
        assert_eq!(side, Color::White);
        let n = made.view.events.len();
        let points: Vec<usize> = (0..=n).collect();
        let from_full = replay_points(&full, &made.alignment, n, &points, Some(Color::White)).expect("a start");
        let from_file = replay_points(&made.view, &file_alignment, n, &points, None).expect("a start");
        assert_eq!((from_full.applied, from_file.applied), (n, n));
        let knows = |r: &Replay| r.knowledge(fgn_replay::Viewer::White);
        for (a, b) in from_full.at.iter().zip(&from_file.at) {
            assert_eq!(knows(a), knows(b));
        }
    }

    /// A rule error at the opponent's event stops the replay without
    /// telling it to the side compared as; the referee is told, at the
    /// file's event.
    #[test]
    fn an_opponents_fault_is_hidden_from_the_side() {
        let full =
            parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n0 b place Ke9\n")
                .document
                .game;
        let identity = Alignment::identity();
        let as_white = replay_points(&full, &identity, 2, &[2], Some(Color::White)).expect("a start");
        assert!(as_white.hidden && as_white.error.is_none());
        assert_eq!(as_white.applied, 1);
        let referee = replay_points(&full, &identity, 2, &[2], None).expect("a start");
        assert_eq!(referee.error.map(|e| e.place), Some(Place::Event(1)));
    }
}
