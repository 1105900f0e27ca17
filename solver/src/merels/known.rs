//! The values solved so far, as the algorithms read them: one table per
//! sector, and every lookup of a position's value (stored, or computed from
//! its successors). Data flows one way: sectors are solved by the algorithms
//! from a `Known`, their tables are added to it and written to the database.

use std::ops::Neg;
use std::sync::Arc;

use arrayvec::ArrayVec;
use engine::merels::{Action, Blocked, Rules, State, Throw};
use fxhash::FxHashMap;
use smallvec::SmallVec;

use super::index::{OwnPart, VISIT_BATCH};
use super::sector::{Sector, successors};
use super::table::{Eval, Kind, Table, Values};
use super::value::{CODE_LOSS, CODE_UNUSED, Interval, Value};

/// The solved sectors' tables of one game.
pub struct Known {
    pub rules: Rules,
    /// Denominator of exact values.
    pub den: i128,
    pub(crate) tables: FxHashMap<Sector, Arc<Table>>,
}

impl Known {
    /// An empty set of tables for a game.
    pub fn new(rules: Rules, den: i128) -> Known {
        Known { rules, den, tables: FxHashMap::default() }
    }

    /// A sector's table, if in memory.
    pub fn table(&self, s: Sector) -> Option<&Table> {
        self.tables.get(&s).map(|t| t.as_ref())
    }

    /// The tables in memory.
    pub fn tables(&self) -> impl Iterator<Item = (&Sector, &Arc<Table>)> {
        self.tables.iter()
    }

    /// The stored value of a state, `None` if impossible or not solved.
    pub fn eval(&self, st: &State) -> Option<Eval> {
        if self.rules.lost(st) {
            return Some(match Kind::of(&self.rules, Sector::of(st)) {
                Kind::Dtm => Eval::Dtm(Value::Loss(0)),
                Kind::Exact => Eval::Exact(-self.den),
                Kind::Chance => Eval::Chance(Interval::LOSS),
            });
        }
        if !self.rules.valid(st) {
            return None;
        }
        self.tables.get(&Sector::of(st))?.get(st)
    }

    /// The value of a state of a game without chance (or of a movement
    /// sector of Murray's and Bell's readings).
    #[inline]
    pub fn dtm(&self, st: &State) -> Option<Value> {
        if self.rules.lost(st) {
            return Some(Value::Loss(0));
        }
        match self.tables.get(&Sector::of(st))?.get(st)? {
            Eval::Dtm(v) => Some(v),
            _ => None,
        }
    }

    /// The exact value's numerator over [`Solution::den`].
    #[inline]
    pub fn exact(&self, st: &State) -> Option<i128> {
        if self.rules.lost(st) {
            return Some(-self.den);
        }
        match self.tables.get(&Sector::of(st))?.get(st)? {
            Eval::Dtm(v) => Some(v.sign() as i128 * self.den),
            Eval::Exact(n) => Some(n),
            Eval::Chance(_) => None,
        }
    }

    /// The value as an interval (exact values become points).
    #[inline]
    pub fn interval(&self, st: &State) -> Option<Interval> {
        if self.rules.lost(st) {
            return Some(Interval::LOSS);
        }
        Some(self.to_interval(self.tables.get(&Sector::of(st))?.get(st)?))
    }

    /// Any value as an interval.
    pub fn to_interval(&self, e: Eval) -> Interval {
        match e {
            Eval::Dtm(v) => match v {
                Value::Win(_) => Interval::WIN,
                Value::Draw => Interval::DRAW,
                Value::Loss(_) => Interval::LOSS,
            },
            Eval::Exact(n) => Interval::around(n as f64 / self.den as f64, f64::EPSILON),
            Eval::Chance(iv) => iv,
        }
    }

    /// The value for the side to move computed from the successors' stored
    /// values, without chance.
    pub fn evaluate_dtm(&self, st: &State) -> Value {
        let mut at = SmallVec::new();
        match self.dtm_reads(st, &mut Locator::new(self), &mut at) {
            Ok(v) => v,
            Err(best) => self.dtm_from_reads(best, &at),
        }
    }

    /// [`Known::evaluate_dtm`] of each of `states` that `keep` accepts (the
    /// others get `None`), the successors' reads of [`VISIT_BATCH`] of them
    /// under way at once.
    pub fn evaluate_dtm_each(&self, states: &[State], keep: impl Fn(&State) -> bool, out: &mut [Option<Value>]) {
        self.each(states, keep, out, Self::dtm_reads, |best, at| self.dtm_from_reads(*best, at));
    }

    /// [`Known::evaluate_exact`] of each of `states` that `keep` accepts, as
    /// [`Known::evaluate_dtm_each`].
    pub fn evaluate_exact_each(&self, states: &[State], keep: impl Fn(&State) -> bool, out: &mut [Option<i128>]) {
        self.each(states, keep, out, Self::exact_reads, |reads, at| self.exact_from_reads(reads, at));
    }

