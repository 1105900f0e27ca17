//! Certifying a finished database without trusting the solver: every stored
//! position is checked against its successors' stored values.
//!
//! - Without chance: the stored win, draw or loss with its plies equals the
//!   best of the successors' values one ply back.
//! - Exact rationals (Murray, Bell): the stored numerator equals each throw's
//!   best successor, weighted by the throw.
//! - Under chance (Schädler): the value equation computed from the
//!   successors' stored intervals meets the stored interval; the residual is
//!   the distance between the stored value and the equation's. Where a
//!   movement sector stores progress ranks, they must fall along perfect
//!   play: after every throw, the side ahead has an equally good move of
//!   smaller rank (an exit counts 0), and every equally good move of the
//!   side behind has a smaller rank, so perfect play leaves each loop it
//!   should leave.
//!
//! Each file's header is checked when it is read (rules, sector, size,
//! length, checksum); the counts of won, drawn and lost positions are taken
//! from the values themselves.
//!
//! Checking the whole nine men's board takes hours, so every sector that
//! passes is written to a journal in the database's directory ([`JOURNAL`])
//! with the SHA-256 of its file and of its successors' files. Resumed, a
//! check takes up a sector from the journal only when none of those files
//! has changed since; otherwise it checks the sector again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use arrayvec::ArrayVec;
use engine::merels::{BoardKind, Position, Side, State, Throw};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::db::Db;
use super::index::{Cursor, VISIT_BATCH};
use super::manifest::sha256_file;
use super::observer::Observer;
use super::plan::{VERIFY_MEMORY, read_after, stored_successors, table_memory, verify_reads};
use super::sector::{Sector, solve_order};
use super::solution::{Solution, SolveError};
use super::table::{Eval, Kind};
use super::value::{TIE, Value};

/// A position of a batch: its index, state and stored value.
type Pending = (u64, State, Eval);

/// What the successors give, when read for a whole batch (under chance
/// each position is evaluated alone).
#[derive(Clone, Copy)]
enum Computed {
    Dtm(Option<Value>),
    Exact(Option<i128>),
    Chance,
}

/// A stored value that its successors contradict.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    pub position: String,
    pub stored: String,
    pub computed: String,
}

/// The check of one sector file.
#[derive(Clone, Debug, Serialize)]
pub struct SectorCheck {
    pub sector: String,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Under chance: the largest distance between a stored value and the
    /// value its successors give; 0 for the other kinds when all hold.
    pub max_residual: f64,
    /// The proven error the header states (under chance).
    pub error: f64,
    pub failures: Vec<Failure>,
    /// Failures beyond those listed.
    pub more_failures: u64,
    /// Taken from the journal of an earlier check: the sector's file and its
    /// successors' files are those that check read.
    pub resumed: bool,
}

/// The check of a whole database directory.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    pub rules: String,
    pub directory: String,
    pub sectors: Vec<SectorCheck>,
    /// Sectors of the game with no file (not solved yet).
    pub missing: Vec<String>,
    /// Sectors whose file is there but whose successors' files are missing,
    /// damaged or failed their check: they cannot be checked, and the
    /// database is not certified.
    pub unchecked: Vec<String>,
    pub positions: u64,
    pub max_residual: f64,
    pub failures: u64,
    /// The most bytes of tables held at once (a sector's, its successors'
    /// and those kept for later sectors; `ludus merels plan` estimates it).
    pub tables_held: u64,
    /// The sectors whose files were read (checked or not).
    #[serde(skip)]
    pub files: Vec<Sector>,
}

impl VerifyReport {
    /// Every sector file was checked and every stored value holds.
    pub fn ok(&self) -> bool {
        self.failures == 0 && self.unchecked.is_empty()
    }
}

impl SectorCheck {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.more_failures == 0
    }
}

/// Failures listed per sector (the rest are counted).
const LISTED: usize = 20;

/// The most batches of positions one piece of a sector's parallel check
/// takes.
const PIECE_BATCHES: usize = 1 << 12;

/// The journal of passed sector checks in a database's directory: one JSON
/// object per line.
pub const JOURNAL: &str = "VERIFIED";

/// A passed sector check as the journal keeps it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Passed {
    sector: String,
    /// The SHA-256 of the sector's file.
    sha256: String,
    /// The SHA-256 of the successors' files' digests, in the solve order.
    inputs: String,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    max_residual: f64,
    error: f64,
}

