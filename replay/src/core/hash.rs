//! State hashes: blake3 over a documented, stable byte encoding of a game's
//! state (never its Debug or JSON text), in the manner of jj's
//! `content_hash.rs`.
//!
//! The encoding walks serde's data model, so every state type hashes by the
//! same rules without code of its own; docs/hashing.md specifies the bytes.
//! Each value starts with a one-byte tag, integers are widened to 8 bytes
//! little-endian, and struct fields and enum variants carry their names, so
//! that no two different values encode alike and a field added to a type
//! changes the digest instead of shifting the others. Floats are refused:
//! no state holds one, and their equality is not byte equality.

use std::fmt;

use serde::ser::{self, Serialize};

use super::progress::Progress;

/// The derive_key context of state hashes (docs/hashing.md).
pub const STATE_CONTEXT: &str = "fgn 2026-12-01 state hash v1";
/// The derive_key context of knowledge hashes: what one viewer knows.
pub const KNOWLEDGE_CONTEXT: &str = "fgn 2026-12-01 knowledge hash v1";

/// The tags that open each encoded value.
mod tag {
    pub const UNIT: u8 = 0x00;
    pub const SOME: u8 = 0x01;
    pub const BOOL: u8 = 0x02;
    pub const UNSIGNED: u8 = 0x03;
    pub const SIGNED: u8 = 0x04;
    pub const STRING: u8 = 0x05;
    pub const BYTES: u8 = 0x06;
    pub const SEQ: u8 = 0x07;
    pub const MAP: u8 = 0x08;
    pub const STRUCT: u8 = 0x09;
    pub const VARIANT: u8 = 0x0A;
}

/// A 32-byte blake3 digest, printed `blake3:<64 hex>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("blake3:")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Digest {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why a value has no canonical encoding (a float, or a sequence of
/// unknown length): a bug in a state type, never a property of the input.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EncodeError(String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EncodeError {}

impl ser::Error for EncodeError {
    fn custom<T: fmt::Display>(msg: T) -> EncodeError {
        EncodeError(msg.to_string())
    }
}

/// Where the encoding goes: a hasher, or a buffer for tests and vectors.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl Sink for blake3::Hasher {
    fn put(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

/// The canonical bytes of `value` (docs/hashing.md).
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    value.serialize(&mut Encoder { out: &mut out })?;
    Ok(out)
}

/// blake3 in derive_key mode under `context` over the canonical bytes of `value`.
pub fn digest<T: Serialize + ?Sized>(context: &str, value: &T) -> Result<Digest, EncodeError> {
    let mut hasher = blake3::Hasher::new_derive_key(context);
    value.serialize(&mut Encoder { out: &mut hasher })?;
    Ok(Digest(*hasher.finalize().as_bytes()))
}

/// A state's canonical bytes cut around its progress: what comes before
/// the progress's value and what comes after it (the position). After an
/// event that leaves the position as it was but changes the progress (a
/// chat line with a clock reading), the state hash is the same bytes with
/// the new progress between them, hashed without encoding the position
/// again (the largest open-world-chess board, issue 36). The digest is the
/// one [`digest`] gives the whole state, byte for byte.
///
/// Hashing the kept bytes again would still cost the whole board's bytes
/// for each line. blake3 hashes its input as a tree of 1 KiB chunks, and a
/// chunk's chaining value depends only on its bytes and its place: while
/// the bytes before the position end within the first chunk and keep their
/// length (a clock reading is 8 bytes whatever it reads), only the first
/// chunk and the parents on the tree's left edge change. So the chaining
/// values of the subtrees to the right of that edge are kept (`spine`),
/// and each new progress costs one chunk and a parent per level: a few
/// dozen compressions, whatever the board.
#[derive(Clone, Debug)]
pub(crate) struct StateBytes {
    head: Vec<u8>,
    tail: Vec<u8>,
    spine: Option<Spine>,
}

/// The chaining values of the right-hand subtrees along the left edge of
/// blake3's tree over a state's bytes, from the root down, for a given
/// length of the bytes before the tail.
#[derive(Clone, Debug)]
struct Spine {
    before_tail: usize,
    rights: Vec<blake3::hazmat::ChainingValue>,
}

impl StateBytes {
    /// The bytes of `state` (a game's state, with its `game` and
    /// `progress` fields), cut at its progress; `None` if its encoding is
    /// not laid out as the struct's fields in order (`game`, `progress`,
    /// `position`), which the cut checks rather than assumes.
    pub(crate) fn of<S: Serialize>(state: &S, game: fgn_notation::GameKind, progress: &Progress) -> Option<StateBytes> {
        let whole = encode(state).ok()?;
        let progress = encode(progress).ok()?;
        let mut head = Vec::new();
        let mut e = Encoder { out: &mut head };
        e.tag(tag::STRUCT);
        e.len(3);
        e.name("game");
        game.serialize(&mut e).ok()?;
        e.name("progress");
        let cut = head.len() + progress.len();
        let laid_out = whole.starts_with(&head) && whole.get(head.len()..cut) == Some(&progress[..]);
        laid_out.then(|| StateBytes {
            tail: whole[cut..].to_vec(),
            head,
            spine: None,
        })
    }

