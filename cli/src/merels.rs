//! `ludus merels`: solve the merels family with and without dice, probe and
//! draw positions.

use std::time::Instant;

use clap::{Args, Subcommand};
use engine::merels::{BoardKind, Dice, Position, Rules, render};
use solver::merels::plan::human_bytes;
use solver::merels::report::{MerelsReport, report_with};
use solver::merels::strategy::Moves;
use solver::merels::{Interrupt, Observer, Solution, SolveError, SolveOptions};

use crate::common::{parse_gib, parse_threads, pool, print_json};
use crate::error::{CliError, Result};
use crate::merels_args::{
    DEFAULT_DB, DbArgs, MoreRuleArgs, RuleArgs, parse_db_dir, parse_position, play_moves, probe, rules_for,
};
use crate::progress::Bars;

#[derive(Args, Debug)]
pub struct MerelsArgs {
    #[command(subcommand)]
    cmd: MerelsCmd,
}

/// A board, its dice reading and its rule options: what a solve is of.
#[derive(Args, Debug)]
struct RuleSet {
    /// The board
    #[arg(long, value_enum)]
    board: BoardKind,
    /// The dice reading
    #[arg(long, value_enum, default_value_t = Dice::Schaedler)]
    dice: Dice,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    more: MoreRuleArgs,
}

impl RuleSet {
    fn resolve(&self) -> Result<Rules> {
        rules_for(self.board, self.dice, &self.rules, &self.more)
    }
}

/// `ludus merels solve --children`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Children {
    Auto,
    Stored,
    Half,
    Generated,
}

/// A rule set's database: what `plan`, `verify` and `compact` work on.
#[derive(Args, Debug)]
struct OnDatabase {
    #[command(flatten)]
    game: RuleSet,
    /// Directory of the sector databases (one subdirectory per rule set)
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DB, value_parser = parse_db_dir)]
    db: std::path::PathBuf,
}

