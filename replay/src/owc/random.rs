//! Random legal open-world-chess games with a seed: every random outcome is
//! what the seed derives, and the players' choices (moves, `end`,
//! purchases) come from a second, independent generator. For benchmarks,
//! property tests and the corpus.

use fgn_notation::{Action, Actor, Color, Event, Game, Header, Item, MoveNumber, PieceKind, Seed, Tag};

use super::OpenWorld;
use crate::referee::open_world_outcome;
use crate::rng::Rng;
use crate::ruleset::OpenWorldRules;
use crate::seed::{commitment, salt_events, Draws, Salts};
use crate::session::{Decision, Engine, Turn};

/// A random game from the world seed `world` and the choices of `choices`,
/// at most `max_events` events long; it ends with its result and the
/// revealed seed when a king dies (or a player resigns, now and then).
pub fn random_game(rules: OpenWorldRules, world: [u8; 32], choices: u64, max_events: usize) -> Game {
    random_salted_game(rules, world, &Salts::default(), choices, max_events)
}

/// [`random_game`] in which the players gave `salts`: the log begins with
/// them, and every outcome comes from the game key of the seed and the salts.
pub fn random_salted_game(
    rules: OpenWorldRules,
    world: [u8; 32],
    salts: &Salts,
    choices: u64,
    max_events: usize,
) -> Game {
    let mut rng = Rng::new(choices);
    let draws = Draws::salted(&world, salts);
    let commit = commitment(&world);
    let mut game = OpenWorld::new(rules.clone(), Some(commit));
    let mut events: Vec<Event> = salt_events(salts);
    let mut last_n = MoveNumber(0);
    let mut decision: Option<Decision> = None;
    // The starting light's spawns come first, after the salts.
    push_spawns(&mut game, &draws, &mut events, last_n);
    while decision.is_none() && events.len() < max_events {
        game.at_event(events.len());
        if game.owed().is_some() {
            let action = open_world_outcome(&game, &draws).expect("the referee derives an owed outcome");
            decision = game.world(&action).expect("a derived outcome is legal");
            events.push(Event {
                n: last_n,
                actor: Actor::World,
                action,
                clock_ms: None,
            });
            if decision.is_none() {
                push_spawns(&mut game, &draws, &mut events, last_n);
            }
            continue;
        }
        let Turn::Move { side, number } = game.turn() else {
            break;
        };
        let action = choose(&game, side, &mut rng, &rules);
        let Some(action) = action else { break };
        if action == Action::Resign {
            events.push(Event {
                n: last_n,
                actor: Actor::Player(side),
                action,
                clock_ms: None,
            });
            decision = Some(Decision::win(side.opponent(), fgn_notation::Reason::Resign));
            break;
        }
        game.checkpoint();
        match game.player(side, number, &action) {
            Ok(d) => decision = d,
            // A choice the rules refuse is simply not played (and leaves
            // no trace, as in a session).
            Err(_) => {
                game.rollback();
                continue;
            }
        }
        events.push(Event {
            n: number,
            actor: Actor::Player(side),
            action,
            clock_ms: None,
        });
        last_n = number;
        if decision.is_none() {
            push_spawns(&mut game, &draws, &mut events, last_n);
        }
    }
    let hex: String = commit.iter().map(|b| format!("{b:02x}")).collect();
    let mut tags = vec![
        Tag {
            name: "Game".into(),
            value: "open-world-chess".into(),
        },
        Tag {
            name: "Rules".into(),
            value: "1.2".into(),
        },
        Tag {
            name: "SeedCommit".into(),
            value: format!("blake3:{hex}"),
        },
    ];
    // The parameters that differ from the defaults, as header tags, so that
    // the log replays under the rules it was made with.
    let d = OpenWorldRules::default();
    let mut param = |name: &str, value: String, default: String| {
        if value != default {
            tags.push(Tag {
                name: name.into(),
                value,
            });
        }
    };
    param("Board", rules.board.0.to_string(), d.board.0.to_string());
    for (name, value, default) in [
        (
            "MovesPerTurn",
            u32::from(rules.moves_per_turn),
            u32::from(d.moves_per_turn),
        ),
        ("LightRadius", u32::from(rules.light_radius), u32::from(d.light_radius)),
        ("SpawnChance", rules.spawn_chance, d.spawn_chance),
        ("CoinShare", rules.coin_share, d.coin_share),
        ("DamageRampStart", rules.damage_ramp_start, d.damage_ramp_start),
        ("DamageRampStep", rules.damage_ramp_step, d.damage_ramp_step),
        ("DamageMax", rules.damage_max, d.damage_max),
        ("FogAfter", u32::from(rules.fog_after), u32::from(d.fog_after)),
        ("ShopPrice", rules.shop_price, d.shop_price),
        ("RegenHeal", u32::from(rules.regen_heal), u32::from(d.regen_heal)),
        ("DamageRoll", u32::from(rules.damage_roll), u32::from(d.damage_roll)),
        ("ShopHp", u32::from(rules.shop_hp), u32::from(d.shop_hp)),
        ("DrainHp", u32::from(rules.drain_hp), u32::from(d.drain_hp)),
        ("RangeSteps", u32::from(rules.range_steps), u32::from(d.range_steps)),
    ] {
        param(name, value.to_string(), default.to_string());
    }
    let w = rules.bonus_weights;
    let weights = |w: crate::ruleset::BonusWeights| {
        format!(
            "regen={} hp={} damage={} kinghp={} clone={}",
            w.regen, w.hp, w.damage, w.kinghp, w.clone
        )
    };
    param("BonusWeights", weights(w), weights(d.bonus_weights));
    let hp = |h: crate::ruleset::PieceHp| {
        format!(
            "pawn={} knight={} bishop={} rook={} queen={} king={}",
            h.pawn, h.knight, h.bishop, h.rook, h.queen, h.king
        )
    };
    param("PieceHp", hp(rules.hp), hp(d.hp));
    if let Some(m) = rules.move_seconds {
        param("MoveSeconds", m.to_string(), String::new());
    }
    if rules.merchants.is_some() {
        let list: Vec<String> = rules.merchant_squares().iter().map(|s| s.to_string()).collect();
        tags.push(Tag {
            name: "Merchants".into(),
            value: list.join(" "),
        });
    }
    if let Some(d) = decision {
        events.push(Event {
            n: last_n,
            actor: Actor::World,
            action: Action::Result {
                outcome: d.outcome,
                reason: d.reason,
            },
            clock_ms: None,
        });
        events.push(Event {
            n: last_n,
            actor: Actor::World,
            action: Action::Seed { seed: Seed(world) },
            clock_ms: None,
        });
    }
    Game {
        header: Header { tags },
        events,
    }
}

