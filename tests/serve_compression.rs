//! `rvlab serve` and WatchListCompression (beta, on in 1.37; docs/semantics.md §C.4, §C.7): a
//! watch-list response is gzipped when the client accepts gzip — `Content-Encoding: gzip`,
//! `Vary: Accept-Encoding`, one gzip member per flush — as apiserver `endpoints/handlers/watch.go`
//! (`prepareHTTP`: `ContentEncodingSupported(req, features.WatchListCompression)`;
//! `watchResponseWriter.BeginStream`; `perFlushGzipWriter`) does at the 1.37 cycle. A plain watch,
//! a client without gzip, or the gate off get the uncompressed stream.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/serve.rs"]
mod serve;
use serve::{read_chunk, read_head};

const CM: &str = "/api/v1/namespaces/default/configmaps";
const WATCH_LIST: &str = "/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true";

fn send(addr: &str, method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let mut req =
        format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).expect("write head");
    s.write_all(body).expect("write body");
    s
}

/// One request with `Connection: close`: status line + headers (lower-cased), and the body.
fn exchange(addr: &str, method: &str, target: &str, body: &[u8]) -> (String, Vec<u8>) {
    let s = send(addr, method, target, &[("Connection", "close")], body);
    let mut r = BufReader::new(s);
    let head = read_head(&mut r).to_ascii_lowercase();
    let mut out = Vec::new();
    if head.contains("transfer-encoding: chunked") {
        while let Some(c) = read_chunk(&mut r) {
            out.extend_from_slice(&c);
        }
    } else {
        let _ = r.read_to_end(&mut out);
    }
    (head, out)
}

/// Opens a watch; reads chunks until the initial-events-end bookmark arrives. Returns the head
/// (lower-cased), the chunks as sent, and the events decoded.
fn watch_until_bookmark(
    addr: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> (String, Vec<Vec<u8>>, Vec<Value>) {
    let s = send(addr, "GET", target, headers, b"");
    let mut r = BufReader::new(s);
    let head = read_head(&mut r).to_ascii_lowercase();
    let gzip = head.contains("content-encoding: gzip");
    let mut chunks = Vec::new();
    let mut events = Vec::new();
    while let Some(c) = read_chunk(&mut r) {
        let plain = if gzip {
            // Each chunk is one complete gzip member (one flush).
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&c[..]).read_to_end(&mut out).expect("a whole gzip member");
            out
        } else {
            c.clone()
        };
        chunks.push(c);
        for line in plain.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let v: Value = serde_json::from_slice(line).expect("a watch event");
            let end = v["type"] == "BOOKMARK"
                && v["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true";
            events.push(v);
            if end {
                return (head, chunks, events);
            }
        }
    }
    panic!("the stream ended before the initial-events-end bookmark: {events:?}");
}

#[test]
fn a_watch_list_is_gzipped_when_the_client_accepts_gzip() {
    let p = serve::start("compression", &[]);
    let addr = p.addr.clone();
    let (head, _) = exchange(&addr, "GET", "/version", b"");
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let (_, version) = exchange(&addr, "GET", "/version", b"");
    let version: Value = serde_json::from_slice(&version).expect("json");
    assert_eq!(version["gitVersion"], "v1.37.0+rvlab");
    let body = json!({"metadata": {"name": "a"}}).to_string();
    let s = send(
        &addr,
        "POST",
        CM,
        &[("Content-Type", "application/json"), ("Connection", "close")],
        body.as_bytes(),
    );
    let mut r = BufReader::new(s);
    assert!(read_head(&mut r).starts_with("HTTP/1.1 201"));

    // Accepts gzip: compressed, one member per flush.
    let (head, chunks, events) = watch_until_bookmark(&addr, WATCH_LIST, &[("Accept-Encoding", "gzip")]);
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("vary: accept-encoding"), "{head}");
    assert!(chunks.iter().all(|c| c.starts_with(&[0x1f, 0x8b])), "every chunk is a gzip member");
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(events[0]["object"]["metadata"]["name"], "a");

    // No Accept-Encoding: plain.
    let (head, _, events) = watch_until_bookmark(&addr, WATCH_LIST, &[]);
    assert!(!head.contains("content-encoding"), "{head}");
    assert_eq!(events[0]["object"]["metadata"]["name"], "a");

    // A watch that is not a watch-list (rv given, no sendInitialEvents) is never compressed.
    let s = send(
        &addr,
        "GET",
        &format!("{CM}?watch=true&resourceVersion=1"),
        &[("Accept-Encoding", "gzip")],
        b"",
    );
    let mut r = BufReader::new(s);
    let head = read_head(&mut r).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200") && !head.contains("content-encoding"), "{head}");
    drop(r);

    // The gate off on the apiserver: plain, whatever the client accepts.
    let (_, out) =
        exchange(&addr, "POST", "/rvlab/v1/script", b"set feature-gates WatchListCompression=false\n");
    let out = String::from_utf8_lossy(&out).to_string();
    assert!(out.contains("WatchListCompression=false") && !out.contains("\"error\""), "{out}");
    let (head, _, _) = watch_until_bookmark(&addr, WATCH_LIST, &[("Accept-Encoding", "gzip")]);
    assert!(!head.contains("content-encoding"), "{head}");
    drop(p);
}
