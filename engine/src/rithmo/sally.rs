//! Sally (assault): along a rank or file with `n` empty squares between,
//! `n ≥ 2`, a piece takes an enemy whose value is one of its attack values
//! times `n`. The distance is not limited by the attacker's shape.

use super::bitboard::{Bitboard, Dir};
use super::movegen::Hits;
use super::moves::{Move, MoveKind};

/// Every sally: the enemy pieces at the end of a free line of enough squares
/// from a piece of the mover, each attacked by that piece; along the ranks
/// only when the armies share one (`lateral`).
#[inline(always)]
pub(crate) fn captures(hits: &mut Hits, lateral: bool) {
    let pos = hits.pos;
    let own = pos.occupied(pos.side_to_move());
    let enemy = pos.occupied(pos.side_to_move().other());
    let all = pos.all();
    let free = !all;
    let min = hits.rules.sally_min_between;
    crate::each_dir!(D => {
        if lateral || matches!(D, Dir::North | Dir::South) {
            let mut start = (own.step(D) & free).step(D) & free;
            for _ in 2..min {
                start = start.step(D) & free;
            }
            let lined = Bitboard::slide(start, free, D).step(D) & enemy;
            for t in lined.iter() {
                // The attacker: the first piece behind the target.
                let Some(from) = all.nearest(t, D.opposite()) else { continue };
                // Squares strictly between, from the index difference.
                let gap = from.0.abs_diff(t.0) as u32;
                let n = if matches!(D, Dir::North | Dir::South) { gap / 8 } else { gap } - 1;
                if hits.pyramids.contains(from) || hits.pyramids.contains(t) {
                    hits.attack(from, t, n);
                } else if pos.value_at(from) as u32 * n == pos.value_at(t) as u32 {
                    // Two men: one attack value, one target value.
                    hits.caps.push(Move::new(from, t, MoveKind::Capture));
                }
            }
        }
    });
}
