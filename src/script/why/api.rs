//! Renderings of the apiserver's decisions ([`crate::apiserver::decision`]): the read path and
//! its rule, what happened after routing, writes, rejections, and why a watch stream ended — in
//! English and 中文. One function per decision kind; each clause is built from the typed value
//! and its numbers only.

use super::{Lang, plain, span};
use crate::apiserver::cacher::FRESHNESS_TIMEOUT;
use crate::apiserver::decision::{EndReason, Ended, Outcome, Path, Rule, Semantics, Verb, Why};

/// How long a read waits for the watch cache to be fresh ([`FRESHNESS_TIMEOUT`]), in words.
fn fresh(lang: Lang) -> String {
    span(FRESHNESS_TIMEOUT, lang)
}

/// A clause with a number renders only when the decision recorded the number: each renderer
/// below returns `None` when one it needs is absent, and the caller falls back to the number-free
/// words of [`plain`] (never a "?", never a guess).
type Clause = Option<String>;

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
        text.push_str(&outcome_numbers(w, o, lang).unwrap_or_else(|| plain::outcome(o, lang)));
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
        Rule::RequestRejected
        | Rule::InvalidListOptions
        | Rule::MalformedContinueToken
        | Rule::InvalidResourceVersion
        | Rule::FieldSelectorNotSupported
        | Rule::GetFromEtcd
        | Rule::ConsistentReadFromEtcd
        | Rule::ConsistentReadFromCache
        | Rule::AnyFromCache
        | Rule::NotOlderThanFromCache
        | Rule::PaginatedListFromEtcd
        | Rule::ExactFromCacheSnapshot
        | Rule::WatchStateFromCache
        | Rule::WatchListFromCache
        | Rule::WatchNoInitialState
        | Rule::WatchFromCacheHistory
        | Rule::WatchAheadOfCache
        | Rule::WatchListFromEtcd
        | Rule::WatchFromEtcd
        | Rule::Create
        | Rule::Update
        | Rule::UpdateUnconditional
        | Rule::UpdateZeroResourceVersion
        | Rule::UpdateNoOp
        | Rule::Delete
        | Rule::DeleteReturnsObject
        | Rule::BodyRejected
        | Rule::ResourceVersionOnCreate
        | Rule::ObjectInvalid
        | Rule::PatchRejected
        | Rule::DryRun
        | Rule::DeleteCollection
        | Rule::NoSuchApiserver => ": ",
    }
}

/// "get with resourceVersion=5 → Not older than 5" and its translations.
fn semantics_clause(w: &Why, lang: Lang) -> Option<String> {
    let s = w.semantics?;
    let watch = w.verb == Some(Verb::Watch);
    let (en, zh) = semantics_numbers(s, w.rv, watch).unwrap_or_else(|| plain::semantics(s, watch));
    let (en, zh) = match w.verb {
        Some(Verb::Get) => (format!("get with {en}"), format!("get 请求，{zh}")),
        Some(Verb::Watch) => (format!("watch with {en}"), format!("watch 请求，{zh}")),
        Some(
            Verb::List | Verb::Create | Verb::Update | Verb::Delete | Verb::Patch | Verb::DeleteCollection,
        )
        | None => (en, zh),
    };
    Some(lang.pick(en, zh))
}

/// The semantics with the resourceVersion it named; `None` when it names one the decision lacks.
fn semantics_numbers(s: Semantics, rv: Option<i64>, watch: bool) -> Option<(String, String)> {
    Some(match s {
        Semantics::MostRecent | Semantics::Any | Semantics::ContinueLatest | Semantics::SendInitialEvents => {
            plain::semantics(s, watch)
        }
        Semantics::NotOlderThan => {
            let rv = rv?;
            (
                format!("resourceVersion={rv} → Not older than {rv}"),
                format!("resourceVersion={rv} → 不早于 {rv}（NotOlderThan）"),
            )
        }
        Semantics::Exact if watch => {
            let rv = rv?;
            (
                format!("resourceVersion={rv} → start right after exactly revision {rv} (Start at Exact)"),
                format!("resourceVersion={rv} → 恰好从修订版本 {rv} 之后开始（Start at Exact）"),
            )
        }
        Semantics::Exact => {
            let rv = rv?;
            (
                format!("resourceVersionMatch=Exact with resourceVersion={rv} → exactly revision {rv}"),
                format!("resourceVersionMatch=Exact 且 resourceVersion={rv} → 恰好是修订版本 {rv}"),
            )
        }
        Semantics::LegacyExact => {
            let rv = rv?;
            (
                format!(
                    "limit with resourceVersion={rv} and no resourceVersionMatch → the legacy Exact rule: exactly revision {rv}"
                ),
                format!(
                    "带 limit 的 resourceVersion={rv} 且未设置 resourceVersionMatch → 旧版 Exact 规则：恰好是修订版本 {rv}"
                ),
            )
        }
        Semantics::Continue => {
            let rv = rv?;
            (
                format!(
                    "continue token (rv {rv}) → the next page of the same list, consistent at revision {rv}"
                ),
                format!("continue 令牌（rv {rv}）→ 同一个列表的下一页，与修订版本 {rv} 一致"),
            )
        }
    })
}

