use mcp_toolkit_runtime::mcp_tool;

// Each key may be given once; the second occurrence is the error, and the
// options after it are still read.
#[mcp_tool(name = "a", name = "b", read_only, read_only = false, titel = "x")]
fn twice() {}

#[mcp_tool(meta(team = "search", team = "ranking"), meta(version = 2))]
fn meta_twice() {}

fn main() {
    twice();
    meta_twice();
}
