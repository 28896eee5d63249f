//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) and the minimized crash inputs
//! (`fuzz/regressions/<target>/`) through the same oracles the cargo-fuzz targets run
//! (`fuzz/common/mod.rs`), on stable: no input may panic or break a round trip / determinism
//! check. Run the fuzzers themselves with `./fuzz/run.sh` (nightly).

#![cfg(not(target_arch = "wasm32"))]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

#[path = "../fuzz/common/mod.rs"]
mod common;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

fn panic_text(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(non-string panic)".into())
}

/// Runs `check` on every file of `fuzz/<kind>/<target>/`; returns how many ran.
fn replay(kind: &str, target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(kind).join(target);
    let mut failures = Vec::new();
    let all = files(&dir);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for f in &all {
        let data = std::fs::read(f).expect("read corpus file");
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
            let mut msg = format!("{}: {}", f.display(), panic_text(&*e));
            if target == "script_gen" {
                msg.push_str("\n--- generated script ---\n");
                msg.push_str(&common::generated_script(&data));
            } else if target == "script_text" {
                msg.push_str("\n--- script ---\n");
                msg.push_str(&String::from_utf8_lossy(&data));
            } else {
                msg.push_str(&format!("\n--- input --- {:?}", String::from_utf8_lossy(&data)));
            }
            failures.push(msg);
        }
    }
    std::panic::set_hook(hook);
    assert!(
        failures.is_empty(),
        "{} of {} inputs failed:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
    all.len()
}

fn corpus(target: &str, check: fn(&[u8])) {
    let n = replay("corpus", target, check);
    assert!(n > 0, "fuzz/corpus/{target}/ is empty");
    replay("regressions", target, check);
}

#[test]
fn continue_token_corpus() {
    corpus("continue_token", common::check_continue_token);
}

#[test]
fn request_corpus() {
    corpus("request", common::check_request);
}

#[test]
fn parse_line_corpus() {
    corpus("parse_line", common::check_parse_line);
}

#[test]
fn script_text_corpus() {
    corpus("script_text", common::check_script_text);
}

#[test]
fn script_gen_corpus() {
    corpus("script_gen", common::check_script_gen);
}

/// Found while fuzzing: `advance 5124095576h` was accepted and never returned (the browser tab
/// froze). One `advance` is now at most 168h, and idle stretches skip ticks with nothing due.
#[test]
fn a_huge_advance_is_refused() {
    let out = rvlab::script::Session::new().run_script("advance 5124095576h\nadvance 168h\n");
    assert_eq!(out[0]["error"], "advance is at most 168h per line; repeat the line to go further");
    assert_eq!(out[1]["now"], "604800s");
}

/// Found while fuzzing (a timeout, `fuzz/regressions/script_text/`): an informer resyncing every
/// second with seven objects and `advance 2h` twice made 100,800 handler calls. An advance now
/// counts one unit per object a resync re-delivers (src/script/budget.rs), so those lines are
/// refused before they run and say how far one line may go.
#[test]
fn resyncs_of_many_objects_are_counted_per_object() {
    let mut script = String::new();
    for i in 1..=7 {
        script.push_str(&format!(
            "POST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":\"o{i}\"}}}}\n"
        ));
    }
    script.push_str("informer start i1 configmaps resync=1ms\nadvance 2h\nadvance 1427s\nadvance 1426s\n");
    let out = rvlab::script::Session::new().run_script(&script);
    assert_eq!(
        out[8]["error"],
        "advance 7200s would run 25 compaction round(s) and 50407 resync handler call(s); one advance runs at most 10000 of them (more would freeze the page): advance at most 1426s per line here, or lengthen compaction-interval / resync="
    );
    // 5 compaction rounds and 1,427 resyncs × 7 objects = 9,994 fit; one second more is 10,001.
    assert_eq!(out[9]["error"].as_str().map(|e| e.starts_with("advance 1427s would run")), Some(true));
    assert_eq!(out[10]["now"], "1426s");
}

