//! Canonical JSON of the tools' schemas, embedded in generated code so that
//! `check` can classify differences later. Fingerprints themselves come
//! from `mcp_runtime::client::tool_fingerprint`, the function the generated
//! client's `verify` compares against at run time.

use mcp_runtime::protocol::Tool;
use serde_json::{Map, Value};

/// Writes `value` as canonical JSON: object keys sorted, no whitespace.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The part of a tool that generated code depends on.
pub fn tool_schemas(tool: &Tool) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), Value::String(tool.name.clone()));
    map.insert("inputSchema".into(), tool.input_schema.clone());
    if let Some(output) = &tool.output_schema {
        map.insert("outputSchema".into(), output.clone());
    }
    Value::Object(map)
}
