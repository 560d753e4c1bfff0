use mcp_toolkit_runtime::mcp_tool;

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Region {
    name: String,
}

#[mcp_tool]
fn forecast(#[mcp(header = "Region")] region: Region) -> String {
    region.name
}

fn main() {}
