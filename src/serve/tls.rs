//! HTTPS as a cluster serves it: a certificate authority and a serving certificate for the
//! addresses the kubeconfig names, made when the server starts (or the CA kept in
//! `--tls-cert-dir`), and the TLS handshake of each connection with Go's limits and answers.
//!
//! What Go's `net/http` does before a request is read on a TLS connection (`conn.serve` in
//! `net/http/server.go`, go1.24), and so kube-apiserver (`secure_serving.go`, v1.32.0):
//! - the handshake must finish within `Server.tlsHandshakeTimeout()`, the smallest positive
//!   `ReadHeaderTimeout`/`ReadTimeout`/`WriteTimeout`; kube-apiserver sets only
//!   `ReadHeaderTimeout: 32s`, so [`HANDSHAKE_TIMEOUT`] is 32 s; a handshake that stalls is
//!   closed then, without an answer;
//! - a first record header that is not a TLS handshake or alert (`crypto/tls/conn.go`,
//!   `readRecordOrCCS`: "first record does not look like a TLS handshake") fails the handshake:
//!   when its five bytes look like a plain HTTP request (`tlsRecordHeaderLooksLikeHTTP`), the
//!   server writes [`HTTP_TO_HTTPS`] on the bare connection and closes it, otherwise it closes
//!   it without a word;
//! - any other handshake error ends that connection (the server logs it), nothing else.
//!
//! Upstream counterpart: the certificates `kubeadm init` makes (`/etc/kubernetes/pki/ca.crt`,
//! `apiserver.crt`) and `certificate-authority-data` in the kubeconfig it writes.

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;

/// `Server.tlsHandshakeTimeout()` with kube-apiserver's `ReadHeaderTimeout` (32 s).
pub const HANDSHAKE_TIMEOUT: Duration = super::http::READ_HEADER_TIMEOUT;

/// What net/http writes on the bare connection when a plain HTTP request reaches its TLS port.
pub const HTTP_TO_HTTPS: &[u8] =
    b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n";

/// The CA's common name (kubeadm's is `kubernetes`).
const CA_NAME: &str = "rvlab-ca";
/// The serving certificate's common name (kubeadm's is `kube-apiserver`).
const SERVER_NAME: &str = "rvlab-apiserver";

/// File names in `--tls-cert-dir`, as kubeadm names them in `/etc/kubernetes/pki`.
pub const CA_CERT_FILE: &str = "ca.crt";
pub const CA_KEY_FILE: &str = "ca.key";

/// The certificates of one server run.
pub struct Certs {
    /// The CA certificate (PEM): what the kubeconfig's `certificate-authority-data` carries.
    pub ca_pem: String,
    /// The serving certificate (PEM), signed by the CA.
    pub server_pem: String,
    /// The TLS configuration serving that certificate (HTTP/1.1 by ALPN).
    pub config: Arc<rustls::ServerConfig>,
}

/// The CA's parameters: a function of nothing, so a kept CA key signs with the same issuer name
/// and key identifier as the certificate made from it.
fn ca_params() -> Result<CertificateParams, String> {
    let mut p = CertificateParams::new(Vec::<String>::new()).map_err(tls_err)?;
    p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    p.key_usages =
        vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    p.distinguished_name.push(DnType::CommonName, CA_NAME);
    Ok(p)
}

fn tls_err(e: impl std::fmt::Display) -> String {
    format!("rvlab serve: TLS: {e}")
}

impl Certs {
    /// A new CA and a serving certificate for `localhost`, `127.0.0.1`, `::1` and `ip` (the
    /// address the kubeconfig names). With `keep`, the CA is read from that directory when it
    /// holds one, and written there when it does not; the serving certificate is new each time.
    pub fn make(ip: IpAddr, keep: Option<&Path>) -> Result<Certs, String> {
        let params = ca_params()?;
        let (ca_key, ca_pem) = match keep {
            Some(dir) if dir.join(CA_KEY_FILE).is_file() => {
                let read = |f: &str| {
                    std::fs::read_to_string(dir.join(f))
                        .map_err(|e| tls_err(format!("{}: {e}", dir.join(f).display())))
                };
                let key = KeyPair::from_pem(&read(CA_KEY_FILE)?)
                    .map_err(|e| tls_err(format!("{}: {e}", dir.join(CA_KEY_FILE).display())))?;
                (key, read(CA_CERT_FILE)?)
            }
            _ => {
                let key = KeyPair::generate().map_err(tls_err)?;
                let pem = params.self_signed(&key).map_err(tls_err)?.pem();
                if let Some(dir) = keep {
                    write_ca(dir, &pem, &key.serialize_pem())?;
                }
                (key, pem)
            }
        };
        let issuer = Issuer::new(params, ca_key);

        let mut names = vec!["localhost".to_string(), "127.0.0.1".to_string(), "::1".to_string()];
        if !names.contains(&ip.to_string()) {
            names.push(ip.to_string());
        }
        let mut leaf = CertificateParams::new(names).map_err(tls_err)?;
        leaf.distinguished_name.push(DnType::CommonName, SERVER_NAME);
        leaf.is_ca = IsCa::ExplicitNoCa;
        leaf.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        // Python's ssl (3.13+, VERIFY_X509_STRICT) refuses a leaf without it.
        leaf.use_authority_key_identifier_extension = true;
        let leaf_key = KeyPair::generate().map_err(tls_err)?;
        let server = leaf.signed_by(&leaf_key, &issuer).map_err(tls_err)?;

        let key_der = rustls::pki_types::PrivateKeyDer::Pkcs8(leaf_key.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(tls_err)?
            .with_no_client_auth()
            .with_single_cert(vec![server.der().clone()], key_der)
            .map_err(tls_err)?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Certs { ca_pem, server_pem: server.pem(), config: Arc::new(config) })
    }

