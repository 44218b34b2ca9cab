//! The world's random outcomes: which objects may spawn under the
//! parameters, what a revealed seed derives for each spawn, damage roll and
//! clone, and the seed check that compares them with the log.

use fgn_notation::{ObjectKind, Square};

use super::engine::{Cause, Draw, OpenWorld};
use super::params::OpenWorldRules;
use crate::core::error::{Fault, Rule};
use crate::core::seed::{origin, Draws, Salts};

/// The name of a draw, `open-world-chess/{what}/{n}/{side}/{place}/{square}`
/// for a move (`w` or `b`, its place within the turn from 1), and
/// `open-world-chess/{what}/0/start/{square}` for the starting light,
/// written on the stack without the formatting machinery: the seed check
/// derives every square a move lit again, so this runs for most events. The
/// longest name (a ten-digit move number, a side, a ten-digit place, a
/// three-character square and the longest `what`) is well under the
/// buffer's size.
struct Name {
    buf: [u8; 96],
    len: usize,
    /// Where `{what}` begins: the prefix before it never changes.
    what_at: usize,
    /// The label after `{what}`: `/{n}/{side}/{place}/{square}` or `/{n}/start/{square}`.
    base: [u8; 48],
    base_len: usize,
}

impl Name {
    const PREFIX: &'static [u8] = b"open-world-chess/";

    /// The names of the draws for `square`, lit (or rolled on) by `cause`
    /// at full move `n`.
    fn new(n: u32, cause: Cause, square: Square) -> Name {
        let mut name = Name {
            buf: [0; 96],
            len: Self::PREFIX.len(),
            what_at: Self::PREFIX.len(),
            base: [0; 48],
            base_len: 0,
        };
        name.buf[..Self::PREFIX.len()].copy_from_slice(Self::PREFIX);
        let mut base = Writer {
            buf: &mut name.base,
            len: 0,
        };
        base.byte(b'/');
        base.number(u64::from(n));
        base.byte(b'/');
        match cause {
            Cause::Move { side, place } => {
                base.byte(side.char() as u8);
                base.byte(b'/');
                base.number(u64::from(place));
            }
            Cause::Start => base.bytes(b"start"),
        }
        base.byte(b'/');
        // As `Square` displays: the file letter, then the rank from 1.
        base.byte(b'a' + square.file_index());
        base.number(u64::from(square.rank_index()) + 1);
        name.base_len = base.len;
        name
    }

    /// The full name of the draw `what`.
    fn of(&mut self, what: &str) -> &str {
        let mut w = Writer {
            buf: &mut self.buf,
            len: self.what_at,
        };
        w.bytes(what.as_bytes());
        w.bytes(&self.base[..self.base_len]);
        self.len = w.len;
        std::str::from_utf8(&self.buf[..self.len]).expect("made of ASCII")
    }
}

/// Appends ASCII to a fixed buffer.
struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Writer<'_> {
    fn byte(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// `x` in decimal, as `Display` writes it.
    fn number(&mut self, x: u64) {
        self.bytes(crate::core::seed::Decimal::of(x).as_bytes());
    }
}

/// What the seed gives a square that turned lit: no object, a coin or a bonus.
pub fn derive_spawn(r: &OpenWorldRules, draws: &Draws, n: u32, cause: Cause, square: Square) -> Option<ObjectKind> {
    let mut name = Name::new(n, cause, square);
    if draws.below(name.of("spawn"), 100) >= u64::from(r.spawn_chance) {
        return None;
    }
    if draws.below(name.of("coin"), 100) < u64::from(r.coin_share) {
        return Some(ObjectKind::Coin);
    }
    let x = draws.below(name.of("bonus"), 100);
    Some(bonus_kind(r, n, x, draws, &mut name))
}

/// The damage roll the seed gives for the object on `square`.
pub fn derive_damage(r: &OpenWorldRules, draws: &Draws, n: u32, cause: Cause, square: Square) -> u8 {
    let roll = draws.below(Name::new(n, cause, square).of("damage"), u64::from(r.damage_roll));
    1 + roll as u8
}

