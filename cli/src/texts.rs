//! The words reports use for a replayed game's state, shared by the
//! commands and by `render`: the result a phase stands for, whose turn it
//! is, and what is said of a rule error a side may not see. They sit below
//! every module that writes them, so no command needs another for its
//! wording.

use fgn_notation::Color;
use fgn_replay::{Phase, Progress, Turn};

/// The result a phase stands for, as reports write it (`1-0 mate`, `in progress`).
pub fn status_text(phase: Phase) -> String {
    match phase {
        Phase::Over(d) => d.text(),
        Phase::ResultDue(d) => format!("decided {}", d.text()),
        Phase::AwaitingExtra { late } => format!("in progress ({} ran out of time)", late.name()),
        Phase::Playing => "in progress".into(),
    }
}

/// Whose turn it is, or that the game is decided, as `fgn show` writes it
/// from the progress a viewer knows.
pub fn turn_text(progress: &Progress) -> String {
    match progress.status {
        Phase::Over(_) => return "the game is over".into(),
        Phase::ResultDue(_) => return "the game is decided; the log owes its result".into(),
        Phase::Playing | Phase::AwaitingExtra { .. } => {}
    }
    match progress.turn {
        Some(Turn::Setup { ready }) => {
            let who = |r: bool| if r { "ready" } else { "setting up" };
            format!("setup (white {}, black {})", who(ready.white), who(ready.black))
        }
        Some(Turn::Move { side, number }) => format!("move {number}, {} to move", side.name()),
        // A game in play has a turn; only a decided one has none.
        None => "the game is decided; the log owes its result".into(),
    }
}

/// What is said of a rule error that
/// [`hidden_fault`](fgn_tools::align::hidden_fault) keeps from `side`.
pub fn hidden_fault_message(name: &str, side: Color) -> String {
    format!(
        "the log breaks a rule at an event {} may not see, so its view ends before it; \
         the event and the rule are not shown here (`fgn validate {name}` shows them)",
        side.name()
    )
}

pub use fgn_tools::inputs::io_error_text;
