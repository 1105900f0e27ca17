//! Wibold's game checked by slow, obviously-correct twins: the 5184 casts
//! read by plain string handling, the simplified game's law by a Markov
//! chain, the expected lengths by the article's integral, and the simulator
//! against the exact law by goodness-of-fit tests with fixed seeds.

use std::collections::HashMap;

use engine::wibold::dice::{CUBES_COUNT, Cast, cubes_from_index};
use engine::wibold::outcome::{casts_per_virtue, spelled};
use engine::wibold::{Players, Roll, Rules, Verdict, Virtue};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use solver::wibold::analysis::coupons;
use solver::wibold::simulate::draw;
use solver::wibold::stats::{Histogram, fit, gamma_q};
use solver::wibold::{LengthLaw, SimConfig, simulate};

/// The cubes as the spec describes them: `AEIOU` written on and on, face f
/// taking f letters, cube k starting k letters in.
fn cubes() -> Vec<Vec<String>> {
    (0..3)
        .map(|k| {
            let mut letters = "AEIOU".chars().cycle().skip(k);
            (1..=6).map(|f| letters.by_ref().take(f).collect()).collect()
        })
        .collect()
}

const TETRAHEDRON: [&str; 4] = ["BCDF", "GHKL", "MNPR", "STXZ"];

fn vowel_counts(s: &str) -> HashMap<char, usize> {
    let mut m = HashMap::new();
    for c in s.chars().filter(|c| "AEIOU".contains(*c)) {
        *m.entry(c).or_insert(0) += 1;
    }
    m
}

/// Whether the letters shown spell `name`: its vowels with repetition, and
/// one of its consonants on the tetrahedron's base.
fn spells(shown: &str, base: &str, name: &str) -> bool {
    let have = vowel_counts(shown);
    let vowels_ok = vowel_counts(name).iter().all(|(c, n)| have.get(c).copied().unwrap_or(0) >= *n);
    let consonant_ok = name.chars().any(|c| !"AEIOU".contains(c) && base.contains(c));
    vowels_ok && consonant_ok
}

/// The virtue a cast acquires, read from the spec with strings.
fn read_slowly(i: usize) -> Option<Virtue> {
    let cubes = cubes();
    let (throw, recast) = (i / 6, i % 6);
    let (base, rest) = (throw % 4, throw / 4);
    let pips = [rest / 36 % 6, rest / 6 % 6, rest % 6];
    let faces: Vec<&str> = (0..3).map(|k| cubes[k][pips[k]].as_str()).collect();
    let v = Roll::new([pips[0] as u8 + 1, pips[1] as u8 + 1, pips[2] as u8 + 1]).unwrap().virtue();
    let name = v.latin();
    let shown = faces.concat();
    if spells(&shown, TETRAHEDRON[base], name) {
        return Some(v);
    }
    // KARITAS (A, E, I) re-casts cube 2, the one showing the useless E.
    if name == "KARITAS" {
        let again = format!("{}{}{}", faces[0], cubes[1][recast], faces[2]);
        if spells(&again, TETRAHEDRON[base], name) {
            return Some(v);
        }
    }
    None
}

#[test]
fn every_cast_reads_as_the_spec_says() {
    for i in 0..Cast::COUNT {
        assert_eq!(spelled(i), read_slowly(i), "cast {i}: {:?}", Cast::from_index(i));
    }
}

#[test]
fn table_3_by_brute_force() {
    let mut sixths = [0u32; 56];
    for i in 0..Cast::COUNT {
        if let Some(v) = read_slowly(i) {
            sixths[v.index()] += 1;
        }
    }
    assert_eq!(sixths, casts_per_virtue());
    let name = |n: &str| n.parse::<Virtue>().unwrap().index();
    assert_eq!(sixths[name("PAX")], 12 * 6);
    assert_eq!(sixths[name("GAUDIUM")], 6 * 6);
    assert_eq!(sixths[name("KARITAS")], 2 * 6, "3 faces × 4/6");
    let acquiring: u32 = sixths.iter().sum();
    assert_eq!(864 * 6 - acquiring, 447 * 6, "NULL");
    // The multiplicities of the counts out of 864.
    let mut spread: HashMap<u32, u32> = HashMap::new();
    for s in sixths {
        *spread.entry(s / 6).or_default() += 1;
    }
    let mut spread: Vec<(u32, u32)> = spread.into_iter().collect();
    spread.sort();
    assert_eq!(spread, [(1, 2), (2, 7), (3, 5), (4, 5), (6, 10), (8, 3), (9, 12), (12, 8), (18, 3), (24, 1)]);
}

