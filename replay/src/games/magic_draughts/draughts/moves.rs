//! Looking up a written move among the legal ones, and why a written move
//! is not legal.

use std::fmt;

use fgn_notation::{Path, Square};

use super::board::{bit_of, square_problem, DMove, DraughtsBoard, RANK_1, RANK_8};

/// Why a written move is not legal in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveErrorKind {
    /// A square of the path is off the 8x8 board or light.
    NotPlayable(Square),
    /// The start square holds no piece of the side to move.
    NoPieceOfYours(Square),
    /// The side to move has no legal move at all.
    NoLegalMoves,
    /// The path is that of a legal move, but written with the wrong separator;
    /// `capture` says what the legal move is.
    WrongSeparator {
        /// Whether the legal move with this path is a capture.
        capture: bool,
    },
    /// A plain move was written while a capture exists.
    CaptureCompulsory,
    /// A capture was written while none exists.
    NothingToCapture,
    /// The piece on the start square has no legal move (of the required kind).
    PieceCannotMove {
        /// The start square.
        from: Square,
        /// Whether captures are what is required.
        capture: bool,
    },
    /// The path stops where the capturing piece can and must jump on.
    CaptureCanContinue(Square),
    /// The path goes on after a square where the capture has to end.
    CaptureEnds(Square),
    /// A king landed beyond a captured piece on a square from which it cannot
    /// capture further, while other landing squares let it continue.
    MustLandToContinue {
        /// The landing square written.
        landing: Square,
        /// The landing squares from which the capture continues.
        options: Vec<Square>,
    },
    /// Any other illegal move.
    NotLegal,
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveErrorKind::NotPlayable(sq) => match square_problem(*sq) {
                Some(problem) => f.write_str(&problem),
                None => write!(f, "{sq} is not a playable square"),
            },
            MoveErrorKind::NoPieceOfYours(sq) => write!(f, "no piece of yours on {sq}"),
            MoveErrorKind::NoLegalMoves => f.write_str("there is no legal move"),
            MoveErrorKind::WrongSeparator { capture: true } => f.write_str("this move is a capture; write it with ':'"),
            MoveErrorKind::WrongSeparator { capture: false } => {
                f.write_str("this move is not a capture; write it with '-'")
            }
            MoveErrorKind::CaptureCompulsory => f.write_str("a capture is compulsory"),
            MoveErrorKind::NothingToCapture => f.write_str("there is nothing to capture"),
            MoveErrorKind::PieceCannotMove { from, capture: true } => {
                write!(f, "the piece on {from} has no capture")
            }
            MoveErrorKind::PieceCannotMove { from, capture: false } => {
                write!(f, "the piece on {from} has no legal move")
            }
            MoveErrorKind::CaptureCanContinue(sq) => write!(f, "the capture can continue from {sq}"),
            MoveErrorKind::CaptureEnds(sq) => write!(f, "the capture ends on {sq}; there is nothing more to jump"),
            MoveErrorKind::MustLandToContinue { landing, options } => {
                write!(
                    f,
                    "the king may not land on {landing}: it must land where the capture continues ("
                )?;
                for (i, sq) in options.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" or ")?;
                    }
                    write!(f, "{sq}")?;
                }
                f.write_str(")")
            }
            MoveErrorKind::NotLegal => f.write_str("not a legal move"),
        }
    }
}

/// A written move that [`DraughtsBoard::find_move`] could not match: why, and what
/// the legal moves were.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveError {
    /// Why the move is not legal.
    pub kind: MoveErrorKind,
    /// Every legal move of the position in FGN, sorted.
    pub legal: Vec<String>,
}

/// Writes the reason followed by the legal moves, e.g. `a capture is
/// compulsory; legal moves: c3:e5`.
impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if !self.legal.is_empty() {
            write!(f, "; legal moves: {}", self.legal.join(" "))?;
        }
        Ok(())
    }
}

impl std::error::Error for MoveError {}

