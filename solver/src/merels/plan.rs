//! The plan of a solve and the claims that let several processes share a
//! database.
//!
//! A game is solved group by group ([`solve_order`]); each group reads the
//! finished files of the sectors its moves lead to. [`plan`] lists every
//! group with its files, the groups it reads and its size and memory, so
//! that a workflow engine can schedule one job per group. A process that
//! solves a group first claims it ([`claim`]): an exclusive lock on
//! `<group>.lock` in the database directory, held while it works. The
//! operating system releases the lock of a process that dies, so an
//! abandoned claim is taken over by the next process that asks.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine::merels::Rules;
use serde::Serialize;

use super::checkpoint::Glimpse;
use super::index::{BoardTables, Indexer};
use super::sector::{Sector, solve_order, successors};
use super::strategy::{self, Moves};
use super::table::{Exact, Kind};

/// One group of the plan.
#[derive(Clone, Debug, Serialize)]
pub struct PlannedGroup {
    /// The group's name: the key of its first sector (`--group` takes the
    /// key of any of its sectors).
    pub key: String,
    /// Its sectors' keys.
    pub sectors: Vec<String>,
    /// The files it writes, relative to the database directory.
    pub files: Vec<String>,
    /// The groups whose files it reads (their keys).
    pub needs: Vec<String>,
    /// The files it reads, relative to the database directory.
    pub reads: Vec<String>,
    /// Indices of its sectors (positions and unused indices).
    pub indices: u64,
    /// Bytes of memory its solve needs: working arrays and the tables it
    /// reads (under chance with the children generated, the larger of a
    /// mill level's build with those tables and its iteration without
    /// them, as a solve from a database that keeps no table for later
    /// groups has it: `ludus merels solve --board nine`).
    pub memory: u64,
    /// Under chance, where play cycles: how the solve has the in-group
    /// children and parents within the plan's memory limit (`stored` in
    /// lists, `half` with the children alone listed where both lists would
    /// not fit, or `generated` where neither would; `memory` is then the
    /// need so).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Moves>,
    /// Bytes of the tables `ludus merels verify` holds while it checks the
    /// group's files (theirs, their successors' and those it keeps for the
    /// sectors checked later, within its limit); 0 when the group stores no
    /// file.
    pub verify_memory: u64,
}

/// Bytes of a group's working arrays, with [`FIXED_MEMORY`] for what does
/// not grow with it (`solver/tests/memory.rs` counts every allocation of
/// each group's solve, on every board and reading, against this). A solve
/// under chance with its parents generated may hold more, up to its limit,
/// for the parents it keeps to save time (`strategy::Room`).
pub fn working_memory(rules: &Rules, ix: &[Indexer], moves: Moves) -> u64 {
    FIXED_MEMORY + arrays_memory(rules, ix, moves)
}

/// How a solve allowed `limit` bytes has the in-group children and parents
/// of a group under chance (`--children auto`): in lists where the group
/// fits with them, else the children alone in lists where it fits so, else
/// both generated; and the memory it needs then, with the `reads` bytes of
/// tables it reads ([`solve_memory`], from a database).
pub fn moves_within(rules: &Rules, ix: &[Indexer], reads: u64, limit: u64) -> (Moves, u64) {
    fit_moves(limit, |moves| solve_memory(rules, ix, moves, reads, true))
}

/// The first way to have the in-group moves, fastest first, whose `need`
/// is within `limit`, else the one that needs least; and its need.
pub fn fit_moves(limit: u64, need: impl Fn(Moves) -> u64) -> (Moves, u64) {
    let mut best = (Moves::Stored, need(Moves::Stored));
    for moves in [Moves::Half, Moves::Generated] {
        if best.1 <= limit {
            break;
        }
        let n = need(moves);
        if n < best.1 {
            best = (moves, n);
        }
    }
    best
}

