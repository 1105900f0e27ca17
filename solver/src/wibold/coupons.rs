//! The exact law of a coupon collector's time with unequal probabilities.
//!
//! Each draw yields coupon `i` with probability `w_i / D` and nothing with
//! the remaining probability; `T` is the number of draws until every coupon
//! has been seen. By inclusion–exclusion,
//!
//! ```text
//! P(T ≤ n) = Σ_S (−1)^|S| (1 − w_S/D)^n = Σ_j c_j (1 − j/D)^n,
//! ```
//!
//! where `c_j` are the coefficients of `Π_i (1 − x^{w_i})`: integers with
//! alternating signs, `Σ|c_j| ≤ 2^m` for `m` coupons. Summed in floating
//! point they cancel catastrophically for small `n`, so the moments and the
//! quantiles are computed with exact big-integer rationals, and the curve
//! `P(T ≤ n)` exactly where the floating-point error bound is not small.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rayon::prelude::*;

/// A coupon collector: the weights of the coupons out of a total.
#[derive(Clone, Debug)]
pub struct Coupons {
    /// Weights reduced by their common divisor with the total.
    weights: Vec<u64>,
    /// `D`: the number of equally likely outcomes of one draw.
    total: u64,
    /// The nonzero coefficients `(j, c_j)` of `Π (1 − x^{w_i})`, by `j`.
    terms: Vec<(u64, i128)>,
}

/// Coupons that cannot be collected as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CouponsError {
    /// Not between 1 and 64 coupons.
    Count(usize),
    /// A coupon of weight 0 (never collected).
    ZeroWeight,
    /// The weights add to more than the outcomes of a draw.
    Overweight { sum: u64, total: u64 },
}

impl std::fmt::Display for CouponsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CouponsError::Count(n) => write!(f, "{n} coupons: between 1 and 64 are supported"),
            CouponsError::ZeroWeight => f.write_str("a coupon of weight 0 can never be collected"),
            CouponsError::Overweight { sum, total } => write!(f, "weights add to {sum}, more than the total {total}"),
        }
    }
}

impl std::error::Error for CouponsError {}

/// The unit roundoff of f64.
const U: f64 = f64::EPSILON / 2.0;

impl Coupons {
    /// A collector of coupons with these weights out of `total` equally
    /// likely outcomes per draw (the rest yield nothing).
    pub fn new(weights: &[u64], total: u64) -> Result<Coupons, CouponsError> {
        if weights.is_empty() || weights.len() > 64 {
            return Err(CouponsError::Count(weights.len()));
        }
        if weights.contains(&0) {
            return Err(CouponsError::ZeroWeight);
        }
        let sum: u64 = weights.iter().sum();
        if sum > total {
            return Err(CouponsError::Overweight { sum, total });
        }
        let g = weights.iter().fold(total, |g, &w| g.gcd(&w));
        let weights: Vec<u64> = weights.iter().map(|w| w / g).collect();
        let total = total / g;
        // Dense product: at most 2^64 in absolute value for 64 coupons.
        let mut poly = vec![0i128; (sum / g) as usize + 1];
        poly[0] = 1;
        let mut degree = 0usize;
        for &w in &weights {
            let w = w as usize;
            for j in (w..=degree + w).rev() {
                poly[j] -= poly[j - w];
            }
            degree += w;
        }
        let terms = poly.iter().enumerate().filter(|(_, c)| **c != 0).map(|(j, &c)| (j as u64, c)).collect();
        Ok(Coupons { weights, total, terms })
    }

    /// The reduced weights.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// The reduced total `D`.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The nonzero coefficients `(j, c_j)` of `Π (1 − x^{w_i})`.
    pub fn terms(&self) -> &[(u64, i128)] {
        &self.terms
    }

    /// The fewest draws that can see every coupon: `P(T ≤ n) = 0` below.
    pub fn min_length(&self) -> u64 {
        self.weights.len() as u64
    }

