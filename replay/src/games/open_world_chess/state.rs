//! The values of the open-world-chess game API: the canonical state, what
//! each viewer knows of it (RULES.md, "What a player sees") and of the
//! turn, and the referee's list of the actions the rules allow now.

use crate::changes::values::{MovingPiece, OwedOutcome};
use fgn_notation::{Action, Actor, ByColor, ChessMove, Color, Event, Item, MoveNumber, ObjectKind, PieceKind, Square};
use serde::Serialize;

use super::engine::{OpenWorld, Owed, Unit};
use crate::core::params::Board;
use crate::core::progress::{Phase, Progress, Turn};
use crate::core::viewer::Viewer;

/// What everyone knows of an open-world-chess game: the map and the
/// public counters (RULES.md: merchants always; curses, the turn, moves
/// left and the shop follow from public events).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Public {
    /// The board size (`"8x8"`).
    pub board: Board,
    /// The merchant squares.
    pub merchants: Vec<Square>,
    /// The curses each side has still to suffer (moves taken off its next turn).
    pub curses: ByColor<u32>,
    /// The full-move number of the turn.
    pub turn: MoveNumber,
    /// The side to move.
    pub side: Color,
    /// Moves left in the turn.
    pub moves_left: u32,
    /// The side that may buy right after its move, if the shop is open.
    pub shop: Option<Color>,
    /// The side that may still buy after its turn's last move, if any.
    pub late_shop: Option<Color>,
}

/// The canonical state of an open-world-chess game: the position and the
/// counters, with every list in square order (rank 1 first, files a..
/// within a rank), so that equal positions are equal values.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct OpenWorldState {
    /// The map and the public counters.
    pub public: Public,
    /// Every piece on the board.
    pub pieces: Vec<PieceState>,
    /// Every lit square (the others are fogged).
    pub lit: Vec<LitSquare>,
    /// Each side's coins.
    pub coins: ByColor<u32>,
    /// The outcome the world owes before anything else may happen.
    pub owed: Option<OwedOutcome>,
    /// The squares that may still get a `@ spawn`.
    pub spawnable: Vec<Square>,
}

/// A piece with everything about it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PieceState {
    /// Where it stands.
    pub square: Square,
    /// Whose it is.
    pub color: Color,
    /// Which piece (its letter).
    pub piece: PieceKind,
    /// Hit points.
    pub hp: u64,
    /// Maximum hit points.
    pub max_hp: u64,
    /// Whether it has the shop's range upgrade.
    pub range: bool,
}

/// A lit square.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LitSquare {
    /// Which square.
    pub square: Square,
    /// Turns since it was last lit.
    pub age: u8,
    /// Whether it was lit during the current turn (it does not age at its end).
    pub lit_this_turn: bool,
    /// The object lying there.
    pub object: Option<ObjectKind>,
}

/// What one viewer knows of an open-world-chess game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct OpenWorldKnowledge {
    /// Whose knowledge.
    pub viewer: Viewer,
    /// The map and the public counters.
    pub public: Public,
    /// The squares the viewer sees (lit and within the light radius of one
    /// of its pieces), with their object and any enemy piece.
    pub seen: Vec<KnownSquare>,
    /// The viewer's own pieces, wherever they stand.
    pub own: Vec<PieceState>,
    /// The viewer's piece of a move held on its path by a damage roll the
    /// world owes ([`OwedOutcome::Damage`] with `on_path`): off the board
    /// until the roll lets the move go on, so not in `own`. Left out
    /// otherwise (a piece waiting at its target stands there, in `own`),
    /// and for the other player, who knows of it only what its squares
    /// show; so every other knowledge serialises and hashes as before the
    /// field existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moving: Option<MovingPiece>,
    /// The viewer's coins (`None` for everyone: a side's coins are its own).
    pub coins: Option<u32>,
}

/// A square a viewer sees.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct KnownSquare {
    /// Which square.
    pub square: Square,
    /// The object lying there.
    pub object: Option<ObjectKind>,
    /// An enemy piece standing there (own pieces are in [`OpenWorldKnowledge::own`]).
    pub enemy: Option<KnownPiece>,
}

/// An enemy piece as a player sees it: its type and HP, not its maximum
/// or upgrades (docs/rules.md).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct KnownPiece {
    /// Whose it is.
    pub color: Color,
    /// Which piece.
    pub piece: PieceKind,
    /// Hit points.
    pub hp: u64,
}

fn piece_state(square: Square, u: Unit) -> PieceState {
    PieceState {
        square,
        color: u.color,
        piece: u.kind,
        hp: u.hp,
        max_hp: u.max,
        range: u.range,
    }
}

