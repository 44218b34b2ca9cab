//! What one event did, counted the way an analyst counts a game: the
//! pieces taken and the pieces that died, the coins spent and gained, the
//! spells cast and the charges spent. `fgn events` writes them on every
//! row and `fgn stats` sums them per game kind, so that the two always
//! agree (issue 38).
//!
//! The counts are read from [`Replay::apply_changes`]'s account of the
//! event, not from the event's text: a move written with `x` may take
//! nothing (a failed great-war-chess attack), and an open-world-chess
//! fight may be resolved by a later world event (below).
//!
//! [`Replay::apply_changes`]: fgn_replay::Replay::apply_changes

use fgn_notation::{Action, Actor, Color, Event, Game, Spell};
use serde::Serialize;

use fgn_replay::changes::Change;
use fgn_replay::position::OwedOutcome;
use fgn_replay::Replay;

/// The counts of one event the rules accepted, or the sum of such counts
/// over many events. Each count is 0 where its game has no such thing.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug, Serialize)]
pub struct EventCounts {
    /// Pieces of the other side that the side acting took off the board
    /// or over to its own side ([`is_capture`] says which changes count):
    /// survival-chess and magic-draughts captures, great-war-chess units
    /// destroyed or captured (and enemy fortifications taken), and
    /// open-world-chess defenders that died in a fight or of a drain.
    pub captures: u32,
    /// Open-world-chess pieces whose HP ran out, whoever's they were and
    /// whatever killed them (a fight, either side of it; a damage object;
    /// a drain).
    pub deaths: u32,
    /// Open-world-chess coins paid at a merchant: the sum of the falls of
    /// either side's coin count.
    pub coins_spent: u32,
    /// Open-world-chess coins picked up: the sum of the rises of either
    /// side's coin count.
    pub coins_gained: u32,
    /// Magic-draughts spells cast: `spell` events other than a declined
    /// one (`spell N skip`), which casts nothing.
    pub spells_cast: u32,
    /// Great-war-chess charges paid for attacks: one for every attack or
    /// shot, whether it succeeded or not. The charges a side gains or
    /// loses for destroyed units are not spent and not counted.
    pub charges_spent: u32,
}

impl EventCounts {
    /// The counts of `event`, an event the rules accepted, from `changes`,
    /// the account [`Replay::apply_changes`] gave for it (state changes:
    /// a player's view does not know whose coins or pieces it does not see).
    ///
    /// [`Replay::apply_changes`]: fgn_replay::Replay::apply_changes
    pub fn of(event: &Event, changes: &[Change]) -> EventCounts {
        let mut counts = EventCounts::default();
        let mover = mover(event, changes);
        for change in changes {
            if is_capture(change, mover) {
                counts.captures = counts.captures.saturating_add(1);
            }
            match change {
                Change::Died { .. } => counts.deaths = counts.deaths.saturating_add(1),
                Change::Coins { before, after, .. } => {
                    counts.coins_spent = counts.coins_spent.saturating_add(before.saturating_sub(*after));
                    counts.coins_gained = counts.coins_gained.saturating_add(after.saturating_sub(*before));
                }
                // Every attack costs the attacker exactly one charge, and
                // nothing but an attack changes the attacker's own charges
                // (the 4 it gains for each unit it destroys never make up
                // for the one it paid to the charge), so an event that
                // changes its actor's charges spent one.
                Change::Charges { color, .. } if event.actor == Actor::Player(*color) => counts.charges_spent = 1,
                _ => {}
            }
        }
        if matches!(&event.action, Action::Spell(spell) if !matches!(spell, Spell::Skip { .. })) {
            counts.spells_cast = 1;
        }
        counts
    }

    /// The counts of `game`'s events summed, over the events its rules
    /// accept (up to the first they refuse, if any), replayed under the
    /// rules its header names; all 0 for a log the rules cannot start (a
    /// player's view, a rules version without an engine).
    pub fn of_log(game: &Game) -> EventCounts {
        let Ok(mut replay) = Replay::new(&game.header) else {
            return EventCounts::default();
        };
        let mut sum = EventCounts::default();
        for event in &game.events {
            match replay.apply_changes(event) {
                Ok(changes) => sum = sum.plus(EventCounts::of(event, &changes)),
                Err(_) => break,
            }
        }
        sum
    }

    /// The sum of two counts (saturating: a count never wraps).
    #[must_use]
    pub fn plus(self, other: EventCounts) -> EventCounts {
        EventCounts {
            captures: self.captures.saturating_add(other.captures),
            deaths: self.deaths.saturating_add(other.deaths),
            coins_spent: self.coins_spent.saturating_add(other.coins_spent),
            coins_gained: self.coins_gained.saturating_add(other.coins_gained),
            spells_cast: self.spells_cast.saturating_add(other.spells_cast),
            charges_spent: self.charges_spent.saturating_add(other.charges_spent),
        }
    }

