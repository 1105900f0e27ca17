//! The Snakemake workflow (`workflow/Snakefile`): six men's morris under
//! every reading, solved one sector group per job with two jobs at once,
//! writes exactly the files of one `ludus merels solve`, and its target
//! `verify` certifies them and writes the same manifest as `ludus merels
//! verify --manifest`; `workflow/whole-board.sh` solves and certifies every
//! reading of a board in turn.
//!
//! Snakemake is found through `LUDUS_SNAKEMAKE` (a path) or on the PATH;
//! `.ci/run` installs it from PyPI into a virtual environment and sets
//! `LUDUS_REQUIRE_SNAKEMAKE`, which turns its absence into a failure.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ludus, stderr, temp};

fn snakemake() -> Option<PathBuf> {
    let candidate = std::env::var_os("LUDUS_SNAKEMAKE").map(PathBuf::from).unwrap_or_else(|| "snakemake".into());
    let works = Command::new(&candidate).arg("--version").output().is_ok_and(|o| o.status.success());
    works.then_some(candidate)
}

/// The sector files of one rule set's directory, by name.
fn sector_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "sec"))
        .map(|f| (f.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&f).unwrap()))
        .collect()
}

#[test]
fn the_workflow_writes_the_files_of_one_solve_without_dice() {
    check("none");
}

#[test]
fn the_workflow_writes_the_files_of_one_solve_under_murray() {
    check("murray");
}

#[test]
fn the_workflow_writes_the_files_of_one_solve_under_bell() {
    check("bell");
}

#[test]
fn the_workflow_writes_the_files_of_one_solve_under_schaedler() {
    check("schaedler");
}

/// Snakemake, or `None` (the test is skipped) where it is not required.
fn snakemake_or_skip() -> Option<PathBuf> {
    let found = snakemake();
    if found.is_none() {
        assert!(
            std::env::var_os("LUDUS_REQUIRE_SNAKEMAKE").is_none(),
            "Snakemake is required (LUDUS_REQUIRE_SNAKEMAKE) but neither LUDUS_SNAKEMAKE nor `snakemake` runs"
        );
        eprintln!("Snakemake not found (set LUDUS_SNAKEMAKE or put it on the PATH): the workflow test is skipped");
    }
    found
}

/// Runs the workflow with `cores` jobs at once in `flow` (its database in
/// `flow/db`, this build's binary) and the further `config` entries, to its
/// default target or to `target`.
fn run_workflow(
    snakemake: &Path,
    flow: &Path,
    cores: u32,
    config: &[String],
    target: Option<&str>,
) -> std::process::Output {
    let snakefile = Path::new(env!("CARGO_MANIFEST_DIR")).join("workflow/Snakefile");
    Command::new(snakemake)
        .arg("-s")
        .arg(&snakefile)
        .args(["--cores", &cores.to_string(), "--directory"])
        .arg(flow)
        .arg("--config")
        .args(config)
        .arg(format!("db={}", flow.join("db").display()))
        .arg(format!("ludus={}", env!("CARGO_BIN_EXE_ludus")))
        .args(target.map(|t| ["--", t]).into_iter().flatten())
        .output()
        .expect("run snakemake")
}

/// The memory a job may use reaches its solve: a group whose estimate is
/// larger is refused with that estimate, nothing is written, and the
/// workflow fails.
#[test]
fn a_group_beyond_the_memory_a_job_may_use_is_refused() {
    let Some(snakemake) = snakemake_or_skip() else { return };
    let flow = temp("workflow", "memory");
    let config = ["board=three", "dice=schaedler", "memory=0.00001"].map(String::from);
    let o = run_workflow(&snakemake, &flow, 1, &config, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "three/schaedler ran within 0.00001 GiB: {err}");
    assert!(err.contains("allowed (--memory)"), "no refusal in: {err}");
    let dir = flow.join("db").join("three_schaedler");
    assert!(!dir.exists() || sector_files(&dir).is_empty(), "a refused group wrote files");
    let _ = fs::remove_dir_all(flow);
}

