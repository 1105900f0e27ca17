//! Values of positions for the side to move.

use std::cmp::Ordering;
use std::fmt;

/// The value of a position without chance: who wins with perfect play, and
/// in how many plies (the winner hurries, the loser delays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

impl Value {
    /// The value of the position before, seen by the side that moved into a
    /// position of this value.
    #[inline]
    pub fn back(self) -> Value {
        match self {
            Value::Win(p) => Value::Loss(p + 1),
            Value::Loss(p) => Value::Win(p + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// +1, 0 or −1.
    pub fn sign(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }

    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(p) | Value::Loss(p) => Some(p),
            Value::Draw => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// A total order by preference of the side to move: faster wins first,
    /// then draws, then slower losses.
    fn rank(self) -> (i32, i32) {
        match self {
            Value::Win(p) => (2, -(p as i32)),
            Value::Draw => (1, 0),
            Value::Loss(p) => (0, p as i32),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(p) => write!(f, "win in {p}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(p) => write!(f, "loss in {p}"),
        }
    }
}

/// The packed form of a [`Value`] in tables: 0 is a draw (or not yet
/// resolved while solving), `p + 1` means decided after `p` plies (odd `p`:
/// the side to move wins, even: it loses), `UNUSED` marks an index no
/// position maps to.
pub type Packed = u16;

pub const UNUSED: Packed = u16::MAX;
pub const DRAW: Packed = 0;

/// The most plies a packed value can hold.
pub const MAX_PLIES: u16 = u16::MAX - 2;

#[inline]
pub fn pack(v: Value) -> Packed {
    match v {
        Value::Draw => DRAW,
        Value::Win(p) | Value::Loss(p) => p + 1,
    }
}

#[inline]
pub fn unpack(p: Packed) -> Value {
    debug_assert_ne!(p, UNUSED);
    match p {
        DRAW => Value::Draw,
        _ if (p - 1) % 2 == 1 => Value::Win(p - 1),
        _ => Value::Loss(p - 1),
    }
}
