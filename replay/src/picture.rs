//! The one door to board pictures ([`crate::core::picture`]): a replay's
//! position, whole or as one viewer knows it, drawn by its game.

use crate::core::picture::Picture;
use crate::core::viewer::Viewer;
use crate::game::Game;
use crate::games::each_game;
use crate::{Knowledge, KnownPosition, Position, Replay, State};

impl Replay {
    /// The position now as a [`Picture`]: the state's with `viewer`
    /// `None`, else what `viewer` knows of it (its view: a setup still
    /// secret left out, in open-world-chess the fog).
    ///
    /// The picture is [`State::picture`]'s or [`Knowledge::picture`]'s:
    /// drawn from the value alone.
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
        match viewer {
            None => self.state().picture(),
            Some(viewer) => self.knowledge(viewer).picture(),
        }
    }
}

impl State {
    /// The position as a [`Picture`], drawn from this value alone. The
    /// notes on the turn under way (check, the moves left) follow the
    /// state's progress: they go when the game is decided.
    pub fn picture(&self) -> Picture {
        let in_play = self.progress.turn.is_some();
        each_game!(Position, &self.position, G, p => G::state_picture(p, in_play))
    }
}

impl Knowledge {
    /// What the viewer knows, as a [`Picture`] drawn from this value alone,
    /// so that a player's view file, which has no full log behind it, is
    /// drawn as the full log's replay draws it. The notes on the turn
    /// follow the progress as the viewer knows it: a player who cannot
    /// know that the game is decided (a king dead of a damage roll in the
    /// fog) is shown the turn it knows.
    pub fn picture(&self) -> Picture {
        let in_play = self.progress.turn.is_some();
        each_game!(KnownPosition, &self.position, G, k => G::knowledge_picture(k, in_play))
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

    /// A king died of a damage roll that white did not see (issue 37):
    /// the game is decided, but white's knowledge still has a turn under
    /// way, and white's picture notes the moves left in it, as white knows
    /// them, where the whole picture, decided, notes none. (It used to
    /// follow the replay's progress, which told white what it could not
    /// know.)
    #[test]
    fn the_notes_on_the_turn_follow_the_viewers_progress() {
        let replay = replayed("open-world-chess/valid/owc-08-damage-ramp-king-dies-of-damage.fgn", 101);
        assert!(replay.progress().turn.is_none(), "the game is decided");
        let white = Viewer::of(Color::White);
        assert!(
            replay.knowledge(white).progress.turn.is_some(),
            "white does not know it"
        );
        let moves_left = |notes: &[String]| notes.iter().any(|n| n.starts_with("moves left in this turn: "));
        assert!(moves_left(&replay.picture(Some(white)).notes));
        assert!(!moves_left(&replay.picture(None).notes));
        assert_eq!(replay.picture(Some(white)), replay.knowledge(white).picture());
    }
}
