//! Continue tokens, exactly as `storage.EncodeContinue`/`DecodeContinue` (spec §D).

use rvlab::apiserver::continue_token::{
    ContinueError, ContinueToken, go_base64_decode, go_base64_encode, go_path_clean,
};
use rvlab::apiserver::status::Status;

fn tok(json: &str) -> String {
    go_base64_encode(json.as_bytes())
}

fn err(token: &str) -> String {
    Status::from(ContinueToken::decode(token).unwrap_err()).message().to_string()
}

// §D spec example
#[test]
fn spec_example() {
    let t = ContinueToken { rv: 4, start: "a\u{0}".to_string() };
    assert_eq!(t.encode(), "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0");
    assert_eq!(ContinueToken::decode(&t.encode()), Ok(t.clone()));
    assert_eq!(t.start_key("/registry/pods/ns1/"), "/registry/pods/ns1/a\u{0}");
}

// §D start = last key + NUL, prefix stripped
#[test]
fn after_key() {
    let t = ContinueToken::after_key("/registry/pods/ns1/a", "/registry/pods/ns1/", 4).unwrap();
    assert_eq!(t.start, "a\u{0}");
    let t = ContinueToken::after_key("/registry/pods/ns1/a", "/registry/pods/", 4).unwrap();
    assert_eq!(t.start, "ns1/a\u{0}");
    assert_eq!(t.start_key("/registry/pods/"), "/registry/pods/ns1/a\u{0}");
    assert!(ContinueToken::after_key("/other/a", "/registry/pods/", 4).is_none());
}

// §D: Go escaping (HTML-safe), no padding, URL alphabet
#[test]
fn encoding_details() {
    let t = ContinueToken { rv: -1, start: "<&>\"\\\n\u{1}\u{2028}".to_string() };
    let raw = go_base64_decode(t.encode().as_bytes()).unwrap();
    assert_eq!(
        String::from_utf8(raw).unwrap(),
        r#"{"v":"meta.k8s.io/v1","rv":-1,"start":"\u003c\u0026\u003e\"\\\n\u0001\u2028"}"#
    );
    assert!(!t.encode().contains('='));
    assert_eq!(go_base64_encode(&[0xfb, 0xff]), "-_8");
}

