//! Players' views (docs/notation.md §6): the log as one player could know
//! it, built by replaying the full log event by event and asking the engine
//! what that player sees.
//!
//! A view is decided one event at a time from the events up to and
//! including the current one, so the view of a prefix of a log is a prefix
//! of the view and a server can stream it ([`ViewWriter`]). [`view`] is the
//! whole log at once.

use fgn_notation::{Action, Actor, Color, Event, Game, GameKind, Header, Outcome, Reason, Tag};

use crate::core::error::RuleError;
use crate::game::{GameView, ViewOf, ViewReplay};
use crate::games::{each_game, for_kind, game_enum, map_game};
use crate::session::Session;
use crate::Sessions;
use crate::{Replay, StartError};

mod read;
pub use read::ViewReader;

/// Why a view cannot be made, or could be made only in part.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ViewError {
    /// The header cannot start a replay (no game, a rules version without
    /// an engine, a bad parameter).
    Start(StartError),
    /// The log is a view of the other side: what one player knew does not
    /// tell what the other did.
    OtherSide {
        /// The side the log is a view of.
        log: Color,
        /// The side asked for.
        asked: Color,
    },
    /// The view cannot be replayed as a full log: what the player did not
    /// see of an open-world-chess game decides what the player sees next.
    /// It is read on its own instead ([`ViewReader`]).
    NotReplayable(GameKind),
    /// The view is not read on its own: its game replays views as full
    /// logs ([`replayable`]).
    NotRead(GameKind),
    /// An event breaks a rule: `view` is the view up to the last event
    /// before it.
    Rule {
        /// The view of the events before the faulty one.
        view: Box<Game>,
        /// The rule error.
        error: RuleError,
    },
}

impl ViewError {
    /// Whether the view cannot be made at all for want of an engine (or of
    /// an engine for this rules version), rather than because the log is
    /// faulty.
    pub fn is_unsupported(&self) -> bool {
        match self {
            ViewError::Start(e) => e.is_unsupported(),
            ViewError::NotReplayable(_) | ViewError::NotRead(_) => true,
            ViewError::OtherSide { .. } | ViewError::Rule { .. } => false,
        }
    }
}

impl std::fmt::Display for ViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ViewError::Start(e) => e.fmt(f),
            ViewError::OtherSide { log, asked } => write!(
                f,
                "this log is {}'s view; it cannot be viewed as {} (view the full log instead)",
                log.name(),
                asked.name()
            ),
            ViewError::NotReplayable(g) => write!(
                f,
                "a view of {g} cannot be replayed as a full log (moves in the fog decide what comes into sight); \
                 it is read on its own"
            ),
            ViewError::NotRead(g) => write!(f, "a view of {g} is replayed as a full log, not read on its own"),
            ViewError::Rule { error, .. } => error.fmt(f),
        }
    }
}

/// The view of `game` for `side`: a pure function of the full log. A view of
/// `side` comes back unchanged (viewing a view again changes nothing); a
/// view of the other side is refused. A log with a rule error gives
/// [`ViewError::Rule`] with the view of the events before the faulty one.
///
/// ```
/// use fgn_notation::{parse, Color};
/// use fgn_replay::{view, ViewError};
///
/// // A magic-draughts game whose seed the world revealed at the end.
/// let seed = [1u8; 32];
/// let hex = |b: &[u8]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
/// let log = format!(
///     "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[SeedCommit \"blake3:{}\"]\n\n\
///      0 w resign\n0 @ result 0-1 resign\n0 @ seed {}\n",
///     hex(&fgn_replay::seed::commitment(&seed)),
///     hex(&seed)
/// );
/// let game = parse(log.as_bytes()).document.game;
/// let white = view(&game, Color::White).unwrap();
/// // The view leaves the seed out (it would tell the numbers of checkers
/// // still hidden in a longer game) and says whose view it is.
/// let lines: Vec<String> = white.events.iter().map(|e| e.to_string()).collect();
/// assert_eq!(lines, ["0 w resign", "0 @ result 0-1 resign"]);
/// assert_eq!(white.perspective(), Some(Color::White));
/// assert_eq!(view(&white, Color::White).unwrap(), white);
/// assert!(matches!(view(&white, Color::Black), Err(ViewError::OtherSide { .. })));
/// ```
pub fn view(game: &Game, side: Color) -> Result<Game, ViewError> {
    match game.perspective() {
        Some(log) if log == side => return Ok(game.clone()),
        Some(log) => return Err(ViewError::OtherSide { log, asked: side }),
        None => {}
    }
    let mut writer = ViewWriter::new(&game.header, side)?;
    let mut events = Vec::new();
    for (i, event) in game.events.iter().enumerate() {
        if let Err(error) = writer.push(i, event, &mut events) {
            return Err(ViewError::Rule {
                view: Box::new(Game {
                    header: writer.header.clone(),
                    events,
                }),
                error,
            });
        }
    }
    Ok(Game {
        header: writer.header,
        events,
    })
}

