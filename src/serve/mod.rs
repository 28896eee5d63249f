//! `rvlab serve`: the simulated cluster behind a real Kubernetes HTTP API, so kubectl, client
//! libraries and your own controllers can talk to it (host only).
//!
//! One concept per file: [`config`] (listen address, kubeconfig), [`discovery`] (`/version`,
//! `/api`, `/apis`, `/api/v1`, `/openapi/v2`, `/openapi/v3`), [`openapi_pb`] (`/openapi/v2` as
//! protobuf), [`translate`] (an HTTP request → a
//! script line → the response), [`protobuf`] (kubectl's protobuf bodies), [`schema`] (the served
//! types' field table: protobuf → JSON and the OpenAPI definitions), [`table`] (`Accept`
//! negotiation and server-side printing, `as=Table`), [`engine`] (the session, the wall clock,
//! watch streaming; `engine::hold` the reads held while their watch cache catches up), [`record`] (`--record`), [`network`] (delays in front of the apiserver),
//! [`control`] (`/rvlab/v1/script`), [`live`] (the playground and its live feed), [`http`]
//! (connection limits, Go's answers to unreadable requests, bodies, Status responses), [`tls`]
//! (the CA and serving certificate, the TLS handshake).
//!
//! By default the API is served over HTTPS (as kube-apiserver serves it) and the playground over
//! plain HTTP on a second loopback listener, so a browser opens it without a certificate warning;
//! `--http` serves everything over plain HTTP on one listener.
//!
//! hyper 1.x serves HTTP/1.1 on a current-thread tokio runtime: the engine is one
//! single-threaded, deterministic [`Session`](crate::script::Session), so every request runs to
//! completion on it in arrival order, and only the streaming of watch frames is asynchronous.
//! Upstream counterpart: kube-apiserver's `genericapiserver` handler chain.

pub mod config;
pub mod control;
pub mod discovery;
pub mod engine;
pub mod heap;
pub mod http;
pub mod live;
pub mod network;
pub mod openapi_pb;
pub mod protobuf;
pub mod record;
pub mod schema;
pub mod schema_table;
pub mod schema_types;
pub mod spool;
pub mod table;
pub mod tls;
pub mod translate;

use std::cell::RefCell;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;

use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;

pub use config::ServeConfig;
use engine::Engine;
use http::Resp;

/// How often the clock follows the wall and watches are read.
const TICK: Duration = Duration::from_millis(50);

/// Runs the server until the process is stopped. Returns an error message for bad options or
/// a port that cannot be bound.
pub fn run(cfg: ServeConfig) -> Result<(), String> {
    cfg.check_listen()?;
    heap::bound();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("rvlab serve: {e}"))?;
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, serve(cfg))
}

struct Shared {
    engine: RefCell<Engine>,
    addr: SocketAddr,
    dist: Option<std::path::PathBuf>,
}

