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
mod discounts;
mod generated_moves;
mod partial_rounds;
mod resume;

use engine::merels::{Blocked, BoardKind, Dice, Rules};
use solver::merels::strategy::{Group, Stats};
use solver::merels::{Indexer, Sector, Silent, Solution, SolveOptions, Table};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The rule sets of six men's morris under Schädler's dice that the tests
/// share: as dealt, with flying men, with a blocked player passing.
fn six_rules() -> [Rules; 3] {
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    [six, Rules { flying: true, ..six }, Rules { blocked: Blocked::Pass, ..six }]
}

/// Six men's morris under Schädler's dice and `rules` (as dealt, with
/// flying men, or with a blocked player passing), every sector up to 10 men
/// solved once for all the tests of this binary that solve one of its
/// groups again (those read only sectors of at most 10 men).
fn six_known(rules: Rules) -> &'static Solution {
    static SOLVED: [OnceLock<Solution>; 3] = [const { OnceLock::new() }; 3];
    let k = six_rules().iter().position(|&r| r == rules).expect("a rule set of six the tests share");
    SOLVED[k].get_or_init(|| {
        let opts = SolveOptions { max_men: Some(10), ..SolveOptions::default() };
        Solution::solve_with(rules, &opts, &Silent).expect("solve")
    })
}

/// A sector by its key (`w-wf-b-bf`).
fn sector(key: &str) -> Sector {
    let n: Vec<u8> = key.split('-').map(|x| x.parse().expect("a count")).collect();
    Sector { w: n[0], wf: n[1], b: n[2], bf: n[3] }
}

/// The indexers of a group's sectors, by key.
fn indexers(known: &Solution, group: &[&str]) -> Vec<Indexer> {
    group.iter().map(|k| Indexer::new(known.board_tables.clone(), sector(k))).collect()
}

/// A group of six under `rules` (one of [`six_rules`]) solved whole as the
/// solver's `Group` does by default, on top of [`six_known`]: once for all
/// the tests of this binary that compare a variant of the solve with it (a
/// second test asking for the same group waits for the first).
fn six_group(rules: Rules, group: &[&str]) -> &'static (Vec<Table>, Stats) {
    type Solved = &'static OnceLock<(Vec<Table>, Stats)>;
    static SOLVED: Mutex<Option<HashMap<(usize, String), Solved>>> = Mutex::new(None);
    let k = six_rules().iter().position(|&r| r == rules).expect("a rule set of six the tests share");
    let cell: Solved = *SOLVED
        .lock()
        .expect("the solves' lock")
        .get_or_insert_with(HashMap::new)
        .entry((k, group.join(" ")))
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    cell.get_or_init(|| {
        let known = six_known(rules);
        Group::new(&rules, known, indexers(known, group), &Silent).run(0.0, &Silent)
    })
}
