//! End-to-end tests: the fgn binary and the libraries over the corpus.
//!
//! One test binary, a module per feature (as ripgrep does), so the corpus
//! and the binary are built once.

mod util;

mod analysis;
mod append;
mod archives;
mod cli;
mod commands;
mod conversions;
mod corpus;
mod diff;
mod gen;
mod hashing;
mod help;
mod html;
mod impact;
mod interchange;
mod leaderboard;
mod limits;
mod multigame;
mod parallel;
mod replay_cmds;
mod rules_check;
mod schema;
mod show_json;
mod show_svg;
mod tables;
mod toy_server;
mod views;
mod walks;
