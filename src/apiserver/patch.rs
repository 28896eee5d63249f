//! PATCH: the four patch types and what each does to the current object, with the statuses
//! the real apiserver answers for bad patches.
//!
//! Upstream: `endpoints/handlers/patch.go` (`PatchResource`, `jsonPatcher.applyJSPatch`,
//! `smpPatcher`, `applyPatcher`), `apimachinery/pkg/util/strategicpatch` (strategic merge
//! patch, driven by the `patchStrategy` / `patchMergeKey` tags of the Go types in
//! `k8s.io/api/core/v1/types.go`), `evanphx/json-patch` (RFC 6902 and RFC 7386), and the field
//! manager of `apiserver/pkg/endpoints/handlers/fieldmanager` + `structured-merge-diff`
//! (server-side apply: managed fields, conflicts, `force`).
//!
//! Pure functions over JSON values: the server reads the current object, calls
//! [`apply_patch`], then writes the result through its ordinary update path (which checks
//! `metadata.resourceVersion` as a precondition and skips the write when nothing changed).
//!
//! Server-side apply keeps `metadata.managedFields` with [`super::fieldmanager`] (which also
//! records the `Update` managers of the other writes) and conflicts with appliers and updaters
//! alike. Strategic merge patch knows the merge keys of the fields rvlab serves (below) and the
//! `$patch`, `$retainKeys`, `$deleteFromPrimitiveList` and `$setElementOrder` directives, orders
//! merged lists as upstream does (patch items in the patch's or `$setElementOrder`'s order, the
//! server's other items kept where they were relative to them), and refuses a patch list that
//! contradicts its `$setElementOrder` list as `validatePatchWithSetOrderList` does (a 500).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::fieldmanager as fm;
pub use super::merge_schema::Schema;
use super::merge_schema::{ListKind, list_kind};
use super::status::{FieldError, Status, StatusCause, StatusDetails};

/// The patch types of the `Content-Type` header (`types.PatchType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatchType {
    /// `application/json-patch+json` (RFC 6902).
    Json,
    /// `application/merge-patch+json` (RFC 7386).
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
    /// `application/apply-patch+yaml` (server-side apply).
    Apply,
}

impl PatchType {
    /// The script word after the path (`type=json|merge|strategic|apply`).
    pub fn from_word(w: &str) -> Option<PatchType> {
        match w {
            "json" => Some(PatchType::Json),
            "merge" => Some(PatchType::Merge),
            "strategic" => Some(PatchType::Strategic),
            "apply" => Some(PatchType::Apply),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            PatchType::Json => "json",
            PatchType::Merge => "merge",
            PatchType::Strategic => "strategic",
            PatchType::Apply => "apply",
        }
    }
    pub fn content_type(self) -> &'static str {
        match self {
            PatchType::Json => "application/json-patch+json",
            PatchType::Merge => "application/merge-patch+json",
            PatchType::Strategic => "application/strategic-merge-patch+json",
            PatchType::Apply => "application/apply-patch+yaml",
        }
    }
    /// Whether a missing object is created (apply) or is a 404 (the others).
    pub fn creates(self) -> bool {
        self == PatchType::Apply
    }
}

/// The patch-specific part of `validation.ValidatePatchOptions`: apply needs a `fieldManager`,
/// `force` (given at all) only goes with apply. Any error makes the request a 422
/// `PatchOptions.meta.k8s.io "" is invalid: …` (with the manager and dryRun checks,
/// [`super::request`]).
pub fn patch_option_errors(ty: PatchType, field_manager: Option<&str>, force_given: bool) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if ty == PatchType::Apply {
        if field_manager.is_none_or(str::is_empty) {
            errs.push(FieldError::required("fieldManager", "is required for apply patch"));
        }
    } else if force_given {
        errs.push(FieldError::forbidden("force", "may not be specified for non-apply patch"));
    }
    errs
}

/// Why a patch could not be applied, as the status the handler answers.
#[derive(Debug, Clone, PartialEq)]
pub enum PatchError {
    /// 400 BadRequest with this message.
    BadRequest(String),
    /// 422 from `NewGenericServerResponse(422, …)`: the JSON patch failed to apply; the real
    /// message is lost and the client sees the generic one.
    JsonPatchApply,
    /// 500 with an empty reason: an error the handler does not map (`ErrorToAPIStatus`).
    NonApi(String),
    /// 409 from server-side apply: `(manager as printed, field path)` pairs, grouped by
    /// manager in the order of their identifiers (`printManager`: `"alice"`, or
    /// `"kubectl-edit" using v1` for an updater).
    ApplyConflict(Vec<(String, String)>),
}

impl PatchError {
    pub fn to_status(&self) -> Status {
        match self {
            PatchError::BadRequest(m) => Status::bad_request(m),
            PatchError::NonApi(m) => Status::non_api_error(m),
            PatchError::JsonPatchApply => Status::failure(
                422,
                "Invalid",
                "the server rejected our request due to an error in our request",
                Some(StatusDetails::default()),
            ),
            PatchError::ApplyConflict(c) => Status::failure(
                409,
                "Conflict",
                conflict_message(c),
                Some(StatusDetails {
                    causes: c
                        .iter()
                        .map(|(m, p)| StatusCause {
                            reason: "FieldManagerConflict".into(),
                            message: format!("conflict with {m}"),
                            field: p.clone(),
                        })
                        .collect(),
                    ..Default::default()
                }),
            ),
        }
    }
}

