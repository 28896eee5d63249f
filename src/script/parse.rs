//! The script language: one command per line.
//!
//! Lines are trimmed; blank lines and `#` comments are skipped by the session before they get
//! here. Every other line is one [`Command`]; [`parse_line`] turns it into the typed form and
//! `Display` prints it back in canonical spelling, so `parse_line(&cmd.to_string()) == Ok(cmd)`.
//! Keywords are case-sensitive. HTTP methods are upper-case only, as in HTTP itself
//! (`get /api/v1/pods` is an error that says so).
//!
//! ```text
//! GET|POST|PUT|DELETE <path>[?query] [<json body>]   an API request; the target is kept verbatim
//!                                                    and must start with "/"; the body is the rest
//!                                                    of the line and must be valid JSON
//! PATCH <path>[?query] [type=json|strategic|apply] <json>
//!                                                    a JSON merge patch, or the type's patch
//! events <watch-id>                                  events a watch (e.g. w1) received so far
//! etcd put <key> <value>                             value: the rest of the line, verbatim, or one
//!                                                    "double-quoted" JSON string (escapes allowed)
//! etcd get <key> [--prefix] [--rev=N] [--limit=N]
//! etcd del <key> [--prefix]
//! etcd compact <revision>
//! compact <revision>                                 compaction through the apiserver's compactor
//! set <name> <value>                                 e.g. set watch-cache off, set cache.lag 2s
//! advance <duration>                                 500ms, 61s, 5m, 1h, 1m30s
//! apiserver <n>                                      send the following requests to apiserver n
//! restart apiserver <n>
//! pause <id> | resume <id> | cancel <id>             e.g. a watch id such as w1
//! informer start <name> <resource> [ns=<ns>] [mode=legacy|streaming] [apiserver=<n>]
//!                [apiservers=<n>,<n>…] [resync=<duration>]
//!                                                    apiservers=1,2: behind a load balancer, each
//!                                                    new connection goes to the next apiserver;
//!                                                    resync=30s: periodic resync (0 = none)
//! informer stop <name>
//! informer show <name>
//! drop <watch-id>                                    the watch's connection breaks: no ERROR frame,
//!                                                    frames not yet read are lost
//! drop informer <name>                               the informer's connection breaks (no ERROR
//!                                                    frame); client-go reacts by itself
//! pager list <path> [limit=<n>] [rv=<rv>] [pages=<n>]
//!                                                    client-go's ListPager on its own (pages of
//!                                                    500 unless limit=; full list on a 410 page);
//!                                                    pages=<n>: stop after n pages
//! pager next [pages=<n>]                             continue the stopped pager
//! kubectl get|create|delete|patch ...                the requests kubectl sends, see [`super::kubectl`]
//! expect ...                                         an assertion, see [`super::expect`]
//! ```
//!
//! Arguments written `<key>`, `<name>`, `<id>` are one word, or a `"double-quoted"` JSON string
//! when they contain spaces. Numbers (`<revision>`, `N`) are decimal integers; `<n>` is
//! non-negative. Parsing never panics; errors say what was wrong and what was expected.

use std::fmt;

use serde_json::Value;

use super::expect::Expectation;
pub use super::lex::ParseError;
pub(crate) use super::lex::{Words, json_str, quoted, word};
use super::syntax::{JsonPart, OneOf, Part, Problem};
use crate::apiserver::cacher::Held;
use crate::apiserver::patch::PatchType;
use crate::client::informer::InformerMode;
use crate::clock::Duration;

/// The HTTP verbs a script may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Post,
    Put,
    Delete,
    /// `PATCH` with its Content-Type (`type=json|strategic|apply`; JSON merge patch without).
    Patch(PatchType),
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
            Method::Patch(_) => "PATCH",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A command against the etcd beneath the apiservers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EtcdCommand {
    Put { key: String, value: String },
    Get { key: String, prefix: bool, revision: Option<i64>, limit: Option<i64> },
    Del { key: String, prefix: bool },
    Compact { revision: i64 },
}

/// `informer start|stop|show ...`. `None` options mean "the engine's default".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InformerCommand {
    Start {
        name: String,
        resource: String,
        namespace: Option<String>,
        mode: Option<InformerMode>,
        /// `apiserver=<n>` (one) or `apiservers=<n>,<n>…` (behind a load balancer), 1-based.
        apiservers: Option<Vec<usize>>,
        /// `resync=<duration>`: the informer's resync period.
        resync: Option<Duration>,
    },
    Stop {
        name: String,
    },
    Show {
        name: String,
    },
}

