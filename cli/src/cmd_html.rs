//! `fgn html`: a game as a self-contained HTML page that replays it, event
//! by event, as each viewer the log allows saw it; and for an archive, a
//! site of such pages with an index.
//!
//! The page holds no rules. Every position is drawn here, by the library:
//! [`walk`] gives the position after each event as the viewer saw it, the
//! SVG board is [`fgn_tools::svg`]'s and the words beside it are `fgn
//! show`'s ([`render::facts`]). The page's script only shows these frames
//! (the template is in `html/`). It loads nothing: its styles and script
//! are inline, and its Content-Security-Policy forbids every remote load.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

use fgn_notation::Color;
use fgn_notation::{parse, Diagnostic, Document, Game};
use fgn_replay::{Params, Place, StartError, ViewError, ViewWriter, Viewer};
use fgn_tools::align::hidden_fault;
use fgn_tools::frames::{walk, Every, Frame, Stop, WalkError};
use fgn_tools::placed::PlacedError;
use fgn_tools::summary::{summarize, Status as SummaryStatus, Summary};
use fgn_tools::svg::{board, escape, SvgOptions};
use serde::Serialize;

use crate::cmd_replay::{last_squares, last_text, load_rules, report_overrides, report_placed, viewer_name, Rules};
use crate::pipeline::report_syntax;
use crate::render;
use crate::report::{Reporter, Status};
use crate::texts::{hidden_fault_message, status_text};
use fgn_tools::inputs::{walk as walk_inputs, Input, InputError};

/// The page around the data: HTML, then its style and script, inlined.
const PAGE: &str = include_str!("html/page.html");
const STYLE: &str = include_str!("html/page.css");
const SCRIPT: &str = include_str!("html/page.js");
/// The index of a site.
const INDEX: &str = include_str!("html/index.html");

/// Everything a page shows, embedded in it as JSON.
#[derive(Serialize)]
struct PageData {
    /// The file's name.
    title: String,
    /// Game, players and date, from the header.
    subtitle: String,
    /// The viewers the page can be switched between.
    perspectives: Vec<Perspective>,
    /// The distinct lines of the SVG boards the frames show.
    lines: Vec<String>,
    /// Each distinct board, as the indices of its lines in `lines`.
    boards: Vec<Vec<u32>>,
}

/// The frames of one viewer.
#[derive(Serialize)]
struct Perspective {
    /// As `--as` names it: `all`, `white` or `black`.
    name: &'static str,
    /// As the switch shows it.
    label: String,
    /// The start and one frame after each event that applied.
    frames: Vec<FrameData>,
    /// Why the replay stops before the end, if it does.
    stop: Option<StopData>,
}

/// The position after some events, as the page shows it.
#[derive(Serialize)]
struct FrameData {
    /// Its board's index in [`PageData::boards`].
    board: usize,
    /// The file's event it comes after (0-based) and that event's line;
    /// `None` at the start.
    event: Option<usize>,
    line: Option<u32>,
    /// That event as the viewer saw it.
    seen: Option<String>,
    /// Which event it comes after, as `fgn show` says it.
    caption: String,
    /// Turn, notes, salts, result and hash, as `fgn show` writes them.
    facts: Vec<String>,
    /// The state or knowledge hash alone, and which it is.
    hash: String,
    hash_name: &'static str,
}

/// Why a replay stops: a rule broken at an event the viewer may see (the
/// event and its diagnostic), or one it may not (only that it ends).
#[derive(Serialize)]
struct StopData {
    event: Option<usize>,
    line: Option<u32>,
    text: Option<String>,
    message: String,
}

/// `fgn html`. One file makes one page, on standard output or in `--out`;
/// a directory or several files make a site in the directory `--out`.
pub fn html(
    paths: &[PathBuf],
    asked: Option<Viewer>,
    rules_file: Option<&Path>,
    out: Option<&Path>,
    force: bool,
    rep: &mut Reporter,
) {
    let rules = match load_rules(rules_file, rep.io()) {
        Ok(r) => r,
        Err(e) => return rep.error(&e),
    };
    let site = paths.len() > 1
        || paths.iter().any(|p| p.is_dir())
        || out.is_some_and(|o| o.is_dir() || o.as_os_str().to_string_lossy().ends_with('/'));
    if !site {
        return single(&paths[0], asked, &rules, out, force, rep);
    }
    match out {
        Some(dir) => write_site(paths, asked, &rules, dir, force, rep),
        None => rep.error("a directory or several files make a site of pages: name its directory with --out"),
    }
}

