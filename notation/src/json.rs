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
//! Version 4 says what each object is (`"type": "game"`), and an object of
//! `"type": "unreadable"` stands for a file `fgn json` could not read; the
//! reader reads its games and skips those objects. [`read_documents`] reads
//! an input of many documents as a stream, one document at a time and a
//! document's events one at a time ([`Entry`]), for `fgn from-json`.

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
                return Err(twice(&key));
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
///
/// It reads the document as [`read_documents`] reads each document of a
/// stream, so the two say the same of every document; an object that
/// stands for a file `fgn json` could not read is not a game.
pub fn from_json(text: &str) -> Result<Game, String> {
    match serde_json::from_str::<Entry>(text).map_err(|e| json_error(&e))? {
        Entry::Game(read) => Ok(read.game),
        Entry::Unreadable { file } => Err(format!(
            "the object stands for {}, which `fgn json` could not read (\"type\": \"unreadable\"): it holds no game",
            file.as_deref().unwrap_or("a file")
        )),
        Entry::NotAGame(why) => Err(why),
    }
}

/// What a fault of the JSON itself says: a key given twice (JSON, but no
/// one document) as it is, anything else as not JSON.
fn json_error(e: &serde_json::Error) -> String {
    match e.is_data() {
        true => e.to_string(),
        false => format!("not JSON: {e}"),
    }
}

/// One top-level JSON value of a `fgn from-json` input, read: a game, an
/// object that stands for a file `fgn json` could not read, or a value
/// that is not a game, with why. A value that is not JSON, or holds a key
/// twice, is an error of the deserializer instead, since nothing after it
/// can be read.
///
/// Its `Deserialize` reads a document's events one at a time as they come,
/// each into its typed [`Event`] (never the whole document as a JSON value
/// first), so that a document is held once, as the game it holds.
#[derive(Debug)]
pub enum Entry {
    /// A game's document.
    Game(Box<ReadGame>),
    /// An object of version 4 with `"type": "unreadable"`, which `fgn json`
    /// writes for a file it could not read, and its `file` (none for
    /// standard input).
    Unreadable {
        /// The file it stands for.
        file: Option<String>,
    },
    /// JSON that is not a game document, and why.
    NotAGame(String),
}

/// A game read from its document, with what `fgn json` wrote beside it.
#[derive(Debug)]
pub struct ReadGame {
    /// The game, as its canonical text reads back.
    pub game: Game,
    /// The document's `file`, when it has one.
    pub file: Option<String>,
    /// The document's `summary.log_hash` as it stands, when the summary
    /// gives one: the caller checks it against the game's log hash, which
    /// the notation does not compute.
    pub log_hash: Option<serde_json::Value>,
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Entry, D::Error> {
        deserializer.deserialize_any(EntryVisitor)
    }
}

/// The error of a key given twice in one object (see [`Unique`]).
fn twice<E: serde::de::Error>(key: &str) -> E {
    E::custom(format!(
        "an object holds the key \"{key}\" twice (JSON readers disagree on which one counts, so neither is taken)"
    ))
}

/// Why a document's `format` and `version` are not ones this reader reads.
fn not_a_version(format: Option<&serde_json::Value>, version: Option<&serde_json::Value>) -> String {
    let (last, before) = READ_VERSIONS.split_last().expect("versions are read");
    let before: Vec<String> = before.iter().map(u32::to_string).collect();
    format!(
        "expected \"format\": \"{FORMAT}\" and \"version\": {} or {last}, found {} and {}",
        before.join(", "),
        format.map_or("nothing".into(), |v| v.to_string()),
        version.map_or("nothing".into(), |v| v.to_string())
    )
}

/// Reads a top-level value: an object as a document, anything else (read
/// through, for its duplicate keys) as no document.
struct EntryVisitor;

impl EntryVisitor {
    fn not_a_document() -> Entry {
        Entry::NotAGame(not_a_version(None, None))
    }
}

