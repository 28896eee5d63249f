//! The fuzz oracles, shared by the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`, nightly) and by
//! the stable replay test `tests/fuzz_regression.rs` (which includes this file with `#[path]`).
//! Every `check_*` takes raw fuzz bytes, drives one public entry point of the engine and panics
//! only when a property is broken: the engine panicked, or a round trip / determinism check
//! failed.

#![allow(dead_code)]

use rvlab::apiserver::continue_token::{ContinueToken, go_base64_encode};
use rvlab::apiserver::request::parse_request;
use rvlab::clock::Duration;
use rvlab::cluster::MAX_ADVANCE;
use rvlab::script::parse::parse_line;
use rvlab::script::{LineOutcome, Session};
use serde_json::Value;

/// Scripts longer than this (in bytes) are cut, so one input stays fast.
pub const MAX_SCRIPT_BYTES: usize = 4096;
/// Lines the structure-aware generator emits at most.
pub const MAX_GEN_LINES: usize = 64;
/// The longest `advance` a fuzzed script text runs: a longer one that the engine would run (at
/// most 168h, within its timer budget) is run as this long. Time passes only at timers, but a
/// day of them with watches and informers open is thousands of bookmark, progress and compaction
/// rounds, and `advance 168h` lines made a mutated script cost up to a second. Ten minutes
/// reach the compactor's 5-minute rounds, resyncs and the timer budget's refusals in one line,
/// and the 30–60 minute watch timeouts in a few (an hour cost twice the time per input, for 7
/// more edges on a grown corpus); an `advance` the engine refuses (over 168h) is left as written.
pub const MAX_FUZZ_ADVANCE: Duration = Duration::from_secs(600);
/// The simulated time one generated script may advance in all; past it, its `advance` lines
/// take the shortest durations.
pub const MAX_GEN_TIME: Duration = Duration::from_secs(2 * 3600);

/// (a) `ContinueToken::decode` never panics, and whatever decodes re-encodes to a token that
/// decodes to the same value.
pub fn check_continue_token(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = ContinueToken::decode(&text) {
        let again = ContinueToken::decode(&t.encode());
        assert_eq!(again.as_ref(), Ok(&t), "decode(encode(decode({text:?}))) differs");
        let _ = t.start_key("/registry/configmaps/default/");
    }
}

/// (b) `parse_request(method, target, body)`. Input: `METHOD target` on the first line, the
/// rest (if there is a newline) is the body.
pub fn check_request(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (head, body) = match text.split_once('\n') {
        Some((h, b)) => (h, Some(b)),
        None => (&*text, None),
    };
    let (method, target) = head.split_once(' ').unwrap_or(("GET", head));
    let _ = parse_request(method, target, body);
    for watch_list in [false, true] {
        let _ = rvlab::apiserver::validation::parse_and_validate(method, target, body, watch_list);
    }
}

/// (c) `parse_line` never panics; whatever parses prints (canonically) as a line that parses to
/// the same command, and the canonical text is a fixed point.
pub fn check_parse_line(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(cmd) = parse_line(&text) {
        let canon = cmd.to_string();
        let again = parse_line(&canon)
            .unwrap_or_else(|e| panic!("{text:?} parses, its canonical form {canon:?} does not: {e}"));
        assert_eq!(again, cmd, "{text:?} → {canon:?} parses differently");
        assert_eq!(again.to_string(), canon, "canonical form of {text:?} is not a fixed point");
    }
}

/// (d1) a whole script, as text (cut at [`MAX_SCRIPT_BYTES`]), run once, line by line: no
/// panic, and each line's typed failure is what its output carries (see [`check_outcome`]).
/// That the same script prints the same output twice is `script_gen`'s oracle (every generated
/// script is replayed in a fresh session) and `embed_api`'s (scripts run whole and in pieces):
/// running every mutated text twice cost this target half its executions.
pub fn check_script_text(data: &[u8]) {
    let data = &data[..data.len().min(MAX_SCRIPT_BYTES)];
    let text = bounded_advances(&String::from_utf8_lossy(data));
    let mut s = Session::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(o) = s.run_line_outcome(i + 1, line) {
            check_outcome(line, &o);
        }
    }
}

