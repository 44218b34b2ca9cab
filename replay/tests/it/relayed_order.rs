//! What a relaying server orders never decides a random outcome
//! (NOTATION.md, "Seeds and provable fairness": a label holds nothing whose
//! order the server chooses while relaying; docs/notation.md §12.6).
//!
//! A server relays the players' chat, and chooses where in the log each
//! chat line stands. If a draw's label counted events, a server that knows
//! the seed could put a chat line before or after a move and so pick what
//! that move spawns. These tests take seeded games with their seed
//! revealed, of both games with a world seed, and put a chat line of
//! either player at every place in the log, or take every chat line out:
//! each such log still validates with its seed, so every outcome the seed
//! derives is the one recorded, whatever the chat.

use fgn_notation::{Action, Actor, Color, Event, Game, GameKind, MoveNumber};
use fgn_replay::gen::{generate, Options, Rate};
use fgn_replay::validate;

/// A chat line of `side` that may stand right after `before` (or first):
/// chat carries the number of the event before it, or 0 first.
fn chat(side: Color, before: Option<&Event>) -> Event {
    Event {
        n: before.map_or(MoveNumber(0), |e| e.n),
        actor: Actor::Player(side),
        action: Action::Chat { text: "gl".to_string() },
        clock_ms: None,
    }
}

/// Seeded games of `game` with their seed revealed, some with salts and
/// chat of their own.
fn seeded_games(game: GameKind, count: u64) -> Vec<Game> {
    (0..count)
        .map(|i| {
            let mut options = Options::new(game, 40 + i);
            options.plies = 70;
            if i % 2 == 1 {
                options.salts = Some(options.player_salts());
                options.rates.chat = Rate::per_million(100_000).expect("a rate");
            }
            let game = generate(&options).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                game.events.iter().any(|e| matches!(e.action, Action::Seed { .. })),
                "a generated game reveals its seed"
            );
            let v = validate(&game).expect("supported");
            assert_eq!(v.error, None, "{}", game.canonical_text());
            game
        })
        .collect()
}

fn assert_chat_never_changes_an_outcome(game: GameKind) {
    let mut tried = 0;
    for log in seeded_games(game, 4) {
        for at in 0..=log.events.len() {
            for side in [Color::White, Color::Black] {
                let mut moved = log.clone();
                let line = chat(side, at.checked_sub(1).map(|k| &log.events[k]));
                moved.events.insert(at, line);
                let v = validate(&moved).expect("supported");
                assert_eq!(
                    v.error,
                    None,
                    "a chat line of {side:?} at event {at} changed the verdict of\n{}",
                    moved.canonical_text()
                );
                tried += 1;
            }
        }
        let mut quiet = log.clone();
        quiet.events.retain(|e| !matches!(e.action, Action::Chat { .. }));
        assert_eq!(validate(&quiet).expect("supported").error, None, "without its chat");
    }
    assert!(tried > 400, "only {tried} places tried");
}

#[test]
fn a_chat_line_anywhere_never_changes_an_open_world_chess_outcome() {
    assert_chat_never_changes_an_outcome(GameKind::OpenWorldChess);
}

#[test]
fn a_chat_line_anywhere_never_changes_a_magic_draughts_outcome() {
    assert_chat_never_changes_an_outcome(GameKind::MagicDraughts);
}
