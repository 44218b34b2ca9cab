//! Where logs come from: files, directories (every `*.fgn` below), `-`,
//! and the members of archives (`.tar`, compressed or not, and `.zip`).
//! A log compressed with gzip, zstd or xz is read as its text, whatever
//! its name: the packing is told by the first bytes (issue 40). A file of
//! several games (docs/notation.md §2.8) too large to be read whole, or
//! compressed, is read game by game by [`walk_games`].

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use fgn_notation::split::{count_games, game_name, split, GameReader, GAME_SEPARATOR};
use fgn_notation::{Diagnostic, MAX_FILE_BYTES};

/// The bytes read from a file before the buffer has to grow: more than
/// almost any log holds (a long game of the benchmark corpora is 10 to 20
/// KB).
const FIRST_READ: usize = 64 * 1024;

/// The largest read buffer a thread keeps for its next file
/// ([`give_back`]): a few times [`FIRST_READ`], so that what the threads
/// keep stays small whatever the files were.
const SPARE_AT_MOST: usize = 4 * FIRST_READ;

thread_local! {
    /// A read buffer given back once its log was done with, for this
    /// thread's next file ([`give_back`]).
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Keeps `buf`, the bytes of a log read by [`Input::read_bytes`] and no
/// longer needed, as the read buffer of this thread's next file, unless
/// it is larger than 256 KiB. Reserving 64 KiB for every file
/// and freeing it after cost glibc's allocator a sweep of its free lists
/// (`malloc_consolidate`) twice a file, and with several threads the lock
/// of the thread's arena around each (issue 42).
pub fn give_back(mut buf: Vec<u8>) {
    if buf.capacity() <= SPARE_AT_MOST {
        buf.clear();
        // A log dropped as the thread ends, after its spare is gone, just
        // frees its bytes.
        let _ = SPARE.try_with(|spare| spare.set(buf));
    }
}

/// Where the input `-` is read from: the program's own standard input, or
/// whatever a program running fgn in-process hands in (the `fgn` binary's
/// run reads the stream it was given; a library user with no standard
/// input to offer uses [`NoStdin`]).
pub trait Stdin {
    /// Reads standard input into `buf`, at most `limit` bytes.
    fn read_stdin(&self, limit: u64, buf: &mut Vec<u8>) -> std::io::Result<usize>;
}

/// No standard input: the input `-` cannot be read.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoStdin;

impl Stdin for NoStdin {
    fn read_stdin(&self, _limit: u64, _buf: &mut Vec<u8>) -> std::io::Result<usize> {
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "standard input is not read here",
        ))
    }
}

/// What went wrong with a file, in words: "no such file or directory",
/// "permission denied", ... Rust's own text of an I/O error ends with the
/// system's error number (`(os error 2)`), which tells a user nothing, so
/// every message about a file that cannot be read or written says it
/// through here.
pub fn io_error_text(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let words = match e.kind() {
        ErrorKind::NotFound => "no such file or directory",
        ErrorKind::PermissionDenied => "permission denied",
        ErrorKind::AlreadyExists => "it already exists",
        ErrorKind::IsADirectory => "it is a directory",
        ErrorKind::NotADirectory => "a part of the path is not a directory",
        ErrorKind::DirectoryNotEmpty => "the directory is not empty",
        ErrorKind::StorageFull => "no space left on the device",
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only",
        ErrorKind::FileTooLarge => "the file is too large",
        ErrorKind::InvalidFilename => "the name is too long or not allowed",
        ErrorKind::WouldBlock => "it is locked by another process",
        ErrorKind::Interrupted => "interrupted",
        ErrorKind::BrokenPipe => "the reader went away",
        _ => {
            // Another error: the system's words, without the number, in
            // lower case as every other message is.
            let text = e.to_string();
            let text = match text.find(" (os error ") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
            let mut chars = text.chars();
            return match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => "an unknown input or output error".into(),
            };
        }
    };
    words.into()
}

/// One input named on the command line, after directories are expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input, named `-`.
    Stdin,
    /// A file.
    File(PathBuf),
    /// A member of an archive, read (and decompressed) by the walk, which
    /// reads an archive from its start to its end once, one member at a
    /// time: the member's bytes travel with it to the worker.
    Member(Member),
    /// A game of a file, read (and decompressed) by [`walk_games`], one
    /// game at a time, as an archive's members are.
    Game(FileGame),
}

/// A game of a file read by [`walk_games`]: a compressed log, or a file
/// named on the command line that is too large to be read whole, read
/// from its start to its end once, one game at a time, so that a file of
/// any number of games is read in memory that does not grow with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileGame {
    /// The file's name (its path as given or found).
    pub file: String,
    /// The game's place among the file's games, or `None` when the file is
    /// one log ([`fgn_notation::split::GameText::ordinal`]).
    pub ordinal: Option<usize>,
    /// How many lines of the file stand before the game's text.
    pub lines_before: u32,
    /// The game's text; empty once taken ([`Input::take_bytes`]).
    pub bytes: Vec<u8>,
    /// The one syntax error of text before the first game of the file,
    /// with the first game: reported, as the file's, before it.
    pub before: Option<Diagnostic>,
}

/// A log read from an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The archive's path.
    pub archive: PathBuf,
    /// The member's path inside the archive.
    pub path: String,
    /// Its text, decompressed; empty once taken ([`Input::take_bytes`]).
    pub bytes: Vec<u8>,
}

/// What an input holds while it waits for a worker: an archive's member
/// and a game the walk read from its file their text; a path nothing to
/// speak of.
impl crate::parallel::Held for Result<Input, InputError> {
    fn held_bytes(&self) -> usize {
        match self {
            Ok(Input::Member(m)) => m.bytes.len(),
            Ok(Input::Game(g)) => g.bytes.len(),
            Ok(Input::Stdin | Input::File(_)) | Err(_) => 0,
        }
    }
}

/// What stands between an archive's path and its member's path in a name
/// (`games.tar.zst:2025/g-12.fgn`, and `games.tar.zst:2025/g-12.fgn:4:5`
/// in a diagnostic): a colon, as between a file and its line, so that
/// editors and grep read the whole as one place.
pub const MEMBER_SEPARATOR: char = ':';

/// The name in messages of the member `member` of `archive`.
fn member_name(archive: &Path, member: &str) -> String {
    format!("{}{MEMBER_SEPARATOR}{member}", archive.display())
}

