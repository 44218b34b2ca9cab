//! Rule-change impact: what a change of parameters does to a recorded game.
//!
//! [`impact`] replays a log strictly under its own rules (defaults and
//! header) and under the changed ones (a rules file's parameters, which win
//! over the header), and compares the two: validity and the first failing
//! event, the result, the final state hash. A recorded world event that the
//! changed rules would not produce makes the game invalid where the replay
//! finds it (a spawn that cannot happen at once; one the revealed seed
//! refutes at the `@ seed` that exposes it, named at the spawn itself).
//!
//! With `resimulate`, a game whose seed is revealed is played again instead:
//! the kept events (every player's event, chat, resignations and `extra`
//! answers included, and the world's `@ timeout`s, which come from clocks)
//! stay as the log has them, the recorded world events (spawns, damage
//! rolls, clones, reveals, the result, the seed) are dropped, and the
//! [`Referee`] derives them anew under the changed rules. The report says
//! where the game would have gone otherwise: the first recorded world event
//! the changed rules derive differently, the first kept event that becomes
//! illegal, or the new result.

use std::collections::BTreeMap;

use fgn_notation::{Action, Actor, Document, Event, Game, GameKind, Seed};
use serde::Serialize;

use fgn_replay::referee::Referee;
use fgn_replay::ruleset::{Overridden, Params};
use fgn_replay::{
    locate, tag_line, validate, validate_with_params, Digest, Phase, Place, Replay, RuleError, StartError,
};

/// How the game was replayed under the changed rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// The recorded events, world events included, checked as they are.
    Strict,
    /// The kept events with the world events derived anew from the seed.
    Resimulated,
}

/// A change between the game under its own rules and under the changed ones.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictChange {
    /// Valid under its own rules, invalid under the changed ones (resimulated:
    /// a kept event becomes illegal).
    BecameInvalid,
    /// Invalid under its own rules, valid under the changed ones.
    BecameValid,
    /// Invalid under both, first failing at another place or rule.
    FailureMoved,
    /// Resimulated: the changed rules derive other world events.
    WorldEvents,
    /// Valid under both, with another result (or a game no longer, or now, decided).
    Result,
    /// Valid under both, with another final state.
    StateHash,
}

impl VerdictChange {
    /// Every kind of change, in report order.
    pub const ALL: [VerdictChange; 6] = [
        VerdictChange::BecameInvalid,
        VerdictChange::BecameValid,
        VerdictChange::FailureMoved,
        VerdictChange::WorldEvents,
        VerdictChange::Result,
        VerdictChange::StateHash,
    ];

    /// The kind's name in reports (as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            VerdictChange::BecameInvalid => "became-invalid",
            VerdictChange::BecameValid => "became-valid",
            VerdictChange::FailureMoved => "failure-moved",
            VerdictChange::WorldEvents => "world-events",
            VerdictChange::Result => "result",
            VerdictChange::StateHash => "state-hash",
        }
    }
}

/// The first rule error of a replay, placed in the log.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Failure {
    /// The line in the log (of the event, of the header tag at fault, or the
    /// last line when something owed is missing at the end); `None` for a
    /// world event the referee derived, which the log does not hold.
    pub line: Option<u32>,
    /// The column of the event's action (1 for the header or the end).
    pub column: Option<u32>,
    /// The event, as canonical FGN spells it; `None` for the header or the end.
    pub event: Option<String>,
    /// The rule's stable name (docs/rules.md).
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
}

/// How a replay of the game ended.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct RunOutcome {
    /// No rule error.
    pub valid: bool,
    /// The first rule error, if any.
    pub failure: Option<Failure>,
    /// The shared rules' phase after the last event that applied (the
    /// result, when recorded); `None` when the header already fails.
    pub status: Option<Phase>,
    /// How many events applied.
    pub events_applied: usize,
    /// The state hash after the last event that applied; `None` when the
    /// header already fails.
    pub state_hash: Option<Digest>,
}