async fn serve(cfg: ServeConfig) -> Result<(), String> {
    let recorder = cfg.record.as_deref().map(record::Recorder::create).transpose()?;
    let mut engine = Engine::new(cfg.speed, recorder)?;
    engine.set_network(network::Network { watch_delay: cfg.watch_delay, ..Default::default() });
    // Timestamps are wall-clock times while serving (scripts and the browser count from the fixed
    // 2026-01-01 epoch): the first recorded line says which, so the record replays exactly.
    let epoch = engine.begin(std::time::SystemTime::now());
    if let Some(err) = epoch.get("error") {
        return Err(format!("rvlab serve: {err}"));
    }
    for path in &cfg.scripts {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("rvlab serve: {}: {e}", path.display()))?;
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let out = engine.run_operator_line(t);
            if let Some(err) = out.get("error") {
                eprintln!("rvlab serve: {}: {t}: {err}", path.display());
            }
        }
    }
    let listener =
        TcpListener::bind(cfg.listen).await.map_err(|e| format!("rvlab serve: {}: {e}", cfg.listen))?;
    let addr = listener.local_addr().map_err(|e| format!("rvlab serve: {e}"))?;
    // HTTPS: the certificates, and the page's own plain-HTTP listener.
    let (certs, page) = if cfg.http {
        (None, None)
    } else {
        let certs = tls::Certs::make(addr.ip(), cfg.tls_cert_dir.as_deref())?;
        let page_addr = cfg.page_addr();
        let page = TcpListener::bind(page_addr)
            .await
            .map_err(|e| format!("rvlab serve: --page-listen {page_addr}: {e}"))?;
        (Some(certs), Some(page))
    };
    let page_url = match &page {
        Some(p) => format!("http://{}", p.local_addr().map_err(|e| format!("rvlab serve: {e}"))?),
        None => format!("http://{addr}"),
    };
    let scheme = if certs.is_some() { "https" } else { "http" };
    std::fs::write(
        &cfg.kubeconfig,
        ServeConfig::kubeconfig_text(addr, certs.as_ref().map(|c| c.ca_pem.as_str())),
    )
    .map_err(|e| format!("rvlab serve: --kubeconfig {}: {e}", cfg.kubeconfig.display()))?;
    // One line on stdout that scripts can read (the ports may have been chosen by the system):
    // the API's URL and the page's.
    println!(
        "{}",
        serde_json::json!({
            "listening": format!("{scheme}://{addr}"),
            "page": page_url,
            "kubeconfig": cfg.kubeconfig.display().to_string(),
        })
    );
    eprintln!(
        "rvlab serve: Kubernetes API on {scheme}://{addr}/ — export KUBECONFIG={}; page: {page_url}/; faults: POST /rvlab/v1/script",
        cfg.kubeconfig.display()
    );
    let shared = Rc::new(Shared { engine: RefCell::new(engine), addr, dist: cfg.dist.clone() });

    let ticker = shared.clone();
    tokio::task::spawn_local(async move {
        loop {
            tokio::time::sleep(TICK).await;
            ticker.engine.borrow_mut().tick();
        }
    });
    tokio::task::spawn_local(async move {
        loop {
            tokio::time::sleep(heap::TRIM_EVERY).await;
            heap::trim();
        }
    });

    if cfg.stdin {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        std::thread::spawn(move || {
            for line in std::io::stdin().lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let s = shared.clone();
        tokio::task::spawn_local(async move {
            while let Some(line) = rx.recv().await {
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                let out = s.engine.borrow_mut().run_operator_line(t);
                s.engine.borrow_mut().pump_watches();
                println!("{out}");
            }
        });
    }

    if let Some(page) = page {
        let s = shared.clone();
        tokio::task::spawn_local(accept_loop(page, s, None, Face::Page));
    }
    accept_loop(listener, shared, certs.map(|c| c.acceptor()), Face::All).await;
    Ok(())
}

/// Which paths a listener serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Face {
    /// Everything: the API, the control endpoint, the page.
    All,
    /// The plain-HTTP listener beside HTTPS: the page, its live feed and the control endpoint;
    /// Kubernetes API paths are reached over HTTPS only (`404 NotFound` here).
    Page,
}

/// Accepts connections for ever; each is served on its own task (after its TLS handshake when
/// `tls` is given), and whatever it does costs only that connection.
async fn accept_loop(
    listener: TcpListener,
    shared: Rc<Shared>,
    tls: Option<tokio_rustls::TlsAcceptor>,
    face: Face,
) {
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("rvlab serve: accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Go's net package turns Nagle's algorithm off on every TCP connection; without that, a
        // response written in two pieces waits for the client's delayed ACK (~40 ms).
        let _ = stream.set_nodelay(true);
        let s = shared.clone();
        let tls = tls.clone();
        tokio::task::spawn_local(async move {
            match tls {
                Some(acceptor) => {
                    let Some(conn) = tls::handshake(&acceptor, stream).await else { return };
                    serve_connection(conn, s, face).await;
                }
                None => serve_connection(stream, s, face).await,
            }
        });
    }
}