/// `pager list <path> [limit=<n>] [rv=<rv>]`: client-go's `ListPager` driven on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagerCommand {
    /// A collection path, e.g. `/api/v1/namespaces/default/configmaps` (no query).
    pub path: String,
    /// The page size (`limit`); `None` = the pager's default of 500.
    pub limit: Option<i64>,
    /// The `resourceVersion` of the first request; `None` = unset.
    pub resource_version: Option<String>,
    /// Stop after this many pages (the client is busy with them); `pager next` continues.
    pub pages: Option<u32>,
}

/// One parsed script line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Request {
        method: Method,
        target: String,
        body: Option<Value>,
        /// `waited=<duration>@<revision>` (a GET `rvlab serve` held while the watch cache
        /// caught up): it arrived that long ago, when etcd was at that revision.
        held: Option<Held>,
    },
    Events {
        watch: String,
    },
    Etcd(EtcdCommand),
    Compact {
        revision: i64,
    },
    Set {
        name: String,
        value: String,
    },
    Advance(Duration),
    Apiserver(usize),
    RestartApiserver(usize),
    Pause(String),
    Resume(String),
    Cancel(String),
    Informer(InformerCommand),
    /// `drop <watch-id>`: the connection of a watch the script opened breaks.
    Drop(String),
    /// `drop informer <name>`: the informer's connection breaks.
    DropInformer(String),
    Pager(PagerCommand),
    /// `pager next [pages=<n>]`: the stopped pager asks for its next pages.
    PagerNext {
        pages: Option<u32>,
    },
    /// `kubectl get|create|delete|patch …`: expands into the requests kubectl sends.
    Kubectl(super::kubectl::KubectlCommand),
    Expect(Expectation),
}

impl std::str::FromStr for Command {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        parse_line(s)
    }
}

const COMMANDS: OneOf = OneOf(
    &[
        "GET",
        "POST",
        "PUT",
        "PATCH",
        "DELETE",
        "events",
        "etcd",
        "compact",
        "set",
        "advance",
        "apiserver",
        "restart",
        "pause",
        "resume",
        "cancel",
        "informer",
        "drop",
        "pager",
        "kubectl",
        "expect",
    ],
    None,
);

const U_REQUEST: &str = "<path>[?query] [<json body>]";
const U_HELD: &str = "GET <path>[?query] waited=<duration>@<revision>";
const U_PATCH: &str = "<path>[?query] [type=json|merge|strategic|apply] <json patch>";
const U_EVENTS: &str = "events <watch-id>";
const U_PUT: &str = "etcd put <key> <value>";
const U_GET: &str = "etcd get <key> [--prefix] [--rev=N] [--limit=N]";
const U_DEL: &str = "etcd del <key> [--prefix]";
const U_ETCD_COMPACT: &str = "etcd compact <revision>";
const U_COMPACT: &str = "compact <revision>";
const U_SET: &str = "set <name> <value>";
const U_ADVANCE: &str = "advance <duration>";
const U_APISERVER: &str = "apiserver <n>";
const U_RESTART: &str = "restart apiserver <n>";
const ETCD_COMMANDS: OneOf = OneOf(&["put", "get", "del", "compact"], None);
const INFORMER_COMMANDS: OneOf = OneOf(&["start", "stop", "show"], None);
const START_OPTIONS: OneOf = OneOf(
    &["ns=<namespace>", "mode=legacy|streaming", "apiserver=<n>", "apiservers=<n>,<n>…", "resync=<duration>"],
    None,
);
const U_START: &str = "informer start <name> <resource> [ns=<namespace>] [mode=legacy|streaming] \
                       [apiserver=<n>] [apiservers=<n>,<n>…] [resync=<duration>]";
const U_DROP: &str = "drop <watch-id> | drop informer <name>";
const U_PAGER: &str = "pager list <path> [limit=<n>] [rv=<rv>] [pages=<n>] | pager next [pages=<n>]";

