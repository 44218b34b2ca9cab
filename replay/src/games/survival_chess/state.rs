//! survival-chess through the game API: its state, what each side knows of
//! it, and the actions the rules allow now.

use fgn_notation::{Action, Actor, Check, Color, Event, Figure, MoveNumber, PieceKind, Placement, Square};
use serde::Serialize;

use super::engine::Survival;
use crate::core::progress::Turn;
use crate::core::viewer::Viewer;

/// A piece on the board, as the state lists it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct ChessPiece {
    /// Where it stands.
    pub square: Square,
    /// Whose it is.
    pub color: Color,
    /// Which piece (its letter, as moves name it).
    pub piece: PieceKind,
    /// A pawn that has not moved since setup and may still double-step.
    pub unmoved: bool,
}

/// The position of a survival-chess game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SurvivalState {
    /// The board size.
    pub board: fgn_notation::BoardSize,
    /// Every piece, in square order (rank 1 first, files a.. within a rank).
    pub pieces: Vec<ChessPiece>,
    /// Whether the side to move is in check.
    pub in_check: bool,
}

/// What one viewer knows of a survival-chess game: the position with the
/// pieces of every setup still secret to it left out.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SurvivalKnowledge {
    /// The sides whose setup the viewer cannot see yet, white first.
    pub hidden_setups: Vec<Color>,
    /// The position as the viewer sees it.
    pub position: SurvivalState,
}

impl Survival {
    fn setup_actions(&self, side: Color, out: &mut Vec<Event>) {
        let event = |action: Action| Event {
            n: MoveNumber(0),
            actor: Actor::Player(side),
            action,
            clock_ms: None,
        };
        for sq in crate::core::setup::own_half(self.rules.board.0, side) {
            match self.board.piece_at(sq) {
                Some(_) => out.push(event(Action::Remove { square: sq, unit: None })),
                None => {
                    for kind in PieceKind::ALL {
                        if self.may_place(side, kind) {
                            out.push(event(Action::Place {
                                placements: vec![Placement {
                                    figure: Figure::Piece(kind),
                                    square: sq,
                                }],
                            }));
                        }
                    }
                }
            }
        }
        if self.has_king_placed(side) {
            out.push(event(Action::Ready));
        }
    }
}

impl Survival {
    pub(super) fn state_now(&self) -> SurvivalState {
        let pieces = self
            .board
            .pieces()
            .map(|(square, p)| ChessPiece {
                square,
                color: p.color,
                piece: p.kind,
                unmoved: p.kind == PieceKind::Pawn && self.board.is_unmoved_pawn(square),
            })
            .collect();
        SurvivalState {
            board: self.rules.board.0,
            pieces,
            in_check: self.check,
        }
    }

    pub(super) fn knowledge_now(&self, viewer: Viewer) -> SurvivalKnowledge {
        let hidden_setups = crate::core::setup::hidden_setups(self.turn, viewer);
        let mut position = self.state_now();
        position.pieces.retain(|p| !hidden_setups.contains(&p.color));
        SurvivalKnowledge {
            hidden_setups,
            position,
        }
    }

    pub(super) fn legal_actions_now(&self, out: &mut Vec<Event>) {
        match self.turn {
            Turn::Setup { ready } => {
                for side in [Color::White, Color::Black] {
                    if !ready[side] {
                        self.setup_actions(side, out);
                    }
                }
            }
            Turn::Move { side, number } => {
                // Each move is made and taken back on one copy of the board
                // to learn its check marker, instead of replaying it on a
                // copy of the whole game as `canonical_move` does: the fuzz
                // targets and the generator ask for every position.
                let opponent = side.opponent();
                let mut board = self.board.clone();
                for m in self.board.legal_moves(side) {
                    let undo = board.make_move(m);
                    let check = board.in_check(opponent).then(|| {
                        if board.has_legal_move_in(opponent, true) {
                            Check::Check
                        } else {
                            Check::Mate
                        }
                    });
                    board.unmake_move(undo);
                    if let Some(full) = self.written(side, &self.board.notate(m), check) {
                        out.push(Event {
                            n: number,
                            actor: Actor::Player(side),
                            action: Action::Move(full),
                            clock_ms: None,
                        });
                    }
                }
            }
        }
    }
}
