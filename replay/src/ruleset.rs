//! Ruleset parameters: every default of RULES.md as data, apart from the
//! rules code. A ruleset is built from its defaults, then from a `--rules`
//! file (JSON, any subset of the fields), then from the log's header tags.
//!
//! Each game's parameters (their structure, defaults, header tags, checks
//! and the tags a generated game writes) are in its folder,
//! `games/<game>/params.rs`, behind the crate-private `Parameters` trait;
//! this file holds what all games share: the [`Ruleset`] of any game,
//! rules files and their overrides, the time tags, and the lookalike-tag
//! warnings. The rules structures are re-exported here.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use fgn_notation::{Color, GameKind, Header, Placement, Tag, TimeControl};

use crate::core::error::{Fault, Rule};
pub use crate::core::params::{Board, CLASSICAL_BACK_RANK};
pub(crate) use crate::core::params::{Parameters, Problem};
use crate::game::{Game, ParamsOf};
use crate::games::{each_game, for_kind, game_enum};

pub use crate::games::great_war_chess::params::{GreatWarRules, UnitCounts};
pub use crate::games::magic_draughts::params::DraughtsRules;
pub use crate::games::open_world_chess::params::{BonusWeights, OpenWorldRules, PieceHp};
pub use crate::games::survival_chess::params::{SetupLimits, SurvivalRules};

/// `$body` with `$R` the parameter type of the game `$game` (and, with
/// `$wrap`, the constructor of its [`Ruleset`]): the registry's match over
/// the games by kind.
macro_rules! by_game {
    ($game:expr, $R:ident => $body:expr) => {
        for_kind!($game, G => {
            type $R = <G as Game>::Params;
            $body
        })
    };
    ($game:expr, $R:ident, $wrap:ident => $body:expr) => {
        for_kind!($game, G, $wrap in Ruleset => {
            type $R = <G as Game>::Params;
            $body
        })
    };
}

/// `$body` with `$r` the parameters `$rules` (a [`Ruleset`] or a
/// reference to one) holds: the registry's match over the games by ruleset.
macro_rules! by_rules {
    ($rules:expr, $r:ident => $body:expr) => {
        each_game!(Ruleset, $rules, $r => $body)
    };
}

/// The game of parameters `_rules`.
fn game_of<R: Parameters>(_rules: &R) -> GameKind {
    R::GAME
}

game_enum! {
    /// The ruleset of any game: its parameters.
    #[derive(Clone, PartialEq, Eq, Debug, Serialize)]
    #[serde(untagged)]
    pub enum Ruleset(ParamsOf)
}

/// The rules version each supported game implements.
pub fn rules_version(game: GameKind) -> &'static str {
    by_game!(game, R => R::RULES_VERSION)
}

/// Whether the rules give leaderboard points for `game`'s results:
/// RULES.md gives them for survival-chess alone (section 1,
/// "Leaderboard").
///
/// ```
/// use fgn_notation::GameKind;
/// use fgn_replay::ruleset::defines_points;
/// assert!(defines_points(GameKind::SurvivalChess));
/// assert!(!defines_points(GameKind::OpenWorldChess));
/// ```
pub fn defines_points(game: GameKind) -> bool {
    by_game!(game, R => R::LEADERBOARD_POINTS)
}

impl Ruleset {
    /// The defaults of `game`.
    pub fn defaults(game: GameKind) -> Ruleset {
        by_game!(game, R, wrap => wrap(R::default()))
    }

    /// The defaults of `game` changed by a JSON object of parameters (any
    /// subset of the fields; unknown fields are errors).
    pub fn from_json(game: GameKind, json: &str) -> Result<Ruleset, String> {
        let fields = match serde_json::from_str(json) {
            Ok(Value::Object(fields)) => fields,
            Ok(_) => return Err(format!("rules for {game}: expected a JSON object of parameters")),
            Err(e) => return Err(format!("rules for {game}: {e}")),
        };
        let params = Params::new(game, fields)?;
        let mut rules = Ruleset::defaults(game);
        rules.overlay(&params).map_err(|e| format!("rules for {game}: {e}"))?;
        Ok(rules)
    }

    /// The game these are the rules of.
    pub fn game(&self) -> GameKind {
        by_rules!(self, r => game_of(r))
    }

    /// The ruleset of `game` a JSON value of all its fields (missing ones
    /// take their defaults) spells.
    fn from_value(game: GameKind, value: Value) -> Result<Ruleset, serde_json::Error> {
        by_game!(game, R, wrap => serde_json::from_value::<R>(value).map(wrap))
    }

