//! A player's view read on its own into what its player knows, where no
//! full log can stand for it (open-world-chess, [`ViewReplay::Read`]):
//! the game reads its lines ([`ReadView`]), and the shared rules' events
//! (results, resignations, timeouts and their answers, salts) are read
//! here, as every player knows them.

use fgn_notation::{Action, Actor, Color, Event, GameKind, Header, Reason};

use crate::core::error::{Place, RuleError};
use crate::core::progress::{Decision, Phase, Progress};
use crate::core::viewer::Viewer;
use crate::game::{GameView, ReadView, ViewOf, ViewReplay};
use crate::games::{each_game, for_kind, game_enum, map_game};
use crate::ruleset::{Overridden, Params};
use crate::state::{Knowledge, KnownPosition};
use crate::Sessions;
use crate::{Replay, StartError};

use super::ViewError;

/// A game's reading of a view, if its views are read.
type ReadingOf<G> = Option<<ViewOf<G> as GameView<G>>::Reader>;

game_enum! {
    /// The game's reading of the view. Only open-world-chess reads its
    /// views, so its variant is the one that holds anything; a reader is
    /// made once per view, so its size costs nothing worth a box.
    #[derive(Clone, Debug)]
    #[allow(clippy::large_enum_variant)]
    enum Reading(ReadingOf)
}

/// A player's view file read on its own, line by line, into what the
/// player knew after each line: the same [`Knowledge`] that
/// [`Replay::knowledge`] gives for that player at the same point of the
/// full log (docs/notation.md §6.1, "Reading a view alone").
///
/// ```
/// use fgn_notation::{parse, Color};
/// use fgn_replay::{view, ViewReader, Viewer, Replay};
///
/// let full = parse(b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e3\n1 w Ng1-f3\n1 w end\n1 b e7-e6\n").document.game;
/// let white = view(&full, Color::White).unwrap();
/// let (mut reader, _) = ViewReader::new(&white.header, None).unwrap();
/// for (i, event) in white.events.iter().enumerate() {
///     reader.read(i, event).unwrap();
/// }
/// let mut replay = Replay::new(&full.header).unwrap();
/// for event in &full.events {
///     replay.apply(event).unwrap();
/// }
/// assert_eq!(reader.knowledge(), replay.knowledge(Viewer::White));
/// ```
#[derive(Clone, Debug)]
pub struct ViewReader {
    game: GameKind,
    side: Color,
    reading: Reading,
    progress: Progress,
    /// What the player knew at the start, drawn where the game has no
    /// reading (never, once [`ViewReader::new`] has started one).
    start: Knowledge,
}

impl ViewReader {
    /// Starts reading a view whose header is `header` (with its
    /// `Perspective`), under `params` (a rules file's, which win over the
    /// header's tags). A game whose views are replayed as full logs is
    /// not read ([`crate::replayable`]): [`ViewError::NotRead`].
    pub fn new(header: &Header, params: Option<&Params>) -> Result<(ViewReader, Vec<Overridden>), ViewError> {
        let Some(side) = header.perspective() else {
            return Err(ViewError::Start(StartError::Header {
                tag: Some("Perspective".into()),
                error: RuleError::at(
                    Place::Header,
                    crate::Fault::new(crate::Rule::Perspective, "this log is not a player's view"),
                ),
            }));
        };
        let full = Header {
            tags: header
                .tags
                .iter()
                .filter(|t| t.name != "Perspective")
                .cloned()
                .collect(),
        };
        let (replay, overridden) = Replay::with_params(&full, params).map_err(ViewError::Start)?;
        let game = replay.game();
        if for_kind!(game, G => <ViewOf<G> as GameView<G>>::REPLAY) != ViewReplay::Read {
            return Err(ViewError::NotRead(game));
        }
        let start = replay.knowledge(Viewer::of(side));
        let reading = map_game!(Sessions, &replay.sessions, Reading, G, s => ReadView::<G>::start(&s.engine, side));
        let reader = ViewReader {
            game,
            side,
            reading,
            progress: start.progress,
            start,
        };
        Ok((reader, overridden))
    }

    /// Whose view it is.
    pub fn side(&self) -> Color {
        self.side
    }

    /// Reads the view's line `event`, the view's event `index`. An error
    /// (a line that cannot stand where it is) leaves the reading as it was.
    pub fn read(&mut self, index: usize, event: &Event) -> Result<(), RuleError> {
        let mut next = self.clone();
        next.step(event)
            .map_err(|fault| RuleError::at(Place::Event(index), fault))?;
        *self = next;
        Ok(())
    }

    fn step(&mut self, event: &Event) -> Result<(), crate::Fault> {
        let status = &mut self.progress.status;
        match (event.actor, &event.action) {
            (Actor::Player(p), Action::Salt { salt }) => self.progress.salts[p] = Some(**salt),
            (Actor::Player(p), Action::Resign) => {
                *status = Phase::ResultDue(Decision::win(p.opponent(), Reason::Resign))
            }
            (Actor::Player(p), Action::Extra { granted }) => {
                *status = if *granted {
                    Phase::Playing
                } else {
                    Phase::ResultDue(Decision::win(p, Reason::Timeout))
                }
            }
            (Actor::World, Action::Timeout { color }) => *status = Phase::AwaitingExtra { late: *color },
            (Actor::World, Action::Result { outcome, reason }) => {
                *status = Phase::Over(Decision {
                    outcome: *outcome,
                    reason: *reason,
                })
            }
            _ => {}
        }
        each_game!(Reading, &mut self.reading, G, r => {
            if let Some(r) = r {
                ReadView::<G>::read(r, event)?;
            }
        });
        self.progress.last_number = event.n;
        Ok(())
    }

    /// What the player knows after the lines read so far.
    pub fn knowledge(&self) -> Knowledge {
        // A decision the player knows of before the result says it (a king
        // seen dying) is the game's, asked once the view's lines for an
        // event are all read: in between, a line read literally may stand
        // for a half-told event.
        let mut status = self.progress.status;
        if status == Phase::Playing {
            if let Some(d) = each_game!(Reading, &self.reading, G, r => r.as_ref().and_then(ReadView::<G>::decided)) {
                status = Phase::ResultDue(d);
            }
        }
        let decided = matches!(status, Phase::ResultDue(_) | Phase::Over(_));
        let turn = each_game!(Reading, &self.reading, G, r => r.as_ref().map(ReadView::<G>::turn));
        let position = map_game!(Reading, &self.reading, KnownPosition, G, r => match r {
            Some(r) => ReadView::<G>::knowledge(r),
            None => return self.start.clone(),
        });
        Knowledge {
            game: self.game,
            viewer: Viewer::of(self.side),
            progress: Progress {
                turn: if decided { None } else { turn },
                status,
                ..self.progress
            },
            position,
        }
    }
}
