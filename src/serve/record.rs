//! `--record FILE`: the served session written down as a script, line by line as it happens
//! (flushed after each line, so an interrupted server still leaves a complete prefix).
//! `rvlab run FILE` replays it. Upstream counterpart: none.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

#[derive(Debug)]
pub struct Recorder {
    out: BufWriter<File>,
    failed: bool,
}

impl Recorder {
    pub fn create(path: &Path) -> Result<Recorder, String> {
        let f = File::create(path).map_err(|e| format!("rvlab serve: --record {}: {e}", path.display()))?;
        // No header comment: line N of the file is line N of the live log, so `rvlab run FILE`
        // prints the very output objects the server produced.
        Ok(Recorder { out: BufWriter::new(f), failed: false })
    }

    pub fn line(&mut self, text: &str) {
        if self.failed {
            return;
        }
        let ok = writeln!(self.out, "{text}").and_then(|()| self.out.flush());
        if let Err(e) = ok {
            eprintln!("rvlab serve: recording stopped: {e}");
            self.failed = true;
        }
    }
}
