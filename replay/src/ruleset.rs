//! Ruleset parameters: every default of RULES.md as data, apart from the
//! rules code. A ruleset is built from its defaults, then from a `--rules`
//! file (JSON, any subset of the fields), then from the log's header tags.

use serde::{Deserialize, Serialize};

use fgn_notation::{BoardSize, GameKind, Header, TimeControl};

use crate::error::{Fault, Rule};

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
        let bad = |e: serde_json::Error| format!("rules for {game}: {e}");
        let rules = match game {
            GameKind::SurvivalChess => serde_json::from_str(json).map(Ruleset::Survival).map_err(bad)?,
            GameKind::MagicDraughts => serde_json::from_str(json).map(Ruleset::Draughts).map_err(bad)?,
            GameKind::OpenWorldChess => serde_json::from_str(json).map(Ruleset::OpenWorld).map_err(bad)?,
            GameKind::GreatWarChess => serde_json::from_str(json).map(Ruleset::GreatWar).map_err(bad)?,
        };
        rules.check().map_err(|e| format!("rules for {game}: {e}"))?;
        Ok(rules)
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

    /// Applies the log's parameter tags. A malformed value is a fault; tags
    /// that are not parameters of this game are left alone.
    pub fn apply_header(&mut self, header: &Header) -> Result<(), (String, Fault)> {
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
                            let expected = "HP such as \"pawn=3 knight=5 bishop=5 rook=7 queen=9 king=10\"";
                            let mut h = r.hp;
                            for part in value.split(' ') {
                                let (k, v) = part.split_once('=').ok_or_else(|| fault(expected))?;
                                let v = decimal(v)
                                    .and_then(|v| u16::try_from(v).ok())
                                    .ok_or_else(|| fault(expected))?;
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
                            let expected = "weights such as \"regen=42 hp=32 damage=20 kinghp=3 clone=3\"";
                            let mut w = r.bonus_weights;
                            for part in value.split(' ') {
                                let (k, v) = part.split_once('=').ok_or_else(|| fault(expected))?;
                                let v = decimal(v).ok_or_else(|| fault(expected))?;
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
        match self.problem() {
            // Point at the first tag in the header that set a parameter at
            // fault; a problem no tag set is the ruleset's as a whole.
            Some(p) => {
                let tag = p.tags.iter().copied().find(|&t| header.get(t).is_some());
                let message = match tag {
                    Some(t) => format!("tag `{t}`: {}", p.message),
                    None => p.message,
                };
                Err((tag.unwrap_or("Rules").to_string(), Fault::new(Rule::Parameter, message)))
            }
            None => Ok(()),
        }
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

/// A problem of a ruleset: what is wrong, and the header tags that set
/// the parameters at fault, in the order to blame them.
struct Problem {
    tags: &'static [&'static str],
    message: String,
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
