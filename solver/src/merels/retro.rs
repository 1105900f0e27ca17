//! Solving sectors without chance.
//!
//! A group of sectors whose positions lead to one another (a movement sector
//! and its mirror) is solved by retrograde analysis: every position counts
//! its distinct successors inside the group, terminal positions and those
//! decided by successors outside the group are seeded, and values flow back
//! level by level (plies to the end), each level scanned in parallel. A loss
//! is known when its last successor turns out a win for the opponent;
//! positions never decided are draws. Sectors that nothing leads back into
//! (placement) are evaluated forward, each position from its successors.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering::Relaxed};

use engine::merels::{Blocked, Rules, State, Throw};
use rayon::prelude::*;
use smallvec::SmallVec;

use super::index::Indexer;
use super::known::Known;
use super::observer::Observer;
use super::table::{Meta, Table, Values};
use super::value::{DRAW, Packed, UNUSED, Value, pack};

/// Where a successor's value comes from.
enum Succ {
    Known(Value),
    Inside(usize, u64),
}

struct Group<'a> {
    rules: &'a Rules,
    known: &'a Known,
    ix: Vec<Indexer>,
}

impl Group<'_> {
    #[inline]
    fn locate(&self, child: &State) -> Succ {
        if self.rules.lost(child) {
            return Succ::Known(Value::Loss(0));
        }
        let s = super::sector::Sector::of(child);
        match self.ix.iter().position(|ix| ix.sector() == s) {
            Some(slot) => Succ::Inside(slot, self.ix[slot].index(child)),
            None => Succ::Known(self.known.dtm(child).expect("successor sectors are solved first")),
        }
    }

    /// The distinct positions of the group from which one move (or a pass)
    /// leads to `st`, which belongs to sector `slot`.
    fn predecessors(&self, st: &State) -> SmallVec<[(usize, u64); 64]> {
        let mut out: SmallVec<[(usize, u64); 64]> = SmallVec::new();
        self.rules.for_each_predecessor(st, |q| {
            if let Succ::Inside(s, i) = self.locate(&q) {
                out.push((s, i));
            }
        });
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The largest number of plies to a win among a position's successors
    /// outside the group, or `None` if one of them is a draw.
    fn outside_floor(&self, st: &State) -> Option<u16> {
        let mut floor = Some(0u16);
        self.rules.for_each_action(st, Throw::None, |_, child| {
            if let Succ::Known(v) = self.locate(&child) {
                floor = match (floor, v) {
                    (Some(f), Value::Win(p)) => Some(f.max(p)),
                    _ => None,
                };
            }
        });
        floor
    }
}