/// One file's page, on standard output or in the file `out`.
fn single(path: &Path, asked: Option<Viewer>, rules: &Rules, out: Option<&Path>, force: bool, rep: &mut Reporter) {
    let mut parsed = crate::cmd_syntax::parse_all(&[path.to_path_buf()], rep);
    if parsed.len() != 1 {
        if rep.status == Status::Ok {
            rep.error("html takes one file, or a directory with --out");
        }
        return;
    }
    let (input, _, p) = parsed.remove(0);
    if !p.is_ok() {
        // As `fgn show`: the lines that failed would be missing from the
        // replay; the errors are reported.
        return;
    }
    let Ok(html) = page(&input.name(), &p.document, rules, asked, rep) else {
        return;
    };
    match out {
        // The one overwrite policy of every --out (docs/cli.md).
        Some(file) => match Reporter::write_file(file, html.as_bytes(), force) {
            Ok(()) => rep.wrote(file, None),
            Err(e) => rep.error(&e),
        },
        None => rep.print(&html),
    }
}

/// The viewers a page of `file` shows: the one asked for, or every one the
/// file allows (a view file: its own player).
fn viewers(file: &Game, asked: Option<Viewer>) -> Vec<Viewer> {
    match (file.perspective(), asked) {
        (Some(side), None | Some(Viewer::Everyone)) => vec![Viewer::of(side)],
        (_, Some(viewer)) => vec![viewer],
        (None, None) => vec![Viewer::Everyone, Viewer::White, Viewer::Black],
    }
}

/// The page of the log `doc` (read without syntax errors) named `name`,
/// or why it has none. What `fgn show` reports of the log is reported
/// here too: the rule error it breaks (once, as the first viewer saw it),
/// the parameters a rules file overrides, why it cannot be replayed.
fn page(
    name: &str,
    doc: &Document,
    rules: &Rules,
    asked: Option<Viewer>,
    rep: &mut Reporter,
) -> Result<String, String> {
    let file = &doc.game;
    let Some(kind) = file.kind() else {
        let message = "the header names no game this fgn knows".to_string();
        rep.unsupported(name, &message);
        return Err(message);
    };
    let Ok(params) = rules.params(kind) else {
        rules.refuse_once(kind, rep);
        return Err(format!("the rules file has no parameters for {kind}"));
    };
    // A player's page of a full log is the page of that player's view of
    // it, made as `fgn view` makes it: it holds nothing the player did not
    // know, not even how many events it saw nothing of, or their lines.
    if let (None, Some(side)) = (file.perspective(), asked.and_then(Viewer::color)) {
        return player_page(name, doc, side, params, rep);
    }
    let mut boards = Boards::default();
    let mut perspectives = Vec::new();
    for (i, viewer) in viewers(file, asked).into_iter().enumerate() {
        let first = i == 0;
        perspectives.push(perspective(name, doc, viewer, params, first, &mut boards, rep)?);
    }
    let data = PageData {
        title: name.to_string(),
        subtitle: subtitle(file),
        perspectives,
        lines: boards.lines,
        boards: boards.boards,
    };
    Ok(fill_page(&data))
}