impl Input {
    /// The name used in messages.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".into(),
            // As `display()` writes it (invalid UTF-8 as U+FFFD), without
            // the formatting machinery: a thousand instructions a file of
            // a walk over small logs (callgrind), where this is a copy.
            Input::File(p) => p.to_string_lossy().into_owned(),
            Input::Member(m) => member_name(&m.archive, &m.path),
            Input::Game(g) => game_name(&g.file, g.ordinal),
        }
    }

    /// [`Input::read_bytes`], taking a member's bytes out of it instead of
    /// copying them: for the pipeline, which reads each input once.
    pub fn take_bytes(&mut self, stdin: &dyn Stdin) -> Result<Vec<u8>, InputError> {
        match self {
            Input::Member(m) => Ok(std::mem::take(&mut m.bytes)),
            Input::Game(g) => Ok(std::mem::take(&mut g.bytes)),
            _ => self.read_bytes(stdin),
        }
    }

    /// The bytes of the input, at most one byte more than FGN reads (so that
    /// the parser can say the file is too large without reading all of it).
    pub fn read(&self, stdin: &dyn Stdin) -> Result<Vec<u8>, String> {
        self.read_bytes(stdin).map_err(|e| e.to_string())
    }

    /// [`Input::read`], with the error naming the input apart from what
    /// went wrong. Standard input is read by `stdin`.
    pub fn read_bytes(&self, stdin: &dyn Stdin) -> Result<Vec<u8>, InputError> {
        let limit = MAX_FILE_BYTES as u64 + 1;
        let mut buf = Vec::new();
        let cannot = |e: std::io::Error| InputError {
            file: Some(self.name()),
            message: format!("cannot read: {}", io_error_text(&e)),
            empty: false,
        };
        match self {
            Input::Stdin => {
                stdin.read_stdin(limit, &mut buf).map_err(cannot)?;
                if packing(&buf) != Packing::Plain {
                    let raw = std::mem::take(&mut buf);
                    buf = read_log(BufReader::new(std::io::Cursor::new(raw)), &self.name())?;
                }
            }
            Input::File(p) => {
                let mut f = std::fs::File::open(p).map_err(cannot)?;
                buf = SPARE.try_with(std::cell::Cell::take).unwrap_or_default();
                // Room up front for a log of the usual size, so that it is
                // read in one call and its end seen by the next, rather than
                // in a growing series of reads (`take` hides the size from
                // `read_to_end`); a larger file grows the buffer as it is
                // read. Asking the file's size instead costs a system call
                // per file, which over an archive of small logs cost more
                // than the reads.
                buf.reserve_exact(FIRST_READ);
                (&mut f).take(limit).read_to_end(&mut buf).map_err(cannot)?;
                if packing(&buf) != Packing::Plain {
                    // A compressed log: what was read, then the rest of
                    // the file, decompressed up to the limit.
                    let raw = std::mem::take(&mut buf);
                    buf = read_log(BufReader::new(std::io::Cursor::new(raw).chain(f)), &self.name())?;
                }
            }
            Input::Member(m) => return Ok(m.bytes.clone()),
            Input::Game(g) => return Ok(g.bytes.clone()),
        };
        self.not_an_archive(buf)
    }

    /// `text`, unless it is an archive's: an archive read as one input
    /// (standard input, a command that reads one log, an archive named
    /// `.fgn`) is refused, saying where archives are read, rather than
    /// parsed as a log full of errors.
    fn not_an_archive(&self, text: Vec<u8>) -> Result<Vec<u8>, InputError> {
        if !(text.starts_with(ZIP_MAGIC) || is_tar(&text)) {
            return Ok(text);
        }
        Err(InputError {
            file: Some(self.name()),
            message: "cannot read: it is an archive, which fgn opens only as a file named among the PATHs of a command that reads many logs (such as `fgn validate`), not from standard input nor as the one log of a command".into(),
            empty: false,
        })
    }
}

/// Why a reader of one log (`taker`: "this command" for the `fgn`
/// commands that take one log, the function's name in the Python package)
/// refuses a file of several games (docs/notation.md §2.8) that holds
/// `games`: how many it holds, and how to name one of them
/// ([`game_of_file`]).
pub fn several_games(games: usize, taker: &str) -> String {
    format!(
        "it holds {games} games (a file of several games, docs/notation.md §2.8), and {taker} takes one log: name one as FILE#N"
    )
}

/// The game named by `path` when it reads `FILE#N`, the game N of the
/// file of several games FILE (docs/notation.md §2.8), as the commands
/// that read many logs name it: `None` when `path` is not of that form or
/// FILE is no file, else the game (an [`Input::Game`], with its text and
/// the lines before it) or why there is none (the whole message, naming
/// the file). A reader of one log asks this of a path that names no file.
pub fn game_of_file(path: &Path, stdin: &dyn Stdin) -> Option<Result<Input, String>> {
    let name = path.to_str()?;
    let (file, ordinal) = name.rsplit_once(GAME_SEPARATOR)?;
    let ordinal: usize = ordinal.parse().ok().filter(|&n| n > 0)?;
    let file = Path::new(file);
    if !file.is_file() {
        return None;
    }
    let bytes = match Input::File(file.to_path_buf()).read_bytes(stdin) {
        Ok(bytes) => bytes,
        Err(e) => return Some(Err(e.to_string())),
    };
    let game = split(&bytes)
        .filter_map(Result::ok)
        .find(|g| g.ordinal == Some(ordinal));
    Some(match game {
        Some(game) => Ok(Input::Game(FileGame {
            file: file.display().to_string(),
            ordinal: game.ordinal,
            lines_before: game.first_line.saturating_sub(1),
            bytes: game.text.to_vec(),
            before: None,
        })),
        None => Err(format!(
            "{}: cannot read: it holds no game {ordinal} (it holds {})",
            file.display(),
            count_games(&bytes)
        )),
    })
}

/// Whether `head`, the first bytes of a file's text, are a tar archive's.
fn is_tar(head: &[u8]) -> bool {
    head.get(257..262) == Some(b"ustar")
}

/// Whether the file at `path` is compressed or an archive, which fgn reads
/// but never writes into (`fmt --write`, `append`).
pub fn is_packed(path: &Path) -> bool {
    let compressed = std::fs::File::open(path).ok().is_some_and(|f| {
        BufReader::new(f)
            .fill_buf()
            .is_ok_and(|head| packing(head) != Packing::Plain)
    });
    compressed || archive_kind(path).is_some()
}

/// Reads the log `name` from `raw`, decompressing it if its first bytes
/// say it is compressed, at most one byte past the limit (so that the
/// parser can say a plain log is too large). A compressed log past the
/// limit is an error here: decompression stops one byte past it, so that
/// a small file that decompresses to gigabytes (a "bomb") costs no more
/// than a large log.
fn read_log(mut raw: impl BufRead, name: &str) -> Result<Vec<u8>, InputError> {
    let cannot = |e: std::io::Error| InputError {
        file: Some(name.to_owned()),
        message: format!("cannot read: {}", io_error_text(&e)),
        empty: false,
    };
    let packed = packing(raw.fill_buf().map_err(cannot)?) != Packing::Plain;
    let mut buf = Vec::new();
    unpack(raw)
        .and_then(|text| text.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut buf))
        .map_err(cannot)?;
    if packed && buf.len() > MAX_FILE_BYTES {
        return Err(too_large_once_decompressed(name));
    }
    Ok(buf)
}

/// The error of a compressed log past the limit once decompressed.
fn too_large_once_decompressed(name: &str) -> InputError {
    InputError {
        file: Some(name.to_owned()),
        message: format!(
            "cannot read: larger than {MAX_FILE_BYTES} bytes (64 MiB) once decompressed, the most fgn reads of a file"
        ),
        empty: false,
    }
}

/// How the bytes of a file are packed, told by their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Packing {
    Gzip,
    Zstd,
    Xz,
    /// Not compressed (any text, FGN or not).
    Plain,
}

/// The first bytes of a zip archive (a local file header, or the end of
/// the central directory of an empty archive).
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// How `head`, the first bytes of a file, says the file is packed. No FGN
/// log starts with these bytes (none is text), so a log is never taken
/// for a compressed file.
fn packing(head: &[u8]) -> Packing {
    if head.starts_with(&[0x1f, 0x8b]) {
        Packing::Gzip
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Packing::Zstd
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Packing::Xz
    } else {
        Packing::Plain
    }
}

