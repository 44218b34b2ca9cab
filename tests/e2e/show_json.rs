//! `fgn show --format json`: the serialised state or knowledge with its
//! hash validates against docs/fgn-show.schema.json, for every valid corpus
//! game of every game with an engine, at several points and for every viewer.

use serde_json::Value;

use crate::schema::Schema;
use crate::util;

fn show(file: &str, at: usize, viewer: &str) -> Value {
    let at = at.to_string();
    let out = util::fgn(&["--format", "json", "show", "--at", &at, "--as", viewer, file], b"");
    assert!(
        out.status.success(),
        "{file} --at {at}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

fn events(file: &str) -> usize {
    let text = std::fs::read(util::root().join(file)).unwrap();
    fgn_notation::parse(&text).document.game.events.len()
}

#[test]
fn show_json_validates_against_its_schema() {
    let schema = Schema::load_from(&util::root().join("docs").join("fgn-show.schema.json"));
    let mut checked = 0;
    for game in [
        "survival-chess",
        "open-world-chess",
        "magic-draughts",
        "great-war-chess",
    ] {
        let dir = util::corpus().join(game).join("valid");
        for path in util::fgn_files(&dir) {
            let rel = path.strip_prefix(util::root()).unwrap().display().to_string();
            let n = events(&rel);
            for at in [0, n / 3, n / 2, n] {
                for viewer in ["all", "white", "black"] {
                    let doc = show(&rel, at, viewer);
                    if let Some(e) = schema.errors(&doc) {
                        panic!("{rel} --at {at} --as {viewer}:\n{e}\n{doc:#}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} documents checked");
}

#[test]
fn the_schema_rejects_what_show_never_writes() {
    let schema = Schema::load_from(&util::root().join("docs").join("fgn-show.schema.json"));
    let good = show("corpus/survival-chess/valid/01-bishop-queen-mate.fgn", 6, "all");
    assert!(schema.errors(&good).is_none());
    let mut bad = good.clone();
    bad["state"]["position"]["pieces"][0]["color"] = "white".into();
    assert!(schema.errors(&bad).is_some(), "a colour spelled out");
    let mut bad = good.clone();
    bad["state_hash"] = "a2f4".into();
    assert!(schema.errors(&bad).is_some(), "a short hash");
    let mut bad = good.clone();
    bad["knowledge_hash"] = bad["state_hash"].clone();
    assert!(schema.errors(&bad).is_some(), "a state with a knowledge hash");
    let mut bad = good.clone();
    bad["hash"] = bad["state_hash"].clone();
    assert!(schema.errors(&bad).is_some(), "version 1's `hash`");
    let mut bad = good;
    bad["knowledge"] = bad["state"].clone();
    assert!(schema.errors(&bad).is_some(), "state and knowledge together");
}
