//! Short example scenarios (not lessons: no steps, no checks) that the playground's "Load an
//! example…" menu offers and an embed can preload with `?lesson=<name>`; each becomes plain
//! script lines (what `?script=` takes). The guided lessons (`lessons/*.rv`) live in
//! [`super::guided`] (slugs in [`super::config`]); their slugs do not clash with these names.

use super::i18n::{K, Lang};

/// An example for the menu: its name and title in `lang`.
pub fn menu(lang: Lang) -> Vec<(String, String)> {
    all().into_iter().map(|l| (l.name.to_string(), l.title.get(lang).to_string())).collect()
}

/// Every name `?lesson=` knows: the guided lessons' slugs, then the examples.
pub fn names() -> Vec<String> {
    let mut v = super::config::slugs();
    v.extend(all().into_iter().map(|l| l.name.to_string()));
    v
}

/// The lines of the example `name`.
pub fn lines_of(name: &str) -> Option<Vec<String>> {
    find(name).map(|l| lines(&l))
}

pub struct Example {
    pub name: &'static str,
    pub title: K,
    pub script: &'static str,
}

const CM: &str = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"#;

pub fn all() -> Vec<Example> {
    vec![
        Example { name: "pagination", title: K::LessonPagination, script: PAGINATION },
        Example { name: "compaction", title: K::LessonCompaction, script: COMPACTION },
        Example { name: "watch", title: K::LessonWatch, script: WATCH },
        Example { name: "conflict", title: K::LessonConflict, script: CONFLICT },
    ]
}

pub fn find(name: &str) -> Option<Example> {
    all().into_iter().find(|l| l.name == name)
}

/// The example's lines, with the ConfigMap shorthand expanded.
pub fn lines(l: &Example) -> Vec<String> {
    super::lines::split_script(&l.script.replace("{CM}", CM))
}

const PAGINATION: &str = r#"# Three objects, then a list in pages of one.
POST /api/v1/namespaces/default/configmaps {CM}"a"}}
POST /api/v1/namespaces/default/configmaps {CM}"b"}}
POST /api/v1/namespaces/default/configmaps {CM}"c"}}
GET /api/v1/namespaces/default/configmaps?limit=1
# A write between pages does not show up: the token pins the list's revision.
POST /api/v1/namespaces/default/configmaps {CM}"d"}}
GET /api/v1/namespaces/default/configmaps?limit=2&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0
"#;

const COMPACTION: &str = r#"# A continue token pins revision 4; compaction removes it.
POST /api/v1/namespaces/default/configmaps {CM}"a"}}
POST /api/v1/namespaces/default/configmaps {CM}"b"}}
POST /api/v1/namespaces/default/configmaps {CM}"c"}}
GET /api/v1/namespaces/default/configmaps?limit=1
POST /api/v1/namespaces/default/configmaps {CM}"d"}}
compact 5
GET /api/v1/namespaces/default/configmaps?limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0
"#;

const WATCH: &str = r#"# A watch from resourceVersion 2 sees every later change, in order.
POST /api/v1/namespaces/default/configmaps {CM}"a"}}
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2
POST /api/v1/namespaces/default/configmaps {CM}"b"}}
DELETE /api/v1/namespaces/default/configmaps/a
# Give the apiserver's watch cache time to catch up, then read the stream.
advance 5s
events w1
"#;

const CONFLICT: &str = r#"# Two writers, one resourceVersion: the second update is refused.
POST /api/v1/namespaces/default/configmaps {CM}"a"}}
PUT /api/v1/namespaces/default/configmaps/a {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"2"},"data":{"by":"alice"}}
PUT /api/v1/namespaces/default/configmaps/a {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"2"},"data":{"by":"bob"}}
GET /api/v1/namespaces/default/configmaps/a
"#;
