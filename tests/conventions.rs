//! Conventions the code keeps, checked over its source: one seeded generator for everything
//! random (the engine's jitter, the soak's schedule, every sweep in the tests), so a seed means
//! the same thing everywhere and a finding replays from its seed.
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn one_seeded_generator_serves_the_engine_the_soak_and_the_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "tests", "fuzz", "examples"] {
        rust_files(&root.join(d), &mut files);
    }
    assert!(files.len() > 50, "found the sources: {}", files.len());
    // The shapes a hand-rolled generator takes: a struct of its own, or xorshift's shifts.
    let shapes = ["struct Rng", "<< 13;", "^= x << 13", ">> 12;", "xorshift"];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for s in shapes {
            // This file names the shapes it looks for.
            if text.contains(s) && !f.ends_with("tests/conventions.rs") {
                found.push(format!("{}: {s}", f.strip_prefix(root).unwrap_or(f).display()));
            }
        }
    }
    assert_eq!(found, ["src/clock.rs: struct Rng"], "use rvlab::clock::Rng");
}

/// Where the UI may read JSON or text: input it decodes (a share link, the page's address,
/// the server's live feed; a saved sandbox and saved lesson progress below). Everywhere else it
/// draws the session's typed values (the response viewer pretty-prints the output as it is).
const UI_BOUNDARIES: [(&str, &str); 3] = [
    ("src/ui/share.rs", "decodes a share link"),
    ("src/ui/config.rs", "decodes the page's URL parameters"),
    ("src/ui/live.rs", "decodes the server's SSE feed"),
];

/// Single lines outside the boundaries that may match, each with why.
const UI_ALLOWED: [(&str, &str, &str); 6] = [
    ("src/ui/model.rs", "o.get(\"log\")", "decodes the saved sandbox"),
    ("src/ui/guided.rs", "v.get(\"", "decodes the saved lesson progress"),
    ("src/ui/browser.rs", "m.as_bool()", "a JsValue (matchMedia), not JSON"),
    ("src/ui/timeline.rs", "|v| v.as_str()", "an enum's serde name, not an output"),
    ("src/ui/lines.rs", "v.get_mut(\"metadata\")", "edits the body template it wrote"),
    ("src/ui/lines.rs", "ContinueToken::decode(token)", "shows the token the learner picks, decoded"),
];

/// What reading meaning back out of output JSON or line text looks like: a JSON field, a line or
/// query parsed again, a resourceVersion or continue token's text turned into a number (the
/// typed replies carry `revision`, `continue_rv`, `last_sync_revision`).
const UI_READS: [&str; 18] = [
    ".get(\"",
    ".pointer(",
    "Value::as_",
    ".as_str().map(str::to_string)",
    "|v| v.as_str()",
    ".as_u64()",
    ".as_i64()",
    ".as_bool()",
    ".as_array()",
    ".as_object()",
    "parse_line(",
    "Query::parse(",
    "query_param",
    "split_once('?')",
    ".parse::<i64>()",
    ".parse::<u64>()",
    "ContinueToken::decode(",
    "continue_token::decode(",
];

/// The lines of the UI's sources (outside its input and display boundaries and its host tests)
/// that read JSON or line text, as `path:line: text`; and the allowances no line needed.
fn ui_reads(root: &Path, extra: Option<(&str, &str)>) -> (Vec<String>, Vec<&'static str>) {
    let mut files = Vec::new();
    rust_files(&root.join("src/ui"), &mut files);
    let mut found = Vec::new();
    let mut used = [false; UI_ALLOWED.len()];
    let mut sources: Vec<(String, String)> = files
        .iter()
        .filter(|f| !f.ends_with("tests.rs"))
        .map(|f| {
            let rel = f.strip_prefix(root).unwrap_or(f).display().to_string();
            (rel, std::fs::read_to_string(f).unwrap_or_default())
        })
        .collect();
    if let Some((path, text)) = extra {
        sources.push((path.to_string(), text.to_string()));
    }
    for (rel, text) in &sources {
        if UI_BOUNDARIES.iter().any(|(b, _)| b == rel) {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if !UI_READS.iter().any(|p| code.contains(p)) {
                continue;
            }
            match UI_ALLOWED.iter().position(|(f, s, _)| f == rel && code.contains(s)) {
                Some(i) => used[i] = true,
                None => found.push(format!("{rel}:{}: {code}", n + 1)),
            }
        }
    }
    let stale = UI_ALLOWED.iter().zip(used).filter(|(_, u)| !u).map(|((_, s, _), _)| *s).collect();
    (found, stale)
}

#[test]
fn the_ui_draws_typed_values_and_never_reads_output_json_or_line_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (found, stale) = ui_reads(root, None);
    assert_eq!(found, Vec::<String>::new(), "draw the session's typed values (script::reply, LineOutcome)");
    assert_eq!(stale, Vec::<&str>::new(), "allowances no line needs any more");
    // It catches each kind of read: a JSON field, a line parsed again, a query scanned.
    for bad in [
        "let code = out.get(\"code\").and_then(Value::as_u64);",
        "let rv = body.pointer(\"/metadata/resourceVersion\");",
        "if let Ok(Command::Etcd(_)) = parse_line(&e.line) {}",
        "let t = Query::parse(raw).first(\"continue\");",
        "let tok = lines::query_param(&entry.line, \"continue\");",
        "let rv = l.resource_version.as_deref().and_then(|s| s.trim().parse::<i64>().ok());",
        "let sync = inf.last_sync_rv.parse::<u64>().ok();",
        "let t = ContinueToken::decode(tok)?;",
        "let t = crate::apiserver::continue_token::decode(tok);",
    ] {
        let (found, _) = ui_reads(root, Some(("src/ui/picture/marks.rs", bad)));
        assert_eq!(found, [format!("src/ui/picture/marks.rs:1: {bad}")], "{bad}");
    }
}
