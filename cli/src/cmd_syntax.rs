//! `fgn fmt`, `fgn json` and `fgn from-json`: the commands that need only the notation.

use std::io::Write;
use std::path::PathBuf;

use fgn_notation::json::{read_documents, Entry, JsonDocument, Place, ReadGame, StreamError};
use fgn_notation::split::{count_games, game_name, split};
use fgn_notation::{parse, Document, Parsed};

use crate::pipeline::report_syntax;
use crate::report::{Reporter, Status};
use fgn_tools::inputs::{collect, game_of_file, several_games, Input};

/// Reads every input, reporting the paths and files that cannot be read.
/// A path `FILE#N` that names no file but game N of the file of several
/// games FILE is that game ([`game_of_file`]).
fn read_all(paths: &[PathBuf], rep: &mut Reporter) -> Vec<(Input, Vec<u8>)> {
    let games: Vec<_> = paths
        .iter()
        .map(|p| (!p.exists()).then(|| game_of_file(p, rep.io())).flatten())
        .collect();
    if games.iter().any(Option::is_some) {
        let mut out = Vec::new();
        for (path, game) in paths.iter().zip(games) {
            match game {
                Some(Ok(mut input)) => {
                    let bytes = input.take_bytes(rep.io()).map_err(|e| e.to_string());
                    match bytes {
                        Ok(bytes) => out.push((input, bytes)),
                        Err(e) => rep.error(&e),
                    }
                }
                Some(Err(e)) => rep.error(&e),
                None => out.extend(read_all(std::slice::from_ref(path), rep)),
            }
        }
        return out;
    }
    let (inputs, errors, empty) = collect(paths, rep.io().hidden());
    for e in &errors {
        rep.error(e);
    }
    crate::pipeline::report_empty(inputs.is_empty() && errors.is_empty(), &empty, rep);
    let mut out = Vec::new();
    for input in inputs {
        match input.read(rep.io()) {
            Ok(bytes) => out.push((input, bytes)),
            Err(e) => rep.error(&e),
        }
    }
    out
}

/// Reads and parses every input as one log, reporting syntax errors, for
/// the commands that take one log (`show`, `view`, `diff`, `html` of a
/// file, ...): a file of several games (docs/notation.md §2.8) is refused
/// with one error that says so ([`several_games`]) and left out; one of
/// its games is read when named `FILE#N`.
pub fn parse_all(paths: &[PathBuf], rep: &mut Reporter) -> Vec<(Input, Vec<u8>, Parsed)> {
    let mut out = Vec::new();
    for (input, bytes) in read_all(paths, rep) {
        if let Input::Game(game) = &input {
            // One game of a file of several, named `FILE#N`.
            let text = fgn_notation::split::GameText {
                text: &bytes,
                first_line: game.lines_before.saturating_add(1),
                ordinal: game.ordinal,
            };
            let parsed = text.parse();
            report_syntax(rep, &input.name(), &parsed.diagnostics);
            out.push((input, bytes, parsed));
            continue;
        }
        if !split(&bytes).is_one_log() {
            rep.file_error(&input.name(), &several_games(count_games(&bytes), "this command"));
            continue;
        }
        let parsed = parse(&bytes);
        report_syntax(rep, &input.name(), &parsed.diagnostics);
        out.push((input, bytes, parsed));
    }
    out
}

/// Reads and parses every game of every input, reporting syntax errors:
/// a file of several games gives each game, named `FILE#N` with the file's
/// line numbers, for a command that reads many logs but not through the
/// pipeline (`convert --to`).
pub fn parse_games(paths: &[PathBuf], rep: &mut Reporter) -> Vec<(String, Parsed)> {
    let mut out = Vec::new();
    for (input, bytes) in read_all(paths, rep) {
        let name = input.name();
        let games = split(&bytes);
        if games.is_one_log() {
            let parsed = parse(&bytes);
            report_syntax(rep, &name, &parsed.diagnostics);
            out.push((name, parsed));
            continue;
        }
        for game in games {
            match game {
                Err(stray) => rep.diagnostic(&name, &stray, "syntax"),
                Ok(game) => {
                    let game_name = game_name(&name, game.ordinal);
                    let parsed = game.parse();
                    report_syntax(rep, &game_name, &parsed.diagnostics);
                    out.push((game_name, parsed));
                }
            }
        }
    }
    out
}

