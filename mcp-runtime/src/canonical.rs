//! Canonical JSON: compact, with object keys sorted, so that two equal
//! values always produce the same bytes (for digests and fingerprints).

use serde_json::Value;

/// Feeds the canonical text of `value` to `sink`, piece by piece.
pub(crate) fn write_canonical(value: &Value, sink: &mut impl FnMut(&[u8])) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            sink(b"{");
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    sink(b",");
                }
                sink(Value::String(key.clone()).to_string().as_bytes());
                sink(b":");
                write_canonical(&map[key], sink);
            }
            sink(b"}");
        }
        Value::Array(items) => {
            sink(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    sink(b",");
                }
                write_canonical(item, sink);
            }
            sink(b"]");
        }
        scalar => sink(scalar.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn text(value: &Value) -> String {
        let mut out = Vec::new();
        write_canonical(value, &mut |bytes| out.extend_from_slice(bytes));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keys_are_sorted_at_every_level() {
        let value = json!({"b": [{"z": 1, "a": "x\"y"}], "a": null});
        assert_eq!(text(&value), r#"{"a":null,"b":[{"a":"x\"y","z":1}]}"#);
    }
}
