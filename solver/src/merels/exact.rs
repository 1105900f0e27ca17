//! Placement sectors, evaluated forward from their successors: exact values
//! where chance sits only in placement (Murray's and Bell's readings:
//! placement is acyclic, so each position's value is computed once, as a
//! rational over a common power of 72), and Schädler's placement (no dice,
//! the successors' grid codes).

use engine::merels::{Blocked, Rules, Throw};

use super::index::Indexer;
use super::known::Known;
use super::observer::Observer;
use super::table::{Exact, Meta, Table, Values, fill_by_other_men};
use super::value::{CODE_UNUSED, neg_code, to_code};

/// Evaluates a placement sector whose successors are all known.
pub(crate) fn forward_exact(rules: &Rules, known: &Known, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("exact values", ix.size());
    let values = Exact::from_states(rules.men(), &ix, |states, out| {
        known.evaluate_exact_each(states, |st| rules.valid(st), out)
    });
    obs.advance(ix.size());
    obs.finish();
    Table::new(ix, Values::Exact(values), Meta::default())
}

/// Evaluates a placement sector under Schädler's reading (no dice, no
/// cycles) from its successors: the best successor's code, exactly.
pub(crate) fn forward_chance(rules: &Rules, known: &Known, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("values", ix.size());
    let codes = fill_by_other_men(&ix, CODE_UNUSED, |st| {
        if !rules.valid(st) {
            return None;
        }
        if rules.lost(st) {
            return Some(to_code(-1.0));
        }
        let mut best: Option<u32> = None;
        rules.for_each_action(st, Throw::None, |_, child| {
            let c = neg_code(known.code(&child).expect("successor solved"));
            best = Some(best.map_or(c, |b| b.max(c)));
        });
        Some(best.unwrap_or(to_code(if rules.blocked == Blocked::Draw { 0.0 } else { -1.0 })))
    });
    obs.advance(ix.size());
    obs.finish();
    let error = known.successor_error(&[ix.sector()]);
    Table::new(ix, Values::Chance(codes), Meta { error, ..Meta::default() })
}

#[cfg(test)]
mod tests {
    use engine::merels::{BoardKind, Dice};

    use super::*;
    use crate::merels::{Eval, Silent, Solution};

    /// Evaluated forward (positions grouped by the other side's men), every
    /// placement sector holds the values of the plain loop over its
    /// indices: exact values on six under Murray's reading, grid codes on
    /// three under Schädler's.
    #[test]
    fn forward_evaluation_equals_the_loop_over_the_indices() {
        for (kind, dice) in [(BoardKind::Six, Dice::Murray), (BoardKind::Three, Dice::Schaedler)] {
            let rules = Rules::new(kind, dice);
            let sol = Solution::solve(rules, &Silent);
            let mut placement = 0;
            for &s in sol.order().iter().flatten().filter(|s| !s.is_movement()) {
                let ix = Indexer::new(sol.board_tables.clone(), s);
                let t = match dice {
                    Dice::Murray => forward_exact(&rules, &sol, ix.clone(), &Silent),
                    _ => forward_chance(&rules, &sol, ix.clone(), &Silent),
                };
                for i in 0..ix.size() {
                    let st = ix.state(i);
                    let used = ix.is_canonical(i) && rules.valid(&st);
                    match (t.at(i), dice) {
                        (None, _) => assert!(!used, "{kind:?} {}: index {i} unused", s.key()),
                        (Some(Eval::Exact(n)), Dice::Murray) => {
                            assert!(used);
                            assert_eq!(n, sol.evaluate_exact(&st), "{kind:?} {}: index {i}", s.key());
                        }
                        (Some(Eval::Chance(iv)), Dice::Schaedler) => {
                            assert!(used);
                            let best = sol.evaluate_interval(&st);
                            assert!((iv.v - best.v).abs() < 1e-9, "{kind:?} {}: index {i}", s.key());
                        }
                        (other, _) => panic!("{other:?} in a sector of {dice}"),
                    }
                }
                placement += 1;
            }
            assert!(placement > 3, "{kind:?}: {placement} placement sectors");
        }
    }
}
