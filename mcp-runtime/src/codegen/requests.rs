//! What a generated client's methods beyond tools call: getting a prompt
//! with its arguments, reading a resource template's expansion or a listed
//! resource, and checking that the server still has the prompts and
//! templates the client was generated from. Each call returns the one
//! boxed future type [`Request`], as tool methods return
//! [`ToolCall`](crate::client::ToolCall), so a client with many methods
//! has no future type per method to compile.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use mcp_toolkit_uri_template::{UriTemplate, Value as TemplateValue};
use serde_json::{Map, Value, json};

use crate::client::{Client, ClientError, DriftError, tool_fingerprint};
use crate::protocol::{GetPromptResult, Prompt, ReadResourceResult, Tool};

/// A request of a generated client in flight: a future of its typed
/// result, one boxed type for every method.
pub type Request<'a, T> = Pin<Box<dyn Future<Output = Result<T, ClientError>> + Send + 'a>>;

/// Gets the prompt `name` with `arguments` (name, value) pairs, leaving
/// out those whose value is `None`. The values are copied before this
/// returns, so the request borrows only the client.
pub fn get_prompt<'a>(
    client: &'a Client,
    name: &'static str,
    arguments: &[(&'static str, Option<&str>)],
) -> Request<'a, GetPromptResult> {
    let arguments: Vec<(&'static str, String)> = arguments
        .iter()
        .filter_map(|(name, value)| value.map(|value| (*name, value.to_owned())))
        .collect();
    Box::pin(async move { client.get_prompt(name, arguments).await })
}

/// Reads the resource the URI template `template` expands to with
/// `variables` (name, value) pairs, those whose value is `None` left
/// undefined. Expansion follows RFC 6570: each value is encoded as its
/// expression's operator says (a `/` in a simple `{id}` becomes `%2F`, in a
/// reserved `{+path}` it stays).
pub fn read_template<'a>(
    client: &'a Client,
    template: &'static str,
    variables: &[(&'static str, Option<&str>)],
) -> Request<'a, ReadResourceResult> {
    let uri = expand(template, variables);
    Box::pin(async move { client.read_resource(&uri?).await })
}

/// Reads the resource at `uri` (one the server listed).
pub fn read_resource<'a>(client: &'a Client, uri: &'static str) -> Request<'a, ReadResourceResult> {
    Box::pin(client.read_resource(uri))
}

/// `template` expanded with `variables`.
fn expand(
    template: &str,
    variables: &[(&'static str, Option<&str>)],
) -> Result<String, ClientError> {
    let invalid = |e: mcp_toolkit_uri_template::UriTemplateError| {
        ClientError::InvalidArguments(format!("the URI template {template}: {e}"))
    };
    let parsed = UriTemplate::parse(template).map_err(invalid)?;
    let values: BTreeMap<String, TemplateValue> = variables
        .iter()
        .filter_map(|(name, value)| value.map(|v| ((*name).to_owned(), TemplateValue::from(v))))
        .collect();
    parsed.expand(&values).map_err(invalid)
}

/// A prompt's arguments as the JSON Schema of an object of strings: each
/// argument a string property, the required ones `required`. Drift of a
/// prompt is drift of this schema, classified by the rules for tool
/// arguments (a new required argument breaks a client, an optional one
/// does not).
pub fn prompt_arguments_schema(prompt: &Prompt) -> Value {
    let arguments = prompt.arguments.as_deref().unwrap_or_default();
    let properties: Map<String, Value> = arguments
        .iter()
        .map(|a| (a.name.clone(), json!({"type": "string"})))
        .collect();
    let required: Vec<&str> = arguments
        .iter()
        .filter(|a| a.required == Some(true))
        .map(|a| a.name.as_str())
        .collect();
    json!({"type": "object", "properties": properties, "required": required})
}

/// A stable digest of a prompt's name and arguments (names and whether
/// each is required; not their descriptions): the fingerprint of a tool
/// whose input schema is [`prompt_arguments_schema`].
pub fn prompt_fingerprint(prompt: &Prompt) -> String {
    tool_fingerprint(&Tool {
        name: prompt.name.clone(),
        input_schema: prompt_arguments_schema(prompt),
        ..Tool::default()
    })
}

/// Checks that the server still has the tools (`(name, fingerprint)`), the
/// prompts (`(name, fingerprint)`) and the resource templates (`(name, URI
/// template)`) a generated client was built from. A prompt or template
/// that is gone is reported as missing (`prompt NAME`, `resource template
/// URI`), a prompt whose arguments changed as changed.
pub async fn verify(
    client: &Client,
    tools: &[(&str, &str)],
    prompts: &[(&str, &str)],
    templates: &[(&str, &str)],
) -> Result<(), DriftError> {
    let mut drift = match client.verify_fingerprints(tools).await {
        Ok(()) => DriftError {
            missing: Vec::new(),
            changed: Vec::new(),
        },
        Err(drift) => drift,
    };
    if !prompts.is_empty() {
        match client.list_prompts().await {
            Ok(listed) => {
                for (name, fingerprint) in prompts {
                    match listed.iter().find(|p| p.name == *name) {
                        None => drift.missing.push(format!("prompt {name}")),
                        Some(p) if prompt_fingerprint(p) != *fingerprint => {
                            drift.changed.push(format!("prompt {name}"))
                        }
                        Some(_) => {}
                    }
                }
            }
            Err(e) => drift.changed.push(format!("(could not list prompts: {e})")),
        }
    }
    if !templates.is_empty() {
        match client.list_resource_templates().await {
            Ok(listed) => {
                for (_, uri_template) in templates {
                    if !listed.iter().any(|t| t.uri_template == *uri_template) {
                        drift
                            .missing
                            .push(format!("resource template {uri_template}"));
                    }
                }
            }
            Err(e) => drift
                .changed
                .push(format!("(could not list resource templates: {e})")),
        }
    }
    if drift.missing.is_empty() && drift.changed.is_empty() {
        Ok(())
    } else {
        Err(drift)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(arguments: Value) -> Prompt {
        serde_json::from_value(json!({"name": "p", "arguments": arguments})).unwrap()
    }

    #[test]
    fn values_are_encoded_as_the_operator_says() {
        let id = [("id", Some("a/b.c"))];
        assert_eq!(
            expand("demo://text/{id}", &id).unwrap(),
            "demo://text/a%2Fb.c"
        );
        assert_eq!(expand("file:///{+id}", &id).unwrap(), "file:///a/b.c");
        let query = [("q", Some("x y")), ("page", None)];
        assert_eq!(
            expand("s://find{?q,page}", &query).unwrap(),
            "s://find?q=x%20y"
        );
        assert!(matches!(
            expand("s://{unclosed", &[]),
            Err(ClientError::InvalidArguments(_))
        ));
    }

    #[test]
    fn a_prompt_fingerprint_follows_its_arguments_not_their_docs() {
        let base = prompt(json!([{"name": "city", "required": true}]));
        let documented = prompt(json!([{"name": "city", "required": true, "description": "d"}]));
        let optional = prompt(json!([{"name": "city"}]));
        let more = prompt(json!([{"name": "city", "required": true}, {"name": "zip"}]));
        assert_eq!(prompt_fingerprint(&base), prompt_fingerprint(&documented));
        assert_ne!(prompt_fingerprint(&base), prompt_fingerprint(&optional));
        assert_ne!(prompt_fingerprint(&base), prompt_fingerprint(&more));
        assert_eq!(
            prompt_arguments_schema(&more),
            json!({"type": "object", "required": ["city"],
                   "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}})
        );
    }
}
