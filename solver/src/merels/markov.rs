//! Exact win probabilities of fixed strategies: the game as an absorbing
//! Markov chain over positions (symmetry-reduced), solved by iteration rather
//! than sampled. Each probability is closed in from below (from 0) and from
//! above (from 1, over the positions from which play can still end; 0 for
//! the others) at once: both iterations are monotone and meet at the chain's
//! unique solution, so the gap between them proves how far each figure can be off,
//! however slowly play gets absorbed (long games of equally good moves).

use engine::merels::{Blocked, State, Throw};
use fxhash::FxHashMap;

use super::index::Indexer;
use super::perfect::best_children;
use super::sector::Sector;
use super::solution::Solution;

/// How a side chooses its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random among the legal actions.
    Random,
    /// As the perfect player: among the actions of best value (fastest win,
    /// slowest loss, any draw; under chance the highest expected value, the
    /// side ahead keeping to those of least progress rank), uniformly at
    /// random (`perfect::best_children`).
    Perfect,
}

/// The fate of the leader (the side that starts) under two policies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainResult {
    pub leader_wins: f64,
    pub leader_loses: f64,
    /// The rest: games that never end.
    pub endless: f64,
    /// Positions of the chain (after symmetry reduction).
    pub states: usize,
    pub sweeps: usize,
    /// The largest change in the last sweep.
    pub residual: f64,
    /// The most `leader_wins` and `leader_loses` can be off: half the gap
    /// between their bounds from below and from above (0 up to rounding
    /// when the iteration closed; larger when it stopped at its limit of
    /// work, `WORK`).
    pub error: f64,
}

/// The most work (entries of the chain read, both bounds of both
/// outcomes) the iterations may take before they stop with the bounds they
/// have.
const WORK: u64 = 4_000_000_000;

/// Bounds closer than this end the iteration.
const CLOSED: f64 = 1e-14;

enum Node {
    /// The game is over: 1 if the leader won, 0 otherwise, and whether it lost.
    Done { win: f64, loss: f64 },
    /// Play goes on: the successors with their chances, and the chances
    /// that the game ends at once (a throw after which the side to move has
    /// no action and, by the rules, loses) in the leader's win or loss.
    Moves { out: Vec<(usize, f64)>, win: f64, loss: f64 },
}

/// Solves the chain from the start position.
pub fn leader_chances(sol: &Solution, leader: Policy, follower: Policy) -> ChainResult {
    let nodes = chain_of_play(sol, leader, follower);
    if let Node::Done { win, loss } = nodes[0] {
        return ChainResult {
            leader_wins: win,
            leader_loses: loss,
            endless: 1.0 - win - loss,
            states: 1,
            sweeps: 0,
            residual: 0.0,
            error: 0.0,
        };
    }
    let states = nodes.len();
    let chain = Chain::new(&nodes);
    drop(nodes);
    let (win, loss, sweeps, residual) = chain.chances(WORK);
    let (w, l) = (0.5 * (win.0 + win.1), 0.5 * (loss.0 + loss.1));
    ChainResult {
        leader_wins: w,
        leader_loses: l,
        endless: (1.0 - w - l).max(0.0),
        states,
        sweeps,
        residual,
        error: 0.5 * (win.1 - win.0).max(loss.1 - loss.0),
    }
}

