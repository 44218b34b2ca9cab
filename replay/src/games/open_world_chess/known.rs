//! A player's view of open-world-chess read on its own into what the
//! player knows (docs/notation.md §6.1, "Reading a view alone"): the
//! board, its own pieces, coins and move under way from the view's lines
//! as `told` reads them, and the turn from the view's player events, each
//! counted as the player counts it (an opponent's move as played at its
//! line, whatever the world still owes it). No full log stands behind the
//! view: what the player did not see is not needed, because the view
//! records every change of what the player knows.

use fgn_notation::{Action, Actor, ByColor, Color, Event, Item, MoveNumber, PieceKind, Square};

use super::engine::OpenWorld;
use super::sight::start_told;
use super::state::{KnownPiece, KnownSquare, OpenWorldKnowledge, PieceState, Public};
use super::told::{Told, ToldPiece};
use crate::changes::values::MovingPiece;
use crate::core::error::Fault;
use crate::core::progress::{turn_after, Decision, Turn};
use crate::core::viewer::Viewer;
use crate::game::ReadView;

/// The turn's counters as the player knows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counters {
    side: Color,
    number: MoveNumber,
    moves_left: u32,
    curses: ByColor<u32>,
    /// The player's own shop, open after its move ended on a merchant.
    shop_open: bool,
    /// The player's purchases after its turn's last move, with that turn's number.
    late_shop: Option<MoveNumber>,
}

/// A view of open-world-chess read so far.
#[derive(Clone, Debug)]
pub struct Known {
    told: Told,
    public: Public,
    moves_per_turn: u32,
    counters: Counters,
    /// The counters before the opponent's last move, which counted it as
    /// played: where that move decided the game, the turn stands as it
    /// was before it (nothing further happens once a king dies).
    before_opponent_move: Option<Counters>,
    /// The square of the opponent's king that the player's last move
    /// attacked (the view's reading of the move put the attacker there).
    king_attacked: Option<Square>,
    /// The opponent's king just moved to this square, and whether the
    /// world's damage roll of that move was seen: where the king vanishes
    /// from its target, the player knows of its death only if it saw it
    /// die.
    king_moved: Option<(Square, bool)>,
    /// The opponent's king was seen dying.
    enemy_king_died: bool,
}

impl Known {
    fn side(&self) -> Color {
        self.told.side
    }

    /// The player's own move is over once no outcome is owed to it: its
    /// piece has landed (or died), a move is spent, and with the turn's
    /// last move the turn passes (to a late shop if it landed on a
    /// merchant).
    fn finish_own_move(&mut self) {
        let Some(mv) = self.told.moving else { return };
        if mv.held.is_some() || self.decided_now().is_some() {
            return;
        }
        self.told.moving = None;
        let side = self.side();
        let landed = self
            .told
            .index(mv.to)
            .and_then(|i| self.told.spots[i])
            .and_then(|s| s.piece)
            .is_some_and(|p| p.color == side);
        let c = &mut self.counters;
        c.moves_left = c.moves_left.saturating_sub(1);
        c.shop_open = landed && self.public.merchants.contains(&mv.to);
        if c.moves_left == 0 {
            let late = c.shop_open.then_some(c.number);
            self.close_turn();
            self.counters.late_shop = late;
        }
    }

    fn close_turn(&mut self) {
        let moves_per_turn = self.moves_per_turn;
        let c = &mut self.counters;
        if let Some(Turn::Move { side, number }) = turn_after(c.side, c.number) {
            c.side = side;
            c.number = number;
            let curses = std::mem::take(&mut c.curses[side]);
            c.moves_left = moves_per_turn.saturating_sub(curses).max(1);
        }
        c.shop_open = false;
    }

    fn read_own(&mut self, action: &Action) -> Result<(), Fault> {
        let side = self.side();
        if let (Some(_), Action::Buy { item, .. }) = (self.counters.late_shop, action) {
            // A purchase after the turn's last move: a curse shortens the
            // opponent's turn, which has begun but not been played.
            if *item == Item::Curse {
                self.counters.moves_left = self.counters.moves_left.saturating_sub(1).max(1);
            }
            return Ok(());
        }
        self.counters.late_shop = None;
        if self.counters.side != side {
            return Err(Fault::new(
                crate::core::error::Rule::Turn,
                format!("it is {}'s turn", self.counters.side.name()),
            ));
        }
        match action {
            Action::Move(_) => self.counters.shop_open = false,
            Action::End => {
                self.counters.moves_left = 0;
                self.close_turn();
            }
            Action::Buy { item: Item::Curse, .. } => self.counters.curses[side.opponent()] += 1,
            Action::Buy { .. } => {}
            _ => self.counters.shop_open = false,
        }
        Ok(())
    }

