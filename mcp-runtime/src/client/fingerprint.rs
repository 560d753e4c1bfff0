//! Stable fingerprints of tool schemas, embedded in generated clients to
//! detect drift.

use serde_json::Value;

use crate::protocol::Tool;

/// A stable hex digest of a tool's name, input schema and output schema.
///
/// Object keys are sorted before hashing, so key order on the wire does not
/// matter; the tool's title, description and annotations are ignored. The digest is
/// FNV-1a (64-bit): this detects change, it is not a security measure.
pub fn tool_fingerprint(tool: &Tool) -> String {
    let mut hasher = Fnv1a::new();
    hasher.write(tool.name.as_bytes());
    hasher.write(&[0]);
    canonical(&tool.input_schema, &mut hasher);
    hasher.write(&[0]);
    if let Some(output) = &tool.output_schema {
        canonical(output, &mut hasher);
    }
    format!("{:016x}", hasher.0)
}

/// Feeds `value` as compact JSON with sorted object keys.
fn canonical(value: &Value, hasher: &mut Fnv1a) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            hasher.write(b"{");
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    hasher.write(b",");
                }
                hasher.write(Value::String(key.clone()).to_string().as_bytes());
                hasher.write(b":");
                canonical(&map[key], hasher);
            }
            hasher.write(b"}");
        }
        Value::Array(items) => {
            hasher.write(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    hasher.write(b",");
                }
                canonical(item, hasher);
            }
            hasher.write(b"]");
        }
        scalar => hasher.write(scalar.to_string().as_bytes()),
    }
}

struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(input: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": input})).unwrap()
    }

    #[test]
    fn key_order_and_descriptions_do_not_matter() {
        let a = tool(json!({"type": "object", "properties": {"x": {"type": "integer"}}}));
        let mut b = tool(json!({"properties": {"x": {"type": "integer"}}, "type": "object"}));
        b.description = Some("changed".into());
        assert_eq!(tool_fingerprint(&a), tool_fingerprint(&b));
    }

    #[test]
    fn schema_changes_change_the_fingerprint() {
        let a = tool(json!({"type": "object", "properties": {"x": {"type": "integer"}}}));
        let b = tool(json!({"type": "object", "properties": {"x": {"type": "string"}}}));
        assert_ne!(tool_fingerprint(&a), tool_fingerprint(&b));
        assert_eq!(tool_fingerprint(&a).len(), 16);
    }
}