/// The memory of a group's solve with `tables` bytes of tables in memory
/// as it begins (those it reads among them). Where its parents are
/// generated under chance and the tables can be read again (`rereads`:
/// from a database), they are let go while each mill level is iterated
/// (`strategy::Successors`): the need is the larger of a level's build
/// with them and its iteration without them.
pub fn solve_memory(rules: &Rules, ix: &[Indexer], moves: Moves, tables: u64, rereads: bool) -> u64 {
    let working = working_memory(rules, ix, moves);
    match build_memory(rules, ix, moves) {
        Some(build) if !moves.lists_parents() && rereads => (build + tables).max(working),
        _ => working + tables,
    }
}

/// Under chance where play cycles, the bytes a mill level's build holds
/// (the group's arrays, the level's arrays of positions and one node's
/// strategy per position, which the build writes in place, and its buffers
/// and the sets of the level's positions and classes, 3 bytes a position
/// measured on nine's 3 v 4; where the children alone are listed, their
/// lists, 4 bytes per child and 4 per position, made after the rest of the
/// build, and each list's length for a while; the nodes' arrays are made
/// after the build, when
/// the tables it read are let go; see `arrays_memory`), with
/// [`FIXED_MEMORY`]; `None` for other groups.
fn build_memory(rules: &Rules, ix: &[Indexer], moves: Moves) -> Option<u64> {
    let group: Vec<Sector> = ix.iter().map(|x| x.sector()).collect();
    let lists = if moves.lists_children() { 4 + 4 + 4 * children_estimate(rules, &group) } else { 0 };
    (cyclic(rules, &group) && Kind::of(rules, group[0]) == Kind::Chance)
        .then(|| FIXED_MEMORY + level_phases(rules, ix, BUILT + 4 + lists).level)
}

/// Whether play cycles inside `group` (two sectors, or one that leads to
/// itself): its solve works on the group at once, not a sector after its
/// successors.
pub fn cyclic(rules: &Rules, group: &[Sector]) -> bool {
    group.len() > 1 || successors(rules, group[0]).contains(&group[0])
}

/// Bytes per position of a mill level's arrays held throughout its solve
/// (see `arrays_memory`).
const HELD: u64 = 1 + 4 + 4 + 1 + 2 * (8 + 4 + 1 + 1);

/// Bytes per position of a mill level's arrays as it is built: kind, two
/// exits and a flag, and one node's successor and choice.
const BUILT: u64 = 1 + 4 + 4 + 1 + 4 + 1;

/// Bytes per position of a finished mill level that a group's solve keeps
/// for the levels above and the tables: its code and progress rank.
const KEPT: u64 = 4 + 2;

/// Bytes per position of a mill level's result as its solve ends, while it
/// is kept: the first player's code, kind, and a rank with its position
/// (its index in the group is found from the level's set).
const SOLVED: u64 = 4 + 1 + 8;

/// The most a group's solve under chance holds, a mill level at a time,
/// when a level takes `per_position` bytes per position beside what the
/// group keeps: the sets of the level's positions and of those finished (a
/// bit per index and a count per 64 each, and for the level's a word per
/// 256 positions: [`SETS`]), and the codes and ranks of the levels finished
/// ([`KEPT`]); as a level's result is kept, the finished codes and set
/// before and after beside it ([`KEEPING`]); at the end the tables, codes
/// and ranks per index, beside the finished ones.
fn by_levels(rules: &Rules, ix: &[Indexer], per_position: u64) -> u64 {
    let phases = level_phases(rules, ix, per_position);
    phases.level.max(phases.kept).max(phases.end)
}

/// The most each phase of a group's solve under chance holds
/// ([`by_levels`]).
struct Phases {
    /// A level's arrays of `per_position` bytes a position, with the
    /// group's and the finished levels'.
    level: u64,
    /// A level's result as it is kept.
    kept: u64,
    /// The group's tables at the end.
    end: u64,
}

/// Bytes per index of the sets a group's solve under chance holds
/// throughout (the level's and the finished positions', 0.38 measured with
/// their counts and words).
const SETS: f64 = 0.4;

/// Bytes per index of the finished positions' set made anew as a level's
/// result is kept, beside the old one.
const KEEPING: f64 = 0.25;

