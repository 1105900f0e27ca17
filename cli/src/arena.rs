//! `ludus arena`: two bots play a match in any game; the report, and the
//! record of every game for `ludus replay`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, ValueEnum};
use engine::arena::{self, Config, Decision, GameLog, Sprt, Summary, Wdl};
use engine::game::Game;
use engine::merels::{BoardKind, Dice, Merels, Rules};
use engine::players::alphabeta::SearcherBot;
use engine::players::{Bot, Spec, generic_bot};
use engine::rithmo::{Position as RithmoPosition, Preset, Rithmomachia, RuleSet};
use engine::stats::MIN_SAMPLE;
use serde::Deserialize as _;
use serde_json::{Value, json};
use solver::merels::{PerfectBot, solution_for_play};

use crate::common::{HASH_DEFAULT_MIB, check_match_tables, parse_hash, parse_sprt, parse_threads};
use crate::error::{CliError, Result};
use crate::merels_args::{DbArgs, MoreRuleArgs, RuleArgs, rules_for};
use crate::progress::{Bars, counter};
use crate::rithmo::PositionArgs;

/// The games bots can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Rota, the Roman wheel game
    Rota,
    /// The merels family, with and without dice (--board rota, three, six or nine)
    Merels,
    /// Rithmomachia
    Rithmo,
}

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The game
    #[arg(long, value_enum)]
    game: GameName,
    /// The board of --game merels
    #[arg(long, value_enum)]
    board: Option<BoardKind>,
    /// The dice reading of rota and merels [default: none for rota,
    /// schaedler for merels]
    #[arg(long, value_enum)]
    dice: Option<Dice>,
    /// Bot A: random, greedy, alphabeta:depth=N, alphabeta:movetime=MS,
    /// mcts:playouts=N[,length=PLIES] or perfect (bare alphabeta is
    /// depth=4, bare mcts playouts=1000)
    #[arg(long = "a", value_name = "SPEC", value_parser = parse_spec)]
    a: Spec,
    /// Bot B, as bot A
    #[arg(long = "b", value_name = "SPEC", value_parser = parse_spec)]
    b: Spec,
    /// Games to play; A moves first in the even ones
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seed of the match: game i is played from (seed, i) alone
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Players' turns after which a game is a draw [default: 300; rithmo 1000]
    #[arg(long, value_name = "P")]
    max_plies: Option<usize>,
    /// Games played at once [default: one per core; never more than --games]
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// One JSON object on standard output, for scripts
    #[arg(long)]
    json: bool,
    /// Write every game as one JSON line to FILE (for `ludus replay`)
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// No progress bar
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    more: MoreRuleArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    rithmo: PositionArgs,
    /// Stop when a sequential probability ratio test decides between two
    /// Elo differences of A over B, H0 and H1 (`0,10`); --games is then the
    /// most games to play
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    sprt: Option<(f64, f64)>,
    /// The SPRT's chance of accepting H1 when H0 holds
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// Table size of Rithmomachia's engine, per bot and thread, in MiB
    #[arg(long, value_name = "MIB", default_value_t = HASH_DEFAULT_MIB, value_parser = parse_hash)]
    hash: usize,
}

fn parse_spec(s: &str) -> std::result::Result<Spec, engine::players::ParseSpecError> {
    s.parse()
}

/// The match as the report and the record name it.
struct Setup {
    game: &'static str,
    rules: Value,
    label: String,
}

pub fn run(args: ArenaArgs) -> Result<()> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.max_plies == Some(0) {
        return Err("--max-plies must be at least 1".into());
    }
    if let Some((e0, e1)) = args.sprt {
        Sprt::new(e0, e1, args.alpha, args.beta)?;
    }
    match args.game {
        GameName::Rithmo => run_rithmo(&args),
        GameName::Rota | GameName::Merels => run_merels(&args),
    }
}

