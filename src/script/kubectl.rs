//! `kubectl …` lines: the subset of kubectl the script and the console speak, and the exact
//! requests each one becomes.
//!
//! Observed from kubectl v1.32.4 (`kubectl -v=8` against `rvlab serve`), which follows
//! `staging/src/k8s.io/kubectl/pkg/cmd/{get,create,delete,patch,apply}` @ v1.32:
//! * `get <res>` pages with `limit=500` (or `--chunk-size`; 0 = one unlimited list) and follows
//!   `continue` (`?continue=…&limit=N`, Go's `url.Values.Encode` sorts the keys);
//!   `get <res> <name>` is one GET of the object.
//! * `get <res> -w` lists as above, then watches with only `resourceVersion=<the list's RV>`
//!   and `watch=true`; `get <res> <name> -w` GETs the object, then watches with
//!   `fieldSelector=metadata.name%3D<name>&resourceVersion=0&watch=true` (`get.go` `watch`:
//!   "watching from resourceVersion 0, starts the watch at ~now"). `--output-watch-events`
//!   changes only how kubectl prints the events.
//! * `create configmap <name> [--from-literal=k=v]…` POSTs with
//!   `fieldManager=kubectl-create&fieldValidation=Strict`.
//! * `delete <res> <name>` sends `{"propagationPolicy":"Background"}` and then GETs the object
//!   for `--wait` (`wait.IsDeleted`: a 404 ends the wait).
//! * `patch <res> <name> [--type=strategic|merge|json] -p <patch>` GETs the object, then PATCHes
//!   with `fieldManager=kubectl-patch` and the type's Content-Type (strategic by default).
//!
//! * `get` with `-A` lists `/api/v1/<resource>`; `-l`/`--field-selector` go into every list and
//!   watch query; without `-o` (or with `-o wide`) every request carries the Table `Accept`
//!   ([`TABLE_ACCEPT`], `get.go` `transformRequests`), with `-o json|yaml|name` none. The watch
//!   is the last request whatever ends it: `get.go` `watch` discards `UntilWithoutRetry`'s
//!   error (a 410 ERROR event, the stream closing) and returns nil.
//! * `get --raw <path>` is one GET of the path (`rawhttp.RawGet`).
//! * `apply --server-side -f -` PATCHes (apply) with
//!   `fieldManager=kubectl&fieldValidation=Strict&force=false` (`apply.go` `applyOneObject`).
//!
//! Not modelled: the Table itself (the engine answers JSON; `rvlab serve` serves Tables),
//! client-side apply, discovery requests.

use std::fmt;

use serde_json::{Map, Value, json};

use super::lex::{ParseError, Words, word};
pub use super::syntax::KubectlError;
use super::syntax::{Expected, JsonPart, OneOf, Part, Problem};
use crate::apiserver::patch::PatchType;

/// A resource kubectl knows by one of its names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubectlResource {
    ConfigMaps,
    Pods,
}

impl KubectlResource {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "configmaps" | "configmap" | "cm" => Some(KubectlResource::ConfigMaps),
            "pods" | "pod" | "po" => Some(KubectlResource::Pods),
            _ => None,
        }
    }
    pub fn plural(self) -> &'static str {
        match self {
            KubectlResource::ConfigMaps => "configmaps",
            KubectlResource::Pods => "pods",
        }
    }
}

/// `kubectl get -o …`: what changes is whether kubectl asks for a server-side Table
/// (`get.go` `transformRequests`: only for a human-readable printer, i.e. no `-o` or `-o wide`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Json,
    Yaml,
    Name,
    Wide,
}

impl OutputFormat {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "json" => Some(OutputFormat::Json),
            "yaml" => Some(OutputFormat::Yaml),
            "name" => Some(OutputFormat::Name),
            "wide" => Some(OutputFormat::Wide),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            OutputFormat::Json => "json",
            OutputFormat::Yaml => "yaml",
            OutputFormat::Name => "name",
            OutputFormat::Wide => "wide",
        }
    }
    /// Whether the printer is human-readable (kubectl then asks for a Table).
    fn human_readable(format: Option<OutputFormat>) -> bool {
        match format {
            None | Some(OutputFormat::Wide) => true,
            Some(OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Name) => false,
        }
    }
}

