//! What a line needs beyond the documentation embed's console module. The console embed
//! (`rvlab-embed`, built without the `sandbox` feature) runs the engine without PATCH and
//! server-side apply, client-go's informers and pager, `expect` and the `kubectl` lines: they
//! are most of what an embed would download and few documentation pages use them. A line that
//! needs one of them is not run there: the embed loads the full playground, which replays the
//! lines before it and runs it (`site/src/reference/embedding-api.md`). In every other build
//! (the app, `rvlab run`, `rvlab serve`, the `Lab` API) all of them are compiled in.

use std::fmt;

use serde::Serialize;

use super::parse::{Command, Method};

/// A part of the language the console embed's module leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Extra {
    /// `PATCH` (merge, JSON, strategic merge, server-side apply).
    Patch,
    /// `informer …`, `drop informer`, `pager …`: client-go's machinery.
    Clients,
    /// `expect …`.
    Expect,
    /// `kubectl …`.
    Kubectl,
}

impl Extra {
    /// Whether this build runs every line (`sandbox` feature: on by default, off only in the
    /// console embed's module).
    pub const ALL_COMPILED: bool = cfg!(feature = "sandbox");

    /// The part of the language `command` belongs to, when it is one the console embed leaves out.
    pub fn of(command: &Command) -> Option<Extra> {
        match command {
            Command::Request { method: Method::Patch(_), .. } => Some(Extra::Patch),
            Command::Request { .. } => None,
            Command::Informer(_)
            | Command::DropInformer(_)
            | Command::Pager(_)
            | Command::PagerNext { .. } => Some(Extra::Clients),
            Command::Expect(_) => Some(Extra::Expect),
            Command::Kubectl(_) => Some(Extra::Kubectl),
            Command::Events { .. }
            | Command::Etcd(_)
            | Command::Compact { .. }
            | Command::Set { .. }
            | Command::Advance(_)
            | Command::Apiserver(_)
            | Command::RestartApiserver(_)
            | Command::Pause(_)
            | Command::Resume(_)
            | Command::Cancel(_)
            | Command::Drop(_) => None,
        }
    }

    /// The part `command` needs that this build does not have (never, but in the console embed).
    pub fn missing(command: &Command) -> Option<Extra> {
        if Self::ALL_COMPILED { None } else { Self::of(command) }
    }

    /// The part a line needs, by its first word alone (`PATCH`, `informer`, `pager`, `kubectl`,
    /// `expect`): the console embed's module does not parse the rest of such a line (its parser
    /// has no arms for them), so their syntax errors are the full playground's to show. `drop
    /// informer` is known only once parsed ([`Extra::of`]).
    pub fn of_first_word(line: &str) -> Option<Extra> {
        match line.split_whitespace().next()? {
            "PATCH" => Some(Extra::Patch),
            "informer" | "pager" => Some(Extra::Clients),
            "expect" => Some(Extra::Expect),
            "kubectl" => Some(Extra::Kubectl),
            _ => None,
        }
    }

    /// The part `line` needs that this build does not have: by its first word, else once parsed.
    pub fn missing_in_line(line: &str) -> Option<Extra> {
        if Self::ALL_COMPILED {
            return None;
        }
        Self::of_first_word(line).or_else(|| super::parse::parse_line(line).ok().as_ref().and_then(Self::of))
    }

    /// What the line starts with, as the refusal names it.
    pub fn word(self) -> &'static str {
        match self {
            Extra::Patch => "PATCH",
            Extra::Clients => "informer / pager",
            Extra::Expect => "expect",
            Extra::Kubectl => "kubectl",
        }
    }
}

