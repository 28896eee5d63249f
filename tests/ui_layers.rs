//! The UI's modules import one another in one direction only (ARCHITECTURE.md, "The UI"): no
//! circle between the files of `src/ui/`, and saving (`ui::save`) sits below the reducer and the
//! panic hook, over plain data and the page's storage only.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Each `src/ui/NAME.rs` (and `NAME/`, whose files count as NAME) → the ui modules it names
/// (`super::x`, `crate::ui::x`, `use super::{x, y}`).
fn ui_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in fs::read_dir(&dir).expect("src/ui") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        if path.extension().is_some_and(|e| e == "rs") {
            files.push((name, fs::read_to_string(&path).expect("read")));
        } else if path.is_dir() {
            for sub in fs::read_dir(&path).expect("dir") {
                let p = sub.expect("entry").path();
                if p.extension().is_some_and(|e| e == "rs") {
                    // `super::` inside a folder names the folder's own parts: only
                    // `crate::ui::` counts there.
                    let text = fs::read_to_string(&p).expect("read");
                    files.push((name.clone(), text.replace("super::", "self_::")));
                }
            }
        }
    }
    let modules: BTreeSet<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in &files {
        let deps = graph.entry(name.clone()).or_default();
        for prefix in ["super::", "crate::ui::"] {
            for (at, _) in text.match_indices(prefix) {
                let rest = &text[at + prefix.len()..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                    None => vec![rest],
                };
                for n in names {
                    let id: String =
                        n.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if modules.contains(&id) && id != *name {
                        deps.insert(id);
                    }
                }
            }
        }
    }
    graph
}

/// A circle of imports, if there is one (depth-first).
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn walk(
        g: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut c = path[i..].to_vec();
            c.push(at.to_string());
            return Some(c);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in g.get(at).into_iter().flatten() {
            if let Some(c) = walk(g, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| walk(graph, m, &mut Vec::new(), &mut done))
}

#[test]
fn the_ui_modules_import_one_another_without_a_circle() {
    let graph = ui_graph();
    assert!(graph.len() > 20, "read src/ui: {:?}", graph.keys());
    assert_eq!(circle(&graph), None);
    // The check sees a circle when there is one.
    let mut with_circle = graph.clone();
    with_circle.get_mut("model").expect("model").insert("state".into());
    assert!(circle(&with_circle).is_some());
}

#[test]
fn saving_sits_below_the_reducer_and_the_panic_hook() {
    let graph = ui_graph();
    let save: Vec<&str> = graph["save"].iter().map(String::as_str).collect();
    assert_eq!(save, ["browser", "i18n", "model"]);
    for caller in ["state", "safety", "hooks", "header"] {
        assert!(graph[caller].contains("save"), "{caller} saves through ui::save");
    }
    // Nothing below the reducer reads or writes the saved sandbox itself.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    for file in ["state.rs", "safety.rs", "hooks.rs", "header.rs", "browser.rs"] {
        let text = fs::read_to_string(dir.join(file)).expect("read");
        for word in ["set_item(", "saved_text(", "parse_saved(", "model::STORAGE_KEY", "model::BACKUP_KEY"] {
            assert!(!text.contains(word), "{file} uses {word} (saving lives in ui::save)");
        }
    }
}