/// Where an etcd read lands, by semantics: at `rv` exactly, or at etcd's current revision.
fn etcd_target(w: &Why, lang: Lang) -> String {
    match (w.semantics, w.rv) {
        (Some(Semantics::Exact | Semantics::LegacyExact | Semantics::Continue), Some(rv)) => {
            lang.pick(format!("etcd at revision {rv}"), format!("etcd 的修订版本 {rv}"))
        }
        (Some(Semantics::Exact | Semantics::LegacyExact | Semantics::Continue), None) => {
            lang.pick("etcd at the revision asked for".into(), "etcd 上所请求的修订版本".into())
        }
        (Some(Semantics::NotOlderThan), Some(rv)) => lang.pick(
            format!("etcd at its current revision, checked against {rv}"),
            format!("etcd 的当前修订版本，并检查它不早于 {rv}"),
        ),
        (
            Some(
                Semantics::NotOlderThan
                | Semantics::MostRecent
                | Semantics::Any
                | Semantics::ContinueLatest
                | Semantics::SendInitialEvents,
            )
            | None,
            _,
        ) => lang.pick("etcd at its current revision".into(), "etcd 的当前修订版本".into()),
    }
}

/// The rule in words: with its numbers when the decision has them, else without.
fn rule_clause(w: &Why, lang: Lang) -> String {
    rule_numbers(w, lang).unwrap_or_else(|| plain::rule(w.rule, w.verb, w.semantics, lang))
}

/// The Get State watch's start, as the semantics table names it.
fn state_start(w: &Why) -> (&'static str, &'static str) {
    match w.semantics {
        Some(Semantics::MostRecent) => (
            "Get State and Start at Most Recent",
            "获取状态并从最新版本开始（Get State and Start at Most Recent）",
        ),
        Some(
            Semantics::Any
            | Semantics::NotOlderThan
            | Semantics::Exact
            | Semantics::LegacyExact
            | Semantics::Continue
            | Semantics::ContinueLatest
            | Semantics::SendInitialEvents,
        )
        | None => ("Get State and Start at Any", "获取状态并从任意版本开始（Get State and Start at Any）"),
    }
}

