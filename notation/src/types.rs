//! Small `Copy` value types of the notation: squares, colours, actors, pieces,
//! units, move numbers and clock readings. Each has `FromStr` and `Display`,
//! and `Display` always writes the canonical spelling.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::short::{Ascii, Short};

/// The largest number of files or ranks a board may have in FGN (files `a`..`z`).
pub const MAX_BOARD_DIM: u8 = 26;

/// Why a token could not be read as a value of one of these types.
///
/// The message completes the sentence "expected ...", so callers can add the
/// position and what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// What the text should have been, e.g. "a square such as e4".
    pub expected: &'static str,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)
    }
}

impl std::error::Error for ValueError {}

fn err<T>(expected: &'static str) -> Result<T, ValueError> {
    Err(ValueError { expected })
}

/// Implements `Serialize` and `Deserialize` through the FGN spelling and
/// `FromStr`, so that JSON carries exactly the FGN spelling of a value.
/// The spelling is `Display`'s; a value spelled by one letter (`char`) or a
/// fixed name (`name`) is written as that string directly, since
/// `collect_str` goes through the formatting machinery, which costs a JSON
/// export more than the rest of such a value.
macro_rules! serde_via_str {
    (@deserialize $t:ty) => {
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
    ($t:ty, char) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.char().encode_utf8(&mut [0; 4]))
            }
        }
        serde_via_str!(@deserialize $t);
    };
    ($t:ty, name) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
        serde_via_str!(@deserialize $t);
    };
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        serde_via_str!(@deserialize $t);
    };
}

/// A file (column) of the board, `a` = 0 .. `z` = 25.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct File(u8);

impl File {
    /// The file with the given zero-based index, if it is below [`MAX_BOARD_DIM`].
    pub const fn new(index: u8) -> Option<File> {
        if index < MAX_BOARD_DIM {
            Some(File(index))
        } else {
            None
        }
    }

    /// Zero-based index: `a` is 0.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Reads a file letter, accepting upper case as NOTATION.md allows.
    pub fn from_char(c: char) -> Option<File> {
        let lower = c.to_ascii_lowercase();
        if lower.is_ascii_lowercase() {
            Some(File(lower as u8 - b'a'))
        } else {
            None
        }
    }

    /// The canonical (lower-case) letter.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.char().encode_utf8(&mut [0; 4]))
    }
}

impl FromStr for File {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<File, ValueError> {
        let mut chars = s.chars();
        match (chars.next().and_then(File::from_char), chars.next()) {
            (Some(file), None) => Ok(file),
            _ => err("a file letter a..z"),
        }
    }
}
serde_via_str!(File, char);

/// A square: file and rank, both zero-based, each below [`MAX_BOARD_DIM`].
///
/// Whether a square lies on a particular board is a rule question; every
/// square that any FGN board can have is a `Square`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    /// The square at zero-based `file` and `rank`, if both are below [`MAX_BOARD_DIM`].
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_BOARD_DIM && rank < MAX_BOARD_DIM {
            Some(Square { file, rank })
        } else {
            None
        }
    }

    /// The file.
    pub const fn file(self) -> File {
        File(self.file)
    }

    /// Zero-based file index (`a` = 0).
    pub const fn file_index(self) -> u8 {
        self.file
    }

    /// Zero-based rank index (rank `1` = 0).
    pub const fn rank_index(self) -> u8 {
        self.rank
    }

    /// Appends the square as FGN spells it, its file letter and 1-based
    /// rank, as [`Display`](fmt::Display) writes it.
    pub(crate) fn push_to(self, text: &mut impl Ascii) {
        text.push_ascii(b'a' + self.file);
        let rank = self.rank + 1;
        if rank >= 10 {
            text.push_ascii(b'0' + rank / 10);
        }
        text.push_ascii(b'0' + rank % 10);
    }

    /// Reads a square from the start of `s`, returning it and the number of
    /// bytes read. Upper-case file letters are accepted; the rank is 1..=26
    /// without leading zeros.
    pub fn read_prefix(s: &str) -> Option<(Square, usize)> {
        let bytes = s.as_bytes();
        let file = File::from_char(*bytes.first()? as char)?;
        let d1 = *bytes.get(1)?;
        if !(b'1'..=b'9').contains(&d1) {
            return None;
        }
        let mut rank = u32::from(d1 - b'0');
        let mut len = 2;
        if let Some(&d2) = bytes.get(2) {
            if d2.is_ascii_digit() {
                rank = rank * 10 + u32::from(d2 - b'0');
                len = 3;
                if bytes.get(3).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
            }
        }
        if rank == 0 || rank > u32::from(MAX_BOARD_DIM) {
            return None;
        }
        Some((Square::new(file.0, rank as u8 - 1)?, len))
    }
}

