//! One test or more per rule of RULES.md section 3 and per settled detail,
//! on hand-made positions: the legal case passes, and the illegal or
//! failing case does what the rules say.

use fgn_notation::{Action, ByColor, Color, MoveNumber, Outcome, Reason, Square};

use super::engine::{letters, Cell, GreatWar, A, C, I};
use crate::core::error::Rule;
use crate::core::progress::{Decision, Turn};
use crate::game::Game;
use crate::ruleset::GreatWarRules;

const W: Color = Color::White;
const B: Color = Color::Black;

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

/// The action of one event line, read by the notation's own parser.
fn act(text: &str) -> Action {
    let log = format!("[Game \"great-war-chess\"]\n[Rules \"1.0\"]\n\n1 w {text}\n");
    let parsed = fgn_notation::parse(log.as_bytes());
    assert!(parsed.is_ok(), "{text}: {:?}", parsed.diagnostics);
    parsed.document.game.events[0].action.clone()
}

/// A game in play, white to move in turn 1, with `stacks` of the form
/// (square, side, letters of `I C A F`).
fn position(stacks: &[(&str, Color, &str)]) -> GreatWar {
    let rules = GreatWarRules {
        fortifications: 2,
        ..GreatWarRules::default()
    };
    let mut g = GreatWar::new(rules);
    for &(square, side, units) in stacks {
        let mut cell = Cell {
            side: Some(side),
            ..Cell::default()
        };
        for c in units.chars() {
            match c {
                'I' => cell.units |= I,
                'C' => cell.units |= C,
                'A' => cell.units |= A,
                _ => cell.fort = true,
            }
        }
        g.set(sq(square), cell);
    }
    g.turn = Turn::Move {
        side: W,
        number: MoveNumber(1),
    };
    g
}

/// Plays `text` for the side to move.
fn play(g: &mut GreatWar, text: &str) -> Result<Option<Decision>, crate::core::error::Fault> {
    let Turn::Move { side, number } = g.turn else {
        panic!("the game is in play")
    };
    g.player(side, number, &act(text))
}

fn ok(g: &mut GreatWar, text: &str) -> Option<Decision> {
    play(g, text).unwrap_or_else(|f| panic!("{text}: {} [{}]", f.message, f.rule))
}

fn refused(g: &mut GreatWar, text: &str, rule: Rule) -> String {
    let before = format!("{:?}", g.cells);
    let fault = play(g, text).expect_err(text);
    assert_eq!(fault.rule, rule, "{text}: {}", fault.message);
    assert_eq!(format!("{:?}", g.cells), before, "a refused action changes nothing");
    fault.message
}

/// The letters on `square` and whose they are.
fn at(g: &GreatWar, square: &str) -> (Option<Color>, String) {
    let cell = g.at(sq(square));
    let mut letters = letters(cell.units);
    if cell.fort {
        letters.push('F');
    }
    (cell.side, letters)
}

fn side_to_move(g: &GreatWar) -> Color {
    match g.turn {
        Turn::Move { side, .. } => side,
        Turn::Setup { .. } => panic!("in setup"),
    }
}

// Setup.

fn setup_game(fortifications: u8) -> GreatWar {
    GreatWar::new(GreatWarRules {
        fortifications,
        ..GreatWarRules::default()
    })
}

fn setup(g: &mut GreatWar, side: Color, text: &str) -> Result<Option<Decision>, crate::core::error::Fault> {
    g.player(side, MoveNumber(0), &act(text))
}

const WHITE_ARMY: &str = "place Ia2 Ib2 Cb2 Ic2 Ad1 Id1 Ie2 If2 Af2 Ig2 Cg2 Ih2";
const BLACK_ARMY: &str = "place Ia7 Ib7 Cb7 Ic7 Ad8 Id8 Ie7 If7 Af7 Ig7 Cg7 Ih7";

#[test]
fn units_are_placed_on_the_own_half_only() {
    let mut g = setup_game(0);
    assert!(setup(&mut g, W, "place Ia4").is_ok());
    let f = setup(&mut g, W, "place Ia5").unwrap_err();
    assert_eq!(f.rule, Rule::Setup, "{}", f.message);
    assert!(f.message.contains("ranks 1..4"), "{}", f.message);
    assert!(setup(&mut g, B, "place Ia5").is_ok());
}