/// A reader of the decompressed bytes of `raw`, packed as its first bytes
/// say (the bytes themselves when they are not compressed).
fn unpack<'a, R: BufRead + 'a>(mut raw: R) -> std::io::Result<Box<dyn Read + 'a>> {
    let how = packing(raw.fill_buf()?);
    Ok(match how {
        // Several gzip members one after the other are one file, as
        // gzip itself reads them.
        Packing::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
        // ruzstd's default window limit (128 MiB) is what `zstd --long`
        // writes at most.
        Packing::Zstd => Box::new(
            ruzstd::decoding::StreamingDecoder::new(raw)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not a zstd stream: {e}")))?,
        ),
        Packing::Xz => Box::new(lzma_rust2::XzReader::new(raw, true)),
        Packing::Plain => Box::new(raw),
    })
}

/// The text of an input that is not a log (a sums file of `hash --check`,
/// a `--rules` file): read with the limit of a log, so that `/dev/zero` or
/// an endless pipe is refused after 64 MiB instead of filling memory. The
/// error is the whole message, naming the input.
pub fn read_text(input: &Input, stdin: &dyn Stdin) -> Result<String, String> {
    let name = input.name();
    let bytes = input.read_bytes(stdin).map_err(|e| e.to_string())?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{name}: cannot read: it is larger than {MAX_FILE_BYTES} bytes (64 MiB), the most fgn reads of a file"
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{name}: cannot read: it is not UTF-8 text"))
}

/// A path that cannot be used or read: the file it names (none for a
/// second `-`) and what went wrong, so that a report can name the file in
/// its own field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The path as given or found.
    pub file: Option<String>,
    /// What went wrong.
    pub message: String,
    /// The path is a directory with no log below it ([`NO_LOGS`]): a
    /// directory that holds nothing to read is no fault of a file, so it
    /// counts as no input at all, and a run says so once, as a note, or as
    /// its error when it found no log anywhere (the `fgn` command's pipeline).
    pub empty: bool,
}

/// What is said of a directory that holds no log.
pub const NO_LOGS: &str = "no *.fgn files in it";

impl InputError {
    fn at(path: &Path, message: impl Into<String>) -> InputError {
        InputError {
            file: Some(path.display().to_string()),
            message: message.into(),
            empty: false,
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{file}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Expands the paths of the command line: `-` is standard input, a directory
/// stands for every `*.fgn` file below it (sorted by path, symbolic links
/// to directories not followed, and, unless `hidden`, leaving out every
/// file and directory whose name starts with `.`, as ripgrep does: a `.git`
/// directory is never walked into), an archive (named on the command line
/// or found below a directory) stands for its logs (read member by member), anything
/// else is a file, hidden or not. A path that cannot be used is reported in the second list and the others
/// are still expanded, so one bad path never hides the rest; the third list
/// is the directories without a log ([`InputError::empty`]).
pub fn collect(paths: &[PathBuf], hidden: bool) -> (Vec<Input>, Vec<String>, Vec<String>) {
    let (mut out, mut errors, mut empty) = (Vec::new(), Vec::new(), Vec::new());
    for item in walk(paths, hidden) {
        match item {
            Ok(input) => out.push(input),
            Err(e) if e.empty => empty.extend(e.file),
            Err(e) => errors.push(e.to_string()),
        }
    }
    (out, errors, empty)
}

/// [`collect`]'s inputs one at a time, as the directories are walked, so
/// that an archive of any size is never listed in memory: each item is an
/// input or a path that cannot be used, in command-line order.
pub fn walk(paths: &[PathBuf], hidden: bool) -> impl Iterator<Item = Result<Input, InputError>> + Send + '_ {
    let mut stdin_taken = false;
    paths
        .iter()
        .flat_map(move |p| -> Box<dyn Iterator<Item = Result<Input, InputError>> + Send> {
            if p.as_os_str() == "-" {
                let item = if std::mem::replace(&mut stdin_taken, true) {
                    Err(InputError {
                        file: None,
                        message: "`-` is given twice: standard input can be read only once".to_string(),
                        empty: false,
                    })
                } else {
                    Ok(Input::Stdin)
                };
                return Box::new(std::iter::once(item));
            }
            match std::fs::metadata(p) {
                Err(e) => Box::new(std::iter::once(Err(InputError::at(p, io_error_text(&e))))),
                Ok(meta) if meta.is_dir() => Box::new(walk_dir(p, hidden)),
                Ok(_) if is_log_name(p) => Box::new(std::iter::once(Ok(Input::File(p.clone())))),
                // Any other file is looked into: an archive, whatever its
                // name, gives its logs; anything else is read as a log.
                Ok(_) => match archive_kind(p) {
                    Some(kind) => Box::new(members(p, kind, hidden)),
                    None => Box::new(std::iter::once(Ok(Input::File(p.clone())))),
                },
            }
        })
}

/// [`walk`], with the files that cannot be read whole read game by game
/// on the walk ([`Input::Game`]): every compressed log (`*.fgn.gz`,
/// `*.fgn.zst`, `*.fgn.xz`, which may hold a month of games) and every
/// file named in `paths` of a megabyte or more,
/// so that a file of several games of any size is read in flat memory,
/// its games spread over the workers as an archive's members are. Every other input is as [`walk`]
/// gives it (a file of several games among them is split where it is
/// read). Only the files named on the command line are asked their size
/// (one more system call each, before the walk), never those found below
/// a directory.
pub fn walk_games(paths: &[PathBuf], hidden: bool) -> impl Iterator<Item = Result<Input, InputError>> + Send + '_ {
    // The files named that are read game by game for their size: nearly
    // always none, so that the walk's other inputs pay one look at their
    // name's ending and nothing else.
    let large: Vec<&Path> = paths.iter().map(PathBuf::as_path).filter(|p| large(p)).collect();
    let mut walked = walk(paths, hidden);
    let mut games: Option<Box<dyn Iterator<Item = Result<Input, InputError>> + Send>> = None;
    std::iter::from_fn(move || loop {
        if let Some(game) = games.as_mut().and_then(Iterator::next) {
            return Some(game);
        }
        games = None;
        match walked.next()? {
            Ok(Input::File(path)) if is_compressed_log_name(&path) || large.contains(&path.as_path()) => {
                games = Some(Box::new(read_by_game(path)));
            }
            other => return Some(other),
        }
    })
}

/// The games of an input read one at a time, when its text as read
/// (`bytes`) stopped one byte past what a log may hold: a file of several
/// games larger than that, found below a directory (a file named on the
/// command line is read game by game on the walk already, [`walk_games`]),
/// read again from its start; or standard input, read on from where it
/// stopped. Their games past the limit were lost: split, the text as read
/// ended in a torn game and a warning. `None` for any other input, which
/// its text as read holds whole; else `bytes` is taken (its games are
/// read again, or from it and then on).
pub fn games_past_the_limit<'a>(
    input: &Input,
    bytes: &mut Vec<u8>,
    stdin: &'a dyn Stdin,
) -> Option<std::io::Result<GameReader<Box<dyn BufRead + 'a>>>> {
    let read_again = matches!(input, Input::File(_) | Input::Stdin);
    if !read_again || bytes.len() <= MAX_FILE_BYTES || packing(bytes) != Packing::Plain {
        return None;
    }
    let bytes = std::mem::take(bytes);
    let reader: std::io::Result<Box<dyn BufRead + 'a>> = match input {
        Input::File(path) => std::fs::File::open(path)
            .map(|file| Box::new(BufReader::with_capacity(FIRST_READ, file)) as Box<dyn BufRead>),
        Input::Stdin => {
            let rest = StdinReader { stdin, done: false };
            Ok(Box::new(
                std::io::Cursor::new(bytes).chain(BufReader::with_capacity(FIRST_READ, rest)),
            ))
        }
        // Their text is all there is to read (above).
        Input::Member(_) | Input::Game(_) => return None,
    };
    Some(reader.map(GameReader::new))
}

