//! What a player's view has told its player of the board, read from the
//! view's own lines literally (docs/notation.md §6.1): the one reading
//! that both the view's writer (to tell what differs from it) and the
//! view's reader (to replay a view on its own) use, so that the two cannot
//! disagree about what a line says.
//!
//! A square the view says nothing of now is out of sight (`None`); one in
//! sight holds what the view last said of it. The viewer's own pieces carry
//! what their owner knows of them (maximum HP, the range upgrade), the
//! viewer's coins are the last `@ coins`, and the viewer's own move is
//! followed while the world may still owe it an outcome (`@ held`).

use fgn_notation::{Action, Actor, ChessMove, Color, Item, ObjectKind, PieceKind, SeenPiece, Square};

/// A piece as the view tells it; `max` and `range` are told of the
/// viewer's own pieces only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct ToldPiece {
    pub(super) color: Color,
    pub(super) kind: PieceKind,
    pub(super) hp: u64,
    pub(super) max: Option<u64>,
    pub(super) range: bool,
}

impl ToldPiece {
    /// The piece as `@ see` writes it.
    pub(super) fn seen(self) -> SeenPiece {
        SeenPiece {
            color: self.color,
            piece: self.kind,
            hp: self.hp,
            max: self.max,
        }
    }
}

/// What the view says of a square in sight: the piece on it and the object.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) struct Spot {
    pub(super) piece: Option<ToldPiece>,
    pub(super) object: Option<ObjectKind>,
}

/// The viewer's own move, from its line until the move is over: where it
/// goes and the piece that makes it, and the square of the world's outcome
/// it waits for (`@ held`), if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct OwnMove {
    pub(super) piece: ToldPiece,
    pub(super) from: Square,
    pub(super) to: Square,
    pub(super) promotion: Option<PieceKind>,
    pub(super) held: Option<Square>,
}

impl OwnMove {
    /// Whether the piece is off the board, held on its path (not at its
    /// target) by the outcome owed.
    pub(super) fn lifted(&self) -> bool {
        self.held.is_some_and(|s| s != self.to)
    }

    /// The piece as it stands once it arrives: promoted (which takes its
    /// range upgrade away) where the move says so.
    fn arrived(&self) -> ToldPiece {
        match self.promotion {
            Some(kind) => ToldPiece {
                kind,
                range: false,
                ..self.piece
            },
            None => self.piece,
        }
    }

    /// The squares the lifted piece has still to pass over: those after
    /// the one it is held on, up to its target (not included).
    pub(super) fn path_left(&self) -> Vec<Square> {
        let Some(held) = self.held.filter(|_| self.lifted()) else {
            return Vec::new();
        };
        let step = |a: u8, b: u8| i16::from(b).cmp(&i16::from(a)) as i16;
        let (df, dr) = (
            step(held.file_index(), self.to.file_index()),
            step(held.rank_index(), self.to.rank_index()),
        );
        let mut out = Vec::new();
        let (mut f, mut r) = (i16::from(held.file_index()), i16::from(held.rank_index()));
        // A path is a straight line, at most 25 squares long on the
        // largest board; the bound keeps a forged `@ held` off the line
        // from walking for ever.
        for _ in 0..26 {
            f += df;
            r += dr;
            let Some(sq) = u8::try_from(f)
                .ok()
                .zip(u8::try_from(r).ok())
                .and_then(|(f, r)| Square::new(f, r))
            else {
                break;
            };
            if sq == self.to {
                break;
            }
            out.push(sq);
        }
        out
    }
}

/// What a view has told its player, read line by line.
#[derive(Clone, Debug)]
pub(super) struct Told {
    pub(super) side: Color,
    files: u8,
    ranks: u8,
    /// Each square's spot, in square order; `None` out of sight.
    pub(super) spots: Vec<Option<Spot>>,
    /// The squares of the viewer's own pieces with the range upgrade: the
    /// upgrade stays with the piece, whatever an opponent's move onto its
    /// square reads as until the observation that follows.
    ranged: Vec<bool>,
    /// The viewer's coins.
    pub(super) coins: u64,
    /// The viewer's move under way, if any.
    pub(super) moving: Option<OwnMove>,
}

impl Told {
    /// Nothing told yet on a board of `files` x `ranks`.
    pub(super) fn new(side: Color, files: u8, ranks: u8) -> Told {
        Told {
            side,
            files,
            ranks,
            spots: vec![None; usize::from(files) * usize::from(ranks)],
            ranged: vec![false; usize::from(files) * usize::from(ranks)],
            coins: 0,
            moving: None,
        }
    }

    /// The position of `sq` in `spots`; none for a square off the board,
    /// which a line may name.
    pub(super) fn index(&self, sq: Square) -> Option<usize> {
        (sq.file_index() < self.files && sq.rank_index() < self.ranks)
            .then(|| usize::from(sq.rank_index()) * usize::from(self.files) + usize::from(sq.file_index()))
    }

    fn spot_mut(&mut self, sq: Square) -> Option<&mut Spot> {
        let i = self.index(sq)?;
        self.spots[i].as_mut()
    }

