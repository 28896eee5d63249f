//! A small emulation of Go's `encoding/json` — enough to reproduce its error messages for
//! request bodies and continue tokens, and its string escaping for encoding.

use super::strconv::push_go_escaped;

/// `json.Marshal` of a string: HTML-safe escaping (`<`, `>`, `&` as `\u003c`...), `\u2028`/`\u2029`,
/// control characters as `\u00XX` except `\b \f \n \r \t`.
pub fn encode_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `quoteChar` used in `SyntaxError` messages.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => {
            let mut s = String::from("'");
            push_go_escaped(&mut s, char::from(c), '"');
            s.push('\'');
            s
        }
    }
}

/// A parsed JSON value that keeps Go's view of it (raw number literals, lossy strings).
#[derive(Debug, Clone, PartialEq)]
pub enum GoValue {
    Null,
    Bool(bool),
    /// The literal as written.
    Number(String),
    Str(String),
    Array(Vec<GoValue>),
    Object(Vec<(String, GoValue)>),
}

impl GoValue {
    /// The word Go uses in `UnmarshalTypeError` for this value's JSON type.
    pub fn type_word(&self) -> &'static str {
        match self {
            GoValue::Null => "null",
            GoValue::Bool(_) => "bool",
            GoValue::Number(_) => "number",
            GoValue::Str(_) => "string",
            GoValue::Array(_) => "array",
            GoValue::Object(_) => "object",
        }
    }
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

const EOF: &str = "unexpected end of JSON input";
/// Go's `maxNestingDepth`.
const MAX_DEPTH: usize = 10000;
/// Containers nested deeper than this are syntax-checked but materialised as `Null`, so that
/// no recursive walk (conversion, drop, serialisation) over the result can overflow the stack.
pub const MATERIALIZE_DEPTH: usize = 100;

