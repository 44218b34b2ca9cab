//! Runs work over a lazily walked list of items on several threads,
//! finishing the results in the order of the items: the engine under every
//! command of `fgn` that reads many logs (and under the Python package's
//! functions over a directory or an archive).
//!
//! Why not rayon: its parallel iterators either collect every result before
//! the first is finished (memory grows with the archive) or give them in
//! any order (`par_bridge`). What is needed here — a lazily walked list,
//! workers that never run more than a window ahead of the results finished,
//! results finished in input order — is a few locks and counters
//! ([`run_parallel`]): the work is handed out in batches, and whichever
//! worker holds the next result finishes it, so that in a steady run no
//! thread waits for another or wakes one (issue 42).

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Whether an item's turn has come: every result before it is finished.
/// A worker hands it to the work on the item, which may then write its
/// output as it makes it instead of keeping it (a long report streams).
pub type Turn = Box<dyn Fn() -> bool + Send + Sync>;

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
/// them busy while one of them lists a large directory (15,000 names take
/// about 10 ms, [`crate::inputs`]), and a few hundred kilobytes of paths.
/// A worker walks on once fewer than half as many are left, so that the
/// walk goes in runs of a couple of thousand inputs, not one per batch.
const WALK_AHEAD: usize = 4096;

/// How many inputs the walk hands on at once, unless a worker waits.
const WALK_CHUNK: usize = 64;

/// How many bytes the inputs the walk found ahead of the workers may hold
/// ([`Held`]), beside their number ([`WALK_AHEAD`]): an archive's members
/// and the games of a large file travel with their text, up to 64 MiB
/// each, so that 4,096 of them could hold hundreds of gigabytes. The walk
/// waits once this much is found and not taken (one input more than the
/// bound is always let through, so that a member larger than it still
/// goes).
const WALK_AHEAD_BYTES: usize = 64 << 20;

/// The most bytes of held inputs in one batch or one chunk of the walk's
/// (beyond the first input): with at most [`BATCHES_AHEAD_PER_JOB`]
/// batches a job in flight, what the workers hold stays within a few
/// megabytes a job plus the inputs being worked on.
const MOST_BYTES_AT_ONCE: usize = 1 << 20;

/// The memory an item holds while it waits for a worker: what the walk
/// read for it (an archive's member, a game of a large file), not what a
/// path costs. [`run_parallel`] bounds the bytes held ahead of the workers
/// by it as well as the number of items.
pub trait Held {
    /// The bytes this item holds.
    fn held_bytes(&self) -> usize;
}

/// The inputs the walk found that no worker took yet, and how many
/// batches were taken.
struct Walk<T> {
    found: VecDeque<T>,
    /// The bytes the inputs in `found` hold ([`Held`]).
    found_bytes: usize,
    /// The walk is done: what it found is all there is.
    done: bool,
    /// A worker walks on: no other one starts to.
    walking: bool,
    /// The index of the next input.
    next: usize,
    /// How many batches were taken.
    taken: usize,
    /// How many times the walk handed inputs on.
    hand_ons: usize,
}

