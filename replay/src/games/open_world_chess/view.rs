//! A player's view of open-world-chess (docs/notation.md §6.1): the squares a player
//! sees, the opponent's moves with their unseen squares as `?`, and `@ see`
//! observations wherever what the view has said so far is not what the
//! player sees.

use fgn_notation::{Action, Actor, ChessMove, Color, Event, ObjectKind, SeenPiece, Square};

use super::engine::OpenWorld;
use crate::core::progress::Turn;
use crate::game::{leaves_position, GameView, ViewReplay};

/// What the view says of one square: the piece on it and the object.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Seen {
    piece: Option<SeenPiece>,
    object: Option<ObjectKind>,
}

/// What the view has told its player.
#[derive(Clone, Debug)]
pub struct Fog {
    side: Color,
    /// For each square the player sees, what the view has said of it (the
    /// observations and the literal reading of the lines since); `None`
    /// for a square out of sight, of which the view says nothing now.
    told: Vec<Option<Seen>>,
    /// The squares in sight when the view last observed: what happens on
    /// them is seen happening, even when it puts them out of sight.
    watched: Vec<bool>,
}

/// The position of `sq` in `told` and `watched`; none for a square off the
/// board, which a log may name (the rules refuse the event, but the view
/// reads its squares too).
fn cell_index(engine: &OpenWorld, sq: Square) -> Option<usize> {
    let (files, ranks) = engine.size();
    (sq.file_index() < files && sq.rank_index() < ranks)
        .then(|| usize::from(sq.rank_index()) * usize::from(files) + usize::from(sq.file_index()))
}

/// Whether `side` sees `sq`: in sight by the rules, or holding one of its
/// own pieces (known wherever they stand).
fn sees(engine: &OpenWorld, side: Color, sq: Square) -> bool {
    engine.piece(sq).is_some_and(|u| u.color == side) || engine.sees(side, sq)
}

fn content(engine: &OpenWorld, sq: Square) -> Seen {
    Seen {
        piece: engine.piece(sq).map(|u| SeenPiece {
            color: u.color,
            piece: u.kind,
            hp: u.hp,
        }),
        object: engine.cell(sq).object,
    }
}

/// What the view notes of the game before an event: whether the player
/// saw the event's two named squares, whose turn it was, and the move as
/// canonical FGN writes it (the promotion piece filled in), as the engine
/// reads it before it is played.
#[derive(Debug)]
pub struct Before {
    seen: (bool, bool),
    mover: Option<Color>,
    canonical: Option<ChessMove>,
}

impl GameView<OpenWorld> for Fog {
    type Before = Before;

    const REPLAY: ViewReplay = ViewReplay::Never;

    /// The view at the start: the player knows the starting position, so
    /// what it sees of it needs no observation.
    fn new(engine: &OpenWorld, side: Color) -> Fog {
        let told: Vec<Option<Seen>> = engine
            .squares()
            .map(|sq| sees(engine, side, sq).then(|| content(engine, sq)))
            .collect();
        let watched = told.iter().map(Option::is_some).collect();
        Fog { side, told, watched }
    }

    fn before(&self, engine: &OpenWorld, event: &Event) -> Before {
        let side = self.side;
        let (a, b) = named_squares(&event.action);
        let seen = |sq: Option<Square>| sq.is_some_and(|sq| sees(engine, side, sq));
        let mover = match engine.turn_now() {
            Turn::Move { side, .. } => Some(side),
            Turn::Setup { .. } => None,
        };
        let canonical = match (&event.action, event.actor) {
            (Action::Move(m), Actor::Player(p)) => engine.canonical_move(p, m).or(Some(*m)),
            _ => None,
        };
        Before {
            seen: (seen(a), seen(b)),
            mover,
            canonical,
        }
    }

