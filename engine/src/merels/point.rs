//! Points of a merels board, sets of points and the two sides.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Sub};

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

/// A set of points, one bit per point (boards have at most 24 points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct PointSet(pub u32);

impl PointSet {
    pub const EMPTY: PointSet = PointSet(0);

    /// The set of the first `n` points.
    #[inline]
    pub const fn first(n: usize) -> PointSet {
        PointSet(((1u64 << n) - 1) as u32)
    }
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 >> p.0 & 1 != 0
    }
    #[inline]
    pub const fn is_subset(self, other: PointSet) -> bool {
        self.0 & !other.0 == 0
    }
    #[inline]
    pub const fn intersects(self, other: PointSet) -> bool {
        self.0 & other.0 != 0
    }
    #[inline]
    pub const fn with(self, p: Point) -> PointSet {
        PointSet(self.0 | 1 << p.0)
    }
    #[inline]
    pub const fn without(self, p: Point) -> PointSet {
        PointSet(self.0 & !(1 << p.0))
    }
    /// The lowest point of the set, if any.
    #[inline]
    pub const fn first_point(self) -> Option<Point> {
        if self.0 == 0 { None } else { Some(Point(self.0.trailing_zeros() as u8)) }
    }
    #[inline]
    pub fn iter(self) -> PointIter {
        PointIter(self.0)
    }
}

/// Iterates the points of a set in increasing order.
#[derive(Clone, Copy, Debug)]
pub struct PointIter(u32);

impl Iterator for PointIter {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Point(p as u8))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PointIter {}

impl IntoIterator for PointSet {
    type Item = Point;
    type IntoIter = PointIter;
    fn into_iter(self) -> PointIter {
        self.iter()
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        iter.into_iter().fold(PointSet::EMPTY, PointSet::with)
    }
}

macro_rules! set_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for PointSet {
            type Output = PointSet;
            #[inline]
            fn $f(self, rhs: PointSet) -> PointSet {
                PointSet(self.0 $op rhs.0)
            }
        }
    };
}
set_op!(BitAnd, bitand, &);
set_op!(BitOr, bitor, |);
set_op!(BitXor, bitxor, ^);

/// `a - b`: the points of `a` not in `b`.
impl Sub for PointSet {
    type Output = PointSet;
    #[inline]
    fn sub(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 & !rhs.0)
    }
}

impl BitAndAssign for PointSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: PointSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for PointSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: PointSet) {
        self.0 |= rhs.0;
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
