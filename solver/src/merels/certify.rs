//! Proving values where play may go on forever (the open region left by
//! interval iteration under Schädler's dice).
//!
//! Interval iteration converges to two reachability games: endless play
//! counted as a loss for the side to move (the lower bound) or as its win (the
//! upper bound). Where both sides can keep the game going, the true value —
//! endless play a draw — lies strictly between. There strategies settle it.
//!
//! Fix the maximiser's strategy `σ` on the open positions: what is left is a
//! one-player problem (a Markov decision process) for the minimiser, with
//! chance. Its value is a lower bound of the game's. In it the minimiser can
//! stay forever exactly inside the maximal end components (sets of states it
//! can keep the play in whatever the dice do); each such component is
//! collapsed to one choice: stay for 0, or wait for the best exit. Without end
//! components the process stops with probability 1 under every strategy, so
//! iterating from −1 and from +1 meets at its unique solution, each iterate a
//! proven bound. Strategy iteration improves `σ` against these values until
//! no switch helps; then the same strategy, given to the minimiser, with the
//! maximiser free, yields the upper bound. When `σ` is optimal the bounds
//! meet.
//!
//! States are (position, role): the side to move is the maximiser or the
//! minimiser; every position of the open region appears in both roles.

use smallvec::SmallVec;

/// Where an option leads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Another state of the process.
    State(u32),
    /// Outside: the maximiser's payoff is known to lie in `[lo, hi]`.
    Sink { lo: f64, hi: f64 },
}

/// One state: for each throw (with its probability), the options of the
/// side to move. A fixed player's state has exactly one option per throw.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub maximiser: bool,
    pub throws: SmallVec<[(f64, SmallVec<[Target; 8]>); 2]>,
}

/// Who chooses freely; the other follows a fixed strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Free {
    Maximiser,
    Minimiser,
}

/// A proven interval of the maximiser's value per state.
pub struct Bounds {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
}

/// The maximal end components of the free player: sets of states in which
/// it can keep the play forever. Returns the component of each state
/// (`u32::MAX` for none).
pub fn end_components(states: &[State], free: Free) -> Vec<u32> {
    let n = states.len();
    let is_free = |s: &State| s.maximiser == (free == Free::Maximiser);
    let mut alive = vec![true; n];
    // A fixed state with an option leading out cannot stay.
    for (i, s) in states.iter().enumerate() {
        if !is_free(s) && s.throws.iter().any(|(_, o)| o.iter().any(|t| matches!(t, Target::Sink { .. }))) {
            alive[i] = false;
        }
    }
    loop {
        // Edges: for free states the options that stay alive, for fixed
        // states their one option.
        let comp = scc(n, |i, out: &mut Vec<u32>| {
            if !alive[i] {
                return;
            }
            for (_, opts) in &states[i].throws {
                for t in opts {
                    if let Target::State(j) = *t
                        && alive[j as usize]
                    {
                        out.push(j);
                    }
                }
            }
        });
        let mut changed = false;
        for i in 0..n {
            if !alive[i] {
                continue;
            }
            let same = |t: &Target| matches!(*t, Target::State(j) if alive[j as usize] && comp[j as usize] == comp[i]);
            let keeps = if is_free(&states[i]) {
                // Under every throw some option stays in the component.
                states[i].throws.iter().all(|(_, o)| o.iter().any(same))
            } else {
                states[i].throws.iter().all(|(_, o)| o.iter().all(same))
            };
            if !keeps {
                alive[i] = false;
                changed = true;
            }
        }
        if !changed {
            return (0..n).map(|i| if alive[i] { comp[i] } else { u32::MAX }).collect();
        }
    }
}

