//! The great-war-chess engine: the board of stacks, the setup, and each
//! turn's movement and shot with their support and charges (RULES.md
//! section 3). The modules above read it (`state`), show it (`view`,
//! `picture`) and offer it through the game API (`game`); it calls none
//! of them.

use fgn_notation::{
    Action, BoardSize, ByColor, Color, Figure, MoveNumber, Placement, Reason, Square, UnitKind, UnitMove, UnitSet,
};

use super::params::GreatWarRules;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{next_turn, Decision, Turn};
use crate::core::setup;

/// Unit bits of a stack: one unit of each kind per side and square.
pub(super) const I: u8 = 1;
pub(super) const C: u8 = 2;
pub(super) const A: u8 = 4;

/// Charges an attacker gains, and its victim loses, per destroyed unit.
const GAIN: u32 = 4;
const LOSS: u32 = 8;

/// The eight directions of steps, rides and shot lines.
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn bit(kind: UnitKind) -> u8 {
    match kind {
        UnitKind::Infantry => I,
        UnitKind::Cavalry => C,
        UnitKind::Artillery => A,
        UnitKind::Fortification => 0,
    }
}

fn set_bits(set: UnitSet) -> u8 {
    set.kinds().map(bit).fold(0, |acc, b| acc | b)
}

/// The unit kinds of `bits`, in canonical order `I C A`.
pub(super) fn kinds(bits: u8) -> impl Iterator<Item = UnitKind> {
    [UnitKind::Infantry, UnitKind::Cavalry, UnitKind::Artillery]
        .into_iter()
        .filter(move |&k| bits & bit(k) != 0)
}

/// `ICA`: the letters of `bits`.
pub(super) fn letters(bits: u8) -> String {
    kinds(bits).map(|k| k.char()).collect()
}

/// One square: whose units (and fortification) stand there, which units,
/// and whether it is a fortification. Both sides never share a square: an
/// entry into enemy units destroys, captures or fails.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Cell {
    /// The owner of the units and of the fortification; `None`: empty.
    pub(super) side: Option<Color>,
    /// The units, as bits `I C A`.
    pub(super) units: u8,
    /// Whether the square is a fortification (of `side`).
    pub(super) fort: bool,
}

impl Cell {
    fn is_empty(self) -> bool {
        self.side.is_none()
    }

    /// The cell with `bits` taken away, empty when nothing is left.
    fn without(self, bits: u8) -> Cell {
        let units = self.units & !bits;
        Cell {
            side: if units == 0 && !self.fort { None } else { self.side },
            units,
            fort: self.fort,
        }
    }
}

/// What a legal movement does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Effect {
    /// The units go to the target: an empty square, an own square or
    /// fortification, or an empty enemy fortification, which changes sides.
    Go,
    /// Infantry alone enters enemy cavalry and artillery without infantry
    /// and captures them: not an attack.
    Capture,
    /// An attack, which costs a charge and succeeds only when supported.
    Attack {
        /// Whether the attack has the support it needs.
        supported: bool,
    },
}

/// A movement that the rules allow, with what it does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct March {
    from: Square,
    to: Square,
    bits: u8,
    effect: Effect,
}

/// A shot that the rules allow, with what it does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Shot {
    from: Square,
    to: Square,
    /// Whether it destroys the units on the target: supported, and not at
    /// a fortification (a shot at one harms nothing).
    hits: bool,
}

/// The state of a great-war-chess game.
#[derive(Clone, Debug)]
pub struct GreatWar {
    rules: GreatWarRules,
    /// The squares, rank by rank from rank 1, files a.. within a rank.
    pub(super) cells: Vec<Cell>,
    pub(super) turn: Turn,
    pub(super) charges: ByColor<u64>,
    /// The units that moved this turn and where they stand now: the movers
    /// after a movement (with the units they captured, which act only from
    /// the next turn), or the attackers where a failed attack left them.
    /// `Some` once the turn's movement is used.
    pub(super) moved: Option<(Square, u8)>,
    /// Of the units in `moved`, those captured this turn: kept apart only
    /// so that a refusal can say which units moved and which were taken
    /// (the state shows them together, as the rules treat them).
    captured: u8,
    /// The square of the stack that fired this turn; `Some` once the turn's
    /// shot is used.
    pub(super) fired: Option<Square>,
}

