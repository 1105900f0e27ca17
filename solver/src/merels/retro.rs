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

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use engine::merels::{Blocked, Rules, State, Throw};
use rayon::prelude::*;
use smallvec::SmallVec;

use super::checkpoint::Checkpoint;
use super::index::{Cursor, Indexer, VISIT_BATCH};
use super::known::Known;
use super::observer::Observer;
use super::table::{Eval, Meta, Table, Values, fill_by_other_men_each, huge_vec, prefetch};
use super::value::{DRAW, Packed, UNUSED, Value, pack};

/// Where a successor's value comes from.
enum Succ<'t> {
    /// The successor has lost: no table.
    Lost,
    /// A sector of the group (its slot) and an index.
    Inside(usize, u64),
    /// A solved table and an index, whose memory has been asked for.
    Outside(&'t Table, u64),
}

/// The value at a place located outside the group.
#[inline]
fn outside(t: &Table, i: u64) -> Value {
    match t.at(i) {
        Some(Eval::Dtm(v)) => v,
        _ => panic!("successor sectors are solved first, without chance"),
    }
}

struct Group<'a> {
    rules: &'a Rules,
    known: &'a Known,
    ix: Vec<Indexer>,
}

impl Group<'_> {
    #[inline]
    fn locate(&self, child: &State) -> Succ<'_> {
        if self.rules.lost(child) {
            return Succ::Lost;
        }
        let s = super::sector::Sector::of(child);
        match self.ix.iter().position(|ix| ix.sector() == s) {
            Some(slot) => Succ::Inside(slot, self.ix[slot].index(child)),
            None => {
                let t = self.known.tables.get(&s).expect("successor sectors are solved first");
                let i = t.indexer.index(child);
                t.prefetch(i);
                Succ::Outside(t, i)
            }
        }
    }

    /// The positions of the group from which one move (or a pass) leads to
    /// `st`; each once when `distinct`, otherwise possibly repeated.
    fn predecessors(&self, st: &State, distinct: bool) -> SmallVec<[(usize, u64); 64]> {
        let mut out: SmallVec<[(usize, u64); 64]> = SmallVec::new();
        self.rules.for_each_predecessor(st, |q| {
            if let Succ::Inside(s, i) = self.locate(&q) {
                out.push((s, i));
            }
        });
        if distinct {
            out.sort_unstable();
            out.dedup();
        }
        out
    }

    /// The largest number of plies to a win among a position's successors
    /// outside the group, or `None` if one of them is a draw.
    fn outside_floor(&self, st: &State) -> Option<u16> {
        let mut at: SmallVec<[(&Table, u64); 64]> = SmallVec::new();
        let mut lost_child = false;
        self.rules.for_each_action(st, Throw::None, |_, child| match self.locate(&child) {
            Succ::Lost => lost_child = true,
            Succ::Inside(..) => {}
            Succ::Outside(t, i) => at.push((t, i)),
        });
        if lost_child {
            // A move into a lost position is a win, not a loss: never met
            // here (the position would have been seeded a win).
            return None;
        }
        let mut floor = 0u16;
        for (t, i) in at {
            match outside(t, i) {
                Value::Win(p) => floor = floor.max(p),
                _ => return None,
            }
        }
        Some(floor)
    }
}

/// While a group is solved, a cell holds the packed value of a decided
/// position, or `OPEN + n` for a position not decided yet, `n` counting its
/// distinct successors inside the group not yet known to be wins for the
/// opponent (one cell, so that a predecessor costs one memory access).
const OPEN: Packed = 0xFE00;

/// Indices handed to one task while scanning a level.
const CHUNK: usize = 1 << 14;

