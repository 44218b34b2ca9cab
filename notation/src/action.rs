//! Events and their actions: the typed form of one FGN event line.
//!
//! One enum, [`Action`], holds every form of every game; which forms a game
//! admits is decided by [`crate::forms::check_form`], the single place both
//! the text parser and the JSON reader consult.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::short::{Ascii, Short};
use crate::types::{Actor, Clock, Color, Figure, File, MoveNumber, PieceKind, Square, UnitKind, UnitSet};

/// One event: `MOVE-NUMBER ACTOR ACTION [{t=SECONDS}]`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// The full-move number the event carries.
    pub n: MoveNumber,
    /// Who acts.
    pub actor: Actor,
    /// What happens.
    pub action: Action,
    /// The clock annotation, in milliseconds since the game began.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "clock_ms")]
    pub clock_ms: Option<Clock>,
}

mod clock_ms {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::types::{Clock, MAX_CLOCK_SECONDS};

    pub fn serialize<S: Serializer>(c: &Option<super::Clock>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_u64(c.millis()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Clock>, D::Error> {
        match Option::<u64>::deserialize(d)? {
            Some(ms) if ms > MAX_CLOCK_SECONDS * 1000 + 999 => {
                Err(serde::de::Error::custom("clock_ms is larger than FGN allows"))
            }
            other => Ok(other.map(Clock)),
        }
    }
}

/// A piece or unit and the square it goes to, in `place` and `@ setup`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The piece or unit letter.
    pub figure: Figure,
    /// Where it stands.
    pub square: Square,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Short::new();
        self.push_to(&mut text);
        f.write_str(text.as_str())
    }
}

impl Placement {
    /// Appends the placement as [`Display`](fmt::Display) writes it (at most
    /// 4 bytes).
    fn push_to(&self, text: &mut impl Ascii) {
        text.push_ascii(self.figure.char() as u8);
        self.square.push_to(text);
    }
}

/// The check marker of a survival-chess move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// `+`
    Check,
    /// `#`
    Mate,
}

/// A chess move in long algebraic notation, `[PIECE]FROM SEP TO [=PROMOTION] [CHECK]`.
///
/// `from` or `to` is `None` only in a perspective view, where `?` stands for a
/// square the viewer could not see.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChessMove {
    /// The moving piece.
    pub piece: PieceKind,
    /// Where it came from (`None`: out of the fog).
    pub from: Option<Square>,
    /// Where it went (`None`: into the fog).
    pub to: Option<Square>,
    /// `x` (capture or attack) rather than `-`.
    pub capture: bool,
    /// `=Q` and so on; `None` when not written.
    pub promotion: Option<PieceKind>,
    /// `+` or `#`; `None` when not written.
    pub check: Option<Check>,
}

impl fmt::Display for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Short::new();
        self.push_to(&mut text);
        f.write_str(text.as_str())
    }
}

impl ChessMove {
    /// Appends the move as [`Display`](fmt::Display) writes it (at most 12
    /// bytes).
    fn push_to(&self, text: &mut impl Ascii) {
        // A pawn's letter is written only where a square is hidden, so that a
        // view still names the piece that was seen.
        if self.piece != PieceKind::Pawn || self.from.is_none() || self.to.is_none() {
            text.push_ascii(self.piece.char() as u8);
        }
        fn square(text: &mut impl Ascii, sq: Option<Square>) {
            match sq {
                Some(sq) => sq.push_to(text),
                None => text.push_ascii(b'?'),
            }
        }
        square(text, self.from);
        text.push_ascii(if self.capture { b'x' } else { b'-' });
        square(text, self.to);
        if let Some(p) = self.promotion {
            text.push_ascii(b'=');
            text.push_ascii(p.char() as u8);
        }
        match self.check {
            Some(Check::Check) => text.push_ascii(b'+'),
            Some(Check::Mate) => text.push_ascii(b'#'),
            None => {}
        }
    }
}

/// An open-world-chess shop item.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Item {
    /// `range`: an own pawn or king gets step range 2.
    Range,
    /// `hp`: an own piece gets maximum +2 and HP +2.
    Hp,
    /// `drain`: a seen enemy piece loses 2 HP.
    Drain,
    /// `curse`: the opponent's next turn has one move fewer.
    Curse,
}

impl Item {
    /// The keyword.
    pub const fn name(self) -> &'static str {
        match self {
            Item::Range => "range",
            Item::Hp => "hp",
            Item::Drain => "drain",
            Item::Curse => "curse",
        }
    }

    /// Whether the item names a target square.
    pub const fn has_target(self) -> bool {
        !matches!(self, Item::Curse)
    }
}

/// An object on an open-world-chess square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectKind {
    /// HP +2, up to the maximum.
    Regen,
    /// Maximum +1 and HP +1.
    Hp,
    /// Loses 1..5 HP.
    Damage,
    /// Heals or strengthens the own king.
    Kinghp,
    /// Clones the piece.
    Clone,
    /// A coin.
    Coin,
}

