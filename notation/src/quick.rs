//! The one-pass reader of the common event lines of every game.
//!
//! Nearly every line of a log is one of a few plain forms: a chess move
//! (`12 w Ng1-f3+`), a great-war-chess unit move or shot (`3 b ICb7-b5`,
//! `4 w Ad1*d6`), a draughts move or capture (`5 w c3:e5:c7`), a spell or
//! a reveal (`6 b spell 2 c7 e3`, `6 @ reveal g5 3`), an open-world-chess
//! world event (`7 @ spawn e5 regen`, `7 @ damage d4 3`), a setup line
//! (`0 w place Ke1 Qd1`, `0 b remove Cb2`, `0 w ready`), `end`, `resign`,
//! the result and the seed; each perhaps with a clock (`{t=12.5}`).
//! [`quick_event`] reads such a line in one pass over its bytes, without
//! tokens, nom, UTF-8 checks or string allocation, and builds the event
//! and nothing else.
//!
//! It accepts only lines that the general reader (`parse.rs`) reads to the
//! same event and that [`crate::forms::check_form`] admits for the game and
//! view, which is why the caller skips both: every form is built here only
//! for the games and actors that admit it (a world event only for `@`, a
//! spell only in magic-draughts, a pawn promotion only on a pawn move, a
//! check marker only in survival-chess, the seed only in a full log, ...).
//! It also accepts only lines written exactly as canonical FGN writes their
//! event (a lower-case square, no pawn letter, units in the order `ICA`, a
//! clock without trailing zeros), so that `Parsed::is_formatted` need not
//! write them again to compare them; a debug build asserts it of each.
//! Every other line — a run of spaces, a comment, a quoted chat, a hidden
//! square, an upper-case keyword, any fault — gives `None` and goes to
//! the general reader, so every diagnostic is the general reader's. The
//! tests in `parse.rs` hold the two readers to the same events line by
//! line, and to the same documents and diagnostics on mutated corpus logs
//! of every game.

use crate::action::{
    parse_hex32, Action, Check, ChessMove, Event, Item, MagicNumber, ObjectKind, Outcome, Path, Placement, Reason,
    Seed, Spell, SpellNumber, UnitMove, MAX_PATH,
};
use crate::lines::MAX_LINE_BYTES;
use crate::types::{
    Actor, Clock, Color, Figure, File, GameKind, MoveNumber, PieceKind, Square, UnitKind, UnitSet, MAX_BOARD_DIM,
};

/// The event line of `game` at the start of `b` (the rest of a log) in a
/// log written from `view`'s point of view, read in one pass up to its line
/// feed: the event, pushed onto `events`, and the byte offset of its action
/// and the offset of the line feed; or `None`, with nothing pushed, for any
/// line this reader leaves to the general one (see the module
/// documentation). The reader finds the line's end itself, so the caller
/// need not search for it first; a line without a line feed (torn), or
/// ending in CR LF, is left to the general reader.
///
/// Every event but a chess move is written where it is stored: a copy of
/// [`SLOT`] is pushed and its fields are filled in place, a draughts path
/// square by square. Handing an event back by value cost more than
/// reading it: an event or action assembled field by field on the stack
/// and then copied whole stalled the processor at every copy (a wide load
/// of bytes just stored one by one, which the store buffer cannot
/// forward), up to three times a line; `perf` put half of a draughts
/// log's parse time there. A chess move comes back in registers instead.
#[inline(always)]
pub(crate) fn quick_event(
    b: &[u8],
    game: GameKind,
    view: Option<Color>,
    events: &mut Vec<Event>,
) -> Option<(usize, usize)> {
    let (n, i) = move_number(b)?;
    let actor = match b.get(i..i + 2)? {
        [b'w', b' '] => Actor::Player(Color::White),
        [b'b', b' '] => Actor::Player(Color::Black),
        [b'@', b' '] => Actor::World,
        _ => return None,
    };
    let start = i + 2;
    if actor != Actor::World && matches!(game, GameKind::SurvivalChess | GameKind::OpenWorldChess) && is_move(b, start)
    {
        // A chess move, nearly every line of a chess log, comes back in
        // registers and is pushed once: filling a slot in place measured
        // 5% slower for it (survival-chess 8x8 parse 302 MB/s against 317).
        let (m, end) = chess_move(b, start, game)?;
        let (clock_ms, line_end) = clock(b, end)?;
        events.push(Event {
            n: MoveNumber(n),
            actor,
            action: Action::Move(m),
            clock_ms,
        });
        return Some((start, line_end));
    }
    let base = events.len();
    // Nearly every other line of a draughts log is a move: its slot holds
    // one already, whose squares the move's are written over.
    events.push(match game {
        GameKind::MagicDraughts => DRAUGHTS_SLOT,
        _ => SLOT,
    });
    let line_end = events.last_mut().and_then(|event| {
        event.n = MoveNumber(n);
        event.actor = actor;
        fill(event, b, start, game, view)
    });
    match line_end {
        Some(line_end) => Some((start, line_end)),
        None => {
            events.truncate(base);
            None
        }
    }
}

