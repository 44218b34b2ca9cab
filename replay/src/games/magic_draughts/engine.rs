//! The magic-draughts engine: which checker stands where and what its
//! number may be, the draughts board under them, and the rules of a turn
//! (the normal move, the reveals a capture owes, the spells, the seed
//! check). The modules above read it (`state`), derive what the world owes
//! from it (`referee`) and offer it through the game API (`game`); it calls
//! none of them.

use fgn_notation::{ByColor, Color, MagicNumber, MoveNumber, Reason, Spell, Square};

use super::draughts::{DMove, DraughtsBoard};
use super::params::DraughtsRules;
use crate::changes::values::Captured;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{next_turn, Decision, Turn};
use crate::core::seed::Draws;

/// The numbers of a side's twelve checkers in the order the seed shuffles
/// them (docs/notation.md): each of 1 to 5 as often as `counts` (plain
/// first, then 1 to 5) says, in increasing order, then the plain ones. With
/// the default counts that is `[1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 0, 0]`.
pub fn shuffle_order(counts: &[u8; 6]) -> [u8; 12] {
    let mut out = [0u8; 12];
    let numbers = (1..6u8).chain(std::iter::once(0));
    let items = numbers.flat_map(|n| std::iter::repeat_n(n, usize::from(counts[usize::from(n)])));
    for (slot, n) in out.iter_mut().zip(items) {
        *slot = n;
    }
    out
}

/// The spells' names, by number.
pub fn spell_name(n: u8) -> &'static str {
    match n {
        1 => "Gorynych's Fury",
        2 => "Baba Yaga's Potion",
        3 => "Leshy's Charm",
        4 => "Firebird's Call",
        5 => "Koschei's Revenge",
        _ => "plain",
    }
}

/// Which checker stands on a square: one of a side's twelve starting
/// checkers (by its index among the starting squares in square order), or
/// one put back by Koschei's Revenge, which is plain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Checker {
    /// The `index`-th starting checker of `color`.
    Original {
        /// Whose.
        color: Color,
        /// 0..12, in square order of the starting squares.
        index: u8,
    },
    /// A plain checker returned by Koschei's Revenge.
    Returned(Color),
}

impl Checker {
    fn color(self) -> Color {
        match self {
            Checker::Original { color, .. } | Checker::Returned(color) => color,
        }
    }

    /// The starting square of a starting checker.
    pub(super) fn origin(self) -> Option<Square> {
        match self {
            Checker::Original { color, index } => starting_square(color, index),
            Checker::Returned(_) => None,
        }
    }
}

/// A reveal the world owes: the captured checker and where it was taken.
#[derive(Clone, Copy, Debug)]
pub(super) struct Owed {
    pub(super) square: Square,
    checker: Checker,
}

/// A recorded reveal of a starting checker, kept for the seed check.
#[derive(Clone, Copy, Debug)]
struct Revealed {
    color: Color,
    index: u8,
    number: u8,
    square: Square,
    event: usize,
}

pub(super) fn sq_index(sq: Square) -> usize {
    usize::from(sq.rank_index()) * 8 + usize::from(sq.file_index())
}

/// Whether `sq` is a playable (dark) square of the 8x8 board.
pub(super) fn is_dark(sq: Square) -> bool {
    sq.file_index() < 8 && sq.rank_index() < 8 && (sq.file_index() + sq.rank_index()).is_multiple_of(2)
}

/// The starting squares of `color`, in square order (rank first, then file).
pub fn starting_squares(color: Color) -> Vec<Square> {
    (0..12).filter_map(|i| starting_square(color, i)).collect()
}

/// The `index`-th starting square of `color` in square order, without
/// building the list: four dark squares a rank, on white's ranks 1 to 3 or
/// black's 6 to 8 (a dark square has file + rank even).
fn starting_square(color: Color, index: u8) -> Option<Square> {
    let base = match color {
        Color::White => 0,
        Color::Black => 5,
    };
    let rank = base + index / 4;
    (index < 12)
        .then(|| Square::new(2 * (index % 4) + rank % 2, rank))
        .flatten()
}

