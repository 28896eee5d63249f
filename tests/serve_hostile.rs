//! Hostile clients against `rvlab serve`, over raw TCP: garbage, oversized heads and bodies, long
//! query strings, invalid UTF-8 and JSON, wrong content types, HTTP/1.0, pipelining, clients that
//! vanish mid-stream, half-open connections and a reader that stops reading. Each gets what
//! kube-apiserver (Go's net/http in front of the apiserver handlers) answers, or its connection
//! is closed; and throughout, a witness watch on another connection keeps receiving events.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const CM: &str = "/api/v1/namespaces/default/configmaps";

/// What net/http writes when it cannot read a request head (`conn.serve` in
/// `net/http/server.go`, go1.24): status line, two headers, the status text as the body.
fn go_error(public_err: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {public_err}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n{public_err}"
    )
    .into_bytes()
}

#[path = "support/serve.rs"]
mod serve;
use serve::{read_chunk, read_head};

struct Server {
    process: serve::Process,
    addr: String,
    witness: Witness,
    seq: u32,
}

/// A watch on its own connection, read by a thread: the names of the objects it receives.
struct Witness {
    rx: mpsc::Receiver<String>,
}

impl Server {
    fn start(name: &str) -> Server {
        let process = serve::start(&format!("hostile-{name}"), &[]);
        let addr = process.addr.clone();
        let witness = Witness::open(&addr);
        let mut s = Server { process, addr, witness, seq: 0 };
        s.witness_receives();
        s
    }

    /// Writes a configmap and waits for the witness watch to receive it: the server keeps
    /// serving everyone else.
    fn witness_receives(&mut self) {
        self.seq += 1;
        let name = format!("witness-{}", self.seq);
        let body = json!({"metadata": {"name": name}}).to_string();
        let (code, _, resp) = exchange(
            &self.addr,
            &request("POST", CM, &[("Content-Type", "application/json")], body.as_bytes()),
        );
        assert_eq!(code, 201, "{}", String::from_utf8_lossy(&resp));
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.witness.rx.recv_timeout(left) {
                Ok(n) if n == name => break,
                Ok(_) => continue,
                Err(e) => panic!("the witness watch did not receive {name}: {e}"),
            }
        }
        assert!(self.process.child.try_wait().unwrap().is_none(), "the server exited");
    }

    fn control(&self, script: &str) -> Vec<Value> {
        let (code, _, body) =
            exchange(&self.addr, &request("POST", "/rvlab/v1/script", &[], script.as_bytes()));
        assert_eq!(code, 200);
        String::from_utf8(body).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    /// The recorded script with each line's output.
    fn record(&self) -> Vec<(String, Value)> {
        let (_, _, text) = exchange(&self.addr, &request("GET", "/rvlab/v1/script", &[], b""));
        let (_, _, outs) = exchange(&self.addr, &request("GET", "/rvlab/v1/script?output=jsonl", &[], b""));
        let text = String::from_utf8(text).unwrap();
        let outs = String::from_utf8(outs).unwrap();
        text.lines()
            .zip(outs.lines())
            .map(|(l, o)| (l.to_string(), serde_json::from_str(o).unwrap()))
            .collect()
    }

    /// The watch id the server gave the last watch request for `path_part`.
    fn watch_id(&self, path_part: &str) -> String {
        let rec = self.record();
        rec.iter()
            .rev()
            .find(|(l, o)| l.contains(path_part) && o["watch"].is_string())
            .map(|(_, o)| o["watch"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("no watch for {path_part} in the record"))
    }

    fn wait_for_line(&self, what: &str, pred: impl Fn(&str, &Value) -> bool) -> Value {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(30) {
            if let Some((_, o)) = self.record().into_iter().find(|(l, o)| pred(l, o)) {
                return o;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("no recorded line for {what}");
    }
}

impl Witness {
    fn open(addr: &str) -> Witness {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(&request("GET", &format!("{CM}?watch=true"), &[], b"")).unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(s);
            let head = read_head(&mut r);
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            let mut pending = Vec::new();
            while let Some(chunk) = read_chunk(&mut r) {
                pending.extend_from_slice(&chunk);
                while let Some(i) = pending.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=i).collect();
                    let v: Value = serde_json::from_slice(&line).unwrap();
                    let name = v["object"]["metadata"]["name"].as_str().unwrap_or("").to_string();
                    if tx.send(name).is_err() {
                        return;
                    }
                }
            }
        });
        Witness { rx }
    }
}