/// [`view`]'s canonical text ([`Game::canonical_text`]) written into `out`
/// as the events come, without the view's copy of every event it shows (a
/// long log's view held it beside the log; issue 36). At a rule error the
/// text of the view up to it is written, as `fgn view` prints it, and the
/// error's `view` holds the view's header alone.
pub fn write_view(game: &Game, side: Color, out: &mut String) -> Result<(), ViewError> {
    use std::fmt::Write;
    if game.perspective().is_some() {
        let text = |view: &Game| view.canonical_text();
        return match view(game, side) {
            Ok(v) => {
                out.push_str(&text(&v));
                Ok(())
            }
            Err(e) => {
                if let ViewError::Rule { view, .. } = &e {
                    out.push_str(&text(view));
                }
                Err(e)
            }
        };
    }
    let mut writer = ViewWriter::new(&game.header, side)?;
    for tag in &writer.header.tags {
        writeln!(out, "{tag}").expect("writing to a String");
    }
    out.push('\n');
    let mut events = Vec::new();
    for (i, event) in game.events.iter().enumerate() {
        let pushed = writer.push(i, event, &mut events);
        for e in events.drain(..) {
            e.write_line(out);
            out.push('\n');
        }
        if let Err(error) = pushed {
            return Err(ViewError::Rule {
                view: Box::new(Game {
                    header: writer.header,
                    events: Vec::new(),
                }),
                error,
            });
        }
    }
    Ok(())
}

/// A full log that gives the view's player exactly the knowledge the view
/// gives, event for event, with the side the view belongs to: what `fgn
/// show` replays to draw a view. In magic-draughts the view is the log less
/// its seed; in survival-chess the opponent's final setup (`@ setup`) is
/// placed in one `place` just before the opponent became ready, the order
/// of its hidden edits being unknown and irrelevant to the player; where
/// the view ends in setup with the opponent ready and not yet revealed, a
/// stand-in setup built from the legal actions is placed instead, which
/// the player's knowledge leaves out as it leaves out the real one.
/// open-world-chess views cannot be replayed alone.
///
/// The third value gives, for each event of the log, the index of the
/// view's event it stands for: an inserted `place` stands with the `ready`
/// it precedes, so that a prefix of the view is replayed by the events
/// whose index is below the prefix's length.
pub fn replayable(view: &Game) -> Result<(Game, Color, Vec<usize>), ViewError> {
    let Some(side) = view.perspective() else {
        return Err(ViewError::Start(StartError::Header {
            tag: Some("Perspective".into()),
            error: RuleError::at(
                crate::Place::Header,
                crate::Fault::new(crate::Rule::Perspective, "this log is not a player's view"),
            ),
        }));
    };
    let header = Header {
        tags: view
            .header
            .tags
            .iter()
            .filter(|t| t.name != "Perspective")
            .cloned()
            .collect(),
    };
    let mut events: Vec<(Event, usize)> = Vec::with_capacity(view.events.len());
    let replay = view
        .kind()
        .map(|g| (g, for_kind!(g, G => <ViewOf<G> as GameView<G>>::REPLAY)));
    match replay {
        Some((
            _,
            ViewReplay::SetupRevealed {
                placed_first,
                too_little_placed,
            },
        )) => {
            for (i, event) in view.events.iter().enumerate() {
                let (Actor::World, Action::Setup { color, placements }) = (event.actor, &event.action) else {
                    events.push((event.clone(), i));
                    continue;
                };
                let became_ready = |e: &Event| match (e.actor, &e.action) {
                    (Actor::Player(c), Action::Ready) => c == *color,
                    (Actor::World, Action::Timeout { color: c }) => c == color,
                    _ => false,
                };
                let at = events
                    .iter()
                    .rposition(|(e, _)| became_ready(e))
                    .unwrap_or(events.len());
                let origin = events.get(at).map_or(i, |(_, o)| *o);
                // The figure the game needs put down first goes first; the
                // sort is stable, so the rest keep the order of `@ setup`.
                let mut placements = placements.clone();
                if let Some(first) = placed_first {
                    placements.sort_by_key(|p| p.figure != first);
                }
                let place = Event {
                    n: event.n,
                    actor: Actor::Player(*color),
                    action: Action::Place { placements },
                    clock_ms: None,
                };
                events.insert(at, (place, origin));
            }
            let opponent = side.opponent();
            let revealed = view.events.iter().any(|e| {
                e.actor == Actor::World && matches!(&e.action, Action::Setup { color, .. } if *color == opponent)
            });
            if !revealed {
                stand_in_for_unrevealed_setup(&header, opponent, too_little_placed, &mut events);
            }
        }
        Some((g, ViewReplay::Read)) => return Err(ViewError::NotReplayable(g)),
        _ => events.extend(view.events.iter().cloned().enumerate().map(|(i, e)| (e, i))),
    }
    let (events, origins) = events.into_iter().unzip();
    Ok((Game { header, events }, side, origins))
}

