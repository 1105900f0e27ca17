//! The retrograde solver against plain brute force on the small boards: a
//! fixpoint over the explicit game graph (no symmetry, no indexing) and a
//! memoised depth-limited negamax from random positions.

use std::collections::HashMap;

mod common;
use common::{all_states, fixpoint, legal, small_boards};

use engine::merels::{Blocked, PlacementMills, Rules, State, Throw};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use solver::merels::{Silent, Solution, Value};

fn rule_sets() -> Vec<Rules> {
    let mut v = Vec::new();
    for base in small_boards() {
        for blocked in [Blocked::Lose, Blocked::Pass, Blocked::Draw] {
            for pm in [PlacementMills::Count, PlacementMills::Forbidden] {
                for flying in [false, true] {
                    v.push(Rules { blocked, placement_mills: pm, flying, ..base });
                }
            }
        }
    }
    v
}

#[test]
fn retrograde_equals_fixpoint_on_every_small_rule_set() {
    for rules in rule_sets() {
        let sol = Solution::solve(rules, &Silent);
        let truth = fixpoint(&rules);
        let mut compared = 0;
        for (st, v) in &truth {
            if let Some(got) = sol.dtm(st) {
                assert_eq!(got, *v, "{}: state {st:?}", rules.label());
                compared += 1;
            }
        }
        // Everything reachable from the start is in the solution.
        let start = State::start(rules.men());
        assert_eq!(sol.dtm(&start), truth.get(&start).copied(), "{}", rules.label());
        assert!(compared > 1000, "{}: only {compared} states compared", rules.label());
    }
}

/// Depth-limited negamax with memo: `Some(v)` when decided within `depth`.
fn negamax(rules: &Rules, st: &State, depth: u16, memo: &mut HashMap<(State, u16), Option<Value>>) -> Option<Value> {
    if rules.lost(st) {
        return Some(Value::Loss(0));
    }
    let kids = rules.actions(st, Throw::None);
    if kids.is_empty() {
        return Some(if rules.blocked == Blocked::Draw { Value::Draw } else { Value::Loss(0) });
    }
    if depth == 0 {
        return None;
    }
    if let Some(v) = memo.get(&(*st, depth)) {
        return *v;
    }
    let mut best_win: Option<Value> = None;
    let mut all_lose = true;
    let mut slowest: Option<Value> = None;
    let mut any_draw = false;
    for (_, c) in &kids {
        match negamax(rules, c, depth - 1, memo).map(Value::back) {
            Some(w @ Value::Win(_)) => best_win = Some(best_win.map_or(w, |b| b.max(w))),
            Some(l @ Value::Loss(_)) => slowest = Some(slowest.map_or(l, |b| b.max(l))),
            Some(Value::Draw) => {
                any_draw = true;
                all_lose = false
            }
            None => all_lose = false,
        }
    }
    let r = if best_win.is_some() {
        best_win
    } else if all_lose {
        slowest
    } else if any_draw && kids.iter().all(|(_, c)| negamax(rules, c, depth - 1, memo).is_some()) {
        Some(Value::Draw)
    } else {
        None
    };
    memo.insert((*st, depth), r);
    r
}

#[test]
fn retrograde_agrees_with_depth_limited_negamax_on_random_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for rules in rule_sets().into_iter().step_by(3) {
        let sol = Solution::solve(rules, &Silent);
        let states: Vec<State> = all_states(&rules).into_iter().filter(legal).collect();
        let mut memo = HashMap::new();
        for _ in 0..300 {
            let st = states[rng.random_range(0..states.len())];
            let Some(v) = sol.dtm(&st) else { continue };
            let depth = 9;
            match negamax(&rules, &st, depth, &mut memo) {
                Some(Value::Draw) => assert_eq!(v, Value::Draw, "{} {st:?}", rules.label()),
                Some(b) => assert_eq!(v, b, "{} {st:?}", rules.label()),
                // Undecided within the horizon: the retrograde value must be
                // a draw or take longer.
                None => assert!(v == Value::Draw || v.plies().unwrap() > depth, "{} {st:?}: {v}", rules.label()),
            }
        }
    }
}