/// Standard input as a stream, read a piece at a time through [`Stdin`].
struct StdinReader<'a> {
    stdin: &'a dyn Stdin,
    /// The end was met: a piece came short of what was asked.
    done: bool,
}

impl std::io::Read for StdinReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        // `read_stdin` reads until it has `limit` bytes or meets the end,
        // so a shorter piece is the last one.
        let mut piece = Vec::with_capacity(buf.len());
        let read = self.stdin.read_stdin(buf.len() as u64, &mut piece)?;
        self.done = read < buf.len();
        buf[..piece.len()].copy_from_slice(&piece);
        Ok(piece.len())
    }
}

/// Whether `path` names a compressed log by its ending.
fn is_compressed_log_name(path: &Path) -> bool {
    let name = path.as_os_str().as_encoded_bytes();
    [".fgn.gz", ".fgn.zst", ".fgn.xz"]
        .iter()
        .any(|end| name.ends_with(end.as_bytes()))
}

/// From how many bytes on a file named on the command line is read game
/// by game on the walk: a log is 10 to 20 KB, so a file of a megabyte is
/// nearly always one of many games, whose games are then spread over the
/// workers (read whole, its games would be worked on by the one worker
/// that read it); and one past 64 MiB cannot be read whole at all.
const READ_BY_GAME_FROM: u64 = 1 << 20;

/// Whether `path` is a file large enough to be read game by game
/// ([`READ_BY_GAME_FROM`]).
fn large(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() >= READ_BY_GAME_FROM)
}

/// The games of the file at `path`, read (and decompressed) from its start
/// to its end on a thread of its own, one game at a time, each handed on
/// before the next is read ([`walk_games`]). A file of one log is one
/// game without an ordinal, refused as [`Input::read_bytes`] refuses it
/// (a compressed one past the limit, an archive); a read error ends the
/// games with one error naming the file.
fn read_by_game(path: PathBuf) -> impl Iterator<Item = Result<Input, InputError>> + Send {
    // One game waits while the next is read, as an archive's members do.
    let (send, receive) = std::sync::mpsc::sync_channel(1);
    let name = path.display().to_string();
    let failed_name = name.clone();
    let reader = std::thread::Builder::new()
        .name("fgn-games".into())
        .spawn(move || read_games(&path, &name, &send));
    let failed = reader.err().map(|e| InputError {
        file: Some(failed_name),
        message: format!("cannot read: no thread to read it on: {}", io_error_text(&e)),
        empty: false,
    });
    failed.map(Err).into_iter().chain(receive)
}

/// Reads the games of the file `path`, named `name`, into `send`
/// ([`read_by_game`]); stops early when no one takes them any more.
fn read_games(path: &Path, name: &str, send: &Members) -> Option<()> {
    let cannot = |e: std::io::Error| InputError {
        file: Some(name.to_owned()),
        message: format!("cannot read: {}", io_error_text(&e)),
        empty: false,
    };
    let opened = std::fs::File::open(path).and_then(|file| {
        let mut raw = BufReader::new(file);
        let packed = packing(raw.fill_buf()?) != Packing::Plain;
        Ok((packed, unpack(raw)?))
    });
    let (packed, text) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            let _ = send.send(Err(cannot(e)));
            return None;
        }
    };
    let mut before = None;
    for item in GameReader::new(BufReader::with_capacity(FIRST_READ, text)) {
        let item = match item {
            Err(e) => {
                let _ = send.send(Err(cannot(e)));
                return None;
            }
            Ok(Err(stray)) => {
                before = Some(stray);
                continue;
            }
            Ok(Ok(game)) if game.ordinal.is_none() && packed && game.text.len() > MAX_FILE_BYTES => {
                Err(too_large_once_decompressed(name))
            }
            Ok(Ok(game)) if game.ordinal.is_none() => Input::File(path.to_path_buf())
                .not_an_archive(game.text)
                .map(|bytes| file_game(name, None, 0, bytes, None)),
            Ok(Ok(game)) => Ok(file_game(
                name,
                game.ordinal,
                game.first_line.saturating_sub(1),
                game.text,
                before.take(),
            )),
        };
        send.send(item).ok()?;
    }
    Some(())
}

/// An [`Input::Game`].
fn file_game(
    file: &str,
    ordinal: Option<usize>,
    lines_before: u32,
    bytes: Vec<u8>,
    before: Option<Diagnostic>,
) -> Input {
    Input::Game(FileGame {
        file: file.to_owned(),
        ordinal,
        lines_before,
        bytes,
        before,
    })
}

/// Every log below `dir` (`*.fgn`, compressed ones, and the logs of the
/// archives there, [`is_log_name`], [`is_archive_name`]), in path order (each directory's entries
/// sorted by name, a subdirectory's files where its name falls, as
/// walkdir's sort by file name gives them), hidden names left out unless
/// `hidden`; an error for what cannot be read, and an [`InputError::empty`]
/// item when there is no log at all. Only the directories from `dir`
/// down to the current one are open at a time, each holding at most
/// [`NAMES_AT_ONCE`] names ([`Listing`]), so that memory does not grow
/// with the number of files.
fn walk_dir(dir: &Path, hidden: bool) -> impl Iterator<Item = Result<Input, InputError>> + Send {
    walk_dir_in_passes(dir, NAMES_AT_ONCE, hidden)
}

/// The path of the entry `name` of the directory `dir`: `dir.join(name)`
/// made in one allocation, where `join` copies `dir` and then grows the
/// copy for the name (two allocations and a copy, 900 instructions a log
/// of a walk over 3,000 logs, callgrind).
fn entry_path(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let mut path = PathBuf::with_capacity(dir.as_os_str().len() + 1 + name.len());
    path.push(dir);
    path.push(name);
    path
}

/// [`walk_dir`] with at most `at_once` names of a directory held at once.
fn walk_dir_in_passes(
    dir: &Path,
    at_once: usize,
    hidden: bool,
) -> impl Iterator<Item = Result<Input, InputError>> + Send {
    let root = dir.to_path_buf();
    let mut open = vec![Listing::new(root.clone(), at_once)];
    let mut found = 0usize;
    let mut done = false;
    // The archive being read, whose members come before the next entry.
    let mut archive: Option<Box<dyn Iterator<Item = Result<Input, InputError>> + Send>> = None;
    std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        if let Some(member) = archive.as_mut().and_then(Iterator::next) {
            found += usize::from(member.is_ok());
            return Some(member);
        }
        archive = None;
        let Some(listing) = open.last_mut() else {
            done = true;
            return (found == 0).then(|| {
                Err(InputError {
                    empty: true,
                    ..InputError::at(&root, NO_LOGS)
                })
            });
        };
        match listing.next() {
            None => {
                open.pop();
            }
            Some(Err(e)) => return Some(Err(e)),
            // A name starting with `.` is hidden by convention (`.git`,
            // an editor's `.swp` copies, a `.trash` of old logs): left out
            // below a directory given, as ripgrep and fd leave it out.
            Some(Ok((name, _))) if !hidden && is_hidden(&name) => {}
            Some(Ok((name, kind))) if kind.is_dir() => {
                let path = entry_path(&listing.dir, &name);
                open.push(Listing::new(path, at_once));
            }
            // Most names below a folder of logs are logs; the path of any
            // other name is not even made.
            Some(Ok((name, _))) if !is_log_name(&name) && !is_archive_name(Path::new(&name)) => {}
            // A link is taken when it leads to a file, never into a directory.
            Some(Ok((name, kind))) => {
                let path = entry_path(&listing.dir, &name);
                let is_file = || kind.is_file() || path.is_file();
                if is_log_name(&path) && is_file() {
                    found += 1;
                    return Some(Ok(Input::File(path)));
                }
                // An archive below a directory is read as if its logs were
                // there: a folder of downloads holds logs packed.
                if is_archive_name(&path) && is_file() {
                    archive = Some(match archive_kind(&path) {
                        Some(kind) => Box::new(members(&path, kind, hidden)),
                        None => Box::new(std::iter::once(Err(InputError::at(
                            &path,
                            "cannot read: not a tar or zip archive, as its name says",
                        )))),
                    });
                }
            }
        }
    })
}

