//! Why a script line could not be parsed — one typed value per syntax error, carried by the
//! output as `"syntax"` next to its English `"error"`, and its words in English and 中文, here
//! only (the CLI prints the English, the UI renders the value in its language). The parsers
//! (`lex`, `parse`, `expect`, `kubectl`) build these values; none of them writes a message.
//!
//! A message reads `<at>: <problem>; expected <usage>`: `at` (the command words read so far) and
//! `expected` (the line's usage) are script text and stay as written in every language; the
//! problem is the typed part. The detail of a JSON or quoted-string error is serde_json's English
//! and stays so. No upstream counterpart: the script language is the playground's own.

use std::fmt;

use serde::Serialize;

use super::line_error::LineError;
use super::why::Lang;
use crate::clock::DurationError;

/// The resources `kubectl` lines know, as their usage names them.
pub(crate) const KUBECTL_RESOURCES: &str = "configmaps (configmap, cm) or pods (pod, po)";

/// `s` quoted for an error message, shortened when long.
pub(crate) fn q(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{:?}…", cut)
    } else {
        format!("{s:?}")
    }
}

/// A JSON string literal.
pub(crate) fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Why a line could not be parsed. `Display` is the whole English message; [`LineError::render`]
/// gives it in another language, [`LineError::output`] the output of the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParseError {
    /// The command words the problem is in (`etcd get`, `expect items`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(flatten)]
    pub problem: Problem,
    /// The line's usage, or the words that may come here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
}

/// What may come where the problem is: the line's usage (a string, script text as written), or
/// one of some words (`{"oneOf": […]}`, with `"or"` when something that is no fixed word may
/// come too), which each language joins in its own way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Expected {
    Usage(String),
    OneOf {
        #[serde(rename = "oneOf")]
        one_of: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        or: Option<OrElse>,
    },
}

/// What else than the words of an [`Expected::OneOf`] may come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrElse {
    /// A value to compare with (`expect code 200`).
    Value,
    /// A path into the output (`expect body.metadata.name …`).
    Path,
}

/// Words one of which may come here, as the parsers name them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OneOf(pub &'static [&'static str], pub Option<OrElse>);

impl From<OneOf> for Expected {
    fn from(OneOf(words, or): OneOf) -> Self {
        Expected::OneOf { one_of: words.iter().map(|w| w.to_string()).collect(), or }
    }
}

impl From<&str> for Expected {
    fn from(usage: &str) -> Self {
        Expected::Usage(usage.to_string())
    }
}

impl From<&String> for Expected {
    fn from(usage: &String) -> Self {
        Expected::Usage(usage.clone())
    }
}

impl Expected {
    /// The usage as written, or the words joined: `a, b or c` / `a、b 或 c`.
    fn render(&self, lang: Lang) -> String {
        let (one_of, or) = match self {
            Expected::Usage(u) => return u.clone(),
            Expected::OneOf { one_of, or } => (one_of, or),
        };
        let mut all: Vec<&str> = one_of.iter().map(String::as_str).collect();
        let other = or.map(|o| match (o, lang) {
            (OrElse::Value, Lang::En) => "a value",
            (OrElse::Path, Lang::En) => "a path such as body.metadata.name",
            (OrElse::Value, Lang::Zh) => "一个值",
            (OrElse::Path, Lang::Zh) => "一个路径（例如 body.metadata.name）",
        });
        all.extend(other);
        let (sep, last) = match lang {
            Lang::En => (", ", " or "),
            // No space between 或 and a Chinese word.
            Lang::Zh if other.is_some() => ("、", " 或"),
            Lang::Zh => ("、", " 或 "),
        };
        match all.split_last() {
            None => String::new(),
            Some((only, [])) => only.to_string(),
            Some((tail, init)) => format!("{}{last}{tail}", init.join(sep)),
        }
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    pub(crate) fn new(problem: Problem) -> Self {
        ParseError { at: None, problem, expected: None }
    }

    /// `ctx: what is missing; expected usage`.
    pub(crate) fn missing(ctx: &str, what: Part, usage: impl Into<Expected>) -> Self {
        ParseError::new(Problem::Missing { what }).at(ctx).expected(usage)
    }

    /// The problem is in the command words `ctx` (outermost last: `at` nests to the left).
    pub(crate) fn at(mut self, ctx: &str) -> Self {
        self.at = Some(match self.at {
            None => ctx.to_string(),
            Some(inner) => format!("{ctx}: {inner}"),
        });
        self
    }

    /// What the line should look like.
    pub(crate) fn expected(mut self, usage: impl Into<Expected>) -> Self {
        self.expected = Some(usage.into());
        self
    }
}

impl LineError for ParseError {
    const KEY: &'static str = "syntax";

