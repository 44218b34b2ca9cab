//! Whether a player's view file is exactly the view of a full log for its
//! side: what `fgn verify-view` checks, and what a server checks before it
//! trusts a view a client sends back.

use fgn_notation::{Color, Document, Game};

use fgn_replay::{view, ViewError};

/// Where a view file parts from the expected view: the line of the view
/// file and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The 1-based line of the view file.
    pub line: u32,
    /// What was expected there, in words.
    pub message: String,
}

/// Compares the view file `view_file` with the view of the full log `full`
/// for `side` (the view's `Perspective`): `Ok(None)` when it is exactly
/// that view, the first [`Difference`] when it is not, and why no view of
/// `full` can be made (a rule error, a game without an engine, a full log
/// that is itself a view) as an error.
///
/// ```
/// use fgn_notation::{parse, Color};
/// use fgn_tools::verify_view::verify_view;
///
/// let full = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b d6-c5\n").document;
/// let mut text = String::new();
/// fgn_replay::view::write_view(&full.game, Color::White, &mut text).unwrap();
/// let file = parse(text.as_bytes()).document;
/// assert_eq!(verify_view(&full.game, Color::White, &file).unwrap(), None);
/// // The view without its last line.
/// let short = format!("{}\n", text.trim_end().rsplit_once('\n').unwrap().0);
/// let short = parse(short.as_bytes()).document;
/// let part = verify_view(&full.game, Color::White, &short).unwrap().unwrap();
/// assert!(part.message.contains("missing 1 event(s)"), "{}", part.message);
/// ```
pub fn verify_view(full: &Game, side: Color, view_file: &Document) -> Result<Option<Difference>, ViewError> {
    let expected = view(full, side)?;
    Ok(first_difference(&expected, view_file))
}

/// Where the view file `view` parts from the `expected` view: the header
/// is compared tag by tag, then the events one by one.
pub fn first_difference(expected: &Game, view: &Document) -> Option<Difference> {
    let at = |line: u32, message: String| Some(Difference { line, message });
    let tags = (&expected.header.tags, &view.game.header.tags);
    let events = (&expected.events, &view.game.events);
    // The line after the header, for a tag missing at its end.
    let first_event_line = view
        .event_lines
        .first()
        .copied()
        .unwrap_or_else(|| view.tag_lines.last().map_or(1, |l| l + 1));
    for i in 0..tags.0.len().max(tags.1.len()) {
        match (tags.0.get(i), tags.1.get(i)) {
            (Some(e), Some(v)) if e == v => {}
            (Some(e), Some(_)) => return at(view.tag_lines[i], format!("expected the tag `{e}` here")),
            (Some(e), None) => return at(first_event_line, format!("the header ends early: expected `{e}`")),
            (None, _) => {
                return at(
                    view.tag_lines[i],
                    "the full log's view has no more tags: this one is extra".into(),
                )
            }
        }
    }
    let last_line = view.event_lines.last().copied().unwrap_or(first_event_line);
    for i in 0..events.0.len().max(events.1.len()) {
        match (events.0.get(i), events.1.get(i)) {
            (Some(e), Some(v)) if e == v => {}
            (Some(e), Some(_)) => return at(view.event_lines[i], format!("expected `{e}` here")),
            (Some(e), None) => {
                let missing = events.0.len() - i;
                return at(
                    last_line,
                    format!("the view is missing {missing} event(s) after this line, the first `{e}`"),
                );
            }
            (None, _) => {
                let extra = events.1.len() - i;
                return at(
                    view.event_lines[i],
                    format!("the view has {extra} event(s) more than the full log gives, from this line on"),
                );
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::parse;

    const FULL: &[u8] = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
        0 w place Ke1\n0 b place Ke8\n0 w ready\n0 b ready\n1 w Ke1-e2\n";

    fn text(full: &Game, side: Color) -> String {
        let mut text = String::new();
        fgn_replay::view::write_view(full, side, &mut text).expect("a view");
        text
    }

    #[test]
    fn each_way_a_view_can_part_is_found_at_its_line() {
        let full = parse(FULL).document.game;
        let expected = view(&full, Color::Black).expect("a view");
        let good = text(&full, Color::Black);
        let doc = |s: &str| parse(s.as_bytes()).document;
        assert_eq!(first_difference(&expected, &doc(&good)), None);
        let tags = expected.header.tags.len() as u32;
        // A changed event.
        let changed = good.replacen("Ke8", "Kd8", 1);
        let d = first_difference(&expected, &doc(&changed)).expect("a difference");
        assert!(d.message.starts_with("expected `0 b place Ke8`"), "{d:?}");
        // An extra event, and one missing.
        let extra = format!("{good}1 b Ke8-e7\n");
        let d = first_difference(&expected, &doc(&extra)).expect("a difference");
        assert!(d.message.contains("1 event(s) more"), "{d:?}");
        let missing: String = good
            .lines()
            .take(good.lines().count() - 1)
            .map(|l| format!("{l}\n"))
            .collect();
        let d = first_difference(&expected, &doc(&missing)).expect("a difference");
        assert!(d.message.contains("missing 1 event(s)"), "{d:?}");
        // A changed tag, on its own line.
        let retagged = good.replacen("8x8", "9x9", 1);
        let d = first_difference(&expected, &doc(&retagged)).expect("a difference");
        assert!(d.message.starts_with("expected the tag"), "{d:?}");
        assert!(d.line <= tags, "{d:?}");
        assert_eq!(verify_view(&full, Color::Black, &doc(&good)), Ok(None));
        // White's view is not black's.
        assert!(verify_view(&full, Color::Black, &doc(&text(&full, Color::White)))
            .expect("a view of black")
            .is_some());
    }
}
