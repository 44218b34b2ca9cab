//! Drawing a replayed position for `fgn show`: text for the terminal, JSON
//! for programs, an SVG board (fgn-tools' `svg` module). The board is the
//! library's picture of the position ([`fgn_replay::Picture`]); nothing
//! here knows a game.

use std::fmt::Write as _;

use fgn_notation::Color;
use fgn_replay::{Cell, Charset, Picture, Shade};
use fgn_tools::frames::Seen;

use crate::out::{Paint, Stream};
use crate::texts::{status_text, turn_text};

/// How boards are drawn: symbols or ASCII letters, from which side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Letters instead of chess and draughts symbols (`--ascii`).
    pub ascii: bool,
    /// From black's side (`true`) or white's (`false`), as `--flip` and
    /// `--no-flip` say; `None`: from the side of the player it is drawn
    /// for, black's for black, white's for white and for everyone.
    pub flip: Option<bool>,
}

impl Look {
    /// Whether a board drawn for `viewer` (`None`: everyone) is drawn
    /// from black's side.
    pub fn flipped(self, viewer: Option<Color>) -> bool {
        self.flip.unwrap_or(viewer == Some(Color::Black))
    }

    /// `text` dimmed when standard output is coloured (`--color`):
    /// coordinates and fog, so that the pieces stand out.
    fn dim(self, text: &str) -> String {
        Paint::Dim.on(Stream::Out, text)
    }

    fn charset(self) -> Charset {
        if self.ascii {
            Charset::Ascii
        } else {
            Charset::Unicode
        }
    }
}

/// What a square holds, as text: its figures' glyphs, each with its label.
fn figures_text(cell: &Cell, charset: Charset) -> String {
    let mut text = String::new();
    for figure in &cell.figures {
        text.push_str(figure.glyph.get(charset));
        text.push_str(figure.label.as_deref().unwrap_or(""));
    }
    text
}

