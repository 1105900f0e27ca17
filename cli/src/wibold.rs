//! `ludus wibold`: Wibold's Ludus Regularis, exactly and by simulation.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use engine::wibold::dice::{Cast, TETRAHEDRON, cubes_from_index};
use engine::wibold::outcome::{Miss, Reading, read};
use engine::wibold::{Game, Players, Rules, Scoring, Strategy, Verdict, Virtue, VirtueSet, complementary_pairs};
use serde_json::{Value, json};
use solver::wibold::analysis::{ArticleSimulation, CURVE_TOLERANCE, QUANTILES};
use solver::wibold::simulate::{LoggedRoll, ScoringReport, report};
use solver::wibold::{LengthLaw, MatchReport, SimConfig, SimReport, null_outcomes, play_logged, play_match, simulate};

use engine::stats::MIN_SAMPLE;

use crate::common::{parse_threads, pool, print_json};
use crate::error::{CliError, Result};
use crate::plot::{GamePanel, LengthPanel, PlotTarget, draw};
use crate::progress::counter;

#[derive(Args, Debug)]
pub struct WiboldArgs {
    #[command(subcommand)]
    cmd: WiboldCmd,
}

#[derive(Subcommand, Debug)]
enum WiboldCmd {
    /// Exact analysis of both games: Table 3, expected length, quantiles, sd
    ///
    /// The article's Table 3 (how many of the 864 throws acquire each virtue),
    /// the expected number of rolls of a game, and the exact law of its
    /// length (median, 95th and 99th percentiles, standard deviation), for
    /// the full and the simplified game, where the article could only
    /// simulate.
    Analyse {
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
        /// Also give P(T ≤ n) for every n (a column per game; in JSON, arrays)
        #[arg(long)]
        cdf: bool,
        /// Draw the length histogram of 10,000 simulated games over the exact
        /// law, and virtues owned against rolls in one game, for both games
        /// (a .svg or .png file)
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// The seed of the games simulated for --plot
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The 56 virtues with their rolls, sums, mates and chances
    ///
    /// Each virtue's roll and sum, Wibold's mate (the virtue of the
    /// complementary roll, the sums adding to 21), how many of the 864 throws
    /// acquire it, and its chance per roll in the full and simplified games.
    Table {
        /// One JSON array on standard output
        #[arg(long)]
        json: bool,
    },
    /// Simulate games on all cores and compare them with the exact law
    ///
    /// The length of a game against its exact law, each seat's chance to win
    /// with a 95% interval (is there a first-roller advantage?), virtues per
    /// player, how often ties happen and KARITAS breaks them, and what the
    /// bonus for complementary pairs changes. Reproducible from the seed
    /// whatever the number of threads.
    Simulate {
        #[command(flatten)]
        game: GameArgs,
        /// Games to play
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        /// Worker threads [default: one per core]; the results do not depend on it
        #[arg(long, value_name = "T", value_parser = parse_threads)]
        threads: Option<usize>,
        /// No progress bar
        #[arg(long, short)]
        quiet: bool,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
        /// Draw the length histogram over the exact law, and virtues owned
        /// against rolls in the first game (a .svg or .png file)
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
    },
    /// Play one game and show it roll by roll
    ///
    /// Each roll's cubes, tetrahedron base, the virtue the pips name and what
    /// happens; then who holds what and who wins. The game is the first one
    /// `simulate` plays with the same seed, players and rules.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Show only the rolls that acquire a virtue
        #[arg(long)]
        acquisitions: bool,
        /// One JSON object: every roll (or every acquiring one) and the end
        #[arg(long)]
        json: bool,
    },
    /// Strategies of the choice variant against each other
    ///
    /// In Wibold's own rules every player is greedy: a throw names at most
    /// one virtue, so the dice leave no choice. The choice variant, a modern
    /// extension, lets a throw claim any one unowned virtue whose vowels and
    /// a consonant it shows; there greedy-rarest, greedy-table, complement
    /// and random play at one table (seats rotated) and head to head.
    Strategies {
        /// The strategies at the table, comma separated (one seat each; a
        /// strategy may take several seats)
        /// [default: greedy-rarest,greedy-table,complement,random]
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            value_name = "LIST",
            default_values_t = Strategy::ALL,
            hide_default_value = true
        )]
        lineup: Vec<Strategy>,
        /// Games per match
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        /// The seed: the same seed gives the same matches
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How the winner is counted
        #[arg(long, value_enum, default_value_t = Scoring::Virtues)]
        scoring: Scoring,
        /// Worker threads [default: one per core]; the results do not depend on it
        #[arg(long, value_name = "T", value_parser = parse_threads)]
        threads: Option<usize>,
        /// No progress bar
        #[arg(long, short)]
        quiet: bool,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
}