fn level_phases(rules: &Rules, ix: &[Indexer], per_position: u64) -> Phases {
    let indices: u64 = ix.iter().map(|x| x.size()).sum();
    let group = (indices as f64 * SETS).ceil() as u64;
    let keeping = (indices as f64 * KEEPING).ceil() as u64;
    let mut below = 0u64;
    let (mut level, mut kept) = (0u64, 0u64);
    for share in strategy::level_shares(rules, ix) {
        let part = (indices as f64 * share).ceil() as u64;
        level = level.max(group + KEPT * below + part * per_position);
        kept = kept.max(group + keeping + KEPT * (2 * below + part) + SOLVED * part);
        below = (below + part).min(indices);
    }
    Phases { level, kept, end: group + KEPT * (below + indices) }
}

/// The memory of a group's solve that does not grow with the group: the
/// buffers of its threads and the small structures of fixed size (tens of
/// KiB measured).
pub const FIXED_MEMORY: u64 = 1 << 20;

/// Bytes of the arrays of a group's solve that grow with it.
fn arrays_memory(rules: &Rules, ix: &[Indexer], moves: Moves) -> u64 {
    let group: Vec<Sector> = ix.iter().map(|x| x.sector()).collect();
    let indices: u64 = ix.iter().map(|x| x.size()).sum();
    let per_index = match (cyclic(rules, &group), Kind::of(rules, group[0])) {
        // One mill level at a time (`strategy::solve`, beside what the group
        // keeps: `by_levels`), per position: its kind, two exits and a
        // flag, and per node (each position with each side to move) value,
        // successor, choice and a partial evaluation's mark (38 bytes, held
        // throughout; a position's index in the group is found from the
        // level's set, `strategy::Members::select`). Where the in-group
        // children are stored, their lists (the offsets of the children and the parents,
        // 4 bytes each, and 4 bytes per child in each; the record of each
        // position as built, 16, is less) and, beside them all, what the
        // phases hold for a while: a place in each side's list for the next
        // pass (8), a pass's change (12), and per node a partial
        // evaluation's place and old value (2 × 12).
        // Where only the children are listed, their lists (4 bytes per
        // child and 4 per position) and the phases as where both are
        // generated.
        // Where they are generated, the phases follow one another and only
        // the largest is added. The build writes each position in its place
        // and the warm start's bounds take the values' room, so neither adds
        // more than buffers; the largest are the ranking of the positions
        // ahead (`strategy::Group::rank_progress`: about 12 bytes per
        // candidate, in the groups measured at most 60 % of the positions,
        // their parents among the candidates found from the in-group
        // parents; the first copy's round buffers are freed before the
        // ranking that seeds the second, and the last ranking has the
        // strategies' and the marks' 10 bytes to itself), the rounding bound
        // (8 per node, in the room of the values, which give way to the
        // first player's codes, 4 per position, and of the partial rounds'
        // lists and flags), the partial rounds (their lists hold at most an
        // eighth of the positions, about 32 bytes each: 4 per position, and
        // the buffers of a batch) and the search for loops to hold (about 20
        // per candidate and 12 per link, few): 8 in all, which the memory
        // test holds every group of six and of nine up to 7 men to (at most
        // 95 % of the estimate used, nine up to 7 men).
        (true, Kind::Chance) => {
            let per_position = match moves {
                Moves::Stored => HELD + 4 + 4 + 8 * children_estimate(rules, &group) + 8 + 12 + 2 * (4 + 8),
                Moves::Half => HELD + 4 + 4 * children_estimate(rules, &group) + 8,
                Moves::Generated => HELD + 8,
            };
            return by_levels(rules, ix, per_position);
        }
        // One cell per position (a value, or the count of successors still
        // open), then the table.
        (true, _) => 2 + 2,
        (false, Kind::Exact) => Exact::width_for(group[0]) as u64,
        (false, Kind::Chance) => 4,
        (false, Kind::Dtm) => 2,
    };
    indices * per_index
}

