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
use super::moves::{MoveKind, MoveList};
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

    /// The weights the engine plays with.
    pub const DEFAULT: Weights = Weights::HAND;

    /// Weights by name: `hand`, `fitted-1` or `default`.
    pub fn named(name: &str) -> Result<Weights, String> {
        match name {
            "hand" => Ok(Weights::HAND),
            "fitted-1" => Ok(Weights::FITTED_1),
            "default" => Ok(Weights::DEFAULT),
            _ => Err(format!("unknown weights '{name}' (expected hand, fitted-1 or default)")),
        }
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
    let me = pos.side_to_move();
    let them = me.other();
    let progress = progress(pos, rules, me) - progress(pos, rules, them);

    let men = |s: Side| {
        let occ = pos.occupied(s);
        (occ.count() as i32) + pos.pyramids(s).map(|(_, p)| p.len as i32 - 1).sum::<i32>()
    };

    let free = !pos.all();
    let mobility = mobility(pos, rules, me, free) - mobility(pos, rules, them, free);
    let (stuck_them, touching_them) = exposure(pos, rules, them, free);
    let (stuck_me, touching_me) = exposure(pos, rules, me, free);

    // Threats: what each side could take now.
    let mine = pos.captures_list(rules);
    let theirs = pos.with_side(them).captures_list(rules);
    let best_mine = mine.iter().map(|&m| men_taken(pos, m)).max().unwrap_or(0);
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

/// Plain moves of a side.
fn mobility(pos: &Position, rules: &RuleSet, side: Side, free: Bitboard) -> i32 {
    let mut n = 0;
    for j in 0..rules.n_distances as usize {
        let k = rules.distances[j];
        let pieces = pos.distance_group(rules, j) & pos.occupied(side);
        for d in Dir::ALL {
            n += (pieces & Bitboard::open(free, d, k)).count() as i32;
        }
    }
    n
}

/// A side's pieces that cannot move (exposed to siege), and those of them
/// already touching an enemy piece.
fn exposure(pos: &Position, rules: &RuleSet, side: Side, free: Bitboard) -> (i32, i32) {
    let enemy = pos.occupied(side.other());
    let touching = Dir::ALL.into_iter().fold(Bitboard::EMPTY, |acc, d| acc | enemy.step(d));
    let mut stuck = Bitboard::EMPTY;
    for j in 0..rules.n_distances as usize {
        let k = rules.distances[j];
        let pieces = pos.distance_group(rules, j) & pos.occupied(side);
        let open = Dir::ALL.into_iter().fold(Bitboard::EMPTY, |acc, d| acc | Bitboard::open(free, d, k));
        stuck |= pieces - open;
    }
    (stuck.count() as i32, (stuck & touching).count() as i32)
}

/// Ranks advanced toward the enemy, a little per rank.
fn advance(pos: &Position, side: Side) -> i32 {
    pos.occupied(side)
        .iter()
        .map(|s| match side {
            Side::Even => s.rank() as i32,
            Side::Odd => 15 - s.rank() as i32,
        })
        .sum::<i32>()
}

impl Position {
    /// The captures and strikes of the side to move, as a list.
    pub fn captures_list(&self, rules: &RuleSet) -> MoveList {
        let mut v = MoveList::new();
        self.captures(rules, &mut v);
        v
    }
}
