//! `fgn`: check, format, convert and replay FGN game logs.
//!
//! A thin shell over `fgn-notation` and `fgn-replay`: argument parsing,
//! reading inputs, writing results and exit codes. Exit codes, for every
//! command: 0 success, 1 some input is invalid, 2 a usage or I/O error.
//!
//! [`run`] runs the command line inside another program, on the streams
//! it hands in (the tests' crash loops run it thousands of times in one
//! process); the `fgn` binary is [`main`] on the process's own streams.

// `unsafe` is denied across the workspace and allowed only in the fgn
// binary's `main.rs`; a library crate forbids it, which no `allow` undoes.
#![forbid(unsafe_code)]

mod cmd_append;
mod cmd_convert;
mod cmd_diff;
mod cmd_events;
mod cmd_gen;
mod cmd_hash;
mod cmd_html;
mod cmd_impact;
mod cmd_leaderboard;
mod cmd_replay;
mod cmd_select;
mod cmd_stats;
mod cmd_syntax;
mod cmd_view;
mod manual;
mod out;
mod pipeline;
mod render;
mod report;
mod tables;
mod texts;
mod values;

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use out::{outln, ColorChoice, Host, Output, Stream};
use report::{FormatArg, Reporter, Style};

/// Check, format, convert and replay FGN (Fog Game Notation) game logs.
///
/// PATH arguments may be files, directories (every *.fgn file below them,
/// hidden ones left out unless --hidden), archives (.tar, .tar.gz, .tar.zst,
/// .tar.xz, .zip: every *.fgn member, named ARCHIVE:MEMBER; also inside a
/// directory) or `-` for standard input; a log compressed with gzip, zstd or
/// xz is read as its text. A file of several games one after the other is
/// read game by game, each named FILE#N with the file's line numbers. FILE
/// arguments one file or `-` (holding one game). Exit codes: 0 success, 1 some input is
/// invalid (for diff and the verify commands: the logs differ, the check
/// fails), 2 a usage or I/O error, a file that cannot be read or parsed
/// where a comparison needs it, or a game that cannot be checked yet.
/// Diagnostics go to standard error.
#[derive(Debug, Parser)]
#[command(name = "fgn", version)]
struct Cli {
    /// How to write: `text` for people; `json` for programs, with
    /// diagnostics as one JSON object per line on standard error and, for a
    /// command that has a result, the result as JSON on standard output
    /// (docs/json.md §17 lists every output and its schema); `svg`, for
    /// `show` only, the board as an SVG document (diagnostics as text);
    /// `b3sum`, for `hash` only, the log hashes as bare hex, in b3sum's
    /// line form (docs/hashing.md).
    #[arg(long, value_enum, global = true, default_value_t = FormatArg::Text)]
    format: FormatArg,

    /// `-j` before the command, as fgn took it before it was an option of
    /// the commands that read many files ([`Jobs`]): still taken by those,
    /// refused by the others, and left out of the help.
    #[arg(long, short = 'j', value_name = "N", hide = true)]
    jobs: Option<usize>,

    /// Write only errors and the output asked for: no summary lines, no
    /// notes and no progress line.
    #[arg(long, short = 'q', global = true)]
    quiet: bool,

    /// Make warnings errors, for checking a download: a torn last line, a
    /// header tag that looks like a parameter but is none, or a game whose
    /// random outcomes no revealed seed checked (no `SeedCommit`, or over
    /// without `@ seed`) makes its file invalid and the exit status 1. For
    /// the commands that report validity: validate, json, select, stats,
    /// leaderboard, verify-view and verify-extends.
    #[arg(long, global = true)]
    strict: bool,

    /// When to colour errors, places and boards: `auto` on a terminal
    /// unless NO_COLOR is set, `always` or `never`.
    #[arg(long, value_enum, global = true, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    color: ColorChoice,

    /// Walk into hidden files and directories too (names starting with
    /// `.`, such as `.git`), which directory walks leave out, as ripgrep
    /// does. A hidden file or directory named on the command line is always
    /// read.
    #[arg(long, global = true)]
    hidden: bool,

    #[command(subcommand)]
    command: Command,
}

/// `-j`/`--jobs`: an option of the commands that read many files only, so
/// that a command that reads one (show, view, append, ...) does not offer it.
#[derive(Debug, clap::Args)]
struct Jobs {
    /// How many files to work on at once; the default is one per core.
    /// Output is the same, in the same order, whatever the number.
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
}

/// The table options of `json` and `events` (docs/analysis.md): Parquet
/// files, the columns written and the schema of them.
#[derive(Debug, clap::Args)]
struct TableArgs {
    /// Write the table as Parquet files into DIR (made if missing), one
    /// folder per game, Hive-style: DIR/game=<game>/part-00000.parquet.
    /// Nothing is written on standard output.
    #[arg(long, value_name = "DIR")]
    parquet: Option<PathBuf>,
    /// With --parquet, replace the part files an earlier run left in DIR
    /// (without it they are refused, and nothing is written).
    #[arg(long, requires = "parquet")]
    force: bool,
    /// The columns to write, separated by commas, in the table's order:
    /// names, `default` (the columns written without this option, never
    /// null) and `all`. See docs/analysis.md for every column.
    #[arg(long, value_name = "LIST")]
    columns: Option<String>,
    /// Print the schema of the columns chosen instead of reading logs:
    /// `duckdb` the `columns={...}` clause of DuckDB's read_json, `json`
    /// a JSON description (name, type, nullable, meaning).
    #[arg(long, value_name = "FORM")]
    schema: Option<tables::SchemaForm>,
}