/// What [`quick_event`] pushes before it reads the line into it: a
/// constant, so that the push copies it whole from a wide load of bytes
/// not just stored.
const SLOT: Event = Event {
    n: MoveNumber(0),
    actor: Actor::World,
    action: Action::Resign,
    clock_ms: None,
};

/// [`SLOT`] for a draughts move.
const DRAUGHTS_SLOT: Event = Event {
    action: Action::Draughts {
        path: Path::PLACEHOLDER,
        capture: false,
    },
    ..SLOT
};

/// Reads the action and clock of the line `b`, whose action starts at
/// `start`, into `event` (its number and actor already set), and returns
/// the offset of the line feed; `None` for a line left to the general
/// reader, with `event` then in any state.
#[inline(always)]
fn fill(event: &mut Event, b: &[u8], start: usize, game: GameKind, view: Option<Color>) -> Option<usize> {
    let end = if event.actor != Actor::World && is_move(b, start) {
        // A move line is never longer than FGN reads: the move number, the
        // move (a draughts move has at most `MAX_PATH` squares) and the
        // clock (see `clock`) each have a bound. A chess move was read by
        // `quick_event` itself.
        match game {
            GameKind::MagicDraughts => draughts_move(b, start, &mut event.action)?,
            GameKind::GreatWarChess => {
                let (action, end) = unit_move(b, start)?;
                event.action = action;
                end
            }
            _ => return None,
        }
    } else {
        let (action, end) = match event.actor {
            Actor::Player(_) => player_action(b, start, game)?,
            Actor::World => world_action(b, start, game, view)?,
        };
        event.action = action;
        end
    };
    let (clock_ms, line_end) = clock(b, end)?;
    // A line longer than FGN reads is the general reader's to report.
    if line_end > MAX_LINE_BYTES {
        return None;
    }
    event.clock_ms = clock_ms;
    Some(line_end)
}

/// Whether the token at `i` is a move: a move token holds a digit and a
/// keyword none, so a move starts with a capital letter (a piece or units)
/// or with a file letter and a rank.
#[inline(always)]
fn is_move(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_uppercase) || b.get(i + 1).is_some_and(u8::is_ascii_digit)
}

/// The move number at the start of `b` and the offset past the space after
/// it: one to nine digits (which cannot overflow), no leading zero; longer
/// numbers are left to the general reader.
#[inline(always)]
fn move_number(b: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    loop {
        let c = *b.get(i)?;
        if c == b' ' {
            break;
        }
        let digit = c.wrapping_sub(b'0');
        if digit > 9 || i == 9 {
            return None;
        }
        n = n * 10 + u32::from(digit);
        i += 1;
    }
    if i == 0 || (i > 1 && b[0] == b'0') {
        return None;
    }
    Some((n, i + 1))
}

/// The longest clock this reader takes: twelve digits of seconds, the
/// point and three of milliseconds ([`crate::types::MAX_CLOCK_SECONDS`]),
/// with room to spare.
const MAX_CLOCK_CHARS: usize = 24;