fn rule_numbers(w: &Why, lang: Lang) -> Clause {
    let get = w.verb == Some(Verb::Get);
    Some(match w.rule {
        Rule::RequestRejected
        | Rule::InvalidListOptions
        | Rule::MalformedContinueToken
        | Rule::FieldSelectorNotSupported
        | Rule::PatchRejected
        | Rule::DryRun
        | Rule::DeleteCollection
        | Rule::InvalidResourceVersion
        | Rule::GetFromEtcd
        | Rule::ConsistentReadFromEtcd
        | Rule::ContinueLatestFromEtcd
        | Rule::BodyRejected
        | Rule::ResourceVersionOnCreate
        | Rule::ObjectInvalid
        | Rule::NoSuchApiserver => return None,
        Rule::WatchCacheOff => lang.pick(
            format!("(watch cache off) → {}", etcd_target(w, Lang::En)),
            format!("（watch cache 已关闭）→ {}", etcd_target(w, Lang::Zh)),
        ),
        Rule::ConsistentReadFromCache => {
            let etcd = w.etcd_revision?;
            match (w.outcome, w.cache_rv) {
                (Some(_), _) => lang.pick(
                    format!("etcd's current revision ({etcd}) from a quorum read, then the watch cache once it has caught up (ConsistentListFromCache)"),
                    format!("先以 quorum 读取得到 etcd 的当前修订版本（{etcd}），等 watch cache 追上后再由它提供（ConsistentListFromCache）"),
                ),
                (None, Some(cache_rv)) => lang.pick(
                    format!("etcd's current revision from a quorum read, then the watch cache once it has caught up (ConsistentListFromCache); etcd was at {etcd} and the cache reached it (now {cache_rv})"),
                    format!("先以 quorum 读取得到 etcd 的当前修订版本，等 watch cache 追上后再由它提供（ConsistentListFromCache）；etcd 当时在 {etcd}，缓存已追上（现在是 {cache_rv}）"),
                ),
                (None, None) => return None,
            }
        }
        Rule::AnyFromCache if get => {
            let cache_rv = w.cache_rv?;
            lang.pick(
                format!("the watch cache's current object (at {cache_rv}; may be stale or missing)"),
                format!("watch cache 中的当前对象（缓存在 {cache_rv}；可能过时或不存在）"),
            )
        }
        Rule::AnyFromCache => {
            let cache_rv = w.cache_rv?;
            lang.pick(
                format!("the watch cache's current state (at {cache_rv}), no waiting; limit is ignored"),
                format!("watch cache 的当前状态（在 {cache_rv}），不等待；limit 被忽略"),
            )
        }
        Rule::NotOlderThanFromCache if get => {
            let rv = w.rv?;
            lang.pick(
                format!("the cache's current object once it has seen {rv} — never the version at {rv}"),
                format!("缓存见到 {rv} 之后的当前对象——绝不是 {rv} 时的那个版本"),
            )
        }
        Rule::NotOlderThanFromCache => {
            let (rv, cache_rv) = (w.rv?, w.cache_rv?);
            lang.pick(
                format!("wait (at most {}) for the watch cache to reach {rv}, then its current state (at {cache_rv})", fresh(Lang::En)),
                format!("等待（最多 {}）watch cache 达到 {rv}，然后给出它的当前状态（在 {cache_rv}）", fresh(Lang::Zh)),
            )
        }
        Rule::PaginatedListFromEtcd => {
            let rv = w.rv?;
            lang.pick(
                format!("in 1.30 every paginated list except rv=0 is served by etcd at its current revision, checked against {rv}"),
                format!("在 1.30 中，除 rv=0 外的所有分页列表都由 etcd 按当前修订版本提供，并检查它不早于 {rv}"),
            )
        }
        Rule::ExactFromCacheSnapshot => match (w.snapshot_rv, w.rv) {
            (Some(snap), _) => lang.pick(
                format!("the watch cache's snapshot (ListFromCacheSnapshot): served from the cache snapshot at {snap}"),
                format!("watch cache 的快照（ListFromCacheSnapshot）：由缓存在 {snap} 的快照提供"),
            ),
            (None, Some(rv)) => lang.pick(
                format!("the watch cache's snapshot at {rv} (ListFromCacheSnapshot), else etcd at {rv}"),
                format!("watch cache 在 {rv} 的快照（ListFromCacheSnapshot），没有则读 etcd 的 {rv}"),
            ),
            (None, None) => return None,
        },
        Rule::ExactFromEtcd => {
            let rv = w.rv?;
            lang.pick(
                format!("→ etcd at revision {rv} (ListFromCacheSnapshot is off: no cache snapshots before 1.34)"),
                format!("→ etcd 的修订版本 {rv}（ListFromCacheSnapshot 未开启：1.34 之前缓存没有快照）"),
            )
        }
        Rule::WatchStateFromCache => {
            let (events, cache_rv) = (w.initial_events?, w.cache_rv?);
            let (en, zh) = state_start(w);
            lang.pick(
                format!("served by the watch cache: {en}: the cache's (possibly stale) state as {events} ADDED events at RV {cache_rv}, in key order — not revision order — then changes after {cache_rv}"),
                format!("由 watch cache 提供：{zh}：缓存（可能过时）的状态以 {events} 个 ADDED 事件发送，位于 RV {cache_rv}，按键的顺序——不是修订版本的顺序——然后发送 {cache_rv} 之后的变更"),
            )
        }
        Rule::WatchListFromCache => {
            let (events, cache_rv) = (w.initial_events?, w.cache_rv?);
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
                    "served by the watch cache: {wen}the cache's current state ({events} ADDED, in key order) at RV {cache_rv}{}, then changes (never 410, even for an old rv)",
                    if bm { ", then the initial-events-end BOOKMARK" } else { "" }
                ),
                format!(
                    "由 watch cache 提供：{wzh}发送缓存的当前状态（{events} 个 ADDED，按键的顺序），位于 RV {cache_rv}{}，再发送变更（即使 rv 很旧也不会 410）",
                    if bm { "，随后是 initial-events-end BOOKMARK" } else { "" }
                ),
            )
        }
        Rule::WatchNoInitialState => {
            let start = w.start_rv?;
            lang.pick(
                format!("served by the watch cache: no initial state; changes after {start}"),
                format!("由 watch cache 提供：不发送初始状态；只发送 {start} 之后的变更"),
            )
        }
        Rule::WatchFromCacheHistory => match w.outcome {
            Some(Outcome::CacheWindow) => lang.pick(
                "served by the watch cache, from its history window".into(),
                "由 watch cache 从它的历史窗口提供".into(),
            ),
            Some(Outcome::CacheNotReady
                | Outcome::CacheInitializing
                | Outcome::CacheWaitedReady
                | Outcome::FutureRevisionUnmapped
                | Outcome::CacheNotFresh
                | Outcome::ConsistentReadTimeout
                | Outcome::ConsistentReadTimeoutNoFallback
                | Outcome::SnapshotMissing
                | Outcome::EtcdCompacted
                | Outcome::ContinueCompacted
                | Outcome::NotFound
                | Outcome::TooLargeResourceVersion
                | Outcome::AlreadyExists
                | Outcome::Conflict
                | Outcome::PreconditionFailed
                | Outcome::Internal)
            | None => {
                let (rv, events, oldest) = (w.rv?, w.initial_events?, w.oldest_startable_rv?);
                lang.pick(
                    format!("served by the watch cache: {events} buffered changes after {rv} from the cache's history (oldest startable RV {oldest}), then new ones"),
                    format!("由 watch cache 提供：先从缓存历史中发送 {rv} 之后缓冲的 {events} 个变更（最早可起始 RV 为 {oldest}），再发送新变更"),
                )
            }
        },
        Rule::WatchAheadOfCache => {
            let (rv, cache_rv) = (w.rv?, w.cache_rv?);
            lang.pick(
                format!("served by the watch cache: rv {rv} is ahead of the cache ({cache_rv}) → no error; changes up to {rv} are skipped"),
                format!("由 watch cache 提供：rv {rv} 比缓存（{cache_rv}）更新 → 不报错；{rv} 及之前的变更被跳过"),
            )
        }
        Rule::WatchListFromEtcd => {
            let (e, events) = (w.etcd_revision?, w.initial_events?);
            let next = e.saturating_add(1);
            lang.pick(
                format!("watch cache off → etcd: a list at revision {e} as {events} initial ADDED events (key order), then changes from revision {next}"),
                format!("watch cache 已关闭 → etcd：在修订版本 {e} 列出，作为 {events} 个初始 ADDED 事件（按键的顺序），然后发送从修订版本 {next} 起的变更"),
            )
        }
        Rule::WatchFromEtcd => {
            let s = w.start_rv?;
            let next = s.saturating_add(1);
            lang.pick(
                format!("watch cache off → etcd watch from resourceVersion={s}: starts strictly after {s} (at revision {next}); no bookmarks on this path"),
                format!("watch cache 已关闭 → 从 resourceVersion={s} 开始的 etcd watch：严格从 {s} 之后开始（修订版本 {next}）；这条路径没有 bookmark"),
            )
        }
        Rule::Create => match w.outcome {
            Some(_) => return None,
            None => {
                let rev = w.revision?;
                lang.pick(
                    format!("created with Txn If(mod_revision(key)==0) Then Put → new revision {rev} is its resourceVersion"),
                    format!("以 Txn If(mod_revision(key)==0) Then Put 创建 → 新修订版本 {rev} 就是它的 resourceVersion"),
                )
            }
        },
        Rule::Update => {
            let rv = w.rv?;
            match w.outcome {
                Some(_) => lang.pick(
                    format!("update: Txn If(mod_revision=={rv}) Then Put"),
                    format!("更新：Txn If(mod_revision=={rv}) Then Put"),
                ),
                None => {
                    let rev = w.revision?;
                    lang.pick(
                        format!("Txn If(mod_revision=={rv}) Then Put → new revision {rev}"),
                        format!("Txn If(mod_revision=={rv}) Then Put → 新修订版本 {rev}"),
                    )
                }
            }
        }
        Rule::UpdateUnconditional => match w.outcome {
            Some(_) => return None,
            None => {
                let rev = w.revision?;
                lang.pick(
                    format!("no resourceVersion in the body → unconditional update → new revision {rev}"),
                    format!("请求体中没有 resourceVersion → 无条件更新 → 新修订版本 {rev}"),
                )
            }
        },
        Rule::UpdateZeroResourceVersion => match w.outcome {
            Some(_) => return None,
            None => {
                let rev = w.revision?;
                lang.pick(
                    format!("resourceVersion \"0\" in the body counts as none → unconditional update → new revision {rev}"),
                    format!("请求体中的 resourceVersion \"0\" 视同未设置 → 无条件更新 → 新修订版本 {rev}"),
                )
            }
        },
        Rule::UpdateNoOp => {
            let cur = w.current_rv?;
            lang.pick(
                format!("the new object encodes to the same bytes as the stored one → no-op: nothing written, resourceVersion stays {cur}"),
                format!("新对象编码后与已存储的字节完全相同 → 空操作：什么都不写，resourceVersion 仍是 {cur}"),
            )
        }
        Rule::Delete | Rule::DeleteReturnsObject => {
            if w.outcome.is_some() {
                return None;
            }
            let rev = w.revision?;
            let base = lang.pick(
                format!("deleted with Txn If(mod_revision==current) Then Delete → the delete is revision {rev}"),
                format!("以 Txn If(mod_revision==current) Then Delete 删除 → 这次删除是修订版本 {rev}"),
            );
            if w.rule == Rule::DeleteReturnsObject {
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
    })
}

