//! The oracles of the targets for what rvlab reads from outside the script language: the
//! embedding API (`Lab.run` scripts and the `<rv-playground>` element's messages), `set
//! feature-gates` values, `rvlab run --against`'s comparison of two answers, and what `rvlab
//! serve` / `--against` read (kubeconfig YAML, serve's flags). Like the others, each `check_*`
//! takes raw fuzz bytes and panics only when a property is broken.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;

use rvlab::against::compare::{self, Rvs};
use rvlab::against::{kubeconfig, yaml};
use rvlab::apiserver::features::{self, Features, GateKey, NEWEST_MINOR, OLDEST_MINOR};
use rvlab::cluster::Setting;
use rvlab::embed::json::AsJs;
use rvlab::embed::message::{self, Command, NOT_AN_OBJECT};
use rvlab::script::Session;
use rvlab::script::batch::{self, Ended, ScriptRefusal, Size};
use rvlab::script::parse::Command as Line;
use rvlab::serve::ServeConfig;
use serde_json::{Value, json};

/// The most script bytes one `embed_api` input runs (all its runs together): each runs twice.
/// Its `advance` lines are bounded as `script_text`'s are (`bounded_advances`).
pub const MAX_EMBED_SCRIPT_BYTES: usize = 1024;
/// The most `Lab.run` calls one input makes.
const MAX_RUNS: usize = 4;

// --- embed_api ------------------------------------------------------------------------------

/// `embed_api`: the first byte chooses. Even: the rest is up to [`MAX_RUNS`] scripts (split at
/// NUL bytes) that one `Lab` runs one after the other (bit 1: `{explain: true}`); odd: the rest
/// is a message posted to the embed (JSON, or any text as a string message).
pub fn check_embed_api(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode & 1 == 0 {
        let text = String::from_utf8_lossy(&rest[..rest.len().min(MAX_EMBED_SCRIPT_BYTES)]);
        let text = super::bounded_advances(&text);
        let runs: Vec<&str> = text.splitn(MAX_RUNS, '\0').collect();
        check_lab_runs(&runs, mode & 2 != 0);
    } else {
        let msg = serde_json::from_slice::<Value>(rest)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(rest).into_owned()));
        check_message(&msg);
    }
}

/// What `Lab.run` does with each script (`src/embed/lab.rs`, after `text_of`): every output an
/// object numbered within its run, numbered on across runs; the same objects as one run of the
/// whole script; each output the same value once converted as `JSON.parse` would read it.
pub fn check_lab_runs(runs: &[&str], explain: bool) {
    let mut lab = Session::with_explain(explain);
    let mut next_line = 1;
    let mut all = Vec::new();
    for text in runs {
        check_size(text);
        let (outs, ended) = batch::run_collect(&mut lab, next_line, text);
        let lines = text.lines().count();
        assert_eq!(ended, Ended::Ran { lines }, "{text:?} is within the limits and ran");
        let mut last = 0;
        for o in &outs {
            let n = o.get("line").and_then(Value::as_u64).map(|n| n as usize);
            let n = n.unwrap_or_else(|| panic!("an output without a line number: {o}"));
            assert!(
                (next_line..next_line + lines).contains(&n) && n > last,
                "line {n} out of order in a run of lines {next_line}..{}: {o}",
                next_line + lines
            );
            last = n;
            check_as_js(o);
        }
        next_line += lines;
        all.extend(outs);
    }
    // Runs of consecutive parts number their lines as one run of the whole (a part that does not
    // end its last line is ended; a final `\r` would then be part of a `\r\n`, so not compared).
    if runs.iter().all(|r| !r.ends_with('\r')) {
        let whole: String = runs
            .iter()
            .map(|r| if r.is_empty() || r.ends_with('\n') { r.to_string() } else { format!("{r}\n") })
            .collect();
        let (once, _) = batch::run_collect(&mut Session::with_explain(explain), 1, &whole);
        assert!(once == all, "runs of the parts differ from one run of the whole:\n{whole}");
    }
}

/// `Size` fed in pieces is the size of the whole; it counts lines as `str::lines` does; a size
/// past either limit is refused with one object that says so.
fn check_size(text: &str) {
    let whole = Size::of(text);
    assert_eq!((whole.bytes, whole.lines()), (text.len(), text.lines().count()), "{text:?}");
    let mut pieces = Size::default();
    let mut rest = text;
    let mut step = 1 + text.len() % 7;
    while !rest.is_empty() {
        let mut cut = step.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        pieces.push(&rest[..cut]);
        rest = &rest[cut..];
        step = step % 13 + 2;
    }
    assert_eq!(pieces, whole, "{text:?} fed in pieces");
    assert_eq!(whole.check(), Ok(()));
    // The same text, as if it were repeated past the limits.
    let reps = batch::MAX_LINES / text.lines().count().max(1) + 1;
    let lines = whole.lines() * reps;
    let r = ScriptRefusal::ScriptTooBig {
        lines,
        bytes: whole.bytes * reps,
        max_lines: batch::MAX_LINES,
        max_bytes: batch::MAX_BYTES,
    };
    check_refusal(7, &r, "script-too-big");
}

