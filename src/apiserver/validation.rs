//! Request-level validation of list/watch options and resourceVersion parsing (spec §C.1).
//!
//! Owns `SetListOptionsDefaults` (the WatchList defaulting of ""/"0" watches),
//! `ValidateListOptions` with its exact field errors and aggregation, the storage-level list
//! checks that run before any read (`continue` + resourceVersion, non-numeric resourceVersion),
//! and `APIObjectVersioner.ParseResourceVersion` as get/watch see it.

use super::continue_token::ContinueToken;
use super::decision::Rule;
use super::go::strconv::go_parse_uint;
use super::request::{ApiRequest, ListOptions, RvMatch, ValueStyle, Verb, parse_request_styled};
use super::status::{FieldError, Status};

/// `metav1.ResourceVersionMatchExact`.
pub const MATCH_EXACT: &str = "Exact";
/// `metav1.ResourceVersionMatchNotOlderThan`.
pub const MATCH_NOT_OLDER_THAN: &str = "NotOlderThan";

/// `metainternalversion.SetListOptionsDefaults`: with WatchList enabled, a watch (`watch=true`)
/// with rv ""/"0" and neither `sendInitialEvents` nor `resourceVersionMatch` becomes
/// `sendInitialEvents=true&resourceVersionMatch=NotOlderThan`. Like the real handler this looks at
/// `opts.watch` only, so the legacy `/watch/` URL prefix is *not* defaulted.
pub fn default_watch_list(opts: &mut ListOptions, watch_list_enabled: bool) {
    if !watch_list_enabled {
        return;
    }
    if opts.send_initial_events.is_some() || opts.resource_version_match.is_some() {
        return;
    }
    let rv = opts.resource_version.as_deref().unwrap_or("");
    if opts.watch && (rv.is_empty() || rv == "0") {
        opts.send_initial_events = Some(true);
        opts.resource_version_match = Some(RvMatch::NotOlderThan);
    }
}

