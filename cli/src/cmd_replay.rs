//! `fgn validate` and `fgn show`, the commands that replay logs, and what
//! they share with the others that do: reading `--rules` files, checking a
//! log. The texts of results they share are in `texts.rs`.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use fgn_notation::diagnostic::Severity;
use fgn_notation::{Color, Document, GameKind};
use fgn_replay::{Overridden, Params, Place, Replay, RulesFile, StartError, Verdict, Viewer};
use fgn_tools::frames::{walk, Every, Last, Stop, WalkError};
use fgn_tools::placed::{finish_validation, PlacedError};
use fgn_tools::summary::{ErrorKind, LogFault};

use crate::cmd_syntax::parse_all;
use crate::out::{outln, Stream};
use crate::render;
use crate::report::{Format, Reporter, Status};
use crate::texts::{hidden_fault_message, status_text};

/// A `--rules FILE` value, read and checked once before any log: the
/// parameters of one game, or objects of parameters keyed by game name
/// (docs/rules.md, "Rules files"). A missing or malformed file is one
/// error.
pub fn load_rules(path: Option<&Path>, io: &crate::out::Output<'_>) -> Result<Rules, String> {
    let Some(path) = path else {
        return Ok(Rules::default());
    };
    // Bounded as a log is: `--rules /dev/zero` is refused after 64 MiB.
    // `-` is a file named `-` here, not standard input.
    let text = fgn_tools::inputs::read_text(&fgn_tools::inputs::Input::File(path.to_path_buf()), io)?;
    let file = RulesFile::parse(&text).map_err(|e| format!("rules file {}: {e}", path.display()))?;
    Ok(Rules {
        file: Some((path.display().to_string(), file)),
        refused: Default::default(),
    })
}

/// The `--rules` file of a run, if any, handing each log the parameters
/// for its game.
#[derive(Debug, Default)]
pub struct Rules {
    /// The file's name and content.
    file: Option<(String, RulesFile)>,
    /// The games whose logs a one-game file's parameters do not fit,
    /// reported once each.
    refused: std::sync::Mutex<BTreeSet<GameKind>>,
}

/// The logs of a game the rules file has no parameters for (a one-game
/// file of another game's parameters): reported once, not checked.
#[derive(Debug)]
pub struct NotTheirs;

impl Rules {
    /// The parameters for logs of `game`: `None` when there is no file or it
    /// does not name the game; [`NotTheirs`] when a one-game file's
    /// parameters are not this game's (say so with [`Rules::refuse_once`]).
    pub fn params(&self, game: GameKind) -> Result<Option<&Params>, NotTheirs> {
        let Some((_, file)) = &self.file else {
            return Ok(None);
        };
        file.params(game).map_err(|_| NotTheirs)
    }

    /// Reports, the first time only, that the rules file does not fit the
    /// logs of `game`: a usage error, said once however many logs.
    pub fn refuse_once(&self, game: GameKind, rep: &mut Reporter) {
        let Some((name, file)) = &self.file else {
            return;
        };
        let Err(e) = file.params(game) else {
            return;
        };
        if self.refused.lock().unwrap_or_else(|e| e.into_inner()).insert(game) {
            rep.error(&format!("rules file {name}: {e}; logs of {game} are not checked"));
        }
    }

    /// Reports that the rules file does not fit the logs of `game`, the
    /// first of them `log`, and that the run stops there (`validate`: a
    /// usage error, said once).
    pub fn refuse_and_stop(&self, game: GameKind, log: &str, rep: &mut Reporter) {
        let Some((name, file)) = &self.file else {
            return;
        };
        if let Err(e) = file.params(game) {
            rep.error(&format!(
                "rules file {name}: {e}; it cannot be used on logs of {game}, so validation stops at the first one, {log}"
            ));
        }
    }
}

/// What `validate` counts a log as.
enum Tally {
    Valid,
    Invalid,
    Unsupported,
    /// A log of a game the rules file gives no parameters to: the run stops.
    NotTheirs(GameKind, String),
}