    /// The two steps of an evaluation over `states` in batches of
    /// [`VISIT_BATCH`]: `reads` of each position `keep` accepts (a value, or
    /// what is known so far with its successors' places asked for), then
    /// `finish` of those that need their successors' tables.
    fn each<'k, R: Copy, P, const SLOTS: usize>(
        &'k self,
        states: &[State],
        keep: impl Fn(&State) -> bool,
        out: &mut [Option<R>],
        reads: impl Fn(&'k Self, &State, &mut Locator<'k, SLOTS>, &mut Places<'k>) -> Result<R, P>,
        finish: impl Fn(&P, &[(&'k Table, u64)]) -> R,
    ) {
        let mut at: [Places<'k>; VISIT_BATCH] = std::array::from_fn(|_| SmallVec::new());
        let mut places = Locator::new(self);
        for (sts, outs) in states.chunks(VISIT_BATCH).zip(out.chunks_mut(VISIT_BATCH)) {
            let mut first: [Option<Result<R, P>>; VISIT_BATCH] = std::array::from_fn(|_| None);
            for (k, st) in sts.iter().enumerate() {
                first[k] = keep(st).then(|| reads(self, st, &mut places, &mut at[k]));
            }
            for (k, o) in outs.iter_mut().enumerate() {
                *o = first[k].as_ref().map(|r| match r {
                    Ok(v) => *v,
                    Err(p) => finish(p, &at[k]),
                });
            }
        }
    }

    /// The first step of [`Known::evaluate_dtm`]: its value when that needs
    /// no table (`Ok`), else the best of the successors known without one
    /// (lost ones) and, in `at`, the place of every other successor, its
    /// memory asked for; [`Known::dtm_from_reads`] ends it. Between the two,
    /// the reads of many positions can be under way at once.
    fn dtm_reads<'k>(
        &'k self,
        st: &State,
        places: &mut Locator<'k, 1>,
        at: &mut Places<'k>,
    ) -> Result<Value, Option<Value>> {
        at.clear();
        if self.rules.lost(st) {
            return Ok(Value::Loss(0));
        }
        let mut best: Option<Value> = None;
        self.rules.for_each_action(st, Throw::None, |_, child| {
            if self.rules.lost(&child) {
                let v = Value::Loss(0).back();
                best = Some(best.map_or(v, |b| b.max(v)));
                return;
            }
            let (t, i) = places.locate(&child).expect("successor solved");
            t.prefetch(i);
            at.push((t, i));
        });
        Err(best)
    }

    /// The value from the successors' places `at` that [`Known::dtm_reads`]
    /// gave with `best`.
    fn dtm_from_reads(&self, mut best: Option<Value>, at: &[(&Table, u64)]) -> Value {
        for &(t, i) in at {
            match t.at(i) {
                Some(Eval::Dtm(v)) => best = Some(best.map_or(v.back(), |b| b.max(v.back()))),
                _ => panic!("successor solved without chance"),
            }
        }
        best.unwrap_or_else(|| self.blocked_dtm())
    }

    fn blocked_dtm(&self) -> Value {
        match self.rules.blocked {
            Blocked::Draw => Value::Draw,
            _ => Value::Loss(0),
        }
    }

    /// The exact value computed from the successors: each throw's best
    /// action, weighted by the throw's probability.
    pub fn evaluate_exact(&self, st: &State) -> i128 {
        let mut at = SmallVec::new();
        match self.exact_reads(st, &mut Locator::new(self), &mut at) {
            Ok(v) => v,
            Err(reads) => self.exact_from_reads(&reads, &at),
        }
    }

    /// The first step of [`Known::evaluate_exact`], as [`Known::dtm_reads`]
    /// is of [`Known::evaluate_dtm`]: per throw, its chance in 72nds, the
    /// best of the successors known without a table, and where its
    /// successors' places (in `at`, their memory asked for) start and end.
    /// A successor both throws lead to is located once where a special
    /// throw allows a normal one's actions and more
    /// ([`Rules::for_each_special_extra`]): its places then take in the
    /// normal throw's.
    fn exact_reads<'k>(
        &'k self,
        st: &State,
        places: &mut Locator<'k, EXACT_SLOTS>,
        at: &mut Places<'k>,
    ) -> Result<i128, ExactReads> {
        at.clear();
        if self.rules.lost(st) {
            return Ok(-self.den);
        }
        let mut reads = ExactReads::new();
        let mut visit = |best: &mut Option<i128>, at: &mut Places<'k>, child: State| {
            if self.rules.lost(&child) {
                *best = Some(self.den);
                return;
            }
            let (t, i) = places.locate(&child).expect("successor solved");
            t.prefetch(i);
            at.push((t, i));
        };
        let outcomes = self.rules.throw_outcomes(st);
        if let [(Throw::Special, p_special), (Throw::Normal, p_normal)] = outcomes[..] {
            // Where a special throw allows a normal throw's actions and
            // more, the normal throw's successors are read once for both.
            let (mut best, mut pass) = (None, false);
            self.rules.for_each_action(st, Throw::Normal, |a, child| {
                pass |= a == Action::Pass;
                visit(&mut best, at, child);
            });
            reads.push((p_normal, best, 0, at.len() as u32));
            let mut from = 0;
            if pass || !self.rules.for_each_special_extra(st, |_, child| visit(&mut best, at, child)) {
                (best, from) = (None, at.len() as u32);
                self.rules.for_each_action(st, Throw::Special, |_, child| visit(&mut best, at, child));
            }
            reads.push((p_special, best, from, at.len() as u32));
            return Err(reads);
        }
        for (throw, p72) in outcomes {
            let (mut best, from) = (None, at.len() as u32);
            self.rules.for_each_action(st, throw, |_, child| visit(&mut best, at, child));
            reads.push((p72, best, from, at.len() as u32));
        }
        Err(reads)
    }

    /// The exact value from what [`Known::exact_reads`] gave.
    fn exact_from_reads(&self, reads: &ExactReads, at: &[(&Table, u64)]) -> i128 {
        let blocked = if self.rules.blocked == Blocked::Draw { 0 } else { -self.den };
        let mut total = 0i128;
        for &(p72, mut best, from, end) in reads {
            for &(t, i) in &at[from as usize..end as usize] {
                let v = match t.at(i) {
                    Some(Eval::Exact(n)) => -n,
                    Some(Eval::Dtm(v)) => -(v.sign() as i128) * self.den,
                    _ => panic!("successor solved without chance"),
                };
                best = Some(best.map_or(v, |b| b.max(v)));
            }
            total += p72 as i128 * best.unwrap_or(blocked);
        }
        // Successors have fewer throws ahead: the sum is a multiple of 72.
        super::value::div_exact_72(total)
    }

    /// The progress rank of a state under chance (0 where none is stored,
    /// see [`Table::rank`]).
    #[inline]
    pub fn rank(&self, st: &State) -> u16 {
        self.tables.get(&Sector::of(st)).map_or(0, |t| t.rank_at(t.indexer.index(st)))
    }

    /// The grid code of a state's value under chance (for the side to move).
    #[inline]
    pub fn code(&self, st: &State) -> Option<u32> {
        self.code_cell(st).copied().filter(|&k| k != CODE_UNUSED)
    }

    /// Where [`Known::code`] reads a state's grid code (the cell of its
    /// sector's table, [`CODE_UNUSED`] there for an impossible state; a
    /// constant for a lost one), so that several can be fetched before the
    /// first is read.
    #[inline]
    pub fn code_cell(&self, st: &State) -> Option<&u32> {
        if self.rules.lost(st) {
            return Some(&CODE_LOSS);
        }
        let t = self.tables.get(&Sector::of(st))?;
        match &t.values {
            Values::Chance(v) => Some(&v[t.indexer.index(st) as usize]),
            _ => None,
        }
    }

    /// The value under chance computed from the successors' stored values:
    /// each throw's best action, weighted by the throw's probability, with
    /// the successors' proven error.
    pub fn evaluate_interval(&self, st: &State) -> Interval {
        if self.rules.lost(st) {
            return Interval::LOSS;
        }
        let blocked = if self.rules.blocked == Blocked::Draw { 0.0 } else { -1.0 };
        let (mut v, mut lo, mut hi) = (0.0f64, 0.0f64, 0.0f64);
        for (throw, p72) in self.rules.throw_outcomes(st) {
            let mut best: Option<Interval> = None;
            self.rules.for_each_action(st, throw, |_, child| {
                let c = -self.interval(&child).expect("successor solved");
                best = Some(best.map_or(c, |b| Interval { v: b.v.max(c.v), lo: b.lo.max(c.lo), hi: b.hi.max(c.hi) }));
            });
            let b = best.unwrap_or(Interval::exact(blocked));
            let p = p72 as f64 / 72.0;
            v += p * b.v;
            lo += p * b.lo;
            hi += p * b.hi;
        }
        Interval { v, lo: (lo - 1e-15).max(-1.0), hi: (hi + 1e-15).min(1.0) }
    }

    /// The largest proven error of the sectors a group reads.
    pub fn successor_error(&self, group: &[Sector]) -> f64 {
        group
            .iter()
            .flat_map(|&s| successors(&self.rules, s))
            .filter(|c| !group.contains(c))
            .filter_map(|c| self.tables.get(&c))
            .map(|t| t.meta.error)
            .fold(0.0, f64::max)
    }

    /// Every legal action after each possible throw with the value it leads
    /// to for the side to move, best first within each throw.
    pub fn rate_actions(&self, st: &State) -> Vec<(Throw, Action, Eval)> {
        let kind = Kind::of(&self.rules, Sector::of(st));
        let mut out = Vec::new();
        for (throw, _) in self.rules.throw_outcomes(st) {
            let mut v: Vec<(Throw, Action, Eval)> = self
                .rules
                .actions(st, throw)
                .into_iter()
                .filter_map(|(a, child)| Some((throw, a, self.action_value(kind, &child)?)))
                .collect();
            v.sort_by(|a, b| compare(&b.2, &a.2).then(a.1.cmp(&b.1)));
            out.extend(v);
        }
        out
    }

    /// The first action of `st` (after either throw) whose successor has no
    /// value here, though the successor's sector may be loaded: where every
    /// table around `st` is read, a damaged file.
    pub fn unvalued_action(&self, st: &State) -> Option<(Action, State)> {
        let kind = Kind::of(&self.rules, Sector::of(st));
        self.rules
            .throw_outcomes(st)
            .into_iter()
            .flat_map(|(throw, _)| self.rules.actions(st, throw))
            .find(|(_, child)| self.action_value(kind, child).is_none())
    }

    /// The value of moving into `child`, for the mover, on the scale of the
    /// mover's sector (`kind`).
    #[inline]
    pub fn action_value(&self, kind: Kind, child: &State) -> Option<Eval> {
        Some(match kind {
            Kind::Dtm => Eval::Dtm(self.dtm(child)?.back()),
            Kind::Exact => Eval::Exact(-self.exact(child)?),
            Kind::Chance => Eval::Chance(self.interval(child)?.neg()),
        })
    }
}

/// Orders values of one kind by preference of the side to move.
pub fn compare(a: &Eval, b: &Eval) -> std::cmp::Ordering {
    match (a, b) {
        (Eval::Dtm(x), Eval::Dtm(y)) => x.cmp(y),
        (Eval::Exact(x), Eval::Exact(y)) => x.cmp(y),
        (Eval::Chance(x), Eval::Chance(y)) => x.v.total_cmp(&y.v),
        _ => panic!("values of different kinds are not compared"),
    }
}

/// The places of a position's successors in their tables.
type Places<'k> = SmallVec<[(&'k Table, u64); 64]>;

