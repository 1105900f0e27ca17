//! `ludus rithmo tune`: the evaluation's weights fitted to the results of
//! self-play games, then the fitted engine against the current one under a
//! sequential probability ratio test: a change is worth keeping only when
//! the arena shows it stronger.

use std::time::Instant;

use clap::Args;
use engine::arena::{self, Config, Decision, Sprt};
use engine::players::Bot;
use engine::players::Limit;
use engine::players::alphabeta::SearcherBot;
use engine::players::opening::RandomOpening;
use engine::rithmo::tune::{Positions, Sample, fit, samples};
use engine::rithmo::{Move, Position, Rithmomachia, RuleSet, Weights};
use serde_json::json;

use crate::common::{parse_depth, parse_sprt, parse_threads};
use crate::error::{CliError, Result};
use crate::progress::counter;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Self-play games whose positions the weights are fitted to
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Search depth of the engines in those games
    #[arg(long, default_value_t = 2, value_parser = parse_depth)]
    depth: u32,
    /// Search depth of both engines in the test match
    #[arg(long, default_value_t = 2, value_parser = parse_depth)]
    match_depth: u32,
    /// The test's hypotheses: the fitted engine's Elo over the current one
    #[arg(long, value_name = "ELO0,ELO1", default_value = "0,20", value_parser = parse_sprt, allow_hyphen_values = true)]
    sprt: (f64, f64),
    /// The most games of the test match
    #[arg(long, default_value_t = 4000)]
    max_games: usize,
    /// Each engine's first turns of a game played at random
    #[arg(long, value_name = "PLIES", default_value_t = 3)]
    opening: usize,
    /// The weights to start from, play the games with and test against:
    /// hand, fitted-1, fitted-2 or default (the engine's)
    #[arg(long, default_value = "default")]
    base: String,
    /// Fit nothing: test these named weights against --base (a second test
    /// of an accepted change, on other games: give another --seed)
    #[arg(long, value_name = "NAME")]
    test: Option<String>,
    /// Each fitted weight stays within this factor of the current one (and
    /// keeps its sign)
    #[arg(long, default_value_t = 2.0)]
    bound: f64,
    /// The positions of those games the weights are fitted to: quiet ones
    /// (neither side can take anything) or all
    #[arg(long, value_enum, default_value_t = Fitted::Quiet)]
    positions: Fitted,
    /// Seed of the games (the test match uses seed + 1)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: one per core]
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// One JSON object on standard output
    #[arg(long)]
    json: bool,
    /// No progress bar
    #[arg(long, short)]
    quiet: bool,
}

/// The positions a fit learns from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Fitted {
    /// Positions where neither side can take anything
    Quiet,
    /// Every position after the random openings
    All,
}

fn bot(depth: u32, weights: Weights, opening: usize) -> Box<dyn Bot<Rithmomachia>> {
    let inner = SearcherBot::new(Limit { depth: Some(depth), movetime: None }, 4).with_weights(weights);
    Box::new(RandomOpening { inner: Box::new(inner), plies: opening })
}

