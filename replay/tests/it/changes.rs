//! The typed account of what an event changed (`Replay::apply_changes`,
//! `state_changes`, `knowledge_changes`): what it says of moves, captures,
//! deaths, HP, objects, coins, charges, spells and reveals in each game,
//! that it is empty exactly when nothing changed (for every event of every
//! valid corpus game, for the referee and every viewer), and that a
//! player's account names only squares that player sees.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use fgn_notation::{Color, Game, Square};
use fgn_replay::changes::Piece;
use fgn_replay::{knowledge_changes, state_changes, Change, Knowledge, KnownPosition, Replay, Viewer};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn read(path: &Path) -> Game {
    let parsed = fgn_notation::parse(&std::fs::read(path).expect("readable corpus file"));
    assert!(parsed.is_ok(), "{}: {:?}", path.display(), parsed.diagnostics);
    parsed.document.game
}

fn valid_games() -> Vec<(PathBuf, Game)> {
    let mut out = Vec::new();
    for game in [
        "survival-chess",
        "open-world-chess",
        "great-war-chess",
        "magic-draughts",
    ] {
        let dir = corpus().join(game).join("valid");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("corpus folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "fgn"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|p| {
            let g = read(&p);
            (p, g)
        }));
    }
    assert!(out.len() > 60, "only {} corpus games", out.len());
    out
}

fn sq(s: &str) -> Square {
    s.parse().expect("a square")
}

/// The referee's account of the first event of corpus game `file` that is
/// written `event` (as parsed, without its clock reading), every event
/// before it applied.
fn account(file: &str, event: &str) -> Vec<Change> {
    let game = read(&corpus().join(file));
    let mut replay = Replay::new(&game.header).expect("a supported game");
    for e in game.events.iter() {
        let changes = replay.apply_changes(e).expect("a valid game");
        let unclocked = fgn_notation::Event {
            clock_ms: None,
            ..e.clone()
        };
        if unclocked.to_string() == event {
            return changes;
        }
    }
    panic!("{file} has no event `{event}`");
}

/// The account with the shared rules' bookkeeping (turn, move number,
/// clocks) left out, to keep expectations short.
fn board_changes(changes: Vec<Change>) -> Vec<Change> {
    changes
        .into_iter()
        .filter(|c| {
            !matches!(
                c,
                Change::Turn { .. }
                    | Change::Number { .. }
                    | Change::Clock { .. }
                    | Change::TurnStarted { .. }
                    | Change::Light { .. }
                    | Change::Spawnable { .. }
                    | Change::MovesLeft { .. }
            )
        })
        .collect()
}

const W: Color = Color::White;
const B: Color = Color::Black;

fn chess(letter: char) -> Piece {
    Piece::Chess(fgn_notation::PieceKind::from_char(letter).expect("a piece letter"))
}

fn unit(letter: char) -> Piece {
    Piece::Unit(fgn_notation::UnitKind::from_char(letter).expect("a unit letter"))
}

#[test]
fn a_survival_chess_move_capture_and_promotion() {
    let file = "survival-chess/valid/03-promotion-default-queen.fgn";
    // The double step's loss is not listed: moving loses it.
    assert_eq!(
        board_changes(account(file, "1 w h6-h8")),
        vec![Change::Moved {
            from: Some(sq("h6")),
            to: Some(sq("h8")),
            color: W,
            piece: chess('P'),
        }]
    );
    assert_eq!(
        board_changes(account(file, "2 b Nd8xe6")),
        vec![
            Change::Moved {
                from: Some(sq("d8")),
                to: Some(sq("e6")),
                color: B,
                piece: chess('N'),
            },
            Change::Captured {
                square: sq("e6"),
                color: W,
                piece: chess('P'),
            },
        ]
    );
    let mate = account(file, "6 w h11-h12#");
    assert_eq!(
        board_changes(mate.clone()),
        vec![
            Change::Moved {
                from: Some(sq("h11")),
                to: Some(sq("h12")),
                color: W,
                piece: chess('P'),
            },
            Change::Promoted {
                square: sq("h12"),
                color: W,
                before: chess('P'),
                after: chess('Q'),
            },
            Change::InCheck {
                before: false,
                after: true,
            },
            Change::Status {
                before: fgn_replay::Phase::Playing,
                after: fgn_replay::Phase::ResultDue(fgn_replay::Decision::win(W, fgn_notation::Reason::Mate)),
            },
        ]
    );
    let result = account(file, "6 @ result 1-0 mate");
    assert!(
        matches!(
            result.as_slice(),
            [Change::Status {
                after: fgn_replay::Phase::Over(_),
                ..
            }]
        ),
        "{result:?}"
    );
}

