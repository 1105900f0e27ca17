//! The start's P(win), P(draw), P(loss) in the report: without chance they
//! follow from the value, and equal the Markov chain of optimal play.

use engine::merels::{BoardKind, Dice, Rules};
use solver::merels::markov::{Policy, leader_chances};
use solver::merels::report::report;
use solver::merels::{Silent, Solution};

#[test]
fn chances_without_chance_equal_the_chain_of_optimal_play() {
    for r in [Rules::rota(), Rules::new(BoardKind::Three, Dice::None), Rules::new(BoardKind::Six, Dice::None)] {
        let sol = Solution::solve(r, &Silent);
        let start = report(&sol, 0.0).start.expect("the start is solved");
        let chain = leader_chances(&sol, Policy::Perfect, Policy::Perfect);
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
        assert!(close(start.p_win, chain.leader_wins), "{}: {:?} against {chain:?}", r.label(), start.p_win);
        assert!(close(start.p_draw, chain.endless), "{}: {:?} against {chain:?}", r.label(), start.p_draw);
        assert!(close(start.p_loss, chain.leader_loses), "{}: {:?} against {chain:?}", r.label(), start.p_loss);
    }
}

#[test]
fn chances_under_chance_come_from_the_chain() {
    let sol = Solution::solve(Rules::new(BoardKind::Three, Dice::Schaedler), &Silent);
    let start = report(&sol, 0.0).start.expect("the start is solved");
    let chain = leader_chances(&sol, Policy::Perfect, Policy::Perfect);
    assert_eq!(start.p_win, Some(chain.leader_wins));
    let total = start.p_win.unwrap() + start.p_draw.unwrap() + start.p_loss.unwrap();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
}

#[test]
fn chances_close_where_play_is_absorbed_slowly() {
    // Six men's morris with the special throw at even odds: the value is 0
    // and play under optimal strategies is long (over 1,600 plies expected
    // from the start), so the chain's sweeps stop far apart and the bounds
    // come from the expected visits.
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler).try_with_special_72(36).expect("a valid chance");
    let sol = Solution::solve(rules, &Silent);
    let start = report(&sol, 0.0).start.expect("the start is solved");
    let (win, loss, error) = (start.p_win.unwrap(), start.p_loss.unwrap(), start.p_error.unwrap());
    assert!(error < 1e-9, "P(win) {win}, P(loss) {loss} ± {error}");
    let v = sol.interval(&engine::merels::State::start(rules.men())).unwrap().v;
    assert!((win - loss - v).abs() < 1e-6, "P(win) − P(loss) = {} against the value {v}", win - loss);
    assert!(win > 0.49 && loss > 0.49, "P(win) {win}, P(loss) {loss}");
}

