//! A board picture: what a position looks like, as plain data that any
//! drawing can be made from without knowing the game.
//!
//! Each game describes its state, and what a viewer knows of it, as a
//! [`Picture`]: a board of `files` x `ranks` [`Cell`]s, each holding the
//! [`Occupant`]s that stand there (a piece, a stack's units, an object, a
//! merchant) and its [`Shade`] (clear, fog, or unknown to the viewer);
//! then the legend that explains the symbols, and notes that go beside the
//! board (charges, coins, captured checkers, what the world owes). Every
//! symbol and every legend line is given in both [`Charset`]s, Unicode and
//! ASCII, so that a drawing only picks one. The terminal renderer of
//! `fgn show` draws this model and nothing else, and an SVG or HTML
//! renderer can draw the same model: a figure's `owner` and `kind` say
//! what to colour and how to style it, its `glyph` and `label` what to
//! write.
//!
//! The model is the game's account of what is shown where; the rules of
//! a drawing (how wide a square is, how a shaded square looks) are the
//! renderer's, with the marks every drawing shares given here
//! ([`Charset::empty_mark`], [`Charset::shade_mark`]) so that a legend
//! that names them and the renderer that draws them agree.
//!
//! ```
//! use fgn_notation::{Color, PieceKind, Square};
//! use fgn_replay::{Charset, Occupant, Picture};
//!
//! let mut picture = Picture::new(8, 8);
//! let e1 = Square::new(4, 0).unwrap();
//! picture.place(e1, Occupant::chess(Color::White, PieceKind::King));
//! let cell = picture.cell(e1).unwrap();
//! assert_eq!(cell.figures[0].glyph.get(Charset::Unicode), "♔");
//! assert_eq!(cell.figures[0].glyph.get(Charset::Ascii), "K");
//! assert_eq!(cell.figures[0].kind, "king");
//! ```

use fgn_notation::{Color, PieceKind, Square};
use serde::Serialize;

/// The characters a drawing uses: symbols, or ASCII letters only
/// (`fgn show --ascii`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Charset {
    /// Chess and draughts symbols, `·` and `░`.
    Unicode,
    /// Letters, `.` and `#`.
    Ascii,
}

impl Charset {
    /// The mark of an empty square, light or dark, that no shade covers.
    pub const fn empty_mark(self) -> char {
        match self {
            Charset::Unicode => '·',
            Charset::Ascii => '.',
        }
    }

    /// The mark that fills a shaded square (fog, or unknown to the viewer)
    /// with nothing shown on it.
    pub const fn shade_mark(self) -> char {
        match self {
            Charset::Unicode => '░',
            Charset::Ascii => '#',
        }
    }
}

/// A text written in both character sets. An empty spelling means the
/// text is not drawn in that set: the legend of chess boards, for one, is
/// needed only where letters stand for the pieces.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Text {
    /// With symbols.
    pub unicode: String,
    /// With ASCII characters only.
    pub ascii: String,
}

impl Text {
    /// A text spelled alike in both sets.
    pub fn plain(text: impl Into<String>) -> Text {
        let text = text.into();
        Text {
            unicode: text.clone(),
            ascii: text,
        }
    }

    /// A text spelled by `spell` for each set.
    pub fn by(spell: impl Fn(Charset) -> String) -> Text {
        Text {
            unicode: spell(Charset::Unicode),
            ascii: spell(Charset::Ascii),
        }
    }

    /// A text drawn only in ASCII.
    pub fn ascii_only(text: impl Into<String>) -> Text {
        Text {
            unicode: String::new(),
            ascii: text.into(),
        }
    }

    /// The spelling for `charset`.
    pub fn get(&self, charset: Charset) -> &str {
        match charset {
            Charset::Unicode => &self.unicode,
            Charset::Ascii => &self.ascii,
        }
    }
}

/// Something that stands on a square: a piece, one unit of a stack, an
/// object, a merchant.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Occupant {
    /// Whose it is; `None` for what belongs to no side (objects, merchants).
    pub owner: Option<Color>,
    /// What it is, in the game's words (`king`, `man`, `infantry`,
    /// `fortification`, `regen`, `merchant`): what a drawing styles by.
    pub kind: String,
    /// Its symbol, usually one character.
    pub glyph: Text,
    /// A number or word written right after the glyph (a piece's HP).
    pub label: Option<String>,
}

