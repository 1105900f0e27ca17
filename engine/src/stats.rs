//! The statistics every report shares: Wilson's interval for a proportion
//! and the smallest samples on which an interval or a test means anything.

/// The normal quantile for two-sided 95% intervals.
pub const Z95: f64 = 1.959963984540054;

/// Fewest games from which a report draws a verdict (an advantage, a fit
/// to a law): below it, the normal approximations behind the intervals
/// and tests do not hold, and reports say so instead.
pub const MIN_SAMPLE: u64 = 30;

/// Whether `games` scoring `score` (wins 1, draws ½) give a score interval
/// worth printing: from [`MIN_SAMPLE`] games on, or a sweep (all won or all
/// lost: the rule of three) with fewer.
pub fn interval_shown(games: u64, score: f64) -> bool {
    games >= MIN_SAMPLE || (games > 0 && (score == 0.0 || score == 1.0))
}

/// Wilson's 95% interval for a proportion `k / n` (the whole `[0, 1]` when
/// nothing was observed).
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interval by its definition: the proportions `p` whose normal
    /// test at 5% does not reject `k / n`, found by bisection.
    fn wilson_by_definition(k: u64, n: u64) -> (f64, f64) {
        let phat = k as f64 / n as f64;
        let inside = |p: f64| (phat - p).abs() <= Z95 * (p * (1.0 - p) / n as f64).sqrt();
        let edge = |mut a: f64, mut b: f64| {
            // `a` inside, `b` outside.
            for _ in 0..200 {
                let m = 0.5 * (a + b);
                if inside(m) { a = m } else { b = m }
            }
            a
        };
        let lo = if inside(0.0) { 0.0 } else { edge(phat, 0.0) };
        let hi = if inside(1.0) { 1.0 } else { edge(phat, 1.0) };
        (lo, hi)
    }

    #[test]
    fn wilson_matches_its_definition() {
        for n in [1u64, 2, 5, 10, 37, 100, 1000] {
            for k in 0..=n.min(40) {
                let (lo, hi) = wilson(k, n);
                let (dlo, dhi) = wilson_by_definition(k, n);
                assert!((lo - dlo).abs() < 1e-9 && (hi - dhi).abs() < 1e-9, "{k}/{n}: {lo} {hi} vs {dlo} {dhi}");
            }
        }
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }
}
