//! A game's summary: what an analyst asks of a log before anything else —
//! is it valid (or where does it first go wrong), who played, who won and
//! why, how long it was, and the hashes that identify its game and its
//! final position. `fgn json` carries it as `summary`, `fgn select` filters
//! on it and `fgn stats` counts it (docs/json.md §15).
//!
//! A summary is plain data with a fixed shape: every field is always
//! written, `null` where it does not apply, so that a table of summaries
//! (DuckDB, pandas) has one type per column.

use fgn_notation::diagnostic::Severity;
use fgn_notation::{Action, Document, Event, Game, Outcome, Parsed, Reason};
use serde::Serialize;

use fgn_replay::{locate, tag_line, validate_completing, Completion, Digest, Phase, Place, RuleError, StartError};

use crate::loghash;

/// What a log is, for the rules: the spellings of `fgn validate --format
/// json`'s `status`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// It reads and replays without fault.
    Valid,
    /// It has a syntax error or breaks a rule.
    Invalid,
    /// It cannot be checked: a player's view, or a game or rules version
    /// without an engine.
    Unsupported,
}

/// What kind of fault a summary's error is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// A line the FGN reader cannot read.
    Syntax,
    /// A rule the log breaks.
    Rule,
    /// Why the log cannot be checked.
    Unsupported,
}

/// The first fault of a log, with its place in the file.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LogFault {
    /// Syntax, rule or unsupported.
    pub kind: ErrorKind,
    /// The rule's stable name (docs/rules.md), `None` for a syntax error.
    pub rule: Option<&'static str>,
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column.
    pub column: u32,
    /// The 0-based index of the event at fault, `None` when the fault is
    /// in the header, at the end of the log or a syntax error.
    pub index: Option<usize>,
    /// What is wrong, led by the event as the log spells it.
    pub message: String,
}

/// What kind of warning a summary's warning is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningKind {
    /// The last line has no line end (a torn download or append): the
    /// complete lines before it are the log summarised.
    TornLine,
    /// A header tag that looks like a parameter of the game but is none,
    /// so it is ignored (docs/rules.md, "Tags that look like parameters").
    ParameterTag,
    /// The game draws outcomes from a world seed, and no revealed seed
    /// checked them: no `SeedCommit`, or over without `@ seed`.
    OutcomesUnchecked,
}

/// Something a reader of a log should know that does not make it invalid;
/// `--strict` makes every warning an error.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Warning {
    /// What kind of warning.
    pub kind: WarningKind,
    /// The 1-based line it is about, `None` for the log as a whole.
    pub line: Option<u32>,
    /// What to know.
    pub message: String,
}

/// The warnings a log's header gives: each tag that looks like a parameter
/// of its game without being one, at the tag's line.
pub fn tag_warnings(doc: &Document) -> Vec<Warning> {
    let Some(game) = doc.game.kind() else {
        return Vec::new();
    };
    fgn_replay::ruleset::lookalike_tags(game, &doc.game.header)
        .into_iter()
        .map(|l| Warning {
            kind: WarningKind::ParameterTag,
            line: Some(tag_line(doc, Some(&l.tag))),
            message: l.message,
        })
        .collect()
}

