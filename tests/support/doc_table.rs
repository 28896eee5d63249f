//! The ids a book chapter lists in a table, for the tests that check a chapter lists exactly what
//! the code enumerates (tests/reference.rs, tests/script_parse.rs, and the unit tests of
//! `script::refusal` and `script::why::informer` through `script::doc_table`).
use std::collections::BTreeSet;

/// The backticked words in the first column of the first table under `heading` (a whole line of
/// the chapter), one id per code span (`not-found`, `already-exists` in one cell are two).
pub fn table_ids(chapter: &str, heading: &str) -> BTreeSet<String> {
    let lines: Vec<&str> = chapter.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_end() == heading)
        .unwrap_or_else(|| panic!("the chapter has no heading {heading:?}"));
    let mut rows =
        lines[start + 1..].iter().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'));
    let header = rows.next().unwrap_or_else(|| panic!("no table under {heading:?}"));
    assert!(
        !lines[start + 1..].iter().take_while(|l| !l.starts_with('|')).any(|l| l.starts_with('#')),
        "the first table after {heading:?} is under another heading ({header})"
    );
    let mut ids = BTreeSet::new();
    for row in rows.skip(1) {
        let first = first_cell(row);
        let spans: Vec<&str> = first.split('`').skip(1).step_by(2).collect();
        assert!(!spans.is_empty(), "a row under {heading:?} names nothing: {row}");
        for s in spans {
            assert!(ids.insert(s.replace("\\|", "|")), "{s} is listed twice under {heading:?}");
        }
    }
    ids
}

/// The first cell of a table row (`\|` inside it does not end it).
fn first_cell(row: &str) -> &str {
    let body = &row[1..];
    let mut prev = ' ';
    for (i, c) in body.char_indices() {
        if c == '|' && prev != '\\' {
            return &body[..i];
        }
        prev = c;
    }
    body
}
