//! The block-YAML subset kubeconfigs are written in (kubectl's `clientcmd`, kind, kubeadm,
//! `rvlab serve`): mappings by indentation, `- ` sequences (also at their key's indentation),
//! plain, `"double"` and `'single'` quoted scalars, `#` comments, and flow collections that are
//! JSON (`{}`, `[]`, `["a","b"]`). A JSON kubeconfig (JSON is YAML) is read as JSON. Anything
//! else (anchors, block scalars, tabs for indentation, multi-document files) is an error that
//! names its line, never a panic.

use serde_json::{Map, Value};

/// One content line: its indentation, its text (indentation removed) and its 1-based number.
#[derive(Debug, Clone)]
struct Line {
    indent: usize,
    text: String,
    no: usize,
}

/// Parses `text` into a JSON value.
pub fn parse(text: &str) -> Result<Value, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        return serde_json::from_str(trimmed).map_err(|e| format!("not valid JSON: {e}"));
    }
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let body = raw.trim_end();
        let content = body.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if content.starts_with('\t') {
            return Err(format!("line {no}: a tab in the indentation"));
        }
        if content == "---" && lines.is_empty() {
            continue;
        }
        if content == "---" || content == "..." {
            return Err(format!("line {no}: only one YAML document is read"));
        }
        lines.push(Line { indent: body.len() - content.len(), text: content.to_string(), no });
    }
    if lines.is_empty() {
        return Err("the file is empty".into());
    }
    let mut at = 0;
    let indent = lines[0].indent;
    let v = block(&mut lines, &mut at, indent)?;
    if let Some(l) = lines.get(at) {
        return Err(format!("line {}: unexpected indentation", l.no));
    }
    Ok(v)
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

fn block(lines: &mut [Line], at: &mut usize, indent: usize) -> Result<Value, String> {
    match lines.get(*at) {
        Some(l) if is_item(&l.text) => sequence(lines, at, indent),
        Some(_) => mapping(lines, at, indent),
        None => Ok(Value::Null),
    }
}

fn sequence(lines: &mut [Line], at: &mut usize, indent: usize) -> Result<Value, String> {
    let mut items = Vec::new();
    while let Some(l) = lines.get(*at) {
        if l.indent != indent || !is_item(&l.text) {
            break;
        }
        let rest = l.text[1..].trim_start_matches(' ').to_string();
        let no = l.no;
        if rest.is_empty() {
            *at += 1;
            match lines.get(*at) {
                Some(n) if n.indent > indent => {
                    let i = n.indent;
                    items.push(block(lines, at, i)?);
                }
                _ => items.push(Value::Null),
            }
        } else if is_item(&rest) || split_key(&rest).is_some() {
            // `- key: value`: a mapping (or nested sequence) whose first line starts after `- `.
            let i = indent + (l.text.len() - rest.len());
            lines[*at] = Line { indent: i, text: rest, no };
            items.push(block(lines, at, i)?);
        } else {
            items.push(scalar(&rest, no)?);
            *at += 1;
        }
    }
    Ok(Value::Array(items))
}

fn mapping(lines: &mut [Line], at: &mut usize, indent: usize) -> Result<Value, String> {
    let mut map = Map::new();
    while let Some(l) = lines.get(*at) {
        if l.indent < indent {
            break;
        }
        if l.indent > indent {
            return Err(format!("line {}: unexpected indentation", l.no));
        }
        if is_item(&l.text) {
            break;
        }
        let no = l.no;
        let Some((key, value)) = split_key(&l.text) else {
            return Err(format!("line {no}: expected `key: value`, got {:?}", l.text));
        };
        let key = match scalar(&key, no)? {
            Value::String(s) => s,
            other => other.to_string(),
        };
        *at += 1;
        let v = if value.is_empty() {
            match lines.get(*at) {
                Some(n) if n.indent > indent => {
                    let i = n.indent;
                    block(lines, at, i)?
                }
                Some(n) if n.indent == indent && is_item(&n.text) => sequence(lines, at, indent)?,
                _ => Value::Null,
            }
        } else {
            scalar(&value, no)?
        };
        if map.insert(key.clone(), v).is_some() {
            return Err(format!("line {no}: key {key:?} appears twice"));
        }
    }
    Ok(Value::Object(map))
}

/// `key: value` or `key:` (a quoted key may hold `: `); None when the line is not a mapping entry.
fn split_key(text: &str) -> Option<(String, String)> {
    let end = match text.chars().next() {
        Some(q @ ('"' | '\'')) => text[1..].find(q).map(|i| i + 2)?,
        _ => 0,
    };
    let rest = &text[end..];
    let colon = if let Some(stripped) = rest.strip_suffix(':')
        && !stripped.contains(": ")
    {
        Some(rest.len() - 1)
    } else {
        rest.find(": ")
    }?;
    let key = text[..end + colon].trim_end().to_string();
    let value = text[end + colon + 1..].trim().to_string();
    (!key.is_empty()).then_some((key, value))
}

