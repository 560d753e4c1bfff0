// Not a macro's error: serving HTTP from a build without the `http`
// feature (this crate's runtime has none) names the feature to turn on.
use mcp_toolkit_runtime::server::Server;

fn main() {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .build()
        .unwrap();
    let _serving = server.serve_http("127.0.0.1:8080");
}
