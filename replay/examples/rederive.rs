//! Rederives the world events of a seeded open-world-chess log from its
//! revealed seed: the tool that keeps a corpus log true when the seed
//! derivation changes (docs/notation.md §12.6), or that looks for a seed
//! under which the story a log tells still happens.
//!
//! ```text
//! cargo run -q -p fgn-replay --example rederive -- FILE [--seed HEX] [--write] [--quiet]
//! ```
//!
//! It reads FILE, a full log whose `@ seed` is revealed (with the players'
//! salts, if any), and plays its events again through the public API: every
//! event is kept as the log has it (moves, purchases, `end`, chat, salts,
//! timeouts and extra-time answers, the result and the seed) except the
//! world events the seed derives in open-world-chess (`@ spawn`, `@ damage`,
//! `@ clone`), which are dropped; before each kept event the
//! [`Referee`](fgn_replay::referee::Referee) writes the ones the seed
//! derives there. A derived event that the log already holds in that
//! stretch keeps its line (clock reading and comment included).
//!
//! The header, the leading comments and every comment on a line that is
//! kept stay where they stood; a comment on a dropped world event's line is
//! dropped, and a warning on standard error names it (with every world
//! event derived anew) so that it can be rewritten by hand.
//!
//! `--seed HEX` (64 hex digits) replaces the world seed first: the `@ seed`
//! line and the header's `SeedCommit` (blake3 of the seed) are rewritten,
//! so that a loop over seeds can look for one under which the log's kept
//! events stay legal and its story still happens. `--write` rewrites FILE
//! in place (only when the new log is valid); otherwise the new log goes to
//! standard output. `--quiet` leaves out the warnings.
//!
//! The exit status is 0 when the new log validates to its end, 1 when a kept
//! event becomes illegal (or the result is no longer the one recorded: the
//! message names the log's line), 2 for a file or an argument that cannot
//! be used. With 1 the log still goes to standard output (never to FILE):
//! rederived up to the event that broke a rule, then the rest of the kept
//! events as the log has them, so that the moves can be changed there and
//! the tool run again on it.

use std::process::ExitCode;

use fgn_notation::{parse, Action, Actor, Anchor, Comment, Document, Event, Game, Seed};
use fgn_replay::referee::Referee;
use fgn_replay::Replay;

/// What the command line asks.
struct Args {
    file: String,
    seed: Option<[u8; 32]>,
    write: bool,
    quiet: bool,
}

const USAGE: &str = "usage: rederive FILE [--seed HEX] [--write] [--quiet]";

fn args() -> Result<Args, String> {
    let mut file = None;
    let mut seed = None;
    let (mut write, mut quiet) = (false, false);
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seed" => {
                let hex = it.next().ok_or("--seed needs 64 hex digits")?;
                let Seed(s) = hex.parse().map_err(|_| format!("--seed {hex}: not 64 hex digits"))?;
                seed = Some(s);
            }
            "--write" => write = true,
            "--quiet" => quiet = true,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ if file.is_none() => file = Some(arg),
            _ => return Err(USAGE.into()),
        }
    }
    Ok(Args {
        file: file.ok_or(USAGE)?,
        seed,
        write,
        quiet,
    })
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Unusable(e)) => {
            eprintln!("{}: {e}", args.file);
            ExitCode::from(2)
        }
        Err(Failure::Invalid(e)) => {
            eprintln!("{}: {e}", args.file);
            ExitCode::from(1)
        }
    }
}

/// Why no new log was written.
enum Failure {
    /// The file or its seed cannot be used.
    Unusable(String),
    /// The log's kept events do not make a valid game under the derived ones.
    Invalid(String),
}

/// The world events this tool drops and the referee derives anew. The
/// result and the seed stay as recorded, so that a story that no longer
/// ends as the log says shows up as an error at its line.
fn derived(event: &Event) -> bool {
    event.actor == Actor::World
        && matches!(
            event.action,
            Action::Spawn { .. } | Action::Damage { .. } | Action::Clone { .. }
        )
}