impl ObjectKind {
    /// All kinds.
    pub const ALL: [ObjectKind; 6] = [
        ObjectKind::Regen,
        ObjectKind::Hp,
        ObjectKind::Damage,
        ObjectKind::Kinghp,
        ObjectKind::Clone,
        ObjectKind::Coin,
    ];

    /// The keyword.
    pub const fn name(self) -> &'static str {
        match self {
            ObjectKind::Regen => "regen",
            ObjectKind::Hp => "hp",
            ObjectKind::Damage => "damage",
            ObjectKind::Kinghp => "kinghp",
            ObjectKind::Clone => "clone",
            ObjectKind::Coin => "coin",
        }
    }

    /// Reads a keyword.
    pub fn from_name(s: &str) -> Option<ObjectKind> {
        ObjectKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// A piece seen in a perspective view: colour, kind and HP (`bN:5`), and
/// for the viewer's own piece its maximum HP too (`wN:5/7`), which its
/// owner always knows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeenPiece {
    /// Whose piece.
    pub color: Color,
    /// Which piece.
    pub piece: PieceKind,
    /// Its hit points.
    pub hp: u64,
    /// Its maximum hit points, written for the viewer's own pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

impl std::fmt::Display for SeenPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}:{}", self.color, self.piece, self.hp)?;
        if let Some(max) = self.max {
            write!(f, "/{max}")?;
        }
        Ok(())
    }
}

/// A great-war-chess movement: `ICb2-b7`, `Ib2xb3`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitMove {
    /// The units that move.
    pub units: UnitSet,
    /// From.
    pub from: Square,
    /// To.
    pub to: Square,
    /// `x`: the target holds enemy units.
    pub capture: bool,
}

/// The most squares a draughts move may list (start plus landings).
pub const MAX_PATH: usize = 16;

/// A draughts move: a start square and every landing square.
///
/// Only the first `len` squares are the path: equality and hashing look
/// at those alone (and `Debug` shows those alone), so the one-pass reader
/// need not write the rest.
#[derive(Clone, Copy)]
pub struct Path {
    len: u8,
    squares: [Square; MAX_PATH],
}

impl Path {
    /// A path of 2 to [`MAX_PATH`] squares.
    pub fn new(squares: &[Square]) -> Option<Path> {
        if !(2..=MAX_PATH).contains(&squares.len()) {
            return None;
        }
        let mut buf = [squares[0]; MAX_PATH];
        buf[..squares.len()].copy_from_slice(squares);
        Some(Path {
            len: squares.len() as u8,
            squares: buf,
        })
    }

    /// A path for the one-pass reader to write over where it is stored
    /// ([`Path::set_square`], [`Path::set_len`]): `a1-a1`.
    pub(crate) const PLACEHOLDER: Path = match Square::new(0, 0) {
        Some(a1) => Path {
            len: 2,
            squares: [a1; MAX_PATH],
        },
        // `a1` is a square: this arm is never taken, at compile time.
        None => panic!("a1 is a square"),
    };

    /// Sets the square at `index` (below [`MAX_PATH`]) of a path the
    /// one-pass reader writes where it is stored, which [`Path::set_len`]
    /// then closes.
    #[inline(always)]
    pub(crate) fn set_square(&mut self, index: usize, square: Square) {
        self.squares[index] = square;
    }

    /// Sets the length (2 to [`MAX_PATH`]) of a path whose first `len`
    /// squares [`Path::set_square`] wrote.
    #[inline(always)]
    pub(crate) fn set_len(&mut self, len: usize) {
        debug_assert!((2..=MAX_PATH).contains(&len));
        self.len = len as u8;
    }

    /// The squares, start first.
    pub fn squares(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }

    /// The start square.
    pub fn from(&self) -> Square {
        self.squares[0]
    }

    /// The final square.
    pub fn to(&self) -> Square {
        self.squares[usize::from(self.len) - 1]
    }
}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Path").field(&self.squares()).finish()
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.squares() == other.squares()
    }
}

impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.squares().hash(state);
    }
}

impl Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.squares().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Square>::deserialize(d)?;
        Path::new(&v).ok_or_else(|| serde::de::Error::custom(format!("a draughts path has 2 to {MAX_PATH} squares")))
    }
}