impl<'de> serde::de::Visitor<'de> for EntryVisitor {
    type Value = Entry;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an FGN JSON document")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_str<E>(self, _: &str) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_unit<E>(self) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_none<E>(self) -> Result<Entry, E> {
        Ok(Self::not_a_document())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Entry, A::Error> {
        while let Some(Unique(_)) = seq.next_element()? {}
        Ok(Self::not_a_document())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
        let mut doc = DocumentFields::default();
        let mut keys = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                return Err(twice(&key));
            }
            match key.as_str() {
                "events" => {
                    map.next_value_seed(EventsSeed(&mut doc))?;
                    continue;
                }
                "format" | "version" | "type" | "header" | "file" | "summary" => {}
                _ => doc.shape.push(Shape::Unknown(key.clone())),
            }
            let Unique(value) = map.next_value()?;
            match key.as_str() {
                "format" => doc.format = Some(value),
                "version" => doc.version = Some(value),
                "type" => {
                    doc.shape.push(Shape::Type);
                    doc.kind = Some(value);
                }
                "header" => {
                    if !value.is_object() {
                        if let Err(e) =
                            serde_json::from_value::<serde_json::Map<String, serde_json::Value>>(value.clone())
                        {
                            doc.shape.push(Shape::Wrong(e.to_string()));
                        }
                    }
                    doc.header = Some(value);
                }
                "file" => doc.file = Some(value),
                "summary" => doc.summary = Some(value),
                _ => {}
            }
        }
        Ok(doc.finish())
    }
}

/// A fault of a document's shape that serde finds reading it as its
/// fields (`JsonGame`): each is named where its key stands, the first
/// one counting, as serde's derive names it.
#[derive(Debug)]
enum Shape {
    /// A key no document has.
    Unknown(String),
    /// The `type` key, which documents have from version 4 on.
    Type,
    /// A field of the wrong type, and serde's error.
    Wrong(String),
}

/// What is kept of a document while it is read: its small fields as
/// they are, its events read one at a time.
#[derive(Debug, Default)]
struct DocumentFields {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
    kind: Option<serde_json::Value>,
    header: Option<serde_json::Value>,
    file: Option<serde_json::Value>,
    summary: Option<serde_json::Value>,
    /// The events, or none when the document has no `events`.
    events: Option<Events>,
    shape: Vec<Shape>,
}

/// A document's events as they are read.
#[derive(Debug)]
enum Events {
    /// Read before the document said its `format` and `version` (which
    /// `fgn json` writes first): kept as JSON until the version says how to
    /// read them.
    Held(Vec<serde_json::Value>),
    /// Read as they came.
    Read(EventsRead),
    /// Not read: the document is not of a version this reader reads.
    Skipped,
}

/// Events read one at a time, and the first fault of each kind: the
/// faults are reported in the order a whole document's checks find them
/// (every event's seen piece, then every event's bare action, then the
/// rest of the document, then each event's fields), so that a document
/// is refused for the same reason whichever way it was read.
#[derive(Debug, Default)]
struct EventsRead {
    events: Vec<Event>,
    count: usize,
    seen_piece: Option<String>,
    bare: Option<String>,
    read: Option<String>,
}

impl EventsRead {
    /// Reads the next event in the spelling of `version`; after a fault
    /// the events are dropped, and later ones are only checked for faults
    /// that come first.
    fn push(&mut self, mut event: serde_json::Value, version: u64) {
        let index = self.count;
        self.count += 1;
        if self.seen_piece.is_some() {
            return;
        }
        if let Some(action) = event.get_mut("action").and_then(|a| a.as_object_mut()) {
            if version >= 2 {
                if let Err(e) = nest_seen_piece(index, action) {
                    self.seen_piece = Some(e);
                    self.events = Vec::new();
                    return;
                }
            }
            // Serde does not deny unknown fields on the actions that have
            // none, so they are checked here.
            let bare = matches!(
                action.get("type").and_then(|t| t.as_str()),
                Some("ready" | "end" | "resign" | "hidden")
            );
            if bare && action.len() > 1 && self.bare.is_none() {
                self.bare = Some(format!(
                    "event {} (counting from 1): this action has no fields besides \"type\"",
                    index + 1
                ));
                self.events = Vec::new();
            }
        }
        if self.bare.is_some() || self.read.is_some() {
            return;
        }
        // The events are read one at a time, so that an error names the
        // event and the field it is in, not only what serde expected.
        match read_event(index, event) {
            Ok(event) => self.events.push(event),
            Err(e) => {
                self.read = Some(e);
                self.events = Vec::new();
            }
        }
    }
}

