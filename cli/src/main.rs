//! The `fgn` binary: everything is in the library ([`fgn::run`] runs the
//! same command line inside another program).

fn main() -> std::process::ExitCode {
    malloc::keep_freed_memory();
    fgn::main()
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
/// free at the top of each heap ends the churn; memory already touched
/// stays the process's until it ends, which for a run of fgn is what it
/// would hold at its peak anyway.
///
/// Only the binary sets it: a program that runs fgn inside itself (the
/// Python package, `fgn::run`) keeps its allocator as it chose. Setting
/// the pad turns off glibc's sliding threshold for serving large blocks
/// by `mmap`, so the threshold is set too, to that sliding threshold's
/// own ceiling (32 MiB on 64-bit systems): a block as large as a log
/// (up to 64 MiB) is still mapped and unmapped on its own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod malloc {
    const TOP_PAD: libc::c_int = 16 << 20;
    const MMAP_THRESHOLD: libc::c_int = 32 << 20;

    // The workspace forbids `unsafe` but for this call: `mallopt` only
    // sets two numbers in the allocator's state, before any thread is
    // started, and a refusal (it returns 0) leaves glibc's defaults,
    // with which fgn is correct, only slower on several cores.
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
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod malloc {
    pub fn keep_freed_memory() {}
}
