//! Ambush: two pieces of the mover whose regular moves both reach an enemy
//! piece take it when two of their attack values add up to its value. The
//! move is made by one of them; the other stays.

use arrayvec::ArrayVec;

use super::bitboard::Dir;
use super::movegen::{Hits, Reach};
use super::moves::{Move, MoveKind};
use super::position::AttackSet;
use super::square::Square;

/// Every ambush onto the enemy pieces that two or more regular moves reach:
/// each of those pieces may be the one that moves, any other its partner
/// (the attackers are where `hits.pos` has them).
pub(crate) fn captures(hits: &mut Hits, reach: &Reach) {
    let (pos, rules) = (hits.pos, hits.rules);
    for t in reach.twice.iter() {
        let mut by: ArrayVec<(Square, AttackSet), 16> = ArrayVec::new();
        for j in 0..(rules.n_distances as usize).min(4) {
            let k = rules.distances[j];
            for d in Dir::ALL {
                if reach.by[j][d as usize].contains(t) {
                    let from = Square((t.0 as i16 - d.delta() as i16 * k as i16) as u8);
                    by.push((from, pos.attack_values(from, rules.pyramid_attacks_with_total)));
                }
            }
        }
        let whole = hits.value_at(t) as u32;
        let bottom = match pos.pyramid_at(t) {
            Some(p) if rules.pyramid_strikes && p.len >= 2 => p.bottom().value() as u32,
            _ => u32::MAX,
        };
        for (i, (from, a)) in by.iter().enumerate() {
            let sums = |target: u32| {
                by.iter().enumerate().any(|(j, (_, b))| {
                    j != i && a.values().iter().any(|&x| b.values().iter().any(|&y| x as u32 + y as u32 == target))
                })
            };
            if sums(whole) {
                hits.caps.push(Move::new(*from, t, MoveKind::Capture));
            }
            if bottom != u32::MAX && sums(bottom) {
                hits.caps.push(Move::new(*from, t, MoveKind::Strike));
            }
        }
    }
}
