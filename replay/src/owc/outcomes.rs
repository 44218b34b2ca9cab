//! The world's random outcomes: which objects may spawn under the
//! parameters, what a revealed seed derives for each spawn, damage roll and
//! clone, and the seed check that compares them with the log.

use fgn_notation::{ObjectKind, Square};

use super::OpenWorld;
use crate::error::{Fault, Rule};
use crate::ruleset::OpenWorldRules;
use crate::seed::{origin, Draws, Salts};

/// A random outcome the log recorded (or did not), kept for the seed check.
#[derive(Clone, Debug)]
pub(super) enum Draw {
    /// A square that turned lit and rolled for an object.
    Spawn {
        n: u32,
        cause: Option<usize>,
        square: Square,
        observed: Option<ObjectKind>,
        event: Option<usize>,
    },
    /// A damage roll.
    Damage {
        n: u32,
        cause: usize,
        square: Square,
        observed: u16,
        event: usize,
    },
    /// Where a clone went, among the candidates in square order.
    Clone {
        n: u32,
        cause: usize,
        square: Square,
        candidates: Vec<Square>,
        observed: Square,
        event: usize,
    },
}

/// The label base of a draw: full move, causing event (`start` for the
/// starting light) and square.
fn label(n: u32, cause: Option<usize>, square: Square) -> String {
    use std::fmt::Write as _;
    // One allocation: the seed check derives every spawn again, so this
    // runs for every square a move lit.
    let mut base = String::with_capacity(24);
    let _ = match cause {
        Some(c) => write!(base, "{n}/{c}/{square}"),
        None => write!(base, "{n}/start/{square}"),
    };
    base
}

/// The draw `open-world-chess/{what}/{base}`, a uniform integer in `0..n`.
/// Its name is written on the stack, not allocated: the longest name (a
/// ten-digit move number, a twenty-digit event and a three-character
/// square) is well under the buffer's size.
fn draw(draws: &Draws, what: &str, base: &str, n: u64) -> u64 {
    let mut buf = [0u8; 128];
    let mut at = 0;
    for part in ["open-world-chess/", what, "/", base] {
        buf[at..at + part.len()].copy_from_slice(part.as_bytes());
        at += part.len();
    }
    let name = std::str::from_utf8(&buf[..at]).expect("made of strings");
    draws.below(name, n)
}

/// What the seed gives a square that turned lit: no object, a coin or a bonus.
pub fn derive_spawn(
    r: &OpenWorldRules,
    draws: &Draws,
    n: u32,
    cause: Option<usize>,
    square: Square,
) -> Option<ObjectKind> {
    let base = label(n, cause, square);
    if draw(draws, "spawn", &base, 100) >= u64::from(r.spawn_chance) {
        return None;
    }
    if draw(draws, "coin", &base, 100) < u64::from(r.coin_share) {
        return Some(ObjectKind::Coin);
    }
    Some(bonus_kind(r, n, draw(draws, "bonus", &base, 100), draws, &base))
}

/// The damage roll the seed gives for the object on `square`.
pub fn derive_damage(r: &OpenWorldRules, draws: &Draws, n: u32, cause: usize, square: Square) -> u8 {
    let roll = draws.below(
        &format!("open-world-chess/damage/{}", label(n, Some(cause), square)),
        u64::from(r.damage_roll),
    );
    1 + roll as u8
}

/// The square the seed gives a clone picked up on `square`.
pub fn derive_clone(draws: &Draws, n: u32, cause: usize, square: Square, candidates: &[Square]) -> Square {
    let k = draws.below(
        &format!("open-world-chess/clone/{}", label(n, Some(cause), square)),
        candidates.len() as u64,
    );
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
fn bonus_kind(r: &OpenWorldRules, n: u32, x: u64, draws: &Draws, base: &str) -> ObjectKind {
    let w = r.bonus_weights;
    if x < u64::from(damage_share(r, n)) {
        return ObjectKind::Damage;
    }
    let total = u64::from(w.regen + w.hp + w.kinghp + w.clone);
    let mut y = draw(draws, "kind", base, total);
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
        self.world.cells[i].object = Some(object);
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
        let draws = Draws::salted(seed, salts);
        let from = origin(salts);
        let window = &self.world.spawns;
        let open: Vec<Draw> = window
            .squares
            .iter()
            .map(|&square| Draw::Spawn {
                n: window.n,
                cause: window.cause,
                square,
                observed: None,
                event: None,
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
                        return Err(match event.or(*cause) {
                            Some(e) => fault.at(e),
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