/// A log's summary; docs/json.md §15 describes each field.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Summary {
    /// Valid, invalid or unsupported.
    pub status: Status,
    /// The first fault, `None` for a valid log.
    pub error: Option<LogFault>,
    /// The `Game` tag as written.
    pub game: Option<String>,
    /// The `Rules` tag.
    pub rules: Option<String>,
    /// The `Date` tag.
    pub date: Option<String>,
    /// The `White` tag: white's name.
    pub white: Option<String>,
    /// The `WhiteId` tag.
    pub white_id: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `BlackId` tag.
    pub black_id: Option<String>,
    /// Where the shared rules stand after the last event that applied:
    /// `playing`, `awaiting-extra`, `result-due` or `over` (the spelling of
    /// `fgn show`'s `status.phase`); `None` when the log does not replay.
    pub phase: Option<&'static str>,
    /// The outcome decided (`result-due`) or recorded (`over`).
    pub outcome: Option<Outcome>,
    /// Its reason.
    pub reason: Option<Reason>,
    /// The events of the log (as read).
    pub events: usize,
    /// How many of them applied (`events_applied`, as `fgn show` and
    /// `fgn impact` spell it; an `fgn events` row's `applied` is whether
    /// that one event applied).
    pub events_applied: usize,
    /// The players' moves among the events: chess moves, great-war-chess
    /// marches and shots, draughts moves.
    pub moves: usize,
    /// The move number of the last event (0 for a log without events).
    pub last_number: u32,
    /// The state hash after the last event that applied (docs/hashing.md).
    pub state_hash: Option<Digest>,
    /// The log hash (`fgn hash`), `None` for a log with syntax errors.
    pub log_hash: Option<Digest>,
    /// Whether a revealed seed checked the game's random outcomes: `None`
    /// for a game that has none or a log that does not replay to its end.
    pub outcomes_checked: Option<bool>,
    /// What a reader should know that does not make the log invalid, in
    /// line order (the log as a whole last).
    pub warnings: Vec<Warning>,
}

/// Whether an event is a player's move of pieces: what `moves` counts.
pub fn is_move(event: &Event) -> bool {
    matches!(
        event.action,
        Action::Move(_) | Action::March(_) | Action::Shot { .. } | Action::Draughts { .. }
    )
}

/// A rule error's message led by the event it concerns as the log spells
/// it (which names its move number and actor), when it concerns one: the
/// message of [`crate::placed::PlacedError`], the one wording of
/// rule errors in reports and summaries.
pub fn rule_message(doc: &Document, error: &RuleError) -> String {
    crate::placed::PlacedError::new(doc, error).message
}

/// The summary of a log as read: its first syntax error if it has one
/// (a torn last line is only a warning, and the complete lines are
/// summarised), else its replay under its own rules.
pub fn summarize(parsed: &Parsed) -> Summary {
    let mut summary = summarize_faults(parsed);
    let doc = &parsed.document;
    let torn = parsed.diagnostics.iter().filter(|d| d.severity == Severity::Warning);
    let mut warnings: Vec<Warning> = torn
        .map(|d| Warning {
            kind: WarningKind::TornLine,
            line: Some(d.line),
            message: d.message.clone(),
        })
        .chain(tag_warnings(doc))
        .collect();
    warnings.sort_by_key(|w| w.line);
    warnings.append(&mut summary.warnings);
    summary.warnings = warnings;
    summary
}

