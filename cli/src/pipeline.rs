//! Runs a command over every input on all cores, streaming: each input is
//! read, parsed, worked on and reported by one worker, then dropped, so that
//! memory never grows with the number of files; the reports are written in
//! the order of the inputs, exactly as one job writes them.
//!
//! Why not rayon: its parallel iterators either collect every result before
//! the first is written (memory grows with the archive) or give them in any
//! order (`par_bridge`). What is needed here — a lazily walked list, workers
//! that never run more than a window ahead of the report, output in input
//! order — is a few locks and counters ([`run_parallel`]): the work is
//! handed out in batches, and whichever worker holds the next report writes
//! it, so that in a steady run no thread waits for another or wakes one
//! (issue 42).

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use fgn_notation::split::{game_name, split, stray_parsed, stray_streamed, GameBytes, GameText};
use fgn_notation::{parse, Diagnostic, Parsed};

use fgn_tools::inputs::{games_past_the_limit, io_error_text, walk, walk_games, Input, InputError};
use fgn_tools::parallel::{lock, run_parallel};

use crate::out::{Captured, ReportTurn};
use crate::report::{Reporter, Status};

/// A run this long shows a progress line on a terminal.
const PROGRESS_AFTER: Duration = Duration::from_millis(700);

/// One input, read and parsed; its syntax errors are already reported.
#[derive(Debug)]
pub struct Log {
    /// Where it came from.
    pub input: Input,
    /// Its name in messages.
    pub name: String,
    /// What was read.
    pub parsed: Parsed,
}

/// One log, read but not parsed: for a command that parses as it works
/// ([`each_read_until`]). An input that is a file of several games
/// (docs/notation.md §2.8) gives one of these per game, named `FILE#N`,
/// with the game's text; parse it with [`Read::parse`] or
/// [`Read::parse_in_runs`], which give the file's line numbers. Text
/// before the first game of such a file is a log of its own too, named
/// `FILE`, which reads as its one syntax error ([`Read::stray`]).
#[derive(Debug)]
pub struct Read {
    /// Where it came from.
    pub input: Input,
    /// Its name in messages.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// How many lines of the input stand before them (0 but for the later
    /// games of a file of several).
    pub lines_before: u32,
    /// The one syntax error of the text before the first game of a file of
    /// several (docs/notation.md §2.8), when this log is that text (its
    /// `bytes` are then empty). That text is no game, but every command
    /// takes it as a log that cannot be read, as it takes any other, so
    /// that the file is accounted for in its results (issue 38's rule).
    pub stray: Option<Diagnostic>,
}

impl Drop for Read {
    /// The log's bytes go back to be the thread's next read buffer.
    fn drop(&mut self) {
        fgn_tools::inputs::give_back(std::mem::take(&mut self.bytes));
    }
}

impl Read {
    /// The log as a game of its file, to parse it.
    fn game(&self) -> GameText<'_> {
        GameText {
            text: &self.bytes,
            first_line: self.lines_before.saturating_add(1),
            ordinal: None,
        }
    }

    /// [`fgn_notation::parse()`], with the file's line numbers.
    pub fn parse(&self) -> Parsed {
        if let Some(stray) = &self.stray {
            return stray_parsed(stray.clone());
        }
        if self.lines_before == 0 {
            return parse(&self.bytes);
        }
        self.game().parse()
    }

    /// [`fgn_notation::parse_in_runs`], with the file's line numbers.
    pub fn parse_in_runs(&self, each: impl FnMut(fgn_notation::Run<'_>)) -> fgn_notation::Streamed {
        if let Some(stray) = &self.stray {
            return stray_streamed(stray.clone());
        }
        if self.lines_before == 0 {
            return fgn_notation::parse_in_runs(&self.bytes, each);
        }
        self.game().parse_in_runs(each)
    }
}

/// Reports the syntax diagnostics of the input `name`, as every command
/// does before it works on a log.
pub fn report_syntax(rep: &mut Reporter<'_>, name: &str, diagnostics: &[fgn_notation::Diagnostic]) {
    for d in diagnostics {
        rep.diagnostic(name, d, "syntax");
    }
}