/// Says which header tags of the log `name` a rules file overrode: a note
/// per tag on standard error, as text or (`--format json`) a JSON object
/// with `"kind": "override"` and the tag, its header value, the parameter
/// and the value used.
pub fn report_overrides(name: &str, overridden: &[Overridden], rep: &Reporter) {
    for o in overridden {
        match rep.format {
            Format::Text => rep.note(&format!("{name}: {o}")),
            // A note, in JSON as in text: --quiet leaves it out.
            Format::Json if rep.quiet => {}
            Format::Json => rep.eprint(&format!(
                "{}\n",
                serde_json::json!({"file": name, "kind": "override", "tag": o.tag, "header": o.header, "parameter": o.parameter, "used": o.used})
            )),
        }
    }
}

/// The outcome of checking one log.
pub enum Checked {
    /// The log is valid; the replay at its end.
    Valid(Box<Replay>),
    /// The log is invalid (already reported).
    Invalid,
    /// The game has no engine yet (already reported).
    Unsupported,
}

/// Replays one parsed log, reporting its first rule error and the header
/// tags the rules file's `params` overrode.
pub fn check(name: &str, doc: &Document, params: Option<&Params>, rep: &mut Reporter) -> Checked {
    let game = &doc.game;
    if game.kind().is_none() {
        rep.invalid(name, "the header names no game");
        return Checked::Invalid;
    }
    let verdict = fgn_replay::validate_with_params(game, params).map(|v| {
        let placed = v.error.as_ref().map(|e| PlacedError::new(doc, e));
        (v, placed)
    });
    report_verdict(name, doc, verdict, rep)
}

/// Reports what validating the log `name` found, as [`check`] does: the
/// verdict and its rule error placed in the file.
fn report_verdict(
    name: &str,
    doc: &Document,
    verdict: Result<(Verdict, Option<PlacedError>), StartError>,
    rep: &mut Reporter,
) -> Checked {
    if let Ok((v, _)) = &verdict {
        report_overrides(name, &v.overridden, rep);
    }
    match verdict {
        Err(ref e @ StartError::Header { ref error, .. }) if e.is_unsupported() => {
            rep.unsupported(name, &error.message);
            Checked::Unsupported
        }
        Err(StartError::Header { tag, error }) => {
            report_placed(name, &PlacedError::in_header(doc, tag.as_deref(), &error), rep);
            Checked::Invalid
        }
        Ok((_, Some(placed))) => {
            report_placed(name, &placed, rep);
            Checked::Invalid
        }
        Ok((v, None)) => Checked::Valid(Box::new(v.replay)),
    }
}

/// Reports a rule error placed in the file `name`.
pub fn report_placed(name: &str, placed: &PlacedError, rep: &mut Reporter) {
    rep.rule_error(name, placed.line, placed.column, placed.rule.name(), &placed.message);
}

/// How a log read in runs stands once its header is known.
enum Start {
    /// Its game's events are being validated.
    Validating(Box<fgn_replay::Validation>),
    /// The header names no game.
    NoGame,
    /// The rules file has no parameters for its game.
    NotTheirs(GameKind),
    /// Its header cannot start a replay.
    Refused(StartError),
}

impl Start {
    fn of(header: &fgn_notation::Header, rules: &Rules) -> Start {
        let Some(game) = header.game() else {
            return Start::NoGame;
        };
        let Ok(params) = rules.params(game) else {
            return Start::NotTheirs(game);
        };
        match fgn_replay::Validation::new(header, params) {
            Ok(v) => Start::Validating(Box::new(v)),
            Err(e) => Start::Refused(e),
        }
    }
}

