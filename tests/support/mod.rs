//! Helpers shared by the parser tests (`tests/script_parse.rs` for whole lines,
//! `tests/expect.rs` for `expect` assertions): parse or fail with the exact message, and the
//! canonical round trip (parse → display → parse gives the same value; display is a fixed point).
//! Also the small deterministic generator the random sweeps draw from (`tests/script_parse.rs`,
//! `tests/why.rs`).

#![allow(dead_code)]

use std::fmt::{Debug, Display};
use std::str::FromStr;

/// `text` parses as a `T`; panics with the parse error otherwise.
pub fn parses<T: FromStr<Err: Display>>(text: &str) -> T {
    text.parse::<T>().unwrap_or_else(|e| panic!("{text:?} should parse, got error: {e}"))
}

/// `text` does not parse as a `T`; returns the error message.
pub fn parse_error<T: FromStr<Err: Display> + Debug>(text: &str) -> String {
    match text.parse::<T>() {
        Ok(v) => panic!("{text:?} should not parse, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

/// Parses `text`, prints it canonically, parses that again: the same value, and the canonical
/// text is a fixed point. Returns the canonical text.
pub fn round_trip<T: FromStr<Err: Display> + Display + PartialEq + Debug>(text: &str) -> String {
    let v: T = parses(text);
    let canon = v.to_string();
    let again: T = canon.parse().unwrap_or_else(|e| panic!("{canon:?} (from {text:?}) does not parse: {e}"));
    assert_eq!(again, v, "round trip of {text:?} via {canon:?}");
    assert_eq!(again.to_string(), canon, "the canonical form of {text:?} is not a fixed point");
    canon
}

/// The project's one deterministic generator: the same seed gives the same sweep.
pub use rvlab::clock::Rng;

/// `pick` for tests: one of a fixed, non-empty list.
pub trait Pick {
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T;
}

impl Pick for Rng {
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        self.choose(xs).expect("pick from a non-empty list")
    }
}