/// Whether `path` names a log by its ending: `.fgn`, or `.fgn.gz`,
/// `.fgn.zst`, `.fgn.xz` for a compressed one.
fn is_log_name(path: impl AsRef<std::ffi::OsStr>) -> bool {
    let name = path.as_ref().as_encoded_bytes();
    [".fgn", ".fgn.gz", ".fgn.zst", ".fgn.xz"]
        .iter()
        .any(|end| name.ends_with(end.as_bytes()))
}

/// Whether `path` names an archive by its ending.
fn is_archive_name(path: &Path) -> bool {
    let name = path.as_os_str().as_encoded_bytes();
    [
        ".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.xz", ".txz", ".zip",
    ]
    .iter()
    .any(|end| name.ends_with(end.as_bytes()))
}

/// The kinds of archive whose logs fgn reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArchiveKind {
    /// A tar archive, compressed (gzip, zstd, xz) or not.
    Tar,
    Zip,
}

/// What kind of archive the file at `path` is, by its first bytes (a tar
/// archive's by the first bytes of its text once decompressed); `None`
/// for any other file, and for one that cannot be read (which reading it
/// as a log then reports).
fn archive_kind(path: &Path) -> Option<ArchiveKind> {
    let mut raw = BufReader::new(std::fs::File::open(path).ok()?);
    if raw.fill_buf().ok()?.starts_with(ZIP_MAGIC) {
        return Some(ArchiveKind::Zip);
    }
    let mut head = Vec::with_capacity(TAR_BLOCK);
    unpack(raw).ok()?.take(TAR_BLOCK as u64).read_to_end(&mut head).ok()?;
    is_tar(&head).then_some(ArchiveKind::Tar)
}

/// The size of a tar header, whose bytes 257 to 261 say `ustar`.
const TAR_BLOCK: usize = 512;

/// The logs of the archive at `archive`, read from its start to its end
/// on a thread of its own, one member at a time, each handed on before
/// the next is read, so that memory does not grow with the archive's
/// size. Members whose names end as a log's ([`is_log_name`]) are read,
/// hidden ones (a part of the path starting with `.`) only when `hidden`;
/// the others are skipped. An archive that breaks is reported once, where
/// it breaks, after the members before it; one without a log is an
/// [`InputError::empty`] item, as a directory without one is.
fn members(archive: &Path, kind: ArchiveKind, hidden: bool) -> impl Iterator<Item = Result<Input, InputError>> + Send {
    // One member waits while the next is read: the walk ahead of the
    // workers ([`crate::parallel`]) bounds what is held beyond that.
    let (send, receive) = std::sync::mpsc::sync_channel(1);
    let path = archive.to_path_buf();
    let reader = std::thread::Builder::new().name("fgn-archive".into()).spawn(move || {
        let found = match kind {
            ArchiveKind::Tar => read_tar(&path, hidden, &send),
            ArchiveKind::Zip => read_zip(&path, hidden, &send),
        };
        if found == Some(0) {
            let _ = send.send(Err(InputError {
                empty: true,
                ..InputError::at(&path, NO_LOGS)
            }));
        }
    });
    let failed = reader.err().map(|e| {
        InputError::at(
            archive,
            format!("cannot read: no thread to read it on: {}", io_error_text(&e)),
        )
    });
    failed.map(Err).into_iter().chain(receive)
}

/// Where a reader of an archive hands its members on.
type Members = std::sync::mpsc::SyncSender<Result<Input, InputError>>;

/// The path of a member as named: without the `./` that `tar -C dir .`
/// writes before every path.
fn member_path(path: &str) -> &str {
    path.trim_start_matches("./")
}

/// Whether the member at `path` is read ([`members`]).
fn wanted_member(path: &str, hidden: bool) -> bool {
    is_log_name(path) && (hidden || !path.split('/').any(|part| part.starts_with('.')))
}

/// `opened`, or `None` once why it failed is sent as the archive's error
/// (`cannot read: WHY`): what an archive's reader does with each step of
/// opening it, after which it reads no further.
fn or_broken<T>(archive: &Path, send: &Members, opened: Result<T, String>) -> Option<T> {
    opened
        .map_err(|why| {
            // No one taking it any more stops the reader all the same.
            let _ = send.send(Err(InputError::at(archive, format!("cannot read: {why}"))));
        })
        .ok()
}

/// Reads the logs of the tar archive `archive` into `send`: the number of
/// logs found, or `None` when it stopped early (the archive broke, or no
/// one takes the members any more).
fn read_tar(archive: &Path, hidden: bool, send: &Members) -> Option<usize> {
    let io = |e: std::io::Error| io_error_text(&e);
    let file = or_broken(archive, send, std::fs::File::open(archive).map_err(io))?;
    let text = or_broken(archive, send, unpack(BufReader::new(file)).map_err(io))?;
    let mut tar = tar::Archive::new(text);
    let entries = or_broken(archive, send, tar.entries().map_err(io))?;
    let mut found = 0;
    // Whether the last member could not be read: when the archive breaks
    // right after, it broke inside that member, whose error said so.
    let mut member_failed = false;
    for entry in entries {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(_) if member_failed => return None,
            Err(e) => {
                let why = format!("the archive breaks after {found} logs: {}", io_error_text(&e));
                return or_broken(archive, send, Err(why));
            }
        };
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = member_path(&String::from_utf8_lossy(&entry.path_bytes())).to_owned();
        if !wanted_member(&path, hidden) {
            continue;
        }
        found += 1;
        let name = member_name(archive, &path);
        let read = read_log(BufReader::new(&mut entry), &name);
        member_failed = read.is_err();
        let item = read.map(|bytes| {
            Input::Member(Member {
                archive: archive.to_path_buf(),
                path,
                bytes,
            })
        });
        send.send(item).ok()?;
    }
    Some(found)
}

/// Reads the logs of the zip archive `archive` into `send`, as
/// [`read_tar`] does. A zip archive's index is at its end, so one cut
/// short cannot be read at all.
fn read_zip(archive: &Path, hidden: bool, send: &Members) -> Option<usize> {
    let file = or_broken(
        archive,
        send,
        std::fs::File::open(archive).map_err(|e| io_error_text(&e)),
    )?;
    let mut zip = or_broken(
        archive,
        send,
        zip::ZipArchive::new(BufReader::new(file)).map_err(|e| format!("not a readable zip archive: {e}")),
    )?;
    let mut found = 0;
    for index in 0..zip.len() {
        let Some(Ok(path)) = zip.name_for_index(index).map(|p| p.map(|p| member_path(&p).to_owned())) else {
            continue;
        };
        if path.ends_with('/') || !wanted_member(&path, hidden) {
            continue;
        }
        found += 1;
        let name = member_name(archive, &path);
        let item = match zip.by_index(index) {
            Ok(mut member) => read_log(BufReader::new(&mut member), &name),
            Err(e) => Err(InputError {
                file: Some(name),
                message: format!("cannot read: {e}"),
                empty: false,
            }),
        };
        let item = item.map(|bytes| {
            Input::Member(Member {
                archive: archive.to_path_buf(),
                path,
                bytes,
            })
        });
        send.send(item).ok()?;
    }
    Some(found)
}

