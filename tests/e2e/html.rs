//! `fgn html`: the replay page of a game and the site of an archive. The
//! pages are driven in a real browser by tests/browser; these tests read
//! what fgn writes.

use std::path::Path;

use serde_json::Value;

use crate::util::{run, scratch, scratch_dir};

/// One corpus log of each game, and a view file.
const LOGS: &[&str] = &[
    "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
    "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn",
    "corpus/great-war-chess/valid/gwc-01-raids-no-charges.fgn",
    "corpus/magic-draughts/valid/04-charm-and-fury-win.fgn",
    "corpus/magic-draughts/views/04-charm-and-fury-win.white.fgn",
];

/// The page `fgn html` writes with `args`, and its exit code.
fn page(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["html"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, b"");
    (code.expect("an exit code"), out, err)
}

/// The JSON the page embeds.
fn data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"fgn-data\">";
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").expect("the data element ends");
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// The names of a page's perspectives.
fn perspectives(data: &Value) -> Vec<&str> {
    data["perspectives"]
        .as_array()
        .expect("perspectives")
        .iter()
        .map(|p| p["name"].as_str().expect("a name"))
        .collect()
}

/// A page loads nothing: no `src`, no `href` but to a place in the page
/// (or, in a site's index, to a page of the site), no address but the SVG
/// namespace, no stylesheet or import, and a Content-Security-Policy that
/// forbids every load.
fn assert_self_contained(page: &str, what: &str) {
    assert!(page.starts_with("<!DOCTYPE html>"), "{what}");
    assert!(
        page.contains("content=\"default-src 'none';"),
        "{what}: a CSP that forbids loads"
    );
    assert!(!page.contains("src="), "{what}: a src attribute");
    for (i, _) in page.match_indices("href=\"") {
        let target = &page[i + 6..];
        let target = &target[..target.find('"').expect("a closing quote")];
        let in_site =
            what == "the index" && !target.contains(':') && !target.starts_with('/') && !target.contains("..");
        assert!(target.starts_with('#') || in_site, "{what}: a link out: {target}");
    }
    let addresses = page
        .replace("http://www.w3.org/2000/svg", "")
        .replace("<meta http-equiv=", "");
    assert!(!addresses.contains("http"), "{what}: an address");
    for load in ["<link", "@import", "url(", "<iframe", "<img", "<object", "<embed"] {
        assert!(!page.contains(load), "{what}: {load}");
    }
}

/// Each game's page stands alone, and its data holds the start and a frame
/// per event for each perspective, ending where `fgn show` ends.
#[test]
fn a_page_is_self_contained_with_a_frame_per_event_for_each_perspective() {
    for log in LOGS {
        let (code, html, err) = page(&[log]);
        assert_eq!(code, 0, "{log}: {err}");
        assert_self_contained(&html, log);
        let data = data(&html);
        let (_, json, _) = run(&["json", log], b"");
        let summary: Value = serde_json::from_str(&json).expect("fgn json");
        let events = summary["summary"]["events"].as_u64().expect("events") as usize;
        let names = perspectives(&data);
        let expected: &[&str] = if log.contains("/views/") {
            &["white"]
        } else {
            &["all", "white", "black"]
        };
        assert_eq!(names, expected, "{log}");
        let boards = data["boards"].as_array().expect("boards").len();
        for p in data["perspectives"].as_array().expect("perspectives") {
            let name = p["name"].as_str().expect("a name");
            let frames = p["frames"].as_array().expect("frames");
            assert_eq!(frames.len(), events + 1, "{log} as {name}");
            assert!(frames[0]["event"].is_null(), "{log}: the start");
            for (i, frame) in frames.iter().enumerate().skip(1) {
                assert_eq!(frame["event"].as_u64(), Some(i as u64 - 1), "{log} as {name}");
            }
            assert!(frames
                .iter()
                .all(|f| (f["board"].as_u64().expect("a board") as usize) < boards));
            assert!(p["stop"].is_null(), "{log} as {name}");
            let (_, shown, _) = run(&["--format", "json", "show", "--as", name, log], b"");
            let shown: Value = serde_json::from_str(&shown).expect("fgn show's JSON");
            let last = frames.last().expect("a frame");
            let hash = shown.get("state_hash").or_else(|| shown.get("knowledge_hash"));
            assert_eq!(Some(&last["hash"]), hash, "{log} as {name}");
        }
    }
}

