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
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, Once};
use std::time::{Duration, Instant};

use fgn_notation::{parse, Parsed};

use crate::inputs::{walk, Input, InputError};
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
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// What was read.
    pub parsed: Parsed,
}

/// One input, read but not parsed: for a command that parses as it works
/// ([`each_read_until`]).
#[derive(Debug)]
pub struct Read {
    /// Where it came from.
    pub input: Input,
    /// Its name in messages.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
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
    captured: Captured,
    status: Status,
    value: Option<R>,
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
    let work = |read: Read, rep: &mut Reporter| {
        let parsed = parse(&read.bytes);
        report_syntax(rep, &read.name, &parsed.diagnostics);
        let log = Log {
            input: read.input,
            name: read.name,
            bytes: read.bytes,
            parsed,
        };
        work(log, rep)
    };
    each_read_until(paths, rep, work, sink)
}

/// [`each_until`] with the inputs read but not parsed: `work` parses each
/// as it needs (`fgn validate` reads a log in runs of events) and reports
/// its syntax errors itself ([`report_syntax`]).
pub fn each_read_until<R, W, S>(paths: &[PathBuf], rep: &mut Reporter, work: W, mut sink: S) -> Walked
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
            Ok((input, bytes)) => {
                let name = input.name();
                // A report already on its way out when the work panics
                // stays (a report is written as soon as it is its turn);
                // the internal error follows it.
                let shown = name.clone();
                let done = guarded(|| {
                    forced_panic(&name);
                    let value = work(Read { input, name, bytes }, &mut file_rep);
                    file_rep.flush();
                    value
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
            captured: file_rep.take_captured(),
            status: file_rep.status,
            value,
        }
    };
    let empty = Mutex::new(Vec::new());
    let mut progress = Progress::new(!rep.quiet && io.progress(), paths, io.hidden());
    let mut seen = 0usize;
    let mut walked = Walked::default();
    let mut stopped = false;
    let mut finish = |done: Done<R>, rep: &mut Reporter| -> ControlFlow<()> {
        seen += 1;
        progress.suspend(|| io.replay(done.captured));
        rep.merge(done.status);
        let flow = match done.value {
            Some(value) => {
                walked.read += 1;
                progress.suspend(|| sink(value, rep))
            }
            None => {
                walked.unreadable += 1;
                ControlFlow::Continue(())
            }
        };
        progress.tick(seen);
        stopped = flow.is_break();
        flow
    };
    let jobs = io.jobs();
    let items = inputs(paths, io.hidden(), &empty);
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

/// The inputs of `paths` as the walk finds them, without the directories
/// that hold no log: those are kept in `empty`, in the order of the walk,
/// each with the number of inputs before it, for [`report_empty`].
fn inputs<'a>(
    paths: &'a [PathBuf],
    hidden: bool,
    empty: &'a Mutex<Vec<(usize, String)>>,
) -> impl Iterator<Item = Result<Input, InputError>> + Send + 'a {
    let mut before = 0;
    walk(paths, hidden).filter(move |item| match item {
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
            rep.file_error(dir, crate::inputs::NO_LOGS);
        } else {
            rep.note(&format!("{dir}: {}", crate::inputs::NO_LOGS));
        }
    }
    if nothing && empty.is_empty() {
        rep.error("no .fgn files found in the given paths");
    }
}

/// How many batches the workers may have taken and not yet written, per
/// job: enough that a worker finding the next batch's report still waiting
/// keeps working, few enough that the reports held meanwhile stay small
/// (a batch is about [`BATCH_TIME`] of work, so the reports held are those
/// of a few milliseconds a job, whatever the size of the files).
const BATCHES_AHEAD_PER_JOB: usize = 4;

/// About how long a worker's batch of inputs takes: long enough that
/// taking a batch and handing its reports on cost nothing next to the work
/// (a few microseconds a batch), short enough that the jobs finish within
/// about this much of each other at the end of a run.
const BATCH_TIME: Duration = Duration::from_millis(1);

/// The most inputs in one batch, however small they are.
const MOST_IN_A_BATCH: usize = 256;

