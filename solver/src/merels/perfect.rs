//! The perfect player of the merels family: after the throw (under dice),
//! an action of the best solved value — fastest win, slowest loss, or the
//! highest expected value under chance — ties broken uniformly at random.
//! Under chance, a side ahead that must keep to equally good moves inside a
//! movement group moves toward the group's exit (the stored progress ranks),
//! so that it leaves every loop it should leave.

use std::path::PathBuf;
use std::sync::Arc;

use engine::merels::{BoardKind, Merels, Move, Play, Rules, State};
use engine::players::{Agent, Bot, Rng, rng};
use rand::Rng as _;

use super::db::{Corruption, Db, DbError};
use super::known::compare;
use super::observer::Observer;
use super::sector::{Sector, solve_order};
use super::solution::{Solution, SolveError, SolveOptions};
use super::table::{Eval, Kind};
use super::value::TIE;

/// Perfect play from a complete solution.
pub struct PerfectBot {
    sol: Arc<Solution>,
}

impl PerfectBot {
    /// Refuses a solution that does not cover the whole game, or whose
    /// tables lack a value where a position is (a damaged file: play would
    /// meet a move it cannot rate).
    pub fn new(sol: Arc<Solution>) -> Result<PerfectBot, SolveError> {
        if !sol.complete() {
            return Err(SolveError::Incomplete(sol.rules.label()));
        }
        for (&s, t) in sol.tables() {
            if let Some(index) = t.misplaced_mark(&sol.rules) {
                let path = sol.database().map(|d| d.path(s)).unwrap_or_default();
                let problem = Corruption::Marks { index };
                return Err(SolveError::Read { sector: s.key(), error: DbError::Corrupt { path, problem } });
            }
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
        best_moves(&self.sol, game, p)
    }
}

/// The actions perfect play chooses among (uniformly) in a solved game: those
/// of best value, and under chance, for the side ahead, the ones of least
/// progress rank among them.
pub fn best_moves(sol: &Solution, game: &Merels, p: &Play) -> Vec<Move> {
    use engine::game::Game;
    let moves = game.actions(p);
    let children: Vec<State> = moves
        .iter()
        .map(|&m| {
            let Move::Act(_, child) = m else { unreachable!("players act, chance throws") };
            child
        })
        .collect();
    let chosen = best_children(sol, &p.state, &children)
        .unwrap_or_else(|i| panic!("{} is solved but not after {}", sol.rules.label(), game.action_text(p, moves[i])));
    chosen.into_iter().map(|i| moves[i]).collect()
}

/// The places in `children` (the states an action leads to from `state`,
/// after one throw) of the actions perfect play chooses among: those of best
/// value, and under chance, for the side ahead, those of least progress rank
/// among them. Perfect play and the chances the report gives for it
/// (`markov::leader_chances`) both choose by it. `Err(i)`: the value after
/// `children[i]` is not known.
pub fn best_children(sol: &Solution, state: &State, children: &[State]) -> Result<Vec<usize>, usize> {
    let kind = Kind::of(&sol.rules, Sector::of(state));
    let rated: Vec<Eval> =
        children.iter().enumerate().map(|(i, c)| sol.action_value(kind, c).ok_or(i)).collect::<Result<_, _>>()?;
    let Some(top) = rated.iter().copied().max_by(compare) else { return Ok(Vec::new()) };
    let Eval::Chance(best) = top else {
        return Ok((0..rated.len()).filter(|&i| compare(&rated[i], &top).is_eq()).collect());
    };
    // Values under chance are equal when they round to (nearly) the same
    // grid code; the side ahead then takes the moves of least rank (an
    // exit, or a move inside the group closer to one).
    let mirror = Sector::of(state).mirror();
    let ties: Vec<(usize, u16)> = (0..rated.len())
        .filter(|&i| matches!(rated[i], Eval::Chance(v) if best.v - v.v <= TIE))
        .map(|i| {
            let inside = Sector::of(&children[i]) == mirror;
            (i, if inside && best.v > TIE { sol.rank(&children[i]) } else { 0 })
        })
        .collect();
    let least = ties.iter().map(|t| t.1).min().unwrap_or(0);
    Ok(ties.into_iter().filter(|t| t.1 == least).map(|t| t.0).collect())
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
pub fn solution_for_play(rules: Rules, db: Option<PathBuf>, obs: &dyn Observer) -> Result<Solution, SolveError> {
    if rules.board.kind == BoardKind::Nine {
        let Some(root) = &db else {
            return Err(SolveError::NoDatabase("perfect play on nine men's morris (too big to solve on the way)"));
        };
        let store = Db::new(root, rules);
        let missing = solve_order(&rules).into_iter().flatten().filter(|s| s.is_stored() && !store.has(*s)).count();
        if missing > 0 {
            return Err(SolveError::NotSolved {
                rules: rules.label(),
                dice: rules.dice.to_string(),
                dir: store.dir().to_path_buf(),
                missing,
            });
        }
    }
    let opts = SolveOptions { db, keep_all: true, ..SolveOptions::default() };
    Solution::solve_with(rules, &opts, obs)
}
