//! Sally (assault): along a rank or file with `n` empty squares between,
//! `n ≥ 2`, a piece takes an enemy whose value is one of its attack values
//! times `n`. The distance is not limited by the attacker's shape.

use super::bitboard::Dir;
use super::moves::MoveKind;
use super::position::Position;
use super::rules::RuleSet;
use super::square::Square;

/// Sally captures and strikes onto the enemy piece on `t`.
pub fn moves(
    pos: &Position,
    t: Square,
    targets: &[(u16, MoveKind)],
    rules: &RuleSet,
    out: &mut impl FnMut(Square, MoveKind),
) {
    let all = pos.all();
    let own = pos.occupied(pos.side_to_move());
    for dir in Dir::ALL {
        // The first piece met walking from the target along `dir`.
        let mut n = 0u8;
        let mut sq = t;
        let from = loop {
            match sq.step(dir, 1) {
                None => break None,
                Some(next) if all.contains(next) => break Some(next),
                Some(next) => {
                    sq = next;
                    n += 1;
                }
            }
        };
        let Some(from) = from else { continue };
        if n < rules.sally_min_between || !own.contains(from) {
            continue;
        }
        for a in pos.attack_values(from, rules.pyramid_attacks_with_total) {
            for &(t, kind) in targets {
                if a as u32 * n as u32 == t as u32 {
                    out(from, kind);
                }
            }
        }
    }
}
