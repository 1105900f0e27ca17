//! `ludus rithmo study`: the thesis's claims beside what the engine computes —
//! its Tables 2 and 3 (captures by sally and ambush the values allow), the
//! pieces only a siege can take, and which side is stronger in engine
//! self-play, with the captures of those games by kind.

use std::ops::ControlFlow;
use std::time::Instant;

use clap::{Args, ValueEnum};
use engine::arena::{self, Config, GameLog};
use engine::game::Game as _;
use engine::players::Bot;
use engine::players::alphabeta::SearcherBot;
use engine::players::opening::RandomOpening;
use engine::players::{Limit, Spec};
use engine::rithmo::study::{self, SiegeOnly, Tally, TargetKind};
use engine::rithmo::{Move, Position, Rithmomachia, RuleSet, Side, Victory, Weights};
use serde_json::{Value, json};

use crate::common::{HASH_DEFAULT_MIB, check_match_tables, parse_depth, parse_hash, parse_threads};
use crate::error::{CliError, Result};
use crate::progress::counter;

/// Which claims to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Claim {
    /// Every claim
    All,
    /// Tables 2 and 3: captures by sally and ambush (and encounter) the values allow
    Tables,
    /// The pieces only a siege can take
    SiegeOnly,
    /// Which side is stronger, by engine self-play, and captures by kind
    Sides,
}

#[derive(Args, Debug)]
pub struct StudyArgs {
    /// The claim to compute
    #[arg(long, value_enum, default_value_t = Claim::All)]
    claim: Claim,
    /// Victory conditions of the self-play matches, comma separated
    #[arg(long, value_delimiter = ',', default_value = "body:15,great")]
    victories: Vec<Victory>,
    /// Search depth of both engines in self-play (plies)
    #[arg(long, default_value_t = 2, value_parser = parse_depth)]
    depth: u32,
    /// The evaluation's weights of both engines: hand, fitted-1, fitted-2 or default
    #[arg(long, default_value = "default")]
    weights: String,
    /// Each engine's first turns of a game played at random (varied games)
    #[arg(long, value_name = "PLIES", default_value_t = 3)]
    opening: usize,
    /// Play until the 95% interval of Even's score is narrower than ± this
    #[arg(long, value_name = "HALF", default_value_t = 0.03)]
    half_width: f64,
    /// At most this many games per victory condition
    #[arg(long, default_value_t = 4000)]
    max_games: usize,
    /// At least this many games per victory condition
    #[arg(long, default_value_t = 100)]
    min_games: usize,
    /// Players' turns after which a game is a draw
    #[arg(long, value_name = "P", default_value_t = 1000)]
    max_plies: usize,
    /// Seed of the matches
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: one per core]
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Table size of each engine, in MiB
    #[arg(long, value_name = "MIB", default_value_t = HASH_DEFAULT_MIB, value_parser = parse_hash)]
    hash: usize,
    /// One JSON object on standard output, for scripts
    #[arg(long)]
    json: bool,
    /// No progress bar
    #[arg(long, short)]
    quiet: bool,
}

/// The thesis's observed captures (its twelve games): total, encounters,
/// sallies, ambushes, sieges.
pub const THESIS_GAMES: [(&str, [u32; 5]); 12] = [
    ("Group 1", [22, 1, 2, 0, 19]),
    ("Group 2", [19, 3, 5, 1, 10]),
    ("Group 3", [10, 0, 4, 0, 6]),
    ("Group 4", [15, 1, 7, 0, 7]),
    ("Group 5", [9, 1, 4, 0, 4]),
    ("Group 6", [7, 1, 1, 1, 4]),
    ("Group 7", [21, 0, 6, 0, 15]),
    ("Group 8", [13, 0, 2, 1, 10]),
    ("Group 9", [5, 1, 3, 0, 1]),
    ("Group 10", [6, 1, 4, 0, 1]),
    ("Group 11", [10, 1, 5, 0, 4]),
    ("Group 12", [11, 0, 4, 0, 7]),
];

/// The thesis's siege-only list (its table after Figure 5).
const THESIS_SIEGE_ONLY: [(Side, &str); 2] = [(Side::Even, "2, 4, 4, 8"), (Side::Odd, "3, 5, 7, 190")];