#[test]
fn a_square_holds_one_unit_of_each_kind_of_a_side_in_setup() {
    let mut g = setup_game(0);
    assert!(setup(&mut g, W, "place Ib2 Cb2 Ab2").is_ok());
    assert_eq!(setup(&mut g, W, "place Ib2").unwrap_err().rule, Rule::Stacking);
    // Placements of one event are all or nothing.
    assert_eq!(setup(&mut g, W, "place Ic2 Ic2").unwrap_err().rule, Rule::Stacking);
    assert_eq!(at(&g, "c2"), (None, String::new()));
}

#[test]
fn ready_needs_every_unit_placed_and_setups_stay_hidden_until_both_are_ready() {
    let mut g = setup_game(0);
    setup(&mut g, W, "place Ia2 Ib2 Cb2").unwrap();
    let f = setup(&mut g, W, "ready").unwrap_err();
    assert_eq!(f.rule, Rule::Setup);
    assert!(f.message.contains("6 `I`"), "{}", f.message);
    setup(&mut g, W, "remove Cb2").unwrap();
    assert_eq!(setup(&mut g, W, "remove Cb2").unwrap_err().rule, Rule::Setup);
    setup(&mut g, W, "remove Ia2").unwrap();
    setup(&mut g, W, "remove Ib2").unwrap();
    setup(&mut g, W, WHITE_ARMY).unwrap();
    setup(&mut g, B, BLACK_ARMY).unwrap();
    use crate::core::viewer::Viewer;
    use crate::game::Game;
    assert!(g.knowledge(Viewer::White).position.stacks.iter().all(|s| s.color == W));
    assert_eq!(g.knowledge(Viewer::Everyone).position.stacks, Vec::new());
    setup(&mut g, W, "ready").unwrap();
    assert_eq!(setup(&mut g, W, "place Ia3").unwrap_err().rule, Rule::Setup);
    setup(&mut g, B, "ready").unwrap();
    assert_eq!(
        g.turn,
        Turn::Move {
            side: W,
            number: MoveNumber(1)
        }
    );
    assert_eq!(g.knowledge(Viewer::White).position, g.state(), "no fog after setup");
}

#[test]
fn fortifications_exist_only_with_the_parameter_and_hold_one_infantry() {
    let mut g = setup_game(0);
    assert_eq!(setup(&mut g, W, "place Fe3").unwrap_err().rule, Rule::SetupLimit);
    let mut g = setup_game(2);
    setup(&mut g, W, "place Fe3 Ie3").unwrap();
    assert_eq!(setup(&mut g, W, "place Ce3").unwrap_err().rule, Rule::Fortification);
    assert_eq!(setup(&mut g, W, "place Ae3").unwrap_err().rule, Rule::Fortification);
    assert_eq!(setup(&mut g, W, "place Ie3").unwrap_err().rule, Rule::Stacking);
    // A fortification goes on an empty square.
    setup(&mut g, W, "place Ia1").unwrap();
    assert_eq!(setup(&mut g, W, "place Fa1").unwrap_err().rule, Rule::Setup);
    setup(&mut g, W, "remove Ia1").unwrap();
    setup(&mut g, W, "remove Ie3").unwrap();
    setup(&mut g, W, WHITE_ARMY).unwrap();
    // Without its second fortification white is not ready.
    let f = setup(&mut g, W, "ready").unwrap_err();
    assert!(f.message.contains("1 `F`"), "{}", f.message);
    setup(&mut g, W, "place Fc3").unwrap();
    assert!(setup(&mut g, W, "ready").is_ok());
}

#[test]
fn a_setup_timeout_readies_the_late_side_with_what_it_has_placed() {
    let mut g = setup_game(0);
    setup(&mut g, W, WHITE_ARMY).unwrap();
    setup(&mut g, W, "ready").unwrap();
    setup(&mut g, B, "place Ia7 Cb8").unwrap();
    assert_eq!(g.setup_timeout(B).unwrap(), None);
    assert_eq!(
        g.turn,
        Turn::Move {
            side: W,
            number: MoveNumber(1)
        }
    );
    assert_eq!(g.counts(B), [1, 1, 0, 0], "units not placed are out of the game");

    let mut g = setup_game(0);
    setup(&mut g, B, "place Cb8").unwrap();
    let d = g.setup_timeout(B).unwrap();
    assert_eq!(
        d,
        Some(Decision {
            outcome: Outcome::Abort,
            reason: Reason::NoInfantry
        })
    );
}

// Movements.

