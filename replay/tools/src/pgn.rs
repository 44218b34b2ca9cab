//! survival-chess games to and from PGN, chess's interchange format
//! (docs/interchange.md).
//!
//! [`write_pgn`] writes one 8x8 survival-chess log as a PGN game that chess
//! programs read as standard chess from its `FEN` (the position after both
//! setups), with moves in SAN, and keeps everything FGN has and PGN has not
//! (the setup's events, chat, timeouts, the exact clock readings, the tags
//! and their order) in PGN's own places for such things, tags and `[%...]`
//! commands in comments, so that [`read_pgn`] gives back the same log: the
//! same log hash. [`read_pgn`] also reads PGN that other programs wrote: the
//! `FEN` (or chess's start position) becomes the two setups.
//!
//! Both directions take every rule from [`fgn_replay`]: a SAN move is
//! written from, and read against, [`Replay::legal_actions`]; checks, mates,
//! setups and results are the replay's.

use std::fmt::Write as _;

use fgn_notation::{
    parse, Action, Actor, Check, ChessMove, Clock, Color, Event, Figure, Game, GameKind, Header, MoveNumber, Outcome,
    PartialDate, PieceKind, Placement, Reason, Square,
};
use fgn_replay::position::SurvivalState;
use fgn_replay::{Phase, Position, Replay, Turn};

/// The tags PGN's seven tag roster shares with FGN, written with the FGN
/// value as it is (`?` when the log has none).
const SHARED: [&str; 5] = ["Event", "Site", "Round", "White", "Black"];

/// FGN tags whose names PGN gives another meaning (PGN's `Mode` is "OTB"
/// or "ICS", its `Board` a team match's board number, its `TimeControl`
/// another syntax): they travel as `Fgn` + name, so that no chess program
/// misreads them.
const RESERVED: [&str; 10] = [
    "GameType",
    "Result",
    "SetUp",
    "FEN",
    "Termination",
    "TimeControl",
    "PlyCount",
    "Variant",
    "Mode",
    "Board",
];

/// The tag listing the log's FGN tag names in order: what makes the header
/// come back exactly.
const TAG_ORDER: &str = "FgnTags";

/// The tag holding the log hash of the log a PGN game was written from.
const LOG_HASH: &str = "FgnLogHash";

/// The PGN command carrying one FGN event that has no PGN form.
const EVENT_COMMAND: &str = "fgn";

/// The PGN command for elapsed game time: FGN's clock reading, the time
/// since the game began (docs/notation.md §4.4).
pub(crate) const CLOCK_COMMAND: &str = "egt";

/// The position chess starts from: what a PGN game without `FEN` begins
/// with.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The survival-chess position after the events applied, when it is 8x8.
fn survival_8x8(replay: &Replay) -> Option<SurvivalState> {
    match replay.state().position {
        Position::Survival(state) if state.board.files == 8 && state.board.ranks == 8 => Some(state),
        _ => None,
    }
}

