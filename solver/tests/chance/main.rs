//! The solver's values under chance, in one test binary so that its long
//! tests run side by side: against brute force over the explicit game
//! graphs of the small boards (`bruteforce`), the computed strategy against
//! a best response (`best_response`), and strategy iteration's
//! partial rounds, mill levels and copies against their whole twins
//! (`partial_rounds`), and the children generated against the stored lists
//! (`generated_moves`).

#[path = "../common/mod.rs"]
mod common;

mod best_response;
mod bruteforce;
mod generated_moves;
mod partial_rounds;

use engine::merels::{Blocked, BoardKind, Dice, Rules};
use solver::merels::{Silent, Solution, SolveOptions};
use std::sync::OnceLock;

/// Six men's morris under Schädler's dice and `rules` (as dealt, with
/// flying men, or with a blocked player passing), every sector up to 10 men
/// solved once for all the tests of this binary that solve one of its
/// groups again (those read only sectors of at most 10 men).
fn six_known(rules: Rules) -> &'static Solution {
    static SOLVED: [OnceLock<Solution>; 3] = [const { OnceLock::new() }; 3];
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    let k = [six, Rules { flying: true, ..six }, Rules { blocked: Blocked::Pass, ..six }]
        .iter()
        .position(|&r| r == rules)
        .expect("a rule set of six the tests share");
    SOLVED[k].get_or_init(|| {
        let opts = SolveOptions { max_men: Some(10), ..SolveOptions::default() };
        Solution::solve_with(rules, &opts, &Silent).expect("solve")
    })
}