    /// The parameters as a JSON object, field by field.
    fn to_fields(&self) -> serde_json::Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(fields)) => fields,
            // Every ruleset is a struct of plain values, which serialises
            // to an object.
            _ => serde_json::Map::new(),
        }
    }

    /// Sets the parameters `params` names, keeping the others: a field
    /// that is an object itself (`limits`, `bonus_weights`, `hp`, `units`)
    /// changes only in the keys `params` gives it.
    fn overlay(&mut self, params: &Params) -> Result<(), String> {
        let mut fields = self.to_fields();
        for (name, value) in &params.fields {
            match (fields.get_mut(name), value) {
                (Some(Value::Object(inner)), Value::Object(given)) => {
                    for (key, v) in given {
                        inner.insert(key.clone(), v.clone());
                    }
                }
                _ => {
                    fields.insert(name.clone(), value.clone());
                }
            }
        }
        match Ruleset::from_value(self.game(), Value::Object(fields)) {
            Ok(rules) => {
                *self = rules;
                Ok(())
            }
            Err(e) => Err(self.blame(params, &e.to_string())),
        }
    }

    /// `error`, the error of overlaying `params` on these rules, with the
    /// parameter it is about: serde names the value it could not read
    /// (`invalid type: integer 10, expected a string`) but not always its
    /// field, so the first field that fails on its own is named.
    fn blame(&self, params: &Params, error: &str) -> String {
        let fails_alone = |name: &String, value: &Value| {
            let mut fields = self.to_fields();
            match (fields.get_mut(name), value) {
                (Some(Value::Object(inner)), Value::Object(given)) => {
                    inner.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                _ => {
                    fields.insert(name.clone(), value.clone());
                }
            }
            Ruleset::from_value(self.game(), Value::Object(fields)).is_err()
        };
        match params.fields.iter().find(|(name, value)| fails_alone(name, value)) {
            Some((name, _)) if !error.contains(&format!("`{name}`")) => format!("`{name}`: {error}"),
            _ => error.to_string(),
        }
    }

    /// Checks what the rules require of the parameters themselves, wherever
    /// they came from.
    pub fn check(&self) -> Result<(), String> {
        match self.problem() {
            Some(p) => Err(p.message),
            None => Ok(()),
        }
    }

    /// The first thing the rules forbid in the parameters, with the header
    /// tags that set the parameters at fault.
    fn problem(&self) -> Option<Problem> {
        by_rules!(self, r => r.problem())
    }

    /// Applies the log's parameter tags, then the parameters of a rules
    /// file over them: `--rules` wins over the header. A malformed tag
    /// value is a fault (with the tag); tags that are not parameters of
    /// this game are left alone. Gives the header tags whose values the
    /// file replaced.
    pub fn apply_header(&mut self, header: &Header, file: Option<&Params>) -> Result<Vec<Overridden>, (String, Fault)> {
        if let Some(problem) = time_tag_problem(self.game(), header) {
            return Err(problem);
        }
        for tag in &header.tags {
            let (name, value) = (tag.name.as_str(), tag.value.as_str());
            let fault = |expected: &str| {
                (
                    name.to_string(),
                    Fault::new(
                        Rule::Parameter,
                        format!("tag `{name}`: expected {expected}, found \"{value}\""),
                    ),
                )
            };
            by_rules!(&mut *self, r => r.apply_tag(name, value)).map_err(|expected| fault(&expected))?;
        }
        let overridden = match file {
            Some(params) => self.apply_file(header, params)?,
            None => Vec::new(),
        };
        let game = self.game();
        match self.problem() {
            // Point at the first tag in the header that set a parameter at
            // fault, unless the rules file set all it sets; a problem no tag
            // set is the ruleset's as a whole (or the rules file's).
            Some(p) => {
                let by_file =
                    |t: &str| file.is_some_and(|f| tag_parameters(game, t).all(|param| f.fields.contains_key(param)));
                let tag = p.tags.iter().copied().find(|&t| header.get(t).is_some() && !by_file(t));
                let message = match (tag, file) {
                    (Some(t), _) => format!("tag `{t}`: {}", p.message),
                    (None, Some(_)) => format!("under the rules file: {}", p.message),
                    (None, None) => p.message,
                };
                Err((tag.unwrap_or("Rules").to_string(), Fault::new(Rule::Parameter, message)))
            }
            None => Ok(overridden),
        }
    }

    /// Sets a rules file's parameters over those the header set, and
    /// lists the header tags whose values gave way to a different one.
    fn apply_file(&mut self, header: &Header, params: &Params) -> Result<Vec<Overridden>, (String, Fault)> {
        let game = self.game();
        if params.game != game {
            return Err((
                "Rules".to_string(),
                Fault::new(
                    Rule::Parameter,
                    format!("the rules file's parameters are {}'s, not {game}'s", params.game),
                ),
            ));
        }
        let before = self.to_fields();
        self.overlay(params).map_err(|e| {
            (
                "Rules".to_string(),
                Fault::new(Rule::Parameter, format!("rules file: {e}")),
            )
        })?;
        let after = self.to_fields();
        let mut overridden = Vec::new();
        for tag in &header.tags {
            for &(parameter, tags) in parameter_tags(game) {
                let set_by_tag = tags.contains(&tag.name.as_str()) && tag_sets(&tag.name, &tag.value, parameter);
                let used = after.get(parameter).cloned().unwrap_or(Value::Null);
                if set_by_tag && params.fields.contains_key(parameter) && before.get(parameter) != Some(&used) {
                    overridden.push(Overridden {
                        tag: tag.name.clone(),
                        header: tag.value.clone(),
                        parameter: parameter.to_string(),
                        used,
                    });
                }
            }
        }
        Ok(overridden)
    }

    /// Whether a game under these rules commits to a world seed (its
    /// header carries `SeedCommit`): every open-world-chess game, and
    /// magic-draughts with magic on.
    pub fn has_world_seed(&self) -> bool {
        by_rules!(self, r => r.has_world_seed())
    }

    /// `color`'s classical army under these rules, for the generator's
    /// classical setup; `None` in a game that has none.
    pub(crate) fn classical_army(&self, color: Color) -> Option<Vec<Placement>> {
        by_rules!(self, r => r.classical_army(color))
    }

    /// The time limits of the ruleset.
    pub fn time_control(&self) -> TimeControl {
        by_rules!(self, r => r.time_control())
    }
}

