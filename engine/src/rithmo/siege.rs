//! Siege: after a move, every enemy piece none of whose four regular moves is
//! open, and that touches a piece of the mover orthogonally, is removed.

use super::bitboard::{Bitboard, Dir};
use super::movegen::Paths;
use super::piece::Side;
use super::position::Position;
use super::rules::RuleSet;

/// The pieces of `mover`'s opponent besieged in the position as it stands.
pub fn besieged(pos: &Position, mover: Side, rules: &RuleSet) -> Bitboard {
    let mine = pos.occupied(mover);
    let touching = Dir::ALL.into_iter().fold(Bitboard::EMPTY, |acc, d| acc | mine.step(d));
    // Only enemy pieces touching the mover's can be besieged.
    let enemy = pos.occupied(mover.other()) & touching;
    if enemy.is_empty() {
        return Bitboard::EMPTY;
    }
    let paths = Paths::new(!pos.all(), rules.max_distance());
    pos.stuck(rules, mover.other(), &paths) & enemy
}
