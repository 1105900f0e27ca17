//! Rules options shared by the merels commands, position arguments, and the
//! probe output shared with `ludus rota`.

use std::path::PathBuf;

use clap::Args;
use engine::merels::{Action, Blocked, BoardKind, Dice, PlacementMills, Position, Rules, Throw, render};
use serde_json::json;
use solver::merels::report::ValueReport;
use solver::merels::{Eval, Observer, Solution, SolveOptions};

use crate::error::{CliError, Result};

/// Rules options of the merels family.
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// A player with no legal move: loses, passes, or the game is drawn
    #[arg(long, value_name = "RULE", value_parser = ["lose", "pass", "draw"])]
    pub blocked: Option<String>,
    /// Lines closed while placing: count (win on three-men boards, capture
    /// on the others) or forbidden [default: count; forbidden for schaedler]
    #[arg(long, value_name = "RULE", value_parser = ["count", "forbidden"])]
    pub placement_mills: Option<String>,
}

/// The options that only the square boards and dice need.
#[derive(Args, Debug, Clone, Default)]
pub struct MoreRuleArgs {
    /// Diagonals on the `three` board: two more lines, steps through b2
    #[arg(long)]
    pub diagonals: bool,
    /// With exactly three men left a man may move to any empty point
    #[arg(long)]
    pub flying: bool,
    /// A man in a mill may be taken only when all enemy men stand in mills
    #[arg(long)]
    pub no_take_from_mills: bool,
    /// Closing two mills at once removes one man, not two
    #[arg(long)]
    pub double_mill_one: bool,
    /// Probability of a special throw in 72nds (5 with real dice); other
    /// values are for experiments and cross-checks
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=72))]
    pub special_72: u8,
}

impl RuleArgs {
    /// Applies the options to the defaults of a board and reading.
    pub fn apply(&self, mut rules: Rules) -> Result<Rules> {
        if let Some(b) = &self.blocked {
            rules.blocked = b.parse::<Blocked>()?;
        }
        if let Some(p) = &self.placement_mills {
            rules.placement_mills = p.parse::<PlacementMills>()?;
        }
        Ok(rules)
    }
}

impl MoreRuleArgs {
    pub fn apply(&self, mut rules: Rules) -> Result<Rules> {
        if self.diagonals && rules.board.kind != BoardKind::Three {
            return Err(CliError(format!("--diagonals is an option of the three board, not {}", rules.board.kind)));
        }
        rules = rules.with_diagonals(self.diagonals);
        rules.flying = self.flying;
        rules.no_take_from_mills = self.no_take_from_mills;
        rules.double_mill_one = self.double_mill_one;
        rules.special_72 = self.special_72;
        Ok(rules)
    }
}

/// Where the databases live.
#[derive(Args, Debug, Clone)]
pub struct DbArgs {
    /// Directory of the sector databases (one subdirectory per rule set)
    #[arg(long, value_name = "DIR", default_value = "ludus-data/merels")]
    pub db: PathBuf,
    /// Solve in memory only: read and write no database
    #[arg(long)]
    pub no_db: bool,
}

impl DbArgs {
    pub fn dir(&self) -> Option<PathBuf> {
        (!self.no_db).then(|| self.db.clone())
    }
}

/// Reads a position given as one argument or as its four fields.
pub fn parse_position(parts: &[String], rules: &Rules) -> Result<Position> {
    let text = parts.join(" ");
    let pos: Position = text.parse().map_err(|e: engine::merels::ParsePositionError| CliError(e.to_string()))?;
    rules.check(&pos).map_err(|e| CliError(format!("impossible position '{text}': {e}")))?;
    Ok(pos)
}

/// The rules a position's board calls for, with the reading and options.
pub fn rules_for(kind: BoardKind, dice: Dice, basic: &RuleArgs, more: &MoreRuleArgs) -> Result<Rules> {
    basic.apply(more.apply(Rules::new(kind, dice))?)
}

