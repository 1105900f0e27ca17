//! A game: positions with their history, for repetition and the full status.

use super::moves::Move;
use super::notation::MoveError;
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

    /// Plays a legal move; refuses an illegal one or a finished game (also
    /// one drawn by repetition), saying why.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let status = self.status();
        if status != Status::Ongoing {
            return Err(MoveError::GameOver { mv: m, status });
        }
        let pos = self.position();
        pos.check_move(m, &self.rules)?;
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

/// Rithmomachia as a [`crate::game::Game`] for the players and the arena:
/// player 0 is the side to move in the start position.
#[derive(Clone, Copy, Debug)]
pub struct Rithmomachia {
    pub rules: RuleSet,
    pub start: Position,
}

/// A position with the hashes of the positions since the last capture,
/// strike or siege, the current one last: all a repetition can go back to,
/// since those moves cannot be undone.
#[derive(Clone, Debug)]
pub struct Line {
    pub pos: Position,
    pub history: Vec<u64>,
}

impl Line {
    /// How often the current position (board and side to move) occurred.
    pub fn occurrences(&self) -> usize {
        let now = self.pos.hash();
        self.history.iter().filter(|&&h| h == now).count()
    }
}

impl Rithmomachia {
    pub fn new(rules: RuleSet, start: Position) -> Rithmomachia {
        Rithmomachia { rules, start }
    }

    /// The player a side is.
    pub fn player(&self, side: super::piece::Side) -> usize {
        if side == self.start.side_to_move() { 0 } else { 1 }
    }

    /// The game's standing, repetition included.
    pub fn status(&self, line: &Line) -> Status {
        match line.pos.status(&self.rules) {
            Status::Ongoing
                if self.rules.repetitions_draw > 0 && line.occurrences() >= self.rules.repetitions_draw as usize =>
            {
                Status::Drawn(Reason::Repetition)
            }
            s => s,
        }
    }
}

impl crate::game::Game for Rithmomachia {
    type State = Line;
    type Action = Move;

    fn name(&self) -> &'static str {
        "rithmo"
    }

    fn start(&self) -> Line {
        Line { pos: self.start, history: vec![self.start.hash()] }
    }

    fn turn(&self, line: &Line) -> crate::game::Turn {
        crate::game::Turn::Player(self.player(line.pos.side_to_move()))
    }

    fn actions(&self, line: &Line) -> Vec<Move> {
        if self.rules.repetitions_draw > 0 && line.occurrences() >= self.rules.repetitions_draw as usize {
            return Vec::new();
        }
        line.pos.legal_moves(&self.rules).to_vec()
    }

    fn chances(&self, _line: &Line) -> Vec<(Move, f64)> {
        Vec::new()
    }

    fn apply(&self, line: &Line, m: Move) -> Line {
        let pos = line.pos.play(m, &self.rules);
        // A capture, strike or siege resets the clock: nothing before it repeats.
        let mut history = if pos.clock == 0 { Vec::with_capacity(16) } else { line.history.clone() };
        history.push(pos.hash());
        Line { pos, history }
    }

    fn result(&self, line: &Line) -> Option<crate::game::Outcome> {
        match self.status(line) {
            // Rules where a side without a move does not lose: call it a draw.
            Status::Ongoing if !self.rules.no_move_loses && line.pos.legal_moves(&self.rules).is_empty() => {
                Some(crate::game::Outcome::Draw)
            }
            Status::Ongoing => None,
            Status::Won(side, _) => Some(crate::game::Outcome::Win(self.player(side))),
            Status::Drawn(_) => Some(crate::game::Outcome::Draw),
        }
    }

    fn heuristic(&self, line: &Line, player: usize) -> f64 {
        let score = super::eval::evaluate(&line.pos, &self.rules) as f64 / (4 * super::eval::MAN) as f64;
        let h = score.tanh() * 0.99;
        if self.player(line.pos.side_to_move()) == player { h } else { -h }
    }

    fn gain(&self, line: &Line, m: Move) -> f64 {
        // Men the move takes, sieges included.
        let me = line.pos.side_to_move();
        let next = line.pos.play(m, &self.rules);
        (next.captured_by(me).count() - line.pos.captured_by(me).count()) as f64
    }

    fn action_text(&self, _line: &Line, m: Move) -> String {
        m.to_string()
    }
}
