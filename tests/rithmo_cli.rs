//! `ludus rithmo` end to end.

mod common;
use common::{ludus, stderr, stdout};

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn perft_json_has_the_documented_keys() {
    let o = ludus(&["rithmo", "perft", "3", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 2136);
    assert!(v["seconds"].is_number() && v["nodes_per_second"].is_number());
    let o = ludus(&["rithmo", "perft", "2", "--divide", "--threads", "2"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("b1-e1") && text.contains("perft(2) = 144"), "{text}");
}

#[test]
fn analyse_reports_iterations_and_ends_with_the_best_move() {
    let o = ludus(&["rithmo", "analyse", "--depth", "4", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 5);
    let last = lines.last().unwrap();
    for key in ["best_move", "score", "pv", "depth", "nodes"] {
        assert!(last.get(key).is_some(), "{key} missing");
    }
    assert_eq!(last["depth"], 4);
    assert_eq!(last["pv"][0], last["best_move"]);
}

/// A node budget is kept: every depth reported after the first took at most
/// that many nodes.
#[test]
fn analyse_keeps_its_node_budget() {
    for budget in [1u64, 100, 300, 2000] {
        let o = ludus(&["rithmo", "analyse", "--nodes", &budget.to_string(), "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines[0]["depth"], 1, "depth 1 is always reported");
        assert!(lines.last().unwrap()["best_move"].is_string());
        for l in &lines[1..lines.len() - 1] {
            assert!(l["nodes"].as_u64().unwrap() <= budget, "{budget}: {l}");
        }
    }
}

/// `--play` before perft and analyse: the position after the moves, whose
/// history counts for repetition.
#[test]
fn perft_and_analyse_play_moves_first() {
    let shown = stdout(&ludus(&["rithmo", "show", "--play", "d4-d5,d13-d12"]));
    let fen = shown.lines().last().unwrap();
    let count = |args: &[&str]| -> serde_json::Value {
        let o = ludus(&[&["rithmo", "perft", "2", "--json"][..], args].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["nodes"].clone()
    };
    assert_eq!(count(&["--play", "d4-d5,d13-d12"]), count(&["--fen", fen]));
    assert_ne!(count(&["--play", "d4-d5,d13-d12"]), count(&[]));
    // Back and forth twice: the start a third time, a draw.
    let twice = "d4-d5,d13-d12,d5-d4,d12-d13,d4-d5,d13-d12,d5-d4,d12-d13";
    let o = ludus(&["rithmo", "analyse", "--depth", "2", "--play", twice]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("nothing to analyse: drawn (the same position a third time)"), "{}", stderr(&o));
    let once = "d4-d5,d13-d12,d5-d4,d12-d13";
    let o = ludus(&["rithmo", "analyse", "--depth", "2", "--play", once, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["rithmo", "perft", "1", "--play", "d4-d5,,d13-d12"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("an empty move"), "{}", stderr(&o));
}

/// `show --json`: the position after the moves, with every legal move, as
/// many as perft counts at depth 1.
#[test]
fn show_json_lists_the_legal_moves() {
    let o = ludus(&["rithmo", "show", "--play", "d4-d5", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in ["fen", "start", "played", "side", "status", "over", "winner", "captured", "pieces", "moves"] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["played"], serde_json::json!(["d4-d5"]));
    assert_eq!(v["side"], "Odd");
    let perft = ludus(&["rithmo", "perft", "1", "--play", "d4-d5", "--json"]);
    let perft: serde_json::Value = serde_json::from_slice(&perft.stdout).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len() as u64, perft["nodes"].as_u64().unwrap());
    // A struck pyramid says so.
    let fen = "7,s49/8/8/8/8/8/8/8/8/8/3,c36,4/s55,2,P[S36.S25.T16.T9.C4.C1],4/8/8/8/7,S25 o - - 0 1";
    let o = ludus(&["rithmo", "show", "--fen", fen, "--play", "d6*d5", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let pyramid = v["pieces"].as_array().unwrap().iter().find(|p| p["square"] == "d5").unwrap().clone();
    assert_eq!(pyramid["whole"], false, "{pyramid}");
    assert_eq!(pyramid["layers"].as_array().unwrap().len(), 5, "{pyramid}");
}

/// Depth and time together: the search ends at the first.
#[test]
fn analyse_takes_depth_and_movetime_together() {
    let o = ludus(&["rithmo", "analyse", "--depth", "2", "--movetime", "60000", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["depth"], 2, "{text}");
}

/// `show` says when the game is over.
#[test]
fn show_names_a_finished_game() {
    let o = ludus(&["rithmo", "show", "--fen", &fifteen_taken('o')]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("The game is over: Even wins (victory body:15)"), "{}", stdout(&o));
    let o = ludus(&["rithmo", "show"]);
    assert!(!stdout(&o).contains("over"), "{}", stdout(&o));
}

#[test]
fn show_draws_the_board_and_writes_svg() {
    let dir = std::env::temp_dir().join(format!("ludus-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.svg");
    let o = ludus(&["rithmo", "show", "--play", "d4-d5", "--svg", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("S289") && text.contains("Odd to move"), "{text}");
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("361") && svg.trim_end().ends_with("</svg>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_refuses_illegal_input_with_a_reason() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["rithmo", "play", "--movetime", "30"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"c4-c6\nh8-h9\nzz\nd4-d5\nquit\n").unwrap();
    let o = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("c4-c6 is not legal: the piece on c4 can play only"), "{text}");
    assert!(text.contains("there is no piece on h8"), "{text}");
    assert!(text.contains("'zz' is not a move"), "{text}");
    assert!(text.contains("Odd plays"), "{text}");
}

/// Even has captured fifteen men.
fn fifteen_taken(side: char) -> String {
    let men = ["c3", "c5", "c7", "c9", "c25", "c49", "c81", "t12", "t16", "t30", "t36", "t56", "t64", "s28", "s66"];
    format!("7,s49/8/8/8/8/8/8/8/8/8/8/8/8/8/8/7,S25 {side} {} - 0 20", men.join("."))
}

#[test]
fn bad_input_exits_2() {
    let won_before = fifteen_taken('e');
    for (args, want) in [
        (vec!["rithmo", "perft", "2", "--fen", "8/8 e - - 0 1"], "16"),
        (vec!["rithmo", "show", "--play", "c4-c9"], "not legal"),
        (vec!["rithmo", "show", "--play", "q4-c9"], "not a square"),
        (vec!["rithmo", "analyse", "--victory", "glory:3"], "unknown victory"),
        (vec!["rithmo", "analyse", "--rules", "boissiere"], "[possible values: common]"),
        (vec!["rithmo", "show", "--svg", "/nonexistent-dir/x.svg"], "no directory"),
        (vec!["rithmo", "analyse", "--hash", "0"], "--hash"),
        (vec!["rithmo", "analyse", "--nodes", "0"], "--nodes"),
        (vec!["rithmo", "analyse", "--movetime", "0"], "--movetime"),
        (vec!["rithmo", "perft", "0", "--divide"], "depth 0 has no first moves"),
        // Even, to move, has already captured 15 men: the game ended after
        // its last turn.
        (
            vec!["rithmo", "perft", "1", "--fen", &won_before],
            "impossible position: Even, to move, has already won (victory body:15)",
        ),
    ] {
        let o = ludus(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// `rithmo play` with `input` typed; its standard output.
fn play_with(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["rithmo", "play", "--depth", "1"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn play_shows_the_winning_position_and_explains_the_pieces() {
    // Even's triangle on d3 takes Odd's on d5: one man taken wins.
    let fen = "8/8/8/8/8/8/8/8/8/8/8/3,t9,4/8/3,T9,4/8/C3,7 e - - 0 1";
    let text = play_with(&["--fen", fen, "--victory", "body:1"], "help\nD3XD5\n");
    assert!(text.contains("Pieces: a letter and a value; upper case Even, lower case Odd"), "{text}");
    let (before, _) = text.rsplit_once("Game over: Even wins").expect("the game ends");
    // The board above the verdict is the final one: the triangle on d5.
    let last_board = before.rsplit_once("to move>").unwrap().1;
    let rank5 = last_board.lines().find(|l| l.starts_with("  5 ")).expect("rank 5");
    assert_eq!(rank5.split_whitespace().collect::<Vec<_>>(), ["5", ".", ".", "T9", ".", "."], "{last_board}");
}

#[test]
fn play_undoes_only_what_was_played() {
    let text = play_with(&[], "undo\nd4-d5\nundo\nquit\n");
    assert!(text.contains("nothing of yours to take back"), "{text}");
    // After a move and the reply, undo shows the start again.
    let after = text.rsplit_once("Odd plays").expect("a reply").1;
    assert!(after.contains("S289"), "{after}");
}

#[test]
fn play_as_odd_turns_the_board_and_names_whose_score() {
    let text = play_with(&["--side", "odd"], "quit\n");
    let ranks: Vec<&str> =
        text.lines().filter_map(|l| l.get(..4)).filter(|l| l.trim().parse::<u8>().is_ok()).take(16).collect();
    assert_eq!(ranks.first().map(|r| r.trim()), Some("1"), "{text}");
    assert_eq!(ranks.last().map(|r| r.trim()), Some("16"), "{text}");
    let files = text.lines().find(|l| l.trim_start().starts_with('h')).expect("file letters");
    assert_eq!(files.split_whitespace().collect::<String>(), "hgfedcba");
    let reply = text.lines().find(|l| l.starts_with("Even plays")).expect("the engine moves first");
    assert!(reply.contains(" for Even;"), "{reply}");
}

#[test]
fn analyse_multipv_names_the_side_and_gives_distinct_lines() {
    let o = ludus(&["rithmo", "analyse", "--depth", "3", "--multipv", "3", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // Three lines per depth, then the result.
    assert_eq!(lines.len(), 3 * 3 + 1);
    for d in 1..=3 {
        let at: Vec<&serde_json::Value> =
            lines.iter().filter(|l| l["depth"] == d && l.get("multipv").is_some()).collect();
        assert_eq!(at.len(), 3);
        let firsts: std::collections::BTreeSet<String> = at.iter().map(|l| l["pv"][0].to_string()).collect();
        assert_eq!(firsts.len(), 3, "three different first moves at depth {d}");
        let scores: Vec<i64> = at.iter().map(|l| l["score"].as_i64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
        assert!(at.iter().all(|l| l["side"] == "Even"));
    }
    let last = lines.last().unwrap();
    assert_eq!(last["lines"].as_array().unwrap().len(), 3);
    assert_eq!(last["best_move"], last["lines"][0]["pv"][0]);
    for (k, l) in last["lines"].as_array().unwrap().iter().enumerate() {
        assert_eq!(l["multipv"], k + 1, "{l}");
    }
    // One line: the same best move and score as a plain analysis.
    let one = ludus(&["rithmo", "analyse", "--depth", "3", "--json"]);
    let one: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&one.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(one["score"], last["score"]);
    // Odd to move: its scores are named Odd's.
    let o = ludus(&["rithmo", "analyse", "--depth", "2", "--fen", &odd_to_move()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Scores are Odd's"), "{text}");
    assert!(text.lines().last().unwrap().contains("score Odd "), "{text}");
}

fn odd_to_move() -> String {
    engine::rithmo::START.replacen(" e ", " o ", 1)
}

#[test]
fn study_tables_and_siege_only_as_json() {
    let o = ludus(&["rithmo", "study", "--claim", "tables", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let odd = &v["tables"]["odd"]["sally"];
    assert!(odd.as_array().unwrap().iter().any(|r| r["attacker"] == 7 && r["between"] == 13 && r["target"] == "P91"));
    for side in ["even", "odd"] {
        assert!(
            v["tables"]["counts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["side"].as_str().unwrap().to_lowercase() == side)
        );
    }
    let o = ludus(&["rithmo", "study", "--claim", "siege-only", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["siege_only"]["odd"]["pyramid"].as_array().unwrap().iter().any(|p| p == "p190"));
    // Every target's kind is an object of one shape.
    for side in ["even", "odd"] {
        for t in v["siege_only"][side]["all"].as_array().unwrap() {
            let ty = t["kind"]["type"].as_str().unwrap_or_else(|| panic!("{t}"));
            assert!(["man", "pyramid", "layer"].contains(&ty), "{t}");
            assert_eq!(t["kind"]["strikes"].is_u64(), ty == "pyramid", "{t}");
        }
    }
}

#[test]
fn study_self_play_reports_scores_and_capture_kinds() {
    let o = ludus(&[
        "rithmo",
        "study",
        "--claim",
        "sides",
        "--victories",
        "body:3",
        "--depth",
        "1",
        "--max-games",
        "4",
        "--min-games",
        "4",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let run = &v["sides"][0];
    assert_eq!(run["games"], 4);
    let even = &run["even"];
    let n = even["wins"].as_u64().unwrap() + even["draws"].as_u64().unwrap() + even["losses"].as_u64().unwrap();
    assert_eq!(n, 4);
    let c = &run["captures"];
    let sum: u64 = ["encounter", "sally", "ambush", "siege", "strike"].iter().map(|k| c[k].as_u64().unwrap()).sum();
    assert_eq!(sum, run["captures_total"].as_u64().unwrap());
    assert_eq!(run["thesis_captures"]["total"], 148);
    // The text gives no interval for four games.
    let args: Vec<&str> = ["rithmo", "study", "--claim", "sides", "--victories", "body:3", "--depth", "1"]
        .into_iter()
        .chain(["--max-games", "4", "--min-games", "4", "--threads", "1"])
        .collect();
    let text = stdout(&ludus(&args));
    assert!(text.contains("too few games for an interval") && !text.contains("±"), "{text}");
    assert!(text.contains("too few games to tell which side is stronger"), "{text}");
}

#[test]
fn study_analyse_and_sprt_refuse_bad_input() {
    for (args, want) in [
        (vec!["rithmo", "analyse", "--multipv", "0"], "--multipv"),
        (vec!["rithmo", "study", "--half-width", "0"], "--half-width"),
        (vec!["rithmo", "study", "--victories", "glory"], "unknown victory"),
        (vec!["rithmo", "tune", "--sprt", "ten"], "--sprt"),
        (vec!["arena", "--game", "rota", "--a", "random", "--b", "random", "--sprt", "5,0"], "elo0 must be below"),
        (vec!["arena", "--game", "rota", "--a", "random", "--b", "random", "--sprt", "0,5", "--alpha", "0.7"], "alpha"),
    ] {
        let o = ludus(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn arena_sprt_stops_with_a_verdict() {
    let o = ludus(&[
        "arena",
        "--game",
        "rota",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2000",
        "--sprt",
        "0,100",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sprt"]["decision"], "accept_h1");
    // Decided, and not before the fewest games a verdict needs.
    assert!((30..2000).contains(&v["games"].as_u64().unwrap()));
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= v["sprt"]["upper_bound"].as_f64().unwrap());
    assert!(v["elo_low"].as_f64().unwrap() > 0.0);
}

/// `rithmo tune --test NAME` fits nothing and plays the named weights
/// against the base ones; an unknown name is refused.
#[test]
fn tune_tests_named_weights_without_fitting() {
    let o = ludus(&[
        "rithmo",
        "tune",
        "--test",
        "fitted-2",
        "--base",
        "hand",
        "--match-depth",
        "1",
        "--max-games",
        "4",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["tested"], "fitted-2");
    assert_eq!(v["games"], 0);
    assert_eq!(v["positions"], 0);
    let games = v["match"]["games"].as_u64().unwrap();
    assert!((2..=4).contains(&games), "{games}");
    assert_eq!(v["fitted"]["men"], 20, "the named weights are the ones tested");
    let o = ludus(&["rithmo", "tune", "--test", "fitted-9", "--max-games", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown weights 'fitted-9'"), "{}", stderr(&o));
}