/// The `Accept` header of kubectl 1.32's `get` with a human-readable printer
/// (`staging/src/k8s.io/kubectl/pkg/cmd/get/get.go` `transformRequests`, applied to the list,
/// the object and the watch alike).
pub const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/// One `kubectl` line. `namespace: None` is the context's namespace, `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KubectlCommand {
    Get {
        resource: KubectlResource,
        name: Option<String>,
        namespace: Option<String>,
        chunk_size: Option<i64>,
        watch: bool,
        output_watch_events: bool,
        /// `-A` / `--all-namespaces`.
        all_namespaces: bool,
        /// `-l` / `--selector`.
        label_selector: Option<String>,
        /// `--field-selector`.
        field_selector: Option<String>,
        /// `-o`; `None` = the default table.
        output: Option<OutputFormat>,
    },
    /// `kubectl get --raw <path>`: one GET of the path as given.
    GetRaw {
        uri: String,
    },
    /// `kubectl apply --server-side -f - <manifest>`.
    ApplyServerSide {
        resource: KubectlResource,
        name: String,
        /// The namespace the object goes to (`-n`, else the manifest's, else `default`).
        namespace: Option<String>,
        /// `-n` as written (shown back).
        namespace_flag: Option<String>,
        manifest: Value,
    },
    CreateConfigMap {
        name: String,
        namespace: Option<String>,
        literals: Vec<(String, String)>,
    },
    Delete {
        resource: KubectlResource,
        name: String,
        namespace: Option<String>,
    },
    Patch {
        resource: KubectlResource,
        name: String,
        namespace: Option<String>,
        /// `None` = kubectl's default, strategic.
        patch_type: Option<PatchType>,
        patch: Value,
    },
}

const VERBS: OneOf = OneOf(&["get", "create", "delete", "patch", "apply"], None);
const U_GET: &str = "kubectl get <resource> [<name>] [-n <namespace> | -A] [-l <selector>] [--field-selector <selector>] \
                     [-o json|yaml|name|wide] [--chunk-size=N] [-w] [--output-watch-events] | kubectl get --raw <path>";
const U_APPLY: &str = "kubectl apply --server-side [-n <namespace>] -f - <json manifest>";
const U_CREATE: &str = "kubectl create configmap <name> [-n <namespace>] [--from-literal=<key>=<value>]...";
const U_DELETE: &str = "kubectl delete <resource> <name> [-n <namespace>]";
const U_PATCH: &str =
    "kubectl patch <resource> <name> [-n <namespace>] [--type=strategic|merge|json] -p <json patch>";

fn err(ctx: &str, problem: Problem, usage: impl Into<Expected>) -> ParseError {
    ParseError::new(problem).at(ctx).expected(usage)
}

/// A name or namespace as kubectl would put it in a URL path: non-empty, no `/`, `?`, `#`,
/// `%` or whitespace.
fn check_name(ctx: &str, what: Part, s: &str, usage: &str) -> Result<(), ParseError> {
    if s.is_empty() || s.chars().any(|c| matches!(c, '/' | '?' | '#' | '%') || c.is_whitespace()) {
        return Err(err(ctx, Problem::NotInUrlPath { what, got: s.to_string() }, usage));
    }
    Ok(())
}

fn resource(ctx: &str, w: &mut Words<'_>, usage: &str) -> Result<KubectlResource, ParseError> {
    let Some(r) = w.next_bare() else {
        return Err(ParseError::missing(ctx, Part::Resource, usage));
    };
    KubectlResource::parse(r).ok_or_else(|| err(ctx, Problem::UnknownResource { got: r.to_string() }, usage))
}

/// Parses what follows `kubectl`.
pub(crate) fn parse(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let Some(verb) = w.next_bare() else {
        return Err(ParseError::missing("kubectl", Part::Command, VERBS));
    };
    match verb {
        "get" => parse_get(w),
        "create" => parse_create(w),
        "delete" => parse_delete(w),
        "patch" => parse_patch(w),
        "apply" => parse_apply(w),
        other => Err(err("kubectl", Problem::UnknownCommand { got: other.to_string() }, VERBS)),
    }
}