/// A magic-draughts spell, `spell N ...`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "spell", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Spell {
    /// `spell N skip`: the caster declines spell `number`.
    Skip {
        /// Which spell, 1..=5.
        number: SpellNumber,
    },
    /// `spell 1 c`: Gorynych's Fury clears a file.
    Fury {
        /// The file.
        file: File,
    },
    /// `spell 2 d6 h2`: Baba Yaga's Potion moves an own piece.
    Potion {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// `spell 3 e3 a5`: Leshy's Charm moves an enemy piece.
    Charm {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// `spell 4 c7`: Firebird's Call crowns an own man.
    Firebird {
        /// The man.
        square: Square,
    },
    /// `spell 5 a1 c1 e3`: Koschei's Revenge returns captured plain checkers.
    Revenge {
        /// Where the returned checkers go (possibly none).
        squares: Vec<Square>,
    },
}

impl Spell {
    /// The spell's number.
    pub fn number(&self) -> SpellNumber {
        SpellNumber(match self {
            Spell::Skip { number } => return *number,
            Spell::Fury { .. } => 1,
            Spell::Potion { .. } => 2,
            Spell::Charm { .. } => 3,
            Spell::Firebird { .. } => 4,
            Spell::Revenge { .. } => 5,
        })
    }
}

/// A spell number, 1..=5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
pub struct SpellNumber(u8);

impl SpellNumber {
    /// The number, if it is 1..=5.
    pub const fn new(n: u8) -> Option<SpellNumber> {
        if n >= 1 && n <= 5 {
            Some(SpellNumber(n))
        } else {
            None
        }
    }

    /// The number.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl<'de> Deserialize<'de> for SpellNumber {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SpellNumber::new(u8::deserialize(d)?).ok_or_else(|| serde::de::Error::custom("a spell number is 1..5"))
    }
}

/// A checker's hidden number: 0 (plain) or a spell 1..=5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
pub struct MagicNumber(u8);

impl MagicNumber {
    /// The number, if it is 0..=5.
    pub const fn new(n: u8) -> Option<MagicNumber> {
        if n <= 5 {
            Some(MagicNumber(n))
        } else {
            None
        }
    }

    /// The number (0 = plain).
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl<'de> Deserialize<'de> for MagicNumber {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        MagicNumber::new(u8::deserialize(d)?).ok_or_else(|| serde::de::Error::custom("a checker number is 0..5"))
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Outcome {
    /// `1-0`
    #[serde(rename = "1-0")]
    WhiteWins,
    /// `0-1`
    #[serde(rename = "0-1")]
    BlackWins,
    /// `1/2-1/2`
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// `abort`
    #[serde(rename = "abort")]
    Abort,
}

impl Outcome {
    /// All outcomes, in the order results are usually listed.
    pub const ALL: [Outcome; 4] = [Outcome::WhiteWins, Outcome::BlackWins, Outcome::Draw, Outcome::Abort];

    /// The spelling.
    pub const fn text(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Abort => "abort",
        }
    }

    /// The side that won, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::WhiteWins => Some(Color::White),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw | Outcome::Abort => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Checkmate.
    Mate,
    /// Stalemate.
    Stalemate,
    /// A player resigned.
    Resign,
    /// A player ran out of time and was refused extra time.
    Timeout,
    /// A king died (open-world-chess).
    KingKilled,
    /// A side's charges reached 0 (great-war-chess).
    NoCharges,
    /// A side has no infantry (great-war-chess).
    NoInfantry,
    /// A side has no pieces (magic-draughts).
    NoPieces,
    /// A side has no legal move (magic-draughts).
    NoMoves,
    /// Black's king stood attacked when setup ended (survival-chess).
    ExposedKing,
    /// Setup ended without a king (with `abort`).
    NoKing,
}

impl Reason {
    /// All reasons.
    pub const ALL: [Reason; 11] = [
        Reason::Mate,
        Reason::Stalemate,
        Reason::Resign,
        Reason::Timeout,
        Reason::KingKilled,
        Reason::NoCharges,
        Reason::NoInfantry,
        Reason::NoPieces,
        Reason::NoMoves,
        Reason::ExposedKing,
        Reason::NoKing,
    ];

    /// The keyword.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Mate => "mate",
            Reason::Stalemate => "stalemate",
            Reason::Resign => "resign",
            Reason::Timeout => "timeout",
            Reason::KingKilled => "king-killed",
            Reason::NoCharges => "no-charges",
            Reason::NoInfantry => "no-infantry",
            Reason::NoPieces => "no-pieces",
            Reason::NoMoves => "no-moves",
            Reason::ExposedKing => "exposed-king",
            Reason::NoKing => "no-king",
        }
    }

    /// Reads a keyword.
    pub fn from_name(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// A 32-byte world seed, written as 64 lower-case hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Seed(pub [u8; 32]);

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Seed {
    type Err = crate::types::ValueError;
    fn from_str(s: &str) -> Result<Seed, Self::Err> {
        parse_hex32(s).map(Seed).ok_or(crate::types::ValueError {
            expected: "64 lower-case hex digits",
        })
    }
}

/// Reads exactly 64 lower-case hex digits.
pub fn parse_hex32(s: &str) -> Option<[u8; 32]> {
    let bytes = s.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    // Every byte's digit value from a table, 16 for a byte that is not a
    // digit; a pair holds one only if neither is 16, which one test of
    // their `|` tells for the whole string at the end.
    let mut out = [0u8; 32];
    let mut bad = 0;
    for (o, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        let (hi, lo) = (HEX_DIGIT[usize::from(pair[0])], HEX_DIGIT[usize::from(pair[1])]);
        bad |= hi | lo;
        *o = hi << 4 | lo;
    }
    (bad < 16).then_some(out)
}

/// The value of each lower-case hex digit, and 16 for every other byte.
const HEX_DIGIT: [u8; 256] = {
    let mut table = [16; 256];
    let mut d = 0;
    while d < 10 {
        table[b'0' as usize + d] = d as u8;
        d += 1;
    }
    while d < 16 {
        table[b'a' as usize + d - 10] = d as u8;
        d += 1;
    }
    table
};

/// The most bytes a player's salt may hold.
pub const MAX_SALT_BYTES: usize = 64;

/// A player's salt, `salt <hex>`: 1 to [`MAX_SALT_BYTES`] bytes of entropy
/// that the player adds to the world seed, written as lower-case hex, two
/// digits a byte, byte 0 first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salt {
    len: u8,
    bytes: [u8; MAX_SALT_BYTES],
}