/// [`summarize`] but for the warnings of the file's lines: the fault, the
/// replay and the warning about the replay's outcomes.
fn summarize_faults(parsed: &Parsed) -> Summary {
    let doc = &parsed.document;
    let mut summary = header_part(&doc.game);
    if let Some(d) = parsed.diagnostics.iter().find(|d| d.severity == Severity::Error) {
        summary.status = Status::Invalid;
        summary.error = Some(LogFault {
            kind: ErrorKind::Syntax,
            rule: None,
            line: d.line,
            column: d.column,
            index: None,
            message: d.message.clone(),
        });
        return summary;
    }
    // One replay validates the log and completes its markers for the log
    // hash; a header the rules cannot start from leaves the log as written.
    let validated = validate_completing(&doc.game);
    let completion = match &validated {
        Ok((_, completion)) => completion,
        Err(_) => &Completion::default(),
    };
    summary.log_hash = Some(loghash::log_hash_completed(&doc.game, completion));
    match validated.map(|(verdict, _)| verdict) {
        Err(e) => {
            let unsupported = e.is_unsupported();
            let StartError::Header { tag, error } = e;
            summary.status = if unsupported {
                Status::Unsupported
            } else {
                Status::Invalid
            };
            summary.error = Some(LogFault {
                kind: if unsupported {
                    ErrorKind::Unsupported
                } else {
                    ErrorKind::Rule
                },
                rule: Some(error.rule.name()),
                line: tag_line(doc, tag.as_deref()),
                column: 1,
                index: None,
                message: error.message,
            });
        }
        Ok(verdict) => {
            let (phase, decision) = phase_parts(verdict.replay.phase());
            summary.phase = Some(phase);
            summary.outcome = decision.map(|d| d.0);
            summary.reason = decision.map(|d| d.1);
            summary.events_applied = verdict.applied;
            summary.state_hash = Some(verdict.replay.state_hash());
            if verdict.error.is_none() {
                summary.outcomes_checked = verdict.replay.outcomes_checked();
                if let Some(message) = verdict.replay.unchecked_outcomes() {
                    summary.warnings.push(Warning {
                        kind: WarningKind::OutcomesUnchecked,
                        line: None,
                        message: message.to_string(),
                    });
                }
            }
            if let Some(error) = verdict.error {
                let (line, column) = locate(doc, error.place);
                summary.status = Status::Invalid;
                summary.error = Some(LogFault {
                    kind: ErrorKind::Rule,
                    rule: Some(error.rule.name()),
                    line,
                    column,
                    index: match error.place {
                        Place::Event(i) => Some(i),
                        Place::End | Place::Header => None,
                    },
                    message: rule_message(doc, &error),
                });
            }
        }
    }
    summary
}

/// The phase's name as `fgn show` spells `status.phase`, and its decision.
pub fn phase_parts(phase: Phase) -> (&'static str, Option<(Outcome, Reason)>) {
    match phase {
        Phase::Playing => ("playing", None),
        Phase::AwaitingExtra { .. } => ("awaiting-extra", None),
        Phase::ResultDue(d) => ("result-due", Some((d.outcome, d.reason))),
        Phase::Over(d) => ("over", Some((d.outcome, d.reason))),
    }
}

