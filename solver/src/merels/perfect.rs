//! The perfect player of the merels family: after the throw (under dice),
//! an action of the best solved value — fastest win, slowest loss, or the
//! highest expected value under chance — ties broken uniformly at random.

use std::path::PathBuf;
use std::sync::Arc;

use engine::merels::{BoardKind, Merels, Move, Play, Rules};
use engine::players::{Agent, Bot, Rng, rng};
use rand::Rng as _;

use super::db::Db;
use super::sector::{Sector, solve_order};
use super::solution::{Observer, Solution, SolveOptions, compare};
use super::table::Kind;

/// Perfect play from a complete solution.
pub struct PerfectBot {
    sol: Arc<Solution>,
}

impl PerfectBot {
    /// Refuses a solution that does not cover the whole game.
    pub fn new(sol: Arc<Solution>) -> Result<PerfectBot, String> {
        if !sol.complete() {
            return Err(format!("{} is only partly solved: perfect play needs every position", sol.rules.label()));
        }
        Ok(PerfectBot { sol })
    }

    pub fn solution(&self) -> &Solution {
        &self.sol
    }
}

impl Bot<Merels> for PerfectBot {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn agent(&self, seed: u64) -> Box<dyn Agent<Merels>> {
        Box::new(PerfectAgent { sol: self.sol.clone(), rng: rng(seed) })
    }
}

pub struct PerfectAgent {
    sol: Arc<Solution>,
    rng: Rng,
}

impl PerfectAgent {
    /// The actions of best value.
    pub fn best(&self, game: &Merels, p: &Play) -> Vec<Move> {
        use engine::game::Game;
        let kind = Kind::of(&self.sol.rules, Sector::of(&p.state));
        let rated: Vec<(Move, super::Eval)> = game
            .actions(p)
            .into_iter()
            .map(|m| {
                let Move::Act(_, child) = m else { unreachable!("players act, chance throws") };
                let v = self.sol.action_value(kind, &child).unwrap_or_else(|| {
                    panic!("{} is solved but not after {}", self.sol.rules.label(), game.action_text(p, m))
                });
                (m, v)
            })
            .collect();
        let Some(top) = rated.iter().map(|r| r.1).max_by(compare) else { return Vec::new() };
        rated.into_iter().filter(|r| compare(&r.1, &top).is_eq()).map(|r| r.0).collect()
    }
}

impl Agent<Merels> for PerfectAgent {
    fn choose(&mut self, game: &Merels, p: &Play) -> Move {
        let best = self.best(game, p);
        assert!(!best.is_empty(), "asked to move in a finished game");
        best[self.rng.random_range(0..best.len())]
    }
}

/// The solution perfect play reads: solved in memory, or read from (and
/// written to) the database under `db`. Nine men's morris is far too big to
/// solve on the way: it must be in the database already, whole.
pub fn solution_for_play(rules: Rules, db: Option<PathBuf>, obs: &dyn Observer) -> Result<Solution, String> {
    if rules.board.kind == BoardKind::Nine {
        let Some(root) = &db else {
            return Err(format!(
                "perfect play on {} needs its database: it is too big to solve here (drop --no-db)",
                rules.label()
            ));
        };
        let store = Db::new(root, rules);
        let missing =
            solve_order(&rules).into_iter().flatten().filter(|s| s.is_stored() && !store.path(*s).exists()).count();
        if missing > 0 {
            return Err(format!(
                "{} is not solved in {} ({missing} sectors missing): solve it first with `ludus merels solve \
                 --board nine --dice {}`",
                rules.label(),
                store.dir().display(),
                rules.dice
            ));
        }
    }
    let opts = SolveOptions { db, keep_all: true, ..SolveOptions::default() };
    Solution::solve_with(rules, &opts, obs).map_err(|e| e.to_string())
}