/// Parses one trimmed, non-comment line.
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let mut w = Words::new(line);
    let Some(first) = w.next_bare() else {
        return Err(ParseError::new(Problem::EmptyLine).expected(COMMANDS));
    };
    match first {
        "GET" => parse_request(Method::Get, &mut w),
        "POST" => parse_request(Method::Post, &mut w),
        "PUT" => parse_request(Method::Put, &mut w),
        "DELETE" => parse_request(Method::Delete, &mut w),
        // The console embed's module (no `sandbox` feature) has no arms for the language's
        // extras: its session refuses such a line by its first word before parsing it
        // (`script::extra::Extra::of_first_word`).
        "PATCH" if cfg!(feature = "sandbox") => parse_request(Method::Patch(PatchType::Merge), &mut w),
        "events" => {
            let watch = w.word("events", Part::WatchId, U_EVENTS)?;
            w.end("events", U_EVENTS)?;
            Ok(Command::Events { watch })
        }
        "etcd" => parse_etcd(&mut w).map(Command::Etcd),
        "compact" => {
            let revision = w.int("compact", Part::Revision, U_COMPACT)?;
            w.end("compact", U_COMPACT)?;
            Ok(Command::Compact { revision })
        }
        "set" => {
            let name = w.word("set", Part::Name, U_SET)?;
            let value = w.word("set", Part::Value, U_SET)?;
            w.end("set", U_SET)?;
            Ok(Command::Set { name, value })
        }
        "advance" => {
            let Some(text) = w.next_bare() else {
                return Err(ParseError::missing("advance", Part::Duration, U_ADVANCE));
            };
            let d = Duration::parse(text)
                .map_err(|error| ParseError::new(Problem::Duration { option: None, error }).at("advance"))?;
            w.end("advance", U_ADVANCE)?;
            Ok(Command::Advance(d))
        }
        "apiserver" => {
            let n = w.index("apiserver", U_APISERVER)?;
            w.end("apiserver", U_APISERVER)?;
            Ok(Command::Apiserver(n))
        }
        "restart" => {
            match w.next_bare() {
                Some("apiserver") => {}
                Some(other) => {
                    let got = other.to_string();
                    return Err(ParseError::new(Problem::ExpectedWord { word: "apiserver".into(), got })
                        .at("restart")
                        .expected(U_RESTART));
                }
                None => return Err(ParseError::missing("restart", Part::ApiserverWord, U_RESTART)),
            }
            let n = w.index("restart apiserver", U_RESTART)?;
            w.end("restart apiserver", U_RESTART)?;
            Ok(Command::RestartApiserver(n))
        }
        "pause" | "resume" | "cancel" => {
            let usage = format!("{first} <id>");
            let id = w.word(first, Part::Id, &usage)?;
            w.end(first, &usage)?;
            Ok(match first {
                "pause" => Command::Pause(id),
                "resume" => Command::Resume(id),
                _ => Command::Cancel(id),
            })
        }
        "informer" if cfg!(feature = "sandbox") => parse_informer(&mut w).map(Command::Informer),
        "drop" => {
            let tok = w.next_token().map_err(|e| e.at("drop"))?;
            match tok {
                Some(t) if !t.quoted && t.text == "informer" => {
                    let name = w.word("drop informer", Part::Name, "drop informer <name>")?;
                    w.end("drop informer", "drop informer <name>")?;
                    Ok(Command::DropInformer(name))
                }
                Some(t) => {
                    w.end("drop", U_DROP)?;
                    Ok(Command::Drop(t.text))
                }
                None => Err(ParseError::missing("drop", Part::WatchIdOrInformer, U_DROP)),
            }
        }
        "pager" if cfg!(feature = "sandbox") => parse_pager(&mut w),
        "kubectl" if cfg!(feature = "sandbox") => super::kubectl::parse(&mut w).map(Command::Kubectl),
        "expect" if cfg!(feature = "sandbox") => {
            super::expect::parse_expectation(w.rest()).map(Command::Expect)
        }
        other => {
            let upper = other.to_ascii_uppercase();
            let got = other.to_string();
            if matches!(upper.as_str(), "GET" | "POST" | "PUT" | "PATCH" | "DELETE") {
                Err(ParseError::new(Problem::MethodCase { got, upper }))
            } else {
                Err(ParseError::new(Problem::UnknownCommand { got }).expected(COMMANDS))
            }
        }
    }
}

