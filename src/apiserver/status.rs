//! `metav1.Status` and the apimachinery error constructors (spec §B, §C.1, §C.5).
//!
//! Owns the wire shape of every error the apiserver returns (field names and order exactly as
//! Go's `encoding/json` writes `metav1.Status`, empty fields omitted like `omitempty`), the
//! constructors mirroring `k8s.io/apimachinery/pkg/api/errors` (`NewNotFound`, `NewConflict`,
//! `NewInvalid`, ...) and `field.Error` with its exact `Error()` rendering and aggregation. The
//! Go formatting those messages need (`%q`, `strconv.Parse*` errors) is in [`super::go`].

use serde::{Deserialize, Serialize};

use super::resource::ResourceInfo;

// The Go formatting helpers these messages need live in `super::go::strconv`; re-exported here
// for existing callers.
pub use super::go::strconv::{
    GoNumError, ParseNumError, go_parse_int, go_parse_uint, go_quote, go_quote_bytes,
};

// ------------------------------------------------------------------------------------------
// field.Error
// ------------------------------------------------------------------------------------------

/// `field.ErrorType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldErrorType {
    NotFound,
    Required,
    Duplicate,
    Invalid,
    NotSupported,
    Forbidden,
    TooLong,
    TooMany,
    Internal,
    TypeInvalid,
}

impl FieldErrorType {
    /// The machine-readable cause type (`FieldValueInvalid`), used as `details.causes[].reason`.
    pub fn cause_type(self) -> &'static str {
        match self {
            Self::NotFound => "FieldValueNotFound",
            Self::Required => "FieldValueRequired",
            Self::Duplicate => "FieldValueDuplicate",
            Self::Invalid => "FieldValueInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Forbidden => "FieldValueForbidden",
            Self::TooLong => "FieldValueTooLong",
            Self::TooMany => "FieldValueTooMany",
            Self::Internal => "InternalError",
            Self::TypeInvalid => "FieldValueTypeInvalid",
        }
    }
}

impl std::fmt::Display for FieldErrorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::NotFound => "Not found",
            Self::Required => "Required value",
            Self::Duplicate => "Duplicate value",
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Forbidden => "Forbidden",
            Self::TooLong => "Too long",
            Self::TooMany => "Too many",
            Self::Internal => "Internal error",
        })
    }
}

/// The offending value of a [`FieldError`], typed because Go prints strings quoted (`"abc"`),
/// numbers bare (`0`) and slices as Go syntax (`[]string{}`).
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    Str(String),
    Int(i64),
    Uint(u64),
    Bool(bool),
    /// A `[]string`, printed with `%#v` (`[]string{"x"}`): releases through 1.33.
    StrList(Vec<String>),
    /// A `[]string`, printed with `json.Marshal` (`["x"]`): 1.34 on, where `ErrorBody`
    /// renders every composite value as JSON (apimachinery `pkg/util/validation/field/errors.go`
    /// as kubernetes/kubernetes#132314 left it; that change is dated June 2025, the 1.34 cycle).
    JsonStrList(Vec<String>),
    /// A nil value, printed `null`.
    Null,
}

impl std::fmt::Display for BadValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadValue::Str(s) => f.write_str(&go_quote(s)),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Uint(u) => write!(f, "{u}"),
            BadValue::Bool(b) => write!(f, "{b}"),
            BadValue::StrList(v) => {
                let items: Vec<String> = v.iter().map(|s| go_quote(s)).collect();
                write!(f, "[]string{{{}}}", items.join(", "))
            }
            BadValue::JsonStrList(v) => f.write_str(&go_json_strings(v)),
            BadValue::Null => f.write_str("null"),
        }
    }
}

