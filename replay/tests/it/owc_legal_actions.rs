//! open-world-chess's list of legal actions against a slow reference that
//! asks the engine itself: over many generated games, at every point, every
//! candidate player action is tried through [`Replay::apply`] in the
//! documented order of the list, and those that apply must be exactly the
//! list, in that order.
//!
//! The order matters beyond the game API: `fgn_replay::gen` draws its
//! players' actions from this list, so a change of order would change
//! every generated game (and the corpora and fixtures made from them).

use fgn_notation::{Action, Actor, BoardSize, ChessMove, Color, Event, Item, MoveNumber, PieceKind, Square};
use fgn_replay::gen::{generate, Options};
use fgn_replay::position::OpenWorldState;
use fgn_replay::ruleset::{Board, OpenWorldRules};
use fgn_replay::Position;
use fgn_replay::{Phase, Replay, Ruleset};

/// The open-world-chess state of `replay`.
fn owc_state(replay: &Replay) -> OpenWorldState {
    match replay.state().position {
        Position::OpenWorld(s) => s,
        other => panic!("not an open-world-chess replay: {other:?}"),
    }
}

/// Tries `event` on a copy of `replay` (kept in `trial` across refusals,
/// which leave it unchanged) and says whether it applies.
fn applies(replay: &Replay, trial: &mut Replay, event: &Event) -> bool {
    if trial.apply(event).is_ok() {
        // The copy moved on: start the next try from the position again.
        *trial = replay.clone();
        return true;
    }
    false
}

/// Every purchase of `buyer` carrying move number `n`, in the list's
/// order (square order; on each square `range` and `hp` for an own piece,
/// `drain` for an enemy's; `curse` last), that applies.
fn reference_purchases(
    replay: &Replay,
    trial: &mut Replay,
    squares: &[Square],
    buyer: Color,
    n: MoveNumber,
    out: &mut Vec<Event>,
) {
    let event = |item: Item, square: Option<Square>| Event {
        n,
        actor: Actor::Player(buyer),
        action: Action::Buy {
            item,
            square,
            hidden: false,
        },
        clock_ms: None,
    };
    for &sq in squares {
        for item in [Item::Range, Item::Hp, Item::Drain] {
            let e = event(item, Some(sq));
            if applies(replay, trial, &e) {
                out.push(e);
            }
        }
    }
    let curse = event(Item::Curse, None);
    if applies(replay, trial, &curse) {
        out.push(curse);
    }
}

/// The reference list: the late buyer's purchases, then the side to move's
/// moves (from-square, then to-square in square order; `-` or `x`; a pawn
/// reaching its far rank with Q, R, B and N written out), its `end`, and
/// its purchases; each candidate kept if the engine accepts it.
fn reference(replay: &Replay) -> Vec<Event> {
    let mut out = Vec::new();
    if replay.phase() != Phase::Playing {
        return out;
    }
    let state = owc_state(replay);
    let Board(BoardSize { files, ranks }) = state.public.board;
    let squares: Vec<Square> = (0..ranks)
        .flat_map(|r| (0..files).map(move |f| Square::new(f, r).expect("on the board")))
        .collect();
    let piece_on = |sq: Square| state.pieces.iter().find(|p| p.square == sq);
    let mut trial = replay.clone();
    let (side, number) = (state.public.side, state.public.turn);
    if let Some(buyer) = state.public.late_shop {
        // A purchase after the last move of a turn carries that turn's
        // number: black's turn 3 ends in white's turn 4.
        let n = if buyer == Color::Black {
            MoveNumber(number.0 - 1)
        } else {
            number
        };
        reference_purchases(replay, &mut trial, &squares, buyer, n, &mut out);
    }
    let far = if side == Color::White { ranks - 1 } else { 0 };
    for &from in &squares {
        let piece = piece_on(from).map_or(PieceKind::Pawn, |p| p.piece);
        for &to in &squares {
            let promotions: &[Option<PieceKind>] = if piece == PieceKind::Pawn && to.rank_index() == far {
                &[
                    Some(PieceKind::Queen),
                    Some(PieceKind::Rook),
                    Some(PieceKind::Bishop),
                    Some(PieceKind::Knight),
                ]
            } else {
                &[None]
            };
            for capture in [false, true] {
                for &promotion in promotions {
                    let e = Event {
                        n: number,
                        actor: Actor::Player(side),
                        action: Action::Move(ChessMove {
                            piece,
                            from: Some(from),
                            to: Some(to),
                            capture,
                            promotion,
                            check: None,
                        }),
                        clock_ms: None,
                    };
                    if applies(replay, &mut trial, &e) {
                        out.push(e);
                    }
                }
            }
        }
    }
    let end = Event {
        n: number,
        actor: Actor::Player(side),
        action: Action::End,
        clock_ms: None,
    };
    if applies(replay, &mut trial, &end) {
        out.push(end);
    }
    reference_purchases(replay, &mut trial, &squares, side, number, &mut out);
    out
}

