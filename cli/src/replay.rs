//! `ludus replay`: one game of an arena record, move by move on the
//! terminal board. The result is recomputed from the moves: a record whose
//! result does not follow from them is refused.

use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use engine::game::{Game as _, Outcome};
use engine::merels::{Merels, Play, Position, Throw, render};
use engine::rithmo::{self, Rithmomachia};
use serde_json::Value;

use crate::arena::{merels_rules_from_json, rithmo_rules_from_json};
use crate::error::{CliError, Result};

/// The longest line a record may have: a game of a few thousand plies
/// takes a few tens of KiB.
const MAX_LINE: u64 = 4 << 20;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A record written by `ludus arena --record FILE`
    file: PathBuf,
    /// The game's index in the match (its "index" in the record; games
    /// are numbered from 0)
    #[arg(long, value_name = "K", default_value_t = 0)]
    index: u64,
    /// Wait after each move when standard input is a terminal: Enter goes
    /// on, b steps back, q quits
    #[arg(long)]
    step: bool,
}

/// The record of game `index` in `path` (and its line), reading one line at
/// a time with a bound on its length.
fn find_record(path: &Path, index: u64) -> Result<(usize, Value)> {
    let cannot = |e: std::io::Error| CliError(format!("cannot read {}: {e}", path.display()));
    let file = File::open(path).map_err(cannot)?;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let (mut number, mut count) = (0usize, 0u64);
    let mut seen = Vec::new();
    loop {
        line.clear();
        let n = (&mut reader).take(MAX_LINE + 1).read_until(b'\n', &mut line).map_err(cannot)?;
        if n == 0 {
            break;
        }
        number += 1;
        if n as u64 > MAX_LINE {
            return Err(CliError(format!(
                "line {number} of {} is longer than {} MiB: not a game record",
                path.display(),
                MAX_LINE >> 20
            )));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: Value = serde_json::from_slice(&line)
            .map_err(|e| CliError(format!("line {number} of {} is not a game record: {e}", path.display())))?;
        let i = v["index"]
            .as_u64()
            .ok_or_else(|| CliError(format!("line {number} of {} has no game index", path.display())))?;
        count += 1;
        if i == index {
            return Ok((number, v));
        }
        seen.push(i);
    }
    seen.sort_unstable();
    seen.dedup();
    let listed = match seen.as_slice() {
        [] => String::new(),
        [one] => format!(": game {one}"),
        [lo, .., hi] if (hi - lo) as usize + 1 == seen.len() => format!(": games {lo} to {hi}"),
        [lo, .., hi] => format!(": games from {lo} to {hi}, some missing"),
    };
    Err(CliError(format!(
        "{} has no game {index} ({} recorded{listed})",
        path.display(),
        engine::names::count(count, "game", "games")
    )))
}

/// A result as the record writes it: `first`, `second` or `draw`.
fn result_name(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Win(0)) => "first",
        Some(Outcome::Win(_)) => "second",
        Some(Outcome::Draw) => "draw",
        None => "unfinished",
    }
}

/// The results the end of a merels game gives: its own, or, where the game
/// ended on a throw the record does not show, each throw's.
pub fn merels_outcomes(rules: engine::merels::Rules, end: &Position) -> Vec<Option<Outcome>> {
    let game = Merels::new(rules);
    let end = Play { side: end.to_move, state: end.state(), throw: None };
    let own = game.result(&end);
    if own.is_some() {
        return vec![own];
    }
    let after_throws: Vec<_> = [Throw::Normal, Throw::Special]
        .into_iter()
        .filter(|t| game.chances(&end).iter().any(|(m, _)| *m == engine::merels::Move::Throw(*t)))
        .map(|t| game.result(&Play { throw: Some(t), ..end }))
        .collect();
    // Without dice the game goes on with no throw: it is unfinished.
    if after_throws.is_empty() { vec![own] } else { after_throws }
}

/// The result the end of a Rithmomachia game gives.
pub fn rithmo_outcome(rules: rithmo::RuleSet, start: rithmo::Position, game: &rithmo::Game) -> Option<Outcome> {
    let line = rithmo::Line { pos: *game.position(), history: game.hashes() };
    Rithmomachia::new(rules, start).result(&line)
}

