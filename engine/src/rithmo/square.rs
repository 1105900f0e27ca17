//! Squares of the 8 × 16 board: files `a`–`h`, ranks `1`–`16`, index
//! `(rank − 1) × 8 + file`.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Dir;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(pub u8);

impl Square {
    /// File 0–7 (a–h), rank 0–15 (1–16).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `n` steps away in `dir`, if on the board.
    #[inline]
    pub fn step(self, dir: Dir, n: u8) -> Option<Square> {
        let (f, r) = (self.file() as i16, self.rank() as i16);
        let n = n as i16;
        let (f, r) = match dir {
            Dir::North => (f, r + n),
            Dir::South => (f, r - n),
            Dir::East => (f + n, r),
            Dir::West => (f - n, r),
        };
        ((0..8).contains(&f) && (0..16).contains(&r)).then(|| Square::new(f as u8, r as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Text that is not a square: files `a`–`h`, ranks `1`–`16`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (files a-h, ranks 1-16, e.g. c4 or h16)", self.text)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError { text: s.to_string() };
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(bad)?;
        if !('a'..='h').contains(&file) {
            return Err(bad());
        }
        let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if !(1..=16).contains(&rank) || chars.as_str().starts_with('0') {
            return Err(bad());
        }
        Ok(Square::new(file as u8 - b'a', rank - 1))
    }
}