/// Reads `-n ns` / `--namespace=ns` / `--namespace ns` if `tok` is one; `Ok(false)` otherwise.
fn namespace_flag(
    ctx: &str,
    tok: &str,
    w: &mut Words<'_>,
    ns: &mut Option<String>,
    usage: &str,
) -> Result<bool, ParseError> {
    let value = match tok {
        "-n" | "--namespace" => match w.next_bare() {
            Some(v) => v.to_string(),
            None => return Err(err(ctx, Problem::NeedsNamespace { option: tok.to_string() }, usage)),
        },
        t => match t.strip_prefix("--namespace=").or_else(|| t.strip_prefix("-n=")) {
            Some(v) => v.to_string(),
            None => return Ok(false),
        },
    };
    if ns.is_some() {
        return Err(err(ctx, Problem::NamespaceTwice, usage));
    }
    check_name(ctx, Part::Namespace, &value, usage)?;
    *ns = Some(value);
    Ok(true)
}

/// A flag's value: `--flag=v`, `-f=v`, or the next word after `--flag` / `-f`. `Ok(None)` if
/// `tok` is not the flag.
fn flag_value(
    ctx: &str,
    tok: &str,
    w: &mut Words<'_>,
    names: &[&str],
    usage: &str,
) -> Result<Option<String>, ParseError> {
    for n in names {
        if tok == *n {
            return match w.next_bare() {
                Some(v) => Ok(Some(v.to_string())),
                None => Err(err(ctx, Problem::FlagNeedsValue { option: tok.to_string() }, usage)),
            };
        }
        if let Some(v) = tok.strip_prefix(n).and_then(|r| r.strip_prefix('=')) {
            return Ok(Some(v.to_string()));
        }
    }
    Ok(None)
}

fn kubectl_err(ctx: &str, error: KubectlError, usage: &str) -> ParseError {
    err(ctx, Problem::Kubectl { error }, usage)
}

fn parse_get(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl get";
    if let Some(first) = Words::new(w.rest()).next_bare()
        && (first == "--raw" || first.starts_with("--raw="))
    {
        let tok = w.next_bare().unwrap_or_default();
        let uri = flag_value(ctx, tok, w, &["--raw"], U_GET)?.unwrap_or_default();
        // `get.go` `Complete` (arguments) and `Validate` (filters, output).
        if let Some(t) = w.next_bare() {
            let error = match t {
                "-w" | "--watch" | "--watch-only" | "-l" | "--selector" => KubectlError::RawWithOthers,
                t if t.starts_with("--selector=") || t.starts_with("-l=") => KubectlError::RawWithOthers,
                "-o" | "--output" => KubectlError::RawWithOutput,
                t if t.starts_with("-o=") || t.starts_with("--output=") => KubectlError::RawWithOutput,
                t if t.starts_with('-') => {
                    return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_GET));
                }
                _ => KubectlError::RawWithArgs,
            };
            return Err(kubectl_err(ctx, error, U_GET));
        }
        // `url.ParseRequestURI`: an absolute path (or a full URL, not modelled here).
        if !uri.starts_with('/') || uri.chars().any(char::is_whitespace) {
            return Err(kubectl_err(ctx, KubectlError::RawNotPath { got: uri }, U_GET));
        }
        return Ok(KubectlCommand::GetRaw { uri });
    }
    let resource = resource(ctx, w, U_GET)?;
    let (mut name, mut namespace, mut chunk_size) = (None, None, None);
    let (mut watch, mut output_watch_events, mut all_namespaces) = (false, false, false);
    let (mut label_selector, mut field_selector, mut output) = (None, None, None);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace, U_GET)? {
            continue;
        }
        if let Some(n) = tok.strip_prefix("--chunk-size=") {
            let n: i64 = n
                .parse()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| err(ctx, Problem::ChunkSize { got: n.to_string() }, U_GET))?;
            chunk_size = Some(n);
            continue;
        }
        if let Some(v) = flag_value(ctx, tok, w, &["-l", "--selector"], U_GET)? {
            label_selector = Some(v);
            continue;
        }
        if let Some(v) = flag_value(ctx, tok, w, &["--field-selector"], U_GET)? {
            field_selector = Some(v);
            continue;
        }
        if let Some(v) = flag_value(ctx, tok, w, &["-o", "--output"], U_GET)? {
            output = Some(
                OutputFormat::parse(&v).ok_or_else(|| err(ctx, Problem::KubectlOutput { got: v }, U_GET))?,
            );
            continue;
        }
        match tok {
            "-w" | "--watch" => watch = true,
            "--output-watch-events" => output_watch_events = true,
            "-A" | "--all-namespaces" => all_namespaces = true,
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_GET));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_GET)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::ExtraName { got: t.to_string(), at_most: true }, U_GET)),
        }
    }
    // cli-runtime `resource/builder.go` `visitorResult`: selectors are visited before names.
    if name.is_some() && (label_selector.is_some() || field_selector.is_some()) {
        return Err(kubectl_err(ctx, KubectlError::NameWithSelector, U_GET));
    }
    if name.is_some() && all_namespaces {
        return Err(kubectl_err(ctx, KubectlError::NameAcrossAllNamespaces, U_GET));
    }
    Ok(KubectlCommand::Get {
        resource,
        name,
        namespace,
        chunk_size,
        watch,
        output_watch_events,
        all_namespaces,
        label_selector,
        field_selector,
        output,
    })
}