/// E[T] by the article's integral ∫ (1 − Π(1 − e^{−p_i t})) dt, Simpson's
/// rule out to where the integrand is below 1e-15.
fn article_integral(p: &[f64]) -> f64 {
    let f = |t: f64| 1.0 - p.iter().map(|&pi| 1.0 - (-pi * t).exp()).product::<f64>();
    let pmin = p.iter().copied().fold(1.0, f64::min);
    let end = (1e15 * p.len() as f64).ln() / pmin;
    let h = 0.25;
    let steps = (end / h).ceil() as usize & !1;
    let mut s = f(0.0) + f(steps as f64 * h);
    for k in 1..steps {
        s += f(k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
    }
    s * h / 3.0
}

#[test]
fn the_articles_integral_agrees_with_the_exact_means() {
    for rules in Rules::ALL {
        let c = coupons(rules);
        let p: Vec<f64> = c.weights().iter().map(|&w| w as f64 / c.total() as f64).collect();
        let exact = LengthLaw::of(rules).mean_f64();
        let integral = article_integral(&p);
        assert!((integral - exact).abs() < 1e-6 * exact, "{rules}: {integral} vs {exact}");
    }
    assert_eq!(format!("{:.2}", LengthLaw::of(Rules::Full).mean_f64()), "1656.05");
    assert_eq!(format!("{:.2}", LengthLaw::of(Rules::Simplified).mean_f64()), "338.45");
}

#[test]
fn the_simplified_law_agrees_with_a_markov_chain() {
    // The 16 sums come in 8 pairs of equal weight (s and 21 − s): the chain
    // only needs how many of each pair have been rolled, 3^8 states.
    let mut ways = [0u64; 19];
    for i in 0..CUBES_COUNT {
        let p = cubes_from_index(i);
        ways[(p[0] + p[1] + p[2]) as usize] += 1;
    }
    let weights: Vec<f64> = (3..=10).map(|s| ways[s] as f64 / 216.0).collect();
    assert!((3..=10).all(|s| ways[s] == ways[21 - s]));
    let states = 3usize.pow(8);
    let digit = |state: usize, c: usize| state / 3usize.pow(c as u32) % 3;
    let mut dist = vec![0.0; states];
    dist[0] = 1.0;
    let law = LengthLaw::of(Rules::Simplified);
    for n in 0..=2000u64 {
        let done = dist[states - 1];
        assert!((law.curve.cdf(n) - done).abs() < 1e-12, "n = {n}: {} vs {done}", law.curve.cdf(n));
        let mut next = vec![0.0; states];
        for (s, &p) in dist.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            let mut stay = 1.0;
            for (c, &w) in weights.iter().enumerate() {
                let left = (2 - digit(s, c)) as f64;
                if left > 0.0 {
                    next[s + 3usize.pow(c as u32)] += p * left * w;
                    stay -= left * w;
                }
            }
            next[s] += p * stay;
        }
        dist = next;
    }
    // E[T] by first-step analysis, from the full state backwards: each
    // state's expected remaining rolls is (1 + Σ p_next E[next]) / p_move.
    let mut expect = vec![0.0; states];
    for s in (0..states - 1).rev() {
        let (mut go, mut acc) = (0.0, 1.0);
        for (c, &w) in weights.iter().enumerate() {
            let left = (2 - digit(s, c)) as f64;
            if left > 0.0 {
                go += left * w;
                acc += left * w * expect[s + 3usize.pow(c as u32)];
            }
        }
        expect[s] = acc / go;
    }
    assert!((expect[0] - law.mean_f64()).abs() < 1e-9, "{}", expect[0]);
}

