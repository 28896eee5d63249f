//! A real client's HTTP request → one script line run by the session → the HTTP response.
//! `POST /api/v1/namespaces/default/configmaps` with a JSON (or protobuf) body becomes the line
//! `POST /api/v1/namespaces/default/configmaps {"metadata":…}`; the line's output object
//! (`code`, `body`, `headers`, or `watch`) becomes the response. Path and query pass through
//! untouched, so the engine's request parser sees exactly what the client sent.
//! Upstream: apiserver `pkg/endpoints/handlers/{create,update,get,delete,watch}.go`.

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::mpsc;

use super::engine::{Engine, Hold, WATCH_QUEUE};
use super::http::{self, Resp};
use super::protobuf;
use super::table;
use crate::apiserver::resource::{self, ResourceInfo};
use crate::apiserver::status::Status;

/// The resource a `/api/v1/...` path names, if any (for decoding a protobuf body).
pub fn resource_of(path: &str) -> Option<&'static ResourceInfo> {
    let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segs.as_slice() {
        ["api", "v1", "namespaces", _, r, ..] => resource::lookup(r),
        ["api", "v1", r, ..] => resource::lookup(r),
        _ => None,
    }
}

/// The script line for a request, or the Status a real server answers before the handler runs.
pub fn to_line(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<String, Status> {
    // The target becomes one word of the line.
    if target.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Status::bad_request("the request target contains whitespace or control characters"));
    }
    let verb = match method {
        "GET" | "POST" | "PUT" | "DELETE" => method.to_string(),
        "PATCH" => {
            // The patch type is the Content-Type (handlers/patch.go); the script line says it
            // with `type=` (none for a JSON merge patch).
            let ty = content_type.map(http::media_type).unwrap_or_default();
            let word = match ty.as_str() {
                "application/merge-patch+json" => "",
                "application/json-patch+json" => " type=json",
                "application/strategic-merge-patch+json" => " type=strategic",
                "application/apply-patch+yaml" => " type=apply",
                _ => return Err(http::unsupported_patch_type()),
            };
            let value: Value = serde_json::from_slice(body)
                .map_err(|e| Status::bad_request(&format!("error decoding patch: {e}")))?;
            return Ok(format!("PATCH {target}{word} {value}"));
        }
        _ => return Err(Status::method_not_allowed()),
    };
    if body.is_empty() {
        return Ok(format!("{verb} {target}"));
    }
    let ty = content_type.map(http::media_type).unwrap_or_default();
    let value: Value = match ty.as_str() {
        "application/json" | "" => match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => go_decoded(&verb, target, body).unwrap_or_else(|| {
                Err(Status::bad_request(&format!("couldn't get version/kind; json parse error: {e}")))
            })?,
        },
        "application/vnd.kubernetes.protobuf" => {
            let path = target.split('?').next().unwrap_or("");
            let Some(info) = resource_of(path) else { return Err(http::unsupported_media_type()) };
            let decoded = if method == "DELETE" {
                protobuf::decode_delete_options(body)
            } else {
                protobuf::decode(info, body)
            };
            decoded.map_err(|e| Status::bad_request(&e.to_string()))?
        }
        _ => return Err(http::unsupported_media_type()),
    };
    Ok(format!("{verb} {target} {value}"))
}

/// A create or update body that is not strict JSON, decoded as the apiserver's JSON serializer
/// decodes it (`apiserver::body`): Go's error Status for what Go cannot parse either (invalid
/// JSON), or the value Go reads (invalid UTF-8 in a string becomes U+FFFD). `None` when the
/// request is not a create or update of a served resource.
fn go_decoded(verb: &str, target: &str, body: &[u8]) -> Option<Result<Value, Status>> {
    if verb != "POST" && verb != "PUT" {
        return None;
    }
    let info = resource_of(target.split('?').next().unwrap_or(""))?;
    Some(crate::apiserver::body::decode_json_body(info, body))
}