/// The first fault of a verdict as the summary words it
/// ([`fgn_tools::summary::Summary::error`]), for `validate`'s JSON results:
/// a header the rules cannot start from at its tag, or the first rule
/// error placed in the file with its event's index.
fn verdict_fault(doc: &Document, verdict: &Result<(Verdict, Option<PlacedError>), StartError>) -> Option<LogFault> {
    match verdict {
        Err(e @ StartError::Header { tag, error }) => {
            let placed = PlacedError::in_header(doc, tag.as_deref(), error);
            Some(LogFault {
                kind: if e.is_unsupported() {
                    ErrorKind::Unsupported
                } else {
                    ErrorKind::Rule
                },
                rule: Some(error.rule.name()),
                line: placed.line,
                column: placed.column,
                index: None,
                message: placed.message,
            })
        }
        Ok((v, Some(placed))) => Some(LogFault {
            kind: ErrorKind::Rule,
            rule: Some(placed.rule.name()),
            line: placed.line,
            column: placed.column,
            index: v.error.as_ref().and_then(|e| match e.place {
                Place::Event(i) => Some(i),
                Place::End | Place::Header => None,
            }),
            message: placed.message.clone(),
        }),
        Ok((_, None)) => None,
    }
}

/// Reads and checks one log as [`check`] does after a parse, but
/// validating its events a run at a time as they are read
/// ([`fgn_notation::parse_in_runs`]), so that a long log's events are never
/// all kept: its syntax errors, then its first rule error; with what is
/// checked, its first fault as the summary words it (the first syntax
/// error, else the rule error). `Err` with the log's game when the rules
/// file has no parameters for it.
fn check_read(
    read: &crate::pipeline::Read,
    rules: &Rules,
    rep: &mut Reporter,
) -> Result<(Checked, Option<LogFault>), GameKind> {
    let name = &read.name;
    // Validation starts with the first run, which comes once the header is
    // complete; a log without events starts it after the parse.
    let mut start = None;
    let streamed = read.parse_in_runs(|run| {
        if let Start::Validating(v) = start.get_or_insert_with(|| Start::of(run.header, rules)) {
            v.feed(run);
        }
    });
    crate::pipeline::report_syntax(rep, name, &streamed.diagnostics);
    if !streamed.is_ok() {
        let first = streamed.diagnostics.iter().find(|d| d.severity == Severity::Error);
        let fault = first.map(|d| LogFault {
            kind: ErrorKind::Syntax,
            rule: None,
            line: d.line,
            column: d.column,
            index: None,
            message: d.message.clone(),
        });
        return Ok((Checked::Invalid, fault));
    }
    let doc = &streamed.document;
    report_tag_warnings(name, doc, rep);
    let start = start.unwrap_or_else(|| Start::of(&doc.game.header, rules));
    let verdict = match start {
        Start::NotTheirs(game) => return Err(game),
        Start::NoGame => {
            // The reader refuses a header without a `Game` tag, so this is
            // a safeguard: said as the reader's error would be.
            let message = "the header names no game";
            rep.invalid(name, message);
            let fault = LogFault {
                kind: ErrorKind::Syntax,
                rule: None,
                line: 1,
                column: 1,
                index: None,
                message: message.to_string(),
            };
            return Ok((Checked::Invalid, Some(fault)));
        }
        Start::Refused(e) => Err(e),
        Start::Validating(v) => {
            let params = doc.game.kind().and_then(|g| rules.params(g).ok().flatten());
            finish_validation(*v, doc, &read.bytes, params)
        }
    };
    let fault = verdict_fault(doc, &verdict);
    Ok((report_verdict(name, doc, verdict, rep), fault))
}

/// Warns about each header tag of `doc` that looks like a parameter of its
/// game without being one: it is ignored, which a misspelling would not
/// want (docs/rules.md, "Tags that look like parameters").
pub fn report_tag_warnings(name: &str, doc: &Document, rep: &mut Reporter) {
    for w in fgn_tools::summary::tag_warnings(doc) {
        rep.warning(name, w.line, &w.message);
    }
}

/// Warns when the valid log `name`'s random outcomes were never checked
/// and a reader should be told (no `SeedCommit`, or over without its seed).
pub fn report_unchecked_outcomes(name: &str, replay: &Replay, rep: &mut Reporter) {
    if let Some(message) = replay.unchecked_outcomes() {
        rep.warning(name, None, message);
    }
}

fn result_text(replay: &Replay) -> String {
    status_text(replay.phase())
}

