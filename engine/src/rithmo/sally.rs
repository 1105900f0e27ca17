//! Sally (assault): along a rank or file with `n` empty squares between,
//! `n ≥ 2`, a piece takes an enemy whose value is one of its attack values
//! times `n`. The distance is not limited by the attacker's shape.

use super::bitboard::{Bitboard, Dir};
use super::movegen::{Hits, UNMOVED};
use super::moves::{Move, MoveKind, MoveList};
use super::piece::Side;
use super::position::Position;
use super::rules::RuleSet;
use super::square::Square;

/// Some files and ranks of the board, as bits (file `a` and rank 1 the
/// lowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    pub files: u8,
    pub ranks: u16,
}

impl Lines {
    /// The files and ranks through the squares of `s`.
    #[inline(always)]
    pub fn through(s: Bitboard) -> Lines {
        let mut lines = Lines { files: 0, ranks: 0 };
        for sq in s.iter() {
            lines.files |= 1 << sq.file();
            lines.ranks |= 1 << sq.rank();
        }
        lines
    }

    /// The files and ranks of a move's squares.
    #[inline(always)]
    pub fn of_move(m: Move) -> Lines {
        Lines { files: 1 << m.from.file() | 1 << m.to.file(), ranks: 1 << m.from.rank() | 1 << m.to.rank() }
    }

    /// Whether the sally `m` runs along one of these lines.
    #[inline(always)]
    fn holds(&self, m: Move) -> bool {
        if m.from.file() == m.to.file() {
            self.files >> m.to.file() & 1 != 0
        } else {
            self.ranks >> m.to.rank() & 1 != 0
        }
    }
}

/// The squares of file `file` of a set as the bits of a number, rank 1
/// lowest: each half's file gathered into a byte by one multiplication
/// (square `8i` of a half lands on bit `56 + i`, no two products meeting).
#[inline(always)]
fn column(b: Bitboard, file: u32) -> u32 {
    const FILE: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let lo = (b.0 as u64 >> file) & FILE;
    let hi = ((b.0 >> 64) as u64 >> file) & FILE;
    (lo.wrapping_mul(GATHER) >> 56 | hi.wrapping_mul(GATHER) >> 56 << 8) as u32
}

/// Every sally of the pieces on `own` onto those on `enemy`: the enemy
/// pieces at the end of a free line of enough squares from a piece of
/// `own`, each attacked by that piece; along the ranks only when the armies
/// share one (`lateral`).
#[inline(always)]
pub(crate) fn captures(hits: &mut Hits, own: Bitboard, enemy: Bitboard, lateral: bool) {
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
            let lined = Bitboard::slide(start, free, D).step(D) & enemy;
            for t in lined.iter() {
                // The attacker: the first piece behind the target.
                let Some(from) = all.nearest(t, D.opposite()) else { continue };
                // Squares strictly between, from the index difference (the
                // target lies ahead of the attacker in `D`).
                let gap = if matches!(D, Dir::North | Dir::East) { t.0 - from.0 } else { from.0 - t.0 } as u32;
                let n = if vertical { gap >> 3 } else { gap } - 1;
                sally(hits, own_pyramids, from, t, n);
            }
        }
    });
}

/// The piece on `from` attacking the one on `t` across `n` empty squares.
#[inline(always)]
fn sally(hits: &mut Hits, own_pyramids: Bitboard, from: Square, t: Square, n: u32) {
    if own_pyramids.contains(from) || hits.pyramids.contains(t) {
        hits.attack(from, t, n);
    } else if hits.value_at(from) as u32 * n == hits.value_at(t) as u32 {
        // Two men: one attack value, one target value.
        hits.caps.push(Move::new(from, t, MoveKind::Capture));
    }
}

/// The sallies along one line, its squares numbered by `square`: each
/// piece of the attacker (`mine`) and the nearest piece either way.
#[inline(always)]
fn along(hits: &mut Hits, own_pyramids: Bitboard, min: u32, mine: u32, occupied: u32, square: impl Fn(u32) -> Square) {
    let mut o = mine;
    while o != 0 {
        let i = o.trailing_zeros();
        o &= o - 1;
        let above = occupied & !((2 << i) - 1);
        if above != 0 {
            let t = above.trailing_zeros();
            let between = t - i - 1;
            if mine >> t & 1 == 0 && between >= min {
                sally(hits, own_pyramids, square(i), square(t), between);
            }
        }
        let below = occupied & ((1 << i) - 1);
        if below != 0 {
            let t = 31 - below.leading_zeros();
            let between = i - t - 1;
            if mine >> t & 1 == 0 && between >= min {
                sally(hits, own_pyramids, square(i), square(t), between);
            }
        }
    }
}

/// [`captures`] along `lines` alone: on each line, as a number with a bit
/// per square, each piece of `own` and the nearest piece either way.
#[inline(always)]
pub(crate) fn captures_on(hits: &mut Hits, own: Bitboard, enemy: Bitboard, lateral: bool, lines: Lines) {
    let min = hits.rules.sally_min_between as u32;
    let own_pyramids = own & hits.pyramids;
    let all = own | enemy;
    let mut files = lines.files as u32;
    while files != 0 {
        let f = files.trailing_zeros();
        files &= files - 1;
        along(hits, own_pyramids, min, column(own, f), column(all, f), |i| Square((i * 8 + f) as u8));
    }
    if lateral {
        let mut ranks = lines.ranks as u32;
        while ranks != 0 {
            let r = ranks.trailing_zeros();
            ranks &= ranks - 1;
            let row = |b: Bitboard| (b.0 >> (8 * r)) as u32 & 0xFF;
            along(hits, own_pyramids, min, row(own), row(all), |i| Square((r * 8 + i) as u8));
        }
    }
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
                captures(&mut hits, own, enemy, own.spans_meet(enemy));
            }
        }
        Known { moves }
    }

    /// Appends the sallies on lines other than `changed`'s.
    #[inline(always)]
    pub fn kept(&self, changed: Lines, out: &mut MoveList) {
        for &m in self.moves.iter() {
            if !changed.holds(m) {
                out.push(m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_holds_its_file_square_by_square() {
        let mut x: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834;
        for _ in 0..200 {
            // A xorshift step: boards of every density.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for b in [Bitboard(x), Bitboard(x & x.rotate_left(37)), Bitboard(x | x.rotate_left(71))] {
                for f in 0..8 {
                    let want = (0..16).filter(|&r| b.contains(Square::new(f as u8, r))).fold(0, |c, r| c | 1 << r);
                    assert_eq!(column(b, f), want, "file {f} of {b:?}");
                }
            }
        }
    }

    #[test]
    fn lines_through_squares() {
        let s = Bitboard::EMPTY.with("c4".parse().unwrap()).with("h16".parse().unwrap());
        let lines = Lines::through(s);
        assert_eq!((lines.files, lines.ranks), (1 << 2 | 1 << 7, 1 << 3 | 1 << 15));
        let along_c = Move::new("c4".parse().unwrap(), "c9".parse().unwrap(), MoveKind::Capture);
        let along_rank_9 = Move::new("a9".parse().unwrap(), "f9".parse().unwrap(), MoveKind::Capture);
        assert!(lines.holds(along_c) && !lines.holds(along_rank_9));
    }
}
