//! The `ludus` binary end to end: reports, JSON for scripts, and bad input
//! refused with a message and exit code 2.

mod common;
use common::{ludus, stderr, stdout};

#[test]
fn help_lists_every_subcommand() {
    let o = ludus(&["--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for cmd in ["rota", "merels", "rithmo", "wibold", "arena"] {
        assert!(text.contains(cmd), "{cmd} missing from help:\n{text}");
    }
}

#[test]
fn rota_solve_json_has_the_documented_keys() {
    let o = ludus(&["rota", "solve", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let outcome = v["outcome"].as_str().unwrap();
    let value = v["value"].as_f64().unwrap();
    assert_eq!(value, [1.0, 0.0, -1.0][["win", "draw", "loss"].iter().position(|w| *w == outcome).unwrap()]);
    for counts in [&v["classes"], &v["positions"]] {
        for key in ["wins", "draws", "losses"] {
            assert!(counts[key].is_u64(), "{key} missing in {counts}");
        }
    }
    let firsts = v["first_moves"].as_array().unwrap();
    assert_eq!(firsts.len(), 9);
    for m in firsts {
        assert!(m["point"].is_string() && m["value"].is_number() && m["outcome"].is_string());
        assert!(m.get("plies").is_some());
    }
    for key in ["random_vs_random", "perfect_vs_random", "random_vs_perfect"] {
        let p = v[key].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{key} = {p}");
    }
}

#[test]
fn rota_solve_prints_a_verdict_on_the_seed() {
    let o = ludus(&["rota", "solve"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("sure path to victory"));
}

#[test]
fn rota_probe_and_show() {
    let o = ludus(&["rota", "probe", "rota:xo.x.ox.o", "x", "0", "0", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["value"], 1.0);
    assert_eq!(v["plies"], 1);
    let best = v["moves"][0]["move"].as_str().unwrap();
    assert!(best == "e-ne" || best == "sw-w", "{best}");
    let o = ludus(&["rota", "show", "rota:......... x 3 3", "--play", "c,n"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("rota:xo....... x 2 2"), "{text}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["rota", "probe", "rota:....x x 3 3"], "has 9 points"),
        (&["rota", "probe", "rota:xxo..xo.o x 0 0"], "already has a line"),
        (&["rota", "show", "rota:......... x 3 3", "--play", "q"], "not a point"),
        (&["rota", "show", "rota:......... x 3 3", "--play", "c,c"], "not legal"),
        (&["rota", "solve", "--blocked", "sometimes"], "invalid value"),
        (&["rota", "frobnicate"], "unrecognized subcommand"),
        (&["merels", "solve"], "required arguments"),
        (&["merels", "solve", "--board", "hex"], "invalid value 'hex' for '--board"),
        (
            &["merels", "solve", "--board", "six", "--dice", "loaded"],
            "[possible values: none, schaedler, murray, bell]",
        ),
        (&["merels", "solve", "--board", "six", "--diagonals"], "diagonals are an option of the three board"),
        (&["merels", "probe", "six:................", "x", "6", "6", "--play", "a1,a1"], "not legal"),
        (&["arena", "--help-me"], "unexpected argument"),
        (&["arena"], "required arguments"),
    ];
    for (args, want) in cases {
        let o = ludus(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// A solve's projection counts its totals and its solved part in the same
/// units: groups, and indices (positions are known only once solved).
#[test]
fn merels_solve_projection_counts_like_with_like() {
    for (args, complete) in [
        (&["--board", "three", "--dice", "none"][..], true),
        (&["--board", "six", "--dice", "none", "--max-men", "7"][..], false),
    ] {
        let mut all = vec!["merels", "solve", "--no-db", "--json", "-q"];
        all.extend_from_slice(args);
        let o = ludus(&all);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let p = &v["projection"];
        let sum = |key: &str| v["sectors"].as_array().unwrap().iter().map(|s| s[key].as_u64().unwrap()).sum::<u64>();
        assert_eq!(v["complete"], complete, "{args:?}");
        assert_eq!(p["indices_solved"].as_u64(), Some(sum("indices")), "{args:?}: {p}");
        assert_eq!(p["positions_solved"].as_u64(), Some(sum("positions")), "{args:?}: {p}");
        assert_eq!(p["positions_solved"], v["positions"], "{args:?}");
        let (solved, total) = (p["indices_solved"].as_u64().unwrap(), p["indices_total"].as_u64().unwrap());
        assert_eq!(solved == total, complete, "{args:?}: {p}");
        assert!(solved > 0 && p["positions_solved"].as_u64() < Some(solved), "{args:?}: {p}");
        assert!(solved <= total && p["groups_solved"].as_u64() <= p["groups_total"].as_u64(), "{p}");
        assert!(p.get("positions_total").is_none(), "{p}");
    }
}

#[test]
fn merels_chances_whose_layers_do_not_fit_in_memory_come_from_the_whole_chain() {
    // Solved once; then, every group read from the database, the layers of
    // the chances of perfect play are given 1 KiB: on a board whose tables
    // all stay in memory the whole chain gives the same chances (on nine
    // the report would have none), and the message says which.
    let db = common::temp("cli", "chances-memory");
    let d = db.to_str().unwrap();
    let args = ["merels", "solve", "--board", "six", "--dice", "bell", "--db", d, "--quiet", "--json"];
    let o = ludus(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let full: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let o = ludus(&[&args[..], &["--memory", "0.000001"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("need more than the 1.0 KiB allowed (--memory)"), "{err}");
    assert!(err.contains("the chances come from the whole chain of play instead"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["start"]["value"], full["start"]["value"]);
    // The chances are there, so nothing is missing.
    assert!(v["start"]["p_missing"].is_null() && full["start"]["p_missing"].is_null(), "{v}");
    for p in ["p_win", "p_draw", "p_loss"] {
        let (a, b) = (v["start"][p].as_f64().unwrap(), full["start"][p].as_f64().unwrap());
        assert!((a - b).abs() < 1e-9, "{p}: {a} from the chain, {b} by layers");
    }
    let _ = std::fs::remove_dir_all(db);
}
