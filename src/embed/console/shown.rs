//! What the console embed shows of one line, from the session's typed values: its one-line
//! summary (`script::summary`, as the app's console shows it), whether it is an error, and the detail
//! of the selected line (the output object as `rvlab run` prints it, indented, and the engine's
//! decision rendered in the language). Nothing here reads meaning back out of the output JSON.

use super::words::Word;
use crate::script::LineOutcome;
use crate::script::summary;
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
    /// The row's summary in `lang`: the app's console's (`script::summary`); a comment's.
    pub fn summary(&self, lang: Lang) -> String {
        match &self.outcome {
            Some(o) => summary::summary(&o.reply, o.failure.as_ref(), &o.out, lang),
            None => Word::Comment.text(lang).to_string(),
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
        // The summaries are the app's (`script::summary`); a comment has its own.
        let en: Vec<String> = r.iter().map(|r| r.summary(Lang::En)).collect();
        assert_eq!(en[0], "201 Created · a · RV 2");
        assert_eq!(en[2], "comment");
        assert_eq!(r[2].summary(Lang::Zh), "注释");
        assert_eq!(en[3], "200 OK — watch w1 opened");
        assert!(en[6].starts_with("410 Gone — Expired"), "{}", en[6]);
        assert!(r[7].summary(Lang::Zh).starts_with("错误："));
        assert!(r[6].is_error() && r[7].is_error() && !r[0].is_error() && !r[2].is_error());
        // The selected line's detail: the output as `rvlab run` prints it, and the decision.
        let out: serde_json::Value = serde_json::from_str(&r[6].output_text().unwrap()).unwrap();
        assert_eq!(out, r[6].outcome.as_ref().unwrap().out);
        assert_ne!(r[6].why(Lang::En), r[6].why(Lang::Zh));
        assert!(r[6].why(Lang::En).is_some() && r[2].why(Lang::En).is_none());
    }
}
