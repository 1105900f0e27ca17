//! The exact analysis of Wibold's two games: the article's Table 3 (how many
//! of the 864 throws acquire each virtue), and the exact law of the number
//! of rolls a game lasts, which the article could only simulate.

use std::collections::BTreeMap;

use engine::wibold::dice::{CUBES_COUNT, Cast, Throw, cubes_from_index};
use engine::wibold::outcome::casts_per_virtue;
use engine::wibold::{Rules, Virtue};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use rayon::prelude::*;
use serde::Serialize;

use super::coupons::{Coupons, Curve, decimal};

/// The quantiles every report gives.
pub const QUANTILES: [&str; 3] = ["0.5", "0.95", "0.99"];

/// Every value of an exact curve is within this of the exact probability.
pub const CURVE_TOLERANCE: f64 = 1e-13;

/// Curves stop where `P(T > n)` falls below this.
pub const CURVE_TAIL: f64 = 1e-12;

/// What the article found by simulating 10,000 games of each kind.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ArticleSimulation {
    pub games: u64,
    pub mean: f64,
    pub sd: f64,
    /// Its estimate of the 95th percentile.
    pub p95: u64,
    /// The article's exact expected length (from its integral).
    pub expected: f64,
}

impl ArticleSimulation {
    pub const fn of(rules: Rules) -> ArticleSimulation {
        match rules {
            Rules::Full => {
                ArticleSimulation { games: 10_000, mean: 1656.126, sd: 810.536, p95: 3222, expected: 1656.05 }
            }
            Rules::Simplified => {
                ArticleSimulation { games: 10_000, mean: 339.595, sd: 233.2, p95: 806, expected: 338.45 }
            }
        }
    }
}

/// A count out of 864 throws: whole, or a fraction for KARITAS in general
/// (its re-cast succeeds on 4 faces of 6), kept exact in sixths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Count {
    pub sixths: u32,
}

impl Count {
    pub fn value(self) -> f64 {
        f64::from(self.sixths) / 6.0
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, rest) = (self.sixths / 6, self.sixths % 6);
        let text = if rest == 0 {
            whole.to_string()
        } else {
            let g = num_integer::gcd(rest, 6);
            format!("{whole} {}/{}", rest / g, 6 / g)
        };
        f.pad(&text)
    }
}

impl Serialize for Count {
    /// A whole count as an integer, otherwise as a number.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.sixths.is_multiple_of(6) { s.serialize_u32(self.sixths / 6) } else { s.serialize_f64(self.value()) }
    }
}

/// One virtue's line of the table.
#[derive(Clone, Debug, Serialize)]
pub struct VirtueRow {
    /// 1 to 56, in Wibold's order.
    pub number: usize,
    pub latin: &'static str,
    pub english: &'static str,
    pub roll: String,
    pub sum: u8,
    /// Wibold's mate: the virtue of the complementary roll (sums add to 21).
    pub mate: &'static str,
    /// How many of the 864 throws acquire it under the full rules.
    pub outcomes: Count,
    /// Its chance per roll under the full rules while unowned.
    pub probability: f64,
    /// Its chance per roll in the simplified game: its sum's.
    pub simplified_probability: f64,
}

/// The article's Table 3 and more, from the engine's readings of all casts.
pub fn virtue_table() -> Vec<VirtueRow> {
    let casts = casts_per_virtue();
    let ways = ways_per_sum();
    Virtue::all()
        .map(|v| {
            // A cast is a sixth of a throw: the re-cast face splits each throw in six.
            let outcomes = Count { sixths: casts[v.index()] };
            VirtueRow {
                number: v.index() + 1,
                latin: v.latin(),
                english: v.english(),
                roll: v.roll().to_string(),
                sum: v.sum(),
                mate: v.mate().latin(),
                outcomes,
                probability: outcomes.value() / Throw::COUNT as f64,
                simplified_probability: f64::from(ways[v.sum() as usize]) / CUBES_COUNT as f64,
            }
        })
        .collect()
}

/// The throws (of 864) that acquire no virtue at all.
pub fn null_outcomes() -> Count {
    let sixths: u32 = casts_per_virtue().iter().sum();
    Count { sixths: (Cast::COUNT as u32) - sixths }
}

