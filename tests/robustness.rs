//! The command line under abuse: impossible sizes, closed pipes, endless
//! files, edited records, tiny samples, wrong extensions and sloppy input
//! are refused or handled with a message and exit code 2, never a panic,
//! an abort or unbounded work.

mod common;
use common::{ludus, stderr, stdout, temp};

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn refused(args: &[&str], want: &str) {
    let o = ludus(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn an_impossible_table_size_is_an_error_not_an_abort() {
    // 1 TiB: more than any test machine has free.
    refused(&["rithmo", "analyse", "--hash", "1048576", "--depth", "3"], "--hash 1048576 needs 1.0 TiB, but only");
    refused(&["rithmo", "analyse", "--hash", "1048577", "--depth", "3"], "from 1 to");
    refused(&["rithmo", "play", "--hash", "1048576"], "memory");
    refused(&["arena", "--game", "rithmo", "--a", "alphabeta:depth=1", "--b", "random", "--hash", "1048576"], "memory");
}

#[test]
fn movetime_counts_from_the_command() {
    // A large table is set up within the time asked for.
    let t = Instant::now();
    let o = ludus(&["rithmo", "analyse", "--hash", "2048", "--movetime", "300", "--json"]);
    let took = t.elapsed();
    assert!(o.status.success(), "{}", stderr(&o));
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert!(last["seconds"].as_f64().unwrap() <= 0.35, "{last}");
    // Generous: start-up of the process and the machine's load aside.
    assert!(took < Duration::from_millis(2500), "{took:?}");
}

/// Runs `args`, reads `lines` lines of its output, closes the pipe and
/// returns the exit status and standard error.
fn closed_early(args: &[&str], lines: usize) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut l = String::new();
        out.read_line(&mut l).unwrap();
    }
    drop(out);
    let o = child.wait_with_output().unwrap();
    (o.status, String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn a_reader_that_stops_early_ends_the_program_quietly() {
    for args in [
        &["rota", "solve"][..],
        &["rithmo", "perft", "3", "--divide"],
        &["merels", "probe", "three:......... x 3 3", "--dice", "none", "--no-db"],
        &["wibold", "table"],
    ] {
        let (status, err) = closed_early(args, 1);
        assert!(!err.contains("panicked") && err.is_empty(), "{args:?}: {err}");
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert!(status.success() || status.signal() == Some(13), "{args:?}: {status:?}");
        }
        assert_ne!(status.code(), Some(101), "{args:?}");
    }
}

#[test]
fn a_probe_refuses_a_large_solve_and_names_the_command() {
    let db = temp("probe", "empty-db");
    let o = ludus(&[
        "merels",
        "probe",
        "nine:........................ x 9 9",
        "--dice",
        "none",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("ludus merels solve --board nine --dice none") && err.contains("--solve"), "{err}");
    let o = ludus(&["merels", "probe", "six:................ x 6 6", "--db", db.to_str().unwrap()]);
    assert!(stderr(&o).contains("ludus merels solve --board six --dice schaedler"), "{}", stderr(&o));
    assert!(!db.exists(), "a refused probe wrote a database");
}

#[test]
fn a_probe_needs_only_what_play_reaches_from_its_position() {
    // 3 v 4 under chance reaches its own group and 3 v 3, nothing else of
    // the seven men's sectors: the probe names the two groups, in order.
    let db = temp("probe", "reach-db");
    let d = db.to_str().unwrap();
    let three_four = "nine:x..o.....x....o..x...o.o x 0 0";
    let o = ludus(&["merels", "probe", three_four, "--db", d]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    let groups: Vec<&str> = err.lines().filter_map(|l| l.split("--group ").nth(1)).collect();
    assert_eq!(groups, ["3-0-3-0", "3-0-4-0"], "{err}");
    assert!(!err.contains("--max-men"), "{err}");
    // Solved as named, the first group is enough for a 3 v 3 position.
    let o = ludus(&["merels", "solve", "--board", "nine", "--db", d, "--group", "3-0-3-0", "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["merels", "probe", "nine:x..o.....x....o..x...o.. x 0 0", "--db", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["merels", "probe", three_four, "--db", d]);
    let err = stderr(&o);
    let groups: Vec<&str> = err.lines().filter_map(|l| l.split("--group ").nth(1)).collect();
    assert_eq!(groups, ["3-0-4-0"], "{err}");
    std::fs::remove_dir_all(&db).ok();
}

#[test]
fn a_probe_of_a_damaged_database_says_which_file_and_how_to_mend_it() {
    // A finished database is read around the position only; a damaged file
    // there is named with the command that solves it again, and after that
    // command the probe answers.
    let db = temp("probe", "damaged-db");
    let d = db.to_str().unwrap();
    let o = ludus(&["merels", "solve", "--board", "six", "--dice", "none", "--db", d, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = db.join("six_none").join("3-0-3-0.sec");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let at = "six:x..o..x..o..x.o. x 0 0";
    let o = ludus(&["merels", "probe", "--dice", "none", "--db", d, at]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("3-0-3-0.sec") && err.contains("damaged") && err.contains("ludus merels solve"), "{err}");
    let o = ludus(&["merels", "solve", "--board", "six", "--dice", "none", "--db", d, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["merels", "probe", "--dice", "none", "--db", d, at, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["moves"].as_array().is_some_and(|m| !m.is_empty()), "{v}");
    std::fs::remove_dir_all(&db).ok();
}

#[test]
fn a_long_solve_reports_progress_without_a_terminal() {
    // Six men's morris without dice takes some seconds: progress lines come
    // on standard error, which is a pipe here (every 100 ms for the test).
    let o = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["merels", "probe", "six:................ x 6 6", "--dice", "none", "--no-db", "--solve"])
        .env("LUDUS_PROGRESS_MS", "100")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.lines().any(|l| l.contains('%') && l.contains("after")), "no progress line:\n{err}");
    // Each line says where the whole run stands.
    assert!(err.lines().any(|l| l.contains("% of indices") && l.contains("after")), "no standing:\n{err}");
    let quiet = ludus(&["merels", "probe", "six:................ x 6 6", "--dice", "none", "--no-db", "--solve", "-q"]);
    assert!(stderr(&quiet).is_empty(), "{}", stderr(&quiet));
}

#[test]
fn replay_reads_endless_files_with_a_bound() {
    #[cfg(unix)]
    refused(&["replay", "/dev/zero"], "longer than");
    let path = temp("replay-bound", "long.jsonl");
    std::fs::write(&path, vec![b'x'; 5 << 20]).unwrap();
    refused(&["replay", path.to_str().unwrap()], "longer than");
}

/// A record of `game` played by a greedy and a random bot, as lines of JSON.
fn record(tag: &str, game: &[&str]) -> (std::path::PathBuf, Vec<serde_json::Value>) {
    let path = temp(tag, "match.jsonl");
    let mut args = vec!["arena"];
    args.extend_from_slice(game);
    args.extend_from_slice(&[
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "-q",
        "--record",
        path.to_str().unwrap(),
    ]);
    let o = ludus(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text.lines().map(|l| serde_json::from_str(l).unwrap()).collect())
}

fn rewrite(path: &std::path::Path, games: &[serde_json::Value]) {
    let text: String = games.iter().map(|g| format!("{g}\n")).collect();
    std::fs::write(path, text).unwrap();
}

#[test]
fn replay_recomputes_the_result_from_the_moves() {
    for game in [
        &["--game", "rithmo", "--max-plies", "400"][..],
        &["--game", "merels", "--board", "three"],
        &["--game", "merels", "--board", "three", "--dice", "murray"],
        &["--game", "rota"],
    ] {
        // Greedy wins at Rithmomachia against random well within 400 plies.
        let (path, games) = record("replay-result", game);
        let p = path.to_str().unwrap();
        let o = ludus(&["replay", p]);
        assert!(o.status.success(), "{}", stderr(&o));
        let decided = games.iter().position(|g| g["winner"].is_string()).expect("a decided game");
        let k = decided.to_string();
        // Cut short: the game is not over.
        let mut cut = games.clone();
        let moves = cut[decided]["moves"].as_array().unwrap().clone();
        cut[decided]["moves"] = serde_json::json!(moves[..moves.len() / 2]);
        cut[decided]["plies"] = serde_json::json!(moves.len() / 2);
        rewrite(&path, &cut);
        refused(&["replay", p, "--index", &k], "give unfinished (the game is not over and no ply limit is recorded)");
        // The result or the winner edited.
        let mut edited = games.clone();
        let other = if edited[decided]["result"] == "first" { "second" } else { "first" };
        edited[decided]["result"] = serde_json::json!(other);
        rewrite(&path, &edited);
        refused(&["replay", p, "--index", &k], "the record says");
        let mut edited = games.clone();
        let w = if edited[decided]["winner"] == "a" { "b" } else { "a" };
        edited[decided]["winner"] = serde_json::json!(w);
        rewrite(&path, &edited);
        refused(&["replay", p, "--index", &k], "does not agree");
    }
}

#[test]
fn tiny_samples_give_no_verdict() {
    for games in ["1", "10"] {
        let o = ludus(&["wibold", "simulate", "--games", games, "--players", "2"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        for wrong in ["NaN", "departs from", "agrees with", "disadvantage", "has an edge", "0 degrees"] {
            assert!(!text.contains(wrong), "--games {games}: '{wrong}' in\n{text}");
        }
        assert!(text.contains("too few"), "{text}");
        // The JSON says so too: no p-value that would read as a verdict.
        let o = ludus(&["wibold", "simulate", "--games", games, "--players", "2", "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let fit = &v["length"]["fit"];
        assert_eq!(fit["testable"], false, "{fit}");
        assert!(fit["ks_p_value"].is_null() && fit["chi_square_p_value"].is_null(), "{fit}");
    }
    let o = ludus(&["wibold", "simulate", "--games", "2000", "--players", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let fit = &v["length"]["fit"];
    assert_eq!(fit["testable"], true, "{fit}");
    assert!(fit["ks_p_value"].is_number() && fit["chi_square_p_value"].is_number(), "{fit}");
    let o = ludus(&["arena", "--game", "rota", "--a", "random", "--b", "random", "--games", "1"]);
    let text = stdout(&o);
    assert!(o.status.success() && !text.contains("NaN") && !text.contains("± 0.0000"), "{text}");
    assert!(text.contains("too few"), "{text}");
}

#[test]
fn pictures_go_to_files_of_their_format() {
    let png = temp("svg-ext", "board.png");
    refused(&["rithmo", "show", "--svg", png.to_str().unwrap()], ".svg");
    assert!(!png.exists());
}

#[test]
fn sloppy_input_is_refused() {
    refused(&["merels", "show", "six:................ x 6 6", "--dice", "none", "--play", "a1,,d1"], "empty action");
    refused(&["merels", "show", "six:................ x 6 6", "--dice", "none", "--play", ",,,"], "empty action");
    refused(&["merels", "show", "six:................ x 6 6", "--dice", "none", "--play", ""], "empty action");
    refused(&["rota", "show", "rota:......... x 3 3", "--play", "c,,n"], "empty action");
    refused(&["rithmo", "show", "--play", "d4-d5,,"], "empty move");
    refused(&["rithmo", "analyse", "--victory", "body:0"], "from 1 up");
    for m in ["0", "NaN", "-1", "inf"] {
        for cmd in ["solve", "plan", "verify"] {
            refused(&["merels", cmd, "--board", "three", &format!("--memory={m}")], "--memory");
        }
    }
    refused(&["arena", "--game", "rota", "--a", "random", "--b", "random", "--threads", "100000"], "thread count");
    refused(&["wibold", "simulate", "--threads", "0"], "thread count");
}

#[test]
fn messages_cut_long_input_and_escape_control_characters() {
    let long = "q".repeat(60_000);
    let o = ludus(&["rithmo", "show", "--play", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stderr.len() < 1000, "{} bytes of error", o.stderr.len());
    let o = ludus(&["rithmo", "show", "--play", "\u{1b}[2Jc4-c5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!o.stderr.contains(&0x1b), "{}", stderr(&o));
    let o = ludus(&["rota", "solve", "--blocked", "\u{1b}[31mred"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!o.stderr.contains(&0x1b), "{}", stderr(&o));
}

#[test]
fn arena_memory_does_not_grow_with_the_match() {
    // Summaries are counted game by game: a long match of quick games runs
    // in the memory of a short one (measured by the kernel, in KiB).
    let peak = |games: &str| -> u64 {
        let o = Command::new("/usr/bin/time")
            .args(["-f", "%M", env!("CARGO_BIN_EXE_ludus"), "arena", "--game", "rota", "--a", "random"])
            .args(["--b", "random", "--games", games, "-q", "--threads", "1"])
            .output();
        let Ok(o) = o else { return 0 };
        String::from_utf8_lossy(&o.stderr).lines().last().and_then(|l| l.trim().parse().ok()).unwrap_or(0)
    };
    let (small, large) = (peak("2000"), peak("200000"));
    if small == 0 || large == 0 {
        eprintln!("no /usr/bin/time here: skipped");
        return;
    }
    // 200,000 games kept at 1.8 KB each would be 350 MB.
    assert!(large < small + 20_000, "{small} KiB for 2000 games, {large} KiB for 200000");
}

/// Games cut by the ply limit replay as draws in every game, with dice and
/// without; a record file that lacks the game says which it has.
#[test]
fn replay_takes_draws_by_the_ply_limit() {
    for game in [
        &["--game", "rota", "--max-plies", "4"][..],
        &["--game", "merels", "--board", "six", "--dice", "none", "--max-plies", "5"],
        &["--game", "merels", "--board", "three", "--max-plies", "3"],
        &["--game", "rithmo", "--max-plies", "6"],
    ] {
        let (path, games) = record("replay-limit", game);
        let p = path.to_str().unwrap();
        for g in &games {
            assert_eq!(g["ply_limit"], true, "{game:?}: {g}");
            let k = g["index"].to_string();
            let o = ludus(&["replay", p, "--index", &k]);
            assert!(o.status.success(), "{game:?} game {k}: {}", stderr(&o));
            assert!(stdout(&o).contains("drawn by the ply limit"), "{game:?}: {}", stdout(&o));
        }
        // A limit the moves do not reach: the game was not cut there.
        let mut longer = games.clone();
        let most = longer[0]["max_plies"].as_u64().expect("the record's ply limit");
        longer[0]["max_plies"] = serde_json::json!(most + 1);
        rewrite(&path, &longer);
        refused(&["replay", p], "do not fit its ply limit");
        longer[0]["max_plies"] = serde_json::json!("6x");
        rewrite(&path, &longer);
        refused(&["replay", p], "is not a number of plies");
        // Only game 1 left in the file.
        rewrite(&path, &games[1..2]);
        refused(&["replay", p], "has no game 0 (1 game recorded: game 1)");
    }
    let dir = temp("replay-limit", "dir");
    std::fs::create_dir_all(&dir).unwrap();
    refused(&["replay", dir.to_str().unwrap()], &format!("cannot read {}", dir.display()));
}

/// Output that cannot be written is reported, with exit code 2, not a
/// panic.
#[test]
fn a_full_output_is_an_error_not_a_crash() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    for args in
        [&["rithmo", "perft", "2", "--divide"][..], &["wibold", "table", "--json"], &["rota", "solve"], &["--help"]]
    {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot write the output") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A record sent to standard output (by its name or through a link to it)
/// goes after what the program has written there, whatever file standard
/// output is; the file stays the one the shell opened.
#[test]
fn a_record_to_standard_output_joins_it() {
    let dir = temp("stdout-record", "dir");
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("out.jsonl");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    for target in [std::path::PathBuf::from("/dev/stdout"), link] {
        let file = dir.join("captured.txt");
        std::fs::write(&file, "BEFORE\n").unwrap();
        let out = std::fs::OpenOptions::new().append(true).open(&file).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["arena", "--game", "rota", "--a", "random", "--b", "random", "--games", "3", "-q", "--record"])
            .arg(&target)
            .stdout(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{target:?}: {}", stderr(&o));
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("BEFORE\n"), "{target:?}: {text}");
        assert_eq!(text.lines().filter(|l| l.starts_with("{\"a\"")).count(), 3, "{target:?}: {text}");
        assert!(text.contains("Arena: rota"), "{target:?}: {text}");
    }
}

/// The `.sec` files under `dir`, by name, with their bytes.
fn sector_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let sub =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_dir()).expect("rules' directory");
    let mut v: Vec<_> = std::fs::read_dir(sub)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sec"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[cfg(unix)]
#[test]
fn a_terminated_solve_saves_and_the_same_command_resumes_it() {
    let (dir, whole) = (temp("signal", "db"), temp("signal", "whole"));
    let args = |d: &std::path::Path| -> Vec<String> {
        ["merels", "solve", "--board", "six", "--dice", "schaedler", "--max-men", "9", "--json", "--db"]
            .iter()
            .map(|s| s.to_string())
            .chain([d.to_string_lossy().into_owned()])
            .collect()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args(&dir))
        .env("LUDUS_PROGRESS_MS", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    // A signal as the first group under chance iterates.
    loop {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
        if line.contains("strategy iteration (rounds)") {
            let pid = child.id().to_string();
            assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
            break;
        }
    }
    std::io::Read::read_to_string(&mut err, &mut seen).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{seen}");
    assert!(seen.contains("asked to stop (SIGTERM)"), "{seen}");
    assert!(seen.contains("stopped before the end of group") && seen.contains("the same command resumes"), "{seen}");
    let left: Vec<_> = std::fs::read_dir(dir.join("six_schaedler")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!left.iter().any(|n| n.to_string_lossy().ends_with(".lock")), "{left:?}");
    let strs = |v: &[String]| v.iter().map(String::as_str).collect::<Vec<_>>().join(" ");
    for d in [&dir, &whole] {
        let a = args(d);
        let o = ludus(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}: {}", strs(&a), stderr(&o));
    }
    assert_eq!(sector_files(&dir), sector_files(&whole));
}