fn run_merels(args: &ArenaArgs) -> Result<()> {
    let rota = args.game == GameName::Rota;
    if args.rithmo.fen.is_some() || args.rithmo.victory.is_some() || args.rithmo.rules != Preset::Common {
        let game = if rota { "rota" } else { "merels" };
        return Err(CliError(format!("--fen, --victory and --rules are options of --game rithmo, not {game}")));
    }
    let kind = match (rota, args.board) {
        (true, None | Some(BoardKind::Rota)) => BoardKind::Rota,
        (true, Some(b)) => return Err(CliError(format!("--game rota is played on the rota board, not {b}"))),
        (false, Some(b)) => b,
        (false, None) => {
            return Err(
                "--game merels needs --board rota, three, six or nine (--game rota is rota without dice)".into()
            );
        }
    };
    let dice = args.dice.unwrap_or(if rota { Dice::None } else { Dice::Schaedler });
    let rules = rules_for(kind, dice, &args.rules, &args.more)?;
    let game = Merels::new(rules);
    // One solution for both bots, solved (or read) once.
    let mut perfect: Option<Arc<PerfectBot>> = None;
    let mut make = |spec: &Spec| -> Result<Box<dyn Bot<Merels>>> {
        if *spec != Spec::Perfect {
            return Ok(generic_bot(spec)?);
        }
        if perfect.is_none() {
            let bars = Bars::new(args.quiet || args.json);
            // Rota and three solve in an instant: no files for them.
            let db = if matches!(kind, BoardKind::Six | BoardKind::Nine) { args.db.dir() } else { None };
            let sol = solution_for_play(rules, db, &bars)?;
            perfect = Some(Arc::new(PerfectBot::new(Arc::new(sol))?));
        }
        Ok(Box::new(SharedBot(perfect.clone().expect("made above"))))
    };
    let (a, b) = (make(&args.a)?, make(&args.b)?);
    let setup = Setup { game: game.name(), rules: merels_rules_json(&rules), label: rules.label() };
    play_match(args, &game, a.as_ref(), b.as_ref(), &setup, 300)
}

fn run_rithmo(args: &ArenaArgs) -> Result<()> {
    if args.board.is_some() || args.dice.is_some() {
        return Err("--board and --dice are options of rota and merels, not rithmo".into());
    }
    let merels_options = args.rules.any()
        || args.more.diagonals
        || args.more.flying
        || args.more.no_take_from_mills
        || args.more.double_mill_one
        || args.more.special_72 != 5;
    if merels_options {
        return Err("the merels rules options do not apply to rithmo".into());
    }
    check_match_tables(args.hash, args.threads, args.games)?;
    let (start, rules) = args.rithmo.resolve()?;
    let game = Rithmomachia::new(rules, start);
    if game.result(&game.start()).is_some() {
        return Err(CliError(format!("the game is over in the start position {start}")));
    }
    let make = |spec: &Spec| -> Result<Box<dyn Bot<Rithmomachia>>> {
        match *spec {
            Spec::Perfect => Err("perfect play needs a solved game: Rithmomachia is not solved (perfect plays rota \
                                  and the merels boards)"
                .into()),
            Spec::AlphaBeta(limit) => Ok(Box::new(SearcherBot::new(limit, args.hash))),
            _ => Ok(generic_bot(spec)?),
        }
    };
    let (a, b) = (make(&args.a)?, make(&args.b)?);
    let setup = Setup {
        game: "rithmo",
        rules: rithmo_rules_json(&rules, &start)?,
        label: format!("{} rules, victory {}", rules.name, rules.victory),
    };
    play_match(args, &game, a.as_ref(), b.as_ref(), &setup, 1000)
}

/// A bot shared by both seats (one solution in memory).
struct SharedBot<B>(Arc<B>);

impl<G: Game, B: Bot<G>> Bot<G> for SharedBot<B> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn agent(&self, seed: u64) -> Box<dyn engine::players::Agent<G>> {
        self.0.agent(seed)
    }
}

