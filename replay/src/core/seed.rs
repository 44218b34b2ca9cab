//! Provable fairness: every random outcome of a game derived from its world
//! seed, so that anyone holding the revealed seed can re-derive them.
//!
//! The scheme (documented with test vectors in docs/notation.md, "Seeds and
//! randomness"):
//!
//! - The commitment published in the header is `blake3(seed)`.
//! - A game's key is `blake3::derive_key(CONTEXT, seed)`; the context string
//!   separates FGN's use of the seed from any other. When a player has
//!   given a salt (`0 w salt <hex>`), the key is instead
//!   `blake3::derive_key(SALTED_CONTEXT, seed ‖ len(w) ‖ w ‖ len(b) ‖ b)`,
//!   each salt preceded by its length in one byte and an absent salt
//!   written as length 0 (docs/notation.md §12.9): a server that fixed its
//!   seed before the salts were given can no longer choose the outcomes.
//! - Each draw has a label naming what it decides (for example
//!   `magic-draughts/numbers/w/11`). Its bytes are the XOF output of
//!   `blake3::keyed_hash(key, label)`, read as little-endian `u64` words.
//! - A uniform integer below `n` takes the first word `x` below the largest
//!   multiple of `n` that fits in a `u64` and returns `x % n` (rejection
//!   sampling, so no value is more likely than another).
//!
//! Knowing the commitment does not help predict a draw: that would need a
//! preimage of blake3.

use fgn_notation::{ByColor, Salt};

/// The blake3 `derive_key` context of FGN world randomness.
pub const CONTEXT: &str = "fgn v1 2026-11-29 world randomness";

/// The blake3 `derive_key` context of the game key of a salted game: one
/// in which at least one player has given a salt.
pub const SALTED_CONTEXT: &str = "fgn v1 2026-12-01 salted world randomness";

/// The players' salts, as the log has given them so far (`None`: that
/// player has given none).
pub type Salts = ByColor<Option<Salt>>;

/// Whether either player has given a salt.
pub fn is_salted(salts: &Salts) -> bool {
    salts.white.is_some() || salts.black.is_some()
}

/// The key material of a salted game key: the seed, then white's salt and
/// black's, each after its length in one byte (0 for a salt not given), so
/// that no two different pairs of salts give the same bytes.
pub fn salted_key_material(seed: &[u8; 32], salts: &Salts) -> Vec<u8> {
    let mut material = Vec::with_capacity(32 + 2 + 2 * fgn_notation::action::MAX_SALT_BYTES);
    material.extend_from_slice(seed);
    for salt in [salts.white, salts.black] {
        let bytes = salt.as_ref().map_or(&[][..], Salt::bytes);
        // A salt holds at most 64 bytes, so its length fits one byte.
        material.push(bytes.len() as u8);
        material.extend_from_slice(bytes);
    }
    material
}

/// The game key every draw is made with: from the seed alone without
/// salts, otherwise from the seed and both salts under [`SALTED_CONTEXT`].
pub fn game_key(seed: &[u8; 32], salts: &Salts) -> [u8; 32] {
    if is_salted(salts) {
        blake3::derive_key(SALTED_CONTEXT, &salted_key_material(seed, salts))
    } else {
        blake3::derive_key(CONTEXT, seed)
    }
}

/// What a revealed seed's outcomes come from, for messages: "the revealed
/// seed", or the seed with the salts that went into the key.
pub fn origin(salts: &Salts) -> &'static str {
    match (salts.white.is_some(), salts.black.is_some()) {
        (false, false) => "the revealed seed",
        (true, false) => "the revealed seed with white's salt",
        (false, true) => "the revealed seed with black's salt",
        (true, true) => "the revealed seed with both players' salts",
    }
}

/// The commitment to a seed, as `[SeedCommit "blake3:<hex>"]` carries it.
pub fn commitment(seed: &[u8; 32]) -> [u8; 32] {
    *blake3::hash(seed).as_bytes()
}

/// Why a game whose header commits to no seed has no world seed for a
/// salt to add to (completing "a salt adds to the world seed, and ...").
pub const NO_COMMITMENT: &str = "the header has no `SeedCommit`: no world seed was committed to before the game";