/// `fgn fmt`; with `diff` (and `check`), a unified diff of each file that
/// is not canonical, from its text to the canonical one, on standard output.
/// A file of several games is formatted game by game and stays one file
/// (docs/notation.md §9.3).
pub fn fmt(paths: &[PathBuf], check: bool, diff: bool, write: bool, rep: &mut Reporter) {
    if check && write {
        rep.error("--check and --write exclude each other");
        return;
    }
    if !check && !write {
        // Printing is for one file; a directory or several paths are for
        // --check or --write, which stream.
        let mut files = Vec::new();
        for (input, bytes) in read_all(paths, rep) {
            let name = input.name();
            let games = split(&bytes);
            if games.is_one_log() {
                let parsed = parse(&bytes);
                report_syntax(rep, &name, &parsed.diagnostics);
                files.push((name, bytes, Some(parsed)));
            } else {
                files.push((name, bytes, None));
            }
        }
        if files.len() > 1 {
            rep.error("formatting several files needs --check or --write (without them fmt prints one file)");
            return;
        }
        for (name, bytes, parsed) in files {
            let text = match parsed {
                Some(p) => completed(&name, p, write, rep).map(|doc| doc.formatted()),
                None => formatted_games(&name, &bytes, write, rep).map(|(text, _)| text),
            };
            if let Some(text) = text {
                rep.print(&text);
            }
        }
        return;
    }
    let mut unformatted = 0;
    crate::pipeline::each_file_until(
        paths,
        rep,
        |read, rep| {
            let (text, not_formatted) = if split(&read.bytes).is_one_log() {
                let parsed = parse(&read.bytes);
                report_syntax(rep, &read.name, &parsed.diagnostics);
                if fgn_replay::is_canonical(&parsed, &read.bytes) {
                    return false;
                }
                let Some(doc) = completed(&read.name, parsed, write, rep) else {
                    return false;
                };
                (doc.formatted(), vec![read.name.clone()])
            } else {
                match formatted_games(&read.name, &read.bytes, write, rep) {
                    Some((_, games)) if games.is_empty() => return false,
                    Some(formatted) => formatted,
                    None => return false,
                }
            };
            let name = &read.name;
            match &read.input {
                _ if check => {
                    for game in &not_formatted {
                        rep.invalid(game, "not in canonical form (run `fgn fmt --write` on it)");
                    }
                    let crlf = crlf_note(name, &read.bytes, diff);
                    if let Some(note) = &crlf {
                        rep.note(note);
                    }
                    if diff {
                        rep.print(&unified_diff(name, &read.bytes, &text, crlf.is_some()));
                    }
                    return true;
                }
                Input::Stdin => rep.error("--write needs files, not standard input"),
                Input::Member(_) => rep.error(&format!("{name}: not rewritten: fgn never writes into an archive")),
                // Only compressed files are read game by game on the walk,
                // and fmt reads files whole: said as for any compressed file.
                Input::Game(_) => rep.error(&format!(
                    "{name}: not rewritten: it is compressed, and fgn never writes compressed files"
                )),
                Input::File(path) if fgn_tools::inputs::is_packed(path) => rep.error(&format!(
                    "{name}: not rewritten: it is compressed, and fgn never writes compressed files"
                )),
                Input::File(path) => {
                    if let Err(e) = write_in_place(path, &read.bytes, text.as_bytes()) {
                        rep.error(&format!("{}: not rewritten: {e}", path.display()));
                    }
                }
            }
            false
        },
        |not_canonical, _| {
            unformatted += usize::from(not_canonical);
            std::ops::ControlFlow::Continue(())
        },
    );
    if check && unformatted == 0 && rep.status == Status::Ok {
        rep.note("all files are in canonical form");
    }
}

