//! A playground session: one simulated cluster plus the state a script keeps between lines
//! (open watch streams by id, the current apiserver). `rvlab run` and the browser console both
//! drive the engine through this type and get the same JSON output objects.

use serde_json::{Value, json};

/// One sandbox. Feed it lines; each non-blank, non-comment line yields one output object.
#[derive(Debug, Default)]
pub struct Session {}

impl Session {
    pub fn new() -> Self {
        Session {}
    }

    /// Runs one line (1-based `line_no` goes into the output's `"line"`). Returns `None` for
    /// blank lines and `#` comments.
    pub fn run_line(&mut self, line_no: usize, text: &str) -> Option<Value> {
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') {
            return None;
        }
        Some(json!({"line": line_no, "error": "not implemented yet"}))
    }

    /// Runs a whole script, numbering lines from 1.
    pub fn run_script(&mut self, text: &str) -> Vec<Value> {
        text.lines()
            .enumerate()
            .filter_map(|(i, l)| self.run_line(i + 1, l))
            .collect()
    }
}
