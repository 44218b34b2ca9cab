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
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// `println!` through [`print()`].
macro_rules! outln {
    ($($t:tt)*) => {
        $crate::out::print(&format!("{}\n", format_args!($($t)*)))
    };
}

pub(crate) use outln;