    /// The state hash of the state these bytes were cut from with
    /// `progress` in place of its own.
    pub(crate) fn digest(&mut self, progress: &Progress) -> Digest {
        use blake3::hazmat::{merge_subtrees_non_root, merge_subtrees_root, HasherExt, Mode};
        use blake3::CHUNK_LEN;
        let mut first = self.head.clone();
        progress
            .serialize(&mut Encoder { out: &mut first })
            .expect("a progress holds no floats");
        let before_tail = first.len();
        let len = before_tail + self.tail.len();
        if before_tail >= CHUNK_LEN || len <= CHUNK_LEN {
            // The progress reaches past the first chunk, or all is one
            // chunk: hashed whole.
            let mut hasher = blake3::Hasher::new_derive_key(STATE_CONTEXT);
            hasher.update(&first);
            hasher.update(&self.tail);
            return Digest(*hasher.finalize().as_bytes());
        }
        let key = context_key();
        if self.spine.as_ref().is_none_or(|s| s.before_tail != before_tail) {
            self.spine = Some(Spine::of(&self.tail, before_tail, key));
        }
        let rights = &self.spine.as_ref().expect("made above").rights;
        first.extend_from_slice(&self.tail[..CHUNK_LEN - before_tail]);
        let mode = Mode::DeriveKeyMaterial(key);
        let mut cv = blake3::Hasher::new_from_context_key(key)
            .update(&first)
            .finalize_non_root();
        for right in rights[1..].iter().rev() {
            cv = merge_subtrees_non_root(&cv, right, mode);
        }
        Digest(*merge_subtrees_root(&cv, &rights[0], mode).as_bytes())
    }
}

impl Spine {
    /// The spine over `before_tail` bytes followed by `tail`, more than one
    /// chunk in all, the first chunk holding all the bytes before the tail.
    fn of(tail: &[u8], before_tail: usize, key: &blake3::hazmat::ContextKey) -> Spine {
        use blake3::hazmat::{left_subtree_len, HasherExt};
        let mut rights = Vec::new();
        let mut len = before_tail + tail.len();
        while len > blake3::CHUNK_LEN {
            let left = left_subtree_len(len as u64) as usize;
            let cv = blake3::Hasher::new_from_context_key(key)
                .set_input_offset(left as u64)
                .update(&tail[left - before_tail..len - before_tail])
                .finalize_non_root();
            rights.push(cv);
            len = left;
        }
        Spine { before_tail, rights }
    }
}

/// The derived key of [`STATE_CONTEXT`], worked out once.
fn context_key() -> &'static blake3::hazmat::ContextKey {
    static KEY: std::sync::OnceLock<blake3::hazmat::ContextKey> = std::sync::OnceLock::new();
    KEY.get_or_init(|| blake3::hazmat::hash_derive_key_context(STATE_CONTEXT))
}

struct Encoder<'a, S: Sink> {
    out: &'a mut S,
}

impl<S: Sink> Encoder<'_, S> {
    fn tag(&mut self, t: u8) {
        self.out.put(&[t]);
    }

    fn len(&mut self, n: usize) {
        self.out.put(&(n as u64).to_le_bytes());
    }

    fn name(&mut self, s: &str) {
        self.len(s.len());
        self.out.put(s.as_bytes());
    }

    fn known(len: Option<usize>) -> Result<usize, EncodeError> {
        len.ok_or_else(|| EncodeError("a sequence or map of unknown length has no canonical encoding".into()))
    }
}

