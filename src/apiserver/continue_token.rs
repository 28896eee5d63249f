//! Continue tokens (spec §D): `storage.EncodeContinue` / `storage.DecodeContinue`.
//!
//! Owns the token format — `base64.RawURLEncoding` of compact JSON
//! `{"v":"meta.k8s.io/v1","rv":<int64>,"start":"<key suffix>"}` — and every decode error with
//! its exact message. Because those messages embed Go's `encoding/base64` and `encoding/json`
//! error texts, this module also holds a small emulation of both ([`gojson`], [`go_base64_decode`])
//! which the body decoder reuses.

use super::status::Status;

/// The only token version the apiserver understands.
pub const TOKEN_VERSION: &str = "meta.k8s.io/v1";

/// A decoded continue token. `start` is the key suffix relative to the list's key prefix,
/// including the trailing `"\u{0}"`; `rv` may be negative (continue at the latest revision).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken {
    pub rv: i64,
    pub start: String,
}

/// Why a continue token was rejected. `Display` is the message after `invalid continue token: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContinueError {
    /// Not RawURL base64; carries the offending byte index.
    #[error("continue key is not valid: illegal base64 data at input byte {0}")]
    Base64(usize),
    /// Not JSON (or JSON of the wrong shape); carries Go's `encoding/json` error text.
    #[error("continue key is not valid: {0}")]
    Json(String),
    /// `v` is not `meta.k8s.io/v1` (including empty).
    #[error("continue key is not valid: server does not recognize this encoded version {0}")]
    UnrecognizedVersion(String),
    /// `rv` is 0 or missing.
    #[error("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")]
    InvalidStartRv,
    /// `start` is empty.
    #[error("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)")]
    EmptyStartKey,
    /// `"/" + start` is not a clean path (`..`, `.`, `//`, trailing `/`).
    #[error("continue key is not valid: {0}")]
    InvalidKey(String),
}

impl From<ContinueError> for Status {
    /// §D: 400 BadRequest `invalid continue token: <error>`.
    fn from(e: ContinueError) -> Status {
        Status::bad_request(&format!("invalid continue token: {e}"))
    }
}

impl ContinueToken {
    /// A token continuing after `last_key` (a full etcd key under `key_prefix`) at `rv`:
    /// `start` = `last_key` + NUL with the prefix stripped. `None` if the key is not under the prefix.
    pub fn after_key(last_key: &str, key_prefix: &str, rv: i64) -> Option<ContinueToken> {
        let rest = last_key.strip_prefix(key_prefix)?;
        if rest.len() == last_key.len() {
            return None;
        }
        Some(ContinueToken { rv, start: format!("{rest}\u{0}") })
    }

    /// `storage.EncodeContinue`: RawURL base64 of `{"v":"meta.k8s.io/v1","rv":..,"start":".."}`
    /// with Go's JSON string escaping.
    pub fn encode(&self) -> String {
        let json = format!(
            "{{\"v\":{},\"rv\":{},\"start\":{}}}",
            gojson::encode_string(TOKEN_VERSION),
            self.rv,
            gojson::encode_string(&self.start)
        );
        go_base64_encode(json.as_bytes())
    }

    /// `storage.DecodeContinue` minus the prefix joining (see [`ContinueToken::start_key`]).
    pub fn decode(token: &str) -> Result<ContinueToken, ContinueError> {
        let data = go_base64_decode(token.as_bytes()).map_err(ContinueError::Base64)?;
        let (v, rv, start) = gojson::decode_continue_token(&data).map_err(ContinueError::Json)?;
        if v != TOKEN_VERSION {
            return Err(ContinueError::UnrecognizedVersion(v));
        }
        if rv == 0 {
            return Err(ContinueError::InvalidStartRv);
        }
        if start.is_empty() {
            return Err(ContinueError::EmptyStartKey);
        }
        let key = if start.starts_with('/') { start.clone() } else { format!("/{start}") };
        if go_path_clean(&key) != key {
            return Err(ContinueError::InvalidKey(start));
        }
        Ok(ContinueToken { rv, start })
    }