/// What [`Known::exact_reads`] leaves for [`Known::exact_from_reads`]: per
/// throw (at most two), its chance in 72nds, the best value known without a
/// table, and where its successors' places start and end (a special
/// throw's may take in a normal throw's).
type ExactReads = ArrayVec<(u8, Option<i128>, u32, u32), 2>;

/// Finds states' places in their sectors' tables. The successors of one
/// position mostly share their sector and their side to move's men (every
/// placement or step of one side leaves the other's men as they are), so
/// the table and that part of the index are kept for the last `SLOTS` sets
/// of men met (a slot each, chosen by the men) and looked up once for a run
/// of them. One slot serves positions whose successors mostly capture
/// nothing; more serve the exact values under chance, where a special
/// throw's successors each take one of a few men (Bell's reading).
pub(crate) struct Locator<'k, const SLOTS: usize> {
    known: &'k Known,
    met: [Option<(Sector, u32, &'k Table, OwnPart)>; SLOTS],
}

/// The slots of the [`Locator`] of exact values.
const EXACT_SLOTS: usize = 16;

impl<'k, const SLOTS: usize> Locator<'k, SLOTS> {
    const POWER_OF_TWO: () = assert!(SLOTS.is_power_of_two());

    pub(crate) fn new(known: &'k Known) -> Locator<'k, SLOTS> {
        let () = Self::POWER_OF_TWO;
        Locator { known, met: [None; SLOTS] }
    }

    /// A state's table and index, `None` if its sector has no table.
    #[inline]
    pub(crate) fn locate(&mut self, st: &State) -> Option<(&'k Table, u64)> {
        let s = Sector::of(st);
        let own = st.own.0;
        let slot = if SLOTS == 1 {
            0
        } else {
            (u64::from(own).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SLOTS.trailing_zeros())) as usize
        };
        if let Some((ls, lo, t, part)) = self.met[slot]
            && ls == s
            && lo == own
        {
            return Some((t, t.indexer.index_with(part, st.other)));
        }
        let t = self.known.tables.get(&s)?.as_ref();
        let part = t.indexer.own_part(st.own);
        self.met[slot] = Some((s, own, t, part));
        Some((t, t.indexer.index_with(part, st.other)))
    }
}
