//! `ludus rithmo`: Rithmomachia perft (and, later, analysis and play).

use std::time::Instant;

use clap::{Args, Subcommand};
use engine::rithmo::{Position, RuleSet, Victory, divide, perft, perft_parallel};
use serde_json::json;

use crate::error::{CliError, Result};

#[derive(Args, Debug)]
pub struct RithmoArgs {
    #[command(subcommand)]
    cmd: RithmoCmd,
}

/// The position and rules options every subcommand shares.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position in RFEN (default: the start position)
    #[arg(long, value_name = "RFEN")]
    pub fen: Option<String>,
    /// The rules preset
    #[arg(long, default_value = "common")]
    pub rules: String,
    /// The victory condition: body:N, goods:V, lawsuit:V:N, honor:V:N,
    /// honor-lawsuit:V:N:D, great, greater or excellent [default: body:15]
    #[arg(long, value_name = "VICTORY")]
    pub victory: Option<String>,
}

impl PositionArgs {
    pub fn resolve(&self) -> Result<(Position, RuleSet)> {
        let mut rules = RuleSet::preset(&self.rules)?;
        if let Some(v) = &self.victory {
            rules = rules.with_victory(v.parse::<Victory>()?);
        }
        let pos = match &self.fen {
            Some(f) => f.trim().parse::<Position>().map_err(|e| CliError(e.to_string()))?,
            None => Position::start(),
        };
        Ok((pos, rules))
    }
}

#[derive(Subcommand, Debug)]
enum RithmoCmd {
    /// Count the leaves of the legal-move tree to a depth
    Perft {
        /// Plies to count
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Counts per first move
        #[arg(long)]
        divide: bool,
        /// Count on all cores
        #[arg(long)]
        parallel: bool,
        /// One JSON object: {"depth", "nodes", "seconds", "nps"}
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: RithmoArgs) -> Result<()> {
    match args.cmd {
        RithmoCmd::Perft { depth, position, divide: split, parallel, json } => {
            let (pos, rules) = position.resolve()?;
            if depth > 12 {
                return Err(CliError(format!("depth {depth} is beyond reason here (at most 12)")));
            }
            let t = Instant::now();
            let parts = if split { divide(&pos, &rules, depth, parallel) } else { Vec::new() };
            let nodes = if split {
                parts.iter().map(|p| p.1).sum()
            } else if parallel {
                perft_parallel(&pos, &rules, depth)
            } else {
                perft(&pos, &rules, depth)
            };
            let secs = t.elapsed().as_secs_f64();
            let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
            if json {
                let mut v = json!({"depth": depth, "nodes": nodes, "seconds": secs, "nps": nps});
                if split {
                    v["divide"] = parts.iter().map(|(m, n)| (m.to_string(), json!(n))).collect();
                }
                println!("{v}");
            } else {
                for (m, n) in &parts {
                    println!("{m:<10} {n}");
                }
                println!("perft({depth}) = {nodes}   ({secs:.3} s, {:.2} M nodes/s)", nps / 1e6);
            }
            Ok(())
        }
    }
}
