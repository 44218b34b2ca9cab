//! Where a run's output goes, passed down as a value: its streams (the
//! process's own, or any writers a caller hands in, so that fgn can run
//! inside another program, more than once and on several threads at a
//! time) and the settings decided once for the run (colour, jobs, the
//! progress line). A worker's report is kept in its reporter until its
//! turn comes ([`Capture`]), so that reports go out in the order of the
//! inputs.

use std::cell::Cell;
use std::io::{IsTerminal, Read, Write};
use std::sync::Mutex;

/// Which stream a piece of output belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Out,
    /// Standard error.
    Err,
}

/// Output kept by a [`Capture`], in the order it was written.
pub type Captured = Vec<(Stream, String)>;

/// Asked before keeping more output: whether everything before this
/// output has been written, so that it may go straight out.
pub type ReportTurn = fgn_tools::parallel::Turn;

/// What a reporter keeps instead of writing, until its turn comes: how a
/// worker's report on one file waits for the reports of the files before
/// it without holding a long report (`fgn events` of a large log writes
/// gigabytes) in memory once it is its turn.
pub struct Capture {
    kept: Captured,
    /// `None`: keep everything (a report that is never written).
    turn: Option<ReportTurn>,
    /// The turn came: what was kept is written and the rest goes straight
    /// out.
    streaming: bool,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capture")
            .field("kept", &self.kept)
            .field("streaming", &self.streaming)
            .finish_non_exhaustive()
    }
}

impl Capture {
    /// A capture that writes once `turn` says so (`None`: never).
    pub fn until(turn: Option<ReportTurn>) -> Capture {
        Capture {
            kept: Vec::new(),
            turn,
            streaming: false,
        }
    }

    /// What was kept and not yet written.
    pub fn into_kept(self) -> Captured {
        self.kept
    }

    /// Keeps `text` unless its turn has come; when it has, gives back what
    /// was kept before it (to be written first) and `None` for the text,
    /// which is then written too.
    fn keep(&mut self, stream: Stream, text: &str) -> Option<Captured> {
        if self.streaming {
            return Some(Vec::new());
        }
        if self.turn.as_ref().is_some_and(|turn| turn()) {
            self.streaming = true;
            return Some(std::mem::take(&mut self.kept));
        }
        match self.kept.last_mut() {
            Some((s, last)) if *s == stream => last.push_str(text),
            _ => self.kept.push((stream, text.to_string())),
        }
        None
    }
}

/// Where fgn runs: as its own process, on the process's standard streams,
/// or inside another program, on the writers it was handed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// The `fgn` binary: a closed pipe ends the process at once (as Unix
    /// tools do), a terminal gets colour and a progress line, clap writes
    /// its own messages. `stdout_closed`: standard output was closed when
    /// the process started, as only the binary can tell ([`crate::main`]).
    Process { stdout_closed: bool },
    /// Inside another program (a test, a server): nothing ends the process
    /// or looks at a terminal; a write that fails stops the run's output
    /// and sets its exit code.
    Embedded,
}

/// The streams of one run and the settings decided for it, shared by
/// reference with every worker of the run.
pub struct Output<'a> {
    out: Mutex<&'a mut (dyn Write + Send)>,
    err: Mutex<&'a mut (dyn Write + Send)>,
    stdin: Mutex<&'a mut (dyn Read + Send)>,
    host: Host,
    /// Why standard output cannot be written, when it was closed before
    /// the run started.
    closed: Option<String>,
    /// The exit code a failed write of an embedded run ended it with.
    ended: Mutex<Option<u8>>,
    /// Whether standard output and standard error are coloured.
    colors: (bool, bool),
    /// How many inputs run at once.
    jobs: usize,
    /// Whether a long run may show a progress line on standard error.
    progress: bool,
    /// Whether directory walks take hidden files and directories (`--hidden`).
    hidden: bool,
}

impl std::fmt::Debug for Output<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("host", &self.host)
            .field("colors", &self.colors)
            .field("jobs", &self.jobs)
            .field("progress", &self.progress)
            .finish_non_exhaustive()
    }
}