    fn zh(&self) -> String {
        let mut s = String::new();
        if let Some(at) = &self.at {
            s.push_str(at);
            s.push('：');
        }
        s.push_str(&self.problem.zh());
        if let Some(e) = &self.expected {
            s.push_str("；应为 ");
            s.push_str(&e.render(Lang::Zh));
        }
        s
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.at {
            write!(f, "{at}: ")?;
        }
        write!(f, "{}", self.problem)?;
        if let Some(e) = &self.expected {
            write!(f, "; expected {}", e.render(Lang::En))?;
        }
        Ok(())
    }
}

/// A part of a line that can be missing or wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    Command,
    Duration,
    /// The word `apiserver` (in `restart apiserver <n>`).
    ApiserverWord,
    /// `drop`'s argument.
    WatchIdOrInformer,
    Path,
    Patch,
    Value,
    Key,
    Name,
    Namespace,
    WatchId,
    Revision,
    Number,
    Id,
    Resource,
    /// The word `configmap` (in `kubectl create configmap`).
    ConfigmapWord,
    /// `-p <patch>` (in `kubectl patch`).
    PatchFlag,
    /// `-f - <manifest>` (in `kubectl apply`).
    ManifestFlag,
    /// `--server-side` (in `kubectl apply`).
    ServerSideFlag,
    Subject,
    Check,
    HeaderName,
    InformerName,
    FieldAfterName,
}

impl Part {
    fn en(self) -> &'static str {
        match self {
            Part::Command => "command",
            Part::Duration => "duration",
            Part::ApiserverWord => "\"apiserver\"",
            Part::WatchIdOrInformer => "watch id or \"informer\"",
            Part::Path => "path",
            Part::Patch => "patch",
            Part::Value => "value",
            Part::Key => "key",
            Part::Name => "name",
            Part::Namespace => "namespace",
            Part::WatchId => "watch id",
            Part::Revision => "revision",
            Part::Number => "number",
            Part::Id => "id",
            Part::Resource => "resource",
            Part::ConfigmapWord => "\"configmap\"",
            Part::PatchFlag => "-p <patch>",
            Part::ManifestFlag => "-f - <manifest>",
            Part::ServerSideFlag => "--server-side",
            Part::Subject => "subject",
            Part::Check => "check",
            Part::HeaderName => "header name",
            Part::InformerName => "informer name",
            Part::FieldAfterName => "field after the name",
        }
    }

    fn zh(self) -> &'static str {
        match self {
            Part::Command => "命令",
            Part::Duration => "时长",
            Part::ApiserverWord => "\"apiserver\"",
            Part::WatchIdOrInformer => "watch id 或 \"informer\"",
            Part::Path => "路径",
            Part::Patch => "补丁（patch）",
            Part::Value => "值",
            Part::Key => "键（key）",
            Part::Name => "名称",
            Part::Namespace => "命名空间",
            Part::WatchId => "watch id",
            Part::Revision => "修订号（revision）",
            Part::Number => "数字",
            Part::Id => "id",
            Part::Resource => "资源",
            Part::ConfigmapWord => "\"configmap\"",
            Part::PatchFlag => "-p <patch>",
            Part::ManifestFlag => "-f - <清单（manifest）>",
            Part::ServerSideFlag => "--server-side",
            Part::Subject => "检查对象",
            Part::Check => "检查方式",
            Part::HeaderName => "头部名称",
            Part::InformerName => "informer 名称",
            Part::FieldAfterName => "名称之后的字段",
        }
    }
}

/// Which JSON did not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum JsonPart {
    /// A request's body.
    Body,
    /// `kubectl patch -p`.
    Patch,
}

/// A `"…"` argument that is not a JSON string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum QuoteError {
    /// serde_json refused the literal (`detail`: its English).
    Invalid { literal: String, detail: String },
    /// No closing quote.
    Unterminated { text: String },
    /// Something glued to the closing quote.
    AfterClosingQuote { got: String },
}