impl Occupant {
    /// A figure without a label, drawn alike in both sets.
    pub fn letter(owner: Option<Color>, kind: impl Into<String>, glyph: char) -> Occupant {
        Occupant {
            owner,
            kind: kind.into(),
            glyph: Text::plain(glyph),
            label: None,
        }
    }

    /// A chess piece, as both chess games draw it: its Unicode symbol, or
    /// its letter, upper case for white and lower case for black.
    pub fn chess(color: Color, kind: PieceKind) -> Occupant {
        let i = match kind {
            PieceKind::King => 0,
            PieceKind::Queen => 1,
            PieceKind::Rook => 2,
            PieceKind::Bishop => 3,
            PieceKind::Knight => 4,
            PieceKind::Pawn => 5,
        };
        let symbol = match color {
            Color::White => ['♔', '♕', '♖', '♗', '♘', '♙'][i],
            Color::Black => ['♚', '♛', '♜', '♝', '♞', '♟'][i],
        };
        let letter = match color {
            Color::White => kind.char(),
            Color::Black => kind.char().to_ascii_lowercase(),
        };
        Occupant {
            owner: Some(color),
            kind: kind.name().to_string(),
            glyph: Text {
                unicode: symbol.to_string(),
                ascii: letter.to_string(),
            },
            label: None,
        }
    }
}

/// The legend of chess boards drawn in letters (the symbols explain
/// themselves).
pub const CHESS_LETTERS: &str = "pieces: K Q R B N P white, k q r b n p black";

/// How much of a square the viewer can make out.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shade {
    /// In plain sight.
    #[default]
    Clear,
    /// In the game's fog (unlit): shown as it is, for a viewer who sees
    /// through it.
    Fog,
    /// Out of the viewer's sight: what stands there is not known, beyond
    /// the figures shown (what everyone knows, or the viewer's own).
    Unknown,
}

/// One square of the picture.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Cell {
    /// Which square.
    pub square: Square,
    /// What stands there, in drawing order (a stack's units `I C A F`);
    /// empty for an empty square. Only what the position shows: a piece
    /// hides the object under it.
    pub figures: Vec<Occupant>,
    /// How much of it the viewer makes out; figures on a shaded square are
    /// drawn all the same.
    pub shade: Shade,
}

/// A position drawn as plain data: the board, what stands on each square,
/// the legend of its symbols, and the notes beside it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Picture {
    /// The number of files (a..).
    pub files: u8,
    /// The number of ranks (1..).
    pub ranks: u8,
    /// Whether the board's squares alternate dark and light (a1 dark), as
    /// chess and draughts boards do: a drawing in colour (SVG) shows it,
    /// the text drawing dots every empty square alike so that each column
    /// stays easy to follow on a large board.
    pub checkered: bool,
    /// The fewest characters a square takes in a text drawing: every
    /// square is as wide as this or as its widest square's text, whichever
    /// is more, so that the columns stay in line (three for great-war-chess
    /// stacks, two for open-world-chess pieces with their HP).
    pub square_width: usize,
    /// Every square, in square order: rank 1 first, files a.. within a rank.
    pub cells: Vec<Cell>,
    /// The lines that explain the symbols, drawn below the board.
    pub legend: Vec<Text>,
    /// What the board does not show, one line each: check, charges, coins,
    /// spells due, captured checkers, setups still hidden, what the world
    /// owes.
    pub notes: Vec<String>,
}