impl GreatWar {
    /// A game at the start of setup: an empty board.
    pub(crate) fn new(rules: GreatWarRules) -> GreatWar {
        let size = rules.board.0;
        GreatWar {
            cells: vec![Cell::default(); usize::from(size.files) * usize::from(size.ranks)],
            charges: ByColor::both(u64::from(rules.charges)),
            rules,
            turn: Turn::Setup {
                ready: ByColor::default(),
            },
            moved: None,
            captured: 0,
            fired: None,
        }
    }

    pub(super) fn size(&self) -> BoardSize {
        self.rules.board.0
    }

    fn contains(&self, sq: Square) -> bool {
        sq.file_index() < self.size().files && sq.rank_index() < self.size().ranks
    }

    fn index(&self, sq: Square) -> usize {
        usize::from(sq.rank_index()) * usize::from(self.size().files) + usize::from(sq.file_index())
    }

    pub(super) fn at(&self, sq: Square) -> Cell {
        self.cells[self.index(sq)]
    }

    pub(super) fn set(&mut self, sq: Square, cell: Cell) {
        let i = self.index(sq);
        self.cells[i] = cell;
    }

    /// Every square of the board, in square order.
    pub(super) fn squares(&self) -> impl Iterator<Item = Square> {
        let size = self.size();
        (0..size.ranks).flat_map(move |r| (0..size.files).filter_map(move |f| Square::new(f, r)))
    }

    /// The square `(df, dr)` away from `sq`, if it is on the board.
    fn offset(&self, sq: Square, (df, dr): (i8, i8)) -> Option<Square> {
        let file = sq.file_index().checked_add_signed(df)?;
        let rank = sq.rank_index().checked_add_signed(dr)?;
        Square::new(file, rank).filter(|&s| self.contains(s))
    }

    fn on_board(&self, sq: Square) -> Result<(), Fault> {
        if self.contains(sq) {
            Ok(())
        } else {
            Err(Fault::new(
                Rule::Square,
                format!("{sq} is not on the {} board", self.size()),
            ))
        }
    }

    /// The units `side` has on the board, by kind `I C A F`.
    pub(super) fn counts(&self, side: Color) -> [u8; 4] {
        let mut out = [0u8; 4];
        for cell in self.cells.iter().filter(|c| c.side == Some(side)) {
            for (i, b) in [I, C, A].into_iter().enumerate() {
                out[i] += u8::from(cell.units & b != 0);
            }
            out[3] += u8::from(cell.fort);
        }
        out
    }

    /// How many units of each kind `I C A F` a side sets up.
    fn limits(&self) -> [u8; 4] {
        let u = self.rules.units;
        [u.infantry, u.cavalry, u.artillery, self.rules.fortifications]
    }

    pub(super) fn has_infantry(&self, side: Color) -> bool {
        self.cells.iter().any(|c| c.side == Some(side) && c.units & I != 0)
    }

    /// The square at the end of a straight line from `from` to `to`
    /// (orthogonal or diagonal, at least one step): its direction, or
    /// `None` when the squares do not lie on one.
    fn direction(from: Square, to: Square) -> Option<(i8, i8)> {
        let df = i16::from(to.file_index()) - i16::from(from.file_index());
        let dr = i16::from(to.rank_index()) - i16::from(from.rank_index());
        let straight = (df == 0 || dr == 0 || df.abs() == dr.abs()) && (df, dr) != (0, 0);
        straight.then(|| (df.signum() as i8, dr.signum() as i8))
    }

    fn adjacent(a: Square, b: Square) -> bool {
        let df = a.file_index().abs_diff(b.file_index());
        let dr = a.rank_index().abs_diff(b.rank_index());
        df.max(dr) == 1
    }

