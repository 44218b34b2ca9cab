//! Standard output that never panics, and the capture that lets a worker
//! thread's output be written later, in the order of the inputs.

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::sync::OnceLock;

/// Which stream a piece of captured output belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Out,
    /// Standard error.
    Err,
}

/// Output written while [`capture`] ran, in the order it was written.
pub type Captured = Vec<(Stream, String)>;

thread_local! {
    /// The capture running on this thread, if any.
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// A capture: what was kept, and whether its output's turn has come.
struct Capture {
    kept: Captured,
    /// Asked before keeping more: whether everything before this output
    /// has been written, so that it may go straight out. `None`: keep all.
    turn: Option<Box<dyn Fn() -> bool>>,
    /// The turn came: what was kept is written and the rest goes straight
    /// out.
    streaming: bool,
}

/// Runs `f` with everything it prints through this module kept instead of
/// written, and returns it with `f`'s value: how a report is held while
/// the work is checked (a leaderboard's trial validation).
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, Captured) {
    capture_until(None, f)
}

/// [`capture`], but once `turn` says that every output before this one is
/// written, what was kept is written and the rest of `f`'s output goes
/// straight out: how a worker's report on one file waits for the reports
/// of the files before it without holding a long report (`fgn events` of
/// a large log writes gigabytes) in memory once it is its turn. What
/// comes back is what was kept and not yet written.
pub fn capture_until<R>(turn: Option<Box<dyn Fn() -> bool>>, f: impl FnOnce() -> R) -> (R, Captured) {
    let outer = CAPTURE.with(|c| {
        c.borrow_mut().replace(Capture {
            kept: Vec::new(),
            turn,
            streaming: false,
        })
    });
    // The outer capture comes back even when `f` panics (a worker's panic
    // is caught further out, and the thread goes on to other files).
    struct Restore(Option<Option<Capture>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                CAPTURE.with(|c| *c.borrow_mut() = outer);
            }
        }
    }
    let mut restore = Restore(Some(outer));
    let value = f();
    let outer = restore.0.take().expect("restored once");
    let captured = CAPTURE
        .with(|c| std::mem::replace(&mut *c.borrow_mut(), outer))
        .map(|c| c.kept)
        .unwrap_or_default();
    (value, captured)
}

/// Writes what [`capture`] kept, each piece to its stream.
pub fn replay(captured: Captured) {
    for (stream, text) in captured {
        match stream {
            Stream::Out => print(&text),
            Stream::Err => eprint(&text),
        }
    }
}

/// Keeps `text` in the running capture, if there is one and its turn has
/// not come; gives it back when there is none or it is its turn (having
/// written what was kept before it).
fn kept(stream: Stream, text: &str) -> bool {
    let earlier = CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        None => Some(Vec::new()),
        Some(c) if c.streaming => Some(Vec::new()),
        Some(c) if c.turn.as_ref().is_some_and(|turn| turn()) => {
            c.streaming = true;
            Some(std::mem::take(&mut c.kept))
        }
        Some(c) => {
            match c.kept.last_mut() {
                Some((s, last)) if *s == stream => last.push_str(text),
                _ => c.kept.push((stream, text.to_string())),
            }
            None
        }
    });
    match earlier {
        Some(earlier) => {
            // Written outside the borrow: `replay` comes back here.
            for (s, t) in earlier {
                write_to(s, &t);
            }
            false
        }
        None => true,
    }
}

fn write_to(stream: Stream, text: &str) {
    match stream {
        Stream::Out => write_out(text),
        Stream::Err => write_err(text),
    }
}

/// Writes `text` to standard output. When the reader has gone away (a closed
/// pipe, as in `fgn json archive/ | head -1`) the program ends quietly with
/// exit code 0, as Unix tools do when their reader has all it wanted; any
/// other write error, and a standard output that is not open at all
/// (`fgn hash FILE >&-`), ends it with exit code 2.
pub fn print(text: &str) {
    if !kept(Stream::Out, text) {
        write_out(text);
    }
}