/// Gives the opponent a stand-in setup before it is readied, for a view
/// that no `@ setup` of the opponent's has revealed yet: this happens only
/// when a view ends in setup with the opponent readied (by its `ready`, or
/// by the world at `@ timeout` when its setup time ran out) and the view's
/// own player not. The replay refuses a `ready` with nothing placed, and
/// aborts the game at a timeout with too little placed (the game's
/// `too_little_placed` reason: no king, no infantry), yet what was placed is secret to the player and left
/// out of the player's knowledge, so any legal setup gives the same
/// knowledge. The stand-in takes the opponent's first legal placement,
/// again and again, until its `ready` is legal (in survival-chess the
/// first is the king). A view that shows the game aborted after the
/// opponent's timeout keeps nothing placed, as the log's abort says the
/// opponent had; a view that ends at the timeout itself cannot tell, and
/// is taken to go on, as a game does whose readied side can start. Where
/// no such setup is found the events stay as they are, and the replay
/// reports the refusal.
fn stand_in_for_unrevealed_setup(
    header: &Header,
    opponent: Color,
    too_little_placed: Reason,
    events: &mut Vec<(Event, usize)>,
) {
    let readied = |e: &Event| match (e.actor, &e.action) {
        (Actor::Player(c), Action::Ready) => c == opponent,
        (Actor::World, Action::Timeout { color }) => *color == opponent,
        _ => false,
    };
    let Some(at) = events.iter().position(|(e, _)| readied(e)) else {
        return;
    };
    let aborted = |e: &Event| {
        e.action
            == Action::Result {
                outcome: Outcome::Abort,
                reason: too_little_placed,
            }
    };
    if events[at..].iter().any(|(e, _)| aborted(e)) {
        return;
    }
    let Ok(mut replay) = Replay::new(header) else {
        return;
    };
    for (event, _) in &events[..at] {
        if replay.apply(event).is_err() {
            return;
        }
    }
    let mut placements = Vec::new();
    // A square holds at most one figure of each kind of a side (four kinds
    // in great-war-chess, fortifications counted), so no setup is longer;
    // the bound keeps a rules change from looping here.
    let most = 4 * usize::from(fgn_notation::MAX_BOARD_DIM).pow(2);
    for _ in 0..=most {
        let actions = replay.legal_actions();
        let mine = |e: &&Event| e.actor == Actor::Player(opponent);
        if actions.iter().filter(mine).any(|e| e.action == Action::Ready) {
            let place = Event {
                n: events[at].0.n,
                actor: Actor::Player(opponent),
                action: Action::Place { placements },
                clock_ms: None,
            };
            let origin = events[at].1;
            events.insert(at, (place, origin));
            return;
        }
        let Some(next) = actions
            .iter()
            .filter(mine)
            .find(|e| matches!(&e.action, Action::Place { placements } if placements.len() == 1))
        else {
            return;
        };
        if replay.apply(next).is_err() {
            return;
        }
        if let Action::Place { placements: one } = &next.action {
            placements.extend(one.iter().cloned());
        }
    }
}

