//! The corpora the benchmark measures, and the one place that calls the
//! generator (`fgn_replay::gen`, what `fgn gen` runs), with uniform play.

use fgn_notation::{BoardSize, Game};
use fgn_replay::gen;
use fgn_replay::ruleset::{Board as BoardParam, DraughtsRules, GreatWarRules, OpenWorldRules, SurvivalRules};
use fgn_replay::Ruleset;

/// One corpus of generated games: a game and the parameters its games share.
#[derive(Clone, Copy, Debug)]
pub enum Corpus {
    /// Survival-chess on a square board of this many files and ranks.
    Survival(u8),
    /// Magic-draughts with spells (`true`) or as plain Russian draughts.
    Draughts(bool),
    /// Open-world-chess under the defaults (`false`) or with many spawns,
    /// cheap purchases and a large coin share (`true`).
    OpenWorld(bool),
    /// Great-war-chess without (`false`) or with two fortifications a side.
    GreatWar(bool),
}

/// Every corpus, in the order the tables list them.
pub const ALL: [Corpus; 8] = [
    Corpus::Survival(8),
    Corpus::Survival(12),
    Corpus::Draughts(true),
    Corpus::Draughts(false),
    Corpus::OpenWorld(false),
    Corpus::OpenWorld(true),
    Corpus::GreatWar(false),
    Corpus::GreatWar(true),
];

impl Corpus {
    /// The name the tables and directories use.
    pub fn label(self) -> &'static str {
        match self {
            Corpus::Survival(8) => "survival-chess 8x8",
            Corpus::Survival(_) => "survival-chess 12x12",
            Corpus::Draughts(true) => "magic-draughts",
            Corpus::Draughts(false) => "magic-draughts, no spells",
            Corpus::OpenWorld(false) => "open-world-chess",
            Corpus::OpenWorld(true) => "open-world-chess, busy",
            Corpus::GreatWar(false) => "great-war-chess",
            Corpus::GreatWar(true) => "great-war-chess, forts",
        }
    }

    /// A short name without spaces, for directories and the command line.
    pub fn slug(self) -> &'static str {
        match self {
            Corpus::Survival(8) => "survival-8x8",
            Corpus::Survival(_) => "survival-12x12",
            Corpus::Draughts(true) => "magic",
            Corpus::Draughts(false) => "draughts",
            Corpus::OpenWorld(false) => "owc",
            Corpus::OpenWorld(true) => "owc-busy",
            Corpus::GreatWar(false) => "gwc",
            Corpus::GreatWar(true) => "gwc-forts",
        }
    }

    /// The corpus a slug names.
    pub fn from_slug(slug: &str) -> Option<Corpus> {
        ALL.into_iter().find(|c| c.slug() == slug)
    }

    /// Game number `index` of the corpus, at most about `max` events long
    /// (plies for the two board games without world events). The same
    /// index gives the same game on every machine.
    pub fn game(self, index: u64, max: usize) -> Game {
        let rules = match self {
            Corpus::Survival(side) => Ruleset::Survival(SurvivalRules {
                board: BoardParam(BoardSize {
                    files: side,
                    ranks: side,
                }),
                ..SurvivalRules::default()
            }),
            Corpus::Draughts(magic) => Ruleset::Draughts(DraughtsRules {
                magic,
                ..DraughtsRules::default()
            }),
            Corpus::OpenWorld(busy) => Ruleset::OpenWorld(if busy {
                OpenWorldRules {
                    spawn_chance: 50,
                    shop_price: 1,
                    coin_share: 30,
                    ..OpenWorldRules::default()
                }
            } else {
                OpenWorldRules::default()
            }),
            Corpus::GreatWar(forts) => Ruleset::GreatWar(GreatWarRules {
                fortifications: if forts {
                    2
                } else {
                    GreatWarRules::default().fortifications
                },
                ..GreatWarRules::default()
            }),
        };
        // Uniform play (no bias toward captures), as the benchmark's games
        // have always been; `fgn gen` derives the world seed from the seed.
        let options = gen::Options {
            plies: max,
            finish: gen::Rate::NEVER,
            ..gen::Options::under(rules, index + 1)
        };
        gen::generate(&options).expect("the generator makes a legal game")
    }
}
