//! Encounter: a piece whose regular move reaches an enemy piece takes it
//! when one of its attack values equals the target's value (the whole value:
//! a capture; the bottom layer of a pyramid: a strike).

use super::bitboard::Dir;
use super::movegen::{Hits, Reach};
use super::square::Square;

/// Every encounter onto the enemy pieces that regular moves reach.
#[inline(always)]
pub(crate) fn captures(hits: &mut Hits, reach: &Reach) {
    for j in 0..(hits.rules.n_distances as usize).min(4) {
        let k = hits.rules.distances[j];
        for d in Dir::ALL {
            for t in reach.by[j][d as usize].iter() {
                let from = Square((t.0 as i16 - d.delta() as i16 * k as i16) as u8);
                hits.attack(from, t, 1);
            }
        }
    }
}
