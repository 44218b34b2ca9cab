//! Ruleset parameters: every default of RULES.md as data, apart from the
//! rules code. A ruleset is built from its defaults, then from a `--rules`
//! file (JSON, any subset of the fields), then from the log's header tags.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use fgn_notation::{BoardSize, GameKind, Header, TimeControl};

use crate::core::error::{Fault, Rule};

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

/// How many pieces of each kind one side may set up in survival-chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SetupLimits {
    /// Kings (exactly this many are required before `ready`).
    pub king: u8,
    /// Queens at most.
    pub queen: u8,
    /// Rooks at most.
    pub rook: u8,
    /// Bishops at most.
    pub bishop: u8,
    /// Knights at most.
    pub knight: u8,
    /// Pawns at most.
    pub pawn: u8,
    /// Pieces in all at most.
    pub total: u8,
}

impl Default for SetupLimits {
    fn default() -> SetupLimits {
        SetupLimits {
            king: 1,
            queen: 1,
            rook: 2,
            bishop: 2,
            knight: 2,
            pawn: 8,
            total: 16,
        }
    }
}

/// The parameters of survival-chess (RULES.md section 1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SurvivalRules {
    /// Board size, W x H with 6 <= W, H <= 26 and H even. Tag `Board`.
    pub board: Board,
    /// Seconds for the secret setup; none by default. Tag `SetupSeconds` or `TimeControl "setup=..."`.
    pub setup_seconds: Option<u32>,
    /// Seconds per move; none by default. Tag `MoveSeconds` or `TimeControl "move=..."`.
    pub move_seconds: Option<u32>,
    /// Setup limits per side.
    pub limits: SetupLimits,
}

impl Default for SurvivalRules {
    fn default() -> SurvivalRules {
        SurvivalRules {
            board: Board(BoardSize { files: 12, ranks: 12 }),
            setup_seconds: None,
            move_seconds: None,
            limits: SetupLimits::default(),
        }
    }
}

/// The parameters of magic-draughts (RULES.md section 4).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DraughtsRules {
    /// Whether checkers carry magic numbers. Tag `Magic "on"`/`"off"`.
    pub magic: bool,
    /// How many of a side's twelve checkers carry each number: plain (0),
    /// then 1 to 5; they add up to 12. Tag `Numbers "0=3 1=1 2=2 3=2 4=2 5=2"`.
    pub numbers: [u8; 6],
    /// How many of the caster's own ranks, from its first, Koschei's
    /// Revenge returns checkers to (1 to 7). Tag `RevengeRanks "4"`.
    pub revenge_ranks: u8,
    /// Seconds per move; none by default.
    pub move_seconds: Option<u32>,
}

impl Default for DraughtsRules {
    fn default() -> DraughtsRules {
        DraughtsRules {
            magic: true,
            numbers: [3, 1, 2, 2, 2, 2],
            revenge_ranks: 4,
            move_seconds: None,
        }
    }
}

impl DraughtsRules {
    /// What the rules require of these parameters, with the tag that sets
    /// the parameter at fault.
    fn problem(&self) -> Option<(&'static [&'static str], String)> {
        let total: u32 = self.numbers.iter().map(|&n| u32::from(n)).sum();
        if total != 12 {
            return Some((
                &["Numbers"],
                format!("numbers must give each of a side's 12 checkers a number: they add up to {total}"),
            ));
        }
        if !(1..=7).contains(&self.revenge_ranks) {
            return Some((
                &["RevengeRanks"],
                format!("revenge_ranks must be 1 to 7, not {}", self.revenge_ranks),
            ));
        }
        None
    }
}

/// The bonus kinds' weights in open-world-chess (percent; they sum to 100).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BonusWeights {
    /// Regen (HP +2).
    pub regen: u32,
    /// HP (maximum +1 and HP +1).
    pub hp: u32,
    /// Damage (the base of the damage ramp).
    pub damage: u32,
    /// King HP.
    pub kinghp: u32,
    /// Clone.
    pub clone: u32,
}

impl Default for BonusWeights {
    fn default() -> BonusWeights {
        BonusWeights {
            regen: 42,
            hp: 32,
            damage: 20,
            kinghp: 3,
            clone: 3,
        }
    }
}

