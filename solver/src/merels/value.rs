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

/// Exact values of games with chance only in placement are rationals whose
/// denominators divide a power of 72 (each throw splits 5 : 67 of 72): they
/// are kept as numerators over one common denominator, 72 to the number of
/// placement turns.
pub fn exact_denominator_exponent(men: u8) -> u32 {
    2 * men as u32
}

/// `72^exponent` (fits `i128` for every board: 72^18 < 2^112).
pub fn exact_denominator(men: u8) -> i128 {
    72i128.pow(exact_denominator_exponent(men))
}

/// `x / 72` for a multiple `x` of 72, without a 128-bit division: a shift
/// by 3, then a multiplication by the inverse of 9 modulo 2¹²⁸ (exact for
/// multiples of 9, in two's complement for either sign).
///
/// # Panics
/// If `x` is not a multiple of 72.
#[inline]
pub fn div_exact_72(x: i128) -> i128 {
    /// `a⁻¹ mod 2¹²⁸` for odd `a` by Newton's iteration (each step doubles
    /// the bits that are right; `a` itself is right in 3).
    const fn inverse(a: u128) -> u128 {
        let mut inv = a;
        let mut k = 0;
        while k < 6 {
            inv = inv.wrapping_mul(2u128.wrapping_sub(a.wrapping_mul(inv)));
            k += 1;
        }
        inv
    }
    const INVERSE_9: u128 = inverse(9);
    let q = ((x >> 3) as u128).wrapping_mul(INVERSE_9) as i128;
    assert!(q.wrapping_mul(72) == x, "{x} is not a multiple of 72");
    q
}

/// An exact value as a reduced fraction `n/d`.
pub fn reduced(num: i128, den: i128) -> (i128, i128) {
    fn gcd(a: i128, b: i128) -> i128 {
        if b == 0 { a.abs() } else { gcd(b, a % b) }
    }
    let g = gcd(num, den).max(1);
    (num / g, den / g)
}

/// A value under chance: the estimate and the interval proved to contain
/// the true value.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Interval {
    pub v: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    /// The side to move has lost.
    pub const LOSS: Interval = Interval { v: -1.0, lo: -1.0, hi: -1.0 };
    pub const WIN: Interval = Interval { v: 1.0, lo: 1.0, hi: 1.0 };
    /// The game has ended drawn.
    pub const DRAW: Interval = Interval { v: 0.0, lo: 0.0, hi: 0.0 };

    /// A known value.
    pub fn exact(x: f64) -> Interval {
        Interval { v: x, lo: x, hi: x }
    }

    /// A value known to within `err` either side, kept inside [−1, 1].
    pub fn around(x: f64, err: f64) -> Interval {
        Interval { v: x, lo: (x - err).max(-1.0), hi: (x + err).min(1.0) }
    }

    /// An unused index.
    pub const UNUSED: Interval = Interval { v: f64::NAN, lo: f64::NAN, hi: f64::NAN };

    /// Half the width of the interval around the estimate: the most the
    /// estimate can be off.
    pub fn error(self) -> f64 {
        (self.hi - self.v).max(self.v - self.lo)
    }

    pub fn width(self) -> f64 {
        self.hi - self.lo
    }
}

/// The value seen from the other side.
impl std::ops::Neg for Interval {
    type Output = Interval;
    #[inline]
    fn neg(self) -> Interval {
        Interval { v: -self.v, lo: -self.hi, hi: -self.lo }
    }
}

/// Values under chance are kept on a grid of step 2^-30 over [−1, 1]: a
/// `u32` code `k` stands for `k / 2^30 − 1`, so that −1, 0 and +1 and every
/// sum of a few throw-weighted grid values round the same way everywhere.
pub const GRID: f64 = (1u64 << 30) as f64;
/// The largest code (+1).
pub const CODE_MAX: u32 = 1 << 31;
/// The code of 0.
pub const CODE_ZERO: u32 = 1 << 30;
/// The code of −1.
pub const CODE_LOSS: u32 = 0;
/// Marks an unused index.
pub const CODE_UNUSED: u32 = u32::MAX;
/// The most that rounding to the grid moves a value.
pub const GRID_HALF_STEP: f64 = 0.5 / GRID;

/// Stored values under chance closer than this are equally good (two grid
/// steps: values equal before rounding may round to neighbouring codes).
pub const TIE: f64 = 4.0 * GRID_HALF_STEP;

/// The nearest grid code of a value in [−1, 1].
#[inline]
pub fn to_code(x: f64) -> u32 {
    ((x.clamp(-1.0, 1.0) + 1.0) * GRID).round() as u32
}

/// The value of a grid code.
#[inline]
pub fn from_code(k: u32) -> f64 {
    debug_assert!(k <= CODE_MAX);
    k as f64 / GRID - 1.0
}

/// The code of the negated value (exact).
#[inline]
pub fn neg_code(k: u32) -> u32 {
    CODE_MAX - k
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn exact_division_by_72_equals_the_division() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(72);
        let den = exact_denominator(9);
        let edges = [0, 1, -1, den, -den, 72 * den, -72 * den, i128::MAX / 72, i128::MIN / 72];
        for q in edges.into_iter().chain((0..100_000).map(|_| rng.random_range(-72 * den..=72 * den))) {
            assert_eq!(div_exact_72(q * 72), q * 72 / 72, "{q}");
        }
    }

    #[test]
    fn the_named_codes_are_the_codes_of_their_values() {
        assert_eq!((to_code(-1.0), to_code(0.0), to_code(1.0)), (CODE_LOSS, CODE_ZERO, CODE_MAX));
    }

    #[test]
    #[should_panic(expected = "is not a multiple of 72")]
    fn exact_division_by_72_refuses_other_numbers() {
        div_exact_72(72 * 5 + 36);
    }
}
