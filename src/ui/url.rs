//! The page's address as text: percent-decoding and -encoding and the query's `(key, value)`
//! pairs. Pure functions, below everything that reads or rewrites the URL (`config`,
//! `browser`, the share and embed links).

pub use crate::embed::query::{percent_decode, query_pairs};

/// Percent-encodes a query value (everything but unreserved characters).
pub fn percent_encode(s: &str) -> String {
    super::lines::query_escape(s)
}