#[test]
fn infantry_alone_steps_to_an_adjacent_square() {
    let mut g = position(&[("b2", W, "I"), ("h8", B, "I")]);
    refused(&mut g, "Ib2-b4", Rule::Move);
    ok(&mut g, "Ib2-c3");
    assert_eq!(at(&g, "c3"), (Some(W), "I".into()));
}

#[test]
fn a_rider_slides_through_empty_squares_only() {
    let mut g = position(&[("b2", W, "IC"), ("b6", W, "I"), ("h8", B, "I")]);
    let m = refused(&mut g, "ICb2-b7", Rule::Move);
    assert!(m.contains("b6 is in the way"), "{m}");
    assert!(m.contains("ICb2-b5"), "the message lists the legal movements: {m}");
    refused(&mut g, "ICb2-c4", Rule::Move);
    ok(&mut g, "ICb2-f6");
    assert_eq!(at(&g, "f6"), (Some(W), "IC".into()));
    assert_eq!(at(&g, "b2"), (None, String::new()));
}

#[test]
fn the_triple_stack_steps_to_an_adjacent_empty_square_and_never_attacks() {
    let mut g = position(&[("b2", W, "ICA"), ("c3", B, "I"), ("h8", B, "I")]);
    refused(&mut g, "ICAb2-b4", Rule::Move);
    // Onto an enemy unit the triple stack's move is illegal, not a failed attack.
    refused(&mut g, "ICAb2xc3", Rule::Move);
    assert_eq!(g.charges.white, 40);
    ok(&mut g, "ICAb2-b3");
    assert_eq!(at(&g, "b3"), (Some(W), "ICA".into()));
}

#[test]
fn cavalry_and_artillery_move_only_in_the_three_listed_ways() {
    let mut g = position(&[("b2", W, "ICA"), ("d2", W, "C"), ("h8", B, "I")]);
    refused(&mut g, "IAb2-b3", Rule::Move);
    refused(&mut g, "Cd2-d3", Rule::Move);
    refused(&mut g, "Ab2-b3", Rule::Move);
    refused(&mut g, "CAb2-b3", Rule::Move);
    // A rider may ride out and leave its artillery behind.
    ok(&mut g, "ICb2-b5");
    assert_eq!(at(&g, "b2"), (Some(W), "A".into()));
}

#[test]
fn infantry_becomes_a_rider_from_its_next_turn_and_may_dismount() {
    let mut g = position(&[("b2", W, "I"), ("b3", W, "C"), ("h8", B, "I"), ("h1", W, "I")]);
    ok(&mut g, "Ib2-b3");
    // The movement is used: the fresh rider cannot ride this turn.
    refused(&mut g, "ICb3-b6", Rule::Move);
    ok(&mut g, "end");
    ok(&mut g, "Ih8-h7");
    ok(&mut g, "end");
    ok(&mut g, "ICb3-b6");
    ok(&mut g, "end");
    ok(&mut g, "Ih7-h8");
    ok(&mut g, "end");
    ok(&mut g, "Ib6-b7");
    assert_eq!(at(&g, "b6"), (Some(W), "C".into()));
}

#[test]
fn entering_an_own_square_keeps_the_stacking_limit() {
    let mut g = position(&[("b2", W, "I"), ("b3", W, "IA"), ("c2", W, "IC"), ("h8", B, "I")]);
    let m = refused(&mut g, "Ib2-b3", Rule::Stacking);
    assert!(m.contains("b3"), "{m}");
    refused(&mut g, "ICc2-b3", Rule::Stacking);
    ok(&mut g, "Ib2-a3");
}

#[test]
fn a_turn_has_one_movement_and_one_shot_in_either_order() {
    let mut g = position(&[
        ("d1", W, "IA"),
        ("b2", W, "I"),
        ("d5", B, "I"),
        ("c4", W, "I"),
        ("h8", B, "I"),
    ]);
    ok(&mut g, "Ib2-b3");
    refused(&mut g, "Ic4-c5", Rule::Move);
    assert_eq!(side_to_move(&g), W);
    ok(&mut g, "Ad1*d5");
    // Both are used: the turn passed by itself.
    assert_eq!(side_to_move(&g), B);
    ok(&mut g, "Ih8-h7");
    ok(&mut g, "end");
    ok(&mut g, "Ib3-b4");
    refused(&mut g, "Ib4-b5", Rule::Move);
    ok(&mut g, "end");
    assert_eq!(side_to_move(&g), B);
}

