//! Checks the Russian-draughts move generator against `fixtures/draughts_perft.txt`:
//! for every position, the sorted list of legal moves and the perft counts.
//!
//! Line format (see the file's header comment):
//! `side=<w|b> ; white=<list> ; black=<list> ;D1 <n> ;D2 <n> ... ; moves=<moves> [; name=...]`,
//! where a list is comma-separated squares with `K` before kings, or `-`.

use std::path::PathBuf;

use super::DraughtsBoard;
use fgn_notation::{Color, Square};

/// One fixture line.
struct Case {
    line: usize,
    name: String,
    position: DraughtsBoard,
    counts: Vec<(u32, u64)>,
    moves: Vec<String>,
}

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/draughts_perft.txt")
}

/// Men and kings of a comma-separated list such as `a1,c1,Kd4`, or `-`.
fn pieces(list: &str) -> Result<(Vec<Square>, Vec<Square>), String> {
    let (mut men, mut kings) = (Vec::new(), Vec::new());
    if list == "-" {
        return Ok((men, kings));
    }
    for item in list.split(',').map(str::trim) {
        let (target, name) = match item.strip_prefix('K') {
            Some(name) => (&mut kings, name),
            None => (&mut men, item),
        };
        target.push(
            name.parse::<Square>()
                .map_err(|e| format!("bad square {item:?}: {e}"))?,
        );
    }
    Ok((men, kings))
}

fn parse_case(line_no: usize, line: &str) -> Result<Case, String> {
    let (mut side, mut white, mut black, mut moves, mut name) = (None, None, None, None, String::new());
    let mut counts = Vec::new();
    for field in line.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        if let Some(rest) = field
            .strip_prefix('D')
            .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        {
            let (depth, count) = rest
                .split_once(' ')
                .ok_or_else(|| format!("bad count field {field:?}"))?;
            let depth = depth.parse().map_err(|_| format!("bad depth in {field:?}"))?;
            let count = count.trim().parse().map_err(|_| format!("bad count in {field:?}"))?;
            counts.push((depth, count));
            continue;
        }
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| format!("unknown field {field:?}"))?;
        let value = value.trim();
        match key.trim() {
            "side" => side = Some(value.parse::<Color>().map_err(|e| format!("bad side: {e}"))?),
            "white" => white = Some(pieces(value)?),
            "black" => black = Some(pieces(value)?),
            "moves" => {
                moves = Some(
                    value
                        .split_whitespace()
                        .filter(|m| *m != "-")
                        .map(str::to_owned)
                        .collect(),
                );
            }
            "name" => name = value.to_owned(),
            other => return Err(format!("unknown field {other:?}")),
        }
    }
    let ((wm, wk), (bm, bk)) = (white.ok_or("no white=")?, black.ok_or("no black=")?);
    let position = DraughtsBoard::from_pieces(&wm, &wk, &bm, &bk, side.ok_or("no side=")?)?;
    Ok(Case {
        line: line_no,
        name,
        position,
        counts,
        moves: moves.ok_or("no moves=")?,
    })
}

fn load_cases() -> Vec<Case> {
    let path = fixture_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_case(i + 1, line) {
            Ok(case) => cases.push(case),
            Err(e) => panic!("{}:{}: {e}", path.display(), i + 1),
        }
    }
    assert!(!cases.is_empty(), "{} holds no positions", path.display());
    cases
}

#[test]
fn depth_one_move_lists_match() {
    let mut failures = Vec::new();
    let mut list = Vec::new();
    let cases = load_cases();
    for case in &cases {
        case.position.legal_moves(&mut list);
        let mut ours: Vec<String> = list.iter().map(ToString::to_string).collect();
        ours.sort();
        if ours != case.moves {
            let missing: Vec<&String> = case.moves.iter().filter(|m| !ours.contains(m)).collect();
            let extra: Vec<&String> = ours.iter().filter(|m| !case.moves.contains(m)).collect();
            failures.push(format!(
                "line {} ({}) {}: missing {missing:?}, extra {extra:?}, ours {ours:?}",
                case.line, case.name, case.position
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} positions differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_counts_match() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in load_cases() {
        for &(depth, expected) in &case.counts {
            checked += 1;
            let ours = case.position.perft(depth);
            if ours != expected {
                failures.push(format!(
                    "line {} ({}) D{depth}: expected {expected}, got {ours}; {}",
                    case.line, case.name, case.position
                ));
            }
        }
    }
    eprintln!("checked {checked} perft counts");
    assert!(
        failures.is_empty(),
        "{} counts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