fn parse_request(method: Method, w: &mut Words<'_>) -> Result<Command, ParseError> {
    let m = method.as_str();
    let Some(target) = w.next_bare() else {
        return Err(ParseError::missing(m, Part::Path, &format!("{m} {U_REQUEST}")));
    };
    if !target.starts_with('/') {
        return Err(ParseError::new(Problem::PathNotAbsolute { got: target.to_string() })
            .at(m)
            .expected(&format!("{m} {U_REQUEST}")));
    }
    let mut method = method;
    if let Method::Patch(_) = method
        && let Some(t) = w.rest().split_whitespace().next().and_then(|t| t.strip_prefix("type="))
    {
        let ty = PatchType::from_word(t).ok_or_else(|| {
            ParseError::new(Problem::PatchType { got: t.to_string() })
                .at("PATCH")
                .expected(&format!("PATCH {U_PATCH}"))
        })?;
        method = Method::Patch(ty);
        w.next_bare();
    }
    let mut held = None;
    if method == Method::Get
        && let Some(word) = w.rest().split_whitespace().next()
        && let Some(v) = word.strip_prefix("waited=")
    {
        held = Some(parse_held(v).map_err(|p| p_at(ParseError::new(p), m))?);
        w.next_bare();
    }
    let rest = w.rest();
    if rest.is_empty() && matches!(method, Method::Patch(_)) {
        return Err(ParseError::missing("PATCH", Part::Patch, &format!("PATCH {U_PATCH}")));
    }
    let body = if rest.is_empty() {
        None
    } else {
        match serde_json::from_str::<Value>(rest) {
            Ok(v) => Some(v),
            Err(e) => {
                return Err(ParseError::new(Problem::NotJson {
                    what: JsonPart::Body,
                    detail: e.to_string(),
                })
                .at(m)
                .expected(&format!("{m} {U_REQUEST}")));
            }
        }
    };
    Ok(Command::Request { method, target: target.to_string(), body, held })
}

fn p_at(e: ParseError, m: &str) -> ParseError {
    e.at(m).expected(U_HELD)
}

/// `<duration>@<revision>`: how long a held request waited, and etcd's revision when it came.
fn parse_held(v: &str) -> Result<Held, Problem> {
    let (d, rev) = v.split_once('@').unwrap_or((v, ""));
    let waited = Duration::parse(d)
        .map_err(|error| Problem::Duration { option: Some(format!("waited={d}")), error })?;
    if rev.is_empty() {
        return Err(Problem::Missing { what: Part::Revision });
    }
    let revision = rev
        .parse::<i64>()
        .ok()
        .filter(|r| *r >= 0)
        .ok_or_else(|| Problem::NotANumber { what: Part::Revision, got: rev.to_string() })?;
    Ok(Held { waited, revision })
}

