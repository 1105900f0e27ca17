//! The random player: every legal action equally likely.

use rand::Rng as _;

use super::{Agent, Bot, Rng, rng};
use crate::game::Game;

pub struct RandomBot;

pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: rng(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, game: &G, st: &G::State) -> G::Action {
        let actions = game.actions(st);
        assert!(!actions.is_empty(), "asked to move in a finished game");
        actions[self.rng.random_range(0..actions.len())]
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn agent(&self, seed: u64) -> Box<dyn Agent<G>> {
        Box::new(RandomAgent::new(seed))
    }
}