/// Initial (and maximum) HP of each piece kind in open-world-chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PieceHp {
    /// Pawn.
    pub pawn: u16,
    /// Knight.
    pub knight: u16,
    /// Bishop.
    pub bishop: u16,
    /// Rook.
    pub rook: u16,
    /// Queen.
    pub queen: u16,
    /// King.
    pub king: u16,
}

impl Default for PieceHp {
    fn default() -> PieceHp {
        PieceHp {
            pawn: 3,
            knight: 5,
            bishop: 5,
            rook: 7,
            queen: 9,
            king: 10,
        }
    }
}

/// The parameters of open-world-chess 1.2 (RULES.md section 2).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpenWorldRules {
    /// Board size, at least 8 files and 6 ranks. Tag `Board`.
    pub board: Board,
    /// Merchant squares; `None`: `d5 e4` on 8x8, none on other sizes. Tag `Merchants`.
    pub merchants: Option<Vec<fgn_notation::Square>>,
    /// Moves per turn. Tag `MovesPerTurn`.
    pub moves_per_turn: u8,
    /// Radius of the light around a piece (and of vision). Tag `LightRadius`.
    pub light_radius: u8,
    /// Percent chance that a square turning lit gets an object. Tag `SpawnChance`.
    pub spawn_chance: u32,
    /// Percent of objects that are coins rather than bonuses. Tag `CoinShare`.
    pub coin_share: u32,
    /// Bonus weights. Tag `BonusWeights "regen=42 hp=32 damage=20 kinghp=3 clone=3"`.
    pub bonus_weights: BonusWeights,
    /// The full move from which the damage share grows. Tag `DamageRampStart`.
    pub damage_ramp_start: u32,
    /// Percent added to the damage share per full move after the start. Tag `DamageRampStep`.
    pub damage_ramp_step: u32,
    /// The largest damage share, percent. Tag `DamageMax`.
    pub damage_max: u32,
    /// Turns after which an unvisited lit square fogs again. Tag `FogAfter`.
    pub fog_after: u8,
    /// Price of a shop item in coins. Tag `ShopPrice`.
    pub shop_price: u32,
    /// HP a regen bonus heals. Tag `RegenHeal`.
    pub regen_heal: u16,
    /// The largest damage roll (rolls are 1..=this). Tag `DamageRoll`.
    pub damage_roll: u8,
    /// Maximum and HP the shop's `hp` item adds. Tag `ShopHp`.
    pub shop_hp: u16,
    /// HP the shop's `drain` item takes. Tag `DrainHp`.
    pub drain_hp: u16,
    /// Step range the shop's `range` item gives a pawn or king. Tag `RangeSteps`.
    pub range_steps: u8,
    /// Initial HP per piece kind. Tag `PieceHp "pawn=3 knight=5 bishop=5 rook=7 queen=9 king=10"`.
    pub hp: PieceHp,
    /// Seconds per turn; none by default. Tag `MoveSeconds` or `TimeControl "move=..."`.
    pub move_seconds: Option<u32>,
}

impl Default for OpenWorldRules {
    fn default() -> OpenWorldRules {
        OpenWorldRules {
            board: Board(BoardSize { files: 8, ranks: 8 }),
            merchants: None,
            moves_per_turn: 3,
            light_radius: 2,
            spawn_chance: 10,
            coin_share: 5,
            bonus_weights: BonusWeights::default(),
            damage_ramp_start: 100,
            damage_ramp_step: 1,
            damage_max: 50,
            fog_after: 5,
            shop_price: 6,
            regen_heal: 2,
            damage_roll: 5,
            shop_hp: 2,
            drain_hp: 2,
            range_steps: 2,
            hp: PieceHp::default(),
            move_seconds: None,
        }
    }
}

impl OpenWorldRules {
    /// The merchant squares in force.
    pub fn merchant_squares(&self) -> Vec<fgn_notation::Square> {
        match &self.merchants {
            Some(m) => m.clone(),
            None if self.board.0 == (BoardSize { files: 8, ranks: 8 }) => ["d5", "e4"]
                .iter()
                .map(|s| s.parse().expect("literal squares"))
                .collect(),
            None => Vec::new(),
        }
    }
}