/// The page of `side`'s view of the full log `doc`: the view made under
/// `params`, up to the log's first rule error, drawn as a view file is. A
/// rule error ends it as `fgn view` ends it: told where it is the player's
/// own event, else only that the log breaks a rule at an event the player
/// may not see.
fn player_page(
    name: &str,
    doc: &Document,
    side: Color,
    params: Option<&Params>,
    rep: &mut Reporter,
) -> Result<String, String> {
    let file = &doc.game;
    let mut writer = match ViewWriter::with_params(&file.header, side, params) {
        Ok((writer, _)) => writer,
        Err(ViewError::Start(StartError::Header { tag, error })) => {
            let placed = PlacedError::in_header(doc, tag.as_deref(), &error);
            report_placed(name, &placed, rep);
            return Err(diagnostic(name, &placed));
        }
        Err(e) => {
            rep.unsupported(name, &e.to_string());
            return Err(e.to_string());
        }
    };
    let mut text = String::new();
    for tag in &writer.header().tags {
        text.push_str(&format!("{tag}\n"));
    }
    text.push('\n');
    let mut lines = Vec::new();
    let mut fault = None;
    for (i, event) in file.events.iter().enumerate() {
        let pushed = writer.push(i, event, &mut lines);
        for line in lines.drain(..) {
            line.write_line(&mut text);
            text.push('\n');
        }
        if let Err(error) = pushed {
            fault = Some(error);
            break;
        }
    }
    let view = parse(text.as_bytes()).document;
    let mut boards = Boards::default();
    let mut perspective = perspective(name, &view, Viewer::of(side), params, true, &mut boards, rep)?;
    if let Some(error) = fault {
        let message = if hidden_fault(file, side, &error) {
            let message = hidden_fault_message(name, side);
            rep.invalid(name, &message);
            message
        } else {
            let placed = PlacedError::new(doc, &error);
            report_placed(name, &placed, rep);
            diagnostic(name, &placed)
        };
        perspective.stop.get_or_insert(StopData {
            event: None,
            line: None,
            text: None,
            message,
        });
    }
    perspective.label = format!("{}'s view", side.name());
    let data = PageData {
        title: name.to_string(),
        subtitle: subtitle(file),
        perspectives: vec![perspective],
        lines: boards.lines,
        boards: boards.boards,
    };
    Ok(fill_page(&data))
}

/// The boards of a page, kept small: each distinct line of their SVG text
/// once, and each board as the indices of its lines (joined with `\n`
/// they are the SVG again). Between two events most squares stay as they
/// were, so a long game's page stays a small multiple of one board.
#[derive(Default)]
struct Boards {
    lines: Vec<String>,
    line_index: HashMap<String, u32>,
    boards: Vec<Vec<u32>>,
    board_index: HashMap<Vec<u32>, usize>,
}

impl Boards {
    /// The index of the board `svg`, added if it is new.
    fn add(&mut self, svg: &str) -> usize {
        let board: Vec<u32> = svg
            .split('\n')
            .map(|line| match self.line_index.get(line) {
                Some(&i) => i,
                None => {
                    let i = u32::try_from(self.lines.len()).expect("fewer than 2^32 lines");
                    self.lines.push(line.to_string());
                    self.line_index.insert(line.to_string(), i);
                    i
                }
            })
            .collect();
        if let Some(&i) = self.board_index.get(&board) {
            return i;
        }
        self.boards.push(board.clone());
        self.board_index.insert(board, self.boards.len() - 1);
        self.boards.len() - 1
    }
}

/// Every frame of `doc` as `viewer` saw it; `first` says whether this is
/// the page's first viewer, whose stop and overrides are reported.
fn perspective(
    name: &str,
    doc: &Document,
    viewer: Viewer,
    params: Option<&Params>,
    first: bool,
    boards: &mut Boards,
    rep: &mut Reporter,
) -> Result<Perspective, String> {
    let file = &doc.game;
    let mut frames = Vec::new();
    let flip = viewer == Viewer::Black;
    let walked = walk(file, viewer, params, usize::MAX, Every::Event, |frame| {
        frames.push(frame_data(doc, frame, viewer, flip, boards));
    });
    let walked = match walked {
        Ok(w) => w,
        Err(WalkError::View(e)) => {
            rep.unsupported(name, &e.to_string());
            return Err(e.to_string());
        }
        Err(WalkError::OtherSide { log, asked }) => {
            let message = format!(
                "{name} is {}'s view: it cannot be shown as {}",
                log.name(),
                viewer_name(asked)
            );
            rep.error(&message);
            return Err(message);
        }
        Err(WalkError::Start(StartError::Header { tag, error })) => {
            let placed = PlacedError::in_header(doc, tag.as_deref(), &error);
            report_placed(name, &placed, rep);
            return Err(diagnostic(name, &placed));
        }
    };
    if first {
        report_overrides(name, &walked.overridden, rep);
    }
    let stop = walked.stop.map(|stop| match stop {
        Stop::Hidden(side) => {
            let message = hidden_fault_message(name, side);
            if first {
                rep.invalid(name, &message);
            }
            StopData {
                event: None,
                line: None,
                text: None,
                message,
            }
        }
        Stop::Fault(error) => {
            let placed = PlacedError::new(doc, &error);
            if first {
                report_placed(name, &placed, rep);
            }
            let event = match error.place {
                Place::Event(i) => Some(i),
                Place::End | Place::Header => None,
            };
            StopData {
                event,
                line: event.map(|_| placed.line),
                text: event.and_then(|i| file.events.get(i)).map(ToString::to_string),
                message: diagnostic(name, &placed),
            }
        }
    });
    let (name, label) = match (viewer, file.perspective()) {
        (Viewer::Everyone, _) => ("all", "everything (the referee's view)".to_string()),
        (_, Some(side)) => (side.name(), format!("{}'s view (from the view file)", side.name())),
        (v, None) => (viewer_name(v), format!("{}'s view", viewer_name(v))),
    };
    Ok(Perspective {
        name,
        label,
        frames,
        stop,
    })
}

