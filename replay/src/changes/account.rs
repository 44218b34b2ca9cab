//! The machinery of the account of changes: the public [`Change`] values,
//! and what each game's comparison (`games/<game>/changes.rs`) is written
//! with: the context of the comparison, men paired across two boards, the
//! comparison of the shared progress. It names no game's comparison; the
//! dispatch over games is `changes/mod.rs`'s.

use std::collections::{BTreeMap, BTreeSet};

use fgn_notation::{
    Action, BoardSize, ByColor, Color, Event, GameKind, MoveNumber, ObjectKind, PieceKind, Spell, Square, UnitKind,
};
use serde::{Serialize, Serializer};

use super::values::{Captured, Moved, MovingPiece, OwedOutcome};
use crate::core::progress::Progress;
use crate::core::progress::{Phase, Turn};
use crate::core::viewer::Viewer;
use crate::game::Game;

/// What stands on a square: a chess piece, a great-war-chess unit, or a
/// draughts man or king. Written as the piece or unit letter (`P`, `I`),
/// or `man` or `king`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A chess piece (survival-chess, open-world-chess).
    Chess(PieceKind),
    /// A great-war-chess unit (a fortification included).
    Unit(UnitKind),
    /// A draughts man.
    Man,
    /// A draughts king.
    King,
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Piece::Chess(k) => write!(f, "{k}"),
            Piece::Unit(u) => write!(f, "{u}"),
            Piece::Man => f.write_str("man"),
            Piece::King => f.write_str("king"),
        }
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A lit open-world-chess square's light.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct Light {
    /// Turns since it was last lit.
    pub age: u8,
    /// Whether it was lit during the current turn.
    pub lit_this_turn: bool,
}

/// The side to move and the turn's full-move number, as open-world-chess
/// keeps them also once the game is decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct ToMove {
    /// The side to move.
    pub side: Color,
    /// The full-move number of the turn.
    pub number: MoveNumber,
}

