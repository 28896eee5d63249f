//! The client decisions (`client::trace::Decision`: informer, reflector, pager and REST client)
//! rendered for people, in English and in 中文 — the only place either text is written. The
//! English rendering is the `log` text of `informer show` and `pager list`; the UI renders the
//! same typed values in its language.
//!
//! Counterpart: the decisions client-go takes in `tools/cache/reflector.go`,
//! `tools/cache/shared_informer.go`, `tools/pager/pager.go` and `rest/with_retry.go`.

use serde_json::{Value, json};

use super::Lang;
use crate::client::informer::InformerReport;
use crate::client::trace::{Cause, ClientError, Decision, ErrorInfo, ListMode, LogEntry, LogLine, fmt_ms};

/// `410 Expired`, `429 TooManyRequests`, or the client-side error in words.
fn short(e: &ErrorInfo, lang: Lang) -> String {
    match &e.client {
        Some(c) => client_error(c, lang),
        None if e.reason.is_empty() => e.code.to_string(),
        None => format!("{} {}", e.code, e.reason),
    }
}

/// `410 Expired "too old resource version: 5 (10)"`: the server's message stays as sent.
pub fn describe(e: &ErrorInfo, lang: Lang) -> String {
    let mut s = short(e, lang);
    if e.client.is_none() && !e.message.is_empty() {
        s.push_str(&format!(" {:?}", e.message));
    }
    s
}

fn client_error(c: &ClientError, lang: Lang) -> String {
    match (c, lang) {
        (ClientError::VeryShortWatch { after_ms }, Lang::En) => {
            format!("very short watch: closed after {} with no events", fmt_ms(*after_ms))
        }
        (ClientError::VeryShortWatch { after_ms }, Lang::Zh) => {
            format!("very short watch：{} 后就关闭了，没有任何事件", fmt_ms(*after_ms))
        }
        (ClientError::NoStream { code }, Lang::En) => {
            format!("watch request answered {code} without a stream")
        }
        (ClientError::NoStream { code }, Lang::Zh) => format!("watch 请求得到 {code}，却没有打开事件流"),
        (ClientError::NotAList, Lang::En) => "returned object must be a list (no items)".to_string(),
        (ClientError::NotAList, Lang::Zh) => "返回的对象必须是列表（没有 items）".to_string(),
        (ClientError::NotAStatus, Lang::En) => "unexpected watch ERROR object (not a Status)".to_string(),
        (ClientError::NotAStatus, Lang::Zh) => "watch 的 ERROR 对象不是 Status".to_string(),
    }
}

fn cause(c: &Cause, lang: Lang) -> String {
    match (c, lang) {
        (Cause::ListFailed { rv, error }, Lang::En) => {
            format!("list rv={rv:?} failed: {}", describe(error, lang))
        }
        (Cause::ListFailed { rv, error }, Lang::Zh) => {
            format!("list rv={rv:?} 失败：{}", describe(error, lang))
        }
        (Cause::WatchListFailed { rv, error }, Lang::En) => {
            format!("watch-list rv={rv:?} failed: {}", describe(error, lang))
        }
        (Cause::WatchListFailed { rv, error }, Lang::Zh) => {
            format!("watch-list rv={rv:?} 失败：{}", describe(error, lang))
        }
        (Cause::WatchRefused { from, error }, Lang::En) => {
            format!("watch from {from} refused: {}", describe(error, lang))
        }
        (Cause::WatchRefused { from, error }, Lang::Zh) => {
            format!("从 {from} 开始的 watch 被拒绝：{}", describe(error, lang))
        }
        (Cause::WatchExpired { error }, _) => short(error, lang),
        (Cause::WatchFailed { error }, Lang::En) => {
            format!("watch ended with an error: {}", describe(error, lang))
        }
        (Cause::WatchFailed { error }, Lang::Zh) => format!("watch 以错误结束：{}", describe(error, lang)),
    }
}

fn paging(limit: i64, lang: Lang) -> String {
    match (limit, lang) {
        (0, Lang::En) => "unpaginated".to_string(),
        (0, Lang::Zh) => "不分页".to_string(),
        (n, Lang::En) => format!("pages of {n}"),
        (n, Lang::Zh) => format!("每页 {n} 条"),
    }
}

fn event_label(kind: &str, name: &str, rv: &str) -> String {
    if name.is_empty() { format!("{kind}@{rv}") } else { format!("{kind} {name}@{rv}") }
}