    /// Reads one line of the view, as its player does. A move takes the
    /// piece as last told, HP and all, from its square to the other
    /// (promoted if it says so), onto whatever object was there; a piece
    /// out of the fog is not known until it is observed; a spawn puts its
    /// object down; an own range upgrade is taken as bought. The viewer's
    /// own move is followed through its `@ held` lines and the outcomes
    /// they wait for. Everything else (combat, pick-ups, damage to other
    /// pieces, drains and other purchases, clones, light and fog) shows in
    /// the observations that follow.
    pub(super) fn read(&mut self, actor: Actor, action: &Action) {
        match (actor, action) {
            (Actor::Player(p), Action::Move(m)) => self.read_move(p, m),
            (Actor::Player(p), _) if p == self.side => {
                self.moving = None;
                if let Action::Buy {
                    item: Item::Range,
                    square: Some(sq),
                    ..
                } = action
                {
                    let side = self.side;
                    let i = self.index(*sq);
                    if let Some(piece) = self.spot_mut(*sq).and_then(|s| s.piece.as_mut()) {
                        if piece.color == side {
                            piece.range = true;
                            if let Some(i) = i {
                                self.ranged[i] = true;
                            }
                        }
                    }
                }
            }
            (Actor::Player(_), _) => self.moving = None,
            (Actor::World, Action::Spawn { square, object }) => {
                if let Some(s) = self.spot_mut(*square) {
                    s.object = Some(*object);
                }
            }
            (
                Actor::World,
                Action::See {
                    square,
                    piece,
                    object,
                    hidden,
                },
            ) => self.read_see(*square, *piece, *object, *hidden),
            (Actor::World, Action::Coins { count }) => self.coins = *count,
            (Actor::World, Action::Held { square }) => {
                let Some(mut mv) = self.moving else { return };
                mv.held = Some(*square);
                self.moving = Some(mv);
                if mv.lifted() {
                    // The piece waits off the board, on its path.
                    let side = self.side;
                    if let Some(s) = self.spot_mut(mv.to) {
                        if s.piece.is_some_and(|p| p.color == side) {
                            s.piece = None;
                        }
                    }
                }
            }
            (Actor::World, Action::Damage { square, amount }) => self.read_damage(*square, *amount),
            (Actor::World, Action::Clone { .. }) => {
                if let Some(mv) = self.moving.as_mut() {
                    mv.held = None;
                }
            }
            _ => {}
        }
    }

    fn read_move(&mut self, mover: Color, m: &ChessMove) {
        self.moving = None;
        let from = m.from.and_then(|sq| self.index(sq));
        let piece = from.and_then(|i| self.spots[i]).and_then(|s| s.piece);
        if let Some(s) = from.and_then(|i| self.spots[i].as_mut()) {
            s.piece = None;
        }
        if mover == self.side {
            if let Some(from) = from {
                let ranged = std::mem::take(&mut self.ranged[from]) && m.promotion.is_none();
                if let Some(to) = m.to.and_then(|sq| self.index(sq)) {
                    self.ranged[to] = ranged;
                }
            }
        }
        if let (true, Some(piece), Some(from), Some(to)) = (mover == self.side, piece, m.from, m.to) {
            self.moving = Some(OwnMove {
                piece,
                from,
                to,
                promotion: m.promotion,
                held: None,
            });
        }
        if let Some(to) = m.to.and_then(|sq| self.index(sq)) {
            self.spots[to] = match (self.spots[to], piece) {
                (Some(s), Some(p)) => Some(Spot {
                    piece: Some(match m.promotion {
                        Some(kind) => ToldPiece {
                            kind,
                            range: false,
                            ..p
                        },
                        None => p,
                    }),
                    object: s.object,
                }),
                _ => None,
            };
        }
    }

    fn read_see(&mut self, square: Square, piece: Option<SeenPiece>, object: Option<ObjectKind>, hidden: bool) {
        let Some(i) = self.index(square) else { return };
        if hidden {
            self.spots[i] = None;
            self.ranged[i] = false;
            return;
        }
        let side = self.side;
        // The upgrade stays with an own piece observed where it stood (its
        // HP changed); a piece new on the square (a clone) has none.
        let own = piece.is_some_and(|p| p.color == side);
        self.ranged[i] &= own;
        let piece = piece.map(|p| ToldPiece {
            color: p.color,
            kind: p.piece,
            hp: p.hp,
            max: p.max,
            range: own && self.ranged[i],
        });
        self.spots[i] = Some(Spot { piece, object });
    }

    /// An owed damage roll against the viewer's own moving piece: on its
    /// path the piece loses the HP and, if it lives, goes on to its
    /// target (where a later `@ held` may stop it again); at its target it
    /// loses them where it stands.
    fn read_damage(&mut self, square: Square, amount: u8) {
        let Some(mut mv) = self.moving.filter(|mv| mv.held == Some(square)) else {
            return;
        };
        let lifted = mv.lifted();
        mv.held = None;
        mv.piece.hp = mv.piece.hp.saturating_sub(u64::from(amount));
        self.moving = Some(mv);
        if lifted {
            if mv.piece.hp > 0 {
                let arrived = mv.arrived();
                if let Some(i) = self.index(mv.to) {
                    self.ranged[i] = arrived.range;
                }
                if let Some(s) = self.spot_mut(mv.to) {
                    s.piece = Some(arrived);
                }
            }
            return;
        }
        let side = self.side;
        if let Some(s) = self.spot_mut(square) {
            if let Some(p) = s.piece.as_mut().filter(|p| p.color == side) {
                p.hp = p.hp.saturating_sub(u64::from(amount));
                if p.hp == 0 {
                    s.piece = None;
                }
            }
        }
    }
}