/// How many units of each movable kind one side sets up in great-war-chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UnitCounts {
    /// Infantry (I).
    pub infantry: u8,
    /// Cavalry (C).
    pub cavalry: u8,
    /// Artillery (A).
    pub artillery: u8,
}

impl Default for UnitCounts {
    fn default() -> UnitCounts {
        UnitCounts {
            infantry: 8,
            cavalry: 2,
            artillery: 2,
        }
    }
}

/// The parameters of great-war-chess (RULES.md section 3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GreatWarRules {
    /// Board size, W x H with 6 <= W, H <= 26 and H even. Tag `Board`.
    pub board: Board,
    /// Fortifications per side; 0 (none) by default. Tag `Fortifications`.
    pub fortifications: u8,
    /// Charges each side starts with. Tag `Charges`.
    pub charges: u32,
    /// Units per side.
    pub units: UnitCounts,
    /// Seconds for the secret setup; none by default. Tag `SetupSeconds` or `TimeControl "setup=..."`.
    pub setup_seconds: Option<u32>,
    /// Seconds per turn; none by default. Tag `MoveSeconds` or `TimeControl "move=..."`.
    pub move_seconds: Option<u32>,
}

impl Default for GreatWarRules {
    fn default() -> GreatWarRules {
        GreatWarRules {
            board: Board(BoardSize { files: 8, ranks: 8 }),
            fortifications: 0,
            charges: 40,
            units: UnitCounts::default(),
            setup_seconds: None,
            move_seconds: None,
        }
    }
}

impl GreatWarRules {
    /// What the rules require of these parameters, with the tags that set
    /// the parameters at fault.
    fn problem(&self) -> Option<(&'static [&'static str], String)> {
        let size = self.board.0;
        if let Some(message) = setup_board_problem(size, "great-war-chess") {
            return Some((&["Board"], message));
        }
        if self.charges == 0 {
            return Some((
                &["Charges"],
                "charges must be at least 1: a side with 0 charges has lost".into(),
            ));
        }
        if self.units.infantry == 0 {
            return Some((
                &[],
                "units.infantry must be at least 1: a side without infantry has lost".into(),
            ));
        }
        // A square holds one unit of each kind of a side, and cavalry and
        // artillery never stand on a fortification, so every kind must fit
        // on the own half beside the fortifications.
        let half = u32::from(size.files) * u32::from(size.ranks) / 2;
        let forts = u32::from(self.fortifications);
        if forts + 1 > half {
            return Some((
                &["Fortifications", "Board"],
                format!("{forts} fortifications do not fit on a half of {half} squares beside the other units"),
            ));
        }
        let u = self.units;
        for (name, count, room) in [
            ("infantry", u.infantry, half),
            ("cavalry", u.cavalry, half - forts),
            ("artillery", u.artillery, half - forts),
        ] {
            if u32::from(count) > room {
                return Some((
                    &["Fortifications", "Board"],
                    format!("{count} {name} do not fit: a side's half has room for {room}"),
                ));
            }
        }
        None
    }
}

/// The ruleset of any game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum Ruleset {
    /// survival-chess
    Survival(SurvivalRules),
    /// magic-draughts
    Draughts(DraughtsRules),
    /// open-world-chess
    OpenWorld(OpenWorldRules),
    /// great-war-chess
    GreatWar(GreatWarRules),
}

/// The rules version each supported game implements.
pub fn rules_version(game: GameKind) -> &'static str {
    match game {
        GameKind::OpenWorldChess => "1.2",
        _ => "1.0",
    }
}

impl Ruleset {
    /// The defaults of `game`, or `None` when its engine is not built yet.
    pub fn defaults(game: GameKind) -> Option<Ruleset> {
        match game {
            GameKind::SurvivalChess => Some(Ruleset::Survival(SurvivalRules::default())),
            GameKind::MagicDraughts => Some(Ruleset::Draughts(DraughtsRules::default())),
            GameKind::OpenWorldChess => Some(Ruleset::OpenWorld(OpenWorldRules::default())),
            GameKind::GreatWarChess => Some(Ruleset::GreatWar(GreatWarRules::default())),
        }
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
        let mut rules = Ruleset::defaults(game).ok_or_else(|| format!("{game} has no ruleset"))?;
        rules.overlay(&params).map_err(|e| format!("rules for {game}: {e}"))?;
        Ok(rules)
    }

