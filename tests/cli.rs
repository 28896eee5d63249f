//! The `rvlab` command: the JSON Lines contract of `rvlab run`, its exit status, stdin input, and
//! `rvlab test`'s summary line.
use std::io::Write;
use std::process::{Command, Stdio};

fn rvlab(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rvlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rvlab starts");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("rvlab finishes");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn run_prints_one_json_object_per_executed_line() {
    let (code, out, _) = rvlab(&["run", "-"], "# a comment\n\netcd put /a 1\n  etcd get /a  \n");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"line":3,"header":{"revision":2}}"#,
            r#"{"line":4,"header":{"revision":2},"kvs":[{"key":"/a","value":"1","create_revision":2,"mod_revision":2,"version":1}],"count":1,"more":false}"#,
        ]
    );
}

#[test]
fn a_line_that_cannot_be_parsed_exits_2_and_the_rest_still_runs() {
    let (code, out, _) = rvlab(&["run", "-"], "nonsense here\netcd put /a 1\n");
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(r#"{"line":1,"error":"unknown command"#), "{}", lines[0]);
    assert_eq!(lines[1], r#"{"line":2,"header":{"revision":2}}"#);
}

/// A refused line carries its refusal as a value beside the English text (the book's
/// `site/src/reference/output.md`: "a line the session refuses"), with or without `--explain`; exit status 0 (the line parsed).
#[test]
fn a_refused_line_carries_its_refusal_as_a_value() {
    let (code, out, _) = rvlab(&["run", "-"], "events w9\nset cache.lag soon\nadvance 169h\n");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"line":1,"error":"no watch named \"w9\"; watch ids are w1, w2, … in the order watches were opened","refused":{"kind":"no-watch","watch":"w9","hint":true}}"#,
            r#"{"line":2,"error":"cache.lag: invalid duration \"soon\"; expected e.g. 500ms, 61s, 5m or 1h","refused":{"kind":"setting","error":{"kind":"duration","setting":"cache.lag","value":"soon","reason":"invalid duration \"soon\"; expected e.g. 500ms, 61s, 5m or 1h","problem":{"kind":"invalid","text":"soon"}}}}"#,
            r#"{"line":3,"error":"advance is at most 168h per line; repeat the line to go further","refused":{"kind":"advance-too-long","max":"168h"}}"#,
        ]
    );
}

#[test]
fn an_unparsable_line_carries_its_syntax_error_as_a_value() {
    let (code, out, _) = rvlab(&["run", "-"], "compact x\nadvance 5\n");
    assert_eq!(code, 2, "a line could not be parsed");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"line":1,"error":"compact: revision must be a number, got \"x\"","syntax":{"at":"compact","kind":"not-a-number","what":"revision","got":"x"}}"#,
            r#"{"line":2,"error":"advance: invalid duration \"5\": missing unit; use ms, s, m or h","syntax":{"at":"advance","kind":"duration","error":{"kind":"missing-unit","text":"5"}}}"#,
        ]
    );
}

#[test]
fn explain_adds_the_reason() {
    let (_, out, _) =
        rvlab(&["run", "--explain", "-"], "GET /api/v1/namespaces/default/configmaps?resourceVersion=0\n");
    assert!(out.contains(r#""explain":"apiserver 1: resourceVersion=\"0\" → Any"#), "{out}");
}

#[test]
fn test_counts_expectations() {
    let dir = std::env::temp_dir().join(format!("rvlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("t.rv");
    std::fs::write(&f, "etcd put /a 1\nexpect header.revision == 2\nexpect header.revision == 3\n")
        .expect("write");
    let (code, out, _) = rvlab(&["test", f.to_str().unwrap_or_default()], "");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1);
    assert!(out.contains(":3: FAILED expect header.revision == 3"), "{out}");
    assert!(out.contains("expected: header.revision == 3"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(rvlab(&[], "").0, 2);
    assert_eq!(rvlab(&["run", "/no/such/file.rv"], "").0, 2);
}

/// A script over `script::batch`'s limits runs nothing: one error object, exit 2 (the same
/// object the JavaScript `Lab.run` gives).
#[test]
fn a_script_over_the_limits_prints_one_error_and_runs_nothing() {
    use rvlab::script::batch::{MAX_BYTES, MAX_LINES};
    let script = "etcd put /a 1\n".repeat(MAX_LINES + 1);
    let (code, out, _) = rvlab(&["run", "-"], &script);
    assert_eq!(code, 2);
    let expected = serde_json::json!({
        "line": 1,
        "error": format!(
            "not run: the script has {} lines and {} KB; one run takes at most {MAX_LINES} lines and {} KB",
            MAX_LINES + 1,
            script.len().div_ceil(1024),
            MAX_BYTES / 1024
        ),
        "refused": {"kind": "script-too-big", "lines": MAX_LINES + 1, "bytes": script.len(), "maxLines": MAX_LINES, "maxBytes": MAX_BYTES}
    });
    assert_eq!(out, format!("{expected}\n"));
    let at_limit = "# c\n".repeat(MAX_LINES - 1) + "etcd put /a 1\n";
    let (code, out, _) = rvlab(&["run", "-"], &at_limit);
    assert_eq!(
        (code, out.as_str()),
        (0, format!("{{\"line\":{MAX_LINES},\"header\":{{\"revision\":2}}}}\n").as_str())
    );
}

#[test]
fn the_usage_states_the_limits() {
    use rvlab::script::batch::{MAX_BYTES, MAX_LINES};
    let (_, out, _) = rvlab(&["help"], "");
    assert!(out.contains(&format!("{MAX_LINES} lines and {} KB", MAX_BYTES / 1024)), "{out}");
}
