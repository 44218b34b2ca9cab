//! The survival-chess board for every size from 6x6 to 26x26, with two
//! representations behind one interface.
//!
//! Boards of at most 8 files and 8 ranks (the classical 8x8 among them) are
//! bitboards (`bits.rs`): one machine word per piece kind and side, so that
//! the tests replay runs after every ply (is the move legal, does it give
//! check, has the side to move any legal move) are a few word operations.
//! Larger boards, up to 26x26 = 676 squares, would need several words per
//! set and multi-word shifts; they use a padded mailbox (`mailbox.rs`) whose
//! two rings of off-board sentinels need no bounds checks and serve every
//! size with one code. Both keep a cell per square with the piece codes
//! of `pieces.rs` and take moves back with the same [`Undo`]; the
//! differential test at the end of this file holds them to the same
//! answers on every move of many random games.

use std::fmt;

use fgn_notation::{BoardSize, Color, PieceKind, Square};

use super::bits::Bits;
use super::mailbox::Mailbox;
use super::pieces::{Move, Piece, Undo};

/// The board: pieces, which pawns may still double-step, and the kings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChessBoard {
    repr: Repr,
}

#[derive(Clone, PartialEq, Eq, Debug)]
enum Repr {
    Bits(Bits),
    /// Boxed: it is three times the bitboards' size, and only large boards have it.
    Mailbox(Box<Mailbox>),
}

/// Runs `$body` with `$b` bound to the board's representation.
macro_rules! with {
    ($board:expr, $b:ident => $body:expr) => {
        match $board {
            Repr::Bits($b) => $body,
            Repr::Mailbox($b) => $body,
        }
    };
}

impl ChessBoard {
    /// An empty board of the given size.
    pub(crate) fn empty(size: BoardSize) -> ChessBoard {
        let repr = if Bits::fits(size) {
            Repr::Bits(Bits::empty(size))
        } else {
            Repr::Mailbox(Box::new(Mailbox::empty(size)))
        };
        ChessBoard { repr }
    }

    /// An empty mailbox board of any size, for the differential test.
    #[cfg(test)]
    fn empty_mailbox(size: BoardSize) -> ChessBoard {
        ChessBoard {
            repr: Repr::Mailbox(Box::new(Mailbox::empty(size))),
        }
    }

    /// The bitboards, when this board is small enough to have them: the
    /// engine plays a valid move on them in one call
    /// ([`Bits::play_checked`]).
    #[inline]
    pub(super) fn bits_mut(&mut self) -> Option<&mut Bits> {
        match &mut self.repr {
            Repr::Bits(b) => Some(b),
            Repr::Mailbox(_) => None,
        }
    }

    /// Whether this board has bitboards ([`ChessBoard::bits_mut`]).
    pub(super) fn has_bits(&self) -> bool {
        matches!(self.repr, Repr::Bits(_))
    }

    /// The board size.
    #[inline]
    pub(crate) fn size(&self) -> BoardSize {
        with!(&self.repr, b => b.size())
    }

    /// Whether `sq` lies on this board.
    #[inline]
    pub(crate) fn contains(&self, sq: Square) -> bool {
        let size = self.size();
        sq.file_index() < size.files && sq.rank_index() < size.ranks
    }

    /// The piece on `sq` (which must be on the board).
    #[inline]
    pub(crate) fn piece_at(&self, sq: Square) -> Option<Piece> {
        with!(&self.repr, b => b.piece_at(sq))
    }

    /// Whether the pawn on `sq` may still double-step.
    pub(crate) fn is_unmoved_pawn(&self, sq: Square) -> bool {
        with!(&self.repr, b => b.is_unmoved_pawn(sq))
    }