    /// The event as the player could know it (if at all), then the
    /// observations it calls for.
    fn after(&mut self, engine: &OpenWorld, event: &Event, before: Before, out: &mut Vec<Event>) {
        let side = self.side;
        let (a, b) = named_squares(&event.action);
        let seen = |sq: Option<Square>| sq.is_some_and(|sq| sees(engine, side, sq));
        let Before {
            seen: before,
            mover,
            canonical,
        } = before;
        // A square counts as seen by the event when the player saw it just
        // before or just after: a move into a square it lights is seen
        // arriving, an attack on a piece that dies is seen happening.
        let first = before.0 || seen(a);
        let second = before.1 || seen(b);
        let opponent = event.actor == Actor::Player(side.opponent());
        let action = match &event.action {
            // The seed would tell every outcome not yet rolled.
            Action::Seed { .. } => None,
            Action::Spawn { .. } | Action::Clone { .. } => first.then(|| event.action.clone()),
            // A damage roll against the player's own moving piece is known
            // to it wherever it happens.
            Action::Damage { .. } => (first || mover == Some(side)).then(|| event.action.clone()),
            Action::Move(_) if opponent => canonical.map(|m| opponent_move(m, first, second)),
            Action::Move(_) => canonical.map(Action::Move),
            Action::Buy {
                item, square: Some(_), ..
            } if opponent && !first => Some(Action::Buy {
                item: *item,
                square: None,
                hidden: true,
            }),
            other => Some(other.clone()),
        };
        if let Some(action) = action {
            self.read(engine, &action);
            out.push(Event {
                action,
                ..event.clone()
            });
        }
        // While the world still owes an outcome of a move (a damage roll, a
        // clone's square) the move is not over: what it changes is observed
        // once it is, so that no half-made move shows.
        if engine.owed().is_some() {
            return;
        }
        // A chat or a salt leaves the world as the last look at the board
        // found it (that look ran after the event before, or at the start),
        // so looking again would find nothing new: skipped, it no longer
        // costs every square of the board per chat line (issue 36).
        if leaves_position(event) {
            return;
        }
        for (i, sq) in engine.squares().enumerate() {
            let in_sight = sees(engine, side, sq);
            let now = content(engine, sq);
            // A square watched before the event shows what the event did to
            // it even as it goes out of sight (a piece of the player's
            // killed far from the others, an object vanishing with the fog);
            // after that the view says nothing more of it.
            if (in_sight || self.watched[i]) && self.told[i] != Some(now) {
                out.push(Event {
                    n: event.n,
                    actor: Actor::World,
                    action: Action::See {
                        square: sq,
                        piece: now.piece,
                        object: now.object,
                    },
                    clock_ms: None,
                });
            }
            self.told[i] = in_sight.then_some(now);
            self.watched[i] = in_sight;
        }
    }
}

impl Fog {
    /// Reads a line of the view literally, as its player does: a move takes
    /// the piece as last told, HP and all, from its square to the other
    /// (promoted if it says so), onto whatever object was there; a piece
    /// out of the fog is not known until it is observed; a spawn puts its
    /// object down. Everything else (combat, pick-ups, damage, purchases,
    /// clones) shows in the observations that follow.
    fn read(&mut self, engine: &OpenWorld, action: &Action) {
        match action {
            Action::Move(m) => {
                let from = m.from.and_then(|sq| cell_index(engine, sq));
                let piece = from.and_then(|i| self.told[i]).and_then(|s| s.piece);
                if let Some(s) = from.and_then(|i| self.told[i].as_mut()) {
                    s.piece = None;
                }
                if let Some(to) = m.to.and_then(|sq| cell_index(engine, sq)) {
                    self.told[to] = match (self.told[to], piece) {
                        (Some(s), Some(p)) => Some(Seen {
                            piece: Some(SeenPiece {
                                piece: m.promotion.unwrap_or(p.piece),
                                ..p
                            }),
                            object: s.object,
                        }),
                        _ => None,
                    };
                }
            }
            Action::Spawn { square, object } => {
                if let Some(s) = cell_index(engine, *square).and_then(|i| self.told[i].as_mut()) {
                    s.object = Some(*object);
                }
            }
            _ => {}
        }
    }
}

/// The squares an event names whose sight decides how it is shown: a
/// move's two squares, a purchase's target, a world event's square.
fn named_squares(action: &Action) -> (Option<Square>, Option<Square>) {
    match action {
        Action::Move(m) => (m.from, m.to),
        Action::Buy { square, .. } => (*square, None),
        Action::Spawn { square, .. } | Action::Damage { square, .. } | Action::Clone { square } => {
            (Some(*square), None)
        }
        _ => (None, None),
    }
}

/// An opponent's move with what the player saw of it: both squares, one
/// (with the letter of the piece seen, and `-?` into the fog whatever was
/// there), or nothing (`?`: the move happened, which is turn structure).
fn opponent_move(m: ChessMove, from: bool, to: bool) -> Action {
    match (from, to) {
        (true, true) => Action::Move(m),
        (true, false) => Action::Move(ChessMove {
            to: None,
            capture: false,
            promotion: None,
            check: None,
            ..m
        }),
        (false, true) => Action::Move(ChessMove {
            from: None,
            check: None,
            ..m
        }),
        (false, false) => Action::Hidden,
    }
}
