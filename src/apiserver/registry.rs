//! The write path of the generic registry (k8s.io/apiserver `registry/generic/registry/store.go`
//! `Create`, `Update`, `Delete`): take the decoded body, ask the resource's [`strategy`](super::strategy),
//! fill in the system fields, then one etcd transaction ([`super::etcd3`]). Each write returns its
//! answer and the typed decision behind it.

use serde_json::Value;

use super::decision::{Path, Rule, Why};
use super::etcd3::{self, Preconditions, ReadAt, StorageError};
use super::fieldmanager;
use super::go::strconv::go_parse_uint;
use super::object::{self, ResourceVersion};
use super::patch;
use super::request::{ApiRequest, Verb};
use super::status::Status;
use super::strategy;
use crate::clock::Clock;
use crate::store::MvccStore;

/// What a write may touch: etcd, the clock (creation timestamps) and the uid source.
pub struct WriteCtx<'a> {
    pub etcd: &'a mut MvccStore,
    pub clock: &'a Clock,
    /// Source of deterministic uids.
    pub uid_seq: &'a mut u64,
    pub seed: u64,
}

/// A write's answer: status code and body, or the Status it failed with; and why.
pub type WriteResult = (Result<(u16, Value), Status>, Why);

/// The revision a stored object carries in `metadata.resourceVersion`.
fn stored_revision(obj: &Value) -> Option<i64> {
    object::resource_version(obj).and_then(|r| r.parse().ok())
}

fn body_of(req: &ApiRequest) -> Result<&Value, WriteResult> {
    req.body.as_ref().ok_or_else(|| (Err(Status::unknown_body_format()), Why::new(Rule::BodyRejected)))
}

/// The manager a non-apply write is recorded under: `fieldManager`, else the prefix of the
/// script's User-Agent (handlers `create.go` `managerOrUserAgent`).
fn manager_of(field_manager: Option<&str>) -> String {
    fieldmanager::manager_or_user_agent(field_manager, fieldmanager::SCRIPT_USER_AGENT)
}

/// `POST`: the field manager records the creator (`create.go`: `UpdateNoErrors` against a new
/// empty object), then `Txn If(mod_revision(key)==0) Then Put`.
pub fn create(ctx: &mut WriteCtx<'_>, req: &ApiRequest) -> WriteResult {
    let manager = manager_of(req.field_manager.as_deref());
    create_object(ctx, req, Some(&manager))
}

/// A create; `manager`: the non-apply writer to record (`None` when the caller — apply —
/// has set managedFields already).
fn create_object(ctx: &mut WriteCtx<'_>, req: &ApiRequest, manager: Option<&str>) -> WriteResult {
    let info = req.resource;
    let strategy = strategy::for_resource(info);
    let body = match body_of(req) {
        Ok(b) => b,
        Err(e) => return e,
    };
    // Decoded and checked by the request parser (`body::decode_create`).
    let mut obj = body.clone();
    let name = object::name(&obj).to_string();
    if object::resource_version(&obj).is_some() {
        return (Err(Status::resource_version_set_on_create()), Why::new(Rule::ResourceVersionOnCreate));
    }
    let errs = strategy.validate(&obj);
    if !errs.is_empty() {
        return (Err(Status::invalid(info, &name, &errs)), Why::new(Rule::ObjectInvalid));
    }
    if let Some(m) = manager {
        let schema = patch::Schema::of_resource(info.resource);
        fieldmanager::update(schema, None, &mut obj, m, &object::timestamp(ctx.clock));
    }
    strategy.prepare_for_create(&mut obj);
    *ctx.uid_seq += 1;
    object::set_meta(&mut obj, "uid", Value::String(object::make_uid(ctx.seed, *ctx.uid_seq)));
    object::set_meta(&mut obj, "creationTimestamp", Value::String(object::timestamp(ctx.clock)));
    if let (true, Some(ns)) = (info.namespaced, req.namespace.as_deref()) {
        object::set_meta(&mut obj, "namespace", Value::String(ns.to_string()));
    }
    // Stored and answered as Go encodes the decoded struct: empty `omitempty` maps/slices go.
    let mut obj = object::canonical(info, obj);
    object::omit_empty(&mut obj);
    let key = info.object_key(req.namespace.as_deref(), &name);
    if req.dry_run {
        // `DryRunnableStorage.Create`: AlreadyExists if the key is there, else the object as
        // prepared — uid and creationTimestamp set, no resourceVersion, nothing written.
        let why = Why::new(Rule::DryRun).path(Path::Etcd);
        return match etcd3::get(ctx.etcd, &key, ReadAt::Latest) {
            Ok(_) => (Err(Status::already_exists(info, &name)), why),
            Err(_) => (Ok((201, obj)), why),
        };
    }
    let mut why = Why::new(Rule::Create).path(Path::Etcd);
    match etcd3::create(ctx.etcd, &key, obj) {
        Ok(stored) => {
            why.revision = stored_revision(&stored);
            (Ok((201, object::canonical(info, stored))), why)
        }
        Err(e) => (Err(e.to_status(info, &name)), e.explain(why, ctx.etcd)),
    }
}

