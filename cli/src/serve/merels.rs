//! The merels and Rota explorer's API: board pictures, and every position's
//! value with each legal action rated. Rota, three and six men's morris are
//! solved in memory on first use and kept per rule set; nine men's morris is
//! read from the sector databases, and a position whose sectors are missing
//! says which and the command that solves them.

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use engine::merels::{Action, Blocked, Board, BoardKind, Dice, Position, Rules, Throw};
use serde_json::{Value, json};
use solver::merels::db::Db;
use solver::merels::sector::successors;
use solver::merels::{Sector, Silent, Solution, SolveOptions};

use super::AppState;
use super::params::{ApiError, ApiResult, Params, blocking};
use crate::merels_args::{
    MoreRuleArgs, OptionNames, RuleArgs, parse_position, play_moves, probe_json, rule_options, solve_commands,
    throw_name, unsolved_groups,
};

/// Solutions kept at once (each rule set's in-memory solve, each database
/// neighbourhood of nine men's morris).
const KEEP: usize = 6;
/// The most actions a request may play before probing.
const MAX_PLAY: usize = 400;

type Cell = Arc<OnceLock<Result<Arc<Solution>, String>>>;

/// Solutions by rule set (and sector, for databases), most recent last.
#[derive(Default)]
pub struct Solved {
    cells: Mutex<Vec<(String, Cell)>>,
    /// Held by the solve running: solves take their turns (each uses every
    /// core, and their memory adds up), whatever rules they are for.
    solving: Mutex<()>,
}

impl Solved {
    /// The solution under `key`, solving it once however many requests ask
    /// at the same time. Blocks: call it on a blocking thread.
    fn get(&self, key: String, solve: impl FnOnce() -> Result<Solution, String>) -> Result<Arc<Solution>, String> {
        let cell = {
            let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            let cell = match cells.iter().position(|(k, _)| *k == key) {
                Some(i) => cells.remove(i).1,
                None => Cell::default(),
            };
            cells.push((key.clone(), cell.clone()));
            while cells.len() > KEEP {
                cells.remove(0);
            }
            cell
        };
        let result = cell
            .get_or_init(|| {
                let _turn = self.solving.lock().unwrap_or_else(|e| e.into_inner());
                solve().map(Arc::new)
            })
            .clone();
        if result.is_err() {
            // Not kept: the database may be completed later.
            self.cells.lock().unwrap_or_else(|e| e.into_inner()).retain(|(k, c)| *k != key || !Arc::ptr_eq(c, &cell));
        }
        result
    }
}

pub fn routes() -> Router<Arc<AppState>> {
    Router::new().route("/merels/board", get(board)).route("/merels/probe", get(probe))
}

/// Where each point is drawn, in a unit square.
fn point_xy(board: &Board, p: engine::merels::Point) -> (f64, f64) {
    if board.kind == BoardKind::Rota {
        if p.0 == 0 {
            return (0.5, 0.5);
        }
        // n first, then clockwise.
        let angle = (p.0 - 1) as f64 * std::f64::consts::FRAC_PI_4;
        return (0.5 + 0.5 * angle.sin(), 0.5 - 0.5 * angle.cos());
    }
    let name = board.name(p).as_bytes();
    let size = if board.kind == BoardKind::Three { 2.0 } else { 6.0 };
    ((name[0] - b'a') as f64 / size, 1.0 - (name[1] - b'1') as f64 / size)
}

/// A board's points, lines and steps, for drawing.
fn board_json(board: &Board) -> Value {
    let points: Vec<Value> = board
        .points()
        .map(|p| {
            let (x, y) = point_xy(board, p);
            json!({ "name": board.name(p), "x": x, "y": y })
        })
        .collect();
    let names = |set: engine::merels::PointSet| set.iter().map(|p| board.name(p)).collect::<Vec<_>>();
    let steps: Vec<Value> = board
        .points()
        .flat_map(|p| {
            board.neighbours(p).iter().filter(move |q| *q > p).map(move |q| json!([board.name(p), board.name(q)]))
        })
        .collect();
    json!({
        "board": board.kind.name(),
        "label": board.label(),
        "men": board.men(),
        "points": points,
        "lines": board.lines().iter().map(|l| names(*l)).collect::<Vec<_>>(),
        "steps": steps,
    })
}

async fn board(q: Result<Query<Vec<(String, String)>>, QueryRejection>) -> ApiResult<Json<Value>> {
    let p = Params::new(q, &["board", "diagonals"])?;
    let kind: BoardKind =
        p.parsed("board")?.ok_or("parameter 'board' is missing or empty (rota, three, six or nine)")?;
    let rules =
        Rules::new(kind, Dice::None).with_diagonals(p.flag("diagonals")?).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(board_json(rules.board)))
}

