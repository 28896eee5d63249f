//! The words of a script line: the cursor the line grammar ([`super::parse`]), `expect`
//! ([`super::expect`]) and `kubectl` lines read arguments with, quoted JSON strings, and how
//! words are written back. Below all three, so none of them imports another to lex; what goes
//! wrong is a [`super::syntax`] value (below this).

pub use super::syntax::ParseError;
pub(crate) use super::syntax::{Part, Problem, QuoteError, json_str, q};

/// One argument: a bare word, or a `"..."` JSON string (then `quoted` is true).
#[derive(Debug)]
pub(crate) struct Token {
    pub text: String,
    pub quoted: bool,
}

/// Where the first whitespace of `s` starts (`s.find(char::is_whitespace)`, or `s.len()`): ASCII
/// bytes are tested as bytes, the rest from the first non-ASCII character on by `char`. A
/// line's words are mostly long ASCII keys and paths, read on every line of a replay.
fn word_end(s: &str) -> usize {
    for (i, b) in s.bytes().enumerate() {
        if !b.is_ascii() {
            // `i` starts a character: every byte before it is ASCII.
            return s[i..].find(char::is_whitespace).map_or(s.len(), |j| i + j);
        }
        // `char::is_whitespace` on ASCII: U+0009–U+000D and the space.
        if matches!(b, b'\t'..=b'\r' | b' ') {
            return i;
        }
    }
    s.len()
}

/// A cursor over the words of a line.
pub(crate) struct Words<'a> {
    rest: &'a str,
}

impl<'a> Words<'a> {
    pub fn new(s: &'a str) -> Self {
        Words { rest: s.trim_start() }
    }

    /// The unread remainder, trimmed.
    pub fn rest(&self) -> &'a str {
        self.rest.trim()
    }

    /// The next whitespace-delimited word, verbatim (quotes are not interpreted).
    pub fn next_bare(&mut self) -> Option<&'a str> {
        let s = self.rest;
        if s.is_empty() {
            return None;
        }
        let end = word_end(s);
        self.rest = s[end..].trim_start();
        Some(&s[..end])
    }

    /// The next word, decoding a `"..."` JSON string.
    pub fn next_token(&mut self) -> Result<Option<Token>, ParseError> {
        if self.rest.starts_with('"') {
            let (text, after) =
                quoted(self.rest).map_err(|error| ParseError::new(Problem::Quote { error }))?;
            if after.chars().next().is_some_and(|c| !c.is_whitespace()) {
                let got = after.split_whitespace().next().unwrap_or("").to_string();
                return Err(ParseError::new(Problem::Quote { error: QuoteError::AfterClosingQuote { got } }));
            }
            self.rest = after.trim_start();
            Ok(Some(Token { text, quoted: true }))
        } else {
            Ok(self.next_bare().map(|t| Token { text: t.to_string(), quoted: false }))
        }
    }

    /// A required word argument.
    pub fn word(&mut self, ctx: &str, what: Part, usage: &str) -> Result<String, ParseError> {
        match self.next_token().map_err(|e| e.at(ctx))? {
            Some(t) => Ok(t.text),
            None => Err(ParseError::missing(ctx, what, usage)),
        }
    }

    /// A required integer argument.
    pub fn int(&mut self, ctx: &str, what: Part, usage: &str) -> Result<i64, ParseError> {
        let Some(t) = self.next_bare() else {
            return Err(ParseError::missing(ctx, what, usage));
        };
        t.parse::<i64>()
            .map_err(|_| ParseError::new(Problem::NotANumber { what, got: t.to_string() }).at(ctx))
    }

    /// A required non-negative integer argument.
    pub fn index(&mut self, ctx: &str, usage: &str) -> Result<usize, ParseError> {
        let Some(t) = self.next_bare() else {
            return Err(ParseError::missing(ctx, Part::Number, usage));
        };
        t.parse::<usize>().map_err(|_| ParseError::new(Problem::NotAnIndex { got: t.to_string() }).at(ctx))
    }

    /// Fails if anything is left.
    pub fn end(&mut self, ctx: &str, usage: &str) -> Result<(), ParseError> {
        match self.next_bare() {
            None => Ok(()),
            Some(t) => {
                Err(ParseError::new(Problem::Unexpected { got: t.to_string() }).at(ctx).expected(usage))
            }
        }
    }
}

/// Reads a JSON string literal at the start of `s` (which starts with `"`); returns the decoded
/// text and what follows the closing quote.
pub(crate) fn quoted(s: &str) -> Result<(String, &str), QuoteError> {
    let bytes = s.as_bytes();
    debug_assert!(bytes.first() == Some(&b'"'));
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let lit = &s[..=i];
                return serde_json::from_str::<String>(lit)
                    .map(|t| (t, &s[i + 1..]))
                    .map_err(|e| QuoteError::Invalid { literal: lit.to_string(), detail: e.to_string() });
            }
            _ => i += 1,
        }
    }
    Err(QuoteError::Unterminated { text: s.to_string() })
}

/// An argument as written canonically: bare when it reads back as the same word.
pub(crate) fn word(s: &str) -> String {
    let bare =
        !s.is_empty() && !s.starts_with('"') && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    if bare { s.to_string() } else { json_str(s) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `word_end` is `find(char::is_whitespace)`, for every kind of whitespace before, after
    /// and without non-ASCII text.
    #[test]
    fn word_end_is_the_first_unicode_whitespace() {
        let spaces = [
            ' ', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{85}', '\u{a0}', '\u{1680}', '\u{2003}', '\u{2028}',
            '\u{3000}',
        ];
        let words =
            ["", "a", "/registry/configmaps/default/x", "é", "ab中文", "\u{1f600}x", "\u{e}\u{1f}\u{7f}"];
        let mut cases = Vec::new();
        for w in words {
            cases.push(w.to_string());
            for sp in spaces {
                cases.push(format!("{w}{sp}rest"));
                cases.push(format!("{w}é{sp}x"));
            }
        }
        for s in &cases {
            assert_eq!(word_end(s), s.find(char::is_whitespace).unwrap_or(s.len()), "{s:?}");
        }
        assert_eq!(word_end("ab\u{a0}c d"), 2);
        assert_eq!(word_end("abc"), 3);
    }
}
