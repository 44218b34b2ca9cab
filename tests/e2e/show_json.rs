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

/// An open-world-chess move held on its path by the world's damage roll:
/// its owner's knowledge holds the piece as `moving` (it is on no square
/// meanwhile), the opponent's does not, and both validate.
#[test]
fn a_piece_waiting_on_its_path_is_its_owners_moving_piece() {
    let schema = Schema::load_from(&util::root().join("docs").join("fgn-show.schema.json"));
    let file = util::scratch(
        "show-json",
        "waiting.fgn",
        b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n0 @ spawn d3 damage\n1 w e2-e3\n1 w Bf1-c4\n1 @ damage d3 2\n",
    );
    let white = show(&file, 3, "white");
    assert!(schema.errors(&white).is_none(), "{white:#}");
    let moving = &white["knowledge"]["position"]["moving"];
    assert_eq!(
        (moving["piece"].as_str(), moving["to"].as_str()),
        (Some("B"), Some("c4")),
        "{white:#}"
    );
    let black = show(&file, 3, "black");
    assert!(schema.errors(&black).is_none(), "{black:#}");
    assert!(black["knowledge"]["position"].get("moving").is_none(), "{black:#}");
    let after = show(&file, 4, "white");
    assert!(after["knowledge"]["position"].get("moving").is_none(), "{after:#}");
    let mut bad = white;
    bad["knowledge"]["position"]["moving"]["path"] = "d3".into();
    assert!(schema.errors(&bad).is_some(), "a path that is not a list of squares");
}
