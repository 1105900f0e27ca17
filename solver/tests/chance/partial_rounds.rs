//! Strategy iteration under Schädler's dice recomputes, after the first
//! rounds, only what a switch can change: the values of the nodes whose path
//! runs through a switched node, and the choices of the parents of changed
//! values. Its twin makes every round whole (each evaluation over every node,
//! each pass over every position); both must end at the same values and
//! progress ranks, to the bit.

use super::{indexers, six_group, six_known, six_rules};
use engine::merels::{Blocked, BoardKind, Dice, Rules};
use solver::merels::strategy::{self, Group};
use solver::merels::value::{CODE_UNUSED, from_code};
use solver::merels::{Silent, Table, Values};

/// Two solves of one group give every position the same value within the
/// sum of their proven errors (below 1e-6), on more than 1000 positions per
/// sector.
pub(crate) fn agree_within_errors<'t>(
    label: &str,
    one: impl IntoIterator<Item = &'t Table>,
    other: impl IntoIterator<Item = &'t Table>,
) {
    for (a, b) in one.into_iter().zip(other) {
        let (Values::Chance(va), Values::Chance(vb)) = (&a.values, &b.values) else { panic!("chance values") };
        let room = a.meta.error + b.meta.error;
        assert!(room < 1e-6, "{label}: errors {} and {}", a.meta.error, b.meta.error);
        let mut compared = 0;
        for (&x, &y) in va.iter().zip(vb) {
            assert_eq!(x == CODE_UNUSED, y == CODE_UNUSED);
            if x != CODE_UNUSED {
                let (x, y) = (from_code(x), from_code(y));
                assert!((x - y).abs() <= room, "{label}: {x} and {y}");
                compared += 1;
            }
        }
        assert!(compared > 1000);
    }
}

/// Solves `group` both ways on top of the solved sectors of six under
/// `rules` (in the game itself only, without the discounted searches, if
/// `undiscounted`) and compares every table; returns the partial solve's
/// holds.
fn compare(rules: &Rules, group: &[&str], undiscounted: bool) -> u64 {
    let known = six_known(*rules);
    let ix = indexers(known, group);
    let build = || {
        let mut g = Group::new(rules, known, ix.clone(), &Silent);
        if undiscounted {
            g.undiscounted();
        }
        g
    };
    let (partial, stats) = if undiscounted { &build().run(0.0, &Silent) } else { six_group(*rules, group) };
    // The closing whole check found nothing the partial rounds missed.
    assert_eq!(stats.repairs, 0, "{}, {group:?}: the partial rounds missed a switch", rules.label());
    // The rounding of the exact evaluation, bounded from its paths and
    // cycles, stays far below the grid's half step.
    assert!(stats.arithmetic > 0.0 && stats.arithmetic < 1e-3 * solver::merels::value::GRID_HALF_STEP, "{stats:?}");
    let mut whole = build();
    whole.full_passes();
    let (whole, _) = whole.run(0.0, &Silent);
    assert_eq!(partial.len(), whole.len());
    for (a, b) in partial.iter().zip(&whole) {
        let (Values::Chance(va), Values::Chance(vb)) = (&a.values, &b.values) else { panic!("chance values") };
        let differ = va.iter().zip(vb).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 0, "{}, {group:?}: {differ} values differ", rules.label());
        assert_eq!(a.rank, b.rank, "{}, {group:?}: progress ranks differ", rules.label());
        assert!(va.len() > 1000);
    }
    // Rounds made whole where their lists would pass a small bound (the
    // evaluation over every node, the passes over the flags) end there too.
    for cap in [200] {
        let mut bounded = build();
        bounded.bound_lists(cap);
        let (bounded, _) = bounded.run(0.0, &Silent);
        for (a, b) in bounded.iter().zip(&whole) {
            let (Values::Chance(va), Values::Chance(vb)) = (&a.values, &b.values) else { panic!("chance values") };
            let differ = va.iter().zip(vb).filter(|(x, y)| x != y).count();
            assert_eq!(differ, 0, "{}, {group:?}, lists of {cap}: {differ} values differ", rules.label());
            assert_eq!(a.rank, b.rank, "{}, {group:?}, lists of {cap}: progress ranks differ", rules.label());
        }
    }
    stats.holds
}

