//! Turns: who may act now, what a player's or the world's action does to
//! the turn, and how a turn ends.

use fgn_notation::{Action, Color, MoveNumber, Square};

use super::outcomes::Cause;
use super::resolve::Owed;
use super::OpenWorld;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{next_turn, Decision, Turn};

impl OpenWorld {
    /// A world event: an owed outcome or a spawn.
    pub(super) fn world_action(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        let decision = match action {
            Action::Damage { square, amount } => self.world_damage(*square, *amount)?,
            Action::Clone { square } => self.world_clone(*square)?,
            Action::Spawn { square, object } => return self.world_spawn(*square, *object).map(|()| None),
            other => {
                return Err(Fault::new(
                    Rule::WorldEvent,
                    format!(
                        "`{}` is not a world event of open-world-chess",
                        fgn_notation::forms::keyword(other)
                    ),
                ))
            }
        };
        self.maybe_close()?;
        Ok(decision)
    }

    /// A player's move, `end` or purchase, with the turn changes it brings.
    pub(super) fn player_action(
        &mut self,
        actor: Color,
        n: MoveNumber,
        action: &Action,
    ) -> Result<Option<Decision>, Fault> {
        // The spawn window closes at the first event that is not a spawn.
        self.close_spawn_window();
        let buying = matches!(action, Action::Buy { .. });
        if let (Some((buyer, turn_number)), Action::Buy { item, square, .. }) = (self.world.late_shop, action) {
            if buyer == actor {
                if n != turn_number {
                    return Err(Fault::new(
                        Rule::MoveNumber,
                        format!(
                            "a purchase after {}'s last move carries that turn's number {turn_number}, not {n}",
                            actor.name()
                        ),
                    ));
                }
                return self.buy(actor, *item, *square);
            }
        }
        // Any other event closes the late shop, and with it the turn.
        self.close_late_shop();
        let (mover, number) = self.current();
        // A turn whose moves are spent is closed already, at its last move
        // or at the world event that move owed (the session takes no
        // player event while one is owed), so the opponent can never be
        // the one to close it.
        if actor != mover {
            return Err(Fault::new(Rule::Turn, format!("it is {}'s turn", mover.name())));
        } else if self.world.shop_open && !buying {
            self.world.shop_open = false;
            if self.world.moves_left == 0 {
                return Err(Fault::new(
                    Rule::Turn,
                    format!("{}'s turn is over: its moves are spent", mover.name()),
                ));
            }
        }
        if n != number {
            return Err(Fault::new(
                Rule::MoveNumber,
                format!("{}'s turn carries move number {number}, not {n}", mover.name()),
            ));
        }
        let decision = match action {
            Action::Move(m) => self.play_move(actor, number, m)?,
            Action::End => {
                if self.world.moves_left == 0 {
                    return Err(Fault::new(
                        Rule::Turn,
                        "`end` ends a turn early, while a move remains; this one has none left",
                    ));
                }
                self.world.moves_left = 0;
                self.world.shop_open = false;
                self.close_turn(true)?;
                return Ok(None);
            }
            Action::Buy { item, square, .. } => self.buy(actor, *item, *square)?,
            other => {
                return Err(Fault::new(
                    Rule::Move,
                    format!(
                        "`{}` is not an action of open-world-chess",
                        fgn_notation::forms::keyword(other)
                    ),
                ))
            }
        };
        if decision.is_none() && !buying {
            self.maybe_close()?;
        }
        Ok(decision)
    }
}

impl OpenWorld {
    /// A side's coins.
    pub(crate) fn coins(&self, color: Color) -> u32 {
        self.world.coins[color]
    }

    /// The world event the engine waits for: a damage roll on a square, or
    /// a clone's square among candidates.
    pub(crate) fn owed(&self) -> Option<(Square, Option<Vec<Square>>)> {
        match &self.world.owed {
            Some(Owed::Damage { square, .. }) => Some((*square, None)),
            Some(Owed::Clone { object, candidates }) => Some((*object, Some(candidates.clone()))),
            None => None,
        }
    }

    /// The move in transit's full-move number and cause, for deriving its outcomes.
    pub(crate) fn cause(&self) -> Option<(u32, Cause)> {
        self.world.transit.as_ref().map(|t| (t.n, t.cause))
    }

    /// Whose turn it is, and which.
    pub(super) fn turn_now(&self) -> Turn {
        self.world.turn
    }

    /// The side to move and its turn's number.
    pub(super) fn current(&self) -> (Color, MoveNumber) {
        match self.world.turn {
            Turn::Move { side, number } => (side, number),
            // Open-world-chess has no setup; its turn is never this.
            Turn::Setup { .. } => (Color::White, MoveNumber(0)),
        }
    }

    /// Passes the turn on after the mover's last move or `end`: the
    /// opponent's turn with its moves (curses taken off, at least one
    /// left). The turn ends there, with its ageing, unless its owner may
    /// still buy (`ends` false): then it ends, and ages, at the first event
    /// after those purchases that is not one ([`Self::close_late_shop`]).
    fn close_turn(&mut self, ends: bool) -> Result<(), Fault> {
        let (mover, number) = self.current();
        if ends {
            self.age();
        }
        self.world.turn = next_turn(mover, number)?;
        let next = mover.opponent();
        let curses = std::mem::take(&mut self.world.curses[next]);
        self.world.moves_left = u32::from(self.rules.moves_per_turn).saturating_sub(curses).max(1);
        self.world.played = 0;
        self.world.shop_open = false;
        Ok(())
    }

    /// After a move is fully resolved: with no moves left the turn passes
    /// at once, so that the opponent is the side to move (for its clock
    /// too). If the last move ended on a merchant square, the mover may
    /// still buy until the next event that is not a purchase or chat
    /// (RULES.md: "After the last move the turn ends at the next event that
    /// is not a purchase or chat"): those purchases carry the turn's number
    /// and its time, and the turn ends, and ages, only after them.
    fn maybe_close(&mut self) -> Result<(), Fault> {
        if self.world.transit.is_none()
            && self.world.owed.is_none()
            && !self.world.decided
            && self.world.moves_left == 0
        {
            let (mover, number) = self.current();
            let late = self.world.shop_open.then_some((mover, number));
            self.close_turn(late.is_none())?;
            self.world.late_shop = late;
        }
        Ok(())
    }

    /// The first event after the purchases that follow a turn's last move
    /// that is not a purchase or chat: the purchases are over, and the
    /// turn ends with its ageing (RULES.md: "At the end of every turn ...
    /// each lit square that was not lit during that turn and is not
    /// occupied ages by 1"), after whatever they changed.
    pub(super) fn close_late_shop(&mut self) {
        if self.world.late_shop.take().is_some() && !self.world.decided {
            self.age();
        }
    }
}
