//! Reading a saved `tools/list`: a result (`{"tools": [...]}`), a whole
//! JSON-RPC response (`{"result": {"tools": [...]}}`), or a bare array.

use mcp_runtime::protocol::Tool;
use serde_json::Value;

use crate::error::Error;

/// Parses the tools out of a saved `tools/list` result or response.
pub fn parse_tools(text: &str) -> Result<Vec<Tool>, Error> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::Input(e.to_string()))?;
    if let Some(error) = value.get("error") {
        return Err(Error::Input(format!(
            "the response is a JSON-RPC error: {error}"
        )));
    }
    let list = value
        .get("result")
        .unwrap_or(&value)
        .get("tools")
        .or_else(|| value.is_array().then_some(&value))
        .ok_or_else(|| {
            Error::Input(
                "expected `{\"tools\": [...]}` or a JSON-RPC response with `result.tools`".into(),
            )
        })?;
    let items = list
        .as_array()
        .ok_or_else(|| Error::Input("`tools` is not an array".into()))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            serde_json::from_value(item.clone()).map_err(|e| {
                let name = item.get("name").and_then(Value::as_str).unwrap_or("?");
                Error::Input(format!("tool {i} (`{name}`): {e}"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_result_response_and_array() {
        let tool = r#"{"name": "t", "inputSchema": {"type": "object"}}"#;
        for text in [
            format!(r#"{{"tools": [{tool}]}}"#),
            format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{tool}]}}}}"#),
            format!("[{tool}]"),
        ] {
            assert_eq!(parse_tools(&text).unwrap()[0].name, "t");
        }
        assert!(
            parse_tools(r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "x"}}"#)
                .is_err()
        );
        assert!(parse_tools(r#"{"tools": [{"name": "t"}]}"#).is_err());
        assert!(parse_tools("nope").is_err());
    }
}
