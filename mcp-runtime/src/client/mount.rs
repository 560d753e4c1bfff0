//! Composition: a server reached through a client, served as part of
//! another server under a prefix ([`Client::mount`]).

use super::{Client, ClientError};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{GetPromptResult, Method, ReadResourceResult, ResourceContents};
use crate::server::{
    Definitions, PromptDef, PromptRequest, ResourceDef, ResourceRead, ResourceTemplateDef,
    ToolCall, ToolDef, ToolError,
};

impl Client {
    /// This client's server, as definitions for another server: every
    /// tool, prompt, resource and resource template it lists now, each
    /// forwarding to it through this client, namespaced under `prefix`.
    ///
    /// - Tools and prompts are named `{prefix}_{name}`; the tools keep
    ///   their schemas and annotations, and the server they are mounted in
    ///   checks arguments and structured output against them as for its own.
    /// - Resource URIs and templates get the prefix after their scheme:
    ///   `notes://today` becomes `notes://{prefix}/today`; names become
    ///   `{prefix}_{name}`. Read results come back under the mounted URI.
    /// - A server in this process mounts the same way, through
    ///   [`Client::connect_in_memory`].
    ///
    /// The lists are read once, now: later changes on the mounted server
    /// are not followed. Tasks and completions are not forwarded. The
    /// caller's trace continues into the mounted server (see
    /// [`crate::trace`]); the caller's credentials never do.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_runtime::client::Client;
    /// use mcp_runtime::server::Server;
    ///
    /// let weather = Client::connect_http("http://127.0.0.1:8081/mcp").await?;
    /// let server = Server::builder(mcp_runtime::server_info!())
    ///     .register(weather.mount("weather").await?)
    ///     .build()?;
    /// server.serve_stdio().await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn mount(&self, prefix: &str) -> Result<Definitions, ClientError> {
        let mut definitions = Definitions::new();
        let capabilities = self.server().capabilities.clone();
        for tool in self.list_tools().await? {
            definitions.tool(self.mounted_tool(prefix, tool));
        }
        if capabilities.prompts.is_some() {
            for prompt in self.list_prompts().await? {
                definitions.prompt(self.mounted_prompt(prefix, prompt));
            }
        }
        if capabilities.resources.is_some() {
            for resource in self.list_resources().await? {
                let Some(uri) = prefixed_uri(prefix, &resource.uri) else {
                    let uri = crate::redact::RedactedUrl::new(&resource.uri);
                    tracing::warn!(%uri, "resource without a scheme not mounted");
                    continue;
                };
                let upstream = self.clone();
                let original = resource.uri.clone();
                let mut def = ResourceDef::new(uri.clone(), "", move |_: ResourceRead| {
                    let (upstream, original, uri) =
                        (upstream.clone(), original.clone(), uri.clone());
                    async move { upstream.read_mounted(&original, &uri).await }
                });
                def.resource = crate::protocol::Resource {
                    uri: def.resource.uri,
                    name: format!("{prefix}_{}", resource.name),
                    ..resource
                };
                definitions.resource(def);
            }
            for template in self.list_resource_templates().await? {
                let Some(uri_template) = prefixed_uri(prefix, &template.uri_template) else {
                    tracing::warn!(template = %template.uri_template, "template without a scheme not mounted");
                    continue;
                };
                let upstream = self.clone();
                let prefix_owned = prefix.to_owned();
                let handler = move |read: ResourceRead| {
                    let (upstream, prefix) = (upstream.clone(), prefix_owned.clone());
                    async move {
                        let original = unprefixed_uri(&prefix, &read.uri)
                            .ok_or_else(|| ErrorObject::resource_not_found(&read.uri))?;
                        upstream.read_mounted(&original, &read.uri).await
                    }
                };
                match ResourceTemplateDef::new(&uri_template, "", handler) {
                    Ok(mut def) => {
                        def.template = crate::protocol::ResourceTemplate {
                            uri_template,
                            name: format!("{prefix}_{}", template.name),
                            ..template
                        };
                        definitions.resource_template(def);
                    }
                    Err(error) => {
                        tracing::warn!(template = %template.uri_template, %error, "invalid template not mounted");
                    }
                }
            }
        }
        Ok(definitions)
    }

    fn mounted_tool(&self, prefix: &str, tool: crate::protocol::Tool) -> ToolDef {
        let upstream = self.clone();
        let name = tool.name.clone();
        let mut def = ToolDef::new(String::new(), move |call: ToolCall| {
            let (upstream, name) = (upstream.clone(), name.clone());
            async move {
                upstream
                    .call_tool(&name, call.arguments())
                    .await
                    .map_err(|error| ToolError::new(format!("{name}: {error}")))
            }
        });
        def.tool = crate::protocol::Tool {
            name: format!("{prefix}_{}", tool.name),
            // Tasks are not forwarded: the mounted tool runs as a call.
            execution: None,
            ..tool
        };
        def
    }

    fn mounted_prompt(&self, prefix: &str, prompt: crate::protocol::Prompt) -> PromptDef {
        let upstream = self.clone();
        let name = prompt.name.clone();
        let mut def = PromptDef::new(String::new(), move |request: PromptRequest| {
            let (upstream, name) = (upstream.clone(), name.clone());
            async move {
                let params = serde_json::json!({"name": name, "arguments": request.arguments});
                upstream
                    .send::<_, GetPromptResult>(Method::GetPrompt, &params)
                    .await
                    .map_err(upstream_error)
            }
        });
        def.prompt = crate::protocol::Prompt {
            name: format!("{prefix}_{}", prompt.name),
            ..prompt
        };
        def
    }

    /// Reads `original` upstream and reports it as `mounted`.
    async fn read_mounted(
        &self,
        original: &str,
        mounted: &str,
    ) -> Result<ReadResourceResult, ErrorObject> {
        let params = serde_json::json!({ "uri": original });
        let mut result: ReadResourceResult = self
            .send(Method::ReadResource, &params)
            .await
            .map_err(upstream_error)?;
        for contents in &mut result.contents {
            let uri = match contents {
                ResourceContents::Text(text) => &mut text.uri,
                ResourceContents::Blob(blob) => &mut blob.uri,
            };
            if uri == original {
                *uri = mounted.to_owned();
            }
        }
        // The mounting server sets its own era's fields.
        result.result_type = None;
        Ok(result)
    }
}

