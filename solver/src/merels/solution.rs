//! A solved game: one table per sector, the solving loop over sector groups
//! (loading what a database already holds), and the queries on the result.

use std::ops::Neg;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use engine::merels::{Action, Blocked, Rules, State, Throw};
use fxhash::FxHashMap;

use super::db::{Db, DbError};
use super::exact::forward_exact;
use super::index::{BoardTables, Indexer};
use super::retro::{forward_dtm, retrograde};
use super::sector::{Sector, solve_order, successors};
use super::strategy::{self, Known};
use super::table::{Census, Eval, Kind, Meta, Table, Values};
use super::value::{CODE_UNUSED, Interval, Value, exact_denominator, neg_code, to_code};

/// Receives progress reports from long work (the CLI draws progress bars).
pub trait Observer: Sync {
    /// A new stage of `total` units of work begins.
    fn begin(&self, _label: &str, _total: u64) {}
    fn advance(&self, _n: u64) {}
    fn finish(&self) {}
    /// A sector group is about to be solved: `done` of `groups` are finished.
    fn group(&self, _sectors: &[Sector], _done: usize, _groups: usize) {}
    /// Something the user should know (a damaged file being re-solved).
    fn note(&self, _message: &str) {}
}

/// Reports nothing.
pub struct Silent;
impl Observer for Silent {}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Where sector files live; `None` solves in memory only.
    pub db: Option<PathBuf>,
    /// Solve only the groups whose sectors have at most this many men in all.
    pub max_men: Option<u8>,
    /// Keep every table in memory (otherwise tables no later group needs are
    /// dropped and reloaded from the database on demand).
    pub keep_all: bool,
    /// Memory a group may need, in bytes; a larger one is refused with its
    /// estimate rather than started.
    pub memory_limit: u64,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { db: None, max_men: None, keep_all: true, memory_limit: 14 << 30 }
    }
}

/// What went wrong while solving.
#[derive(Debug)]
pub struct SolveError(pub String);

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How one group was obtained.
#[derive(Clone, Debug)]
pub struct GroupRecord {
    pub sectors: Vec<Sector>,
    /// Read from the database rather than solved now.
    pub loaded: bool,
}

/// What is known of a solved sector even when its table is not in memory.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub census: Census,
    pub meta: Meta,
    pub indices: u64,
}

/// The sectors of a game reachable from its start, solved.
pub struct Solution {
    pub rules: Rules,
    pub board_tables: Arc<BoardTables>,
    tables: FxHashMap<Sector, Arc<Table>>,
    /// Every group of the game, in solving order.
    order: Vec<Vec<Sector>>,
    /// The groups solved or loaded, in order.
    pub records: Vec<GroupRecord>,
    db: Option<Db>,
    /// Denominator of exact values.
    pub den: i128,
    summaries: FxHashMap<Sector, Summary>,
}

impl Solution {
    /// Solves every sector reachable from the start in memory.
    pub fn solve(rules: Rules, obs: &dyn Observer) -> Solution {
        Solution::solve_with(rules, &SolveOptions::default(), obs).expect("an in-memory solve cannot fail")
    }

    /// Solves with options: a database to read finished sectors from and
    /// write new ones to, a limit on the men, value-iteration settings.
    pub fn solve_with(rules: Rules, opts: &SolveOptions, obs: &dyn Observer) -> Result<Solution, SolveError> {
        let board_tables = BoardTables::new(rules.board);
        let order = solve_order(&rules);
        let db = opts.db.as_ref().map(|root| Db::new(root, rules));
        let mut sol = Solution {
            rules,
            board_tables,
            tables: FxHashMap::default(),
            order: order.clone(),
            records: Vec::new(),
            db,
            den: exact_denominator(rules.men()),
            summaries: FxHashMap::default(),
        };
        let men = |s: &Sector| s.w + s.wf + s.b + s.bf;
        let todo: Vec<Vec<Sector>> =
            order.into_iter().filter(|g| opts.max_men.is_none_or(|m| g.iter().all(|s| men(s) <= m))).collect();
        // The last group that reads each sector, for dropping tables early.
        let mut last_use: FxHashMap<Sector, usize> = FxHashMap::default();
        for (gi, g) in todo.iter().enumerate() {
            for s in g {
                last_use.insert(*s, gi);
                for c in successors(&rules, *s) {
                    last_use.insert(c, gi);
                }
            }
        }
        let groups = todo.len();
        for (gi, group) in todo.into_iter().enumerate() {
            obs.group(&group, gi, groups);
            let loaded = sol.load_group(&group, obs)?;
            if !loaded {
                for s in group.iter().flat_map(|s| successors(&rules, *s)) {
                    if !group.contains(&s) {
                        sol.ensure(s)?;
                    }
                }
                let need = sol.memory_estimate(&group);
                if need > opts.memory_limit {
                    return Err(SolveError(format!(
                        "sector group {} needs about {:.1} GiB, more than the {:.1} GiB allowed: solved {} of {} groups \
                         (everything with fewer men is on disk)",
                        group.iter().map(|s| s.key()).collect::<Vec<_>>().join(", "),
                        need as f64 / (1u64 << 30) as f64,
                        opts.memory_limit as f64 / (1u64 << 30) as f64,
                        gi,
                        groups
                    )));
                }
                let t0 = Instant::now();
                let tables = sol.solve_group(&group, opts, obs);
                let seconds = t0.elapsed().as_secs_f64() / tables.len() as f64;
                for mut t in tables {
                    t.meta.seconds = seconds;
                    if let Some(db) = &sol.db {
                        db.store(&t)
                            .map_err(|e| SolveError(format!("cannot write {}: {e}", db.path(t.sector()).display())))?;
                    }
                    sol.keep(t);
                }
            }
            sol.records.push(GroupRecord { sectors: group.clone(), loaded });
            if !opts.keep_all && sol.db.is_some() {
                sol.tables.retain(|s, _| last_use.get(s).is_some_and(|&u| u > gi));
            }
        }
        Ok(sol)
    }

