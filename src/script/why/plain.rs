//! Each rule, outcome, semantics and watch end in words without numbers, English and 中文. A
//! decision renders these when it carries no numbers for its rule: the request stopped before
//! the rule ran (a 429 of an initialising cache names the watch's rule, but nothing was
//! counted), or the rule has no numbers at all. Every `match` here is exhaustive with no
//! wildcard arm, so a new rule, outcome or end does not compile until it has both languages.

use super::{Lang, span};
use crate::apiserver::cacher::FRESHNESS_TIMEOUT;
use crate::apiserver::decision::{EndReason, Outcome, Rule, Semantics, Verb};

/// How long a read waits for the watch cache to be fresh, in words.
fn fresh(lang: Lang) -> String {
    span(FRESHNESS_TIMEOUT, lang)
}

/// A semantics as the docs' tables name it, without its resourceVersion (English, 中文).
pub(super) fn semantics(s: Semantics, watch: bool) -> (String, String) {
    let (en, zh) = match s {
        Semantics::MostRecent => {
            ("resourceVersion unset → Most recent", "未设置 resourceVersion → 最新（Most recent）")
        }
        Semantics::Any => ("resourceVersion=\"0\" → Any", "resourceVersion=\"0\" → 任意（Any）"),
        Semantics::NotOlderThan => (
            "resourceVersion=n → not older than n (NotOlderThan)",
            "resourceVersion=n → 不早于 n（NotOlderThan）",
        ),
        Semantics::Exact if watch => (
            "resourceVersion=n → start right after exactly revision n (Start at Exact)",
            "resourceVersion=n → 恰好从修订版本 n 之后开始（Start at Exact）",
        ),
        Semantics::Exact => (
            "resourceVersionMatch=Exact → exactly the revision asked for",
            "resourceVersionMatch=Exact → 恰好是所请求的修订版本",
        ),
        Semantics::LegacyExact => (
            "limit with resourceVersion=n and no resourceVersionMatch → the legacy Exact rule: exactly revision n",
            "带 limit 的 resourceVersion=n 且未设置 resourceVersionMatch → 旧版 Exact 规则：恰好是修订版本 n",
        ),
        Semantics::Continue => (
            "continue token → the next page of the same list, consistent at the token's revision",
            "continue 令牌 → 同一个列表的下一页，与令牌的修订版本一致",
        ),
        Semantics::ContinueLatest => (
            "continue token with rv -1 → an inconsistent continuation: the rest of the list at the latest revision, from the token's start key (the pages do not form one snapshot)",
            "rv 为 -1 的 continue 令牌 → 不一致的续读：从令牌的起始键开始，按最新修订版本读取列表的剩余部分（各页不构成同一个快照）",
        ),
        Semantics::SendInitialEvents => (
            "sendInitialEvents=true → the current state as ADDED events, then changes",
            "sendInitialEvents=true → 先以 ADDED 事件发送当前状态，再发送变更",
        ),
    };
    (en.to_string(), zh.to_string())
}