impl fmt::Display for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::parse::parse_line;

    /// The first word names the part exactly when the parsed line does (but `drop informer`).
    /// (In the console embed's build the extras do not parse: its session knows them by the word.)
    #[cfg(feature = "sandbox")]
    #[test]
    fn the_first_word_agrees_with_the_parsed_line() {
        let lines = [
            r#"PATCH /api/v1/namespaces/default/configmaps/a {"data":{"k":"v"}}"#,
            r#"PATCH /api/v1/namespaces/default/configmaps/a type=apply {"apiVersion":"v1","kind":"ConfigMap"}"#,
            "informer start i pods",
            "informer stop i",
            "pager list /api/v1/pods limit=1",
            "pager next",
            "expect status 200",
            "kubectl get configmaps",
            "GET /api/v1/pods",
            "POST /api/v1/namespaces/default/configmaps {}",
            "PUT /api/v1/namespaces/default/configmaps/a {}",
            "DELETE /api/v1/namespaces/default/configmaps/a",
            "events w1",
            "etcd get /registry --prefix",
            "compact 3",
            "set explain on",
            "advance 5s",
            "apiserver 1",
            "restart apiserver 1",
            "pause w1",
            "resume w1",
            "cancel w1",
            "drop w1",
        ];
        for l in lines {
            let cmd = parse_line(l).unwrap_or_else(|e| panic!("{l}: {e:?}"));
            assert_eq!(Extra::of_first_word(l), Extra::of(&cmd), "{l}");
        }
        let drop = parse_line("drop informer i").unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((Extra::of_first_word("drop informer i"), Extra::of(&drop)), (None, Some(Extra::Clients)));
    }

    /// Every build but the console embed's has every part.
    #[cfg(feature = "sandbox")]
    #[test]
    fn every_part_is_compiled_in() {
        const { assert!(Extra::ALL_COMPILED) };
        assert_eq!(Extra::missing_in_line("kubectl get pods"), None);
        assert_eq!(Extra::missing_in_line("drop informer i"), None);
    }

    /// The console embed's build (`cargo test --no-default-features --lib script::extra`, run by
    /// `./dev.sh test`): its session refuses each extra by its part and runs every other line.
    #[cfg(not(feature = "sandbox"))]
    #[test]
    fn the_console_embeds_session_refuses_the_extras() {
        use crate::script::Session;
        use crate::script::outcome::LineFailure;
        use crate::script::refusal::Refusal;
        let mut s = Session::with_explain(true);
        let cm = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#;
        let ran = s.run_line_outcome(1, cm).unwrap_or_else(|| panic!("no outcome"));
        assert_eq!((ran.failure, ran.out["code"].as_u64()), (None, Some(201)));
        for (line, part) in [
            (r#"PATCH /api/v1/namespaces/default/configmaps/a {"data":{}}"#, Extra::Patch),
            ("informer start i configmaps", Extra::Clients),
            ("pager list /api/v1/configmaps", Extra::Clients),
            ("drop informer i", Extra::Clients),
            ("expect status 201", Extra::Expect),
            ("kubectl get configmaps", Extra::Kubectl),
            // By its first word: its (bad) syntax is the full playground's to judge.
            ("kubectl frobnicate", Extra::Kubectl),
        ] {
            assert_eq!(Extra::missing_in_line(line), Some(part), "{line}");
            let o = s.run_line_outcome(2, line).unwrap_or_else(|| panic!("{line}: no outcome"));
            assert_eq!(o.failure, Some(LineFailure::Refused(Refusal::NotInModule { part })), "{line}");
            assert_eq!(o.out["refused"]["kind"], "not-in-module", "{line}");
        }
        assert!(parse_line("PATCH /api/v1/namespaces/default/configmaps/a {}").is_err());
        // Below the session, the apiserver of this build serves no PATCH: a resource's answer
        // for a verb it does not serve (405 MethodNotAllowed), the object unchanged.
        let mut c = crate::cluster::Cluster::new();
        let post = c.request(
            0,
            "POST",
            "/api/v1/namespaces/default/configmaps",
            Some(&cm[cm.find('{').unwrap_or(0)..]),
        );
        assert_eq!(post.0.code, 201);
        let (r, _) = c.request_typed(
            0,
            "PATCH",
            "/api/v1/namespaces/default/configmaps/a",
            Some("application/merge-patch+json"),
            Some(r#"{"data":{"k":"v"}}"#),
        );
        assert_eq!((r.code, r.body["reason"].as_str()), (405, Some("MethodNotAllowed")), "{:?}", r.body);
        let get = s.run_line_outcome(3, "GET /api/v1/namespaces/default/configmaps/a");
        assert_eq!(get.and_then(|o| o.out["code"].as_u64()), Some(200), "the refused lines changed nothing");
    }
}
