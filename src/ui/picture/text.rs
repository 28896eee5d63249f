//! Text as the pictures lay it out: cut to a width with "…", or broken into lines. Line breaking
//! follows the usual rules for Chinese and English text: a break goes at a space or between two
//! CJK characters, never before closing punctuation (no line starts with `，、。；：,.;:` …) and
//! never after opening punctuation (no line ends with `（「“(` …). A word wider than a line is
//! broken between its characters (by the same rules), so no text is ever lost. Widths come from
//! `measure` (the browser's, or [`super::estimate_width`] on the host).

/// A character no line may start with: closing punctuation (中文 and English).
pub fn no_line_start(c: char) -> bool {
    matches!(
        c,
        '，' | '、'
            | '。'
            | '；'
            | '：'
            | '！'
            | '？'
            | '）'
            | '」'
            | '』'
            | '》'
            | '〉'
            | '】'
            | '〕'
            | '”'
            | '’'
            | '…'
            | '·'
            | ','
            | '.'
            | ';'
            | ':'
            | '!'
            | '?'
            | ')'
            | ']'
            | '}'
            | '%'
    )
}

/// A character no line may end with: opening punctuation.
pub fn no_line_end(c: char) -> bool {
    matches!(c, '（' | '「' | '『' | '《' | '〈' | '【' | '〔' | '“' | '‘' | '(' | '[' | '{')
}

/// Whether a break may go between `a` and `b`.
fn may_break(a: char, b: char) -> bool {
    !no_line_start(b) && !no_line_end(a)
}

/// `text` cut (with a leading or trailing "…") to fit `max` pixels.
pub fn fit(text: &str, max: f64, keep_end: bool, measure: &dyn Fn(&str) -> f64) -> String {
    if measure(text) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for n in (1..chars.len()).rev() {
        let s: String = if keep_end {
            std::iter::once('…').chain(chars[chars.len() - n..].iter().copied()).collect()
        } else {
            chars[..n].iter().copied().chain(std::iter::once('…')).collect()
        };
        if measure(&s) <= max {
            return s;
        }
    }
    String::new()
}

/// `text` broken into lines of at most `max` pixels (see the module's rules). Every character
/// but the spaces at a break is kept; a line is wider than `max` only when it cannot break
/// anywhere the rules allow before it would fit.
pub fn wrap(text: &str, max: f64, measure: &dyn Fn(&str) -> f64) -> Vec<String> {
    // Units that never break inside: (preceded by a space, text). A run of non-space ASCII is
    // one word; each other character is a unit of its own; closing punctuation joins the unit
    // before it and opening punctuation the unit after it.
    let mut units: Vec<(bool, String)> = Vec::new();
    let mut space = false;
    let mut glue_next = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        let join = match units.last() {
            None => false,
            Some((_, u)) => {
                let last = u.chars().last().unwrap_or(' ');
                glue_next
                    || (no_line_start(c))
                    || (!space && c.is_ascii() && last.is_ascii() && !no_line_end(last))
            }
        };
        match units.last_mut() {
            Some((_, u)) if join => {
                if space {
                    u.push(' ');
                }
                u.push(c);
            }
            _ => units.push((space, c.to_string())),
        }
        glue_next = no_line_end(c);
        space = false;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (sp, u) in units {
        let joined = if cur.is_empty() {
            u.clone()
        } else if sp {
            format!("{cur} {u}")
        } else {
            format!("{cur}{u}")
        };
        if cur.is_empty() || measure(&joined) <= max {
            cur = joined;
        } else {
            lines.push(std::mem::take(&mut cur));
            cur = u;
        }
        // A unit wider than a line: broken between its characters.
        while measure(&cur) > max {
            let Some((head, rest)) = split_fitting(&cur, max, measure) else { break };
            lines.push(head);
            cur = rest;
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// `s` split at the last break the rules allow whose first part fits `max` (else at the first
/// allowed break): the parts, or None when `s` may not break at all.
fn split_fitting(s: &str, max: f64, measure: &dyn Fn(&str) -> f64) -> Option<(String, String)> {
    let chars: Vec<char> = s.chars().collect();
    let allowed: Vec<usize> = (1..chars.len())
        .filter(|k| chars[*k] != ' ' && chars[*k - 1] != ' ' && may_break(chars[*k - 1], chars[*k]))
        .collect();
    let head = |k: usize| chars[..k].iter().collect::<String>();
    let k = allowed
        .iter()
        .copied()
        .take_while(|k| measure(&head(*k)) <= max)
        .last()
        .or_else(|| allowed.first().copied())?;
    Some((head(k), chars[k..].iter().collect()))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::ui::picture::estimate_width;

    fn starts_ok(lines: &[String]) -> bool {
        lines.iter().skip(1).all(|l| l.chars().next().is_some_and(|c| !no_line_start(c)))
    }

    #[test]
    fn a_chinese_comma_never_starts_a_line() {
        let t = "现在对 apiserver 1 · configmaps 的一致性读取会白等 3s，然后转到 etcd";
        for max in (20..400).step_by(7) {
            let lines = wrap(t, max as f64, &estimate_width);
            assert!(starts_ok(&lines), "{max}: {lines:?}");
            assert!(lines.iter().all(|l| !l.starts_with('，')), "{max}: {lines:?}");
            let joined: String = lines.concat().chars().filter(|c| !c.is_whitespace()).collect();
            let want: String = t.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(joined, want, "{max}: nothing lost");
        }
        // Where the comma would have started the line, the character before it moves along.
        let at = estimate_width("现在对 apiserver 1 · configmaps 的一致性读取会白等 3s");
        let lines = wrap(t, at, &estimate_width);
        assert!(lines.iter().any(|l| l.starts_with("3s，然后") || l.starts_with("等 3s，")), "{lines:?}");
    }

    #[test]
    fn an_english_comma_or_full_stop_never_starts_a_line() {
        let t = "a consistent read on apiserver 2 · configmaps now waits 3s in vain , then goes to etcd .";
        for max in (10..500).step_by(5) {
            let lines = wrap(t, max as f64, &estimate_width);
            assert!(starts_ok(&lines), "{max}: {lines:?}");
        }
        assert_eq!(
            wrap("waits in vain, then goes to etcd", estimate_width("waits in vain, then"), &estimate_width),
            vec!["waits in vain, then", "goes to etcd"]
        );
    }

    #[test]
    fn opening_punctuation_stays_with_what_follows() {
        let t = "关闭（没有 ERROR）";
        for max in (12..200).step_by(3) {
            let lines = wrap(t, max as f64, &estimate_width);
            assert!(lines.iter().rev().skip(1).all(|l| !l.ends_with('（')), "{max}: {lines:?}");
            assert!(starts_ok(&lines), "{max}: {lines:?}");
        }
    }

    #[test]
    fn a_long_word_is_broken_not_cut() {
        let lines = wrap("abcdefghijklmnopqrstuvwxyz", 60.0, &estimate_width);
        assert_eq!(lines.concat(), "abcdefghijklmnopqrstuvwxyz");
        assert!(lines.iter().all(|l| estimate_width(l) <= 60.0), "{lines:?}");
    }
}
