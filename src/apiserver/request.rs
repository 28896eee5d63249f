//! HTTP request → typed API request (routing and query decoding as kube-apiserver does it).
//!
//! Owns URL routing for `/api/v1/...` (namespaced item/collection, all-namespaces collection,
//! legacy `/watch/` prefix), Go-compatible percent-decoding of path and query
//! (`url.PathUnescape`, `url.ParseQuery` dropping malformed pairs, `+` = space in queries), the
//! query-parameter conversion rules of `runtime.Convert_Slice_string_To_*` (first value wins,
//! booleans false only for `0`/`false`, integers via `strconv.ParseInt` with its error text as a
//! 400), the 404/405 answers of the go-restful router, and dispatching bodies to [`super::body`].

use super::body;
pub use super::body::DeleteOptions;
use super::decision::Rule;
use super::field_selector::ParsedFieldSelector;
use super::go::strconv::go_parse_int;
use super::patch::PatchType;
use super::resource::{self, ResourceInfo};
use super::selector::LabelSelector;
use super::status::{BadValue, FieldError, Status};
pub use super::verb::Verb;

/// `metav1.ResourceVersionMatch`: how `resourceVersion` is applied to a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RvMatch {
    /// `Exact`: exactly that revision.
    Exact,
    /// `NotOlderThan`: at least as new as that revision.
    NotOlderThan,
    /// Anything else, kept verbatim for validation's "Unsupported value" error.
    Unsupported(String),
}

impl RvMatch {
    /// The query value (case-sensitive, as the API compares it).
    pub fn parse(s: &str) -> RvMatch {
        match s {
            "Exact" => RvMatch::Exact,
            "NotOlderThan" => RvMatch::NotOlderThan,
            other => RvMatch::Unsupported(other.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            RvMatch::Exact => "Exact",
            RvMatch::NotOlderThan => "NotOlderThan",
            RvMatch::Unsupported(s) => s,
        }
    }
}

/// `metainternalversion.ListOptions` as decoded from the query (empty strings are `None`,
/// as Go does not distinguish "absent" from "").
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListOptions {
    pub resource_version: Option<String>,
    /// `resourceVersionMatch` (absent or "" is `None`).
    pub resource_version_match: Option<RvMatch>,
    /// `limit`; 0 = unlimited (negative values pass through, as in Go).
    pub limit: i64,
    pub continue_token: Option<String>,
    pub label_selector: LabelSelector,
    /// `fieldSelector`, parsed; the kind's field label conversion comes later (the handler).
    pub field_selector: ParsedFieldSelector,
    /// The `watch` query parameter (not set by the legacy `/watch/` prefix).
    pub watch: bool,
    pub allow_watch_bookmarks: bool,
    pub send_initial_events: Option<bool>,
    pub timeout_seconds: Option<i64>,
}

/// A routed, decoded request.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiRequest {
    pub verb: Verb,
    pub resource: &'static ResourceInfo,
    /// `None` for an all-namespaces list/watch.
    pub namespace: Option<String>,
    /// Set for get/update/delete and for a watch of one object (`/watch/namespaces/ns/pods/a`).
    pub name: Option<String>,
    /// Decoded list options (list/watch; for a get only `resource_version` is read).
    pub options: ListOptions,
    /// The decoded object for create/update: `kind`/`apiVersion` filled in, `metadata.namespace`
    /// set to the URL namespace (see [`body`]).
    pub body: Option<serde_json::Value>,
    pub delete_options: DeleteOptions,
    /// PATCH: the patch, its type and options.
    pub patch: Option<PatchRequest>,
    /// `dryRun=All` on a write: answer as if written, write nothing.
    pub dry_run: bool,
    /// The `fieldManager` query parameter of a create or update (a PATCH carries its own in
    /// [`PatchRequest`]); without it the field manager records the User-Agent's prefix.
    pub field_manager: Option<String>,
}

/// A PATCH's type, body and `PatchOptions`.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchRequest {
    pub ty: PatchType,
    pub patch: serde_json::Value,
    pub field_manager: Option<String>,
    pub force: bool,
    /// `fieldValidation=Ignore`: the JSON and merge patch bodies are not first decoded
    /// strictly (`jsonPatcher.applyJSPatch` does so for `Warn`, the default, and `Strict`).
    pub ignore_field_validation: bool,
}