/// The positions play reaches from the start under the two policies, the
/// start first, each with its successors.
fn chain_of_play(sol: &Solution, leader: Policy, follower: Policy) -> Vec<Node> {
    let rules = &sol.rules;
    let mut ids: FxHashMap<(Sector, u64, bool), usize> = FxHashMap::default();
    let mut indexers: FxHashMap<Sector, Indexer> = FxHashMap::default();
    let mut key = |st: &State, lead: bool| {
        let s = Sector::of(st);
        let ix = indexers.entry(s).or_insert_with(|| Indexer::new(sol.board_tables.clone(), s));
        (s, ix.index(st), lead)
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut queue: Vec<(State, bool)> = vec![(State::start(rules.men()), true)];
    ids.insert(key(&queue[0].0, true), 0);
    let mut head = 0;
    while head < queue.len() {
        let (st, lead) = queue[head];
        head += 1;
        let node = if rules.lost(&st) {
            // The side to move lost.
            if lead { Node::Done { win: 0.0, loss: 1.0 } } else { Node::Done { win: 1.0, loss: 0.0 } }
        } else {
            let policy = if lead { leader } else { follower };
            let mut edges: Vec<(State, f64)> = Vec::new();
            // The chance of throws after which the side to move is blocked.
            let mut blocked = 0.0;
            for (throw, p72) in rules.throw_outcomes(&st) {
                let kids: Vec<State> = rules.actions(&st, throw).into_iter().map(|k| k.1).collect();
                let chosen: Vec<State> = match policy {
                    Policy::Random => kids.clone(),
                    Policy::Perfect => {
                        let best = best_children(sol, &st, &kids).expect("solved");
                        best.into_iter().map(|i| kids[i]).collect()
                    }
                };
                if chosen.is_empty() {
                    blocked += p72 as f64 / 72.0;
                }
                let share = p72 as f64 / 72.0 / chosen.len().max(1) as f64;
                edges.extend(chosen.into_iter().map(|c| (c, share)));
                debug_assert!(throw == Throw::None || !kids.is_empty() || rules.blocked != Blocked::Pass);
            }
            // A blocked side loses, unless a blocked game is drawn: the
            // leader's win and loss when the side to move is blocked with
            // chance `c`.
            let blocked_end = |c: f64| match rules.blocked {
                Blocked::Draw => (0.0, 0.0),
                _ if lead => (0.0, c),
                _ => (c, 0.0),
            };
            if edges.is_empty() {
                let (win, loss) = blocked_end(1.0);
                Node::Done { win, loss }
            } else {
                let (win, loss) = blocked_end(blocked);
                let mut out: Vec<(usize, f64)> = Vec::with_capacity(edges.len());
                for (c, p) in edges {
                    let k = key(&c, !lead);
                    let id = *ids.entry(k).or_insert_with(|| {
                        queue.push((c, !lead));
                        queue.len() - 1
                    });
                    match out.iter_mut().find(|e| e.0 == id) {
                        Some(e) => e.1 += p,
                        None => out.push((id, p)),
                    }
                }
                Node::Moves { out, win, loss }
            }
        };
        nodes.push(node);
    }
    nodes
}

/// The chain's linear system over the nodes from which an end can be
/// reached (every other node never ends: both chances 0): `x = Q x + b`,
/// row by row, `b` holding the chance of ending at once in a win and in a
/// loss. `Q` is substochastic and play leaves these nodes with chance 1,
/// so `I − Q` is invertible and the system has one solution.
struct Chain {
    /// Where the rows of `cols` and `probs` start (one row per node kept).
    start: Vec<usize>,
    cols: Vec<u32>,
    probs: Vec<f64>,
    win: Vec<f64>,
    loss: Vec<f64>,
    /// The place of the start (node 0) among the rows, if it is kept.
    first: Option<usize>,
}

impl Chain {
    fn new(nodes: &[Node]) -> Chain {
        let n = nodes.len();
        // Backwards from the ends.
        let mut back: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, node) in nodes.iter().enumerate() {
            if let Node::Moves { out, .. } = node {
                for &(j, _) in out {
                    back[j].push(i as u32);
                }
            }
        }
        let mut reach = vec![false; n];
        let ends = |i: usize| match nodes[i] {
            Node::Done { .. } => true,
            Node::Moves { win, loss, .. } => win + loss > 0.0,
        };
        let mut stack: Vec<usize> = (0..n).filter(|&i| ends(i)).collect();
        for &i in &stack {
            reach[i] = true;
        }
        while let Some(j) = stack.pop() {
            for &i in &back[j] {
                if !reach[i as usize] {
                    reach[i as usize] = true;
                    stack.push(i as usize);
                }
            }
        }
        drop(back);
        // The rows: the nodes that still move and can end, in reverse
        // discovery order (most successors then come before, for the sweeps).
        let kept: Vec<usize> = (0..n).rev().filter(|&i| reach[i] && matches!(nodes[i], Node::Moves { .. })).collect();
        let mut row = vec![u32::MAX; n];
        for (r, &i) in kept.iter().enumerate() {
            row[i] = r as u32;
        }
        let mut chain = Chain {
            start: vec![0],
            cols: Vec::new(),
            probs: Vec::new(),
            win: Vec::new(),
            loss: Vec::new(),
            first: (row[0] != u32::MAX).then_some(row[0] as usize),
        };
        for &i in &kept {
            let Node::Moves { out, win, loss } = &nodes[i] else { unreachable!("rows move") };
            let (mut w, mut l) = (*win, *loss);
            for &(j, p) in out {
                match &nodes[j] {
                    Node::Done { win, loss } => {
                        w += p * win;
                        l += p * loss;
                    }
                    Node::Moves { .. } if row[j] != u32::MAX => {
                        chain.cols.push(row[j]);
                        chain.probs.push(p);
                    }
                    Node::Moves { .. } => {}
                }
            }
            chain.win.push(w);
            chain.loss.push(l);
            chain.start.push(chain.cols.len());
        }
        chain
    }

    fn len(&self) -> usize {
        self.win.len()
    }

    /// `(Q v)_r`.
    #[inline]
    fn q_row(&self, r: usize, v: &[f64]) -> f64 {
        let (a, b) = (self.start[r], self.start[r + 1]);
        self.cols[a..b].iter().zip(&self.probs[a..b]).map(|(&c, &p)| p * v[c as usize]).sum()
    }

    /// The start's chances of a win and of a loss, each bounded from below
    /// and above; the sweeps made and the last one's largest change.
    fn chances(&self, work: u64) -> ((f64, f64), (f64, f64), usize, f64) {
        let Some(first) = self.first else { return ((0.0, 0.0), (0.0, 0.0), 0, 0.0) };
        let m = self.len();
        // 0 is a bound from below everywhere, 1 one from above.
        let (mut w_lo, mut w_hi) = (vec![0.0; m], vec![1.0; m]);
        let (mut l_lo, mut l_hi) = (vec![0.0; m], vec![1.0; m]);
        let (s1, c1) = self.sweep(&self.win, &mut w_lo, &mut w_hi, first, work / 2);
        let (s2, c2) = self.sweep(&self.loss, &mut l_lo, &mut l_hi, first, work / 2);
        // A win and a loss together have a chance of at most 1.
        let (wl, ll) = (w_lo[first], l_lo[first]);
        let (wh, lh) = (w_hi[first].min(1.0 - ll).max(wl), l_hi[first].min(1.0 - wl).max(ll));
        ((wl, wh), (ll, lh), s1.max(s2), c1.max(c2))
    }

    /// Gauss–Seidel sweeps of both bounds (each row after the rows it
    /// reads, mostly): both move monotonically to the solution, and only
    /// inwards, until they meet at the start (within `CLOSED`), a sweep
    /// changes nothing, or `work` entries were read.
    fn sweep(&self, b: &[f64], lo: &mut [f64], hi: &mut [f64], first: usize, work: u64) -> (usize, f64) {
        // Each sweep reads every entry twice, once for each bound.
        let per = 2 * self.cols.len().max(1) as u64;
        let (mut sweeps, mut last) = (0, 0.0);
        loop {
            if hi[first] - lo[first] <= CLOSED {
                return (sweeps, last);
            }
            sweeps += 1;
            let mut change: f64 = 0.0;
            for r in 0..self.len() {
                let a = self.q_row(r, lo) + b[r];
                let c = self.q_row(r, hi) + b[r];
                change = change.max(a - lo[r]).max(hi[r] - c);
                // Rounding aside, the bounds only move inwards.
                lo[r] = a.max(lo[r]);
                hi[r] = c.min(hi[r]);
            }
            last = change.max(0.0);
            if change <= 0.0 || sweeps as u64 * per >= work {
                return (sweeps, last);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fair walk on `0..=len` from `len / 2`, node 0 being the start:
    /// absorbed at `len` (a win) or at 0, so the start wins with chance 1/2
    /// after about `len² / 4` steps; with `stay` the walk also stays put at
    /// every step with that chance.
    fn walk(len: usize, stay: f64) -> Vec<Node> {
        // Node k holds place `len / 2 + k` for k up to len / 2, then the
        // places below, downwards.
        let place = |k: usize| if k <= len / 2 { len / 2 + k } else { len / 2 - (k - len / 2) };
        let mut id = vec![0; len + 1];
        for k in 0..=len {
            id[place(k)] = k;
        }
        (0..=len)
            .map(|k| match place(k) {
                0 => Node::Done { win: 0.0, loss: 1.0 },
                p if p == len => Node::Done { win: 1.0, loss: 0.0 },
                p => {
                    let go = (1.0 - stay) / 2.0;
                    let mut out = vec![(id[p - 1], go), (id[p + 1], go)];
                    if stay > 0.0 {
                        out.push((k, stay));
                    }
                    Node::Moves { out, win: 0.0, loss: 0.0 }
                }
            })
            .collect()
    }

    /// The start's chance of a win, bounded, after at most `work`.
    fn win(nodes: &[Node], work: u64) -> (f64, f64) {
        Chain::new(nodes).chances(work).0
    }

    #[test]
    fn the_bounds_close_on_the_chance_of_a_slow_walk() {
        for (len, stay) in [(2, 0.0), (40, 0.0), (200, 0.5)] {
            let (lo, hi) = win(&walk(len, stay), u64::MAX);
            // Closed up to rounding (they stop when a sweep changes nothing:
            // on the longest walk a little short of `CLOSED`).
            assert!(lo <= 0.5 + 1e-15 && 0.5 <= hi + 1e-15 && hi - lo <= 1e-11, "walk of {len}: [{lo}, {hi}]");
        }
    }

    #[test]
    fn bounds_cut_short_still_hold_the_chance() {
        let nodes = walk(200, 0.0);
        let mut last = (0.0, 1.0);
        for work in [1_000, 100_000, 400_000_000] {
            let (lo, hi) = win(&nodes, work);
            assert!(lo <= 0.5 + 1e-15 && 0.5 <= hi + 1e-15, "after {work}: [{lo}, {hi}]");
            // More work, narrower bounds; little work leaves them wide.
            assert!(lo >= last.0 && hi <= last.1, "after {work}: [{lo}, {hi}] against {last:?}");
            last = (lo, hi);
        }
        assert!(last.1 - last.0 < 1e-9, "{last:?}");
        let (lo, hi) = win(&nodes, 1_000);
        assert!(hi - lo > 0.5, "[{lo}, {hi}]");
    }

    #[test]
    fn play_that_cannot_end_is_endless_at_once() {
        // The start leads to a loss or into two nodes that only lead to
        // each other: it loses with chance 1/2 and never ends otherwise.
        let moves = |out: Vec<(usize, f64)>| Node::Moves { out, win: 0.0, loss: 0.0 };
        let nodes = vec![
            moves(vec![(1, 0.5), (3, 0.5)]),
            moves(vec![(2, 1.0)]),
            moves(vec![(1, 1.0)]),
            Node::Done { win: 0.0, loss: 1.0 },
        ];
        let (win, loss, _, _) = Chain::new(&nodes).chances(u64::MAX);
        assert_eq!((win, loss), ((0.0, 0.0), (0.5, 0.5)));
        // The start itself can never end.
        let nodes = vec![moves(vec![(0, 1.0)]), Node::Done { win: 1.0, loss: 0.0 }];
        assert_eq!(Chain::new(&nodes).chances(u64::MAX).0, (0.0, 0.0));
        // A throw that leaves the side to move blocked ends the game at once.
        let nodes = vec![Node::Moves { out: vec![(0, 0.75)], win: 0.0, loss: 0.25 }];
        let (win, loss, _, _) = Chain::new(&nodes).chances(u64::MAX);
        assert!(win.0 == 0.0 && win.1 <= CLOSED, "{win:?}");
        assert!(loss.0 >= 1.0 - 1e-13 && loss.0 <= 1.0 && loss.1 >= 1.0 - 1e-14, "{loss:?}");
    }
}
