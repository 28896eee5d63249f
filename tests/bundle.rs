//! The release bundle (`dist/`, built by `trunk build --release`) exists and its wasm stays under
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
#[ignore = "needs `trunk build --release` first; ./dev.sh test runs it"]
fn release_wasm_is_within_the_size_budget() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    let wasm: Vec<_> = std::fs::read_dir(&dist)
        .unwrap_or_else(|e| panic!("{} missing ({e}); run trunk build --release", dist.display()))
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
