//! HTTP/1.1 to the cluster: one blocking connection per request (`Connection: close`), over
//! rustls (ring provider) for `https://` or plain TCP for `http://`. A watch answered 200 keeps
//! its connection: a thread reads its chunked body and hands each newline-ended frame over a
//! channel until the server ends the stream or the watch is closed.
//!
//! Failures are typed so the runner can say which step failed: the server could not be reached,
//! the TLS handshake failed (an unknown CA, a name the certificate does not cover), or the
//! answer was not HTTP.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::Value;

use super::kubeconfig::Target;

/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one answer may take (a consistent read may wait 3 s for the cache, a real cluster's
/// list may be slow).
const READ_TIMEOUT: Duration = Duration::from_secs(60);
/// The largest answer read.
const MAX_BODY: usize = 64 << 20;
/// `events`: frames are collected until none arrives for this long…
pub const QUIET: Duration = Duration::from_millis(500);
/// …or this long has passed.
pub const MAX_WAIT: Duration = Duration::from_secs(5);

/// Why a request did not get an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Connecting failed (refused, no route, name not resolved, timeout).
    Unreachable(String),
    /// The TLS handshake failed, or the kubeconfig's certificates cannot be used.
    Tls(String),
    /// The server answered something that is not an HTTP response, or stopped mid-answer.
    Protocol(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable(m) => write!(f, "cannot reach the cluster: {m}"),
            Failure::Tls(m) => write!(f, "TLS: {m}"),
            Failure::Protocol(m) => write!(f, "the cluster's answer cannot be read: {m}"),
        }
    }
}

/// An answer with its body.
#[derive(Debug, Clone)]
pub struct Response {
    pub code: u16,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as JSON, or as a string when it is not JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&self.body).into_owned()))
    }
}

/// A watch answered 200: its frames as they arrive.
pub struct Watch {
    rx: Receiver<Value>,
    sock: TcpStream,
    closed: bool,
}

impl Watch {
    /// The frames that arrived since the last call, waiting until none has come for [`QUIET`]
    /// (at most [`MAX_WAIT`]); and whether the stream has ended.
    pub fn read(&mut self) -> (Vec<Value>, bool) {
        let start = Instant::now();
        let mut out = Vec::new();
        while !self.closed {
            let left = MAX_WAIT.saturating_sub(start.elapsed());
            if left.is_zero() {
                break;
            }
            match self.rx.recv_timeout(QUIET.min(left)) {
                Ok(v) => out.push(v),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
            }
        }
        (out, self.closed)
    }

    /// Closes the connection (the client cancels the watch).
    pub fn close(&mut self) {
        let _ = self.sock.shutdown(std::net::Shutdown::Both);
        self.closed = true;
    }
}

/// What a request got.
pub enum Reply {
    Answer(Response),
    Stream(Watch),
}

