//! The arena end to end: random play against Rota's exact chances, perfect
//! play against every bot on the solved boards, legality of every bot's
//! actions in every game, reproducibility, records and their replay, and
//! bad input refused with exit code 2.

mod common;
use common::{ludus, stderr, stdout};

use std::sync::Arc;

use engine::arena::{self, Config, GameLog};
use engine::game::{Game, Outcome};
use engine::merels::{BoardKind, Dice, Merels, Rules, State};
use engine::players::alphabeta::SearcherBot;
use engine::players::{Bot, Spec, generic_bot};
use engine::rithmo::{Position, Rithmomachia, RuleSet};
use solver::merels::{PerfectBot, Silent, Solution};

fn temp(name: &str) -> std::path::PathBuf {
    common::temp("arena", name)
}

fn spec(s: &str) -> Spec {
    s.parse().unwrap()
}

fn perfect(rules: Rules) -> (Arc<Solution>, PerfectBot) {
    let sol = Arc::new(Solution::solve(rules, &Silent));
    (sol.clone(), PerfectBot::new(sol).unwrap())
}

fn play<G: Game>(game: &G, a: &dyn Bot<G>, b: &dyn Bot<G>, games: usize, seed: u64, max_plies: usize) -> Vec<GameLog> {
    let cfg = Config { games, seed, max_plies, threads: 2 };
    arena::run(game, a, b, &cfg, &|| {}).unwrap_or_else(|e| panic!("{} v {}: {e}", a.name(), b.name()))
}