impl DocumentFields {
    /// The version the events are read in: `Some(Ok)` once `format` and
    /// `version` are known and read, `Some(Err(()))` once they are known
    /// and not, `None` before.
    fn version(&self) -> Option<Result<u64, ()>> {
        let (format, version) = (self.format.as_ref()?, self.version.as_ref()?);
        let known = version
            .as_u64()
            .filter(|v| READ_VERSIONS.iter().any(|&r| u64::from(r) == *v));
        Some(known.filter(|_| *format == FORMAT).ok_or(()))
    }

    fn finish(self) -> Entry {
        match self.check() {
            Ok(entry) => entry,
            Err(why) => Entry::NotAGame(why),
        }
    }

    /// The document's entry, its faults checked in the order of the
    /// reader of a whole document.
    fn check(mut self) -> Result<Entry, String> {
        // `fgn json` names each document's source file and adds the game's
        // summary; neither is part of the game, so both are dropped, but
        // only in the forms that command writes. The summary is not checked
        // against the game: it is derived from it, and `fgn validate` is the
        // check (but for its log hash, which the caller checks).
        let file = match self.file.take() {
            None => None,
            Some(serde_json::Value::String(file)) => Some(file),
            Some(_) => return Err("\"file\" names a source file: expected a string".into()),
        };
        let log_hash = match self.summary.take() {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Object(mut summary)) => summary.remove("log_hash"),
            Some(_) => return Err("\"summary\" is the game's summary: expected an object".into()),
        };
        // The format and version come first, so that a document of another
        // version is named as such rather than failing on a field it adds.
        let Some(Ok(version)) = self.version() else {
            return Err(not_a_version(self.format.as_ref(), self.version.as_ref()));
        };
        // Version 4 says what an object is: a game, or a file `fgn json`
        // could not read, which holds no game.
        if version >= 4 {
            match &self.kind {
                None => {}
                Some(serde_json::Value::String(kind)) if kind == GAME_TYPE => {}
                Some(serde_json::Value::String(kind)) if kind == "unreadable" => {
                    return Ok(Entry::Unreadable { file });
                }
                Some(other) => {
                    return Err(format!(
                    "\"type\" is {other}: expected \"game\" (or \"unreadable\", for a file `fgn json` could not read)"
                ))
                }
            }
        }
        let mut events = match self.events.take() {
            Some(Events::Held(values)) => {
                let mut read = EventsRead::default();
                for value in values {
                    read.push(value, version);
                }
                Some(read)
            }
            Some(Events::Read(read)) => Some(read),
            // Events are skipped only in a document of a version not read,
            // which was refused above.
            Some(Events::Skipped) => Some(EventsRead::default()),
            None => None,
        };
        if let Some(read) = &mut events {
            if let Some(fault) = read.seen_piece.take().or_else(|| read.bare.take()) {
                return Err(fault);
            }
        }
        let not_a_game = |e: &dyn std::fmt::Display| format!("not an FGN JSON game: {e}");
        for shape in &self.shape {
            match shape {
                Shape::Unknown(key) => return Err(not_a_game(&unknown_field(key))),
                Shape::Type if version < 4 => return Err(not_a_game(&unknown_field("type"))),
                Shape::Type => {}
                Shape::Wrong(e) => return Err(not_a_game(e)),
            }
        }
        let Some(serde_json::Value::Object(tags)) = self.header.take() else {
            return Err(not_a_game(&<serde_json::Error as serde::de::Error>::missing_field(
                "header",
            )));
        };
        let Some(mut events) = events else {
            return Err(not_a_game(&<serde_json::Error as serde::de::Error>::missing_field(
                "events",
            )));
        };
        if let Some(fault) = events.read.take() {
            return Err(fault);
        }
        let mut header = Header::default();
        for (name, value) in tags {
            let serde_json::Value::String(value) = value else {
                return Err(format!("header tag `{name}`: expected a string value"));
            };
            header.tags.push(Tag { name, value });
        }
        let game = Game {
            header,
            events: events.events,
        };
        Ok(Entry::Game(Box::new(ReadGame {
            game: read_back(game)?,
            file,
            log_hash,
        })))
    }
}

