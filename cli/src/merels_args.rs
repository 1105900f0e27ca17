//! Rules options shared by the merels commands, position arguments, and the
//! probe output shared with `ludus rota`.

use std::path::PathBuf;

use clap::Args;
use engine::merels::{Blocked, BoardKind, Dice, PlacementMills, Position, Rules, Throw, render};
use serde_json::json;
use solver::merels::report::ValueReport;
use solver::merels::{Eval, Observer, Solution, SolveOptions};

use crate::error::{CliError, Result};

/// Rules options of the merels family.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// A player with no legal move loses, passes, or the game is drawn
    #[arg(long, value_name = "RULE", value_enum, default_value_t = Blocked::Lose)]
    pub blocked: Blocked,
    /// Lines closed while placing: count (win on three-men boards, capture
    /// on the others) or forbidden [default: forbidden with --dice
    /// schaedler, count otherwise]
    #[arg(long, value_name = "RULE", value_enum)]
    pub placement_mills: Option<PlacementMills>,
}

/// Rules options of Rota (which has no dice).
#[derive(Args, Debug, Clone)]
pub struct RotaRuleArgs {
    /// A player with no legal move loses, passes, or the game is drawn
    #[arg(long, value_name = "RULE", value_enum, default_value_t = Blocked::Lose)]
    pub blocked: Blocked,
    /// Lines closed while placing: count (the line wins) or forbidden
    #[arg(long, value_name = "RULE", value_enum, default_value_t = PlacementMills::Count)]
    pub placement_mills: PlacementMills,
}

impl RotaRuleArgs {
    /// Rota's rules with the options.
    pub fn rules(&self) -> Rules {
        RuleArgs { blocked: self.blocked, placement_mills: Some(self.placement_mills) }.apply(Rules::rota())
    }
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
    pub fn apply(&self, mut rules: Rules) -> Rules {
        rules.blocked = self.blocked;
        if let Some(p) = self.placement_mills {
            rules.placement_mills = p;
        }
        rules
    }

    /// Whether any option differs from its default (for a game that has
    /// no such rules).
    pub fn any(&self) -> bool {
        self.blocked != Blocked::Lose || self.placement_mills.is_some()
    }
}

/// How an error names the option it refuses: as the command line's flag
/// (`--special-72 7`) or as the web API's query parameter (`special_72=7`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionNames {
    Flags,
    Params,
}

impl OptionNames {
    /// The option `key` (the parameter's name, `special_72`), with the
    /// value it was given if any.
    pub fn name(self, key: &str, value: Option<&dyn std::fmt::Display>) -> String {
        match (self, value) {
            (OptionNames::Flags, None) => format!("--{}", key.replace('_', "-")),
            (OptionNames::Flags, Some(v)) => format!("--{} {v}", key.replace('_', "-")),
            (OptionNames::Params, None) => key.to_string(),
            (OptionNames::Params, Some(v)) => format!("{key}={v}"),
        }
    }
}

impl MoreRuleArgs {
    /// Applies the options to the defaults of a board and reading; an
    /// option the rules refuse is named as on the command line.
    pub fn apply(&self, rules: Rules) -> Result<Rules> {
        self.apply_as(rules, OptionNames::Flags)
    }

    /// [`MoreRuleArgs::apply`], naming a refused option as `names` says.
    pub fn apply_as(&self, mut rules: Rules, names: OptionNames) -> Result<Rules> {
        rules = rules
            .with_diagonals(self.diagonals)
            .map_err(|e| CliError(format!("{}: {e}", names.name("diagonals", None))))?
            .try_with_special_72(self.special_72)?;
        rules.flying = self.flying;
        rules.no_take_from_mills = self.no_take_from_mills;
        rules.double_mill_one = self.double_mill_one;
        // Options that could change nothing would only give the same game
        // another name (and another database).
        let board = rules.board.kind;
        for (on, key) in [(self.no_take_from_mills, "no_take_from_mills"), (self.double_mill_one, "double_mill_one")] {
            if on && rules.board.line_wins() {
                return Err(CliError(format!(
                    "{}: on the {board} board a line wins, so no man is ever taken",
                    names.name(key, None)
                )));
            }
        }
        if rules.dice == Dice::None && self.special_72 != Rules::new(board, Dice::None).special_72 {
            return Err(CliError(format!(
                "{}: without dice ({}) there is no special throw",
                names.name("special_72", Some(&self.special_72)),
                names.name("dice", Some(&"none"))
            )));
        }
        Ok(rules)
    }
}

