//! The survival-chess game's type, [`Survival`]: the board, the turn, the
//! pieces each side has set up and whether the side to move is in check,
//! and the rules at its level (setup, moves played on the bitboards in one
//! call or checked step by step, canonical spelling). The modules above
//! it (the state values, the view, the account of changes, the pictures
//! and the game API of `game.rs`) call down into it, never the other way.

use fgn_notation::{ByColor, Check, ChessMove, Color, Figure, MoveNumber, PieceKind, Placement, Reason, Square};

use super::board::ChessBoard;
use super::params::SurvivalRules;
use super::pieces::{Move, Piece};
use crate::core::error::{Fault, Rule};
use crate::core::progress::{next_turn, turn_after, Decision, Turn};
use crate::core::setup;

/// The state of a survival-chess game.
#[derive(Clone, Debug)]
pub struct Survival {
    pub(super) rules: SurvivalRules,
    pub(super) board: ChessBoard,
    pub(super) turn: Turn,
    /// Pieces each side has set up, by kind (`PieceKind` order K Q R B N P).
    counts: ByColor<[u8; 6]>,
    /// Whether the side to move is in check.
    pub(super) check: bool,
}

fn kind_index(k: PieceKind) -> usize {
    PieceKind::ALL
        .iter()
        .position(|&p| p == k)
        .expect("every kind is in ALL")
}

/// What a move of `side` decides: mate when it checks and leaves the
/// opponent no legal move (`stuck`), stalemate when it leaves none without
/// check, nothing otherwise.
fn ending(side: Color, check: bool, stuck: bool) -> Option<Decision> {
    match (check, stuck) {
        (true, true) => Some(Decision::win(side, Reason::Mate)),
        (false, true) => Some(Decision {
            outcome: fgn_notation::Outcome::Draw,
            reason: Reason::Stalemate,
        }),
        (_, false) => None,
    }
}

/// The moves as a diagnostic lists them: by square (the square left, then
/// the square reached, each in square order, rank then file, so that `j2`
/// comes before `j10`), a promotion's choices in name order.
fn list(moves: &[Move], board: &ChessBoard) -> String {
    if moves.is_empty() {
        return "none".into();
    }
    let mut named: Vec<(Square, Square, String)> = moves
        .iter()
        .map(|m| (m.from, m.to, board.notate(*m).to_string()))
        .collect();
    named.sort();
    named.dedup();
    let names: Vec<String> = named.into_iter().map(|(_, _, name)| name).collect();
    names.join(", ")
}

impl Survival {
    /// A game at the start of setup: an empty board.
    pub(crate) fn new(rules: SurvivalRules) -> Survival {
        let board = ChessBoard::empty(rules.board.0);
        Survival {
            rules,
            board,
            turn: Turn::Setup {
                ready: ByColor::default(),
            },
            counts: ByColor::default(),
            check: false,
        }
    }

    /// The board.
    pub(crate) fn board(&self) -> &ChessBoard {
        &self.board
    }

    fn on_board(&self, sq: Square) -> Result<(), Fault> {
        if self.board.contains(sq) {
            Ok(())
        } else {
            Err(Fault::new(
                Rule::Square,
                format!("{sq} is not on the {} board", self.rules.board.0),
            ))
        }
    }

    fn limit(&self, kind: PieceKind) -> u8 {
        let l = &self.rules.limits;
        match kind {
            PieceKind::King => l.king,
            PieceKind::Queen => l.queen,
            PieceKind::Rook => l.rook,
            PieceKind::Bishop => l.bishop,
            PieceKind::Knight => l.knight,
            PieceKind::Pawn => l.pawn,
        }
    }

    /// Whether `side` may set up one more piece of `kind` within the limits
    /// of the kind and of the total.
    pub(super) fn may_place(&self, side: Color, kind: PieceKind) -> bool {
        let counts = &self.counts[side];
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        counts[kind_index(kind)] < self.limit(kind) && total < u32::from(self.rules.limits.total)
    }

    /// Whether `side` has set up the king `ready` needs.
    pub(super) fn has_king_placed(&self, side: Color) -> bool {
        self.counts[side][kind_index(PieceKind::King)] == self.rules.limits.king
    }

