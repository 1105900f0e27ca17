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
        (&["merels", "solve", "--board", "six", "--dice", "none", "--max-men", "0"], "must be at least 6"),
        (&["merels", "plan", "--board", "six", "--dice", "none", "--max-men", "5"], "must be at least 6"),
        (&["merels", "verify", "--board", "six", "--dice", "none", "--max-men", "1"], "must be at least 6"),
        (&["merels", "show", "six:x............... x 5 6"], "one man a turn"),
        (&["merels", "probe", "--no-db", "--dice", "none", "three:x........ x 2 3"], "one man a turn"),
        (&["merels", "probe", "--dice", "none", "six:xxx............. o 3 6"], "one man a turn"),
        (
            &["merels", "solve", "--board", "three", "--dice", "none", "--special-72", "7"],
            "--special-72 7: without dice (--dice none) there is no special throw",
        ),
        (
            &["merels", "solve", "--board", "three", "--dice", "bell", "--double-mill-one"],
            "--double-mill-one: on the three",
        ),
        (&["merels", "solve", "--board", "rota", "--dice", "none", "--no-take-from-mills"], "no man is ever taken"),
        (&["merels", "solve", "--board", "six", "--dice", "none", "--db", "Cargo.toml"], "is a file, not a directory"),
        (&["merels", "verify", "--board", "six", "--dice", "none", "--db", "Cargo.toml"], "is a file, not a directory"),
        (&["merels", "solve", "--board", "six", "--dice", "none", "--db", ""], "an empty path"),
        (&["serve", "--db", " "], "an empty path"),
        (&["merels", "solve", "--board", "six", "--dice", "none", "--no-db", "--db", "x"], "cannot be used with"),
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

/// A check certifies only a database it could check whole: a sector file
/// missing under others that read it leaves them unchecked, exit 1 and no
/// `MANIFEST`; a value missing from a file with a valid checksum is a
/// damaged file to `probe`, not a move left out.
#[test]
fn merels_verify_and_probe_refuse_an_incomplete_or_damaged_database() {
    let db = common::temp("cli", "incomplete");
    let d = db.to_str().unwrap();
    let o = ludus(&["merels", "solve", "--board", "six", "--dice", "none", "--db", d, "-q", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The projection of the disk a whole solve takes is what its files take.
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let on_disk = v["bytes_on_disk"].as_u64().unwrap();
    assert!(on_disk > 0 && v["projection"]["bytes_total_estimate"].as_u64().unwrap().abs_diff(on_disk) <= 1, "{v}");
    let dir = db.join("six_none");
    let verify = ["merels", "verify", "--board", "six", "--dice", "none", "--db", d, "-q", "--manifest"];
    let o = ludus(&verify);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(dir.join("MANIFEST").exists());
    std::fs::remove_file(dir.join("MANIFEST")).unwrap();

    // A value removed where a position is, the checksum made valid again.
    use engine::merels::{BoardKind, Dice, Rules};
    use solver::merels::{Sector, Silent, Solution, SolveOptions, Table, Values, value::UNUSED};
    let rules = Rules::new(BoardKind::Six, Dice::None);
    let sol = Solution::solve_with(rules, &SolveOptions { db: Some(db.clone()), ..SolveOptions::default() }, &Silent)
        .unwrap();
    let s = Sector { w: 3, wf: 0, b: 3, bf: 0 };
    let t = sol.table(s).unwrap();
    let Values::Dtm(v) = &t.values else { panic!("values without chance") };
    let i = (0..t.indexer.size()).find(|&i| t.at(i).is_some() && !rules.lost(&t.indexer.state(i))).unwrap();
    let st = t.indexer.state(i);
    let mut v = v.clone();
    v[i as usize] = UNUSED;
    let original = std::fs::read(dir.join("3-0-3-0.sec")).unwrap();
    sol.database().unwrap().store(&Table::new(t.indexer.clone(), Values::Dtm(v), t.meta)).unwrap();
    let pos = engine::merels::Position::from_state(BoardKind::Six, engine::merels::Side::X, st).to_string();
    let o = ludus(&["merels", "probe", "--dice", "none", "--db", d, &pos]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("the file is damaged"), "{}", stderr(&o));
    let arena = ["arena", "--game", "merels", "--board", "six", "--dice", "none", "--a", "perfect", "--b", "random"];
    let o = ludus(&[&arena[..], &["--games", "2", "--db", d, "-q"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("the file is damaged") && !stderr(&o).contains("panicked"), "{}", stderr(&o));
    let o = ludus(&verify);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("this is a position of the sector"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    std::fs::write(dir.join("3-0-3-0.sec"), original).unwrap();

    // A sector file missing: the sectors that read it cannot be checked.
    std::fs::remove_file(dir.join("3-0-3-0.sec")).unwrap();
    let o = ludus(&verify);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("NOT CHECKED"), "{}", stdout(&o));
    assert!(stderr(&o).contains("no manifest written"), "{}", stderr(&o));
    assert!(!dir.join("MANIFEST").exists());
    std::fs::remove_dir_all(&db).ok();
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
