//! Share links: the whole sandbox in the URL fragment, `#v1=<base64url(pack(json))>`.
//!
//! The JSON is `{"log":[lines…],"at":n}` (`at` = the scrubber position, omitted when it is the
//! end). [`pack`] is a small LZ77 (a few hundred bytes of wasm instead of a DEFLATE crate's
//! ~33 KB; script logs repeat long substrings, so it packs them 4–10×). Opening a link replays
//! the log. Anything else after `#v1=` — bad base64, data that does not unpack, more than
//! [`MAX_BYTES`] once unpacked, JSON of another shape — is an error the app turns into a message
//! and an empty sandbox; it never panics.

use base64::Engine as _;
use serde_json::{Value, json};

/// What is wrong with a link's data; the app renders it in its language (`model::Problem`).
/// (This file is also built natively for the fuzz targets, so it depends on nothing of the UI.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataError {
    /// The packed data is empty.
    Empty,
    /// The packed data ends in the middle of an item.
    CutShort,
    /// The packed data holds a length too large to be one.
    LengthTooLong,
    /// The packed data refers back to bytes it does not have.
    BadReference,
    /// It unpacks to more than this many MB.
    TooBig(usize),
    /// Unpacked, it is not JSON: where the parser stopped.
    NotJson { line: usize, column: usize },
    /// The JSON holds no `"log"` list.
    NoLog,
    /// More lines than this.
    TooManyLines(usize),
    /// A line is not a string.
    LineNotText,
    /// `"at"` is not a step number.
    AtNotStep,
}

/// The prefix of the current format.
pub const PREFIX: &str = "v1=";

/// The largest inflated state accepted (a bomb stops here).
pub const MAX_BYTES: usize = 8 * 1024 * 1024;

/// The most lines a link may hold.
pub const MAX_LINES: usize = 200_000;

/// What a link holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub log: Vec<String>,
    /// The scrubber position (≤ log.len()).
    pub at: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ShareError {
    /// `#vN=` with N we do not know.
    Version(String),
    /// Not base64url.
    Encoding,
    /// Does not inflate, too big, not JSON, or not the expected shape.
    Data(DataError),
}