/// `PUT`: the field manager records the writer against the stored object (`update.go`'s
/// transformer), then `Txn If(mod_revision==rv) Then Put` (unconditional without a
/// resourceVersion); an object that encodes to the stored bytes is a no-op.
pub fn update(ctx: &mut WriteCtx<'_>, req: &ApiRequest) -> WriteResult {
    let manager = manager_of(req.field_manager.as_deref());
    update_object(ctx, req, Some(&manager))
}

/// An update; `manager` as for [`create_object`].
fn update_object(ctx: &mut WriteCtx<'_>, req: &ApiRequest, manager: Option<&str>) -> WriteResult {
    let info = req.resource;
    let strategy = strategy::for_resource(info);
    let url_name = req.name.as_deref().unwrap_or("");
    let body = match body_of(req) {
        Ok(b) => b,
        Err(e) => return e,
    };
    // Decoded and checked by the request parser (`body::decode_update`).
    let mut obj = body.clone();
    let key = info.object_key(req.namespace.as_deref(), url_name);
    // The registry's `tryUpdate` (`registry/generic/registry/store.go`): a missing object is a
    // 404 first; then the body's resourceVersion goes through `APIObjectVersioner.
    // ObjectResourceVersion` (`strconv.ParseUint`), whose error is not an API error (500, empty
    // reason, Go's text); 0 (or none) is an unconditional update, as both served strategies
    // allow (`AllowUnconditionalUpdate`).
    let parsed = object::resource_version(&obj).map(go_parse_uint);
    let expected = match &parsed {
        Some(Ok(n)) if *n > 0 => Some(ResourceVersion(*n).revision()),
        _ => None,
    };
    let rule = match (&parsed, expected) {
        (_, Some(_)) => Rule::Update,
        (Some(Ok(0)), None) => Rule::UpdateZeroResourceVersion,
        _ => Rule::UpdateUnconditional,
    };
    let mut why = Why::new(rule).path(Path::Etcd);
    why.rv = expected;
    let current = match etcd3::get(ctx.etcd, &key, ReadAt::Latest) {
        Ok(c) => c,
        Err(e) => return (Err(e.to_status(info, url_name)), e.explain(why, ctx.etcd)),
    };
    if let Some(Err(e)) = parsed {
        return (Err(Status::non_api_error(&e.to_string())), Why::new(Rule::InvalidResourceVersion));
    }
    let errs = strategy.validate(&obj);
    if !errs.is_empty() {
        return (Err(Status::invalid(info, url_name, &errs)), Why::new(Rule::ObjectInvalid));
    }
    // System fields come from the stored object.
    for f in ["uid", "creationTimestamp", "namespace"] {
        if let Some(v) = object::metadata(&current).and_then(|m| m.get(f)).cloned() {
            object::set_meta(&mut obj, f, v);
        }
    }
    // The field manager (`FieldManager.UpdateNoErrors`): the body's managedFields, or the
    // stored ones when it has none (`[]` resets them), updated with what this write changed.
    if let Some(m) = manager {
        let schema = patch::Schema::of_resource(info.resource);
        fieldmanager::update(schema, Some(&current), &mut obj, m, &object::timestamp(ctx.clock));
    }
    strategy.prepare_for_update(&mut obj, &current);
    let mut obj = object::canonical(info, obj);
    object::omit_empty(&mut obj);
    why.current_rv = stored_revision(&current);
    if req.dry_run {
        // `DryRunnableStorage.GuaranteedUpdate`: the same precondition against the stored
        // object, then the updated object as it would be written; nothing is written.
        why.rule = Rule::DryRun;
        if expected.is_some() && expected != why.current_rv {
            return (Err(Status::object_modified(info, url_name)), why);
        }
        return (Ok((200, obj)), why);
    }
    match etcd3::update(ctx.etcd, &key, obj, expected) {
        Ok((stored, written)) => {
            if !written {
                why.rule = Rule::UpdateNoOp;
            }
            why.revision = stored_revision(&stored);
            (Ok((200, object::canonical(info, stored))), why)
        }
        Err(e) => (Err(e.to_status(info, url_name)), e.explain(why, ctx.etcd)),
    }
}

