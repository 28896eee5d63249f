//! The book's performance page (`site/src/project/performance.md`) is generated: its tables sit
//! between two markers that `scripts/bench/table.mjs --page=…` (run by `./dev.sh bench
//! --markdown`) rewrites, keeping the rest of the page. Needs `node` on PATH (as `./dev.sh test`
//! has for the browser checks).

use std::path::{Path, PathBuf};
use std::process::Command;

const BEGIN: &str = "<!-- bench table";
const END: &str = "<!-- end bench table -->";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    std::fs::read_to_string(root().join("site/src/project/performance.md")).expect("the performance page")
}

/// The page split at its markers: before (up to and without the begin line), the tables, after
/// (from the line after the end marker).
fn split(text: &str) -> Option<(String, String, String)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let b = lines.iter().position(|l| l.starts_with(BEGIN))?;
    let e = lines.iter().position(|l| l.trim() == END)?;
    (lines.iter().filter(|l| l.starts_with(BEGIN)).count() == 1 && e > b)
        .then(|| (lines[..b].join("\n"), lines[b + 1..e].join("\n"), lines[e + 1..].join("\n")))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rvlab-bench-page-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn table_mjs(args: &[String]) -> std::process::Output {
    Command::new("node").arg(root().join("scripts/bench/table.mjs")).args(args).output().unwrap_or_else(|e| {
        panic!("node is not on PATH ({e}); ./dev.sh test needs it for the browser checks")
    })
}

#[test]
fn the_committed_page_holds_one_dated_generated_block() {
    let text = page();
    let (before, tables, after) = split(&text).expect("one begin marker, then one end marker");
    let measured = tables.lines().next().unwrap_or_default();
    let date = measured.strip_prefix("Measured ").unwrap_or_default();
    assert!(
        date.len() > 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
        "the tables start with the date they were measured: {measured:?}"
    );
    for part in ["**Issue 19 figures**", "**Every engine scenario**", "**Page metrics**"] {
        assert!(tables.contains(part), "{part} is missing from the generated block");
    }
    assert!(before.starts_with("# Performance"), "{before}");
    assert!(
        after.contains(&format!("## Notes on the run of {}", &date[..10])),
        "the notes name the run they explain"
    );
}

#[test]
fn table_mjs_rewrites_only_the_block_between_the_markers() {
    let dir = scratch("rewrite");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("a scratch file");
        p.display().to_string()
    };
    let native = write("native.txt", "BENCH\twrite.create\t25504\twrites/s\t20000 writes\n");
    let wasm = write("wasm.txt", "noise\nBENCH\twrite.create\t12752\twrites/s\t20000 writes\n");
    let pagef = write(
        "page.txt",
        "BENCH\tsize.wasm.brotli\t476571\tB\tbrotli q11\nBENCH\tsize.js.brotli\t8780\tB\tq11\nBENCH\tpage.first_render\t250\tms\tfirst element in <body>\n",
    );
    let committed = page();
    let target = write("performance.md", &committed);
    let out = table_mjs(&[
        format!("--page={target}"),
        "--title=Measured 2031-02-03 on a test machine".into(),
        native,
        wasm,
        pagef,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(&target).expect("the page was written");
    let (b0, _, a0) = split(&committed).expect("the committed page has its markers");
    let (b1, t1, a1) = split(&written).expect("the written page keeps its markers");
    assert_eq!((b0, a0), (b1, a1), "everything outside the markers is kept");
    assert!(t1.starts_with("Measured 2031-02-03 on a test machine"), "{t1}");
    assert!(t1.contains("| write.create | 25,504 writes/s | 12,752 writes/s | 2.00 (>1.5) |"), "{t1}");
    assert!(t1.contains("| size.wasm.brotli | 465.4 KiB | brotli q11 |"), "{t1}");
    // A `<` in a note would open an HTML tag in the book.
    assert!(t1.contains("| page.first_render | 250 ms | first element in &lt;body> |"), "{t1}");
    // What it printed is what it wrote.
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), t1.trim());
}

#[test]
fn table_mjs_leaves_a_page_without_both_markers_alone() {
    let dir = scratch("refuse");
    let native = dir.join("native.txt");
    std::fs::write(&native, "BENCH\twrite.create\t1\twrites/s\tx\n").expect("a scratch file");
    for text in ["# P\n<!-- bench table -->\nold\n", "# P\n<!-- end bench table -->\n<!-- bench table -->\n"]
    {
        let target = dir.join("performance.md");
        std::fs::write(&target, text).expect("a scratch file");
        let out = table_mjs(&[format!("--page={}", target.display()), native.display().to_string()]);
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read_to_string(&target).unwrap_or_default(), text);
    }
}
