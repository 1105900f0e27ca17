//! The match viewer's API: one game of an arena record (`ludus arena
//! --record`), replayed into the position after every ply.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::routing::post;
use axum::{Json, Router};
use engine::merels::Position;
use engine::rithmo::{self, Move, Status};
use serde_json::{Value, json};

use super::AppState;
use super::merels::rule_query;
use super::params::{ApiError, ApiResult};
use crate::arena::{merels_rules_from_json, rithmo_rules_from_json};
use crate::merels_args::play_moves;
use crate::replay::{merels_outcomes, result_holds, rithmo_outcome};

/// The most plies a replayed game may have.
const MAX_PLIES: usize = 20_000;

pub fn routes() -> Router<Arc<AppState>> {
    Router::new().route("/match/replay", post(replay))
}

async fn replay(body: Result<Json<Value>, JsonRejection>) -> ApiResult<Json<Value>> {
    let record: Value = super::params::json_body(body, "a game record (one line of `ludus arena --record`)")?;
    if !record.is_object() {
        return Err(ApiError::bad(
            "the body must be a game record (one line of `ludus arena --record`): a JSON object",
        ));
    }
    let out = super::params::blocking(move || frames(&record)).await?;
    Ok(Json(out))
}

/// The positions of a recorded game, the start first.
fn frames(record: &Value) -> ApiResult<Value> {
    let moves: Vec<String> = record["moves"]
        .as_array()
        .ok_or("the record has no list of moves")?
        .iter()
        .map(|m| m.as_str().map(str::to_string).ok_or_else(|| ApiError::bad(format!("move {m} is not text"))))
        .collect::<ApiResult<_>>()?;
    if moves.len() > MAX_PLIES {
        return Err(ApiError::bad(format!("{} plies; at most {MAX_PLIES} are replayed", moves.len())));
    }
    let mut out = json!({
        "game": record["game"],
        "index": record["index"],
        "seed": record["seed"],
        "first": record["first"],
        "a": record["a"],
        "b": record["b"],
        "result": record["result"],
        "winner": record["winner"],
        "ply_limit": record["ply_limit"],
    });
    let mut frames = Vec::new();
    match record["game"].as_str() {
        Some("rota" | "merels") => {
            let rules = merels_rules_from_json(&record["rules"])?;
            let mut pos = Position::start(rules.board.kind);
            frames.push(json!({ "ply": 0, "position": pos.to_string() }));
            for (i, m) in moves.iter().enumerate() {
                let mover = pos.to_move;
                pos = play_moves(pos, std::slice::from_ref(m), &rules)
                    .map_err(|e| ApiError::bad(format!("ply {}: {e}", i + 1)))?;
                frames
                    .push(json!({ "ply": i + 1, "move": m, "mover": mover.to_string(), "position": pos.to_string() }));
            }
            result_holds(record, moves.len(), &merels_outcomes(rules, &pos)).map_err(ApiError::bad)?;
            out["rules"] = json!(rules.label());
            out["board"] = json!(rules.board.kind.name());
            out["diagonals"] = json!(rules.board.diagonals);
            out["query"] = json!(rule_query(&rules));
        }
        Some("rithmo") => {
            let (rules, start) = rithmo_rules_from_json(&record["rules"])?;
            let mut game = rithmo::Game::new(start, rules);
            frames.push(json!({ "ply": 0, "position": start.to_string() }));
            for (i, m) in moves.iter().enumerate() {
                let mover = game.position().side_to_move();
                let mv: Move = m
                    .parse()
                    .map_err(|e: engine::rithmo::ParseMoveError| ApiError::bad(format!("ply {}: {e}", i + 1)))?;
                game.play(mv).map_err(|e| ApiError::bad(format!("ply {}: {e}", i + 1)))?;
                frames.push(json!({
                    "ply": i + 1,
                    "move": m,
                    "mover": mover.name(),
                    "position": game.position().to_string(),
                }));
            }
            result_holds(record, moves.len(), &[rithmo_outcome(rules, start, &game)]).map_err(ApiError::bad)?;
            out["rules"] = json!(rules.name);
            out["victory"] = json!(rules.victory.to_string());
            if game.status() != Status::Ongoing {
                out["status"] = json!(game.status().to_string());
            }
        }
        other => {
            return Err(ApiError::bad(format!("unknown game {}", other.map_or("(none)".into(), |g| format!("'{g}'")))));
        }
    }
    out["frames"] = json!(frames);
    Ok(out)
}