/// What the header and the events as written say, before any replay.
fn header_part(game: &Game) -> Summary {
    let tag = |name: &str| game.header.get(name).map(str::to_string);
    Summary {
        status: Status::Valid,
        error: None,
        game: tag("Game"),
        rules: tag("Rules"),
        date: tag("Date"),
        white: tag("White"),
        white_id: tag("WhiteId"),
        black: tag("Black"),
        black_id: tag("BlackId"),
        phase: None,
        outcome: None,
        reason: None,
        events: game.events.len(),
        events_applied: 0,
        moves: game.events.iter().filter(|e| is_move(e)).count(),
        last_number: game.events.last().map_or(0, |e| e.n.0),
        state_hash: None,
        log_hash: None,
        outcomes_checked: None,
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Summary {
        summarize(&fgn_notation::parse(text.as_bytes()))
    }

    const MATE: &str = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[White \"Anna\"]\n[WhiteId \"vk:1\"]\n[Board \"8x8\"]\n\n0 w place Ke1 Qd1 Bc1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pf7 Pg7 Ph7 Pe7\n0 w ready\n0 b ready\n1 w e2-e4\n1 b g7-g5\n2 w Qd1-h5\n";

    #[test]
    fn a_valid_game_in_progress() {
        let s = of(MATE);
        assert_eq!(s.status, Status::Valid);
        assert_eq!(s.error, None);
        assert_eq!((s.events, s.events_applied, s.moves, s.last_number), (7, 7, 3, 2));
        assert_eq!(s.phase, Some("playing"));
        assert_eq!(
            (s.white.as_deref(), s.white_id.as_deref(), s.black.as_deref()),
            (Some("Anna"), Some("vk:1"), None)
        );
        assert!(s.state_hash.is_some() && s.log_hash.is_some());
    }

    #[test]
    fn a_rule_error_names_its_event_line_and_column() {
        let s = of(&format!("{MATE}2 b h7-h5\n"));
        assert_eq!(s.status, Status::Invalid);
        let e = s.error.expect("an error");
        assert_eq!((e.kind, e.index, e.line), (ErrorKind::Rule, Some(7), 14));
        assert!(e.message.starts_with("`2 b h7-h5`"), "{}", e.message);
        assert_eq!(s.events_applied, 7);
    }

    #[test]
    fn a_syntax_error_has_no_hashes() {
        let s = of("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-z99\n");
        assert_eq!(s.status, Status::Invalid);
        let e = s.error.expect("an error");
        assert_eq!((e.kind, e.rule, e.line, e.column), (ErrorKind::Syntax, None, 4, 8));
        assert_eq!((s.log_hash, s.state_hash, s.phase), (None, None, None));
    }

    #[test]
    fn a_view_is_unsupported() {
        let s = of("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Perspective \"white\"]\n\n0 w place Ke1\n");
        assert_eq!(s.status, Status::Unsupported);
        assert_eq!(s.error.map(|e| e.kind), Some(ErrorKind::Unsupported));
    }

    const SEEDED: &str = include_str!("../../../corpus/open-world-chess/valid/owc-18-salted-seed-revealed.fgn");

    #[test]
    fn a_game_without_random_outcomes_has_none_to_check() {
        let s = of(MATE);
        assert_eq!((s.outcomes_checked, s.warnings.as_slice()), (None, &[][..]));
    }

    #[test]
    fn outcomes_a_revealed_seed_checked_are_said_to_be_checked() {
        let s = of(SEEDED);
        assert_eq!(s.status, Status::Valid);
        assert_eq!(s.outcomes_checked, Some(true));
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    }

    #[test]
    fn a_finished_seeded_game_without_its_seed_warns_that_nothing_was_checked() {
        let unrevealed: String = SEEDED
            .lines()
            .filter(|l| !l.contains("@ seed"))
            .map(|l| format!("{l}\n"))
            .collect();
        let s = of(&unrevealed);
        assert_eq!((s.status, s.outcomes_checked), (Status::Valid, Some(false)));
        let kinds: Vec<WarningKind> = s.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, [WarningKind::OutcomesUnchecked]);
        assert!(
            s.warnings[0].message.contains("seed was not revealed"),
            "{:?}",
            s.warnings
        );
        // In progress with a commitment, the seed is not due yet: no warning.
        let open: String = unrevealed
            .lines()
            .take_while(|l| !l.starts_with("30 w Ke3xf4"))
            .map(|l| format!("{l}\n"))
            .collect();
        let s = of(&open);
        assert_eq!((s.status, s.outcomes_checked), (Status::Valid, Some(false)));
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    }

    #[test]
    fn random_outcomes_without_a_commitment_warn_whatever_the_phase() {
        let s = of("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e3\n");
        assert_eq!((s.status, s.outcomes_checked), (Status::Valid, Some(false)));
        assert_eq!(s.warnings.len(), 1);
        assert!(s.warnings[0].message.contains("no `SeedCommit`"), "{:?}", s.warnings);
        // Magic off draws nothing: nothing to check.
        let s = of("[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n");
        assert_eq!((s.outcomes_checked, s.warnings.len()), (None, 0));
    }

    #[test]
    fn a_torn_last_line_and_a_tag_like_a_parameter_are_warnings_of_a_valid_log() {
        let text = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[SeedCommit \"blake3:0000000000000000000000000000000000000000000000000000000000000000\"]\n[Hp \"pawn=1\"]\n\n1 w e2-e3\n1 b e7";
        let s = of(text);
        assert_eq!(s.status, Status::Valid);
        let got: Vec<(WarningKind, Option<u32>)> = s.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            got,
            [(WarningKind::ParameterTag, Some(4)), (WarningKind::TornLine, Some(7))]
        );
    }
}
