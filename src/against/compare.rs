//! What is compared between the simulation's answer and the cluster's, and how.
//!
//! Each side's answer is reduced to a normal form: `code`, the Status `reason` and `message`,
//! the object's `name` or a list's `items` (names), a started `watch`, a watch's `events` and
//! whether it is `closed`, and `rvs`: every resourceVersion in the answer, each written as its
//! relation to the resourceVersions that side has shown before (see [`Rvs`]). Absolute numbers
//! never meet: a simulation that starts at revision 1 and a cluster at revision 8,000,000 agree
//! when their versions stand in the same order. Numbers in a `message` are rewritten the same
//! way (without being remembered), so `too old resource version: 5 (9)` compares by relation.

use serde_json::{Map, Value, json};

/// The resourceVersions one side has shown, in the order first seen.
#[derive(Debug, Default, Clone)]
pub struct Rvs {
    seen: Vec<String>,
}

impl Rvs {
    fn position(&self, rv: &str) -> Option<usize> {
        self.seen.iter().position(|s| s == rv)
    }

    /// How `n` (not seen before) stands among the seen versions: `newest`, `oldest`, or
    /// `after #i` (the newest seen version older than it).
    fn relation(&self, n: u64) -> String {
        let nums = self.seen.iter().enumerate().filter_map(|(i, s)| s.parse::<u64>().ok().map(|v| (i, v)));
        let below = nums.clone().filter(|(_, v)| *v < n).max_by_key(|(_, v)| *v);
        let above = nums.clone().any(|(_, v)| v > n);
        match (below, above) {
            (_, false) => "newest".to_string(),
            (None, true) => "oldest".to_string(),
            (Some((i, _)), true) => format!("after #{}", i + 1),
        }
    }

    /// The label of `rv`, remembering it: `#k` when seen before (k-th distinct version), else
    /// `#k newest|oldest|after #i`, or `#k opaque` when it is not a number.
    pub fn label(&mut self, rv: &str) -> String {
        if let Some(k) = self.position(rv) {
            return format!("#{}", k + 1);
        }
        let rel = match rv.parse::<u64>() {
            Ok(n) => self.relation(n),
            Err(_) => "opaque".to_string(),
        };
        self.seen.push(rv.to_string());
        format!("#{} {rel}", self.seen.len())
    }

    /// A number in a message: `#k` when it is a seen version, else `#? <relation>`; not
    /// remembered.
    fn describe(&self, digits: &str) -> String {
        match (self.position(digits), digits.parse::<u64>()) {
            (Some(k), _) => format!("#{}", k + 1),
            (None, Ok(n)) => format!("#? {}", self.relation(n)),
            (None, Err(_)) => digits.to_string(),
        }
    }

    /// `message` with each free-standing number replaced by [`Rvs::describe`].
    pub fn message(&self, message: &str) -> String {
        let chars: Vec<char> = message.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let free_before = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '.');
            if c.is_ascii_digit() && free_before {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let digits: String = chars[start..i].iter().collect();
                let free_after = i == chars.len()
                    || !(chars[i].is_alphanumeric()
                        || chars[i] == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit));
                if free_after {
                    out.push_str(&self.describe(&digits));
                } else {
                    out.push_str(&digits);
                }
                continue;
            }
            out.push(c);
            i += 1;
        }
        out
    }
}

/// One side's view of an answer: its normal form and the raw resourceVersions in it (in the
/// order of their labels).
pub struct Seen {
    pub norm: Value,
    pub raw_rvs: Vec<String>,
}