/// serde's error for a document's key that is none of its fields.
fn unknown_field(key: &str) -> serde_json::Error {
    <serde_json::Error as serde::de::Error>::unknown_field(key, &["format", "version", "header", "events"])
}

/// The game as its canonical text reads back, or the fault that keeps the
/// text from holding it.
fn read_back(game: Game) -> Result<Game, String> {
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

/// Reads a document's `events`: an array one element at a time, in the
/// document's version when it is known; anything else as a fault of its
/// shape.
struct EventsSeed<'a>(&'a mut DocumentFields);

impl<'de> serde::de::DeserializeSeed<'de> for EventsSeed<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl EventsSeed<'_> {
    /// `events` that is not an array: the fault serde's derive names.
    fn not_a_list(self, value: serde_json::Value) {
        if let Err(e) = serde_json::from_value::<Vec<Event>>(value) {
            self.0.shape.push(Shape::Wrong(e.to_string()));
        }
        self.0.events = Some(Events::Read(EventsRead::default()));
    }
}

impl<'de> serde::de::Visitor<'de> for EventsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of events")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let events = match self.0.version() {
            None => {
                let mut held = Vec::new();
                while let Some(Unique(event)) = seq.next_element()? {
                    held.push(event);
                }
                Events::Held(held)
            }
            Some(Ok(version)) => {
                let mut read = EventsRead::default();
                while let Some(Unique(event)) = seq.next_element()? {
                    read.push(event, version);
                }
                Events::Read(read)
            }
            Some(Err(())) => {
                while let Some(Unique(_)) = seq.next_element()? {}
                Events::Skipped
            }
        };
        self.0.events = Some(events);
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let value = UniqueVisitor.visit_map(map)?;
        self.not_a_list(value);
        Ok(())
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.not_a_list(v.into());
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.not_a_list(v.into());
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.not_a_list(v.into());
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        let number = serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, serde_json::Value::Number);
        self.not_a_list(number);
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.not_a_list(v.into());
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.not_a_list(serde_json::Value::Null);
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.not_a_list(serde_json::Value::Null);
        Ok(())
    }
}

/// Where a document stands in its input, as `fgn from-json` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A document of a stream (NDJSON, or pretty documents one after
    /// another), by the line it starts on.
    Line(usize),
    /// An element of the input's one array, counting from 1.
    Element(usize),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Line(line) => write!(f, "line {line}"),
            Place::Element(i) => write!(f, "document {i} of the array"),
        }
    }
}

/// Why [`read_documents`] could not read on.
#[derive(Debug)]
pub enum StreamError {
    /// The input could not be read.
    Io(std::io::Error),
    /// The input is not JSON from some point on, or an object holds a key
    /// twice: what [`from_json`] says of such a text, placed by the line
    /// and column of the whole input.
    Json(String),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Io(e) => e.fmt(f),
            StreamError::Json(e) => f.write_str(e),
        }
    }
}

/// Reads the documents of `input` one at a time and hands each to `each`
/// with its place, before the next is read: one document, a JSON array of
/// them (`fgn json DIR`), or documents one after another (`fgn json
/// --ndjson`, or version 1's stream of pretty documents). `each` says
/// whether to go on. Only one document is held at a time, and that one as
/// the game it holds, read event by event ([`Entry`]), never as its text
/// or a JSON value of the whole.
///
/// A fault of the JSON itself (or a key given twice) ends the reading,
/// since nothing after it can be found; the documents before it have been
/// handed on.
///
/// ```
/// use fgn_notation::json::{read_documents, Entry, Place};
///
/// let game = r#"{"format": "fgn", "version": 3, "header": {"Game": "survival-chess", "Rules": "1.0"}, "events": []}"#;
/// let mut places = Vec::new();
/// let input = format!("{game}\n{game}\n{{\"format\": 2}}\n");
/// read_documents(input.as_bytes(), |place, entry| {
///     places.push((place, matches!(entry, Entry::Game(_))));
///     true
/// })
/// .unwrap();
/// assert_eq!(places, [(Place::Line(1), true), (Place::Line(2), true), (Place::Line(3), false)]);
/// ```
pub fn read_documents<R: std::io::BufRead>(
    input: R,
    each: impl FnMut(Place, Entry) -> bool,
) -> Result<(), StreamError> {
    read_documents_within(input, MAX_DOCUMENT_BYTES, each)
}