/// The canonical text of `bytes`, the file `name` of several games, each
/// game formatted and one blank line between them, and the names
/// (`FILE#N`) of the games whose text is not already that; `None`
/// (reported) when text stands before the first game or a game has syntax
/// errors or a torn last line: such a file is never printed or rewritten.
fn formatted_games(name: &str, bytes: &[u8], write: bool, rep: &mut Reporter) -> Option<(String, Vec<String>)> {
    // `fmt` formats a file whole, and reads at most a log's limit of it: a
    // larger file of several games was cut there, and its game cut at the
    // limit reported as a torn line, which it is not.
    if bytes.len() > fgn_notation::MAX_FILE_BYTES {
        rep.file_error(
            name,
            &format!(
                "cannot format: it is larger than {} bytes (64 MiB), the most `fmt` reads of a file (`fgn validate` reads its games one at a time)",
                fgn_notation::MAX_FILE_BYTES
            ),
        );
        return None;
    }
    let (mut text, mut not_formatted, mut readable) = (String::new(), Vec::new(), true);
    for game in split(bytes) {
        let game = match game {
            Ok(game) => game,
            Err(stray) => {
                report_syntax(rep, name, &[stray]);
                readable = false;
                continue;
            }
        };
        let game_name = game_name(name, game.ordinal);
        let parsed = game.parse();
        report_syntax(rep, &game_name, &parsed.diagnostics);
        let Some(doc) = completed(&game_name, parsed, write, rep) else {
            readable = false;
            continue;
        };
        // The blank line between two games is the later one's (the blank
        // and comment lines before a header are its game's).
        let start = text.len();
        if start > 0 {
            text.push('\n');
        }
        text.push_str(&doc.formatted());
        if game.text != &text.as_bytes()[start..] {
            not_formatted.push(game_name);
        }
    }
    readable.then_some((text, not_formatted))
}

/// Why every line of a file that is not canonical may differ: a note when
/// lines of `bytes` end in CRLF, which canonical FGN writes as LF. A diff
/// of such a file would mark each line changed, the change invisible, so
/// with `diff` the note says that the diff leaves the line ends out.
fn crlf_note(name: &str, bytes: &[u8], diff: bool) -> Option<String> {
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    if crlf == 0 {
        return None;
    }
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    let which = if crlf == lines {
        "its lines end".to_string()
    } else {
        format!("{crlf} of its {lines} lines end")
    };
    let shown = if diff { "; the diff leaves that change out" } else { "" };
    Some(format!(
        "{name}: {which} in CRLF (\\r\\n), which canonical FGN writes as LF (\\n){shown}"
    ))
}

