//! Hash keys of pieces on squares, made by mixing a piece's description
//! (no tables: values range widely), combined by exclusive or so that they
//! update incrementally.

use super::piece::{Pyramid, Shape, Side};
use super::square::Square;

/// The key of Odd to move.
pub const SIDE: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijective mixer.
#[inline]
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A circle, triangle or square with its value on a square.
#[inline]
pub fn man(s: Square, side: Side, shape: Shape, value: u16) -> u64 {
    mix(s.0 as u64 | (side as u64) << 7 | (shape as u64) << 8 | (value as u64) << 16)
}

/// A pyramid: its square, side, every layer in order, and whether intact.
#[inline]
pub fn pyramid(s: Square, side: Side, p: &Pyramid) -> u64 {
    let mut h = mix(s.0 as u64 | (side as u64) << 7 | 3 << 8 | (p.intact as u64) << 10 | 1 << 40);
    for (i, m) in p.layers().iter().enumerate() {
        h ^= mix(s.0 as u64 | (side as u64) << 7 | (i as u64) << 11 | (m.bits() as u64) << 16 | 1 << 41);
    }
    h
}