impl Salt {
    /// The salt of `bytes`, if there are 1 to [`MAX_SALT_BYTES`] of them.
    pub fn new(bytes: &[u8]) -> Option<Salt> {
        if !(1..=MAX_SALT_BYTES).contains(&bytes.len()) {
            return None;
        }
        let mut buf = [0u8; MAX_SALT_BYTES];
        buf[..bytes.len()].copy_from_slice(bytes);
        Some(Salt {
            len: bytes.len() as u8,
            bytes: buf,
        })
    }

    /// The salt's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl fmt::Debug for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Salt({self})")
    }
}

impl fmt::Display for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.bytes().iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl std::str::FromStr for Salt {
    type Err = crate::types::ValueError;
    fn from_str(s: &str) -> Result<Salt, Self::Err> {
        // Each way of missing the form gets its own words, so that the
        // player who wrote the salt sees at once what to change.
        let fail = |expected| Err(crate::types::ValueError { expected });
        if s.is_empty() {
            return fail("a salt: 2 to 128 lower-case hex digits (1 to 64 bytes)");
        }
        if s.bytes().any(|b| b.is_ascii_uppercase() && b.is_ascii_hexdigit())
            && s.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return fail("a salt in lower-case hex digits (0-9, a-f): upper case is not accepted");
        }
        if !s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return fail("a salt of lower-case hex digits only (0-9, a-f), 1 to 64 bytes");
        }
        if s.len() % 2 == 1 {
            return fail("a salt of whole bytes: an even number of hex digits, two a byte");
        }
        if s.len() > 2 * MAX_SALT_BYTES {
            return fail("a salt of at most 64 bytes (128 hex digits)");
        }
        let digit = |b: u8| match b {
            b'0'..=b'9' => b - b'0',
            _ => b - b'a' + 10,
        };
        let bytes: Vec<u8> = s
            .as_bytes()
            .chunks_exact(2)
            .map(|pair| digit(pair[0]) << 4 | digit(pair[1]))
            .collect();
        Salt::new(&bytes).map_or_else(|| fail("a salt of 1 to 64 bytes"), Ok)
    }
}

