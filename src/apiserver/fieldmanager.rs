//! `metadata.managedFields`: which manager owns which fields of an object, as the apiserver's
//! field manager records them on every create, update and patch.
//!
//! Upstream: apimachinery `pkg/util/managedfields/internal` (`fieldmanager.go` `Update` and
//! `decodeLiveOrNew`, `skipnonapplied.go`, `capmanagers.go`, `buildmanagerinfo.go`,
//! `managedfieldsupdater.go`, `stripmeta.go`, `structuredmerge.go`, `managedfields.go`,
//! `conflict.go`), structured-merge-diff `fieldpath` (sets, `PathElement` order, the FieldsV1
//! encoding), `typed/compare.go` (`Compare`) and `merge/update.go` (`Updater.Update`,
//! `Updater.update`), and apiserver `endpoints/handlers/create.go` (`managerOrUserAgent`,
//! `prefixFromUserAgent`).
//!
//! A non-apply write ([`update`]) compares the live object with the new one: the fields it
//! added or changed leave every other manager's set and join the writer's `operation: Update`
//! entry (merged with that manager's earlier entry of the same apiVersion, its `time` moved);
//! fields it removed leave every set; an entry left empty is dropped; more than ten `Update`
//! entries merge their oldest into `ancient-changes`. An object that has no managedFields after
//! its create is not tracked again until it is applied to (`skipNonAppliedManager`); the first
//! apply then records its existing fields as `before-first-apply`. Server-side apply itself is
//! in [`super::patch`]; it uses this module's sets, comparison and encoding.
//!
//! The objects compared are the ones rvlab stores (no defaulting: fields the real apiserver
//! defaults, such as a container's `imagePullPolicy` or `resources: {}`, are not in the sets
//! unless the client sent them).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::go::json::encode_string;
use super::go::strconv::go_quote;
use super::merge_schema::{ListKind, Schema, list_kind};

/// The User-Agent of the requests a script sends (`rvlab/<version>`); a write without
/// `fieldManager` is recorded under its prefix, `rvlab`, as a real apiserver records
/// `curl` or `kubectl` (handlers `create.go` `managerOrUserAgent`).
pub const SCRIPT_USER_AGENT: &str = concat!("rvlab/", env!("CARGO_PKG_VERSION"));

/// `validation.FieldManagerMaxLength`.
pub const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// The manager that cap merges the oldest `Update` entries into (`capmanagers.go`).
pub const ANCIENT_CHANGES: &str = "ancient-changes";
/// The manager the first apply to an untracked object records its fields under
/// (`skipnonapplied.go`).
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";
/// `DefaultMaxUpdateManagers` (`fieldmanager.go`).
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// `managerOrUserAgent` (apiserver `endpoints/handlers/create.go`): the `fieldManager` query
/// parameter, else the User-Agent before its first `/`, unprintable characters dropped, cut
/// at 128 bytes.
pub fn manager_or_user_agent(field_manager: Option<&str>, user_agent: &str) -> String {
    match field_manager {
        Some(m) if !m.is_empty() => m.to_string(),
        _ => prefix_from_user_agent(user_agent),
    }
}

/// `prefixFromUserAgent` (handlers `create.go`).
pub fn prefix_from_user_agent(ua: &str) -> String {
    let head = ua.split('/').next().unwrap_or("");
    let mut out = String::new();
    for c in head.chars() {
        if !is_go_print(c) {
            continue;
        }
        if out.len() + c.len_utf8() > FIELD_MANAGER_MAX_LENGTH {
            break;
        }
        out.push(c);
    }
    out
}

/// Go's `unicode.IsPrint` for the characters a header can carry: letters, marks, numbers,
/// punctuation, symbols and the ASCII space (approximated with Rust's classes: control and
/// other whitespace characters are not printable).
pub(crate) fn is_go_print(c: char) -> bool {
    c == ' '
        || !(c.is_control() || c.is_whitespace() || ('\u{200B}'..='\u{200F}').contains(&c) || c == '\u{FEFF}')
}

// ------------------------------------------------------------------------------------------
// Field paths and sets (structured-merge-diff `fieldpath`)
// ------------------------------------------------------------------------------------------

