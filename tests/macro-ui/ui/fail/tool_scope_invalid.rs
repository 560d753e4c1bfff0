use mcp_toolkit_runtime::mcp_tool;

/// Writes a note.
#[mcp_tool(scopes = ["notes:write", "notes read", "notes:write", "quo\"te"])]
async fn write_note(text: String) -> String {
    text
}

fn main() {}
