//! Renderings of the apiserver's decisions ([`crate::apiserver::decision`]): the read path and
//! its rule, what happened after routing, writes, rejections, and why a watch stream ended — in
//! English and 中文. One function per decision kind; each clause is built from the typed value
//! and its numbers only.

use super::{Lang, span};
use crate::apiserver::cacher::FRESHNESS_TIMEOUT;
use crate::apiserver::cacher::watch_cache::{LOWER_BOUND_CAPACITY, UPPER_BOUND_CAPACITY};
use crate::apiserver::decision::{
    EndReason, Ended, EtcdOp, EtcdRefusal, EtcdWhy, Outcome, Path, Rule, Semantics, Verb, Why,
};
use crate::cluster::{SettingName, SettingWhy};

/// How long a read waits for the watch cache to be fresh ([`FRESHNESS_TIMEOUT`]), in words.
fn fresh(lang: Lang) -> String {
    span(FRESHNESS_TIMEOUT, lang)
}

/// A number the decision did not record renders as "?" (never a guess).
fn n(v: Option<i64>) -> String {
    v.map_or_else(|| "?".to_string(), |v| v.to_string())
}

/// The explanation of an API request's answer.
pub fn request(w: &Why, lang: Lang) -> String {
    let rule = rule_clause(w, lang);
    let mut text = match semantics_clause(w, lang) {
        Some(sem) if !rule.is_empty() => format!("{sem}{}{rule}", arrow(w)),
        Some(sem) => sem,
        None => rule,
    };
    if let Some(o) = w.outcome {
        text.push_str(&lang.pick("; ".into(), "；".into()));
        text.push_str(&outcome_clause(w, o, lang));
    }
    if let (Some(g), Some(on)) = (w.gate, w.gate_enabled) {
        let name = g.name();
        text.push_str(&lang.pick(
            format!(" (decided by the feature gate {name}={on} on this apiserver)"),
            format!("（由这台 apiserver 上的特性门控 {name}={on} 决定）"),
        ));
    }
    if w.outcome.is_none()
        && w.verb == Some(Verb::List)
        && let Some(rev) = w.revision
    {
        text.push_str(&lang.pick(
            format!("; the list's resourceVersion {rev} is the revision it is consistent at"),
            format!("；列表的 resourceVersion {rev} 就是它保持一致的那个修订版本"),
        ));
    }
    lang.pick(format!("apiserver {}: {text}", w.apiserver), format!("apiserver {}：{text}", w.apiserver))
}

/// The separator between the semantics and the rule: reads name a path after a colon.
fn arrow(w: &Why) -> &'static str {
    match w.rule {
        Rule::WatchCacheOff | Rule::ExactFromEtcd | Rule::ContinueLatestFromEtcd => " ",
        _ => ": ",
    }
}

/// "get with resourceVersion=5 → Not older than 5" and its translations.
fn semantics_clause(w: &Why, lang: Lang) -> Option<String> {
    let s = w.semantics?;
    let rv = n(w.rv);
    let watch = w.verb == Some(Verb::Watch);
    let (en, zh) = match s {
        Semantics::MostRecent => {
            ("resourceVersion unset → Most recent".to_string(), "未设置 resourceVersion → 最新（Most recent）".to_string())
        }
        Semantics::Any => ("resourceVersion=\"0\" → Any".to_string(), "resourceVersion=\"0\" → 任意（Any）".to_string()),
        Semantics::NotOlderThan => {
            (format!("resourceVersion={rv} → Not older than {rv}"), format!("resourceVersion={rv} → 不早于 {rv}（NotOlderThan）"))
        }
        Semantics::Exact if watch => {
            (format!("resourceVersion={rv} → start right after exactly revision {rv} (Start at Exact)"), format!("resourceVersion={rv} → 恰好从修订版本 {rv} 之后开始（Start at Exact）"))
        }
        Semantics::Exact => (
            format!("resourceVersionMatch=Exact with resourceVersion={rv} → exactly revision {rv}"),
            format!("resourceVersionMatch=Exact 且 resourceVersion={rv} → 恰好是修订版本 {rv}"),
        ),
        Semantics::LegacyExact => (
            format!("limit with resourceVersion={rv} and no resourceVersionMatch → the legacy Exact rule: exactly revision {rv}"),
            format!("带 limit 的 resourceVersion={rv} 且未设置 resourceVersionMatch → 旧版 Exact 规则：恰好是修订版本 {rv}"),
        ),
        Semantics::Continue => (
            format!("continue token (rv {rv}) → the next page of the same list, consistent at revision {rv}"),
            format!("continue 令牌（rv {rv}）→ 同一个列表的下一页，与修订版本 {rv} 一致"),
        ),
        Semantics::ContinueLatest => (
            "continue token with rv -1 → an inconsistent continuation: the rest of the list at the latest revision, from the token's start key (the pages do not form one snapshot)".to_string(),
            "rv 为 -1 的 continue 令牌 → 不一致的续读：从令牌的起始键开始，按最新修订版本读取列表的剩余部分（各页不构成同一个快照）".to_string(),
        ),
        Semantics::SendInitialEvents => (
            "sendInitialEvents=true → the current state as ADDED events, then changes".to_string(),
            "sendInitialEvents=true → 先以 ADDED 事件发送当前状态，再发送变更".to_string(),
        ),
    };
    let (en, zh) = match w.verb {
        Some(Verb::Get) => (format!("get with {en}"), format!("get 请求，{zh}")),
        Some(Verb::Watch) => (format!("watch with {en}"), format!("watch 请求，{zh}")),
        _ => (en, zh),
    };
    Some(lang.pick(en, zh))
}

