//! How results leave the program: diagnostics on standard error (as text or
//! as JSON lines) and the exit code.

use clap::ValueEnum;
use fgn_notation::diagnostic::{Diagnostic, Severity};

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use crate::out::{errln, outln, Capture, Captured, Output, Paint, Stream};

/// How diagnostics are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// For people: the message, the place and the source line with a caret.
    #[default]
    Text,
    /// For programs: one JSON object per line on standard error.
    Json,
}

/// What `--format` asks for: a [`Format`] for every command, an SVG
/// board, which only `fgn show` draws, or b3sum's lines, which only `fgn
/// hash` writes (their diagnostics are text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum FormatArg {
    /// For people.
    #[default]
    Text,
    /// For programs.
    Json,
    /// An SVG board (`fgn show` only).
    Svg,
    /// Log hashes as b3sum writes its lines, bare hex (`fgn hash` only).
    B3sum,
}

impl FormatArg {
    /// How diagnostics and results are written: text for an SVG board
    /// and for b3sum's lines.
    pub fn format(self) -> Format {
        match self {
            FormatArg::Json => Format::Json,
            FormatArg::Text | FormatArg::Svg | FormatArg::B3sum => Format::Text,
        }
    }
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

/// How a text diagnostic with a place is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// Compiler-style: the message, `--> file:line:col` and the source line
    /// with a caret under the fault, for the commands that only read the
    /// syntax (`fmt`, `json`, `from-json`).
    #[default]
    Caret,
    /// One line, `file:line:col: [kind] message`, for every command that
    /// replays: every fault of a file, syntax or rule, on a line of its
    /// own and in the same form, ready for grep.
    Line,
}

/// A diagnostic with a place, kept until its file is done so that the
/// file's diagnostics go out sorted by line and column.
#[derive(Debug)]
struct Held {
    line: u32,
    column: u32,
    text: String,
}

/// Collects the outcome of a command and writes its diagnostics, and
/// everything else the command writes, to the run's [`Output`].
#[derive(Debug)]
pub struct Reporter<'r> {
    /// Where the run writes, and its settings.
    io: &'r Output<'r>,
    /// The chosen output format for diagnostics.
    pub format: Format,
    /// The worst status so far.
    pub status: Status,
    /// `--quiet`: no notes and no summary lines, only errors and the
    /// output asked for.
    pub quiet: bool,
    /// How text diagnostics with a place are written.
    pub style: Style,
    /// `--strict`: every warning is an error (exit 1, and the file it is
    /// about counts as invalid).
    pub strict: bool,
    /// How many warnings this reporter wrote (a file's, for a per-file
    /// reporter).
    pub warnings: usize,
    /// The current file's diagnostics with a place, while they are held
    /// ([`Reporter::for_file`]).
    held: Option<Vec<Held>>,
    /// What this reporter writes is kept here until its turn comes (a
    /// worker's report on one file), when there is one.
    capture: Mutex<Option<Capture>>,
}