fn request(method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut req =
        format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Sends raw bytes on a new connection and reads until the server closes it (or 20 s pass):
/// the bytes received and whether the connection was closed.
fn raw(addr: &str, bytes: &[u8]) -> (Vec<u8>, bool) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return (out, true),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (out, false),
        }
    }
}

/// One request on its own connection (`Connection: close` added): status, head, body.
fn exchange(addr: &str, req: &[u8]) -> (u16, String, Vec<u8>) {
    let line_end = req.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
    let mut with_close = req[..line_end].to_vec();
    with_close.extend_from_slice(b"Connection: close\r\n");
    with_close.extend_from_slice(&req[line_end..]);
    let (resp, _) = raw(addr, &with_close);
    let split = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
    let head = String::from_utf8_lossy(&resp[..split]).to_string();
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut body = resp.get(split + 4..).unwrap_or_default().to_vec();
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        let mut r = BufReader::new(&body[..]);
        let mut whole = Vec::new();
        while let Some(c) = read_chunk(&mut r) {
            whole.extend_from_slice(&c);
        }
        body = whole;
    }
    (code, head, body)
}

/// A connection whose receive buffer is 4 KiB (set before connecting, so the window stays small).
fn small_buffer_connect(addr: &str) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap();
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let stream = rt.block_on(sock.connect(addr.parse().unwrap())).unwrap().into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream
}

fn json_of(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)))
}

#[test]
fn a_garbage_request_line_gets_go_s_plain_400_and_the_connection_closes() {
    let mut s = Server::start("garbage");
    for garbage in [
        &b"HELLO\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
        b"GET / HTTP/1.1 x\r\n\r\n",
    ] {
        let (resp, closed) = raw(&s.addr, garbage);
        assert_eq!(
            String::from_utf8_lossy(&resp),
            String::from_utf8_lossy(&go_error("400 Bad Request")),
            "{garbage:?}"
        );
        assert!(closed, "{garbage:?}: the connection is closed after the answer");
        s.witness_receives();
    }
    // A header line without a colon is as bad as a garbage request line.
    let (resp, closed) = raw(&s.addr, b"GET /version HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n");
    assert_eq!(resp, go_error("400 Bad Request"));
    assert!(closed);
    s.witness_receives();
}