/// `fgn validate`.
///
/// Every fault of a file is one line, syntax and rule errors alike, in the
/// file's order. A rules file that cannot be read stops the run before any
/// log; one that has no parameters for a log's game stops it at that log,
/// with one error: the logs after it are neither checked nor counted.
pub fn validate(paths: &[PathBuf], rules: Option<&Path>, verbose: bool, rep: &mut Reporter) {
    let rules = match load_rules(rules, rep.io()) {
        Ok(r) => r,
        Err(e) => return rep.error(&e),
    };
    let (mut valid, mut invalid, mut unsupported) = (0, 0, 0);
    let mut stopped = false;
    let rules = &rules;
    let walked = crate::pipeline::each_read_until(
        paths,
        rep,
        |read, rep| {
            let name = &read.name;
            let (checked, fault) = match check_read(&read, rules, rep) {
                Ok(checked) => checked,
                Err(game) => return Tally::NotTheirs(game, name.clone()),
            };
            let fault = fault.as_ref();
            match checked {
                // `--strict`: a log with warnings (a torn last line, a tag
                // that looks like a parameter, random outcomes never
                // checked) is not valid.
                Checked::Valid(replay) => {
                    report_unchecked_outcomes(name, &replay, rep);
                    let checked = replay.outcomes_checked();
                    if rep.strict_fault() {
                        // Invalid by its warnings alone: it has no fault
                        // to name, and `warnings` counts them.
                        rep.file_status(name, "invalid", None, checked, None);
                        return Tally::Invalid;
                    }
                    let result = result_text(&replay);
                    if verbose && rep.format == Format::Text {
                        let unchecked = match checked {
                            Some(false) => ", random outcomes not checked by a revealed seed",
                            Some(true) => ", random outcomes checked by the revealed seed",
                            None => "",
                        };
                        outln!(rep, "valid: {name} ({result}{unchecked})");
                    }
                    rep.file_status(name, "valid", Some(replay.phase()), checked, None);
                    Tally::Valid
                }
                Checked::Invalid => {
                    rep.file_status(name, "invalid", None, None, fault);
                    Tally::Invalid
                }
                Checked::Unsupported => {
                    rep.file_status(name, "unsupported", None, None, fault);
                    Tally::Unsupported
                }
            }
        },
        |tally, rep| {
            match tally {
                Tally::Valid => valid += 1,
                Tally::Invalid => invalid += 1,
                Tally::Unsupported => unsupported += 1,
                Tally::NotTheirs(game, name) => {
                    rules.refuse_and_stop(game, &name, rep);
                    stopped = true;
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        },
    );
    if stopped {
        return;
    }
    // A path that cannot be read is a log that could not be checked.
    let not_checked = walked.unreadable;
    match rep.format {
        Format::Text if rep.quiet => {}
        Format::Text => {
            let mut extra = String::new();
            if unsupported > 0 {
                extra += &format!(", {unsupported} unsupported");
            }
            if not_checked > 0 {
                extra += &format!(", {not_checked} not checked");
            }
            outln!(rep, "{valid} valid, {invalid} invalid{extra}");
        }
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::json!({"type": "totals", "valid": valid, "invalid": invalid, "unsupported": unsupported, "not_checked": not_checked})
        ),
    }
}

/// Which side's knowledge `fgn show` draws, as `--as` spells it: a
/// wrapper of [`Viewer`] for parsing the argument only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewerArg {
    /// White's view.
    White,
    /// Black's view.
    Black,
    /// Everything.
    All,
}

impl ViewerArg {
    /// The viewer the argument names.
    pub fn viewer(self) -> Viewer {
        match self {
            ViewerArg::White => Viewer::White,
            ViewerArg::Black => Viewer::Black,
            ViewerArg::All => Viewer::Everyone,
        }
    }
}

/// Where `show --at` stops: after a number of events, or at a move address
/// (docs/cli.md, "show: --at"). The address is read off the log's events as
/// written (their move numbers and actors), never from the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum At {
    /// After this many events (0: the start).
    Events(usize),
    /// After `side`'s part of move `number`: its events of that move and
    /// whatever follows them before the opponent's part (or the next move).
    Move {
        /// The full-move number, 1 or more.
        number: u32,
        /// The side whose part ends there.
        side: Color,
    },
    /// After every event.
    End,
}

