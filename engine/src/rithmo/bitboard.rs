//! One bit per square of the 8 × 16 board: `Bitboard(u128)`, with shifts
//! that never wrap across files.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::square::Square;

/// A set of squares; bit `(rank − 1) × 8 + file`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Bitboard(pub u128);

/// The four orthogonal directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    North,
    South,
    East,
    West,
}

/// Runs a block once for each direction, with the direction a constant
/// (so that shifts compile to fixed instructions).
#[macro_export]
macro_rules! each_dir {
    ($d:ident => $body:block) => {{
        {
            const $d: $crate::rithmo::Dir = $crate::rithmo::Dir::North;
            $body
        }
        {
            const $d: $crate::rithmo::Dir = $crate::rithmo::Dir::South;
            $body
        }
        {
            const $d: $crate::rithmo::Dir = $crate::rithmo::Dir::East;
            $body
        }
        {
            const $d: $crate::rithmo::Dir = $crate::rithmo::Dir::West;
            $body
        }
    }};
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// Square index change of one step.
    #[inline(always)]
    pub const fn delta(self) -> i8 {
        match self {
            Dir::North => 8,
            Dir::South => -8,
            Dir::East => 1,
            Dir::West => -1,
        }
    }

    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            Dir::East => Dir::West,
            Dir::West => Dir::East,
        }
    }
}

const FILE_A: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
const FILE_H: u128 = FILE_A << 7;

/// Rays from every square to the edge, by direction.
static RAYS: [[u128; 128]; 4] = rays();

const fn rays() -> [[u128; 128]; 4] {
    let mut out = [[0u128; 128]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 128 {
            let (mut f, mut r) = ((s % 8) as i32, (s / 8) as i32);
            let mut ray = 0u128;
            loop {
                match d {
                    0 => r += 1,
                    1 => r -= 1,
                    2 => f += 1,
                    _ => f -= 1,
                }
                if f < 0 || f > 7 || r < 0 || r > 15 {
                    break;
                }
                ray |= 1u128 << (r * 8 + f);
            }
            out[d][s] = ray;
            s += 1;
        }
        d += 1;
    }
    out
}

/// Squares that stay on the board moving `n` files east (or west).
const KEEP_EAST: [u128; 16] = keep(true);
const KEEP_WEST: [u128; 16] = keep(false);