async fn serve_connection<T: AsyncRead + AsyncWrite + Unpin + 'static>(stream: T, s: Rc<Shared>, face: Face) {
    let Some(io) = first_head(stream).await else { return };
    let service = hyper::service::service_fn(move |req| {
        let s = s.clone();
        async move { Ok::<_, Infallible>(route(&s, req, face).await) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(http::READ_HEADER_TIMEOUT)
        .max_buf_size(http::HEADER_READ_LIMIT)
        .max_headers(http::MAX_HEADERS)
        .serve_connection(TokioIo::new(io), service);
    // A client that sends garbage or goes away ends its connection, nothing else.
    let _ = conn.await;
}

/// A connection whose first request head has been read: those bytes first, then the socket.
type Conn<T> = tokio::io::Join<
    tokio::io::Chain<std::io::Cursor<Vec<u8>>, tokio::io::ReadHalf<T>>,
    tokio::io::WriteHalf<T>,
>;

/// Reads a connection's first request head before hyper sees it, so that what net/http
/// answers a head it cannot read is answered byte for byte: a malformed request line or
/// header → `400 Bad Request`, a head over `MaxHeaderBytes` → `431 Request Header Fields Too
/// Large` (plain text, `Connection: close`, then the connection is closed); a head not
/// finished within `ReadHeaderTimeout`, or a client gone, → closed without an answer. Later
/// requests on a kept-alive connection are read by hyper, which answers the same statuses
/// with an empty body.
async fn first_head<T: AsyncRead + AsyncWrite + Unpin>(stream: T) -> Option<Conn<T>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut rd, mut wr) = tokio::io::split(stream);
    let mut head = http::HeadReader::default();
    let mut chunk = vec![0u8; 16 * 1024];
    let verdict = tokio::time::timeout(http::READ_HEADER_TIMEOUT, async {
        loop {
            match rd.read(&mut chunk).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => match head.feed(&chunk[..n]) {
                    http::Head::Partial => continue,
                    other => return Some(other),
                },
            }
        }
    })
    .await;
    let public_err = match verdict {
        Ok(Some(http::Head::Complete)) => {
            let prefix = std::io::Cursor::new(head.into_bytes());
            return Some(tokio::io::join(prefix.chain(rd), wr));
        }
        Ok(Some(http::Head::TooLarge)) => http::HEADER_TOO_LARGE,
        Ok(Some(_)) => http::BAD_REQUEST,
        // Timed out, or the client went away: net/http closes without a reply.
        Ok(None) | Err(_) => return None,
    };
    let _ = wr.write_all(&http::go_error_response(public_err)).await;
    let _ = wr.shutdown().await;
    if public_err == http::HEADER_TOO_LARGE {
        // `closeWriteAndWait`: the client may still be sending its head; closing the socket
        // with unread bytes would reset the connection before the answer is read.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    None
}

