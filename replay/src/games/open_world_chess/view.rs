//! A player's view of open-world-chess (docs/notation.md §6.1): the squares a player
//! sees, the opponent's moves with their unseen squares as `?`, and `@ see`
//! observations wherever what the view has said so far is not what the
//! player sees, `@ see SQUARE ?` where a square goes out of sight, the
//! player's coins (`@ coins`) and the outcomes its own move waits for
//! (`@ held`): every change of what the player knows, so that the view
//! can be replayed on its own (`known`).

use fgn_notation::{Action, Actor, ChessMove, Color, Event, PieceKind, Square};

use super::engine::OpenWorld;
use super::sight::{content, held, sees, start_told};
use super::told::{Spot, Told, ToldPiece};
use crate::core::progress::Turn;
use crate::game::{leaves_position, GameView, ViewReplay};

/// What the view has told its player.
#[derive(Clone, Debug)]
pub struct Fog {
    /// The view's lines so far, read literally: what they say of each
    /// square in sight, of the player's coins and of its move under way.
    told: Told,
    /// The squares in sight when the view last observed: what happens on
    /// them is seen happening, even when it puts them out of sight.
    watched: Vec<bool>,
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
    /// The opponent's king that the player's own move attacks, as it
    /// stood: where the attack kills it, the player sees it die.
    king_attacked: Option<(Square, Spot)>,
}

impl GameView<OpenWorld> for Fog {
    type Before = Before;
    type Reader = super::known::Known;

    const REPLAY: ViewReplay = ViewReplay::Read;

    /// The view at the start: the player knows the starting position, so
    /// what it sees of it needs no observation.
    fn new(engine: &OpenWorld, side: Color) -> Fog {
        let told = start_told(engine, side);
        let watched = told.spots.iter().map(Option::is_some).collect();
        Fog { told, watched }
    }

    fn before(&self, engine: &OpenWorld, event: &Event) -> Before {
        let side = self.told.side;
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
        // The target of the player's own move: the move's, or that of the
        // move under way that the event's outcome lets go on.
        let target = match (&event.action, event.actor) {
            (Action::Move(m), Actor::Player(p)) if p == side => m.to,
            _ => engine.moving_to().filter(|_| engine.moving_color() == Some(side)),
        };
        let king_attacked = target.and_then(|to| {
            engine
                .piece(to)
                .filter(|u| u.color != side && u.kind == PieceKind::King)?;
            Some((to, content(engine, side, to)))
        });
        Before {
            seen: (seen(a), seen(b)),
            mover,
            canonical,
            king_attacked,
        }
    }

    /// The event as the player could know it (if at all), then what it
    /// changed of what the player knows: the outcome its own move now
    /// waits for, the squares whose content differs from what the view
    /// has told (coming into sight too), the squares going out of sight,
    /// and its coins.
    fn after(&mut self, engine: &OpenWorld, event: &Event, before: Before, out: &mut Vec<Event>) {
        let side = self.told.side;
        let (a, b) = named_squares(&event.action);
        let seen = |sq: Option<Square>| sq.is_some_and(|sq| sees(engine, side, sq));
        let Before {
            seen: before,
            mover,
            canonical,
            king_attacked,
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
        // The opponent's king killed by the player's own attack on a
        // square out of its sight: the player sees it die there, so the
        // view first shows it as the attacker found it.
        if let Some((square, spot)) = king_attacked {
            let unseen = self.told.index(square).and_then(|i| self.told.spots[i]) != Some(spot);
            if unseen && engine.fallen() == Some((side.opponent(), square)) {
                let see = Action::See {
                    square,
                    piece: spot.piece.map(ToldPiece::seen),
                    object: spot.object,
                    hidden: false,
                };
                self.told.read(Actor::World, &see);
                out.push(Event {
                    n: event.n,
                    actor: Actor::World,
                    action: see,
                    clock_ms: None,
                });
            }
        }
        if let Some(action) = action {
            self.told.read(event.actor, &action);
            out.push(Event {
                action,
                ..event.clone()
            });
        }
        // A chat or a salt leaves the world as the last look at the board
        // found it (that look ran after the event before, or at the start),
        // so looking again would find nothing new: skipped, it no longer
        // costs every square of the board per chat line (issue 36).
        if leaves_position(event) {
            return;
        }
        // The lines the view adds carry the event's move number and no clock.
        let mut tell = |told: &mut Told, action: Action| {
            told.read(Actor::World, &action);
            out.push(Event {
                n: event.n,
                actor: Actor::World,
                action,
                clock_ms: None,
            });
        };
        // The player's own move waits for the world: where, so that a view
        // replayed alone knows the move is not over (and, on the path,
        // that the piece is off the board).
        if let Some(square) = held(engine, side) {
            if self.told.moving.and_then(|mv| mv.held) != Some(square) {
                tell(&mut self.told, Action::Held { square });
            }
        }
        for (i, sq) in engine.squares().enumerate() {
            let in_sight = sees(engine, side, sq);
            let now = content(engine, side, sq);
            let told = self.told.spots[i];
            let see = |now: Spot, hidden: bool| Action::See {
                square: sq,
                piece: now.piece.map(ToldPiece::seen).filter(|_| !hidden),
                object: now.object.filter(|_| !hidden),
                hidden,
            };
            if in_sight {
                if told != Some(now) {
                    tell(&mut self.told, see(now, false));
                }
            } else {
                // A square watched before the event shows what the event
                // did to it even as it goes out of sight (a piece of the
                // player's killed far from the others, an object vanishing
                // with the fog); then it is out of sight, and the view says
                // nothing more of it until it comes into sight again.
                if self.watched[i] && told.is_some_and(|t| t != now) {
                    tell(&mut self.told, see(now, false));
                }
                if self.told.spots[i].is_some() {
                    tell(&mut self.told, see(now, true));
                }
            }
            self.watched[i] = in_sight;
        }
        let coins = u64::from(engine.coins(side));
        if self.told.coins != coins {
            tell(&mut self.told, Action::Coins { count: coins });
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