/// One path element (`fieldpath.PathElement`).
#[derive(Debug, Clone)]
pub enum Pe {
    /// A field of a map or struct: `f:name`.
    Field(String),
    /// An element of a list keyed by a field: `k:{"name":"c"}`.
    Key(String, Value),
    /// An element of a set of scalars: `v:"x"`.
    Val(Value),
}

/// `value.Compare` for the scalars path elements hold: numbers < strings < booleans < the
/// rest, numbers numerically, strings byte-wise.
fn value_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => x.as_f64().unwrap_or(0.0).total_cmp(&y.as_f64().unwrap_or(0.0)),
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(_) | Value::Object(_), Value::Array(_) | Value::Object(_)) if rank(a) == rank(b) => {
            a.to_string().cmp(&b.to_string())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

impl Ord for Pe {
    /// `PathElement.Compare`: field names first, then keys, then values.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Pe::Field(a), Pe::Field(b)) => a.cmp(b),
            (Pe::Field(_), _) => Ordering::Less,
            (_, Pe::Field(_)) => Ordering::Greater,
            (Pe::Key(ka, va), Pe::Key(kb, vb)) => ka.cmp(kb).then_with(|| value_cmp(va, vb)),
            (Pe::Key(..), _) => Ordering::Less,
            (_, Pe::Key(..)) => Ordering::Greater,
            (Pe::Val(a), Pe::Val(b)) => value_cmp(a, b),
        }
    }
}

impl PartialOrd for Pe {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Pe {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Pe {}

impl Pe {
    /// The FieldsV1 key: `f:data`, `k:{"name":"c"}`, `v:"x"`.
    fn fields_v1_key(&self) -> String {
        match self {
            Pe::Field(f) => format!("f:{f}"),
            Pe::Key(k, v) => format!("k:{{{}:{v}}}", encode_string(k)),
            Pe::Val(v) => format!("v:{v}"),
        }
    }
}

/// A path from the object's root.
pub type FieldPath = Vec<Pe>;
/// A set of paths (`fieldpath.Set`).
pub type FieldSet = BTreeSet<FieldPath>;

/// `fieldpath.Path.String()`: `.data.a`, `.spec.containers[name="c"].image`,
/// `.metadata.finalizers[="x"]`.
pub fn path_string(p: &[Pe]) -> String {
    let mut s = String::new();
    for e in p {
        match e {
            Pe::Field(f) => {
                s.push('.');
                s.push_str(f);
            }
            Pe::Key(k, v) => s.push_str(&format!("[{k}={v}]")),
            Pe::Val(v) => s.push_str(&format!("[={v}]")),
        }
    }
    s
}

/// Paths a manager never owns (`stripmeta.go`).
const STRIPPED: &[&[&str]] = &[
    &["apiVersion"],
    &["kind"],
    &["metadata"],
    &["metadata", "name"],
    &["metadata", "namespace"],
    &["metadata", "creationTimestamp"],
    &["metadata", "selfLink"],
    &["metadata", "uid"],
    &["metadata", "clusterName"],
    &["metadata", "generation"],
    &["metadata", "managedFields"],
    &["metadata", "resourceVersion"],
];

fn is_stripped(p: &[Pe]) -> bool {
    STRIPPED
        .iter()
        .any(|s| s.len() == p.len() && s.iter().zip(p).all(|(a, b)| matches!(b, Pe::Field(f) if f == a)))
}

/// `stripMetaManager.stripFields`: the set without the stripped paths (exact paths only).
fn strip_meta(set: &mut FieldSet) {
    set.retain(|p| !is_stripped(p));
}

/// The reset fields of the main resource (`GetResetFields`, the updater's `IgnoreFilter`):
/// a Pod's `status` and everything below it (`pkg/registry/core/pod/strategy.go`).
fn ignore_filter(schema: Schema, set: &mut FieldSet) {
    if schema == Schema::Pod {
        set.retain(|p| !matches!(p.first(), Some(Pe::Field(f)) if f == "status"));
    }
}

/// The path element of a list item, or `None` when it has no usable key.
fn list_item_pe(kind: ListKind, item: &Value) -> Option<Pe> {
    match kind {
        ListKind::Keyed(key) => item.get(key).map(|v| Pe::Key(key.to_string(), v.clone())),
        ListKind::Set => Some(Pe::Val(item.clone())),
        ListKind::Atomic => None,
    }
}

/// `TypedValue.ToFieldSet` of an applied configuration: every leaf field and every list item
/// it mentions, without the stripped metadata.
pub fn to_field_set(schema: Schema, v: &Value) -> FieldSet {
    fn walk(schema: Schema, v: &Value, path: &mut FieldPath, names: &mut Vec<String>, out: &mut FieldSet) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                for (k, c) in m {
                    path.push(Pe::Field(k.clone()));
                    names.push(k.clone());
                    walk(schema, c, path, names, out);
                    names.pop();
                    path.pop();
                }
            }
            Value::Array(items) => {
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                let kind = list_kind(schema, &refs);
                if kind == ListKind::Atomic {
                    out.insert(path.clone());
                    return;
                }
                for it in items {
                    let Some(pe) = list_item_pe(kind, it) else { continue };
                    path.push(pe);
                    out.insert(path.clone());
                    if matches!(kind, ListKind::Keyed(_)) {
                        walk(schema, it, path, names, out);
                    }
                    path.pop();
                }
            }
            _ => {
                out.insert(path.clone());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(schema, v, &mut Vec::new(), &mut Vec::new(), &mut out);
    strip_meta(&mut out);
    out
}

/// The value at a path, if present.
pub fn value_at<'a>(v: &'a Value, p: &[Pe]) -> Option<&'a Value> {
    let mut cur = v;
    for e in p {
        cur = match e {
            Pe::Field(f) => cur.get(f)?,
            Pe::Key(k, id) => cur.as_array()?.iter().find(|it| it.get(k) == Some(id))?,
            Pe::Val(x) => cur.as_array()?.iter().find(|it| *it == x)?,
        };
    }
    Some(cur)
}

