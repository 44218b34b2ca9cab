//! `fgn convert`: survival-chess logs to and from PGN, magic-draughts to
//! and from PDN (docs/interchange.md). The mappings are `fgn_tools::pgn`'s
//! and `fgn_tools::pdn`'s; this is reading files, writing the games and
//! reporting.

use std::path::PathBuf;

use fgn_notation::diagnostic::Diagnostic;
use fgn_notation::GameKind;
use fgn_tools::pgn::ReadGame;

use crate::cmd_replay::{check, Checked};
use crate::cmd_syntax::parse_games;
use crate::report::Reporter;
use fgn_tools::inputs::{read_text, Input};

/// The interchange formats `convert` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Portable Game Notation: 8x8 survival-chess as standard chess.
    Pgn,
    /// Portable Draughts Notation: magic-draughts, read back as plain
    /// Russian draughts.
    Pdn,
}

impl Format {
    /// The game the format holds.
    fn game(self) -> GameKind {
        match self {
            Format::Pgn => GameKind::SurvivalChess,
            Format::Pdn => GameKind::MagicDraughts,
        }
    }

    /// The log as one game of the format, or why it has none.
    fn write(self, game: &fgn_notation::Game) -> Result<String, String> {
        match self {
            Format::Pgn => fgn_tools::pgn::write_pgn(game),
            Format::Pdn => fgn_tools::pdn::write_pdn(game),
        }
    }

    /// Every game of a text of the format.
    fn read(self, text: &str) -> Vec<ReadGame> {
        match self {
            Format::Pgn => fgn_tools::pgn::read_pgn(text),
            Format::Pdn => fgn_tools::pdn::read_pdn(text),
        }
    }

    /// Its name in messages.
    fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::Pdn => "PDN",
        }
    }
}

/// `fgn convert`'s arguments.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Write the FGN logs PATH... in this format (`pgn` for survival-chess,
    /// `pdn` for magic-draughts), on standard output.
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        conflicts_with = "from",
        required_unless_present = "from"
    )]
    pub to: Option<Format>,
    /// Read files of this format (each may hold many games) into FGN.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub from: Option<Format>,
    /// With --from: write each game to its own new file in DIR (made if
    /// missing), named by the file it came from and its place in it
    /// (`games-0003.fgn`); a file that exists is refused unless --force.
    #[arg(long, value_name = "DIR", requires = "from")]
    pub out: Option<PathBuf>,
    /// With --from: print every game on standard output as one FGN file
    /// of several games (one blank line between them, docs/notation.md
    /// §2.8).
    #[arg(long, requires = "from", conflicts_with = "out")]
    pub multi: bool,
    /// With --out, overwrite files that exist.
    #[arg(long, requires = "out")]
    pub force: bool,
    /// With --to: FGN files, directories or `-`; with --from: files of
    /// that format or `-`.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// `fgn convert`.
pub fn convert(args: &ConvertArgs, rep: &mut Reporter) {
    match (args.to, args.from) {
        (Some(format), _) => to_format(format, &args.paths, rep),
        (None, Some(format)) => from_format(format, args, rep),
        (None, None) => rep.error("give --to FORMAT or --from FORMAT"),
    }
}

/// Every log of `paths` the format holds on standard output, one game
/// after another; a log it cannot hold is passed over with a note.
fn to_format(format: Format, paths: &[PathBuf], rep: &mut Reporter) {
    for (name, parsed) in parse_games(paths, rep) {
        if !parsed.is_ok() {
            continue;
        }
        let doc = &parsed.document;
        if doc.game.kind() != Some(format.game()) || doc.game.perspective().is_some() {
            // No replay for a game the format cannot hold anyway.
            if let Err(why) = format.write(&doc.game) {
                rep.note(&format!("{name}: skipped: {why}"));
            }
            continue;
        }
        if let Checked::Valid(_) = check(&name, doc, None, rep) {
            match format.write(&doc.game) {
                Ok(text) => rep.print(&text),
                Err(why) => rep.note(&format!("{name}: skipped: {why}")),
            }
        }
        rep.flush();
    }
}

/// The games of the format in `args.paths` as FGN: one game on standard
/// output, every game as one file of several (`--multi`), or each game to
/// its own file in `--out`.
fn from_format(format: Format, args: &ConvertArgs, rep: &mut Reporter) {
    let (paths, out, force) = (&args.paths, args.out.as_deref(), args.force);
    let mut games = Vec::new();
    for path in paths {
        let input = if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::File(path.clone())
        };
        let name = input.name();
        if path.is_dir() {
            rep.file_error(&name, &format!("a directory: name the {} files", format.name()));
            continue;
        }
        let text = match read_text(&input, rep.io()) {
            Ok(text) => text,
            Err(e) => {
                rep.error(&e);
                continue;
            }
        };
        let lines: Vec<&str> = text.lines().collect();
        let read = format.read(&text);
        if read.is_empty() {
            rep.invalid(&name, &format!("no {} game in it", format.name()));
        }
        let stem = path
            .file_stem()
            .map_or_else(|| "stdin".to_string(), |s| s.to_string_lossy().into_owned());
        for (number, game) in read.into_iter().enumerate() {
            match game.game {
                Ok(game) => games.push((format!("{stem}-{:04}.fgn", number + 1), game)),
                Err(e) => {
                    let line_text = usize::try_from(e.at.line)
                        .ok()
                        .and_then(|l| lines.get(l.wrapping_sub(1)))
                        .copied()
                        .unwrap_or("");
                    let start = line_text
                        .char_indices()
                        .nth(e.at.column.saturating_sub(1) as usize)
                        .map_or(line_text.len(), |(i, _)| i);
                    let mut d = Diagnostic::at_bytes(e.at.line.max(1), line_text, start, 1, e.message);
                    d.column = e.at.column.max(1);
                    rep.diagnostic(&name, &d, &format.name().to_ascii_lowercase());
                }
            }
        }
        rep.flush();
    }
    let Some(dir) = out else {
        match games.len() {
            0 => {}
            1 => rep.print(&games[0].1.canonical_text()),
            // One blank line between games, as `fgn fmt` writes a file of
            // several.
            _ if args.multi => {
                let texts: Vec<String> = games.iter().map(|(_, game)| game.canonical_text()).collect();
                rep.print(&texts.join("\n"));
            }
            n => rep.error(&format!(
                "the input holds {n} games; give --out DIR to write each to its own file, or --multi to print them as one file of several games"
            )),
        }
        return;
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        return rep.error(&format!(
            "{}: cannot make the directory: {}",
            dir.display(),
            crate::texts::io_error_text(&e)
        ));
    }
    let mut written = 0;
    for (file, game) in &games {
        match Reporter::write_file(&dir.join(file), game.canonical_text().as_bytes(), force) {
            Ok(()) => written += 1,
            Err(e) => rep.error(&e),
        }
    }
    rep.wrote(dir, Some(written));
}
