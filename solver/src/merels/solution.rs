//! A solved game: the solving loop over sector groups (loading what a
//! database already holds, solving the rest from the values known so far,
//! writing each group's tables). The queries on the values live in
//! [`Known`](super::known::Known).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::merels::{Rules, State};
use fxhash::FxHashMap;

use super::checkpoint::{Checkpoint, Interrupt};
use super::db::{Db, DbError};
use super::exact::{forward_chance, forward_exact};
use super::index::{BoardTables, Indexer};
use super::known::Known;
use super::observer::Observer;
use super::plan;
use super::retro::{forward_dtm, retrograde};
use super::sector::{Sector, reached_groups, solve_order, successors};
use super::strategy::{self, Moves, Room};
use super::table::{Census, Kind, Meta, Table};
use super::value::exact_denominator;

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Where sector files live; `None` solves in memory only.
    pub db: Option<PathBuf>,
    /// Solve only the groups whose sectors have at most this many men in all.
    pub max_men: Option<u8>,
    /// Solve only the groups play can reach from this sector (what a
    /// position in it needs).
    pub from: Option<Sector>,
    /// Keep every table in memory (otherwise tables no later group needs are
    /// dropped and reloaded from the database on demand).
    pub keep_all: bool,
    /// Memory a group may need, in bytes; a larger one is refused with its
    /// estimate rather than started.
    pub memory_limit: u64,
    /// How a group under chance has its positions' in-group children and
    /// parents: `None` decides by `memory_limit` (in lists where the group
    /// fits with them, else generated).
    pub moves: Option<Moves>,
    /// Solve only the group holding this sector (its key, `w-wf-b-bf`),
    /// from its successors' files in the database.
    pub group: Option<String>,
    /// With a database, how often a retrograde group saves its progress
    /// (`<group>.resume`, removed when the group's files are written), so
    /// that a stopped solve resumes where it was.
    pub checkpoint_every: Duration,
    /// Whether a group's solve may hold memory beyond its estimate, up to
    /// `memory_limit`, for what saves time (under chance with the parents
    /// generated, the parents a partial evaluation found, kept for its
    /// changed values).
    pub use_spare: bool,
    /// A request to stop from outside (a signal): the group being solved
    /// saves its progress at its next chance, and the solve stops with
    /// [`SolveError::Interrupted`]; the same solve started again resumes.
    pub interrupt: Option<Interrupt>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            db: None,
            max_men: None,
            from: None,
            keep_all: true,
            memory_limit: 14 << 30,
            moves: None,
            group: None,
            checkpoint_every: Duration::from_secs(600),
            use_spare: true,
            interrupt: None,
        }
    }
}

