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