/// The digests a sector's check depends on: its file's and its
/// successors' files'.
struct Files {
    sha256: String,
    inputs: String,
}

impl Passed {
    fn of(check: &SectorCheck, files: Files) -> Passed {
        Passed {
            sector: check.sector.clone(),
            sha256: files.sha256,
            inputs: files.inputs,
            positions: check.positions,
            wins: check.wins,
            draws: check.draws,
            losses: check.losses,
            max_residual: check.max_residual,
            error: check.error,
        }
    }

    fn check(&self) -> SectorCheck {
        SectorCheck {
            sector: self.sector.clone(),
            positions: self.positions,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            max_residual: self.max_residual,
            error: self.error,
            failures: Vec::new(),
            more_failures: 0,
            resumed: true,
        }
    }
}

/// The journal of a database: its passed checks by sector, read from and
/// written to [`JOURNAL`] (atomically, after each sector). A line that does
/// not parse is dropped: its sector is simply checked again.
struct Journal {
    path: PathBuf,
    passed: Vec<Passed>,
}

impl Journal {
    fn open(db: &Db) -> Journal {
        let path = db.dir().join(JOURNAL);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let passed = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        Journal { path, passed }
    }

    /// The passed check of a sector whose files had these digests.
    fn find(&self, sector: &str, files: &Files) -> Option<&Passed> {
        self.passed.iter().find(|q| q.sector == sector && q.sha256 == files.sha256 && q.inputs == files.inputs)
    }

    fn record(&mut self, p: Passed) -> Result<(), SolveError> {
        self.passed.retain(|q| q.sector != p.sector);
        self.passed.push(p);
        let mut text = String::new();
        for q in &self.passed {
            text.push_str(&serde_json::to_string(q).unwrap_or_default());
            text.push('\n');
        }
        engine::file::write_atomic(&self.path, text.as_bytes()).map_err(|e| SolveError::Write {
            path: self.path.clone(),
            error: match e {
                engine::file::WriteError::Io { source, .. } => source,
                other => std::io::Error::other(other.to_string()),
            },
        })
    }
}

/// What a check keeps across sectors: the journal, the journal of the
/// database without dice whose movement files this one shares (Murray's and
/// Bell's readings), the files' digests, and whether passed sectors are
/// taken from the journals.
struct Books<'a> {
    journal: Journal,
    shared: Option<Journal>,
    digests: Digests<'a>,
    resume: bool,
}

/// The SHA-256 of sector files, each read once.
struct Digests<'a> {
    db: &'a Db,
    known: HashMap<Sector, String>,
}

impl Digests<'_> {
    fn of(&mut self, s: Sector) -> Result<String, SolveError> {
        if let Some(d) = self.known.get(&s) {
            return Ok(d.clone());
        }
        let (digest, _) = sha256_file(&self.db.path(s))
            .map_err(|e| SolveError::Read { sector: s.key(), error: super::db::DbError::Io(e) })?;
        self.known.insert(s, digest.clone());
        Ok(digest)
    }
}

/// Checks every sector file of `sol`'s database (`sol` built with the
/// database and nothing solved: [`Solution::open`]), or only those of the
/// sectors with at most `max_men` men in all, on the board and in hand.
/// Every sector that passes goes to the database's [`JOURNAL`]; with
/// `resume`, a sector the journal holds with the same files is taken from it
/// instead of being checked again; so is a movement sector shared with the
/// database without dice whose journal holds it with the same files (the
/// same bytes checked against the same successors: one check serves every
/// reading that shares them).
pub fn verify(
    sol: &mut Solution,
    max_men: Option<u8>,
    resume: bool,
    obs: &dyn Observer,
) -> Result<VerifyReport, SolveError> {
    verify_within(sol, max_men, resume, VERIFY_MEMORY, obs)
}

