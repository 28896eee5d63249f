//! HTTP plumbing: the connection's limits and what net/http answers a request it cannot read,
//! the response body (whole or streamed), JSON and `Status` responses, media types and the
//! negotiation errors (which `Accept` wins is [`super::table::negotiate`]).
//! Upstream: Go `net/http/server.go` (`conn.serve`, `MaxHeaderBytes`), apiserver
//! `pkg/server/secure_serving.go` (the limits kube-apiserver sets),
//! `pkg/endpoints/handlers/negotiation/errors.go`, `responsewriters/writers.go`.

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

/// `http.Server.MaxHeaderBytes` as kube-apiserver sets it: `1 << 20`
/// (`staging/src/k8s.io/apiserver/pkg/server/secure_serving.go`, `SecureServingInfo.Serve`).
pub const MAX_HEADER_BYTES: usize = 1 << 20;

/// net/http reads a request head through a reader limited to `MaxHeaderBytes + 4096` ("bufio
/// slop", `Server.initialReadLimitSize`); a head that does not end within it is answered 431.
pub const HEADER_READ_LIMIT: usize = MAX_HEADER_BYTES + 4096;

/// kube-apiserver's `ReadHeaderTimeout: 32 * time.Second` (secure_serving.go): a connection
/// that has not sent a whole request head by then is closed without an answer.
pub const READ_HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(32);

/// Header fields per request head. Go counts only bytes; hyper also needs a count: a head with
/// more fields than this (each at least 4 bytes) is answered like an oversized one, 431.
pub const MAX_HEADERS: usize = 1024;

/// What net/http writes, before closing, when it cannot read a request (`conn.serve` in
/// `net/http/server.go`): `"HTTP/1.1 " + publicErr + errorHeaders + publicErr`, where
/// `errorHeaders` is `Content-Type: text/plain; charset=utf-8` and `Connection: close`.
pub fn go_error_response(public_err: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {public_err}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n{public_err}"
    )
    .into_bytes()
}

/// net/http's answer to a request head over [`HEADER_READ_LIMIT`].
pub const HEADER_TOO_LARGE: &str = "431 Request Header Fields Too Large";
/// net/http's answer to a request line or header it cannot parse.
pub const BAD_REQUEST: &str = "400 Bad Request";

/// How far the first request head of a connection has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    /// The head is complete and well formed: hand the connection to the HTTP server.
    Complete,
    /// More bytes are needed.
    Partial,
    /// The request line or a header field cannot be parsed: [`BAD_REQUEST`].
    Bad,
    /// The head does not end within [`HEADER_READ_LIMIT`] or has more than [`MAX_HEADERS`]
    /// fields: [`HEADER_TOO_LARGE`].
    TooLarge,
}

/// Reads a connection's first request head and judges it as net/http would. The request line
/// is checked once it has ended and the whole head once its blank line has arrived, and only
/// new bytes are searched, so a client sending a byte at a time costs two parses in all.
#[derive(Debug, Default)]
pub struct HeadReader {
    buf: Vec<u8>,
    /// Bytes already searched for the end of the request line / of the head.
    scanned: usize,
    line_checked: bool,
}

impl HeadReader {
    /// Adds bytes read from the connection and says how far the head has come.
    pub fn feed(&mut self, data: &[u8]) -> Head {
        self.buf.extend_from_slice(data);
        let limit = self.buf.len().min(HEADER_READ_LIMIT);
        let from = self.scanned.saturating_sub(3);
        self.scanned = limit;
        if !self.line_checked {
            let Some(i) = self.buf[from..limit].iter().position(|b| *b == b'\n') else {
                return self.partial();
            };
            self.line_checked = true;
            // The request line alone, as a head with no fields.
            let line_end = from + i;
            let line = &self.buf[..line_end];
            let mut line = line.strip_suffix(b"\r").unwrap_or(line).to_vec();
            line.extend_from_slice(b"\r\n\r\n");
            if parse_head(&line).is_err() {
                return Head::Bad;
            }
        }
        let region = &self.buf[from..limit];
        let ended = region.windows(2).any(|w| w == b"\n\n") || region.windows(4).any(|w| w == b"\r\n\r\n");
        if !ended {
            return self.partial();
        }
        match parse_head(&self.buf[..limit]) {
            Ok(true) => Head::Complete,
            Ok(false) => self.partial(),
            Err(httparse::Error::TooManyHeaders) => Head::TooLarge,
            Err(_) => Head::Bad,
        }
    }

    fn partial(&self) -> Head {
        if self.buf.len() >= HEADER_READ_LIMIT { Head::TooLarge } else { Head::Partial }
    }

