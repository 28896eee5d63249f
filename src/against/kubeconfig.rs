//! The cluster a kubeconfig's current context names: its `server`, how to trust it
//! (`certificate-authority-data`, `certificate-authority`, `insecure-skip-tls-verify`,
//! `tls-server-name`) and the user's credentials (`token`, `tokenFile`, client certificates as
//! `client-certificate-data` + `client-key-data` or files). Upstream: client-go
//! `tools/clientcmd/api/types.go` (field names) and `client_config.go` (file paths relative to
//! the kubeconfig's directory). exec plugins, auth providers and basic auth are refused by name.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::Value;

/// Where the cluster is and how to reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The `server` URL as written.
    pub server: String,
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// A path prefix in `server` (`https://h/prefix`), without a trailing `/`; usually empty.
    pub prefix: String,
    /// PEM of the CAs to trust; None = the cluster's certificate is not checked against a CA
    /// (only with `insecure-skip-tls-verify`), or no TLS.
    pub ca_pem: Option<Vec<u8>>,
    pub insecure: bool,
    /// `tls-server-name`: the name the serving certificate is checked against.
    pub server_name: Option<String>,
    pub token: Option<String>,
    /// PEM certificate chain and key of the user.
    pub client_cert: Option<(Vec<u8>, Vec<u8>)>,
}

/// Reads the kubeconfig at `path` and resolves its current context.
pub fn load(path: &Path) -> Result<Target, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    resolve(&text, &dir).map_err(|e| format!("{}: {e}", path.display()))
}

fn named<'a>(doc: &'a Value, list: &str, name: &str, field: &str) -> Result<&'a Value, String> {
    let items = match doc.get(list) {
        Some(Value::Array(items)) => items.as_slice(),
        None | Some(Value::Null) => &[],
        Some(_) => return Err(format!("`{list}` is not a list")),
    };
    items
        .iter()
        .find(|i| i.get("name").and_then(Value::as_str) == Some(name))
        .map(|i| i.get(field).unwrap_or(&Value::Null))
        .ok_or_else(|| format!("no {} named {name:?} in `{list}`", &list[..list.len() - 1]))
}

fn string<'a>(v: &'a Value, field: &str) -> Result<Option<&'a str>, String> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("`{field}` is not a string: {other}")),
    }
}

fn data(v: &Value, field: &str) -> Result<Option<Vec<u8>>, String> {
    string(v, field)?
        .map(|s| {
            let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            base64::engine::general_purpose::STANDARD
                .decode(clean)
                .map_err(|e| format!("`{field}` is not base64: {e}"))
        })
        .transpose()
}

/// How a kubeconfig's files are read (`std::fs::read`; the fuzz target reads none).
pub type ReadFile<'a> = &'a dyn Fn(&Path) -> std::io::Result<Vec<u8>>;

fn file(v: &Value, field: &str, dir: &Path, read: ReadFile) -> Result<Option<Vec<u8>>, String> {
    string(v, field)?
        .map(|p| {
            let p = PathBuf::from(p);
            let full = if p.is_absolute() { p } else { dir.join(p) };
            read(&full).map_err(|e| format!("`{field}` {}: {e}", full.display()))
        })
        .transpose()
}

/// The current context of a kubeconfig's text; relative file names are under `dir`.
pub fn resolve(text: &str, dir: &Path) -> Result<Target, String> {
    resolve_with(text, dir, &|p| std::fs::read(p))
}

