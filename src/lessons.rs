//! Lessons: guided, bilingual (English / 简体中文) walks through `resourceVersion`, each step
//! checked against the engine's real output.
//!
//! A lesson is data, not code: one file `lessons/NN-slug.rv` that is at the same time a valid
//! rvlab script (so `rvlab test lessons/` replays every reference solution and checks its `expect`
//! lines) and, through `#:` comment lines that the script runner skips, the lesson's text and
//! goals. The files are embedded at compile time; [`all`] parses them.
//!
//! ```text
//! #: lesson list-rv                         slug (first directive; [a-z0-9-])
//! #: title.en The list's resourceVersion …
//! #: title.zh 列表的 resourceVersion …
//! #: setup                                  optional: script lines that prepare the sandbox
//! POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
//! #: step                                   starts a step (3–8 per lesson)
//! #: say.en Narration shown when the step starts. Several say lines join with a space;
//! #: say.en an empty `#: say.en` starts a new paragraph.
//! #: say.zh …
//! #: goal.en What the learner must make happen.
//! #: goal.zh …
//! #: check code 200                         a goal predicate (an `expect` without the word `expect`)
//! #: check+ body.metadata.resourceVersion == "5"   … that the SAME output must also satisfy
//! #: after.en Optional: what the output just showed (shown once every check passes).
//! #: after.zh …
//! GET /api/v1/namespaces/default/configmaps       the reference solution ("show me")
//! expect body.metadata.resourceVersion == "5"     pins for `rvlab test` (not part of the solution)
//! ```
//!
//! A check passes when **some** output produced during the step satisfies it, so any correct way
//! of reaching the goal counts; a `check+` line joins the check above it: one output must satisfy
//! the whole group. Plain `#` comments are author notes and are ignored; unknown `#:` keys are
//! errors (so a typo cannot silently drop text). Text may use `backticks` for code.

use serde_json::Value;

use crate::script::expect::{ExpectFailure, Expectation, FailureKind, parse_expectation};
use crate::script::parse::parse_line;
use crate::script::why::Lang;

/// A text in both languages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    /// The text in `lang` (`"zh"`, `"zh-CN"`, … for Chinese, anything else English); falls back
    /// to the other language when that one is empty.
    pub fn get(&self, lang: &str) -> &str {
        let zh = lang.starts_with("zh");
        let (first, second) = if zh { (&self.zh, &self.en) } else { (&self.en, &self.zh) };
        if first.is_empty() { second } else { first }
    }
    fn is_empty(&self) -> bool {
        self.en.is_empty() && self.zh.is_empty()
    }
}

/// One step: narration, a goal, the checks that decide it is reached, and a reference solution.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub say: Text,
    pub goal: Text,
    /// Shown once the goal is reached; may be empty.
    pub after: Text,
    /// Goal predicates, in file order.
    pub checks: Vec<Expectation>,
    /// `check_groups[i]` is the group of `checks[i]`: checks of one group must hold for one and
    /// the same output (`#: check+`); different groups may be satisfied by different outputs.
    pub check_groups: Vec<usize>,
    /// The reference solution: script lines, without the `expect` pins.
    pub solution: Vec<String>,
    /// The `expect` lines that follow solution lines in the file (what `rvlab test` checks).
    pub pins: Vec<String>,
}

/// A lesson.
#[derive(Debug, Clone, Default)]
pub struct Lesson {
    pub slug: String,
    pub title: Text,
    /// Script lines run before the learner acts (without `expect` pins).
    pub setup: Vec<String>,
    pub steps: Vec<Step>,
}

/// Declares the lesson files once: [`NAMES`] (what the browser fetches, no text compiled in)
/// and `FILES` (names with their text, for the engine and the CLI).
macro_rules! lesson_files {
    ($($file:literal),* $(,)?) => {
        /// The lesson file names in `lessons/`, in order.
        pub const NAMES: &[&str] = &[$($file),*];
        /// The lesson files, in order.
        const FILES: &[(&str, &str)] = &[$(($file, include_str!(concat!("../lessons/", $file)))),*];
    };
}

lesson_files![
    "01-where-rv-comes-from.rv",
    "02-comparing-rvs.rv",
    "03-list-rv.rv",
    "04-read-paths.rv",
    "05-paging.rv",
    "06-continue-after-compaction.rv",
    "07-watch-start.rv",
    "08-two-410s.rv",
    "09-slow-watcher.rv",
    "10-client-go-410.rv",
    "11-two-apiservers.rv",
    "12-k8s-1.30-vs-now.rv",
    "13-myths.rv",
    "14-bookmarks.rv",
    "15-streaming-informer.rv",
    "16-deleted-final-state-unknown.rv",
];

