//! Field selectors (`fieldSelector=` on lists and watches): the parser, each served resource's
//! selectable fields with its own error text, and matching an object.
//!
//! Upstream: the grammar and its errors are apimachinery `pkg/fields/selector.go`
//! (`ParseSelector`, `splitTerms`, `splitTerm`, `UnescapeValue`); the per-kind check is the
//! field label conversion the list/watch handler applies (`endpoints/handlers/get.go`
//! `ListResource`: `opts.FieldSelector.Transform(scope.Convertor.ConvertFieldLabel)`, any error
//! → 400 `BadRequest` with the error text). Pods register their own conversion
//! (`pkg/apis/core/v1/conversion.go` `addConversionFuncs`: `field label not supported: x`);
//! ConfigMaps have none, so `runtime.DefaultMetaV1FieldSelectorConversion` answers
//! (`"x" is not a known field selector: only "metadata.name", "metadata.namespace"`). The values
//! an object offers are its strategy's `GetAttrs` (`pkg/registry/core/pod/strategy.go`
//! `ToSelectableFields`, `generic.ObjectMetaFieldsSet` for ConfigMaps).
//!
//! Pure: no I/O, no state; the server turns a [`FieldSelectorError`] into its `Status`.

use serde_json::Value;

use super::object;
use super::selector::LabelSelector;

/// Which set of selectable fields a resource has (its strategy's `GetAttrs` plus its field
/// label conversion).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectableFields {
    /// `metadata.name`, `metadata.namespace` only, checked by
    /// `runtime.DefaultMetaV1FieldSelectorConversion` (ConfigMaps and every kind without its own
    /// conversion).
    ObjectMeta,
    /// The pod field labels of `pkg/apis/core/v1/conversion.go`.
    Pod,
}

/// The field labels the Pod conversion accepts (`spec.host` is renamed to `spec.nodeName`).
pub const POD_FIELDS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.podIPs",
    "status.nominatedNodeName",
];

impl SelectableFields {
    /// The selectable fields of a served resource (by its plural name).
    pub fn of_resource(resource: &str) -> SelectableFields {
        match resource {
            "pods" => SelectableFields::Pod,
            _ => SelectableFields::ObjectMeta,
        }
    }

    /// The field label conversion: the label the server filters on, or the kind's error.
    fn convert(self, label: &str) -> Result<&str, FieldSelectorError> {
        match self {
            SelectableFields::ObjectMeta => match label {
                "metadata.name" | "metadata.namespace" => Ok(label),
                _ => Err(FieldSelectorError::NotAKnownFieldSelector(label.to_string())),
            },
            SelectableFields::Pod => match label {
                "spec.host" => Ok("spec.nodeName"),
                l if POD_FIELDS.contains(&l) => Ok(l),
                _ => Err(FieldSelectorError::FieldLabelNotSupported(label.to_string())),
            },
        }
    }

    /// The value `obj` offers for a (converted) field label; a label the kind's field set does
    /// not contain reads as "" (Go's `fields.Set.Get` on a missing key — `status.podIPs` is
    /// accepted by the Pod conversion but not in `ToSelectableFields`).
    ///
    /// Pod values are read from the stored object with the defaults a real apiserver would have
    /// stored (`SetDefaults_PodSpec`: `restartPolicy` Always, `schedulerName`
    /// default-scheduler; the ServiceAccount admission plugin: `serviceAccountName` default;
    /// `hostNetwork` false) so a pod created without them still matches as it would upstream.
    pub fn value(self, obj: &Value, label: &str) -> String {
        let s = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        match label {
            "metadata.name" => return object::name(obj).to_string(),
            "metadata.namespace" => return object::namespace(obj).unwrap_or("").to_string(),
            _ => {}
        }
        if self == SelectableFields::ObjectMeta {
            return String::new();
        }
        let spec = obj.get("spec");
        let status = obj.get("status");
        let non_empty = |v: Option<String>| v.filter(|x| !x.is_empty());
        match label {
            "spec.nodeName" => s(spec.and_then(|p| p.get("nodeName"))).unwrap_or_default(),
            "spec.restartPolicy" => {
                non_empty(s(spec.and_then(|p| p.get("restartPolicy")))).unwrap_or_else(|| "Always".into())
            }
            "spec.schedulerName" => non_empty(s(spec.and_then(|p| p.get("schedulerName"))))
                .unwrap_or_else(|| "default-scheduler".into()),
            "spec.serviceAccountName" => non_empty(s(spec.and_then(|p| p.get("serviceAccountName"))))
                .unwrap_or_else(|| "default".into()),
            "spec.hostNetwork" => {
                let on = spec.and_then(|p| p.get("hostNetwork")).and_then(Value::as_bool).unwrap_or(false);
                on.to_string()
            }
            "status.phase" => s(status.and_then(|p| p.get("phase"))).unwrap_or_default(),
            "status.podIP" => {
                let first = status
                    .and_then(|p| p.get("podIPs"))
                    .and_then(Value::as_array)
                    .and_then(|a| a.first())
                    .and_then(|ip| s(ip.get("ip")));
                first.or_else(|| s(status.and_then(|p| p.get("podIP")))).unwrap_or_default()
            }
            "status.nominatedNodeName" => {
                s(status.and_then(|p| p.get("nominatedNodeName"))).unwrap_or_default()
            }
            _ => String::new(),
        }
    }
}