/// The most bytes of one document [`read_documents`] reads: sixteen times
/// the most FGN text a log holds, which is more than the JSON of any log
/// the text reader reads (a chat line of 13 bytes is about 150 in a pretty
/// array). An input is read as a stream, with no end it must reach, so
/// this is what stops a document that never ends (an endless string)
/// from growing without bound.
pub const MAX_DOCUMENT_BYTES: u64 = 16 * crate::parse::MAX_FILE_BYTES as u64;

/// [`read_documents`] with a document of more than `limit` bytes refused.
fn read_documents_within<R: std::io::BufRead>(
    input: R,
    limit: u64,
    mut each: impl FnMut(Place, Entry) -> bool,
) -> Result<(), StreamError> {
    use serde::de::Deserializer as _;
    let taken = std::cell::Cell::new(0);
    let mut input = Counted {
        inner: input,
        line: 1,
        column: 0,
        last: None,
        taken: &taken,
        limit,
    };
    match input.skip_whitespace()? {
        None => Ok(()),
        // An array is read one element at a time by one deserializer.
        Some(b'[') => {
            let start = input.position();
            let mut array = ArrayVisitor {
                each: &mut each,
                stopped: false,
                taken: &taken,
            };
            let read = serde_json::Deserializer::from_reader(&mut input).deserialize_seq(&mut array);
            if array.stopped {
                return Ok(());
            }
            read.map_err(|e| input.error(e, start))?;
            match input.skip_whitespace()? {
                None => Ok(()),
                Some(_) => {
                    let (line, column) = input.position();
                    Err(StreamError::Json(format!(
                        "more JSON follows the array of documents, at line {line} column {}: an input holds one array, or documents one after another",
                        column + 1
                    )))
                }
            }
        }
        // Documents one after another, each read by a deserializer of its
        // own: none reads beyond the end of an object, so the next starts
        // where the last ended.
        Some(_) => loop {
            let start = input.position();
            taken.set(0);
            let entry = Entry::deserialize(&mut serde_json::Deserializer::from_reader(&mut input))
                .map_err(|e| input.error(e, start))?;
            if !each(Place::Line(start.0), entry) || input.skip_whitespace()?.is_none() {
                return Ok(());
            }
        },
    }
}

/// Hands each element of an array on as a document.
struct ArrayVisitor<'a, F> {
    each: &'a mut F,
    /// `each` said to stop.
    stopped: bool,
    /// The bytes of the element being read ([`Counted::taken`]).
    taken: &'a std::cell::Cell<u64>,
}

impl<'de, F: FnMut(Place, Entry) -> bool> serde::de::Visitor<'de> for &mut ArrayVisitor<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of FGN JSON documents")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while let Some(entry) = seq.next_element::<Entry>()? {
            i += 1;
            if !(self.each)(Place::Element(i), entry) {
                self.stopped = true;
                break;
            }
            self.taken.set(0);
        }
        Ok(())
    }
}

/// The error [`Counted`] gives past the limit of a document.
const TOO_LARGE: &str = "the document is too large";

/// An input read through, with the line and column of the next byte, so
/// that each document's place and an error's place in the whole input are
/// known though each document has a deserializer of its own.
struct Counted<'a, R> {
    inner: R,
    /// The line of the next byte, from 1.
    line: usize,
    /// The bytes before the next one on its line.
    column: usize,
    /// The last byte read.
    last: Option<u8>,
    /// The bytes read of the document being read, set to 0 where the
    /// next starts.
    taken: &'a std::cell::Cell<u64>,
    /// The most bytes of one document.
    limit: u64,
}