/// The first field of the FEN of an 8x8 survival-chess position: the
/// pieces, rank 8 first. `None` for another game or board size. (The side
/// to move is no part of it: once a game is decided nobody is to move,
/// where FEN names the side that would be.)
///
/// ```
/// use fgn_notation::parse;
/// use fgn_replay::Replay;
///
/// let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n";
/// let game = parse(log.as_bytes()).document.game;
/// let mut replay = Replay::new(&game.header).unwrap();
/// for line in ["0 w place Ke1 Pe2", "0 b place Ke8", "0 w ready", "0 b ready"] {
///     replay.apply(&game.header.parse_event(line).unwrap()).unwrap();
/// }
/// assert_eq!(fgn_tools::pgn::fen_placement(&replay).as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3"));
/// ```
pub fn fen_placement(replay: &Replay) -> Option<String> {
    let state = survival_8x8(replay)?;
    let mut cells = [[None; 8]; 8];
    for piece in &state.pieces {
        let letter = piece.piece.char();
        let letter = match piece.color {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        };
        cells[usize::from(piece.square.rank_index())][usize::from(piece.square.file_index())] = Some(letter);
    }
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for cell in cells[rank] {
            match cell {
                Some(letter) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
    Some(out)
}

/// Whether the replay is still in the secret setup.
fn in_setup(replay: &Replay) -> bool {
    matches!(replay.turn(), Some(Turn::Setup { .. }))
}

/// A clock reading as PGN's `H:MM:SS`, with the milliseconds after a `.`
/// (trailing zeros left out) when there are any.
pub(crate) fn clock_text(clock: Clock) -> String {
    let ms = clock.millis();
    let (secs, frac) = (ms / 1000, ms % 1000);
    let mut text = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if frac > 0 {
        let digits = format!("{frac:03}");
        text.push('.');
        text.push_str(digits.trim_end_matches('0'));
    }
    text
}

/// Reads [`clock_text`]'s form back: hours, two-digit minutes and seconds
/// below 60, and at most three fraction digits.
fn read_clock(text: &str) -> Option<Clock> {
    let (whole, frac) = match text.split_once('.') {
        Some((whole, frac)) => (whole, Some(frac)),
        None => (text, None),
    };
    let mut parts = whole.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some() || !digits(h) || h.len() > 12 || m.len() != 2 || s.len() != 2 || !digits(m) || !digits(s)
    {
        return None;
    }
    let (h, m, s): (u64, u64, u64) = (h.parse().ok()?, m.parse().ok()?, s.parse().ok()?);
    if m >= 60 || s >= 60 {
        return None;
    }
    let ms = match frac {
        None => 0,
        Some(f) if (1..=3).contains(&f.len()) && digits(f) => f.parse::<u64>().ok()? * 10u64.pow(3 - f.len() as u32),
        Some(_) => return None,
    };
    let total = h
        .checked_mul(3600)?
        .checked_add(m * 60 + s)?
        .checked_mul(1000)?
        .checked_add(ms)?;
    (total <= fgn_notation::types::MAX_CLOCK_SECONDS * 1000 + 999).then_some(Clock(total))
}

/// A `[%fgn ...]` payload: the event's text with the characters that
/// would end a PGN comment or command (`{`, `}`, `[`, `]`) and `%` itself
/// written as `%` and two hex digits, so that chat of any text travels.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' | '{' | '}' | '[' | ']' => {
                let _ = write!(out, "%{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// [`encode`] undone; `None` for a `%` without two hex digits.
fn decode(text: &str) -> Option<String> {
    let mut out = Vec::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A PGN string: in quotes, with `\` and `"` escaped by a backslash.
fn quoted(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The `Date` tag of PGN for an FGN `Date` value: `YYYY.MM.DD` with `??`
/// for what is unknown, and `????.??.??` when the value is no date.
fn pgn_date(value: Option<&str>) -> String {
    match value.and_then(PartialDate::parse_tag) {
        Some(date) => {
            let part = |v: Option<u8>| v.map_or_else(|| "??".to_string(), |v| format!("{v:02}"));
            format!("{:04}.{}.{}", date.year, part(date.month), part(date.day))
        }
        None => "????.??.??".to_string(),
    }
}

/// The name an FGN tag travels under in PGN.
fn pgn_tag_name(name: &str, value: &str) -> String {
    let as_is = match name {
        "Date" => pgn_date(Some(value)) == value,
        _ => !RESERVED.contains(&name) && !name.starts_with("Fgn"),
    };
    if as_is {
        name.to_string()
    } else {
        format!("Fgn{name}")
    }
}

/// The SAN of a legal move: piece letter, the file or rank or square that
/// tells it from another piece of its kind that could go there too, `x` for
/// a capture, the square, the promotion and the replay's check or mate.
fn san(replay: &Replay, side: Color, m: &ChessMove) -> Option<String> {
    let (from, to) = (m.from?, m.to?);
    let mut out = String::new();
    if m.piece == PieceKind::Pawn {
        if m.capture {
            out.push(from.file().char());
        }
    } else {
        out.push(m.piece.char());
        let rivals: Vec<Square> = replay
            .legal_actions()
            .into_iter()
            .filter_map(|e| match e.action {
                Action::Move(o) if e.actor == Actor::Player(side) && o.piece == m.piece && o.to == Some(to) => o.from,
                _ => None,
            })
            .filter(|&f| f != from)
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|r| r.file_index() == from.file_index());
            let same_rank = rivals.iter().any(|r| r.rank_index() == from.rank_index());
            if !same_file {
                out.push(from.file().char());
            } else if !same_rank {
                let _ = write!(out, "{}", from.rank_index() + 1);
            } else {
                let _ = write!(out, "{from}");
            }
        }
    }
    if m.capture {
        out.push('x');
    }
    let _ = write!(out, "{to}");
    if let Some(p) = m.promotion {
        let _ = write!(out, "={}", p.char());
    }
    match m.check {
        Some(Check::Check) => out.push('+'),
        Some(Check::Mate) => out.push('#'),
        None => {}
    }
    Some(out)
}

/// PGN's `Termination` for a result's reason.
fn termination(reason: Option<Reason>) -> &'static str {
    match reason {
        None => "unterminated",
        Some(Reason::Timeout) => "time forfeit",
        Some(_) => "normal",
    }
}

/// One piece of movetext as [`write_game`] lays it out.
pub(crate) enum Token {
    /// A move: its SAN and the move number indicator it needs.
    Move {
        number: MoveNumber,
        side: Color,
        san: String,
    },
    /// A comment, braces included.
    Comment(String),
}

/// The comment carrying an FGN event without a PGN form, and its clock.
pub(crate) fn event_comment(event: &Event) -> String {
    let bare = Event {
        clock_ms: None,
        ..event.clone()
    };
    let mut text = format!("{{[%{EVENT_COMMAND} {}]", encode(&bare.to_string()));
    if let Some(clock) = event.clock_ms {
        let _ = write!(text, " [%{CLOCK_COMMAND} {}]", clock_text(clock));
    }
    text.push('}');
    text
}

/// The log as one PGN game, or why it has none: a game other than
/// survival-chess, a board other than 8x8, a player's view, a log that
/// breaks a rule (`fgn validate` says which), or a game that never left its
/// setup. The text ends with the blank line that separates PGN games.
///
/// ```
/// use fgn_notation::parse;
///
/// let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
///            0 w place Ke1 Qd1\n0 b place Ke8\n0 w ready\n0 b ready\n1 w Qd1-d7+ {t=3}\n";
/// let pgn = fgn_tools::pgn::write_pgn(&parse(log.as_bytes()).document.game).unwrap();
/// assert!(pgn.contains("[FEN \"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"]"));
/// assert!(pgn.contains("1. Qd7+ {[%egt 0:00:03]} *"));
/// let back = fgn_tools::pgn::read_pgn(&pgn).remove(0).game.unwrap();
/// assert_eq!(fgn_tools::loghash::log_hash(&back), fgn_tools::loghash::log_hash(&parse(log.as_bytes()).document.game));
/// ```
pub fn write_pgn(game: &Game) -> Result<String, String> {
    if game.kind() != Some(GameKind::SurvivalChess) {
        let name = game.kind().map_or("no game", GameKind::name);
        return Err(format!("{name}: PGN holds survival-chess games only"));
    }
    if game.perspective().is_some() {
        return Err("a player's view: PGN holds full logs only".into());
    }
    let mut replay = Replay::new(&game.header).map_err(|e| format!("its header cannot start a replay: {e}"))?;
    if survival_8x8(&replay).is_none() {
        let board = match replay.state().position {
            Position::Survival(s) => format!("{}x{}", s.board.files, s.board.ranks),
            _ => "other".into(),
        };
        return Err(format!("a {board} board: PGN holds 8x8 games only"));
    }
    let mut fen = None;
    let mut tokens = Vec::new();
    let mut result = None;
    for (index, event) in game.events.iter().enumerate() {
        let written = match (&event.action, event.actor) {
            (Action::Move(m), Actor::Player(side)) if !in_setup(&replay) => replay
                .canonical(event)
                .and_then(|full| match &full.action {
                    Action::Move(full) => san(&replay, side, full),
                    _ => None,
                })
                .map(|san| (event.n, side, san)),
            _ => None,
        };
        if let Err(e) = replay.apply(event) {
            return Err(format!(
                "it breaks a rule at its event {} (fgn validate says where): {e}",
                index + 1
            ));
        }
        match written {
            Some((number, side, san)) => {
                tokens.push(Token::Move { number, side, san });
                if let Some(clock) = event.clock_ms {
                    tokens.push(Token::Comment(format!("{{[%{CLOCK_COMMAND} {}]}}", clock_text(clock))));
                }
            }
            None => tokens.push(Token::Comment(event_comment(event))),
        }
        if let Action::Result { outcome, reason } = event.action {
            result = Some((outcome, reason));
        }
        if fen.is_none() && !in_setup(&replay) {
            fen = fen_placement(&replay);
        }
    }
    if let Err(e) = replay.finish() {
        return Err(format!("it breaks a rule at its end (fgn validate says why): {e}"));
    }
    let fen = match (fen, result) {
        (Some(fen), Some((outcome, _))) if outcome != Outcome::Abort => fen,
        (Some(fen), None) => fen,
        (_, Some(_)) => return Err("it ended in its setup: PGN starts from a position both sides set up".into()),
        (None, None) => return Err("it is still in its setup: PGN starts from a position both sides set up".into()),
    };
    let result_text = result.map_or("*", |(o, _)| o.text());
    let tags = [
        ("SetUp", "1".to_string()),
        // White moves first after the setup, also in a game decided by it.
        ("FEN", format!("{fen} w - - 0 1")),
        ("Termination", termination(result.map(|(_, r)| r)).to_string()),
    ];
    Ok(write_game(game, result_text, &tags, &tokens))
}

/// One game in PGN's export form (PDN's too): the seven tag roster, the
/// format's own tags, every FGN tag (under `Fgn` + name where the format
/// gives the name another meaning), `FgnTags` and `FgnLogHash`, a blank
/// line, the movetext in lines of at most 79 characters (a longer token
/// alone) and the result, and the blank line that ends a game.
pub(crate) fn write_game(game: &Game, result_text: &str, own: &[(&str, String)], tokens: &[Token]) -> String {
    let header = &game.header;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} {}]", quoted(value));
    };
    tag("Event", header.get("Event").unwrap_or("?"));
    tag("Site", header.get("Site").unwrap_or("?"));
    tag("Date", &pgn_date(header.get("Date")));
    for name in &SHARED[2..] {
        tag(name, header.get(name).unwrap_or("?"));
    }
    tag("Result", result_text);
    for (name, value) in own {
        tag(name, value);
    }
    for t in &header.tags {
        if !SHARED.contains(&t.name.as_str()) {
            tag(&pgn_tag_name(&t.name, &t.value), &t.value);
        }
    }
    let names: Vec<&str> = header.tags.iter().map(|t| t.name.as_str()).collect();
    tag(TAG_ORDER, &names.join(" "));
    tag(LOG_HASH, &crate::loghash::log_hash(game).to_string());
    out.push('\n');
    let mut line = String::new();
    let mut after_comment = true;
    let push = |word: &str, out: &mut String, line: &mut String| {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 79 {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    };
    for token in tokens {
        match token {
            Token::Move { number, side, san } => {
                match side {
                    Color::White => push(&format!("{number}."), &mut out, &mut line),
                    Color::Black if after_comment => push(&format!("{number}..."), &mut out, &mut line),
                    Color::Black => {}
                }
                push(san, &mut out, &mut line);
                after_comment = false;
            }
            Token::Comment(text) => {
                push(text, &mut out, &mut line);
                after_comment = true;
            }
        }
    }
    push(result_text, &mut out, &mut line);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A place in PGN text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct At {
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
}

/// Why a PGN game could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// Where in the PGN text.
    pub at: At,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.column, self.message)
    }
}