/// Where the databases live unless `--db` says otherwise.
pub const DEFAULT_DB: &str = "ludus-data/merels";

/// Where the databases live.
#[derive(Args, Debug, Clone)]
pub struct DbArgs {
    /// Directory of the sector databases (one subdirectory per rule set)
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DB, value_parser = parse_db_dir)]
    pub db: PathBuf,
    /// Solve in memory only: read and write no database
    #[arg(long, conflicts_with = "db")]
    pub no_db: bool,
}

impl DbArgs {
    pub fn dir(&self) -> Option<PathBuf> {
        (!self.no_db).then(|| self.db.clone())
    }
}

/// A database directory: any path but an existing file (a directory that
/// does not exist yet is made when a solve writes to it).
pub fn parse_db_dir(s: &str) -> std::result::Result<PathBuf, String> {
    if s.trim().is_empty() {
        return Err("an empty path names no directory".into());
    }
    let path = PathBuf::from(s);
    if path.exists() && !path.is_dir() {
        return Err(format!("'{s}' is a file, not a directory"));
    }
    Ok(path)
}

/// Reads a position given as one argument or as its four fields.
pub fn parse_position(parts: &[String], rules: &Rules) -> Result<Position> {
    let text = parts.join(" ");
    let pos: Position = text.parse()?;
    rules.check(&pos).map_err(|e| CliError(format!("impossible position '{text}': {e}")))?;
    Ok(pos)
}

/// The rules a position's board calls for, with the reading and options.
pub fn rules_for(kind: BoardKind, dice: Dice, basic: &RuleArgs, more: &MoreRuleArgs) -> Result<Rules> {
    Ok(basic.apply(more.apply(Rules::new(kind, dice))?))
}

/// Plays actions in notation from a position, refusing illegal ones (and
/// empty ones: `a1,,d1`).
pub fn play_moves(pos: Position, moves: &[String], rules: &Rules) -> Result<Position> {
    Ok(rules.play_texts(&pos, moves)?)
}

/// The most positions a probe solves on its own (counting each position
/// under chance in movement twenty times): a few seconds of work.
/// Beyond it, a probe names the `ludus merels solve` command that provides
/// them (or solves on `--solve`).
pub const PROBE_SOLVE_LIMIT: u64 = 2_000_000;

/// The groups play can reach from `from` whose sectors the database in
/// `db` (if any) does not all hold, in solving order, each with the
/// positions it lacks.
pub fn unsolved_groups(
    rules: &Rules,
    from: solver::merels::Sector,
    db: Option<&std::path::Path>,
) -> Vec<(Vec<solver::merels::Sector>, u64)> {
    use solver::merels::{BoardTables, Indexer, db::Db, sector::reached_groups, sector::solve_order};
    let tables = BoardTables::new(rules.board);
    let store = db.map(|root| Db::new(root, *rules));
    reached_groups(rules, solve_order(rules), from)
        .into_iter()
        .map(|g| {
            let lacking = g
                .iter()
                .filter(|s| !(s.is_stored() && store.as_ref().is_some_and(|d| d.holds(**s))))
                .map(|&s| Indexer::new(tables.clone(), s).size())
                .sum();
            (g, lacking)
        })
        .filter(|g| g.1 > 0)
        .collect()
}

/// The options of `ludus merels solve` (and the other merels commands)
/// that give these rules: the board, the reading, and what differs from
/// their defaults.
pub fn rule_options(rules: &Rules) -> String {
    let d = Rules::new(rules.board.kind, rules.dice);
    let mut s = format!("--board {} --dice {}", rules.board.kind, rules.dice);
    for (on, flag) in [
        (rules.board.diagonals, "--diagonals"),
        (rules.flying, "--flying"),
        (rules.no_take_from_mills, "--no-take-from-mills"),
        (rules.double_mill_one, "--double-mill-one"),
    ] {
        if on {
            s.push(' ');
            s.push_str(flag);
        }
    }
    if rules.blocked != d.blocked {
        s.push_str(&format!(" --blocked {}", rules.blocked.name()));
    }
    if rules.placement_mills != d.placement_mills {
        s.push_str(&format!(" --placement-mills {}", rules.placement_mills.name()));
    }
    if rules.special_72 != d.special_72 {
        s.push_str(&format!(" --special-72 {}", rules.special_72));
    }
    s
}

