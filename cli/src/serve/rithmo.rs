//! The Rithmomachia analysis board's API: a game from a position and the
//! moves played, with every legal move and why it is legal, the board as
//! SVG; and the engine's analyses, run on blocking threads with a time cap
//! and read while they run.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::rithmo::{Game, Limits, Position, Preset, RuleSet, Searcher, Status, Victory, render};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::params::{ApiError, ApiResult, Params, json_body};
use crate::common::parse_depth;
use crate::rithmo::{PositionArgs, game_json, info_json};

/// The most moves a request may replay.
const MAX_MOVES: usize = 2000;
/// The longest analysis, in milliseconds.
pub const MAX_MOVETIME: u64 = 60_000;
/// The engine's table per analysis, in MiB.
const HASH_MIB: usize = 16;
/// Analyses remembered (finished ones are forgotten first).
const KEEP_JOBS: usize = 32;

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/rithmo/position", get(position))
        .route("/rithmo/analyse", post(analyse))
        .route("/rithmo/analysis/{id}", get(analysis))
        .route("/rithmo/analysis/{id}/stop", post(stop))
}

/// A game: the rules, the start and the moves played since.
fn replay(fen: Option<&str>, preset: Option<&str>, victory: Option<&str>, moves: &[String]) -> ApiResult<Game> {
    let args = PositionArgs {
        fen: fen.map(str::to_string),
        rules: preset.unwrap_or("common").parse::<Preset>()?,
        victory: victory.map(str::parse::<Victory>).transpose()?,
    };
    let (start, rules) = args.resolve()?;
    if moves.len() > MAX_MOVES {
        return Err(ApiError::bad(format!("{} moves given; at most {MAX_MOVES} are accepted", moves.len())));
    }
    let mut game = Game::new(start, rules);
    for (i, text) in moves.iter().enumerate() {
        let bad = |e: engine::rithmo::MoveError| ApiError::bad(format!("move {} ({text}): {e}", i + 1));
        let m = game.position().parse_move(text, &rules).map_err(bad)?;
        game.play(m).map_err(bad)?;
    }
    Ok(game)
}

/// The game's position with everything the board shows: what `ludus
/// rithmo show --json` prints, and the picture.
fn position_json(game: &Game) -> Value {
    let mut v = game_json(game);
    v["svg"] = json!(render::svg(game.position()));
    v
}

async fn position(q: Result<Query<Vec<(String, String)>>, QueryRejection>) -> ApiResult<Json<Value>> {
    let p = Params::new(q, &["fen", "rules", "victory", "moves"])?;
    let moves = p.list("moves", MAX_MOVES)?;
    let (fen, rules, victory) =
        (p.get("fen").map(str::to_string), p.get("rules").map(str::to_string), p.get("victory").map(str::to_string));
    // Move generation over a long game is quick but not free: off the
    // request threads too.
    let out = super::params::blocking(move || {
        let game = replay(fen.as_deref(), rules.as_deref(), victory.as_deref(), &moves)?;
        Ok(position_json(&game))
    })
    .await?;
    Ok(Json(out))
}

/// An analysis request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    fen: Option<String>,
    rules: Option<String>,
    victory: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// Milliseconds (default 5000, at most [`MAX_MOVETIME`]).
    movetime: Option<u64>,
    depth: Option<u32>,
}

/// One analysis: the iterations so far, the result once done.
struct Job {
    id: u64,
    lines: Vec<Value>,
    result: Option<Value>,
    stop: Arc<AtomicBool>,
}

/// The analyses running and recently finished, and how many may run.
pub struct Analyses {
    jobs: Mutex<VecDeque<Arc<Mutex<Job>>>>,
    next_id: AtomicU64,
    running: Arc<AtomicUsize>,
    most: usize,
}

impl Analyses {
    pub fn new(most: usize) -> Analyses {
        Analyses { jobs: Mutex::default(), next_id: AtomicU64::new(1), running: Arc::default(), most }
    }

