//! The line language spoken by `rvlab run` and the browser console, and its JSON Lines output.

pub mod batch;
pub mod budget;
pub mod checkpoints;
pub mod clients;
mod etcd_ops;
pub mod session;

pub use outcome::{LineFailure, LineOutcome};
pub use session::Session;
pub mod expect;
pub mod extra;
pub mod kubectl;
pub mod lex;
pub mod line_error;
pub mod outcome;
pub mod parse;
pub mod refusal;
pub mod reply;
#[cfg(test)]
mod reply_tests;
pub mod summary;
pub mod syntax;
pub mod view;
pub mod why;

/// The ids a book chapter lists in a table (unit tests check chapters against the code).
#[cfg(test)]
#[path = "../../tests/support/doc_table.rs"]
pub(crate) mod doc_table;