/// The `ludus merels solve` command that solves the sectors of up to
/// `max_men` men under `rules` into `db` (`--db` left out for the default
/// directory).
pub fn solve_command(rules: &Rules, max_men: u8, db: Option<&std::path::Path>) -> String {
    let mut c = format!("ludus merels solve {}", rule_options(rules));
    if max_men < 2 * rules.men() {
        c.push_str(&format!(" --max-men {max_men}"));
    }
    if let Some(dir) = db.filter(|d| *d != std::path::Path::new(DEFAULT_DB)) {
        c.push_str(&format!(" --db {}", dir.display()));
    }
    c
}

/// The `ludus merels solve` commands, one per line, that provide what a
/// position in sector `from` lacks (`unsolved`, by [`unsolved_groups`]):
/// with a database and at most three groups missing, all stored, each group
/// alone (`--group`, in order); otherwise every sector up to the position's
/// men.
pub fn solve_commands(
    rules: &Rules,
    from: solver::merels::Sector,
    unsolved: &[(Vec<solver::merels::Sector>, u64)],
    db: Option<&std::path::Path>,
) -> String {
    if db.is_some() && unsolved.len() <= 3 && unsolved.iter().all(|g| g.0[0].is_stored()) {
        let all = solve_command(rules, 2 * rules.men(), db);
        unsolved.iter().map(|g| format!("{all} --group {}", g.0[0].key())).collect::<Vec<_>>().join("\n")
    } else {
        solve_command(rules, from.men(), db)
    }
}

/// Solves what a position needs (reading finished sectors from the
/// database) and prints its value and every action rated.
pub fn probe(
    rules: &Rules,
    pos: &Position,
    db: Option<PathBuf>,
    json: bool,
    solve_anyway: bool,
    obs: &dyn Observer,
) -> Result<()> {
    let st = pos.state();
    let s = solver::merels::Sector::of(&st);
    let unsolved = unsolved_groups(rules, s, db.as_deref());
    let missing: u64 = unsolved.iter().map(|g| g.1).sum();
    // Value iteration over chance in movement costs some twenty sweeps.
    let work = if rules.dice_in_movement() { 20 * missing } else { missing };
    if work > PROBE_SOLVE_LIMIT && !solve_anyway {
        let commands = solve_commands(rules, s, &unsolved, db.as_deref()).replace('\n', "\n  ");
        return Err(CliError(match &db {
            Some(d) => format!(
                "this probe needs {missing} positions solved that the database in {} does not hold; solve them \
                 first with\n  {commands}\n(or add --solve to solve them now)",
                d.display()
            ),
            None => format!(
                "this probe needs {missing} positions solved, and --no-db reads no database: add --solve to \
                 solve them now in memory, or solve them into a database first with\n  {commands}\nand probe \
                 without --no-db"
            ),
        }));
    }
    let sol = match db {
        // All stored: only the tables around the position are read.
        Some(dir) if unsolved.is_empty() => Solution::around(*rules, dir, &st)?,
        db => {
            // Solved a group at a time, each table dropped once no later
            // group reads it, then the ones around the position read again.
            let keep_all = db.is_none();
            let opts = SolveOptions { db, from: Some(s), keep_all, ..SolveOptions::default() };
            let mut sol = Solution::solve_with(*rules, &opts, obs)?;
            sol.ensure_around(&st)?;
            sol
        }
    };
    let value = valued(rules, pos, &sol)?;
    if json {
        let out = probe_json(rules, pos, &sol)?;
        return crate::common::print_json(&out);
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

/// The value of a position whose tables `sol` holds, and a check that
/// every successor has one: a value missing there means a damaged file.
fn valued(rules: &Rules, pos: &Position, sol: &Solution) -> Result<Eval> {
    let st = pos.state();
    let damaged = |at: &Position| {
        CliError(format!(
            "the database holds no value for {at}, though it holds the file of its sector: the file is damaged \
             (`ludus merels verify {}` checks every file; solving again replaces it)",
            rule_options(rules)
        ))
    };
    let value = sol.eval(&st).ok_or_else(|| match sol.table(solver::merels::Sector::of(&st)) {
        Some(_) => damaged(pos),
        None => CliError(format!("{pos} is outside the solved positions")),
    })?;
    if !rules.lost(&st)
        && let Some((_, child)) = sol.unvalued_action(&st)
    {
        return Err(damaged(&Position::from_state(rules.board.kind, pos.to_move.other(), child)));
    }
    Ok(value)
}

/// The probe as one JSON object: the position's value for the side to move
/// and every action rated, best first within each throw (none once the game
/// is over).
pub fn probe_json(rules: &Rules, pos: &Position, sol: &Solution) -> Result<serde_json::Value> {
    let st = pos.state();
    let value = valued(rules, pos, sol)?;
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