/// One game of a PGN text as [`read_pgn`] read it.
#[derive(Clone, Debug)]
pub struct ReadGame {
    /// Where the game begins (its first tag, or its first move).
    pub at: At,
    /// The FGN game, or why there is none.
    pub game: Result<Game, PgnError>,
}

/// One lexical piece of PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{...}`, without the braces.
    Comment(String),
    /// A move, or anything else made of symbol characters.
    Symbol(String),
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    End(String),
    /// `(`: a variation begins.
    Open,
    /// `)`: a variation ends.
    Close,
}

/// Reads PGN text into lexemes with their places; the error, when there is
/// one, is where the text stops being PGN (what comes before is kept).
struct Lexer<'t> {
    chars: std::iter::Peekable<std::str::Chars<'t>>,
    at: At,
}

impl Lexer<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.at.line += 1;
            self.at.column = 1;
        } else {
            self.at.column += 1;
        }
        Some(c)
    }

    fn error(&self, at: At, message: impl Into<String>) -> PgnError {
        PgnError {
            at,
            message: message.into(),
        }
    }

    fn skip_spaces(&mut self) {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
    }

    fn tag(&mut self, start: At) -> Result<Lexeme, PgnError> {
        self.skip_spaces();
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if !(c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.error(self.at, "expected a tag name after `[`"));
        }
        self.skip_spaces();
        if self.chars.peek() != Some(&'"') {
            return Err(self.error(self.at, format!("expected the quoted value of the tag `{name}`")));
        }
        let quote = self.at;
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    _ => return Err(self.error(quote, "expected `\\\"` or `\\\\` after a backslash in this value")),
                },
                Some('\n') | None => return Err(self.error(quote, "this quote has no closing `\"` on its line")),
                Some(c) => value.push(c),
            }
        }
        self.skip_spaces();
        if self.bump() != Some(']') {
            return Err(self.error(start, format!("expected `]` to close the tag `{name}`")));
        }
        Ok(Lexeme::Tag(name, value))
    }

    /// The next lexeme and where it starts; `None` at the end.
    fn next(&mut self) -> Option<Result<(At, Lexeme), PgnError>> {
        loop {
            let start_of_line = self.at.column == 1;
            let c = *self.chars.peek()?;
            let at = self.at;
            if c.is_whitespace() {
                self.bump();
                continue;
            }
            // A `%` in the first column escapes its line; `;` comments out
            // the rest of it.
            if (c == '%' && start_of_line) || c == ';' {
                while self.chars.peek().is_some_and(|&c| c != '\n') {
                    self.bump();
                }
                continue;
            }
            self.bump();
            let lexeme = match c {
                '[' => self.tag(at),
                '{' => {
                    let mut text = String::new();
                    loop {
                        match self.bump() {
                            Some('}') => break Ok(Lexeme::Comment(text)),
                            Some(c) => text.push(c),
                            None => break Err(self.error(at, "this comment has no closing `}`")),
                        }
                    }
                }
                '(' => Ok(Lexeme::Open),
                ')' => Ok(Lexeme::Close),
                '*' => Ok(Lexeme::End("*".into())),
                '$' => {
                    while self.chars.peek().is_some_and(char::is_ascii_digit) {
                        self.bump();
                    }
                    continue;
                }
                c if c.is_ascii_alphanumeric() => {
                    let mut text = String::from(c);
                    while let Some(&c) = self.chars.peek() {
                        if !(c.is_ascii_alphanumeric() || "_+#=:-/!?.".contains(c)) {
                            break;
                        }
                        text.push(c);
                        self.bump();
                    }
                    Ok(match text.as_str() {
                        "1-0" | "0-1" | "1/2-1/2" => Lexeme::End(text),
                        _ => Lexeme::Symbol(text),
                    })
                }
                c => Err(self.error(at, format!("expected a move, a comment or a tag, found `{c}`"))),
            };
            return Some(lexeme.map(|l| (at, l)));
        }
    }
}

