//! Benchmarks of the merels solver: indexing, one sector group's retrograde
//! pass, the phases of strategy iteration under Schädler's dice (exits and
//! children, settling the sure positions, warm start, one whole exact
//! evaluation, one whole improvement pass, one search for loops to hold, the
//! progress ranks, the whole group with its children stored and generated),
//! the check of a whole database (`ludus merels verify`, without dice and
//! under Murray's and Bell's readings), the chances of perfect play a layer
//! at a time from a database, reading a sector file, and the whole Rota
//! solve.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use engine::merels::{Board, BoardKind, Dice, Rules};
use solver::merels::index::Cursor;
use solver::merels::strategy::{self, Group, Moves, SECOND};
use solver::merels::{BoardTables, Indexer, Sector, Silent, Solution, SolveOptions};
use std::hint::black_box;

fn rota(c: &mut Criterion) {
    c.bench_function("rota full solve", |b| b.iter(|| Solution::solve(Rules::rota(), &Silent)));
    c.bench_function("rota report (solve + chains + census)", |b| {
        b.iter(|| solver::rota::report(Rules::rota(), &Silent))
    });
}

fn indexing(c: &mut Criterion) {
    let tables = BoardTables::new(Board::get(BoardKind::Nine, false));
    let ix = Indexer::new(tables, Sector { w: 8, wf: 0, b: 7, bf: 0 });
    let indices: Vec<u64> = (0..4096u64).map(|i| i * 7_919_993 % ix.size()).collect();
    let states: Vec<_> = indices.iter().map(|&i| ix.state(i)).collect();
    let mut g = c.benchmark_group("nine 8v7 indexing");
    g.throughput(Throughput::Elements(indices.len() as u64));
    g.bench_function("unrank (index -> position)", |b| {
        b.iter(|| indices.iter().map(|&i| ix.state(black_box(i)).own.0).sum::<u32>())
    });
    g.bench_function("rank (position -> index)", |b| {
        b.iter(|| states.iter().map(|s| ix.index(black_box(s))).sum::<u64>())
    });
    // 4096 ascending indices in a row, as the sweeps over a sector read them:
    // each alone, and through a cursor.
    let start = ix.size() / 3;
    g.bench_function("unrank 4096 ascending indices, each alone", |b| {
        b.iter(|| (start..start + 4096).map(|i| ix.state(black_box(i)).other.0).sum::<u32>())
    });
    g.bench_function("unrank 4096 ascending indices through a cursor", |b| {
        b.iter(|| {
            let mut cursor = Cursor::default();
            (start..start + 4096).map(|i| ix.state_at_cursor(&mut cursor, black_box(i)).other.0).sum::<u32>()
        })
    });
    g.finish();
}