    /// Bytes a group's solve needs: its working arrays and the tables of
    /// its successors in memory.
    pub fn memory_estimate(&self, group: &[Sector]) -> u64 {
        let rules = &self.rules;
        let size: u64 = group.iter().map(|&s| Indexer::new(self.board_tables.clone(), s).size()).sum();
        let cyclic = group.len() > 1 || successors(rules, group[0]).contains(&group[0]);
        let per = match (cyclic, Kind::of(rules, group[0])) {
            // Value, strategy, exits, kind, mode and a mark per position.
            (true, Kind::Chance) => 8 + 4 + 4 + 4 + 3,
            // Values and successor counts, then the table.
            (true, _) => 2 + 1 + 2,
            (false, Kind::Exact) => 16,
            (false, Kind::Chance) => 4,
            (false, Kind::Dtm) => 2,
        };
        let loaded: u64 = self.tables.values().map(|t| t.values.bytes()).sum();
        size * per + loaded
    }

    /// Loads a whole group from the database; `false` if any part must be
    /// solved (missing, or damaged and then reported).
    fn load_group(&mut self, group: &[Sector], obs: &dyn Observer) -> Result<bool, SolveError> {
        let Some(db) = &self.db else { return Ok(false) };
        let mut tables = Vec::new();
        for &s in group {
            match db.load(Indexer::new(self.board_tables.clone(), s)) {
                Ok(t) => tables.push(t),
                Err(DbError::Missing) => return Ok(false),
                Err(DbError::Corrupt(m)) => {
                    obs.note(&format!("{m}; solving sector {} again", s.key()));
                    return Ok(false);
                }
                Err(DbError::Io(e)) => return Err(SolveError(format!("cannot read sector {}: {e}", s.key()))),
            }
        }
        for t in tables {
            self.keep(t);
        }
        Ok(true)
    }

    /// Keeps a solved table and its summary.
    fn keep(&mut self, t: Table) {
        let summary = Summary { census: t.census(self.den), meta: t.meta, indices: t.indexer.size() };
        self.summaries.insert(t.sector(), summary);
        self.tables.insert(t.sector(), Arc::new(t));
    }

    /// The summary of a solved sector (kept when its table is dropped).
    pub fn summary(&self, s: Sector) -> Option<&Summary> {
        self.summaries.get(&s)
    }

    /// Makes sure a solved sector's table is in memory.
    fn ensure(&mut self, s: Sector) -> Result<(), SolveError> {
        if self.tables.contains_key(&s) || !s.is_stored() {
            return Ok(());
        }
        let Some(db) = &self.db else { return Ok(()) };
        match db.load(Indexer::new(self.board_tables.clone(), s)) {
            Ok(t) => {
                self.tables.insert(s, Arc::new(t));
                Ok(())
            }
            Err(DbError::Missing) => Ok(()),
            Err(e) => Err(SolveError(format!("sector {}: {e}", s.key()))),
        }
    }

    /// Loads a sector's table from the database (if not in memory yet);
    /// `false` when it has no file. Sectors no table is kept for (a side
    /// with fewer than 3 men) count as loaded.
    pub fn load_sector(&mut self, s: Sector) -> Result<bool, SolveError> {
        self.ensure(s)?;
        Ok(!s.is_stored() || self.tables.contains_key(&s))
    }

    /// Drops the tables in memory that `keep` refuses.
    pub fn retain_tables(&mut self, keep: impl Fn(&Sector) -> bool) {
        self.tables.retain(|s, _| keep(s));
    }

    /// Loads from the database every table a query about `st` and its
    /// successors needs.
    pub fn ensure_around(&mut self, st: &State) -> Result<(), SolveError> {
        let s = Sector::of(st);
        self.ensure(s)?;
        for c in successors(&self.rules, s) {
            self.ensure(c)?;
        }
        Ok(())
    }