fn run(args: &Args) -> Result<(), Failure> {
    let text = std::fs::read(&args.file).map_err(|e| Failure::Unusable(e.to_string()))?;
    let parsed = parse(&text);
    if !parsed.is_ok() {
        return Err(Failure::Unusable(
            "the log has syntax errors (fgn validate names them)".into(),
        ));
    }
    let mut doc = parsed.document;
    if let Some(seed) = args.seed {
        replace_seed(&mut doc.game, seed)?;
    }
    let seed = revealed_seed(&doc.game)?;
    let Rederived { game, origins, broken } = rederive(&doc, seed)?;
    let comments = carry_comments(&doc, &origins, &args.file, args.quiet);
    if !args.quiet {
        for (i, event) in doc.game.events.iter().enumerate() {
            if !origins.contains(&Origin::Log(i)) {
                let line = doc.event_lines.get(i).copied().unwrap_or(0);
                eprintln!("{}:{line}: dropped world event `{event}`", args.file);
            }
        }
        for (event, origin) in game.events.iter().zip(&origins) {
            if *origin == Origin::Derived {
                eprintln!("{}: new world event `{event}`", args.file);
            }
        }
    }
    let new = Document {
        game,
        comments,
        ..Document::default()
    };
    let out = new.formatted();
    if let Some(why) = broken {
        // The log as far as it was rederived, then the rest of its kept
        // events: something to change the moves in and run again.
        if !args.write {
            print!("{out}");
        }
        return Err(Failure::Invalid(why));
    }
    // The referee and the validator are separate paths through the rules:
    // the new log must satisfy the latter too.
    let verdict = fgn_replay::validate(&new.game).map_err(|e| Failure::Invalid(format!("{e:?}")))?;
    if let Some(e) = verdict.error {
        return Err(Failure::Invalid(format!(
            "the rederived log does not validate: [{}] {}",
            e.rule.name(),
            e.message
        )));
    }
    if args.write {
        std::fs::write(&args.file, out).map_err(|e| Failure::Unusable(e.to_string()))?;
    } else {
        print!("{out}");
    }
    Ok(())
}