/// Whether `name`, a directory entry's, is a hidden file's or directory's.
fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().first() == Some(&b'.')
}

/// How many names of one directory the walk holds at once: a directory
/// with more is read again for each next half of that many names, in
/// order. A name held costs about seventy bytes (24 for its place in the
/// list: the boxed text's pointer and length, its type and its sort key;
/// and the allocator's block of its text, 48 bytes for a name of 26), so
/// this is about 9 MiB, and only for a directory that large; a
/// directory of up to 131,072 logs is read once. It was 4,096 names (a
/// quarter of a megabyte) until issue 42 measured what that cost: a
/// directory of 100,000 logs was read 25 times, 2.5 million entries on the
/// one thread that walks, which grows with the square of the directory's
/// size and caps the speed-up of every command over such a directory,
/// however many cores work on it (a walk of 100,000 names took 4,397
/// million instructions, now 10 times fewer). The passes remain for larger
/// directories still, so that memory stays bounded whatever their size.
const NAMES_AT_ONCE: usize = 131_072;

/// The entries of one directory in name order, read in passes: each pass
/// reads the whole directory (`std::fs::read_dir`, links not followed) and
/// keeps the least names after the last one handed out, all of them when
/// they are at most `at_once`. Listing a directory in order cannot be done
/// in less than its size otherwise, since a directory gives its names in no
/// order: the passes trade reading a very large directory again for memory
/// that does not grow with it.
struct Listing {
    dir: PathBuf,
    at_once: usize,
    /// The greatest name handed out so far.
    after: Option<std::ffi::OsString>,
    /// This pass's names still to hand out, greatest first.
    batch: Vec<Named>,
    /// Whether the last pass held every name left.
    complete: bool,
    passes: usize,
    /// Errors met by the first pass, handed out before its names.
    errors: Vec<InputError>,
}

/// A directory entry's name and type, ordered by name.
#[derive(Debug)]
struct Named {
    name: Box<std::ffi::OsStr>,
    kind: std::fs::FileType,
    /// Where [`sort_names`] keeps the bytes it sorts on. On Unix it fills
    /// what would be padding beside the type, so that a name held costs no
    /// more memory for it ([`NAMES_AT_ONCE`]).
    key: SortKey,
}

impl PartialEq for Named {
    fn eq(&self, other: &Named) -> bool {
        self.name == other.name
    }
}

impl Eq for Named {}

impl PartialOrd for Named {
    fn partial_cmp(&self, other: &Named) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Named {
    fn cmp(&self, other: &Named) -> std::cmp::Ordering {
        self.name.cmp(&other.name)
    }
}

impl Listing {
    fn new(dir: PathBuf, at_once: usize) -> Listing {
        Listing {
            dir,
            at_once: at_once.max(1),
            after: None,
            batch: Vec::new(),
            complete: false,
            passes: 0,
            errors: Vec::new(),
        }
    }

    /// The next entry's name and type, or an error to report in its place.
    fn next(&mut self) -> Option<Result<(Box<std::ffi::OsStr>, std::fs::FileType), InputError>> {
        if self.batch.is_empty() && !self.complete {
            self.read_pass();
        }
        if let Some(e) = self.errors.pop() {
            return Some(Err(e));
        }
        let Named { name, kind, .. } = self.batch.pop()?;
        // Only a later pass looks for where the last one stopped.
        if !self.complete {
            self.after = Some(name.clone().into_os_string());
        }
        Some(Ok((name, kind)))
    }

    /// Reads the directory once, keeping the smallest names after the last
    /// one handed out: all of them when they are at most `at_once`, else
    /// the smallest half of that (so that a pass, which keeps up to
    /// `at_once` names while it reads and then drops the greater half when
    /// full, never holds more). Errors are kept from the first pass only,
    /// so that a later pass does not report them again; a directory that
    /// cannot be opened ends the listing.
    ///
    /// The directory is read with `std::fs::read_dir` rather than walkdir,
    /// which made each entry's whole path (a copy of the directory's path
    /// grown by the name) only for its name to be taken back out. The
    /// errors name what walkdir's named: the directory when it cannot be
    /// opened or an entry cannot be read from it, the entry's path when its
    /// type cannot be told.
    fn read_pass(&mut self) {
        let first = self.passes == 0;
        self.passes += 1;
        let half = self.at_once.div_ceil(2);
        let mut kept: Vec<Named> = Vec::new();
        // The least name dropped: no name from it on is kept this pass.
        let mut dropped: Option<Box<std::ffi::OsStr>> = None;
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.errors.insert(0, InputError::at(&self.dir, io_error_text(&e)));
                self.complete = true;
                self.batch.clear();
                return;
            }
        };
        for entry in entries {
            let named = entry
                .map_err(|e| InputError::at(&self.dir, io_error_text(&e)))
                .and_then(|entry| match entry.file_type() {
                    Ok(kind) => Ok((entry.file_name(), kind)),
                    Err(e) => Err(InputError::at(&entry.path(), io_error_text(&e))),
                });
            let (name, kind) = match named {
                Ok(named) => named,
                Err(e) => {
                    if first {
                        self.errors.insert(0, e);
                    }
                    continue;
                }
            };
            if self.after.as_deref().is_some_and(|after| *name <= *after)
                || dropped.as_deref().is_some_and(|least| *name >= *least)
            {
                continue;
            }
            kept.push(Named {
                name: name.into_boxed_os_str(),
                kind,
                key: 0,
            });
            if kept.len() > self.at_once {
                dropped = Some(keep_least(&mut kept, half));
            }
        }
        if dropped.is_some() && kept.len() > half {
            dropped = Some(keep_least(&mut kept, half));
        }
        self.complete = dropped.is_none();
        sort_names(&mut kept);
        kept.reverse();
        self.batch = kept;
    }
}

/// Keeps the `n` least names of `names` (`n` less than their number),
/// in no order, and gives back the least of those dropped.
fn keep_least(names: &mut Vec<Named>, n: usize) -> Box<std::ffi::OsStr> {
    names.select_nth_unstable(n);
    let least_dropped = names[n].name.clone();
    names.truncate(n);
    least_dropped
}

/// A few bytes of a name, read as a number whose order is theirs
/// ([`key_at`]).
type SortKey = u32;

/// How many bytes of a name a [`SortKey`] holds.
const KEY_BYTES: usize = std::mem::size_of::<SortKey>();

/// Sorts `names` in the order of their bytes, as `OsStr` orders them.
/// Names of one directory often share a long beginning
/// (`survival-chess-1-`), which a plain sort compares again in every
/// comparison, through a call to memcmp. Here each comparison is of two
/// numbers: the names are sorted by the [`KEY_BYTES`] bytes after the
/// beginning that all of them share, and each run of names that tie on
/// those is sorted again by the bytes after them, the same way (a radix
/// sort, most significant bytes first, whose digits are compared rather
/// than counted). Most names differ within the first bytes after what
/// they share, so the runs that tie are few and short.
fn sort_names(names: &mut [Named]) {
    sort_names_after(names, 0);
}