fn invalid(c: u8, ctx: &str) -> String {
    format!("invalid character {} {}", quote_char(c), ctx)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.peek() {
            self.i += 1;
        }
    }
    /// Reads `"key"` then `:` (after `{` or `,`).
    fn key(&mut self) -> Result<String, String> {
        self.skip_ws();
        match self.peek() {
            None => return Err(EOF.to_string()),
            Some(b'"') => {}
            Some(c) => return Err(invalid(c, "looking for beginning of object key string")),
        }
        let key = self.string()?;
        self.skip_ws();
        match self.peek() {
            None => Err(EOF.to_string()),
            Some(b':') => {
                self.i += 1;
                Ok(key)
            }
            Some(c) => Err(invalid(c, "after object key")),
        }
    }
    fn open(&mut self, c: u8) -> Result<(), String> {
        self.i += 1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(invalid(c, "exceeded max depth"));
        }
        Ok(())
    }
    /// One value, iteratively (no recursion, so deep nesting cannot overflow the stack).
    fn value(&mut self) -> Result<GoValue, String> {
        // The bool: whether this container is materialised (depth < MATERIALIZE_DEPTH).
        enum Frame {
            Arr(Vec<GoValue>, bool),
            Obj(Vec<(String, GoValue)>, String, bool),
        }
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            self.skip_ws();
            let Some(c) = self.peek() else {
                return Err(EOF.to_string());
            };
            let mut val = match c {
                b'{' => {
                    self.open(c)?;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                        self.depth -= 1;
                        GoValue::Object(Vec::new())
                    } else {
                        let k = self.key()?;
                        let keep = stack.len() < MATERIALIZE_DEPTH;
                        stack.push(Frame::Obj(Vec::new(), k, keep));
                        continue 'value;
                    }
                }
                b'[' => {
                    self.open(c)?;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.i += 1;
                        self.depth -= 1;
                        GoValue::Array(Vec::new())
                    } else {
                        let keep = stack.len() < MATERIALIZE_DEPTH;
                        stack.push(Frame::Arr(Vec::new(), keep));
                        continue 'value;
                    }
                }
                b'"' => GoValue::Str(self.string()?),
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => {
                    self.literal("true")?;
                    GoValue::Bool(true)
                }
                b'f' => {
                    self.literal("false")?;
                    GoValue::Bool(false)
                }
                b'n' => {
                    self.literal("null")?;
                    GoValue::Null
                }
                c => return Err(invalid(c, "looking for beginning of value")),
            };
            // Attach `val` to its container(s).
            loop {
                match stack.last_mut() {
                    None => return Ok(val),
                    Some(Frame::Arr(items, keep)) => {
                        if *keep {
                            items.push(val);
                        }
                        self.skip_ws();
                        match self.peek() {
                            None => return Err(EOF.to_string()),
                            Some(b',') => {
                                self.i += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.i += 1;
                                self.depth -= 1;
                                let Some(Frame::Arr(items, keep)) = stack.pop() else {
                                    return Err(EOF.to_string());
                                };
                                val = if keep { GoValue::Array(items) } else { GoValue::Null };
                            }
                            Some(c) => return Err(invalid(c, "after array element")),
                        }
                    }
                    Some(Frame::Obj(members, key, keep)) => {
                        if *keep {
                            members.push((std::mem::take(key), val));
                        }
                        self.skip_ws();
                        match self.peek() {
                            None => return Err(EOF.to_string()),
                            Some(b',') => {
                                self.i += 1;
                                let k = self.key()?;
                                if let Some(Frame::Obj(_, key, _)) = stack.last_mut() {
                                    *key = k;
                                }
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.i += 1;
                                self.depth -= 1;
                                let Some(Frame::Obj(members, _, keep)) = stack.pop() else {
                                    return Err(EOF.to_string());
                                };
                                val = if keep { GoValue::Object(members) } else { GoValue::Null };
                            }
                            Some(c) => return Err(invalid(c, "after object key:value pair")),
                        }
                    }
                }
            }
        }
    }
    fn literal(&mut self, word: &str) -> Result<(), String> {
        let w = word.as_bytes();
        self.i += 1;
        for &expect in &w[1..] {
            match self.peek() {
                None => return Err(EOF.to_string()),
                Some(c) if c == expect => self.i += 1,
                Some(c) => {
                    return Err(invalid(c, &format!("in literal {word} (expecting {})", quote_char(expect))));
                }
            }
        }
        Ok(())
    }
    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
    }
    fn number(&mut self) -> Result<GoValue, String> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
            match self.peek() {
                None => return Err(EOF.to_string()),
                Some(b'0'..=b'9') => {}
                Some(c) => return Err(invalid(c, "in numeric literal")),
            }
        }
        if self.peek() == Some(b'0') {
            self.i += 1;
        } else {
            self.digits();
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            match self.peek() {
                None => return Err(EOF.to_string()),
                Some(b'0'..=b'9') => self.digits(),
                Some(c) => return Err(invalid(c, "after decimal point in numeric literal")),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            match self.peek() {
                None => return Err(EOF.to_string()),
                Some(b'0'..=b'9') => self.digits(),
                Some(c) => return Err(invalid(c, "in exponent of numeric literal")),
            }
        }
        Ok(GoValue::Number(String::from_utf8_lossy(&self.b[start..self.i]).into_owned()))
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0u32;
        for _ in 0..4 {
            match self.peek() {
                None => return Err(EOF.to_string()),
                Some(c) if c.is_ascii_hexdigit() => {
                    v = v * 16 + char::from(c).to_digit(16).unwrap_or(0);
                    self.i += 1;
                }
                Some(c) => return Err(invalid(c, "in \\u hexadecimal character escape")),
            }
        }
        Ok(v)
    }
    /// A string literal; invalid UTF-8 and lone surrogates become U+FFFD like Go.
    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut buf: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(EOF.to_string());
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(String::from_utf8_lossy(&buf).into_owned());
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(EOF.to_string());
                    };
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            if (0xD800..0xDC00).contains(&hi)
                                && self.b.get(self.i) == Some(&b'\\')
                                && self.b.get(self.i + 1) == Some(&b'u')
                            {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                        .unwrap_or('\u{FFFD}')
                                } else {
                                    self.i = save;
                                    '\u{FFFD}'
                                }
                            } else {
                                char::from_u32(hi).unwrap_or('\u{FFFD}')
                            }
                        }
                        other => return Err(invalid(other, "in string escape code")),
                    };
                    let mut tmp = [0u8; 4];
                    buf.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                }
                c if c < 0x20 => return Err(invalid(c, "in string literal")),
                c => {
                    buf.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

/// `json.Unmarshal`'s first phase (`checkValid`) plus parsing: the whole input must be one
/// JSON value; the error is Go's `SyntaxError` text.
pub fn parse(data: &[u8]) -> Result<GoValue, String> {
    let mut p = Parser { b: data, i: 0, depth: 0 };
    let v = p.value()?;
    p.skip_ws();
    if let Some(c) = p.peek() {
        return Err(invalid(c, "after top-level value"));
    }
    Ok(v)
}

/// Go's field-name matching: exact, else case-insensitive (with the Unicode simple folds
/// `ſ`→`s` and `K` (Kelvin)→`k`).
pub fn key_matches(key: &str, name: &str) -> bool {
    let fold = |c: char| match c {
        '\u{17F}' => 's',
        '\u{212A}' => 'k',
        c => c.to_ascii_lowercase(),
    };
    key.chars().map(fold).eq(name.chars().map(fold))
}

/// The Go type of a destination, for `UnmarshalTypeError` texts.
#[derive(Clone, Copy)]
pub enum GoType {
    String,
    Int64,
}

/// Stores `v` into a Go field of type `ty`, returning the `UnmarshalTypeError` "value" word
/// (`number`, `number 1.5`, `string`...) on mismatch. `Ok(None)` = null (field untouched).
pub fn store(v: &GoValue, ty: GoType) -> Result<Option<GoValue>, String> {
    match (v, ty) {
        (GoValue::Null, _) => Ok(None),
        (GoValue::Str(_), GoType::String) => Ok(Some(v.clone())),
        (GoValue::Number(n), GoType::Int64) => {
            if super::strconv::go_parse_int(n).is_ok() {
                Ok(Some(v.clone()))
            } else {
                Err(format!("number {n}"))
            }
        }
        (other, _) => Err(other.type_word().to_string()),
    }
}
