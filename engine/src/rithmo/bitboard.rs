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

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// Square index change of one step.
    #[inline]
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

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(u128::MAX);
    pub const FILE_A: Bitboard = Bitboard(FILE_A);
    pub const FILE_H: Bitboard = Bitboard(FILE_H);

    /// Ranks 1–8 (Even's half) and 9–16.
    pub const LOWER_HALF: Bitboard = Bitboard(u64::MAX as u128);
    pub const UPPER_HALF: Bitboard = Bitboard((u64::MAX as u128) << 64);

    #[inline]
    pub const fn from_square(s: Square) -> Bitboard {
        Bitboard(1u128 << s.0)
    }

    #[inline]
    pub const fn contains(self, s: Square) -> bool {
        self.0 >> s.0 & 1 != 0
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

    #[inline]
    pub fn with(self, s: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << s.0)
    }

    #[inline]
    pub fn without(self, s: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << s.0))
    }

    /// Every square moved one step in `dir`; squares stepping off the board
    /// (including across the a- and h-files) vanish.
    #[inline]
    pub const fn step(self, dir: Dir) -> Bitboard {
        Bitboard(match dir {
            Dir::North => self.0 << 8,
            Dir::South => self.0 >> 8,
            Dir::East => (self.0 & !FILE_H) << 1,
            Dir::West => (self.0 & !FILE_A) >> 1,
        })
    }

    /// `n` steps in `dir`.
    #[inline]
    pub const fn shift(self, dir: Dir, n: u8) -> Bitboard {
        let mut b = self;
        let mut i = 0;
        while i < n {
            b = b.step(dir);
            i += 1;
        }
        b
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