#[test]
fn a_head_over_max_header_bytes_gets_431_and_one_just_under_is_served() {
    let mut s = Server::start("headers");
    // kube-apiserver: MaxHeaderBytes 1 << 20 (apiserver pkg/server/secure_serving.go); net/http
    // reads up to MaxHeaderBytes + 4096 before answering 431 (server.go initialReadLimitSize).
    let big = |n: usize| {
        format!("GET /version HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(n)).into_bytes()
    };
    let (resp, closed) = raw(&s.addr, &big((1 << 20) + 4096));
    assert_eq!(
        String::from_utf8_lossy(&resp),
        String::from_utf8_lossy(&go_error("431 Request Header Fields Too Large"))
    );
    assert!(closed);
    s.witness_receives();
    let (resp, _) = raw(&s.addr, &{
        let mut r = big((1 << 20) - 100);
        let at = r.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        r.splice(at..at, b"\r\nConnection: close".iter().copied());
        r
    });
    assert!(
        resp.starts_with(b"HTTP/1.1 200 OK\r\n"),
        "{}",
        String::from_utf8_lossy(&resp[..resp.len().min(200)])
    );
    // A head that never ends is cut at the same limit, whatever arrives after it.
    let mut endless = b"GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ".to_vec();
    endless.extend(std::iter::repeat_n(b'a', 2 << 20));
    let (resp, closed) = raw(&s.addr, &endless);
    assert!(
        resp.starts_with(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"),
        "{}",
        String::from_utf8_lossy(&resp)
    );
    assert!(closed);
    s.witness_receives();
}

#[test]
fn a_body_over_3_mib_gets_the_apiservers_413_status() {
    let mut s = Server::start("body");
    // limitedReadBody (apiserver pkg/endpoints/handlers/rest.go, v1.32.0) with
    // MaxRequestBodyBytes = 3 MiB: errors.NewRequestEntityTooLargeError("limit is 3145728").
    let body = vec![b' '; 3 * 1024 * 1024 + 1];
    let (code, _, resp) =
        exchange(&s.addr, &request("POST", CM, &[("Content-Type", "application/json")], &body));
    assert_eq!(code, 413);
    assert_eq!(
        json_of(&resp),
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
               "message":"Request entity too large: limit is 3145728","reason":"RequestEntityTooLarge","code":413})
    );
    s.witness_receives();
}

#[test]
fn a_long_query_string_is_served_up_to_the_request_target_limit() {
    let mut s = Server::start("query");
    // Unknown query parameters are ignored by the apiserver's ListOptions decoding.
    let target = format!("{CM}?x={}", "a".repeat(60_000));
    let (code, _, body) = exchange(&s.addr, &request("GET", &target, &[], b""));
    assert_eq!(code, 200);
    assert_eq!(json_of(&body)["kind"], "ConfigMapList");
    // hyper refuses a request target of 65,535 bytes or more with 414 and closes the
    // connection (Go would read it as long as the head fits in MaxHeaderBytes; site/src/reference/differences.md).
    let target = format!("{CM}?x={}", "a".repeat(70_000));
    let (code, _, _) = exchange(&s.addr, &request("GET", &target, &[], b""));
    assert_eq!(code, 414);
    s.witness_receives();
}

#[test]
fn invalid_utf8_and_invalid_json_are_decoded_as_the_apiserver_decodes_them() {
    let mut s = Server::start("decode");
    // encoding/json replaces invalid UTF-8 in a string with U+FFFD (decode.go unquote): created.
    let body = b"{\"metadata\":{\"name\":\"u\"},\"data\":{\"k\":\"a\xffb\"}}";
    let (code, _, resp) =
        exchange(&s.addr, &request("POST", CM, &[("Content-Type", "application/json")], body));
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&resp));
    assert_eq!(json_of(&resp)["data"]["k"], "a\u{fffd}b");
    // Invalid JSON: the serializer's error through transformDecodeError (handlers/create.go,
    // v1.32.0), with summarizeData's text of the body.
    let (code, _, resp) =
        exchange(&s.addr, &request("POST", CM, &[("Content-Type", "application/json")], b"{nope"));
    assert_eq!(code, 400);
    assert_eq!(
        json_of(&resp),
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
               "message":"the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of object key string ({nope)",
               "reason":"BadRequest","code":400})
    );
    let (code, _, resp) = exchange(
        &s.addr,
        &request("PUT", &format!("{CM}/u"), &[("Content-Type", "application/json")], b"[1,"),
    );
    assert_eq!(code, 400);
    assert_eq!(
        json_of(&resp)["message"],
        "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (5b312c)"
    );
    // A percent-encoded invalid byte in the path is a name that does not exist.
    let (code, _, resp) = exchange(&s.addr, &request("GET", &format!("{CM}/%ff"), &[], b""));
    assert_eq!(code, 404);
    assert_eq!(json_of(&resp)["message"], "configmaps \"\u{fffd}\" not found");
    s.witness_receives();
}