/// Where an etcd read lands, by semantics: at `rv` exactly, or at etcd's current revision.
fn etcd_target(w: &Why, lang: Lang) -> String {
    let rv = n(w.rv);
    match w.semantics {
        Some(Semantics::Exact | Semantics::LegacyExact | Semantics::Continue) => {
            lang.pick(format!("etcd at revision {rv}"), format!("etcd 的修订版本 {rv}"))
        }
        Some(Semantics::NotOlderThan) => lang.pick(
            format!("etcd at its current revision, checked against {rv}"),
            format!("etcd 的当前修订版本，并检查它不早于 {rv}"),
        ),
        _ => lang.pick("etcd at its current revision".into(), "etcd 的当前修订版本".into()),
    }
}

fn rule_clause(w: &Why, lang: Lang) -> String {
    let rv = n(w.rv);
    let cache_rv = n(w.cache_rv);
    let rev = n(w.revision);
    let get = w.verb == Some(Verb::Get);
    match w.rule {
        Rule::RequestRejected => lang.pick(
            "rejected while decoding the request (URL, method or body)".into(),
            "解码请求时被拒绝（URL、方法或请求体）".into(),
        ),
        Rule::InvalidListOptions => lang.pick(
            "rejected by ListOptions validation: these query parameters may not be combined".into(),
            "被 ListOptions 校验拒绝：这些查询参数不能这样组合".into(),
        ),
        Rule::MalformedContinueToken => lang.pick(
            "the continue token could not be decoded → 400 BadRequest (a malformed token, not an expired one: only a well-formed token whose revision was compacted gets 410)".into(),
            "continue 令牌无法解码 → 400 BadRequest（令牌格式错误，而不是过期：只有格式正确但其修订版本已被压缩的令牌才会得到 410）".into(),
        ),
        Rule::FieldSelectorNotSupported => lang.pick(
            "the field selector names a field this resource cannot be selected by → 400 BadRequest (each kind has its own field labels: ConfigMaps only metadata.name and metadata.namespace)".into(),
            "字段选择器用了该资源不支持的字段 → 400 BadRequest（每种资源有自己的可选字段：ConfigMap 只有 metadata.name 和 metadata.namespace）".into(),
        ),
        Rule::PatchRejected => lang.pick(
            "the patch could not be applied to the current object (invalid patch or options, or a server-side apply conflict with another field manager — not a resourceVersion conflict)".into(),
            "补丁无法应用到当前对象（补丁或选项无效，或与另一个字段管理者发生服务端应用冲突 —— 不是 resourceVersion 冲突）".into(),
        ),
        Rule::DryRun => lang.pick(
            "dryRun=All: the write's answer, but nothing was written to etcd (no new revision)".into(),
            "dryRun=All：返回写操作的结果，但没有写入 etcd（没有新的修订版本）".into(),
        ),
        Rule::DeleteCollection => lang.pick(
            "deletecollection: a list, then one delete per listed object, each its own etcd transaction and revision; the answer is the list".into(),
            "deletecollection：先列出，再逐个删除列出的对象，每个删除都是独立的 etcd 事务和修订版本；返回的是那次列表".into(),
        ),
        Rule::InvalidResourceVersion => lang.pick(
            "resourceVersion is not a number the storage layer can parse".into(),
            "resourceVersion 不是存储层能解析的数字".into(),
        ),
        Rule::WatchCacheOff => lang.pick(
            format!("(watch cache off) → {}", etcd_target(w, Lang::En)),
            format!("（watch cache 已关闭）→ {}", etcd_target(w, Lang::Zh)),
        ),
        Rule::GetFromEtcd => lang.pick("always read from etcd".into(), "总是从 etcd 读取".into()),
        Rule::ConsistentReadFromEtcd => lang.pick(
            "ConsistentListFromCache is off, so served by etcd at its current revision".into(),
            "ConsistentListFromCache 未开启，因此由 etcd 按当前修订版本提供".into(),
        ),
        Rule::ConsistentReadFromCache => {
            let etcd = n(w.etcd_revision);
            match w.outcome {
                Some(_) => lang.pick(
                    format!("etcd's current revision ({etcd}) from a quorum read, then the watch cache once it has caught up (ConsistentListFromCache)"),
                    format!("先以 quorum 读取得到 etcd 的当前修订版本（{etcd}），等 watch cache 追上后再由它提供（ConsistentListFromCache）"),
                ),
                None => lang.pick(
                    format!("etcd's current revision from a quorum read, then the watch cache once it has caught up (ConsistentListFromCache); etcd was at {etcd} and the cache reached it (now {cache_rv})"),
                    format!("先以 quorum 读取得到 etcd 的当前修订版本，等 watch cache 追上后再由它提供（ConsistentListFromCache）；etcd 当时在 {etcd}，缓存已追上（现在是 {cache_rv}）"),
                ),
            }
        }
        Rule::AnyFromCache if get => lang.pick(
            format!("the watch cache's current object (at {cache_rv}; may be stale or missing)"),
            format!("watch cache 中的当前对象（缓存在 {cache_rv}；可能过时或不存在）"),
        ),
        Rule::AnyFromCache => lang.pick(
            format!("the watch cache's current state (at {cache_rv}), no waiting; limit is ignored"),
            format!("watch cache 的当前状态（在 {cache_rv}），不等待；limit 被忽略"),
        ),
        Rule::NotOlderThanFromCache if get => lang.pick(
            format!("the cache's current object once it has seen {rv} — never the version at {rv}"),
            format!("缓存见到 {rv} 之后的当前对象——绝不是 {rv} 时的那个版本"),
        ),
        Rule::NotOlderThanFromCache => lang.pick(
            format!("wait (at most {}) for the watch cache to reach {rv}, then its current state (at {cache_rv})", fresh(Lang::En)),
            format!("等待（最多 {}）watch cache 达到 {rv}，然后给出它的当前状态（在 {cache_rv}）", fresh(Lang::Zh)),
        ),
        Rule::PaginatedListFromEtcd => lang.pick(
            format!("in 1.30 every paginated list except rv=0 is served by etcd at its current revision, checked against {rv}"),
            format!("在 1.30 中，除 rv=0 外的所有分页列表都由 etcd 按当前修订版本提供，并检查它不早于 {rv}"),
        ),
        Rule::ExactFromCacheSnapshot => match w.snapshot_rv {
            Some(snap) => lang.pick(
                format!("the watch cache's snapshot (ListFromCacheSnapshot): served from the cache snapshot at {snap}"),
                format!("watch cache 的快照（ListFromCacheSnapshot）：由缓存在 {snap} 的快照提供"),
            ),
            None => lang.pick(
                format!("the watch cache's snapshot at {rv} (ListFromCacheSnapshot), else etcd at {rv}"),
                format!("watch cache 在 {rv} 的快照（ListFromCacheSnapshot），没有则读 etcd 的 {rv}"),
            ),
        },
        Rule::ExactFromEtcd => lang.pick(
            format!("→ etcd at revision {rv} (ListFromCacheSnapshot is off: no cache snapshots before 1.34)"),
            format!("→ etcd 的修订版本 {rv}（ListFromCacheSnapshot 未开启：1.34 之前缓存没有快照）"),
        ),
        Rule::ContinueLatestFromEtcd => lang.pick(
            "→ etcd at its current revision (ListFromCacheSnapshot is off: before 1.34 the watch cache has no snapshots and serves no continuation)".into(),
            "→ etcd 的当前修订版本（ListFromCacheSnapshot 未开启：1.34 之前 watch cache 没有快照，不处理任何 continue）".into(),
        ),
        Rule::WatchStateFromCache => lang.pick(
            format!("served by the watch cache: Get State and Start at Any: the cache's (possibly stale) state as {} ADDED events at RV {cache_rv}, in key order — not revision order — then changes after {cache_rv}", count(w.initial_events)),
            format!("由 watch cache 提供：获取状态并从任意版本开始：缓存（可能过时）的状态以 {} 个 ADDED 事件发送，位于 RV {cache_rv}，按键的顺序——不是修订版本的顺序——然后发送 {cache_rv} 之后的变更", count(w.initial_events)),
        ),
        Rule::WatchListFromCache => {
            let waited = w.etcd_revision.map(|e| {
                (
                    format!("waited for the cache to reach etcd's revision {e}, then "),
                    format!("先等待缓存达到 etcd 的修订版本 {e}，然后"),
                )
            });
            let (wen, wzh) = waited.unwrap_or_default();
            let bm = w.end_bookmark == Some(true);
            lang.pick(
                format!(
                    "served by the watch cache: {wen}the cache's current state ({} ADDED, in key order) at RV {cache_rv}{}, then changes (never 410, even for an old rv)",
                    count(w.initial_events),
                    if bm { ", then the initial-events-end BOOKMARK" } else { "" }
                ),
                format!(
                    "由 watch cache 提供：{wzh}发送缓存的当前状态（{} 个 ADDED，按键的顺序），位于 RV {cache_rv}{}，再发送变更（即使 rv 很旧也不会 410）",
                    count(w.initial_events),
                    if bm { "，随后是 initial-events-end BOOKMARK" } else { "" }
                ),
            )
        }
        Rule::WatchNoInitialState => lang.pick(
            format!("served by the watch cache: no initial state; changes after {}", n(w.start_rv)),
            format!("由 watch cache 提供：不发送初始状态；只发送 {} 之后的变更", n(w.start_rv)),
        ),
        Rule::WatchFromCacheHistory => match w.outcome {
            Some(Outcome::CacheWindow) => lang.pick(
                "served by the watch cache, from its history window".into(),
                "由 watch cache 从它的历史窗口提供".into(),
            ),
            _ => lang.pick(
                format!("served by the watch cache: {} buffered changes after {rv} from the cache's history (oldest startable RV {}), then new ones", count(w.initial_events), n(w.oldest_startable_rv)),
                format!("由 watch cache 提供：先从缓存历史中发送 {rv} 之后缓冲的 {} 个变更（最早可起始 RV 为 {}），再发送新变更", count(w.initial_events), n(w.oldest_startable_rv)),
            ),
        },
        Rule::WatchAheadOfCache => lang.pick(
            format!("served by the watch cache: rv {rv} is ahead of the cache ({cache_rv}) → no error; changes up to {rv} are skipped"),
            format!("由 watch cache 提供：rv {rv} 比缓存（{cache_rv}）更新 → 不报错；{rv} 及之前的变更被跳过"),
        ),
        Rule::WatchListFromEtcd => {
            let e = w.etcd_revision;
            let next = n(e.map(|e| e.saturating_add(1)));
            lang.pick(
                format!("watch cache off → etcd: a list at revision {} as {} initial ADDED events (key order), then changes from revision {next}", n(e), count(w.initial_events)),
                format!("watch cache 已关闭 → etcd：在修订版本 {} 列出，作为 {} 个初始 ADDED 事件（按键的顺序），然后发送从修订版本 {next} 起的变更", n(e), count(w.initial_events)),
            )
        }
        Rule::WatchFromEtcd => {
            let s = n(w.start_rv);
            let next = n(w.start_rv.map(|s| s.saturating_add(1)));
            lang.pick(
                format!("watch cache off → etcd watch from resourceVersion={s}: starts strictly after {s} (at revision {next}); no bookmarks on this path"),
                format!("watch cache 已关闭 → 从 resourceVersion={s} 开始的 etcd watch：严格从 {s} 之后开始（修订版本 {next}）；这条路径没有 bookmark"),
            )
        }
        Rule::Create => match w.outcome {
            Some(_) => lang.pick(
                "Txn If(mod_revision(key)==0) Then Put".into(),
                "Txn If(mod_revision(key)==0) Then Put".into(),
            ),
            None => lang.pick(
                format!("created with Txn If(mod_revision(key)==0) Then Put → new revision {rev} is its resourceVersion"),
                format!("以 Txn If(mod_revision(key)==0) Then Put 创建 → 新修订版本 {rev} 就是它的 resourceVersion"),
            ),
        },
        Rule::Update => match w.outcome {
            Some(_) => lang.pick(format!("Txn If(mod_revision=={rv}) Then Put"), format!("Txn If(mod_revision=={rv}) Then Put")),
            None => lang.pick(
                format!("Txn If(mod_revision=={rv}) Then Put → new revision {rev}"),
                format!("Txn If(mod_revision=={rv}) Then Put → 新修订版本 {rev}"),
            ),
        },
        Rule::UpdateUnconditional => match w.outcome {
            Some(_) => lang.pick(
                "no resourceVersion in the body → unconditional update".into(),
                "请求体中没有 resourceVersion → 无条件更新".into(),
            ),
            None => lang.pick(
                format!("no resourceVersion in the body → unconditional update → new revision {rev}"),
                format!("请求体中没有 resourceVersion → 无条件更新 → 新修订版本 {rev}"),
            ),
        },
        Rule::UpdateZeroResourceVersion => match w.outcome {
            Some(_) => lang.pick(
                "resourceVersion \"0\" in the body counts as none → unconditional update".into(),
                "请求体中的 resourceVersion \"0\" 视同未设置 → 无条件更新".into(),
            ),
            None => lang.pick(
                format!("resourceVersion \"0\" in the body counts as none → unconditional update → new revision {rev}"),
                format!("请求体中的 resourceVersion \"0\" 视同未设置 → 无条件更新 → 新修订版本 {rev}"),
            ),
        },
        Rule::UpdateNoOp => lang.pick(
            format!("the new object encodes to the same bytes as the stored one → no-op: nothing written, resourceVersion stays {}", n(w.current_rv)),
            format!("新对象编码后与已存储的字节完全相同 → 空操作：什么都不写，resourceVersion 仍是 {}", n(w.current_rv)),
        ),
        Rule::Delete | Rule::DeleteReturnsObject => {
            let base = match w.outcome {
                Some(_) => lang.pick(
                    "Txn If(mod_revision==current) Then Delete".into(),
                    "Txn If(mod_revision==current) Then Delete".into(),
                ),
                None => lang.pick(
                    format!("deleted with Txn If(mod_revision==current) Then Delete → the delete is revision {rev}"),
                    format!("以 Txn If(mod_revision==current) Then Delete 删除 → 这次删除是修订版本 {rev}"),
                ),
            };
            if w.rule == Rule::DeleteReturnsObject && w.outcome.is_none() {
                format!(
                    "{base}{}",
                    lang.pick(
                        "; pods return their last state with that resourceVersion".into(),
                        "；Pod 会返回带有该 resourceVersion 的最后状态".into()
                    )
                )
            } else {
                base
            }
        }
        Rule::BodyRejected => {
            lang.pick("the object in the body was rejected".into(), "请求体中的对象被拒绝".into())
        }
        Rule::ResourceVersionOnCreate => lang.pick(
            "create with a resourceVersion in the body is refused by the storage layer".into(),
            "请求体中带有 resourceVersion 的创建会被存储层拒绝".into(),
        ),
        Rule::ObjectInvalid => lang.pick(
            "the object failed its resource's validation → 422 Invalid".into(),
            "对象未通过该资源的校验 → 422 Invalid".into(),
        ),
        Rule::NoSuchApiserver => lang.pick("no such apiserver".into(), "没有这个 apiserver".into()),
    }
}