fn passes(c: &mut Criterion) {
    // Six men's morris: every group below 5 v 5 solved first.
    let group = vec![Sector { w: 5, wf: 0, b: 5, bf: 0 }];
    for dice in [Dice::None, Dice::Schaedler] {
        let rules = Rules::new(BoardKind::Six, dice);
        let opts = SolveOptions { max_men: Some(9), ..SolveOptions::default() };
        let known = Solution::solve_with(rules, &opts, &Silent).expect("solve");
        let size = Indexer::new(known.board_tables.clone(), group[0]).size();
        let mut g = c.benchmark_group(format!("six/{dice} 5v5 group"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(size));
        if dice == Dice::None {
            g.bench_function("retrograde pass", |b| b.iter(|| known.solve_group(&group, &opts, &Silent)));
        } else {
            let ix = vec![Indexer::new(known.board_tables.clone(), group[0])];
            g.bench_function("strategy iteration: exits and children", |b| {
                b.iter(|| Group::new(&rules, &known, ix.clone(), &Silent).len())
            });
            // Built and settled, as the solve begins.
            let settled = || {
                let mut it = Group::new(&rules, &known, ix.clone(), &Silent);
                it.settle();
                it
            };
            let warm = || {
                let mut it = settled();
                it.warm(&Silent);
                it
            };
            g.bench_function("strategy iteration: settling the sure positions", |b| {
                b.iter_batched(
                    || Group::new(&rules, &known, ix.clone(), &Silent),
                    |mut it| it.settle(),
                    BatchSize::PerIteration,
                )
            });
            g.bench_function("strategy iteration: warm start", |b| {
                b.iter_batched(settled, |mut it| it.warm(&Silent), BatchSize::PerIteration)
            });
            g.bench_function("strategy iteration: exact evaluation", |b| {
                b.iter_batched(warm, |mut it| it.evaluate(), BatchSize::PerIteration)
            });
            // A whole pass: after a whole evaluation every position is examined.
            let evaluated = || {
                let mut it = warm();
                it.evaluate();
                it
            };
            g.bench_function("strategy iteration: improvement pass", |b| {
                b.iter_batched(evaluated, |mut it| it.improve(SECOND), BatchSize::PerIteration)
            });
            g.bench_function("strategy iteration: search for loops to hold", |b| {
                b.iter_batched(evaluated, |mut it| it.hold(SECOND), BatchSize::PerIteration)
            });
            g.bench_function("strategy iteration: progress ranks", |b| {
                b.iter_batched(evaluated, |mut it| it.ranks(), BatchSize::PerIteration)
            });
            g.bench_function("strategy iteration: mill levels' shares (sampled)", |b| {
                b.iter(|| strategy::level_shares(&rules, &ix))
            });
            // The whole group as the solver takes it (a mill level at a
            // time), and at once.
            g.bench_function("strategy iteration: whole group", |b| {
                b.iter(|| known.solve_group(&group, &opts, &Silent))
            });
            // The same with the in-group children and parents generated
            // from the rules when read rather than stored in lists.
            let generated = SolveOptions { moves: Some(Moves::Generated), ..opts.clone() };
            g.bench_function("strategy iteration: whole group, children generated", |b| {
                b.iter(|| known.solve_group(&group, &generated, &Silent))
            });
            // The children in lists, the parents generated.
            let half = SolveOptions { moves: Some(Moves::Half), ..opts.clone() };
            g.bench_function("strategy iteration: whole group, parents generated", |b| {
                b.iter(|| known.solve_group(&group, &half, &Silent))
            });
            g.bench_function("strategy iteration: whole group at once", |b| {
                b.iter(|| Group::new(&rules, &known, ix.clone(), &Silent).run(0.0, &Silent))
            });
        }
        g.finish();
    }
}

/// Groups under Schädler's dice whose positions fall in two classes (six's
/// 4 v 5 and its mirror; 4 v 4 by the parity of men on one colour of
/// points), every smaller group solved first: one copy of the game solved
/// first and the other started from its values (what the solver does),
/// and both copies side by side from the start.
fn copies(c: &mut Criterion) {
    let rules = Rules::new(BoardKind::Six, Dice::Schaedler);
    let opts = SolveOptions { max_men: Some(8), ..SolveOptions::default() };
    let known = Solution::solve_with(rules, &opts, &Silent).expect("solve");
    let four = |b| Sector { w: 4, wf: 0, b, bf: 0 };
    for (name, group) in [("4v5", vec![four(5), Sector { w: 5, wf: 0, b: 4, bf: 0 }]), ("4v4", vec![four(4)])] {
        let ix: Vec<Indexer> = group.into_iter().map(|s| Indexer::new(known.board_tables.clone(), s)).collect();
        let mut g = c.benchmark_group(format!("six/schaedler {name} group"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(ix.iter().map(|x| x.size()).sum()));
        g.bench_function("strategy iteration: one copy first", |b| {
            b.iter(|| Group::new(&rules, &known, ix.clone(), &Silent).run(0.0, &Silent))
        });
        g.bench_function("strategy iteration: both copies at once", |b| {
            b.iter(|| {
                let mut it = Group::new(&rules, &known, ix.clone(), &Silent);
                it.both_copies();
                it.run(0.0, &Silent)
            })
        });
        g.finish();
    }
}

/// `ludus merels verify` of six men's morris without dice and under Murray's
/// and Bell's readings (every sector file checked against its successors'
/// files; under the readings with dice each placement position's value
/// computed again, exactly, from its successors' after each throw).
fn checks(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("ludus-bench-verify-{}", std::process::id()));
    for dice in [Dice::None, Dice::Murray, Dice::Bell] {
        let rules = Rules::new(BoardKind::Six, dice);
        let opts = SolveOptions { db: Some(dir.clone()), keep_all: false, ..SolveOptions::default() };
        Solution::solve_with(rules, &opts, &Silent).expect("solve");
        let mut sol = Solution::solve_with(rules, &SolveOptions { max_men: Some(0), ..opts }, &Silent).expect("open");
        let check = |sol: &mut Solution| solver::merels::verify::verify(sol, None, false, &Silent).expect("verify");
        let first = check(&mut sol);
        assert!(first.ok(), "six/{dice}: the check fails");
        let mut g = c.benchmark_group(format!("six/{dice} database"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(first.positions));
        g.bench_function("verify", |b| b.iter(|| check(&mut sol)));
        if dice == Dice::Murray {
            // The chances of perfect play from the start, a layer of men in
            // hand at a time, each sector's successors read from the files
            // (throughput: the positions expanded).
            let layered = |sol: &mut Solution| {
                sol.retain_tables(|_| false);
                solver::merels::markov::layered_chances(sol, u64::MAX, &Silent).expect("chances").expect("layered")
            };
            g.throughput(Throughput::Elements(layered(&mut sol).states as u64));
            g.bench_function("chances a layer at a time", |b| b.iter(|| layered(&mut sol)));
        }
        g.finish();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reading one sector file of nine men's morris (5 v 5, 32,907,240 indices)
/// with its checks: plies without dice (kind 9) and chance values with
/// progress ranks (kind 6), decompressed as they are read.
fn loads(c: &mut Criterion) {
    use solver::merels::db::Db;
    use solver::merels::{Meta, Table, Values};
    let dir = std::env::temp_dir().join(format!("ludus-bench-load-{}", std::process::id()));
    let tables = BoardTables::new(Board::get(BoardKind::Nine, false));
    let ix = Indexer::new(tables, Sector { w: 5, wf: 0, b: 5, bf: 0 });
    let n = ix.size() as usize;
    // Values with the runs and the spread of real tables.
    let plies: Vec<u16> = (0..n).map(|i| if i % 5 == 0 { 0 } else { (i * 7_919 % 600) as u16 + 1 }).collect();
    let codes: Vec<u32> =
        (0..n).map(|i| if i % 3 == 0 { 1 << 30 } else { (i as u32).wrapping_mul(2_654_435_761) }).collect();
    let rank: Vec<u16> = (0..n).map(|i| (i % 40) as u16).collect();
    let mut g = c.benchmark_group("nine 5v5 sector file");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n as u64));
    for (name, dice, table) in [
        ("read plies (kind 9)", Dice::None, Table::new(ix.clone(), Values::Dtm(plies), Meta::default())),
        (
            "read chance values and ranks (kind 6)",
            Dice::Schaedler,
            Table::with_rank(ix.clone(), Values::Chance(codes), Meta::default(), rank),
        ),
    ] {
        let db = Db::new(&dir, Rules::new(BoardKind::Nine, dice));
        db.store(&table).expect("store");
        g.bench_function(name, |b| b.iter(|| black_box(db.load(ix.clone()).expect("load"))));
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, rota, indexing, passes, copies, checks, loads);
criterion_main!(benches);
