//! Ambush: two pieces of the mover whose regular moves both reach an enemy
//! piece take it when two of their attack values add up to its value. The
//! move is made by one of them; the other stays.

use super::encounter::Reacher;
use super::moves::MoveKind;
use super::square::Square;

/// Ambush captures and strikes onto one target: each reacher may be the one
/// that moves, with any other as its partner.
pub fn moves(reachers: &[Reacher], targets: &[(u16, MoveKind)], out: &mut impl FnMut(Square, MoveKind)) {
    for (i, a) in reachers.iter().enumerate() {
        for &(t, kind) in targets {
            let found = reachers.iter().enumerate().any(|(j, b)| {
                j != i
                    && a.attacks
                        .values()
                        .iter()
                        .any(|&x| b.attacks.values().iter().any(|&y| x as u32 + y as u32 == t as u32))
            });
            if found {
                out(a.from, kind);
            }
        }
    }
}
