//! Perfect play against the solutions it reads, and the generic alpha-beta
//! against the solved values: both choose only what the solver says is best
//! (or, for alpha-beta, a move that keeps a short forced win).

use engine::game::{Game, Turn};
use engine::merels::{BoardKind, Dice, Merels, Move, Play, Rules};
use engine::players::alphabeta::AlphaBetaAgent;
use engine::players::{Agent, Bot, Limit};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use solver::merels::{Eval, Kind, PerfectBot, Sector, Silent, Solution, SolveError, Value, solution_for_play};
use std::sync::Arc;

/// Positions met along random games, at the players' turns.
fn positions(game: &Merels, n: usize, seed: u64) -> Vec<Play> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut st = game.start();
        for _ in 0..60 {
            if game.result(&st).is_some() {
                break;
            }
            match game.turn(&st) {
                Turn::Chance => {
                    let ch = game.chances(&st);
                    let i = if rng.random::<f64>() < ch[0].1 { 0 } else { ch.len() - 1 };
                    st = game.apply(&st, ch[i].0);
                }
                Turn::Player(_) => {
                    out.push(st);
                    let acts = game.actions(&st);
                    st = game.apply(&st, acts[rng.random_range(0..acts.len())]);
                }
            }
        }
    }
    out
}

#[test]
fn perfect_chooses_only_best_actions_and_breaks_ties_at_random() {
    for rules in
        [Rules::rota(), Rules::new(BoardKind::Three, Dice::Murray), Rules::new(BoardKind::Three, Dice::Schaedler)]
    {
        let sol = Arc::new(Solution::solve(rules, &Silent));
        let bot = PerfectBot::new(sol.clone()).unwrap();
        let game = Merels::new(rules);
        let mut varied = false;
        for st in positions(&game, 300, 1) {
            let throw = st.throw.unwrap_or(engine::merels::Throw::None);
            let rated: Vec<_> = sol.rate_actions(&st.state).into_iter().filter(|r| r.0 == throw).collect();
            let top = rated[0].2;
            // Values under chance are equal within two grid steps.
            let equal = |x: &Eval| match (x, &top) {
                (Eval::Chance(x), Eval::Chance(t)) => t.v - x.v <= solver::merels::value::TIE,
                _ => solver::merels::known::compare(x, &top).is_eq(),
            };
            let best: Vec<_> = rated.iter().filter(|r| equal(&r.2)).map(|r| r.1).collect();
            let mut seen = Vec::new();
            for seed in 0..8 {
                let Move::Act(a, _) = bot.agent(seed).choose(&game, &st) else { panic!("a throw chosen") };
                assert!(best.contains(&a), "{}: {a:?} is not among the best", rules.label());
                if !seen.contains(&a) {
                    seen.push(a);
                }
            }
            varied |= seen.len() > 1;
        }
        assert!(varied, "{}: ties are never broken differently", rules.label());
    }
}

#[test]
fn alphabeta_keeps_short_forced_wins() {
    let rules = Rules::new(BoardKind::Three, Dice::None);
    let sol = Solution::solve(rules, &Silent);
    let game = Merels::new(rules);
    let mut checked = 0;
    for st in positions(&game, 400, 2) {
        let Some(Value::Win(n)) = sol.dtm(&st.state) else { continue };
        if n > 5 {
            continue;
        }
        let mut ab = AlphaBetaAgent::new(Limit { depth: Some(5), movetime: None }, 3);
        let Move::Act(_, child) = ab.choose(&game, &st) else { panic!("a throw chosen") };
        let kind = Kind::of(&rules, Sector::of(&st.state));
        let v = sol.action_value(kind, &child).unwrap();
        assert!(matches!(v, Eval::Dtm(Value::Win(_))), "a win in {n} thrown away: {v:?}");
        checked += 1;
    }
    assert!(checked > 10, "only {checked} positions with a short win");
}