    fn read_opponent(&mut self, action: &Action) {
        let side = self.side();
        self.before_opponent_move = None;
        self.counters.late_shop = None;
        if self.counters.side == side {
            // The opponent acts in the player's turn only to buy after its
            // own turn's last move.
            if let Action::Buy { item: Item::Curse, .. } = action {
                self.counters.moves_left = self.counters.moves_left.saturating_sub(1).max(1);
            }
            return;
        }
        match action {
            Action::Move(_) | Action::Hidden => {
                self.before_opponent_move = Some(self.counters);
                self.counters.moves_left = self.counters.moves_left.saturating_sub(1);
                if self.counters.moves_left == 0 {
                    self.close_turn();
                }
            }
            Action::End => self.close_turn(),
            Action::Buy { item: Item::Curse, .. } => self.counters.curses[side] += 1,
            _ => {}
        }
    }

    /// The decision the player knows of: its own king gone (its pieces
    /// are always in sight, and a king off the board on its path is alive
    /// while it has HP), or the opponent's king seen dying.
    fn decided_now(&self) -> Option<Decision> {
        let side = self.side();
        let king = |p: &ToldPiece| p.color == side && p.kind == PieceKind::King;
        let on_board = self
            .told
            .spots
            .iter()
            .flatten()
            .filter_map(|s| s.piece)
            .any(|p| king(&p));
        let on_path = self
            .told
            .moving
            .is_some_and(|mv| mv.lifted() && king(&mv.piece) && mv.piece.hp > 0);
        // The player's own attack on the opponent's king took the square:
        // the king died (with equal HP the attacker keeps 1, which the
        // view need not observe).
        let king_taken = self.king_attacked.is_some_and(|sq| {
            let at = self
                .told
                .index(sq)
                .and_then(|i| self.told.spots[i])
                .and_then(|s| s.piece);
            at.is_some_and(|p| p.color == side) && self.told.moving.is_none_or(|mv| mv.held.is_none())
        });
        let winner = if !on_board && !on_path {
            side.opponent()
        } else if self.enemy_king_died || king_taken {
            side
        } else {
            return None;
        };
        Some(Decision::win(winner, fgn_notation::Reason::KingKilled))
    }

    /// Before a line that is not one the view adds to an event: the
    /// player's move that the world owes nothing more is over; once a king
    /// has died nothing further happens, and an opponent's move that killed
    /// it was not counted as played.
    fn settle(&mut self) {
        if self.decided_now().is_some() {
            if let Some(before) = self.before_opponent_move.take() {
                self.counters = before;
            }
            return;
        }
        self.finish_own_move();
    }

    /// An observation of `square`, which showed `before`: where the
    /// opponent's king stood there (or was attacked there) and is seen
    /// gone, it died, and the player knows it if it saw it die.
    fn watch_enemy_king(&mut self, square: Square, before: Option<ToldPiece>, now: Option<ToldPiece>, hidden: bool) {
        let side = self.side();
        let enemy_king = |p: Option<ToldPiece>| p.is_some_and(|p| p.color != side && p.kind == PieceKind::King);
        let moved_here = self.king_moved.is_some_and(|(to, _)| to == square);
        if hidden || enemy_king(now) || !(enemy_king(before) || self.king_attacked == Some(square) || moved_here) {
            return;
        }
        // It had just moved here: it died here attacking one of the
        // player's pieces, or on its way where the player saw the roll; on
        // its way unseen, the player does not know. Anywhere else it died
        // where it stood, in sight.
        let known = match self.king_moved {
            Some((to, damage_seen)) if to == square => damage_seen || now.is_some_and(|p| p.color == side),
            _ => true,
        };
        if known {
            self.enemy_king_died = true;
        }
    }
}

impl ReadView<OpenWorld> for Known {
    fn start(game: &OpenWorld, side: Color) -> Option<Known> {
        let knowledge = game.knowledge_now(Viewer::of(side));
        let public = knowledge.public;
        let counters = Counters {
            side: public.side,
            number: public.turn,
            moves_left: public.moves_left,
            curses: public.curses,
            shop_open: false,
            late_shop: None,
        };
        Some(Known {
            told: start_told(game, side),
            public,
            moves_per_turn: u32::from(game.rules.moves_per_turn),
            counters,
            before_opponent_move: None,
            king_attacked: None,
            king_moved: None,
            enemy_king_died: false,
        })
    }

