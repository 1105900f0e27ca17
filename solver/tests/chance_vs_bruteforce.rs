//! The sector solver under every dice reading against brute force over the
//! explicit game graph of the small boards (every state reachable from the
//! start, no symmetry, no indexing, no sectors):
//! - Murray and Bell: exact expectimax by memoised recursion over placement,
//!   on top of a naive fixpoint for the movement phase;
//! - Schädler: the safety fixpoint and interval iteration, Jacobi-style,
//!   over the whole graph.
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

mod common;

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

fn boards() -> Vec<Rules> {
    let mut v = Vec::new();
    for kind in [BoardKind::Rota, BoardKind::Three] {
        for diag in [false, true] {
            if kind == BoardKind::Rota && diag {
                continue;
            }
            v.push(Rules::new(kind, Dice::None).with_diagonals(diag));
        }
    }
    v
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
    for base in boards() {
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

/// Safety fixpoint and interval iteration over the explicit graph.
fn brute_intervals(rules: &Rules) -> HashMap<State, (f64, f64)> {
    let states = reachable(rules);
    let id: HashMap<State, usize> = states.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let n = states.len();
    // kids[i][throw] = (probability, children); empty children: blocked.
    let kids: Vec<Vec<(f64, Vec<usize>)>> = states
        .iter()
        .map(|st| {
            if rules.lost(st) {
                return Vec::new();
            }
            rules
                .throw_outcomes(st)
                .into_iter()
                .map(|(t, p)| (p as f64 / 72.0, rules.actions(st, t).iter().map(|(_, c)| id[c]).collect()))
                .collect()
        })
        .collect();
    let lost: Vec<bool> = states.iter().map(|s| rules.lost(s)).collect();
    let blocked_safe_mover = rules.blocked == Blocked::Draw;
    // Greatest fixpoint: mover safe / other safe.
    let mut sm: Vec<bool> = lost.iter().map(|&l| !l).collect();
    let mut so = vec![true; n];
    loop {
        let mut changed = false;
        for i in 0..n {
            if lost[i] {
                continue;
            }
            let m = kids[i]
                .iter()
                .all(|(_, ks)| if ks.is_empty() { blocked_safe_mover } else { ks.iter().any(|&k| lost[k] || so[k]) });
            let o = kids[i].iter().all(|(_, ks)| ks.iter().all(|&k| !lost[k] && sm[k]));
            if sm[i] && !m {
                sm[i] = false;
                changed = true;
            }
            if so[i] && !o {
                so[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let blocked = if rules.blocked == Blocked::Draw { 0.0 } else { -1.0 };
    let mut lo: Vec<f64> = (0..n)
        .map(|i| {
            if lost[i] {
                -1.0
            } else if sm[i] {
                0.0
            } else {
                -1.0
            }
        })
        .collect();
    let mut hi: Vec<f64> = (0..n)
        .map(|i| {
            if lost[i] {
                -1.0
            } else if so[i] {
                0.0
            } else {
                1.0
            }
        })
        .collect();
    for _ in 0..200_000 {
        let (mut nlo, mut nhi) = (lo.clone(), hi.clone());
        let mut moved = 0.0f64;
        for i in 0..n {
            if lost[i] {
                continue;
            }
            let (mut a, mut b) = (0.0, 0.0);
            for (p, ks) in &kids[i] {
                let (x, y) = if ks.is_empty() {
                    (blocked, blocked)
                } else {
                    (
                        ks.iter().map(|&k| -hi[k]).fold(f64::NEG_INFINITY, f64::max),
                        ks.iter().map(|&k| -lo[k]).fold(f64::NEG_INFINITY, f64::max),
                    )
                };
                a += p * x;
                b += p * y;
            }
            nlo[i] = lo[i].max(a);
            nhi[i] = hi[i].min(b);
            moved = moved.max(nlo[i] - lo[i]).max(hi[i] - nhi[i]);
        }
        lo = nlo;
        hi = nhi;
        if moved < 1e-13 {
            break;
        }
    }
    states.into_iter().enumerate().map(|(i, s)| (s, (lo[i], hi[i]))).collect()
}

#[test]
fn schaedler_equals_brute_force_interval_iteration() {
    for base in boards() {
        for blocked in [Blocked::Lose, Blocked::Pass, Blocked::Draw] {
            let rules =
                Rules { blocked, ..Rules::new(base.board.kind, Dice::Schaedler).with_diagonals(base.board.diagonals) };
            let sol = Solution::solve_with(rules, &Default::default(), &Silent).unwrap();
            let truth = brute_intervals(&rules);
            for (st, (lo, hi)) in &truth {
                let iv = sol.interval(st).unwrap_or_else(|| panic!("{} {st:?} unsolved", rules.label()));
                assert!((iv.lo as f64 - lo).abs() < 2e-5, "{} {st:?}: lo {} vs {lo}", rules.label(), iv.lo);
                assert!((iv.hi as f64 - hi).abs() < 2e-5, "{} {st:?}: hi {} vs {hi}", rules.label(), iv.hi);
                assert!(iv.lo <= iv.v && iv.v <= iv.hi);
            }
            // On these boards every position is settled.
            let widest = truth.values().map(|(a, b)| b - a).fold(0.0, f64::max);
            assert!(widest < 1e-5, "{}: widest {widest}", rules.label());
        }
    }
}

#[test]
fn schaedler_without_special_throws_is_the_game_without_dice() {
    for base in boards() {
        let mut s = Rules::new(base.board.kind, Dice::Schaedler).with_diagonals(base.board.diagonals);
        s.special_72 = 0;
        let n = Rules { placement_mills: PlacementMills::Forbidden, ..base };
        let a = Solution::solve_with(s, &Default::default(), &Silent).unwrap();
        let b = Solution::solve_with(n, &Default::default(), &Silent).unwrap();
        let mut compared = 0;
        for st in reachable(&n) {
            let (Some(iv), Some(v)) = (a.interval(&st), b.dtm(&st)) else { continue };
            let x = v.sign() as f32;
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
        let best = rated.iter().map(|r| r.1).max_by(solver::merels::solution::compare).unwrap();
        let top: Vec<&(State, Eval)> =
            rated.iter().filter(|r| solver::merels::solution::compare(&r.1, &best).is_eq()).collect();
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
        let v = sol.interval(&start).unwrap().v as f64;
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
