//! The evaluation, in hundredths of a captured man, from the side to move's
//! point of view. Its terms:
//!
//! - **Progress toward the victory in force.** Men captured (body), values
//!   captured (goods), or both (lawsuit, honor), for each side; the side
//!   nearer its goal gains more as the goal nears.
//! - **Men on the board**, a little: what can still fight.
//! - **Mobility**: the plain moves each side has.
//! - **Exposure to siege**: a piece with no open direction is a target; one
//!   that already touches an enemy piece falls to the next enemy move.
//! - **Threats**: the captures, strikes and sallies each side has now, worth
//!   the men they would take; the side to move can take the best one.
//! - **Pyramid safety**: a whole pyramid keeps its total as an attack value.
//! - **Advance**: pieces toward the enemy half, where proper victories are won.

use super::bitboard::{Bitboard, Dir};
use super::movegen::{Paths, with_bit_instructions};
use super::moves::{Move, MoveKind, MoveList};
use super::piece::{Shape, Side};
use super::position::Position;
use super::rules::{RuleSet, Victory};

/// One captured man.
pub const MAN: i32 = 100;

/// The men a capture or strike takes.
fn men_taken(pos: &Position, m: super::moves::Move) -> i32 {
    match m.kind {
        MoveKind::Strike => 1,
        MoveKind::Capture => pos.pyramid_at(m.to).map_or(1, |p| p.len as i32),
        MoveKind::Plain => 0,
    }
}

/// The evaluation's terms for the side to move, each "mine minus theirs"
/// (or the side to move's alone), in the units the weights multiply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features(pub [i32; N_TERMS]);

/// The number of terms.
pub const N_TERMS: usize = 10;

/// The weights of the terms, in hundredths of a captured man per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; N_TERMS]);

impl Weights {
    /// The terms' names, in order.
    pub const NAMES: [&'static str; N_TERMS] = [
        "progress",
        "men",
        "mobility",
        "stuck",
        "stuck_touching",
        "best_capture",
        "threatened",
        "pyramid_intact",
        "advance",
        "tempo",
    ];

    /// The weights set by hand.
    pub const HAND: Weights = Weights([1, 30, 3, 15, 45, 60, -25, 20, 1, 10]);

    /// The hand-set weights fitted to 400 self-play games (`ludus rithmo
    /// tune --base hand`): stronger at depth 2 (+18 Elo, 95% interval +5 to
    /// +31, an SPRT of 0 against 20 Elo accepting after 230 games) but not
    /// at depth 3 (−12 Elo, −36 to +12, the SPRT rejecting after 234): not
    /// adopted.
    pub const FITTED_1: Weights = Weights([1, 17, 1, 7, 90, 30, -45, 40, 0, 5]);

    /// The hand-set weights fitted to the quiet positions of 2000 self-play
    /// games at depth 2, each within a factor 1.5 (`ludus rithmo tune
    /// --base hand --games 2000 --bound 1.5 --match-depth 3 --seed 5`): stronger at
    /// depth 3, +18.3 Elo (95% interval +4.0 to +32.6), an SPRT of 0 against
    /// 20 Elo accepting after 438 games. Tested again on other games
    /// (`ludus rithmo tune --test fitted-2 --base hand --match-depth 3 --seed
    /// 100`): +31.7 Elo (+8.7 to +55.0), accepted after 154 games. Adopted.
    pub const FITTED_2: Weights = Weights([1, 20, 5, 10, 68, 60, -25, 15, 0, 6]);

    /// The weights the engine plays with.
    pub const DEFAULT: Weights = Weights::FITTED_2;

    /// Weights by name: `hand`, `fitted-1`, `fitted-2` or `default`.
    pub fn named(name: &str) -> Result<Weights, crate::names::UnknownName> {
        let all = [
            ("hand", Weights::HAND),
            ("fitted-1", Weights::FITTED_1),
            ("fitted-2", Weights::FITTED_2),
            ("default", Weights::DEFAULT),
        ];
        crate::names::parse_name(name, "weights", &all, |(n, _)| n).map(|(_, w)| w)
    }

