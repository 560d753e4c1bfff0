use mcp_toolkit_runtime::mcp_tool;

/// Writes a note.
#[mcp_tool(scopes = ["notes:write", 3])]
async fn write_note(text: String) -> String {
    text
}

fn main() {}