/// [`sort_names`] for names whose first `depth` bytes are the same.
fn sort_names_after(names: &mut [Named], depth: usize) {
    let [first, rest @ ..] = &*names else {
        return;
    };
    if rest.is_empty() {
        return;
    }
    let first = first.name.as_encoded_bytes();
    let mut shared = first.len();
    for named in rest {
        let name = named.name.as_encoded_bytes();
        // Nearly every name holds the whole beginning shared so far, which
        // one comparison of slices tells; only a name that does not is
        // walked byte by byte to where it parts from the first.
        if name.get(depth..shared) != Some(&first[depth..shared]) {
            let common = first[depth..shared]
                .iter()
                .zip(&name[depth..])
                .take_while(|(a, b)| a == b)
                .count();
            shared = depth + common;
        }
    }
    for named in names.iter_mut() {
        named.key = key_at(named.name.as_encoded_bytes(), shared);
    }
    names.sort_unstable_by_key(|named| named.key);
    let next = shared + KEY_BYTES;
    for run in names.chunk_by_mut(|a, b| a.key == b.key) {
        if run.len() < 2 {
            continue;
        }
        // Names that tie on bytes they all have share them, and are told
        // apart by the bytes after. A name that ends among those bytes ties
        // only with itself or with a name whose next byte is a NUL, which
        // no file's name holds; whole comparisons sort such a run all the
        // same.
        if run.iter().all(|named| named.name.len() >= next) {
            sort_names_after(run, next);
        } else {
            run.sort_unstable();
        }
    }
}

