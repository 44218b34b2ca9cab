//! A toy game server: the library's game API put together into the loop a
//! server runs for one game.
//!
//! ```text
//! cargo run --example toy_server -p fgn-replay -- FILE [--seed HEX] [NAME=VALUE...]
//! ```
//!
//! It opens the log FILE, or creates it when it does not exist: with the
//! header tags given as `NAME=VALUE` arguments (`Game=open-world-chess
//! Rules=1.2`), or, without any, a survival-chess game on an 8x8 board
//! whose setup is the classical start position, placed and made ready by
//! the server. A game with world randomness (open-world-chess,
//! magic-draughts) needs its world seed, `--seed` and 64 hex digits; a new
//! game's header gets the seed's commitment (`SeedCommit`), and an existing
//! one's must match it.
//!
//! Then it reads events from standard input, one per line (blank lines
//! are skipped). Each line is read for the log's game
//! (`Header::parse_event`), completed to its canonical spelling
//! (`Replay::canonical`) and applied to the live game (`Replay::apply`).
//! A refused line is reported on standard error, `stdin:LINE:COLUMN:`
//! followed by the syntax error or by the rule id, the event and the rule
//! error, and the game goes on unchanged. An accepted event is appended to
//! FILE durably (`fgn_tools::append::append`: locked, checked against the
//! file, written and synced), followed by the world events the referee
//! owes after it, derived from the seed (`Replay::owed_world_events`:
//! spawns, damage rolls, clones, reveals, the result, the seed). An event
//! that carries a clock reading (`{t=...}`) first gets the `@ timeout` the
//! clocks owe at that time, if any (`Replay::due_timeout`); a real server
//! would ask the same on a timer.
//!
//! After each accepted event, and each world event, standard output shows
//! what each player's view gained (`ViewWriter`): the lines a server would
//! send to white and to black, with the fog, the hidden setup and the seed
//! kept from the player who may not see them. A line `next: ...` says who
//! is to act. At the end of the input the server stops; the file holds a
//! log that `fgn validate` accepts.
//!
//! Exit codes are fgn's: 0 at the end of the input (refused lines
//! included), 1 when FILE holds an invalid log, 2 for a usage error or a
//! file that cannot be read, parsed or written.
//!
//! The server replays the whole file on each append (that is how `append`
//! checks an event against the log as it stands on disk, whoever else
//! writes it): fine for a toy, and a real server would keep its own log
//! in memory and append without rereading.

use std::fs::OpenOptions;
use std::io::{BufRead, Write};
use std::path::Path;

use fgn_notation::{parse, Color, Event, Game, Header, Seed, Tag};
use fgn_replay::{locate, validate, Phase, Replay, Turn, ViewWriter};
use fgn_tools::append::append;

/// The default game's header.
const DEFAULT_HEADER: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n";

/// The default game's setup: the classical start position, then both ready.
const DEFAULT_SETUP: [&str; 4] = [
    "0 w place Ke1 Qd1 Ra1 Rh1 Nb1 Ng1 Bc1 Bf1 Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2",
    "0 b place Ke8 Qd8 Ra8 Rh8 Nb8 Ng8 Bc8 Bf8 Pa7 Pb7 Pc7 Pd7 Pe7 Pf7 Pg7 Ph7",
    "0 w ready",
    "0 b ready",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdin = std::io::stdin().lock();
    let code = run(&args, stdin, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}

/// Why the server stops before the end of its input, with fgn's exit code.
struct Stop {
    code: i32,
    message: String,
}

fn usage(message: impl Into<String>) -> Stop {
    Stop {
        code: 2,
        message: format!(
            "{}\nusage: toy_server FILE [--seed HEX] [NAME=VALUE...]",
            message.into()
        ),
    }
}

fn fatal(message: impl Into<String>) -> Stop {
    Stop {
        code: 2,
        message: message.into(),
    }
}

/// Runs the server with `args` (those after the program name), reading
/// events from `input` and writing the players' views to `out` and the
/// refusals to `err`; returns the exit code.
pub fn run(args: &[String], input: impl BufRead, out: &mut impl Write, err: &mut impl Write) -> i32 {
    match serve(args, input, out, err) {
        Ok(()) => 0,
        Err(stop) => {
            let _ = writeln!(err, "toy_server: {}", stop.message);
            stop.code
        }
    }
}

/// The command line: the log, the world seed, the header tags of a new game.
struct Options {
    file: String,
    seed: Option<[u8; 32]>,
    tags: Vec<Tag>,
}

fn options(args: &[String]) -> Result<Options, Stop> {
    let mut file = None;
    let mut seed = None;
    let mut tags = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--seed" {
            let hex = args.next().ok_or_else(|| usage("--seed needs a value"))?;
            let parsed: Seed = hex
                .parse()
                .map_err(|_| usage(format!("--seed: expected 64 hex digits, found `{hex}`")))?;
            seed = Some(parsed.0);
        } else if let Some((name, value)) = arg.split_once('=') {
            tags.push(Tag {
                name: name.to_string(),
                value: value.to_string(),
            });
        } else if file.is_none() {
            file = Some(arg.clone());
        } else {
            return Err(usage(format!("unexpected argument `{arg}`")));
        }
    }
    let file = file.ok_or_else(|| usage("no log FILE given"))?;
    Ok(Options { file, seed, tags })
}

