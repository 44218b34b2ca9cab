//! Standard output that never panics.

use std::io::Write;

/// Writes `text` to standard output. When the reader has gone away (a closed
/// pipe, as in `fgn json archive/ | head -1`) the program ends quietly with
/// exit code 0, as Unix tools do when their reader has all it wanted; any
/// other write error ends it with exit code 2.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprint(&format!("error: cannot write to standard output: {e}\n"));
        std::process::exit(2);
    }
}

/// Writes `text` to standard error. Diagnostics that cannot be written (a
/// full disk, `2>/dev/full`, a closed pipe) are lost, but never end the
/// program with a panic: the exit code still tells what happened.
pub fn eprint(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
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
