//! The served log on disk: every recorded line, and the outputs of the most recent lines, in
//! files that `GET /rvlab/v1/script` and the live view's backlog stream from, so the server's
//! memory does not grow with how long it has run.
//!
//! The files are made in the temporary directory (`TMPDIR`) and unlinked at once: the server
//! keeps them open, reads them by position, and nothing is left behind however the process
//! ends. The script file grows with the run (the script is needed whole to replay it; `--record`
//! writes the same lines); the outputs are kept in segments of [`SEGMENT_BYTES`], at most
//! [`SEGMENTS`] of them, the oldest dropped whole, so they take at most [`OUTPUT_BUDGET`] of disk.
//! Upstream counterpart: none.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;

/// Bytes of one output segment.
pub const SEGMENT_BYTES: u64 = 8 * 1024 * 1024;
/// Segments kept: the one being written and the ones before it.
pub const SEGMENTS: usize = 4;
/// At most this much output (JSON text) is kept for `?output=jsonl`: between
/// `OUTPUT_BUDGET - SEGMENT_BYTES` and `OUTPUT_BUDGET` of the most recent lines' outputs once
/// they outgrew it.
pub const OUTPUT_BUDGET: u64 = SEGMENT_BYTES * SEGMENTS as u64;

/// How much one read from a spooled file takes.
const CHUNK: usize = 64 * 1024;

/// One open, unlinked, append-only file and how much has been written to it.
#[derive(Debug, Clone)]
struct Spooled {
    file: Arc<File>,
    len: u64,
}

impl Spooled {
    fn create(what: &str) -> Result<Spooled, String> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("rvlab-serve-{}-{n}-{what}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| format!("rvlab serve: the log's file {}: {e}", path.display()))?;
        // Open, it stays readable and writable; unlinked, nothing is left behind.
        let _ = std::fs::remove_file(&path);
        Ok(Spooled { file: Arc::new(file), len: 0 })
    }

    fn append(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        (&*self.file).write_all(bytes)?;
        self.len += bytes.len() as u64;
        Ok(())
    }
}

/// The log's files.
#[derive(Debug)]
pub struct Spool {
    lines: Spooled,
    line_count: u64,
    outputs: VecDeque<Spooled>,
    /// The first write that failed: the log is incomplete from there on.
    failed: Option<String>,
}

impl Spool {
    pub fn create() -> Result<Spool, String> {
        Ok(Spool {
            lines: Spooled::create("script")?,
            line_count: 0,
            outputs: VecDeque::from([Spooled::create("outputs")?]),
            failed: None,
        })
    }

    /// Appends one recorded line and its output (JSON text).
    pub fn push(&mut self, line: &str, output: &str) {
        if self.failed.is_some() {
            return;
        }
        if let Err(e) = self.write(line, output) {
            eprintln!("rvlab serve: the log could not be written: {e}");
            self.failed = Some(e);
        }
    }

    fn write(&mut self, line: &str, output: &str) -> Result<(), String> {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        self.lines.append(text.as_bytes()).map_err(|e| e.to_string())?;
        self.line_count += 1;
        if self.outputs.back().is_none_or(|s| s.len >= SEGMENT_BYTES) {
            self.outputs.push_back(Spooled::create("outputs")?);
            while self.outputs.len() > SEGMENTS {
                self.outputs.pop_front();
            }
        }
        let mut text = String::with_capacity(output.len() + 1);
        text.push_str(output);
        text.push('\n');
        match self.outputs.back_mut() {
            Some(s) => s.append(text.as_bytes()).map_err(|e| e.to_string()),
            None => Err("no output segment".into()),
        }
    }

    /// Why the log is incomplete, if a write failed.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    pub fn line_count(&self) -> u64 {
        self.line_count
    }

    /// The script so far (each line ending in `\n`), in chunks.
    pub fn script(&self) -> Chunks {
        Chunks::of(vec![self.lines.clone()])
    }

    /// The kept outputs, oldest first (each ending in `\n`), in chunks.
    pub fn outputs(&self) -> Chunks {
        Chunks::of(self.outputs.iter().cloned().collect())
    }

    /// Bytes of output kept on disk.
    pub fn output_bytes(&self) -> u64 {
        self.outputs.iter().map(|s| s.len).sum()
    }
}

/// What was written to some spooled files when they were asked for, read a chunk at a time
/// (what is written after is not part of it).
#[derive(Debug)]
pub struct Chunks {
    files: VecDeque<Spooled>,
    pos: u64,
}

impl Chunks {
    fn of(files: Vec<Spooled>) -> Chunks {
        Chunks { files: files.into(), pos: 0 }
    }

    /// How many bytes are left to read.
    pub fn len(&self) -> u64 {
        let total: u64 = self.files.iter().map(|f| f.len).sum();
        total.saturating_sub(self.pos)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Everything, as lines (for tests and small logs).
    pub fn into_lines(self) -> Vec<String> {
        let bytes: Vec<u8> = self.flat_map(|b| b.to_vec()).collect();
        String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect()
    }
}

#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], pos: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, pos)
}

#[cfg(windows)]
fn read_at(f: &File, buf: &mut [u8], pos: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, pos)
}

