use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn forecast(
    #[mcp(header = "Région")] region: String,
    #[mcp(header = "Day")] day: String,
    #[mcp(header = "day")] later: String,
) -> String {
    format!("{region} {day} {later}")
}

fn main() {}