impl std::str::FromStr for At {
    type Err = String;

    fn from_str(s: &str) -> Result<At, String> {
        let forms = "expected a number of events (0 is the start), a move address such as 12w or 12b, or end";
        if s == "end" {
            return Ok(At::End);
        }
        if s.starts_with('-') {
            return Err("--at counts events from the start and cannot be negative; \
                 the last position is `--at end`, the one after a move `--at 12w` or `--at 12b`"
                .into());
        }
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if digits(s) {
            return s.parse().map(At::Events).map_err(|_| "too many events".into());
        }
        let (number, side) = match s.split_at(s.len().saturating_sub(1)) {
            (n, "w") if digits(n) => (n, Color::White),
            (n, "b") if digits(n) => (n, Color::Black),
            _ => return Err(forms.into()),
        };
        match number.parse::<u32>() {
            Ok(0) => Err("move 0 is the setup, where both sides act at once: give a number of events instead".into()),
            Ok(number) => Ok(At::Move { number, side }),
            Err(_) => Err("no move has that number".into()),
        }
    }
}

impl At {
    /// How many of `events` come before the position: `Err` says why there
    /// is no such position in the log.
    pub fn events(self, events: &[fgn_notation::Event]) -> Result<usize, String> {
        use fgn_notation::Actor;
        let total = events.len();
        let (number, side) = match self {
            At::End => return Ok(total),
            At::Events(n) if n > total => return Err(format!("--at {n}: the log has {total} events")),
            At::Events(n) => return Ok(n),
            At::Move { number, side } => (number, side),
        };
        let address = format!("{number}{}", Actor::Player(side));
        if !events.iter().any(|e| e.n.0 == number && e.actor == Actor::Player(side)) {
            return Err(format!(
                "--at {address}: the log has no event of {}'s move {number}",
                side.name()
            ));
        }
        // The part ends where the next begins: black's first event of the
        // move after white's part, the first event of a later move after
        // black's (the world's events and chat in between belong to it).
        let next = events.iter().position(|e| match side {
            Color::White => e.n.0 > number || (e.n.0 == number && e.actor == Actor::Player(Color::Black)),
            Color::Black => e.n.0 > number,
        });
        Ok(next.unwrap_or(total))
    }
}

/// `fgn show`.
pub fn show(
    path: &Path,
    at: Option<At>,
    viewer: Viewer,
    rules_file: Option<&Path>,
    look: render::Look,
    svg: bool,
    rep: &mut Reporter,
) {
    let rules = match load_rules(rules_file, rep.io()) {
        Ok(r) => r,
        Err(e) => return rep.error(&e),
    };
    let mut parsed = parse_all(&[path.to_path_buf()], rep);
    if parsed.len() != 1 {
        if rep.status == Status::Ok {
            rep.error("show takes one file");
        }
        return;
    }
    let (input, _, p) = parsed.remove(0);
    let name = input.name();
    if !p.is_ok() {
        // The lines that failed would be missing from the replay, and the
        // position and event numbers would be wrong; the errors are reported.
        return;
    }
    let file = &p.document.game;
    let Some(kind) = file.kind() else { return };
    let upto = match at.unwrap_or(At::End).events(&file.events) {
        Ok(upto) => upto,
        Err(e) => return rep.error(&e),
    };
    let Ok(params) = rules.params(kind) else {
        return rules.refuse_once(kind, rep);
    };
    let walked = match walk(file, viewer, params, upto, Every::None, |_| {}) {
        Ok(w) => w,
        Err(WalkError::View(e)) => return rep.unsupported(&name, &e.to_string()),
        Err(WalkError::OtherSide { log, asked }) => {
            return rep.error(&format!(
                "{name} is {}'s view: it cannot be shown as {}",
                log.name(),
                viewer_name(asked)
            ))
        }
        Err(WalkError::Start(StartError::Header { tag, error })) => {
            return report_placed(&name, &PlacedError::in_header(&p.document, tag.as_deref(), &error), rep);
        }
    };
    report_overrides(&name, &walked.overridden, rep);
    let frame = &walked.frame;
    if let Some(stop) = &walked.stop {
        // Shown as a player (`--as`) from a full log, an event that
        // player may not see, or its error's message, would tell what it
        // hides (as `fgn view` keeps it from the view).
        match stop {
            Stop::Hidden(side) => rep.invalid(&name, &hidden_fault_message(&name, *side)),
            Stop::Fault(error) => report_placed(&name, &PlacedError::new(&p.document, error), rep),
        }
        rep.note(&format!(
            "showing the position after event {}, the last one that applied",
            frame.applied
        ));
    }
    let last = frame
        .last
        .as_ref()
        .map(|last| (last_text(last, viewer), p.document.event_lines[last.index]));
    let highlight = frame.last.as_ref().map_or_else(Vec::new, last_squares);
    match rep.format {
        Format::Text if svg => rep.print(&render::svg(
            &frame.seen,
            &name,
            frame.applied,
            last.as_ref(),
            highlight,
            look,
        )),
        Format::Text => {
            // The board is painted as standard output is coloured.
            let text = rep.io().painting(Stream::Out, || {
                render::text(&frame.seen, frame.applied, last.as_ref(), look)
            });
            rep.print(&text)
        }
        Format::Json => outln!(
            rep,
            "{}",
            serde_json::to_string_pretty(&render::json(&frame.seen, frame.applied)).expect("JSON value")
        ),
    }
}