/// Solves a group of sectors that lead into one another. With a
/// checkpoint, the cells are saved at level boundaries every so often and a
/// saved state is resumed; `None` when the checkpoint asked to stop.
pub(crate) fn retrograde(
    rules: &Rules,
    known: &Known,
    ix: Vec<Indexer>,
    obs: &dyn Observer,
    checkpoint: Option<&Checkpoint>,
) -> Option<Vec<Table>> {
    let g = Group { rules, known, ix };
    let saved = checkpoint.and_then(|c| match c.load(&g.ix) {
        Ok(saved) => saved,
        Err(problem) => {
            obs.note(&format!("{}: {problem}; solving the group from the start", c.path.display()));
            c.remove();
            None
        }
    });
    let mut since = Instant::now();
    let (cells, top, mut level) = match saved {
        Some(s) => {
            obs.note(&format!(
                "resuming the group at level {} from {}",
                s.level,
                checkpoint.expect("read").path.display()
            ));
            (s.cells, AtomicU64::new(s.top), s.level)
        }
        None => {
            let (cells, top) = seed_all(&g, obs);
            (cells, top, 0)
        }
    };
    // Plies to the end, one level at a time: the deepest is found on the
    // way, so the stage counts levels without a total.
    obs.begin("retrograde: propagating, level", 0);
    // A resumed solve counts from the level it resumed at.
    obs.advance(level);
    while level <= top.load(Relaxed) {
        if let Some(c) = checkpoint {
            let stop = c.stop_at == Some(level) || c.interrupted();
            if stop || since.elapsed() >= c.every {
                if let Err(e) = c.save(&g.ix, level, top.load(Relaxed), &cells) {
                    obs.note(&format!("cannot save the progress: {e}"));
                }
                if stop {
                    obs.finish();
                    return None;
                }
                since = Instant::now();
            }
        }
        for (slot, ix) in g.ix.iter().enumerate() {
            cells[slot].par_chunks(CHUNK).enumerate().for_each(|(c, chunk)| {
                let first = (c * CHUNK) as u64;
                let target = (level + 1) as Packed;
                let mut cursor = Cursor::default();
                for (j, cell) in chunk.iter().enumerate() {
                    if cell.load(Relaxed) == target {
                        let st = ix.state_at_cursor(&mut cursor, first + j as u64);
                        propagate(&g, &cells, &top, level, &st);
                    }
                }
            });
        }
        obs.advance(1);
        level += 1;
    }
    obs.finish();
    let tables =
        g.ix.into_iter()
            .zip(cells)
            .map(|(indexer, cells)| {
                let values = cells
                    .into_iter()
                    .map(|c| match c.into_inner() {
                        v if (OPEN..UNUSED).contains(&v) => DRAW,
                        v => v,
                    })
                    .collect();
                Table::new(indexer, Values::Dtm(values), Meta::default())
            })
            .collect();
    Some(tables)
}

/// Every index's starting cell, and the deepest value among them.
fn seed_all(g: &Group, obs: &dyn Observer) -> (Vec<Vec<AtomicU16>>, AtomicU64) {
    let cells: Vec<Vec<AtomicU16>> =
        g.ix.iter().map(|ix| huge_vec((0..ix.size() as usize).map(|_| AtomicU16::new(DRAW)))).collect();
    let top = AtomicU64::new(0);
    let total: u64 = g.ix.iter().map(|ix| ix.size()).sum();
    obs.begin("retrograde: seeding", total);
    for (slot, ix) in g.ix.iter().enumerate() {
        cells[slot].par_chunks(CHUNK).enumerate().for_each(|(c, chunk)| {
            let first = (c * CHUNK) as u64;
            let mut cursor = Cursor::default();
            for (j, cell) in chunk.iter().enumerate() {
                let v = seed(g, ix, &mut cursor, first + j as u64);
                if v != DRAW && v < OPEN {
                    top.fetch_max(v as u64, Relaxed);
                }
                cell.store(v, Relaxed);
            }
        });
        obs.advance(ix.size());
    }
    obs.finish();
    (cells, top)
}

