//! Light, ageing and fog, what each player sees, and the spawn window: the
//! squares a move turned from fogged to lit, which may get an object.

use fgn_notation::{Color, Square};

use super::engine::{Cause, Draw, OpenWorld, SpawnWindow, FRESH, LIT, MERCHANT, OCCUPIED};

impl OpenWorld {
    /// Whether `viewer` sees `sq`: it is lit and within the light radius of
    /// one of the viewer's pieces. (Own pieces, own coins and merchants are
    /// known whatever the light.)
    pub(crate) fn sees(&self, viewer: Color, sq: Square) -> bool {
        if !self.cell(sq).lit {
            return false;
        }
        self.within_light(sq)
            .any(|p| self.piece(p).is_some_and(|u| u.color == viewer))
    }

    /// The squares within the light radius of `center` (Chebyshev
    /// distance), in square order: the board clipped to the square window
    /// around it, so that the cost follows the radius, not the board.
    fn within_light(&self, center: Square) -> impl Iterator<Item = Square> {
        let (files, ranks) = self.light_window(center);
        ranks.flat_map(move |rank| {
            files
                .clone()
                .map(move |file| Square::new(file, rank).expect("on board"))
        })
    }

    /// The files and the ranks of [`Self::within_light`]'s window.
    fn light_window(&self, center: Square) -> (std::ops::Range<u8>, std::ops::Range<u8>) {
        let r = self.rules.light_radius;
        let (f, k) = (center.file_index(), center.rank_index());
        let files = f.saturating_sub(r)..f.saturating_add(r).saturating_add(1).min(self.files);
        let ranks = k.saturating_sub(r)..k.saturating_add(r).saturating_add(1).min(self.ranks);
        (files, ranks)
    }

    /// Lights the squares within the light radius of `center` (the move
    /// `cause` at full move `n`, the log's event `lit_at`, stands there
    /// now); those that turn from
    /// fogged to lit, are empty and are not merchants roll for an object,
    /// in square order: they open the spawn window. The window is walked in
    /// square order, so the rolls need no sorting, and the window's buffer
    /// is reused from move to move.
    pub(super) fn light(&mut self, center: Square, n: u32, cause: Cause, lit_at: usize) {
        self.close_spawn_window();
        let (files, ranks) = self.light_window(center);
        let mut rolls = std::mem::take(&mut self.world.spawns.squares);
        let width = usize::from(self.files);
        for rank in ranks {
            // One row of the window at a time, as slices: no bounds check per cell.
            let row = usize::from(rank) * width;
            let span = row + usize::from(files.start)..row + usize::from(files.end);
            let light = &mut self.world.light[span.clone()];
            let ages = &mut self.world.ages[span];
            for (k, (flags, age)) in light.iter_mut().zip(ages).enumerate() {
                let rolls_here = *flags & (LIT | OCCUPIED | MERCHANT) == 0;
                *flags |= LIT | FRESH;
                *age = 0;
                if rolls_here {
                    rolls.push(Square::new(files.start + k as u8, rank).expect("on the board"));
                }
            }
        }
        self.world.spawns = SpawnWindow {
            n,
            cause,
            lit_at: Some(lit_at),
            squares: rolls,
        };
    }

    /// The starting light: every square within the light radius of a
    /// piece. Nothing is lit before it, so the squares that roll are all
    /// the lit ones that are empty and not merchants, in square order; none
    /// counts as lit during the first turn.
    pub(super) fn light_start(&mut self) {
        for i in 0..self.world.pieces.len() {
            if self.world.pieces[i].is_none() {
                continue;
            }
            let (files, ranks) = self.light_window(self.square_at(i));
            for rank in ranks {
                let row = usize::from(rank) * usize::from(self.files);
                for flags in &mut self.world.light[row + usize::from(files.start)..row + usize::from(files.end)] {
                    *flags |= LIT;
                }
            }
        }
        let mut rolls = Vec::new();
        for (i, &flags) in self.world.light.iter().enumerate() {
            if flags & (LIT | OCCUPIED | MERCHANT) == LIT {
                rolls.push(self.square_at(i));
            }
        }
        self.world.spawns = SpawnWindow {
            n: 0,
            cause: Cause::Start,
            lit_at: None,
            squares: rolls,
        };
    }

    /// The first `count` squares of the spawn window rolled no object (the
    /// log went past them): they leave the window, and the seed check
    /// remembers them as empty. A square lit by a move is refuted at that
    /// move; one of the starting light, which no move caused, at the event
    /// that went past it (a later starting spawn, or the first event after
    /// them), so that a seed check never blames the seed line for it.
    pub(super) fn skip_spawns(&mut self, count: usize) {
        let SpawnWindow {
            n,
            cause,
            lit_at,
            squares,
        } = &mut self.world.spawns;
        let event = Some(lit_at.unwrap_or(self.event));
        for square in squares.drain(..count) {
            self.draws.push(Draw::Spawn {
                n: *n,
                cause: *cause,
                square,
                observed: None,
                event,
            });
        }
    }

    /// The spawn window closes at the first event that is not a spawn: the
    /// squares still in it rolled no object.
    pub(super) fn close_spawn_window(&mut self) {
        self.skip_spawns(self.world.spawns.squares.len());
    }

    /// The square whose spawn the world owes next: with `spawn_chance` 100
    /// every square that rolls gets an object (RULES.md: "possible" is
    /// exact), so the spawns are owed like any other outcome.
    pub(super) fn spawn_owed(&self) -> Option<Square> {
        (self.rules.spawn_chance >= 100)
            .then(|| self.world.spawns.squares.first().copied())
            .flatten()
    }

    /// The squares that may still get a `@ spawn` after the last move, in square order.
    pub(crate) fn spawnable(&self) -> Vec<Square> {
        self.world.spawns.squares.clone()
    }

    /// The end of a turn's ageing: each lit square that was not lit during
    /// the turn and is not occupied ages by one, and fogs (losing its
    /// object) at `fog_after`.
    pub(super) fn age(&mut self) {
        let fog_after = self.rules.fog_after;
        // Branch-free over byte arrays, so that the compiler ages many
        // squares at a time: most lit squares age, few fog.
        let mut fogged = false;
        for (flags, age) in self.world.light.iter_mut().zip(self.world.ages.iter_mut()) {
            let ages = *flags & (LIT | FRESH | OCCUPIED) == LIT;
            let older = age.saturating_add(u8::from(ages));
            let fogs = ages & (older >= fog_after);
            *age = if fogs { 0 } else { older };
            *flags &= if fogs { !(LIT | FRESH) } else { !FRESH };
            fogged |= fogs;
        }
        // A square that fogs loses its object; only lit squares hold one,
        // so the objects on fogged squares are the ones lost.
        if fogged {
            for (object, &flags) in self.world.objects.iter_mut().zip(&self.world.light) {
                if flags & LIT == 0 {
                    *object = None;
                }
            }
        }
    }
}
