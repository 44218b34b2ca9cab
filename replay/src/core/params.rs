//! The machinery every game's parameters are written with (each game's
//! own are in `games/<game>/params.rs`): the [`Parameters`] contract, the
//! board-size parameter, the time tags of the games with a secret setup,
//! and the readers of numbers in tags. It names no game; the ruleset of
//! any game, rules files and the dispatch over games are `crate::ruleset`'s.

use serde::{Deserialize, Serialize};

use fgn_notation::{BoardSize, GameKind, Tag, TimeControl};

/// The classical back rank, files a to h: the army open-world-chess starts
/// with (and the one random survival-chess games set up).
pub const CLASSICAL_BACK_RANK: [fgn_notation::PieceKind; 8] = {
    use fgn_notation::PieceKind::{Bishop, King, Knight, Queen, Rook};
    [Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook]
};

/// A board size as a ruleset value, written `"12x12"` in JSON.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board(pub BoardSize);

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map(Board).map_err(serde::de::Error::custom)
    }
}

/// What each game's parameters give the machinery all games share: the
/// rules structure of a game (`SurvivalRules`, ...) implements it in the
/// game's own folder (`games/<game>/params.rs`), and the [`Ruleset`]
/// dispatch below names each game once (`by_game!`, `by_rules!`).
pub(crate) trait Parameters: Default + Serialize + serde::de::DeserializeOwned {
    /// The game these are the parameters of.
    const GAME: GameKind;
    /// The rules version the game's engine implements.
    const RULES_VERSION: &'static str;
    /// Whether the rules give leaderboard points for the game's results
    /// ([`crate::ruleset::defines_points`]). RULES.md gives them for
    /// survival-chess alone (section 1, "Leaderboard"); its shared
    /// conventions carry time limits, resignation and chat over to every
    /// game, but not the leaderboard.
    const LEADERBOARD_POINTS: bool = false;
    /// Which header tags set each parameter, by the parameter's field
    /// name, in field order; a parameter no tag sets has none (see
    /// [`parameter_tags`]).
    const TAGS: &'static [(&'static str, &'static [&'static str])];
    /// Whether the game has a secret setup, and with it a setup time limit.
    const HAS_SETUP: bool;
    /// Tags the game reads that set no parameter (so that they are not
    /// taken for misspelt parameters).
    const ALSO_READ: &'static [&'static str] = &[];

    /// The first thing the rules forbid in these parameters, with the
    /// header tags that set the parameters at fault.
    fn problem(&self) -> Option<Problem>;

    /// Applies the header tag `name` with `value` if it is one of the
    /// game's (other tags are left alone); on a malformed value, what was
    /// expected.
    fn apply_tag(&mut self, name: &str, value: &str) -> Result<(), String>;

    /// The time limits.
    fn time_control(&self) -> TimeControl;

    /// Whether a game under these parameters draws its random outcomes
    /// from a world seed, which its header commits to.
    fn has_world_seed(&self) -> bool {
        false
    }

    /// Appends the header tags that carry these parameters: one per
    /// parameter that differs from the default and that a tag can set
    /// (what a generated game's header writes, [`crate::gen::parameter_tags`]).
    fn write_tags(&self, tags: &mut Vec<Tag>);

    /// The placements of `color`'s classical army under these parameters,
    /// for the generator's classical setup ([`crate::gen::Setup::Classical`]):
    /// `None` for a game that has none.
    fn classical_army(&self, _color: fgn_notation::Color) -> Option<Vec<fgn_notation::Placement>> {
        None
    }
}

/// The header tags that set each parameter of a secret-setup game's time
/// limits.
pub(crate) const SETUP_TIME: &[&str] = &["SetupSeconds", "TimeControl"];

/// The header tags that set each game's move time limit.
pub(crate) const MOVE_TIME: &[&str] = &["MoveSeconds", "TimeControl"];

/// A problem of a ruleset: what is wrong, and the header tags that set
/// the parameters at fault, in the order to blame them.
pub(crate) struct Problem {
    pub(crate) tags: &'static [&'static str],
    pub(crate) message: String,
}

impl Problem {
    /// The problem `message`, blamed on the first of `tags` the header has.
    pub(crate) fn found(tags: &'static [&'static str], message: String) -> Option<Problem> {
        Some(Problem { tags, message })
    }
}

/// Applies a tag of a game with a secret setup that all such games share:
/// `Board`, `TimeControl`, `SetupSeconds` and `MoveSeconds`; other tags
/// are left alone. On a bad value, what was expected.
pub(crate) fn setup_game_tag(
    (name, value): (&str, &str),
    game: &str,
    board: &mut Board,
    (setup_seconds, move_seconds): (&mut Option<u32>, &mut Option<u32>),
) -> Result<(), String> {
    let whole = || seconds(value).ok_or_else(|| "whole seconds, at least 1".to_string());
    match name {
        "Board" => {
            let size: BoardSize = value.parse().map_err(|_| "a board size WxH".to_string())?;
            if setup_board_problem(size, game).is_some() {
                return Err(format!("a {game} board: W and H from 6 to 26, H even"));
            }
            *board = Board(size);
        }
        "TimeControl" => {
            let tc: TimeControl = value
                .parse()
                .map_err(|_| "a time control such as \"setup=120 move=60\"".to_string())?;
            *setup_seconds = tc.setup_seconds.or(*setup_seconds);
            *move_seconds = tc.move_seconds.or(*move_seconds);
        }
        "SetupSeconds" => *setup_seconds = Some(whole()?),
        "MoveSeconds" => *move_seconds = Some(whole()?),
        _ => {}
    }
    Ok(())
}

/// Why `size` is not a board of `game`, a game with a secret setup on each
/// side's half (W and H from 6 to 26, H even, so that the halves are equal).
pub(crate) fn setup_board_problem(size: BoardSize, game: &str) -> Option<String> {
    let ok = (6..=26).contains(&size.files) && (6..=26).contains(&size.ranks) && size.ranks.is_multiple_of(2);
    (!ok).then(|| format!("board {size}: {game} boards are W x H with W and H from 6 to 26 and H even"))
}

/// A decimal number without sign or leading zeros.
pub(crate) fn decimal(value: &str) -> Option<u32> {
    if value.is_empty() || (value.len() > 1 && value.starts_with('0')) || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// Whole seconds, at least 1, without sign or leading zeros.
pub(crate) fn seconds(value: &str) -> Option<u32> {
    if value.starts_with('0') || value.starts_with('+') {
        return None;
    }
    value.parse().ok().filter(|&s| s > 0)
}

/// The value of a `TimeControl` tag that sets these limits, if any.
pub(crate) fn time_control_value(setup: Option<u32>, moves: Option<u32>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(s) = setup {
        parts.push(format!("setup={s}"));
    }
    if let Some(m) = moves {
        parts.push(format!("move={m}"));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Appends the header tag `name` with `value`.
pub(crate) fn push_tag(tags: &mut Vec<Tag>, name: &str, value: String) {
    tags.push(Tag {
        name: name.into(),
        value,
    })
}
