//! Where the shared rules stand, in terms every game uses: whose turn it
//! is, the phase, how a game was decided, and the progress a state and
//! every knowledge carry. A leaf: it names no game and no engine.

use fgn_notation::{ByColor, Clock, Color, MoveNumber, Outcome, Reason};
use serde::{Serialize, Serializer};

use crate::core::error::{Fault, Rule};
use crate::core::seed::Salts;

/// How a game was decided: the result the log must record next.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
pub struct Decision {
    /// Who won, or a draw, or abort.
    pub outcome: Outcome,
    /// Why.
    pub reason: Reason,
}

impl Decision {
    /// `color` wins for `reason`.
    pub fn win(color: Color, reason: Reason) -> Decision {
        let outcome = match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        };
        Decision { outcome, reason }
    }

    /// The text of the result event's arguments: `1-0 mate`.
    pub fn text(self) -> String {
        format!("{} {}", self.outcome.text(), self.reason.name())
    }
}

/// Whose turn it is, as the shared rules need to know it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(tag = "stage", rename_all = "kebab-case")]
pub enum Turn {
    /// The secret setup (move number 0): both sides act; the flags say who is ready.
    Setup {
        /// Whether white, then black, has declared `ready`.
        ready: ByColor<bool>,
    },
    /// A side's turn, with its full-move number.
    #[serde(rename = "play")]
    Move {
        /// The side to move.
        side: Color,
        /// The full-move number of the turn.
        number: MoveNumber,
    },
}

/// The turn after `side`'s turn numbered `number`: the opponent's, and the
/// next full move after black's. Move numbers end at `u32::MAX`; a game that
/// reaches it cannot go on.
pub fn next_turn(side: Color, number: MoveNumber) -> Result<Turn, Fault> {
    turn_after(side, number)
        .ok_or_else(|| Fault::new(Rule::MoveNumber, "the game is too long: move numbers end at 4294967295"))
}

/// [`next_turn`] without the fault's message, for a path that only needs
/// to know whether there is one: `None` after black's move `u32::MAX`.
#[inline]
pub(crate) fn turn_after(side: Color, number: MoveNumber) -> Option<Turn> {
    let number = match side {
        Color::White => number,
        Color::Black => MoveNumber(number.0.checked_add(1)?),
    };
    Some(Turn::Move {
        side: side.opponent(),
        number,
    })
}

/// Checks that `side` acting with move number `n` is the mover of the
/// turn numbered `number` that `to_move` plays.
pub(crate) fn check_turn(side: Color, n: MoveNumber, to_move: Color, number: MoveNumber) -> Result<(), Fault> {
    if side != to_move {
        return Err(Fault::new(Rule::Turn, format!("it is {}'s turn", to_move.name())));
    }
    if n != number {
        return Err(Fault::new(
            Rule::MoveNumber,
            format!("{}'s move carries move number {number}, not {n}", side.name()),
        ));
    }
    Ok(())
}

/// Where the shared rules stand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// Play goes on.
    Playing,
    /// `late` ran out of time; its opponent must answer `extra yes` or `extra no`.
    AwaitingExtra {
        /// The side whose time ran out.
        late: Color,
    },
    /// The game is decided; the next event must be this result.
    ResultDue(Decision),
    /// The result has been recorded.
    Over(Decision),
}

/// Where the shared rules stand: the same for every viewer, since turns,
/// clocks and results are public in every game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct Progress {
    /// Whose turn it is (or the setup, with who is ready); `None` once the
    /// game is decided, when nobody is to act but the world.
    pub turn: Option<Turn>,
    /// Playing, awaiting an answer to a timeout, decided, or over.
    pub status: Phase,
    /// The move number the last event carried (0 before any): the number
    /// a world event, chat, `extra` or `resign` must carry next.
    pub last_number: MoveNumber,
    /// The last clock reading in the log, in milliseconds since the game began.
    #[serde(serialize_with = "millis")]
    pub clock_ms: Option<Clock>,
    /// When the running time limit started (the turn, or the setup), where
    /// the clock readings show it: `None` while the log has had no reading,
    /// and when the event that started it had none and the readings around
    /// it leave its time open.
    #[serde(serialize_with = "millis")]
    pub turn_started_ms: Option<Clock>,
    /// The salts the players have given (public once given). Left out of
    /// JSON and of the hashed bytes while neither has given one, so that
    /// the states of unsalted games encode as they always have.
    #[serde(skip_serializing_if = "unsalted")]
    pub salts: Salts,
}

fn unsalted(salts: &Salts) -> bool {
    !crate::core::seed::is_salted(salts)
}

fn millis<S: Serializer>(c: &Option<Clock>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_some(&c.millis()),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_last_move_number_ends_the_game_without_overflow() {
        use fgn_notation::{Color, MoveNumber};

        use super::{next_turn, Turn};
        use crate::core::error::Rule;
        let max = MoveNumber(u32::MAX);
        assert_eq!(
            next_turn(Color::White, max).unwrap(),
            Turn::Move {
                side: Color::Black,
                number: max
            }
        );
        let e = next_turn(Color::Black, max).expect_err("no number after the last");
        assert_eq!(e.rule, Rule::MoveNumber);
        assert_eq!(
            next_turn(Color::Black, MoveNumber(7)).unwrap(),
            Turn::Move {
                side: Color::White,
                number: MoveNumber(8)
            }
        );
    }
}