impl fmt::Display for QuoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuoteError::Invalid { literal, detail } => {
                write!(f, "invalid quoted string {} ({detail})", q(literal))
            }
            QuoteError::Unterminated { text } => write!(f, "unterminated quoted string {}", q(text)),
            QuoteError::AfterClosingQuote { got } => {
                write!(f, "unexpected {} right after a closing quote", q(got))
            }
        }
    }
}

impl QuoteError {
    fn zh(&self) -> String {
        match self {
            QuoteError::Invalid { literal, detail } => {
                format!("无效的带引号字符串 {}（{detail}）", q(literal))
            }
            QuoteError::Unterminated { text } => format!("带引号的字符串 {} 缺少结束引号", q(text)),
            QuoteError::AfterClosingQuote { got } => format!("结束引号后紧跟着 {}", q(got)),
        }
    }
}

/// What is wrong with an `expect` path such as `body.items[0].metadata.name`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PathProblem {
    Quote { error: QuoteError },
    CloseAfterKey,
    MissingClose,
    IndexNotNumber,
    Separator,
    EmptyKey,
    EmptyPath,
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathProblem::Quote { error } => write!(f, "{error}"),
            PathProblem::CloseAfterKey => f.write_str("expected ] after the quoted key"),
            PathProblem::MissingClose => f.write_str("missing ]"),
            PathProblem::IndexNotNumber => f.write_str("an index must be a number, e.g. [0]"),
            PathProblem::Separator => f.write_str("expected . or [ between keys"),
            PathProblem::EmptyKey => f.write_str("empty key"),
            PathProblem::EmptyPath => f.write_str("empty path"),
        }
    }
}

impl PathProblem {
    fn zh(&self) -> String {
        match self {
            PathProblem::Quote { error } => error.zh(),
            PathProblem::CloseAfterKey => "带引号的键之后应为 ]".into(),
            PathProblem::MissingClose => "缺少 ]".into(),
            PathProblem::IndexNotNumber => "下标必须是数字，例如 [0]".into(),
            PathProblem::Separator => "键与键之间应为 . 或 [".into(),
            PathProblem::EmptyKey => "空的键".into(),
            PathProblem::EmptyPath => "空的路径".into(),
        }
    }
}

/// What kubectl 1.32 itself refuses before sending a request, with its own (English) text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "error", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum KubectlError {
    /// `get <name> -A` (cli-runtime `resource/builder.go` `visitByName`).
    NameAcrossAllNamespaces,
    /// `get <name> -l …` (cli-runtime `resource/builder.go` `visitBySelector`).
    NameWithSelector,
    /// `get --raw` with `-w` or a selector (`get.go` `Validate`).
    RawWithOthers,
    /// `get --raw` with `-o` (`get.go` `Validate`).
    RawWithOutput,
    /// `get --raw` with a resource or name (`get.go` `Complete`).
    RawWithArgs,
    /// `--raw` that is not an absolute URL path (`url.ParseRequestURI`).
    RawNotPath { got: String },
    /// `apply -f -` of a kind the lines do not serve (cli-runtime `mapper.go` `infoForData`).
    UnknownKind { api_version: String, kind: String },
    /// A manifest's namespace that is not `-n`'s (`resource/visitor.go` `RequireNamespace`).
    NamespaceMismatch { object: String, flag: String },
}

impl KubectlError {
    /// kubectl's message, as it prints it after `error: `.
    pub fn kubectl_text(&self) -> String {
        match self {
            KubectlError::NameAcrossAllNamespaces => {
                "a resource cannot be retrieved by name across all namespaces".into()
            }
            KubectlError::NameWithSelector => "name cannot be provided when a selector is specified".into(),
            KubectlError::RawWithOthers => {
                "--raw may not be specified with other flags that filter the server request or alter the output"
                    .into()
            }
            KubectlError::RawWithOutput => "--raw and --output are mutually exclusive".into(),
            KubectlError::RawWithArgs => "arguments may not be passed when --raw is specified".into(),
            KubectlError::RawNotPath { got } => {
                format!("--raw must be a valid URL path: parse {got:?}: invalid URI for request")
            }
            KubectlError::UnknownKind { api_version, kind } => format!(
                "resource mapping not found for name: \"\" namespace: \"\" from \"STDIN\": no matches for kind \"{kind}\" in version \"{api_version}\""
            ),
            KubectlError::NamespaceMismatch { object, flag } => format!(
                "the namespace from the provided object \"{object}\" does not match the namespace \"{flag}\". You must pass '--namespace={object}' to perform this operation."
            ),
        }
    }
}