impl<R: std::io::BufRead> Counted<'_, R> {
    /// Where the next byte stands: its line and the bytes before it on it.
    fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    fn count(line: &mut usize, column: &mut usize, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                *line += 1;
                *column = 0;
            } else {
                *column += 1;
            }
        }
    }

    /// Reads past JSON's whitespace; the next byte, left unread, or `None`
    /// at the end of the input.
    fn skip_whitespace(&mut self) -> Result<Option<u8>, StreamError> {
        loop {
            let buf = self.inner.fill_buf().map_err(StreamError::Io)?;
            let Some(&first) = buf.first() else {
                return Ok(None);
            };
            let blank = buf
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                .count();
            Self::count(&mut self.line, &mut self.column, &buf[..blank]);
            let next = buf.get(blank).copied();
            self.inner.consume(blank);
            if blank == 0 {
                return Ok(Some(first));
            }
            if next.is_some() {
                return Ok(next);
            }
        }
    }

    /// A deserializer's error for the document that started at `start`,
    /// placed in the whole input, as [`from_json`] words it.
    fn error(&self, e: serde_json::Error, start: (usize, usize)) -> StreamError {
        if e.is_io() {
            let e = std::io::Error::from(e);
            if e.get_ref().is_some_and(|inner| inner.to_string() == TOO_LARGE) {
                return StreamError::Json(format!(
                    "a document goes on past {} bytes, the most fgn reads of one, at line {}",
                    self.limit, self.line
                ));
            }
            return StreamError::Io(e);
        }
        let message = json_error(&e);
        let Some(bare) = message.strip_suffix(&format!(" at line {} column {}", e.line(), e.column())) else {
            return StreamError::Json(message);
        };
        let mut column = e.column();
        // A key given twice is refused once it is read, and the reader's
        // deserializer then has the `:` after it taken from the input and
        // counted, where a text's deserializer only looks at it: the text's
        // column, which `from_json` and the whole input's reading give, is
        // one less. (Where no `:` follows the key, the text is not JSON
        // either, and the column may be one further than the text's.)
        if e.is_data() && self.last == Some(b':') {
            column = column.saturating_sub(1);
        }
        let line = start.0 + e.line() - 1;
        if e.line() == 1 {
            column += start.1;
        }
        StreamError::Json(format!("{bare} at line {line} column {column}"))
    }
}

impl<R: std::io::BufRead> std::io::Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.taken.get() >= self.limit {
            return Err(std::io::Error::other(TOO_LARGE));
        }
        let n = self.inner.read(buf)?;
        self.taken.set(self.taken.get() + n as u64);
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Self::count(&mut self.line, &mut self.column, &buf[..n]);
        Ok(n)
    }
}