/// An event of the log, placed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LoggedEvent {
    /// Its line.
    pub line: u32,
    /// The event, as canonical FGN spells it.
    pub event: String,
}

/// Where a resimulated game's world events part from the recorded ones.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Divergence {
    /// The first recorded world event the changed rules do not derive
    /// there; `None` when the log has no more world events but the
    /// changed rules derive one.
    pub recorded: Option<LoggedEvent>,
    /// What the changed rules derive in its place; `None` when they derive
    /// nothing before the next kept event (or the end).
    pub derived: Option<String>,
}

/// What a change of rules does to one game.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Impact {
    /// The game.
    pub game: GameKind,
    /// How the game was replayed under the changed rules.
    pub mode: Mode,
    /// Why a game asked to be resimulated was compared strictly (no
    /// revealed seed, or one that does not match the commitment).
    pub note: Option<String>,
    /// The header tags the rules file's parameters overrode.
    pub overridden: Vec<Overridden>,
    /// Under its own rules (defaults and header), strictly.
    pub before: RunOutcome,
    /// Under the changed rules.
    pub after: RunOutcome,
    /// Resimulated: where the derived world events part from the recorded ones.
    pub diverged: Option<Divergence>,
    /// What changed; empty when nothing did.
    pub changes: Vec<VerdictChange>,
    /// Resimulated: the game as it would have gone, the kept events with
    /// the derived world events (up to a kept event that became illegal).
    #[serde(skip)]
    pub resimulated: Option<Game>,
}

impl Impact {
    /// Whether anything changed.
    pub fn changed(&self) -> bool {
        !self.changes.is_empty()
    }
}

/// The games an impact run checked, counted.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ImpactSummary {
    /// Games compared.
    pub checked: usize,
    /// Games nothing changed in.
    pub unchanged: usize,
    /// Games something changed in.
    pub changed: usize,
    /// Games with each kind of change (a game may have several).
    pub by_change: BTreeMap<VerdictChange, usize>,
    /// Games played again with their world events derived anew (`--resimulate`).
    pub resimulated: usize,
    /// Games that could not be compared (unreadable, unsupported, or rules that are not theirs).
    pub not_checked: usize,
}

impl Default for ImpactSummary {
    fn default() -> ImpactSummary {
        ImpactSummary {
            checked: 0,
            unchanged: 0,
            changed: 0,
            by_change: VerdictChange::ALL.into_iter().map(|c| (c, 0)).collect(),
            resimulated: 0,
            not_checked: 0,
        }
    }
}

impl ImpactSummary {
    /// Counts one compared game.
    pub fn add(&mut self, impact: &Impact) {
        self.checked += 1;
        if impact.mode == Mode::Resimulated {
            self.resimulated += 1;
        }
        if impact.changed() {
            self.changed += 1;
        } else {
            self.unchanged += 1;
        }
        for c in &impact.changes {
            *self.by_change.entry(*c).or_insert(0) += 1;
        }
    }
}