/// Passes the value of `st`, decided after `level` plies, to its
/// predecessors in the group.
#[inline]
fn propagate(g: &Group, cells: &[Vec<AtomicU16>], top: &AtomicU64, level: u64, st: &State) {
    let lost = level.is_multiple_of(2);
    // Setting a win twice does no harm; a count must drop once per
    // predecessor.
    let preds = g.predecessors(st, !lost);
    for &(ps, pi) in &preds {
        prefetch(&cells[ps][pi as usize]);
    }
    if lost {
        // `st` is lost: a move into it wins; keep only the fastest win.
        let win = (level + 2) as Packed;
        for (ps, pi) in preds {
            let _ = cells[ps][pi as usize].fetch_update(Relaxed, Relaxed, |cur| {
                let open = (OPEN..UNUSED).contains(&cur);
                let slower_win = cur < OPEN && cur > win && (cur - 1) % 2 == 1;
                (open || cur == DRAW || slower_win).then_some(win)
            });
        }
        return;
    }
    // `st` is won: one successor fewer that may not lose for each predecessor.
    for (ps, pi) in preds {
        let cell = &cells[ps][pi as usize];
        let last = cell.fetch_update(Relaxed, Relaxed, |cur| (cur > OPEN && cur != UNUSED).then(|| cur - 1));
        if last == Ok(OPEN + 1) {
            // Its last successor inside the group is a win for the opponent:
            // a loss unless a draw waits outside.
            let q = g.ix[ps].state(pi);
            let v = match g.outside_floor(&q) {
                Some(floor) => {
                    let plies = (level as u16).max(floor) + 1;
                    let v = pack(Value::Loss(plies));
                    assert!(v < OPEN, "a loss after {plies} plies is longer than the solver keeps");
                    top.fetch_max(v as u64, Relaxed);
                    v
                }
                None => DRAW,
            };
            cell.store(v, Relaxed);
        }
    }
}

/// The starting cell of one index (its state read through `cursor`): a
/// value, or `OPEN` plus the count of its successors inside the group.
fn seed(g: &Group, ix: &Indexer, cursor: &mut Cursor, i: u64) -> Packed {
    let Some(st) = ix.canonical_state_at_cursor(cursor, i) else {
        return UNUSED;
    };
    if !g.rules.valid(&st) {
        return UNUSED;
    }
    if g.rules.lost(&st) {
        return pack(Value::Loss(0));
    }
    let mut inside: SmallVec<[(usize, u64); 64]> = SmallVec::new();
    let mut at: SmallVec<[(&Table, u64); 64]> = SmallVec::new();
    let mut any = false;
    let mut fastest_win: Option<u16> = None;
    g.rules.for_each_action(&st, Throw::None, |_, child| {
        any = true;
        match g.locate(&child) {
            Succ::Inside(s, idx) => inside.push((s, idx)),
            Succ::Lost => fastest_win = Some(1),
            Succ::Outside(t, i) => at.push((t, i)),
        }
    });
    let mut outside_draw = false;
    let mut slowest_loss = 0u16;
    for (t, i) in at {
        match outside(t, i) {
            Value::Loss(p) => fastest_win = Some(fastest_win.map_or(p + 1, |w| w.min(p + 1))),
            Value::Draw => outside_draw = true,
            Value::Win(p) => slowest_loss = slowest_loss.max(p + 1),
        }
    }
    if !any {
        return match g.rules.blocked {
            Blocked::Draw => DRAW,
            _ => pack(Value::Loss(0)),
        };
    }
    if let Some(w) = fastest_win {
        // Provisional: a faster win inside the group may still appear.
        return pack(Value::Win(w));
    }
    if inside.is_empty() {
        return if outside_draw { DRAW } else { pack(Value::Loss(slowest_loss)) };
    }
    inside.sort_unstable();
    inside.dedup();
    assert!(inside.len() < (UNUSED - OPEN) as usize, "more successors than a cell counts");
    OPEN + inside.len() as Packed
}

