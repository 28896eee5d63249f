//! The build's pins agree with each other: Trunk.toml's `[tools]` names the wasm-bindgen that
//! Cargo.lock resolves (wasm-bindgen-cli must match the library exactly, or the bundle and the
//! test runner refuse to work), the fuzz crate's lock file builds the crates it shares with the
//! project at the project's versions, and www/index.html, Trunk's target, names the browser
//! binary and only files that exist.
use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The value of `key = "…"` in a TOML text (the first such line).
fn toml_string(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// Every package a lock file resolves: name → the versions it is locked at.
fn locked(rel: &str) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for block in read(rel).split("[[package]]").skip(1) {
        if let (Some(name), Some(version)) = (toml_string(block, "name"), toml_string(block, "version")) {
            out.entry(name).or_default().push(version);
        }
    }
    out
}

#[test]
fn trunk_pins_the_wasm_bindgen_that_cargo_lock_resolves() {
    let locked = match locked("Cargo.lock").remove("wasm-bindgen").as_deref() {
        Some([one]) => one.clone(),
        other => panic!("Cargo.lock resolves wasm-bindgen once, not {other:?}"),
    };
    let trunk = read("Trunk.toml");
    assert_eq!(toml_string(&trunk, "wasm_bindgen").as_deref(), Some(locked.as_str()));
    // Cargo.toml pins the library exactly, so `cargo update` cannot move it away from the CLI.
    assert!(read("Cargo.toml").contains(&format!("wasm-bindgen = \"={locked}\"")));
    assert_eq!(toml_string(&trunk, "wasm_opt").as_deref(), Some("version_132"));
    assert_eq!(
        toml_string(&trunk, "public_url").as_deref(),
        Some("./"),
        "relative URLs: the bundle works under a sub-path"
    );
}

/// The fuzz crate has its own lock file; the crates it shares with the project must be built at
/// versions the project itself locks, so the fuzzers exercise the code the tests and the release
/// use (a newer rustls in fuzz/Cargo.lock once built with deprecation warnings the project's
/// `clippy -D warnings` never saw).
#[test]
fn the_fuzz_lock_builds_the_projects_dependency_versions() {
    let project = locked("Cargo.lock");
    let fuzz = locked("fuzz/Cargo.lock");
    assert!(
        project.contains_key("rustls") && fuzz.contains_key("rustls") && fuzz.contains_key("libfuzzer-sys")
    );
    let mut differ = Vec::new();
    for (name, versions) in &fuzz {
        if let Some(ours) = project.get(name) {
            for v in versions.iter().filter(|v| !ours.contains(v)) {
                differ.push(format!("{name} {v} (the project locks {})", ours.join(", ")));
            }
        }
    }
    assert!(differ.is_empty(), "fuzz/Cargo.lock differs from Cargo.lock: {differ:?}");
}

#[test]
fn the_page_trunk_builds_names_the_web_binary_and_existing_files() {
    let index = read("www/index.html");
    let cargo = read("Cargo.toml");
    let links: Vec<&str> =
        index.split("<link data-trunk").skip(1).map(|l| l.split('>').next().unwrap_or("")).collect();
    assert!(!links.is_empty());
    let attr = |l: &str, name: &str| -> Option<String> {
        let rest = l.split(&format!(" {name}=\"")).nth(1)?;
        Some(rest.split('"').next()?.to_string())
    };
    let rust: Vec<&&str> = links.iter().filter(|l| l.contains("rel=\"rust\"")).collect();
    // The app (Trunk's main module, injected into the page) and the console embed's module (a
    // "worker" Trunk builds beside it as an ES module, without the default features).
    assert_eq!(rust.len(), 2, "two rust crate links: the app and the console embed");
    for r in &rust {
        let bin = attr(r, "data-bin").expect("data-bin");
        assert!(cargo.contains(&format!("name = \"{bin}\"")), "Cargo.toml has no [[bin]] {bin}");
    }
    // Release builds run wasm-opt: -Os for the app, -O2 for the console embed (smaller in brotli).
    assert_eq!(attr(rust[0], "data-wasm-opt").as_deref(), Some("s"));
    assert_eq!(attr(rust[1], "data-wasm-opt").as_deref(), Some("2"));
    assert_eq!(attr(rust[0], "data-bin").as_deref(), Some("rvlab-web"));
    assert!(!rust[0].contains("data-type"), "the app is the page's main module");
    assert_eq!(attr(rust[1], "data-bin").as_deref(), Some("rvlab-embed"));
    assert_eq!(attr(rust[1], "data-type").as_deref(), Some("worker"), "not injected into the page");
    assert_eq!(attr(rust[1], "data-bindgen-target").as_deref(), Some("web"), "an ES module");
    assert!(rust[1].contains(" data-cargo-no-default-features"), "built without the app and the extras");
    for l in &links {
        let href = attr(l, "href").expect("every data-trunk link has an href");
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("www").join(&href);
        assert!(p.exists(), "www/index.html names {href}, which does not exist");
    }
    for copied in
        ["favicon.svg", "rv-playground.js", "embed-example.html", "embed-api-example.html", "../lessons"]
    {
        assert!(
            links.iter().any(|l| attr(l, "href").as_deref() == Some(copied)),
            "the bundle does not copy {copied}"
        );
    }
}