/// `kubectl apply --server-side [-n ns] -f - <manifest>`: the manifest is the rest of the line
/// (JSON, possibly in shell-style '…'), as if piped to kubectl's stdin.
fn parse_apply(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl apply";
    let (mut server_side, mut namespace_flag_v, mut manifest) = (false, None, None);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace_flag_v, U_APPLY)? {
            continue;
        }
        match tok {
            "--server-side" | "--server-side=true" => server_side = true,
            "-f" | "--filename" | "-f=-" | "--filename=-" => {
                if !tok.ends_with('-') && w.next_bare() != Some("-") {
                    return Err(err(ctx, Problem::FlagNeedsValue { option: "-f -".into() }, U_APPLY));
                }
                let rest = w.rest();
                let text = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).unwrap_or(rest);
                let v: Value = serde_json::from_str(text).map_err(|e| {
                    err(ctx, Problem::NotJson { what: JsonPart::Body, detail: e.to_string() }, U_APPLY)
                })?;
                manifest = Some(v);
                *w = Words::new("");
            }
            t => return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_APPLY)),
        }
    }
    if !server_side {
        // Client-side apply (GET, then a three-way patch with the last-applied annotation) is
        // not modelled.
        return Err(ParseError::missing(ctx, Part::ServerSideFlag, U_APPLY));
    }
    let manifest = manifest.ok_or_else(|| ParseError::missing(ctx, Part::ManifestFlag, U_APPLY))?;
    let text = |k: &str| manifest.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    let resource = match (api_version.as_str(), kind.as_str()) {
        ("v1", "ConfigMap") => KubectlResource::ConfigMaps,
        ("v1", "Pod") => KubectlResource::Pods,
        _ => return Err(kubectl_err(ctx, KubectlError::UnknownKind { api_version, kind }, U_APPLY)),
    };
    let meta = manifest.get("metadata");
    let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("").to_string();
    if name.is_empty() {
        return Err(ParseError::missing(ctx, Part::Name, U_APPLY));
    }
    check_name(ctx, Part::Name, &name, U_APPLY)?;
    let object_ns = meta.and_then(|m| m.get("namespace")).and_then(Value::as_str).filter(|n| !n.is_empty());
    let namespace = match (object_ns, &namespace_flag_v) {
        (Some(o), Some(f)) if o != f => {
            return Err(kubectl_err(
                ctx,
                KubectlError::NamespaceMismatch { object: o.to_string(), flag: f.clone() },
                U_APPLY,
            ));
        }
        (Some(o), _) => {
            check_name(ctx, Part::Namespace, o, U_APPLY)?;
            Some(o.to_string())
        }
        (None, f) => f.clone(),
    };
    Ok(KubectlCommand::ApplyServerSide {
        resource,
        name,
        namespace,
        namespace_flag: namespace_flag_v,
        manifest,
    })
}

