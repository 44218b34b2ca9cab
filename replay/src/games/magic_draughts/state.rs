//! The state values of magic-draughts, read from the game, and the actions
//! the rules allow now. Everything on the board is public,
//! and the numbers are in the state only once the log has revealed them, so
//! what any viewer knows is the state itself.

use fgn_notation::{Action, Actor, ByColor, Color, Event, File, Spell, SpellNumber, Square};
use serde::Serialize;

use super::engine::{is_dark, sq_index, MagicDraughts};
use crate::changes::values::Captured;
use crate::core::progress::Turn;
use crate::core::viewer::Viewer;

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct DraughtsPiece {
    /// Where it stands.
    pub square: Square,
    /// Whose.
    pub color: Color,
    /// A king (else a man).
    pub king: bool,
    /// The starting square of a starting checker (whose number the world
    /// knows); `None` for a plain checker Koschei's Revenge put back.
    pub origin: Option<Square>,
}

/// The position of a magic-draughts game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct DraughtsState {
    /// Whether checkers carry numbers (`Magic` parameter).
    pub magic: bool,
    /// Every piece, in square order.
    pub pieces: Vec<DraughtsPiece>,
    /// The squares of captured checkers whose numbers the world must reveal
    /// next, in jump order.
    pub reveals_owed: Vec<Square>,
    /// The spells each side must cast at the start of its next turn, in
    /// capture order.
    pub spells_due: ByColor<Vec<u8>>,
    /// Each side's captured plain checkers that Koschei's Revenge may still return.
    pub returnable: ByColor<u8>,
    /// Every captured checker, in capture order, with its number once revealed.
    pub captured: Vec<Captured>,
}

impl MagicDraughts {
    /// The spells `side` could cast for its next due spell `n`: every
    /// target the spell names, in square order, and skipping. Which of them
    /// the rules accept is the engine's own judgement (`cast`).
    fn spell_candidates(&self, side: Color, n: u8) -> Vec<Spell> {
        let dark: Vec<Square> = (0..8u8)
            .flat_map(|r| (0..8u8).filter_map(move |f| Square::new(f, r)))
            .filter(|&sq| is_dark(sq))
            .collect();
        let owned = |c: Color| -> Vec<Square> {
            dark.iter()
                .copied()
                .filter(|&sq| self.pos.piece_at(sq).is_some_and(|(owner, _)| owner == c))
                .collect()
        };
        let empty: Vec<Square> = dark
            .iter()
            .copied()
            .filter(|&sq| self.pos.piece_at(sq).is_none())
            .collect();
        let mut out: Vec<Spell> = SpellNumber::new(n)
            .map(|number| Spell::Skip { number })
            .into_iter()
            .collect();
        match n {
            1 => out.extend((0..8u8).filter_map(File::new).map(|file| Spell::Fury { file })),
            2 | 3 => {
                let movers = owned(if n == 2 { side } else { side.opponent() });
                for &from in &movers {
                    for &to in &empty {
                        out.push(if n == 2 {
                            Spell::Potion { from, to }
                        } else {
                            Spell::Charm { from, to }
                        });
                    }
                }
            }
            4 => out.extend(owned(side).into_iter().map(|square| Spell::Firebird { square })),
            5 => {
                // Every set of squares of the size the spell needs, in square
                // order; the engine refuses sets of any other size.
                let count = usize::from(self.plain_pool[side]).min(empty.len());
                let mut chosen = Vec::new();
                subsets(&empty, count, &mut chosen, &mut |squares| {
                    out.push(Spell::Revenge {
                        squares: squares.to_vec(),
                    })
                });
            }
            _ => {}
        }
        out
    }
}

/// Calls `f` with every `k`-element subset of `items`, keeping their order.
fn subsets(items: &[Square], k: usize, chosen: &mut Vec<Square>, f: &mut impl FnMut(&[Square])) {
    if chosen.len() == k {
        f(chosen);
        return;
    }
    let need = k - chosen.len();
    for i in 0..items.len() {
        if items.len() - i < need {
            break;
        }
        chosen.push(items[i]);
        subsets(&items[i + 1..], k, chosen, f);
        chosen.pop();
    }
}

impl MagicDraughts {
    pub(super) fn state_now(&self) -> DraughtsState {
        let pieces = (0..8u8)
            .flat_map(|r| (0..8u8).filter_map(move |f| Square::new(f, r)))
            .filter_map(|square| {
                let (color, king) = self.pos.piece_at(square)?;
                let origin = self.checkers[sq_index(square)].and_then(|c| c.origin());
                Some(DraughtsPiece {
                    square,
                    color,
                    king,
                    origin,
                })
            })
            .collect();
        DraughtsState {
            magic: self.rules.magic,
            pieces,
            reveals_owed: self.owed.iter().map(|o| o.square).collect(),
            spells_due: self.spells.clone(),
            returnable: self.plain_pool,
            captured: self.captured.clone(),
        }
    }

    pub(super) fn knowledge_now(&self, _viewer: Viewer) -> DraughtsState {
        self.state_now()
    }

    pub(super) fn legal_actions_now(&self, out: &mut Vec<Event>) {
        let Turn::Move { side, number } = self.turn else {
            return;
        };
        if !self.owed.is_empty() {
            return;
        }
        let event = |action: Action| Event {
            n: number,
            actor: Actor::Player(side),
            action,
            clock_ms: None,
        };
        if let Some(&due) = self.spells[side].first() {
            for spell in self.spell_candidates(side, due) {
                // It is `side`'s turn numbered `number`, so of the checks a
                // player's action meets only the engine's `cast` is left.
                if self.clone().cast(side, &spell).is_ok() {
                    out.push(event(Action::Spell(spell)));
                }
            }
            return;
        }
        let mut moves = Vec::new();
        self.position_moves(side, &mut moves);
        out.extend(moves.iter().map(|m| event(m.action())));
    }
}
