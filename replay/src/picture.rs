//! The one door to board pictures ([`crate::core::picture`]): a replay's
//! position, whole or as one viewer knows it, drawn by its game.

use crate::core::picture::Picture;
use crate::core::viewer::Viewer;
use crate::game::Game;
use crate::games::each_game;
use crate::{KnownPosition, Position, Replay};

impl Replay {
    /// The position now as a [`Picture`]: the state's with `viewer`
    /// `None`, else what `viewer` knows of it (its view: a setup still
    /// secret left out, in open-world-chess the fog).
    ///
    /// The notes on the turn under way (check, the moves left) follow the
    /// game's progress, which is public: they go when the game is decided,
    /// for every viewer.
    ///
    /// ```
    /// use fgn_notation::{parse, Color, Square};
    /// use fgn_replay::{validate, Charset, Viewer};
    ///
    /// let log = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n\n\
    ///            0 w place Ke1 Pe2\n0 b place Ke8\n";
    /// let replay = validate(&parse(log.as_bytes()).document.game).unwrap().replay;
    /// let e8 = Square::new(4, 7).unwrap();
    ///
    /// let whole = replay.picture(None);
    /// assert_eq!(whole.cell(e8).unwrap().figures[0].glyph.get(Charset::Ascii), "k");
    /// // Black's setup is secret from white until both are ready.
    /// let white = replay.picture(Some(Viewer::of(Color::White)));
    /// assert!(white.cell(e8).unwrap().figures.is_empty());
    /// assert_eq!(white.notes, ["(hidden until both are ready: black's setup)"]);
    /// ```
    pub fn picture(&self, viewer: Option<Viewer>) -> Picture {
        let in_play = self.progress().turn.is_some();
        match viewer {
            None => each_game!(Position, &self.state().position, G, p => G::state_picture(p, in_play)),
            Some(viewer) => {
                each_game!(KnownPosition, &self.knowledge(viewer).position, G, k => G::knowledge_picture(k, in_play))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use fgn_notation::Color;

    use crate::core::viewer::Viewer;
    use crate::Replay;

    /// A corpus log replayed up to `events` events.
    fn replayed(file: &str, events: usize) -> Replay {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus")
            .join(file);
        let text = std::fs::read(&path).expect("a corpus log");
        let game = fgn_notation::parse(&text).document.game;
        let mut replay = Replay::new(&game.header).expect("a game with an engine");
        for event in &game.events[..events] {
            replay.apply(event).expect("a valid log");
        }
        replay
    }

    /// White's king died of a damage roll in black's fog: white's knowledge
    /// still has black to move, but the picture notes no moves left, as
    /// `fgn show --as white` never did once the game was decided.
    #[test]
    fn the_notes_on_the_turn_follow_the_replays_progress() {
        let replay = replayed("open-world-chess/valid/owc-08-damage-ramp-king-dies-of-damage.fgn", 101);
        assert!(replay.progress().turn.is_none(), "the game is decided");
        let white = Viewer::of(Color::White);
        assert!(
            replay.knowledge(white).progress.turn.is_some(),
            "white does not know it"
        );
        let picture = replay.picture(Some(white));
        assert_eq!(picture.notes, ["white has 0 coins"]);
        let before = replayed("open-world-chess/valid/owc-08-damage-ramp-king-dies-of-damage.fgn", 99);
        assert!(before.picture(Some(white)).notes[0].starts_with("moves left in this turn: "));
    }
}