/// A refusal is one object: its line, its English words, its kind.
fn check_refusal(line: usize, r: &ScriptRefusal, kind: &str) {
    let out = batch::refusal_output(line, r);
    assert_eq!(out["line"], json!(line), "{out}");
    assert_eq!(out["error"], json!(r.to_string()), "{out}");
    assert_eq!(out["refused"]["kind"], json!(kind), "{out}");
    check_as_js(&out);
}

/// The object a page gets (`AsJs`, what `JSON.parse` makes of the JSON text) is the same value:
/// same keys in the same order, same strings, numbers equal as doubles.
fn check_as_js(v: &Value) {
    let js = serde_json::to_value(AsJs(v)).unwrap_or_else(|e| panic!("{v} does not convert: {e}"));
    assert!(js_equal(v, &js), "{v} converts to {js}");
}

fn js_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| js_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((k, p), (l, q))| k == l && js_equal(p, q))
        }
        _ => a == b,
    }
}

/// A message: a command or the words of an error; a run's script is text or refused as not
/// text; an `id` handed back is a string or a finite number.
pub fn check_message(msg: &Value) {
    match message::command(msg) {
        Err(e) => {
            assert!(!e.is_empty());
            assert_eq!(e == NOT_AN_OBJECT, !msg.is_object(), "{msg}: {e}");
        }
        Ok(Command::Hello) => assert_eq!(msg["type"], "rvlab:hello"),
        Ok(Command::Run { id, script }) => {
            assert_eq!(msg["type"], "rvlab:run");
            if let Some(id) = &id {
                assert!(id.is_string() || id.is_number(), "{msg}: id {id}");
            }
            assert_eq!(id.is_some(), msg.get("id").is_some_and(|i| i.is_string() || i.is_number()));
            match message::script_text(script.as_ref()) {
                Ok(text) => {
                    let text =
                        super::bounded_advances(&text[..text.floor_char_boundary(MAX_EMBED_SCRIPT_BYTES)]);
                    check_lab_runs(&[&text], false);
                }
                Err(r) => {
                    assert!(!msg["script"].is_string(), "{msg}: a string script refused: {r}");
                    check_refusal(1, &r, "script-not-text");
                }
            }
        }
    }
}

// --- feature_gates --------------------------------------------------------------------------

