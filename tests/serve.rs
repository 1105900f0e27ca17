//! `ludus serve`'s JSON API against a server on a free loopback port: the
//! values and legal actions equal the CLI's and the library's, replays equal
//! the engine's games, searches run beside other requests, and bad requests
//! get a 400 with a message.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::{Server, ludus, stdout};
use engine::merels::{self, BoardKind, Dice, Rules};
use engine::rithmo::{self, RuleSet};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{Value, json};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// GET: the status and the JSON body.
fn get(s: &Server, path: &str) -> (u16, Value) {
    let mut r = agent().get(&s.url(path)).call().expect("request");
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn post(s: &Server, path: &str, body: &str) -> (u16, Value) {
    let mut r = agent().post(&s.url(path)).header("Content-Type", "application/json").send(body).expect("request");
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// POST that declares a body of `len` bytes and sends none of it: the
/// status and the body of the answer, read from a plain socket.
fn post_declared(s: &Server, path: &str, len: usize) -> (u16, Value) {
    use std::io::{Read, Write};
    let host = s.base.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(host).expect("connect");
    tcp.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).expect("send the head");
    let mut answer = Vec::new();
    // The server closes after refusing; a reset after the answer is fine.
    let _ = tcp.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let status =
        text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("no status in {text:?}"));
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::String(body.to_string())))
}

fn ok(s: &Server, path: &str) -> Value {
    let (status, v) = get(s, path);
    assert_eq!(status, 200, "{path}: {v}");
    v
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") }
        })
        .collect()
}

/// The fields the CLI's `probe --json` has, from a probe answer.
fn cli_fields(v: &Value) -> Value {
    let keys = ["value", "exact", "outcome", "plies", "lower", "upper", "error_bound", "position", "side", "rules"];
    let mut out = json!({});
    for k in keys {
        out[k] = v[k].clone();
    }
    let moves: Vec<Value> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut o = json!({});
            for k in ["move", "throw", "value", "exact", "outcome", "plies", "lower", "upper", "error_bound"] {
                o[k] = m[k].clone();
            }
            o
        })
        .collect();
    out["moves"] = json!(moves);
    out
}

/// Random walks through Rota and three men's morris under several readings:
/// the API's values and actions equal `ludus merels probe --json`, its
/// actions and their positions equal the library's.
#[test]
fn merels_probe_equals_the_cli_and_the_library() {
    let s = Server::start(&[]);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let games = [
        (BoardKind::Rota, Dice::None),
        (BoardKind::Three, Dice::None),
        (BoardKind::Three, Dice::Murray),
        (BoardKind::Three, Dice::Bell),
    ];
    for (kind, dice) in games {
        let rules = Rules::new(kind, dice);
        let mut pos = merels::Position::start(kind);
        for ply in 0..8 {
            let q = format!("position={}&dice={dice}", enc(&pos.to_string()));
            let api = ok(&s, &format!("/api/merels/probe?{q}"));
            let o = ludus(&["merels", "probe", &pos.to_string(), "--dice", dice.name(), "--no-db", "--json"]);
            assert!(o.status.success(), "{}", common::stderr(&o));
            let cli: Value = serde_json::from_str(&stdout(&o)).unwrap();
            assert_eq!(cli_fields(&api), cli, "{pos} under {dice}");
            // Every legal action of the library, after every throw, once.
            let st = pos.state();
            let mut lib = BTreeSet::new();
            if !rules.lost(&st) {
                for (t, _) in rules.throw_outcomes(&st) {
                    for (a, child) in rules.actions(&st, t) {
                        let next = merels::Position::from_state(kind, pos.to_move.other(), child);
                        lib.insert((format!("{t:?}"), a.display(rules.board).to_string(), next.to_string()));
                    }
                }
            }
            let got: BTreeSet<_> = api["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let t = match m["throw"].as_str() {
                        None => "None",
                        Some("normal") => "Normal",
                        Some(_) => "Special",
                    };
                    (t.to_string(), m["move"].as_str().unwrap().to_string(), m["next"].as_str().unwrap().to_string())
                })
                .collect();
            assert_eq!(got, lib, "{pos} under {dice}");
            assert_eq!(api["over"], json!(rules.lost(&st)));
            let moves = api["moves"].as_array().unwrap();
            if moves.is_empty() {
                break;
            }
            let m = moves.choose(&mut rng).unwrap();
            pos = m["next"].as_str().unwrap().parse().unwrap();
            let _ = ply;
        }
    }
}