/// What is wrong. Serialised with the error: its kind in `"kind"` (kebab-case), its fields
/// beside it (camelCase). `got` is the offending text as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Problem {
    EmptyLine,
    UnknownCommand {
        got: String,
    },
    /// `etcd`, `informer` or `pager` followed by a word they do not know.
    UnknownSubcommand {
        of: String,
        got: String,
    },
    /// `get /…`: a method in lower case.
    MethodCase {
        got: String,
        upper: String,
    },
    Missing {
        what: Part,
    },
    NotANumber {
        what: Part,
        got: String,
    },
    NotAnIndex {
        got: String,
    },
    Unexpected {
        got: String,
    },
    /// A fixed word expected (`restart apiserver`).
    ExpectedWord {
        word: String,
        got: String,
    },
    Quote {
        error: QuoteError,
    },
    PathNotAbsolute {
        got: String,
    },
    /// `PATCH … type=`.
    PatchType {
        got: String,
    },
    NotJson {
        what: JsonPart,
        detail: String,
    },
    AfterQuotedValue {
        got: String,
    },
    GivenTwice {
        option: String,
    },
    NamespaceTwice,
    TakesNoValue {
        flag: String,
    },
    /// `--rev`/`--limit` without a number (`got` absent) or with something else.
    NeedsNumber {
        option: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        got: Option<String>,
    },
    UnknownFlag {
        got: String,
    },
    UnknownOption {
        got: String,
    },
    NeedsNamespace {
        option: String,
    },
    InformerMode {
        got: String,
    },
    ApiserverNumber {
        got: String,
    },
    ApiserverNumbers {
        got: String,
    },
    /// A duration that does not parse (`option`: `resync=…` as written, absent for `advance`).
    Duration {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        option: Option<String>,
        error: DurationError,
    },
    Pages {
        got: String,
    },
    Limit {
        got: String,
    },
    ResourceVersion {
        got: String,
    },
    PagerPath {
        got: String,
    },
    NotInUrlPath {
        what: Part,
        got: String,
    },
    UnknownResource {
        got: String,
    },
    ChunkSize {
        got: String,
    },
    /// A second name (`at_most`: `kubectl get`, which may also have none).
    ExtraName {
        got: String,
        at_most: bool,
    },
    OnlyConfigmap {
        got: String,
    },
    UnexpectedQuoted {
        got: String,
    },
    FromLiteral {
        got: String,
    },
    KubectlPatchType {
        got: String,
    },
    /// `-o` with a format the kubectl lines do not know.
    KubectlOutput {
        got: String,
    },
    /// A kubectl flag given without its value (`-l`, `--raw`, `-f`).
    FlagNeedsValue {
        option: String,
    },
    /// What kubectl itself refuses before sending anything.
    Kubectl {
        error: KubectlError,
    },
    NotAnExpectLine {
        got: String,
    },
    OnlyNotClosed,
    /// `contains` with a list (`events`: the subject is `events`, whose entries carry a type).
    ContainsOneEntry {
        events: bool,
    },
    ListOp {
        op: String,
    },
    CompareNeedsNumber {
        got: String,
    },
    /// An expected value that is not JSON (`names_hint`: it looked like a list of names).
    ValueNotJson {
        got: String,
        detail: String,
        names_hint: bool,
    },
    SpacesMustBeQuoted {
        text: String,
    },
    NotAList {
        got: String,
    },
    EmptyEntry,
    AfterQuotedEntry {
        got: String,
    },
    CharInEntry {
        char: char,
        entry: String,
    },
    NameBeforeAt {
        entry: String,
    },
    ResourceVersionAfterAt {
        got: String,
    },
    BadPath {
        path: String,
        why: PathProblem,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Problem as P;
        match self {
            P::EmptyLine => f.write_str("empty line"),
            P::UnknownCommand { got } => write!(f, "unknown command {}", q(got)),
            P::UnknownSubcommand { of, got } => write!(f, "unknown {of} command {}", q(got)),
            P::MethodCase { got, upper } => {
                write!(f, "unknown command {}; HTTP methods are upper-case: {upper}", q(got))
            }
            P::Missing { what } => write!(f, "missing {}", what.en()),
            P::NotANumber { what, got } => write!(f, "{} must be a number, got {}", what.en(), q(got)),
            P::NotAnIndex { got } => write!(f, "expected a number (0, 1, ...), got {}", q(got)),
            P::Unexpected { got } => write!(f, "unexpected {}", q(got)),
            P::ExpectedWord { word, got } => write!(f, "expected \"{word}\", got {}", q(got)),
            P::Quote { error } => write!(f, "{error}"),
            P::PathNotAbsolute { got } => write!(f, "the path must start with \"/\", got {}", q(got)),
            P::PatchType { got } => write!(f, "type= takes json, merge, strategic or apply, not {}", q(got)),
            P::NotJson { what: JsonPart::Body, detail } => write!(f, "the body is not valid JSON ({detail})"),
            P::NotJson { what: JsonPart::Patch, detail } => {
                write!(f, "the patch is not valid JSON ({detail})")
            }
            P::AfterQuotedValue { got } => write!(f, "unexpected {} after the quoted value", q(got)),
            P::GivenTwice { option } => write!(f, "{option} given twice"),
            P::NamespaceTwice => f.write_str("the namespace is given twice"),
            P::TakesNoValue { flag } => write!(f, "{flag} takes no value"),
            P::NeedsNumber { option, got: None } => write!(f, "{option} needs a number, e.g. {option}=5"),
            P::NeedsNumber { option, got: Some(got) } => write!(f, "{option} needs a number, got {}", q(got)),
            P::UnknownFlag { got } => write!(f, "unknown flag {}", q(got)),
            P::UnknownOption { got } => write!(f, "unknown option {}", q(got)),
            P::NeedsNamespace { option } => write!(f, "{option} needs a namespace"),
            P::InformerMode { got } => write!(f, "mode must be legacy or streaming, got {}", q(got)),
            P::ApiserverNumber { got } => write!(f, "apiserver= needs a number (1, 2, …), got {}", q(got)),
            P::ApiserverNumbers { got } => {
                write!(f, "apiservers= needs numbers separated by commas (1,2), got {}", q(got))
            }
            P::Duration { option: Some(o), error } => write!(f, "{o}: {error}"),
            P::Duration { option: None, error } => write!(f, "{error}"),
            P::Pages { got } => write!(f, "pages= needs a number of pages (1, 2, …), got {}", q(got)),
            P::Limit { got } => write!(f, "limit= needs a number (0 = unpaginated), got {}", q(got)),
            P::ResourceVersion { got } => write!(f, "rv= needs a resourceVersion, got {}", q(got)),
            P::PagerPath { got } => write!(
                f,
                "the path is a collection such as /api/v1/namespaces/default/configmaps (no query), got {}",
                q(got)
            ),
            P::NotInUrlPath { what, got } => {
                write!(f, "{} {} cannot be used in a URL path", what.en(), q(got))
            }
            P::UnknownResource { got } => {
                write!(f, "unknown resource {}; known: {KUBECTL_RESOURCES}", q(got))
            }
            P::ChunkSize { got } => write!(f, "--chunk-size takes a number ≥ 0, not {}", q(got)),
            P::ExtraName { got, at_most: true } => write!(f, "unexpected {} (one name at most)", q(got)),
            P::ExtraName { got, at_most: false } => write!(f, "unexpected {} (one name)", q(got)),
            P::OnlyConfigmap { got } => write!(f, "can only create a configmap, not {}", q(got)),
            P::UnexpectedQuoted { got } => write!(f, "unexpected quoted {}", q(got)),
            P::FromLiteral { got } => write!(f, "--from-literal takes key=value, not {}", q(got)),
            P::KubectlPatchType { got } => {
                write!(f, "--type must be one of strategic, merge or json, not {}", q(got))
            }
            P::KubectlOutput { got } => {
                write!(f, "-o must be one of json, yaml, name or wide, not {}", q(got))
            }
            P::FlagNeedsValue { option } => write!(f, "{option} needs a value"),
            P::Kubectl { error } => write!(f, "kubectl refuses: error: {}", error.kubectl_text()),
            P::NotAnExpectLine { got } => write!(f, "not an expect line: {}", q(got)),
            P::OnlyNotClosed => f.write_str("only \"expect not closed\" exists; use != or absent otherwise"),
            P::ContainsOneEntry { events } => {
                write!(f, "takes one entry, e.g. contains {}", if *events { "ADDED a" } else { "a" })
            }
            P::ListOp { op } => {
                write!(f, "{op} does not work on lists; use ==, !=, contains, exists or absent")
            }
            P::CompareNeedsNumber { got } => write!(f, "needs a number, got {}", q(got)),
            P::ValueNotJson { got, detail, names_hint } => {
                write!(f, "{} is not valid JSON ({detail})", q(got))?;
                if *names_hint {
                    f.write_str("; to compare names use items, events, kvs or informer <name> store")?;
                }
                Ok(())
            }
            P::SpacesMustBeQuoted { text } => {
                write!(f, "text with spaces must be quoted: {}", json_str(text))
            }
            P::NotAList { got } => write!(f, "expected a list like [a, b], got {}", q(got)),
            P::EmptyEntry => f.write_str("empty entry in list"),
            P::AfterQuotedEntry { got } => write!(f, "unexpected {} after a quoted entry", q(got)),
            P::CharInEntry { char, entry } => {
                write!(f, "unexpected {char:?} in entry {}; quote entries like \"a,b\"", q(entry))
            }
            P::NameBeforeAt { entry } => write!(f, "missing name before @ in {}", q(entry)),
            P::ResourceVersionAfterAt { got } => {
                write!(f, "expected a resourceVersion after @, got {}", q(got))
            }
            P::BadPath { path, why } => write!(f, "bad path {}: {why}", q(path)),
        }
    }
}

