//! The JSON form of a game: `{"format": "fgn", "version": 4, "type": "game", "header": {...}, "events": [...]}`.
//!
//! Field names are stable; `docs/json.md` documents them and
//! `docs/fgn-game.schema.json` is the JSON Schema. Comments are not part of a
//! game and are left out.
//!
//! Version 2 differs from version 1 in one spelling: a `see` action's
//! piece is three fields of the action (`color`, `piece`, `hp`), so that
//! `piece` is a letter in every action, where version 1 nested them in a
//! `piece` object. The typed [`Event`]s keep version 1's serde shape, and
//! this module converts between the two; [`from_json`] reads every version.
//! Version 3 spells a game's events alike version 2: it renamed the
//! summary's count `applied` to `events_applied`, and the summary is not
//! part of the game. `fgn json` adds a document's `file` and `summary`, which are not part of
//! the game: [`document`] places them and [`from_json`] drops them.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Event};
use crate::document::Game;
use crate::header::{Header, Tag};
use crate::parse::parse;

/// The value of `format` in every document.
pub const FORMAT: &str = "fgn";
/// The version of the JSON form that [`to_json`] writes.
pub const VERSION: u32 = 4;
/// The versions [`from_json`] reads.
pub const READ_VERSIONS: [u32; 4] = [1, 2, 3, 4];
/// The `type` of a game's document (version 4 on; docs/json.md §2).
pub const GAME_TYPE: &str = "game";

/// A game as JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonGame {
    /// Always `"fgn"`.
    pub format: String,
    /// The version (1, 2 or 3).
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

/// The JSON value of a game, in the current version's spelling.
pub fn to_json(game: &Game) -> serde_json::Value {
    serde_json::to_value(JsonDocument::<()>::new(game, None, None)).expect("a game always serializes")
}

/// A game's document as `fgn json` writes it: [`to_json`] followed by the
/// input's `file` (omitted for standard input) and the game's `summary`
/// (docs/json.md §12), which the notation does not compute and takes as
/// a value.
pub fn document(game: &Game, file: Option<&str>, summary: serde_json::Value) -> serde_json::Value {
    serde_json::to_value(JsonDocument::new(game, file, Some(&summary))).expect("a game always serializes")
}

/// A game's document, serialized as it is written: the same JSON as
/// [`document`] (or [`to_json`] without a summary), streamed to a writer
/// with `serde_json::to_writer` without building a [`serde_json::Value`]
/// first, which cost `fgn json` most of its time (a map and its key
/// strings for every event). Both functions above are this serialized
/// into a value, so the two forms cannot drift apart.
#[derive(Clone, Copy, Debug)]
pub struct JsonDocument<'a, S> {
    game: &'a Game,
    file: Option<&'a str>,
    summary: Option<&'a S>,
}

impl<'a, S: Serialize> JsonDocument<'a, S> {
    /// The document of `game`, with `file` and `summary` after its events
    /// when they are given.
    pub fn new(game: &'a Game, file: Option<&'a str>, summary: Option<&'a S>) -> Self {
        JsonDocument { game, file, summary }
    }
}

impl<S: Serialize> Serialize for JsonDocument<'_, S> {
    fn serialize<Z: serde::Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::SerializeMap;
        let mut map = z.serialize_map(None)?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("version", &VERSION)?;
        map.serialize_entry("type", GAME_TYPE)?;
        map.serialize_entry("header", &JsonHeader(&self.game.header))?;
        map.serialize_entry("events", &JsonEvents(&self.game.events))?;
        if let Some(file) = self.file {
            map.serialize_entry("file", file)?;
        }
        if let Some(summary) = self.summary {
            map.serialize_entry("summary", summary)?;
        }
        map.end()
    }
}

/// The tags as one object of strings. A JSON object holds a name once:
/// a name that a game built in code repeats keeps its first place and its
/// last value, as inserting into a map does.
struct JsonHeader<'a>(&'a Header);

