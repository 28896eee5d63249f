//! Go's `strconv` as the apiserver's messages show it: `%q` quoting (`strconv.Quote`) and the
//! `strconv.ParseInt` / `ParseUint` errors, text for text.

/// Go's `strconv.Quote` / `%q` for a string that is valid UTF-8.
pub fn go_quote(s: &str) -> String {
    go_quote_bytes(s.as_bytes())
}

/// Go's `strconv.Quote` for arbitrary bytes (invalid UTF-8 bytes become `\xNN`).
pub fn go_quote_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 2);
    out.push('"');
    let mut rest = b;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                for c in valid.chars() {
                    push_go_escaped(&mut out, c, '"');
                }
                rest = &[];
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // `good` is valid UTF-8 by construction.
                for c in String::from_utf8_lossy(good).chars() {
                    push_go_escaped(&mut out, c, '"');
                }
                let n = e.error_len().unwrap_or(bad.len()).max(1).min(bad.len());
                for byte in &bad[..n] {
                    out.push_str(&format!("\\x{byte:02x}"));
                }
                rest = &bad[n..];
            }
        }
    }
    out.push('"');
    out
}

/// Appends `c` the way Go's `appendEscapedRune` does inside a quoted literal delimited by `quote`.
pub(crate) fn push_go_escaped(out: &mut String, c: char, quote: char) {
    if c == quote || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if go_is_print(c) {
        out.push(c);
        return;
    }
    match c {
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => {
            out.push_str(&format!("\\x{:02x}", c as u32));
        }
        c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push_str(&format!("\\U{:08x}", c as u32)),
    }
}

/// An approximation of Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols
/// and the ASCII space. Non-ASCII spaces, format characters and private-use code points are not
/// printable.
pub(crate) fn go_is_print(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    if c.is_control() {
        return false;
    }
    !matches!(u,
        0x00A0 | 0x00AD | 0x1680 | 0x2000..=0x200F | 0x2028..=0x202F | 0x205F..=0x206F
        | 0x3000 | 0xFEFF | 0xFFF9..=0xFFFB | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F
        | 0x180E | 0xD800..=0xDFFF | 0xE000..=0xF8FF | 0xFFFE | 0xFFFF
        | 0xF0000..=0x10FFFF | 0xE0000..=0xE007F)
}

/// Why a Go `strconv` integer parse failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoNumError {
    /// `invalid syntax`
    Syntax,
    /// `value out of range`
    Range,
}

/// A failed Go `strconv.ParseUint`/`ParseInt`, rendering exactly as Go's `*NumError`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("strconv.{func}: parsing {}: {}", go_quote(.input), match .kind { GoNumError::Syntax => "invalid syntax", GoNumError::Range => "value out of range" })]
pub struct ParseNumError {
    /// `ParseUint` or `ParseInt`.
    pub func: &'static str,
    /// The input as given.
    pub input: String,
    /// What went wrong.
    pub kind: GoNumError,
}

/// Go's `strconv.ParseUint(s, 10, 64)`, including its error precedence.
pub fn go_parse_uint(s: &str) -> Result<u64, ParseNumError> {
    parse_uint_digits(s).map_err(|kind| ParseNumError { func: "ParseUint", input: s.to_string(), kind })
}

fn parse_uint_digits(s: &str) -> Result<u64, GoNumError> {
    if s.is_empty() {
        return Err(GoNumError::Syntax);
    }
    let mut n: u64 = 0;
    for b in s.bytes() {
        if !b.is_ascii_digit() {
            return Err(GoNumError::Syntax);
        }
        n = n.checked_mul(10).and_then(|n| n.checked_add(u64::from(b - b'0'))).ok_or(GoNumError::Range)?;
    }
    Ok(n)
}

/// Go's `strconv.ParseInt(s, 10, 64)` (accepts a leading `+` or `-`).
pub fn go_parse_int(s: &str) -> Result<i64, ParseNumError> {
    let err = |kind| ParseNumError { func: "ParseInt", input: s.to_string(), kind };
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let un = parse_uint_digits(digits).map_err(err)?;
    if neg {
        if un > 1u64 << 63 {
            return Err(err(GoNumError::Range));
        }
        Ok((un as i64).wrapping_neg())
    } else {
        i64::try_from(un).map_err(|_| err(GoNumError::Range))
    }
}