/// Checks a revealed seed against the header's commitment: the one place
/// that says what a revealed seed must satisfy before its draws are checked.
pub fn check_revealed(
    seed: &[u8; 32],
    commit: Option<[u8; 32]>,
    seen_before: bool,
) -> Result<(), crate::core::error::Fault> {
    use crate::core::error::{Fault, Rule};
    if seen_before {
        return Err(Fault::new(Rule::Seed, "the seed is revealed already"));
    }
    let Some(commit) = commit else {
        return Err(Fault::new(
            Rule::Seed,
            "the header has no `SeedCommit` to check the revealed seed against",
        ));
    };
    if commitment(seed) != commit {
        return Err(Fault::new(
            Rule::Seed,
            "the seed does not match the header's SeedCommit (blake3 of the seed)",
        ));
    }
    Ok(())
}

/// The events that give `salts`, as a log begins with them: white's
/// `0 w salt <hex>` first, then black's.
pub fn salt_events(salts: &Salts) -> Vec<fgn_notation::Event> {
    salts
        .iter()
        .filter_map(|(color, salt)| {
            salt.map(|salt| fgn_notation::Event {
                n: fgn_notation::MoveNumber(0),
                actor: fgn_notation::Actor::Player(color),
                action: fgn_notation::Action::Salt { salt: Box::new(salt) },
                clock_ms: None,
            })
        })
        .collect()
}

/// The draws of one game.
#[derive(Clone, Debug)]
pub struct Draws {
    key: [u8; 32],
}

impl Draws {
    /// The draws of the game whose world seed is `seed`, without salts.
    pub fn new(seed: &[u8; 32]) -> Draws {
        Draws::salted(seed, &Salts::default())
    }

    /// The draws of the game whose world seed is `seed` and whose players
    /// gave `salts` (none given: the same as [`Draws::new`]).
    pub fn salted(seed: &[u8; 32], salts: &Salts) -> Draws {
        Draws::from_key(game_key(seed, salts))
    }

    /// The draws made with a game key (see [`game_key`]).
    pub fn from_key(key: [u8; 32]) -> Draws {
        Draws { key }
    }

    /// The game key.
    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// A uniform integer in `0..n` for the draw named `label` (`n` > 0).
    pub fn below(&self, label: &str, n: u64) -> u64 {
        assert!(n > 0, "a draw needs a non-empty range");
        let zone = acceptance_limit(n);
        let mut reader = blake3::Hasher::new_keyed(&self.key)
            .update(label.as_bytes())
            .finalize_xof();
        loop {
            let mut word = [0u8; 8];
            reader.fill(&mut word);
            let x = u64::from_le_bytes(word);
            if x <= zone {
                return x % n;
            }
        }
    }