/// The embedded lesson files as `(file name, text)`, in order.
pub fn sources() -> &'static [(&'static str, &'static str)] {
    FILES
}

/// Every lesson, in order. A file that does not parse is skipped (the tests make sure none is).
pub fn all() -> Vec<Lesson> {
    FILES.iter().filter_map(|(_, text)| parse(text).ok()).collect()
}

/// The lesson with this slug.
pub fn find(slug: &str) -> Option<Lesson> {
    all().into_iter().find(|l| l.slug == slug)
}

enum Section {
    None,
    Setup,
    Step,
}

fn push_text(into: &mut String, line: &str) {
    if line.is_empty() {
        if !into.is_empty() {
            into.push_str("\n\n");
        }
    } else {
        if !into.is_empty() && !into.ends_with("\n\n") {
            into.push(' ');
        }
        into.push_str(line);
    }
}

/// Parses one lesson file. Errors name the line (1-based) and what is wrong.
pub fn parse(text: &str) -> Result<Lesson, String> {
    let mut lesson = Lesson::default();
    let mut section = Section::None;
    let mut group = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let err = |m: String| format!("line {n}: {m}");
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("#:") {
            let rest = rest.trim();
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            if key != "lesson" && lesson.slug.is_empty() {
                return Err(err("a lesson starts with `#: lesson <slug>`".into()));
            }
            let step = lesson.steps.last_mut();
            let in_step = matches!(section, Section::Step);
            let need_step = |what: &str| err(format!("`#: {what}` belongs to a step (after `#: step`)"));
            match key {
                "lesson" => {
                    if !lesson.slug.is_empty() {
                        return Err(err("a second `#: lesson` line".into()));
                    }
                    if value.is_empty()
                        || !value
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
                    {
                        return Err(err(format!(
                            "the slug must be lower-case letters, digits, `-` or `.`, not {value:?}"
                        )));
                    }
                    lesson.slug = value.to_string();
                }
                "title.en" => push_text(&mut lesson.title.en, value),
                "title.zh" => push_text(&mut lesson.title.zh, value),
                "setup" => {
                    if !lesson.steps.is_empty() || !lesson.setup.is_empty() {
                        return Err(err("`#: setup` comes once, before the first step".into()));
                    }
                    section = Section::Setup;
                }
                "step" => {
                    section = Section::Step;
                    lesson.steps.push(Step::default());
                }
                "say.en" | "say.zh" | "goal.en" | "goal.zh" | "after.en" | "after.zh" => {
                    let (Some(step), true) = (step, in_step) else { return Err(need_step(key)) };
                    let t = match key {
                        "say.en" => &mut step.say.en,
                        "say.zh" => &mut step.say.zh,
                        "goal.en" => &mut step.goal.en,
                        "goal.zh" => &mut step.goal.zh,
                        "after.en" => &mut step.after.en,
                        _ => &mut step.after.zh,
                    };
                    push_text(t, value);
                }
                "check" | "check+" => {
                    let (Some(step), true) = (step, in_step) else { return Err(need_step(key)) };
                    let e = parse_expectation(value).map_err(|e| err(format!("check: {e}")))?;
                    if key == "check" {
                        group += 1;
                    } else if step.checks.is_empty() {
                        return Err(err("`#: check+` joins a `#: check` above it in the same step".into()));
                    }
                    step.checks.push(e);
                    step.check_groups.push(group);
                }
                other => {
                    return Err(err(format!(
                        "unknown `#: {other}`; expected lesson, title.en|zh, setup, step, say.en|zh, goal.en|zh, after.en|zh, check, check+"
                    )));
                }
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        // A script line: it must parse, as `rvlab test` would run it.
        parse_line(line).map_err(|e| err(format!("{e}")))?;
        let is_pin = line.starts_with("expect ") || line == "expect";
        match section {
            Section::None => return Err(err("a script line before `#: setup` or `#: step`".into())),
            Section::Setup => {
                if !is_pin {
                    lesson.setup.push(line.to_string());
                }
            }
            Section::Step => {
                let step = lesson.steps.last_mut().expect("in a step");
                if is_pin {
                    step.pins.push(line.to_string());
                } else {
                    step.solution.push(line.to_string());
                }
            }
        }
    }
    if lesson.slug.is_empty() {
        return Err("no `#: lesson <slug>` line".into());
    }
    if lesson.title.is_empty() {
        return Err(format!("lesson {}: no title", lesson.slug));
    }
    if lesson.steps.is_empty() {
        return Err(format!("lesson {}: no `#: step`", lesson.slug));
    }
    for (i, s) in lesson.steps.iter().enumerate() {
        let k = i + 1;
        if s.goal.is_empty() {
            return Err(format!("lesson {}, step {k}: no goal", lesson.slug));
        }
        if s.checks.is_empty() {
            return Err(format!("lesson {}, step {k}: no `#: check`", lesson.slug));
        }
        if s.solution.is_empty() {
            return Err(format!("lesson {}, step {k}: no reference solution", lesson.slug));
        }
    }
    Ok(lesson)
}

impl Lesson {
    /// Every text that is missing in one language, e.g. `step 2 say.zh`. Empty when the lesson
    /// is complete in English and Chinese.
    pub fn missing_translations(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut need = |what: String, t: &Text, optional: bool| {
            if optional && t.is_empty() {
                return;
            }
            if t.en.trim().is_empty() {
                out.push(format!("{what}.en"));
            }
            if t.zh.trim().is_empty() {
                out.push(format!("{what}.zh"));
            }
        };
        need("title".into(), &self.title, false);
        for (i, s) in self.steps.iter().enumerate() {
            need(format!("step {} say", i + 1), &s.say, false);
            need(format!("step {} goal", i + 1), &s.goal, false);
            need(format!("step {} after", i + 1), &s.after, true);
        }
        out
    }
}

/// The outcome of one check: `Ok`, or what is still missing.
pub type CheckResult = Result<(), ExpectFailure>;

fn is_expect_output(o: &Value) -> bool {
    o.get("expect").is_some()
}

/// Checks a step's goal against the outputs produced during the step (any order; `expect`
/// outputs are ignored). Returns one entry per check, in order: `Ok` when it holds, or the
/// failure of the output that came closest, written as `expected …, seen …` (what is still
/// missing; `seen nothing yet` when the step produced no output).
pub fn check_step(step: &Step, outputs: &[Value]) -> Vec<(usize, CheckResult)> {
    let outs: Vec<&Value> = outputs.iter().filter(|o| !is_expect_output(o)).collect();
    // `informer <name> …` checks look at the newest `informer show <name>` output.
    let informers = |name: &str| -> Option<Value> {
        outs.iter()
            .rev()
            .find(|o| o.get("informer").and_then(Value::as_str) == Some(name))
            .map(|o| (*o).clone())
    };
    let mut results: Vec<(usize, CheckResult)> = Vec::new();
    let mut groups: Vec<usize> = step.check_groups.clone();
    groups.dedup();
    for g in groups {
        let idx: Vec<usize> = (0..step.checks.len()).filter(|&i| step.check_groups[i] == g).collect();
        if outs.is_empty() {
            for &i in &idx {
                results.push((
                    i,
                    Err(ExpectFailure {
                        expected: step.checks[i].assertion(),
                        seen: "nothing yet".into(),
                        kind: FailureKind::NoOutput,
                    }),
                ));
            }
            continue;
        }
        // Score every output: (checks passed, checks whose subject is present, position).
        let mut best: Option<((usize, usize, usize), Vec<CheckResult>)> = None;
        for (pos, o) in outs.iter().enumerate() {
            let rs: Vec<CheckResult> =
                idx.iter().map(|&i| step.checks[i].check(Some(o), &informers)).collect();
            let passed = rs.iter().filter(|r| r.is_ok()).count();
            let present = rs
                .iter()
                .filter(|r| match r {
                    Ok(()) => true,
                    Err(f) => f.kind == FailureKind::Mismatch,
                })
                .count();
            let score = (passed, present, pos);
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, rs));
            }
        }
        let (_, rs) = best.expect("at least one output");
        results.extend(idx.into_iter().zip(rs));
    }
    results.sort_by_key(|(i, _)| *i);
    results
}

