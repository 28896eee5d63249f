//! A script line as the cluster gets it.
//!
//! * Namespaces: each namespace the script names (`/namespaces/default/…`, `metadata.namespace`)
//!   becomes one made for the run, `rvlab-<suffix>-<name>`, so the cluster's own objects do not
//!   show in the script's lists and two runs do not meet (`--keep-namespaces` sends the script's
//!   namespaces as written).
//! * resourceVersions and continue tokens written in the script are the simulation's: each is
//!   translated to the cluster's. The runner pairs the versions both sides showed on the same
//!   line (the k-th of one with the k-th of the other); a written version the simulation showed
//!   becomes its partner, another becomes the partner of the nearest older version shown plus
//!   the same distance (so "3 newer than the newest" stays that), and one older than all the
//!   simulation showed, or `0`, stays as written. A continue token is decoded, its version
//!   translated and encoded again.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::apiserver::continue_token::ContinueToken;

#[derive(Debug, Default)]
pub struct Rewrite {
    /// `--keep-namespaces`: the script's namespaces as written.
    pub keep: bool,
    pub suffix: String,
    /// Script namespace → the run's namespace on the cluster, for those made so far.
    pub namespaces: BTreeMap<String, String>,
    /// Simulation resourceVersion → the cluster's, learnt from answers.
    pairs: BTreeMap<i64, i64>,
}

/// The namespace a path names (`/api/v1/namespaces/NS/…`, `/apis/G/V/namespaces/NS/…`).
pub fn namespace_of(target: &str) -> Option<&str> {
    let path = target.split('?').next().unwrap_or("");
    let segs: Vec<&str> = path.split('/').collect();
    let i = segs.iter().position(|s| *s == "namespaces")?;
    // `/api/v1/namespaces` itself (the collection) names none.
    segs.get(i + 1).copied().filter(|s| !s.is_empty() && i >= 2)
}

impl Rewrite {
    pub fn new(keep: bool, suffix: String) -> Rewrite {
        Rewrite { keep, suffix, ..Rewrite::default() }
    }

    /// The cluster's name for the script's namespace `ns` (a DNS label, at most 63 bytes).
    pub fn cluster_namespace(&self, ns: &str) -> String {
        if self.keep {
            return ns.to_string();
        }
        let mut name = format!("rvlab-{}-{ns}", self.suffix);
        while name.len() > 63 {
            name.pop();
        }
        name.trim_end_matches('-').to_string()
    }

    fn ns(&self, ns: &str) -> String {
        self.namespaces.get(ns).cloned().unwrap_or_else(|| self.cluster_namespace(ns))
    }

    /// The cluster's namespace names in `text` written back as the script's.
    pub fn back(&self, text: &str) -> String {
        let mut t = text.to_string();
        for (script, cluster) in &self.namespaces {
            if script != cluster {
                t = t.replace(cluster.as_str(), script);
            }
        }
        t
    }

    /// Remembers that the simulation's versions `sim` were the cluster's `cluster` (same line,
    /// same order); nothing when the two answers showed different numbers of versions.
    pub fn learn(&mut self, sim: &[String], cluster: &[String]) {
        if sim.len() != cluster.len() {
            return;
        }
        for (s, c) in sim.iter().zip(cluster) {
            if let (Ok(s), Ok(c)) = (s.parse::<i64>(), c.parse::<i64>()) {
                self.pairs.entry(s).or_insert(c);
            }
        }
    }

    /// The cluster's version for the simulation's `n` (see the module doc).
    pub fn rv(&self, n: i64) -> i64 {
        if n <= 0 {
            return n;
        }
        if let Some(c) = self.pairs.get(&n) {
            return *c;
        }
        match self.pairs.range(..n).next_back() {
            Some((s, c)) => c.saturating_add(n - s),
            None => n,
        }
    }

    fn rv_text(&self, v: &str) -> String {
        match v.parse::<i64>() {
            Ok(n) => self.rv(n).to_string(),
            Err(_) => v.to_string(),
        }
    }

    fn token(&self, t: &str) -> String {
        match ContinueToken::decode(t) {
            Ok(mut tok) if tok.rv > 0 => {
                tok.rv = self.rv(tok.rv);
                tok.encode()
            }
            _ => t.to_string(),
        }
    }

    /// The request target the cluster gets.
    pub fn target(&self, target: &str) -> String {
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (target, None),
        };
        let mut out = match namespace_of(path) {
            Some(ns) => {
                let from = format!("/namespaces/{ns}");
                path.replacen(&from, &format!("/namespaces/{}", self.ns(ns)), 1)
            }
            None => path.to_string(),
        };
        if let Some(q) = query {
            let pieces: Vec<String> = q
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some(("resourceVersion", v)) => format!("resourceVersion={}", self.rv_text(v)),
                    Some(("continue", v)) => format!("continue={}", self.token(v)),
                    _ => p.to_string(),
                })
                .collect();
            out.push('?');
            out.push_str(&pieces.join("&"));
        }
        out
    }

    /// The body the cluster gets: `metadata.namespace`, `metadata.resourceVersion` and
    /// `preconditions.resourceVersion` translated.
    pub fn body(&self, body: &Value) -> Value {
        let mut b = body.clone();
        if let Some(Value::String(ns)) = b.pointer_mut("/metadata/namespace") {
            *ns = self.ns(ns);
        }
        for p in ["/metadata/resourceVersion", "/preconditions/resourceVersion"] {
            if let Some(Value::String(rv)) = b.pointer_mut(p) {
                *rv = self.rv_text(rv);
            }
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn namespaces_versions_and_tokens_are_the_clusters() {
        let mut r = Rewrite::new(false, "ab12".into());
        r.namespaces.insert("default".into(), r.cluster_namespace("default"));
        assert_eq!(namespace_of("/api/v1/namespaces/default/configmaps?x=1"), Some("default"));
        assert_eq!(namespace_of("/api/v1/namespaces"), None);
        assert_eq!(namespace_of("/api/v1/configmaps"), None);
        r.learn(&["4".into(), "2".into()], &["904".into(), "850".into()]);
        assert_eq!((r.rv(2), r.rv(4), r.rv(7), r.rv(1), r.rv(0), r.rv(3)), (850, 904, 907, 1, 0, 851));
        let tok = ContinueToken { rv: 4, start: "a\u{0}".into() }.encode();
        let want = ContinueToken { rv: 904, start: "a\u{0}".into() }.encode();
        assert_eq!(
            r.target(&format!(
                "/api/v1/namespaces/default/configmaps?limit=1&continue={tok}&resourceVersion=2"
            )),
            format!(
                "/api/v1/namespaces/rvlab-ab12-default/configmaps?limit=1&continue={want}&resourceVersion=850"
            )
        );
        assert_eq!(r.target("/api/v1/configmaps?continue=bad"), "/api/v1/configmaps?continue=bad");
        assert_eq!(
            r.body(&json!({"metadata": {"name": "a", "namespace": "default", "resourceVersion": "4"}})),
            json!({"metadata": {"name": "a", "namespace": "rvlab-ab12-default", "resourceVersion": "904"}})
        );
        assert_eq!(r.back("namespaces \"rvlab-ab12-default\" not found"), "namespaces \"default\" not found");
        let long = r.cluster_namespace(&"é".repeat(40));
        assert_eq!(
            (long.len(), long.starts_with("rvlab-ab12-é")),
            (63, true),
            "cut at a character, not inside one"
        );
        let keep = Rewrite::new(true, "x".into());
        assert_eq!(keep.target("/api/v1/namespaces/default/pods"), "/api/v1/namespaces/default/pods");
    }
}