/// One game's lexemes: its tags, then its movetext's moves and comments
/// (variations left out), then how it ended.
#[derive(Default)]
pub(crate) struct RawGame {
    pub(crate) at: At,
    pub(crate) tags: Vec<(At, String, String)>,
    pub(crate) items: Vec<(At, Lexeme)>,
    pub(crate) end: Option<(At, String)>,
}

/// Reads every game of a PGN text into FGN. A game that cannot be read
/// (its error says where and why) does not stop the ones after it; text
/// that is no PGN at all ends the reading with an error at that place.
///
/// Each game is survival-chess on 8x8 (`Game`, `Rules` and `Board` tags are
/// added when the PGN was not written by fgn). Its `FEN` (chess's start
/// position without one) becomes the two setups, which must be a legal
/// survival-chess setup; its moves are read against the legal moves, so
/// castling and en passant are refused; its result must be the replay's.
/// A PGN game written by [`write_pgn`] comes back as the log it was written
/// from, and its `FgnLogHash` tag is checked.
pub fn read_pgn(text: &str) -> Vec<ReadGame> {
    read_games(text, convert)
}

/// The games of a PGN or PDN text, each turned into FGN by `convert`.
pub(crate) fn read_games(text: &str, convert: fn(&RawGame) -> Result<Game, PgnError>) -> Vec<ReadGame> {
    let mut lexer = Lexer {
        chars: text.chars().peekable(),
        at: At { line: 1, column: 1 },
    };
    let mut out = Vec::new();
    let mut game = RawGame::default();
    let mut depth = 0usize;
    let mut started = false;
    let mut in_moves = false;
    while let Some(next) = lexer.next() {
        let (at, lexeme) = match next {
            Ok(next) => next,
            Err(e) => {
                out.push(ReadGame {
                    at: if started { game.at } else { e.at },
                    game: Err(e),
                });
                return out;
            }
        };
        if !started {
            game.at = at;
            started = true;
        }
        match lexeme {
            _ if depth > 0 => match lexeme {
                Lexeme::Open => depth += 1,
                Lexeme::Close => depth -= 1,
                _ => {}
            },
            Lexeme::Tag(name, value) if !in_moves => game.tags.push((at, name, value)),
            Lexeme::Tag(..) => {
                let e = lexer.error(
                    at,
                    "expected the game's result (1-0, 0-1, 1/2-1/2 or *) before the next game's tags",
                );
                out.push(ReadGame {
                    at: game.at,
                    game: Err(e),
                });
                return out;
            }
            Lexeme::Open => {
                in_moves = true;
                depth = 1;
            }
            Lexeme::Close => {
                let e = lexer.error(at, "a `)` that closes no variation");
                out.push(ReadGame {
                    at: game.at,
                    game: Err(e),
                });
                return out;
            }
            Lexeme::End(result) => {
                game.end = Some((at, result));
                let done = std::mem::take(&mut game);
                out.push(ReadGame {
                    at: done.at,
                    game: convert(&done),
                });
                started = false;
                in_moves = false;
            }
            item => {
                in_moves = true;
                game.items.push((at, item));
            }
        }
    }
    if started {
        let e = lexer.error(
            lexer.at,
            "expected the game's result (1-0, 0-1, 1/2-1/2 or *) at its end",
        );
        out.push(ReadGame {
            at: game.at,
            game: Err(e),
        });
    }
    out
}

/// An error at `at`.
pub(crate) fn fail<T>(at: At, message: impl Into<String>) -> Result<T, PgnError> {
    Err(PgnError {
        at,
        message: message.into(),
    })
}

