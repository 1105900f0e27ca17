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

    /// The number of legal moves (none when the game is over), without
    /// listing the plain ones: what perft needs at its last ply.
    pub fn count_moves(&self, rules: &RuleSet) -> usize {
        if self.is_over(rules) {
            return 0;
        }
        let me = self.side_to_move();
        let free = !self.all();
        let mut n = 0;
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
                n += (movers & Bitboard::open(free, dir, k)).count() as usize;
            }
        }
        let mut caps = MoveList::new();
        self.captures(rules, &mut caps);
        n + caps.len()
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
    /// kind) once however many reasons allow it. Only enemy pieces that some
    /// regular move reaches, or that stand at the end of a free line of two
    /// or more squares from a piece of the mover, are examined.
    pub fn captures(&self, rules: &RuleSet, out: &mut MoveList) {
        let me = self.side_to_move();
        let own = self.occupied(me);
        let enemy = self.occupied(me.other());
        let free = !self.all();
        let mut reached = Bitboard::EMPTY;
        if rules.encounter || rules.ambush {
            for j in 0..rules.n_distances as usize {
                let k = rules.distances[j];
                let movers = Shape::ALL
                    .into_iter()
                    .filter(|s| rules.distance(*s) == k)
                    .fold(Bitboard::EMPTY, |acc, s| acc | self.pieces(me, s));
                for dir in Dir::ALL {
                    reached |= (movers & Bitboard::open(free, dir, k - 1)).shift(dir, k);
                }
            }
        }
        // Enemy pieces at the end of a free line from a piece of the mover,
        // by the direction of the line.
        let mut lined_by = [Bitboard::EMPTY; 4];
        if rules.sally {
            for dir in Dir::ALL {
                let mut start = own;
                for _ in 0..rules.sally_min_between {
                    start = start.step(dir) & free;
                }
                lined_by[dir as usize] = Bitboard::slide(start, free, dir).step(dir) & enemy;
            }
        }
        let lined = lined_by[0] | lined_by[1] | lined_by[2] | lined_by[3];
        let mut reachers = ArrayVec::new();
        for t in (enemy & (reached | lined)).iter() {
            let targets = encounter::targets(self, t, rules);
            let mut found: ArrayVec<(Square, MoveKind), 32> = ArrayVec::new();
            let mut add = |from: Square, kind: MoveKind| {
                if !found.contains(&(from, kind)) {
                    found.push((from, kind));
                }
            };
            if reached.contains(t) {
                encounter::reachers(self, t, rules, &mut reachers);
                if rules.encounter {
                    encounter::moves(&reachers, &targets, &mut add);
                }
                if rules.ambush {
                    ambush::moves(&reachers, &targets, &mut add);
                }
            }
            if lined.contains(t) {
                let dirs =
                    Dir::ALL.into_iter().fold(0u8, |m, d| m | (lined_by[d as usize].contains(t) as u8) << d as u8);
                sally::moves(self, t, dirs, &targets, rules, &mut add);
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