#[test]
fn rota_random_v_random_agrees_with_the_exact_chance() {
    let exact = solver::rota::report(Rules::rota(), &Silent).random_vs_random;
    let n = 4000;
    let o = ludus(&[
        "arena",
        "--game",
        "rota",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "4000",
        "--seed",
        "11",
        "--max-plies",
        "100000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], n);
    assert_eq!(v["ply_limit_draws"], 0);
    let first = &v["first_seat"]["results"];
    let wins = first["wins"].as_u64().unwrap() as f64;
    let rate = wins / n as f64;
    let se = (exact * (1.0 - exact) / n as f64).sqrt();
    assert!((rate - exact).abs() < 4.0 * se, "first seat won {rate:.4} of games; exactly {exact:.4} (se {se:.4})");
    // The per-seat counts add up.
    let seat = |k: &str, f: &str| v[k][f].as_u64().unwrap();
    assert_eq!(seat("a_first", "wins") + seat("b_first", "wins"), wins as u64);
    assert_eq!(seat("a_first", "wins") + seat("a_second", "wins"), v["a_wins"].as_u64().unwrap());
    assert_eq!(seat("b_first", "losses") + seat("b_second", "losses"), v["a_wins"].as_u64().unwrap());
    assert_eq!(v["a_wins"].as_u64().unwrap() + v["b_wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap(), 4000);
}

/// Perfect play never does worse than the solved value of its seat: it
/// never loses where that value is a draw, and always wins where it is a
/// win (three men's morris with diagonals is won by the first player: there
/// the second seat may lose to a strong enough opponent).
#[test]
fn perfect_never_loses_a_game_it_need_not_lose() {
    let mut boards = vec![Rules::rota(), Rules::new(BoardKind::Three, Dice::None)];
    boards.push(Rules::new(BoardKind::Three, Dice::None).with_diagonals(true).expect("three has diagonals"));
    boards.push(Rules::new(BoardKind::Six, Dice::None));
    for rules in boards {
        let (sol, bot) = perfect(rules);
        let first_value = sol.interval(&State::start(rules.men())).unwrap().v;
        let game = Merels::new(rules);
        let games = if rules.board.kind == BoardKind::Six { 4 } else { 8 };
        for opponent in ["random", "greedy", "alphabeta:depth=3", "mcts:playouts=100"] {
            let other = generic_bot::<Merels>(&spec(opponent)).unwrap();
            for g in play(&game, &bot, other.as_ref(), games, 3, 400) {
                let seat_value = if g.a_first { first_value } else { -first_value };
                let score = g.a_score();
                assert!(
                    score >= (1.0 + seat_value) / 2.0,
                    "{}: perfect (first: {}) scored {score} against {opponent} where its seat is worth {seat_value}: {}",
                    rules.label(),
                    g.a_first,
                    g.played.moves.join(" ")
                );
            }
        }
    }
}

/// Under dice the solved value is an expectation: perfect play's mean score
/// is at least the value of its seats, within the sampling error.
#[test]
fn perfect_reaches_the_solved_value_under_dice() {
    for (kind, dice) in
        [(BoardKind::Three, Dice::Murray), (BoardKind::Three, Dice::Bell), (BoardKind::Rota, Dice::Schaedler)]
    {
        let rules = Rules::new(kind, dice);
        let (sol, bot) = perfect(rules);
        let first_value = sol.interval(&State::start(rules.men())).unwrap().v;
        let game = Merels::new(rules);
        for opponent in ["random", "greedy", "alphabeta:depth=2"] {
            let other = generic_bot::<Merels>(&spec(opponent)).unwrap();
            let logs = play(&game, &bot, other.as_ref(), 200, 5, 300);
            let excess: Vec<f64> = logs
                .iter()
                .map(|g| g.a_score() - (1.0 + if g.a_first { first_value } else { -first_value }) / 2.0)
                .collect();
            let n = excess.len() as f64;
            let mean = excess.iter().sum::<f64>() / n;
            let var = excess.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let se = (var / n).sqrt().max(1e-3);
            assert!(
                mean >= -4.0 * se,
                "{}: perfect against {opponent} scored {mean:+.4} over its value (se {se:.4})",
                rules.label()
            );
        }
    }
}

const BOTS: [&str; 4] = ["random", "greedy", "alphabeta:depth=2", "mcts:playouts=40"];

/// Every pair of bots, both ways round, plays every kind of game: the arena
/// checks each action against the legal ones and fails on any other.
#[test]
fn every_bot_plays_only_legal_actions_in_every_game() {
    let merels = [
        Rules::rota(),
        Rules::new(BoardKind::Three, Dice::Murray),
        Rules::new(BoardKind::Three, Dice::Bell),
        Rules::new(BoardKind::Six, Dice::None),
        Rules::new(BoardKind::Six, Dice::Schaedler),
    ];
    for rules in merels {
        let game = Merels::new(rules);
        let mut bots: Vec<Box<dyn Bot<Merels>>> = BOTS.iter().map(|s| generic_bot(&spec(s)).unwrap()).collect();
        if rules.board.kind != BoardKind::Six || rules.dice == Dice::None {
            bots.push(Box::new(perfect(rules).1));
        }
        for (i, a) in bots.iter().enumerate() {
            for b in &bots[i..] {
                let logs = play(&game, a.as_ref(), b.as_ref(), 2, 9, 120);
                assert_eq!(logs.len(), 2);
            }
        }
    }
    let game = Rithmomachia::new(RuleSet::common(), Position::start());
    let bots: Vec<Box<dyn Bot<Rithmomachia>>> = vec![
        generic_bot(&spec("random")).unwrap(),
        generic_bot(&spec("greedy")).unwrap(),
        Box::new(SearcherBot::new(engine::players::Limit { depth: Some(2), movetime: None }, 1)),
        generic_bot(&spec("alphabeta:depth=1")).unwrap(),
        generic_bot(&spec("mcts:playouts=20,length=20")).unwrap(),
    ];
    for (i, a) in bots.iter().enumerate() {
        for b in &bots[i..] {
            let logs = play(&game, a.as_ref(), b.as_ref(), 2, 9, 40);
            assert!(logs.iter().all(|g| g.played.plies <= 40));
        }
    }
}

#[test]
fn a_game_over_the_ply_limit_is_a_draw() {
    let game = Merels::new(Rules::rota());
    let bot = generic_bot::<Merels>(&spec("random")).unwrap();
    let logs = play(&game, bot.as_ref(), bot.as_ref(), 50, 1, 7);
    // Rota cannot end before the fifth ply; a 7-ply limit cuts many games.
    let cut: Vec<&GameLog> = logs.iter().filter(|g| g.played.ply_limit).collect();
    assert!(!cut.is_empty());
    assert!(cut.iter().all(|g| g.played.outcome == Outcome::Draw && g.played.plies == 7));
}

#[test]
fn matches_are_reproducible_from_the_seed_whatever_the_threads() {
    let (one, two) = (temp("one.jsonl"), temp("two.jsonl"));
    let record = |seed: &str, threads: &str, path: &std::path::Path| {
        let o = ludus(&[
            "arena",
            "--game",
            "merels",
            "--board",
            "three",
            "--dice",
            "murray",
            "--a",
            "mcts:playouts=30",
            "--b",
            "alphabeta:depth=2",
            "--games",
            "12",
            "--seed",
            seed,
            "--threads",
            threads,
            "--record",
            path.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    record("42", "1", &one);
    record("42", "2", &two);
    let (x, y) = (std::fs::read_to_string(&one).unwrap(), std::fs::read_to_string(&two).unwrap());
    assert_eq!(x, y);
    assert_eq!(x.lines().count(), 12);
    record("43", "2", &one);
    assert_ne!(std::fs::read_to_string(&one).unwrap(), y, "another seed, other games");
}

#[test]
fn records_replay_on_the_terminal_board() {
    let path = temp("rota.jsonl");
    let p = path.to_str().unwrap();
    let o = ludus(&["arena", "--game", "rota", "--a", "greedy", "--b", "random", "--games", "6", "--record", p, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 6);
    let g = &lines[3];
    assert_eq!((g["game"].as_str(), g["index"].as_u64(), g["first"].as_str()), (Some("rota"), Some(3), Some("b")));
    assert_eq!((g["a"].as_str(), g["b"].as_str()), (Some("greedy"), Some("random")));
    assert_eq!(g["rules"]["board"], "rota");
    let moves = g["moves"].as_array().unwrap();
    let o = ludus(&["replay", p, "--index", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains(&format!("ply 1: x plays {}", moves[0].as_str().unwrap())), "{text}");
    assert!(text.contains(&format!("ply {}:", moves.len())), "{text}");
    assert!(text.contains(&format!("Result after {} plies", moves.len())), "{text}");
    assert!(text.contains("to move; in hand"), "{text}");

    // Dice merels: moves carry their throws and replay through the same notation.
    let path = temp("dice.jsonl");
    let p = path.to_str().unwrap();
    let o = ludus(&[
        "arena",
        "--game",
        "merels",
        "--board",
        "six",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--record",
        p,
        "-q",
        "--max-plies",
        "80",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"dice\":\"schaedler\""), "{text}");
    assert!(text.contains("normal:"), "{text}");
    let o = ludus(&["replay", p, "--index", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Rithmomachia.
    let path = temp("rithmo.jsonl");
    let p = path.to_str().unwrap();
    let o = ludus(&[
        "arena",
        "--game",
        "rithmo",
        "--a",
        "alphabeta:depth=1",
        "--b",
        "greedy",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--record",
        p,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["replay", p, "--index", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("ply 30: Odd plays"), "{text}");
    assert!(text.contains("drawn by the ply limit"), "{text}");
}

#[test]
fn the_report_names_seats_score_elo_and_the_first_player() {
    // 30 games: fewer give no interval and no verdict.
    let o = ludus(&["arena", "--game", "rota", "--a", "perfect", "--b", "random", "--games", "30", "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for want in
        ["moving 1st", "moving 2nd", "A's score 1.0000", "Elo difference A − B: +inf", "First player's advantage"]
    {
        assert!(text.contains(want), "{want}:\n{text}");
    }
    let o = ludus(&["arena", "--game", "rota", "--a", "greedy", "--b", "random", "--games", "40", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in ["a_wins", "b_wins", "draws", "a_first", "a_second", "b_first", "b_second", "score", "elo", "elo_low"] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert!(v["a_first"]["wins"].is_u64() && v["b_second"]["losses"].is_u64());
    assert_eq!(v["reproducible"], true);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let rec = temp("bad.jsonl");
    std::fs::write(&rec, "{\"index\": 0, \"game\": \"rota\"\nnot json\n").unwrap();
    let good = temp("good.jsonl");
    let o = ludus(&[
        "arena",
        "--game",
        "rota",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--record",
        good.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success());
    let cases: &[(&[&str], &str)] = &[
        (&["arena", "--game", "rota", "--a", "alphabeta:depht=3", "--b", "random"], "unknown parameter 'depht'"),
        (&["arena", "--game", "rota", "--a", "mcts:playouts=0", "--b", "random"], "playouts=0"),
        (&["arena", "--game", "rota", "--a", "minimax", "--b", "random"], "unknown player 'minimax'"),
        (&["arena", "--game", "rithmo", "--a", "perfect", "--b", "random"], "Rithmomachia is not solved"),
        (
            &[
                "arena", "--game", "merels", "--board", "nine", "--dice", "none", "--a", "perfect", "--b", "random",
                "--no-db",
            ],
            "too big",
        ),
        (&["arena", "--game", "merels", "--a", "random", "--b", "random"], "needs --board"),
        (&["arena", "--game", "rota", "--board", "six", "--a", "random", "--b", "random"], "rota board"),
        (
            &["arena", "--game", "rota", "--victory", "body:3", "--a", "random", "--b", "random"],
            "options of --game rithmo",
        ),
        (&["arena", "--game", "rithmo", "--dice", "murray", "--a", "random", "--b", "random"], "not rithmo"),
        (&["arena", "--game", "rota", "--a", "random", "--b", "random", "--games", "0"], "at least 1"),
        (&["arena", "--game", "chess", "--a", "random", "--b", "random"], "invalid value"),
        (&["arena", "--game", "rota", "--a", "random"], "required"),
        (&["replay", "/nonexistent/games.jsonl"], "cannot read"),
        (&["replay", rec.to_str().unwrap()], "line 1"),
        (&["replay", good.to_str().unwrap(), "--index", "5"], "has no game 5"),
    ];
    for (args, want) in cases {
        let o = ludus(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// A clean sweep below 30 games gets its rule-of-three interval in the text
/// as in the JSON; an even score is Elo 0, not −0.
#[test]
fn a_small_sweep_gets_the_rule_of_three() {
    let args = ["arena", "--game", "rota", "--a", "alphabeta:depth=4", "--b", "random", "--games", "6", "-q"];
    let o = ludus(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["a_wins"], 6, "the seed's six games are all won by A: {v}");
    let low = v["score"]["low"].as_f64().unwrap();
    assert!((low - 0.5).abs() < 1e-12, "rule of three: 1 − 3/6: {v}");
    let o = ludus(&args);
    let text = stdout(&o);
    assert!(text.contains("(95% interval 0.5000 to 1.0000") && text.contains("rule of three"), "{text}");
    assert!(!text.contains("±") && text.contains("too few games for an estimate"), "{text}");
    assert!(engine::arena::elo(0.5).is_sign_positive() && engine::arena::elo(0.5) == 0.0);
}
