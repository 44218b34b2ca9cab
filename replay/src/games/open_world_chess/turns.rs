//! The game's start and its turns: the starting position and light, who
//! may act now, what a player's or the world's action does to the turn,
//! and how a turn ends. Above the rest of the rules, whose steps it calls
//! (a move's resolution, the shop, the spawns, the light and the ageing).

use fgn_notation::{Action, ByColor, Color, MoveNumber, PieceKind, Square};

use super::engine::{Checkpoint, OpenWorld, SpawnWindow, World, MERCHANT};
use super::params::OpenWorldRules;
use crate::core::error::{Fault, Rule};
use crate::core::progress::{next_turn, Decision, Turn};

impl OpenWorld {
    /// A game at its start: both armies on their first two ranks and the
    /// starting light (its spawns may be the log's first events).
    pub(crate) fn new(rules: OpenWorldRules, commit: Option<[u8; 32]>) -> OpenWorld {
        let (files, ranks) = (rules.board.0.files, rules.board.0.ranks);
        let count = usize::from(files) * usize::from(ranks);
        let world = World {
            pieces: vec![None; count],
            light: vec![0; count],
            ages: vec![0; count],
            objects: vec![None; count],
            coins: ByColor::both(0),
            curses: ByColor::both(0),
            turn: Turn::Move {
                side: Color::White,
                number: MoveNumber(1),
            },
            moves_left: u32::from(rules.moves_per_turn),
            played: 0,
            shop_open: false,
            transit: None,
            owed: None,
            spawns: SpawnWindow::default(),
            decided: false,
            fallen: None,
            late_shop: None,
            seed_seen: false,
        };
        let mut game = OpenWorld {
            files,
            ranks,
            saved: Box::new(Checkpoint {
                world: world.clone(),
                draws: 0,
            }),
            world,
            draws: Vec::new(),
            commit,
            event: 0,
            rules,
        };
        for sq in game.rules.merchant_squares() {
            let i = game.index(sq);
            game.world.light[i] |= MERCHANT;
        }
        let shift = (files - 8) / 2;
        let back = crate::core::params::CLASSICAL_BACK_RANK;
        for (i, kind) in back.into_iter().enumerate() {
            let f = shift + i as u8;
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, ranks - 1, ranks - 2)] {
                game.set(
                    Square::new(f, back_rank).expect("on board"),
                    Some(game.fresh_unit(color, kind)),
                );
                game.set(
                    Square::new(f, pawn_rank).expect("on board"),
                    Some(game.fresh_unit(color, PieceKind::Pawn)),
                );
            }
        }
        game.light_start();
        game
    }
}

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