/// What follows the action, which ends at `i`: the line feed, or one space
/// and a clock `{t=SECONDS}` as [`Clock`]'s `FromStr` reads it and then the
/// line feed. The clock (if any) and the offset of the line feed, or `None`
/// for anything else.
#[inline(always)]
fn clock(b: &[u8], i: usize) -> Option<(Option<Clock>, usize)> {
    match b.get(i) {
        Some(b'\n') => Some((None, i)),
        Some(b' ') => {
            let rest = b[i + 1..].strip_prefix(b"{t=")?;
            // A clock holds digits and points, so any other byte (a space,
            // a comment, a second token) makes it the general reader's,
            // which splits the line there.
            let len = rest.iter().position(|&c| !(c.is_ascii_digit() || c == b'.'))?;
            // A longer clock (leading zeros) is the general reader's, which
            // keeps every line this reader takes short; so is a fraction
            // with a trailing zero (`12.50`, `3.0`), which canonical FGN
            // leaves out: every line this reader takes is canonical.
            if len > MAX_CLOCK_CHARS || rest.get(len..len + 2) != Some(b"}\n") {
                return None;
            }
            if rest[..len].last() == Some(&b'0') && rest[..len].contains(&b'.') {
                return None;
            }
            let clock = std::str::from_utf8(&rest[..len]).ok()?.parse::<Clock>().ok()?;
            Some((Some(clock), i + 4 + len + 1))
        }
        Some(_) | None => None,
    }
}

/// The token from `i` to the next space or line feed.
#[inline(always)]
fn token(b: &[u8], i: usize) -> &[u8] {
    let rest = b.get(i..).unwrap_or(&[]);
    let len = rest.iter().position(|&c| c == b' ' || c == b'\n').unwrap_or(rest.len());
    &rest[..len]
}

/// Whether a token ends at `i`: a space or the line feed follows.
#[inline(always)]
fn ends(b: &[u8], i: usize) -> bool {
    matches!(b.get(i), Some(b' ' | b'\n'))
}

/// Whether another token of a list starts at `i`: a space and then
/// something other than a clock's `{`.
#[inline(always)]
fn more(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&b' ') && b.get(i + 1).is_some_and(|&c| c != b'{')
}

/// A square token at `i` (just the square, then a space or the end) and
/// the offset past it.
#[inline(always)]
fn square_token(b: &[u8], i: usize) -> Option<(Square, usize)> {
    let (sq, len) = quick_square(b, i)?;
    ends(b, i + len).then_some((sq, i + len))
}

/// `i` past one space, if a space is at `i`.
#[inline(always)]
fn space(b: &[u8], i: usize) -> Option<usize> {
    (b.get(i) == Some(&b' ')).then_some(i + 1)
}

/// A one-digit number token at `i` and the offset past it: the general
/// reader's small numbers have no leading zero, so the one-digit ones are
/// exactly the tokens of one digit.
#[inline(always)]
fn digit_token(b: &[u8], i: usize) -> Option<(u8, usize)> {
    let d = b.get(i)?.wrapping_sub(b'0');
    (d <= 9 && ends(b, i + 1)).then_some((d, i + 1))
}

/// A player's keyword action at `i` (a move is read by [`quick_event`]
/// itself) and the offset past it.
#[inline(always)]
fn player_action(b: &[u8], i: usize, game: GameKind) -> Option<(Action, usize)> {
    let word = token(b, i);
    let end = i + word.len();
    let setup = game.has_setup();
    Some(match word {
        b"resign" => (Action::Resign, end),
        b"ready" if setup => (Action::Ready, end),
        b"end" if matches!(game, GameKind::OpenWorldChess | GameKind::GreatWarChess) => (Action::End, end),
        b"place" if setup => placements(b, space(b, end)?, game)?,
        b"remove" if setup => remove(b, space(b, end)?, game)?,
        b"buy" if game == GameKind::OpenWorldChess => buy(b, space(b, end)?)?,
        b"spell" if game == GameKind::MagicDraughts => spell(b, space(b, end)?)?,
        _ => return None,
    })
}