/// `json.Marshal` of a `[]string`: compact, with Go's HTML-safe escapes of `<`, `>`, `&` and
/// U+2028/U+2029 (which serde_json leaves as they are).
fn go_json_strings(v: &[String]) -> String {
    let plain = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(plain.len());
    for c in plain.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

impl From<&str> for BadValue {
    fn from(s: &str) -> Self {
        BadValue::Str(s.to_string())
    }
}
impl From<String> for BadValue {
    fn from(s: String) -> Self {
        BadValue::Str(s)
    }
}
impl From<&String> for BadValue {
    fn from(s: &String) -> Self {
        BadValue::Str(s.clone())
    }
}
impl From<i64> for BadValue {
    fn from(i: i64) -> Self {
        BadValue::Int(i)
    }
}
impl From<u64> for BadValue {
    fn from(u: u64) -> Self {
        BadValue::Uint(u)
    }
}
impl From<bool> for BadValue {
    fn from(b: bool) -> Self {
        BadValue::Bool(b)
    }
}
impl From<Vec<String>> for BadValue {
    fn from(v: Vec<String>) -> Self {
        BadValue::StrList(v)
    }
}

/// apimachinery's `field.Error`. `Display` is `Error()`: `<field>: <body>`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// The field path as `field.Path.String()` prints it (`metadata.name`, `values[0][app]`).
    pub field: String,
    pub kind: FieldErrorType,
    /// `None` = the value is not shown (Go's `omitValue`; also what Required/Forbidden do).
    pub value: Option<BadValue>,
    pub detail: String,
}

impl FieldError {
    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(field: impl Into<String>, value: impl Into<BadValue>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            kind: FieldErrorType::Invalid,
            value: Some(value.into()),
            detail: detail.into(),
        }
    }
    /// `field.Required(path, detail)`.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { field: field.into(), kind: FieldErrorType::Required, value: None, detail: detail.into() }
    }
    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            kind: FieldErrorType::Forbidden,
            value: None,
            detail: detail.into(),
        }
    }
    /// `field.NotSupported(path, value, supported)`: detail `supported values: "a", "b"`.
    pub fn not_supported(field: impl Into<String>, value: impl Into<BadValue>, supported: &[&str]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        FieldError {
            field: field.into(),
            kind: FieldErrorType::NotSupported,
            value: Some(value.into()),
            detail,
        }
    }

    /// `ErrorBody()`: the message without the field path.
    pub fn body(&self) -> String {
        let mut s = match (self.kind, &self.value) {
            (
                FieldErrorType::Required
                | FieldErrorType::Forbidden
                | FieldErrorType::TooLong
                | FieldErrorType::Internal,
                _,
            )
            | (_, None) => self.kind.to_string(),
            (_, Some(v)) => format!("{}: {}", self.kind, v),
        };
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// The `StatusCause` that `NewInvalid` derives from this error.
    pub fn to_cause(&self) -> StatusCause {
        StatusCause {
            reason: self.kind.cause_type().to_string(),
            message: self.body(),
            field: self.field.clone(),
        }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// `utilerrors.NewAggregate(msgs).Error()` after `ErrorList.ToAggregate()`'s de-duplication:
/// one message as is, several as `[a, b]`; empty for none.
pub fn aggregate_messages<S: AsRef<str>>(msgs: &[S]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for m in msgs {
        let m = m.as_ref();
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen[0].to_string(),
        _ => format!("[{}]", seen.join(", ")),
    }
}

/// `field.ErrorList.ToAggregate().Error()`.
pub fn aggregate(errs: &[FieldError]) -> String {
    let msgs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    aggregate_messages(&msgs)
}

// ------------------------------------------------------------------------------------------
// metav1.Status
// ------------------------------------------------------------------------------------------

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

/// `metav1.ListMeta` as carried by a Status (`metadata`; always present, possibly `{}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListMeta {
    #[serde(rename = "selfLink", default, skip_serializing_if = "String::is_empty")]
    pub self_link: String,
    #[serde(rename = "resourceVersion", default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    #[serde(rename = "continue", default, skip_serializing_if = "String::is_empty")]
    pub continue_token: String,
    #[serde(rename = "remainingItemCount", default, skip_serializing_if = "Option::is_none")]
    pub remaining_item_count: Option<i64>,
}

/// `metav1.StatusCause`. The Go field `Type` is serialised as `reason`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCause {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field: String,
}

/// `metav1.StatusDetails`, fields in Go order: name, group, kind, uid, causes, retryAfterSeconds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusDetails {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    #[serde(rename = "retryAfterSeconds", default, skip_serializing_if = "is_zero_i32")]
    pub retry_after_seconds: i32,
}

