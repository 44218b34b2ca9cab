//! The secret setup both survival-chess and great-war-chess open with
//! (RULES.md sections 1 and 3): each side places on its own half at move
//! number 0, edits freely until `ready`, and play starts when both are;
//! a player's view hides the opponent's edits and shows its setup once
//! both are ready.

use fgn_notation::{Action, Actor, BoardSize, ByColor, Color, Event, MoveNumber, Placement, Square};

use crate::core::error::{Fault, Rule};
use crate::core::picture::{Picture, Shade};
use crate::core::progress::Turn;
use crate::core::viewer::Viewer;

/// Whether `sq` lies on `color`'s half of a board of `size`: the lower half
/// for white, the upper for black.
pub(crate) fn in_own_half(size: BoardSize, color: Color, sq: Square) -> bool {
    let half = size.ranks / 2;
    match color {
        Color::White => sq.rank_index() < half,
        Color::Black => sq.rank_index() >= half,
    }
}

/// The fault of `side` placing on `sq`, which is not on its own half.
pub(crate) fn not_own_half(size: BoardSize, side: Color, sq: Square) -> Fault {
    let half = size.ranks / 2;
    let (lo, hi) = match side {
        Color::White => (1, half),
        Color::Black => (half + 1, size.ranks),
    };
    Fault::new(
        Rule::Setup,
        format!("{} sets up on its own half, ranks {lo}..{hi}; {sq} is not", side.name()),
    )
}

/// Every square of `side`'s half, in square order (rank first).
pub(crate) fn own_half(size: BoardSize, side: Color) -> impl Iterator<Item = Square> {
    (0..size.ranks)
        .flat_map(move |r| (0..size.files).filter_map(move |f| Square::new(f, r)))
        .filter(move |&sq| in_own_half(size, side, sq))
}

/// Draws in a viewer's `picture` of a board of `size` the setups it
/// cannot see yet (`sides`, white first): their halves, where the hidden
/// pieces may stand, are shaded [`Shade::Unknown`] rather than drawn as
/// empty, and a note names them.
pub(crate) fn hide_setups(picture: &mut Picture, size: BoardSize, sides: &[Color]) {
    for &side in sides {
        for square in own_half(size, side) {
            if let Some(cell) = picture.cell_mut(square) {
                cell.shade = Shade::Unknown;
            }
        }
    }
    picture.note_hidden_setups(sides);
}

/// Checks that `side`'s `action` is one of the setup's and may come now:
/// a placement, removal or `ready`, with move number 0, from a side that
/// is not ready yet.
pub(crate) fn check_setup_action(
    ready: ByColor<bool>,
    side: Color,
    n: MoveNumber,
    action: &Action,
) -> Result<(), Fault> {
    let is_setup = matches!(action, Action::Place { .. } | Action::Remove { .. } | Action::Ready);
    if !is_setup {
        return Err(Fault::new(
            Rule::Setup,
            format!(
                "setup is not over: {} and {} must both be ready before play",
                Color::White.name(),
                Color::Black.name()
            ),
        ));
    }
    if n != MoveNumber(0) {
        return Err(Fault::new(
            Rule::MoveNumber,
            format!("setup actions carry move number 0, not {n}"),
        ));
    }
    if ready[side] {
        return Err(Fault::new(
            Rule::Setup,
            format!("{} is ready and may not change its setup", side.name()),
        ));
    }
    Ok(())
}

/// The sides whose setup `viewer` does not see at `turn`: during setup,
/// every side but the viewer's own; none once both are ready. Both may be
/// ready while the turn is still the setup's: a setup timeout readies the
/// late side as it stands and, when that side cannot start, aborts the
/// game before play begins; RULES.md reveals both setups once both are
/// ready, and the players' views do (docs/rules.md, "Setup timeout").
pub(crate) fn hidden_setups(turn: Turn, viewer: Viewer) -> Vec<Color> {
    match turn {
        Turn::Setup { ready } if ready.white && ready.black => Vec::new(),
        Turn::Setup { .. } => [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| !viewer.is(c))
            .collect(),
        Turn::Move { .. } => Vec::new(),
    }
}

/// Whether both sides have finished their setup at `turn`.
fn both_ready(turn: Turn) -> bool {
    match turn {
        Turn::Setup { ready } => ready.white && ready.black,
        Turn::Move { .. } => true,
    }
}

/// What a view of a game with a secret setup notes before an event: whether
/// both setups were over, and the event's action as canonical FGN writes it
/// where that is not the log's spelling.
#[derive(Debug)]
pub struct ViewNote {
    was_ready: bool,
    canonical: Option<Action>,
}

impl ViewNote {
    /// The note before an event at `turn`, whose action canonical FGN
    /// writes as `canonical` (if it writes it otherwise than the log).
    pub(crate) fn new(turn: Turn, canonical: Option<Action>) -> ViewNote {
        ViewNote {
            was_ready: both_ready(turn),
            canonical,
        }
    }
}

/// The view of a game with a secret setup and no fog after it
/// (survival-chess, great-war-chess), for `side`, of `event` just applied,
/// which left the game at `turn`: the opponent's placements and removals
/// are hidden; its `ready` is turn structure and shown. When both sides are
/// ready the world shows the opponent's final setup in square order
/// (`setup_of`), so that nothing of the order of its hidden edits shows.
/// Everything after setup is public.
pub(crate) fn view_after(
    side: Color,
    event: &Event,
    note: ViewNote,
    turn: Turn,
    setup_of: impl FnOnce(Color) -> Vec<Placement>,
    out: &mut Vec<Event>,
) {
    let hidden = matches!(
        (&event.action, event.actor),
        (Action::Place { .. } | Action::Remove { .. }, Actor::Player(p)) if p != side
    );
    if !hidden {
        let mut shown = event.clone();
        if let Some(action) = note.canonical {
            shown.action = action;
        }
        out.push(shown);
    }
    if !note.was_ready && both_ready(turn) {
        let opponent = side.opponent();
        let placements = setup_of(opponent);
        // A side readied by its clock with nothing placed has no setup to show.
        if !placements.is_empty() {
            out.push(Event {
                n: event.n,
                actor: Actor::World,
                action: Action::Setup {
                    color: opponent,
                    placements,
                },
                clock_ms: None,
            });
        }
    }
}