fn backoff_then(cause_text: String, backoff_ms: u64, next: String, lang: Lang) -> String {
    match lang {
        Lang::En => {
            format!("{cause_text} → back off {}, then ListAndWatch again: {next}", fmt_ms(backoff_ms))
        }
        Lang::Zh => format!("{cause_text} → 退避 {}，然后再次 ListAndWatch：{next}", fmt_ms(backoff_ms)),
    }
}

/// One decision in words.
pub fn render(d: &Decision, lang: Lang) -> String {
    use Lang::{En, Zh};
    match (d, lang) {
        (Decision::Start { collection, mode, apiservers }, _) => {
            let how = match (mode, lang) {
                (ListMode::Legacy, En) => "legacy: LIST, then WATCH",
                (ListMode::Legacy, Zh) => "传统模式：先 LIST，再 WATCH",
                (ListMode::Streaming, En) => "streaming: WatchList (sendInitialEvents=true)",
                (ListMode::Streaming, Zh) => "流式模式：WatchList（sendInitialEvents=true）",
            };
            let lb = if apiservers.len() > 1 {
                let list = apiservers.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
                match lang {
                    En => format!(", through a load balancer to apiservers {list}"),
                    Zh => format!("，经负载均衡器连接 apiserver {list}"),
                }
            } else {
                String::new()
            };
            match lang {
                En => format!("start informer on {collection} ({how}){lb}"),
                Zh => format!("在 {collection} 上启动 informer（{how}）{lb}"),
            }
        }
        (Decision::ListAny { rv, limit }, En) => format!(
            "list rv={rv:?}, {} (first list: rv=\"0\" accepts any state, the watch cache serves it)",
            paging(*limit, lang)
        ),
        (Decision::ListAny { rv, limit }, Zh) => format!(
            "list rv={rv:?}，{}（首次 list：rv=\"0\" 接受任何状态，由 watch cache 提供）",
            paging(*limit, lang)
        ),
        (Decision::ListConsistent { rv, limit }, En) => {
            format!("list rv={rv:?}, {} (lastSyncRV is unavailable → consistent list)", paging(*limit, lang))
        }
        (Decision::ListConsistent { rv, limit }, Zh) => {
            format!("list rv={rv:?}，{}（lastSyncRV 不可用 → 一致性 list）", paging(*limit, lang))
        }
        (Decision::ListAtLastSync { rv, limit, paginated_before }, En) => {
            if *paginated_before {
                format!(
                    "list rv={rv:?}, {}, because the first list came back paginated (relist at lastSyncRV, not older than {rv})",
                    paging(*limit, lang)
                )
            } else {
                format!(
                    "list rv={rv:?}, {} (relist at lastSyncRV, not older than {rv}; unpaginated so the watch cache can serve it)",
                    paging(*limit, lang)
                )
            }
        }
        (Decision::ListAtLastSync { rv, limit, paginated_before }, Zh) => {
            if *paginated_before {
                format!(
                    "list rv={rv:?}，{}，因为首次 list 是分页返回的（在 lastSyncRV 处重新 list，不早于 {rv}）",
                    paging(*limit, lang)
                )
            } else {
                format!(
                    "list rv={rv:?}，{}（在 lastSyncRV 处重新 list，不早于 {rv}；不分页，这样 watch cache 就能提供）",
                    paging(*limit, lang)
                )
            }
        }
        (Decision::Listed { rv, items, list_rv, requests }, En) => {
            let pages = if *requests > 1 { format!(" in {requests} requests") } else { String::new() };
            format!("list rv={rv:?} → {items} items at RV {list_rv}{pages} (lastSyncRV={list_rv})")
        }
        (Decision::Listed { rv, items, list_rv, requests }, Zh) => {
            let pages = if *requests > 1 { format!("，共 {requests} 个请求") } else { String::new() };
            format!("list rv={rv:?} → RV {list_rv} 处的 {items} 个对象{pages}（lastSyncRV={list_rv}）")
        }
        (Decision::RelistAtLastSync { cause: c, backoff_ms, rv }, _) => {
            let next = match lang {
                En => format!("relist at lastSyncRV={rv} (NotOlderThan)"),
                Zh => format!("在 lastSyncRV={rv} 处重新 list（NotOlderThan）"),
            };
            backoff_then(cause(c, lang), *backoff_ms, next, lang)
        }
        (Decision::RelistFromScratch { cause: c, backoff_ms: Some(ms) }, _) => {
            let next = match lang {
                En => "relist with rv=\"\"".to_string(),
                Zh => "用 rv=\"\" 重新 list".to_string(),
            };
            backoff_then(cause(c, lang), *ms, next, lang)
        }
        (Decision::RelistFromScratch { cause: c, backoff_ms: None }, En) => {
            format!("{} → relist with rv=\"\"", cause(c, lang))
        }
        (Decision::RelistFromScratch { cause: c, backoff_ms: None }, Zh) => {
            format!("{} → 立即用 rv=\"\" 重新 list", cause(c, lang))
        }
        (Decision::RelistAny { cause: c, backoff_ms }, _) => {
            let next = match lang {
                En => "list rv=\"0\"".to_string(),
                Zh => "再次 list rv=\"0\"".to_string(),
            };
            backoff_then(cause(c, lang), *backoff_ms, next, lang)
        }
        (Decision::WatchListAtLastSync { cause: c, backoff_ms, rv }, _) => {
            let next = match lang {
                En => format!("watch-list from lastSyncRV={rv} (NotOlderThan)"),
                Zh => format!("从 lastSyncRV={rv} 开始 watch-list（NotOlderThan）"),
            };
            backoff_then(cause(c, lang), *backoff_ms, next, lang)
        }
        (Decision::WatchListFromScratch { cause: c, backoff_ms: Some(ms) }, _) => {
            let next = match lang {
                En => "watch-list with rv=\"\"".to_string(),
                Zh => "用 rv=\"\" 进行 watch-list".to_string(),
            };
            backoff_then(cause(c, lang), *ms, next, lang)
        }
        (Decision::WatchListFromScratch { cause: c, backoff_ms: None }, En) => {
            format!("{} → retry the watch-list with rv=\"\"", cause(c, lang))
        }
        (Decision::WatchListFromScratch { cause: c, backoff_ms: None }, Zh) => {
            format!("{} → 立即用 rv=\"\" 重试 watch-list", cause(c, lang))
        }
        (Decision::Watch { from, timeout_seconds }, En) => {
            format!("watch from {from} (timeoutSeconds={timeout_seconds})")
        }
        (Decision::Watch { from, timeout_seconds }, Zh) => {
            format!("从 {from} 开始 watch（timeoutSeconds={timeout_seconds}）")
        }
        (Decision::WatchList { rv, timeout_seconds }, En) => {
            let why = if rv.is_empty() {
                "the most recent state, consistent"
            } else {
                "state not older than lastSyncRV"
            };
            format!(
                "watch-list rv={rv:?} with sendInitialEvents=true, NotOlderThan (timeoutSeconds={timeout_seconds}): {why}"
            )
        }
        (Decision::WatchList { rv, timeout_seconds }, Zh) => {
            let why =
                if rv.is_empty() { "最新且一致的状态" } else { "不早于 lastSyncRV 的状态" };
            format!(
                "watch-list rv={rv:?}，带 sendInitialEvents=true、NotOlderThan（timeoutSeconds={timeout_seconds}）：{why}"
            )
        }
        (Decision::WatchRefusedRetry { from, error, backoff_ms }, En) => format!(
            "watch from {from} refused: {} → back off {}, then watch again from {from}",
            describe(error, lang),
            fmt_ms(*backoff_ms)
        ),
        (Decision::WatchRefusedRetry { from, error, backoff_ms }, Zh) => format!(
            "从 {from} 开始的 watch 被拒绝：{} → 退避 {}，然后再从 {from} watch",
            describe(error, lang),
            fmt_ms(*backoff_ms)
        ),
        (Decision::WatchThrottledRetry { from, error, backoff_ms }, En) => {
            format!("{} → back off {}, then re-watch from {from}", short(error, lang), fmt_ms(*backoff_ms))
        }
        (Decision::WatchThrottledRetry { from, error, backoff_ms }, Zh) => {
            format!("{} → 退避 {}，然后从 {from} 重新 watch", short(error, lang), fmt_ms(*backoff_ms))
        }
        (Decision::WatchListRetry { rv, error, backoff_ms }, En) => format!(
            "watch-list rv={rv:?} failed: {} → back off {}, then retry the watch-list",
            describe(error, lang),
            fmt_ms(*backoff_ms)
        ),
        (Decision::WatchListRetry { rv, error, backoff_ms }, Zh) => format!(
            "watch-list rv={rv:?} 失败：{} → 退避 {}，然后重试 watch-list",
            describe(error, lang),
            fmt_ms(*backoff_ms)
        ),
        (Decision::WatchListFallback { rv, error }, En) => {
            format!("watch-list rv={rv:?} failed: {} → fall back to LIST + WATCH", describe(error, lang))
        }
        (Decision::WatchListFallback { rv, error }, Zh) => {
            format!("watch-list rv={rv:?} 失败：{} → 退回到 LIST + WATCH", describe(error, lang))
        }
        (Decision::WatchListRestart, En) => {
            "watch-list ended before the k8s.io/initial-events-end bookmark → start the watch-list again"
                .to_string()
        }
        (Decision::WatchListRestart, Zh) => {
            "watch-list 在 k8s.io/initial-events-end bookmark 之前就结束了 → 重新开始 watch-list".to_string()
        }
        (Decision::StreamGone, En) => "the watch stream is gone (the server no longer knows it)".to_string(),
        (Decision::StreamGone, Zh) => "watch 流已不存在（服务器不再认识它）".to_string(),
        (Decision::ErrorFrame { error }, En) => format!("ERROR {}", describe(error, lang)),
        (Decision::ErrorFrame { error }, Zh) => format!("收到 ERROR 帧：{}", describe(error, lang)),
        (Decision::EventIgnored { kind }, En) => format!("{kind} event without metadata: ignored"),
        (Decision::EventIgnored { kind }, Zh) => format!("没有 metadata 的 {kind} 事件：忽略"),
        (Decision::Event { kind, name, rv }, En) => {
            format!("{} → lastSyncRV={rv}", event_label(kind, name, rv))
        }
        (Decision::Event { kind, name, rv }, Zh) => {
            format!("{} → lastSyncRV 更新为 {rv}", event_label(kind, name, rv))
        }
        (Decision::InitialEvent { kind, name, rv, held }, En) => {
            format!("initial {} → temporary store ({held} so far)", event_label(kind, name, rv))
        }
        (Decision::InitialEvent { kind, name, rv, held }, Zh) => {
            format!("初始事件 {} → 临时存储（目前 {held} 个）", event_label(kind, name, rv))
        }
        (Decision::InitialEventsEnd { rv, items }, En) => format!(
            "BOOKMARK@{rv} with k8s.io/initial-events-end → replace the store with {items} items (lastSyncRV={rv}); keep watching on this stream"
        ),
        (Decision::InitialEventsEnd { rv, items }, Zh) => format!(
            "带 k8s.io/initial-events-end 的 BOOKMARK@{rv} → 用 {items} 个对象替换 store（lastSyncRV={rv}）；继续在这个流上 watch"
        ),
        (Decision::Rewatch { from }, En) => format!("watch ended cleanly → re-watch from {from}"),
        (Decision::Rewatch { from }, Zh) => format!("watch 正常结束 → 从 {from} 重新 watch"),
        (Decision::ConnectionLost { from, to }, En) => format!(
            "the connection to apiserver {from} broke (no ERROR frame, the stream just ends) → the next request opens a new connection, to apiserver {to}"
        ),
        (Decision::ConnectionLost { from, to }, Zh) => format!(
            "与 apiserver {from} 的连接断了（没有 ERROR 帧，流直接结束）→ 下一个请求建立新连接，连到 apiserver {to}"
        ),
        (Decision::Resync { period_ms, objects }, En) => {
            format!(
                "resync period {} elapsed → re-deliver every cached object ({objects})",
                fmt_ms(*period_ms)
            )
        }
        (Decision::Resync { period_ms, objects }, Zh) => {
            format!(
                "resync 周期 {} 到了 → 把缓存中的每个对象（{objects} 个）重新投递一遍",
                fmt_ms(*period_ms)
            )
        }
        (Decision::ResyncRaised { requested_ms, period_ms }, En) => format!(
            "resync period {} is below client-go's minimum → resync every {} instead",
            fmt_ms(*requested_ms),
            fmt_ms(*period_ms)
        ),
        (Decision::ResyncRaised { requested_ms, period_ms }, Zh) => format!(
            "resync 周期 {} 低于 client-go 的最小值 → 改为每 {} resync 一次",
            fmt_ms(*requested_ms),
            fmt_ms(*period_ms)
        ),
        (Decision::TooManySteps { steps }, En) => {
            format!("too many steps at one instant ({steps}); pausing until the next poll")
        }
        (Decision::TooManySteps { steps }, Zh) => format!("同一时刻的步骤太多（{steps}）；暂停到下一次 poll"),
        (Decision::Stopped, En) => "stopped".to_string(),
        (Decision::Stopped, Zh) => "已停止".to_string(),
        (Decision::PagerFullList { page, error, rv }, En) => format!(
            "page {page} failed: {} (the continue token's revision was compacted) → one full list at the requested rv={rv:?} (pager fallback)",
            short(error, lang)
        ),
        (Decision::PagerFullList { page, error, rv }, Zh) => format!(
            "第 {page} 页失败：{}（continue token 的 revision 已被压缩）→ 在原请求的 rv={rv:?} 处做一次完整 list（pager 的退路）",
            short(error, lang)
        ),
        (Decision::PageLast { page, items }, En) => format!("page {page}: {items} items, last page"),
        (Decision::PageLast { page, items }, Zh) => format!("第 {page} 页：{items} 个对象，最后一页"),
        (Decision::PageContinue { page, items, rv, limit }, En) => format!(
            "page {page}: {items} items at RV {rv}, continue token → next page (limit={limit}, rv cleared)"
        ),
        (Decision::PageContinue { page, items, rv, limit }, Zh) => format!(
            "第 {page} 页：RV {rv} 处的 {items} 个对象，带 continue token → 下一页（limit={limit}，清掉 rv）"
        ),
        (Decision::RetryAfter { code, reason, retry_after_seconds, retry, max_retries }, En) => format!(
            "{code} {reason} with Retry-After: {retry_after_seconds} → the REST client waits {} and sends it again (retry {retry} of {max_retries})",
            fmt_ms((*retry_after_seconds).max(0) as u64 * 1000)
        ),
        (Decision::RetryAfter { code, reason, retry_after_seconds, retry, max_retries }, Zh) => format!(
            "{code} {reason}，带 Retry-After: {retry_after_seconds} → REST client 等待 {} 后重发（第 {retry} 次重试，最多 {max_retries} 次）",
            fmt_ms((*retry_after_seconds).max(0) as u64 * 1000)
        ),
    }
}