/// A frame's last event as `viewer` saw it: its lines, or that it saw
/// nothing of it.
pub fn last_text(last: &Last, viewer: Viewer) -> String {
    match last.seen.as_slice() {
        [] => format!("(nothing of it is seen from {}'s view)", viewer_name(viewer)),
        seen => seen.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
    }
}

/// The last event's squares, as [`last_text`] names the event: a player
/// shown a full log is shown the squares of what it saw of the event,
/// without the squares that came into its sight (`@ see`), which are not
/// the move.
pub fn last_squares(last: &Last) -> Vec<fgn_notation::Square> {
    last.seen
        .iter()
        .filter(|e| !matches!(e.action, fgn_notation::Action::See { .. }))
        .flat_map(|e| e.action.squares())
        .collect()
}

/// A viewer as `--as` names it.
pub fn viewer_name(viewer: Viewer) -> &'static str {
    viewer.color().map_or("all", Color::name)
}

/// `fgn rules check FILE`: the file read and checked as `--rules` reads it
/// (docs/rules.md, "Rules files"). A file that can be used is valid (exit
/// 0) and the games it gives parameters to are said; one that cannot is
/// invalid (exit 1) with the error `--rules` gives; one that cannot be read
/// is an I/O error (exit 2).
pub fn check_rules(path: &Path, rep: &mut Reporter) {
    let name = path.display().to_string();
    let text = match fgn_tools::inputs::read_text(&fgn_tools::inputs::Input::File(path.to_path_buf()), rep.io()) {
        Ok(text) => text,
        Err(e) => return rep.error(&e),
    };
    match RulesFile::parse(&text) {
        Ok(file) => {
            if rep.format == Format::Text && !rep.quiet {
                let names = |p: &Params| p.names().collect::<Vec<_>>().join(", ");
                let games: Vec<String> = if file.is_keyed() {
                    file.games().map(|p| format!("{} ({})", p.game(), names(p))).collect()
                } else {
                    // One game's parameters, the same for every game they fit.
                    let fits: Vec<String> = file.games().map(|p| p.game().to_string()).collect();
                    let set = file.games().next().map(names).unwrap_or_default();
                    vec![format!("{} ({set})", fits.join(", "))]
                };
                outln!(rep, "{name}: valid: parameters for {}", games.join("; "));
            }
            rep.file_status(&name, "valid", None, None, None);
        }
        Err(e) => {
            rep.invalid(&name, &e);
            rep.file_status(&name, "invalid", None, None, None);
        }
    }
}
