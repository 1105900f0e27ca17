//! `ludus wibold` end to end: the exact analysis and its JSON, the table,
//! simulations reproducible from the seed, one game roll by roll, the
//! strategies, figures, and bad input refused with exit code 2.

mod common;
use common::{ludus, stderr, stdout};

use std::path::PathBuf;

use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let o = ludus(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", stdout(&o)))
}

/// A fresh directory for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("wibold-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn analyse_json_gives_table_3_and_the_exact_lengths() {
    let v = json(&["wibold", "analyse", "--json"]);
    let outcomes = v["outcomes"].as_object().unwrap();
    assert_eq!(outcomes.len(), 56);
    assert_eq!(outcomes["PAX"], 12);
    assert_eq!(outcomes["GAUDIUM"], 6);
    assert_eq!(outcomes["KARITAS"], 2);
    assert_eq!(v["null_outcomes"], 447);
    let total: f64 = outcomes.values().map(|c| c.as_f64().unwrap()).sum();
    assert_eq!(total + 447.0, 864.0);
    assert_eq!(format!("{:.2}", v["expected_rolls"].as_f64().unwrap()), "1656.05");
    assert_eq!(format!("{:.2}", v["simplified_expected_rolls"].as_f64().unwrap()), "338.45");
    for key in ["length_quantiles", "simplified_length_quantiles"] {
        let q = &v[key];
        let (a, b, c) = (q["0.5"].as_u64().unwrap(), q["0.95"].as_u64().unwrap(), q["0.99"].as_u64().unwrap());
        assert!(a < b && b < c, "{key}: {q}");
    }
    // The article's 95th percentile estimates lie near the exact ones.
    let p95 = v["length_quantiles"]["0.95"].as_u64().unwrap();
    assert!((3100..3400).contains(&p95), "{p95}");
    let sd = v["sd"].as_f64().unwrap();
    assert!((sd / 810.536 - 1.0).abs() < 0.03, "{sd}");
    assert!(v["full"]["expected_rolls_exact"].as_str().unwrap().contains('/'));
    assert!(v.get("length_cdf").is_none(), "the curve only with --cdf");
}

