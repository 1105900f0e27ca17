//! Sally (assault): along a rank or file with `n` empty squares between,
//! `n ≥ 2`, a piece takes an enemy whose value is one of its attack values
//! times `n`. The distance is not limited by the attacker's shape.

use super::bitboard::Dir;
use super::moves::MoveKind;
use super::position::Position;
use super::rules::RuleSet;
use super::square::Square;

/// Sally captures and strikes onto the enemy piece on `t` by pieces moving
/// in the directions whose bits are set in `dirs` (the attacker lies the
/// other way from `t`).
pub fn moves(
    pos: &Position,
    t: Square,
    dirs: u8,
    targets: &[(u16, MoveKind)],
    rules: &RuleSet,
    out: &mut impl FnMut(Square, MoveKind),
) {
    let all = pos.all();
    let own = pos.occupied(pos.side_to_move());
    for dir in Dir::ALL.into_iter().filter(|d| dirs >> *d as u8 & 1 == 1) {
        // The first piece met walking from the target against `dir`.
        let back = dir.opposite();
        let Some(from) = all.nearest(t, back) else { continue };
        let n = (from.file().abs_diff(t.file()) + from.rank().abs_diff(t.rank())) - 1;
        if n < rules.sally_min_between || !own.contains(from) {
            continue;
        }
        for &a in pos.attack_values(from, rules.pyramid_attacks_with_total).values() {
            for &(t, kind) in targets {
                if a as u32 * n as u32 == t as u32 {
                    out(from, kind);
                }
            }
        }
    }
}
