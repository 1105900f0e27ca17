//! Small statistics for the simulations: histograms of game lengths,
//! confidence intervals, and goodness-of-fit tests against an exact law.

use serde::Serialize;

use super::coupons::Curve;

pub use engine::stats::{MIN_SAMPLE, Z95, wilson};

/// How many games lasted each number of rolls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    #[inline]
    pub fn add(&mut self, length: u32) {
        let i = length as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }

    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// Games of exactly this length.
    pub fn count(&self, length: u64) -> u64 {
        self.counts.get(length as usize).copied().unwrap_or(0)
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// One past the longest game.
    pub fn len(&self) -> u64 {
        self.counts.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    pub fn min(&self) -> u64 {
        self.counts.iter().position(|&c| c > 0).unwrap_or(0) as u64
    }

    pub fn max(&self) -> u64 {
        self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u64
    }

    pub fn mean(&self) -> f64 {
        let s: u128 = self.counts.iter().enumerate().map(|(n, &c)| n as u128 * u128::from(c)).sum();
        s as f64 / self.total() as f64
    }

    /// The sample standard deviation (n − 1 in the denominator).
    pub fn sd(&self) -> f64 {
        let g = self.total() as f64;
        let m = self.mean();
        let ss: f64 = self.counts.iter().enumerate().map(|(n, &c)| c as f64 * (n as f64 - m).powi(2)).sum();
        (ss / (g - 1.0)).sqrt()
    }

    /// The least length `n` with at least a fraction `q` of games no longer.
    pub fn quantile(&self, q: f64) -> u64 {
        let need = q * self.total() as f64;
        let mut acc = 0u64;
        for (n, &c) in self.counts.iter().enumerate() {
            acc += c;
            if acc as f64 >= need {
                return n as u64;
            }
        }
        self.max()
    }
}

/// A mean with its 95% normal interval, from the sum and sum of squares of
/// `n` values.
pub fn mean_interval(sum: f64, sum_sq: f64, n: u64) -> (f64, f64, f64) {
    let n = n as f64;
    let m = sum / n;
    let var = ((sum_sq - n * m * m) / (n - 1.0)).max(0.0);
    let half = Z95 * (var / n).sqrt();
    (m, m - half, m + half)
}

/// The Kolmogorov distribution's tail `P(K > λ)`.
pub fn kolmogorov_tail(lambda: f64) -> f64 {
    if lambda < 0.2 {
        return 1.0;
    }
    let mut s = 0.0;
    for k in 1..=100 {
        let k = f64::from(k);
        let t = (-2.0 * k * k * lambda * lambda).exp();
        s += if k as u32 % 2 == 1 { t } else { -t };
        if t < 1e-17 {
            break;
        }
    }
    (2.0 * s).clamp(0.0, 1.0)
}

/// A goodness-of-fit test's result.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Fit {
    /// Kolmogorov–Smirnov: the largest gap between the empirical and exact
    /// distribution functions.
    pub ks_distance: f64,
    /// Its p-value from Kolmogorov's law (conservative for a discrete law).
    pub ks_p_value: f64,
    /// Pearson's chi-square over bins of at least 20 expected games, and
    /// its p-value; none when the games fill fewer than two bins (no
    /// degree of freedom: nothing to test).
    pub chi_square: Option<f64>,
    pub chi_square_dof: u64,
    pub chi_square_p_value: Option<f64>,
}

/// Tests simulated lengths against an exact law.
pub fn fit(hist: &Histogram, curve: &Curve) -> Fit {
    let g = hist.total() as f64;
    let end = hist.len().max(curve.len());
    let (mut acc, mut d) = (0u64, 0.0f64);
    for n in 0..end {
        acc += hist.count(n);
        d = d.max((acc as f64 / g - curve.cdf(n)).abs());
    }
    let ks_p_value = kolmogorov_tail(d * g.sqrt());
    // Bins grow until they expect 20 games; the last bin takes the tail.
    let (mut chi, mut bins) = (0.0, 0u64);
    let (mut lo, mut observed) = (0u64, 0u64);
    for n in 0..end {
        observed += hist.count(n);
        let expected = g * curve.between(lo, n);
        let rest = g * curve.survival(n);
        if expected >= 20.0 && rest >= 20.0 {
            chi += (observed as f64 - expected).powi(2) / expected;
            bins += 1;
            lo = n + 1;
            observed = 0;
        }
    }
    let observed: u64 = (lo..end.max(hist.len())).map(|n| hist.count(n)).sum();
    let expected = g * if lo == 0 { 1.0 } else { curve.survival(lo - 1) };
    if expected > 0.0 {
        chi += (observed as f64 - expected).powi(2) / expected;
        bins += 1;
    }
    let dof = bins.saturating_sub(1);
    Fit {
        ks_distance: d,
        ks_p_value,
        chi_square: (dof > 0).then_some(chi),
        chi_square_dof: dof,
        chi_square_p_value: (dof > 0).then(|| gamma_q(dof as f64 / 2.0, chi / 2.0)),
    }
}

/// The regularised upper incomplete gamma function `Q(a, x)`: the
/// chi-square tail is `Q(dof/2, χ²/2)`. Series below `a + 1`, Lentz's
/// continued fraction above.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if a <= 0.0 {
        return 0.0;
    }
    if x <= 0.0 {
        return 1.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * front).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (front * h).clamp(0.0, 1.0)
    }
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms).
pub fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let mut a = G[0];
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_moments_and_quantiles() {
        let mut h = Histogram::default();
        for n in [3, 5, 5, 7, 10] {
            h.add(n);
        }
        assert_eq!((h.total(), h.min(), h.max()), (5, 3, 10));
        assert!((h.mean() - 6.0).abs() < 1e-12);
        assert!((h.sd() - (28.0f64 / 4.0).sqrt()).abs() < 1e-12);
        assert_eq!(h.quantile(0.5), 5);
        assert_eq!(h.quantile(0.95), 10);
        let mut g = Histogram::default();
        g.add(12);
        g.merge(&h);
        assert_eq!((g.total(), g.max()), (6, 12));
    }

    #[test]
    fn intervals() {
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
        let (m, lo, hi) = mean_interval(10.0, 30.0, 4);
        assert!((m - 2.5).abs() < 1e-12 && lo < m && hi > m);
    }

    #[test]
    fn special_functions() {
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
        // Chi-square tails: dof 1 at 3.841, 10 at 18.307 and 50 at 67.505 are 5%.
        let q = gamma_q(0.5, 3.841459 / 2.0);
        assert!((q - 0.05).abs() < 1e-5, "{q}");
        assert!((gamma_q(5.0, 18.307038 / 2.0) - 0.05).abs() < 1e-5);
        assert!((gamma_q(25.0, 67.504807 / 2.0) - 0.05).abs() < 1e-5);
        // Kolmogorov: P(K > 1.358) ≈ 0.05.
        assert!((kolmogorov_tail(1.358099) - 0.05).abs() < 1e-4);
    }
}
