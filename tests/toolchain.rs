//! The build's pins agree with each other: Trunk.toml's `[tools]` names the wasm-bindgen that
//! Cargo.lock resolves (wasm-bindgen-cli must match the library exactly, or the bundle and the
//! test runner refuse to work), and www/index.html, Trunk's target, names the browser binary and
//! only files that exist.
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

#[test]
fn trunk_pins_the_wasm_bindgen_that_cargo_lock_resolves() {
    let lock = read("Cargo.lock");
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"wasm-bindgen\"\n"))
        .and_then(|p| toml_string(p, "version"))
        .expect("Cargo.lock resolves wasm-bindgen");
    let trunk = read("Trunk.toml");
    assert_eq!(toml_string(&trunk, "wasm_bindgen").as_deref(), Some(locked.as_str()));
    // Cargo.toml pins the library exactly, so `cargo update` cannot move it away from the CLI.
    assert!(read("Cargo.toml").contains(&format!("wasm-bindgen = \"={locked}\"")));
    assert_eq!(toml_string(&trunk, "wasm_opt").as_deref(), Some("version_132"));
    assert_eq!(toml_string(&trunk, "public_url").as_deref(), Some("./"), "relative URLs: the bundle works under a sub-path");
}

#[test]
fn the_page_trunk_builds_names_the_web_binary_and_existing_files() {
    let index = read("www/index.html");
    let cargo = read("Cargo.toml");
    let links: Vec<&str> = index.split("<link data-trunk").skip(1).map(|l| l.split('>').next().unwrap_or("")).collect();
    assert!(!links.is_empty());
    let attr = |l: &str, name: &str| -> Option<String> {
        let rest = l.split(&format!(" {name}=\"")).nth(1)?;
        Some(rest.split('"').next()?.to_string())
    };
    let rust: Vec<&&str> = links.iter().filter(|l| l.contains("rel=\"rust\"")).collect();
    assert_eq!(rust.len(), 1, "one rust crate link");
    let bin = attr(rust[0], "data-bin").expect("data-bin");
    assert!(cargo.contains(&format!("name = \"{bin}\"")), "Cargo.toml has no [[bin]] {bin}");
    assert_eq!(attr(rust[0], "data-wasm-opt").as_deref(), Some("s"), "release builds run wasm-opt -Os");
    for l in &links {
        let href = attr(l, "href").expect("every data-trunk link has an href");
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("www").join(&href);
        assert!(p.exists(), "www/index.html names {href}, which does not exist");
    }
    for copied in ["favicon.svg", "rv-playground.js", "embed-example.html", "../lessons"] {
        assert!(links.iter().any(|l| attr(l, "href").as_deref() == Some(copied)), "the bundle does not copy {copied}");
    }
}
