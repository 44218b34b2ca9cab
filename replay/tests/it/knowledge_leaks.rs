//! A player's knowledge holds only what that player can know: two logs
//! that give a player the same view give it the same knowledge, and so the
//! same knowledge hash, at every event (issue 36: open-world-chess's
//! knowledge told whether the opponent's unseen move ended on a merchant,
//! whether it still waited for a world event, and with two moves a turn
//! even whose turn it was).
//!
//! The logs compared differ only in hidden things by construction: at every
//! point of generated games of all four games, each action the rules allow
//! is tried (an opponent's setup edit, a move in the fog, a purchase), and
//! then each world event the seed owes after it (pending outcomes, spawns
//! out of sight, hidden numbers). Every such log is grouped with the others
//! of the same point by each player's view of it (and, in open-world-chess,
//! by the squares the player sees, which its view need not say); within a
//! group the player's knowledge hash must be one. Everyone's knowledge is
//! grouped by both views together.

use std::collections::HashMap;

use fgn_notation::{Action, Color, Event, Game, GameKind};
use fgn_replay::gen::{generate, Options};
use fgn_replay::referee::Referee;
use fgn_replay::{Digest, KnownPosition, Replay, ViewWriter, Viewer};

/// The most actions tried at one point of a game, spread over the list.
const ACTIONS_PER_POINT: usize = 10;

/// The most world events followed after one action.
const WORLD_EVENTS_PER_ACTION: usize = 40;

