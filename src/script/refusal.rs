//! Why the session refused a line it could parse — a watch or informer that does not exist, an
//! `advance` too long or with too much timer work, an apiserver number out of range: one typed
//! value per refusal, carried by the output as `"refused"` next to its English `"error"`, and
//! its words in English and 中文, here only (the CLI prints the English, the UI renders the value
//! in its language). No upstream counterpart: these are the playground's own commands.
//!
//! A line that does not parse is not refused: its error is `script::syntax`'s. etcd's own errors
//! (`mvcc: required revision has been compacted`) keep etcd's words; their decision is typed in
//! `why` (`EtcdWhy::refused`).

use std::fmt;

use serde::Serialize;

use super::budget::{MAX_TIMER_ROUNDS, TooMuchWork};
use super::extra::Extra;
use super::line_error::LineError;
use crate::cluster::SettingError;

/// One refusal. Serialised as an object: its kind in `"kind"` (kebab-case), its fields beside it
/// (camelCase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Refusal {
    /// `events`, `pause`, `resume` (`hint`: with how watch ids are numbered), `cancel`, `drop`.
    NoWatch { watch: String, hint: bool },
    /// `events` of a watch whose stream the cluster no longer has.
    WatchGone { watch: String },
    /// `informer show|stop`, `drop informer`, an `expect informer` of a name never started.
    NoInformer { name: String },
    /// `informer start` of a name that is running.
    InformerRunning { name: String },
    /// `informer start` of a resource informers do not watch.
    UnknownResource { resource: String },
    /// `apiserver N` (`hint`: with how to add more) or `informer start … apiservers=` out of range.
    NoApiserver { n: usize, count: usize, hint: bool },
    /// `restart apiserver 0`.
    ApiserverZero,
    /// `advance` longer than one line may go (`max` as a script writes it).
    AdvanceTooLong { max: String },
    /// `advance` that would run more timer work than one line may (`script::budget`).
    TooMuchWork { requested: String, compactions: u64, resync_calls: u64, max: String },
    /// `set explain` with something else than on/off.
    ExplainValue { value: String },
    /// `pager next` without a `pager list` waiting for its next page.
    NoPager,
    /// `pager list` of a path that is not a collection.
    PagerPath { path: String },
    /// `pager list` of a collection of a resource the apiserver does not serve.
    PagerResource { resource: String },
    /// `set <name> <value>` that names no setting or gives it a value it does not take.
    Setting { error: SettingError },
    /// A line the console embed's module does not run (`script::extra`); only that module
    /// refuses it, and the embed then loads the full playground instead of showing this.
    NotInModule { part: Extra },
}

impl From<SettingError> for Refusal {
    fn from(error: SettingError) -> Self {
        Refusal::Setting { error }
    }
}

impl From<TooMuchWork> for Refusal {
    fn from(t: TooMuchWork) -> Self {
        Refusal::TooMuchWork {
            requested: t.requested.to_string(),
            compactions: t.compactions,
            resync_calls: t.resync_calls,
            max: t.max.to_string(),
        }
    }
}

impl LineError for Refusal {
    const KEY: &'static str = "refused";

