//! Exact wire shape and messages of `metav1.Status` errors (spec §B, §C.1, §C.5).

use rvlab::apiserver::resource::{self, CONFIGMAPS, PODS, ResourceInfo};
use rvlab::apiserver::status::{FieldError, Status, aggregate, go_parse_int, go_parse_uint, go_quote};

fn json(s: &Status) -> String {
    serde_json::to_string(&s.to_json()).unwrap()
}

const DEPLOYMENTS: ResourceInfo = ResourceInfo {
    resource: "deployments",
    group: "apps",
    version: "v1",
    kind: "Deployment",
    list_kind: "DeploymentList",
    namespaced: true,
};

#[test]
fn resources() {
    assert_eq!(resource::lookup("pods"), Some(&PODS));
    assert_eq!(resource::lookup("configmaps"), Some(&CONFIGMAPS));
    assert_eq!(resource::lookup("Pods"), None);
    assert_eq!(PODS.qualified(), "pods");
    assert_eq!(PODS.api_version(), "v1");
    assert_eq!(DEPLOYMENTS.qualified(), "deployments.apps");
    assert_eq!(DEPLOYMENTS.api_version(), "apps/v1");
    assert_eq!(DEPLOYMENTS.qualified_kind(), "Deployment.apps");
}

// §B
#[test]
fn not_found_shape() {
    let s = Status::not_found(&PODS, "a");
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"a\" not found","reason":"NotFound","details":{"name":"a","kind":"pods"},"code":404}"#
    );
    assert_eq!(s.code(), 404);
    assert_eq!(s.reason(), "NotFound");
    assert_eq!(s.retry_after(), None);
    // Round trip.
    let back: Status = serde_json::from_value(s.to_json()).unwrap();
    assert_eq!(back, s);
}