/// Removes the value at a path (a keyed element or set value from its list).
pub fn remove_at(v: &mut Value, p: &[Pe]) {
    let Some((last, parent)) = p.split_last() else {
        return;
    };
    let mut cur = v;
    for e in parent {
        let next = match e {
            Pe::Field(f) => cur.get_mut(f),
            Pe::Key(k, id) => cur.as_array_mut().and_then(|a| a.iter_mut().find(|it| it.get(k) == Some(id))),
            Pe::Val(_) => None,
        };
        let Some(n) = next else {
            return;
        };
        cur = n;
    }
    match last {
        Pe::Field(f) => {
            if let Some(m) = cur.as_object_mut() {
                m.shift_remove(f);
            }
        }
        Pe::Key(k, id) => {
            if let Some(a) = cur.as_array_mut() {
                a.retain(|it| it.get(k) != Some(id));
            }
        }
        Pe::Val(x) => {
            if let Some(a) = cur.as_array_mut() {
                a.retain(|it| it != x);
            }
        }
    }
}

/// `Set.ToJSON` (FieldsV1): `{"f:data":{".":{},"f:a":{}}}` — a path in the set that has
/// children carries `".":{}` first; keys in `PathElement` order.
pub fn fields_v1(set: &FieldSet) -> Value {
    #[derive(Default)]
    struct Node {
        member: bool,
        children: BTreeMap<Pe, Node>,
    }
    fn emit(n: &Node, out: &mut Map<String, Value>) {
        if n.member && !n.children.is_empty() {
            out.insert(".".into(), json!({}));
        }
        for (pe, c) in &n.children {
            let mut m = Map::new();
            emit(c, &mut m);
            out.insert(pe.fields_v1_key(), Value::Object(m));
        }
    }
    let mut root = Node::default();
    for p in set {
        let mut n = &mut root;
        for pe in p {
            n = n.children.entry(pe.clone()).or_default();
        }
        n.member = true;
    }
    let mut out = Map::new();
    emit(&root, &mut out);
    Value::Object(out)
}

