//! `fgn`: check, format, convert and replay FGN game logs.
//!
//! A thin shell over `fgn-notation` and `fgn-replay`: argument parsing,
//! reading inputs, writing results and exit codes. Exit codes, for every
//! command: 0 success, 1 some input is invalid, 2 a usage or I/O error.

mod cmd_syntax;
mod inputs;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use report::{Format, Reporter};

/// Check, format, convert and replay FGN (Fog Game Notation) game logs.
///
/// PATH arguments may be files, directories (every *.fgn file below them) or
/// `-` for standard input. Exit codes: 0 success, 1 some input is invalid,
/// 2 a usage or I/O error. Diagnostics go to standard error.
#[derive(Debug, Parser)]
#[command(name = "fgn", version, about, long_about)]
struct Cli {
    /// How to write diagnostics: `text` for people, `json` for one JSON
    /// object per line.
    #[arg(long, value_enum, global = true, default_value_t = Format::Text)]
    format: Format,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print logs in canonical form, keeping comments.
    ///
    /// Without --check or --write it prints one log to standard output. Files
    /// with syntax errors are reported and never rewritten.
    Fmt {
        /// Exit with 1 and name every file that is not in canonical form.
        #[arg(long)]
        check: bool,
        /// Rewrite files that are not in canonical form, in place.
        #[arg(long)]
        write: bool,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Convert logs to JSON (header and typed events; comments left out).
    ///
    /// Each log becomes one pretty-printed JSON document; several logs give a
    /// stream of documents. See docs/json.md for the fields.
    Json {
        /// One compact document per line, each with a "file" field naming its source.
        #[arg(long)]
        ndjson: bool,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Convert one JSON game (as `fgn json` writes it) back to canonical FGN.
    FromJson {
        /// A JSON file or `-`.
        #[arg(value_name = "FILE")]
        path: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap's own exit code is 2 for usage errors and 0 for --help.
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let mut rep = Reporter::new(cli.format);
    match &cli.command {
        Command::Fmt { check, write, paths } => cmd_syntax::fmt(paths, *check, *write, &mut rep),
        Command::Json { ndjson, paths } => cmd_syntax::json(paths, *ndjson, &mut rep),
        Command::FromJson { path } => cmd_syntax::from_json_cmd(path, &mut rep),
    }
    rep.status.into()
}