/// A world event at `i` and the offset past it.
#[inline]
fn world_action(b: &[u8], i: usize, game: GameKind, view: Option<Color>) -> Option<(Action, usize)> {
    // Nearly every world event of magic-draughts is a reveal, and nearly
    // every other line of it a move: the reveal is matched on its own,
    // without measuring the keyword first.
    if game == GameKind::MagicDraughts && b.get(i..i + 7) == Some(b"reveal ") {
        let (square, at) = square_token(b, i + 7)?;
        let (number, at) = digit_token(b, space(b, at)?)?;
        return Some((
            Action::Reveal {
                square,
                number: MagicNumber::new(number)?,
            },
            at,
        ));
    }
    let word = token(b, i);
    let at = space(b, i + word.len())?;
    Some(match (word, game) {
        (b"spawn", GameKind::OpenWorldChess) => {
            let (square, at) = square_token(b, at)?;
            let name = token(b, space(b, at)?);
            let object = ObjectKind::ALL.into_iter().find(|k| k.name().as_bytes() == name)?;
            (Action::Spawn { square, object }, at + 1 + name.len())
        }
        (b"damage", GameKind::OpenWorldChess) => {
            let (square, at) = square_token(b, at)?;
            let roll = token(b, space(b, at)?);
            let amount = damage_roll(roll)?;
            (Action::Damage { square, amount }, at + 1 + roll.len())
        }
        (b"clone", GameKind::OpenWorldChess) => {
            let (square, at) = square_token(b, at)?;
            (Action::Clone { square }, at)
        }
        (b"result", _) => {
            let outcome_text = token(b, at);
            let outcome = [Outcome::WhiteWins, Outcome::BlackWins, Outcome::Draw, Outcome::Abort]
                .into_iter()
                .find(|o| o.text().as_bytes() == outcome_text)?;
            let at = space(b, at + outcome_text.len())?;
            let name = token(b, at);
            let reason = Reason::ALL.into_iter().find(|r| r.name().as_bytes() == name)?;
            (Action::Result { outcome, reason }, at + name.len())
        }
        // A player's view never shows the seed: `check_form` refuses it there.
        (b"seed", _) if game.has_seed() && view.is_none() => {
            let hex = token(b, at);
            let seed = parse_hex32(std::str::from_utf8(hex).ok()?)?;
            (Action::Seed { seed: Seed(seed) }, at + hex.len())
        }
        (b"timeout", _) => {
            let color = match token(b, at) {
                b"w" => Color::White,
                b"b" => Color::Black,
                _ => return None,
            };
            (Action::Timeout { color }, at + 1)
        }
        _ => return None,
    })
}

/// A damage roll as the general reader's small numbers read it: 1 to 255,
/// no leading zero.
#[inline]
fn damage_roll(t: &[u8]) -> Option<u8> {
    if t.is_empty() || t.len() > 3 || t[0] == b'0' || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = t.iter().fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
    u8::try_from(value).ok()
}

/// The list of a `place` line from `i`: one or more pieces (chess) or
/// units (great-war-chess) and their squares, each a token of its own.
fn placements(b: &[u8], mut i: usize, game: GameKind) -> Option<(Action, usize)> {
    // Room for every token up to the line end or a clock, so that the list
    // is allocated once.
    let rest = &b[i..];
    let room = rest
        .iter()
        .take_while(|&&c| c != b'\n' && c != b'{')
        .filter(|&&c| c == b' ')
        .count();
    let mut placements = Vec::with_capacity(room + 1);
    loop {
        let letter = char::from(*b.get(i)?);
        let figure = match game {
            GameKind::GreatWarChess => Figure::Unit(UnitKind::from_char(letter)?),
            _ => Figure::Piece(PieceKind::from_char(letter)?),
        };
        let (square, end) = square_token(b, i + 1)?;
        placements.push(Placement { figure, square });
        if !more(b, end) {
            return Some((Action::Place { placements }, end));
        }
        i = end + 1;
    }
}

/// What a `remove` takes back from `i`: a square in survival-chess, a unit
/// and its square in great-war-chess (where the letter cannot be read as
/// a square's file, since a letter follows it).
#[inline]
fn remove(b: &[u8], i: usize, game: GameKind) -> Option<(Action, usize)> {
    if game == GameKind::GreatWarChess {
        let unit = UnitKind::from_char(char::from(*b.get(i)?))?;
        let (square, end) = square_token(b, i + 1)?;
        return Some((
            Action::Remove {
                unit: Some(unit),
                square,
            },
            end,
        ));
    }
    let (square, end) = square_token(b, i)?;
    Some((Action::Remove { unit: None, square }, end))
}