#[test]
fn survival_chess_setup_edits_are_placed_and_removed() {
    let game = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Pe2\n0 w remove e2\n";
    let game = fgn_notation::parse(game.as_bytes()).document.game;
    let mut replay = Replay::new(&game.header).unwrap();
    let placed = replay.apply_changes(&game.events[0]).unwrap();
    assert_eq!(
        placed,
        vec![
            Change::Placed {
                square: sq("e1"),
                color: W,
                piece: chess('K'),
            },
            Change::Placed {
                square: sq("e2"),
                color: W,
                piece: chess('P'),
            },
        ]
    );
    // A refused event has no account and leaves the replay as it was.
    let state = replay.state();
    let refused = fgn_notation::parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w place Ke2\n");
    assert!(replay.apply_changes(&refused.document.game.events[0]).is_err());
    assert_eq!(replay.state(), state);
    assert_eq!(
        replay.apply_changes(&game.events[1]).unwrap(),
        vec![Change::Removed {
            square: sq("e2"),
            color: W,
            piece: chess('P'),
        }]
    );
}

#[test]
fn open_world_chess_combat_hp_and_deaths() {
    let file = "open-world-chess/valid/owc-08-damage-ramp-king-dies-of-damage.fgn";
    // The attacker has fewer HP: it dies, and the defender loses as many.
    assert_eq!(
        board_changes(account(file, "5 w Nh7xf8")),
        vec![
            Change::Died {
                square: sq("h7"),
                color: W,
                piece: chess('N'),
            },
            Change::Hp {
                square: sq("f8"),
                color: B,
                piece: chess('B'),
                before: 5,
                after: 3,
            },
        ]
    );
    // The attacker has more: it takes the square with what is left.
    assert_eq!(
        board_changes(account(file, "6 b Qd8xd2")),
        vec![
            Change::Moved {
                from: Some(sq("d8")),
                to: Some(sq("d2")),
                color: B,
                piece: chess('Q'),
            },
            Change::Hp {
                square: sq("d2"),
                color: B,
                piece: chess('Q'),
                before: 9,
                after: 7,
            },
            Change::Died {
                square: sq("d2"),
                color: W,
                piece: chess('P'),
            },
        ]
    );
}

#[test]
fn open_world_chess_a_move_waiting_on_its_path_for_a_roll() {
    let file = "open-world-chess/valid/owc-08-damage-ramp-king-dies-of-damage.fgn";
    // The bishop stops on the damage object until the world rolls...
    let moved = account(file, "5 b Bf5xb1");
    assert_eq!(
        moved[0],
        Change::Moved {
            from: Some(sq("f5")),
            to: Some(sq("c2")),
            color: B,
            piece: chess('B'),
        }
    );
    assert!(moved.iter().any(|c| matches!(
        c,
        Change::Owed {
            before: None,
            after: Some(_)
        }
    )));
    // ...and the roll kills it there.
    let rolled = board_changes(account(file, "5 @ damage c2 5"));
    assert_eq!(
        rolled[..2],
        [
            Change::Died {
                square: sq("c2"),
                color: B,
                piece: chess('B'),
            },
            Change::Object {
                square: sq("c2"),
                before: Some(fgn_notation::ObjectKind::Damage),
                after: None,
            },
        ]
    );
}

