//! A server's tools as the host keeps them between listings: each with its
//! input and output schemas compiled once, when the list was fetched, so
//! that a call only runs the compiled validators.

use std::sync::Arc;
use std::time::Duration;

use mcp_toolkit_runtime::client::ToolList;
use mcp_toolkit_runtime::protocol::{CacheScope, CallToolResult, Tool};
use mcp_toolkit_runtime::schema::CompiledSchema;
use serde_json::Value;

/// A tool list as fetched, with its tools' schemas compiled.
pub(crate) struct Listing {
    pub(crate) tools: Vec<Arc<ListedTool>>,
    pub(crate) ttl: Option<Duration>,
    pub(crate) cache_scope: Option<CacheScope>,
}

impl Listing {
    /// Compiles the schemas of every tool in `list`. A schema that does not
    /// compile is reported here, once per listing; calls to its tool are
    /// refused before they are sent.
    pub(crate) fn compile(list: ToolList) -> Listing {
        Listing {
            tools: list
                .tools
                .into_iter()
                .map(|tool| Arc::new(ListedTool::compile(tool)))
                .collect(),
            ttl: list.ttl,
            cache_scope: list.cache_scope,
        }
    }
}

/// One tool as its server listed it, with its schemas compiled.
pub(crate) struct ListedTool {
    /// The tool as listed.
    pub(crate) tool: Tool,
    /// Its compiled schemas, or why one of them did not compile.
    schemas: Result<Schemas, String>,
}

impl ListedTool {
    fn compile(tool: Tool) -> ListedTool {
        let schemas = Schemas::compile(&tool);
        if let Err(why) = &schemas {
            tracing::warn!(tool = %tool.name, reason = %why, "calls to this tool will be refused");
        }
        ListedTool { tool, schemas }
    }

    /// The compiled schemas, or why the tool cannot be called: without them
    /// neither its arguments nor its output could be checked.
    pub(crate) fn schemas(&self) -> Result<&Schemas, &str> {
        self.schemas.as_ref().map_err(String::as_str)
    }
}

/// A tool's input schema, and its output schema when it has one, compiled.
pub(crate) struct Schemas {
    input: CompiledSchema,
    output: Option<CompiledSchema>,
}

impl Schemas {
    fn compile(tool: &Tool) -> Result<Schemas, String> {
        let name = &tool.name;
        let input = CompiledSchema::compile(&tool.input_schema)
            .map_err(|e| format!("the input schema of {name} does not compile: {e}"))?;
        let output = tool
            .output_schema
            .as_ref()
            .map(|schema| {
                CompiledSchema::compile(schema)
                    .map_err(|e| format!("the output schema of {name} does not compile: {e}"))
            })
            .transpose()?;
        Ok(Schemas { input, output })
    }

    /// Checks a call's arguments against the input schema; each violation
    /// names the argument.
    pub(crate) fn check_arguments(&self, arguments: &Value) -> Result<(), String> {
        self.input.check(arguments)
    }

    /// Checks a result's structured content against the output schema,
    /// when the tool has one and did not fail.
    pub(crate) fn check_output(&self, result: &CallToolResult) -> Result<(), String> {
        match (&self.output, result.is_error.unwrap_or(false)) {
            (Some(output), false) => match &result.structured_content {
                Some(content) => output.check(content),
                None => Err("no structuredContent".to_owned()),
            },
            _ => Ok(()),
        }
    }
}
