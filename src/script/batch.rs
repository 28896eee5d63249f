//! One run of a script text: what `rvlab run` runs of its file, and what the JavaScript embedding
//! API runs of one string (`Lab.run`, the `<rv-playground>` element's `run()`). Both take at most
//! [`MAX_LINES`] lines and [`MAX_BYTES`] bytes at once: a script over either runs nothing, and its
//! output is ONE object, `{"line":N,"error":…,"refused":{"kind":"script-too-big",…}}`, with the
//! same words everywhere. Lines are numbered as `str::lines` splits the text (a final newline
//! makes no extra line), counting on from `first_line`, so runs of consecutive parts of a script
//! number their lines as one run of the whole would. No upstream counterpart.
//!
//! The bound keeps a pasted 10 MB or 100,000-line script from freezing the page that runs it
//! (the engine runs on the page's one thread); every line that does run is bounded by the
//! engine itself (`script::budget`).

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::line_error::LineError;
use super::session::Session;

/// The most lines one run takes.
pub const MAX_LINES: usize = 50_000;
/// The most bytes (UTF-8) one run takes.
pub const MAX_BYTES: usize = 8 * 1024 * 1024;

/// Why a script text did not run at all. Serialised as `"refused"` beside its English
/// `"error"`: its kind in `"kind"` (kebab-case), its fields beside it (camelCase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum ScriptRefusal {
    /// More than [`MAX_LINES`] lines or [`MAX_BYTES`] bytes.
    ScriptTooBig { lines: usize, bytes: usize, max_lines: usize, max_bytes: usize },
    /// The JavaScript API was given something else than a string (`got`: its JavaScript type).
    ScriptNotText { got: String },
}

/// `n` bytes in KB, rounded up (the words of [`ScriptRefusal::ScriptTooBig`]).
fn kb(n: usize) -> usize {
    n.div_ceil(1024)
}

impl fmt::Display for ScriptRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptRefusal::ScriptTooBig { lines, bytes, max_lines, max_bytes } => write!(
                f,
                "not run: the script has {lines} lines and {} KB; one run takes at most {max_lines} lines and {} KB",
                kb(*bytes),
                kb(*max_bytes)
            ),
            ScriptRefusal::ScriptNotText { got } => {
                write!(f, "not run: the script must be a string, not {got}")
            }
        }
    }
}

impl LineError for ScriptRefusal {
    const KEY: &'static str = "refused";

    fn zh(&self) -> String {
        match self {
            ScriptRefusal::ScriptTooBig { lines, bytes, max_lines, max_bytes } => format!(
                "未运行：这段脚本有 {lines} 行、{} KB；一次最多运行 {max_lines} 行、{} KB",
                kb(*bytes),
                kb(*max_bytes)
            ),
            ScriptRefusal::ScriptNotText { got } => format!("未运行：脚本必须是字符串，而不是 {got}"),
        }
    }
}