    /// Puts a piece on an on-board square (replacing what stood there); a
    /// pawn put here counts as not yet moved when `unmoved` is set.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece, unmoved: bool) {
        with!(&mut self.repr, b => b.put(sq, piece, unmoved))
    }

    /// Empties an on-board square.
    pub(crate) fn clear(&mut self, sq: Square) {
        with!(&mut self.repr, b => b.clear(sq))
    }

    /// The square of `color`'s king, if it has one.
    pub(crate) fn king(&self, color: Color) -> Option<Square> {
        with!(&self.repr, b => b.king(color))
    }

    /// Every piece with its square, rank 1 first.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let size = self.size();
        (0..size.ranks).flat_map(move |r| {
            (0..size.files).filter_map(move |f| {
                let sq = Square::new(f, r).expect("board dims are at most 26");
                self.piece_at(sq).map(|p| (sq, p))
            })
        })
    }

    /// Whether `color`'s king is attacked. A side without a king is never in check.
    #[inline]
    pub(crate) fn in_check(&self, color: Color) -> bool {
        with!(&self.repr, b => b.in_check(color))
    }

    /// Plays the pseudo-legal move `m` and returns what takes it back.
    #[inline]
    pub(crate) fn make_move(&mut self, m: Move) -> Undo {
        with!(&mut self.repr, b => b.make_move(m))
    }

    /// Takes back the move that returned `undo` (the last one played).
    #[inline]
    pub(crate) fn unmake_move(&mut self, undo: Undo) {
        with!(&mut self.repr, b => b.unmake_move(undo))
    }

    /// Every legal move of `color`.
    pub(crate) fn legal_moves(&self, color: Color) -> Vec<Move> {
        with!(&self.repr, b => b.legal_moves(color))
    }

    /// Every legal move of the piece on `from`.
    pub(crate) fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        with!(&self.repr, b => b.legal_moves_from(from))
    }

    /// Whether `color` has at least one legal move. Stops at the first one,
    /// which is why replay can afford to ask after every ply.
    pub(crate) fn has_legal_move(&mut self, color: Color) -> bool {
        with!(&mut self.repr, b => b.has_legal_move(color))
    }

    /// [`ChessBoard::has_legal_move`] when the caller knows already whether
    /// `color` is in check.
    #[inline]
    pub(crate) fn has_legal_move_in(&mut self, color: Color, in_check: bool) -> bool {
        with!(&mut self.repr, b => b.has_legal_move_in(color, in_check))
    }

    /// Whether `m` is a pseudo-legal move of the piece on its `from` square
    /// (geometry and occupancy only; the king's safety is not checked).
    #[inline]
    pub(crate) fn is_pseudo_legal(&self, m: Move) -> bool {
        with!(&self.repr, b => b.is_pseudo_legal(m))
    }

    /// After a move from `from` to `to` has been played, whether it checks
    /// the opponent of its mover.
    #[inline]
    pub(crate) fn gives_check(&self, from: Square, to: Square) -> bool {
        with!(&self.repr, b => b.gives_check(from, to))
    }

    /// Whether playing the pseudo-legal move `m` leaves the mover's king safe.
    /// `in_check` says whether the mover's king is attacked now.
    #[inline]
    pub(crate) fn is_legal_move(&mut self, m: Move, in_check: bool) -> bool {
        with!(&mut self.repr, b => b.is_legal_move(m, in_check))
    }

    /// The move `m` in notation as it stands here: piece letter and capture
    /// marker from the board, no check marker.
    pub(crate) fn notate(&self, m: Move) -> fgn_notation::ChessMove {
        fgn_notation::ChessMove {
            piece: self.piece_at(m.from).map_or(PieceKind::Pawn, |p| p.kind),
            from: Some(m.from),
            to: Some(m.to),
            capture: self.piece_at(m.to).is_some(),
            promotion: m.promotion,
            check: None,
        }
    }

    /// The number of leaf nodes of the legal move tree to `depth` plies, with
    /// `color` to move: the standard cross-check of a move generator.
    #[cfg(test)]
    pub(crate) fn perft(&mut self, color: Color, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(color);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for m in moves {
            let undo = self.make_move(m);
            total += self.perft(color.opponent(), depth - 1);
            self.unmake_move(undo);
        }
        total
    }
}