fn play_match<G: Game>(
    args: &ArenaArgs,
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    setup: &Setup,
    default_plies: usize,
) -> Result<()> {
    let cfg = Config {
        games: args.games,
        seed: args.seed,
        max_plies: args.max_plies.unwrap_or(default_plies),
        threads: args.threads.unwrap_or_else(rayon::current_num_threads).min(args.games),
    };
    if let Some(path) = &args.record {
        engine::file::check_writable(path)?;
    }
    let bar = counter(cfg.games as u64, "games", args.quiet || args.json);
    let t = Instant::now();
    let test = match args.sprt {
        Some((e0, e1)) => Some(Sprt::new(e0, e1, args.alpha, args.beta)?),
        None => None,
    };
    // One game loop, with or without the test; its verdict, if any, beside
    // the summary.
    let play = |each: &mut dyn FnMut(&GameLog) -> std::io::Result<()>| match &test {
        None => Ok((arena::run_with(game, a, b, &cfg, &|| bar.inc(1), each)?, None)),
        Some(test) => {
            let r = arena::run_sprt(game, a, b, &cfg, test, &|| bar.inc(1), each)?;
            Ok::<_, arena::MatchError>((r.summary, Some((*test, r.decision, r.llr))))
        }
    };
    // The record is written game by game as the match goes, and appears
    // under its name only when the match is over.
    let (summary, sprt) = match &args.record {
        None => play(&mut |_| Ok(()))?,
        Some(path) => {
            let mut played = None;
            let written = engine::file::write_atomic_with(path, |w| {
                use std::io::Write as _;
                let result = play(&mut |g: &GameLog| writeln!(w, "{}", record_line(args, setup, cfg.max_plies, g)));
                let ok = result.is_ok();
                played = Some(result);
                // A match that stops leaves no record behind.
                if ok { Ok(()) } else { Err(std::io::Error::other("the match stopped")) }
            });
            let played = played.transpose().map_err(|e| match e {
                arena::MatchError::Each(source) => {
                    CliError::from(engine::file::WriteError::Io { path: path.clone(), source })
                }
                e => e.into(),
            })?;
            written?;
            played.expect("the match was played")
        }
    };
    bar.finish_and_clear();
    let seconds = t.elapsed().as_secs_f64();
    let threads = cfg.threads;
    let timed = args.a.uses_time() || args.b.uses_time();
    if args.json {
        let mut v = serde_json::to_value(&summary).map_err(|e| CliError(e.to_string()))?;
        v["game"] = json!(setup.game);
        v["rules"] = setup.rules.clone();
        v["label"] = json!(setup.label);
        v["a"] = json!(args.a.to_string());
        v["b"] = json!(args.b.to_string());
        v["seed"] = json!(args.seed);
        v["max_plies"] = json!(cfg.max_plies);
        v["threads"] = json!(threads);
        v["seconds"] = json!(seconds);
        v["games_per_second"] = json!(summary.games as f64 / seconds.max(1e-9));
        v["elo_text"] = json!(elo_text(summary.elo));
        v["reproducible"] = json!(!timed);
        if let Some((test, decision, llr)) = &sprt {
            let (lo, hi) = test.bounds();
            v["sprt"] = json!({"test": test, "decision": decision, "llr": llr, "lower_bound": lo, "upper_bound": hi});
        }
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| CliError(e.to_string()))?);
        return Ok(());
    }
    println!(
        "Arena: {} ({}), {}, seed {}, ply limit {}, {}: {:.2} s ({:.1} games/s)",
        setup.game,
        setup.label,
        engine::names::count(summary.games as u64, "game", "games"),
        args.seed,
        cfg.max_plies,
        engine::names::count(threads as u64, "thread", "threads"),
        seconds,
        summary.games as f64 / seconds.max(1e-9)
    );
    println!("A = {}   B = {}", args.a, args.b);
    println!();
    print_report(&summary);
    if let Some((test, decision, llr)) = &sprt {
        let (lo, hi) = test.bounds();
        let verdict = match decision {
            Decision::AcceptH1 => format!("H1 accepted: A is stronger than B by about {:+} Elo or more", test.elo1),
            Decision::AcceptH0 => format!("H0 accepted: A is not stronger than B by {:+} Elo", test.elo1),
            Decision::Continue => format!("no decision within {} games", cfg.games),
        };
        println!(
            "SPRT H0: {:+} Elo, H1: {:+} Elo (alpha {}, beta {}): log-likelihood ratio {llr:.3}, bounds \
             ({lo:.3}, {hi:.3}) — {verdict} after {} games",
            test.elo0, test.elo1, test.alpha, test.beta, summary.games
        );
    }
    if timed {
        println!("(a bot plays by the clock: the games depend on the machine's speed, not on the seed alone)");
    }
    if let Some(path) = &args.record {
        println!("Games recorded in {} (ludus replay {} --index K)", path.display(), path.display());
    }
    Ok(())
}

