//! A solve under chance saved at any of its chances to save and stopped
//! there (between mill levels, and inside a level's discounted search, its
//! game itself, its second copy and a later discount's search), then started again from its
//! checkpoint, writes the same tables as one never stopped: values,
//! progress ranks and header, to the bit. So do
//! a solve that saves as often as it can (each save makes the next round
//! whole) and one whose checkpoint is damaged (it starts again).

use super::{indexers, six_known};
use engine::merels::{BoardKind, Dice, Rules};
use solver::merels::checkpoint::Checkpoint;
use solver::merels::strategy::{self, Moves, Room, Stats};
use solver::merels::{Observer, Silent, Table, Values};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Default)]
struct Notes(Mutex<Vec<String>>);
impl Observer for Notes {
    fn note(&self, message: &str) {
        self.0.lock().expect("notes").push(message.to_string());
    }
}

fn same(label: &str, a: &[Table], b: &[Table]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        let (Values::Chance(vx), Values::Chance(vy)) = (&x.values, &y.values) else { panic!("chance values") };
        assert!(vx == vy, "{label}: values differ");
        assert_eq!(x.rank, y.rank, "{label}: progress ranks differ");
        assert_eq!(x.meta, y.meta, "{label}: headers differ");
    }
}

/// A scratch directory of this process for the checkpoints of a test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-chance-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Group `group` of six under Schädler's dice solved with its lists stored
/// and checkpoint `c`: its tables, `None` where the checkpoint stopped it.
fn solve_six(group: &[&str], c: Option<&Checkpoint>, obs: &dyn Observer) -> Option<Vec<Table>> {
    solve_six_in(group, Room::new(Moves::Stored, 0), c, obs).map(|(tables, _)| tables)
}

/// [`solve_six`] in `room`, with the effort.
fn solve_six_in(group: &[&str], room: Room, c: Option<&Checkpoint>, obs: &dyn Observer) -> Option<(Vec<Table>, Stats)> {
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
    let known = six_known(rules);
    let Ok(solved) = strategy::solve_resuming(&rules, &mut &**known, indexers(known, group), 0.0, room, obs, c);
    solved
}