/// Splits pasted or imported text into the lines a console logs (blank lines dropped, CRLF
/// tolerated): the app's console and the console embed number their lines alike.
pub fn split_script(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r').trim())
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The size of a script text, measured as it is read (a caller may feed it in pieces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Size {
    /// UTF-8 bytes.
    pub bytes: usize,
    newlines: usize,
    /// The text so far ends with a line that has no newline yet.
    open_line: bool,
}

impl Size {
    /// The size of `text`.
    pub fn of(text: &str) -> Size {
        let mut s = Size::default();
        s.push(text);
        s
    }

    /// Adds the next piece of the text.
    pub fn push(&mut self, piece: &str) {
        if piece.is_empty() {
            return;
        }
        self.bytes += piece.len();
        self.newlines += piece.bytes().filter(|b| *b == b'\n').count();
        self.open_line = !piece.ends_with('\n');
    }

    /// How many lines `str::lines` gives for the text.
    pub fn lines(&self) -> usize {
        self.newlines + usize::from(self.open_line)
    }

    /// Whether one run takes a script of this size.
    pub fn check(&self) -> Result<(), ScriptRefusal> {
        if self.lines() > MAX_LINES || self.bytes > MAX_BYTES {
            return Err(self.too_big());
        }
        Ok(())
    }

    /// The refusal of a script of this size.
    pub fn too_big(&self) -> ScriptRefusal {
        ScriptRefusal::ScriptTooBig {
            lines: self.lines(),
            bytes: self.bytes,
            max_lines: MAX_LINES,
            max_bytes: MAX_BYTES,
        }
    }
}

/// The output of a script that did not run: its refusal, numbered as its first line would be.
pub fn refusal_output(line: usize, refusal: &ScriptRefusal) -> Value {
    let mut m = Map::new();
    m.insert("line".into(), json!(line));
    if let Value::Object(rest) = refusal.output() {
        m.extend(rest);
    }
    Value::Object(m)
}

/// How a run of a script text ended.
#[derive(Debug, PartialEq)]
pub enum Ended<E> {
    /// Every line ran; `lines` were numbered (blank lines and comments included).
    Ran { lines: usize },
    /// Nothing ran; its one output was emitted.
    Refused(ScriptRefusal),
    /// `emit` failed (e.g. stdout closed) after some lines ran.
    Stopped(E),
}

/// Runs `text` in `session`, its first line numbered `first_line`, handing each output object to
/// `emit` as it comes: exactly the objects `rvlab run` prints. A script over the limits runs
/// nothing and emits its one refusal.
pub fn run_text<E>(
    session: &mut Session,
    first_line: usize,
    text: &str,
    mut emit: impl FnMut(Value) -> Result<(), E>,
) -> Ended<E> {
    if let Err(r) = Size::of(text).check() {
        return match emit(refusal_output(first_line, &r)) {
            Ok(()) => Ended::Refused(r),
            Err(e) => Ended::Stopped(e),
        };
    }
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        lines = i + 1;
        if let Some(out) = session.run_line(first_line + i, line)
            && let Err(e) = emit(out)
        {
            return Ended::Stopped(e);
        }
    }
    Ended::Ran { lines }
}

/// [`run_text`] collecting the outputs.
pub fn run_collect(session: &mut Session, first_line: usize, text: &str) -> (Vec<Value>, Ended<()>) {
    let mut outs = Vec::new();
    let ended = run_text(session, first_line, text, |v| {
        outs.push(v);
        Ok::<(), ()>(())
    });
    (outs, ended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::why::Lang;

    #[test]
    fn size_counts_lines_as_str_lines_does() {
        for text in ["", "a", "a\n", "a\n\n", "\n", "a\nb", "a\r\nb\r\n", "\n\n\nx", "é\nü"] {
            let s = Size::of(text);
            assert_eq!(s.lines(), text.lines().count(), "{text:?}");
            assert_eq!(s.bytes, text.len(), "{text:?}");
        }
    }

    #[test]
    fn size_fed_in_pieces_is_the_size_of_the_whole() {
        let text = "etcd put /a 1\n\n# c\nGET /api/v1/namespaces/default/configmaps\nx";
        for cut in 0..=text.len() {
            let mut s = Size::default();
            s.push(&text[..cut]);
            s.push(&text[cut..]);
            assert_eq!(s, Size::of(text), "cut at {cut}");
        }
    }

    #[test]
    fn a_script_at_the_limits_runs_and_one_over_is_refused() {
        let at = "\n".repeat(MAX_LINES);
        assert_eq!(Size::of(&at).check(), Ok(()));
        let over = "\n".repeat(MAX_LINES + 1);
        assert_eq!(
            Size::of(&over).check(),
            Err(ScriptRefusal::ScriptTooBig {
                lines: MAX_LINES + 1,
                bytes: MAX_LINES + 1,
                max_lines: MAX_LINES,
                max_bytes: MAX_BYTES
            })
        );
        let bytes = "x".repeat(MAX_BYTES);
        assert_eq!(Size::of(&bytes).check(), Ok(()));
        let bytes = "x".repeat(MAX_BYTES + 1);
        assert!(matches!(
            Size::of(&bytes).check(),
            Err(ScriptRefusal::ScriptTooBig { lines: 1, bytes: b, .. }) if b == MAX_BYTES + 1
        ));
    }

    #[test]
    fn a_refused_script_is_one_object_with_its_words_and_value() {
        let r = ScriptRefusal::ScriptTooBig {
            lines: 100_000,
            bytes: 1_400_000,
            max_lines: MAX_LINES,
            max_bytes: MAX_BYTES,
        };
        assert_eq!(
            refusal_output(7, &r),
            json!({
                "line": 7,
                "error": "not run: the script has 100000 lines and 1368 KB; one run takes at most 50000 lines and 8192 KB",
                "refused": {"kind": "script-too-big", "lines": 100000, "bytes": 1400000, "maxLines": 50000, "maxBytes": 8388608}
            })
        );
        assert_eq!(
            r.render(Lang::Zh),
            "未运行：这段脚本有 100000 行、1368 KB；一次最多运行 50000 行、8192 KB"
        );
        let t = ScriptRefusal::ScriptNotText { got: "number".into() };
        assert_eq!(
            refusal_output(1, &t),
            json!({"line": 1, "error": "not run: the script must be a string, not number", "refused": {"kind": "script-not-text", "got": "number"}})
        );
        assert_eq!(t.render(Lang::Zh), "未运行：脚本必须是字符串，而不是 number");
    }

    /// The embedding API's chapter shows each kind's output exactly as it is printed, and the
    /// limits in its words.
    #[test]
    fn the_chapter_documents_every_kind_and_the_limits() {
        let doc = include_str!("../../site/src/reference/embedding-api.md");
        let too_big = ScriptRefusal::ScriptTooBig {
            lines: 100_000,
            bytes: 1_400_000,
            max_lines: MAX_LINES,
            max_bytes: MAX_BYTES,
        };
        let shown = refusal_output(1, &too_big).to_string();
        assert!(doc.contains(&shown), "the chapter does not show {shown}");
        let not_text = ScriptRefusal::ScriptNotText { got: "number".into() };
        let out = refusal_output(7, &not_text);
        let shown = format!("\"error\":{},\"refused\":{}", out["error"], out["refused"]);
        assert!(doc.contains(&shown), "the chapter does not show {shown}");
        let limits =
            format!("{},{:03} lines and {} KB", MAX_LINES / 1000, MAX_LINES % 1000, MAX_BYTES / 1024);
        assert!(doc.contains(&limits), "the chapter does not state the limits as {limits:?}");
    }

    #[test]
    fn a_too_big_script_runs_nothing() {
        let mut s = Session::new();
        let text = "etcd put /a 1\n".repeat(MAX_LINES + 1);
        let (outs, ended) = run_collect(&mut s, 3, &text);
        assert_eq!(outs.len(), 1);
        assert_eq!(outs[0]["line"], 3);
        assert_eq!(outs[0]["refused"]["kind"], "script-too-big");
        assert!(matches!(ended, Ended::Refused(ScriptRefusal::ScriptTooBig { .. })));
        assert_eq!(s.revision(), 1, "nothing was written");
    }

    /// Two runs of consecutive parts give what one run of the whole gives (numbers included).
    #[test]
    fn runs_of_parts_number_lines_as_the_whole() {
        let first = "etcd put /a 1\n\n# a comment\nevents w9\n";
        let second = "etcd get /a\nnonsense\n";
        let mut whole = Session::new();
        let (all, ended) = run_collect(&mut whole, 1, &format!("{first}{second}"));
        assert_eq!(ended, Ended::Ran { lines: 6 });
        let mut parts = Session::new();
        let (mut outs, ended) = run_collect(&mut parts, 1, first);
        let Ended::Ran { lines } = ended else { panic!("{ended:?}") };
        assert_eq!(lines, 4);
        let (rest, _) = run_collect(&mut parts, 1 + lines, second);
        outs.extend(rest);
        assert_eq!(outs, all);
        let numbers: Vec<_> = all.iter().map(|o| o["line"].as_u64()).collect();
        assert_eq!(numbers, [Some(1), Some(4), Some(5), Some(6)]);
    }

    #[test]
    fn run_text_stops_when_emit_fails() {
        let mut s = Session::new();
        let mut n = 0;
        let ended = run_text(&mut s, 1, "etcd put /a 1\netcd put /b 2\n", |_| {
            n += 1;
            Err("closed")
        });
        assert_eq!(ended, Ended::Stopped("closed"));
        assert_eq!(n, 1);
        assert_eq!(s.revision(), 2, "the second line did not run");
    }
}