    /// Whether every count is 0.
    pub fn is_zero(&self) -> bool {
        *self == EventCounts::default()
    }
}

/// The side whose action `event` carries out: the player who acts, or,
/// for the world's open-world-chess damage roll or clone, the side whose
/// move waited for it (the move is resolved in the world's events that
/// follow it). `None` for every other world event.
fn mover(event: &Event, changes: &[Change]) -> Option<Color> {
    match event.actor {
        Actor::Player(side) => Some(side),
        Actor::World => changes.iter().find_map(|change| match change {
            Change::Owed {
                before: Some(OwedOutcome::Damage { moving, .. } | OwedOutcome::Clone { moving, .. }),
                ..
            } => Some(moving.color),
            _ => None,
        }),
    }
}

/// Whether `change` is a piece that `mover`, the side whose action the
/// event carries out, took from its opponent: what
/// [`EventCounts::captures`] counts.
///
/// A piece captured (survival-chess, magic-draughts), destroyed or
/// changed sides (great-war-chess) is always the opponent's doing. An
/// open-world-chess piece that died counts when it is the mover's
/// opponent's: the defender of a fight the mover won, or the target of a
/// drain it bought. That holds wherever the fight is resolved: a slider
/// that attacks over damage objects fights only after the world's
/// `@ damage` rolls on its path, so a defender may die in the last of
/// those world events, and it is still the mover's capture. The mover's
/// own pieces are never its captures: the attacker that loses a fight,
/// and a piece killed by a damage object (on its path or where it ends its
/// move; a damage object is nobody's attack) are deaths only. Pieces that
/// Gorynych's Fury removes are nobody's capture (RULES.md: removed, not
/// captured).
pub fn is_capture(change: &Change, mover: Option<Color>) -> bool {
    match change {
        Change::Captured { .. } | Change::Destroyed { .. } | Change::ChangedSides { .. } => true,
        Change::Died { color, .. } => mover == Some(color.opponent()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::{Game, GameKind};
    use fgn_replay::gen::{generate, Options};
    use fgn_replay::Replay;

    /// Each event of `doc` with its counts, as far as the rules accept it.
    fn counted(game: &Game) -> Vec<(String, EventCounts)> {
        let mut replay = Replay::new(&game.header).expect("a log the rules can start");
        let mut out = Vec::new();
        for event in &game.events {
            let changes = replay.apply_changes(event).expect("a valid log");
            out.push((event.to_string(), EventCounts::of(event, &changes)));
        }
        out
    }

    fn corpus(path: &str) -> Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus")
            .join(path);
        let bytes = std::fs::read(&path).expect("a corpus log");
        fgn_notation::parse(&bytes).document.game
    }

    fn total(rows: &[(String, EventCounts)]) -> EventCounts {
        rows.iter().fold(EventCounts::default(), |sum, (_, c)| sum.plus(*c))
    }

    fn of<'a>(rows: &'a [(String, EventCounts)], event: &str) -> &'a EventCounts {
        &rows
            .iter()
            .find(|(e, _)| e == event)
            .unwrap_or_else(|| panic!("no event {event}"))
            .1
    }

    /// The combat of owc-09, counted from its comments: nine defenders die
    /// (eight in fights the attacker won, the king of a drain), nine
    /// attackers die in fights they lost and one pawn of a damage object.
    #[test]
    fn open_world_chess_fights_drains_damage_and_coins() {
        let rows = counted(&corpus("open-world-chess/valid/owc-09-drain-kills-king.fgn"));
        let sum = total(&rows);
        assert_eq!((sum.captures, sum.deaths), (9, 19), "{sum:?}");
        // Two coins picked up by each side; two bought items at one coin each.
        assert_eq!((sum.coins_gained, sum.coins_spent), (4, 2), "{sum:?}");
        assert_eq!((sum.spells_cast, sum.charges_spent), (0, 0));
        let equal = of(&rows, "2 w f5xe6");
        assert_eq!(
            (equal.captures, equal.deaths),
            (1, 1),
            "the defender dies in an equal fight"
        );
        let lost = of(&rows, "4 b Re3xe5");
        assert_eq!(
            (lost.captures, lost.deaths),
            (0, 1),
            "the attacker that loses dies, taking nothing"
        );
        let damage = of(&rows, "3 @ damage h6 4");
        assert_eq!(
            (damage.captures, damage.deaths),
            (0, 1),
            "a damage object is nobody's attack"
        );
        let drain = of(&rows, "13 b buy drain g4");
        assert_eq!((drain.captures, drain.deaths, drain.coins_spent), (1, 1, 1));
        assert_eq!(of(&rows, "1 w h2-h3").coins_gained, 1);
    }

    /// The regression of issue 38: a bishop passes over a damage object
    /// and attacks; the fight is resolved at the world's `@ damage` roll,
    /// where the defender dies. It is black's capture (it counted 0). The
    /// game is the 105th of `fgn gen --game open-world-chess --seed 1`.
    #[test]
    fn a_fight_resolved_at_a_damage_roll_on_the_path_is_the_attackers_capture() {
        let options = Options {
            index: 105,
            ..Options::new(GameKind::OpenWorldChess, 1)
        };
        let game = generate(&options).expect("a generated game");
        let rows = counted(&game);
        let at = rows.iter().position(|(e, _)| e == "4 b Bg7xb2").expect("the attack");
        assert_eq!(rows[at].1.deaths, 0, "the fight waits for the roll on d4");
        let (event, roll) = &rows[at + 1];
        assert_eq!(event, "4 @ damage d4 1");
        assert_eq!(
            (roll.captures, roll.deaths),
            (1, 1),
            "white's pawn on b2 dies: black's capture"
        );
        // A rook's attack over a2 the same way, for white.
        let roll = of(&rows, "5 @ damage a2 2");
        assert_eq!((roll.captures, roll.deaths), (1, 1));
        // Every death in the game is a capture or the death of a piece of
        // the side that moved: no death is counted twice or lost.
        let sum = total(&rows);
        assert!(sum.captures > 0 && sum.captures <= sum.deaths, "{sum:?}");
    }

    #[test]
    fn great_war_chess_charges_spent_are_attacks_and_captures_take_no_charge() {
        let rows = counted(&corpus("great-war-chess/valid/gwc-05-shot-and-capture.fgn"));
        let failed = of(&rows, "1 w Af2*f7");
        assert_eq!(
            (failed.charges_spent, failed.captures),
            (1, 0),
            "a failed shot still costs its charge"
        );
        let hit = rows
            .iter()
            .filter(|(e, _)| e == "2 w Af2*f7")
            .map(|(_, c)| *c)
            .next()
            .expect("the second shot");
        assert_eq!(
            (hit.charges_spent, hit.captures),
            (1, 2),
            "infantry and artillery destroyed"
        );
        let taken = of(&rows, "4 w Ia4xa5");
        assert_eq!((taken.charges_spent, taken.captures), (0, 1), "no attack, no charge");
        let sum = total(&rows);
        assert_eq!((sum.charges_spent, sum.captures, sum.deaths), (2, 3, 0), "{sum:?}");
        assert_eq!((sum.coins_spent, sum.coins_gained, sum.spells_cast), (0, 0, 0));
    }

    #[test]
    fn magic_draughts_spells_cast_leave_out_declined_ones() {
        let rows = counted(&corpus("magic-draughts/valid/10-three-spells-one-turn.fgn"));
        assert_eq!(of(&rows, "2 b spell 5 skip").spells_cast, 0);
        assert_eq!(of(&rows, "7 b spell 4 c7").spells_cast, 1);
        let fury = of(&rows, "6 b spell 1 a");
        assert_eq!(
            (fury.spells_cast, fury.captures),
            (1, 0),
            "Fury removes: it captures nothing"
        );
        let sum = total(&rows);
        // Eleven spell events, five of them declined.
        assert_eq!(sum.spells_cast, 6, "{sum:?}");
        let double = of(&rows, "6 w d2:f4:h6");
        assert_eq!(double.captures, 2);
        assert_eq!(sum.deaths, 0);
    }

    #[test]
    fn a_logs_counts_are_its_events_up_to_the_first_refused() {
        let game = corpus("open-world-chess/valid/owc-09-drain-kills-king.fgn");
        assert_eq!(EventCounts::of_log(&game), total(&counted(&game)));
        let cut = fgn_notation::parse(
            b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Pe4\n0 b place Ke8 Pd5 Pc6\n0 w ready\n0 b ready\n1 w e4xd5\n1 b Ke8-e9\n1 b c6xd5\n",
        )
        .document
        .game;
        assert_eq!(
            EventCounts::of_log(&cut).captures,
            1,
            "c6xd5, after the refused event, is not replayed"
        );
    }

    #[test]
    fn survival_chess_counts_captures_only() {
        let game = fgn_notation::parse(
            b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Pe4\n0 b place Ke8 Pd5\n0 w ready\n0 b ready\n1 w e4xd5\n",
        )
        .document
        .game;
        let rows = counted(&game);
        assert_eq!(
            of(&rows, "1 w e4xd5"),
            &EventCounts {
                captures: 1,
                ..EventCounts::default()
            }
        );
        assert!(rows[..4].iter().all(|(_, c)| c.is_zero()));
    }
}
