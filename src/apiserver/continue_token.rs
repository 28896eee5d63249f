//! Continue tokens (spec §D): `storage.EncodeContinue` / `storage.DecodeContinue`.
//!
//! Owns the token format — `base64.RawURLEncoding` of compact JSON
//! `{"v":"meta.k8s.io/v1","rv":<int64>,"start":"<key suffix>"}` — and every decode error with
//! its exact message. Those messages embed Go's `encoding/base64` and `encoding/json` error
//! texts, emulated in [`super::go`].

use super::go::json::{self, GoType, GoValue, key_matches, parse, store};
use super::go::strconv::go_parse_int;
use super::status::Status;

/// The only token version the apiserver understands.
pub const TOKEN_VERSION: &str = "meta.k8s.io/v1";

/// A decoded continue token. `start` is the key suffix relative to the list's key prefix,
/// including the trailing `"\u{0}"`; `rv` may be negative (continue at the latest revision).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken {
    pub rv: i64,
    pub start: String,
}

/// Why a continue token was rejected. `Display` is the message after `invalid continue token: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContinueError {
    /// Not RawURL base64; carries the offending byte index.
    #[error("continue key is not valid: illegal base64 data at input byte {0}")]
    Base64(usize),
    /// Not JSON (or JSON of the wrong shape); carries Go's `encoding/json` error text.
    #[error("continue key is not valid: {0}")]
    Json(String),
    /// `v` is not `meta.k8s.io/v1` (including empty).
    #[error("continue key is not valid: server does not recognize this encoded version {0}")]
    UnrecognizedVersion(String),
    /// `rv` is 0 or missing.
    #[error("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")]
    InvalidStartRv,
    /// `start` is empty.
    #[error("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)")]
    EmptyStartKey,
    /// `"/" + start` is not a clean path (`..`, `.`, `//`, trailing `/`).
    #[error("continue key is not valid: {0}")]
    InvalidKey(String),
}

impl From<ContinueError> for Status {
    /// §D: 400 BadRequest `invalid continue token: <error>`.
    fn from(e: ContinueError) -> Status {
        Status::bad_request(&format!("invalid continue token: {e}"))
    }
}

impl ContinueToken {
    /// A token continuing after `last_key` (a full etcd key under `key_prefix`) at `rv`:
    /// `start` = `last_key` + NUL with the prefix stripped. `None` if the key is not under the prefix.
    pub fn after_key(last_key: &str, key_prefix: &str, rv: i64) -> Option<ContinueToken> {
        let rest = last_key.strip_prefix(key_prefix)?;
        if rest.len() == last_key.len() {
            return None;
        }
        Some(ContinueToken { rv, start: format!("{rest}\u{0}") })
    }

    /// `storage.EncodeContinue`: RawURL base64 of `{"v":"meta.k8s.io/v1","rv":..,"start":".."}`
    /// with Go's JSON string escaping.
    pub fn encode(&self) -> String {
        let json = format!(
            "{{\"v\":{},\"rv\":{},\"start\":{}}}",
            json::encode_string(TOKEN_VERSION),
            self.rv,
            json::encode_string(&self.start)
        );
        go_base64_encode(json.as_bytes())
    }

    /// `storage.DecodeContinue` minus the prefix joining (see [`ContinueToken::start_key`]).
    pub fn decode(token: &str) -> Result<ContinueToken, ContinueError> {
        let data = go_base64_decode(token.as_bytes()).map_err(ContinueError::Base64)?;
        let (v, rv, start) = decode_continue_token(&data).map_err(ContinueError::Json)?;
        if v != TOKEN_VERSION {
            return Err(ContinueError::UnrecognizedVersion(v));
        }
        if rv == 0 {
            return Err(ContinueError::InvalidStartRv);
        }
        if start.is_empty() {
            return Err(ContinueError::EmptyStartKey);
        }
        let key = if start.starts_with('/') { start.clone() } else { format!("/{start}") };
        if go_path_clean(&key) != key {
            return Err(ContinueError::InvalidKey(start));
        }
        Ok(ContinueToken { rv, start })
    }

    /// The full etcd key to continue from: `key_prefix` + `start` (leading `/` removed, as
    /// `keyPrefix + cleaned[1:]` does).
    pub fn start_key(&self, key_prefix: &str) -> String {
        let rel = self.start.strip_prefix('/').unwrap_or(&self.start);
        format!("{key_prefix}{rel}")
    }
}

pub use super::go::base64::{go_base64_decode, go_base64_encode};
pub use super::go::path::go_path_clean;

/// `json.Unmarshal` into `storage.continueToken{v string; rv int64; start string}`.
fn decode_continue_token(data: &[u8]) -> Result<(String, i64, String), String> {
    let v = parse(data)?;
    let members = match v {
        GoValue::Null => return Ok((String::new(), 0, String::new())),
        GoValue::Object(m) => m,
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type storage.continueToken",
                other.type_word()
            ));
        }
    };
    let (mut ver, mut rv, mut start) = (String::new(), 0i64, String::new());
    let mut first_err: Option<String> = None;
    for (key, val) in &members {
        let (name, ty) = if key_matches(key, "v") {
            ("v", GoType::String)
        } else if key_matches(key, "rv") {
            ("rv", GoType::Int64)
        } else if key_matches(key, "start") {
            ("start", GoType::String)
        } else {
            continue;
        };
        match store(val, ty) {
            Ok(None) => {}
            Ok(Some(GoValue::Str(s))) if name == "v" => ver = s,
            Ok(Some(GoValue::Str(s))) => start = s,
            Ok(Some(GoValue::Number(n))) => {
                rv = go_parse_int(&n).unwrap_or(0);
            }
            Ok(Some(_)) => {}
            Err(word) => {
                if first_err.is_none() {
                    let tyname = match ty {
                        GoType::String => "string",
                        GoType::Int64 => "int64",
                    };
                    first_err = Some(format!(
                        "json: cannot unmarshal {word} into Go struct field continueToken.{name} of type {tyname}"
                    ));
                }
            }
        }
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok((ver, rv, start)),
    }
}