/// Squares order as the rules roll them: rank 1 first, files `a`.. within a rank.
impl Ord for Square {
    fn cmp(&self, other: &Square) -> std::cmp::Ordering {
        (self.rank, self.file).cmp(&(other.rank, other.file))
    }
}

impl PartialOrd for Square {
    fn partial_cmp(&self, other: &Square) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Short::new();
        self.push_to(&mut text);
        f.write_str(text.as_str())
    }
}

impl FromStr for Square {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Square, ValueError> {
        match Square::read_prefix(s) {
            Some((sq, len)) if len == s.len() => Ok(sq),
            _ => err("a square such as e4 (file a..z, rank 1..26)"),
        }
    }
}
impl Serialize for Square {
    /// The FGN spelling, built whole and written as one string (see
    /// `serde_via_str!`, which the other values use).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = Short::new();
        self.push_to(&mut text);
        s.serialize_str(text.as_str())
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One value per side, indexed by [`Color`]: `counts[Color::White]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct ByColor<T> {
    /// White's value (`w` in JSON, the actor letter).
    #[serde(rename = "w")]
    pub white: T,
    /// Black's value (`b` in JSON).
    #[serde(rename = "b")]
    pub black: T,
}

impl<T> ByColor<T> {
    /// The same value for both sides.
    pub fn both(value: T) -> ByColor<T>
    where
        T: Clone,
    {
        ByColor {
            white: value.clone(),
            black: value,
        }
    }

    /// A value per side, from `f(color)`.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }

    /// The values with their sides, white first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        [(Color::White, &self.white), (Color::Black, &self.black)].into_iter()
    }

    /// Each value mapped by `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

/// A side of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Color {
    /// Moves first; ranks 1.. are its side of the board.
    White,
    /// Moves second.
    Black,
}

impl Color {
    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.char().encode_utf8(&mut [0; 4]))
    }
}

impl FromStr for Color {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Color, ValueError> {
        match s {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            _ => err("a colour, w or b"),
        }
    }
}
serde_via_str!(Color, char);

/// Who an event belongs to: a player or the world (referee, clock, randomness).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Actor {
    /// One of the players.
    Player(Color),
    /// The world, written `@`.
    World,
}

impl Actor {
    /// The FGN letter: `w`, `b`, or `@` for the world.
    pub const fn char(self) -> char {
        match self {
            Actor::Player(c) => c.char(),
            Actor::World => '@',
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.char().encode_utf8(&mut [0; 4]))
    }
}

impl FromStr for Actor {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Actor, ValueError> {
        match s {
            "w" => Ok(Actor::Player(Color::White)),
            "b" => Ok(Actor::Player(Color::Black)),
            "@" => Ok(Actor::World),
            _ => err("an actor: w, b or @"),
        }
    }
}
serde_via_str!(Actor, char);

/// The full-move number an event carries (0 for setup).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct MoveNumber(pub u32);

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for MoveNumber {
    type Err = ValueError;
    /// Decimal without leading zeros, at most `u32::MAX`.
    fn from_str(s: &str) -> Result<MoveNumber, ValueError> {
        const EXPECTED: &str = "a move number (decimal, no leading zeros, at most 4294967295)";
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0')) {
            return err(EXPECTED);
        }
        s.parse::<u32>().map(MoveNumber).or_else(|_| err(EXPECTED))
    }
}

impl Serialize for MoveNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0)
    }
}