#[test]
fn open_world_chess_objects_and_coins() {
    let file = "open-world-chess/valid/owc-05-drain-in-the-dark.fgn";
    assert_eq!(
        board_changes(account(file, "0 @ spawn e6 coin")),
        vec![Change::Object {
            square: sq("e6"),
            before: None,
            after: Some(fgn_notation::ObjectKind::Coin),
        }]
    );
    let pick_up = board_changes(account(file, "1 b e7-e6"));
    assert!(pick_up.contains(&Change::Object {
        square: sq("e6"),
        before: Some(fgn_notation::ObjectKind::Coin),
        after: None,
    }));
    assert!(pick_up.contains(&Change::Coins {
        color: B,
        before: 0,
        after: 1,
    }));
    // A drain that kills: the piece died, the buyer paid.
    assert_eq!(
        board_changes(account(file, "3 b buy drain e6")),
        vec![
            Change::Died {
                square: sq("e6"),
                color: W,
                piece: chess('P'),
            },
            Change::Coins {
                color: B,
                before: 1,
                after: 0,
            },
        ]
    );
}

#[test]
fn great_war_chess_attacks_captures_and_charges() {
    let file = "great-war-chess/valid/gwc-10-captures.fgn";
    let attack = board_changes(account(file, "3 w Ic3xd4"));
    assert_eq!(
        attack[..4],
        [
            Change::Moved {
                from: Some(sq("c3")),
                to: Some(sq("d4")),
                color: W,
                piece: unit('I'),
            },
            Change::ChangedSides {
                square: sq("d4"),
                piece: unit('C'),
                before: B,
                after: W,
            },
            Change::ChangedSides {
                square: sq("d4"),
                piece: unit('A'),
                before: B,
                after: W,
            },
            Change::Destroyed {
                square: sq("d4"),
                color: B,
                piece: unit('I'),
            },
        ]
    );
    assert!(attack.contains(&Change::Charges {
        color: W,
        before: 40,
        after: 43,
    }));
    assert!(attack.contains(&Change::Charges {
        color: B,
        before: 40,
        after: 32,
    }));
    // A shot destroys and moves nobody.
    let shot = board_changes(account(file, "4 w Ad4*e5"));
    assert_eq!(
        shot[0],
        Change::Destroyed {
            square: sq("e5"),
            color: B,
            piece: unit('I'),
        }
    );
    assert!(shot.contains(&Change::Fired {
        before: None,
        after: Some(sq("d4")),
    }));
    // A failed attack costs a charge and moves nothing.
    let failed = board_changes(account(file, "4 b Ia3xa2"));
    assert!(!failed
        .iter()
        .any(|c| matches!(c, Change::Moved { .. } | Change::Destroyed { .. })));
    assert!(failed.contains(&Change::Charges {
        color: B,
        before: 24,
        after: 23,
    }));
    // A rider carries its infantry: both units moved.
    let ride = board_changes(account(file, "5 w ICd4-d5"));
    assert_eq!(
        ride.iter().filter(|c| matches!(c, Change::Moved { .. })).count(),
        2,
        "{ride:?}"
    );
}

#[test]
fn magic_draughts_captures_reveals_and_spells() {
    let file = "magic-draughts/valid/04-charm-and-fury-win.fgn";
    assert_eq!(
        board_changes(account(file, "2 w f4:h6"))[..2],
        [
            Change::Moved {
                from: Some(sq("f4")),
                to: Some(sq("h6")),
                color: W,
                piece: Piece::Man,
            },
            Change::Captured {
                square: sq("g5"),
                color: B,
                piece: Piece::Man,
            },
        ]
    );
    let reveal = account(file, "2 @ reveal g5 5");
    assert_eq!(
        reveal[0],
        Change::Revealed {
            square: sq("g5"),
            color: B,
            before: None,
            after: Some(5),
        }
    );
    assert!(reveal.contains(&Change::SpellsDue {
        color: B,
        before: vec![],
        after: vec![5],
    }));
    // Gorynych's Fury removes every piece on its file: not captured.
    let fury = board_changes(account(file, "6 b spell 1 e"));
    assert_eq!(
        fury[..2],
        [
            Change::Removed {
                square: sq("e1"),
                color: W,
                piece: Piece::Man,
            },
            Change::Removed {
                square: sq("e5"),
                color: W,
                piece: Piece::Man,
            },
        ]
    );
    // Leshy's Charm moves an enemy piece; Firebird's Call crowns in place;
    // Koschei's Revenge puts checkers back.
    assert_eq!(
        account(file, "6 b spell 3 b2 a3")[0],
        Change::Moved {
            from: Some(sq("b2")),
            to: Some(sq("a3")),
            color: W,
            piece: Piece::Man,
        }
    );
    assert_eq!(
        account(file, "4 b spell 4 e7")[0],
        Change::Promoted {
            square: sq("e7"),
            color: B,
            before: Piece::Man,
            after: Piece::King,
        }
    );
    let revenge = account(file, "9 b spell 5 c5 a7");
    assert_eq!(
        revenge
            .iter()
            .filter(|c| matches!(
                c,
                Change::Placed {
                    color: B,
                    piece: Piece::Man,
                    ..
                }
            ))
            .count(),
        2
    );
    assert!(revenge.contains(&Change::Returnable {
        color: B,
        before: 2,
        after: 0,
    }));
    // A man crowned in the middle of its capture.
    let crowned = account(file, "7 w h6:f8:b4");
    assert!(crowned.contains(&Change::Promoted {
        square: sq("b4"),
        color: W,
        before: Piece::Man,
        after: Piece::King,
    }));
}