/// `getConflictMessage` (apimachinery `managedfields/internal/conflict.go`): one conflict
/// inline, several grouped by manager.
fn conflict_message(c: &[(String, String)]) -> String {
    if let [(m, p)] = c {
        return format!("Apply failed with 1 conflict: conflict with {m}: {p}");
    }
    let mut by: Vec<(&str, Vec<&str>)> = Vec::new();
    for (m, p) in c {
        match by.iter_mut().find(|(x, _)| x == m) {
            Some((_, ps)) => ps.push(p),
            None => by.push((m, vec![p])),
        }
    }
    let mut lines = Vec::new();
    for (m, ps) in by {
        lines.push(format!("conflicts with {m}:"));
        for p in ps {
            lines.push(format!("- {p}"));
        }
    }
    format!("Apply failed with {} conflicts: {}", c.len(), lines.join("\n"))
}

/// What a server-side apply needs besides the patch.
#[derive(Debug, Clone)]
pub struct ApplyOptions<'a> {
    pub field_manager: &'a str,
    pub force: bool,
    /// RFC 3339 time stamped on the manager's entry.
    pub now: &'a str,
}

/// Applies `patch` of type `ty` to `current` (the object as served) and returns the new
/// object. For apply, `current` is `None` when the object does not exist yet.
pub fn apply_patch(
    ty: PatchType,
    schema: Schema,
    current: Option<&Value>,
    patch: &Value,
    apply: Option<&ApplyOptions<'_>>,
) -> Result<Value, PatchError> {
    let empty = Value::Object(Map::new());
    let cur = current.unwrap_or(&empty);
    match ty {
        PatchType::Merge => {
            if patch.is_null() {
                return Err(PatchError::BadRequest("Invalid JSON Patch".into()));
            }
            Ok(merge_patch(cur, patch))
        }
        PatchType::Json => json_patch(cur, patch),
        PatchType::Strategic => {
            let Value::Object(_) = patch else {
                return Err(PatchError::BadRequest(format!(
                    "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                    json_kind(patch)
                )));
            };
            strategic(schema, cur, patch, &mut Vec::new())
        }
        PatchType::Apply => {
            let opts = apply.ok_or_else(|| PatchError::BadRequest("apply needs a field manager".into()))?;
            server_side_apply(schema, current, patch, opts)
        }
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

// ------------------------------------------------------------------------------------------
// RFC 7386 JSON merge patch
// ------------------------------------------------------------------------------------------

/// RFC 7386 `MergePatch(target, patch)`: objects merge recursively, `null` removes, anything
/// else replaces.
pub fn merge_patch(target: &Value, patch: &Value) -> Value {
    let Value::Object(p) = patch else {
        return patch.clone();
    };
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    for (k, v) in p {
        if v.is_null() {
            out.remove(k);
        } else {
            let merged = merge_patch(out.get(k).unwrap_or(&Value::Null), v);
            out.insert(k.clone(), merged);
        }
    }
    Value::Object(out)
}

// ------------------------------------------------------------------------------------------
// RFC 6902 JSON patch
// ------------------------------------------------------------------------------------------

/// The strict decoding `jsonPatcher.applyJSPatch` runs first under `fieldValidation` `Warn`
/// (the default: handlers `rest.go` `fieldValidation`) or `Strict`: a JSON patch is decoded
/// as `[]jsonPatchOp` (`op`, `path`, `from` strings), a merge patch as a
/// `map[string]interface{}`; a mismatch is 400 `error decoding patch: <the decoder's error>`
/// (apiserver `endpoints/handlers/patch.go` @ v1.36.0 `applyJSPatch`; the decoder is
/// sigs.k8s.io/json's `UnmarshalStrict`, whose `UnmarshalTypeError` reads as encoding/json's).
/// `null` decodes to nothing, as in Go. Other patch types: nothing to check here.
pub fn strict_decode(ty: PatchType, patch: &Value) -> Result<(), PatchError> {
    let bad = |m: String| Err(PatchError::BadRequest(format!("error decoding patch: {m}")));
    let value_of =
        |v: &Value, ty: &str| format!("json: cannot unmarshal {} into Go value of type {ty}", json_kind(v));
    match ty {
        PatchType::Json => {
            let ops = match patch {
                Value::Array(ops) => ops,
                Value::Null => return Ok(()),
                other => return bad(value_of(other, "[]handlers.jsonPatchOp")),
            };
            for op in ops {
                let fields = match op {
                    Value::Object(m) => m,
                    Value::Null => continue,
                    other => return bad(value_of(other, "handlers.jsonPatchOp")),
                };
                for (k, v) in fields {
                    if matches!(k.as_str(), "op" | "path" | "from")
                        && !matches!(v, Value::String(_) | Value::Null)
                    {
                        return bad(format!(
                            "json: cannot unmarshal {} into Go struct field jsonPatchOp.{k} of type string",
                            json_kind(v)
                        ));
                    }
                }
            }
            Ok(())
        }
        PatchType::Merge => match patch {
            Value::Object(_) | Value::Null => Ok(()),
            other => bad(value_of(other, "map[string]interface {}")),
        },
        PatchType::Strategic | PatchType::Apply => Ok(()),
    }
}

/// RFC 6902 as gopkg.in/evanphx/json-patch.v4 (v4.12.0, later v4.13.0, is what the apiserver
/// vendors; `patch.go` behaves alike in both for what is modelled here)
/// applies it: the patch must be an array of objects (else 400 with `DecodePatch`'s error);
/// an operation that cannot be applied fails the whole patch with 422.
pub fn json_patch(target: &Value, patch: &Value) -> Result<Value, PatchError> {
    let ops = match patch {
        Value::Array(ops) => ops,
        Value::Null => return Ok(target.clone()),
        other => {
            return Err(PatchError::BadRequest(format!(
                "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
                json_kind(other)
            )));
        }
    };
    if let Some(op) = ops.iter().find(|op| !matches!(op, Value::Object(_) | Value::Null)) {
        return Err(PatchError::BadRequest(format!(
            "json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
            json_kind(op)
        )));
    }
    let mut doc = target.clone();
    for op in ops {
        apply_op(&mut doc, op).ok_or(PatchError::JsonPatchApply)?;
    }
    Ok(doc)
}

/// json-patch v4 `findObject`: the path split on `/`, its first piece dropped (so `""` and a
/// path without `/` find nothing, and `a/b` is the document's `b`), the middle pieces walked,
/// the last one returned as the key (`~1` → `/`, `~0` → `~`).
fn find_object(path: &str) -> Option<(Vec<String>, String)> {
    let split: Vec<&str> = path.split('/').collect();
    let (last, rest) = split.split_last()?;
    let parts = rest.get(1..)?;
    let decode = |t: &str| t.replace("~1", "/").replace("~0", "~");
    Some((parts.iter().map(|t| decode(t)).collect(), decode(last)))
}

fn parent_mut<'a>(doc: &'a mut Value, toks: &[String]) -> Option<&'a mut Value> {
    let mut cur = doc;
    for t in toks {
        cur = match cur {
            Value::Object(m) => m.get_mut(t)?,
            Value::Array(a) => a.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
        if cur.is_null() {
            return None;
        }
    }
    Some(cur)
}

/// `container.get(key)`: an object's missing key is "nothing", not an error (`partialDoc.get`);
/// an array's index must be in range. `None` = error; `Some(None)` = no value there.
fn get_in(parent: &Value, key: &str) -> Option<Option<Value>> {
    match parent {
        Value::Object(m) => Some(m.get(key).cloned()),
        Value::Array(a) => a.get(key.parse::<usize>().ok()?).map(|v| Some(v.clone())),
        _ => None,
    }
}

fn remove_in(parent: &mut Value, key: &str) -> Option<Value> {
    match parent {
        Value::Object(m) => m.shift_remove(key),
        Value::Array(a) => {
            let i = key.parse::<usize>().ok()?;
            (i < a.len()).then(|| a.remove(i))
        }
        _ => None,
    }
}

fn add_in(parent: &mut Value, key: &str, v: Value) -> Option<()> {
    match parent {
        Value::Object(m) => {
            m.insert(key.to_string(), v);
        }
        Value::Array(a) => {
            if key == "-" {
                a.push(v);
            } else {
                let i = key.parse::<usize>().ok()?;
                if i > a.len() {
                    return None;
                }
                a.insert(i, v);
            }
        }
        _ => return None,
    }
    Some(())
}

/// One operation, as json-patch v4 `Patch.ApplyIndent` runs it. Where v4 departs from RFC 6902:
/// `replace` of an object's missing key sets it (`partialDoc.get` reports no error for it);
/// `test` of an object's missing key passes when `value` is `null`; an absent `value` is
/// `null` for `add`/`replace`. Not modelled: `test` of a missing key with no `value` at all,
/// where v4 dereferences a nil node (`op.value().raw`); here it fails as a failed test does.
fn apply_op(doc: &mut Value, op: &Value) -> Option<()> {
    let kind = op.get("op")?.as_str()?;
    let (parts, key) = find_object(op.get("path")?.as_str()?)?;
    let value = || op.get("value").cloned().unwrap_or(Value::Null);
    match kind {
        "add" => add_in(parent_mut(doc, &parts)?, &key, value()),
        "remove" => remove_in(parent_mut(doc, &parts)?, &key).map(|_| ()),
        "replace" => {
            let parent = parent_mut(doc, &parts)?;
            get_in(parent, &key)?;
            match parent {
                Value::Object(m) => {
                    m.insert(key, value());
                }
                Value::Array(a) => *a.get_mut(key.parse::<usize>().ok()?)? = value(),
                _ => return None,
            }
            Some(())
        }
        "move" => {
            let (from_parts, from_key) = find_object(op.get("from")?.as_str()?)?;
            let v = remove_in(parent_mut(doc, &from_parts)?, &from_key)?;
            add_in(parent_mut(doc, &parts)?, &key, v)
        }
        "copy" => {
            let (from_parts, from_key) = find_object(op.get("from")?.as_str()?)?;
            let v = get_in(parent_mut(doc, &from_parts)?, &from_key)??;
            add_in(parent_mut(doc, &parts)?, &key, v)
        }
        "test" => {
            let found = get_in(parent_mut(doc, &parts)?, &key)?;
            let want = op.get("value")?;
            match found {
                None => want.is_null().then_some(()),
                Some(v) => (&v == want).then_some(()),
            }
        }
        _ => None,
    }
}

// ------------------------------------------------------------------------------------------
// Strategic merge patch
// ------------------------------------------------------------------------------------------

const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList/";
const SET_ELEMENT_ORDER: &str = "$setElementOrder/";

/// The kind a schema's endpoint serves (both are core `v1`).
fn schema_kind(schema: Schema) -> &'static str {
    match schema {
        Schema::Pod => "Pod",
        Schema::ConfigMap => "ConfigMap",
    }
}

