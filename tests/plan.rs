//! `ludus merels plan` and `ludus merels solve --group`: a board solved one
//! group at a time, in the plan's order, writes the same bytes as one
//! `ludus merels solve`; several processes solving into one database take
//! turns through their claims and write the same bytes too; a group whose
//! successors are missing is refused with what is missing; `verify
//! --manifest` publishes checksums; `compact` leaves current files alone.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::{ludus, stderr, stdout, temp};
use serde_json::Value;

/// Every sector file of a database directory tree, by name, with its bytes.
fn sector_files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for dir in fs::read_dir(root).unwrap() {
        let dir = dir.unwrap().path();
        for f in fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "sec") {
                let name = format!(
                    "{}/{}",
                    dir.file_name().unwrap().to_string_lossy(),
                    f.file_name().unwrap().to_string_lossy()
                );
                out.insert(name, fs::read(&f).unwrap());
            }
        }
    }
    out
}

fn ok(args: &[&str]) -> String {
    let o = ludus(args);
    assert!(o.status.success(), "ludus {}: {}", args.join(" "), stderr(&o));
    stdout(&o)
}

fn plan(board: &str, dice: &str, db: &Path) -> Value {
    let text = ok(&["merels", "plan", "--board", board, "--dice", dice, "--db", db.to_str().unwrap(), "--json"]);
    serde_json::from_str(&text).unwrap()
}

/// The plan of six under Schädler's dice for a solve given `gib` GiB.
fn six_plan_within(db: &str, gib: &str) -> Value {
    let text = ok(&["merels", "plan", "--board", "six", "--dice", "schaedler", "--db", db, "--memory", gib, "--json"]);
    serde_json::from_str(&text).unwrap()
}

fn whole(board: &str, dice: &str, db: &Path) {
    ok(&["merels", "solve", "--board", board, "--dice", dice, "--db", db.to_str().unwrap(), "-q", "--json"]);
}

#[test]
fn groups_solved_one_by_one_equal_one_solve() {
    // Six under every reading is the workflow test's (tests/workflow.rs).
    for (board, dice) in
        [("three", "none"), ("three", "murray"), ("three", "bell"), ("three", "schaedler"), ("rota", "none")]
    {
        let one = temp("plan", &format!("one-{board}-{dice}"));
        let steps = temp("plan", &format!("steps-{board}-{dice}"));
        whole(board, dice, &one);
        let p = plan(board, dice, &steps);
        let groups = p["groups"].as_array().unwrap();
        assert!(!groups.is_empty());
        for g in groups {
            assert_eq!(g["done"], false, "{board}/{dice}: nothing solved yet");
            assert!(g["error"].is_null(), "{board}/{dice}: no proven error before a solve: {g}");
            let key = g["key"].as_str().unwrap();
            ok(&[
                "merels",
                "solve",
                "--board",
                board,
                "--dice",
                dice,
                "--db",
                steps.to_str().unwrap(),
                "--group",
                key,
                "-q",
            ]);
        }
        assert_eq!(p["indices_done"], 0);
        let indices: u64 = groups.iter().map(|g| g["indices"].as_u64().unwrap()).sum();
        assert_eq!(p["indices"].as_u64(), Some(indices));
        let p = plan(board, dice, &steps);
        assert!(p["groups"].as_array().unwrap().iter().all(|g| g["done"] == true), "{board}/{dice}: {p}");
        assert_eq!(p["indices_done"], p["indices"], "{board}/{dice}: every index solved");
        // Each finished group's proven error, from its files' headers:
        // exact without dice in movement, within 5e-7 (intervals at most
        // 1e-6 wide) and above 0 somewhere under Schädler's.
        let errors: Vec<f64> = p["groups"].as_array().unwrap().iter().map(|g| g["error"].as_f64().unwrap()).collect();
        let widest = errors.iter().copied().fold(0f64, f64::max);
        if dice == "schaedler" {
            assert!(widest > 0.0 && widest < 5e-7, "{board}/{dice}: {errors:?}");
        } else {
            assert_eq!(widest, 0.0, "{board}/{dice}: {errors:?}");
        }
        let text = ok(&["merels", "plan", "--board", board, "--dice", dice, "--db", steps.to_str().unwrap()]);
        assert!(text.contains(&format!("{indices} of {indices} indices (100.0%)")), "{text}");
        let said = format!("Proven error of the finished groups at most {widest:.2e}");
        assert_eq!(text.contains(&said), dice == "schaedler", "{text}");
        let (a, b) = (sector_files(&one), sector_files(&steps));
        let planned: usize = groups.iter().map(|g| g["files"].as_array().unwrap().len()).sum();
        assert_eq!(a.len(), planned, "{board}/{dice}: the plan names every file one solve writes");
        assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "{board}/{dice}");
        for (name, bytes) in &a {
            assert!(bytes == &b[name], "{board}/{dice}: {name} differs");
        }
        for d in [one, steps] {
            let _ = fs::remove_dir_all(d);
        }
    }
}

