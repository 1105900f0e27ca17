//! Move generation for the side to move, and playing a move (its capture or
//! strike, then the sieges it causes).

use arrayvec::ArrayVec;

use super::bitboard::{Bitboard, Dir};
use super::moves::{Move, MoveKind, MoveList};
use super::piece::Shape;
use super::position::Position;
use super::rules::RuleSet;
use super::square::Square;
use super::{ambush, encounter, sally, siege};

impl Position {
    /// Every legal move, none when the game is over (a victory reached or
    /// the quiet-ply limit).
    pub fn legal_moves(&self, rules: &RuleSet) -> MoveList {
        let mut out = MoveList::new();
        if !self.is_over(rules) {
            self.generate(rules, &mut out);
        }
        out
    }

    /// Every move of the side to move, whether or not the game is over.
    pub fn generate(&self, rules: &RuleSet, out: &mut MoveList) {
        self.plain_moves(rules, out);
        self.captures(rules, out);
    }

    fn plain_moves(&self, rules: &RuleSet, out: &mut MoveList) {
        let me = self.side_to_move();
        let free = !self.all();
        for j in 0..rules.n_distances as usize {
            let k = rules.distances[j];
            let movers = Shape::ALL
                .into_iter()
                .filter(|s| rules.distance(*s) == k)
                .fold(Bitboard::EMPTY, |acc, s| acc | self.pieces(me, s));
            if movers.is_empty() {
                continue;
            }
            for dir in Dir::ALL {
                for from in (movers & Bitboard::open(free, dir, k)).iter() {
                    let to = Square((from.0 as i16 + dir.delta() as i16 * k as i16) as u8);
                    out.push(Move::new(from, to, MoveKind::Plain));
                }
            }
        }
    }

    /// Captures and strikes by encounter, ambush and sally, each (from, to,
    /// kind) once however many reasons allow it.
    pub fn captures(&self, rules: &RuleSet, out: &mut MoveList) {
        let enemy = self.occupied(self.side_to_move().other());
        for t in enemy.iter() {
            let targets = encounter::targets(self, t, rules);
            let mut found: ArrayVec<(Square, MoveKind), 32> = ArrayVec::new();
            let mut add = |from: Square, kind: MoveKind| {
                if !found.contains(&(from, kind)) {
                    found.push((from, kind));
                }
            };
            if rules.encounter || rules.ambush {
                let reachers = encounter::reachers(self, t, rules);
                if rules.encounter {
                    encounter::moves(&reachers, &targets, &mut add);
                }
                if rules.ambush {
                    ambush::moves(&reachers, &targets, &mut add);
                }
            }
            if rules.sally {
                sally::moves(self, t, &targets, rules, &mut add);
            }
            for (from, kind) in found {
                out.push(Move::new(from, t, kind));
            }
        }
    }

    /// The position after a move (which must be legal): its capture or
    /// strike, then every enemy piece it besieges removed.
    pub fn play(&self, m: Move, rules: &RuleSet) -> Position {
        let mut next = *self;
        next.play_in_place(m, rules);
        next
    }

    /// Plays a move on this position; returns the squares emptied by siege.
    pub fn play_in_place(&mut self, m: Move, rules: &RuleSet) -> Bitboard {
        let mover = self.side_to_move();
        match m.kind {
            MoveKind::Plain => self.relocate(m.from, m.to),
            MoveKind::Capture => {
                self.capture(m.to, mover);
                self.relocate(m.from, m.to);
            }
            MoveKind::Strike => self.strike(m.to, mover),
        }
        let sieged = if rules.siege { siege::besieged(self, mover, rules) } else { Bitboard::EMPTY };
        for s in sieged.iter() {
            self.capture(s, mover);
        }
        self.end_turn(m.kind == MoveKind::Plain && sieged.is_empty());
        sieged
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, m: Move, rules: &RuleSet) -> bool {
        self.legal_moves(rules).contains(&m)
    }
}