pub fn run(args: StudyArgs) -> Result<()> {
    if !(args.half_width > 0.0 && args.half_width < 0.5) {
        return Err(CliError(format!("--half-width {}: choose above 0 and below 0.5", args.half_width)));
    }
    if args.max_games < 2 || args.min_games > args.max_games {
        return Err(CliError("--max-games must be at least 2 and at least --min-games".into()));
    }
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1".into());
    }
    check_match_tables(args.hash, args.threads, args.max_games)?;
    Weights::named(&args.weights)?;
    let victories = args.victories.clone();
    if victories.is_empty() {
        return Err("--victories needs at least one victory condition".into());
    }
    let rules = RuleSet::common();
    let pos = Position::start();
    let mut out = json!({"rules": rules.name, "start": pos.to_string()});
    let all = args.claim == Claim::All;
    if all || args.claim == Claim::Tables {
        out["tables"] = tables(&pos, &rules, args.json);
    }
    if all || args.claim == Claim::SiegeOnly {
        out["siege_only"] = siege_only(&pos, &rules, args.json);
    }
    if all || args.claim == Claim::Sides {
        let mut runs = Vec::new();
        for v in victories {
            runs.push(sides(&args, rules.with_victory(v), &pos)?);
        }
        out["sides"] = json!(runs);
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| CliError(e.to_string()))?);
    }
    Ok(())
}

fn kind_text(k: TargetKind) -> &'static str {
    match k {
        TargetKind::Man => "",
        TargetKind::Pyramid { .. } => " (whole)",
        TargetKind::Layer => " (strike)",
    }
}

fn tables(pos: &Position, rules: &RuleSet, quiet: bool) -> Value {
    let mut v = json!({});
    let mut counts = Vec::new();
    for side in [Side::Even, Side::Odd] {
        let enc = study::encounters(pos, rules, side);
        let sal = study::sallies(pos, rules, side);
        let amb = study::ambushes(pos, rules, side);
        // As the thesis's tables count: distinct value combinations, by men
        // (not the pyramid's values) against men and whole pyramids.
        let whole = |k: TargetKind| k != TargetKind::Layer;
        let mut sal_values: Vec<(u32, u32, u32)> = sal
            .iter()
            .filter(|r| !r.pyramid_only && whole(r.target_kind))
            .map(|r| (r.attacker, r.between, r.target_value))
            .collect();
        sal_values.dedup();
        let mut amb_values: Vec<(u32, u32, u32)> = amb
            .iter()
            .filter(|r| !r.pyramid_only && whole(r.target_kind))
            .map(|r| (r.a, r.b, r.target_value))
            .collect();
        amb_values.dedup();
        let c = json!({
            "side": side.name(),
            "encounter": enc.len(),
            "sally": sal.len(),
            "sally_on_a_rank": sal.iter().filter(|r| r.on_rank).count(),
            "ambush": amb.len(),
            "sally_as_the_thesis_counts": sal_values.len(),
            "ambush_as_the_thesis_counts": amb_values.len(),
        });
        if !quiet {
            println!("{} against {} — captures the values allow", side.name(), side.other().name());
            println!("  by sally (attack value × empty squares between = target; P = only a pyramid attacks so):");
            for r in &sal {
                println!(
                    "    {:>4} × {:>2} = {:<5} {}{}{}{}",
                    r.attacker,
                    r.between,
                    r.target_value,
                    r.target,
                    kind_text(r.target_kind),
                    if r.on_rank { "" } else { "  [file only]" },
                    if r.pyramid_only { "  P" } else { "" }
                );
            }
            println!("  by ambush (two pieces' values add up to the target):");
            for r in &amb {
                println!(
                    "    {:>4} + {:>4} = {:<5} {}{}{}",
                    r.a,
                    r.b,
                    r.target_value,
                    r.target,
                    kind_text(r.target_kind),
                    if r.pyramid_only { "  P" } else { "" }
                );
            }
            println!("  by encounter (equal values):");
            let e: Vec<String> =
                enc.iter().map(|r| format!("{} takes {}{}", r.value, r.target, kind_text(r.target_kind))).collect();
            println!("    {}", e.join("; "));
            println!();
        }
        v[side.name().to_lowercase()] = json!({"encounter": enc, "sally": sal, "ambush": amb});
        counts.push(c);
    }
    if !quiet {
        println!("Counts: every row above; then as the thesis's tables count (distinct values, men attacking");
        println!("men and whole pyramids: no pyramid layer attacks or is struck):");
        for c in &counts {
            println!(
                "  {:<4}  sally {:>3} ({} fit on a rank), ambush {:>3}, encounter {:>2};  as the thesis counts: sally \
                 {:>3}, ambush {:>3}",
                c["side"].as_str().unwrap_or(""),
                c["sally"],
                c["sally_on_a_rank"],
                c["ambush"],
                c["encounter"],
                c["sally_as_the_thesis_counts"],
                c["ambush_as_the_thesis_counts"]
            );
        }
        println!("  The thesis: \"a distinct advantage to having Evens\" in both sallies and ambushes");
        println!("  (its Table 2 lists 22 sallies for Even and 18 for Odd, its Table 3 13 ambushes and 12).");
        println!();
    }
    v["counts"] = json!(counts);
    v["thesis"] = json!({"sally": {"even": 22, "odd": 18}, "ambush": {"even": 13, "odd": 12}});
    v
}