/// The target a write is run with: a create, update or non-apply patch without a
/// `fieldManager` gets one from the client's User-Agent, so the field manager records the
/// manager a real apiserver would (`managerOrUserAgent`: the User-Agent before its first `/`,
/// `prefixFromUserAgent`). The record keeps it, so a replay records the same manager. Apply
/// needs its own `fieldManager` (a 422 without), so it is left alone.
pub fn with_user_agent_manager(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    user_agent: Option<&str>,
) -> String {
    let apply = content_type.map(http::media_type).is_some_and(|t| t == "application/apply-patch+yaml");
    if !matches!(method, "POST" | "PUT" | "PATCH") || apply {
        return target.to_string();
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let given = crate::apiserver::request::Query::parse(query).string("fieldManager");
    let manager = crate::apiserver::fieldmanager::prefix_from_user_agent(user_agent.unwrap_or(""));
    if given.is_some_and(|m| !m.is_empty()) || manager.is_empty() {
        return target.to_string();
    }
    let mut encoded = String::new();
    for b in manager.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    let sep = if query.is_empty() { "" } else { "&" };
    format!("{path}?{query}{sep}fieldManager={encoded}")
}

/// Runs an API request through the engine and shapes the answer. A request `hold` held while
/// its watch cache caught up runs with its wait (`waited=…` on its line).
#[allow(clippy::too_many_arguments)]
pub fn handle(
    engine: &mut Engine,
    method: &str,
    target: &str,
    content_type: Option<&str>,
    accept: Option<&str>,
    accept_encoding: Option<&str>,
    body: &[u8],
    hold: Option<Hold>,
) -> Resp {
    let table = match table::negotiate(accept, method == "GET") {
        table::Output::NotAcceptable => return http::status(&http::not_acceptable()),
        table::Output::Json => None,
        table::Output::Table(version) => match table::include_object(target) {
            Ok(include) => Some(table::TableRequest { version, include, no_headers: false }),
            Err(s) => return http::status(&s),
        },
    };
    let line = match to_line(method, target, content_type, body) {
        Ok(l) => l,
        Err(s) => return http::status(&s),
    };
    let line = match hold {
        Some(h) => engine.held_line(&line, target, h),
        None => line,
    };
    let out = engine.run(&line).output;
    let code = out.get("code").and_then(Value::as_u64).and_then(|c| u16::try_from(c).ok());
    let Some(code) = code else {
        // The line did not reach the API (it could not be parsed): say why, as a 400.
        let msg = out.get("error").and_then(Value::as_str).unwrap_or("the request could not be handled");
        return http::status(&Status::bad_request(msg));
    };
    let headers: Vec<(String, String)> = out
        .get("headers")
        .and_then(Value::as_object)
        .map(|h| h.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
        .unwrap_or_default();
    if let Some(id) = out.get("watch").and_then(Value::as_str) {
        let gzip = watch_list_compressed(engine, method, target, accept_encoding);
        let (tx, rx) = mpsc::channel::<Bytes>(WATCH_QUEUE);
        engine.attach_watch(id.to_string(), tx, table);
        let mut r = http::stream_encoded("application/json", rx, gzip);
        *r.status_mut() = hyper::StatusCode::from_u16(code).unwrap_or(hyper::StatusCode::OK);
        return r;
    }
    let mut body = out.get("body").cloned().unwrap_or(Value::Null);
    if let Some(req) = table.filter(|_| code == 200) {
        body = table::to_table(&body, req, engine.session().unix_now_secs());
    }
    let r = http::json(code, &body, &headers);
    engine.pump_watches();
    r
}

/// Whether a started watch's response is gzipped (`watch.go` `prepareHTTP`/`BeginStream`): the
/// WatchListCompression gate is on for the apiserver that serves it, the request is a watch-list
/// (`sendInitialEvents=true`, after the handler's defaulting) and the client accepts gzip.
fn watch_list_compressed(engine: &Engine, method: &str, target: &str, accept_encoding: Option<&str>) -> bool {
    let f = engine.session().current_features();
    if !f.watch_list_compression || !http::accepts_gzip(accept_encoding) {
        return false;
    }
    crate::apiserver::validation::parse_and_validate(method, target, None, f.watch_list)
        .is_ok_and(|req| req.options.watch && req.options.send_initial_events == Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write without `fieldManager` is recorded under the User-Agent's prefix
    /// (apiserver `endpoints/handlers/create.go` `managerOrUserAgent` @ v1.34.0).
    #[test]
    fn writes_carry_the_user_agent_as_field_manager() {
        let ua = Some("OpenAPI-Generator/31.0.0/python");
        let cm = "/api/v1/namespaces/default/configmaps";
        assert_eq!(
            with_user_agent_manager("POST", cm, None, ua),
            format!("{cm}?fieldManager=OpenAPI-Generator")
        );
        assert_eq!(
            with_user_agent_manager("PUT", &format!("{cm}/a?dryRun=All"), None, Some("my app/1")),
            format!("{cm}/a?dryRun=All&fieldManager=my%20app")
        );
        let given = format!("{cm}?fieldManager=kubectl-create");
        assert_eq!(with_user_agent_manager("POST", &given, None, Some("kubectl/v1.34.0")), given);
        let apply = Some("application/apply-patch+yaml");
        assert_eq!(with_user_agent_manager("PATCH", &format!("{cm}/a"), apply, ua), format!("{cm}/a"));
        assert_eq!(with_user_agent_manager("GET", cm, None, ua), cm);
        assert_eq!(with_user_agent_manager("POST", cm, None, None), cm, "no User-Agent: no manager");
    }

    /// (method, target, Content-Type, body, and what it becomes).
    type Case<'a, T> = (&'a str, &'a str, Option<&'a str>, &'a [u8], T);

    #[test]
    fn requests_become_script_lines() {
        // (method, target, Content-Type, body) → the script line the session runs.
        let ok: &[Case<&str>] = &[
            (
                "GET",
                "/api/v1/namespaces/default/configmaps?limit=1",
                None,
                b"",
                "GET /api/v1/namespaces/default/configmaps?limit=1",
            ),
            (
                "POST",
                "/api/v1/namespaces/default/configmaps",
                Some("application/json; charset=utf-8"),
                br#"{"metadata": {"name": "a"}}"#,
                r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#,
            ),
            (
                "PATCH",
                "/api/v1/namespaces/default/configmaps/a",
                Some("application/merge-patch+json"),
                br#"{"data": {"k": "v"}}"#,
                r#"PATCH /api/v1/namespaces/default/configmaps/a {"data":{"k":"v"}}"#,
            ),
            (
                "PATCH",
                "/api/v1/namespaces/default/configmaps/a?fieldManager=m",
                Some("application/apply-patch+yaml"),
                br#"{"metadata":{}}"#,
                r#"PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=m type=apply {"metadata":{}}"#,
            ),
        ];
        for (method, target, ct, body, line) in ok {
            assert_eq!(to_line(method, target, *ct, body).as_deref(), Ok(*line), "{method} {target}");
        }
        // … or the Status a real server answers before the handler runs.
        let cm = "/api/v1/namespaces/default/configmaps";
        let refused: &[Case<u16>] = &[
            ("PATCH", "/api/v1/namespaces/default/configmaps/a", Some("application/json"), b"{}", 415),
            ("OPTIONS", cm, None, b"", 405),
            ("POST", cm, Some("application/yaml"), b"a: b", 415),
            ("POST", cm, Some("application/json"), b"{nope", 400),
            ("POST", cm, Some("application/vnd.kubernetes.protobuf"), b"{}", 400),
            ("GET", "/api/v1/namespaces/default/configmaps?a=b c", None, b"", 400),
        ];
        for (method, target, ct, body, code) in refused {
            assert_eq!(
                to_line(method, target, *ct, body).map_err(|s| s.code()),
                Err(*code),
                "{method} {target}"
            );
        }
        assert_eq!(resource_of("/api/v1/namespaces/x/pods/p").map(|r| r.kind), Some("Pod"));
        assert_eq!(resource_of("/api/v1/configmaps").map(|r| r.kind), Some("ConfigMap"));
        assert_eq!(resource_of("/apis/apps/v1/deployments"), None);
    }
}