/// `Set.FromJSON` (FieldsV1) back into paths; `None` when it is not a FieldsV1 document.
pub fn parse_fields_v1(v: &Value) -> Option<FieldSet> {
    fn walk(v: &Value, prefix: &mut FieldPath, out: &mut FieldSet) -> Option<()> {
        let m = v.as_object()?;
        if (m.is_empty() || m.contains_key(".")) && !prefix.is_empty() {
            out.insert(prefix.clone());
        }
        for (k, c) in m {
            if k == "." {
                continue;
            }
            let pe = if let Some(f) = k.strip_prefix("f:") {
                Pe::Field(f.to_string())
            } else if let Some(kv) = k.strip_prefix("k:") {
                let Ok(Value::Object(o)) = serde_json::from_str::<Value>(kv) else { return None };
                let (key, id) = o.into_iter().next()?;
                Pe::Key(key, id)
            } else if let Some(x) = k.strip_prefix("v:") {
                Pe::Val(serde_json::from_str(x).ok()?)
            } else {
                return None;
            };
            prefix.push(pe);
            walk(c, prefix, out)?;
            prefix.pop();
        }
        Some(())
    }
    let mut out = BTreeSet::new();
    walk(v, &mut Vec::new(), &mut out)?;
    Some(out)
}

// ------------------------------------------------------------------------------------------
// Comparison (structured-merge-diff `typed/compare.go`)
// ------------------------------------------------------------------------------------------

/// `typed.Comparison`: the fields the new object removed, changed and added.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub removed: FieldSet,
    pub modified: FieldSet,
    pub added: FieldSet,
}

impl Comparison {
    /// `Comparison.FilterFields` with the updater's ignore filter.
    fn filter(mut self, schema: Schema) -> Comparison {
        ignore_filter(schema, &mut self.removed);
        ignore_filter(schema, &mut self.modified);
        ignore_filter(schema, &mut self.added);
        self
    }
}

/// `TypedValue.Compare(lhs, rhs)`: leaves (scalars, atomic lists, and maps or lists empty on
/// both sides) are added, removed or modified; a map, list or list item present on one side
/// only is added or removed too. A `null` is a present value.
pub fn compare(schema: Schema, lhs: &Value, rhs: &Value) -> Comparison {
    let mut c = Comparison::default();
    cmp_walk(schema, Some(lhs), Some(rhs), &mut Vec::new(), &mut Vec::new(), &mut c);
    c
}

fn cmp_leaf(l: Option<&Value>, r: Option<&Value>, path: &FieldPath, c: &mut Comparison) {
    if path.is_empty() {
        return;
    }
    match (l, r) {
        (None, _) => {
            c.added.insert(path.clone());
        }
        (_, None) => {
            c.removed.insert(path.clone());
        }
        (Some(a), Some(b)) if a != b => {
            c.modified.insert(path.clone());
        }
        _ => {}
    }
}

fn cmp_walk(
    schema: Schema,
    l: Option<&Value>,
    r: Option<&Value>,
    path: &mut FieldPath,
    names: &mut Vec<String>,
    c: &mut Comparison,
) {
    let is = |v: Option<&Value>, f: fn(&Value) -> bool| v.is_some_and(f);
    let is_obj = |v: &Value| v.is_object();
    let is_arr = |v: &Value| v.is_array();
    let null_or_none = |v: Option<&Value>| v.is_none_or(Value::is_null);
    if (is(l, is_obj) || null_or_none(l))
        && (is(r, is_obj) || null_or_none(r))
        && (is(l, is_obj) || is(r, is_obj))
    {
        let lm = l.and_then(Value::as_object);
        let rm = r.and_then(Value::as_object);
        if lm.is_none_or(Map::is_empty) && rm.is_none_or(Map::is_empty) {
            cmp_leaf(l, r, path, c);
            return;
        }
        let mut keys: Vec<&String> = lm.map(|m| m.keys().collect()).unwrap_or_default();
        for k in rm.map(|m| m.keys().collect::<Vec<_>>()).unwrap_or_default() {
            if lm.is_none_or(|m| !m.contains_key(k)) {
                keys.push(k);
            }
        }
        for k in keys {
            path.push(Pe::Field(k.clone()));
            names.push(k.clone());
            cmp_walk(schema, lm.and_then(|m| m.get(k)), rm.and_then(|m| m.get(k)), path, names, c);
            names.pop();
            path.pop();
        }
    } else if (is(l, is_arr) || null_or_none(l))
        && (is(r, is_arr) || null_or_none(r))
        && (is(l, is_arr) || is(r, is_arr))
    {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let kind = list_kind(schema, &refs);
        let la = l.and_then(Value::as_array);
        let ra = r.and_then(Value::as_array);
        if kind == ListKind::Atomic || (la.is_none_or(Vec::is_empty) && ra.is_none_or(Vec::is_empty)) {
            cmp_leaf(l, r, path, c);
            return;
        }
        let index = |a: Option<&Vec<Value>>| -> Vec<(Pe, Value)> {
            let mut out: Vec<(Pe, Value)> = Vec::new();
            for it in a.into_iter().flatten() {
                if let Some(pe) = list_item_pe(kind, it)
                    && !out.iter().any(|(p, _)| *p == pe)
                {
                    out.push((pe, it.clone()));
                }
            }
            out
        };
        let (li, ri) = (index(la), index(ra));
        let mut pes: Vec<&Pe> = li.iter().map(|(p, _)| p).collect();
        for (p, _) in &ri {
            if !li.iter().any(|(q, _)| q == p) {
                pes.push(p);
            }
        }
        for pe in pes {
            let lv = li.iter().find(|(p, _)| p == pe).map(|(_, v)| v);
            let rv = ri.iter().find(|(p, _)| p == pe).map(|(_, v)| v);
            path.push(pe.clone());
            if matches!(kind, ListKind::Set) {
                cmp_leaf(lv, rv, path, c);
            } else {
                cmp_walk(schema, lv, rv, path, names, c);
            }
            path.pop();
        }
    } else {
        cmp_leaf(l, r, path, c);
        return;
    }
    // postItemHook: a granular map, list or list item on one side only.
    if !path.is_empty() {
        if l.is_none() {
            c.added.insert(path.clone());
        } else if r.is_none() {
            c.removed.insert(path.clone());
        }
    }
}