impl Serialize for Salt {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Salt {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Serialize for Seed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// What an event does. Every form of every game; see [`crate::forms`] for
/// which game and actor admit which.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// `place Ke1 Qd1 Pe2`: setup placements.
    Place {
        /// The pieces or units and their squares (at least one).
        placements: Vec<Placement>,
    },
    /// `remove e2` (chess) or `remove Cb2` (great-war-chess).
    Remove {
        /// The unit taken back, in great-war-chess.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<UnitKind>,
        /// Its square.
        square: Square,
    },
    /// `ready`: setup done.
    Ready,
    /// `end`: end the turn early.
    End,
    /// `resign`.
    Resign,
    /// `chat "text"`.
    Chat {
        /// The message.
        text: String,
    },
    /// `extra yes` / `extra no`: the answer to the opponent's timeout.
    Extra {
        /// Whether extra time is given.
        granted: bool,
    },
    /// `@ timeout w`: a side ran out of time.
    Timeout {
        /// The late side.
        color: Color,
    },
    /// `@ result 1-0 mate`.
    Result {
        /// The outcome.
        outcome: Outcome,
        /// Why.
        reason: Reason,
    },
    /// `@ seed <64 hex>`.
    Seed {
        /// The revealed seed.
        seed: Seed,
    },
    /// `salt <hex>`: a player's entropy for the world seed.
    Salt {
        /// The salt, boxed: at up to 64 bytes it is by far the largest
        /// action, and at most two events of a game hold one, while every
        /// event of every log is as large as the largest action.
        salt: Box<Salt>,
    },
    /// A chess move.
    Move(ChessMove),
    /// `buy range e2`, `buy curse`; `square` is `None` for `?` in a view.
    Buy {
        /// What is bought.
        item: Item,
        /// The target square (not for `curse`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        square: Option<Square>,
        /// Whether the target is hidden (`buy drain ?` in a view).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hidden: bool,
    },
    /// `@ spawn e5 regen`.
    Spawn {
        /// Where.
        square: Square,
        /// What.
        object: ObjectKind,
    },
    /// `@ damage d4 3`: a damage roll against the piece on or passing d4.
    Damage {
        /// Where the damage object was.
        square: Square,
        /// The roll, 1..=5 in the rules (any 1..=255 in the syntax).
        amount: u8,
    },
    /// `@ clone f5`: where a clone goes.
    Clone {
        /// The square.
        square: Square,
    },
    /// A great-war-chess movement.
    March(UnitMove),
    /// `Ad1*d6`: artillery fires.
    Shot {
        /// The firing stack.
        from: Square,
        /// The target.
        to: Square,
    },
    /// A draughts move (`c3-d4`) or capture (`c3:e5:c7`).
    Draughts {
        /// Start and landing squares.
        path: Path,
        /// Whether it is a capture (`:`).
        capture: bool,
    },
    /// `@ reveal e5 2`: the number of a captured checker.
    Reveal {
        /// Where the checker was captured.
        square: Square,
        /// Its number (0 = plain).
        number: MagicNumber,
    },
    /// `spell ...`.
    Spell(Spell),
    /// `?`: a turn of the opponent of which the viewer saw nothing.
    Hidden,
    /// `@ see e5 bN:5`: what a perspective's viewer finds on a square;
    /// `@ see e5 ?`: the square goes out of the viewer's sight.
    See {
        /// The square.
        square: Square,
        /// A piece there, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<SeenPiece>,
        /// An object there, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        object: Option<ObjectKind>,
        /// The square is out of sight now (`?`): nothing is said of it
        /// until it is seen again. Never with a piece or an object.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hidden: bool,
    },
    /// `@ coins 7`: the viewer's own coins, in a view, whenever they change.
    Coins {
        /// How many coins the viewer has now.
        count: u64,
    },
    /// `@ held d4`: the viewer's own move waits for the world's outcome
    /// owed on `d4` (a damage roll on its path or at its target, or a
    /// clone's square), in a view; the move is not over until the
    /// outcome comes.
    Held {
        /// The square of the outcome owed.
        square: Square,
    },
    /// `@ setup b Ke12 Qd12`: a side's setup, shown in a view when both are ready.
    Setup {
        /// Whose setup.
        color: Color,
        /// Its pieces or units.
        placements: Vec<Placement>,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_short() {
            let mut text = Short::new();
            self.push_short(&mut text);
            return f.write_str(text.as_str());
        }
        match self {
            Action::Place { placements } => {
                f.write_str("place")?;
                write_placements(f, placements)
            }
            Action::Chat { text } => {
                f.write_str("chat ")?;
                write_quoted(f, text)
            }
            Action::Seed { seed } => write!(f, "seed {seed}"),
            Action::Salt { salt } => write!(f, "salt {salt}"),
            Action::Spell(spell) => {
                write!(f, "spell {}", spell.number().get())?;
                if let Spell::Revenge { squares } = spell {
                    squares.iter().try_for_each(|sq| write!(f, " {sq}"))?;
                }
                Ok(())
            }
            Action::See {
                square,
                piece,
                object,
                hidden,
            } => {
                write!(f, "see {square}")?;
                if *hidden {
                    return f.write_str(" ?");
                }
                if let Some(p) = piece {
                    write!(f, " {p}")?;
                }
                if let Some(o) = object {
                    write!(f, " {}", o.name())?;
                }
                if piece.is_none() && object.is_none() {
                    f.write_str(" empty")?;
                }
                Ok(())
            }
            Action::Coins { count } => write!(f, "coins {count}"),
            Action::Held { square } => write!(f, "held {square}"),
            Action::Setup { color, placements } => {
                write!(f, "setup {color}")?;
                write_placements(f, placements)
            }
            // Every other action is short, written above.
            _ => Ok(()),
        }
    }
}

impl Action {
    /// The squares this action names, in the order it writes them: what a
    /// drawing of the position after it marks as the last move. A chess
    /// move's `from` and `to` where known (a view's `?` names none), a
    /// draughts move's whole path, a great-war-chess movement's or shot's
    /// two squares, the squares of a placement, setup or removal, a
    /// purchase's target, a world event's square (spawn, damage, clone,
    /// reveal, `see`), and a spell's squares. Syntax only: nothing is
    /// checked against a board, and an action that names no square
    /// (`ready`, `resign`, chat, a result, `?`, a spell that names a file
    /// or none) gives none.
    ///
    /// ```
    /// use fgn_notation::{Action, Square};
    ///
    /// let squares = |line: &str| -> Vec<String> {
    ///     let header = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n\n";
    ///     let game = fgn_notation::parse(format!("{header}{line}\n").as_bytes()).document.game;
    ///     game.events[0].action.squares().iter().map(Square::to_string).collect()
    /// };
    /// assert_eq!(squares("1 w c3:e5:c7"), ["c3", "e5", "c7"]);
    /// assert_eq!(squares("1 w spell 1 c"), Vec::<String>::new());
    /// ```
    pub fn squares(&self) -> Vec<Square> {
        match self {
            Action::Place { placements } | Action::Setup { placements, .. } => {
                placements.iter().map(|p| p.square).collect()
            }
            Action::Move(m) => m.from.into_iter().chain(m.to).collect(),
            Action::Buy { square, .. } => square.iter().copied().collect(),
            Action::Remove { square, .. }
            | Action::Spawn { square, .. }
            | Action::Damage { square, .. }
            | Action::Clone { square }
            | Action::Reveal { square, .. }
            | Action::See { square, .. }
            | Action::Held { square } => vec![*square],
            Action::March(m) => vec![m.from, m.to],
            Action::Shot { from, to } => vec![*from, *to],
            Action::Draughts { path, .. } => path.squares().to_vec(),
            Action::Spell(spell) => match spell {
                Spell::Potion { from, to } | Spell::Charm { from, to } => vec![*from, *to],
                Spell::Firebird { square } => vec![*square],
                Spell::Revenge { squares } => squares.clone(),
                Spell::Skip { .. } | Spell::Fury { .. } => Vec::new(),
            },
            Action::Ready
            | Action::End
            | Action::Resign
            | Action::Chat { .. }
            | Action::Extra { .. }
            | Action::Timeout { .. }
            | Action::Result { .. }
            | Action::Seed { .. }
            | Action::Salt { .. }
            | Action::Coins { .. }
            | Action::Hidden => Vec::new(),
        }
    }