    /// `Σ_{j≥1} c_j a_j / b_j`, exactly, over the common denominator
    /// `lcm(b_j)` (one reduction instead of one per term).
    fn exact_sum(&self, term: impl Fn(u64, i128) -> (BigInt, u64)) -> BigRational {
        let parts: Vec<(BigInt, u64)> = self.terms.iter().filter(|(j, _)| *j > 0).map(|&(j, c)| term(j, c)).collect();
        let lcm = parts.iter().fold(BigInt::one(), |l, (_, b)| l.lcm(&BigInt::from(*b)));
        let num = parts.iter().fold(BigInt::zero(), |s, (a, b)| s + a * (&lcm / BigInt::from(*b)));
        BigRational::new(num, lcm)
    }

    /// `E[T] = Σ_{n≥0} P(T > n) = −Σ_{j≥1} c_j D / j`, exactly.
    pub fn mean(&self) -> BigRational {
        let d = BigInt::from(self.total);
        self.exact_sum(|j, c| (-BigInt::from(c) * &d, j))
    }

    /// `E[T²] = Σ_{n≥0} (2n+1) P(T > n) = −Σ_{j≥1} c_j (1+x_j)/(1−x_j)²` with
    /// `x_j = 1 − j/D`, that is `−Σ c_j (2D − j) D / j²`, exactly.
    pub fn second_moment(&self) -> BigRational {
        let d = BigInt::from(self.total);
        self.exact_sum(|j, c| (-BigInt::from(c) * (2 * &d - j) * &d, j * j))
    }

    /// `Var T`, exactly.
    pub fn variance(&self) -> BigRational {
        let m = self.mean();
        self.second_moment() - &m * &m
    }

    /// The numerator of `P(T ≤ n)` over `D^n`: `Σ_j c_j (D − j)^n`. The
    /// powers are the cost, so they are spread over rayon's threads.
    fn cdf_numerator(&self, n: u64) -> BigInt {
        let n = u32::try_from(n).expect("n fits in u32");
        self.terms
            .par_iter()
            .map(|&(j, c)| BigInt::from(c) * BigInt::from(self.total - j).pow(n))
            .reduce(BigInt::zero, |a, b| a + b)
    }

    /// `P(T ≤ n)`, exactly.
    pub fn cdf_exact(&self, n: u64) -> BigRational {
        let den = BigInt::from(self.total).pow(u32::try_from(n).expect("n fits in u32"));
        BigRational::new(self.cdf_numerator(n), den)
    }

    /// Whether `P(T ≤ n) ≥ q`, decided exactly.
    pub fn cdf_at_least(&self, n: u64, q: &BigRational) -> bool {
        let den = BigInt::from(self.total).pow(u32::try_from(n).expect("n fits in u32"));
        self.cdf_numerator(n) * q.denom() >= q.numer() * den
    }

    /// The `q`-quantile: the least `n` with `P(T ≤ n) ≥ q` (0 < q < 1),
    /// decided exactly. `curve` (which must reach past it) only gives the
    /// starting guess, so the answer does not depend on floating point.
    pub fn quantile(&self, q: &BigRational, curve: &Curve) -> u64 {
        assert!(q.is_positive() && q < &BigRational::one(), "quantile of order {q} is not in (0, 1)");
        let qf = q.to_f64().unwrap_or(0.5);
        let mut n = (0..curve.len()).find(|&n| curve.cdf(n) >= qf).unwrap_or(curve.len());
        while !self.cdf_at_least(n, q) {
            n += 1;
        }
        while n > 0 && self.cdf_at_least(n - 1, q) {
            n -= 1;
        }
        n
    }