/// What `fmt --write` would change in the file `name`, as `diff -u` writes
/// it: `--- name`, `+++ name (canonical)`, then hunks with three lines of
/// context; nothing when only what `crlf` leaves out differs. With `crlf`
/// the old text's CRLF line ends are read as LF, so that the diff shows the
/// changes that can be seen rather than every line ([`crlf_note`] says so).
fn unified_diff(name: &str, old: &[u8], new: &str, crlf: bool) -> String {
    // A log that parsed is UTF-8 text; the lossy reading never changes it.
    let mut old = String::from_utf8_lossy(old);
    if crlf {
        old = old.replace("\r\n", "\n").into();
    }
    let diff = similar::TextDiff::from_lines(old.as_ref(), new);
    let mut text = diff
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (canonical)"))
        .to_string();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A log completed to its canonical markers, ready for
/// [`Document::formatted`], or `None` (reported) when it has syntax
/// errors or a torn last line: formatting a torn file would drop its last
/// line, so fmt refuses it in every mode; the warning already says where
/// the line is. `name` is the log's: a file's, or a game's of a file of
/// several.
fn completed(name: &str, p: Parsed, write: bool, rep: &mut Reporter) -> Option<Document> {
    if !p.is_ok() || p.is_torn() {
        if p.is_ok() {
            rep.invalid(name, "not formatted: the last line is torn (no line end)");
        } else if write {
            rep.note(&format!("{name}: not rewritten because it has errors"));
        }
        return None;
    }
    // Canonical text writes the markers the rules derive (`=Q`, `+`, `#`),
    // so a log whose game has an engine is completed before printing.
    let mut document = p.document;
    fgn_replay::complete_markers_in_place(&mut document.game);
    Some(document)
}

/// Rewrites a log in place, safely: the new text goes to a sibling file
/// with the original's permissions, is synced, and is renamed over the
/// original only if the original still holds exactly what was read (a log is
/// append-only, and a line appended meanwhile must not be lost), under the
/// lock `fgn append` takes. A symbolic
/// link is followed, so the link stays and its target is formatted; a
/// read-only file is refused.
fn write_in_place(path: &std::path::Path, original: &[u8], bytes: &[u8]) -> Result<(), String> {
    let target =
        std::fs::canonicalize(path).map_err(|e| format!("cannot resolve: {}", crate::texts::io_error_text(&e)))?;
    let meta = std::fs::metadata(&target).map_err(|e| crate::texts::io_error_text(&e))?;
    if meta.permissions().readonly() {
        return Err("the file is read-only".into());
    }
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(".fgn-fmt.tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.set_permissions(meta.permissions())?;
        f.sync_all()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!(
            "cannot write {}: {}",
            tmp.display(),
            crate::texts::io_error_text(&e)
        ));
    }
    // `fgn append` (and every writer using the library's `append`) holds
    // an exclusive lock on the log while it reads and writes. Holding the
    // same lock from the comparison to the rename closes the window in which
    // a line appended after the comparison would be lost; an append that
    // waited meanwhile finds the file renamed over and opens the new one.
    let locked = std::fs::File::open(&target).and_then(|f| f.lock().map(|()| f));
    let unchanged = locked.is_ok() && std::fs::read(&target).is_ok_and(|now| now == original);
    if !unchanged {
        let _ = std::fs::remove_file(&tmp);
        return Err("the file changed while it was being formatted; nothing was written".into());
    }
    let renamed = std::fs::rename(&tmp, &target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        crate::texts::io_error_text(&e)
    });
    drop(locked);
    renamed
}

/// The file name a document or row of the log `name` read from `input`
/// carries: the path as given or found below a folder given (with `#N`
/// for a game of a file of several), `None` for standard input.
pub fn file_name(input: &Input, name: &str) -> Option<String> {
    match input {
        Input::Stdin => None,
        Input::File(_) | Input::Member(_) | Input::Game(_) => Some(name.to_string()),
    }
}