    /// Whether [`Action::push_short`] writes this action: every action of
    /// bounded length (at most [`MAX_PATH`] squares, which is 63 bytes), all
    /// but chat, seeds, salts, views' `see` and `setup`, and placements or
    /// revenge spells of more than a few squares.
    fn is_short(&self) -> bool {
        match self {
            Action::Place { placements } => placements.len() <= 4,
            Action::Spell(Spell::Revenge { squares }) => squares.len() <= 4,
            Action::Chat { .. }
            | Action::Seed { .. }
            | Action::Salt { .. }
            | Action::See { .. }
            | Action::Coins { .. }
            | Action::Held { .. }
            | Action::Setup { .. } => false,
            _ => true,
        }
    }

    /// Pushes the spelling of an action that [`Action::is_short`] admits
    /// (and nothing for any other): the one place that spells them.
    fn push_short(&self, text: &mut impl Ascii) {
        match self {
            Action::Place { placements } => {
                text.push_bytes(b"place");
                for p in placements {
                    text.push_ascii(b' ');
                    p.push_to(text);
                }
            }
            Action::Remove { unit, square } => {
                text.push_bytes(b"remove ");
                if let Some(u) = unit {
                    text.push_ascii(u.char() as u8);
                }
                square.push_to(text);
            }
            Action::Ready => text.push_bytes(b"ready"),
            Action::End => text.push_bytes(b"end"),
            Action::Resign => text.push_bytes(b"resign"),
            Action::Hidden => text.push_ascii(b'?'),
            Action::Extra { granted } => text.push_bytes(if *granted { b"extra yes" } else { b"extra no" }),
            Action::Timeout { color } => {
                text.push_bytes(b"timeout ");
                text.push_ascii(color.char() as u8);
            }
            Action::Result { outcome, reason } => {
                text.push_bytes(b"result ");
                text.push_bytes(outcome.text().as_bytes());
                text.push_ascii(b' ');
                text.push_bytes(reason.name().as_bytes());
            }
            Action::Move(m) => m.push_to(text),
            Action::Buy { item, square, hidden } => {
                text.push_bytes(b"buy ");
                text.push_bytes(item.name().as_bytes());
                match (square, hidden) {
                    (Some(sq), _) => {
                        text.push_ascii(b' ');
                        sq.push_to(text);
                    }
                    (None, true) => text.push_bytes(b" ?"),
                    (None, false) => {}
                }
            }
            Action::Spawn { square, object } => {
                text.push_bytes(b"spawn ");
                square.push_to(text);
                text.push_ascii(b' ');
                text.push_bytes(object.name().as_bytes());
            }
            Action::Damage { square, amount } => {
                text.push_bytes(b"damage ");
                square.push_to(text);
                text.push_ascii(b' ');
                text.push_u32(u32::from(*amount));
            }
            Action::Clone { square } => {
                text.push_bytes(b"clone ");
                square.push_to(text);
            }
            Action::March(m) => {
                for k in m.units.kinds() {
                    text.push_ascii(k.char() as u8);
                }
                m.from.push_to(text);
                text.push_ascii(if m.capture { b'x' } else { b'-' });
                m.to.push_to(text);
            }
            Action::Shot { from, to } => {
                text.push_ascii(b'A');
                from.push_to(text);
                text.push_ascii(b'*');
                to.push_to(text);
            }
            Action::Draughts { path, capture } => {
                for (i, sq) in path.squares().iter().enumerate() {
                    if i > 0 {
                        text.push_ascii(if *capture { b':' } else { b'-' });
                    }
                    sq.push_to(text);
                }
            }
            Action::Reveal { square, number } => {
                text.push_bytes(b"reveal ");
                square.push_to(text);
                text.push_ascii(b' ');
                text.push_u32(u32::from(number.get()));
            }
            Action::Spell(spell) => {
                text.push_bytes(b"spell ");
                text.push_u32(u32::from(spell.number().get()));
                match spell {
                    Spell::Skip { .. } => text.push_bytes(b" skip"),
                    Spell::Fury { file } => {
                        text.push_ascii(b' ');
                        text.push_ascii(file.char() as u8);
                    }
                    Spell::Potion { from, to } | Spell::Charm { from, to } => {
                        text.push_ascii(b' ');
                        from.push_to(text);
                        text.push_ascii(b' ');
                        to.push_to(text);
                    }
                    Spell::Firebird { square } => {
                        text.push_ascii(b' ');
                        square.push_to(text);
                    }
                    Spell::Revenge { squares } => {
                        for sq in squares {
                            text.push_ascii(b' ');
                            sq.push_to(text);
                        }
                    }
                }
            }
            Action::Chat { .. }
            | Action::Seed { .. }
            | Action::Salt { .. }
            | Action::See { .. }
            | Action::Coins { .. }
            | Action::Held { .. }
            | Action::Setup { .. } => {}
        }
    }
}

fn write_placements(f: &mut fmt::Formatter<'_>, placements: &[Placement]) -> fmt::Result {
    placements.iter().try_for_each(|p| write!(f, " {p}"))
}

/// Writes `text` double-quoted with `\"` and `\\` escapes, the quoting of chat
/// messages and tag values.
pub fn write_quoted(f: &mut impl fmt::Write, text: &str) -> fmt::Result {
    f.write_char('"')?;
    // The text between two characters to escape is written in one piece.
    let mut rest = text;
    while let Some(i) = rest.find(['"', '\\']) {
        f.write_str(&rest[..i])?;
        f.write_str(if rest.as_bytes()[i] == b'"' { "\\\"" } else { "\\\\" })?;
        rest = &rest[i + 1..];
    }
    f.write_str(rest)?;
    f.write_char('"')
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.short_line() {
            return f.write_str(line.as_str());
        }
        write!(f, "{} {} {}", self.n, self.actor, self.action)?;
        if let Some(c) = self.clock_ms {
            write!(f, " {{t={c}}}")?;
        }
        Ok(())
    }
}