/// What a worker hands back for one input: its report (kept, to be written
/// in order), the status it raised, and the command's value for it (`None`
/// when the input could not be read).
struct Done<R> {
    /// The input is a file or the first game of one the walk read game by
    /// game: what the progress line counts, as its total does (a file of
    /// many games is one file there).
    starts_file: bool,
    captured: Captured,
    status: Status,
    /// One value per log: one for a file of one game, one per game for a
    /// file of several, in file order.
    value: Option<Vec<R>>,
}

/// What a run over the inputs met, for the commands' summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// Inputs read and worked on (whatever their content).
    pub read: usize,
    /// Paths that could not be used or read, and inputs whose work failed
    /// with an internal error (each reported as an error).
    pub unreadable: usize,
}

thread_local! {
    /// Whether this thread is inside [`guarded`]: its panics are reported
    /// as the file's internal error instead of by the default hook.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// The message and place of the last panic inside [`guarded`].
    static PANICKED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`, and gives back the message of its panic, if it panics,
/// instead of letting it end the thread. A worker that died would leave
/// its file's report missing, and the reports after it waiting forever
/// (issue 36); a bug met on one file is instead that file's internal
/// error, and the run goes on with the others.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(Cell::get) {
                return default(info);
            }
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line()));
            PANICKED.with(|p| *p.borrow_mut() = Some(format!("{message}{}", place.unwrap_or_default())));
            // Whoever debugs it with a backtrace asked for still gets one.
            if std::env::var_os("RUST_BACKTRACE").is_some() {
                default(info);
            }
        }));
    });
    let outer = GUARDED.with(|g| g.replace(true));
    let result = std::panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(outer));
    result.map_err(|_| {
        PANICKED
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "a panic".to_owned())
    })
}

/// A panic forced on the input whose name contains the value of
/// `FGN_DEBUG_PANIC`, to test that a worker's panic is survived. Only debug
/// builds (the test suite's) read the variable; a release build has no
/// such hook.
fn forced_panic(name: &str) {
    #[cfg(debug_assertions)]
    if let Some(wanted) = std::env::var_os("FGN_DEBUG_PANIC") {
        if name.contains(&*wanted.to_string_lossy()) {
            panic!("forced by FGN_DEBUG_PANIC");
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Reads, parses and works on every input of `paths`, in parallel with
/// [`jobs`] workers, and hands each value to `sink` in input order on this
/// thread. A path that cannot be used or read is reported as an error in
/// its place; syntax errors are reported before `work` sees the log, and
/// each file's diagnostics with a place go out sorted by line.
/// Everything `work` prints goes out in input order, as with one job.
pub fn each<R, W, S>(paths: &[PathBuf], rep: &mut Reporter, work: W, mut sink: S) -> Walked
where
    R: Send,
    W: Fn(Log, &mut Reporter) -> R + Sync,
    S: FnMut(R, &mut Reporter) + Send,
{
    each_until(paths, rep, work, |value, rep| {
        sink(value, rep);
        ControlFlow::Continue(())
    })
}

/// [`each`], stopped when `sink` breaks: nothing of the inputs after the
/// one it broke on is reported or handed on (whatever the workers had done
/// ahead is dropped), so where a run stops does not depend on `--jobs`.
pub fn each_until<R, W, S>(paths: &[PathBuf], rep: &mut Reporter, work: W, sink: S) -> Walked
where
    R: Send,
    W: Fn(Log, &mut Reporter) -> R + Sync,
    S: FnMut(R, &mut Reporter) -> ControlFlow<()> + Send,
{
    let work = |mut read: Read, rep: &mut Reporter| {
        let parsed = read.parse();
        report_syntax(rep, &read.name, &parsed.diagnostics);
        // Taken out of `read`, whose bytes go back to be read into again
        // when it is dropped.
        let log = Log {
            input: std::mem::replace(&mut read.input, Input::Stdin),
            name: std::mem::take(&mut read.name),
            parsed,
        };
        work(log, rep)
    };
    each_read_until(paths, rep, work, sink)
}

/// [`each_until`] with the inputs read but not parsed: `work` parses each
/// as it needs (`fgn validate` reads a log in runs of events) and reports
/// its syntax errors itself ([`report_syntax`]).
pub fn each_read_until<R, W, S>(paths: &[PathBuf], rep: &mut Reporter, work: W, sink: S) -> Walked
where
    R: Send,
    W: Fn(Read, &mut Reporter) -> R + Sync,
    S: FnMut(R, &mut Reporter) -> ControlFlow<()> + Send,
{
    run(paths, rep, true, work, sink)
}

/// [`each_read_until`] with each input whole, a file of several games
/// too (`lines_before` is 0): for `fmt --check` and `--write`, which check
/// and rewrite a file, not a game.
pub fn each_file_until<R, W, S>(paths: &[PathBuf], rep: &mut Reporter, work: W, sink: S) -> Walked
where
    R: Send,
    W: Fn(Read, &mut Reporter) -> R + Sync,
    S: FnMut(R, &mut Reporter) -> ControlFlow<()> + Send,
{
    run(paths, rep, false, work, sink)
}

/// [`each_read_until`], taking each game of a file of several as a log of
/// its own when `by_game`.
fn run<R, W, S>(paths: &[PathBuf], rep: &mut Reporter, by_game: bool, work: W, mut sink: S) -> Walked
where
    R: Send,
    W: Fn(Read, &mut Reporter) -> R + Sync,
    S: FnMut(R, &mut Reporter) -> ControlFlow<()> + Send,
{
    let template = rep.for_file();
    let io = rep.io();
    // Everything the work writes goes through its file's reporter, which
    // keeps it until `turn` says the reports before it are written.
    let process = |item: Result<Input, InputError>, turn: ReportTurn| -> Done<R> {
        let starts_file = !matches!(&item, Ok(Input::Game(game)) if game.ordinal.is_some_and(|n| n > 1));
        let mut file_rep = template.for_file();
        file_rep.capture_until(Some(turn));
        let value = match item.and_then(|mut input| input.take_bytes(io).map(|bytes| (input, bytes))) {
            Err(InputError {
                file: Some(file),
                message,
                ..
            }) => {
                file_rep.file_error(&file, &message);
                None
            }
            Err(InputError {
                file: None, message, ..
            }) => {
                file_rep.error(&message);
                None
            }
            Ok((mut input, mut bytes)) => {
                let name = input.name();
                // A report already on its way out when the work panics
                // stays (a report is written as soon as it is its turn);
                // the internal error follows it.
                let shown = name.clone();
                let done = guarded(|| {
                    // A game the walk read from its file is one log already,
                    // after the text before it when it is the file's first.
                    if let Input::Game(game) = &mut input {
                        let stray = game.before.take().map(|stray| (game.file.clone(), stray));
                        let lines_before = game.lines_before;
                        let mut values = Vec::new();
                        if let Some((file, stray)) = stray {
                            values.push(stray_log(&work, input.clone(), file, stray, &mut file_rep));
                        }
                        values.extend(one_log(&work, input, name, bytes, lines_before, &mut file_rep));
                        return values;
                    }
                    // A file of several games too large to read whole, found
                    // below a directory, is read again game by game, and
                    // standard input read on game by game.
                    if let Some(games) = by_game.then(|| games_past_the_limit(&input, &mut bytes, io)).flatten() {
                        return match games {
                            Ok(games) => each_game(input, &name, games, &work, &mut file_rep),
                            Err(e) => each_game(input, &name, std::iter::once(Err(e)), &work, &mut file_rep),
                        };
                    }
                    // A file of one game, nearly every input, is read as it
                    // always was, after a search of its text for a second
                    // `[Game` tag line.
                    if !by_game || split(&bytes).is_one_log() {
                        return one_log(&work, input, name, bytes, 0, &mut file_rep);
                    }
                    let games = split(&bytes).map(|game| {
                        Ok(game.map(|game| GameBytes {
                            text: game.text.to_vec(),
                            first_line: game.first_line,
                            ordinal: game.ordinal,
                        }))
                    });
                    each_game(input, &name, games, &work, &mut file_rep)
                });
                match done {
                    Ok(value) => Some(value),
                    Err(message) => {
                        file_rep.flush();
                        file_rep.file_error(
                            &shown,
                            &format!("internal error (a bug in fgn, please report it): {message}"),
                        );
                        None
                    }
                }
            }
        };
        Done {
            starts_file,
            captured: file_rep.take_captured(),
            status: file_rep.status,
            value,
        }
    };
    let empty = Mutex::new(Vec::new());
    let mut progress = Progress::new(!rep.quiet && io.progress(), paths, io.hidden());
    let mut seen = 0usize;
    let mut files_seen = 0usize;
    let mut walked = Walked::default();
    let mut stopped = false;
    let mut finish = |done: Done<R>, rep: &mut Reporter| -> ControlFlow<()> {
        seen += 1;
        files_seen += usize::from(done.starts_file);
        progress.suspend(|| io.replay(done.captured));
        rep.merge(done.status);
        let flow = match done.value {
            Some(values) => {
                let mut flow = ControlFlow::Continue(());
                for value in values {
                    walked.read += 1;
                    flow = progress.suspend(|| sink(value, rep));
                    if flow.is_break() {
                        break;
                    }
                }
                flow
            }
            None => {
                walked.unreadable += 1;
                ControlFlow::Continue(())
            }
        };
        progress.tick(files_seen);
        stopped = flow.is_break();
        flow
    };
    let jobs = io.jobs();
    let items = inputs(paths, io.hidden(), by_game, &empty);
    if jobs <= 1 {
        for item in items {
            // One job writes each report as it comes.
            let done = process(item, Box::new(|| true));
            if finish(done, rep).is_break() {
                break;
            }
        }
    } else {
        run_parallel(items, jobs, &process, |done| finish(done, rep));
    }
    progress.clear();
    // A run that stopped names only the directories without a log that
    // came before the input it stopped on, as one job, which walks no
    // further, finds them; workers may have walked ahead.
    let empty: Vec<String> = lock(&empty)
        .drain(..)
        .filter(|&(before, _)| !stopped || before < seen)
        .map(|(_, dir)| dir)
        .collect();
    report_empty(seen == 0, &empty, rep);
    walked
}

/// Works on one log, the input `input` named `name` or one of its games,
/// whose text `bytes` stands after `lines_before` lines of it.
fn one_log<R, W>(work: &W, input: Input, name: String, bytes: Vec<u8>, lines_before: u32, rep: &mut Reporter) -> Vec<R>
where
    W: Fn(Read, &mut Reporter) -> R,
{
    forced_panic(&name);
    let read = Read {
        input,
        name,
        bytes,
        lines_before,
        stray: None,
    };
    let value = work(read, rep);
    rep.flush();
    vec![value]
}

/// Works on the text before the first game of a file of several, named
/// `file` (the input `input`), as a log of its own that reads as its one
/// syntax error `stray` ([`Read::stray`]).
fn stray_log<R, W>(work: &W, input: Input, file: String, stray: Diagnostic, rep: &mut Reporter) -> R
where
    W: Fn(Read, &mut Reporter) -> R,
{
    forced_panic(&file);
    let read = Read {
        input,
        name: file,
        bytes: Vec::new(),
        lines_before: 0,
        stray: Some(stray),
    };
    let value = work(read, rep);
    rep.flush();
    value
}

/// Works on each of `games`, the games of the input `input` named `name`,
/// a file of several games, in file order: each is a log of its own, named
/// `FILE#N`, with the file's line numbers, its report written before the
/// next is read. Text before the first game is a log of its own too, named
/// `FILE`, which reads as its one syntax error. A read error (`games` read
/// from the file as they go) is the file's, and ends its games.
fn each_game<R, W>(
    input: Input,
    name: &str,
    games: impl Iterator<Item = std::io::Result<Result<GameBytes, Diagnostic>>>,
    work: &W,
    rep: &mut Reporter,
) -> Vec<R>
where
    W: Fn(Read, &mut Reporter) -> R,
{
    let mut values = Vec::new();
    for game in games {
        // Each log's warnings are its own, as a file's are (its result
        // counts them, and `--strict` faults it for them).
        rep.warnings = 0;
        match game {
            Err(e) => {
                rep.file_error(name, &format!("cannot read: {}", io_error_text(&e)));
                break;
            }
            Ok(Err(stray)) => values.push(stray_log(work, input.clone(), name.to_string(), stray, rep)),
            Ok(Ok(game)) => {
                let name = game_name(name, game.ordinal);
                forced_panic(&name);
                let read = Read {
                    input: input.clone(),
                    name,
                    bytes: game.text,
                    lines_before: game.first_line.saturating_sub(1),
                    stray: None,
                };
                values.push(work(read, rep));
                // Each game's diagnostics go out sorted by their lines,
                // before the next game's.
                rep.flush();
            }
        }
    }
    values
}

/// The inputs of `paths` as the walk finds them, without the directories
/// that hold no log: those are kept in `empty`, in the order of the walk,
/// each with the number of inputs before it, for [`report_empty`].
fn inputs<'a>(
    paths: &'a [PathBuf],
    hidden: bool,
    by_game: bool,
    empty: &'a Mutex<Vec<(usize, String)>>,
) -> impl Iterator<Item = Result<Input, InputError>> + Send + 'a {
    let mut before = 0;
    let walked: Box<dyn Iterator<Item = Result<Input, InputError>> + Send> = if by_game {
        Box::new(walk_games(paths, hidden))
    } else {
        Box::new(walk(paths, hidden))
    };
    walked.filter(move |item| match item {
        Err(e) if e.empty => {
            lock(empty).extend(e.file.clone().map(|dir| (before, dir)));
            false
        }
        _ => {
            before += 1;
            true
        }
    })
}