/// `fgn json`: a document per log, with its `file` and `summary`; a file
/// that cannot be read as FGN gives an object of type `unreadable` with
/// its file and summary (its syntax error), so that every file is
/// accounted for. One PATH naming a file gives one document; several
/// PATHs or a folder give one JSON array of them, written as the files
/// are read (so its shape depends on the arguments, never on how many
/// logs a folder holds); `--ndjson` gives one compact document per line.
/// `--parquet` writes the games table instead (a row per file:
/// `fgn_tools::games`).
pub fn json(paths: &[PathBuf], ndjson: bool, options: &crate::tables::TableOptions, rep: &mut Reporter) {
    use crate::tables::{plan, ParquetSink, Plan};
    let games = &fgn_tools::games::GAMES;
    match plan(games, options, rep) {
        Plan::Done => return,
        Plan::Ndjson(_) if options.columns.is_some() => {
            return rep.error("--columns chooses the columns of the games table: give it with --parquet or --schema");
        }
        Plan::Ndjson(_) => {}
        Plan::Parquet(writer, dir) => {
            let mut sink = ParquetSink::new(writer, dir);
            crate::pipeline::each(
                paths,
                rep,
                |log, rep| {
                    let summary = fgn_tools::summary::summarize(&log.parsed);
                    if log.parsed.is_ok() {
                        crate::cmd_select::report_strict_warnings(&log.name, &summary, rep);
                    }
                    [fgn_tools::games::GameRow {
                        file: file_name(&log.input, &log.name),
                        readable: log.parsed.is_ok(),
                        summary,
                    }]
                },
                |rows, rep| sink.push(&rows, rep),
            );
            return sink.finish(rep);
        }
    }
    let array = !ndjson && (paths.len() > 1 || paths.iter().any(|p| p.is_dir()));
    if array {
        rep.print("[");
    }
    let mut first = true;
    crate::pipeline::each(
        paths,
        rep,
        |log, rep| {
            let summary = fgn_tools::summary::summarize(&log.parsed);
            let file = file_name(&log.input, &log.name);
            let text = if log.parsed.is_ok() {
                crate::cmd_select::report_strict_warnings(&log.name, &summary, rep);
                let doc = JsonDocument::new(&log.parsed.document.game, file.as_deref(), Some(&summary));
                if ndjson {
                    serde_json::to_string(&doc)
                } else {
                    serde_json::to_string_pretty(&doc)
                }
            } else {
                let unreadable = Unreadable {
                    file: file.as_deref(),
                    summary: &summary,
                };
                if ndjson {
                    serde_json::to_string(&unreadable)
                } else {
                    serde_json::to_string_pretty(&unreadable)
                }
            };
            text.expect("a game and its summary always serialize")
        },
        |mut text, rep| {
            if !array {
                // The line end is pushed onto the document, which is ten
                // times its log's size, rather than formatted into a copy.
                text.push('\n');
                return rep.print(&text);
            }
            // An element of the array, indented as a pretty array's are
            // (JSON strings hold no line ends, so every line is JSON's own).
            let mut element = String::from(if first { "\n" } else { ",\n" });
            for (i, line) in text.lines().enumerate() {
                if i > 0 {
                    element.push('\n');
                }
                element.push_str("  ");
                element.push_str(line);
            }
            first = false;
            rep.print(&element);
        },
    );
    if array {
        rep.print(if first { "]\n" } else { "\n]\n" });
    }
}

/// What `fgn json` writes for a file that cannot be read as FGN: the
/// document's `format` and `version`, `"type": "unreadable"`, the file
/// (omitted for standard input) and the summary, which holds the syntax
/// error (docs/json.md §2).
struct Unreadable<'a> {
    file: Option<&'a str>,
    summary: &'a fgn_tools::summary::Summary,
}

impl serde::Serialize for Unreadable<'_> {
    fn serialize<Z: serde::Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::SerializeMap;
        let mut map = z.serialize_map(None)?;
        map.serialize_entry("format", fgn_notation::json::FORMAT)?;
        map.serialize_entry("version", &fgn_notation::json::VERSION)?;
        map.serialize_entry("type", "unreadable")?;
        if let Some(file) = self.file {
            map.serialize_entry("file", file)?;
        }
        map.serialize_entry("summary", self.summary)?;
        map.end()
    }
}