// ------------------------------------------------------------------------------------------
// Managers (`managedfields.go`, `buildmanagerinfo.go`)
// ------------------------------------------------------------------------------------------

/// `metav1.ManagedFieldsOperationType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// One `ManagedFieldsEntry`, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    /// RFC 3339 UTC, seconds; `None` when the entry has none.
    pub time: Option<String>,
    pub subresource: String,
    pub set: FieldSet,
}

impl Entry {
    /// `BuildManagerIdentifier`: the entry's JSON without fields, type and time, and without
    /// the apiVersion for appliers.
    pub fn identifier(&self) -> String {
        let mut s = String::from("{");
        let mut fields = Vec::new();
        if !self.manager.is_empty() {
            fields.push(format!("\"manager\":{}", encode_string(&self.manager)));
        }
        fields.push(format!("\"operation\":\"{}\"", self.operation.as_str()));
        if self.operation == Operation::Update && !self.api_version.is_empty() {
            fields.push(format!("\"apiVersion\":{}", encode_string(&self.api_version)));
        }
        if !self.subresource.is_empty() {
            fields.push(format!("\"subresource\":{}", encode_string(&self.subresource)));
        }
        s.push_str(&fields.join(","));
        s.push('}');
        s
    }

    /// `printManager` (`conflict.go`): `"alice"`, or `"kubectl-edit" using v1` for an updater.
    pub fn printed(&self) -> String {
        let mut s = go_quote(&self.manager);
        if !self.subresource.is_empty() {
            s = format!("{s} with subresource {}", go_quote(&self.subresource));
        }
        if self.operation == Operation::Update {
            s = format!("{s} using {}", self.api_version);
        }
        s
    }

    /// The entry as `ManagedFieldsEntry` marshals it: manager, operation, apiVersion, time,
    /// fieldsType, fieldsV1, subresource (empty ones left out).
    pub fn to_json(&self) -> Value {
        let mut e = Map::new();
        if !self.manager.is_empty() {
            e.insert("manager".into(), json!(self.manager));
        }
        e.insert("operation".into(), json!(self.operation.as_str()));
        if !self.api_version.is_empty() {
            e.insert("apiVersion".into(), json!(self.api_version));
        }
        if let Some(t) = &self.time {
            e.insert("time".into(), json!(t));
        }
        e.insert("fieldsType".into(), json!("FieldsV1"));
        e.insert("fieldsV1".into(), fields_v1(&self.set));
        if !self.subresource.is_empty() {
            e.insert("subresource".into(), json!(self.subresource));
        }
        Value::Object(e)
    }

    fn seconds(&self) -> i64 {
        self.time.as_deref().and_then(super::object::parse_rfc3339_utc).unwrap_or(0)
    }
}

/// The managers of one object (`fieldpath.ManagedFields` with their times), one entry per
/// identifier.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Managed(pub Vec<Entry>);