    pub fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(self.config.clone())
    }
}

/// Writes the CA into `dir` (created if missing), its key readable by the owner only.
fn write_ca(dir: &Path, cert_pem: &str, key_pem: &str) -> Result<(), String> {
    let io = |p: &Path, e: std::io::Error| tls_err(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let key_path = dir.join(CA_KEY_FILE);
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(&key_path).map_err(|e| io(&key_path, e))?;
    std::io::Write::write_all(&mut f, key_pem.as_bytes()).map_err(|e| io(&key_path, e))?;
    let cert_path = dir.join(CA_CERT_FILE);
    std::fs::write(&cert_path, cert_pem).map_err(|e| io(&cert_path, e))
}

/// A TCP connection whose first record header has been read: those bytes first, then the socket.
pub type Prefixed = tokio::io::Join<
    tokio::io::Chain<std::io::Cursor<[u8; 5]>, tokio::net::tcp::OwnedReadHalf>,
    tokio::net::tcp::OwnedWriteHalf,
>;

pub type TlsConn = tokio_rustls::server::TlsStream<Prefixed>;

/// What the first five bytes of a connection to the TLS port are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstRecord {
    /// A handshake or alert record header: the handshake goes on.
    Tls,
    /// A plain HTTP request: answered [`HTTP_TO_HTTPS`], then closed.
    Http,
    /// Anything else: closed without an answer.
    NotTls,
}

/// Judges a first record header as Go's `crypto/tls` and `net/http` do.
pub fn first_record(h: &[u8; 5]) -> FirstRecord {
    // net/http `tlsRecordHeaderLooksLikeHTTP`.
    if matches!(h, b"GET /" | b"HEAD " | b"POST " | b"PUT /" | b"OPTIO") {
        return FirstRecord::Http;
    }
    // crypto/tls `readRecordOrCCS`: type alert (21) or handshake (22), version below 0x1000.
    let version = u16::from_be_bytes([h[1], h[2]]);
    if (h[0] == 21 || h[0] == 22) && version < 0x1000 { FirstRecord::Tls } else { FirstRecord::NotTls }
}

/// Runs the TLS handshake of a new connection within [`HANDSHAKE_TIMEOUT`]. `None` when it
/// failed, stalled or was not TLS: the connection is then closed, and only it.
pub async fn handshake(acceptor: &TlsAcceptor, stream: TcpStream) -> Option<TlsConn> {
    let (mut rd, mut wr) = stream.into_split();
    let result = tokio::time::timeout(HANDSHAKE_TIMEOUT, async {
        let mut head = [0u8; 5];
        rd.read_exact(&mut head).await.ok()?;
        match first_record(&head) {
            FirstRecord::Tls => {}
            FirstRecord::Http => {
                let _ = wr.write_all(HTTP_TO_HTTPS).await;
                let _ = wr.shutdown().await;
                return None;
            }
            FirstRecord::NotTls => return None,
        }
        let io = tokio::io::join(std::io::Cursor::new(head).chain(rd), wr);
        acceptor.accept(io).await.ok()
    })
    .await;
    result.ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_records_are_judged_as_go_judges_them() {
        assert_eq!(first_record(b"GET /"), FirstRecord::Http);
        assert_eq!(first_record(b"OPTIO"), FirstRecord::Http);
        // Only those five starts: DELETE fails as TLS does, silently.
        assert_eq!(first_record(b"DELET"), FirstRecord::NotTls);
        assert_eq!(first_record(b"GET x"), FirstRecord::NotTls);
        assert_eq!(first_record(&[22, 3, 1, 0, 200]), FirstRecord::Tls);
        assert_eq!(first_record(&[21, 3, 3, 0, 2]), FirstRecord::Tls);
        assert_eq!(first_record(&[23, 3, 3, 0, 2]), FirstRecord::NotTls, "application data first");
        assert_eq!(first_record(&[22, 0x10, 0, 0, 2]), FirstRecord::NotTls, "version 16.0");
    }

    #[test]
    fn the_serving_certificate_names_loopback_and_the_listen_address() {
        let c = Certs::make("10.1.2.3".parse().unwrap(), None).unwrap();
        assert!(c.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"));
        assert_ne!(c.ca_pem, c.server_pem);
        assert_eq!(c.config.alpn_protocols, vec![b"http/1.1".to_vec()]);
        // A CA kept in a directory is the same CA at the next start.
        let dir = std::env::temp_dir().join(format!("rvlab-tls-keep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let a = Certs::make("127.0.0.1".parse().unwrap(), Some(&dir)).unwrap();
        let b = Certs::make("127.0.0.1".parse().unwrap(), Some(&dir)).unwrap();
        assert_eq!(a.ca_pem, b.ca_pem);
        assert_ne!(a.server_pem, b.server_pem, "the serving certificate is new at each start");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(CA_KEY_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