impl OpenWorld {
    /// The map and the public counters.
    fn public(&self) -> Public {
        let (side, turn) = self.current();
        Public {
            board: self.rules.board,
            merchants: self.squares().filter(|&sq| self.cell(sq).merchant).collect(),
            curses: self.world.curses,
            turn,
            side,
            moves_left: self.world.moves_left,
            shop: self.world.shop_open.then_some(side),
            late_shop: self.world.late_shop.map(|(buyer, _)| buyer),
        }
    }

    /// The public counters as `viewer` knows them. The side to move knows
    /// its own turn as it stands. Anyone else knows of the mover's moves
    /// only that they were made (a move in the fog shows as `?`): not
    /// whether the last one ended on a merchant, so not whether the mover
    /// may buy, nor whether the world still owes an outcome of a move
    /// (a damage roll or a clone out of sight), nor whether a king died
    /// of such a roll ([`Self::knows_decision`]). So for them a move in
    /// transit, or one that killed a king unseen, counts as played, as it
    /// would once the world had answered: one move fewer left, and after
    /// the turn's last move the opponent's turn (curses taken off),
    /// whichever way the roll goes. The shops are known to their buyer
    /// only.
    fn known_public(&self, viewer: Viewer) -> Public {
        let mut public = self.public();
        let buyer_only = |shop: Option<Color>| shop.filter(|&buyer| viewer.is(buyer));
        public.shop = buyer_only(public.shop);
        public.late_shop = buyer_only(public.late_shop);
        let mover = public.side;
        let pending = self.world.transit.is_some() || (self.world.decided && !self.knows_decision(viewer));
        if viewer.is(mover) || !pending {
            return public;
        }
        public.moves_left = public.moves_left.saturating_sub(1);
        if public.moves_left == 0 {
            if let Some(Turn::Move { side, number }) = crate::core::progress::turn_after(mover, public.turn) {
                public.side = side;
                public.turn = number;
                public.moves_left = u32::from(self.rules.moves_per_turn)
                    .saturating_sub(public.curses[side])
                    .max(1);
                public.curses[side] = 0;
            }
        }
        public
    }

    /// Whether `viewer` knows that a king has died and the game is decided
    /// (before the result, which is public, says so): the king's owner
    /// does (its own pieces are known wherever they stand), and anyone who
    /// sees the square it died on, or stands there. A king that dies of a
    /// damage roll in the fog dies unseen by the opponent, who knows only
    /// that a move was made; everyone knows what both players know.
    fn knows_decision(&self, viewer: Viewer) -> bool {
        let Some((owner, square)) = self.world.fallen else {
            return true;
        };
        let witness = |side: Color| {
            side == owner || self.sees(side, square) || self.piece(square).is_some_and(|u| u.color == side)
        };
        match viewer.color() {
            Some(side) => witness(side),
            None => witness(owner.opponent()),
        }
    }

    /// The piece of the move in transit, as the move carries it: off the
    /// board while a damage roll on its path is owed ([`Self::lifted_piece`]),
    /// standing at its target while a roll or a clone is owed there.
    fn moving_piece(&self) -> Option<MovingPiece> {
        let t = self.world.transit.as_ref()?;
        Some(MovingPiece {
            to: t.to,
            color: t.unit.color,
            piece: t.unit.kind,
            hp: t.unit.hp,
            max_hp: t.unit.max,
            range: t.unit.range,
            path: t.path.squares().skip(t.next).collect(),
            promotion: t.promotion,
        })
    }

    /// The piece of a move held on its path by a damage roll the world
    /// owes: the one time a piece is on no square. (A roll or a clone owed
    /// at the target finds the piece standing there.)
    fn lifted_piece(&self) -> Option<MovingPiece> {
        match self.world.owed {
            Some(Owed::Damage { on_path: true, .. }) => self.moving_piece(),
            _ => None,
        }
    }

    fn owed_outcome(&self) -> Option<OwedOutcome> {
        let moving = self.moving_piece()?;
        match self.world.owed.as_ref()? {
            Owed::Damage { square, on_path } => Some(OwedOutcome::Damage {
                square: *square,
                on_path: *on_path,
                moving,
            }),
            Owed::Clone { object, candidates } => Some(OwedOutcome::Clone {
                square: *object,
                candidates: candidates.clone(),
                moving,
            }),
        }
    }