/// Options that pick a game.
#[derive(Args, Debug)]
struct GameArgs {
    /// Players, 2 to 8, rolling in turn
    #[arg(long, default_value = "4")]
    players: Players,
    /// The rules
    #[arg(long, value_enum, default_value_t = Rules::Full)]
    rules: Rules,
    /// The seed: the same seed gives the same games
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: WiboldArgs) -> Result<()> {
    match args.cmd {
        WiboldCmd::Analyse { json, cdf, plot, seed } => analyse(json, cdf, plot, seed),
        WiboldCmd::Table { json } => table(json),
        WiboldCmd::Simulate { game, games, threads, quiet, json, plot } => {
            simulate_cmd(&game, games, threads, quiet || json, json, plot)
        }
        WiboldCmd::Play { game, acquisitions, json } => play(&game, acquisitions, json),
        WiboldCmd::Strategies { lineup, games, seed, scoring, threads, quiet, json } => {
            strategies(&lineup, games, seed, scoring, threads, quiet || json, json)
        }
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<Value> {
    Ok(serde_json::to_value(v)?)
}

/// Appends a line to a report.
macro_rules! say {
    ($o:expr) => {
        $o.push('\n')
    };
    ($o:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($o, $($arg)*);
    }};
}

/// Appends text to a report.
macro_rules! put {
    ($o:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = write!($o, $($arg)*);
    }};
}