/// Playing actions in the query equals following their `next` positions,
/// and the throw prefix works as in the CLI.
#[test]
fn merels_play_parameter() {
    let s = Server::start(&[]);
    let a = ok(&s, "/api/merels/probe?board=rota&dice=none&play=c,n,ne");
    let b = ok(&s, &format!("/api/merels/probe?dice=none&position={}", enc("rota:xox...... o 1 2")));
    assert_eq!(a["position"], json!("rota:xox...... o 1 2"));
    assert_eq!(cli_fields(&a), cli_fields(&b));
    let c = ok(&s, "/api/merels/probe?board=three&dice=murray&play=special:a1%2Bb1%2Bc1");
    assert_eq!(c["over"], json!(true), "a line placed at once wins on three: {c}");
    assert_eq!(c["winner"], json!("x"));
}

/// Nine men's morris without its databases: the sectors missing, the
/// command that solves them, and the legal actions without values.
#[test]
fn nine_without_databases_names_the_missing_sectors() {
    let dir = common::temp("serve", "empty-db");
    let s = Server::start(&["--db", dir.to_str().unwrap()]);
    let v = ok(&s, "/api/merels/probe?board=nine&dice=none&play=d2,d6");
    let missing = &v["missing"];
    assert!(missing["sectors"].as_array().unwrap().iter().any(|x| x == "1-8-1-8"), "{missing}");
    let cmd = missing["command"].as_str().unwrap();
    assert!(cmd.starts_with("ludus merels solve --board nine --dice none --db "), "{cmd}");
    assert!(!cmd.contains("--group") && !cmd.contains('\n'), "{cmd}");
    // The value's fields are there, empty.
    for key in ["value", "exact", "outcome", "plies", "lower", "upper", "error_bound"] {
        assert!(v.get(key).is_some_and(Value::is_null), "{key}: {v}");
    }
    let rules = Rules::new(BoardKind::Nine, Dice::None);
    let pos: merels::Position = v["position"].as_str().unwrap().parse().unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), rules.actions(&pos.state(), merels::Throw::None).len());
}

/// A nine men's endgame lacking a few groups: each one's command, in order.
#[test]
fn a_nine_endgame_names_each_missing_group() {
    let dir = common::temp("serve", "empty-db-endgame");
    let s = Server::start(&["--db", dir.to_str().unwrap()]);
    let v = ok(&s, "/api/merels/probe?position=nine:x..o.....x....o..x...o.o%20x%200%200");
    let cmd = v["missing"]["command"].as_str().unwrap();
    let groups: Vec<&str> = cmd.lines().filter_map(|l| l.split(" --group ").nth(1)).collect();
    assert_eq!(groups, ["3-0-3-0", "3-0-4-0"], "{cmd}");
    assert!(cmd.lines().all(|l| l.starts_with("ludus merels solve --board nine --dice schaedler --db ")), "{cmd}");
}

/// The board picture's points and lines are the library's.
#[test]
fn merels_boards() {
    let s = Server::start(&[]);
    for (kind, diag) in
        [(BoardKind::Rota, false), (BoardKind::Three, true), (BoardKind::Six, false), (BoardKind::Nine, false)]
    {
        let q = if diag { "&diagonals=true" } else { "" };
        let v = ok(&s, &format!("/api/merels/board?board={kind}{q}"));
        let board = merels::Board::get(kind, diag);
        assert_eq!(v["points"].as_array().unwrap().len(), board.len());
        assert_eq!(v["lines"].as_array().unwrap().len(), board.lines().len());
        let steps: usize = board.points().map(|p| board.neighbours(p).len() as usize).sum();
        assert_eq!(v["steps"].as_array().unwrap().len() * 2, steps);
    }
}