/// Found while fuzzing (a panic, `fuzz/regressions/script_text/`): a watch with
/// `timeoutSeconds=6148914691236517202` overflowed the seconds-to-milliseconds product. The timeout
/// is now Go's: `timeoutSeconds × time.Second` in int64 nanoseconds, which wraps, and a negative
/// result (upstream `endpoints/request.GetTimeoutForWatch` allows it) ends the watch at once.
#[test]
fn watch_timeouts_are_counted_as_go_counts_them() {
    use rvlab::apiserver::server::watch_timeout;
    use rvlab::clock::Duration;
    assert_eq!(watch_timeout(None), None);
    assert_eq!(watch_timeout(Some(0)), None);
    assert_eq!(watch_timeout(Some(100)), Some(Duration::from_secs(100)));
    assert_eq!(watch_timeout(Some(-1)), Some(Duration(0)));
    // 6148914691236517202 × 10⁹ mod 2⁶⁴ = 6148914687903183872 ns (≈ 195 years); i64::MAX × 10⁹
    // wraps to −10⁹ ns, one second in the past.
    assert_eq!(watch_timeout(Some(6148914691236517202)), Some(Duration(6148914687903)));
    assert_eq!(watch_timeout(Some(i64::MAX)), Some(Duration(0)));
    let w = "GET /api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=";
    let out = rvlab::script::Session::new().run_script(&format!(
        "{w}-1\n{w}9223372036854775807\n{w}6148914691236517202\nadvance 1s\nevents w1\nevents w2\nevents w3\n"
    ));
    assert_eq!((out[4]["closed"].as_bool(), out[5]["closed"].as_bool()), (Some(true), Some(true)));
    assert_eq!(out[6]["closed"], false);
}

/// Found while fuzzing: `compaction-interval` accepted 1ms, so `advance 10m` ran 600 000 rounds
/// and wrote 600 000 revisions. The interval is now at least 10 s.
#[test]
fn a_tiny_compaction_interval_is_refused() {
    let out = rvlab::script::Session::new().run_script(
        "set compaction-interval 1ms\nset compaction-interval 10s\nadvance 10m\netcd get compact_rev_key\n",
    );
    assert_eq!(
        out[0]["error"],
        "compaction-interval must be at least 10s (each round writes a revision), not 1ms"
    );
    assert_eq!(out[3]["kvs"][0]["version"], 60);
}

#[test]
fn patch_corpus() {
    corpus("patch", common::check_patch);
}

#[test]
fn kubectl_corpus() {
    corpus("kubectl", common::check_kubectl);
}

#[test]
fn selectors_corpus() {
    corpus("selectors", common::check_selectors);
}

#[test]
fn protobuf_corpus() {
    corpus("protobuf", common::check_protobuf);
}

#[test]
fn serve_request_corpus() {
    corpus("serve_request", common::check_serve_request);
}

#[test]
fn share_link_corpus() {
    corpus("share_link", common::check_share_link);
}

/// The whole-script targets run an `advance` the engine would run for longer than ten minutes
/// as ten minutes; one it refuses (past 168h), any other line, and line ends stay as written.
#[test]
fn fuzzed_scripts_advance_at_most_ten_minutes_a_line() {
    let text =
        "advance 168h\nadvance 169h\n  advance   2h\nadvance 10m\nadvance 599s\n# advance 5h\r\nadvance x\n";
    assert_eq!(
        common::bounded_advances(text),
        "advance 600s\nadvance 169h\nadvance 600s\nadvance 10m\nadvance 599s\n# advance 5h\r\nadvance x\n"
    );
    assert_eq!(common::bounded_advances("etcd put /a 1"), "etcd put /a 1");
}

#[test]
fn embed_api_corpus() {
    corpus("embed_api", common::surfaces::check_embed_api);
}

#[test]
fn feature_gates_corpus() {
    corpus("feature_gates", common::surfaces::check_feature_gates);
}

#[test]
fn against_compare_corpus() {
    corpus("against_compare", common::surfaces::check_against_compare);
}

#[test]
fn serve_config_corpus() {
    corpus("serve_config", common::surfaces::check_serve_config);
}

/// A real link round-trips through the checks (the corpus also holds one).
#[test]
fn share_link_round_trip() {
    let s = common::share::Shared {
        log: vec!["etcd put /a 1".into(), "GET /api/v1/namespaces/default/configmaps?limit=1".into()],
        at: 1,
    };
    let link = common::share::encode(&s);
    assert_eq!(common::share::decode(&link), Ok(s));
    common::check_share_link(link.as_bytes());
}

// --- the record -------------------------------------------------------------------------------

/// The fuzz targets, as `fuzz/Cargo.toml` names them.
fn targets() -> Vec<String> {
    let toml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/Cargo.toml"))
        .expect("read fuzz/Cargo.toml");
    let mut in_bin = false;
    let mut names = Vec::new();
    for line in toml.lines() {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(v) = line.strip_prefix("name = ") {
            names.push(v.trim_matches('"').to_string());
        }
    }
    names
}

/// One run of `fuzz/record.tsv`.
struct Run {
    date: String,
    target: String,
    executions: u64,
    seconds: Option<u64>,
    commit: String,
    findings: u64,
    how: String,
}