/// [`verify`], keeping at most `limit` bytes of tables for later sectors:
/// when the tables a sector's check reads would bring it over, the others
/// are dropped first (and read again when a later sector needs them).
pub fn verify_within(
    sol: &mut Solution,
    max_men: Option<u8>,
    resume: bool,
    limit: u64,
    obs: &dyn Observer,
) -> Result<VerifyReport, SolveError> {
    let rules = sol.rules;
    let db = sol.database().cloned().ok_or(SolveError::NoDatabase("verifying"))?;
    let within = |s: &Sector| max_men.is_none_or(|m| s.men() <= m);
    let order: Vec<Sector> = solve_order(&rules).into_iter().flatten().filter(|s| s.is_stored() && within(s)).collect();
    let mut report = VerifyReport {
        rules: rules.label(),
        directory: db.dir().display().to_string(),
        sectors: Vec::new(),
        missing: Vec::new(),
        unchecked: Vec::new(),
        positions: 0,
        max_residual: 0.0,
        failures: 0,
        tables_held: 0,
        files: Vec::new(),
    };
    let mut books = Books {
        journal: Journal::open(&db),
        shared: db.movement_source().map(|source| Journal::open(&source)),
        digests: Digests { db: &db, known: HashMap::new() },
        resume,
    };
    let total: u64 = order.iter().filter(|&&s| db.has(s)).map(|&s| sol.indices(&[s])).sum();
    let (mut done, mut here) = (0u64, 0u64);
    for (k, &s) in order.iter().enumerate() {
        if !db.has(s) {
            report.missing.push(s.key());
            continue;
        }
        obs.overall(done, here, total);
        obs.group(&[s], k, order.len());
        let needs = verify_reads(&rules, s);
        let missing: u64 = needs
            .iter()
            .filter(|&&t| sol.table(t).is_none())
            .map(|&t| table_memory(&rules, &sol.board_tables, t))
            .sum();
        if sol.tables_bytes() + missing > limit {
            sol.retain_tables(|t| needs.contains(t));
        }
        let check = check_one(sol, &mut books, s, &mut report, obs)?;
        let indices = sol.indices(&[s]);
        done += indices;
        if check.as_ref().is_some_and(|c| !c.resumed) {
            here += indices;
        }
        report.tables_held = report.tables_held.max(sol.tables_bytes());
        if let Some(check) = check {
            report.positions += check.positions;
            report.max_residual = report.max_residual.max(check.max_residual);
            report.failures += check.failures.len() as u64 + check.more_failures;
            report.sectors.push(check);
        }
        // Keep only what the sectors still to check read.
        let later = read_after(&rules, &order, k);
        sol.retain_tables(|t| later.contains(t));
    }
    Ok(report)
}

/// The check of one sector whose file is there: taken from the journal
/// when resumed and nothing it read has changed, else done now (and, when it
/// passes, journalled); a file that cannot be read is a failure; `None` when
/// a successor's file is missing or damaged (the sector is listed as not
/// checked).
fn check_one(
    sol: &mut Solution,
    books: &mut Books,
    s: Sector,
    report: &mut VerifyReport,
    obs: &dyn Observer,
) -> Result<Option<SectorCheck>, SolveError> {
    let Books { journal, shared, digests, resume } = books;
    let db = digests.db;
    let rules = sol.rules;
    let stored = stored_successors(&rules, s);
    let present = stored.iter().all(|&c| db.has(c));
    let mut files = None;
    if present {
        let mut inputs = Sha256::new();
        for &c in &stored {
            inputs.update(digests.of(c)?.as_bytes());
        }
        let f =
            Files { sha256: digests.of(s)?, inputs: inputs.finalize().iter().map(|b| format!("{b:02x}")).collect() };
        if *resume {
            if let Some(earlier) = journal.find(&s.key(), &f) {
                report.files.push(s);
                return Ok(Some(earlier.check()));
            }
            let from_shared = shared.as_ref().filter(|_| s.is_movement()).and_then(|j| j.find(&s.key(), &f));
            if let Some(earlier) = from_shared.cloned() {
                let check = earlier.check();
                journal.record(earlier)?;
                report.files.push(s);
                return Ok(Some(check));
            }
        }
        files = Some(f);
    }
    if let Err(e) = sol.load_sector(s) {
        return Ok(Some(SectorCheck {
            sector: s.key(),
            positions: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            max_residual: 0.0,
            error: 0.0,
            failures: vec![Failure { position: "(the file)".into(), stored: e.to_string(), computed: String::new() }],
            more_failures: 0,
            resumed: false,
        }));
    }
    report.files.push(s);
    // A successor whose file failed its own check is not read: the values
    // checked against it would mean nothing (and a value missing where a
    // position is could not be read at all).
    let failed = |c: Sector| report.sectors.iter().any(|x| x.sector == c.key() && !x.passed());
    let mut complete = present;
    for &c in &stored {
        complete &= !failed(c) && sol.load_sector(c).unwrap_or(false);
    }
    let Some(files) = files.filter(|_| complete) else {
        report.unchecked.push(s.key());
        return Ok(None);
    };
    let check = check_sector(sol, s, rules.board.kind, obs);
    if check.passed() {
        journal.record(Passed::of(&check, files))?;
    }
    Ok(Some(check))
}