    fn read(&mut self, event: &Event) -> Result<(), Fault> {
        let side = self.side();
        let added = matches!(
            (event.actor, &event.action),
            (
                Actor::World,
                Action::See { .. } | Action::Coins { .. } | Action::Held { .. }
            )
        );
        if !added {
            self.settle();
        }
        match (event.actor, &event.action) {
            (Actor::Player(_), Action::Chat { .. } | Action::Salt { .. }) => return Ok(()),
            // The shared rules' events that end a turn still open to
            // purchases after its last move.
            (Actor::Player(_), Action::Resign | Action::Extra { .. })
            | (Actor::World, Action::Timeout { .. } | Action::Result { .. }) => {
                self.counters.late_shop = None;
                return Ok(());
            }
            (Actor::Player(p), action) if p == side => {
                self.before_opponent_move = None;
                self.king_moved = None;
                self.king_attacked = match action {
                    Action::Move(m) => m.to.filter(|&to| {
                        let at = self
                            .told
                            .index(to)
                            .and_then(|i| self.told.spots[i])
                            .and_then(|s| s.piece);
                        at.is_some_and(|p| p.color != side && p.kind == PieceKind::King)
                    }),
                    _ => None,
                };
                self.read_own(action)?;
            }
            (Actor::Player(_), action) => {
                self.king_attacked = None;
                self.king_moved = match action {
                    Action::Move(m) if m.piece == PieceKind::King => m.to.map(|to| (to, false)),
                    _ => None,
                };
                self.read_opponent(action);
            }
            (Actor::World, Action::Damage { .. }) => {
                if let Some((_, seen)) = self.king_moved.as_mut() {
                    *seen = true;
                }
            }
            (
                Actor::World,
                Action::See {
                    square, piece, hidden, ..
                },
            ) => {
                let before = self
                    .told
                    .index(*square)
                    .and_then(|i| self.told.spots[i])
                    .and_then(|s| s.piece);
                // The opponent's king shown on the target of the player's
                // move under way: the move attacks it.
                let king_shown = piece.is_some_and(|p| p.color != side && p.piece == PieceKind::King);
                if king_shown && self.told.moving.is_some_and(|mv| mv.to == *square) {
                    self.king_attacked = Some(*square);
                }
                let now = piece.map(|p| ToldPiece {
                    color: p.color,
                    kind: p.piece,
                    hp: p.hp,
                    max: p.max,
                    range: false,
                });
                self.watch_enemy_king(*square, before, now, *hidden);
            }
            _ => {}
        }
        self.told.read(event.actor, &event.action);
        Ok(())
    }

    fn knowledge(&self) -> OpenWorldKnowledge {
        let mut known = self.clone();
        known.settle();
        let side = known.side();
        let c = known.counters;
        let mut public = known.public.clone();
        public.side = c.side;
        public.turn = c.number;
        public.moves_left = c.moves_left;
        public.curses = c.curses;
        public.shop = (c.shop_open && c.side == side).then_some(side);
        public.late_shop = c.late_shop.map(|_| side);
        let mut seen = Vec::new();
        let mut own = Vec::new();
        for (i, spot) in known.told.spots.iter().enumerate() {
            let Some(spot) = spot else { continue };
            let Some(square) = square_at(&known, i) else { continue };
            let enemy = spot.piece.filter(|p| p.color != side);
            seen.push(KnownSquare {
                square,
                object: spot.object,
                enemy: enemy.map(|p| KnownPiece {
                    color: p.color,
                    piece: p.kind,
                    hp: p.hp,
                }),
            });
            if let Some(p) = spot.piece.filter(|p| p.color == side) {
                own.push(PieceState {
                    square,
                    color: p.color,
                    piece: p.kind,
                    hp: p.hp,
                    max_hp: p.max.unwrap_or(p.hp),
                    range: p.range,
                });
            }
        }
        let moving = known.told.moving.filter(|mv| mv.lifted()).map(|mv| MovingPiece {
            to: mv.to,
            color: mv.piece.color,
            piece: mv.piece.kind,
            hp: mv.piece.hp,
            max_hp: mv.piece.max.unwrap_or(mv.piece.hp),
            range: mv.piece.range,
            path: mv.path_left(),
            promotion: mv.promotion,
        });
        OpenWorldKnowledge {
            viewer: Viewer::of(side),
            public,
            seen,
            own,
            moving,
            coins: Some(u32::try_from(known.told.coins).unwrap_or(u32::MAX)),
        }
    }

    fn turn(&self) -> Turn {
        let mut known = self.clone();
        known.settle();
        Turn::Move {
            side: known.counters.side,
            number: known.counters.number,
        }
    }

    fn decided(&self) -> Option<Decision> {
        self.decided_now()
    }
}

/// The square of `spots[i]` on the view's board.
fn square_at(known: &Known, i: usize) -> Option<Square> {
    let files = usize::from(known.public.board.0.files);
    let f = u8::try_from(i % files).ok()?;
    let r = u8::try_from(i / files).ok()?;
    Square::new(f, r)
}