impl Serialize for JsonHeader<'_> {
    fn serialize<Z: serde::Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::SerializeMap;
        let tags = &self.0.tags;
        // A name given twice (only a hand-made header can) is written once,
        // where it first stands, with its last value. The last values are
        // found in one pass over a map, not by searching the list for each
        // tag, which made n tags cost n² (issue 36).
        let mut last: std::collections::HashMap<&str, &str> = std::collections::HashMap::with_capacity(tags.len());
        for tag in tags {
            last.insert(&tag.name, &tag.value);
        }
        let mut map = z.serialize_map(None)?;
        for tag in tags {
            if let Some(value) = last.remove(tag.name.as_str()) {
                map.serialize_entry(&tag.name, value)?;
            }
        }
        map.end()
    }
}

/// The events, each in the current version's spelling.
struct JsonEvents<'a>(&'a [Event]);

impl Serialize for JsonEvents<'_> {
    fn serialize<Z: serde::Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        let mut seq = z.serialize_seq(Some(self.0.len()))?;
        for event in self.0 {
            if matches!(event.action, Action::See { .. }) {
                // Only `see` differs from the typed events' serde shape
                // (version 1's), and only views hold it: it goes through a
                // value, where its fields are moved.
                let mut value = serde_json::to_value(event).map_err(Z::Error::custom)?;
                if let Some(action) = value.get_mut("action").and_then(|a| a.as_object_mut()) {
                    flatten_seen_piece(action);
                }
                seq.serialize_element(&value)?;
            } else {
                seq.serialize_element(event)?;
            }
        }
        seq.end()
    }
}

/// The action objects of a document's events.
fn actions(value: &mut serde_json::Value) -> impl Iterator<Item = &mut serde_json::Map<String, serde_json::Value>> {
    value
        .get_mut("events")
        .and_then(|e| e.as_array_mut())
        .into_iter()
        .flatten()
        .filter_map(|e| e.get_mut("action").and_then(|a| a.as_object_mut()))
}

fn is_see(action: &serde_json::Map<String, serde_json::Value>) -> bool {
    action.get("type").and_then(|t| t.as_str()) == Some("see")
}

/// Version 2's `see`: the seen piece's `color`, `piece` and `hp` (and an
/// own piece's `max`) as fields of the action.
fn flatten_seen_piece(action: &mut serde_json::Map<String, serde_json::Value>) {
    if !is_see(action) {
        return;
    }
    if let Some(serde_json::Value::Object(seen)) = action.remove("piece") {
        let object = action.remove("object");
        action.extend(seen);
        if let Some(object) = object {
            action.insert("object".into(), object);
        }
    }
}

/// Version 1's `see` from version 2's: the three fields back in a `piece`
/// object. A version 2 `see` must give all three or none of them.
fn nest_seen_piece(index: usize, action: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), String> {
    if !is_see(action) {
        return Ok(());
    }
    let fields = ["color", "piece", "hp"].map(|k| action.remove(k).filter(|v| !v.is_null()));
    let max = action.remove("max").filter(|v| !v.is_null());
    match (fields, max) {
        ([None, None, None], None) => Ok(()),
        ([Some(color), Some(piece), Some(hp)], max) => {
            let mut seen = serde_json::json!({"color": color, "piece": piece, "hp": hp});
            if let Some(max) = max {
                seen["max"] = max;
            }
            action.insert("piece".into(), seen);
            Ok(())
        }
        _ => Err(format!(
            "event {} (counting from 1): a seen piece needs \"color\", \"piece\" and \"hp\" together (and \"max\" only with them)",
            index + 1
        )),
    }
}