impl Managed {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn position(&self, identifier: &str) -> Option<usize> {
        self.0.iter().position(|e| e.identifier() == identifier)
    }

    /// `DecodeManagedFields`: `None` when an entry is not valid (operation other than Apply or
    /// Update, no apiVersion, fieldsType other than FieldsV1, fields that do not parse).
    pub fn decode(entries: &Value) -> Option<Managed> {
        let mut out = Managed::default();
        for e in entries.as_array()? {
            let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let operation = match s("operation").as_str() {
                "Apply" => Operation::Apply,
                "Update" => Operation::Update,
                _ => return None,
            };
            if s("apiVersion").is_empty() || s("fieldsType") != "FieldsV1" {
                return None;
            }
            let set = match e.get("fieldsV1") {
                None | Some(Value::Null) => BTreeSet::new(),
                Some(v) => parse_fields_v1(v)?,
            };
            let entry = Entry {
                manager: s("manager"),
                operation,
                api_version: s("apiVersion"),
                time: e.get("time").and_then(Value::as_str).map(str::to_string),
                subresource: s("subresource"),
                set,
            };
            let id = entry.identifier();
            match out.position(&id) {
                Some(i) => out.0[i] = entry,
                None => out.0.push(entry),
            }
        }
        Some(out)
    }

    /// The managedFields of an object (`None` or undecodable: empty).
    pub fn of(obj: &Value) -> Managed {
        managed_fields_value(obj).and_then(Managed::decode).unwrap_or_default()
    }

    /// `encodeManagedFields` + `sortEncodedManagedFields`: by operation, time (seconds), manager,
    /// apiVersion, subresource.
    pub fn to_json(&self) -> Vec<Value> {
        let mut entries: Vec<&Entry> = self.0.iter().collect();
        entries.sort_by(|p, q| {
            p.operation
                .cmp(&q.operation)
                .then_with(|| p.seconds().cmp(&q.seconds()))
                .then_with(|| p.manager.cmp(&q.manager))
                .then_with(|| p.api_version.cmp(&q.api_version))
                .then_with(|| p.subresource.cmp(&q.subresource))
        });
        entries.iter().map(|e| e.to_json()).collect()
    }

    /// Writes the managers into `obj.metadata.managedFields` (none: the field goes).
    pub fn encode_into(&self, obj: &mut Value) {
        let entries = self.to_json();
        if let Some(Value::Object(m)) = obj.get_mut("metadata") {
            if entries.is_empty() {
                m.shift_remove("managedFields");
            } else {
                m.insert("managedFields".into(), Value::Array(entries));
            }
        }
    }
}

fn managed_fields_value(obj: &Value) -> Option<&Value> {
    obj.get("metadata").and_then(|m| m.get("managedFields")).filter(|v| !v.is_null())
}

/// `isResetManagedFields`: `[]` or `[{}]`.
fn is_reset(v: Option<&Value>) -> bool {
    match v.and_then(Value::as_array).map(Vec::as_slice) {
        Some([]) => true,
        Some([only]) => only.as_object().is_some_and(Map::is_empty),
        _ => false,
    }
}

/// The object without `metadata.managedFields` (what the field manager compares).
pub fn without_managed_fields(obj: &Value) -> Value {
    let mut o = obj.clone();
    if let Some(Value::Object(m)) = o.get_mut("metadata") {
        m.shift_remove("managedFields");
    }
    o
}

/// The zero object of a type as Go's unstructured converter shows it (`Creater.New`):
/// `creationTimestamp: null`, and a Pod's `spec.containers: null` and empty `status`.
pub fn empty_object(schema: Schema) -> Value {
    match schema {
        Schema::Pod => {
            json!({"metadata": {"creationTimestamp": null}, "spec": {"containers": null}, "status": {}})
        }
        Schema::ConfigMap => json!({"metadata": {"creationTimestamp": null}}),
    }
}