    fn zh(&self) -> String {
        match self {
            Refusal::NoWatch { watch, hint: true } => {
                format!("没有名为 {watch:?} 的 watch；watch 按打开的顺序编号为 w1、w2、…")
            }
            Refusal::NoWatch { watch, hint: false } => format!("没有名为 {watch:?} 的 watch"),
            Refusal::WatchGone { watch } => format!("watch {watch} 已不存在"),
            Refusal::NoInformer { name } => format!("没有名为 {name:?} 的 informer"),
            Refusal::InformerRunning { name } => {
                format!("名为 {name:?} 的 informer 已在运行；请先停止它")
            }
            Refusal::UnknownResource { resource } => {
                format!("未知的资源 {resource:?}；informer 只能 watch pods 或 configmaps")
            }
            Refusal::NoApiserver { n, count, hint: true } => {
                format!("没有 apiserver {n}：一共只有 {count} 台（用 set apiservers N 增加）")
            }
            Refusal::NoApiserver { n, count, hint: false } => {
                format!("没有 apiserver {n}：一共只有 {count} 台")
            }
            Refusal::ApiserverZero => "apiserver 从 1 开始编号".to_string(),
            Refusal::AdvanceTooLong { max } => {
                format!("一行 advance 最多 {max}；要走得更远，请重复这一行")
            }
            Refusal::TooMuchWork { requested, compactions, resync_calls, max } => format!(
                "advance {requested} 将运行 {compactions} 轮压缩和 {resync_calls} 次 resync 处理函数调用；一行 advance 最多运行 {MAX_TIMER_ROUNDS} 次（再多页面就会卡住）：这里每行最多 advance {max}，或者把 compaction-interval / resync= 调长"
            ),
            Refusal::ExplainValue { value } => format!("explain 只接受 on 或 off，而不是 {value:?}"),
            Refusal::NoPager => {
                "pager next：没有等待下一页的 pager；先用 pager list <path> … pages=<n> 开始一个".to_string()
            }
            Refusal::PagerPath { path } => format!(
                "pager list：{path:?} 不是集合路径；应为 /api/v1/namespaces/<ns>/<resource> 或 /api/v1/<resource>"
            ),
            Refusal::PagerResource { resource } => {
                format!("pager list：未知的资源 {resource:?}；apiserver 只提供 pods 和 configmaps")
            }
            Refusal::Setting { error } => setting_zh(error),
            Refusal::NotInModule { part } => {
                format!("这个嵌入的模块不运行 {part} 行；完整的 playground 会运行它")
            }
        }
    }
}

/// A refused `set` line in 中文 (its English: [`SettingError`]'s `Display`).
fn setting_zh(e: &SettingError) -> String {
    match e {
        SettingError::Unknown { name } => format!(
            "未知的设置 {name:?}；可用的有：watch-cache on|off、cache.lag <时长>、cache.capacity <n>|auto、cache.init-delay <时长>、compaction-interval <时长>、compactor on|off、clock.epoch <时间>、kubernetes <1.x>、feature-gates <Name=true,…>、client-go <1.x>|auto、etcd 3.4|3.5|3.6、apiservers <n>、explain on|off、keep-ended-watches all|<n>"
        ),
        SettingError::OnOff { setting, value } => {
            format!("{} 只接受 on 或 off，而不是 {value:?}", setting.as_str())
        }
        SettingError::Duration { setting, problem, .. } => {
            format!("{}：{}", setting.as_str(), super::syntax::duration_zh(problem))
        }
        SettingError::Apiservers { value, max } => {
            format!("apiservers 接受 1 到 {max} 之间的数，而不是 {value:?}")
        }
        SettingError::Etcd { value } => format!("etcd 只接受 3.4、3.5 或 3.6，而不是 {value:?}"),
        SettingError::Kubernetes { value, oldest, newest } => format!(
            "不支持的 Kubernetes 版本 {value:?}；请用 1.{oldest} … 1.{newest}（例如 1.30、1.33、1.34）"
        ),
        SettingError::ClientGo { value, oldest, newest } => {
            format!("不支持的 client-go 版本 {value:?}；请用 1.{oldest} … 1.{newest} 或 auto")
        }
        // The apiserver's own words stay (they are what kube-apiserver prints), with 中文 around them.
        SettingError::FeatureGateMissingValue { .. } | SettingError::FeatureGateInvalidValue { .. } => {
            format!("feature-gates 的每一项应为 名称=true 或 名称=false：{e}")
        }
        SettingError::FeatureGateUnknown { release: Some(release), .. } => {
            format!("Kubernetes {release} 的 kube-apiserver 不认识这个特性门控：{e}")
        }
        SettingError::FeatureGateUnknown { release: None, .. } => {
            format!("没有哪个建模的 Kubernetes 版本认识这个特性门控：{e}")
        }
        SettingError::FeatureGateLocked { release, .. } => {
            format!("在 Kubernetes {release} 中这个特性门控已锁定为默认值（GA 或已弃用），不能改：{e}")
        }
        SettingError::CacheCapacity { value, max } => {
            format!("cache.capacity 接受 1 到 {max} 之间的数或 auto，而不是 {value:?}")
        }
        SettingError::CompactionInterval { value, min } => {
            format!("compaction-interval 至少为 {min}（每一轮都会写入一个 revision），而不是 {value}")
        }
        SettingError::ClockEpoch { value } => {
            format!("clock.epoch 接受一个 UTC 时间，例如 2026-01-01T00:00:00Z，而不是 {value:?}")
        }
        SettingError::KeepEndedWatches { value, max } => {
            format!("keep-ended-watches 接受 all 或 0 到 {max} 之间的数，而不是 {value:?}")
        }
    }
}

