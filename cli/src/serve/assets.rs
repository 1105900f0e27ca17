//! The pages, embedded in the binary: nothing is read from disk, so no
//! request can reach a file outside this table.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::AppState;
use super::params::ApiError;

/// Every file the server hands out: name, content type, content.
const FILES: &[(&str, &str, &str)] = &[
    ("index.html", "text/html; charset=utf-8", include_str!("static/index.html")),
    ("merels.html", "text/html; charset=utf-8", include_str!("static/merels.html")),
    ("rithmo.html", "text/html; charset=utf-8", include_str!("static/rithmo.html")),
    ("match.html", "text/html; charset=utf-8", include_str!("static/match.html")),
    ("style.css", "text/css; charset=utf-8", include_str!("static/style.css")),
    ("common.js", "text/javascript; charset=utf-8", include_str!("static/common.js")),
    ("merels.js", "text/javascript; charset=utf-8", include_str!("static/merels.js")),
    ("rithmo.js", "text/javascript; charset=utf-8", include_str!("static/rithmo.js")),
    ("match.js", "text/javascript; charset=utf-8", include_str!("static/match.js")),
    ("icon.svg", "image/svg+xml", include_str!("static/icon.svg")),
];

fn file(name: &str) -> Response {
    match FILES.iter().find(|f| f.0 == name) {
        Some((_, kind, body)) => {
            ([(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => ApiError::not_found(format!("no file '{name}'")).into_response(),
    }
}

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { file("index.html") }))
        .route("/merels", get(|| async { file("merels.html") }))
        .route("/rithmo", get(|| async { file("rithmo.html") }))
        .route("/match", get(|| async { file("match.html") }))
        // Browsers ask for it whatever the pages say.
        .route("/favicon.ico", get(|| async { file("icon.svg") }))
        .route("/static/{name}", get(|Path(name): Path<String>| async move { file(&name) }))
}
