//! Random legal magic-draughts games with a seed, for benchmarks, property
//! tests and the corpus: every reveal is what the seed derives and every
//! spell is a random legal choice (or a skip).

use fgn_notation::{Action, Actor, Color, Event, Game, Header, MoveNumber, Seed, Spell, SpellNumber, Square, Tag};

use super::MagicDraughts;
use crate::draughts::DMove;
use crate::referee::{magic_numbers, magic_reveal};
use crate::rng::Rng;
use crate::ruleset::DraughtsRules;
use crate::seed::{commitment, salt_events, Draws, Salts};
use crate::session::{Decision, Engine, Turn};

fn dark_squares() -> impl Iterator<Item = Square> {
    (0..8u8)
        .flat_map(|r| (0..8u8).map(move |f| (f, r)))
        .filter(|(f, r)| (f + r) % 2 == 0)
        .filter_map(|(f, r)| Square::new(f, r))
}

/// A random spell of `number` for `side` that may or may not be legal; the
/// engine decides, and the caller falls back to a skip.
fn candidate(game: &MagicDraughts, side: Color, number: u8, rng: &mut Rng) -> Spell {
    let pos = game.position();
    let own: Vec<Square> = dark_squares()
        .filter(|&sq| pos.piece_at(sq).is_some_and(|(c, _)| c == side))
        .collect();
    let enemy: Vec<Square> = dark_squares()
        .filter(|&sq| pos.piece_at(sq).is_some_and(|(c, _)| c != side))
        .collect();
    let empty: Vec<Square> = dark_squares().filter(|&sq| pos.piece_at(sq).is_none()).collect();
    let pick = |v: &[Square], rng: &mut Rng| v.get(rng.below(v.len().max(1))).copied();
    let skip = Spell::Skip {
        number: SpellNumber::new(number).expect("1..=5"),
    };
    match number {
        1 => {
            let occupied: Vec<Square> = own.iter().chain(&enemy).copied().collect();
            pick(&occupied, rng).map_or(skip, |sq| Spell::Fury { file: sq.file() })
        }
        2 => match (pick(&own, rng), pick(&empty, rng)) {
            (Some(from), Some(to)) => Spell::Potion { from, to },
            _ => skip,
        },
        3 => match (pick(&enemy, rng), pick(&empty, rng)) {
            (Some(from), Some(to)) => Spell::Charm { from, to },
            _ => skip,
        },
        4 => {
            let men: Vec<Square> = own
                .iter()
                .copied()
                .filter(|&sq| pos.piece_at(sq) == Some((side, false)))
                .collect();
            pick(&men, rng).map_or(skip, |square| Spell::Firebird { square })
        }
        _ => {
            let ranks = game.revenge_ranks(side);
            let mut free: Vec<Square> = empty
                .iter()
                .copied()
                .filter(|sq| ranks.contains(&sq.rank_index()))
                .collect();
            let count = usize::from(game.returnable(side)).min(free.len());
            for i in 0..free.len() {
                let j = i + rng.below(free.len() - i);
                free.swap(i, j);
            }
            free.truncate(count);
            free.sort();
            Spell::Revenge { squares: free }
        }
    }
}

/// A random legal game from the seed `world` (the numbers) and the choices
/// of `choices` (moves and spells), at most `max_plies` normal moves long,
/// ending with its result and the revealed seed when it is decided.
pub fn random_game(world: [u8; 32], magic: bool, choices: u64, max_plies: usize) -> Game {
    random_salted_game(world, &Salts::default(), magic, choices, max_plies)
}

/// [`random_game`] in which the players gave `salts`: the log begins with
/// them, and the numbers come from the game key of the seed and the salts.
/// With magic off the game has no world seed, and the salts are left out.
pub fn random_salted_game(world: [u8; 32], salts: &Salts, magic: bool, choices: u64, max_plies: usize) -> Game {
    let salts = if magic { *salts } else { Salts::default() };
    let mut rng = Rng::new(choices);
    let rules = DraughtsRules {
        magic,
        ..DraughtsRules::default()
    };
    let commit = commitment(&world);
    let mut game = MagicDraughts::new(rules, magic.then_some(commit));
    let numbers = magic_numbers(&Draws::salted(&world, &salts), &DraughtsRules::default().numbers);
    let mut events: Vec<Event> = salt_events(&salts);
    let mut last_n = MoveNumber(0);
    let mut decision: Option<Decision> = None;
    let mut plies = 0;
    let mut moves: Vec<DMove> = Vec::new();
    while decision.is_none() && plies < max_plies {
        if let Some(action) = magic_reveal(&game, &numbers) {
            decision = game.world(&action).expect("the derived number is a legal reveal");
            events.push(Event {
                n: last_n,
                actor: Actor::World,
                action,
                clock_ms: None,
            });
            continue;
        }
        let Turn::Move { side, number } = game.turn() else {
            break;
        };
        let action = if let Some(&n) = game.pending_spells(side).first() {
            let tries: Vec<Spell> = (0..8).map(|_| candidate(&game, side, n, &mut rng)).collect();
            let skip = Action::Spell(Spell::Skip {
                number: SpellNumber::new(n).expect("1..=5"),
            });
            let mut chosen = skip.clone();
            for spell in tries {
                let a = Action::Spell(spell);
                let mut probe = game.clone();
                if probe.player(side, number, &a).is_ok() {
                    chosen = a;
                    break;
                }
            }
            chosen
        } else {
            game.position_moves(side, &mut moves);
            let m = moves[rng.below(moves.len())];
            plies += 1;
            m.action()
        };
        decision = game.player(side, number, &action).expect("a checked choice plays");
        events.push(Event {
            n: number,
            actor: Actor::Player(side),
            action,
            clock_ms: None,
        });
        last_n = number;
    }
    // The reveals a deciding capture owes come before the result.
    while let Some(action) = magic_reveal(&game, &numbers) {
        decision = game
            .world(&action)
            .expect("the derived number is a legal reveal")
            .or(decision);
        events.push(Event {
            n: last_n,
            actor: Actor::World,
            action,
            clock_ms: None,
        });
    }
    let mut tags = vec![
        Tag {
            name: "Game".into(),
            value: "magic-draughts".into(),
        },
        Tag {
            name: "Rules".into(),
            value: "1.0".into(),
        },
    ];
    if magic {
        let hex: String = commit.iter().map(|b| format!("{b:02x}")).collect();
        tags.push(Tag {
            name: "SeedCommit".into(),
            value: format!("blake3:{hex}"),
        });
    } else {
        tags.push(Tag {
            name: "Magic".into(),
            value: "off".into(),
        });
    }
    if let Some(d) = decision {
        events.push(Event {
            n: last_n,
            actor: Actor::World,
            action: Action::Result {
                outcome: d.outcome,
                reason: d.reason,
            },
            clock_ms: None,
        });
        if magic {
            events.push(Event {
                n: last_n,
                actor: Actor::World,
                action: Action::Seed { seed: Seed(world) },
                clock_ms: None,
            });
        }
    }
    Game {
        header: Header { tags },
        events,
    }
}