fn elo_text(e: f64) -> String {
    if e == f64::INFINITY {
        "+inf".into()
    } else if e == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{e:+.1}")
    }
}

fn print_report(s: &Summary) {
    let row = |name: &str, w: &Wdl| {
        let n = w.games();
        let score =
            if n > 0 { format!("{:.4}", (w.wins as f64 + 0.5 * w.draws as f64) / n as f64) } else { "-".to_string() };
        println!("  {name:<12} {:>7} {:>7} {:>7} {:>7} {:>8}", n, w.wins, w.draws, w.losses, score);
    };
    println!("  {:<12} {:>7} {:>7} {:>7} {:>7} {:>8}", "", "games", "wins", "draws", "losses", "score");
    let a = Wdl { wins: s.a_wins, draws: s.draws, losses: s.b_wins };
    let b = Wdl { wins: s.b_wins, draws: s.draws, losses: s.a_wins };
    row("A", &a);
    row("  moving 1st", &s.a_first);
    row("  moving 2nd", &s.a_second);
    row("B", &b);
    row("  moving 1st", &s.b_first);
    row("  moving 2nd", &s.b_second);
    println!();
    let sc = &s.score;
    let few = (s.games as u64) < MIN_SAMPLE;
    if !engine::stats::interval_shown(s.games as u64, sc.score) {
        println!(
            "A's score {:.4} over {} game(s): too few for an interval, an Elo estimate or a first player's \
             advantage (at least {MIN_SAMPLE} games)",
            sc.score, s.games
        );
    } else {
        // Below MIN_SAMPLE only a sweep has an interval: the rule of three,
        // with no spread to give.
        let swept = sc.score == 1.0 || sc.score == 0.0;
        let spread = if swept { String::new() } else { format!(" ± {:.4}", 1.96 * sc.std_error) };
        println!(
            "A's score {:.4}{spread} (95% interval {:.4} to {:.4}; wins count 1, draws ½)",
            sc.score, sc.low, sc.high
        );
        let note = if swept {
            " — one bot won every game: no finite estimate; the interval's finite end is the rule of three"
        } else {
            ""
        };
        println!(
            "Elo difference A − B: {} (95% interval {} to {}){note}",
            elo_text(s.elo),
            elo_text(s.elo_low),
            elo_text(s.elo_high)
        );
        let f = &s.first_seat;
        if few {
            println!(
                "First player's advantage: too few games for an estimate (at least {MIN_SAMPLE}); the first seat \
                 won {} of {}",
                f.results.wins, s.games
            );
        } else {
            println!(
                "First player's advantage: the first seat scored {:.4} (95% interval {:.4} to {:.4}) and won {:.2}% \
                 of games (95% interval {:.2}% to {:.2}%); {} wins, {} draws, {} losses",
                f.score.score,
                f.score.low,
                f.score.high,
                100.0 * f.win_rate,
                100.0 * f.win_rate_low,
                100.0 * f.win_rate_high,
                f.results.wins,
                f.results.draws,
                f.results.losses
            );
        }
    }
    println!(
        "Average length {:.1} plies; {} drawn by the ply limit{}",
        s.average_plies,
        engine::names::count(s.ply_limit_draws as u64, "game", "games"),
        if few { "" } else { " (counted as draws)" }
    );
}

