//! Benchmarks of the arena: whole games per second on one thread, random
//! against random (the cost of the game interface and the rules themselves)
//! and MCTS against greedy (a searching bot), in Rota and six men's morris
//! under Schädler's dice.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::arena::{self, Config};
use engine::game::Game;
use engine::merels::{BoardKind, Dice, Merels, Rules};
use engine::players::{Bot, generic_bot};

fn bot<G: Game + 'static>(spec: &str) -> Box<dyn Bot<G>> {
    generic_bot::<G>(&spec.parse().expect("spec")).expect("bot")
}

fn games(c: &mut Criterion) {
    for (name, rules) in [("rota", Rules::rota()), ("six/schaedler", Rules::new(BoardKind::Six, Dice::Schaedler))] {
        let game = Merels::new(rules);
        for (a, b, n) in [("random", "random", 1000), ("mcts:playouts=100", "greedy", 4)] {
            let (a, b) = (bot::<Merels>(a), bot::<Merels>(b));
            let cfg = Config { games: n, seed: 1, max_plies: 300, threads: 1 };
            let mut g = c.benchmark_group(format!("arena {name}"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function(format!("{} v {}, {n} games", a.name(), b.name()), |bench| {
                bench.iter(|| arena::run(&game, a.as_ref(), b.as_ref(), &cfg, &|| {}).expect("legal"))
            });
            g.finish();
        }
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
