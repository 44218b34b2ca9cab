//! A move resolved step by step in rule order: damage on the path, combat,
//! promotion, pick-up, lighting. Where a step needs a random outcome the
//! move waits in transit for the world event that records it.

use fgn_notation::{ChessMove, Color, MoveNumber, ObjectKind, PieceKind, Reason, Square};

use super::engine::{Cause, Draw, OpenWorld, Owed, Transit};
use crate::core::error::{Fault, Rule};
use crate::core::progress::Decision;

impl OpenWorld {
    /// The king of `color` died on `square` (or attacking the piece
    /// there): its side loses at once and nothing of the move goes on.
    pub(super) fn king_died(&mut self, color: Color, square: Square) -> Option<Decision> {
        self.world.decided = true;
        self.world.fallen = Some((color, square));
        self.world.transit = None;
        self.world.owed = None;
        self.close_spawn_window();
        Some(Decision::win(color.opponent(), Reason::KingKilled))
    }

    /// Goes on resolving the move in transit until it needs the world or is done.
    fn resolve(&mut self) -> Result<Option<Decision>, Fault> {
        let Some(mut t) = self.world.transit.take() else {
            return Ok(None);
        };
        while t.next < t.path.len() {
            let sq = t.path.get(t.next);
            t.next += 1;
            if self.cell(sq).object == Some(ObjectKind::Damage) {
                self.world.owed = Some(Owed::Damage {
                    square: sq,
                    on_path: true,
                });
                self.world.transit = Some(t);
                return Ok(None);
            }
        }
        // Combat at the target, with the HP the piece has after the path.
        let mut unit = t.unit;
        if let Some(defender) = self.piece(t.to) {
            if unit.hp < defender.hp {
                let mut d = defender;
                d.hp -= unit.hp;
                self.set(t.to, Some(d));
                if unit.kind == PieceKind::King {
                    return Ok(self.king_died(unit.color, t.to));
                }
                return Ok(self.move_done(None));
            }
            unit.hp = if unit.hp > defender.hp {
                unit.hp - defender.hp
            } else {
                1
            };
            self.set(t.to, None);
            if defender.kind == PieceKind::King {
                self.set(t.to, Some(unit));
                return Ok(self.king_died(defender.color, t.to));
            }
        }
        if let Some(p) = t.promotion {
            unit.kind = p;
            unit.range = false;
        }
        self.set(t.to, Some(unit));
        self.pick_up(t)
    }

    /// The pick-up at the target, then lighting.
    fn pick_up(&mut self, t: Transit) -> Result<Option<Decision>, Fault> {
        let i = self.index(t.to);
        let Some(mut unit) = self.world.pieces[i] else {
            return Ok(self.move_done(None));
        };
        let king = unit.kind == PieceKind::King;
        match self.world.objects[i] {
            Some(ObjectKind::Regen) if !king => {
                unit.hp = unit
                    .hp
                    .saturating_add(u64::from(self.rules.regen_heal))
                    .min(unit.max)
                    .max(unit.hp);
                self.world.objects[i] = None;
            }
            Some(ObjectKind::Hp) if !king => {
                unit.max = unit.max.saturating_add(1);
                unit.hp = unit.hp.saturating_add(1);
                self.world.objects[i] = None;
            }
            Some(ObjectKind::Damage) => {
                self.world.owed = Some(Owed::Damage {
                    square: t.to,
                    on_path: false,
                });
                self.world.transit = Some(t);
                return Ok(None);
            }
            Some(ObjectKind::Kinghp) => {
                self.world.objects[i] = None;
                if let Some(ks) = self.squares().find(|&s| {
                    self.piece(s)
                        .is_some_and(|u| u.color == unit.color && u.kind == PieceKind::King)
                }) {
                    let mut k = if ks == t.to {
                        unit
                    } else {
                        self.piece(ks).expect("found")
                    };
                    if k.hp < k.max {
                        k.hp = k.max;
                    } else {
                        k.max = k.max.saturating_add(1);
                        k.hp = k.hp.saturating_add(1);
                    }
                    if ks == t.to {
                        unit = k;
                    } else {
                        self.set(ks, Some(k));
                    }
                }
            }
            Some(ObjectKind::Clone) if !king => {
                self.world.objects[i] = None;
                self.set(t.to, Some(unit));
                let candidates = self.clone_squares(unit, t.to);
                if !candidates.is_empty() {
                    self.world.owed = Some(Owed::Clone {
                        object: t.to,
                        candidates,
                    });
                    self.world.transit = Some(t);
                    return Ok(None);
                }
            }
            Some(ObjectKind::Coin) => {
                self.world.objects[i] = None;
                self.world.coins[unit.color] += 1;
            }
            _ => {}
        }
        self.set(t.to, Some(unit));
        Ok(self.light_and_finish(&t))
    }

    /// The move's last steps once the piece stands: lighting around it,
    /// which opens the spawn window.
    fn light_and_finish(&mut self, t: &Transit) -> Option<Decision> {
        self.light(t.to, t.n, t.cause, t.event);
        self.move_done(Some(t.to))
    }

    /// The move is resolved; `landed` is where the piece stands if it lives.
    fn move_done(&mut self, landed: Option<Square>) -> Option<Decision> {
        self.world.transit = None;
        self.world.owed = None;
        self.world.moves_left = self.world.moves_left.saturating_sub(1);
        self.world.played = self.world.played.saturating_add(1);
        self.world.shop_open = landed.is_some_and(|sq| self.cell(sq).merchant);
        None
    }