/// A JSON value read with every object's keys checked to be distinct.
///
/// JSON leaves duplicate keys to the reader, and serde_json keeps the last
/// one silently, so `{"n": 1, "n": 2}` would be read as move 2 where
/// another reader sees move 1: two programs would then disagree about one
/// document. fgn refuses such a document instead, naming the key.
///
/// ```
/// use fgn_notation::json::Unique;
///
/// let ok: Unique = serde_json::from_str(r#"{"a": [{"b": 1}, {"b": 2}]}"#).unwrap();
/// assert_eq!(ok.0["a"][1]["b"], 2);
/// let twice = serde_json::from_str::<Unique>(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
/// assert!(twice.to_string().contains("the key \"b\" twice"), "{twice}");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Unique(pub serde_json::Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Unique, D::Error> {
        deserializer.deserialize_any(UniqueVisitor).map(Unique)
    }
}

/// Builds a [`serde_json::Value`] as serde_json does, refusing a key that
/// an object already holds.
struct UniqueVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, serde_json::Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(serde_json::Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "an object holds the key \"{key}\" twice (JSON readers disagree on which one counts, so neither is taken)"
                )));
            }
            let Unique(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(serde_json::Value::Object(object))
    }
}

/// Reads a game from its JSON text. The game must be one that FGN text can
/// hold: it is printed and read back, and any fault is reported with the line
/// of the canonical text it would have stood on. An object that holds a key
/// twice is refused ([`Unique`]).
pub fn from_json(text: &str) -> Result<Game, String> {
    let Unique(mut value) = serde_json::from_str(text).map_err(|e| match e.is_data() {
        // A key given twice: JSON, but no one document.
        true => e.to_string(),
        false => format!("not JSON: {e}"),
    })?;
    // `fgn json` names each document's source file and adds the game's
    // summary; neither is part of the game, so both are dropped, but only
    // in the forms that command writes. The summary is not checked against
    // the game: it is derived from it, and `fgn validate` is the check.
    if let Some(obj) = value.as_object_mut() {
        match obj.remove("file") {
            None | Some(serde_json::Value::String(_)) => {}
            Some(_) => return Err("\"file\" names a source file: expected a string".into()),
        }
        match obj.remove("summary") {
            None | Some(serde_json::Value::Object(_) | serde_json::Value::Null) => {}
            Some(_) => return Err("\"summary\" is the game's summary: expected an object".into()),
        }
        // Version 4 names what a document is; only a game's is read here.
        match obj.remove("type") {
            None => {}
            Some(serde_json::Value::String(t)) if t == GAME_TYPE => {}
            Some(other) => return Err(format!("\"type\" must be \"{GAME_TYPE}\" for a game, found {other}")),
        }
    }
    // The format and version come first, so that a document of another
    // version is named as such rather than failing on a field it adds.
    let (format, version) = (value.get("format"), value.get("version"));
    let known = version
        .and_then(|v| v.as_u64())
        .filter(|v| READ_VERSIONS.iter().any(|&r| u64::from(r) == *v));
    let Some(version) = known.filter(|_| format == Some(&FORMAT.into())) else {
        return Err(format!(
            "expected \"format\": \"{FORMAT}\" and \"version\": 1, 2, 3 or {VERSION}, found {} and {}",
            format.map_or("nothing".into(), |v| v.to_string()),
            version.map_or("nothing".into(), |v| v.to_string())
        ));
    };
    if version >= 2 {
        for (i, action) in actions(&mut value).enumerate() {
            nest_seen_piece(i, action)?;
        }
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
    // The events are read one at a time, so that an error names the
    // event and the field it is in, not only what serde expected.
    let events = match value.get_mut("events") {
        Some(serde_json::Value::Array(events)) => std::mem::take(events),
        _ => Vec::new(),
    };
    let mut doc: JsonGame = serde_json::from_value(value).map_err(|e| format!("not an FGN JSON game: {e}"))?;
    doc.events = events
        .into_iter()
        .enumerate()
        .map(|(i, event)| read_event(i, event))
        .collect::<Result<_, _>>()?;
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

/// Event `index` (from 0) of a document, or an error that names it by its
/// number counting from 1 and by the place of the fault as a jq path
/// (`.events[2].action.square`).
fn read_event(index: usize, event: serde_json::Value) -> Result<Event, String> {
    let error = match serde_json::from_value::<Event>(event.clone()) {
        Ok(event) => return Ok(event),
        Err(e) => e.to_string(),
    };
    let mut at = format!(".events[{index}]");
    for step in faulty_field(&event, &error) {
        match step {
            Step::Key(key) => at += &format!(".{key}"),
            Step::Index(i) => at += &format!("[{i}]"),
        }
    }
    Err(format!("event {} (counting from 1), at {at}: {error}", index + 1))
}

/// One step of a path into a JSON value.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// The path to the field of `event` that reading it as an [`Event`] fails
/// on with `error`. serde's errors name what was expected but not where
/// (an action's fields are read from a buffer, so even the position in
/// the text is the action's end), so the field is found by taking parts
/// away: the field whose removal changes the error is the faulty one
/// (serde fails on the first bad field before it checks for missing ones,
/// so taking a good field away leaves the error as it was). An action's
/// `type` is tried last, since every field depends on it. Empty when the
/// error is about the event as a whole; for a missing field (which the
/// error names) it goes only as deep as a removal that makes the event
/// readable, such as the placement of a list that lacks its square.
fn faulty_field(event: &serde_json::Value, error: &str) -> Vec<Step> {
    let missing = error.starts_with("missing field");
    let mut path: Vec<Step> = Vec::new();
    while let Some(here) = at_path(event, &path) {
        let mut children: Vec<Step> = match here {
            serde_json::Value::Object(fields) => fields.keys().map(|k| Step::Key(k.clone())).collect(),
            serde_json::Value::Array(items) => (0..items.len()).map(Step::Index).collect(),
            _ => break,
        };
        children.sort_by_key(|c| *c == Step::Key("type".into()));
        let found = children.into_iter().find(|child| {
            let mut trial = event.clone();
            match (at_path_mut(&mut trial, &path), child) {
                (Some(serde_json::Value::Object(fields)), Step::Key(key)) => {
                    fields.remove(key);
                }
                (Some(serde_json::Value::Array(items)), Step::Index(i)) => {
                    items.remove(*i);
                }
                _ => return false,
            }
            match serde_json::from_value::<Event>(trial) {
                Ok(_) => true,
                // Taking any field away from an event that lacks one makes
                // it lack another, which says nothing of where the fault is.
                Err(e) if missing => !e.to_string().starts_with("missing field"),
                Err(e) => e.to_string() != error,
            }
        });
        match found {
            Some(child) => path.push(child),
            None => break,
        }
    }
    path
}

fn at_path<'a>(value: &'a serde_json::Value, path: &[Step]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(key) => v.get(key),
        Step::Index(i) => v.get(i),
    })
}