/// Random games of Rithmomachia: the API's legal moves, their reasons and
/// sieges, and the positions equal the engine's.
#[test]
fn rithmo_position_equals_the_engine() {
    let s = Server::start(&[]);
    let rules = RuleSet::common();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut game = rithmo::Game::new(rithmo::Position::start(), rules);
    let mut played: Vec<String> = Vec::new();
    for _ in 0..60 {
        let v = ok(&s, &format!("/api/rithmo/position?moves={}", played.join(",")));
        let pos = *game.position();
        assert_eq!(v["fen"], json!(pos.to_string()));
        assert_eq!(v["svg"], json!(rithmo::render::svg(&pos)));
        let legal: BTreeSet<String> = pos.legal_moves(&rules).iter().map(|m| m.to_string()).collect();
        let got: BTreeSet<String> =
            v["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect();
        assert_eq!(got, legal);
        for m in v["moves"].as_array().unwrap() {
            let mv: rithmo::Move = m["move"].as_str().unwrap().parse().unwrap();
            let why = pos.move_reasons(mv, &rules);
            assert_eq!(m["by"], json!(why.names()));
            let sieged: Vec<String> = why.sieged.iter().map(|s| s.to_string()).collect();
            assert_eq!(m["sieges"], json!(sieged));
        }
        if game.status() != rithmo::Status::Ongoing {
            break;
        }
        let ms = pos.legal_moves(&rules);
        // Prefer captures, so that the game reaches them.
        let caps: Vec<_> = ms.iter().filter(|m| m.is_tactical()).copied().collect();
        let m = if !caps.is_empty() && rng.random_bool(0.7) {
            *caps.choose(&mut rng).unwrap()
        } else {
            *ms.choose(&mut rng).unwrap()
        };
        game.play(m).unwrap();
        played.push(m.to_string());
    }
    assert!(played.len() >= 20);
}

/// An analysis runs beside other requests, streams its iterations, stops
/// when asked, and its best move is legal; a second one beyond the limit is
/// refused.
#[test]
fn rithmo_analysis() {
    let s = Server::start(&["--searches", "1"]);
    let (status, v) = post(&s, "/api/rithmo/analyse", r#"{"moves": ["c4-c5"], "movetime": 60000}"#);
    assert_eq!(status, 200, "{v}");
    let id = v["id"].as_u64().unwrap();
    // Other requests are answered meanwhile.
    let p = ok(&s, "/api/rithmo/position?moves=c4-c5");
    let (busy, msg) = post(&s, "/api/rithmo/analyse", r#"{"movetime": 1000}"#);
    assert_eq!(busy, 503, "{msg}");
    assert!(msg["error"].as_str().unwrap().contains("busy"));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let j = ok(&s, &format!("/api/rithmo/analysis/{id}"));
        if j["lines"].as_array().unwrap().len() >= 2 || Instant::now() > deadline {
            assert!(j["running"].as_bool().unwrap(), "a minute-long search still runs: {j}");
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    post(&s, &format!("/api/rithmo/analysis/{id}/stop"), "");
    let result = loop {
        let j = ok(&s, &format!("/api/rithmo/analysis/{id}"));
        if !j["running"].as_bool().unwrap() {
            break j;
        }
        assert!(Instant::now() < deadline, "the stopped search ended");
        std::thread::sleep(Duration::from_millis(50));
    };
    let lines = result["lines"].as_array().unwrap();
    let depths: Vec<u64> = lines.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    let best = result["result"]["best_move"].as_str().unwrap();
    assert!(p["moves"].as_array().unwrap().iter().any(|m| m["move"] == best), "{best} is legal");
    // The slot is free again; a fixed-depth search finishes by itself.
    let (status, v) = post(&s, "/api/rithmo/analyse", r#"{"depth": 2, "movetime": 30000}"#);
    assert_eq!(status, 200, "{v}");
    let id = v["id"].as_u64().unwrap();
    let j = loop {
        let j = ok(&s, &format!("/api/rithmo/analysis/{id}"));
        if !j["running"].as_bool().unwrap() {
            break j;
        }
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(j["result"]["depth"], json!(2));
}

/// Games of an arena record replay into the engine's positions.
#[test]
fn match_replay_equals_the_record() {
    let s = Server::start(&[]);
    for (game, extra) in [
        ("rota", vec![]),
        ("merels", vec!["--board", "three", "--dice", "murray"]),
        ("rithmo", vec!["--max-plies", "60"]),
    ] {
        let path = common::temp("serve", &format!("{game}.jsonl"));
        let p = path.to_str().unwrap();
        let mut args =
            vec!["arena", "--game", game, "--a", "greedy", "--b", "random", "--games", "3", "--record", p, "-q"];
        args.extend(extra);
        let o = ludus(&args);
        assert!(o.status.success(), "{}", common::stderr(&o));
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            let (status, v) = post(&s, "/api/match/replay", line);
            assert_eq!(status, 200, "{v}");
            let frames = v["frames"].as_array().unwrap();
            let moves = record["moves"].as_array().unwrap();
            assert_eq!(frames.len(), moves.len() + 1);
            for (f, m) in frames[1..].iter().zip(moves) {
                assert_eq!(&f["move"], m);
            }
            // The last position, replayed by the library.
            let last = frames.last().unwrap()["position"].as_str().unwrap();
            if game == "rithmo" {
                let mut g = rithmo::Game::new(rithmo::Position::start(), RuleSet::common());
                for m in moves {
                    g.play(m.as_str().unwrap().parse().unwrap()).unwrap();
                }
                assert_eq!(last, g.position().to_string());
            } else {
                let board = if game == "rota" { "rota" } else { "three" };
                let q = format!(
                    "{}&play={}",
                    v["query"].as_str().unwrap(),
                    moves.iter().map(|m| enc(m.as_str().unwrap())).collect::<Vec<_>>().join(",")
                );
                assert!(q.starts_with(&format!("board={board}")));
                let probe = ok(&s, &format!("/api/merels/probe?{q}"));
                assert_eq!(probe["position"].as_str().unwrap(), last);
            }
            // A result, winner or length the moves do not give is refused,
            // as `ludus replay` refuses it.
            let mut forged = record.clone();
            forged["result"] = json!(if record["result"] == "first" { "second" } else { "first" });
            forged["winner"] = json!(if record["winner"] == "a" { "b" } else { "a" });
            let (status, v) = post(&s, "/api/match/replay", &forged.to_string());
            assert_eq!(status, 400, "{v}");
            let mut forged = record.clone();
            forged["plies"] = json!(-5);
            let (status, v) = post(&s, "/api/match/replay", &forged.to_string());
            assert_eq!(status, 400, "{v}");
            assert!(v["error"].as_str().unwrap().contains("'plies'"), "{v}");
        }
    }
}

/// Bad requests: a 400 (or 404, 413, 414) with a message, and the server
/// keeps answering.
#[test]
fn bad_requests_get_a_message() {
    let s = Server::start(&[]);
    let long = "a".repeat(20_000);
    let gets: Vec<(String, u16, &str)> = vec![
        ("/api/merels/probe?board=ten".into(), 400, "parameter 'board': unknown board 'ten'"),
        ("/api/merels/probe".into(), 400, "give a 'position'"),
        ("/api/merels/probe?board=three&dice=dice".into(), 400, "parameter 'dice': unknown dice"),
        ("/api/merels/probe?board=three&depth=3".into(), 400, "unknown parameter 'depth'"),
        ("/api/merels/probe?board=three&board=six".into(), 400, "given twice"),
        ("/api/merels/probe?board=three&flying=maybe".into(), 400, "expected true or false"),
        ("/api/merels/probe?board=three&special_72=99".into(), 400, "from 0 to 72"),
        // Rules refused by name of the query parameter, not of a command-line flag.
        (
            "/api/merels/probe?board=three&dice=none&special_72=7".into(),
            400,
            "special_72=7: without dice (dice=none) there is no special throw",
        ),
        (
            "/api/merels/probe?board=three&no_take_from_mills=true".into(),
            400,
            "no_take_from_mills: on the three board a line wins",
        ),
        (
            "/api/merels/probe?board=three&blocked=win".into(),
            400,
            "parameter 'blocked': unknown blocked rule 'win' (expected lose, pass or draw)",
        ),
        ("/api/merels/probe?board=six&diagonals=true".into(), 400, "diagonals"),
        (
            "/api/merels/board?board=six&diagonals=true".into(),
            400,
            "diagonals are an option of the three board, not six",
        ),
        ("/api/merels/probe?board=three&dice=none&play=a1,a1".into(), 400, "not legal"),
        ("/api/merels/probe?board=three&dice=none&play=z9".into(), 400, "not a point"),
        (format!("/api/merels/probe?position={}", enc("three:xxx...... x 0 3")), 400, "already"),
        (format!("/api/merels/probe?position={}", enc("three:xx o 0 3")), 400, "invalid position"),
        ("/api/merels/board".into(), 400, "'board' is missing"),
        ("/api/rithmo/position?fen=nonsense".into(), 400, "RFEN"),
        ("/api/rithmo/position?moves=c4-c9".into(), 400, "can play only"),
        ("/api/rithmo/position?moves=zz".into(), 400, "not a move"),
        ("/api/rithmo/position?rules=uncommon".into(), 400, "unknown rules preset"),
        ("/api/rithmo/position?victory=body:x".into(), 400, "not a number"),
        ("/api/rithmo/analysis/abc".into(), 400, "not an analysis number"),
        ("/api/rithmo/analysis/999999".into(), 404, "no analysis"),
        ("/api/match/replay".into(), 405, "this call takes POST, not GET"),
        ("/api/rithmo/position?moves=b1-e1,".into(), 400, "parameter 'moves': an empty item"),
        ("/api/rithmo/position?moves=,".into(), 400, "an empty item"),
        ("/api/merels/probe?board=rota&play=c,,n".into(), 400, "parameter 'play': an empty item"),
        ("/api/nothing".into(), 404, "no such page"),
        ("/static/..%2F..%2FCargo.toml".into(), 404, "no file"),
        ("/static/../../Cargo.toml".into(), 404, "no such page"),
        (format!("/api/merels/probe?board=three&play={long}"), 414, "at most"),
    ];
    for (path, code, needle) in &gets {
        let (status, v) = get(&s, path);
        assert_eq!(status, *code, "{path}: {v}");
        let msg = v["error"].as_str().unwrap_or_else(|| panic!("{path}: no message in {v}"));
        assert!(msg.contains(needle), "{path}: '{msg}' lacks '{needle}'");
    }
    let posts: Vec<(&str, String, u16, &str)> = vec![
        ("/api/rithmo/analyse", "{".into(), 400, "the body must be a JSON object"),
        // Bodies of the wrong shape: a 400 that says what the call takes.
        ("/api/rithmo/analyse", "null".into(), 400, "the body must be a JSON object with any of fen"),
        ("/api/rithmo/analyse", r#"{"movetime": "100"}"#.into(), 400, "movetime"),
        ("/api/rithmo/analyse", r#"{"moves": "b1-e1"}"#.into(), 400, "moves"),
        ("/api/rithmo/analyse", r#"{"speed": 3}"#.into(), 400, "speed"),
        ("/api/rithmo/analyse", r#"{"movetime": 0}"#.into(), 400, "movetime"),
        ("/api/rithmo/analyse", r#"{"movetime": 999999}"#.into(), 400, "movetime"),
        ("/api/rithmo/analyse", r#"{"depth": 0}"#.into(), 400, "depth"),
        ("/api/rithmo/analyse", r#"{"moves": ["c4-c9"]}"#.into(), 400, "can play only"),
        ("/api/rithmo/analyse", r#"{"fen": "4,s225,3/8/2,c25,5/8/5,t90,2/8/8/3,c9,4/8/2,C8,5/8/4,T20,3/8/8/1,S45,6/8 o c3.c5.c7.t16.t12.c49.c81.t36.t30.t56.t64.s28.s15.s45.s25 C2 12 60"}"#.into(), 400, "nothing to analyse"),
        ("/api/match/replay", "[]".into(), 400, "a game record"),
        ("/api/match/replay", r#"{"game": "merels"}"#.into(), 400, "no list of moves"),
        ("/api/match/replay", r#"{"game": "merels", "moves": []}"#.into(), 400, "the record has no 'rules' object"),
        (
            "/api/match/replay",
            r#"{"game": "rithmo", "rules": {"preset": "common"}, "moves": []}"#.into(),
            400,
            "the rules lack 'victory'",
        ),
        ("/api/match/replay", r#"{"game": "chess", "moves": []}"#.into(), 400, "unknown game"),
        ("/api/match/replay", r#"{"game": "rota", "rules": {}, "moves": []}"#.into(), 400, "the rules"),
    ];
    for (path, body, code, needle) in &posts {
        let (status, v) = post(&s, path, body);
        assert_eq!(status, *code, "{path} {}: {v}", &body[..body.len().min(80)]);
        if !needle.is_empty() {
            let msg = v["error"].as_str().unwrap_or_else(|| panic!("{path}: no message in {v}"));
            assert!(msg.contains(needle), "{path}: '{msg}' lacks '{needle}'");
        }
    }
    // A body declared larger than the limit is refused from its header,
    // before any of it is read (a client streaming it would see the
    // connection closed under it, so none is sent).
    let (status, v) = post_declared(&s, "/api/rithmo/analyse", 2 << 20);
    assert_eq!(status, 413, "an oversized body: {v}");
    assert!(v["error"].as_str().is_some_and(|m| m.contains("at most 1048576")), "an oversized body: {v}");
    // Still answering.
    assert_eq!(ok(&s, "/api/merels/board?board=rota")["points"].as_array().unwrap().len(), 9);
    for page in [
        "/",
        "/merels",
        "/rithmo",
        "/match",
        "/static/style.css",
        "/static/merels.js",
        "/static/icon.svg",
        "/favicon.ico",
    ] {
        let mut r = agent().get(&s.url(page)).call().unwrap();
        assert_eq!(r.status().as_u16(), 200, "{page}");
        assert!(!r.body_mut().read_to_string().unwrap().is_empty());
    }
}

/// Ctrl-C stops the server at once, though an analysis still has most of a
/// minute to run.
#[test]
fn ctrl_c_stops_running_analyses() {
    let mut s = Server::start(&[]);
    let (status, v) = post(&s, "/api/rithmo/analyse", r#"{"movetime": 60000}"#);
    assert_eq!(status, 200, "{v}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let exit = s.interrupt(std::time::Duration::from_secs(30));
    assert!(exit.is_some_and(|e| e.success()), "still running 30 s after Ctrl-C (or failed): {exit:?}");
}
