//! Players over the [`Game`] interface: [`random`], [`greedy`], generic
//! [`alphabeta`] (expectimax over chance) and [`mcts`], with the spec
//! notation that names them (`alphabeta:depth=4`, `mcts:playouts=1000`).
//!
//! A [`Bot`] is a player's recipe, shared by every game of a match; each
//! game gets fresh [`Agent`]s from it, with their own seeded random numbers,
//! so a game's course depends only on its seed, not on which thread plays it.

pub mod alphabeta;
pub mod greedy;
pub mod mcts;
pub mod opening;
pub mod random;
mod spec;

use crate::game::Game;

pub use spec::{DepthError, Limit, ParseSpecError, Spec, SpecProblem, parse_depth};

/// One player in one game: chooses an action at its turns.
pub trait Agent<G: Game> {
    /// An action among `game.actions(st)`; called only at this player's turns
    /// of a game not yet over.
    fn choose(&mut self, game: &G, st: &G::State) -> G::Action;
}

/// A player's recipe: makes a fresh agent for each game.
pub trait Bot<G: Game>: Send + Sync {
    /// The spec that names it (`mcts:playouts=1000`).
    fn name(&self) -> String;
    /// An agent whose random choices all come from `seed`.
    fn agent(&self, seed: u64) -> Box<dyn Agent<G>>;
}

/// The bot of a spec that works on any game: random, greedy, generic
/// alpha-beta and MCTS. `perfect` needs a solved game (the `solver` crate
/// makes it), and Rithmomachia's alpha-beta is its own engine
/// ([`alphabeta::SearcherBot`]).
pub fn generic_bot<G: Game + 'static>(spec: &Spec) -> Result<Box<dyn Bot<G>>, NeedsSolver> {
    Ok(match *spec {
        Spec::Random => Box::new(random::RandomBot),
        Spec::Greedy => Box::new(greedy::GreedyBot),
        Spec::AlphaBeta(limit) => Box::new(alphabeta::AlphaBetaBot::new(limit)),
        Spec::Mcts { playouts, length } => Box::new(mcts::MctsBot::new(playouts, length)),
        Spec::Perfect => return Err(NeedsSolver),
    })
}

/// `perfect` asked of [`generic_bot`]: perfect play needs a solved game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeedsSolver;

impl std::fmt::Display for NeedsSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("perfect play needs a solved game: it is made by the solver")
    }
}

impl std::error::Error for NeedsSolver {}

/// The random numbers of one agent.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded generator for an agent.
pub fn rng(seed: u64) -> Rng {
    rand::SeedableRng::seed_from_u64(seed)
}