/// A view file offers its own player only, and cannot be drawn as the
/// other; `--as` keeps every other viewer's frames out of a full log's
/// page.
#[test]
fn a_view_file_offers_only_its_side_and_as_keeps_the_others_out() {
    let view = "corpus/survival-chess/views/12-setup-timeout-auto-ready.black.fgn";
    let (code, html, err) = page(&[view]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(perspectives(&data(&html)), ["black"]);
    let (code, html, err) = page(&["--as", "white", view]);
    assert_eq!(code, 2, "{err}");
    assert!(html.is_empty());
    assert!(err.contains("black's view: it cannot be shown as white"), "{err}");
    let full = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let (code, html, _) = page(&["--as", "white", full]);
    assert_eq!(code, 0);
    assert_eq!(perspectives(&data(&html)), ["white"]);
    // White never saw black's placements: no line of its log names them.
    assert!(!html.contains("0 b place"), "black's setup leaked into white's page");
    // Regression (issue 37, found in review): the page held a frame for
    // every event of the full log, so it told white how many events it saw
    // nothing of, and their lines. A player's page is its view: a frame
    // for the start and for each of its view's lines, nothing else.
    assert!(
        !html.contains("nothing of it is seen"),
        "white's page counts events it did not see"
    );
    let (code, view, err) = run(&["view", "--as", "white", full], b"");
    assert_eq!(code, Some(0), "{err}");
    let lines = view
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    let frames = data(&html)["perspectives"][0]["frames"]
        .as_array()
        .expect("frames")
        .len();
    assert_eq!(frames, lines + 1);
}

/// An invalid log is replayed up to its faulty event and its page holds
/// fgn validate's diagnostic; a player who may not see the faulty event
/// is told only that the log breaks a rule.
#[test]
fn an_invalid_logs_page_holds_its_diagnostic() {
    let log = "corpus/survival-chess/invalid/02-two-queens.fgn";
    let (_, _, validated) = run(&["validate", log], b"");
    let diagnostic = validated.lines().next().expect("a diagnostic");
    let (code, html, err) = page(&[log]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().next(), Some(diagnostic), "reported as validate reports it");
    let data = data(&html);
    let all = &data["perspectives"][0];
    assert_eq!(all["stop"]["message"], diagnostic);
    let faulty = all["stop"]["event"].as_u64().expect("the faulty event") as usize;
    assert_eq!(all["frames"].as_array().expect("frames").len(), faulty + 1);
    assert_eq!(all["stop"]["text"], "0 b place Qc12");
    // White may not see black's placement: its page does not say it.
    let white = &data["perspectives"][1];
    assert_eq!(white["name"], "white");
    assert!(white["stop"]["event"].is_null());
    let told = white["stop"]["message"].as_str().expect("a message");
    assert!(told.contains("at an event white may not see"), "{told}");
    let (code, html, _) = page(&["--as", "white", log]);
    assert_eq!(code, 1);
    assert!(!html.contains("Qc12"), "the hidden event leaked into white's page");
    assert!(
        !html.contains("setup-limit"),
        "the hidden rule leaked into white's page"
    );
}

/// A chat line that spells the end of a script element, or HTML, stays
/// text inside the data: the page keeps its own two script elements.
#[test]
fn a_hostile_chat_line_cannot_close_the_script() {
    let hostile = "</script><script>alert(1)</script><!-- <b>&amp;";
    let log = format!(
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Board \"8x8\"]\n[White \"</title><script>x()</script>\"]\n\n\
         0 w place Ke1\n0 b place Ke8\n0 w ready\n0 b ready\n0 w chat \"{hostile}\"\n"
    );
    let file = scratch("html", "hostile.fgn", log.as_bytes());
    let (code, html, err) = page(&[&file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(html.matches("<script").count(), 2, "{html}");
    assert_eq!(html.matches("</script>").count(), 2);
    assert!(!html.contains("x()</script>"));
    let data = data(&html);
    let last = &data["perspectives"][0]["frames"][5];
    assert_eq!(last["seen"], format!("0 w chat \"{hostile}\""));
    assert!(data["subtitle"].as_str().expect("a subtitle").contains("</title>"));
}

/// `--out DIR` with a directory writes an index that lists every file,
/// with game, players, date, result and validity, and links to a page per
/// game; a file that cannot be parsed is listed with its error and the
/// others are written all the same.
#[test]
fn out_writes_the_index_and_a_page_per_game() {
    let archive = scratch_dir("html-archive");
    let copy = |from: &str, to: &str| {
        let to = archive.join(to);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("a folder");
        std::fs::copy(crate::util::root().join(from), to).expect("a copy");
    };
    copy("corpus/survival-chess/valid/01-bishop-queen-mate.fgn", "2025/mate.fgn");
    copy("corpus/survival-chess/invalid/02-two-queens.fgn", "2025/two queens.fgn");
    copy("corpus/syntax-errors/se-01-bad-square.fgn", "broken.fgn");
    let site = scratch_dir("html-site");
    let archive_arg = archive.display().to_string();
    let site_arg = site.display().to_string();
    let (code, out, err) = run(&["html", &archive_arg, "--out", &site_arg], b"");
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "{out}");
    let index = std::fs::read_to_string(site.join("index.html")).expect("an index");
    assert_self_contained(&index, "the index");
    let rows: Vec<&str> = index.lines().filter(|l| l.starts_with("<tr class=")).collect();
    assert_eq!(rows.len(), 3, "{index}");
    let row = |name: &str| {
        *rows
            .iter()
            .find(|r| r.contains(name))
            .unwrap_or_else(|| panic!("{name}: {index}"))
    };
    // Files are named as found below the directory.
    assert!(!index.contains(&archive_arg), "{index}");
    let mate = row("2025/mate.fgn");
    assert!(mate.contains("<a href=\"2025/mate.fgn.html\">"), "{mate}");
    for field in ["survival-chess", "Anna – Boris", "2025-03-14", "1-0 mate", "valid"] {
        assert!(mate.contains(field), "{field}: {mate}");
    }
    let invalid = row("two queens.fgn");
    assert!(invalid.contains("<a href=\"2025/two_queens.fgn.html\">"), "{invalid}");
    assert!(
        invalid.contains("invalid") && invalid.contains("black may set up at most 1"),
        "{invalid}"
    );
    let broken = row("broken.fgn");
    assert!(
        !broken.contains("<a "),
        "no page for a file that cannot be parsed: {broken}"
    );
    assert!(broken.contains("line 4") && broken.contains("z99"), "{broken}");
    for page in ["2025/mate.fgn.html", "2025/two_queens.fgn.html"] {
        let html = std::fs::read_to_string(site.join(page)).expect("a page");
        assert_self_contained(&html, page);
        assert_eq!(perspectives(&data(&html)), ["all", "white", "black"]);
    }
    assert!(!Path::new(&site.join("broken.fgn.html")).exists());
}

/// Bad input never panics: each log of [`LOGS`] cut short and with a byte
/// changed, at a spread of places, gives a page or a diagnostic (exit 0,
/// 1 or 2), never an internal error.
#[test]
fn damaged_logs_never_crash_the_page() {
    let mut state = 7u64;
    let mut next = move || {
        // xorshift64: the same damage on every run.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for log in LOGS {
        let text = std::fs::read(crate::util::root().join(log)).expect("a corpus log");
        for _ in 0..8 {
            let mut damaged = text.clone();
            damaged.truncate(next() as usize % (text.len() + 1));
            if !damaged.is_empty() {
                let i = next() as usize % damaged.len();
                damaged[i] = next() as u8;
            }
            let out = crate::util::fgn_in_process(&["html", "-"], &damaged)
                .unwrap_or_else(|p| panic!("{log} damaged: html panicked: {p}"));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.code, 0..=2) && !stderr.contains("internal error"),
                "{log} damaged: exit {}\n{stderr}",
                out.code
            );
            if out.code != 2 {
                let page = String::from_utf8(out.stdout).expect("a page is UTF-8");
                assert!(page.is_empty() || data(&page)["perspectives"].is_array(), "{log}");
            }
        }
    }
}