#[test]
fn a_body_in_an_unknown_format_gets_415() {
    let mut s = Server::start("ctype");
    // negotiation.NewUnsupportedMediaTypeError (handlers/negotiation/errors.go).
    let (code, _, resp) = exchange(&s.addr, &request("POST", CM, &[("Content-Type", "text/plain")], b"{}"));
    assert_eq!(code, 415);
    let v = json_of(&resp);
    assert_eq!(v["reason"], "UnsupportedMediaType");
    assert!(
        v["message"].as_str().unwrap().starts_with("the body of the request was in an unknown format - accepted media types include: application/json"),
        "{v}"
    );
    s.witness_receives();
}

#[test]
fn http_1_0_and_pipelined_requests_are_answered_in_order() {
    let mut s = Server::start("proto");
    // HTTP/1.0: answered in kind and closed after the response.
    let (resp, closed) = raw(&s.addr, b"GET /version HTTP/1.0\r\n\r\n");
    let text = String::from_utf8_lossy(&resp);
    assert!(text.starts_with("HTTP/1.0 200 OK\r\n"), "{text}");
    assert!(text.contains("\"gitVersion\""));
    assert!(closed);
    // An HTTP/1.0 watch cannot be chunked: its body is the frames until the server closes.
    let (resp, closed) =
        raw(&s.addr, format!("GET {CM}?watch=true&timeoutSeconds=1 HTTP/1.0\r\n\r\n").as_bytes());
    let text = String::from_utf8_lossy(&resp);
    assert!(text.starts_with("HTTP/1.0 200 OK\r\n"), "{text}");
    assert!(text.contains("{\"type\":\"ADDED\""), "{text}");
    assert!(closed);
    s.witness_receives();
    // Three requests in one write on one connection: three answers, in order.
    let create = json!({"metadata": {"name": "piped"}}).to_string();
    let mut piped = request("GET", "/version", &[], b"");
    piped.extend(request("POST", CM, &[("Content-Type", "application/json")], create.as_bytes()));
    piped.extend(request("GET", &format!("{CM}/piped"), &[("Connection", "close")], b""));
    let (resp, closed) = raw(&s.addr, &piped);
    let text = String::from_utf8_lossy(&resp);
    let statuses: Vec<&str> = text.match_indices("HTTP/1.1 ").map(|(i, _)| &text[i + 9..i + 12]).collect();
    assert_eq!(statuses, ["200", "201", "200"], "{text}");
    assert!(closed);
    s.witness_receives();
    // A garbage request pipelined after a good one: the good one is answered, then 400 and close.
    let mut piped = request("GET", "/version", &[], b"");
    piped.extend_from_slice(b"HELLO\r\n\r\n");
    let (resp, closed) = raw(&s.addr, &piped);
    let text = String::from_utf8_lossy(&resp);
    let statuses: Vec<&str> = text.match_indices("HTTP/1.1 ").map(|(i, _)| &text[i + 9..i + 12]).collect();
    assert_eq!(statuses, ["200", "400"], "{text}");
    assert!(closed);
    s.witness_receives();
}

