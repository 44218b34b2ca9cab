//! The four games, a folder each, and the registry that lists them.
//!
//! Everything that belongs to one game lives in its folder, laid out
//! alike: `mod.rs` (the game's type and its [`Game`](crate::game::Game)
//! contract), `state.rs` (the public values of its state and knowledge,
//! and its legal actions), `view.rs` (a player's view of it), and the
//! modules of its own rules. What the rest of the crate sees of a game
//! goes through the trait and the registry below.
//!
//! The registry is one list, `with_games!`: each line names the variant
//! every per-game enum gives the game and the game's type. The per-game
//! enums ([`crate::Replay`], [`crate::Position`], [`crate::KnownPosition`],
//! the view's replay) are declared from it by `game_enum!`, and matched
//! by `each_game!`, `map_game!` and `pair_game!` (or, from a
//! [`fgn_notation::GameKind`] alone, `for_kind!`), so a fifth game is its
//! folder, its `GameKind` variant in the notation, and one line here.

pub mod great_war_chess;
pub mod magic_draughts;
pub mod open_world_chess;
pub mod survival_chess;

/// Calls `$callback!` with `$d` (a `$` token, for the macros it defines)
/// and the registry: each game's variant name, type, `GameKind` variant
/// and name, in the order the per-game enums list them.
macro_rules! with_games {
    ($callback:ident, $d:tt) => {
        $callback! { $d
            Survival = $crate::games::survival_chess::Survival, SurvivalChess, "survival-chess";
            Draughts = $crate::games::magic_draughts::MagicDraughts, MagicDraughts, "magic-draughts";
            OpenWorld = $crate::games::open_world_chess::OpenWorld, OpenWorldChess, "open-world-chess";
            GreatWar = $crate::games::great_war_chess::GreatWar, GreatWarChess, "great-war-chess";
        }
    };
}

/// Defines the registry's macros over the list [`with_games!`] gives.
macro_rules! registry {
    ($d:tt $($variant:ident = $game:ty, $kind:ident, $name:literal;)*) => {
        /// Declares an enum with a variant per game, named as the registry
        /// names it and holding `$wrapper<TheGame>`:
        /// `game_enum!(#[derive(Debug)] pub enum Replay(Session));`
        macro_rules! game_enum {
            ($d(#[$d attr:meta])* $d vis:vis enum $d name:ident($d wrapper:ident)) => {
                $d(#[$d attr])*
                $d vis enum $d name {
                    $(
                        #[doc = $name]
                        $variant($d wrapper<$game>),
                    )*
                }
            };
        }

        /// Runs `$body` with `$x` bound to the value `$value` of the
        /// per-game enum `$enum` holds, whichever game it is: each game's
        /// arm is compiled for that game's own type. With `$g` before `$x`,
        /// `$g` also names that game's type.
        macro_rules! each_game {
            ($d enum:ident, $d value:expr, $d x:ident => $d body:expr) => {
                match $d value {
                    $( $d enum::$variant($d x) => $d body, )*
                }
            };
            ($d enum:ident, $d value:expr, $d g:ident, $d x:ident => $d body:expr) => {
                match $d value {
                    $( $d enum::$variant($d x) => {
                        #[allow(dead_code)]
                        type $d g = $game;
                        $d body
                    } )*
                }
            };
        }

        /// Runs `$body` with `$g` naming the game's type and `$a`, `$b`
        /// bound to what the values `$first` and `$second` of the per-game
        /// enum `$enum` hold, when both are of one game; `$other` when
        /// they are of two.
        macro_rules! pair_game {
            ($d enum:ident, $d first:expr, $d second:expr, $d g:ident, $d a:ident, $d b:ident => $d body:expr, _ => $d other:expr) => {
                match ($d first, $d second) {
                    $( ($d enum::$variant($d a), $d enum::$variant($d b)) => {
                        type $d g = $game;
                        $d body
                    } )*
                    #[allow(unreachable_patterns)]
                    _ => $d other,
                }
            };
        }

        /// Maps the value `$value` of the per-game enum `$from` to the
        /// same game's variant of `$to`, holding `$body` (with `$x` bound
        /// to what `$value` holds, and with `$g` before `$x`, `$g` naming
        /// that game's type).
        macro_rules! map_game {
            ($d from:ident, $d value:expr, $d to:ident, $d x:ident => $d body:expr) => {
                match $d value {
                    $( $d from::$variant($d x) => $d to::$variant($d body), )*
                }
            };
            ($d from:ident, $d value:expr, $d to:ident, $d g:ident, $d x:ident => $d body:expr) => {
                match $d value {
                    $( $d from::$variant($d x) => {
                        #[allow(dead_code)]
                        type $d g = $game;
                        $d to::$variant($d body)
                    } )*
                }
            };
        }

        /// Runs `$body` with `$g` naming the type of the game `$kind` (a
        /// [`fgn_notation::GameKind`]) is.
        /// With `$wrap in $enum`, `$wrap` is also the constructor of
        /// that game's variant of the per-game enum `$enum`.
        macro_rules! for_kind {
            ($d kind:expr, $d g:ident => $d body:expr) => {
                match $d kind {
                    $(
                        fgn_notation::GameKind::$kind => {
                            type $d g = $game;
                            $d body
                        }
                    )*
                }
            };
            ($d kind:expr, $d g:ident, $d wrap:ident in $d enum:ident => $d body:expr) => {
                match $d kind {
                    $(
                        fgn_notation::GameKind::$kind => {
                            type $d g = $game;
                            let $d wrap = $d enum::$variant;
                            $d body
                        }
                    )*
                }
            };
        }

        pub(crate) use {each_game, for_kind, game_enum, map_game, pair_game};
    };
}

with_games!(registry, $);