#[test]
fn units_that_moved_do_not_shoot_and_a_fired_stack_does_not_move() {
    let mut g = position(&[
        ("d1", W, "ICA"),
        ("d2", W, "IA"),
        ("d6", B, "I"),
        ("c5", W, "I"),
        ("h8", B, "I"),
    ]);
    ok(&mut g, "ICd1-e1");
    // The artillery stayed on d1 without infantry, and e1 has none: no shot from either.
    refused(&mut g, "Ad1*d6", Rule::Shot);
    // d2 did not move: it fires.
    ok(&mut g, "Ad2*d6");
    let mut g = position(&[("d2", W, "ICA"), ("d6", B, "I"), ("c5", W, "I"), ("h8", B, "I")]);
    ok(&mut g, "Ad2*d6");
    // After a shot no unit on the firing square moves, cavalry included.
    refused(&mut g, "ICd2-e3", Rule::Move);
    refused(&mut g, "Id2-e3", Rule::Move);
    ok(&mut g, "Ic5-c6");
}

/// Regression: a shot from the square where infantry had just captured an
/// artillery piece was refused with "the IA on d5 moved this turn", as if
/// the captured gun had moved; the refusal now names the mover and the
/// captured unit apart.
#[test]
fn a_captured_gun_does_not_fire_in_the_turn_of_its_capture_and_the_refusal_says_so() {
    let mut g = position(&[
        ("d4", W, "I"),
        ("d5", B, "A"),
        ("d6", B, "I"),
        ("e6", W, "I"),
        ("h8", B, "I"),
    ]);
    ok(&mut g, "Id4xd5");
    assert_eq!(at(&g, "d5"), (Some(W), "IA".into()));
    let m = refused(&mut g, "Ad5*d6", Rule::Shot);
    assert!(
        m.contains(
            "the I on d5 moved this turn and the A there was captured this turn (it acts from white's next turn)"
        ),
        "{m}"
    );
    // A plain mover's refusal is worded as before.
    let mut g = position(&[("d4", W, "ICA"), ("d6", B, "I"), ("e6", W, "I"), ("h8", B, "I")]);
    ok(&mut g, "ICAd4-d5");
    let m = refused(&mut g, "Ad5*d6", Rule::Shot);
    assert!(
        m.contains("the IA on d5 moved this turn, so it takes no part in a shot"),
        "{m}"
    );
}

// Shots.

#[test]
fn a_shot_flies_along_a_clear_line_at_enemy_units() {
    let mut g = position(&[
        ("a1", W, "IA"),
        ("b2", W, "I"),
        ("e5", B, "I"),
        ("a6", B, "I"),
        ("b7", W, "I"),
    ]);
    let m = refused(&mut g, "Aa1*e5", Rule::Shot);
    assert!(m.contains("b2 is in the way"), "{m}");
    refused(&mut g, "Aa1*a4", Rule::Shot);
    refused(&mut g, "Aa1*b3", Rule::Shot);
    refused(&mut g, "Ab2*e5", Rule::Shot);
    // b7 supports the shot at a6.
    ok(&mut g, "Aa1*a6");
    assert_eq!(at(&g, "a6"), (None, String::new()));
    assert_eq!(g.charges, ByColor { white: 43, black: 32 });
}

#[test]
fn a_shot_without_support_harms_nothing_and_costs_the_charge() {
    // The firing stack's infantry supports only from a square next to the target.
    let mut g = position(&[("a1", W, "IA"), ("a6", B, "IC"), ("h8", B, "I")]);
    ok(&mut g, "Aa1*a6");
    assert_eq!(at(&g, "a6"), (Some(B), "IC".into()));
    assert_eq!(g.charges, ByColor { white: 39, black: 40 });
    let mut g = position(&[("a5", W, "IA"), ("a6", B, "IC"), ("h8", B, "I")]);
    ok(&mut g, "Aa5*a6");
    assert_eq!(at(&g, "a6"), (None, String::new()), "a shell destroys every unit there");
    assert_eq!(g.charges, ByColor { white: 47, black: 24 });
    assert_eq!(at(&g, "a5"), (Some(W), "IA".into()), "the artillery is never used up");
}

// Attacks and support.

#[test]
fn an_unsupported_infantry_attack_fails_uses_the_movement_and_the_attacker_stays() {
    let mut g = position(&[("b2", W, "IA"), ("b3", B, "I"), ("h8", B, "I")]);
    // The mover never supports its own attack.
    assert_eq!(ok(&mut g, "Ib2xb3"), None);
    assert_eq!(at(&g, "b2"), (Some(W), "IA".into()));
    assert_eq!(at(&g, "b3"), (Some(B), "I".into()));
    assert_eq!(g.charges.white, 39);
    refused(&mut g, "Ib2-c3", Rule::Move);
    // The failed attacker counts as having moved, so it takes no part in a shot.
    refused(&mut g, "Ab2*b3", Rule::Shot);
}