fn parse_create(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl create";
    match w.next_bare() {
        Some("configmap" | "cm") => {}
        Some(other) => {
            return Err(err(ctx, Problem::OnlyConfigmap { got: other.to_string() }, U_CREATE));
        }
        None => return Err(ParseError::missing(ctx, Part::ConfigmapWord, U_CREATE)),
    }
    let (mut name, mut namespace, mut literals) = (None, None, Vec::new());
    while let Some(token) = w.next_token().map_err(|e| e.at(ctx))? {
        let tok = token.text.as_str();
        if token.quoted && !tok.starts_with("--from-literal=") {
            return Err(err(ctx, Problem::UnexpectedQuoted { got: tok.to_string() }, U_CREATE));
        }
        if namespace_flag(ctx, tok, w, &mut namespace, U_CREATE)? {
            continue;
        }
        if let Some(kv) = tok.strip_prefix("--from-literal=") {
            let Some((k, v)) = kv.split_once('=') else {
                return Err(err(ctx, Problem::FromLiteral { got: kv.to_string() }, U_CREATE));
            };
            literals.push((k.to_string(), v.to_string()));
            continue;
        }
        match tok {
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_CREATE));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_CREATE)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::Unexpected { got: t.to_string() }, U_CREATE)),
        }
    }
    let name = name.ok_or_else(|| ParseError::missing(ctx, Part::Name, U_CREATE))?;
    Ok(KubectlCommand::CreateConfigMap { name, namespace, literals })
}

fn parse_delete(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl delete";
    let resource = resource(ctx, w, U_DELETE)?;
    let (mut name, mut namespace) = (None, None);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace, U_DELETE)? {
            continue;
        }
        match tok {
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_DELETE));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_DELETE)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::ExtraName { got: t.to_string(), at_most: false }, U_DELETE)),
        }
    }
    let name = name.ok_or_else(|| ParseError::missing(ctx, Part::Name, U_DELETE))?;
    Ok(KubectlCommand::Delete { resource, name, namespace })
}

fn parse_patch(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl patch";
    let resource = resource(ctx, w, U_PATCH)?;
    let (mut name, mut namespace, mut patch_type, mut patch) = (None, None, None, None);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace, U_PATCH)? {
            continue;
        }
        if let Some(t) = tok.strip_prefix("--type=") {
            let ty = match t {
                "strategic" => PatchType::Strategic,
                "merge" => PatchType::Merge,
                "json" => PatchType::Json,
                _ => {
                    return Err(err(ctx, Problem::KubectlPatchType { got: t.to_string() }, U_PATCH));
                }
            };
            patch_type = Some(ty);
            continue;
        }
        match tok {
            "-p" | "--patch" => {
                // The patch is the rest of the line (JSON, possibly in shell-style '…').
                let rest = w.rest();
                let text = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).unwrap_or(rest);
                let v: Value = serde_json::from_str(text).map_err(|e| {
                    err(ctx, Problem::NotJson { what: JsonPart::Patch, detail: e.to_string() }, U_PATCH)
                })?;
                patch = Some(v);
                *w = Words::new("");
            }
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_PATCH));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_PATCH)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::ExtraName { got: t.to_string(), at_most: false }, U_PATCH)),
        }
    }
    let name = name.ok_or_else(|| ParseError::missing(ctx, Part::Name, U_PATCH))?;
    let patch = patch.ok_or_else(|| ParseError::missing(ctx, Part::PatchFlag, U_PATCH))?;
    Ok(KubectlCommand::Patch { resource, name, namespace, patch_type, patch })
}

