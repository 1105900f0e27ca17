//! Varied openings for matches between deterministic engines: a bot that
//! plays its first turns at random (from its agent's seed), then as another
//! bot. Two copies of one engine then play different games, while each
//! game still depends on its seed alone.

use rand::Rng as _;

use super::{Agent, Bot, Rng, rng};
use crate::game::Game;

/// `inner`, after `plies` of its own turns played at random.
pub struct RandomOpening<G: Game> {
    pub inner: Box<dyn Bot<G>>,
    pub plies: usize,
}

impl<G: Game + 'static> Bot<G> for RandomOpening<G> {
    fn name(&self) -> String {
        format!("{} after {} random", self.inner.name(), self.plies)
    }

    fn agent(&self, seed: u64) -> Box<dyn Agent<G>> {
        Box::new(OpeningAgent { inner: self.inner.agent(seed), left: self.plies, rng: rng(seed ^ 0x0BE4_1196) })
    }
}

struct OpeningAgent<G: Game> {
    inner: Box<dyn Agent<G>>,
    left: usize,
    rng: Rng,
}

impl<G: Game> Agent<G> for OpeningAgent<G> {
    fn choose(&mut self, game: &G, st: &G::State) -> G::Action {
        if self.left > 0 {
            self.left -= 1;
            let actions = game.actions(st);
            return actions[self.rng.random_range(0..actions.len())];
        }
        self.inner.choose(game, st)
    }
}
