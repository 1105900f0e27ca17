//! Notation to a legal action: [`Rules::play_text`] reads an action as a
//! player types it (`d1`, `a1-a4`, after a throw `special:b6^d1xg7`) and
//! returns the position it leads to, or says why it cannot be played.

use std::fmt;

use super::actions::{Action, ParseActionError, Throw};
use super::point::Side;
use super::position::Position;
use super::rules::Rules;

/// Why a typed action cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// An empty action (`a1,,d1`).
    Empty,
    /// The text is not an action in notation.
    Syntax(ParseActionError),
    /// The game is over in this position.
    GameOver { text: String, position: String },
    /// The prefix before `:` is not a throw.
    NotAThrow { text: String, prefix: String },
    /// A throw was given for a turn without dice.
    NoDice { text: String },
    /// The action is not among the legal ones, which are listed.
    Illegal { text: String, side: Side, position: String, special: bool, legal: Vec<String> },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => f.write_str("an empty action (two commas in a row, or nothing at all)"),
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::GameOver { text, position } => write!(f, "cannot play '{text}': the game is over in {position}"),
            MoveError::NotAThrow { text, prefix } => {
                write!(f, "'{prefix}' in '{text}' is not a throw (expected special or normal)")
            }
            MoveError::NoDice { text } => write!(f, "'{text}': no dice are thrown before this turn"),
            MoveError::Illegal { text, side, position, special, legal } => write!(
                f,
                "'{text}' is not legal for {side} in {position}{}; legal: {}",
                if *special { " after a special throw" } else { "" },
                if legal.is_empty() { "none".to_string() } else { legal.join(" ") }
            ),
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

impl Rules {
    /// Plays the action `text` names from `pos` and returns the position it
    /// leads to. A turn that starts with a throw takes the throw as a prefix
    /// (`special:a1^d1`, `normal:a1-a4`; without one, a normal throw).
    pub fn play_text(&self, pos: &Position, text: &str) -> Result<Position, MoveError> {
        let m = text.trim();
        if m.is_empty() {
            return Err(MoveError::Empty);
        }
        let board = self.board;
        let st = pos.state();
        if self.lost(&st) {
            return Err(MoveError::GameOver { text: m.into(), position: pos.to_string() });
        }
        let (throw, action) = match m.split_once(':') {
            Some(("special", t)) => (Throw::Special, t),
            Some(("normal", t)) => (Throw::Normal, t),
            Some((other, _)) => return Err(MoveError::NotAThrow { text: m.into(), prefix: other.into() }),
            None => (Throw::Normal, m),
        };
        let throw = if self.throws(&st) { throw } else { Throw::None };
        if throw == Throw::None && m.contains(':') {
            return Err(MoveError::NoDice { text: m.into() });
        }
        let action = Action::parse(action, board).map_err(MoveError::Syntax)?;
        let legal = self.actions(&st, throw);
        match legal.iter().find(|(a, _)| *a == action) {
            Some((_, next)) => Ok(Position::from_state(pos.kind, pos.to_move.other(), *next)),
            None => Err(MoveError::Illegal {
                text: m.into(),
                side: pos.to_move,
                position: pos.to_string(),
                special: throw == Throw::Special,
                legal: legal.iter().map(|(a, _)| a.display(board).to_string()).collect(),
            }),
        }
    }

    /// Plays actions in turn from `pos` (see [`Rules::play_text`]).
    pub fn play_texts<S: AsRef<str>>(&self, pos: &Position, texts: &[S]) -> Result<Position, MoveError> {
        texts.iter().try_fold(*pos, |p, t| self.play_text(&p, t.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BoardKind, Dice};
    use super::*;

    #[test]
    fn every_legal_action_plays_by_its_name_and_others_say_why() {
        let rules = Rules::new(BoardKind::Six, Dice::None);
        let pos = Position::start(BoardKind::Six);
        for (a, next) in rules.actions(&pos.state(), Throw::None) {
            let got = rules.play_text(&pos, &a.display(rules.board).to_string()).unwrap();
            assert_eq!(got, Position::from_state(BoardKind::Six, pos.to_move.other(), next));
        }
        assert_eq!(rules.play_text(&pos, " "), Err(MoveError::Empty));
        assert!(matches!(rules.play_text(&pos, "zz"), Err(MoveError::Syntax(_))));
        assert!(matches!(rules.play_text(&pos, "lucky:a1"), Err(MoveError::NotAThrow { .. })));
        assert!(matches!(rules.play_text(&pos, "special:a1"), Err(MoveError::NoDice { .. })));
        let after = rules.play_text(&pos, "a1").unwrap();
        assert!(matches!(rules.play_text(&after, "a1"), Err(MoveError::Illegal { .. })));
        assert_eq!(rules.play_texts(&pos, &["a1", "b2"]).unwrap(), rules.play_text(&after, "b2").unwrap());
        assert_eq!(rules.play_texts(&pos, &["a1", "", "b2"]), Err(MoveError::Empty));
    }
}