/// One thing that differs between two positions of a game: `before` is
/// the first position (before the event, or the first game of a diff),
/// `after` the second. Serialised with a `type` field naming the kind.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Change {
    /// A piece left `from` and stands on `to`; `None` is a square the
    /// viewer does not see (as `?` in a view).
    Moved {
        /// Where it stood (`None`: out of the viewer's sight).
        from: Option<Square>,
        /// Where it stands (`None`: out of the viewer's sight).
        to: Option<Square>,
        /// Whose.
        color: Color,
        /// What it was before the move.
        piece: Piece,
    },
    /// A piece came onto the board: a setup placement, a clone, a checker
    /// Koschei's Revenge put back; in a diff, a piece only the second has.
    Placed {
        /// Where.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// A piece left the board of its own side's doing or by no one's: a
    /// setup removal, Gorynych's Fury; in a diff, a piece only the first has.
    Removed {
        /// Where it stood.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// A piece the opponent took off the board (survival-chess,
    /// magic-draughts).
    Captured {
        /// Where it stood.
        square: Square,
        /// Whose it was.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// An open-world-chess piece whose HP ran out (combat, damage, drain).
    Died {
        /// Where it stood.
        square: Square,
        /// Whose it was.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// A great-war-chess unit destroyed by an attack or a shot.
    Destroyed {
        /// Where it stood.
        square: Square,
        /// Whose it was.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// A great-war-chess unit captured: it stays on its square and changes sides.
    ChangedSides {
        /// Where it stands.
        square: Square,
        /// What.
        piece: Piece,
        /// Whose it was.
        before: Color,
        /// Whose it is.
        after: Color,
    },
    /// A piece became another piece of its side: a promotion, a crowning.
    Promoted {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What it was.
        before: Piece,
        /// What it is.
        after: Piece,
    },
    /// A piece came into the viewer's sight (an opponent's setup shown, a
    /// square of the fog lighting up).
    Seen {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// A piece went out of the viewer's sight.
    Unseen {
        /// Where it was last seen.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
    },
    /// A piece's hit points.
    Hp {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
        /// HP before.
        before: u64,
        /// HP after.
        after: u64,
    },
    /// A piece's maximum hit points.
    MaxHp {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
        /// Maximum before.
        before: u64,
        /// Maximum after.
        after: u64,
    },
    /// Whether a piece has the shop's range upgrade.
    Range {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
        /// Before.
        before: bool,
        /// After.
        after: bool,
    },
    /// Whether a survival-chess pawn may still double-step (not listed for
    /// a pawn that moved: moving loses it).
    Unmoved {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
        /// Before.
        before: bool,
        /// After.
        after: bool,
    },
    /// Which magic-draughts checker stands on a square: the starting square
    /// whose hidden number it carries (`None`: a plain checker Koschei put back).
    Origin {
        /// Where it stands.
        square: Square,
        /// Whose.
        color: Color,
        /// What.
        piece: Piece,
        /// The checker's starting square before.
        before: Option<Square>,
        /// After.
        after: Option<Square>,
    },
    /// The object on an open-world-chess square.
    Object {
        /// Which square.
        square: Square,
        /// The object before.
        before: Option<ObjectKind>,
        /// After.
        after: Option<ObjectKind>,
    },
    /// An open-world-chess square's light (`None`: fogged).
    Light {
        /// Which square.
        square: Square,
        /// The light before.
        before: Option<Light>,
        /// After.
        after: Option<Light>,
    },
    /// Whether the viewer sees an open-world-chess square; `object` is the
    /// object lying there, in the position that sees it.
    Sight {
        /// Which square.
        square: Square,
        /// Seen before.
        before: bool,
        /// Seen after.
        after: bool,
        /// The object on it where it is seen.
        object: Option<ObjectKind>,
    },
    /// Whether an open-world-chess square may still get a `@ spawn`.
    Spawnable {
        /// Which square.
        square: Square,
        /// Before.
        before: bool,
        /// After.
        after: bool,
    },
    /// A side's open-world-chess coins (a player knows only its own).
    Coins {
        /// Whose.
        color: Color,
        /// Before.
        before: u32,
        /// After.
        after: u32,
    },
    /// A side's great-war-chess charges.
    Charges {
        /// Whose.
        color: Color,
        /// Before.
        before: u64,
        /// After.
        after: u64,
    },
    /// The curses a side has still to suffer (open-world-chess).
    Curses {
        /// Whose.
        color: Color,
        /// Before.
        before: u32,
        /// After.
        after: u32,
    },
    /// Moves left in the open-world-chess turn.
    MovesLeft {
        /// Before.
        before: u32,
        /// After.
        after: u32,
    },
    /// The side that may buy right after its move (open-world-chess).
    Shop {
        /// Before.
        before: Option<Color>,
        /// After.
        after: Option<Color>,
    },
    /// The side that may still buy after its turn's last move.
    LateShop {
        /// Before.
        before: Option<Color>,
        /// After.
        after: Option<Color>,
    },
    /// The open-world-chess side to move and turn number, listed only
    /// where the shared rules' `turn` is the same in both (once a game is
    /// decided, `turn` is `None`).
    ToMove {
        /// Before.
        before: ToMove,
        /// After.
        after: ToMove,
    },
    /// The outcome the open-world-chess world owes (a damage roll, a
    /// clone's square), with the move waiting for it.
    Owed {
        /// Before.
        before: Option<OwedOutcome>,
        /// After.
        after: Option<OwedOutcome>,
    },
    /// In a player's knowledge, its own open-world-chess piece of a move
    /// that waits for the world (the referee's account has it in `owed`).
    Moving {
        /// Before.
        before: Option<MovingPiece>,
        /// After.
        after: Option<MovingPiece>,
    },
    /// The board size (two games with different `Board` tags).
    Board {
        /// Before.
        before: BoardSize,
        /// After.
        after: BoardSize,
    },
    /// The open-world-chess merchant squares.
    Merchants {
        /// Before.
        before: Vec<Square>,
        /// After.
        after: Vec<Square>,
    },
    /// Whether the survival-chess side to move is in check.
    InCheck {
        /// Before.
        before: bool,
        /// After.
        after: bool,
    },
    /// The sides whose secret setup the viewer cannot see yet.
    HiddenSetups {
        /// Before.
        before: Vec<Color>,
        /// After.
        after: Vec<Color>,
    },
    /// The great-war-chess units that moved this turn (its movement used).
    Movement {
        /// Before.
        before: Option<Moved>,
        /// After.
        after: Option<Moved>,
    },
    /// The square of the great-war-chess stack that fired this turn.
    Fired {
        /// Before.
        before: Option<Square>,
        /// After.
        after: Option<Square>,
    },
    /// Whether magic-draughts checkers carry numbers (the `Magic` tag).
    Magic {
        /// Before.
        before: bool,
        /// After.
        after: bool,
    },
    /// A captured checker's number, once the world revealed it.
    Revealed {
        /// Where it was captured.
        square: Square,
        /// Whose it was.
        color: Color,
        /// The number before (`None`: not revealed).
        before: Option<u8>,
        /// The number after.
        after: Option<u8>,
    },
    /// An entry of the magic-draughts list of captured checkers that no
    /// `captured` or `revealed` change accounts for (two games that
    /// captured differently).
    CaptureRecord {
        /// Its place in the list, from 0.
        index: usize,
        /// The entry before.
        before: Option<Captured>,
        /// After.
        after: Option<Captured>,
    },
    /// The squares of captured checkers whose numbers the world owes.
    RevealsOwed {
        /// Before.
        before: Vec<Square>,
        /// After.
        after: Vec<Square>,
    },
    /// The spells a side must cast at the start of its next turn.
    SpellsDue {
        /// Whose.
        color: Color,
        /// Before.
        before: Vec<u8>,
        /// After.
        after: Vec<u8>,
    },
    /// A side's captured plain checkers Koschei's Revenge may return.
    Returnable {
        /// Whose.
        color: Color,
        /// Before.
        before: u8,
        /// After.
        after: u8,
    },
    /// Whose turn it is (the shared rules' `turn`; `None` once decided).
    Turn {
        /// Before.
        before: Option<Turn>,
        /// After.
        after: Option<Turn>,
    },
    /// The shared rules' status: playing, awaiting an answer to a timeout,
    /// decided with the result due, or over with its result.
    Status {
        /// Before.
        before: Phase,
        /// After.
        after: Phase,
    },
    /// A player's salt (open-world-chess, magic-draughts): given, in
    /// the log's first events.
    Salt {
        /// Whose.
        color: Color,
        /// Before (`None`: not given).
        before: Option<fgn_notation::Salt>,
        /// After.
        after: Option<fgn_notation::Salt>,
    },
    /// The move number the last event carried.
    Number {
        /// Before.
        before: MoveNumber,
        /// After.
        after: MoveNumber,
    },
    /// The last clock reading, in milliseconds (the referee's; a player's
    /// knowledge holds none).
    Clock {
        /// Before.
        before: Option<u64>,
        /// After.
        after: Option<u64>,
    },
    /// When the running time limit started, in milliseconds.
    TurnStarted {
        /// Before.
        before: Option<u64>,
        /// After.
        after: Option<u64>,
    },
    /// The two positions are of different games: nothing else is compared.
    Game {
        /// Before.
        before: GameKind,
        /// After.
        after: GameKind,
    },
    /// The two knowledges are of different viewers: nothing else is compared.
    Viewer {
        /// Before.
        before: Viewer,
        /// After.
        after: Viewer,
    },
}

/// A game's comparison of two of its positions: what differs between two
/// states, and between two knowledges of one viewer, pushed onto `out`.
pub(crate) trait Account: Game {
    /// The changes from `a` to `b`, two states.
    fn state_changes(a: &Self::State, b: &Self::State, cx: &Context, out: &mut Vec<Change>);
    /// The changes from `a` to `b`, two knowledges of one viewer: only
    /// what the viewer knows, and the event's squares only where it sees.
    fn knowledge_changes(a: &Self::Knowledge, b: &Self::Knowledge, cx: &Context, out: &mut Vec<Change>);
}

/// What the comparison knows beyond the two positions.
pub(crate) struct Context<'e> {
    /// The event between them, if they are before and after one.
    pub(crate) event: Option<&'e Event>,
    /// Whether the first position is in the secret setup, where a piece
    /// that leaves the board is taken back by its side.
    pub(crate) setup: bool,
    /// Whether the shared rules' `turn` is the same in both.
    pub(crate) same_turn: bool,
}

impl<'e> Context<'e> {
    pub(crate) fn new(before: &Progress, after: &Progress, event: Option<&'e Event>) -> Context<'e> {
        Context {
            event,
            setup: matches!(before.turn, Some(Turn::Setup { .. })),
            same_turn: before.turn == after.turn,
        }
    }

    /// The squares the event moves a piece between: a move's, a march's,
    /// a draughts move's first and last, a potion's or charm's.
    pub(crate) fn steps(&self) -> Vec<Step> {
        let Some(event) = self.event else {
            return Vec::new();
        };
        match &event.action {
            Action::Move(m) => vec![(m.from, m.to)],
            Action::March(m) => vec![(Some(m.from), Some(m.to))],
            Action::Draughts { path, .. } => vec![(Some(path.from()), Some(path.to()))],
            Action::Spell(Spell::Potion { from, to } | Spell::Charm { from, to }) => vec![(Some(*from), Some(*to))],
            _ => Vec::new(),
        }
    }
}

/// A move's squares: where a piece left, where it arrived (`None` where
/// a view does not say).
pub(crate) type Step = (Option<Square>, Option<Square>);

/// How a piece that left the board without moving is named in an event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Leave {
    Removed,
    Captured,
    Died,
    Destroyed,
}

/// A piece as the comparison sees it: what it is, and its attributes
/// where the game has them (`None` where it has not, or the viewer does
/// not know them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Man {
    pub(crate) color: Color,
    pub(crate) piece: Piece,
    pub(crate) hp: Option<u64>,
    pub(crate) max_hp: Option<u64>,
    pub(crate) range: Option<bool>,
    pub(crate) unmoved: Option<bool>,
    pub(crate) origin: Option<Option<Square>>,
}

impl Man {
    pub(crate) fn plain(color: Color, piece: Piece) -> Man {
        Man {
            color,
            piece,
            hp: None,
            max_hp: None,
            range: None,
            unmoved: None,
            origin: None,
        }
    }
}

/// Every piece, by square (great-war-chess stacks several units on one).
pub(crate) type Board = BTreeMap<Square, Vec<Man>>;

pub(crate) fn board(men: impl IntoIterator<Item = (Square, Man)>) -> Board {
    let mut out = Board::new();
    for (square, man) in men {
        out.entry(square).or_default().push(man);
    }
    out
}

/// Which squares a position shows the pieces of, by the pieces' colour.
pub(crate) enum Sight<'a> {
    /// Every square (a state, or a game without fog after setup).
    All,
    /// Every square, but none of the pieces of these sides (setups still secret).
    Hidden(&'a [Color]),
    /// open-world-chess: the squares the viewer sees, and its own pieces
    /// wherever they stand.
    Fog {
        viewer: Option<Color>,
        seen: &'a BTreeSet<Square>,
    },
}

impl Sight<'_> {
    fn sees(&self, square: Square, color: Color) -> bool {
        match self {
            Sight::All => true,
            Sight::Hidden(sides) => !sides.contains(&color),
            Sight::Fog { viewer, seen } => *viewer == Some(color) || seen.contains(&square),
        }
    }

    /// Whether pieces can go where the viewer cannot follow them.
    fn has_fog(&self) -> bool {
        matches!(self, Sight::Fog { .. })
    }
}

/// Pushes `make(before, after)` when the two differ.
pub(crate) fn differ<T: PartialEq + Clone>(
    out: &mut Vec<Change>,
    before: &T,
    after: &T,
    make: impl FnOnce(T, T) -> Change,
) {
    if before != after {
        out.push(make(before.clone(), after.clone()));
    }
}

/// Pushes a change per side whose value differs.
pub(crate) fn per_side<T: PartialEq + Clone>(
    out: &mut Vec<Change>,
    before: &ByColor<T>,
    after: &ByColor<T>,
    make: impl Fn(Color, T, T) -> Change,
) {
    for color in [Color::White, Color::Black] {
        differ(out, &before[color], &after[color], |b, a| make(color, b, a));
    }
}

/// The changes of one piece that is the same piece in both positions
/// (standing, or moved to `square`).
fn attributes(out: &mut Vec<Change>, square: Square, before: &Man, after: &Man, moved: bool) {
    let (color, piece) = (after.color, after.piece);
    if let (Some(b), Some(a)) = (before.hp, after.hp) {
        differ(out, &b, &a, |before, after| Change::Hp {
            square,
            color,
            piece,
            before,
            after,
        });
    }
    if let (Some(b), Some(a)) = (before.max_hp, after.max_hp) {
        differ(out, &b, &a, |before, after| Change::MaxHp {
            square,
            color,
            piece,
            before,
            after,
        });
    }
    if let (Some(b), Some(a)) = (before.range, after.range) {
        differ(out, &b, &a, |before, after| Change::Range {
            square,
            color,
            piece,
            before,
            after,
        });
    }
    if let (Some(b), Some(a), false) = (before.unmoved, after.unmoved, moved) {
        differ(out, &b, &a, |before, after| Change::Unmoved {
            square,
            color,
            piece,
            before,
            after,
        });
    }
    if let (Some(b), Some(a)) = (before.origin, after.origin) {
        differ(out, &b, &a, |before, after| Change::Origin {
            square,
            color,
            piece,
            before,
            after,
        });
    }
}

/// Takes out of `from` and `to` the pairs of pieces that are the same
/// piece: first those of one side and kind, then, where exactly one piece
/// of a side is left in each, those two (a piece that changed its kind).
fn pair(from: &mut Vec<Man>, to: &mut Vec<Man>) -> Vec<(Man, Man)> {
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < from.len() {
        let m = from[i];
        match to.iter().position(|t| t.color == m.color && t.piece == m.piece) {
            Some(j) => pairs.push((from.remove(i), to.remove(j))),
            None => i += 1,
        }
    }
    for color in [Color::White, Color::Black] {
        let f: Vec<usize> = (0..from.len()).filter(|&i| from[i].color == color).collect();
        let t: Vec<usize> = (0..to.len()).filter(|&i| to[i].color == color).collect();
        if let ([fi], [ti]) = (f.as_slice(), t.as_slice()) {
            pairs.push((from.remove(*fi), to.remove(*ti)));
        }
    }
    pairs
}

/// The pieces of two positions compared: what moved (by `steps`), what
/// stayed and changed, what left and what came.
pub(crate) fn men(
    before: (&Board, &Sight),
    after: (&Board, &Sight),
    steps: &[Step],
    cx: &Context,
    leave: &dyn Fn(Square, Color) -> Leave,
    out: &mut Vec<Change>,
) {
    let ((a, sa), (b, sb)) = (before, after);
    let squares: BTreeSet<Square> = a.keys().chain(b.keys()).copied().collect();
    let mut stayed: BTreeMap<Square, Vec<(Man, Man)>> = BTreeMap::new();
    let mut left = Board::new();
    let mut came = Board::new();
    for &sq in &squares {
        let mut gone: Vec<Man> = a.get(&sq).cloned().unwrap_or_default();
        let mut new: Vec<Man> = b.get(&sq).cloned().unwrap_or_default();
        let mut same = Vec::new();
        let mut i = 0;
        while i < gone.len() {
            let m = gone[i];
            match new.iter().position(|n| n.color == m.color && n.piece == m.piece) {
                Some(j) => same.push((gone.remove(i), new.remove(j))),
                None => i += 1,
            }
        }
        stayed.insert(sq, same);
        left.insert(sq, gone);
        came.insert(sq, new);
    }
    for &(from, to) in steps {
        let (Some(from), Some(to)) = (from, to) else { continue };
        let mut gone = left.remove(&from).unwrap_or_default();
        let mut new = came.remove(&to).unwrap_or_default();
        for (m, n) in pair(&mut gone, &mut new) {
            out.push(Change::Moved {
                from: Some(from),
                to: Some(to),
                color: m.color,
                piece: m.piece,
            });
            if m.piece != n.piece {
                out.push(Change::Promoted {
                    square: to,
                    color: n.color,
                    before: m.piece,
                    after: n.piece,
                });
            }
            attributes(out, to, &m, &n, true);
        }
        // A viewer who sees a piece leave and not arrive saw it go where
        // it cannot follow (into the fog, or onto a square its view names
        // but no longer shows): it moved, and no more is known of it.
        gone.retain(|m| {
            let away = sb.has_fog();
            if away {
                out.push(Change::Moved {
                    from: Some(from),
                    to: (sa.sees(to, m.color) || sb.sees(to, m.color)).then_some(to),
                    color: m.color,
                    piece: m.piece,
                });
            }
            !away
        });
        // A piece that arrives from a square the viewer did not see.
        new.retain(|m| {
            let hidden = !sa.sees(from, m.color);
            if hidden {
                out.push(Change::Moved {
                    from: sb.sees(from, m.color).then_some(from),
                    to: Some(to),
                    color: m.color,
                    piece: m.piece,
                });
            }
            !hidden
        });
        left.insert(from, gone);
        came.insert(to, new);
    }
    for &sq in &squares {
        for (m, n) in stayed.remove(&sq).unwrap_or_default() {
            attributes(out, sq, &m, &n, false);
        }
        let mut gone = left.remove(&sq).unwrap_or_default();
        let mut new = came.remove(&sq).unwrap_or_default();
        if cx.event.is_some() {
            for (m, n) in pair(&mut gone, &mut new) {
                out.push(Change::Promoted {
                    square: sq,
                    color: n.color,
                    before: m.piece,
                    after: n.piece,
                });
                attributes(out, sq, &m, &n, false);
            }
            // A unit of the same kind on the same square, of the other
            // side: great-war-chess's captured units.
            let mut i = 0;
            while i < gone.len() {
                let m = gone[i];
                let same_kind: Vec<usize> = (0..new.len()).filter(|&j| new[j].piece == m.piece).collect();
                match same_kind.as_slice() {
                    [j] if gone.iter().filter(|g| g.piece == m.piece).count() == 1 => {
                        let n = new.remove(*j);
                        gone.remove(i);
                        out.push(Change::ChangedSides {
                            square: sq,
                            piece: m.piece,
                            before: m.color,
                            after: n.color,
                        });
                    }
                    _ => i += 1,
                }
            }
        }
        for m in gone {
            let (square, color, piece) = (sq, m.color, m.piece);
            out.push(if !sb.sees(sq, color) {
                Change::Unseen { square, color, piece }
            } else {
                match cx.event.map(|_| leave(sq, color)).unwrap_or(Leave::Removed) {
                    Leave::Removed => Change::Removed { square, color, piece },
                    Leave::Captured => Change::Captured { square, color, piece },
                    Leave::Died => Change::Died { square, color, piece },
                    Leave::Destroyed => Change::Destroyed { square, color, piece },
                }
            });
        }
        for m in new {
            let (square, color, piece) = (sq, m.color, m.piece);
            out.push(if !sa.sees(sq, color) {
                Change::Seen { square, color, piece }
            } else {
                Change::Placed { square, color, piece }
            });
        }
    }
}

/// How a game takes pieces off the board in play; in setup a side takes
/// back its own.
pub(crate) fn taken(cx: &Context, in_play: Leave) -> Leave {
    if cx.setup {
        Leave::Removed
    } else {
        in_play
    }
}

pub(crate) fn hidden_setups(before: &[Color], after: &[Color], out: &mut Vec<Change>) {
    differ(out, &before.to_vec(), &after.to_vec(), |before, after| {
        Change::HiddenSetups { before, after }
    });
}

/// What changed from `before` to `after` for an event that left the
/// position as it was ([`crate::leaves_position`]): the progress alone,
/// as [`state_changes`] accounts for it.
pub(crate) fn progress_changes(before: &Progress, after: &Progress) -> Vec<Change> {
    let mut out = Vec::new();
    progress(before, after, &mut out);
    out
}

pub(crate) fn progress(a: &Progress, b: &Progress, out: &mut Vec<Change>) {
    let Progress {
        turn: turn_a,
        status: status_a,
        last_number: number_a,
        clock_ms: clock_a,
        turn_started_ms: started_a,
        salts: salts_a,
    } = a;
    per_side(out, salts_a, &b.salts, |color, before, after| Change::Salt {
        color,
        before,
        after,
    });
    differ(out, turn_a, &b.turn, |before, after| Change::Turn { before, after });
    differ(out, status_a, &b.status, |before, after| Change::Status {
        before,
        after,
    });
    differ(out, number_a, &b.last_number, |before, after| Change::Number {
        before,
        after,
    });
    let ms = |c: &Option<fgn_notation::Clock>| c.map(|c| c.millis());
    differ(out, &ms(clock_a), &ms(&b.clock_ms), |before, after| Change::Clock {
        before,
        after,
    });
    differ(out, &ms(started_a), &ms(&b.turn_started_ms), |before, after| {
        Change::TurnStarted { before, after }
    });
}