impl<'a> Output<'a> {
    /// The output of a run on these streams, before its settings are known
    /// (a usage error is written before they are): no colour, one job.
    pub fn new(
        host: Host,
        stdin: &'a mut (dyn Read + Send),
        out: &'a mut (dyn Write + Send),
        err: &'a mut (dyn Write + Send),
    ) -> Output<'a> {
        let closed =
            matches!(host, Host::Process { stdout_closed: true }).then(|| "it was closed when fgn started".to_string());
        Output {
            out: Mutex::new(out),
            err: Mutex::new(err),
            stdin: Mutex::new(stdin),
            host,
            closed,
            ended: Mutex::new(None),
            colors: (false, false),
            jobs: 1,
            progress: false,
            hidden: false,
        }
    }

    /// Decides the run's settings from the command line: which streams
    /// get colour, how many jobs, whether a progress line may show.
    ///
    /// With `auto` a stream is coloured when it is a terminal and the
    /// `NO_COLOR` variable is unset or empty (no-color.org); an explicit
    /// `always` or `never` wins over the variable, as a command-line flag
    /// wins over the environment. An embedded run's streams are never
    /// terminals. `jobs` (`None` or 0): one per core.
    pub fn settle(&mut self, color: ColorChoice, jobs: Option<usize>) {
        let process = matches!(self.host, Host::Process { .. });
        let terminals = (
            process && std::io::stdout().is_terminal(),
            process && std::io::stderr().is_terminal(),
        );
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let auto = |terminal: bool| terminal && !no_color;
        self.colors = match color {
            ColorChoice::Always => (true, true),
            ColorChoice::Never => (false, false),
            ColorChoice::Auto => (auto(terminals.0), auto(terminals.1)),
        };
        self.jobs = jobs
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        self.progress = terminals.1 && std::env::var_os("FGN_NO_PROGRESS").is_none();
    }

    /// Makes directory walks take hidden files and directories too
    /// (`--hidden`; [`fgn_tools::inputs::walk`]).
    pub fn walk_hidden(&mut self, hidden: bool) {
        self.hidden = hidden;
    }

    /// Whether directory walks take hidden files and directories.
    pub fn hidden(&self) -> bool {
        self.hidden
    }

    /// How many inputs run at once.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// Whether a long run may show a progress line on standard error.
    pub fn progress(&self) -> bool {
        self.progress
    }

    /// Whether what goes to `stream` is coloured.
    pub fn colored(&self, stream: Stream) -> bool {
        match stream {
            Stream::Out => self.colors.0,
            Stream::Err => self.colors.1,
        }
    }

    /// `text` in `paint` when `stream` is coloured, else `text` as it is.
    pub fn paint(&self, paint: Paint, stream: Stream, text: &str) -> String {
        paint.paint(self.colored(stream), text)
    }

    /// Runs `f` with [`Paint::on`] painting as this run colours `stream`:
    /// for the drawing of boards, which paints without the output at hand.
    pub fn painting<T>(&self, stream: Stream, f: impl FnOnce() -> T) -> T {
        let outer = PAINTING.with(|p| p.replace(self.colored(stream)));
        let value = f();
        PAINTING.with(|p| p.set(outer));
        value
    }

    /// The exit code a failed write ended an embedded run with.
    pub fn ended(&self) -> Option<u8> {
        *self.ended.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the run with `code` after a write failed: the process at once,
    /// or, embedded, every later write.
    fn end(&self, code: u8) {
        match self.host {
            Host::Process { .. } => std::process::exit(code.into()),
            Host::Embedded => {
                let mut ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
                ended.get_or_insert(code);
            }
        }
    }

    /// Reads standard input, at most `limit` bytes, into `buf`.
    pub fn read_stdin(&self, limit: u64, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
        (&mut **stdin).take(limit).read_to_end(buf)
    }

    /// Runs `read` on standard input, held for it meanwhile: how a command
    /// reads standard input as a stream (`fgn from-json -`) rather than
    /// whole.
    pub fn with_stdin<T>(&self, read: impl FnOnce(&mut (dyn Read + Send)) -> T) -> T {
        let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
        read(&mut **stdin)
    }

    /// Writes `text` to `stream`.
    pub fn write(&self, stream: Stream, text: &str) {
        match stream {
            Stream::Out => self.write_out(text),
            Stream::Err => self.write_err(text),
        }
    }

    /// Writes `text` to standard output. When the reader has gone away (a
    /// closed pipe, as in `fgn json archive/ | head -1`) the run ends
    /// quietly with exit code 0, as Unix tools do when their reader has all
    /// it wanted; any other write error, and a standard output that is not
    /// open at all (`fgn hash FILE >&-`), ends it with exit code 2.
    fn write_out(&self, text: &str) {
        if self.ended().is_some() {
            return;
        }
        if let Some(e) = &self.closed {
            self.write_err(&format!("error: cannot write to standard output: {e}\n"));
            return self.end(2);
        }
        let result = {
            let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        };
        if let Err(e) = result {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return self.end(0);
            }
            self.write_err(&format!(
                "error: cannot write to standard output: {}\n",
                crate::texts::io_error_text(&e)
            ));
            self.end(2);
        }
    }

    /// Writes `text` to standard error. Diagnostics that cannot be written
    /// (a full disk, `2>/dev/full`, a closed pipe) are lost, but never end
    /// the run with a panic: the exit code still tells what happened.
    fn write_err(&self, text: &str) {
        if self.ended().is_some() {
            return;
        }
        let mut err = self.err.lock().unwrap_or_else(|e| e.into_inner());
        let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
    }

    /// Writes `text` to `stream`, or keeps it in `capture` until its turn.
    pub fn emit(&self, capture: Option<&mut Capture>, stream: Stream, text: &str) {
        let Some(capture) = capture else {
            return self.write(stream, text);
        };
        if let Some(earlier) = capture.keep(stream, text) {
            self.replay(earlier);
            self.write(stream, text);
        }
    }

    /// Writes what a [`Capture`] kept, each piece to its stream.
    pub fn replay(&self, captured: Captured) {
        for (stream, text) in captured {
            self.write(stream, &text);
        }
    }
}