/// One game in the record: the game, its full rules, seeds, bots, moves
/// and result.
fn record_line(args: &ArenaArgs, setup: &Setup, max_plies: usize, g: &GameLog) -> Value {
    let (first, second) = if g.a_first { ("a", "b") } else { ("b", "a") };
    let (result, winner) = match g.played.outcome {
        engine::game::Outcome::Win(0) => ("first", Some(first)),
        engine::game::Outcome::Win(_) => ("second", Some(second)),
        engine::game::Outcome::Draw => ("draw", None),
    };
    json!({
        "game": setup.game,
        "rules": setup.rules,
        "seed": args.seed,
        "index": g.index,
        "game_seed": g.seed,
        "first": first,
        "a": args.a.to_string(),
        "b": args.b.to_string(),
        "moves": g.played.moves,
        "plies": g.played.plies,
        "result": result,
        "winner": winner,
        "ply_limit": g.played.ply_limit,
        "max_plies": max_plies,
    })
}

/// The rules of the merels family in a record: every field.
pub fn merels_rules_json(r: &Rules) -> Value {
    serde_json::to_value(r).expect("rules are plain data")
}

/// The rules of a record, rebuilt.
pub fn merels_rules_from_json(v: &Value) -> std::result::Result<Rules, String> {
    if !v.is_object() {
        return Err("the record has no 'rules' object".into());
    }
    Rules::deserialize(v).map_err(|e| {
        let e = e.to_string();
        match e.strip_prefix("missing field ") {
            Some(field) => format!("the rules lack {field}"),
            None => format!("the rules: {e}"),
        }
    })
}

/// The rules and start of a Rithmomachia record: `{"preset", "victory",
/// "start"}`.
fn rithmo_rules_json(rules: &RuleSet, start: &RithmoPosition) -> Result<Value> {
    let mut v = serde_json::to_value(rules)?;
    v["start"] = json!(start.to_string());
    Ok(v)
}

/// The rules and start of a Rithmomachia record, rebuilt.
pub fn rithmo_rules_from_json(v: &Value) -> std::result::Result<(RuleSet, RithmoPosition), String> {
    if !v.is_object() {
        return Err("the record has no 'rules' object".into());
    }
    for key in ["preset", "victory", "start"] {
        if v[key].is_null() {
            return Err(format!("the rules lack '{key}'"));
        }
    }
    let rules = RuleSet::deserialize(json!({"preset": v["preset"], "victory": v["victory"]}))
        .map_err(|e| format!("the rules: {e}"))?;
    let start = v["start"].as_str().ok_or("the rules lack 'start'")?;
    let start: RithmoPosition = start.parse().map_err(|e: engine::rithmo::ParseRfenError| e.to_string())?;
    Ok((rules, start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::merels::Blocked;

    #[test]
    fn merels_rules_survive_the_record() {
        let mut r = Rules::new(BoardKind::Three, Dice::Murray).with_diagonals(true).expect("three has diagonals");
        r.flying = true;
        r.blocked = Blocked::Pass;
        r.special_72 = 9;
        assert_eq!(merels_rules_from_json(&merels_rules_json(&r)).unwrap(), r);
        for kind in BoardKind::ALL {
            for dice in Dice::ALL {
                let r = Rules::new(kind, dice);
                assert_eq!(merels_rules_from_json(&merels_rules_json(&r)).unwrap(), r);
            }
        }
        let mut v = merels_rules_json(&Rules::new(BoardKind::Six, Dice::None));
        v["diagonals"] = json!(true);
        assert!(merels_rules_from_json(&v).unwrap_err().contains("three board"));
        v["diagonals"] = json!(false);
        v["special_72"] = json!(73);
        assert!(merels_rules_from_json(&v).is_err());
    }
}