impl<S: Sink> ser::Serializer for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.tag(tag::BOOL);
        self.out.put(&[u8::from(v)]);
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.tag(tag::SIGNED);
        self.out.put(&v.to_le_bytes());
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.tag(tag::UNSIGNED);
        self.out.put(&v.to_le_bytes());
        Ok(())
    }

    fn serialize_f32(self, _v: f32) -> Result<(), EncodeError> {
        Err(EncodeError("floats have no canonical encoding".into()))
    }

    fn serialize_f64(self, _v: f64) -> Result<(), EncodeError> {
        Err(EncodeError("floats have no canonical encoding".into()))
    }

    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.tag(tag::STRING);
        self.name(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        self.tag(tag::BYTES);
        self.len(v.len());
        self.out.put(v);
        Ok(())
    }

    fn serialize_none(self) -> Result<(), EncodeError> {
        self.tag(tag::UNIT);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), EncodeError> {
        self.tag(tag::SOME);
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), EncodeError> {
        self.tag(tag::UNIT);
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.tag(tag::VARIANT);
        self.name(variant);
        self.serialize_unit()
    }

    // A newtype is its inner value: wrapping changes nothing of what the
    // state says.
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.tag(tag::VARIANT);
        self.name(variant);
        value.serialize(self)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self, EncodeError> {
        let n = Encoder::<S>::known(len)?;
        self.tag(tag::SEQ);
        self.len(n);
        Ok(self)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self, EncodeError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self, EncodeError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, EncodeError> {
        self.tag(tag::VARIANT);
        self.name(variant);
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self, EncodeError> {
        let n = Encoder::<S>::known(len)?;
        self.tag(tag::MAP);
        self.len(n);
        Ok(self)
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self, EncodeError> {
        self.tag(tag::STRUCT);
        self.len(len);
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, EncodeError> {
        self.tag(tag::VARIANT);
        self.name(variant);
        self.serialize_struct("", len)
    }
}

impl<S: Sink> ser::SerializeSeq for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeTuple for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeTupleStruct for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeTupleVariant for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeMap for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), EncodeError> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeStruct for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), EncodeError> {
        self.name(key);
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl<S: Sink> ser::SerializeStructVariant for &mut Encoder<'_, S> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), EncodeError> {
        self.name(key);
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The bytes of a documented sample value are pinned against the
    // independent implementation's vectors in tests/hashing.rs.

    #[test]
    fn floats_are_refused() {
        assert!(encode(&1.5f64).is_err());
    }

    /// The state hash worked out from a state's bytes cut around its
    /// progress, with any progress put between them, is the whole state's
    /// hash: for every game, at every event of generated logs, with the
    /// progress of the event before. The cut must be found each time (it
    /// falls back to the whole state's encoding otherwise, which would
    /// leave a clock reading on the largest board costing the board).
    #[test]
    fn a_state_hashed_from_its_cut_bytes_and_any_progress_is_the_whole_states_hash() {
        use crate::gen::{generate, Options};
        use fgn_notation::GameKind;
        let games = [
            GameKind::SurvivalChess,
            GameKind::MagicDraughts,
            GameKind::OpenWorldChess,
            GameKind::GreatWarChess,
        ];
        let mut tried = 0;
        for game in games {
            for seed in 0..3 {
                let log = generate(&Options {
                    plies: 40,
                    clocks: true,
                    ..Options::new(game, seed)
                })
                .expect("a generated log");
                let mut replay = crate::Replay::new(&log.header).expect("a generated header");
                let mut before = replay.state().progress;
                for (i, event) in log.events.iter().enumerate() {
                    replay.apply_at(i, event).expect("a generated log is valid");
                    let state = replay.state();
                    let mut bytes = StateBytes::of(&state, state.game, &state.progress)
                        .unwrap_or_else(|| panic!("{game}: the state's bytes are cut"));
                    assert_eq!(
                        bytes.digest(&state.progress),
                        replay.state_hash(),
                        "{game} seed {seed} event {i}"
                    );
                    let other = crate::State {
                        progress: before,
                        ..state.clone()
                    };
                    assert_eq!(
                        bytes.digest(&before),
                        digest(STATE_CONTEXT, &other).unwrap(),
                        "{game} seed {seed} event {i}, the progress before"
                    );
                    before = state.progress;
                    tried += 1;
                }
            }
        }
        assert!(tried > 100, "only {tried} states tried");
    }

    /// The tree shortcut gives blake3's own digest of the bytes for every
    /// length around the chunk and subtree boundaries, the progress's
    /// bytes changing between calls with the spine kept.
    #[test]
    fn the_kept_spine_gives_blake3s_digest_of_the_whole_bytes_at_every_length() {
        let progress = crate::Replay::new(
            &fgn_notation::parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n")
                .document
                .game
                .header,
        )
        .expect("a header")
        .state()
        .progress;
        let later = crate::Progress {
            last_number: fgn_notation::MoveNumber(7),
            ..progress
        };
        let mut lengths: Vec<usize> = (0..=9)
            .map(|k| 1024 << k)
            .flat_map(|n| [n - 300, n - 1, n, n + 1])
            .collect();
        lengths.extend([0, 1, 500, 700, 3000, 70_001]);
        for n in lengths {
            let tail: Vec<u8> = (0..n).map(|i| (i * 7 + i / 251) as u8).collect();
            let mut bytes = StateBytes {
                head: b"head".to_vec(),
                tail: tail.clone(),
                spine: None,
            };
            assert_ne!(encode(&later).unwrap(), encode(&progress).unwrap());
            for p in [progress, later, progress] {
                let mut whole = b"head".to_vec();
                whole.extend(encode(&p).unwrap());
                whole.extend(&tail);
                let mut hasher = blake3::Hasher::new_derive_key(STATE_CONTEXT);
                hasher.update(&whole);
                assert_eq!(
                    bytes.digest(&p),
                    Digest(*hasher.finalize().as_bytes()),
                    "{n} bytes of tail"
                );
            }
        }
    }

    #[test]
    fn digests_are_separated_by_context() {
        let a = digest(STATE_CONTEXT, &1u8).unwrap();
        let b = digest(KNOWLEDGE_CONTEXT, &1u8).unwrap();
        assert_ne!(a, b);
        assert_eq!(a.to_string().len(), "blake3:".len() + 64);
    }
}
