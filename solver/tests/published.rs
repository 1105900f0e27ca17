//! Figures other solvers of nine men's morris published or ship, reproduced.
//!
//! Under the standard modern rules (flying with three men, men in mills
//! safe unless all are, a double mill takes one), Malom (Gévay and Danner,
//! github.com/ggevay/malom) stores each sector's positions up to the 16
//! symmetries of the board with the side to move first; its database files
//! give, for the smallest movement sectors, the positions won, drawn and lost
//! by the side to move and the longest win and loss in plies. Gasser (1996)
//! found the longest 3 v 3 loss to be 26 plies and about 83% of 3 v 3 won by
//! the side to move.

use engine::merels::{BoardKind, Dice, Rules};
use solver::merels::{Sector, Silent, Solution, SolveOptions, Value, Values};

/// Positions, wins, draws, losses, longest win, longest loss (plies).
type Counts = (u64, u64, u64, u64, u16, u16);

fn counts(sol: &Solution, s: Sector) -> Counts {
    let t = sol.table(s).expect("solved");
    let c = t.census(sol.den);
    let Values::Dtm(v) = &t.values else { panic!("values without chance") };
    let longest_loss = (0..v.len() as u64)
        .filter_map(|i| match t.at(i) {
            Some(solver::merels::Eval::Dtm(Value::Loss(p))) => Some(p),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    (c.positions, c.wins, c.draws, c.losses, c.longest_win, longest_loss)
}

#[test]
fn the_smallest_movement_sectors_of_nine_equal_malom() {
    let base = Rules::new(BoardKind::Nine, Dice::None);
    let modern = Rules { flying: true, no_take_from_mills: true, double_mill_one: true, ..base };
    let sol = Solution::solve_with(modern, &SolveOptions { max_men: Some(7), ..SolveOptions::default() }, &Silent)
        .expect("an in-memory solve");
    let sector = |w, b| Sector { w, wf: 0, b, bf: 0 };
    let (n, wins, draws, losses, longest_win, longest_loss) = counts(&sol, sector(3, 3));
    assert_eq!((n, wins, draws, losses), (169_626, 140_621, 269, 28_736));
    assert_eq!((longest_win, longest_loss), (25, 26));
    assert!((wins as f64 / n as f64 - 0.83).abs() < 0.005, "Gasser: about 83% won by the side to move");
    let (n, wins, draws, losses, longest_win, _) = counts(&sol, sector(3, 4));
    assert_eq!((n, wins, draws, losses, longest_win), (760_398, 102_281, 658_117, 0, 33));
    let (n, wins, draws, losses, longest_win, longest_loss) = counts(&sol, sector(4, 3));
    assert_eq!((n, wins, draws, losses, longest_win, longest_loss), (760_398, 75_397, 681_906, 3_095, 1, 32));
}