/// How many of the 216 throws of three cubes give each sum (index 3 to 18).
pub fn ways_per_sum() -> [u32; 19] {
    let mut ways = [0u32; 19];
    for i in 0..CUBES_COUNT {
        let p = cubes_from_index(i);
        ways[(p[0] + p[1] + p[2]) as usize] += 1;
    }
    ways
}

/// A game as a coupon collector: the full game collects the 56 virtues
/// (weights out of the 5184 casts), the simplified game the 16 sums (weights
/// out of 216) since a sum's virtues are all taken at once.
pub fn coupons(rules: Rules) -> Coupons {
    let (weights, total): (Vec<u64>, u64) = match rules {
        Rules::Full => (casts_per_virtue().iter().map(|&w| u64::from(w)).collect(), Cast::COUNT as u64),
        Rules::Simplified => (ways_per_sum()[3..].iter().map(|&w| u64::from(w)).collect(), CUBES_COUNT as u64),
    };
    Coupons::new(&weights, total).expect("every virtue and every sum can be rolled")
}

/// A probability written in decimal (`0.95`) as an exact rational, if it is
/// one strictly between 0 and 1.
fn parse_order(s: &str) -> Option<BigRational> {
    let t = s.trim();
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    if int.is_empty() && frac.is_empty() || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let num: BigInt = format!("{int}{frac}").parse().ok()?;
    let q = BigRational::new(num, BigInt::from(10u32).pow(frac.len() as u32));
    (q > BigRational::from_integer(0.into()) && q < BigRational::from_integer(1.into())).then_some(q)
}

/// The exact law of one game's length.
#[derive(Clone, Debug)]
pub struct LengthLaw {
    pub rules: Rules,
    pub coupons: Coupons,
    pub mean: BigRational,
    pub variance: BigRational,
    /// `P(T ≤ n)` for every `n` up to a negligible tail.
    pub curve: Curve,
    /// The quantiles of [`QUANTILES`], exact.
    pub quantiles: BTreeMap<String, u64>,
}

impl LengthLaw {
    pub fn of(rules: Rules) -> LengthLaw {
        let coupons = coupons(rules);
        let mean = coupons.mean();
        let variance = coupons.variance();
        let curve = coupons.curve(CURVE_TAIL, CURVE_TOLERANCE);
        let quantiles = QUANTILES
            .par_iter()
            .map(|q| (q.to_string(), coupons.quantile(&parse_order(q).expect("valid order"), &curve)))
            .collect();
        LengthLaw { rules, coupons, mean, variance, curve, quantiles }
    }

    pub fn mean_f64(&self) -> f64 {
        self.mean.to_f64().unwrap_or(f64::NAN)
    }

    pub fn sd(&self) -> f64 {
        self.variance.to_f64().unwrap_or(f64::NAN).sqrt()
    }

    /// The least `n` with `P(T ≤ n) ≥ q`, exactly.
    pub fn quantile(&self, q: &BigRational) -> u64 {
        self.coupons.quantile(q, &self.curve)
    }

    /// The summary a report carries.
    pub fn summary(&self) -> LengthSummary {
        let article = ArticleSimulation::of(self.rules);
        LengthSummary {
            rules: self.rules.name(),
            expected_rolls: self.mean_f64(),
            expected_rolls_decimal: decimal(&self.mean, 12),
            expected_rolls_exact: self.mean.to_string(),
            sd: self.sd(),
            variance: self.variance.to_f64().unwrap_or(f64::NAN),
            quantiles: self.quantiles.clone(),
            min_length: self.coupons.min_length(),
            p_at_most_article_p95: self.coupons.cdf_exact(article.p95).to_f64().unwrap_or(f64::NAN),
            article,
            curve_exact_until: self.curve.exact_until,
            curve_max_error: self.curve.max_error,
            curve_len: self.curve.len(),
        }
    }
}