/// `feature_gates`: the first byte chooses a release, the rest is a `set feature-gates` value.
/// Parsing never panics; what parses renders back (`Name=value,…`) to the same entries; a
/// `set` line carrying it parses to the same value and, run in a session, is refused exactly
/// when the release refuses the entries; the gates the session then shows (`Name=value`, as the
/// settings panel writes them) set on a fresh apiserver of that release give the same gates.
pub fn check_feature_gates(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let minor = OLDEST_MINOR + u32::from(pick) % (NEWEST_MINOR - OLDEST_MINOR + 1);
    let value = String::from_utf8_lossy(rest);
    let parsed = features::parse_gates(&value);
    let setting = Setting::parse("feature-gates", &value);
    assert_eq!(parsed.is_ok(), setting.is_ok(), "{value:?}: parse_gates and Setting::parse disagree");
    let entries = match parsed {
        Ok(entries) => entries,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let rendered = render_gates(&entries);
    assert_eq!(features::parse_gates(&rendered).as_ref(), Ok(&entries), "{value:?} → {rendered:?}");
    let release = Features::for_minor(minor);
    let checked = release.check(&entries);
    if value.contains(['\n', '\r']) {
        return; // not one script line
    }
    let line = Line::Set { name: "feature-gates".into(), value: value.to_string() }.to_string();
    let mut s = Session::new();
    let head = s.run_line(1, &format!("set kubernetes 1.{minor}"));
    assert!(head.as_ref().is_some_and(|o| o.get("error").is_none()), "set kubernetes 1.{minor}: {head:?}");
    let out = s.run_line(2, &line).unwrap_or(Value::Null);
    assert_eq!(out.get("error").is_none(), checked.is_ok(), "{line:?} on 1.{minor}: {out}");
    let Ok(gates) = checked else { return };
    let shown = s.settings().current().map(|a| a.gates.join(",")).unwrap_or_default();
    let want = Features::with_gates(minor, gates);
    let mut again = Session::new();
    again.run_line(1, &format!("set kubernetes 1.{minor}"));
    if !shown.is_empty() {
        let o = again.run_line(2, &format!("set feature-gates {shown}"));
        assert!(o.as_ref().is_some_and(|o| o.get("error").is_none()), "{shown:?}: {o:?}");
    }
    let shown_again = again.settings().current().map(|a| a.gates.join(",")).unwrap_or_default();
    assert_eq!(shown, shown_again, "{line:?} shows {shown:?}; setting that shows {shown_again:?}");
    let from_shown = features::parse_gates(&shown)
        .ok()
        .and_then(|e| Features::for_minor(minor).check(&e).ok())
        .map(|v| Features::with_gates(minor, v));
    let from_shown = from_shown.unwrap_or_else(|| panic!("{line:?}: what it shows, {shown:?}, is refused"));
    for (g, _) in features::gates_for(minor) {
        assert_eq!(
            from_shown.enabled(g),
            want.enabled(g),
            "{line:?}: {} differs once shown as {shown:?}",
            g.name()
        );
    }
}

/// Entries as `featureGate.Set` takes them.
fn render_gates(entries: &[(GateKey, bool)]) -> String {
    let name = |k: &GateKey| match k {
        GateKey::Gate(g) => g.name(),
        GateKey::AllAlpha => "AllAlpha",
        GateKey::AllBeta => "AllBeta",
    };
    entries.iter().map(|(k, v)| format!("{}={v}", name(k))).collect::<Vec<_>>().join(",")
}

// --- against_compare ------------------------------------------------------------------------

/// `against_compare`: two outputs (JSON, split at the first newline; any other text is a string)
/// and, from the first byte, which reduction. Never panics; an answer compared with itself
/// differs nowhere; `diff` is symmetric (the same fields, sides swapped); the same numbers in the
/// same order get the same labels whatever their magnitude (the relation is all that is
/// compared).
pub fn check_against_compare(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let (a, b) = text.split_once('\n').unwrap_or((&text, ""));
    let value = |t: &str| serde_json::from_str::<Value>(t).unwrap_or_else(|_| Value::String(t.to_string()));
    let (a, b) = (value(a), value(b));
    let back = |s: &str| s.replace("-rvlab", "");
    let reduce = |v: &Value, rvs: &mut Rvs| {
        if mode & 1 == 0 {
            compare::answer(v, rvs, &back).norm
        } else {
            let frames = v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]);
            compare::events(&frames, mode & 2 != 0, rvs, &back).norm
        }
    };
    // Both sides have seen the same versions before (the other output, on each side).
    let mut seen = Rvs::default();
    reduce(&b, &mut seen);
    let (mut s1, mut s2) = (seen.clone(), seen);
    let (x, y) = (reduce(&a, &mut s1), reduce(&a, &mut s2));
    assert_eq!(compare::diff(&x, &y), Vec::<Value>::new(), "{a} compared with itself");
    let z = reduce(&b, &mut Rvs::default());
    let (xz, zx) = (compare::diff(&x, &z), compare::diff(&z, &x));
    assert_eq!(xz.len(), zx.len());
    for (p, q) in xz.iter().zip(&zx) {
        assert_eq!((&p["field"], &p["sim"], &p["cluster"]), (&q["field"], &q["cluster"], &q["sim"]));
    }
    check_labels_by_relation(&text, mode);
}

/// The words of `text` as resourceVersions, labelled on two sides whose numbers stand in the
/// same order (the second side's are `k × n + c`): the labels and the rewritten messages agree.
fn check_labels_by_relation(text: &str, mode: u8) {
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    // Only canonical numbers can be mapped (`05` and `5` are different versions of equal value).
    let canonical = |w: &&str| w.parse::<u64>().map_or(true, |n| n.to_string() == *w);
    if !words.iter().all(canonical) {
        return;
    }
    let (k, c) = (u64::from(mode >> 2) + 1, 7_000_000u64);
    let map = |w: &str| match w.parse::<u64>() {
        Ok(n) => n.checked_mul(k).and_then(|m| m.checked_add(c)).map(|m| m.to_string()),
        Err(_) => Some(w.to_string()),
    };
    let Some(mapped): Option<Vec<String>> = words.iter().map(|w| map(w)).collect() else { return };
    // A mapped number must not collide with a non-number word (it cannot: words are either).
    let (mut r1, mut r2) = (Rvs::default(), Rvs::default());
    for (w, m) in words.iter().zip(&mapped) {
        assert_eq!(r1.label(w), r2.label(m), "{w} / {m} in {words:?}");
    }
}

// --- serve_config ---------------------------------------------------------------------------