fn siege_only(pos: &Position, rules: &RuleSet, quiet: bool) -> Value {
    let mut v = json!({});
    for side in [Side::Even, Side::Odd] {
        let rows = study::siege_only(pos, rules, side);
        let list = |f: &dyn Fn(&SiegeOnly) -> bool, k: &dyn Fn(&SiegeOnly) -> bool| -> Vec<String> {
            rows.iter().filter(|r| f(r) && k(r)).map(|r| r.target.clone()).collect()
        };
        let man = |r: &SiegeOnly| r.kind == TargetKind::Man;
        let pyr = |r: &SiegeOnly| r.kind != TargetKind::Man;
        let full = |r: &SiegeOnly| r.siege_only;
        let men_only = |r: &SiegeOnly| r.siege_only_without_pyramid;
        let thesis = THESIS_SIEGE_ONLY.iter().find(|t| t.0 == side).map_or("", |t| t.1);
        if !quiet {
            println!("{}'s pieces that only a siege can take:", side.name());
            println!("  men:                  {}", list(&man, &full).join(", "));
            println!("  pyramid and layers:   {}", list(&pyr, &full).join(", "));
            println!("  if the enemy pyramid's values did not attack:");
            println!("  men:                  {}", list(&man, &men_only).join(", "));
            println!("  pyramid and layers:   {}", list(&pyr, &men_only).join(", "));
            println!("  the thesis:           {thesis}");
            println!();
        }
        v[side.name().to_lowercase()] = json!({
            "men": list(&man, &full),
            "pyramid": list(&pyr, &full),
            "men_without_enemy_pyramid": list(&man, &men_only),
            "pyramid_without_enemy_pyramid": list(&pyr, &men_only),
            "thesis": thesis,
            "all": rows,
        });
    }
    v
}

/// The thesis's observed captures by kind: encounters, sallies, ambushes,
/// sieges, and the total.
fn thesis_tally() -> [u32; 5] {
    let mut t = [0; 5];
    for (_, g) in THESIS_GAMES {
        t[0] += g[1];
        t[1] += g[2];
        t[2] += g[3];
        t[3] += g[4];
        t[4] += g[0];
    }
    t
}

