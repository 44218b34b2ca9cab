//! Writes a corpus of random survival-chess games for the one-core
//! comparison with pgn-reader + shakmaty (`bench/run.sh`).
//!
//! `cargo run --release -p fgn-replay --example survival_corpus -- OUT N [MAX_PLIES]`
//! writes `OUT/fgn/game-00001.fgn` ... (one canonical log per game, the
//! classical army placed in setup on an 8x8 board) and `OUT/games.uci`, the
//! same games one line each as UCI moves (`e2e4`, `e7e8q`), which the
//! baseline crate turns into a PGN file with shakmaty's SAN writer. Games
//! from the classical start without castling or en passant are games both
//! tools can replay: survival-chess has neither (RULES.md section 1).

use std::fmt::Write as _;
use std::path::PathBuf;

use fgn_notation::{Action, BoardSize, Check, PieceKind, Reason};
use fgn_replay::gen::{generate, Options, Rate, Setup};
use fgn_replay::ruleset::{Board, SurvivalRules};
use fgn_replay::Ruleset;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: survival_corpus OUT N [MAX_PLIES]";
    let out = PathBuf::from(args.first().expect(usage));
    let count: u64 = args.get(1).expect(usage).parse().expect("N is a number");
    let max_plies: usize = args.get(2).map_or(400, |m| m.parse().expect("MAX_PLIES is a number"));
    let dir = out.join("fgn");
    std::fs::create_dir_all(&dir).expect("the output directory can be made");
    let rules = Ruleset::Survival(SurvivalRules {
        board: Board(BoardSize { files: 8, ranks: 8 }),
        ..SurvivalRules::default()
    });
    let (mut uci, mut plies, mut bytes) = (String::new(), 0usize, 0usize);
    for seed in 1..=count {
        // Uniformly random moves from the classical setup, left open at
        // the cap: long chess games without a resignation to convert.
        let options = Options {
            setup: Setup::Classical,
            plies: max_plies,
            finish: Rate::NEVER,
            resign_at_cap: false,
            ..Options::under(rules.clone(), seed)
        };
        let game = generate(&options).expect("a generated game");
        let text = game.canonical_text();
        bytes += text.len();
        std::fs::write(dir.join(format!("game-{seed:05}.fgn")), &text).expect("a log can be written");
        let mut first = true;
        for event in &game.events {
            if let Action::Result { reason, .. } = event.action {
                match reason {
                    Reason::Mate => uci.push_str(" mate"),
                    Reason::Stalemate => uci.push_str(" stalemate"),
                    _ => {}
                }
            }
            let Action::Move(m) = &event.action else { continue };
            let (from, to) = m.from.zip(m.to).expect("full logs name both squares");
            if !first {
                uci.push(' ');
            }
            first = false;
            let _ = write!(uci, "{from}{to}");
            if let Some(p) = m.promotion {
                uci.push(match p {
                    PieceKind::Queen => 'q',
                    PieceKind::Rook => 'r',
                    PieceKind::Bishop => 'b',
                    _ => 'n',
                });
            }
            match m.check {
                Some(Check::Check) => uci.push('+'),
                Some(Check::Mate) => uci.push('#'),
                None => {}
            }
            plies += 1;
        }
        uci.push('\n');
    }
    std::fs::write(out.join("games.uci"), uci).expect("the move list can be written");
    println!(
        "{count} games, {plies} plies, {bytes} bytes of FGN in {}",
        dir.display()
    );
}