/// The [`KEY_BYTES`] bytes of `name` from `at` on, as a big-endian
/// number, the bytes past its end taken as zeros: a name that ends sooner
/// than another it shares these bytes with gets the lesser key, as it is
/// the lesser name.
fn key_at(name: &[u8], at: usize) -> SortKey {
    // Byte by byte, since a copy of up to four bytes into an array is a
    // call to memcpy.
    let tail = name.get(at..).unwrap_or_default();
    (0..KEY_BYTES).fold(0, |key, i| key << 8 | SortKey::from(tail.get(i).copied().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files [`walk_dir_in_passes`] gives below `dir`, holding at most
    /// `at_once` names of a directory, hidden ones too; anything but a
    /// file fails the test.
    fn files_walked(dir: &Path, at_once: usize) -> Vec<PathBuf> {
        walk_dir_in_passes(dir, at_once, true)
            .map(|item| match item {
                Ok(Input::File(p)) => p,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    /// A file's name in messages is its path as `display()` writes it,
    /// bytes that are no UTF-8 as U+FFFD, however it is made.
    #[test]
    fn a_files_name_is_its_path_as_displayed() {
        use std::os::unix::ffi::OsStrExt;
        for bytes in [&b"logs/a.fgn"[..], b"caf\xc3\xa9/\xff\xfe.fgn", b"x\xe2\x82.fgn", b""] {
            let path = PathBuf::from(std::ffi::OsStr::from_bytes(bytes));
            assert_eq!(
                Input::File(path.clone()).name(),
                path.display().to_string(),
                "{bytes:?}"
            );
        }
    }

    /// Regression guard for what the walk takes below a directory and how
    /// a file's packing is told: by the name's ending for logs and
    /// archives, by the first bytes for compression, so that no text (an
    /// FGN log starts with `[`, `;` or a blank) is ever taken for packed.
    #[test]
    fn logs_archives_and_packings_are_told_apart() {
        for log in ["g.fgn", "a/b.fgn.gz", "g.fgn.zst", "g.fgn.xz"] {
            assert!(is_log_name(log) && !is_archive_name(Path::new(log)), "{log}");
        }
        for other in ["g.fgn.bak", "g.fgnx", "g.txt.gz", "fgn"] {
            assert!(!is_log_name(other), "{other}");
        }
        for archive in [
            "a.tar",
            "a.tar.gz",
            "a.tgz",
            "a.tar.zst",
            "a.tzst",
            "a.tar.xz",
            "a.txz",
            "a.zip",
        ] {
            assert!(
                is_archive_name(Path::new(archive)) && !is_log_name(archive),
                "{archive}"
            );
        }
        assert_eq!(packing(&[0x1f, 0x8b, 8]), Packing::Gzip);
        assert_eq!(packing(&[0x28, 0xb5, 0x2f, 0xfd, 0]), Packing::Zstd);
        assert_eq!(packing(b"\xfd7zXZ\0\0"), Packing::Xz);
        for text in [&b"[Game \"survival-chess\"]\n"[..], b"; a comment\n", b"", b"\x1f"] {
            assert_eq!(packing(text), Packing::Plain, "{text:?}");
        }
        assert_eq!(member_path("./2025/g.fgn"), "2025/g.fgn");
        assert!(wanted_member("2025/g.fgn", false) && !wanted_member("2025/.trash/g.fgn", false));
        assert!(wanted_member("2025/.trash/g.fgn", true) && !wanted_member("2025/notes.txt", true));
    }

    /// Regression guard for the walk in passes: over a tree of directories
    /// with more entries than one pass holds, it gives exactly the `.fgn`
    /// files (and the links to files named so) in the order of the walk it
    /// replaced (walkdir sorting each directory by name, which puts a
    /// directory `a` and its files before a file `a.fgn` beside it),
    /// whatever the number of names held at once.
    #[test]
    fn the_walk_in_passes_gives_every_log_in_the_order_walkdir_sorted_them() {
        let root = std::env::temp_dir().join(format!("fgn-walk-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["", "b", "b/a", "d", "d/e/f", "d/e.fgn"] {
            std::fs::create_dir_all(root.join(dir)).expect("a test directory");
            for name in ["x.fgn", "a.fgn", "m.txt", "c.fgn", "zz.fgn", "a1.fgn", "B.fgn"] {
                std::fs::write(root.join(dir).join(name), "").expect("a test file");
            }
        }
        std::os::unix::fs::symlink(root.join("d"), root.join("link-to-dir.fgn")).expect("a link");
        std::os::unix::fs::symlink(root.join("a.fgn"), root.join("link.fgn")).expect("a link");
        // The walk this one replaced.
        let expected: Vec<PathBuf> = walkdir::WalkDir::new(&root)
            .follow_links(false)
            .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
            .into_iter()
            .map(|e| e.expect("a readable test tree"))
            .filter(|e| {
                let (path, kind) = (e.path(), e.file_type());
                !kind.is_dir() && path.extension().is_some_and(|x| x == "fgn") && (kind.is_file() || path.is_file())
            })
            .map(walkdir::DirEntry::into_path)
            .collect();
        assert!(expected.len() > 30 && expected.contains(&root.join("link.fgn")));
        for at_once in [1, 2, 3, 7, 100] {
            let walked = files_walked(&root, at_once);
            assert_eq!(walked, expected, "{at_once} names at once");
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    /// Regression (issue 42): the walk read a directory once for every
    /// 4,096 names, so a directory of 100,000 logs 25 times on the one
    /// thread that walks. A directory whose names all fit in what a pass
    /// holds is read once; a larger one once for each next half of that.
    #[test]
    fn a_directory_is_read_once_when_its_names_fit_and_in_halves_when_not() {
        let dir = std::env::temp_dir().join(format!("fgn-passes-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a test directory");
        for i in 0..10 {
            std::fs::write(dir.join(format!("{i}.fgn")), "").expect("a test file");
        }
        for (at_once, passes) in [(10, 1), (100, 1), (4, 4), (9, 2)] {
            let mut listing = Listing::new(dir.clone(), at_once);
            let mut names = Vec::new();
            while let Some(entry) = listing.next() {
                names.push(entry.expect("a readable entry").0.to_string_lossy().into_owned());
            }
            let expected: Vec<String> = (0..10).map(|i| format!("{i}.fgn")).collect();
            assert_eq!(names, expected, "{at_once} names at once");
            assert_eq!(listing.passes, passes, "{at_once} names at once");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A [`Named`] for the sorting tests, of any bytes (a file's type is
    /// needed, and any will do).
    fn named(bytes: &[u8]) -> Named {
        use std::os::unix::ffi::OsStrExt;
        Named {
            name: std::ffi::OsStr::from_bytes(bytes).into(),
            kind: std::fs::metadata(std::env::temp_dir())
                .expect("the temporary directory")
                .file_type(),
            key: 0,
        }
    }

    /// Regression guard for the sort by keys of a few bytes (issue 42): it
    /// gives exactly the order of a plain sort of the names' bytes, for
    /// names that share long beginnings, names that begin others, names
    /// that end around the end of a key, bytes of 0x80 and more (no UTF-8
    /// text), and even NULs, which no file's name holds.
    #[test]
    fn names_sort_by_keys_in_the_order_of_their_bytes() {
        let prefixes: [&[u8]; 4] = [b"", b"s", b"survival-chess-1-", b"survival-chess-1-survival-chess-1-"];
        let alphabet: [u8; 8] = [b'0', b'1', b'9', b'.', b'a', 0x80, 0xc3, 0xff];
        let mut names: Vec<Vec<u8>> = Vec::new();
        for prefix in prefixes {
            // Every tail of up to two bytes, and then tails of up to 11
            // bytes of a few letters, so that many names tie on a key and
            // end in it, at it, or past it.
            names.push(prefix.to_vec());
            for a in alphabet {
                names.push([prefix, &[a]].concat());
                for b in alphabet {
                    names.push([prefix, &[a, b]].concat());
                }
            }
            let mut seed = 12_345u64;
            for _ in 0..400 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let len = (seed >> 33) as usize % 12;
                let tail: Vec<u8> = (0..len).map(|i| alphabet[(seed >> (4 + 3 * i)) as usize % 3]).collect();
                names.push([prefix, &tail].concat());
            }
        }
        for with_nul in [&b"ab"[..], b"ab\0", b"ab\0\0c", b"ab\0c", b"abc\0", b"abcd\0e", b"abcd"] {
            names.push(with_nul.to_vec());
        }
        names.sort_unstable();
        names.dedup();
        assert!(names.len() > 1_000);
        // Sorted from a shuffled order and from the reverse of the right one.
        let mut shuffled = names.clone();
        let mut seed = 99u64;
        for i in (1..shuffled.len()).rev() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            shuffled.swap(i, (seed >> 33) as usize % (i + 1));
        }
        let reversed: Vec<Vec<u8>> = names.iter().rev().cloned().collect();
        for start in [shuffled, reversed] {
            let mut held: Vec<Named> = start.iter().map(|name| named(name)).collect();
            sort_names(&mut held);
            let sorted: Vec<&[u8]> = held.iter().map(|n| n.name.as_encoded_bytes()).collect();
            assert!(sorted == names, "the keyed sort differs from a plain one");
        }
        for few in [&[][..], &[b"b".to_vec()], &[b"b".to_vec(), b"a".to_vec()]] {
            let mut held: Vec<Named> = few.iter().map(|name| named(name)).collect();
            sort_names(&mut held);
            assert!(held.is_sorted(), "{held:?}");
        }
    }

    /// A name held costs a boxed name and a type and no more, the sort's key
    /// filling what was padding, so that the bound of [`NAMES_AT_ONCE`] in
    /// memory holds.
    #[test]
    fn a_name_held_is_no_larger_for_its_sort_key() {
        assert_eq!(
            std::mem::size_of::<Named>(),
            std::mem::size_of::<(Box<std::ffi::OsStr>, std::fs::FileType)>()
        );
    }

    /// Regression guard for the listing read with `std::fs::read_dir` and
    /// sorted by keys (issue 42), on a directory of awkward names (long
    /// shared beginnings, one name the beginning of another, lengths
    /// around a key's, bytes that are no UTF-8): every pass, however many
    /// names it holds, gives them in the order of a plain sort, and the
    /// walk gives its logs in that order.
    #[test]
    fn a_directory_of_awkward_names_is_listed_in_byte_order_in_every_pass() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("fgn-awkward-names-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a test directory");
        let mut names: Vec<Vec<u8>> = Vec::new();
        for prefix in [&b""[..], b"survival-chess-1-", b"survival-chess-1-12"] {
            for tail in [
                &b"1"[..],
                b"1.fgn",
                b"1.fgn.txt",
                b"12.fgn",
                b"123.fgn",
                b"1234.fgn",
                b"12345.fgn",
                b"123456.fgn",
                b"2.fgn",
                b"\x80.fgn",
                b"\xc3\xa9.fgn",
                b"\xff\xfe.fgn",
                b"z",
                b"z\xff",
            ] {
                names.push([prefix, tail].concat());
            }
        }
        for name in &names {
            std::fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), "").expect("a test file");
        }
        names.sort_unstable();
        names.dedup();
        assert!(names.len() > 40);
        let logs: Vec<PathBuf> = names
            .iter()
            .filter(|name| name.ends_with(b".fgn"))
            .map(|name| dir.join(std::ffi::OsStr::from_bytes(name)))
            .collect();
        for at_once in [1, 2, 3, 5, 8, 1_000] {
            let mut listing = Listing::new(dir.clone(), at_once);
            let mut listed = Vec::new();
            while let Some(entry) = listing.next() {
                listed.push(entry.expect("a readable entry").0.as_encoded_bytes().to_vec());
            }
            assert_eq!(listed, names, "{at_once} names at once");
            let walked = files_walked(&dir, at_once);
            assert_eq!(walked, logs, "{at_once} names at once");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A directory that cannot be opened is named in its error, with what
    /// went wrong in words, as walkdir named it before the listing read
    /// directories itself (checked against that code); it is listed no
    /// further.
    #[test]
    fn a_directory_that_cannot_be_opened_is_named_in_its_error() {
        let dir = std::env::temp_dir().join(format!("fgn-no-such-directory-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut listing = Listing::new(dir.join("gone"), 10);
        let error = listing.next().expect("an error").expect_err("no directory");
        assert_eq!(
            error.to_string(),
            format!("{}: no such file or directory", dir.join("gone").display())
        );
        assert!(listing.next().is_none());
        std::fs::write(&dir, "").expect("a test file");
        let mut listing = Listing::new(dir.join("gone"), 10);
        let error = listing.next().expect("an error").expect_err("no directory");
        assert_eq!(
            error.to_string(),
            format!("{}: a part of the path is not a directory", dir.join("gone").display())
        );
        assert!(listing.next().is_none());
        let _ = std::fs::remove_file(&dir);
    }

    /// The walk's bound in bytes (issue 42) counts the text that an
    /// archive's member and a game read on the walk carry, and nothing for
    /// a path, which the worker reads.
    #[test]
    fn what_an_input_holds_is_the_text_it_carries() {
        use crate::parallel::Held;
        let member: Result<Input, InputError> = Ok(Input::Member(Member {
            archive: PathBuf::from("a.tar"),
            path: "g.fgn".into(),
            bytes: vec![b'x'; 300],
        }));
        let game: Result<Input, InputError> = Ok(Input::Game(FileGame {
            file: "month.fgn".into(),
            ordinal: Some(2),
            lines_before: 10,
            bytes: vec![b'x'; 70],
            before: None,
        }));
        let file: Result<Input, InputError> = Ok(Input::File(PathBuf::from("g.fgn")));
        assert_eq!(
            [member.held_bytes(), game.held_bytes(), file.held_bytes()],
            [300, 70, 0]
        );
    }
}
