use mcp_toolkit_runtime::{mcp_resource, mcp_server};

struct Docs;

#[mcp_server]
impl Docs {
    #[mcp_resource("docs://readme")]
    fn readme(&self) -> &'static str {
        "# Hello"
    }

    #[mcp_resource("docs://readme", name = "readme-again")]
    fn readme_again(&self) -> &'static str {
        "# Hello again"
    }
}

fn main() {}