/// The mean number of steps a position of the group has, rounded up: each
/// man of the side to move times the board's mean number of neighbours times
/// the share of empty points (flying: every empty point).
fn children_estimate(rules: &Rules, group: &[Sector]) -> u64 {
    let board = rules.board;
    let points = board.len() as f64;
    let degree = board.points().map(|p| board.neighbours(p).len() as f64).sum::<f64>() / points;
    group
        .iter()
        .map(|s| {
            let empty = points - f64::from(s.w + s.b);
            let reach = if rules.flying && s.w == 3 { empty } else { degree * empty / points };
            (f64::from(s.w) * reach).ceil() as u64
        })
        .max()
        .unwrap_or(0)
}

/// Bytes per index of a solved sector's table in memory (under chance a
/// movement sector's table may hold progress ranks beside its codes).
pub fn table_bytes(rules: &Rules, s: Sector) -> u64 {
    match Kind::of(rules, s) {
        Kind::Dtm => 2,
        Kind::Exact => Exact::width_for(s) as u64,
        Kind::Chance if s.is_movement() => 4 + 2,
        Kind::Chance => 4,
    }
}

/// Bytes per index of a solved sector's table as a solve reads it for a
/// group it leads to: the values alone ([`super::db::Db::load_values`]).
pub fn read_bytes(rules: &Rules, s: Sector) -> u64 {
    match Kind::of(rules, s) {
        Kind::Chance => 4,
        _ => table_bytes(rules, s),
    }
}

/// Bytes of a solved sector's table as a solve reads it for a group it
/// leads to.
pub fn read_memory(rules: &Rules, tables: &Arc<BoardTables>, s: Sector) -> u64 {
    Indexer::new(tables.clone(), s).size() * read_bytes(rules, s)
}

/// Bytes of a solved sector's table in memory.
pub fn table_memory(rules: &Rules, tables: &Arc<BoardTables>, s: Sector) -> u64 {
    Indexer::new(tables.clone(), s).size() * table_bytes(rules, s)
}

/// The sectors whose tables the check of the stored sectors `order[k + 1..]`
/// reads: those sectors and their successors. A check keeps no other table
/// once sector `order[k]` is done.
pub fn read_after(rules: &Rules, order: &[Sector], k: usize) -> Vec<Sector> {
    order[k + 1..].iter().flat_map(|&t| std::iter::once(t).chain(successors(rules, t))).collect()
}

/// The successors of `s` that are stored in files, in the order of
/// [`successors`].
pub fn stored_successors(rules: &Rules, s: Sector) -> Vec<Sector> {
    successors(rules, s).into_iter().filter(|c| c.is_stored()).collect()
}

/// The tables the check of stored sector `s` reads: its own and its stored
/// successors' (each once: a movement sector may be its own successor).
pub fn verify_reads(rules: &Rules, s: Sector) -> Vec<Sector> {
    let mut reads: Vec<Sector> = std::iter::once(s).chain(stored_successors(rules, s)).collect();
    reads.sort();
    reads.dedup();
    reads
}

/// For each of the stored sectors `order` (in solving order), the bytes of
/// the tables a check holds while it checks that sector: the sector's, its
/// stored successors' ([`verify_reads`]) and those kept for later sectors
/// ([`read_after`]), unless these would bring it over `limit` bytes: then
/// the check drops them first (and reads them again when needed).
pub fn verify_holds(rules: &Rules, order: &[Sector], bytes: impl Fn(Sector) -> u64, limit: u64) -> Vec<u64> {
    let mut held: Vec<Sector> = Vec::new();
    (0..order.len())
        .map(|k| {
            let needs = verify_reads(rules, order[k]);
            let sum = |set: &[Sector]| -> u64 { set.iter().map(|&t| bytes(t)).sum() };
            let missing: Vec<Sector> = needs.iter().copied().filter(|t| !held.contains(t)).collect();
            if sum(&held) + sum(&missing) > limit {
                held.retain(|t| needs.contains(t));
            }
            held.extend(missing);
            let holds = sum(&held);
            let later = read_after(rules, order, k);
            held.retain(|t| later.contains(t));
            holds
        })
        .collect()
}