/// Why a field selector was refused; each text is the upstream error, sent as 400 BadRequest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldSelectorError {
    /// `fields.parseSelector`: a term without `=`, `==` or `!=`.
    #[error("invalid selector: '{selector}'; can't understand '{term}'")]
    CannotUnderstand { selector: String, term: String },
    /// `fields.InvalidEscapeSequence`.
    #[error("invalid field selector: invalid escape sequence: {0}")]
    InvalidEscapeSequence(String),
    /// `fields.UnescapedRune`; Go's `%v` of a rune prints its code point (`=` → 61).
    #[error("invalid field selector: unescaped character in value: {}", u32::from(*.0))]
    UnescapedRune(char),
    /// The Pod field label conversion.
    #[error("field label not supported: {0}")]
    FieldLabelNotSupported(String),
    /// `runtime.DefaultMetaV1FieldSelectorConversion`.
    #[error("{0:?} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"")]
    NotAKnownFieldSelector(String),
}

/// One requirement: `field=value` / `field==value` (`hasTerm`) or `field!=value` (`notHasTerm`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRequirement {
    pub field: String,
    pub equal: bool,
    pub value: String,
}

/// A field selector as the query decodes it (`fields.ParseSelector`), before the kind's field
/// label conversion. Empty = everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedFieldSelector {
    requirements: Vec<FieldRequirement>,
}

impl ParsedFieldSelector {
    /// `fields.ParseSelector`: terms are sorted as upstream sorts them, so the first bad term
    /// reported is the first in sorted order; a term with an empty field and value is dropped.
    pub fn parse(selector: &str) -> Result<ParsedFieldSelector, FieldSelectorError> {
        let mut parts = split_terms(selector);
        parts.sort();
        let mut requirements = Vec::new();
        for part in &parts {
            if part.is_empty() {
                continue;
            }
            let Some((lhs, op, rhs)) = split_term(part) else {
                return Err(FieldSelectorError::CannotUnderstand {
                    selector: selector.to_string(),
                    term: part.clone(),
                });
            };
            let value = unescape_value(rhs)?;
            if lhs.is_empty() && value.is_empty() {
                continue;
            }
            requirements.push(FieldRequirement { field: lhs.to_string(), equal: op != "!=", value });
        }
        Ok(ParsedFieldSelector { requirements })
    }

    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// The handler's `Transform` with the kind's field label conversion.
    pub fn convert(&self, fields: SelectableFields) -> Result<FieldSelector, FieldSelectorError> {
        let mut out = Vec::with_capacity(self.requirements.len());
        for r in &self.requirements {
            let field = fields.convert(&r.field)?.to_string();
            out.push(FieldRequirement { field, ..r.clone() });
        }
        Ok(FieldSelector { fields, requirements: out })
    }
}

impl std::fmt::Display for ParsedFieldSelector {
    /// `Selector.String()`: the terms joined by commas, values escaped.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let terms: Vec<String> = self
            .requirements
            .iter()
            .map(|r| {
                let v = r.value.replace('\\', "\\\\").replace(',', "\\,").replace('=', "\\=");
                format!("{}{}{}", r.field, if r.equal { "=" } else { "!=" }, v)
            })
            .collect();
        f.write_str(&terms.join(","))
    }
}