/// The spawns the seed gives on the squares the last move (or the start)
/// lit, as the referee derives them; an owed outcome is left to the caller,
/// which takes one per step.
fn push_spawns(game: &mut OpenWorld, draws: &Draws, events: &mut Vec<Event>, n: MoveNumber) {
    while game.owed().is_none() {
        let Some(action) = open_world_outcome(game, draws) else {
            return;
        };
        game.at_event(events.len());
        game.world(&action).expect("a derived spawn is legal");
        events.push(Event {
            n,
            actor: Actor::World,
            action,
            clock_ms: None,
        });
    }
}

/// A player's choice: mostly moves (attacks preferred), sometimes `end`
/// or a purchase, rarely a resignation.
fn choose(game: &OpenWorld, side: Color, rng: &mut Rng, rules: &OpenWorldRules) -> Option<Action> {
    if game.shop_open() && game.coins(side) >= rules.shop_price && rng.below(2) == 0 {
        return Some(purchase(game, side, rng));
    }
    choose_move(game, side, rng)
}

/// A random purchase of `side` (the engine decides whether it is allowed).
fn purchase(game: &OpenWorld, side: Color, rng: &mut Rng) -> Action {
    {
        let own: Vec<_> = game
            .squares()
            .filter(|&sq| game.piece(sq).is_some_and(|u| u.color == side))
            .collect();
        let seen_enemy: Vec<_> = game
            .squares()
            .filter(|&sq| game.piece(sq).is_some_and(|u| u.color != side) && game.sees(side, sq))
            .collect();
        let pick = |v: &[fgn_notation::Square], rng: &mut Rng| v.get(rng.below(v.len().max(1))).copied();
        match rng.below(4) {
            0 => Action::Buy {
                item: Item::Curse,
                square: None,
                hidden: false,
            },
            1 => Action::Buy {
                item: Item::Hp,
                square: pick(&own, rng),
                hidden: false,
            },
            2 => match pick(&seen_enemy, rng) {
                Some(sq) => Action::Buy {
                    item: Item::Drain,
                    square: Some(sq),
                    hidden: false,
                },
                None => Action::Buy {
                    item: Item::Curse,
                    square: None,
                    hidden: false,
                },
            },
            _ => {
                let ranged: Vec<_> = own
                    .iter()
                    .copied()
                    .filter(|&sq| {
                        game.piece(sq)
                            .is_some_and(|u| matches!(u.kind, PieceKind::Pawn | PieceKind::King) && !u.range)
                    })
                    .collect();
                match pick(&ranged, rng) {
                    Some(sq) => Action::Buy {
                        item: Item::Range,
                        square: Some(sq),
                        hidden: false,
                    },
                    None => Action::Buy {
                        item: Item::Curse,
                        square: None,
                        hidden: false,
                    },
                }
            }
        }
    }
}

/// A move, `end` or (rarely) a resignation of `side`.
fn choose_move(game: &OpenWorld, side: Color, rng: &mut Rng) -> Option<Action> {
    if game.moves_left() > 0 && rng.below(12) == 0 {
        return Some(Action::End);
    }
    if rng.below(400) == 0 {
        return Some(Action::Resign);
    }
    let moves = game.moves(side);
    if moves.is_empty() {
        return (game.moves_left() > 0).then_some(Action::End);
    }
    let attacks: Vec<_> = moves.iter().filter(|m| m.capture).copied().collect();
    let m = if !attacks.is_empty() && rng.below(3) != 0 {
        attacks[rng.below(attacks.len())]
    } else {
        moves[rng.below(moves.len())]
    };
    Some(Action::Move(m))
}