/// Strongly connected components (iterative Tarjan); `edges(i, out)` lists
/// the successors of `i`.
fn scc(n: usize, mut edges: impl FnMut(usize, &mut Vec<u32>)) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on = vec![false; n];
    let mut comp = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let mut ncomp = 0u32;
    // Call stack: (node, its successors, position in them).
    let mut calls: Vec<(u32, Vec<u32>, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut succ = Vec::new();
        edges(root, &mut succ);
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root as u32);
        on[root] = true;
        calls.push((root as u32, succ, 0));
        while let Some((v, succ, pos)) = calls.last_mut() {
            let v = *v as usize;
            if *pos < succ.len() {
                let w = succ[*pos] as usize;
                *pos += 1;
                if index[w] == NONE {
                    let mut s2 = Vec::new();
                    edges(w, &mut s2);
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u32);
                    on[w] = true;
                    calls.push((w as u32, s2, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().expect("tarjan stack") as usize;
                        on[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
                calls.pop();
                if let Some((u, _, _)) = calls.last() {
                    let u = *u as usize;
                    low[u] = low[u].min(low[v]);
                }
            }
        }
    }
    comp
}

/// Solves the process with the free player choosing: end components
/// collapsed, then iteration from both sides until every interval is at most
/// `eps` wide (or `max_sweeps`). Bounds hold whenever it stops.
pub fn solve(states: &[State], free: Free, eps: f64, max_sweeps: u64) -> Bounds {
    let n = states.len();
    let ec = end_components(states, free);
    let ncomp = ec.iter().filter(|&&c| c != u32::MAX).map(|&c| c as usize + 1).max().unwrap_or(0);
    // Exits of each component: options of its free states leading out.
    let mut exits: Vec<Vec<Target>> = vec![Vec::new(); ncomp];
    let is_free = |s: &State| s.maximiser == (free == Free::Maximiser);
    for i in 0..n {
        let c = ec[i];
        if c == u32::MAX || !is_free(&states[i]) {
            continue;
        }
        for (_, opts) in &states[i].throws {
            for t in opts {
                let inside = matches!(*t, Target::State(j) if ec[j as usize] == c);
                if !inside {
                    exits[c as usize].push(*t);
                }
            }
        }
    }
    let better = |a: f64, b: f64| if free == Free::Maximiser { a.max(b) } else { a.min(b) };
    let mut lo = vec![-1.0f64; n];
    let mut hi = vec![1.0f64; n];
    let mut clo = vec![-1.0f64; ncomp];
    let mut chi = vec![1.0f64; ncomp];
    let value = |t: &Target, lo: &[f64], hi: &[f64], clo: &[f64], chi: &[f64]| -> (f64, f64) {
        match *t {
            Target::Sink { lo: a, hi: b } => (a, b),
            Target::State(j) => match ec[j as usize] {
                u32::MAX => (lo[j as usize], hi[j as usize]),
                c => (clo[c as usize], chi[c as usize]),
            },
        }
    };
    for _ in 0..max_sweeps {
        // Components: stay for 0, or the best exit.
        for c in 0..ncomp {
            let (mut a, mut b) = (0.0f64, 0.0f64);
            for t in &exits[c] {
                let (x, y) = value(t, &lo, &hi, &clo, &chi);
                a = better(a, x);
                b = better(b, y);
            }
            clo[c] = a;
            chi[c] = b;
        }
        let mut widest = 0.0f64;
        let mut moved = 0.0f64;
        for i in 0..n {
            if ec[i] != u32::MAX {
                continue;
            }
            let s = &states[i];
            let mine = s.maximiser;
            let (mut a, mut b) = (0.0f64, 0.0f64);
            for (p, opts) in &s.throws {
                let mut best: Option<(f64, f64)> = None;
                for t in opts {
                    let (x, y) = value(t, &lo, &hi, &clo, &chi);
                    best = Some(match best {
                        None => (x, y),
                        Some((u, w)) if mine => (u.max(x), w.max(y)),
                        Some((u, w)) => (u.min(x), w.min(y)),
                    });
                }
                let (x, y) = best.expect("every throw has an option");
                a += p * x;
                b += p * y;
            }
            let (na, nb) = (lo[i].max(a - 1e-13), hi[i].min(b + 1e-13));
            moved = moved.max(na - lo[i]).max(hi[i] - nb);
            lo[i] = na;
            hi[i] = nb;
            widest = widest.max(hi[i] - lo[i]);
        }
        // Done when tight, or when nothing moves any more (the width left
        // is what the outside values bring in).
        if widest <= eps || moved <= 1e-12 {
            break;
        }
    }
    for i in 0..n {
        if ec[i] != u32::MAX {
            lo[i] = clo[ec[i] as usize];
            hi[i] = chi[ec[i] as usize];
        }
    }
    Bounds { lo, hi }
}
