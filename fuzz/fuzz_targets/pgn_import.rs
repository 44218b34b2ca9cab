//! PGN read into FGN: `pgn::read_pgn` never panics on any text, and every
//! game it reads goes back to PGN and reads again with the same log hash.
#![no_main]

use fgn_tools::loghash::log_hash;
use fgn_tools::pgn::{read_pgn, write_pgn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for read in read_pgn(text) {
        let Ok(game) = read.game else { continue };
        // A game read from PGN left its setup, so it has a PGN form.
        let again = write_pgn(&game).expect("a game read from PGN writes as PGN");
        let back = read_pgn(&again).remove(0).game.expect("fgn reads the PGN it wrote");
        assert_eq!(log_hash(&back), log_hash(&game));
    }
});