/// The numbers the game's draws (from its seed and salts) give to
/// `color`'s starting checkers, in the order of their starting squares (square order: a1, c1, ... for white).
pub fn derive_numbers(draws: &Draws, color: Color, counts: &[u8; 6]) -> [u8; 12] {
    let mut numbers = shuffle_order(counts);
    draws.shuffle(&format!("magic-draughts/numbers/{}", color.char()), &mut numbers);
    numbers
}

/// The state of a magic-draughts game.
#[derive(Clone, Debug)]
pub struct MagicDraughts {
    pub(super) rules: DraughtsRules,
    pub(super) pos: DraughtsBoard,
    pub(super) turn: Turn,
    /// Which checker stands on each square (index rank * 8 + file).
    pub(super) checkers: [Option<Checker>; 64],
    /// Reveals owed after the last capture, in jump order (front first).
    pub(super) owed: Vec<Owed>,
    /// Spells each side must cast at the start of its next turn, in capture order.
    pub(super) spells: ByColor<Vec<u8>>,
    /// Reveals of starting checkers, for the seed check.
    revealed: Vec<Revealed>,
    /// Revealed numbers of each side's starting checkers, counted by number.
    counts: ByColor<[u8; 6]>,
    /// Each side's captured plain checkers not yet returned.
    pub(super) plain_pool: ByColor<u8>,
    /// Every capture so far, for display.
    pub(super) captured: Vec<Captured>,
    pub(super) commit: Option<[u8; 32]>,
    pub(super) event: usize,
    moves_scratch: Vec<DMove>,
    /// Whose legal moves `moves_scratch` holds for the current position:
    /// judging a turn generates them, and the move that follows reuses them.
    moves_for: Option<Color>,
    pub(super) seed_seen: bool,
}

impl MagicDraughts {
    /// A game at the start: the standard position, white to move.
    pub(crate) fn new(rules: DraughtsRules, commit: Option<[u8; 32]>) -> MagicDraughts {
        let mut checkers = [None; 64];
        for color in [Color::White, Color::Black] {
            for (i, sq) in starting_squares(color).into_iter().enumerate() {
                checkers[sq_index(sq)] = Some(Checker::Original { color, index: i as u8 });
            }
        }
        MagicDraughts {
            rules,
            pos: DraughtsBoard::start(),
            turn: Turn::Move {
                side: Color::White,
                number: MoveNumber(1),
            },
            checkers,
            owed: Vec::new(),
            spells: ByColor::default(),
            revealed: Vec::new(),
            counts: ByColor::default(),
            plain_pool: ByColor::default(),
            captured: Vec::new(),
            commit,
            event: 0,
            moves_scratch: Vec::new(),
            moves_for: None,
            seed_seen: false,
        }
    }

    /// The ranks Koschei's Revenge returns `side`'s checkers to: its own
    /// first `revenge_ranks` ranks.
    pub(crate) fn revenge_ranks(&self, side: Color) -> std::ops::Range<u8> {
        let k = self.rules.revenge_ranks.min(8);
        match side {
            Color::White => 0..k,
            Color::Black => 8 - k..8,
        }
    }

    /// The next reveal the world owes: the square of the captured checker
    /// and which checker it was.
    pub(crate) fn next_owed(&self) -> Option<(Square, Checker)> {
        self.owed.first().map(|o| (o.square, o.checker))
    }

    /// Every legal normal move of `side` (the side to move) into `out`.
    pub(crate) fn position_moves(&self, side: Color, out: &mut Vec<DMove>) {
        let mut pos = self.pos;
        pos.set_to_move(side);
        pos.legal_moves(out);
    }

    /// Whether `color` has at least one legal move now; the moves are kept
    /// for the normal move that comes next, which takes its own from them.
    /// (It is asked once a position: at the start of a turn, after the
    /// last reveal or spell, so it never finds them kept already.)
    fn can_move(&mut self, color: Color) -> bool {
        self.moves_for = Some(color);
        let saved = self.pos.to_move();
        self.pos.set_to_move(color);
        self.moves_scratch.clear();
        self.pos.legal_moves(&mut self.moves_scratch);
        self.pos.set_to_move(saved);
        !self.moves_scratch.is_empty()
    }

