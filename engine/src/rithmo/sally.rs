//! Sally (assault): along a rank or file with `n` empty squares between,
//! `n ≥ 2`, a piece takes an enemy whose value is one of its attack values
//! times `n`. The distance is not limited by the attacker's shape.

use super::bitboard::{Bitboard, Dir};
use super::movegen::{Hits, UNMOVED};
use super::moves::{Move, MoveKind, MoveList};
use super::piece::Side;
use super::position::Position;
use super::rules::RuleSet;

/// The targets a search for sallies looks at: those on some files (reached
/// along a file) and on some ranks (reached along a rank).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    pub files: Bitboard,
    pub ranks: Bitboard,
}

impl Lines {
    pub const ALL: Lines = Lines { files: Bitboard::FULL, ranks: Bitboard::FULL };

    /// The files and ranks through the squares of `s`.
    #[inline(always)]
    pub fn through(s: Bitboard) -> Lines {
        // Every rank folded onto the first gives the files; a rank with a
        // square filled out gives the ranks.
        let mut f = s.0;
        f |= f >> 64;
        f |= f >> 32;
        f |= f >> 16;
        f |= f >> 8;
        let files = (f & 0xFF) * 0x0101_0101_0101_0101_0101_0101_0101_0101;
        let mut r = s.0;
        r |= (r >> 1) & 0x7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F;
        r |= (r >> 2) & 0x3F3F_3F3F_3F3F_3F3F_3F3F_3F3F_3F3F_3F3F;
        r |= (r >> 4) & 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F;
        let ranks = (r & 0x0101_0101_0101_0101_0101_0101_0101_0101) * 0xFF;
        Lines { files: Bitboard(files), ranks: Bitboard(ranks) }
    }
}

/// Every sally of the pieces on `own` onto those on `enemy` on `lines`:
/// the enemy pieces at the end of a free line of enough squares from a
/// piece of `own`, each attacked by that piece; along the ranks only when
/// the armies share one (`lateral`).
#[inline(always)]
pub(crate) fn captures(hits: &mut Hits, own: Bitboard, enemy: Bitboard, lateral: bool, lines: Lines) {
    let all = own | enemy;
    let free = !all;
    let min = hits.rules.sally_min_between;
    // Pyramids attack with several values and are struck at their bottom
    // layer: pairs involving one take the general way.
    let own_pyramids = own & hits.pyramids;
    crate::each_dir!(D => {
        let vertical = matches!(D, Dir::North | Dir::South);
        if lateral || vertical {
            let mut start = (own.step(D) & free).step(D) & free;
            for _ in 2..min {
                start = start.step(D) & free;
            }
            let on = if vertical { lines.files } else { lines.ranks };
            let lined = Bitboard::slide(start, free, D).step(D) & enemy & on;
            for t in lined.iter() {
                // The attacker: the first piece behind the target.
                let Some(from) = all.nearest(t, D.opposite()) else { continue };
                // Squares strictly between, from the index difference (the
                // target lies ahead of the attacker in `D`).
                let gap = if matches!(D, Dir::North | Dir::East) { t.0 - from.0 } else { from.0 - t.0 } as u32;
                let n = if vertical { gap >> 3 } else { gap } - 1;
                if own_pyramids.contains(from) || hits.pyramids.contains(t) {
                    hits.attack(from, t, n);
                } else if hits.value_at(from) as u32 * n == hits.value_at(t) as u32 {
                    // Two men: one attack value, one target value.
                    hits.caps.push(Move::new(from, t, MoveKind::Capture));
                }
            }
        }
    });
}

/// The sallies one side has in a position, kept for the positions one move
/// later where that side replies: a move changes sallies only along the
/// files and ranks of the squares it changes, so the others carry over.
pub(crate) struct Known {
    moves: MoveList,
}

impl Known {
    /// The sallies of `side` in `pos` (whoever is to move).
    #[inline(always)]
    pub fn new(pos: &Position, rules: &RuleSet, side: Side) -> Known {
        let mut moves = MoveList::new();
        if rules.sally {
            let (own, enemy) = (pos.occupied(side), pos.occupied(side.other()));
            if !own.is_empty() && !enemy.is_empty() {
                let pyramids = pos.shape_bb(super::piece::Shape::Pyramid);
                let mut hits = Hits { pos, rules, pyramids, caps: &mut moves, moved: UNMOVED };
                captures(&mut hits, own, enemy, own.spans_meet(enemy), Lines::ALL);
            }
        }
        Known { moves }
    }

    /// Appends the sallies on lines other than `changed`'s.
    #[inline(always)]
    pub fn kept(&self, changed: Lines, out: &mut MoveList) {
        for &m in self.moves.iter() {
            let line = if m.from.file() == m.to.file() { changed.files } else { changed.ranks };
            if !line.contains(m.to) {
                out.push(m);
            }
        }
    }
}
