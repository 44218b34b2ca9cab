//! magic-draughts games to and from PDN, the draughts form of PGN
//! (docs/interchange.md).
//!
//! A plain game (`[Magic "off"]`) is Russian draughts, PDN's `GameType`
//! 25, whose squares are algebraic (`c3`), as the Russian notation, FGN,
//! and draughts software for the Russian game (pydraughts writes `[GameType
//! "25,W,8,8,A0,0"]`, `A` for algebraic) write them: a move is FGN's own,
//! `c3-d4`, a capture its landing squares with `:`, `c3:e5:c7`. A magic
//! game is written too, its spells and reveals as `[%fgn ...]` comments,
//! but only plain games are read back. Everything else (tags, clocks, chat,
//! timeouts) travels as in PGN ([`crate::pgn`]), so that [`read_pdn`] gives
//! back the log [`write_pdn`] wrote, with the same log hash.

use fgn_notation::{Action, Actor, Event, Game, GameKind, Header};
use fgn_replay::Replay;

use crate::pgn::{
    event_comment, fail, fgn_header, fgn_tags, read_games, write_game, At, Dialect, PgnError, RawGame, ReadGame, Token,
    CLOCK_COMMAND,
};

/// PDN's game type of Russian draughts.
const RUSSIAN: &str = "25";

/// Whether the header plays plain Russian draughts.
fn plain(header: &Header) -> bool {
    header.get("Magic") == Some("off")
}

/// The log as one PDN game, or why it has none: another game, a player's
/// view, or a log that breaks a rule (`fgn validate` says which). A magic
/// game is written with its spells and reveals as comments. The text ends
/// with the blank line that separates games.
///
/// ```
/// use fgn_notation::parse;
///
/// let log = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Magic \"off\"]\n\n1 w c3-d4\n1 b f6-g5 {t=2.25}\n";
/// let game = parse(log.as_bytes()).document.game;
/// let pdn = fgn_tools::pdn::write_pdn(&game).unwrap();
/// assert!(pdn.contains("[GameType \"25\"]") && pdn.contains("1. c3-d4 f6-g5 {[%egt 0:00:02.25]} *"));
/// let back = fgn_tools::pdn::read_pdn(&pdn).remove(0).game.unwrap();
/// assert_eq!(fgn_tools::loghash::log_hash(&back), fgn_tools::loghash::log_hash(&game));
/// ```
pub fn write_pdn(game: &Game) -> Result<String, String> {
    if game.kind() != Some(GameKind::MagicDraughts) {
        let name = game.kind().map_or("no game", GameKind::name);
        return Err(format!("{name}: PDN holds magic-draughts games only"));
    }
    if game.perspective().is_some() {
        return Err("a player's view: PDN holds full logs only".into());
    }
    let mut replay = Replay::new(&game.header).map_err(|e| format!("its header cannot start a replay: {e}"))?;
    let mut tokens = Vec::new();
    let mut result = None;
    for (index, event) in game.events.iter().enumerate() {
        if let Err(e) = replay.apply(event) {
            return Err(format!(
                "it breaks a rule at its event {} (fgn validate says where): {e}",
                index + 1
            ));
        }
        match (&event.action, event.actor) {
            (Action::Draughts { .. }, Actor::Player(side)) => {
                tokens.push(Token::Move {
                    number: event.n,
                    side,
                    san: event.action.to_string(),
                });
                if let Some(clock) = event.clock_ms {
                    tokens.push(Token::Comment(format!(
                        "{{[%{CLOCK_COMMAND} {}]}}",
                        crate::pgn::clock_text(clock)
                    )));
                }
            }
            _ => tokens.push(Token::Comment(event_comment(event))),
        }
        if let Action::Result { outcome, .. } = event.action {
            result = Some(outcome);
        }
    }
    if let Err(e) = replay.finish() {
        return Err(format!("it breaks a rule at its end (fgn validate says why): {e}"));
    }
    let result_text = result.map_or("*", |o| o.text());
    Ok(write_game(
        game,
        result_text,
        &[("GameType", RUSSIAN.to_string())],
        &tokens,
    ))
}

