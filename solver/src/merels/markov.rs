//! Exact win probabilities of fixed strategies: the game as an absorbing
//! Markov chain over positions (symmetry-reduced), solved by iteration to
//! the precision of `f64` rather than sampled.

use engine::merels::{Blocked, State, Throw};
use fxhash::FxHashMap;

use super::index::Indexer;
use super::known::compare;
use super::sector::Sector;
use super::solution::Solution;
use super::table::Kind;

/// How a side chooses its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random among the legal actions.
    Random,
    /// Among the actions of best value (fastest win, slowest loss, any draw;
    /// under chance the highest expected value), uniformly at random.
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
}

enum Node {
    /// The game is over: 1 if the leader won, 0 otherwise, and whether it lost.
    Done {
        win: f64,
        loss: f64,
    },
    Moves(Vec<(usize, f64)>),
}

/// Solves the chain from the start position.
pub fn leader_chances(sol: &Solution, leader: Policy, follower: Policy) -> ChainResult {
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
            for (throw, p72) in rules.throw_outcomes(&st) {
                let kids = rules.actions(&st, throw);
                let chosen: Vec<State> = match policy {
                    Policy::Random => kids.iter().map(|k| k.1).collect(),
                    Policy::Perfect => {
                        let kind = Kind::of(rules, Sector::of(&st));
                        let rated: Vec<_> =
                            kids.iter().map(|(_, c)| (*c, sol.action_value(kind, c).expect("solved"))).collect();
                        let best = rated.iter().map(|r| r.1).max_by(compare);
                        rated
                            .into_iter()
                            .filter(|r| best.is_some_and(|b| compare(&r.1, &b).is_eq()))
                            .map(|r| r.0)
                            .collect()
                    }
                };
                let share = p72 as f64 / 72.0 / chosen.len().max(1) as f64;
                edges.extend(chosen.into_iter().map(|c| (c, share)));
                debug_assert!(throw == Throw::None || !kids.is_empty() || rules.blocked != Blocked::Pass);
            }
            if edges.is_empty() {
                match rules.blocked {
                    Blocked::Draw => Node::Done { win: 0.0, loss: 0.0 },
                    _ if lead => Node::Done { win: 0.0, loss: 1.0 },
                    _ => Node::Done { win: 1.0, loss: 0.0 },
                }
            } else {
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
                Node::Moves(out)
            }
        };
        nodes.push(node);
    }
    let (win, sweeps, residual) = solve(&nodes, |n| match n {
        Node::Done { win, .. } => *win,
        _ => 0.0,
    });
    let (loss, _, _) = solve(&nodes, |n| match n {
        Node::Done { loss, .. } => *loss,
        _ => 0.0,
    });
    let (w, l) = (win[0], loss[0]);
    ChainResult {
        leader_wins: w,
        leader_loses: l,
        endless: (1.0 - w - l).max(0.0),
        states: nodes.len(),
        sweeps,
        residual,
    }
}

/// Absorption probabilities by Gauss–Seidel sweeps from zero (they rise
/// monotonically to the solution), in reverse discovery order so that most
/// successors are fresh.
fn solve(nodes: &[Node], done: impl Fn(&Node) -> f64) -> (Vec<f64>, usize, f64) {
    let mut x: Vec<f64> = nodes.iter().map(&done).collect();
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let mut change: f64 = 0.0;
        for i in (0..nodes.len()).rev() {
            if let Node::Moves(edges) = &nodes[i] {
                let v: f64 = edges.iter().map(|&(j, p)| p * x[j]).sum();
                change = change.max((v - x[i]).abs());
                x[i] = v;
            }
        }
        if change == 0.0 || sweeps >= 1_000_000 || (change < 1e-17 && sweeps > 10) {
            return (x, sweeps, change);
        }
    }
}