pub fn run(args: TuneArgs) -> Result<()> {
    if args.games == 0 || args.max_games < 2 {
        return Err("--games must be at least 1 and --max-games at least 2".into());
    }
    if !(args.bound >= 1.0 && args.bound.is_finite()) {
        return Err(CliError(format!("--bound {}: choose a factor of at least 1", args.bound)));
    }
    let (e0, e1) = args.sprt;
    let test = Sprt::new(e0, e1, 0.05, 0.05)?;
    let rules = RuleSet::common();
    let start = Position::start();
    let game = Rithmomachia::new(rules, start);
    let threads = args.threads.unwrap_or(0);
    let hidden = args.quiet || args.json;
    let t = Instant::now();

    // The games to learn from: the current engine against itself (none
    // when only testing).
    let current = Weights::named(&args.base)?;
    let fixed = args.test.as_deref().map(Weights::named).transpose()?;
    let (a, b) = (bot(args.depth, current, args.opening), bot(args.depth, current, args.opening));
    let games = if fixed.is_some() { 0 } else { args.games };
    let cfg = Config { games, seed: args.seed, max_plies: 1000, threads };
    let bar = counter(games as u64, "self-play games", hidden);
    let logs = arena::run(&game, a.as_ref(), b.as_ref(), &cfg, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let mut data: Vec<Sample> = Vec::new();
    for g in &logs {
        let moves: Vec<Move> =
            g.played.moves.iter().map(|m| m.parse::<Move>()).collect::<std::result::Result<_, _>>()?;
        // Player 0 is Even.
        let even = g.played.outcome.score(0);
        let which = match args.positions {
            Fitted::Quiet => Positions::Quiet,
            Fitted::All => Positions::All,
        };
        data.extend(samples(&start, &rules, &moves, even, 2 * args.opening, which));
    }
    let (tuned, k, before, after) = match fixed {
        Some(w) => (w, f64::NAN, f64::NAN, f64::NAN),
        None => fit(&data, current, args.bound),
    };

    // The fitted engine (A) against the current one (B).
    let (a, b) = (bot(args.match_depth, tuned, args.opening), bot(args.match_depth, current, args.opening));
    let cfg = Config { games: args.max_games, seed: args.seed + 1, max_plies: 1000, threads };
    let bar = counter(args.max_games as u64, "test games", hidden);
    let r = arena::run_sprt(&game, a.as_ref(), b.as_ref(), &cfg, &test, &|| bar.inc(1), &mut |_| Ok(()))?;
    bar.finish_and_clear();
    let s = r.summary.clone();
    let secs = t.elapsed().as_secs_f64();
    let names = Weights::NAMES;
    if args.json {
        let w = |x: &Weights| {
            names.iter().zip(x.0).map(|(n, v)| (n.to_string(), json!(v))).collect::<serde_json::Map<_, _>>()
        };
        let v = json!({
            "games": logs.len(),
            "positions": data.len(),
            "fitted_positions": if args.positions == Fitted::Quiet { "quiet" } else { "all" },
            "depth": args.depth,
            "scale": k,
            "bound": args.bound,
            "error_before": before,
            "error_after": after,
            "base": args.base,
            "current": w(&current),
            "fitted": w(&tuned),
            "tested": args.test,
            "match_depth": args.match_depth,
            "sprt": {"test": test, "decision": r.decision, "llr": r.llr},
            "match": s,
            "seconds": secs,
        });
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| CliError(e.to_string()))?);
        return Ok(());
    }
    if let Some(name) = &args.test {
        println!("Weights {name} against {} (nothing fitted)", args.base);
    } else {
        println!(
            "Weights {} fitted to {} {}positions of {} self-play games (depth {}, {} random turns each first, seed {}): scale {k:.4}, \
         mean squared error {before:.6} → {after:.6} (weights within a factor {})",
            args.base,
            data.len(),
            if args.positions == Fitted::Quiet { "quiet " } else { "" },
            logs.len(),
            args.depth,
            args.opening,
            args.seed,
            args.bound
        );
    }
    println!("  {:<16} {:>8} {:>8}", "term", args.base, args.test.as_deref().unwrap_or("fitted"));
    for (i, n) in names.iter().enumerate() {
        println!("  {n:<16} {:>8} {:>8}", current.0[i], tuned.0[i]);
    }
    let verdict = match r.decision {
        Decision::AcceptH1 => "the fitted weights are stronger: keep them",
        Decision::AcceptH0 => "the fitted weights are not stronger: keep the current ones",
        Decision::Continue => "no decision within the game limit",
    };
    println!(
        "Test match, depth {} (seed {}): {} games, fitted {} wins, {} draws, {} losses; score {:.4} (95% interval \
         {:.4} to {:.4}); Elo {:+.1} ({:+.1} to {:+.1}); SPRT H0 {:+} H1 {:+} (alpha = beta = 0.05): LLR {:.3} — \
         {verdict}",
        args.match_depth,
        args.seed + 1,
        s.games,
        s.a_wins,
        s.draws,
        s.b_wins,
        s.score.score,
        s.score.low,
        s.score.high,
        s.elo,
        s.elo_low,
        s.elo_high,
        test.elo0,
        test.elo1,
        r.llr
    );
    println!("({secs:.0} s)");
    Ok(())
}