/// A placed rule error as `fgn validate` writes it, without colour.
fn diagnostic(name: &str, placed: &PlacedError) -> String {
    format!(
        "{name}:{}:{}: [{}] {}",
        placed.line,
        placed.column,
        placed.rule.name(),
        placed.message
    )
}

/// One frame as the page shows it, its board drawn into `boards`.
fn frame_data(doc: &Document, frame: &Frame, viewer: Viewer, flip: bool, boards: &mut Boards) -> FrameData {
    let picture = frame.seen.picture();
    let seen = frame.last.as_ref().map(|last| last_text(last, viewer));
    let line = frame
        .last
        .as_ref()
        .and_then(|last| doc.event_lines.get(last.index).copied());
    // The last event's squares are outlined as `fgn show --format svg`
    // outlines them.
    let highlight = frame.last.as_ref().map_or_else(Vec::new, last_squares);
    let options = SvgOptions {
        flip,
        highlight,
        title: None,
    };
    let shown = match (&seen, line) {
        (Some(seen), Some(line)) => Some((seen.clone(), line)),
        _ => None,
    };
    FrameData {
        board: boards.add(&board(&picture, &options)),
        event: frame.last.as_ref().map(|last| last.index),
        line,
        seen,
        caption: render::caption(frame.applied, shown.as_ref()),
        facts: render::facts(&frame.seen, &picture),
        hash: frame.seen.hash().to_string(),
        hash_name: render::hash_name(&frame.seen),
    }
}

/// Game, players and date, as far as the header names them.
fn subtitle(file: &Game) -> String {
    let header = &file.header;
    let mut parts = Vec::new();
    if let Some(game) = header.get("Game") {
        parts.push(game.to_string());
    }
    match (header.get("White"), header.get("Black")) {
        (None, None) => {}
        (white, black) => parts.push(format!(
            "{} (white) vs {} (black)",
            white.unwrap_or("?"),
            black.unwrap_or("?")
        )),
    }
    if let Some(date) = header.get("Date") {
        parts.push(date.to_string());
    }
    parts.join(" · ")
}

/// JSON made safe inside a `<script>` element: no `<` at all, so that no
/// text in the log (a chat line holding `</script>` or `<!--`) can end
/// the element or change how the browser reads it. `\u003c` is the same
/// character to the JSON reader.
fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .expect("page data serializes")
        .replace('<', "\\u003c")
}

/// The page with its title, style, script and data filled in.
fn fill_page(data: &PageData) -> String {
    let title = escape(&data.title);
    let json = script_json(data);
    fill(PAGE, |name| match name {
        "STYLE" => Some(STYLE),
        "SCRIPT" => Some(SCRIPT),
        "TITLE" => Some(&title),
        "DATA" => Some(&json),
        _ => None,
    })
}

/// `template` with each `@@NAME@@` replaced by `value(NAME)`. The template
/// is cut at its markers once, so that nothing a value holds is taken for
/// a marker.
fn fill<'a>(template: &str, value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(template.len());
    for (i, part) in template.split("@@").enumerate() {
        match (i % 2 == 1).then(|| value(part)).flatten() {
            Some(v) => out.push_str(v),
            None if i % 2 == 1 => panic!("the template's marker @@{part}@@ has no value"),
            None => out.push_str(part),
        }
    }
    out
}