#[test]
fn a_supported_infantry_attack_destroys_the_infantry_and_captures_the_rest() {
    // c2's infantry supports the attack on b3, although it fires this
    // turn (at c6, supported by d7).
    let mut g = position(&[
        ("b2", W, "I"),
        ("c2", W, "IA"),
        ("c6", B, "I"),
        ("d7", W, "I"),
        ("b3", B, "ICA"),
        ("h8", B, "I"),
    ]);
    ok(&mut g, "Ac2*c6");
    ok(&mut g, "Ib2xb3");
    assert_eq!(at(&g, "b3"), (Some(W), "ICA".into()));
    assert_eq!(at(&g, "b2"), (None, String::new()));
    // Two destroyed infantry: 40 - 1 + 4 - 1 + 4 for white, 40 - 8 - 8 for black.
    assert_eq!(g.charges, ByColor { white: 46, black: 24 });
}

#[test]
fn captured_units_act_from_the_capturers_next_turn() {
    let mut g = position(&[("b2", W, "I"), ("b3", B, "C"), ("h8", B, "I"), ("h1", W, "I")]);
    // Riderless cavalry is taken by walking in: not an attack, no charge.
    ok(&mut g, "Ib2xb3");
    assert_eq!(g.charges, ByColor { white: 40, black: 40 });
    assert_eq!(at(&g, "b3"), (Some(W), "IC".into()));
    ok(&mut g, "end");
    ok(&mut g, "Ih8-h7");
    ok(&mut g, "end");
    ok(&mut g, "ICb3-b6");
}

#[test]
fn a_rider_attack_destroys_every_unit_on_the_square() {
    let mut g = position(&[("b2", W, "IC"), ("b6", B, "CA"), ("c7", W, "I"), ("h8", B, "I")]);
    ok(&mut g, "ICb2xb6");
    assert_eq!(at(&g, "b6"), (Some(W), "IC".into()));
    assert_eq!(g.charges, ByColor { white: 47, black: 24 });
    // Unsupported, a rider's attack fails too, and the rider stays.
    let mut g = position(&[("b2", W, "IC"), ("b6", B, "C"), ("h8", B, "I")]);
    ok(&mut g, "ICb2xb6");
    assert_eq!(at(&g, "b2"), (Some(W), "IC".into()));
    assert_eq!(at(&g, "b6"), (Some(B), "C".into()));
    assert_eq!(g.charges.white, 39);
}

#[test]
fn the_marker_tells_whether_the_target_holds_enemy_units() {
    let mut g = position(&[("b2", W, "I"), ("b3", B, "I"), ("h8", B, "I")]);
    refused(&mut g, "Ib2-b3", Rule::Marker);
    refused(&mut g, "Ib2xc3", Rule::Marker);
    ok(&mut g, "Ib2-c3");
}

// Charges and losses.

#[test]
fn charges_never_go_below_zero_and_a_side_without_charges_loses() {
    let mut g = position(&[("a5", W, "IA"), ("a6", B, "I"), ("h8", B, "I")]);
    g.charges = ByColor { white: 40, black: 3 };
    let d = ok(&mut g, "Aa5*a6");
    assert_eq!(g.charges.black, 0);
    assert_eq!(d, Some(Decision::win(W, Reason::NoCharges)));
    // The attacker's last charge spent on a failed attack loses too.
    let mut g = position(&[("a1", W, "IA"), ("a6", B, "I"), ("h8", B, "I")]);
    g.charges.white = 1;
    assert_eq!(ok(&mut g, "Aa1*a6"), Some(Decision::win(B, Reason::NoCharges)));
}

#[test]
fn a_side_without_infantry_loses_and_no_charges_comes_first() {
    let mut g = position(&[("a5", W, "IA"), ("a6", B, "I"), ("h8", B, "A")]);
    assert_eq!(ok(&mut g, "Aa5*a6"), Some(Decision::win(W, Reason::NoInfantry)));
    let mut g = position(&[("a5", W, "IA"), ("a6", B, "I"), ("h8", B, "A")]);
    g.charges.black = 8;
    assert_eq!(ok(&mut g, "Aa5*a6"), Some(Decision::win(W, Reason::NoCharges)));
}

// Fortifications.