fn parse_etcd(w: &mut Words<'_>) -> Result<EtcdCommand, ParseError> {
    let Some(sub) = w.next_bare() else {
        return Err(ParseError::missing("etcd", Part::Command, ETCD_COMMANDS));
    };
    match sub {
        "put" => {
            let key = w.word("etcd put", Part::Key, U_PUT)?;
            let rest = w.rest();
            if rest.is_empty() {
                return Err(ParseError::missing("etcd put", Part::Value, U_PUT));
            }
            let value = if rest.starts_with('"') {
                let (v, after) = quoted(rest).map_err(|error| {
                    ParseError::new(Problem::Quote { error }).at("etcd put").expected(U_PUT)
                })?;
                if !after.trim().is_empty() {
                    return Err(ParseError::new(Problem::AfterQuotedValue { got: after.trim().to_string() })
                        .at("etcd put")
                        .expected(U_PUT));
                }
                v
            } else {
                rest.to_string()
            };
            Ok(EtcdCommand::Put { key, value })
        }
        "get" | "del" => {
            let (ctx, usage, flags) = if sub == "get" {
                ("etcd get", U_GET, OneOf(&["--prefix", "--rev=N", "--limit=N"], None))
            } else {
                ("etcd del", U_DEL, OneOf(&["--prefix"], None))
            };
            let mut key = None;
            let (mut prefix, mut revision, mut limit) = (false, None, None);
            while let Some(tok) = w.next_token()? {
                if !tok.quoted && tok.text.starts_with("--") {
                    let (flag, value) = match tok.text.split_once('=') {
                        Some((f, v)) => (f, Some(v)),
                        None => (tok.text.as_str(), None),
                    };
                    let dup = || ParseError::new(Problem::GivenTwice { option: flag.to_string() }).at(ctx);
                    match (flag, value, sub) {
                        ("--prefix", None, _) => {
                            if prefix {
                                return Err(dup());
                            }
                            prefix = true;
                        }
                        ("--prefix", Some(_), _) => {
                            let flag = "--prefix".to_string();
                            return Err(ParseError::new(Problem::TakesNoValue { flag })
                                .at(ctx)
                                .expected(usage));
                        }
                        ("--rev" | "--limit", _, "get") => {
                            let slot = if flag == "--rev" { &mut revision } else { &mut limit };
                            if slot.is_some() {
                                return Err(dup());
                            }
                            let needs = |got: Option<&str>| {
                                let (option, got) = (flag.to_string(), got.map(str::to_string));
                                ParseError::new(Problem::NeedsNumber { option, got }).at(ctx)
                            };
                            let Some(v) = value else {
                                return Err(needs(None));
                            };
                            *slot = Some(v.parse::<i64>().map_err(|_| needs(Some(v)))?);
                        }
                        _ => {
                            let got = tok.text.clone();
                            return Err(ParseError::new(Problem::UnknownFlag { got })
                                .at(ctx)
                                .expected(flags));
                        }
                    }
                } else if key.is_none() {
                    key = Some(tok.text);
                } else {
                    return Err(ParseError::new(Problem::Unexpected { got: tok.text })
                        .at(ctx)
                        .expected(usage));
                }
            }
            let Some(key) = key else {
                return Err(ParseError::missing(ctx, Part::Key, usage));
            };
            Ok(if sub == "get" {
                EtcdCommand::Get { key, prefix, revision, limit }
            } else {
                EtcdCommand::Del { key, prefix }
            })
        }
        "compact" => {
            let revision = w.int("etcd compact", Part::Revision, U_ETCD_COMPACT)?;
            w.end("etcd compact", U_ETCD_COMPACT)?;
            Ok(EtcdCommand::Compact { revision })
        }
        other => {
            let (of, got) = ("etcd".to_string(), other.to_string());
            Err(ParseError::new(Problem::UnknownSubcommand { of, got }).expected(ETCD_COMMANDS))
        }
    }
}

fn parse_informer(w: &mut Words<'_>) -> Result<InformerCommand, ParseError> {
    let Some(sub) = w.next_bare() else {
        return Err(ParseError::missing("informer", Part::Command, INFORMER_COMMANDS));
    };
    match sub {
        "start" => {
            let ctx = "informer start";
            let name = w.word(ctx, Part::Name, U_START)?;
            let resource = w.word(ctx, Part::Resource, U_START)?;
            let (mut namespace, mut mode, mut apiservers, mut resync) = (None, None, None, None);
            while let Some(tok) = w.next_bare() {
                let bad = || {
                    ParseError::new(Problem::UnknownOption { got: tok.to_string() })
                        .at(ctx)
                        .expected(START_OPTIONS)
                };
                let Some((k, v)) = tok.split_once('=') else {
                    return Err(bad());
                };
                let dup = || ParseError::new(Problem::GivenTwice { option: format!("{k}=") }).at(ctx);
                match k {
                    "ns" => {
                        if namespace.is_some() {
                            return Err(dup());
                        }
                        if v.is_empty() {
                            let option = "ns=".to_string();
                            return Err(ParseError::new(Problem::NeedsNamespace { option }).at(ctx));
                        }
                        namespace = Some(v.to_string());
                    }
                    "mode" => {
                        if mode.is_some() {
                            return Err(dup());
                        }
                        mode = Some(InformerMode::parse(v).ok_or_else(|| {
                            ParseError::new(Problem::InformerMode { got: v.to_string() }).at(ctx)
                        })?);
                    }
                    "apiserver" | "apiservers" => {
                        if apiservers.is_some() {
                            let option = "apiserver= / apiservers=".to_string();
                            return Err(ParseError::new(Problem::GivenTwice { option }).at(ctx));
                        }
                        let list = v
                            .split(',')
                            .map(|n| n.parse::<usize>().ok().filter(|n| *n >= 1))
                            .collect::<Option<Vec<usize>>>()
                            .filter(|l| k == "apiservers" || l.len() == 1)
                            .ok_or_else(|| {
                                let got = v.to_string();
                                ParseError::new(if k == "apiserver" {
                                    Problem::ApiserverNumber { got }
                                } else {
                                    Problem::ApiserverNumbers { got }
                                })
                                .at(ctx)
                            })?;
                        apiservers = Some(list);
                    }
                    "resync" => {
                        if resync.is_some() {
                            return Err(dup());
                        }
                        resync = Some(Duration::parse(v).map_err(|error| {
                            ParseError::new(Problem::Duration { option: Some(format!("resync={v}")), error })
                                .at(ctx)
                        })?);
                    }
                    _ => return Err(bad()),
                }
            }
            Ok(InformerCommand::Start { name, resource, namespace, mode, apiservers, resync })
        }
        "stop" | "show" => {
            let ctx = if sub == "stop" { "informer stop" } else { "informer show" };
            let usage = format!("{ctx} <name>");
            let name = w.word(ctx, Part::Name, &usage)?;
            w.end(ctx, &usage)?;
            Ok(if sub == "stop" { InformerCommand::Stop { name } } else { InformerCommand::Show { name } })
        }
        other => {
            let (of, got) = ("informer".to_string(), other.to_string());
            Err(ParseError::new(Problem::UnknownSubcommand { of, got }).expected(INFORMER_COMMANDS))
        }
    }
}