#[test]
fn chances_a_layer_at_a_time_from_the_database_equal_the_chain() {
    // Murray's and Bell's readings: the chances carried forward through the
    // placement layers, each sector's successors read from the database
    // alone, against the whole chain with every table in memory (which
    // plays on through the movement phase).
    use solver::merels::SolveError;
    use solver::merels::SolveOptions;
    use solver::merels::markov::{layered_chances, layered_chances_in_chunks};
    let mut boards = vec![
        Rules::new(BoardKind::Three, Dice::Murray),
        Rules::new(BoardKind::Three, Dice::Bell),
        Rules::new(BoardKind::Six, Dice::Murray),
    ];
    boards.push(Rules::new(BoardKind::Three, Dice::Murray).with_diagonals(true).expect("three has diagonals"));
    for rules in boards {
        let dir = std::env::temp_dir().join(format!("ludus-layered-{}-{}", std::process::id(), rules.label()));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = SolveOptions { db: Some(dir.clone()), ..SolveOptions::default() };
        let mut whole = Solution::solve_with(rules, &opts, &Silent).unwrap();
        let chain = leader_chances(&whole, Policy::Perfect, Policy::Perfect);
        // With every table in memory, none is dropped.
        let kept = whole.tables().count();
        let in_memory = layered_chances(&mut whole, u64::MAX, &Silent).unwrap().expect("chance only in placement");
        assert_eq!(whole.tables().count(), kept, "{}", rules.label());
        // Read back with nothing kept in memory.
        let mut sol = Solution::solve_with(rules, &SolveOptions { keep_all: false, ..opts }, &Silent).unwrap();
        sol.retain_tables(|_| false);
        let layered = layered_chances(&mut sol, u64::MAX, &Silent).unwrap().expect("chance only in placement");
        // Three positions expanded at a time: many runs, merged as they come.
        let in_threes = layered_chances_in_chunks(&mut sol, u64::MAX, 3, &Silent).unwrap().expect("layered");
        let label = rules.label();
        assert_eq!(in_threes.states, layered.states, "{label}");
        // Too little memory for the layers: an error that says so.
        let err = layered_chances(&mut sol, 100, &Silent).expect_err("too little memory");
        assert!(matches!(err, SolveError::ChancesMemory { limit: 100, .. }), "{label}: {err}");
        assert!(err.to_string().contains("more than the 100.0 B allowed (--memory)"), "{label}: {err}");
        for c in [layered, in_memory, in_threes] {
            for (a, b, name) in [
                (c.leader_wins, chain.leader_wins, "P(win)"),
                (c.leader_loses, chain.leader_loses, "P(loss)"),
                (c.endless, chain.endless, "P(draw)"),
            ] {
                assert!(
                    (a - b).abs() < 1e-12 + chain.error,
                    "{label} {name}: layered {a}, chain {b} ± {}",
                    chain.error
                );
            }
        }
        // P(win) − P(loss) is the start's exact value.
        let v = whole.interval(&start_state(&rules)).unwrap().v;
        assert!((layered.leader_wins - layered.leader_loses - v).abs() < 1e-9, "{label}: {layered:?} against {v}");
        assert!(sol.tables().next().is_none(), "{label}: tables left in memory");
        // A file gone since the solve: an error that names it, not a panic.
        let first = solver::merels::sector::successors(&rules, solver::merels::Sector::of(&start_state(&rules)))
            .into_iter()
            .find(|s| s.is_stored())
            .expect("a stored successor of the start");
        let name = format!("{}.sec", first.key());
        let file = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|d| d.path().join(&name))
            .find(|p| p.is_file())
            .expect("its file");
        std::fs::remove_file(&file).unwrap();
        let err = layered_chances(&mut sol, u64::MAX, &Silent).expect_err("a file is missing");
        assert!(err.to_string().contains(&first.key()), "{label}: {err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Chance in the movement phase: not layered.
    let mut sol = Solution::solve(Rules::new(BoardKind::Three, Dice::Schaedler), &Silent);
    assert!(layered_chances(&mut sol, u64::MAX, &Silent).unwrap().is_none());
}

#[test]
fn chances_over_the_memory_leave_the_report_without_them_and_say_why() {
    // Six under Murray's reading from its database, the tables not in
    // memory (as on nine): layers given 100 bytes give no chances, and why;
    // the report then has the values but no P(win), P(draw), P(loss). With
    // every table in memory the whole chain takes over.
    use solver::merels::SolveOptions;
    use solver::merels::report::{layered_or_why, report_with};
    let rules = Rules::new(BoardKind::Six, Dice::Murray);
    let dir = std::env::temp_dir().join(format!("ludus-chances-why-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = SolveOptions { db: Some(dir.clone()), keep_all: false, ..SolveOptions::default() };
    let mut sol = Solution::solve_with(rules, &opts, &Silent).unwrap();
    sol.retain_tables(|_| false);
    let (chances, why) = layered_or_why(&mut sol, 100, &Silent).unwrap();
    let why = why.expect("a reason");
    assert!(chances.is_none());
    assert!(
        why.contains("more than the 100.0 B allowed") && why.contains("gives no P(win), P(draw), P(loss)"),
        "{why}"
    );
    sol.ensure_around(&start_state(&rules)).unwrap();
    let start = report_with(&sol, 0.0, chances, Some(why.clone())).start.expect("the start's value");
    assert!(start.p_win.is_none() && start.p_loss.is_none() && start.value.exact.is_some(), "{start:?}");
    assert_eq!(start.p_missing.as_deref(), Some(why.as_str()));
    // Enough memory: the chances, no reason.
    let (chances, why) = layered_or_why(&mut sol, u64::MAX, &Silent).unwrap();
    assert!(chances.is_some() && why.is_none());
    // Every table in memory: the whole chain instead.
    let mut whole = Solution::solve_with(rules, &SolveOptions { keep_all: true, ..opts }, &Silent).unwrap();
    let (_, why) = layered_or_why(&mut whole, 100, &Silent).unwrap();
    assert!(why.expect("a reason").contains("from the whole chain of play instead"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn start_state(rules: &Rules) -> engine::merels::State {
    engine::merels::State::start(rules.men())
}
