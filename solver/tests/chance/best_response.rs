//! The computed strategy is optimal under Schädler's reading: a best
//! response against it gains nothing.
//!
//! One side (the strategist) plays as `perfect` does (`best_children`: the
//! moves of best value, the side ahead keeping to those of least progress
//! rank, uniformly at random); the other (the responder) may do anything.
//! That is a one-player game for the responder, whose plays end at ±1 or
//! count 0 when endless. With `V` the exact value (rationals, from the slow
//! solver `common/exact_schaedler.rs`) and `u` the responder's part of it
//! (`V` where the responder moves, `−V` where the strategist does), the
//! responder cannot get more than `u` at any position when
//! 1. every move the strategy chooses is exactly of best value (so `u` is
//!    a fixed point of the responder's one-player equation: at the
//!    strategist's nodes the mean over its choices, at the responder's the
//!    best move, which only bounds it from above), and
//! 2. wherever the responder can keep play from ever ending (the greatest
//!    set of nodes from which, after every throw, it has a move staying in
//!    the set and every choice of the strategy stays in it too), `u ≥ 0`:
//!    the strategist, when ahead, never lets a loop be held.
//!
//! Then `u` along any play of the responder is a bounded supermartingale;
//! it converges, to the outcome where the play ends and, where it does not,
//! to a value the nodes visited infinitely often (inside that set) take,
//! at least 0: the responder's expected outcome is at most `u` at the
//! start. `bruteforce` checks both exactly, with the strategist first to
//! move and second, on Rota and three men's morris under every rule it
//! compares with the exact solver, and on every position of the 3 v 3
//! sector of six men's morris.

use std::collections::HashMap;

use engine::merels::{Rules, State};
use num_traits::{One, Zero};
use solver::merels::Solution;
use solver::merels::perfect::best_children;

use crate::common;
use common::exact_schaedler::{Exact, Q, canonical, qcmp, qeq};

/// A node of the responder's one-player game.
struct Node {
    /// The strategist moves.
    strategist: bool,
    /// Per throw, the successors the side to move may take (the
    /// strategist's choices, or all of the responder's moves), `None` for
    /// one that ends the game; empty where the throw leaves it blocked.
    throws: Vec<Vec<Option<usize>>>,
}

/// The exact value of `st` for its side to move; −1 when it has lost.
fn exact_value(rules: &Rules, exact: &Exact, st: &State) -> Q {
    if rules.lost(st) {
        return -Q::one();
    }
    exact.value(rules, st).unwrap_or_else(|| panic!("{st:?} is not in the exact graph")).clone()
}

/// Checks both conditions from `roots` with the strategist to move first
/// (`first`) or second; returns the nodes checked.
pub fn check(rules: &Rules, sol: &Solution, exact: &Exact, roots: &[State], first: bool) -> usize {
    let label = rules.label();
    let mut index: HashMap<(State, bool), usize> = HashMap::new();
    let mut queue: Vec<(State, bool)> = Vec::new();
    for r in roots {
        let k = (canonical(rules, r), first);
        if !rules.lost(&k.0) && !index.contains_key(&k) {
            index.insert(k, queue.len());
            queue.push(k);
        }
    }
    let mut nodes: Vec<Node> = Vec::new();
    let mut head = 0;
    while head < queue.len() {
        let (st, strategist) = queue[head];
        head += 1;
        let mut throws = Vec::new();
        for (throw, _) in rules.throw_outcomes(&st) {
            let kids: Vec<State> = rules.actions(&st, throw).into_iter().map(|k| k.1).collect();
            let taken: Vec<usize> = if strategist {
                let chosen = best_children(sol, &st, &kids).expect("solved");
                // Condition 1: each choice is exactly of best value.
                let best = kids.iter().map(|c| -exact_value(rules, exact, c)).max_by(qcmp);
                for &i in &chosen {
                    let v = -exact_value(rules, exact, &kids[i]);
                    assert!(
                        best.as_ref().is_some_and(|b| qeq(&v, b)),
                        "{label}: at {st:?} after {throw:?} the strategy takes {:?} worth {v}, the best is {best:?}",
                        kids[i]
                    );
                }
                chosen
            } else {
                (0..kids.len()).collect()
            };
            let succ = taken
                .into_iter()
                .map(|i| {
                    let c = kids[i];
                    if rules.lost(&c) {
                        return None;
                    }
                    let k = (canonical(rules, &c), !strategist);
                    Some(*index.entry(k).or_insert_with(|| {
                        queue.push(k);
                        queue.len() - 1
                    }))
                })
                .collect();
            throws.push(succ);
        }
        nodes.push(Node { strategist, throws });
    }
    // The greatest set where the responder can keep play going for ever.
    let mut inside = vec![true; nodes.len()];
    loop {
        let mut changed = false;
        for (i, node) in nodes.iter().enumerate() {
            if !inside[i] {
                continue;
            }
            let stays = |t: &Vec<Option<usize>>| {
                let kept = |s: &Option<usize>| s.is_some_and(|j| inside[j]);
                if node.strategist { !t.is_empty() && t.iter().all(kept) } else { t.iter().any(kept) }
            };
            if !node.throws.iter().all(stays) {
                inside[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Condition 2: there, the responder is not behind.
    for (&(st, strategist), &i) in &index {
        if inside[i] {
            let v = exact_value(rules, exact, &st);
            let u = if strategist { -v } else { v };
            assert!(u >= Q::zero(), "{label}: the responder can hold {st:?} for ever, where it is behind ({u})");
        }
    }
    nodes.len()
}
