//! `ludus rithmo`: Rithmomachia perft, analysis, search benchmarks, pictures
//! and play against the engine.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use engine::rithmo::bench::POSITIONS as BENCH;
use engine::rithmo::{
    Game, Info, Limits, Position, Preset, RuleSet, Searcher, Side, Status, Victory, divide, perft, perft_parallel,
    render, score_text,
};
use serde_json::json;

use crate::common::{HASH_DEFAULT_MIB, Started, check_memory, parse_depth, parse_hash, parse_threads, print_json};
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
    #[arg(long, value_enum, default_value_t = Preset::Common)]
    pub rules: Preset,
    /// The victory condition: body:N, goods:V, lawsuit:V:N, honor:V:N,
    /// honor-lawsuit:V:N:D, great, greater or excellent [default: the
    /// preset's, body:15]
    #[arg(long, value_name = "VICTORY")]
    pub victory: Option<Victory>,
}

impl PositionArgs {
    pub fn resolve(&self) -> Result<(Position, RuleSet)> {
        let mut rules = self.rules.rules();
        if let Some(v) = self.victory {
            rules = rules.with_victory(v);
        }
        let pos = match &self.fen {
            Some(f) => f.trim().parse::<Position>().map_err(|e| CliError(e.to_string()))?,
            None => Position::start(),
        };
        // A victory is checked after the winner's turn: its side cannot be
        // to move.
        let side = pos.side_to_move();
        if pos.victory_by(&rules, side) {
            return Err(CliError(format!(
                "impossible position: {side}, to move, has already won (victory {}): the game ended after its last turn",
                rules.victory
            )));
        }
        Ok((pos, rules))
    }
}

/// Search limits shared by analyse and play.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search to this depth (plies); with --movetime, whichever comes first
    #[arg(long, value_parser = parse_depth)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds [default, when neither --depth nor
    /// --nodes is given: 5000 to analyse, 1000 a move in play]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Stop after this many nodes (depth 1 is reported however many it takes)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Transposition table size in MiB
    #[arg(long, value_name = "MIB", default_value_t = HASH_DEFAULT_MIB, value_parser = parse_hash)]
    pub hash: usize,
}

impl SearchArgs {
    /// The limits of a search; its time counts from `started` (setting up
    /// the table is part of it).
    fn limits(&self, default_ms: u64, started: Started) -> Limits {
        let movetime = match (self.depth, self.movetime, self.nodes) {
            (None, None, None) => Some(Duration::from_millis(default_ms)),
            (_, m, _) => m.map(Duration::from_millis),
        };
        Limits { depth: self.depth, movetime: movetime.map(|t| started.left(t)), nodes: self.nodes }
    }

    fn check(&self) -> Result<()> {
        check_memory((self.hash as u64) << 20, &format!("--hash {}", self.hash))
    }

    /// The searcher with its table, or why the memory cannot be had.
    fn searcher(&self, rules: RuleSet) -> Result<Searcher> {
        Ok(Searcher::try_new(rules, self.hash)?)
    }
}