/// `text` with each `advance` the engine would run capped at [`MAX_FUZZ_ADVANCE`] (written
/// canonically); every other line as it is.
pub fn bounded_advances(text: &str) -> String {
    if !text.contains("advance") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match line.contains("advance").then(|| parse_line(line)) {
            Some(Ok(Command::Advance(d))) if d > MAX_FUZZ_ADVANCE && d <= MAX_ADVANCE => {
                out.push_str(&Command::Advance(MAX_FUZZ_ADVANCE).to_string());
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// A line's output carries `"syntax"` or `"refused"` exactly when the session hands a typed
/// failure, and then is that failure's output (after `"line"`): what the UI renders and what
/// JSON Lines readers read never disagree.
pub fn check_outcome(line: &str, o: &LineOutcome) {
    match &o.failure {
        Some(f) => {
            let mut out = o.out.clone();
            if let Value::Object(m) = &mut out {
                m.remove("line");
            }
            assert_eq!(out, f.output(), "{line:?}: the output is not its typed failure's");
        }
        None => assert!(
            o.out.get("syntax").is_none() && o.out.get("refused").is_none(),
            "{line:?}: a typed error in the output without a typed failure: {}",
            o.out
        ),
    }
}

/// (d2) structure-aware: the bytes choose a sequence of plausible lines (see [`Gen`]), each
/// chosen after seeing the previous outputs (continue tokens, revisions, watch ids). No panic,
/// and replaying the generated text in a fresh session prints the same output.
pub fn check_script_gen(data: &[u8]) {
    let mut script = String::new();
    let outputs = run_generated(data, &mut script);
    let again = Session::new().run_script(&script);
    assert!(outputs == again, "same script, different output:\n{script}");
}

/// Runs the script the bytes describe, appending each line to `script` *before* running it (so
/// a caller that catches a panic can print the script up to the line that panicked).
pub fn run_generated(data: &[u8], script: &mut String) -> Vec<Value> {
    let mut g = Gen { b: Bytes { data, pos: 0 }, ctx: Ctx::default(), time: Duration(0) };
    let mut s = Session::new();
    let mut outs = Vec::new();
    let mut n = 0;
    while n < MAX_GEN_LINES {
        let Some(line) = g.line() else { break };
        n += 1;
        script.push_str(&line);
        script.push('\n');
        if let Some(o) = s.run_line(n, &line) {
            g.ctx.observe(&line, &o);
            outs.push(o);
        }
    }
    outs
}

/// Renders the generated script only (for seeds and failure reports).
pub fn generated_script(data: &[u8]) -> String {
    let mut s = String::new();
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_generated(data, &mut s)));
    s
}

// ---------------------------------------------------------------------------------------------

struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> Option<u8> {
        let b = self.data.get(self.pos).copied();
        self.pos += 1;
        b
    }
    /// A byte once the input is exhausted reads as 0 (the first choice), except for the
    /// line-kind byte which ends the script.
    fn byte(&mut self) -> u8 {
        self.u8().unwrap_or(0)
    }
    fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n.max(1)
    }
    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    fn chance(&mut self) -> bool {
        self.byte() & 1 == 1
    }
}

/// What the generator has learnt from the outputs so far.
#[derive(Default)]
struct Ctx {
    tokens: Vec<String>,
    max_rv: i64,
    watches: usize,
    apiservers: usize,
}

impl Ctx {
    fn observe(&mut self, line: &str, o: &Value) {
        if let Some(t) = o.pointer("/body/metadata/continue").and_then(Value::as_str) {
            self.tokens.push(t.to_string());
            if self.tokens.len() > 4 {
                self.tokens.remove(0);
            }
        }
        let rv = |p: &str| o.pointer(p).and_then(Value::as_str).and_then(|s| s.parse::<i64>().ok());
        for r in [rv("/body/metadata/resourceVersion"), o.pointer("/header/revision").and_then(Value::as_i64)]
            .into_iter()
            .flatten()
        {
            self.max_rv = self.max_rv.max(r);
        }
        if o.get("watch").is_some() {
            self.watches += 1;
        }
        if let Some(n) = line.strip_prefix("set apiservers ").and_then(|v| v.parse::<usize>().ok())
            && o.get("error").is_none()
        {
            self.apiservers = n;
        }
    }
}

const NAMES: &[&str] = &["a", "b", "c", "d", "e-1", "Bad_Name", ""];
const NAMESPACES: &[&str] = &["default", "default", "ns1", "kube-system"];
const RESOURCES: &[&str] = &["configmaps", "configmaps", "configmaps", "pods", "secrets"];
const DURATIONS: &[&str] = &["100ms", "500ms", "1s", "2s", "3s", "10s", "61s", "75s", "5m", "31m", "1h"];

struct Gen<'a> {
    b: Bytes<'a>,
    ctx: Ctx,
    /// The simulated time the script's `advance` lines have asked for so far.
    time: Duration,
}

