//! Placement sectors, evaluated forward from their successors: exact values
//! where chance sits only in placement (Murray's and Bell's readings:
//! placement is acyclic, so each position's value is computed once, as a
//! rational over a common power of 72), and Schädler's placement (no dice,
//! the successors' grid codes).

use engine::merels::{Blocked, Rules, Throw};
use rayon::prelude::*;

use super::index::Indexer;
use super::known::Known;
use super::observer::Observer;
use super::table::{Exact, Meta, Table, Values};
use super::value::{CODE_UNUSED, neg_code, to_code};

/// Evaluates a placement sector whose successors are all known.
pub(crate) fn forward_exact(rules: &Rules, known: &Known, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("exact values", ix.size());
    let values = Exact::from_fn(rules.men(), ix.sector(), ix.size() as usize, |i| {
        let i = i as u64;
        if !ix.is_canonical(i) {
            return None;
        }
        let st = ix.state(i);
        rules.valid(&st).then(|| known.evaluate_exact(&st))
    });
    obs.advance(ix.size());
    obs.finish();
    Table::new(ix, Values::Exact(values), Meta::default())
}

/// Evaluates a placement sector under Schädler's reading (no dice, no
/// cycles) from its successors: the best successor's code, exactly.
pub(crate) fn forward_chance(rules: &Rules, known: &Known, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("values", ix.size());
    let codes: Vec<u32> = (0..ix.size())
        .into_par_iter()
        .map(|i| {
            if !ix.is_canonical(i) {
                return CODE_UNUSED;
            }
            let st = ix.state(i);
            if !rules.valid(&st) {
                return CODE_UNUSED;
            }
            if rules.lost(&st) {
                return to_code(-1.0);
            }
            let mut best: Option<u32> = None;
            rules.for_each_action(&st, Throw::None, |_, child| {
                let c = neg_code(known.code(&child).expect("successor solved"));
                best = Some(best.map_or(c, |b| b.max(c)));
            });
            best.unwrap_or(to_code(if rules.blocked == Blocked::Draw { 0.0 } else { -1.0 }))
        })
        .collect();
    obs.advance(ix.size());
    obs.finish();
    let error = known.successor_error(&[ix.sector()]);
    Table::new(ix, Values::Chance(codes), Meta { error, ..Meta::default() })
}