/// The FGN tags of a PGN game, each with the place of the PGN tag it came
/// from.
pub(crate) fn fgn_tags(
    raw: &RawGame,
    defaults: &[(&str, &str)],
    prefix: &str,
) -> Result<Vec<(At, String, String)>, PgnError> {
    let find = |name: &str| raw.tags.iter().find(|(_, n, _)| n == name);
    if let Some((at, _, order)) = find(TAG_ORDER) {
        // A game fgn wrote: the tags come back by the list, each from where
        // write_pgn put it.
        let mut out = Vec::new();
        for name in order.split(' ').filter(|n| !n.is_empty()) {
            let prefixed = format!("Fgn{name}");
            let source = match name {
                "Date" => find(&prefixed).or_else(|| find(name)),
                _ if RESERVED.contains(&name) || name.starts_with("Fgn") => find(&prefixed),
                _ => find(name),
            };
            let Some((at, _, value)) = source else {
                return fail(
                    *at,
                    format!("`{TAG_ORDER}` lists `{name}`, but the game has no tag that carries it"),
                );
            };
            out.push((*at, name.to_string(), value.clone()));
        }
        return Ok(out);
    }
    let first = raw.tags.first().map_or(raw.at, |t| t.0);
    let mut out: Vec<(At, String, String)> = defaults
        .iter()
        .map(|(name, value)| (first, name.to_string(), value.to_string()))
        .collect();
    for (at, name, value) in &raw.tags {
        let unknown = value == "?" || (name == "Date" && value == "????.??.??");
        match name.as_str() {
            "Result" | "SetUp" | "FEN" | "Termination" | "Variant" | "GameType" | LOG_HASH => {}
            _ if unknown && (SHARED.contains(&name.as_str()) || name == "Date") => {}
            "Game" | "Rules" | "Board" | "Mode" | "TimeControl" | "PlyCount" => {
                out.push((*at, format!("{prefix}{name}"), value.clone()));
            }
            _ => out.push((*at, name.clone(), value.clone())),
        }
    }
    Ok(out)
}

/// The typed header of the FGN tags, read as the FGN parser reads a header,
/// so that each value is checked and normalized.
pub(crate) fn fgn_header(tags: &[(At, String, String)]) -> Result<Header, PgnError> {
    let mut text = String::new();
    for (at, name, value) in tags {
        if !fgn_notation::header::is_tag_name(name) {
            return fail(
                *at,
                format!("the tag name `{name}` is no FGN tag name (a letter, then letters, digits or `_`)"),
            );
        }
        let _ = writeln!(text, "[{name} {}]", quoted(value));
    }
    let parsed = parse(text.as_bytes());
    if let Some(d) = parsed.diagnostics.first() {
        let at = usize::try_from(d.line).ok().and_then(|l| tags.get(l.wrapping_sub(1)));
        let at = at.map_or(tags.first().map_or(At::default(), |t| t.0), |t| t.0);
        return fail(at, format!("this tag is no FGN tag: {}", d.message));
    }
    Ok(parsed.document.game.header)
}

/// The pieces of a FEN's first field, each side's placements; the FEN's
/// other fields are checked for what survival-chess can start from.
fn read_fen(at: At, fen: &str) -> Result<(String, [Vec<Placement>; 2]), PgnError> {
    let fields: Vec<&str> = fen.split(' ').collect();
    let [board, side, ..] = fields[..] else {
        return fail(
            at,
            format!("expected a FEN of pieces and the side to move, found \"{fen}\""),
        );
    };
    if side != "w" {
        return fail(
            at,
            format!("the FEN has `{side}` to move, but in survival-chess white moves first after the setup"),
        );
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return fail(at, format!("expected 8 ranks in the FEN, found {}", ranks.len()));
    }
    let mut placements = [Vec::new(), Vec::new()];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as u8;
                continue;
            }
            let kind = PieceKind::ALL.into_iter().find(|k| k.char() == c.to_ascii_uppercase());
            let (Some(kind), Some(square)) = (kind, Square::new(file, rank).filter(|_| file < 8)) else {
                return fail(
                    at,
                    format!(
                        "expected pieces `KQRBNP`/`kqrbnp` and digits 1 to 8 on FEN rank {}, found \"{rank_text}\"",
                        rank + 1
                    ),
                );
            };
            let color = usize::from(c.is_ascii_lowercase());
            placements[color].push(Placement {
                figure: Figure::Piece(kind),
                square,
            });
            file += 1;
        }
        if file != 8 {
            return fail(at, format!("FEN rank {} holds {file} squares, not 8", rank + 1));
        }
    }
    // Each side's pieces in square order, rank 1 first, as FGN lists them.
    for side in &mut placements {
        side.sort_by_key(|p| (p.square.rank_index(), p.square.file_index()));
    }
    Ok((board.to_string(), placements))
}

/// What a SAN token names: the piece, what is known of its square, the
/// target, whether it captures and the promotion.
#[derive(Debug)]
struct San {
    piece: PieceKind,
    file: Option<u8>,
    rank: Option<u8>,
    to: Square,
    capture: bool,
    promotion: Option<PieceKind>,
}