impl Gen<'_> {
    /// `advance` by a chosen duration, or by one of the shortest once the script has advanced
    /// [`MAX_GEN_TIME`].
    fn advance(&mut self) -> String {
        let pick = self.b.pick(DURATIONS);
        let d = Duration::parse(pick).unwrap_or(Duration(0));
        if self.time.0.saturating_add(d.0) > MAX_GEN_TIME.0 {
            return format!("advance {}", self.b.pick(&DURATIONS[..3]));
        }
        self.time = Duration(self.time.0 + d.0);
        format!("advance {pick}")
    }

    fn line(&mut self) -> Option<String> {
        let kind = self.b.u8()?;
        Some(match kind % 32 {
            0..=5 => self.create(),
            6..=8 => self.update(),
            9..=10 => self.delete(),
            11..=14 => self.list(false),
            15..=16 => self.list(true),
            17 => self.get_item(),
            18..=19 => format!("events w{}", self.watch_id()),
            20 => {
                let verb = self.b.pick(&["pause", "resume", "cancel", "resume", "drop"]);
                format!("{verb} w{}", self.watch_id())
            }
            21 => format!("compact {}", self.rv_near()),
            22 => self.advance(),
            23 => self.set(),
            24 => format!("apiserver {}", 1 + self.b.below(3)),
            25 => format!("restart apiserver {}", 1 + self.b.below(3)),
            26 => self.etcd(),
            27 => {
                let name = self.b.pick(&["i1", "i2"]);
                match self.b.below(7) {
                    0 | 1 => {
                        let mut l = format!(
                            "informer start {name} {} mode={}",
                            self.b.pick(RESOURCES),
                            self.b.pick(&["legacy", "streaming"])
                        );
                        match self.b.below(4) {
                            0 => l.push_str(&format!(
                                " apiservers={}",
                                self.b.pick(&["1,2", "2,1", "1,2,3", "2"])
                            )),
                            1 => {
                                l.push_str(&format!(" resync={}", self.b.pick(&["30s", "1s", "500ms", "0s"])))
                            }
                            _ => {}
                        }
                        l
                    }
                    2 => format!("informer show {name}"),
                    3 if self.b.below(2) == 0 => "pager next".to_string(),
                    3 => format!("drop informer {name}"),
                    4 => {
                        let limit = self.b.pick(&["", " limit=1", " limit=2", " limit=0"]);
                        let rv = self.b.pick(&["", " rv=0", " pages=1"]);
                        let res = self.b.pick(RESOURCES);
                        let ns = self.b.pick(NAMESPACES);
                        format!("pager list /api/v1/namespaces/{ns}/{res}{limit}{rv}")
                    }
                    _ => format!("informer stop {name}"),
                }
            }
            28 => self.expect(),
            29 => format!("GET {}", self.path(true)),
            30 => {
                if self.b.chance() {
                    self.kubectl()
                } else {
                    self.patch()
                }
            }
            _ => self.list(true),
        })
    }

    fn kubectl(&mut self) -> String {
        let res = self.b.pick(&["configmaps", "cm", "pods", "po", "secrets"]);
        let name = self.b.pick(NAMES);
        let ns = self.b.pick(&["", " -n default", " -n kube-system", " -n"]);
        match self.b.below(6) {
            5 => format!(
                "kubectl patch {res} {name}{ns} {} -p {}",
                self.b.pick(&["", "--type=merge", "--type=json", "--type=strategic", "--type=apply"]),
                self.b.pick(&[
                    "{\"data\":{\"k\":\"v\"}}",
                    "'[{\"op\":\"remove\",\"path\":\"/data/k\"}]'",
                    "{"
                ])
            ),
            0 => format!("kubectl get {res}{ns}"),
            1 => format!("kubectl get {res} {name}{ns} -w --output-watch-events"),
            2 => format!(
                "kubectl get {res}{ns} --chunk-size={} {}",
                self.b.pick(&["0", "1", "2", "500", "-1", "x"]),
                self.b.pick(&["-w", "", "--bogus"])
            ),
            3 => format!(
                "kubectl create configmap {name}{ns} {}",
                self.b.pick(&["--from-literal=k=v", "--from-literal=k", "\"--from-literal=a=b c\"", ""])
            ),
            _ => format!("kubectl delete {res} {name}{ns}"),
        }
    }

    fn watch_id(&mut self) -> usize {
        1 + self.b.below(self.ctx.watches + 1)
    }

    fn rv_near(&mut self) -> i64 {
        let base = self.ctx.max_rv.max(1);
        match self.b.below(8) {
            0 => 0,
            1 => 1,
            2 => base + 1,
            3 => base + 10,
            _ => (base - self.b.below(6) as i64).max(1),
        }
    }

    fn path(&mut self, collection: bool) -> String {
        let res = self.b.pick(RESOURCES);
        let ns = self.b.pick(NAMESPACES);
        let mut p = if collection && self.b.below(4) == 0 {
            format!("/api/v1/{res}")
        } else {
            format!("/api/v1/namespaces/{ns}/{res}")
        };
        if !collection {
            p.push('/');
            p.push_str(self.b.pick(NAMES));
        }
        if self.b.below(16) == 0 {
            p = self
                .b
                .pick(&[
                    "/api/v1/watch/configmaps",
                    "/api/v2/pods",
                    "/apis/apps/v1/deployments",
                    "/api/v1/namespaces//configmaps",
                    "/api/v1/namespaces/default/configmaps/a/status",
                ])
                .to_string();
        }
        p
    }

    fn object(&mut self, name: &str) -> String {
        let mut meta = format!("\"name\":{}", serde_json::to_string(name).unwrap());
        if self.b.below(4) == 0 {
            meta.push_str(&format!(",\"labels\":{{\"app\":\"{}\"}}", self.b.pick(&["x", "y", "bad value"])));
        }
        if self.b.below(3) == 0 {
            meta.push_str(&format!(",\"resourceVersion\":\"{}\"", self.rv_near()));
        }
        if self.b.below(16) == 0 {
            meta.push_str(",\"namespace\":\"ns1\"");
        }
        let data = self.b.pick(&[
            "",
            ",\"data\":{\"k\":\"1\"}",
            ",\"data\":{\"k\":\"2\"}",
            ",\"data\":{\"k\":3}",
            ",\"spec\":{}",
        ]);
        let kind = self.b.pick(&[
            "",
            "\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",",
            "\"kind\":\"Pod\",\"apiVersion\":\"v1\",",
            "\"apiVersion\":\"v2\",",
        ]);
        format!("{{{kind}\"metadata\":{{{meta}}}{data}}}")
    }

    fn create(&mut self) -> String {
        let path = self.path(false);
        let (coll, name) = path.rsplit_once('/').unwrap_or((&path, ""));
        let body = if self.b.below(16) == 0 { "[1,2]".to_string() } else { self.object(name) };
        format!("POST {coll} {body}")
    }

    fn update(&mut self) -> String {
        let path = self.path(false);
        let name = path.rsplit('/').next().unwrap_or("").to_string();
        let name = if self.b.below(16) == 0 { "other".to_string() } else { name };
        let body = self.object(&name);
        format!("PUT {path} {body}")
    }

    fn delete(&mut self) -> String {
        let path = self.path(false);
        match self.b.below(6) {
            0 => {
                format!("DELETE {path} {{\"preconditions\":{{\"resourceVersion\":\"{}\"}}}}", self.rv_near())
            }
            1 => format!("DELETE {path}?gracePeriodSeconds={}", self.b.pick(&["0", "30", "x"])),
            2 => format!("DELETE {path}?dryRun={}", self.b.pick(&["All", "x"])),
            3 => {
                // deletecollection
                let coll = self.path(true);
                let q = self.b.pick(&[
                    "",
                    "?labelSelector=app%3Dx",
                    "?fieldSelector=metadata.name%3Da",
                    "?dryRun=All",
                ]);
                format!("DELETE {coll}{q}")
            }
            _ => format!("DELETE {path}"),
        }
    }

    fn patch(&mut self) -> String {
        let path = self.path(false);
        let name = path.rsplit('/').next().unwrap_or("").to_string();
        let q = self.b.pick(&[
            "",
            "?fieldManager=m1",
            "?fieldManager=m2&force=true",
            "?force=true",
            "?dryRun=All",
        ]);
        match self.b.below(5) {
            0 => format!("PATCH {path}{q} {{\"data\":{{\"k\":{}}}}}", self.b.pick(&["\"v\"", "null", "1"])),
            1 => format!(
                "PATCH {path}{q} type=json [{{\"op\":\"{}\",\"path\":\"/data/k\",\"value\":\"v\"}}]",
                self.b.pick(&["add", "remove", "replace", "test", "bogus"])
            ),
            2 => format!(
                "PATCH {path}{q} type=strategic {{\"metadata\":{{\"labels\":{{\"app\":\"x\"}},\"resourceVersion\":\"{}\"}}}}",
                self.rv_near()
            ),
            3 => format!(
                "PATCH {path}{q} type=apply {{\"apiVersion\":\"{}\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"{name}\"}},\"data\":{{\"k\":\"{}\"}}}}",
                self.b.pick(&["v1", "v2", ""]),
                self.b.pick(&["a", "b"])
            ),
            _ => format!("PATCH {path}{q} {}", self.b.pick(&["null", "[]", "{}", "\"x\""])),
        }
    }

    fn get_item(&mut self) -> String {
        let path = self.path(false);
        match self.b.below(4) {
            0 => format!("GET {path}"),
            1 => format!("GET {path}?resourceVersion=0"),
            2 => format!("GET {path}?resourceVersion={}", self.rv_near()),
            _ => format!(
                "GET {path}?resourceVersion={}",
                self.b.pick(&["abc", "-1", "", "18446744073709551616"])
            ),
        }
    }

    fn crafted_token(&mut self) -> String {
        let rv = match self.b.below(6) {
            0 => -1,
            1 => 0,
            2 => i64::MAX,
            _ => self.rv_near(),
        };
        let start =
            self.b.pick(&["a\\u0000", "b\\u0000", "default/a\\u0000", "..", "/a", "a/", "", "\\ud800"]);
        let v = self.b.pick(&["meta.k8s.io/v1", "meta.k8s.io/v1", "v2", ""]);
        let json = format!("{{\"v\":\"{v}\",\"rv\":{rv},\"start\":\"{start}\"}}");
        go_base64_encode(json.as_bytes())
    }

    fn list(&mut self, watch: bool) -> String {
        let mut q: Vec<String> = Vec::new();
        if watch {
            q.push("watch=true".into());
        }
        match self.b.below(8) {
            0 | 1 => {}
            2 => q.push("resourceVersion=0".into()),
            3 => q.push(format!("resourceVersion={}", self.b.pick(&["", "abc", "-5"]))),
            _ => q.push(format!("resourceVersion={}", self.rv_near())),
        }
        match self.b.below(8) {
            0 => q.push("resourceVersionMatch=Exact".into()),
            1 => q.push("resourceVersionMatch=NotOlderThan".into()),
            2 => q.push("resourceVersionMatch=bogus".into()),
            _ => {}
        }
        match self.b.below(6) {
            0 | 1 => q.push(format!("limit={}", self.b.pick(&["1", "2", "3", "0", "-1", "500", "x"]))),
            _ => {}
        }
        if !watch || self.b.below(4) == 0 {
            match self.b.below(6) {
                0 if !self.ctx.tokens.is_empty() => {
                    let i = self.b.below(self.ctx.tokens.len());
                    q.push(format!("continue={}", self.ctx.tokens[i]));
                }
                1 => q.push(format!("continue={}", self.crafted_token())),
                2 if self.b.below(4) == 0 => {
                    q.push(format!("continue={}", self.b.pick(&["%zz", "abc=", "***", "e30"])))
                }
                _ => {}
            }
        }
        if watch {
            if self.b.chance() {
                q.push("allowWatchBookmarks=true".into());
            }
            match self.b.below(4) {
                0 => q.push("sendInitialEvents=true".into()),
                1 => q.push("sendInitialEvents=false".into()),
                _ => {}
            }
            if self.b.below(3) == 0 {
                q.push(format!("timeoutSeconds={}", self.b.pick(&["1", "5", "30", "120", "-1"])));
            }
        }
        match self.b.below(10) {
            0 => q.push("labelSelector=app%3Dx".into()),
            1 => q.push("labelSelector=app+in+%28x%2Cy%29".into()),
            2 => q.push(format!(
                "fieldSelector={}",
                self.b.pick(&[
                    "metadata.name%3Da",
                    "metadata.name!%3Db",
                    "spec.nodeName%3Dn1",
                    "status.phase%3DPending",
                    "nonsense",
                    "metadata.name%3Da%3Db",
                    "a%5Cx%3Dy",
                ])
            )),
            3 => q.push(format!(
                "labelSelector={}",
                self.b.pick(&["%3D%3D", "!", "app%21%3Dx", "a%2Cb", "(("])
            )),
            _ => {}
        }
        let path = self.path(true);
        if q.is_empty() { format!("GET {path}") } else { format!("GET {path}?{}", q.join("&")) }
    }

    fn set(&mut self) -> String {
        let (name, values): (&str, &[&str]) = match self.b.below(10) {
            0 => ("apiservers", &["1", "2", "3", "0", "4"]),
            1 => ("watch-cache", &["on", "off"]),
            2 => ("cache.lag", &["0s", "500ms", "2s", "5s"]),
            3 => ("cache.capacity", &["1", "2", "5", "100", "auto"]),
            4 => ("cache.init-delay", &["0s", "1s", "10s"]),
            5 => ("compaction-interval", &["1s", "10s", "5m"]),
            6 => ("compactor", &["on", "off"]),
            7 => ("kubernetes", &["1.30", "1.31", "1.33", "1.34", "1.36", "1.29"]),
            8 => ("etcd", &["3.4", "3.5", "3.6", "3.3"]),
            _ => ("explain", &["on", "off"]),
        };
        format!("set {name} {}", self.b.pick(values))
    }

    fn etcd(&mut self) -> String {
        let key = self.b.pick(&[
            "/registry/configmaps/default/a",
            "/registry/configmaps/default/z",
            "/registry/pods/default/a",
            "/registry/configmaps/",
            "compact_rev_key",
        ]);
        match self.b.below(5) {
            0 => format!(
                "etcd put {key} {}",
                self.b.pick(&[
                    "{\"metadata\":{\"name\":\"a\"}}",
                    "not json",
                    "\"\"",
                    "{}",
                    "{\"kind\":\"Pod\"}"
                ])
            ),
            1 => format!("etcd del {key}{}", self.b.pick(&["", " --prefix"])),
            2 => format!("etcd compact {}", self.rv_near()),
            _ => format!(
                "etcd get {key} --prefix --rev={} --limit={}",
                self.b.pick(&[0, 1, 2, -1]),
                self.b.below(3)
            ),
        }
    }

    fn expect(&mut self) -> String {
        self.b
            .pick(&[
                "expect code 200",
                "expect items == [a, b]",
                "expect events contains ADDED a",
                "expect body.items[0].metadata.name exists",
                "expect body.metadata.resourceVersion > 3",
                "expect closed",
                "expect kvs == []",
                "expect header Retry-After == 1",
                "expect informer i1 store == [a]",
            ])
            .to_string()
    }
}