/// Evaluates a sector whose successors are all known.
pub(crate) fn forward_dtm(rules: &Rules, known: &Known, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("forward", ix.size());
    let values = fill_by_other_men_each(&ix, UNUSED, |states, out| {
        let mut values = [None; VISIT_BATCH];
        let values = &mut values[..states.len()];
        known.evaluate_dtm_each(states, |st| rules.valid(st), values);
        for (o, v) in out.iter_mut().zip(values.iter()) {
            *o = v.map(pack);
        }
    });
    obs.advance(ix.size());
    obs.finish();
    Table::new(ix, Values::Dtm(values), Meta::default())
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use engine::merels::{BoardKind, Dice};

    use super::*;
    use crate::merels::db::rules_bytes;
    use crate::merels::{Silent, Solution};

    /// Keeps the notes.
    #[derive(Default)]
    struct Notes(Mutex<Vec<String>>);
    impl Observer for Notes {
        fn note(&self, message: &str) {
            self.0.lock().unwrap().push(message.to_string());
        }
    }

    fn dtm(t: &Table) -> &[Packed] {
        match &t.values {
            Values::Dtm(v) => v,
            _ => panic!("plies expected"),
        }
    }

    /// The forward evaluation, visiting positions grouped by the other
    /// side's men, gives every placement sector of six the values of the
    /// plain loop over the indices.
    #[test]
    fn forward_evaluation_equals_the_loop_over_the_indices() {
        let rules = Rules::new(BoardKind::Six, Dice::None);
        let sol = Solution::solve(rules, &Silent);
        let mut placement = 0;
        for &s in sol.order().iter().flatten().filter(|s| !s.is_movement()) {
            let ix = Indexer::new(sol.board_tables.clone(), s);
            let plain: Vec<Packed> = (0..ix.size())
                .map(|i| {
                    let st = ix.state(i);
                    if ix.is_canonical(i) && rules.valid(&st) { pack(sol.evaluate_dtm(&st)) } else { UNUSED }
                })
                .collect();
            let t = forward_dtm(&rules, &sol, ix, &Silent);
            assert!(dtm(&t) == plain.as_slice(), "sector {}", s.key());
            placement += 1;
        }
        assert!(placement > 10, "{placement} placement sectors");
    }

    #[test]
    fn a_stopped_group_resumes_to_the_same_values() {
        let rules = Rules::new(BoardKind::Six, Dice::None);
        let sol = Solution::solve(rules, &Silent);
        // The movement group with the most indices.
        let size = |g: &Vec<crate::merels::Sector>| sol.indices(g);
        let group = sol
            .order()
            .iter()
            .filter(|g| g.iter().all(|s| s.is_movement()))
            .max_by_key(|g| size(g))
            .expect("six has movement groups")
            .clone();
        let ix = || group.iter().map(|&s| Indexer::new(sol.board_tables.clone(), s)).collect::<Vec<_>>();
        let whole = retrograde(&rules, &sol, ix(), &Silent, None).expect("no checkpoint");
        let dir = std::env::temp_dir().join(format!("ludus-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut c = Checkpoint {
            path: dir.join("group.resume"),
            rules: rules_bytes(&rules),
            every: Duration::MAX,
            stop_at: Some(3),
            interrupt: None,
        };
        assert!(retrograde(&rules, &sol, ix(), &Silent, Some(&c)).is_none(), "asked to stop at level 3");
        assert!(c.path.is_file());
        c.stop_at = None;
        let notes = Notes::default();
        let resumed = retrograde(&rules, &sol, ix(), &notes, Some(&c)).expect("runs to the end");
        assert!(notes.0.lock().unwrap().iter().any(|n| n.starts_with("resuming the group at level 3")));
        assert_eq!(whole.len(), resumed.len());
        for (a, b) in whole.iter().zip(&resumed) {
            assert!(dtm(a) == dtm(b), "sector {} differs after resuming", a.sector());
        }

        // A damaged checkpoint is noticed and the group solved from the start.
        c.remove();
        c.stop_at = Some(2);
        assert!(retrograde(&rules, &sol, ix(), &Silent, Some(&c)).is_none());
        let mut bytes = std::fs::read(&c.path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x40;
        std::fs::write(&c.path, &bytes).unwrap();
        c.stop_at = None;
        let notes = Notes::default();
        let again = retrograde(&rules, &sol, ix(), &notes, Some(&c)).expect("runs to the end");
        assert!(notes.0.lock().unwrap().iter().any(|n| n.contains("checksum mismatch")), "{:?}", notes.0);
        assert!(!c.path.exists(), "the damaged checkpoint is removed");
        for (a, b) in whole.iter().zip(&again) {
            assert!(dtm(a) == dtm(b));
        }

        // A checkpoint of another group is not taken for this one.
        c.remove();
        c.stop_at = Some(2);
        assert!(retrograde(&rules, &sol, ix(), &Silent, Some(&c)).is_none());
        let other: Vec<Indexer> = sol
            .order()
            .iter()
            .find(|g| g.iter().all(|s| s.is_movement()) && **g != group)
            .expect("another movement group")
            .iter()
            .map(|&s| Indexer::new(sol.board_tables.clone(), s))
            .collect();
        assert!(matches!(c.load(&other), Err(crate::merels::checkpoint::Unusable::OtherGroup)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