    /// `P(T ≤ n)` for every `n` from 0 until `P(T > n) < tail`, each value
    /// within `tolerance` of the exact one: exact big-integer arithmetic
    /// (rounded once) while the f64 error bound exceeds `tolerance`, f64
    /// after. Each term of the bound decreases with `n`, so once below it
    /// stays below.
    pub fn curve(&self, tail: f64, tolerance: f64) -> Curve {
        let f = F64Terms::new(self);
        let mut survival = Vec::new();
        let mut lower = Vec::new();
        let mut n = 0u64;
        // Exact phase: powers (D − j)^n and D^n kept as big integers.
        // |c_j| ≤ C(m, m/2) < 2^64 fits in u64.
        let mut powers: Vec<(BigUint, u64, u64, bool)> = self
            .terms
            .iter()
            .filter(|(j, _)| *j > 0)
            .map(|&(j, c)| (BigUint::one(), self.total - j, c.unsigned_abs() as u64, c < 0))
            .collect();
        let mut dn = BigUint::one();
        while f.error_bound(n) > tolerance {
            // P(T > n) D^n = Σ_{c_j<0} |c_j| (D−j)^n − Σ_{c_j>0} c_j (D−j)^n.
            let (mut plus, mut minus) = (BigUint::zero(), BigUint::zero());
            for (p, _, c, negative) in &powers {
                if *negative {
                    plus += p * *c;
                } else {
                    minus += p * *c;
                }
            }
            let num = BigInt::from(plus) - BigInt::from(minus);
            let den = BigInt::from(dn.clone());
            // Both tails, each rounded once: tiny P(T ≤ n) keep their digits.
            lower.push(BigRational::new_raw(&den - &num, den.clone()).to_f64().unwrap_or(f64::NAN));
            survival.push(BigRational::new_raw(num, den).to_f64().unwrap_or(f64::NAN));
            for (p, base, _, _) in powers.iter_mut() {
                *p *= *base;
            }
            dn *= self.total;
            n += 1;
        }
        let exact_until = n;
        let max_error = f.error_bound(n).max(U);
        loop {
            let s = f.survival(n).clamp(0.0, 1.0);
            survival.push(s);
            n += 1;
            if s < tail && n > self.min_length() {
                break;
            }
        }
        Curve { survival, lower, exact_until, max_error }
    }
}

/// The terms `j ≥ 1` of the survival function for evaluation in f64.
struct F64Terms {
    /// `(c_j, ln(1 − j/D))` by increasing `j`: the logarithms decrease.
    terms: Vec<(f64, f64)>,
    /// A bound on every `|c_j|`.
    max_c: f64,
}

/// Terms below this are dropped: even 64 of them add up to nothing an f64
/// near 1 can hold.
const NEGLIGIBLE: f64 = 1e-30;

impl F64Terms {
    fn new(c: &Coupons) -> F64Terms {
        let d = c.total as f64;
        let terms: Vec<(f64, f64)> =
            c.terms.iter().filter(|(j, _)| *j > 0).map(|&(j, c)| (c as f64, (-(j as f64) / d).ln_1p())).collect();
        let max_c = terms.iter().map(|t| t.0.abs()).fold(0.0, f64::max);
        F64Terms { terms, max_c }
    }

    /// `x_j^n` as `exp(n ln x_j)`: its error grows with `|n ln x_j|`, which
    /// is small wherever the term matters, not with `n` as repeated products
    /// would. `0^0 = 1` for the term `j = D`.
    #[inline]
    fn power(n: u64, log: f64) -> f64 {
        if n == 0 { 1.0 } else { (n as f64 * log).exp() }
    }

    /// The leading terms that are not negligible at `n`: the powers
    /// decrease with `j`, so the rest are below [`NEGLIGIBLE`] each.
    fn live(&self, n: u64) -> &[(f64, f64)] {
        let k = self.terms.partition_point(|&(_, log)| self.max_c * Self::power(n, log) >= NEGLIGIBLE);
        &self.terms[..k]
    }

    /// `P(T > n) = −Σ_{j≥1} c_j x_j^n` in f64.
    fn survival(&self, n: u64) -> f64 {
        -self.live(n).iter().map(|&(c, log)| c * Self::power(n, log)).sum::<f64>()
    }

    /// A bound on the error of [`F64Terms::survival`] at `n`.
    fn error_bound(&self, n: u64) -> f64 {
        let live = self.live(n);
        let m = live.len() as f64;
        let dropped = (self.terms.len() - live.len()) as f64 * NEGLIGIBLE;
        let mut sum = 0.0;
        for &(c, log) in live {
            let a = n as f64 * log;
            // Relative error of one term: the logarithm, the product by n and
            // the exponential (3|a| + 3 roundings), then the sum of m terms.
            let a = if a.is_finite() { a.abs() } else { 0.0 };
            sum += c.abs() * Self::power(n, log) * (3.0 * a + 3.0 + m);
        }
        // Room for the roundoff of this estimate itself.
        1.01 * U * sum + dropped
    }
}

