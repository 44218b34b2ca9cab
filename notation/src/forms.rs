//! Which action forms each game and actor admit.
//!
//! This is the one place that says so: the text parser consults it after
//! reading an action, and the JSON reader consults it for every event, so
//! that both front doors accept exactly the same logs.

use crate::action::{Action, Event};
use crate::types::{Actor, Color, Figure, GameKind, PieceKind};

/// Checks that `event` is a form that `game` admits, for the actor it names,
/// in a log written from `view`'s point of view (`None`: the full log).
/// The error completes the sentence "this event is not valid FGN: ...".
pub fn check_form(game: GameKind, view: Option<Color>, event: &Event) -> Result<(), String> {
    let action = &event.action;
    let world_action = matches!(
        action,
        Action::Timeout { .. }
            | Action::Result { .. }
            | Action::Seed { .. }
            | Action::Spawn { .. }
            | Action::Damage { .. }
            | Action::Clone { .. }
            | Action::Reveal { .. }
            | Action::See { .. }
            | Action::Coins { .. }
            | Action::Held { .. }
            | Action::Setup { .. }
    );
    let keyword = keyword(action);
    match (event.actor, world_action) {
        (Actor::World, false) => return Err(format!("`{keyword}` is a player's action, not the world's (`@`)")),
        (Actor::Player(_), true) => {
            return Err(format!(
                "`{keyword}` is the world's action: write it with the actor `@`"
            ))
        }
        _ => {}
    }
    let admitted = match action {
        Action::Resign
        | Action::Chat { .. }
        | Action::Extra { .. }
        | Action::Timeout { .. }
        | Action::Result { .. } => true,
        Action::Place { .. } | Action::Remove { .. } | Action::Ready => game.has_setup(),
        Action::End => matches!(game, GameKind::OpenWorldChess | GameKind::GreatWarChess),
        Action::Seed { .. } | Action::Salt { .. } => game.has_seed(),
        Action::Move(_) => game.is_chess(),
        Action::Buy { .. } | Action::Spawn { .. } | Action::Damage { .. } | Action::Clone { .. } => {
            game == GameKind::OpenWorldChess
        }
        Action::March(_) | Action::Shot { .. } => game == GameKind::GreatWarChess,
        Action::Draughts { .. } | Action::Reveal { .. } | Action::Spell(_) => game == GameKind::MagicDraughts,
        Action::Hidden | Action::See { .. } | Action::Coins { .. } | Action::Held { .. } => {
            game == GameKind::OpenWorldChess
        }
        Action::Setup { .. } => game.has_setup(),
    };
    if !admitted {
        return Err(format!("`{keyword}` is not an action of {game}"));
    }
    let view_only = match action {
        Action::Hidden | Action::See { .. } | Action::Coins { .. } | Action::Held { .. } | Action::Setup { .. } => true,
        Action::Move(m) => m.from.is_none() || m.to.is_none(),
        Action::Buy { hidden, .. } => *hidden,
        _ => false,
    };
    if view_only && view.is_none() {
        let what = match action {
            Action::Move(_) => "a move with a hidden square (`?`)",
            Action::Buy { .. } => "a purchase with a hidden target (`?`)",
            Action::Hidden => "`?` (an unseen turn)",
            Action::See { .. } => "`see`",
            Action::Coins { .. } => "`coins`",
            Action::Held { .. } => "`held`",
            _ => "`setup`",
        };
        return Err(format!(
            "{what} appears only in a player's view (a log with [Perspective \"white\"] or \"black\" after [Rules])"
        ));
    }
    if matches!(action, Action::Seed { .. }) && view.is_some() {
        return Err("a player's view never shows the seed".into());
    }
    check_shape(game, action)
}