    /// `items` shuffled by Fisher–Yates, the draw for position `i` (from the
    /// last down to 1) labelled `{label}/{i}`.
    pub fn shuffle<T>(&self, label: &str, items: &mut [T]) {
        // The labels share their prefix: it is written once, and only the
        // position after it each time. The seed check of a magic-draughts
        // game shuffles its numbers again, and formatting every label was a
        // tenth of replaying the game.
        let mut name = String::with_capacity(label.len() + 21);
        name.push_str(label);
        name.push('/');
        let prefix = name.len();
        for i in (1..items.len()).rev() {
            name.truncate(prefix);
            push_decimal(&mut name, i as u64);
            let j = self.below(&name, i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The largest word a draw in `0..n` accepts (`n` > 0): one below the
/// largest multiple of `n` that fits in 2^64 words. Words above it would
/// make the smallest results more likely, so they are drawn again.
fn acceptance_limit(n: u64) -> u64 {
    // 2^64 mod n, computed without 2^64: (u64::MAX mod n + 1) mod n.
    u64::MAX - (u64::MAX % n + 1) % n
}

/// Appends `n` in decimal, as `Display` writes it, without the formatting
/// machinery (draw labels are written for most events of the games with
/// world randomness).
pub(crate) fn push_decimal(out: &mut String, n: u64) {
    let digits = Decimal::of(n);
    out.push_str(digits.as_str());
}

/// The decimal digits of a number, on the stack: what draw labels are
/// written with, here and in open-world-chess's spawn names.
pub(crate) struct Decimal {
    digits: [u8; 20],
    at: usize,
}

impl Decimal {
    /// The digits of `n`, as `Display` writes them.
    pub(crate) fn of(mut n: u64) -> Decimal {
        let mut d = Decimal {
            digits: [0; 20],
            at: 20,
        };
        loop {
            d.at -= 1;
            d.digits[d.at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                return d;
            }
        }
    }

    /// The digits as bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.digits[self.at..]
    }

    /// The digits as text.
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).expect("ASCII digits")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_in_range_and_depend_on_the_label() {
        let d = Draws::new(&[7; 32]);
        let a: Vec<u64> = (0..50).map(|i| d.below(&format!("x/{i}"), 6)).collect();
        assert!(a.iter().all(|&v| v < 6));
        assert!(a.iter().any(|&v| v != a[0]), "fifty draws that all agree: {a:?}");
        assert_eq!(d.below("x/3", 6), a[3], "a draw is a pure function of seed and label");
        assert_eq!(d.below("any", 1), 0);
    }

    #[test]
    fn decimals_are_written_as_display_writes_them() {
        for n in [
            0,
            1,
            9,
            10,
            99,
            100,
            12_345,
            u64::from(u32::MAX),
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut s = String::from("x/");
            push_decimal(&mut s, n);
            assert_eq!(s, format!("x/{n}"));
        }
    }

    #[test]
    fn a_shuffle_draws_under_the_labels_it_documents() {
        // The same as drawing `{label}/{i}` by hand, from the last position down.
        let d = Draws::new(&[3; 32]);
        let mut shuffled: Vec<u32> = (0..12).collect();
        d.shuffle("magic-draughts/numbers/b", &mut shuffled);
        let mut by_hand: Vec<u32> = (0..12).collect();
        for i in (1..by_hand.len()).rev() {
            let j = d.below(&format!("magic-draughts/numbers/b/{i}"), i as u64 + 1) as usize;
            by_hand.swap(i, j);
        }
        assert_eq!(shuffled, by_hand);
    }

    #[test]
    fn a_shuffle_is_a_permutation() {
        let d = Draws::new(&[1; 32]);
        let mut v: Vec<u32> = (0..12).collect();
        d.shuffle("s", &mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..12).collect::<Vec<_>>());
        assert_ne!(v, (0..12).collect::<Vec<_>>());
    }

    /// The test vectors of docs/notation.md ("Seeds and randomness"), which
    /// an independent Python implementation (the `blake3` package) agrees with.
    #[test]
    fn the_documented_test_vectors_hold() {
        let zero = [0u8; 32];
        let inc: [u8; 32] = std::array::from_fn(|i| i as u8);
        let hex = |b: [u8; 32]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        assert_eq!(
            hex(commitment(&zero)),
            "2ada83c1819a5372dae1238fc1ded123c8104fdaa15862aaee69428a1820fcda"
        );
        assert_eq!(
            hex(commitment(&inc)),
            "e528e95798037df410543d9f31e396ecdd458d71b157d6014398bae32fb56c65"
        );
        let (z, i) = (Draws::new(&zero), Draws::new(&inc));
        assert_eq!((z.below("test/1", 6), i.below("test/1", 6)), (3, 4));
        assert_eq!(
            (z.below("test/2", 1_000_000_007), i.below("test/2", 1_000_000_007)),
            (174_019_809, 269_348_355)
        );
        assert_eq!(z.below("test/4", (1 << 63) + 1), 7_864_252_499_285_076_104);
        assert_eq!(i.below("test/4", (1 << 63) + 1), 5_021_441_709_813_597_826);
        let mut a = [1u8, 2, 2, 3, 3, 4, 4, 5, 5, 0, 0, 0];
        let mut b = a;
        z.shuffle("magic-draughts/numbers/w", &mut a);
        i.shuffle("magic-draughts/numbers/w", &mut b);
        assert_eq!(a, [5, 1, 5, 0, 4, 3, 4, 0, 3, 0, 2, 2]);
        assert_eq!(b, [2, 0, 3, 5, 1, 0, 3, 0, 4, 5, 2, 4]);
    }

    /// The words a draw accepts are exactly the largest multiple of `n`
    /// words that fits: none more (the smallest results would be more
    /// likely) and none fewer (a draw would be redrawn for nothing).
    #[test]
    fn a_draw_accepts_the_largest_multiple_of_its_range() {
        for n in [
            1u64,
            2,
            3,
            5,
            6,
            7,
            10,
            1 << 32,
            (1 << 63) - 1,
            1 << 63,
            (1 << 63) + 1,
            u64::MAX,
        ] {
            let accepted = u128::from(acceptance_limit(n)) + 1;
            assert_eq!(accepted % u128::from(n), 0, "n = {n}");
            assert!(
                accepted + u128::from(n) > 1 << 64,
                "n = {n}: another {n} words would fit"
            );
        }
    }
}