/// A log line as an output's `why.log` carries it.
pub fn log_entry(l: &LogLine) -> LogEntry {
    LogEntry { at: fmt_ms(l.at.0), decision: l.decision.clone() }
}

/// A log entry as typed JSON: `{"at":"1.6s","decision":"…", …}`.
pub fn log_json(l: &LogLine) -> Value {
    serde_json::to_value(log_entry(l)).unwrap_or(Value::Null)
}

/// The typed client decisions an output carries (`why.log` of `informer` and `pager` lines), if
/// it has any well-formed ones.
pub fn output_log(out: &Value) -> Option<Vec<LogEntry>> {
    let log = out.pointer("/why/log")?.as_array()?;
    log.iter().map(LogEntry::from_json).collect()
}

/// The output of `informer start|show|stop`: `{"informer","state","store","lastSyncRV","log":[English
/// renderings],"requests","handlers"}`, plus `"why":{"log":[typed decisions]}` when `explain`.
pub fn report_json(r: &InformerReport, explain: bool) -> Value {
    report_json_of(r, explain, true)
}

/// [`report_json`], with `"log"` (and `"why"`) only if `log`: what an `expect informer` line
/// reads when its path does not start there.
pub fn report_json_of(r: &InformerReport, explain: bool, log: bool) -> Value {
    let mut v = json!({
        "informer": r.name,
        "state": r.state,
        "store": r.store,
        "lastSyncRV": r.last_sync_rv,
    });
    if log {
        v["log"] = json!(r.log.iter().map(|l| render(&l.decision, Lang::En)).collect::<Vec<_>>());
    }
    v["requests"] = json!(r.requests);
    v["handlers"] = json!(r.handlers);
    if explain && log {
        v["why"] = json!({"log": r.log.iter().map(log_json).collect::<Vec<_>>()});
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::trace::{Cause, ClientError, ErrorInfo};

    fn status(code: u16, reason: &str, message: &str) -> ErrorInfo {
        ErrorInfo { code, reason: reason.into(), message: message.into(), client: None }
    }

    fn client(c: ClientError) -> ErrorInfo {
        ErrorInfo { code: 0, reason: String::new(), message: String::new(), client: Some(c) }
    }

    /// Lists every variant: adding one without a sample below stops this from compiling.
    fn variant(d: &Decision) -> &'static str {
        match d {
            Decision::Start { .. } => "start",
            Decision::ListAny { .. } => "list-any",
            Decision::ListConsistent { .. } => "list-consistent",
            Decision::ListAtLastSync { .. } => "list-at-last-sync",
            Decision::Listed { .. } => "listed",
            Decision::RelistAtLastSync { .. } => "relist-at-last-sync",
            Decision::RelistFromScratch { .. } => "relist-from-scratch",
            Decision::RelistAny { .. } => "relist-any",
            Decision::WatchListAtLastSync { .. } => "watch-list-at-last-sync",
            Decision::WatchListFromScratch { .. } => "watch-list-from-scratch",
            Decision::Watch { .. } => "watch",
            Decision::WatchList { .. } => "watch-list",
            Decision::WatchRefusedRetry { .. } => "watch-refused-retry",
            Decision::WatchThrottledRetry { .. } => "watch-throttled-retry",
            Decision::WatchListRetry { .. } => "watch-list-retry",
            Decision::WatchListFallback { .. } => "watch-list-fallback",
            Decision::WatchListRestart => "watch-list-restart",
            Decision::StreamGone => "stream-gone",
            Decision::ErrorFrame { .. } => "error-frame",
            Decision::EventIgnored { .. } => "event-ignored",
            Decision::Event { .. } => "event",
            Decision::InitialEvent { .. } => "initial-event",
            Decision::InitialEventsEnd { .. } => "initial-events-end",
            Decision::Rewatch { .. } => "rewatch",
            Decision::ConnectionLost { .. } => "connection-lost",
            Decision::Resync { .. } => "resync",
            Decision::ResyncRaised { .. } => "resync-raised",
            Decision::TooManySteps { .. } => "too-many-steps",
            Decision::Stopped => "stopped",
            Decision::PagerFullList { .. } => "pager-full-list",
            Decision::PageLast { .. } => "page-last",
            Decision::PageContinue { .. } => "page-continue",
            Decision::RetryAfter { .. } => "retry-after",
        }
    }

    const VARIANTS: usize = 33;

    fn samples() -> Vec<Decision> {
        let e = status(410, "Expired", "too old resource version: 3 (4)");
        let busy = status(429, "TooManyRequests", "m");
        let causes = [
            Cause::ListFailed { rv: "3".into(), error: e.clone() },
            Cause::WatchListFailed { rv: "".into(), error: status(504, "Timeout", "x") },
            Cause::WatchRefused { from: "3".into(), error: status(403, "Forbidden", "no") },
            Cause::WatchExpired { error: e.clone() },
            Cause::WatchFailed { error: client(ClientError::VeryShortWatch { after_ms: 5 }) },
        ];
        let mut out = vec![
            Decision::Start {
                collection: "/api/v1/pods".into(),
                mode: ListMode::Legacy,
                apiservers: vec![1],
            },
            Decision::Start {
                collection: "/api/v1/pods".into(),
                mode: ListMode::Streaming,
                apiservers: vec![1, 2],
            },
            Decision::ListAny { rv: "0".into(), limit: 500 },
            Decision::ListConsistent { rv: "".into(), limit: 500 },
            Decision::ListAtLastSync { rv: "7".into(), limit: 0, paginated_before: false },
            Decision::ListAtLastSync { rv: "7".into(), limit: 500, paginated_before: true },
            Decision::Listed { rv: "0".into(), items: 3, list_rv: "7".into(), requests: 2 },
            Decision::RelistFromScratch { cause: causes[0].clone(), backoff_ms: None },
            Decision::WatchListFromScratch { cause: causes[1].clone(), backoff_ms: None },
            Decision::Watch { from: "7".into(), timeout_seconds: 400 },
            Decision::WatchList { rv: "".into(), timeout_seconds: 400 },
            Decision::WatchList { rv: "7".into(), timeout_seconds: 400 },
            Decision::WatchRefusedRetry { from: "7".into(), error: busy.clone(), backoff_ms: 900 },
            Decision::WatchThrottledRetry { from: "7".into(), error: busy.clone(), backoff_ms: 900 },
            Decision::WatchListRetry { rv: "7".into(), error: busy, backoff_ms: 900 },
            Decision::WatchListFallback {
                rv: "7".into(),
                error: client(ClientError::NoStream { code: 200 }),
            },
            Decision::WatchListRestart,
            Decision::StreamGone,
            Decision::ErrorFrame { error: client(ClientError::NotAStatus) },
            Decision::ErrorFrame { error: e.clone() },
            Decision::EventIgnored { kind: "ADDED".into() },
            Decision::Event { kind: "BOOKMARK".into(), name: "".into(), rv: "9".into() },
            Decision::Event { kind: "ADDED".into(), name: "a".into(), rv: "9".into() },
            Decision::InitialEvent { kind: "ADDED".into(), name: "a".into(), rv: "9".into(), held: 1 },
            Decision::InitialEventsEnd { rv: "9".into(), items: 1 },
            Decision::Rewatch { from: "9".into() },
            Decision::ConnectionLost { from: 1, to: 2 },
            Decision::Resync { period_ms: 30_000, objects: 2 },
            Decision::ResyncRaised { requested_ms: 500, period_ms: 1000 },
            Decision::TooManySteps { steps: 256 },
            Decision::Stopped,
            Decision::PagerFullList { page: 2, error: e, rv: "".into() },
            Decision::PageLast { page: 2, items: 1 },
            Decision::PageContinue { page: 1, items: 2, rv: "4".into(), limit: 2 },
            Decision::RetryAfter {
                code: 504,
                reason: "Timeout".into(),
                retry_after_seconds: 1,
                retry: 1,
                max_retries: 10,
            },
            Decision::ErrorFrame { error: client(ClientError::NotAList) },
        ];
        for c in causes {
            out.push(Decision::RelistAtLastSync { cause: c.clone(), backoff_ms: 1200, rv: "7".into() });
            out.push(Decision::RelistFromScratch { cause: c.clone(), backoff_ms: Some(1200) });
            out.push(Decision::RelistAny { cause: c.clone(), backoff_ms: 1200 });
            out.push(Decision::WatchListAtLastSync { cause: c.clone(), backoff_ms: 1200, rv: "7".into() });
            out.push(Decision::WatchListFromScratch { cause: c, backoff_ms: Some(1200) });
        }
        out
    }

    /// Both languages state the same numbers: the digits of one rendering are the other's.
    #[test]
    fn both_languages_state_the_same_numbers() {
        let numbers = |s: &str| -> std::collections::BTreeSet<String> {
            s.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(str::to_string).collect()
        };
        for d in &samples() {
            let (en, zh) = (render(d, Lang::En), render(d, Lang::Zh));
            assert_eq!(numbers(&en), numbers(&zh), "{en}\n{zh}");
        }
        let resync = Decision::Resync { period_ms: 30_000, objects: 2 };
        assert_eq!(
            render(&resync, Lang::En),
            "resync period 30s elapsed → re-deliver every cached object (2)"
        );
        assert_eq!(
            render(&resync, Lang::Zh),
            "resync 周期 30s 到了 → 把缓存中的每个对象（2 个）重新投递一遍"
        );
        let steps = Decision::TooManySteps { steps: 256 };
        assert_eq!(
            render(&steps, Lang::En),
            "too many steps at one instant (256); pausing until the next poll"
        );
        assert_eq!(render(&steps, Lang::Zh), "同一时刻的步骤太多（256）；暂停到下一次 poll");
    }

    // The book's `why` chapter lists exactly the decision ids, in its "Decisions" table.
    #[test]
    fn the_book_lists_exactly_the_decision_ids() {
        let chapter = include_str!("../../../site/src/reference/why.md");
        let mut lines = chapter.lines().skip_while(|l| l.trim_end() != "### Decisions");
        assert!(lines.next().is_some(), "why.md has no \"### Decisions\"");
        let rows: Vec<&str> =
            lines.skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).collect();
        assert!(rows.len() > 2, "no table under \"### Decisions\"");
        let documented: std::collections::BTreeSet<&str> = rows[2..]
            .iter()
            .flat_map(|row| row.split('|').nth(1).unwrap_or_default().split('`').skip(1).step_by(2))
            .collect();
        let ids: std::collections::BTreeSet<&str> = samples().iter().map(variant).collect();
        assert_eq!(ids.len(), VARIANTS, "a sample of every decision");
        assert_eq!(documented, ids);
        // Every client error and cause, once: each kind is what its JSON says, the samples
        // carry each, and the book lists exactly these.
        let e = status(410, "Expired", "x");
        let errors = [
            ClientError::VeryShortWatch { after_ms: 5 },
            ClientError::NoStream { code: 200 },
            ClientError::NotAList,
            ClientError::NotAStatus,
        ];
        let causes = [
            Cause::ListFailed { rv: "3".into(), error: e.clone() },
            Cause::WatchRefused { from: "3".into(), error: e.clone() },
            Cause::WatchListFailed { rv: "3".into(), error: e.clone() },
            Cause::WatchExpired { error: e.clone() },
            Cause::WatchFailed { error: e },
        ];
        let sampled = |pointer: &str| -> std::collections::BTreeSet<String> {
            fn walk(v: &Value, pointer: &str, out: &mut std::collections::BTreeSet<String>) {
                if let Some(k) = v.pointer(pointer).and_then(Value::as_str) {
                    out.insert(k.to_string());
                }
                match v {
                    Value::Object(m) => m.values().for_each(|x| walk(x, pointer, out)),
                    Value::Array(a) => a.iter().for_each(|x| walk(x, pointer, out)),
                    _ => {}
                }
            }
            let mut out = std::collections::BTreeSet::new();
            for d in samples() {
                walk(&serde_json::to_value(&d).unwrap_or(Value::Null), pointer, &mut out);
            }
            out
        };
        let kinds = |all: Vec<(Value, &'static str)>| -> std::collections::BTreeSet<String> {
            all.into_iter()
                .map(|(json, kind)| {
                    assert_eq!(json["kind"], kind, "{json}");
                    kind.to_string()
                })
                .collect()
        };
        let client = kinds(
            errors.iter().map(|x| (serde_json::to_value(x).unwrap_or_default(), client_kind(x))).collect(),
        );
        assert_eq!(client.len(), errors.len());
        assert_eq!(sampled("/client/kind"), client, "the samples carry every client error");
        assert_eq!(table_ids(chapter, "### Client errors"), client);
        let cause = kinds(
            causes.iter().map(|x| (serde_json::to_value(x).unwrap_or_default(), cause_kind(x))).collect(),
        );
        assert_eq!(cause.len(), causes.len());
        assert_eq!(sampled("/cause/kind"), cause, "the samples carry every cause");
        assert_eq!(table_ids(chapter, "### Causes"), cause);
    }

    // No wildcard: a new client error or cause stops this compiling until it has its kind here,
    // a value in the lists above, a sample in `samples()` and a row in the book.
    fn client_kind(e: &ClientError) -> &'static str {
        match e {
            ClientError::VeryShortWatch { .. } => "very-short-watch",
            ClientError::NoStream { .. } => "no-stream",
            ClientError::NotAList => "not-a-list",
            ClientError::NotAStatus => "not-a-status",
        }
    }

    fn cause_kind(c: &Cause) -> &'static str {
        match c {
            Cause::ListFailed { .. } => "list-failed",
            Cause::WatchRefused { .. } => "watch-refused",
            Cause::WatchListFailed { .. } => "watch-list-failed",
            Cause::WatchExpired { .. } => "watch-expired",
            Cause::WatchFailed { .. } => "watch-failed",
        }
    }

    use crate::script::doc_table::table_ids;

    // Every decision has both renderings (different texts), its JSON id is the one the book
    // lists, and the JSON reads back as the same value (the UI renders what it reads).
    #[test]
    fn every_decision_renders_in_both_languages_and_round_trips() {
        let all = samples();
        let ids: std::collections::BTreeSet<&str> = all.iter().map(variant).collect();
        assert_eq!(ids.len(), VARIANTS, "a sample of every decision");
        for d in &all {
            let en = render(d, Lang::En);
            let zh = render(d, Lang::Zh);
            assert!(!en.is_empty() && !zh.is_empty(), "{d:?}");
            assert_ne!(en, zh, "{d:?} has no Chinese rendering of its own");
            let v = serde_json::to_value(d).unwrap_or(Value::Null);
            assert_eq!(v["decision"], variant(d), "{v}");
            let entry = LogLine { at: crate::clock::Instant(61_200), decision: d.clone() };
            let j = log_json(&entry);
            assert_eq!(j["at"], "61.2s");
            let back = LogEntry::from_json(&j).unwrap_or_else(|| panic!("{j} does not read back"));
            assert_eq!(back.at, "61.2s");
            assert_eq!(&back.decision, d, "{j}");
        }
    }
}
