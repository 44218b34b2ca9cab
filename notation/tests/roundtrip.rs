//! Property tests: printing then parsing gives back the same game, for
//! generated events of all four games under headers of arbitrary tags, and
//! no input makes the parser panic.

use fgn_notation::forms::check_form;
use fgn_notation::*;
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    (0u8..MAX_BOARD_DIM, 0u8..MAX_BOARD_DIM).prop_map(|(f, r)| Square::new(f, r).unwrap())
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn piece() -> impl Strategy<Value = PieceKind> {
    prop::sample::select(PieceKind::ALL.to_vec())
}

fn unit() -> impl Strategy<Value = UnitKind> {
    prop::sample::select(UnitKind::ALL.to_vec())
}

fn figure() -> impl Strategy<Value = Figure> {
    prop_oneof![piece().prop_map(Figure::Piece), unit().prop_map(Figure::Unit)]
}

fn placements() -> impl Strategy<Value = Vec<Placement>> {
    prop::collection::vec(
        (figure(), square()).prop_map(|(figure, square)| Placement { figure, square }),
        1..12,
    )
}

/// Text without control characters, quotes and backslashes included.
fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ;{}\\[\\]\"\\\\é漢-]{0,24}"
}

fn chess_move() -> impl Strategy<Value = ChessMove> {
    (
        piece(),
        prop::option::weighted(0.8, square()),
        prop::option::weighted(0.8, square()),
        any::<bool>(),
        prop::option::of(prop::sample::select(vec![
            PieceKind::Queen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
        ])),
        prop::option::of(prop_oneof![Just(Check::Check), Just(Check::Mate)]),
    )
        .prop_map(|(piece, from, to, capture, promotion, check)| ChessMove {
            piece,
            from,
            to,
            capture,
            promotion,
            check,
        })
}

fn spell() -> impl Strategy<Value = Spell> {
    prop_oneof![
        (1u8..=5).prop_map(|n| Spell::Skip {
            number: SpellNumber::new(n).unwrap()
        }),
        (0u8..26).prop_map(|f| Spell::Fury {
            file: File::new(f).unwrap()
        }),
        (square(), square()).prop_map(|(from, to)| Spell::Potion { from, to }),
        (square(), square()).prop_map(|(from, to)| Spell::Charm { from, to }),
        square().prop_map(|square| Spell::Firebird { square }),
        prop::collection::vec(square(), 0..6).prop_map(|squares| Spell::Revenge { squares }),
    ]
}