/// Which header tags set each parameter of `game`, by the parameter's
/// field name: what links a rules file's fields to the log's tags, so that
/// an override can be named and a problem blamed on the right one.
/// Parameters no tag sets (`limits`, `units`) are changed by rules files
/// only.
pub fn parameter_tags(game: GameKind) -> &'static [(&'static str, &'static [&'static str])] {
    by_game!(game, R => R::TAGS)
}

/// The tags every game knows that are not rule parameters (NOTATION.md).
const SHARED_TAGS: &[&str] = &[
    "Game",
    "Rules",
    "Perspective",
    "Mode",
    "White",
    "Black",
    "WhiteId",
    "BlackId",
    "Date",
    "Site",
    "Room",
    "SeedCommit",
];

/// A header tag that is no parameter of the log's game but looks like one:
/// fgn keeps unknown tags and ignores them (NOTATION.md), so a misspelt
/// parameter would silently leave the rules at their defaults.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Lookalike {
    /// The tag as written.
    pub tag: String,
    /// What it looks like and that it is ignored.
    pub message: String,
}

/// The tags of `header` that look like parameters of `game` without being
/// any: the parameter's name in UpperCamelCase where its tag differs from
/// it (`Hp` for `PieceHp`), a tag that differs from a parameter tag only in
/// case and underscores or by at most two letters (`MoveSecond`), or a
/// parameter tag of another game. In header order.
pub fn lookalike_tags(game: GameKind, header: &Header) -> Vec<Lookalike> {
    let fold = |s: &str| s.chars().filter(|&c| c != '_').collect::<String>().to_ascii_lowercase();
    let own: Vec<(&str, &str)> = parameter_tags(game)
        .iter()
        .flat_map(|&(parameter, tags)| tags.iter().map(move |&t| (parameter, t)))
        .collect();
    let mut found = Vec::new();
    let read_anyway: &[&str] = by_game!(game, R => R::ALSO_READ);
    for tag in &header.tags {
        let name = tag.name.as_str();
        if SHARED_TAGS.contains(&name) || read_anyway.contains(&name) || own.iter().any(|&(_, t)| t == name) {
            continue;
        }
        let folded = fold(name);
        let near = own.iter().find(|&&(parameter, t)| {
            folded == fold(parameter)
                || folded == fold(t)
                || (folded.len() >= 4 && edit_distance(&folded, &fold(t)) <= 2)
        });
        let message = match near {
            Some(&(parameter, t)) => format!(
                "tag `{name}` is not a parameter tag of {game} and is ignored; parameter `{parameter}` has the tag `{t}`"
            ),
            None => match GameKind::ALL
                .into_iter()
                .find(|&g| g != game && tag_parameters(g, name).next().is_some())
            {
                Some(other) => format!("tag `{name}` is a parameter of {other}, not of {game}, and is ignored"),
                None => continue,
            },
        };
        found.push(Lookalike {
            tag: name.to_string(),
            message,
        });
    }
    found
}

/// The name among `names` nearest to `word`, for a "did you mean" after a
/// typo: the one fewest single-letter edits away (the first of a tie),
/// when the edits are few for the word's length (at most 2, or a third of
/// its letters), so that a word unlike every name suggests none.
pub fn nearest<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = 2.max(word.len() / 3);
    names
        .into_iter()
        .map(|name| (edit_distance(word, name), name))
        .filter(|&(distance, _)| distance <= most)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name)
}

/// The Levenshtein distance of two short ASCII words.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let next = (diagonal + usize::from(x != y)).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The parameters the tag `tag` may set in `game`.
fn tag_parameters(game: GameKind, tag: &str) -> impl Iterator<Item = &'static str> + '_ {
    parameter_tags(game)
        .iter()
        .filter(move |(_, tags)| tags.contains(&tag))
        .map(|&(parameter, _)| parameter)
}

/// Whether the tag `name` with `value` sets `parameter`: a time control
/// sets only the limits it names (`"move=60"` leaves the setup limit
/// alone); every other tag sets all its parameters.
fn tag_sets(name: &str, value: &str, parameter: &str) -> bool {
    if name != "TimeControl" {
        return true;
    }
    let Ok(tc) = value.parse::<TimeControl>() else {
        return false;
    };
    match parameter {
        "setup_seconds" => tc.setup_seconds.is_some(),
        "move_seconds" => tc.move_seconds.is_some(),
        _ => false,
    }
}

/// A header tag whose value gave way to a rules file's: `--rules` wins.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Overridden {
    /// The tag (`Board`).
    pub tag: String,
    /// Its value in the header (`8x8`).
    pub header: String,
    /// The parameter the rules file set (`board`).
    pub parameter: String,
    /// The value the replay used, spelled as in a rules file (`"10x10"`).
    pub used: Value,
}

