//! `ludus rota`: solve Rota, probe and draw its positions.

use std::time::Instant;

use clap::{Args, Subcommand};
use engine::merels::{Rules, render};
use serde_json::json;
use solver::merels::{Silent, Solution};
use solver::rota::{Chances, RotaReport, report_from};

use crate::common::print_json;
use crate::error::Result;
use crate::merels_args::{RotaRuleArgs, parse_position, play_moves, probe};

#[derive(Args, Debug)]
pub struct RotaArgs {
    #[command(subcommand)]
    cmd: RotaCmd,
}

#[derive(Subcommand, Debug)]
enum RotaCmd {
    /// Solve Rota and report who has the first-move advantage
    Solve {
        #[command(flatten)]
        rules: RotaRuleArgs,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// Draw a position on the wheel, e.g. `ludus rota show "rota:x...o.... o 2 2"`
    Show {
        #[command(flatten)]
        at: At,
    },
    /// The value of a position and every move rated, best first
    Probe {
        #[command(flatten)]
        at: At,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
}

/// A position on the wheel, the rules, and moves to play first.
#[derive(Args, Debug)]
struct At {
    /// The position: `rota:<c n ne e se s sw w nw as x/o/.> <side> <hand-x> <hand-o>`
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
    /// Actions to play first, in notation (`c`, `n-ne`), comma separated
    #[arg(long, value_delimiter = ',')]
    play: Vec<String>,
    #[command(flatten)]
    rules: RotaRuleArgs,
}

impl At {
    fn resolve(&self) -> Result<(Rules, engine::merels::Position)> {
        let rules = self.rules.rules();
        let pos = play_moves(parse_position(&self.position, &rules)?, &self.play, &rules)?;
        Ok((rules, pos))
    }
}

pub fn run(args: RotaArgs) -> Result<()> {
    match args.cmd {
        RotaCmd::Solve { rules, json } => solve(rules.rules(), json),
        RotaCmd::Show { at } => {
            let (rules, pos) = at.resolve()?;
            println!("{}", render(&pos, rules.board));
            println!("{pos}");
            Ok(())
        }
        RotaCmd::Probe { at, json } => {
            let (rules, pos) = at.resolve()?;
            probe(&rules, &pos, None, json, true, &Silent)
        }
    }
}

fn solve(rules: Rules, json: bool) -> Result<()> {
    let t = Instant::now();
    let sol = Solution::solve(rules, &Silent);
    let solved = t.elapsed();
    let report = report_from(&sol);
    let total = t.elapsed();
    if json {
        let mut v = serde_json::to_value(&report)?;
        v["seconds"] = json!(total.as_secs_f64());
        return print_json(&v);
    }
    print_report(&report, solved.as_secs_f64(), total.as_secs_f64());
    Ok(())
}

fn print_report(r: &RotaReport, solved: f64, total: f64) {
    println!("Rota, solved ({}; retrograde solve {:.1} ms, whole report {:.1} ms)", r.rules, solved * 1e3, total * 1e3);
    println!();
    let plies = |p: Option<u16>| p.map(|p| format!(" in {p} plies")).unwrap_or_default();
    println!("Start position: a {} for the leader{} with perfect play.", r.outcome, plies(r.plies));
    println!();
    println!("The leader's first placements:");
    for m in &r.first_moves {
        println!("  {:<3} {}{}", m.point, m.outcome, plies(m.plies));
    }
    println!();
    println!("Positions by value for the side to move:");
    println!("  {:<24} {:>12} {:>12}", "", "classes", "positions");
    let rows = [
        ("wins", r.classes.wins, r.positions.wins),
        ("draws", r.classes.draws, r.positions.draws),
        ("losses", r.classes.losses, r.positions.losses),
        ("  of which game over", r.classes.terminal, r.positions.terminal),
        ("total", r.classes.total(), r.positions.total()),
    ];
    for (name, c, p) in rows {
        println!("  {name:<24} {c:>12} {p:>12}");
    }
    println!("  (classes: one position per symmetry class of the wheel's 16 symmetries)");
    println!();
    match &r.longest_win_position {
        Some(p) => println!("Longest forced win: {} plies, e.g. {p}", r.longest_win),
        None => println!("No position is a forced win."),
    }
    println!();
    println!("First-move advantage, exactly (absorbing Markov chains, not samples):");
    println!("  {:<28} {:>10} {:>10} {:>10}", "leader vs follower", "wins", "loses", "endless");
    let row = |name: &str, c: &Chances| {
        println!(
            "  {name:<28} {:>9.4}% {:>9.4}% {:>9.4}%",
            100.0 * c.leader_wins,
            100.0 * c.leader_loses,
            100.0 * c.endless
        )
    };
    row("random vs random", &r.chances.random_vs_random);
    row("perfect vs random", &r.chances.perfect_vs_random);
    row("random vs perfect", &r.chances.random_vs_perfect);
    println!("  (perfect: best value, fastest win or slowest loss, ties broken uniformly at random)");
    println!();
    println!("{}", r.verdict);
}