/// `fgn from-json`: one document, a JSON array of documents (`fgn json
/// DIR`), or documents one after the other (`--ndjson` lines, or the
/// pretty stream of version 1's `fgn json DIR`). One game is printed; more
/// need `out_dir` (made if missing), where each is written to a new file
/// named by its place and its `file`'s name (`0003-mate.fgn`), never over
/// an existing one. The input is read as a stream, one document at a
/// time, each game written before the next is read, so that memory does
/// not grow with the input; an object that stands for a file `fgn json`
/// could not read is skipped with a note. With `multi` every game is
/// printed as it comes, one file of several games (docs/notation.md §2.8).
pub fn from_json_cmd(
    path: &std::path::Path,
    out_dir: Option<&std::path::Path>,
    multi: bool,
    force: bool,
    rep: &mut Reporter,
) {
    let input = if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_path_buf())
    };
    let name = input.name();
    let mut conversion = Conversion {
        name: name.clone(),
        out_dir,
        multi,
        force,
        documents: 0,
        games: 0,
        written: 0,
        skipped: 0,
        first: None,
        rep,
    };
    // A large buffer: the deserializer takes the input a byte at a time.
    let read = match &input {
        Input::Stdin => conversion.rep.io().with_stdin(|stdin| {
            read_documents(std::io::BufReader::with_capacity(1 << 16, stdin), |place, entry| {
                conversion.document(place, entry)
            })
        }),
        // Never a member: the input is the path given, named above.
        Input::File(_) | Input::Member(_) | Input::Game(_) => match std::fs::File::open(path) {
            Ok(file) => read_documents(std::io::BufReader::with_capacity(1 << 16, file), |place, entry| {
                conversion.document(place, entry)
            }),
            Err(e) => Err(StreamError::Io(e)),
        },
    };
    conversion.finish(read);
}

/// A `from-json` run as its documents come.
struct Conversion<'a, 'r> {
    name: String,
    out_dir: Option<&'a std::path::Path>,
    /// Whether every game is printed, one after the other.
    multi: bool,
    force: bool,
    /// The documents read so far, skipped ones too: a game's number in
    /// the name of its file.
    documents: usize,
    /// The documents that are not skipped.
    games: usize,
    written: usize,
    /// The objects skipped, of files `fgn json` could not read.
    skipped: usize,
    /// The first game's text, or why it is none, until a second shows
    /// whether the input holds one game (printed, and a fault named by the
    /// input alone) or several (each fault named by its place as well);
    /// with `--out` a first game that converts is written at once.
    first: Option<(Place, Result<String, String>)>,
    rep: &'a mut Reporter<'r>,
}

impl Conversion<'_, '_> {
    /// Takes one document; false when nothing more is to be read.
    fn document(&mut self, place: Place, entry: Entry) -> bool {
        self.documents += 1;
        if let (1, Some(dir)) = (self.documents, self.out_dir) {
            if let Err(e) = std::fs::create_dir_all(dir) {
                self.rep.error(&format!(
                    "{}: cannot make the directory: {}",
                    dir.display(),
                    crate::texts::io_error_text(&e)
                ));
                return false;
            }
        }
        let read = match entry {
            Entry::Unreadable { file } => {
                self.skipped += 1;
                self.rep.note(&format!(
                    "{}: {place}: skipped: it stands for {}, which `fgn json` could not read",
                    self.name,
                    file.as_deref().unwrap_or("a file")
                ));
                return true;
            }
            Entry::NotAGame(why) => Err(why),
            Entry::Game(read) => check_log_hash(read.log_hash.as_ref(), &read.game).map(|()| *read),
        };
        self.games += 1;
        if self.multi {
            match read {
                Ok(read) => {
                    // One blank line between games, as `fgn fmt` writes a
                    // file of several.
                    let separator = if self.written > 0 { "\n" } else { "" };
                    self.rep.print(&format!("{separator}{}", read.game.canonical_text()));
                    self.written += 1;
                }
                Err(e) => self.rep.invalid(&format!("{}: {place}", self.name), &e),
            }
            return true;
        }
        match (self.games, self.out_dir) {
            (1, None) => {
                // A faithful conversion: the events as the JSON has them (so
                // that json -> from-json -> json is the identity); `fgn fmt`
                // adds the markers the rules derive.
                self.first = Some((place, read.map(|read| read.game.canonical_text())));
                true
            }
            // Several games without --out are refused once the input is
            // read through, with their number.
            (_, None) => true,
            (games, Some(dir)) => {
                self.report_first();
                match read {
                    Ok(read) => self.write(dir, &read),
                    Err(e) if games == 1 => self.first = Some((place, Err(e))),
                    Err(e) => self.rep.invalid(&format!("{}: {place}", self.name), &e),
                }
                true
            }
        }
    }