/// Why the progress rank `r` of a position worth `v` does not fall along
/// perfect play, if it does not.
fn progress_failure(sol: &Solution, s: Sector, st: &State, v: f64, r: u16) -> Option<String> {
    let rules = &sol.rules;
    for (throw, _) in rules.throw_outcomes(st) {
        let mut moves: Vec<(f64, u16)> = Vec::new();
        rules.for_each_action(st, throw, |_, child| {
            let value = -sol.interval(&child).map_or(f64::NAN, |c| c.v);
            let inside = Sector::of(&child) == s.mirror() && !rules.lost(&child);
            moves.push((value, if inside { sol.rank(&child) } else { 0 }));
        });
        let best = moves.iter().map(|m| m.0).fold(f64::NEG_INFINITY, f64::max);
        let ties = moves.iter().filter(|m| m.0 >= best - TIE);
        let (least, most) = ties.fold((u16::MAX, 0), |(l, h), m| (l.min(m.1), h.max(m.1)));
        let throw = match throw {
            Throw::Special => "special ",
            Throw::Normal => "normal ",
            Throw::None => "",
        };
        if v > 0.0 && least >= r {
            return Some(format!("rank {r}: after a {throw}throw the best moves' least rank is {least}"));
        }
        if v < 0.0 && most >= r {
            return Some(format!("rank {r}: after a {throw}throw a best move has rank {most}"));
        }
    }
    None
}

/// The sign of a stored value for the side to move: won 1, drawn (or worth
/// 0) 0, lost −1.
fn sign(e: Eval) -> i32 {
    match e {
        Eval::Dtm(v) => v.sign(),
        Eval::Exact(n) => n.signum() as i32,
        Eval::Chance(iv) => (iv.v > 0.0) as i32 - (iv.v < 0.0) as i32,
    }
}