    /// The game these are the rules of.
    pub fn game(&self) -> GameKind {
        match self {
            Ruleset::Survival(_) => GameKind::SurvivalChess,
            Ruleset::Draughts(_) => GameKind::MagicDraughts,
            Ruleset::OpenWorld(_) => GameKind::OpenWorldChess,
            Ruleset::GreatWar(_) => GameKind::GreatWarChess,
        }
    }

    /// The ruleset of `game` a JSON value of all its fields (missing ones
    /// take their defaults) spells.
    fn from_value(game: GameKind, value: Value) -> Result<Ruleset, serde_json::Error> {
        Ok(match game {
            GameKind::SurvivalChess => Ruleset::Survival(serde_json::from_value(value)?),
            GameKind::MagicDraughts => Ruleset::Draughts(serde_json::from_value(value)?),
            GameKind::OpenWorldChess => Ruleset::OpenWorld(serde_json::from_value(value)?),
            GameKind::GreatWarChess => Ruleset::GreatWar(serde_json::from_value(value)?),
        })
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
        *self = Ruleset::from_value(self.game(), Value::Object(fields)).map_err(|e| e.to_string())?;
        Ok(())
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
        let problem = |tags: &'static [&'static str], message: String| Some(Problem { tags, message });
        match self {
            Ruleset::Survival(r) => {
                if let Some(message) = setup_board_problem(r.board.0, "survival-chess") {
                    return problem(&["Board"], message);
                }
                let l = &r.limits;
                // The board keeps one king per side, and checkmate needs one.
                if l.king != 1 {
                    return problem(
                        &[],
                        format!("limits.king must be 1 (exactly one king per side), not {}", l.king),
                    );
                }
                if l.total == 0 {
                    return problem(&[], "limits.total must be at least 1".into());
                }
                None
            }
            Ruleset::Draughts(r) => r.problem().map(|(tags, message)| Problem { tags, message }),
            Ruleset::GreatWar(r) => r.problem().map(|(tags, message)| Problem { tags, message }),
            Ruleset::OpenWorld(r) => {
                let size = r.board.0;
                if size.files < 8 || size.ranks < 6 {
                    return problem(
                        &["Board"],
                        format!("board {size}: open-world-chess needs at least 8 files and 6 ranks"),
                    );
                }
                // A turn, a damage roll, a range upgrade and a square's
                // life in the light need at least one of their unit; a
                // price of 0 is only a free shop.
                for (tag, name, value) in [
                    (&["MovesPerTurn"], "moves_per_turn", r.moves_per_turn),
                    (&["DamageRoll"], "damage_roll", r.damage_roll),
                    (&["RangeSteps"], "range_steps", r.range_steps),
                    (&["FogAfter"], "fog_after", r.fog_after),
                ] {
                    if value == 0 {
                        return problem(tag, format!("{name} must be at least 1, not 0"));
                    }
                }
                for (tag, name, value) in [
                    (&["SpawnChance"], "spawn_chance", r.spawn_chance),
                    (&["CoinShare"], "coin_share", r.coin_share),
                    (&["DamageMax"], "damage_max", r.damage_max),
                ] {
                    if value > 100 {
                        return problem(tag, format!("{name} is a percentage (0..100), not {value}"));
                    }
                }
                let w = r.bonus_weights;
                if w.regen + w.hp + w.kinghp + w.clone == 0 {
                    return problem(
                        &["BonusWeights"],
                        "bonus_weights: regen, hp, kinghp and clone may not all be 0".into(),
                    );
                }
                let hp = r.hp;
                if [hp.pawn, hp.knight, hp.bishop, hp.rook, hp.queen, hp.king].contains(&0) {
                    return problem(&["PieceHp"], "every piece starts with at least 1 HP".into());
                }
                if let Some(m) = &r.merchants {
                    if let Some(sq) = m
                        .iter()
                        .find(|sq| sq.file_index() >= size.files || sq.rank_index() >= size.ranks)
                    {
                        return problem(
                            &["Merchants", "Board"],
                            format!("merchant square {sq} is not on the {size} board"),
                        );
                    }
                }
                None
            }
        }
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
            match self {
                Ruleset::GreatWar(r) => match name {
                    "Fortifications" => {
                        r.fortifications = decimal(value)
                            .and_then(|v| u8::try_from(v).ok())
                            .ok_or_else(|| fault("a number of fortifications per side 0..255"))?;
                    }
                    "Charges" => {
                        r.charges = decimal(value)
                            .filter(|&v| v > 0)
                            .ok_or_else(|| fault("a number of charges, at least 1"))?;
                    }
                    _ => setup_game_tag(
                        (name, value),
                        "great-war-chess",
                        &mut r.board,
                        (&mut r.setup_seconds, &mut r.move_seconds),
                    )
                    .map_err(|expected| fault(&expected))?,
                },
                Ruleset::Survival(r) => setup_game_tag(
                    (name, value),
                    "survival-chess",
                    &mut r.board,
                    (&mut r.setup_seconds, &mut r.move_seconds),
                )
                .map_err(|expected| fault(&expected))?,
                Ruleset::Draughts(r) => match name {
                    "Magic" => {
                        r.magic = match value {
                            "on" => true,
                            "off" => false,
                            _ => return Err(fault("on or off")),
                        }
                    }
                    "Board" if value != "8x8" => return Err(fault("8x8 (magic-draughts is played on 8x8 only)")),
                    "TimeControl" => {
                        let tc: TimeControl = value.parse().map_err(|_| fault("a time control such as \"move=60\""))?;
                        if tc.setup_seconds.is_some() {
                            return Err(fault("a move limit only: magic-draughts has no setup"));
                        }
                        r.move_seconds = tc.move_seconds.or(r.move_seconds);
                    }
                    "MoveSeconds" => {
                        r.move_seconds = Some(seconds(value).ok_or_else(|| fault("whole seconds, at least 1"))?)
                    }
                    "Numbers" => {
                        let numbers = number_counts(value)
                            .filter(|n| n.iter().map(|&c| u32::from(c)).sum::<u32>() == 12)
                            .ok_or_else(|| fault("a count for each number 0 to 5, adding up to 12, such as \"0=3 1=1 2=2 3=2 4=2 5=2\""))?;
                        r.numbers = numbers;
                    }
                    "RevengeRanks" => {
                        r.revenge_ranks = decimal(value)
                            .and_then(|v| u8::try_from(v).ok())
                            .filter(|v| (1..=7).contains(v))
                            .ok_or_else(|| fault("a number of ranks from 1 to 7"))?;
                    }
                    _ => {}
                },
                Ruleset::OpenWorld(r) => {
                    let int = |what: &str| decimal(value).ok_or_else(|| fault(what));
                    let small = |what: &str| {
                        decimal(value)
                            .and_then(|v| u8::try_from(v).ok())
                            .ok_or_else(|| fault(what))
                    };
                    let hp = |what: &str| {
                        decimal(value)
                            .and_then(|v| u16::try_from(v).ok())
                            .ok_or_else(|| fault(what))
                    };
                    match name {
                        "Board" => {
                            let size: BoardSize = value.parse().map_err(|_| fault("a board size WxH"))?;
                            if size.files < 8 || size.ranks < 6 {
                                return Err(fault("an open-world-chess board: at least 8 files and 6 ranks"));
                            }
                            r.board = Board(size);
                        }
                        "Merchants" => {
                            let squares = fgn_notation::header::parse_square_list(value)
                                .map_err(|_| fault("space-separated squares such as \"d5 e4\""))?;
                            r.merchants = Some(squares);
                        }
                        "MovesPerTurn" => r.moves_per_turn = small("a whole number of moves 1..255")?,
                        "LightRadius" => r.light_radius = small("a whole number of squares 0..255")?,
                        "SpawnChance" => r.spawn_chance = int("a percentage 0..100")?,
                        "CoinShare" => r.coin_share = int("a percentage 0..100")?,
                        "DamageRampStart" => r.damage_ramp_start = int("a full-move number")?,
                        "DamageRampStep" => r.damage_ramp_step = int("a percentage per full move")?,
                        "DamageMax" => r.damage_max = int("a percentage 0..100")?,
                        "FogAfter" => r.fog_after = small("a number of turns 0..255")?,
                        "ShopPrice" => r.shop_price = int("a price in coins")?,
                        "RegenHeal" => r.regen_heal = hp("HP 0..65535")?,
                        "DamageRoll" => r.damage_roll = small("the largest roll 1..255")?,
                        "ShopHp" => r.shop_hp = hp("HP 0..65535")?,
                        "DrainHp" => r.drain_hp = hp("HP 0..65535")?,
                        "RangeSteps" => r.range_steps = small("a number of squares 1..255")?,
                        "PieceHp" => {
                            let expected =
                                "HP such as \"pawn=3 knight=5 bishop=5 rook=7 queen=9 king=10\", each piece named once";
                            let mut h = r.hp;
                            for (k, v) in named_values(value).ok_or_else(|| fault(expected))? {
                                let v = u16::try_from(v).map_err(|_| fault(expected))?;
                                match k {
                                    "pawn" => h.pawn = v,
                                    "knight" => h.knight = v,
                                    "bishop" => h.bishop = v,
                                    "rook" => h.rook = v,
                                    "queen" => h.queen = v,
                                    "king" => h.king = v,
                                    _ => return Err(fault(expected)),
                                }
                            }
                            r.hp = h;
                        }
                        "BonusWeights" => {
                            let expected =
                                "weights such as \"regen=42 hp=32 damage=20 kinghp=3 clone=3\", each kind named once";
                            let mut w = r.bonus_weights;
                            for (k, v) in named_values(value).ok_or_else(|| fault(expected))? {
                                match k {
                                    "regen" => w.regen = v,
                                    "hp" => w.hp = v,
                                    "damage" => w.damage = v,
                                    "kinghp" => w.kinghp = v,
                                    "clone" => w.clone = v,
                                    _ => return Err(fault(expected)),
                                }
                            }
                            r.bonus_weights = w;
                        }
                        "TimeControl" => {
                            let tc: TimeControl =
                                value.parse().map_err(|_| fault("a time control such as \"move=60\""))?;
                            if tc.setup_seconds.is_some() {
                                return Err(fault("a move limit only: open-world-chess has no setup"));
                            }
                            r.move_seconds = tc.move_seconds.or(r.move_seconds);
                        }
                        "MoveSeconds" => {
                            r.move_seconds = Some(seconds(value).ok_or_else(|| fault("whole seconds, at least 1"))?)
                        }
                        _ => {}
                    }
                }
            }
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