/// Every job asks for the memory the plan estimates (`mem_mb`): a group's
/// solve its `memory`, the check the plan's `verify_memory`, each with 512
/// MiB to spare (read from a dry run on nine under Schädler's dice up to 8
/// men, whose groups need gigabytes).
#[test]
fn every_job_asks_for_the_memory_the_plan_estimates() {
    let Some(snakemake) = snakemake_or_skip() else { return };
    let flow = temp("workflow", "dry-run");
    let config = ["board=nine", "dice=schaedler", "max_men=8"].map(String::from);
    let snakefile = Path::new(env!("CARGO_MANIFEST_DIR")).join("workflow/Snakefile");
    let o = Command::new(&snakemake)
        .arg("-s")
        .arg(&snakefile)
        .args(["--dry-run", "--cores", "2", "--directory"])
        .arg(&flow)
        .arg("--config")
        .args(&config)
        .arg(format!("db={}", flow.join("db").display()))
        .arg(format!("ludus={}", env!("CARGO_BIN_EXE_ludus")))
        .args(["--", "verify"])
        .output()
        .expect("run snakemake");
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}");
    // Each job of the dry run: its rule, its key (groups) and its mem_mb.
    let mut asked: BTreeMap<String, u64> = BTreeMap::new();
    for job in out.split("\nrule ").skip(1) {
        let rule = job.split(':').next().unwrap().trim();
        let after = |tag: &str| job.lines().find_map(|l| l.split_once(tag).map(|(_, v)| v.split(',').next().unwrap()));
        let Some(mem) = after("mem_mb=") else { continue };
        let key = after("wildcards: key=").unwrap_or(rule);
        asked.insert(key.trim().to_string(), mem.trim().parse().unwrap());
    }
    let o = ludus(&["merels", "plan", "--board", "nine", "--dice", "schaedler", "--max-men", "8", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let plan: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mib = |bytes: &serde_json::Value| bytes.as_u64().unwrap() / (1 << 20) + 512;
    for g in plan["groups"].as_array().unwrap() {
        let key = g["key"].as_str().unwrap();
        assert_eq!(asked.get(key), Some(&mib(&g["memory"])), "group {key}: {asked:?}");
    }
    assert!(plan["verify_memory"].as_u64().unwrap() > 1 << 20);
    assert_eq!(asked.get("verify"), Some(&mib(&plan["verify_memory"])), "{asked:?}");
    let _ = fs::remove_dir_all(flow);
}

fn check(dice: &str) {
    let Some(snakemake) = snakemake_or_skip() else { return };
    let one = temp("workflow", &format!("one-{dice}"));
    let flow = temp("workflow", &format!("flow-{dice}"));
    let o =
        ludus(&["merels", "solve", "--board", "six", "--dice", dice, "--db", one.to_str().unwrap(), "-q", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The target `verify`: every group solved, then the database checked
    // and its manifest written.
    let o = run_workflow(&snakemake, &flow, 2, &["board=six".into(), format!("dice={dice}")], Some("verify"));
    assert!(o.status.success(), "snakemake, six/{dice}: {}", String::from_utf8_lossy(&o.stderr));
    let dir = format!("six_{dice}");
    let (a, b) = (sector_files(&one.join(&dir)), sector_files(&flow.join("db").join(&dir)));
    assert!(!a.is_empty());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "six/{dice}: the same files");
    for (name, bytes) in &a {
        assert!(bytes == &b[name], "six/{dice}: {name} differs");
    }
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(flow.join("db").join(&dir).join("report.json")).unwrap()).unwrap();
    assert_eq!(report["complete"], true, "six/{dice}: {report}");
    let verified: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(flow.join("db").join(&dir).join("verify.json")).unwrap()).unwrap();
    assert_eq!(verified["failures"], 0, "six/{dice}: {verified}");
    assert!(verified["positions"].as_u64().unwrap() > 0, "six/{dice}: {verified}");
    // Its manifest is the one `ludus merels verify --manifest` writes for the
    // one-process solve: a line per sector file, the same digests.
    let o = ludus(&[
        "merels",
        "verify",
        "--board",
        "six",
        "--dice",
        dice,
        "--db",
        one.to_str().unwrap(),
        "-q",
        "--manifest",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let manifest = |root: &Path| fs::read_to_string(root.join(&dir).join("MANIFEST")).unwrap();
    let listed = manifest(&one);
    assert_eq!(listed.lines().count(), a.len(), "six/{dice}: {listed}");
    assert_eq!(manifest(&flow.join("db")), listed, "six/{dice}: the manifests differ");
    for d in [one, flow] {
        let _ = fs::remove_dir_all(d);
    }
}

/// `workflow/whole-board.sh` on six men's morris: the five databases solved
/// (Schädler's first, then the modern rules', then the default rules', whose
/// movement sectors Bell's and Murray's take), each certified before the next
/// solve, Bell's and Murray's checks taking the shared movement sectors from
/// the check without dice, `--memory` given to every solve and check (the
/// options in either order); run again, every step is skipped; a step that
/// fails stops the run with its exit code.
#[test]
fn the_whole_board_script_solves_and_certifies_every_reading() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("workflow/whole-board.sh");
    let data = temp("workflow", "whole-board");
    let run = |board: &str| {
        Command::new("sh")
            .arg(&script)
            .args(["--memory", "3"])
            .arg(board)
            .arg(&data)
            .arg(env!("CARGO_BIN_EXE_ludus"))
            .output()
            .expect("run sh")
    };
    let status = |board: &str| {
        let o = Command::new("sh")
            .arg(&script)
            .args(["--memory", "3", "--status", board])
            .arg(&data)
            .arg(env!("CARGO_BIN_EXE_ludus"))
            .output()
            .expect("run sh");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // Before: every step not started, each solve with nothing in its
    // database, and nothing written.
    let before = status("six");
    assert_eq!(before.lines().filter(|l| l.ends_with(": not started")).count(), 10, "{before}");
    assert_eq!(before.matches(" done: 0 of ").count(), 5, "{before}");
    assert!(!data.exists(), "--status wrote {}", data.display());
    let o = run("six");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = status("six");
    assert_eq!(after.lines().filter(|l| l.contains(": done (") && l.contains("ludus 0.")).count(), 10, "{after}");
    assert_eq!(after.lines().count(), 11, "{after}");
    let disk = after.lines().last().unwrap();
    assert!(disk.starts_with("disk: ") && disk.ends_with(" GB free"), "{after}");
    let log = || fs::read_to_string(data.join("runs/log")).unwrap();
    let starts = |text: &str| text.lines().filter(|l| l.contains(" start ")).count();
    assert_eq!(starts(&log()), 10, "{}", log());
    // Each database is checked as soon as it is solved.
    let order: Vec<String> =
        log().lines().filter_map(|l| l.split(" start six-").nth(1)?.split(':').next().map(String::from)).collect();
    let expected: Vec<String> = ["schaedler", "modern", "none", "bell", "murray"]
        .iter()
        .flat_map(|r| [format!("{r}-solve"), format!("{r}-verify")])
        .collect();
    assert_eq!(order, expected, "{}", log());
    let report = |step: &str| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(data.join(format!("runs/six-{step}.json"))).unwrap()).unwrap()
    };
    for reading in ["schaedler", "modern", "none", "bell", "murray"] {
        assert_eq!(report(&format!("{reading}-solve"))["complete"], true, "{reading}");
        let checked = report(&format!("{reading}-verify"));
        assert_eq!(checked["failures"], 0, "{reading}: {checked}");
        let sectors = checked["sectors"].as_array().unwrap();
        let shared = sectors.iter().filter(|s| s["resumed"] == true).count();
        // Only Bell's and Murray's checks take sectors from another journal.
        assert_eq!(shared > 0, reading == "bell" || reading == "murray", "{reading}: {shared} taken");
        let files = checked["manifest"]["files"].as_array().unwrap().len();
        assert_eq!(files, sectors.len(), "{reading}: a manifest line per sector file");
    }
    // Each finished step names what ran it.
    let (digest, _) = solver::merels::manifest::sha256_file(Path::new(env!("CARGO_BIN_EXE_ludus"))).unwrap();
    for step in ["schaedler-solve", "none-solve", "modern-verify"] {
        let done = fs::read_to_string(data.join(format!("runs/six-{step}.done"))).unwrap();
        assert!(done.contains(&format!("sha256: {digest}")) && done.contains("ludus 0."), "{step}: {done}");
        assert!(done.contains("command: ") && done.contains("--board six"), "{step}: {done}");
        assert!(done.contains(" --memory 3"), "{step}: {done}");
    }
    for dir in
        ["six_schaedler", "six_none+flying+no-take-from-mills+double-mill-one", "six_none", "six_bell", "six_murray"]
    {
        assert!(data.join("merels").join(dir).join("MANIFEST").is_file(), "{dir}");
    }
    // Again: nothing to do.
    let o = run("six");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(starts(&log()), 10, "a finished step ran again: {}", log());
    // On three men's morris a line wins and no man is taken: no modern
    // rules' steps.
    let o = run("three");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let three = status("three");
    assert_eq!(three.lines().filter(|l| l.contains(": done (")).count(), 8, "{three}");
    assert!(!three.contains("modern"), "{three}");
    // A board or a binary that is not there, or a bad option: refused
    // before anything runs.
    let refused = |args: &[&str], want: &str| {
        let o = Command::new("sh").arg(&script).args(args).output().expect("run sh");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(want), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    };
    let elsewhere = temp("workflow", "whole-board-refused");
    let d = elsewhere.to_str().unwrap();
    refused(&["seven", d, env!("CARGO_BIN_EXE_ludus")], "no board 'seven'");
    refused(&["--status", "seven", d, env!("CARGO_BIN_EXE_ludus")], "no board 'seven'");
    refused(&["six", d, "/nonexistent/ludus"], "no ludus binary");
    refused(&["--memory", "lots", "six", d, env!("CARGO_BIN_EXE_ludus")], "--memory wants a number of GiB");
    refused(&["--frob", "six", d, env!("CARGO_BIN_EXE_ludus")], "no option '--frob'");
    refused(&["--status", "--stop", "six", d, env!("CARGO_BIN_EXE_ludus")], "--status or --stop, not both");
    refused(&["--memory", "0", "six", d, env!("CARGO_BIN_EXE_ludus")], "above 0, not '0'");
    refused(&["--status", "--memory"], "--memory wants a number of GiB, not ''");
    refused(&["six", d, env!("CARGO_BIN_EXE_ludus"), "--memory", "3"], "usage: ");
    assert!(!elsewhere.exists(), "a refused run wrote {d}");
    // A step that fails stops the run with its exit code, and --status
    // says so (exit 1).
    let failing = temp("workflow", "failing-ludus");
    fs::write(&failing, "#!/bin/sh\nexit 3\n").unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&failing).status().unwrap();
    let o = Command::new("sh").arg(&script).args(["six", d]).arg(&failing).output().expect("run sh");
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("six-schaedler-solve failed (exit 3"));
    let o = Command::new("sh").arg(&script).args(["--status", "six", d]).arg(&failing).output().expect("run sh");
    assert_eq!(o.status.code(), Some(1));
    let failed = String::from_utf8_lossy(&o.stdout);
    assert!(failed.starts_with("six-schaedler-solve: failed (exit 3, see "), "{failed}");
    assert!(failed.contains("six-modern-solve: not started"), "{failed}");
    let _ = fs::remove_dir_all(data);
    let _ = fs::remove_dir_all(elsewhere);
    let _ = fs::remove_file(failing);
}

