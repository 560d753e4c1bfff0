//! The catalogue as the gateway serves it: each entry the policy allows,
//! made into a tool definition named `SERVER.TOOL` that forwards its calls
//! to the host.

use std::collections::HashSet;
use std::sync::Arc;

use mcp_runtime::server::{Server, ToolDef};

use super::GatewayOptions;
use super::forward;
use crate::host::{CatalogueEntry, Host};

/// The definitions of every catalogue entry the gateway serves, in
/// catalogue order. Left out: what the policy refuses, a second entry of
/// the same name, and what the runtime cannot serve (each with a warning).
pub(super) fn definitions(host: &Arc<Host>, options: &Arc<GatewayOptions>) -> Vec<ToolDef> {
    let mut names = HashSet::new();
    let mut definitions = Vec::new();
    for entry in host.tools() {
        let name = entry.name();
        if let Some(why) = host.policy.refusal(&entry.server, &entry.tool.name) {
            tracing::debug!(tool = %name, reason = %why, "not served");
            continue;
        }
        if !names.insert(name.clone()) {
            tracing::warn!(tool = %name, "not served: its server lists two tools of this name");
            continue;
        }
        // The runtime checks a definition when the server is built, and one
        // bad definition would fail the whole build: try each alone first.
        let alone = Server::builder(options.info.clone())
            .tool(definition(&entry, host, options))
            .build();
        if let Err(why) = alone {
            tracing::warn!(tool = %name, reason = %why, "not served");
            continue;
        }
        definitions.push(definition(&entry, host, options));
    }
    definitions
}

/// `entry` as the gateway lists it, with a handler that calls it through
/// the host.
fn definition(entry: &CatalogueEntry, host: &Arc<Host>, options: &Arc<GatewayOptions>) -> ToolDef {
    let name = entry.name();
    let tool = &entry.tool;
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
        definition = definition.annotations(host.policy.believed_hints(&entry.server, hints));
    }
    definition
}
