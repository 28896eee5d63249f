//! `rvlab serve`'s options: where to listen (loopback unless asked otherwise), HTTPS or `--http`,
//! where the page is served beside HTTPS, the kubeconfig it writes, the clock speed, the record
//! file and the scripts run before serving.
//! Upstream counterpart: kube-apiserver's `--bind-address`/`--secure-port` and the kubeconfig a
//! cluster installer writes.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The default listen address: loopback, a fixed port.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8443";

/// The bearer token the HTTPS kubeconfig carries (no request is refused for its credentials).
pub const TOKEN: &str = "rvlab";

#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub listen: SocketAddr,
    /// Whether `--listen` was given (only then may the address be beyond loopback).
    pub listen_explicit: bool,
    pub kubeconfig: PathBuf,
    pub speed: f64,
    pub record: Option<PathBuf>,
    /// Scripts run (in order) before the server accepts requests.
    pub scripts: Vec<PathBuf>,
    /// The built playground to serve at `/` (`dist/`, from `./dev.sh build`), if present.
    pub dist: Option<PathBuf>,
    /// Read script lines from standard input while serving.
    pub stdin: bool,
    /// Wall time each watch request is held before the engine sees it (see `network`).
    pub watch_delay: crate::clock::Duration,
    /// `--http`: the API over plain HTTP on one listener (no TLS, no page listener).
    pub http: bool,
    /// `--page-listen`: where the playground is served over plain HTTP beside the HTTPS API.
    pub page_listen: Option<SocketAddr>,
    /// `--tls-cert-dir`: where the CA is kept between runs.
    pub tls_cert_dir: Option<PathBuf>,
}

