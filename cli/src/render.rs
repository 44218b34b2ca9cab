//! Drawing a replayed position for `fgn show`: text for the terminal, JSON for programs.

use std::fmt::Write as _;

use fgn_notation::ObjectKind;
use fgn_notation::{Color, Square};
use fgn_replay::gwc::GreatWarState;
use fgn_replay::magic::{spell_name, DraughtsState};
use fgn_replay::owc;
use fgn_replay::survival::SurvivalState;
use fgn_replay::{KnownPosition, Position, Progress, Replay, Viewer};

use crate::cmd_replay::{phase_text, turn_text};
use crate::out::{count, Paint, Stream};

/// How boards are drawn: symbols or ASCII letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Letters instead of chess and draughts symbols (`--ascii`).
    pub ascii: bool,
}

impl Look {
    /// `text` dimmed when standard output is coloured (`--color`):
    /// coordinates and fog, so that the pieces stand out.
    fn dim(self, text: &str) -> String {
        Paint::Dim.on(Stream::Out, text)
    }

    /// The mark of an empty square (lit, in open-world-chess).
    fn empty(self) -> char {
        if self.ascii {
            '.'
        } else {
            '·'
        }
    }
}

/// One square of a board as drawn: its text and whether it is dimmed.
struct Cell {
    text: String,
    dim: bool,
}

impl Cell {
    fn plain(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            dim: false,
        }
    }
}

/// A board of `files` x `ranks` with coordinates on all four sides, in a
/// fixed-width grid: every square is `width` columns wide (its text padded
/// on the right) and squares are one space apart, so a file's letter
/// stands above the first column of each of its squares whatever the
/// squares hold.
fn board(files: u8, ranks: u8, width: usize, look: Look, mut cell: impl FnMut(Square) -> Cell) -> String {
    let mut out = String::new();
    let letters: String = (0..files).map(|f| format!(" {:<width$}", (b'a' + f) as char)).collect();
    let letters = look.dim(letters.trim_end());
    let _ = writeln!(out, "    {letters}");
    for r in (0..ranks).rev() {
        let _ = write!(out, "{}", look.dim(&format!("{:>3} ", r + 1)));
        for f in 0..files {
            let sq = Square::new(f, r).expect("boards are at most 26x26");
            let c = cell(sq);
            let pad = width.saturating_sub(c.text.chars().count());
            let text = if c.dim { look.dim(&c.text) } else { c.text };
            let _ = write!(out, " {text}{}", " ".repeat(pad));
        }
        let _ = writeln!(out, " {}", look.dim(&(r + 1).to_string()));
    }
    let _ = writeln!(out, "    {letters}");
    out
}

/// A board of one-character squares; `cell` gives each square's symbol,
/// `None` for an empty one. Dark empty squares are dotted and light ones
/// blank, so the grid stays readable when large.
fn grid(files: u8, ranks: u8, look: Look, mut cell: impl FnMut(Square) -> Option<char>) -> String {
    board(files, ranks, 1, look, |sq| {
        let dark = (sq.file_index() + sq.rank_index()) % 2 == 0;
        Cell::plain(cell(sq).unwrap_or(if dark { look.empty() } else { ' ' }))
    })
}

/// The symbol of a chess piece: Unicode, or with `ascii` its letter, upper
/// case for white and lower case for black.
fn chess_symbol(color: Color, kind: fgn_notation::PieceKind, ascii: bool) -> char {
    use fgn_notation::PieceKind::*;
    let i = match kind {
        King => 0,
        Queen => 1,
        Rook => 2,
        Bishop => 3,
        Knight => 4,
        Pawn => 5,
    };
    match (color, ascii) {
        (Color::White, false) => ['♔', '♕', '♖', '♗', '♘', '♙'][i],
        (Color::Black, false) => ['♚', '♛', '♜', '♝', '♞', '♟'][i],
        (Color::White, true) => ['K', 'Q', 'R', 'B', 'N', 'P'][i],
        (Color::Black, true) => ['k', 'q', 'r', 'b', 'n', 'p'][i],
    }
}

/// The legend of chess boards drawn in letters.
const ASCII_CHESS_LEGEND: &str = "pieces: K Q R B N P white, k q r b n p black";

