//! Move generation for the side to move, and playing a move (its capture or
//! strike, then the sieges it causes).
//!
//! Everything starts from the geometry of one position, computed once in
//! bitboards: for each direction and distance, where a move would find its
//! way open. Plain moves are read off it; the enemy pieces that a regular
//! move reaches, or that stand at the end of a free line (a possible sally),
//! are the only ones examined for captures.

use super::bitboard::{Bitboard, Dir};
use super::moves::{Move, MoveKind, MoveList};
use super::piece::Shape;
use super::position::{Position, Snapshot};
use super::rules::RuleSet;
use super::square::Square;
use super::{ambush, encounter, sally, siege};

/// The longest regular move the generator supports.
pub const MAX_DISTANCE: usize = 4;

/// The enemy pieces regular moves reach: by distance group and direction of
/// the move, and those reached by two moves or more.
pub(crate) struct Reach {
    pub by: [[Bitboard; 4]; 4],
    pub twice: Bitboard,
}

/// Captures and strikes found so far, and what finding them needs.
pub(crate) struct Hits<'a> {
    pub pos: &'a Position,
    pub rules: &'a RuleSet,
    pub pyramids: Bitboard,
    pub caps: MoveList,
}

impl Hits<'_> {
    /// The piece on `from` attacking the enemy piece on `t` with each of its
    /// attack values times `times` (1 for an encounter, the squares between
    /// for a sally): a capture at the target's whole value, a strike at the
    /// bottom layer of a pyramid of two or more.
    #[inline(always)]
    pub fn attack(&mut self, from: Square, t: Square, times: u32) {
        let pos = self.pos;
        let whole = pos.value_at(t) as u32;
        let bottom = if self.pyramids.contains(t) {
            match pos.pyramid_at(t) {
                Some(p) if self.rules.pyramid_strikes && p.len >= 2 => p.bottom().value() as u32,
                _ => u32::MAX,
            }
        } else {
            u32::MAX
        };
        let mut try_value = |a: u32| {
            if a == whole {
                self.caps.push(Move::new(from, t, MoveKind::Capture));
            }
            if a == bottom {
                self.caps.push(Move::new(from, t, MoveKind::Strike));
            }
        };
        if self.pyramids.contains(from) {
            for &a in pos.attack_values(from, self.rules.pyramid_attacks_with_total).values() {
                try_value(a as u32 * times);
            }
        } else {
            try_value(pos.value_at(from) as u32 * times);
        }
    }
}