async fn read_body(req: Request<Incoming>) -> Result<bytes::Bytes, Resp> {
    match Limited::new(req.into_body(), http::MAX_BODY_BYTES).collect().await {
        Ok(c) => Ok(c.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(http::status(&http::too_large())),
        Err(_) => Err(http::status(&crate::apiserver::status::Status::bad_request(
            "the request body could not be read",
        ))),
    }
}

async fn route(s: &Shared, req: Request<Incoming>, face: Face) -> Resp {
    let path = req.uri().path().to_string();
    if face == Face::Page && !page_path(&path) {
        return http::status(&crate::apiserver::status::Status::path_not_found());
    }
    let target = req.uri().path_and_query().map(|p| p.as_str().to_string()).unwrap_or_else(|| path.clone());
    let method = req.method().clone();
    let header = |name: hyper::header::HeaderName| {
        req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
    };
    let accept = header(hyper::header::ACCEPT);
    let content_type = header(hyper::header::CONTENT_TYPE);
    let user_agent = header(hyper::header::USER_AGENT);
    let accept_encoding = header(hyper::header::ACCEPT_ENCODING);
    let trimmed = path.trim_end_matches('/');
    let get = method == Method::GET;
    match trimmed {
        "/version" if get => {
            let minor = s.engine.borrow().session().kubernetes_minor();
            http::json(200, &discovery::version(minor), &[])
        }
        "/api" if get => http::json(200, &discovery::api_versions(&s.addr.to_string()), &[]),
        "/apis" if get => http::json(200, &discovery::api_group_list(), &[]),
        "/api/v1" if get => http::json(200, &discovery::core_v1_resources(), &[]),
        "/openapi/v2" if get => {
            let minor = s.engine.borrow().session().kubernetes_minor();
            let doc = discovery::openapi_v2(&format!("v1.{minor}.0+rvlab"));
            match openapi_pb::negotiate(accept.as_deref()) {
                openapi_pb::Format::Json => http::json(200, &doc, &[]),
                openapi_pb::Format::Protobuf => {
                    http::text(200, openapi_pb::PROTOBUF_CONTENT_TYPE, openapi_pb::encode(&doc))
                }
                // kube-openapi's handler: a format it does not offer is a bare 406.
                openapi_pb::Format::NotAcceptable => http::text(406, "text/plain; charset=utf-8", ""),
            }
        }
        "/openapi/v3" if get => {
            let minor = s.engine.borrow().session().kubernetes_minor();
            http::json(200, &discovery::openapi_v3_index(&format!("v1.{minor}.0+rvlab")), &[])
        }
        "/openapi/v3/api/v1" if get => {
            let minor = s.engine.borrow().session().kubernetes_minor();
            http::json(200, &discovery::openapi_v3_core(&format!("v1.{minor}.0+rvlab")), &[])
        }
        "/healthz" | "/livez" | "/readyz" if get => http::text(200, "text/plain; charset=utf-8", "ok"),
        "/rvlab/v1/live" if get => live::subscribe(&mut s.engine.borrow_mut()),
        "/rvlab/v1/script" if get => {
            let outputs = req.uri().query().is_some_and(|q| q.split('&').any(|kv| kv == "output=jsonl"));
            control::script_text(&s.engine.borrow(), outputs)
        }
        "/rvlab/v1/script" if method == Method::POST => match read_body(req).await {
            Ok(b) => control::run_script(&mut s.engine.borrow_mut(), &b),
            Err(r) => r,
        },
        p if p.starts_with("/api/v1/") => {
            // A watch held by the network reaches the engine late; meanwhile everything else
            // (other clients, the control endpoint, the clock) goes on.
            let delay = s.engine.borrow().network().delay_for(req.uri().query());
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let m = method.as_str().to_string();
            let body = match read_body(req).await {
                Ok(b) => b,
                Err(r) => return r,
            };
            let target = translate::with_user_agent_manager(
                &m,
                &target,
                content_type.as_deref(),
                user_agent.as_deref(),
            );
            // A read that would wait for its watch cache waits here, in wall time: only this
            // request waits, the clock and every other client go on (`Engine::hold_for`).
            let mut hold = s.engine.borrow_mut().hold_for(&m, &target);
            if let Some(h) = hold {
                tokio::time::sleep(h.wall).await;
                if h.until_ready {
                    // Ready now: it may still wait for the cache to catch up.
                    hold = s.engine.borrow_mut().hold_for(&m, &target);
                    if let Some(h) = hold {
                        tokio::time::sleep(h.wall).await;
                    }
                }
            }
            translate::handle(
                &mut s.engine.borrow_mut(),
                &m,
                &target,
                content_type.as_deref(),
                accept.as_deref(),
                accept_encoding.as_deref(),
                &body,
                hold,
            )
        }
        "" if get && !accept.as_deref().unwrap_or("").contains("text/html") => {
            http::json(200, &discovery::root_paths(), &[])
        }
        _ => {
            if get
                && !path.starts_with("/api")
                && let Some(dist) = &s.dist
                && let Some(r) = live::static_file(dist, &path)
            {
                return r;
            }
            http::status(&crate::apiserver::status::Status::path_not_found())
        }
    }
}

/// Whether the page listener serves `path`: anything but the Kubernetes API's paths (the page's
/// files, `/rvlab/v1/…`).
fn page_path(path: &str) -> bool {
    let api = ["/api", "/apis", "/version", "/openapi", "/healthz", "/livez", "/readyz"];
    !api.iter().any(|p| path == *p || path.strip_prefix(p).is_some_and(|rest| rest.starts_with('/')))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_listener_leaves_the_api_to_https() {
        for p in [
            "/api",
            "/api/",
            "/api/v1/namespaces/default/configmaps",
            "/apis/apps/v1",
            "/version",
            "/openapi/v2",
            "/healthz",
        ] {
            assert!(!super::page_path(p), "{p}");
        }
        for p in [
            "/",
            "/index.html",
            "/rvlab-web.js",
            "/rvlab/v1/live",
            "/rvlab/v1/script",
            "/apix.js",
            "/lessons/a.rv",
        ] {
            assert!(super::page_path(p), "{p}");
        }
    }
}