/// True when every check of the step holds for these outputs.
pub fn step_done(step: &Step, outputs: &[Value]) -> bool {
    check_step(step, outputs).iter().all(|(_, r)| r.is_ok())
}

/// What a step still needs, in the learner's words (English or 中文): the check's subject and
/// test said as a sentence, and what the closest output had instead. Exhaustive over subjects,
/// tests and failure kinds, so a new one does not compile without both languages.
pub fn still_missing(e: &Expectation, f: &ExpectFailure, lang: Lang) -> String {
    use crate::script::expect::{Check, CmpOp, Entry, Subject};
    let zh = lang == Lang::Zh;
    let pick = |en: String, z: String| if zh { z } else { en };
    let kvs = e.subject == Subject::Kvs;
    let entry = |x: &Entry| match (&x.rv, kvs, zh) {
        (None, _, _) => x.text.clone(),
        (Some(rv), true, false) => format!("{} (mod_revision {rv})", x.text),
        (Some(rv), true, true) => format!("{}（mod_revision {rv}）", x.text),
        (Some(rv), false, false) => format!("{} (resourceVersion {rv})", x.text),
        (Some(rv), false, true) => format!("{}（resourceVersion {rv}）", x.text),
    };
    let list = |xs: &[Entry]| {
        if xs.is_empty() {
            pick("nothing".into(), "空".into())
        } else {
            xs.iter().map(entry).collect::<Vec<_>>().join(if zh { "、" } else { ", " })
        }
    };
    let what = match &e.subject {
        Subject::Code => pick("The answer's status code".into(), "响应的状态码".into()),
        Subject::Reason => pick("The Status reason".into(), "Status 的 reason".into()),
        Subject::Message => pick("The message".into(), "消息".into()),
        Subject::Error => pick("The line's error".into(), "这一行的错误".into()),
        Subject::Count => pick("The count".into(), "数量".into()),
        Subject::Closed => pick("Whether the watch stream ended".into(), "watch 流是否已结束".into()),
        Subject::Header(n) => pick(format!("The answer's {n} header"), format!("响应头 {n}")),
        Subject::Items => pick("The objects in the list".into(), "列表里的对象".into()),
        Subject::Events => pick("The watch's events".into(), "watch 收到的事件".into()),
        Subject::Kvs => pick("The keys etcd returned".into(), "etcd 返回的 key".into()),
        Subject::InformerStore(n) => {
            pick(format!("What informer {n} holds"), format!("informer {n} 中保存的对象"))
        }
        Subject::Informer { name, path } => {
            pick(format!("{path} of informer {name}"), format!("informer {name} 的 {path}"))
        }
        Subject::Path(p) => pick(format!("{p} in the answer"), format!("响应中的 {p}")),
    };
    let should = match &e.check {
        Check::Exists => pick("should be there".into(), "应当存在".into()),
        Check::Absent => pick("should not be there".into(), "不应存在".into()),
        Check::Compare(op, v) => match op {
            CmpOp::Eq => pick(format!("should be {v}"), format!("应为 {v}")),
            CmpOp::Ne => pick(format!("should not be {v}"), format!("不应为 {v}")),
            CmpOp::Lt => pick(format!("should be less than {v}"), format!("应小于 {v}")),
            CmpOp::Le => pick(format!("should be at most {v}"), format!("应不大于 {v}")),
            CmpOp::Gt => pick(format!("should be more than {v}"), format!("应大于 {v}")),
            CmpOp::Ge => pick(format!("should be at least {v}"), format!("应不小于 {v}")),
        },
        Check::Contains(v) => pick(format!("should contain {v}"), format!("应包含 {v}")),
        Check::ListEq(xs) => {
            pick(format!("should be exactly: {}", list(xs)), format!("应当恰好是：{}", list(xs)))
        }
        Check::ListNe(xs) => pick(format!("should not be: {}", list(xs)), format!("不应是：{}", list(xs))),
        Check::ListContains(x) => {
            pick(format!("should include {}", entry(x)), format!("应当包含 {}", entry(x)))
        }
    };
    // What the closest output had: the value after the subject, without the checker's operator.
    let seen_value = {
        let s = f.seen.trim();
        let after = s.split_once(" == ").map_or(s, |(_, v)| v);
        after.strip_prefix(e.subject.to_string().as_str()).unwrap_or(after).trim().to_string()
    };
    // A list as the checker writes it (`[a@4, b@3]`) in the same words as the expected entries.
    let seen_value = match seen_value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        Some(inner) if e.subject.is_list() => {
            let xs: Vec<Entry> = inner
                .split(", ")
                .filter(|t| !t.is_empty())
                .map(|t| match t.rsplit_once('@') {
                    Some((text, rv)) => Entry { text: text.to_string(), rv: Some(rv.to_string()) },
                    None => Entry::new(t),
                })
                .collect();
            list(&xs)
        }
        _ => seen_value,
    };
    let seen = match f.kind {
        FailureKind::Mismatch => pick(format!("now it is {seen_value}"), format!("现在是 {seen_value}")),
        FailureKind::SubjectAbsent => {
            pick("the answers so far do not have it".into(), "目前的响应里还没有它".into())
        }
        FailureKind::NoInformer => pick("there is no such informer yet".into(), "还没有这个 informer".into()),
        FailureKind::NoOutput => {
            pick("nothing has run in this step yet".into(), "这一步还没有运行任何命令".into())
        }
    };
    pick(format!("{what} {should}; {seen}."), format!("{what}{should}；{seen}。"))
}