impl fmt::Display for KubectlCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = |f: &mut fmt::Formatter<'_>, n: &Option<String>| match n {
            Some(n) => write!(f, " -n {n}"),
            None => Ok(()),
        };
        match self {
            KubectlCommand::Get {
                resource,
                name,
                namespace,
                chunk_size,
                watch,
                output_watch_events,
                all_namespaces,
                label_selector,
                field_selector,
                output,
            } => {
                write!(f, "kubectl get {}", resource.plural())?;
                if let Some(n) = name {
                    write!(f, " {n}")?;
                }
                ns(f, namespace)?;
                if *all_namespaces {
                    f.write_str(" -A")?;
                }
                if let Some(l) = label_selector {
                    write!(f, " -l {l}")?;
                }
                if let Some(l) = field_selector {
                    write!(f, " --field-selector {l}")?;
                }
                if let Some(o) = output {
                    write!(f, " -o {}", o.word())?;
                }
                if let Some(c) = chunk_size {
                    write!(f, " --chunk-size={c}")?;
                }
                if *watch {
                    f.write_str(" -w")?;
                }
                if *output_watch_events {
                    f.write_str(" --output-watch-events")?;
                }
                Ok(())
            }
            KubectlCommand::GetRaw { uri } => write!(f, "kubectl get --raw {uri}"),
            KubectlCommand::ApplyServerSide { namespace_flag, manifest, .. } => {
                f.write_str("kubectl apply --server-side")?;
                ns(f, namespace_flag)?;
                write!(f, " -f - {manifest}")
            }
            KubectlCommand::CreateConfigMap { name, namespace, literals } => {
                write!(f, "kubectl create configmap {name}")?;
                ns(f, namespace)?;
                for (k, v) in literals {
                    write!(f, " {}", word(&format!("--from-literal={k}={v}")))?;
                }
                Ok(())
            }
            KubectlCommand::Delete { resource, name, namespace } => {
                write!(f, "kubectl delete {} {name}", resource.plural())?;
                ns(f, namespace)
            }
            KubectlCommand::Patch { resource, name, namespace, patch_type, patch } => {
                write!(f, "kubectl patch {} {name}", resource.plural())?;
                ns(f, namespace)?;
                if let Some(t) = patch_type {
                    write!(f, " --type={}", t.word())?;
                }
                write!(f, " -p {patch}")
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The requests a line becomes.

/// One request kubectl sends.
#[derive(Debug, Clone, PartialEq)]
pub struct KubectlRequest {
    pub method: &'static str,
    pub target: String,
    pub body: Option<Value>,
    /// The Content-Type of a PATCH.
    pub patch_type: Option<PatchType>,
    /// A check after the command's own request (`delete`'s `--wait` GET): the line's result is
    /// the request before it.
    pub follow_up: bool,
    /// An `Accept` header other than the client's default ([`TABLE_ACCEPT`] for `get`'s tables).
    pub accept: Option<&'static str>,
}

impl KubectlRequest {
    fn get(target: String) -> Self {
        KubectlRequest { method: "GET", target, body: None, patch_type: None, follow_up: false, accept: None }
    }
    fn accepting(self, accept: Option<&'static str>) -> Self {
        KubectlRequest { accept, ..self }
    }
    /// The request as a script line (`PATCH <path> type=json <body>` for a non-merge patch).
    pub fn line(&self) -> String {
        let mut s = format!("{} {}", self.method, self.target);
        if let Some(t) = self.patch_type
            && t != PatchType::Merge
        {
            s.push_str(&format!(" type={}", t.word()));
        }
        if let Some(b) = &self.body {
            s.push(' ');
            s.push_str(&b.to_string());
        }
        s
    }
    pub fn is_watch(&self) -> bool {
        self.target.ends_with("watch=true")
    }
}

/// Go's `url.QueryEscape` for a query value.
fn query_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(b)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `json.Marshal` of an `Unstructured`'s map: object keys sorted, at every depth.
fn sorted_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted_keys(&m[k]))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

/// What the previous request of the line answered.
pub struct Answer<'a> {
    pub code: u16,
    pub body: &'a Value,
}