fn text(events: &[Event]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

/// The knowledge hashes seen so far in one game, by point, viewer and
/// view, with the log that gave each first (for the message of a
/// failure); and how many logs were compared over all games.
#[derive(Default)]
struct Groups {
    seen: HashMap<(usize, Viewer, String), (Digest, String, String)>,
    compared: usize,
}

impl Groups {
    /// The next game's logs are compared among themselves only.
    fn next_game(&mut self) {
        self.seen.clear();
    }
}

impl Groups {
    fn record(&mut self, point: usize, viewer: Viewer, view: String, hash: Digest, log: &str, replay: &Replay) {
        match self.seen.get(&(point, viewer, view.clone())) {
            Some((first, first_log, first_knowledge)) => {
                self.compared += 1;
                if *first != hash {
                    let second = knowledge_json(replay, viewer);
                    let differ: Vec<String> = first_knowledge
                        .lines()
                        .zip(second.lines())
                        .filter(|(a, b)| a != b)
                        .map(|(a, b)| format!("  first: {a}\n  second: {b}"))
                        .collect();
                    panic!(
                        "{viewer:?} has the same view of two logs but knows different things at event {point}\n\
                         view after it:\n{view}\nfirst log's events from there:\n{first_log}\n\
                         second log's events from there:\n{log}\nwhere the knowledge differs:\n{}",
                        differ.join("\n")
                    );
                }
            }
            None => {
                let knowledge = knowledge_json(replay, viewer);
                self.seen
                    .insert((point, viewer, view), (hash, log.to_string(), knowledge));
            }
        }
    }
}

fn knowledge_json(replay: &Replay, viewer: Viewer) -> String {
    serde_json::to_string_pretty(&replay.knowledge(viewer)).expect("json")
}

/// The squares an open-world-chess player sees now, which it knows by
/// looking, though its view need not say it: by the view's decision
/// (docs/notation.md §6.1) nothing is written for an empty square going out
/// of sight, or for one another's move keeps lit. So logs of the same view
/// are told apart by these too; what is on the squares is the view's.
fn in_sight(replay: &Replay, viewer: Viewer) -> String {
    match replay.knowledge(viewer).position {
        KnownPosition::OpenWorld(k) => k.seen.iter().map(|s| format!("{} ", s.square)).collect(),
        _ => String::new(),
    }
}

fn seed_of(game: &Game) -> Option<[u8; 32]> {
    game.events.iter().find_map(|e| match &e.action {
        Action::Seed { seed } => Some(seed.0),
        _ => None,
    })
}

/// Tries every point of `game` (a generated log) as described above.
fn check(game: &Game, groups: &mut Groups) {
    groups.next_game();
    let referee = seed_of(game).map(Referee::new);
    let mut replay = Replay::new(&game.header).expect("supported");
    let mut writers =
        [Color::White, Color::Black].map(|side| ViewWriter::new(&game.header, side).expect("a full log's header"));
    for (point, next) in game.events.iter().enumerate() {
        // The log as it stands, the log's own next event (a spawn out of
        // sight, the seed's reveal, ...), and a spread of the actions the
        // rules allow here.
        let actions = replay.legal_actions();
        let step = actions.len().div_ceil(ACTIONS_PER_POINT).max(1);
        let candidates = std::iter::once(None)
            .chain(std::iter::once(Some(next.clone())))
            .chain(actions.into_iter().step_by(step).map(Some));
        for first in candidates {
            let mut r = replay.clone();
            let mut w = writers.clone();
            let mut views: [Vec<Event>; 2] = [Vec::new(), Vec::new()];
            let mut log = Vec::new();
            let mut event = first;
            loop {
                if let Some(e) = event.take() {
                    let index = r.events_applied();
                    r.apply(&e).unwrap_or_else(|err| panic!("`{e}`: {err}"));
                    for (k, writer) in w.iter_mut().enumerate() {
                        writer.push(index, &e, &mut views[k]).expect("applies");
                    }
                    log.push(e);
                }
                let log_text = text(&log);
                for (k, viewer) in [Viewer::White, Viewer::Black].into_iter().enumerate() {
                    let view = format!("{}{}", text(&views[k]), in_sight(&r, viewer));
                    groups.record(point, viewer, view, r.knowledge_hash(viewer), &log_text, &r);
                }
                let both = format!("{}--\n{}", text(&views[0]), text(&views[1]));
                groups.record(
                    point,
                    Viewer::Everyone,
                    both,
                    r.knowledge_hash(Viewer::Everyone),
                    &log_text,
                    &r,
                );
                if log.is_empty() || log.len() > WORLD_EVENTS_PER_ACTION {
                    break;
                }
                event = referee.as_ref().and_then(|referee| referee.next(&r));
                if event.is_none() {
                    break;
                }
            }
        }
        replay.apply(next).expect("a generated log is valid");
        for writer in &mut writers {
            writer.push(point, next, &mut Vec::new()).expect("applies");
        }
    }
}

fn assert_no_leak(kind: GameKind, seeds: std::ops::Range<u64>, plies: usize, at_least: usize) {
    let mut groups = Groups::default();
    for seed in seeds {
        let options = Options {
            plies,
            resign_at_cap: false,
            ..Options::new(kind, seed)
        };
        let game = generate(&options).unwrap_or_else(|e| panic!("{e}"));
        check(&game, &mut groups);
    }
    assert!(
        groups.compared >= at_least,
        "only {} pairs of logs with the same view compared",
        groups.compared
    );
}

#[test]
fn open_world_chess_knowledge_is_the_same_for_logs_a_player_cannot_tell_apart() {
    assert_no_leak(GameKind::OpenWorldChess, 0..3, 80, 1000);
}

#[test]
fn open_world_chess_with_two_moves_a_turn_and_merchants_leaks_nothing() {
    use fgn_replay::ruleset::{OpenWorldRules, Ruleset};
    let mut groups = Groups::default();
    for seed in 0..3 {
        let rules = OpenWorldRules {
            moves_per_turn: 2,
            shop_price: 0,
            ..OpenWorldRules::default()
        };
        let options = Options {
            plies: 80,
            resign_at_cap: false,
            ..Options::under(Ruleset::OpenWorld(rules), seed)
        };
        let game = generate(&options).unwrap_or_else(|e| panic!("{e}"));
        check(&game, &mut groups);
    }
    assert!(groups.compared >= 1000, "only {} pairs compared", groups.compared);
}

#[test]
fn survival_chess_knowledge_is_the_same_for_logs_a_player_cannot_tell_apart() {
    assert_no_leak(GameKind::SurvivalChess, 0..2, 30, 500);
}

#[test]
fn great_war_chess_knowledge_is_the_same_for_logs_a_player_cannot_tell_apart() {
    assert_no_leak(GameKind::GreatWarChess, 0..2, 30, 500);
}

#[test]
fn magic_draughts_knowledge_is_the_same_for_logs_a_player_cannot_tell_apart() {
    assert_no_leak(GameKind::MagicDraughts, 0..3, 80, 3);
}