#[test]
fn only_infantry_enters_a_fortification_and_a_rider_attack_on_one_is_illegal() {
    let mut g = position(&[
        ("b2", W, "IC"),
        ("b5", B, "IF"),
        ("c3", W, "F"),
        ("d2", W, "I"),
        ("h8", B, "I"),
    ]);
    refused(&mut g, "ICb2xb5", Rule::Fortification);
    assert_eq!(g.charges.white, 40);
    refused(&mut g, "ICb2-c3", Rule::Fortification);
    ok(&mut g, "Id2-c3");
    assert_eq!(at(&g, "c3"), (Some(W), "IF".into()));
}

#[test]
fn fortifications_block_lines_and_shots_at_them_harm_nothing() {
    let mut g = position(&[
        ("a1", W, "IA"),
        ("a3", W, "F"),
        ("a6", B, "I"),
        ("c3", B, "IF"),
        ("b4", W, "I"),
        ("h8", B, "I"),
    ]);
    let m = refused(&mut g, "Aa1*a6", Rule::Shot);
    assert!(m.contains("a3 is in the way"), "{m}");
    ok(&mut g, "Aa1*c3");
    assert_eq!(at(&g, "c3"), (Some(B), "IF".into()));
    assert_eq!(g.charges, ByColor { white: 39, black: 40 });
    let mut g = position(&[("a1", W, "IC"), ("a3", W, "F"), ("h8", B, "I")]);
    refused(&mut g, "ICa1-a5", Rule::Move);
}

#[test]
fn an_own_fortification_supports_even_from_the_attackers_square() {
    let mut g = position(&[("d6", W, "IF"), ("c5", B, "I"), ("h8", B, "I")]);
    ok(&mut g, "Id6xc5");
    assert_eq!(at(&g, "c5"), (Some(W), "I".into()));
    assert_eq!(
        at(&g, "d6"),
        (Some(W), "F".into()),
        "the fortification stays, empty and white"
    );
    assert_eq!(g.charges, ByColor { white: 43, black: 32 });
}

#[test]
fn a_manned_enemy_fortification_falls_only_to_infantry_with_two_supporters() {
    // One supporting infantry and an own fortification are not enough.
    let mut g = position(&[
        ("d4", W, "I"),
        ("c4", W, "I"),
        ("e4", W, "F"),
        ("d5", B, "IF"),
        ("h8", B, "I"),
    ]);
    ok(&mut g, "Id4xd5");
    assert_eq!(at(&g, "d5"), (Some(B), "IF".into()));
    assert_eq!(g.charges.white, 39);
    let mut g = position(&[
        ("d4", W, "I"),
        ("c4", W, "I"),
        ("e4", W, "I"),
        ("d5", B, "IF"),
        ("h8", B, "I"),
    ]);
    ok(&mut g, "Id4xd5");
    assert_eq!(
        at(&g, "d5"),
        (Some(W), "IF".into()),
        "the defender dies, the fortification changes sides"
    );
    assert_eq!(g.charges, ByColor { white: 43, black: 32 });
}

#[test]
fn an_empty_enemy_fortification_is_taken_by_walking_in_with_x() {
    let mut g = position(&[("d4", W, "I"), ("d5", B, "F"), ("h8", B, "I")]);
    refused(&mut g, "Id4-d5", Rule::Marker);
    ok(&mut g, "Id4xd5");
    assert_eq!(at(&g, "d5"), (Some(W), "IF".into()));
    assert_eq!(g.charges, ByColor { white: 40, black: 40 });
    // A shot at an empty enemy fortification is allowed and costs the charge.
    let mut g = position(&[("d1", W, "IA"), ("d5", B, "F"), ("h8", B, "I")]);
    ok(&mut g, "Ad1*d5");
    assert_eq!(at(&g, "d5"), (Some(B), "F".into()));
    assert_eq!(g.charges.white, 39);
}

#[test]
fn actions_out_of_turn_or_with_a_wrong_number_are_refused() {
    let mut g = position(&[("b2", W, "I"), ("h8", B, "I")]);
    assert_eq!(g.player(B, MoveNumber(1), &act("Ih8-h7")).unwrap_err().rule, Rule::Turn);
    assert_eq!(
        g.player(W, MoveNumber(2), &act("Ib2-b3")).unwrap_err().rule,
        Rule::MoveNumber
    );
    assert_eq!(
        g.player(W, MoveNumber(1), &act("Iz9-b3")).unwrap_err().rule,
        Rule::Square
    );
}