/// The sectors outside `group` that its moves lead to and that have files.
pub fn group_reads(rules: &Rules, group: &[Sector]) -> Vec<Sector> {
    let mut out: Vec<Sector> =
        group.iter().flat_map(|&s| successors(rules, s)).filter(|c| !group.contains(c) && c.is_stored()).collect();
    out.sort();
    out.dedup();
    out
}

/// Every group of the game in solving order (only those whose sectors have
/// at most `max_men` men in all, if given).
pub fn plan(rules: &Rules, max_men: Option<u8>) -> Vec<PlannedGroup> {
    plan_within(rules, max_men, VERIFY_MEMORY)
}

/// The memory of tables a check keeps for later sectors by default (bytes):
/// beyond it they are dropped and read again when needed.
pub const VERIFY_MEMORY: u64 = 14 << 30;

/// [`plan`] for a solve given `limit` bytes (which decides how it has the
/// children under chance), each group's `verify_memory` for a check that
/// keeps at most
/// `verify_limit` bytes of tables for later sectors.
pub fn plan_within(rules: &Rules, max_men: Option<u8>, limit: u64) -> Vec<PlannedGroup> {
    let tables = BoardTables::new(rules.board);
    let indexer = |s: Sector| Indexer::new(tables.clone(), s);
    let size = |s: Sector| indexer(s).size();
    let order: Vec<Vec<Sector>> =
        solve_order(rules).into_iter().filter(|g| max_men.is_none_or(|m| g.iter().all(|s| s.men() <= m))).collect();
    let group_key = |s: Sector| order.iter().find(|g| g.contains(&s)).map(|g| g[0].key()).unwrap_or_else(|| s.key());
    let stored: Vec<Sector> = order.iter().flatten().copied().filter(|s| s.is_stored()).collect();
    let holds = verify_holds(rules, &stored, |s| table_memory(rules, &tables, s), limit);
    let verify_memory =
        |group: &[Sector]| stored.iter().zip(&holds).filter(|(s, _)| group.contains(s)).map(|(_, &h)| h).max();
    order
        .iter()
        .map(|group| {
            let reads = group_reads(rules, group);
            let indices: u64 = group.iter().map(|&s| size(s)).sum();
            let read_bytes: u64 = reads.iter().map(|&s| read_memory(rules, &tables, s)).sum();
            let ix: Vec<Indexer> = group.iter().map(|&s| indexer(s)).collect();
            let (moves, memory) = moves_within(rules, &ix, read_bytes, limit);
            let mut needs: Vec<String> = reads.iter().map(|&s| group_key(s)).collect();
            needs.sort();
            needs.dedup();
            PlannedGroup {
                key: group[0].key(),
                sectors: group.iter().map(|s| s.key()).collect(),
                files: group.iter().map(|s| file_name(*s)).collect(),
                needs,
                reads: reads.iter().map(|s| file_name(*s)).collect(),
                indices,
                memory,
                children: (cyclic(rules, group) && Kind::of(rules, group[0]) == Kind::Chance).then_some(moves),
                verify_memory: verify_memory(group).unwrap_or(0),
            }
        })
        .collect()
}

/// A number of bytes for people: `20.5 MiB`, `14.0 GiB`.
pub fn human_bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < units.len() {
        x /= 1024.0;
        u += 1;
    }
    format!("{x:.1} {}", units[u])
}

/// A sector's file name in the database directory.
pub fn file_name(s: Sector) -> String {
    format!("{}.sec", s.key())
}

/// A group claimed by this process: its lock is held until dropped, and the
/// lock file is removed then.
#[derive(Debug)]
pub struct Claim {
    path: PathBuf,
    file: File,
    /// The holder before this process, if it died holding the claim.
    pub abandoned_by: Option<String>,
}