/// Reads a SAN token (annotation marks `!` `?` and `+` `#` are left for
/// the rules to decide); `Err` says what was expected.
fn read_san(token: &str) -> Result<San, String> {
    let body = token.trim_end_matches(['!', '?', '+', '#']);
    if ["O-O", "O-O-O", "0-0", "0-0-0"].contains(&body) {
        return Err(format!("`{token}` is castling, which survival-chess does not have"));
    }
    let expected = || format!("expected a move in SAN (`e4`, `Nbd7`, `exd5`, `e8=Q`), found `{token}`");
    let (body, promotion) = match body.rsplit_once('=') {
        Some((b, p)) => (b, Some(p)),
        None => match body.char_indices().last() {
            Some((i, c)) if "QRBN".contains(c) && i > 0 && body.as_bytes()[i - 1].is_ascii_digit() => {
                (&body[..i], Some(&body[i..]))
            }
            _ => (body, None),
        },
    };
    let promotion = match promotion {
        None => None,
        Some(p) => Some(
            PieceKind::ALL
                .into_iter()
                .find(|k| p.len() == 1 && k.char().to_string() == p && *k != PieceKind::King && *k != PieceKind::Pawn)
                .ok_or_else(expected)?,
        ),
    };
    let (piece, rest) = match body.chars().next() {
        Some(c) if "KQRBNP".contains(c) => {
            let kind = PieceKind::ALL
                .into_iter()
                .find(|k| k.char() == c)
                .ok_or_else(expected)?;
            (kind, &body[1..])
        }
        _ => (PieceKind::Pawn, body),
    };
    let rest: String = rest.chars().filter(|&c| c != '-').collect();
    let capture = rest.contains('x') || rest.contains(':');
    let rest: Vec<char> = rest.chars().filter(|&c| c != 'x' && c != ':').collect();
    if rest.len() < 2 || rest.len() > 4 {
        return Err(expected());
    }
    let target: String = rest[rest.len() - 2..].iter().collect();
    let to = match Square::read_prefix(&target) {
        Some((sq, 2)) if sq.file_index() < 8 && sq.rank_index() < 8 => sq,
        _ => return Err(expected()),
    };
    let (mut file, mut rank) = (None, None);
    for &c in &rest[..rest.len() - 2] {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(c as u8 - b'a'),
            '1'..='8' if rank.is_none() => rank = Some(c as u8 - b'1'),
            _ => return Err(expected()),
        }
    }
    Ok(San {
        piece,
        file,
        rank,
        to,
        capture,
        promotion,
    })
}

/// The legal move `token` names in `replay`, as an FGN event.
fn resolve(replay: &Replay, at: At, token: &str) -> Result<Event, PgnError> {
    let san = read_san(token).map_err(|message| PgnError { at, message })?;
    let Some(Turn::Move { side, .. }) = replay.turn() else {
        return fail(at, format!("`{token}` comes after the game is over"));
    };
    let matches: Vec<Event> = replay
        .legal_actions()
        .into_iter()
        .filter(|e| match &e.action {
            Action::Move(m) => {
                e.actor == Actor::Player(side)
                    && m.piece == san.piece
                    && m.to == Some(san.to)
                    && m.from.is_some_and(|f| {
                        san.file.is_none_or(|x| f.file_index() == x) && san.rank.is_none_or(|r| f.rank_index() == r)
                    })
                    && m.promotion == san.promotion
                    && (m.capture || !san.capture)
            }
            _ => false,
        })
        .collect();
    let square_empty = survival_8x8(replay).is_some_and(|s| s.pieces.iter().all(|p| p.square != san.to));
    match matches.len() {
        1 => Ok(matches.into_iter().next().expect("one match")),
        0 if san.piece == PieceKind::Pawn && san.capture && square_empty => fail(
            at,
            format!(
                "`{token}` would capture en passant, which survival-chess does not have: {} is empty",
                san.to
            ),
        ),
        0 if san.promotion.is_none()
            && san.piece == PieceKind::Pawn
            && replay
                .legal_actions()
                .iter()
                .any(|e| matches!(&e.action, Action::Move(m) if m.to == Some(san.to) && m.promotion.is_some())) =>
        {
            fail(
                at,
                format!(
                    "`{token}` reaches the last rank: expected the promotion piece (`={}Q`)",
                    san.to
                ),
            )
        }
        0 => fail(at, format!("`{token}` is no legal move of {} here", side.name())),
        _ => fail(
            at,
            format!("`{token}` could be more than one move: expected the square it comes from too"),
        ),
    }
}

/// The `[%name payload]` commands of a comment.
fn commands(comment: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(']') else { break };
        let body = after[..end].trim();
        let (name, payload) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        out.push((name, payload.trim()));
        rest = &after[end + 1..];
    }
    out
}

/// The replay with `event` applied, its rule error placed at `at`.
fn apply(replay: &mut Replay, events: &mut Vec<Event>, at: At, event: Event) -> Result<(), PgnError> {
    replay.apply(&event).map_err(|e| PgnError {
        at,
        message: format!("`{event}` breaks a rule: {e}"),
    })?;
    events.push(event);
    Ok(())
}

/// Turns one PGN game into an FGN game.
fn convert(raw: &RawGame) -> Result<Game, PgnError> {
    let rules = fgn_replay::ruleset::rules_version(GameKind::SurvivalChess).to_string();
    let defaults = [("Game", "survival-chess"), ("Rules", rules.as_str()), ("Board", "8x8")];
    let tags = fgn_tags(raw, &defaults, "Pgn")?;
    let header = fgn_header(&tags)?;
    if header.game() != Some(GameKind::SurvivalChess) {
        return fail(
            raw.at,
            "PGN holds survival-chess games only, but its `Game` tag names another game",
        );
    }
    let replay = Replay::new(&header).map_err(|e| PgnError {
        at: raw.at,
        message: format!("the tags cannot start a game: {e}"),
    })?;
    if survival_8x8(&replay).is_none() {
        return fail(
            raw.at,
            "PGN holds 8x8 games only, but its `Board` tag names another size",
        );
    }
    let tag = |name: &str| raw.tags.iter().find(|(_, n, _)| n == name);
    if let Some((at, _, variant)) = tag("Variant") {
        let standard = [
            "standard",
            "chess",
            "normal",
            "classical",
            "from position",
            "fromposition",
        ];
        if !standard.contains(&variant.to_ascii_lowercase().as_str()) {
            return fail(
                *at,
                format!("the variant \"{variant}\" is not chess played from a position"),
            );
        }
    }
    let (fen_at, fen_text) = match (tag("SetUp"), tag("FEN")) {
        (_, Some((at, _, fen))) => (*at, fen.as_str()),
        (Some((at, _, v)), None) if v == "1" => return fail(*at, "`SetUp \"1\"` without a `FEN` tag"),
        _ => (raw.at, START_FEN),
    };
    let (fen, placements) = read_fen(fen_at, fen_text)?;
    let mut dialect = Chess {
        fen,
        placements,
        fen_at,
        setup_seen: false,
        fen_checked: false,
    };
    read_body(raw, header, replay, &mut dialect)
}

