//! The alpha-beta player. Over any [`Game`]: minimax with alpha-beta pruning
//! at the players' turns and the expectation at chance turns (expectimax),
//! inside iterative deepening to a depth or a time per move, leaves scored
//! by the game's heuristic. Rithmomachia has its own engine
//! ([`crate::rithmo::Searcher`]), which [`SearcherBot`] puts in the arena.

use std::time::Instant;

use rand::seq::SliceRandom;

use super::{Agent, Bot, Limit, Rng, Spec, rng};
use crate::game::{Game, Outcome, Turn};
use crate::rithmo::{self, Rithmomachia};

/// A won game scores `WIN` less a little per ply (faster wins first); the
/// heuristic is scaled below any decided game.
const WIN: f64 = 1.0;
const PER_PLY: f64 = 1e-3;
const LEAF_SCALE: f64 = 0.5;
const INF: f64 = 2.0;

/// Generic alpha-beta with expectimax at chance turns.
pub struct AlphaBetaBot {
    limit: Limit,
}

impl AlphaBetaBot {
    pub fn new(limit: Limit) -> AlphaBetaBot {
        AlphaBetaBot { limit }
    }
}

impl<G: Game + 'static> Bot<G> for AlphaBetaBot {
    fn name(&self) -> String {
        Spec::AlphaBeta(self.limit).to_string()
    }

    fn agent(&self, seed: u64) -> Box<dyn Agent<G>> {
        Box::new(AlphaBetaAgent::new(self.limit, seed))
    }
}

pub struct AlphaBetaAgent {
    limit: Limit,
    rng: Rng,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The player searching.
    me: usize,
    /// Some leaf of this iteration was cut by the depth (else the tree was
    /// searched to its end and deeper iterations cannot change anything).
    horizon: bool,
}