/// A rule in words, without numbers. The Get State watch names the start its semantics asked
/// for (Most recent or Any).
pub(super) fn rule(rule: Rule, verb: Option<Verb>, semantics: Option<Semantics>, lang: Lang) -> String {
    let get = verb == Some(Verb::Get);
    let most_recent = semantics == Some(Semantics::MostRecent);
    let (en, zh) = match rule {
        Rule::RequestRejected => (
            "rejected while decoding the request (URL, method or body)",
            "解码请求时被拒绝（URL、方法或请求体）",
        ),
        Rule::InvalidListOptions => (
            "rejected by ListOptions validation: these query parameters may not be combined",
            "被 ListOptions 校验拒绝：这些查询参数不能这样组合",
        ),
        Rule::MalformedContinueToken => (
            "the continue token could not be decoded → 400 BadRequest (a malformed token, not an expired one: only a well-formed token whose revision was compacted gets 410)",
            "continue 令牌无法解码 → 400 BadRequest（令牌格式错误，而不是过期：只有格式正确但其修订版本已被压缩的令牌才会得到 410）",
        ),
        Rule::FieldSelectorNotSupported => (
            "the field selector names a field this resource cannot be selected by → 400 BadRequest (each kind has its own field labels: ConfigMaps only metadata.name and metadata.namespace)",
            "字段选择器用了该资源不支持的字段 → 400 BadRequest（每种资源有自己的可选字段：ConfigMap 只有 metadata.name 和 metadata.namespace）",
        ),
        Rule::PatchRejected => (
            "the patch could not be applied to the current object (invalid patch or options, or a server-side apply conflict with another field manager — not a resourceVersion conflict)",
            "补丁无法应用到当前对象（补丁或选项无效，或与另一个字段管理者发生服务端应用冲突 —— 不是 resourceVersion 冲突）",
        ),
        Rule::DryRun => (
            "dryRun=All: the write's answer, but nothing was written to etcd (no new revision)",
            "dryRun=All：返回写操作的结果，但没有写入 etcd（没有新的修订版本）",
        ),
        Rule::DeleteCollection => (
            "deletecollection: a list, then one delete per listed object, each its own etcd transaction and revision; the answer is the list",
            "deletecollection：先列出，再逐个删除列出的对象，每个删除都是独立的 etcd 事务和修订版本；返回的是那次列表",
        ),
        Rule::InvalidResourceVersion => (
            "resourceVersion is not a number the storage layer can parse",
            "resourceVersion 不是存储层能解析的数字",
        ),
        Rule::WatchCacheOff => ("(watch cache off) → etcd", "（watch cache 已关闭）→ etcd"),
        Rule::GetFromEtcd => ("always read from etcd", "总是从 etcd 读取"),
        Rule::ConsistentReadFromEtcd => (
            "ConsistentListFromCache is off, so served by etcd at its current revision",
            "ConsistentListFromCache 未开启，因此由 etcd 按当前修订版本提供",
        ),
        Rule::ConsistentReadFromCache => (
            "etcd's current revision from a quorum read, then the watch cache once it has caught up (ConsistentListFromCache)",
            "先以 quorum 读取得到 etcd 的当前修订版本，等 watch cache 追上后再由它提供（ConsistentListFromCache）",
        ),
        Rule::AnyFromCache if get => (
            "the watch cache's current object (may be stale or missing)",
            "watch cache 中的当前对象（可能过时或不存在）",
        ),
        Rule::AnyFromCache => (
            "the watch cache's current state, no waiting; limit is ignored",
            "watch cache 的当前状态，不等待；limit 被忽略",
        ),
        Rule::NotOlderThanFromCache if get => (
            "the cache's current object once it has seen the resourceVersion asked for — never the version at it",
            "缓存见到所请求的 resourceVersion 之后的当前对象——绝不是那个版本本身",
        ),
        Rule::NotOlderThanFromCache => {
            return lang.pick(
                format!("wait (at most {}) for the watch cache to reach the resourceVersion asked for, then its current state", fresh(Lang::En)),
                format!("等待（最多 {}）watch cache 达到所请求的 resourceVersion，然后给出它的当前状态", fresh(Lang::Zh)),
            );
        }
        Rule::PaginatedListFromEtcd => (
            "in 1.30 every paginated list except rv=0 is served by etcd at its current revision",
            "在 1.30 中，除 rv=0 外的所有分页列表都由 etcd 按当前修订版本提供",
        ),
        Rule::ExactFromCacheSnapshot => (
            "the watch cache's snapshot at the revision asked for (ListFromCacheSnapshot), else etcd",
            "watch cache 在所请求修订版本的快照（ListFromCacheSnapshot），没有则读 etcd",
        ),
        Rule::ExactFromEtcd => (
            "→ etcd at the revision asked for (ListFromCacheSnapshot is off: no cache snapshots before 1.34)",
            "→ etcd 上所请求的修订版本（ListFromCacheSnapshot 未开启：1.34 之前缓存没有快照）",
        ),
        Rule::ContinueLatestFromEtcd => (
            "→ etcd at its current revision (ListFromCacheSnapshot is off: before 1.34 the watch cache has no snapshots and serves no continuation)",
            "→ etcd 的当前修订版本（ListFromCacheSnapshot 未开启：1.34 之前 watch cache 没有快照，不处理任何 continue）",
        ),
        Rule::WatchStateFromCache if most_recent => (
            "the watch cache's rule: Get State and Start at Most Recent — the cache's state as ADDED events, in key order, then changes",
            "watch cache 的规则：获取状态并从最新版本开始（Get State and Start at Most Recent）——缓存的状态以 ADDED 事件按键的顺序发送，然后发送变更",
        ),
        Rule::WatchStateFromCache => (
            "the watch cache's rule: Get State and Start at Any — the cache's (possibly stale) state as ADDED events, in key order, then changes",
            "watch cache 的规则：获取状态并从任意版本开始（Get State and Start at Any）——缓存（可能过时）的状态以 ADDED 事件按键的顺序发送，然后发送变更",
        ),
        Rule::WatchListFromCache => (
            "the watch cache's rule: the current state as ADDED events (key order), then changes (never 410, even for an old rv)",
            "watch cache 的规则：先以 ADDED 事件（按键的顺序）发送当前状态，再发送变更（即使 rv 很旧也不会 410）",
        ),
        Rule::WatchNoInitialState => (
            "the watch cache's rule: no initial state, only changes",
            "watch cache 的规则：不发送初始状态，只发送变更",
        ),
        Rule::WatchFromCacheHistory => (
            "the watch cache's rule: the buffered changes after the resourceVersion asked for, from the cache's history, then new ones",
            "watch cache 的规则：先从缓存历史中发送所请求的 resourceVersion 之后缓冲的变更，再发送新变更",
        ),
        Rule::WatchAheadOfCache => (
            "the watch cache's rule: a resourceVersion ahead of the cache is no error; changes up to it are skipped",
            "watch cache 的规则：比缓存更新的 resourceVersion 不报错；它及之前的变更被跳过",
        ),
        Rule::WatchListFromEtcd => (
            "watch cache off → etcd: a list as initial ADDED events (key order), then changes from the next revision",
            "watch cache 已关闭 → etcd：先列出作为初始 ADDED 事件（按键的顺序），然后发送从下一个修订版本起的变更",
        ),
        Rule::WatchFromEtcd => (
            "watch cache off → an etcd watch that starts strictly after the resourceVersion; no bookmarks on this path",
            "watch cache 已关闭 → 严格从该 resourceVersion 之后开始的 etcd watch；这条路径没有 bookmark",
        ),
        Rule::Create => {
            ("create: Txn If(mod_revision(key)==0) Then Put", "创建：Txn If(mod_revision(key)==0) Then Put")
        }
        Rule::Update => (
            "the body's resourceVersion as precondition: Txn If(mod_revision==resourceVersion) Then Put",
            "以请求体的 resourceVersion 为前置条件：Txn If(mod_revision==resourceVersion) Then Put",
        ),
        Rule::UpdateUnconditional => (
            "no resourceVersion in the body → unconditional update",
            "请求体中没有 resourceVersion → 无条件更新",
        ),
        Rule::UpdateZeroResourceVersion => (
            "resourceVersion \"0\" in the body counts as none → unconditional update",
            "请求体中的 resourceVersion \"0\" 视同未设置 → 无条件更新",
        ),
        Rule::UpdateNoOp => (
            "the new object encodes to the same bytes as the stored one → no-op: nothing written, the resourceVersion stays",
            "新对象编码后与已存储的字节完全相同 → 空操作：什么都不写，resourceVersion 不变",
        ),
        Rule::Delete | Rule::DeleteReturnsObject => (
            "delete: Txn If(mod_revision==current) Then Delete",
            "删除：Txn If(mod_revision==current) Then Delete",
        ),
        Rule::BodyRejected => ("the object in the body was rejected", "请求体中的对象被拒绝"),
        Rule::ResourceVersionOnCreate => (
            "create with a resourceVersion in the body is refused by the storage layer",
            "请求体中带有 resourceVersion 的创建会被存储层拒绝",
        ),
        Rule::ObjectInvalid => (
            "the object failed its resource's validation → 422 Invalid",
            "对象未通过该资源的校验 → 422 Invalid",
        ),
        Rule::NoSuchApiserver => ("no such apiserver", "没有这个 apiserver"),
    };
    lang.pick(en.to_string(), zh.to_string())
}

