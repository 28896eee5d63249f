//! An output object as JavaScript sees it: [`AsJs`] serialises a `serde_json::Value` the way
//! `JSON.parse` reads its JSON text, so a page gets from the embedding API exactly what it would
//! get by parsing a line `rvlab run` printed. Integers outside JavaScript's safe range
//! (±(2^53 − 1)) become the nearest double, as `JSON.parse` makes them (serde-wasm-bindgen
//! would refuse them); objects keep their key order. Pure serde: the wasm glue hands it to
//! serde-wasm-bindgen's JSON-compatible serializer (objects, not `Map`s).

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

/// The largest integer JavaScript numbers hold exactly (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `Value` serialised as `JSON.parse` would read its JSON text.
pub struct AsJs<'a>(pub &'a Value);

fn number<S: Serializer>(n: &Number, s: S) -> Result<S::Ok, S::Error> {
    if let Some(i) = n.as_i64()
        && i.unsigned_abs() <= MAX_SAFE_INTEGER
    {
        return s.serialize_i64(i);
    }
    if let Some(u) = n.as_u64()
        && u <= MAX_SAFE_INTEGER
    {
        return s.serialize_u64(u);
    }
    // A float, or an integer JavaScript rounds: the double nearest to it, as JSON.parse gives.
    s.serialize_f64(n.as_f64().unwrap_or(f64::NAN))
}

impl Serialize for AsJs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => number(n, s),
            Value::String(t) => s.serialize_str(t),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(&AsJs(v))?;
                }
                seq.end()
            }
            Value::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, &AsJs(v))?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn through(v: &Value) -> Value {
        serde_json::to_value(AsJs(v)).unwrap_or(Value::Null)
    }

    #[test]
    fn an_output_object_stays_the_same_value() {
        let v = json!({"line": 3, "code": 410, "body": {"kind": "Status", "details": {"retryAfterSeconds": 1}},
            "why": {"rule": "any", "negative": -5, "ratio": 0.25, "list": [1, "two", null, true]}});
        assert_eq!(through(&v), v);
        let keys: Vec<&String> = v.as_object().map(|m| m.keys().collect()).unwrap_or_default();
        let back = through(&v);
        let again: Vec<&String> = back.as_object().map(|m| m.keys().collect()).unwrap_or_default();
        assert_eq!(keys, again, "key order is kept");
    }

    #[test]
    fn integers_at_the_safe_limit_stay_integers() {
        for v in [json!(MAX_SAFE_INTEGER), json!(-(MAX_SAFE_INTEGER as i64))] {
            let out = through(&v);
            assert_eq!(out, v);
            assert!(out.is_i64() || out.is_u64());
        }
    }

    /// JSON.parse("9007199254740993") is 9007199254740992; JSON.parse("18446744073709551615") is
    /// 18446744073709552000.
    #[test]
    fn integers_beyond_it_become_the_double_json_parse_gives() {
        assert_eq!(through(&json!(9_007_199_254_740_993u64)), json!(9_007_199_254_740_992.0));
        assert_eq!(through(&json!(u64::MAX)), json!(18_446_744_073_709_552_000.0));
        assert_eq!(through(&json!(i64::MIN)), json!(-9_223_372_036_854_775_808.0));
    }
}