fn object() -> impl Strategy<Value = ObjectKind> {
    prop::sample::select(ObjectKind::ALL.to_vec())
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        placements().prop_map(|placements| Action::Place { placements }),
        (prop::option::of(unit()), square()).prop_map(|(unit, square)| Action::Remove { unit, square }),
        Just(Action::Ready),
        Just(Action::End),
        Just(Action::Resign),
        text().prop_map(|text| Action::Chat { text }),
        any::<bool>().prop_map(|granted| Action::Extra { granted }),
        color().prop_map(|color| Action::Timeout { color }),
        (
            prop::sample::select(vec![
                Outcome::WhiteWins,
                Outcome::BlackWins,
                Outcome::Draw,
                Outcome::Abort
            ]),
            prop::sample::select(Reason::ALL.to_vec())
        )
            .prop_map(|(outcome, reason)| Action::Result { outcome, reason }),
        any::<[u8; 32]>().prop_map(|s| Action::Seed { seed: Seed(s) }),
        prop::collection::vec(any::<u8>(), 1..=64).prop_map(|b| Action::Salt {
            salt: Box::new(Salt::new(&b).unwrap())
        }),
        chess_move().prop_map(Action::Move),
        (
            prop::sample::select(vec![Item::Range, Item::Hp, Item::Drain, Item::Curse]),
            prop::option::of(square()),
            any::<bool>()
        )
            .prop_map(|(item, square, hidden)| Action::Buy { item, square, hidden }),
        (square(), object()).prop_map(|(square, object)| Action::Spawn { square, object }),
        (square(), 1u8..=255).prop_map(|(square, amount)| Action::Damage { square, amount }),
        square().prop_map(|square| Action::Clone { square }),
        (
            prop::sample::subsequence(vec![UnitKind::Infantry, UnitKind::Cavalry, UnitKind::Artillery], 1..=3),
            square(),
            square(),
            any::<bool>()
        )
            .prop_map(|(units, from, to, capture)| Action::March(UnitMove {
                units: UnitSet::new(&units).unwrap(),
                from,
                to,
                capture
            })),
        (square(), square()).prop_map(|(from, to)| Action::Shot { from, to }),
        (prop::collection::vec(square(), 2..=16), any::<bool>()).prop_map(|(sq, capture)| Action::Draughts {
            path: Path::new(&sq).unwrap(),
            capture
        }),
        (square(), 0u8..=5).prop_map(|(square, n)| Action::Reveal {
            square,
            number: MagicNumber::new(n).unwrap()
        }),
        spell().prop_map(Action::Spell),
        Just(Action::Hidden),
        (
            square(),
            prop::option::of(
                (color(), piece(), 1u64..=u64::MAX, prop::option::of(1u64..=u64::MAX))
                    .prop_map(|(color, piece, hp, max)| SeenPiece { color, piece, hp, max })
            ),
            prop::option::of(object())
        )
            .prop_map(|(square, piece, object)| Action::See {
                square,
                piece,
                object,
                hidden: false
            }),
        square().prop_map(|square| Action::See {
            square,
            piece: None,
            object: None,
            hidden: true
        }),
        any::<u64>().prop_map(|count| Action::Coins { count }),
        square().prop_map(|square| Action::Held { square }),
        (color(), placements()).prop_map(|(color, placements)| Action::Setup { color, placements }),
    ]
}

fn actor() -> impl Strategy<Value = Actor> {
    prop_oneof![
        Just(Actor::Player(Color::White)),
        Just(Actor::Player(Color::Black)),
        Just(Actor::World)
    ]
}

fn clock() -> impl Strategy<Value = Option<Clock>> {
    prop::option::of((0u64..=types::MAX_CLOCK_SECONDS * 1000 + 999).prop_map(Clock))
}

fn tag(name: &str, value: &str) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
    }
}

/// The tags whose values the notation checks (docs/notation.md §3.3);
/// every other well-formed name takes any value.
const CHECKED_TAGS: [&str; 8] = [
    "Game",
    "Rules",
    "Perspective",
    "Mode",
    "Board",
    "TimeControl",
    "Merchants",
    "SeedCommit",
];

/// Any value a tag without a checked syntax may hold: text without control
/// characters or a byte order mark (§2.1), often made of the characters
/// quoting is about (`"`, `\`, also last, `;`, `[`, `]`, and spaces at
/// either end).
fn tag_value() -> impl Strategy<Value = String> {
    prop_oneof!["[^\\p{Cc}\\x{FEFF}]{0,24}", "[\"\\\\;\\[\\] x]{0,8}"]
}

/// Tags the notation does not check, with any well-formed name (§3.1:
/// `[A-Za-z][A-Za-z0-9_]*`, so also `game`, `Board_`, `X`) and any value.
fn free_tags() -> impl Strategy<Value = Vec<Tag>> {
    let name =
        "[A-Za-z][A-Za-z0-9_]{0,12}".prop_filter("a tag the notation checks", |n| !CHECKED_TAGS.contains(&n.as_str()));
    prop::collection::btree_map(name, tag_value(), 0..8)
        .prop_map(|tags| tags.iter().map(|(name, value)| tag(name, value)).collect())
}