/// Whether two knowledges are equal, and so must have no changes between them.
fn check_knowledge(before: &Knowledge, after: &Knowledge, event: &fgn_notation::Event, what: &str) {
    let changes = knowledge_changes(before, after, Some(event));
    assert_eq!(
        changes.is_empty(),
        before == after,
        "{what}: `{event}` as {:?}: {changes:?}",
        before.viewer
    );
    assert_eq!(
        knowledge_changes(before, after, None).is_empty(),
        before == after,
        "{what}: `{event}` compared without the event"
    );
}

#[test]
fn the_account_is_empty_exactly_when_nothing_changed() {
    let mut empty = 0;
    let mut events = 0;
    for (path, game) in valid_games() {
        let what = path.display().to_string();
        let mut replay = Replay::new(&game.header).expect("supported");
        let mut plain = replay.clone();
        for event in game.events.iter() {
            let state = replay.state();
            let known: Vec<Knowledge> = [Viewer::White, Viewer::Black, Viewer::Everyone]
                .into_iter()
                .map(|v| replay.knowledge(v))
                .collect();
            let changes = replay.apply_changes(event).expect("valid");
            plain.apply(event).expect("valid");
            // The account's replay is the plain one.
            assert_eq!(replay.state_hash(), plain.state_hash(), "{what}: `{event}`");
            let after = replay.state();
            assert_eq!(changes.is_empty(), state == after, "{what}: `{event}`: {changes:?}");
            assert_eq!(
                state_changes(&state, &after, None).is_empty(),
                state == after,
                "{what}: `{event}` compared without the event"
            );
            assert!(state_changes(&after, &after, None).is_empty());
            empty += usize::from(changes.is_empty());
            events += 1;
            for k in &known {
                check_knowledge(k, &replay.knowledge(k.viewer), event, &what);
            }
        }
    }
    // Chat events and a few others change nothing; most change something.
    assert!(empty > 0 && empty < events / 4, "{empty} of {events} accounts empty");
}

#[test]
fn chat_changes_nothing_but_its_clock_reading() {
    let changes = account(
        "open-world-chess/valid/owc-05-drain-in-the-dark.fgn",
        "3 w chat \"where did that come from?\\\\\"",
    );
    assert!(matches!(changes.as_slice(), [Change::Clock { .. }]), "{changes:?}");
}

/// The squares a change names.
fn named(change: &Change) -> Vec<Square> {
    match change {
        Change::Moved { from, to, .. } => from.iter().chain(to.iter()).copied().collect(),
        Change::Placed { square, .. }
        | Change::Removed { square, .. }
        | Change::Captured { square, .. }
        | Change::Died { square, .. }
        | Change::Destroyed { square, .. }
        | Change::ChangedSides { square, .. }
        | Change::Promoted { square, .. }
        | Change::Seen { square, .. }
        | Change::Unseen { square, .. }
        | Change::Hp { square, .. }
        | Change::MaxHp { square, .. }
        | Change::Range { square, .. }
        | Change::Object { square, .. }
        | Change::Light { square, .. }
        | Change::Sight { square, .. }
        | Change::Spawnable { square, .. } => vec![*square],
        _ => Vec::new(),
    }
}