/// One game's exact length, for reports.
#[derive(Clone, Debug, Serialize)]
pub struct LengthSummary {
    pub rules: &'static str,
    pub expected_rolls: f64,
    /// E[T] to 12 decimal places, exact digits.
    pub expected_rolls_decimal: String,
    /// E[T] as a fraction in lowest terms.
    pub expected_rolls_exact: String,
    pub sd: f64,
    pub variance: f64,
    pub quantiles: BTreeMap<String, u64>,
    /// No game is shorter.
    pub min_length: u64,
    /// The exact P(T ≤ the article's 95th percentile estimate).
    pub p_at_most_article_p95: f64,
    pub article: ArticleSimulation,
    /// The curve is exact (rounded once) for n below this, f64 after.
    pub curve_exact_until: u64,
    /// A bound on the curve's absolute error.
    pub curve_max_error: f64,
    pub curve_len: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_3_of_the_article() {
        let t = virtue_table();
        assert_eq!(null_outcomes(), Count { sixths: 447 * 6 });
        let by = |name: &str| t.iter().find(|r| r.latin == name).unwrap().outcomes;
        assert_eq!(by("PAX"), Count { sixths: 72 });
        assert_eq!(by("GAUDIUM").to_string(), "6");
        assert_eq!(by("KARITAS").to_string(), "2");
        assert_eq!(t.iter().map(|r| r.outcomes.sixths).sum::<u32>(), 417 * 6);
        assert_eq!(Count { sixths: 13 }.to_string(), "2 1/6");
    }

    #[test]
    fn orders_parse_exactly() {
        assert_eq!(parse_order("0.95").unwrap(), BigRational::new(19.into(), 20.into()));
        assert_eq!(parse_order(".5").unwrap(), BigRational::new(1.into(), 2.into()));
        for bad in ["1", "0", "1.5", "-0.5", "x", "0.9.5", ""] {
            assert!(parse_order(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn the_simplified_game_collects_16_sums() {
        let c = coupons(Rules::Simplified);
        assert_eq!(c.weights(), [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]);
        assert_eq!(c.total(), 216);
        assert_eq!(decimal(&c.mean(), 2), "338.45");
    }

    #[test]
    fn the_full_game_expects_1656_05_rolls() {
        let c = coupons(Rules::Full);
        assert_eq!(c.total(), 864);
        assert_eq!(c.terms().last().unwrap().0, 417);
        assert_eq!(decimal(&c.mean(), 2), "1656.05");
    }

    #[test]
    fn the_laws_of_both_games() {
        for rules in Rules::ALL {
            let law = LengthLaw::of(rules);
            let article = ArticleSimulation::of(rules);
            // The article's two decimals, and its simulated sd within 3%.
            assert_eq!(format!("{:.2}", law.mean_f64()), format!("{:.2}", article.expected));
            assert!((law.sd() / article.sd - 1.0).abs() < 0.03, "{rules}: sd {}", law.sd());
            // Quantiles are exact: P(T ≤ n) ≥ q > P(T ≤ n − 1).
            for (q, &n) in &law.quantiles {
                let q = parse_order(q).unwrap();
                assert!(law.coupons.cdf_at_least(n, &q) && !law.coupons.cdf_at_least(n - 1, &q));
            }
            // The article's 95th percentile from 10,000 games is close.
            let p = law.coupons.cdf_exact(article.p95).to_f64().unwrap();
            assert!((0.94..0.96).contains(&p), "{rules}: {p}");
            // The curve sums back to the exact moments.
            let c = &law.curve;
            let mean: f64 = (0..c.len()).map(|n| c.survival(n)).sum();
            let second: f64 = (0..c.len()).map(|n| (2 * n + 1) as f64 * c.survival(n)).sum();
            assert!((mean - law.mean_f64()).abs() < 1e-6, "{rules}: {mean}");
            assert!((second - law.mean_f64().powi(2) - law.sd().powi(2)).abs() < 1e-3);
            assert!(c.max_error <= CURVE_TOLERANCE);
            // Where the curve is exact, tiny probabilities keep their digits.
            for n in [law.coupons.min_length(), 100].into_iter().filter(|&n| n < c.exact_until) {
                let exact = law.coupons.cdf_exact(n).to_f64().unwrap();
                assert!(exact > 0.0 && (c.cdf(n) / exact - 1.0).abs() < 1e-14, "{rules}: n = {n}");
            }
            for n in [0, law.coupons.min_length() - 1] {
                assert!(c.cdf(n) <= c.max_error, "{rules}: no game is shorter than its coupons");
            }
        }
    }
}