#[test]
fn a_stopped_solve_resumes_to_the_same_tables() {
    let known = six_known(Rules::new(BoardKind::Six, Dice::Schaedler));
    let dir = scratch("resume");
    for (g, group) in [&["4-0-4-0"][..], &["4-0-5-0", "5-0-4-0"]].into_iter().enumerate() {
        let solve = |c: Option<&Checkpoint>, obs: &dyn Observer| solve_six(group, c, obs);
        let whole = solve(None, &Silent).expect("no checkpoint, no stop");
        let mut c = Checkpoint {
            path: dir.join(format!("group{g}.resume")),
            rules: [1, 2, 3, 4, 5, 6],
            every: Duration::MAX,
            stop_at: None,
            interrupt: None,
        };
        // Stopped at its k-th chance, for k growing by a third, then
        // resumed.
        let (mut k, mut last) = (1, 0);
        let mut inside = 0u64;
        loop {
            c.stop_at = Some(k);
            let Some(done) = solve(Some(&c), &Silent) else {
                assert!(c.path.is_file(), "{group:?}: saved where it stopped ({k})");
                c.stop_at = None;
                let notes = Notes::default();
                let resumed = solve(Some(&c), &notes).expect("runs to the end");
                let notes = notes.0.lock().expect("notes").clone();
                assert!(notes.iter().any(|n| n.starts_with("resuming the group at mill level")), "{notes:?}");
                inside += u64::from(notes.iter().any(|n| n.contains(", round ")));
                same(&format!("{group:?} stopped at {k}"), &whole, &resumed);
                c.remove();
                last = k;
                k += 1 + k / 3;
                continue;
            };
            // Past its last chance: it ran through.
            same(&format!("{group:?} never stopped"), &whole, &done);
            break;
        }
        // Levels and rounds of the first search: many chances, most of them
        // inside a level.
        eprintln!("{group:?}: {last} chances at least, {inside} of the stops inside a level");
        assert!(last > 10 && inside > 5, "{group:?}: {last} chances at least, {inside} of the stops inside a level");
        // Stopped again and again, a fortieth of its chances after resuming
        // each time; a save cut short (its temporary file left by a killed
        // solve) is cleared by the next save.
        let stale = dir.join(format!(".group{g}.resume.4242.tmp"));
        std::fs::write(&stale, b"cut short").expect("stale temporary");
        c.stop_at = Some((last / 40).max(2));
        let mut stops = 0;
        let notes = Notes::default();
        let chained = loop {
            match solve(Some(&c), &notes) {
                Some(t) => break t,
                None => stops += 1,
            }
            assert!(stops < 10 * last, "{group:?}: no end to the stops");
        };
        assert!(stops > 2);
        // Resumed in every part of a level's iteration: the discounted
        // search, the game itself and the second copy.
        let notes = notes.0.into_inner().expect("notes");
        for part in ["the discounted search", "the game itself", "the second copy"] {
            assert!(notes.iter().any(|n| n.contains(&format!(", {part}, round "))), "{group:?}, {part}: {notes:?}");
        }
        assert!(!stale.exists(), "{group:?}: the stale temporary file is removed");
        same(&format!("{group:?} stopped {stops} times"), &whole, &chained);
        c.remove();
        // Saving as often as it can: the rounds after each save are whole.
        c.stop_at = None;
        c.every = Duration::ZERO;
        same(&format!("{group:?} saving always"), &whole, &solve(Some(&c), &Silent).expect("runs to the end"));
        assert!(c.path.is_file(), "{group:?}: saved");
        c.remove();
        // A damaged checkpoint is reported, removed, and the group solved
        // from the start.
        c.every = Duration::MAX;
        c.stop_at = Some(last / 2);
        assert!(solve(Some(&c), &Silent).is_none());
        let mut bytes = std::fs::read(&c.path).expect("checkpoint");
        let at = bytes.len() / 2;
        bytes[at] ^= 0x10;
        std::fs::write(&c.path, bytes).expect("damaged checkpoint");
        c.stop_at = None;
        let notes = Notes::default();
        same(&format!("{group:?} damaged"), &whole, &solve(Some(&c), &notes).expect("runs to the end"));
        let notes = notes.0.lock().expect("notes").clone();
        assert!(notes.iter().any(|n| n.contains("checksum mismatch")), "{notes:?}");
        // A checkpoint of another group is not taken for this one.
        c.stop_at = Some(3);
        assert!(solve(Some(&c), &Silent).is_none());
        let other = indexers(known, &["3-0-4-0", "4-0-3-0"]);
        assert!(matches!(c.load_chance(&other), Err(solver::merels::checkpoint::Unusable::OtherGroup)));
        c.remove();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the first discount leaves a gap (six's 4 v 6 group, its mill level
/// 1), the second discount's search is saved and resumed too: stopped at
/// every other chance, again and again, the group reaches the same tables.
#[test]
fn the_second_discount_is_saved_and_resumed() {
    let group = ["4-0-6-0", "6-0-4-0"];
    let whole = solve_six(&group, None, &Silent).expect("no checkpoint, no stop");
    stopped_at_every_other_chance(
        &group,
        Room::new(Moves::Stored, 0),
        &whole,
        "second-discount",
        "the second discount's search",
    );
}

/// Solves `group` in `room`, stopped at every other chance to save and
/// resumed, again and again, in scratch directory `name`: it reaches the
/// tables `whole`, and some resumption is in the part named `part`.
fn stopped_at_every_other_chance(group: &[&str], room: Room, whole: &[Table], name: &str, part: &str) {
    let dir = scratch(name);
    let c = Checkpoint {
        path: dir.join("group.resume"),
        rules: [1, 2, 3, 4, 5, 6],
        every: Duration::MAX,
        stop_at: Some(2),
        interrupt: None,
    };
    let notes = Notes::default();
    let mut stops = 0;
    let chained = loop {
        match solve_six_in(group, room, Some(&c), &notes) {
            Some((t, _)) => break t,
            None => stops += 1,
        }
        assert!(stops < 1000, "no end to the stops");
    };
    let notes = notes.0.into_inner().expect("notes");
    assert!(notes.iter().any(|n| n.contains(&format!(", {part}, round "))), "{notes:?}");
    same(&format!("{group:?} stopped {stops} times"), whole, &chained);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cuts the checkpoint at `path` to half its length once a resumed solve
/// has checked it and begins to build the level it resumes in (before it
/// reads the saved strategies), and keeps the notes.
struct CutAfterCheck {
    path: std::path::PathBuf,
    cut: std::sync::atomic::AtomicBool,
    notes: Notes,
}

impl Observer for CutAfterCheck {
    fn begin(&self, label: &str, _total: u64) {
        let resuming = self.notes.0.lock().expect("notes").iter().any(|n| n.starts_with("resuming the group"));
        if label == "strategy iteration: exits"
            && resuming
            && !self.cut.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            let len = std::fs::metadata(&self.path).expect("checkpoint").len();
            let file = std::fs::OpenOptions::new().write(true).open(&self.path).expect("checkpoint");
            file.set_len(len / 2).expect("cut short");
        }
    }
    fn note(&self, message: &str) {
        self.notes.note(message);
    }
}

/// A checkpoint whose strategies cannot be read whole once the level they
/// belong to is built again (the file cut short after it was checked) is
/// reported and removed, and the group solved from its start: the same
/// tables as a solve never stopped.
#[test]
fn strategies_that_cannot_be_read_start_the_group_again() {
    let dir = scratch("unreadable");
    let solve = |c: Option<&Checkpoint>, obs: &dyn Observer| solve_six(&["4-0-5-0", "5-0-4-0"], c, obs);
    let whole = solve(None, &Silent).expect("no checkpoint, no stop");
    let c = Checkpoint {
        path: dir.join("group.resume"),
        rules: [1, 2, 3, 4, 5, 6],
        every: Duration::MAX,
        stop_at: Some(6),
        interrupt: None,
    };
    assert!(solve(Some(&c), &Silent).is_none(), "stopped at its sixth chance to save");
    let c = Checkpoint { stop_at: None, ..c };
    let obs = CutAfterCheck { path: c.path.clone(), cut: false.into(), notes: Notes::default() };
    let again = solve(Some(&c), &obs).expect("runs to the end");
    let notes = obs.notes.0.into_inner().expect("notes");
    assert!(obs.cut.into_inner(), "{notes:?}");
    assert!(
        notes.iter().any(|n| n.starts_with("resuming the group at mill level") && n.contains(", round ")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("the checkpoint is cut short")), "{notes:?}");
    assert!(!c.path.exists(), "the unreadable checkpoint is removed");
    same("strategies unreadable", &whole, &again);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under larger discounts than the solver's, 4 v 6 of six needs a third
/// search: the second leaves a gap (its strategies fall short by about 6
/// times the discount), the third closes it; saved and stopped at every
/// second chance, the solve goes through the third discount's search and
/// ends with the same tables.
#[test]
fn a_third_discount_closes_the_gap_and_is_saved_and_resumed() {
    let group = ["4-0-6-0", "6-0-4-0"];
    let room = |discounts| Room { discounts, ..Room::new(Moves::Stored, 0) };
    let (_, two) = solve_six_in(&group, room(&[0.1, 1e-4]), None, &Silent).expect("no checkpoint, no stop");
    assert_eq!(two.discounts, 2);
    assert!(two.gap > 1e-5, "the second discount leaves a gap: {:e}", two.gap);
    let three = room(&[0.1, 1e-4, 1e-7]);
    let (whole, st) = solve_six_in(&group, three, None, &Silent).expect("no checkpoint, no stop");
    assert_eq!(st.discounts, 3);
    assert!(st.gap < 1e-8, "the third discount closes the gap: {:e}", st.gap);
    // The default discounts reach the same values within the two errors.
    let default = solve_six(&group, None, &Silent).expect("no checkpoint, no stop");
    super::partial_rounds::agree_within_errors("three discounts and the default", &whole, &default);
    stopped_at_every_other_chance(&group, three, &whole, "third-discount", "the third discount's search");
}
