//! The release bundle (`dist/`, built by `./dev.sh build`) exists and its wasm stays under
//! the size budget recorded in `budget.toml` (`[wasm] max_bytes`). `./dev.sh test` builds dist/
//! first; run on its own, the bundle tests are ignored (the budget file's is not).
use std::path::Path;

/// `max_bytes` of the `[wasm]` table in `budget.toml` (a number, `_` separators allowed), or
/// why it cannot be read.
fn wasm_budget(toml: &str) -> Result<u64, String> {
    let mut table = "";
    for line in toml.lines().map(|l| l.split('#').next().unwrap_or_default().trim()) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.trim();
        } else if table == "wasm"
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "max_bytes"
        {
            let value = value.trim().replace('_', "");
            return value.parse().map_err(|e| format!("[wasm] max_bytes = {value:?}: {e}"));
        }
    }
    Err("budget.toml has no `max_bytes = N` in its [wasm] table".into())
}

fn budget_from_file() -> u64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("budget.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    wasm_budget(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_budget_file_holds_the_wasm_budget() {
    // The committed file: a budget a release wasm can meet (it has been over a megabyte since
    // 2026-11; an empty or misplaced key fails here, not only after a release build).
    let budget = budget_from_file();
    assert!((1_000_000..16_000_000).contains(&budget), "{budget}");
    assert_eq!(wasm_budget("[wasm]\nmax_bytes = 1_676_161 # bytes\n"), Ok(1_676_161));
    assert!(wasm_budget("max_bytes = 5\n[wasm]\n").is_err(), "a key outside [wasm] is not the budget");
    assert!(wasm_budget("[wasm]\nmax_bytes = \"big\"\n").is_err());
    assert!(wasm_budget("[js]\nmax_bytes = 5\n").is_err());
}

#[test]
#[ignore = "needs `./dev.sh build` first; ./dev.sh test runs it"]
fn release_wasm_is_within_the_size_budget() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    let wasm: Vec<_> = std::fs::read_dir(&dist)
        .unwrap_or_else(|e| panic!("{} missing ({e}); run ./dev.sh build", dist.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("rvlab-web-"))
        .filter(|e| e.path().extension().is_some_and(|x| x == "wasm"))
        .collect();
    assert_eq!(wasm.len(), 1, "expected exactly one rvlab-web-*.wasm (the app's) in dist/");
    let size = wasm[0].metadata().expect("wasm metadata").len();
    let budget = budget_from_file();
    eprintln!("release wasm: {size} bytes (budget {budget})");
    assert!(size <= budget, "release wasm is {size} bytes, over the {budget}-byte budget in budget.toml");
    let index = std::fs::read_to_string(dist.join("index.html")).expect("dist/index.html");
    assert!(
        !index.contains("src=\"/") && !index.contains("href=\"/"),
        "dist/index.html must use relative URLs"
    );
}

/// Every file `dist/index.html` names is in `dist/` (the placeholders of www/index.html were all
/// filled), and what the page loads at runtime is copied beside it: the icon, the embed element,
/// the embed example and every lesson file; the console embed's module is there, named by the
/// embed element.
#[test]
#[ignore = "needs `./dev.sh build` first; ./dev.sh test runs it"]
fn the_bundle_holds_every_file_the_page_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dist = root.join("dist");
    let index = std::fs::read_to_string(dist.join("index.html")).expect("dist/index.html");
    assert!(!index.contains("@CSS") && !index.contains("@JS") && !index.contains("@WASM"), "{index}");
    let named: Vec<&str> = index
        .split(['"', '\''])
        .filter_map(|s| s.strip_prefix("./"))
        .filter(|s| !s.is_empty() && !s.contains(' '))
        .collect();
    for ext in [".css", ".js", "_bg.wasm"] {
        assert!(named.iter().any(|n| n.ends_with(ext)), "index.html names no {ext} file: {named:?}");
    }
    for n in named.iter().copied().chain([
        "favicon.svg",
        "rv-playground.js",
        "embed-example.html",
        "embed-api-example.html",
    ]) {
        assert!(dist.join(n).is_file(), "dist/{n} is missing");
    }
    // The console embed's module: not named by the page, but by rv-playground.js (the build's
    // hook writes its content-hashed names there), and nothing else of it in dist/.
    let element = std::fs::read_to_string(dist.join("rv-playground.js")).expect("dist/rv-playground.js");
    let console: Vec<String> = std::fs::read_dir(&dist)
        .expect("dist/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("rvlab-embed"))
        .collect();
    assert_eq!(console.len(), 2, "the console module's JS and wasm: {console:?}");
    for n in &console {
        assert!(n.len() > "rvlab-embed-".len() + 16, "{n} has its content hash");
        assert!(element.contains(&format!("\"./{n}\"")), "rv-playground.js names {n}");
    }
    let mut lessons: Vec<String> = std::fs::read_dir(root.join("lessons"))
        .expect("lessons/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    lessons.sort();
    assert!(lessons.len() >= 13, "{lessons:?}");
    for l in &lessons {
        assert!(dist.join("lessons").join(l).is_file(), "dist/lessons/{l} is missing");
    }
}
