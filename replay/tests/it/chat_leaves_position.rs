//! Issue 36: a chat line cost a look at the whole board (an account of
//! changes from two full states, a state hash, a view's look at every
//! square), which on a 26x26 open-world-chess board made chat hundreds of
//! times dearer than it needs to be. A chat or a salt leaves the position
//! as it was, and the shortcuts taken for them (`Replay::apply_changes`,
//! `HashTrail`, the view skipping its look) must give exactly what the
//! long way gives, over generated games of every game with chat, clocks
//! and resignations.

use fgn_notation::{Action, Color, Game, GameKind};
use fgn_replay::gen::{generate, Options, Rate, Rates};
use fgn_replay::{leaves_position, state_changes, view, HashTrail, Replay, Viewer};

const GAMES: [GameKind; 4] = [
    GameKind::SurvivalChess,
    GameKind::MagicDraughts,
    GameKind::OpenWorldChess,
    GameKind::GreatWarChess,
];

/// A generated game with a chat line before about every third decision.
fn chatty(game: GameKind, seed: u64) -> Game {
    let options = Options {
        plies: 120,
        clocks: seed.is_multiple_of(2),
        rates: Rates {
            chat: Rate::per_million(350_000).expect("a rate"),
            resign: Rate::per_million(2_000).expect("a rate"),
            ..Rates::DEFAULT
        },
        ..Options::new(game, seed)
    };
    generate(&options).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_chat_is_accounted_and_hashed_as_the_whole_state_says() {
    let mut chats = 0;
    for game in GAMES {
        for seed in 0..6 {
            let log = chatty(game, seed);
            let mut replay = Replay::new(&log.header).expect("a generated header");
            let viewers = [None, Some(Viewer::White), Some(Viewer::Black), Some(Viewer::Everyone)];
            let mut trails: Vec<HashTrail> = viewers.iter().map(|&v| HashTrail::new(v)).collect();
            for trail in &mut trails {
                trail.after(&replay, None);
            }
            for event in log.events.iter() {
                chats += usize::from(leaves_position(event));
                let before = replay.state();
                let mut long = replay.clone();
                long.apply(event).expect("a generated game is valid");
                let account = replay.apply_changes(event).expect("a generated game is valid");
                assert_eq!(
                    account,
                    state_changes(&before, &long.state(), Some(event)),
                    "{game} seed {seed}: the account of `{event}`"
                );
                for (trail, viewer) in trails.iter_mut().zip(viewers) {
                    let direct = match viewer {
                        None => replay.state_hash(),
                        Some(v) => replay.knowledge_hash(v),
                    };
                    assert_eq!(
                        trail.after(&replay, Some(event)),
                        direct,
                        "{game} seed {seed}: the hash of {viewer:?} after `{event}`"
                    );
                }
            }
        }
    }
    assert!(chats > 300, "only {chats} chat lines were tried");
}

/// A view says nothing of a chat but the chat itself: the view of a log
/// without its chat lines is its view with them, chat lines taken out. (The
/// view skips its look at the board after a chat, which must find
/// nothing.)
#[test]
fn a_view_with_chat_is_the_view_without_it_plus_the_chat_lines() {
    for game in GAMES {
        for seed in 0..6 {
            let log = chatty(game, seed);
            // The seed goes too (a view leaves it out anyway): the draws of
            // open-world-chess are still named by the event index, which
            // counts chat (issue 36, item 1), so the seed's check would
            // fail once the chat lines are gone.
            let mut log = log;
            log.events.retain(|e| !matches!(e.action, Action::Seed { .. }));
            let mut quiet = log.clone();
            quiet.events.retain(|e| !leaves_position(e));
            for side in [Color::White, Color::Black] {
                let mut with = view(&log, side).expect("a valid log's view");
                with.events
                    .retain(|e| !matches!(e.action, Action::Chat { .. } | Action::Salt { .. }));
                assert_eq!(
                    with,
                    view(&quiet, side).expect("a valid log's view"),
                    "{game} seed {seed}, {side:?}"
                );
            }
        }
    }
}
