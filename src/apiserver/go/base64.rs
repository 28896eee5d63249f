//! Go's `encoding/base64` `RawURLEncoding` with its exact decode errors (the byte offset of the
//! first bad input), as continue tokens are encoded.

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