/// One row of a site's index.
struct Row {
    /// The file's name.
    name: String,
    /// Its page, relative to the index; `None` when it has none.
    page: Option<String>,
    /// Its summary, when it could be read.
    summary: Option<Summary>,
    /// Why it has no page, or what is wrong with it.
    problem: Option<String>,
}

/// A site of `paths` in the directory `dir`: a page per game and the index.
/// A file that cannot be read, parsed or replayed is listed with why, and
/// the others are written all the same.
fn write_site(paths: &[PathBuf], asked: Option<Viewer>, rules: &Rules, dir: &Path, force: bool, rep: &mut Reporter) {
    // The one overwrite policy of every --out (docs/cli.md), for the site
    // as a whole: a directory that holds one (its index) is refused unless
    // --force, and then every page of the new site replaces its namesake.
    let index = dir.join("index.html");
    if !force && index.exists() {
        return rep.error(&format!(
            "{}: not written: it already holds a site, {} (--force overwrites it)",
            dir.display(),
            index.display()
        ));
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return rep.error(&format!(
            "{}: cannot make the directory: {}",
            dir.display(),
            crate::texts::io_error_text(&e)
        ));
    }
    let mut rows = Vec::new();
    let mut taken = BTreeSet::new();
    let mut empty = Vec::new();
    for path in paths {
        // Pages of a directory's files are named from below it.
        let base = path.is_dir().then_some(path.as_path());
        for item in walk_inputs(std::slice::from_ref(path), rep.io().hidden()) {
            let input = match item {
                Ok(input) => input,
                Err(InputError { file, empty: true, .. }) => {
                    empty.extend(file);
                    continue;
                }
                Err(InputError { file, message, .. }) => {
                    match &file {
                        Some(f) => rep.file_error(f, &message),
                        None => rep.error(&message),
                    }
                    rows.push(Row::unread(file.unwrap_or_else(|| path.display().to_string()), message));
                    continue;
                }
            };
            for (log, stray) in logs_of(input, rep) {
                let page = SitePage {
                    base,
                    asked,
                    rules,
                    dir,
                };
                rows.push(site_page(&log, stray.as_ref(), page, &mut taken, rep));
            }
        }
    }
    crate::pipeline::report_empty(rows.is_empty(), &empty, rep);
    match Reporter::write_file(&index, index_page(&rows).as_bytes(), true) {
        Ok(()) => {
            let pages = rows.iter().filter(|r| r.page.is_some()).count();
            rep.wrote(dir, Some(pages + 1));
        }
        Err(e) => rep.error(&e),
    }
}

impl Row {
    fn unread(name: String, message: String) -> Row {
        Row {
            name,
            page: None,
            summary: None,
            problem: Some(message),
        }
    }
}

/// The logs of `input`: itself, or each game of a file of several games
/// (docs/notation.md §2.8), a page each; text before the first game of
/// such a file is a log of its own that cannot be read, `input` with that
/// text's one syntax error, which has its row of the index as any log
/// with a syntax error has (every file is accounted for). An input that
/// cannot be read is given as it is, for [`site_page`] to report.
fn logs_of(input: Input, rep: &mut Reporter) -> Vec<(Input, Option<Diagnostic>)> {
    let Ok(bytes) = input.read_bytes(rep.io()) else {
        return vec![(input, None)];
    };
    let games = fgn_notation::split::split(&bytes);
    if games.is_one_log() {
        return vec![(input, None)];
    }
    let name = input.name();
    let mut logs = Vec::new();
    for game in games {
        match game {
            Err(stray) => logs.push((input.clone(), Some(stray))),
            Ok(game) => logs.push((
                Input::Game(fgn_tools::inputs::FileGame {
                    file: name.clone(),
                    ordinal: game.ordinal,
                    lines_before: game.first_line.saturating_sub(1),
                    bytes: game.text.to_vec(),
                    before: None,
                }),
                None,
            )),
        }
    }
    logs
}

/// Where and how [`site_page`] writes a page: the directory its input was
/// found in (pages are named from below it), the viewer asked for, the
/// rules, and the site's directory.
#[derive(Clone, Copy)]
struct SitePage<'a> {
    base: Option<&'a Path>,
    asked: Option<Viewer>,
    rules: &'a Rules,
    dir: &'a Path,
}