/// `metav1.Status`, serialised as
/// `{"kind":"Status","apiVersion":"v1","metadata":{},"status":..,"message":..,"reason":..,"details":{..},"code":..}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    #[serde(default)]
    pub kind: String,
    #[serde(rename = "apiVersion", default)]
    pub api_version: String,
    #[serde(default)]
    pub metadata: ListMeta,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub status: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<StatusDetails>,
    /// The `code` field; 0 = omitted (a success Status from the registry carries none).
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub code: i32,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Status {}

impl Status {
    /// A `Failure` Status with the standard `kind`/`apiVersion`.
    pub fn failure(
        code: u16,
        reason: &str,
        message: impl Into<String>,
        details: Option<StatusDetails>,
    ) -> Status {
        Status {
            kind: "Status".to_string(),
            api_version: "v1".to_string(),
            metadata: ListMeta::default(),
            status: "Failure".to_string(),
            message: message.into(),
            reason: reason.to_string(),
            details,
            code: i32::from(code),
        }
    }

    /// The HTTP status code to answer with (200 for a Success Status without `code`).
    pub fn code(&self) -> u16 {
        match u16::try_from(self.code) {
            Ok(c) if c != 0 => c,
            _ if self.status == "Success" => 200,
            _ => 500,
        }
    }

    /// `reason` (`""` for a non-API error).
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// `message`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// `details.retryAfterSeconds` when > 0: the value of the `Retry-After` header.
    pub fn retry_after(&self) -> Option<i32> {
        self.details.as_ref().map(|d| d.retry_after_seconds).filter(|s| *s > 0)
    }

    /// The JSON body, in Kubernetes' field order.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// §B `NewNotFound`: 404 `pods "a" not found`, details `{name, kind: "pods"}`.
    pub fn not_found(info: &ResourceInfo, name: &str) -> Status {
        Status::failure(
            404,
            "NotFound",
            format!("{} {} not found", info.qualified(), go_quote(name)),
            Some(resource_details(info, name)),
        )
    }

    /// §B `NewAlreadyExists`: 409 `pods "a" already exists`.
    pub fn already_exists(info: &ResourceInfo, name: &str) -> Status {
        Status::failure(
            409,
            "AlreadyExists",
            format!("{} {} already exists", info.qualified(), go_quote(name)),
            Some(resource_details(info, name)),
        )
    }

    /// §B `NewConflict`: 409 `Operation cannot be fulfilled on pods "a": <err>`.
    pub fn conflict(info: &ResourceInfo, name: &str, err: &str) -> Status {
        Status::failure(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {} {}: {}", info.qualified(), go_quote(name), err),
            Some(resource_details(info, name)),
        )
    }

    /// `registry.OptimisticLockErrorMsg`.
    pub const OBJECT_MODIFIED: &'static str =
        "the object has been modified; please apply your changes to the latest version and try again";

    /// §B the optimistic-lock 409: `Operation cannot be fulfilled on pods "a": the object has been modified; ...`.
    pub fn object_modified(info: &ResourceInfo, name: &str) -> Status {
        Status::conflict(info, name, Status::OBJECT_MODIFIED)
    }

    /// `NewInvalid(GroupKind, name, errs)` with the object's kind: 422 `Pod "a" is invalid: ...`
    /// (what strategy/metadata validation returns).
    pub fn invalid(info: &ResourceInfo, name: &str, errs: &[FieldError]) -> Status {
        new_invalid(info.group, info.kind, &info.qualified_kind(), name, errs)
    }

    /// §C.1 422 `ListOptions.meta.k8s.io "" is invalid: <errs>`.
    pub fn invalid_list_options(errs: &[FieldError]) -> Status {
        new_invalid("meta.k8s.io", "ListOptions", "ListOptions.meta.k8s.io", "", errs)
    }

    /// 422 `<Kind>.meta.k8s.io "" is invalid: <errs>` for a write's options (`CreateOptions`,
    /// `UpdateOptions`, `PatchOptions`, `DeleteOptions`).
    pub fn invalid_options(kind: &str, errs: &[FieldError]) -> Status {
        new_invalid("meta.k8s.io", kind, &format!("{kind}.meta.k8s.io"), "", errs)
    }

    /// `NewBadRequest`: 400 BadRequest, no details.
    pub fn bad_request(msg: &str) -> Status {
        Status::failure(400, "BadRequest", msg, None)
    }

