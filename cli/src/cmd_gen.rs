//! `fgn gen`: the arguments turned into `fgn_replay::gen::Options`, and the
//! generated games written to files or standard output (docs/gen.md).

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use fgn_notation::{GameKind, Header, Tag};
use fgn_replay::gen::{generate, Options, Rate, Rates, Setup};
use fgn_replay::Ruleset;

use crate::report::Reporter;

/// The arguments of `fgn gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// The game.
    #[arg(long, value_name = "GAME", value_parser = crate::values::named(&GameKind::ALL, GameKind::name))]
    game: GameKind,
    /// The seed every choice and world event of the games is derived from
    /// (with the game and each game's number; docs/gen.md, "Seeds").
    #[arg(long, value_name = "N")]
    seed: u64,
    /// How many games to make; more than one needs --out.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Write the games into DIR (made if missing) as GAME-N-1.fgn ...
    /// GAME-N-K.fgn, a file that exists refused unless --force, and say
    /// how many on standard error; without it the one game goes to
    /// standard output.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// With --out, overwrite files that exist.
    #[arg(long, requires = "out")]
    force: bool,
    /// The most player decisions after setup (moves, `end`, purchases,
    /// spells, shots) and timeouts; a game undecided there ends with a
    /// resignation of the side to move (see --unfinished).
    #[arg(long, value_name = "M", default_value_t = Options::DEFAULT_PLIES)]
    plies: usize,
    /// Play under changed parameters: a rules file as for validate (one
    /// game's parameters, or objects keyed by game name). Parameters a
    /// header tag can carry are written into each game's header; the others
    /// (setup limits, unit counts) need the same --rules to validate.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The board, WxH, as the `Board` tag sets it (over --rules).
    #[arg(long, value_name = "WxH")]
    board: Option<String>,
    /// Time limits in seconds, as the `TimeControl` tag sets them
    /// ("setup=120 move=60"; only "move=..." in games without setup), over
    /// --rules. Implies --clocks.
    #[arg(long, value_name = "SPEC")]
    time_control: Option<String>,
    /// Write a clock reading `{t=...}` on every player event, each move
    /// taking a random time within the time limits.
    #[arg(long)]
    clocks: bool,
    /// The players give salts derived from the seed, first in the log
    /// (open-world-chess, and magic-draughts with magic on).
    #[arg(long)]
    salts: bool,
    /// How the setups are made: one legal placement at a time, drawn at
    /// random (now and then one taken back), or (survival-chess) the
    /// classical army, one `place` event per side.
    #[arg(long, value_enum, default_value_t = SetupArg::Random)]
    setup: SetupArg,
    /// The chance per player decision that a player chats first (and once
    /// after the result), from 0 to 1.
    #[arg(long, value_name = "RATE", default_value_t = Rates::DEFAULT.chat)]
    chat: Rate,
    /// The chance per decision that the side to move resigns.
    #[arg(long, value_name = "RATE", default_value_t = Rates::DEFAULT.resign)]
    resign: Rate,
    /// The chance per decision that the side to move runs out of time
    /// (with clocks and a move limit); in setup, the chance per side that it
    /// is late (with a setup limit).
    #[arg(long, value_name = "RATE", default_value_t = Rates::DEFAULT.timeout)]
    timeout: Rate,
    /// The chance that a timeout's answer grants extra time (`extra yes`).
    #[arg(long, value_name = "RATE", default_value_t = Rates::DEFAULT.extra)]
    extra: Rate,
    /// The chance per decision of preferring a move that finishes the game:
    /// a mate, else a capture or attack. 0 plays every legal action with the
    /// same chance.
    #[arg(long, value_name = "RATE", default_value_t = Options::DEFAULT_FINISH)]
    finish: Rate,
    /// Leave a game still undecided after --plies decisions open (no
    /// result) instead of having the side to move resign.
    #[arg(long)]
    unfinished: bool,
}

/// `--setup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SetupArg {
    /// Drawn one legal placement at a time.
    Random,
    /// The classical army (survival-chess only).
    Classical,
}

/// `fgn gen`: makes the games and writes them; exit 2 for options that
/// cannot make a game or files that cannot be written.
pub fn gen(args: &GenArgs, rep: &mut Reporter) {
    let options = match options(args, rep.io()) {
        Ok(o) => o,
        Err(message) => return rep.error(&message),
    };
    if args.out.is_none() && args.count > 1 {
        return rep.error(&format!(
            "--count {} writes {} files: give --out DIR (without it one game goes to standard output)",
            args.count, args.count
        ));
    }
    let dir = args.out.as_deref();
    if let Some(dir) = dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return rep.error(&format!(
                "--out {}: cannot make the directory: {}",
                dir.display(),
                crate::texts::io_error_text(&e)
            ));
        }
    }
    let mut written = 0;
    for index in 1..=args.count {
        let options = Options {
            index,
            ..options.clone()
        };
        let game = match generate(&options) {
            Ok(g) => g,
            Err(e) => {
                rep.error(&e.to_string());
                break;
            }
        };
        let text = game.canonical_text();
        match dir {
            None => rep.print(&text),
            Some(dir) => {
                let path = dir.join(file_name(args.game, args.seed, index));
                if let Err(e) = Reporter::write_file(&path, text.as_bytes(), args.force) {
                    rep.error(&e);
                    break;
                }
                written += 1;
            }
        }
    }
    // What was written is said even when a file stopped the run.
    if let Some(dir) = dir {
        rep.wrote(dir, Some(written));
    }
}

/// The file name of game `index` of seed `seed`: `GAME-N-i.fgn`.
fn file_name(game: GameKind, seed: u64, index: u64) -> String {
    format!("{game}-{seed}-{index}.fgn")
}

/// The generator's options from the arguments: the game's defaults, then
/// the rules file's parameters, then --board and --time-control, each read
/// as the header tag of the same meaning.
fn options(args: &GenArgs, io: &crate::out::Output<'_>) -> Result<Options, String> {
    let game = args.game;
    let mut rules = Ruleset::defaults(game);
    if let Some(path) = &args.rules {
        let file = crate::cmd_replay::load_rules(Some(path), io)?;
        let params = file.params(game).map_err(|_| {
            format!(
                "rules file {}: its parameters are not {game}'s (a file for several games is keyed by game name)",
                path.display()
            )
        })?;
        rules
            .apply_header(&Header::default(), params)
            .map_err(|(_, fault)| format!("rules file {}: {}", path.display(), fault.message))?;
    }
    for (flag, tag, value) in [
        ("--board", "Board", &args.board),
        ("--time-control", "TimeControl", &args.time_control),
    ] {
        let Some(value) = value else { continue };
        let header = Header {
            tags: vec![Tag {
                name: tag.into(),
                value: value.clone(),
            }],
        };
        rules
            .apply_header(&header, None)
            .map_err(|(_, fault)| format!("{flag} \"{value}\": {}", fault.message))?;
    }
    let mut options = Options {
        index: 1,
        plies: args.plies,
        setup: match args.setup {
            SetupArg::Random => Setup::Random,
            SetupArg::Classical => Setup::Classical,
        },
        clocks: args.clocks || args.time_control.is_some(),
        rates: Rates {
            chat: args.chat,
            resign: args.resign,
            timeout: args.timeout,
            extra: args.extra,
        },
        finish: args.finish,
        resign_at_cap: !args.unfinished,
        ..Options::under(rules, args.seed)
    };
    if args.salts {
        options.salts = Some(options.player_salts());
    }
    Ok(options)
}