fn check_sector(sol: &Solution, s: Sector, kind: BoardKind, obs: &dyn Observer) -> SectorCheck {
    let table = sol.table(s).expect("loaded");
    let ix = &table.indexer;
    let value_kind = table.values.kind();
    let error = table.meta.error;
    obs.begin(&format!("verify {}", s.key()), ix.size());
    let failures: Mutex<(Vec<Failure>, u64)> = Mutex::new((Vec::new(), 0));
    let fail = |failure: Failure| {
        let mut f = failures.lock().unwrap_or_else(|e| e.into_inner());
        if f.0.len() < LISTED {
            f.0.push(failure);
        } else {
            f.1 += 1;
        }
    };
    let describe = |stored: Eval| match stored {
        Eval::Dtm(v) => v.to_string(),
        Eval::Exact(n) => format!("{n}/{}", sol.den),
        Eval::Chance(iv) => format!("{:+.10} in [{:+.10}, {:+.10}]", iv.v, iv.lo, iv.hi),
    };
    // The values are read only where the marks of unused indices are right
    // (a value missing where a position is cannot be checked against).
    let size = ix.size();
    table.misplaced(&sol.rules).for_each(|(i, st)| match (st, table.at(i)) {
        (Some(st), _) => fail(Failure {
            position: Position::from_state(kind, Side::X, st).to_string(),
            stored: "no value (the mark of an index that is no position)".into(),
            computed: "a value: this is a position of the sector".into(),
        }),
        (None, stored) => fail(Failure {
            position: format!("(index {i})"),
            stored: stored.map_or_else(String::new, describe),
            computed: "nothing: no position has this index".into(),
        }),
    });
    let marks_hold = failures.lock().unwrap_or_else(|e| e.into_inner()).0.is_empty();
    // What the successors give, and why the stored value does not hold (a
    // description only when it does not).
    // `computed`: what the successors give without chance (read for a whole
    // batch of positions at once).
    let check = |st: &State, i: u64, stored: Eval, computed: Computed| -> (f64, Option<String>) {
        match (value_kind, stored, computed) {
            (Kind::Dtm, Eval::Dtm(v), Computed::Dtm(Some(c))) => (0.0, (c != v).then(|| c.to_string())),
            (Kind::Exact, Eval::Exact(n), Computed::Exact(Some(c))) => {
                (0.0, (c != n).then(|| format!("{c}/{}", sol.den)))
            }
            (_, Eval::Chance(iv), _) => {
                let c = sol.evaluate_interval(st);
                let ok = iv.lo <= c.hi + 1e-12 && c.lo <= iv.hi + 1e-12;
                let why = match table.rank_at(i) {
                    0 => None,
                    r => progress_failure(sol, s, st, iv.v, r),
                };
                let why = why.or_else(|| (!ok).then(|| format!("{:+.10} in [{:+.10}, {:+.10}]", c.v, c.lo, c.hi)));
                ((iv.v - c.v).abs(), why)
            }
            _ => (0.0, Some("a value of another kind".into())),
        }
    };
    // Each task counts on its own (won, drawn, lost; the largest residual);
    // failures, rare, go to the shared list. Without chance, the successors
    // of a batch of positions are read side by side.
    let add = |a: [u64; 3], b: [u64; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
    // Small pieces of work, so that no core waits through the last large
    // one alone (rayon splits a piece further only when it is stolen from).
    let batches = if marks_hold { size.div_ceil(VISIT_BATCH as u64) as usize } else { 0 };
    let (tally, residual) = (0..batches)
        .into_par_iter()
        .with_max_len(PIECE_BATCHES)
        .fold(
            || ([0u64; 3], 0f64, Cursor::default()),
            |(mut tally, mut residual, mut cursor), b| {
                let mut batch: ArrayVec<Pending, VISIT_BATCH> = ArrayVec::new();
                let b = b as u64;
                for i in b * VISIT_BATCH as u64..((b + 1) * VISIT_BATCH as u64).min(size) {
                    if let Some(stored) = table.at(i) {
                        batch.push((i, ix.state_at_cursor(&mut cursor, i), stored));
                    }
                }
                let states: ArrayVec<State, VISIT_BATCH> = batch.iter().map(|p| p.1).collect();
                let mut computed = [Computed::Chance; VISIT_BATCH];
                match value_kind {
                    Kind::Dtm => {
                        let mut v = [None; VISIT_BATCH];
                        sol.evaluate_dtm_each(&states, |_| true, &mut v[..states.len()]);
                        for (c, v) in computed.iter_mut().zip(v) {
                            *c = Computed::Dtm(v);
                        }
                    }
                    Kind::Exact => {
                        let mut v = [None; VISIT_BATCH];
                        sol.evaluate_exact_each(&states, |_| true, &mut v[..states.len()]);
                        for (c, v) in computed.iter_mut().zip(v) {
                            *c = Computed::Exact(v);
                        }
                    }
                    Kind::Chance => {}
                }
                for (&(i, ref st, stored), &computed) in batch.iter().zip(&computed) {
                    tally[(1 - sign(stored)) as usize] += 1;
                    let (r, failed) = check(st, i, stored, computed);
                    residual = residual.max(r);
                    if let Some(computed) = failed {
                        let position = Position::from_state(kind, Side::X, *st).to_string();
                        fail(Failure { position, stored: describe(stored), computed });
                    }
                }
                (tally, residual, cursor)
            },
        )
        .map(|(tally, residual, _)| (tally, residual))
        .reduce(|| ([0; 3], 0.0), |(a, r), (b, q)| (add(a, b), r.max(q)));
    // Where the marks fail no value is checked: the counts are the file's.
    let tally = if marks_hold {
        tally
    } else {
        (0..size)
            .into_par_iter()
            .filter_map(|i| table.at(i))
            .fold(
                || [0u64; 3],
                |mut t, e| {
                    t[(1 - sign(e)) as usize] += 1;
                    t
                },
            )
            .reduce(|| [0; 3], add)
    };
    obs.advance(ix.size());
    obs.finish();
    let (mut listed, more) = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    listed.sort_by(|a, b| a.position.cmp(&b.position));
    SectorCheck {
        sector: s.key(),
        positions: tally.iter().sum(),
        wins: tally[0],
        draws: tally[1],
        losses: tally[2],
        max_residual: residual,
        error: if value_kind == Kind::Chance { error } else { 0.0 },
        failures: listed,
        more_failures: more,
        resumed: false,
    }
}