    /// §C.1 a list with a continue token and a resourceVersion other than `""`/`"0"`: 400
    /// `specifying resource version is not allowed when using continue` (apiserver
    /// `storage/interfaces.go` `ValidateListOptions`; `storage/etcd3/store.go` `GetList` before it).
    pub fn continue_with_resource_version() -> Status {
        Status::bad_request("specifying resource version is not allowed when using continue")
    }

    /// §C.1 a list whose resourceVersion does not parse: 400 `invalid resource version: <err>`,
    /// `err` being the versioner's `storage.InvalidError` text (`storage/etcd3/store.go` `GetList`).
    pub fn invalid_list_resource_version(err: &str) -> Status {
        Status::bad_request(&format!("invalid resource version: {err}"))
    }

    /// A create or update without a body: the decoder's 400 (`handlers/rest.go` `negotiation`).
    pub fn unknown_body_format() -> Status {
        Status::bad_request(
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
        )
    }

    /// `NewResourceExpired`: 410 Expired, no details.
    pub fn expired(msg: &str) -> Status {
        Status::failure(410, "Expired", msg, None)
    }

    /// §C.5 etcd list below the compaction, first page: `The resourceVersion for the provided list is too old.`
    pub const LIST_TOO_OLD: &'static str = "The resourceVersion for the provided list is too old.";
    /// §E.2 etcd watch below the compaction: `The resourceVersion for the provided watch is too old.`
    pub const WATCH_TOO_OLD: &'static str = "The resourceVersion for the provided watch is too old.";
    /// §C.5 the message of a 410 that carries an inconsistent continue token.
    pub const INCONSISTENT_CONTINUE: &'static str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

    /// §E the watch cache's 410 for a watch below the oldest event it can replay
    /// (`storage/cacher/watch_cache.go` `getAllEventsSinceLocked`):
    /// `too old resource version: <rv> (<oldest>)`.
    pub fn too_old_resource_version(rv: i64, oldest: i64) -> Status {
        Status::expired(&format!("too old resource version: {rv} ({oldest})"))
    }

    /// §C.5 410 Expired with the inconsistent-continue message and `metadata.continue` = `inconsistent_token`.
    pub fn expired_continue(inconsistent_token: &str) -> Status {
        let mut s = Status::expired(Status::INCONSISTENT_CONTINUE);
        s.metadata.continue_token = inconsistent_token.to_string();
        s
    }

    /// §C.5 `storage.NewTooLargeResourceVersionError`: 504 Timeout
    /// `Timeout: Too large resource version: <n>, current: <rv>` with cause `ResourceVersionTooLarge`.
    pub fn too_large_resource_version(requested: u64, current: u64, retry_after_seconds: i32) -> Status {
        let mut s = Status::timeout(
            &format!("Too large resource version: {requested}, current: {current}"),
            retry_after_seconds,
        );
        if let Some(d) = s.details.as_mut() {
            d.causes = vec![StatusCause {
                reason: "ResourceVersionTooLarge".to_string(),
                message: "Too large resource version".to_string(),
                field: String::new(),
            }];
        }
        s
    }

    /// 1.37 `delegator.go` `GetList` with ConsistentListFromCacheSkipTimeoutFallback: the
    /// too-large error of a consistent read the cache could not serve in time, as
    /// `errors.NewTooManyRequests(err.Error(), resourceVersionTooHighRetrySeconds)`: 429
    /// TooManyRequests, message `Timeout: Too large resource version: <n>, current: <rv>`,
    /// `retryAfterSeconds: 1`, no causes.
    pub fn consistent_read_no_fallback(requested: u64, current: u64) -> Status {
        let too_large = Status::too_large_resource_version(requested, current, 1);
        Status::too_many_requests(too_large.message(), 1)
    }

    /// `NewTimeoutError`: 504 Timeout `Timeout: <msg>`, details `{retryAfterSeconds}`.
    pub fn timeout(msg: &str, retry_after_seconds: i32) -> Status {
        Status::failure(
            504,
            "Timeout",
            format!("Timeout: {msg}"),
            Some(StatusDetails { retry_after_seconds, ..Default::default() }),
        )
    }

    /// The cacher's 429 while its watch cache is (re)initialising (`cacher.go` `ready.check`):
    /// `storage is (re)initializing` with Retry-After.
    pub fn storage_initializing(retry_after_seconds: i32) -> Status {
        Status::too_many_requests("storage is (re)initializing", retry_after_seconds)
    }