/// The targets for what rvlab reads from outside the script language.
pub mod surfaces;

/// The share-link codec of the browser app (pure Rust, so it is fuzzed natively).
#[path = "../../src/ui/share.rs"]
pub mod share;

/// (f) Share links: `share::decode` never panics on any fragment; what decodes re-encodes to a
/// link that decodes to the same state; `pack`/`unpack` round-trip any bytes and `unpack` never
/// panics or exceeds its limit on garbage.
pub fn check_share_link(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = share::decode(&text) {
        let again = share::decode(&share::encode(&s));
        assert_eq!(again.as_ref(), Ok(&s), "decode(encode(decode({text:?}))) differs");
    }
    let packed = share::pack(data);
    assert_eq!(share::unpack(&packed, data.len()).as_deref(), Ok(data), "pack/unpack round trip");
    if let Ok(out) = share::unpack(data, 1 << 16) {
        assert!(out.len() <= 1 << 16, "unpack exceeded its limit");
    }
}

// ---------------------------------------------------------------------------------------------
// Decoders added for the PATCH bodies, kubectl lines, selectors, protobuf bodies and the HTTP
// requests `rvlab serve` turns into lines.

use rvlab::apiserver::field_selector::{ParsedFieldSelector, SelectableFields};
use rvlab::apiserver::patch::{ApplyOptions, PatchError, PatchType, Schema, apply_patch, merge_patch};
use rvlab::apiserver::selector::LabelSelector;
use rvlab::script::kubectl::{Answer, Plan};
use rvlab::script::parse::{Command, Method};