/// Whether a record's `result`, `winner` and `plies` follow from its
/// `moves` plies, whose end gives one of `outcomes`; else why not.
pub fn result_holds(record: &Value, moves: usize, outcomes: &[Option<Outcome>]) -> std::result::Result<(), String> {
    let ply_limit = record["ply_limit"].as_bool() == Some(true);
    let recorded = record["result"].as_str().unwrap_or("(none)");
    let first = record["first"].as_str();
    let second = first.map(|f| if f == "a" { "b" } else { "a" });
    let expected_winner = match recorded {
        "first" => first,
        "second" => second,
        _ => None,
    };
    let consistent = |o: Option<Outcome>| match o {
        None => ply_limit && recorded == "draw",
        Some(_) => !ply_limit && recorded == result_name(o),
    };
    if !outcomes.iter().any(|&o| consistent(o)) {
        let mut names: Vec<&str> = outcomes.iter().map(|&o| result_name(o)).collect();
        names.dedup();
        let found = names.join(" or ");
        return Err(format!(
            "the record says {recorded}{}, but its {moves} moves give {found}{}",
            if ply_limit { " by the ply limit" } else { "" },
            if found == "unfinished" { " (the game is not over and no ply limit is recorded)" } else { "" }
        ));
    }
    // The ply limit, where the record gives it (older records do not).
    let given = record.get("max_plies").filter(|v| !v.is_null());
    if given.is_some_and(|v| !v.is_u64()) {
        return Err(format!("the record's 'max_plies' ({}) is not a number of plies", record["max_plies"]));
    }
    if let Some(most) = given.and_then(Value::as_u64) {
        let n = moves as u64;
        if (ply_limit && n != most) || n > most {
            return Err(format!(
                "the record's {moves} moves do not fit its ply limit of {most}{}",
                if ply_limit { " (the game was cut there)" } else { "" }
            ));
        }
    }
    if record["winner"].as_str() != expected_winner || record["plies"].as_u64() != Some(moves as u64) {
        return Err(format!(
            "the record's 'winner' ({}) or 'plies' ({}) does not agree with its result and its {moves} moves",
            record["winner"].as_str().unwrap_or("none"),
            record["plies"],
        ));
    }
    Ok(())
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let path = &args.file;
    let (line, record) = find_record(path, args.index)?;
    let bad = |what: String| CliError(format!("line {line} of {}: {what}", path.display()));
    let moves: Vec<String> = record["moves"]
        .as_array()
        .ok_or_else(|| bad("no list of moves".into()))?
        .iter()
        .map(|m| m.as_str().map(str::to_string).ok_or_else(|| bad(format!("move {m} is not text"))))
        .collect::<Result<_>>()?;
    let first = match record["first"].as_str() {
        Some(f @ ("a" | "b")) => f,
        _ => return Err(bad("'first' must be \"a\" or \"b\"".into())),
    };
    let second = if first == "a" { "b" } else { "a" };
    let spec = |k: &str| record[k].as_str().unwrap_or("?").to_string();
    println!(
        "Game {} of the match (seed {}): {} moves first, {} second",
        args.index,
        record["seed"],
        format_args!("{} ({})", first.to_uppercase(), spec(first)),
        format_args!("{} ({})", second.to_uppercase(), spec(second)),
    );
    // Every position of the game as text to show, and the results the
    // moves lead to (more than one only when the game ended on a throw the
    // record does not show).
    let (frames, outcomes, status) = match record["game"].as_str() {
        Some("rota" | "merels") => {
            let rules = merels_rules_from_json(&record["rules"]).map_err(bad)?;
            println!("Rules: {}", rules.label());
            let mut pos = Position::start(rules.board.kind);
            let mut frames = vec![format!("{}\n", render(&pos, rules.board))];
            for (i, m) in moves.iter().enumerate() {
                let mover = pos.to_move;
                pos = rules.play_text(&pos, m).map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
                frames.push(format!("ply {}: {mover} plays {m}\n{}\n", i + 1, render(&pos, rules.board)));
            }
            (frames, merels_outcomes(rules, &pos), None)
        }
        Some("rithmo") => {
            let (rules, start) = rithmo_rules_from_json(&record["rules"]).map_err(bad)?;
            println!("Rules: {} (victory {})", rules.name, rules.victory);
            let mut game = rithmo::Game::new(start, rules);
            let mut frames = vec![rithmo::render::text(game.position())];
            for (i, m) in moves.iter().enumerate() {
                let mover = game.position().side_to_move();
                let mv = game.position().parse_move(m, &rules).map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
                game.play(mv).map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
                frames.push(format!("ply {}: {mover} plays {m}\n{}", i + 1, rithmo::render::text(game.position())));
            }
            let status = game.status();
            (frames, vec![rithmo_outcome(rules, start, &game)], Some(status))
        }
        other => return Err(bad(format!("unknown game {}", other.unwrap_or("(none)")))),
    };
    result_holds(&record, moves.len(), &outcomes).map_err(bad)?;
    if show(&frames, args.step)? {
        return Ok(());
    }
    if let Some(s) = status.filter(|s| *s != rithmo::Status::Ongoing) {
        println!("{s}");
    }
    let result = match record["result"].as_str() {
        Some("first") => format!("{} ({}) wins", first.to_uppercase(), spec(first)),
        Some("second") => format!("{} ({}) wins", second.to_uppercase(), spec(second)),
        _ if record["ply_limit"].as_bool() == Some(true) => "drawn by the ply limit".into(),
        _ => "drawn".into(),
    };
    println!("Result after {}: {result}", engine::names::count(moves.len() as u64, "ply", "plies"));
    Ok(())
}

