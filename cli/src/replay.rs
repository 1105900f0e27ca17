//! `ludus replay`: one game of an arena record, move by move on the
//! terminal board.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use engine::merels::{Position, render};
use engine::rithmo::{self, Move, Status};
use serde_json::Value;

use crate::arena::{merels_rules_from_json, rithmo_rules_from_json};
use crate::error::{CliError, Result};
use crate::merels_args::play_moves;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A record written by `ludus arena --record FILE`
    file: PathBuf,
    /// The game's index in the match
    #[arg(long, value_name = "K", default_value_t = 0)]
    game: u64,
    /// Wait for Enter after each move (when standard input is a terminal)
    #[arg(long)]
    step: bool,
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let path = &args.file;
    let text = std::fs::read_to_string(path).map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let mut found = None;
    let mut count = 0;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line)
            .map_err(|e| CliError(format!("line {} of {} is not a game record: {e}", i + 1, path.display())))?;
        let index = v["index"]
            .as_u64()
            .ok_or_else(|| CliError(format!("line {} of {} has no game index", i + 1, path.display())))?;
        count += 1;
        if index == args.game {
            found = Some((i + 1, v));
        }
    }
    let Some((line, record)) = found else {
        return Err(CliError(format!(
            "{} has no game {} ({count} games recorded{})",
            path.display(),
            args.game,
            if count > 0 { format!(", indices 0 to {}", count - 1) } else { String::new() }
        )));
    };
    let bad = |what: String| CliError(format!("line {line} of {}: {what}", path.display()));
    let moves: Vec<String> = record["moves"]
        .as_array()
        .ok_or_else(|| bad("no list of moves".into()))?
        .iter()
        .map(|m| m.as_str().map(str::to_string).ok_or_else(|| bad(format!("move {m} is not text"))))
        .collect::<Result<_>>()?;
    let first = record["first"].as_str().unwrap_or("?");
    let second = if first == "a" { "b" } else { "a" };
    let spec = |k: &str| record[k].as_str().unwrap_or("?").to_string();
    println!(
        "Game {} of the match (seed {}): {} moves first, {} second",
        args.game,
        record["seed"],
        format_args!("{} ({})", first.to_uppercase(), spec(first)),
        format_args!("{} ({})", second.to_uppercase(), spec(second)),
    );
    let mut pause = Pause::new(args.step);
    match record["game"].as_str() {
        Some("rota" | "merels") => {
            let rules = merels_rules_from_json(&record["rules"]).map_err(bad)?;
            println!("Rules: {}", rules.label());
            let mut pos = Position::start(rules.board.kind);
            println!("{}", render(&pos, rules.board));
            for (i, m) in moves.iter().enumerate() {
                pause.wait()?;
                let mover = pos.to_move;
                pos =
                    play_moves(pos, std::slice::from_ref(m), &rules).map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
                println!("ply {}: {mover} plays {m}", i + 1);
                println!("{}", render(&pos, rules.board));
            }
        }
        Some("rithmo") => {
            let (rules, start) = rithmo_rules_from_json(&record["rules"]).map_err(bad)?;
            println!("Rules: {} (victory {})", rules.name, rules.victory);
            let mut game = rithmo::Game::new(start, rules);
            print!("{}", rithmo::render::text(game.position()));
            for (i, m) in moves.iter().enumerate() {
                pause.wait()?;
                let mover = game.position().side_to_move();
                let mv: Move = m.parse().map_err(|e: String| bad(format!("ply {}: {e}", i + 1)))?;
                game.play(mv).map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
                println!("ply {}: {mover} plays {m}", i + 1);
                print!("{}", rithmo::render::text(game.position()));
            }
            if game.status() != Status::Ongoing {
                println!("{}", game.status());
            }
        }
        other => return Err(bad(format!("unknown game {}", other.unwrap_or("(none)")))),
    }
    let winner = record["winner"].as_str().map(|w| format!("{} ({}) wins", w.to_uppercase(), spec(w)));
    let how =
        if record["ply_limit"].as_bool() == Some(true) { "drawn by the ply limit".to_string() } else { "drawn".into() };
    println!("Result after {} plies: {}", moves.len(), winner.unwrap_or(how));
    Ok(())
}

/// Waits for Enter between moves when asked to and a person is there.
struct Pause {
    on: bool,
}

impl Pause {
    fn new(step: bool) -> Pause {
        Pause { on: step && std::io::stdin().is_terminal() }
    }

    fn wait(&mut self) -> Result<()> {
        if self.on {
            print!("[Enter] ");
            std::io::stdout().flush()?;
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line)?;
        }
        Ok(())
    }
}
