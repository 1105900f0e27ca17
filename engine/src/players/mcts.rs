//! The Monte Carlo tree search player: UCT over the players' turns, chance
//! outcomes sampled by their probabilities, random playouts that stop after
//! a fixed number of plies and are then scored by the game's heuristic; the
//! most visited action is played.

use rand::Rng as _;
use rand::seq::SliceRandom;

use super::{Agent, Bot, Rng, Spec, rng};
use crate::game::{Game, Outcome, Turn};

/// The exploration constant of UCT for rewards in [0, 1].
const EXPLORATION: f64 = 1.4;

pub struct MctsBot {
    playouts: u32,
    length: u32,
}

impl MctsBot {
    pub fn new(playouts: u32, length: u32) -> MctsBot {
        MctsBot { playouts, length }
    }
}

impl<G: Game + 'static> Bot<G> for MctsBot {
    fn name(&self) -> String {
        Spec::Mcts { playouts: self.playouts, length: self.length }.to_string()
    }

    fn agent(&self, seed: u64) -> Box<dyn Agent<G>> {
        Box::new(MctsAgent { playouts: self.playouts, length: self.length, rng: rng(seed) })
    }
}

pub struct MctsAgent {
    playouts: u32,
    length: u32,
    rng: Rng,
}

/// What is below a node.
enum Below<A> {
    /// The game is over here.
    Over(Outcome),
    /// A player chooses: the actions not yet expanded, and the children.
    Player { player: usize, untried: Vec<A>, children: Vec<usize> },
    /// Chance draws: each outcome with its probability and its child once
    /// sampled.
    Chance { outcomes: Vec<(A, f64, Option<usize>)> },
}

/// One step of the selection.
enum Step<A> {
    Stop,
    Down(usize),
    /// Choose among the children by UCT for this player.
    Select(usize, Vec<usize>),
    /// A new child by this action (the chance outcome's index at chance).
    Expand(A, Option<usize>),
}

struct Node<G: Game> {
    state: G::State,
    /// The action that led here from the parent.
    action: Option<G::Action>,
    below: Below<G::Action>,
    visits: f64,
    /// Rewards summed for player 0 and player 1.
    reward: [f64; 2],
}

impl MctsAgent {
    fn node<G: Game>(&mut self, game: &G, state: G::State, action: Option<G::Action>) -> Node<G> {
        let below = match game.result(&state) {
            Some(o) => Below::Over(o),
            None => match game.turn(&state) {
                Turn::Chance => {
                    Below::Chance { outcomes: game.chances(&state).into_iter().map(|(a, p)| (a, p, None)).collect() }
                }
                Turn::Player(player) => {
                    let mut untried = game.actions(&state);
                    // Expanded from the end: a random order of expansion.
                    untried.shuffle(&mut self.rng);
                    Below::Player { player, untried, children: Vec::new() }
                }
            },
        };
        Node { state, action, below, visits: 0.0, reward: [0.0; 2] }
    }

    fn sample<A>(&mut self, outcomes: &[(A, f64, Option<usize>)]) -> usize {
        let mut x = self.rng.random::<f64>();
        for (i, o) in outcomes.iter().enumerate() {
            x -= o.1;
            if x < 0.0 {
                return i;
            }
        }
        outcomes.len() - 1
    }

    /// A random game from `st` of at most `length` plies: player 0's reward
    /// (1 win, ½ draw, 0 loss; the heuristic's estimate when cut short).
    fn playout<G: Game>(&mut self, game: &G, mut st: G::State) -> f64 {
        let mut plies = 0;
        loop {
            if let Some(o) = game.result(&st) {
                return o.score(0);
            }
            match game.turn(&st) {
                Turn::Chance => {
                    let outcomes: Vec<(G::Action, f64, Option<usize>)> =
                        game.chances(&st).into_iter().map(|(a, p)| (a, p, None)).collect();
                    let i = self.sample(&outcomes);
                    st = game.apply(&st, outcomes[i].0);
                }
                Turn::Player(_) => {
                    if plies >= self.length {
                        return 0.5 + 0.5 * game.heuristic(&st, 0);
                    }
                    let actions = game.actions(&st);
                    if actions.is_empty() {
                        return 0.5 + 0.5 * game.heuristic(&st, 0);
                    }
                    let a = actions[self.rng.random_range(0..actions.len())];
                    st = game.apply(&st, a);
                    plies += 1;
                }
            }
        }
    }
}

impl<G: Game> Agent<G> for MctsAgent {
    fn choose(&mut self, game: &G, st: &G::State) -> G::Action {
        let root = self.node(game, st.clone(), None);
        if let Below::Player { untried, .. } = &root.below {
            assert!(!untried.is_empty(), "asked to move in a finished game");
            if untried.len() == 1 {
                return untried[0];
            }
        } else {
            panic!("a player asked to act where no player acts");
        }
        let mut tree: Vec<Node<G>> = vec![root];
        let mut path: Vec<usize> = Vec::new();
        for _ in 0..self.playouts {
            path.clear();
            let mut at = 0;
            path.push(at);
            // Selection, down to a node with something new below it.
            let leaf = loop {
                let step = match &mut tree[at].below {
                    Below::Over(_) => Step::Stop,
                    Below::Chance { outcomes } => {
                        let i = self.sample(outcomes);
                        match outcomes[i].2 {
                            Some(c) => Step::Down(c),
                            None => Step::Expand(outcomes[i].0, Some(i)),
                        }
                    }
                    Below::Player { untried, .. } if !untried.is_empty() => {
                        Step::Expand(untried.pop().expect("an untried action"), None)
                    }
                    Below::Player { player, children, .. } => Step::Select(*player, children.clone()),
                };
                match step {
                    Step::Stop => break at,
                    Step::Select(p, children) => {
                        let ln = tree[at].visits.max(1.0).ln();
                        let mut best = (f64::NEG_INFINITY, children[0]);
                        for c in children {
                            let n = &tree[c];
                            let u = n.reward[p] / n.visits + EXPLORATION * (ln / n.visits).sqrt();
                            if u > best.0 {
                                best = (u, c);
                            }
                        }
                        at = best.1;
                        path.push(at);
                    }
                    Step::Down(c) => {
                        at = c;
                        path.push(at);
                    }
                    Step::Expand(a, outcome) => {
                        let next = game.apply(&tree[at].state, a);
                        let child = self.node(game, next, Some(a));
                        tree.push(child);
                        let c = tree.len() - 1;
                        match (&mut tree[at].below, outcome) {
                            (Below::Chance { outcomes }, Some(i)) => outcomes[i].2 = Some(c),
                            (Below::Player { children, .. }, None) => children.push(c),
                            _ => unreachable!("an expansion matches its node"),
                        }
                        path.push(c);
                        break c;
                    }
                }
            };
            let r0 = match tree[leaf].below {
                Below::Over(o) => o.score(0),
                _ => self.playout(game, tree[leaf].state.clone()),
            };
            for &i in &path {
                let n = &mut tree[i];
                n.visits += 1.0;
                n.reward[0] += r0;
                n.reward[1] += 1.0 - r0;
            }
        }
        let Below::Player { children, .. } = &tree[0].below else { unreachable!("the root is a player's turn") };
        // The most visited; among equals the first expanded (a random order).
        let mut best = children[0];
        for &c in children {
            if tree[c].visits > tree[best].visits {
                best = c;
            }
        }
        tree[best].action.expect("a child has its action")
    }
}