impl ServeConfig {
    pub fn parse(args: &[String]) -> Result<ServeConfig, String> {
        let mut cfg = ServeConfig {
            listen: DEFAULT_LISTEN.parse().map_err(|_| "bad default address".to_string())?,
            listen_explicit: false,
            kubeconfig: PathBuf::from("rvlab.kubeconfig"),
            speed: 1.0,
            record: None,
            scripts: Vec::new(),
            dist: None,
            stdin: false,
            watch_delay: crate::clock::Duration(0),
            http: false,
            page_listen: None,
            tls_cert_dir: None,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let (flag, inline) = match a.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (a.as_str(), None),
            };
            let mut value = |name: &str| -> Result<String, String> {
                match inline.clone() {
                    Some(v) => Ok(v),
                    None => it.next().cloned().ok_or_else(|| format!("{name} needs a value")),
                }
            };
            match flag {
                "--listen" => {
                    let v = value("--listen")?;
                    cfg.listen = v.parse().map_err(|_| {
                        format!("--listen {v:?}: expected an IP address and port, e.g. 127.0.0.1:8443")
                    })?;
                    cfg.listen_explicit = true;
                }
                "--kubeconfig" => cfg.kubeconfig = PathBuf::from(value("--kubeconfig")?),
                "--speed" => {
                    let v = value("--speed")?;
                    cfg.speed = v
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 10_000.0)
                        .ok_or_else(|| format!("--speed {v:?}: expected a number above 0, at most 10000"))?;
                }
                "--record" => cfg.record = Some(PathBuf::from(value("--record")?)),
                "--dist" => cfg.dist = Some(PathBuf::from(value("--dist")?)),
                "--stdin" => cfg.stdin = true,
                "--http" => cfg.http = true,
                "--page-listen" => {
                    let v = value("--page-listen")?;
                    cfg.page_listen = Some(v.parse().map_err(|_| {
                        format!("--page-listen {v:?}: expected an IP address and port, e.g. 127.0.0.1:8444")
                    })?);
                }
                "--tls-cert-dir" => cfg.tls_cert_dir = Some(PathBuf::from(value("--tls-cert-dir")?)),
                "--watch-delay" => cfg.watch_delay = super::network::parse_delay(&value("--watch-delay")?)?,
                f if f.starts_with("--") => return Err(format!("unknown option {f}")),
                _ => cfg.scripts.push(PathBuf::from(a)),
            }
        }
        if cfg.http && (cfg.page_listen.is_some() || cfg.tls_cert_dir.is_some()) {
            return Err("--http serves the API and the page on one plain-HTTP listener: \
                        --page-listen and --tls-cert-dir need HTTPS"
                .to_string());
        }
        if cfg.dist.is_none() && std::path::Path::new("dist/index.html").is_file() {
            cfg.dist = Some(PathBuf::from("dist"));
        }
        Ok(cfg)
    }

    /// Nothing listens beyond loopback unless asked: a non-loopback address is refused unless
    /// it came from an explicit `--listen`.
    pub fn check_listen(&self) -> Result<(), String> {
        if self.listen.ip().is_loopback() || self.listen_explicit {
            Ok(())
        } else {
            Err(format!("refusing to listen on {} (not loopback) without an explicit --listen", self.listen))
        }
    }

    /// Where the page listener binds when serving HTTPS: `--page-listen`, else loopback on the
    /// port after the API's (`8444` beside the default `8443`; a free port when the API's is 0).
    pub fn page_addr(&self) -> SocketAddr {
        if let Some(a) = self.page_listen {
            return a;
        }
        let ip = if self.listen.ip().is_loopback() {
            self.listen.ip()
        } else {
            std::net::Ipv4Addr::LOCALHOST.into()
        };
        let port = match self.listen.port() {
            0 | u16::MAX => 0,
            p => p + 1,
        };
        SocketAddr::new(ip, port)
    }

    /// The kubeconfig for a server at `addr`, namespace `default`: HTTPS with the CA that signed
    /// the serving certificate as `certificate-authority-data` and a bearer token (which the
    /// server accepts, like every request), or plain HTTP without credentials (`--http`) when
    /// there is no CA. The token is there because kubectl asks for a user name and password on
    /// its terminal when an HTTPS cluster's user has no credentials (client-go
    /// `clientcmd/client_config.go`, `getUserIdentificationPartialConfig`).
    pub fn kubeconfig_text(addr: SocketAddr, ca_pem: Option<&str>) -> String {
        use base64::Engine as _;
        let (cluster, user) = match ca_pem {
            Some(pem) => (
                format!(
                    "    certificate-authority-data: {}\n    server: https://{addr}\n",
                    base64::engine::general_purpose::STANDARD.encode(pem)
                ),
                format!("\n    token: {TOKEN}"),
            ),
            None => (format!("    server: http://{addr}\n"), " {}".to_string()),
        };
        format!(
            "apiVersion: v1
kind: Config
clusters:
- name: rvlab
  cluster:
{cluster}users:
- name: rvlab
  user:{user}
contexts:
- name: rvlab
  context:
    cluster: rvlab
    user: rvlab
    namespace: default
current-context: rvlab
preferences: {{}}
"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn loopback_by_default_and_only_explicit_listen_goes_beyond() {
        let c = ServeConfig::parse(&args(&["seed.rv"])).unwrap();
        assert!(c.listen.ip().is_loopback());
        assert!(c.check_listen().is_ok());
        assert_eq!(c.scripts, vec![PathBuf::from("seed.rv")]);
        let c = ServeConfig::parse(&args(&["--listen", "0.0.0.0:9000"])).unwrap();
        assert!(c.check_listen().is_ok(), "explicit --listen may leave loopback");
        let mut c = ServeConfig::parse(&args(&[])).unwrap();
        c.listen = "0.0.0.0:9000".parse().unwrap();
        assert!(c.check_listen().is_err());
    }

    #[test]
    fn bad_options_are_messages() {
        assert!(ServeConfig::parse(&args(&["--listen", "localhost"])).is_err());
        assert!(ServeConfig::parse(&args(&["--speed", "0"])).is_err());
        assert!(ServeConfig::parse(&args(&["--speed", "NaN"])).is_err());
        assert!(ServeConfig::parse(&args(&["--record"])).is_err());
        assert!(ServeConfig::parse(&args(&["--bogus"])).is_err());
        assert_eq!(ServeConfig::parse(&args(&["--speed=10"])).unwrap().speed, 10.0);
        assert!(ServeConfig::parse(&args(&["--watch-delay", "forever"])).is_err());
        assert_eq!(ServeConfig::parse(&args(&["--watch-delay=2s"])).unwrap().watch_delay.0, 2000);
        assert!(ServeConfig::parse(&args(&["--page-listen", "8444"])).is_err());
        assert!(ServeConfig::parse(&args(&["--http", "--page-listen", "127.0.0.1:1"])).is_err());
        assert!(ServeConfig::parse(&args(&["--http", "--tls-cert-dir", "pki"])).is_err());
    }

    #[test]
    fn https_by_default_and_the_page_beside_it() {
        let c = ServeConfig::parse(&args(&[])).unwrap();
        assert!(!c.http);
        assert_eq!(c.page_addr(), "127.0.0.1:8444".parse().unwrap());
        let c = ServeConfig::parse(&args(&["--listen", "127.0.0.1:0"])).unwrap();
        assert_eq!(c.page_addr(), "127.0.0.1:0".parse().unwrap());
        let c = ServeConfig::parse(&args(&["--listen", "0.0.0.0:6443"])).unwrap();
        assert_eq!(c.page_addr(), "127.0.0.1:6444".parse().unwrap(), "the page stays on loopback");
        let c = ServeConfig::parse(&args(&["--page-listen", "127.0.0.1:9000"])).unwrap();
        assert_eq!(c.page_addr(), "127.0.0.1:9000".parse().unwrap());
        assert!(ServeConfig::parse(&args(&["--http"])).unwrap().http);
    }

    #[test]
    fn the_kubeconfig_names_https_and_carries_the_ca() {
        let addr = "127.0.0.1:8443".parse().unwrap();
        let plain = ServeConfig::kubeconfig_text(addr, None);
        assert!(
            plain.contains(
                "  cluster:\n    server: http://127.0.0.1:8443\nusers:\n- name: rvlab\n  user: {}\n"
            ),
            "{plain}"
        );
        let tls = ServeConfig::kubeconfig_text(addr, Some("-----BEGIN CERTIFICATE-----\nX\n"));
        assert!(
            tls.contains(
                "  cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tClgK\n    server: https://127.0.0.1:8443\nusers:\n- name: rvlab\n  user:\n    token: rvlab\n"
            ),
            "{tls}"
        );
    }
}
