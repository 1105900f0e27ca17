//! The exact Markov-chain probabilities against sampled games.

use engine::merels::{Rules, State, Throw};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use solver::merels::markov::{Policy, leader_chances};
use solver::merels::{Silent, Solution};

/// Plays one game; `Some(true)` if the leader wins.
fn play(sol: &Solution, leader: Policy, follower: Policy, rng: &mut impl Rng) -> Option<bool> {
    let rules = &sol.rules;
    let mut st = State::start(rules.men());
    let mut lead = true;
    for _ in 0..10_000 {
        if rules.lost(&st) {
            return Some(!lead);
        }
        let mut kids: Vec<State> = rules.actions(&st, Throw::None).into_iter().map(|k| k.1).collect();
        if kids.is_empty() {
            return Some(!lead);
        }
        if (if lead { leader } else { follower }) == Policy::Perfect {
            let best = kids.iter().map(|c| sol.dtm(c).unwrap().back()).max();
            kids.retain(|c| Some(sol.dtm(c).unwrap().back()) == best);
        }
        st = kids[rng.random_range(0..kids.len())];
        lead = !lead;
    }
    None
}

#[test]
fn rota_chain_agrees_with_sampled_games() {
    let sol = Solution::solve(Rules::rota(), &Silent);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for (a, b) in
        [(Policy::Random, Policy::Random), (Policy::Perfect, Policy::Random), (Policy::Random, Policy::Perfect)]
    {
        let exact = leader_chances(&sol, a, b);
        assert!((exact.leader_wins + exact.leader_loses + exact.endless - 1.0).abs() < 1e-12);
        let n = 20_000;
        let wins = (0..n).filter(|_| play(&sol, a, b, &mut rng) == Some(true)).count();
        let p = wins as f64 / n as f64;
        let sigma = (exact.leader_wins * (1.0 - exact.leader_wins) / n as f64).sqrt().max(1e-4);
        assert!((p - exact.leader_wins).abs() < 5.0 * sigma, "{a:?} v {b:?}: sampled {p}, exact {}", exact.leader_wins);
    }
}
