//! What the transport fuzz targets share: a server with one `echo` tool
//! (its argument also mirrored into an `Mcp-Param-Region` header) and a
//! runtime built once per process.

use std::sync::OnceLock;

use mcp_toolkit_runtime::protocol::{CallToolResult, Implementation};
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};

/// The server every transport target serves.
pub fn echo_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let echo = ToolDef::new("echo", |call: ToolCall| async move {
            let text: String = call.argument("text")?;
            Ok(CallToolResult::text(text))
        })
        .input_schema(serde_json::json!({
            "type": "object",
            "properties": {
                "text": {"type": "string", "maxLength": 64},
                "region": {"type": "string", "x-mcp-header": "Region"}
            },
            "required": ["text"]
        }));
        Server::builder(Implementation::new("fuzz", "0"))
            .tool(echo)
            .build()
            .expect("a valid server")
    })
}

/// A current-thread runtime with timers, reused across inputs.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}
