//! Canonical JSON: compact, with object keys sorted, so that two equal
//! values always produce the same bytes (for digests and fingerprints, here
//! and in `mcp-codegen`).

use serde_json::Value;

/// The canonical text of `value`.
pub fn canonical_json(value: &Value) -> String {
    let mut out = Vec::new();
    write_canonical(value, &mut |bytes| out.extend_from_slice(bytes));
    // Every piece is a slice of a `str` or ASCII.
    String::from_utf8(out).expect("canonical JSON is UTF-8")
}

/// Feeds the canonical text of `value` to `sink`, piece by piece, without
/// building it in memory.
pub fn write_canonical(value: &Value, sink: &mut impl FnMut(&[u8])) {
    match value {
        Value::Object(map) => {
            // Sorted here too: a map keeps insertion order when a crate
            // turns on serde_json's `preserve_order`.
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            sink(b"{");
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    sink(b",");
                }
                write_json_string(key, sink);
                sink(b":");
                write_canonical(&map[key.as_str()], sink);
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
        Value::String(text) => write_json_string(text, sink),
        scalar => sink(scalar.to_string().as_bytes()),
    }
}

/// Feeds `text` as a JSON string escaped like serde_json does (only `"`,
/// `\` and control characters), without the copies that going through a
/// `Value` costs.
pub fn write_json_string(text: &str, sink: &mut impl FnMut(&[u8])) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    sink(b"\"");
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            0x00..=0x1f => b'u',
            _ => continue,
        };
        sink(&bytes[start..i]);
        if escape == b'u' {
            let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]];
            sink(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]]);
        } else {
            sink(&[b'\\', escape]);
        }
        start = i + 1;
    }
    sink(&bytes[start..]);
    sink(b"\"");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn text(value: &Value) -> String {
        canonical_json(value)
    }

    #[test]
    fn strings_are_escaped_like_serde_json() {
        let chars = ('\0'..='\u{800}').chain(['\u{ffff}', '\u{10000}', '\u{10ffff}']);
        for c in chars {
            let value = Value::String(format!("a{c}b{c}"));
            assert_eq!(text(&value), value.to_string(), "{c:?}");
        }
    }

    #[test]
    fn keys_are_sorted_at_every_level() {
        let value = json!({"b": [{"z": 1, "a": "x\"y"}], "a": null});
        assert_eq!(text(&value), r#"{"a":null,"b":[{"a":"x\"y","z":1}]}"#);
    }
}