/// A picture's board with coordinates on all four sides, in a fixed-width
/// grid, then its legend. Every square is as wide as the widest square's
/// text (at least the picture's `square_width`), padded on the right, and
/// squares are one space apart, so a file's letter stands above the first
/// column of each of its squares whatever the squares hold. A square with
/// nothing on it is filled with the shade mark when shaded (dimmed), else
/// dotted, light and dark squares alike (docs/cli.md): a dot under every
/// file letter keeps each column easy to follow down a large board, which
/// blank light squares did not.
fn board(picture: &Picture, look: Look, flip: bool) -> String {
    let charset = look.charset();
    let width = picture
        .cells
        .iter()
        .map(|c| figures_text(c, charset).chars().count())
        .fold(picture.square_width, usize::max);
    let mut out = String::new();
    // From black's side rank 1 is on top and the files run from the last.
    let files: Vec<u8> = match flip {
        false => (0..picture.files).collect(),
        true => (0..picture.files).rev().collect(),
    };
    let ranks: Vec<u8> = match flip {
        false => (0..picture.ranks).rev().collect(),
        true => (0..picture.ranks).collect(),
    };
    let letters: String = files
        .iter()
        .map(|&f| format!(" {:<width$}", char::from(b'a'.saturating_add(f))))
        .collect();
    let letters = look.dim(letters.trim_end());
    let _ = writeln!(out, "    {letters}");
    for &r in &ranks {
        let _ = write!(out, "{}", look.dim(&format!("{:>3} ", r + 1)));
        for &f in &files {
            let index = usize::from(r) * usize::from(picture.files) + usize::from(f);
            let cell = picture.cells.get(index);
            let text = cell.map(|c| figures_text(c, charset)).unwrap_or_default();
            let shaded = cell.is_some_and(|c| c.shade != Shade::Clear);
            let (text, dim) = if !text.is_empty() {
                (text, false)
            } else if shaded {
                (charset.shade_mark().to_string().repeat(width), true)
            } else {
                (charset.empty_mark().to_string(), false)
            };
            let pad = width.saturating_sub(text.chars().count());
            let text = if dim { look.dim(&text) } else { text };
            let _ = write!(out, " {text}{}", " ".repeat(pad));
        }
        let _ = writeln!(out, " {}", look.dim(&(r + 1).to_string()));
    }
    let _ = writeln!(out, "    {letters}");
    for line in &picture.legend {
        let line = line.get(charset);
        if !line.is_empty() {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// The position as text: the board with coordinates, then who is to move,
/// check, spells and the result. A player's view is drawn from what it
/// knows, the full view from the state.
pub fn text(seen: &Seen, shown: usize, last: Option<&(String, u32)>, look: Look) -> String {
    let picture = seen.picture();
    let mut out = board(&picture, look, look.flipped(viewer(seen)));
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", caption(shown, last));
    for line in facts(seen, &picture) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// Which event a position comes after, as `fgn show` says it: `last` is
/// the event as the viewer saw it and its line.
pub fn caption(shown: usize, last: Option<&(String, u32)>) -> String {
    match last {
        Some((event, line)) => format!("after event {shown} (line {line}): {event}"),
        None => "at the start (no events)".to_string(),
    }
}

/// What `fgn show` says of a position below its board, one line each:
/// whose turn it is, the picture's notes, the salts, the result and the
/// hash. `fgn html` shows the same lines beside its board.
pub fn facts(seen: &Seen, picture: &Picture) -> Vec<String> {
    let progress = seen.progress();
    let mut lines = vec![turn_text(progress)];
    lines.extend(picture.notes.iter().cloned());
    let salts = &progress.salts;
    if fgn_replay::seed::is_salted(salts) {
        // Salts are public: every viewer is shown both.
        let text = |s: &Option<fgn_notation::Salt>| s.map_or("none".to_string(), |s| s.to_string());
        lines.push(format!(
            "salts: white {}, black {}",
            text(&salts.white),
            text(&salts.black)
        ));
    }
    lines.push(format!("result: {}", status_text(progress.status)));
    lines.push(format!("{}: {}", hash_name(seen), seen.hash()));
    lines
}

/// What a position's hash is called: the state hash of the whole state,
/// the knowledge hash of what a viewer knows.
pub fn hash_name(seen: &Seen) -> &'static str {
    if seen.is_knowledge() {
        "knowledge hash"
    } else {
        "state hash"
    }
}

/// The side a position is drawn for: the player whose knowledge it is,
/// `None` for the whole state and for everyone's knowledge.
fn viewer(seen: &Seen) -> Option<Color> {
    match seen {
        Seen::State(_) => None,
        Seen::Knowledge(k) => k.viewer.color(),
    }
}

/// The position as an SVG board (fgn-tools' `svg` module): the picture
/// [`text`] draws, from the side `look` says, with `highlight` (the last
/// event's squares) outlined, a heading that names the file, the side and
/// the last event, and below the board the picture's legend and notes,
/// whose turn it is and the result.
pub fn svg(
    seen: &Seen,
    name: &str,
    shown: usize,
    last: Option<&(String, u32)>,
    highlight: Vec<fgn_notation::Square>,
    look: Look,
) -> String {
    let mut picture = seen.picture();
    let progress = seen.progress();
    picture.note(turn_text(progress));
    picture.note(format!("result: {}", status_text(progress.status)));
    let viewer = viewer(seen);
    let side = viewer.map_or("all", Color::name);
    let options = fgn_tools::svg::SvgOptions {
        flip: look.flipped(viewer),
        highlight,
        title: Some(format!("{name} as {side}, {}", caption(shown, last))),
    };
    fgn_tools::svg::board(&picture, &options)
}

/// The version of `fgn show --format json`'s document. Version 1 (before
/// it carried `format` and `version`) called either hash `hash`; version 2
/// names it for what it hashes, `state_hash` or `knowledge_hash`, as every
/// other output does (docs/json.md §11); version 3 says which of the two
/// it is in `type`, `state` or `knowledge` (docs/json.md §10).
const SHOW_VERSION: u32 = 3;

/// The position as JSON: the serialised state (or, for a player, what it
/// knows) with its hash (docs/json.md, "fgn show").
pub fn json(seen: &Seen, shown: usize) -> serde_json::Value {
    match seen {
        Seen::State(state) => serde_json::json!({
            "format": "fgn-show",
            "version": SHOW_VERSION,
            "type": "state",
            "events_applied": shown,
            "state_hash": seen.hash(),
            "state": state,
        }),
        Seen::Knowledge(knowledge) => serde_json::json!({
            "format": "fgn-show",
            "version": SHOW_VERSION,
            "type": "knowledge",
            "events_applied": shown,
            "knowledge_hash": seen.hash(),
            "knowledge": knowledge,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corpus log replayed to its end.
    fn replayed(file: &str) -> fgn_replay::Replay {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus")
            .join(file);
        let parsed = fgn_notation::parse(&std::fs::read(&path).expect("a corpus log"));
        let verdict = fgn_replay::validate(&parsed.document.game).expect("a game with an engine");
        assert!(verdict.error.is_none(), "{file} is valid");
        verdict.replay
    }

    /// The whole state of a replay, as `fgn show` draws it without `--as`.
    fn whole(replay: &fgn_replay::Replay) -> Seen {
        Seen::State(Box::new(replay.state()))
    }

    /// The board's lines: from the file letters to the file letters.
    fn board_lines(text: &str) -> Vec<&str> {
        let legend = |l: &str| ["objects:", "pieces:", "units:"].iter().any(|p| l.starts_with(p));
        text.lines().take_while(|l| !legend(l) && !l.is_empty()).collect()
    }

    /// Regression (issue 14): two-digit HP ran into the next square
    /// (`♚10♝5`) and the rows went out of line with the file letters.
    #[test]
    fn open_world_squares_keep_one_width_whatever_the_hp() {
        let replay = replayed("open-world-chess/valid/owc-04-fog-10x10-in-progress.fgn");
        for look in [
            Look::default(),
            Look {
                ascii: true,
                ..Look::default()
            },
        ] {
            let text = text(&whole(&replay), 0, None, look);
            let lines = board_lines(&text);
            assert!(lines.iter().any(|l| l.contains("10 ")), "a two-digit HP:\n{text}");
            assert!(!text.contains("♚10♝"), "{text}");
            // The rows are equally wide up to the rank number on the right.
            let widths: Vec<usize> = lines[1..lines.len() - 1]
                .iter()
                .map(|l| l.trim_end_matches(|c: char| c.is_ascii_digit()).chars().count())
                .collect();
            assert!(widths.iter().all(|&w| w == widths[0]), "{text}");
            // Every square starts under its file letter.
            let letters = lines[0];
            let row = lines.iter().find(|l| l.starts_with(" 10 ")).expect("rank 10");
            for (i, c) in letters.char_indices().filter(|(_, c)| c.is_ascii_lowercase()) {
                let column = letters[..i].chars().count();
                let under: char = row.chars().nth(column).unwrap_or(' ');
                assert!(under != ' ', "nothing under {c} in\n{letters}\n{row}");
            }
        }
    }

    /// Regression (issue 14): "black has 1 coins".
    #[test]
    fn one_coin_is_singular() {
        let replay = replayed("open-world-chess/valid/owc-04-fog-10x10-in-progress.fgn");
        let text = text(&whole(&replay), 0, None, Look::default());
        assert!(text.contains("black has 1 coin\n"), "{text}");
        assert!(text.contains("white has 0 coins\n"), "{text}");
    }

    /// Regression (issue 14): the draughts board had no legend.
    #[test]
    fn the_draughts_board_has_a_legend() {
        let replay = replayed("magic-draughts/valid/01-plain-capture-all.fgn");
        let drawn = text(&whole(&replay), 0, None, Look::default());
        assert!(
            drawn.contains("pieces: ⛀ white man, ⛁ white king, ⛂ black man, ⛃ black king"),
            "{drawn}"
        );
        let ascii = text(
            &whole(&replay),
            0,
            None,
            Look {
                ascii: true,
                ..Look::default()
            },
        );
        assert!(
            ascii.contains("pieces: w white man, W white king, b black man, B black king"),
            "{ascii}"
        );
    }

    /// The renderer's own rules, on a picture no game made: every empty
    /// square dotted, checkered or not (docs/cli.md), shaded squares filled
    /// to the width the widest label sets, legend lines only in their
    /// charset.
    #[test]
    fn a_picture_is_drawn_by_its_cells_alone() {
        use fgn_replay::{Occupant, Text};
        let sq = |name: &str| -> fgn_notation::Square { name.parse().expect("a square") };
        let mut picture = Picture::new(3, 2);
        picture.place(
            sq("a1"),
            Occupant {
                label: Some("10".into()),
                ..Occupant::chess(fgn_notation::Color::White, fgn_notation::PieceKind::King)
            },
        );
        if let Some(cell) = picture.cell_mut(sq("c2")) {
            cell.shade = Shade::Unknown;
        }
        picture.legend.push(Text::ascii_only("letters"));
        let drawn = board(
            &picture,
            Look {
                ascii: true,
                ..Look::default()
            },
            false,
        );
        assert_eq!(
            drawn,
            "     a   b   c\n  2  .   .   ### 2\n  1  K10 .   .   1\n     a   b   c\nletters\n"
        );
        picture.checkered = true;
        let drawn = board(&picture, Look::default(), false);
        assert_eq!(
            drawn,
            "     a   b   c\n  2  ·   ·   ░░░ 2\n  1  ♔10 ·   ·   1\n     a   b   c\n"
        );
    }

    #[test]
    fn ascii_boards_use_letters_only() {
        for file in [
            "survival-chess/valid/01-bishop-queen-mate.fgn",
            "open-world-chess/valid/owc-04-fog-10x10-in-progress.fgn",
            "magic-draughts/valid/01-plain-capture-all.fgn",
            "great-war-chess/valid/gwc-01-raids-no-charges.fgn",
        ] {
            let replay = replayed(file);
            let drawn = text(
                &whole(&replay),
                0,
                None,
                Look {
                    ascii: true,
                    ..Look::default()
                },
            );
            let board = board_lines(&drawn).join("\n");
            assert!(board.is_ascii(), "{file}:\n{board}");
        }
    }
}
