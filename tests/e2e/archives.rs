//! Issue 40: compressed logs and archives of logs as inputs. Every archive
//! is written here, from the corpus, with the crates' writers; each must
//! give the verdicts and places the corpus folder gives, with each file
//! named `ARCHIVE:MEMBER`.

use std::io::Write;
use std::path::Path;

use fgn_notation::MAX_FILE_BYTES;

use crate::util::{corpus, fgn_files, gzip, root, run, scratch_dir};

const LOG: &str = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
const INVALID: &str = "corpus/survival-chess/invalid/02-two-queens.fgn";

/// The bytes of a corpus file named from the workspace root.
fn read(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).expect("a corpus log")
}

/// What the member of a log of the corpus is named in an archive: its path
/// below the corpus folder.
fn member(path: &Path) -> String {
    path.strip_prefix(corpus()).expect("a corpus log").display().to_string()
}

/// A tar archive of `members` (name and bytes), in that order.
pub(crate) fn tar(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, name, bytes.as_slice())
            .expect("a tar member");
    }
    builder.into_inner().expect("a tar archive")
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut writer = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).expect("xz");
    writer.write_all(bytes).expect("xz");
    writer.finish().expect("xz")
}

/// A zip archive of `members`, deflated.
fn zip(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        writer.start_file(name.as_str(), options).expect("a zip member");
        writer.write_all(bytes).expect("a zip member");
    }
    writer.finish().expect("a zip archive").into_inner()
}

/// Every file of the corpus (its README too, which an archive skips), as
/// members named by their path below the corpus folder.
fn corpus_members() -> Vec<(String, Vec<u8>)> {
    let mut members: Vec<(String, Vec<u8>)> = fgn_files(&corpus())
        .iter()
        .map(|p| (member(p), std::fs::read(p).expect("a corpus log")))
        .collect();
    members.push((
        "README.md".into(),
        std::fs::read(corpus().join("README.md")).expect("the corpus README"),
    ));
    members
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a test file");
    path.display().to_string()
}

/// The lines of a run's output and of its messages, each sorted (an
/// archive gives its members in its own order) and with `prefix` taken
/// out of every name.
fn sorted(args: &[&str], prefix: &str) -> (Option<i32>, Vec<String>, Vec<String>) {
    let (code, out, err) = run(args, b"");
    let lines = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(|l| l.replace(prefix, "")).collect();
        lines.sort();
        lines
    };
    (code, lines(&out), lines(&err))
}

/// The done-when of issue 40's archives: `fgn validate` over a `.tar`,
/// `.tar.gz`, `.tar.zst`, `.tar.xz` and `.zip` of the whole corpus gives
/// the verdicts, places and exit code it gives over the corpus folder,
/// each file named `ARCHIVE:MEMBER`, on one job or two alike.
#[test]
fn archives_of_the_corpus_give_the_verdicts_and_places_of_the_folder() {
    let dir = scratch_dir("archives-corpus");
    let members = corpus_members();
    let plain = tar(&members);
    let archives = [
        write(&dir, "corpus.tar", &plain),
        write(&dir, "corpus.tar.gz", &gzip(&plain)),
        write(&dir, "corpus.tar.zst", &zstd(&plain)),
        write(&dir, "corpus.txz", &xz(&plain)),
        write(&dir, "corpus.zip", &zip(&members)),
        // Told by content, not by name.
        write(&dir, "corpus-download", &zstd(&plain)),
    ];
    let folder = corpus().display().to_string();
    let expected = sorted(&["validate", "--format", "json", &folder], &format!("{folder}/"));
    assert_eq!(expected.0, Some(2), "the corpus has logs with syntax errors");
    assert!(expected.1.len() > 300, "{:?}", expected.1);
    for archive in &archives {
        let prefix = format!("{archive}:");
        assert_eq!(
            sorted(&["validate", "--format", "json", archive], &prefix),
            expected,
            "{archive}"
        );
        let one = run(&["--jobs", "1", "validate", "--format", "json", archive], b"");
        let two = run(&["--jobs", "2", "validate", "--format", "json", archive], b"");
        assert_eq!(one, two, "{archive}");
        assert!(
            one.1.contains(&format!("\"file\":\"{prefix}survival-chess/valid/")),
            "{}",
            one.1
        );
    }
    // A diagnostic's place is the member's name, then line and column.
    let (_, _, err) = run(&["validate", &archives[2]], b"");
    let place = format!("{}:survival-chess/invalid/02-two-queens.fgn:13:5: ", archives[2]);
    assert!(err.lines().any(|l| l.starts_with(&place)), "{err}");
}