/// Some of the checked tags besides `Game`, `Rules` and `Perspective`, each
/// with a value in its canonical spelling (the only one that prints and
/// reads back unchanged).
fn checked_tags() -> impl Strategy<Value = Vec<Tag>> {
    let seconds = 1u32..=u32::MAX;
    (
        prop::option::of(prop::sample::select(vec!["single", "multiplayer"]).prop_map(|m| tag("Mode", m))),
        prop::option::of(
            (1u8..=MAX_BOARD_DIM, 1u8..=MAX_BOARD_DIM).prop_map(|(w, h)| tag("Board", &format!("{w}x{h}"))),
        ),
        prop::option::of(
            (prop::option::of(seconds.clone()), prop::option::of(seconds))
                .prop_filter("a time control has a part", |(s, m)| s.is_some() || m.is_some())
                .prop_map(|(setup, moves)| {
                    let parts: Vec<String> = [setup.map(|s| format!("setup={s}")), moves.map(|m| format!("move={m}"))]
                        .into_iter()
                        .flatten()
                        .collect();
                    tag("TimeControl", &parts.join(" "))
                }),
        ),
        // A set of squares is in square order, the canonical one; it may be empty.
        prop::option::of(prop::collection::btree_set(square(), 0..5).prop_map(|squares| {
            let names: Vec<String> = squares.iter().map(Square::to_string).collect();
            tag("Merchants", &names.join(" "))
        })),
        prop::option::of(any::<[u8; 32]>().prop_map(|s| tag("SeedCommit", &format!("blake3:{}", Seed(s))))),
    )
        .prop_map(|(mode, board, time, merchants, commit)| {
            [mode, board, time, merchants, commit].into_iter().flatten().collect()
        })
}

/// A header of a game of `kind` as `view` sees it: `Game`, `Rules` with any
/// version text, `Perspective` where the view needs one (or `all`, the
/// full log's spelling, sometimes), checked and free tags, in any order
/// that keeps `Perspective` right after `Rules` (§3.2).
fn header(kind: GameKind, view: Option<Color>) -> impl Strategy<Value = Header> {
    ("[^\\p{Cc}\\x{FEFF}]{1,8}", any::<bool>(), checked_tags(), free_tags()).prop_flat_map(
        move |(rules, all, checked, free)| {
            let mut rules_and_perspective = vec![tag("Rules", &rules)];
            match view {
                Some(color) => rules_and_perspective.push(tag("Perspective", color.name())),
                None if all => rules_and_perspective.push(tag("Perspective", "all")),
                None => {}
            }
            let mut groups = vec![vec![tag("Game", kind.name())], rules_and_perspective];
            groups.extend(checked.into_iter().chain(free).map(|t| vec![t]));
            Just(groups).prop_shuffle().prop_map(|groups| Header {
                tags: groups.into_iter().flatten().collect(),
            })
        },
    )
}

/// A game of a random kind and view whose events are all forms that game
/// admits, under a header of arbitrary tags.
fn game() -> impl Strategy<Value = Game> {
    (prop::sample::select(GameKind::ALL.to_vec()), prop::option::of(color())).prop_flat_map(|(kind, view)| {
        let event = (any::<u32>(), actor(), action(), clock())
            .prop_map(|(n, actor, action, clock_ms)| Event {
                n: MoveNumber(n),
                actor,
                action,
                clock_ms,
            })
            .prop_filter("a form the game admits", move |e| check_form(kind, view, e).is_ok());
        (prop::collection::vec(event, 0..30), header(kind, view)).prop_map(|(events, header)| Game { header, events })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, max_local_rejects: 1_000_000, ..ProptestConfig::default() })]

    #[test]
    fn printing_then_parsing_gives_the_same_game(game in game()) {
        let text = game.canonical_text();
        let parsed = parse(text.as_bytes());
        prop_assert!(parsed.diagnostics.is_empty(), "{:?}\n{text}", parsed.diagnostics);
        prop_assert_eq!(&parsed.document.game, &game);
        // The canonical text is a fixed point of formatting.
        prop_assert_eq!(parsed.document.formatted(), text);
    }

    #[test]
    fn json_then_back_gives_the_same_game(game in game()) {
        let json = json::to_json(&game).to_string();
        let back = json::from_json(&json).map_err(TestCaseError::fail)?;
        prop_assert_eq!(back, game);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let parsed = parse(&bytes);
        prop_assert!(parsed.diagnostics.len() <= MAX_DIAGNOSTICS + 1);
    }

    #[test]
    fn a_junk_line_loses_no_valid_event(game in game(), at in any::<prop::sample::Index>(), junk in "[\\x00-\\x7f]{0,12}") {
        let text = game.canonical_text();
        let mut lines: Vec<&str> = text.lines().collect();
        // After the header's blank line, so the junk cannot stand before a tag.
        let first_event_line = game.header.tags.len() + 1;
        let junk = junk.replace(['\n', '\r'], "");
        lines.insert(first_event_line + at.index(lines.len() - first_event_line + 1), &junk);
        let damaged = lines.join("\n") + "\n";
        let parsed = parse(damaged.as_bytes());
        let mut read = parsed.document.game.events.iter();
        for e in &game.events {
            prop_assert!(read.any(|r| r == e), "lost {e} after inserting {junk:?}");
        }
    }
}