/// Walks a line's requests: each one may depend on the answer to the one before (the next
/// page's `continue`, the list's resourceVersion). `next` returns `None` when kubectl is done.
#[derive(Debug, Clone)]
pub struct Plan {
    cmd: KubectlCommand,
    sent: usize,
    /// A watch was sent: it is kubectl's last request.
    watching: bool,
}

impl Plan {
    pub fn new(cmd: KubectlCommand) -> Self {
        Plan { cmd, sent: 0, watching: false }
    }

    fn collection(resource: KubectlResource, namespace: &Option<String>) -> String {
        format!("/api/v1/namespaces/{}/{}", namespace.as_deref().unwrap_or("default"), resource.plural())
    }

    /// The list/watch path: every namespace's with `-A` (the builder's `AllNamespaces(true)`
    /// empties the namespace, whatever `-n` said).
    fn list_path(resource: KubectlResource, namespace: &Option<String>, all: bool) -> String {
        if all { format!("/api/v1/{}", resource.plural()) } else { Self::collection(resource, namespace) }
    }

    /// The next request, given the answer to the previous one (`None` before the first).
    pub fn next(&mut self, last: Option<Answer<'_>>) -> Option<KubectlRequest> {
        if self.watching {
            return None;
        }
        let n = self.sent;
        let req = self.step(n, last)?;
        self.sent += 1;
        self.watching = req.is_watch();
        Some(req)
    }