/// The media types a PATCH may carry, in the order the handler lists them
/// (`endpoints/handlers/patch.go` `PatchResource`).
const PATCH_TYPES: [PatchType; 4] =
    [PatchType::Json, PatchType::Merge, PatchType::Strategic, PatchType::Apply];

/// How a release prints a composite offending value (the `[]string` of `dryRun`) in a field
/// error: Go syntax `[]string{"x"}` through 1.33, `json.Marshal`'s `["x"]` from 1.34
/// (apimachinery `pkg/util/validation/field/errors.go` `ErrorBody`: `%#v` before, `json.Marshal`
/// since kubernetes/kubernetes#132314, of June 2025 — the 1.34 cycle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueStyle {
    /// `%#v`: 1.27–1.33.
    GoSyntax,
    /// JSON: 1.34 on (the default release's).
    #[default]
    Json,
}

impl ValueStyle {
    /// The style release 1.`minor` prints with.
    pub fn of_minor(minor: u32) -> ValueStyle {
        if minor >= 34 { ValueStyle::Json } else { ValueStyle::GoSyntax }
    }

    fn list(self, values: Vec<String>) -> BadValue {
        match self {
            ValueStyle::GoSyntax => BadValue::StrList(values),
            ValueStyle::Json => BadValue::JsonStrList(values),
        }
    }
}

/// `ValidateDryRun`: a write's `dryRun` query is absent, or exactly `All`.
fn dry_run_errors(q: &Query, style: ValueStyle) -> (bool, Vec<FieldError>) {
    let values: Vec<String> = q.0.iter().filter(|(k, _)| k == "dryRun").map(|(_, v)| v.clone()).collect();
    if values.is_empty() {
        return (false, Vec::new());
    }
    if values.iter().all(|v| v == "All") {
        return (true, Vec::new());
    }
    (false, vec![FieldError::not_supported("dryRun", style.list(values), &["All"])])
}

/// `ValidateFieldManager`'s character check: every character printable, else
/// `Invalid value: "…": invalid character U+0007 (at position 1)` (byte position). The 128-byte
/// length limit is not checked here.
fn field_manager_errors(q: &Query) -> Vec<FieldError> {
    let Some(m) = q.string("fieldManager") else { return Vec::new() };
    m.char_indices()
        .filter(|(_, c)| !super::fieldmanager::is_go_print(*c))
        .map(|(i, c)| {
            FieldError::invalid(
                "fieldManager",
                m.as_str(),
                format!("invalid character U+{:04X} (at position {i})", u32::from(c)),
            )
        })
        .collect()
}

/// `ValidateCreateOptions` / `ValidateUpdateOptions` / the dryRun part of
/// `ValidateDeleteOptions`: the `dryRun` flag, or 422 on the verb's options kind (e.g.
/// `CreateOptions`) listing every error.
fn write_options(
    q: &Query,
    style: ValueStyle,
    options_kind: &str,
    mut errs: Vec<FieldError>,
) -> Result<bool, Status> {
    let (dry_run, dry_errs) = dry_run_errors(q, style);
    errs.extend(dry_errs);
    if errs.is_empty() { Ok(dry_run) } else { Err(Status::invalid_options(options_kind, &errs)) }
}

/// A DELETE's options: the body (`DeleteOptions` JSON) or, without one, the query.
fn delete_options(q: &Query, body_text: Option<&str>) -> Result<DeleteOptions, (Rule, Status)> {
    match body_text.filter(|b| !b.is_empty()) {
        Some(b) => body::decode_delete_options(b).map_err(|s| (Rule::BodyRejected, s)),
        None => Ok(DeleteOptions {
            grace_period_seconds: q
                .int64("gracePeriodSeconds")
                .map_err(|e| (Rule::RequestRejected, Status::bad_request(&e)))?,
            ..Default::default()
        }),
    }
}

/// A decoded query string: `(key, value)` pairs in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query(pub Vec<(String, String)>);

