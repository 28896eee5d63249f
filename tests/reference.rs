//! The book's reference chapters (`site/src/reference/`) list exactly what the code enumerates:
//! every `why` rule, outcome, path, semantics, end and etcd operation, every field of the `why`
//! values, and every setting. The code's side is read from the types themselves (the variant
//! and field names serde derives for them), so a variant added without its line in the chapter,
//! or a line left behind after one is removed, fails here. The refusal kinds are checked the same
//! way in `script::refusal`'s tests, the client decisions in `script::why::informer`'s.

use std::collections::BTreeSet;

use rvlab::apiserver::decision::{
    EndReason, Ended, EtcdOp, EtcdRefusal, EtcdWhy, Outcome, Path, Rule, Semantics, Why,
};
use rvlab::cluster::{SettingName, SettingWhy};
use serde::de::{self, Deserialize, Visitor};

const WHY: &str = include_str!("../site/src/reference/why.md");
const SETTINGS: &str = include_str!("../site/src/reference/settings.md");

/// A deserializer that answers nothing but records the names a derived `Deserialize` hands it:
/// an enum's variants (as serialised: renamed) or a struct's fields.
struct Names<'a>(&'a mut Vec<&'static str>);

impl<'de> de::Deserializer<'de> for Names<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("only enums and structs"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.extend_from_slice(variants);
        Err(de::Error::custom("names taken"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.extend_from_slice(fields);
        Err(de::Error::custom("names taken"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map identifier ignored_any
    }
}

/// The variant names of an enum, or the field names of a struct, as serde writes them.
fn names<T: for<'de> Deserialize<'de>>() -> BTreeSet<String> {
    let mut got = Vec::new();
    let _ = T::deserialize(Names(&mut got));
    assert!(!got.is_empty(), "{} is not an enum or struct with names", std::any::type_name::<T>());
    got.into_iter().map(str::to_string).collect()
}

/// The id a value serialises to.
fn id<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

#[path = "support/doc_table.rs"]
mod doc_table;
use doc_table::table_ids;

fn assert_lists_exactly(chapter: &str, what: &str, listed: &BTreeSet<String>, code: &BTreeSet<String>) {
    let missing: Vec<_> = code.difference(listed).collect();
    let extra: Vec<_> = listed.difference(code).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{chapter}, {what}: not documented {missing:?}; documented but not in the code {extra:?}"
    );
}

#[test]
fn the_why_chapter_lists_every_decision_value() {
    let tables = [
        ("### Rules", names::<Rule>(), "rules"),
        ("### Outcomes", names::<Outcome>(), "outcomes"),
        ("### `path`", names::<Path>(), "paths"),
        ("### `semantics`", names::<Semantics>(), "semantics"),
        ("### Ends", names::<EndReason>(), "ends of a watch"),
        ("### etcd operations", names::<EtcdOp>(), "etcd operations"),
        ("### etcd refusals", names::<EtcdRefusal>(), "etcd refusals"),
    ];
    for (heading, code, what) in tables {
        assert_lists_exactly("why.md", what, &table_ids(WHY, heading), &code);
    }
}

#[test]
fn the_why_chapter_lists_every_field_of_each_decision() {
    let tables = [
        ("## An API request", names::<Why>(), "an API request's why"),
        ("## A `set` line", names::<SettingWhy>(), "a set line's why"),
        ("## An etcd operation", names::<EtcdWhy>(), "an etcd operation's why"),
        ("## A watch stream that has ended", names::<Ended>(), "an ended watch's why"),
    ];
    for (heading, code, what) in tables {
        assert_lists_exactly("why.md", what, &table_ids(WHY, heading), &code);
    }
}

/// The `ALL` arrays (what the other tests and the UI iterate over) hold every value.
#[test]
fn every_all_array_holds_every_value() {
    fn ids<T: serde::Serialize>(all: &[T]) -> BTreeSet<String> {
        all.iter().map(id).collect()
    }
    assert_eq!(ids(&Rule::ALL), names::<Rule>());
    assert_eq!(ids(&Outcome::ALL), names::<Outcome>());
    assert_eq!(ids(&Path::ALL), names::<Path>());
    assert_eq!(ids(&Semantics::ALL), names::<Semantics>());
    assert_eq!(ids(&EndReason::ALL), names::<EndReason>());
    assert_eq!(ids(&EtcdOp::ALL), names::<EtcdOp>());
    assert_eq!(ids(&EtcdRefusal::ALL), names::<EtcdRefusal>());
    assert_eq!(ids(&SettingName::ALL), names::<SettingName>());
}

#[test]
fn the_settings_chapter_lists_every_setting() {
    let code = names::<SettingName>();
    assert_lists_exactly("settings.md", "settings", &table_ids(SETTINGS, "# Settings"), &code);
    // Each is one a `set` line takes.
    for n in &code {
        assert!(SettingName::ALL.iter().any(|s| s.as_str() == n), "{n}");
    }
}

/// The parser the checks above rely on reads what a chapter lists, and says when it cannot.
#[test]
fn the_table_reader_reads_ids_and_refuses_a_missing_table() {
    let md = "# A\n\ntext\n\n| id | x |\n|---|---|\n| `a` | 1 |\n| `b`, `c` / `d\\|e` | 2 |\n\nafter\n| `z` | no |\n";
    let ids = table_ids(md, "# A");
    assert_eq!(ids, ["a", "b", "c", "d|e"].into_iter().map(str::to_string).collect::<BTreeSet<_>>());
    assert!(std::panic::catch_unwind(|| table_ids("# A\n\n## B\n| `a` |\n", "# A")).is_err());
    assert!(std::panic::catch_unwind(|| table_ids("# B\n", "# A")).is_err());
    let listed: BTreeSet<String> = ["a".to_string()].into();
    let code: BTreeSet<String> = ["a".to_string(), "b".to_string()].into();
    assert!(std::panic::catch_unwind(|| assert_lists_exactly("x", "y", &listed, &code)).is_err());
}
