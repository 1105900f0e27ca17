//! A group under Schädler's dice has its positions' in-group children and
//! parents in lists, or generates them from the rules each time it reads
//! them (`Moves::Generated`, no lists in memory), or lists the children
//! and generates the parents (`Moves::Half`). The lists are built from the
//! forward moves and reversed; the generated parents come from the moves
//! run backwards. The iteration reads the same children and parents in the
//! same order every way, so the solves must write the same values, progress
//! ranks and proven errors, to the bit, on every board and rule variant.

use engine::merels::{Blocked, BoardKind, Dice, Rules};
use solver::merels::strategy::Moves;
use solver::merels::{Silent, Solution, SolveOptions, Values};

/// Solves `rules` (up to `max_men`) with the children and parents stored,
/// generated, and the children alone stored, and compares every table of a
/// group under chance; returns how many positions were compared.
fn same_bits(rules: Rules, max_men: Option<u8>) -> usize {
    let solve = |moves| {
        let opts = SolveOptions { max_men, moves: Some(moves), ..SolveOptions::default() };
        Solution::solve_with(rules, &opts, &Silent).expect("solve")
    };
    let stored = solve(Moves::Stored);
    let others = [solve(Moves::Generated), solve(Moves::Half)];
    let label = rules.label();
    let mut compared = 0;
    let mut sectors = 0;
    for (s, a) in stored.tables() {
        for other in &others {
            let b = other.table(*s).unwrap_or_else(|| panic!("{label}: {} missing", s.key()));
            let (Values::Chance(va), Values::Chance(vb)) = (&a.values, &b.values) else { continue };
            let differ = va.iter().zip(vb).filter(|(x, y)| x != y).count();
            assert_eq!((va.len(), differ), (vb.len(), 0), "{label}, {}: values differ", s.key());
            assert_eq!(a.rank, b.rank, "{label}, {}: progress ranks differ", s.key());
            assert_eq!(a.meta.error.to_bits(), b.meta.error.to_bits(), "{label}, {}: proven errors differ", s.key());
            if !a.rank.is_empty() {
                sectors += 1;
                compared += va.len();
            }
        }
    }
    assert!(sectors > 0, "{label}: no movement group under chance compared");
    compared
}

#[test]
fn generated_children_give_the_stored_lists_bits_on_the_small_boards() {
    let mut compared = 0;
    for kind in [BoardKind::Rota, BoardKind::Three] {
        let rules = Rules::new(kind, Dice::Schaedler);
        compared += same_bits(rules, None);
        compared += same_bits(Rules { blocked: Blocked::Pass, ..rules }, None);
    }
    compared += same_bits(Rules::new(BoardKind::Three, Dice::Schaedler).with_diagonals(true).expect("three"), None);
    assert!(compared > 1000, "{compared}");
}

#[test]
fn generated_children_give_the_stored_lists_bits_on_six() {
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    let mut compared = 0;
    compared += same_bits(six, Some(8));
    for rules in [
        Rules { blocked: Blocked::Pass, ..six },
        Rules { flying: true, no_take_from_mills: true, double_mill_one: true, ..six },
        Rules { special_72: 20, ..six },
    ] {
        compared += same_bits(rules, Some(7));
    }
    assert!(compared > 100_000, "{compared}");
}

#[test]
fn generated_children_give_the_stored_lists_bits_on_nine() {
    let nine = Rules::new(BoardKind::Nine, Dice::Schaedler);
    let compared = same_bits(nine, Some(7)) + same_bits(Rules { flying: true, ..nine }, Some(6));
    assert!(compared > 100_000, "{compared}");
}

/// Where the parents are generated, a partial evaluation keeps those its
/// search found for its changed values in the memory the solve may use
/// beyond its estimate: none, a few thousand entries (cut short in the
/// first large level, one chunk's share at a time) or all it wants give the
/// stored lists' bits; the more room, the more nodes' parents kept.
#[test]
fn kept_parents_give_the_same_bits_whatever_room_they_have() {
    use solver::merels::strategy::{self, Room};
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
    let known = crate::six_known(rules);
    let group = ["4-0-5-0", "5-0-4-0"];
    let solve = |moves, spare| {
        let ix = crate::indexers(known, &group);
        let Ok(solved) =
            strategy::solve_resuming(&rules, &mut &**known, ix, 0.0, Room::new(moves, spare), &Silent, None);
        solved.expect("a solve without a checkpoint does not stop")
    };
    let (stored, none) = solve(Moves::Stored, u64::MAX);
    assert_eq!(none.kept, 0, "parents kept where they are stored");
    for moves in [Moves::Generated, Moves::Half] {
        let mut kept = Vec::new();
        for spare in [0, 16 * 3_000, u64::MAX] {
            let (tables, stats) = solve(moves, spare);
            kept.push(stats.kept);
            for (a, b) in stored.iter().zip(&tables) {
                let (Values::Chance(va), Values::Chance(vb)) = (&a.values, &b.values) else {
                    panic!("values under chance")
                };
                let what = format!("{moves:?}, {spare} bytes spare");
                assert!(va == vb, "{what}: values differ");
                assert!(a.rank == b.rank, "{what}: progress ranks differ");
                assert_eq!(a.meta.error.to_bits(), b.meta.error.to_bits(), "{what}: proven errors differ");
            }
        }
        assert!(kept[0] == 0 && kept.windows(2).all(|w| w[0] < w[1]), "{moves:?}: kept {kept:?}");
    }
}