fn count(v: Option<usize>) -> String {
    v.map_or_else(|| "?".to_string(), |v| v.to_string())
}

fn outcome_clause(w: &Why, o: Outcome, lang: Lang) -> String {
    let rv = n(w.rv);
    let cache_rv = n(w.cache_rv);
    let compact = n(w.compact_revision);
    match o {
        Outcome::CacheNotReady => lang.pick(
            "the watch cache is not ready, so etcd serves it".into(),
            "watch cache 尚未就绪，因此由 etcd 提供".into(),
        ),
        Outcome::CacheInitializing => lang.pick(
            format!("but the watch cache is still initialising → 429 (Retry-After: {})", n(w.retry_after)),
            format!("但 watch cache 仍在初始化 → 429（Retry-After: {}）", n(w.retry_after)),
        ),
        Outcome::FutureRevisionUnmapped => lang.pick(
            format!("etcd refused the revision: it is ahead of etcd's {} (\"required revision is a future revision\"); before 1.34 the apiserver does not map that error → 500 (1.34+: 504 Too large resource version)", n(w.etcd_revision)),
            format!("etcd 拒绝了这个修订版本：它超前于 etcd 的 {}（\"required revision is a future revision\"）；1.34 之前 apiserver 不转换这个错误 → 500（1.34 起：504 Too large resource version）", n(w.etcd_revision)),
        ),
        Outcome::CacheWaitedReady => lang.pick(
            "the watch cache was still initialising, so the request waited until it was ready (Kubernetes 1.30: no 429 yet)".into(),
            "watch cache 仍在初始化，所以请求一直等到它就绪（Kubernetes 1.30：还没有 429）".into(),
        ),
        Outcome::CacheNotFresh => {
            let target = n(w.etcd_revision.or(w.rv));
            lang.pick(
                format!("the cache did not reach {target} within {} (it is at {cache_rv}) → 504", fresh(Lang::En)),
                format!("缓存在 {}内没有达到 {target}（它在 {cache_rv}）→ 504", fresh(Lang::Zh)),
            )
        }
        Outcome::ConsistentReadTimeout => lang.pick(
            format!("the cache did not reach etcd's revision {} within {} (it is at {cache_rv}) → fall back to etcd", n(w.etcd_revision), fresh(Lang::En)),
            format!("缓存在 {}内没有达到 etcd 的修订版本 {}（它在 {cache_rv}）→ 回退到 etcd", fresh(Lang::Zh), n(w.etcd_revision)),
        ),
        Outcome::ConsistentReadTimeoutNoFallback => lang.pick(
            format!("the cache did not reach etcd's revision {} within {} (it is at {cache_rv}) → 429 (Retry-After: {}) instead of falling back to etcd", n(w.etcd_revision), fresh(Lang::En), n(w.retry_after)),
            format!("缓存在 {}内没有达到 etcd 的修订版本 {}（它在 {cache_rv}）→ 429（Retry-After: {}），不回退到 etcd", fresh(Lang::Zh), n(w.etcd_revision), n(w.retry_after)),
        ),
        Outcome::SnapshotMissing => lang.pick(
            format!("the cache holds no snapshot at {rv} (older than its history, relisted, or below the known compaction) → etcd at {rv}"),
            format!("缓存没有 {rv} 的快照（早于它的历史、重新 list 过，或低于已知的压缩点）→ 读 etcd 的 {rv}"),
        ),
        Outcome::EtcdCompacted => lang.pick(
            format!("410 from etcd compaction: the revision asked for ({rv}) is below etcd's compact revision {compact}"),
            format!("etcd 压缩导致 410：请求的修订版本（{rv}）低于 etcd 的压缩修订版本 {compact}"),
        ),
        Outcome::ContinueCompacted => lang.pick(
            format!("410: the token's revision {rv} is below etcd's compact revision {compact}, so this snapshot is gone; the Status offers a continue token with rv -1 that continues at the latest revision (an inconsistent list), or the client lists again from the start"),
            format!("410：令牌的修订版本 {rv} 低于 etcd 的压缩修订版本 {compact}，这个快照已不存在；Status 提供了一个 rv 为 -1 的 continue 令牌，可按最新修订版本继续（不一致的列表），或者客户端从头重新 list"),
        ),
        Outcome::CacheWindow => lang.pick(
            format!("410 from the watch cache's history window: rv {rv} is older than the oldest startable RV {} (etcd's compaction has nothing to do with it); the stream ends at once with an ERROR", n(w.oldest_startable_rv)),
            format!("watch cache 历史窗口导致 410：rv {rv} 早于最早可起始的 RV {}（与 etcd 的压缩无关）；流立即以 ERROR 结束", n(w.oldest_startable_rv)),
        ),
        Outcome::NotFound => lang.pick("the object does not exist → 404 NotFound".into(), "对象不存在 → 404 NotFound".into()),
        Outcome::TooLargeResourceVersion => lang.pick(
            format!("etcd is at {}, behind resourceVersion {rv} → 504 Too large resource version", n(w.etcd_revision)),
            format!("etcd 在 {}，落后于 resourceVersion {rv} → 504 Too large resource version", n(w.etcd_revision)),
        ),
        Outcome::AlreadyExists => lang.pick(
            "the key exists → 409 AlreadyExists".into(),
            "键已存在 → 409 AlreadyExists".into(),
        ),
        Outcome::Conflict => lang.pick(
            format!("the body's resourceVersion {rv} ≠ the stored mod_revision {} → 409 Conflict", n(w.current_rv)),
            format!("请求体的 resourceVersion {rv} ≠ 已存储的 mod_revision {} → 409 Conflict", n(w.current_rv)),
        ),
        Outcome::PreconditionFailed => lang.pick(
            "a precondition (uid or resourceVersion) did not hold → 409 Conflict".into(),
            "前置条件（uid 或 resourceVersion）不成立 → 409 Conflict".into(),
        ),
        Outcome::Internal => lang.pick("etcd returned an internal error → 500".into(), "etcd 返回内部错误 → 500".into()),
    }
}

