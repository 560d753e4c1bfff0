//! Reading a saved listing: a `tools/list` result (`{"tools": [...]}`), a
//! whole JSON-RPC response (`{"result": {"tools": [...]}}`), or a bare
//! array of tools; beside `tools`, the object may hold the server's
//! `prompts`, `resources` and `resourceTemplates` (the results of
//! `prompts/list`, `resources/list` and `resources/templates/list` merged).

use mcp_toolkit_runtime::protocol::{Prompt, Resource, ResourceTemplate, Tool};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Error;

/// What a server offers that a client is generated for. A list is empty
/// when the server lacks the capability (it then gets no methods for it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// The tools (`tools/list`).
    pub tools: Vec<Tool>,
    /// The prompts (`prompts/list`).
    pub prompts: Vec<Prompt>,
    /// The static resources (`resources/list`).
    pub resources: Vec<Resource>,
    /// The resource templates (`resources/templates/list`).
    pub resource_templates: Vec<ResourceTemplate>,
}

impl From<Vec<Tool>> for Listing {
    fn from(tools: Vec<Tool>) -> Self {
        Listing {
            tools,
            ..Listing::default()
        }
    }
}

/// Parses the tools out of a saved `tools/list` result or response.
pub fn parse_tools(text: &str) -> Result<Vec<Tool>, Error> {
    let value = parse_json(text)?;
    items(&value, "tools", "tool")?.ok_or_else(|| {
        Error::Input(
            "expected `{\"tools\": [...]}` or a JSON-RPC response with `result.tools`".into(),
        )
    })
}

/// Parses a saved listing: the tools as [`parse_tools`] reads them, and the
/// `prompts`, `resources` and `resourceTemplates` beside them when present.
/// Only `tools` may be missing, when another list is there.
pub fn parse_listing(text: &str) -> Result<Listing, Error> {
    let value = parse_json(text)?;
    let tools = items(&value, "tools", "tool")?;
    let root = value.get("result").unwrap_or(&value);
    let prompts = items(root, "prompts", "prompt")?;
    let resources = items(root, "resources", "resource")?;
    let resource_templates = items(root, "resourceTemplates", "resource template")?;
    if tools.is_none() && prompts.is_none() && resources.is_none() && resource_templates.is_none() {
        return Err(Error::Input(
            "expected `{\"tools\": [...]}` (and `prompts`, `resources`, `resourceTemplates`) \
             or a JSON-RPC response with them in `result`"
                .into(),
        ));
    }
    Ok(Listing {
        tools: tools.unwrap_or_default(),
        prompts: prompts.unwrap_or_default(),
        resources: resources.unwrap_or_default(),
        resource_templates: resource_templates.unwrap_or_default(),
    })
}

fn parse_json(text: &str) -> Result<Value, Error> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::Input(e.to_string()))?;
    if let Some(error) = value.get("error") {
        return Err(Error::Input(format!(
            "the response is a JSON-RPC error: {error}"
        )));
    }
    Ok(value)
}

/// The list under `key` of the result (or of the response's `result`; for
/// `tools`, a bare array too), each item read as a `what`.
fn items<T: DeserializeOwned>(
    value: &Value,
    key: &str,
    what: &str,
) -> Result<Option<Vec<T>>, Error> {
    let bare = (key == "tools" && value.is_array()).then_some(value);
    let Some(list) = value.get("result").unwrap_or(value).get(key).or(bare) else {
        return Ok(None);
    };
    let items = list
        .as_array()
        .ok_or_else(|| Error::Input(format!("`{key}` is not an array")))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            serde_json::from_value(item.clone()).map_err(|e| {
                let name = item.get("name").and_then(Value::as_str).unwrap_or("?");
                Error::Input(format!("{what} {i} (`{name}`): {e}"))
            })
        })
        .collect::<Result<Vec<T>, Error>>()
        .map(Some)
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
            assert_eq!(parse_listing(&text).unwrap().tools[0].name, "t");
        }
        assert!(
            parse_tools(r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "x"}}"#)
                .is_err()
        );
        assert!(parse_tools(r#"{"tools": [{"name": "t"}]}"#).is_err());
        assert!(parse_tools("nope").is_err());
    }

    #[test]
    fn a_listing_holds_whatever_lists_are_there() {
        let listing = parse_listing(
            r#"{"result": {"prompts": [{"name": "p", "arguments": [{"name": "a", "required": true}]}],
                "resourceTemplates": [{"name": "T", "uriTemplate": "x://{id}"}]}}"#,
        )
        .unwrap();
        assert!(listing.tools.is_empty() && listing.resources.is_empty());
        assert_eq!(listing.prompts[0].name, "p");
        assert_eq!(listing.resource_templates[0].uri_template, "x://{id}");
        assert!(parse_listing(r#"{"prompts": [{"title": "no name"}]}"#).is_err());
        assert!(parse_listing(r#"{"other": []}"#).is_err());
        // A tools/list alone still needs its tools.
        assert!(parse_tools(r#"{"prompts": []}"#).is_err());
    }
}