    /// Checks a move of `mover` and starts resolving it.
    pub(super) fn play_move(&mut self, mover: Color, n: MoveNumber, m: &ChessMove) -> Result<Option<Decision>, Fault> {
        let (Some(from), Some(to)) = (m.from, m.to) else {
            return Err(Fault::new(Rule::Move, "a full log names both squares of a move"));
        };
        for sq in [from, to] {
            if !self.on_board(sq) {
                return Err(Fault::new(
                    Rule::Square,
                    format!("{sq} is not on the {}x{} board", self.files, self.ranks),
                ));
            }
        }
        if self.world.moves_left == 0 {
            return Err(Fault::new(
                Rule::Turn,
                format!("{} has no moves left in this turn", mover.name()),
            ));
        }
        let unit = match self.piece(from) {
            Some(u) if u.color == mover => u,
            Some(_) => {
                return Err(Fault::new(
                    Rule::Move,
                    format!("the piece on {from} is not {}'s", mover.name()),
                ))
            }
            None => return Err(Fault::new(Rule::Move, format!("there is no piece on {from}"))),
        };
        if unit.kind != m.piece {
            return Err(Fault::new(
                Rule::Marker,
                format!(
                    "the piece on {from} is a {} (`{}`), not `{}`",
                    unit.kind.name(),
                    unit.kind.char(),
                    m.piece.char()
                ),
            ));
        }
        let target = self.piece(to);
        if target.is_some_and(|t| t.color == mover) {
            return Err(Fault::new(
                Rule::Move,
                format!("{to} holds {}'s own piece", mover.name()),
            ));
        }
        if target.is_some() != m.capture {
            return Err(Fault::new(
                Rule::Marker,
                if m.capture {
                    format!("`x` marks an attack, but {to} holds no piece: write `-`")
                } else {
                    format!("{to} holds an enemy piece, so the move is an attack: write `x`")
                },
            ));
        }
        let path = self.geometry(unit, from, to, m.capture).map_err(|why| {
            Fault::new(
                Rule::Move,
                format!("the {} on {from} cannot go to {to}: {}", unit.kind.name(), why.rule()),
            )
        })?;
        let far = self.far_rank(mover);
        let promotion = match (unit.kind == PieceKind::Pawn && to.rank_index() == far, m.promotion) {
            (true, Some(p)) if !p.is_promotion_target() => {
                return Err(Fault::new(Rule::Promotion, "a pawn promotes to Q, R, B or N"))
            }
            (true, p) => Some(p.unwrap_or(PieceKind::Queen)),
            (false, None) => None,
            (false, Some(_)) => return Err(Fault::new(Rule::Promotion, "a pawn promotes only on the far rank")),
        };
        self.world.shop_open = false;
        self.close_spawn_window();
        self.set(from, None);
        self.world.transit = Some(Transit {
            unit,
            to,
            path,
            next: 0,
            promotion,
            n: n.0,
            cause: Cause::Move {
                side: mover,
                place: self.world.played + 1,
            },
            event: self.event,
        });
        self.resolve()
    }

    /// `@ damage square amount`: the owed roll, on the path or at the target.
    pub(super) fn world_damage(&mut self, square: Square, amount: u8) -> Result<Option<Decision>, Fault> {
        let Some(Owed::Damage { square: due, on_path }) = self.world.owed.clone() else {
            return Err(Fault::new(
                Rule::WorldEvent,
                "no damage roll is owed: `@ damage` follows a move onto or over a damage object",
            ));
        };
        if square != due {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("the damage roll owed is for the object on {due}"),
            ));
        }
        if amount == 0 || amount > self.rules.damage_roll {
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("a damage roll is 1..{}", self.rules.damage_roll),
            ));
        }
        let mut t = self.world.transit.take().expect("a damage roll belongs to a move");
        self.world.owed = None;
        let i = self.index(square);
        self.world.objects[i] = None;
        self.draws.push(Draw::Damage {
            n: t.n,
            cause: t.cause,
            square,
            observed: u16::from(amount),
            event: self.event,
        });
        if on_path {
            t.unit.hp = t.unit.hp.saturating_sub(u64::from(amount));
            if t.unit.hp == 0 {
                // The piece dies on the way: the move ends there.
                if t.unit.kind == PieceKind::King {
                    return Ok(self.king_died(t.unit.color, square));
                }
                return Ok(self.move_done(None));
            }
            self.world.transit = Some(t);
            return self.resolve();
        }
        let mut unit = self.piece(t.to).expect("the piece stands on the object");
        unit.hp = unit.hp.saturating_sub(u64::from(amount));
        if unit.hp == 0 {
            self.set(t.to, None);
            if unit.kind == PieceKind::King {
                return Ok(self.king_died(unit.color, t.to));
            }
            return Ok(self.move_done(None));
        }
        self.set(t.to, Some(unit));
        Ok(self.light_and_finish(&t))
    }

    /// `@ clone square`: where the owed clone goes.
    pub(super) fn world_clone(&mut self, square: Square) -> Result<Option<Decision>, Fault> {
        let Some(Owed::Clone { object, candidates }) = self.world.owed.clone() else {
            return Err(Fault::new(
                Rule::WorldEvent,
                "no clone is owed: `@ clone` follows a pick-up of a clone object",
            ));
        };
        if !candidates.contains(&square) {
            let list: Vec<String> = candidates.iter().map(Square::to_string).collect();
            return Err(Fault::new(
                Rule::WorldEvent,
                format!("the clone goes to one of {}, not {square}", list.join(", ")),
            ));
        }
        let t = self.world.transit.take().expect("a clone belongs to a move");
        self.world.owed = None;
        let unit = self.piece(object).expect("the cloned piece");
        let clone = self.fresh_unit(unit.color, unit.kind);
        self.set(square, Some(clone));
        self.draws.push(Draw::Clone {
            n: t.n,
            cause: t.cause,
            square: object,
            candidates,
            observed: square,
            event: self.event,
        });
        Ok(self.light_and_finish(&t))
    }
}
