//! The shop: purchases after a move that ended on a merchant square.

use fgn_notation::{Color, Item, PieceKind, Square};

use super::engine::OpenWorld;
use crate::core::error::{Fault, Rule};
use crate::core::progress::Decision;

impl OpenWorld {
    /// `buy item square`: checks that the shop is open to `buyer`, the coins
    /// and the target, and applies the item.
    pub(super) fn buy(&mut self, buyer: Color, item: Item, square: Option<Square>) -> Result<Option<Decision>, Fault> {
        let late = self.world.late_shop.is_some_and(|(c, _)| c == buyer);
        if !self.world.shop_open && !late {
            return Err(Fault::new(
                Rule::Shop,
                "purchases come right after a move that ended on a merchant square",
            ));
        }
        let price = self.rules.shop_price;
        if self.world.coins[buyer] < price {
            return Err(Fault::new(
                Rule::Shop,
                format!(
                    "{} has {} coins; an item costs {price}",
                    buyer.name(),
                    self.world.coins[buyer]
                ),
            ));
        }
        if let Some(sq) = square.filter(|&sq| !self.on_board(sq)) {
            return Err(Fault::new(
                Rule::Square,
                format!("{sq} is not on the {}x{} board", self.files, self.ranks),
            ));
        }
        let target = square.map(|sq| (sq, self.piece(sq)));
        let mut decision = None;
        match (item, target) {
            // After the buyer's last move the opponent's turn has begun but
            // not been played: the curse shortens that turn.
            (Item::Curse, _) if late => self.world.moves_left = self.world.moves_left.saturating_sub(1).max(1),
            (Item::Curse, _) => self.world.curses[buyer.opponent()] += 1,
            (Item::Range, Some((sq, Some(mut u))))
                if u.color == buyer && matches!(u.kind, PieceKind::Pawn | PieceKind::King) =>
            {
                if u.range {
                    return Err(Fault::new(
                        Rule::Shop,
                        format!("the {} on {sq} has range already (once per piece)", u.kind.name()),
                    ));
                }
                u.range = true;
                self.set(sq, Some(u));
            }
            (Item::Hp, Some((sq, Some(mut u)))) if u.color == buyer => {
                u.max = u.max.saturating_add(u64::from(self.rules.shop_hp));
                u.hp = u.hp.saturating_add(u64::from(self.rules.shop_hp));
                self.set(sq, Some(u));
            }
            (Item::Drain, Some((sq, Some(mut u)))) if u.color != buyer => {
                if !self.sees(buyer, sq) {
                    return Err(Fault::new(
                        Rule::Shop,
                        format!("{} does not see {sq}, so it cannot drain the piece there", buyer.name()),
                    ));
                }
                u.hp = u.hp.saturating_sub(u64::from(self.rules.drain_hp));
                if u.hp == 0 {
                    self.set(sq, None);
                    if u.kind == PieceKind::King {
                        decision = self.king_died(u.color, sq);
                    }
                } else {
                    self.set(sq, Some(u));
                }
            }
            (item, _) => {
                let what = match item {
                    Item::Range => "an own pawn or king",
                    Item::Hp => "an own piece",
                    _ => "an enemy piece",
                };
                return Err(Fault::new(
                    Rule::Shop,
                    format!("`buy {}` needs {what} on its square", item.name()),
                ));
            }
        }
        self.world.coins[buyer] -= price;
        Ok(decision)
    }
}