#[test]
fn the_simulator_follows_the_exact_law() {
    for (rules, games, seed) in [(Rules::Full, 10_000, 2014), (Rules::Simplified, 20_000, 966)] {
        let cfg = SimConfig { rules, players: Players::new(4).unwrap(), games, seed };
        let t = simulate(&cfg, &|_| {});
        let law = LengthLaw::of(rules);
        let f = fit(&t.lengths, &law.curve);
        assert!(f.chi_square_p_value.unwrap() > 0.001, "{rules}: {f:?}");
        assert!(f.ks_p_value > 0.001, "{rules}: {f:?}");
        let se = law.sd() / (games as f64).sqrt();
        assert!((t.lengths.mean() - law.mean_f64()).abs() < 4.0 * se, "{rules}: {}", t.lengths.mean());
        assert!(t.lengths.min() >= law.coupons.min_length());
    }
}

#[test]
fn a_wrong_law_is_rejected() {
    // The test has power: the simplified game's lengths do not fit the full game's law.
    let cfg = SimConfig { rules: Rules::Simplified, players: Players::new(2).unwrap(), games: 2000, seed: 1 };
    let t = simulate(&cfg, &|_| {});
    let f = fit(&t.lengths, &LengthLaw::of(Rules::Full).curve);
    assert!(f.ks_p_value < 1e-6 && f.chi_square_p_value.unwrap() < 1e-6, "{f:?}");
}

#[test]
fn single_rolls_follow_table_3() {
    // Two million draws through the simulator's sampler and lookup.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let draws = 2_000_000u64;
    let mut counts = [0u64; 57];
    for _ in 0..draws {
        let i = draw(&mut rng, Cast::COUNT as u32);
        counts[spelled(i).map_or(56, Virtue::index)] += 1;
    }
    let sixths = casts_per_virtue();
    let mut chi = 0.0;
    for (k, &n) in counts.iter().enumerate() {
        let p = if k == 56 { 447.0 / 864.0 } else { f64::from(sixths[k]) / 5184.0 };
        let e = p * draws as f64;
        chi += (n as f64 - e).powi(2) / e;
    }
    let p = gamma_q(56.0 / 2.0, chi / 2.0);
    assert!(p > 0.001, "chi-square {chi}, p = {p}");
}

#[test]
fn histograms_of_one_run_do_not_depend_on_threads() {
    let cfg = SimConfig { rules: Rules::Full, players: Players::new(5).unwrap(), games: 700, seed: 12 };
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| simulate(&cfg, &|_| {}));
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| simulate(&cfg, &|_| {}));
    assert_eq!(one.lengths, two.lengths);
    assert_eq!(one.wins, two.wins);
    assert_eq!(one.virtues, two.virtues);
    let mut h = Histogram::default();
    h.merge(&one.lengths);
    assert_eq!(h.total(), 700);
}

proptest! {
    #[test]
    fn verdicts_agree_with_a_plain_reading_of_the_rule(
        scores in proptest::collection::vec(0u32..8, 2..=8),
        karitas in 0usize..8,
    ) {
        let karitas = karitas % scores.len();
        let v = Verdict::decide(&scores, Some(karitas));
        let top = *scores.iter().max().unwrap();
        let tied: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == top).collect();
        if tied.len() == 1 {
            prop_assert_eq!(v.winners.iter().collect::<Vec<_>>(), tied);
            prop_assert!(!v.tied);
        } else {
            // "The holder of KARITAS adds one to his count."
            let mut adjusted = scores.clone();
            adjusted[karitas] += 1;
            let best = *adjusted.iter().max().unwrap();
            let winners: Vec<usize> = (0..scores.len()).filter(|&s| adjusted[s] == best).collect();
            prop_assert_eq!(v.winners.iter().collect::<Vec<_>>(), winners.clone());
            prop_assert!(v.tied);
            prop_assert_eq!(v.karitas_broke_tie, winners.len() == 1);
        }
    }

    #[test]
    fn rolls_read_in_any_order(a in 1u8..=6, b in 1u8..=6, c in 1u8..=6) {
        let r = Roll::new([a, b, c]).unwrap();
        prop_assert_eq!(format!("{c}-{a}-{b}").parse::<Roll>().unwrap(), r);
        prop_assert_eq!(r.to_string().parse::<Roll>().unwrap(), r);
        prop_assert_eq!(r.sum(), a + b + c);
        prop_assert_eq!(r.complement().sum(), 21 - r.sum());
    }
}