impl std::fmt::Display for Overridden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "header tag [{} \"{}\"] overridden: {} = {} from the rules file",
            self.tag, self.header, self.parameter, self.used
        )
    }
}

/// The parameters a rules file gives one game: a JSON object of some of
/// the game's fields, checked against the game's ruleset when the file
/// was read, so that applying them to a log cannot fail on their form.
#[derive(Clone, PartialEq, Debug)]
pub struct Params {
    game: GameKind,
    fields: serde_json::Map<String, Value>,
}

impl Params {
    /// `fields` as parameters of `game`: every field must be one of the
    /// game's (nested objects too), of the right type, and the defaults
    /// changed by them must be rules the game allows.
    pub fn new(game: GameKind, fields: serde_json::Map<String, Value>) -> Result<Params, String> {
        let params = Params { game, fields };
        let mut rules = Ruleset::defaults(game);
        rules.overlay(&params).map_err(|e| format!("rules for {game}: {e}"))?;
        rules.check().map_err(|e| format!("rules for {game}: {e}"))?;
        Ok(params)
    }

    /// The game these parameters are for.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The names of the parameters set, in the file's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.fields.keys().map(String::as_str)
    }
}

/// A `--rules` file, read and checked once before any log: either the
/// parameters of one game (`{"board": "10x10"}`), applied to logs of every
/// game that has them all, or objects of parameters keyed by game name
/// (`{"open-world-chess": {"moves_per_turn": 2}, "survival-chess": {...}}`).
/// Game names are not parameter names, so the two forms cannot be taken
/// for each other: a file whose top-level keys are game names is keyed.
#[derive(Clone, Debug)]
pub struct RulesFile {
    keyed: bool,
    /// The parameters for each game the file applies to; in the one-game
    /// form, why they are not the parameters of some game.
    games: BTreeMap<GameKind, Result<Params, String>>,
}

impl RulesFile {
    /// Reads a rules file's text: one error for the whole file when it is
    /// not JSON, mixes game names with parameters, names a game it cannot
    /// give parameters to, or (one-game form) fits no game at all.
    pub fn parse(json: &str) -> Result<RulesFile, String> {
        let top = match serde_json::from_str(json) {
            Ok(Value::Object(top)) => top,
            Ok(_) => return Err(Self::SHAPE.into()),
            Err(e) => return Err(format!("not JSON: {e}")),
        };
        let is_game = |k: &str| k.parse::<GameKind>().is_ok();
        if !top.keys().any(|k| is_game(k)) {
            return Self::one_game(top);
        }
        if let Some(k) = top.keys().find(|k| !is_game(k)) {
            return Err(format!(
                "`{k}` is not a game: a rules file keyed by game names holds only {} at its top level, each with an object of that game's parameters{}",
                game_list(),
                did_you_mean(k, GameKind::ALL.iter().map(|g| g.name())),
            ));
        }
        let mut games = BTreeMap::new();
        for (name, value) in top {
            let game: GameKind = name.parse().map_err(|_| format!("`{name}` is not a game"))?;
            let Value::Object(fields) = value else {
                return Err(format!("`{game}`: expected an object of {game}'s parameters"));
            };
            games.insert(game, Ok(Params::new(game, fields)?));
        }
        Ok(RulesFile { keyed: true, games })
    }

    const SHAPE: &'static str =
        "a rules file is a JSON object: the parameters of one game, or objects of parameters keyed by game name";

    /// The one-game form: the parameters checked against every game. When
    /// they fit none, the error is about the games meant, those that have
    /// every parameter named: each other game's failure is only that it
    /// lacks one, which says nothing about what is wrong.
    fn one_game(fields: serde_json::Map<String, Value>) -> Result<RulesFile, String> {
        let games: BTreeMap<GameKind, Result<Params, String>> = GameKind::ALL
            .into_iter()
            .map(|g| (g, Params::new(g, fields.clone())))
            .collect();
        if games.values().any(Result::is_ok) {
            return Ok(RulesFile { keyed: false, games });
        }
        let parameters = |g: GameKind| parameter_tags(g).iter().map(|&(p, _)| p);
        let every_parameter = || GameKind::ALL.into_iter().flat_map(parameters);
        if let Some(k) = fields.keys().find(|k| !every_parameter().any(|p| p == k.as_str())) {
            let names = GameKind::ALL.iter().map(|g| g.name()).chain(every_parameter());
            return Err(format!(
                "`{k}` is neither a game ({}) nor a parameter of any game (`fgn rules show GAME` lists them){}",
                game_list(),
                did_you_mean(k, names)
            ));
        }
        let meant: Vec<GameKind> = GameKind::ALL
            .into_iter()
            .filter(|&g| fields.keys().all(|k| parameters(g).any(|p| p == k.as_str())))
            .collect();
        if meant.is_empty() {
            let whose: Vec<String> = fields
                .keys()
                .map(|k| {
                    let games: Vec<&str> = GameKind::ALL
                        .into_iter()
                        .filter(|&g| parameters(g).any(|p| p == k.as_str()))
                        .map(GameKind::name)
                        .collect();
                    format!("`{k}` is a parameter of {}", games.join(", "))
                })
                .collect();
            return Err(format!(
                "no game has all of these parameters: {}; a rules file for several games is keyed by game name",
                whose.join("; ")
            ));
        }
        // `Params::new` opens each error with "rules for GAME: ": the same
        // failure in several games is said once, naming them all.
        let mut reasons: Vec<(Vec<&str>, String)> = Vec::new();
        for game in meant {
            let Some(Err(e)) = games.get(&game) else { continue };
            let reason = e.strip_prefix(&format!("rules for {game}: ")).unwrap_or(e).to_string();
            match reasons.iter_mut().find(|(_, r)| *r == reason) {
                Some((names, _)) => names.push(game.name()),
                None => reasons.push((vec![game.name()], reason)),
            }
        }
        let said: Vec<String> = reasons
            .into_iter()
            .map(|(names, reason)| format!("rules for {}: {reason}", names.join(", ")))
            .collect();
        Err(said.join("; "))
    }