#[test]
fn analyse_cdf_gives_the_whole_curve() {
    let v = json(&["wibold", "analyse", "--json", "--cdf"]);
    let cdf: Vec<f64> = v["length_cdf"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!(cdf[..56].iter().all(|&p| p == 0.0), "no game is shorter than 56 rolls");
    assert!(cdf.windows(2).all(|w| w[0] <= w[1] + 1e-13));
    assert!(*cdf.last().unwrap() > 1.0 - 1e-11);
    let median = v["length_quantiles"]["0.5"].as_u64().unwrap() as usize;
    assert!(cdf[median] >= 0.5 && cdf[median - 1] < 0.5);
    let text = stdout(&ludus(&["wibold", "analyse", "--cdf"]));
    assert!(text.lines().count() > cdf.len());
}

#[test]
fn analyse_prints_the_numbers_the_article_could_only_simulate() {
    let o = ludus(&["wibold", "analyse"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for want in ["NULL", "447", "1656.05", "338.45", "95th percentile", "P(T ≤ 3222)"] {
        assert!(text.contains(want), "{want} missing:\n{text}");
    }
}

#[test]
fn table_lists_56_virtues_with_mates() {
    let o = ludus(&["wibold", "table"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("PAX") && text.contains("SUSPIRATIO (15)"));
    assert!(text.lines().any(|l| l.contains("NULL") && l.contains("447")));
    let rows = json(&["wibold", "table", "--json"]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 56);
    assert_eq!(rows[0]["latin"], "KARITAS");
    assert_eq!(rows[0]["mate"], "HUMILITAS");
    assert_eq!(rows[7]["outcomes"], 12);
}

/// A simulation's JSON without the fields that measure the machine.
fn simulation(args: &[&str]) -> Value {
    let mut v = json(args);
    for key in ["seconds", "rolls_per_second", "threads"] {
        assert!(v.get(key).is_some(), "{key}");
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

#[test]
fn simulations_repeat_from_the_seed_whatever_the_threads() {
    let base = ["wibold", "simulate", "--players", "3", "--games", "1500", "--seed", "7", "--json"];
    let one = simulation(&[&base[..], &["--threads", "1"]].concat());
    let two = simulation(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let other = simulation(&["wibold", "simulate", "--players", "3", "--games", "1500", "--seed", "8", "--json"]);
    assert_ne!(one["length"], other["length"]);
    assert_eq!(one["games"], 1500);
    assert_eq!(one["scoring"]["seats"].as_array().unwrap().len(), 3);
    let wins: f64 = one["scoring"]["seats"].as_array().unwrap().iter().map(|s| s["win"].as_f64().unwrap()).sum();
    let shared = one["scoring"]["shared"].as_f64().unwrap();
    assert!((wins + shared - 1.0).abs() < 1e-9);
    assert!(one["length"]["fit"]["ks_p_value"].as_f64().unwrap() > 0.001);
    assert_eq!(format!("{:.2}", one["length"]["exact_mean"].as_f64().unwrap()), "1656.05");
}

#[test]
fn the_simplified_game_simulates_too() {
    let v = simulation(&["wibold", "simulate", "--rules", "simplified", "--games", "3000", "--seed", "2", "--json"]);
    assert_eq!(v["rules"], "simplified");
    let mean = v["length"]["mean"].as_f64().unwrap();
    assert!((mean - 338.45).abs() < 4.0 * 231.0 / (3000f64).sqrt(), "{mean}");
    let o = ludus(&["wibold", "simulate", "--games", "500"]);
    assert!(o.status.success());
    for want in ["exact", "First roller", "KARITAS", "complementary pairs"] {
        assert!(stdout(&o).contains(want), "{want}");
    }
}

#[test]
fn play_shows_the_first_game_of_the_simulation() {
    let o = ludus(&["wibold", "play", "--players", "3", "--seed", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let rolls: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("All 56 virtues are owned after "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the closing line");
    let v = simulation(&["wibold", "simulate", "--players", "3", "--seed", "4", "--games", "1", "--json"]);
    assert_eq!(v["length"]["min"], rolls);
    assert_eq!(text.lines().filter(|l| l.contains("acquired")).count(), 56);
    assert!(text.contains("wins") || text.contains("share the win"));
    let short = stdout(&ludus(&["wibold", "play", "--players", "3", "--seed", "4", "--acquisitions"]));
    assert!(short.lines().count() < text.lines().count());
    let simple = ludus(&["wibold", "play", "--players", "2", "--seed", "1", "--rules", "simplified"]);
    assert!(simple.status.success() && stdout(&simple).contains("acquired"));
}

#[test]
fn strategies_compare_in_the_choice_variant() {
    let v = json(&["wibold", "strategies", "--games", "300", "--json"]);
    assert!(v["note"].as_str().unwrap().contains("every player is greedy"));
    let entries = v["table"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    let share: f64 = entries.iter().map(|e| e["win_share"].as_f64().unwrap()).sum();
    assert!((share - 1.0).abs() < 1e-9);
    assert_eq!(v["head_to_head"].as_array().unwrap().len(), 6);
    let o = ludus(&["wibold", "strategies", "--games", "200", "--lineup", "random,complement", "--scoring", "pairs"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("every player is greedy"));
}

#[test]
fn figures_are_written_whole() {
    let dir = scratch("plots");
    let svg = dir.join("length.svg");
    let o = ludus(&["wibold", "simulate", "--games", "300", "--plot", svg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("exact") && text.contains("virtues owned"));
    let png = dir.join("both.PNG");
    let o = ludus(&["wibold", "analyse", "--plot", png.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = scratch("bad");
    // A directory where the figure should go: the final rename must fail.
    let blocked = dir.join("taken.svg");
    std::fs::create_dir(&blocked).unwrap();
    let blocked = blocked.to_str().unwrap().to_string();
    let cases: &[(&[&str], &str)] = &[
        (&["wibold", "simulate", "--players", "1"], "2 to 8 players"),
        (&["wibold", "simulate", "--players", "9"], "2 to 8 players"),
        (&["wibold", "play", "--players", "0"], "2 to 8 players"),
        (&["wibold", "simulate", "--games", "0"], "at least 1"),
        (&["wibold", "simulate", "--threads", "0", "--games", "5"], "not a thread count"),
        (&["wibold", "simulate", "--rules", "short"], "[possible values: full, simplified]"),
        (&["wibold", "simulate", "--games", "5", "--plot", "figure.jpg"], ".svg or .png"),
        (&["wibold", "analyse", "--plot", "/no/such/dir/f.svg"], "does not exist"),
        (&["wibold", "simulate", "--games", "5", "--plot", &blocked], "cannot write"),
        (&["wibold", "strategies", "--lineup", "random,lazy"], "invalid value 'lazy' for '--lineup"),
        (&["wibold", "strategies", "--lineup", "random"], "2 to 8"),
        (&["wibold", "strategies", "--games", "0"], "at least 1"),
        (&["wibold", "strategies", "--scoring", "double"], "[possible values: virtues, pairs]"),
        (&["wibold", "simulate", "--games", "many"], "invalid value"),
        (&["wibold", "frobnicate"], "unrecognized subcommand"),
    ];
    for (args, want) in cases {
        let o = ludus(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left behind");
}

/// `wibold play --json`: the rolls, each player's virtues and the verdicts;
/// every one of the 56 virtues acquired once.
#[test]
fn play_json_lists_the_rolls_and_the_end() {
    for rules in ["full", "simplified"] {
        let o = ludus(&["wibold", "play", "--rules", rules, "--players", "3", "--json"]);
        assert!(o.status.success(), "{rules}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let rolls = v["rolls"].as_array().unwrap();
        assert_eq!(rolls.len() as u64, v["total_rolls"].as_u64().unwrap(), "{rules}");
        let acquired: usize = rolls.iter().map(|r| r["acquired"].as_array().unwrap().len()).sum();
        assert_eq!(acquired, 56, "{rules}");
        let held: usize = v["seats"].as_array().unwrap().iter().map(|s| s["virtues"].as_array().unwrap().len()).sum();
        assert_eq!(held, 56, "{rules}");
        assert!(!v["verdict"]["winners"].as_array().unwrap().is_empty(), "{rules}");
        let o = ludus(&["wibold", "play", "--rules", rules, "--players", "3", "--json", "--acquisitions"]);
        let w: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(w["rolls"].as_array().unwrap().iter().all(|r| !r["acquired"].as_array().unwrap().is_empty()));
    }
}
