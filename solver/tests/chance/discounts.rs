//! The discounted searches close the gap between the sides where a smaller
//! discount is what it takes: below some discount the optimal strategies of
//! the discounted game are those of the game itself (Blackwell), and above
//! it a smaller discount may leave the same gap; the search under a discount
//! finer than the tolerance of a move switches on a tenth of the discount.

use super::{indexers, sector};
use engine::merels::{BoardKind, Dice, Rules};
use solver::merels::strategy::{self, Moves, Room, Stats};
use solver::merels::{Silent, Solution, SolveOptions};

/// Six men's morris under Schädler's dice with the special throw once in
/// 72, its 4 v 6 group solved under `discounts` on top of every sector of
/// at most 9 men: the effort of its solve.
fn solve_4v6(rules: Rules, known: &Solution, discounts: &'static [f64]) -> Stats {
    solve_4v6_in(rules, known, Room { discounts, ..Room::new(Moves::Stored, 0) })
}

/// [`solve_4v6`] in `room`.
fn solve_4v6_in(rules: Rules, known: &Solution, room: Room) -> Stats {
    let group = ["4-0-6-0", "6-0-4-0"];
    let Ok(solved) = strategy::solve_resuming(&rules, &mut &**known, indexers(known, &group), 0.0, room, &Silent, None);
    solved.expect("no checkpoint, no stop").1
}

/// Mill level 1 of that group leaves a gap of about 1.5e-5 under 10⁻⁴
/// that the next discounts close only in steps (10⁻⁵ and 10⁻⁶ leave
/// 5.3e-6); 10⁻¹² closes it at once, and only because its search switches
/// on less than the tolerance of the game itself.
#[test]
fn a_discount_below_the_tolerance_closes_a_gap_the_larger_ones_leave() {
    let rules = Rules { special_72: 1, ..Rules::new(BoardKind::Six, Dice::Schaedler) };
    let opts = SolveOptions { max_men: Some(9), ..SolveOptions::default() };
    let known = Solution::solve_with(rules, &opts, &Silent).expect("solve");
    assert!(known.summary(sector("4-0-6-0")).is_none() && known.summary(sector("3-0-6-0")).is_some());
    let steps = solve_4v6(rules, &known, &[1e-4, 1e-5, 1e-6]);
    assert_eq!(steps.discounts, 3);
    assert!(steps.gap > 1e-6, "10⁻⁵ and 10⁻⁶ leave a gap: {:e}", steps.gap);
    let fine = solve_4v6(rules, &known, &[1e-4, 1e-12]);
    assert_eq!(fine.discounts, 2);
    assert!(fine.gap < 1e-8, "10⁻¹² closes the gap: {:e}", fine.gap);
    // A later search ends after the rounds it is given (here its first
    // round already closes the gap; the rest refine within it).
    let room = Room { discounts: &[1e-4, 1e-12], later_rounds: 1, ..Room::new(Moves::Stored, 0) };
    let cut = solve_4v6_in(rules, &known, room);
    assert_eq!(cut.discounts, 2);
    assert!(cut.rounds < fine.rounds, "{} rounds against {}", cut.rounds, fine.rounds);
}
