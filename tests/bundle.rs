//! The release bundle (`dist/`, built by `./dev.sh build`) exists and its wasm stays under
//! the size budget recorded in README.md ("Size budget: N bytes"). `./dev.sh test` builds dist/
//! first; run on its own, this test is ignored.
use std::path::Path;

fn budget_from_readme() -> u64 {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable");
    readme
        .lines()
        .find_map(|l| {
            let rest = l.split("Size budget:").nth(1)?;
            // The first number after the colon; later numbers on the line are prose.
            let digits: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .filter(|c| *c != ',')
                .collect();
            digits.parse().ok()
        })
        .expect("README.md has a line `Size budget: N bytes`")
}

#[test]
#[ignore = "needs `./dev.sh build` first; ./dev.sh test runs it"]
fn release_wasm_is_within_the_size_budget() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    let wasm: Vec<_> = std::fs::read_dir(&dist)
        .unwrap_or_else(|e| panic!("{} missing ({e}); run ./dev.sh build", dist.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "wasm"))
        .collect();
    assert_eq!(wasm.len(), 1, "expected exactly one .wasm in dist/");
    let size = wasm[0].metadata().expect("wasm metadata").len();
    let budget = budget_from_readme();
    eprintln!("release wasm: {size} bytes (budget {budget})");
    assert!(size <= budget, "release wasm is {size} bytes, over the {budget}-byte budget in README.md");
    let index = std::fs::read_to_string(dist.join("index.html")).expect("dist/index.html");
    assert!(
        !index.contains("src=\"/") && !index.contains("href=\"/"),
        "dist/index.html must use relative URLs"
    );
}

/// Every file `dist/index.html` names is in `dist/` (the placeholders of www/index.html were all
/// filled), and what the page loads at runtime is copied beside it: the icon, the embed element,
/// the embed example and every lesson file.
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