/// `pages=<n>`, n ≥ 1.
fn pages_option(ctx: &str, v: &str) -> Result<u32, ParseError> {
    v.parse::<u32>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| ParseError::new(Problem::Pages { got: v.to_string() }).at(ctx))
}

fn parse_pager(w: &mut Words<'_>) -> Result<Command, ParseError> {
    match w.next_bare() {
        Some("list") => {}
        Some("next") => {
            let mut pages = None;
            while let Some(tok) = w.next_bare() {
                match tok.split_once('=') {
                    Some(("pages", v)) if pages.is_none() => pages = Some(pages_option("pager next", v)?),
                    Some(("pages", _)) => {
                        let option = "pages=".to_string();
                        return Err(ParseError::new(Problem::GivenTwice { option }).at("pager next"));
                    }
                    _ => {
                        let got = tok.to_string();
                        return Err(ParseError::new(Problem::UnknownOption { got })
                            .at("pager next")
                            .expected(OneOf(&["pages=<n>"], None)));
                    }
                }
            }
            return Ok(Command::PagerNext { pages });
        }
        Some(other) => {
            let (of, got) = ("pager".to_string(), other.to_string());
            return Err(ParseError::new(Problem::UnknownSubcommand { of, got }).expected(U_PAGER));
        }
        None => return Err(ParseError::missing("pager", Part::Command, U_PAGER)),
    }
    let Some(path) = w.next_bare() else {
        return Err(ParseError::missing("pager list", Part::Path, U_PAGER));
    };
    if !path.starts_with('/') || path.contains('?') {
        return Err(ParseError::new(Problem::PagerPath { got: path.to_string() })
            .at("pager list")
            .expected(U_PAGER));
    }
    let (mut limit, mut resource_version, mut pages) = (None, None, None);
    while let Some(tok) = w.next_bare() {
        let dup = |k: &str| ParseError::new(Problem::GivenTwice { option: format!("{k}=") }).at("pager list");
        match tok.split_once('=') {
            Some(("limit", v)) => {
                if limit.is_some() {
                    return Err(dup("limit"));
                }
                limit = Some(v.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
                    ParseError::new(Problem::Limit { got: v.to_string() }).at("pager list")
                })?);
            }
            Some(("rv", v)) => {
                if resource_version.is_some() {
                    return Err(dup("rv"));
                }
                if v.is_empty() || v.chars().any(|c| c == '&' || c == '#' || c.is_control()) {
                    let got = v.to_string();
                    return Err(ParseError::new(Problem::ResourceVersion { got }).at("pager list"));
                }
                resource_version = Some(v.to_string());
            }
            Some(("pages", v)) => {
                if pages.is_some() {
                    return Err(dup("pages"));
                }
                pages = Some(pages_option("pager list", v)?);
            }
            _ => {
                let got = tok.to_string();
                return Err(ParseError::new(Problem::UnknownOption { got })
                    .at("pager list")
                    .expected(OneOf(&["limit=<n>", "rv=<rv>", "pages=<n>"], None)));
            }
        }
    }
    Ok(Command::Pager(PagerCommand { path: path.to_string(), limit, resource_version, pages }))
}

