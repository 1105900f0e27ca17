//! `ludus serve`: a local web server with a board in the browser for every
//! game — the merels and Rota explorer over the solver's values, the
//! Rithmomachia analysis board with the engine beside it, and the viewer of
//! arena records — and the JSON API under `/api/` that the pages use.
//!
//! The pages are plain HTML, CSS and JavaScript embedded in the binary.
//! Every request is checked: bad input gets a 400 with a message, bodies and
//! query strings are bounded, and solving and searching run on blocking
//! threads with time caps, never on the threads that answer requests.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use clap::Args;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::TimeoutLayer;

use crate::error::{CliError, Result};

mod assets;
mod merels;
mod params;
mod record;
mod rithmo;

pub use params::ApiError;

/// The longest request body accepted (a game record, an analysis request).
pub const MAX_BODY: usize = 1 << 20;
/// The longest path and query string accepted.
pub const MAX_URI: usize = 16 << 10;
/// The longest any request may take (solving six men's morris under dice
/// takes seconds; reading a sector of nine men's morris may take longer).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(300);

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; only this machine can connect by default
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Directory of the merels databases (`ludus merels solve --db`), read
    /// for the boards too big to solve on demand
    #[arg(long, value_name = "DIR", default_value = crate::merels_args::DEFAULT_DB, value_parser = crate::merels_args::parse_db_dir)]
    db: PathBuf,
    /// Engine analyses that may run at once (more are refused until one ends)
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    searches: u16,
}

/// What every handler shares.
pub struct AppState {
    pub db: PathBuf,
    pub merels: merels::Solved,
    pub rithmo: rithmo::Analyses,
}

/// The whole application: pages, API and the limits around them.
pub fn app(db: PathBuf, searches: usize) -> Router {
    let state = Arc::new(AppState { db, merels: merels::Solved::default(), rithmo: rithmo::Analyses::new(searches) });
    let calls = Router::new()
        .merge(assets::routes())
        .nest("/api", merels::routes().merge(rithmo::routes()).merge(record::routes()))
        .fallback(|| async { ApiError::not_found("no such page or API call") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this call takes another method (the README lists each call's)",
            )
        })
        .with_state(state);
    // The layers of a router wrap each of its calls; the method's name
    // needs the `Allow` header the router adds around them.
    Router::new()
        .fallback_service(calls)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(name_the_method))
        .layer(middleware::from_fn(bounded_request))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, REQUEST_TIMEOUT))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error: the request failed").into_response()
        }))
}

/// A call made with the wrong method is told the one it takes (the router
/// names it in the `Allow` header of its 405).
async fn name_the_method(req: Request, next: Next) -> Response {
    let used = req.method().clone();
    let res = next.run(req).await;
    if res.status() != StatusCode::METHOD_NOT_ALLOWED {
        return res;
    }
    let allow = res.headers().get(axum::http::header::ALLOW).and_then(|v| v.to_str().ok()).map(str::to_string);
    let Some(allow) = allow else { return res };
    let mut named = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("this call takes {}, not {used}", allow.replace(',', ", ")),
    )
    .into_response();
    if let Ok(v) = axum::http::HeaderValue::from_str(&allow) {
        named.headers_mut().insert(axum::http::header::ALLOW, v);
    }
    named
}

/// Refuses a path and query longer than [`MAX_URI`], and a body declared
/// longer than [`MAX_BODY`] before any of it is read (a body without a
/// declared length is cut at the limit by [`DefaultBodyLimit`]).
async fn bounded_request(req: Request, next: Next) -> Response {
    let len = req.uri().path().len() + req.uri().query().map_or(0, str::len);
    if len > MAX_URI {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the address is {len} bytes long; at most {MAX_URI} are accepted"),
        )
        .into_response();
    }
    let declared =
        req.headers().get(axum::http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(body) = declared.filter(|&b| b > MAX_BODY as u64) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is {body} bytes long; at most {MAX_BODY} are accepted"),
        )
        .into_response();
    }
    next.run(req).await
}

pub fn run(args: ServeArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError(format!("cannot start the server: {e}")))?;
    let served = runtime.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| CliError(format!("cannot listen on {addr}: {e}")))?;
        let local = listener.local_addr()?;
        let host = if local.is_ipv6() { format!("[{}]", local.ip()) } else { local.ip().to_string() };
        println!(
            "ludus serve: http://{host}:{}/ (merels databases in {}; Ctrl-C stops)",
            local.port(),
            args.db.display()
        );
        use std::io::Write;
        std::io::stdout().flush()?;
        axum::serve(listener, app(args.db, args.searches as usize))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| CliError(format!("the server stopped: {e}")))
    });
    // Searches still running in the background end with the program, not
    // after their time.
    runtime.shutdown_background();
    served
}