impl TableArgs {
    fn options(&self) -> tables::TableOptions<'_> {
        tables::TableOptions {
            parquet: self.parquet.as_deref(),
            force: self.force,
            columns: self.columns.as_deref(),
            schema: self.schema,
        }
    }
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
        /// With --check, also print a unified diff per file from its text
        /// to its canonical form, on standard output. Of a file with CRLF
        /// line ends (canonical FGN writes LF) a note says so, and the diff
        /// shows the other changes.
        #[arg(long, requires = "check")]
        diff: bool,
        /// Rewrite files that are not in canonical form, in place.
        #[arg(long)]
        write: bool,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Convert logs to JSON: header, typed events and a summary (comments
    /// left out).
    ///
    /// Each log that reads without syntax errors becomes one document with
    /// its "file" (the path; none for standard input) and its "summary":
    /// valid or its first error with line and column, the result, event and
    /// move counts, players, date, the final state hash and the log hash. A
    /// log that breaks a rule is exported too, marked by its summary. One
    /// FILE gives one pretty-printed document; several PATHs or a directory
    /// give one JSON array of them; --ndjson gives one compact document per
    /// line. A file that cannot be read as FGN gives an object of type
    /// "unreadable" with its file and summary (its syntax error, with line
    /// and column). See docs/json.md for every field (format version 4).
    /// --parquet writes the games table instead, a row per file with the
    /// summary's fields as columns (docs/analysis.md).
    Json {
        /// One compact document per line (NDJSON), for DuckDB, pandas or jq.
        #[arg(long)]
        ndjson: bool,
        /// Files, directories or `-`.
        #[arg(required_unless_present = "schema", value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        table: TableArgs,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Check that logs are legal under their game's rules.
    ///
    /// Reports each fault on standard error as one line, `file:line:col:
    /// [rule] message` (`[syntax]` for a syntax error, `[warning]` for a torn
    /// last line), each file's faults in file order, and a summary `N valid,
    /// M invalid` on standard output (with how many could not be checked:
    /// unsupported, or not read). Exit 0 when all are valid, 1 when some are
    /// invalid, 2 when a log cannot be checked (a game without an engine
    /// yet, a player's view), a file cannot be read, or the rules file
    /// cannot be used (a rules file without parameters for a log's game
    /// stops the run at that log).
    Validate {
        /// Also print a line for each valid log with its result.
        #[arg(long, short)]
        verbose: bool,
        /// Replay under changed parameters: a JSON object with any fields of
        /// the game's ruleset (see `fgn rules show GAME`), or such objects
        /// keyed by game name for a mixed archive. They win over the log's
        /// header parameter tags; each tag overridden is named on standard
        /// error (docs/rules.md, "Rules files").
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Report what changed rules do to recorded games.
    ///
    /// Replays every game strictly under its own rules (defaults and header)
    /// and under the changed ones (the --rules file's parameters, which win
    /// over header tags), and reports each game that changes: valid to
    /// invalid with the first failing event (line, event, rule), invalid to
    /// valid, another first failure, another result, another final state
    /// hash; then a summary table. A recorded world event the changed rules
    /// would not produce makes the game invalid there. With --resimulate, a
    /// game whose seed is revealed keeps its players' events (and chat,
    /// resignations, extra answers and timeouts), drops the recorded world
    /// events and has the referee derive them anew from the seed under the
    /// changed rules: the report names the first world event that differs,
    /// the first kept event that becomes illegal, or the new result. See
    /// docs/impact.md. Exit 0 when nothing changes, 1 when some game
    /// changes, 2 when a log cannot be read or compared or the rules file is
    /// bad.
    Impact {
        /// The changed rules: one game's parameters, or objects of
        /// parameters keyed by game name (docs/rules.md, "Rules files").
        #[arg(long, value_name = "FILE")]
        rules: PathBuf,
        /// Derive the world events of seed-revealed games anew instead of
        /// checking the recorded ones.
        #[arg(long)]
        resimulate: bool,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Draw the position of a log after some event.
    ///
    /// The board as text (symbols, or letters with --ascii), the last event
    /// and whose turn it is or the result; with --as white or black, only
    /// what that player knows. --format json writes the state (or the
    /// player's knowledge) and its hash (docs/json.md §11); --format svg
    /// the board as an SVG document, the last event's squares outlined
    /// (docs/cli.md, "show: SVG boards"). A log that
    /// breaks a rule is drawn up to the faulty event, and the rule error is
    /// reported (exit 1).
    Show {
        /// Show the position after this many events (0: the start), after
        /// a side's part of a move (12w: white's move 12 and what follows
        /// it before black's; 12b: black's, up to move 13), or at the end
        /// (the default).
        #[arg(long, value_name = "EVENTS|MOVE|end", allow_negative_numbers = true)]
        at: Option<cmd_replay::At>,
        /// Whose knowledge to draw: during a secret setup a player sees only
        /// its own pieces.
        #[arg(long = "as", value_enum, default_value = "all")]
        viewer: cmd_replay::ViewerArg,
        /// Replay under changed parameters (a rules file as for validate;
        /// it wins over the header's parameter tags).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Draw the board with ASCII letters (K Q R B N P for white, k q r
        /// b n p for black; w W b B for draughts) instead of symbols.
        #[arg(long)]
        ascii: bool,
        /// Draw the board from black's side (rank 1 on top, the files
        /// reversed); the default for --as black and for black's view file.
        #[arg(long, overrides_with = "no_flip")]
        flip: bool,
        /// Draw the board from white's side, even for black.
        #[arg(long)]
        no_flip: bool,
        /// A log file or `-`.
        #[arg(value_name = "FILE")]
        path: PathBuf,
    },
    /// Write a game as a self-contained HTML page that replays it.
    ///
    /// The page steps through the log event by event (buttons, the Left and
    /// Right arrow keys, Home and End, the event number, a click on a line
    /// of the log) and shows the board as an SVG drawing, the log with the
    /// current event marked, whose turn it is, the result and the state or
    /// knowledge hash, as `fgn show` words them. Without --as it holds every
    /// viewer the file allows, with a switch: everything, white's view and
    /// black's view of a full log; only its own player's of a view file.
    /// With --as it holds that viewer's frames alone, so that it can be
    /// given to that player. A log that breaks a rule is replayed up to the
    /// faulty event and the page shows the diagnostic (exit 1), as far as
    /// the viewer may see it. The page loads nothing from anywhere: its
    /// style, script and data are inline. A directory or several files
    /// make a site: --out DIR gets an index.html that lists every file
    /// (game, players, date, result, validity, or why it could not be read)
    /// and links to a page per game. See docs/cli.md.
    Html {
        /// Only this viewer's frames (default: every viewer the file allows).
        #[arg(long = "as", value_enum)]
        viewer: Option<cmd_replay::ViewerArg>,
        /// Replay under changed parameters (a rules file as for validate).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Write the page to this new file instead of standard output; for
        /// a directory or several files, the directory of the site (one
        /// that holds a site is refused unless --force).
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// With --out, overwrite the page, or the site, if it exists.
        #[arg(long, requires = "out")]
        force: bool,
        /// A log file or `-`; or directories and files, with --out DIR.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Print standings by RULES.md, each game apart.
    ///
    /// RULES.md gives points only for survival-chess: a point per
    /// multiplayer win of a VK player (`vk:<number>` ids). Its table lists
    /// each such player with wins, draws and losses in multiplayer games
    /// and points; the name shown for an id is the one of its latest game
    /// (by the `Date` tag, then by path). Other games have no points in
    /// RULES.md, so the output says so and counts their logs. Only logs
    /// that validate count, and each game once however many copies of it
    /// (same log hash) the paths hold; the logs skipped are listed on
    /// standard error (not with --quiet). Exit 0 when
    /// standings were computed, even with logs skipped; 2 when a path cannot
    /// be read or no log validates. --format json writes one document
    /// (docs/fgn-leaderboard.schema.json). See docs/cli.md.
    Leaderboard {
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Print a shell completion script for fgn.
    ///
    /// For bash: `mkdir -p ~/.local/share/bash-completion/completions &&
    /// fgn completions bash > ~/.local/share/bash-completion/completions/fgn`;
    /// zsh: `fgn completions zsh > ~/.zfunc/_fgn` (with ~/.zfunc in fpath);
    /// fish: `fgn completions fish > ~/.config/fish/completions/fgn.fish`
    /// (each folder made first). Games, outcomes and reasons complete to
    /// their names.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page of fgn, or of one of its commands, as roff.
    ///
    /// Read it with `fgn man | man -l -`, or install it: `mkdir -p
    /// ~/.local/share/man/man1 && fgn man > ~/.local/share/man/man1/fgn.1`
    /// (and `fgn man validate > ~/.local/share/man/man1/fgn-validate.1`
    /// for a command's own page; `fgn man rules show` for a command of a
    /// command).
    Man {
        /// The command whose page to print instead of fgn's.
        #[arg(value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Print a game's ruleset parameters (the defaults) as JSON, or check a
    /// rules file.
    ///
    /// `fgn rules show GAME` prints the defaults RULES.md sets, in the form
    /// a rules file takes (docs/rules.md "Rules files"): edit it and pass it
    /// to validate, show or impact with --rules. `fgn rules check FILE`
    /// checks such a file as --rules does, without a log.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
    /// Print a player's view of a log: what that player could know of it.
    ///
    /// The view is an FGN log with `[Perspective "white"]` or `"black"`
    /// (docs/notation.md §6): the opponent's hidden setup, unseen moves and
    /// the seed are left out or written with `?`, and what comes into sight
    /// is written as `@ see`. A view of the same side prints unchanged; a
    /// view of the other side is refused. A log that breaks a rule gets its
    /// view up to the faulty event, and the rule error is reported (exit 1);
    /// when the faulty event is not the side's own, only that there is one,
    /// since the event and the message could tell what the side cannot see.
    View {
        /// Whose view.
        #[arg(long = "as", value_enum)]
        side: cmd_view::Side,
        /// Write the view to this new file instead of standard output
        /// (`--output` is an old spelling, still read).
        #[arg(long, value_name = "FILE", alias = "output")]
        out: Option<PathBuf>,
        /// With --out, overwrite FILE if it exists.
        #[arg(long, requires = "out")]
        force: bool,
        /// A full log or `-`.
        #[arg(value_name = "FILE")]
        path: PathBuf,
    },
    /// Check that VIEW is exactly the view of FULL for VIEW's side.
    ///
    /// Compares the header and then event by event, and says so on standard
    /// output when they agree (`VIEW is the white view of FULL`; with
    /// --format json a result object, docs/json.md §17.3). Exit 0 when they agree;
    /// 1 when they part (naming the first line of VIEW where they do and
    /// what was expected there, or that events are missing or extra) or
    /// FULL breaks a rule; 2 when FULL is itself a view, the game has no
    /// engine or a file cannot be read or has syntax errors (there is then
    /// no verdict).
    VerifyView {
        /// The full log.
        #[arg(value_name = "FULL")]
        full: PathBuf,
        /// The player's view to check.
        #[arg(value_name = "VIEW")]
        view: PathBuf,
    },
    /// Print log hashes: one `blake3:<hex>  FILE` line per log, in b3sum's line form.
    ///
    /// The log hash is a hash chain over the canonical text `fmt` writes
    /// (docs/hashing.md): comments, spacing and spellings taken for the
    /// same event never change it; any change to an event does. `--chain`
    /// prints the chain's value after every event (a prefix of a log has
    /// the hash of its own), `--states` the state hash after every event,
    /// `--as` hashes a player's view (or, with `--states`, what it knows).
    /// `--check` reads SUMS files of such lines and says OK or FAILED for
    /// each (exit 1 if any failed; a torn or unparseable file fails, and
    /// says why); a SUMS file that lists nothing is an error (exit 2). A
    /// name holding a line feed or a backslash is escaped as b3sum escapes
    /// it (a `\` before the line, `\n` and `\\` in the name), and read back
    /// so by --check. A log hash is over the canonical events, not the
    /// file's bytes, so the `blake3:` keeps it from passing for a file hash
    /// with `b3sum --check`; `--format b3sum` writes the bare hex all the
    /// same, for b3sum's tool chain (--check reads only `blake3:` lines;
    /// docs/hashing.md §4). Duplicates in an archive:
    /// `fgn hash DIR | sort | uniq -D -w 71`.
    Hash {
        /// Hash this player's view instead of the full log.
        #[arg(long = "as", value_enum)]
        side: Option<cmd_view::Side>,
        /// Print the chain's value after every event.
        #[arg(long, conflicts_with_all = ["states", "check"])]
        chain: bool,
        /// Print the state hash after every event.
        #[arg(long, conflicts_with = "check")]
        states: bool,
        /// Treat the PATHs as lists of expected hashes and check them.
        #[arg(long)]
        check: bool,
        /// Files, directories or `-` (with --check: SUMS files).
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Check that NEW only appended to OLD: the same header, and all of
    /// OLD's events first (compared by the hash chain).
    ///
    /// NEW is then replayed: appended events that break a rule (or an OLD
    /// that already does) are not a valid extension of the game, and are
    /// reported as `validate` reports them. A game without an engine is
    /// compared as text only, with a note saying so.
    ///
    /// Exit 0 when it does; 1 naming the first event where they part (both
    /// lines), the first of OLD's events that NEW lacks, or the rule an
    /// event breaks; 2 when a file cannot be read or has syntax errors. A
    /// torn last line of OLD is reported, and the complete events before it
    /// are compared.
    VerifyExtends {
        /// The older download.
        #[arg(value_name = "OLD")]
        old: PathBuf,
        /// The newer download.
        #[arg(value_name = "NEW")]
        new: PathBuf,
    },
    /// Append events to a log file, each checked against the game first.
    ///
    /// Each EVENT is one whole event line as one argument, e.g. `'12 w
    /// Nf3-e5'` or, for a referee, `'12 @ timeout b'`; a bare action
    /// (`Nf3-e5`) is the side to act's, at its move number, which are
    /// filled in from the game, and a note names the line written (not
    /// during a secret setup or after the result). FILE is replayed and
    /// each event is checked after the ones before it; then the log with all
    /// of them is written beside FILE, synced and renamed over it, so a
    /// crash or kill at any point leaves FILE with the whole batch or
    /// without it (a reader that follows FILE must open it again by name).
    /// A batch is all or nothing: if one event is refused (its syntax error
    /// or the rule it breaks is reported) nothing is appended and the file
    /// is left byte for byte as it was. Events may be spelled any way FGN reads
    /// (`NG1-F3`, a `+` left out); they are written in canonical spelling,
    /// as `fgn fmt` would write them, an end-of-line comment kept. The
    /// header's rules decide; after the result only what the rules still
    /// allow (chat, the world's `@ seed`) is accepted.
    ///
    /// An exclusive lock on FILE is held from the read to the rename, so
    /// appenders running at once (processes using `fgn append` or the
    /// library) never lose or interleave events. A FILE whose last line has
    /// no line end (a torn append, left by another writer) is refused until
    /// `--repair` shows the torn line and cuts it. FILE is never created.
    ///
    /// Exit 0 when appended (or repaired); 1 when an event or FILE itself is
    /// refused (a syntax or rule error, a torn line); 2 when FILE cannot be
    /// opened, locked, read or written, or its game cannot be checked. With
    /// --format json the result is one JSON object on standard output, for
    /// a refusal too (docs/json.md). See docs/append.md.
    Append {
        /// Show the torn last line of FILE and cut it (truncate FILE to the
        /// end of its last complete line), and remove the temporary file of
        /// an append killed before it finished; a complete FILE is left alone.
        #[arg(long, conflicts_with = "events")]
        repair: bool,
        /// The log file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The event lines to append, one argument each, in order.
        #[arg(value_name = "EVENT", required_unless_present = "repair")]
        events: Vec<String>,
    },
    /// Compare two logs: are they the same game, and if not, where do they
    /// part and how do their positions differ?
    ///
    /// Both are canonicalised as `fmt` and `hash` do (comments, spacing and
    /// spellings of the same event never count) and compared by their log
    /// hashes. Exit 0 when they are the same. Otherwise exit 1 and print
    /// the first header tag that differs, the first event that differs
    /// (both lines with their line numbers, or the one a shorter log lacks),
    /// and what differs between the two positions after that event and at
    /// the end: pieces, HP, objects, coins, charges, reveals, turn and result
    /// (docs/json.md, "Changes"). With --as the two are compared as that
    /// player knows them: its views (as `fgn view` writes them) and its
    /// knowledge, never what it could not see; a view file is compared as
    /// its own player's. A log that breaks a rule is compared as far as it
    /// replays, and the rule error is noted. Exit 2 when a file cannot be
    /// read or has syntax errors. --format json writes one document
    /// (docs/fgn-diff.schema.json).
    Diff {
        /// Compare what this player knows instead of the full logs.
        #[arg(long = "as", value_enum)]
        side: Option<cmd_view::Side>,
        /// The first log (A).
        #[arg(value_name = "A")]
        a: PathBuf,
        /// The second log (B).
        #[arg(value_name = "B")]
        b: PathBuf,
    },
    /// Make random legal games of a game, played through the game API.
    ///
    /// Players choose among the legal actions (preferring mates and
    /// captures, --finish), the session rules check every event (clocks,
    /// timeouts and their extra-time answers, resignations, chat, salts,
    /// results) and the referee writes every world event (spawns, rolls,
    /// clones, reveals, the result, the seed). In open-world-chess and
    /// magic-draughts the world seed is derived from N, committed in the
    /// header and revealed after the result. The same arguments give
    /// byte-identical files. Exit 0 when the games are written; 2 for
    /// arguments that cannot make a game (a bad rules file, --board,
    /// --time-control, --salts in a game without a world seed, --setup
    /// classical outside survival-chess) or a file that cannot be written.
    /// See docs/gen.md.
    Gen(cmd_gen::GenArgs),
    /// Convert JSON games (as `fgn json` writes them) back to canonical FGN.
    ///
    /// FILE holds one document, a JSON array of them (`fgn json DIR`) or one
    /// per line (`fgn json --ndjson`); versions 1, 2, 3 and 4 are read, as
    /// a stream: each game is written before the next is read. The "file"
    /// and "summary" fields are not part of the game: the summary is
    /// derived from the game, and `fgn validate` is the check, but a
    /// summary's "log_hash" that is not the game's is refused, and so is an
    /// object holding a key twice. An object of "type" "unreadable" (a file
    /// `fgn json` could not read) is skipped with a note. One game is
    /// printed; several need --out, or --multi.
    FromJson {
        /// Write each game to its own new file in DIR (made if missing),
        /// named by its place and its "file" (`0003-mate.fgn`); a file
        /// that exists is refused unless --force (`--out-dir` is an old
        /// spelling, still read).
        #[arg(long, value_name = "DIR", alias = "out-dir")]
        out: Option<PathBuf>,
        /// Print every game on standard output as one FGN file of several
        /// games (one blank line between them, docs/notation.md §2.8), each
        /// as it is read.
        #[arg(long, conflicts_with = "out")]
        multi: bool,
        /// With --out, overwrite files that exist.
        #[arg(long, requires = "out")]
        force: bool,
        /// A JSON file or `-`.
        #[arg(value_name = "FILE")]
        path: PathBuf,
    },
    /// Convert logs to PGN (survival-chess) or PDN (draughts), and back.
    ///
    /// --to pgn writes every 8x8 survival-chess log of PATH... as a PGN
    /// game on standard output, one after another: chess programs read it
    /// as standard chess from its FEN (the position both setups made), with
    /// moves in SAN and FGN's clock as `[%egt]`. --to pdn writes every
    /// magic-draughts log as Russian draughts PDN (GameType 25, squares
    /// `c3-d4`, captures `c3:e5:c7`), a magic game's spells and reveals as
    /// comments.
    ///
    /// What the format has no form for (a setup's events, chat,
    /// timeouts, the tags' order) travels in `Fgn` tags and `[%fgn ...]`
    /// comments, so that --from gives back the same log (the same `fgn
    /// hash`). A log the format cannot hold (another game or board size, a
    /// player's view, a game still in its setup) is passed over with a note
    /// (exit 0); a log with syntax or rule errors is reported as by
    /// validate (exit 1).
    ///
    /// --from pgn and --from pdn read files of one or many games: a PGN
    /// game's FEN (chess's start position without one)
    /// becomes the two setups and must be a legal survival-chess setup; a
    /// PDN game is plain Russian draughts from the start (a magic game is
    /// refused); moves are read against the legal moves (castling and en
    /// passant are refused at their line and column), and the result must
    /// be what the rules decide. One game is printed; several need --out,
    /// or --multi to print them as one FGN file of several games.
    /// See docs/interchange.md.
    Convert(cmd_convert::ConvertArgs),
    /// Write every event of every log as one flat JSON row per line.
    ///
    /// Each row has its type ("event"), the file, its game and status, the
    /// event's index, line, move number, actor, canonical text and action,
    /// whether the rules accepted it, what it did (captures, deaths) and
    /// the file's first fault. These default columns are never null, so
    /// that DuckDB's read_json_auto and pandas type every one right; the
    /// action's sparse fields, the consequences, the phase and the state
    /// hash are asked for with --columns, and --schema duckdb prints the
    /// clause that pins their types. A file that cannot be read as FGN
    /// gives one row of type "unreadable" with its error. --parquet writes
    /// the same table as Parquet files (docs/analysis.md,
    /// docs/fgn-events.schema.json). Events after a rule error are written
    /// unapplied and the error is reported (exit 1).
    Events {
        /// Write NDJSON, what is written without --parquet (accepted so
        /// that scripts that name the form keep working).
        #[arg(long)]
        ndjson: bool,
        /// Files, directories or `-`.
        #[arg(required_unless_present = "schema", value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        table: TableArgs,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Print the logs that match every filter given, one path per line.
    ///
    /// Filters read each log's summary (as `fgn json` writes it): the game,
    /// a player's name or id on either side (or on one side), the outcome,
    /// the reason, the `Date` tag's range, the number of moves, and
    /// whether the log is valid. A filter given twice keeps either value;
    /// filters that contradict each other (--valid --invalid, --min-moves
    /// above --max-moves, --since after --until) are a usage error.
    /// --format json prints `{"type": "summary", "file", "summary"}` per
    /// match instead (a file with a syntax error has its summary too);
    /// --duplicates prints the groups of matching files that hold the same
    /// game (the same log hash). Invalid logs are reported on standard error
    /// as by validate (exit 1). See docs/select.md.
    Select {
        /// Keep logs of this game.
        #[arg(long, value_name = "GAME", value_parser = values::named(&fgn_notation::GameKind::ALL, fgn_notation::GameKind::name))]
        game: Vec<fgn_notation::GameKind>,
        /// Keep logs where this name or id played either side.
        #[arg(long, value_name = "NAME|ID")]
        player: Vec<String>,
        /// Keep logs where white has this name or id.
        #[arg(long, value_name = "NAME|ID")]
        white: Option<String>,
        /// Keep logs where black has this name or id.
        #[arg(long, value_name = "NAME|ID")]
        black: Option<String>,
        /// Keep logs with this outcome (decided or recorded).
        #[arg(long, value_name = "OUTCOME", value_parser = values::named(&fgn_notation::Outcome::ALL, fgn_notation::Outcome::text))]
        outcome: Vec<fgn_notation::Outcome>,
        /// Keep logs whose result has this reason.
        #[arg(long, value_name = "REASON", value_parser = values::named(&fgn_notation::Reason::ALL, fgn_notation::Reason::name))]
        reason: Vec<fgn_notation::Reason>,
        /// Keep logs dated on or after this: YYYY, YYYY-MM or YYYY-MM-DD
        /// (2025-3 is March), compared as dates. Logs whose Date is missing,
        /// unreadable or too vague for the bound (2025.??.?? for 2025-03)
        /// are passed over, and a note says how many.
        #[arg(long, value_name = "DATE", value_parser = parse_date)]
        since: Option<fgn_notation::PartialDate>,
        /// Keep logs dated on or before this (`--until 2025-03` keeps all
        /// of March).
        #[arg(long, value_name = "DATE", value_parser = parse_date)]
        until: Option<fgn_notation::PartialDate>,
        /// Keep logs with at least this many moves (players' moves of
        /// pieces, both sides counted).
        #[arg(long, value_name = "N")]
        min_moves: Option<usize>,
        /// Keep logs with at most this many moves.
        #[arg(long, value_name = "N")]
        max_moves: Option<usize>,
        /// Keep only valid logs.
        #[arg(long)]
        valid: bool,
        /// Keep only invalid logs (syntax or rule errors).
        #[arg(long)]
        invalid: bool,
        /// Print groups of matching files with the same log hash instead.
        #[arg(long)]
        duplicates: bool,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Statistics of an archive: per game, results from white's side,
    /// outcomes, reasons, lengths, what the events did (captures, deaths,
    /// coins, spells, charges), and each player's record.
    ///
    /// Counts every distinct game once (copies with the same log hash are
    /// listed as duplicates); results and players come from valid games
    /// with a result. Players are keyed by id (WhiteId/BlackId), else by
    /// name; the name shown is that of their latest game by Date. --format
    /// json writes one document (docs/fgn-stats.schema.json). Invalid logs
    /// are reported on standard error as by validate (exit 1).
    Stats {
        /// Also count what the events of each game's valid logs did:
        /// captures, deaths, coins spent and gained, spells cast, charges
        /// spent (the per-event counts of `fgn events`, summed). It
        /// replays every valid log a second time with its account of
        /// changes, which costs many times the rest of `stats`.
        #[arg(long)]
        counts: bool,
        /// Files, directories or `-`.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        jobs: Jobs,
    },
}

impl Command {
    /// The command's `-j`, `None` for a command that reads one file (or
    /// works on many without parallel workers), which takes none.
    fn jobs(&self) -> Option<&Jobs> {
        match self {
            Command::Fmt { jobs, .. }
            | Command::Json { jobs, .. }
            | Command::Validate { jobs, .. }
            | Command::Impact { jobs, .. }
            | Command::Leaderboard { jobs, .. }
            | Command::Hash { jobs, .. }
            | Command::Events { jobs, .. }
            | Command::Select { jobs, .. }
            | Command::Stats { jobs, .. } => Some(jobs),
            _ => None,
        }
    }
}

#[derive(Debug, Subcommand)]
enum RulesCommand {
    /// Print the default parameters of GAME as JSON; edit them into a file
    /// for `--rules` (or key several games' by game name in one file).
    Show {
        /// The game.
        #[arg(value_parser = values::named(&fgn_notation::GameKind::ALL, fgn_notation::GameKind::name))]
        game: fgn_notation::GameKind,
    },
    /// Check a rules file as `--rules` reads it, and say which games it
    /// gives parameters to.
    ///
    /// Exit 0 when the file can be used, printing the games it gives
    /// parameters to and their names (with --format json, validate's line
    /// for the file); 1 when it cannot, with the error `--rules` would
    /// give (the games meant, the field, the nearest name to a misspelt
    /// one); 2 when it cannot be read. See docs/rules.md, "Rules files".
    Check {
        /// The rules file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

/// The rules each game's engine implements, for `--version`: a log whose
/// `Rules` tag names another version is not checked.
fn long_version() -> String {
    let mut text = format!("{}\nrules supported:", env!("CARGO_PKG_VERSION"));
    for game in fgn_notation::GameKind::ALL {
        text += &format!("\n  {game} {}", fgn_replay::ruleset::rules_version(game));
    }
    text
}

/// The command line as clap knows it, with the long version: what parses
/// the arguments and what completions and the manual page are written from.
/// It is made once per process and copied for each run: making it (every
/// command's help, its styles stripped to find the opening sentence) took
/// more than half the time of the end-to-end tests' corpus loops, which
/// run fgn thousands of times in one process ([`run`]), as a server may.
fn command() -> clap::Command {
    static COMMAND: std::sync::OnceLock<clap::Command> = std::sync::OnceLock::new();
    COMMAND
        .get_or_init(|| grouped(same_opening(Cli::command().long_version(long_version()))))
        .clone()
}

/// [`command`] without what only its help and messages show (each
/// command's opening sentence, the grouped list of commands, the long
/// version): what parses a command line that is right. Those parts take
/// no part in parsing, and making them was a third of the start of every
/// run (0.8 of 2.4 million instructions), time in which no core works on
/// a log; a command line that clap refuses, or that asks for help or the
/// version, is parsed again with [`command`], which says what went wrong.
///
/// The parser is made once per process and parses in place (clap's
/// `try_get_matches_from_mut`, made for a command that parses many lines),
/// not copied for each run as [`command`] is: copying it and dropping the
/// copy was another fifth of the start (350,000 of 1.5 million
/// instructions, and some 350 KB of fresh memory touched). Runs in other
/// threads of the same process wait for one another's parse, a few
/// microseconds each.
fn parse(args: &[OsString]) -> Result<clap::ArgMatches, clap::Error> {
    static PARSER: std::sync::Mutex<Option<clap::Command>> = std::sync::Mutex::new(None);
    // A parse that panicked may have left the parser half built: it is
    // made again.
    let mut parser = PARSER.lock().unwrap_or_else(|e| {
        PARSER.clear_poison();
        let mut parser = e.into_inner();
        *parser = None;
        parser
    });
    parser.get_or_insert_with(Cli::command).try_get_matches_from_mut(args)
}

/// The commands as `fgn --help` lists them: in groups by what they are for,
/// each group in the order a user meets its commands. Every command is in
/// one group (a test checks it), `help` last.
const GROUPS: &[(&str, &[&str])] = &[
    ("Check logs", &["validate", "impact", "diff"]),
    ("Inspect a game", &["show", "html", "events"]),
    ("Convert", &["fmt", "json", "from-json", "convert"]),
    (
        "Trust: views, hashes and appends",
        &["view", "verify-view", "hash", "verify-extends", "append"],
    ),
    ("Archives", &["select", "stats", "leaderboard"]),
    (
        "Make games, set up fgn",
        &["gen", "rules", "completions", "man", "help"],
    ),
];

/// `cmd` with its commands listed in [`GROUPS`], each group under its own
/// heading, by a help template (clap lists a command's subcommands under
/// one heading only). The rest of the help is clap's own: about, usage,
/// options and their styles. `fgn help COMMAND` and each command's help
/// are untouched.
fn grouped(cmd: clap::Command) -> clap::Command {
    let styles = cmd.get_styles().clone();
    let (heading, literal) = (styles.get_header(), styles.get_literal());
    let about = |name: &str| -> String {
        match cmd.find_subcommand(name) {
            Some(sub) => sub.get_about().map(ToString::to_string).unwrap_or_default(),
            // Clap adds `help` only when it builds the command.
            None => "Print this message or the help of the given command.".to_string(),
        }
    };
    let width = GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter())
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for (title, names) in GROUPS {
        text += &format!("{}{title}:{}\n", heading.render(), heading.render_reset());
        for name in *names {
            let pad = " ".repeat(width - name.len());
            text += &format!(
                "  {}{name}{}{pad}  {}\n",
                literal.render(),
                literal.render_reset(),
                about(name)
            );
        }
        text.push('\n');
    }
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{text}{}Options:{}\n{{options}}{{after-help}}",
        heading.render(),
        heading.render_reset()
    );
    cmd.help_template(template)
}

/// Makes `-h` open with the same sentence as `--help`: clap takes the short
/// help from the doc comment's first paragraph but drops its final period,
/// so the short help becomes that paragraph exactly, for every command.
fn same_opening(mut cmd: clap::Command) -> clap::Command {
    if let Some(long) = cmd.get_long_about().map(ToString::to_string) {
        let first = long.split("\n\n").next().unwrap_or(&long).to_string();
        cmd = cmd.about(first);
    }
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, same_opening);
    }
    cmd
}

/// clap suggests the nearest command for `fgn valdate`, but not for `fgn
/// help valdate` or `fgn help rules shw`: such an error gets the same tip,
/// the nearest command among those of the command before the typo.
fn with_command_tip(mut e: clap::Error, args: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidSubcommand || e.get(ContextKind::SuggestedSubcommand).is_some() {
        return e;
    }
    let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidSubcommand) else {
        return e;
    };
    let typed = typed.clone();
    let root = command();
    let mut parent = &root;
    for word in args.iter().skip_while(|a| *a != "help").skip(1) {
        match parent.find_subcommand(word) {
            Some(sub) => parent = sub,
            None => break,
        }
    }
    if let Some(name) = fgn_replay::ruleset::nearest(&typed, parent.get_subcommands().map(clap::Command::get_name)) {
        e.insert(ContextKind::SuggestedSubcommand, ContextValue::String(name.to_string()));
    }
    e
}

fn parse_date(s: &str) -> Result<fgn_notation::PartialDate, String> {
    fgn_notation::PartialDate::parse_bound(s)
}

/// The `fgn` binary: the command line of the process on its own standard
/// streams, ending it with the exit code. `stdout_closed`: standard output
/// was closed when the process started (`fgn hash FILE >&-`), which only
/// the binary can tell, before Rust's runtime opens `/dev/null` in its
/// place; every write to it is then an error (exit 2), as to a full disk.
pub fn main(stdout_closed: bool) -> ExitCode {
    let (mut stdin, mut stdout, mut stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    let host = Host::Process { stdout_closed };
    let code = run_on(host, std::env::args_os(), &mut stdin, &mut stdout, &mut stderr);
    ExitCode::from(code)
}

/// Runs fgn with the command line `args` (the program's name first, as
/// [`std::env::args_os`] gives it) on the streams handed in, and gives back
/// the exit code: 0 success, 1 some input is invalid, 2 a usage or I/O
/// error. What it writes and the code are what the `fgn` binary writes and
/// ends with, except that nothing here ends the process or looks at a
/// terminal (no colour with `--color auto`, no progress line): a closed
/// standard output stops the run's output with the code the binary would
/// exit with. Several may run at once on different threads: they share
/// only the parser of the command line, and take turns at it for the few
/// microseconds of a parse.
///
/// ```
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let args = ["fgn", "fmt", "-"].map(std::ffi::OsString::from);
/// let log = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place  Ke1\n";
/// let code = fgn::run(args, &mut &log[..], &mut out, &mut err);
/// assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
/// assert!(String::from_utf8_lossy(&out).ends_with("0 w place Ke1\n"));
/// ```
pub fn run(
    args: impl IntoIterator<Item = OsString>,
    stdin: &mut (dyn Read + Send),
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> i32 {
    run_on(Host::Embedded, args, stdin, stdout, stderr).into()
}

/// [`run`] as `host` runs it.
fn run_on(
    host: Host,
    args: impl IntoIterator<Item = OsString>,
    stdin: &mut (dyn Read + Send),
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> u8 {
    let args: Vec<OsString> = args.into_iter().collect();
    let mut io = Output::new(host, stdin, stdout, stderr);
    let parsed = parse(&args)
        .or_else(|_| command().try_get_matches_from(&args))
        .and_then(|matches| {
            let name = matches.subcommand_name().unwrap_or_default().to_string();
            Cli::from_arg_matches(&matches).map(|cli| (cli, name))
        });
    let (cli, name) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let e = with_command_tip(e, &args);
            // clap's own exit code is 2 for usage errors and 0 for --help.
            let code = if e.use_stderr() { 2 } else { 0 };
            let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
            let json = args.windows(2).any(|w| w[0] == "--format" && w[1] == "json")
                || args.iter().any(|a| a == "--format=json");
            let stream = if e.use_stderr() { Stream::Err } else { Stream::Out };
            if json && e.use_stderr() {
                let message = e.render().to_string();
                let usage = serde_json::json!({"kind": "usage", "message": message.trim_end()});
                io.write(Stream::Err, &format!("{usage}\n"));
            } else if matches!(host, Host::Process { .. }) {
                // clap colours its message on a terminal itself.
                let _ = e.print();
            } else {
                io.write(stream, &e.render().to_string());
            }
            return io.ended().unwrap_or(code);
        }
    };
    // A command's own `-j` wins over one given before it.
    let jobs = cli.command.jobs().map(|own| own.jobs.or(cli.jobs));
    io.settle(cli.color, jobs.flatten());
    io.walk_hidden(cli.hidden);
    let io = &io;
    let mut rep = Reporter::new(io, cli.format.format());
    rep.quiet = cli.quiet;
    rep.strict = cli.strict;
    if jobs.is_none() && cli.jobs.is_some() {
        rep.error(&format!(
            "-j/--jobs is for the commands that read many files; `fgn {name}` takes none"
        ));
        return io.ended().unwrap_or(rep.status as u8);
    }
    // One style of text diagnostic per command: the caret form for the
    // commands that only read the syntax (all their faults are syntax
    // errors); one line per fault, ready for grep, for every command that
    // also replays, so that its syntax and rule errors read alike.
    rep.style = match cli.command {
        Command::Fmt { .. } | Command::Json { .. } | Command::FromJson { .. } => Style::Caret,
        _ => Style::Line,
    };
    // Only `show` draws a board; every other command reads `--format` as
    // text or JSON, so an SVG is refused here, once, for all of them.
    if cli.format == FormatArg::Svg && !matches!(cli.command, Command::Show { .. }) {
        rep.error("--format svg draws a board: only `fgn show` writes it");
        return io.ended().unwrap_or(rep.status as u8);
    }
    // The same for b3sum's lines, which only plain `fgn hash` writes.
    let plain_hash = matches!(
        cli.command,
        Command::Hash {
            chain: false,
            states: false,
            check: false,
            ..
        }
    );
    if cli.format == FormatArg::B3sum && !plain_hash {
        rep.error("--format b3sum writes log hashes in b3sum's line form: only `fgn hash` writes it (without --chain, --states or --check)");
        return io.ended().unwrap_or(rep.status as u8);
    }
    match &cli.command {
        Command::Fmt {
            check,
            diff,
            write,
            paths,
            ..
        } => cmd_syntax::fmt(paths, *check, *diff, *write, &mut rep),
        Command::Json {
            ndjson, paths, table, ..
        } => cmd_syntax::json(paths, *ndjson, &table.options(), &mut rep),
        Command::Append { repair: true, file, .. } => cmd_append::repair(file, &mut rep),
        Command::Append { file, events, .. } => cmd_append::append(file, events, &mut rep),
        Command::FromJson {
            path,
            out,
            multi,
            force,
        } => cmd_syntax::from_json_cmd(path, out.as_deref(), *multi, *force, &mut rep),
        Command::Gen(args) => cmd_gen::gen(args, &mut rep),
        Command::Convert(args) => cmd_convert::convert(args, &mut rep),
        Command::Events { paths, table, .. } => cmd_events::events(paths, &table.options(), &mut rep),
        Command::Select {
            game,
            player,
            white,
            black,
            outcome,
            reason,
            since,
            until,
            min_moves,
            max_moves,
            valid,
            invalid,
            duplicates,
            paths,
            ..
        } => {
            use fgn_tools::summary::Status;
            let statuses = match (valid, invalid) {
                (true, _) => vec![Status::Valid],
                (_, true) => vec![Status::Invalid],
                _ => Vec::new(),
            };
            let filter = fgn_tools::archive::Filter {
                games: game.iter().map(|g| g.name().to_string()).collect(),
                players: player.clone(),
                white: white.clone(),
                black: black.clone(),
                outcomes: outcome.clone(),
                reasons: reason.clone(),
                since: *since,
                until: *until,
                min_moves: *min_moves,
                max_moves: *max_moves,
                statuses,
            };
            if *valid && *invalid {
                rep.error("--valid and --invalid exclude each other: no log can match");
            } else {
                cmd_select::select(paths, &filter, *duplicates, &mut rep)
            }
        }
        Command::Stats { paths, counts, .. } => cmd_stats::stats(paths, *counts, &mut rep),
        Command::Validate {
            verbose, rules, paths, ..
        } => cmd_replay::validate(paths, rules.as_deref(), *verbose, &mut rep),
        Command::Show {
            at,
            viewer,
            rules,
            ascii,
            flip,
            no_flip,
            path,
        } => {
            let flip = match (flip, no_flip) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            };
            let look = render::Look { ascii: *ascii, flip };
            let svg = cli.format == FormatArg::Svg;
            cmd_replay::show(path, *at, viewer.viewer(), rules.as_deref(), look, svg, &mut rep)
        }
        Command::Html {
            viewer,
            rules,
            out,
            force,
            paths,
        } => cmd_html::html(
            paths,
            viewer.map(cmd_replay::ViewerArg::viewer),
            rules.as_deref(),
            out.as_deref(),
            *force,
            &mut rep,
        ),
        Command::Impact {
            rules,
            resimulate,
            paths,
            ..
        } => cmd_impact::impact(paths, rules, *resimulate, &mut rep),
        Command::View { side, out, force, path } => cmd_view::view(path, *side, out.as_deref(), *force, &mut rep),
        Command::VerifyView { full, view } => cmd_view::verify(full, view, &mut rep),
        Command::Hash {
            side,
            chain,
            states,
            check,
            paths,
            ..
        } => {
            if *check {
                cmd_hash::check(paths, *side, &mut rep)
            } else {
                let what = match (chain, states) {
                    (true, _) => cmd_hash::What::Chain,
                    (_, true) => cmd_hash::What::States,
                    _ => cmd_hash::What::Log,
                };
                cmd_hash::hash(paths, *side, what, cli.format == FormatArg::B3sum, &mut rep)
            }
        }
        Command::VerifyExtends { old, new } => cmd_hash::verify_extends(old, new, &mut rep),
        Command::Diff { side, a, b } => cmd_diff::diff(a, b, *side, &mut rep),
        Command::Leaderboard { paths, .. } => cmd_leaderboard::leaderboard(paths, &mut rep),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut command(), "fgn", &mut script);
            rep.print(&String::from_utf8_lossy(&script));
        }
        Command::Man { command: words } => manual::man(command(), words, &mut rep),
        Command::Rules {
            command: RulesCommand::Check { file },
        } => cmd_replay::check_rules(file, &mut rep),
        Command::Rules {
            command: RulesCommand::Show { game },
        } => outln!(
            rep,
            "{}",
            serde_json::to_string_pretty(&fgn_replay::Ruleset::defaults(*game)).expect("rulesets serialize")
        ),
    }
    io.ended().unwrap_or(rep.status as u8)
}

#[cfg(test)]
mod tests {
    use std::io::{self, Write};

    /// `fgn --help` lists the commands of [`super::GROUPS`] only: a
    /// command missing from it would be missing from the help.
    #[test]
    fn every_command_is_in_one_help_group() {
        use clap::CommandFactory;
        let mut commands: Vec<String> = super::Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .chain(["help".to_string()])
            .collect();
        let mut grouped: Vec<String> = super::GROUPS
            .iter()
            .flat_map(|(_, names)| names.iter().map(ToString::to_string))
            .collect();
        commands.sort();
        grouped.sort();
        assert_eq!(grouped, commands);
    }

    /// The parser of a run's command line ([`super::parse`]) takes what
    /// the command of its help and errors ([`super::command`]) takes and
    /// refuses what it refuses: what one of them accepts runs the same
    /// command either way, every command, its help and the version alike.
    #[test]
    fn the_parser_without_the_help_parses_as_the_command_with_it() {
        let command = super::command();
        let mut lines: Vec<Vec<String>> = vec![
            vec!["--help".into()],
            vec!["-V".into()],
            vec!["--version".into()],
            vec!["valdate".into()],
            vec!["--jobs".into(), "x".into(), "validate".into(), "d".into()],
            vec!["--format".into(), "json".into(), "validate".into(), "--bogus".into()],
            vec!["help".into(), "rules".into(), "shw".into()],
            vec![],
        ];
        for sub in command.get_subcommands() {
            let name = sub.get_name().to_string();
            lines.push(vec![name.clone()]);
            lines.push(vec![name.clone(), "-h".into()]);
            lines.push(vec![name.clone(), "--help".into()]);
            lines.push(vec![name.clone(), "x.fgn".into()]);
            lines.push(vec!["help".into(), name.clone()]);
            for inner in sub.get_subcommands() {
                lines.push(vec![
                    name.clone(),
                    inner.get_name().to_string(),
                    "survival-chess".into(),
                ]);
            }
        }
        for line in lines {
            let args: Vec<std::ffi::OsString> = std::iter::once("fgn".into())
                .chain(line.iter().map(std::ffi::OsString::from))
                .collect();
            // One parser for every line, as a process that runs fgn many
            // times has: what one parse leaves in it must not change the
            // next.
            let plain = super::parse(&args);
            let full = super::command().try_get_matches_from(&args);
            match (plain, full) {
                (Ok(plain), Ok(full)) => assert_eq!(plain.subcommand_name(), full.subcommand_name(), "{line:?}"),
                (Err(plain), Err(full)) => assert_eq!(plain.kind(), full.kind(), "{line:?}"),
                (plain, full) => panic!("{line:?}: the parser gives {plain:?}, the command {full:?}"),
            }
        }
    }

    /// A standard output that fails every write with `kind`.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn run_on_failing(kind: io::ErrorKind) -> (i32, String) {
        let args = ["fgn", "--jobs", "2", "json", "../corpus/magic-draughts/valid"].map(std::ffi::OsString::from);
        let mut err = Vec::new();
        let code = super::run(args, &mut io::empty(), &mut Failing(kind), &mut err);
        (code, String::from_utf8_lossy(&err).into_owned())
    }

    /// What the binary does when its output cannot be written ends an
    /// embedded run's output instead of the process: a reader that went
    /// away is exit 0 and nothing more is written; any other write error is
    /// said once, with exit 2.
    #[test]
    fn an_output_that_cannot_be_written_ends_the_run_not_the_process() {
        assert_eq!(run_on_failing(io::ErrorKind::BrokenPipe), (0, String::new()));
        let (code, err) = run_on_failing(io::ErrorKind::StorageFull);
        assert_eq!(code, 2);
        assert_eq!(
            err.matches("error: cannot write to standard output").count(),
            1,
            "{err}"
        );
    }
}
