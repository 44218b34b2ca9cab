//! Every corpus log drawn as SVG at its end, whole and as each player
//! knows it: the document parses as XML and its squares say what the
//! picture holds (the contract of `fgn_tools::svg`'s module documentation),
//! and flipping the board reverses them.

use std::path::{Path, PathBuf};

use fgn_notation::Color;
use fgn_replay::{Picture, Replay, Shade, Viewer};
use fgn_tools::align::Alignment;
use fgn_tools::svg::{board, SvgOptions};

/// The corpus logs: every game's valid, invalid and views folders.
fn corpus_logs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut logs = Vec::new();
    for game in std::fs::read_dir(&root).expect("the corpus").flatten() {
        for folder in ["valid", "invalid", "views"] {
            let Ok(entries) = std::fs::read_dir(game.path().join(folder)) else {
                continue;
            };
            logs.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "fgn")),
            );
        }
    }
    logs.sort();
    logs
}

/// The log replayed as far as it goes (a view through the full log that
/// gives its player the same knowledge, as `fgn show` replays it); `None`
/// for a log that cannot be started or a view that cannot be replayed.
fn replayed(path: &Path) -> Option<Replay> {
    let parsed = fgn_notation::parse(&std::fs::read(path).expect("a corpus log"));
    let file = &parsed.document.game;
    let alignment = match file.perspective() {
        None => Alignment::identity(),
        Some(_) => Alignment::of_view(file).ok()?.0,
    };
    let game = alignment.full(file);
    let mut replay = Replay::new(&game.header).ok()?;
    for event in &game.events {
        if replay.apply(event).is_err() {
            break;
        }
    }
    Some(replay)
}

/// A square's `data-figures` as the module documentation specifies it,
/// written here from the picture independently of the renderer.
fn expected_figures(picture: &Picture, index: usize) -> String {
    let cell = &picture.cells[index];
    let figures: Vec<String> = cell
        .figures
        .iter()
        .map(|f| {
            let owner = match f.owner {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '-',
            };
            format!("{owner}:{}:{}", f.kind, f.label.clone().unwrap_or_default())
        })
        .collect();
    figures.join(" ")
}

fn shade_name(shade: Shade) -> &'static str {
    match shade {
        Shade::Clear => "clear",
        Shade::Fog => "fog",
        Shade::Unknown => "unknown",
    }
}

/// The squares of a drawing as (square, shade, figures) in document order.
fn drawn_squares(svg: &str, what: &str) -> Vec<(String, String, String)> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{what}: not XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg", "{what}");
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("square"))
        .map(|n| {
            let attribute = |name: &str| {
                n.attribute(name)
                    .unwrap_or_else(|| panic!("{what}: no {name}"))
                    .to_string()
            };
            (
                attribute("data-square"),
                attribute("data-shade"),
                attribute("data-figures"),
            )
        })
        .collect()
}

#[test]
fn every_corpus_log_is_drawn_square_for_square_from_every_side() {
    let logs = corpus_logs();
    assert!(logs.len() > 300, "the corpus was found: {}", logs.len());
    let mut drawn = 0;
    for path in &logs {
        let Some(replay) = replayed(path) else {
            continue;
        };
        let viewers = [None, Some(Viewer::of(Color::White)), Some(Viewer::of(Color::Black))];
        for viewer in viewers {
            let what = format!("{} as {viewer:?}", path.display());
            let picture = replay.picture(viewer);
            let svg = board(&picture, &SvgOptions::default());
            let squares = drawn_squares(&svg, &what);
            assert_eq!(
                squares.len(),
                usize::from(picture.files) * usize::from(picture.ranks),
                "{what}"
            );
            let mut sorted = squares.clone();
            sorted.sort_by_key(|(name, _, _)| {
                let square: fgn_notation::Square = name.parse().expect("a square");
                (square.rank_index(), square.file_index())
            });
            for (i, (name, shade, figures)) in sorted.iter().enumerate() {
                let cell = &picture.cells[i];
                assert_eq!(name, &cell.square.to_string(), "{what}");
                assert_eq!(shade, shade_name(cell.shade), "{what} {name}");
                assert_eq!(figures, &expected_figures(&picture, i), "{what} {name}");
            }
            let flipped = board(
                &picture,
                &SvgOptions {
                    flip: true,
                    ..SvgOptions::default()
                },
            );
            let mut reversed = drawn_squares(&flipped, &what);
            reversed.reverse();
            assert_eq!(reversed, squares, "{what}: flipping reverses the squares");
            drawn += 1;
        }
    }
    assert!(drawn > 900, "most logs can be replayed: {drawn} drawings");
}