/// `P(T ≤ n)` for `n` from 0 to a point where the tail is negligible.
#[derive(Clone, Debug)]
pub struct Curve {
    survival: Vec<f64>,
    /// `P(T ≤ n)` where it was computed exactly (`n < exact_until`).
    lower: Vec<f64>,
    /// Values for `n` below this came from exact arithmetic.
    pub exact_until: u64,
    /// A bound on the absolute error of every value.
    pub max_error: f64,
}

impl Curve {
    /// The number of values: `n` runs from 0 to `len() − 1`.
    pub fn len(&self) -> u64 {
        self.survival.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.survival.is_empty()
    }

    /// `P(T > n)`; 0 past the end of the curve.
    pub fn survival(&self, n: u64) -> f64 {
        self.survival.get(n as usize).copied().unwrap_or(0.0)
    }

    /// `P(T ≤ n)`.
    pub fn cdf(&self, n: u64) -> f64 {
        match self.lower.get(n as usize) {
            Some(&p) => p,
            None => 1.0 - self.survival(n),
        }
    }

    /// `P(T = n)`.
    pub fn pmf(&self, n: u64) -> f64 {
        self.between(n, n)
    }

    /// `P(lo ≤ T ≤ hi)`: from the lower tail where it is exact, so that
    /// tiny probabilities keep their digits, from the upper tail after.
    pub fn between(&self, lo: u64, hi: u64) -> f64 {
        let p = if (hi as usize) < self.lower.len() {
            self.cdf(hi) - if lo == 0 { 0.0 } else { self.cdf(lo - 1) }
        } else {
            (if lo == 0 { 1.0 } else { self.survival(lo - 1) }) - self.survival(hi)
        };
        p.max(0.0)
    }
}