/// Whether a fragment looks like one of our share links (any version).
pub fn is_share_fragment(fragment: &str) -> bool {
    let f = fragment.trim_start_matches('#');
    let Some((v, _)) = f.split_once('=') else { return false };
    v.len() >= 2 && v.starts_with('v') && v[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The fragment (without `#`) for a sandbox.
pub fn encode(s: &Shared) -> String {
    let mut v = json!({"log": s.log});
    if s.at < s.log.len() {
        v["at"] = json!(s.at);
    }
    let packed = pack(v.to_string().as_bytes());
    format!("{PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed))
}

/// Reads a fragment (with or without `#`).
pub fn decode(fragment: &str) -> Result<Shared, ShareError> {
    let f = fragment.trim_start_matches('#');
    let Some(data) = f.strip_prefix(PREFIX) else {
        let v = f.split_once('=').map(|(v, _)| v).unwrap_or(f);
        return Err(ShareError::Version(v.chars().take(12).collect()));
    };
    // Tolerate padding and the line breaks some mail clients insert.
    let clean: String = data.chars().filter(|c| !c.is_whitespace() && *c != '=').collect();
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(clean.as_bytes())
        .map_err(|_| ShareError::Encoding)?;
    let bytes = unpack(&packed, MAX_BYTES).map_err(ShareError::Data)?;
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ShareError::Data(DataError::NotJson { line: e.line(), column: e.column() }))?;
    let log = v.get("log").and_then(Value::as_array).ok_or(ShareError::Data(DataError::NoLog))?;
    if log.len() > MAX_LINES {
        return Err(ShareError::Data(DataError::TooManyLines(MAX_LINES)));
    }
    let log: Vec<String> = log
        .iter()
        .map(|l| l.as_str().map(String::from).ok_or(ShareError::Data(DataError::LineNotText)))
        .collect::<Result<_, _>>()?;
    let at = match v.get("at") {
        None | Some(Value::Null) => log.len(),
        Some(a) => {
            a.as_u64().map(|a| (a as usize).min(log.len())).ok_or(ShareError::Data(DataError::AtNotStep))?
        }
    };
    Ok(Shared { log, at })
}

// ---- the packer: a sequence of (literal run, match) pairs, each number a LEB128 varint:
// `lit_len, lit bytes…, match_len - 4, offset` and, for the last pair, only `lit_len, lit bytes`.

const MIN_MATCH: usize = 4;
const WINDOW: usize = 1 << 16;
const HASH_BITS: u32 = 13;

fn put_varint(out: &mut Vec<u8>, mut v: usize) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn hash4(b: &[u8]) -> usize {
    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    (v.wrapping_mul(2_654_435_761) >> (32 - HASH_BITS)) as usize
}

/// Compresses `data` (greedy LZ77 over a 64 KiB window).
pub fn pack(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 3 + 8);
    let mut table = vec![usize::MAX; 1 << HASH_BITS];
    let (mut i, mut lit_start) = (0, 0);
    while i + MIN_MATCH <= data.len() {
        let h = hash4(&data[i..]);
        let cand = table[h];
        table[h] = i;
        if cand != usize::MAX && i - cand <= WINDOW && data[cand..cand + MIN_MATCH] == data[i..i + MIN_MATCH]
        {
            let mut len = MIN_MATCH;
            while i + len < data.len() && data[cand + len] == data[i + len] {
                len += 1;
            }
            put_varint(&mut out, i - lit_start);
            out.extend_from_slice(&data[lit_start..i]);
            put_varint(&mut out, len - MIN_MATCH);
            put_varint(&mut out, i - cand);
            // Index a few positions inside the match so later repeats find it.
            for j in (i + 1..i + len).step_by(3).take(8) {
                if j + MIN_MATCH <= data.len() {
                    table[hash4(&data[j..])] = j;
                }
            }
            i += len;
            lit_start = i;
        } else {
            i += 1;
        }
    }
    put_varint(&mut out, data.len() - lit_start);
    out.extend_from_slice(&data[lit_start..]);
    out
}

fn get_varint(data: &[u8], pos: &mut usize) -> Result<usize, DataError> {
    let mut v: usize = 0;
    for shift in (0..35).step_by(7) {
        let b = *data.get(*pos).ok_or(DataError::CutShort)?;
        *pos += 1;
        v |= ((b & 0x7f) as usize) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    Err(DataError::LengthTooLong)
}

/// Reverses [`pack`]; refuses damaged input and output longer than `limit`.
pub fn unpack(data: &[u8], limit: usize) -> Result<Vec<u8>, DataError> {
    let too_big = || DataError::TooBig(limit >> 20);
    let mut out: Vec<u8> = Vec::new();
    let mut pos = 0;
    if data.is_empty() {
        return Err(DataError::Empty);
    }
    loop {
        let lit = get_varint(data, &mut pos)?;
        let end = pos.checked_add(lit).filter(|e| *e <= data.len()).ok_or(DataError::CutShort)?;
        if out.len() + lit > limit {
            return Err(too_big());
        }
        out.extend_from_slice(&data[pos..end]);
        pos = end;
        if pos == data.len() {
            return Ok(out);
        }
        let len = get_varint(data, &mut pos)?.checked_add(MIN_MATCH).ok_or(DataError::LengthTooLong)?;
        let off = get_varint(data, &mut pos)?;
        if off == 0 || off > out.len() {
            return Err(DataError::BadReference);
        }
        if out.len() + len > limit {
            return Err(too_big());
        }
        let start = out.len() - off;
        for k in 0..len {
            let b = out[start + k];
            out.push(b);
        }
    }
}
