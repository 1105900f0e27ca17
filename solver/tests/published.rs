//! Figures other solvers of nine men's morris published or ship, reproduced.
//!
//! Under the standard modern rules (flying with three men, men in mills
//! safe unless all are, a double mill takes one), Malom (Gévay and Danner,
//! github.com/ggevay/malom) stores each sector's positions up to the 16
//! symmetries of the board with the side to move first; its database files
//! give, for the smallest movement sectors, the positions won, drawn and lost
//! by the side to move and the longest win and loss in plies. Gasser (1996)
//! found the longest 3 v 3 loss to be 26 plies and about 83% of 3 v 3 won by
//! the side to move. His earlier report (Gasser 1991, "Applying Retrograde
//! Analysis to Nine Men's Morris") tabulates the wins, draws, losses and the
//! longest win and loss of each side to move in the endgames up to 9 men (and
//! of 5 v 5 and 6 v 4), counting the positions up to the same 16 symmetries
//! except in 3 v 3, where he used 48.

use engine::merels::{BoardKind, Dice, Rules};
use solver::merels::{Sector, Silent, Solution, SolveOptions, Value, Values};

/// Positions, wins, draws, losses, longest win, longest loss (plies).
type Counts = (u64, u64, u64, u64, u16, u16);

/// A row of Gasser's 1991 tables: (side to move's men, other side's men),
/// wins, draws, losses, longest win, longest loss (0 where there are none).
type Row = ((u8, u8), u64, u64, u64, u16, u16);

fn counts(sol: &Solution, s: Sector) -> Counts {
    let t = sol.table(s).expect("solved");
    let c = t.census(sol.den);
    let Values::Dtm(v) = &t.values else { panic!("values without chance") };
    // The longest loss from the values themselves, as the census should.
    let longest_loss = (0..v.len() as u64)
        .filter_map(|i| match t.at(i) {
            Some(solver::merels::Eval::Dtm(Value::Loss(p))) => Some(p),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    assert_eq!(c.longest_loss, longest_loss, "{s}");
    (c.positions, c.wins, c.draws, c.losses, c.longest_win, longest_loss)
}

fn modern_up_to_nine_men() -> Solution {
    let base = Rules::new(BoardKind::Nine, Dice::None);
    let modern = Rules { flying: true, no_take_from_mills: true, double_mill_one: true, ..base };
    Solution::solve_with(modern, &SolveOptions { max_men: Some(9), ..SolveOptions::default() }, &Silent)
        .expect("an in-memory solve")
}

#[test]
fn the_endgames_of_nine_equal_malom_and_gasser() {
    let sol = modern_up_to_nine_men();
    let sector = |w, b| Sector { w, wf: 0, b, bf: 0 };
    let (n, wins, draws, losses, longest_win, longest_loss) = counts(&sol, sector(3, 3));
    assert_eq!((n, wins, draws, losses), (169_626, 140_621, 269, 28_736));
    assert_eq!((longest_win, longest_loss), (25, 26));
    assert!((wins as f64 / n as f64 - 0.83).abs() < 0.005, "Gasser: about 83% won by the side to move");
    let (n, wins, draws, losses, longest_win, _) = counts(&sol, sector(3, 4));
    assert_eq!((n, wins, draws, losses, longest_win), (760_398, 102_281, 658_117, 0, 33));
    let (n, wins, draws, losses, longest_win, longest_loss) = counts(&sol, sector(4, 3));
    assert_eq!((n, wins, draws, losses, longest_win, longest_loss), (760_398, 75_397, 681_906, 3_095, 1, 32));
    // Gasser 1991, every endgame up to 9 men.
    let gasser: [Row; 9] = [
        ((3, 4), 102_281, 658_117, 0, 33, 0),
        ((4, 3), 75_397, 681_906, 3_095, 1, 32),
        ((4, 4), 159, 3_225_409, 29, 9, 8),
        ((5, 3), 580_660, 1_999_730, 0, 3, 0),
        ((3, 5), 6_301, 2_564_412, 9_677, 31, 2),
        ((5, 4), 9_889, 10_300_599, 8, 29, 4),
        ((4, 5), 51, 10_308_935, 1_510, 5, 28),
        ((6, 3), 2_752_371, 4_122_949, 0, 7, 0),
        ((3, 6), 0, 6_683_320, 192_000, 0, 6),
    ];
    for ((w, b), wins, draws, losses, longest_win, longest_loss) in gasser {
        let c = counts(&sol, sector(w, b));
        assert_eq!(c, (wins + draws + losses, wins, draws, losses, longest_win, longest_loss), "{w} v {b}");
    }
}