impl Query {
    /// Go's `url.ParseQuery` as used by `req.URL.Query()`: pairs split on `&`, a pair with `;`
    /// or a bad escape is dropped, `+` is a space.
    pub fn parse(raw: &str) -> Query {
        let mut out = Vec::new();
        for piece in raw.split('&') {
            if piece.is_empty() || piece.contains(';') {
                continue;
            }
            let (k, v) = piece.split_once('=').unwrap_or((piece, ""));
            let (Ok(k), Ok(v)) = (unescape(k, true), unescape(v, true)) else {
                continue;
            };
            out.push((lossy(k), lossy(v)));
        }
        Query(out)
    }

    /// The first value of `key` (what `Convert_Slice_string_To_*` use).
    pub fn first(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// `Convert_Slice_string_To_bool`: absent → None; `0`/`false` (any case) → false; anything else
    /// (including empty) → true.
    pub fn bool(&self, key: &str) -> Option<bool> {
        self.first(key).map(|v| !(v == "0" || v.eq_ignore_ascii_case("false")))
    }

    /// `Convert_Slice_string_To_int64`: absent → None; else `strconv.ParseInt` (error text returned).
    pub fn int64(&self, key: &str) -> Result<Option<i64>, String> {
        match self.first(key) {
            None => Ok(None),
            Some(v) => go_parse_int(v).map(Some).map_err(|e| e.to_string()),
        }
    }

    /// A string parameter; empty = absent.
    pub fn string(&self, key: &str) -> Option<String> {
        self.first(key).filter(|v| !v.is_empty()).map(str::to_string)
    }
}

fn lossy(b: Vec<u8>) -> String {
    match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

fn hex(c: u8) -> Option<u8> {
    char::from(c).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// Go's `url.unescape`; the error is the `EscapeError` text (`invalid URL escape "%zz"`).
pub fn unescape(s: &str, query: bool) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                match (b.get(i + 1).copied().and_then(hex), b.get(i + 2).copied().and_then(hex)) {
                    (Some(h), Some(l)) => out.push(h * 16 + l),
                    _ => {
                        let end = (i + 3).min(b.len());
                        let bad = String::from_utf8_lossy(&b[i..end]).into_owned();
                        return Err(format!("invalid URL escape {}", super::go::strconv::go_quote(&bad)));
                    }
                }
                i += 3;
            }
            b'+' if query => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Which route matched.
enum Route {
    /// `/api/v1/namespaces/{ns}/{res}` (ns = Some) or `/api/v1/{res}` (ns = None).
    Collection(&'static ResourceInfo, Option<String>),
    /// `/api/v1/namespaces/{ns}/{res}/{name}`.
    Item(&'static ResourceInfo, String, String),
    /// `/api/v1/watch/...`.
    LegacyWatch(&'static ResourceInfo, Option<String>, Option<String>),
}

fn route(path: &str) -> Result<Route, Status> {
    let decoded = lossy(unescape(path, false).map_err(|e| Status::bad_request(&e))?);
    let trimmed = decoded.trim_end_matches('/');
    let Some(rest) = trimmed.strip_prefix("/api/v1/") else {
        return Err(Status::path_not_found());
    };
    let segs: Vec<&str> = rest.split('/').collect();
    if segs.iter().any(|s| s.is_empty()) {
        return Err(Status::path_not_found());
    }
    let res = |r: &str| resource::lookup(r).ok_or_else(Status::path_not_found);
    let ns_only = |r: &'static ResourceInfo| {
        if r.namespaced { Ok(r) } else { Err(Status::path_not_found()) }
    };
    match segs.as_slice() {
        ["watch", "namespaces", ns, r] => {
            Ok(Route::LegacyWatch(ns_only(res(r)?)?, Some(ns.to_string()), None))
        }
        ["watch", "namespaces", ns, r, name] => {
            Ok(Route::LegacyWatch(ns_only(res(r)?)?, Some(ns.to_string()), Some(name.to_string())))
        }
        ["watch", r] => Ok(Route::LegacyWatch(res(r)?, None, None)),
        ["namespaces", ns, r] => Ok(Route::Collection(ns_only(res(r)?)?, Some(ns.to_string()))),
        ["namespaces", ns, r, name] => Ok(Route::Item(ns_only(res(r)?)?, ns.to_string(), name.to_string())),
        [r] => Ok(Route::Collection(res(r)?, None)),
        _ => Err(Status::path_not_found()),
    }
}

/// Decodes the list/watch query exactly as `ParameterCodec.DecodeParameters` into
/// `metainternalversion.ListOptions` does: integer errors first (`timeoutSeconds`, `limit`),
/// then the label selector, then the field selector; each is a 400 BadRequest carrying the raw
/// error text.
pub fn decode_list_options(q: &Query) -> Result<ListOptions, Status> {
    let bad = |e: String| Status::bad_request(&e);
    let timeout_seconds = q.int64("timeoutSeconds").map_err(bad)?;
    let limit = q.int64("limit").map_err(bad)?.unwrap_or(0);
    let label_selector = match q.first("labelSelector") {
        None => LabelSelector::everything(),
        Some(s) => LabelSelector::parse(s).map_err(|e| Status::bad_request(&e))?,
    };
    let field_selector = match q.first("fieldSelector") {
        None => ParsedFieldSelector::default(),
        Some(s) => ParsedFieldSelector::parse(s).map_err(|e| Status::bad_request(&e.to_string()))?,
    };
    Ok(ListOptions {
        resource_version: q.string("resourceVersion"),
        resource_version_match: q.string("resourceVersionMatch").map(|m| RvMatch::parse(&m)),
        limit,
        continue_token: q.string("continue"),
        label_selector,
        field_selector,
        watch: q.bool("watch").unwrap_or(false),
        allow_watch_bookmarks: q.bool("allowWatchBookmarks").unwrap_or(false),
        send_initial_events: q.bool("sendInitialEvents"),
        timeout_seconds,
    })
}

/// Routes and decodes one request. `target` is the request target (`/api/v1/...?...`),
/// still percent-encoded. Performs everything the real handler does *before* the list
/// defaulting/validation and storage: routing (404/405), query decoding (400), and for
/// create/update the body decoding and checks of [`body`] (400/422).
pub fn parse_request(method: &str, target: &str, body_text: Option<&str>) -> Result<ApiRequest, Status> {
    parse_request_ruled(method, target, None, body_text).map_err(|(_, status)| status)
}

/// [`parse_request`] with the request's `Content-Type`, which a PATCH needs (its patch type).
pub fn parse_request_typed(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    body_text: Option<&str>,
) -> Result<ApiRequest, Status> {
    parse_request_ruled(method, target, content_type, body_text).map_err(|(_, status)| status)
}

/// [`parse_request_typed`] with the rule that refused the request: the body's decoding and
/// checks ([`Rule::BodyRejected`]) or the URL, query and method ([`Rule::RequestRejected`]).
pub fn parse_request_ruled(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    body_text: Option<&str>,
) -> Result<ApiRequest, (Rule, Status)> {
    parse_request_styled(method, target, content_type, body_text, ValueStyle::default())
}

/// [`parse_request_ruled`] with the release's way of printing values in field errors.
pub fn parse_request_styled(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    body_text: Option<&str>,
    style: ValueStyle,
) -> Result<ApiRequest, (Rule, Status)> {
    let url = |s: Status| (Rule::RequestRejected, s);
    let in_body = |s: Status| (Rule::BodyRejected, s);
    let (path, raw_query) = target.split_once('?').unwrap_or((target, ""));
    let q = Query::parse(raw_query);
    let route = route(path).map_err(url)?;
    let req = |verb, resource, namespace, name| ApiRequest {
        verb,
        resource,
        namespace,
        name,
        options: ListOptions::default(),
        body: None,
        delete_options: DeleteOptions::default(),
        patch: None,
        dry_run: false,
        field_manager: None,
    };
    match (route, method) {
        (Route::Collection(info, ns), "GET") => {
            let options = decode_list_options(&q).map_err(url)?;
            let verb = if options.watch { Verb::Watch } else { Verb::List };
            Ok(ApiRequest { options, ..req(verb, info, ns, None) })
        }
        (Route::LegacyWatch(info, ns, name), "GET") => {
            let options = decode_list_options(&q).map_err(url)?;
            Ok(ApiRequest { options, ..req(Verb::Watch, info, ns, name) })
        }
        (Route::Collection(info, Some(ns)), "POST") => {
            // The options are validated before the body is decoded (handlers `create.go`).
            let dry_run = write_options(&q, style, "CreateOptions", field_manager_errors(&q)).map_err(url)?;
            let obj = body::decode_create(info, &ns, body_text.unwrap_or("")).map_err(in_body)?;
            Ok(ApiRequest {
                body: Some(obj),
                dry_run,
                field_manager: q.string("fieldManager"),
                ..req(Verb::Create, info, Some(ns), None)
            })
        }
        // deletecollection is served on a namespace's collection only (the all-namespaces path
        // of a namespaced resource has list and watch).
        (Route::Collection(info, Some(ns)), "DELETE") => {
            let options = decode_list_options(&q).map_err(url)?;
            let delete_options = delete_options(&q, body_text)?;
            let dry_run = write_options(&q, style, "DeleteOptions", Vec::new()).map_err(url)?;
            Ok(ApiRequest {
                options,
                delete_options,
                dry_run,
                ..req(Verb::DeleteCollection, info, Some(ns), None)
            })
        }
        // The console embed's module serves no PATCH (`script::extra`): MethodNotAllowed below.
        (Route::Item(info, ns, name), "PATCH") if cfg!(feature = "sandbox") => {
            let ty = content_type
                .map(|c| c.split(';').next().unwrap_or("").trim())
                .and_then(|c| PATCH_TYPES.into_iter().find(|t| t.content_type() == c));
            let Some(ty) = ty else {
                let types: Vec<&str> = PATCH_TYPES.iter().map(|t| t.content_type()).collect();
                return Err(url(Status::failure(
                    415,
                    "UnsupportedMediaType",
                    format!(
                        "the body of the request was in an unknown format - accepted media types include: {}",
                        types.join(", ")
                    ),
                    None,
                )));
            };
            // `ValidatePatchOptions` (handlers `patch.go`, before the patch is read): `force`
            // with a non-apply patch (given at all: `PatchOptions.Force` is a pointer), apply
            // without `fieldManager`, the manager's characters, `dryRun`.
            let field_manager = q.string("fieldManager");
            let force_given = q.first("force").is_some();
            let patch_errs = super::patch::patch_option_errors(ty, field_manager.as_deref(), force_given);
            let rule = if patch_errs.is_empty() { Rule::RequestRejected } else { Rule::PatchRejected };
            let mut errs = patch_errs;
            errs.extend(field_manager_errors(&q));
            let dry_run = write_options(&q, style, "PatchOptions", errs).map_err(|s| (rule, s))?;
            let text = body_text.unwrap_or("");
            let patch: serde_json::Value = serde_json::from_str(text).map_err(|e| {
                in_body(Status::bad_request(&if ty == PatchType::Merge {
                    "Invalid JSON Patch".to_string()
                } else {
                    format!("error decoding patch: {e}")
                }))
            })?;
            let patch = PatchRequest {
                ty,
                patch,
                field_manager,
                force: q.bool("force").unwrap_or(false),
                ignore_field_validation: q.string("fieldValidation").as_deref() == Some("Ignore"),
            };
            Ok(ApiRequest { patch: Some(patch), dry_run, ..req(Verb::Patch, info, Some(ns), Some(name)) })
        }
        (Route::Item(info, ns, name), "GET") => {
            let options = ListOptions { resource_version: q.string("resourceVersion"), ..Default::default() };
            Ok(ApiRequest { options, ..req(Verb::Get, info, Some(ns), Some(name)) })
        }
        (Route::Item(info, ns, name), "PUT") => {
            let dry_run = write_options(&q, style, "UpdateOptions", field_manager_errors(&q)).map_err(url)?;
            let obj = body::decode_update(info, &ns, &name, body_text.unwrap_or("")).map_err(in_body)?;
            Ok(ApiRequest {
                body: Some(obj),
                dry_run,
                field_manager: q.string("fieldManager"),
                ..req(Verb::Update, info, Some(ns), Some(name))
            })
        }
        (Route::Item(info, ns, name), "DELETE") => {
            let delete_options = delete_options(&q, body_text)?;
            let dry_run = write_options(&q, style, "DeleteOptions", Vec::new()).map_err(url)?;
            Ok(ApiRequest { delete_options, dry_run, ..req(Verb::Delete, info, Some(ns), Some(name)) })
        }
        // Everything else has a route but not this method.
        _ => Err(url(Status::method_not_allowed())),
    }
}