/// Inputs taken together by one worker: `items` are the inputs from
/// `start` on, in order.
struct Batch<T> {
    start: usize,
    items: Vec<T>,
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
struct Shared<T, I, D, F> {
    walk: Mutex<Walk<T>>,
    /// The walk itself, taken by the one worker that walks on
    /// ([`Walk::walking`]), so never waited for.
    items: Mutex<I>,
    /// Where workers wait for inputs or for the window
    /// ([`BATCHES_AHEAD_PER_JOB`]) to open, and how many wait, so that a
    /// batch written or inputs found wake no one when no one waits.
    ready: Condvar,
    waiting: AtomicUsize,
    /// How many workers there are.
    jobs: usize,
    /// The most batches taken and not yet written.
    window: usize,
    /// How many reports are written, for a worker to know when its
    /// report's turn has come (its capture's [`Turn`]); `usize::MAX`
    /// once the run stopped, so that no report after the stop goes out.
    written: Arc<AtomicUsize>,
    /// How many batches are written.
    batches_written: AtomicUsize,
    stopped: AtomicBool,
    /// Finished reports waiting for the reports before them: the first
    /// place is the next report's.
    parked: Mutex<VecDeque<Option<Parked<D>>>>,
    /// The command's end of each report; held only by whoever holds the
    /// next report, so never waited for.
    finish: Mutex<F>,
}

/// A finished report waiting for its turn.
struct Parked<D> {
    done: D,
    /// It is the last of its batch.
    ends_batch: bool,
}

impl<T, I, D, F> Shared<T, I, D, F>
where
    T: Held,
    I: Iterator<Item = T>,
    F: FnMut(D) -> ControlFlow<()>,
{
    /// Walks on, on this worker, until [`WALK_AHEAD`] inputs (or
    /// [`WALK_AHEAD_BYTES`]) are found and not taken, or the walk is done,
    /// handing them to the workers a chunk at a time, and to a worker
    /// that waits for inputs in chunks of 1, 2, 4, … up to [`WALK_CHUNK`]
    /// while it waits. The caller has set [`Walk::walking`].
    ///
    /// Why a worker walks rather than a thread of its own: on a machine
    /// whose every core runs a worker, a walking thread is one thread more
    /// than there are cores. It takes a core from a worker whenever it
    /// runs, and it was running when the workers first woke, so that the
    /// system put both workers of a two-core machine on one core for the
    /// first few milliseconds (`perf sched`; a tenth of a run over 3,000
    /// small logs). The walk's reads of a large directory still go on
    /// while the other workers work: the walk starts again well before
    /// the inputs found run out.
    fn walk_on(&self) {
        let mut items = lock(&self.items);
        let mut chunk = Vec::with_capacity(WALK_CHUNK);
        let mut chunk_bytes = 0;
        // How many inputs a worker waiting for inputs gets at once: one at
        // first, then twice as many at each hand-on while it still waits,
        // and one again once no worker waits.
        // A waiting worker can take a millisecond or more to wake on a
        // virtual machine, and every hand-on to a waiting worker wakes it
        // (a system call): handing each input on alone while it woke cost
        // up to one such call an input, 3,000 over a directory of 3,000
        // logs, and several milliseconds of walking before the walking
        // worker started on its own work (issue 42).
        let mut for_waiting = 1;
        loop {
            if self.stopped() {
                return;
            }
            let Some(item) = items.next() else {
                self.hand_on(&mut chunk, chunk_bytes, Some(true));
                return;
            };
            chunk_bytes += item.held_bytes();
            chunk.push(item);
            let waits = self.waiting.load(Ordering::SeqCst) > 0;
            if !waits {
                for_waiting = 1;
            }
            let waited_for = waits && chunk.len() >= for_waiting;
            if chunk.len() == WALK_CHUNK || chunk_bytes >= MOST_BYTES_AT_ONCE || waited_for {
                if waited_for {
                    for_waiting = (for_waiting * 2).min(WALK_CHUNK);
                }
                if self.hand_on(&mut chunk, chunk_bytes, None) {
                    return;
                }
                chunk_bytes = 0;
            }
        }
    }

    /// Hands the inputs of `chunk`, which hold `bytes`, to the workers;
    /// `walked`: the walk stops here, `Some(true)` for good (it is done).
    /// Without it, the walk stops once enough inputs are found ahead of
    /// the workers, as the returned value says.
    fn hand_on(&self, chunk: &mut Vec<T>, bytes: usize, walked: Option<bool>) -> bool {
        let mut walk = lock(&self.walk);
        walk.found.extend(chunk.drain(..));
        walk.hand_ons += 1;
        walk.found_bytes += bytes;
        let stops = walked.is_some() || walk.found.len() >= WALK_AHEAD || walk.found_bytes >= WALK_AHEAD_BYTES;
        if stops {
            walk.walking = false;
            walk.done = walked == Some(true);
        }
        // Under the lock, which a worker holds from counting itself as
        // waiting until it waits, so that none misses this: one waiting
        // for inputs, or one that may now walk on or see the walk done.
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.ready.notify_all();
        }
        stops
    }

