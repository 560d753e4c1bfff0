//! Canonical JSON of the tools' schemas, embedded in generated code so that
//! `check` can classify differences later. Fingerprints themselves come
//! from `mcp_toolkit_runtime::client::tool_fingerprint`, the function the generated
//! client's `verify` compares against at run time.

use mcp_toolkit_runtime::canonical::{canonical_json, write_canonical, write_json_string};
use mcp_toolkit_runtime::protocol::{Prompt, Tool};
use serde_json::json;

/// The canonical JSON of the tools' schemas that generated code embeds and
/// `check` reads back: `{"tools": [{"inputSchema", "name", "outputSchema"}]}`,
/// written straight from the tools (keys in canonical order) rather than
/// through a copy of every schema.
pub fn embedded_tools_json<'t>(tools: impl IntoIterator<Item = &'t Tool>) -> String {
    let mut out = Vec::new();
    let mut sink = |bytes: &[u8]| out.extend_from_slice(bytes);
    sink(b"{\"tools\":[");
    for (i, tool) in tools.into_iter().enumerate() {
        if i > 0 {
            sink(b",");
        }
        sink(b"{\"inputSchema\":");
        write_canonical(&tool.input_schema, &mut sink);
        sink(b",\"name\":");
        write_json_string(&tool.name, &mut sink);
        if let Some(output) = &tool.output_schema {
            sink(b",\"outputSchema\":");
            write_canonical(output, &mut sink);
        }
        sink(b"}");
    }
    sink(b"]}");
    // Every piece is a slice of a `str` or ASCII.
    String::from_utf8(out).expect("canonical JSON is UTF-8")
}

/// The canonical JSON of the prompts' arguments that generated code embeds
/// and `check` reads back: `{"prompts": [{"arguments": [{"name",
/// "required"}], "name"}]}`, without descriptions (a change of docs is no
/// drift).
pub fn embedded_prompts_json<'p>(prompts: impl IntoIterator<Item = &'p Prompt>) -> String {
    let prompts: Vec<_> = prompts
        .into_iter()
        .map(|p| {
            let arguments: Vec<_> = p
                .arguments
                .iter()
                .flatten()
                .map(|a| json!({"name": a.name, "required": a.required == Some(true)}))
                .collect();
            json!({"name": p.name, "arguments": arguments})
        })
        .collect();
    canonical_json(&json!({ "prompts": prompts }))
}

#[cfg(test)]
mod tests {
    use mcp_toolkit_runtime::canonical::canonical_json;
    use serde_json::{Value, json};

    use super::*;

    fn tool(name: &str, input: Value, output: Option<Value>) -> Tool {
        let mut tool = json!({"name": name, "inputSchema": input});
        if let Some(output) = output {
            tool["outputSchema"] = output;
        }
        serde_json::from_value(tool).unwrap()
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