    pub(super) fn place(&mut self, side: Color, placements: &[Placement]) -> Result<(), Fault> {
        let mut counts = self.counts[side];
        let mut total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        for (i, p) in placements.iter().enumerate() {
            let Figure::Piece(kind) = p.figure else {
                return Err(Fault::new(Rule::Setup, format!("`{}` is not a chess piece", p.figure)));
            };
            self.on_board(p.square)?;
            if !setup::in_own_half(self.rules.board.0, side, p.square) {
                return Err(setup::not_own_half(self.rules.board.0, side, p.square));
            }
            // Occupied on the board, or by an earlier placement of this event.
            if self.board.piece_at(p.square).is_some() || placements[..i].iter().any(|q| q.square == p.square) {
                return Err(Fault::new(Rule::Setup, format!("{} is already occupied", p.square)));
            }
            let limit = self.limit(kind);
            // Checked before counting, so that no limit can overflow the count.
            if counts[kind_index(kind)] >= limit {
                return Err(Fault::new(
                    Rule::SetupLimit,
                    format!("{} may set up at most {limit} of `{}`", side.name(), kind.char()),
                ));
            }
            counts[kind_index(kind)] += 1;
            total += 1;
            if total > u32::from(self.rules.limits.total) {
                return Err(Fault::new(
                    Rule::SetupLimit,
                    format!("{} may set up at most {} pieces", side.name(), self.rules.limits.total),
                ));
            }
        }
        for p in placements {
            if let Figure::Piece(kind) = p.figure {
                self.board.put(p.square, Piece { color: side, kind }, true);
            }
        }
        self.counts[side] = counts;
        Ok(())
    }

    pub(super) fn remove(&mut self, side: Color, square: Square) -> Result<(), Fault> {
        self.on_board(square)?;
        match self.board.piece_at(square) {
            Some(p) if p.color == side => {
                self.board.clear(square);
                self.counts[side][kind_index(p.kind)] -= 1;
                Ok(())
            }
            _ => Err(Fault::new(
                Rule::Setup,
                format!("{} has no piece on {square} to remove", side.name()),
            )),
        }
    }

    /// Declares `side` ready (by its own `ready` or by a setup timeout) and,
    /// when both are, starts the game and judges the start position.
    pub(super) fn make_ready(&mut self, side: Color, ready: ByColor<bool>) -> Option<Decision> {
        let mut ready = ready;
        ready[side] = true;
        if !(ready.white && ready.black) {
            self.turn = Turn::Setup { ready };
            return None;
        }
        self.turn = Turn::Move {
            side: Color::White,
            number: MoveNumber(1),
        };
        for color in [Color::White, Color::Black] {
            if self.board.king(color).is_none() {
                return Some(Decision {
                    outcome: fgn_notation::Outcome::Abort,
                    reason: Reason::NoKing,
                });
            }
        }
        if self.board.in_check(Color::Black) {
            return Some(Decision::win(Color::White, Reason::ExposedKing));
        }
        self.check = self.board.in_check(Color::White);
        self.no_move_decision(Color::White)
    }

    fn no_move_decision(&mut self, side: Color) -> Option<Decision> {
        if self.board.has_legal_move(side) {
            return None;
        }
        Some(if self.check {
            Decision::win(side.opponent(), Reason::Mate)
        } else {
            Decision {
                outcome: fgn_notation::Outcome::Draw,
                reason: Reason::Stalemate,
            }
        })
    }

    /// Plays `side`'s move `m` in its turn numbered `number`: on the
    /// bitboards in one call when it is valid, else (a larger board, or a
    /// fault to report) by the general path.
    pub(super) fn play(&mut self, side: Color, number: MoveNumber, m: &ChessMove) -> Result<Option<Decision>, Fault> {
        match self.play_quick(side, number, m, false) {
            Some((decision, _)) => Ok(decision),
            None => self.play_general(side, number, m),
        }
    }

    /// A valid move on the bitboards, played, and what it decides; `None`,
    /// with nothing changed, for any other move or board.
    /// `assume_moves`: whether the opponent may be assumed to have a legal
    /// move after it (see [`crate::game::Game::play_valid`]); the second value says
    /// whether it was.
    #[inline]
    pub(super) fn play_quick(
        &mut self,
        side: Color,
        number: MoveNumber,
        m: &ChessMove,
        assume_moves: bool,
    ) -> Option<(Option<Decision>, bool)> {
        let next = turn_after(side, number)?;
        let (check, stuck, assumed) = self.board.bits_mut()?.play_checked(side, m, self.check, assume_moves)?;
        self.check = check;
        self.turn = next;
        Some((ending(side, check, stuck), assumed))
    }

