//! The tools the gateway serves of one server: each one the policy allows,
//! made into a tool definition named `SERVER.TOOL` that forwards its calls
//! to the host; and the batch that takes the gateway's registry from what it
//! served to what it serves once the server's tools changed.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_toolkit_runtime::protocol::Tool;
use mcp_toolkit_runtime::server::{Batch, Server, ToolDef};

use super::GatewayOptions;
use super::forward;
use crate::host::Host;
use crate::listed::ListedTool;

/// What the gateway serves of one server: by gateway name (`SERVER.TOOL`),
/// each tool as its server lists it.
#[derive(Default)]
pub(super) struct Served(BTreeMap<String, Tool>);

impl Served {
    /// What the gateway serves of `server` once the host lists `listed`
    /// for it, and the batch that brings the registry there from `self`;
    /// `None` when nothing changed. Left out: what the policy refuses, a
    /// second tool of the same name, and what the runtime cannot serve
    /// (each with a warning). A tool listed as before is kept as it is.
    pub(super) fn update(
        &self,
        host: &Arc<Host>,
        options: &Arc<GatewayOptions>,
        server: &str,
        listed: &[Arc<ListedTool>],
    ) -> Option<(Served, Batch)> {
        let mut next = BTreeMap::new();
        let mut batch = Batch::new();
        let mut changed = false;
        for tool in listed.iter().map(|listed| &listed.tool) {
            let name = format!("{server}.{}", tool.name);
            if let Some(why) = host.policy.refusal(server, &tool.name) {
                tracing::debug!(tool = %name, reason = %why, "not served");
                continue;
            }
            if next.contains_key(&name) {
                tracing::warn!(tool = %name, "not served: its server lists two tools of this name");
                continue;
            }
            if self.0.get(&name) != Some(tool) {
                // One definition the runtime refuses would fail the whole
                // batch: each new or changed one is tried alone first.
                let alone = Server::builder(options.info.clone())
                    .tool(definition(host, options, server, tool))
                    .build();
                if let Err(why) = alone {
                    tracing::warn!(tool = %name, reason = %why, "not served");
                    continue;
                }
                batch = batch.replace_tool(definition(host, options, server, tool));
                changed = true;
            }
            next.insert(name, tool.clone());
        }
        for gone in self.0.keys().filter(|name| !next.contains_key(*name)) {
            batch = batch.remove_tool(gone);
            changed = true;
        }
        changed.then_some((Served(next), batch))
    }
}

/// `server`'s `tool` as the gateway lists it, with a handler that calls it
/// through the host.
fn definition(
    host: &Arc<Host>,
    options: &Arc<GatewayOptions>,
    server: &str,
    tool: &Tool,
) -> ToolDef {
    let name = format!("{server}.{}", tool.name);
    let handler = forward::handler(host.clone(), options.clone(), name.clone());
    let mut definition = ToolDef::new(name, handler).input_schema(tool.input_schema.clone());
    if let Some(title) = &tool.title {
        definition = definition.title(title);
    }
    if let Some(description) = &tool.description {
        definition = definition.description(description);
    }
    if let Some(schema) = &tool.output_schema {
        definition = definition.output_schema(schema.clone());
    }
    // The hints the host believes, not all that the server claims.
    if let Some(hints) = &tool.annotations {
        definition = definition.annotations(host.policy.believed_hints(server, hints));
    }
    definition
}

#[cfg(test)]
mod tests {
    use mcp_toolkit_runtime::client::{Caching, Client, ConnectOptions, ToolList};
    use serde_json::json;

    use super::*;
    use crate::config::Config;
    use crate::listed::Listing;
    use crate::options::HostOptions;

    /// A server's tools as the host lists them: each `(name, description)`.
    fn listed(tools: &[(&str, &str)]) -> Vec<Arc<ListedTool>> {
        let tools = tools
            .iter()
            .map(|(name, description)| Tool {
                name: (*name).to_owned(),
                description: Some((*description).to_owned()),
                input_schema: json!({"type": "object"}),
                ..Tool::default()
            })
            .collect();
        Listing::compile(ToolList {
            tools,
            ..ToolList::default()
        })
        .tools
    }

    #[tokio::test]
    async fn each_listing_is_one_batch_of_what_changed_under_the_policy() {
        let config = r#"{"mcpServers": {}, "policy": {"deny": ["s.hidden"]}}"#;
        let config = Config::parse(config, |_| None).unwrap();
        let host = Arc::new(Host::start(config, HostOptions::default()).await);
        let options = Arc::new(GatewayOptions::default());
        let server = Server::builder(options.info.clone())
            .live_registry()
            .build()
            .unwrap();
        let registry = server.registry().unwrap();

        let first = listed(&[("a", "one"), ("b", "two"), ("hidden", "denied")]);
        let (served, batch) = Served::default()
            .update(&host, &options, "s", &first)
            .expect("new tools");
        registry.apply(batch).unwrap();
        assert_eq!(registry.tool_names(), ["s.a", "s.b"]);
        assert!(
            served.update(&host, &options, "s", &first).is_none(),
            "the same list again changes nothing"
        );

        // `a` gone, `b` described anew, `c` new, `hidden` still denied.
        let second = listed(&[("b", "changed"), ("c", "three"), ("hidden", "denied")]);
        let (_, batch) = served
            .update(&host, &options, "s", &second)
            .expect("changes");
        registry.apply(batch).unwrap();
        assert_eq!(registry.tool_names(), ["s.b", "s.c"]);
        let options = ConnectOptions {
            cache: Caching::Off,
            ..ConnectOptions::default()
        };
        let client = Client::connect_in_memory(server, options).await.unwrap();
        let tools = client.list_tools().await.unwrap();
        let b = tools.iter().find(|tool| tool.name == "s.b").unwrap();
        assert_eq!(b.description.as_deref(), Some("changed"));
    }
}