// §D negative rv is valid
#[test]
fn negative_rv_is_valid() {
    let t = ContinueToken::decode(&tok(r#"{"v":"meta.k8s.io/v1","rv":-1,"start":"ns1/a\u0000"}"#)).unwrap();
    assert_eq!(t, ContinueToken { rv: -1, start: "ns1/a\u{0}".to_string() });
}

// §D decode errors
#[test]
fn not_base64() {
    assert_eq!(
        err("a"),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"
    );
    assert_eq!(
        err("ab!c"),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 2"
    );
    assert_eq!(
        err("abc="),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 3"
    );
    assert_eq!(
        err("abcde"),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 4"
    );
    // Standard-alphabet characters are not URL-safe base64.
    assert_eq!(
        err("ab+c"),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 2"
    );
    let s = Status::from(ContinueToken::decode("a").unwrap_err());
    assert_eq!((s.code(), s.reason()), (400, "BadRequest"));
    // Newlines are skipped like Go's decoder does.
    assert_eq!(go_base64_decode(b"eA\n"), Ok(b"x".to_vec()));
}

// §D
#[test]
fn not_json() {
    let p = "invalid continue token: continue key is not valid: ";
    assert_eq!(err(&tok("x")), format!("{p}invalid character 'x' looking for beginning of value"));
    assert_eq!(err(""), format!("{p}unexpected end of JSON input"));
    assert_eq!(err(&tok("{")), format!("{p}unexpected end of JSON input"));
    assert_eq!(err(&tok("{\"v\" 1}")), format!("{p}invalid character '1' after object key"));
    assert_eq!(err(&tok("{\"v\":1 2}")), format!("{p}invalid character '2' after object key:value pair"));
    assert_eq!(
        err(&tok("{'v':1}")),
        format!("{p}invalid character '\\'' looking for beginning of object key string")
    );
    assert_eq!(err(&tok("{} x")), format!("{p}invalid character 'x' after top-level value"));
    assert_eq!(err(&tok("tru")), format!("{p}unexpected end of JSON input"));
    assert_eq!(err(&tok("trUe")), format!("{p}invalid character 'U' in literal true (expecting 'u')"));
    assert_eq!(err(&tok("-x")), format!("{p}invalid character 'x' in numeric literal"));
    assert_eq!(err(&tok("[1,]")), format!("{p}invalid character ']' looking for beginning of value"));
    assert_eq!(err(&tok("\"\\x\"")), format!("{p}invalid character 'x' in string escape code"));
    assert_eq!(err(&tok("\"\u{1}\"")), format!("{p}invalid character '\\x01' in string literal"));
    // Type errors come from the typed decode.
    assert_eq!(
        err(&tok("[]")),
        format!("{p}json: cannot unmarshal array into Go value of type storage.continueToken")
    );
    assert_eq!(
        err(&tok(r#"{"v":1,"rv":4,"start":"a"}"#)),
        format!("{p}json: cannot unmarshal number into Go struct field continueToken.v of type string")
    );
    assert_eq!(
        err(&tok(r#"{"v":"meta.k8s.io/v1","rv":"4","start":"a"}"#)),
        format!("{p}json: cannot unmarshal string into Go struct field continueToken.rv of type int64")
    );
    assert_eq!(
        err(&tok(r#"{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}"#)),
        format!("{p}json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64")
    );
}

// §D
#[test]
fn wrong_version() {
    assert_eq!(
        err(&tok(r#"{"v":"meta.k8s.io/v2","rv":4,"start":"a"}"#)),
        "invalid continue token: continue key is not valid: server does not recognize this encoded version meta.k8s.io/v2"
    );
    assert_eq!(
        err(&tok(r#"{"rv":4,"start":"a"}"#)),
        "invalid continue token: continue key is not valid: server does not recognize this encoded version "
    );
    assert_eq!(
        err(&tok("null")),
        "invalid continue token: continue key is not valid: server does not recognize this encoded version "
    );
    // Field names match case-insensitively, like Go's encoding/json.
    assert_eq!(ContinueToken::decode(&tok(r#"{"V":"meta.k8s.io/v1","RV":4,"Start":"a"}"#)).unwrap().rv, 4);
}

// §D
#[test]
fn bad_rv_and_start() {
    assert_eq!(
        err(&tok(r#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#)),
        "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
    );
    assert_eq!(
        err(&tok(r#"{"v":"meta.k8s.io/v1","start":"a"}"#)),
        "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
    );
    assert_eq!(
        err(&tok(r#"{"v":"meta.k8s.io/v1","rv":4,"start":""}"#)),
        "invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"
    );
    assert_eq!(
        ContinueToken::decode(&tok(r#"{"v":"meta.k8s.io/v1","rv":4,"start":""}"#)),
        Err(ContinueError::EmptyStartKey)
    );
}

// §D path cleaning
#[test]
fn path_traversal() {
    for start in ["../a", "a/../b", "./a", "a/.", "a//b", "a/", "/a/"] {
        let t = tok(&format!(r#"{{"v":"meta.k8s.io/v1","rv":4,"start":"{start}"}}"#));
        assert_eq!(err(&t), format!("invalid continue token: continue key is not valid: {start}"), "{start}");
    }
    // A leading "/" is allowed and stripped when joining.
    let t = ContinueToken::decode(&tok(r#"{"v":"meta.k8s.io/v1","rv":4,"start":"/ns1/a"}"#)).unwrap();
    assert_eq!(t.start_key("/registry/pods/"), "/registry/pods/ns1/a");
    assert_eq!(go_path_clean("/a/b/../c/./d/"), "/a/c/d");
    assert_eq!(go_path_clean("/.."), "/");
}

#[test]
fn never_panics_on_garbage() {
    let samples = ["", "=", "____", "\u{ff}", "%%%", "eyJ2Ijo", "W10", "bnVsbA", "MTIz", "IiI"];
    for s in samples {
        let _ = ContinueToken::decode(s);
    }
    for n in 0u32..2000 {
        let bytes: Vec<u8> = (0..(n % 13)).map(|i| ((n * 31 + i * 17) % 256) as u8).collect();
        let _ = ContinueToken::decode(&go_base64_encode(&bytes));
    }
}