/// How many inputs the walk may find ahead of the workers: enough to keep
/// them busy while the walk reads a large directory again for its next
/// names in order (a pass over 4,096 names of a directory of 15,000 took
/// about 8 ms, [`crate::inputs`]), and a few hundred kilobytes of paths.
const WALK_AHEAD: usize = 4096;

/// How many inputs the walk hands on at once, unless a worker waits.
const WALK_CHUNK: usize = 64;

/// The inputs the walk found that no worker took yet, and how many
/// batches were taken.
struct Walk {
    found: VecDeque<Result<Input, InputError>>,
    /// The walk is done: what it found is all there is.
    done: bool,
    /// The walking thread waits for the workers to take inputs.
    walker_waits: bool,
    /// The index of the next input.
    next: usize,
    /// How many batches were taken.
    taken: usize,
}

/// Inputs taken together by one worker: `items` are the inputs from
/// `start` on, in order.
struct Batch {
    start: usize,
    items: Vec<Result<Input, InputError>>,
}

/// What the workers share. Whoever holds the next report to be written
/// writes it (the reports before it are all written), with the command's
/// `finish`, so that no thread waits for a writer and none is woken for a
/// report: a worker whose report is next writes it, and a worker whose
/// report's turn has not come leaves it in `parked` and goes on, for the
/// worker that writes the report before it to write next. So a report's
/// turn comes as soon as the reports before it are done, as with a writer
/// of its own (a long report streams from then on), at the cost of one
/// short lock a report.
struct Shared<R, F> {
    walk: Mutex<Walk>,
    /// Where workers wait for inputs or for the window
    /// ([`BATCHES_AHEAD_PER_JOB`]) to open, and how many wait, so that a
    /// batch written or inputs found wake no one when no one waits.
    ready: Condvar,
    waiting: AtomicUsize,
    /// Where the walking thread waits for room ([`WALK_AHEAD`]).
    room: Condvar,
    /// The most batches taken and not yet written.
    window: usize,
    /// How many reports are written, for a worker to know when its
    /// report's turn has come (its capture's [`ReportTurn`]); `usize::MAX`
    /// once the run stopped, so that no report after the stop goes out.
    written: Arc<AtomicUsize>,
    /// How many batches are written.
    batches_written: AtomicUsize,
    stopped: AtomicBool,
    /// Finished reports waiting for the reports before them: the first
    /// place is the next report's.
    parked: Mutex<VecDeque<Option<Parked<R>>>>,
    /// The command's end of each report; held only by whoever holds the
    /// next report, so never waited for.
    finish: Mutex<F>,
}

/// A finished report waiting for its turn.
struct Parked<R> {
    done: Done<R>,
    /// It is the last of its batch.
    ends_batch: bool,
}

