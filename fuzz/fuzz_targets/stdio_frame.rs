//! The stdio transport from bytes to replies: arbitrary input (lines of
//! JSON-RPC or not, any framing) fed to `Server::serve_io`. The server must
//! not panic or hang, must end when the input ends, and must write only
//! whole lines of JSON.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use mcp_runtime::protocol::CallToolResult;
use mcp_runtime::server::{Server, ToolCall, ToolDef};
use mcp_runtime::transport::stdio::StdioConfig;
use tokio::io::AsyncReadExt;

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let echo = ToolDef::new("echo", |call: ToolCall| async move {
            let text: String = call.argument("text")?;
            Ok(CallToolResult::text(text))
        })
        .input_schema(serde_json::json!({
            "type": "object",
            "properties": {"text": {"type": "string", "maxLength": 64}},
            "required": ["text"]
        }));
        Server::builder(mcp_runtime::protocol::Implementation::new("fuzz", "0"))
            .tool(echo)
            .build()
            .expect("a valid server")
    })
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let config = StdioConfig {
        max_line_bytes: 4096,
        shutdown_grace: Duration::from_millis(50),
        ..StdioConfig::default()
    };
    let output = runtime().block_on(async {
        let (mut reader, writer) = tokio::io::duplex(1 << 20);
        let input = std::io::Cursor::new(data.to_vec());
        let serving = server().clone().serve_io(input, writer, config);
        let served = tokio::time::timeout(Duration::from_secs(5), serving).await;
        assert!(matches!(served, Ok(Ok(()))), "serve_io did not end cleanly: {served:?}");
        let mut output = Vec::new();
        reader.read_to_end(&mut output).await.expect("the pipe reads");
        output
    });
    if output.is_empty() {
        return;
    }
    assert!(output.ends_with(b"\n"), "a partial line was written");
    for line in output.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let reply: serde_json::Value = serde_json::from_slice(line).expect("every reply is JSON");
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    }
});