/// What `params` (a rules file's parameters for this game, `None`: none)
/// change in the game `doc` holds; with `resimulate`, a game whose seed is
/// revealed is played again with its world events derived anew. An error
/// only for a log no engine checks (a view, another rules version).
pub fn impact(doc: &Document, params: Option<&Params>, resimulate: bool) -> Result<Impact, StartError> {
    let game = &doc.game;
    let kind = game.kind().ok_or_else(|| StartError::Header {
        tag: Some("Game".into()),
        error: RuleError::at(
            Place::Header,
            fgn_replay::Fault::new(fgn_replay::Rule::Header, "the header names no game"),
        ),
    })?;
    let before = outcome(doc, validate(game))?;
    let seed = resimulate.then(|| revealed_seed(game));
    let (mode, note, after, overridden, diverged, resimulated) = match seed {
        Some(Ok(seed)) => {
            let course = resimulation(doc, params, seed)?;
            (
                Mode::Resimulated,
                None,
                course.outcome,
                course.overridden,
                course.diverged,
                Some(course.game),
            )
        }
        other => {
            let verdict = validate_with_params(game, params);
            let overridden = verdict.as_ref().map(|v| v.overridden.clone()).unwrap_or_default();
            let note = other.and_then(Result::err).map(|why| format!("not resimulated: {why}"));
            (Mode::Strict, note, outcome(doc, verdict)?, overridden, None, None)
        }
    };
    let mut changes = Vec::new();
    match (&before.failure, &after.failure) {
        (None, Some(_)) => changes.push(VerdictChange::BecameInvalid),
        (Some(_), None) => changes.push(VerdictChange::BecameValid),
        (Some(a), Some(b)) if a != b => changes.push(VerdictChange::FailureMoved),
        _ => {}
    }
    if diverged.is_some() {
        changes.push(VerdictChange::WorldEvents);
    }
    if before.valid && after.valid {
        if before.status != after.status {
            changes.push(VerdictChange::Result);
        }
        if before.state_hash != after.state_hash {
            changes.push(VerdictChange::StateHash);
        }
    }
    Ok(Impact {
        game: kind,
        mode,
        note,
        overridden,
        before,
        after,
        diverged,
        changes,
        resimulated,
    })
}

/// The outcome of a strict replay; an unsupported log is the caller's error.
fn outcome(doc: &Document, verdict: Result<fgn_replay::Verdict, StartError>) -> Result<RunOutcome, StartError> {
    match verdict {
        Ok(v) => Ok(RunOutcome {
            valid: v.error.is_none(),
            failure: v.error.map(|e| failure_in_log(doc, &e)),
            status: Some(v.replay.phase()),
            events_applied: v.applied,
            state_hash: Some(v.replay.state_hash()),
        }),
        Err(e) if e.is_unsupported() => Err(e),
        Err(StartError::Header { tag, error }) => Ok(RunOutcome {
            valid: false,
            failure: Some(Failure {
                line: Some(tag_line(doc, tag.as_deref())),
                column: Some(1),
                event: None,
                rule: error.rule.name(),
                message: error.message,
            }),
            status: None,
            events_applied: 0,
            state_hash: None,
        }),
    }
}

/// A rule error of a replay of the log's own events, placed in the log.
fn failure_in_log(doc: &Document, error: &RuleError) -> Failure {
    let (line, column) = locate(doc, error.place);
    let event = match error.place {
        Place::Event(i) => doc.game.events.get(i).map(ToString::to_string),
        Place::End | Place::Header => None,
    };
    Failure {
        line: Some(line),
        column: Some(column),
        event,
        rule: error.rule.name(),
        message: error.message.clone(),
    }
}

/// The seed the log reveals, if it matches the header's commitment.
fn revealed_seed(game: &Game) -> Result<[u8; 32], &'static str> {
    let seed = game
        .events
        .iter()
        .find_map(|e| match (&e.actor, &e.action) {
            (Actor::World, Action::Seed { seed: Seed(s) }) => Some(*s),
            _ => None,
        })
        .ok_or("the log reveals no seed")?;
    let commit = game
        .header
        .get("SeedCommit")
        .and_then(|c| fgn_notation::header::parse_seed_commit(c).ok())
        .ok_or("the header commits to no seed")?;
    if fgn_replay::seed::commitment(&seed) != commit {
        return Err("the revealed seed does not match the header's SeedCommit");
    }
    Ok(seed)
}

/// Whether resimulation drops `event` for the referee to derive anew:
/// every world event but a timeout (timeouts come from clocks).
fn derived_by_referee(event: &Event) -> bool {
    event.actor == Actor::World && !matches!(event.action, Action::Timeout { .. })
}

/// Where an event of the resimulated game comes from.
#[derive(Clone, Copy, Debug)]
enum Origin {
    /// The log's event with this index.
    Log(usize),
    /// The referee.
    Derived,
}

/// A game played again with its world events derived anew.
struct Course {
    outcome: RunOutcome,
    overridden: Vec<Overridden>,
    diverged: Option<Divergence>,
    game: Game,
}