impl<'de> Deserialize<'de> for MoveNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        u32::deserialize(d).map(MoveNumber)
    }
}

/// A clock reading: milliseconds since the game began, written in seconds
/// with up to three fraction digits (`{t=12.5}`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Clock(pub u64);

/// The largest clock reading FGN accepts, in seconds (about 31 700 years).
pub const MAX_CLOCK_SECONDS: u64 = 999_999_999_999;

impl Clock {
    /// Milliseconds since the game began.
    pub const fn millis(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Clock {
    /// Seconds, with the fraction written only when non-zero and without
    /// trailing zeros: `12`, `12.5`, `12.345`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Short::new();
        self.push_to(&mut text);
        f.write_str(text.as_str())
    }
}

impl Clock {
    /// Appends the reading as [`Display`](fmt::Display) writes it (at most
    /// 16 bytes).
    pub(crate) fn push_to(self, text: &mut impl Ascii) {
        let (secs, ms) = (self.0 / 1000, self.0 % 1000);
        text.push_u64(secs);
        if ms != 0 {
            text.push_ascii(b'.');
            let digits = [ms / 100, ms / 10 % 10, ms % 10];
            let kept = if ms % 10 != 0 {
                3
            } else if ms % 100 != 0 {
                2
            } else {
                1
            };
            for d in &digits[..kept] {
                text.push_ascii(b'0' + *d as u8);
            }
        }
    }
}

impl FromStr for Clock {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Clock, ValueError> {
        const EXPECTED: &str = "seconds such as 12 or 12.345 (at most 3 fraction digits, at most 999999999999)";
        let (int, frac) = match s.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (s, None),
        };
        if int.is_empty()
            || int.len() > 12
            || !int.bytes().all(|b| b.is_ascii_digit())
            || (int.len() > 1 && int.starts_with('0'))
        {
            return err(EXPECTED);
        }
        let secs: u64 = int.parse().map_err(|_| ValueError { expected: EXPECTED })?;
        let mut ms = 0u64;
        if let Some(frac) = frac {
            if frac.is_empty() || frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return err(EXPECTED);
            }
            ms = frac.parse::<u64>().map_err(|_| ValueError { expected: EXPECTED })? * 10u64.pow(3 - frac.len() as u32);
        }
        Ok(Clock(secs * 1000 + ms))
    }
}

/// A chess piece kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum PieceKind {
    /// `K`
    King,
    /// `Q`
    Queen,
    /// `R`
    Rook,
    /// `B`
    Bishop,
    /// `N`
    Knight,
    /// `P` (omitted in moves)
    Pawn,
}

impl PieceKind {
    /// All kinds, in the order `K Q R B N P`.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::King,
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Pawn,
    ];

    /// The upper-case letter.
    pub const fn char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Queen => 'Q',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Knight => 'N',
            PieceKind::Pawn => 'P',
        }
    }

    /// The English name, for messages: `knight`.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Queen => "queen",
            PieceKind::Rook => "rook",
            PieceKind::Bishop => "bishop",
            PieceKind::Knight => "knight",
            PieceKind::Pawn => "pawn",
        }
    }

    /// Reads an upper-case piece letter.
    pub const fn from_char(c: char) -> Option<PieceKind> {
        Some(match c {
            'K' => PieceKind::King,
            'Q' => PieceKind::Queen,
            'R' => PieceKind::Rook,
            'B' => PieceKind::Bishop,
            'N' => PieceKind::Knight,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// Whether a pawn may promote to this kind (`Q R B N`).
    pub const fn is_promotion_target(self) -> bool {
        matches!(
            self,
            PieceKind::Queen | PieceKind::Rook | PieceKind::Bishop | PieceKind::Knight
        )
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.char().encode_utf8(&mut [0; 4]))
    }
}

impl FromStr for PieceKind {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<PieceKind, ValueError> {
        let mut chars = s.chars();
        match (chars.next().and_then(PieceKind::from_char), chars.next()) {
            (Some(p), None) => Ok(p),
            _ => err("a piece letter K, Q, R, B, N or P"),
        }
    }
}
serde_via_str!(PieceKind, char);

/// A great-war-chess unit kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum UnitKind {
    /// `I`
    Infantry,
    /// `C`
    Cavalry,
    /// `A`
    Artillery,
    /// `F` (never moves)
    Fortification,
}