/// `Unstructured.GroupVersionKind()` of an apply body: `schema.FromAPIVersionAndKind`, whose
/// `ParseGroupVersion` takes `""` as empty, `v` as a version, `g/v` as both, and anything with
/// more slashes as an error that leaves the group and version empty. A non-string field reads
/// as `""` (`NestedString` fails).
fn body_gvk(config: &Value) -> (&str, &str, &str) {
    let s = |k: &str| config.get(k).and_then(Value::as_str).unwrap_or("");
    let api_version = s("apiVersion");
    let (group, version) = match api_version.split_once('/') {
        None => ("", api_version),
        Some((g, v)) if !v.contains('/') => (g, v),
        Some(_) => ("", ""),
    };
    (group, version, s("kind"))
}

/// `strategicpatch.StrategicMergePatch` for our schema: maps merge (null deletes; `$patch:
/// replace` replaces, `$patch: delete` empties; `$retainKeys` keeps only the listed keys),
/// keyed lists merge element by element (`$patch: delete` in an element removes it), scalar
/// sets take the union (`$deleteFromPrimitiveList/<f>` removes values), other lists replace.
fn strategic(
    schema: Schema,
    target: &Value,
    patch: &Value,
    path: &mut Vec<String>,
) -> Result<Value, PatchError> {
    let Value::Object(p) = patch else {
        return Ok(patch.clone());
    };
    match p.get("$patch").and_then(Value::as_str) {
        Some("replace") => {
            let mut m = p.clone();
            m.shift_remove("$patch");
            return Ok(Value::Object(m));
        }
        Some("delete") => return Ok(Value::Object(Map::new())),
        _ => {}
    }
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    if let Some(Value::Array(keep)) = p.get("$retainKeys") {
        let keep: BTreeSet<&str> = keep.iter().filter_map(Value::as_str).collect();
        out.retain(|k, _| keep.contains(k.as_str()));
    }
    // `mergePatchIntoOriginal`: each `$setElementOrder/<f>` merges list `f` first and orders it.
    let mut ordered: BTreeSet<&str> = BTreeSet::new();
    for (k, order) in p {
        let (Some(field), Value::Array(order)) = (k.strip_prefix(SET_ELEMENT_ORDER), order) else { continue };
        let orig = out.get(field).and_then(Value::as_array).cloned();
        let patch_list = p.get(field).and_then(Value::as_array);
        path.push(field.to_string());
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let kind = list_kind(schema, &refs);
        let key = match kind {
            ListKind::Keyed(key) => Some(key),
            _ => None,
        };
        if let Some(pl) = patch_list
            && let Err(e) = validate_set_element_order(pl, order, key)
        {
            path.pop();
            return Err(e);
        }
        let merged = match (&orig, patch_list) {
            (None, None) => {
                path.pop();
                continue;
            }
            (Some(o), None) => o.clone(),
            (None, Some(pl)) => pl.clone(),
            (Some(o), Some(pl)) => match merge_list(schema, kind, o.clone(), pl, path) {
                Ok(m) => m,
                Err(e) => {
                    path.pop();
                    return Err(e);
                }
            },
        };
        path.pop();
        let (mine, server_only) = partition(merged, order, key);
        let server_order = orig.unwrap_or_default();
        out.insert(
            field.to_string(),
            Value::Array(normalize_order(mine, server_only, order, &server_order, key)),
        );
        ordered.insert(field);
    }
    for (k, v) in p {
        if k == "$patch"
            || k == "$retainKeys"
            || k.starts_with(SET_ELEMENT_ORDER)
            || ordered.contains(k.as_str())
        {
            continue;
        }
        if let Some(field) = k.strip_prefix(DELETE_FROM_PRIMITIVE_LIST) {
            if let (Some(Value::Array(cur)), Value::Array(gone)) = (out.get_mut(field), v) {
                cur.retain(|x| !gone.contains(x));
            }
            continue;
        }
        if v.is_null() {
            out.shift_remove(k);
            continue;
        }
        path.push(k.clone());
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let merged = match (v, list_kind(schema, &refs)) {
            (Value::Array(items), kind @ (ListKind::Keyed(_) | ListKind::Set)) => {
                let cur = out.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
                merge_list(schema, kind, cur, items, path).map(Value::Array)
            }
            (Value::Object(_), _) => strategic(schema, out.get(k).unwrap_or(&Value::Null), v, path),
            _ => Ok(v.clone()),
        };
        path.pop();
        out.insert(k.clone(), merged?);
    }
    Ok(Value::Object(out))
}