    /// The full etcd key to continue from: `key_prefix` + `start` (leading `/` removed, as
    /// `keyPrefix + cleaned[1:]` does).
    pub fn start_key(&self, key_prefix: &str) -> String {
        let rel = self.start.strip_prefix('/').unwrap_or(&self.start);
        format!("{key_prefix}{rel}")
    }
}

/// Go's `path.Clean`.
pub fn go_path_clean(p: &str) -> String {
    if p.is_empty() {
        return ".".to_string();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

const B64_URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `base64.RawURLEncoding.EncodeToString`.
pub fn go_base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(B64_URL[((n >> (18 - 6 * i)) & 0x3f) as usize] as char);
        }
    }
    out
}

fn b64_value(c: u8) -> Option<u32> {
    B64_URL.iter().position(|&x| x == c).map(|p| p as u32)
}

/// `base64.RawURLEncoding.DecodeString` (non-strict, skips `\r`/`\n`); the error is Go's
/// `CorruptInputError` byte offset.
pub fn go_base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() * 3 / 4);
    let mut si = 0usize;
    loop {
        // decodeQuantum
        let mut dbuf = [0u32; 4];
        let mut dlen = 4;
        let mut j = 0usize;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                if j == 1 {
                    return Err(si - j);
                }
                dlen = j;
                break;
            }
            let c = src[si];
            si += 1;
            if let Some(v) = b64_value(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            // No padding character in the raw alphabet: any other byte is corrupt.
            return Err(si - 1);
        }
        let val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3];
        let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
        out.extend_from_slice(&bytes[..dlen - 1]);
        if dlen < 4 {
            return Ok(out);
        }
    }
}

/// A small emulation of Go's `encoding/json` — enough to reproduce its error messages for the
/// continue token and for request bodies, and its string escaping for encoding.
pub mod gojson {
    use crate::apiserver::status::push_go_escaped;

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
                        return Err(invalid(
                            c,
                            &format!("in literal {word} (expecting {})", quote_char(expect)),
                        ));
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
                if crate::apiserver::status::go_parse_int(n).is_ok() {
                    Ok(Some(v.clone()))
                } else {
                    Err(format!("number {n}"))
                }
            }
            (other, _) => Err(other.type_word().to_string()),
        }
    }

    /// `json.Unmarshal` into `storage.continueToken{v string; rv int64; start string}`.
    pub fn decode_continue_token(data: &[u8]) -> Result<(String, i64, String), String> {
        let v = parse(data)?;
        let members = match v {
            GoValue::Null => return Ok((String::new(), 0, String::new())),
            GoValue::Object(m) => m,
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type storage.continueToken",
                    other.type_word()
                ));
            }
        };
        let (mut ver, mut rv, mut start) = (String::new(), 0i64, String::new());
        let mut first_err: Option<String> = None;
        for (key, val) in &members {
            let (name, ty) = if key_matches(key, "v") {
                ("v", GoType::String)
            } else if key_matches(key, "rv") {
                ("rv", GoType::Int64)
            } else if key_matches(key, "start") {
                ("start", GoType::String)
            } else {
                continue;
            };
            match store(val, ty) {
                Ok(None) => {}
                Ok(Some(GoValue::Str(s))) if name == "v" => ver = s,
                Ok(Some(GoValue::Str(s))) => start = s,
                Ok(Some(GoValue::Number(n))) => {
                    rv = crate::apiserver::status::go_parse_int(&n).unwrap_or(0);
                }
                Ok(Some(_)) => {}
                Err(word) => {
                    if first_err.is_none() {
                        let tyname = match ty {
                            GoType::String => "string",
                            GoType::Int64 => "int64",
                        };
                        first_err = Some(format!(
                            "json: cannot unmarshal {word} into Go struct field continueToken.{name} of type {tyname}"
                        ));
                    }
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok((ver, rv, start)),
        }
    }
}