/// What happened after routing, without numbers.
pub(super) fn outcome(o: Outcome, lang: Lang) -> String {
    let (en, zh) = match o {
        Outcome::CacheNotReady => {
            ("the watch cache is not ready, so etcd serves it", "watch cache 尚未就绪，因此由 etcd 提供")
        }
        Outcome::CacheInitializing => (
            "but the watch cache is still initialising → 429 with Retry-After; the rule above did not run",
            "但 watch cache 仍在初始化 → 429 并带 Retry-After；上面的规则没有执行",
        ),
        Outcome::CacheWaitedReady => (
            "the watch cache was still initialising, so the request waited until it was ready (Kubernetes 1.30: no 429 yet)",
            "watch cache 仍在初始化，所以请求一直等到它就绪（Kubernetes 1.30：还没有 429）",
        ),
        Outcome::FutureRevisionUnmapped => (
            "etcd refused the revision as a future one (\"required revision is a future revision\"); before 1.34 the apiserver does not map that error → 500 (1.34+: 504 Too large resource version)",
            "etcd 以未来修订版本为由拒绝（\"required revision is a future revision\"）；1.34 之前 apiserver 不转换这个错误 → 500（1.34 起：504 Too large resource version）",
        ),
        Outcome::CacheNotFresh => {
            return lang.pick(
                format!("the cache did not reach the revision within {} → 504", fresh(Lang::En)),
                format!("缓存在 {}内没有达到该修订版本 → 504", fresh(Lang::Zh)),
            );
        }
        Outcome::ConsistentReadTimeout => {
            return lang.pick(
                format!(
                    "the cache did not reach etcd's revision within {} → fall back to etcd",
                    fresh(Lang::En)
                ),
                format!("缓存在 {}内没有达到 etcd 的修订版本 → 回退到 etcd", fresh(Lang::Zh)),
            );
        }
        Outcome::ConsistentReadTimeoutNoFallback => {
            return lang.pick(
                format!(
                    "the cache did not reach etcd's revision within {} → 429 instead of falling back to etcd",
                    fresh(Lang::En)
                ),
                format!("缓存在 {}内没有达到 etcd 的修订版本 → 429，不回退到 etcd", fresh(Lang::Zh)),
            );
        }
        Outcome::SnapshotMissing => (
            "the cache holds no snapshot at that revision (older than its history, relisted, or below the known compaction) → etcd",
            "缓存没有该修订版本的快照（早于它的历史、重新 list 过，或低于已知的压缩点）→ 读 etcd",
        ),
        Outcome::EtcdCompacted => (
            "410 from etcd compaction: the revision asked for is below etcd's compact revision",
            "etcd 压缩导致 410：请求的修订版本低于 etcd 的压缩修订版本",
        ),
        Outcome::ContinueCompacted => (
            "410: the token's revision was compacted, so this snapshot is gone; the Status offers a continue token with rv -1 that continues at the latest revision (an inconsistent list), or the client lists again from the start",
            "410：令牌的修订版本已被压缩，这个快照已不存在；Status 提供了一个 rv 为 -1 的 continue 令牌，可按最新修订版本继续（不一致的列表），或者客户端从头重新 list",
        ),
        Outcome::CacheWindow => (
            "410 from the watch cache's history window: the rv is older than the oldest startable RV (etcd's compaction has nothing to do with it); the stream ends at once with an ERROR",
            "watch cache 历史窗口导致 410：rv 早于最早可起始的 RV（与 etcd 的压缩无关）；流立即以 ERROR 结束",
        ),
        Outcome::NotFound => ("the object does not exist → 404 NotFound", "对象不存在 → 404 NotFound"),
        Outcome::TooLargeResourceVersion => (
            "etcd is behind the resourceVersion asked for → 504 Too large resource version",
            "etcd 落后于所请求的 resourceVersion → 504 Too large resource version",
        ),
        Outcome::AlreadyExists => ("the key exists → 409 AlreadyExists", "键已存在 → 409 AlreadyExists"),
        Outcome::Conflict => (
            "the body's resourceVersion ≠ the stored mod_revision → 409 Conflict",
            "请求体的 resourceVersion ≠ 已存储的 mod_revision → 409 Conflict",
        ),
        Outcome::PreconditionFailed => (
            "a precondition (uid or resourceVersion) did not hold → 409 Conflict",
            "前置条件（uid 或 resourceVersion）不成立 → 409 Conflict",
        ),
        Outcome::Internal => ("etcd returned an internal error → 500", "etcd 返回内部错误 → 500"),
    };
    lang.pick(en.to_string(), zh.to_string())
}

