//! Every explanation the playground shows, rendered from the engine's typed decisions — the one
//! place where a decision becomes words, in English and 中文. The CLI's `"explain"` is
//! [`render`] in [`Lang::En`]; the UI gets the decision typed from the `Session` (the same value
//! the output's `"why"` serialises) and calls [`render`] in its language. Nothing here reads
//! request text or response bodies: only the decision value.
//!
//! * [`api`]: apiserver decisions (read paths, watch starts, writes, rejections) and why a watch
//!   stream ended.
//! * [`ops`]: `set` lines and etcd operations.
//! * `plain`: each rule, outcome and end in words without numbers — what a decision says when
//!   the request stopped before the rule's numbers existed (a 429 before a watch started).
//! * [`informer`]: client decisions (informer, reflector, pager, REST client) — the `log` of
//!   `informer show` and `pager list`.

pub mod api;
pub mod informer;
pub mod ops;
mod plain;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::apiserver::decision::{Ended, EtcdWhy, Why};
use crate::clock::Duration;
use crate::cluster::SettingWhy;

/// The language of a rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// Picks the English or the Chinese text.
    pub(crate) fn pick(self, en: String, zh: String) -> String {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

/// A span of simulated time as the explanations write it: "3 s" / "3 秒", "500 ms" / "500 毫秒".
pub fn span(d: Duration, lang: Lang) -> String {
    let ms = d.as_millis();
    match (ms.is_multiple_of(1000), lang) {
        (true, Lang::En) => format!("{} s", ms / 1000),
        (true, Lang::Zh) => format!("{} 秒", ms / 1000),
        (false, Lang::En) => format!("{ms} ms"),
        (false, Lang::Zh) => format!("{ms} 毫秒"),
    }
}

/// The `"why"` of one output: whichever decision produced it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum OutputWhy {
    /// An API request's answer (`"rule"`).
    Request(Why),
    /// A watch stream that has ended (`"ended"`).
    Ended(Ended),
    /// A `set` line (`"setting"`).
    Setting(SettingWhy),
    /// An etcd operation (`"etcd"`): `etcd put|get|del|compact` and `compact <rev>`.
    Etcd(EtcdWhy),
}

impl OutputWhy {
    /// The output's `"why"` value, if it has a well-formed one (what a reader of the JSON Lines
    /// gets back; the session hands its own decisions over typed).
    pub fn from_output(out: &Value) -> Option<OutputWhy> {
        OutputWhy::from_json(out.get("why")?)
    }

    /// A `"why"` value read back: the first of the four decisions it is, tried in the order
    /// above (what `#[serde(untagged)]` would do, without buffering the value once per variant).
    pub fn from_json(v: &Value) -> Option<OutputWhy> {
        if let Ok(w) = Why::deserialize(v) {
            return Some(OutputWhy::Request(w));
        }
        if let Ok(e) = Ended::deserialize(v) {
            return Some(OutputWhy::Ended(e));
        }
        if let Ok(s) = SettingWhy::deserialize(v) {
            return Some(OutputWhy::Setting(s));
        }
        EtcdWhy::deserialize(v).ok().map(OutputWhy::Etcd)
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The explanation of one decision in `lang`.
pub fn render(why: &OutputWhy, lang: Lang) -> String {
    match why {
        OutputWhy::Request(w) => api::request(w, lang),
        OutputWhy::Ended(e) => api::ended(e, lang),
        OutputWhy::Setting(s) => ops::setting(s, lang),
        OutputWhy::Etcd(e) => ops::etcd(e, lang),
    }
}
