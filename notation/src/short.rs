//! Short spellings built without the formatting machinery: a square, a
//! chess move, a whole move line. Printing them piece by piece through
//! `write!` cost `fmt`, `hash` and `json` most of their time per event
//! (each piece a trip through `core::fmt`, and for JSON each piece escaped
//! on its own). They are pushed byte by byte into an [`Ascii`] sink
//! instead: a [`String`] being written, or a [`Short`] on the stack that is
//! then handed on as one `&str`. The sink knows bytes and numbers only;
//! each value (a square, a clock, an action) pushes its own spelling into
//! it, so this module stays below the modules that define them.

/// Where ASCII spellings are pushed.
pub(crate) trait Ascii {
    /// Appends one ASCII byte.
    fn push_ascii(&mut self, byte: u8);

    /// Appends ASCII bytes.
    fn push_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push_ascii(b);
        }
    }

    /// Appends a number in decimal, without leading zeros.
    fn push_u32(&mut self, n: u32) {
        self.push_u64(u64::from(n));
    }

    /// Appends a number in decimal, without leading zeros.
    fn push_u64(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in digits[..count].iter().rev() {
            self.push_ascii(d);
        }
    }
}

impl Ascii for String {
    fn push_ascii(&mut self, byte: u8) {
        debug_assert!(byte.is_ascii());
        self.push(char::from(byte));
    }
}

/// ASCII text of at most [`Short::CAPACITY`] bytes on the stack. Every
/// caller writes a bounded spelling below it (the longest, an event
/// line with a draughts path of 16 squares and a clock, is 97 bytes); a byte past the capacity is dropped rather
/// than panicking, and a debug build asserts that it never happens.
pub(crate) struct Short {
    bytes: [u8; Short::CAPACITY],
    len: usize,
}

impl Short {
    pub(crate) const CAPACITY: usize = 128;

    pub(crate) const fn new() -> Short {
        Short {
            bytes: [0; Short::CAPACITY],
            len: 0,
        }
    }

    /// The text so far.
    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed, so this never fails.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl Ascii for Short {
    fn push_ascii(&mut self, byte: u8) {
        debug_assert!(byte.is_ascii() && self.len < Short::CAPACITY);
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_without_leading_zeros() {
        for n in [0, 7, 10, 99, 100, 4_294_967_295] {
            let mut s = Short::new();
            s.push_u32(n);
            assert_eq!(s.as_str(), n.to_string());
            let mut text = String::from("x");
            text.push_u32(n);
            assert_eq!(text, format!("x{n}"));
        }
    }

    #[test]
    fn clocks_are_written_without_trailing_zeros() {
        for ms in [
            0,
            1,
            10,
            100,
            120,
            123,
            1000,
            1005,
            12_500,
            12_345,
            999_999_999_999_999,
            u64::MAX,
        ] {
            let (secs, frac) = (ms / 1000, ms % 1000);
            let expected = if frac == 0 {
                secs.to_string()
            } else {
                format!("{secs}.{}", format!("{frac:03}").trim_end_matches('0'))
            };
            assert_eq!(crate::types::Clock(ms).to_string(), expected);
        }
    }
}