/// The square the seed gives a clone picked up on `square`.
pub fn derive_clone(draws: &Draws, n: u32, cause: Cause, square: Square, candidates: &[Square]) -> Square {
    let k = draws.below(Name::new(n, cause, square).of("clone"), candidates.len() as u64);
    candidates[k as usize]
}

/// The damage share (percent of bonuses) at full move `n`.
fn damage_share(r: &OpenWorldRules, n: u32) -> u32 {
    let ramp = n.saturating_sub(r.damage_ramp_start).saturating_mul(r.damage_ramp_step);
    r.bonus_weights.damage.saturating_add(ramp).min(r.damage_max)
}

/// Whether `object` can spawn at full move `n` at all: without the seed
/// that is all a log's spawns can be checked for.
fn spawn_possible(r: &OpenWorldRules, n: u32, object: ObjectKind) -> bool {
    if r.spawn_chance == 0 {
        return false;
    }
    let w = r.bonus_weights;
    let share = damage_share(r, n);
    match object {
        ObjectKind::Coin => r.coin_share > 0,
        _ if r.coin_share >= 100 => false,
        ObjectKind::Damage => share > 0,
        _ if share >= 100 => false,
        ObjectKind::Regen => w.regen > 0,
        ObjectKind::Hp => w.hp > 0,
        ObjectKind::Kinghp => w.kinghp > 0,
        ObjectKind::Clone => w.clone > 0,
    }
}

/// The bonus a roll `x` in 0..100 gives at full move `n`: damage with the
/// ramped share, otherwise one of the others by their weights.
fn bonus_kind(r: &OpenWorldRules, n: u32, x: u64, draws: &Draws, name: &mut Name) -> ObjectKind {
    let w = r.bonus_weights;
    if x < u64::from(damage_share(r, n)) {
        return ObjectKind::Damage;
    }
    let total = u64::from(w.regen + w.hp + w.kinghp + w.clone);
    let mut y = draws.below(name.of("kind"), total);
    for (kind, weight) in [
        (ObjectKind::Regen, w.regen),
        (ObjectKind::Hp, w.hp),
        (ObjectKind::Kinghp, w.kinghp),
        (ObjectKind::Clone, w.clone),
    ] {
        if y < u64::from(weight) {
            return kind;
        }
        y -= u64::from(weight);
    }
    ObjectKind::Clone
}

impl OpenWorld {
    /// Whether the world owes an event before anything else may happen:
    /// the outcome of the move in transit, or a spawn that `spawn_chance`
    /// 100 makes certain.
    pub(super) fn owes_world_event_now(&self) -> bool {
        self.world.owed.is_some() || self.spawn_owed().is_some()
    }

