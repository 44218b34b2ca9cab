//! The baseline of docs/performance.md: pgn-reader + shakmaty replaying
//! games from one PGN file, as their own `validate` example does (each SAN
//! resolved to a legal move, then played).
//!
//! `chess-baseline pgn GAMES.uci OUT.pgn` writes the games of a move list
//! (one game a line, UCI moves, from the classical start without castling
//! rights) as PGN, with shakmaty's SAN including `+` and `#`. Each move of
//! the list carries fgn's check marker and a game that fgn ended on the
//! board ends with `mate` or `stalemate`; all of them must agree with
//! shakmaty, or it stops with an error (exit 2).
//! `chess-baseline replay GAMES.pgn` replays every game of the file and
//! prints how many games and plies it read; it exits 1 if a move does not
//! replay. `bench/run.sh` times the second against `fgn validate`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus as WriteSan;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// The classical start without castling rights: survival-chess has no
/// castling, and the games are replayed under the same rules on both sides.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

fn start() -> Chess {
    let fen: Fen = START.parse().expect("the start FEN is valid");
    fen.into_position(CastlingMode::Standard).expect("the start position is legal")
}

/// Writes the games of `uci` (a path) as PGN to `out`.
fn write_pgn(uci: &str, out: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(uci).map_err(|e| format!("{uci}: {e}"))?;
    let file = File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut w = BufWriter::new(file);
    let io = |e: io::Error| format!("{out}: {e}");
    for (n, line) in text.lines().enumerate() {
        let mut pos = start();
        writeln!(w, "[Event \"survival-chess corpus game {}\"]", n + 1).map_err(io)?;
        writeln!(w, "[SetUp \"1\"]\n[FEN \"{START}\"]\n").map_err(io)?;
        let game = n + 1;
        let mut ending = None;
        for (ply, token) in line.split_whitespace().enumerate() {
            if matches!(token, "mate" | "stalemate") {
                ending = Some(token);
                continue;
            }
            if pos.is_checkmate() || pos.is_stalemate() {
                return Err(format!("game {game}: shakmaty finds the game over before `{token}`"));
            }
            let (uci, marker) = match token.strip_suffix(['+', '#']) {
                Some(u) => (u, &token[u.len()..]),
                None => (token, ""),
            };
            let uci: UciMove = uci.parse().map_err(|e| format!("game {game}: `{token}`: {e}"))?;
            let m = uci
                .to_move(&pos)
                .map_err(|e| format!("game {}: `{token}` is not legal: {e}", n + 1))?;
            let san = WriteSan::from_move_and_play_unchecked(&mut pos, m);
            let expected = san.suffix.map_or(String::new(), |s| s.to_string());
            if marker != expected {
                return Err(format!(
                    "game {game}: fgn marks `{token}` with `{marker}`, shakmaty writes `{san}`"
                ));
            }
            if ply % 2 == 0 {
                write!(w, "{}. ", ply / 2 + 1).map_err(io)?;
            }
            write!(w, "{san} ").map_err(io)?;
        }
        let shakmaty_ending = if pos.is_checkmate() {
            Some("mate")
        } else if pos.is_stalemate() {
            Some("stalemate")
        } else {
            None
        };
        if ending != shakmaty_ending {
            return Err(format!(
                "game {game}: fgn ends it with {ending:?}, shakmaty with {shakmaty_ending:?}"
            ));
        }
        writeln!(w, "*\n").map_err(io)?;
    }
    w.flush().map_err(io)
}

/// Replays every game it visits, counting games and plies.
struct Replayer {
    games: usize,
    plies: usize,
    failed: bool,
}

impl Visitor for Replayer {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Standard).ok());
            match pos {
                Some(pos) => *tags = Some(pos),
                None => {
                    eprintln!("game {}: invalid FEN tag", self.games);
                    self.failed = true;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                eprintln!("game {}: {san_plus}: {e}", self.games);
                self.failed = true;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Self::Movetext) -> Self::Output {}
}

fn replay(pgn: &str) -> Result<bool, String> {
    let file = File::open(pgn).map_err(|e| format!("{pgn}: {e}"))?;
    let mut reader = Reader::new(file);
    let mut replayer = Replayer {
        games: 0,
        plies: 0,
        failed: false,
    };
    reader.visit_all_games(&mut replayer).map_err(|e| format!("{pgn}: {e}"))?;
    println!("{} games, {} plies", replayer.games, replayer.plies);
    Ok(!replayer.failed)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["pgn", uci, out] => write_pgn(uci, out).map(|()| true),
        ["replay", pgn] => replay(pgn),
        _ => Err("usage: chess-baseline pgn GAMES.uci OUT.pgn | chess-baseline replay GAMES.pgn".into()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("chess-baseline: {e}");
            ExitCode::from(2)
        }
    }
}