const fn keep(east: bool) -> [u128; 16] {
    let mut out = [0u128; 16];
    let mut n = 0;
    while n < 16 {
        let mut m = 0u128;
        let mut file = 0;
        while file < 8 {
            let stays = if east { file + n < 8 } else { file >= n };
            if stays {
                m |= FILE_A << file;
            }
            file += 1;
        }
        out[n] = m;
        n += 1;
    }
    out
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(u128::MAX);
    pub const FILE_A: Bitboard = Bitboard(FILE_A);
    pub const FILE_H: Bitboard = Bitboard(FILE_H);

    /// Ranks 1–8 (Even's half) and 9–16.
    pub const LOWER_HALF: Bitboard = Bitboard(u64::MAX as u128);
    pub const UPPER_HALF: Bitboard = Bitboard((u64::MAX as u128) << 64);

    #[inline(always)]
    pub const fn from_square(s: Square) -> Bitboard {
        let bit = 1u64 << (s.0 & 63);
        Bitboard(if s.0 < 64 { bit as u128 } else { (bit as u128) << 64 })
    }

    /// The 64-bit half holding square `s` (a shift by a variable amount is
    /// costly on 128 bits).
    #[inline(always)]
    const fn word(self, s: Square) -> u64 {
        if s.0 < 64 { self.0 as u64 } else { (self.0 >> 64) as u64 }
    }

    #[inline(always)]
    pub const fn contains(self, s: Square) -> bool {
        self.word(s) >> (s.0 & 63) & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square(self.0.trailing_zeros() as u8))
    }

    #[inline(always)]
    pub fn with(self, s: Square) -> Bitboard {
        Bitboard(self.0 | Bitboard::from_square(s).0)
    }

    #[inline(always)]
    pub fn without(self, s: Square) -> Bitboard {
        Bitboard(self.0 & !Bitboard::from_square(s).0)
    }

    /// Every square moved one step in `dir`; squares stepping off the board
    /// (including across the a- and h-files) vanish.
    #[inline(always)]
    pub const fn step(self, dir: Dir) -> Bitboard {
        Bitboard(match dir {
            Dir::North => self.0 << 8,
            Dir::South => self.0 >> 8,
            Dir::East => (self.0 & !FILE_H) << 1,
            Dir::West => (self.0 & !FILE_A) >> 1,
        })
    }

    /// `n` steps in `dir` at once; squares leaving the board on the way
    /// vanish.
    #[inline(always)]
    pub const fn shift(self, dir: Dir, n: u8) -> Bitboard {
        if n >= 16 {
            return Bitboard(0);
        }
        Bitboard(match dir {
            Dir::North => self.0 << (8 * n as u32),
            Dir::South => self.0 >> (8 * n as u32),
            Dir::East => (self.0 & KEEP_EAST[n as usize]) << n,
            Dir::West => (self.0 & KEEP_WEST[n as usize]) >> n,
        })
    }

    /// The squares reachable from `from` sliding in `dir` over `free`
    /// squares (not including `from` unless free squares lead back to it):
    /// an occluded fill, by doubling.
    #[inline(always)]
    pub fn slide(from: Bitboard, free: Bitboard, dir: Dir) -> Bitboard {
        let (mut g, mut p) = (from, free);
        g |= p & g.shift(dir, 1);
        p &= p.shift(dir, 1);
        g |= p & g.shift(dir, 2);
        p &= p.shift(dir, 2);
        g |= p & g.shift(dir, 4);
        // Sixteen ranks need one doubling more than eight files.
        if matches!(dir, Dir::North | Dir::South) {
            p &= p.shift(dir, 4);
            g |= p & g.shift(dir, 8);
        }
        g
    }

    /// The squares `s` from which every square `s + j·dir`, `j` in `1..=k`,
    /// is on the board and in `free`: a piece moving `k` squares in `dir`
    /// finds its way open.
    #[inline]
    pub fn open(free: Bitboard, dir: Dir, k: u8) -> Bitboard {
        let back = dir.opposite();
        let mut out = Bitboard::FULL;
        for j in 1..=k {
            // Stepping back one square at a time: a square whose path would
            // leave the board drops out at that step.
            out &= free.shift(back, j);
        }
        out
    }

    /// The squares from `s` (excluded) to the edge in `dir`.
    #[inline]
    pub fn ray(s: Square, dir: Dir) -> Bitboard {
        Bitboard(RAYS[dir as usize][s.index()])
    }

    /// The nearest square of the set in `dir` from `s`, if any.
    #[inline(always)]
    pub fn nearest(self, s: Square, dir: Dir) -> Option<Square> {
        let hit = (self & Bitboard::ray(s, dir)).0;
        if hit == 0 {
            return None;
        }
        Some(Square(match dir {
            Dir::North | Dir::East => hit.trailing_zeros() as u8,
            Dir::South | Dir::West => 127 - hit.leading_zeros() as u8,
        }))
    }

    /// The lowest and highest rank (0–15) holding a square of a non-empty
    /// set.
    #[inline(always)]
    pub fn rank_span(self) -> (u8, u8) {
        debug_assert!(self.0 != 0);
        ((self.0.trailing_zeros() / 8) as u8, ((127 - self.0.leading_zeros()) / 8) as u8)
    }

    pub fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

/// Iterates the squares of a bitboard in increasing order.
pub struct SquareIter(u128);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(s))
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// `a - b`: the squares of `a` not in `b`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..16).rev() {
            for file in 0..8 {
                write!(f, "{}", if self.0 >> (rank * 8 + file) & 1 == 1 { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