/// The explanation of a watch stream's end.
pub fn ended(e: &Ended, lang: Lang) -> String {
    let text = match e.ended {
        EndReason::CacheWindow => lang.pick(
            format!("ERROR 410 Expired: resourceVersion {} is older than the watch cache's history window (oldest startable RV {}); etcd's compaction has nothing to do with it — the client lists again", n(e.rv), n(e.oldest_startable_rv)),
            format!("ERROR 410 Expired：resourceVersion {} 早于 watch cache 的历史窗口（最早可起始 RV 为 {}）；与 etcd 的压缩无关——客户端需要重新 list", n(e.rv), n(e.oldest_startable_rv)),
        ),
        EndReason::EtcdCompacted if e.cache_relisted == Some(true) => lang.pick(
            "etcd compaction cancelled the watch cache's own etcd watch; the cache relisted and closed every cache watcher cleanly (no ERROR)".into(),
            "etcd 压缩取消了 watch cache 自己的 etcd watch；缓存重新 list，并干净地关闭了所有缓存 watcher（没有 ERROR）".into(),
        ),
        EndReason::EtcdCompacted => lang.pick(
            "ERROR 410 Expired: etcd compacted the revision this watch still needed".into(),
            "ERROR 410 Expired：etcd 压缩掉了这个 watch 仍需要的修订版本".into(),
        ),
        EndReason::SlowConsumer => {
            let c = count(e.channel_size);
            lang.pick(
                format!("terminated as a slow watcher: its consumer stopped reading, its {c}+1+{c} event buffer filled up and the dispatch budget ran out (the stream just ends: no ERROR, no 410)"),
                format!("作为慢 watcher 被终止：它的消费者停止读取，{c}+1+{c} 个事件的缓冲区已满，分发预算耗尽（流直接结束：没有 ERROR，也没有 410）"),
            )
        }
        EndReason::Timeout => lang.pick(
            "timeoutSeconds reached: the server ended the watch cleanly".into(),
            "到达 timeoutSeconds：服务器干净地结束了 watch".into(),
        ),
        EndReason::Cancelled => lang.pick("canceled by the client".into(), "被客户端取消".into()),
        EndReason::Restart => lang.pick("the apiserver restarted".into(), "apiserver 重启了".into()),
        EndReason::CacheOff => lang.pick("the watch cache was switched off".into(), "watch cache 被关闭了".into()),
        EndReason::CacheNotFresh => lang.pick(
            format!("ERROR 504: the watch cache did not reach {} within {} (it is at {})", n(e.rv), fresh(Lang::En), n(e.cache_rv)),
            format!("ERROR 504：watch cache 在 {}内没有达到 {}（它在 {}）", fresh(Lang::Zh), n(e.rv), n(e.cache_rv)),
        ),
        EndReason::PrevKvMissing => lang.pick(
            "ERROR 500: an etcd event came without its previous value (compacted away), which the watcher cannot turn into a frame".into(),
            "ERROR 500：一个 etcd 事件缺少它的前一个值（已被压缩），watcher 无法把它转成帧".into(),
        ),
    };
    let path = match e.path {
        Some(Path::Etcd) => lang.pick(" (served by etcd)".into(), "（由 etcd 提供）".into()),
        Some(Path::WatchCache | Path::CacheSnapshot) => {
            lang.pick(" (served by the watch cache)".into(), "（由 watch cache 提供）".into())
        }
        None => String::new(),
    };
    lang.pick(
        format!("apiserver {}: {text}{path}", e.apiserver),
        format!("apiserver {}：{text}{path}", e.apiserver),
    )
}