impl Drop for Claim {
    fn drop(&mut self) {
        // Remove the file while still holding the lock: whoever opened it
        // meanwhile sees it gone and opens the path again.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The outcome of asking for a group.
#[derive(Debug)]
pub enum Claimed {
    /// This process holds it.
    Mine(Claim),
    /// Another live process holds it (its own description: pid and host).
    Busy(String),
}

/// This process as a claim describes it.
fn holder() -> String {
    let host = fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "?".into());
    format!("pid {} on {host}", std::process::id())
}

/// The lock file that claims group `key` in database directory `dir`.
pub fn lock_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.lock"))
}

/// Claims group `key` in database directory `dir` (created if missing),
/// without waiting.
pub fn claim(dir: &Path, key: &str) -> std::io::Result<Claimed> {
    fs::create_dir_all(dir)?;
    let path = lock_path(dir, key);
    loop {
        let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut who = String::new();
                let _ = file.read_to_string(&mut who);
                let who = who.trim();
                return Ok(Claimed::Busy(if who.is_empty() { "another process".into() } else { who.to_string() }));
            }
            Err(TryLockError::Error(e)) => return Err(e),
        }
        // The file locked must still be the one at the path (its holder
        // may have finished and removed it in between).
        let same = match (file.metadata(), fs::metadata(&path)) {
            (Ok(a), Ok(b)) => same_file(&a, &b),
            _ => false,
        };
        if !same {
            continue;
        }
        let mut before = String::new();
        file.read_to_string(&mut before)?;
        let before = before.trim().to_string();
        file.set_len(0)?;
        file.rewind()?;
        writeln!(file, "{}", holder())?;
        file.sync_all()?;
        let abandoned_by = (!before.is_empty()).then_some(before);
        return Ok(Claimed::Mine(Claim { path, file, abandoned_by }));
    }
}

/// Where an unfinished group stands in a database: the claim on it and
/// the progress its checkpoint saved ([`underway`]).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Underway {
    /// The claim's holder as its lock file names it ("pid N on host").
    pub claimed_by: Option<String>,
    /// Whether that process runs (`None` where this machine cannot tell:
    /// another host, or no `/proc`).
    pub running: Option<bool>,
    /// The progress saved, if any.
    pub saved: Option<SavedAt>,
}

/// A group's checkpoint as [`underway`] reads it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SavedAt {
    pub bytes: u64,
    /// When it was written, in seconds since the Unix epoch.
    pub unix_time: u64,
    /// The level it resumes at: the mill level under chance, the level of
    /// the propagation in a retrograde group.
    pub level: u64,
    /// Under chance, saved inside the mill level: the part of the
    /// iteration and the round, counted in the level.
    pub part: Option<String>,
    pub round: Option<u64>,
}

/// The claim and the saved progress of `group` in database directory
/// `dir`; `None` where it has neither. Reads the lock file and the first
/// bytes of the checkpoint only: it takes no lock and changes nothing.
pub fn underway(dir: &Path, rules: &Rules, tables: &Arc<BoardTables>, group: &[Sector]) -> Option<Underway> {
    let key = group[0].key();
    let claimed_by = fs::read_to_string(lock_path(dir, &key)).ok().map(|s| s.trim().to_string());
    let running = claimed_by.as_deref().and_then(holder_runs);
    let c = super::checkpoint::Checkpoint::of_group(dir, rules, &key);
    let ix: Vec<Indexer> = group.iter().map(|&s| Indexer::new(tables.clone(), s)).collect();
    let saved = c.glimpse(&ix, strategy::SAVED_PLACE_BYTES).and_then(|g| {
        let meta = fs::metadata(&c.path).ok()?;
        let unix_time = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
        let (level, place) = match g {
            Glimpse::Retrograde { level } => (level, None),
            Glimpse::Chance { head, inside } => {
                let (level, place) = strategy::saved_place(&head, inside)?;
                (u64::from(level), place)
            }
        };
        Some(SavedAt {
            bytes: meta.len(),
            unix_time,
            level,
            part: place.map(|p| p.0.to_string()),
            round: place.map(|p| p.1),
        })
    });
    (claimed_by.is_some() || saved.is_some()).then_some(Underway { claimed_by, running, saved })
}