    /// Checks the move step by step, for any board, and says what is wrong
    /// with it; plays it when nothing is.
    fn play_general(&mut self, side: Color, number: MoveNumber, m: &ChessMove) -> Result<Option<Decision>, Fault> {
        let (Some(from), Some(to)) = (m.from, m.to) else {
            return Err(Fault::new(Rule::Move, "a full log names both squares of a move"));
        };
        self.on_board(from)?;
        self.on_board(to)?;
        let piece = match self.board.piece_at(from) {
            Some(p) if p.color == side => p,
            Some(_) => {
                return Err(Fault::new(
                    Rule::Move,
                    format!("the piece on {from} is not {}'s", side.name()),
                ))
            }
            None => {
                let legal = self.board.legal_moves(side);
                return Err(Fault::new(
                    Rule::Move,
                    format!(
                        "there is no piece on {from}; {}'s legal moves: {}",
                        side.name(),
                        list(&legal, &self.board)
                    ),
                ));
            }
        };
        if piece.kind != m.piece {
            return Err(Fault::new(
                Rule::Marker,
                format!(
                    "the piece on {from} is a {} (`{}`), not `{}`",
                    piece.kind.name(),
                    piece.kind.char(),
                    m.piece.char()
                ),
            ));
        }
        let far = if side == Color::White {
            self.rules.board.0.ranks - 1
        } else {
            0
        };
        let promotes = piece.kind == PieceKind::Pawn && to.rank_index() == far;
        let promotion = match (promotes, m.promotion) {
            (true, p) => Some(p.unwrap_or(PieceKind::Queen)),
            (false, None) => None,
            (false, Some(_)) => return Err(Fault::new(Rule::Promotion, "a pawn promotes only on the far rank")),
        };
        let mv = Move { from, to, promotion };
        if !self.board.is_pseudo_legal(mv) {
            let legal = self.board.legal_moves_from(from);
            return Err(Fault::new(
                Rule::Move,
                format!(
                    "the {} on {from} cannot move to {to}; its legal moves: {}",
                    piece.kind.name(),
                    list(&legal, &self.board)
                ),
            ));
        }
        let target = self.board.piece_at(to);
        if target.is_some() != m.capture {
            return Err(Fault::new(
                Rule::Marker,
                if m.capture {
                    format!("`x` marks a capture, but {to} is empty: write `-`")
                } else {
                    format!("{to} holds a piece, so the move is a capture: write `x`")
                },
            ));
        }
        if !self.board.is_legal_move(mv, self.check) {
            let legal = self.board.legal_moves_from(from);
            return Err(Fault::new(
                Rule::KingSafety,
                format!(
                    "the move leaves {}'s king attacked; legal moves of the {} on {from}: {}",
                    side.name(),
                    piece.kind.name(),
                    list(&legal, &self.board)
                ),
            ));
        }
        let next = next_turn(side, number)?;
        // Played in place and taken back if a marker lies, so that a rejected
        // move leaves the position untouched without copying the board.
        let undo = self.board.make_move(mv);
        let opponent = side.opponent();
        let check = self.board.gives_check(from, to);
        let stuck = !self.board.has_legal_move_in(opponent, check);
        let mate = check && stuck;
        let lie = match (m.check, check, mate) {
            (Some(Check::Check), false, _) => Some("`+` marks a check, but the move gives none"),
            (Some(Check::Check), true, true) => Some("the move mates: write `#`, not `+`"),
            (Some(Check::Mate), _, false) => Some("`#` marks a mate, but the move does not mate"),
            _ => None,
        };
        if let Some(message) = lie {
            self.board.unmake_move(undo);
            return Err(Fault::new(Rule::Marker, message));
        }
        self.check = check;
        self.turn = next;
        Ok(ending(side, check, stuck))
    }

    /// The move `m` as canonical FGN writes it (promotion and check markers
    /// filled in), if it is a legal move here.
    pub(crate) fn canonical_move(&self, side: Color, m: &ChessMove) -> Option<ChessMove> {
        let mut probe = self.clone();
        probe.play(side, self.turn_number(), m).ok()?;
        let opponent = side.opponent();
        let check = probe.board.in_check(opponent).then(|| {
            if probe.board.clone().has_legal_move(opponent) {
                Check::Check
            } else {
                Check::Mate
            }
        });
        self.written(side, m, check)
    }

    /// The move `m` of `side` as canonical FGN writes it, with the check
    /// marker `check` (what playing it showed): both squares, and the
    /// promotion piece filled in where a pawn reaches the far rank.
    pub(crate) fn written(&self, side: Color, m: &ChessMove, check: Option<Check>) -> Option<ChessMove> {
        let (from, to) = (m.from?, m.to?);
        let promotes = self.promotes(side, m);
        Some(ChessMove {
            from: Some(from),
            to: Some(to),
            promotion: promotes.then(|| m.promotion.unwrap_or(PieceKind::Queen)),
            check,
            ..*m
        })
    }

    /// Whether `m`, a move of `side`'s, takes a pawn to the far rank.
    pub(super) fn promotes(&self, side: Color, m: &ChessMove) -> bool {
        let far = if side == Color::White {
            self.rules.board.0.ranks - 1
        } else {
            0
        };
        m.piece == PieceKind::Pawn && m.to.is_some_and(|to| to.rank_index() == far)
    }

