//! The `fgn` binary: everything is in the library ([`fgn::run`] runs the
//! same command line inside another program).

fn main() -> std::process::ExitCode {
    malloc::keep_freed_memory();
    fgn::main(standard_output::was_closed())
}

/// Whether standard output was closed when the process started
/// (`fgn hash FILE >&-`): hashes or reports written nowhere are not a
/// success, so fgn must fail (exit 2) rather than write to what stands in
/// its place.
///
/// Rust's runtime opens `/dev/null` on a standard stream found closed,
/// before `main`, so by then a closed standard output looks like one sent
/// to `/dev/null` on purpose. Until session 26 fgn guessed afterwards,
/// from how the runtime opens it (for reading and writing), and so took
/// the `/dev/null` that Python's `subprocess.DEVNULL` and Node's
/// `"ignore"` hand a program, opened the same way, for a closed output:
/// `fgn validate` run from such a program failed with exit 2. Now a
/// function the C library runs before Rust's runtime starts (from the
/// ELF `.init_array`, as the standard library itself does to keep the
/// program's arguments) asks the kernel whether descriptor 1 is open.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod standard_output {
    use std::sync::atomic::{AtomicBool, Ordering};

    static CLOSED: AtomicBool = AtomicBool::new(false);

    extern "C" fn look() {
        // SAFETY: `F_GETFD` only reads the flags of descriptor 1 in the
        // process's table; it fails (-1) when no such descriptor is open.
        let open = unsafe { libc::fcntl(1, libc::F_GETFD) } != -1;
        CLOSED.store(!open, Ordering::Relaxed);
    }

    // Placed among the functions the C library calls before `main` (glibc
    // passes them the program's arguments, which this one ignores, as the
    // C calling convention allows); `used` keeps the linker from dropping
    // it.
    #[used]
    #[link_section = ".init_array"]
    static LOOK: extern "C" fn() = look;

    pub fn was_closed() -> bool {
        CLOSED.load(Ordering::Relaxed)
    }
}

/// Elsewhere a closed standard output cannot be told from `/dev/null`.
#[cfg(not(target_os = "linux"))]
mod standard_output {
    pub fn was_closed() -> bool {
        false
    }
}

/// How the C library's allocator gives memory back, set once for the
/// process (issue 42).
///
/// glibc's `malloc` gives freed memory back to the kernel as soon as
/// 128 KiB lie free at the top of a heap, and takes it back page by page
/// (a page fault each) at the next allocation. A run that reads a log,
/// works on it and drops what it made does that for nearly every log. In
/// a process of one thread this is cheap; once a second thread runs
/// (`--jobs 2`), every page given back means interrupting the other core
/// to flush its address translations, and the threads' heaps (one per
/// thread) churn the same way. Measured: `json --ndjson` over 3,000
/// survival-chess logs spent about a tenth of its two-job CPU time there
/// (`perf`: `madvise`, `brk` and the flush interrupts). Keeping 16 MiB
/// free at the top of each heap ends the churn. Memory a heap has touched
/// then stays the process's until it ends: each thread's heap holds what
/// it held at its own peak, up to 16 MiB more than it holds now (peak
/// memory of `json` over 15,000 logs with two jobs went from 10.4 to
/// 12.8 MB; what the heaps hold grows with the number of jobs as before).
///
/// Only the binary sets it: a program that runs fgn inside itself
/// (`fgn::run`), and the Python package, which uses fgn's libraries, keep
/// their allocator as they chose. The settings override any a user gives
/// glibc in the environment (`GLIBC_TUNABLES`, `MALLOC_TOP_PAD_`). Setting
/// the pad turns off glibc's sliding threshold for serving large blocks
/// by `mmap`, so the threshold is set too, to that sliding threshold's
/// own ceiling (32 MiB on 64-bit systems): a block as large as a log
/// (up to 64 MiB) is still mapped and unmapped on its own.
#[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
mod malloc {
    const TOP_PAD: libc::c_int = 16 << 20;
    const MMAP_THRESHOLD: libc::c_int = 32 << 20;

    // The workspace denies `unsafe` but for this call: `mallopt` only
    // sets two numbers in the allocator's state, before any thread is
    // started. Both values are within what glibc accepts on 64-bit
    // systems (the threshold's bound is 32 MiB there, far less on 32-bit
    // ones, where the module is left out); were one refused (it returns
    // 0), fgn would be as correct, only slower on several cores.
    #[allow(unsafe_code)]
    pub fn keep_freed_memory() {
        // SAFETY: `mallopt` takes two integers and touches nothing of
        // ours; it is called before any other thread exists.
        unsafe {
            libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        }
    }
}

/// Elsewhere the allocator is left as it is.
#[cfg(not(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64")))]
mod malloc {
    pub fn keep_freed_memory() {}
}