/// A log compressed with gzip, zstd or xz reads as its text, whatever its
/// name (a gzipped file named `.fgn` too), in every command that reads
/// logs.
#[test]
fn a_compressed_log_reads_as_its_text() {
    let dir = scratch_dir("archives-compressed");
    let log = read(LOG);
    let (code, hash, err) = run(&["hash", LOG], b"");
    assert_eq!(code, Some(0), "{err}");
    let hash = hash.split_whitespace().next().expect("a hash").to_owned();
    for file in [
        write(&dir, "g.fgn.gz", &gzip(&log)),
        write(&dir, "g.fgn.zst", &zstd(&log)),
        write(&dir, "g.fgn.xz", &xz(&log)),
        write(&dir, "gzipped.fgn", &gzip(&log)),
    ] {
        let (code, out, err) = run(&["validate", &file], b"");
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (Some(0), "1 valid, 0 invalid\n", ""),
            "{file}"
        );
        let (code, out, err) = run(&["hash", &file], b"");
        assert_eq!((code, out), (Some(0), format!("{hash}  {file}\n")), "{err}");
    }
    // Standard input too.
    let (code, out, err) = run(&["validate", "-"], &zstd(&log));
    assert_eq!((code, out.as_str()), (Some(0), "1 valid, 0 invalid\n"), "{err}");
    // A directory walk takes compressed logs beside plain ones.
    let (code, out, err) = run(&["hash", &dir.display().to_string()], b"");
    assert_eq!((code, out.lines().count()), (Some(0), 4), "{out}{err}");
}