    fn find(&self, id: u64) -> Option<Arc<Mutex<Job>>> {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.iter().find(|j| j.lock().unwrap_or_else(|e| e.into_inner()).id == id).cloned()
    }
}

/// Frees a search slot when the search ends, however it ends.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn analyse(
    State(state): State<Arc<AppState>>,
    body: Result<Json<AnalyseRequest>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let req = json_body(
        body,
        "a JSON object with any of fen, rules, victory (text), moves (a list of text), movetime (milliseconds) and depth",
    )?;
    let movetime = req.movetime.unwrap_or(5000);
    if !(1..=MAX_MOVETIME).contains(&movetime) {
        return Err(ApiError::bad(format!("movetime {movetime} ms: choose from 1 to {MAX_MOVETIME}")));
    }
    if let Some(d) = req.depth {
        parse_depth(&d.to_string()).map_err(|e| ApiError::bad(format!("depth: {e}")))?;
    }
    let game = replay(req.fen.as_deref(), req.rules.as_deref(), req.victory.as_deref(), &req.moves)?;
    if game.status() != Status::Ongoing {
        return Err(ApiError::bad(format!("nothing to analyse: {}", game.status())));
    }
    let a = &state.rithmo;
    if a.running.fetch_add(1, Ordering::SeqCst) >= a.most {
        a.running.fetch_sub(1, Ordering::SeqCst);
        return Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            format!("the engine is busy with {} analyses; try again when one ends", a.most),
        ));
    }
    let slot = Slot(a.running.clone());
    let id = a.next_id.fetch_add(1, Ordering::SeqCst);
    let rules: RuleSet = game.rules;
    let mut searcher = Searcher::new(rules, HASH_MIB);
    let stop = searcher.stop_flag();
    let job = Arc::new(Mutex::new(Job { id, lines: Vec::new(), result: None, stop }));
    {
        let mut jobs = a.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.push_back(job.clone());
        while jobs.len() > KEEP_JOBS {
            let done = jobs.iter().position(|j| j.lock().unwrap_or_else(|e| e.into_inner()).result.is_some());
            match done {
                Some(i) => jobs.remove(i),
                None => jobs.pop_front(),
            };
        }
    }
    let pos: Position = *game.position();
    let side = pos.side_to_move();
    let history = game.hashes();
    let limits = Limits { depth: req.depth, movetime: Some(Duration::from_millis(movetime)), nodes: None };
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let result = searcher.search(&pos, &history, limits, |i| {
            job.lock().unwrap_or_else(|e| e.into_inner()).lines.push(info_json(i, side));
        });
        let mut v = info_json(&result, side);
        v["best_move"] = json!(result.pv.first().map(|m| m.to_string()));
        job.lock().unwrap_or_else(|e| e.into_inner()).result = Some(v);
    });
    Ok(Json(json!({ "id": id, "movetime": movetime })))
}

fn job_id(id: Result<Path<String>, PathRejection>) -> ApiResult<u64> {
    let Path(text) = id.map_err(|e| ApiError::bad(e.body_text()))?;
    text.parse().map_err(|_| ApiError::bad(format!("'{text}' is not an analysis number")))
}

fn job_json(job: &Job) -> Value {
    json!({
        "id": job.id,
        "running": job.result.is_none(),
        "lines": job.lines,
        "result": job.result,
    })
}

async fn analysis(
    State(state): State<Arc<AppState>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<Json<Value>> {
    let id = job_id(id)?;
    let job = state
        .rithmo
        .find(id)
        .ok_or_else(|| ApiError::not_found(format!("no analysis {id} (finished ones are forgotten after a while)")))?;
    let out = job_json(&job.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Json(out))
}

async fn stop(State(state): State<Arc<AppState>>, id: Result<Path<String>, PathRejection>) -> ApiResult<Json<Value>> {
    let id = job_id(id)?;
    let job = state.rithmo.find(id).ok_or_else(|| ApiError::not_found(format!("no analysis {id}")))?;
    let job = job.lock().unwrap_or_else(|e| e.into_inner());
    job.stop.store(true, Ordering::SeqCst);
    Ok(Json(job_json(&job)))
}