/// Why a watch stream ended, without numbers.
pub(super) fn ended(reason: EndReason, cache_relisted: Option<bool>, lang: Lang) -> String {
    let (en, zh) = match reason {
        EndReason::CacheWindow => (
            "ERROR 410 Expired: the resourceVersion is older than the watch cache's history window; etcd's compaction has nothing to do with it — the client lists again",
            "ERROR 410 Expired：resourceVersion 早于 watch cache 的历史窗口；与 etcd 的压缩无关——客户端需要重新 list",
        ),
        EndReason::EtcdCompacted if cache_relisted == Some(true) => (
            "etcd compaction cancelled the watch cache's own etcd watch; the cache relisted and closed every cache watcher cleanly (no ERROR)",
            "etcd 压缩取消了 watch cache 自己的 etcd watch；缓存重新 list，并干净地关闭了所有缓存 watcher（没有 ERROR）",
        ),
        EndReason::EtcdCompacted => (
            "ERROR 410 Expired: etcd compacted the revision this watch still needed",
            "ERROR 410 Expired：etcd 压缩掉了这个 watch 仍需要的修订版本",
        ),
        EndReason::SlowConsumer => (
            "terminated as a slow watcher: its consumer stopped reading, its event buffer filled up and the dispatch budget ran out (the stream just ends: no ERROR, no 410)",
            "作为慢 watcher 被终止：它的消费者停止读取，事件缓冲区已满，分发预算耗尽（流直接结束：没有 ERROR，也没有 410）",
        ),
        EndReason::Timeout => (
            "timeoutSeconds reached: the server ended the watch cleanly",
            "到达 timeoutSeconds：服务器干净地结束了 watch",
        ),
        EndReason::Cancelled => ("canceled by the client", "被客户端取消"),
        EndReason::Restart => ("the apiserver restarted", "apiserver 重启了"),
        EndReason::CacheOff => ("the watch cache was switched off", "watch cache 被关闭了"),
        EndReason::CacheNotFresh => {
            return lang.pick(
                format!("ERROR 504: the watch cache did not reach the revision within {}", fresh(Lang::En)),
                format!("ERROR 504：watch cache 在 {}内没有达到该修订版本", fresh(Lang::Zh)),
            );
        }
        EndReason::PrevKvMissing => (
            "ERROR 500: an etcd event came without its previous value (compacted away), which the watcher cannot turn into a frame",
            "ERROR 500：一个 etcd 事件缺少它的前一个值（已被压缩），watcher 无法把它转成帧",
        ),
    };
    lang.pick(en.to_string(), zh.to_string())
}