#[test]
fn partial_rounds_end_where_whole_rounds_end() {
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    let mut holds = 0;
    for rules in [six, Rules { blocked: Blocked::Pass, ..six }] {
        for group in [&["3-0-3-0"][..], &["3-0-5-0", "5-0-3-0"], &["4-0-4-0"], &["5-0-5-0"]] {
            compare(&rules, group, false);
        }
        // Without the discounted searches the second player holds loops:
        // the switches of a hold, made outside the passes, are covered.
        for group in [&["4-0-4-0"][..], &["5-0-5-0"]] {
            holds += compare(&rules, group, true);
        }
    }
    assert!(holds > 0);
}

/// A partial pass examines only the positions a changed value can switch
/// (in the discounted searches: the parents it is the choice of where it
/// fell for them, or that it now beats after some throw); after every pass
/// each position of the side is examined again, and none would switch.
/// Six's groups under each rule set, in the discounted searches and in the
/// game itself, and with the second player's holds.
#[test]
fn partial_passes_leave_out_only_positions_that_keep_their_choice() {
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    let pairs: &[&[&str]] = &[&["3-0-3-0"], &["4-0-4-0"], &["4-0-5-0", "5-0-4-0"]];
    // With flying men the 4 v 5 group needs the second discount and some
    // thousands of rounds: the smaller groups only.
    let sets =
        [(six, pairs), (Rules { blocked: Blocked::Pass, ..six }, pairs), (Rules { flying: true, ..six }, &pairs[..2])];
    for (rules, groups) in sets {
        let known = six_known(rules);
        for &group in groups {
            for undiscounted in [false, true] {
                // With the lists of the partial rounds unbounded (as large
                // as the group) and bounded to a few hundred entries.
                for cap in [0, 300] {
                    let mut g = Group::new(&rules, known, indexers(known, group), &Silent);
                    g.check_passes();
                    g.bound_lists(cap);
                    if undiscounted {
                        g.undiscounted();
                    }
                    let (_, stats) = g.run(0.0, &Silent);
                    // Every pass was followed by a whole re-examination.
                    assert!(stats.rechecked >= stats.rounds, "{}, {group:?}: {stats:?}", rules.label());
                    assert_eq!(stats.repairs, 0, "{}, {group:?}: {stats:?}", rules.label());
                }
            }
        }
    }
}

/// With flying men, six's 4 v 5 group is one where the strategies of the
/// first discounted search are not optimal in the game itself: the
/// iteration ends (it once turned in circles there), with optimal
/// strategies and nothing missed.
#[test]
fn flying_men_end_with_optimal_strategies() {
    let rules = Rules { flying: true, ..Rules::new(BoardKind::Six, Dice::Schaedler) };
    let (_, stats) = six_group(rules, &["4-0-5-0", "5-0-4-0"]);
    assert_eq!(stats.repairs, 0, "{stats:?}");
    assert!(stats.discounts > 1, "{stats:?}");
    assert!(stats.gap < 1e-8 && stats.stuck == 0, "{stats:?}");
}

/// Solving a group a mill level at a time (`strategy::solve`, what the
/// solver does: the tables of [`six_known`]) gives each position the value
/// solving it whole gives, within the sum of the two solves' proven errors
/// (one test per rule set, so that they run side by side).
#[test]
fn mill_levels_give_the_whole_groups_values() {
    mill_levels_match(Rules::new(BoardKind::Six, Dice::Schaedler));
}

#[test]
fn mill_levels_give_the_whole_groups_values_with_flying() {
    mill_levels_match(Rules { flying: true, ..Rules::new(BoardKind::Six, Dice::Schaedler) });
}

#[test]
fn mill_levels_give_the_whole_groups_values_when_blocked_players_pass() {
    mill_levels_match(Rules { blocked: Blocked::Pass, ..Rules::new(BoardKind::Six, Dice::Schaedler) });
}

fn mill_levels_match(rules: Rules) {
    let known = six_known(rules);
    for group in [&["3-0-3-0"][..], &["4-0-5-0", "5-0-4-0"], &["5-0-5-0"]] {
        let ix = indexers(known, group);
        let levels: std::collections::BTreeSet<u8> = (0..ix[0].size())
            .filter(|&i| ix[0].is_canonical(i))
            .map(|i| ix[0].state(i))
            .filter(|st| rules.valid(st))
            .map(|st| strategy::mill_level(&rules, &st))
            .collect();
        assert!(levels.len() >= 2, "{group:?}: levels {levels:?}");
        let parts = ix.iter().map(|i| known.table(i.sector()).expect("solved up to 10 men"));
        let (whole, _) = six_group(rules, group);
        agree_within_errors(&format!("{}, {group:?}", rules.label()), parts, whole);
    }
}