    /// The decision, if any, when `side` is about to make its normal move
    /// (its spells, if it had any, are cast).
    fn judge_before_move(&mut self, side: Color) -> Option<Decision> {
        if self.pos.count(side.opponent()) == 0 {
            return Some(Decision::win(side, Reason::NoPieces));
        }
        if self.pos.count(side) == 0 {
            return Some(Decision::win(side.opponent(), Reason::NoPieces));
        }
        if !self.can_move(side) {
            return Some(Decision::win(side.opponent(), Reason::NoMoves));
        }
        None
    }

    /// After a normal move or the last reveal: the decision if the side to
    /// move has no spells to cast first.
    fn judge_turn_start(&mut self) -> Option<Decision> {
        let Turn::Move { side, .. } = self.turn else {
            return None;
        };
        if !self.owed.is_empty() || !self.spells[side].is_empty() {
            return None;
        }
        // Without spells, a side that has lost its last piece loses; the
        // opponent cannot have lost all of its pieces by its own move.
        self.judge_before_move(side)
    }

    pub(super) fn normal_move(
        &mut self,
        side: Color,
        number: MoveNumber,
        path: &fgn_notation::Path,
        capture: bool,
    ) -> Result<Option<Decision>, Fault> {
        if let Some(&next) = self.spells[side].first() {
            return Err(Fault::new(
                Rule::Spell,
                format!(
                    "{} must first cast its spells: next `spell {next} ...` ({}) or `spell {next} skip`",
                    side.name(),
                    spell_name(next)
                ),
            ));
        }
        let cached = (self.moves_for == Some(side))
            .then(|| {
                self.moves_scratch
                    .iter()
                    .find(|m| m.capture == capture && m.path.squares() == path.squares())
                    .copied()
            })
            .flatten();
        let mv = match cached {
            Some(mv) => mv,
            None => self
                .pos
                .find_move(path, capture)
                .map_err(|e| Fault::new(Rule::Move, e.to_string()))?,
        };
        let next = next_turn(side, number)?;
        let mut checkers = self.checkers;
        let from = mv.path.from();
        let moving = checkers[sq_index(from)].take();
        let mut owed = Vec::new();
        for &sq in mv.captured() {
            let taken = checkers[sq_index(sq)].take();
            if let Some(checker) = taken {
                owed.push(Owed { square: sq, checker });
            }
        }
        checkers[sq_index(mv.path.to())] = moving;
        self.pos.play(&mv);
        self.moves_for = None;
        self.checkers = checkers;
        for o in &owed {
            self.captured.push(Captured {
                color: o.checker.color(),
                square: o.square,
                origin: o.checker.origin(),
                number: None,
            });
        }
        if self.rules.magic {
            self.owed = owed;
        }
        self.turn = next;
        Ok(self.judge_turn_start())
    }

    pub(super) fn reveal(&mut self, square: Square, number: MagicNumber) -> Result<Option<Decision>, Fault> {
        let Some(&next) = self.owed.first() else {
            return Err(Fault::new(
                Rule::Reveal,
                if self.rules.magic {
                    "no reveal is owed: reveals follow a capture, one per captured checker"
                } else {
                    "magic is off in this game: checkers have no numbers"
                },
            ));
        };
        if square != next.square {
            let order: Vec<String> = self.owed.iter().map(|o| o.square.to_string()).collect();
            return Err(Fault::new(
                Rule::Reveal,
                format!(
                    "the next reveal is of the checker captured on {} (reveals follow the jump order: {})",
                    next.square,
                    order.join(", ")
                ),
            ));
        }
        let n = number.get();
        let owner = next.checker.color();
        match next.checker {
            Checker::Returned(_) if n != 0 => {
                return Err(Fault::new(Rule::Reveal, format!("the checker on {square} was put back by Koschei's Revenge, so it is plain: `reveal {square} 0`")));
            }
            Checker::Original { .. } if self.counts[owner][usize::from(n)] >= self.rules.numbers[usize::from(n)] => {
                let have = self.rules.numbers[usize::from(n)];
                let (one, many) = match n {
                    0 => ("plain checker".to_string(), "plain checkers".to_string()),
                    _ => (format!("checker numbered {n}"), format!("checkers numbered {n}")),
                };
                let owner = owner.name();
                let message = match have {
                    0 => format!("{owner} has no {one}"),
                    1 => format!("{owner} has only one {one}, and it is revealed already"),
                    _ => format!("{owner} has only {have} {many}, and all of them are revealed already"),
                };
                return Err(Fault::new(Rule::Reveal, message));
            }
            _ => {}
        }
        if let Checker::Original { color, index } = next.checker {
            self.counts[color][usize::from(n)] += 1;
            self.revealed.push(Revealed {
                color,
                index,
                number: n,
                square,
                event: self.event,
            });
        }
        if n == 0 {
            self.plain_pool[owner] += 1;
        } else {
            self.spells[owner].push(n);
        }
        if let Some(c) = self
            .captured
            .iter_mut()
            .rev()
            .find(|c| c.square == square && c.number.is_none())
        {
            c.number = Some(n);
        }
        self.owed.remove(0);
        Ok(self.judge_turn_start())
    }