    /// Reports the first game's fault, held until the input showed more,
    /// with its place.
    fn report_first(&mut self) {
        if let Some((place, Err(e))) = self.first.take() {
            self.rep.invalid(&format!("{}: {place}", self.name), &e);
        }
    }

    /// Writes a game into `dir`, named by its number and its `file`.
    fn write(&mut self, dir: &std::path::Path, read: &ReadGame) {
        let base = read
            .file
            .as_deref()
            .and_then(|f| std::path::Path::new(f).file_name())
            .map_or_else(|| "game.fgn".to_string(), |f| f.to_string_lossy().into_owned());
        let target = dir.join(format!("{:04}-{base}", self.documents));
        match Reporter::write_file(&target, read.game.canonical_text().as_bytes(), self.force) {
            Ok(()) => self.written += 1,
            Err(e) => self.rep.error(&e),
        }
    }

    /// Says how the input ended: the one game printed, a fault, what was
    /// written.
    fn finish(mut self, read: Result<(), StreamError>) {
        if let Err(e) = read {
            // The input holds more than the first game, so with --out its
            // fault is told with its place; a game for standard output is
            // not printed from an input that is not one game.
            if self.out_dir.is_some() {
                self.report_first();
            }
            match e {
                StreamError::Io(e) => self.rep.error(&format!(
                    "{}: cannot read: {}",
                    self.name,
                    crate::texts::io_error_text(&e)
                )),
                StreamError::Json(e) => self.rep.invalid(&self.name, &e),
            }
            // Games were written before the fault was found: say so.
            if self.written > 0 {
                self.wrote();
            }
            return;
        }
        match (self.games, self.first.take()) {
            (0, _) if self.skipped == 0 => self.rep.invalid(&self.name, "no JSON document in it"),
            _ if self.multi => {}
            (1, Some((_, Ok(text)))) => self.rep.print(&text),
            (1, Some((_, Err(e)))) => self.rep.invalid(&self.name, &e),
            (games, _) if games > 1 && self.out_dir.is_none() => self.rep.error(&format!(
                "{} holds {games} games; give --out DIR to write each to its own file, or --multi to print them as one file of several games",
                self.name
            )),
            _ => self.wrote(),
        }
    }

    /// The tally of `--out`: the files written, and the objects skipped.
    fn wrote(&self) {
        let Some(dir) = self.out_dir else { return };
        if self.skipped == 0 {
            return self.rep.wrote(dir, Some(self.written));
        }
        let whose = if self.skipped == 1 { "a file" } else { "files" };
        self.rep.note(&format!(
            "wrote {} in {}; skipped {} for {whose} that `fgn json` could not read",
            crate::out::count(self.written, "file"),
            dir.display(),
            crate::out::count(self.skipped, "object")
        ));
    }
}

/// Nothing when the document's `summary.log_hash` (as `fgn json` writes
/// it) is absent, `null`, or the log hash of the game read; a hash that
/// differs means the events or header were changed after the summary was
/// written (or the summary was), and the document is refused rather than
/// converted into a log that is not the one its hash names.
fn check_log_hash(listed: Option<&serde_json::Value>, game: &fgn_notation::Game) -> Result<(), String> {
    match listed {
        None | Some(serde_json::Value::Null) => Ok(()),
        Some(serde_json::Value::String(listed)) => {
            let actual = fgn_tools::loghash::log_hash(game).to_string();
            if *listed == actual {
                Ok(())
            } else {
                Err(format!(
                    "the summary's \"log_hash\" is {listed}, but the game's log hash is {actual}: \
                     the document was changed after its summary was written"
                ))
            }
        }
        Some(other) => Err(format!(
            "the summary's \"log_hash\" must be a string `blake3:<hex>` or null, found {other}"
        )),
    }
}