impl Problem {
    fn zh(&self) -> String {
        use Problem as P;
        match self {
            P::EmptyLine => "空行".into(),
            P::UnknownCommand { got } => format!("未知命令 {}", q(got)),
            P::UnknownSubcommand { of, got } => format!("{of} 没有子命令 {}", q(got)),
            P::MethodCase { got, upper } => format!("未知命令 {}；HTTP 方法须大写：{upper}", q(got)),
            P::Missing { what } => {
                let w = what.zh();
                if w.starts_with(|c: char| c.is_ascii()) {
                    format!("缺少 {w}")
                } else {
                    format!("缺少{w}")
                }
            }
            P::NotANumber { what, got } => format!("{}必须是数字，而不是 {}", what.zh(), q(got)),
            P::NotAnIndex { got } => format!("应为数字（0、1、…），而不是 {}", q(got)),
            P::Unexpected { got } => format!("多余的 {}", q(got)),
            P::ExpectedWord { word, got } => format!("应为 \"{word}\"，而不是 {}", q(got)),
            P::Quote { error } => error.zh(),
            P::PathNotAbsolute { got } => format!("路径必须以 \"/\" 开头，而不是 {}", q(got)),
            P::PatchType { got } => {
                format!("type= 只能是 json、merge、strategic 或 apply，而不是 {}", q(got))
            }
            P::NotJson { what: JsonPart::Body, detail } => format!("请求体不是有效的 JSON（{detail}）"),
            P::NotJson { what: JsonPart::Patch, detail } => format!("补丁不是有效的 JSON（{detail}）"),
            P::AfterQuotedValue { got } => format!("带引号的值之后多出 {}", q(got)),
            P::GivenTwice { option } => format!("{option} 给了两次"),
            P::NamespaceTwice => "命名空间给了两次".into(),
            P::TakesNoValue { flag } => format!("{flag} 不带值"),
            P::NeedsNumber { option, got: None } => format!("{option} 需要一个数字，例如 {option}=5"),
            P::NeedsNumber { option, got: Some(got) } => format!("{option} 需要一个数字，而不是 {}", q(got)),
            P::UnknownFlag { got } => format!("未知的标志 {}", q(got)),
            P::UnknownOption { got } => format!("未知的选项 {}", q(got)),
            P::NeedsNamespace { option } => format!("{option} 需要一个命名空间"),
            P::InformerMode { got } => format!("mode 只能是 legacy 或 streaming，而不是 {}", q(got)),
            P::ApiserverNumber { got } => format!("apiserver= 需要一个编号（1、2、…），而不是 {}", q(got)),
            P::ApiserverNumbers { got } => {
                format!("apiservers= 需要以逗号分隔的编号（1,2），而不是 {}", q(got))
            }
            P::Duration { option: Some(o), error } => format!("{o}：{}", duration_zh(error)),
            P::Duration { option: None, error } => duration_zh(error),
            P::Pages { got } => format!("pages= 需要页数（1、2、…），而不是 {}", q(got)),
            P::Limit { got } => format!("limit= 需要一个数字（0 表示不分页），而不是 {}", q(got)),
            P::ResourceVersion { got } => format!("rv= 需要一个 resourceVersion，而不是 {}", q(got)),
            P::PagerPath { got } => format!(
                "路径应是一个集合，例如 /api/v1/namespaces/default/configmaps（不带查询参数），而不是 {}",
                q(got)
            ),
            P::NotInUrlPath { what, got } => format!("{} {} 不能用在 URL 路径里", what.zh(), q(got)),
            P::UnknownResource { got } => {
                format!("未知资源 {}；已知的有 configmaps（configmap、cm）和 pods（pod、po）", q(got))
            }
            P::ChunkSize { got } => format!("--chunk-size 需要一个 ≥ 0 的数字，而不是 {}", q(got)),
            P::ExtraName { got, at_most: true } => format!("多余的 {}（最多一个名称）", q(got)),
            P::ExtraName { got, at_most: false } => format!("多余的 {}（只能有一个名称）", q(got)),
            P::OnlyConfigmap { got } => format!("只能创建 configmap，而不是 {}", q(got)),
            P::UnexpectedQuoted { got } => format!("多余的带引号参数 {}", q(got)),
            P::FromLiteral { got } => format!("--from-literal 需要 key=value，而不是 {}", q(got)),
            P::KubectlPatchType { got } => {
                format!("--type 只能是 strategic、merge 或 json，而不是 {}", q(got))
            }
            P::KubectlOutput { got } => format!("-o 只能是 json、yaml、name 或 wide，而不是 {}", q(got)),
            P::FlagNeedsValue { option } => format!("{option} 需要一个值"),
            P::Kubectl { error } => format!("kubectl 拒绝执行（它的原话）：error: {}", error.kubectl_text()),
            P::NotAnExpectLine { got } => format!("不是 expect 行：{}", q(got)),
            P::OnlyNotClosed => "只有 \"expect not closed\" 这一种写法；其他情况请用 != 或 absent".into(),
            P::ContainsOneEntry { events } => {
                format!("只接受一个条目，例如 contains {}", if *events { "ADDED a" } else { "a" })
            }
            P::ListOp { op } => format!("{op} 不能用于列表；请用 ==、!=、contains、exists 或 absent"),
            P::CompareNeedsNumber { got } => format!("需要一个数字，而不是 {}", q(got)),
            P::ValueNotJson { got, detail, names_hint } => {
                let mut s = format!("{} 不是有效的 JSON（{detail}）", q(got));
                if *names_hint {
                    s.push_str("；要比较名称，请用 items、events、kvs 或 informer <name> store");
                }
                s
            }
            P::SpacesMustBeQuoted { text } => format!("带空格的文本必须加引号：{}", json_str(text)),
            P::NotAList { got } => format!("应为列表，例如 [a, b]，而不是 {}", q(got)),
            P::EmptyEntry => "列表里有空条目".into(),
            P::AfterQuotedEntry { got } => format!("带引号的条目之后多出 {}", q(got)),
            P::CharInEntry { char, entry } => {
                format!("条目 {} 里有 {char:?}；请给条目加引号，例如 \"a,b\"", q(entry))
            }
            P::NameBeforeAt { entry } => format!("{} 里 @ 之前缺少名称", q(entry)),
            P::ResourceVersionAfterAt { got } => format!("@ 之后应为 resourceVersion，而不是 {}", q(got)),
            P::BadPath { path, why } => format!("无效的路径 {}：{}", q(path), why.zh()),
        }
    }
}

/// A duration error in 中文 (its English is `DurationError`'s `Display`).
pub(crate) fn duration_zh(e: &DurationError) -> String {
    match e {
        DurationError::Empty => "时长为空；例如 500ms、61s、5m 或 1h".into(),
        DurationError::Invalid { text } => format!("无效的时长 {text:?}；例如 500ms、61s、5m 或 1h"),
        DurationError::NumberTooLarge { text } => format!("无效的时长 {text:?}：数字太大"),
        DurationError::MissingUnit { text } => format!("无效的时长 {text:?}：缺少单位；可用 ms、s、m 或 h"),
        DurationError::UnknownUnit { text, unit } => {
            format!("无效的时长 {text:?}：未知单位 {unit:?}；可用 ms、s、m 或 h")
        }
        DurationError::TooLarge { text } => format!("无效的时长 {text:?}：太长"),
    }
}