impl<R, F> Shared<R, F>
where
    F: FnMut(Done<R>) -> ControlFlow<()>,
{
    /// Walks `items` on this thread, handing them to the workers a chunk
    /// at a time, and at most [`WALK_AHEAD`] ahead of them: the walk's
    /// reads of large directories, which only one thread can do, go on
    /// while the workers work instead of while they wait.
    fn walk(&self, items: impl Iterator<Item = Result<Input, InputError>>) {
        let mut chunk = Vec::with_capacity(WALK_CHUNK);
        for item in items {
            if self.stopped() {
                return;
            }
            chunk.push(item);
            // A worker waiting for inputs (at the start) gets them at once.
            if chunk.len() == WALK_CHUNK || self.waiting.load(Ordering::SeqCst) > 0 {
                self.hand_on(&mut chunk, false);
            }
        }
        self.hand_on(&mut chunk, true);
    }

    /// Hands the inputs of `chunk` to the workers once they have taken
    /// enough of those found before; `last`: the walk is done.
    fn hand_on(&self, chunk: &mut Vec<Result<Input, InputError>>, last: bool) {
        let mut walk = lock(&self.walk);
        while walk.found.len() >= WALK_AHEAD && !self.stopped() {
            walk.walker_waits = true;
            walk = self.room.wait(walk).unwrap_or_else(|e| e.into_inner());
        }
        walk.found.extend(chunk.drain(..));
        walk.done = last;
        // Under the lock, which a worker holds from counting itself as
        // waiting until it waits, so that none misses this.
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.ready.notify_all();
        }
    }

    /// The next `size` inputs found (fewer when fewer are found), once the
    /// window has room for another batch; `None` when the walk is done
    /// and every input taken, or the run stopped.
    fn take(&self, size: usize) -> Option<Batch> {
        let mut walk = lock(&self.walk);
        loop {
            // Counted as waiting before anything is looked at, so that a
            // batch written after the look wakes this worker
            // ([`Shared::batch_written`]).
            self.waiting.fetch_add(1, Ordering::SeqCst);
            let room = walk.taken - self.batches_written.load(Ordering::SeqCst) < self.window;
            let found = !walk.found.is_empty() || walk.done;
            if self.stopped.load(Ordering::SeqCst) || (room && found) {
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                break;
            }
            walk = self.ready.wait(walk).unwrap_or_else(|e| e.into_inner());
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        if self.stopped() || walk.found.is_empty() {
            return None;
        }
        let size = size.min(walk.found.len());
        let items: Vec<_> = walk.found.drain(..size).collect();
        if walk.walker_waits && walk.found.len() < WALK_AHEAD / 2 {
            walk.walker_waits = false;
            self.room.notify_one();
        }
        let start = walk.next;
        walk.next += items.len();
        walk.taken += 1;
        Some(Batch { start, items })
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Whether the report of input `index` is the next to be written.
    fn is_turn(&self, index: usize) -> bool {
        self.written.load(Ordering::Acquire) == index
    }

    /// Writes the report `done` of input `index`, whose turn has come
    /// (`ends_batch`: the last of its batch), and then the parked reports
    /// whose turn comes after it.
    fn write(&self, index: usize, done: Done<R>, ends_batch: bool) {
        let (mut index, mut done, mut ends_batch) = (index, done, ends_batch);
        loop {
            let flow = {
                let mut finish = lock(&self.finish);
                finish(done)
            };
            if flow.is_break() {
                return self.stop();
            }
            // The count written moves under the lock of the parked
            // reports, so that a worker parking the next report either
            // sees it moved (and writes its report itself) or parks it
            // before this looks for it.
            let next = {
                let mut parked = lock(&self.parked);
                self.written.store(index + 1, Ordering::Release);
                // This report's place, empty when it was written where it
                // was made.
                parked.pop_front();
                parked.front_mut().and_then(Option::take)
            };
            if ends_batch {
                self.batch_written();
            }
            match next {
                Some(parked) => (index, done, ends_batch) = (index + 1, parked.done, parked.ends_batch),
                None => return,
            }
        }
    }

    /// Leaves the report `done` of input `index` for the worker that
    /// writes the report before it, or writes it when that was written
    /// meanwhile. Nothing is kept once the run stopped.
    fn park(&self, index: usize, done: Done<R>, ends_batch: bool) {
        {
            let mut parked = lock(&self.parked);
            let written = self.written.load(Ordering::Acquire);
            if written != index {
                if let Some(at) = index.checked_sub(written) {
                    if parked.len() <= at {
                        parked.resize_with(at + 1, || None);
                    }
                    parked[at] = Some(Parked { done, ends_batch });
                }
                return;
            }
        }
        self.write(index, done, ends_batch);
    }

    /// Counts a batch written, waking the workers that wait for room.
    fn batch_written(&self) {
        self.batches_written.fetch_add(1, Ordering::SeqCst);
        self.wake();
    }

    /// Stops the run: no report after this one is written, no input taken
    /// or walked.
    fn stop(&self) {
        self.written.store(usize::MAX, Ordering::SeqCst);
        self.stopped.store(true, Ordering::SeqCst);
        let _walk = lock(&self.walk);
        self.ready.notify_all();
        self.room.notify_all();
    }

    /// Wakes the workers waiting for room, if any: the lock, taken between
    /// their look at the window and their wait, makes sure that none
    /// misses it.
    fn wake(&self) {
        if self.waiting.load(Ordering::SeqCst) > 0 {
            drop(lock(&self.walk));
            self.ready.notify_all();
        }
    }
}

/// Locks `m`, whether or not a thread panicked holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Stops the run if the worker holding it unwinds (a panic in the command's
/// `finish`), so that no other worker waits for a report that will not be
/// written; the panic then ends the run as it would with one job.
struct StopOnUnwind<'a, R, F>(&'a Shared<R, F>)
where
    F: FnMut(Done<R>) -> ControlFlow<()>;