/// What happened after routing, with its numbers; `None` when one is absent.
fn outcome_numbers(w: &Why, o: Outcome, lang: Lang) -> Clause {
    Some(match o {
        Outcome::CacheNotReady
        | Outcome::CacheWaitedReady
        | Outcome::NotFound
        | Outcome::AlreadyExists
        | Outcome::PreconditionFailed
        | Outcome::Internal => return None,
        Outcome::CacheInitializing => {
            let retry = w.retry_after?;
            lang.pick(
                format!("but the watch cache is still initialising → 429 (Retry-After: {retry})"),
                format!("但 watch cache 仍在初始化 → 429（Retry-After: {retry}）"),
            )
        }
        Outcome::FutureRevisionUnmapped => {
            let e = w.etcd_revision?;
            lang.pick(
                format!("etcd refused the revision: it is ahead of etcd's {e} (\"required revision is a future revision\"); before 1.34 the apiserver does not map that error → 500 (1.34+: 504 Too large resource version)"),
                format!("etcd 拒绝了这个修订版本：它超前于 etcd 的 {e}（\"required revision is a future revision\"）；1.34 之前 apiserver 不转换这个错误 → 500（1.34 起：504 Too large resource version）"),
            )
        }
        Outcome::CacheNotFresh => {
            let (target, cache_rv) = (w.etcd_revision.or(w.rv)?, w.cache_rv?);
            lang.pick(
                format!(
                    "the cache did not reach {target} within {} (it is at {cache_rv}) → 504",
                    fresh(Lang::En)
                ),
                format!("缓存在 {}内没有达到 {target}（它在 {cache_rv}）→ 504", fresh(Lang::Zh)),
            )
        }
        Outcome::ConsistentReadTimeout => {
            let (e, cache_rv) = (w.etcd_revision?, w.cache_rv?);
            lang.pick(
                format!("the cache did not reach etcd's revision {e} within {} (it is at {cache_rv}) → fall back to etcd", fresh(Lang::En)),
                format!("缓存在 {}内没有达到 etcd 的修订版本 {e}（它在 {cache_rv}）→ 回退到 etcd", fresh(Lang::Zh)),
            )
        }
        Outcome::ConsistentReadTimeoutNoFallback => {
            let (e, cache_rv, retry) = (w.etcd_revision?, w.cache_rv?, w.retry_after?);
            lang.pick(
                format!("the cache did not reach etcd's revision {e} within {} (it is at {cache_rv}) → 429 (Retry-After: {retry}) instead of falling back to etcd", fresh(Lang::En)),
                format!("缓存在 {}内没有达到 etcd 的修订版本 {e}（它在 {cache_rv}）→ 429（Retry-After: {retry}），不回退到 etcd", fresh(Lang::Zh)),
            )
        }
        Outcome::SnapshotMissing => {
            let rv = w.rv?;
            lang.pick(
                format!("the cache holds no snapshot at {rv} (older than its history, relisted, or below the known compaction) → etcd at {rv}"),
                format!("缓存没有 {rv} 的快照（早于它的历史、重新 list 过，或低于已知的压缩点）→ 读 etcd 的 {rv}"),
            )
        }
        Outcome::EtcdCompacted => {
            let (rv, compact) = (w.rv?, w.compact_revision?);
            lang.pick(
                format!("410 from etcd compaction: the revision asked for ({rv}) is below etcd's compact revision {compact}"),
                format!("etcd 压缩导致 410：请求的修订版本（{rv}）低于 etcd 的压缩修订版本 {compact}"),
            )
        }
        Outcome::ContinueCompacted => {
            let (rv, compact) = (w.rv?, w.compact_revision?);
            lang.pick(
                format!("410: the token's revision {rv} is below etcd's compact revision {compact}, so this snapshot is gone; the Status offers a continue token with rv -1 that continues at the latest revision (an inconsistent list), or the client lists again from the start"),
                format!("410：令牌的修订版本 {rv} 低于 etcd 的压缩修订版本 {compact}，这个快照已不存在；Status 提供了一个 rv 为 -1 的 continue 令牌，可按最新修订版本继续（不一致的列表），或者客户端从头重新 list"),
            )
        }
        Outcome::CacheWindow => {
            let (rv, oldest) = (w.rv?, w.oldest_startable_rv?);
            lang.pick(
                format!("410 from the watch cache's history window: rv {rv} is older than the oldest startable RV {oldest} (etcd's compaction has nothing to do with it); the stream ends at once with an ERROR"),
                format!("watch cache 历史窗口导致 410：rv {rv} 早于最早可起始的 RV {oldest}（与 etcd 的压缩无关）；流立即以 ERROR 结束"),
            )
        }
        Outcome::TooLargeResourceVersion => {
            let (e, rv) = (w.etcd_revision?, w.rv?);
            lang.pick(
                format!("etcd is at {e}, behind resourceVersion {rv} → 504 Too large resource version"),
                format!("etcd 在 {e}，落后于 resourceVersion {rv} → 504 Too large resource version"),
            )
        }
        Outcome::Conflict => {
            let (rv, cur) = (w.rv?, w.current_rv?);
            lang.pick(
                format!("the body's resourceVersion {rv} ≠ the stored mod_revision {cur} → 409 Conflict"),
                format!("请求体的 resourceVersion {rv} ≠ 已存储的 mod_revision {cur} → 409 Conflict"),
            )
        }
    })
}