fn sides(args: &StudyArgs, rules: RuleSet, start: &Position) -> Result<Value> {
    let game = Rithmomachia::new(rules, *start);
    let limit = Limit { depth: Some(args.depth), movetime: None };
    let weights = Weights::named(&args.weights)?;
    let engine_bot = || -> Box<dyn Bot<Rithmomachia>> {
        let inner = SearcherBot::new(limit, args.hash).with_weights(weights);
        Box::new(RandomOpening { inner: Box::new(inner), plies: args.opening })
    };
    let (a, b) = (engine_bot(), engine_bot());
    let spec = Spec::AlphaBeta(limit).to_string();
    let quiet = args.json;
    let bar = counter(args.max_games as u64, &format!("games ({})", rules.victory), args.quiet || args.json);
    let t = Instant::now();
    let threads = args.threads.unwrap_or(0);
    let mut logs: Vec<GameLog> = Vec::new();
    // Even is player 0 (it moves first from the start): its score is the
    // first seat's. The interval is looked at every 50 games.
    let mut results = arena::Tally::default();
    let cfg = Config { games: args.max_games, seed: args.seed, max_plies: args.max_plies, threads };
    arena::run_until(&game, a.as_ref(), b.as_ref(), &cfg, 50, &|| bar.inc(1), &mut |g| {
        logs.push(g.clone());
        results.add(g);
        let half = 1.96 * results.summary().first_seat.score.std_error;
        let done =
            logs.len().is_multiple_of(50) && logs.len() >= args.min_games && half < args.half_width && half > 0.0;
        Ok(if done { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
    })?;
    let summary = results.summary();
    bar.finish_and_clear();
    let mut tally = Tally::default();
    let mut by_reason: Vec<(String, usize)> = Vec::new();
    for g in &logs {
        let moves: Vec<Move> = g
            .played
            .moves
            .iter()
            .map(|m| m.parse::<Move>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| CliError(format!("game {}: {e}", g.index)))?;
        tally.add(&Tally::of_game(start, &rules, &moves));
        let end = game_end(&game, start, &moves);
        match by_reason.iter_mut().find(|(r, _)| *r == end) {
            Some(x) => x.1 += 1,
            None => by_reason.push((end, 1)),
        }
    }
    by_reason.sort_by_key(|x| std::cmp::Reverse(x.1));
    let ply_limit = summary.ply_limit_draws;
    let f = &summary.first_seat;
    let even_score = f.score;
    let secs = t.elapsed().as_secs_f64();
    let th = thesis_tally();
    let share = |n: u64, of: u64| if of > 0 { 100.0 * n as f64 / of as f64 } else { 0.0 };
    let total = tally.total();
    if !quiet {
        println!(
            "Self-play under victory {}: {} ({} weights) against itself ({} random turns each first), {} games, \
             seed {}, ply limit {}, {:.0} s",
            rules.victory,
            spec,
            args.weights,
            args.opening,
            logs.len(),
            args.seed,
            args.max_plies,
            secs
        );
        // As the arena: below 30 games an interval only for a sweep (the
        // rule of three), and a verdict only from an interval.
        let swept = even_score.score == 0.0 || even_score.score == 1.0;
        let few = !engine::stats::interval_shown(logs.len() as u64, even_score.score);
        if few {
            println!(
                "  Even's score {:.4}; Even wins {}, draws {}, Odd wins {}: too few games for an interval or an Elo \
                 estimate (at least {})",
                even_score.score,
                f.results.wins,
                f.results.draws,
                f.results.losses,
                engine::stats::MIN_SAMPLE
            );
        } else {
            let spread = if swept { String::new() } else { format!(" ± {:.4}", 1.96 * even_score.std_error) };
            println!(
                "  Even's score {:.4}{spread} (95% interval {:.4} to {:.4}); Even wins {}, draws {}, Odd wins {}; Elo of \
             Even over Odd {:+.1} ({:+.1} to {:+.1})",
                even_score.score,
                even_score.low,
                even_score.high,
                f.results.wins,
                f.results.draws,
                f.results.losses,
                arena::elo(even_score.score),
                arena::elo(even_score.low),
                arena::elo(even_score.high)
            );
        }
        let stronger = if few {
            "too few games to tell which side is stronger"
        } else if even_score.low > 0.5 {
            "Even is stronger"
        } else if even_score.high < 0.5 {
            "Odd is stronger"
        } else {
            "neither side is shown stronger"
        };
        println!(
            "  {stronger}; average length {:.1} plies; {} reached the ply limit",
            summary.average_plies,
            engine::names::count(ply_limit as u64, "game", "games")
        );
        let ends: Vec<String> = by_reason.iter().map(|(r, n)| format!("{r} {n}")).collect();
        println!("  endings: {}", ends.join(", "));
        println!("  captures by kind (pieces taken; the thesis's twelve games beside):");
        for (name, n, thesis) in [
            ("encounter", tally.encounter, Some(th[0])),
            ("sally", tally.sally, Some(th[1])),
            ("ambush", tally.ambush, Some(th[2])),
            ("siege", tally.siege, Some(th[3])),
            ("strike", tally.strike, None),
        ] {
            let th_text = thesis.map_or("—".to_string(), |x| format!("{x} ({:.1}%)", share(x as u64, th[4] as u64)));
            println!("    {name:<10} {n:>7} ({:>5.1}%)   thesis {th_text}", share(n, total));
        }
        println!(
            "    in all     {total:>7}            thesis {}; {} captures had several reasons (counted under the \
             first of encounter, sally, ambush); {} men taken",
            th[4], tally.several_reasons, tally.men
        );
        println!();
    }
    Ok(json!({
        "victory": rules.victory.to_string(),
        "engine": spec,
        "weights": args.weights,
        "random_turns": args.opening,
        "games": logs.len(),
        "seed": args.seed,
        "max_plies": args.max_plies,
        "seconds": secs,
        "even": f.results,
        "even_score": even_score,
        "elo_even_over_odd": finite(arena::elo(even_score.score)),
        "elo_low": finite(arena::elo(even_score.low)),
        "elo_high": finite(arena::elo(even_score.high)),
        "average_plies": summary.average_plies,
        "ply_limit_draws": ply_limit,
        "endings": by_reason.iter().map(|(r, n)| json!({"end": r, "games": n})).collect::<Vec<_>>(),
        "captures": tally,
        "captures_total": total,
        "thesis_captures": {"encounter": th[0], "sally": th[1], "ambush": th[2], "siege": th[3], "total": th[4]},
    }))
}

fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// How a game ended, in words.
fn game_end(game: &Rithmomachia, start: &Position, moves: &[Move]) -> String {
    let mut st = game.start();
    debug_assert_eq!(st.pos, *start);
    for &m in moves {
        st = game.apply(&st, m);
    }
    match game.result(&st) {
        None => "ply limit".into(),
        Some(_) => match game.status(&st) {
            engine::rithmo::Status::Won(_, engine::rithmo::Reason::Victory(_)) => "victory".into(),
            engine::rithmo::Status::Won(_, engine::rithmo::Reason::NoMove) => "no move".into(),
            engine::rithmo::Status::Drawn(engine::rithmo::Reason::QuietPlies) => "quiet plies".into(),
            engine::rithmo::Status::Drawn(engine::rithmo::Reason::Repetition) => "repetition".into(),
            s => s.to_string(),
        },
    }
}