impl Iterator for Chunks {
    type Item = Bytes;

    fn next(&mut self) -> Option<Bytes> {
        loop {
            let f = self.files.front()?;
            let left = f.len.saturating_sub(self.pos);
            if left == 0 {
                self.files.pop_front();
                self.pos = 0;
                continue;
            }
            let mut buf = vec![0u8; CHUNK.min(usize::try_from(left).unwrap_or(CHUNK))];
            match read_at(&f.file, &mut buf, self.pos) {
                Ok(0) | Err(_) => {
                    // Shorter than written: nothing more can be read from it.
                    self.files.pop_front();
                    self.pos = 0;
                }
                Ok(n) => {
                    buf.truncate(n);
                    self.pos += n as u64;
                    return Some(Bytes::from(buf));
                }
            }
        }
    }
}

/// The live view's first event, `data: {"backlog":[lines…]}`, made from the script file a
/// chunk at a time.
#[derive(Debug)]
pub struct Backlog {
    script: Chunks,
    /// The start of a line whose end is in the next chunk.
    partial: Vec<u8>,
    opened: bool,
    lines: u64,
    done: bool,
}

impl Backlog {
    pub fn of(script: Chunks) -> Backlog {
        Backlog { script, partial: Vec::new(), opened: false, lines: 0, done: false }
    }

    fn push_line(&mut self, out: &mut String, line: &[u8]) {
        if self.lines > 0 {
            out.push(',');
        }
        self.lines += 1;
        let text = String::from_utf8_lossy(line);
        out.push_str(&serde_json::Value::String(text.into_owned()).to_string());
    }
}

impl Iterator for Backlog {
    type Item = Bytes;

    fn next(&mut self) -> Option<Bytes> {
        if self.done {
            return None;
        }
        let mut out = String::new();
        if !self.opened {
            self.opened = true;
            out.push_str(r#"data: {"backlog":["#);
        }
        match self.script.next() {
            Some(chunk) => {
                let mut rest: &[u8] = &chunk;
                while let Some(i) = rest.iter().position(|b| *b == b'\n') {
                    let mut line = std::mem::take(&mut self.partial);
                    line.extend_from_slice(&rest[..i]);
                    self.push_line(&mut out, &line);
                    rest = &rest[i + 1..];
                }
                self.partial.extend_from_slice(rest);
            }
            None => {
                if !self.partial.is_empty() {
                    let line = std::mem::take(&mut self.partial);
                    self.push_line(&mut out, &line);
                }
                out.push_str("]}\n\n");
                self.done = true;
            }
        }
        Some(Bytes::from(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_and_outputs_read_back_as_written() {
        let mut s = Spool::create().unwrap();
        for i in 0..1000 {
            s.push(&format!("line {i}"), &format!(r#"{{"line":{}}}"#, i + 1));
        }
        let lines = s.script().into_lines();
        assert_eq!(lines.len(), 1000);
        assert_eq!(lines[999], "line 999");
        let outs = s.outputs().into_lines();
        assert_eq!(outs[0], r#"{"line":1}"#);
        assert_eq!(s.line_count(), 1000);
        // What was asked for is what had been written then.
        let script = s.script();
        s.push("later", "{}");
        assert_eq!(script.into_lines().len(), 1000);
    }

    #[test]
    fn outputs_rotate_within_the_budget_in_whole_segments() {
        let mut s = Spool::create().unwrap();
        let big = format!(r#"{{"x":"{}"}}"#, "a".repeat(1024 * 1024));
        for i in 0..(SEGMENTS * 8 + 5) {
            s.push(&format!("line {i}"), &big);
            assert!(s.output_bytes() <= OUTPUT_BUDGET + big.len() as u64 + 1);
        }
        let kept = s.outputs().into_lines();
        assert!(
            kept.len() as u64 * (big.len() as u64 + 1) >= OUTPUT_BUDGET - SEGMENT_BYTES,
            "{}",
            kept.len()
        );
        assert!(kept.len() < SEGMENTS * 8 + 5, "the oldest were dropped");
        assert_eq!(s.script().into_lines().len(), SEGMENTS * 8 + 5, "the script is kept whole");
    }

    #[test]
    fn the_backlog_is_one_event_of_every_line_across_chunks() {
        let mut s = Spool::create().unwrap();
        let long = "x".repeat(CHUNK + 100);
        let lines = ["a \"quoted\" line".to_string(), long.clone(), "last".to_string()];
        for l in &lines {
            s.push(l, "{}");
        }
        let text: String = Backlog::of(s.script()).map(|b| String::from_utf8(b.to_vec()).unwrap()).collect();
        assert!(text.starts_with("data: ") && text.ends_with("\n\n"), "{}", &text[..40]);
        let v: serde_json::Value = serde_json::from_str(text["data: ".len()..].trim_end()).unwrap();
        assert_eq!(v, serde_json::json!({"backlog": lines}));
        let empty = Spool::create().unwrap();
        let text: String =
            Backlog::of(empty.script()).map(|b| String::from_utf8(b.to_vec()).unwrap()).collect();
        assert_eq!(text, "data: {\"backlog\":[]}\n\n");
    }
}