    /// Every purchase `buyer` can make now (it has the coins; the shop is
    /// its), carrying move number `n`.
    fn purchases(&self, buyer: Color, n: MoveNumber, out: &mut Vec<Event>) {
        if self.coins(buyer) < self.rules.shop_price {
            return;
        }
        let mut push = |item: Item, square: Option<Square>| {
            out.push(Event {
                n,
                actor: Actor::Player(buyer),
                action: Action::Buy {
                    item,
                    square,
                    hidden: false,
                },
                clock_ms: None,
            });
        };
        for sq in self.squares() {
            let Some(u) = self.piece(sq) else { continue };
            if u.color == buyer {
                if matches!(u.kind, PieceKind::Pawn | PieceKind::King) && !u.range {
                    push(Item::Range, Some(sq));
                }
                push(Item::Hp, Some(sq));
            } else if self.sees(buyer, sq) {
                push(Item::Drain, Some(sq));
            }
        }
        push(Item::Curse, None);
    }
}

impl OpenWorld {
    pub(super) fn state_now(&self) -> OpenWorldState {
        OpenWorldState {
            public: self.public(),
            pieces: self
                .squares()
                .filter_map(|sq| self.piece(sq).map(|u| piece_state(sq, u)))
                .collect(),
            lit: self
                .squares()
                .filter_map(|sq| {
                    let c = self.cell(sq);
                    c.lit.then_some(LitSquare {
                        square: sq,
                        age: c.age,
                        lit_this_turn: c.fresh,
                        object: c.object,
                    })
                })
                .collect(),
            coins: self.world.coins,
            owed: self.owed_outcome(),
            spawnable: self.spawnable(),
        }
    }

    pub(super) fn knowledge_now(&self, viewer: Viewer) -> OpenWorldKnowledge {
        let player = viewer.color();
        let seen = match player {
            Some(v) => self
                .squares()
                .filter(|&sq| self.sees(v, sq))
                .map(|sq| KnownSquare {
                    square: sq,
                    object: self.cell(sq).object,
                    enemy: self.piece(sq).filter(|u| u.color != v).map(|u| KnownPiece {
                        color: u.color,
                        piece: u.kind,
                        hp: u.hp,
                    }),
                })
                .collect(),
            None => Vec::new(),
        };
        let own = match player {
            Some(v) => self
                .squares()
                .filter_map(|sq| self.piece(sq).filter(|u| u.color == v).map(|u| piece_state(sq, u)))
                .collect(),
            None => Vec::new(),
        };
        OpenWorldKnowledge {
            viewer,
            public: self.known_public(viewer),
            seen,
            own,
            moving: player.and_then(|v| self.lifted_piece().filter(|m| m.color == v)),
            coins: player.map(|v| self.coins(v)),
        }
    }

    /// The list, in this order: the late buyer's purchases; the side to
    /// move's moves in square order of the piece's square, then of the
    /// target (a pawn reaching its far rank once per promotion piece, Q, R,
    /// B, N); its `end`; and, with its shop open, its purchases. Purchases
    /// go in square order, `range` and `hp` for an own piece and `drain`
    /// for a seen enemy's, then `curse`. The generator draws from this
    /// list, so its order is part of every generated game.
    pub(super) fn legal_actions_now(&self, out: &mut Vec<Event>) {
        // While the world owes an outcome, or a king has died, no player
        // may act (only chat and resignation, which are not listed).
        if self.world.decided || self.owes_world_event_now() {
            return;
        }
        if let Some((buyer, n)) = self.world.late_shop {
            self.purchases(buyer, n, out);
        }
        let (side, n) = self.current();
        if self.world.moves_left == 0 {
            return;
        }
        let event = |action: Action| Event {
            n,
            actor: Actor::Player(side),
            action,
            clock_ms: None,
        };
        self.each_move(side, |m| match self.canonical_move(side, &m) {
            Some(queen) => {
                for piece in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight] {
                    out.push(event(Action::Move(ChessMove {
                        promotion: Some(piece),
                        ..queen
                    })));
                }
            }
            None => out.push(event(Action::Move(m))),
        });
        out.push(event(Action::End));
        if self.world.shop_open {
            self.purchases(side, n, out);
        }
    }
}

impl OpenWorld {
    /// The shared rules' `progress` as `viewer`, who knows `knowledge`,
    /// knows it. A player may not know that the opponent's last move still
    /// waits for the world, and so whether the turn has passed, nor that a
    /// king died of a roll in the fog before the result says so: the turn
    /// it knows is its knowledge's.
    pub(super) fn known_progress_now(&self, viewer: Viewer, knowledge: &OpenWorldKnowledge, progress: &mut Progress) {
        if let Phase::ResultDue(_) = progress.status {
            if !self.knows_decision(viewer) {
                progress.status = Phase::Playing;
                progress.turn = Some(Turn::Move {
                    side: knowledge.public.side,
                    number: knowledge.public.turn,
                });
            }
        }
        if let Some(Turn::Move { .. }) = progress.turn {
            progress.turn = Some(Turn::Move {
                side: knowledge.public.side,
                number: knowledge.public.turn,
            });
        }
    }
}
