//! Tuning the evaluation's weights from games: positions of self-play games
//! labelled with the games' results, and a logistic fit of the evaluation
//! to them (each weight moved while the fit improves, the progress weight
//! fixed as the unit), as chess engines' authors tune from game results.

use super::eval::{Features, N_TERMS, Weights, features};
use super::moves::Move;
use super::piece::Side;
use super::position::Position;
use super::rules::RuleSet;

/// One position: its terms from Even's point of view, and Even's score in
/// the game it comes from (1, ½, 0).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub features: Features,
    pub result: f64,
}

/// The positions of a game a fit learns from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Every position.
    All,
    /// Only those where neither side can take anything: a static
    /// evaluation says little of a position in the middle of an exchange.
    Quiet,
}

/// Term indices of the best capture at hand and of the men under threat.
const BEST_CAPTURE: usize = 5;
const THREATENED: usize = 6;

/// The samples of one game: the positions after the first `skip` plies
/// (those of `which`).
pub fn samples(
    start: &Position,
    rules: &RuleSet,
    moves: &[Move],
    even_score: f64,
    skip: usize,
    which: Positions,
) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut pos = *start;
    for (i, &m) in moves.iter().enumerate() {
        if i >= skip {
            let mut f = features(&pos, rules);
            let quiet = f.0[BEST_CAPTURE] == 0 && f.0[THREATENED] == 0;
            if which == Positions::Quiet && !quiet {
                pos = pos.play(m, rules);
                continue;
            }
            if pos.side_to_move() == Side::Odd {
                f.0.iter_mut().for_each(|x| *x = -*x);
            }
            out.push(Sample { features: f, result: even_score });
        }
        pos = pos.play(m, rules);
    }
    out
}

/// The expected score of an evaluation `e` (hundredths of a man) at scale `k`.
#[inline]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 100.0).exp())
}

/// The mean squared error of the predicted scores.
pub fn loss(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(k, w.apply(&s.features) as f64);
            d * d
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// The scale that fits the weights best (a golden-section search).
pub fn fit_scale(samples: &[Sample], w: &Weights) -> f64 {
    let (mut a, mut b) = (1e-3, 10.0);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(samples, w, c) < loss(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The fit: the scale first, then each weight but the progress's moved by
/// halving steps while the error falls, each kept within a factor `bound`
/// of its start and of its sign (few decisive games fit loosely: unbounded,
/// weights wander far). Returns the weights, the scale and the error before
/// and after.
pub fn fit(samples: &[Sample], start: Weights, bound: f64) -> (Weights, f64, f64, f64) {
    let within = |i: usize, v: i32| {
        let (w0, v) = (start.0[i] as f64, v as f64);
        let (lo, hi) = if w0 >= 0.0 { (w0 / bound, w0 * bound) } else { (w0 * bound, w0 / bound) };
        v >= lo.floor() && v <= hi.ceil()
    };
    let k = fit_scale(samples, &start);
    let before = loss(samples, &start, k);
    let mut w = start;
    let mut best = before;
    for step in [16, 8, 4, 2, 1] {
        loop {
            let mut better = false;
            for i in 1..N_TERMS {
                for dir in [1, -1] {
                    let mut t = w;
                    t.0[i] += dir * step;
                    if !within(i, t.0[i]) {
                        continue;
                    }
                    let l = loss(samples, &t, k);
                    if l < best {
                        best = l;
                        w = t;
                        better = true;
                    }
                }
            }
            if !better {
                break;
            }
        }
    }
    (w, k, before, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quiet samples are exactly the positions of all samples where neither
    /// side can take anything, in order.
    #[test]
    fn quiet_samples_are_the_positions_without_captures() {
        let rules = RuleSet::common();
        let mut pos = Position::start();
        let mut moves = Vec::new();
        // A game that keeps taking when it can, so both kinds occur.
        for ply in 0..300 {
            let legal = pos.legal_moves(&rules);
            let Some(&m) = legal.iter().find(|m| m.is_tactical()).or(legal.get((ply * 7) % legal.len().max(1))) else {
                break;
            };
            moves.push(m);
            pos = pos.play(m, &rules);
            if pos.is_over(&rules) {
                break;
            }
        }
        let all = samples(&Position::start(), &rules, &moves, 1.0, 4, Positions::All);
        let quiet = samples(&Position::start(), &rules, &moves, 1.0, 4, Positions::Quiet);
        assert_eq!(all.len(), moves.len() - 4);
        let want: Vec<_> =
            all.iter().filter(|s| s.features.0[BEST_CAPTURE] == 0 && s.features.0[THREATENED] == 0).collect();
        assert!(!want.is_empty() && want.len() < all.len(), "{} of {}", want.len(), all.len());
        assert_eq!(quiet.len(), want.len());
        for (q, w) in quiet.iter().zip(want) {
            assert_eq!(q.features.0, w.features.0);
        }
    }
}