/// The most world events derived in a row: the referee stops far below it
/// (see `referee`); it keeps a bug from running forever.
const MAX_DERIVED_RUN: usize = 1 << 16;

/// Plays the log's kept events again under `params`, with the world events
/// the referee derives from `seed` (docs/impact.md).
fn resimulation(doc: &Document, params: Option<&Params>, seed: [u8; 32]) -> Result<Course, StartError> {
    let log = &doc.game;
    let mut game = Game {
        header: log.header.clone(),
        events: Vec::new(),
    };
    let (mut replay, overridden) = match Replay::with_params(&log.header, params) {
        Ok(started) => started,
        Err(e) => {
            return Ok(Course {
                outcome: outcome(doc, Err(e))?,
                overridden: Vec::new(),
                diverged: None,
                game,
            })
        }
    };
    let referee = Referee::new(seed);
    let recorded: Vec<usize> = (0..log.events.len())
        .filter(|&i| derived_by_referee(&log.events[i]))
        .collect();
    let mut sim = Sim {
        doc,
        recorded,
        matched: 0,
        diverged: None,
        origins: Vec::new(),
    };
    // The world owes its first spawns at the start, but the players may
    // still give salts, which change the key they come from: up to the
    // log's last salt (before which only chat and salts may stand) the
    // referee waits.
    let last_salt = log.events.iter().rposition(|e| matches!(e.action, Action::Salt { .. }));
    let mut failure = None;
    for (i, event) in log.events.iter().enumerate() {
        if derived_by_referee(event) {
            continue;
        }
        let salting = last_salt.is_some_and(|last| i <= last);
        if !salting {
            if let Err(f) = sim.drain(&referee, &mut replay, &mut game, Some(i)) {
                failure = Some(f);
                break;
            }
        }
        if let Err(e) = replay.apply(event) {
            failure = Some(sim.failure(&game, &e, Some(i)));
            break;
        }
        game.events.push(event.clone());
        sim.origins.push(Origin::Log(i));
    }
    if failure.is_none() {
        failure = sim.drain(&referee, &mut replay, &mut game, None).err();
    }
    if failure.is_none() {
        failure = replay.finish().err().map(|e| sim.failure(&game, &e, None));
        if sim.diverged.is_none() {
            sim.diverged = sim.unmatched();
        }
    }
    Ok(Course {
        outcome: RunOutcome {
            valid: failure.is_none(),
            failure,
            status: Some(replay.phase()),
            events_applied: game.events.len(),
            state_hash: Some(replay.state_hash()),
        },
        overridden,
        diverged: sim.diverged,
        game,
    })
}

/// The bookkeeping of a resimulation: which recorded world events the
/// derived ones matched so far, and where each event of the new game
/// comes from.
struct Sim<'a> {
    doc: &'a Document,
    /// The indices of the recorded world events, in log order.
    recorded: Vec<usize>,
    /// How many of them the derived ones matched, in order.
    matched: usize,
    diverged: Option<Divergence>,
    origins: Vec<Origin>,
}