/// Splits fuzz text at its first newline: (first line, rest or "").
fn split_first_line(text: &str) -> (&str, &str) {
    text.split_once('\n').unwrap_or((text, ""))
}

/// (g) PATCH bodies: the first byte picks the patch type, the schema, the field manager and
/// `force`; the first line is the current object (JSON, skipped unless an object — the server
/// only patches stored objects), the rest is the patch (JSON). `apply_patch` never panics; an
/// error becomes a 400/409/422 `Status`; a JSON merge patch is idempotent (RFC 7386: applying
/// the same patch twice changes nothing more); a strategic or apply patch of an object gives an
/// object (a merge patch that is not an object replaces the document, and the handler's decode
/// then refuses it).
pub fn check_patch(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let (cur, patch) = split_first_line(&text);
    let Ok(cur) = serde_json::from_str::<Value>(cur) else { return };
    if !cur.is_object() {
        return;
    }
    let Ok(patch) = serde_json::from_str::<Value>(patch) else { return };
    let ty =
        [PatchType::Merge, PatchType::Json, PatchType::Strategic, PatchType::Apply][usize::from(sel & 3)];
    let schema = if sel & 4 == 0 { Schema::ConfigMap } else { Schema::Pod };
    let opts = ApplyOptions {
        field_manager: if sel & 8 == 0 { "m1" } else { "m2" },
        force: sel & 16 != 0,
        now: "2026-12-01T00:00:00Z",
    };
    let current = (sel & 32 == 0 || ty != PatchType::Apply).then_some(&cur);
    match apply_patch(ty, schema, current, &patch, Some(&opts)) {
        Ok(out) => {
            if ty == PatchType::Merge {
                assert_eq!(merge_patch(&out, &patch), out, "merge patch is not idempotent: {patch}");
            }
            if matches!(ty, PatchType::Strategic | PatchType::Apply) {
                assert!(out.is_object(), "{ty:?} patch {patch} of an object gave {out}");
            }
        }
        Err(e) => {
            let s = e.to_status();
            let want = match e {
                PatchError::BadRequest(_) => 400,
                PatchError::ApplyConflict(_) => 409,
                PatchError::JsonPatchApply => 422,
                PatchError::NonApi(_) => 500,
            };
            assert_eq!(s.code, want, "{e:?} → {s:?}");
        }
    }
}

