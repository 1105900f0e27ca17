//! The sector solver under every dice reading against brute force over the
//! explicit game graph of the small boards (every state reachable from the
//! start, no symmetry, no indexing, no sectors):
//! - Murray and Bell: exact expectimax by memoised recursion over placement,
//!   on top of a naive fixpoint for the movement phase;
//! - Schädler: exact strategy iteration in rationals over the whole graph
//!   (`common/exact_schaedler.rs`), on Rota and three and on the 3 v 3
//!   sector of six men's morris, and a best response against the computed
//!   strategy shown to gain nothing (`best_response`).
//!
//! Plus: Schädler with special throws of probability 0 is the game without
//! dice and with placement mills forbidden; and sampled games of the
//! computed strategy against itself agree with the solved value.

use std::collections::HashMap;

use engine::merels::{Blocked, BoardKind, Dice, PlacementMills, Rules, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use solver::merels::markov::{Policy, leader_chances};
use solver::merels::{Eval, Kind, Sector, Silent, Solution, Value};

use crate::common;
use common::exact_schaedler::Exact;
use num_traits::ToPrimitive;

/// Every state reachable from the start under any throws and actions.
fn reachable(rules: &Rules) -> Vec<State> {
    let start = State::start(rules.men());
    let mut seen: HashMap<State, ()> = HashMap::new();
    let mut stack = vec![start];
    seen.insert(start, ());
    let mut out = Vec::new();
    while let Some(st) = stack.pop() {
        out.push(st);
        if rules.lost(&st) {
            continue;
        }
        for (throw, _) in rules.throw_outcomes(&st) {
            for (_, c) in rules.actions(&st, throw) {
                if seen.insert(c, ()).is_none() {
                    stack.push(c);
                }
            }
        }
    }
    out
}

/// Exact value over the common denominator by memoised expectimax.
fn exact(
    rules: &Rules,
    st: &State,
    den: i128,
    movement: &HashMap<State, Value>,
    memo: &mut HashMap<State, i128>,
) -> i128 {
    if rules.lost(st) {
        return -den;
    }
    if st.own_hand == 0 && st.other_hand == 0 {
        return movement[st].sign() as i128 * den;
    }
    if let Some(&v) = memo.get(st) {
        return v;
    }
    let mut total = 0i128;
    for (throw, p) in rules.throw_outcomes(st) {
        let kids = rules.actions(st, throw);
        let best = kids
            .iter()
            .map(|(_, c)| -exact(rules, c, den, movement, memo))
            .max()
            .unwrap_or(if rules.blocked == Blocked::Draw { 0 } else { -den });
        total += p as i128 * best;
    }
    assert_eq!(total % 72, 0);
    memo.insert(*st, total / 72);
    total / 72
}

#[test]
fn murray_and_bell_equal_exact_expectimax() {
    for base in common::small_boards() {
        for dice in [Dice::Murray, Dice::Bell] {
            let rules = Rules { dice, ..base };
            let sol = Solution::solve_with(rules, &Default::default(), &Silent).unwrap();
            let movement = common::fixpoint(&rules);
            let mut memo = HashMap::new();
            let mut compared = 0;
            for st in reachable(&rules) {
                let want = exact(&rules, &st, sol.den, &movement, &mut memo);
                let got = sol.exact(&st).unwrap_or_else(|| panic!("{} {st:?} unsolved", rules.label()));
                assert_eq!(got, want, "{} {st:?}", rules.label());
                compared += 1;
            }
            assert!(compared > 100, "{}", rules.label());
        }
    }
}

/// Compares every state the exact solver knows with the sector solver:
/// the exact value lies in the proven interval, which is at most 1e-6 wide.
fn compare_exact(rules: &Rules, sol: &Solution, exact: &Exact) -> usize {
    let mut compared = 0;
    for st in exact.states() {
        let x = exact.value(rules, st).expect("known").to_f64().expect("finite");
        let Some(iv) = sol.interval(st) else { continue };
        assert!(
            iv.lo <= x + 1e-15 && x - 1e-15 <= iv.hi,
            "{} {st:?}: exact {x} outside the proven [{}, {}]",
            rules.label(),
            iv.lo,
            iv.hi
        );
        assert!(iv.hi - iv.lo <= 1e-6, "{} {st:?}: proven interval {iv:?} wider than 1e-6", rules.label());
        compared += 1;
    }
    compared
}

#[test]
fn schaedler_equals_exact_strategy_iteration() {
    for base in common::small_boards() {
        for blocked in [Blocked::Lose, Blocked::Pass, Blocked::Draw] {
            for (special, flying) in [(5, false), (20, false), (5, true)] {
                let rules = Rules {
                    blocked,
                    flying,
                    special_72: special,
                    ..Rules::new(base.board.kind, Dice::Schaedler)
                        .with_diagonals(base.board.diagonals)
                        .expect("the same board")
                };
                let sol = Solution::solve_with(rules, &Default::default(), &Silent).unwrap();
                let start = State::start(rules.men());
                let exact = Exact::build(&rules, &[start]).solve();
                let n = compare_exact(&rules, &sol, &exact);
                assert!(n > 100, "{}: only {n} states compared", rules.label());
                // A best response against the computed strategy gains
                // nothing, the strategy's side moving first or second.
                for first in [true, false] {
                    let n = crate::best_response::check(&rules, &sol, &exact, &[start], first);
                    assert!(n > 100, "{}: only {n} nodes", rules.label());
                }
            }
        }
    }
}

#[test]
fn schaedler_six_endgame_equals_exact_strategy_iteration() {
    // Every position of the 3 v 3 movement sector of six men's morris.
    {
        let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
        let s = Sector { w: 3, wf: 0, b: 3, bf: 0 };
        let ix = solver::merels::Indexer::new(solver::merels::BoardTables::new(rules.board), s);
        let roots: Vec<State> = (0..ix.size()).filter(|&i| ix.is_canonical(i)).map(|i| ix.state(i)).collect();
        let opts = solver::merels::SolveOptions { max_men: Some(6), ..Default::default() };
        let sol = Solution::solve_with(rules, &opts, &Silent).unwrap();
        let exact = Exact::build(&rules, &roots).solve();
        let n = compare_exact(&rules, &sol, &exact);
        assert!(n >= roots.len(), "{}: {n} of {} compared", rules.label(), roots.len());
        // A best response against the computed strategy gains nothing, the
        // strategy's side moving first or second.
        for first in [true, false] {
            let n = crate::best_response::check(&rules, &sol, &exact, &roots, first);
            assert!(n >= roots.len(), "{n} nodes");
        }
    }
}

#[test]
fn schaedler_without_special_throws_is_the_game_without_dice() {
    for base in common::small_boards() {
        let mut s =
            Rules::new(base.board.kind, Dice::Schaedler).with_diagonals(base.board.diagonals).expect("the same board");
        s.special_72 = 0;
        let n = Rules { placement_mills: PlacementMills::Forbidden, ..base };
        let a = Solution::solve_with(s, &Default::default(), &Silent).unwrap();
        let b = Solution::solve_with(n, &Default::default(), &Silent).unwrap();
        let mut compared = 0;
        for st in reachable(&n) {
            let (Some(iv), Some(v)) = (a.interval(&st), b.dtm(&st)) else { continue };
            let x = v.sign() as f64;
            assert!((iv.lo - x).abs() < 1e-6 && (iv.hi - x).abs() < 1e-6, "{st:?}: {iv:?} vs {v}");
            compared += 1;
        }
        assert!(compared > 100);
    }
}

/// One game of the computed strategy against itself (ties broken at random);
/// +1, 0 or −1 for the first player; endless games count 0 after `cap` plies.
fn playout(sol: &Solution, rng: &mut impl Rng, cap: usize) -> f64 {
    let rules = &sol.rules;
    let mut st = State::start(rules.men());
    let mut sign = 1.0;
    for _ in 0..cap {
        if rules.lost(&st) {
            return -sign;
        }
        let outcomes = rules.throw_outcomes(&st);
        let mut r = rng.random_range(0..72u8);
        let throw = outcomes
            .iter()
            .find(|(_, p)| {
                if r < *p {
                    true
                } else {
                    r -= p;
                    false
                }
            })
            .map(|t| t.0)
            .unwrap();
        let kind = Kind::of(rules, Sector::of(&st));
        let rated: Vec<(State, Eval)> =
            rules.actions(&st, throw).into_iter().map(|(_, c)| (c, sol.action_value(kind, &c).unwrap())).collect();
        if rated.is_empty() {
            return if rules.blocked == Blocked::Draw { 0.0 } else { -sign };
        }
        let best = rated.iter().map(|r| r.1).max_by(solver::merels::known::compare).unwrap();
        let top: Vec<&(State, Eval)> =
            rated.iter().filter(|r| solver::merels::known::compare(&r.1, &best).is_eq()).collect();
        st = top[rng.random_range(0..top.len())].0;
        sign = -sign;
    }
    0.0
}

#[test]
fn sampled_self_play_agrees_with_the_solved_value() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for (kind, dice) in [
        (BoardKind::Rota, Dice::Murray),
        (BoardKind::Three, Dice::Murray),
        (BoardKind::Three, Dice::Bell),
        (BoardKind::Rota, Dice::Schaedler),
    ] {
        let rules = Rules::new(kind, dice);
        let sol = Solution::solve_with(rules, &Default::default(), &Silent).unwrap();
        let start = State::start(rules.men());
        let v = sol.interval(&start).unwrap().v;
        let chain = leader_chances(&sol, Policy::Perfect, Policy::Perfect);
        assert!(
            (chain.leader_wins - chain.leader_loses - v).abs() < 1e-6,
            "{}: chain {chain:?} vs value {v}",
            rules.label()
        );
        let n = 6_000;
        let outcomes: Vec<f64> = (0..n).map(|_| playout(&sol, &mut rng, 400)).collect();
        let mean = outcomes.iter().sum::<f64>() / n as f64;
        let var = outcomes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let half = 4.0 * (var / n as f64).sqrt() + 1e-9;
        assert!((mean - v).abs() <= half, "{}: sampled {mean} ± {half}, solved {v}", rules.label());
    }
}
