//! The server under test and the ways to reach it: `rvlab serve` started on free loopback ports
//! (HTTPS by default, with the CA from the kubeconfig it writes), HTTP/1.1 connections to its API
//! (over TLS or plain), and its control endpoint on the plain-HTTP page listener.

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::Value;
use tokio::net::{TcpSocket, TcpStream};

use crate::state::Shared;

pub type Sender = SendRequest<Full<Bytes>>;

/// Where the API and the control endpoint are, and how to speak TLS to the API.
#[derive(Clone)]
pub struct Target {
    pub api: SocketAddr,
    /// The plain-HTTP listener of the page and the control endpoint (the API's with `--http`).
    pub page: SocketAddr,
    pub tls: Option<Arc<rustls::ClientConfig>>,
    pub kubeconfig: PathBuf,
}

pub struct Server {
    pub child: Child,
    pub dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn addr_of(v: &Value, key: &str, scheme: &str) -> Option<SocketAddr> {
    v[key].as_str().and_then(|u| u.strip_prefix(scheme)).and_then(|a| a.parse::<SocketAddr>().ok())
}

/// Starts `rvlab serve` on free loopback ports: HTTPS (the API) plus the plain-HTTP page
/// listener, or one plain-HTTP listener with `http`.
pub fn start_server(server: &Path, http: bool) -> Result<(Server, Target), String> {
    let dir = std::env::temp_dir().join(format!("rvlab-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let kubeconfig = dir.join("kubeconfig");
    let mut cmd = Command::new(server);
    cmd.arg("serve");
    // The server's log (a script `rvlab run` replays, with every answer's `why`), kept for a
    // failure to be read against.
    if let Some(record) = std::env::var_os("RVLAB_SOAK_RECORD") {
        cmd.arg("--record").arg(record);
    }
    if http {
        cmd.arg("--http");
    }
    let mut child = cmd
        .args(["--listen", "127.0.0.1:0", "--dist", "/nonexistent", "--kubeconfig"])
        .arg(&kubeconfig)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", server.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let server = Server { child, dir };
    let mut first = String::new();
    std::io::BufReader::new(stdout).read_line(&mut first).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&first).map_err(|e| format!("first line {first:?}: {e}"))?;
    let scheme = if http { "http://" } else { "https://" };
    let api = addr_of(&v, "listening", scheme).ok_or_else(|| format!("no {scheme} address in {first:?}"))?;
    let page = if http {
        api
    } else {
        addr_of(&v, "page", "http://").ok_or_else(|| format!("no page in {first:?}"))?
    };
    if !api.ip().is_loopback() || !page.ip().is_loopback() {
        return Err(format!("{first:?}: not loopback"));
    }
    let tls = if http { None } else { Some(client_config(&ca_of(&kubeconfig)?)?) };
    Ok((server, Target { api, page, tls, kubeconfig }))
}

/// The CA's PEM from the kubeconfig's `certificate-authority-data`: the soak trusts exactly what
/// every other client of the run trusts.
fn ca_of(kubeconfig: &Path) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let text = std::fs::read_to_string(kubeconfig).map_err(|e| format!("{}: {e}", kubeconfig.display()))?;
    let data = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("certificate-authority-data: "))
        .ok_or_else(|| format!("no certificate-authority-data in {}", kubeconfig.display()))?;
    base64::engine::general_purpose::STANDARD.decode(data.trim()).map_err(|e| format!("the CA: {e}"))
}

fn client_config(ca_pem: &[u8]) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    let cert = CertificateDer::from_pem_slice(ca_pem).map_err(|e| format!("the CA: {e}"))?;
    roots.add(cert).map_err(|e| format!("the CA: {e}"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let c = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(c))
}

