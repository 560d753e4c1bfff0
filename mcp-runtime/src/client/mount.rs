//! Composition: a server reached through a client, served as part of
//! another server under a prefix ([`Client::mount`]).

use super::{Client, ClientError};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{
    GetPromptResult, Method, Prompt, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate, Tool,
};
use crate::server::{
    Definitions, PromptDef, PromptRequest, ResourceDef, ResourceRead, ResourceTemplateDef,
    ToolCall, ToolDef, ToolError,
};

/// Which of a server's lists to read: its tools, its prompts, its
/// resources and resource templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Lists {
    pub(super) tools: bool,
    pub(super) prompts: bool,
    pub(super) resources: bool,
}

impl Lists {
    pub(super) const ALL: Lists = Lists {
        tools: true,
        prompts: true,
        resources: true,
    };
    pub(super) const NONE: Lists = Lists {
        tools: false,
        prompts: false,
        resources: false,
    };
}

/// A server's lists as read; `None` for a list not read (not asked for,
/// or of a feature the server does not declare).
#[derive(Debug, Default)]
pub(super) struct Listed {
    pub(super) tools: Option<Vec<Tool>>,
    pub(super) prompts: Option<Vec<Prompt>>,
    pub(super) resources: Option<Vec<Resource>>,
    pub(super) templates: Option<Vec<ResourceTemplate>>,
}

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
    /// The lists are read once, now: to follow later changes of the
    /// mounted server, mount it into a live registry with
    /// [`mount_live`](Self::mount_live). Tasks and completions are not
    /// forwarded. The caller's trace continues into the mounted server (see
    /// [`crate::trace`]); the caller's credentials never do.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_toolkit_runtime::client::Client;
    /// use mcp_toolkit_runtime::server::Server;
    ///
    /// let weather = Client::connect_http("http://127.0.0.1:8081/mcp").await?;
    /// let server = Server::builder(mcp_toolkit_runtime::server_info!())
    ///     .register(weather.mount("weather").await?)
    ///     .build()?;
    /// server.serve_stdio().await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn mount(&self, prefix: &str) -> Result<Definitions, ClientError> {
        let listed = self.read_lists(Lists::ALL).await?;
        let mut definitions = Definitions::new();
        for tool in listed.tools.into_iter().flatten() {
            definitions.tool(self.mounted_tool(prefix, tool));
        }
        for prompt in listed.prompts.into_iter().flatten() {
            definitions.prompt(self.mounted_prompt(prefix, prompt));
        }
        for resource in listed.resources.into_iter().flatten() {
            if let Some(def) = self.mounted_resource(prefix, resource) {
                definitions.resource(def);
            }
        }
        for template in listed.templates.into_iter().flatten() {
            if let Some(def) = self.mounted_template(prefix, template) {
                definitions.resource_template(def);
            }
        }
        Ok(definitions)
    }

    /// The lists `which` names, as the server lists them now; prompts,
    /// resources and templates only when the server declares them.
    pub(super) async fn read_lists(&self, which: Lists) -> Result<Listed, ClientError> {
        let capabilities = &self.server().capabilities;
        let prompts = which.prompts && capabilities.prompts.is_some();
        let resources = which.resources && capabilities.resources.is_some();
        Ok(Listed {
            tools: match which.tools {
                true => Some(self.list_tools().await?),
                false => None,
            },
            prompts: match prompts {
                true => Some(self.list_prompts().await?),
                false => None,
            },
            resources: match resources {
                true => Some(self.list_resources().await?),
                false => None,
            },
            templates: match resources {
                true => Some(self.list_resource_templates().await?),
                false => None,
            },
        })
    }

    /// `resource` as mounted under `prefix`; `None` (with a warning) when
    /// its URI has no scheme to put the prefix after.
    pub(super) fn mounted_resource(&self, prefix: &str, resource: Resource) -> Option<ResourceDef> {
        let Some(uri) = prefixed_uri(prefix, &resource.uri) else {
            let uri = crate::redact::RedactedUrl::new(&resource.uri);
            tracing::warn!(%uri, "resource without a scheme not mounted");
            return None;
        };
        let upstream = self.clone();
        let original = resource.uri.clone();
        let mut def = ResourceDef::new(uri.clone(), "", move |_: ResourceRead| {
            let (upstream, original, uri) = (upstream.clone(), original.clone(), uri.clone());
            async move { upstream.read_mounted(&original, &uri).await }
        });
        def.resource = Resource {
            uri: def.resource.uri,
            name: mounted_name(prefix, &resource.name),
            ..resource
        };
        Some(def)
    }

    /// `template` as mounted under `prefix`; `None` (with a warning) when
    /// it has no scheme or does not parse.
    pub(super) fn mounted_template(
        &self,
        prefix: &str,
        template: ResourceTemplate,
    ) -> Option<ResourceTemplateDef> {
        let Some(uri_template) = prefixed_uri(prefix, &template.uri_template) else {
            tracing::warn!(template = %template.uri_template, "template without a scheme not mounted");
            return None;
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
                def.template = ResourceTemplate {
                    uri_template,
                    name: mounted_name(prefix, &template.name),
                    ..template
                };
                Some(def)
            }
            Err(error) => {
                tracing::warn!(template = %template.uri_template, %error, "invalid template not mounted");
                None
            }
        }
    }

    /// `tool` as mounted under `prefix`.
    pub(super) fn mounted_tool(&self, prefix: &str, tool: Tool) -> ToolDef {
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
        def.tool = Tool {
            name: mounted_name(prefix, &tool.name),
            // Tasks are not forwarded: the mounted tool runs as a call.
            execution: None,
            ..tool
        };
        def
    }

    /// `prompt` as mounted under `prefix`.
    pub(super) fn mounted_prompt(&self, prefix: &str, prompt: Prompt) -> PromptDef {
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
        def.prompt = Prompt {
            name: mounted_name(prefix, &prompt.name),
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

/// A tool's, prompt's or resource's name as mounted under `prefix`.
pub(super) fn mounted_name(prefix: &str, name: &str) -> String {
    format!("{prefix}_{name}")
}

/// `scheme://rest` as `scheme://{prefix}/rest`.
pub(super) fn prefixed_uri(prefix: &str, uri: &str) -> Option<String> {
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
