//! The `fgn` binary: everything is in the library ([`fgn::run`] runs the
//! same command line inside another program).

fn main() -> std::process::ExitCode {
    fgn::main()
}
