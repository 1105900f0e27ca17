//! Benchmarks of Rithmomachia: the move generator's perft from the start and
//! from a tactical middlegame (pieces in contact, a pyramid already struck),
//! perft from the start in interior nodes per second, and the engine's
//! fixed-depth search from both (a fresh table each time).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::rithmo::{Limits, Position, RuleSet, Searcher, perft};

/// Reached by play that captures often; Odd's pyramid has lost a layer
/// (the bench command's middlegame in contact).
const MIDDLEGAME: &str = engine::rithmo::bench::POSITIONS[1].1;

fn perft_bench(c: &mut Criterion) {
    let rules = RuleSet::common();
    for (name, pos, depth) in
        [("start", Position::start(), 5), ("middlegame", MIDDLEGAME.parse::<Position>().expect("rfen"), 4)]
    {
        let nodes = perft(&pos, &rules, depth);
        let mut g = c.benchmark_group(format!("perft {name}"));
        g.throughput(Throughput::Elements(nodes));
        g.sample_size(20);
        g.bench_function(format!("depth {depth} ({nodes} leaves)"), |b| b.iter(|| perft(&pos, &rules, depth)));
        g.finish();
    }
}

/// Perft from the start measured in interior nodes (every node above the
/// last ply, whose moves are counted, not played): the rate move generators
/// are compared by.
fn perft_interior_bench(c: &mut Criterion) {
    let rules = RuleSet::common();
    let pos = Position::start();
    let depth = 6;
    let interior: u64 = (0..depth).map(|d| perft(&pos, &rules, d)).sum();
    let mut g = c.benchmark_group("perft start interior");
    g.throughput(Throughput::Elements(interior));
    g.sample_size(10);
    g.bench_function(format!("depth {depth} ({interior} interior nodes)"), |b| b.iter(|| perft(&pos, &rules, depth)));
    g.finish();
}

fn search_bench(c: &mut Criterion) {
    let rules = RuleSet::common();
    for (name, pos, depth) in
        [("start", Position::start(), 7), ("middlegame", MIDDLEGAME.parse::<Position>().expect("rfen"), 5)]
    {
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let search = || Searcher::new(rules, 16).search(&pos, &[pos.hash()], limits, |_| {});
        let nodes = search().nodes;
        let mut g = c.benchmark_group(format!("search {name}"));
        g.throughput(Throughput::Elements(nodes));
        g.sample_size(10);
        g.bench_function(format!("depth {depth} ({nodes} nodes)"), |b| b.iter(search));
        g.finish();
    }
}

criterion_group!(benches, perft_bench, perft_interior_bench, search_bench);
criterion_main!(benches);
