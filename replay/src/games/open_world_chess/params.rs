//! open-world-chess's parameters (RULES.md section 2): their defaults, the
//! header tags that set them, what the rules require of them and the tags
//! a generated game writes for them. The machinery all games share
//! (rules files, overrides, time tags) is in [`crate::ruleset`].

use fgn_notation::{BoardSize, GameKind, Square, Tag, TimeControl};
use serde::{Deserialize, Serialize};

use crate::core::params::{decimal, push_tag, seconds, time_control_value, Board, Parameters, Problem, MOVE_TIME};

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
    pub(crate) fn merchant_squares(&self) -> Vec<fgn_notation::Square> {
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

impl Parameters for OpenWorldRules {
    const GAME: GameKind = GameKind::OpenWorldChess;
    const RULES_VERSION: &'static str = "1.2";
    const TAGS: &'static [(&'static str, &'static [&'static str])] = &[
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
    ];
    const HAS_SETUP: bool = false;

    fn problem(&self) -> Option<Problem> {
        let size = self.board.0;
        if size.files < 8 || size.ranks < 6 {
            return Problem::found(
                &["Board"],
                format!("board {size}: open-world-chess needs at least 8 files and 6 ranks"),
            );
        }
        // A turn, a damage roll, a range upgrade and a square's life in
        // the light need at least one of their unit; a price of 0 is only
        // a free shop.
        for (tag, name, value) in [
            (&["MovesPerTurn"], "moves_per_turn", self.moves_per_turn),
            (&["DamageRoll"], "damage_roll", self.damage_roll),
            (&["RangeSteps"], "range_steps", self.range_steps),
            (&["FogAfter"], "fog_after", self.fog_after),
        ] {
            if value == 0 {
                return Problem::found(tag, format!("{name} must be at least 1, not 0"));
            }
        }
        for (tag, name, value) in [
            (&["SpawnChance"], "spawn_chance", self.spawn_chance),
            (&["CoinShare"], "coin_share", self.coin_share),
            (&["DamageMax"], "damage_max", self.damage_max),
        ] {
            if value > 100 {
                return Problem::found(tag, format!("{name} is a percentage (0..100), not {value}"));
            }
        }
        let w = self.bonus_weights;
        if w.regen + w.hp + w.kinghp + w.clone == 0 {
            return Problem::found(
                &["BonusWeights"],
                "bonus_weights: regen, hp, kinghp and clone may not all be 0".into(),
            );
        }
        let hp = self.hp;
        if [hp.pawn, hp.knight, hp.bishop, hp.rook, hp.queen, hp.king].contains(&0) {
            return Problem::found(&["PieceHp"], "every piece starts with at least 1 HP".into());
        }
        if let Some(m) = &self.merchants {
            if let Some(sq) = m
                .iter()
                .find(|sq| sq.file_index() >= size.files || sq.rank_index() >= size.ranks)
            {
                return Problem::found(
                    &["Merchants", "Board"],
                    format!("merchant square {sq} is not on the {size} board"),
                );
            }
        }
        None
    }

    fn apply_tag(&mut self, name: &str, value: &str) -> Result<(), String> {
        let int = |what: &str| decimal(value).ok_or_else(|| what.to_string());
        let small = |what: &str| {
            decimal(value)
                .and_then(|v| u8::try_from(v).ok())
                .ok_or_else(|| what.to_string())
        };
        let hp = |what: &str| {
            decimal(value)
                .and_then(|v| u16::try_from(v).ok())
                .ok_or_else(|| what.to_string())
        };
        match name {
            "Board" => {
                let size: BoardSize = value.parse().map_err(|_| "a board size WxH".to_string())?;
                if size.files < 8 || size.ranks < 6 {
                    return Err("an open-world-chess board: at least 8 files and 6 ranks".into());
                }
                self.board = Board(size);
            }
            "Merchants" => {
                let squares = fgn_notation::header::parse_square_list(value)
                    .map_err(|_| "space-separated squares such as \"d5 e4\"".to_string())?;
                self.merchants = Some(squares);
            }
            "MovesPerTurn" => self.moves_per_turn = small("a whole number of moves 1..255")?,
            "LightRadius" => self.light_radius = small("a whole number of squares 0..255")?,
            "SpawnChance" => self.spawn_chance = int("a percentage 0..100")?,
            "CoinShare" => self.coin_share = int("a percentage 0..100")?,
            "DamageRampStart" => self.damage_ramp_start = int("a full-move number")?,
            "DamageRampStep" => self.damage_ramp_step = int("a percentage per full move")?,
            "DamageMax" => self.damage_max = int("a percentage 0..100")?,
            "FogAfter" => self.fog_after = small("a number of turns 0..255")?,
            "ShopPrice" => self.shop_price = int("a price in coins")?,
            "RegenHeal" => self.regen_heal = hp("HP 0..65535")?,
            "DamageRoll" => self.damage_roll = small("the largest roll 1..255")?,
            "ShopHp" => self.shop_hp = hp("HP 0..65535")?,
            "DrainHp" => self.drain_hp = hp("HP 0..65535")?,
            "RangeSteps" => self.range_steps = small("a number of squares 1..255")?,
            "PieceHp" => {
                let expected = "HP such as \"pawn=3 knight=5 bishop=5 rook=7 queen=9 king=10\", each piece named once";
                let mut h = self.hp;
                for (k, v) in named_values(value).ok_or(expected)? {
                    let v = u16::try_from(v).map_err(|_| expected)?;
                    match k {
                        "pawn" => h.pawn = v,
                        "knight" => h.knight = v,
                        "bishop" => h.bishop = v,
                        "rook" => h.rook = v,
                        "queen" => h.queen = v,
                        "king" => h.king = v,
                        _ => return Err(expected.into()),
                    }
                }
                self.hp = h;
            }
            "BonusWeights" => {
                let expected = "weights such as \"regen=42 hp=32 damage=20 kinghp=3 clone=3\", each kind named once";
                let mut w = self.bonus_weights;
                for (k, v) in named_values(value).ok_or(expected)? {
                    match k {
                        "regen" => w.regen = v,
                        "hp" => w.hp = v,
                        "damage" => w.damage = v,
                        "kinghp" => w.kinghp = v,
                        "clone" => w.clone = v,
                        _ => return Err(expected.into()),
                    }
                }
                self.bonus_weights = w;
            }
            "TimeControl" => {
                let tc: TimeControl = value
                    .parse()
                    .map_err(|_| "a time control such as \"move=60\"".to_string())?;
                if tc.setup_seconds.is_some() {
                    return Err("a move limit only: open-world-chess has no setup".into());
                }
                self.move_seconds = tc.move_seconds.or(self.move_seconds);
            }
            "MoveSeconds" => {
                self.move_seconds = Some(seconds(value).ok_or_else(|| "whole seconds, at least 1".to_string())?)
            }
            _ => {}
        }
        Ok(())
    }

    fn time_control(&self) -> TimeControl {
        TimeControl {
            setup_seconds: None,
            move_seconds: self.move_seconds,
        }
    }

    fn has_world_seed(&self) -> bool {
        true
    }

    fn write_tags(&self, tags: &mut Vec<Tag>) {
        let d = OpenWorldRules::default();
        if self.board != d.board {
            push_tag(tags, "Board", self.board.0.to_string());
        }
        if let Some(m) = &self.merchants {
            let list: Vec<String> = m.iter().map(Square::to_string).collect();
            push_tag(tags, "Merchants", list.join(" "));
        }
        for (name, value, default) in [
            (
                "MovesPerTurn",
                u32::from(self.moves_per_turn),
                u32::from(d.moves_per_turn),
            ),
            ("LightRadius", u32::from(self.light_radius), u32::from(d.light_radius)),
            ("SpawnChance", self.spawn_chance, d.spawn_chance),
            ("CoinShare", self.coin_share, d.coin_share),
            ("DamageRampStart", self.damage_ramp_start, d.damage_ramp_start),
            ("DamageRampStep", self.damage_ramp_step, d.damage_ramp_step),
            ("DamageMax", self.damage_max, d.damage_max),
            ("FogAfter", u32::from(self.fog_after), u32::from(d.fog_after)),
            ("ShopPrice", self.shop_price, d.shop_price),
            ("RegenHeal", u32::from(self.regen_heal), u32::from(d.regen_heal)),
            ("DamageRoll", u32::from(self.damage_roll), u32::from(d.damage_roll)),
            ("ShopHp", u32::from(self.shop_hp), u32::from(d.shop_hp)),
            ("DrainHp", u32::from(self.drain_hp), u32::from(d.drain_hp)),
            ("RangeSteps", u32::from(self.range_steps), u32::from(d.range_steps)),
        ] {
            if value != default {
                push_tag(tags, name, value.to_string());
            }
        }
        if self.bonus_weights != d.bonus_weights {
            let w = self.bonus_weights;
            push_tag(
                tags,
                "BonusWeights",
                format!(
                    "regen={} hp={} damage={} kinghp={} clone={}",
                    w.regen, w.hp, w.damage, w.kinghp, w.clone
                ),
            );
        }
        if self.hp != d.hp {
            let h = self.hp;
            push_tag(
                tags,
                "PieceHp",
                format!(
                    "pawn={} knight={} bishop={} rook={} queen={} king={}",
                    h.pawn, h.knight, h.bishop, h.rook, h.queen, h.king
                ),
            );
        }
        if let Some(tc) = time_control_value(None, self.move_seconds) {
            push_tag(tags, "TimeControl", tc);
        }
    }
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