    /// The next `size` inputs found (fewer when fewer are found), once the
    /// window has room for another batch; `None` when the walk is done
    /// and every input taken, or the run stopped. A worker that finds
    /// fewer than half of [`WALK_AHEAD`] inputs ahead and no other worker
    /// walking walks on first ([`Shared::walk_on`]).
    fn take(&self, size: usize) -> Option<Batch<T>> {
        let mut walk = lock(&self.walk);
        loop {
            if !walk.done
                && !walk.walking
                && !self.stopped()
                && walk.found.len() < WALK_AHEAD / 2
                && walk.found_bytes < WALK_AHEAD_BYTES / 2
            {
                walk.walking = true;
                drop(walk);
                self.walk_on();
                walk = lock(&self.walk);
                continue;
            }
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
        // Once the walk is done, no more than a share of what is left for
        // each job, so that the jobs run out of work within a few inputs
        // of each other rather than within a batch (a millisecond, a few
        // percent of a run over a few thousand small logs).
        let size = if walk.done {
            size.min(walk.found.len().div_ceil(2 * self.jobs))
        } else {
            size
        };
        // Up to `size` inputs, and no more than a megabyte or so of held
        // bytes past the first.
        let mut items = Vec::with_capacity(size.min(walk.found.len()));
        let mut bytes = 0;
        while items.len() < size && bytes < MOST_BYTES_AT_ONCE {
            let Some(item) = walk.found.pop_front() else { break };
            bytes += item.held_bytes();
            items.push(item);
        }
        walk.found_bytes -= bytes;
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
    fn write(&self, index: usize, done: D, ends_batch: bool) {
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
    fn park(&self, index: usize, done: D, ends_batch: bool) {
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
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Stops the run if the worker holding it unwinds (a panic in the command's
/// `finish`), so that no other worker waits for a report that will not be
/// written; the panic then ends the run as it would with one job.
struct StopOnUnwind<'a, T, I, D, F>(&'a Shared<T, I, D, F>)
where
    T: Held,
    I: Iterator<Item = T>,
    F: FnMut(D) -> ControlFlow<()>;

impl<T, I, D, F> Drop for StopOnUnwind<'_, T, I, D, F>
where
    T: Held,
    I: Iterator<Item = T>,
    F: FnMut(D) -> ControlFlow<()>,
{
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// Runs `process` on every item on `jobs` threads (this one and `jobs - 1`
/// more) and `finish` on each result in item order. The workers walk
/// `items` in turns, one at a time, at most a few thousand ahead of the
/// work, so that a list walked lazily (a directory, an archive) is never
/// held whole and no thread runs beside the `jobs` workers. `process`
/// gets each item with its [`Turn`], which says when every result before
/// it is finished (so that it may stream its output rather than keep it);
/// `finish` may stop the run with [`ControlFlow::Break`], after which no
/// more results are finished and no more items taken.
///
/// Work is handed out in batches, each about a millisecond of work: a
/// worker starts with one item a batch and doubles or halves the size by
/// the time its last batch took, so that a few slow items still spread
/// over every job and many small ones cost one hand-out per batch instead
/// of one per item. Results are finished by whichever worker holds the
/// next one: in a run with no worker far ahead of another, nothing waits
/// and no thread is woken, which is what made the parallel runs cost a
/// third more CPU than one job (issue 42: a lock, a channel message and a
/// wake-up for every file).
pub fn run_parallel<T, D, I, P, F>(items: I, jobs: usize, process: &P, finish: F)
where
    T: Held + Send,
    D: Send,
    I: Iterator<Item = T> + Send,
    P: Fn(T, Turn) -> D + Sync,
    F: FnMut(D) -> ControlFlow<()> + Send,
{
    let shared = Shared {
        items: Mutex::new(items),
        walk: Mutex::new(Walk {
            found: VecDeque::new(),
            found_bytes: 0,
            done: false,
            walking: false,
            next: 0,
            taken: 0,
            hand_ons: 0,
        }),
        ready: Condvar::new(),
        waiting: AtomicUsize::new(0),
        jobs: jobs.max(1),
        window: jobs.max(1) * BATCHES_AHEAD_PER_JOB,
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
        for _ in 1..jobs {
            scope.spawn(worker);
        }
        worker();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The items `0..n`.
    fn numbered(n: usize) -> impl Iterator<Item = usize> + Send {
        0..n
    }

    /// A number is an item that holds nothing.
    impl Held for usize {
        fn held_bytes(&self) -> usize {
            0
        }
    }

    /// An item that says it holds `.0` bytes, and holds nothing.
    struct Heavy(usize);

    impl Held for Heavy {
        fn held_bytes(&self) -> usize {
            self.0
        }
    }

    /// Regression test (issue 42): while a worker waited for inputs and
    /// was slow to wake, the walk handed every input on alone, waking it
    /// once an input (3,000 system calls over 3,000 logs).
    #[test]
    fn a_worker_slow_to_wake_gets_the_walk_in_doubling_chunks_not_input_by_input() {
        // With a worker waiting all through the walk, and with none.
        for (waiting, hand_ons) in [(1, 10), (0, 5)] {
            let walk = walk_300(waiting);
            assert_eq!(walk.found, (0..300).collect::<VecDeque<_>>());
            assert!(walk.done);
            assert_eq!(walk.hand_ons, hand_ons, "hand-ons for 300 inputs, {waiting} waiting");
        }
        // Waiting: 1, 2, 4, 8, 16 and 32 (63 inputs), three of 64 (255)
        // and the last 45. None waiting: four chunks of 64 and the last 44.
    }

    /// What a walk of 300 inputs leaves the workers when `waiting` workers
    /// wait for inputs all through it.
    fn walk_300(waiting: usize) -> Walk<usize> {
        let shared = Shared {
            items: Mutex::new(numbered(300)),
            walk: Mutex::new(Walk {
                found: VecDeque::new(),
                found_bytes: 0,
                done: false,
                walking: true,
                next: 0,
                taken: 0,
                hand_ons: 0,
            }),
            ready: Condvar::new(),
            waiting: AtomicUsize::new(waiting),
            jobs: 2,
            window: 8,
            written: Arc::new(AtomicUsize::new(0)),
            batches_written: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            parked: Mutex::new(VecDeque::new()),
            finish: Mutex::new(|(): ()| ControlFlow::Continue(())),
        };
        shared.walk_on();
        shared.walk.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Regression: the walk went up to 4,096 inputs ahead of the workers
    /// whatever they held, and an archive's members (or the games of a
    /// large file) carry their text, up to 64 MiB each. The bytes walked
    /// and not yet worked on stay within the walk's bound, plus a batch's
    /// worth a job in flight, plus the chunk being handed on.
    #[test]
    fn the_walk_holds_a_bounded_number_of_bytes_ahead_of_the_workers() {
        const MIB: usize = 1 << 20;
        for (jobs, each) in [(2, MIB / 2), (3, 3 * MIB), (2, 70 * MIB)] {
            let ahead = AtomicUsize::new(0);
            let most = AtomicUsize::new(0);
            let items = (0..600).map(|_| {
                let now = ahead.fetch_add(each, Ordering::SeqCst) + each;
                most.fetch_max(now, Ordering::SeqCst);
                Heavy(each)
            });
            let process = |item: Heavy, _turn: Turn| {
                std::thread::sleep(Duration::from_micros(50));
                ahead.fetch_sub(item.0, Ordering::SeqCst);
            };
            let mut count = 0;
            run_parallel(items, jobs, &process, |()| {
                count += 1;
                ControlFlow::Continue(())
            });
            assert_eq!(count, 600);
            // 64 MiB walked ahead, and up to 4 batches a job, a chunk and
            // an input being worked on of a megabyte past one input each.
            let bound = 64 * MIB + (jobs * 4 + 2) * (MIB + each);
            let most = most.load(Ordering::SeqCst);
            assert!(
                most <= bound,
                "{jobs} jobs, {each} bytes an item: {most} bytes ahead, more than {bound}"
            );
        }
    }

    /// Issue 42: the workers take batches and whoever holds the next
    /// report writes it. Whatever the number of jobs and however uneven
    /// the work, every report is finished once, in input order, and a
    /// report's turn (its capture's [`Turn`]) comes only once every
    /// report before it is finished.
    #[test]
    fn reports_are_finished_in_input_order_and_their_turn_comes_after_the_ones_before() {
        for jobs in [2, 3, 8] {
            let finished = AtomicUsize::new(0);
            let process = |index: usize, turn: Turn| {
                // Every seventh input takes far longer, so that the
                // batches finish out of order.
                if index.is_multiple_of(7) {
                    std::thread::sleep(Duration::from_micros(200));
                }
                if turn() {
                    assert_eq!(finished.load(Ordering::SeqCst), index, "a turn came early");
                }
                index
            };
            let mut seen = Vec::new();
            run_parallel(numbered(3000), jobs, &process, |done| {
                seen.push(done);
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
            let process = |index: usize, turn: Turn| {
                if index == 200 {
                    let began = Instant::now();
                    while began.elapsed() < Duration::from_secs(10) && !turn() {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    came.store(turn(), Ordering::SeqCst);
                }
                index
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
            let process = |index: usize, _turn: Turn| {
                processed.fetch_add(1, Ordering::SeqCst);
                index
            };
            let mut seen = Vec::new();
            run_parallel(numbered(1_000_000), jobs, &process, |done| {
                seen.push(done);
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

    /// Issue 42: no thread runs beside the `jobs` workers. The walk ran on
    /// a thread of its own, one thread more than the cores when every core
    /// runs a worker, which took a core from a worker whenever it ran; now
    /// the workers walk in turns, so that the walk and the work together
    /// touch no more threads than there are jobs.
    #[test]
    fn the_walk_and_the_work_run_on_no_more_threads_than_jobs() {
        for jobs in [1, 2, 3] {
            let threads = Mutex::new(std::collections::HashSet::new());
            let items = (0..2000).inspect(|_| {
                lock(&threads).insert(std::thread::current().id());
            });
            let process = |index: usize, _turn: Turn| {
                lock(&threads).insert(std::thread::current().id());
                std::thread::sleep(Duration::from_micros(20));
                index
            };
            let mut seen = Vec::new();
            run_parallel(items, jobs, &process, |done| {
                seen.push(done);
                ControlFlow::Continue(())
            });
            assert_eq!(seen, (0..2000).collect::<Vec<_>>(), "{jobs} jobs");
            let threads = lock(&threads).len();
            assert!(threads <= jobs, "{jobs} jobs ran on {threads} threads");
        }
    }

    /// Issue 42: batches start at one input, so that a few slow inputs
    /// still spread over the jobs instead of going to one worker in a
    /// batch.
    #[test]
    fn a_few_slow_inputs_spread_over_the_jobs() {
        let threads = Mutex::new(std::collections::HashSet::new());
        let process = |index: usize, _turn: Turn| {
            lock(&threads).insert(std::thread::current().id());
            std::thread::sleep(Duration::from_millis(20));
            index
        };
        let mut count = 0;
        run_parallel(numbered(8), 4, &process, |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(count, 8);
        assert!(lock(&threads).len() >= 2, "8 inputs of 20 ms each ran on one thread");
    }
}
