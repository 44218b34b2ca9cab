//! Unit tests of the Russian rules on small hand-made positions.

use fgn_notation::{Color, Path, Square};

use super::moves::{MoveError, MoveErrorKind};
use super::{DMove, DraughtsBoard};

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

fn squares(names: &str) -> Vec<Square> {
    names.split_whitespace().map(sq).collect()
}

/// A position from space-separated squares, `K` before a king.
fn position(white: &str, black: &str, to_move: Color) -> DraughtsBoard {
    let split = |list: &str| {
        let (mut men, mut kings) = (Vec::new(), Vec::new());
        for name in list.split_whitespace() {
            match name.strip_prefix('K') {
                Some(king) => kings.push(sq(king)),
                None => men.push(sq(name)),
            }
        }
        (men, kings)
    };
    let (wm, wk) = split(white);
    let (bm, bk) = split(black);
    DraughtsBoard::from_pieces(&wm, &wk, &bm, &bk, to_move).expect("a valid position")
}

fn moves(pos: &DraughtsBoard) -> Vec<DMove> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out
}

/// The legal moves in notation, sorted.
fn names(pos: &DraughtsBoard) -> Vec<String> {
    let mut names: Vec<String> = moves(pos).iter().map(DMove::to_string).collect();
    names.sort();
    names
}

/// A written move: its path and whether it is a capture.
fn written(text: &str) -> (Path, bool) {
    let capture = text.contains(':');
    let path = Path::new(&text.split([':', '-']).map(sq).collect::<Vec<_>>()).expect("a path");
    (path, capture)
}

fn find(pos: &DraughtsBoard, text: &str) -> Result<DMove, MoveError> {
    let (path, capture) = written(text);
    pos.find_move(&path, capture)
}

fn error_kind(pos: &DraughtsBoard, text: &str) -> MoveErrorKind {
    find(pos, text).expect_err("an illegal move").kind
}

