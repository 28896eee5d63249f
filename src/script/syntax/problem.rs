//! [`Problem`]: what is wrong with a line, one variant per syntax error, in English and 中文.

use std::fmt;

use serde::Serialize;

use super::{JsonPart, KUBECTL_RESOURCES, KubectlError, Part, PathProblem, QuoteError, json_str, q};
use crate::clock::DurationError;

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
    pub(super) fn zh(&self) -> String {
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