// ---------------------------------------------------------------------------------------------
// Display: the canonical spelling.

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Request { method, target, body, held } => {
                write!(f, "{method} {target}")?;
                if let Some(h) = held {
                    write!(f, " waited={}@{}", h.waited, h.revision)?;
                }
                if let Method::Patch(t) = method
                    && *t != PatchType::Merge
                {
                    write!(f, " type={}", t.word())?;
                }
                if let Some(b) = body {
                    write!(f, " {b}")?;
                }
                Ok(())
            }
            Command::Events { watch } => write!(f, "events {}", word(watch)),
            Command::Etcd(e) => write!(f, "{e}"),
            Command::Compact { revision } => write!(f, "compact {revision}"),
            Command::Set { name, value } => write!(f, "set {} {}", word(name), word(value)),
            Command::Advance(d) => write!(f, "advance {d}"),
            Command::Apiserver(n) => write!(f, "apiserver {n}"),
            Command::RestartApiserver(n) => write!(f, "restart apiserver {n}"),
            Command::Pause(id) => write!(f, "pause {}", word(id)),
            Command::Resume(id) => write!(f, "resume {}", word(id)),
            Command::Cancel(id) => write!(f, "cancel {}", word(id)),
            Command::Informer(i) => write!(f, "{i}"),
            Command::Drop(id) if id == "informer" => write!(f, "drop {}", json_str(id)),
            Command::Drop(id) => write!(f, "drop {}", word(id)),
            Command::DropInformer(name) => write!(f, "drop informer {}", word(name)),
            Command::Pager(p) => {
                write!(f, "pager list {}", p.path)?;
                if let Some(l) = p.limit {
                    write!(f, " limit={l}")?;
                }
                if let Some(rv) = &p.resource_version {
                    write!(f, " rv={rv}")?;
                }
                if let Some(n) = p.pages {
                    write!(f, " pages={n}")?;
                }
                Ok(())
            }
            Command::PagerNext { pages: None } => f.write_str("pager next"),
            Command::PagerNext { pages: Some(n) } => write!(f, "pager next pages={n}"),
            Command::Kubectl(k) => write!(f, "{k}"),
            Command::Expect(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for EtcdCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EtcdCommand::Put { key, value } => {
                let plain = !value.is_empty()
                    && value.trim() == value
                    && !value.starts_with('"')
                    && !value.chars().any(char::is_control);
                if plain {
                    write!(f, "etcd put {} {value}", word(key))
                } else {
                    write!(f, "etcd put {} {}", word(key), json_str(value))
                }
            }
            EtcdCommand::Get { key, prefix, revision, limit } => {
                write!(f, "etcd get {}", flag_safe_word(key))?;
                if *prefix {
                    f.write_str(" --prefix")?;
                }
                if let Some(r) = revision {
                    write!(f, " --rev={r}")?;
                }
                if let Some(l) = limit {
                    write!(f, " --limit={l}")?;
                }
                Ok(())
            }
            EtcdCommand::Del { key, prefix } => {
                write!(f, "etcd del {}", flag_safe_word(key))?;
                if *prefix {
                    f.write_str(" --prefix")?;
                }
                Ok(())
            }
            EtcdCommand::Compact { revision } => write!(f, "etcd compact {revision}"),
        }
    }
}

impl fmt::Display for InformerCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InformerCommand::Start { name, resource, namespace, mode, apiservers, resync } => {
                write!(f, "informer start {} {}", word(name), word(resource))?;
                if let Some(ns) = namespace {
                    write!(f, " ns={ns}")?;
                }
                if let Some(m) = mode {
                    write!(f, " mode={m}")?;
                }
                match apiservers.as_deref() {
                    Some([a]) => write!(f, " apiserver={a}")?,
                    Some(list) => {
                        let l: Vec<String> = list.iter().map(usize::to_string).collect();
                        write!(f, " apiservers={}", l.join(","))?;
                    }
                    None => {}
                }
                if let Some(r) = resync {
                    write!(f, " resync={r}")?;
                }
                Ok(())
            }
            InformerCommand::Stop { name } => write!(f, "informer stop {}", word(name)),
            InformerCommand::Show { name } => write!(f, "informer show {}", word(name)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
/// Like [`word`], but also quotes a word that would read back as a `--flag`.
fn flag_safe_word(s: &str) -> String {
    if s.starts_with("--") { json_str(s) } else { word(s) }
}