/// PDN's Russian draughts: the standard start, moves read against the
/// legal ones.
struct Draughts;

impl Dialect for Draughts {
    const GAME: &'static str = "Russian draughts";
    const NO_DRAW: &'static str =
        "a draw the position does not make: these rules have no draws (no agreement, repetition or move-count rule)";

    fn settle(&mut self, _: &mut Replay, _: &mut Vec<Event>, _: At, _: Option<&Event>) -> Result<(), PgnError> {
        Ok(())
    }

    fn resolve(&self, replay: &Replay, at: At, token: &str) -> Result<Event, PgnError> {
        resolve(replay, at, token)
    }
}

/// The legal move `token` names: `c3-d4`, or a capture with `:` or `x`
/// between its squares, either every landing square (`c3:e5:c7`) or only
/// the first and the last (`c3:c7`) when that names one capture.
fn resolve(replay: &Replay, at: At, token: &str) -> Result<Event, PgnError> {
    let text = token
        .trim_end_matches(['!', '?', '*', '+'])
        .to_ascii_lowercase()
        .replace('x', ":");
    let legal = replay.legal_actions();
    let exact: Vec<&Event> = legal.iter().filter(|e| e.action.to_string() == text).collect();
    if let [one] = exact[..] {
        return Ok(one.clone());
    }
    let ends = |s: &str| -> Option<(String, String)> {
        let (first, rest) = s.split_once(':')?;
        Some((first.to_string(), rest.rsplit(':').next()?.to_string()))
    };
    let short: Vec<&Event> = match ends(&text) {
        Some(want) => legal
            .iter()
            .filter(|e| matches!(e.action, Action::Draughts { capture: true, .. }))
            .filter(|e| ends(&e.action.to_string()).as_ref() == Some(&want))
            .collect(),
        None => Vec::new(),
    };
    match short[..] {
        [one] => Ok(one.clone()),
        [] => fail(
            at,
            format!("`{token}` is no legal move here (a capture, when there is one, must be taken)"),
        ),
        _ => fail(
            at,
            format!("`{token}` could be more than one capture: expected every landing square (`c3:e5:c7`)"),
        ),
    }
}

/// Turns one PDN game into an FGN game of plain Russian draughts.
fn convert(raw: &RawGame) -> Result<Game, PgnError> {
    let rules = fgn_replay::ruleset::rules_version(GameKind::MagicDraughts).to_string();
    let defaults = [("Game", "magic-draughts"), ("Rules", rules.as_str()), ("Magic", "off")];
    let tag = |name: &str| raw.tags.iter().find(|(_, n, _)| n == name);
    if let Some((at, _, kind)) = tag("GameType") {
        if kind.split(',').next() != Some(RUSSIAN) {
            return fail(*at, format!("the game type \"{kind}\" is not Russian draughts (25)"));
        }
    }
    if let Some((at, _, _)) = tag("FEN") {
        return fail(
            *at,
            "a game from a set-up position: magic-draughts starts from the standard one",
        );
    }
    let tags = fgn_tags(raw, &defaults, "Pdn")?;
    let header = fgn_header(&tags)?;
    if header.game() != Some(GameKind::MagicDraughts) {
        return fail(
            raw.at,
            "PDN holds magic-draughts games only, but its `Game` tag names another game",
        );
    }
    if !plain(&header) {
        return fail(
            raw.at,
            "a magic game: PDN is read into plain Russian draughts (`[Magic \"off\"]`) only, since draughts software cannot check spells",
        );
    }
    let replay = Replay::new(&header).map_err(|e| PgnError {
        at: raw.at,
        message: format!("the tags cannot start a game: {e}"),
    })?;
    crate::pgn::read_body(raw, header, replay, &mut Draughts)
}

/// Reads every game of a PDN text into FGN, as [`crate::pgn::read_pgn`]
/// reads PGN: plain Russian draughts from the standard position, moves
/// read against the legal moves, the result checked.
pub fn read_pdn(text: &str) -> Vec<ReadGame> {
    read_games(text, convert)
}
