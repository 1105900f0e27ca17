//! What the Rithmomachia tests share.

use engine::rithmo::Move;
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
