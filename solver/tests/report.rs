//! The solve report's accounting: every sector once, time once per group.

use std::time::Instant;

use engine::merels::{BoardKind, Dice, Rules};
use solver::merels::report::report;
use solver::merels::{Silent, Solution};

#[test]
fn solving_time_is_counted_once_per_group() {
    let clock = Instant::now();
    let sol = Solution::solve(Rules::new(BoardKind::Six, Dice::None), &Silent);
    let wall = clock.elapsed().as_secs_f64();
    let r = report(&sol, wall);
    assert!(r.complete);
    // Mirrored sectors solved together report their group's time and rate.
    let mirrored = sol.records.iter().filter(|rec| rec.sectors.len() == 2).count();
    assert!(mirrored > 0);
    let mut once = 0.0;
    for rec in &sol.records {
        let rows: Vec<_> = r.sectors.iter().filter(|s| rec.sectors.iter().any(|&x| x.key() == s.key)).collect();
        assert_eq!(rows.len(), rec.sectors.len());
        assert!(
            rows.windows(2)
                .all(|w| w[0].seconds == w[1].seconds && w[0].positions_per_second == w[1].positions_per_second)
        );
        once += rows[0].seconds;
    }
    let every_row: f64 = r.sectors.iter().map(|s| s.seconds).sum();
    assert!(every_row > once, "mirrored groups took time");
    assert!((r.solving_seconds - once).abs() <= 1e-9 * once, "{} s against {once} s", r.solving_seconds);
    // Solving happened within this run, so it cannot have taken longer.
    assert!(r.solving_seconds <= wall, "solving {} s within a run of {wall} s", r.solving_seconds);
    assert!(r.solving_seconds > 0.0);
    assert_eq!(r.positions, r.sectors.iter().map(|s| s.positions).sum::<u64>());
    let rate = r.positions as f64 / r.solving_seconds;
    assert!((r.positions_per_second - rate).abs() <= 1e-9 * rate);
}