/// Reads `input`, writes its page into the site's directory under a name
/// no other page of the site has taken, and gives its row of the index;
/// with `stray`, `input` is the text before the first game of a file of
/// several, which reads as that one syntax error and has no page.
fn site_page(
    input: &Input,
    stray: Option<&Diagnostic>,
    site: SitePage<'_>,
    taken: &mut BTreeSet<String>,
    rep: &mut Reporter,
) -> Row {
    let SitePage {
        base,
        asked,
        rules,
        dir,
    } = site;
    let name = input.name();
    let bytes = match stray {
        Some(_) => Vec::new(),
        None => match input.read_bytes(rep.io()) {
            Ok(b) => b,
            Err(e) => {
                rep.file_error(&name, &e.message);
                return Row::unread(name, e.message);
            }
        },
    };
    let parsed = match (stray, input) {
        (Some(stray), _) => fgn_notation::split::stray_parsed(stray.clone()),
        // A game of a file of several, at the file's lines.
        (None, Input::Game(game)) => fgn_notation::split::GameText {
            text: &bytes,
            first_line: game.lines_before.saturating_add(1),
            ordinal: game.ordinal,
        }
        .parse(),
        (None, _) => parse(&bytes),
    };
    report_syntax(rep, &name, &parsed.diagnostics);
    let summary = summarize(&parsed);
    let made = if parsed.is_ok() {
        page(&name, &parsed.document, rules, asked, rep)
    } else {
        Err(summary.error.as_ref().map_or("it cannot be read".to_string(), |e| {
            format!("line {}: {}", e.line, e.message)
        }))
    };
    let problem = match &made {
        Err(why) => Some(why.clone()),
        Ok(_) => summary
            .error
            .as_ref()
            .map(|e| format!("line {}: {}", e.line, e.message)),
    };
    let page = match made {
        Ok(html) => {
            let file = page_name(input, base, taken);
            let path = dir.join(&file);
            let written = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&path, html));
            match written {
                Ok(()) => Some(file),
                Err(e) => {
                    rep.error(&format!(
                        "{}: cannot write: {}",
                        path.display(),
                        crate::texts::io_error_text(&e)
                    ));
                    None
                }
            }
        }
        Err(_) => None,
    };
    // In the index, a file found in a directory is named from there.
    let shown = match (input, base) {
        (Input::Game(g), Some(b)) => Path::new(&g.file).strip_prefix(b).map_or(name, |below| {
            fgn_notation::split::game_name(&below.display().to_string(), g.ordinal)
        }),
        (Input::File(p), Some(b)) => p.strip_prefix(b).map_or(name, |below| below.display().to_string()),
        (Input::Member(m), Some(b)) => m.archive.strip_prefix(b).map_or(name, |below| {
            format!("{}{}{}", below.display(), fgn_tools::inputs::MEMBER_SEPARATOR, m.path)
        }),
        _ => name,
    };
    Row {
        name: shown,
        page,
        summary: Some(summary),
        problem,
    }
}

/// The page of `input` in a site: its path below the directory it was
/// found in (its file name, when named alone), each part made of letters,
/// digits, `.`, `-` and `_` only, with `.html` added, and numbered when
/// another file already took that name.
fn page_name(input: &Input, base: Option<&Path>, taken: &mut BTreeSet<String>) -> String {
    let path = match input {
        Input::Stdin => PathBuf::from("stdin"),
        Input::File(p) => match base.and_then(|b| p.strip_prefix(b).ok()) {
            Some(below) => below.to_path_buf(),
            None => p.file_name().map_or_else(|| PathBuf::from("log"), PathBuf::from),
        },
        // A member's page is below a folder named as its archive.
        Input::Member(m) => {
            let archive = match base.and_then(|b| m.archive.strip_prefix(b).ok()) {
                Some(below) => below.to_path_buf(),
                None => m
                    .archive
                    .file_name()
                    .map_or_else(|| PathBuf::from("archive"), PathBuf::from),
            };
            archive.join(&m.path)
        }
        // A game of a file of several: the file's page name with the
        // game's number (`month.fgn-12`).
        Input::Game(g) => {
            let file = Path::new(&g.file);
            let path = match base.and_then(|b| file.strip_prefix(b).ok()) {
                Some(below) => below.to_path_buf(),
                None => file.file_name().map_or_else(|| PathBuf::from("log"), PathBuf::from),
            };
            let mut name = path.into_os_string();
            if let Some(n) = g.ordinal {
                name.push(format!("-{n}"));
            }
            PathBuf::from(name)
        }
    };
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(safe_part(&part.to_string_lossy())),
            _ => None,
        })
        .collect();
    let stem = if parts.is_empty() {
        "log".to_string()
    } else {
        parts.join("/")
    };
    let mut name = format!("{stem}.html");
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}-{n}.html");
        n += 1;
    }
    name
}