/// Regression guard for decompression bombs: a file of a few kilobytes
/// that decompresses past the per-file limit is one error naming it,
/// whether alone or as a member, and the members after it are still read.
/// The bomb is a run of gzip members of a mebibyte of zeros each (one
/// stream, as gzip reads them), so that making it costs little.
#[test]
fn a_decompression_bomb_is_one_error_and_the_rest_is_read() {
    let dir = scratch_dir("archives-bomb");
    let mebibyte = gzip(&vec![0u8; 1 << 20]);
    let bomb: Vec<u8> = mebibyte.repeat(MAX_FILE_BYTES / (1 << 20) + 1);
    assert!(bomb.len() < 1 << 20, "a small file: {}", bomb.len());
    let too_large = "cannot read: larger than 67108864 bytes (64 MiB) once decompressed";
    let alone = write(&dir, "bomb.fgn.gz", &bomb);
    let (code, out, err) = run(&["validate", &alone], b"");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.starts_with(&format!("error: {alone}: {too_large}")), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let log = read(LOG);
    let archive = write(
        &dir,
        "bomb.tar",
        &tar(&[
            ("a.fgn".into(), log.clone()),
            ("bomb.fgn.gz".into(), bomb),
            ("b.fgn".into(), log),
        ]),
    );
    let (code, out, err) = run(&["validate", &archive], b"");
    assert_eq!(
        (code, out.as_str()),
        (Some(2), "2 valid, 0 invalid, 1 not checked\n"),
        "{err}"
    );
    assert!(
        err.starts_with(&format!("error: {archive}:bomb.fgn.gz: {too_large}")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A plain member past the limit is refused as a plain file past it is,
/// by the parser, naming the member; the members around it are read.
#[test]
fn a_member_past_the_limit_is_refused_and_the_others_are_read() {
    let dir = scratch_dir("archives-large");
    let log = read(LOG);
    let archive = write(
        &dir,
        "large.tar",
        &tar(&[
            ("a.fgn".into(), log.clone()),
            ("large.fgn".into(), vec![b'\n'; MAX_FILE_BYTES + 1]),
            ("b.fgn".into(), log),
        ]),
    );
    let (code, out, err) = run(&["validate", &archive], b"");
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.starts_with("2 valid, 1 invalid"), "{out}");
    assert!(err.contains(&format!("{archive}:large.fgn:")), "{err}");
    assert!(err.contains("larger than 67108864 bytes"), "{err}");
}

/// A damaged archive: the members before the break are read, and the
/// break is one error, naming the archive (or the member it cut).
#[test]
fn a_truncated_archive_keeps_the_members_before_the_break() {
    let dir = scratch_dir("archives-truncated");
    let log = read(LOG);
    let members: Vec<(String, Vec<u8>)> = ["a.fgn", "b.fgn", "c.fgn"]
        .iter()
        .map(|n| ((*n).to_owned(), log.clone()))
        .collect();
    let whole = tar(&members);
    // Cut inside the third member's header.
    let header_of_c = 2 * (512 + log.len().div_ceil(512) * 512);
    let cut = &whole[..header_of_c + 100];
    for (name, bytes) in [("cut.tar", cut.to_vec()), ("cut.tar.gz", gzip(cut))] {
        let archive = write(&dir, name, &bytes);
        let (code, out, err) = run(&["validate", "--format", "json", &archive], b"");
        assert_eq!(code, Some(2), "{out}{err}");
        let valid = out.lines().filter(|l| l.contains("\"status\":\"valid\"")).count();
        assert_eq!(valid, 2, "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("\"file\":\"{archive}\"")), "{err}");
    }
    // A compressed stream cut short: the members read before the cut are
    // kept, and the cut is one error, naming the member it cut.
    let gz = gzip(&tar(&corpus_members()));
    let archive = write(&dir, "cut-stream.tar.gz", &gz[..gz.len() / 2]);
    let (code, out, err) = run(&["validate", &archive], b"");
    assert_eq!(code, Some(2), "{out}{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].starts_with(&format!("error: {archive}:")), "{err}");
    let valid: usize = out.split(' ').next().and_then(|n| n.parse().ok()).expect("a count");
    assert!(valid > 50, "{out}");
    // A zip's index is at its end: one cut short is one error.
    let archive = write(&dir, "cut.zip", &zip(&members)[..300]);
    let (code, _, err) = run(&["validate", &archive], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with(&format!("error: {archive}: cannot read: not a readable zip archive")),
        "{err}"
    );
}

/// A directory walk enters the archives in it, named below the directory;
/// members that are not logs are skipped, hidden ones unless `--hidden`,
/// and an archive without a log is named as an empty directory is.
#[test]
fn a_walk_enters_the_archives_in_a_directory() {
    let dir = scratch_dir("archives-walk");
    let log = read(LOG);
    let invalid = read(INVALID);
    write(&dir, "plain.fgn", &log);
    let members = [
        ("2025/03/g-12.fgn".to_owned(), invalid),
        ("2025/03/g-13.fgn.gz".to_owned(), gzip(&log)),
        ("notes.txt".to_owned(), b"not a log".to_vec()),
        (".hidden/g.fgn".to_owned(), log.clone()),
    ];
    let archive = write(&dir, "games.tar.zst", &zstd(&tar(&members)));
    write(&dir, "empty.zip", &zip(&[("notes.txt".to_owned(), b"none".to_vec())]));
    let folder = dir.display().to_string();
    let (code, out, err) = run(&["validate", &folder], b"");
    assert_eq!((code, out.as_str()), (Some(1), "2 valid, 1 invalid\n"), "{err}");
    let place = format!("{archive}:2025/03/g-12.fgn:13:5: ");
    assert!(err.lines().any(|l| l.starts_with(&place)), "{err}");
    assert!(
        err.contains(&format!("{folder}/empty.zip: no *.fgn files in it")),
        "{err}"
    );
    let (code, out, err) = run(&["hash", &folder], b"");
    assert_eq!(code, Some(0), "{err}");
    let names: Vec<&str> = out.lines().filter_map(|l| l.split("  ").nth(1)).collect();
    assert_eq!(
        names,
        [
            format!("{archive}:2025/03/g-12.fgn"),
            format!("{archive}:2025/03/g-13.fgn.gz"),
            format!("{folder}/plain.fgn"),
        ]
    );
    let (code, out, err) = run(&["--hidden", "hash", &folder], b"");
    assert_eq!((code, out.lines().count()), (Some(0), 4), "{out}{err}");
    assert_eq!(
        run(&["--jobs", "1", "validate", "--format", "json", &folder], b""),
        run(&["--jobs", "2", "validate", "--format", "json", &folder], b"")
    );
}

/// fgn reads compressed files and archives but never writes into them:
/// `fmt --write` and `append` refuse them, saying why. An archive is
/// opened only as a PATH: on standard input (a zip's index is at its end)
/// it is refused, saying where it is read.
#[test]
fn compressed_files_and_archives_are_never_written_into() {
    let dir = scratch_dir("archives-write");
    // A valid log, not in canonical form (two spaces in its first event).
    let log = String::from_utf8(read(LOG)).expect("a text log");
    let unformatted = log.replacen("0 w place", "0 w  place", 1).into_bytes();
    let gz = write(&dir, "g.fgn.gz", &gzip(&unformatted));
    let before = std::fs::read(&gz).expect("the file");
    let (code, _, err) = run(&["fmt", "--write", &gz], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("{gz}: not rewritten: it is compressed")), "{err}");
    let archive = write(&dir, "g.tar", &tar(&[("g.fgn".into(), unformatted)]));
    let (code, _, err) = run(&["fmt", "--write", &archive], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{archive}:g.fgn: not rewritten: fgn never writes into an archive"
        )),
        "{err}"
    );
    let (code, _, err) = run(&["append", &gz, "0 b place Ke8"], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not appended to: it is compressed or an archive"), "{err}");
    assert_eq!(std::fs::read(&gz).expect("the file"), before);
    let zipped = zip(&[("g.fgn".into(), log.into_bytes())]);
    let refused = "cannot read: it is an archive, which fgn opens only as a file named among the PATHs";
    let (code, _, err) = run(&["validate", "-"], &zipped);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&format!("<stdin>: {refused}")), "{err}");
    let (code, _, err) = run(&["validate", "-"], &zstd(&tar(&[("g.fgn".into(), read(LOG))])));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(refused), "{err}");
    // `show` takes its FILE as a PATH: an archive holding one log is it.
    let (code, out, err) = run(&["show", &archive], b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("result: 1-0 mate"), "{out}");
}