impl UnitKind {
    /// All kinds, in canonical order `I C A F`.
    pub const ALL: [UnitKind; 4] = [
        UnitKind::Infantry,
        UnitKind::Cavalry,
        UnitKind::Artillery,
        UnitKind::Fortification,
    ];

    /// The upper-case letter.
    pub const fn char(self) -> char {
        match self {
            UnitKind::Infantry => 'I',
            UnitKind::Cavalry => 'C',
            UnitKind::Artillery => 'A',
            UnitKind::Fortification => 'F',
        }
    }

    /// Reads an upper-case unit letter.
    pub const fn from_char(c: char) -> Option<UnitKind> {
        Some(match c {
            'I' => UnitKind::Infantry,
            'C' => UnitKind::Cavalry,
            'A' => UnitKind::Artillery,
            'F' => UnitKind::Fortification,
            _ => return None,
        })
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.char().encode_utf8(&mut [0; 4]))
    }
}

impl FromStr for UnitKind {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<UnitKind, ValueError> {
        let mut chars = s.chars();
        match (chars.next().and_then(UnitKind::from_char), chars.next()) {
            (Some(u), None) => Ok(u),
            _ => err("a unit letter I, C, A or F"),
        }
    }
}
serde_via_str!(UnitKind, char);

/// A non-empty set of the movable great-war-chess units (`I`, `C`, `A`),
/// written in canonical order `I C A` (`ICA`, `IC`, `I`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct UnitSet(u8);

impl UnitSet {
    /// The set of the given movable kinds; `None` when empty or when it
    /// contains a fortification.
    pub fn new(kinds: &[UnitKind]) -> Option<UnitSet> {
        let mut bits = 0;
        for &k in kinds {
            if k == UnitKind::Fortification {
                return None;
            }
            bits |= k.bit();
        }
        (bits != 0).then_some(UnitSet(bits))
    }

    /// Whether the set holds `kind`.
    pub const fn contains(self, kind: UnitKind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// The kinds in canonical order.
    pub fn kinds(self) -> impl Iterator<Item = UnitKind> {
        UnitKind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

impl fmt::Display for UnitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in self.kinds() {
            write!(f, "{}", k.char())?;
        }
        Ok(())
    }
}

impl FromStr for UnitSet {
    type Err = ValueError;
    /// One to three distinct letters of `I C A`, in any order on input.
    fn from_str(s: &str) -> Result<UnitSet, ValueError> {
        const EXPECTED: &str = "moving units: distinct letters of I, C, A";
        let mut bits = 0u8;
        for c in s.chars() {
            match UnitKind::from_char(c) {
                Some(k) if k != UnitKind::Fortification && bits & k.bit() == 0 => bits |= k.bit(),
                _ => return err(EXPECTED),
            }
        }
        if bits == 0 {
            return err(EXPECTED);
        }
        Ok(UnitSet(bits))
    }
}
serde_via_str!(UnitSet);

/// What stands in a setup list: a chess piece or a great-war-chess unit.
/// The two alphabets are disjoint, so a letter names exactly one of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Figure {
    /// A chess piece (`K Q R B N P`).
    Piece(PieceKind),
    /// A great-war-chess unit (`I C A F`).
    Unit(UnitKind),
}

impl Figure {
    /// The letter.
    pub const fn char(self) -> char {
        match self {
            Figure::Piece(p) => p.char(),
            Figure::Unit(u) => u.char(),
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.char().encode_utf8(&mut [0; 4]))
    }
}

impl FromStr for Figure {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Figure, ValueError> {
        if let Ok(p) = s.parse() {
            return Ok(Figure::Piece(p));
        }
        if let Ok(u) = s.parse() {
            return Ok(Figure::Unit(u));
        }
        err("a piece letter (K Q R B N P) or unit letter (I C A F)")
    }
}
serde_via_str!(Figure, char);

