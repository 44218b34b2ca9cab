//! What the fuzz targets share: the games they start from and the driver
//! that plays arbitrary events into a replay, checking on every refusal that
//! nothing changed (see docs/testing.md for how to run them).

use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use fgn_notation::{parse, Event, Game};
use fgn_replay::{Replay, Viewer};

const VIEWERS: [Viewer; 3] = [Viewer::White, Viewer::Black, Viewer::Everyone];

/// Corpus logs of every game: their headers start the fuzzed games (board
/// sizes, time controls, seeds, magic on and off) and their events are
/// offered as plausible next events, world events included, which the
/// legal-action list never holds.
pub const SEEDS: &[&str] = &[
    include_str!("../../corpus/survival-chess/valid/01-bishop-queen-mate.fgn"),
    include_str!("../../corpus/survival-chess/valid/07-timeout-extra-yes.fgn"),
    include_str!("../../corpus/survival-chess/valid/15-mate-at-move-zero-6x6.fgn"),
    include_str!("../../corpus/magic-draughts/valid/01-plain-capture-all.fgn"),
    include_str!("../../corpus/magic-draughts/valid/10-three-spells-one-turn.fgn"),
    include_str!("../../corpus/magic-draughts/valid/14-timeout-extra-yes.fgn"),
    include_str!("../../corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn"),
    include_str!("../../corpus/open-world-chess/valid/owc-07-shop-every-item-curse.fgn"),
    include_str!("../../corpus/open-world-chess/valid/owc-14-timeouts-extra-yes-no.fgn"),
    include_str!("../../corpus/great-war-chess/valid/gwc-05-shot-and-capture.fgn"),
    include_str!("../../corpus/great-war-chess/valid/gwc-11-fortification-sortie.fgn"),
    include_str!("../../corpus/great-war-chess/valid/gwc-12-timeout-extra-yes.fgn"),
];

/// A game played by [`play`]: the events the replay accepted, and the replay.
#[derive(Debug)]
pub struct Played {
    /// The header and the accepted events: a log that validates so far.
    pub game: Game,
    /// The replay after the last accepted event.
    pub replay: Replay,
    /// The events the replay refused, each with the number of accepted
    /// events before it: inserted there, it makes a log that breaks a
    /// rule at a place the input chose, with valid events after it, as a
    /// faulty file holds them (the [`with_refused`] log).
    pub refused: Vec<(usize, Event)>,
}

/// The log of `played` with its `pick`-th refused event (modulo their
/// number) inserted where it was tried, or `None` when none was refused.
pub fn with_refused(played: &Played, pick: usize) -> Option<Game> {
    if played.refused.is_empty() {
        return None;
    }
    let (at, event) = &played.refused[pick % played.refused.len()];
    let mut events = played.game.events.clone();
    events.insert(*at, event.clone());
    Some(Game {
        header: played.game.header.clone(),
        events,
    })
}

/// A seed log, parsed once per process: its game, its header printed (the
/// prefix every arbitrary line is read after) and a replay of the header
/// with no events, which each run clones. Parsing and starting these anew
/// on every run cost more than the rest of a short run, so they are kept.
struct Start {
    source: Game,
    header_text: String,
    replay: Option<Replay>,
}

fn starts() -> &'static [Start] {
    static STARTS: OnceLock<Vec<Start>> = OnceLock::new();
    STARTS.get_or_init(|| {
        SEEDS
            .iter()
            .map(|seed| {
                let source = parse(seed.as_bytes()).document.game;
                let header_text = Game {
                    header: source.header.clone(),
                    events: Vec::new(),
                }
                .canonical_text();
                let replay = Replay::new(&source.header).ok();
                Start {
                    source,
                    header_text,
                    replay,
                }
            })
            .collect()
    })
}

/// One event line read after the printed header `header_text` (the game
/// decides how a move is read), or `None` when the line is not exactly one
/// event.
fn read_event(header_text: &str, line: &str) -> Option<Event> {
    if line.contains('\n') {
        return None;
    }
    let mut text = String::with_capacity(header_text.len() + line.len() + 1);
    text.push_str(header_text);
    text.push_str(line);
    text.push('\n');
    let parsed = parse(text.as_bytes());
    let mut events = parsed.document.game.events;
    (parsed.diagnostics.is_empty() && events.len() == 1).then(|| events.remove(0))
}

/// Plays up to a few hundred events chosen by `u` into a replay of one of
/// [`SEEDS`]' games: legal actions, the seed log's own events (world events
/// among them), arbitrary lines, and legal actions with one byte changed.
/// Every refused event must leave the state and all knowledge unchanged.
pub fn play(u: &mut Unstructured<'_>) -> Result<Option<Played>> {
    let start = u.choose(starts())?;
    let source = &start.source;
    let Some(mut replay) = start.replay.clone() else {
        return Ok(None);
    };
    let mut game = Game {
        header: source.header.clone(),
        events: Vec::new(),
    };
    let steps: u16 = u.int_in_range(0..=48)?;
    // The legal actions of the current position, listed once: a refused
    // event leaves the position as it was (which the loop asserts), so the
    // list is kept until an event is accepted. Listing them is most of a
    // run's cost (every candidate move is played to find its marker).
    let mut legal: Option<Vec<Event>> = None;
    let mut refused = Vec::new();
    for _ in 0..steps {
        if u.is_empty() {
            break;
        }
        let event = match u.int_in_range(0..=5)? {
            0..=2 => {
                let legal = legal.get_or_insert_with(|| replay.legal_actions());
                if legal.is_empty() {
                    continue;
                }
                u.choose(legal)?.clone()
            }
            3 => {
                if source.events.is_empty() {
                    continue;
                }
                // Mostly the event that stands at this point of the seed
                // log, so that world events arrive where they are owed.
                let at = if u.ratio(3, 4)? {
                    game.events.len().min(source.events.len() - 1)
                } else {
                    u.choose_index(source.events.len())?
                };
                source.events[at].clone()
            }
            4 => {
                let line: &str = u.arbitrary()?;
                match read_event(&start.header_text, line) {
                    Some(e) => e,
                    None => continue,
                }
            }
            _ => {
                let legal = legal.get_or_insert_with(|| replay.legal_actions());
                if legal.is_empty() {
                    continue;
                }
                let mut text = u.choose(legal)?.to_string().into_bytes();
                let at = u.choose_index(text.len())?;
                text[at] = u.arbitrary()?;
                match std::str::from_utf8(&text)
                    .ok()
                    .and_then(|t| read_event(&start.header_text, t))
                {
                    Some(e) => e,
                    None => continue,
                }
            }
        };
        // The copy is compared only when the event is refused: the state
        // and one viewer's knowledge (chosen by the input) must be as they were.
        let before = replay.clone();
        let viewer = *u.choose(&VIEWERS)?;
        match replay.apply(&event) {
            Ok(()) => {
                game.events.push(event);
                legal = None;
            }
            Err(error) => {
                assert_eq!(
                    before.state(),
                    replay.state(),
                    "the refused `{event}` ({error}) changed the state"
                );
                assert_eq!(
                    before.knowledge(viewer),
                    replay.knowledge(viewer),
                    "the refused `{event}` ({error}) changed what {viewer:?} knows"
                );
                refused.push((game.events.len(), event));
            }
        }
    }
    // Whatever the end, asking about it never fails.
    let _ = replay.finish();
    let _ = replay.legal_actions();
    Ok(Some(Played { game, replay, refused }))
}