    /// The parameters the file gives each game it fits, in game order.
    pub fn games(&self) -> impl Iterator<Item = &Params> {
        self.games.values().filter_map(|p| p.as_ref().ok())
    }

    /// Whether the file is keyed by game names.
    pub fn is_keyed(&self) -> bool {
        self.keyed
    }

    /// The parameters the file gives logs of `game`: `None` when a keyed
    /// file does not name the game (its logs replay under their defaults
    /// and header); an error when a one-game file's parameters are not
    /// this game's.
    pub fn params(&self, game: GameKind) -> Result<Option<&Params>, String> {
        match self.games.get(&game) {
            None => Ok(None),
            Some(Ok(p)) => Ok(Some(p)),
            Some(Err(e)) => Err(format!(
                "{e}; a rules file for several games is keyed by game name, as in {{\"{game}\": {{...}}}}"
            )),
        }
    }
}

/// `; did you mean `NAME`?` for the name among `names` nearest to the
/// misspelt `word`, or nothing when none is near.
fn did_you_mean<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    nearest(word, names).map_or(String::new(), |name| format!("; did you mean `{name}`?"))
}

/// The games, for messages.
fn game_list() -> String {
    let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
    names.join(", ")
}

/// What is wrong with the time tags taken together: a limit set by both
/// `TimeControl` and its own tag (`MoveSeconds`, `SetupSeconds`), which
/// would otherwise let the later tag win unnoticed, is blamed on the later
/// of the two; a setup limit in a game without a setup is blamed on its
/// tag, as `TimeControl "setup=..."` is in such a game. A malformed value
/// is left to the tag's own check.
fn time_tag_problem(game: GameKind, header: &Header) -> Option<(String, Fault)> {
    let position = |name: &str| header.tags.iter().position(|t| t.name == name);
    let has_setup = by_game!(game, R => R::HAS_SETUP);
    if !has_setup && position("SetupSeconds").is_some() {
        return Some((
            "SetupSeconds".into(),
            Fault::new(
                Rule::Parameter,
                format!("tag `SetupSeconds`: {game} has no setup, so it has no setup limit"),
            ),
        ));
    }
    let tc: TimeControl = header.get("TimeControl")?.parse().ok()?;
    let at = position("TimeControl")?;
    for (limit, name, set) in [
        ("setup", "SetupSeconds", tc.setup_seconds.is_some()),
        ("move", "MoveSeconds", tc.move_seconds.is_some()),
    ] {
        let Some(own) = position(name).filter(|_| set) else {
            continue;
        };
        let later = if own > at { name } else { "TimeControl" };
        return Some((
            later.into(),
            Fault::new(
                Rule::Parameter,
                format!("tag `{later}`: the {limit} limit is set by both `TimeControl` and `{name}`; set it with one of them"),
            ),
        ));
    }
    None
}

