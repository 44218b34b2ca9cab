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

/// What went wrong with a file, in words: "no such file or directory",
/// "permission denied", ... Rust's own text of an I/O error ends with the
/// system's error number (`(os error 2)`), which tells a user nothing, so
/// every message about a file that cannot be read or written says it
/// through here.
pub fn io_error_text(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let words = match e.kind() {
        ErrorKind::NotFound => "no such file or directory",
        ErrorKind::PermissionDenied => "permission denied",
        ErrorKind::AlreadyExists => "it already exists",
        ErrorKind::IsADirectory => "it is a directory",
        ErrorKind::NotADirectory => "a part of the path is not a directory",
        ErrorKind::DirectoryNotEmpty => "the directory is not empty",
        ErrorKind::StorageFull => "no space left on the device",
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only",
        ErrorKind::FileTooLarge => "the file is too large",
        ErrorKind::InvalidFilename => "the name is too long or not allowed",
        ErrorKind::WouldBlock => "it is locked by another process",
        ErrorKind::Interrupted => "interrupted",
        ErrorKind::BrokenPipe => "the reader went away",
        _ => {
            // Another error: the system's words, without the number, in
            // lower case as every other message is.
            let text = e.to_string();
            let text = match text.find(" (os error ") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
            let mut chars = text.chars();
            return match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => "an unknown input or output error".into(),
            };
        }
    };
    words.into()
}
