//! HTTP plumbing: the response body (whole or streamed), JSON and `Status` responses, media
//! types and the negotiation errors (which `Accept` wins is [`super::table::negotiate`]).
//! Upstream: apiserver `pkg/endpoints/handlers/negotiation/errors.go`,
//! `responsewriters/writers.go`.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use hyper::{Response, StatusCode};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::apiserver::status::Status;

/// The media types request bodies may use.
pub const ACCEPTED_BODY_TYPES: &str = "application/json, application/vnd.kubernetes.protobuf";

/// `genericapiserver` `DefaultMaxRequestSizeBytes` (3 MiB) bounds a request body.
pub const MAX_BODY_BYTES: usize = 3 * 1024 * 1024;

/// A response body: all at once, or frames as they come (watches, the live feed).
pub enum ServeBody {
    Full(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
}

impl Body for ServeBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            ServeBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            ServeBody::Stream(rx) => rx.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, ServeBody::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ServeBody::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            ServeBody::Full(None) => SizeHint::with_exact(0),
            ServeBody::Stream(_) => SizeHint::default(),
        }
    }
}

pub type Resp = Response<ServeBody>;

fn build(code: u16, content_type: &str, body: Bytes, headers: &[(String, String)]) -> Resp {
    let mut r = Response::new(ServeBody::Full(Some(body)));
    *r.status_mut() = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    if let Ok(v) = content_type.parse() {
        h.insert(hyper::header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-cache, private".parse() {
        h.insert(hyper::header::CACHE_CONTROL, v);
    }
    for (k, v) in headers {
        if let (Ok(k), Ok(v)) = (hyper::header::HeaderName::from_bytes(k.as_bytes()), v.parse()) {
            h.insert(k, v);
        }
    }
    r
}

pub fn json(code: u16, v: &Value, headers: &[(String, String)]) -> Resp {
    build(code, "application/json", Bytes::from(v.to_string()), headers)
}

pub fn text(code: u16, content_type: &str, body: impl Into<Bytes>) -> Resp {
    build(code, content_type, body.into(), &[])
}

/// A `Status` response, with `Retry-After` when the Status carries `retryAfterSeconds`.
pub fn status(s: &Status) -> Resp {
    let headers: Vec<(String, String)> =
        s.retry_after().map(|r| vec![("Retry-After".to_string(), r.to_string())]).unwrap_or_default();
    json(s.code(), &s.to_json(), &headers)
}

/// A streamed response (`Transfer-Encoding: chunked`).
pub fn stream(content_type: &str, rx: mpsc::Receiver<Bytes>) -> Resp {
    let mut r = Response::new(ServeBody::Stream(rx));
    if let Ok(v) = content_type.parse() {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-cache, private".parse() {
        r.headers_mut().insert(hyper::header::CACHE_CONTROL, v);
    }
    r
}

/// `errUnsupportedMediaType` (negotiation/errors.go): 415 UnsupportedMediaType.
pub fn unsupported_media_type() -> Status {
    Status::failure(
        415,
        "UnsupportedMediaType",
        format!(
            "the body of the request was in an unknown format - accepted media types include: {ACCEPTED_BODY_TYPES}"
        ),
        None,
    )
}

/// The 415 of `handlers/patch.go` for a Content-Type that is no patch type; the list is the
/// route's `supportedTypes` in `apiserver/pkg/endpoints/installer.go` (CBOR apply not modelled).
pub fn unsupported_patch_type() -> Status {
    Status::failure(
        415,
        "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml",
        None,
    )
}

/// `errNotAcceptable` (negotiation/errors.go): 406 NotAcceptable.
pub fn not_acceptable() -> Status {
    Status::failure(
        406,
        "NotAcceptable",
        "only the following media types are accepted: application/json",
        None,
    )
}

/// `NewRequestEntityTooLargeError` for a body over [`MAX_BODY_BYTES`].
pub fn too_large() -> Status {
    Status::failure(
        413,
        "RequestEntityTooLarge",
        format!("Request entity too large: limit is {MAX_BODY_BYTES}"),
        None,
    )
}

/// The media type of a `Content-Type` value, lower-cased, without parameters.
pub fn media_type(v: &str) -> String {
    v.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}
