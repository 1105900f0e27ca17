//! Encounter: a piece whose regular move reaches an enemy piece takes it
//! when one of its attack values equals the target's value. Also finds the
//! pieces that reach a square, which ambush needs too.

use arrayvec::ArrayVec;

use super::bitboard::Dir;
use super::moves::MoveKind;
use super::position::{AttackSet, Position};
use super::rules::RuleSet;
use super::square::Square;

/// A piece of the mover whose regular move reaches the target, with its
/// attack values.
#[derive(Clone, Copy)]
pub struct Reacher {
    pub from: Square,
    pub attacks: AttackSet,
}

/// The values at which the piece on `t` is attacked: its whole value (a
/// capture) and, for a pyramid of two or more layers, its bottom layer (a
/// strike).
pub fn targets(pos: &Position, t: Square, rules: &RuleSet) -> ArrayVec<(u16, MoveKind), 2> {
    let mut v = ArrayVec::new();
    v.push((pos.value_at(t), MoveKind::Capture));
    if rules.pyramid_strikes
        && let Some(p) = pos.pyramid_at(t)
        && p.len >= 2
    {
        v.push((p.bottom().value, MoveKind::Strike));
    }
    v
}

/// The mover's pieces whose regular move (exactly `k` squares, the squares
/// between empty) ends on `t`, into `out`.
pub fn reachers(pos: &Position, t: Square, rules: &RuleSet, out: &mut ArrayVec<Reacher, 16>) {
    let me = pos.side_to_move();
    let own = pos.occupied(me);
    let all = pos.all();
    out.clear();
    for dir in Dir::ALL {
        // Walk away from the target against `dir`.
        let back = dir.opposite();
        for j in 0..rules.n_distances as usize {
            let k = rules.distances[j];
            let Some(from) = t.step(back, k) else { continue };
            if !own.contains(from) {
                continue;
            }
            if rules.distance(pos.shape_of(from)) != k {
                continue;
            }
            let between_free =
                (1..k).all(|i| !all.contains(from.step(dir, i).expect("between squares are on the board")));
            if between_free {
                out.push(Reacher { from, attacks: pos.attack_values(from, rules.pyramid_attacks_with_total) });
            }
        }
    }
}

/// Encounter captures and strikes onto one target.
pub fn moves(reachers: &[Reacher], targets: &[(u16, MoveKind)], out: &mut impl FnMut(Square, MoveKind)) {
    for r in reachers {
        for &(t, kind) in targets {
            if r.attacks.contains(t) {
                out(r.from, kind);
            }
        }
    }
}
