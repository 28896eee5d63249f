//! The control endpoint: faults and settings while serving, in the script language.
//!
//! * `POST /rvlab/v1/script` — the body is script lines (`set cache.lag 2s`, `compact 12`,
//!   `restart apiserver 1`, `pause w3`, `advance 5m`, any API request…); each runs in order and is
//!   recorded (the serve-only `network watch-delay 2s` sets the network in front of the
//!   apiserver and is not recorded, see [`super::network`]); the answer is their output objects, one JSON object per line (JSON Lines).
//! * `GET /rvlab/v1/script` — the recorded script so far (`text/plain`), what `--record` writes;
//!   `GET /rvlab/v1/script?output=jsonl` — the output object of each of those lines, exactly what
//!   `rvlab run` prints when it replays the script (of the most recent lines only, once their
//!   outputs outgrow `engine::OUTPUT_BUDGET`; each output says its line number). Both are
//!   streamed from the log's files ([`super::spool`]).
//!
//! Upstream counterpart: none (this is the fault injector real clusters do not have).

use serde_json::Value;

use super::engine::Engine;
use super::http::{self, Resp};

/// At most this many lines per control request.
pub const MAX_LINES: usize = 10_000;

pub fn run_script(engine: &mut Engine, body: &[u8]) -> Resp {
    let Ok(text) = std::str::from_utf8(body) else {
        return http::text(400, "text/plain; charset=utf-8", "the script is not UTF-8\n");
    };
    // Every line runs, or none: a longer script is refused whole rather than cut short.
    let lines = text.lines().count();
    if lines > MAX_LINES {
        return http::text(
            413,
            "text/plain; charset=utf-8",
            format!(
                "the script has {lines} lines; one control request takes at most {MAX_LINES}: nothing ran\n"
            ),
        );
    }
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let v: Value = engine.run_operator_line(t);
        out.push_str(&v.to_string());
        out.push('\n');
    }
    engine.pump_watches();
    http::text(200, "application/jsonl; charset=utf-8", out)
}

/// `GET /rvlab/v1/script[?output=jsonl]`: streamed from the log's files as the client reads
/// (what was recorded when the request came); a 500 when the log could not be written whole.
pub fn script_text(engine: &Engine, outputs: bool) -> Resp {
    let (ty, chunks) = if outputs {
        ("application/jsonl; charset=utf-8", engine.outputs())
    } else {
        ("text/plain; charset=utf-8", engine.script())
    };
    match chunks {
        Ok(c) => {
            let len = c.len();
            http::chunks(200, ty, c, Some(len), None)
        }
        Err(e) => {
            http::text(500, "text/plain; charset=utf-8", format!("the server's log is incomplete: {e}\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(r: Resp) -> (u16, String) {
        use http_body_util::BodyExt;
        let code = r.status().as_u16();
        let rt = tokio::runtime::Builder::new_current_thread().build();
        let bytes = rt.ok().and_then(|rt| rt.block_on(r.into_body().collect()).ok()).map(|c| c.to_bytes());
        (code, String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned())
    }

    #[test]
    fn a_script_over_the_line_limit_runs_nothing_and_says_so() {
        let mut e = Engine::new(1.0, None).unwrap();
        let script = "compact 1\n".repeat(MAX_LINES + 1);
        let (code, text) = body(run_script(&mut e, script.as_bytes()));
        assert_eq!(code, 413);
        assert_eq!(
            text,
            "the script has 10001 lines; one control request takes at most 10000: nothing ran\n"
        );
        assert!(e.lines().is_empty(), "nothing was recorded: {:?}", e.lines());
        // At the limit, every line runs.
        let ok = "set explain off\n".repeat(MAX_LINES);
        let (code, text) = body(run_script(&mut e, ok.as_bytes()));
        assert_eq!(code, 200);
        assert_eq!(text.lines().count(), MAX_LINES);
    }
}