/// What `viewer` sees of an open-world-chess game: its seen squares and
/// its own pieces' squares.
fn sight(k: &Knowledge) -> BTreeSet<Square> {
    let KnownPosition::OpenWorld(o) = &k.position else {
        panic!("an open-world-chess knowledge")
    };
    o.seen
        .iter()
        .map(|s| s.square)
        .chain(o.own.iter().map(|p| p.square))
        .collect()
}

#[test]
fn a_players_account_names_only_squares_it_sees() {
    let mut hidden = 0;
    for (path, game) in valid_games() {
        if game.kind() != Some(fgn_notation::GameKind::OpenWorldChess) {
            continue;
        }
        let mut replay = Replay::new(&game.header).expect("supported");
        for event in game.events.iter() {
            let before: Vec<Knowledge> = [Viewer::White, Viewer::Black].map(|v| replay.knowledge(v)).to_vec();
            let full = replay.apply_changes(event).expect("valid");
            for k in &before {
                let after = replay.knowledge(k.viewer);
                let seen: BTreeSet<Square> = sight(k).union(&sight(&after)).copied().collect();
                let changes = knowledge_changes(k, &after, Some(event));
                for c in &changes {
                    // A player knows its own moves in full.
                    if matches!(c, Change::Moved { color, .. } if Some(*color) == k.viewer.color()) {
                        continue;
                    }
                    for square in named(c) {
                        assert!(
                            seen.contains(&square),
                            "{}: `{event}` as {:?} names {square}, out of its sight: {c:?}",
                            path.display(),
                            k.viewer
                        );
                    }
                }
                // Somewhere the referee's account says more than a player's.
                hidden += usize::from(!full.is_empty() && changes.len() < full.len());
            }
        }
    }
    assert!(hidden > 0);
}

#[test]
fn a_secret_setup_shows_only_when_both_are_ready() {
    let game = read(&corpus().join("survival-chess/valid/01-bishop-queen-mate.fgn"));
    let mut replay = Replay::new(&game.header).unwrap();
    let mut shown = Vec::new();
    for event in game.events.iter() {
        let before = replay.knowledge(Viewer::White);
        replay.apply(event).unwrap();
        let changes = knowledge_changes(&before, &replay.knowledge(Viewer::White), Some(event));
        let edit = matches!(
            event.action,
            fgn_notation::Action::Place { .. } | fgn_notation::Action::Remove { .. }
        );
        if event.actor == fgn_notation::Actor::Player(B) && edit {
            assert!(
                changes.is_empty(),
                "black's setup edit `{event}` shows to white: {changes:?}"
            );
        }
        if changes.iter().any(|c| matches!(c, Change::HiddenSetups { .. })) {
            shown = changes;
            break;
        }
    }
    // Black's pieces come into white's sight, as seen, not placed.
    assert!(
        shown.iter().any(|c| matches!(c, Change::Seen { color: B, .. })),
        "{shown:?}"
    );
    assert!(!shown.iter().any(|c| matches!(c, Change::Placed { .. })), "{shown:?}");
}

#[test]
fn two_positions_compare_without_an_event_as_removed_and_placed() {
    let file = corpus().join("survival-chess/valid/03-promotion-default-queen.fgn");
    let game = read(&file);
    let at = |n: usize| {
        let mut r = Replay::new(&game.header).unwrap();
        for e in game.events.iter().take(n) {
            r.apply(e).unwrap();
        }
        r.state()
    };
    let (a, b) = (at(4), at(5));
    let changes = state_changes(&a, &b, None);
    // A pawn on h6 in the first, on h8 in the second: no event says it moved.
    assert!(changes.contains(&Change::Removed {
        square: sq("h6"),
        color: W,
        piece: chess('P'),
    }));
    assert!(changes.contains(&Change::Placed {
        square: sq("h8"),
        color: W,
        piece: chess('P'),
    }));
    assert!(!changes.iter().any(|c| matches!(c, Change::Moved { .. })));
    // The account is a value with stable names, colours spelled as in game JSON.
    let json = serde_json::to_value(&changes[0]).unwrap();
    assert_eq!(json["type"], "removed");
    assert_eq!(json["color"], "w");
    assert_eq!(json["piece"], "P");
}