#[test]
fn start_position_layout() {
    let start = DraughtsBoard::start();
    let expected = position(
        "a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3",
        "b6 d6 f6 h6 a7 c7 e7 g7 b8 d8 f8 h8",
        Color::White,
    );
    assert_eq!(start, expected);
    assert_eq!(start.to_move(), Color::White);
    assert_eq!(start.count(Color::White), 12);
    assert_eq!(start.count(Color::Black), 12);
    assert_eq!(start.piece_at(sq("a1")), Some((Color::White, false)));
    assert_eq!(start.piece_at(sq("h8")), Some((Color::Black, false)));
    assert_eq!(start.piece_at(sq("d4")), None);
    assert_eq!(start.piece_at(sq("b1")), None, "light square");
    assert_eq!(start.piece_at(sq("z26")), None, "off the board");
    assert_eq!(
        start.to_string(),
        "side=w ; white=a1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3 ; black=b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    assert_eq!(
        names(&start),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
}

#[test]
fn start_position_perft() {
    let start = DraughtsBoard::start();
    let counts: Vec<u64> = (0..=6).map(|depth| start.perft(depth)).collect();
    assert_eq!(counts, [1, 7, 49, 302, 1469, 7482, 37986]);
}

#[test]
fn from_pieces_validates() {
    let reject = |wm: &[Square], bm: &[Square]| DraughtsBoard::from_pieces(wm, &[], bm, &[], Color::White).unwrap_err();
    assert!(reject(&[sq("b1")], &[]).contains("light square"));
    assert!(reject(&[sq("i1")], &[]).contains("off the 8x8 board"));
    assert!(reject(&[sq("a9")], &[]).contains("off the 8x8 board"));
    assert!(reject(&[sq("c3")], &[sq("c3")]).contains("two pieces on c3"));
    assert!(reject(&[sq("b8")], &[]).contains("king"));
    assert!(reject(&[], &[sq("a1")]).contains("king"));
    let kings =
        DraughtsBoard::from_pieces(&[], &[sq("b8")], &[], &[sq("a1")], Color::Black).expect("kings may stand there");
    assert_eq!(kings.piece_at(sq("b8")), Some((Color::White, true)));
    assert_eq!(kings.piece_at(sq("a1")), Some((Color::Black, true)));
    assert_eq!(kings.to_string(), "side=b ; white=Kb8 ; black=Ka1");
}

#[test]
fn setters() {
    let mut pos = DraughtsBoard::start();
    assert_eq!(pos.remove(sq("c3")), Some((Color::White, false)));
    assert_eq!(pos.remove(sq("c3")), None);
    assert_eq!(pos.remove(sq("b1")), None);
    assert_eq!(pos.count(Color::White), 11);
    pos.put(sq("d4"), Color::Black, true).expect("d4 is dark");
    assert_eq!(pos.piece_at(sq("d4")), Some((Color::Black, true)));
    // Putting on an occupied square replaces the piece.
    pos.put(sq("d4"), Color::White, false).expect("d4 is dark");
    assert_eq!(pos.piece_at(sq("d4")), Some((Color::White, false)));
    assert_eq!(pos.count(Color::Black), 12);
    assert!(pos.put(sq("d5"), Color::White, false).is_err());
    assert!(pos.put(sq("h8"), Color::White, false).is_err());
    pos.set_to_move(Color::Black);
    assert_eq!(pos.to_move(), Color::Black);
}

#[test]
fn men_move_forward_only_and_promote() {
    let white = position("c3 b6", "g7", Color::White);
    assert_eq!(names(&white), ["b6-a7", "b6-c7", "c3-b4", "c3-d4"]);
    let black = position("c3", "g7", Color::Black);
    assert_eq!(names(&black), ["g7-f6", "g7-h6"]);

    let mut pos = position("c7", "h2", Color::White);
    let mv = find(&pos, "c7-d8").expect("legal");
    assert!(mv.promotes && !mv.capture && mv.captured().is_empty());
    pos.play(&mv);
    assert_eq!(pos.piece_at(sq("d8")), Some((Color::White, true)));
    assert_eq!(pos.piece_at(sq("c7")), None);
    assert_eq!(pos.to_move(), Color::Black);
}

#[test]
fn kings_fly() {
    let pos = position("Kd4", "a7", Color::White);
    assert_eq!(
        names(&pos),
        ["d4-a1", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2", "d4-f6", "d4-g1", "d4-g7", "d4-h8"]
    );
}

#[test]
fn capture_is_compulsory() {
    let pos = position("a1 c3", "d4", Color::White);
    assert_eq!(names(&pos), ["c3:e5"]);
    let err = find(&pos, "a1-b2").expect_err("a capture exists");
    assert_eq!(err.kind, MoveErrorKind::CaptureCompulsory);
    assert_eq!(err.to_string(), "a capture is compulsory; legal moves: c3:e5");
    assert_eq!(err.legal, ["c3:e5"]);
}

#[test]
fn men_capture_backward() {
    let pos = position("e5", "d4", Color::White);
    assert_eq!(names(&pos), ["e5:c3"]);
    let black = position("d4", "c5", Color::Black);
    assert_eq!(names(&black), ["c5:e3"]);
}

#[test]
fn free_choice_among_captures_and_capturing_piece_must_continue() {
    // c3 can take two pieces, h2 one: both are legal, the shorter one too.
    let pos = position("c3 h2", "d4 f6 g3", Color::White);
    assert_eq!(names(&pos), ["c3:e5:g7", "h2:f4"]);
    let mv = find(&pos, "c3:e5:g7").expect("legal");
    assert_eq!(mv.captured(), squares("d4 f6").as_slice());
    assert_eq!(error_kind(&pos, "c3:e5"), MoveErrorKind::CaptureCanContinue(sq("e5")));
    assert_eq!(
        find(&pos, "c3:e5").expect_err("must continue").to_string(),
        "the capture can continue from e5; legal moves: h2:f4 c3:e5:g7"
    );
}

#[test]
fn promotion_mid_capture_continues_as_king() {
    // The man reaches d8 by jumping c7 and, now a king, takes g5 from a distance.
    let mut pos = position("b6", "c7 g5", Color::White);
    assert_eq!(names(&pos), ["b6:d8:h4"]);
    let mv = find(&pos, "b6:d8:h4").expect("legal");
    assert!(mv.promotes && mv.capture);
    assert_eq!(mv.captured(), squares("c7 g5").as_slice());
    assert_eq!(error_kind(&pos, "b6:d8"), MoveErrorKind::CaptureCanContinue(sq("d8")));
    pos.play(&mv);
    assert_eq!(pos.piece_at(sq("h4")), Some((Color::White, true)));
    assert_eq!(pos.count(Color::Black), 0);

    // A black man promotes on rank 1 the same way, and takes g3 from e1 as a king.
    let black = position("d2 g3", "c3", Color::Black);
    assert_eq!(names(&black), ["c3:e1:h4"]);
}

#[test]
fn jumped_pieces_block_until_the_move_ends() {
    // d6 takes c7 and becomes a king on b8. Were c7 gone at once, the king could
    // go on along b8-h2 and take g3; but c7 stays on the board until the move
    // ends, so it blocks that diagonal and the capture stops on b8.
    let mut pos = position("d6", "c7 g3", Color::White);
    assert_eq!(names(&pos), ["d6:b8"]);
    let mv = moves(&pos)[0];
    assert!(mv.promotes);
    pos.play(&mv);
    assert_eq!(pos.piece_at(sq("c7")), None, "removed once the move is over");
    assert_eq!(pos.piece_at(sq("g3")), Some((Color::Black, false)));
}

#[test]
fn no_piece_is_jumped_twice() {
    // The man goes round the four pieces either way and comes back to c3, where
    // d4 (jumped first) stands again in front of it; it may not take it twice.
    let mut pos = position("c3", "d2 f2 d4 f4", Color::White);
    assert_eq!(names(&pos), ["c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"]);
    let mv = find(&pos, "c3:e5:g3:e1:c3").expect("legal");
    assert_eq!(mv.captured(), squares("d4 f4 f2 d2").as_slice());
    assert!(!mv.promotes);
    pos.play(&mv);
    assert_eq!(pos.count(Color::Black), 0);
    assert_eq!(pos.piece_at(sq("c3")), Some((Color::White, false)));
}

#[test]
fn flying_king_lands_anywhere_beyond() {
    let pos = position("Ka1", "c3", Color::White);
    assert_eq!(names(&pos), ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
}

#[test]
fn flying_king_must_land_where_the_capture_continues() {
    // Of the landing squares d4..h8 beyond c3, only e5 lets the king go on (taking f4).
    let pos = position("Ka1", "c3 f4", Color::White);
    assert_eq!(names(&pos), ["a1:e5:g3", "a1:e5:h2"]);
    let mv = find(&pos, "a1:e5:h2").expect("legal");
    assert_eq!(mv.captured(), squares("c3 f4").as_slice());
    assert!(!mv.promotes);
    assert_eq!(
        error_kind(&pos, "a1:d4"),
        MoveErrorKind::MustLandToContinue {
            landing: sq("d4"),
            options: vec![sq("e5")]
        }
    );
    assert_eq!(
        find(&pos, "a1:f6").expect_err("wrong landing").to_string(),
        "the king may not land on f6: it must land where the capture continues (e5); legal moves: a1:e5:h2 a1:e5:g3"
    );
    assert_eq!(error_kind(&pos, "a1:e5"), MoveErrorKind::CaptureCanContinue(sq("e5")));
}

#[test]
fn king_may_pass_its_own_start_square() {
    // The king leaves c3 (its square is empty during the move), goes round by
    // e5, g3 and e1, and from e1 takes b4 through c3.
    let pos = position("Kc3", "d4 f4 f2 b4", Color::White);
    assert_eq!(names(&pos), ["c3:a5", "c3:e5:g3:e1:a5"]);
    let mv = find(&pos, "c3:e5:g3:e1:a5").expect("legal");
    assert_eq!(mv.captured(), squares("d4 f4 f2 b4").as_slice());
}

#[test]
fn find_move_errors() {
    let start = DraughtsBoard::start();
    let err = |text: &str| find(&start, text).expect_err("illegal").to_string();
    let legal = "legal moves: a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4";
    assert_eq!(err("c3-e5"), format!("not a legal move; {legal}"));
    assert_eq!(err("d4-e5"), format!("no piece of yours on d4; {legal}"));
    assert_eq!(err("b6-a5"), format!("no piece of yours on b6; {legal}"));
    assert_eq!(err("a1-b2"), format!("the piece on a1 has no legal move; {legal}"));
    assert_eq!(err("c3:e5"), format!("there is nothing to capture; {legal}"));
    assert_eq!(
        err("c3-c4"),
        format!("c4 is a light square; draughts is played on the dark squares; {legal}")
    );
    assert_eq!(err("c3-i9"), format!("i9 is off the 8x8 board; {legal}"));
    assert_eq!(
        error_kind(&start, "c3:d4"),
        MoveErrorKind::WrongSeparator { capture: false }
    );

    let pos = position("a1 c3", "d4", Color::White);
    assert_eq!(
        error_kind(&pos, "c3-e5"),
        MoveErrorKind::WrongSeparator { capture: true }
    );
    assert_eq!(
        find(&pos, "c3-e5").expect_err("wrong separator").to_string(),
        "this move is a capture; write it with ':'; legal moves: c3:e5"
    );
    assert_eq!(error_kind(&pos, "c3:e5:c7"), MoveErrorKind::CaptureEnds(sq("e5")));
    assert_eq!(
        error_kind(&pos, "a1:c3"),
        MoveErrorKind::PieceCannotMove {
            from: sq("a1"),
            capture: true
        }
    );

    let stuck = position("a1", "b2 c3", Color::White);
    assert_eq!(error_kind(&stuck, "a1-b2"), MoveErrorKind::NoLegalMoves);
    assert_eq!(
        find(&stuck, "a1-b2").expect_err("no moves").to_string(),
        "there is no legal move"
    );
}

#[test]
fn moves_are_unique_and_consistent() {
    // Random playouts from the start: every listed move has a distinct path,
    // as many captured pieces as jumps, and playing it keeps the boards sane.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut list = Vec::new();
    for _ in 0..200 {
        let mut pos = DraughtsBoard::start();
        for _ in 0..150 {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            for (i, a) in list.iter().enumerate() {
                assert!(list[i + 1..].iter().all(|b| b.path != a.path), "duplicate {a} in {pos}");
                let jumps = if a.capture { a.path.squares().len() - 1 } else { 0 };
                assert_eq!(a.captured().len(), jumps, "{a}");
                assert_eq!(pos.find_move(&a.path, a.capture), Ok(*a));
            }
            let before = pos.count(pos.to_move().opponent());
            let mv = list[(random() % list.len() as u64) as usize];
            pos.play(&mv);
            assert_eq!(pos.count(pos.to_move()), before - mv.captured().len() as u32);
        }
    }
}

/// Where a king standing on `at` in the middle of a move that began on
/// `start` may land after jumping `victim`: the squares beyond it on the
/// line from `at`, up to the next piece. The start square is empty while the
/// move is played; jumped pieces stay on the board until it ends.
fn landings_beyond(pos: &DraughtsBoard, start: Square, at: Square, victim: Square) -> Vec<Square> {
    let step = |a: u8, b: u8| i32::from(b).cmp(&i32::from(a)) as i32;
    let (df, dr) = (
        step(at.file_index(), victim.file_index()),
        step(at.rank_index(), victim.rank_index()),
    );
    let (mut file, mut rank) = (i32::from(victim.file_index()) + df, i32::from(victim.rank_index()) + dr);
    let mut out = Vec::new();
    while (0..8).contains(&file) && (0..8).contains(&rank) {
        let sq = Square::new(file as u8, rank as u8).expect("on the board");
        if sq != start && pos.piece_at(sq).is_some() {
            break;
        }
        out.push(sq);
        file += df;
        rank += dr;
    }
    out
}

#[test]
fn a_wrong_landing_mid_capture_is_explained_by_the_landings_that_continue() {
    // Random positions, and in each every legal capture cut after one of its
    // jumps and sent on to a wrong square. A king (or a man that became one on
    // the way) that lands beyond the piece it jumped, but not where the capture
    // goes on, is told exactly which landings beyond that piece continue it;
    // every other wrong square is simply not a legal move.
    let mut rng = crate::gen::rng::Rng::new(7);
    let dark: Vec<Square> = (0..8u8)
        .flat_map(|rank| (0..8u8).map(move |file| (file, rank)))
        .filter(|(file, rank)| (file + rank) % 2 == 0)
        .map(|(file, rank)| Square::new(file, rank).expect("a square"))
        .collect();
    // How often each kind of explanation came up, so that the test shows it
    // reached them all.
    let (mut by_king, mut by_promotion, mut by_black_promotion, mut several, mut plain) = (0, 0, 0, 0, 0);
    let mut legal = Vec::new();
    for _ in 0..800 {
        let (mut wm, mut wk, mut bm, mut bk) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for &sq in &dark {
            match rng.below(10) {
                0 | 1 if sq.rank_index() < 7 => wm.push(sq),
                2 => wk.push(sq),
                3 | 4 if sq.rank_index() > 0 => bm.push(sq),
                5 => bk.push(sq),
                _ => {}
            }
        }
        // The position as drawn with white to move, and turned round with the
        // colours swapped and black to move, so that black's promotions on
        // rank 1 come up as often as white's on rank 8.
        let turned = |list: &[Square]| -> Vec<Square> {
            list.iter()
                .map(|sq| Square::new(7 - sq.file_index(), 7 - sq.rank_index()).expect("a square"))
                .collect()
        };
        let twins = [
            DraughtsBoard::from_pieces(&wm, &wk, &bm, &bk, Color::White),
            DraughtsBoard::from_pieces(&turned(&bm), &turned(&bk), &turned(&wm), &turned(&wk), Color::Black),
        ];
        for pos in twins {
            let pos = pos.expect("a valid position");
            let to_move = pos.to_move();
            pos.legal_moves(&mut legal);
            let far_rank = if to_move == Color::White { 7 } else { 0 };
            for mv in legal.iter().filter(|m| m.capture) {
                let path = mv.path.squares();
                let start = path[0];
                let is_king = pos.piece_at(start).is_some_and(|(_, king)| king);
                for done in 1..path.len() {
                    let promoted = path[1..done].iter().any(|sq| sq.rank_index() == far_rank);
                    for &landing in &dark {
                        let mut written = path[..done].to_vec();
                        written.push(landing);
                        if legal.iter().any(|m| m.path.squares().starts_with(&written)) {
                            continue;
                        }
                        // The legal captures that go through the same squares so
                        // far, and whose next jump `landing` lies beyond.
                        let mut options: Vec<Square> = legal
                            .iter()
                            .filter(|m| m.path.squares().len() > done && m.path.squares()[..done] == written[..done])
                            .filter(|m| {
                                landings_beyond(&pos, start, written[done - 1], m.captured()[done - 1])
                                    .contains(&landing)
                            })
                            .map(|m| m.path.squares()[done])
                            .collect();
                        options.sort();
                        options.dedup();
                        let expected = if (is_king || promoted) && !options.is_empty() {
                            if is_king {
                                by_king += 1;
                            } else if to_move == Color::White {
                                by_promotion += 1;
                            } else {
                                by_black_promotion += 1;
                            }
                            if options.len() > 1 {
                                several += 1;
                            }
                            MoveErrorKind::MustLandToContinue { landing, options }
                        } else {
                            plain += 1;
                            MoveErrorKind::NotLegal
                        };
                        let path = Path::new(&written).expect("a path");
                        let err = pos.find_move(&path, true).expect_err("not a legal move");
                        assert_eq!(err.kind, expected, "{written:?} in {pos}");
                    }
                }
            }
        }
    }
    assert!(
        by_king > 100 && by_promotion > 0 && by_black_promotion > 0 && several > 0 && plain > 100,
        "the positions reached every explanation: {by_king} kings, {by_promotion} white and \
         {by_black_promotion} black promotions, {several} with several landings, {plain} plain"
    );
}

#[test]
fn the_landings_that_continue_a_capture_are_listed_with_or() {
    // The king on a1 takes c3. Landing on d4 it goes on to take e3, landing on
    // e5 it goes on to take f4; from f6, g7 or h8 it could take nothing more.
    let pos = position("Ka1", "c3 e3 f4", Color::White);
    assert_eq!(
        find(&pos, "a1:g7").expect_err("wrong landing").to_string(),
        "the king may not land on g7: it must land where the capture continues (d4 or e5); \
         legal moves: a1:d4:g1 a1:d4:f2 a1:e5:h2 a1:e5:g3"
    );
}

#[test]
fn a_man_crowned_mid_capture_must_land_where_the_capture_continues() {
    // The man on b6 takes c7 and is crowned on d8; as a king it takes e7 and
    // may land on f6, g5 or h4, but only from f6 can it go on (taking d4).
    let pos = position("b6", "c7 e7 d4", Color::White);
    assert_eq!(names(&pos), ["b6:d8:f6:a1", "b6:d8:f6:b2", "b6:d8:f6:c3"]);
    assert_eq!(
        error_kind(&pos, "b6:d8:g5"),
        MoveErrorKind::MustLandToContinue {
            landing: sq("g5"),
            options: vec![sq("f6")]
        }
    );
    // The same for black, crowned on rank 1.
    let black = position("f2 d2 e5", "g3", Color::Black);
    assert_eq!(names(&black), ["g3:e1:c3:f6", "g3:e1:c3:g7", "g3:e1:c3:h8"]);
    assert_eq!(
        error_kind(&black, "g3:e1:b4"),
        MoveErrorKind::MustLandToContinue {
            landing: sq("b4"),
            options: vec![sq("c3")]
        }
    );
    // A man not crowned on the way is not told where to land.
    let man = position("c3", "d4 f6", Color::White);
    assert_eq!(error_kind(&man, "c3:e5:h8"), MoveErrorKind::NotLegal);
}

/// The starting position: seven moves for white, and 302 sequences of
/// three plies (the example the module's documentation gave while the
/// board was public).
#[test]
fn the_start_has_seven_moves_and_302_sequences_of_three_plies() {
    let start = DraughtsBoard::start();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    assert_eq!(moves.len(), 7);
    assert_eq!(start.perft(3), 302);
}