/// Solves a group of sectors that lead into one another.
pub(crate) fn retrograde(rules: &Rules, known: &Known, ix: Vec<Indexer>, obs: &dyn Observer) -> Vec<Table> {
    let g = Group { rules, known, ix };
    let values: Vec<Vec<AtomicU16>> =
        g.ix.iter().map(|ix| (0..ix.size()).map(|_| AtomicU16::new(DRAW)).collect()).collect();
    let counts: Vec<Vec<AtomicU8>> = g.ix.iter().map(|ix| (0..ix.size()).map(|_| AtomicU8::new(0)).collect()).collect();
    let top = AtomicU64::new(0);
    let total: u64 = g.ix.iter().map(|ix| ix.size()).sum();
    obs.begin("retrograde: seeding", total);
    for (slot, ix) in g.ix.iter().enumerate() {
        (0..ix.size()).into_par_iter().for_each(|i| {
            let v = seed(&g, ix, i, &counts[slot][i as usize]);
            if v != DRAW && v != UNUSED {
                top.fetch_max(v as u64, Relaxed);
            }
            values[slot][i as usize].store(v, Relaxed);
        });
        obs.advance(ix.size());
    }
    obs.finish();

    let mut level: u64 = 0;
    // Plies to the end, one level at a time: the deepest is found on the
    // way, so the stage counts levels without a total.
    obs.begin("retrograde: propagating, level", 0);
    while level <= top.load(Relaxed) {
        let target = (level + 1) as Packed;
        let lost_here = level.is_multiple_of(2);
        for (slot, ix) in g.ix.iter().enumerate() {
            (0..ix.size()).into_par_iter().for_each(|i| {
                if values[slot][i as usize].load(Relaxed) != target {
                    return;
                }
                let st = ix.state(i);
                for (ps, pi) in g.predecessors(&st) {
                    let cell = &values[ps][pi as usize];
                    if lost_here {
                        // A move into a loss wins; keep only the fastest win.
                        let win = target + 1;
                        let _ = cell.fetch_update(Relaxed, Relaxed, |cur| {
                            let slower_win = cur != UNUSED && cur > win && (cur - 1) % 2 == 1;
                            (cur == DRAW || slower_win).then_some(win)
                        });
                    } else if cell.load(Relaxed) == DRAW && counts[ps][pi as usize].fetch_sub(1, Relaxed) == 1 {
                        // Its last successor inside the group is a win for the
                        // opponent: a loss unless a draw waits outside.
                        let q = g.ix[ps].state(pi);
                        if let Some(floor) = g.outside_floor(&q) {
                            let plies = (level as u16).max(floor) + 1;
                            let v = pack(Value::Loss(plies));
                            top.fetch_max(v as u64, Relaxed);
                            cell.store(v, Relaxed);
                        }
                    }
                }
            });
        }
        obs.advance(1);
        level += 1;
    }
    obs.finish();
    g.ix.into_iter()
        .zip(values)
        .map(|(indexer, vals)| {
            Table::new(indexer, Values::Dtm(vals.into_iter().map(AtomicU16::into_inner).collect()), Meta::default())
        })
        .collect()
}

/// The starting value and inside-successor count of one index.
fn seed(g: &Group, ix: &Indexer, i: u64, count: &AtomicU8) -> Packed {
    if !ix.is_canonical(i) {
        return UNUSED;
    }
    let st = ix.state(i);
    if !g.rules.valid(&st) {
        return UNUSED;
    }
    if g.rules.lost(&st) {
        return pack(Value::Loss(0));
    }
    let mut inside: SmallVec<[(usize, u64); 64]> = SmallVec::new();
    let mut any = false;
    let mut fastest_win: Option<u16> = None;
    let mut outside_draw = false;
    let mut slowest_loss = 0u16;
    g.rules.for_each_action(&st, Throw::None, |_, child| {
        any = true;
        match g.locate(&child) {
            Succ::Inside(s, idx) => inside.push((s, idx)),
            Succ::Known(Value::Loss(p)) => fastest_win = Some(fastest_win.map_or(p + 1, |w| w.min(p + 1))),
            Succ::Known(Value::Draw) => outside_draw = true,
            Succ::Known(Value::Win(p)) => slowest_loss = slowest_loss.max(p + 1),
        }
    });
    if !any {
        return match g.rules.blocked {
            Blocked::Draw => DRAW,
            _ => pack(Value::Loss(0)),
        };
    }
    inside.sort_unstable();
    inside.dedup();
    count.store(inside.len() as u8, Relaxed);
    if let Some(w) = fastest_win {
        // Provisional: a faster win inside the group may still appear.
        return pack(Value::Win(w));
    }
    if inside.is_empty() && !outside_draw {
        return pack(Value::Loss(slowest_loss));
    }
    DRAW
}

/// Evaluates a sector whose successors are all known.
pub(crate) fn forward_dtm(rules: &Rules, known: &Known, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("forward", ix.size());
    let values: Vec<Packed> = (0..ix.size())
        .into_par_iter()
        .map(|i| {
            if !ix.is_canonical(i) {
                return UNUSED;
            }
            let st = ix.state(i);
            if !rules.valid(&st) {
                return UNUSED;
            }
            pack(known.evaluate_dtm(&st))
        })
        .collect();
    obs.advance(ix.size());
    obs.finish();
    Table::new(ix, Values::Dtm(values), Meta::default())
}
