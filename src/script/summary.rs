//! One line's summary, in English or 中文, from the session's typed values: the answer's status
//! line (`410 Gone — Expired`), the object's name or the list's items, its resourceVersion and a
//! continue token; the frames an `events` line read; etcd's revision, count and "more"; the
//! error in the language; else the output without its line number. The app's console
//! (`ui::console`) and the console embed (`embed::console`) both show it, so a line reads alike
//! in both. Terms (watch, revision, RV, continue) stay in English in the Chinese text, as Chinese
//! Kubernetes documentation writes them.

use serde_json::Value;

use super::outcome::LineFailure;
use super::reply::{Body, EtcdReply, Reply, status_line, status_text};
use super::why::Lang;

/// At most this many characters of an output without an answer to summarise.
pub const MAX_SHOWN_OUTPUT: usize = 90;

/// The summary of a line that gave `out` (its typed `reply`; `failure` when it did not run).
pub fn summary(reply: &Reply, failure: Option<&LineFailure>, out: &Value, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let error = failure.map(|f| f.render(lang)).or_else(|| reply.error().map(str::to_string));
    if let Some(e) = error {
        return if zh { format!("错误：{e}") } else { format!("error: {e}") };
    }
    match reply {
        Reply::Api(a) => match &a.watch {
            Some(id) => {
                let code = u64::from(a.code);
                let status = format!("{code} {}", status_text(code));
                if zh {
                    format!("{status} — watch {id} 已建立")
                } else {
                    format!("{status} — watch {id} opened")
                }
            }
            None => {
                let mut s = status_line(a);
                let rv = match &a.body {
                    Body::List(l) => {
                        let n = l.items.len();
                        s.push_str(&match (zh, n) {
                            (true, n) => format!(" · {n} 项"),
                            (false, 1) => " · 1 item".to_string(),
                            (false, n) => format!(" · {n} items"),
                        });
                        l.resource_version.as_deref()
                    }
                    Body::Object(o) => {
                        if let Some(name) = &o.name {
                            s.push_str(&format!(" · {name}"));
                        }
                        o.resource_version.as_deref()
                    }
                    Body::Status(_) | Body::None => None,
                };
                if let Some(rv) = rv {
                    s.push_str(&format!(" · RV {rv}"));
                }
                if a.body.continue_token().is_some() {
                    s.push_str(" · continue…");
                }
                s
            }
        },
        Reply::Events(e) => {
            let kinds: Vec<&str> = e.events.iter().map(|f| f.kind.as_str()).collect();
            let mut s = match (zh, kinds.len()) {
                (false, 0) => "no events".to_string(),
                (true, 0) => "没有事件".to_string(),
                (false, 1) => format!("1 event: {}", kinds[0]),
                (true, 1) => format!("1 个事件：{}", kinds[0]),
                (false, n) => format!("{n} events: {}", kinds.join(", ")),
                (true, n) => format!("{n} 个事件：{}", kinds.join(", ")),
            };
            if e.closed {
                s.push_str(if zh { "（已关闭）" } else { " (closed)" });
            }
            s
        }
        Reply::Etcd(EtcdReply { revision: Some(rev), count, more, .. }) => {
            let mut s = format!("revision {rev}");
            if let Some(c) = count {
                s.push_str(&if zh { format!(" · 数量 {c}") } else { format!(" · count {c}") });
            }
            if *more == Some(true) {
                s.push_str(if zh { " · 还有更多" } else { " · more" });
            }
            s
        }
        Reply::Etcd(_) | Reply::ClientError(_) | Reply::Other => shown(out, lang),
    }
}

/// An output with no answer to summarise (a setting, `advance`, an informer), as its JSON
/// without the line number, cut at [`MAX_SHOWN_OUTPUT`] characters.
fn shown(out: &Value, lang: Lang) -> String {
    let mut rest = out.clone();
    if let Some(o) = rest.as_object_mut() {
        o.remove("line");
    }
    let s = rest.to_string();
    if s == "{}" {
        match lang {
            Lang::En => "ok".to_string(),
            Lang::Zh => "完成".to_string(),
        }
    } else if s.chars().count() > MAX_SHOWN_OUTPUT {
        s.chars().take(MAX_SHOWN_OUTPUT).collect::<String>() + "…"
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Session;

    fn summaries(lines: &[&str], lang: Lang) -> Vec<String> {
        let mut s = Session::with_explain(true);
        lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| s.run_line_outcome(i + 1, l))
            .map(|o| summary(&o.reply, o.failure.as_ref(), &o.out, lang))
            .collect()
    }

    #[test]
    fn a_line_is_summarised_from_its_typed_answer_in_both_languages() {
        let lines = [
            r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
            r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}"#,
            "GET /api/v1/namespaces/default/configmaps?limit=1",
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
            "events w1",
            "etcd get /registry --prefix --limit=1",
            "compact 3",
            "GET /api/v1/namespaces/default/configmaps?resourceVersion=1&resourceVersionMatch=Exact",
            "set explain on",
            "nonsense",
        ];
        let en = summaries(&lines, Lang::En);
        assert_eq!(en[0], "201 Created · a · RV 2");
        assert_eq!(en[2], "200 OK · 1 item · RV 3 · continue…");
        assert_eq!(en[3], "200 OK — watch w1 opened");
        assert_eq!(en[4], "2 events: ADDED, ADDED");
        assert_eq!(en[5], "revision 3 · count 2 · more");
        assert_eq!(en[6], "revision 3");
        assert_eq!(en[7], "410 Gone — Expired");
        assert!(en[8].starts_with('{') && !en[8].contains("\"line\""), "{}", en[8]);
        assert!(en[9].starts_with("error: "), "{}", en[9]);
        let zh = summaries(&lines, Lang::Zh);
        assert_eq!(zh[2], "200 OK · 1 项 · RV 3 · continue…");
        assert_eq!(zh[3], "200 OK — watch w1 已建立");
        assert_eq!(zh[4], "2 个事件：ADDED, ADDED");
        assert_eq!(zh[5], "revision 3 · 数量 2 · 还有更多");
        assert!(zh[9].starts_with("错误：") && zh[9] != en[9], "{}", zh[9]);
        let long = summaries(&[&format!("set nope {}", "x".repeat(200))], Lang::En);
        assert!(long[0].starts_with("error: "), "{}", long[0]);
        assert_eq!(shown(&serde_json::json!({"line": 4}), Lang::Zh), "完成");
        let cut = shown(&serde_json::json!({"line": 1, "k": "y".repeat(200)}), Lang::En);
        assert_eq!(cut.chars().count(), MAX_SHOWN_OUTPUT + 1);
    }
}
