//! Reading requests: query parameters checked against the names a call
//! takes, and the error every API call answers with.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::CliError;

/// An API error: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }

    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<CliError> for ApiError {
    fn from(e: CliError) -> ApiError {
        ApiError::bad(e.0)
    }
}

macro_rules! bad_request {
    ($($t:ty),* $(,)?) => {$(
        impl From<$t> for ApiError {
            fn from(e: $t) -> ApiError {
                ApiError::bad(e.to_string())
            }
        }
    )*};
}

crate::error::library_errors!(bad_request);

impl From<String> for ApiError {
    fn from(e: String) -> ApiError {
        ApiError::bad(e)
    }
}

impl From<&str> for ApiError {
    fn from(e: &str) -> ApiError {
        ApiError::bad(e)
    }
}

pub type ApiResult<T> = std::result::Result<T, ApiError>;

/// A call's query parameters, each name at most once and known to the call.
pub struct Params(BTreeMap<String, String>);

impl Params {
    /// Checks the query against the names the call takes.
    pub fn new(query: Result<Query<Vec<(String, String)>>, QueryRejection>, known: &[&str]) -> ApiResult<Params> {
        let Query(pairs) = query.map_err(|e| ApiError::bad(format!("unreadable query: {}", e.body_text())))?;
        let mut map = BTreeMap::new();
        for (k, v) in pairs {
            if !known.contains(&k.as_str()) {
                return Err(ApiError::bad(format!("unknown parameter '{k}' (this call takes: {})", known.join(", "))));
            }
            if map.insert(k.clone(), v).is_some() {
                return Err(ApiError::bad(format!("parameter '{k}' given twice")));
            }
        }
        Ok(Params(map))
    }

    /// A parameter's text, `None` when absent or empty (an empty parameter
    /// counts as absent).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|s| s.trim()).filter(|s| !s.is_empty())
    }

    /// A flag: absent, `false` or `0` is off; present empty, `true` or `1` is on.
    pub fn flag(&self, name: &str) -> ApiResult<bool> {
        match self.0.get(name).map(|s| s.trim()) {
            None | Some("false" | "0") => Ok(false),
            Some("" | "true" | "1") => Ok(true),
            Some(other) => Err(ApiError::bad(format!("parameter '{name}' is '{other}': expected true or false"))),
        }
    }

    /// A named value (a rule, a preset), `None` when absent; a name that is
    /// not one is refused with what the type's parser says.
    pub fn parsed<T: std::str::FromStr<Err: std::fmt::Display>>(&self, name: &str) -> ApiResult<Option<T>> {
        self.get(name)
            .map(|text| text.parse::<T>().map_err(|e| ApiError::bad(format!("parameter '{name}': {e}"))))
            .transpose()
    }

    /// A number within bounds, or the default when absent.
    pub fn number<T>(&self, name: &str, default: T, lo: T, hi: T) -> ApiResult<T>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let Some(text) = self.get(name) else { return Ok(default) };
        text.parse::<T>().ok().filter(|v| *v >= lo && *v <= hi).ok_or_else(|| {
            ApiError::bad(format!("parameter '{name}' is '{text}': expected a number from {lo} to {hi}"))
        })
    }

    /// A comma-separated list (moves), at most `most` items; empty or absent
    /// is no item, and an empty item is refused.
    pub fn list(&self, name: &str, most: usize) -> ApiResult<Vec<String>> {
        let items: Vec<String> =
            self.get(name).map(|s| s.split(',').map(|m| m.trim().to_string()).collect()).unwrap_or_default();
        if items.iter().any(String::is_empty) {
            return Err(ApiError::bad(format!(
                "parameter '{name}': an empty item (two commas in a row, or a comma at an end)"
            )));
        }
        if items.len() > most {
            return Err(ApiError::bad(format!(
                "parameter '{name}' lists {} items; at most {most} are accepted",
                items.len()
            )));
        }
        Ok(items)
    }
}

/// A JSON body, or why not in the API's words: 413 and 415 as the body
/// came, any other fault (not JSON, or not the shape the call takes) a 400
/// that says `what` was expected.
pub fn json_body<T>(body: Result<Json<T>, JsonRejection>, what: &str) -> ApiResult<T> {
    match body {
        Ok(Json(v)) => Ok(v),
        Err(e) if matches!(e.status(), StatusCode::PAYLOAD_TOO_LARGE | StatusCode::UNSUPPORTED_MEDIA_TYPE) => {
            Err(ApiError::new(e.status(), e.body_text()))
        }
        Err(e) => {
            let text = e.body_text();
            let detail = [
                "Failed to deserialize the JSON body into the target type: ",
                "Failed to parse the request body as JSON: ",
            ]
            .iter()
            .find_map(|p| text.strip_prefix(p))
            .unwrap_or(&text)
            .to_string();
            Err(ApiError::bad(format!("the body must be {what}: {detail}")))
        }
    }
}

/// Runs blocking work (solving, searching, reading databases) off the
/// threads that answer requests.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::internal(format!("the work failed: {e}")))?
}
