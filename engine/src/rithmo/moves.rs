//! Moves and their notation: `c4-c5` plain, `c4xc13` capture, `c4*c13`
//! strike (from, kind mark, to). Sieges follow from the move.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use super::square::{ParseSquareError, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    Plain,
    Capture,
    Strike,
}

impl MoveKind {
    pub const fn mark(self) -> char {
        match self {
            MoveKind::Plain => '-',
            MoveKind::Capture => 'x',
            MoveKind::Strike => '*',
        }
    }
}

/// A move is identified by where from, where to, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
}

impl Move {
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move { from, to, kind }
    }

    /// Whether it takes something (a capture or a strike).
    pub fn is_tactical(self) -> bool {
        self.kind != MoveKind::Plain
    }
}

/// Room for every move of a position.
pub type MoveList = ArrayVec<Move, 512>;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.from, self.kind.mark(), self.to)
    }
}

/// Text that is not a move in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// No `-`, `x` or `*` joins two squares.
    NoMark { text: String },
    /// One of the two squares is not a square.
    Square { text: String, square: ParseSquareError },
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::NoMark { text } => {
                write!(f, "'{text}' is not a move: write c4-c5 (plain), c4xc13 (capture) or c4*c13 (strike)")
            }
            ParseMoveError::Square { text, square } => write!(f, "in move '{text}': {square}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let at = s.find(['-', 'x', '*']).ok_or_else(|| ParseMoveError::NoMark { text: s.to_string() })?;
        let kind = match &s[at..=at] {
            "-" => MoveKind::Plain,
            "x" => MoveKind::Capture,
            _ => MoveKind::Strike,
        };
        let square =
            |t: &str| t.parse::<Square>().map_err(|square| ParseMoveError::Square { text: s.to_string(), square });
        Ok(Move { from: square(&s[..at])?, to: square(&s[at + 1..])?, kind })
    }
}
