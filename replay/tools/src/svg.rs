//! A board [`Picture`] drawn as a standalone SVG document: `fgn show
//! --format svg` writes one, and the HTML replay embeds one per event.
//!
//! The drawing knows no game. It draws the picture's model and nothing
//! else: the squares (alternately light and dark on a checkered board),
//! the file letters and rank numbers on all four edges, each square's
//! figures as their Unicode glyphs with their labels (HP, a stack's count)
//! in small text, shaded squares hatched, the squares of the last move
//! outlined, and the legend's lines and the notes as text below the board.
//!
//! # What it promises
//!
//! - Standalone and offline: an `xmlns`, a `viewBox` and a `width` and
//!   `height` (one unit a pixel, a square 40, so a 6x6 board is about 300
//!   pixels wide and a 26x26 board about 1100, or as wide as the longest
//!   line of text; it scales without loss either way). It
//!   references nothing outside itself: no fonts, images, scripts or
//!   styles are fetched, and it has no `id`s, no `<style>` and no
//!   `<defs>`, so that several boards can sit in one HTML page without
//!   one's styles or ids reaching another. Glyphs are text in a font list
//!   that ends in the generic `sans-serif`.
//! - Readable without colour: fog is hatched one way (`/`), unknown
//!   squares are hatched both ways and darker; white figures are white
//!   with a black outline and black figures black with a white one, so
//!   each reads on either square colour; figures that belong to no side
//!   are purple with a white outline. The highlighted squares get a thick
//!   blue outline inside an orange one, which no common colour blindness
//!   confuses with the board.
//! - Accessible: the root has `role="img"` and an `aria-label` (the title,
//!   or "board"), a `<title>` and a `<desc>` that gives the board as text,
//!   one occupied square after the other (`e4 white knight 5`, its figures
//!   separated by commas), then the fog and unknown squares.
//! - Every text is escaped for XML (`&`, `<`, `>`, `"` and `'`).
//!
//! # The squares' contract
//!
//! Each square is one element, which tests and the HTML replay read:
//!
//! ```text
//! <g class="square" data-square="e4" data-shade="clear|fog|unknown"
//!    data-figures="w:knight:5 b:pawn:" transform="translate(X Y)">
//! ```
//!
//! `data-figures` lists the square's figures in the picture's order,
//! separated by single spaces, each as `owner:kind:label`: the owner `w`,
//! `b` or `-` (no side), the figure's kind, and its label, empty when it
//! has none (kinds and labels are single words in every game). An empty
//! square has `data-figures=""`. A highlighted square also has
//! `data-highlight="true"`. The squares are drawn row by row from the top
//! of the picture, left to right, so that the document order is the
//! reading order: from white's side (rank 1 at the bottom, files a.. from
//! the left) by default, from black's with [`SvgOptions::flip`] (rank 1 on
//! top, the files reversed), which reverses the order of the squares.
//!
//! ```
//! use fgn_notation::{Color, PieceKind, Square};
//! use fgn_replay::{Occupant, Picture};
//! use fgn_tools::svg::{board, SvgOptions};
//!
//! let mut picture = Picture::new(6, 6);
//! let e4 = Square::new(4, 3).unwrap();
//! picture.place(e4, Occupant { label: Some("5".into()), ..Occupant::chess(Color::White, PieceKind::Knight) });
//! let options = SvgOptions { highlight: vec![e4], title: Some("after 1. Ne4".into()), ..SvgOptions::default() };
//! let svg = board(&picture, &options);
//! assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert!(svg.contains("data-square=\"e4\" data-shade=\"clear\" data-figures=\"w:knight:5\" data-highlight=\"true\""));
//! assert!(svg.contains("<desc>e4 white knight 5</desc>"));
//! ```

use std::fmt::Write as _;

use fgn_notation::{Color, Square};
use fgn_replay::{Cell, Charset, Occupant, Picture, Shade};

/// How a board is drawn.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// Draw from black's side: rank 1 on top, the files from the last on
    /// the left.
    pub flip: bool,
    /// The squares to outline (the last move's); squares off the board are
    /// left out.
    pub highlight: Vec<Square>,
    /// A heading drawn above the board, and the document's title and ARIA
    /// label.
    pub title: Option<String>,
}