/// Prints the positions in turn; with `step` and a person at the terminal,
/// waits after each: Enter goes on, `b` steps back, `q` quits. Returns
/// whether the person quit.
fn show(frames: &[String], step: bool) -> Result<bool> {
    let stdin = std::io::stdin();
    let mut input = (step && stdin.is_terminal()).then(|| stdin.lock());
    let stdout = std::io::stdout();
    step_through(frames, input.as_mut().map(|i| i as &mut dyn BufRead), &mut stdout.lock())
}

/// Writes the frames to `out`, and with `input`, waits after each but the
/// last for a line: empty (or anything else) goes on, `b` steps back, `q`
/// quits (then `true`); the end of the input quits too.
fn step_through(frames: &[String], mut input: Option<&mut dyn BufRead>, out: &mut dyn Write) -> Result<bool> {
    let mut i = 0;
    while i < frames.len() {
        write!(out, "{}", frames[i])?;
        let Some(input) = input.as_deref_mut().filter(|_| i + 1 < frames.len()) else {
            i += 1;
            continue;
        };
        write!(out, "[Enter: next, b: back, q: quit] ")?;
        out.flush()?;
        let mut answer = String::new();
        if input.read_line(&mut answer)? == 0 {
            return Ok(true);
        }
        match answer.trim() {
            "q" | "quit" => return Ok(true),
            "b" | "back" => i = i.saturating_sub(1),
            _ => i += 1,
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frames shown for the lines typed.
    fn shown(typed: &str) -> (String, bool) {
        let frames: Vec<String> = (0..4).map(|i| format!("<{i}>")).collect();
        let mut out = Vec::new();
        let quit = step_through(&frames, Some(&mut typed.as_bytes()), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap().replace("[Enter: next, b: back, q: quit] ", "");
        (text, quit)
    }

    #[test]
    fn stepping_goes_on_back_and_quits() {
        assert_eq!(shown("\n\n\n"), ("<0><1><2><3>".into(), false));
        assert_eq!(shown("\nb\n\n\n\n"), ("<0><1><0><1><2><3>".into(), false));
        assert_eq!(shown("b\n\nq\n\n"), ("<0><0><1>".into(), true));
        assert_eq!(shown("\n"), ("<0><1>".into(), true));
        let frames = ["<0>".to_string(), "<1>".to_string()];
        let mut out = Vec::new();
        assert!(!step_through(&frames, None, &mut out).unwrap());
        assert_eq!(out, b"<0><1>");
    }
}
