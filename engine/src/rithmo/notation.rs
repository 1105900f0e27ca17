//! Notation to a legal move: [`Position::parse_move`] reads a move as a
//! player types it and returns it if it is legal here, or says why not.

use std::fmt;

use super::moves::{Move, ParseMoveError};
use super::piece::Side;
use super::position::Position;
use super::rules::RuleSet;
use super::square::Square;
use super::victory::Status;

/// Why a typed move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in notation.
    Syntax(ParseMoveError),
    /// The game is over.
    GameOver { mv: Move, status: Status },
    /// No piece stands on the move's first square.
    NoPiece { mv: Move, from: Square },
    /// The piece there belongs to the side not to move.
    NotYours { mv: Move, from: Square, owner: Side },
    /// The piece there has no legal move at all.
    Immobile { mv: Move, from: Square },
    /// The piece there has legal moves, not this one: they are listed.
    Illegal { mv: Move, from: Square, legal: Vec<Move> },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::GameOver { mv, status } => write!(f, "cannot play {mv}: the game is over ({status})"),
            MoveError::NoPiece { mv, from } => write!(f, "{mv} is not legal: there is no piece on {from}"),
            MoveError::NotYours { mv, from, owner } => {
                write!(f, "{mv} is not legal: the piece on {from} belongs to {owner}, and {} is to move", owner.other())
            }
            MoveError::Immobile { mv, from } => write!(f, "{mv} is not legal: the piece on {from} has no legal move"),
            MoveError::Illegal { mv, from, legal } => {
                let list: Vec<String> = legal.iter().map(Move::to_string).collect();
                write!(f, "{mv} is not legal: the piece on {from} can play only {}", list.join(" "))
            }
        }
    }
}

impl std::error::Error for MoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MoveError::Syntax(e) => Some(e),
            _ => None,
        }
    }
}

impl Position {
    /// The legal move `text` names here (`c4-c5`, `c4xc13`, `c4*c13`; upper
    /// case too), or why there is none.
    pub fn parse_move(&self, text: &str, rules: &RuleSet) -> Result<Move, MoveError> {
        let mv: Move = text.trim().to_ascii_lowercase().parse().map_err(MoveError::Syntax)?;
        if self.is_over(rules) {
            return Err(MoveError::GameOver { mv, status: self.status(rules) });
        }
        self.check_move(mv, rules)
    }

    /// `mv` if it is legal here, or why not (the game's end aside: see
    /// [`Position::parse_move`] and [`super::Game::play`]).
    pub fn check_move(&self, mv: Move, rules: &RuleSet) -> Result<Move, MoveError> {
        if self.is_legal(mv, rules) {
            return Ok(mv);
        }
        let from = mv.from;
        let me = self.side_to_move();
        Err(match self.piece_at(from) {
            None => MoveError::NoPiece { mv, from },
            Some(p) if p.side != me => MoveError::NotYours { mv, from, owner: p.side },
            Some(_) => {
                let legal: Vec<Move> = self.legal_moves(rules).into_iter().filter(|m| m.from == from).collect();
                if legal.is_empty() { MoveError::Immobile { mv, from } } else { MoveError::Illegal { mv, from, legal } }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_moves_parse_and_illegal_ones_say_why() {
        let rules = RuleSet::common();
        let pos = Position::start();
        for m in pos.legal_moves(&rules) {
            assert_eq!(pos.parse_move(&m.to_string(), &rules), Ok(m));
            assert_eq!(pos.parse_move(&m.to_string().to_ascii_uppercase(), &rules), Ok(m));
        }
        assert!(matches!(pos.parse_move("zz", &rules), Err(MoveError::Syntax(_))));
        assert!(matches!(pos.parse_move("h8-h9", &rules), Err(MoveError::NoPiece { .. })));
        let e = pos.parse_move("c4-c6", &rules).unwrap_err();
        assert!(matches!(&e, MoveError::Illegal { legal, .. } if !legal.is_empty()), "{e}");
        assert!(e.to_string().contains("the piece on c4 can play only"), "{e}");
        let theirs = pos.legal_moves(&rules)[0];
        let next = pos.play(theirs, &rules);
        assert!(matches!(next.parse_move(&theirs.to_string(), &rules), Err(MoveError::NoPiece { .. })));
        let other = pos.legal_moves(&rules).into_iter().find(|m| m.from != theirs.from).unwrap();
        assert!(matches!(next.parse_move(&other.to_string(), &rules), Err(MoveError::NotYours { .. })));
    }
}
