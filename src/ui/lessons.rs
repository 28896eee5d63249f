//! Scenarios an embed can preload with `?lesson=<name>` and the playground offers in its lesson
//! menu: the engine's guided lessons (`crate::lessons`, preloaded as setup + every step's
//! reference solution) and a few short built-in scripts. Each becomes plain script lines (what
//! `?script=` takes).

use super::i18n::{K, Lang};

/// Offer the engine's guided lessons (`crate::lessons`) as scenarios too. Off for now: linking
/// them adds ~110 KB (their bilingual text) to the release wasm; turn it on when the guided
/// lesson panel ships them anyway. With `false` the compiler drops them from the wasm.
pub const ENGINE_LESSONS: bool = false;

/// A scenario for the menu: its name and title in `lang`.
pub fn menu(lang: Lang) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = if ENGINE_LESSONS {
        crate::lessons::all().into_iter().map(|l| (l.slug.clone(), l.title.get(lang.code()).to_string())).collect()
    } else {
        Vec::new()
    };
    v.extend(all().into_iter().map(|l| (l.name.to_string(), l.title.get(lang).to_string())));
    v
}

/// Every known name (for the "no such lesson" message).
pub fn names() -> Vec<String> {
    menu(Lang::En).into_iter().map(|(n, _)| n).collect()
}

/// The lines of the scenario `name`: an engine lesson's setup and reference solutions, or a
/// built-in script.
pub fn lines_of(name: &str) -> Option<Vec<String>> {
    if ENGINE_LESSONS && let Some(l) = crate::lessons::find(name) {
        let mut out = l.setup.clone();
        for s in &l.steps {
            out.extend(s.solution.iter().cloned());
        }
        return Some(out);
    }
    find(name).map(|l| lines(&l))
}

pub struct Lesson {
    pub name: &'static str,
    pub title: K,
    pub script: &'static str,
}

const CM: &str = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"#;

pub fn all() -> Vec<Lesson> {
    vec![
        Lesson { name: "pagination", title: K::LessonPagination, script: PAGINATION },
        Lesson { name: "compaction", title: K::LessonCompaction, script: COMPACTION },
        Lesson { name: "watch", title: K::LessonWatch, script: WATCH },
        Lesson { name: "conflict", title: K::LessonConflict, script: CONFLICT },
    ]
}

pub fn find(name: &str) -> Option<Lesson> {
    all().into_iter().find(|l| l.name == name)
}

/// The lesson's lines, with the ConfigMap shorthand expanded.
pub fn lines(l: &Lesson) -> Vec<String> {
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