fn write_out(text: &str) {
    if let Err(e) = stdout_open() {
        eprint(&format!("error: cannot write to standard output: {e}\n"));
        std::process::exit(2);
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprint(&format!("error: cannot write to standard output: {e}\n"));
        std::process::exit(2);
    }
}

/// Whether standard output was open when fgn started, asked once. Rust's
/// runtime puts `/dev/null`, opened for reading and writing, in the place
/// of a standard descriptor that was closed (`fgn hash FILE >&-`), so the
/// output would go nowhere and the command exit 0. That is what is looked
/// for here: standard output that is `/dev/null` opened read-write (a
/// shell's `>/dev/null` opens it write-only). Where that cannot be told,
/// standard output counts as open.
fn stdout_open() -> Result<(), String> {
    static OPEN: OnceLock<Result<(), String>> = OnceLock::new();
    OPEN.get_or_init(|| {
        if closed_at_start() {
            Err("it was closed when fgn started".to_string())
        } else {
            Ok(())
        }
    })
    .clone()
}

/// Whether the runtime's `/dev/null` stands for a closed standard output.
#[cfg(target_os = "linux")]
fn closed_at_start() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return true;
    };
    let Ok(meta) = std::fs::File::from(fd).metadata() else {
        return false;
    };
    let null = std::fs::metadata("/dev/null").is_ok_and(|n| n.file_type().is_char_device() && n.rdev() == meta.rdev());
    if !meta.file_type().is_char_device() || !null {
        return false;
    }
    // The access mode is the low two bits of the octal `flags` (2: O_RDWR).
    std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .is_some_and(|flags| flags & 3 == 2)
    })
}

/// Elsewhere a closed standard output cannot be told from `/dev/null`.
#[cfg(not(target_os = "linux"))]
fn closed_at_start() -> bool {
    false
}

/// Writes `text` to standard error. Diagnostics that cannot be written (a
/// full disk, `2>/dev/full`, a closed pipe) are lost, but never end the
/// program with a panic: the exit code still tells what happened.
pub fn eprint(text: &str) {
    if !kept(Stream::Err, text) {
        write_err(text);
    }
}

fn write_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
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

/// Whether standard output and standard error are coloured in this run.
static COLOR: OnceLock<(bool, bool)> = OnceLock::new();

/// Decides, once and from `main`, which streams get colour. With `auto` a
/// stream is coloured when it is a terminal and the `NO_COLOR` variable is
/// unset or empty (no-color.org); an explicit `always` or `never` wins over
/// the variable, as a command-line flag wins over the environment.
pub fn set_color(choice: ColorChoice) {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let auto = |terminal: bool| terminal && !no_color;
    let decided = match choice {
        ColorChoice::Always => (true, true),
        ColorChoice::Never => (false, false),
        ColorChoice::Auto => (
            auto(std::io::stdout().is_terminal()),
            auto(std::io::stderr().is_terminal()),
        ),
    };
    let _ = COLOR.set(decided);
}

/// Whether what goes to `stream` is coloured.
pub fn colored(stream: Stream) -> bool {
    let (out, err) = COLOR.get().copied().unwrap_or((false, false));
    match stream {
        Stream::Out => out,
        Stream::Err => err,
    }
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
    /// `text` in this paint when `stream` is coloured, else `text` as it is.
    pub fn on(self, stream: Stream, text: &str) -> String {
        if !colored(stream) {
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

/// `println!` through [`print()`].
macro_rules! outln {
    ($($t:tt)*) => {
        $crate::out::print(&format!("{}\n", format_args!($($t)*)))
    };
}

/// `eprintln!` through [`eprint()`].
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::out::eprint(&format!("{}\n", format_args!($($t)*)))
    };
}

pub(crate) use outln;