impl fmt::Display for ChessBoard {
    /// The placement in FEN style: ranks from the top, runs of empty squares as numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..self.size().ranks).rev() {
            let mut empty = 0;
            for file in 0..self.size().files {
                let sq = Square::new(file, r).expect("on board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        let c = p.kind.char();
                        write!(
                            f,
                            "{}",
                            if p.color == Color::White {
                                c
                            } else {
                                c.to_ascii_lowercase()
                            }
                        )?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

/// Reads a placement in FEN style (ranks from the top separated by `/`,
/// `KQRBNP` white, `kqrbnp` black, runs of empty squares as decimal numbers)
/// onto a board of `size`. Pawns are marked unmoved only where `unmoved` says.
/// This is a setup, not yet a position: legality is for the caller to judge.
#[cfg(test)]
pub fn board_from_placement(placement: &str, size: BoardSize, unmoved: &[Square]) -> Result<ChessBoard, String> {
    let mut board = ChessBoard::empty(size);
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != usize::from(size.ranks) {
        return Err(format!(
            "{} ranks in the placement, the board has {}",
            rows.len(),
            size.ranks
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = size.ranks - 1 - i as u8;
        let mut file: u32 = 0;
        let mut digits = String::new();
        let flush = |digits: &mut String, file: &mut u32| -> Result<(), String> {
            if !digits.is_empty() {
                *file += digits.parse::<u32>().map_err(|e| e.to_string())?;
                digits.clear();
            }
            Ok(())
        };
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            flush(&mut digits, &mut file)?;
            let kind = PieceKind::from_char(c.to_ascii_uppercase()).ok_or_else(|| format!("unknown piece `{c}`"))?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if file >= u32::from(size.files) {
                return Err(format!("rank {} is longer than {} files", rank + 1, size.files));
            }
            let sq = Square::new(file as u8, rank).expect("checked against the size");
            board.put(sq, Piece { color, kind }, unmoved.contains(&sq));
            file += 1;
        }
        flush(&mut digits, &mut file)?;
        if file != u32::from(size.files) {
            return Err(format!(
                "rank {} has {file} files, the board has {}",
                rank + 1,
                size.files
            ));
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn start_position_has_twenty_moves() {
        let size = BoardSize { files: 8, ranks: 8 };
        let unmoved: Vec<Square> = (0..8)
            .flat_map(|f| [Square::new(f, 1).unwrap(), Square::new(f, 6).unwrap()])
            .collect();
        let mut b = board_from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", size, &unmoved).unwrap();
        assert_eq!(b.legal_moves(Color::White).len(), 20);
        assert_eq!(b.perft(Color::White, 3), 8902);
        assert_eq!(b.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    }

    #[test]
    fn a_pinned_piece_may_not_move_off_the_line() {
        let size = BoardSize { files: 8, ranks: 8 };
        let b = board_from_placement("4r2k/8/8/8/8/8/4B3/4K3", size, &[]).unwrap();
        let moves = b.legal_moves_from(sq("e2"));
        assert!(moves.is_empty(), "{moves:?}");
    }

    #[test]
    fn white_has_exactly_the_moves_of_positions_made_for_the_search() {
        // Each position leaves white (to move, out of check) a known number
        // of legal moves through a branch of the bitboard search that games
        // seldom reach; the answer to "has a legal move" must agree.
        let cases = [
            // A side without its king (play never reaches one: a game
            // without one is aborted before it starts, but the board answers
            // for any position), where every square not the side's own is
            // a target. The bishop on a1 is shut in by its own pawn on b2,
            // which black's pawn on b3 blocks; with a black knight on c3
            // the pawn can take it.
            (8, "k7/8/8/8/8/1p6/1P6/B7", 0),
            (8, "k7/8/8/8/8/1pn5/1P6/B7", 1),
            // Stalemate on a 3x3 board: the rook on b1 and the bishop on c1,
            // on the king's lines, attack only their own king, pawn and each
            // other, and must not count those squares; the pawn on b2 is
            // blocked by black's on b3, which takes a2 from the king.
            // Without black's pawn the king steps to a2 and the pawn
            // promotes on b3 (four ways).
            (3, "1p1/1Pk/KRB", 0),
            (3, "3/1Pk/KRB", 5),
        ];
        for (side, placement, moves) in cases {
            let size = BoardSize {
                files: side,
                ranks: side,
            };
            let mut b = board_from_placement(placement, size, &[]).unwrap();
            assert!(b.has_bits(), "{placement}");
            assert!(!b.in_check(Color::White) && !b.in_check(Color::Black), "{placement}");
            assert_eq!(b.legal_moves(Color::White).len(), moves, "{placement}");
            assert_eq!(b.has_legal_move_in(Color::White, false), moves > 0, "{placement}");
        }
    }

    #[test]
    fn only_a_slider_pins_a_piece_to_its_king() {
        // A knight beyond the piece on the king's line pins nothing: in each
        // position white's king has no move and only that piece can move,
        // so the 8x8 engine's legal-move search (what decides mate and
        // stalemate) must find that piece's moves. The random games of the
        // test below seldom leave a side so few moves. (The search tries a
        // pinned piece's moves one by one, so a pin set too large costs it
        // time only; this holds the answer, whatever the search trusts.)
        let size = BoardSize { files: 8, ranks: 8 };
        for placement in [
            // Ka1, Ba2 on the a-file under a knight on a3; the rook on b8 and
            // the knight take b1 and b2 from the king.
            "1r5k/8/8/8/8/n7/B7/K7",
            // Ka1, Rb2 on the long diagonal under a knight on c3, which
            // takes a2 and b1 from the king.
            "7k/8/8/8/8/2n5/1R6/K7",
        ] {
            let mut b = board_from_placement(placement, size, &[]).unwrap();
            assert!(!b.in_check(Color::White), "{placement}");
            let moves = b.legal_moves(Color::White);
            assert!(
                !moves.is_empty() && moves.iter().all(|m| m.from != sq("a1")),
                "{placement}: {moves:?}"
            );
            assert!(b.has_legal_move_in(Color::White, false), "{placement}");
        }
    }

    #[test]
    fn shortcuts_agree_with_the_plain_definitions_over_random_games() {
        // gives_check against in_check, is_pseudo_legal against the move
        // generator, on every legal move of many random positions.
        let size = BoardSize { files: 8, ranks: 8 };
        let unmoved: Vec<Square> = (0..8)
            .flat_map(|f| [Square::new(f, 1).unwrap(), Square::new(f, 6).unwrap()])
            .collect();
        let mut rng = crate::gen::rng::Rng::new(42);
        for _ in 0..12 {
            let mut b = board_from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", size, &unmoved).unwrap();
            let mut side = Color::White;
            for _ in 0..80 {
                let moves = b.legal_moves(side);
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    assert!(b.is_pseudo_legal(m), "{m:?} in {b}");
                    let undo = b.make_move(m);
                    assert_eq!(b.gives_check(m.from, m.to), b.in_check(side.opponent()), "{m:?} in {b}");
                    b.unmake_move(undo);
                }
                // Every (from, to) pair of the side to move, with the promotion
                // the rules would need: accepted exactly when generated.
                let check = b.in_check(side);
                let own: Vec<Square> = b.pieces().filter(|(_, p)| p.color == side).map(|(sq, _)| sq).collect();
                for &from in &own {
                    for to in (0..8).flat_map(|f| (0..8).map(move |r| Square::new(f, r).unwrap())) {
                        let pawn = b.piece_at(from).is_some_and(|p| p.kind == PieceKind::Pawn);
                        let far = if side == Color::White { 7 } else { 0 };
                        let promotion = (pawn && to.rank_index() == far).then_some(PieceKind::Queen);
                        let m = Move { from, to, promotion };
                        let accepted = b.is_pseudo_legal(m) && b.is_legal_move(m, check);
                        assert_eq!(accepted, moves.contains(&m), "{m:?} in {b}");
                    }
                }
                let check = b.in_check(side);
                assert!(b.has_legal_move_in(side, check), "{b}");
                let m = moves[rng.below(moves.len())];
                b.make_move(m);
                side = side.opponent();
                let check = b.in_check(side);
                assert_eq!(b.has_legal_move_in(side, check), !b.legal_moves(side).is_empty(), "{b}");
            }
        }
    }

    #[test]
    fn double_step_depends_on_the_unmoved_mark_not_the_rank() {
        let size = BoardSize { files: 12, ranks: 12 };
        let b = board_from_placement("k11/12/12/12/12/12/12/12/4P7/12/12/K11", size, &[sq("e4")]).unwrap();
        let tos: Vec<String> = b.legal_moves_from(sq("e4")).iter().map(|m| m.to.to_string()).collect();
        assert_eq!(tos, ["e5", "e6"]);
        let b = board_from_placement("k11/12/12/12/12/12/12/12/4P7/12/12/K11", size, &[]).unwrap();
        assert_eq!(b.legal_moves_from(sq("e4")).len(), 1);
    }

    #[test]
    fn bitboards_agree_with_the_mailbox_where_few_moves_are_left() {
        // Crowded random positions, 4,000 of them where a side has at most
        // two legal moves: mate and stalemate are decided there, and the
        // 8x8 engine's legal-move search takes its shortcuts (whole sets
        // of steps shifted at once for the pieces off the king's lines)
        // where a wrong bit changes the answer. Games, the corpus's and the
        // random ones above, seldom leave a side so few moves.
        let size = BoardSize { files: 8, ranks: 8 };
        let mut rng = crate::gen::rng::Rng::new(5);
        let (mut kept, mut mates, mut only_off_lines) = (0, 0, 0);
        while kept < 4000 {
            let (mut bits, mailbox) = crowded_placement(size, &mut rng);
            for side in [Color::White, Color::Black] {
                let moves = mailbox.legal_moves(side);
                if moves.len() > 2 {
                    continue;
                }
                kept += 1;
                let check = mailbox.in_check(side);
                mates += usize::from(moves.is_empty());
                let king = mailbox
                    .pieces()
                    .find(|(_, p)| p.color == side && p.kind == PieceKind::King)
                    .map(|(sq, _)| sq)
                    .expect("a king a side");
                let off_lines = |from: Square| {
                    let (df, dr) = (
                        i32::from(from.file_index()) - i32::from(king.file_index()),
                        i32::from(from.rank_index()) - i32::from(king.rank_index()),
                    );
                    df != 0 && dr != 0 && df.abs() != dr.abs()
                };
                only_off_lines += usize::from(!moves.is_empty() && moves.iter().all(|m| off_lines(m.from)));
                assert_eq!(bits.in_check(side), check, "in {mailbox}");
                assert_eq!(bits.legal_moves(side), moves, "legal moves in {mailbox}");
                assert_eq!(bits.has_legal_move_in(side, check), !moves.is_empty(), "in {mailbox}");
            }
        }
        // Stalemates are too rare here to count on: the test below has its own.
        assert!(mates >= 500, "{mates} positions without a legal move");
        assert!(
            only_off_lines >= 50,
            "{only_off_lines} positions whose moves are all off the king's lines"
        );
    }

    /// What `Bits::play_checked` must answer for `m`, a move of `side`'s as
    /// a log writes it, worked out on the mailbox board `b`: the move's
    /// check, whether the opponent is then stuck, and whether that was
    /// assumed, for a legal move with an honest marker, and the position
    /// after it; `None` otherwise.
    fn played_as_written(
        b: &ChessBoard,
        side: Color,
        m: &fgn_notation::ChessMove,
        in_check: bool,
        assume_moves: bool,
    ) -> Option<((bool, bool, bool), String)> {
        use fgn_notation::Check;
        let (from, to) = (m.from?, m.to?);
        let size = b.size();
        if to.file_index() >= size.files || to.rank_index() >= size.ranks {
            return None;
        }
        let piece = b.piece_at(from)?;
        if piece.color != side || piece.kind != m.piece || b.piece_at(to).is_some() != m.capture {
            return None;
        }
        let far = if side == Color::White { b.size().ranks - 1 } else { 0 };
        let promotes = piece.kind == PieceKind::Pawn && to.rank_index() == far;
        if !promotes && m.promotion.is_some() {
            return None;
        }
        let mv = Move {
            from,
            to,
            promotion: promotes.then(|| m.promotion.unwrap_or(PieceKind::Queen)),
        };
        let mut b = b.clone();
        if !b.is_pseudo_legal(mv) || !b.is_legal_move(mv, in_check) {
            return None;
        }
        b.make_move(mv);
        let check = b.in_check(side.opponent());
        let assumed = assume_moves && m.check != Some(Check::Mate);
        let stuck = !assumed && !b.has_legal_move(side.opponent());
        let honest = matches!(
            (m.check, check, stuck),
            (None, _, _) | (Some(Check::Check), true, false) | (Some(Check::Mate), true, true)
        );
        honest.then(|| ((check, stuck, assumed), b.to_string()))
    }

    #[test]
    fn the_bitboards_play_in_one_call_exactly_the_legal_moves_with_honest_markers() {
        // `play_checked` is the 8x8 engine's one call for a move as a log
        // writes it (piece letter, `x`, promotion, `+` or `#`): it plays
        // a legal move with honest markers and leaves every other one,
        // untouched, to the general path, which words the fault. A move
        // it let through wrongly would make an illegal log valid, and the
        // corpus's survival-chess logs are mostly 12x12. Held against the
        // mailbox board over crowded random positions: every legal move
        // with each marker and a promotion left out or not, and moves of
        // each piece to random squares with a letter, `x` or promotion
        // now and then wrong; with `assume_moves` (the reply is taken on
        // trust unless the move is marked mate) and without.
        use fgn_notation::{Check, ChessMove};
        let mut rng = crate::gen::rng::Rng::new(9);
        let (mut played, mut left) = (0, 0);
        let kinds = [
            PieceKind::Pawn,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
            PieceKind::King,
        ];
        let markers = [None, Some(Check::Check), Some(Check::Mate)];
        let promotions = [None, None, None, Some(PieceKind::Queen), Some(PieceKind::Knight)];
        let every_square: Vec<Square> = (0..64).map(|i| Square::new(i % 8, i / 8).unwrap()).collect();
        for n in 0..300 {
            // Smaller boards too, one in four, whose squares past the edge
            // are still on the bitboards' 8x8 grid: a move there is off
            // the board.
            let size = super::super::bits::tests::board_size(n % 4 == 1, &mut rng);
            let (mut start, mut mailbox) = crowded_placement(size, &mut rng);
            if n % 10 == 0 {
                // Thinned out to a third of its pieces, kings kept, so that
                // lines are open (a king two squares along one, say), and
                // each piece is tried on every square.
                let thinned: Vec<Square> = mailbox
                    .pieces()
                    .filter(|(_, p)| p.kind != PieceKind::King && rng.below(3) != 0)
                    .map(|(sq, _)| sq)
                    .collect();
                for sq in thinned {
                    start.clear(sq);
                    mailbox.clear(sq);
                }
            }
            for side in [Color::White, Color::Black] {
                // The mover could take the king: no position of a game.
                if mailbox.in_check(side.opponent()) {
                    continue;
                }
                let in_check = mailbox.in_check(side);
                let occupied = |sq: Square| {
                    sq.file_index() < size.files && sq.rank_index() < size.ranks && mailbox.piece_at(sq).is_some()
                };
                let mut written: Vec<ChessMove> = Vec::new();
                for mv in mailbox.legal_moves(side) {
                    for check in markers {
                        let promotion = mv.promotion.filter(|_| rng.below(2) == 0);
                        written.push(ChessMove {
                            check,
                            promotion,
                            ..mailbox.notate(mv)
                        });
                    }
                }
                for (from, piece) in mailbox.pieces().filter(|(_, p)| p.color == side) {
                    // Each piece to four random squares, or in a thinned
                    // position to every square.
                    let tos: Vec<Square> = if n % 10 == 0 || n % 4 == 1 {
                        every_square.clone()
                    } else {
                        (0..4).map(|_| every_square[rng.below(64)]).collect()
                    };
                    for to in tos {
                        let wrong = rng.below(8);
                        written.push(ChessMove {
                            piece: if wrong == 0 { kinds[rng.below(6)] } else { piece.kind },
                            from: Some(from),
                            to: Some(to),
                            capture: occupied(to) != (wrong == 1),
                            promotion: promotions[rng.below(promotions.len())],
                            check: markers[rng.below(3)],
                        });
                    }
                }
                for m in &written {
                    for assume_moves in [false, true] {
                        let expected = played_as_written(&mailbox, side, m, in_check, assume_moves);
                        let mut board = start.clone();
                        let bits = board.bits_mut().expect("a board of at most 8x8");
                        let got = bits.play_checked(side, m, in_check, assume_moves);
                        let shown = format!("{m} by {side:?} in {mailbox}, assuming {assume_moves}");
                        assert_eq!(got, expected.as_ref().map(|e| e.0), "{shown}");
                        if let Some((_, after)) = expected {
                            played += 1;
                            assert_eq!(board.to_string(), after, "{shown}");
                        } else {
                            left += 1;
                            assert_eq!(board.to_string(), start.to_string(), "{m} left the board changed");
                        }
                    }
                }
            }
        }
        assert!(played >= 5_000 && left >= 20_000, "{played} moves played, {left} left");
    }

    #[test]
    fn a_slider_moving_along_the_line_to_the_enemy_king_checks_it() {
        // The bitboards find a move's checkers as the moved piece's own
        // attack on the king and a line it uncovers from the king through
        // its start square. A rook, bishop or queen that moves along that
        // very line toward the king is both, once: it must count as a
        // check, not cancel out. (Random crowded positions seldom leave
        // such a line open.)
        use fgn_notation::ChessMove;
        let size = BoardSize { files: 8, ranks: 8 };
        let cases = [
            ("4k3/8/8/8/8/8/4R3/K7", Color::White, PieceKind::Rook, "e2", "e4"),
            ("7k/8/8/8/8/8/1B6/K7", Color::White, PieceKind::Bishop, "b2", "d4"),
            ("4K3/8/8/8/8/8/4q3/k7", Color::Black, PieceKind::Queen, "e2", "e5"),
        ];
        for (placement, side, piece, from, to) in cases {
            let mut board = board_from_placement(placement, size, &[]).unwrap();
            let m = ChessMove {
                piece,
                from: Some(sq(from)),
                to: Some(sq(to)),
                capture: false,
                promotion: None,
                check: None,
            };
            let bits = board.bits_mut().expect("an 8x8 board");
            assert_eq!(
                bits.play_checked(side, &m, false, false),
                Some((true, false, false)),
                "{m} in {placement}"
            );
        }
    }

    /// A random position on a bitboard and on a mailbox board: the crowded
    /// position of `Bits`'s tests with one king a side put in.
    fn crowded_placement(size: BoardSize, rng: &mut crate::gen::rng::Rng) -> (ChessBoard, ChessBoard) {
        let crowded = super::super::bits::tests::crowded(size, rng);
        let (mut bits, mut mailbox) = (ChessBoard::empty(size), ChessBoard::empty_mailbox(size));
        let mut put = |sq: Square, piece: Piece, unmoved: bool| {
            bits.put(sq, piece, unmoved);
            mailbox.put(sq, piece, unmoved);
        };
        let squares: Vec<Square> = (0..size.ranks)
            .flat_map(|r| (0..size.files).map(move |f| Square::new(f, r).unwrap()))
            .collect();
        for &sq in &squares {
            if let Some(piece) = crowded.piece_at(sq) {
                put(sq, piece, crowded.is_unmoved_pawn(sq));
            }
        }
        let white_king = squares[rng.below(squares.len())];
        let black_king = loop {
            let sq = squares[rng.below(squares.len())];
            if sq != white_king {
                break sq;
            }
        };
        for (color, sq) in [(Color::White, white_king), (Color::Black, black_king)] {
            put(
                sq,
                Piece {
                    color,
                    kind: PieceKind::King,
                },
                false,
            );
        }
        (bits, mailbox)
    }

    /// The same random setup on a bitboard and on a mailbox board: a king
    /// and up to 15 more pieces a side, each on its own half, with black
    /// (not to move) out of check, as in a game that starts.
    fn random_setup(size: BoardSize, rng: &mut crate::gen::rng::Rng) -> (ChessBoard, ChessBoard) {
        loop {
            let (bits, mailbox) = random_placement(size, rng);
            if !mailbox.in_check(Color::Black) {
                return (bits, mailbox);
            }
        }
    }

    fn random_placement(size: BoardSize, rng: &mut crate::gen::rng::Rng) -> (ChessBoard, ChessBoard) {
        let (mut bits, mut mailbox) = (ChessBoard::empty(size), ChessBoard::empty_mailbox(size));
        assert!(matches!(bits.repr, Repr::Bits(_)), "{size} fits the bitboards");
        let half = size.ranks / 2;
        for color in [Color::White, Color::Black] {
            let ranks = match color {
                Color::White => 0..half,
                Color::Black => half..size.ranks,
            };
            let count = 1 + rng.below(16);
            for n in 0..count {
                let kind = if n == 0 {
                    PieceKind::King
                } else {
                    [
                        PieceKind::Queen,
                        PieceKind::Rook,
                        PieceKind::Bishop,
                        PieceKind::Knight,
                        PieceKind::Pawn,
                        PieceKind::Pawn,
                    ][rng.below(6)]
                };
                let rank = ranks.start + rng.below(usize::from(ranks.end - ranks.start)) as u8;
                let sq = Square::new(rng.below(usize::from(size.files)) as u8, rank).unwrap();
                if bits.piece_at(sq).is_none() {
                    let unmoved = rng.below(2) == 0;
                    bits.put(sq, Piece { color, kind }, unmoved);
                    mailbox.put(sq, Piece { color, kind }, unmoved);
                }
            }
        }
        (bits, mailbox)
    }

    /// Every question replay asks, answered by both boards in one position.
    fn assert_agree(bits: &mut ChessBoard, mailbox: &mut ChessBoard, side: Color) {
        let size = bits.size();
        assert_eq!(bits.to_string(), mailbox.to_string());
        let check = mailbox.in_check(side);
        assert_eq!(bits.in_check(side), check, "in_check in {mailbox}");
        assert_eq!(
            bits.in_check(side.opponent()),
            mailbox.in_check(side.opponent()),
            "in {mailbox}"
        );
        let moves = mailbox.legal_moves(side);
        assert_eq!(bits.legal_moves(side), moves, "legal moves in {mailbox}");
        assert_eq!(bits.has_legal_move_in(side, check), !moves.is_empty(), "in {mailbox}");
        let every = |f: u8| (0..size.ranks).map(move |r| Square::new(f, r).unwrap());
        for from in (0..size.files).flat_map(every) {
            assert_eq!(bits.piece_at(from), mailbox.piece_at(from));
            assert_eq!(bits.is_unmoved_pawn(from), mailbox.is_unmoved_pawn(from));
            // Replay asks only about squares that hold a piece.
            if mailbox.piece_at(from).is_some() {
                assert_eq!(
                    bits.legal_moves_from(from),
                    mailbox.legal_moves_from(from),
                    "from {from} in {mailbox}"
                );
            }
            for to in (0..size.files).flat_map(every) {
                for promotion in [None, Some(PieceKind::Queen), Some(PieceKind::Knight)] {
                    let m = Move { from, to, promotion };
                    let pseudo = mailbox.is_pseudo_legal(m);
                    assert_eq!(bits.is_pseudo_legal(m), pseudo, "{m:?} in {mailbox}");
                    // `check` is the mover's, so only the mover's moves are asked.
                    if pseudo && mailbox.piece_at(from).is_some_and(|p| p.color == side) {
                        assert_eq!(
                            bits.is_legal_move(m, check),
                            mailbox.is_legal_move(m, check),
                            "{m:?} in {mailbox}"
                        );
                    }
                }
            }
        }
        for &m in &moves {
            let (ub, um) = (bits.make_move(m), mailbox.make_move(m));
            assert_eq!(
                bits.gives_check(m.from, m.to),
                mailbox.gives_check(m.from, m.to),
                "{m:?} in {mailbox}"
            );
            let theirs = mailbox.in_check(side.opponent());
            assert_eq!(
                bits.has_legal_move_in(side.opponent(), theirs),
                mailbox.has_legal_move_in(side.opponent(), theirs),
                "after {m:?} in {mailbox}"
            );
            bits.unmake_move(ub);
            mailbox.unmake_move(um);
        }
    }

    #[test]
    fn bitboards_and_mailbox_agree_on_every_move_of_random_games() {
        // Every size the bitboards serve, from random setups (pins, checks,
        // promotions and kings in the open come up often) and from the
        // classical start; games run until mate or stalemate or 120 plies.
        // Debug builds (`cargo test`) play a third of the games, to stay quick.
        let (games, min_positions) = if cfg!(debug_assertions) { (4, 1000) } else { (12, 3000) };
        let mut rng = crate::gen::rng::Rng::new(7);
        let mut positions = 0;
        for (files, ranks) in [(8, 8), (6, 6), (7, 6), (8, 6), (6, 8), (7, 8)] {
            let size = BoardSize { files, ranks };
            for game in 0..games {
                let (mut bits, mut mailbox) = random_setup(size, &mut rng);
                if game == 0 && size == (BoardSize { files: 8, ranks: 8 }) {
                    let unmoved: Vec<Square> = (0..8)
                        .flat_map(|f| [Square::new(f, 1).unwrap(), Square::new(f, 6).unwrap()])
                        .collect();
                    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
                    bits = board_from_placement(start, size, &unmoved).unwrap();
                    mailbox = ChessBoard::empty_mailbox(size);
                    for (sq, p) in bits.pieces() {
                        mailbox.put(sq, p, bits.is_unmoved_pawn(sq));
                    }
                }
                let mut side = Color::White;
                for _ in 0..120 {
                    assert_agree(&mut bits, &mut mailbox, side);
                    positions += 1;
                    let moves = mailbox.legal_moves(side);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    bits.make_move(m);
                    mailbox.make_move(m);
                    side = side.opponent();
                }
            }
        }
        assert!(positions > min_positions, "only {positions} positions compared");
    }
}