/// A parsed, converted field selector: all requirements must hold (`andTerm`). Empty = everything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSelector {
    fields: SelectableFields,
    requirements: Vec<FieldRequirement>,
}

impl FieldSelector {
    /// The selector that selects everything.
    pub fn everything(fields: SelectableFields) -> FieldSelector {
        FieldSelector { fields, requirements: Vec::new() }
    }

    /// [`ParsedFieldSelector::parse`] then [`ParsedFieldSelector::convert`].
    pub fn parse(selector: &str, fields: SelectableFields) -> Result<FieldSelector, FieldSelectorError> {
        ParsedFieldSelector::parse(selector)?.convert(fields)
    }

    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    pub fn requirements(&self) -> &[FieldRequirement] {
        &self.requirements
    }

    /// The value of `field` if the selector requires it to equal exactly that
    /// (`RequiresExactMatch`): e.g. the single name of `metadata.name=x`.
    pub fn exact(&self, field: &str) -> Option<&str> {
        self.requirements.iter().find(|r| r.equal && r.field == field).map(|r| r.value.as_str())
    }

    /// Whether `obj` satisfies every requirement.
    pub fn matches(&self, obj: &Value) -> bool {
        self.requirements.iter().all(|r| (self.fields.value(obj, &r.field) == r.value) == r.equal)
    }
}

/// The label and field selectors of a list or watch (`storage.SelectionPredicate`).
#[derive(Debug, Clone, PartialEq)]
pub struct SelectionPredicate {
    pub label: LabelSelector,
    pub field: FieldSelector,
}

impl SelectionPredicate {
    /// Selects everything.
    pub fn everything(fields: SelectableFields) -> SelectionPredicate {
        SelectionPredicate { label: LabelSelector::everything(), field: FieldSelector::everything(fields) }
    }

    /// `Empty()`: neither selector restricts anything.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty() && self.field.is_empty()
    }

    /// `Matches`: the object's labels and fields satisfy both selectors.
    pub fn matches(&self, obj: &Value) -> bool {
        let labels_ok = self.label.is_empty()
            || match object::metadata(obj).and_then(|m| m.get("labels")).and_then(Value::as_object) {
                Some(labels) => self.label.matches(labels),
                None => self.label.matches(&serde_json::Map::new()),
            };
        labels_ok && (self.field.is_empty() || self.field.matches(obj))
    }
}

/// `splitTerms`: splits on commas not escaped by a backslash (escapes are kept).
fn split_terms(s: &str) -> Vec<String> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut terms = Vec::new();
    let mut cur = String::new();
    let mut in_slash = false;
    for c in s.chars() {
        if in_slash {
            in_slash = false;
        } else if c == '\\' {
            in_slash = true;
        } else if c == ',' {
            terms.push(std::mem::take(&mut cur));
            continue;
        }
        cur.push(c);
    }
    terms.push(cur);
    terms
}

/// `splitTerm`: the first position where `!=`, `==` or `=` starts (tried in that order).
fn split_term(term: &str) -> Option<(&str, &'static str, &str)> {
    for (i, _) in term.char_indices() {
        let rest = &term[i..];
        for op in ["!=", "==", "="] {
            if let Some(rhs) = rest.strip_prefix(op) {
                return Some((&term[..i], op, rhs));
            }
        }
    }
    None
}