// §B
#[test]
fn already_exists_and_conflict() {
    let s = Status::already_exists(&PODS, "a");
    assert_eq!((s.code(), s.reason(), s.message()), (409, "AlreadyExists", r#"pods "a" already exists"#));
    let s = Status::conflict(&PODS, "a", Status::OBJECT_MODIFIED);
    assert_eq!(s.code(), 409);
    assert_eq!(s.reason(), "Conflict");
    assert_eq!(
        s.message(),
        r#"Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again"#
    );
    assert_eq!(Status::object_modified(&PODS, "a"), s);
    let s = Status::conflict(&DEPLOYMENTS, "d", Status::OBJECT_MODIFIED);
    assert!(s.message().starts_with(r#"Operation cannot be fulfilled on deployments.apps "d": "#));
    assert!(json(&s).contains(r#""details":{"name":"d","group":"apps","kind":"deployments"}"#));
}

// §B preconditions message is passed through verbatim
#[test]
fn precondition_conflict() {
    let err = "StorageError: invalid object, Code: 4, Key: /registry/pods/ns1/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 3, ResourceVersion in object meta: 4";
    assert_eq!(
        Status::conflict(&PODS, "a", err).message(),
        format!("Operation cannot be fulfilled on pods \"a\": {err}")
    );
}

#[test]
fn invalid_is_kind_qualified() {
    let errs = [FieldError::required("metadata.name", "name or generateName is required")];
    let s = Status::invalid(&PODS, "", &errs);
    assert_eq!(
        s.message(),
        r#"Pod "" is invalid: metadata.name: Required value: name or generateName is required"#
    );
    assert_eq!(s.details.as_ref().unwrap().kind, "Pod");
    let s = Status::invalid(&DEPLOYMENTS, "x", &errs);
    assert!(s.message().starts_with(r#"Deployment.apps "x" is invalid: "#));
    assert_eq!(Status::invalid(&PODS, "a", &[]).message(), r#"Pod "a" is invalid"#);
}

// §C.1 422 shape and aggregation
#[test]
fn invalid_list_options() {
    let one = [FieldError::forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list")];
    let s = Status::invalid_list_options(&one);
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents is forbidden for list","field":"sendInitialEvents"}]},"code":422}"#
    );
    let two = [
        FieldError::forbidden(
            "resourceVersionMatch",
            "resourceVersionMatch is forbidden unless resourceVersion is provided",
        ),
        FieldError::not_supported("resourceVersionMatch", "X", &["Exact", "NotOlderThan", ""]),
    ];
    assert_eq!(
        Status::invalid_list_options(&two).message(),
        r#"ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "X": supported values: "Exact", "NotOlderThan", ""]"#
    );
    // Duplicates are dropped from the message (ToAggregate), kept as causes.
    let dup = [one[0].clone(), one[0].clone()];
    let s = Status::invalid_list_options(&dup);
    assert_eq!(
        s.message(),
        r#"ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"#
    );
    assert_eq!(s.details.unwrap().causes.len(), 2);
}

#[test]
fn field_error_rendering() {
    assert_eq!(
        FieldError::not_supported("resourceVersionMatch", "X", &["Exact", "NotOlderThan", ""]).to_string(),
        r#"resourceVersionMatch: Unsupported value: "X": supported values: "Exact", "NotOlderThan", """#
    );
    assert_eq!(
        FieldError::invalid("metadata.resourceVersion", 0u64, "must be specified for an update").to_string(),
        "metadata.resourceVersion: Invalid value: 0: must be specified for an update"
    );
    assert_eq!(
        FieldError::invalid("values", Vec::<String>::new(), "x").to_string(),
        "values: Invalid value: []string{}: x"
    );
    assert_eq!(
        FieldError::required("metadata.namespace", "").to_string(),
        "metadata.namespace: Required value"
    );
    assert_eq!(aggregate(&[]), "");
}

#[test]
fn go_formatting() {
    assert_eq!(go_quote("a\"b\\c\n\u{0}é\u{a0}"), r#""a\"b\\c\n\x00é\u00a0""#);
    assert_eq!(
        go_parse_uint("abc").unwrap_err().to_string(),
        r#"strconv.ParseUint: parsing "abc": invalid syntax"#
    );
    assert_eq!(
        go_parse_uint("18446744073709551616").unwrap_err().to_string(),
        r#"strconv.ParseUint: parsing "18446744073709551616": value out of range"#
    );
    assert_eq!(
        go_parse_uint("-1").unwrap_err().to_string(),
        r#"strconv.ParseUint: parsing "-1": invalid syntax"#
    );
    assert_eq!(go_parse_uint("007"), Ok(7));
    assert_eq!(go_parse_int("+5"), Ok(5));
    assert_eq!(go_parse_int("-9223372036854775808"), Ok(i64::MIN));
    assert_eq!(
        go_parse_int("9223372036854775808").unwrap_err().to_string(),
        r#"strconv.ParseInt: parsing "9223372036854775808": value out of range"#
    );
    assert_eq!(go_parse_int("").unwrap_err().to_string(), r#"strconv.ParseInt: parsing "": invalid syntax"#);
    assert_eq!(
        go_parse_int("-").unwrap_err().to_string(),
        r#"strconv.ParseInt: parsing "-": invalid syntax"#
    );
}

// §C.5
#[test]
fn expired() {
    let s = Status::expired(Status::LIST_TOO_OLD);
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided list is too old.","reason":"Expired","code":410}"#
    );
    let s = Status::expired_continue("TOKEN");
    assert_eq!(s.code(), 410);
    assert_eq!(s.reason(), "Expired");
    assert_eq!(s.metadata.continue_token, "TOKEN");
    assert_eq!(
        s.message(),
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
    );
    assert!(json(&s).starts_with(
        r#"{"kind":"Status","apiVersion":"v1","metadata":{"continue":"TOKEN"},"status":"Failure","#
    ));
    // The watch cache's own 410 (storage/cacher/watch_cache.go getAllEventsSinceLocked).
    assert_eq!(
        json(&Status::too_old_resource_version(3, 5)),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 3 (5)","reason":"Expired","code":410}"#
    );
}

// §C.5
#[test]
fn too_large_resource_version() {
    let s = Status::too_large_resource_version(10, 7, 1);
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 10, current: 7","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}"#
    );
    assert_eq!(s.retry_after(), Some(1));
    // etcd path: retryAfterSeconds 0 → omitted, no Retry-After header.
    let s = Status::too_large_resource_version(10, 7, 0);
    assert_eq!(s.retry_after(), None);
    assert!(json(&s).contains(r#""details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}]}"#));
}

// §C.3 cache not ready
#[test]
fn too_many_requests() {
    let s = Status::too_many_requests("storage is (re)initializing", 1);
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"storage is (re)initializing","reason":"TooManyRequests","details":{"retryAfterSeconds":1},"code":429}"#
    );
    assert_eq!(s.retry_after(), Some(1));
}

#[test]
fn internal_and_non_api_errors() {
    let s = Status::internal_error("boom");
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500}"#
    );
    // §B create with a resourceVersion: non-API error, empty reason.
    let s = Status::resource_version_set_on_create();
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion should not be set on objects to be created","code":500}"#
    );
    assert_eq!(s.reason(), "");
}

// Lists before 1.34 at a future exact revision: etcd's error unmapped (etcd3/store.go GetList
// @ v1.33.0 maps only ErrCompacted), so ErrorToAPIStatus answers 500 with its text
// (etcd api/v3rpc/rpctypes/error.go ErrGRPCFutureRev).
#[test]
fn future_revision_unmapped() {
    let s = Status::future_revision_unmapped();
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"etcdserver: mvcc: required revision is a future revision","code":500}"#
    );
    assert_eq!(s.reason(), "");
}

// §C.1 the list option 400s (storage/interfaces.go ValidateListOptions, etcd3/store.go GetList).
#[test]
fn list_option_bad_requests() {
    assert_eq!(
        json(&Status::continue_with_resource_version()),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"specifying resource version is not allowed when using continue","reason":"BadRequest","code":400}"#
    );
    let err = rvlab::apiserver::validation::parse_resource_version_error("abc").unwrap_err();
    assert_eq!(
        json(&Status::invalid_list_resource_version(&err)),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax","reason":"BadRequest","code":400}"#
    );
}

#[test]
fn router_errors() {
    assert_eq!(
        json(&Status::path_not_found()),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}"#
    );
    assert_eq!(
        json(&Status::method_not_allowed()),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}"#
    );
    let s = Status::bad_request("x");
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"x","reason":"BadRequest","code":400}"#
    );
}

// §B delete of a type without ReturnDeletedObject
#[test]
fn success_deleted() {
    let s = Status::success_deleted(&CONFIGMAPS, "a", "u-1");
    assert_eq!(
        json(&s),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"a","kind":"configmaps","uid":"u-1"}}"#
    );
    assert_eq!(s.code(), 200);
}