impl DraughtsBoard {
    /// The legal move whose start and landing squares are `path` and which is
    /// a capture exactly when `capture` is set (`c3:e5` versus `c3-d4`).
    ///
    /// When there is none, the error says why and lists the legal moves.
    pub(crate) fn find_move(&self, path: &Path, capture: bool) -> Result<DMove, MoveError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let squares = path.squares();
        if let Some(mv) = legal
            .iter()
            .find(|m| m.capture == capture && m.path.squares() == squares)
        {
            return Ok(*mv);
        }
        let kind = self.why_illegal(squares, capture, &legal);
        // By square: the squares of each path in turn, in square order
        // (rank, then file), so that `a9` comes before `a10`.
        let mut named: Vec<(&[Square], String)> = legal.iter().map(|m| (m.path.squares(), m.to_string())).collect();
        named.sort();
        let names = named.into_iter().map(|(_, name)| name).collect();
        Err(MoveError { kind, legal: names })
    }

    /// The most specific reason why the move written as `squares` and
    /// `capture` is none of `legal`, the position's legal moves.
    fn why_illegal(&self, squares: &[Square], capture: bool, legal: &[DMove]) -> MoveErrorKind {
        if let Some(&sq) = squares.iter().find(|sq| bit_of(**sq).is_none()) {
            return MoveErrorKind::NotPlayable(sq);
        }
        let Some(&from) = squares.first() else {
            return MoveErrorKind::NotLegal;
        };
        let is_king = match self.piece_at(from) {
            Some((color, king)) if color == self.to_move => king,
            _ => return MoveErrorKind::NoPieceOfYours(from),
        };
        if legal.is_empty() {
            return MoveErrorKind::NoLegalMoves;
        }
        if let Some(mv) = legal.iter().find(|m| m.path.squares() == squares) {
            return MoveErrorKind::WrongSeparator { capture: mv.capture };
        }
        // The legal moves are either all captures or all plain moves.
        let must_capture = legal[0].capture;
        if must_capture && !capture {
            return MoveErrorKind::CaptureCompulsory;
        }
        if !must_capture && capture {
            return MoveErrorKind::NothingToCapture;
        }
        let own: Vec<&DMove> = legal.iter().filter(|m| m.path.from() == from).collect();
        if own.is_empty() {
            return MoveErrorKind::PieceCannotMove { from, capture };
        }
        if !capture {
            return MoveErrorKind::NotLegal;
        }
        if own.iter().any(|m| m.path.squares().starts_with(squares)) {
            return MoveErrorKind::CaptureCanContinue(*squares.last().unwrap_or(&from));
        }
        // `done` squares agree with some legal capture; the next one is the mistake.
        let done = own
            .iter()
            .map(|m| m.path.squares().iter().zip(squares).take_while(|(a, b)| a == b).count())
            .max()
            .unwrap_or(1);
        if own.iter().any(|m| m.path.squares() == &squares[..done]) {
            return MoveErrorKind::CaptureEnds(squares[done - 1]);
        }
        let Some(&landing) = squares.get(done) else {
            return MoveErrorKind::NotLegal;
        };
        let far_rank = if self.to_move == fgn_notation::Color::White {
            RANK_8
        } else {
            RANK_1
        };
        let promoted = squares
            .get(1..done)
            .unwrap_or_default()
            .iter()
            .any(|&sq| bit_of(sq).is_some_and(|bit| far_rank >> bit & 1 != 0));
        if is_king || promoted {
            let mut options: Vec<Square> = own
                .iter()
                .filter(|m| m.path.squares().len() > done && m.path.squares()[..done] == squares[..done])
                .filter(|m| {
                    let victim = m.captured().get(done - 1);
                    victim.is_some_and(|&victim| self.lands_beyond(from, squares[done - 1], victim, landing))
                })
                .map(|m| m.path.squares()[done])
                .collect();
            options.sort();
            options.dedup();
            if !options.is_empty() {
                return MoveErrorKind::MustLandToContinue { landing, options };
            }
        }
        MoveErrorKind::NotLegal
    }

    /// Whether a king of the side to move, having started the move on `start`
    /// and now standing on `at`, could jump the piece on `victim` and land on
    /// `landing`: all three on one diagonal in that order, with only empty
    /// squares (or the king's start square) between the victim and the landing.
    fn lands_beyond(&self, start: Square, at: Square, victim: Square, landing: Square) -> bool {
        let delta = |a: Square, b: Square| {
            (
                i32::from(b.file_index()) - i32::from(a.file_index()),
                i32::from(b.rank_index()) - i32::from(a.rank_index()),
            )
        };
        let (vf, vr) = delta(at, victim);
        let (lf, lr) = delta(at, landing);
        let on_line = vf.abs() == vr.abs() && lf.abs() == lr.abs() && vf != 0;
        if !on_line || vf.signum() != lf.signum() || vr.signum() != lr.signum() || lf.abs() <= vf.abs() {
            return false;
        }
        let (df, dr) = (vf.signum(), vr.signum());
        (1..=lf.abs() - vf.abs()).all(|k| {
            let file = i32::from(victim.file_index()) + k * df;
            let rank = i32::from(victim.rank_index()) + k * dr;
            match Square::new(file as u8, rank as u8) {
                Some(sq) => sq == start || self.piece_at(sq).is_none(),
                None => false,
            }
        })
    }
}