/// A view written as the full log grows: the header first, then, for each
/// event of the full log, the view's lines for it.
#[derive(Clone, Debug)]
pub struct ViewWriter {
    header: Header,
    run: Run,
}

/// The replay of the full log and what one game's view keeps between events.
#[derive(Clone, Debug)]
struct Viewing<G: crate::game::Game> {
    session: Session<G>,
    view: ViewOf<G>,
}

impl<G: crate::game::Game> Viewing<G> {
    fn new(session: Session<G>, side: Color) -> Viewing<G> {
        let view = ViewOf::<G>::new(&session.engine, side);
        Viewing { session, view }
    }

    /// Replays `event` (the full log's event `index`) and appends the
    /// view's lines for it; on a rule error nothing changes.
    fn push(&mut self, index: usize, event: &Event, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let before = self.view.before(&self.session.engine, event);
        self.session.apply(index, event)?;
        self.view.after(&self.session.engine, event, before, out);
        Ok(())
    }
}

game_enum! {
    /// The replay of the full log, with what the game's view keeps between
    /// events. One per view written, so the open-world-chess view's larger
    /// reading costs nothing worth a box.
    #[derive(Clone, Debug)]
    #[allow(clippy::large_enum_variant)]
    enum Run(Viewing)
}

impl ViewWriter {
    /// A writer for the view of `side` of the log with `header` (a full
    /// log's header: a view's is refused by the replay).
    pub fn new(header: &Header, side: Color) -> Result<ViewWriter, ViewError> {
        Self::with_params(header, side, None).map(|(writer, _)| writer)
    }

    /// [`ViewWriter::new`] replaying the full log under `params` (a rules
    /// file's, which win over the header's parameter tags, as
    /// [`Replay::with_params`] has them), with the parameters it overrode.
    pub fn with_params(
        header: &Header,
        side: Color,
        params: Option<&crate::Params>,
    ) -> Result<(ViewWriter, Vec<crate::Overridden>), ViewError> {
        let (replay, overridden) = Replay::with_params(header, params).map_err(ViewError::Start)?;
        let run = map_game!(Sessions, replay.sessions, Run, s => Viewing::new(s, side));
        let writer = ViewWriter {
            header: view_header(header, side),
            run,
        };
        Ok((writer, overridden))
    }

    /// The view's header: the full log's with `[Perspective "white"]` (or
    /// `"black"`) right after `Rules`.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Replays the full log's event `index` and appends the view's lines
    /// for it to `out` (none, when the player saw nothing of it). On a rule
    /// error nothing is appended and the writer is unchanged.
    pub fn push(&mut self, index: usize, event: &Event, out: &mut Vec<Event>) -> Result<(), RuleError> {
        each_game!(Run, &mut self.run, r => r.push(index, event, out))
    }
}

fn view_header(header: &Header, side: Color) -> Header {
    // A full log may say so itself with `[Perspective "all"]`: the view's
    // own perspective replaces it, as a header holds each tag once.
    let mut tags: Vec<Tag> = header
        .tags
        .iter()
        .filter(|t| t.name != "Perspective")
        .cloned()
        .collect();
    let at = tags
        .iter()
        .position(|t| t.name == "Rules")
        .map_or(tags.len(), |i| i + 1);
    tags.insert(
        at,
        Tag {
            name: "Perspective".into(),
            value: match side {
                Color::White => "white",
                Color::Black => "black",
            }
            .into(),
        },
    );
    Header { tags }
}