/// One part of a path, safe as a file name on every system and in a URL.
fn safe_part(part: &str) -> String {
    let safe: String = part
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' => c,
            _ => '_',
        })
        .collect();
    // A part made of dots alone would climb out of the site.
    if safe.chars().all(|c| c == '.') {
        "_".repeat(safe.len().max(1))
    } else {
        safe
    }
}

/// The index of a site: a table of its files.
fn index_page(rows: &[Row]) -> String {
    let mut body = String::new();
    for row in rows {
        let file = match &row.page {
            Some(page) => format!("<a href=\"{}\">{}</a>", escape(page), escape(&row.name)),
            None => escape(&row.name),
        };
        let s = row.summary.as_ref();
        let tag = |t: Option<&String>| t.map_or(String::new(), |t| escape(t));
        let players = s.map_or(String::new(), |s| match (&s.white, &s.black) {
            (None, None) => String::new(),
            (w, b) => format!(
                "{} – {}",
                escape(w.as_deref().unwrap_or("?")),
                escape(b.as_deref().unwrap_or("?"))
            ),
        });
        let result = s.map_or(String::new(), |s| match (s.outcome, s.phase) {
            (Some(outcome), _) => match s.reason {
                Some(reason) => format!("{} {}", outcome.text(), reason.name()),
                None => outcome.text().to_string(),
            },
            // Replayed and not decided: playing, or awaiting an extra.
            (None, Some(_)) => status_text(fgn_replay::Phase::Playing),
            (None, None) => String::new(),
        });
        let (class, status) = match (s.map(|s| s.status), &row.page) {
            (Some(SummaryStatus::Valid), _) => ("valid", "✓ valid"),
            (Some(SummaryStatus::Invalid), _) => ("invalid", "✗ invalid"),
            (Some(SummaryStatus::Unsupported), _) => ("unsupported", "? not checked"),
            (None, _) => ("unread", "✗ not read"),
        };
        let problem = row
            .problem
            .as_ref()
            .map_or(String::new(), |p| format!("<div class=\"problem\">{}</div>", escape(p)));
        body.push_str(&format!(
            "<tr class=\"{class}\"><td>{file}{problem}</td><td>{}</td><td>{players}</td><td>{}</td><td>{}</td><td>{status}</td></tr>\n",
            tag(s.and_then(|s| s.game.as_ref())),
            tag(s.and_then(|s| s.date.as_ref())),
            escape(&result),
        ));
    }
    fill(INDEX, |name| (name == "ROWS").then_some(body.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Page names stay inside the site and never collide.
    #[test]
    fn page_names_are_safe_and_distinct() {
        let mut taken = BTreeSet::new();
        let base = Path::new("/archive");
        let input = |p: &str| Input::File(PathBuf::from(p));
        assert_eq!(
            page_name(&input("/archive/2024/a game?.fgn"), Some(base), &mut taken),
            "2024/a_game_.fgn.html"
        );
        assert_eq!(page_name(&input("/elsewhere/x.fgn"), None, &mut taken), "x.fgn.html");
        assert_eq!(page_name(&input("/other/x.fgn"), None, &mut taken), "x.fgn-2.html");
        assert_eq!(safe_part(".."), "__");
        assert_eq!(page_name(&Input::Stdin, None, &mut taken), "stdin.html");
    }

    /// No text of a log can end the script element that holds the data.
    #[test]
    fn script_json_has_no_angle_bracket() {
        let json = script_json(&serde_json::json!({"chat": "</script><script>alert(1)</script><!--"}));
        assert!(!json.contains('<'), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).expect("still JSON");
        assert_eq!(back["chat"], "</script><script>alert(1)</script><!--");
    }
}