impl<R, F> Drop for StopOnUnwind<'_, R, F>
where
    F: FnMut(Done<R>) -> ControlFlow<()>,
{
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// Runs `process` on every item on `jobs` threads (this one and `jobs - 1`
/// more) and `finish` on each result in input order; one more thread
/// walks the items ([`Shared::walk`]).
///
/// Work is handed out in batches, each about [`BATCH_TIME`] of work: a
/// worker starts with one input a batch and doubles or halves the size by
/// the time its last batch took, so that a few files still spread over
/// every job and many small ones cost one hand-out per batch instead of
/// one per file. The reports are written by whichever worker holds the
/// next one ([`Shared`]): in a run with no worker far ahead of another,
/// nothing waits and no thread is woken, which is what made the parallel
/// runs cost a third more CPU than one job (issue 42: a lock, a channel
/// message and a wake-up for every file).
fn run_parallel<R, I, P, F>(items: I, jobs: usize, process: &P, finish: F)
where
    R: Send,
    I: Iterator<Item = Result<Input, InputError>> + Send,
    P: Fn(Result<Input, InputError>, ReportTurn) -> Done<R> + Sync,
    F: FnMut(Done<R>) -> ControlFlow<()> + Send,
{
    let shared = Shared {
        walk: Mutex::new(Walk {
            found: VecDeque::new(),
            done: false,
            walker_waits: false,
            next: 0,
            taken: 0,
        }),
        ready: Condvar::new(),
        waiting: AtomicUsize::new(0),
        room: Condvar::new(),
        window: jobs * BATCHES_AHEAD_PER_JOB,
        written: Arc::new(AtomicUsize::new(0)),
        batches_written: AtomicUsize::new(0),
        stopped: AtomicBool::new(false),
        parked: Mutex::new(VecDeque::new()),
        finish: Mutex::new(finish),
    };
    let worker = || {
        let _stop = StopOnUnwind(&shared);
        let mut size = 1;
        while let Some(Batch { start, items }) = shared.take(size) {
            let began = Instant::now();
            let end = start + items.len();
            for (index, item) in (start..).zip(items) {
                if shared.stopped() {
                    return;
                }
                // The report is kept until the reports before it are
                // written, then written as it comes.
                let written = Arc::clone(&shared.written);
                let turn = move || written.load(Ordering::Acquire) == index;
                let done = process(item, Box::new(turn));
                let ends_batch = index + 1 == end;
                if shared.is_turn(index) {
                    shared.write(index, done, ends_batch);
                } else {
                    shared.park(index, done, ends_batch);
                }
            }
            // The next batch about [`BATCH_TIME`] long, by this one.
            let took = began.elapsed();
            if took < BATCH_TIME / 2 {
                size = (size * 2).min(MOST_IN_A_BATCH);
            } else if took > BATCH_TIME * 2 {
                size = (size / 2).max(1);
            }
        }
    };
    std::thread::scope(|scope| {
        let shared = &shared;
        scope.spawn(move || {
            let _stop = StopOnUnwind(shared);
            shared.walk(items);
        });
        for _ in 1..jobs {
            scope.spawn(worker);
        }
        worker();
    });
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

    /// The inputs `0..n`, as paths named by their index.
    fn numbered(n: usize) -> impl Iterator<Item = Result<Input, InputError>> + Send {
        (0..n).map(|i| Ok(Input::File(PathBuf::from(i.to_string()))))
    }

    /// The index an input of [`numbered`] is named by.
    fn index_of(item: &Result<Input, InputError>) -> usize {
        match item {
            Ok(Input::File(path)) => path.to_str().and_then(|p| p.parse().ok()).expect("a numbered input"),
            other => panic!("not a numbered input: {other:?}"),
        }
    }

    fn done(value: usize) -> Done<usize> {
        Done {
            captured: Vec::new(),
            status: Status::Ok,
            value: Some(value),
        }
    }

    /// Issue 42: the workers take batches and whoever holds the next
    /// report writes it. Whatever the number of jobs and however uneven
    /// the work, every report is finished once, in input order, and a
    /// report's turn (its capture's [`ReportTurn`]) comes only once every
    /// report before it is finished.
    #[test]
    fn reports_are_finished_in_input_order_and_their_turn_comes_after_the_ones_before() {
        for jobs in [2, 3, 8] {
            let finished = AtomicUsize::new(0);
            let process = |item: Result<Input, InputError>, turn: ReportTurn| {
                let index = index_of(&item);
                // Every seventh input takes far longer, so that the
                // batches finish out of order.
                if index.is_multiple_of(7) {
                    std::thread::sleep(Duration::from_micros(200));
                }
                if turn() {
                    assert_eq!(finished.load(Ordering::SeqCst), index, "a turn came early");
                }
                done(index)
            };
            let mut seen = Vec::new();
            run_parallel(numbered(3000), jobs, &process, |done| {
                seen.push(done.value.expect("a value"));
                finished.fetch_add(1, Ordering::SeqCst);
                ControlFlow::Continue(())
            });
            assert_eq!(seen, (0..3000).collect::<Vec<_>>(), "{jobs} jobs");
        }
    }

    /// Issue 42 (and 36): a long report streams once the reports before it
    /// are written, even when it is not the first of its worker's batch:
    /// its turn comes while it is still being made, so that it is not held
    /// whole in memory.
    #[test]
    fn a_reports_turn_comes_while_it_is_made_once_the_ones_before_are_written() {
        for jobs in [2, 3] {
            let came = AtomicBool::new(false);
            let process = |item: Result<Input, InputError>, turn: ReportTurn| {
                let index = index_of(&item);
                if index == 200 {
                    let began = Instant::now();
                    while began.elapsed() < Duration::from_secs(10) && !turn() {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    came.store(turn(), Ordering::SeqCst);
                }
                done(index)
            };
            run_parallel(numbered(400), jobs, &process, |_| ControlFlow::Continue(()));
            assert!(came.load(Ordering::SeqCst), "{jobs} jobs: the turn never came");
        }
    }

    /// Issue 42: a run stopped by its `finish` finishes nothing after the
    /// input it stopped on, and its workers stop taking inputs at once:
    /// they work on no more than the batches the window lets them take
    /// ahead.
    #[test]
    fn a_stopped_run_finishes_nothing_more_and_takes_no_more_inputs() {
        for jobs in [2, 3, 8] {
            let processed = AtomicUsize::new(0);
            let process = |item: Result<Input, InputError>, _turn: ReportTurn| {
                processed.fetch_add(1, Ordering::SeqCst);
                done(index_of(&item))
            };
            let mut seen = Vec::new();
            run_parallel(numbered(1_000_000), jobs, &process, |done| {
                seen.push(done.value.expect("a value"));
                if seen.len() == 5000 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(seen, (0..5000).collect::<Vec<_>>(), "{jobs} jobs");
            let ahead = processed.load(Ordering::SeqCst) - 5000;
            let most = jobs * (BATCHES_AHEAD_PER_JOB + 1) * MOST_IN_A_BATCH;
            assert!(ahead <= most, "{jobs} jobs worked on {ahead} inputs past the stop");
        }
    }

    /// Issue 42: batches start at one input, so that a few slow inputs
    /// still spread over the jobs instead of going to one worker in a
    /// batch.
    #[test]
    fn a_few_slow_inputs_spread_over_the_jobs() {
        let threads = Mutex::new(std::collections::HashSet::new());
        let process = |item: Result<Input, InputError>, _turn: ReportTurn| {
            lock(&threads).insert(std::thread::current().id());
            std::thread::sleep(Duration::from_millis(20));
            done(index_of(&item))
        };
        let mut count = 0;
        run_parallel(numbered(8), 4, &process, |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(count, 8);
        assert!(lock(&threads).len() >= 2, "8 inputs of 20 ms each ran on one thread");
    }

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
