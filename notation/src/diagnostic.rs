//! Diagnostics: what is wrong, where, shown against the source line.

use std::fmt::Write as _;

use serde::Serialize;

/// How serious a diagnostic is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file is not valid FGN.
    Error,
    /// The file's complete lines are valid, but something is off: a torn
    /// last line, which the tools leave out and report.
    Warning,
}

/// A problem found in a log, pointing at a place in its text.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in characters (Unicode scalar values).
    pub column: u32,
    /// How many characters the fault spans (at least 1).
    #[serde(skip)]
    pub width: u32,
    /// What is wrong, usually "expected ..., found ...".
    pub message: String,
    /// The source line, for display; empty where it cannot be shown (invalid UTF-8).
    #[serde(skip)]
    pub source_line: String,
}

impl Diagnostic {
    /// A diagnostic at a byte range of `line_text` (the line's text, or ""
    /// when it is not valid UTF-8).
    pub fn at_bytes(line: u32, line_text: &str, start: usize, len: usize, message: impl Into<String>) -> Diagnostic {
        let start = start.min(line_text.len());
        let column = line_text.get(..start).map_or(start, |p| p.chars().count()) as u32 + 1;
        let end = (start + len).min(line_text.len());
        let width = line_text.get(start..end).map_or(1, |t| t.chars().count()).max(1) as u32;
        Diagnostic {
            severity: Severity::Error,
            line,
            column,
            width,
            message: message.into(),
            source_line: line_text.to_string(),
        }
    }

    /// The diagnostic as a compiler-style report naming `path`:
    ///
    /// ```text
    /// error: expected a square such as e4, found `z99`
    ///   --> game.fgn:4:7
    ///    |
    ///  4 | 1 w e2-z99
    ///    |       ^^^
    /// ```
    pub fn render(&self, path: &str) -> String {
        let mut out = String::new();
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{label}: {}", self.message);
        let _ = writeln!(out, "  --> {path}:{}:{}", self.line, self.column);
        if !self.source_line.is_empty() {
            let num = self.line.to_string();
            let pad = " ".repeat(num.len());
            // Printable text only: a line with control characters is shown
            // with them replaced, so the terminal is never driven by input.
            let shown: String = self
                .source_line
                .chars()
                .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
                .collect();
            let _ = writeln!(out, " {pad} |");
            let _ = writeln!(out, " {num} | {shown}");
            let _ = writeln!(
                out,
                " {pad} | {}{}",
                " ".repeat(self.column as usize - 1),
                "^".repeat(self.width as usize)
            );
        }
        out
    }

    /// One line: `path:line:col: message`.
    pub fn one_line(&self, path: &str) -> String {
        format!("{path}:{}:{}: {}", self.line, self.column, self.message)
    }
}