/// A rational in decimal with `digits` places, rounded half away from zero.
pub fn decimal(r: &BigRational, digits: usize) -> String {
    let scale = BigInt::from(10u32).pow(digits as u32);
    let scaled = (r.abs() * BigRational::from_integer(scale.clone()) + BigRational::new(1.into(), 2.into())).floor();
    let n = scaled.to_integer();
    let (int, frac) = n.div_rem(&scale);
    let sign = if r.is_negative() && !n.is_zero() { "-" } else { "" };
    if digits == 0 { format!("{sign}{int}") } else { format!("{sign}{int}.{:0>digits$}", frac.to_string()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(a: i64, b: i64) -> BigRational {
        BigRational::new(a.into(), b.into())
    }

    /// P(T ≤ n) by the Markov chain on the set of coupons seen: the slow,
    /// obviously-correct twin of inclusion–exclusion.
    fn cdf_by_chain(weights: &[u64], total: u64, n: u64) -> Vec<BigRational> {
        let m = weights.len();
        let full = (1usize << m) - 1;
        let mut dist = vec![BigRational::zero(); full + 1];
        dist[0] = BigRational::one();
        let mut out = vec![dist[full].clone()];
        for _ in 0..n {
            let mut next = vec![BigRational::zero(); full + 1];
            for (s, p) in dist.iter().enumerate() {
                if p.is_zero() {
                    continue;
                }
                let mut stay = total;
                for (i, &w) in weights.iter().enumerate() {
                    if s >> i & 1 == 0 {
                        next[s | 1 << i] += p * ratio(w as i64, total as i64);
                        stay -= w;
                    }
                }
                next[s] += p * ratio(stay as i64, total as i64);
            }
            dist = next;
            out.push(dist[full].clone());
        }
        out
    }

    /// E[T] by first-step analysis on the chain, backwards from the full set.
    fn mean_by_chain(weights: &[u64], total: u64) -> BigRational {
        let m = weights.len();
        let full = (1usize << m) - 1;
        let mut e = vec![BigRational::zero(); full + 1];
        for s in (0..full).rev() {
            let mut new = 0u64;
            let mut acc = BigRational::from_integer(BigInt::from(total));
            for (i, &w) in weights.iter().enumerate() {
                if s >> i & 1 == 0 {
                    new += w;
                    acc += &e[s | 1 << i] * BigRational::from_integer(BigInt::from(w));
                }
            }
            e[s] = acc / BigRational::from_integer(BigInt::from(new));
        }
        e[0].clone()
    }

    #[test]
    fn inclusion_exclusion_matches_the_chain() {
        let (w, d) = ([1u64, 2, 3, 3], 12u64);
        let c = Coupons::new(&w, d).unwrap();
        let chain = cdf_by_chain(&w, d, 60);
        for (n, p) in chain.iter().enumerate() {
            assert_eq!(&c.cdf_exact(n as u64), p, "n = {n}");
        }
        assert_eq!(c.mean(), mean_by_chain(&w, d));
    }

    #[test]
    fn one_coupon_is_geometric() {
        // T ~ Geometric(w/D): mean D/w, variance (1 − p)/p².
        let c = Coupons::new(&[3], 8).unwrap();
        assert_eq!(c.mean(), ratio(8, 3));
        assert_eq!(c.variance(), ratio(5, 8) / (ratio(3, 8) * ratio(3, 8)));
        assert_eq!(c.cdf_exact(2), BigRational::one() - ratio(25, 64));
        let curve = c.curve(1e-12, 1e-14);
        assert_eq!(c.quantile(&ratio(1, 2), &curve), 2);
    }

    #[test]
    fn weights_reduce_by_their_common_divisor() {
        let c = Coupons::new(&[6, 12, 18], 60).unwrap();
        assert_eq!(c.weights(), [1, 2, 3]);
        assert_eq!(c.total(), 10);
        assert!(Coupons::new(&[6, 0], 60).is_err());
        assert!(Coupons::new(&[40, 30], 60).is_err());
    }

    #[test]
    fn equal_coupons_give_the_classic_harmonic_mean() {
        // m equally likely coupons, no blanks: E[T] = m H_m.
        let c = Coupons::new(&[1; 10], 10).unwrap();
        let h: BigRational = (1..=10).map(|k| ratio(1, k)).fold(BigRational::zero(), |a, b| a + b);
        assert_eq!(c.mean(), h * ratio(10, 1));
    }

    #[test]
    fn the_curve_agrees_with_exact_values_and_its_own_moments() {
        let c = Coupons::new(&[1, 1, 2, 5, 7, 9, 9, 12], 80).unwrap();
        let curve = c.curve(1e-13, 1e-13);
        for n in [0, 7, 8, 20, 50, 100, 200, 400] {
            let exact = c.cdf_exact(n).to_f64().unwrap();
            assert!((curve.cdf(n) - exact).abs() <= curve.max_error.max(1e-15), "n = {n}");
        }
        let mean: f64 = (0..curve.len()).map(|n| curve.survival(n)).sum();
        assert!((mean - c.mean().to_f64().unwrap()).abs() < 1e-8);
        let total: f64 = (0..curve.len()).map(|n| curve.pmf(n)).sum();
        assert!((total - 1.0).abs() < 1e-9);
        for q in [ratio(1, 2), ratio(95, 100), ratio(99, 100)] {
            let n = c.quantile(&q, &curve);
            assert!(c.cdf_exact(n) >= q && c.cdf_exact(n - 1) < q);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]
        #[test]
        fn small_collectors_agree_with_their_chain(
            weights in proptest::collection::vec(1u64..6, 1..5),
            blanks in 0u64..6,
        ) {
            let total = weights.iter().sum::<u64>() + blanks;
            let c = Coupons::new(&weights, total).unwrap();
            for (n, p) in cdf_by_chain(&weights, total, 30).iter().enumerate() {
                proptest::prop_assert_eq!(&c.cdf_exact(n as u64), p);
            }
            proptest::prop_assert_eq!(c.mean(), mean_by_chain(&weights, total));
        }
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal(&ratio(2, 3), 4), "0.6667");
        assert_eq!(decimal(&ratio(-1, 8), 2), "-0.13");
        assert_eq!(decimal(&ratio(1656, 1), 0), "1656");
        assert_eq!(decimal(&ratio(1, 20), 3), "0.050");
    }
}
