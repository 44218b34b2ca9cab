//! Random legal great-war-chess games, for property tests: every action is
//! drawn from the engine's own list of legal actions.

use fgn_notation::{Action, Actor, Event, Game, Header, MoveNumber, Tag};

use super::GreatWar;
use crate::game::GameRules;
use crate::rng::Rng;
use crate::ruleset::GreatWarRules;
use crate::session::{Engine, Turn};

/// A random legal game under `rules`, with the header tags that set them,
/// at most `max_actions` actions after setup long, ending with its result
/// when it is decided.
///
/// The setup places each side's units one legal placement at a time, drawn
/// at random, so that setups differ from game to game; play draws among the
/// legal movements and shots, and ends a turn only when nothing else is
/// drawn, so that games reach attacks and results.
pub fn random_game(rules: GreatWarRules, seed: u64, max_actions: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut engine = GreatWar::new(rules.clone());
    let mut events = Vec::new();
    let mut decision = None;
    let mut actions = 0;
    while decision.is_none() {
        let mut legal = Vec::new();
        engine.legal_actions(&mut legal);
        let setup = matches!(engine.turn(), Turn::Setup { .. });
        if !setup && actions >= max_actions {
            break;
        }
        // In setup a side places until `ready` is possible, and never
        // removes, so that the setup ends.
        let pick: Vec<&Event> = if setup {
            let places: Vec<&Event> = legal
                .iter()
                .filter(|e| matches!(e.action, Action::Place { .. }))
                .collect();
            if places.is_empty() {
                legal.iter().filter(|e| matches!(e.action, Action::Ready)).collect()
            } else {
                places
            }
        } else {
            let acts: Vec<&Event> = legal.iter().filter(|e| !matches!(e.action, Action::End)).collect();
            // `end` now and then, so that turns without both actions occur.
            if acts.is_empty() || rng.below(8) == 0 {
                legal.iter().filter(|e| matches!(e.action, Action::End)).collect()
            } else {
                acts
            }
        };
        let event = pick[rng.below(pick.len())].clone();
        let Actor::Player(side) = event.actor else {
            unreachable!("legal actions are players'")
        };
        decision = engine
            .player(side, event.n, &event.action)
            .expect("a legal action applies");
        if !setup {
            actions += 1;
        }
        events.push(event);
    }
    if let Some(d) = decision {
        let n = events.last().map_or(0, |e| e.n.0);
        events.push(Event {
            n: MoveNumber(n),
            actor: Actor::World,
            action: Action::Result {
                outcome: d.outcome,
                reason: d.reason,
            },
            clock_ms: None,
        });
    }
    let tags = vec![
        Tag {
            name: "Game".into(),
            value: "great-war-chess".into(),
        },
        Tag {
            name: "Rules".into(),
            value: "1.0".into(),
        },
        Tag {
            name: "Board".into(),
            value: rules.board.0.to_string(),
        },
        Tag {
            name: "Fortifications".into(),
            value: rules.fortifications.to_string(),
        },
        Tag {
            name: "Charges".into(),
            value: rules.charges.to_string(),
        },
    ];
    Game {
        header: Header { tags },
        events,
    }
}