#[test]
fn perfect_refuses_what_is_not_solved() {
    let nine = Rules::new(BoardKind::Nine, Dice::None);
    let e = solution_for_play(nine, None, &Silent).err().unwrap();
    assert!(matches!(e, SolveError::NoDatabase(_)), "{e}");
    assert!(e.to_string().contains("too big"), "{e}");
    let dir = std::env::temp_dir().join(format!("ludus-perfect-test-{}", std::process::id()));
    let e = solution_for_play(nine, Some(dir), &Silent).err().unwrap();
    assert!(matches!(&e, SolveError::NotSolved { missing, .. } if *missing > 0), "{e}");
    assert!(e.to_string().contains("not solved") && e.to_string().contains("ludus merels solve"), "{e}");
    // A partial solution (endgames only) is refused too.
    let opts = solver::merels::SolveOptions { max_men: Some(4), ..Default::default() };
    let part = Solution::solve_with(Rules::new(BoardKind::Six, Dice::None), &opts, &Silent).unwrap();
    assert!(matches!(PerfectBot::new(Arc::new(part)), Err(SolveError::Incomplete(_))));
}

/// Under Schädler's dice the side ahead that must keep to equally good moves
/// inside a movement group moves to positions of smaller progress rank (or
/// leaves the group), and every equally good move of the side behind does:
/// perfect play leaves each loop it should leave. Checked on every position
/// of the movement groups of three (with and without diagonals) and of six
/// men's 3 v 3 and 3 v 4, after each throw.
#[test]
fn perfect_play_descends_the_progress_ranks() {
    use engine::merels::Throw;
    use solver::merels::SolveOptions;
    use solver::merels::perfect::best_moves;
    use solver::merels::value::TIE;
    let three = Rules::new(BoardKind::Three, Dice::Schaedler);
    let diagonals = three.with_diagonals(true).expect("three has diagonals");
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    let (mut ranked, mut filtered) = (0, 0);
    for (rules, max_men) in [(three, None), (diagonals, None), (six, Some(7))] {
        let opts = SolveOptions { max_men, ..SolveOptions::default() };
        let sol = Solution::solve_with(rules, &opts, &Silent).unwrap();
        let game = Merels::new(rules);
        for (s, t) in sol.tables() {
            if !s.is_movement() || t.rank.is_empty() {
                continue;
            }
            for i in 0..t.indexer.size() {
                let (r, Some(Eval::Chance(v))) = (t.rank_at(i), t.at(i)) else { continue };
                if r == 0 {
                    continue;
                }
                ranked += 1;
                let state = t.indexer.state(i);
                for throw in [Throw::Normal, Throw::Special] {
                    let p = Play { side: engine::merels::Side::X, state, throw: Some(throw) };
                    let rank_of = |m: &Move| {
                        let Move::Act(_, child) = m else { panic!("a throw") };
                        if Sector::of(child) == s.mirror() { sol.rank(child) } else { 0 }
                    };
                    let chosen = best_moves(&sol, &game, &p);
                    assert!(!chosen.is_empty());
                    let ranks: Vec<u16> = chosen.iter().map(rank_of).collect();
                    if v.v > TIE {
                        assert!(
                            ranks.iter().all(|&c| c < r),
                            "{}: {p:?} rank {r} moves to ranks {ranks:?}",
                            rules.label()
                        );
                        // Moves of the best value that perfect play passes over.
                        let tied = sol
                            .rate_actions(&state)
                            .into_iter()
                            .filter(|a| a.0 == throw)
                            .filter(|a| matches!(a.2, Eval::Chance(x) if v.v - x.v <= TIE))
                            .count();
                        if tied > chosen.len() {
                            filtered += 1;
                        }
                    } else {
                        assert!(
                            ranks.iter().all(|&c| c < r),
                            "{}: {p:?} rank {r} moves to ranks {ranks:?}",
                            rules.label()
                        );
                    }
                }
            }
        }
    }
    assert!(ranked > 1000, "only {ranked} ranked positions");
    assert!(filtered > 0, "no position where the ranks decide among equally good moves");
}
