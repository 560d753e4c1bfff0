use mcp_toolkit_runtime::{mcp_server, mcp_tool};

struct Store<T>(T);

#[mcp_server]
impl<T: Send + Sync + 'static> Store<T> {
    #[mcp_tool]
    fn size(&self) -> u64 {
        0
    }
}

fn main() {}