    /// The bytes read so far (the head and whatever followed it), for the HTTP server.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// Whether `bytes` hold a complete, well-formed request head (`Err`: it cannot be parsed).
fn parse_head(bytes: &[u8]) -> Result<bool, httparse::Error> {
    let mut headers = vec![httparse::EMPTY_HEADER; MAX_HEADERS];
    httparse::Request::new(&mut headers).parse(bytes).map(|s| s.is_complete())
}

/// A response body: all at once, or frames as they come (watches, the live feed), or a watch's
/// frames gzipped one member per flush (WatchListCompression), or chunks read as the client
/// takes them (the log, from its files) followed by frames as they come (the live feed).
pub enum ServeBody {
    Full(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
    Gzip(mpsc::Receiver<Bytes>),
    /// Chunks, then the frames of a stream; with the chunks' exact length (`Content-Length`)
    /// when there is no stream.
    Chunks(Box<dyn Iterator<Item = Bytes> + Send>, Option<mpsc::Receiver<Bytes>>, Option<u64>),
}

/// One complete gzip member of `data`: what `perFlushGzipWriter.Flush` writes (apiserver
/// `endpoints/handlers/watch.go`, 1.37 cycle) — it closes its `gzip.Writer` on every flush, so a
/// compressed watch is a sequence of gzip members, one per flush.
pub fn gzip_member(data: &[u8]) -> Bytes {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(data);
    Bytes::from(enc.finish().unwrap_or_default())
}

/// `responsewriters.ContentEncodingSupported`: gzip when the request's `Accept-Encoding` lists it.
pub fn accepts_gzip(accept_encoding: Option<&str>) -> bool {
    accept_encoding.is_some_and(|h| h.split(',').any(|e| e.split(';').next().unwrap_or("").trim() == "gzip"))
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
            ServeBody::Gzip(rx) => rx.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(gzip_member(&b))))),
            ServeBody::Chunks(chunks, then, _) => match chunks.next() {
                Some(b) => Poll::Ready(Some(Ok(Frame::data(b)))),
                None => match then {
                    Some(rx) => rx.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b)))),
                    None => Poll::Ready(None),
                },
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, ServeBody::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ServeBody::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            ServeBody::Full(None) => SizeHint::with_exact(0),
            ServeBody::Chunks(_, None, Some(len)) => SizeHint::with_exact(*len),
            ServeBody::Stream(_) | ServeBody::Gzip(_) | ServeBody::Chunks(..) => SizeHint::default(),
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
    stream_encoded(content_type, rx, false)
}

/// A body read a chunk at a time as the client takes it: of `len` bytes (`Content-Length`), or
/// followed by the frames of a stream (`then`; `Transfer-Encoding: chunked`).
pub fn chunks(
    code: u16,
    content_type: &str,
    chunks: impl Iterator<Item = Bytes> + Send + 'static,
    len: Option<u64>,
    then: Option<mpsc::Receiver<Bytes>>,
) -> Resp {
    let len = if then.is_some() { None } else { len };
    let mut r = Response::new(ServeBody::Chunks(Box::new(chunks), then, len));
    *r.status_mut() = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(v) = content_type.parse() {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-cache, private".parse() {
        r.headers_mut().insert(hyper::header::CACHE_CONTROL, v);
    }
    r
}

/// [`stream`], gzipped (`Content-Encoding: gzip`, `Vary: Accept-Encoding`, as
/// `watchResponseWriter.BeginStream` sets them for a compressed watch-list) when `gzip`.
pub fn stream_encoded(content_type: &str, rx: mpsc::Receiver<Bytes>, gzip: bool) -> Resp {
    let mut r = Response::new(if gzip { ServeBody::Gzip(rx) } else { ServeBody::Stream(rx) });
    if gzip {
        r.headers_mut()
            .insert(hyper::header::CONTENT_ENCODING, hyper::header::HeaderValue::from_static("gzip"));
        r.headers_mut()
            .append(hyper::header::VARY, hyper::header::HeaderValue::from_static("Accept-Encoding"));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_heads_are_judged_as_net_http_judges_them() {
        let judge = |bytes: &[u8]| HeadReader::default().feed(bytes);
        assert_eq!(judge(b"GET /version HTTP/1.1\r\nHost: x\r\n\r\n"), Head::Complete);
        assert_eq!(judge(b"GET /version HTTP/1.0\r\n\r\n"), Head::Complete);
        assert_eq!(judge(b"GET /version HTTP/1.1\r\nHost: x\r\n"), Head::Partial);
        assert_eq!(judge(b"GET /vers"), Head::Partial);
        assert_eq!(judge(b"HELLO\r\n\r\n"), Head::Bad);
        assert_eq!(judge(b"HELLO\r\n"), Head::Bad, "a bad request line is refused before the head ends");
        assert_eq!(judge(b"GET /version HTTP/1.1\r\nno colon\r\n\r\n"), Head::Bad);
        // Byte by byte: the same verdicts.
        let mut r = HeadReader::default();
        let head = b"GET /version HTTP/1.1\r\nHost: x\r\n\r\n";
        for (i, b) in head.iter().enumerate() {
            let v = r.feed(&[*b]);
            assert_eq!(
                v,
                if i + 1 == head.len() { Head::Complete } else { Head::Partial },
                "after {i} bytes"
            );
        }
        assert_eq!(r.into_bytes(), head.to_vec());
        // MaxHeaderBytes + 4096: a head that has not ended by then is too large.
        let mut big = b"GET /version HTTP/1.1\r\nX-Big: ".to_vec();
        big.resize(HEADER_READ_LIMIT - 4, b'a');
        big.extend_from_slice(b"\r\n\r\n");
        assert_eq!(judge(&big), Head::Complete);
        big.insert(40, b'a');
        assert_eq!(judge(&big), Head::TooLarge);
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: v\r\n")).collect();
        assert_eq!(judge(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()), Head::TooLarge);
        assert_eq!(
            go_error_response(BAD_REQUEST),
            b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"
        );
    }
}