#[derive(Subcommand, Debug)]
enum MerelsCmd {
    /// Solve a board under a dice reading completely (or its endgames up to
    /// --max-men) and report the start position's value
    Solve {
        #[command(flatten)]
        game: RuleSet,
        #[command(flatten)]
        db: DbArgs,
        /// Solve only sectors with at most this many men in all (endgames)
        #[arg(long, value_name = "N")]
        max_men: Option<u8>,
        /// Memory a sector group may use, in GiB (a larger group is refused
        /// with its estimate; everything smaller stays on disk; a group with
        /// its parents generated keeps some it found in what its estimate
        /// leaves, to save time)
        #[arg(long, value_name = "GIB", default_value_t = 14.0, value_parser = parse_gib)]
        memory: f64,
        /// Under chance, how a group keeps its positions' in-group children
        /// and parents: in lists (fast, about 8 bytes per child), half (the
        /// children in lists, 4 bytes per child, the parents generated from
        /// the rules when read), generated (no lists, slowest), all with
        /// the same values and files; or auto: the fastest with which the
        /// group fits --memory
        #[arg(long, value_name = "HOW", value_enum, default_value_t = Children::Auto)]
        children: Children,
        /// Solve only the sector group holding this sector (`w-wf-b-bf`, as
        /// `ludus merels plan` lists them) from its successors' files in the
        /// database; refused while any of them is missing
        #[arg(long, value_name = "KEY")]
        group: Option<String>,
        /// How often a large group saves its progress in the database
        /// (`<group>.resume`): a solve that is stopped and started again
        /// resumes from there, with the same result. Ctrl-C (SIGINT) or
        /// SIGTERM makes the group save at its next chance and the solve
        /// stop (exit code 130 or 143); a second signal stops it at once
        #[arg(long, value_name = "SECONDS", default_value_t = 600)]
        checkpoint_every: u64,
        /// Worker threads [default: one per core]; the values do not depend on it
        #[arg(long, value_name = "T", value_parser = parse_threads)]
        threads: Option<usize>,
        /// No progress bars
        #[arg(long, short)]
        quiet: bool,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// List the sector groups a solve works through, in order: each group's
    /// files, the groups it reads, its size and memory, and whether its
    /// files are in the database (for workflow engines: one job per group);
    /// and the memory a check of the finished database holds
    Plan {
        #[command(flatten)]
        on: OnDatabase,
        /// Only the groups whose sectors have at most this many men in all
        #[arg(long, value_name = "N")]
        max_men: Option<u8>,
        /// The memory a solve and a check are given, in GiB (`ludus merels
        /// solve --memory`, `ludus merels verify --memory`): the groups that
        /// need more are named, and the check's figure follows it
        #[arg(long, value_name = "GIB", default_value_t = 14.0, value_parser = parse_gib)]
        memory: f64,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// Check a finished database against itself: every stored position's
    /// value against its successors' stored values (exit 1 on a failure)
    Verify {
        #[command(flatten)]
        on: OnDatabase,
        /// Only the sectors with at most this many men in all, on the board
        /// and in hand (a database solved that far)
        #[arg(long, value_name = "N")]
        max_men: Option<u8>,
        /// Worker threads [default: one per core]; the results do not depend on it
        #[arg(long, value_name = "T", value_parser = parse_threads)]
        threads: Option<usize>,
        /// Memory for the tables kept for sectors still to check, in GiB:
        /// beyond it they are dropped and read again when needed (`ludus
        /// merels plan` tells what a check holds)
        #[arg(long, value_name = "GIB", default_value_t = 14.0, value_parser = parse_gib)]
        memory: f64,
        /// When every check holds, write the SHA-256 of every sector file
        /// read to MANIFEST in the rules' database directory (the format of
        /// `sha256sum`: `sha256sum -c MANIFEST` there checks it)
        #[arg(long)]
        manifest: bool,
        /// Take up the sectors that an earlier check passed (kept in VERIFIED
        /// in the database's directory) where neither their file nor their
        /// successors' files have changed since; check only the others.
        /// Under Murray's and Bell's readings a movement sector, whose file
        /// is the game without dice's, is also taken up from that database's
        /// VERIFIED
        #[arg(long)]
        resume: bool,
        /// No progress bars
        #[arg(long, short)]
        quiet: bool,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// Rewrite the sector files of a database written in an older,
    /// uncompressed format in the current one (each read whole and checked
    /// first, then replaced atomically); the values do not change
    Compact {
        #[command(flatten)]
        on: OnDatabase,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// The value of a position and every action rated, best first
    Probe {
        #[command(flatten)]
        at: At,
        #[command(flatten)]
        db: DbArgs,
        /// Solve what the database lacks even when it is large (a probe
        /// otherwise refuses and names the `ludus merels solve` command)
        #[arg(long)]
        solve: bool,
        /// No progress reports
        #[arg(long, short)]
        quiet: bool,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// Draw a position in the terminal
    Show {
        #[command(flatten)]
        at: At,
    },
}

/// A position with the rules it is played under and actions to play first.
#[derive(Args, Debug)]
struct At {
    /// The position: `<board>:<points> <side> <hand-x> <hand-o>`
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
    /// The dice reading
    #[arg(long, value_enum, default_value_t = Dice::Schaedler)]
    dice: Dice,
    /// Actions to play first, comma separated (`d1,a1-a4`; after a throw:
    /// `special:b6^d1xg7`)
    #[arg(long, value_delimiter = ',')]
    play: Vec<String>,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    more: MoreRuleArgs,
}

impl At {
    /// The rules and the position after the actions.
    fn resolve(&self) -> Result<(engine::merels::Rules, Position)> {
        let rules = rules_for(board_of(&self.position)?, self.dice, &self.rules, &self.more)?;
        let pos = play_moves(parse_position(&self.position, &rules)?, &self.play, &rules)?;
        Ok((rules, pos))
    }
}

/// The board named in a position string, for choosing the rules.
fn board_of(parts: &[String]) -> Result<BoardKind> {
    let text = parts.join(" ");
    Ok(text.parse::<Position>()?.kind)
}

/// Refuses a `--max-men` that takes no sector: the smallest have three
/// men a side.
fn check_max_men(max_men: Option<u8>) -> Result<()> {
    match max_men {
        Some(m) if m < 6 => Err(CliError(format!(
            "--max-men {m} takes no sector: the smallest sectors have 3 men a side, so it must be at least 6"
        ))),
        _ => Ok(()),
    }
}

pub fn run(args: MerelsArgs) -> Result<()> {
    match args.cmd {
        MerelsCmd::Plan { on, max_men, memory, json } => {
            check_max_men(max_men)?;
            let OnDatabase { game, db } = on;
            let rules = game.resolve()?;
            plan(&rules, &db, max_men, gib(memory), json)
        }
        MerelsCmd::Solve { game, db, max_men, memory, children, group, checkpoint_every, threads, quiet, json } => {
            check_max_men(max_men)?;
            let rules = game.resolve()?;
            let opts = SolveOptions {
                db: db.dir(),
                max_men,
                from: None,
                keep_all: rules.board.kind != BoardKind::Nine || db.no_db,
                memory_limit: gib(memory),
                moves: match children {
                    Children::Auto => None,
                    Children::Stored => Some(Moves::Stored),
                    Children::Half => Some(Moves::Half),
                    Children::Generated => Some(Moves::Generated),
                },
                group,
                checkpoint_every: std::time::Duration::from_secs(checkpoint_every),
                use_spare: true,
                interrupt: Some(Interrupt::default()),
            };
            let t = Instant::now();
            let bars = Bars::new(quiet);
            let one = opts.group.is_some();
            let pool = pool(threads, u64::MAX)?;
            let interrupt = opts.interrupt.as_ref().expect("set above");
            let solved = crate::interrupt::on_signals(interrupt, &bars, || {
                pool.install(|| Solution::solve_with(rules, &opts, &bars))
            })?;
            let mut sol = match solved {
                Err(e @ SolveError::Interrupted { why, .. }) => {
                    bars.finish();
                    eprintln!("ludus: {}: {e}", crate::interrupt::signal_name(why));
                    std::process::exit(crate::interrupt::exit_code(why));
                }
                other => other?,
            };
            let (mut chances, mut missing) = (None, None);
            if !one && sol.complete() {
                // Where chance is only in the placement, the chances of
                // perfect play a layer at a time (reading the tables again
                // where a solve a group at a time dropped them); the start
                // and its moves need theirs back for the report.
                // Layers that do not fit in --memory: said, and the report
                // goes on without them (the values are all there).
                (chances, missing) = solver::merels::report::layered_or_why(&mut sol, opts.memory_limit, &bars)?;
                if let Some(why) = &missing {
                    eprintln!("ludus: {why}");
                }
                sol.ensure_around(&engine::merels::State::start(rules.men()))?;
            }
            if one {
                return group_report(&sol, t.elapsed().as_secs_f64(), json);
            }
            let r = report_with(&sol, t.elapsed().as_secs_f64(), chances, missing);
            if json {
                print_json(&r)?;
            } else {
                print_report(&r, &sol);
            }
            Ok(())
        }
        MerelsCmd::Compact { on, json } => {
            let OnDatabase { game, db } = on;
            let rules = game.resolve()?;
            let store = solver::merels::db::Db::new(&db, rules);
            if !store.dir().is_dir() {
                return Err(CliError(format!(
                    "no database of {} in {}: nothing to compact",
                    rules.label(),
                    store.dir().display()
                )));
            }
            let tables = solver::merels::BoardTables::new(rules.board);
            let mut rewritten = Vec::new();
            let (mut before, mut after) = (0u64, 0u64);
            for s in solver::merels::sector::solve_order(&rules).into_iter().flatten().filter(|s| s.is_stored()) {
                let ix = solver::merels::Indexer::new(tables.clone(), s);
                if let Some((b, a)) = store.compact(ix).map_err(|e| CliError(format!("sector {}: {e}", s.key())))? {
                    if !json {
                        println!("{}: {b} -> {a} bytes", s.key());
                    }
                    rewritten.push(serde_json::json!({"sector": s.key(), "bytes_before": b, "bytes_after": a}));
                    before += b;
                    after += a;
                }
            }
            if json {
                print_json(&serde_json::json!({
                    "rules": rules.label(),
                    "directory": store.dir().display().to_string(),
                    "rewritten": rewritten,
                    "bytes_before": before,
                    "bytes_after": after,
                }))?;
            } else {
                println!(
                    "{} files of {} in {} rewritten: {before} -> {after} bytes",
                    rewritten.len(),
                    rules.label(),
                    store.dir().display()
                );
            }
            Ok(())
        }
        MerelsCmd::Verify { on, max_men, threads, memory, manifest, resume, quiet, json } => {
            check_max_men(max_men)?;
            let OnDatabase { game, db } = on;
            let rules = game.resolve()?;
            let bars = Bars::new(quiet);
            // The manifest is written by the same workers, from the database
            // just checked, only when something was checked and all holds.
            let (r, written) = pool(threads, u64::MAX)?.install(|| -> Result<_> {
                let mut sol = Solution::open(rules, db)?;
                let r = solver::merels::verify::verify_within(&mut sol, max_men, resume, gib(memory), &bars)?;
                let written = match (manifest && r.ok() && !r.sectors.is_empty(), sol.database()) {
                    (true, Some(store)) => Some(solver::merels::manifest::write(store, &r.files)?),
                    _ => None,
                };
                Ok((r, written))
            })?;
            if r.sectors.is_empty() {
                return Err(CliError(format!(
                    "no sector files of {} in {}: nothing to verify (solve first with `ludus merels solve`)",
                    r.rules, r.directory
                )));
            }
            if json {
                let mut v = serde_json::to_value(&r)?;
                if let Some((path, entries)) = &written {
                    v["manifest"] = serde_json::json!({"path": path, "files": entries});
                }
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print_verify(&r);
                if let Some((path, entries)) = &written {
                    println!("Manifest of {} files written to {}", entries.len(), path.display());
                }
            }
            if manifest && !r.ok() {
                eprintln!("no manifest written: the database has failures or sector files that could not be checked");
            }
            if !r.ok() {
                std::process::exit(1);
            }
            Ok(())
        }
        MerelsCmd::Probe { at, db, solve, quiet, json } => {
            let (rules, pos) = at.resolve()?;
            probe(&rules, &pos, db.dir(), json, solve, &Bars::new(quiet))
        }
        MerelsCmd::Show { at } => {
            let (rules, pos) = at.resolve()?;
            println!("{}", render(&pos, rules.board));
            println!("{pos}");
            Ok(())
        }
    }
}

/// `1 sector`, `2 sectors`.
fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

fn print_verify(r: &solver::merels::verify::VerifyReport) {
    println!("Merels verify: {} in {}\n", r.rules, r.directory);
    println!(
        "{:<12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>10}",
        "sector", "positions", "wins", "draws", "losses", "residual", "failures"
    );
    for s in &r.sectors {
        println!(
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>12.2e} {:>10}",
            format!("{}{}", s.sector, if s.resumed { "*" } else { "" }),
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.max_residual,
            s.failures.len() as u64 + s.more_failures
        );
        for f in &s.failures {
            if f.computed.is_empty() {
                println!("    FAIL {}: {}", f.position, f.stored);
            } else {
                println!("    FAIL {}: stored {}, successors give {}", f.position, f.stored, f.computed);
            }
        }
        if s.more_failures > 0 {
            println!("    … and {} more", s.more_failures);
        }
    }
    if !r.missing.is_empty() {
        println!("\nNot solved yet ({}): {}", count(r.missing.len(), "sector"), r.missing.join(" "));
    }
    if !r.unchecked.is_empty() {
        println!(
            "\nNOT CHECKED ({}: a successor's file is missing, damaged or failed its check): {}",
            count(r.unchecked.len(), "sector"),
            r.unchecked.join(" ")
        );
    }
    let resumed = r.sectors.iter().filter(|s| s.resumed).count();
    if resumed > 0 {
        println!(
            "\n* {resumed} sectors passed an earlier check of the same files (taken from the journal, --resume; under Murray's and Bell's readings movement sectors also from the journal of the game without dice)"
        );
    }
    println!(
        "\n{} positions in {} sector files; largest residual {:.2e}; {}",
        r.positions,
        r.sectors.len(),
        r.max_residual,
        match (r.failures, r.unchecked.len()) {
            (0, 0) => "every stored value holds".to_string(),
            (0, u) => format!("every value checked holds, but {} could not be checked", count(u, "sector file")),
            (1, _) => "1 FAILURE".to_string(),
            (f, _) => format!("{f} FAILURES"),
        }
    );
}

/// What `solve --group` did: the group's sectors, their positions and
/// whether they were solved now or found finished.
fn group_report(sol: &Solution, seconds: f64, json: bool) -> Result<()> {
    let rec = sol.records.last().ok_or_else(|| CliError("no group was solved".into()))?;
    let sectors: Vec<serde_json::Value> = rec
        .sectors
        .iter()
        .map(|&s| {
            let sum = sol.summary(s);
            serde_json::json!({
                "sector": s.key(),
                "positions": sum.map(|x| x.census.positions),
                "open": sum.map(|x| x.census.open),
                "error_bound": sum.map(|x| x.meta.error),
            })
        })
        .collect();
    let positions: u64 = rec.sectors.iter().filter_map(|&s| sol.summary(s)).map(|x| x.census.positions).sum();
    if json {
        return print_json(&serde_json::json!({
            "rules": sol.rules.label(),
            "group": rec.sectors[0].key(),
            "already_solved": rec.loaded,
            "positions": positions,
            "seconds": seconds,
            "sectors": sectors,
        }));
    }
    let keys: Vec<String> = rec.sectors.iter().map(|s| s.key()).collect();
    println!(
        "Merels solve: {}, group {} ({}): {} positions {} in {:.2} s",
        sol.rules.label(),
        keys[0],
        keys.join(" "),
        positions,
        if rec.loaded { "already solved, read" } else { "solved" },
        seconds
    );
    Ok(())
}

/// A line on an unfinished group's claim and saved progress.
fn underway_line(key: &str, u: &solver::merels::plan::Underway) -> String {
    let mut parts = Vec::new();
    if let Some(who) = &u.claimed_by {
        let state = match u.running {
            Some(true) => " (running)",
            Some(false) => " (not running: the next solve takes it over)",
            None => "",
        };
        parts.push(format!("claimed by {who}{state}"));
    }
    if let Some(s) = &u.saved {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let ago = now.saturating_sub(s.unix_time);
        let ago = match ago {
            0..120 => format!("{ago} s"),
            120..7200 => format!("{} min", ago / 60),
            _ => format!("{:.1} h", ago as f64 / 3600.0),
        };
        let place = match (&s.part, s.round) {
            (Some(part), Some(round)) => format!("mill level {}, {part}, round {round}", s.level),
            _ => format!("the start of level {}", s.level),
        };
        parts.push(format!("progress saved {ago} ago ({}) at {place}", human_bytes(s.bytes)));
    }
    format!("{key}: {}", parts.join("; "))
}

/// `ludus merels plan`.
fn plan(rules: &Rules, root: &std::path::Path, max_men: Option<u8>, limit: u64, json: bool) -> Result<()> {
    let db = solver::merels::db::Db::new(root, *rules);
    let groups = solver::merels::plan::plan_within(rules, max_men, limit);
    // The groups a solve given `limit` refuses.
    let over: Vec<&str> = groups.iter().filter(|g| g.memory > limit).map(|g| g.key.as_str()).collect();
    // A finished group's proven error: the largest of its files' (0 where
    // the values are exact); `None` where a file is missing.
    let proven = |g: &solver::merels::plan::PlannedGroup| {
        g.sectors.iter().try_fold(0f64, |e, k| {
            solver::merels::Sector::from_key(k).and_then(|s| db.stored_meta(s)).map(|m| e.max(m.error))
        })
    };
    let errors: Vec<Option<f64>> = groups.iter().map(proven).collect();
    let finished: Vec<bool> = errors.iter().map(Option::is_some).collect();
    // The unfinished groups' claims and saved progress.
    let tables = solver::merels::BoardTables::new(rules.board);
    let underway: Vec<Option<solver::merels::plan::Underway>> = groups
        .iter()
        .zip(&finished)
        .map(|(g, &f)| {
            let sectors: Option<Vec<_>> = g.sectors.iter().map(|k| solver::merels::Sector::from_key(k)).collect();
            (!f).then(|| solver::merels::plan::underway(db.dir(), rules, &tables, &sectors?)).flatten()
        })
        .collect();
    let total: u64 = groups.iter().map(|g| g.indices).sum();
    let solved: u64 = groups.iter().zip(&finished).filter(|(_, f)| **f).map(|(g, _)| g.indices).sum();
    let verify_memory = groups.iter().map(|g| g.verify_memory).max().unwrap_or(0);
    if json {
        let list: Vec<serde_json::Value> = groups
            .iter()
            .zip(&errors)
            .zip(&underway)
            .map(|((g, &e), u)| {
                let mut v = serde_json::to_value(g).expect("a plain record");
                v["done"] = e.is_some().into();
                v["error"] = e.into();
                v["underway"] = serde_json::to_value(u).expect("a plain record");
                v
            })
            .collect();
        return print_json(&serde_json::json!({
            "rules": rules.label(),
            "directory": db.dir().display().to_string(),
            "indices": total,
            "indices_done": solved,
            "verify_memory": verify_memory,
            "memory_limit": limit,
            "over_memory": over,
            "groups": list,
        }));
    }
    println!("Merels plan: {} in {}\n", rules.label(), db.dir().display());
    println!(
        "{:<12} {:<22} {:>14} {:>12}  {:<5} {:>8}  needs",
        "group", "sectors", "indices", "memory", "done", "error"
    );
    for (g, &e) in groups.iter().zip(&errors) {
        // The groups whose solve generates the parents (h) or both the
        // children and the parents (g) to fit.
        let mark = match g.children {
            Some(Moves::Half) => " h",
            Some(Moves::Generated) => " g",
            _ => "",
        };
        println!(
            "{:<12} {:<22} {:>14} {:>12}  {:<5} {:>8}  {}",
            g.key,
            g.sectors.join(" "),
            g.indices,
            human_bytes(g.memory) + mark,
            if e.is_some() { "yes" } else { "no" },
            match e {
                Some(0.0) => "exact".to_string(),
                Some(e) => format!("{e:.1e}"),
                None => "-".to_string(),
            },
            if g.needs.is_empty() { "-".to_string() } else { g.needs.join(" ") }
        );
    }
    println!(
        "\n{} groups, {} done: {solved} of {total} indices ({:.1}%); `ludus merels solve ... --group KEY` solves one.",
        groups.len(),
        finished.iter().filter(|&&f| f).count(),
        100.0 * solved as f64 / total.max(1) as f64
    );
    let widest = groups.iter().zip(&errors).filter_map(|(g, e)| Some((g, (*e)?))).max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((g, e)) = widest.filter(|&(_, e)| e > 0.0) {
        let open = 2.0 * e > solver::merels::table::OPEN_WIDTH;
        println!(
            "Proven error of the finished groups at most {e:.2e} ({}): proven intervals at most {:.2e} wide{}",
            g.key,
            2.0 * e,
            if open { ", wider than 1e-6 there: positions are left open" } else { "" }
        );
    }
    for (g, u) in groups.iter().zip(&underway) {
        if let Some(u) = u {
            println!("{}", underway_line(&g.key, u));
        }
    }
    if groups.iter().any(|g| g.children == Some(Moves::Half)) {
        println!(
            "h: its in-group parents are generated rather than stored (its children are listed), to fit `--memory` (`ludus merels solve --children`)."
        );
    }
    if groups.iter().any(|g| g.children == Some(Moves::Generated)) {
        println!(
            "g: its in-group children and parents are generated rather than stored, to fit `--memory` (`ludus merels solve --children`)."
        );
    }
    if !over.is_empty() {
        let (count, verb) = match over.len() {
            1 => ("1 group".to_string(), "needs"),
            k => (format!("{k} groups"), "need"),
        };
        println!(
            "{count} {verb} more than the {} a solve is given (`--memory`): {}.",
            human_bytes(limit),
            over.join(" ")
        );
    }
    println!("Checking the finished database (`ludus merels verify`) holds about {}.", human_bytes(verify_memory));
    Ok(())
}

/// Bytes from a number of GiB (negative: none).
fn gib(g: f64) -> u64 {
    (g.max(0.0) * (1u64 << 30) as f64) as u64
}

fn print_report(r: &MerelsReport, sol: &Solution) {
    use crate::merels_args::describe;
    println!("Merels solve: {}", r.rules);
    if let Some(db) = sol.database() {
        println!("Database: {}", db.dir().display());
    }
    println!();
    match &r.start {
        Some(s) => {
            let start = engine::merels::State::start(sol.rules.men());
            let e = sol.eval(&start).expect("start solved");
            println!("Start position {}: value for the first player {}", s.position, describe(&e, &s.value));
            if s.value.error_bound > 0.0 {
                println!("  proven error bound of the value: {:.3e}", s.value.error_bound);
            }
            match (s.p_win, s.p_draw, s.p_loss) {
                (Some(w), Some(d), Some(l)) => {
                    println!("  when both play as `perfect` does: P(win) {w:.6}, P(draw) {d:.6}, P(loss) {l:.6}");
                    if let Some(e) = s.p_error.filter(|&e| e > 1e-9) {
                        println!(
                            "  (each of P(win) and P(loss) proven within {e:.2e}: the chain's bounds did not close)"
                        );
                    }
                }
                _ => println!(
                    "  P(win), P(draw), P(loss) not computed: the Markov chain of optimal play needs every table in memory, \
                     and this board's are read from disk a group at a time"
                ),
            }
            println!();
            println!("First moves of the first player, best first:");
            let mut last = None;
            for m in &r.first_moves {
                if last != Some(m.throw) {
                    if let Some(t) = m.throw {
                        println!("  after a {t} throw:");
                    }
                    last = Some(m.throw);
                }
                let v = &m.value;
                let text = match (&v.outcome, &v.exact) {
                    (Some(o), _) => format!("{o}{}", v.plies.map(|p| format!(" in {p}")).unwrap_or_default()),
                    (None, Some(x)) => format!("{:+.6} = {x}", v.value),
                    (None, None) => format!("{:+.6} (± {:.1e})", v.value, v.error_bound),
                };
                println!("    {:<16} {text}", m.action);
            }
        }
        None => println!(
            "The start position is not solved yet ({} of {} sector groups done).",
            r.projection.groups_solved, r.projection.groups_total
        ),
    }
    println!();
    println!(
        "{:<16} {:<23} {:>12} {:>11} {:>11} {:>11} {:>10} {:>9} {:>11} {:>8}",
        "sector", "method", "positions", "wins", "draws", "losses", "disk", "seconds", "pos/s", "rounds"
    );
    for s in &r.sectors {
        println!(
            "{:<16} {:<23} {:>12} {:>11} {:>11} {:>11} {:>10} {:>9.3} {:>11.0} {:>8}",
            s.sector,
            if s.loaded { format!("{} (db)", s.method) } else { s.method.to_string() },
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.bytes_on_disk.map(human_bytes).unwrap_or_else(|| "-".into()),
            s.seconds,
            s.positions_per_second,
            s.sweeps.map(|x| x.to_string()).unwrap_or_default()
        );
    }
    println!("(sector: men on board + in hand of the side to move, v those of the other side; under chance");
    println!(" 'wins'/'losses' count positions of positive/negative value)");
    println!();
    println!(
        "Total: {} positions in {} sectors, {} on disk; solving time {:.2} s, {:.0} positions/s; run {:.2} s",
        r.positions,
        r.sectors.len(),
        human_bytes(r.bytes_on_disk),
        r.solving_seconds,
        r.positions_per_second,
        r.seconds
    );
    if !r.complete {
        let p = &r.projection;
        println!(
            "Partial: {} of {} sector groups solved, {} of the game's {} indices ({} positions so far).",
            p.groups_solved, p.groups_total, p.indices_solved, p.indices_total, p.positions_solved
        );
        if let Some(s) = p.seconds_remaining {
            println!(
                "At this speed the rest would take about {:.1} hours and {} of disk.",
                s / 3600.0,
                human_bytes(p.bytes_total_estimate)
            );
        }
    }
    let widest = r.sectors.iter().filter_map(|s| s.widest_interval).fold(0.0, f64::max);
    if r.sectors.iter().any(|s| s.widest_interval.is_some()) {
        let open: u64 = r.sectors.iter().filter_map(|s| s.open_positions).sum();
        println!(
            "Proven intervals: {} of {} positions are exact to 1e-6; {open} open; widest proven interval {widest:.2e}.",
            r.positions - open,
            r.positions
        );
    }
}