    pub(super) fn cast(&mut self, side: Color, spell: &Spell) -> Result<Option<Decision>, Fault> {
        if !self.rules.magic {
            return Err(Fault::new(
                Rule::Spell,
                "magic is off in this game: there are no spells",
            ));
        }
        let Some(&due) = self.spells[side].first() else {
            return Err(Fault::new(
                Rule::Spell,
                format!(
                    "{} has no spell to cast: spells come from its captured magic checkers",
                    side.name()
                ),
            ));
        };
        let n = spell.number().get();
        if n != due {
            return Err(Fault::new(
                Rule::Spell,
                format!(
                    "the next spell is {due} ({}), in the order the checkers were captured, not {n}",
                    spell_name(due)
                ),
            ));
        }
        let own_first_rank = if side == Color::White { 0 } else { 7 };
        let their_first_rank = 7 - own_first_rank;
        let empty_dark = |pos: &DraughtsBoard, sq: Square, what: &str| -> Result<(), Fault> {
            if !is_dark(sq) {
                return Err(Fault::new(
                    Rule::Spell,
                    format!("{sq} is not a dark square of the board ({what})"),
                ));
            }
            if pos.piece_at(sq).is_some() {
                return Err(Fault::new(Rule::Spell, format!("{sq} is not empty ({what})")));
            }
            Ok(())
        };
        let mut pos = self.pos;
        let mut checkers = self.checkers;
        let mut pool = self.plain_pool;
        match spell {
            Spell::Skip { .. } => {}
            Spell::Fury { file } => {
                let f = file.index();
                if f >= 8 {
                    return Err(Fault::new(
                        Rule::Spell,
                        format!("Gorynych's Fury names a file of the board, a to h, not {file}"),
                    ));
                }
                let squares: Vec<Square> = (0..8)
                    .filter_map(|r| Square::new(f, r))
                    .filter(|&sq| pos.piece_at(sq).is_some())
                    .collect();
                if squares.is_empty() {
                    return Err(Fault::new(
                        Rule::Spell,
                        format!("file {file} holds no piece: Gorynych's Fury needs a file with at least one"),
                    ));
                }
                for sq in squares {
                    // Removed, not captured: no reveal, no magic, never returned.
                    pos.remove(sq);
                    checkers[sq_index(sq)] = None;
                }
            }
            Spell::Potion { from, to } => {
                match pos.piece_at(*from) {
                    Some((c, _)) if c == side => {}
                    _ => {
                        return Err(Fault::new(
                            Rule::Spell,
                            format!(
                                "Baba Yaga's Potion moves an own piece, and {from} holds none of {}'s",
                                side.name()
                            ),
                        ))
                    }
                }
                empty_dark(&pos, *to, "Baba Yaga's Potion needs an empty dark square")?;
                if to.rank_index() == their_first_rank {
                    return Err(Fault::new(
                        Rule::Spell,
                        format!("Baba Yaga's Potion may not move a piece onto the opponent's first rank ({to})"),
                    ));
                }
                relocate(&mut pos, &mut checkers, *from, *to)?;
            }
            Spell::Charm { from, to } => {
                match pos.piece_at(*from) {
                    Some((c, _)) if c == side.opponent() => {}
                    _ => {
                        return Err(Fault::new(
                            Rule::Spell,
                            format!("Leshy's Charm moves an enemy piece, and {from} holds none"),
                        ))
                    }
                }
                empty_dark(&pos, *to, "Leshy's Charm needs an empty dark square")?;
                if to.rank_index() == own_first_rank {
                    return Err(Fault::new(
                        Rule::Spell,
                        format!("Leshy's Charm may not move a piece onto the caster's own first rank ({to})"),
                    ));
                }
                relocate(&mut pos, &mut checkers, *from, *to)?;
            }
            Spell::Firebird { square } => match pos.piece_at(*square) {
                Some((c, false)) if c == side => {
                    pos.remove(*square);
                    pos.put(*square, side, true).map_err(|e| Fault::new(Rule::Spell, e))?;
                }
                _ => {
                    return Err(Fault::new(
                        Rule::Spell,
                        format!(
                            "Firebird's Call crowns an own man, and {square} holds none of {}'s men",
                            side.name()
                        ),
                    ))
                }
            },
            Spell::Revenge { squares } => {
                let ranks = self.revenge_ranks(side);
                let free = (0..8u8)
                    .flat_map(|r| (0..8u8).map(move |f| (f, r)))
                    .filter_map(|(f, r)| Square::new(f, r))
                    .filter(|&sq| is_dark(sq) && ranks.contains(&sq.rank_index()) && pos.piece_at(sq).is_none())
                    .count();
                let due_count = usize::from(pool[side]).min(free);
                if due_count == 0 {
                    return Err(Fault::new(
                        Rule::Spell,
                        "Koschei's Revenge has nothing to do here (no captured plain checker or no free square): it must be skipped",
                    ));
                }
                if squares.len() != due_count {
                    return Err(Fault::new(
                        Rule::Spell,
                        format!("Koschei's Revenge returns exactly {due_count} checkers here (captured plain checkers {}, free squares {free}), not {}", pool[side], squares.len()),
                    ));
                }
                for &sq in squares {
                    empty_dark(&pos, sq, "Koschei's Revenge needs empty dark squares")?;
                    if !ranks.contains(&sq.rank_index()) {
                        return Err(Fault::new(
                            Rule::Spell,
                            format!(
                                "Koschei's Revenge returns checkers to the caster's first {} ranks, not {sq}",
                                self.rules.revenge_ranks
                            ),
                        ));
                    }
                    pos.put(sq, side, false).map_err(|e| Fault::new(Rule::Spell, e))?;
                    checkers[sq_index(sq)] = Some(Checker::Returned(side));
                }
                pool[side] -= due_count as u8;
            }
        }
        self.pos = pos;
        self.moves_for = None;
        self.checkers = checkers;
        self.plain_pool = pool;
        self.spells[side].remove(0);
        if self.spells[side].is_empty() {
            return Ok(self.judge_before_move(side));
        }
        Ok(None)
    }
}