/// Regression: `fgn hash ARCHIVE > SUMS` names each member
/// `ARCHIVE:MEMBER` (and `ARCHIVE:MEMBER#N` for the games of a member of
/// several), and `fgn hash --check SUMS` failed every such line with
/// "cannot read: no such file or directory", so a list of an archive's
/// hashes could not be checked. Now each archive a line names is read
/// (once) and its members checked, whatever the archive's kind.
#[test]
fn hash_check_reads_back_the_members_of_archives_that_hash_names() {
    let dir = scratch_dir("archives-hash-check");
    let mut members: Vec<(String, Vec<u8>)> = fgn_files(&corpus().join("survival-chess/valid"))
        .iter()
        .map(|p| (member(p), std::fs::read(p).expect("a corpus log")))
        .collect();
    let several = [
        read(LOG),
        read("corpus/survival-chess/valid/02-back-rank-black-wins.fgn"),
    ]
    .concat();
    members.push(("several/two.fgn".into(), several));
    for (name, bytes) in [("logs.tar.gz", gzip(&tar(&members))), ("logs.zip", zip(&members))] {
        let archive = write(&dir, name, &bytes);
        let (code, sums, err) = run(&["hash", &archive], b"");
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(sums.lines().count(), members.len() + 1, "{sums}");
        assert!(sums.contains(&format!("  {archive}:several/two.fgn#2\n")), "{sums}");
        let good = write(&dir, &format!("{name}.sums"), sums.as_bytes());
        let (code, out, err) = run(&["hash", "--check", &good], b"");
        assert_eq!(code, Some(0), "{out}{err}");
        assert_eq!(
            out.lines().filter(|l| l.ends_with(": OK")).count(),
            members.len() + 1,
            "{out}"
        );
        // A changed hash fails, and so does a member the archive does not
        // hold, saying so.
        let first = sums.lines().next().expect("a line");
        let (hash, file) = first.split_once("  ").expect("a SUMS line");
        let wrong = hash.replacen(&hash[7..8], if &hash[7..8] == "0" { "1" } else { "0" }, 1);
        let bad = format!("{wrong}  {file}\n{hash}  {archive}:missing.fgn\n");
        let bad = write(&dir, &format!("{name}.bad.sums"), bad.as_bytes());
        let (code, out, err) = run(&["hash", "--check", &bad], b"");
        assert_eq!(code, Some(1), "{out}{err}");
        assert_eq!(
            out,
            format!("{file}: FAILED\n{archive}:missing.fgn: FAILED cannot read: {archive} holds no log missing.fgn\n")
        );
    }
}