/// `serve_config`: the first byte chooses what reads the rest. 0: a kubeconfig (YAML subset, or
/// JSON) as `--against` resolves it (files read from nowhere); 1: the YAML reader alone; 2: the
/// kubeconfig `rvlab serve` writes for an address and a CA taken from the bytes, read back;
/// 3: `rvlab serve`'s arguments (NUL- or newline-separated) and its `network` lines. Never
/// panics; every error says something.
pub fn check_serve_config(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    match mode % 4 {
        0 => check_kubeconfig(&text),
        1 => check_yaml(&text),
        2 => check_written_kubeconfig(rest),
        _ => check_serve_args(&text),
    }
}

/// Files named by a fuzzed kubeconfig are never read: the reader answers for a few names.
fn no_files(p: &Path) -> std::io::Result<Vec<u8>> {
    match p.file_name().and_then(|n| n.to_str()) {
        Some("ca.crt") => Ok(b"-----BEGIN CERTIFICATE-----\nX\n".to_vec()),
        Some("token") => Ok(b" tok \n".to_vec()),
        _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not found")),
    }
}

fn check_kubeconfig(text: &str) {
    match kubeconfig::resolve_with(text, Path::new("/kube"), &no_files) {
        Err(e) => assert!(!e.is_empty(), "{text:?}: an empty error"),
        Ok(t) => {
            assert!(!t.host.is_empty(), "{text:?}: no host in {t:?}");
            assert_eq!(t.tls, t.server.starts_with("https://"), "{t:?}");
            assert!(t.server.contains(&t.host), "{t:?}");
            assert!(!t.prefix.ends_with('/'), "{t:?}");
        }
    }
}

fn check_yaml(text: &str) {
    match yaml::parse(text) {
        Err(e) => assert!(!e.is_empty(), "{text:?}: an empty error"),
        Ok(v) => {
            if text.trim_start().starts_with('{') {
                assert_eq!(serde_json::from_str::<Value>(text.trim_start()).ok().as_ref(), Some(&v));
            }
            // JSON is YAML: a mapping written as JSON reads back the same.
            if v.is_object() {
                let json = v.to_string();
                assert_eq!(yaml::parse(&json).as_ref(), Ok(&v), "{text:?} → {json}");
            }
        }
    }
}

/// An address and a CA from the bytes: the kubeconfig `rvlab serve` writes for them resolves to
/// that address, that CA and serve's token (or plain HTTP without either).
fn check_written_kubeconfig(rest: &[u8]) {
    let b = |i: usize| rest.get(i).copied().unwrap_or(0);
    let ip: IpAddr = if b(0) & 1 == 0 {
        Ipv4Addr::new(b(1), b(2), b(3), b(4)).into()
    } else {
        let mut o = [0u8; 16];
        for (i, x) in o.iter_mut().enumerate() {
            *x = b(1 + i);
        }
        Ipv6Addr::from(o).into()
    };
    let addr = SocketAddr::new(ip, u16::from_be_bytes([b(17), b(18)]));
    let ca =
        (b(0) & 2 == 0).then(|| String::from_utf8_lossy(rest.get(19..).unwrap_or_default()).into_owned());
    let text = ServeConfig::kubeconfig_text(addr, ca.as_deref());
    let t = kubeconfig::resolve_with(&text, Path::new("/kube"), &no_files)
        .unwrap_or_else(|e| panic!("serve's kubeconfig for {addr} does not resolve: {e}\n{text}"));
    assert_eq!(
        (t.host.as_str(), t.port, t.tls),
        (ip.to_string().as_str(), addr.port(), ca.is_some()),
        "{text}"
    );
    let ca_bytes = ca.as_ref().map(|c| c.as_bytes().to_vec());
    let want_ca = ca_bytes.filter(|c| !c.is_empty());
    assert_eq!(t.ca_pem, want_ca, "{text}");
    assert_eq!(t.token.as_deref(), ca.is_some().then_some(rvlab::serve::config::TOKEN));
}

fn check_serve_args(text: &str) {
    let args: Vec<String> = text.split(['\0', '\n']).map(str::to_string).collect();
    match ServeConfig::parse(&args) {
        Err(e) => assert!(!e.is_empty(), "{args:?}: an empty error"),
        Ok(c) => {
            if let Err(e) = c.check_listen() {
                assert!(!e.is_empty());
            }
            let page = c.page_addr();
            if c.page_listen.is_none() && !matches!(c.listen.port(), 0 | u16::MAX) {
                assert_eq!(page.port(), c.listen.port() + 1, "{args:?}");
            }
        }
    }
    for line in text.lines() {
        if let Some(Err(e)) = rvlab::serve::network::parse_line(line) {
            assert!(!e.is_empty());
        }
    }
}