/// The explanation of a watch stream's end.
pub fn ended(e: &Ended, lang: Lang) -> String {
    let text = ended_numbers(e, lang).unwrap_or_else(|| plain::ended(e.ended, e.cache_relisted, lang));
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

/// A watch's end with its numbers; `None` when the end has none or one is absent.
fn ended_numbers(e: &Ended, lang: Lang) -> Clause {
    Some(match e.ended {
        EndReason::EtcdCompacted
        | EndReason::Timeout
        | EndReason::Cancelled
        | EndReason::Restart
        | EndReason::CacheOff
        | EndReason::PrevKvMissing => return None,
        EndReason::CacheWindow => {
            let (rv, oldest) = (e.rv?, e.oldest_startable_rv?);
            lang.pick(
                format!("ERROR 410 Expired: resourceVersion {rv} is older than the watch cache's history window (oldest startable RV {oldest}); etcd's compaction has nothing to do with it — the client lists again"),
                format!("ERROR 410 Expired：resourceVersion {rv} 早于 watch cache 的历史窗口（最早可起始 RV 为 {oldest}）；与 etcd 的压缩无关——客户端需要重新 list"),
            )
        }
        EndReason::SlowConsumer => {
            let c = e.channel_size?;
            lang.pick(
                format!("terminated as a slow watcher: its consumer stopped reading, its {c}+1+{c} event buffer filled up and the dispatch budget ran out (the stream just ends: no ERROR, no 410)"),
                format!("作为慢 watcher 被终止：它的消费者停止读取，{c}+1+{c} 个事件的缓冲区已满，分发预算耗尽（流直接结束：没有 ERROR，也没有 410）"),
            )
        }
        EndReason::CacheNotFresh => {
            let (rv, cache_rv) = (e.rv?, e.cache_rv?);
            lang.pick(
                format!(
                    "ERROR 504: the watch cache did not reach {rv} within {} (it is at {cache_rv})",
                    fresh(Lang::En)
                ),
                format!("ERROR 504：watch cache 在 {}内没有达到 {rv}（它在 {cache_rv}）", fresh(Lang::Zh)),
            )
        }
    })
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
}
