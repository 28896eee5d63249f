//! Every word the console embed shows, in English and 简体中文: one variant per string, both
//! translations in one exhaustive `match`, so a word without a translation does not compile.
//! The engine's own texts (its explanations, refusals, syntax errors) come rendered in the
//! language from `script`; these are only the console's frame around them.

use crate::script::why::Lang;

/// A string of the console embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    /// The embed's heading.
    Title,
    /// The button that loads the full playground in place (the picture, the timeline, the panels).
    Full,
    /// Its tooltip.
    FullHint,
    /// Shown while the full playground loads.
    Loading,
    /// The full playground did not load (`{0}`: why).
    LoadFailed,
    /// The input's placeholder.
    Placeholder,
    /// The input's accessible name.
    InputLabel,
    Run,
    /// A read-only embed's note under its log.
    ReadOnly,
    /// No line yet.
    Empty,
    /// The heading of the selected line's answer (`{0}`: its number).
    ResponseOf,
    /// The heading of the engine's explanation.
    Why,
    /// A comment line.
    Comment,
    /// A line too long to run (`{0}`: its number in what was run, `{1}` its KB, `{2}` the most):
    /// the app's words for the same refusal.
    LineTooLong,
    /// Too many lines or bytes at once (`{0}` lines, `{1}` KB; the most `{2}` lines, `{3}` KB):
    /// the app's words.
    ScriptTooBig,
}

impl Word {
    pub fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Word::Title, Lang::En) => "rvlab console",
            (Word::Title, Lang::Zh) => "rvlab 控制台",
            (Word::Full, Lang::En) => "Picture and full playground",
            (Word::Full, Lang::Zh) => "图示与完整 playground",
            (Word::FullHint, Lang::En) => {
                "Loads the full playground here (the picture, the timeline and every panel) with these lines"
            }
            (Word::FullHint, Lang::Zh) => "在此加载完整的 playground（图示、时间线和所有面板），并带上这些行",
            (Word::Loading, Lang::En) => "Loading the full playground…",
            (Word::Loading, Lang::Zh) => "正在加载完整的 playground…",
            (Word::LoadFailed, Lang::En) => "The full playground did not load: {0}",
            (Word::LoadFailed, Lang::Zh) => "完整的 playground 没有加载成功：{0}",
            (Word::Placeholder, Lang::En) => "GET /api/v1/namespaces/default/configmaps",
            (Word::Placeholder, Lang::Zh) => "GET /api/v1/namespaces/default/configmaps",
            (Word::InputLabel, Lang::En) => "A script line",
            (Word::InputLabel, Lang::Zh) => "一行脚本",
            (Word::Run, Lang::En) => "Run",
            (Word::Run, Lang::Zh) => "运行",
            (Word::ReadOnly, Lang::En) => "Read-only: these lines replay as written.",
            (Word::ReadOnly, Lang::Zh) => "只读：这些行按原样重放。",
            (Word::Empty, Lang::En) => "No line has run yet: type one below and press Run.",
            (Word::Empty, Lang::Zh) => "还没有运行任何行：在下面输入一行并按“运行”。",
            (Word::ResponseOf, Lang::En) => "Line {0}",
            (Word::ResponseOf, Lang::Zh) => "第 {0} 行",
            (Word::Why, Lang::En) => "Why",
            (Word::Why, Lang::Zh) => "原因",
            (Word::Comment, Lang::En) => "comment",
            (Word::Comment, Lang::Zh) => "注释",
            (Word::LineTooLong, Lang::En) => {
                "Not run: line {0} is {1} KB long; one line may be at most {2} KB."
            }
            (Word::LineTooLong, Lang::Zh) => "未运行：第 {0} 行长达 {1} KB；每行最多 {2} KB。",
            (Word::ScriptTooBig, Lang::En) => {
                "Not run: this script has {0} lines and {1} KB; the limit is {2} lines and {3} KB at once. Split it, or run it with the command line (rvlab run)."
            }
            (Word::ScriptTooBig, Lang::Zh) => {
                "未运行：这段脚本有 {0} 行、{1} KB；一次最多 {2} 行、{3} KB。请拆分后再运行，或者用命令行（rvlab run）运行。"
            }
        }
    }

    /// The text with `{0}`, `{1}` … replaced by `args`.
    pub fn with(self, lang: Lang, args: &[&str]) -> String {
        let mut s = self.text(lang).to_string();
        for (i, a) in args.iter().enumerate() {
            s = s.replace(&format!("{{{i}}}"), a);
        }
        s
    }

    /// Every word (tests check both languages of each).
    pub const ALL: [Word; 15] = [
        Word::Title,
        Word::Full,
        Word::FullHint,
        Word::Loading,
        Word::LoadFailed,
        Word::Placeholder,
        Word::InputLabel,
        Word::Run,
        Word::ReadOnly,
        Word::Empty,
        Word::ResponseOf,
        Word::Why,
        Word::Comment,
        Word::LineTooLong,
        Word::ScriptTooBig,
    ];
}

/// The language a `lang` attribute names (`en`, `zh`, `zh-CN`, …); None for anything else.
pub fn parse_lang(s: &str) -> Option<Lang> {
    let s = s.trim().to_ascii_lowercase();
    if s == "en" || s.starts_with("en-") {
        Some(Lang::En)
    } else if s == "zh" || s.starts_with("zh-") || s.starts_with("zh_") {
        Some(Lang::Zh)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_both_languages_with_the_same_placeholders() {
        for w in Word::ALL {
            let (en, zh) = (w.text(Lang::En), w.text(Lang::Zh));
            assert!(!en.is_empty() && !zh.is_empty(), "{w:?}");
            for i in 0..4 {
                let p = format!("{{{i}}}");
                assert_eq!(en.contains(&p), zh.contains(&p), "{w:?} {p}");
            }
        }
    }

    #[test]
    fn languages_are_read_as_the_app_reads_them() {
        assert_eq!(parse_lang("zh-CN"), Some(Lang::Zh));
        assert_eq!(parse_lang("EN-us"), Some(Lang::En));
        assert_eq!(parse_lang("fr"), None);
    }
}