/// A purchase from `i`: `curse`, or an item and its target square (a
/// hidden target `?` is a view's and left to the general reader).
#[inline]
fn buy(b: &[u8], i: usize) -> Option<(Action, usize)> {
    let word = token(b, i);
    let end = i + word.len();
    let item = match word {
        b"curse" => {
            return Some((
                Action::Buy {
                    item: Item::Curse,
                    square: None,
                    hidden: false,
                },
                end,
            ))
        }
        b"range" => Item::Range,
        b"hp" => Item::Hp,
        b"drain" => Item::Drain,
        _ => return None,
    };
    let (square, end) = square_token(b, space(b, end)?)?;
    Some((
        Action::Buy {
            item,
            square: Some(square),
            hidden: false,
        },
        end,
    ))
}

/// A spell from `i`: its number and what it names.
fn spell(b: &[u8], i: usize) -> Option<(Action, usize)> {
    let (digit, at) = digit_token(b, i)?;
    let number = SpellNumber::new(digit)?;
    if more(b, at) && token(b, at + 1) == b"skip" {
        return Some((Action::Spell(Spell::Skip { number }), at + 5));
    }
    let two_squares = |at: usize| -> Option<(Square, Square, usize)> {
        let (from, at) = square_token(b, space(b, at)?)?;
        let (to, at) = square_token(b, space(b, at)?)?;
        Some((from, to, at))
    };
    Some(match digit {
        1 => {
            let at = space(b, at)?;
            let letter = *b.get(at)?;
            // An upper-case file is not canonical: the general reader's.
            if !letter.is_ascii_lowercase() {
                return None;
            }
            let file = File::from_char(char::from(letter))?;
            if !ends(b, at + 1) {
                return None;
            }
            (Action::Spell(Spell::Fury { file }), at + 1)
        }
        2 => {
            let (from, to, at) = two_squares(at)?;
            (Action::Spell(Spell::Potion { from, to }), at)
        }
        3 => {
            let (from, to, at) = two_squares(at)?;
            (Action::Spell(Spell::Charm { from, to }), at)
        }
        4 => {
            let (square, at) = square_token(b, space(b, at)?)?;
            (Action::Spell(Spell::Firebird { square }), at)
        }
        _ => {
            // Koschei's Revenge names any number of squares, none included.
            let (mut squares, mut at) = (Vec::new(), at);
            while more(b, at) {
                let (square, end) = square_token(b, at + 1)?;
                squares.push(square);
                at = end;
            }
            (Action::Spell(Spell::Revenge { squares }), at)
        }
    })
}

/// A chess move token of `game` at `i` with both squares (`Ng1xf3+`,
/// `e7-e8=Q#`) and the offset past it: a promotion only on a pawn move, a
/// check marker only in survival-chess, no hidden square.
#[inline(always)]
fn chess_move(b: &[u8], mut i: usize, game: GameKind) -> Option<(ChessMove, usize)> {
    // A capital letter is the piece, as `letters_then_square` splits a token;
    // a pawn move has none.
    let piece = match *b.get(i)? {
        // A pawn's letter is left out in canonical FGN, so `Pe2-e4` is the
        // general reader's.
        b'P' => return None,
        c if c.is_ascii_uppercase() => {
            i += 1;
            PieceKind::from_char(char::from(c))?
        }
        _ => PieceKind::Pawn,
    };
    let (from, len) = quick_square(b, i)?;
    i += len;
    let capture = match b.get(i)? {
        b'-' => false,
        b'x' => true,
        _ => return None,
    };
    let (to, len) = quick_square(b, i + 1)?;
    i += 1 + len;
    let mut promotion = None;
    if b.get(i) == Some(&b'=') {
        let p = PieceKind::from_char(char::from(*b.get(i + 1)?))?;
        if !p.is_promotion_target() || piece != PieceKind::Pawn {
            return None;
        }
        promotion = Some(p);
        i += 2;
    }
    let check = match b.get(i) {
        Some(b'+') => Some(Check::Check),
        Some(b'#') => Some(Check::Mate),
        _ => None,
    };
    if check.is_some() {
        if game != GameKind::SurvivalChess {
            return None;
        }
        i += 1;
    }
    if !ends(b, i) {
        return None;
    }
    let m = ChessMove {
        piece,
        from: Some(from),
        to: Some(to),
        capture,
        promotion,
        check,
    };
    Some((m, i))
}

