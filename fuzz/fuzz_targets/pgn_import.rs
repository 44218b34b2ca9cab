//! PGN and PDN read into FGN: `pgn::read_pgn` and `pdn::read_pdn` never
//! panic on any text, and every game they read goes back to its format and
//! reads again with the same log hash.
#![no_main]

use fgn_tools::loghash::log_hash;
use fgn_tools::{pdn, pgn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for read in pgn::read_pgn(text) {
        let Ok(game) = read.game else { continue };
        // A game read from PGN left its setup, so it has a PGN form.
        let again = pgn::write_pgn(&game).expect("a game read from PGN writes as PGN");
        let back = pgn::read_pgn(&again).remove(0).game.expect("fgn reads the PGN it wrote");
        assert_eq!(log_hash(&back), log_hash(&game));
    }
    for read in pdn::read_pdn(text) {
        let Ok(game) = read.game else { continue };
        let again = pdn::write_pdn(&game).expect("a game read from PDN writes as PDN");
        let back = pdn::read_pdn(&again).remove(0).game.expect("fgn reads the PDN it wrote");
        assert_eq!(log_hash(&back), log_hash(&game));
    }
});