thread_local! {
    /// Whether [`Paint::on`] paints on this thread: set by
    /// [`Output::painting`] for as long as a board is drawn.
    static PAINTING: Cell<bool> = const { Cell::new(false) };
}

/// When to colour output (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a stream only when it is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file, and whatever `NO_COLOR` says.
    Always,
    /// Never colour.
    Never,
}

/// A colour or emphasis of terminal text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// Errors: bold red.
    Error,
    /// Warnings: bold yellow.
    Warning,
    /// Places (file:line:col) and headings: bold.
    Strong,
    /// What matters less, such as fog and coordinates: dim.
    Dim,
}

impl Paint {
    /// `text` in this paint inside [`Output::painting`], else `text` as
    /// it is (the stream is the one `painting` was asked about).
    pub fn on(self, _stream: Stream, text: &str) -> String {
        self.paint(PAINTING.with(Cell::get), text)
    }

    /// `text` in this paint when `colored`, else `text` as it is.
    pub fn paint(self, colored: bool, text: &str) -> String {
        if !colored {
            return text.to_string();
        }
        let code = match self {
            Paint::Error => "1;31",
            Paint::Warning => "1;33",
            Paint::Strong => "1",
            Paint::Dim => "2",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

/// `n word` with the word in the plural unless `n` is 1: `1 coin`,
/// `0 coins`, `2 logs` (the words fgn counts all take an `s`).
pub fn count(n: usize, word: &str) -> String {
    match n {
        1 => format!("1 {word}"),
        n => format!("{n} {word}s"),
    }
}

/// `println!` through a reporter's output: `outln!(rep, "...")`.
macro_rules! outln {
    ($rep:expr, $($t:tt)*) => {
        $rep.print(&format!("{}\n", format_args!($($t)*)))
    };
}

/// `eprintln!` through a reporter's output: `errln!(rep, "...")`.
macro_rules! errln {
    ($rep:expr, $($t:tt)*) => {
        $rep.eprint(&format!("{}\n", format_args!($($t)*)))
    };
}

pub(crate) use {errln, outln};

/// The input `-` of a run is the stream the run was given.
impl fgn_tools::inputs::Stdin for Output<'_> {
    fn read_stdin(&self, limit: u64, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        Output::read_stdin(self, limit, buf)
    }
}