/// What reading a game's movetext into FGN differs in between PGN and PDN:
/// the game's name, how a move is read, and what happens around the events.
pub(crate) trait Dialect {
    /// The game, for messages.
    const GAME: &'static str;
    /// Why a draw the position does not make is refused.
    const NO_DRAW: &'static str;
    /// Called after each `[%fgn ...]` event (`Some`), before each move and
    /// at the end (`None`): PGN's setup is made and checked here.
    fn settle(
        &mut self,
        replay: &mut Replay,
        events: &mut Vec<Event>,
        at: At,
        applied: Option<&Event>,
    ) -> Result<(), PgnError>;
    /// The legal move `token` names.
    fn resolve(&self, replay: &Replay, at: At, token: &str) -> Result<Event, PgnError>;
}

/// PGN's survival-chess: the setup comes from the FEN.
struct Chess {
    fen: String,
    placements: [Vec<Placement>; 2],
    fen_at: At,
    setup_seen: bool,
    fen_checked: bool,
}

impl Dialect for Chess {
    const GAME: &'static str = "survival-chess";
    const NO_DRAW: &'static str =
        "a draw the position does not make: survival-chess draws by stalemate only (no agreement, repetition or fifty-move rule)";

    fn settle(
        &mut self,
        replay: &mut Replay,
        events: &mut Vec<Event>,
        at: At,
        applied: Option<&Event>,
    ) -> Result<(), PgnError> {
        if let Some(event) = applied {
            self.setup_seen |= matches!(
                event.action,
                Action::Place { .. } | Action::Remove { .. } | Action::Ready
            );
            if in_setup(replay) {
                return Ok(());
            }
        }
        let fen_at = self.fen_at;
        let refused = |e: fgn_replay::RuleError| PgnError {
            at: fen_at,
            message: format!("the FEN's position is not a legal survival-chess setup: {e}"),
        };
        // Ends the setup where the PGN game has no setup events of its own:
        // the FEN's pieces placed and both sides ready, as a server would
        // log it.
        if in_setup(replay) && !self.setup_seen {
            let event = |side, action| Event {
                n: MoveNumber(0),
                actor: Actor::Player(side),
                action,
                clock_ms: None,
            };
            for (side, placed) in [(Color::White, &self.placements[0]), (Color::Black, &self.placements[1])] {
                if !placed.is_empty() {
                    let place = event(
                        side,
                        Action::Place {
                            placements: placed.clone(),
                        },
                    );
                    replay.apply(&place).map_err(refused)?;
                    events.push(place);
                }
            }
            for side in [Color::White, Color::Black] {
                let ready = event(side, Action::Ready);
                replay.apply(&ready).map_err(refused)?;
                events.push(ready);
            }
        }
        if in_setup(replay) {
            return fail(at, "the game's setup events leave it in its setup");
        }
        if let Phase::ResultDue(d) | Phase::Over(d) = replay.phase() {
            if d.outcome == Outcome::Abort {
                return fail(
                    at,
                    "the game was aborted in its setup: PGN starts from a position both sides set up",
                );
            }
        }
        if !self.fen_checked {
            self.fen_checked = true;
            if fen_placement(replay).as_deref() != Some(self.fen.as_str()) {
                return fail(fen_at, "the FEN is not the position the game's setup events make");
            }
        }
        Ok(())
    }

    fn resolve(&self, replay: &Replay, at: At, token: &str) -> Result<Event, PgnError> {
        resolve(replay, at, token)
    }
}

