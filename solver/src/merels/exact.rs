//! Exact values where chance sits only in placement (Murray's and Bell's
//! readings): placement is acyclic, so each position's value is computed
//! once from its successors, as a rational over a common power of 72.

use engine::merels::Rules;
use rayon::prelude::*;

use super::index::Indexer;
use super::solution::{Observer, Solution};
use super::table::{EXACT_UNUSED, Meta, Table, Values};

/// Evaluates a placement sector whose successors are all known.
pub(crate) fn forward_exact(rules: &Rules, known: &Solution, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("exact values", ix.size());
    let values: Vec<i128> = (0..ix.size())
        .into_par_iter()
        .map(|i| {
            if !ix.is_canonical(i) {
                return EXACT_UNUSED;
            }
            let st = ix.state(i);
            if !rules.valid(&st) {
                return EXACT_UNUSED;
            }
            known.evaluate_exact(&st)
        })
        .collect();
    obs.advance(ix.size());
    obs.finish();
    Table::new(ix, Values::Exact(values), Meta::default())
}