/// (h) `kubectl …` lines: `kubectl ` + the input parses or fails with a message, never a panic;
/// what parses has a canonical form that parses back to it; and every request the line turns
/// into (driven with answers from the input: a page with a continue token, then a last page) is
/// itself a valid script line for the same method, target and body.
pub fn check_kubectl(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (args, answer) = split_first_line(&text);
    let line = format!("kubectl {args}");
    check_parse_line(line.as_bytes());
    let Ok(Command::Kubectl(cmd)) = rvlab::script::parse::parse_line(&line) else { return };
    let mut plan = Plan::new(cmd);
    let pages = [
        serde_json::json!({"metadata": {"continue": answer, "resourceVersion": answer}}),
        serde_json::json!({"metadata": {"resourceVersion": "7"}}),
    ];
    let code = if answer.is_empty() { 404 } else { 200 };
    let mut last: Option<usize> = None;
    for step in 0..8 {
        let req = plan.next(last.map(|i| Answer { code, body: &pages[i] }));
        let Some(req) = req else { return };
        let l = req.line();
        match rvlab::script::parse::parse_line(&l) {
            Ok(Command::Request { method, target, body, .. }) => {
                assert_eq!(method.as_str(), req.method, "{line:?} → {l:?}");
                if let Method::Patch(t) = method {
                    assert_eq!(Some(t), req.patch_type, "{line:?} → {l:?}");
                }
                assert_eq!(target, req.target, "{line:?} → {l:?}");
                assert_eq!(body, req.body, "{line:?} → {l:?}");
            }
            other => panic!("{line:?} sends {l:?}, which is not a request line: {other:?}"),
        }
        last = Some(step.min(1));
    }
    panic!("{line:?} sent more than 8 requests for two pages");
}