/// What went wrong while solving.
#[derive(Debug)]
pub enum SolveError {
    /// A group's lock file could not be taken.
    Claim { group: String, error: std::io::Error },
    /// The group asked for alone is being solved by another process.
    Busy { group: String, by: String, lock: PathBuf },
    /// A group needs more memory than allowed (`solved` of `groups` done).
    Memory { group: Vec<String>, need: u64, limit: u64, solved: usize, groups: usize },
    /// A sector file could not be written.
    Write { path: PathBuf, error: std::io::Error },
    /// A sector file could not be read (a damaged one is solved again by a
    /// solve, and reported where only reading was asked for: a probe).
    Read { sector: String, error: DbError },
    /// No group holds the sector asked for.
    UnknownGroup(String),
    /// The work asked for needs a database directory.
    NoDatabase(&'static str),
    /// A group asked for alone reads sectors whose files are missing.
    MissingSuccessors { group: String, missing: Vec<PathBuf> },
    /// The solve was asked to stop (`why`: [`Interrupt::request`]'s code)
    /// before group `at`; `solved` of `groups` were done, and `saved`
    /// holds the group's progress where it had any.
    Interrupted { why: usize, at: String, solved: usize, groups: usize, saved: Option<PathBuf> },
    /// Perfect play needs a completely solved game.
    Incomplete(String),
    /// Nine men's morris is not in the database whole (`missing` sector
    /// files): it must be solved first.
    NotSolved { rules: String, dice: String, dir: PathBuf, missing: usize },
    /// The layers of the chances of perfect play from the start
    /// (`markov::layered_chances`) need more memory than allowed: `positions`
    /// gathered for the layer after `layer` plies.
    ChancesMemory { layer: usize, positions: u64, limit: u64 },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Claim { group, error } => write!(f, "cannot claim group {group}: {error}"),
            SolveError::Busy { group, by, lock } => {
                write!(f, "group {group} is being solved by {by}; its lock is {}", lock.display())
            }
            SolveError::Memory { group, need, limit, solved, groups } => write!(
                f,
                "sector group {} needs about {}, more than the {} allowed (--memory), with {solved} of {groups} \
                 groups done; `ludus merels plan` lists every group with the memory it needs, and \
                 `--group KEY` solves one alone",
                group.join(", "),
                plan::human_bytes(*need),
                plan::human_bytes(*limit),
            ),
            SolveError::Write { path, error } => {
                // A write error may name the path already.
                let e = error.to_string();
                if e.starts_with("cannot write") {
                    f.write_str(&e)
                } else {
                    write!(f, "cannot write {}: {e}", path.display())
                }
            }
            SolveError::Read { sector, error: error @ DbError::Corrupt { .. } } => write!(
                f,
                "cannot read sector {sector}: {error} (`ludus merels solve` with the same rules and database solves \
                 a damaged sector again)"
            ),
            SolveError::Read { sector, error } => write!(f, "cannot read sector {sector}: {error}"),
            SolveError::Interrupted { at, solved, groups, saved, .. } => {
                write!(f, "stopped before the end of group {at} ({solved} of {groups} groups done)")?;
                match saved {
                    Some(p) => write!(f, "; its progress is saved in {}", p.display())?,
                    None => write!(f, "; every finished group is saved")?,
                }
                write!(f, ": the same command resumes")
            }
            SolveError::UnknownGroup(key) => {
                write!(
                    f,
                    "no sector group {key} in this solve (`ludus merels plan` with the same rules and --max-men lists the groups and their keys)"
                )
            }
            SolveError::NoDatabase(what) => write!(f, "{what} needs a database directory (--db)"),
            SolveError::MissingSuccessors { group, missing } => write!(
                f,
                "group {group} reads sectors not solved yet; missing: {} (solve their groups first: `ludus merels \
                 plan` lists what each group needs)",
                missing.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
            SolveError::ChancesMemory { layer, positions, limit } => write!(
                f,
                "the chances of perfect play from the start need more than the {} allowed (--memory): {positions} \
                 positions (16 bytes each) reached after {layer} {} and counting",
                plan::human_bytes(*limit),
                if *layer == 1 { "ply" } else { "plies" }
            ),
            SolveError::Incomplete(rules) => {
                write!(f, "{rules} is only partly solved: perfect play needs every position")
            }
            SolveError::NotSolved { rules, dice, dir, missing } => write!(
                f,
                "{rules} is not solved in {} ({missing} sectors missing): solve it first with `ludus merels solve \
                 --board nine --dice {dice}`",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Claim { error, .. } | SolveError::Write { error, .. } => Some(error),
            SolveError::Read { error, .. } => Some(error),
            _ => None,
        }
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

/// The sectors of a game reachable from its start, solved: the driver over
/// sector groups (loading what the database holds, solving the rest with
/// the algorithm each group needs, writing their tables). Its values are
/// read through [`Known`], which it dereferences to.
pub struct Solution {
    pub board_tables: Arc<BoardTables>,
    known: Known,
    /// Every group of the game, in solving order.
    order: Vec<Vec<Sector>>,
    /// The groups solved or loaded, in order.
    pub records: Vec<GroupRecord>,
    db: Option<Db>,
    summaries: FxHashMap<Sector, Summary>,
    /// The most bytes of tables held at once, each group's own included.
    pub tables_peak: u64,
    /// How many times the tables a group reads were read again after they
    /// were let go while a mill level was iterated.
    pub rereads: u64,
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
            board_tables,
            known: Known::new(rules, exact_denominator(rules.men())),
            order: order.clone(),
            records: Vec::new(),
            db,
            summaries: FxHashMap::default(),
            tables_peak: 0,
            rereads: 0,
        };
        let todo: Vec<Vec<Sector>> =
            order.into_iter().filter(|g| opts.max_men.is_none_or(|m| g.iter().all(|s| s.men() <= m))).collect();
        let todo = match opts.from {
            Some(from) => reached_groups(&rules, todo, from),
            None => todo,
        };
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
        let only = match &opts.group {
            None => None,
            Some(key) => Some(sol.only_group(&todo, key)?),
        };
        // The groups finished when a solve stops: those the database holds
        // (a group asked for alone may follow groups not yet solved), in
        // memory those before the group at hand.
        let all = todo.clone();
        let finished = |gi: usize, db: Option<&Db>| {
            db.map_or(gi, |db| all.iter().filter(|g| g.iter().all(|&s| db.holds(s))).count())
        };
        let total: u64 = todo.iter().map(|g| sol.indices(g)).sum();
        let (mut done, mut here) = (0u64, 0u64);
        for (gi, group) in todo.into_iter().enumerate() {
            if only.is_some_and(|o| o != gi) {
                continue;
            }
            if only.is_none() {
                obs.overall(done, here, total);
            }
            obs.group(&group, gi, groups);
            if let Some(why) = opts.interrupt.as_ref().and_then(Interrupt::requested) {
                return Err(SolveError::Interrupted {
                    why,
                    at: group[0].key(),
                    solved: finished(gi, sol.db.as_ref()),
                    groups,
                    saved: None,
                });
            }
            if !opts.keep_all && sol.db.is_some() {
                // Room for the group's own tables and those it reads: the
                // tables kept for later groups (read again from the
                // database when those come) give way where all would not
                // fit, as they do when a solve needs the room. A resumed
                // solve loads many finished groups one after another.
                let reads = plan::group_reads(&rules, &group);
                let own: u64 = group.iter().map(|&s| plan::table_memory(&rules, &sol.board_tables, s)).sum();
                let more: u64 = own
                    + reads
                        .iter()
                        .filter(|s| !sol.known.tables.contains_key(s))
                        .map(|&s| plan::read_memory(&rules, &sol.board_tables, s))
                        .sum::<u64>();
                if sol.tables_bytes() + more > opts.memory_limit {
                    sol.known.tables.retain(|s, _| reads.contains(s));
                }
            }
            let mut loaded = sol.load_group(&group, obs)?;
            sol.tables_peak = sol.tables_peak.max(sol.tables_bytes());
            // Held until the group's files are written.
            let mut claim = None;
            if !loaded && let Some(db) = &sol.db {
                claim = Some(loop {
                    let c = plan::claim(db.dir(), &group[0].key())
                        .map_err(|error| SolveError::Claim { group: group[0].key(), error })?;
                    match c {
                        plan::Claimed::Mine(c) => break c,
                        plan::Claimed::Busy(who) if only.is_some() => {
                            return Err(SolveError::Busy {
                                group: group[0].key(),
                                by: who,
                                lock: plan::lock_path(db.dir(), &group[0].key()),
                            });
                        }
                        plan::Claimed::Busy(who) => {
                            obs.note(&format!("group {} is being solved by {who}: waiting for it", group[0].key()));
                            std::thread::sleep(std::time::Duration::from_secs(2));
                        }
                    }
                });
                if let Some(who) = claim.as_ref().and_then(|c| c.abandoned_by.as_deref()) {
                    obs.note(&format!("taking over group {} from {who}, who left it unfinished", group[0].key()));
                }
                // Finished by another process meanwhile?
                loaded = sol.load_group(&group, obs)?;
            }
            if !loaded {
                for s in group.iter().flat_map(|s| successors(&rules, *s)) {
                    if !group.contains(&s) {
                        sol.ensure_values(s)?;
                    }
                }
                sol.tables_peak = sol.tables_peak.max(sol.tables_bytes());
                let mut moves = opts.moves.unwrap_or_default();
                let mut need = sol.memory_estimate(&group, moves, opts);
                if need > opts.memory_limit && !opts.keep_all && sol.db.is_some() {
                    // Tables kept for later groups are read again from the
                    // database when those groups come.
                    let reads = plan::group_reads(&rules, &group);
                    sol.known.tables.retain(|s, _| reads.contains(s));
                    sol.values_only();
                    need = sol.memory_estimate(&group, moves, opts);
                }
                if need > opts.memory_limit && opts.moves.is_none() {
                    let stored = need;
                    (moves, need) = plan::fit_moves(opts.memory_limit, |m| sol.memory_estimate(&group, m, opts));
                    let how = match moves {
                        Moves::Stored => None,
                        Moves::Half => Some("children listed and parents generated"),
                        Moves::Generated => Some("children and parents generated"),
                    };
                    if let Some(how) = how.filter(|_| need <= opts.memory_limit) {
                        obs.note(&format!(
                            "group {}: in-group {how}, not both listed, to fit the memory ({} so, {} with both lists)",
                            group[0].key(),
                            plan::human_bytes(need),
                            plan::human_bytes(stored)
                        ));
                    }
                }
                if need > opts.memory_limit {
                    return Err(SolveError::Memory {
                        group: group.iter().map(|s| s.key()).collect(),
                        need,
                        limit: opts.memory_limit,
                        solved: finished(gi, sol.db.as_ref()),
                        groups,
                    });
                }
                let t0 = Instant::now();
                let tables = if sol.lets_go(&group, moves, opts) {
                    sol.solve_letting_go(&group, moves, opts, obs)?
                } else {
                    sol.solve_group_until(&group, &SolveOptions { moves: Some(moves), ..opts.clone() }, obs)
                };
                let Some(tables) = tables else {
                    // Only an interrupt stops a group: its progress saved.
                    let why = opts.interrupt.as_ref().and_then(Interrupt::requested).unwrap_or(usize::MAX);
                    let saved = sol.checkpoint(&group, opts).map(|c| c.path).filter(|p| p.exists());
                    return Err(SolveError::Interrupted {
                        why,
                        at: group[0].key(),
                        solved: finished(gi, sol.db.as_ref()),
                        groups,
                        saved,
                    });
                };
                let seconds = t0.elapsed().as_secs_f64() / tables.len() as f64;
                for mut t in tables {
                    t.meta.seconds = seconds;
                    if let Some(db) = &sol.db {
                        db.store(&t).map_err(|error| SolveError::Write { path: db.path(t.sector()), error })?;
                    }
                    sol.keep(t);
                }
                sol.tables_peak = sol.tables_peak.max(sol.tables_bytes());
                if let Some(c) = sol.checkpoint(&group, opts) {
                    c.remove();
                }
            }
            drop(claim);
            let indices = sol.indices(&group);
            done += indices;
            if !loaded {
                here += indices;
            }
            sol.records.push(GroupRecord { sectors: group.clone(), loaded });
            if !opts.keep_all && sol.db.is_some() {
                sol.known.tables.retain(|s, _| last_use.get(s).is_some_and(|&u| u > gi));
            }
        }
        Ok(sol)
    }

    /// The indices of `sectors` in all (each sector's size by its index).
    pub fn indices(&self, sectors: &[Sector]) -> u64 {
        sectors.iter().map(|&s| Indexer::new(self.board_tables.clone(), s).size()).sum()
    }

    /// Bytes a group's solve needs: its working arrays and the tables in
    /// memory (those of its successors among them), which a solve with the
    /// parents generated lets go while it iterates ([`plan::solve_memory`]).
    pub fn memory_estimate(&self, group: &[Sector], moves: Moves, opts: &SolveOptions) -> u64 {
        let ix: Vec<Indexer> = group.iter().map(|&s| Indexer::new(self.board_tables.clone(), s)).collect();
        plan::solve_memory(&self.rules, &ix, moves, self.tables_bytes(), self.rereads_tables(opts))
    }

    /// Whether the tables in memory can be let go during a solve and read
    /// again: all are in the database, and none must stay.
    fn rereads_tables(&self, opts: &SolveOptions) -> bool {
        self.db.is_some() && !opts.keep_all
    }

    /// The bytes a group's solve may hold beyond its estimate, up to the
    /// memory limit, where `opts` lets it.
    fn spare_memory(&self, group: &[Sector], moves: Moves, opts: &SolveOptions) -> u64 {
        if opts.use_spare { opts.memory_limit.saturating_sub(self.memory_estimate(group, moves, opts)) } else { 0 }
    }

    /// Whether the solve of `group` lets the tables go while it iterates:
    /// a group under chance where play cycles, its parents generated (to
    /// fit the memory), the tables in the database.
    fn lets_go(&self, group: &[Sector], moves: Moves, opts: &SolveOptions) -> bool {
        plan::cyclic(&self.rules, group)
            && Kind::of(&self.rules, group[0]) == Kind::Chance
            && !moves.lists_parents()
            && self.rereads_tables(opts)
    }

    /// Solves a group under chance with its parents generated, the tables
    /// in memory let go while each mill level is iterated and its
    /// successors' values read again for the next level's exits.
    fn solve_letting_go(
        &mut self,
        group: &[Sector],
        moves: Moves,
        opts: &SolveOptions,
        obs: &dyn Observer,
    ) -> Result<Option<Vec<Table>>, SolveError> {
        let rules = self.rules;
        let checkpoint = self.checkpoint(group, opts);
        let ix: Vec<Indexer> = group.iter().map(|&s| Indexer::new(self.board_tables.clone(), s)).collect();
        let error = self.successor_error(group);
        let reads = group.iter().flat_map(|&s| successors(&rules, s)).filter(|c| !group.contains(c)).collect();
        let spare = self.spare_memory(group, moves, opts);
        let mut succ = Rereads { sol: self, reads, gone: false };
        let solved =
            strategy::solve_resuming(&rules, &mut succ, ix, error, Room::new(moves, spare), obs, checkpoint.as_ref())?;
        Ok(solved.map(|s| s.0))
    }

    /// Bytes of the tables in memory.
    pub fn tables_bytes(&self) -> u64 {
        self.known.tables.values().map(|t| t.bytes()).sum()
    }

    /// The position in `todo` of the group holding sector `key`, whose
    /// successors' files must all be in the database.
    fn only_group(&self, todo: &[Vec<Sector>], key: &str) -> Result<usize, SolveError> {
        let Some(gi) = todo.iter().position(|g| g.iter().any(|s| s.key() == key)) else {
            return Err(SolveError::UnknownGroup(key.to_string()));
        };
        let Some(db) = &self.db else {
            return Err(SolveError::NoDatabase("solving one group (its successors are read from it)"));
        };
        let missing: Vec<PathBuf> =
            plan::group_reads(&self.rules, &todo[gi]).into_iter().filter(|&s| !db.has(s)).map(|s| db.path(s)).collect();
        if !missing.is_empty() {
            return Err(SolveError::MissingSuccessors { group: key.to_string(), missing });
        }
        Ok(gi)
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
                Err(e @ DbError::Corrupt { .. }) => {
                    obs.note(&format!("{e}; solving sector {} again", s.key()));
                    return Ok(false);
                }
                Err(error @ DbError::Io(_)) => return Err(SolveError::Read { sector: s.key(), error }),
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
        self.known.tables.insert(t.sector(), Arc::new(t));
    }

    /// The summary of a solved sector (kept when its table is dropped).
    pub fn summary(&self, s: Sector) -> Option<&Summary> {
        self.summaries.get(&s)
    }

    /// Makes sure a solved sector's table is in memory, whole (read again
    /// if only its values were read).
    fn ensure(&mut self, s: Sector) -> Result<(), SolveError> {
        self.ensure_with(s, true)
    }

    /// Makes sure a solved sector's values are in memory: all a solve
    /// needs of the sectors its group leads to.
    fn ensure_values(&mut self, s: Sector) -> Result<(), SolveError> {
        self.ensure_with(s, false)
    }

    /// Leaves only the values of the tables in memory, as a solve reads its
    /// successors (the tables of groups solved before were kept whole):
    /// the progress ranks are in their files, read again when play needs
    /// them.
    fn values_only(&mut self) {
        let Some(db) = &self.db else { return };
        for (&s, t) in self.known.tables.iter_mut() {
            if !t.rank.is_empty() && db.has(s) {
                match Arc::get_mut(t) {
                    Some(t) => {
                        t.rank = Vec::new();
                        t.ranks_left = true;
                    }
                    None => {
                        let ix = Indexer::new(self.board_tables.clone(), s);
                        if let Ok(v) = db.load_values(ix) {
                            *t = Arc::new(v);
                        }
                    }
                }
            }
        }
    }

    fn ensure_with(&mut self, s: Sector, ranks: bool) -> Result<(), SolveError> {
        let held = self.known.tables.get(&s).map(|t| t.ranks_left);
        if held.is_some_and(|left| !(left && ranks)) || !s.is_stored() {
            return Ok(());
        }
        let Some(db) = &self.db else { return Ok(()) };
        let ix = Indexer::new(self.board_tables.clone(), s);
        match if ranks { db.load(ix) } else { db.load_values(ix) } {
            Ok(t) => {
                self.known.tables.insert(s, Arc::new(t));
                Ok(())
            }
            Err(DbError::Missing) => {
                // Gone since its values were read: none of it is kept.
                if ranks {
                    self.known.tables.remove(&s);
                }
                Ok(())
            }
            Err(error) => Err(SolveError::Read { sector: s.key(), error }),
        }
    }

    /// Loads a sector's table from the database (if not in memory yet);
    /// `false` when it has no file. Sectors no table is kept for (a side
    /// with fewer than 3 men) count as loaded.
    pub fn load_sector(&mut self, s: Sector) -> Result<bool, SolveError> {
        self.ensure(s)?;
        Ok(!s.is_stored() || self.known.tables.contains_key(&s))
    }

    /// Drops the tables in memory that `keep` refuses.
    pub fn retain_tables(&mut self, keep: impl Fn(&Sector) -> bool) {
        self.known.tables.retain(|s, _| keep(s));
    }

    /// A finished database opened around one position: nothing solved, only
    /// the tables of `st`'s sector and its successors read (what a probe of
    /// it needs, however large the rest of the game is).
    pub fn around(rules: Rules, db: PathBuf, st: &State) -> Result<Solution, SolveError> {
        let mut sol = Solution::open(rules, db)?;
        sol.ensure_around(st)?;
        Ok(sol)
    }

    /// A database opened with nothing solved and no table read yet: its
    /// tables are loaded on demand ([`Solution::load_sector`],
    /// [`Solution::ensure_around`]).
    pub fn open(rules: Rules, db: PathBuf) -> Result<Solution, SolveError> {
        let opts = SolveOptions { db: Some(db), max_men: Some(0), keep_all: false, ..SolveOptions::default() };
        Solution::solve_with(rules, &opts, &super::observer::Silent)
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
    pub fn solve_group(&self, group: &[Sector], opts: &SolveOptions, obs: &dyn Observer) -> Vec<Table> {
        let opts = SolveOptions { interrupt: None, ..opts.clone() };
        self.solve_group_until(group, &opts, obs).expect("a solve not interrupted does not stop")
    }

    /// [`Solution::solve_group`], `None` where `opts.interrupt` stopped it
    /// (its progress saved in the database).
    fn solve_group_until(&self, group: &[Sector], opts: &SolveOptions, obs: &dyn Observer) -> Option<Vec<Table>> {
        let rules = &self.rules;
        let ix: Vec<Indexer> = group.iter().map(|&s| Indexer::new(self.board_tables.clone(), s)).collect();
        match (plan::cyclic(rules, group), Kind::of(rules, group[0])) {
            (true, Kind::Chance) => {
                let error = self.successor_error(group);
                let moves = opts.moves.unwrap_or_default();
                let checkpoint = self.checkpoint(group, opts);
                let spare = self.spare_memory(group, moves, opts);
                let room = Room::new(moves, spare);
                let Ok(solved) =
                    strategy::solve_resuming(rules, &mut &self.known, ix, error, room, obs, checkpoint.as_ref());
                solved.map(|s| s.0)
            }
            (true, _) => retrograde(rules, &self.known, ix, obs, self.checkpoint(group, opts).as_ref()),
            (false, kind) => {
                let ix = ix.into_iter().next().expect("one sector");
                Some(vec![match kind {
                    Kind::Dtm => forward_dtm(rules, &self.known, ix, obs),
                    Kind::Exact => forward_exact(rules, &self.known, ix, obs),
                    Kind::Chance => forward_chance(rules, &self.known, ix, obs),
                }])
            }
        }
    }

    /// Where a group's solve keeps its progress: beside its files.
    fn checkpoint(&self, group: &[Sector], opts: &SolveOptions) -> Option<Checkpoint> {
        let db = self.db.as_ref()?;
        Some(Checkpoint {
            every: opts.checkpoint_every,
            interrupt: opts.interrupt.clone(),
            ..Checkpoint::of_group(db.dir(), &self.rules, &group[0].key())
        })
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
}

/// The tables a group's solve reads, let go while each of its mill levels
/// is iterated (with every other table in memory: all are in the database)
/// and read again, values alone, for the next level's exits.
struct Rereads<'s> {
    sol: &'s mut Solution,
    reads: Vec<Sector>,
    gone: bool,
}

impl strategy::Successors for Rereads<'_> {
    type Error = SolveError;

    fn known(&mut self) -> Result<&Known, SolveError> {
        if self.gone {
            for &s in &self.reads {
                self.sol.ensure_values(s)?;
                if s.is_stored() && self.sol.known.table(s).is_none() {
                    // Its file vanished since the group began.
                    return Err(SolveError::Read { sector: s.key(), error: DbError::Missing });
                }
            }
            self.sol.rereads += 1;
            self.gone = false;
        }
        Ok(&self.sol.known)
    }

    fn let_go(&mut self) {
        self.sol.known.tables.clear();
        self.gone = true;
    }
}

impl std::ops::Deref for Solution {
    type Target = Known;
    fn deref(&self) -> &Known {
        &self.known
    }
}
