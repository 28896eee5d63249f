//! `rvlab serve`'s options: where to listen (loopback unless asked otherwise), the kubeconfig it
//! writes, the clock speed, the record file and the scripts run before serving.
//! Upstream counterpart: kube-apiserver's `--bind-address`/`--secure-port` and the kubeconfig a
//! cluster installer writes.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The default listen address: loopback, a fixed port.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8443";

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
                "--watch-delay" => cfg.watch_delay = super::network::parse_delay(&value("--watch-delay")?)?,
                f if f.starts_with("--") => return Err(format!("unknown option {f}")),
                _ => cfg.scripts.push(PathBuf::from(a)),
            }
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

    /// The kubeconfig for a server at `addr`: plain HTTP, no credentials, namespace `default`.
    pub fn kubeconfig_text(addr: SocketAddr) -> String {
        format!(
            "apiVersion: v1
kind: Config
clusters:
- name: rvlab
  cluster:
    server: http://{addr}
users:
- name: rvlab
  user: {{}}
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
    }
}