#[test]
fn a_group_needs_its_successors_files() {
    let db = temp("plan", "needs");
    let p = plan("six", "none", &db);
    let groups = p["groups"].as_array().unwrap();
    let g = groups.iter().find(|g| !g["needs"].as_array().unwrap().is_empty()).unwrap();
    let key = g["key"].as_str().unwrap();
    let o =
        ludus(&["merels", "solve", "--board", "six", "--dice", "none", "--db", db.to_str().unwrap(), "--group", key]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    let first = g["reads"][0].as_str().unwrap();
    assert!(e.contains("missing") && e.contains(first), "{e}");
    let o = ludus(&[
        "merels",
        "solve",
        "--board",
        "six",
        "--dice",
        "none",
        "--db",
        db.to_str().unwrap(),
        "--group",
        "7-7-7-7",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no sector group 7-7-7-7"), "{}", stderr(&o));
    let o = ludus(&["merels", "solve", "--board", "six", "--dice", "none", "--no-db", "--group", key]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a database"), "{}", stderr(&o));
    let _ = fs::remove_dir_all(db);
}

#[test]
fn concurrent_solves_share_one_database() {
    let one = temp("plan", "conc-one");
    let shared: PathBuf = temp("plan", "conc-shared");
    whole("six", "none", &one);
    let db = shared.to_str().unwrap().to_string();
    let bin = env!("CARGO_BIN_EXE_ludus");
    let kids: Vec<_> = (0..3)
        .map(|_| {
            std::process::Command::new(bin)
                .args(["merels", "solve", "--board", "six", "--dice", "none", "--db", &db, "-q", "--json"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for k in kids {
        let o = k.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(sector_files(&one), sector_files(&shared));
    let leftovers: Vec<_> = fs::read_dir(shared.join("six_none"))
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lock") || n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "claims and temporary files are gone: {leftovers:?}");
    for d in [one, shared] {
        let _ = fs::remove_dir_all(d);
    }
}

#[test]
fn an_abandoned_claim_is_taken_over() {
    let db = temp("plan", "abandoned");
    let dir = db.join("three_none");
    fs::create_dir_all(&dir).unwrap();
    // A process killed while solving leaves its claim file, unlocked.
    fs::write(dir.join("3-0-3-0.lock"), "pid 4000000 on a-dead-host\n").unwrap();
    let o = ludus(&["merels", "solve", "--board", "three", "--dice", "none", "--db", db.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("pid 4000000 on a-dead-host"), "the take-over is reported: {}", stderr(&o));
    assert!(!dir.join("3-0-3-0.lock").exists());
    let _ = fs::remove_dir_all(db);
}

/// `merels verify --manifest`: two solves of one game write manifests of
/// the same bytes, listing every sector file with its SHA-256 (checked by
/// `sha256sum` where it is installed); a damaged database fails and gets
/// no manifest.
#[test]
fn verified_databases_publish_one_manifest() {
    let mut manifests = Vec::new();
    for run in ["a", "b"] {
        let db = temp("manifest", run);
        let _ = fs::remove_dir_all(&db);
        whole("three", "schaedler", &db);
        let args = ["merels", "verify", "--board", "three", "--dice", "schaedler", "--db", db.to_str().unwrap()];
        let text = ok(&[&args[..], &["--manifest", "--json", "-q"]].concat());
        let report: Value = serde_json::from_str(&text).unwrap();
        let path = PathBuf::from(report["manifest"]["path"].as_str().unwrap());
        let manifest = fs::read_to_string(&path).unwrap();
        let dir = path.parent().unwrap();
        let files: Vec<String> = sector_files(&db).keys().map(|k| k.rsplit('/').next().unwrap().to_string()).collect();
        let listed: Vec<String> = manifest.lines().map(|l| l.split_once("  ").unwrap().1.to_string()).collect();
        assert_eq!(listed, files, "the manifest lists every sector file, sorted");
        assert_eq!(report["manifest"]["files"].as_array().unwrap().len(), files.len());
        if let Ok(o) =
            std::process::Command::new("sha256sum").arg("-c").arg("--quiet").arg("MANIFEST").current_dir(dir).output()
        {
            assert!(o.status.success(), "sha256sum -c: {}", String::from_utf8_lossy(&o.stdout));
        }
        manifests.push(manifest);
        if run == "b" {
            // One byte of a payload changed: a failure, and no manifest.
            fs::remove_file(&path).unwrap();
            let victim = dir.join(listed.last().unwrap());
            let mut bytes = fs::read(&victim).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 0x40;
            fs::write(&victim, &bytes).unwrap();
            let o = ludus(&[&args[..], &["--manifest", "-q"]].concat());
            assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
            assert!(stderr(&o).contains("no manifest written"), "{}", stderr(&o));
            assert!(!path.exists());
        }
        fs::remove_dir_all(&db).unwrap();
    }
    assert_eq!(manifests[0], manifests[1], "two solves, the same bytes");
}

/// `merels compact` leaves a database in the current format as it is and
/// says so; a wrong board is refused with exit 2.
#[test]
fn compacting_a_current_database_changes_nothing() {
    let db = temp("compact", "three");
    let _ = fs::remove_dir_all(&db);
    whole("three", "none", &db);
    let before = sector_files(&db);
    let args = ["merels", "compact", "--board", "three", "--dice", "none", "--db", db.to_str().unwrap()];
    let report: Value = serde_json::from_str(&ok(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!(report["rewritten"].as_array().map(Vec::len), Some(0), "{report}");
    assert_eq!(report["bytes_before"], 0);
    assert!(ok(&args).contains("0 files of three/none"));
    assert!(sector_files(&db) == before, "no file changed");
    let o = ludus(&["merels", "compact", "--board", "ten", "--dice", "none"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = fs::remove_dir_all(db);
}

/// `merels verify --max-men N` checks the sectors with at most N men in
/// all (a database solved that far) and misses none of them.
#[test]
fn verify_checks_the_sectors_up_to_a_size() {
    let db = temp("verify-upto", "six");
    let _ = fs::remove_dir_all(&db);
    let args = ["merels", "verify", "--board", "six", "--dice", "none", "--db", db.to_str().unwrap(), "--json", "-q"];
    ok(&["merels", "solve", "--board", "six", "--dice", "none", "--db", db.to_str().unwrap(), "--max-men", "7", "-q"]);
    let o = ludus(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let all: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(!all["missing"].as_array().unwrap().is_empty(), "the sectors of 8 men and more are not solved");
    let part: Value = serde_json::from_str(&ok(&[&args[..], &["--max-men", "7"]].concat())).unwrap();
    assert_eq!(part["missing"].as_array().map(Vec::len), Some(0), "{part}");
    let men = |key: &str| key.split('-').map(|x| x.parse::<u8>().unwrap()).sum::<u8>();
    let checked: Vec<&str> =
        part["sectors"].as_array().unwrap().iter().map(|s| s["sector"].as_str().unwrap()).collect();
    assert!(!checked.is_empty() && checked.iter().all(|k| men(k) <= 7), "{checked:?}");
    assert_eq!(part["sectors"], all["sectors"], "the same sectors checked");
    // Resumed, the same sectors come from the journal, with the same figures.
    let again: Value = serde_json::from_str(&ok(&[&args[..], &["--max-men", "7", "--resume"]].concat())).unwrap();
    let sectors = again["sectors"].as_array().unwrap();
    assert!(sectors.iter().all(|s| s["resumed"] == true), "{again}");
    let figures = |v: &Value| -> Vec<(Value, Value, Value)> {
        v["sectors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["sector"].clone(), s["positions"].clone(), s["wins"].clone()))
            .collect()
    };
    assert_eq!(figures(&again), figures(&part));
    let text = ok(&[
        "merels",
        "verify",
        "--board",
        "six",
        "--dice",
        "none",
        "--db",
        db.to_str().unwrap(),
        "--max-men",
        "7",
        "-q",
        "--resume",
    ]);
    assert!(text.contains("taken from the journal"), "{text}");
    let _ = fs::remove_dir_all(db);
}

#[test]
fn the_plan_names_the_groups_over_the_memory() {
    let db = temp("plan", "over-memory");
    let d = db.to_str().unwrap();
    let at = |gib: &str| six_plan_within(d, gib);
    // About 5 MiB: the small groups fit, the large ones do not.
    let p = at("0.005");
    let limit = p["memory_limit"].as_u64().unwrap();
    assert_eq!(limit, (0.005 * (1u64 << 30) as f64) as u64, "{p}");
    let groups = p["groups"].as_array().unwrap();
    let need: Vec<&str> =
        groups.iter().filter(|g| g["memory"].as_u64().unwrap() > limit).map(|g| g["key"].as_str().unwrap()).collect();
    let over: Vec<&str> = p["over_memory"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    assert_eq!(over, need);
    assert!(!over.is_empty() && over.len() < groups.len(), "{p}");
    let text = ok(&["merels", "plan", "--board", "six", "--dice", "schaedler", "--db", d, "--memory", "0.005"]);
    assert!(text.contains(&format!("{} groups need more than", over.len())) && text.contains(over[0]), "{text}");
    // Between the two largest groups (with their children generated, as a
    // solve short of memory has them): one named, in the singular.
    let p = at("0.000001");
    let mut sizes: Vec<u64> = p["groups"].as_array().unwrap().iter().map(|g| g["memory"].as_u64().unwrap()).collect();
    sizes.sort_unstable();
    let between = (sizes[sizes.len() - 1] + sizes[sizes.len() - 2]) as f64 / 2.0 / (1u64 << 30) as f64;
    let text =
        ok(&["merels", "plan", "--board", "six", "--dice", "schaedler", "--db", d, "--memory", &between.to_string()]);
    assert!(text.contains("1 group needs more than"), "{text}");
    // The default 14 GiB holds every group of six.
    let p = at("14");
    assert_eq!(p["over_memory"].as_array().unwrap().len(), 0, "{p}");
    let text = ok(&["merels", "plan", "--board", "six", "--dice", "schaedler", "--db", d]);
    assert!(!text.contains("need more than"), "{text}");
    let _ = fs::remove_dir_all(db);
}

/// Where a group under chance fits `--memory` only without the lists of
/// its positions' in-group parents, or without any lists, the plan says it
/// will list the children alone, or generate both, and gives that memory,
/// and the solve of the group does so, says so, and writes the bytes the
/// solve that lists both writes.
#[test]
fn a_solve_short_of_memory_generates_the_children() {
    let db = temp("plan", "generated");
    let d = db.to_str().unwrap();
    let at = |gib: &str| six_plan_within(d, gib);
    let gib = |bytes: u64| (bytes as f64 / (1u64 << 30) as f64).to_string();
    let memory = |p: &Value, children: &str| -> Vec<(String, u64)> {
        p["groups"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["children"] == children)
            .map(|g| (g["key"].as_str().unwrap().to_string(), g["memory"].as_u64().unwrap()))
            .collect()
    };
    let (stored, generated) = (memory(&at("14"), "stored"), memory(&at("0.000001"), "generated"));
    assert_eq!(stored.len(), generated.len(), "the same groups under chance");
    assert!(stored.iter().zip(&generated).all(|(s, g)| s.0 == g.0 && g.1 < s.1), "{stored:?} {generated:?}");
    let (largest, most) = stored.iter().max_by_key(|x| x.1).cloned().unwrap();
    let need_of = |v: &[(String, u64)]| v.iter().find(|x| x.0 == largest).map(|x| x.1);
    // Just below the largest need with both lists: the largest group lists
    // its children alone, in less memory than with both lists and more than
    // with none.
    let below = gib(most - 4096);
    let p = at(&below);
    assert_eq!(p["over_memory"].as_array().unwrap().len(), 0, "{p}");
    let half = need_of(&memory(&p, "half")).unwrap_or_else(|| panic!("{largest} not half: {p}"));
    assert!(half < most && half > need_of(&generated).unwrap(), "{half} {most} {generated:?}");
    let text = ok(&["merels", "plan", "--board", "six", "--dice", "schaedler", "--db", d, "--memory", &below]);
    assert!(text.contains(" h ") && text.contains("parents are generated rather than stored"), "{text}");
    // Between the largest need with the children listed and the largest
    // without any lists: every group fits, the largest only by generating
    // its children and parents.
    let most_generated = generated.iter().map(|x| x.1).max().unwrap();
    assert!(most_generated < half, "{generated:?} {half}");
    let between = gib((half + most_generated) / 2);
    let p = at(&between);
    assert_eq!(p["over_memory"].as_array().unwrap().len(), 0, "{p}");
    let planned = memory(&p, "generated");
    assert!(planned.iter().any(|(k, _)| *k == largest), "{p}");
    assert!(planned.iter().all(|g| generated.contains(g)), "{planned:?}");
    let text = ok(&["merels", "plan", "--board", "six", "--dice", "schaedler", "--db", d, "--memory", &between]);
    assert!(text.contains(" g ") && text.contains("children and parents are generated rather than stored"), "{text}");
    // The whole board with every group's lists, then the largest group again
    // alone in each of those memories, from the same successors' files: it
    // lists its children alone, then generates both, says so, and writes
    // the same bytes.
    ok(&["merels", "solve", "--board", "six", "--dice", "schaedler", "--db", d, "-q"]);
    let mirror = |key: &str| {
        let n: Vec<&str> = key.split('-').collect();
        format!("{}-{}-{}-{}", n[2], n[3], n[0], n[1])
    };
    let mine = [format!("{largest}.sec"), format!("{}.sec", mirror(&largest))];
    let from = db.join("six_schaedler");
    for (limit, how) in
        [(&below, "children listed and parents generated"), (&between, "children and parents generated")]
    {
        let again = temp("plan", "generated-again");
        let to = again.join("six_schaedler");
        fs::create_dir_all(&to).unwrap();
        for f in fs::read_dir(&from).unwrap() {
            let name = f.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".sec") && !mine.contains(&name) {
                fs::copy(from.join(&name), to.join(&name)).unwrap();
            }
        }
        let a = again.to_str().unwrap();
        let o = ludus(&[
            "merels",
            "solve",
            "--board",
            "six",
            "--dice",
            "schaedler",
            "--db",
            a,
            "--group",
            &largest,
            "--memory",
            limit,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("group {largest}: in-group {how}")), "{err}");
        for f in &mine {
            assert_eq!(fs::read(from.join(f)).unwrap(), fs::read(to.join(f)).unwrap(), "{how}: {f}");
        }
        let _ = fs::remove_dir_all(again);
    }
    let _ = fs::remove_dir_all(db);
}

#[test]
fn the_plan_links_nothing_and_counts_a_cut_file_as_not_done() {
    let db = temp("plan", "cut");
    whole("three", "none", &db);
    // Murray's reading shares the movement sectors of the game without
    // dice: the plan counts them done without linking them.
    let murray = plan("three", "murray", &db);
    let done = |p: &Value| p["groups"].as_array().unwrap().iter().filter(|g| g["done"] == true).count();
    assert!(done(&murray) > 0 && done(&murray) < murray["groups"].as_array().unwrap().len(), "{murray}");
    assert!(!Path::new(murray["directory"].as_str().unwrap()).exists(), "the plan made {}", murray["directory"]);
    // A file one byte short of what its header says is not done.
    let none = plan("three", "none", &db);
    assert_eq!(none["indices_done"], none["indices"]);
    let dir = PathBuf::from(none["directory"].as_str().unwrap());
    for f in fs::read_dir(&dir).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "sec") {
            let bytes = fs::read(&f).unwrap();
            fs::write(&f, &bytes[..bytes.len() - 1]).unwrap();
        }
    }
    for dice in ["none", "murray"] {
        let p = plan("three", dice, &db);
        assert_eq!(done(&p), 0, "{dice}: {p}");
        assert_eq!(p["indices_done"], 0, "{dice}");
    }
    let _ = fs::remove_dir_all(db);
}