/// Where a group's positions fall in two classes with every step from one
/// to the other (a sector and its mirror; on six men's morris also the two
/// parities of a group of one sector), one copy of its game is solved first
/// and the other then starts from its strategies; solving both copies side
/// by side from the start gives the same values within the two solves'
/// proven errors, and both end with optimal strategies (the gap between the
/// sides closed). Men that fly join the classes of 3 v 3.
#[test]
fn one_copy_first_gives_the_values_of_both_copies_at_once() {
    let six = six_rules()[0];
    for rules in six_rules() {
        let known = six_known(rules);
        for group in [&["3-0-3-0"][..], &["3-0-4-0", "4-0-3-0"], &["3-0-5-0", "5-0-3-0"], &["4-0-4-0"]] {
            let (one, s1) = six_group(rules, group);
            let mut both = Group::new(&rules, known, indexers(known, group), &Silent);
            both.both_copies();
            let (both, s2) = both.run(0.0, &Silent);
            let label = format!("{}, {group:?}", rules.label());
            for s in [s1, &s2] {
                assert!(s.gap < 1e-8 && s.repairs == 0, "{label}: {s:?}");
            }
            assert_eq!(s2.one_copy_rounds, 0);
            if group.len() == 2 || rules == six {
                assert!(s1.one_copy_rounds > 0, "{label}: {s1:?}");
            }
            if rules.flying && group == ["3-0-3-0"] {
                assert_eq!(s1.one_copy_rounds, 0, "{label}: {s1:?}");
            }
            agree_within_errors(&label, one, &both);
        }
    }
}

/// The whole evaluations walk the strategies' paths with all threads at
/// once (a walk that meets another's path is given up and followed after),
/// as the other parts of a round split their work: on one thread or four,
/// a group ends at the same values and progress ranks, to the bit.
#[test]
fn one_thread_or_four_give_the_same_bits() {
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
    let known = six_known(rules);
    for group in [&["4-0-5-0", "5-0-4-0"][..], &["5-0-5-0"]] {
        let ix = indexers(known, group);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| Group::new(&rules, known, ix.clone(), &Silent).run(0.0, &Silent).0)
        };
        let (one, four) = (run(1), run(4));
        assert_eq!(one.len(), four.len());
        for (a, b) in one.iter().zip(&four) {
            let (Values::Chance(va), Values::Chance(vb)) = (&a.values, &b.values) else { panic!("chance values") };
            let differ = va.iter().zip(vb).filter(|(x, y)| x != y).count();
            assert_eq!(differ, 0, "{group:?}: {differ} values differ");
            assert!(va.len() > 10_000, "{group:?}: {}", va.len());
            assert_eq!(a.rank, b.rank, "{group:?}: progress ranks differ");
            assert_eq!(a.meta.error.to_bits(), b.meta.error.to_bits(), "{group:?}: proven errors differ");
        }
    }
}

/// The positions that are sure wins or losses whatever the throws are
/// settled before the iteration (`Group::settle`); leaving them to the
/// iteration gives every position the same value within the two solves'
/// proven errors, both ending with optimal strategies and as many positions
/// ranked. The groups settled include the unbalanced 3 v 6. (With flying
/// men 4 v 5 is left out: its iteration takes thousands of rounds, and the
/// other tests of its strategies solve it.)
#[test]
fn settling_the_sure_positions_first_gives_the_iterations_values() {
    let mut settled = [0u64; 2];
    for rules in six_rules() {
        let known = six_known(rules);
        for (k, group) in
            [&["3-0-3-0"][..], &["3-0-6-0", "6-0-3-0"], &["4-0-4-0"], &["4-0-5-0", "5-0-4-0"]].into_iter().enumerate()
        {
            if rules.flying && k == 3 {
                continue;
            }
            let (first, s1) = six_group(rules, group);
            let mut left = Group::new(&rules, known, indexers(known, group), &Silent);
            left.unsettled();
            let (left, s2) = left.run(0.0, &Silent);
            let label = format!("{}, {group:?}", rules.label());
            for s in [s1, &s2] {
                assert!(s.gap < 1e-8 && s.repairs == 0 && s.stuck == 0, "{label}: {s:?}");
            }
            assert_eq!(s2.settled, 0);
            // The settled positions are ranked as before (the side ahead's
            // way to the win).
            assert_eq!(s1.ranked, s2.ranked, "{label}: positions ranked");
            settled[usize::from(k == 1)] += s1.settled;
            agree_within_errors(&label, first, &left);
        }
    }
    // Some in the balanced groups and some in the unbalanced 3 v 6.
    assert!(settled[0] > 1000 && settled[1] > 1000, "{settled:?}");
}
