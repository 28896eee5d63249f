//! The parts of a line a syntax error names: which word is missing or wrong, which part of a
//! JSON value, a quoted string's or a path's fault, and what kubectl itself refuses.

use std::fmt;

use serde::Serialize;

use super::q;

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
    pub(super) fn en(self) -> &'static str {
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

    pub(super) fn zh(self) -> &'static str {
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
    pub(super) fn zh(&self) -> String {
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
    pub(super) fn zh(&self) -> String {
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