/// The header tags that carry `rules`: one per parameter that differs
/// from the game's default and that a tag can set; parameters only a
/// rules file sets (`limits`, `units`) are not written.
pub fn header_tags(rules: &Ruleset) -> Vec<Tag> {
    let mut tags = Vec::new();
    by_rules!(rules, r => r.write_tags(&mut tags));
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use fgn_notation::BoardSize;

    fn header(tags: &[(&str, &str)]) -> Header {
        Header {
            tags: tags
                .iter()
                .map(|&(name, value)| fgn_notation::Tag {
                    name: name.into(),
                    value: value.into(),
                })
                .collect(),
        }
    }

    /// Applies `header` and `file`'s parameters for `game` to its defaults.
    fn resolve(game: GameKind, tags: &[(&str, &str)], file: &str) -> (Ruleset, Vec<Overridden>) {
        let file = RulesFile::parse(file).expect("a good rules file");
        let params = file.params(game).expect("parameters of this game");
        let mut rules = Ruleset::defaults(game);
        let overridden = rules.apply_header(&header(tags), params).expect("allowed parameters");
        (rules, overridden)
    }

    /// Each game's parameters name their own game and version, so that
    /// the registry's two matches (by kind, by ruleset) agree.
    #[test]
    fn each_game_s_parameters_are_its_own() {
        for game in GameKind::ALL {
            let rules = Ruleset::defaults(game);
            assert_eq!(rules.game(), game);
            let expected = match game {
                GameKind::OpenWorldChess => ("1.2", true),
                GameKind::MagicDraughts => ("1.0", true),
                GameKind::SurvivalChess | GameKind::GreatWarChess => ("1.0", false),
            };
            assert_eq!((rules_version(game), rules.has_world_seed()), expected, "{game}");
        }
        let plain = Ruleset::Draughts(DraughtsRules {
            magic: false,
            ..DraughtsRules::default()
        });
        assert!(!plain.has_world_seed(), "plain draughts draws nothing");
    }

    #[test]
    fn the_tag_table_names_every_parameter_of_every_game() {
        for game in GameKind::ALL {
            let fields: Vec<String> = Ruleset::defaults(game).to_fields().keys().cloned().collect();
            let table: Vec<String> = parameter_tags(game).iter().map(|(p, _)| p.to_string()).collect();
            assert_eq!(fields, table, "{game}");
        }
    }

    /// The header tags of a ruleset set that ruleset again: the header
    /// carries every tagged parameter of the rules a game was made under.
    #[test]
    fn header_tags_carry_the_rules() {
        let mut owc = OpenWorldRules {
            board: Board(BoardSize { files: 10, ranks: 8 }),
            merchants: Some(vec!["c3".parse().unwrap()]),
            moves_per_turn: 2,
            light_radius: 3,
            spawn_chance: 50,
            coin_share: 30,
            damage_ramp_start: 3,
            damage_ramp_step: 4,
            damage_max: 60,
            fog_after: 4,
            shop_price: 1,
            regen_heal: 3,
            damage_roll: 6,
            shop_hp: 3,
            drain_hp: 1,
            range_steps: 3,
            move_seconds: Some(30),
            ..OpenWorldRules::default()
        };
        owc.bonus_weights.clone = 9;
        owc.hp.king = 12;
        let rulesets = [
            Ruleset::OpenWorld(owc),
            Ruleset::Survival(SurvivalRules {
                board: Board(BoardSize { files: 8, ranks: 8 }),
                setup_seconds: Some(90),
                move_seconds: Some(20),
                ..SurvivalRules::default()
            }),
            Ruleset::GreatWar(GreatWarRules {
                board: Board(BoardSize { files: 6, ranks: 6 }),
                fortifications: 2,
                charges: 12,
                setup_seconds: Some(60),
                ..GreatWarRules::default()
            }),
            Ruleset::Draughts(DraughtsRules {
                magic: false,
                numbers: [2, 2, 2, 2, 2, 2],
                revenge_ranks: 3,
                move_seconds: Some(10),
            }),
        ];
        for rules in rulesets {
            let tags = header_tags(&rules);
            let mut again = Ruleset::defaults(rules.game());
            again.apply_header(&Header { tags: tags.clone() }, None).unwrap();
            assert_eq!(again, rules, "{tags:?}");
        }
        for game in GameKind::ALL {
            assert_eq!(header_tags(&Ruleset::defaults(game)), Vec::new());
        }
    }

    #[test]
    fn a_one_game_file_fits_every_game_with_its_parameters() {
        let file = RulesFile::parse(r#"{"board": "10x10"}"#).unwrap();
        assert!(!file.is_keyed());
        for game in [
            GameKind::SurvivalChess,
            GameKind::OpenWorldChess,
            GameKind::GreatWarChess,
        ] {
            let p = file.params(game).unwrap().expect("board is a parameter here");
            assert_eq!(p.names().collect::<Vec<_>>(), ["board"]);
        }
        let e = file.params(GameKind::MagicDraughts).unwrap_err();
        assert!(
            e.contains("unknown field `board`") && e.contains("keyed by game name"),
            "{e}"
        );
        // `{}` changes nothing, for any game.
        let empty = RulesFile::parse("{}").unwrap();
        assert!(GameKind::ALL.iter().all(|&g| empty.params(g).unwrap().is_some()));
    }

    #[test]
    fn a_keyed_file_gives_each_game_its_own_parameters() {
        let file =
            RulesFile::parse(r#"{"open-world-chess": {"moves_per_turn": 2}, "survival-chess": {"board": "8x8"}}"#)
                .unwrap();
        assert!(file.is_keyed());
        let owc = file.params(GameKind::OpenWorldChess).unwrap().unwrap();
        assert_eq!(owc.names().collect::<Vec<_>>(), ["moves_per_turn"]);
        assert_eq!(owc.game(), GameKind::OpenWorldChess);
        assert!(file.params(GameKind::SurvivalChess).unwrap().is_some());
        assert!(
            file.params(GameKind::MagicDraughts).unwrap().is_none(),
            "a game the file does not name keeps its defaults"
        );
    }

    #[test]
    fn a_bad_rules_file_is_one_clear_error() {
        for (json, expected) in [
            ("[1]", "a rules file is a JSON object"),
            ("{", "not JSON"),
            (r#"{"open-world-chess": {}, "board": "8x8"}"#, "`board` is not a game"),
            (r#"{"open-world-chess": {}, "chess": {}}"#, "`chess` is not a game"),
            (
                r#"{"open-world-chess": 2}"#,
                "expected an object of open-world-chess's parameters",
            ),
            (r#"{"open-world-chess": {"moves": 2}}"#, "unknown field `moves`"),
            (
                r#"{"open-world-chess": {"moves_per_turn": 0}}"#,
                "moves_per_turn must be at least 1",
            ),
            (
                r#"{"survival-chess": {"limits": {"kings": 1}}}"#,
                "unknown field `kings`",
            ),
            (
                r#"{"open-world-chss": {"moves_per_turn": 2}}"#,
                "`open-world-chss` is neither a game",
            ),
            (
                r#"{"moves_per_turn": "two"}"#,
                "rules for open-world-chess: `moves_per_turn`: invalid type",
            ),
        ] {
            let e = RulesFile::parse(json).unwrap_err();
            assert!(e.contains(expected), "{json}: {e}");
        }
    }

    /// Regression (issue 39, item 17): a one-game rules file with a value
    /// of the wrong type listed every game's failure, most of them only
    /// "unknown field", and did not name the field whose value was wrong.
    /// The error is the games meant (those that have every parameter
    /// named), a failure they share said once, with the field.
    #[test]
    fn a_type_error_in_a_rules_file_names_the_games_meant_and_the_field() {
        let e = RulesFile::parse(r#"{"board": 10}"#).unwrap_err();
        assert_eq!(
            e,
            "rules for survival-chess, open-world-chess, great-war-chess: `board`: invalid type: integer `10`, expected a string"
        );
        let e = RulesFile::parse(r#"{"board": "10x10", "moves_per_turn": "two"}"#).unwrap_err();
        assert_eq!(e.matches("rules for").count(), 1, "{e}");
        assert!(
            e.starts_with("rules for open-world-chess: `moves_per_turn`: invalid type"),
            "{e}"
        );
        let e = RulesFile::parse(r#"{"magic": true, "fortifications": 2}"#).unwrap_err();
        assert!(
            e.starts_with("no game has all of these parameters: ")
                && e.contains("`magic` is a parameter of magic-draughts")
                && e.contains("`fortifications` is a parameter of great-war-chess"),
            "{e}"
        );
    }

    /// Regression (issue 39, item 17): a misspelt game key or parameter
    /// got no suggestion; now the nearest name is offered, and none for a
    /// word like no name.
    #[test]
    fn a_misspelt_game_or_parameter_in_a_rules_file_gets_the_nearest_name() {
        for (json, meant) in [
            (r#"{"open-world-chss": {"moves_per_turn": 2}}"#, "open-world-chess"),
            (r#"{"survival-chess": {}, "great-war-ches": {}}"#, "great-war-chess"),
            (r#"{"bord": "8x8"}"#, "board"),
            (r#"{"moves_per_trn": 2}"#, "moves_per_turn"),
        ] {
            let e = RulesFile::parse(json).unwrap_err();
            assert!(e.ends_with(&format!("; did you mean `{meant}`?")), "{json}: {e}");
        }
        let e = RulesFile::parse(r#"{"xyzzy": 1}"#).unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn nearest_takes_the_fewest_edits_within_a_bound() {
        let names = ["validate", "verify-view", "view"];
        assert_eq!(nearest("valdate", names), Some("validate"));
        assert_eq!(nearest("veiw", names), Some("view"));
        assert_eq!(nearest("frobnicate", names), None);
        assert_eq!(nearest("owc", ["open-world-chess"]), None);
    }

    #[test]
    fn rules_file_parameters_win_over_header_tags_and_are_named() {
        let (rules, overridden) = resolve(
            GameKind::SurvivalChess,
            &[("Board", "8x8"), ("SetupSeconds", "90")],
            r#"{"board": "10x10"}"#,
        );
        let Ruleset::Survival(r) = rules else { panic!() };
        assert_eq!(r.board.0.to_string(), "10x10");
        assert_eq!(r.setup_seconds, Some(90), "a tag the file does not set still applies");
        assert_eq!(
            overridden,
            [Overridden {
                tag: "Board".into(),
                header: "8x8".into(),
                parameter: "board".into(),
                used: Value::String("10x10".into()),
            }]
        );
        assert_eq!(
            overridden[0].to_string(),
            r#"header tag [Board "8x8"] overridden: board = "10x10" from the rules file"#
        );
    }

    #[test]
    fn a_time_control_gives_way_only_in_the_limit_the_file_sets() {
        let (rules, overridden) = resolve(
            GameKind::GreatWarChess,
            &[("TimeControl", "setup=120 move=60")],
            r#"{"move_seconds": 30}"#,
        );
        assert_eq!(
            rules.time_control(),
            TimeControl {
                setup_seconds: Some(120),
                move_seconds: Some(30)
            }
        );
        let names: Vec<(&str, &str)> = overridden
            .iter()
            .map(|o| (o.tag.as_str(), o.parameter.as_str()))
            .collect();
        assert_eq!(names, [("TimeControl", "move_seconds")]);
        // A time control without a move limit set no move limit to override.
        let (_, overridden) = resolve(
            GameKind::GreatWarChess,
            &[("TimeControl", "setup=120")],
            r#"{"move_seconds": 30}"#,
        );
        assert!(overridden.is_empty(), "{overridden:?}");
    }

    #[test]
    fn a_nested_parameter_changes_only_the_keys_the_file_gives() {
        let (rules, overridden) = resolve(
            GameKind::OpenWorldChess,
            &[("BonusWeights", "regen=50 hp=24 damage=20 kinghp=3 clone=3")],
            r#"{"bonus_weights": {"clone": 10}}"#,
        );
        let Ruleset::OpenWorld(r) = rules else { panic!() };
        assert_eq!(
            (r.bonus_weights.regen, r.bonus_weights.hp, r.bonus_weights.clone),
            (50, 24, 10)
        );
        assert_eq!(overridden.len(), 1);
        assert_eq!(overridden[0].used["clone"], 10);
    }

    #[test]
    fn a_file_value_equal_to_the_header_overrides_nothing() {
        let (_, overridden) = resolve(
            GameKind::OpenWorldChess,
            &[("MovesPerTurn", "2")],
            r#"{"open-world-chess": {"moves_per_turn": 2}}"#,
        );
        assert!(overridden.is_empty());
    }

    #[test]
    fn a_problem_the_file_makes_is_not_blamed_on_a_tag_it_overrode() {
        let file = RulesFile::parse(r#"{"great-war-chess": {"board": "6x6", "fortifications": 17}}"#).unwrap_err();
        assert!(
            file.contains("do not fit"),
            "checked against the defaults already: {file}"
        );
        let file = RulesFile::parse(r#"{"great-war-chess": {"fortifications": 17}}"#).unwrap();
        let mut rules = Ruleset::defaults(GameKind::GreatWarChess);
        let (tag, fault) = rules
            .apply_header(
                &header(&[("Board", "6x6"), ("Fortifications", "1")]),
                file.params(GameKind::GreatWarChess).unwrap(),
            )
            .unwrap_err();
        assert_eq!(
            tag, "Board",
            "the header's board is what leaves no room: {}",
            fault.message
        );
        assert_eq!(fault.rule, Rule::Parameter);
    }

    /// The tag a header is refused at, and its message, or `None`.
    fn refused(game: GameKind, tags: &[(&str, &str)]) -> Option<(String, String)> {
        let mut rules = Ruleset::defaults(game);
        rules
            .apply_header(&header(tags), None)
            .err()
            .map(|(tag, f)| (tag, f.message))
    }

    #[test]
    fn a_time_limit_set_by_two_tags_is_refused_at_the_later_one() {
        for game in [GameKind::SurvivalChess, GameKind::GreatWarChess] {
            let (at, message) =
                refused(game, &[("TimeControl", "setup=60 move=30"), ("MoveSeconds", "30")]).expect("a conflict");
            assert_eq!(at, "MoveSeconds");
            assert!(message.contains("both `TimeControl` and `MoveSeconds`"), "{message}");
            let (at, _) = refused(game, &[("SetupSeconds", "60"), ("TimeControl", "setup=60")]).expect("a conflict");
            assert_eq!(at, "TimeControl");
            // Each limit from its own tag is no conflict.
            assert_eq!(
                refused(game, &[("TimeControl", "setup=60"), ("MoveSeconds", "30")]),
                None
            );
        }
        for game in [GameKind::MagicDraughts, GameKind::OpenWorldChess] {
            let (at, _) = refused(game, &[("MoveSeconds", "30"), ("TimeControl", "move=30")]).expect("a conflict");
            assert_eq!(at, "TimeControl");
        }
    }

    #[test]
    fn a_game_without_setup_refuses_a_setup_limit_in_either_spelling() {
        for game in [GameKind::MagicDraughts, GameKind::OpenWorldChess] {
            for tags in [[("SetupSeconds", "60")], [("TimeControl", "setup=60")]] {
                let (at, message) = refused(game, &tags).unwrap_or_else(|| panic!("{game}: {tags:?} accepted"));
                assert_eq!(at, tags[0].0);
                assert!(message.contains("no setup"), "{message}");
            }
        }
    }

    #[test]
    fn an_unknown_tag_that_looks_like_a_parameter_is_named() {
        let found = |game, tags: &[(&str, &str)]| -> Vec<(String, String)> {
            lookalike_tags(game, &header(tags))
                .into_iter()
                .map(|l| (l.tag, l.message))
                .collect()
        };
        let owc = found(
            GameKind::OpenWorldChess,
            &[
                ("Hp", "pawn=1"),
                ("MoveSecond", "30"),
                ("shop_price", "3"),
                ("Charges", "3"),
                ("Annotator", "x"),
                ("White", "Anna"),
                ("ShopPrice", "3"),
            ],
        );
        let tags: Vec<&str> = owc.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(tags, ["Hp", "MoveSecond", "shop_price", "Charges"]);
        assert!(owc[0].1.contains("`PieceHp`"), "{}", owc[0].1);
        assert!(owc[1].1.contains("`MoveSeconds`"), "{}", owc[1].1);
        assert!(owc[2].1.contains("`ShopPrice`"), "{}", owc[2].1);
        assert!(owc[3].1.contains("great-war-chess"), "{}", owc[3].1);
        assert!(found(
            GameKind::SurvivalChess,
            &[("Room", "7"), ("Site", "x"), ("Mode", "single")]
        )
        .is_empty());
        assert!(found(GameKind::MagicDraughts, &[("Board", "8x8"), ("Magic", "on")]).is_empty());
    }
}