/// A great-war-chess board: each square shows its stack's letters (`I`,
/// `IC`, `ICA`, `IF` for infantry on a fortification), upper case for
/// white and lower case for black; empty squares are dotted. Squares are
/// three characters wide so that the largest stack fits.
fn gwc_grid(p: &GreatWarState, look: Look) -> String {
    let mut out = board(p.board.files, p.board.ranks, 3, look, |sq| {
        match p.stacks.iter().find(|s| s.square == sq) {
            Some(stack) => Cell::plain(
                stack
                    .units
                    .iter()
                    .map(|u| match stack.color {
                        Color::White => u.char(),
                        Color::Black => u.char().to_ascii_lowercase(),
                    })
                    .collect::<String>(),
            ),
            None => Cell::plain(look.empty()),
        }
    });
    let _ = writeln!(
        out,
        "units: I infantry, C cavalry, A artillery, F fortification; upper case white, lower case black"
    );
    out
}

fn gwc_notes(out: &mut String, p: &GreatWarState) {
    let _ = writeln!(out, "charges: white {}, black {}", p.charges.white, p.charges.black);
    if let Some(m) = &p.moved {
        let units: String = m.units.iter().map(|u| u.char()).collect();
        let _ = writeln!(out, "this turn's movement is used ({units} on {})", m.square);
    }
    if let Some(sq) = p.fired_from {
        let _ = writeln!(out, "this turn's shot is used (fired from {sq})");
    }
}

/// The symbol of a draughts piece: Unicode, or with `ascii` a letter
/// (`w` and `b` men, `W` and `B` kings).
fn draughts_symbol(color: Color, king: bool, ascii: bool) -> char {
    match (color, king, ascii) {
        (Color::White, false, false) => '⛀',
        (Color::White, true, false) => '⛁',
        (Color::Black, false, false) => '⛂',
        (Color::Black, true, false) => '⛃',
        (Color::White, false, true) => 'w',
        (Color::White, true, true) => 'W',
        (Color::Black, false, true) => 'b',
        (Color::Black, true, true) => 'B',
    }
}

fn number_text(n: Option<u8>) -> String {
    match n {
        None => "not revealed yet".into(),
        Some(0) => "plain".into(),
        Some(n) => format!("{n}, {}", spell_name(n)),
    }
}

