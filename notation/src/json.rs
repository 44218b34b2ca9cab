//! The JSON form of a game: `{"format": "fgn", "version": 1, "header": {...}, "events": [...]}`.
//!
//! Field names are stable; `docs/json.md` documents them and
//! `docs/fgn-game.schema.json` is the JSON Schema. Comments are not part of a
//! game and are left out.

use serde::{Deserialize, Serialize};

use crate::action::Event;
use crate::document::Game;
use crate::header::{Header, Tag};
use crate::parse::parse;

/// The value of `format` in every document.
pub const FORMAT: &str = "fgn";
/// The version of the JSON form.
pub const VERSION: u32 = 1;

/// A game as JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonGame {
    /// Always `"fgn"`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// The tags, in file order, as an object of strings.
    pub header: serde_json::Map<String, serde_json::Value>,
    /// The events.
    pub events: Vec<Event>,
}

impl From<&Game> for JsonGame {
    fn from(game: &Game) -> JsonGame {
        JsonGame {
            format: FORMAT.into(),
            version: VERSION,
            header: game
                .header
                .tags
                .iter()
                .map(|t| (t.name.clone(), serde_json::Value::String(t.value.clone())))
                .collect(),
            events: game.events.clone(),
        }
    }
}

/// The JSON value of a game.
pub fn to_json(game: &Game) -> serde_json::Value {
    serde_json::to_value(JsonGame::from(game)).expect("a game always serializes")
}

/// Reads a game from its JSON text. The game must be one that FGN text can
/// hold: it is printed and read back, and any fault is reported with the line
/// of the canonical text it would have stood on.
pub fn from_json(text: &str) -> Result<Game, String> {
    let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    // `fgn json --ndjson` names each document's source file; it is not part
    // of the game, so it is dropped, but only in the form that command writes.
    if let Some(obj) = value.as_object_mut() {
        match obj.remove("file") {
            None | Some(serde_json::Value::String(_)) => {}
            Some(_) => return Err("\"file\" names a source file: expected a string".into()),
        }
    }
    // The format and version come first, so that a document of another
    // version is named as such rather than failing on a field it adds.
    let (format, version) = (value.get("format"), value.get("version"));
    if format != Some(&FORMAT.into()) || version != Some(&VERSION.into()) {
        return Err(format!(
            "expected \"format\": \"{FORMAT}\" and \"version\": {VERSION}, found {} and {}",
            format.map_or("nothing".into(), |v| v.to_string()),
            version.map_or("nothing".into(), |v| v.to_string())
        ));
    }
    // Serde does not deny unknown fields on the actions that have none, so
    // they are checked here.
    if let Some(events) = value.get("events").and_then(|e| e.as_array()) {
        for (i, e) in events.iter().enumerate() {
            if let Some(action) = e.get("action").and_then(|a| a.as_object()) {
                let bare = matches!(
                    action.get("type").and_then(|t| t.as_str()),
                    Some("ready" | "end" | "resign" | "hidden")
                );
                if bare && action.len() > 1 {
                    return Err(format!(
                        "event {} (counting from 1): this action has no fields besides \"type\"",
                        i + 1
                    ));
                }
            }
        }
    }
    let doc: JsonGame = serde_json::from_value(value).map_err(|e| format!("not an FGN JSON game: {e}"))?;
    let mut header = Header::default();
    for (name, value) in doc.header {
        let serde_json::Value::String(value) = value else {
            return Err(format!("header tag `{name}`: expected a string value"));
        };
        header.tags.push(Tag { name, value });
    }
    let game = Game {
        header,
        events: doc.events,
    };
    let text = game.canonical_text();
    let parsed = parse(text.as_bytes());
    if let Some(d) = parsed.diagnostics.first() {
        return Err(format!(
            "the game is not valid FGN: line {} of its canonical text: {}",
            d.line, d.message
        ));
    }
    // The text must say exactly these events: a value the text cannot hold
    // (a draughts move in a chess game reads back as a pawn move) is refused.
    if let Some(i) = (0..game.events.len()).find(|&i| parsed.document.game.events.get(i) != game.events.get(i)) {
        return Err(format!(
            "event {} (counting from 1, `{}`) is not a form its game can write",
            i + 1,
            game.events[i]
        ));
    }
    // Reading back normalizes what the text form normalizes (tag values
    // such as merchant squares), exactly as reading the text would.
    Ok(parsed.document.game)
}
