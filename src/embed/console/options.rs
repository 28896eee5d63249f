//! How a console embed was asked for: the `<rv-playground>` element's attributes, as the query
//! `rv-playground.js` builds for any embed (`script=…&mode=…&theme=…&lang=…&height=…`), read as
//! the app's `ui::config` reads the same query. Pure, host-compiled.

use super::super::query::query_pairs;
use super::words::parse_lang;
use crate::script::batch;
use crate::script::extra::Extra;
use crate::script::why::Lang;

/// The most lines one action (a paste, a run, a lesson's "Show me") may run, in the app
/// (`ui::safety`) and in the console embed alike.
pub const MAX_ACTION_LINES: usize = 5_000;
/// The most bytes one action may run.
pub const MAX_ACTION_BYTES: usize = 512 * 1024;
/// The longest single line.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why one action's lines do not run at all (the app shows it as a notice, the console embed in
/// its notice line, with the same words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionRefusal {
    /// More than [`MAX_ACTION_LINES`] lines or [`MAX_ACTION_BYTES`] bytes.
    TooBig { lines: usize, bytes: usize },
    /// Line `index` (0-based) is longer than [`MAX_LINE_BYTES`].
    LineTooLong { index: usize, bytes: usize },
}

/// Checks the lines of one action before they run.
pub fn check_action(lines: &[String]) -> Result<(), ActionRefusal> {
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    if lines.len() > MAX_ACTION_LINES || bytes > MAX_ACTION_BYTES {
        return Err(ActionRefusal::TooBig { lines: lines.len(), bytes });
    }
    check_each_line(lines)
}

/// The per-line check only (a line's length): for logs that are replayed (share links, embeds),
/// which may be long.
pub fn check_each_line(lines: &[String]) -> Result<(), ActionRefusal> {
    match lines.iter().position(|l| l.len() > MAX_LINE_BYTES) {
        Some(index) => Err(ActionRefusal::LineTooLong { index, bytes: lines[index].len() }),
        None => Ok(()),
    }
}

/// `n` bytes in KB, rounded up, as the refusals' words say them.
pub fn kb(n: usize) -> String {
    n.div_ceil(1024).to_string()
}

/// Whether `line` needs the full playground: a line of the language this module leaves out
/// (`script::extra`).
pub fn needs_full(line: &str) -> bool {
    Extra::missing_in_line(line.trim()).is_some()
}

/// The console embed's parameters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// The lines it starts with (`script=`).
    pub script: String,
    /// `mode=interactive`: the reader may type lines (a script embed is read-only otherwise).
    pub interactive: bool,
    /// `lang=`; None = the browser's language.
    pub lang: Option<Lang>,
    /// `theme=auto|light|dark` (anything else: auto).
    pub theme: &'static str,
    /// `height=<px>` (at least 80); None = as tall as its content.
    pub height: Option<u32>,
}

impl Options {
    pub fn parse(query: &str) -> Options {
        let mut o = Options { theme: "auto", ..Options::default() };
        for (k, v) in query_pairs(query) {
            match k.as_str() {
                "script" => o.script = v,
                "mode" => o.interactive = v == "interactive",
                "lang" => o.lang = parse_lang(&v),
                "theme" => {
                    o.theme = match v.as_str() {
                        "light" => "light",
                        "dark" => "dark",
                        _ => "auto",
                    }
                }
                "height" => o.height = v.parse().ok().filter(|h: &u32| *h >= 80),
                _ => {}
            }
        }
        o
    }

    /// Whether the element needs the full playground rather than the console: a line of its
    /// script does ([`needs_full`]), or one is longer than a line may be (the full playground
    /// refuses such a script whole, with its notice, as it would in the full embed).
    pub fn needs_full(&self) -> bool {
        let lines = batch::split_script(&self.script);
        lines.iter().any(|l| needs_full(l)) || check_each_line(&lines).is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elements_query_is_read_as_the_app_reads_it() {
        let o = Options::parse(
            "embed=1&script=GET%20%2Fapi%2Fv1%2Fpods%0Aevents+w1&mode=interactive&lang=zh&theme=dark&height=300",
        );
        assert_eq!(o.script, "GET /api/v1/pods\nevents w1");
        assert!(o.interactive);
        assert_eq!((o.lang, o.theme, o.height), (Some(Lang::Zh), "dark", Some(300)));
        let d = Options::parse("embed=1&script=x&mode=readonly&theme=purple&height=auto");
        assert_eq!((d.interactive, d.theme, d.height, d.lang), (false, "auto", None, None));
        assert_eq!(Options::parse("height=79").height, None);
        // A line longer than a line may be is the full playground's to refuse, in every build.
        let long = format!("script=etcd%20put%20%2Fa%20{}", "x".repeat(MAX_LINE_BYTES));
        assert!(Options::parse(&long).needs_full());
        assert!(!Options::parse("script=etcd%20put%20%2Fa%201%0AGET%20%2Fapi%2Fv1%2Fpods").needs_full());
        // The language's extras only in the console embed's build.
        let kubectl = Options::parse("script=etcd%20put%20%2Fa%201%0Akubectl%20get%20pods");
        assert_eq!(kubectl.needs_full(), !Extra::ALL_COMPILED);
        let lines = vec!["a".to_string(), "b".repeat(MAX_LINE_BYTES + 1), "c".repeat(MAX_LINE_BYTES + 2)];
        assert_eq!(
            check_action(&lines),
            Err(ActionRefusal::LineTooLong { index: 1, bytes: MAX_LINE_BYTES + 1 })
        );
        assert_eq!(check_action(&lines[..1]), Ok(()));
        assert!(!needs_full(&lines[1]), "a long line is refused, not handed over");
        let many = vec!["x".to_string(); MAX_ACTION_LINES + 1];
        assert_eq!(
            check_action(&many),
            Err(ActionRefusal::TooBig { lines: MAX_ACTION_LINES + 1, bytes: 2 * (MAX_ACTION_LINES + 1) })
        );
        assert_eq!(kb(1025), "2");
    }
}