/// `UnescapeValue`: `\\`, `\,` and `\=` are escapes; any other escape, a lone trailing
/// backslash or an unescaped `,` / `=` is an error.
fn unescape_value(s: &str) -> Result<String, FieldSelectorError> {
    if !s.contains(['\\', ',', '=']) {
        return Ok(s.to_string());
    }
    let mut v = String::with_capacity(s.len());
    let mut in_slash = false;
    for c in s.chars() {
        if in_slash {
            match c {
                '\\' | ',' | '=' => v.push(c),
                _ => return Err(FieldSelectorError::InvalidEscapeSequence(format!("\\{c}"))),
            }
            in_slash = false;
            continue;
        }
        match c {
            '\\' => in_slash = true,
            ',' | '=' => return Err(FieldSelectorError::UnescapedRune(c)),
            _ => v.push(c),
        }
    }
    if in_slash {
        return Err(FieldSelectorError::InvalidEscapeSequence("\\".into()));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cm() -> SelectableFields {
        SelectableFields::ObjectMeta
    }

    /// apimachinery `pkg/fields/selector.go`: the three operators, escapes and sorting.
    #[test]
    fn parses_like_fields_parse_selector() {
        let s = FieldSelector::parse("metadata.name!=a,metadata.namespace==ns", cm()).unwrap();
        assert_eq!(
            s.requirements(),
            &[
                FieldRequirement { field: "metadata.name".into(), equal: false, value: "a".into() },
                FieldRequirement { field: "metadata.namespace".into(), equal: true, value: "ns".into() },
            ]
        );
        let s = FieldSelector::parse(r"metadata.name=a\,b\=c\\d", cm()).unwrap();
        assert_eq!(s.exact("metadata.name"), Some(r"a,b=c\d"));
        assert!(FieldSelector::parse("", cm()).unwrap().is_empty());
        assert!(FieldSelector::parse(",,", cm()).unwrap().is_empty());
        // `=` alone: empty field and value → Everything, dropped before the conversion.
        assert!(FieldSelector::parse("=", cm()).unwrap().is_empty());
    }

    #[test]
    fn parse_errors_carry_the_upstream_text() {
        let e = |s: &str| FieldSelector::parse(s, cm()).unwrap_err().to_string();
        assert_eq!(e("abc"), "invalid selector: 'abc'; can't understand 'abc'");
        // Sorted first: "a" < "metadata.name=x".
        assert_eq!(e("metadata.name=x,a"), "invalid selector: 'metadata.name=x,a'; can't understand 'a'");
        assert_eq!(e(r"metadata.name=a\x"), r"invalid field selector: invalid escape sequence: \x");
        assert_eq!(e(r"metadata.name=a\"), r"invalid field selector: invalid escape sequence: \");
        assert_eq!(e("metadata.name=a=b"), "invalid field selector: unescaped character in value: 61");
    }

    /// `runtime.DefaultMetaV1FieldSelectorConversion` (ConfigMaps) and the Pod conversion of
    /// `pkg/apis/core/v1/conversion.go`.
    #[test]
    fn each_kind_has_its_own_fields_and_error() {
        assert_eq!(
            FieldSelector::parse("spec.nodeName=n", cm()).unwrap_err().to_string(),
            r#""spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace""#
        );
        let pod = SelectableFields::Pod;
        for f in POD_FIELDS {
            assert!(FieldSelector::parse(&format!("{f}=x"), pod).is_ok(), "{f}");
        }
        assert_eq!(
            FieldSelector::parse("spec.host=n", pod).unwrap().requirements()[0].field,
            "spec.nodeName",
            "spec.host is the old name of spec.nodeName"
        );
        assert_eq!(
            FieldSelector::parse("data.k=v", pod).unwrap_err().to_string(),
            "field label not supported: data.k"
        );
    }

    #[test]
    fn matches_objects_with_the_upstream_field_sets() {
        let a = json!({"metadata": {"name": "a", "namespace": "default"}, "spec": {"nodeName": "n1"},
                       "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.1"}]}});
        let b = json!({"metadata": {"name": "b", "namespace": "default"}, "status": {"phase": "Pending"}});
        let pod = SelectableFields::Pod;
        let sel = |s: &str| FieldSelector::parse(s, pod).unwrap();
        assert!(sel("spec.nodeName=n1").matches(&a) && !sel("spec.nodeName=n1").matches(&b));
        assert!(sel("spec.nodeName=").matches(&b), "unscheduled pods have nodeName \"\"");
        assert!(sel("status.phase!=Running").matches(&b) && !sel("status.phase!=Running").matches(&a));
        assert!(sel("status.podIP=10.0.0.1").matches(&a));
        assert!(sel("spec.restartPolicy=Always,spec.schedulerName=default-scheduler").matches(&b));
        assert!(sel("spec.hostNetwork=false").matches(&a));
        assert!(sel("status.podIPs=").matches(&a), "accepted but not in ToSelectableFields: always \"\"");
        assert!(sel("metadata.name=a,metadata.namespace=default").matches(&a));
        let c = FieldSelector::parse("metadata.name=b", cm()).unwrap();
        assert!(c.matches(&b) && !c.matches(&a));
    }
}