#[derive(Subcommand, Debug)]
enum RithmoCmd {
    /// Search a position: one line per iteration (depth, score, nodes, nps,
    /// principal variation)
    Analyse {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, comma separated (c4-c5,c13-c12); their
        /// positions count for repetition
        #[arg(long, value_delimiter = ',')]
        play: Vec<String>,
        #[command(flatten)]
        search: SearchArgs,
        /// Search the N best moves, each with its line and score
        #[arg(long, value_name = "N", default_value_t = 1)]
        multipv: usize,
        /// JSON lines: one per iteration (and line), then the result
        #[arg(long)]
        json: bool,
    },
    /// Benchmark the search on fixed positions: total nodes at a fixed depth
    /// (a fingerprint of the search), nodes per second, and the depth reached
    /// in a fixed time per position
    Bench {
        /// Depth of the node-count fingerprint
        #[arg(long, default_value_t = 7, value_parser = parse_depth)]
        depth: u32,
        /// Milliseconds per position for the depth-in-time table
        #[arg(long, value_name = "MS", default_value_t = 1000)]
        movetime: u64,
        /// No progress bar
        #[arg(long, short)]
        quiet: bool,
        /// One JSON object on standard output, for scripts
        #[arg(long)]
        json: bool,
    },
    /// Draw a position in the terminal, and as an SVG picture with --svg
    Show {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, comma separated (c4-c5,c13-c12)
        #[arg(long, value_delimiter = ',')]
        play: Vec<String>,
        /// Write the board as an SVG picture to this file
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// One JSON object: the position, its standing, the pieces and every
        /// legal move with the rules that allow it (as `ludus serve`'s
        /// position call, without the picture)
        #[arg(long)]
        json: bool,
    },
    /// Play the engine in the terminal; moves in notation (c4-c5, c4xc13,
    /// c4*c13), or: moves, undo, show, help, quit
    Play {
        #[command(flatten)]
        position: PositionArgs,
        /// The side you play
        #[arg(long, value_enum, default_value_t = Side::Even)]
        side: Side,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// The thesis's claims computed: captures by sally and ambush the armies'
    /// values allow (its Tables 2 and 3), the pieces only a siege can take,
    /// and which side is stronger by engine self-play, with captures by kind
    Study(crate::rithmo_study::StudyArgs),
    /// Fit the evaluation's weights to self-play games, then test the fitted
    /// engine against the current one in the arena (an SPRT)
    Tune(crate::rithmo_tune::TuneArgs),
    /// Count the leaves of the legal-move tree to a depth
    Perft {
        /// Plies to count, 0 to 12
        #[arg(value_parser = clap::value_parser!(u32).range(0..=12))]
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first, comma separated (c4-c5,c13-c12)
        #[arg(long, value_delimiter = ',')]
        play: Vec<String>,
        /// Counts per first move
        #[arg(long)]
        divide: bool,
        /// Threads counting at once (1, the default, is the single-core
        /// figure generators are compared by)
        #[arg(long, value_name = "T", value_parser = parse_threads, default_value_t = 1)]
        threads: usize,
        /// One JSON object: {"depth", "nodes", "seconds", "nodes_per_second"}
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: RithmoArgs) -> Result<()> {
    match args.cmd {
        RithmoCmd::Analyse { position, play, search, multipv, json } => {
            let started = Started::now();
            search.check()?;
            if multipv == 0 || multipv > 500 {
                return Err(CliError(format!("--multipv {multipv}: choose between 1 and 500")));
            }
            let (pos, rules) = position.resolve()?;
            analyse(&after_moves(pos, rules, &play)?, &search, multipv, json, started)
        }
        RithmoCmd::Bench { depth, movetime, quiet, json } => bench(depth, movetime, quiet || json, json),
        RithmoCmd::Study(a) => crate::rithmo_study::run(a),
        RithmoCmd::Tune(a) => crate::rithmo_tune::run(a),
        RithmoCmd::Show { position, play, svg, json } => {
            let (pos, rules) = position.resolve()?;
            if let Some(path) = &svg {
                check_svg_path(path)?;
            }
            let game = after_moves(pos, rules, &play)?;
            let pos = *game.position();
            if json {
                print_json(&game_json(&game))?;
            } else {
                print!("{}", render::text(&pos));
                // The game's standing (a repetition counts the moves played).
                let status = game.status();
                if status != Status::Ongoing {
                    println!("The game is over: {status}");
                }
                println!("{pos}");
            }
            if let Some(path) = svg {
                engine::file::write_atomic(&path, render::svg(&pos).as_bytes())?;
                if !json {
                    println!("SVG written to {}", path.display());
                }
            }
            Ok(())
        }
        RithmoCmd::Play { position, side, search } => {
            search.check()?;
            let (pos, rules) = position.resolve()?;
            play(pos, rules, side, &search)
        }
        RithmoCmd::Perft { depth, position, play, divide: split, threads, json } => {
            let (pos, rules) = position.resolve()?;
            let pos = *after_moves(pos, rules, &play)?.position();
            if split && depth == 0 {
                return Err("--divide: depth 0 has no first moves to divide by (choose a depth from 1)".into());
            }
            let pool = crate::common::pool(Some(threads), u64::MAX)?;
            let parallel = pool.current_num_threads() > 1;
            let t = Instant::now();
            let (parts, nodes) = pool.install(|| {
                let parts = if split { divide(&pos, &rules, depth, parallel) } else { Vec::new() };
                let nodes = if split {
                    parts.iter().map(|p| p.1).sum()
                } else if parallel {
                    perft_parallel(&pos, &rules, depth)
                } else {
                    perft(&pos, &rules, depth)
                };
                (parts, nodes)
            });
            let secs = t.elapsed().as_secs_f64();
            let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
            if json {
                let mut v = json!({"depth": depth, "nodes": nodes, "seconds": secs, "nodes_per_second": nps});
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

/// The game after `play` (moves in notation) from `pos`, refusing an
/// empty or illegal move with the reason.
fn after_moves(pos: Position, rules: RuleSet, play: &[String]) -> Result<Game> {
    let mut game = Game::new(pos, rules);
    for (i, m) in play.iter().enumerate() {
        if m.trim().is_empty() {
            return Err("--play: an empty move (two commas in a row, or nothing at all)".into());
        }
        let mv = game.position().parse_move(m, &rules)?;
        game.play(mv).map_err(|e| CliError(format!("--play move {} ({m}): {e}", i + 1)))?;
    }
    Ok(game)
}

/// The game's position with everything the board shows but the picture:
/// the position, the game so far, its standing, the pieces and every legal
/// move with the rules that allow it and the squares it besieges.
pub(crate) fn game_json(game: &Game) -> serde_json::Value {
    let pos = game.position();
    let rules = &game.rules;
    let status = game.status();
    let legal = if status == Status::Ongoing { pos.legal_moves(rules).to_vec() } else { Vec::new() };
    let moves: Vec<serde_json::Value> = legal
        .iter()
        .map(|&m| {
            let why = pos.move_reasons(m, rules);
            json!({
                "move": m.to_string(),
                "from": m.from.to_string(),
                "to": m.to.to_string(),
                "kind": match m.kind {
                    engine::rithmo::MoveKind::Plain => "plain",
                    engine::rithmo::MoveKind::Capture => "capture",
                    engine::rithmo::MoveKind::Strike => "strike",
                },
                "by": why.names(),
                "sieges": why.sieged.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut pieces = Vec::new();
    for rank in 0..16u8 {
        for file in 0..8u8 {
            let sq = engine::rithmo::Square::new(file, rank);
            if let Some(p) = pos.piece_at(sq) {
                pieces.push(json!({
                    "square": sq.to_string(),
                    "side": p.side.name(),
                    "shape": format!("{:?}", p.shape).to_lowercase(),
                    "value": p.value,
                    "layers": p.pyramid.map(|y| y.layers().iter().map(|m| m.value()).collect::<Vec<_>>()),
                    "whole": p.pyramid.map(|y| y.intact),
                }));
            }
        }
    }
    let captured = |s: Side| {
        let c = pos.captured_by(s);
        json!({ "men": c.count(), "value": c.value })
    };
    let winner = match status {
        Status::Won(s, _) => Some(s.name()),
        _ => None,
    };
    json!({
        "fen": pos.to_string(),
        "start": game.positions()[0].to_string(),
        "played": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "rules": rules.name,
        "victory": rules.victory.to_string(),
        "side": pos.side_to_move().name(),
        "status": status.to_string(),
        "over": status != Status::Ongoing,
        "winner": winner,
        "clock": pos.clock,
        "fullmove": pos.fullmove,
        "captured": { "Even": captured(Side::Even), "Odd": captured(Side::Odd) },
        "pieces": pieces,
        "moves": moves,
    })
}

/// An SVG picture goes to a file named `.svg`, in a directory that exists.
fn check_svg_path(path: &std::path::Path) -> Result<()> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if ext.as_deref() != Some("svg") {
        return Err(CliError(format!("--svg {}: the picture is SVG, so the file must end in .svg", path.display())));
    }
    Ok(engine::file::check_writable(path)?)
}

/// One iteration's result; the score is `side`'s, the side to move.
pub(crate) fn info_json(i: &Info, side: Side) -> serde_json::Value {
    json!({
        "depth": i.depth,
        "seldepth": i.seldepth,
        "side": side.name(),
        "score": i.score,
        "score_text": score_text(i.score),
        "nodes": i.nodes,
        "nodes_per_second": i.nps(),
        "seconds": i.time.as_secs_f64(),
        "pv": i.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

/// A score in words for the side it belongs to: `Even +0.35`, `Odd win in 3`.
fn side_score(score: i32, side: Side) -> String {
    format!("{side} {}", score_text(score))
}

fn print_info(i: &Info, side: Side, line: Option<usize>) {
    println!(
        "depth {:>2}  seldepth {:>2}{}  score {:>14}  nodes {:>10}  nps {:>9}  time {:>7.3}s  pv {}",
        i.depth,
        i.seldepth,
        line.map_or(String::new(), |k| format!("  multipv {k}")),
        side_score(i.score, side),
        i.nodes,
        i.nps(),
        i.time.as_secs_f64(),
        i.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
    );
}

/// Searches a position and prints each iteration; scores are the side to
/// move's, and name it.
/// Analyses the game's position, its earlier positions counting for
/// repetition.
fn analyse(game: &Game, args: &SearchArgs, lines: usize, json: bool, started: Started) -> Result<()> {
    let (pos, rules, history) = (game.position(), game.rules, game.hashes());
    if game.status() != Status::Ongoing {
        return Err(CliError(format!("nothing to analyse: {}", game.status())));
    }
    let mut s = args.searcher(rules)?;
    let side = pos.side_to_move();
    if !json {
        println!("Scores are {side}'s, the side to move (in men; win/loss in plies)");
    }
    let limits = args.limits(5000, started);
    let result: Vec<Info> = if lines == 1 {
        vec![s.search(pos, &history, limits, |i| {
            if json {
                println!("{}", info_json(i, side));
            } else {
                print_info(i, side, None);
            }
        })]
    } else {
        s.search_lines(pos, &history, limits, lines, |found| {
            for (k, i) in found.iter().enumerate() {
                if json {
                    println!("{}", line_json(i, side, k));
                } else {
                    print_info(i, side, Some(k + 1));
                }
            }
        })
    };
    let top = &result[0];
    let best = top.pv.first().map(|m| m.to_string());
    if json {
        let mut v = info_json(top, side);
        v["best_move"] = json!(best);
        if lines > 1 {
            v["lines"] = result.iter().enumerate().map(|(k, i)| line_json(i, side, k)).collect();
        }
        println!("{v}");
    } else {
        println!("best move {}  score {}", best.unwrap_or_else(|| "(none)".into()), side_score(top.score, side));
    }
    Ok(())
}

/// Line `k` (from 0) of several principal variations, numbered from 1.
fn line_json(i: &Info, side: Side, k: usize) -> serde_json::Value {
    let mut v = info_json(i, side);
    v["multipv"] = json!(k + 1);
    v
}

fn bench(depth: u32, movetime: u64, quiet: bool, json: bool) -> Result<()> {
    let rules = RuleSet::common();
    let bar = crate::progress::counter(2 * BENCH.len() as u64, "searches", quiet);
    let mut total_nodes = 0u64;
    let mut total_time = 0.0;
    let mut fixed = Vec::new();
    for (name, rfen) in BENCH {
        let pos: Position = rfen.parse().map_err(|e: engine::rithmo::ParseRfenError| CliError(e.to_string()))?;
        let mut s = Searcher::new(rules, 16);
        let r = s.search(&pos, &[pos.hash()], Limits { depth: Some(depth), ..Limits::default() }, |_| {});
        total_nodes += r.nodes;
        total_time += r.time.as_secs_f64();
        fixed.push((name, r));
        bar.inc(1);
    }
    let mut timed = Vec::new();
    for (name, rfen) in BENCH {
        let pos: Position = rfen.parse().map_err(|e: engine::rithmo::ParseRfenError| CliError(e.to_string()))?;
        let mut s = Searcher::new(rules, 64);
        let limits = Limits { movetime: Some(Duration::from_millis(movetime)), ..Limits::default() };
        let r = s.search(&pos, &[pos.hash()], limits, |_| {});
        timed.push((name, r));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let nps = if total_time > 0.0 { total_nodes as f64 / total_time } else { 0.0 };
    if json {
        let v = json!({
            "depth": depth,
            "nodes": total_nodes,
            "seconds": total_time,
            "nodes_per_second": nps as u64,
            "positions": fixed.iter().zip(&timed).map(|((name, f), (_, t))| json!({
                "name": name,
                "nodes": f.nodes,
                "score": f.score,
                "best_move": f.pv.first().map(|m| m.to_string()),
                "depth_in_time": t.depth,
                "movetime_ms": movetime,
                "nodes_in_time": t.nodes,
                "nodes_per_second": t.nps(),
            })).collect::<Vec<_>>(),
        });
        println!("{v}");
        return Ok(());
    }
    println!("Search bench: depth {depth} on {} positions, then {movetime} ms each", BENCH.len());
    println!();
    println!(
        "{:<26} {:>10} {:>10} {:>7} | {:>6} {:>10} {:>10}",
        "position", "nodes", "score", "best", "depth", "nodes", "nps"
    );
    for ((name, f), (_, t)) in fixed.iter().zip(&timed) {
        println!(
            "{:<26} {:>10} {:>10} {:>7} | {:>6} {:>10} {:>10}",
            name,
            f.nodes,
            score_text(f.score),
            f.pv.first().map(|m| m.to_string()).unwrap_or_default(),
            t.depth,
            t.nodes,
            t.nps()
        );
    }
    println!();
    println!(
        "{total_nodes} nodes at depth {depth} ({:.0} nodes/s) — this count changes only when the search does",
        nps
    );
    Ok(())
}

/// What `help` prints in a game against the engine.
const PLAY_HELP: &str = "\
Moves: c4-c5 (a plain move), c4xc13 (a capture: the piece on c13 is taken),
  c4*c13 (a strike: the bottom layer of the pyramid on c13 is taken);
  squares in either case (C4-C5).
Commands: moves (the legal moves), undo (take back your last move and the
  reply), show (the board), help, quit.
Pieces: a letter and a value; upper case Even, lower case Odd. C circle,
  T triangle, S square, P pyramid (its total; its layers are listed under
  the board). Dots mark the dark squares. The board is drawn from your side.
Scores are in men (a circle's worth), for the side named: + is good for it.";

/// A search's score said for the side it belongs to.
fn score_for(side: Side, score: i32) -> String {
    let text = score_text(score);
    let unit = if text.starts_with(['+', '-']) { " men" } else { "" };
    format!("{text}{unit} for {side}")
}

fn play(start: Position, rules: RuleSet, human: Side, args: &SearchArgs) -> Result<()> {
    let started = Started::now();
    let mut game = Game::new(start, rules);
    let mut engine = args.searcher(rules)?;
    // The engine's first move counts the table's setup; later ones their own.
    let mut turn_started = Some(started);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let board = |pos: &Position| render::text_for(pos, human);
    println!(
        "You play {human}. Moves like c4-c5, c4xc13 (capture), c4*c13 (strike); also: moves, undo, show, help, quit."
    );
    print!("{}", board(game.position()));
    // Whether the board on the screen is the position now.
    let mut shown = true;
    loop {
        let status = game.status();
        if status != Status::Ongoing {
            if !shown {
                print!("{}", board(game.position()));
            }
            println!("Game over: {status}");
            return Ok(());
        }
        let pos = *game.position();
        if pos.side_to_move() == human {
            turn_started = None;
            print!("{human} to move> ");
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line?;
            match line.trim() {
                "" => continue,
                "quit" | "exit" => return Ok(()),
                "help" => println!("{PLAY_HELP}"),
                "show" => print!("{}", board(&pos)),
                "moves" => {
                    let ms: Vec<String> = pos.legal_moves(&rules).iter().map(|m| m.to_string()).collect();
                    println!("{}", ms.join(" "));
                }
                "undo" if game.moves().len() < 2 => println!("nothing of yours to take back"),
                "undo" => {
                    // Take back the engine's reply and your move.
                    game.undo();
                    game.undo();
                    print!("{}", board(game.position()));
                }
                text => match pos.parse_move(text, &rules) {
                    Ok(m) => {
                        game.play(m)?;
                        shown = false;
                    }
                    Err(e) => println!("{e}"),
                },
            }
        } else {
            let clock = turn_started.take().unwrap_or_else(Started::now);
            let r = engine.search(&pos, &game.hashes(), args.limits(1000, clock), |_| {});
            let Some(&m) = r.pv.first() else { return Err(CliError("the engine found no move".into())) };
            let mover = pos.side_to_move();
            println!("{mover} plays {m}   ({}; depth {}, {} nodes)", score_for(mover, r.score), r.depth, r.nodes);
            game.play(m)?;
            print!("{}", board(game.position()));
            shown = true;
        }
    }
}