/// Writes a whole report to standard output.
fn emit(text: &str) -> Result<()> {
    print!("{text}");
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn check_games(games: u64) -> Result<()> {
    if games == 0 { Err("--games must be at least 1".into()) } else { Ok(()) }
}

/// Virtues owned after each roll of a logged game, from 0 before the first.
fn owned_curve(log: &[LoggedRoll]) -> Vec<u32> {
    let mut owned = vec![0];
    let mut n = 0;
    for r in log {
        n += r.gained.len();
        owned.push(n);
    }
    owned
}

/// Simulates the games a figure needs (quietly) and draws it.
fn plot_games(target: &PlotTarget, laws: &[&LengthLaw], games: u64, players: Players, seed: u64) -> Result<()> {
    let sims: Vec<_> = laws
        .iter()
        .map(|law| {
            let cfg = SimConfig { rules: law.rules, players, games, seed };
            (simulate(&cfg, &|_| {}).lengths, play_logged(law.rules, players, seed))
        })
        .collect();
    let rows: Vec<(LengthPanel, GamePanel)> = laws
        .iter()
        .zip(&sims)
        .map(|(law, (lengths, (game, log)))| {
            let name = match law.rules {
                Rules::Full => "Wibold's game",
                Rules::Simplified => "the simplified game",
            };
            (
                LengthPanel {
                    title: format!("Length of {name}: {} simulated games", lengths.total()),
                    lengths,
                    law: &law.curve,
                },
                GamePanel {
                    title: format!("One realization of {name}: {} rolls", game.rolls()),
                    owned: owned_curve(log),
                },
            )
        })
        .collect();
    draw(target, &rows)?;
    eprintln!("figure written to {}", target.path.display());
    Ok(())
}

fn analyse(json: bool, cdf: bool, plot: Option<PathBuf>, seed: u64) -> Result<()> {
    let target = plot.as_deref().map(PlotTarget::parse).transpose()?;
    let (full, simple) = rayon::join(|| LengthLaw::of(Rules::Full), || LengthLaw::of(Rules::Simplified));
    let rows = solver::wibold::virtue_table();
    let null = null_outcomes();
    if json {
        let outcomes: serde_json::Map<String, Value> =
            rows.iter().map(|r| Ok((r.latin.to_string(), to_json(&r.outcomes)?))).collect::<Result<_>>()?;
        let (fs, ss) = (full.summary(), simple.summary());
        let mut v = json!({
            "outcomes": outcomes,
            "null_outcomes": to_json(&null)?,
            "throws": 864,
            "expected_rolls": fs.expected_rolls,
            "simplified_expected_rolls": ss.expected_rolls,
            "sd": fs.sd,
            "simplified_sd": ss.sd,
            "length_quantiles": fs.quantiles,
            "simplified_length_quantiles": ss.quantiles,
            "full": to_json(&fs)?,
            "simplified": to_json(&ss)?,
            "table": to_json(&rows)?,
        });
        if cdf {
            let curve = |law: &LengthLaw| (0..law.curve.len()).map(|n| law.curve.cdf(n)).collect::<Vec<f64>>();
            v["length_cdf"] = json!(curve(&full));
            v["simplified_length_cdf"] = json!(curve(&simple));
        }
        print_json(&v)?;
    } else {
        let o = &mut String::new();
        print_analysis(o, &rows, null, &full, &simple);
        if cdf {
            say!(o);
            say!(o, "P(T ≤ n) for every n (full game, simplified game):");
            say!(o, "{:>6} {:>20} {:>20}", "n", "full", "simplified");
            for n in 0..full.curve.len().max(simple.curve.len()) {
                say!(o, "{n:>6} {:>20.15} {:>20.15}", full.curve.cdf(n), simple.curve.cdf(n));
            }
        }
        emit(o)?;
    }
    if let Some(t) = target {
        plot_games(&t, &[&full, &simple], 10_000, Players::new(4).expect("4 players"), seed)?;
    }
    Ok(())
}

fn print_analysis(
    o: &mut String,
    rows: &[solver::wibold::VirtueRow],
    null: solver::wibold::analysis::Count,
    full: &LengthLaw,
    simple: &LengthLaw,
) {
    say!(o, "Wibold's Ludus Regularis, computed exactly");
    say!(o);
    say!(o, "Table 3: of the 864 equally likely throws (three cubes, tetrahedron), how many acquire each virtue");
    for chunk in rows.chunks(4) {
        let line: Vec<String> = chunk.iter().map(|r| format!("{:<14}{:>3}", r.latin, r.outcomes.to_string())).collect();
        say!(o, "  {}", line.join("   "));
    }
    let acquire: u32 = rows.iter().map(|r| r.outcomes.sixths).sum();
    say!(o, "  {:<14}{:>3}   (no virtue; {} throws acquire one)", "NULL", null.to_string(), acquire / 6);
    say!(o, "  KARITAS: 3 faces of the tetrahedron × 4/6 for the re-cast = 2 throws.");
    let mut by_count: std::collections::BTreeMap<u32, u32> = Default::default();
    for r in rows {
        *by_count.entry(r.outcomes.sixths).or_default() += 1;
    }
    let spread: Vec<String> =
        by_count.iter().map(|(s, k)| format!("{} ×{k}", solver::wibold::analysis::Count { sixths: *s })).collect();
    say!(o, "  Counts (value ×virtues): {}", spread.join(", "));
    say!(o);
    say!(o, "Length of a game: rolls until all 56 virtues are owned");
    let (fs, ss) = (full.summary(), simple.summary());
    let (fa, sa) = (ArticleSimulation::of(Rules::Full), ArticleSimulation::of(Rules::Simplified));
    say!(o, "  {:<30} {:>20} {:>20}", "", "full game", "simplified game");
    say!(o, "  {:<30} {:>20} {:>20}", "expected rolls (exact)", fs.expected_rolls_decimal, ss.expected_rolls_decimal);
    say!(o, "  {:<30} {:>20} {:>20}", "  the article's integral", fa.expected, sa.expected);
    say!(o, "  {:<30} {:>20.4} {:>20.4}", "standard deviation", fs.sd, ss.sd);
    for (q, name) in QUANTILES.iter().zip(["median", "95th percentile", "99th percentile"]) {
        say!(o, "  {:<30} {:>20} {:>20}", name, fs.quantiles[*q], ss.quantiles[*q]);
    }
    say!(o, "  {:<30} {:>20} {:>20}", "shortest possible game", fs.min_length, ss.min_length);
    say!(o);
    say!(o, "The article simulated 10,000 games of each:");
    for (s, a) in [(&fs, fa), (&ss, sa)] {
        say!(
            o,
            "  {:<10} mean {:>8}, sd {:>7}, 95th percentile {:>4}; exactly, P(T ≤ {}) = {:.4}",
            s.rules,
            a.mean,
            a.sd,
            a.p95,
            a.p95,
            s.p_at_most_article_p95
        );
    }
    say!(o);
    say!(o, "P(T ≤ n), the chance that a game is over within n rolls:");
    say!(o, "  {:>6} {:>14} {:>14}", "n", "full", "simplified");
    let p = |x: f64| if x > 0.0 && x < 1e-3 { format!("{x:.3e}") } else { format!("{x:.6}") };
    for n in [100, 250, 500, 1000, 1500, 2000, 3000, 4000, 5000, 7500, 10000] {
        say!(o, "  {n:>6} {:>14} {:>14}", p(full.curve.cdf(n)), p(simple.curve.cdf(n)));
    }
    say!(o);
    say!(
        o,
        "Exactly: E[T] and the sd are sums of big rationals over the {} nonzero coefficients of Π(1 − x^k) \
         (inclusion–exclusion), each quantile is checked in exact arithmetic, and P(T ≤ n) is exact up to \
         n = {} and within {:.0e} after.",
        full.coupons.terms().len(),
        fs.curve_exact_until,
        CURVE_TOLERANCE
    );
}

fn table(json: bool) -> Result<()> {
    let rows = solver::wibold::virtue_table();
    if json {
        return print_json(&to_json(&rows)?);
    }
    let o = &mut String::new();
    say!(
        o,
        "{:>2}  {:<5} {:>3}  {:<14} {:<15} {:<19} {:>6} {:>9} {:>11}",
        "#",
        "roll",
        "sum",
        "Latin",
        "English",
        "mate (its sum)",
        "of 864",
        "p(full)",
        "p(simple)"
    );
    for r in &rows {
        let mate = format!("{} ({})", r.mate, 21 - r.sum);
        say!(
            o,
            "{:>2}  {:<5} {:>3}  {:<14} {:<15} {:<19} {:>6} {:>9.5} {:>11.5}",
            r.number,
            r.roll,
            r.sum,
            r.latin,
            r.english,
            mate,
            r.outcomes.to_string(),
            r.probability,
            r.simplified_probability
        );
    }
    let null = null_outcomes();
    say!(
        o,
        "{:>2}  {:<5} {:>3}  {:<14} {:<15} {:<19} {:>6} {:>9.5}",
        "",
        "",
        "",
        "NULL",
        "no virtue",
        "",
        null.to_string(),
        null.value() / 864.0
    );
    say!(o);
    say!(
        o,
        "The mate is the virtue of the opposite faces (7 − each pip): Wibold pairs each virtue with it, their sums adding to 21."
    );
    say!(
        o,
        "p(full): the chance that a roll acquires the virtue while unowned; p(simple): the chance of its sum on three cubes."
    );
    emit(o)
}

fn simulate_cmd(
    g: &GameArgs,
    games: u64,
    threads: Option<usize>,
    quiet: bool,
    json: bool,
    plot: Option<PathBuf>,
) -> Result<()> {
    let players = g.players;
    check_games(games)?;
    let target = plot.as_deref().map(PlotTarget::parse).transpose()?;
    let pool = pool(threads, games)?;
    let cfg = SimConfig { rules: g.rules, players, games, seed: g.seed };
    let pb = counter(games, "games", quiet);
    let start = Instant::now();
    let tally = pool.install(|| simulate(&cfg, &|k| pb.inc(k)));
    let secs = start.elapsed().as_secs_f64();
    pb.finish_and_clear();
    let law = LengthLaw::of(g.rules);
    let rep = report(&cfg, &tally, &law);
    if json {
        let mut v = to_json(&rep)?;
        // As the text says: too few games test nothing, so no p-value.
        let testable = rep.games >= MIN_SAMPLE && rep.length.fit.chi_square_dof > 0;
        v["length"]["fit"]["testable"] = json!(testable);
        if !testable {
            v["length"]["fit"]["ks_p_value"] = Value::Null;
            v["length"]["fit"]["chi_square_p_value"] = Value::Null;
        }
        v["seconds"] = json!(secs);
        v["rolls_per_second"] = json!(rep.rolls as f64 / secs);
        v["threads"] = json!(pool.current_num_threads());
        print_json(&v)?;
    } else {
        let o = &mut String::new();
        print_simulation(o, &rep, secs, pool.current_num_threads());
        emit(o)?;
    }
    if let Some(t) = target {
        let (game, log) = play_logged(g.rules, players, g.seed);
        let name = if g.rules == Rules::Full { "Wibold's game" } else { "the simplified game" };
        let rows = [(
            LengthPanel { title: format!("Length of {name}: {games} games"), lengths: &tally.lengths, law: &law.curve },
            GamePanel {
                title: format!("The first game (seed {}, {} players): {} rolls", g.seed, g.players, game.rolls()),
                owned: owned_curve(&log),
            },
        )];
        draw(&t, &rows)?;
        eprintln!("figure written to {}", t.path.display());
    }
    Ok(())
}

fn print_simulation(o: &mut String, r: &SimReport, secs: f64, threads: usize) {
    say!(
        o,
        "Wibold's game, {} rules: {} of {} players (seed {}), {} rolls in {:.2} s on {} ({:.1} million rolls/s)",
        r.rules,
        engine::names::count(r.games, "game", "games"),
        r.players,
        r.seed,
        r.rolls,
        secs,
        engine::names::count(threads as u64, "thread", "threads"),
        r.rolls as f64 / secs / 1e6
    );
    say!(o);
    let l = &r.length;
    say!(o, "Length of a game, in rolls until all 56 virtues are owned:");
    say!(o, "  {:<22} {:>12} {:>12}", "", "simulated", "exact");
    say!(o, "  {:<22} {:>12.2} {:>12.2}", "mean", l.mean, l.exact_mean);
    let sd = if l.sd.is_finite() && r.games > 1 { format!("{:.2}", l.sd) } else { "-".into() };
    say!(o, "  {:<22} {:>12} {:>12.2}", "standard deviation", sd, l.exact_sd);
    for (q, name) in QUANTILES.iter().zip(["median", "95th percentile", "99th percentile"]) {
        say!(o, "  {:<22} {:>12} {:>12}", name, l.quantiles[*q], l.exact_quantiles[*q]);
    }
    say!(o, "  {:<22} {:>12}", "shortest, longest", format!("{}, {}", l.min, l.max));
    let f = &l.fit;
    if r.games < MIN_SAMPLE || f.chi_square_dof == 0 {
        say!(
            o,
            "  Kolmogorov–Smirnov D = {:.4}: {} games are too few to test the simulation against the exact law \
             (at least {MIN_SAMPLE}, and enough to fill two bins of 20 expected games).",
            f.ks_distance,
            r.games
        );
    } else {
        let chi_p = f.chi_square_p_value.unwrap_or(0.0);
        let agree = if f.ks_p_value > 0.01 && chi_p > 0.01 { "agrees with" } else { "departs from" };
        say!(
            o,
            "  Kolmogorov–Smirnov D = {:.4} (p = {:.3}), chi-square {:.1} on {} (p = {:.3}): the simulation {agree} the exact law.",
            f.ks_distance,
            f.ks_p_value,
            f.chi_square.unwrap_or(0.0),
            engine::names::count(f.chi_square_dof, "degree of freedom", "degrees of freedom"),
            chi_p
        );
    }
    say!(o);
    print_scoring(
        o,
        "Wibold's scoring: most virtues wins; on a tie the holder of KARITAS adds one",
        &r.scoring,
        r.games,
    );
    say!(o);
    print_scoring(
        o,
        "With the bonus for complementary pairs: one more point per pair of owned virtues whose sums add to 21",
        &r.pairs_scoring,
        r.games,
    );
    say!(o, "  The bonus changes the winners of {} of games.", pct(r.winner_changed));
}

fn print_scoring(o: &mut String, title: &str, s: &ScoringReport, games: u64) {
    say!(o, "{title}:");
    say!(
        o,
        "  {:<5} {:>26} {:>9} {:>16} {:>7} {:>8}",
        "seat",
        "wins outright (95% CI)",
        "shares",
        "virtues (sd)",
        "pairs",
        "KARITAS"
    );
    for seat in &s.seats {
        say!(
            o,
            "  {:<5} {:>26} {:>9} {:>16} {:>7.2} {:>8}",
            seat.seat,
            format!("{} ({:.2}–{:.2})", pct(seat.win), 100.0 * seat.win_low, 100.0 * seat.win_high),
            pct(seat.shared),
            format!("{:.2} ({:.2})", seat.virtues_mean, seat.virtues_sd),
            seat.pairs_mean,
            pct(seat.karitas)
        );
    }
    say!(
        o,
        "  Ties at the top: {} of games; KARITAS broke {}; {} stayed shared.",
        pct(s.tied),
        pct(s.karitas_broke_tie),
        pct(s.shared)
    );
    let (d, lo, hi) = (s.first_roller_edge, s.first_roller_edge_low, s.first_roller_edge_high);
    let verdict = if games < MIN_SAMPLE {
        "too few games for a verdict"
    } else if lo > 0.0 {
        "the first roller has an edge"
    } else if hi < 0.0 {
        "the first roller is at a disadvantage"
    } else {
        "no first-roller advantage shows at this sample size"
    };
    say!(
        o,
        "  First roller: seat 1 wins outright {:+.2} points against the other seats' average (95% CI {:+.2} to {:+.2}): {verdict}.",
        100.0 * d,
        100.0 * lo,
        100.0 * hi
    );
}

fn play(g: &GameArgs, acquisitions: bool, json: bool) -> Result<()> {
    let players = g.players;
    let (game, log) = play_logged(g.rules, players, g.seed);
    if json {
        return print_json(&play_json(g, &game, &log, acquisitions));
    }
    let o = &mut String::new();
    say!(
        o,
        "Wibold's game, {} rules, {} players, seed {} (the first game of `ludus wibold simulate --rules {} --players {} --seed {}`)",
        g.rules,
        g.players,
        g.seed,
        g.rules,
        g.players,
        g.seed
    );
    say!(o);
    let mut replay = Game::new(g.rules, players);
    match g.rules {
        Rules::Full => say!(
            o,
            "{:>5}  {:<7} {:<22} {:<5} {:<5}  {:<13} result",
            "roll",
            "player",
            "cubes",
            "base",
            "pips",
            "virtue"
        ),
        Rules::Simplified => say!(o, "{:>5}  {:<7} {:<9} {:>3}  result", "roll", "player", "pips", "sum"),
    }
    for r in &log {
        let gained = replay.roll(r.outcome);
        debug_assert_eq!(gained, r.gained);
        if acquisitions && gained.is_empty() {
            continue;
        }
        let who = format!("{}", r.seat + 1);
        let tally = |g: &Game| format!("(player {}: {}, owned {})", r.seat + 1, g.held(r.seat).len(), g.owned().len());
        match g.rules {
            Rules::Full => {
                let cast = Cast::from_index(r.outcome);
                let t = cast.throw;
                let cubes = format!("{} {} {}", t.face(0), t.face(1), t.face(2));
                let reading = read(cast);
                let v = reading.virtue();
                let recast = |c: Cast| format!("re-cast cube 2: {}; ", c.recast_face());
                let result = match reading {
                    Reading::Spelled(_) if gained.is_empty() => {
                        let owner = replay.owner(v).map(|s| s + 1).unwrap_or(0);
                        let pre = if v == Virtue::KARITAS { recast(cast) } else { String::new() };
                        format!("{pre}spelled, but player {owner} owns it")
                    }
                    Reading::Spelled(_) => {
                        let pre = if v == Virtue::KARITAS { recast(cast) } else { String::new() };
                        format!("{pre}acquired {}", tally(&replay))
                    }
                    Reading::Missed(_, Miss::Recast) => format!("{}no second A", recast(cast)),
                    Reading::Missed(_, why) => format!("no: {why}"),
                };
                say!(
                    o,
                    "{:>5}  {:<7} {:<22} {:<5} {:<5}  {:<13} {result}",
                    r.number,
                    who,
                    cubes,
                    TETRAHEDRON[t.base as usize],
                    v.roll().to_string(),
                    v.latin()
                );
            }
            Rules::Simplified => {
                let p = cubes_from_index(r.outcome);
                let sum = p[0] + p[1] + p[2];
                let result = if gained.is_empty() {
                    format!("the virtues of {sum} are owned")
                } else {
                    let names: Vec<&str> = gained.iter().map(Virtue::latin).collect();
                    format!("acquired {} {}", names.join(", "), tally(&replay))
                };
                say!(
                    o,
                    "{:>5}  {:<7} {:<9} {:>3}  {result}",
                    r.number,
                    who,
                    format!("{} {} {}", p[0], p[1], p[2]),
                    sum
                );
            }
        }
    }
    debug_assert_eq!(replay, game);
    say!(o);
    say!(o, "All 56 virtues are owned after {} rolls.", game.rolls());
    say!(o);
    for s in 0..game.players() {
        let held = game.held(s);
        let names: Vec<&str> = held.iter().map(Virtue::latin).collect();
        say!(
            o,
            "Player {}: {} virtues, {} complementary pairs{}",
            s + 1,
            held.len(),
            complementary_pairs(held),
            if held.contains(Virtue::KARITAS) { ", holds KARITAS" } else { "" }
        );
        say!(o, "  {}", names.join(" "));
    }
    say!(o);
    say!(o, "{}", verdict_text(&game, Scoring::Virtues));
    say!(o, "With the bonus for complementary pairs: {}", verdict_text(&game, Scoring::Pairs));
    emit(o)
}

/// `wibold play --json`: the rolls (what each showed and acquired), then
/// each player's virtues and the verdicts under both scorings.
fn play_json(g: &GameArgs, game: &Game, log: &[LoggedRoll], acquisitions: bool) -> Value {
    let names = |set: VirtueSet| set.iter().map(|v| v.latin()).collect::<Vec<_>>();
    let rolls: Vec<Value> = log
        .iter()
        .filter(|r| !acquisitions || !r.gained.is_empty())
        .map(|r| {
            let mut v = json!({
                "roll": r.number,
                "player": r.seat + 1,
                "outcome": r.outcome,
                "acquired": names(r.gained),
            });
            match g.rules {
                Rules::Full => {
                    let cast = Cast::from_index(r.outcome);
                    let t = cast.throw;
                    v["cubes"] = json!((0..3).map(|i| t.face(i).to_string()).collect::<Vec<_>>());
                    v["base"] = json!(TETRAHEDRON[t.base as usize].to_string());
                    v["virtue"] = json!(read(cast).virtue().latin());
                }
                Rules::Simplified => {
                    let p = cubes_from_index(r.outcome);
                    v["pips"] = json!(p);
                    v["sum"] = json!(p[0] + p[1] + p[2]);
                }
            }
            v
        })
        .collect();
    let verdict = |scoring: Scoring| {
        let v = game.verdict(scoring);
        json!({
            "winners": v.winners.iter().map(|s| s + 1).collect::<Vec<_>>(),
            "tied": v.tied,
            "karitas_broke_tie": v.karitas_broke_tie,
        })
    };
    let seats: Vec<Value> = (0..game.players())
        .map(|s| {
            let held = game.held(s);
            json!({
                "player": s + 1,
                "virtues": names(held),
                "pairs": complementary_pairs(held),
                "karitas": held.contains(Virtue::KARITAS),
            })
        })
        .collect();
    json!({
        "rules": g.rules.to_string(),
        "players": game.players(),
        "seed": g.seed,
        "total_rolls": game.rolls(),
        "rolls": rolls,
        "seats": seats,
        "verdict": verdict(Scoring::Virtues),
        "verdict_with_pairs": verdict(Scoring::Pairs),
    })
}

fn verdict_text(game: &Game, scoring: Scoring) -> String {
    let v: Verdict = game.verdict(scoring);
    let names: Vec<String> = v.winners.iter().map(|s| format!("player {}", s + 1)).collect();
    let how = if v.karitas_broke_tie {
        " (a tie broken by KARITAS, which counts double)"
    } else if v.tied {
        " (a tie KARITAS could not break)"
    } else {
        ""
    };
    if v.shared() {
        format!("{} share the win{how}: let them rejoice together.", names.join(" and "))
    } else {
        format!("{} wins{how}.", names[0].replacen('p', "P", 1))
    }
}

fn strategies(
    lineup: &[Strategy],
    games: u64,
    seed: u64,
    scoring: Scoring,
    threads: Option<usize>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    check_games(games)?;
    let lineup = lineup.to_vec();
    Players::new(lineup.len()).map_err(|e| CliError(format!("--lineup: {e}")))?;
    let mut distinct = lineup.clone();
    distinct.sort();
    distinct.dedup();
    let pairs: Vec<(Strategy, Strategy)> = (0..distinct.len())
        .flat_map(|i| (i + 1..distinct.len()).map(move |j| (i, j)))
        .map(|(i, j)| (distinct[i], distinct[j]))
        .collect();
    let work = games * (1 + pairs.len() as u64);
    let pool = pool(threads, work)?;
    let pb = counter(work, "games", quiet);
    let inc = |k| pb.inc(k);
    let (table, duels) = pool.install(|| -> Result<(MatchReport, Vec<MatchReport>)> {
        let table = play_match(&lineup, games, seed, 0, scoring, &inc)?;
        let duels = pairs
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| Ok(play_match(&[a, b], games, seed, 1 + k as u64, scoring, &inc)?))
            .collect::<Result<Vec<_>>>()?;
        Ok((table, duels))
    })?;
    pb.finish_and_clear();
    let note = "In Wibold's own rules every player is greedy: a throw names at most one virtue, so the dice leave \
                no choice. These strategies play the choice variant, a modern extension: a throw may claim any one \
                unowned virtue whose vowels and a consonant it shows, whatever the pips.";
    if json {
        return print_json(&json!({
            "note": note,
            "seed": seed,
            "scoring": scoring.name(),
            "table": to_json(&table)?,
            "head_to_head": to_json(&duels)?,
        }));
    }
    let o = &mut String::new();
    say!(o, "{note}");
    say!(o);
    say!(
        o,
        "{} at one table: {} games, seats rotated every game; a game lasts {:.1} rolls on average (sd {:.1}).",
        lineup.iter().map(|s| s.name()).collect::<Vec<_>>().join(", "),
        table.games,
        table.length_mean,
        table.length_sd
    );
    say!(
        o,
        "Scoring: {}.",
        match scoring {
            Scoring::Virtues => "Wibold's, one point per virtue, KARITAS breaking ties",
            Scoring::Pairs =>
                "one point per virtue and one per owned pair of virtues whose sums add to 21, KARITAS breaking ties",
        }
    );
    say!(
        o,
        "  {:<15} {:>26} {:>26} {:>8} {:>8}",
        "strategy",
        "win share (95% CI)",
        "wins outright (95% CI)",
        "virtues",
        "KARITAS"
    );
    for e in &table.entries {
        say!(
            o,
            "  {:<15} {:>26} {:>26} {:>8.2} {:>8}",
            e.strategy,
            format!("{} ({:.2}–{:.2})", pct(e.win_share), 100.0 * e.win_share_low, 100.0 * e.win_share_high),
            format!("{} ({:.2}–{:.2})", pct(e.win), 100.0 * e.win_low, 100.0 * e.win_high),
            e.virtues_mean,
            pct(e.karitas)
        );
    }
    say!(o, "  (win share: a win shared by k players counts 1/k; a fair share is {}.)", pct(1.0 / lineup.len() as f64));
    say!(
        o,
        "  Ties at the top: {} of games, {} broken by KARITAS (its holder wins every tie he is part of).",
        pct(table.tied),
        pct(table.karitas_broke_tie)
    );
    if duels.is_empty() {
        return emit(o);
    }
    say!(o);
    say!(
        o,
        "Head to head, two players, {games} games each with seats alternating: the row's win share against the column"
    );
    put!(o, "  {:<15}", "");
    for s in &distinct {
        put!(o, " {:>15}", s.name());
    }
    say!(o);
    for a in &distinct {
        put!(o, "  {:<15}", a.name());
        for b in &distinct {
            let cell = duels.iter().find_map(|d| {
                let i = d.entries.iter().position(|e| e.strategy == a.name())?;
                let j = d.entries.iter().position(|e| e.strategy == b.name())?;
                (i != j).then(|| &d.entries[i])
            });
            match cell {
                Some(e) => put!(
                    o,
                    " {:>15}",
                    format!("{} ±{:.1}", pct(e.win_share), 50.0 * (e.win_share_high - e.win_share_low))
                ),
                None => put!(o, " {:>15}", "—"),
            }
        }
        say!(o);
    }
    emit(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_curves_count_up_to_56() {
        let (_, log) = play_logged(Rules::Simplified, Players::new(2).unwrap(), 3);
        let owned = owned_curve(&log);
        assert_eq!(owned[0], 0);
        assert_eq!(*owned.last().unwrap(), 56);
        assert!(owned.windows(2).all(|w| w[0] <= w[1]));
    }
}
