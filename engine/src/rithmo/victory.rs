//! The end of the game: victories over the men captured (body, goods,
//! lawsuit, honor, honor and lawsuit), the proper victories (great, greater,
//! excellent), the quiet-ply draw, and the side without a move.

use std::fmt;

use super::piece::Side;
use super::position::Position;
use super::rules::{RuleSet, Victory};
use super::square::Square;

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won(Side, Reason),
    Drawn(Reason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The victory condition in force.
    Victory(Victory),
    /// The other side had no legal move.
    NoMove,
    /// Plies without capture, strike or siege.
    QuietPlies,
    /// The same position for the third time.
    Repetition,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => write!(f, "ongoing"),
            Status::Won(s, Reason::Victory(v)) => write!(f, "{s} wins (victory {v})"),
            Status::Won(s, Reason::NoMove) => write!(f, "{s} wins ({} has no legal move)", s.other()),
            Status::Won(s, r) => write!(f, "{s} wins ({r:?})"),
            Status::Drawn(Reason::QuietPlies) => write!(f, "drawn (no capture, strike or siege for too long)"),
            Status::Drawn(Reason::Repetition) => write!(f, "drawn (the same position a third time)"),
            Status::Drawn(r) => write!(f, "drawn ({r:?})"),
        }
    }
}

impl Position {
    /// Whether the side that has just moved has met the victory condition.
    pub fn victory_reached(&self, rules: &RuleSet) -> bool {
        self.victory_by(rules, self.side_to_move().other())
    }

    /// Whether `by` has met the victory condition.
    pub fn victory_by(&self, rules: &RuleSet, by: Side) -> bool {
        let c = self.captured_by(by);
        let (n, v) = (c.count(), c.value);
        match rules.victory {
            Victory::Body(need) => n >= need,
            Victory::Goods(need) => v >= need,
            Victory::Lawsuit(val, men) => v >= val && n == men,
            Victory::Honor(val, men) => v == val && n == men,
            Victory::HonorLawsuit(val, men, digits) => v == val && n == men && c.digits == digits,
            Victory::Great => proper(self, by, 3, 1),
            Victory::Greater => proper(self, by, 4, 2),
            Victory::Excellent => proper(self, by, 4, 3),
        }
    }

    /// A victory reached or the quiet-ply limit: no moves follow.
    pub fn is_over(&self, rules: &RuleSet) -> bool {
        self.victory_reached(rules) || (rules.quiet_plies_draw > 0 && self.clock >= rules.quiet_plies_draw)
    }

    /// The game's standing from this position alone (repetition needs the
    /// history: see [`super::Game`]).
    pub fn status(&self, rules: &RuleSet) -> Status {
        if self.victory_reached(rules) {
            return Status::Won(self.side_to_move().other(), Reason::Victory(rules.victory));
        }
        if rules.quiet_plies_draw > 0 && self.clock >= rules.quiet_plies_draw {
            return Status::Drawn(Reason::QuietPlies);
        }
        if rules.no_move_loses && self.legal_moves(rules).is_empty() {
            return Status::Won(self.side_to_move().other(), Reason::NoMove);
        }
        Status::Ongoing
    }
}

/// The kinds of progression three values form (`a < b < c` after sorting):
/// bit 0 arithmetic, bit 1 geometric, bit 2 harmonic.
pub fn progression_kinds(values: [u32; 3]) -> u8 {
    let mut v = values;
    v.sort_unstable();
    let [a, b, c] = v.map(|x| x as u64);
    if a == b || b == c {
        return 0;
    }
    let mut k = 0;
    if b - a == c - b {
        k |= 1;
    }
    if b * b == a * c {
        k |= 2;
    }
    if (b - a) * c == (c - b) * a {
        k |= 4;
    }
    k
}

/// A proper victory: no enemy pyramid on the board, and `pieces` of
/// `side`'s pieces equally spaced on one rank, file or diagonal in the enemy
/// half, their values distinct and forming at least `kinds` kinds of
/// progression (each kind by some three of them).
fn proper(pos: &Position, side: Side, pieces: usize, kinds: u32) -> bool {
    if pos.pyramids(side.other()).next().is_some() {
        return false;
    }
    let half = match side {
        Side::Even => super::bitboard::Bitboard::UPPER_HALF,
        Side::Odd => super::bitboard::Bitboard::LOWER_HALF,
    };
    let mine: Vec<Square> = (pos.occupied(side) & half).iter().collect();
    let on = |f: i16, r: i16| -> Option<Square> {
        ((0..8).contains(&f) && (0..16).contains(&r)).then(|| Square::new(f as u8, r as u8))
    };
    for (i, &a) in mine.iter().enumerate() {
        for &b in &mine[i + 1..] {
            let (df, dr) = (b.file() as i16 - a.file() as i16, b.rank() as i16 - a.rank() as i16);
            // A line: a rank, a file or a diagonal.
            if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
                continue;
            }
            let mut squares = vec![a, b];
            while squares.len() < pieces {
                let last = *squares.last().expect("two squares");
                match on(last.file() as i16 + df, last.rank() as i16 + dr) {
                    Some(s) if mine.contains(&s) => squares.push(s),
                    _ => break,
                }
            }
            if squares.len() < pieces {
                continue;
            }
            let vals: Vec<u32> = squares.iter().map(|&s| pos.value_at(s) as u32).collect();
            let mut sorted = vals.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() < pieces {
                continue;
            }
            let mut found = 0u8;
            for x in 0..pieces {
                for y in x + 1..pieces {
                    for z in y + 1..pieces {
                        found |= progression_kinds([vals[x], vals[y], vals[z]]);
                    }
                }
            }
            if found.count_ones() >= kinds {
                return true;
            }
        }
    }
    false
}