/// Says once of each directory in `empty` that it holds no log: a note
/// when the run found inputs elsewhere (an empty directory is no fault,
/// and counts as nothing), the run's error (exit 2) when it found none at
/// all (`nothing`), as a search that was given nothing to search is.
pub fn report_empty(nothing: bool, empty: &[String], rep: &mut Reporter) {
    for dir in empty {
        if nothing {
            rep.file_error(dir, fgn_tools::inputs::NO_LOGS);
        } else {
            rep.note(&format!("{dir}: {}", fgn_tools::inputs::NO_LOGS));
        }
    }
    if nothing && empty.is_empty() {
        rep.error("no .fgn files found in the given paths");
    }
}

/// A count of the files done on standard error, for runs long enough to
/// need one, and only when standard error is a terminal (never in a pipe,
/// a file or CI logs) and neither `--quiet` nor `FGN_NO_PROGRESS` is given.
/// The files to do are counted by a second walk of the paths, on a thread
/// of its own, as the run goes: the line shows how many are done of those
/// counted so far, and once the count is complete, of the total, with the
/// rate and the time left.
struct Progress {
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
    /// What the counting walk found so far, and whether it is complete;
    /// `None` when the line is off.
    total: Option<Arc<Total>>,
}

/// The counting walk's findings, shared with its thread.
#[derive(Default)]
struct Total {
    counted: AtomicUsize,
    complete: std::sync::atomic::AtomicBool,
    /// Set when the run ends, so that a walk still counting stops.
    stop: std::sync::atomic::AtomicBool,
}