fn spells_text(spells: &[u8]) -> String {
    spells
        .iter()
        .map(|&n| format!("{n} ({})", spell_name(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn draughts_notes(out: &mut String, game: &DraughtsState) {
    if !game.magic {
        let _ = writeln!(out, "plain Russian draughts (magic off)");
        return;
    }
    for color in [Color::White, Color::Black] {
        let spells = &game.spells_due[color];
        if !spells.is_empty() {
            let _ = writeln!(
                out,
                "{} casts before its next move: {}",
                color.name(),
                spells_text(spells)
            );
        }
    }
    for color in [Color::White, Color::Black] {
        let taken: Vec<String> = game
            .captured
            .iter()
            .filter(|c| c.color == color)
            .map(|c| format!("{} ({})", c.square, number_text(c.number)))
            .collect();
        if !taken.is_empty() {
            let _ = writeln!(out, "{}'s captured checkers: {}", color.name(), taken.join("; "));
        }
    }
}

fn survival_grid(position: &SurvivalState, look: Look) -> String {
    let mut out = grid(position.board.files, position.board.ranks, look, |sq| {
        position
            .pieces
            .iter()
            .find(|p| p.square == sq)
            .map(|p| chess_symbol(p.color, p.piece, look.ascii))
    });
    if look.ascii {
        let _ = writeln!(out, "{ASCII_CHESS_LEGEND}");
    }
    out
}

fn survival_notes(out: &mut String, position: &SurvivalState, progress: &Progress) {
    if position.in_check && progress.turn.is_some() {
        let _ = writeln!(out, "check");
    }
}

fn draughts_grid(game: &DraughtsState, look: Look) -> String {
    let mut out = grid(8, 8, look, |sq| {
        game.pieces
            .iter()
            .find(|p| p.square == sq)
            .map(|p| draughts_symbol(p.color, p.king, look.ascii))
    });
    let symbol = |color, king| draughts_symbol(color, king, look.ascii);
    let _ = writeln!(
        out,
        "pieces: {} white man, {} white king, {} black man, {} black king",
        symbol(Color::White, false),
        symbol(Color::White, true),
        symbol(Color::Black, false),
        symbol(Color::Black, true),
    );
    out
}

fn hidden_setups_note(out: &mut String, hidden_setups: &[Color]) {
    if !hidden_setups.is_empty() {
        let who: Vec<&str> = hidden_setups.iter().map(|c| c.name()).collect();
        let _ = writeln!(out, "(hidden until both are ready: {}'s setup)", who.join(" and "));
    }
}

fn object_letter(o: ObjectKind) -> char {
    match o {
        ObjectKind::Regen => 'r',
        ObjectKind::Hp => 'h',
        ObjectKind::Damage => 'd',
        ObjectKind::Kinghp => 'k',
        ObjectKind::Clone => 'c',
        ObjectKind::Coin => '$',
    }
}

/// What an open-world-chess board shows on one square.
enum OwcCell {
    /// A piece with its HP.
    Piece(Color, fgn_notation::PieceKind, u64),
    /// A merchant square (known to everyone).
    Merchant,
    /// An object lying on a lit square.
    Object(ObjectKind),
    /// A lit, empty square.
    Empty,
    /// Fog, or a square the viewer does not see.
    Unknown,
}

/// An open-world-chess board: a piece with its HP (`♘5`, `♚10`), an object
/// letter, `M` for a merchant, `·` for a lit empty square, and shading for
/// fog or what the viewer cannot see. Every square is as wide as the
/// widest piece with its HP on this board, so two-digit HP never pushes
/// the next square aside.
fn owc_grid(size: fgn_notation::BoardSize, look: Look, cell: impl Fn(Square) -> OwcCell) -> String {
    let (files, ranks) = (size.files, size.ranks);
    let squares = (0..ranks).flat_map(|r| (0..files).filter_map(move |f| Square::new(f, r)));
    let digits = squares
        .filter_map(|sq| match cell(sq) {
            OwcCell::Piece(_, _, hp) => Some(hp.to_string().len()),
            _ => None,
        })
        .max()
        .unwrap_or(1);
    let width = 1 + digits;
    let fog = if look.ascii { "#" } else { "░" };
    let mut out = board(files, ranks, width, look, |sq| match cell(sq) {
        OwcCell::Piece(color, kind, hp) => Cell::plain(format!("{}{hp}", chess_symbol(color, kind, look.ascii))),
        OwcCell::Merchant => Cell::plain("M"),
        OwcCell::Unknown => Cell {
            text: fog.repeat(width),
            dim: true,
        },
        OwcCell::Object(o) => Cell::plain(object_letter(o)),
        OwcCell::Empty => Cell::plain(look.empty()),
    });
    if look.ascii {
        let _ = writeln!(out, "{ASCII_CHESS_LEGEND}, each with its HP");
    }
    let _ = writeln!(
        out,
        "objects: r regen, h hp, d damage, k kinghp, c clone, $ coin; M merchant; {fog} fog or unseen"
    );
    out
}

/// The referee's open-world-chess board: every piece, object and fog.
fn owc_state_grid(p: &owc::State, look: Look) -> String {
    owc_grid(p.public.board.0, look, |sq| {
        if let Some(u) = p.pieces.iter().find(|u| u.square == sq) {
            return OwcCell::Piece(u.color, u.piece, u.hp);
        }
        if p.public.merchants.contains(&sq) {
            return OwcCell::Merchant;
        }
        match p.lit.iter().find(|l| l.square == sq) {
            Some(l) => l.object.map_or(OwcCell::Empty, OwcCell::Object),
            None => OwcCell::Unknown,
        }
    })
}

/// A player's open-world-chess board: its own pieces, and what it sees.
fn owc_known_grid(k: &owc::Knowledge, look: Look) -> String {
    owc_grid(k.public.board.0, look, |sq| {
        if let Some(u) = k.own.iter().find(|u| u.square == sq) {
            return OwcCell::Piece(u.color, u.piece, u.hp);
        }
        let seen = k.seen.iter().find(|s| s.square == sq);
        if let Some(e) = seen.and_then(|s| s.enemy.as_ref()) {
            return OwcCell::Piece(e.color, e.piece, e.hp);
        }
        if k.public.merchants.contains(&sq) {
            return OwcCell::Merchant;
        }
        match seen {
            Some(s) => s.object.map_or(OwcCell::Empty, OwcCell::Object),
            None => OwcCell::Unknown,
        }
    })
}

fn owc_notes(out: &mut String, progress: &Progress, public: &owc::Public, coins: &[(Color, u32)]) {
    if progress.turn.is_some() {
        let _ = writeln!(out, "moves left in this turn: {}", public.moves_left);
    }
    for c in [Color::White, Color::Black] {
        if public.curses[c] > 0 {
            let _ = writeln!(
                out,
                "{} is cursed: {} fewer next turn",
                c.name(),
                count(public.curses[c] as usize, "move")
            );
        }
    }
    for (c, n) in coins {
        let _ = writeln!(out, "{} has {}", c.name(), count(*n as usize, "coin"));
    }
}

/// The referee's account of an open-world-chess move that waits for the
/// world's outcome.
fn owc_owed_note(out: &mut String, owed: &owc::OwedOutcome) {
    match owed {
        owc::OwedOutcome::Damage {
            square,
            on_path: true,
            moving,
        } => owc_moving_note(out, moving, Some(*square)),
        owc::OwedOutcome::Damage { square, .. } => {
            let _ = writeln!(out, "the world owes the damage roll for the piece on {square}");
        }
        owc::OwedOutcome::Clone { square, candidates, .. } => {
            let _ = writeln!(
                out,
                "the world owes the square of the clone of the piece on {square}: one of {}",
                candidates.iter().map(Square::to_string).collect::<Vec<_>>().join(", ")
            );
        }
    }
}

/// A piece held on its path by the world's damage roll, on no square of
/// the board meanwhile: on the damage object's `square` where the referee
/// tells it, "on its path" to its owner, whose knowledge has no square.
fn owc_moving_note(out: &mut String, moving: &owc::MovingPiece, square: Option<Square>) {
    let on = square.map_or("on its path".to_string(), |sq| format!("on {sq}"));
    let _ = writeln!(
        out,
        "{}'s {} ({} HP) waits {on} for the world's damage roll, on its way to {}",
        moving.color.name(),
        moving.piece.name(),
        moving.hp,
        moving.to
    );
}

/// The position as text: the board with coordinates, then who is to move,
/// check, spells and the result. A player's view is drawn from what it
/// knows, the full view from the state.
pub fn text(replay: &Replay, viewer: Option<Color>, shown: usize, last: Option<&(String, u32)>, look: Look) -> String {
    let state = replay.state();
    let knowledge = viewer.map(|c| replay.knowledge(Viewer::of(c)));
    let mut notes = String::new();
    let mut out = match (&state.position, knowledge.as_ref().map(|k| &k.position)) {
        (Position::Survival(p), None) => {
            survival_notes(&mut notes, p, &state.progress);
            survival_grid(p, look)
        }
        (_, Some(KnownPosition::Survival(k))) => {
            survival_notes(&mut notes, &k.position, &state.progress);
            hidden_setups_note(&mut notes, &k.hidden_setups);
            survival_grid(&k.position, look)
        }
        (Position::GreatWar(p), None) => {
            gwc_notes(&mut notes, p);
            gwc_grid(p, look)
        }
        (_, Some(KnownPosition::GreatWar(k))) => {
            gwc_notes(&mut notes, &k.position);
            hidden_setups_note(&mut notes, &k.hidden_setups);
            gwc_grid(&k.position, look)
        }
        (Position::Draughts(p), None) | (_, Some(KnownPosition::Draughts(p))) => {
            draughts_notes(&mut notes, p);
            draughts_grid(p, look)
        }
        (Position::OpenWorld(p), None) => {
            owc_notes(
                &mut notes,
                &state.progress,
                &p.public,
                &[(Color::White, p.coins.white), (Color::Black, p.coins.black)],
            );
            if let Some(owed) = &p.owed {
                owc_owed_note(&mut notes, owed);
            }
            owc_state_grid(p, look)
        }
        (_, Some(KnownPosition::OpenWorld(k))) => {
            // A player's coins are its own secret.
            let own: Vec<(Color, u32)> = k.viewer.color().zip(k.coins).into_iter().collect();
            owc_notes(&mut notes, &state.progress, &k.public, &own);
            if let Some(moving) = &k.moving {
                owc_moving_note(&mut notes, moving, None);
            }
            owc_known_grid(k, look)
        }
    };
    let _ = writeln!(out);
    match last {
        Some((event, line)) => {
            let _ = writeln!(out, "after event {shown} (line {line}): {event}");
        }
        None => {
            let _ = writeln!(out, "at the start (no events)");
        }
    }
    let _ = writeln!(out, "{}", turn_text(replay));
    out.push_str(&notes);
    let salts = &state.progress.salts;
    if fgn_replay::seed::is_salted(salts) {
        // Salts are public: every viewer is shown both.
        let text = |s: &Option<fgn_notation::Salt>| s.map_or("none".to_string(), |s| s.to_string());
        let _ = writeln!(out, "salts: white {}, black {}", text(&salts.white), text(&salts.black));
    }
    let _ = writeln!(out, "result: {}", phase_text(replay));
    let _ = writeln!(
        out,
        "{}: {}",
        if viewer.is_some() {
            "knowledge hash"
        } else {
            "state hash"
        },
        hash(replay, viewer)
    );
    out
}

/// The state hash, or for a player the hash of what it knows.
fn hash(replay: &Replay, viewer: Option<Color>) -> fgn_replay::Digest {
    match viewer {
        None => replay.state_hash(),
        Some(c) => replay.knowledge_hash(Viewer::of(c)),
    }
}

/// The version of `fgn show --format json`'s document. Version 1 (before
/// it carried `format` and `version`) called either hash `hash`; version 2
/// names it for what it hashes, `state_hash` or `knowledge_hash`, as every
/// other output does (docs/json.md §11).
const SHOW_VERSION: u32 = 2;

/// The position as JSON: the serialised state (or, for a player, what it
/// knows) with its hash (docs/json.md, "fgn show").
pub fn json(replay: &Replay, viewer: Option<Color>, shown: usize) -> serde_json::Value {
    match viewer {
        None => serde_json::json!({
            "format": "fgn-show",
            "version": SHOW_VERSION,
            "events_applied": shown,
            "state_hash": replay.state_hash(),
            "state": replay.state(),
        }),
        Some(c) => serde_json::json!({
            "format": "fgn-show",
            "version": SHOW_VERSION,
            "events_applied": shown,
            "knowledge_hash": replay.knowledge_hash(Viewer::of(c)),
            "knowledge": replay.knowledge(Viewer::of(c)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corpus log replayed to its end.
    fn replayed(file: &str) -> Replay {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus")
            .join(file);
        let parsed = fgn_notation::parse(&std::fs::read(&path).expect("a corpus log"));
        let verdict = fgn_replay::validate(&parsed.document.game).expect("a game with an engine");
        assert!(verdict.error.is_none(), "{file} is valid");
        verdict.replay
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
        for look in [Look { ascii: false }, Look { ascii: true }] {
            let text = text(&replay, None, 0, None, look);
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
        let text = text(&replay, None, 0, None, Look::default());
        assert!(text.contains("black has 1 coin\n"), "{text}");
        assert!(text.contains("white has 0 coins\n"), "{text}");
    }

    /// Regression (issue 14): the draughts board had no legend.
    #[test]
    fn the_draughts_board_has_a_legend() {
        let replay = replayed("magic-draughts/valid/01-plain-capture-all.fgn");
        let drawn = text(&replay, None, 0, None, Look::default());
        assert!(
            drawn.contains("pieces: ⛀ white man, ⛁ white king, ⛂ black man, ⛃ black king"),
            "{drawn}"
        );
        let ascii = text(&replay, None, 0, None, Look { ascii: true });
        assert!(
            ascii.contains("pieces: w white man, W white king, b black man, B black king"),
            "{ascii}"
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
            let drawn = text(&replay, None, 0, None, Look { ascii: true });
            let board = board_lines(&drawn).join("\n");
            assert!(board.is_ascii(), "{file}:\n{board}");
            assert_eq!(chess_symbol(Color::Black, fgn_notation::PieceKind::Queen, true), 'q');
        }
    }
}