#[test]
fn formatting_keeps_comments_where_they_stood() {
    let src = "; top\n[Game \"survival-chess\"]  ;  g \n[Rules \"1.0\"]\n\n; before first\n1 w e2-e4   ; x\n;tail\n";
    let parsed = parse(src.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    let out = parsed.document.formatted();
    assert_eq!(
        out,
        "; top\n[Game \"survival-chess\"] ; g\n[Rules \"1.0\"]\n\n; before first\n1 w e2-e4 ; x\n; tail\n"
    );
    assert_eq!(parse(out.as_bytes()).document.formatted(), out);
}

#[test]
fn a_bad_token_on_line_4_is_reported_at_its_column() {
    let src = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-z99\n1 b e11-e9\n";
    let parsed = parse(src.as_bytes());
    assert_eq!(parsed.diagnostics.len(), 1);
    let d = &parsed.diagnostics[0];
    assert_eq!((d.line, d.column), (4, 8));
    assert!(d.message.contains("z99"), "{}", d.message);
    // The good line after it is still read.
    assert_eq!(parsed.document.game.events.len(), 1);
}

#[test]
fn a_torn_last_line_is_reported_and_the_rest_is_read() {
    let src = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-e4\n1 b e11";
    let parsed = parse(src.as_bytes());
    assert_eq!(parsed.diagnostics.len(), 1);
    assert!(parsed.diagnostics[0].message.contains("torn append"));
    assert_eq!((parsed.diagnostics[0].line, parsed.diagnostics[0].column), (5, 8));
    assert_eq!(parsed.document.game.events.len(), 1);
}

#[test]
fn crlf_is_accepted_and_lf_written() {
    let src = "[Game \"magic-draughts\"]\r\n[Rules \"1.0\"]\r\n\r\n1 w c3-d4\r\n";
    let parsed = parse(src.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    assert_eq!(
        parsed.document.formatted(),
        "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n\n1 w c3-d4\n"
    );
}

#[test]
fn every_error_is_reported_up_to_the_cap() {
    let mut src = String::from("[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n");
    for _ in 0..500 {
        src.push_str("1 w bogus\n");
    }
    let parsed = parse(src.as_bytes());
    assert_eq!(parsed.diagnostics.len(), MAX_DIAGNOSTICS + 1);
    assert!(parsed.diagnostics.last().unwrap().message.contains("more than"));
}

#[test]
fn huge_and_long_inputs_get_errors_not_allocations() {
    let long = format!(
        "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w chat \"{}\"\n",
        "a".repeat(MAX_LINE_BYTES)
    );
    let parsed = parse(long.as_bytes());
    assert_eq!(parsed.diagnostics.len(), 1);
    assert!(parsed.diagnostics[0].message.contains("at most 4096 bytes"));
    let huge = vec![b'\n'; MAX_FILE_BYTES + 1];
    let parsed = parse(&huge);
    assert!(parsed.diagnostics[0].message.contains("the most FGN reads"));
}

#[test]
fn invalid_utf8_is_pinned_to_its_column() {
    let mut src = b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w chat \"ab".to_vec();
    src.extend_from_slice(&[0xff, b'"', b'\n']);
    let parsed = parse(&src);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!((parsed.diagnostics[0].line, parsed.diagnostics[0].column), (4, 13));
}

#[test]
fn perspective_all_is_the_full_log() {
    let src = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n[Perspective \"all\"]\n\n1 w e2-e4\n";
    let parsed = parse(src.as_bytes());
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.document.game.perspective(), None);
    assert_eq!(parsed.document.formatted(), src, "kept as written");
}

#[test]
fn comments_keep_non_ascii_spaces_inside() {
    let src = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-e4 ;\u{3000}x\u{3000}\n";
    let parsed = parse(src.as_bytes());
    assert_eq!(parsed.document.formatted(), src.replace(";\u{3000}", "; \u{3000}"));
}

#[test]
fn an_unreadable_event_line_still_ends_the_header() {
    let src = "[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w chat \"a\tb\"\n[White \"late\"]\n";
    let parsed = parse(src.as_bytes());
    let lines: Vec<u32> = parsed.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(lines, [4, 5], "{:?}", parsed.diagnostics);
}

/// A salt is 1 to 64 bytes of lower-case hex (docs/notation.md §5.1): each
/// way of missing that is reported at the salt's token with its own words.
#[test]
fn salts_are_whole_bytes_of_lower_case_hex() {
    let game = |event: &str| format!("[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n{event}\n");
    let longest = "ab".repeat(64);
    for ok in [
        "0 w salt 00",
        "0 b salt 0123456789abcdef",
        &format!("0 w salt {longest}"),
    ] {
        let parsed = parse(game(ok).as_bytes());
        assert!(parsed.is_ok(), "{ok}: {:?}", parsed.diagnostics);
        assert_eq!(parsed.document.game.events[0].to_string(), ok);
    }
    for (bad, says) in [
        ("0 w salt 0A", "upper case"),
        ("0 w salt abc", "even number of hex digits"),
        ("0 w salt xy", "hex digits only"),
        (&format!("0 w salt {longest}00"), "at most 64 bytes"),
    ] {
        let parsed = parse(game(bad).as_bytes());
        assert_eq!(parsed.diagnostics.len(), 1, "{bad}");
        let d = &parsed.diagnostics[0];
        assert!(d.message.contains(says), "{bad}: {}", d.message);
        assert_eq!((d.line, d.column), (4, 10), "{bad}: {}", d.message);
    }
    let missing = parse(game("0 w salt").as_bytes());
    let d = &missing.diagnostics[0];
    assert!(d.message.contains("2 to 128 lower-case hex digits"), "{}", d.message);
    assert_eq!((d.line, d.column), (4, 9), "at the end of the line");
    // A salt is a player's: the world has none, and games without a world
    // seed have no salts at all.
    let by_world = parse(game("0 @ salt 00").as_bytes());
    assert!(
        by_world.diagnostics[0].message.contains("player's action"),
        "{:?}",
        by_world.diagnostics
    );
    let survival = parse(b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n0 w salt 00\n");
    assert!(
        survival.diagnostics[0]
            .message
            .contains("not an action of survival-chess"),
        "{:?}",
        survival.diagnostics
    );
}

/// Salts are public, so a view keeps them: the form is admitted in views.
#[test]
fn a_view_may_hold_salts() {
    let parsed = parse(b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n[Perspective \"black\"]\n\n0 w salt 5eed\n");
    assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
}

/// The JSON form of a salt is its hex text, read back only when the text
/// form could hold it.
#[test]
fn a_salt_in_json_is_its_hex() {
    let text = "[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n\n0 b salt 00ff\n";
    let game = parse(text.as_bytes()).document.game;
    let json = json::to_json(&game);
    assert_eq!(
        json["events"][0]["action"],
        serde_json::json!({"type": "salt", "salt": "00ff"})
    );
    assert_eq!(json::from_json(&json.to_string()).unwrap(), game);
    let mut upper = json.clone();
    upper["events"][0]["action"]["salt"] = "00FF".into();
    assert!(json::from_json(&upper.to_string()).unwrap_err().contains("upper case"));
    let mut empty = json;
    empty["events"][0]["action"]["salt"] = "".into();
    assert!(json::from_json(&empty.to_string()).is_err());
}