/// Puts `seed` in place of the log's revealed seed, and its commitment in
/// the header's `SeedCommit`.
fn replace_seed(game: &mut Game, seed: [u8; 32]) -> Result<(), Failure> {
    let event = game
        .events
        .iter_mut()
        .find(|e| matches!(e.action, Action::Seed { .. }))
        .ok_or_else(|| Failure::Unusable("the log reveals no seed to replace".into()))?;
    event.action = Action::Seed { seed: Seed(seed) };
    let commit = fgn_replay::seed::commitment(&seed);
    let value = format!("blake3:{}", hex(&commit));
    match game.header.tags.iter_mut().find(|t| t.name == "SeedCommit") {
        Some(tag) => tag.value = value,
        None => return Err(Failure::Unusable("the header has no SeedCommit".into())),
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The seed the log reveals, which must match its commitment.
fn revealed_seed(game: &Game) -> Result<[u8; 32], Failure> {
    let seed = game
        .events
        .iter()
        .find_map(|e| match e.action {
            Action::Seed { seed: Seed(s) } => Some(s),
            _ => None,
        })
        .ok_or_else(|| Failure::Unusable("the log reveals no seed".into()))?;
    let commit = game
        .header
        .get("SeedCommit")
        .and_then(|c| fgn_notation::header::parse_seed_commit(c).ok());
    if commit != Some(fgn_replay::seed::commitment(&seed)) {
        return Err(Failure::Unusable(
            "the revealed seed does not match the header's SeedCommit".into(),
        ));
    }
    Ok(seed)
}

/// Where an event of the new log comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    /// The log's event with this index, kept or derived again as it was.
    Log(usize),
    /// Derived anew: the log has no such event in that place.
    Derived,
}

/// A log rederived: the new game and where each of its events comes from.
struct Rederived {
    game: Game,
    origins: Vec<Origin>,
    /// Why the rederivation stopped: from the kept event that broke a rule
    /// on, the game holds the log's kept events unplayed.
    broken: Option<String>,
}

/// The new game: the log's kept events with the world events the referee
/// derives from `seed` before each, and where each event comes from.
fn rederive(doc: &Document, seed: [u8; 32]) -> Result<Rederived, Failure> {
    let log = &doc.game;
    let line = |i: usize| doc.event_lines.get(i).copied().unwrap_or(0);
    let mut replay = Replay::new(&log.header).map_err(|e| Failure::Unusable(format!("{e:?}")))?;
    let referee = Referee::new(seed);
    let mut out = Rederived {
        game: Game {
            header: log.header.clone(),
            events: Vec::new(),
        },
        origins: Vec::new(),
        broken: None,
    };
    // The players' salts change the key every draw comes from, so the
    // world owes nothing until the last of them (before which only chat
    // and salts may stand), as in `impact`'s resimulation.
    let last_salt = log.events.iter().rposition(|e| matches!(e.action, Action::Salt { .. }));
    // The recorded world events not yet passed, which a derived event may
    // match (and so keep its line).
    let mut recorded = 0;
    let kept: Vec<usize> = (0..log.events.len()).filter(|&i| !derived(&log.events[i])).collect();
    for (k, stop) in kept.iter().copied().map(Some).chain([None]).enumerate() {
        let salting = matches!((stop, last_salt), (Some(i), Some(last)) if i <= last);
        if !salting {
            let end = stop.unwrap_or(log.events.len());
            while let Some(event) = referee.next(&replay) {
                if !derived(&event) {
                    break;
                }
                // The recorded world events before the next kept event
                // that this one matches: the first equal one in order.
                let same = (recorded..end).find(|&r| {
                    derived(&log.events[r]) && log.events[r].n == event.n && log.events[r].action == event.action
                });
                let (event, origin) = match same {
                    Some(r) => {
                        recorded = r + 1;
                        (log.events[r].clone(), Origin::Log(r))
                    }
                    None => (event, Origin::Derived),
                };
                let applied = replay.apply(&event);
                out.game.events.push(event.clone());
                out.origins.push(origin);
                if let Err(e) = applied {
                    out.broken = Some(format!(
                        "the derived `{event}` breaks a rule: [{}] {}",
                        e.rule.name(),
                        e.message
                    ));
                    unplayed(&mut out, log, &kept[k..]);
                    return Ok(out);
                }
            }
        }
        let Some(i) = stop else { break };
        recorded = recorded.max(i + 1);
        let event = &log.events[i];
        if let Err(e) = replay.apply(event) {
            out.broken = Some(format!(
                "line {}: `{event}` is illegal with the derived world events: [{}] {}",
                line(i),
                e.rule.name(),
                e.message
            ));
            unplayed(&mut out, log, &kept[k..]);
            return Ok(out);
        }
        out.game.events.push(event.clone());
        out.origins.push(Origin::Log(i));
    }
    if let Err(e) = replay.finish() {
        out.broken = Some(format!(
            "the log ends before what the rules owe: [{}] {}",
            e.rule.name(),
            e.message
        ));
    }
    Ok(out)
}

/// Adds the log's kept events `rest` to `out` unplayed.
fn unplayed(out: &mut Rederived, log: &Game, rest: &[usize]) {
    for &i in rest.iter().filter(|&&i| i < log.events.len()) {
        out.game.events.push(log.events[i].clone());
        out.origins.push(Origin::Log(i));
    }
}

/// The log's comments placed in the new log: those on the header and on
/// kept lines where they stood; a comment on a line of its own before a
/// dropped event before the event that now comes first in its place; a
/// comment at the end of a dropped event's line dropped, with a warning.
fn carry_comments(doc: &Document, origins: &[Origin], file: &str, quiet: bool) -> Vec<Comment> {
    // For each event of the log, its index in the new log; `None` for a
    // dropped one.
    let mut new_index = vec![None; doc.game.events.len()];
    for (j, origin) in origins.iter().enumerate() {
        if let Origin::Log(i) = origin {
            new_index[*i] = Some(j);
        }
    }
    // Where a line of its own before the log's event `i` goes: before the
    // event that follows, in the new log, the last event before `i` that
    // was kept (the new log's first event when none was).
    let before = |i: usize| -> usize { (0..i).rev().find_map(|k| new_index[k]).map_or(0, |j| j + 1) };
    let line = |i: usize| doc.event_lines.get(i).copied().unwrap_or(0);
    let mut out = Vec::new();
    for c in &doc.comments {
        let anchor = match c.anchor {
            Anchor::BeforeEvent(i) => match new_index[i] {
                Some(j) => Anchor::BeforeEvent(j),
                None => {
                    if !quiet {
                        eprintln!(
                            "{file}:{}: kept the comment line before the dropped `{}`; check it: ; {}",
                            line(i),
                            doc.game.events[i],
                            c.text
                        );
                    }
                    let j = before(i);
                    if j < origins.len() {
                        Anchor::BeforeEvent(j)
                    } else {
                        Anchor::End
                    }
                }
            },
            Anchor::OnEvent(i) => match new_index[i] {
                Some(j) => Anchor::OnEvent(j),
                None => {
                    if !quiet {
                        eprintln!(
                            "{file}:{}: dropped `{}` and its comment: ; {}",
                            line(i),
                            doc.game.events[i],
                            c.text
                        );
                    }
                    continue;
                }
            },
            other => other,
        };
        out.push(Comment {
            anchor,
            text: c.text.clone(),
        });
    }
    out
}