/// The mounted server's JSON-RPC error as is; any other failure as -32603.
fn upstream_error(error: ClientError) -> ErrorObject {
    match error {
        ClientError::Protocol(error) => error,
        other => ErrorObject::internal(other),
    }
}

/// `scheme://rest` as `scheme://{prefix}/rest`.
fn prefixed_uri(prefix: &str, uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once("://")?;
    Some(format!("{scheme}://{prefix}/{rest}"))
}

/// The inverse of [`prefixed_uri`].
fn unprefixed_uri(prefix: &str, uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once("://")?;
    let rest = rest.strip_prefix(prefix)?.strip_prefix('/')?;
    Some(format!("{scheme}://{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_get_the_prefix_after_their_scheme_and_lose_it_again() {
        for uri in ["notes://today", "file:///etc/hosts", "x://"] {
            let mounted = prefixed_uri("b", uri).unwrap();
            assert_eq!(unprefixed_uri("b", &mounted).as_deref(), Some(uri));
        }
        assert_eq!(
            prefixed_uri("b", "notes://today").unwrap(),
            "notes://b/today"
        );
        assert_eq!(prefixed_uri("b", "no-scheme"), None);
        assert_eq!(unprefixed_uri("b", "notes://c/today"), None);
        assert_eq!(unprefixed_uri("b", "notes://bb/today"), None);
    }
}