impl Sim<'_> {
    /// Applies the world events the referee owes before the log's kept
    /// event `next` (`None`: the end), comparing them with the recorded
    /// ones. A derived event that matches the next recorded one in its
    /// place (no kept event between) takes its clock reading, so that the
    /// time rules see the game as it was.
    fn drain(
        &mut self,
        referee: &Referee,
        replay: &mut Replay,
        game: &mut Game,
        next: Option<usize>,
    ) -> Result<(), Failure> {
        let log = &self.doc.game;
        let mut run = 0;
        while let Some(mut event) = referee.next(replay) {
            run += 1;
            if run > MAX_DERIVED_RUN {
                return Err(Failure {
                    line: None,
                    column: None,
                    event: Some(event.to_string()),
                    rule: fgn_replay::Rule::WorldEvent.name(),
                    message: format!("the referee derived more than {MAX_DERIVED_RUN} world events in a row"),
                });
            }
            if self.diverged.is_none() {
                match self.recorded.get(self.matched) {
                    Some(&r) if log.events[r].n == event.n && log.events[r].action == event.action => {
                        let in_place = match self.last_kept() {
                            Some(k) if k > r => false,
                            Some(k) => log.events[k + 1..r].iter().all(derived_by_referee),
                            None => log.events[..r].iter().all(derived_by_referee),
                        };
                        if in_place {
                            event.clock_ms = log.events[r].clock_ms;
                        }
                        self.matched += 1;
                    }
                    other => {
                        self.diverged = Some(Divergence {
                            recorded: other.map(|&r| self.logged(r)),
                            derived: Some(event.to_string()),
                        })
                    }
                }
            }
            if let Err(e) = replay.apply(&event) {
                // Kept in the new game so that the failure can name it.
                game.events.push(event);
                self.origins.push(Origin::Derived);
                return Err(self.failure(game, &e, None));
            }
            game.events.push(event);
            self.origins.push(Origin::Derived);
        }
        // A recorded world event before the next kept event that the
        // changed rules did not derive.
        if self.diverged.is_none() {
            if let Some(&r) = self.recorded.get(self.matched) {
                if next.is_none_or(|k| r < k) {
                    self.diverged = Some(Divergence {
                        recorded: Some(self.logged(r)),
                        derived: None,
                    });
                }
            }
        }
        Ok(())
    }

    /// The log index of the last kept event played, if any.
    fn last_kept(&self) -> Option<usize> {
        self.origins.iter().rev().find_map(|o| match o {
            Origin::Log(i) => Some(*i),
            Origin::Derived => None,
        })
    }

    /// The first recorded world event no derived one matched, if any.
    fn unmatched(&self) -> Option<Divergence> {
        let &r = self.recorded.get(self.matched)?;
        Some(Divergence {
            recorded: Some(self.logged(r)),
            derived: None,
        })
    }

    /// The log's event `i`, placed.
    fn logged(&self, i: usize) -> LoggedEvent {
        LoggedEvent {
            line: self.doc.event_lines.get(i).copied().unwrap_or(1),
            event: self.doc.game.events[i].to_string(),
        }
    }

    /// A rule error of the resimulated game (whose event indices are the
    /// new game's), placed in the log where the event is the log's; `at`
    /// is the log event being played, for an error of the new game's own.
    fn failure(&self, game: &Game, error: &RuleError, at: Option<usize>) -> Failure {
        let place = match error.place {
            Place::Event(j) => match self.origins.get(j) {
                Some(Origin::Log(i)) => Place::Event(*i),
                Some(Origin::Derived) => {
                    return Failure {
                        line: None,
                        column: None,
                        event: game.events.get(j).map(ToString::to_string),
                        rule: error.rule.name(),
                        message: error.message.clone(),
                    }
                }
                // The event being played, not yet in the new game.
                None => at.map_or(Place::End, Place::Event),
            },
            other => other,
        };
        failure_in_log(self.doc, &RuleError { place, ..error.clone() })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use fgn_replay::ruleset::RulesFile;

    /// The valid corpus logs of `game`, parsed.
    fn corpus(game: &str) -> Vec<(PathBuf, Document)> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus")
            .join(game)
            .join("valid");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("the corpus folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "fgn"))
            .collect();
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let parsed = fgn_notation::parse(&std::fs::read(&p).expect("readable"));
                assert!(parsed.is_ok(), "{}", p.display());
                (p, parsed.document)
            })
            .collect()
    }

    fn params(json: &str, game: GameKind) -> Params {
        RulesFile::parse(json).unwrap().params(game).unwrap().unwrap().clone()
    }

    /// The referee's strongest test: for every seed-revealed corpus game,
    /// deriving the world events anew under the game's own rules gives the
    /// log's world events exactly (clock readings included, where they stand
    /// in the same place), and the same kept events, result and state.
    #[test]
    fn resimulating_under_its_own_rules_reproduces_every_seeded_corpus_game() {
        let mut seeded = 0;
        for game in ["open-world-chess", "magic-draughts"] {
            for (path, doc) in corpus(game) {
                let impact = impact(&doc, None, true).expect("supported");
                if impact.mode == Mode::Strict {
                    continue;
                }
                seeded += 1;
                let name = path.display();
                assert!(impact.changes.is_empty(), "{name}: {impact:?}");
                let sim = impact.resimulated.expect("a resimulated game");
                let world =
                    |g: &Game| -> Vec<Event> { g.events.iter().filter(|e| derived_by_referee(e)).cloned().collect() };
                let kept =
                    |g: &Game| -> Vec<Event> { g.events.iter().filter(|e| !derived_by_referee(e)).cloned().collect() };
                assert_eq!(world(&sim), world(&doc.game), "{name}");
                assert_eq!(kept(&sim), kept(&doc.game), "{name}");
                assert_eq!(impact.after.state_hash, impact.before.state_hash, "{name}");
            }
        }
        assert!(
            seeded >= 20,
            "the corpus has seed-revealed games of both games: {seeded}"
        );
    }

    /// Lowering `moves_per_turn` breaks a three-move turn at its third move,
    /// and strict impact names that event.
    #[test]
    fn strict_impact_names_the_first_failing_event() {
        let (_, doc) = corpus("open-world-chess")
            .into_iter()
            .find(|(p, _)| p.ends_with("owc-01-raid-king-killed.fgn"))
            .expect("the raid game");
        let p = params(r#"{"moves_per_turn": 2}"#, GameKind::OpenWorldChess);
        let impact = impact(&doc, Some(&p), false).unwrap();
        assert_eq!(impact.mode, Mode::Strict);
        assert_eq!(impact.changes, [VerdictChange::BecameInvalid]);
        let f = impact.after.failure.expect("invalid now");
        assert_eq!((f.rule, f.event.as_deref()), ("turn", Some("1 w c2-c3 {t=11.2}")));
        assert_eq!(
            f.line,
            Some(doc.event_lines[7]),
            "white's third move, after five spawns"
        );
        let same = super::impact(&doc, Some(&params("{}", GameKind::OpenWorldChess)), false).unwrap();
        assert!(!same.changed(), "{same:?}");
    }

    /// A smaller damage roll gives other damage events: the resimulated
    /// world parts from the log at the first damage roll.
    #[test]
    fn resimulating_with_another_damage_roll_parts_at_the_first_roll() {
        let (_, doc) = corpus("open-world-chess")
            .into_iter()
            .find(|(p, _)| p.ends_with("owc-08-damage-ramp-king-dies-of-damage.fgn"))
            .expect("the damage game");
        let first_roll = doc
            .game
            .events
            .iter()
            .position(|e| matches!(e.action, Action::Damage { amount, .. } if amount > 1))
            .expect("a damage roll above 1");
        let p = params(r#"{"damage_roll": 1}"#, GameKind::OpenWorldChess);
        let impact = impact(&doc, Some(&p), true).unwrap();
        assert_eq!(impact.mode, Mode::Resimulated);
        assert!(impact.changes.contains(&VerdictChange::WorldEvents), "{impact:?}");
        let d = impact.diverged.expect("the world parts");
        let recorded = d.recorded.expect("at a recorded event");
        assert!(
            recorded.line <= doc.event_lines[first_roll],
            "parts at line {} at the latest at the first roll above 1 (line {})",
            recorded.line,
            doc.event_lines[first_roll]
        );
        assert!(d.derived.is_some_and(|e| e.contains("damage") && e.ends_with(" 1")));
    }

    #[test]
    fn a_game_without_a_revealed_seed_is_compared_strictly() {
        let (_, doc) = corpus("survival-chess").into_iter().next().expect("a survival game");
        let impact = impact(&doc, None, true).unwrap();
        assert_eq!(impact.mode, Mode::Strict);
        assert_eq!(impact.note.as_deref(), Some("not resimulated: the log reveals no seed"));
        assert!(!impact.changed());
    }
}