impl Picture {
    /// An empty, clear board of `files` x `ranks` squares, one character
    /// wide, not checkered, without legend or notes. A board wider or
    /// longer than 26 squares (which no game has) is cut to 26.
    pub fn new(files: u8, ranks: u8) -> Picture {
        let (files, ranks) = (files.min(26), ranks.min(26));
        let cells = (0..ranks)
            .flat_map(|r| (0..files).filter_map(move |f| Square::new(f, r)))
            .map(|square| Cell {
                square,
                figures: Vec::new(),
                shade: Shade::Clear,
            })
            .collect();
        Picture {
            files,
            ranks,
            checkered: false,
            square_width: 1,
            cells,
            legend: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn index(&self, square: Square) -> Option<usize> {
        let (f, r) = (square.file_index(), square.rank_index());
        (f < self.files && r < self.ranks).then(|| usize::from(r) * usize::from(self.files) + usize::from(f))
    }

    /// The cell of `square`, if it is on the board.
    pub fn cell(&self, square: Square) -> Option<&Cell> {
        self.index(square).and_then(|i| self.cells.get(i))
    }

    /// The cell of `square` to change, if it is on the board.
    pub fn cell_mut(&mut self, square: Square) -> Option<&mut Cell> {
        self.index(square).and_then(|i| self.cells.get_mut(i))
    }

    /// Puts `figure` on `square`, after what stands there already; a square
    /// off the board is left out.
    pub fn place(&mut self, square: Square, figure: Occupant) {
        if let Some(cell) = self.cell_mut(square) {
            cell.figures.push(figure);
        }
    }

    /// Adds a note.
    pub fn note(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }

    /// Notes the setups the viewer cannot see yet (`sides`, white first),
    /// as every game with a secret setup does; the games shade the squares
    /// they may stand on unknown beside it (the secret setup's
    /// `hide_setups`).
    pub fn note_hidden_setups(&mut self, sides: &[Color]) {
        if !sides.is_empty() {
            let who: Vec<&str> = sides.iter().map(|c| c.name()).collect();
            self.note(format!("(hidden until both are ready: {}'s setup)", who.join(" and ")));
        }
    }
}

/// `1 coin`, `2 coins`: a count with its word, plural unless it is one.
pub fn count(n: u64, word: &str) -> String {
    match n {
        1 => format!("1 {word}"),
        n => format!("{n} {word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    #[test]
    fn cells_are_in_square_order_and_found_by_square() {
        let picture = Picture::new(10, 8);
        assert_eq!(picture.cells.len(), 80);
        assert_eq!(picture.cells[0].square, sq("a1"));
        assert_eq!(picture.cells[10].square, sq("a2"));
        assert_eq!(picture.cells[79].square, sq("j8"));
        assert_eq!(picture.cell(sq("c2")).map(|c| c.square), Some(sq("c2")));
        assert!(picture.cell(sq("k1")).is_none(), "k is off a 10-file board");
        assert!(picture.cell(sq("a9")).is_none(), "rank 9 is off an 8-rank board");
    }

    #[test]
    fn a_figure_off_the_board_is_left_out() {
        let mut picture = Picture::new(6, 6);
        picture.place(sq("h8"), Occupant::chess(Color::White, PieceKind::King));
        assert!(picture.cells.iter().all(|c| c.figures.is_empty()));
    }

    #[test]
    fn chess_figures_have_symbols_and_letters_by_side() {
        let queen = Occupant::chess(Color::Black, PieceKind::Queen);
        assert_eq!(
            (queen.glyph.get(Charset::Unicode), queen.glyph.get(Charset::Ascii)),
            ("♛", "q")
        );
        let knight = Occupant::chess(Color::White, PieceKind::Knight);
        assert_eq!(
            (knight.glyph.get(Charset::Unicode), knight.glyph.get(Charset::Ascii)),
            ("♘", "N")
        );
        assert_eq!((knight.owner, knight.kind.as_str()), (Some(Color::White), "knight"));
    }

    #[test]
    fn hidden_setups_are_named_white_first() {
        let mut picture = Picture::new(8, 8);
        picture.note_hidden_setups(&[]);
        assert!(picture.notes.is_empty());
        picture.note_hidden_setups(&[Color::White, Color::Black]);
        assert_eq!(
            picture.notes,
            ["(hidden until both are ready: white and black's setup)"]
        );
    }

    #[test]
    fn counts_are_plural_unless_one() {
        assert_eq!(count(0, "coin"), "0 coins");
        assert_eq!(count(1, "coin"), "1 coin");
        assert_eq!(count(2, "move"), "2 moves");
    }

    #[test]
    fn the_picture_serialises_as_plain_data() {
        let mut picture = Picture::new(8, 6);
        picture.place(sq("b2"), Occupant::chess(Color::Black, PieceKind::Pawn));
        if let Some(cell) = picture.cell_mut(sq("c3")) {
            cell.shade = Shade::Unknown;
        }
        let json = serde_json::to_value(&picture).expect("a picture serialises");
        assert_eq!(json["files"], 8);
        assert_eq!(json["cells"][9]["square"], "b2");
        assert_eq!(json["cells"][9]["figures"][0]["owner"], "b");
        assert_eq!(json["cells"][9]["figures"][0]["glyph"]["ascii"], "p");
        assert_eq!(json["cells"][18]["shade"], "unknown");
    }
}
