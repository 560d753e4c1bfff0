//! Canonical JSON of the tools' schemas, embedded in generated code so that
//! `check` can classify differences later. Fingerprints themselves come
//! from `mcp_runtime::client::tool_fingerprint`, the function the generated
//! client's `verify` compares against at run time.

use mcp_runtime::protocol::Tool;
use serde_json::Value;

/// Writes `value` as canonical JSON: object keys sorted, no whitespace.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by_key(|(key, _)| *key);
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_canonical(value, out);
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
        Value::String(text) => write_string(text, out),
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Writes `text` as a JSON string escaped like serde_json does (only `"`,
/// `\` and control characters), without the copies that going through a
/// `Value` costs.
fn write_string(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut start = 0;
    for (i, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'\n' => 'n',
            b'\r' => 'r',
            b'\t' => 't',
            0x08 => 'b',
            0x0c => 'f',
            0x00..=0x1f => 'u',
            _ => continue,
        };
        // `byte` is ASCII, so `i` is a char boundary.
        out.push_str(&text[start..i]);
        out.push('\\');
        out.push(escape);
        if escape == 'u' {
            out.push_str("00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// The canonical JSON of the tools' schemas that generated code embeds and
/// `check` reads back: `{"tools": [{"inputSchema", "name", "outputSchema"}]}`,
/// written straight from the tools (keys in canonical order) rather than
/// through a copy of every schema.
pub fn embedded_tools_json<'t>(tools: impl IntoIterator<Item = &'t Tool>) -> String {
    let mut out = String::from("{\"tools\":[");
    for (i, tool) in tools.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"inputSchema\":");
        write_canonical(&tool.input_schema, &mut out);
        out.push_str(",\"name\":");
        write_string(&tool.name, &mut out);
        if let Some(output) = &tool.output_schema {
            out.push_str(",\"outputSchema\":");
            write_canonical(output, &mut out);
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(name: &str, input: Value, output: Option<Value>) -> Tool {
        let mut tool = json!({"name": name, "inputSchema": input});
        if let Some(output) = output {
            tool["outputSchema"] = output;
        }
        serde_json::from_value(tool).unwrap()
    }

    #[test]
    fn strings_are_escaped_like_serde_json() {
        let chars = ('\0'..='\u{800}').chain(['\u{ffff}', '\u{10000}', '\u{10ffff}']);
        for c in chars {
            let text = format!("a{c}b{c}");
            let mut out = String::new();
            write_string(&text, &mut out);
            assert_eq!(out, serde_json::to_string(&text).unwrap(), "{c:?}");
        }
    }

    #[test]
    fn embedded_json_is_the_canonical_json_of_the_tools_schemas() {
        let tools = [
            tool(
                "a\"b",
                json!({"type": "object", "b": [1, 2.5], "a": {"z": null, "y": "\u{1}"}}),
                None,
            ),
            tool(
                "c",
                json!({"type": "object"}),
                Some(json!({"type": "object", "properties": {}})),
            ),
        ];
        let expected = json!({"tools": [
            {"name": "a\"b", "inputSchema": tools[0].input_schema},
            {"name": "c", "inputSchema": tools[1].input_schema, "outputSchema": tools[1].output_schema},
        ]});
        assert_eq!(embedded_tools_json(&tools), canonical_json(&expected));
    }
}