impl Event {
    /// Appends the event's line as [`Display`](fmt::Display) writes it,
    /// without its line end: what `fmt`, the canonical text and the log
    /// hash write for every event.
    pub fn write_line(&self, out: &mut String) {
        self.write_line_to(out);
    }

    /// [`Event::write_line`] to any sink of text.
    pub(crate) fn write_line_to(&self, out: &mut (impl Ascii + fmt::Write)) {
        if !self.push_short_line(out) {
            let _ = write!(out, "{self}");
        }
    }

    /// The line of an event whose action [`Action::is_short`] admits,
    /// built whole on the stack (at most 13 + 63 + 21 bytes); `None` for
    /// the rest.
    fn short_line(&self) -> Option<Short> {
        let mut text = Short::new();
        self.push_short_line(&mut text).then_some(text)
    }

    /// Pushes the line of an event that [`Event::short_line`] builds and
    /// says whether it was one; for any other event it pushes nothing.
    fn push_short_line(&self, text: &mut impl Ascii) -> bool {
        if !self.action.is_short() {
            return false;
        }
        text.push_u32(self.n.0);
        text.push_ascii(b' ');
        text.push_ascii(match self.actor {
            Actor::Player(side) => side.char() as u8,
            Actor::World => b'@',
        });
        text.push_ascii(b' ');
        self.action.push_short(text);
        if let Some(clock) = self.clock_ms {
            text.push_bytes(b" {t=");
            clock.push_to(text);
            text.push_ascii(b'}');
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_hex32, Path, MAX_PATH};
    use crate::types::Square;

    /// The one-pass reader writes a path's squares over the last path its
    /// slot held and leaves the entries past the length as they were:
    /// equality, hashing and `Debug` must see only the path, or the two
    /// readers' events (and a game read twice) would differ.
    #[test]
    fn a_path_is_its_squares_whatever_lies_past_its_length() {
        use std::hash::{BuildHasher, RandomState};
        let sq = |f, r| Square::new(f, r).expect("a square");
        let path = Path::new(&[sq(2, 2), sq(4, 4), sq(2, 6)]).expect("a path");
        let mut written = Path::PLACEHOLDER;
        for (i, s) in [sq(7, 7); MAX_PATH].into_iter().enumerate() {
            written.set_square(i, s);
        }
        for (i, &s) in path.squares().iter().enumerate() {
            written.set_square(i, s);
        }
        written.set_len(3);
        assert_eq!(written, path);
        let hasher = RandomState::new();
        assert_eq!(hasher.hash_one(written), hasher.hash_one(path));
        assert_eq!(format!("{written:?}"), format!("{path:?}"));
        written.set_square(2, sq(0, 6));
        assert_ne!(written, path, "a square within the length counts");
        written.set_square(2, sq(2, 6));
        written.set_len(2);
        assert_ne!(written, path, "the length counts");
    }

    /// The digit table takes exactly the sixteen lower-case hex digits, at
    /// either place of a byte, and puts the first digit of a pair high.
    #[test]
    fn hex_reads_lower_case_digits_only() {
        for c in (0u8..0x80).map(char::from) {
            let digit = c.to_digit(16).filter(|_| !c.is_ascii_uppercase());
            for at in [0, 1, 62, 63] {
                let mut text = ['0'; 64];
                text[at] = c;
                let text: String = text.iter().collect();
                let read = parse_hex32(&text);
                assert_eq!(read.is_some(), digit.is_some(), "{c:?} at {at}");
                if let (Some(bytes), Some(d)) = (read, digit) {
                    let shift = if at % 2 == 0 { 4 } else { 0 };
                    assert_eq!(u32::from(bytes[at / 2]), d << shift, "{c:?} at {at}");
                    assert_eq!(bytes.iter().filter(|&&b| b != 0).count(), usize::from(d != 0));
                }
            }
        }
        let all: String = "0123456789abcdef".repeat(4);
        let read = parse_hex32(&all).expect("64 digits");
        assert_eq!(read[..8], [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
        assert_eq!(parse_hex32(&all[1..]), None, "63 digits");
        assert_eq!(parse_hex32(&format!("{all}0")), None, "65 digits");
    }

    /// The squares each kind of action names, read from event lines of
    /// every game (and of a view, for `?` squares and `see`).
    #[test]
    fn an_action_names_its_squares_in_writing_order() {
        let squares = |game: &str, perspective: &str, line: &str| -> Vec<String> {
            let text = format!("[Game \"{game}\"]\n[Rules \"1.0\"]\n{perspective}\n{line}\n");
            let parsed = crate::parse(text.as_bytes());
            assert!(parsed.is_ok(), "{line}: {:?}", parsed.diagnostics);
            let action = &parsed.document.game.events[0].action;
            action.squares().iter().map(Square::to_string).collect()
        };
        let view = "[Perspective \"black\"]\n";
        for (game, perspective, line, expected) in [
            ("survival-chess", "", "1 w e2-e4", &["e2", "e4"][..]),
            ("survival-chess", "", "1 w Ke1xf2+", &["e1", "f2"]),
            ("survival-chess", "", "0 w place Ke1 Pe2", &["e1", "e2"]),
            ("survival-chess", "", "0 w remove e2", &["e2"]),
            ("survival-chess", "", "0 w ready", &[]),
            ("survival-chess", "", "1 w resign", &[]),
            ("survival-chess", view, "0 @ setup w Ke1 Qd1", &["e1", "d1"]),
            ("open-world-chess", view, "1 w N?-c6", &["c6"]),
            ("open-world-chess", view, "1 w Nb8-?", &["b8"]),
            ("open-world-chess", view, "1 w ?", &[]),
            ("open-world-chess", view, "1 @ see a4 bN:5", &["a4"]),
            ("open-world-chess", view, "1 w buy drain ?", &[]),
            ("open-world-chess", "", "1 w buy range e2", &["e2"]),
            ("open-world-chess", "", "1 w buy curse", &[]),
            ("open-world-chess", "", "0 @ spawn g5 damage", &["g5"]),
            ("open-world-chess", "", "1 @ damage d4 3", &["d4"]),
            ("open-world-chess", "", "1 @ clone f5", &["f5"]),
            ("great-war-chess", "", "1 w ICb2-b7", &["b2", "b7"]),
            ("great-war-chess", "", "1 w Ad1*d6", &["d1", "d6"]),
            ("great-war-chess", "", "0 w remove Cb2", &["b2"]),
            ("magic-draughts", "", "1 w c3:e5:c7", &["c3", "e5", "c7"]),
            ("magic-draughts", "", "1 w c3-d4", &["c3", "d4"]),
            ("magic-draughts", "", "1 @ reveal e5 2", &["e5"]),
            ("magic-draughts", "", "1 w spell 2 d6 h2", &["d6", "h2"]),
            ("magic-draughts", "", "1 w spell 4 c7", &["c7"]),
            ("magic-draughts", "", "1 w spell 5 a1 c1", &["a1", "c1"]),
            ("magic-draughts", "", "1 w spell 1 c", &[]),
            ("magic-draughts", "", "1 w spell 3 skip", &[]),
        ] {
            assert_eq!(squares(game, perspective, line), expected, "{game}: {line}");
        }
    }
}