/// (i) field and label selectors: parse or fail with a message; what parses prints as a
/// selector that parses to the same requirements (and converts and matches the same); label
/// selectors print canonically (a fixed point).
pub fn check_selectors(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (fields, labels) = split_first_line(&text);
    if let Ok(p) = ParsedFieldSelector::parse(fields) {
        let canon = p.to_string();
        let again = ParsedFieldSelector::parse(&canon)
            .unwrap_or_else(|e| panic!("field selector {fields:?} → {canon:?} does not parse: {e}"));
        // The same requirements (not the same text: like `fields.ParseSelector`, parsing sorts
        // the terms as written, so `a==x,a=x y` prints in another order than it re-parses).
        let obj = serde_json::json!({"metadata": {"name": labels, "namespace": "default"},
            "spec": {"nodeName": labels}, "status": {"phase": "Pending"}});
        let reqs = |s: &rvlab::apiserver::field_selector::FieldSelector| {
            let mut v: Vec<(String, bool, String)> =
                s.requirements().iter().map(|r| (r.field.clone(), r.equal, r.value.clone())).collect();
            v.sort();
            v
        };
        for f in [SelectableFields::ObjectMeta, SelectableFields::Pod] {
            match (p.convert(f), again.convert(f)) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(reqs(&a), reqs(&b), "field selector {fields:?} → {canon:?} changed");
                    assert_eq!(
                        a.matches(&obj),
                        b.matches(&obj),
                        "{fields:?} and {canon:?} match differently"
                    );
                }
                (Err(_), Err(_)) => {}
                (a, b) => {
                    panic!("field selector {fields:?} converts to {a:?}, its canonical {canon:?} to {b:?}")
                }
            }
        }
    }
    if let Ok(s) = LabelSelector::parse(labels) {
        let canon = s.to_string();
        let again = LabelSelector::parse(&canon)
            .unwrap_or_else(|e| panic!("label selector {labels:?} → {canon:?} does not parse: {e}"));
        assert_eq!(again.to_string(), canon, "label selector {labels:?} → {canon:?} is not a fixed point");
        let l = serde_json::json!({"metadata": {"labels": {"app": fields, "x": "y"}}});
        assert_eq!(
            s.matches_object(&l),
            again.matches_object(&l),
            "{labels:?} and {canon:?} match differently"
        );
    }
}

/// (j) protobuf request bodies (`rvlab serve`): the first byte picks the resource; the rest,
/// behind the `k8s\0` magic, is the envelope. Never a panic; what decodes is a JSON object of
/// the URL's kind that makes a valid `POST` line.
pub fn check_protobuf(data: &[u8]) {
    use rvlab::apiserver::resource::{CONFIGMAPS, PODS};
    use rvlab::serve::protobuf::{MAGIC, decode};
    let Some((&sel, rest)) = data.split_first() else { return };
    let info = if sel & 1 == 0 { &CONFIGMAPS } else { &PODS };
    let body = if sel & 2 == 0 { [MAGIC, rest].concat() } else { rest.to_vec() };
    if let Ok(v) = decode(info, &body) {
        assert_eq!(v.get("kind").and_then(Value::as_str), Some(info.kind), "decoded {v}");
        let line = format!("POST /api/v1/namespaces/default/{} {v}", info.resource);
        match rvlab::script::parse::parse_line(&line) {
            Ok(Command::Request { body: Some(b), .. }) => assert_eq!(b, v, "{line:?}"),
            other => panic!("{line:?} is not a request line: {other:?}"),
        }
    }
}

