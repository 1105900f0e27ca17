//! Benchmarks of the merels solver.

use criterion::{Criterion, criterion_group};
use engine::merels::Rules;
use solver::merels::{Silent, Solution};

fn rota(c: &mut Criterion) {
    c.bench_function("rota full solve", |b| b.iter(|| Solution::solve(Rules::rota(), &Silent)));
    c.bench_function("rota report (solve + chains + census)", |b| {
        b.iter(|| solver::rota::report(Rules::rota(), &Silent))
    });
}

criterion_group!(benches, rota);
/// `criterion_main!` with one step first: the workspace builds plotters with
/// its pure-Rust font renderer (for `ludus wibold --plot`), and criterion's
/// reports draw with that plotters, so the font must be registered.
fn main() {
    cli::register_font().expect("the built-in font");
    benches();
    Criterion::default().configure_from_args().final_summary();
}
