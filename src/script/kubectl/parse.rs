//! Reading a `kubectl …` line into a [`KubectlCommand`](super::KubectlCommand): its flags, the
//! usage of each verb and what kubectl itself refuses (`KubectlError`).

use serde_json::Value;

use super::super::lex::{ParseError, Words};
use super::super::syntax::{Expected, JsonPart, OneOf, Part, Problem};
use super::{KubectlCommand, KubectlError, KubectlResource, OutputFormat};
use crate::apiserver::patch::PatchType;

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