/// (k) HTTP requests into `rvlab serve`, without a network: `METHOD target`, header lines,
/// an empty line, the body. `translate::to_line` answers a `Status` (400/405/406/415) or a
/// script line that parses to exactly the request the client sent: the same method (and patch
/// type), the target untouched, the body as JSON.
pub fn check_serve_request(data: &[u8]) {
    use rvlab::serve::translate::to_line;
    let (head, body) = match data.windows(2).position(|w| w == b"\n\n") {
        Some(i) => (&data[..i], &data[i + 2..]),
        None => (data, &[][..]),
    };
    let head = String::from_utf8_lossy(head);
    let mut lines = head.lines();
    let first = lines.next().unwrap_or("");
    let (method, target) = first.split_once(' ').unwrap_or((first, "/"));
    let mut content_type = None;
    for h in lines {
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("content-type")
        {
            content_type = Some(v.trim());
        }
    }
    match to_line(method, target, content_type, body) {
        Ok(line) => match rvlab::script::parse::parse_line(&line) {
            Ok(Command::Request { method: m, target: t, body: b, .. }) => {
                assert_eq!(m.as_str(), method, "{line:?}");
                assert_eq!(t, target, "the target changed on the way: {line:?}");
                if body.is_empty() {
                    assert_eq!(b, None, "{line:?}");
                } else if content_type.is_none_or(|c| !c.to_ascii_lowercase().contains("protobuf")) {
                    // (media types are case-insensitive: `application/vnd.kubernetes.PROTOBUF`
                    // is a protobuf body)
                    match serde_json::from_slice::<Value>(body) {
                        Ok(sent) => {
                            assert_eq!(b.as_ref(), Some(&sent), "the body changed on the way: {line:?}")
                        }
                        // Not strict JSON, yet accepted: only what Go's decoder reads as U+FFFD
                        // (`apiserver::body`): invalid UTF-8 inside strings, and `\uXXXX`
                        // escapes of a surrogate without its pair (`encoding/json` `unquote`),
                        // which strict JSON parsers refuse. The line carries the object Go read.
                        Err(_) => {
                            let lossy = String::from_utf8_lossy(body);
                            let go = lone_surrogates_replaced(&lossy);
                            assert!(
                                std::str::from_utf8(body).is_err() || go != lossy,
                                "accepted a body that is not JSON: {line:?}"
                            );
                            assert!(
                                serde_json::from_str::<Value>(&go).is_ok(),
                                "accepted a body Go's decoder refuses: {line:?}"
                            );
                            assert!(matches!(b, Some(Value::Object(_))), "{line:?}");
                        }
                    }
                }
            }
            Ok(other) => panic!("{line:?} is not a request: {other:?}"),
            Err(e) if !target.starts_with('/') => {
                // Not an API path: the engine answers 400 with the parse error.
                let _ = e;
            }
            Err(e) => panic!("{first:?} became {line:?}, which does not parse: {e}"),
        },
        Err(s) => assert!(matches!(s.code, 400 | 405 | 406 | 415), "{first:?} → {s:?}"),
    }
}

/// `text` with every `\uXXXX` escape of a surrogate that is not half of a pair written as
/// `\uFFFD`, as Go's `encoding/json` reads it (`unquote`: `utf16.IsSurrogate` without a
/// following low half → `unicode.ReplacementChar`). Other escapes are copied as they are.
fn lone_surrogates_replaced(text: &str) -> String {
    let hex = |s: &str| (s.len() == 4).then(|| u32::from_str_radix(s, 16).ok()).flatten();
    let escape_at = |i: usize| {
        text.get(i..i + 2).filter(|e| *e == "\\u").and_then(|_| text.get(i + 2..i + 6)).and_then(hex)
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if c != '\\' {
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        match escape_at(i) {
            Some(0xD800..=0xDBFF) if matches!(escape_at(i + 6), Some(0xDC00..=0xDFFF)) => {
                out.push_str(&text[i..i + 12]);
                i += 12;
            }
            Some(0xD800..=0xDFFF) => {
                out.push_str("\\uFFFD");
                i += 6;
            }
            _ => {
                // `\\`, `\"`, … (two characters, so an escaped backslash is never read as the
                // start of an escape) or a `\u` escape of any other code point.
                let n = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                out.push_str(&text[i..i + 1 + n]);
                i += 1 + n;
            }
        }
    }
    out
}