/// Regression (issue 39, item 12): `html --out` overwrote a page or a site
/// without a word, where the other `--out`s now refuse unless --force. A
/// page is refused as every file is; a site as a whole (a directory that
/// holds its index); each says once on standard error what it wrote.
#[test]
fn html_out_refuses_an_existing_page_or_site_unless_forced() {
    let dir = scratch_dir("html-out-policy");
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let page = dir.join("page.html").display().to_string();
    let (code, out, err) = run(&["html", "--out", &page, log], b"");
    assert_eq!(
        (code, out.as_str(), err.clone()),
        (Some(0), "", format!("wrote {page}\n"))
    );
    let (code, _, err) = run(&["html", "--out", &page, log], b"");
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!("error: {page}: not written: it already exists (--force overwrites it)\n")
    );
    let (code, _, err) = run(&["-q", "html", "--force", "--out", &page, log], b"");
    assert_eq!((code, err.as_str()), (Some(0), ""));

    let site = dir.join("site").display().to_string();
    let games = "corpus/magic-draughts/valid";
    let pages = crate::util::fgn_files(&crate::util::corpus().join("magic-draughts/valid")).len();
    let (code, _, err) = run(&["html", "--out", &site, games], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(err, format!("wrote {} files in {site}\n", pages + 1));
    let (code, _, err) = run(&["html", "--out", &site, games], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("not written: it already holds a site"), "{err}");
    let (code, _, err) = run(&["html", "--force", "--out", &site, games], b"");
    assert_eq!(code, Some(0), "{err}");
}