/// `structuredMergeManager.Update` + `stripMetaManager` + `managedFieldsUpdater` +
/// `buildManagerInfoManager` + `capManagersManager` for one non-apply write by `manager`:
/// `live` and `new` without managedFields.
pub fn update_managers(
    schema: Schema,
    live: &Value,
    new: &Value,
    mut managed: Managed,
    manager: &str,
    now: &str,
) -> Managed {
    let cmp = compare(schema, live, new).filter(schema);
    let taken: FieldSet = cmp.modified.union(&cmp.added).cloned().collect();
    // `Updater.update` with force: every other manager loses what this write changed, added
    // or removed; an emptied entry goes.
    for e in &mut managed.0 {
        e.set.retain(|p| !taken.contains(p) && !cmp.removed.contains(p));
    }
    managed.0.retain(|e| !e.set.is_empty());
    // The "current-operation" set, filtered and stripped; when non-empty it joins this
    // manager's Update entry and moves its time.
    let mut mine = taken;
    ignore_filter(schema, &mut mine);
    strip_meta(&mut mine);
    if !mine.is_empty() {
        let entry = Entry {
            manager: manager.to_string(),
            operation: Operation::Update,
            api_version: "v1".into(),
            time: Some(now.to_string()),
            subresource: String::new(),
            set: BTreeSet::new(),
        };
        match managed.position(&entry.identifier()) {
            Some(i) => {
                let e = &mut managed.0[i];
                e.set.extend(mine);
                e.time = Some(now.to_string());
            }
            None => managed.0.push(Entry { set: mine, ..entry }),
        }
    }
    cap_update_managers(&mut managed);
    managed
}

/// `capUpdateManagers`: with more than ten `Update` entries, the oldest merge (per apiVersion)
/// into `ancient-changes`, which takes the time of the newest entry merged into it.
fn cap_update_managers(managed: &mut Managed) {
    let mut updaters: Vec<(i64, String)> = managed
        .0
        .iter()
        .filter(|e| e.operation == Operation::Update)
        .map(|e| (e.seconds(), e.identifier()))
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return;
    }
    updaters.sort();
    let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for (_, id) in updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(i) = managed.position(&id) else { continue };
        let version = managed.0[i].api_version.clone();
        let bucket = Entry {
            manager: ANCIENT_CHANGES.into(),
            operation: Operation::Update,
            api_version: version.clone(),
            time: None,
            subresource: String::new(),
            set: BTreeSet::new(),
        };
        let bucket_id = bucket.identifier();
        match first_of_version.get(&version) {
            Some(first) => {
                if managed.position(&bucket_id).is_none()
                    && let Some(f) = managed.position(first)
                {
                    let first_entry = managed.0.remove(f);
                    managed.0.push(Entry { set: first_entry.set, time: first_entry.time, ..bucket });
                }
                let Some(i) = managed.position(&id) else { continue };
                let merged = managed.0.remove(i);
                if let Some(b) = managed.position(&bucket_id) {
                    managed.0[b].set.extend(merged.set);
                    managed.0[b].time = merged.time;
                }
                length -= 1;
            }
            None => {
                first_of_version.insert(version, id);
            }
        }
    }
}