/// The explanation of a `set` line: what the setting controls.
pub fn setting(w: &SettingWhy, lang: Lang) -> String {
    let v = &w.value;
    let (en, zh) = match w.setting {
        SettingName::Apiservers => (
            format!("{v} apiserver(s) over the one etcd, each with its own watch caches"),
            format!("{v} 个 apiserver 共用同一个 etcd，各自有自己的 watch cache"),
        ),
        SettingName::Etcd => (
            format!("etcd {v}'s compaction rules (whether a tombstone at the compaction revision is kept)"),
            format!("etcd {v} 的压缩规则（压缩修订版本处的墓碑是否保留）"),
        ),
        SettingName::Kubernetes => (
            format!("Kubernetes {v}'s default feature gates decide which path serves each read"),
            format!("Kubernetes {v} 的默认特性门控决定每个读请求走哪条路径"),
        ),
        SettingName::FeatureGates => (
            format!(
                "--feature-gates={v}: these gates take the values given on this apiserver (the rest keep its release's defaults)"
            ),
            format!("--feature-gates={v}：这台 apiserver 上这些门控取给定的值（其余保持该版本的默认值）"),
        ),
        SettingName::ClientGo => (
            format!(
                "the clients (pager, informers) behave as client-go {v} (auto: the release of apiserver 1): its reflector's back-off and watch restarts"
            ),
            format!(
                "客户端（pager、informer）按 client-go {v} 的行为运行（auto：跟随 apiserver 1 的版本）：它的 reflector 的退避和 watch 重启方式"
            ),
        ),
        SettingName::WatchCache => (
            format!(
                "--watch-cache={v}: off closes every cache watcher and sends every read and watch to etcd"
            ),
            format!("--watch-cache={v}：关闭时会结束所有缓存 watcher，所有读和 watch 都直接走 etcd"),
        ),
        SettingName::CacheLag => (
            format!("what etcd sends reaches this apiserver's watch caches {v} later"),
            format!("etcd 发出的内容晚 {v} 才到达这个 apiserver 的 watch cache"),
        ),
        SettingName::CacheCapacity => (
            format!(
                "the watch cache's history window holds {v} events (auto: it grows and shrinks between {LOWER_BOUND_CAPACITY} and {UPPER_BOUND_CAPACITY})"
            ),
            format!(
                "watch cache 的历史窗口容纳 {v} 个事件（auto：在 {LOWER_BOUND_CAPACITY} 到 {UPPER_BOUND_CAPACITY} 之间自动伸缩）"
            ),
        ),
        SettingName::CacheInitDelay => (
            format!("after a restart the watch cache takes {v} to be ready; until then it answers 429"),
            format!("重启后 watch cache 需要 {v} 才就绪；在此之前它回答 429"),
        ),
        SettingName::CompactionInterval => (
            format!("the apiserver's compactor compacts etcd every {v}"),
            format!("apiserver 的压缩器每 {v} 压缩一次 etcd"),
        ),
        SettingName::Compactor => {
            (format!("the apiserver's compactor is {v}"), format!("apiserver 的压缩器：{v}"))
        }
        SettingName::ClockEpoch => (
            format!(
                "object timestamps (creationTimestamp, managedFields) count from {v} at simulated time 0"
            ),
            format!("对象时间戳（creationTimestamp、managedFields）以模拟时间 0 对应的 {v} 为起点"),
        ),
        SettingName::Explain => (
            format!(
                "explain {v}: outputs carry the engine's decision (\"why\") and its English rendering (\"explain\")"
            ),
            format!("explain {v}：输出带上引擎的决定（\"why\"）及其英文说明（\"explain\"）"),
        ),
    };
    let scope = match w.apiserver {
        Some(n) => lang.pick(format!("apiserver {n}: "), format!("apiserver {n}：")),
        None => lang.pick("the whole cluster: ".into(), "整个集群：".into()),
    };
    format!("{scope}{}", lang.pick(en, zh))
}