/// The four games FGN records.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum GameKind {
    /// `survival-chess`
    SurvivalChess,
    /// `open-world-chess`
    OpenWorldChess,
    /// `great-war-chess`
    GreatWarChess,
    /// `magic-draughts`
    MagicDraughts,
}

impl GameKind {
    /// All games.
    pub const ALL: [GameKind; 4] = [
        GameKind::SurvivalChess,
        GameKind::OpenWorldChess,
        GameKind::GreatWarChess,
        GameKind::MagicDraughts,
    ];

    /// The value of the `Game` tag.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::SurvivalChess => "survival-chess",
            GameKind::OpenWorldChess => "open-world-chess",
            GameKind::GreatWarChess => "great-war-chess",
            GameKind::MagicDraughts => "magic-draughts",
        }
    }

    /// Whether the game is played with chess pieces.
    pub const fn is_chess(self) -> bool {
        matches!(self, GameKind::SurvivalChess | GameKind::OpenWorldChess)
    }

    /// Whether the game starts with a secret setup (`place`, `remove`, `ready`).
    pub const fn has_setup(self) -> bool {
        matches!(self, GameKind::SurvivalChess | GameKind::GreatWarChess)
    }

    /// Whether the game has randomness or hidden numbers, and so a world seed.
    pub const fn has_seed(self) -> bool {
        matches!(self, GameKind::OpenWorldChess | GameKind::MagicDraughts)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<GameKind, ValueError> {
        GameKind::ALL.into_iter().find(|g| g.name() == s).ok_or(ValueError {
            expected: "a game: survival-chess, open-world-chess, great-war-chess or magic-draughts",
        })
    }
}
serde_via_str!(GameKind, name);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_written_as_every_board_spells_them() {
        for file in 0..MAX_BOARD_DIM {
            for rank in 0..MAX_BOARD_DIM {
                let sq = Square::new(file, rank).unwrap();
                let mut s = Short::new();
                sq.push_to(&mut s);
                assert_eq!(s.as_str(), format!("{}{}", (b'a' + file) as char, rank + 1));
            }
        }
    }

    #[test]
    fn squares_read_upper_case_and_print_lower_case() {
        assert_eq!("E3".parse::<Square>().unwrap().to_string(), "e3");
        assert_eq!("l12".parse::<Square>().unwrap(), Square::new(11, 11).unwrap());
        assert_eq!("z26".parse::<Square>().unwrap(), Square::new(25, 25).unwrap());
        for bad in ["", "e", "e0", "e27", "e01", "e100", "1e", "é4", "e4x"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn squares_order_rank_first() {
        let a2: Square = "a2".parse().unwrap();
        let h1: Square = "h1".parse().unwrap();
        assert!(h1 < a2);
    }

    #[test]
    fn clock_readings_round_trip_in_canonical_form() {
        for (input, ms, canon) in [
            ("0", 0, "0"),
            ("12.5", 12_500, "12.5"),
            ("12.500", 12_500, "12.5"),
            ("3.007", 3_007, "3.007"),
        ] {
            let c: Clock = input.parse().unwrap();
            assert_eq!(c.millis(), ms);
            assert_eq!(c.to_string(), canon);
        }
        for bad in ["", ".5", "1.", "1.2345", "01", "-1", "1e3", "9999999999999"] {
            assert!(bad.parse::<Clock>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn move_numbers_reject_leading_zeros_and_overflow() {
        assert_eq!("0".parse::<MoveNumber>().unwrap(), MoveNumber(0));
        assert_eq!("4294967295".parse::<MoveNumber>().unwrap(), MoveNumber(u32::MAX));
        for bad in ["", "01", "4294967296", "+1", "1 "] {
            assert!(bad.parse::<MoveNumber>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn unit_sets_print_in_canonical_order() {
        assert_eq!("CAI".parse::<UnitSet>().unwrap().to_string(), "ICA");
        assert!("II".parse::<UnitSet>().is_err());
        assert!("IF".parse::<UnitSet>().is_err());
        assert!("".parse::<UnitSet>().is_err());
    }
}
