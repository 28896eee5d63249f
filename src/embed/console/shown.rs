//! What the console embed shows of one line, from the session's typed values: its one-line
//! summary (the answer's status line, items, resourceVersion; the frames an `events` line
//! read; etcd's revision; the error in the language), whether it is an error, and the detail
//! of the selected line (the output object as `rvlab run` prints it, indented, and the engine's
//! decision rendered in the language). Nothing here reads meaning back out of the output JSON.

use serde_json::Value;

use super::words::Word;
use crate::script::LineOutcome;
use crate::script::reply::{Body, EtcdReply, Reply, status_line, status_text};
use crate::script::why::{self, Lang};

/// One line of the console's log.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Its number in the sandbox (the output's `"line"`).
    pub n: usize,
    pub text: String,
    /// What the line gave; None for a comment.
    pub outcome: Option<LineOutcome>,
}

impl Row {
    /// The row's summary in `lang`.
    pub fn summary(&self, lang: Lang) -> String {
        let Some(o) = &self.outcome else { return Word::Comment.text(lang).to_string() };
        if let Some(f) = &o.failure {
            return f.render(lang);
        }
        if let Some(e) = o.reply.error() {
            return e.to_string();
        }
        match &o.reply {
            Reply::Api(a) => match &a.watch {
                Some(id) => {
                    let code = u64::from(a.code);
                    let status = format!("{code} {}", status_text(code));
                    Word::WatchOpened.with(lang, &[status.trim_end(), id])
                }
                None => {
                    let mut s = status_line(a);
                    let rv = match &a.body {
                        Body::List(l) => {
                            s.push_str(" · ");
                            s.push_str(&match l.items.len() {
                                1 => Word::Item.text(lang).to_string(),
                                n => Word::Items.with(lang, &[&n.to_string()]),
                            });
                            l.resource_version.as_deref()
                        }
                        Body::Object(ob) => {
                            if let Some(name) = &ob.name {
                                s.push_str(" · ");
                                s.push_str(name);
                            }
                            ob.resource_version.as_deref()
                        }
                        Body::Status(_) | Body::None => None,
                    };
                    if let Some(rv) = rv {
                        s.push_str(" · RV ");
                        s.push_str(rv);
                    }
                    if a.body.continue_token().is_some() {
                        s.push_str(" · continue…");
                    }
                    s
                }
            },
            Reply::Events(e) => {
                let kinds: Vec<&str> = e.events.iter().map(|f| f.kind.as_str()).collect();
                let mut s = match kinds.len() {
                    0 => Word::NoEvents.text(lang).to_string(),
                    n => Word::Events.with(lang, &[&n.to_string(), &kinds.join(", ")]),
                };
                if e.closed {
                    s.push_str(Word::Closed.text(lang));
                }
                s
            }
            Reply::Etcd(EtcdReply { revision: Some(rev), .. }) => {
                Word::Revision.with(lang, &[&rev.to_string()])
            }
            Reply::Etcd(_) | Reply::ClientError(_) | Reply::Other => compact(&o.out),
        }
    }

    /// Whether the row is drawn as an error: it did not run, or its answer is one.
    pub fn is_error(&self) -> bool {
        self.outcome.as_ref().is_some_and(|o| o.failure.is_some() || o.reply.is_error())
    }

    /// The output object as `rvlab run` prints it, indented; None for a comment.
    pub fn output_text(&self) -> Option<String> {
        let o = self.outcome.as_ref()?;
        serde_json::to_string_pretty(&o.out).ok()
    }

    /// The engine's decision behind the line, in `lang` (what "why" shows).
    pub fn why(&self, lang: Lang) -> Option<String> {
        let o = self.outcome.as_ref()?;
        o.why.as_ref().map(|w| why::render(w, lang))
    }
}

/// An output without an answer to summarise (a setting, `advance`), as its JSON on one line
/// without the `"line"` number.
fn compact(out: &Value) -> String {
    match out {
        Value::Object(m) => {
            let rest: serde_json::Map<String, Value> =
                m.iter().filter(|(k, _)| k.as_str() != "line").map(|(k, v)| (k.clone(), v.clone())).collect();
            Value::Object(rest).to_string()
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Session;

    fn rows(lines: &[&str]) -> Vec<Row> {
        let mut s = Session::with_explain(true);
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| Row { n: i + 1, text: l.to_string(), outcome: s.run_line_outcome(i + 1, l) })
            .collect()
    }

    #[test]
    fn rows_summarise_the_typed_answers_in_both_languages() {
        let r = rows(&[
            r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
            "GET /api/v1/namespaces/default/configmaps?limit=1",
            "# a note",
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
            "events w1",
            "compact 2",
            "GET /api/v1/namespaces/default/configmaps?resourceVersion=1&resourceVersionMatch=Exact",
            "nonsense",
        ]);
        let en: Vec<String> = r.iter().map(|r| r.summary(Lang::En)).collect();
        assert_eq!(en[0], "201 Created · a · RV 2");
        assert_eq!(en[1], "200 OK · 1 item · RV 2");
        assert_eq!(en[2], "comment");
        assert_eq!(en[3], "200 OK · watch w1 opened");
        assert_eq!(en[4], "1 events: ADDED");
        assert_eq!(
            r[7].summary(Lang::Zh),
            r[7].outcome.as_ref().unwrap().failure.as_ref().unwrap().render(Lang::Zh)
        );
        assert!(en[6].starts_with("410 Gone — Expired"), "{}", en[6]);
        assert_eq!(r[1].summary(Lang::Zh), "200 OK · 1 项 · RV 2");
        assert!(r[6].is_error() && r[7].is_error() && !r[0].is_error() && !r[2].is_error());
        // The selected line's detail: the output as `rvlab run` prints it, and the decision.
        let out: Value = serde_json::from_str(&r[6].output_text().unwrap()).unwrap();
        assert_eq!(out, r[6].outcome.as_ref().unwrap().out);
        assert_ne!(r[6].why(Lang::En), r[6].why(Lang::Zh));
        assert!(r[6].why(Lang::En).is_some() && r[2].why(Lang::En).is_none());
    }
}