#[test]
fn clients_that_vanish_or_half_open_do_not_disturb_the_others() {
    let mut s = Server::start("vanish");
    // A watch whose client goes away mid-stream: the server cancels it.
    {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        c.write_all(&request("GET", &format!("{CM}?watch=true&labelSelector=gone"), &[], b"")).unwrap();
        let mut r = BufReader::new(c.try_clone().unwrap());
        assert!(read_head(&mut r).starts_with("HTTP/1.1 200"));
    }
    let id = s.watch_id("labelSelector=gone");
    s.wait_for_line("the cancelled watch", |l, _| l == format!("cancel {id}"));
    s.witness_receives();
    // Half-open: a head that never ends, and a connection that never sends anything, both
    // held while others are served (net/http closes them after ReadHeaderTimeout, 32 s).
    let mut partial = TcpStream::connect(&s.addr).unwrap();
    partial
        .write_all(b"GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let _silent = TcpStream::connect(&s.addr).unwrap();
    s.witness_receives();
    // A watch whose client shuts its sending side: the stream still goes on.
    let mut half = TcpStream::connect(&s.addr).unwrap();
    half.write_all(&request("GET", &format!("{CM}?watch=true&labelSelector=half"), &[], b"")).unwrap();
    half.shutdown(Shutdown::Write).unwrap();
    s.witness_receives();
    drop(partial);
    s.witness_receives();
}

#[test]
fn a_reader_that_stops_reading_is_cut_off_by_the_slow_consumer_rule() {
    let mut s = Server::start("slow");
    s.control("set explain on");
    // A watch that reads its head and then nothing more, with a small receive buffer (else
    // the kernel's autotuning lets the client's socket absorb tens of megabytes).
    let mut stalled = small_buffer_connect(&s.addr);
    stalled.write_all(&request("GET", &format!("{CM}?watch=true&labelSelector=!never"), &[], b"")).unwrap();
    let mut r = BufReader::with_capacity(64, stalled.try_clone().unwrap());
    assert!(read_head(&mut r).starts_with("HTTP/1.1 200"));
    let id = s.watch_id("labelSelector=!never");
    // Big objects fill the socket buffers, then the server's queue for the watch; the server
    // pauses the watch (it is not read while its client does not drain), the watch cache's
    // buffer for it fills, and the cacher ends it (cache_watcher.go: no ERROR frame). The
    // client learns it when it reads again, as from kube-apiserver, whose handler is blocked
    // writing meanwhile.
    let data = "x".repeat(16 * 1024);
    for i in 0..600 {
        let body = json!({"metadata": {"name": format!("big-{i}")}, "data": {"d": data}}).to_string();
        let (code, _, _) =
            exchange(&s.addr, &request("POST", CM, &[("Content-Type", "application/json")], body.as_bytes()));
        assert_eq!(code, 201);
    }
    s.witness_receives();
    let rec = s.record();
    let paused =
        rec.iter().position(|(l, _)| l == &format!("pause {id}")).expect("the server paused the watch");
    assert!(!rec[paused..].iter().any(|(l, _)| l == &format!("events {id}")), "a paused watch is not read");
    // The stalled client reads again: an unbroken run of events, then the end of the stream.
    stalled.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut names = Vec::new();
    let mut pending = Vec::new();
    loop {
        let mut size = String::new();
        assert!(r.read_line(&mut size).unwrap() > 0, "the server closed without ending the chunked body");
        let n = usize::from_str_radix(size.trim(), 16).unwrap();
        if n == 0 {
            break;
        }
        let mut chunk = vec![0; n + 2];
        r.read_exact(&mut chunk).unwrap();
        pending.extend_from_slice(&chunk[..n]);
        while let Some(i) = pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = pending.drain(..=i).collect();
            let v: Value = serde_json::from_slice(&line).unwrap();
            assert_ne!(v["type"], "ERROR");
            names.push(v["object"]["metadata"]["name"].as_str().unwrap().to_string());
        }
    }
    let end = s.wait_for_line("the end of the stalled watch", |l, o| {
        l == format!("events {id}") && o["closed"] == true
    });
    assert_eq!(end["why"]["ended"], "slow-consumer", "{end}");
    let rec = s.record();
    assert!(rec.iter().any(|(l, _)| l == &format!("resume {id}")), "resumed once the client read again");
    let bigs: Vec<usize> =
        names.iter().filter_map(|n| n.strip_prefix("big-")).map(|n| n.parse().unwrap()).collect();
    assert!(!bigs.is_empty());
    assert_eq!(bigs, (0..bigs.len()).collect::<Vec<_>>(), "a prefix of the writes, in order, no gap");
    s.witness_receives();
}