/// Go's `%v` of a decoded JSON value (`fmt`): strings bare, maps as `map[k:v …]` with sorted
/// keys, lists as `[a b]`, `null` as `<nil>`; integers as the patch decoder keeps them
/// (`UnmarshalCaseSensitivePreserveInts`), other numbers in `%g`'s shortest form.
pub(crate) fn go_fmt_v(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                n.to_string()
            } else {
                go_fmt_float(n.as_f64().unwrap_or(0.0))
            }
        }
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_fmt_v).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().map(|k| format!("{k}:{}", go_fmt_v(&m[k.as_str()]))).collect();
            format!("map[{}]", parts.join(" "))
        }
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)` as `%v` prints it: the shortest digits, in exponent
/// form (`1e+06`, `1.5e-07`) when the exponent is below -4 or at least 21.
fn go_fmt_float(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `1.5e-7`.
    let e = format!("{f:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..21).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    let s = format!("{f}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// `validatePatchWithSetOrderList` (apimachinery `pkg/util/strategicpatch/patch.go`): the
/// patch list's items (deletions and other `$patch` items left out) must appear in the
/// `$setElementOrder` list in the same relative order, else the merge fails with a plain error
/// — which `interpretStrategicMergePatchError` passes on unmapped, so the handler answers 500.
fn validate_set_element_order(
    patch_list: &[Value],
    order: &[Value],
    key: Option<&str>,
) -> Result<(), PatchError> {
    if order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let no_merge_key = |m: &Value, k: &str| {
        PatchError::NonApi(format!("map: {} does not contain declared merge key: {k}", go_fmt_v(m)))
    };
    let non_delete: Vec<&Value> = match key {
        Some(_) => {
            patch_list.iter().filter(|i| i.get("$patch").and_then(Value::as_str) != Some("delete")).collect()
        }
        None => patch_list.iter().collect(),
    };
    let (mut pi, mut si) = (0, 0);
    while pi < non_delete.len() && si < order.len() {
        let item = non_delete[pi];
        if item.get("$patch").is_some() {
            pi += 1;
            continue;
        }
        let equal = match key {
            None => item == &order[si],
            Some(k) => {
                let l = item.get(k).ok_or_else(|| no_merge_key(item, k))?;
                let r = order[si].get(k).ok_or_else(|| no_merge_key(&order[si], k))?;
                l == r
            }
        };
        if equal {
            pi += 1;
        }
        si += 1;
    }
    if pi < non_delete.len() && si >= order.len() {
        return Err(PatchError::NonApi(format!(
            "The order in patch list:\n{}\n doesn't match $setElementOrder list:\n{}\n",
            go_fmt_v(&Value::Array(patch_list.to_vec())),
            go_fmt_v(&Value::Array(order.to_vec()))
        )));
    }
    Ok(())
}

/// `mergeSlice` for a list with `patchStrategy:"merge"`: keyed lists merge element by element,
/// scalar sets take the union; then the order is enforced ([`normalize_order`]): the items the
/// patch names in the patch's order, the server's other items where they stood among them.
fn merge_list(
    schema: Schema,
    kind: ListKind,
    cur: Vec<Value>,
    items: &[Value],
    path: &mut Vec<String>,
) -> Result<Vec<Value>, PatchError> {
    if cur.is_empty() && items.is_empty() {
        return Ok(cur);
    }
    match kind {
        ListKind::Keyed(key) => {
            let delete = |i: &Value| i.get("$patch").and_then(Value::as_str) == Some("delete");
            // `mergeSliceWithSpecialElements`: the deletions leave the original first.
            let original: Vec<Value> = cur
                .into_iter()
                .filter(|c| {
                    !items.iter().any(|i| delete(i) && i.get(key).is_some() && i.get(key) == c.get(key))
                })
                .collect();
            let patch: Vec<Value> = items.iter().filter(|i| !delete(i)).cloned().collect();
            let merged = merge_keyed(schema, original.clone(), &patch, key, path)?;
            let (mine, server_only) = partition(merged, &patch, Some(key));
            Ok(normalize_order(mine, server_only, &patch, &original, Some(key)))
        }
        ListKind::Set => {
            let mut merged = cur.clone();
            for x in items {
                if !merged.contains(x) {
                    merged.push(x.clone());
                }
            }
            let (mine, server_only) = partition(merged, items, None);
            Ok(normalize_order(mine, server_only, items, &cur, None))
        }
        ListKind::Atomic => Ok(items.to_vec()),
    }
}

/// Where `item` stands in `order`: by its merge key's value, or by value for scalars
/// (`strategicpatch.index`).
fn index_in(order: &[Value], item: &Value, key: Option<&str>) -> Option<usize> {
    match key {
        Some(k) => order.iter().position(|o| o.get(k) == item.get(k)),
        None => order.iter().position(|o| o == item),
    }
}

/// `partitionMapsByPresentInList` / `partitionPrimitivesByPresentInList`: the items `by` names,
/// and the others, each in `merged`'s order.
fn partition(merged: Vec<Value>, by: &[Value], key: Option<&str>) -> (Vec<Value>, Vec<Value>) {
    merged.into_iter().partition(|v| index_in(by, v, key).is_some())
}

/// `normalizeElementOrder`: `mine` sorted by `my_order`, `server_only` by `server_order`
/// (stable; an item missing from its order list stays where it is), then merged by
/// `mergeSortedSlice`: a server-only item goes first only when both it and the next patch item
/// stand in `server_order` and it stands before (apimachinery `pkg/util/strategicpatch/patch.go`).
fn normalize_order(
    mut mine: Vec<Value>,
    mut server_only: Vec<Value>,
    my_order: &[Value],
    server_order: &[Value],
    key: Option<&str>,
) -> Vec<Value> {
    let sort = |list: &mut Vec<Value>, order: &[Value]| {
        list.sort_by(|a, b| match (index_in(order, a, key), index_in(order, b, key)) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => std::cmp::Ordering::Equal,
        });
    };
    sort(&mut mine, my_order);
    sort(&mut server_only, server_order);
    let mut out = Vec::with_capacity(mine.len() + server_only.len());
    let (mut left, mut right) = (server_only.into_iter().peekable(), mine.into_iter().peekable());
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => {
                matches!((index_in(server_order, l, key), index_in(server_order, r, key)), (Some(li), Some(ri)) if li < ri)
            }
        };
        out.extend(if take_left { left.next() } else { right.next() });
    }
    out
}

fn merge_keyed(
    schema: Schema,
    mut cur: Vec<Value>,
    items: &[Value],
    key: &str,
    path: &mut Vec<String>,
) -> Result<Vec<Value>, PatchError> {
    for item in items {
        let id = item.get(key).cloned();
        let pos = id.as_ref().and_then(|id| cur.iter().position(|c| c.get(key) == Some(id)));
        let delete = item.get("$patch").and_then(Value::as_str) == Some("delete");
        match (pos, delete) {
            (Some(i), true) => {
                cur.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => {
                let merged = strategic(schema, &cur[i], item, path)?;
                cur[i] = merged;
            }
            (None, false) => cur.push(strategic(schema, &Value::Null, item, path)?),
        }
    }
    Ok(cur)
}

// ------------------------------------------------------------------------------------------
// Server-side apply
// ------------------------------------------------------------------------------------------

/// Server-side apply (`FieldManager.Apply`, structured-merge-diff `Updater.Apply`): the
/// applied config is merged into the live object; fields this manager applied before and no
/// longer applies are removed unless another manager owns them; then every other manager
/// (appliers and updaters alike) whose field the result adds or changes is a conflict — a 409
/// unless `force` moves the field to this manager; fields the result removes leave every set.
/// An object without managedFields first records its fields as `before-first-apply`
/// (`skipNonAppliedManager.Apply`). The manager's time moves only when the object changed.
fn server_side_apply(
    schema: Schema,
    current: Option<&Value>,
    config: &Value,
    opts: &ApplyOptions<'_>,
) -> Result<Value, PatchError> {
    let Value::Object(_) = config else {
        return Err(PatchError::BadRequest(format!(
            "error decoding YAML: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            json_kind(config)
        )));
    };
    // `versionCheckManager.Apply`, the outermost of the default field manager's layers
    // (apimachinery `pkg/util/managedfields/internal/versioncheck.go` @ v1.36.0): the body's
    // group, version and kind must be the endpoint's, else 400 `invalid object type: <gvk>`.
    // It runs before `structuredMergeManager.Apply`'s "Incorrect version specified in apply
    // patch" check, which therefore never answers for these resources.
    let gvk = body_gvk(config);
    if gvk != ("", "v1", schema_kind(schema)) {
        let (group, version, kind) = gvk;
        return Err(PatchError::BadRequest(format!("invalid object type: {group}/{version}, Kind={kind}")));
    }
    if config.get("metadata").and_then(|m| m.get("managedFields")).is_some_and(|v| !v.is_null()) {
        return Err(PatchError::BadRequest("metadata.managedFields must be nil".into()));
    }
    // A missing object is created from the type's empty object (`createNewObject`): compared
    // as that, merged into as nothing.
    let live = current.cloned().unwrap_or_else(|| fm::empty_object(schema));
    let live_clean = fm::without_managed_fields(&live);
    let base = if current.is_some() { live_clean.clone() } else { Value::Object(Map::new()) };
    let mut managed = fm::Managed::of(&live);
    if managed.is_empty() {
        managed = fm::update_managers(
            schema,
            &fm::empty_object(schema),
            &live_clean,
            managed,
            fm::BEFORE_FIRST_APPLY,
            opts.now,
        );
    }
    let mut applied = fm::to_field_set(schema, config);
    if schema == Schema::Pod {
        applied.retain(|p| !matches!(p.first(), Some(fm::Pe::Field(f)) if f == "status"));
    }
    let me = fm::Entry {
        manager: opts.field_manager.to_string(),
        operation: fm::Operation::Apply,
        api_version: "v1".into(),
        time: None,
        subresource: String::new(),
        set: applied.clone(),
    };
    let my_id = me.identifier();
    let previous = managed.0.iter().find(|e| e.identifier() == my_id).cloned();
    let mut others: Vec<fm::Entry> = managed.0.into_iter().filter(|e| e.identifier() != my_id).collect();
    // Merge the config into the live object, then prune what this manager let go of.
    let mut out = strategic(schema, &base, config, &mut Vec::new())?;
    if let Some(prev) = &previous {
        let owned: BTreeSet<&fm::FieldPath> =
            others.iter().flat_map(|e| e.set.iter()).chain(applied.iter()).collect();
        for p in prev.set.difference(&applied) {
            if !owned.iter().any(|o| o.starts_with(p)) {
                fm::remove_at(&mut out, p);
            }
        }
    }
    // `Updater.update(live, merged, …, force)`.
    let cmp = fm::compare(schema, &live_clean, &out);
    let mut conflicts: Vec<(String, String, String)> = Vec::new();
    for e in &others {
        for p in e.set.iter().filter(|p| cmp.modified.contains(*p) || cmp.added.contains(*p)) {
            if schema == Schema::Pod && matches!(p.first(), Some(fm::Pe::Field(f)) if f == "status") {
                continue;
            }
            conflicts.push((e.identifier(), e.printed(), fm::path_string(p)));
        }
    }
    if !conflicts.is_empty() && !opts.force {
        conflicts.sort();
        return Err(PatchError::ApplyConflict(conflicts.into_iter().map(|(_, m, p)| (m, p)).collect()));
    }
    for e in &mut others {
        e.set.retain(|p| !cmp.modified.contains(p) && !cmp.added.contains(p) && !cmp.removed.contains(p));
    }
    others.retain(|e| !e.set.is_empty());
    let changed = out != base;
    let time = if changed { Some(opts.now.to_string()) } else { previous.and_then(|p| p.time) };
    let mut managed = fm::Managed(others);
    if !applied.is_empty() {
        managed.0.push(fm::Entry { time, ..me });
    }
    managed.encode_into(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cm(data: Value) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "default"}, "data": data})
    }

    /// RFC 7386 §3 examples.
    #[test]
    fn merge_patch_follows_rfc_7386() {
        let t = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        let p = json!({"a": "z", "c": {"f": null}});
        assert_eq!(merge_patch(&t, &p), json!({"a": "z", "c": {"d": "e"}}));
        assert_eq!(merge_patch(&json!({"a": ["b"]}), &json!({"a": "c"})), json!({"a": "c"}));
        assert_eq!(
            merge_patch(&json!({"a": "b"}), &json!({"a": {"bb": {"ccc": null}}})),
            json!({"a": {"bb": {}}})
        );
        assert_eq!(
            apply_patch(PatchType::Merge, Schema::ConfigMap, Some(&t), &Value::Null, None),
            Err(PatchError::BadRequest("Invalid JSON Patch".into())),
            "evanphx/json-patch MergePatch: a null patch is ErrBadJSONPatch"
        );
    }

    /// RFC 6902 operations; a failing op fails the patch with the generic 422 of
    /// `NewGenericServerResponse` (endpoints/handlers/patch.go `applyJSPatch`).
    #[test]
    fn json_patch_follows_rfc_6902() {
        let t = cm(json!({"a": "1", "b": "2"}));
        let p = json!([
            {"op": "test", "path": "/data/a", "value": "1"},
            {"op": "replace", "path": "/data/a", "value": "x"},
            {"op": "remove", "path": "/data/b"},
            {"op": "add", "path": "/data/c~1d", "value": "3"},
            {"op": "copy", "from": "/data/a", "path": "/data/e"},
            {"op": "move", "from": "/data/e", "path": "/data/f"}
        ]);
        let out = json_patch(&t, &p).unwrap();
        assert_eq!(out["data"], json!({"a": "x", "c/d": "3", "f": "x"}));
        let bad = json!([{"op": "test", "path": "/data/a", "value": "nope"}]);
        let e = json_patch(&t, &bad).unwrap_err();
        assert_eq!(e, PatchError::JsonPatchApply);
        let s = e.to_status().to_json();
        assert_eq!(s["code"], 422);
        assert_eq!(s["reason"], "Invalid");
        assert_eq!(s["message"], "the server rejected our request due to an error in our request");
        assert_eq!(s["details"], json!({}));
        assert_eq!(
            json_patch(&t, &json!({"op": "add"})).unwrap_err(),
            PatchError::BadRequest(
                "json: cannot unmarshal object into Go value of type jsonpatch.Patch".into()
            )
        );
        assert!(json_patch(&t, &json!([{"op": "remove", "path": "/data/zz"}])).is_err());
        assert!(json_patch(&t, &json!([{"op": "bogus", "path": "/data/a"}])).is_err());
    }

    /// Strategic merge patch with the Pod's merge keys (`k8s.io/api/core/v1/types.go`:
    /// `Containers … patchStrategy:"merge" patchMergeKey:"name"`, `Ports …
    /// patchMergeKey:"containerPort"`, `Env … patchMergeKey:"name"`; ObjectMeta
    /// `Finalizers … patchStrategy:"merge"`).
    #[test]
    fn strategic_merge_patch_merges_lists_by_key() {
        let pod = json!({"metadata": {"name": "p", "finalizers": ["a"]}, "spec": {"containers": [
            {"name": "c1", "image": "i1", "env": [{"name": "X", "value": "1"}]},
            {"name": "c2", "image": "i2"}
        ], "tolerations": [{"key": "t1"}]}});
        let patch = json!({"metadata": {"finalizers": ["b"]}, "spec": {"containers": [
            {"name": "c1", "image": "j1", "env": [{"name": "Y", "value": "2"}]},
            {"name": "c2", "$patch": "delete"},
            {"name": "c3", "image": "i3"}
        ], "tolerations": [{"key": "t2"}]}});
        let out = apply_patch(PatchType::Strategic, Schema::Pod, Some(&pod), &patch, None).unwrap();
        // Without `$setElementOrder`, `mergeSlice` puts the patch's items first unless the server
        // order places a server-only item before them (`mergeSortedSlice`): a new item is not in
        // the server's order, so it goes before the server-only ones.
        assert_eq!(
            out["spec"]["containers"],
            json!([
                {"name": "c1", "image": "j1", "env": [{"name": "Y", "value": "2"}, {"name": "X", "value": "1"}]},
                {"name": "c3", "image": "i3"}
            ])
        );
        assert_eq!(out["spec"]["tolerations"], json!([{"key": "t2"}]), "no patchStrategy: replaced");
        assert_eq!(out["metadata"]["finalizers"], json!(["b", "a"]));
        let out = apply_patch(
            PatchType::Strategic,
            Schema::Pod,
            Some(&out),
            &json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["a"]}, "spec": {"$patch": "replace", "containers": []}}),
            None,
        )
        .unwrap();
        assert_eq!(out["metadata"]["finalizers"], json!(["b"]));
        assert_eq!(out["spec"], json!({"containers": []}));
        // A ConfigMap's data is a map: strategic and merge patch agree.
        let c = cm(json!({"a": "1", "b": "2"}));
        let p = json!({"data": {"a": null, "c": "3"}});
        assert_eq!(
            apply_patch(PatchType::Strategic, Schema::ConfigMap, Some(&c), &p, None).unwrap(),
            merge_patch(&c, &p)
        );
    }

    /// `$setElementOrder/<list>` and the order `mergeSlice` enforces (apimachinery
    /// `pkg/util/strategicpatch/patch.go` `mergePatchIntoOriginal`, `mergeSlice`,
    /// `normalizeElementOrder`, `mergeSortedSlice`; the scalar case is `patch_test.go`'s "merge
    /// lists of scalars": current [1,2,4] + `{$setElementOrder: [1,2,3], list: [3]}` → [1,2,3,4]).
    #[test]
    fn strategic_merge_patch_orders_lists_as_upstream() {
        let smp = |cur: &Value, p: Value| {
            apply_patch(PatchType::Strategic, Schema::Pod, Some(cur), &p, None).unwrap()
        };
        let names = |v: &Value| -> Vec<String> {
            v["spec"]["containers"].as_array().map_or(Vec::new(), |a| {
                a.iter().map(|c| c["name"].as_str().unwrap_or("").to_string()).collect()
            })
        };
        let pod = json!({"metadata": {"name": "p", "finalizers": ["1", "2", "4"]}, "spec": {"containers": [
            {"name": "a", "image": "i"}, {"name": "b", "image": "i"}, {"name": "c", "image": "i"}
        ]}});
        // The scalar case of patch_test.go.
        let out = smp(
            &pod,
            json!({"metadata": {"$setElementOrder/finalizers": ["1", "2", "3"], "finalizers": ["3"]}}),
        );
        assert_eq!(out["metadata"]["finalizers"], json!(["1", "2", "3", "4"]));
        // The directive alone reorders; a server-only item keeps its place relative to the rest.
        let out = smp(
            &pod,
            json!({"spec": {"$setElementOrder/containers": [{"name": "c"}, {"name": "a"}, {"name": "b"}],
                            "containers": [{"name": "a", "image": "j"}]}}),
        );
        assert_eq!(names(&out), ["c", "a", "b"]);
        assert_eq!(out["spec"]["containers"][1], json!({"name": "a", "image": "j"}));
        let out = smp(
            &pod,
            json!({"spec": {"$setElementOrder/containers": [{"name": "c"}, {"name": "a"}],
                            "containers": [{"name": "c", "image": "z"}]}}),
        );
        assert_eq!(names(&out), ["b", "c", "a"], "b stood before c on the server");
        // A list the patch does not carry is only reordered; the directive never reaches the object.
        let out = smp(
            &pod,
            json!({"spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "c"}, {"name": "a"}]}}),
        );
        assert_eq!(names(&out), ["b", "c", "a"]);
        assert!(!out.to_string().contains("setElementOrder"), "{out}");
        // Without the directive: patch items in the patch's order, server-only items by the server's.
        let out = smp(
            &pod,
            json!({"spec": {"containers": [{"name": "c", "image": "x"}, {"name": "a", "image": "y"}]}}),
        );
        assert_eq!(names(&out), ["b", "c", "a"]);
    }

    #[test]
    fn patch_options_are_validated() {
        let s = Status::invalid_options("PatchOptions", &patch_option_errors(PatchType::Apply, None, false))
            .to_json();
        assert_eq!(s["code"], 422);
        assert_eq!(
            s["message"],
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
        );
        assert_eq!(s["details"]["group"], "meta.k8s.io");
        assert_eq!(s["details"]["kind"], "PatchOptions");
        let s = Status::invalid_options("PatchOptions", &patch_option_errors(PatchType::Merge, None, true))
            .to_json();
        assert_eq!(
            s["message"],
            "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
        );
        assert!(patch_option_errors(PatchType::Apply, Some("m"), true).is_empty());
    }

    /// Server-side apply: managers, conflicts (the field manager's `NewConflictError` and
    /// `getConflictMessage`), force, and removal of fields a manager stops applying.
    #[test]
    fn server_side_apply_tracks_managers_and_conflicts() {
        let opts = |m: &'static str, force: bool| ApplyOptions {
            field_manager: m,
            force,
            now: "2026-01-01T00:00:00Z",
        };
        let a = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            None,
            &cm(json!({"x": "1", "y": "1"})),
            Some(&opts("alice", false)),
        )
        .unwrap();
        assert_eq!(a["data"], json!({"x": "1", "y": "1"}));
        assert_eq!(
            a["metadata"]["managedFields"],
            json!([{"manager": "alice", "operation": "Apply", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
                     "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:x": {}, "f:y": {}}}}])
        );
        // Same value: shared ownership, no conflict.
        let b = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            Some(&a),
            &cm(json!({"x": "1"})),
            Some(&opts("bob", false)),
        )
        .unwrap();
        assert_eq!(b["metadata"]["managedFields"].as_array().map(Vec::len), Some(2));
        // A different value for a field alice owns: 409.
        let e = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            Some(&b),
            &cm(json!({"x": "2", "y": "2"})),
            Some(&opts("bob", false)),
        )
        .unwrap_err();
        let s = e.to_status().to_json();
        assert_eq!(s["code"], 409);
        assert_eq!(s["reason"], "Conflict");
        assert_eq!(
            s["message"],
            "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .data.x\n- .data.y"
        );
        assert_eq!(
            s["details"]["causes"][0],
            json!({"reason": "FieldManagerConflict", "message": "conflict with \"alice\"", "field": ".data.x"})
        );
        let one = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            Some(&b),
            &cm(json!({"y": "2"})),
            Some(&opts("bob", false)),
        )
        .unwrap_err();
        assert_eq!(
            one.to_status().message(),
            "Apply failed with 1 conflict: conflict with \"alice\": .data.y"
        );
        // force: bob takes y; alice keeps x.
        let c = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            Some(&b),
            &cm(json!({"x": "1", "y": "2"})),
            Some(&opts("bob", true)),
        )
        .unwrap();
        assert_eq!(c["data"], json!({"x": "1", "y": "2"}));
        assert_eq!(c["metadata"]["managedFields"][0]["fieldsV1"], json!({"f:data": {"f:x": {}}}));
        // alice stops applying x: bob still owns it, so it stays; bob stops too: it goes.
        let d = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            Some(&c),
            &cm(json!({})),
            Some(&opts("alice", false)),
        )
        .unwrap();
        assert_eq!(d["data"], json!({"x": "1", "y": "2"}));
        let e = apply_patch(
            PatchType::Apply,
            Schema::ConfigMap,
            Some(&d),
            &cm(json!({"y": "2"})),
            Some(&opts("bob", false)),
        )
        .unwrap();
        assert_eq!(e["data"], json!({"y": "2"}));
        // The version check of FieldManager.Apply (`versionCheckManager`).
        let bad = json!({"kind": "ConfigMap", "metadata": {"name": "a"}});
        assert_eq!(
            apply_patch(PatchType::Apply, Schema::ConfigMap, None, &bad, Some(&opts("m", false))),
            Err(PatchError::BadRequest("invalid object type: /, Kind=ConfigMap".into()))
        );
    }

    #[test]
    fn apply_paths_print_like_structured_merge_diff() {
        let pod =
            json!({"spec": {"containers": [{"name": "c", "image": "i"}]}, "metadata": {"finalizers": ["f"]}});
        let set: Vec<String> =
            fm::to_field_set(Schema::Pod, &pod).iter().map(|p| fm::path_string(p)).collect();
        assert_eq!(
            set,
            vec![
                ".metadata.finalizers[=\"f\"]",
                ".spec.containers[name=\"c\"]",
                ".spec.containers[name=\"c\"].image",
                ".spec.containers[name=\"c\"].name"
            ]
        );
        let v1 = fm::fields_v1(&fm::to_field_set(Schema::Pod, &pod));
        assert_eq!(
            v1,
            json!({"f:metadata": {"f:finalizers": {"v:\"f\"": {}}},
                   "f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {".": {}, "f:image": {}, "f:name": {}}}}})
        );
        assert_eq!(fm::parse_fields_v1(&v1), Some(fm::to_field_set(Schema::Pod, &pod)));
    }
}
