//! The greedy player: an action that wins at once, else one that takes the
//! most, ties broken at random.

use rand::Rng as _;

use super::{Agent, Bot, Rng, rng};
use crate::game::{Game, Outcome, Turn};

pub struct GreedyBot;

pub struct GreedyAgent {
    rng: Rng,
}

impl<G: Game> Agent<G> for GreedyAgent {
    fn choose(&mut self, game: &G, st: &G::State) -> G::Action {
        let Turn::Player(me) = game.turn(st) else { panic!("a player asked to act at a chance turn") };
        let actions = game.actions(st);
        assert!(!actions.is_empty(), "asked to move in a finished game");
        let wins: Vec<G::Action> =
            actions.iter().copied().filter(|&a| game.result(&game.apply(st, a)) == Some(Outcome::Win(me))).collect();
        if !wins.is_empty() {
            return wins[self.rng.random_range(0..wins.len())];
        }
        let gains: Vec<f64> = actions.iter().map(|&a| game.gain(st, a)).collect();
        let best = gains.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<G::Action> = actions.iter().zip(&gains).filter(|(_, g)| **g == best).map(|(a, _)| *a).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

impl<G: Game> Bot<G> for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn agent(&self, seed: u64) -> Box<dyn Agent<G>> {
        Box::new(GreedyAgent { rng: rng(seed) })
    }
}