/// Whether the process a claim names (`pid N on host`) runs, where this
/// machine can tell.
fn holder_runs(who: &str) -> Option<bool> {
    let (pid, host) = who.strip_prefix("pid ")?.split_once(" on ")?;
    let here = holder();
    let here_host = here.split_once(" on ").map(|x| x.1)?;
    let proc = Path::new("/proc");
    let pid: u32 = pid.trim().parse().ok()?;
    (host == here_host && proc.join("self").exists()).then(|| proc.join(pid.to_string()).exists())
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludus-claim-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_claim_excludes_others_until_dropped() {
        let dir = scratch("excl");
        let Claimed::Mine(c) = claim(&dir, "3-0-3-0").unwrap() else { panic!("first claim refused") };
        assert!(c.abandoned_by.is_none());
        match claim(&dir, "3-0-3-0").unwrap() {
            Claimed::Busy(who) => assert!(who.contains(&format!("pid {}", std::process::id())), "{who}"),
            Claimed::Mine(_) => panic!("claimed twice"),
        }
        assert!(matches!(claim(&dir, "4-0-3-0").unwrap(), Claimed::Mine(_)), "other groups are free");
        drop(c);
        assert!(!dir.join("3-0-3-0.lock").exists(), "the lock file is removed");
        assert!(matches!(claim(&dir, "3-0-3-0").unwrap(), Claimed::Mine(_)));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unlocked_leftover_claim_is_taken_over() {
        let dir = scratch("stale");
        fs::create_dir_all(&dir).unwrap();
        // What a killed process leaves: the file, without a lock.
        fs::write(dir.join("3-0-3-0.lock"), "pid 999999 on elsewhere\n").unwrap();
        let Claimed::Mine(c) = claim(&dir, "3-0-3-0").unwrap() else { panic!("stale claim not taken over") };
        assert_eq!(c.abandoned_by.as_deref(), Some("pid 999999 on elsewhere"));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_claim_s_holder_is_seen_running_or_not() {
        let here = holder();
        let host = here.split_once(" on ").unwrap().1;
        if Path::new("/proc/self").exists() {
            assert_eq!(holder_runs(&here), Some(true));
            // Above the largest pid Linux gives.
            assert_eq!(holder_runs(&format!("pid 4294967295 on {host}")), Some(false));
        }
        assert_eq!(holder_runs(&format!("pid {} on elsewhere-{host}", std::process::id())), None);
        assert_eq!(holder_runs("another process"), None);
        // A claim in a database, and no checkpoint.
        let dir = scratch("underway");
        let Claimed::Mine(c) = claim(&dir, "3-0-3-0").unwrap() else { panic!("claim refused") };
        let rules = Rules::new(engine::merels::BoardKind::Six, engine::merels::Dice::Schaedler);
        let tables = BoardTables::new(rules.board);
        let group = [Sector::from_key("3-0-3-0").unwrap()];
        let u = underway(&dir, &rules, &tables, &group).expect("claimed");
        assert_eq!(u.claimed_by.as_deref(), Some(here.as_str()));
        assert!(u.saved.is_none());
        drop(c);
        assert_eq!(underway(&dir, &rules, &tables, &group), None);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_plan_lists_every_group_after_those_it_reads() {
        use engine::merels::{BoardKind, Dice};
        for rules in
            [Rules::rota(), Rules::new(BoardKind::Three, Dice::None), Rules::new(BoardKind::Six, Dice::Schaedler)]
        {
            let p = plan(&rules, None);
            assert_eq!(p.len(), solve_order(&rules).len());
            for (i, g) in p.iter().enumerate() {
                for need in &g.needs {
                    let j = p.iter().position(|h| &h.key == need).expect("a needed group is planned");
                    assert!(j < i, "{} needs {need}, planned later", g.key);
                    assert!(g.reads.iter().any(|f| p[j].files.contains(f)));
                }
                assert!(g.indices > 0 && g.memory >= g.indices);
            }
        }
    }
}