/// A TCP connection to `addr`; a small receive buffer for a slow reader, so that the server's
/// writes back up sooner.
pub async fn tcp(addr: SocketAddr, small_buffer: bool) -> Result<TcpStream, String> {
    let stream = if small_buffer {
        let sock = TcpSocket::new_v4().map_err(|e| e.to_string())?;
        sock.set_recv_buffer_size(4096).map_err(|e| e.to_string())?;
        sock.connect(addr).await.map_err(|e| e.to_string())?
    } else {
        TcpStream::connect(addr).await.map_err(|e| e.to_string())?
    };
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

/// An HTTP/1.1 connection to the API (over TLS unless `--http`).
pub async fn connect(t: &Target, small_buffer: bool) -> Result<Sender, String> {
    let stream = tcp(t.api, small_buffer).await?;
    match &t.tls {
        Some(cfg) => {
            let name = ServerName::IpAddress(t.api.ip().into());
            let tls = tokio_rustls::TlsConnector::from(cfg.clone())
                .connect(name, stream)
                .await
                .map_err(|e| format!("TLS: {e}"))?;
            handshake(TokioIo::new(tls)).await
        }
        None => handshake(TokioIo::new(stream)).await,
    }
}

async fn handshake<IO>(io: IO) -> Result<Sender, String>
where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + 'static,
{
    let (sender, conn) = hyper::client::conn::http1::handshake(io).await.map_err(|e| e.to_string())?;
    tokio::task::spawn_local(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

pub fn request(method: &str, path: &str, body: Option<&Value>) -> hyper::Request<Full<Bytes>> {
    let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
    let mut b = hyper::Request::builder().method(method).uri(path).header("host", "127.0.0.1");
    if body.is_some() {
        b = b.header("content-type", "application/json");
    }
    b.body(Full::new(bytes)).unwrap_or_else(|_| hyper::Request::new(Full::new(Bytes::new())))
}

pub async fn call(
    st: &Shared,
    sender: &mut Sender,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    st.borrow_mut().requests += 1;
    sender.ready().await.map_err(|e| e.to_string())?;
    let resp = sender.send_request(request(method, path, body)).await.map_err(|e| e.to_string())?;
    let code = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((code, v))
}

/// Script lines through the control endpoint (`POST /rvlab/v1/script` on the page listener):
/// their output objects, one per line.
pub async fn control(st: &Shared, t: &Target, script: &str) -> Result<Vec<Value>, String> {
    let stream = tcp(t.page, false).await?;
    let mut sender = handshake(TokioIo::new(stream)).await?;
    st.borrow_mut().requests += 1;
    sender.ready().await.map_err(|e| e.to_string())?;
    let mut req = request("POST", "/rvlab/v1/script", None);
    *req.body_mut() = Full::new(Bytes::from(script.to_string()));
    let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
    let code = resp.status().as_u16();
    let body = resp.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    let text = String::from_utf8_lossy(&body).into_owned();
    if code != 200 {
        return Err(format!("{script:?}: {code} {text}"));
    }
    Ok(text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
}

/// The size of the server's log (on disk, `serve::spool`), as its own endpoints show it: every
/// recorded line (`GET /rvlab/v1/script`) and the outputs of the most recent ones
/// (`?output=jsonl`, within `engine::OUTPUT_BUDGET`).
#[derive(Debug, Clone, Copy, Default)]
pub struct LogSize {
    pub lines: u64,
    pub bytes: u64,
    pub outputs: u64,
    pub output_bytes: u64,
}

impl LogSize {
    /// The log's size (its text, lines and kept outputs), in KiB.
    pub fn kib(&self) -> u64 {
        (self.bytes + self.output_bytes) / 1024
    }
}

pub async fn log_size(t: &Target) -> Result<LogSize, String> {
    let (lines, bytes) = count_lines(t, "/rvlab/v1/script").await?;
    let (outputs, output_bytes) = count_lines(t, "/rvlab/v1/script?output=jsonl").await?;
    Ok(LogSize { lines, bytes, outputs, output_bytes })
}

/// The server's log, the script it recorded (`GET /rvlab/v1/script`), whole.
pub async fn record_text(t: &Target) -> Result<String, String> {
    let stream = tcp(t.page, false).await?;
    let mut sender = handshake(TokioIo::new(stream)).await?;
    sender.ready().await.map_err(|e| e.to_string())?;
    let resp =
        sender.send_request(request("GET", "/rvlab/v1/script", None)).await.map_err(|e| e.to_string())?;
    let body = resp.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    String::from_utf8(body.to_vec()).map_err(|e| e.to_string())
}

/// Lines and bytes of a page-listener answer, counted as it streams.
async fn count_lines(t: &Target, path: &str) -> Result<(u64, u64), String> {
    let stream = tcp(t.page, false).await?;
    let mut sender = handshake(TokioIo::new(stream)).await?;
    sender.ready().await.map_err(|e| e.to_string())?;
    let resp = sender.send_request(request("GET", path, None)).await.map_err(|e| e.to_string())?;
    let mut body = resp.into_body();
    let (mut lines, mut bytes) = (0u64, 0u64);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| e.to_string())?;
        if let Ok(data) = frame.into_data() {
            bytes += data.len() as u64;
            lines += data.iter().filter(|b| **b == b'\n').count() as u64;
        }
    }
    Ok((lines, bytes))
}

/// Peak and current resident set size of a process, in KiB (`VmHWM`, `VmRSS`).
pub fn rss_kib(pid: u32) -> (u64, u64) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

pub fn rv_of(v: &Value) -> Option<i64> {
    v["metadata"]["resourceVersion"].as_str().and_then(|s| s.parse().ok())
}