/// Whether the processor has BMI1/2, LZCNT and POPCNT (detected once).
#[cfg(target_arch = "x86_64")]
#[inline]
fn bit_instructions() -> bool {
    std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// A position's move geometry.
struct Geometry {
    /// `open[d][k]`: squares from which the squares at distances `1..=k` in
    /// direction `d` are on the board and empty (`k = 0`: every square).
    open: [[Bitboard; MAX_DISTANCE + 1]; 4],
    /// The mover's pieces of each distance group of the rules.
    movers: [Bitboard; 4],
}

impl Geometry {
    #[inline(always)]
    fn new(pos: &Position, rules: &RuleSet) -> Geometry {
        let free = !pos.all();
        let max_distance = rules.max_distance();
        let mut open = [[Bitboard::FULL; MAX_DISTANCE + 1]; 4];
        // Every distance up to the longest, each with a fixed shift.
        crate::each_dir!(D => {
            let back = D.opposite();
            let o = &mut open[D as usize];
            o[1] = free.shift(back, 1);
            o[2] = o[1] & free.shift(back, 2);
            o[3] = o[2] & free.shift(back, 3);
            if max_distance > 3 {
                o[4] = o[3] & free.shift(back, 4);
            }
        });
        let me = pos.side_to_move();
        let mut movers = [Bitboard::EMPTY; 4];
        for (j, m) in movers.iter_mut().enumerate().take(rules.n_distances as usize) {
            *m = pos.distance_group(rules, j) & pos.occupied(me);
        }
        Geometry { open, movers }
    }
}

impl Position {
    /// The pieces (of both sides) of the rules' `j`-th distance group: those
    /// that move `rules.distances[j]` squares.
    #[inline]
    pub fn distance_group(&self, rules: &RuleSet, j: usize) -> Bitboard {
        let mask = rules.shapes_at[j];
        // Branch-free: each shape's pieces kept or dropped by its bit.
        let keep = |bit: u8| Bitboard(0u128.wrapping_sub((mask >> bit & 1) as u128));
        (self.shape_bb(Shape::Circle) & keep(0))
            | (self.shape_bb(Shape::Triangle) & keep(1))
            | (self.shape_bb(Shape::Square) & keep(2))
            | (self.shape_bb(Shape::Pyramid) & keep(3))
    }

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
        let g = Geometry::new(self, rules);
        for j in 0..rules.n_distances as usize {
            let k = rules.distances[j];
            for dir in Dir::ALL {
                for from in (g.movers[j] & g.open[dir as usize][k as usize]).iter() {
                    let to = Square((from.0 as i16 + dir.delta() as i16 * k as i16) as u8);
                    out.push(Move::new(from, to, MoveKind::Plain));
                }
            }
        }
        self.each_capture(rules, &g, |m| out.push(m));
    }

    /// The number of legal moves (none when the game is over), without
    /// listing the plain ones: what perft needs at its last ply. On x86-64
    /// processors with the bit-manipulation instructions (BMI1/2, LZCNT,
    /// POPCNT) a copy compiled for them runs, chosen at run time.
    pub fn count_moves(&self, rules: &RuleSet) -> usize {
        #[cfg(target_arch = "x86_64")]
        if bit_instructions() {
            // SAFETY: the processor has the features the copy is built for.
            return unsafe { self.count_moves_bmi(rules) };
        }
        self.count_moves_body(rules)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    unsafe fn count_moves_bmi(&self, rules: &RuleSet) -> usize {
        self.count_moves_body(rules)
    }

    #[inline(always)]
    fn count_moves_body(&self, rules: &RuleSet) -> usize {
        if self.is_over(rules) {
            return 0;
        }
        let g = Geometry::new(self, rules);
        let mut n = 0;
        for j in 0..rules.n_distances as usize {
            let k = rules.distances[j] as usize;
            crate::each_dir!(D => {
                n += (g.movers[j] & g.open[D as usize][k]).count() as usize;
            });
        }
        self.each_capture(rules, &g, |_| n += 1);
        n
    }

    /// Captures and strikes by encounter, ambush and sally, each (from, to,
    /// kind) once however many reasons allow it.
    pub fn captures(&self, rules: &RuleSet, out: &mut MoveList) {
        let g = Geometry::new(self, rules);
        self.each_capture(rules, &g, |m| out.push(m));
    }

    #[inline(always)]
    fn each_capture(&self, rules: &RuleSet, g: &Geometry, mut emit: impl FnMut(Move)) {
        let own = self.occupied(self.side_to_move());
        let enemy = self.occupied(self.side_to_move().other());
        if own.is_empty() || enemy.is_empty() {
            return;
        }
        // The ranks each army spans: armies further apart than the longest
        // move cannot meet by a regular move (no encounter, no ambush), and
        // armies on no common rank cannot sally along a rank.
        let (own_lo, own_hi) = own.rank_span();
        let (enemy_lo, enemy_hi) = enemy.rank_span();
        let reach_d = rules.max_distance();
        let apart = enemy_lo > own_hi + reach_d || own_lo > enemy_hi + reach_d;
        let common_rank = !(enemy_lo > own_hi || own_lo > enemy_hi);
        let mut hits = Hits { pos: self, rules, pyramids: self.shape_bb(Shape::Pyramid), caps: MoveList::new() };
        // Enemy pieces a regular move reaches, by distance group and
        // direction; those reached twice or more may fall to an ambush.
        let mut reach = Reach { by: [[Bitboard::EMPTY; 4]; 4], twice: Bitboard::EMPTY };
        if (rules.encounter || rules.ambush) && !apart {
            let mut once = Bitboard::EMPTY;
            for j in 0..rules.n_distances as usize {
                let k = rules.distances[j];
                crate::each_dir!(D => {
                    let src = g.movers[j] & g.open[D as usize][k as usize - 1];
                    let r = match k {
                        1 => src.shift(D, 1),
                        2 => src.shift(D, 2),
                        3 => src.shift(D, 3),
                        _ => src.shift(D, 4),
                    } & enemy;
                    reach.by[j][D as usize] = r;
                    reach.twice |= once & r;
                    once |= r;
                });
            }
        }
        if rules.encounter && !apart {
            encounter::captures(&mut hits, &reach);
        }
        if rules.ambush && !apart {
            ambush::captures(&mut hits, &reach);
        }
        if rules.sally {
            sally::captures(&mut hits, common_rank);
        }
        // Several reasons for one (from, to, kind) make one move.
        let caps = &mut hits.caps;
        if caps.len() > 1 {
            caps.sort_unstable();
            let mut w = 1;
            for r in 1..caps.len() {
                if caps[r] != caps[w - 1] {
                    caps[w] = caps[r];
                    w += 1;
                }
            }
            caps.truncate(w);
        }
        for &m in caps.iter() {
            emit(m);
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

    /// Plays a move and returns what is needed to take it back exactly.
    pub fn make(&mut self, m: Move, rules: &RuleSet) -> Snapshot {
        let mover = self.side_to_move();
        let mut snap = self.snapshot(mover);
        // A pyramid that moves changes the pyramid table before any removal
        // would save it: save it now, so that unmaking restores the table as
        // it was before the move.
        if self.shape_of(m.from) == Shape::Pyramid {
            self.save_pyramids(&mut snap);
        }
        match m.kind {
            MoveKind::Plain => self.relocate(m.from, m.to),
            MoveKind::Capture => {
                self.note_removal(m.to, &mut snap);
                self.capture(m.to, mover);
                self.relocate(m.from, m.to);
            }
            MoveKind::Strike => {
                self.save_pyramids(&mut snap);
                self.strike(m.to, mover);
            }
        }
        let sieged = if rules.siege { siege::besieged(self, mover, rules) } else { Bitboard::EMPTY };
        for s in sieged.iter() {
            self.note_removal(s, &mut snap);
            self.capture(s, mover);
        }
        self.end_turn(m.kind == MoveKind::Plain && sieged.is_empty());
        snap
    }

    /// Takes back the last move made with [`Position::make`].
    pub fn unmake(&mut self, m: Move, snap: &Snapshot) {
        let mover = self.side_to_move().other();
        self.restore(m, mover, snap);
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, m: Move, rules: &RuleSet) -> bool {
        self.legal_moves(rules).contains(&m)
    }
}
