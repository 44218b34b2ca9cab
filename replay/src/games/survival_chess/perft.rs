//! Survival-chess move generation against perft counts computed once by
//! independent implementations (python-chess on 8x8 without castling and en
//! passant; a separate generic W x H generator for other sizes). See
//! `fixtures/README.md` for how the files were made.
//!
//! Every depth is checked in every build: `cargo test` builds this crate at
//! opt-level 1 (the root Cargo.toml), where the deepest counts take seconds.

use super::board::board_from_placement;
use fgn_notation::{BoardSize, Color, Square};

struct Case {
    line: usize,
    placement: String,
    side: Color,
    size: BoardSize,
    unmoved: Vec<Square>,
    depths: Vec<(u32, u64)>,
}

fn read(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(" ;");
        let mut head = fields.next().expect("a board").split(' ');
        let placement = head.next().expect("a placement").to_string();
        let side = match head.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            other => panic!("{file}:{}: side {other:?}", i + 1),
        };
        let (mut size, mut unmoved, mut depths) = (None, Vec::new(), Vec::new());
        for f in fields {
            let f = f.trim();
            if let Some(s) = f.strip_prefix("size=") {
                size = Some(s.parse::<BoardSize>().expect("a size"));
            } else if let Some(u) = f.strip_prefix("unmoved=") {
                if u != "-" {
                    unmoved = u.split(',').map(|s| s.parse().expect("a square")).collect();
                }
            } else if let Some(d) = f.strip_prefix('D') {
                let (depth, count) = d.split_once(' ').expect("D<depth> <count>");
                depths.push((depth.parse().expect("a depth"), count.parse().expect("a count")));
            }
        }
        cases.push(Case {
            line: i + 1,
            placement,
            side,
            size: size.expect("size=WxH"),
            unmoved,
            depths,
        });
    }
    cases
}

fn check(file: &str, min_cases: usize) {
    let cases = read(file);
    assert!(cases.len() >= min_cases, "{file}: only {} positions", cases.len());
    let mut checked = 0;
    for case in cases {
        let mut board = board_from_placement(&case.placement, case.size, &case.unmoved)
            .unwrap_or_else(|e| panic!("{file}:{}: {e}", case.line));
        // The early-exit test replay runs after every ply agrees with move
        // generation, in check (mates included) and out of it (stalemates).
        if let Some(&(_, d1)) = case.depths.iter().find(|(d, _)| *d == 1) {
            assert_eq!(
                board.has_legal_move(case.side),
                d1 > 0,
                "{file}:{}: has_legal_move",
                case.line
            );
        }
        for &(depth, expected) in &case.depths {
            let got = board.perft(case.side, depth);
            assert_eq!(
                got, expected,
                "{file}:{}: perft({depth}) of {} {:?}",
                case.line, case.placement, case.side
            );
            checked += 1;
        }
        // Perft takes every move back: the board is as it was read.
        assert_eq!(board.to_string(), case.placement, "{file}:{}", case.line);
    }
    assert!(checked >= min_cases, "{file}: only {checked} counts checked");
}

#[test]
fn perft_8x8_matches_python_chess() {
    check("perft_8x8.txt", 40);
}

#[test]
fn perft_other_sizes_match_the_independent_generator() {
    check("perft_wxh.txt", 20);
}