    fn step(&self, n: usize, last: Option<Answer<'_>>) -> Option<KubectlRequest> {
        // kubectl stops at the first error.
        if let Some(a) = &last
            && !(200..300).contains(&a.code)
            && !matches!(self.cmd, KubectlCommand::Delete { .. })
        {
            return None;
        }
        match &self.cmd {
            KubectlCommand::Get { resource, name: Some(name), namespace, watch, output, .. } => {
                let coll = Self::collection(*resource, namespace);
                let accept = OutputFormat::human_readable(*output).then_some(TABLE_ACCEPT);
                let req = match n {
                    0 => KubectlRequest::get(format!("{coll}/{name}")),
                    1 if *watch => KubectlRequest::get(format!(
                        "{coll}?fieldSelector={}&resourceVersion=0&watch=true",
                        query_escape(&format!("metadata.name={name}"))
                    )),
                    _ => return None,
                };
                Some(req.accepting(accept))
            }
            KubectlCommand::Get {
                resource,
                name: None,
                namespace,
                chunk_size,
                watch,
                all_namespaces,
                label_selector,
                field_selector,
                output,
                ..
            } => {
                let coll = Self::list_path(*resource, namespace, *all_namespaces);
                let accept = OutputFormat::human_readable(*output).then_some(TABLE_ACCEPT);
                let limit = chunk_size.unwrap_or(500);
                // `url.Values.Encode`: keys sorted.
                let query = |pairs: Vec<(&str, String)>| {
                    let mut pairs = pairs;
                    if let Some(f) = field_selector {
                        pairs.push(("fieldSelector", query_escape(f)));
                    }
                    if let Some(l) = label_selector {
                        pairs.push(("labelSelector", query_escape(l)));
                    }
                    pairs.sort_by(|a, b| a.0.cmp(b.0));
                    let q: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
                    if q.is_empty() { coll.clone() } else { format!("{coll}?{}", q.join("&")) }
                };
                let page = |cont: Option<&str>| {
                    let mut q = Vec::new();
                    if let Some(c) = cont {
                        q.push(("continue", query_escape(c)));
                    }
                    if limit > 0 {
                        q.push(("limit", limit.to_string()));
                    }
                    KubectlRequest::get(query(q)).accepting(accept)
                };
                let Some(a) = last else {
                    return Some(page(None));
                };
                let meta = a.body.get("metadata");
                let cont =
                    meta.and_then(|m| m.get("continue")).and_then(Value::as_str).filter(|c| !c.is_empty());
                if let Some(c) = cont {
                    return Some(page(Some(c)));
                }
                if !*watch {
                    return None;
                }
                // kubectl 1.32 `get.go` `watch`: one watch from the list's resourceVersion; what
                // ends it (an ERROR event such as 410 Expired, the server closing) ends kubectl —
                // `UntilWithoutRetry`'s error is discarded (`intr.Run(…)`, then `return nil`):
                // no relist, no retry, exit status 0.
                let rv = meta.and_then(|m| m.get("resourceVersion")).and_then(Value::as_str).unwrap_or("");
                let w = vec![("resourceVersion", query_escape(rv)), ("watch", "true".to_string())];
                Some(KubectlRequest::get(query(w)).accepting(accept))
            }
            KubectlCommand::GetRaw { uri } => (n == 0).then(|| KubectlRequest::get(uri.clone())),
            KubectlCommand::ApplyServerSide { resource, name, namespace, manifest, .. } => {
                (n == 0).then(|| {
                    let target = format!("{}/{name}", Self::collection(*resource, namespace));
                    let mut body = manifest.clone();
                    // cli-runtime `resource/visitor.go` `SetNamespace`: the object gets the namespace
                    // it goes to when it has none.
                    if let Some(m) = body.get_mut("metadata").and_then(Value::as_object_mut)
                        && m.get("namespace").and_then(Value::as_str).is_none_or(str::is_empty)
                    {
                        m.insert("namespace".into(), json!(namespace.as_deref().unwrap_or("default")));
                    }
                    KubectlRequest {
                        method: "PATCH",
                        // `apply.go` `applyOneObject` (server-side): `PatchOptions{Force: &false,
                        // FieldManager: "kubectl", FieldValidation: "Strict"}`, keys sorted.
                        target: format!("{target}?fieldManager=kubectl&fieldValidation=Strict&force=false"),
                        body: Some(sorted_keys(&body)),
                        patch_type: Some(PatchType::Apply),
                        follow_up: false,
                        accept: None,
                    }
                })
            }
            KubectlCommand::CreateConfigMap { name, namespace, literals } => (n == 0).then(|| {
                let mut obj = Map::new();
                obj.insert("kind".into(), json!("ConfigMap"));
                obj.insert("apiVersion".into(), json!("v1"));
                obj.insert("metadata".into(), json!({"name": name, "creationTimestamp": null}));
                if !literals.is_empty() {
                    let mut data: Vec<&(String, String)> = literals.iter().collect();
                    data.sort();
                    let data: Map<String, Value> =
                        data.into_iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
                    obj.insert("data".into(), Value::Object(data));
                }
                KubectlRequest {
                    method: "POST",
                    target: format!(
                        "{}?fieldManager=kubectl-create&fieldValidation=Strict",
                        Self::collection(KubectlResource::ConfigMaps, namespace)
                    ),
                    body: Some(Value::Object(obj)),
                    patch_type: None,
                    follow_up: false,
                    accept: None,
                }
            }),
            KubectlCommand::Delete { resource, name, namespace } => {
                let target = format!("{}/{name}", Self::collection(*resource, namespace));
                match (n, last) {
                    (0, _) => Some(KubectlRequest {
                        method: "DELETE",
                        target,
                        body: Some(json!({"propagationPolicy": "Background"})),
                        patch_type: None,
                        follow_up: false,
                        accept: None,
                    }),
                    // --wait: only after a successful delete.
                    (1, Some(a)) if (200..300).contains(&a.code) => {
                        Some(KubectlRequest { follow_up: true, ..KubectlRequest::get(target) })
                    }
                    _ => None,
                }
            }
            KubectlCommand::Patch { resource, name, namespace, patch_type, patch } => {
                let target = format!("{}/{name}", Self::collection(*resource, namespace));
                match n {
                    0 => Some(KubectlRequest::get(target)),
                    1 => Some(KubectlRequest {
                        method: "PATCH",
                        target: format!("{target}?fieldManager=kubectl-patch"),
                        body: Some(patch.clone()),
                        patch_type: Some(patch_type.unwrap_or(PatchType::Strategic)),
                        follow_up: false,
                        accept: None,
                    }),
                    _ => None,
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "kubectl_tests.rs"]
mod tests;