/// The parameters naming a position and its rules, as the CLI's options.
const POSITION_PARAMS: [&str; 11] = [
    "position",
    "board",
    "dice",
    "play",
    "blocked",
    "placement_mills",
    "diagonals",
    "flying",
    "no_take_from_mills",
    "double_mill_one",
    "special_72",
];

/// The rules and the position after the actions, from the query.
fn resolve(p: &Params) -> ApiResult<(Rules, Position)> {
    let text = match (p.get("position"), p.get("board")) {
        (Some(t), _) => t.to_string(),
        (None, Some(_)) => Position::start(p.parsed::<BoardKind>("board")?.expect("given")).to_string(),
        (None, None) => return Err(ApiError::bad("give a 'position' (or a 'board' for its start)")),
    };
    let parsed: Position =
        text.parse().map_err(|e: engine::merels::ParsePositionError| ApiError::bad(e.to_string()))?;
    if let Some(b) = p.get("board").filter(|b| p.get("position").is_some() && *b != parsed.kind.name()) {
        return Err(ApiError::bad(format!("the position is on the {} board, not {b}", parsed.kind)));
    }
    let dice: Dice = p.parsed("dice")?.unwrap_or(Dice::Schaedler);
    let basic = RuleArgs {
        blocked: p.parsed("blocked")?.unwrap_or(Blocked::Lose),
        placement_mills: p.parsed("placement_mills")?,
    };
    let more = MoreRuleArgs {
        diagonals: p.flag("diagonals")?,
        flying: p.flag("flying")?,
        no_take_from_mills: p.flag("no_take_from_mills")?,
        double_mill_one: p.flag("double_mill_one")?,
        special_72: p.number("special_72", 5u8, 0, 72)?,
    };
    let rules = basic.apply(more.apply_as(Rules::new(parsed.kind, dice), OptionNames::Params)?);
    let start = parse_position(&[text], &rules)?;
    let pos = play_moves(start, &p.list("play", MAX_PLAY)?, &rules)?;
    Ok((rules, pos))
}

/// The explorer's query parameters that give these rules (the dice and
/// every option that differs from the defaults).
pub fn rule_query(rules: &Rules) -> String {
    let d = Rules::new(rules.board.kind, rules.dice);
    let mut q = vec![format!("board={}", rules.board.kind), format!("dice={}", rules.dice)];
    let flags = [
        (rules.board.diagonals, "diagonals"),
        (rules.flying, "flying"),
        (rules.no_take_from_mills, "no_take_from_mills"),
        (rules.double_mill_one, "double_mill_one"),
    ];
    q.extend(flags.iter().filter(|f| f.0).map(|f| format!("{}=true", f.1)));
    if rules.blocked != d.blocked {
        q.push(format!("blocked={}", rules.blocked.name()));
    }
    if rules.placement_mills != d.placement_mills {
        q.push(format!("placement_mills={}", rules.placement_mills.name()));
    }
    if rules.special_72 != d.special_72 {
        q.push(format!("special_72={}", rules.special_72));
    }
    q.join("&")
}

/// The action's parts, for the board: what to click.
fn action_parts(a: Action, board: &Board) -> Value {
    let name = |p: engine::merels::Point| board.name(p);
    let names = |set: engine::merels::PointSet| set.iter().map(|p| board.name(p)).collect::<Vec<_>>();
    let (kind, from, to, line) = match a {
        Action::Place { to, .. } => ("place", None, Some(name(to)), None),
        Action::Move { from, to, .. } => ("move", Some(name(from)), Some(name(to)), None),
        Action::Leap { from, to, .. } => ("leap", Some(name(from)), Some(name(to)), None),
        Action::PlaceLine { line, .. } => ("line", None, None, Some(names(line))),
        Action::Pass => ("pass", None, None, None),
    };
    json!({ "kind": kind, "from": from, "to": to, "line": line, "captures": names(a.captures()) })
}

/// What the position needs from the database: its sector and the sectors
/// its actions lead to, and those of them without a file.
fn missing_sectors(rules: &Rules, pos: &Position, root: &Path) -> (Sector, Vec<Sector>) {
    let s = Sector::of(&pos.state());
    let db = Db::new(root, *rules);
    let mut need = vec![s];
    need.extend(successors(rules, s).into_iter().filter(|c| c.is_stored() && *c != s));
    let missing = need.into_iter().filter(|c| !db.holds(*c)).collect();
    (s, missing)
}