/// Plays actions in notation from a position, refusing illegal ones. Turns
/// that start with a throw take the throw as a prefix: `special:a1^d1`,
/// `normal:a1-a4`.
pub fn play_moves(mut pos: Position, moves: &[String], rules: &Rules) -> Result<Position> {
    let board = rules.board;
    for m in moves.iter().map(|m| m.trim()).filter(|m| !m.is_empty()) {
        let st = pos.state();
        if rules.lost(&st) {
            return Err(CliError(format!("cannot play '{m}': the game is over in {pos}")));
        }
        let (throw, text) = match m.split_once(':') {
            Some(("special", t)) => (Throw::Special, t),
            Some(("normal", t)) => (Throw::Normal, t),
            Some((other, _)) => {
                return Err(CliError(format!("'{other}' in '{m}' is not a throw (expected special or normal)")));
            }
            None => (Throw::Normal, m),
        };
        let throw = if rules.throws(&st) { throw } else { Throw::None };
        if throw == Throw::None && m.contains(':') {
            return Err(CliError(format!("'{m}': no dice are thrown before this turn")));
        }
        let action = Action::parse(text, board)?;
        let legal = rules.actions(&st, throw);
        let Some((_, next)) = legal.iter().find(|(a, _)| *a == action) else {
            let names: Vec<String> = legal.iter().map(|(a, _)| a.display(board).to_string()).collect();
            return Err(CliError(format!(
                "'{m}' is not legal for {} in {pos}{}; legal: {}",
                pos.to_move,
                if throw == Throw::Special { " after a special throw" } else { "" },
                if names.is_empty() { "none".to_string() } else { names.join(" ") }
            )));
        };
        pos = Position::from_state(pos.kind, pos.to_move.other(), *next);
    }
    Ok(pos)
}

/// Solves what a position needs (reading finished sectors from the
/// database) and prints its value and every action rated.
pub fn probe(rules: &Rules, pos: &Position, db: Option<PathBuf>, json: bool, obs: &dyn Observer) -> Result<()> {
    let st = pos.state();
    let s = solver::merels::Sector::of(&st);
    let opts = SolveOptions { db, max_men: Some(s.w + s.wf + s.b + s.bf), keep_all: true, ..SolveOptions::default() };
    let sol = Solution::solve_with(*rules, &opts, obs).map_err(|e| CliError(e.to_string()))?;
    let value = sol.eval(&st).ok_or_else(|| CliError(format!("{pos} is outside the solved positions")))?;
    if json {
        let out = probe_json(rules, pos, &sol)?;
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| CliError(e.to_string()))?);
        return Ok(());
    }
    let rated = if rules.lost(&st) { Vec::new() } else { sol.rate_actions(&st) };
    let board = rules.board;
    let vr = ValueReport::from_eval(value, sol.den);
    println!("{}", render(pos, board));
    println!("{pos}   ({})", rules.label());
    println!("Value for {} (to move): {}", pos.to_move, describe(&value, &vr));
    if rated.is_empty() {
        println!("No moves: the game is over.");
        return Ok(());
    }
    let mut last = None;
    for (t, a, e) in &rated {
        if last != Some(*t) {
            match throw_name(*t) {
                Some(n) => println!("After a {n} throw, best first:"),
                None => println!("Moves, best first:"),
            }
            last = Some(*t);
        }
        let r = ValueReport::from_eval(*e, sol.den);
        println!("  {:<16} {}", a.display(board).to_string(), describe(e, &r));
    }
    Ok(())
}

/// A throw by name: `normal`, `special`, or none when no dice are thrown.
pub fn throw_name(t: Throw) -> Option<&'static str> {
    match t {
        Throw::None => None,
        Throw::Normal => Some("normal"),
        Throw::Special => Some("special"),
    }
}

/// The probe as one JSON object: the position's value for the side to move
/// and every action rated, best first within each throw (none once the game
/// is over).
pub fn probe_json(rules: &Rules, pos: &Position, sol: &Solution) -> Result<serde_json::Value> {
    let st = pos.state();
    let value = sol.eval(&st).ok_or_else(|| CliError(format!("{pos} is outside the solved positions")))?;
    let rated = if rules.lost(&st) { Vec::new() } else { sol.rate_actions(&st) };
    let board = rules.board;
    let moves: Vec<_> = rated
        .iter()
        .map(|(t, a, e)| {
            let mut v = serde_json::to_value(ValueReport::from_eval(*e, sol.den)).expect("json");
            v["move"] = json!(a.display(board).to_string());
            v["throw"] = json!(throw_name(*t));
            v
        })
        .collect();
    let mut out = serde_json::to_value(ValueReport::from_eval(value, sol.den)).expect("json");
    out["position"] = json!(pos.to_string());
    out["side"] = json!(pos.to_move.to_string());
    out["rules"] = json!(rules.label());
    out["moves"] = json!(moves);
    Ok(out)
}

/// A value in words: `win in 5`, `7/72 (0.0972)`, `0.1234 (proved in [0.1230, 0.1238])`.
pub fn describe(e: &Eval, r: &ValueReport) -> String {
    match e {
        Eval::Dtm(v) => v.to_string(),
        Eval::Exact(_) => format!("{:+.6} = {}", r.value, r.exact.as_deref().unwrap_or("?")),
        Eval::Chance(iv) => {
            if iv.lo == iv.hi {
                format!("{:+.6}", r.value)
            } else {
                format!("{:+.6} (proved in [{:+.6}, {:+.6}])", r.value, r.lower, r.upper)
            }
        }
    }
}