/// A game's movetext and result read into FGN events by `dialect`, the
/// result checked against the replay's, and the log hash against
/// `FgnLogHash`.
pub(crate) fn read_body<D: Dialect>(
    raw: &RawGame,
    header: Header,
    mut replay: Replay,
    dialect: &mut D,
) -> Result<Game, PgnError> {
    let tag = |name: &str| raw.tags.iter().find(|(_, n, _)| n == name);
    let mut events = Vec::new();
    let mut pending: Option<(At, Event)> = None;
    for (at, item) in &raw.items {
        match item {
            Lexeme::Comment(text) => {
                let commands = commands(text);
                let clock = match commands.iter().find(|(n, _)| *n == CLOCK_COMMAND) {
                    Some((_, t)) => Some(read_clock(t).ok_or_else(|| PgnError {
                        at: *at,
                        message: format!("expected the elapsed game time as H:MM:SS or H:MM:SS.sss, found \"{t}\""),
                    })?),
                    None => None,
                };
                if let Some((_, payload)) = commands.iter().find(|(n, _)| *n == EVENT_COMMAND) {
                    if let Some((at, event)) = pending.take() {
                        apply(&mut replay, &mut events, at, event)?;
                    }
                    let line = decode(payload).ok_or_else(|| PgnError {
                        at: *at,
                        message: "expected `%` and two hex digits in an fgn event".into(),
                    })?;
                    let mut event = header.parse_event(&line).map_err(|d| PgnError {
                        at: *at,
                        message: format!("expected an FGN event in `[%fgn ...]`: {}", d.message),
                    })?;
                    event.clock_ms = clock;
                    apply(&mut replay, &mut events, *at, event.clone())?;
                    dialect.settle(&mut replay, &mut events, *at, Some(&event))?;
                } else if let (Some(clock), Some((_, event))) = (clock, pending.as_mut()) {
                    event.clock_ms = Some(clock);
                }
            }
            Lexeme::Symbol(token) => {
                // A move number indicator, `12.` or `12...`, alone or
                // written against its move (`12.e4`).
                let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
                let token = if digits > 0 && dots > 0 {
                    &token[digits + dots..]
                } else {
                    token.as_str()
                };
                if token.is_empty() {
                    continue;
                }
                if let Some((at, event)) = pending.take() {
                    apply(&mut replay, &mut events, at, event)?;
                }
                dialect.settle(&mut replay, &mut events, *at, None)?;
                pending = Some((*at, dialect.resolve(&replay, *at, token)?));
            }
            _ => {}
        }
    }
    if let Some((at, event)) = pending.take() {
        apply(&mut replay, &mut events, at, event)?;
    }
    let (end_at, end) = raw.end.clone().unwrap_or((raw.at, "*".into()));
    dialect.settle(&mut replay, &mut events, end_at, None)?;
    if let Some((at, _, value)) = tag("Result") {
        if *value != end {
            return fail(*at, format!("the `Result` tag says {value}, but the game ends {end}"));
        }
    }
    let recorded = |events: &[Event]| {
        events.iter().find_map(|e| match e.action {
            Action::Result { outcome, reason } => Some((outcome, reason)),
            _ => None,
        })
    };
    if recorded(&events).is_none() {
        let loser = match end.as_str() {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            _ => None,
        };
        if let (Some(loser), Phase::Playing, None) = (loser, replay.phase(), replay.owed_result()) {
            // The other decisive endings (resignation, time, a forfeit)
            // are one: the loser gives up.
            let event = Event {
                n: replay.progress().last_number,
                actor: Actor::Player(loser),
                action: Action::Resign,
                clock_ms: None,
            };
            apply(&mut replay, &mut events, end_at, event)?;
        }
        if let Some(result) = replay.owed_result() {
            apply(&mut replay, &mut events, end_at, result)?;
        }
    }
    match recorded(&events) {
        Some((outcome, reason)) if outcome.text() != end => {
            return fail(
                end_at,
                format!(
                    "the game ends {end}, but {} decides {} ({})",
                    D::GAME,
                    outcome.text(),
                    reason.name()
                ),
            );
        }
        None if end == "1/2-1/2" => return fail(end_at, D::NO_DRAW),
        _ => {}
    }
    if let Err(e) = replay.finish() {
        return fail(end_at, format!("the game ends unfinished: {e}"));
    }
    let game = Game { header, events };
    let game = Game {
        header: game.header.clone(),
        events: fgn_replay::complete_markers(&game).events,
    };
    if let Some((at, _, listed)) = tag(LOG_HASH) {
        let actual = crate::loghash::log_hash(&game).to_string();
        if *listed != actual {
            return fail(
                *at,
                format!("the game read has the log hash {actual}, not the {listed} its `{LOG_HASH}` tag lists"),
            );
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// PGN games fgn wrote: tags, comments with commands, SAN.
    const EXPORTED: &str = include_str!("../../../tests/e2e/fixtures/pgn/exported.pgn");

    #[test]
    fn clock_readings_read_back_as_written() {
        for ms in [0, 1, 70, 999, 1000, 61_250, 3_600_000, 86_399_999, 999_999_999_999_999] {
            let text = clock_text(Clock(ms));
            assert_eq!(read_clock(&text), Some(Clock(ms)), "{text}");
        }
        assert_eq!(clock_text(Clock(3_723_450)), "1:02:03.45");
        for bad in [
            "",
            "1:2:03",
            "0:60:00",
            "0:00:60",
            "0:00:01.",
            "0:00:01.1234",
            "-1:00:00",
            "a:00:00",
            "0:00",
        ] {
            assert_eq!(read_clock(bad), None, "{bad}");
        }
    }

    #[test]
    fn event_payloads_escape_what_ends_a_comment() {
        let chat = "5 w chat \"a } b ] c { d [ e % f 7D\"";
        let encoded = encode(chat);
        assert!(!encoded.contains(['{', '}', '[', ']']), "{encoded}");
        assert_eq!(decode(&encoded).as_deref(), Some(chat));
        assert_eq!(decode("%7"), None);
        assert_eq!(decode("%zz"), None);
    }

    #[test]
    fn san_is_read_with_its_parts() {
        let san = read_san("Nbd7+!?").unwrap();
        assert_eq!(
            (san.piece, san.file, san.rank, san.to.to_string(), san.capture),
            (PieceKind::Knight, Some(1), None, "d7".into(), false)
        );
        let san = read_san("exd8=N#").unwrap();
        assert_eq!(
            (san.piece, san.file, san.promotion, san.capture),
            (PieceKind::Pawn, Some(4), Some(PieceKind::Knight), true)
        );
        assert!(read_san("O-O-O").unwrap_err().contains("castling"));
        for bad in ["e9", "Ki1", "e8=K", "Nb1b2c3", "x", "Q"] {
            assert!(read_san(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any text, PGN (or PDN) or not, is read without a panic.
        #[test]
        fn arbitrary_text_never_panics(text in any::<String>()) {
            let _ = read_pgn(&text);
            let _ = crate::pdn::read_pdn(&text);
        }

        /// Nor is PGN fgn wrote, cut anywhere and with any bytes put in.
        #[test]
        fn damaged_pgn_never_panics(cut in 0usize..20_000, at in 0usize..20_000, insert in "[ -~{}\\[\\]%\n]{0,8}") {
            let text: String = EXPORTED.chars().take(20_000).collect();
            let at = text.char_indices().nth(at % text.chars().count()).map_or(0, |(i, _)| i);
            let mut damaged = text[..at].to_string();
            damaged.push_str(&insert);
            damaged.push_str(&text[at..]);
            let end = damaged.char_indices().nth(cut).map_or(damaged.len(), |(i, _)| i);
            let _ = read_pgn(&damaged[..end]);
            let _ = crate::pdn::read_pdn(&damaged[..end]);
        }
    }
}