/// The explanation of an etcd operation (`etcd put|get|del|compact`, `compact <rev>`).
pub fn etcd(w: &EtcdWhy, lang: Lang) -> String {
    let r = w.revision;
    let at = n(w.at);
    let floor = n(w.compacted);
    if let Some(refused) = w.refused {
        let op = match w.etcd {
            EtcdOp::Compact => lang.pick("Compact".into(), "压缩".into()),
            _ => lang.pick("Range".into(), "Range 读取".into()),
        };
        let (en, zh) = match (refused, w.etcd) {
            (EtcdRefusal::Compacted, EtcdOp::Compact) => (
                format!(
                    "etcd refused the {op} to revision {at}: it is not above the compact revision {floor}"
                ),
                format!("etcd 拒绝了到修订版本 {at} 的{op}：它不高于已压缩到的修订版本 {floor}"),
            ),
            (EtcdRefusal::Compacted, _) => (
                format!(
                    "etcd refused the {op} at revision {at}: it is below the compact revision {floor}, whose older revisions are gone"
                ),
                format!(
                    "etcd 拒绝了在修订版本 {at} 的{op}：它低于已压缩到的修订版本 {floor}，更早的修订版本已被删除"
                ),
            ),
            (EtcdRefusal::FutureRevision, _) => (
                format!("etcd refused the {op} at revision {at}: it is above the current revision {r}"),
                format!("etcd 拒绝了在修订版本 {at} 的{op}：它高于当前修订版本 {r}"),
            ),
        };
        return lang.pick(en, zh);
    }
    let (en, zh) = match w.etcd {
        EtcdOp::Put => (
            format!(
                "etcd Put: the write got the next revision of the whole store, {r}; the key's mod_revision is now {r}"
            ),
            format!("etcd Put：这次写入得到整个存储的下一个修订版本 {r}；该 key 的 mod_revision 现在是 {r}"),
        ),
        EtcdOp::Range => {
            let count = n(w.count);
            let (en_at, zh_at) = match w.at {
                Some(a) => {
                    (format!("at revision {a} (current {r})"), format!("在修订版本 {a}（当前为 {r}）"))
                }
                None => (format!("at the current revision {r}"), format!("在当前修订版本 {r}")),
            };
            let (en_more, zh_more) = if w.more == Some(true) {
                ("; the limit cut it short (more=true)", "；limit 截断了结果（more=true）")
            } else {
                ("", "")
            };
            (
                format!(
                    "etcd Range {en_at}: {count} key(s) in the range{en_more}; a read creates no revision"
                ),
                format!("etcd Range 读取{zh_at}：范围内有 {count} 个 key{zh_more}；读取不产生新修订版本"),
            )
        }
        EtcdOp::DeleteRange => match w.count {
            Some(0) => (
                format!("etcd DeleteRange matched no key: nothing was written, the revision stays {r}"),
                format!("etcd DeleteRange 没有匹配到任何 key：什么都没写，修订版本仍是 {r}"),
            ),
            c => (
                format!("etcd DeleteRange deleted {} key(s) in one new revision, {r}", n(c)),
                format!("etcd DeleteRange 在同一个新修订版本 {r} 中删除了 {} 个 key", n(c)),
            ),
        },
        EtcdOp::Compact => {
            let (en_from, zh_from) = match w.compacted {
                Some(f) => (format!("previously {f}"), format!("此前为 {f}")),
                None => ("its first compaction".to_string(), "首次压缩".to_string()),
            };
            let (en_c, zh_c) = (
                format!(
                    "etcd compacted to revision {at} ({en_from}): the revisions each key had superseded by {at} are gone, and a key deleted before {at} is gone entirely; reads and watches from below {at} now fail as compacted; the current revision stays {r}"
                ),
                format!(
                    "etcd 压缩到修订版本 {at}（{zh_from}）：每个 key 在 {at} 之前已被取代的修订版本被删除，{at} 之前已删除的 key 完全消失；从 {at} 以下读取或 watch 会因已压缩而失败；当前修订版本仍是 {r}"
                ),
            );
            match w.apiservers {
                Some(k) => (
                    format!(
                        "{en_c}. The {k} apiserver(s) noted it: their watch caches no longer serve lists from snapshots older than {at}; their event windows are unchanged, so watches from older revisions they still hold start from the cache"
                    ),
                    format!(
                        "{zh_c}。{k} 个 apiserver 记下了这次压缩：它们的 watch cache 不再用早于 {at} 的快照响应 list；事件窗口不变，所以从窗口内更早修订版本开始的 watch 仍由缓存提供"
                    ),
                ),
                None => (
                    format!("{en_c}. Direct to etcd: the apiservers' watch caches were not told"),
                    format!("{zh_c}。直接作用于 etcd：apiserver 的 watch cache 并未得知"),
                ),
            }
        }
    };
    lang.pick(en, zh)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(rule: Rule, semantics: Semantics, outcome: Option<Outcome>) -> Why {
        let mut w = Why::new(rule);
        w.apiserver = 1;
        w.verb = Some(Verb::List);
        w.semantics = Some(semantics);
        w.outcome = outcome;
        w.rv = Some(7);
        w.cache_rv = Some(5);
        w.etcd_revision = Some(8);
        w
    }

    /// The freshness wait in every explanation is the cacher's own constant.
    #[test]
    fn the_freshness_wait_is_the_cachers_timeout() {
        let s = FRESHNESS_TIMEOUT.as_millis() / 1000;
        assert_eq!(FRESHNESS_TIMEOUT.as_millis() % 1000, 0);
        assert_eq!(fresh(Lang::En), format!("{s} s"));
        assert_eq!(fresh(Lang::Zh), format!("{s} 秒"));

        let w = read(Rule::NotOlderThanFromCache, Semantics::NotOlderThan, None);
        assert_eq!(
            request(&w, Lang::En),
            format!(
                "apiserver 1: resourceVersion=7 → Not older than 7: wait (at most {s} s) for the watch cache to reach 7, then its current state (at 5)"
            )
        );
        assert_eq!(
            request(&w, Lang::Zh),
            format!(
                "apiserver 1：resourceVersion=7 → 不早于 7（NotOlderThan）: 等待（最多 {s} 秒）watch cache 达到 7，然后给出它的当前状态（在 5）"
            )
        );

        let w = read(Rule::NotOlderThanFromCache, Semantics::NotOlderThan, Some(Outcome::CacheNotFresh));
        assert!(
            request(&w, Lang::En)
                .ends_with(&format!("; the cache did not reach 8 within {s} s (it is at 5) → 504"))
        );
        let zh = request(&w, Lang::Zh);
        assert!(zh.ends_with(&format!("；缓存在 {s} 秒内没有达到 8（它在 5）→ 504")), "{zh}");

        let w =
            read(Rule::ConsistentReadFromCache, Semantics::MostRecent, Some(Outcome::ConsistentReadTimeout));
        assert!(request(&w, Lang::En).ends_with(&format!(
            "; the cache did not reach etcd's revision 8 within {s} s (it is at 5) → fall back to etcd"
        )));
        assert!(
            request(&w, Lang::Zh)
                .ends_with(&format!("；缓存在 {s} 秒内没有达到 etcd 的修订版本 8（它在 5）→ 回退到 etcd"))
        );

        let mut e = Ended::new(EndReason::CacheNotFresh);
        e.apiserver = 2;
        e.rv = Some(9);
        e.cache_rv = Some(4);
        assert_eq!(
            ended(&e, Lang::En),
            format!("apiserver 2: ERROR 504: the watch cache did not reach 9 within {s} s (it is at 4)")
        );
        assert_eq!(
            ended(&e, Lang::Zh),
            format!("apiserver 2：ERROR 504：watch cache 在 {s} 秒内没有达到 9（它在 4）")
        );
    }

    /// A watch at an exact revision says the same in both languages.
    #[test]
    fn start_at_exact_says_the_same_in_both_languages() {
        let mut w = read(Rule::WatchFromCacheHistory, Semantics::Exact, None);
        w.verb = Some(Verb::Watch);
        w.initial_events = Some(2);
        w.oldest_startable_rv = Some(3);
        assert_eq!(
            request(&w, Lang::En),
            "apiserver 1: watch with resourceVersion=7 → start right after exactly revision 7 (Start at Exact): served by the watch cache: 2 buffered changes after 7 from the cache's history (oldest startable RV 3), then new ones"
        );
        assert_eq!(
            request(&w, Lang::Zh),
            "apiserver 1：watch 请求，resourceVersion=7 → 恰好从修订版本 7 之后开始（Start at Exact）: 由 watch cache 提供：先从缓存历史中发送 7 之后缓冲的 2 个变更（最早可起始 RV 为 3），再发送新变更"
        );
    }

    /// The dynamic capacity's bounds are the watch cache's own constants.
    #[test]
    fn the_capacity_bounds_are_the_watch_caches() {
        let (lo, hi) = (LOWER_BOUND_CAPACITY, UPPER_BOUND_CAPACITY);
        let w = SettingWhy { setting: SettingName::CacheCapacity, value: "auto".into(), apiserver: None };
        assert_eq!(
            setting(&w, Lang::En),
            format!(
                "the whole cluster: the watch cache's history window holds auto events (auto: it grows and shrinks between {lo} and {hi})"
            )
        );
        assert_eq!(
            setting(&w, Lang::Zh),
            format!("整个集群：watch cache 的历史窗口容纳 auto 个事件（auto：在 {lo} 到 {hi} 之间自动伸缩）")
        );
    }
}