/// A live game: its replay, the file it is kept in, the seed, and the two
/// players' views as they grow.
struct Server<'a, W: Write> {
    path: &'a Path,
    header: Header,
    replay: Replay,
    seed: Option<[u8; 32]>,
    views: [(Color, ViewWriter); 2],
    out: &'a mut W,
}

fn serve(args: &[String], input: impl BufRead, out: &mut impl Write, err: &mut impl Write) -> Result<(), Stop> {
    let options = options(args)?;
    let path = Path::new(&options.file);
    let mut setup: &[&str] = &[];
    if !path.exists() {
        setup = create(path, &options)?;
    } else if !options.tags.is_empty() {
        return Err(usage(format!(
            "{} exists: header tags are only for a new game",
            options.file
        )));
    }
    let mut server = open(path, options.seed, out)?;
    // The default game's setup is the server's own: appended like any
    // player's events, so that the rules check it too.
    for line in setup {
        let event = server.header.parse_event(line).map_err(|d| fatal(d.message))?;
        server.accept(event).map_err(|e| fatal(e.to_string()))?;
    }
    // A world event may be owed before anyone acts (open-world-chess's
    // first spawns), or left owed by a server that stopped after a move.
    server.referee()?;
    server.next()?;

    for (number, line) in input.lines().enumerate() {
        let line = line.map_err(|e| fatal(format!("cannot read standard input: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let number = number + 1;
        let event = match server.header.parse_event(&line) {
            Ok(event) => event,
            Err(mut diagnostic) => {
                diagnostic.line = number as u32;
                let _ = writeln!(err, "{}", diagnostic.one_line("stdin"));
                continue;
            }
        };
        // A move that arrives after its side's time ran out: the clocks
        // owe the timeout first, and the move is then judged after it.
        if let Some(now) = event.clock_ms {
            if let Some(timeout) = server.replay.due_timeout(now) {
                server.accept(timeout).map_err(|e| fatal(e.to_string()))?;
            }
        }
        let event = server.replay.canonical(&event).unwrap_or(event);
        match server.accept(event.clone()) {
            Ok(()) => {
                server.referee()?;
                server.next()?;
            }
            Err(Refusal::Rule(error)) => {
                let column = action_column(&line);
                let _ = writeln!(
                    err,
                    "stdin:{number}:{column}: [{}] `{event}`: {}",
                    error.rule, error.message
                );
            }
            Err(Refusal::File(message)) => return Err(fatal(message)),
        }
    }
    Ok(())
}

/// Creates the log of a new game and returns the setup lines the server
/// appends to it (the default game's).
fn create(path: &Path, options: &Options) -> Result<&'static [&'static str], Stop> {
    let (mut header, setup) = if options.tags.is_empty() {
        let header = parse(DEFAULT_HEADER.as_bytes()).document.game.header;
        (header, &DEFAULT_SETUP[..])
    } else {
        (
            Header {
                tags: options.tags.clone(),
            },
            &[][..],
        )
    };
    let seeded = header.game().is_some_and(|g| g.has_seed());
    match options.seed {
        Some(seed) if seeded && header.get("SeedCommit").is_none() => header.tags.push(Tag {
            name: "SeedCommit".into(),
            value: format!("blake3:{}", hex(&fgn_replay::seed::commitment(&seed))),
        }),
        None if seeded => {
            return Err(usage(
                "a new game with world randomness needs its world seed: --seed and 64 hex digits",
            ))
        }
        _ => {}
    }
    // The header is written as FGN and read back, so that a tag the
    // notation refuses is refused here with its diagnostic.
    let text = Game {
        header,
        events: Vec::new(),
    }
    .canonical_text();
    let parsed = parse(text.as_bytes());
    if let Some(d) = parsed.diagnostics.first() {
        return Err(usage(format!("header tag {}: {}", d.line, d.message)));
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| fatal(format!("cannot create {}: {e}", path.display())))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| fatal(format!("cannot write {}: {e}", path.display())))?;
    Ok(setup)
}

/// Reads and replays the log at `path`: the live game, with the players'
/// views up to its last event.
fn open<'a, W: Write>(path: &'a Path, seed: Option<[u8; 32]>, out: &'a mut W) -> Result<Server<'a, W>, Stop> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| fatal(format!("cannot read {name}: {e}")))?;
    let parsed = parse(&bytes);
    if let Some(d) = parsed.diagnostics.first() {
        return Err(fatal(d.render(&name).trim_end().to_string()));
    }
    let doc = parsed.document;
    let verdict = validate(&doc.game).map_err(|e| fatal(format!("{name}: {e}")))?;
    if let Some(error) = verdict.error {
        let (line, column) = locate(&doc, error.place);
        return Err(Stop {
            code: 1,
            message: format!("{name}:{line}:{column}: [{}] {}", error.rule, error.message),
        });
    }
    let header = doc.game.header;
    match (header.get("SeedCommit"), seed) {
        (Some(_), None) => return Err(fatal(format!("{name} commits to a world seed: give it with --seed"))),
        (Some(commit), Some(seed)) if commit != format!("blake3:{}", hex(&fgn_replay::seed::commitment(&seed))) => {
            return Err(fatal(format!(
                "the seed given is not the one {name}'s SeedCommit commits to"
            )))
        }
        _ => {}
    }
    let view = |side: Color| -> Result<(Color, ViewWriter), Stop> {
        let mut writer = ViewWriter::new(&header, side).map_err(|e| fatal(format!("{name}: {e}")))?;
        let mut seen = Vec::new();
        for (i, event) in doc.game.events.iter().enumerate() {
            writer.push(i, event, &mut seen).map_err(|e| fatal(e.to_string()))?;
        }
        Ok((side, writer))
    };
    let views = [view(Color::White)?, view(Color::Black)?];
    Ok(Server {
        path,
        replay: verdict.replay,
        header,
        seed,
        views,
        out,
    })
}

