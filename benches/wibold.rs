//! Benchmarks of Wibold's game: the simulator's rolls per second on one
//! core, and the exact analysis.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::wibold::{Players, Rules};
use solver::wibold::simulate::rolls_of;

/// Games per measured iteration; the seed fixes how many rolls they take.
const GAMES: u64 = 200;
const SEED: u64 = 1;

fn simulator(c: &mut Criterion) {
    let players = Players::new(4).expect("4 players");
    let mut group = c.benchmark_group("wibold simulator, one core");
    for rules in [Rules::Full, Rules::Simplified] {
        let rolls = rolls_of(rules, players, GAMES, SEED);
        group.throughput(Throughput::Elements(rolls));
        group.bench_function(format!("{rules} rules, rolls"), |b| {
            b.iter(|| rolls_of(black_box(rules), players, GAMES, SEED))
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("wibold exact");
    group.sample_size(10);
    for rules in [Rules::Full, Rules::Simplified] {
        group.bench_function(format!("{rules} length law"), |b| {
            b.iter(|| solver::wibold::LengthLaw::of(black_box(rules)))
        });
    }
    group.finish();
}

criterion_group!(benches, simulator, exact);
criterion_main!(benches);
