//! fgn-replay's integration tests: one test binary, one module per concern.
//!
//! Every file under `tests/` directly is a test crate of its own, linked
//! against the library and every dev-dependency; eighteen of them cost
//! eighteen links and eighteen copies of the same code compiled. One
//! binary links once, and its modules still read as separate suites: run
//! one with a filter on its path, e.g. `cargo test -p fgn-replay --test it
//! views::`. The fixtures they read are in `tests/fixtures/`, this
//! binary's insta snapshots in `tests/it/snapshots/`, and proptest's
//! regression files beside the module they belong to
//! (docs/testing.md, "Layout of replay/tests").

// The rules of each game, against independent counts and vectors.
mod hashing;
mod magic_parameters;
mod magic_random;
mod owc_random;
mod salts;

// The game API and the rules' edges.
mod game_api;
mod owc_legal_actions;
mod regressions;
mod relayed_order;
mod rule_edges;

// What the engines make of the corpus, and the accounts they give.
mod changes;
mod chat_leaves_position;
mod corpus_verdicts;

// Players' knowledge and views.
mod knowledge_leaks;
mod view_knowledge;
mod views;

// The generator.
mod gen;

// The shape of the crates: no module circle.
mod module_circles;