fn at_path_mut<'a>(value: &'a mut serde_json::Value, path: &[Step]) -> Option<&'a mut serde_json::Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(key) => v.get_mut(key),
        Step::Index(i) => v.get_mut(i),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEW: &str = "[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n[Perspective \"white\"]\n\n1 @ see e5 bN:5 coin\n1 @ see e6 empty\n";

    fn doc(version: u32, action: serde_json::Value) -> String {
        serde_json::json!({"format": "fgn", "version": version,
            "header": {"Game": "open-world-chess", "Rules": "1.2", "Perspective": "white"},
            "events": [{"n": 1, "actor": "@", "action": action}]})
        .to_string()
    }

    #[test]
    fn version_2_spells_a_seen_piece_as_fields_of_see() {
        let game = parse(VIEW.as_bytes()).document.game;
        let value = to_json(&game);
        assert_eq!(
            value["events"][0]["action"],
            serde_json::json!({"type": "see", "square": "e5", "color": "b", "piece": "N", "hp": 5, "object": "coin"})
        );
        assert_eq!(
            value["events"][1]["action"],
            serde_json::json!({"type": "see", "square": "e6"})
        );
        assert_eq!(from_json(&value.to_string()).unwrap(), game);
    }

    #[test]
    fn both_versions_read_and_each_only_in_its_own_spelling() {
        let nested = serde_json::json!({"type": "see", "square": "e5", "piece": {"color": "b", "piece": "N", "hp": 5}});
        let flat = serde_json::json!({"type": "see", "square": "e5", "color": "b", "piece": "N", "hp": 5});
        let one = from_json(&doc(1, nested.clone())).unwrap();
        assert_eq!(from_json(&doc(2, flat.clone())).unwrap(), one);
        assert!(
            from_json(&doc(1, flat.clone())).is_err(),
            "version 1 has no flat seen piece"
        );
        assert!(
            from_json(&doc(2, nested)).is_err(),
            "version 2 has no nested seen piece"
        );
        let partial = serde_json::json!({"type": "see", "square": "e5", "piece": "N"});
        assert!(from_json(&doc(2, partial)).unwrap_err().contains("together"));
        assert_eq!(
            from_json(&doc(3, flat)).unwrap(),
            one,
            "version 3 spells events as 2 does"
        );
        assert!(from_json(&doc(5, serde_json::json!({"type": "hidden"})))
            .unwrap_err()
            .contains("1, 2, 3 or 4"));
    }

    /// Regression (issue 39): an event serde could not read was reported
    /// as "not an FGN JSON game: invalid type ..." without saying which
    /// event or field. The error names the event (counting from 1) and the
    /// field as a jq path, inside an action and a list of placements too.
    #[test]
    fn an_event_that_cannot_be_read_is_named_with_its_field() {
        let game = |events: serde_json::Value| {
            serde_json::json!({"format": "fgn", "version": 3,
                "header": {"Game": "survival-chess", "Rules": "1.0", "Board": "8x8"},
                "events": events})
            .to_string()
        };
        let place = serde_json::json!({"n": 0, "actor": "w", "action": {"type": "place",
            "placements": [{"figure": "K", "square": "e1"}]}});
        assert!(from_json(&game(serde_json::json!([place]))).is_ok());
        let cases = [
            (
                serde_json::json!({"n": "one", "actor": "w", "action": {"type": "ready"}}),
                ".events[1].n",
            ),
            (
                serde_json::json!({"n": 0, "actor": "x", "action": {"type": "ready"}}),
                ".events[1].actor",
            ),
            (
                serde_json::json!({"n": 0, "actor": "w", "action": {"type": "redy"}}),
                ".events[1].action.type",
            ),
            (
                serde_json::json!({"n": 0, "actor": "w", "action": {"type": "remove", "square": 5}}),
                ".events[1].action.square",
            ),
            (
                serde_json::json!({"n": 0, "actor": "w", "action": {"type": "place",
                    "placements": [{"figure": "Q", "square": "d1"}, {"figure": "Q", "square": "z0"}]}}),
                ".events[1].action.placements[1].square",
            ),
            (
                serde_json::json!({"n": 0, "actor": "w", "action": {"type": "ready"}, "colour": 1}),
                ".events[1].colour",
            ),
            (serde_json::json!({"n": 0, "actor": "w"}), ".events[1]:"),
        ];
        for (bad, at) in cases {
            let error = from_json(&game(serde_json::json!([place, bad]))).unwrap_err();
            assert!(error.starts_with("event 2 (counting from 1), at "), "{error}");
            assert!(error.contains(at), "{at}: {error}");
        }
    }

    #[test]
    fn file_and_summary_are_placed_last_and_dropped_on_reading() {
        let game = parse(VIEW.as_bytes()).document.game;
        let value = document(&game, Some("a.fgn"), serde_json::json!({"status": "unsupported"}));
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["format", "version", "type", "header", "events", "file", "summary"]
        );
        assert_eq!(from_json(&value.to_string()).unwrap(), game);
        let mut bad = value.clone();
        bad["summary"] = "valid".into();
        assert!(from_json(&bad.to_string()).is_err());
        let mut other = value.clone();
        other["type"] = "unreadable".into();
        assert!(
            from_json(&other.to_string()).is_err(),
            "only a game's document is a game"
        );
    }
}
