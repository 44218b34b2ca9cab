//! Log hashes: a hash chain over a log's canonical text (docs/hashing.md,
//! "Log hashes"). The header gives the first value; each event folds into
//! the previous one; the last value is the log hash. Every prefix of a log
//! so has a hash of its own, which is how a newer download is checked to
//! extend an older one.
//!
//! What is hashed is the text `fmt` writes: comments and spacing never
//! count, and spellings NOTATION.md takes for the same event (an upper-case
//! square, a `+` left out) hash alike, because moves are first completed to
//! their canonical markers by replaying the log ([`fgn_replay::complete_markers`]).

use fgn_notation::{Action, Color, Event, Game};

use fgn_replay::{view, Completion, Digest, ViewError};

/// The derive_key context of the header's value.
pub const HEADER_CONTEXT: &str = "fgn 2026-12-01 log header v1";
/// The derive_key context of folding one event into the chain.
pub const EVENT_CONTEXT: &str = "fgn 2026-12-01 log event v1";

/// A log's hash chain.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chain {
    /// The value of the header alone.
    pub header: Digest,
    /// The value after each event, in order.
    pub events: Vec<Digest>,
}

impl Chain {
    /// The log hash: the value after the last event (the header's when
    /// there is none).
    pub fn log_hash(&self) -> Digest {
        self.events.last().copied().unwrap_or(self.header)
    }
}

/// The header's value: derive_key over its canonical tag lines, each with
/// its line end, in file order.
pub fn header_value(game: &Game) -> Digest {
    let mut hasher = blake3::Hasher::new_derive_key(HEADER_CONTEXT);
    for tag in &game.header.tags {
        hasher.update(tag.to_string().as_bytes());
        hasher.update(b"\n");
    }
    Digest(*hasher.finalize().as_bytes())
}

/// One step of the chain: derive_key over the previous value's 32 bytes
/// followed by the event's canonical line and its line end.
pub fn fold(previous: Digest, line: &str) -> Digest {
    fold_with(previous, line, &mut Vec::new())
}

/// [`fold`], with `input` as room for the bytes hashed. They are laid out
/// in one buffer and handed to blake3 in one call: three calls (value,
/// line, line end) cost more than copying the line.
fn fold_with(previous: Digest, line: &str, input: &mut Vec<u8>) -> Digest {
    // Deriving the context's key is a compression of its own, as much as
    // hashing a whole move line; it is done once, and each event's hasher
    // starts from the derived key (blake3's `hazmat` does exactly what
    // `new_derive_key` does after it). Copying a hasher made once would
    // copy its whole 1.7 KB stack of chaining values instead.
    use blake3::hazmat::HasherExt;
    static KEY: std::sync::OnceLock<blake3::hazmat::ContextKey> = std::sync::OnceLock::new();
    let mut hasher = blake3::Hasher::new_from_context_key(
        KEY.get_or_init(|| blake3::hazmat::hash_derive_key_context(EVENT_CONTEXT)),
    );
    input.clear();
    input.extend_from_slice(&previous.0);
    input.extend_from_slice(line.as_bytes());
    input.push(b'\n');
    hasher.update(input);
    Digest(*hasher.finalize().as_bytes())
}

/// The chain of `game` as written, its events completed to canonical
/// spelling as far as the log replays. From a rule error on, events are
/// hashed in the spelling the parser gives them (lower-case squares, `P`
/// dropped), since the rules can no longer say which markers are right; the
/// header's own rules decide (a `--rules` file never changes a log hash).
///
/// ```
/// use fgn_notation::parse;
///
/// let game = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b d6-c5\n").document.game;
/// let chain = fgn_tools::loghash::chain(&game);
/// assert_eq!(chain.events.len(), 2);
/// assert_eq!(chain.log_hash(), chain.events[1]);
/// // Each value folds one more event into the one before it.
/// assert_eq!(fgn_tools::loghash::fold(chain.events[0], "1 b d6-c5"), chain.log_hash());
/// ```
pub fn chain(game: &Game) -> Chain {
    chain_completed(game, &fgn_replay::completion(game))
}

/// The chain of `game` with `completion`'s moves written in place of the
/// log's: [`chain`] where the completion is known already, as a summary
/// knows it from the replay that validated the log
/// ([`fgn_replay::validate_completing`]).
pub fn chain_completed(game: &Game, completion: &Completion) -> Chain {
    let mut events = Vec::with_capacity(game.events.len());
    let header = fold_completed(game, completion, |value| events.push(value));
    Chain { header, events }
}

/// The log hash of `game`: [`chain`]'s [`Chain::log_hash`] without the
/// list of every prefix's value.
pub fn log_hash(game: &Game) -> Digest {
    log_hash_completed(game, &fgn_replay::completion(game))
}

/// The log hash of `game` with `completion`'s moves written in place of the
/// log's: [`chain_completed`]'s [`Chain::log_hash`] without the list of
/// every prefix's value, 32 bytes an event that a caller wanting only the
/// last one need not hold (`fgn diff` of two long logs, issue 36).
pub fn log_hash_completed(game: &Game, completion: &Completion) -> Digest {
    let mut last = None;
    let header = fold_completed(game, completion, |value| last = Some(value));
    last.unwrap_or(header)
}

/// Folds every event of `game`, completed, into the chain, handing each
/// value on to `each`; returns the header's value.
fn fold_completed(game: &Game, completion: &Completion, mut each: impl FnMut(Digest)) -> Digest {
    let header = header_value(game);
    let mut value = header;
    let (mut line, mut input) = (String::new(), Vec::new());
    for (i, e) in game.events.iter().enumerate() {
        line.clear();
        match completion.move_at(i) {
            Some(m) => Event {
                action: Action::Move(*m),
                ..e.clone()
            }
            .write_line(&mut line),
            None => e.write_line(&mut line),
        }
        value = fold_with(value, &line, &mut input);
        each(value);
    }
    header
}

/// The chain of `side`'s view of `game` (a view of that side is its own view).
pub fn view_chain(game: &Game, side: Color) -> Result<Chain, ViewError> {
    view(game, side).map(|v| chain(&v))
}