    /// Solves one group from the tables in memory (its successors must be
    /// there) and returns its tables without keeping them: for benchmarks
    /// and checks.
    pub fn solve_group(&self, group: &[Sector], _opts: &SolveOptions, obs: &dyn Observer) -> Vec<Table> {
        let rules = &self.rules;
        let ix: Vec<Indexer> = group.iter().map(|&s| Indexer::new(self.board_tables.clone(), s)).collect();
        let cyclic = group.len() > 1 || successors(rules, group[0]).contains(&group[0]);
        match (cyclic, Kind::of(rules, group[0])) {
            (true, Kind::Chance) => {
                let known = self.lookup(group);
                strategy::Group::new(rules, &known, ix, obs).run(known.error, obs).0
            }
            (true, _) => retrograde(rules, self, ix, obs),
            (false, kind) => {
                let ix = ix.into_iter().next().expect("one sector");
                vec![match kind {
                    Kind::Dtm => forward_dtm(rules, self, ix, obs),
                    Kind::Exact => forward_exact(rules, self, ix, obs),
                    Kind::Chance => self.forward_chance(ix, obs),
                }]
            }
        }
    }

    /// Whether every group of the game is solved (or loaded).
    pub fn complete(&self) -> bool {
        self.records.len() == self.order.len()
    }

    /// Every group of the game in solving order.
    pub fn order(&self) -> &[Vec<Sector>] {
        &self.order
    }

    pub fn database(&self) -> Option<&Db> {
        self.db.as_ref()
    }

    /// The tables in memory.
    pub fn tables(&self) -> impl Iterator<Item = (&Sector, &Arc<Table>)> {
        self.tables.iter()
    }

    pub fn table(&self, s: Sector) -> Option<&Table> {
        self.tables.get(&s).map(|t| t.as_ref())
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
        if self.rules.lost(st) {
            return Value::Loss(0);
        }
        let mut best: Option<Value> = None;
        self.rules.for_each_action(st, Throw::None, |_, child| {
            let v = self.dtm(&child).expect("successor solved").back();
            best = Some(best.map_or(v, |b| b.max(v)));
        });
        best.unwrap_or(self.blocked_dtm())
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
        if self.rules.lost(st) {
            return -self.den;
        }
        let blocked = if self.rules.blocked == Blocked::Draw { 0 } else { -self.den };
        let mut total = 0i128;
        for (throw, p72) in self.rules.throw_outcomes(st) {
            let mut best: Option<i128> = None;
            self.rules.for_each_action(st, throw, |_, child| {
                let v = -self.exact(&child).expect("successor solved");
                best = Some(best.map_or(v, |b| b.max(v)));
            });
            total += p72 as i128 * best.unwrap_or(blocked);
        }
        // Successors have fewer throws ahead: the sum is a multiple of 72.
        debug_assert_eq!(total % 72, 0, "exact values must stay over the common denominator");
        total / 72
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
        if self.rules.lost(st) {
            return Some(to_code(-1.0));
        }
        let t = self.tables.get(&Sector::of(st))?;
        match &t.values {
            Values::Chance(v) => Some(v[t.indexer.index(st) as usize]).filter(|&k| k != CODE_UNUSED),
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

    /// What a group's solve under chance reads of the sectors solved before.
    pub fn lookup(&self, group: &[Sector]) -> Lookup<'_> {
        Lookup { sol: self, error: self.successor_error(group) }
    }

    /// The largest proven error of the sectors a group reads.
    fn successor_error(&self, group: &[Sector]) -> f64 {
        group
            .iter()
            .flat_map(|&s| successors(&self.rules, s))
            .filter(|c| !group.contains(c))
            .filter_map(|c| self.tables.get(&c))
            .map(|t| t.meta.error)
            .fold(0.0, f64::max)
    }

    /// Evaluates a placement sector under Schädler's reading (no dice, no
    /// cycles) from its successors: the best successor's code, exactly.
    fn forward_chance(&self, ix: Indexer, obs: &dyn Observer) -> Table {
        use rayon::prelude::*;
        let rules = &self.rules;
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
                    let c = neg_code(self.code(&child).expect("successor solved"));
                    best = Some(best.map_or(c, |b| b.max(c)));
                });
                best.unwrap_or(to_code(if rules.blocked == Blocked::Draw { 0.0 } else { -1.0 }))
            })
            .collect();
        obs.advance(ix.size());
        obs.finish();
        let error = self.successor_error(&[ix.sector()]);
        Table::new(ix, Values::Chance(codes), Meta { error, ..Meta::default() })
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

/// The successors' values a group's solve under chance reads.
pub struct Lookup<'a> {
    sol: &'a Solution,
    error: f64,
}

impl Known for Lookup<'_> {
    #[inline]
    fn code(&self, st: &State) -> u32 {
        self.sol.code(st).expect("successor sectors are solved first")
    }

    fn error(&self) -> f64 {
        self.error
    }
}