    /// `@ spawn square object`: the next squares of the spawn window up to
    /// `square` rolled, and only `square` got an object.
    pub(super) fn world_spawn(&mut self, square: Square, object: ObjectKind) -> Result<(), Fault> {
        let window = &self.world.spawns;
        let Some(pos) = window.squares.iter().position(|&sq| sq == square) else {
            let list: Vec<String> = window.squares.iter().map(Square::to_string).collect();
            return Err(Fault::new(
                Rule::WorldEvent,
                if list.is_empty() {
                    format!("nothing may spawn on {square} now: objects spawn on squares the last move turned from fogged to lit")
                } else {
                    format!(
                        "{square} cannot spawn now; the squares that may, in square order: {}",
                        list.join(", ")
                    )
                },
            ));
        };
        if let Some(first) = self.spawn_owed().filter(|&first| first != square) {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("with spawn_chance 100 every square that rolls gets an object, in square order: {first} first"),
            ));
        }
        let (n, cause) = (window.n, window.cause);
        if !spawn_possible(&self.rules, n, object) {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!(
                    "a `{}` cannot spawn at move {n} under these parameters (its chance is 0)",
                    object.name()
                ),
            ));
        }
        self.skip_spawns(pos);
        self.world.spawns.squares.remove(0);
        let i = self.index(square);
        self.world.objects[i] = Some(object);
        self.draws.push(Draw::Spawn {
            n,
            cause,
            square,
            observed: Some(object),
            event: Some(self.event),
        });
        Ok(())
    }

    /// Derives every random outcome again from the revealed seed (and the
    /// players' salts) and compares it with the log: the recorded draws,
    /// then the squares of a spawn window still open (they rolled no object
    /// as far as the log says).
    pub(super) fn verify_seed(&self, seed: &[u8; 32], salts: &Salts) -> Result<(), Fault> {
        self.verify_draws(seed, salts, true)
    }

    /// [`Self::verify_seed`] over the outcomes recorded so far, and with
    /// `open`, the squares of the spawn window still open too.
    pub(super) fn verify_draws(&self, seed: &[u8; 32], salts: &Salts, open: bool) -> Result<(), Fault> {
        let draws = Draws::salted(seed, salts);
        let from = origin(salts);
        let window = &self.world.spawns;
        let open: Vec<Draw> = window
            .squares
            .iter()
            .filter(|_| open)
            .map(|&square| Draw::Spawn {
                n: window.n,
                cause: window.cause,
                square,
                observed: None,
                event: window.lit_at,
            })
            .collect();
        for d in self.draws.iter().chain(&open) {
            match d {
                Draw::Spawn {
                    n,
                    cause,
                    square,
                    observed,
                    event,
                } => {
                    let derived = derive_spawn(&self.rules, &draws, *n, *cause, *square);
                    if derived != *observed {
                        let said =
                            observed.map_or("no object".to_string(), |o| format!("`spawn {square} {}`", o.name()));
                        let truth =
                            derived.map_or("no object".to_string(), |o| format!("`spawn {square} {}`", o.name()));
                        let fault = Fault::new(
                            Rule::Seed,
                            format!("{from} gives {truth} on {square}, but the log has {said}"),
                        );
                        return Err(match event {
                            Some(e) => fault.at(*e),
                            None => fault,
                        });
                    }
                }
                Draw::Damage {
                    n,
                    cause,
                    square,
                    observed,
                    event,
                } => {
                    let derived = derive_damage(&self.rules, &draws, *n, *cause, *square);
                    if u16::from(derived) != *observed {
                        return Err(Fault::new(
                            Rule::Seed,
                            format!("{from} rolls {derived} for the damage on {square}, not {observed}"),
                        )
                        .at(*event));
                    }
                }
                Draw::Clone {
                    n,
                    cause,
                    square,
                    candidates,
                    observed,
                    event,
                } => {
                    let derived = derive_clone(&draws, *n, *cause, *square, candidates);
                    if derived != *observed {
                        return Err(Fault::new(
                            Rule::Seed,
                            format!("{from} puts the clone on {derived}, not {observed}"),
                        )
                        .at(*event));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Cause, Name};
    use fgn_notation::{Color, Square};
    use proptest::prelude::*;

    proptest! {
        /// The draw names written on the stack are the ones the seed
        /// derivation documents (docs/notation.md §12.6), as `format!`
        /// writes them, up to the largest numbers and squares (`z26`).
        #[test]
        fn draw_names_are_written_as_format_writes_them(
            n in prop_oneof![0u32..200, Just(u32::MAX)],
            cause in prop_oneof![
                Just(Cause::Start),
                (any::<bool>(), prop_oneof![1u32..4, Just(u32::MAX)]).prop_map(|(white, place)| Cause::Move {
                    side: if white { Color::White } else { Color::Black },
                    place,
                }),
            ],
            file in 0u8..26,
            rank in 0u8..26,
            what in prop_oneof![Just("spawn"), Just("coin"), Just("bonus"), Just("kind"), Just("damage"), Just("clone")],
        ) {
            let square = Square::new(file, rank).expect("on a board");
            let cause_text = match cause {
                Cause::Start => "start".to_string(),
                Cause::Move { side, place } => format!("{}/{place}", side.char()),
            };
            let want = format!("open-world-chess/{what}/{n}/{cause_text}/{square}");
            let mut name = Name::new(n, cause, square);
            // Twice: a name is reused for the next draw of the same square.
            prop_assert_eq!(name.of("kind"), format!("open-world-chess/kind/{n}/{cause_text}/{square}"));
            prop_assert_eq!(name.of(what), want);
        }
    }
}