impl<'r> Reporter<'r> {
    /// A reporter writing in `format` to `io`.
    pub fn new(io: &'r Output<'r>, format: Format) -> Reporter<'r> {
        Reporter {
            io,
            format,
            status: Status::Ok,
            quiet: false,
            style: Style::default(),
            strict: false,
            warnings: 0,
            held: None,
            capture: Mutex::new(None),
        }
    }

    /// Where the run writes, and its settings.
    pub fn io(&self) -> &'r Output<'r> {
        self.io
    }

    /// A reporter for one file's report, with this one's settings, that
    /// holds the diagnostics with a place until [`Reporter::flush`] writes
    /// them in file order: a torn last line found while reading is then
    /// reported after the rule error that an earlier line breaks.
    pub fn for_file(&self) -> Reporter<'r> {
        Reporter {
            held: Some(Vec::new()),
            ..Reporter::new(self.io, self.format)
        }
        .with_settings(self)
    }

    /// A reporter for one file's report, as [`Reporter::for_file`], whose
    /// report is never written: how a report is held while the work is
    /// checked (a leaderboard's trial validation).
    pub fn scratch(&self) -> Reporter<'r> {
        let scratch = self.for_file();
        scratch.capture_until(None);
        scratch
    }

    fn with_settings(mut self, from: &Reporter<'_>) -> Reporter<'r> {
        self.quiet = from.quiet;
        self.style = from.style;
        self.strict = from.strict;
        self
    }

    /// Keeps what this reporter writes from now on until `turn` says that
    /// every report before it is written; `None`: keeps it all.
    pub fn capture_until(&self, turn: Option<crate::out::ReportTurn>) {
        *self.capture.lock().unwrap_or_else(|e| e.into_inner()) = Some(Capture::until(turn));
    }

    /// What this reporter kept and has not yet written.
    pub fn take_captured(&self) -> Captured {
        self.capture
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .map(Capture::into_kept)
            .unwrap_or_default()
    }

    /// Writes `text` to `stream`, or keeps it until its turn.
    fn emit(&self, stream: Stream, text: &str) {
        let mut capture = self.capture.lock().unwrap_or_else(|e| e.into_inner());
        self.io.emit(capture.as_mut(), stream, text);
    }

    /// Writes `text` to standard output.
    pub fn print(&self, text: &str) {
        self.emit(Stream::Out, text);
    }

    /// Writes `text` to standard error.
    pub fn eprint(&self, text: &str) {
        self.emit(Stream::Err, text);
    }

    /// `text` in `paint` when `stream` is coloured in this run.
    pub fn paint(&self, paint: Paint, stream: Stream, text: &str) -> String {
        self.io.paint(paint, stream, text)
    }

    /// Writes the held diagnostics, sorted by line and column (a sort that
    /// keeps the order of diagnostics at the same place).
    pub fn flush(&mut self) {
        if let Some(mut held) = self.held.take() {
            held.sort_by_key(|h| (h.line, h.column));
            for h in held {
                self.eprint(&h.text);
            }
            self.held = Some(Vec::new());
        }
    }

    /// Drops the held diagnostics and the status they raised, for a command
    /// that reports a file it skips in a line of its own (`leaderboard`).
    pub fn withdraw(&mut self) {
        if let Some(held) = self.held.as_mut() {
            held.clear();
            self.status = Status::Ok;
        }
    }

    /// Writes, or holds, a diagnostic at `line`:`column`.
    fn placed(&mut self, line: u32, column: u32, text: String) {
        match self.held.as_mut() {
            Some(held) => held.push(Held { line, column, text }),
            None => self.eprint(&text),
        }
    }

    /// `file:line:col` as text diagnostics write it, bold on a terminal.
    fn place(&self, file: &str, line: u32, column: u32) -> String {
        self.paint(Paint::Strong, Stream::Err, &format!("{file}:{line}:{column}"))
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
        // A warning (a torn last line) is reported but leaves the status alone
        // unless `--strict`: the complete lines before it are what the
        // command works on.
        let kind = match d.severity {
            Severity::Error => {
                self.raise(Status::Invalid);
                kind
            }
            Severity::Warning => {
                self.count_warning();
                "warning"
            }
        };
        let text = match (self.format, self.style) {
            (Format::Text, Style::Caret) => {
                // The report as the notation renders it, with its severity
                // and its place painted on a terminal.
                let (label, paint) = match d.severity {
                    Severity::Error => ("error", Paint::Error),
                    Severity::Warning => ("warning", Paint::Warning),
                };
                let plain = d.render(file);
                let at = format!("{file}:{}:{}", d.line, d.column);
                let body = plain.strip_prefix(label).unwrap_or(&plain);
                format!("{}{}", self.paint(paint, Stream::Err, label), body).replacen(
                    &format!("--> {at}"),
                    &format!("--> {}", self.paint(Paint::Strong, Stream::Err, &at)),
                    1,
                )
            }
            (Format::Text, Style::Line) => {
                let paint = match d.severity {
                    Severity::Error => Paint::Error,
                    Severity::Warning => Paint::Warning,
                };
                format!(
                    "{}: {} {}\n",
                    self.place(file, d.line, d.column),
                    self.paint(paint, Stream::Err, &format!("[{kind}]")),
                    d.message
                )
            }
            (Format::Json, _) => format!(
                "{}\n",
                serde_json::json!({"file": file, "line": d.line, "column": d.column, "kind": kind, "message": d.message})
            ),
        };
        self.placed(d.line, d.column, text);
    }

    /// Counts a warning, which `--strict` makes an error.
    fn count_warning(&mut self) {
        self.warnings += 1;
        if self.strict {
            self.raise(Status::Invalid);
        }
    }

    /// Whether `--strict` turns this reporter's warnings into a fault of
    /// its file.
    pub fn strict_fault(&self) -> bool {
        self.strict && self.warnings > 0
    }

    /// A warning about a file that is not a syntax error: a tag that looks
    /// like a parameter (at its `line`), random outcomes never checked (the
    /// log as a whole). Written as validate writes faults, `[warning]`;
    /// `--strict` makes it an error.
    pub fn warning(&mut self, file: &str, line: Option<u32>, message: &str) {
        self.count_warning();
        let text = match (self.format, line) {
            (Format::Text, Some(line)) => format!(
                "{}: {} {message}\n",
                self.place(file, line, 1),
                self.paint(Paint::Warning, Stream::Err, "[warning]")
            ),
            (Format::Text, None) => format!(
                "{}: {} {message}\n",
                self.paint(Paint::Strong, Stream::Err, file),
                self.paint(Paint::Warning, Stream::Err, "[warning]")
            ),
            (Format::Json, Some(line)) => format!(
                "{}\n",
                serde_json::json!({"file": file, "line": line, "column": 1, "kind": "warning", "message": message})
            ),
            (Format::Json, None) => format!(
                "{}\n",
                serde_json::json!({"file": file, "kind": "warning", "message": message})
            ),
        };
        // A warning about the log as a whole goes after its placed ones.
        self.placed(line.unwrap_or(u32::MAX), 1, text);
    }

    /// An input is invalid for a reason that has no single place.
    pub fn invalid(&mut self, file: &str, message: &str) {
        self.raise(Status::Invalid);
        match self.format {
            Format::Text => errln!(
                self,
                "{} {file}: {message}",
                self.paint(Paint::Error, Stream::Err, "error:")
            ),
            Format::Json => errln!(
                self,
                "{}",
                serde_json::json!({"file": file, "kind": "invalid", "message": message})
            ),
        }
    }

    /// A rule broken at a place in a log.
    pub fn rule_error(&mut self, file: &str, line: u32, column: u32, rule: &str, message: &str) {
        self.raise(Status::Invalid);
        let text = match self.format {
            Format::Text => format!(
                "{}: {} {message}\n",
                self.place(file, line, column),
                self.paint(Paint::Error, Stream::Err, &format!("[{rule}]"))
            ),
            Format::Json => format!(
                "{}\n",
                serde_json::json!({"file": file, "line": line, "column": column, "kind": "rule", "rule": rule, "message": message})
            ),
        };
        self.placed(line, column, text);
    }

    /// A log that cannot be checked (a game or a `Rules` version without an
    /// engine, a player's view): never reported as valid. Every command
    /// says it in these words, `FILE: unsupported: why`.
    pub fn unsupported(&mut self, file: &str, message: &str) {
        self.raise(Status::Error);
        self.write_unsupported(file, message);
    }

    fn write_unsupported(&self, file: &str, message: &str) {
        match self.format {
            Format::Text => errln!(
                self,
                "{file}: {} {message}",
                self.paint(Paint::Warning, Stream::Err, "unsupported:")
            ),
            Format::Json => errln!(
                self,
                "{}",
                serde_json::json!({"file": file, "kind": "unsupported", "message": message})
            ),
        }
    }

    /// In JSON mode, one line per file on standard output, `"type":
    /// "result"`, with its status and, for a log that replays, where its
    /// shared rules stand: the phase, outcome and reason spelled as in the
    /// summary (docs/json.md §15). With it, whether a revealed seed checked
    /// the log's random outcomes (`null` for a game without any, or a log
    /// that does not replay), how many warnings the file had (the
    /// reporter's own count) and `error`, the first fault as the summary
    /// words it (`null` where there is none to give).
    pub fn file_status(
        &self,
        file: &str,
        status: &str,
        phase: Option<fgn_replay::Phase>,
        outcomes_checked: Option<bool>,
        error: Option<&fgn_tools::summary::LogFault>,
    ) {
        if self.format == Format::Json {
            let (phase, decision) = match phase.map(fgn_tools::summary::phase_parts) {
                Some((name, decision)) => (Some(name), decision),
                None => (None, None),
            };
            outln!(
                self,
                "{}",
                serde_json::json!({"type": "result", "file": file, "status": status, "phase": phase,
                    "outcome": decision.map(|d| d.0), "reason": decision.map(|d| d.1),
                    "outcomes_checked": outcomes_checked, "warnings": self.warnings, "error": error})
            );
        }
    }

    /// A log that cannot be checked, said as [`Reporter::unsupported`]
    /// says it, where that is no error of the run (`select`, `stats` and
    /// `events` work on its summary or its text): a note, which --quiet
    /// leaves out.
    pub fn unsupported_note(&mut self, file: &str, message: &str) {
        if !self.quiet {
            self.write_unsupported(file, message);
        }
    }

    /// A usage or I/O error.
    pub fn error(&mut self, message: &str) {
        self.raise(Status::Error);
        match self.format {
            Format::Text => errln!(self, "{} {message}", self.paint(Paint::Error, Stream::Err, "error:")),
            Format::Json => errln!(self, "{}", serde_json::json!({"kind": "error", "message": message})),
        }
    }

    /// A file named on the command line (or found in a directory) that
    /// cannot be used or read: an I/O error that names the file, in JSON
    /// too (`"file"`).
    pub fn file_error(&mut self, file: &str, message: &str) {
        self.raise(Status::Error);
        match self.format {
            Format::Text => errln!(
                self,
                "{} {file}: {message}",
                self.paint(Paint::Error, Stream::Err, "error:")
            ),
            Format::Json => errln!(
                self,
                "{}",
                serde_json::json!({"file": file, "kind": "error", "message": message})
            ),
        }
    }

    /// Writes `bytes` to the new file `path`, the one overwrite policy of
    /// every `--out`: a file that exists is refused unless `force`, so
    /// that a second run never destroys the first one's files unasked.
    /// The error is the whole message, naming the file.
    pub fn write_file(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true);
        if force {
            options.create(true).truncate(true);
        } else {
            options.create_new(true);
        }
        options
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => {
                    format!(
                        "{}: not written: it already exists (--force overwrites it)",
                        path.display()
                    )
                }
                _ => format!("{}: not written: {}", path.display(), crate::texts::io_error_text(&e)),
            })
    }

    /// Says what a command wrote into files with `--out`, once, on
    /// standard error (a note: --quiet leaves it out): `wrote FILE` for
    /// one file named by --out, `wrote N files in DIR` for a directory.
    pub fn wrote(&self, out: &Path, files: Option<usize>) {
        match files {
            None => self.note(&format!("wrote {}", out.display())),
            Some(n) => self.note(&format!("wrote {} in {}", crate::out::count(n, "file"), out.display())),
        }
    }

    /// A remark that changes nothing in the status; `--quiet` leaves it out.
    pub fn note(&self, message: &str) {
        if self.quiet {
            return;
        }
        match self.format {
            Format::Text => errln!(self, "{message}"),
            Format::Json => errln!(self, "{}", serde_json::json!({"kind": "note", "message": message})),
        }
    }
}