/// Moves a piece and its checker identity from `from` to `to` (spells 2 and 3).
fn relocate(
    pos: &mut DraughtsBoard,
    checkers: &mut [Option<Checker>; 64],
    from: Square,
    to: Square,
) -> Result<(), Fault> {
    if let Some((color, king)) = pos.remove(from) {
        // The spells' rank rules keep a man off its promotion rank, which is
        // all `put` refuses; should it refuse anyway, the spell is refused.
        pos.put(to, color, king).map_err(|e| Fault::new(Rule::Spell, e))?;
    }
    checkers[sq_index(to)] = checkers[sq_index(from)].take();
    Ok(())
}

impl MagicDraughts {
    /// Derives the numbers again from the revealed seed (and the players'
    /// salts) and compares every reveal so far with them.
    pub(super) fn verify_reveals(&self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Result<(), Fault> {
        let draws = Draws::salted(seed, salts);
        let derived = ByColor::new_with(|c| derive_numbers(&draws, c, &self.rules.numbers));
        for r in &self.revealed {
            let expected = derived[r.color][usize::from(r.index)];
            if expected != r.number {
                // Reported at the reveal itself: that is the event the seed refutes.
                return Err(Fault::new(
                    Rule::Seed,
                    format!(
                        "{} gives {expected} to the {} checker that started on {}, not {} as `reveal {} {}` says",
                        crate::core::seed::origin(salts),
                        r.color.name(),
                        starting_squares(r.color)[usize::from(r.index)],
                        r.number,
                        r.square,
                        r.number,
                    ),
                )
                .at(r.event));
            }
        }
        Ok(())
    }
}