/// The side of a square, in user units (pixels at the natural size).
const SQUARE: u32 = 40;
/// The width of the band around the board that holds the coordinates.
const MARGIN: u32 = 20;
/// The height of a line of text below the board (and of the heading).
const LINE: u32 = 18;
/// The font size of the text below the board, and an estimate of its
/// characters' mean width, so that the drawing is wide enough for its
/// longest line.
const TEXT_SIZE: u32 = 13;
const CHAR_WIDTH: f64 = 7.2;
/// The same for the heading, in bold and larger.
const TITLE_SIZE: u32 = 15;
const TITLE_CHAR_WIDTH: f64 = 9.2;
/// The fonts glyphs and text are written in: fonts with the chess and
/// draughts symbols first, and the generic family last, so that any
/// system finds one.
const FONTS: &str = "'DejaVu Sans', 'Segoe UI Symbol', 'Noto Sans Symbols 2', 'Arial Unicode MS', sans-serif";

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// The colour of every square of a board that is not checkered.
const PLAIN: &str = "#e6d3b3";
/// Blue and orange, the pair every common colour blindness tells apart.
const HIGHLIGHT_OUTER: &str = "#e69f00";
const HIGHLIGHT_INNER: &str = "#0057b8";

/// `picture` drawn as a standalone SVG document (see the module
/// documentation for what it promises and the squares' contract).
pub fn board(picture: &Picture, options: &SvgOptions) -> String {
    let files = u32::from(picture.files);
    let ranks = u32::from(picture.ranks);
    let lines = below_board(picture);
    let heading = options.title.as_ref().map_or(0, |_| LINE + 6);
    let board_width = files * SQUARE + 2 * MARGIN;
    let board_height = ranks * SQUARE + 2 * MARGIN;
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let title = options.title.as_ref().map_or(0, |t| t.chars().count());
    // The text's estimated width, rounded up, with the margin either side.
    let estimate = (longest as f64 * CHAR_WIDTH).max(title as f64 * TITLE_CHAR_WIDTH);
    let text_width = estimate.ceil() as u32 + 2 * MARGIN;
    let width = board_width.max(text_width);
    let text_lines = u32::try_from(lines.len()).unwrap_or(u32::MAX / LINE);
    let height = heading + board_height + text_lines * LINE + if lines.is_empty() { 0 } else { 8 };
    let label = options.title.as_deref().unwrap_or("board");

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" \
         role=\"img\" aria-label=\"{}\" font-family=\"{FONTS}\">",
        escape(label)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(label));
    let _ = writeln!(out, "<desc>{}</desc>", escape(&description(picture)));
    let _ = writeln!(out, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");
    if let Some(title) = &options.title {
        let _ = writeln!(
            out,
            "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"{TITLE_SIZE}\" font-weight=\"bold\" fill=\"#000000\">{}</text>",
            LINE,
            escape(title)
        );
    }
    let _ = writeln!(out, "<g transform=\"translate(0 {heading})\">");
    coordinates(&mut out, files, ranks, options.flip);
    for row in 0..ranks {
        for column in 0..files {
            let (file, rank) = square_at(column, row, files, ranks, options.flip);
            let index = rank as usize * files as usize + file as usize;
            if let Some(cell) = picture.cells.get(index) {
                let x = MARGIN + column * SQUARE;
                let y = MARGIN + row * SQUARE;
                let dark = picture.checkered && (file + rank) % 2 == 0;
                let highlighted = options.highlight.contains(&cell.square);
                square(&mut out, cell, x, y, picture.checkered, dark, highlighted);
            }
        }
    }
    let _ = writeln!(
        out,
        "<rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#5a4632\" stroke-width=\"1\"/>",
        files * SQUARE,
        ranks * SQUARE
    );
    let _ = writeln!(out, "</g>");
    for (i, line) in lines.iter().enumerate() {
        let y = heading + board_height + 4 + (i as u32 + 1) * LINE - 4;
        let _ = writeln!(
            out,
            "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"{TEXT_SIZE}\" fill=\"#000000\" xml:space=\"preserve\">{}</text>",
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The file and rank (from 0) drawn in `column` and `row` (from the top
/// left).
fn square_at(column: u32, row: u32, files: u32, ranks: u32, flip: bool) -> (u32, u32) {
    if flip {
        (files - 1 - column, row)
    } else {
        (column, ranks - 1 - row)
    }
}

/// The file letters above and below the board and the rank numbers left
/// and right of it.
fn coordinates(out: &mut String, files: u32, ranks: u32, flip: bool) {
    let style = "font-size=\"12\" fill=\"#555555\" text-anchor=\"middle\"";
    for column in 0..files {
        let (file, _) = square_at(column, 0, files, ranks, flip);
        let letter = char::from(b'a' + u8::try_from(file).unwrap_or(0));
        let x = MARGIN + column * SQUARE + SQUARE / 2;
        for y in [MARGIN - 6, MARGIN + ranks * SQUARE + 14] {
            let _ = writeln!(out, "<text x=\"{x}\" y=\"{y}\" {style}>{letter}</text>");
        }
    }
    for row in 0..ranks {
        let (_, rank) = square_at(0, row, files, ranks, flip);
        let y = MARGIN + row * SQUARE + SQUARE / 2 + 4;
        for x in [MARGIN / 2, MARGIN + files * SQUARE + MARGIN / 2] {
            let _ = writeln!(out, "<text x=\"{x}\" y=\"{y}\" {style}>{}</text>", rank + 1);
        }
    }
}

/// One square's group: its colour, its shading, its figures and its
/// outline when highlighted.
fn square(out: &mut String, cell: &Cell, x: u32, y: u32, checkered: bool, dark: bool, highlighted: bool) {
    let fill = match (checkered, dark) {
        (false, _) => PLAIN,
        (true, true) => DARK,
        (true, false) => LIGHT,
    };
    let _ = write!(
        out,
        "<g class=\"square\" data-square=\"{}\" data-shade=\"{}\" data-figures=\"{}\"{} transform=\"translate({x} {y})\">",
        cell.square,
        shade_name(cell.shade),
        escape(&figures_attribute(cell)),
        if highlighted {
            " data-highlight=\"true\""
        } else {
            ""
        }
    );
    let _ = write!(out, "<rect width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"");
    if !checkered {
        out.push_str(" stroke=\"#a08c6e\" stroke-width=\"0.5\"");
    }
    out.push_str("/>");
    shading(out, cell.shade);
    figures(out, &cell.figures);
    if highlighted {
        let _ = write!(
            out,
            "<rect x=\"2\" y=\"2\" width=\"{w}\" height=\"{w}\" fill=\"none\" stroke=\"{HIGHLIGHT_OUTER}\" stroke-width=\"4\"/>\
             <rect x=\"5\" y=\"5\" width=\"{v}\" height=\"{v}\" fill=\"none\" stroke=\"{HIGHLIGHT_INNER}\" stroke-width=\"3\"/>",
            w = SQUARE - 4,
            v = SQUARE - 10
        );
    }
    out.push_str("</g>\n");
}

/// The hatching of a shaded square: fog a grey veil with lines one way,
/// unknown a darker veil with lines both ways, so that the two differ by
/// pattern and not by colour alone.
fn shading(out: &mut String, shade: Shade) {
    let (veil, both_ways) = match shade {
        Shade::Clear => return,
        Shade::Fog => ("fill=\"#8c8c8c\" fill-opacity=\"0.35\"", false),
        Shade::Unknown => ("fill=\"#3c3c3c\" fill-opacity=\"0.55\"", true),
    };
    let _ = write!(out, "<rect width=\"{SQUARE}\" height=\"{SQUARE}\" {veil}/>");
    let mut path = String::new();
    let s = SQUARE;
    let step = 10;
    // The lines x + y = c (drawn `/`) across the square, and for unknown
    // squares also x - y = c (`\`), each cut to the square's edges.
    for c in (step..2 * s).step_by(step as usize) {
        let (x0, y0) = (c.saturating_sub(s), c.min(s));
        let (x1, y1) = (c.min(s), c.saturating_sub(s));
        let _ = write!(path, "M{x0} {y0}L{x1} {y1}");
        if both_ways {
            let _ = write!(path, "M{x0} {}L{x1} {}", s - y0, s - y1);
        }
    }
    let _ = write!(
        out,
        "<path d=\"{path}\" stroke=\"#202020\" stroke-width=\"1.2\" stroke-opacity=\"0.7\" fill=\"none\"/>"
    );
}

/// The figures of a square, in a grid of as many columns as the square
/// root of their number (one figure fills the square, four share it two by
/// two), each glyph with its label at its lower right.
fn figures(out: &mut String, figures: &[Occupant]) {
    let n = figures.len() as u32;
    if n == 0 {
        return;
    }
    let columns = (1..=n).find(|c| c * c >= n).unwrap_or(n);
    let rows = n.div_ceil(columns);
    let size = f64::from(SQUARE) / f64::from(columns.max(rows));
    for (i, figure) in figures.iter().enumerate() {
        let i = i as u32;
        let (column, row) = (i % columns, i / columns);
        let x = f64::from(column) * size;
        let y = f64::from(row) * size + (f64::from(SQUARE) - f64::from(rows) * size) / 2.0;
        let glyph_size = size * 0.72;
        let (fill, stroke, width) = match figure.owner {
            Some(Color::White) => ("#ffffff", "#000000", 0.9),
            Some(Color::Black) => ("#000000", "#ffffff", 0.7),
            None => ("#6a2c91", "#ffffff", 0.7),
        };
        let glyph = match figure.glyph.get(Charset::Unicode) {
            "" => figure.glyph.get(Charset::Ascii),
            g => g,
        };
        let owner = owner_name(figure.owner).unwrap_or("none");
        let _ = write!(
            out,
            "<text class=\"figure {owner}\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{glyph_size:.1}\" text-anchor=\"middle\" \
             fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\" paint-order=\"stroke\">{}</text>",
            x + size / 2.0,
            y + size * 0.76,
            escape(glyph)
        );
        if let Some(label) = &figure.label {
            let label_size = (size * 0.3).max(8.0);
            let _ = write!(
                out,
                "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{label_size:.1}\" text-anchor=\"end\" \
                 fill=\"#000000\" stroke=\"#ffffff\" stroke-width=\"2\" paint-order=\"stroke\">{}</text>",
                x + size - 1.0,
                y + size - 2.0,
                escape(label)
            );
        }
    }
}

/// The legend's lines (in symbols) and the notes, as drawn below the board.
fn below_board(picture: &Picture) -> Vec<String> {
    let legend = picture
        .legend
        .iter()
        .map(|l| l.get(Charset::Unicode))
        .filter(|l| !l.is_empty());
    legend
        .map(str::to_string)
        .chain(picture.notes.iter().cloned())
        .collect()
}

/// `data-figures`: `owner:kind:label` per figure, separated by spaces.
fn figures_attribute(cell: &Cell) -> String {
    let each = cell.figures.iter().map(|f| {
        let owner = match f.owner {
            Some(Color::White) => "w",
            Some(Color::Black) => "b",
            None => "-",
        };
        format!("{owner}:{}:{}", f.kind, f.label.as_deref().unwrap_or(""))
    });
    each.collect::<Vec<_>>().join(" ")
}

fn owner_name(owner: Option<Color>) -> Option<&'static str> {
    owner.map(Color::name)
}

fn shade_name(shade: Shade) -> &'static str {
    match shade {
        Shade::Clear => "clear",
        Shade::Fog => "fog",
        Shade::Unknown => "unknown",
    }
}

/// The board as text for a screen reader: each occupied square (`e4 white
/// knight 5`, several figures separated by commas), from a1 on, then the
/// squares in fog and the unknown ones.
fn description(picture: &Picture) -> String {
    let mut parts: Vec<String> = picture
        .cells
        .iter()
        .filter(|c| !c.figures.is_empty())
        .map(|c| {
            let figures: Vec<String> = c
                .figures
                .iter()
                .map(|f| {
                    let words = [owner_name(f.owner), Some(f.kind.as_str()), f.label.as_deref()];
                    words.into_iter().flatten().collect::<Vec<_>>().join(" ")
                })
                .collect();
            format!("{} {}", c.square, figures.join(", "))
        })
        .collect();
    for (shade, name) in [(Shade::Fog, "in fog"), (Shade::Unknown, "unknown")] {
        let squares: Vec<String> = picture
            .cells
            .iter()
            .filter(|c| c.shade == shade)
            .map(|c| c.square.to_string())
            .collect();
        if !squares.is_empty() {
            let count = match squares.len() {
                1 => "1 square".to_string(),
                n => format!("{n} squares"),
            };
            parts.push(format!("{count} {name}: {}", squares.join(" ")));
        }
    }
    if parts.is_empty() {
        parts.push("an empty board".to_string());
    }
    parts.join("; ")
}

/// `text` with the five characters XML reserves written as entities, fit
/// for both element content and attribute values, of SVG and of HTML alike
/// (`fgn html` writes its pages' text with it).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newline are not XML
            // at all; a hostile label must still give a document.
            c if c.is_control() && c != '\t' && c != '\n' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::PieceKind;
    use fgn_replay::Text;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"))
    }

    /// The squares' groups, in document order.
    fn squares<'a>(doc: &'a roxmltree::Document<'a>) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("square"))
            .collect()
    }

    fn translate(node: roxmltree::Node<'_, '_>) -> (u32, u32) {
        let t = node.attribute("transform").expect("a transform");
        let inner = t.trim_start_matches("translate(").trim_end_matches(')');
        let (x, y) = inner.split_once(' ').expect("x and y");
        (x.parse().expect("x"), y.parse().expect("y"))
    }

    #[test]
    fn a_board_from_6x6_to_26x26_has_a_square_per_cell_and_all_coordinates() {
        for (files, ranks) in [(6, 6), (8, 8), (10, 12), (26, 26)] {
            let picture = Picture::new(files, ranks);
            let svg = board(&picture, &SvgOptions::default());
            let doc = parse(&svg);
            let root = doc.root_element();
            assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
            assert_eq!(root.attribute("role"), Some("img"));
            let width: u32 = root.attribute("width").and_then(|w| w.parse().ok()).expect("a width");
            assert_eq!(
                root.attribute("viewBox"),
                Some(&*format!("0 0 {width} {}", root.attribute("height").unwrap_or("")))
            );
            assert_eq!(squares(&doc).len(), usize::from(files) * usize::from(ranks));
            let texts: Vec<&str> = doc
                .descendants()
                .filter(|n| n.is_text())
                .filter_map(|n| n.text())
                .collect();
            let last_file = char::from(b'a' + files - 1).to_string();
            assert_eq!(texts.iter().filter(|t| **t == last_file).count(), 2, "{files}x{ranks}");
            let last_rank = ranks.to_string();
            assert!(
                texts.iter().filter(|t| **t == last_rank).count() >= 2,
                "{files}x{ranks}"
            );
            assert!(
                !svg.contains("href") && !svg.contains("url(") && !svg.contains("<style"),
                "{svg}"
            );
        }
    }

    #[test]
    fn flipping_reverses_the_squares_and_draws_rank_1_on_top() {
        let picture = Picture::new(8, 6);
        let plain = board(&picture, &SvgOptions::default());
        let flipped = board(
            &picture,
            &SvgOptions {
                flip: true,
                ..SvgOptions::default()
            },
        );
        let (a, b) = (parse(&plain), parse(&flipped));
        let names = |doc: &roxmltree::Document<'_>| -> Vec<(String, (u32, u32))> {
            squares(doc)
                .iter()
                .map(|n| (n.attribute("data-square").unwrap_or("").to_string(), translate(*n)))
                .collect()
        };
        let (plain, flipped) = (names(&a), names(&b));
        assert_eq!(plain[0].0, "a6", "white's side: a6 top left");
        assert_eq!(flipped[0].0, "h1", "black's side: h1 top left");
        let reversed: Vec<String> = plain.iter().rev().map(|(s, _)| s.clone()).collect();
        assert_eq!(flipped.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>(), reversed);
        // Each square is drawn where the square opposite it (turned half
        // round the board's centre) was.
        let by_square =
            |list: &[(String, (u32, u32))], name: &str| list.iter().find(|(s, _)| s == name).map(|(_, p)| *p);
        for cell in &picture.cells {
            let (f, r) = (cell.square.file_index(), cell.square.rank_index());
            let opposite = Square::new(7 - f, 5 - r).expect("on the board").to_string();
            let here = by_square(&flipped, &cell.square.to_string());
            assert!(here.is_some());
            assert_eq!(here, by_square(&plain, &opposite), "{}", cell.square);
        }
    }

    #[test]
    fn squares_carry_their_shade_figures_and_highlight() {
        let mut picture = Picture::new(6, 6);
        picture.checkered = true;
        picture.place(sq("c3"), Occupant::letter(Some(Color::White), "infantry", 'I'));
        picture.place(
            sq("c3"),
            Occupant {
                label: Some("2".into()),
                ..Occupant::letter(Some(Color::White), "cavalry", 'C')
            },
        );
        picture.place(sq("c3"), Occupant::letter(None, "coin", '$'));
        picture.place(sq("d5"), Occupant::chess(Color::Black, PieceKind::Queen));
        if let Some(cell) = picture.cell_mut(sq("a6")) {
            cell.shade = Shade::Fog;
        }
        if let Some(cell) = picture.cell_mut(sq("b6")) {
            cell.shade = Shade::Unknown;
        }
        let options = SvgOptions {
            highlight: vec![sq("c3"), sq("z9")],
            ..SvgOptions::default()
        };
        let svg = board(&picture, &options);
        let doc = parse(&svg);
        let find = |name: &str| {
            squares(&doc)
                .into_iter()
                .find(|n| n.attribute("data-square") == Some(name))
                .expect("the square")
        };
        let c3 = find("c3");
        assert_eq!(c3.attribute("data-figures"), Some("w:infantry: w:cavalry:2 -:coin:"));
        assert_eq!(c3.attribute("data-highlight"), Some("true"));
        let glyphs: Vec<&str> = c3
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("figure")))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(glyphs, ["I", "C", "$"], "every figure of a stack is drawn");
        assert_eq!(find("d5").attribute("data-figures"), Some("b:queen:"));
        assert_eq!(find("d4").attribute("data-figures"), Some(""));
        assert_eq!(find("d4").attribute("data-highlight"), None);
        assert_eq!(find("a6").attribute("data-shade"), Some("fog"));
        assert_eq!(find("b6").attribute("data-shade"), Some("unknown"));
        // Fog and unknown differ in hatching, not only in colour: one
        // direction against two.
        let hatching = |name: &str| {
            find(name)
                .descendants()
                .find(|n| n.has_tag_name("path"))
                .and_then(|n| n.attribute("d"))
                .map(|d| d.matches('M').count())
                .unwrap_or(0)
        };
        assert!(hatching("a6") > 0);
        assert_eq!(hatching("b6"), 2 * hatching("a6"));
        assert_eq!(hatching("c3"), 0);
        // a1 is dark on a checkered board, b1 light.
        let fill = |name: &str| {
            find(name)
                .first_element_child()
                .and_then(|r| r.attribute("fill"))
                .map(str::to_string)
        };
        assert_eq!(fill("a1").as_deref(), Some(DARK));
        assert_eq!(fill("b1").as_deref(), Some(LIGHT));
        let desc = doc
            .descendants()
            .find(|n| n.has_tag_name("desc"))
            .and_then(|n| n.text())
            .expect("a description");
        assert_eq!(
            desc,
            "c3 white infantry, white cavalry 2, coin; d5 black queen; 1 square in fog: a6; 1 square unknown: b6"
        );
    }

    #[test]
    fn hostile_text_is_escaped() {
        let hostile = "<script>&\"'</script>\u{1}";
        let mut picture = Picture::new(6, 6);
        picture.place(
            sq("a1"),
            Occupant {
                label: Some(hostile.into()),
                kind: hostile.into(),
                glyph: Text::plain(hostile),
                owner: None,
            },
        );
        picture.legend.push(Text::plain(hostile));
        picture.note(hostile);
        let options = SvgOptions {
            title: Some(hostile.into()),
            ..SvgOptions::default()
        };
        let svg = board(&picture, &options);
        assert!(!svg.contains("<script"), "{svg}");
        let doc = parse(&svg);
        let clean = "<script>&\"'</script>\u{FFFD}";
        assert_eq!(doc.root_element().attribute("aria-label"), Some(clean));
        let a1 = squares(&doc)
            .into_iter()
            .find(|n| n.attribute("data-square") == Some("a1"))
            .expect("a1");
        assert_eq!(a1.attribute("data-figures"), Some(&*format!("-:{clean}:{clean}")));
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        assert!(
            texts.iter().filter(|t| **t == clean).count() >= 5,
            "title, heading, glyph, label, legend, note: {texts:?}"
        );
    }

    #[test]
    fn legend_and_notes_are_lines_below_the_board_and_widen_it() {
        let mut picture = Picture::new(6, 6);
        picture.legend.push(Text::ascii_only("letters only"));
        picture.legend.push(Text::plain("objects: ✚ regen"));
        let long = "a note much longer than a six-square board is wide, which must still be read in full";
        picture.note(long);
        let svg = board(&picture, &SvgOptions::default());
        let doc = parse(&svg);
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        assert!(texts.contains(&"objects: ✚ regen"));
        assert!(texts.contains(&long));
        assert!(
            !texts.contains(&"letters only"),
            "an ASCII-only legend line is not drawn"
        );
        let width: f64 = doc
            .root_element()
            .attribute("width")
            .and_then(|w| w.parse().ok())
            .expect("a width");
        assert!(width >= long.len() as f64 * CHAR_WIDTH, "{width}");
    }
}