    /// The score of these terms.
    #[inline]
    pub fn apply(&self, f: &Features) -> i32 {
        self.0.iter().zip(f.0.iter()).map(|(w, x)| w * x).sum()
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The evaluation of a position for the side to move, with the default
/// weights.
pub fn evaluate(pos: &Position, rules: &RuleSet) -> i32 {
    Weights::DEFAULT.apply(&features(pos, rules))
}

/// The evaluation's terms of a position, for the side to move.
pub fn features(pos: &Position, rules: &RuleSet) -> Features {
    let mine = pos.captures_list(rules);
    features_knowing(pos, rules, &mine)
}

/// [`features`] of a position whose moves are known: `moves` holds every
/// capture and strike of the side to move (and perhaps plain moves).
pub fn features_knowing(pos: &Position, rules: &RuleSet, moves: &[Move]) -> Features {
    with_bit_instructions!(features_body(pos: &Position, rules: &RuleSet, moves: &[Move]) -> Features)
}

#[inline(always)]
fn features_body(pos: &Position, rules: &RuleSet, moves: &[Move]) -> Features {
    let me = pos.side_to_move();
    let them = me.other();
    let progress = progress(pos, rules, me) - progress(pos, rules, them);

    let men = |s: Side| {
        let occ = pos.occupied(s);
        (occ.count() as i32) + pos.pyramids(s).map(|(_, p)| p.len as i32 - 1).sum::<i32>()
    };

    let paths = Paths::new(!pos.all(), rules.max_distance());
    let mobility = pos.mobility(rules, me) as i32 - pos.mobility(rules, them) as i32;
    let (stuck_them, touching_them) = exposure(pos, rules, them, &paths);
    let (stuck_me, touching_me) = exposure(pos, rules, me, &paths);

    // Threats: what each side could take now.
    let mut theirs = MoveList::new();
    pos.captures_of(rules, them, &mut theirs);
    let best_mine = moves.iter().filter(|m| m.is_tactical()).map(|&m| men_taken(pos, m)).max().unwrap_or(0);
    let mut threatened = Bitboard::EMPTY;
    for m in theirs.iter() {
        threatened = threatened.with(m.to);
    }
    let threatened_men: i32 =
        threatened
            .iter()
            .map(|s| {
                if pos.shape_bb(Shape::Pyramid).contains(s) { pos.pyramid_at(s).map_or(1, |p| p.len as i32) } else { 1 }
            })
            .sum();
    let intact = |s: Side| pos.pyramids(s).filter(|(_, p)| p.intact).count() as i32;
    Features([
        progress,
        men(me) - men(them),
        mobility,
        stuck_them - stuck_me,
        touching_them - touching_me,
        best_mine,
        threatened_men,
        intact(me) - intact(them),
        advance(pos, me) - advance(pos, them),
        1,
    ])
}

/// How far a side is toward its victory, in hundredths of a man.
fn progress(pos: &Position, rules: &RuleSet, side: Side) -> i32 {
    let c = pos.captured_by(side);
    let (n, v) = (c.count() as i32, c.value as i32);
    // Values are worth about a man per 40.
    let by_men = |goal: i32| n * MAN + if n > goal - 5 { (n - (goal - 5)) * 40 } else { 0 };
    let by_value = |goal: i32| v * MAN / 40 + if v > goal * 2 / 3 { (v - goal * 2 / 3) * MAN / 60 } else { 0 };
    match rules.victory {
        Victory::Body(goal) => by_men(goal as i32),
        Victory::Goods(goal) => by_value(goal as i32),
        Victory::Lawsuit(goal, men) | Victory::Honor(goal, men) | Victory::HonorLawsuit(goal, men, _) => {
            (by_men(men as i32) + by_value(goal as i32)) / 2
        }
        Victory::Great | Victory::Greater | Victory::Excellent => n * MAN,
    }
}

/// A side's pieces that cannot move (exposed to siege), and those of them
/// already touching an enemy piece.
#[inline(always)]
fn exposure(pos: &Position, rules: &RuleSet, side: Side, paths: &Paths) -> (i32, i32) {
    let enemy = pos.occupied(side.other());
    let touching = Dir::ALL.into_iter().fold(Bitboard::EMPTY, |acc, d| acc | enemy.step(d));
    let stuck = pos.stuck(rules, side, paths);
    (stuck.count() as i32, (stuck & touching).count() as i32)
}

/// Ranks advanced toward the enemy, a little per rank.
fn advance(pos: &Position, side: Side) -> i32 {
    let occ = pos.occupied(side);
    // The ranks summed bit by bit: the squares whose rank has bit `k` set
    // count 2^k each.
    let ranks: i32 = (0..4).map(|k| (occ & Bitboard(RANK_BIT[k])).count() as i32 * (1 << k)).sum();
    match side {
        Side::Even => ranks,
        Side::Odd => 15 * occ.count() as i32 - ranks,
    }
}

/// The squares whose rank (0 to 15) has bit `k` set.
const RANK_BIT: [u128; 4] = {
    let mut m = [0u128; 4];
    let mut s = 0;
    while s < 128 {
        let mut k = 0;
        while k < 4 {
            if (s >> 3) >> k & 1 == 1 {
                m[k] |= 1 << s;
            }
            k += 1;
        }
        s += 1;
    }
    m
};

impl Position {
    /// The captures and strikes of the side to move, as a list.
    pub fn captures_list(&self, rules: &RuleSet) -> MoveList {
        let mut v = MoveList::new();
        self.captures(rules, &mut v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of a few games of moves picked by a simple generator.
    fn positions() -> Vec<Position> {
        let rules = RuleSet::common();
        let mut out = Vec::new();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20 {
            let mut pos = Position::start();
            for _ in 0..80 {
                let moves = pos.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Captures first when there are any, to reach contact.
                let tactical: Vec<Move> = moves.iter().copied().filter(|m| m.is_tactical()).collect();
                let pick = if !tactical.is_empty() && !x.is_multiple_of(3) { &tactical[..] } else { &moves[..] };
                pos = pos.play(pick[(x >> 8) as usize % pick.len()], &rules);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn terms_against_their_definitions() {
        let rules = RuleSet::common();
        for pos in positions() {
            for side in [Side::Even, Side::Odd] {
                let by_square: i32 = pos
                    .occupied(side)
                    .iter()
                    .map(|s| if side == Side::Even { s.rank() as i32 } else { 15 - s.rank() as i32 })
                    .sum();
                assert_eq!(advance(&pos, side), by_square, "{pos}");
                let mut all = MoveList::new();
                pos.with_side(side).generate(&rules, &mut all);
                let plain = all.iter().filter(|m| !m.is_tactical()).count();
                assert_eq!(pos.mobility(&rules, side) as usize, plain, "{pos}");
            }
            let mut moves = MoveList::new();
            pos.generate(&rules, &mut moves);
            assert_eq!(features_knowing(&pos, &rules, &moves), features(&pos, &rules), "{pos}");
        }
    }
}