    /// The first square between `from` and `to` (on one straight line)
    /// that is not empty, if any: what blocks a ride or a shot.
    fn blocker(&self, from: Square, to: Square, dir: (i8, i8)) -> Option<Square> {
        let mut sq = self.offset(from, dir)?;
        while sq != to {
            if !self.at(sq).is_empty() {
                return Some(sq);
            }
            sq = self.offset(sq, dir)?;
        }
        None
    }

    /// `side`'s support of an attack on `target`: the own infantry on the
    /// squares next to it, not counting the infantry on `mover` (the unit
    /// that moves in never supports its own attack), and whether an own
    /// fortification stands next to it (the attacker's own square included).
    fn support(&self, side: Color, target: Square, mover: Option<Square>) -> (usize, bool) {
        let mut infantry = 0;
        let mut fort = false;
        for sq in DIRECTIONS.iter().filter_map(|&d| self.offset(target, d)) {
            let cell = self.at(sq);
            if cell.side != Some(side) {
                continue;
            }
            if cell.units & I != 0 && Some(sq) != mover {
                infantry += 1;
            }
            fort |= cell.fort;
        }
        (infantry, fort)
    }

    /// Checks a movement of `side` and says what it does; nothing changes.
    fn plan_march(&self, side: Color, m: &UnitMove) -> Result<March, Fault> {
        let (from, to, bits) = (m.from, m.to, set_bits(m.units));
        self.on_board(from)?;
        self.on_board(to)?;
        if let Some((sq, moved)) = self.moved {
            return Err(Fault::new(
                Rule::Move,
                format!(
                    "{}'s movement of this turn is used ({} on {sq}); it may still shoot or `end` the turn",
                    side.name(),
                    letters(moved)
                ),
            ));
        }
        if self.fired == Some(from) {
            return Err(Fault::new(
                Rule::Move,
                format!("the stack on {from} fired this turn, so none of its units moves this turn"),
            ));
        }
        let origin = self.at(from);
        if origin.side != Some(side) || origin.units & bits != bits {
            let has = if origin.side == Some(side) && origin.units != 0 {
                format!("it has {} there", letters(origin.units))
            } else {
                "it has no units there".into()
            };
            return Err(Fault::new(
                Rule::Move,
                format!("{} has no {} on {from} to move; {has}", side.name(), letters(bits)),
            ));
        }
        let target = self.at(to);
        let enemy = target.side == Some(side.opponent());
        match bits {
            I => {
                if !Self::adjacent(from, to) {
                    return Err(Fault::new(
                        Rule::Move,
                        format!("infantry alone steps to an adjacent square; {to} is not next to {from}"),
                    ));
                }
            }
            b if b == I | C => {
                let Some(dir) = Self::direction(from, to) else {
                    return Err(Fault::new(
                        Rule::Move,
                        format!("a rider moves in a straight line, orthogonal or diagonal; {from} to {to} is not one"),
                    ));
                };
                if let Some(block) = self.blocker(from, to, dir) {
                    return Err(Fault::new(
                        Rule::Move,
                        format!("a rider passes through empty squares only; {block} is in the way"),
                    ));
                }
                if target.fort {
                    return Err(Fault::new(
                        Rule::Fortification,
                        format!("cavalry never enters a fortification's square, so the rider cannot go to {to}"),
                    ));
                }
            }
            b if b == I | C | A => {
                if !Self::adjacent(from, to) {
                    return Err(Fault::new(
                        Rule::Move,
                        format!("the triple stack steps to an adjacent square; {to} is not next to {from}"),
                    ));
                }
                if !target.is_empty() {
                    let rule = if target.fort { Rule::Fortification } else { Rule::Move };
                    return Err(Fault::new(
                        rule,
                        format!("the triple stack steps only to an empty square and never attacks; {to} is not empty"),
                    ));
                }
            }
            b if b == I | A => {
                return Err(Fault::new(
                    Rule::Move,
                    "infantry and artillery do not move together without cavalry: move I, IC or ICA",
                ))
            }
            _ => {
                return Err(Fault::new(
                    Rule::Move,
                    format!(
                        "cavalry and artillery move only with infantry (I, IC or ICA), not as `{}`",
                        letters(bits)
                    ),
                ))
            }
        }
        let effect = if target.side == Some(side) {
            if target.fort && bits != I {
                return Err(Fault::new(
                    Rule::Fortification,
                    format!(
                        "only infantry enters a fortification, so {} cannot go to {to}",
                        letters(bits)
                    ),
                ));
            }
            let full = if target.fort { I } else { target.units & bits };
            if target.units & full != 0 {
                return Err(Fault::new(
                    Rule::Stacking,
                    format!(
                        "{to} already holds {}'s {}: a square holds at most one unit of each kind of a side{}",
                        side.name(),
                        letters(target.units & bits),
                        if target.fort {
                            ", and a fortification one infantry"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            Effect::Go
        } else if enemy {
            if target.fort {
                if bits != I {
                    return Err(Fault::new(
                        Rule::Fortification,
                        format!(
                            "only infantry enters a fortification, so {} cannot attack {to}",
                            letters(bits)
                        ),
                    ));
                }
                if target.units & I == 0 {
                    Effect::Go
                } else {
                    // Fortifications do not support an attack on a manned one.
                    Effect::Attack {
                        supported: self.support(side, to, Some(from)).0 >= 2,
                    }
                }
            } else if bits == I && target.units & I == 0 {
                Effect::Capture
            } else {
                let (infantry, fort) = self.support(side, to, Some(from));
                Effect::Attack {
                    supported: infantry > 0 || fort,
                }
            }
        } else {
            Effect::Go
        };
        if m.capture != enemy {
            return Err(Fault::new(
                Rule::Marker,
                if enemy {
                    format!("{to} holds enemy units, so the movement is written with `x`")
                } else {
                    format!("`x` marks a target with enemy units, but {to} has none: write `-`")
                },
            ));
        }
        Ok(March { from, to, bits, effect })
    }

    /// Checks a shot of `side` and says what it does; nothing changes.
    fn plan_shot(&self, side: Color, from: Square, to: Square) -> Result<Shot, Fault> {
        self.on_board(from)?;
        self.on_board(to)?;
        if let Some(sq) = self.fired {
            return Err(Fault::new(
                Rule::Shot,
                format!(
                    "{}'s shot of this turn is used (from {sq}); it may still move or `end` the turn",
                    side.name()
                ),
            ));
        }
        let origin = self.at(from);
        if origin.side != Some(side) || origin.units & (I | A) != I | A {
            return Err(Fault::new(
                Rule::Shot,
                format!(
                    "a shot needs {}'s infantry and artillery together on {from}",
                    side.name()
                ),
            ));
        }
        if let Some((sq, moved)) = self.moved {
            if sq == from && moved & (I | A) != 0 {
                let taken = moved & self.captured & (I | A);
                let movers = moved & !self.captured & (I | A);
                // Units are captured only by infantry moving in, so the
                // taken ones always stand with a mover.
                let message = if taken == 0 {
                    format!(
                        "the {} on {from} moved this turn, so it takes no part in a shot",
                        letters(movers)
                    )
                } else {
                    format!(
                        "the {} on {from} moved this turn and the {} there was captured this turn \
                         (it acts from {}'s next turn), so neither takes part in a shot",
                        letters(movers),
                        letters(taken),
                        side.name()
                    )
                };
                return Err(Fault::new(Rule::Shot, message));
            }
        }
        let Some(dir) = Self::direction(from, to) else {
            return Err(Fault::new(
                Rule::Shot,
                format!("a shot flies along a straight line, orthogonal or diagonal; {from} to {to} is not one"),
            ));
        };
        if let Some(block) = self.blocker(from, to, dir) {
            return Err(Fault::new(
                Rule::Shot,
                format!("the squares between the gun and its target must be empty; {block} is in the way"),
            ));
        }
        let target = self.at(to);
        if target.side != Some(side.opponent()) {
            return Err(Fault::new(Rule::Shot, format!("{to} holds no enemy units to shoot at")));
        }
        let (infantry, fort) = self.support(side, to, None);
        Ok(Shot {
            from,
            to,
            hits: !target.fort && (infantry > 0 || fort),
        })
    }

    /// Pays an attack's charge and the bonuses and losses of `destroyed`
    /// enemy units.
    ///
    /// Charges count in 64 bits: a side starts with at most `u32::MAX` (the
    /// parameter's range) and gains `GAIN` per enemy unit destroyed, of
    /// which there are at most a few thousand, so the count never reaches
    /// its limit and is never cut short; a loss takes charges down to 0 at
    /// most (0 charges lose the game).
    fn settle(&mut self, side: Color, destroyed: u32) {
        let enemy = side.opponent();
        let destroyed = u64::from(destroyed);
        self.charges[side] = self.charges[side].saturating_sub(1) + u64::from(GAIN) * destroyed;
        self.charges[enemy] = self.charges[enemy].saturating_sub(u64::from(LOSS) * destroyed);
    }

    fn march(&mut self, side: Color, m: March) {
        let target = self.at(m.to);
        let origin = self.at(m.from);
        match m.effect {
            Effect::Attack { supported: false } => {
                self.settle(side, 0);
                self.moved = Some((m.from, m.bits));
                return;
            }
            Effect::Attack { supported: true } => {
                // An infantry attack destroys the infantry and captures the
                // rest; a rider's destroys everything there.
                let destroyed = if m.bits == I { target.units & I } else { target.units };
                self.settle(side, kinds(destroyed).count() as u32);
                let captured = target.units & !destroyed;
                self.set(
                    m.to,
                    Cell {
                        side: Some(side),
                        units: m.bits | captured,
                        fort: target.fort,
                    },
                );
                self.moved = Some((m.to, m.bits | captured));
                self.captured = captured;
            }
            Effect::Capture => {
                self.set(
                    m.to,
                    Cell {
                        side: Some(side),
                        units: m.bits | target.units,
                        fort: false,
                    },
                );
                self.moved = Some((m.to, m.bits | target.units));
                self.captured = target.units;
            }
            Effect::Go => {
                // An own square keeps its units; an empty enemy
                // fortification changes sides.
                let kept = if target.side == Some(side) { target.units } else { 0 };
                self.set(
                    m.to,
                    Cell {
                        side: Some(side),
                        units: kept | m.bits,
                        fort: target.fort,
                    },
                );
                self.moved = Some((m.to, m.bits));
            }
        }
        self.set(m.from, origin.without(m.bits));
    }

    fn shoot(&mut self, side: Color, s: Shot) {
        let target = self.at(s.to);
        if s.hits {
            self.settle(side, kinds(target.units).count() as u32);
            self.set(s.to, Cell::default());
        } else {
            self.settle(side, 0);
        }
        self.fired = Some(s.from);
    }

    /// The side that has lost, if one has: charges at 0 or no infantry.
    fn loss(&self) -> Option<Decision> {
        for side in [Color::White, Color::Black] {
            let reason = if self.charges[side] == 0 {
                Reason::NoCharges
            } else if !self.has_infantry(side) {
                Reason::NoInfantry
            } else {
                continue;
            };
            return Some(Decision::win(side.opponent(), reason));
        }
        None
    }

    /// Every movement `side` may make now.
    pub(super) fn movements(&self, side: Color) -> Vec<UnitMove> {
        let mut out = Vec::new();
        if self.moved.is_some() {
            return out;
        }
        for from in self.squares() {
            let cell = self.at(from);
            if cell.side != Some(side) || cell.units & I == 0 || self.fired == Some(from) {
                continue;
            }
            let mut candidates: Vec<(u8, Square)> = Vec::new();
            for dir in DIRECTIONS {
                let Some(step) = self.offset(from, dir) else {
                    continue;
                };
                candidates.push((I, step));
                if cell.units & (C | A) == C | A {
                    candidates.push((I | C | A, step));
                }
                if cell.units & C != 0 {
                    let mut sq = Some(step);
                    while let Some(s) = sq {
                        candidates.push((I | C, s));
                        if !self.at(s).is_empty() {
                            break;
                        }
                        sq = self.offset(s, dir);
                    }
                }
            }
            for (bits, to) in candidates {
                let units = UnitSet::new(&kinds(bits).collect::<Vec<_>>()).expect("movers are not empty");
                let m = UnitMove {
                    units,
                    from,
                    to,
                    capture: self.at(to).side == Some(side.opponent()),
                };
                if self.plan_march(side, &m).is_ok() {
                    out.push(m);
                }
            }
        }
        out
    }

    /// Every shot `side` may fire now, as (from, to).
    pub(super) fn shots(&self, side: Color) -> Vec<(Square, Square)> {
        let mut out = Vec::new();
        if self.fired.is_some() {
            return out;
        }
        for from in self.squares() {
            let cell = self.at(from);
            if cell.side != Some(side) || cell.units & (I | A) != I | A {
                continue;
            }
            for dir in DIRECTIONS {
                let mut sq = self.offset(from, dir);
                while let Some(s) = sq {
                    if !self.at(s).is_empty() {
                        if self.plan_shot(side, from, s).is_ok() {
                            out.push((from, s));
                        }
                        break;
                    }
                    sq = self.offset(s, dir);
                }
            }
        }
        out
    }

    /// `what` would be legal: the movements from `from`, or the shots.
    fn legal_list(items: Vec<String>) -> String {
        if items.is_empty() {
            "none".into()
        } else {
            items.join(", ")
        }
    }

    pub(super) fn place(&mut self, side: Color, placements: &[Placement]) -> Result<(), Fault> {
        let size = self.size();
        let limits = self.limits();
        let mut counts = self.counts(side);
        // Placements of one event may build on each other (`place Fe3 Ie3`),
        // so they are made on a copy that is kept only if all are legal.
        let mut cells = self.cells.clone();
        for p in placements {
            let Figure::Unit(kind) = p.figure else {
                return Err(Fault::new(
                    Rule::Setup,
                    format!("`{}` is not a great-war-chess unit", p.figure),
                ));
            };
            let sq = p.square;
            self.on_board(sq)?;
            if !setup::in_own_half(size, side, sq) {
                return Err(setup::not_own_half(size, side, sq));
            }
            let i = self.index(sq);
            let cell = cells[i];
            let k = match kind {
                UnitKind::Infantry => 0,
                UnitKind::Cavalry => 1,
                UnitKind::Artillery => 2,
                UnitKind::Fortification => 3,
            };
            if counts[k] >= limits[k] {
                return Err(Fault::new(
                    Rule::SetupLimit,
                    if kind == UnitKind::Fortification && limits[k] == 0 {
                        "this game has no fortifications (the `Fortifications` parameter is 0)".to_string()
                    } else {
                        format!("{} sets up {} of `{}`, no more", side.name(), limits[k], kind.char())
                    },
                ));
            }
            match kind {
                UnitKind::Fortification if !cell.is_empty() => {
                    return Err(Fault::new(
                        Rule::Setup,
                        format!("a fortification goes on an empty square; {sq} is not empty"),
                    ))
                }
                UnitKind::Fortification => {}
                UnitKind::Cavalry | UnitKind::Artillery if cell.fort => {
                    return Err(Fault::new(
                        Rule::Fortification,
                        format!(
                            "only infantry stands on a fortification, so `{}` cannot go to {sq}",
                            kind.char()
                        ),
                    ))
                }
                _ if cell.units & bit(kind) != 0 => {
                    return Err(Fault::new(
                        Rule::Stacking,
                        format!(
                            "{sq} already holds {}'s `{}`: a square holds at most one unit of each kind of a side",
                            side.name(),
                            kind.char()
                        ),
                    ))
                }
                _ => {}
            }
            counts[k] += 1;
            cells[i] = Cell {
                side: Some(side),
                units: cell.units | bit(kind),
                fort: cell.fort || kind == UnitKind::Fortification,
            };
        }
        self.cells = cells;
        Ok(())
    }

    pub(super) fn remove(&mut self, side: Color, unit: Option<UnitKind>, sq: Square) -> Result<(), Fault> {
        self.on_board(sq)?;
        let cell = self.at(sq);
        let Some(kind) = unit else {
            return Err(Fault::new(
                Rule::Setup,
                "great-war-chess names the unit taken back: `remove Cb2`",
            ));
        };
        let has = cell.side == Some(side)
            && match kind {
                UnitKind::Fortification => cell.fort,
                k => cell.units & bit(k) != 0,
            };
        if !has {
            return Err(Fault::new(
                Rule::Setup,
                format!("{} has no `{}` on {sq} to remove", side.name(), kind.char()),
            ));
        }
        let left = match kind {
            UnitKind::Fortification => Cell {
                fort: false,
                side: if cell.units == 0 { None } else { cell.side },
                ..cell
            },
            k => cell.without(bit(k)),
        };
        self.set(sq, left);
        Ok(())
    }

    /// What `side` still has to place before `ready`, or `None` when all is placed.
    pub(super) fn missing(&self, side: Color) -> Option<String> {
        let counts = self.counts(side);
        let missing: Vec<String> = self
            .limits()
            .iter()
            .zip(counts)
            .zip(UnitKind::ALL)
            .filter(|((&limit, count), _)| *count < limit)
            .map(|((&limit, count), kind)| format!("{} `{}`", limit - count, kind.char()))
            .collect();
        (!missing.is_empty()).then(|| missing.join(", "))
    }

    /// Declares `side` ready and, when both are, starts the game.
    pub(super) fn make_ready(&mut self, side: Color, mut ready: ByColor<bool>) {
        ready[side] = true;
        self.turn = if ready.white && ready.black {
            Turn::Move {
                side: Color::White,
                number: MoveNumber(1),
            }
        } else {
            Turn::Setup { ready }
        };
    }

    /// Applies `side`'s action in its turn numbered `number`.
    pub(super) fn play(&mut self, side: Color, number: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        let next = next_turn(side, number)?;
        match action {
            Action::March(m) => {
                let plan = self
                    .plan_march(side, m)
                    .map_err(|f| self.with_movements(side, m.from, f))?;
                self.march(side, plan);
            }
            Action::Shot { from, to } => {
                let plan = self.plan_shot(side, *from, *to).map_err(|mut f| {
                    let mut shots = self.shots(side);
                    // By square (rank, then file), as every list of squares.
                    shots.sort();
                    let shots = shots.iter().map(|(a, b)| format!("A{a}*{b}")).collect();
                    f.message = format!(
                        "{}; {}'s legal shots: {}",
                        f.message,
                        side.name(),
                        Self::legal_list(shots)
                    );
                    f
                })?;
                self.shoot(side, plan);
            }
            // Once a movement or a shot is made, a turn always has one of
            // the two left: the turn passes by itself when both are used.
            Action::End => {}
            _ => {
                return Err(Fault::new(
                    Rule::Setup,
                    format!(
                        "setup is over: `{}` is not possible now",
                        fgn_notation::forms::keyword(action)
                    ),
                ))
            }
        }
        if matches!(action, Action::End) || (self.moved.is_some() && self.fired.is_some()) {
            self.turn = next;
            self.moved = None;
            self.captured = 0;
            self.fired = None;
        }
        Ok(self.loss())
    }

    /// `fault` with the movements `side` may make from `from` added.
    fn with_movements(&self, side: Color, from: Square, mut fault: Fault) -> Fault {
        if matches!(fault.rule, Rule::Square) {
            return fault;
        }
        let mut here: Vec<(Square, String)> = self
            .movements(side)
            .iter()
            .filter(|m| m.from == from)
            .map(|m| (m.to, Action::March(*m).to_string()))
            .collect();
        // By the square reached (rank, then file), as every list of squares;
        // the stacks that go there in the order they are made (infantry
        // alone first), which a stable sort keeps.
        here.sort_by_key(|(to, _)| *to);
        let here = here.into_iter().map(|(_, name)| name).collect();
        fault.message = format!(
            "{}; legal movements from {from}: {}",
            fault.message,
            Self::legal_list(here)
        );
        fault
    }
}