impl Progress {
    /// A progress line for a run that may show one ([`crate::out::Output::progress`]
    /// and not `--quiet`), over the inputs of `paths`.
    fn new(enabled: bool, paths: &[PathBuf], hidden: bool) -> Progress {
        let total = enabled.then(|| {
            let total = Arc::new(Total::default());
            let (paths, shared) = (paths.to_vec(), Arc::clone(&total));
            // The count is a walk of its own, as the run's is: an input
            // is whatever the run would take one for (a path that cannot
            // be used too), and a directory without a log is none.
            let counting = std::thread::Builder::new().name("fgn-count".into()).spawn(move || {
                for item in walk(&paths, hidden) {
                    if shared.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if !item.is_err_and(|e| e.empty) {
                        shared.counted.fetch_add(1, Ordering::Relaxed);
                    }
                }
                shared.complete.store(true, Ordering::Release);
            });
            // Without a thread there is no total: the line counts only.
            if counting.is_err() {
                total.stop.store(true, Ordering::Relaxed);
            }
            total
        });
        Progress {
            started: Instant::now(),
            bar: None,
            enabled,
            total,
        }
    }

    fn tick(&mut self, done: usize) {
        if !self.enabled {
            return;
        }
        let elapsed = self.started.elapsed();
        if self.bar.is_none() && elapsed >= progress_after() {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            let counted = self.total.as_ref().map(|t| {
                let complete = t.complete.load(Ordering::Acquire);
                (t.counted.load(Ordering::Relaxed), complete)
            });
            bar.set_message(progress_message(done, counted, elapsed));
            bar.tick();
        }
    }