    fn turn_number(&self) -> MoveNumber {
        match self.turn {
            Turn::Setup { .. } => MoveNumber(0),
            Turn::Move { number, .. } => number,
        }
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::{Action, BoardSize, Check, ChessMove, Color, PieceKind, Square};

    use super::*;
    use crate::game::Game;
    use crate::ruleset::{Board as BoardParam, SurvivalRules};

    /// Moves to try in a position: every legal move with every marker and
    /// both capture marks, and with the wrong piece letter and promotions,
    /// and moves between random squares (some off the board, some of the
    /// other side's pieces).
    fn candidates(engine: &Survival, side: Color, rng: &mut crate::gen::rng::Rng) -> Vec<ChessMove> {
        let board = engine.board();
        let mut out = Vec::new();
        for m in board.legal_moves(side) {
            let written = board.notate(m);
            for check in [None, Some(Check::Check), Some(Check::Mate)] {
                for capture in [written.capture, !written.capture] {
                    out.push(ChessMove {
                        check,
                        capture,
                        ..written
                    });
                }
            }
            out.push(ChessMove {
                promotion: None,
                ..written
            });
            out.push(ChessMove {
                piece: PieceKind::Knight,
                ..written
            });
            out.push(ChessMove {
                promotion: Some(PieceKind::Rook),
                ..written
            });
        }
        for _ in 0..20 {
            let square = |rng: &mut crate::gen::rng::Rng| Square::new(rng.below(10) as u8, rng.below(10) as u8);
            let (from, to) = (square(rng), square(rng));
            let piece = PieceKind::ALL[rng.below(6)];
            out.push(ChessMove {
                piece,
                from,
                to,
                capture: rng.below(2) == 0,
                promotion: None,
                check: None,
            });
        }
        out
    }

    /// Regression guard for the bitboards' one-call move
    /// (`Bits::play_checked`): on every ply of random games on every board
    /// size the bitboards serve, and for many moves in each position (legal
    /// or not, with true and false markers), it plays exactly the moves the
    /// general path accepts, to the same position, check and decision, and
    /// leaves the game untouched for every other.
    #[test]
    fn the_quick_move_agrees_with_the_general_path() {
        let sizes = [(8, 8), (6, 6), (8, 6), (7, 8)];
        let mut rng = crate::gen::rng::Rng::new(7);
        let (mut played, mut refused) = (0usize, 0usize);
        for (i, (files, ranks)) in sizes.into_iter().enumerate() {
            let size = BoardSize { files, ranks };
            for seed in 0..4 {
                let rules = SurvivalRules {
                    board: BoardParam(size),
                    ..SurvivalRules::default()
                };
                // Uniform play, as the old random maker did: no bias toward
                // captures, so that the games visit quiet positions too.
                let options = crate::gen::Options {
                    plies: 120,
                    finish: crate::gen::Rate::NEVER,
                    resign_at_cap: false,
                    ..crate::gen::Options::under(crate::Ruleset::Survival(rules), 100 * i as u64 + seed)
                };
                let game = crate::gen::generate(&options).expect("a random survival-chess game");
                let mut engine = Survival::new(SurvivalRules {
                    board: BoardParam(size),
                    ..SurvivalRules::default()
                });
                for event in &game.events {
                    let fgn_notation::Actor::Player(side) = event.actor else {
                        continue;
                    };
                    if let (Turn::Move { number, .. }, Action::Move(_)) = (engine.turn(), &event.action) {
                        for m in candidates(&engine, side, &mut rng) {
                            let (mut quick, mut general) = (engine.clone(), engine.clone());
                            let q = quick.play_quick(side, number, &m, false).map(|(d, _)| d);
                            let g = general.play_general(side, number, &m);
                            match q {
                                Some(decision) => {
                                    played += 1;
                                    assert_eq!(g.as_ref().ok(), Some(&decision), "{m}");
                                    assert_eq!(quick.board, general.board, "{m}");
                                    assert_eq!((quick.check, quick.turn), (general.check, general.turn), "{m}");
                                }
                                None => {
                                    refused += 1;
                                    assert!(g.is_err(), "{m} is valid but not played on the bitboards");
                                    assert_eq!(quick.board, engine.board, "{m}");
                                    assert_eq!((quick.check, quick.turn), (engine.check, engine.turn), "{m}");
                                }
                            }
                        }
                    }
                    engine
                        .player(side, event.n, &event.action)
                        .expect("the random game is legal");
                }
            }
        }
        assert!(played > 1_000 && refused > 10_000, "{played} played, {refused} refused");
    }
}