fn scalar(text: &str, no: usize) -> Result<Value, String> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('\'') {
        let Some(end) = inner.rfind('\'') else {
            return Err(format!("line {no}: an unterminated 'quoted' string"));
        };
        check_after(&inner[end + 1..], no)?;
        return Ok(Value::String(inner[..end].replace("''", "'")));
    }
    if t.starts_with('"') {
        let mut de = serde_json::Deserializer::from_str(t).into_iter::<String>();
        return match de.next() {
            Some(Ok(s)) => {
                check_after(&t[de.byte_offset()..], no)?;
                Ok(Value::String(s))
            }
            _ => Err(format!("line {no}: a \"quoted\" string this reader cannot read: {t}")),
        };
    }
    if t.starts_with('{') || t.starts_with('[') {
        return serde_json::from_str(t)
            .map_err(|_| format!("line {no}: a flow collection that is not JSON: {t}"));
    }
    if t.starts_with(['&', '*', '!', '|', '>']) {
        return Err(format!("line {no}: anchors, tags and block scalars are not read: {t}"));
    }
    let plain = match t.find(" #") {
        Some(i) => t[..i].trim_end(),
        None => t,
    };
    Ok(match plain {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        s => Value::String(s.to_string()),
    })
}

fn check_after(rest: &str, no: usize) -> Result<(), String> {
    let r = rest.trim();
    if r.is_empty() || r.starts_with('#') {
        Ok(())
    } else {
        Err(format!("line {no}: text after a quoted string: {r}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The layout `kind get kubeconfig` prints (keys sorted, sequences at their key's indent).
    #[test]
    fn reads_kinds_layout() {
        let text = "apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: TFMwdA==\n    server: https://127.0.0.1:38545\n  name: kind-kind\ncontexts:\n- context:\n    cluster: kind-kind\n    user: kind-kind\n  name: kind-kind\ncurrent-context: kind-kind\nkind: Config\npreferences: {}\nusers:\n- name: kind-kind\n  user:\n    client-certificate-data: Q0VSVA==\n    client-key-data: S0VZ\n";
        let v = parse(text).unwrap();
        assert_eq!(v["clusters"][0]["cluster"]["server"], "https://127.0.0.1:38545");
        assert_eq!(v["clusters"][0]["name"], "kind-kind");
        assert_eq!(v["users"][0]["user"]["client-key-data"], "S0VZ");
        assert_eq!(v["preferences"], json!({}));
        assert_eq!(v["current-context"], "kind-kind");
    }

    #[test]
    fn reads_quotes_comments_and_nested_sequences() {
        let text = "# a comment\n---\na: \"x: y\" # c\nb: 'it''s'\nc:\n  - 1\n  -\n    d: true\n  - - e\ne: [\"p\", \"q\"]\nf: ~\ng: plain # comment\n";
        let v = parse(text).unwrap();
        assert_eq!(
            v,
            json!({"a": "x: y", "b": "it's", "c": ["1", {"d": true}, ["e"]], "e": ["p", "q"], "f": null, "g": "plain"})
        );
        assert_eq!(parse("{\"a\": 1}").unwrap(), json!({"a": 1}));
    }

    #[test]
    fn malformed_input_names_its_line() {
        let cases = [
            ("", "the file is empty"),
            ("a: 1\n  b: 2\n", "line 2: unexpected indentation"),
            ("a: 1\nnot a mapping\n", "line 2: expected `key: value`, got \"not a mapping\""),
            ("a: 1\na: 2\n", "line 2: key \"a\" appears twice"),
            ("a: \"open\n", "line 1: a \"quoted\" string this reader cannot read: \"open"),
            ("a: 'open\n", "line 1: an unterminated 'quoted' string"),
            ("a: &x 1\n", "line 1: anchors, tags and block scalars are not read: &x 1"),
            ("a: {b: c}\n", "line 1: a flow collection that is not JSON: {b: c}"),
            ("\ta: 1\n", "line 1: a tab in the indentation"),
            ("a: 1\n---\nb: 2\n", "line 2: only one YAML document is read"),
            ("{\"a\": ", "not valid JSON: EOF while parsing a value at line 1 column 6"),
        ];
        for (text, err) in cases {
            assert_eq!(parse(text), Err(err.to_string()), "{text:?}");
        }
    }
}