/// Replays the game generated under `rules` from `seed`, comparing the
/// list with the reference before every event. Returns how many points
/// listed a purchase and how many a move of a pawn or king with range
/// (more than one square), so that a test can tell it checked them.
fn check_game(rules: OpenWorldRules, seed: u64, plies: usize) -> (usize, usize) {
    let options = Options {
        plies,
        resign_at_cap: false,
        ..Options::under(Ruleset::OpenWorld(rules.clone()), seed)
    };
    let game = generate(&options).unwrap_or_else(|e| panic!("{e}"));
    let mut replay = Replay::with_rules(&game.header, Ruleset::OpenWorld(rules)).expect("a generated game starts");
    let (mut purchases, mut ranges) = (0, 0);
    for (index, event) in game.events.iter().enumerate() {
        let listed = replay.legal_actions();
        let expected = reference(&replay);
        let buying = listed.iter().any(|e| matches!(e.action, Action::Buy { .. }));
        let ranged = listed.iter().any(|e| match &e.action {
            Action::Move(m) if matches!(m.piece, PieceKind::Pawn | PieceKind::King) => {
                let (from, to) = (m.from.expect("from"), m.to.expect("to"));
                from.rank_index().abs_diff(to.rank_index()) > 1 || from.file_index().abs_diff(to.file_index()) > 1
            }
            _ => false,
        });
        purchases += usize::from(buying);
        ranges += usize::from(ranged);
        if listed != expected {
            let show = |l: &[Event]| l.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
            panic!(
                "game {seed}, event {index}: the list differs from the reference\n listed:    {}\n reference: {}",
                show(&listed),
                show(&expected)
            );
        }
        replay
            .apply(event)
            .unwrap_or_else(|e| panic!("generated event {index} `{event}` is refused: {e}"));
    }
    (purchases, ranges)
}

/// Many merchants, cheap items and many coins: purchases of every kind,
/// and so pawns and kings with range.
fn busy(price: u32, board: (u8, u8)) -> OpenWorldRules {
    let merchants = ["c3", "f3", "b4", "d5", "e4", "g5", "c6", "f6"]
        .iter()
        .map(|s| s.parse().expect("a square"))
        .collect();
    OpenWorldRules {
        board: Board(BoardSize {
            files: board.0,
            ranks: board.1,
        }),
        merchants: Some(merchants),
        shop_price: price,
        spawn_chance: 40,
        coin_share: 60,
        ..OpenWorldRules::default()
    }
}

#[test]
fn the_list_equals_the_engines_own_check_in_default_games() {
    for seed in 0..3 {
        check_game(OpenWorldRules::default(), seed, 60);
    }
}

#[test]
fn the_list_equals_the_engines_own_check_with_free_purchases_and_range() {
    let (mut purchases, mut ranges) = (0, 0);
    for seed in 0..3 {
        let (p, r) = check_game(busy(0, (8, 8)), 100 + seed, 60);
        purchases += p;
        ranges += r;
    }
    assert!(
        purchases > 0 && ranges > 0,
        "{purchases} points with purchases, {ranges} with ranged moves"
    );
}

#[test]
fn the_list_equals_the_engines_own_check_on_wider_boards_with_longer_range() {
    let rules = OpenWorldRules {
        range_steps: 3,
        ..busy(0, (10, 9))
    };
    let mut ranges = 0;
    for seed in 0..2 {
        ranges += check_game(rules.clone(), 200 + seed, 50).1;
    }
    assert!(ranges > 0, "no ranged move was listed");
}

/// A pawn that can reach the far rank is listed once for each piece it may
/// become (RULES.md §2 "promotion on the far rank as in Survival Chess": Q,
/// R, B or N), each written with its piece. The generated games above are
/// too short to promote; cargo-mutants found the list's promotion piece
/// unpinned (without it, the queen was listed four times).
#[test]
fn a_promotion_is_listed_once_for_each_piece() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/open-world-chess/valid/owc-20-bare-promotion-makes-a-queen.fgn"
    );
    let game = fgn_notation::parse(&std::fs::read(path).expect("a corpus log"))
        .document
        .game;
    let at = game
        .events
        .iter()
        .position(|e| e.to_string().starts_with("2 w b7-b8"))
        .expect("the log promotes on b8");
    let mut replay = Replay::new(&game.header).expect("supported");
    for e in game.events[..at].iter() {
        replay.apply(e).expect("a valid log");
    }
    let promotions: Vec<Option<PieceKind>> = replay
        .legal_actions()
        .into_iter()
        .filter_map(|e| match e.action {
            Action::Move(m)
                if m.from == Some(Square::new(1, 6).unwrap()) && m.to == Some(Square::new(1, 7).unwrap()) =>
            {
                Some(m.promotion)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        promotions,
        [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight].map(Some)
    );
}
