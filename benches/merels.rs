//! Benchmarks of the merels solver.

use criterion::{Criterion, criterion_group, criterion_main};
use engine::merels::Rules;
use solver::merels::{Silent, Solution};

fn rota(c: &mut Criterion) {
    c.bench_function("rota full solve", |b| b.iter(|| Solution::solve(Rules::rota(), &Silent)));
    c.bench_function("rota report (solve + chains + census)", |b| {
        b.iter(|| solver::rota::report(Rules::rota(), &Silent))
    });
}

criterion_group!(benches, rota);
criterion_main!(benches);
