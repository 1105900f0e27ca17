//! A game: positions with their history, for repetition and the full status.

use super::moves::Move;
use super::position::Position;
use super::rules::RuleSet;
use super::victory::{Reason, Status};

/// A game from some position, with every position since.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: RuleSet,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    pub fn new(start: Position, rules: RuleSet) -> Game {
        Game { rules, positions: vec![start], moves: Vec::new() }
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The hashes of the positions so far, the current one last (what the
    /// search needs to see repetitions).
    pub fn hashes(&self) -> Vec<u64> {
        self.positions.iter().map(|p| p.hash()).collect()
    }

    /// How often the current position (board and side to move) occurred.
    pub fn occurrences(&self) -> usize {
        let now = self.position();
        self.positions.iter().filter(|p| p.hash() == now.hash() && same_board(p, now)).count()
    }

    pub fn status(&self) -> Status {
        let pos = self.position();
        match pos.status(&self.rules) {
            Status::Ongoing
                if self.rules.repetitions_draw > 0 && self.occurrences() >= self.rules.repetitions_draw as usize =>
            {
                Status::Drawn(Reason::Repetition)
            }
            s => s,
        }
    }

    /// Plays a legal move; refuses an illegal one or a finished game.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        if self.status() != Status::Ongoing {
            return Err(format!("the game is over: {}", self.status()));
        }
        let pos = self.position();
        if !pos.is_legal(m, &self.rules) {
            return Err(format!("{m} is not a legal move for {} here", pos.side_to_move()));
        }
        let next = pos.play(m, &self.rules);
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes the last move back.
    pub fn undo(&mut self) -> Option<Move> {
        if self.positions.len() > 1 {
            self.positions.pop();
        }
        self.moves.pop()
    }
}

/// Board and side to move equal (what repetition compares).
fn same_board(a: &Position, b: &Position) -> bool {
    a.side_to_move() == b.side_to_move() && a.to_string().split(' ').next() == b.to_string().split(' ').next()
}