/// `FieldManager.Update` for a create, update or non-apply patch: the managers from the new
/// object's managedFields, or from the live object's when the new one has none or invalid ones
/// (`[]` or `[{}]` resets them: `decodeLiveOrNew`); untracked objects stay untracked except on
/// create (`skipNonAppliedManager`, `DefaultTrackOnCreateProbability` 1); the result replaces
/// `new`'s managedFields. `live` is `None` for a create.
pub fn update(schema: Schema, live: Option<&Value>, new: &mut Value, manager: &str, now: &str) {
    let empty = empty_object(schema);
    let live_obj = live.unwrap_or(&empty);
    let new_mf = managed_fields_value(new);
    let managed = if is_reset(new_mf) {
        Managed::default()
    } else {
        match new_mf.and_then(Managed::decode) {
            Some(m) if !m.is_empty() => m,
            _ => Managed::of(live_obj),
        }
    };
    // Compared as Go encodes the decoded objects: empty `omitempty` maps and slices are gone.
    let mut live_clean = without_managed_fields(live_obj);
    let mut new_clean = without_managed_fields(new);
    super::object::omit_empty(&mut live_clean);
    super::object::omit_empty(&mut new_clean);
    let untracked_update = live.is_some_and(|l| !super::object::uid(l).is_empty());
    let managed = if managed.is_empty() && untracked_update {
        managed
    } else {
        update_managers(schema, &live_clean, &new_clean, managed, manager, now)
    };
    *new = new_clean;
    managed.encode_into(new);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `prefixFromUserAgent` (apiserver `endpoints/handlers/create.go` @ v1.34.0).
    #[test]
    fn manager_names_follow_the_user_agent_prefix() {
        assert_eq!(
            manager_or_user_agent(Some("kubectl-create"), "kubectl/v1.34.0 (linux/amd64)"),
            "kubectl-create"
        );
        assert_eq!(manager_or_user_agent(None, "kubectl/v1.34.0 (linux/amd64) kubernetes/abc"), "kubectl");
        assert_eq!(manager_or_user_agent(Some(""), "curl/8.5.0"), "curl");
        assert_eq!(prefix_from_user_agent("Go-http-client/1.1"), "Go-http-client");
        assert_eq!(prefix_from_user_agent("a\u{7}b\tc/x"), "abc");
        assert_eq!(prefix_from_user_agent(&"x".repeat(200)).len(), 128);
        assert_eq!(
            prefix_from_user_agent(&format!("{}é", "x".repeat(127))).len(),
            127,
            "a rune that does not fit stops"
        );
        assert_eq!(prefix_from_user_agent(SCRIPT_USER_AGENT), "rvlab");
    }

    /// `Compare` marks maps and list items present on one side only, and `null` is a value
    /// (structured-merge-diff `typed/compare.go`).
    #[test]
    fn compare_marks_containers_added_on_one_side() {
        let c = compare(
            Schema::Pod,
            &empty_object(Schema::Pod),
            &json!({"metadata": {"labels": {"a": "1"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}),
        );
        let p = |s: &FieldSet| s.iter().map(|p| path_string(p)).collect::<Vec<_>>();
        assert_eq!(
            p(&c.added),
            [
                ".metadata.labels",
                ".metadata.labels.a",
                ".spec.containers[name=\"c\"]",
                ".spec.containers[name=\"c\"].image",
                ".spec.containers[name=\"c\"].name"
            ]
        );
        assert_eq!(p(&c.removed), [".metadata.creationTimestamp", ".status"], "null and {{}} → absent");
        assert!(c.modified.is_empty());
    }

    #[test]
    fn fields_v1_round_trips_with_dot_members() {
        let set: FieldSet = [
            vec![Pe::Field("data".into())],
            vec![Pe::Field("data".into()), Pe::Field("a".into())],
            vec![
                Pe::Field("spec".into()),
                Pe::Field("ports".into()),
                Pe::Key("containerPort".into(), json!(9)),
            ],
            vec![
                Pe::Field("spec".into()),
                Pe::Field("ports".into()),
                Pe::Key("containerPort".into(), json!(10)),
            ],
        ]
        .into_iter()
        .collect();
        let v = fields_v1(&set);
        assert_eq!(
            v.to_string(),
            r#"{"f:data":{".":{},"f:a":{}},"f:spec":{"f:ports":{"k:{\"containerPort\":9}":{},"k:{\"containerPort\":10}":{}}}}"#,
            "keys sort by value (9 < 10), not by text"
        );
        assert_eq!(parse_fields_v1(&v), Some(set));
    }

    /// `capUpdateManagers`: eleven Update managers → the two oldest merge into
    /// `ancient-changes` with the newer one's time (`capmanagers.go`).
    #[test]
    fn more_than_ten_updaters_merge_into_ancient_changes() {
        let mut m = Managed::default();
        for i in 0..11 {
            m.0.push(Entry {
                manager: format!("m{i:02}"),
                operation: Operation::Update,
                api_version: "v1".into(),
                time: Some(format!("2026-01-01T00:00:{i:02}Z")),
                subresource: String::new(),
                set: [vec![Pe::Field("data".into()), Pe::Field(format!("k{i}"))]].into_iter().collect(),
            });
        }
        cap_update_managers(&mut m);
        assert_eq!(m.0.len(), 10);
        let ancient = m.0.iter().find(|e| e.manager == ANCIENT_CHANGES).cloned();
        let ancient = ancient.unwrap_or_else(|| panic!("no bucket in {m:?}"));
        assert_eq!(ancient.time.as_deref(), Some("2026-01-01T00:00:01Z"));
        assert_eq!(ancient.set.len(), 2);
        assert!(!m.0.iter().any(|e| e.manager == "m00" || e.manager == "m01"));
    }
}