    /// The time limits of the ruleset.
    pub fn time_control(&self) -> TimeControl {
        match self {
            Ruleset::Survival(r) => TimeControl {
                setup_seconds: r.setup_seconds,
                move_seconds: r.move_seconds,
            },
            Ruleset::GreatWar(r) => TimeControl {
                setup_seconds: r.setup_seconds,
                move_seconds: r.move_seconds,
            },
            Ruleset::OpenWorld(r) => TimeControl {
                setup_seconds: None,
                move_seconds: r.move_seconds,
            },
            Ruleset::Draughts(r) => TimeControl {
                setup_seconds: None,
                move_seconds: r.move_seconds,
            },
        }
    }
}

/// Which header tags set each parameter of `game`, by the parameter's
/// field name: what links a rules file's fields to the log's tags, so that
/// an override can be named and a problem blamed on the right one.
/// Parameters no tag sets (`limits`, `units`) are changed by rules files
/// only.
pub fn parameter_tags(game: GameKind) -> &'static [(&'static str, &'static [&'static str])] {
    const SETUP_TIME: &[&str] = &["SetupSeconds", "TimeControl"];
    const MOVE_TIME: &[&str] = &["MoveSeconds", "TimeControl"];
    match game {
        GameKind::SurvivalChess => &[
            ("board", &["Board"]),
            ("setup_seconds", SETUP_TIME),
            ("move_seconds", MOVE_TIME),
            ("limits", &[]),
        ],
        GameKind::GreatWarChess => &[
            ("board", &["Board"]),
            ("fortifications", &["Fortifications"]),
            ("charges", &["Charges"]),
            ("units", &[]),
            ("setup_seconds", SETUP_TIME),
            ("move_seconds", MOVE_TIME),
        ],
        GameKind::MagicDraughts => &[
            ("magic", &["Magic"]),
            ("numbers", &["Numbers"]),
            ("revenge_ranks", &["RevengeRanks"]),
            ("move_seconds", MOVE_TIME),
        ],
        GameKind::OpenWorldChess => &[
            ("board", &["Board"]),
            ("merchants", &["Merchants"]),
            ("moves_per_turn", &["MovesPerTurn"]),
            ("light_radius", &["LightRadius"]),
            ("spawn_chance", &["SpawnChance"]),
            ("coin_share", &["CoinShare"]),
            ("bonus_weights", &["BonusWeights"]),
            ("damage_ramp_start", &["DamageRampStart"]),
            ("damage_ramp_step", &["DamageRampStep"]),
            ("damage_max", &["DamageMax"]),
            ("fog_after", &["FogAfter"]),
            ("shop_price", &["ShopPrice"]),
            ("regen_heal", &["RegenHeal"]),
            ("damage_roll", &["DamageRoll"]),
            ("shop_hp", &["ShopHp"]),
            ("drain_hp", &["DrainHp"]),
            ("range_steps", &["RangeSteps"]),
            ("hp", &["PieceHp"]),
            ("move_seconds", MOVE_TIME),
        ],
    }
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
    // magic-draughts reads `Board` too, to refuse any board but 8x8.
    let read_anyway: &[&str] = match game {
        GameKind::MagicDraughts => &["Board"],
        _ => &[],
    };
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
        let mut rules = Ruleset::defaults(game).ok_or_else(|| format!("{game} has no ruleset"))?;
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
                "`{k}` is not a game: a rules file keyed by game names holds only {} at its top level, each with an object of that game's parameters",
                game_list()
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

    /// The one-game form: the parameters checked against every game.
    fn one_game(fields: serde_json::Map<String, Value>) -> Result<RulesFile, String> {
        let games: BTreeMap<GameKind, Result<Params, String>> = GameKind::ALL
            .into_iter()
            .map(|g| (g, Params::new(g, fields.clone())))
            .collect();
        if games.values().any(Result::is_ok) {
            return Ok(RulesFile { keyed: false, games });
        }
        let known = |k: &str| {
            GameKind::ALL
                .iter()
                .any(|&g| parameter_tags(g).iter().any(|(p, _)| *p == k))
        };
        if let Some(k) = fields.keys().find(|k| !known(k)) {
            return Err(format!(
                "`{k}` is neither a game ({}) nor a parameter of any game (`fgn rules show GAME` lists them)",
                game_list()
            ));
        }
        let reasons: Vec<String> = games.into_values().filter_map(Result::err).collect();
        Err(format!("these parameters fit no game: {}", reasons.join("; ")))
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

/// The games, for messages.
fn game_list() -> String {
    let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
    names.join(", ")
}

/// A problem of a ruleset: what is wrong, and the header tags that set
/// the parameters at fault, in the order to blame them.
struct Problem {
    tags: &'static [&'static str],
    message: String,
}

/// `name=value` items separated by single spaces, each value a decimal
/// number, each name given once: a value that names a key twice is
/// malformed (which of the two would count is a guess), as NOTATION.md
/// makes a malformed parameter value an error. `None` when it is not of
/// that form; the names are checked by the caller.
fn named_values(value: &str) -> Option<Vec<(&str, u32)>> {
    let mut out: Vec<(&str, u32)> = Vec::new();
    for item in value.split(' ') {
        let (k, v) = item.split_once('=')?;
        if out.iter().any(|&(seen, _)| seen == k) {
            return None;
        }
        out.push((k, decimal(v)?));
    }
    Some(out)
}

/// `0=3 1=1 2=2 3=2 4=2 5=2`: a count for each of the numbers 0 to 5, each
/// named once, in any order.
fn number_counts(value: &str) -> Option<[u8; 6]> {
    let mut out = [0u8; 6];
    let mut seen = [false; 6];
    for item in value.split(' ') {
        let (k, v) = item.split_once('=')?;
        let k = decimal(k).map(|k| k as usize).filter(|&k| k < 6)?;
        if seen[k] {
            return None;
        }
        seen[k] = true;
        out[k] = decimal(v).and_then(|v| u8::try_from(v).ok())?;
    }
    seen.iter().all(|&s| s).then_some(out)
}

/// What is wrong with the time tags taken together: a limit set by both
/// `TimeControl` and its own tag (`MoveSeconds`, `SetupSeconds`), which
/// would otherwise let the later tag win unnoticed, is blamed on the later
/// of the two; a setup limit in a game without a setup is blamed on its
/// tag, as `TimeControl "setup=..."` is in such a game. A malformed value
/// is left to the tag's own check.
fn time_tag_problem(game: GameKind, header: &Header) -> Option<(String, Fault)> {
    let position = |name: &str| header.tags.iter().position(|t| t.name == name);
    let has_setup = matches!(game, GameKind::SurvivalChess | GameKind::GreatWarChess);
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

/// Applies a tag of a game with a secret setup that all such games share:
/// `Board`, `TimeControl`, `SetupSeconds` and `MoveSeconds`; other tags
/// are left alone. On a bad value, what was expected.
fn setup_game_tag(
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
fn setup_board_problem(size: BoardSize, game: &str) -> Option<String> {
    let ok = (6..=26).contains(&size.files) && (6..=26).contains(&size.ranks) && size.ranks.is_multiple_of(2);
    (!ok).then(|| format!("board {size}: {game} boards are W x H with W and H from 6 to 26 and H even"))
}

/// A decimal number without sign or leading zeros.
fn decimal(value: &str) -> Option<u32> {
    if value.is_empty() || (value.len() > 1 && value.starts_with('0')) || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

fn seconds(value: &str) -> Option<u32> {
    if value.starts_with('0') || value.starts_with('+') {
        return None;
    }
    value.parse().ok().filter(|&s| s > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut rules = Ruleset::defaults(game).expect("an engine");
        let overridden = rules.apply_header(&header(tags), params).expect("allowed parameters");
        (rules, overridden)
    }

    #[test]
    fn the_tag_table_names_every_parameter_of_every_game() {
        for game in GameKind::ALL {
            let fields: Vec<String> = Ruleset::defaults(game).unwrap().to_fields().keys().cloned().collect();
            let table: Vec<String> = parameter_tags(game).iter().map(|(p, _)| p.to_string()).collect();
            assert_eq!(fields, table, "{game}");
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
            (r#"{"moves_per_turn": "two"}"#, "fit no game"),
        ] {
            let e = RulesFile::parse(json).unwrap_err();
            assert!(e.contains(expected), "{json}: {e}");
        }
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
        let mut rules = Ruleset::defaults(GameKind::GreatWarChess).unwrap();
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
        let mut rules = Ruleset::defaults(game).unwrap();
        rules
            .apply_header(&header(tags), None)
            .err()
            .map(|(tag, f)| (tag, f.message))
    }

    #[test]
    fn a_parameter_value_naming_a_key_twice_is_refused() {
        for (tag, value) in [
            ("PieceHp", "pawn=1 pawn=2"),
            ("PieceHp", "king=10 pawn=3 king=10"),
            ("BonusWeights", "hp=0 hp=32"),
            ("BonusWeights", "regen=42 hp=32 damage=20 kinghp=3 clone=3 regen=42"),
        ] {
            let (at, message) = refused(GameKind::OpenWorldChess, &[(tag, value)])
                .unwrap_or_else(|| panic!("[{tag} \"{value}\"] was accepted"));
            assert_eq!(at, tag);
            assert!(message.contains("named once"), "{message}");
        }
        // Each key once, in any order, is still read.
        assert_eq!(
            refused(GameKind::OpenWorldChess, &[("PieceHp", "king=12 pawn=2")]),
            None
        );
        assert_eq!(
            refused(GameKind::OpenWorldChess, &[("BonusWeights", "hp=50 regen=50")]),
            None
        );
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