/// `ValidateListOptions` as field errors (empty = valid). Watch rules apply iff `opts.watch`
/// (the `watch` query parameter), exactly like the real handler.
pub fn list_option_errors(opts: &ListOptions, watch_list_enabled: bool) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let rv = opts.resource_version.as_deref().unwrap_or("");
    let m = opts.resource_version_match.as_ref().map_or("", RvMatch::as_str);
    let cont = opts.continue_token.as_deref().unwrap_or("");
    if opts.watch {
        if opts.send_initial_events.is_some() {
            if m != MATCH_NOT_OLDER_THAN {
                errs.push(FieldError::forbidden(
                    "resourceVersionMatch",
                    "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                ));
            }
            if !watch_list_enabled {
                errs.push(FieldError::forbidden(
                    "sendInitialEvents",
                    "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
                ));
            }
        }
        if !m.is_empty() {
            if opts.send_initial_events.is_none() {
                errs.push(FieldError::forbidden(
                    "resourceVersionMatch",
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if m != MATCH_NOT_OLDER_THAN {
                errs.push(FieldError::not_supported("resourceVersionMatch", m, &[MATCH_NOT_OLDER_THAN]));
            }
            if !cont.is_empty() {
                errs.push(FieldError::forbidden(
                    "resourceVersionMatch",
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
        }
        return errs;
    }
    if !m.is_empty() {
        if rv.is_empty() {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if !cont.is_empty() {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if m != MATCH_EXACT && m != MATCH_NOT_OLDER_THAN {
            errs.push(FieldError::not_supported(
                "resourceVersionMatch",
                m,
                &[MATCH_EXACT, MATCH_NOT_OLDER_THAN, ""],
            ));
        }
        if m == MATCH_EXACT && rv == "0" {
            errs.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if opts.send_initial_events.is_some() {
        errs.push(FieldError::forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
    }
    errs
}

/// §C.1 handler-level validation: 422 `ListOptions.meta.k8s.io "" is invalid: ...`.
///
/// `verb` is accepted for the caller's convenience but, like kube-apiserver, the list/watch
/// rule set is chosen by `opts.watch` (so `/api/v1/watch/...` without `?watch=1` is validated
/// with the list rules). Call [`default_watch_list`] first. Only `List`/`Watch` are validated.
pub fn validate_list_options(opts: &ListOptions, verb: Verb, watch_list_enabled: bool) -> Result<(), Status> {
    if !matches!(verb, Verb::List | Verb::Watch) {
        return Ok(());
    }
    let errs = list_option_errors(opts, watch_list_enabled);
    if errs.is_empty() { Ok(()) } else { Err(Status::invalid_list_options(&errs)) }
}

/// What the storage layer extracts from a list request after its own checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListStorageOptions {
    /// The parsed `resourceVersion` (0 for ""/"0").
    pub resource_version: u64,
    /// The decoded `continue` token, if any.
    pub continue_token: Option<ContinueToken>,
}

/// The storage-level checks every *list* makes before reading (§C.1 400s, §D token decoding),
/// in the order of the cacher's `ListReadConsistency`: `continue` with rv not in {"", "0"} →
/// 400 `specifying resource version is not allowed when using continue`; then the token
/// (400 `invalid continue token: ...`); then a non-numeric rv → 400 `invalid resource version: ...`.
pub fn check_list_storage_options(opts: &ListOptions) -> Result<ListStorageOptions, Status> {
    check_list_storage_options_ruled(opts).map_err(|(_, status)| status)
}

/// [`check_list_storage_options`] with the rule that refused the request: a malformed token
/// has its own rule ([`Rule::MalformedContinueToken`]), the rest are option errors.
pub fn check_list_storage_options_ruled(opts: &ListOptions) -> Result<ListStorageOptions, (Rule, Status)> {
    let rv = opts.resource_version.as_deref().unwrap_or("");
    let mut continue_token = None;
    if let Some(c) = opts.continue_token.as_deref().filter(|c| !c.is_empty()) {
        if !rv.is_empty() && rv != "0" {
            return Err((Rule::InvalidListOptions, Status::continue_with_resource_version()));
        }
        continue_token =
            Some(ContinueToken::decode(c).map_err(|e| (Rule::MalformedContinueToken, Status::from(e)))?);
    }
    let resource_version = parse_resource_version(rv).map_err(|s| (Rule::InvalidResourceVersion, s))?;
    Ok(ListStorageOptions { resource_version, continue_token })
}

/// The `storage.InvalidError` text of `APIObjectVersioner.ParseResourceVersion`:
/// `resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`.
/// `""` and `"0"` parse to 0.
pub fn parse_resource_version_error(rv: &str) -> Result<u64, String> {
    if rv.is_empty() || rv == "0" {
        return Ok(0);
    }
    go_parse_uint(rv).map_err(|e| FieldError::invalid("resourceVersion", rv, e.to_string()).to_string())
}

/// §C.1 for lists: 400 BadRequest `invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`.
pub fn parse_resource_version(rv: &str) -> Result<u64, Status> {
    parse_resource_version_error(rv).map_err(|e| Status::invalid_list_resource_version(&e))
}

/// §C.1 for get/watch: the storage layer returns the raw `InvalidError`, which the apiserver
/// answers as a non-API error (500, empty reason, message `resourceVersion: Invalid value: ...`).
pub fn parse_resource_version_non_api(rv: &str) -> Result<u64, Status> {
    parse_resource_version_error(rv).map_err(|e| Status::non_api_error(&e))
}

/// Alias of [`parse_resource_version_non_api`] (get and watch).
pub fn parse_resource_version_for_get(rv: &str) -> Result<u64, Status> {
    parse_resource_version_non_api(rv)
}

/// A request refused before storage: the rule that refused it, the answer, and its verb when
/// the request got far enough to have one.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    pub rule: Rule,
    pub status: Status,
    pub verb: Option<Verb>,
    /// The feature gate whose value refused it: WatchList, off, for a watch with
    /// `sendInitialEvents`.
    pub gate: Option<super::features::Gate>,
}

/// [`parse_request_styled`] followed by the handler's list/watch steps: WatchList defaulting and
/// §C.1 validation (422), with the rule that refused the request. Storage-level checks
/// ([`check_list_storage_options`]) are left to the read path. The server serves every request
/// through this.
pub fn parse_and_validate_ruled(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    body_text: Option<&str>,
    watch_list_enabled: bool,
    style: ValueStyle,
) -> Result<ApiRequest, Box<Rejection>> {
    let mut req = parse_request_styled(method, target, content_type, body_text, style)
        .map_err(|(rule, status)| Box::new(Rejection { rule, status, verb: None, gate: None }))?;
    // A deletecollection lists first, with the list's options and their validation.
    let as_verb = match req.verb {
        Verb::DeleteCollection => Verb::List,
        v => v,
    };
    if matches!(as_verb, Verb::List | Verb::Watch) {
        default_watch_list(&mut req.options, watch_list_enabled);
        validate_list_options(&req.options, as_verb, watch_list_enabled).map_err(|status| {
            // `ValidateListOptions`: the WatchList gate, off, forbids `sendInitialEvents` on a watch.
            let gate =
                (!watch_list_enabled && req.options.watch && req.options.send_initial_events.is_some())
                    .then_some(super::features::Gate::WatchList);
            Box::new(Rejection { rule: Rule::InvalidListOptions, status, verb: Some(req.verb), gate })
        })?;
    }
    Ok(req)
}

/// [`parse_and_validate_ruled`] without the rule.
pub fn parse_and_validate(
    method: &str,
    target: &str,
    body_text: Option<&str>,
    watch_list_enabled: bool,
) -> Result<ApiRequest, Status> {
    parse_and_validate_ruled(method, target, None, body_text, watch_list_enabled, ValueStyle::default())
        .map_err(|r| r.status)
}
