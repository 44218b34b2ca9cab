//! Rule errors placed in the file their log was read from and worded for
//! a reader, and the complete verdict on a log validated in runs: what a
//! command line, an editor or a game server shows of a log that breaks a
//! rule, written once.

use fgn_notation::Document;

use fgn_replay::{
    locate, tag_line, validate_with_params, Params, Place, Rule, RuleError, StartError, Validation, Verdict,
};

/// A rule error with its line and column in the file and its message as a
/// reader sees it: led by the event it concerns as the log spells it
/// (which names its move number and actor), when it concerns one.
///
/// ```
/// use fgn_notation::parse;
/// use fgn_tools::placed::PlacedError;
/// use fgn_replay::{validate, Rule};
///
/// let doc = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b c3-d4\n").document;
/// let error = validate(&doc.game).unwrap().error.unwrap();
/// let placed = PlacedError::new(&doc, &error);
/// assert_eq!((placed.line, placed.column), (6, 5));
/// assert!(placed.message.starts_with("`1 b c3-d4`: "), "{}", placed.message);
/// assert_eq!(placed.rule, error.rule);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedError {
    /// The 1-based line of the file.
    pub line: u32,
    /// The 1-based column of the file.
    pub column: u32,
    /// The rule broken.
    pub rule: Rule,
    /// What is wrong, in words.
    pub message: String,
}

impl PlacedError {
    /// `error`, found by replaying the log of `doc` whole, placed in the
    /// file `doc` was read from ([`locate`]).
    pub fn new(doc: &Document, error: &RuleError) -> PlacedError {
        let (line, column) = locate(doc, error.place);
        match error.place {
            Place::Event(i) => match doc.game.events.get(i) {
                Some(event) => PlacedError::at_event(event, line, column, error),
                None => PlacedError::plain(line, column, error),
            },
            Place::End | Place::Header => PlacedError::plain(line, column, error),
        }
    }

    /// `error` at `event`, which stands at `line` and `column`: the message
    /// is led by the event as the log spells it.
    pub fn at_event(event: &impl std::fmt::Display, line: u32, column: u32, error: &RuleError) -> PlacedError {
        PlacedError {
            line,
            column,
            rule: error.rule,
            message: format!("`{event}`: {}", error.message),
        }
    }

    /// `error` at `line` and `column`, with its message as it is.
    fn plain(line: u32, column: u32, error: &RuleError) -> PlacedError {
        PlacedError {
            line,
            column,
            rule: error.rule,
            message: error.message.clone(),
        }
    }

    /// A header that cannot start a replay, `error` at the tag `tag` (the
    /// first line when no tag is named or the header has no such tag).
    pub fn in_header(doc: &Document, tag: Option<&str>, error: &RuleError) -> PlacedError {
        PlacedError::plain(tag_line(doc, tag), 1, error)
    }
}

/// The verdict on a log whose events were fed to `validation` in runs as
/// they were read ([`fgn_notation::parse_in_runs`]), with its first rule
/// error placed: `doc` is what that parse kept (the header and the lines,
/// no events) and `bytes` the log's text (a game's, for a file of several:
/// its lines are counted from `doc`'s first). [`Validation::finish`] cannot
/// always tell (an unmarked mate, or a revealed seed refuting an outcome of
/// an earlier run); the log is then parsed again, its events kept, and
/// validated whole under the same `params`, so that the answer is always
/// complete and the same as [`validate_with_params`] over the whole log.
pub fn finish_validation(
    validation: Validation,
    doc: &Document,
    bytes: &[u8],
    params: Option<&Params>,
) -> Result<(Verdict, Option<PlacedError>), StartError> {
    let first_line = doc.lines_before.saturating_add(1);
    match validation.finish() {
        Some(validated) => {
            let (refused, last_line) = (validated.refused, validated.last_line);
            // The events are gone: the error's event is the one the
            // validation kept, and the end is the last event's line.
            let placed = validated
                .verdict
                .error
                .as_ref()
                .map(|error| match (&refused, error.place) {
                    (Some(r), Place::Event(_)) => PlacedError::at_event(&r.event, r.line, r.column, error),
                    (_, Place::End) => PlacedError::plain(
                        last_line.or(doc.tag_lines.last().copied()).unwrap_or(first_line),
                        1,
                        error,
                    ),
                    _ => PlacedError::plain(first_line, 1, error),
                });
            Ok((validated.verdict, placed))
        }
        None => {
            // Read again where it stands in its file (a later game of a
            // file of several starts past line 1).
            let text = fgn_notation::split::GameText {
                text: bytes,
                first_line,
                ordinal: None,
            };
            let whole = text.parse().document;
            let verdict = validate_with_params(&whole.game, params)?;
            let placed = verdict.error.as_ref().map(|e| PlacedError::new(&whole, e));
            Ok((verdict, placed))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log validated in runs gets the verdict and the placed error that
    /// validating it whole gives, runs or not, the fallback included: an
    /// unmarked mate makes [`Validation::finish`] ask for the whole log.
    #[test]
    fn a_log_validated_in_runs_is_placed_as_the_whole_log_is() {
        let logs: [&[u8]; 4] = [
            b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b c3-d4\n",
            b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b d6-c5\n",
            b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n0 w place Ke1\n0 b place Ke9\n",
            b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n[Setup \"classical\"]\n\n\
              1 w f2-f3\n1 b e7-e5\n2 w g2-g4\n2 b Qd8-h4\n",
        ];
        // Each log on its own, and as a later game of a file of several,
        // whose lines are the file's.
        for (bytes, first_line) in logs.iter().flat_map(|&log| [(log, 1), (log, 7)]) {
            let text = fgn_notation::split::GameText {
                text: bytes,
                first_line,
                ordinal: None,
            };
            let whole = text.parse().document;
            let expected = validate_with_params(&whole.game, None).expect("a game with an engine");
            let expected_placed = expected.error.as_ref().map(|e| PlacedError::new(&whole, e));
            if let (Some(placed), Some(alone)) = (
                &expected_placed,
                fgn_notation::parse(bytes).document.event_lines.first(),
            ) {
                // Placed in the file: below the lines before the game.
                assert!(placed.line >= first_line && *alone + first_line - 1 == whole.event_lines[0]);
            }
            let mut validation = None;
            let streamed = text.parse_in_runs(|run| {
                validation
                    .get_or_insert_with(|| Validation::new(run.header, None).expect("a game with an engine"))
                    .feed(run);
            });
            let validation = validation.expect("a log with events");
            let (verdict, placed) =
                finish_validation(validation, &streamed.document, bytes, None).expect("a game with an engine");
            assert_eq!(placed, expected_placed, "{}", String::from_utf8_lossy(bytes));
            assert_eq!(verdict.applied, expected.applied);
            assert_eq!(verdict.replay.state_hash(), expected.replay.state_hash());
        }
    }

    #[test]
    fn a_header_error_points_at_its_tag() {
        let doc = fgn_notation::parse(b"[Game \"survival-chess\"]\n[Rules \"9.9\"]\n\n").document;
        let Err(StartError::Header { tag, error }) = validate_with_params(&doc.game, None) else {
            panic!("an unknown rules version starts no replay");
        };
        let placed = PlacedError::in_header(&doc, tag.as_deref(), &error);
        assert_eq!((placed.line, placed.column), (2, 1));
        assert_eq!(placed.message, error.message);
    }
}