/// The rated probe with what the board needs: each action's parts and the
/// position it leads to, how the values were found.
fn explore(state: &AppState, rules: Rules, pos: Position) -> ApiResult<Value> {
    let st = pos.state();
    let board = rules.board;
    let lost = rules.lost(&st);
    let t = Instant::now();
    let (mut out, source) = if rules.board.kind != BoardKind::Nine {
        let sol = state
            .merels
            .get(rules.label(), || {
                Solution::solve_with(rules, &SolveOptions::default(), &Silent).map_err(|e| e.to_string())
            })
            .map_err(ApiError::internal)?;
        (probe_json(&rules, &pos, &sol)?, "memory")
    } else {
        let (sector, missing) = missing_sectors(&rules, &pos, &state.db);
        if !lost && !missing.is_empty() {
            let db = Db::new(&state.db, rules);
            let unsolved = unsolved_groups(&rules, sector, Some(&state.db));
            let mut out = unrated(&rules, &pos);
            out["missing"] = json!({
                "directory": db.dir().display().to_string(),
                "sectors": missing.iter().map(|s| s.key()).collect::<Vec<_>>(),
                "command": solve_commands(&rules, sector, &unsolved, Some(&state.db)),
            });
            return Ok(finish(out, &rules, &pos, "database", t));
        }
        let root = state.db.clone();
        let key = format!("{} {} {}", rules.label(), sector.key(), root.display());
        let sol = state
            .merels
            .get(key, || Solution::around(rules, root, &st).map_err(|e| e.to_string()))
            .map_err(ApiError::internal)?;
        (probe_json(&rules, &pos, &sol)?, "database")
    };
    // Each rated action's parts and where it leads, in the same order.
    let rated: Vec<(Throw, Action, Position)> = if lost { Vec::new() } else { actions_in_order(&rules, &pos, &out) };
    if let Some(moves) = out["moves"].as_array_mut() {
        for (m, (_, a, next)) in moves.iter_mut().zip(&rated) {
            let parts = action_parts(*a, board);
            for (k, v) in parts.as_object().expect("object") {
                m[k] = v.clone();
            }
            m["next"] = json!(next.to_string());
        }
    }
    out["missing"] = Value::Null;
    Ok(finish(out, &rules, &pos, source, t))
}

/// The actions named in a probe's moves, found among the legal ones.
fn actions_in_order(rules: &Rules, pos: &Position, out: &Value) -> Vec<(Throw, Action, Position)> {
    let st = pos.state();
    let board = rules.board;
    let mut all = Vec::new();
    for (throw, _) in rules.throw_outcomes(&st) {
        for (a, child) in rules.actions(&st, throw) {
            all.push((throw, a, Position::from_state(pos.kind, pos.to_move.other(), child)));
        }
    }
    out["moves"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .filter_map(|m| {
                    all.iter()
                        .find(|(t, a, _)| {
                            json!(throw_name(*t)) == m["throw"]
                                && a.display(board).to_string() == m["move"].as_str().unwrap_or("")
                        })
                        .copied()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The legal actions without values (their sectors are not solved).
fn unrated(rules: &Rules, pos: &Position) -> Value {
    let st = pos.state();
    let board = rules.board;
    let mut moves = Vec::new();
    if !rules.lost(&st) {
        for (throw, _) in rules.throw_outcomes(&st) {
            for (a, child) in rules.actions(&st, throw) {
                let mut m = action_parts(a, board);
                m["move"] = json!(a.display(board).to_string());
                m["throw"] = json!(throw_name(throw));
                m["next"] = json!(Position::from_state(pos.kind, pos.to_move.other(), child).to_string());
                moves.push(m);
            }
        }
    }
    // The value's fields are there, empty: an answer keeps its shape.
    json!({
        "position": pos.to_string(),
        "side": pos.to_move.to_string(),
        "rules": rules.label(),
        "moves": moves,
        "value": null,
        "exact": null,
        "outcome": null,
        "plies": null,
        "lower": null,
        "upper": null,
        "error_bound": null,
    })
}

/// What every probe answer adds: the rules' options, the throws and their
/// chances, whether the game is over, the board.
fn finish(mut out: Value, rules: &Rules, pos: &Position, source: &str, t: Instant) -> Value {
    let st = pos.state();
    let lost = rules.lost(&st);
    out["board"] = json!(rules.board.kind.name());
    out["diagonals"] = json!(rules.board.diagonals);
    out["dice"] = json!(rules.dice.name());
    out["options"] = json!(rule_options(rules));
    out["query"] = json!(rule_query(rules));
    out["hand"] = json!({ "x": pos.hand[0], "o": pos.hand[1] });
    out["over"] = json!(lost);
    out["winner"] = json!(lost.then(|| pos.to_move.other().to_string()));
    out["throws"] = json!(if lost {
        Vec::new()
    } else {
        rules
            .throw_outcomes(&st)
            .into_iter()
            .map(|(t, p)| json!({ "throw": throw_name(t), "probability": p as f64 / 72.0, "in_72": p }))
            .collect::<Vec<_>>()
    });
    out["source"] = json!(source);
    out["seconds"] = json!(t.elapsed().as_secs_f64());
    out
}

async fn probe(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let p = Params::new(q, &POSITION_PARAMS)?;
    let (rules, pos) = resolve(&p)?;
    let out = blocking(move || explore(&state, rules, pos)).await?;
    Ok(Json(out))
}