/// `workflow/whole-board.sh --stop` on a run whose step is busy (a stand-in
/// for ludus that works until SIGTERM, then exits 143 as a solve that saved
/// its progress does): the step gets one SIGTERM, the run ends with its exit
/// code, `--status` shows the step as stopped and resumable rather than
/// failed, and the same command then runs the step again.
#[test]
fn the_whole_board_script_stops_a_running_step_and_resumes_it() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("workflow/whole-board.sh");
    let data = temp("workflow", "whole-board-stop");
    let signals = temp("workflow", "stop-signals");
    let fake = temp("workflow", "stopping-ludus");
    fs::write(
        &fake,
        format!(
            "#!/bin/sh\n\
             [ \"$1\" = --version ] && {{ echo 'ludus 0.0.0'; exit 0; }}\n\
             [ \"$2\" = solve ] || exit 0\n\
             trap 'echo TERM >>{}; exit 143' TERM\n\
             [ -e {0}.resumed ] && exit 0\n\
             while :; do sleep 0.05; done\n",
            signals.display()
        ),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let script_run = |args: &[&str]| {
        let o = Command::new("sh").arg(&script).args(args).arg("six").arg(&data).arg(&fake).output().expect("run sh");
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let (code, nothing) = script_run(&["--stop"]);
    assert_eq!(code, Some(0), "{nothing}");
    assert!(nothing.starts_with("no step of six is running"), "{nothing}");
    let run = Command::new("sh")
        .arg(&script)
        .arg("six")
        .arg(&data)
        .arg(&fake)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sh");
    // Wait until the step runs (its pid written, the status saying so).
    let mut shown = String::new();
    for _ in 0..400 {
        shown = script_run(&["--status"]).1;
        if shown.contains("six-schaedler-solve: started ") && shown.contains(", running (pid ") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert!(shown.contains(", running (pid "), "{shown}");
    // Stopping takes no binary (none named, none on the path).
    let o = Command::new("sh")
        .arg(&script)
        .arg("--stop")
        .arg("six")
        .arg(&data)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run sh");
    let (code, said) = (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned());
    assert_eq!(code, Some(0), "{said}{}", String::from_utf8_lossy(&o.stderr));
    assert!(said.starts_with("asked six-schaedler-solve (pid "), "{said}");
    assert!(said.contains("six-schaedler-solve stopped after "), "{said}");
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    assert!(String::from_utf8_lossy(&out.stderr).contains("six-schaedler-solve stopped (exit 143)"));
    assert_eq!(fs::read_to_string(&signals).unwrap(), "TERM\n", "one SIGTERM, to the step alone");
    let (code, stopped) = script_run(&["--status"]);
    assert_eq!(code, Some(0), "a stopped step is not a failure: {stopped}");
    assert!(stopped.starts_with("six-schaedler-solve: stopped ") && stopped.contains(", resumable"), "{stopped}");
    assert!(!data.join("runs/six.pid").exists(), "the pid file outlived its step");
    // The same command takes the run up at the stopped step.
    fs::write(format!("{}.resumed", signals.display()), "").unwrap();
    let (code, _) = script_run(&[]);
    assert_eq!(code, Some(0));
    let (_, after) = script_run(&["--status"]);
    assert!(after.starts_with("six-schaedler-solve: done ("), "{after}");
    let _ = fs::remove_dir_all(data);
    for f in [signals.clone(), fake, format!("{}.resumed", signals.display()).into()] {
        let _ = fs::remove_file(f);
    }
}
