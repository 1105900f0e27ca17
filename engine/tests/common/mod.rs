//! What the Rithmomachia tests share.

use engine::rithmo::{Move, Square};
use rand::Rng;

/// A random move that favours action: with probability `p` one of the
/// captures and strikes, if there are any, else any legal move.
pub fn biased_move(moves: &[Move], p: f64, rng: &mut impl Rng) -> Move {
    let tactical: Vec<Move> = moves.iter().copied().filter(|m| m.is_tactical()).collect();
    if !tactical.is_empty() && rng.random_bool(p) {
        tactical[rng.random_range(0..tactical.len())]
    } else {
        moves[rng.random_range(0..moves.len())]
    }
}

/// The board field of an RFEN (ranks 16 down to 1, files a to h) with the
/// piece token `at(square)` on each square that has one.
#[allow(dead_code)] // not every test binary builds positions by hand
pub fn rfen_board<'a>(at: impl Fn(Square) -> Option<&'a str>) -> String {
    let mut ranks = Vec::new();
    for rank in (0..16).rev() {
        let (mut toks, mut empty) = (Vec::new(), 0);
        for file in 0..8 {
            match at(Square::new(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        toks.push(empty.to_string());
                        empty = 0;
                    }
                    toks.push(p.to_string());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            toks.push(empty.to_string());
        }
        ranks.push(toks.join(","));
    }
    ranks.join("/")
}