/// Why an event was not accepted.
enum Refusal {
    /// It breaks a rule: the game is unchanged.
    Rule(fgn_replay::RuleError),
    /// The file refused it (someone else changed the file, or it cannot be
    /// written): the live game and the file no longer agree.
    File(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Rule(error) => error.fmt(f),
            Refusal::File(message) => f.write_str(message),
        }
    }
}

impl<W: Write> Server<'_, W> {
    /// Applies `event` to the live game, appends it to the file and shows
    /// what each player's view gained.
    fn accept(&mut self, event: Event) -> Result<(), Refusal> {
        let index = self.replay.events_applied();
        self.replay.apply(&event).map_err(Refusal::Rule)?;
        append(self.path, &[event.to_string()])
            .map_err(|e| Refusal::File(format!("cannot append to {}: {e}", self.path.display())))?;
        let _ = writeln!(self.out, "> {event}");
        for (side, writer) in &mut self.views {
            let mut seen = Vec::new();
            writer
                .push(index, &event, &mut seen)
                .map_err(|e| Refusal::File(format!("the view cannot follow the game: {e}")))?;
            if seen.is_empty() {
                let _ = writeln!(self.out, "  {} sees nothing", side.name());
            }
            for line in seen {
                let _ = writeln!(self.out, "  {} sees: {line}", side.name());
            }
        }
        Ok(())
    }

    /// Appends the world events the referee owes now, one after another:
    /// derived from the seed in a game that has one, else only the result
    /// of a decided game (a seeded game whose seed the server was not given
    /// gets its other world events from standard input, as from a human
    /// referee).
    fn referee(&mut self) -> Result<(), Stop> {
        let owed = match self.seed {
            Some(seed) => self.replay.owed_world_events(&seed),
            None => self.replay.owed_result().into_iter().collect(),
        };
        for event in owed {
            self.accept(event).map_err(|e| fatal(e.to_string()))?;
        }
        Ok(())
    }

    /// Says who is to act next.
    fn next(&mut self) -> Result<(), Stop> {
        let progress = self.replay.progress();
        let text = match (progress.status, progress.turn) {
            (Phase::Over(d), _) => format!("the game is over: {}", d.text()),
            (Phase::ResultDue(d), _) => format!("the game is decided ({}): the world owes the result", d.text()),
            (Phase::AwaitingExtra { late }, _) => format!(
                "{}'s time ran out: {} answers `extra yes` or `extra no`",
                late.name(),
                late.opponent().name()
            ),
            (Phase::Playing, Some(Turn::Setup { ready })) => format!(
                "setup (white {}, black {})",
                if ready.white { "ready" } else { "not ready" },
                if ready.black { "ready" } else { "not ready" }
            ),
            (Phase::Playing, Some(Turn::Move { side, number })) => format!("{} to play move {number}", side.name()),
            (Phase::Playing, None) => "the world is to act".to_string(),
        };
        writeln!(self.out, "next: {text}").map_err(|e| fatal(format!("cannot write standard output: {e}")))
    }
}

/// The 1-based column (in characters) where the action of an event line
/// starts: after its move number and actor, as `fgn validate` points at it.
fn action_column(line: &str) -> usize {
    let mut rest = line;
    for _ in 0..2 {
        rest = rest.trim_start_matches(' ');
        rest = rest.trim_start_matches(|c: char| c != ' ');
    }
    let start = line.len() - rest.trim_start_matches(' ').len();
    line[..start].chars().count() + 1
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