impl AlphaBetaAgent {
    pub fn new(limit: Limit, seed: u64) -> AlphaBetaAgent {
        AlphaBetaAgent { limit, rng: rng(seed), me: 0, nodes: 0, deadline: None, stopped: false, horizon: false }
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn out_of_time(&mut self) -> bool {
        if !self.stopped && self.nodes & 255 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The value of `st` for the searching player (`me`), searched `depth`
    /// player turns deep, `ply` turns below the root.
    fn value<G: Game>(&mut self, game: &G, st: &G::State, depth: u32, ply: u32, mut alpha: f64, mut beta: f64) -> f64 {
        let me = self.me;
        self.nodes += 1;
        if self.out_of_time() {
            return 0.0;
        }
        if let Some(o) = game.result(st) {
            let won = (WIN - PER_PLY * ply as f64).max(0.6);
            return match o {
                Outcome::Win(p) if p == me => won,
                Outcome::Win(_) => -won,
                Outcome::Draw => 0.0,
            };
        }
        match game.turn(st) {
            Turn::Chance => {
                // Chance does not use up depth; its outcomes are searched with
                // a full window (their average is what counts).
                let mut v = 0.0;
                for (c, p) in game.chances(st) {
                    v += p * self.value(game, &game.apply(st, c), depth, ply, -INF, INF);
                }
                v
            }
            Turn::Player(p) => {
                if depth == 0 {
                    self.horizon = true;
                    return LEAF_SCALE * game.heuristic(st, me);
                }
                let mut actions = game.actions(st);
                if actions.is_empty() {
                    return LEAF_SCALE * game.heuristic(st, me);
                }
                // Captures first: they decide most cut-offs.
                if actions.len() > 1 {
                    let mut keyed: Vec<(f64, G::Action)> = actions.iter().map(|&a| (game.gain(st, a), a)).collect();
                    keyed.sort_by(|x, y| y.0.total_cmp(&x.0));
                    actions = keyed.into_iter().map(|k| k.1).collect();
                }
                if p == me {
                    let mut best = -INF;
                    for a in actions {
                        let v = self.value(game, &game.apply(st, a), depth - 1, ply + 1, alpha, beta);
                        best = best.max(v);
                        alpha = alpha.max(v);
                        if alpha >= beta || self.stopped {
                            break;
                        }
                    }
                    best
                } else {
                    let mut best = INF;
                    for a in actions {
                        let v = self.value(game, &game.apply(st, a), depth - 1, ply + 1, alpha, beta);
                        best = best.min(v);
                        beta = beta.min(v);
                        if alpha >= beta || self.stopped {
                            break;
                        }
                    }
                    best
                }
            }
        }
    }

    /// The best action with its value for the player to move.
    pub fn search<G: Game>(&mut self, game: &G, st: &G::State) -> (G::Action, f64) {
        let Turn::Player(me) = game.turn(st) else { panic!("a player asked to act at a chance turn") };
        let mut actions = game.actions(st);
        assert!(!actions.is_empty(), "asked to move in a finished game");
        // Shuffled once: among equal values the first found is kept, so ties
        // are broken at random.
        actions.shuffle(&mut self.rng);
        self.me = me;
        self.nodes = 0;
        self.stopped = false;
        self.deadline = self.limit.movetime.map(|t| Instant::now() + t);
        let mut best = (actions[0], 0.0);
        if actions.len() == 1 {
            return best;
        }
        let max_depth = self.limit.depth.unwrap_or(Spec::MAX_DEPTH);
        for depth in 1..=max_depth {
            self.horizon = false;
            let mut alpha = -INF;
            let mut scored: Vec<(G::Action, f64)> = Vec::with_capacity(actions.len());
            for &a in &actions {
                let v = self.value(game, &game.apply(st, a), depth - 1, 1, alpha, INF);
                if self.stopped {
                    break;
                }
                scored.push((a, v));
                alpha = alpha.max(v);
            }
            if self.stopped {
                // An unfinished iteration is not trusted.
                break;
            }
            let top = scored.iter().map(|s| s.1).fold(-INF, f64::max);
            best = *scored.iter().find(|s| s.1 == top).expect("an action");
            // The next iteration tries the best first (a stable sort keeps
            // the random order among equals).
            scored.sort_by(|x, y| y.1.total_cmp(&x.1));
            actions = scored.into_iter().map(|s| s.0).collect();
            if !self.horizon {
                break;
            }
        }
        best
    }
}

impl<G: Game> Agent<G> for AlphaBetaAgent {
    fn choose(&mut self, game: &G, st: &G::State) -> G::Action {
        self.search(game, st).0
    }
}

/// Rithmomachia's own engine in the arena: a fresh searcher (and table) for
/// each game, fed the game's positions for repetitions.
pub struct SearcherBot {
    limit: Limit,
    hash_mib: usize,
    weights: rithmo::Weights,
}

impl SearcherBot {
    pub fn new(limit: Limit, hash_mib: usize) -> SearcherBot {
        SearcherBot { limit, hash_mib, weights: rithmo::Weights::DEFAULT }
    }

    /// The same engine evaluating with other weights.
    pub fn with_weights(mut self, weights: rithmo::Weights) -> SearcherBot {
        self.weights = weights;
        self
    }
}

impl Bot<Rithmomachia> for SearcherBot {
    fn name(&self) -> String {
        Spec::AlphaBeta(self.limit).to_string()
    }

    fn agent(&self, _seed: u64) -> Box<dyn Agent<Rithmomachia>> {
        Box::new(SearcherAgent { limit: self.limit, hash_mib: self.hash_mib, weights: self.weights, searcher: None })
    }
}

pub struct SearcherAgent {
    limit: Limit,
    hash_mib: usize,
    weights: rithmo::Weights,
    searcher: Option<rithmo::Searcher>,
}

impl Agent<Rithmomachia> for SearcherAgent {
    fn choose(&mut self, game: &Rithmomachia, line: &rithmo::Line) -> rithmo::Move {
        let weights = self.weights;
        let s = self.searcher.get_or_insert_with(|| {
            let mut s = rithmo::Searcher::new(game.rules, self.hash_mib);
            s.weights = weights;
            s
        });
        let limits = rithmo::Limits { depth: self.limit.depth, movetime: self.limit.movetime, nodes: None };
        let info = s.search(&line.pos, &line.history, limits, |_| {});
        match info.pv.first() {
            Some(&m) => m,
            None => *line.pos.legal_moves(&game.rules).first().expect("asked to move in a finished game"),
        }
    }
}
