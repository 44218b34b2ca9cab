//! `fgn convert`: survival-chess logs to and from PGN (docs/interchange.md).
//! The mapping is `fgn_tools::pgn`'s; this is reading files, writing the
//! games and reporting.

use std::path::{Path, PathBuf};

use fgn_notation::diagnostic::Diagnostic;
use fgn_notation::GameKind;
use fgn_tools::pgn::{read_pgn, write_pgn};

use crate::cmd_replay::{check, Checked};
use crate::cmd_syntax::parse_all;
use crate::inputs::{read_text, Input};
use crate::report::Reporter;

/// The interchange formats `convert` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Portable Game Notation: 8x8 survival-chess as standard chess.
    Pgn,
}

/// `fgn convert`'s arguments.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Write the FGN logs PATH... in this format, on standard output.
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
        (Some(Format::Pgn), _) => to_pgn(&args.paths, rep),
        (None, Some(Format::Pgn)) => from_pgn(&args.paths, args.out.as_deref(), args.force, rep),
        (None, None) => rep.error("give --to FORMAT or --from FORMAT"),
    }
}

/// Every 8x8 survival-chess log of `paths` as PGN on standard output, one
/// game after another; a log PGN cannot hold is passed over with a note.
fn to_pgn(paths: &[PathBuf], rep: &mut Reporter) {
    for (input, _, parsed) in parse_all(paths, rep) {
        let name = input.name();
        if !parsed.is_ok() {
            continue;
        }
        let doc = &parsed.document;
        if doc.game.kind() != Some(GameKind::SurvivalChess) || doc.game.perspective().is_some() {
            // No replay for a game PGN cannot hold anyway.
            if let Err(why) = write_pgn(&doc.game) {
                rep.note(&format!("{name}: skipped: {why}"));
            }
            continue;
        }
        if let Checked::Valid(_) = check(&name, doc, None, rep) {
            match write_pgn(&doc.game) {
                Ok(text) => rep.print(&text),
                Err(why) => rep.note(&format!("{name}: skipped: {why}")),
            }
        }
        rep.flush();
    }
}

/// The PGN games of `paths` as FGN: one game on standard output, or each
/// game to its own file in `out`.
fn from_pgn(paths: &[PathBuf], out: Option<&Path>, force: bool, rep: &mut Reporter) {
    let mut games = Vec::new();
    for path in paths {
        let input = if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::File(path.clone())
        };
        let name = input.name();
        if path.is_dir() {
            rep.file_error(&name, "a directory: name the PGN files");
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
        let read = read_pgn(&text);
        if read.is_empty() {
            rep.invalid(&name, "no PGN game in it");
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
                    rep.diagnostic(&name, &d, "pgn");
                }
            }
        }
        rep.flush();
    }
    let Some(dir) = out else {
        match games.len() {
            0 => {}
            1 => rep.print(&games[0].1.canonical_text()),
            n => rep.error(&format!(
                "the input holds {n} games; give --out DIR to write each to its own file"
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