/// `DELETE`: `Txn If(mod_revision==current) Then Delete`, with the request's preconditions.
pub fn delete(ctx: &mut WriteCtx<'_>, req: &ApiRequest) -> WriteResult {
    let info = req.resource;
    let strategy = strategy::for_resource(info);
    let name = req.name.as_deref().unwrap_or("");
    let key = info.object_key(req.namespace.as_deref(), name);
    let pre = Preconditions {
        resource_version: req.delete_options.precondition_resource_version.clone(),
        uid: req.delete_options.precondition_uid.clone(),
    };
    let returns_object = strategy.returns_deleted_object();
    let mut why =
        Why::new(if returns_object { Rule::DeleteReturnsObject } else { Rule::Delete }).path(Path::Etcd);
    if req.dry_run {
        // `DryRunnableStorage.Delete`: the object as it is, after the preconditions.
        why.rule = Rule::DryRun;
        return match etcd3::delete_dry_run(ctx.etcd, &key, &pre) {
            Ok(cur) if returns_object => (Ok((200, object::canonical(info, cur))), why),
            Ok(cur) => (Ok((200, Status::success_deleted(info, name, object::uid(&cur)).to_json())), why),
            Err(e) => (Err(e.to_status(info, name)), e.explain(why, ctx.etcd)),
        };
    }
    match etcd3::delete(ctx.etcd, &key, &pre) {
        Ok(last) => {
            why.revision = stored_revision(&last);
            if returns_object {
                (Ok((200, object::canonical(info, last))), why)
            } else {
                (Ok((200, Status::success_deleted(info, name, object::uid(&last)).to_json())), why)
            }
        }
        Err(e) => (Err(e.to_status(info, name)), e.explain(why, ctx.etcd)),
    }
}

/// `PATCH` (`endpoints/handlers/patch.go`): the current object, the patch applied to it, then
/// the ordinary update (the patched `metadata.resourceVersion` is its precondition: the current
/// one, unless the patch set another → 409; an unchanged object writes nothing). A missing
/// object is a 404, except for server-side apply, which creates it.
pub fn patch(ctx: &mut WriteCtx<'_>, req: &ApiRequest) -> WriteResult {
    // The console embed's module serves no PATCH (`script::extra`; its session refuses the
    // line first): what an apiserver answers for a verb a resource does not serve.
    if !cfg!(feature = "sandbox") {
        return (Err(Status::method_not_allowed()), Why::new(Rule::RequestRejected));
    }
    let info = req.resource;
    let name = req.name.as_deref().unwrap_or("");
    let Some(p) = &req.patch else {
        return (Err(Status::unknown_body_format()), Why::new(Rule::BodyRejected));
    };
    let key = info.object_key(req.namespace.as_deref(), name);
    let current = match etcd3::get(ctx.etcd, &key, ReadAt::Latest) {
        Ok(c) => Some(object::canonical(info, c)),
        Err(StorageError::NotFound) if p.ty.creates() => None,
        Err(e) => {
            let why = Why::new(Rule::Update).path(Path::Etcd);
            return (Err(e.to_status(info, name)), e.explain(why, ctx.etcd));
        }
    };
    let now = object::timestamp(ctx.clock);
    let apply = patch::ApplyOptions {
        field_manager: p.field_manager.as_deref().unwrap_or(""),
        force: p.force,
        now: &now,
    };
    let schema = patch::Schema::of_resource(info.resource);
    // `applyJSPatch` decodes the body strictly before applying it (after the object was found).
    if !p.ignore_field_validation
        && let Err(e) = patch::strict_decode(p.ty, &p.patch)
    {
        return (Err(e.to_status()), Why::new(Rule::PatchRejected));
    }
    let mut patched = match patch::apply_patch(p.ty, schema, current.as_ref(), &p.patch, Some(&apply)) {
        Ok(v) => v,
        Err(e) => return (Err(e.to_status()), Why::new(Rule::PatchRejected)),
    };
    // A JSON, merge or strategic patch records its writer as an update does
    // (`jsonPatcher`/`smpPatcher.applyPatchToCurrentObject`: `UpdateNoErrors`); apply has
    // recorded its manager already.
    if p.ty != patch::PatchType::Apply {
        let manager = manager_of(p.field_manager.as_deref());
        fieldmanager::update(schema, current.as_ref(), &mut patched, &manager, &now);
    }
    // `checkName`: the patched object must keep the URL's name and namespace.
    let patched_name = object::name(&patched);
    if !patched_name.is_empty() && patched_name != name {
        return (
            Err(Status::bad_request(&format!(
                "the name of the object ({patched_name}) does not match the name on the URL ({name})"
            ))),
            Why::new(Rule::PatchRejected),
        );
    }
    let text = patched.to_string();
    let decoded = match current {
        None => super::body::decode_create(info, req.namespace.as_deref().unwrap_or(""), &text),
        Some(_) => super::body::decode_update(info, req.namespace.as_deref().unwrap_or(""), name, &text),
    };
    let body = match decoded {
        Ok(b) => b,
        Err(status) => return (Err(status), Why::new(Rule::BodyRejected)),
    };
    let write = ApiRequest {
        verb: if current.is_none() { Verb::Create } else { Verb::Update },
        body: Some(body),
        patch: None,
        ..req.clone()
    };
    if current.is_none() { create_object(ctx, &write, None) } else { update_object(ctx, &write, None) }
}
