//! How FGN text splits into lines: the longest line it reads and the search
//! for line ends. The parser, its one-pass reader and the document's
//! matcher all split text the same way, so the limit and the search live
//! here, below all three.

/// The longest line FGN reads, in bytes, without its line end.
pub const MAX_LINE_BYTES: usize = 4096;

/// The offset of the first line feed, if any.
pub(crate) fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    memchr_byte(b'\n', bytes)
}

/// The offset of the first `needle` in `bytes`, if any. Eight bytes are
/// tested at a time: `word ^ needle..` has a zero byte where a `needle` is,
/// and the lowest byte that `(x - 0x01..) & !x & 0x80..` marks is the first
/// zero byte.
#[inline]
pub(crate) fn memchr_byte(needle: u8, bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let mut chunks = bytes.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ (ONES * u64::from(needle));
        let zero = word.wrapping_sub(ONES) & !word & HIGH;
        if zero != 0 {
            return Some(i * 8 + (zero.trailing_zeros() / 8) as usize);
        }
    }
    let done = bytes.len() - chunks.remainder().len();
    chunks.remainder().iter().position(|&b| b == needle).map(|p| done + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memchr_newline_finds_the_first_line_feed_at_every_offset() {
        for len in 0..40 {
            for at in 0..=len {
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = b'\n';
                }
                // A second line feed later never hides the first.
                bytes.extend_from_slice(b"x\n");
                let expected = if at < len { at } else { len + 1 };
                assert_eq!(memchr_newline(&bytes), Some(expected), "{len} {at}");
            }
        }
        assert_eq!(memchr_newline(b"no line end at all"), None);
        assert_eq!(
            memchr_newline(&[0x8a, 0x0b, 0x09, 0xff, 0x80, 0x7f, 0x01, 0x00, b'\n']),
            Some(8)
        );
        // The NUL probe of binary files uses the same search.
        assert_eq!(memchr_byte(0, &[1, 0x80, 0xff, 0x7f, 2, 3, 4, 5, 6, 0, 0]), Some(9));
        assert_eq!(memchr_byte(0, &[0x80; 20]), None);
    }
}
