//! How results leave the program: diagnostics on standard error (as text or
//! as JSON lines) and the exit code.

use std::process::ExitCode;

use clap::ValueEnum;
use fgn_notation::diagnostic::{Diagnostic, Severity};

/// How diagnostics are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// For people: the message, the place and the source line with a caret.
    #[default]
    Text,
    /// For programs: one JSON object per line on standard error.
    Json,
}

/// The exit status of a run, the worst that happened: 0 success, 1 an
/// input is invalid, 2 a usage or I/O error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Status {
    /// Everything was fine.
    #[default]
    Ok = 0,
    /// Some input is invalid.
    Invalid = 1,
    /// The command could not do its work.
    Error = 2,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s as u8)
    }
}

/// Collects the outcome of a command and writes its diagnostics.
#[derive(Debug, Default)]
pub struct Reporter {
    /// The chosen output format for diagnostics.
    pub format: Format,
    /// The worst status so far.
    pub status: Status,
}

impl Reporter {
    /// A reporter writing in `format`.
    pub fn new(format: Format) -> Reporter {
        Reporter {
            format,
            status: Status::Ok,
        }
    }

    fn raise(&mut self, s: Status) {
        self.status = self.status.max(s);
    }

    /// Takes in the status of a report made elsewhere (a worker's, on one file).
    pub fn merge(&mut self, s: Status) {
        self.raise(s);
    }

    /// A fault in an input, found while reading or checking it.
    pub fn diagnostic(&mut self, file: &str, d: &Diagnostic, kind: &str) {
        // A warning (a torn last line) is reported but leaves the status alone:
        // the complete lines before it are what the command works on.
        let kind = match d.severity {
            Severity::Error => {
                self.raise(Status::Invalid);
                kind
            }
            Severity::Warning => "warning",
        };
        match self.format {
            Format::Text => crate::out::eprint(&d.render(file)),
            Format::Json => errln!(
                "{}",
                serde_json::json!({"file": file, "line": d.line, "column": d.column, "kind": kind, "message": d.message})
            ),
        }
    }

    /// An input is invalid for a reason that has no single place.
    pub fn invalid(&mut self, file: &str, message: &str) {
        self.raise(Status::Invalid);
        match self.format {
            Format::Text => errln!("error: {file}: {message}"),
            Format::Json => errln!(
                "{}",
                serde_json::json!({"file": file, "kind": "invalid", "message": message})
            ),
        }
    }

    /// A rule broken at a place in a log.
    pub fn rule_error(&mut self, file: &str, line: u32, column: u32, rule: &str, message: &str) {
        self.raise(Status::Invalid);
        match self.format {
            Format::Text => errln!("{file}:{line}:{column}: [{rule}] {message}"),
            Format::Json => errln!(
                "{}",
                serde_json::json!({"file": file, "line": line, "column": column, "kind": "rule", "rule": rule, "message": message})
            ),
        }
    }

    /// A log whose game has no rules engine yet: never reported as valid.
    pub fn unsupported(&mut self, file: &str, message: &str) {
        self.raise(Status::Error);
        match self.format {
            Format::Text => errln!("{file}: unsupported: {message}"),
            Format::Json => errln!(
                "{}",
                serde_json::json!({"file": file, "kind": "unsupported", "message": message})
            ),
        }
    }

    /// In JSON mode, one line per file on standard output with its status.
    pub fn file_status(&self, file: &str, status: &str, result: Option<&str>) {
        if self.format == Format::Json {
            outln!(
                "{}",
                serde_json::json!({"file": file, "status": status, "result": result})
            );
        }
    }

    /// A usage or I/O error.
    pub fn error(&mut self, message: &str) {
        self.raise(Status::Error);
        match self.format {
            Format::Text => errln!("error: {message}"),
            Format::Json => errln!("{}", serde_json::json!({"kind": "error", "message": message})),
        }
    }

    /// A remark that changes nothing in the status.
    pub fn note(&self, message: &str) {
        match self.format {
            Format::Text => errln!("{message}"),
            Format::Json => errln!("{}", serde_json::json!({"kind": "note", "message": message})),
        }
    }
}
