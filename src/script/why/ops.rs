//! Renderings of the decisions of lines that are not API requests: a `set` line's setting and
//! an etcd operation (`etcd put|get|del|compact`, `compact <rev>`), in English and 中文.

use super::Lang;
use crate::apiserver::cacher::watch_cache::{LOWER_BOUND_CAPACITY, UPPER_BOUND_CAPACITY};
use crate::apiserver::decision::{EtcdOp, EtcdRefusal, EtcdWhy};
use crate::cluster::{SettingName, SettingWhy};

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
        SettingName::KeepEndedWatches if v == "all" => (
            "keep-ended-watches all: the session keeps every watch after it ended".to_string(),
            "keep-ended-watches all：会话保留每个已结束的 watch".to_string(),
        ),
        SettingName::KeepEndedWatches => (
            format!(
                "keep-ended-watches {v}: of the watches whose end was read (or that were cancelled), the session keeps the latest {v}; an older one is forgotten, and a later line naming it is refused as gone"
            ),
            format!(
                "keep-ended-watches {v}：在已读到结束（或已取消）的 watch 中，会话只保留最近的 {v} 个；更早的被遗忘，之后提到它的行以 watch 已不存在被拒绝"
            ),
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
    // The revision the operation named, or its words when the decision has none.
    let (at_en, at_zh) = match w.at {
        Some(a) => (format!("revision {a}"), format!("修订版本 {a}")),
        None => ("the revision asked for".to_string(), "所请求的修订版本".to_string()),
    };
    let (floor_en, floor_zh) = match w.compacted {
        Some(f) => (format!("the compact revision {f}"), format!("已压缩到的修订版本 {f}")),
        None => ("the compact revision".to_string(), "已压缩到的修订版本".to_string()),
    };
    if let Some(refused) = w.refused {
        let op = match w.etcd {
            EtcdOp::Compact => lang.pick("Compact".into(), "压缩".into()),
            EtcdOp::Range | EtcdOp::Put | EtcdOp::DeleteRange => {
                lang.pick("Range".into(), "Range 读取".into())
            }
        };
        let (en, zh) = match (refused, w.etcd) {
            (EtcdRefusal::Compacted, EtcdOp::Compact) => (
                format!("etcd refused the {op} to {at_en}: it is not above {floor_en}"),
                format!("etcd 拒绝了到{at_zh}的{op}：它不高于{floor_zh}"),
            ),
            (EtcdRefusal::Compacted, _) => (
                format!(
                    "etcd refused the {op} at {at_en}: it is below {floor_en}, whose older revisions are gone"
                ),
                format!("etcd 拒绝了在{at_zh}的{op}：它低于{floor_zh}，更早的修订版本已被删除"),
            ),
            (EtcdRefusal::FutureRevision, _) => (
                format!("etcd refused the {op} at {at_en}: it is above the current revision {r}"),
                format!("etcd 拒绝了在{at_zh}的{op}：它高于当前修订版本 {r}"),
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
            let (count_en, count_zh) = match w.count {
                Some(c) => (format!("{c} key(s)"), format!("{c} 个 key")),
                None => ("the keys".to_string(), "若干 key".to_string()),
            };
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
                format!("etcd Range {en_at}: {count_en} in the range{en_more}; a read creates no revision"),
                format!("etcd Range 读取{zh_at}：范围内有 {count_zh}{zh_more}；读取不产生新修订版本"),
            )
        }
        EtcdOp::DeleteRange => match w.count {
            Some(0) => (
                format!("etcd DeleteRange matched no key: nothing was written, the revision stays {r}"),
                format!("etcd DeleteRange 没有匹配到任何 key：什么都没写，修订版本仍是 {r}"),
            ),
            Some(c) => (
                format!("etcd DeleteRange deleted {c} key(s) in one new revision, {r}"),
                format!("etcd DeleteRange 在同一个新修订版本 {r} 中删除了 {c} 个 key"),
            ),
            None => (
                format!("etcd DeleteRange deleted the matching keys in one new revision, {r}"),
                format!("etcd DeleteRange 在同一个新修订版本 {r} 中删除了匹配的 key"),
            ),
        },
        EtcdOp::Compact => {
            let (at, at_zh_word) = match w.at {
                Some(a) => (a.to_string(), a.to_string()),
                None => ("the compaction revision".to_string(), "压缩修订版本".to_string()),
            };
            let (en_from, zh_from) = match w.compacted {
                Some(f) => (format!("previously {f}"), format!("此前为 {f}")),
                None => ("its first compaction".to_string(), "首次压缩".to_string()),
            };
            let (en_c, zh_c) = (
                format!(
                    "etcd compacted to {at_en} ({en_from}): the revisions each key had superseded by {at} are gone, and a key deleted before {at} is gone entirely; reads and watches from below {at} now fail as compacted; the current revision stays {r}"
                ),
                format!(
                    "etcd 压缩到{at_zh}（{zh_from}）：每个 key 在 {at_zh_word} 之前已被取代的修订版本被删除，{at_zh_word} 之前已删除的 key 完全消失；从 {at_zh_word} 以下读取或 watch 会因已压缩而失败；当前修订版本仍是 {r}"
                ),
            );
            match w.apiservers {
                Some(k) => (
                    format!(
                        "{en_c}. The {k} apiserver(s) noted it: their watch caches no longer serve lists from snapshots older than {at}; their event windows are unchanged, so watches from older revisions they still hold start from the cache"
                    ),
                    format!(
                        "{zh_c}。{k} 个 apiserver 记下了这次压缩：它们的 watch cache 不再用早于 {at_zh_word} 的快照响应 list；事件窗口不变，所以从窗口内更早修订版本开始的 watch 仍由缓存提供"
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