/// The English text (the output's `"error"`, what the CLI prints).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoWatch { watch, hint: true } => write!(
                f,
                "no watch named {watch:?}; watch ids are w1, w2, … in the order watches were opened"
            ),
            Refusal::NoWatch { watch, hint: false } => write!(f, "no watch named {watch:?}"),
            Refusal::WatchGone { watch } => write!(f, "watch {watch} is gone"),
            Refusal::NoInformer { name } => write!(f, "no informer named {name:?}"),
            Refusal::InformerRunning { name } => {
                write!(f, "an informer named {name:?} is already running; stop it first")
            }
            Refusal::UnknownResource { resource } => {
                write!(f, "unknown resource {resource:?}; informers watch pods or configmaps")
            }
            Refusal::NoApiserver { n, count, hint: true } => {
                write!(f, "no apiserver {n}: there are {count} (set apiservers N to add more)")
            }
            Refusal::NoApiserver { n, count, hint: false } => {
                write!(f, "no apiserver {n}: there are {count}")
            }
            Refusal::ApiserverZero => f.write_str("apiservers are numbered from 1"),
            Refusal::AdvanceTooLong { max } => {
                write!(f, "advance is at most {max} per line; repeat the line to go further")
            }
            Refusal::TooMuchWork { requested, compactions, resync_calls, max } => write!(
                f,
                "advance {requested} would run {compactions} compaction round(s) and {resync_calls} resync handler call(s); one advance runs at most {MAX_TIMER_ROUNDS} of them (more would freeze the page): advance at most {max} per line here, or lengthen compaction-interval / resync="
            ),
            Refusal::ExplainValue { value } => write!(f, "explain takes on or off, not {value:?}"),
            Refusal::NoPager => {
                f.write_str("pager next: no pager is waiting; start one with pager list <path> … pages=<n>")
            }
            Refusal::PagerPath { path } => write!(
                f,
                "pager list: {path:?} is not a collection path; expected /api/v1/namespaces/<ns>/<resource> or /api/v1/<resource>"
            ),
            Refusal::PagerResource { resource } => {
                write!(
                    f,
                    "pager list: unknown resource {resource:?}; the apiserver serves pods and configmaps"
                )
            }
            Refusal::Setting { error } => write!(f, "{error}"),
            Refusal::NotInModule { part } => {
                write!(f, "this embed's module does not run {part} lines; the full playground does")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::why::Lang;
    use serde_json::json;

    fn all() -> Vec<Refusal> {
        [
            Refusal::NoWatch { watch: "w9".into(), hint: true },
            Refusal::NoWatch { watch: "w9".into(), hint: false },
            Refusal::WatchGone { watch: "w1".into() },
            Refusal::NoInformer { name: "i".into() },
            Refusal::InformerRunning { name: "i".into() },
            Refusal::UnknownResource { resource: "nodes".into() },
            Refusal::NoApiserver { n: 3, count: 2, hint: true },
            Refusal::NoApiserver { n: 3, count: 2, hint: false },
            Refusal::ApiserverZero,
            Refusal::AdvanceTooLong { max: "168h".into() },
            Refusal::TooMuchWork {
                requested: "1427s".into(),
                compactions: 3,
                resync_calls: 10_011,
                max: "1426s".into(),
            },
            Refusal::ExplainValue { value: "maybe".into() },
            Refusal::NoPager,
            Refusal::PagerPath { path: "/apis/x".into() },
            Refusal::PagerResource { resource: "widgets".into() },
            Refusal::NotInModule { part: Extra::Patch },
        ]
        .into_iter()
        .chain(
            [
                ("nope", "1"),
                ("compactor", "maybe"),
                ("cache.lag", "soon"),
                ("apiservers", "99"),
                ("etcd", "3.3"),
                ("kubernetes", "1.12"),
                ("cache.capacity", "0"),
                ("compaction-interval", "1ms"),
                ("clock.epoch", "yesterday"),
                ("client-go", "1.99"),
                ("feature-gates", "WatchList"),
                ("feature-gates", "WatchList=yes"),
                ("feature-gates", "Nope=true"),
            ]
            .into_iter()
            .map(|(n, v)| Refusal::from(crate::cluster::Setting::parse(n, v).unwrap_err())),
        )
        .chain(feature_gate_refusals())
        .chain(crate::cluster::parse_keep_ended("some").err().map(Refusal::from))
        .collect()
    }

    /// What an apiserver's release refuses of gates that parsed (`Cluster::apply`).
    fn feature_gate_refusals() -> Vec<Refusal> {
        use crate::apiserver::features::{Gate, LockedGate};
        use crate::cluster::SettingError;
        let locked = |gate, value| LockedGate { gate, value, locked_to: !value };
        vec![
            Refusal::from(SettingError::FeatureGateUnknown {
                name: "ConsistentListFromCache".into(),
                release: Some("1.37".into()),
            }),
            Refusal::from(SettingError::FeatureGateLocked {
                locked: vec![locked(Gate::WatchCacheInitializationPostStartHook, false)],
                release: "1.37".into(),
            }),
            Refusal::from(SettingError::FeatureGateLocked {
                locked: vec![
                    locked(Gate::ConsistentListFromCache, false),
                    locked(Gate::ResilientWatchCacheInitialization, false),
                ],
                release: "1.34".into(),
            }),
        ]
    }

    // The feature-gate refusals keep kube-apiserver's own words (component-base
    // featuregate/feature_gate.go `Set` and `unsafeSetFromMap`; several locked gates are Go's
    // `utilerrors.NewAggregate`: `[e1, e2]`), with 中文 around them.
    #[test]
    fn feature_gate_refusals_keep_the_apiservers_words() {
        let r = feature_gate_refusals();
        assert_eq!(r[0].to_string(), "unrecognized feature gate: ConsistentListFromCache");
        assert_eq!(
            r[0].render(Lang::Zh),
            "Kubernetes 1.37 的 kube-apiserver 不认识这个特性门控：unrecognized feature gate: ConsistentListFromCache"
        );
        assert_eq!(
            r[1].to_string(),
            "cannot set feature gate WatchCacheInitializationPostStartHook to false, feature is locked to true"
        );
        assert_eq!(
            r[2].to_string(),
            "[cannot set feature gate ConsistentListFromCache to false, feature is locked to true, cannot set feature gate ResilientWatchCacheInitialization to false, feature is locked to true]"
        );
        assert_eq!(
            r[1].output()["refused"],
            json!({"kind": "setting", "error": {"kind": "feature-gate-locked", "release": "1.37",
                "locked": [{"gate": "WatchCacheInitializationPostStartHook", "value": false, "lockedTo": true}]}})
        );
        let parse = |v: &str| Refusal::from(crate::cluster::Setting::parse("feature-gates", v).unwrap_err());
        assert_eq!(parse("WatchList").to_string(), "missing bool value for WatchList");
        assert_eq!(
            parse("WatchList=yes").to_string(),
            "invalid value of WatchList=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"
        );
        assert_eq!(parse("Nope=true").to_string(), "unrecognized feature gate: Nope");
        assert_eq!(
            parse("Nope=true").output()["refused"]["error"],
            json!({"kind": "feature-gate-unknown", "name": "Nope", "release": null})
        );
    }

    #[test]
    fn each_refusal_is_carried_by_its_output_and_has_words_in_both_languages() {
        let mut seen = std::collections::BTreeSet::new();
        for r in all() {
            let out = r.output();
            assert_eq!(out["error"], r.to_string(), "{out}");
            assert!(seen.insert(out["refused"].to_string()), "two refusals serialise alike: {out}");
            let kind = out["refused"]["kind"].as_str().unwrap_or_default();
            assert!(!kind.is_empty() && kind.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{out}");
            assert_eq!(kind, kind_of(&r), "{out}");
            let (en, zh) = (r.render(Lang::En), r.render(Lang::Zh));
            assert_eq!(en, r.to_string());
            assert_ne!(en, zh);
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
        }
    }

    /// Each refusal's kind. No wildcard: a new refusal stops this compiling until it has a kind
    /// here, a sample in `all()` (counted by `KINDS`) and a row in the book.
    fn kind_of(r: &Refusal) -> &'static str {
        match r {
            Refusal::NoWatch { .. } => "no-watch",
            Refusal::WatchGone { .. } => "watch-gone",
            Refusal::NoInformer { .. } => "no-informer",
            Refusal::InformerRunning { .. } => "informer-running",
            Refusal::UnknownResource { .. } => "unknown-resource",
            Refusal::NoApiserver { .. } => "no-apiserver",
            Refusal::ApiserverZero => "apiserver-zero",
            Refusal::AdvanceTooLong { .. } => "advance-too-long",
            Refusal::TooMuchWork { .. } => "too-much-work",
            Refusal::ExplainValue { .. } => "explain-value",
            Refusal::NoPager => "no-pager",
            Refusal::PagerPath { .. } => "pager-path",
            Refusal::PagerResource { .. } => "pager-resource",
            Refusal::Setting { .. } => "setting",
            Refusal::NotInModule { .. } => "not-in-module",
        }
    }
    const KINDS: usize = 15;

    /// The same for a `set` line's error; `all()` holds one of each.
    fn setting_kind(e: &SettingError) -> &'static str {
        match e {
            SettingError::Unknown { .. } => "unknown",
            SettingError::OnOff { .. } => "on-off",
            SettingError::Duration { .. } => "duration",
            SettingError::Apiservers { .. } => "apiservers",
            SettingError::Etcd { .. } => "etcd",
            SettingError::Kubernetes { .. } => "kubernetes",
            SettingError::CacheCapacity { .. } => "cache-capacity",
            SettingError::CompactionInterval { .. } => "compaction-interval",
            SettingError::ClockEpoch { .. } => "clock-epoch",
            SettingError::KeepEndedWatches { .. } => "keep-ended-watches",
            SettingError::ClientGo { .. } => "client-go",
            SettingError::FeatureGateMissingValue { .. } => "feature-gate-missing-value",
            SettingError::FeatureGateInvalidValue { .. } => "feature-gate-invalid-value",
            SettingError::FeatureGateUnknown { .. } => "feature-gate-unknown",
            SettingError::FeatureGateLocked { .. } => "feature-gate-locked",
        }
    }
    const SETTING_KINDS: usize = 15;

    /// Every way a duration can fail to parse (the `problem` of a `duration` setting error).
    fn duration_problems() -> Vec<(crate::clock::DurationError, &'static str)> {
        use crate::clock::DurationError as D;
        let kind = |d: &D| match d {
            D::Empty => "empty",
            D::Invalid { .. } => "invalid",
            D::NumberTooLarge { .. } => "number-too-large",
            D::MissingUnit { .. } => "missing-unit",
            D::UnknownUnit { .. } => "unknown-unit",
            D::TooLarge { .. } => "too-large",
        };
        let t = || "x".to_string();
        [
            D::Empty,
            D::Invalid { text: t() },
            D::NumberTooLarge { text: t() },
            D::MissingUnit { text: t() },
            D::UnknownUnit { text: t(), unit: "y".into() },
            D::TooLarge { text: t() },
        ]
        .into_iter()
        .map(|d| {
            let k = kind(&d);
            (d, k)
        })
        .collect()
    }

    /// The ids in the first column of the first table under `heading` in the refusals chapter.
    fn documented(heading: &str) -> std::collections::BTreeSet<String> {
        crate::script::doc_table::table_ids(include_str!("../../site/src/reference/refusals.md"), heading)
    }

    // The book's refusals chapter lists exactly these kinds, of refusals, of setting errors and
    // of duration problems (the JSON Lines interface: "a line the session refuses").
    #[test]
    fn the_book_lists_exactly_the_refusal_kinds() {
        let set = |v: Vec<&str>| v.into_iter().map(str::to_string).collect::<std::collections::BTreeSet<_>>();
        let refusals = all();
        let kinds = set(refusals.iter().map(kind_of).collect());
        assert_eq!(kinds.len(), KINDS, "a sample of every refusal in all()");
        assert_eq!(documented("## Refusal kinds"), kinds);
        let settings = set(refusals
            .iter()
            .filter_map(|r| if let Refusal::Setting { error } = r { Some(setting_kind(error)) } else { None })
            .collect());
        assert_eq!(settings.len(), SETTING_KINDS, "a sample of every setting error in all()");
        assert_eq!(documented("## Setting errors"), settings);
        let problems = duration_problems();
        for (d, k) in &problems {
            assert_eq!(serde_json::to_value(d).unwrap_or_default()["kind"], *k);
        }
        assert_eq!(documented("## Duration problems"), set(problems.iter().map(|(_, k)| *k).collect()));
    }

    #[test]
    fn a_bad_duration_in_a_setting_says_what_is_wrong_with_it_in_both_languages() {
        let r = Refusal::from(crate::cluster::Setting::parse("cache.lag", "5").unwrap_err());
        assert_eq!(r.to_string(), "cache.lag: invalid duration \"5\": missing unit; use ms, s, m or h");
        assert_eq!(r.render(Lang::Zh), "cache.lag：无效的时长 \"5\"：缺少单位；可用 ms、s、m 或 h");
        assert_eq!(
            r.output()["refused"]["error"],
            json!({"kind": "duration", "setting": "cache.lag", "value": "5",
                "reason": "invalid duration \"5\": missing unit; use ms, s, m or h",
                "problem": {"kind": "missing-unit", "text": "5"}})
        );
    }

    #[test]
    fn too_much_work_says_what_the_advance_would_run_and_how_far_a_line_may_go() {
        use crate::clock::Duration;
        let t = super::super::budget::Timers {
            compactions: vec![Duration::from_secs(300)],
            resyncs: vec![(Duration::from_secs(1), 1)],
        };
        let e = t.check(Duration::from_secs(168 * 3600)).unwrap_err();
        let r = Refusal::from(e);
        assert_eq!(
            r.to_string(),
            "advance 604800s would run 2017 compaction round(s) and 604801 resync handler call(s); one advance runs at most 10000 of them (more would freeze the page): advance at most 9965s per line here, or lengthen compaction-interval / resync="
        );
        assert_eq!(
            r.render(Lang::Zh),
            "advance 604800s 将运行 2017 轮压缩和 604801 次 resync 处理函数调用；一行 advance 最多运行 10000 次（再多页面就会卡住）：这里每行最多 advance 9965s，或者把 compaction-interval / resync= 调长"
        );
    }

    #[test]
    fn the_wire_form_names_the_kind_and_camel_cases_the_fields() {
        let r = Refusal::TooMuchWork {
            requested: "2h".into(),
            compactions: 1,
            resync_calls: 2,
            max: "1h".into(),
        };
        let out = r.output();
        assert_eq!(
            out,
            json!({"error": r.to_string(), "refused": {"kind": "too-much-work", "requested": "2h",
                "compactions": 1, "resyncCalls": 2, "max": "1h"}})
        );
        assert_eq!(Refusal::ApiserverZero.output()["refused"], json!({"kind": "apiserver-zero"}));
    }
}
