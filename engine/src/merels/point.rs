//! Points of a merels board, sets of points and the two sides.

use std::fmt;

/// A point of a board, numbered in the order of the spec's board table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Point(pub u8);

impl Point {
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn bit(self) -> PointSet {
        PointSet(1 << self.0)
    }
}

crate::small_set! {
    /// A set of points, one bit per point (boards have at most 24 points).
    PointSet(u32) of Point, iter PointIter
}

impl PointSet {
    /// The set of the first `n` points.
    #[inline]
    pub const fn first_n(n: usize) -> PointSet {
        PointSet(((1u64 << n) - 1) as u32)
    }
    #[inline]
    pub const fn is_subset(self, other: PointSet) -> bool {
        self.0 & !other.0 == 0
    }
    #[inline]
    pub const fn intersects(self, other: PointSet) -> bool {
        self.0 & other.0 != 0
    }
    /// The lowest point of the set, if any.
    #[inline]
    pub const fn first_point(self) -> Option<Point> {
        self.first()
    }
}

/// The two sides: `X` places first (the leader), `O` second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    X,
    O,
}

impl Side {
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn letter(self) -> char {
        match self {
            Side::X => 'x',
            Side::O => 'o',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