enum Conn {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.read(buf),
            Conn::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Conn::Plain(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// The cluster a kubeconfig names.
pub struct Client {
    pub target: Target,
    tls: Option<(Arc<rustls::ClientConfig>, ServerName<'static>)>,
}

impl Client {
    pub fn new(target: Target) -> Result<Client, Failure> {
        let tls = if target.tls { Some(tls_config(&target)?) } else { None };
        Ok(Client { target, tls })
    }

    fn connect(&self) -> Result<(Conn, TcpStream), Failure> {
        let t = &self.target;
        let addrs: Vec<_> = (t.host.as_str(), t.port)
            .to_socket_addrs()
            .map_err(|e| Failure::Unreachable(e.to_string()))?
            .collect();
        let mut last = "the name has no address".to_string();
        let mut sock = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
                Ok(s) => {
                    sock = Some(s);
                    break;
                }
                Err(e) => last = e.to_string(),
            }
        }
        let sock = sock.ok_or(Failure::Unreachable(last))?;
        let io = |e: std::io::Error| Failure::Unreachable(e.to_string());
        sock.set_read_timeout(Some(READ_TIMEOUT)).map_err(io)?;
        sock.set_nodelay(true).map_err(io)?;
        let handle = sock.try_clone().map_err(io)?;
        let Some((config, name)) = &self.tls else {
            return Ok((Conn::Plain(sock), handle));
        };
        let mut conn = rustls::ClientConnection::new(config.clone(), name.clone())
            .map_err(|e| Failure::Tls(e.to_string()))?;
        let mut sock = sock;
        let mut rounds = 0;
        while conn.is_handshaking() {
            rounds += 1;
            if rounds > 64 {
                return Err(Failure::Tls("the handshake does not finish".into()));
            }
            conn.complete_io(&mut sock).map_err(|e| Failure::Tls(format!("handshake: {e}")))?;
        }
        Ok((Conn::Tls(Box::new(rustls::StreamOwned::new(conn, sock))), handle))
    }

    /// Sends one request; with `watch`, a 200 answer is kept open as a [`Watch`].
    pub fn request(
        &self,
        method: &str,
        target: &str,
        content_type: Option<&str>,
        body: Option<&[u8]>,
        watch: bool,
    ) -> Result<Reply, Failure> {
        let (mut conn, handle) = self.connect()?;
        let t = &self.target;
        let host = if t.host.contains(':') {
            format!("[{}]:{}", t.host, t.port)
        } else {
            format!("{}:{}", t.host, t.port)
        };
        let mut head = format!(
            "{method} {}{target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: rvlab/{} (against)\r\nAccept: application/json\r\nConnection: close\r\n",
            t.prefix,
            crate::VERSION
        );
        if let Some(token) = &t.token {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if let Some(ct) = content_type {
            head.push_str(&format!("Content-Type: {ct}\r\n"));
        }
        let body = body.unwrap_or_default();
        if !body.is_empty() || matches!(method, "POST" | "PUT" | "PATCH") {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let lost = |e: std::io::Error| Failure::Protocol(format!("sending the request: {e}"));
        conn.write_all(head.as_bytes()).map_err(lost)?;
        conn.write_all(body).map_err(lost)?;
        conn.flush().map_err(lost)?;

        let mut r = BufReader::new(conn);
        let (code, chunked, length) = read_head(&mut r).map_err(Failure::Protocol)?;
        if watch && code == 200 {
            let _ = handle.set_read_timeout(None);
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                loop {
                    let data = if chunked {
                        read_chunk(&mut r).ok().flatten()
                    } else {
                        let mut b = vec![0; 8192];
                        match r.read(&mut b) {
                            Ok(n) if n > 0 => Some(b[..n].to_vec()),
                            _ => None,
                        }
                    };
                    let Some(data) = data else { return };
                    buf.extend_from_slice(&data);
                    while let Some(i) = buf.iter().position(|b| *b == b'\n') {
                        let frame: Vec<u8> = buf.drain(..=i).collect();
                        let v = serde_json::from_slice(&frame).unwrap_or_else(|_| {
                            Value::String(String::from_utf8_lossy(&frame).trim_end().to_string())
                        });
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                }
            });
            return Ok(Reply::Stream(Watch { rx, sock: handle, closed: false }));
        }
        let body = read_body(&mut r, chunked, length).map_err(Failure::Protocol)?;
        Ok(Reply::Answer(Response { code, body }))
    }
}

/// The status line and headers: (code, chunked, Content-Length).
fn read_head(r: &mut impl BufRead) -> Result<(u16, bool, Option<usize>), String> {
    let mut status = String::new();
    r.read_line(&mut status).map_err(|e| format!("reading the status line: {e}"))?;
    let mut parts = status.split_whitespace();
    let code = match (parts.next(), parts.next()) {
        (Some(v), Some(c)) if v.starts_with("HTTP/1.") => c.parse::<u16>().ok(),
        _ => None,
    };
    let Some(code) = code else {
        let shown: String = status.trim_end().chars().take(120).collect();
        return Err(format!("not an HTTP response: {shown:?}"));
    };
    let (mut chunked, mut length) = (false, None);
    loop {
        let mut line = String::new();
        let n = r.read_line(&mut line).map_err(|e| format!("reading the headers: {e}"))?;
        if n == 0 {
            return Err("the connection closed in the headers".into());
        }
        let line = line.trim_end();
        if line.is_empty() {
            return Ok((code, chunked, length));
        }
        if let Some((k, v)) = line.split_once(':') {
            let (k, v) = (k.trim(), v.trim());
            if k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked") {
                chunked = true;
            } else if k.eq_ignore_ascii_case("content-length") {
                length = Some(v.parse::<usize>().map_err(|_| format!("a bad Content-Length: {v}"))?);
            }
        }
    }
}

/// One chunk of a chunked body; `None` at its end.
fn read_chunk(r: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut size = String::new();
    if r.read_line(&mut size).map_err(|e| e.to_string())? == 0 {
        return Err("the connection closed inside a chunked body".into());
    }
    let hex = size.split(';').next().unwrap_or("").trim();
    let n = usize::from_str_radix(hex, 16).map_err(|_| format!("a bad chunk size: {hex:?}"))?;
    if n == 0 {
        return Ok(None);
    }
    if n > MAX_BODY {
        return Err(format!("a chunk of {n} bytes"));
    }
    let mut data = vec![0; n + 2];
    r.read_exact(&mut data).map_err(|e| e.to_string())?;
    data.truncate(n);
    Ok(Some(data))
}

fn read_body(r: &mut impl BufRead, chunked: bool, length: Option<usize>) -> Result<Vec<u8>, String> {
    if chunked {
        let mut body = Vec::new();
        while let Some(c) = read_chunk(r)? {
            body.extend_from_slice(&c);
            if body.len() > MAX_BODY {
                return Err(format!("an answer over {MAX_BODY} bytes"));
            }
        }
        return Ok(body);
    }
    if let Some(n) = length {
        if n > MAX_BODY {
            return Err(format!("an answer of {n} bytes"));
        }
        let mut body = vec![0; n];
        r.read_exact(&mut body).map_err(|e| format!("reading the body: {e}"))?;
        return Ok(body);
    }
    let mut body = Vec::new();
    match r.take(MAX_BODY as u64).read_to_end(&mut body) {
        Ok(_) => Ok(body),
        // A TLS peer that closes without close_notify: what came is the body.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(body),
        Err(e) => Err(format!("reading the body: {e}")),
    }
}

fn tls_config(t: &Target) -> Result<(Arc<rustls::ClientConfig>, ServerName<'static>), Failure> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Failure::Tls(e.to_string()))?;
    let builder = if t.insecure {
        builder.dangerous().with_custom_certificate_verifier(Arc::new(NoVerify(provider)))
    } else {
        let Some(pem) = &t.ca_pem else {
            return Err(Failure::Tls(
                "the cluster has no certificate-authority(-data) and is not insecure-skip-tls-verify".into(),
            ));
        };
        let mut roots = rustls::RootCertStore::empty();
        for c in CertificateDer::pem_slice_iter(pem) {
            let c = c.map_err(|e| Failure::Tls(format!("certificate-authority: {e}")))?;
            roots.add(c).map_err(|e| Failure::Tls(format!("certificate-authority: {e}")))?;
        }
        if roots.is_empty() {
            return Err(Failure::Tls("certificate-authority: no certificate in it".into()));
        }
        builder.with_root_certificates(roots)
    };
    let mut config = match &t.client_cert {
        Some((cert, key)) => {
            let chain: Result<Vec<_>, _> = CertificateDer::pem_slice_iter(cert).collect();
            let chain = chain.map_err(|e| Failure::Tls(format!("client certificate: {e}")))?;
            let key =
                PrivateKeyDer::from_pem_slice(key).map_err(|e| Failure::Tls(format!("client key: {e}")))?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| Failure::Tls(format!("client certificate: {e}")))?
        }
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let name = t.server_name.clone().unwrap_or_else(|| t.host.clone());
    let name = ServerName::try_from(name).map_err(|e| Failure::Tls(format!("server name: {e}")))?;
    Ok((Arc::new(config), name))
}

/// `insecure-skip-tls-verify: true`: any certificate is accepted (its signatures still checked).
#[derive(Debug)]
struct NoVerify(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for NoVerify {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }
    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(client_cert: Option<(Vec<u8>, Vec<u8>)>, ca: Option<Vec<u8>>, insecure: bool) -> Target {
        Target {
            server: "https://127.0.0.1:1".into(),
            tls: true,
            host: "127.0.0.1".into(),
            port: 1,
            prefix: String::new(),
            ca_pem: ca,
            insecure,
            server_name: None,
            token: None,
            client_cert,
        }
    }

    /// Client certificates (kind's users) and CAs load, or say what is wrong with them.
    #[test]
    fn certificates_load_or_say_why_not() {
        let ca = rcgen::generate_simple_self_signed(vec!["127.0.0.1".into()]).unwrap();
        let ca_pem = ca.cert.pem().into_bytes();
        let user = rcgen::generate_simple_self_signed(vec!["kubernetes-admin".into()]).unwrap();
        let pair = (user.cert.pem().into_bytes(), user.signing_key.serialize_pem().into_bytes());
        assert!(Client::new(target(Some(pair.clone()), Some(ca_pem.clone()), false)).is_ok());
        assert!(Client::new(target(None, None, true)).is_ok(), "insecure-skip-tls-verify needs no CA");
        let err = |t: Target| Client::new(t).err().map(|e| e.to_string());
        assert_eq!(
            err(target(None, None, false)),
            Some(
                "TLS: the cluster has no certificate-authority(-data) and is not insecure-skip-tls-verify"
                    .into()
            )
        );
        assert_eq!(
            err(target(None, Some(b"not a pem".to_vec()), false)),
            Some("TLS: certificate-authority: no certificate in it".into())
        );
        let no_key = (pair.0.clone(), b"-----BEGIN CERTIFICATE-----\n".to_vec());
        assert!(
            err(target(Some(no_key), Some(ca_pem), false))
                .is_some_and(|e| e.starts_with("TLS: client key: "))
        );
    }

    #[test]
    fn reads_heads_and_bodies() {
        let mut r = &b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}"[..];
        assert_eq!(read_head(&mut r), Ok((201, false, Some(2))));
        assert_eq!(read_body(&mut r, false, Some(2)), Ok(b"{}".to_vec()));
        let mut r =
            &b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n1;x\r\nc\r\n0\r\n\r\n"[..];
        assert_eq!(read_head(&mut r), Ok((200, true, None)));
        assert_eq!(read_body(&mut r, true, None), Ok(b"abc".to_vec()));
        let mut r = &b"SSH-2.0-OpenSSH\r\n"[..];
        assert_eq!(read_head(&mut r), Err("not an HTTP response: \"SSH-2.0-OpenSSH\"".into()));
        let mut r = &b"HTTP/1.1 200 OK\r\n"[..];
        assert_eq!(read_head(&mut r), Err("the connection closed in the headers".into()));
        let mut r = &b"zz\r\n"[..];
        assert_eq!(read_chunk(&mut r), Err("a bad chunk size: \"zz\"".into()));
    }
}
