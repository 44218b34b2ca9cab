//! Turns and the engine glue: who may act now, how a turn ends, and the
//! [`Engine`] interface the session drives.

use fgn_notation::{Action, ChessMove, Color, MoveNumber, Square};

use super::outcomes::Cause;
use super::resolve::Owed;
use super::OpenWorld;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{next_turn, Decision, Turn};
use crate::session::{Engine, Spelling};

impl Engine for OpenWorld {
    fn turn(&self) -> Turn {
        self.world.turn
    }

    fn player(&mut self, actor: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
        self.player_action(actor, n, action)
    }

    fn world(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
        self.world_action(action)
    }

    fn checkpoint(&mut self) {
        self.save();
    }

    // Open-world chess has no check markers; a move's only completion is
    // the promotion piece, which depends on the board's size and the mover
    // alone, so the position before or after the move spells it alike.
    fn spelled(
        &self,
        side: Color,
        m: &ChessMove,
        _spelling: Spelling,
        _mated: impl FnOnce() -> bool,
    ) -> Option<ChessMove> {
        self.canonical_move(side, m).filter(|full| full != m)
    }

    fn rollback(&mut self) {
        self.restore();
    }

    fn setup_timeout(&mut self, _side: Color) -> Result<Option<Decision>, Fault> {
        Err(Fault::new(Rule::Timeout, "open-world-chess has no setup"))
    }

    fn owes_world_event(&self) -> bool {
        self.world.owed.is_some() || self.spawn_owed().is_some()
    }

    fn owed_world_event(&self) -> Option<String> {
        match &self.world.owed {
            Some(Owed::Damage { square, .. }) => Some(format!("`@ damage {square} N` for the damage object there")),
            Some(Owed::Clone { object, .. }) => Some(format!("`@ clone SQUARE` for the clone picked up on {object}")),
            None => self.spawn_owed().map(|sq| {
                format!("`@ spawn {sq} KIND`: {sq} turned lit, and with spawn_chance 100 every square that rolls gets an object")
            }),
        }
    }

    fn extending(&self) -> Option<Color> {
        self.world.late_shop.map(|(buyer, _)| buyer)
    }

    fn shared_event(&mut self, decided: bool) {
        if decided {
            // Nothing further happens once the game is decided (RULES.md:
            // "When a king dies nothing further happens"): the purchases
            // are over, but no turn ends and nothing ages. Spawns the world
            // owes (with spawn_chance 100) may still follow a resignation,
            // as every owed event may; any others rolled nothing, and a
            // revealed seed that gives one there refutes it at this event,
            // the first after them (docs/rules.md).
            self.world.late_shop = None;
            if self.spawn_owed().is_none() {
                self.close_spawn_window();
            }
        } else {
            // Spawns come right after the move that lit their squares
            // (NOTATION.md: "World events come right after the action that
            // caused them"), and a timeout never comes while one is owed:
            // the squares still open rolled nothing.
            self.close_spawn_window();
            self.close_late_shop();
        }
    }

    fn at_event(&mut self, index: usize) {
        self.event = index;
    }

    fn seed(&mut self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Result<(), Fault> {
        crate::core::seed::check_revealed(seed, self.commit, self.world.seed_seen)?;
        self.verify_seed(seed, salts)?;
        self.world.seed_seen = true;
        Ok(())
    }

    fn refuted_by_seed(&self, seed: &[u8; 32], salts: &crate::core::seed::Salts) -> Option<Fault> {
        crate::core::seed::check_revealed(seed, self.commit, false).ok()?;
        self.verify_draws(seed, salts, false).err()
    }

    fn without_world_seed(&self) -> Option<&'static str> {
        self.commit.is_none().then_some(crate::core::seed::NO_COMMITMENT)
    }

    fn has_random_outcomes(&self) -> bool {
        true
    }
}

impl OpenWorld {
    /// A world event: an owed outcome or a spawn.
    fn world_action(&mut self, action: &Action) -> Result<Option<Decision>, Fault> {
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
    fn player_action(&mut self, actor: Color, n: MoveNumber, action: &Action) -> Result<Option<Decision>, Fault> {
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
    pub fn coins(&self, color: Color) -> u32 {
        self.world.coins[color]
    }

    /// Moves left in the current turn.
    pub fn moves_left(&self) -> u32 {
        self.world.moves_left
    }

    /// The world event the engine waits for: a damage roll on a square, or
    /// a clone's square among candidates.
    pub fn owed(&self) -> Option<(Square, Option<Vec<Square>>)> {
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

    /// Whether the side to move may buy now.
    pub fn shop_open(&self) -> bool {
        self.world.shop_open
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
    fn close_late_shop(&mut self) {
        if self.world.late_shop.take().is_some() && !self.world.decided {
            self.age();
        }
    }
}