/// A great-war-chess unit move or shot token at `i` (`ICb2-b7`, `Ib2xb3`,
/// `Ad1*d6`) and the offset past it. As the general reader splits it, the
/// letters before the first digit are the units and then the square's
/// file: one to three distinct letters of `I C A`, and only `A` shoots.
#[inline(always)]
fn unit_move(b: &[u8], i: usize) -> Option<(Action, usize)> {
    let mut kinds = [UnitKind::Infantry; 3];
    let mut count = 0;
    let mut at = i;
    // The units end where the letter after the next one is no letter: that
    // next letter is the file of the square.
    while b.get(at + 1).is_some_and(u8::is_ascii_alphabetic) {
        let kind = match b[at] {
            b'I' => UnitKind::Infantry,
            b'C' => UnitKind::Cavalry,
            b'A' => UnitKind::Artillery,
            _ => return None,
        };
        // Canonical FGN writes the units in the order I, C, A; a repeated
        // letter or another order is the general reader's.
        if count > 0 && kinds[count - 1] as u8 >= kind as u8 {
            return None;
        }
        kinds[count] = kind;
        count += 1;
        at += 1;
    }
    let units = UnitSet::new(&kinds[..count])?;
    let (from, len) = quick_square(b, at)?;
    at += len;
    let sep = *b.get(at)?;
    let (to, len) = quick_square(b, at + 1)?;
    at += 1 + len;
    if !ends(b, at) {
        return None;
    }
    let action = match sep {
        b'-' | b'x' => Action::March(UnitMove {
            units,
            from,
            to,
            capture: sep == b'x',
        }),
        b'*' if count == 1 && kinds[0] == UnitKind::Artillery => Action::Shot { from, to },
        _ => return None,
    };
    Some((action, at))
}

/// A draughts move or capture token at `i` (`c3-d4`, `c3:e5:c7`), read
/// into `action`, and the offset past it: a move has two squares, a
/// capture two to [`MAX_PATH`]. The path is written square by square
/// where the event is stored (see [`quick_event`]).
#[inline(always)]
fn draughts_move(b: &[u8], i: usize, action: &mut Action) -> Option<usize> {
    let (first, len) = quick_square(b, i)?;
    let mut at = i + len;
    let sep = *b.get(at)?;
    if sep != b'-' && sep != b':' {
        return None;
    }
    let capture = sep == b':';
    // The slot holds a draughts move (`DRAUGHTS_SLOT`), written over here.
    let Action::Draughts { path, capture: marked } = action else {
        return None;
    };
    *marked = capture;
    path.set_square(0, first);
    let mut count = 1;
    loop {
        let (sq, len) = quick_square(b, at + 1)?;
        if count == MAX_PATH {
            return None;
        }
        path.set_square(count, sq);
        count += 1;
        at += 1 + len;
        match b.get(at) {
            Some(&c) if c == sep => {}
            Some(b' ' | b'\n') => break,
            Some(_) | None => return None,
        }
    }
    if !capture && count != 2 {
        return None;
    }
    path.set_len(count);
    Some(at)
}

/// The square at byte `i` of `b` as [`Square::read_prefix`] reads it, in
/// its canonical spelling (a lower-case file letter, a rank from 1 to 26
/// without a leading zero: an upper-case file is the general reader's),
/// and its length in bytes.
#[inline(always)]
pub(crate) fn quick_square(b: &[u8], i: usize) -> Option<(Square, usize)> {
    let file = *b.get(i)?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let d1 = b.get(i + 1)?.wrapping_sub(b'1');
    if d1 > 8 {
        return None;
    }
    let (rank, len) = match b.get(i + 2).map(|c| c.wrapping_sub(b'0')) {
        Some(d2) if d2 <= 9 => {
            if b.get(i + 3).is_some_and(u8::is_ascii_digit) {
                return None;
            }
            ((d1 + 1) * 10 + d2, 3)
        }
        _ => (d1 + 1, 2),
    };
    if rank > MAX_BOARD_DIM {
        return None;
    }
    Some((Square::new(file - b'a', rank - 1)?, len))
}