    /// Runs `f`, which writes, with the progress line out of its way.
    fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    fn clear(&mut self) {
        if let Some(total) = &self.total {
            total.stop.store(true, Ordering::Relaxed);
        }
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// How long a run goes before its progress line shows: [`PROGRESS_AFTER`],
/// or in a debug build (the test suite's) the milliseconds that
/// `FGN_DEBUG_PROGRESS_AFTER` says, so that a test can see the line
/// without a run that long.
fn progress_after() -> Duration {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("FGN_DEBUG_PROGRESS_AFTER")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return Duration::from_millis(ms);
    }
    PROGRESS_AFTER
}

/// The progress line after `done` files in `elapsed`: with `counted`, the
/// files the counting walk found so far and whether that is all of them.
/// Until the count is complete the line says how many are done of those
/// found (`120/400+ files`) and the rate; then of the total, with the time
/// left at the rate so far (`120/1000 files, 40 files/s, 22 s left`).
fn progress_message(done: usize, counted: Option<(usize, bool)>, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 { done as f64 / seconds } else { 0.0 };
    // Tenths only where they are worth saying, on a slow run.
    let rate_text = if rate < 10.0 {
        format!("{rate:.1} files/s")
    } else {
        format!("{rate:.0} files/s")
    };
    match counted {
        None => format!("{done} files, {rate_text}"),
        // The count runs ahead of the work; a file the run met before the
        // count did is counted already.
        Some((counted, false)) => format!("{done}/{}+ files, {rate_text}", counted.max(done)),
        Some((total, true)) => {
            let total = total.max(done);
            let left = if rate > 0.0 {
                let secs = ((total - done) as f64 / rate).ceil() as u64;
                match secs {
                    0..=59 => format!(", {secs} s left"),
                    60..=3599 => format!(", {} min {:02} s left", secs / 60, secs % 60),
                    _ => format!(", {} h {:02} min left", secs / 3600, secs % 3600 / 60),
                }
            } else {
                String::new()
            };
            format!("{done}/{total} files, {rate_text}{left}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 39): the progress line was a bare count of the
    /// files done, with no total, rate or time left. It says done of found
    /// while the count goes on, and done of the total, the rate and the
    /// time left once the count is complete.
    #[test]
    fn the_progress_line_gives_the_total_rate_and_time_left_once_counted() {
        let ten = Duration::from_secs(10);
        assert_eq!(progress_message(120, None, ten), "120 files, 12 files/s");
        assert_eq!(
            progress_message(120, Some((400, false)), ten),
            "120/400+ files, 12 files/s"
        );
        // A count behind the work never shows fewer files than are done.
        assert_eq!(
            progress_message(120, Some((100, false)), ten),
            "120/120+ files, 12 files/s"
        );
        assert_eq!(
            progress_message(120, Some((1000, true)), ten),
            "120/1000 files, 12 files/s, 1 min 14 s left"
        );
        assert_eq!(
            progress_message(120, Some((180, true)), ten),
            "120/180 files, 12 files/s, 5 s left"
        );
        assert_eq!(
            progress_message(1, Some((100_000, true)), ten),
            "1/100000 files, 0.1 files/s, 277 h 46 min left"
        );
        assert_eq!(
            progress_message(0, Some((5, true)), Duration::ZERO),
            "0/5 files, 0.0 files/s"
        );
    }
}
