//! How a console embed was asked for: the `<rv-playground>` element's attributes, as the query
//! `rv-playground.js` builds for any embed (`script=…&mode=…&theme=…&lang=…&height=…`), read as
//! the app's `ui::config` reads the same query. Pure, host-compiled.

use super::super::query::query_pairs;
use super::words::parse_lang;
use crate::script::batch;
use crate::script::extra::Extra;
use crate::script::why::Lang;

/// The longest line the console takes (the app's `ui::safety::MAX_LINE_BYTES`).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Whether `line` needs the full playground: a line of the language this module leaves out
/// (`script::extra`), or one longer than a line may be (the full playground refuses it with
/// its notice).
pub fn needs_full(line: &str) -> bool {
    line.len() > MAX_LINE_BYTES || Extra::missing_in_line(line.trim()).is_some()
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
    /// script does ([`needs_full`]).
    pub fn needs_full(&self) -> bool {
        batch::split_script(&self.script).iter().any(|l| needs_full(l))
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
    }
}
