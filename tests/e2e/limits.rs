//! Issue 36: every input fgn reads is bounded by the limit of a log (64 MiB,
//! `MAX_FILE_BYTES`), not only logs: the sums of `hash --check`, from a
//! file or standard input, the files those sums name, and `--rules`
//! files. An input at the limit is read; one byte past it is refused with
//! one clear error (exit 2), after reading at most one byte more.

use fgn_notation::MAX_FILE_BYTES;

use crate::util::{run, scratch};

const TOO_LARGE: &str = "is larger than 67108864 bytes (64 MiB), the most fgn reads of a file";

/// `len` bytes of one blank line (spaces and a line feed): a sums file
/// that lists nothing, and JSON white space. One line, not millions, keeps
/// the debug build's check of it quick.
fn blank(len: usize) -> Vec<u8> {
    let mut bytes = vec![b' '; len];
    if let Some(last) = bytes.last_mut() {
        *last = b'\n';
    }
    bytes
}

#[test]
fn a_sums_file_past_the_limit_is_refused_and_one_at_it_is_read() {
    let at = scratch("limits", "sums-at", &blank(MAX_FILE_BYTES));
    let past = scratch("limits", "sums-past", &blank(MAX_FILE_BYTES + 1));
    let (code, _, err) = run(&["hash", "--check", &at], b"");
    assert!(!err.contains(TOO_LARGE), "{err}");
    assert_ne!(code, Some(101), "{err}");
    let (code, _, err) = run(&["hash", "--check", &past], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("{past}: cannot read: it {TOO_LARGE}")), "{err}");
}

#[test]
fn sums_on_standard_input_past_the_limit_are_refused() {
    // (At the limit, standard input is read as the file above is.)
    let (code, _, err) = run(&["hash", "--check", "-"], &vec![0u8; MAX_FILE_BYTES + 1]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("<stdin>: cannot read: it {TOO_LARGE}")), "{err}");
}

#[cfg(unix)]
#[test]
fn endless_inputs_are_refused_after_the_limit() {
    let (code, _, err) = run(&["hash", "--check", "/dev/zero"], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("/dev/zero: cannot read: it {TOO_LARGE}")),
        "{err}"
    );
    let (code, _, err) = run(&["validate", "--rules", "/dev/zero", "corpus/survival-chess"], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("/dev/zero: cannot read: it {TOO_LARGE}")),
        "{err}"
    );
    // A sums line naming an endless file: that file is a log too large to
    // read, not an endless read.
    let sums = scratch(
        "limits",
        "sums-zero",
        format!("blake3:{}  /dev/zero\n", "0".repeat(64)).as_bytes(),
    );
    let (code, out, err) = run(&["hash", "--check", &sums], b"");
    assert_eq!(code, Some(1), "{err}");
    assert!(out.contains("/dev/zero: FAILED"), "{out}");
}

#[test]
fn a_rules_file_past_the_limit_is_refused_and_one_at_it_is_read() {
    let mut json = b"{}".to_vec();
    json.extend(blank(MAX_FILE_BYTES - 2));
    let at = scratch("limits", "rules-at.json", &json);
    json.push(b'\n');
    let past = scratch("limits", "rules-past.json", &json);
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (code, _, err) = run(&["validate", "--rules", &at, log], b"");
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&["validate", "--rules", &past, log], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("{past}: cannot read: it {TOO_LARGE}")), "{err}");
}
