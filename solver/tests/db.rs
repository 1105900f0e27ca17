//! Sector databases: written atomically, reloaded and verified, damaged or
//! foreign files reported and solved again, interrupted solves resumed.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use engine::merels::{BoardKind, Dice, Rules, State};
use solver::merels::db::Db;
use solver::merels::plan;
use solver::merels::sector::successors;
use solver::merels::table::Eval;
use solver::merels::{
    BoardTables, Indexer, Interrupt, Observer, Sector, Silent, Solution, SolveError, SolveOptions, Table, Values,
};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ludus-db-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    d
}

/// The sector files of `rules` in the database at `dir`, by name, with
/// their bytes.
fn sector_files(dir: &Path, rules: Rules) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = fs::read_dir(Db::new(dir, rules).dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sec"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[derive(Default)]
struct Notes(Mutex<Vec<String>>);
impl Observer for Notes {
    fn note(&self, m: &str) {
        self.0.lock().unwrap().push(m.to_string());
    }
}

fn opts(dir: &Path) -> SolveOptions {
    SolveOptions { db: Some(dir.to_path_buf()), ..SolveOptions::default() }
}

fn values(sol: &Solution) -> Vec<(Sector, Vec<u8>)> {
    let mut v: Vec<(Sector, Vec<u8>)> = sol
        .tables()
        .map(|(s, t)| {
            let bytes = (0..t.indexer.size()).map(|i| format!("{:?}", t.at(i))).collect::<String>().into_bytes();
            (*s, bytes)
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v
}

#[test]
fn solves_are_stored_and_reloaded() {
    for dice in [Dice::None, Dice::Schaedler, Dice::Murray] {
        let dir = temp(&format!("reload-{dice}"));
        let rules = Rules::new(BoardKind::Three, dice);
        let first = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        assert!(first.records.iter().all(|r| !r.loaded));
        let db = first.database().unwrap();
        for (s, _) in first.tables() {
            assert!(db.path(*s).exists(), "{s}");
        }
        let leftovers = fs::read_dir(db.dir())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().to_string_lossy().ends_with(".tmp"))
            .count();
        assert_eq!(leftovers, 0);
        let second = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        assert!(second.records.iter().all(|r| r.loaded));
        assert_eq!(values(&first), values(&second));
        fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_database_opened_around_a_position_reads_its_sector_and_successors_only() {
    // Six men's morris under Murray's reading (chance in the placement,
    // movement without dice) and under Schaedler's (chance throughout): a
    // position from every 9th index of every sector, opened around alone,
    // has the value and the rated actions of the whole solve, with no table
    // in memory but its sector's and its successors'.
    for dice in [Dice::Murray, Dice::Schaedler] {
        let dir = temp(&format!("around-{dice}"));
        let rules = Rules::new(BoardKind::Six, dice);
        let whole = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        let mut checked = 0;
        for (s, t) in whole.tables() {
            let size = t.indexer.size();
            let Some(first) = (0..size).find(|&i| t.at(i).is_some()) else { continue };
            let near = Solution::around(rules, dir.clone(), &t.indexer.state(first)).unwrap();
            let mut allowed = successors(&rules, *s);
            allowed.push(*s);
            let held: Vec<Sector> = near.tables().map(|x| *x.0).collect();
            assert!(held.contains(s) && held.iter().all(|x| allowed.contains(x)), "{s}: {held:?}");
            for i in (first..size).step_by((size as usize / 150).max(1)) {
                let Some(e) = t.at(i) else { continue };
                let st = t.indexer.state(i);
                assert_eq!(near.eval(&st), Some(e), "{s} {i}");
                assert_eq!(
                    format!("{:?}", near.rate_actions(&st)),
                    format!("{:?}", whole.rate_actions(&st)),
                    "{s} {i}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// Three men's morris without dice solved into the database `dir`: the
/// rules, the solution, the file of its 3 v 3 sector and that file's bytes.
fn solved_three(dir: &Path) -> (Rules, Solution, Sector, PathBuf, Vec<u8>) {
    let rules = Rules::new(BoardKind::Three, Dice::None);
    let sol = Solution::solve_with(rules, &opts(dir), &Silent).unwrap();
    let target = Sector { w: 3, wf: 0, b: 3, bf: 0 };
    let path = sol.database().unwrap().path(target);
    let good = fs::read(&path).unwrap();
    (rules, sol, target, path, good)
}

#[test]
fn a_solve_from_a_sector_takes_exactly_what_play_reaches_from_it() {
    use std::collections::BTreeSet;
    let rules = Rules::new(BoardKind::Six, Dice::None);
    let whole = Solution::solve(rules, &Silent);
    let all = values(&whole);
    let order = solver::merels::sector::solve_order(&rules);
    for from in order.iter().step_by(9).map(|g| g[0]).chain([Sector::start(&rules)]) {
        let key = from.key();
        // The closure by plain repetition: add every successor until
        // nothing changes.
        let mut reach = BTreeSet::from([from]);
        loop {
            let more: BTreeSet<Sector> = reach.iter().flat_map(|&s| successors(&rules, s)).collect();
            let before = reach.len();
            reach.extend(more);
            if reach.len() == before {
                break;
            }
        }
        let part = Solution::solve_with(rules, &SolveOptions { from: Some(from), ..SolveOptions::default() }, &Silent)
            .unwrap();
        let solved: BTreeSet<Sector> = part.records.iter().flat_map(|r| r.sectors.iter().copied()).collect();
        let stored: BTreeSet<Sector> = reach.iter().copied().filter(|s| s.is_stored()).collect();
        assert_eq!(solved.iter().copied().filter(|s| s.is_stored()).collect::<BTreeSet<_>>(), stored, "{key}");
        assert!(solved.is_subset(&reach), "{key}");
        let got = values(&part);
        assert!(!got.is_empty(), "{key}");
        for (s, v) in &got {
            let same = all.iter().find(|(t, _)| t == s).map(|(_, w)| w);
            assert_eq!(same, Some(v), "{key}: {s}");
        }
    }
}

#[test]
fn damaged_and_foreign_files_are_reported_and_solved_again() {
    let dir = temp("damage");
    let (rules, first, target, path, good) = solved_three(&dir);

    // One flipped bit in the payload.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    fs::write(&path, &bad).unwrap();
    let notes = Notes::default();
    let again = Solution::solve_with(rules, &opts(&dir), &notes).unwrap();
    let msgs = notes.0.lock().unwrap().clone();
    assert!(msgs.iter().any(|m| m.contains("checksum mismatch")), "{msgs:?}");
    assert_eq!(values(&first), values(&again));
    // Rewritten: the same values (the header differs only in timing and checksum).
    assert_eq!(fs::read(&path).unwrap()[128..], good[128..], "the damaged file is rewritten");

    // Truncated.
    fs::write(&path, &good[..good.len() / 2]).unwrap();
    let notes = Notes::default();
    Solution::solve_with(rules, &opts(&dir), &notes).unwrap();
    assert!(notes.0.lock().unwrap().iter().any(|m| m.contains("truncated")));

    // A file of other rules under this name.
    let other = Rules { flying: true, ..rules };
    let odir = temp("damage-other");
    let osol = Solution::solve_with(other, &opts(&odir), &Silent).unwrap();
    fs::copy(osol.database().unwrap().path(target), &path).unwrap();
    let notes = Notes::default();
    let again = Solution::solve_with(rules, &opts(&dir), &notes).unwrap();
    assert!(notes.0.lock().unwrap().iter().any(|m| m.contains("other rules")));
    assert_eq!(values(&first), values(&again));

    // Far longer than its header says (a sparse file: refused from its
    // length alone, nothing of it is read).
    fs::write(&path, &good).unwrap();
    fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(20 << 30).unwrap();
    let notes = Notes::default();
    Solution::solve_with(rules, &opts(&dir), &notes).unwrap();
    assert!(notes.0.lock().unwrap().iter().any(|m| m.contains("longer than its header")), "{:?}", notes.0);

    // Not a database at all.
    fs::write(&path, b"hello").unwrap();
    let notes = Notes::default();
    Solution::solve_with(rules, &opts(&dir), &notes).unwrap();
    assert!(notes.0.lock().unwrap().iter().any(|m| m.contains("not a ludus sector file")));
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&odir).unwrap();
}

#[test]
fn an_interrupted_solve_resumes_where_it_stopped() {
    let dir = temp("resume");
    let rules = Rules::new(BoardKind::Six, Dice::None);
    // Endgames only: as if the solve had been stopped there.
    let partial = Solution::solve_with(rules, &SolveOptions { max_men: Some(8), ..opts(&dir) }, &Silent).unwrap();
    assert!(!partial.complete());
    assert!(partial.eval(&State::start(6)).is_none());
    let done: Vec<Vec<Sector>> = partial.records.iter().map(|r| r.sectors.clone()).collect();
    let full = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
    assert!(full.complete());
    for r in &full.records {
        assert_eq!(r.loaded, done.contains(&r.sectors), "{:?}", r.sectors);
    }
    // The same as a solve from nothing.
    let fresh = Solution::solve(rules, &Silent);
    let st = State::start(6);
    assert_eq!(full.dtm(&st), fresh.dtm(&st));
    fs::remove_dir_all(&dir).unwrap();
}

/// Asks the solve to stop at its `at`-th step of progress.
struct Trip {
    at: u64,
    steps: std::sync::atomic::AtomicU64,
    interrupt: Interrupt,
}
impl Observer for Trip {
    fn advance(&self, _: u64) {
        if self.steps.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1 == self.at {
            self.interrupt.request(15);
        }
    }
}

#[test]
fn an_interrupted_group_saves_its_progress_and_the_same_solve_resumes_it() {
    for dice in [Dice::None, Dice::Schaedler] {
        let rules = Rules::new(BoardKind::Six, dice);
        let whole_dir = temp(&format!("whole-{dice}"));
        // Counted on a solve never stopped: its steps of progress.
        let count = Trip { at: 0, steps: 0.into(), interrupt: Interrupt::default() };
        Solution::solve_with(rules, &SolveOptions { max_men: Some(9), ..opts(&whole_dir) }, &count).unwrap();
        let steps = count.steps.into_inner();
        let whole = sector_files(&whole_dir, rules);
        let mut inside = 0;
        for at in [steps / 10, steps / 2, steps - steps / 10] {
            let dir = temp(&format!("interrupt-{dice}-{at}"));
            let interrupt = Interrupt::default();
            // A checkpoint at every chance: the interrupt is what stops.
            let stopping = SolveOptions {
                max_men: Some(9),
                checkpoint_every: std::time::Duration::MAX,
                interrupt: Some(interrupt.clone()),
                ..opts(&dir)
            };
            let trip = Trip { at, steps: 0.into(), interrupt };
            let Err(SolveError::Interrupted { why, at: group, saved, .. }) =
                Solution::solve_with(rules, &stopping, &trip)
            else {
                panic!("{dice}, step {at}: the solve was asked to stop");
            };
            assert_eq!(why, 15);
            let db = Db::new(&dir, rules);
            assert!(!db.dir().join(format!("{group}.lock")).exists(), "the claim is let go");
            if let Some(path) = &saved {
                inside += 1;
                assert_eq!(path, &db.dir().join(format!("{group}.resume")));
            }
            // What the plan reads of the saved progress (the checkpoint's
            // first bytes), as the resumed solve finds it.
            let order = solver::merels::sector::solve_order(&rules);
            let sectors = order.iter().find(|g| g[0].key() == group).expect("the group");
            let tables = BoardTables::new(rules.board);
            let u = plan::underway(db.dir(), &rules, &tables, sectors);
            assert_eq!(u.is_some(), saved.is_some(), "{dice}, step {at}: {u:?}");
            let notes = Notes::default();
            let again = SolveOptions { max_men: Some(9), ..opts(&dir) };
            Solution::solve_with(rules, &again, &notes).unwrap();
            let notes = notes.0.into_inner().unwrap();
            let resuming = notes.iter().find(|n| n.starts_with("resuming the group"));
            assert_eq!(resuming.is_some(), saved.is_some(), "{dice}, step {at}: {notes:?}");
            if let (Some(note), Some(u)) = (resuming, u) {
                assert_eq!(u.claimed_by, None);
                let s = u.saved.expect("saved");
                let place = match (s.part, s.round) {
                    (Some(part), Some(round)) => format!("mill level {}, {part}, round {round} from", s.level),
                    _ if dice == Dice::None => format!("level {} from", s.level),
                    _ => format!("mill level {} from", s.level),
                };
                assert!(note.contains(&place), "{note} / {place}");
            }
            assert_eq!(sector_files(&dir, rules), whole, "{dice}, step {at}");
            fs::remove_dir_all(&dir).unwrap();
        }
        assert!(inside > 0, "{dice}: some interrupt came inside a group");
        fs::remove_dir_all(&whole_dir).unwrap();
    }
}

#[test]
fn sector_files_are_refused_with_what_is_wrong() {
    use solver::merels::db::{Corruption, DbError};
    let dir = temp("typed");
    let (rules, first, target, path, good) = solved_three(&dir);
    let db = first.database().unwrap().clone();
    let indexer = || Indexer::new(BoardTables::new(rules.board), target);
    assert!(db.load(indexer()).is_ok());
    let problem = |bytes: &[u8]| {
        fs::write(&path, bytes).unwrap();
        match db.load(indexer()) {
            Err(DbError::Corrupt { path: p, problem }) => {
                assert_eq!(p, path);
                problem
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    };
    assert_eq!(problem(b"hello"), Corruption::NotASectorFile);
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 1;
    assert_eq!(problem(&bad), Corruption::Checksum);
    let payload = good.len() as u64 - 128;
    // Damage inside the compressed payload stops its decoding; the rest is
    // read all the same and the checksum tells what is wrong.
    let mut bad = good.clone();
    bad[128 + payload as usize / 2] ^= 0xff;
    assert_eq!(problem(&bad), Corruption::Checksum);
    // Another kind under a valid checksum: the payload does not decode.
    let mut other_kind = good.clone();
    other_kind[22] = if good[22] == 8 { 9 } else { 8 };
    let mut crc = crc32fast::Hasher::new();
    crc.update(&other_kind[..40]);
    crc.update(&other_kind[44..]);
    other_kind[40..44].copy_from_slice(&crc.finalize().to_le_bytes());
    assert_eq!(problem(&other_kind), Corruption::Kind(other_kind[22]));
    assert_eq!(problem(&good[..good.len() - 1]), Corruption::Truncated { payload: payload - 1, header: payload });
    let mut long = good.clone();
    long.push(0);
    assert_eq!(problem(&long), Corruption::TooLong { payload: payload + 1, header: payload });
    let mut version = good.clone();
    version[8] = 99;
    assert_eq!(problem(&version), Corruption::Version(99));
    // The file of another sector under this one's name.
    let other = Sector { w: 3, wf: 0, b: 2, bf: 1 };
    let foreign = fs::read(db.path(other)).unwrap_or_default();
    if !foreign.is_empty() {
        assert!(matches!(problem(&foreign), Corruption::OtherSector { .. } | Corruption::Indices { .. }));
    }
    fs::remove_file(&path).unwrap();
    assert!(matches!(db.load(indexer()), Err(DbError::Missing)));
    // Another rules' directory holding this file.
    let flying = Db::new(&dir, Rules { flying: true, ..rules });
    fs::create_dir_all(flying.dir()).unwrap();
    fs::write(flying.path(target), &good).unwrap();
    assert!(matches!(flying.load(indexer()), Err(DbError::Corrupt { problem: Corruption::OtherRules(_), .. })));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_group_too_large_for_the_memory_limit_is_refused() {
    let dir = temp("memory");
    let rules = Rules::new(BoardKind::Six, Dice::None);
    let opts = SolveOptions { memory_limit: 200_000, ..opts(&dir) };
    let e = Solution::solve_with(rules, &opts, &Silent).err().expect("refused");
    assert!(matches!(e, solver::merels::SolveError::Memory { need, limit: 200_000, .. } if need > 200_000), "{e}");
    // Sizes in the unit that suits them (0.0 GiB said nothing).
    assert!(e.to_string().contains("needs about") && e.to_string().contains("more than the 195.3 KiB allowed"), "{e}");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn murray_and_bell_share_their_movement_sectors_with_the_game_without_dice() {
    use solver::merels::db::Db;
    let none = Rules::new(BoardKind::Six, Dice::None);
    let (shared, alone) = (temp("share"), temp("share-alone"));
    Solution::solve_with(none, &SolveOptions { keep_all: false, ..opts(&shared) }, &Silent).unwrap();
    let none_db = Db::new(&shared, none);
    for dice in [Dice::Murray, Dice::Bell] {
        let rules = Rules::new(BoardKind::Six, dice);
        let sol = Solution::solve_with(rules, &opts(&shared), &Silent).unwrap();
        let db = Db::new(&shared, rules);
        let movement: Vec<_> = sol.records.iter().filter(|r| r.sectors[0].is_movement()).collect();
        assert!(!movement.is_empty());
        for r in &movement {
            assert!(r.loaded, "{dice}: movement group {} solved again", r.sectors[0].key());
            for &s in &r.sectors {
                assert_eq!(fs::read(db.path(s)).unwrap(), fs::read(none_db.path(s)).unwrap(), "{dice} {}", s.key());
            }
        }
        // The same values as a solve in memory, placement sectors included.
        assert!(values(&sol) == values(&Solution::solve(rules, &Silent)), "{dice}: other values");
        // Solved alone, its movement files are the game without dice's, byte
        // for byte.
        let solo = Solution::solve_with(rules, &SolveOptions { keep_all: false, ..opts(&alone) }, &Silent).unwrap();
        let solo_db = Db::new(&alone, rules);
        for r in solo.records.iter().filter(|r| r.sectors[0].is_movement()) {
            assert!(!r.loaded);
            for &s in &r.sectors {
                assert_eq!(fs::read(solo_db.path(s)).unwrap(), fs::read(none_db.path(s)).unwrap(), "{}", s.key());
            }
        }
        fs::remove_dir_all(&alone).ok();
    }
    fs::remove_dir_all(&shared).ok();
}

#[test]
fn a_check_holds_at_most_the_tables_the_plan_estimates() {
    // `ludus merels plan` follows the check's order and what it keeps for
    // later sectors: where every table has the width the plan counts, the
    // most a check holds at once is the plan's figure exactly; under chance
    // the plan also counts progress ranks a sector may not have.
    for (dice, max_men) in [(Dice::None, None), (Dice::Murray, None), (Dice::Schaedler, Some(9))] {
        let dir = temp(&format!("verify-memory-{dice}"));
        let rules = Rules::new(BoardKind::Six, dice);
        let o = SolveOptions { max_men, keep_all: false, ..opts(&dir) };
        Solution::solve_with(rules, &o, &Silent).unwrap();
        let mut sol = Solution::solve_with(rules, &SolveOptions { max_men: Some(0), ..o }, &Silent).unwrap();
        assert_eq!(sol.tables_bytes(), 0, "{dice}: nothing read before the check");
        let r = solver::merels::verify::verify(&mut sol, max_men, false, &Silent).unwrap();
        assert!(
            r.ok() && r.sectors.len() >= 10,
            "{dice}: {} sectors, missing {:?}, unchecked {:?}",
            r.sectors.len(),
            r.missing,
            r.unchecked
        );
        let planned = solver::merels::plan::plan(&rules, max_men).iter().map(|g| g.verify_memory).max().unwrap();
        let within_plan = |held: u64, planned: u64| {
            if dice == Dice::Schaedler {
                assert!(held > 0 && held <= planned, "{dice}: held {held} of {planned}");
            } else {
                assert_eq!(held, planned, "{dice}");
            }
        };
        within_plan(r.tables_held, planned);
        // With no room to keep tables for later sectors, each check reads
        // again what it needs: the same results, less held, as planned.
        assert_eq!(sol.tables_bytes(), 0, "{dice}: the check dropped its tables at the end");
        let tight = solver::merels::verify::verify_within(&mut sol, max_men, false, 1, &Silent).unwrap();
        let counts = |r: &solver::merels::verify::VerifyReport| -> Vec<(String, u64, u64, u64, u64)> {
            r.sectors.iter().map(|c| (c.sector.clone(), c.positions, c.wins, c.draws, c.losses)).collect()
        };
        assert!(tight.ok() && counts(&tight) == counts(&r), "{dice}: another result with little memory");
        let planned_tight =
            solver::merels::plan::plan_within(&rules, max_men, 1).iter().map(|g| g.verify_memory).max().unwrap();
        within_plan(tight.tables_held, planned_tight);
        assert!(planned_tight < planned, "{dice}: {planned_tight} of {planned}");
        fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn verify_passes_on_solved_databases_and_finds_a_changed_value() {
    for dice in [Dice::None, Dice::Schaedler, Dice::Murray] {
        let dir = temp(&format!("verify-{dice}"));
        let rules = Rules::new(BoardKind::Three, dice);
        Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        let check_with = |dir: &Path, resume: bool| {
            let o = SolveOptions { max_men: Some(0), keep_all: false, ..opts(dir) };
            let mut sol = Solution::solve_with(rules, &o, &Silent).unwrap();
            solver::merels::verify::verify(&mut sol, None, resume, &Silent).unwrap()
        };
        let check = |dir: &Path| check_with(dir, false);
        let r = check(&dir);
        assert!(r.ok(), "{dice}: {:?}", r.sectors.iter().flat_map(|s| &s.failures).collect::<Vec<_>>());
        assert_eq!(r.sectors.len(), 7, "{dice}");
        assert!(r.missing.is_empty());
        assert!(r.sectors.iter().all(|c| !c.resumed));
        // Every stored position checked once, with the counts of its file.
        let solved = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        for c in &r.sectors {
            let t = solved.table(Sector::from_key(&c.sector).unwrap()).unwrap();
            let mut counts = [0u64; 3];
            for e in (0..t.indexer.size()).filter_map(|i| t.at(i)) {
                let sign = match e {
                    Eval::Dtm(v) => v.sign(),
                    Eval::Exact(n) => n.signum() as i32,
                    Eval::Chance(iv) => (iv.v > 0.0) as i32 - (iv.v < 0.0) as i32,
                };
                counts[(1 - sign) as usize] += 1;
            }
            assert_eq!(c.positions, counts.iter().sum::<u64>(), "{dice} {}", c.sector);
            assert_eq!([c.wins, c.draws, c.losses], counts, "{dice} {}", c.sector);
        }

        // Resumed, every sector comes from the journal with the same figures.
        let resumed = check_with(&dir, true);
        assert!(resumed.ok() && resumed.sectors.iter().all(|c| c.resumed), "{dice}");
        let figures = |r: &solver::merels::verify::VerifyReport| -> Vec<_> {
            r.sectors.iter().map(|c| (c.sector.clone(), c.positions, c.wins, c.draws, c.losses)).collect()
        };
        assert_eq!(figures(&resumed), figures(&r), "{dice}");
        assert_eq!(resumed.positions, r.positions);

        // Change one stored value of the movement sector and store it with a
        // valid checksum: only the successors can tell.
        let s = Sector { w: 3, wf: 0, b: 3, bf: 0 };
        let sol = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        let db = sol.database().unwrap().clone();
        let t = sol.table(s).unwrap();
        let i = (0..t.indexer.size()).find(|&i| t.at(i).is_some()).unwrap();
        let values = match &t.values {
            Values::Dtm(v) => {
                let mut v = v.clone();
                v[i as usize] = if v[i as usize] == 0 { 2 } else { 0 };
                Values::Dtm(v)
            }
            Values::Chance(v) => {
                let mut v = v.clone();
                v[i as usize] = if v[i as usize] > (1 << 30) { 0 } else { 1 << 31 };
                Values::Chance(v)
            }
            Values::Exact(v) => {
                let den = sol.den;
                Values::Exact(solver::merels::table::Exact::from_fn(rules.men(), s, v.len(), |j| {
                    v.get(j).map(|x| {
                        if j != i as usize {
                            x
                        } else if x == 0 {
                            den
                        } else {
                            -x
                        }
                    })
                }))
            }
        };
        db.store(&Table::new(t.indexer.clone(), values, t.meta)).unwrap();
        // Resumed, the changed file and every sector reading it are checked
        // again (the change is found), the others come from the journal.
        let r = check_with(&dir, true);
        assert!(!r.ok(), "{dice}: a changed value passed a resumed check");
        for c in &r.sectors {
            let reads = successors(&rules, Sector::from_key(&c.sector).unwrap()).contains(&s);
            assert_eq!(c.resumed, c.sector != "3-0-3-0" && !reads, "{dice} {}", c.sector);
        }
        assert!(r.sectors.iter().any(|c| c.sector == "3-0-3-0" && !c.failures.is_empty()), "{dice}");
        let r = check(&dir);
        assert!(!r.ok(), "{dice}: a changed value passed");
        assert!(r.sectors.iter().any(|c| c.sector == "3-0-3-0" && !c.failures.is_empty()), "{dice}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// A file with a valid checksum whose marks of unused indices are wrong: a
/// position without a value, or a value where no position is. The check
/// names both, reads no sector through the damaged file (those that would
/// are not checked), and certifies nothing.
#[test]
fn verify_finds_values_missing_or_stored_where_no_position_is() {
    use solver::merels::value::{CODE_UNUSED, UNUSED};
    for dice in [Dice::None, Dice::Schaedler, Dice::Murray] {
        let dir = temp(&format!("verify-unused-{dice}"));
        let rules = Rules::new(BoardKind::Three, dice);
        let sol = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
        let db = sol.database().unwrap().clone();
        let s = Sector { w: 3, wf: 0, b: 3, bf: 0 };
        let t = sol.table(s).unwrap();
        let used = (0..t.indexer.size()).find(|&i| t.at(i).is_some()).unwrap();
        let unused = (0..t.indexer.size()).find(|&i| t.at(i).is_none()).unwrap();
        let stored = (0..t.indexer.size()).filter(|&i| t.at(i).is_some()).count() as u64;
        let values = match &t.values {
            Values::Dtm(v) => {
                let mut v = v.clone();
                (v[unused as usize], v[used as usize]) = (v[used as usize], UNUSED);
                Values::Dtm(v)
            }
            Values::Chance(v) => {
                let mut v = v.clone();
                (v[unused as usize], v[used as usize]) = (v[used as usize], CODE_UNUSED);
                Values::Chance(v)
            }
            Values::Exact(v) => {
                let moved = v.get(used as usize);
                Values::Exact(solver::merels::table::Exact::from_fn(rules.men(), s, v.len(), |j| match j as u64 {
                    j if j == used => None,
                    j if j == unused => moved,
                    _ => v.get(j),
                }))
            }
        };
        db.store(&Table::new(t.indexer.clone(), values, t.meta)).unwrap();
        drop(sol);
        let o = SolveOptions { max_men: Some(0), keep_all: false, ..opts(&dir) };
        let mut sol = Solution::solve_with(rules, &o, &Silent).unwrap();
        let r = solver::merels::verify::verify(&mut sol, None, false, &Silent).unwrap();
        assert!(!r.ok(), "{dice}: a damaged file passed");
        let c = r.sectors.iter().find(|c| c.sector == "3-0-3-0").expect("checked");
        let why: Vec<&str> = c.failures.iter().map(|f| f.computed.as_str()).collect();
        assert!(why.iter().any(|w| w.contains("this is a position")), "{dice}: {why:?}");
        assert!(why.iter().any(|w| w.contains("no position has this index")), "{dice}: {why:?}");
        // Its counts are the file's (one value moved, none checked).
        assert_eq!(c.positions, stored, "{dice}");
        assert_eq!(c.wins + c.draws + c.losses, stored, "{dice}");
        // Every sector that reads it is left unchecked, none checked.
        let readers: Vec<String> = r
            .unchecked
            .iter()
            .filter(|k| successors(&rules, Sector::from_key(k).unwrap()).contains(&s))
            .cloned()
            .collect();
        assert!(!readers.is_empty() && readers.len() == r.unchecked.len(), "{dice}: {:?}", r.unchecked);
        for c in &r.sectors {
            assert!(!successors(&rules, Sector::from_key(&c.sector).unwrap()).contains(&s) || c.sector == "3-0-3-0");
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// Murray's movement files are the game without dice's: a resumed check
/// takes them from that database's journal when the digests agree, and
/// checks them when they do not.
#[test]
fn verify_takes_shared_movement_sectors_from_the_journal_without_dice() {
    use solver::merels::db::Db;
    use solver::merels::verify::{JOURNAL, VerifyReport, verify};
    let dir = temp("verify-shared");
    let (none, murray) = (Rules::new(BoardKind::Three, Dice::None), Rules::new(BoardKind::Three, Dice::Murray));
    let check = |rules: Rules, resume: bool| -> VerifyReport {
        let o = SolveOptions { max_men: Some(0), keep_all: false, ..opts(&dir) };
        let mut sol = Solution::solve_with(rules, &o, &Silent).unwrap();
        verify(&mut sol, None, resume, &Silent).unwrap()
    };
    let figures = |r: &VerifyReport| -> Vec<_> {
        r.sectors.iter().map(|c| (c.sector.clone(), c.positions, c.wins, c.draws, c.losses)).collect()
    };
    let moving = |key: &str| Sector::from_key(key).unwrap().is_movement();
    for rules in [none, murray] {
        Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
    }
    let (none_journal, murray_journal) =
        (Db::new(&dir, none).dir().join(JOURNAL), Db::new(&dir, murray).dir().join(JOURNAL));
    assert!(check(none, false).ok());
    // Checked in full: nothing from any journal.
    let whole = check(murray, false);
    assert!(whole.ok() && whole.sectors.iter().all(|c| !c.resumed));
    assert!(whole.sectors.iter().any(|c| moving(&c.sector)) && whole.sectors.iter().any(|c| !moving(&c.sector)));
    // Resumed without a journal of its own: the movement sectors come from
    // the journal without dice, the placement sectors are checked.
    fs::remove_file(&murray_journal).unwrap();
    let resumed = check(murray, true);
    assert!(resumed.ok());
    for c in &resumed.sectors {
        assert_eq!(c.resumed, moving(&c.sector), "{}", c.sector);
    }
    assert_eq!(figures(&resumed), figures(&whole));
    // What it took is in its own journal now.
    assert!(check(murray, true).sectors.iter().all(|c| c.resumed));
    // A digest that differs: checked again.
    fs::remove_file(&murray_journal).unwrap();
    let text = fs::read_to_string(&none_journal).unwrap();
    let changed: String = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["sha256"] = serde_json::Value::String("0".repeat(64));
            format!("{v}\n")
        })
        .collect();
    fs::write(&none_journal, changed).unwrap();
    let r = check(murray, true);
    assert!(r.ok() && r.sectors.iter().all(|c| !c.resumed));
    assert_eq!(figures(&r), figures(&whole));
    fs::remove_dir_all(&dir).ok();
}

/// Six men's endgames up to 7 men under Schädler's dice, in several rule
/// variants: every stored value holds against its successors, and each
/// sector's proven error (which includes the gap between what the first
/// player's strategy guarantees and what the best reply to it gets) is
/// within the tolerance of an exact value.
#[test]
fn six_mens_endgames_under_chance_verify_and_are_exact() {
    let base = Rules::new(BoardKind::Six, Dice::Schaedler);
    let variants = [
        ("default", base),
        ("flying", Rules { flying: true, ..base }),
        ("special-20", Rules { special_72: 20, ..base }),
        ("no-take-from-mills", Rules { no_take_from_mills: true, ..base }),
    ];
    for (name, rules) in variants {
        let dir = temp(&format!("six7-{name}"));
        let o = SolveOptions { max_men: Some(7), ..opts(&dir) };
        let sol = Solution::solve_with(rules, &o, &Silent).unwrap();
        for (s, t) in sol.tables() {
            assert!(t.meta.error <= 1e-6, "{name} {s}: proven error {}", t.meta.error);
        }
        let o = SolveOptions { max_men: Some(0), keep_all: false, ..opts(&dir) };
        let mut sol = Solution::solve_with(rules, &o, &Silent).unwrap();
        let r = solver::merels::verify::verify(&mut sol, None, false, &Silent).unwrap();
        assert!(r.ok(), "{name}: {:?}", r.sectors.iter().flat_map(|s| &s.failures).take(5).collect::<Vec<_>>());
        assert!(r.sectors.iter().any(|c| c.sector == "3-0-4-0"), "{name}");
        if name == "default" {
            // A progress rank lowered to 1 where perfect play needs more
            // moves to leave the group: the ranks no longer fall along it.
            let s = Sector { w: 3, wf: 0, b: 4, bf: 0 };
            sol.load_sector(s).unwrap();
            let t = sol.table(s).unwrap();
            let i = (0..t.indexer.size()).find(|&i| t.rank_at(i) >= 2).expect("a rank of 2 or more");
            let mut rank = t.rank.clone();
            rank[i as usize] = 1;
            let values = match &t.values {
                Values::Chance(v) => Values::Chance(v.clone()),
                _ => panic!("chance values"),
            };
            let db = sol.database().unwrap().clone();
            db.store(&Table::with_rank(t.indexer.clone(), values, t.meta, rank)).unwrap();
            let mut sol = Solution::solve_with(rules, &o, &Silent).unwrap();
            let r = solver::merels::verify::verify(&mut sol, None, false, &Silent).unwrap();
            let failed: Vec<_> =
                r.sectors.iter().filter(|c| !c.failures.is_empty()).map(|c| c.sector.clone()).collect();
            assert_eq!(failed, ["3-0-4-0"], "a lowered rank");
            assert!(r.sectors.iter().flat_map(|c| &c.failures).all(|f| f.computed.contains("rank")));
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// A table that cannot be stored leaves the database as it was: no
/// temporary file behind, and the error names the file.
#[test]
fn a_failed_store_leaves_nothing_behind() {
    let dir = temp("failed-store");
    let rules = Rules::new(BoardKind::Three, Dice::None);
    let sol = Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
    let db = sol.database().unwrap().clone();
    let (s, t) = sol.tables().next().unwrap();
    let path = db.path(*s);
    // The sector's file name taken by a directory: the table cannot go there.
    fs::remove_file(&path).unwrap();
    fs::create_dir(&path).unwrap();
    let before: Vec<_> = fs::read_dir(db.dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
    let Values::Dtm(v) = &t.values else { panic!("three without dice is solved in plies") };
    let err = db.store(&Table::new(t.indexer.clone(), Values::Dtm(v.clone()), t.meta)).unwrap_err();
    assert!(err.to_string().contains(&path.display().to_string()), "{err}");
    let after: Vec<_> = fs::read_dir(db.dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(before, after, "the directory changed");
    fs::remove_dir_all(&dir).unwrap();
}

/// A solve that resumes from a finished database loads every group again
/// one after another; the tables it keeps for later groups give way, so that
/// no more than the memory limit of tables is ever held (where each group's
/// own tables and those it reads fit), and the values are the same.
#[test]
fn a_resumed_solve_holds_tables_within_the_memory_limit() {
    use solver::merels::plan::{group_reads, table_memory};
    use solver::merels::sector::solve_order;
    let dir = temp("tables-peak");
    let rules = Rules::new(BoardKind::Six, Dice::None);
    let lean = |limit: u64| SolveOptions { keep_all: false, memory_limit: limit, ..opts(&dir) };
    let first = Solution::solve_with(rules, &lean(14 << 30), &Silent).unwrap();
    assert!(first.complete());
    let tables = solver::merels::BoardTables::new(rules.board);
    let size = |s: &Sector| table_memory(&rules, &tables, *s);
    // The most one group needs at once: its own tables and those it reads.
    let need = solve_order(&rules)
        .iter()
        .map(|g| g.iter().chain(group_reads(&rules, g).iter()).map(size).sum::<u64>())
        .max()
        .unwrap();
    let roomy = Solution::solve_with(rules, &lean(14 << 30), &Silent).unwrap();
    assert!(roomy.records.iter().all(|r| r.loaded));
    assert!(roomy.tables_peak > need, "the test needs a limit that bites: {} <= {need}", roomy.tables_peak);
    let tight = Solution::solve_with(rules, &lean(need), &Silent).unwrap();
    assert!(tight.records.iter().all(|r| r.loaded));
    assert!(tight.tables_peak <= need, "{} > {need}", tight.tables_peak);
    let st = State::start(6);
    assert_eq!(tight.dtm(&st), first.dtm(&st));
    assert_eq!(roomy.dtm(&st), first.dtm(&st));
    fs::remove_dir_all(&dir).unwrap();
}

/// A solve reads only the values of the sectors its group leads to, not
/// their progress ranks, and writes the same bytes; the ranks come back
/// whole when play needs them.
#[test]
fn a_group_solve_reads_its_successors_values_alone() {
    let dir = temp("values-alone");
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
    let lean = SolveOptions { keep_all: false, ..opts(&dir) };
    let whole = Solution::solve_with(rules, &lean, &Silent).unwrap();
    let db = whole.database().unwrap().clone();
    let (group, below) = (Sector { w: 4, wf: 0, b: 4, bf: 0 }, Sector { w: 3, wf: 0, b: 4, bf: 0 });
    assert!(successors(&rules, group).contains(&below));
    let before = fs::read(db.path(group)).unwrap();
    let ranks = whole.table(below).map(|t| t.rank.clone());
    fs::remove_file(db.path(group)).unwrap();
    let mut one =
        Solution::solve_with(rules, &SolveOptions { group: Some(group.key()), ..lean.clone() }, &Silent).unwrap();
    assert_eq!(fs::read(db.path(group)).unwrap(), before, "the same bytes");
    let read = one.table(below).expect("read for the solve");
    assert!(read.ranks_left && read.rank.is_empty(), "values alone");
    let file_ranks = Db::new(&dir, rules).load(Indexer::new(BoardTables::new(rules.board), below)).unwrap().rank;
    assert!(file_ranks.iter().any(|&r| r > 0), "the sector below has ranks in its file");
    assert!(one.load_sector(below).unwrap());
    let back = one.table(below).unwrap();
    assert!(!back.ranks_left);
    assert_eq!(back.rank, file_ranks);
    if let Some(r) = ranks {
        assert_eq!(r, file_ranks);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A solve a group at a time fits in the memory the plan gives each group,
/// with and without dice: tables kept for later groups give up their
/// progress ranks, or are dropped and read again, when the room is needed, as
/// the plan counts the successors read (their values alone). No group falls
/// back to generating its children, and the files are those of a solve
/// without a limit, byte for byte.
#[test]
fn a_solve_fits_the_memory_its_plan_gives() {
    for dice in [Dice::None, Dice::Schaedler] {
        let rules = Rules::new(BoardKind::Six, dice);
        let limit = solver::merels::plan::plan(&rules, None).iter().map(|g| g.memory).max().unwrap();
        let (roomy_dir, tight_dir) = (temp("plan-roomy"), temp("plan-tight"));
        let roomy = SolveOptions { keep_all: false, ..opts(&roomy_dir) };
        Solution::solve_with(rules, &roomy, &Silent).unwrap();
        let notes = Notes::default();
        let tight_opts = SolveOptions { keep_all: false, memory_limit: limit, ..opts(&tight_dir) };
        let tight = Solution::solve_with(rules, &tight_opts, &notes).unwrap_or_else(|e| panic!("{dice}: {e}"));
        assert!(tight.complete());
        let notes = notes.0.into_inner().unwrap();
        assert!(notes.is_empty(), "{dice}: as the plan says, within {limit} bytes: {notes:?}");
        let (a, b) = (sector_files(&tight_dir, rules), sector_files(&roomy_dir, rules));
        assert!(!a.is_empty());
        assert!(a == b, "{dice}: the limited solve wrote other files");
        fs::remove_dir_all(&roomy_dir).unwrap();
        fs::remove_dir_all(&tight_dir).unwrap();
    }
}

/// With its parents generated (its children too, or listed), a group's
/// solve (six's groups up to 10 men) lets the tables in memory go while
/// each mill level is iterated and reads its successors' values again for
/// the next level's exits (from the database; a solve in memory keeps
/// them): the same files as a solve with its children and parents in
/// lists, which keeps the tables throughout.
#[test]
fn generated_children_let_the_tables_go_between_mill_levels() {
    use solver::merels::strategy::Moves;
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
    let (kept_dir, gone_dir) = (temp("tables-kept"), temp("tables-gone"));
    // Every group up to 10 men: several mill levels in 4 v 6 and 5 v 5.
    let solve = |dir: &Path, moves| {
        let o = SolveOptions { keep_all: false, moves: Some(moves), max_men: Some(10), ..opts(dir) };
        Solution::solve_with(rules, &o, &Silent).unwrap_or_else(|e| panic!("{e}"))
    };
    let kept = solve(&kept_dir, Moves::Stored);
    assert_eq!(kept.rereads, 0);
    for moves in [Moves::Generated, Moves::Half] {
        let gone = solve(&gone_dir, moves);
        assert_eq!(gone.records.len(), kept.records.len());
        assert!(gone.records.iter().any(|r| r.sectors.contains(&Sector { w: 5, wf: 0, b: 5, bf: 0 })));
        assert!(gone.rereads > 0, "{moves:?}: the tables were never let go");
        let in_memory = SolveOptions { max_men: Some(8), moves: Some(moves), ..SolveOptions::default() };
        assert_eq!(Solution::solve_with(rules, &in_memory, &Silent).unwrap().rereads, 0);
        let (a, b) = (sector_files(&gone_dir, rules), sector_files(&kept_dir, rules));
        assert!(!a.is_empty());
        assert!(a == b, "{moves:?}: letting the tables go changed the files");
        fs::remove_dir_all(&gone_dir).unwrap();
    }
    fs::remove_dir_all(&kept_dir).unwrap();
}

#[test]
fn a_stopped_solve_counts_the_groups_its_database_holds() {
    use solver::merels::sector::solve_order;
    let dir = temp("stopped-count");
    let rules = Rules::new(BoardKind::Six, Dice::None);
    Solution::solve_with(rules, &opts(&dir), &Silent).unwrap();
    let order = solve_order(&rules);
    let groups = order.len();
    assert!(groups > 3);
    let stop = Interrupt::default();
    stop.request(7);
    let stopped = |group: Option<String>| {
        let o = SolveOptions { interrupt: Some(stop.clone()), group, ..opts(&dir) };
        match Solution::solve_with(rules, &o, &Silent).err().expect("stopped") {
            SolveError::Interrupted { why, at, solved, groups: n, .. } => {
                assert_eq!((why, n), (7, groups));
                (at, solved)
            }
            e => panic!("{e}"),
        }
    };
    // Every group solved: a whole solve stopped at its first group says so.
    assert_eq!(stopped(None), (order[0][0].key(), groups));
    // The second group's files gone: asked for alone, it stops with every
    // other group done, not with the one group before it in the order.
    let db = Db::new(&dir, rules);
    for &s in &order[1] {
        fs::remove_file(db.path(s)).unwrap();
    }
    let key = order[1][0].key();
    let (at, solved) = stopped(Some(key.clone()));
    assert_eq!((at, solved), (key, groups - 1));
    let e = SolveError::Interrupted { why: 7, at: order[1][0].key(), solved, groups, saved: None };
    assert!(e.to_string().contains(&format!("({} of {groups} groups done)", groups - 1)), "{e}");
    fs::remove_dir_all(&dir).ok();
}