    /// `NewTooManyRequests`: 429 TooManyRequests, details `{retryAfterSeconds}`.
    pub fn too_many_requests(msg: &str, retry_after_seconds: i32) -> Status {
        Status::failure(
            429,
            "TooManyRequests",
            msg,
            Some(StatusDetails { retry_after_seconds, ..Default::default() }),
        )
    }

    /// `NewInternalError`: 500 InternalError `Internal error occurred: <msg>`, one cause.
    pub fn internal_error(msg: &str) -> Status {
        Status::failure(
            500,
            "InternalError",
            format!("Internal error occurred: {msg}"),
            Some(StatusDetails {
                causes: vec![StatusCause { message: msg.to_string(), ..Default::default() }],
                ..Default::default()
            }),
        )
    }

    /// A plain Go error reaching `ErrorToAPIStatus`: 500, empty reason, message = the error text.
    pub fn non_api_error(msg: &str) -> Status {
        Status::failure(500, "", msg, None)
    }

    /// etcd's error for a read at a revision it has not reached, as the Go client returns it
    /// (etcd `api/v3rpc/rpctypes/error.go` `ErrGRPCFutureRev`).
    pub const ETCD_FUTURE_REVISION: &'static str = "etcdserver: mvcc: required revision is a future revision";

    /// A list at a future exact revision before 1.34: `etcd3/store.go` `GetList` (v1.33.0) maps
    /// only `ErrCompacted` for lists, so etcd's error reaches `ErrorToAPIStatus` as a plain error:
    /// 500, empty reason, message [`Status::ETCD_FUTURE_REVISION`].
    pub fn future_revision_unmapped() -> Status {
        Status::non_api_error(Status::ETCD_FUTURE_REVISION)
    }

    /// §B `storage.ErrResourceVersionSetOnCreate` (a non-API error, so 500 with empty reason).
    pub fn resource_version_set_on_create() -> Status {
        Status::non_api_error("resourceVersion should not be set on objects to be created")
    }

    /// The go-restful 405 (route exists, method does not), as the apiserver's
    /// `serviceErrorHandler` renders it via `NewGenericServerResponse`: details `{}`.
    pub fn method_not_allowed() -> Status {
        Status::failure(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
            Some(StatusDetails::default()),
        )
    }

    /// The go-restful 404 for an unknown URL under `/api/v1`: details `{}`.
    pub fn path_not_found() -> Status {
        Status::failure(
            404,
            "NotFound",
            "the server could not find the requested resource",
            Some(StatusDetails::default()),
        )
    }

    /// The registry's answer to a delete of a type without `ReturnDeletedObject`:
    /// `{"status":"Success","details":{name,kind,uid}}` (no `code` field; HTTP 200).
    pub fn success_deleted(info: &ResourceInfo, name: &str, uid: &str) -> Status {
        Status {
            kind: "Status".to_string(),
            api_version: "v1".to_string(),
            metadata: ListMeta::default(),
            status: "Success".to_string(),
            message: String::new(),
            reason: String::new(),
            details: Some(StatusDetails {
                name: name.to_string(),
                group: info.group.to_string(),
                kind: info.resource.to_string(),
                uid: uid.to_string(),
                ..Default::default()
            }),
            code: 0,
        }
    }
}

fn resource_details(info: &ResourceInfo, name: &str) -> StatusDetails {
    StatusDetails {
        name: name.to_string(),
        group: info.group.to_string(),
        kind: info.resource.to_string(),
        ..Default::default()
    }
}

fn new_invalid(group: &str, kind: &str, qualified_kind: &str, name: &str, errs: &[FieldError]) -> Status {
    let message = if errs.is_empty() {
        format!("{} {} is invalid", qualified_kind, go_quote(name))
    } else {
        format!("{} {} is invalid: {}", qualified_kind, go_quote(name), aggregate(errs))
    };
    Status::failure(
        422,
        "Invalid",
        message,
        Some(StatusDetails {
            name: name.to_string(),
            group: group.to_string(),
            kind: kind.to_string(),
            causes: errs.iter().map(FieldError::to_cause).collect(),
            ..Default::default()
        }),
    )
}
