//! The solve report's accounting: every sector once, a group's solving time
//! once (shared evenly by the sectors solved together).

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
    assert_eq!(r.sectors.len(), sol.records.iter().map(|rec| rec.sectors.len()).sum::<usize>());
    // A sector solved with its mirror shares the group's time evenly.
    let mirrored = sol.records.iter().filter(|rec| rec.sectors.len() == 2).count();
    assert!(mirrored > 0);
    for rec in &sol.records {
        let rows: Vec<_> = r.sectors.iter().filter(|s| rec.sectors.iter().any(|&x| x.key() == s.key)).collect();
        assert_eq!(rows.len(), rec.sectors.len());
        assert!(rows.windows(2).all(|w| w[0].seconds == w[1].seconds));
    }
    // Every group was solved within this run: counting any group's time
    // more than once would exceed the run itself.
    let every_row: f64 = r.sectors.iter().map(|s| s.seconds).sum();
    assert!((r.solving_seconds - every_row).abs() <= 1e-9 * every_row);
    assert!(
        r.solving_seconds > 0.0 && r.solving_seconds <= wall,
        "solving {} s in a run of {wall} s",
        r.solving_seconds
    );
    assert_eq!(r.positions, r.sectors.iter().map(|s| s.positions).sum::<u64>());
    let rate = r.positions as f64 / r.solving_seconds;
    assert!((r.positions_per_second - rate).abs() <= 1e-9 * rate);
}