#[cfg(test)]
mod tests {
    use fgn_notation::Header;

    use super::*;

    /// The tag a header of the one tag `[name "value"]` is refused at, and
    /// its message, or `None`.
    fn refused(name: &str, value: &str) -> Option<(String, String)> {
        let header = Header {
            tags: vec![Tag {
                name: name.into(),
                value: value.into(),
            }],
        };
        let mut rules = crate::Ruleset::OpenWorld(OpenWorldRules::default());
        rules.apply_header(&header, None).err().map(|(tag, f)| (tag, f.message))
    }

    #[test]
    fn a_parameter_value_naming_a_key_twice_is_refused() {
        for (tag, value) in [
            ("PieceHp", "pawn=1 pawn=2"),
            ("PieceHp", "king=10 pawn=3 king=10"),
            ("BonusWeights", "hp=0 hp=32"),
            ("BonusWeights", "regen=42 hp=32 damage=20 kinghp=3 clone=3 regen=42"),
        ] {
            let (at, message) = refused(tag, value).unwrap_or_else(|| panic!("[{tag} \"{value}\"] was accepted"));
            assert_eq!(at, tag);
            assert!(message.contains("named once"), "{message}");
        }
        // Each key once, in any order, is still read.
        assert_eq!(refused("PieceHp", "king=12 pawn=2"), None);
        assert_eq!(refused("BonusWeights", "hp=50 regen=50"), None);
    }
}