/// Event `index` (from 0) of a document, or an error that names it by its
/// number counting from 1 and by the place of the fault as a jq path
/// (`.events[2].action.square`).
fn read_event(index: usize, event: serde_json::Value) -> Result<Event, String> {
    // Read from the value where it is, not from a copy; only an event that
    // cannot be read is read again, as a copy, for the error that
    // `faulty_field`'s trials are compared with.
    if let Ok(event) = Event::deserialize(&event) {
        return Ok(event);
    }
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
            from_json(&doc(3, flat.clone())).unwrap(),
            one,
            "version 3 spells events as 2 does"
        );
        assert_eq!(
            from_json(&doc(4, flat)).unwrap(),
            one,
            "version 4 spells events as 3 does"
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

    /// A document read from a stream, by its place: its game or why not.
    type Streamed = (Place, Result<Game, String>);

    /// What [`read_documents`] says of `text`, read as a stream: each
    /// document's entry, then the fault that ended the reading.
    fn stream(text: &str) -> (Vec<Streamed>, Option<String>) {
        let mut read = Vec::new();
        let end = read_documents(std::io::BufReader::with_capacity(7, text.as_bytes()), |place, entry| {
            read.push((
                place,
                match entry {
                    Entry::Game(game) => Ok(game.game),
                    Entry::Unreadable { file } => Err(format!("unreadable {file:?}")),
                    Entry::NotAGame(why) => Err(why),
                },
            ));
            true
        });
        (read, end.err().map(|e| e.to_string()))
    }

    /// Issue 38, item 3: a document read from a stream, a few bytes at a
    /// time, is what [`from_json`] reads of its text, faults and their
    /// places included: the key given twice, whose column the reader's
    /// deserializer counts one further, and the places of documents that
    /// start after others or inside an array.
    #[test]
    fn a_stream_says_of_each_document_what_from_json_says_of_its_text() {
        let game = doc(
            2,
            serde_json::json!({"type": "see", "square": "e5", "color": "b", "piece": "N", "hp": 5}),
        );
        let pretty = serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&game).unwrap()).unwrap();
        let faulty = [
            game.replacen("\"n\":1", "\"n\":1,\"n\":1", 1),
            game.replacen("\"n\":1", "\"n\":1,\n  \"n\"  \n : 1", 1),
            pretty.replacen("\"version\": 2,", "\"version\": 2, \"version\": 2,", 1),
            game.replacen("\"n\":1", "\"n\":1,\"n\"", 1)
                .split_at(game.find("\"n\"").unwrap() + 9)
                .0
                .to_string(),
            game[..game.len() / 2].to_string(),
            game.replacen("\"n\":1", "\"n\":1,,", 1),
            format!("{}{}", "[".repeat(200), "]".repeat(200)),
        ];
        for text in faulty {
            let whole = from_json(&text).unwrap_err();
            for input in [text.clone(), format!("  \n\n {text}")] {
                let (read, end) = stream(&input);
                let fault = end.or_else(|| read.into_iter().next().and_then(|(_, r)| r.err()));
                let moved = from_json(&input).unwrap_err();
                assert_eq!(fault.as_deref(), Some(moved.as_str()), "{input}");
            }
            assert!(whole.contains(" at line ") || whole.contains("recursion"), "{whole}");
        }
        // Documents after others, and in an array, by their places.
        let (read, end) = stream(&format!("{game}\n{pretty}\n\n{game}  {game}"));
        let places: Vec<Place> = read.iter().map(|(p, _)| *p).collect();
        let lines = pretty.lines().count();
        assert_eq!(
            places,
            [
                Place::Line(1),
                Place::Line(2),
                Place::Line(lines + 3),
                Place::Line(lines + 3)
            ]
        );
        assert!(read.iter().all(|(_, r)| r.is_ok()) && end.is_none(), "{read:?} {end:?}");
        let (read, end) = stream(&format!("[{game},\n{pretty}, 7]"));
        let places: Vec<String> = read.iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(
            places,
            [
                "document 1 of the array",
                "document 2 of the array",
                "document 3 of the array"
            ]
        );
        assert!(read[2].1.as_ref().unwrap_err().contains("found nothing and nothing"));
        assert!(end.is_none());
        // A fault of the JSON after an array's first element: that element
        // is handed on, then the fault, placed in the whole input.
        let text = format!("[{game},\n {game} x]");
        let (read, end) = stream(&text);
        assert_eq!(read.len(), 2);
        assert_eq!(
            end.unwrap(),
            from_json(&text)
                .unwrap_err()
                .replace("trailing characters", "expected `,` or `]`")
        );
    }

    /// An input is read with no end it must reach, so a document that
    /// never ends (an endless string) is cut at a limit, each document of
    /// a stream or an array counted from its start.
    #[test]
    fn a_document_past_the_limit_ends_the_stream() {
        let game = doc(3, serde_json::json!({"type": "hidden"}));
        let limit = game.len() as u64 + 2;
        let long = game.replace("white", &"w".repeat(game.len()));
        for (input, games) in [
            (format!("{game}\n{game}\n{long}\n{game}"), 2),
            (format!("[{game},\n{game}, {long}, {game}]"), 2),
        ] {
            let mut read = 0;
            let end = read_documents_within(input.as_bytes(), limit, |_, _| {
                read += 1;
                true
            });
            assert_eq!(read, games, "{input}");
            let end = end.unwrap_err().to_string();
            assert!(
                end.starts_with(&format!("a document goes on past {limit} bytes")),
                "{end}"
            );
        }
        let mut read = 0;
        read_documents_within(format!("{game}\n{game}").as_bytes(), limit, |_, _| {
            read += 1;
            true
        })
        .unwrap();
        assert_eq!(read, 2);
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