fn record() -> Vec<Run> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/record.tsv");
    let text = std::fs::read_to_string(&path).expect("read fuzz/record.tsv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(lines.next(), Some("date\ttarget\texecutions\tseconds\tcommit\tfindings\thow"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "fuzz/record.tsv: {l:?} has not 7 fields");
            let num =
                |s: &str| s.parse::<u64>().unwrap_or_else(|_| panic!("fuzz/record.tsv: {s:?} in {l:?}"));
            Run {
                date: f[0].into(),
                target: f[1].into(),
                executions: num(f[2]),
                seconds: (!f[3].is_empty()).then(|| num(f[3])),
                commit: f[4].into(),
                findings: num(f[5]),
                how: f[6].into(),
            }
        })
        .collect()
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

const RECORD_BEGIN: &str = "<!-- The tables below are fuzz/record.tsv rendered by tests/fuzz_regression.rs (./fuzz/run.sh --record rewrites them). -->";
const RECORD_END: &str = "<!-- End of the rendered record. -->";

/// The record as the book shows it: per target, the longest run without a finding; then every run.
fn render_record() -> String {
    let runs = record();
    let dash = |s: &str| if s.is_empty() { "–".to_string() } else { format!("`{s}`") };
    let mut out = format!("{RECORD_BEGIN}\n\n");
    out.push_str("| target | most executions in one run without a finding | seconds | commit | date |\n");
    out.push_str("|---|---:|---:|---|---|\n");
    for t in targets() {
        let best = runs.iter().filter(|r| r.target == t && r.findings == 0).max_by_key(|r| r.executions);
        match best {
            Some(r) => out.push_str(&format!(
                "| `{t}` | {} | {} | {} | {} |\n",
                thousands(r.executions),
                r.seconds.map_or("–".to_string(), thousands),
                dash(&r.commit),
                r.date
            )),
            None => out.push_str(&format!("| `{t}` | not run yet | – | – | – |\n")),
        }
    }
    out.push_str(
        "\nEvery recorded run, oldest first (findings: crashes, timeouts and out-of-memory inputs):\n\n",
    );
    out.push_str("| date | target | executions | seconds | commit | findings | how |\n");
    out.push_str("|---|---|---:|---:|---|---:|---|\n");
    for r in &runs {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} |\n",
            r.date,
            r.target,
            thousands(r.executions),
            r.seconds.map_or("–".to_string(), thousands),
            dash(&r.commit),
            r.findings,
            r.how.replace('|', "\\|")
        ));
    }
    out.push_str(&format!("\n{RECORD_END}"));
    out
}

/// The book's fuzzing page shows `fuzz/record.tsv` as it is: its tables are the rendering of the
/// data (`RVLAB_WRITE_FUZZ_RECORD=1` writes them, as `./fuzz/run.sh --record` does).
#[test]
fn the_fuzzing_page_shows_the_record() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("site/src/project/fuzzing.md");
    let page = std::fs::read_to_string(&path).expect("read the fuzzing page");
    let (Some(a), Some(b)) = (page.find(RECORD_BEGIN), page.find(RECORD_END)) else {
        panic!("{} has no rendered record between its markers", path.display());
    };
    let committed = &page[a..b + RECORD_END.len()];
    let rendered = render_record();
    if std::env::var_os("RVLAB_WRITE_FUZZ_RECORD").is_some() {
        let new = format!("{}{rendered}{}", &page[..a], &page[b + RECORD_END.len()..]);
        std::fs::write(&path, new).expect("write the fuzzing page");
        return;
    }
    assert!(
        committed == rendered,
        "the record on {} is not fuzz/record.tsv: run RVLAB_WRITE_FUZZ_RECORD=1 cargo test --test fuzz_regression the_fuzzing_page",
        path.display()
    );
}

/// Every target has committed seeds, and every recorded run names a target that exists.
#[test]
fn every_target_has_seeds_and_every_run_a_target() {
    let names = targets();
    assert!(names.len() >= 15, "{names:?}");
    let this = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file!()))
        .expect("read tests/fuzz_regression.rs");
    for t in &names {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(t);
        assert!(!files(&dir).is_empty(), "fuzz/corpus/{t}/ has no seeds");
        assert!(this.contains(&format!("corpus(\"{t}\", ")), "no test here replays fuzz/corpus/{t}/");
    }
    for r in record() {
        assert!(names.contains(&r.target), "fuzz/record.tsv names {:?}, not a target", r.target);
    }
}