/// [`resolve`], reading the files the kubeconfig names with `read`.
pub fn resolve_with(text: &str, dir: &Path, read: ReadFile) -> Result<Target, String> {
    let doc = super::yaml::parse(text)?;
    if !doc.is_object() {
        return Err("not a kubeconfig: the document is not a mapping".into());
    }
    let current = string(&doc, "current-context")?.ok_or("no `current-context`")?;
    let context = named(&doc, "contexts", current, "context")?;
    let cluster_name =
        string(context, "cluster")?.ok_or_else(|| format!("context {current:?} names no cluster"))?;
    let cluster = named(&doc, "clusters", cluster_name, "cluster")?;
    let server =
        string(cluster, "server")?.ok_or_else(|| format!("cluster {cluster_name:?} has no `server`"))?;
    let (tls, host, port, prefix) = parse_server(server)?;
    let insecure = match cluster.get("insecure-skip-tls-verify") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("`insecure-skip-tls-verify` is not a boolean: {other}")),
    };
    let ca_pem = match data(cluster, "certificate-authority-data")? {
        Some(d) => Some(d),
        None => file(cluster, "certificate-authority", dir, read)?,
    };
    let server_name = string(cluster, "tls-server-name")?.map(str::to_string);

    let mut target = Target {
        server: server.to_string(),
        tls,
        host,
        port,
        prefix,
        ca_pem,
        insecure,
        server_name,
        token: None,
        client_cert: None,
    };
    if let Some(user_name) = string(context, "user")? {
        let user = named(&doc, "users", user_name, "user")?;
        for refused in ["exec", "auth-provider", "username", "password"] {
            if user.get(refused).is_some_and(|v| !v.is_null()) {
                return Err(format!("user {user_name:?} uses `{refused}`, which --against does not support"));
            }
        }
        target.token = match string(user, "token")? {
            Some(t) => Some(t.to_string()),
            None => {
                file(user, "tokenFile", dir, read)?.map(|t| String::from_utf8_lossy(&t).trim().to_string())
            }
        };
        let cert = match data(user, "client-certificate-data")? {
            Some(d) => Some(d),
            None => file(user, "client-certificate", dir, read)?,
        };
        let key = match data(user, "client-key-data")? {
            Some(d) => Some(d),
            None => file(user, "client-key", dir, read)?,
        };
        target.client_cert = match (cert, key) {
            (Some(c), Some(k)) => Some((c, k)),
            (None, None) => None,
            _ => {
                return Err(format!(
                    "user {user_name:?} has a client certificate without its key, or a key without its certificate"
                ));
            }
        };
    }
    Ok(target)
}

/// `https://host:port[/prefix]` → (tls, host, port, prefix).
fn parse_server(server: &str) -> Result<(bool, String, u16, String), String> {
    let (tls, rest) = if let Some(r) = server.strip_prefix("https://") {
        (true, r)
    } else if let Some(r) = server.strip_prefix("http://") {
        (false, r)
    } else {
        return Err(format!("server {server:?}: expected https://HOST[:PORT] or http://HOST[:PORT]"));
    };
    let (authority, prefix) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
        None => (rest, ""),
    };
    let bad = || format!("server {server:?}: cannot read its host and port");
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6.split_once(']').ok_or_else(bad)?;
        (h, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(bad());
    }
    let port = match port {
        Some(p) => p.parse::<u16>().map_err(|_| bad())?,
        None if tls => 443,
        None => 80,
    };
    Ok((tls, host.to_string(), port, prefix.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rvlab_serves_kubeconfig_resolves() {
        let text = crate::serve::ServeConfig::kubeconfig_text(
            "127.0.0.1:8443".parse().unwrap(),
            Some("-----BEGIN CERTIFICATE-----\nX\n"),
        );
        let t = resolve(&text, Path::new("/")).unwrap();
        assert_eq!((t.tls, t.host.as_str(), t.port, t.prefix.as_str()), (true, "127.0.0.1", 8443, ""));
        assert_eq!(t.ca_pem.as_deref(), Some(&b"-----BEGIN CERTIFICATE-----\nX\n"[..]));
        assert_eq!(t.token.as_deref(), Some(crate::serve::config::TOKEN));
        let plain = crate::serve::ServeConfig::kubeconfig_text("127.0.0.1:80".parse().unwrap(), None);
        let t = resolve(&plain, Path::new("/")).unwrap();
        assert_eq!((t.tls, t.port, t.token, t.ca_pem), (false, 80, None, None));
    }

    #[test]
    fn servers_and_refusals() {
        assert_eq!(parse_server("https://[::1]:6443/p/"), Ok((true, "::1".into(), 6443, "/p".into())));
        assert_eq!(parse_server("https://example"), Ok((true, "example".into(), 443, String::new())));
        assert!(parse_server("ftp://x").is_err());
        assert!(parse_server("https://x:99999").is_err());
        let base = "current-context: c\ncontexts:\n- name: c\n  context:\n    cluster: k\n    user: u\nclusters:\n- name: k\n  cluster:\n    server: https://h:1\n";
        let exec = format!("{base}users:\n- name: u\n  user:\n    exec:\n      command: x\n");
        assert_eq!(
            resolve(&exec, Path::new("/")),
            Err("user \"u\" uses `exec`, which --against does not support".into())
        );
        assert_eq!(resolve(base, Path::new("/")), Err("no user named \"u\" in `users`".into()));
        assert_eq!(resolve("a: 1\n", Path::new("/")), Err("no `current-context`".into()));
        let half = format!("{base}users:\n- name: u\n  user:\n    client-key-data: S0VZ\n");
        assert!(resolve(&half, Path::new("/")).is_err_and(|e| e.contains("without")));
    }
}