fn rv_of(obj: &Value) -> Option<&str> {
    obj.pointer("/metadata/resourceVersion").and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn name_of(obj: &Value) -> String {
    obj.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string()
}

/// The normal form of an API answer: `{"code","body"}`, `{"code","watch"}` or `{"error"}`.
/// `back` turns the cluster's namespace names into the script's in messages.
pub fn answer(out: &Value, rvs: &mut Rvs, back: &dyn Fn(&str) -> String) -> Seen {
    let mut norm = Map::new();
    let mut raw = Vec::new();
    norm.insert("code".into(), out.get("code").cloned().unwrap_or(Value::Null));
    if out.get("watch").is_some() {
        norm.insert("watch".into(), Value::Bool(true));
    }
    if let Some(e) = out.get("error") {
        norm.insert("error".into(), e.clone());
    }
    let mut labels = Vec::new();
    let mut push = |rv: &str, labels: &mut Vec<Value>, rvs: &mut Rvs| {
        labels.push(Value::String(rvs.label(rv)));
        raw.push(rv.to_string());
    };
    if let Some(body) = out.get("body") {
        if body.get("kind").and_then(Value::as_str) == Some("Status") {
            for k in ["reason", "message"] {
                if let Some(s) = body.get(k).and_then(Value::as_str) {
                    let text = if k == "message" { rvs.message(&back(s)) } else { s.to_string() };
                    norm.insert(k.into(), Value::String(text));
                }
            }
        } else if let Some(items) = body.get("items").and_then(Value::as_array) {
            if let Some(rv) = rv_of(body) {
                push(rv, &mut labels, rvs);
            }
            norm.insert("items".into(), items.iter().map(|i| Value::String(name_of(i))).collect());
            for i in items {
                if let Some(rv) = rv_of(i) {
                    push(rv, &mut labels, rvs);
                }
            }
        } else if body.is_object() {
            norm.insert("name".into(), Value::String(name_of(body)));
            if let Some(rv) = rv_of(body) {
                push(rv, &mut labels, rvs);
            }
        }
    }
    if !labels.is_empty() {
        norm.insert("rvs".into(), Value::Array(labels));
    }
    Seen { norm: Value::Object(norm), raw_rvs: raw }
}

/// The normal form of the frames a watch delivered: `"TYPE name #rv"` each (`ERROR` frames as
/// `ERROR code reason: message`, `BOOKMARK #rv`), and whether the stream has ended.
pub fn events(frames: &[Value], closed: bool, rvs: &mut Rvs, back: &dyn Fn(&str) -> String) -> Seen {
    let mut raw = Vec::new();
    let mut list = Vec::new();
    for f in frames {
        let ty = f.get("type").and_then(Value::as_str).unwrap_or("?");
        let obj = f.get("object").unwrap_or(&Value::Null);
        let text = if ty == "ERROR" {
            let s = |k: &str| obj.get(k).map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
            format!(
                "ERROR {} {}: {}",
                s("code").unwrap_or_default(),
                s("reason").unwrap_or_default(),
                rvs.message(&back(&s("message").unwrap_or_default()))
            )
        } else {
            let label = match rv_of(obj) {
                Some(rv) => {
                    raw.push(rv.to_string());
                    rvs.label(rv)
                }
                None => "-".to_string(),
            };
            if ty == "BOOKMARK" {
                format!("BOOKMARK {label}")
            } else {
                format!("{ty} {} {label}", name_of(obj))
            }
        };
        list.push(Value::String(text));
    }
    Seen { norm: json!({"events": list, "closed": closed}), raw_rvs: raw }
}

/// The fields where the two normal forms differ, in a fixed order: `{"field","sim","cluster"}`.
pub fn diff(sim: &Value, cluster: &Value) -> Vec<Value> {
    const FIELDS: [&str; 10] =
        ["code", "watch", "error", "reason", "message", "name", "items", "rvs", "events", "closed"];
    FIELDS
        .iter()
        .filter_map(|f| {
            let (a, b) = (sim.get(*f).unwrap_or(&Value::Null), cluster.get(*f).unwrap_or(&Value::Null));
            (a != b).then(|| json!({"field": f, "sim": a, "cluster": b}))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_relation() {
        let (mut a, mut b) = (Rvs::default(), Rvs::default());
        let la: Vec<String> = ["5", "5", "7", "6", "2"].iter().map(|r| a.label(r)).collect();
        let lb: Vec<String> = ["900", "900", "1200", "1000", "10"].iter().map(|r| b.label(r)).collect();
        assert_eq!(la, ["#1 newest", "#1", "#2 newest", "#3 after #1", "#4 oldest"]);
        assert_eq!(la, lb);
        assert_eq!(a.label("x"), "#5 opaque");
        assert_eq!(
            a.message("too old resource version: 5 (7), k8s v1 12.5s 99"),
            "too old resource version: #1 (#2), k8s v1 12.5s #? newest"
        );
        assert_eq!(
            b.message("Too large resource version: 1300, current: 1200"),
            "Too large resource version: #? newest, current: #2"
        );
    }

    #[test]
    fn answers_reduce_to_what_is_compared() {
        let id = |s: &str| s.to_string();
        let mut r = Rvs::default();
        let list = json!({"code": 200, "body": {"kind": "ConfigMapList", "metadata": {"resourceVersion": "4"},
            "items": [{"metadata": {"name": "a", "resourceVersion": "2"}}, {"metadata": {"name": "b", "resourceVersion": "4"}}]}});
        let seen = answer(&list, &mut r, &id);
        assert_eq!(
            seen.norm,
            json!({"code": 200, "items": ["a", "b"], "rvs": ["#1 newest", "#2 oldest", "#1"]})
        );
        assert_eq!(seen.raw_rvs, ["4", "2", "4"]);
        let gone = json!({"code": 410, "body": {"kind": "Status", "reason": "Expired", "message": "too old resource version: 2 (4)"}});
        assert_eq!(
            answer(&gone, &mut r, &id).norm,
            json!({"code": 410, "reason": "Expired", "message": "too old resource version: #2 (#1)"})
        );
        let frames = [
            json!({"type": "ADDED", "object": {"metadata": {"name": "c", "resourceVersion": "5"}}}),
            json!({"type": "ERROR", "object": {"kind": "Status", "code": 410, "reason": "Expired", "message": "too old resource version: 2 (5)"}}),
        ];
        assert_eq!(
            events(&frames, true, &mut r, &id).norm,
            json!({"events": ["ADDED c #3 newest", "ERROR 410 Expired: too old resource version: #2 (#3)"], "closed": true})
        );
        assert_eq!(
            diff(&json!({"code": 200, "items": ["a"]}), &json!({"code": 200, "items": ["a", "b"]})),
            vec![json!({"field": "items", "sim": ["a"], "cluster": ["a", "b"]})]
        );
    }
}