/// Checks what a single action's fields must satisfy whatever the game.
fn check_shape(game: GameKind, action: &Action) -> Result<(), String> {
    match action {
        Action::Place { placements } | Action::Setup { placements, .. } => {
            if placements.is_empty() {
                return Err("a setup list names at least one piece or unit".into());
            }
            for p in placements {
                match (p.figure, game) {
                    (Figure::Piece(_), GameKind::SurvivalChess | GameKind::OpenWorldChess) => {}
                    (Figure::Unit(_), GameKind::GreatWarChess) => {}
                    (Figure::Piece(k), _) => {
                        return Err(format!(
                            "`{}` is a chess piece; {game} places units I, C, A, F",
                            k.char()
                        ))
                    }
                    (Figure::Unit(k), _) => {
                        return Err(format!(
                            "`{}` is a great-war-chess unit; {game} places pieces K, Q, R, B, N, P",
                            k.char()
                        ))
                    }
                }
            }
            Ok(())
        }
        Action::Remove { unit, .. } => match (unit, game) {
            (Some(_), GameKind::GreatWarChess) | (None, GameKind::SurvivalChess) => Ok(()),
            (None, _) => Err("great-war-chess names the unit taken back: `remove Cb2`".into()),
            (Some(_), _) => Err(format!("{game} takes back a piece by its square alone: `remove e2`")),
        },
        Action::Move(m) => {
            if let Some(p) = m.promotion {
                if !p.is_promotion_target() {
                    return Err("a pawn promotes to Q, R, B or N".into());
                }
                if m.piece != PieceKind::Pawn {
                    return Err("only a pawn move can carry a promotion".into());
                }
            }
            if m.check.is_some() && game != GameKind::SurvivalChess {
                return Err(format!(
                    "check markers `+` and `#` belong to survival-chess, not {game}"
                ));
            }
            if (m.from.is_none() || m.to.is_none()) && game != GameKind::OpenWorldChess {
                return Err(format!(
                    "only open-world-chess has fog, so {game} moves name both squares"
                ));
            }
            if m.to.is_none() && m.capture {
                return Err("a move into the fog is written `-?`, whatever was there".into());
            }
            if m.from.is_none() && m.to.is_none() {
                return Err("a move with both squares hidden is written `?`".into());
            }
            Ok(())
        }
        Action::Buy { item, square, hidden } => match (item.has_target(), square.is_some() || *hidden) {
            (true, false) => Err(format!("`buy {}` names a target square", item.name())),
            (false, true) => Err("`buy curse` has no target".into()),
            _ if square.is_some() && *hidden => Err("a purchase's target is a square or `?`, not both".into()),
            _ => Ok(()),
        },
        Action::Damage { amount, .. } if *amount == 0 => Err("a damage roll is at least 1".into()),
        Action::See { piece: Some(p), .. } if p.hp == 0 => Err("a seen piece has at least 1 HP".into()),
        Action::See { piece: Some(p), .. } if p.max == Some(0) => {
            Err("a seen piece's maximum is at least 1 HP".into())
        }
        Action::See {
            hidden: true,
            piece,
            object,
            ..
        } if piece.is_some() || object.is_some() => {
            Err("`see SQUARE ?` says only that the square is out of sight: no piece or object".into())
        }
        Action::Draughts { path, capture } if !capture && path.squares().len() != 2 => {
            Err("a draughts move without capture has exactly two squares (`c3-d4`); a capture separates its squares with `:` (`d4:b6:d8`)".into())
        }
        _ => Ok(()),
    }
}

/// The word that names an action in messages.
pub fn keyword(action: &Action) -> &'static str {
    match action {
        Action::Place { .. } => "place",
        Action::Remove { .. } => "remove",
        Action::Ready => "ready",
        Action::End => "end",
        Action::Resign => "resign",
        Action::Chat { .. } => "chat",
        Action::Extra { .. } => "extra",
        Action::Timeout { .. } => "timeout",
        Action::Result { .. } => "result",
        Action::Seed { .. } => "seed",
        Action::Salt { .. } => "salt",
        Action::Move(_) => "chess move",
        Action::Buy { .. } => "buy",
        Action::Spawn { .. } => "spawn",
        Action::Damage { .. } => "damage",
        Action::Clone { .. } => "clone",
        Action::March(_) => "unit move",
        Action::Shot { .. } => "shot",
        Action::Draughts { .. } => "draughts move",
        Action::Reveal { .. } => "reveal",
        Action::Spell(_) => "spell",
        Action::Hidden => "?",
        Action::See { .. } => "see",
        Action::Coins { .. } => "coins",
        Action::Held { .. } => "held",
        Action::Setup { .. } => "setup",
    }
}
