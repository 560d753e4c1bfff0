//! The stdio transport from bytes to replies: arbitrary input (lines of
//! JSON-RPC or not, any framing) fed to `Server::serve_io`. The server must
//! not panic or hang, must end when the input ends, and must write only
//! whole lines of JSON.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use mcp_fuzz::{echo_server, runtime};
use mcp_toolkit_runtime::transport::stdio::StdioConfig;
use tokio::io::AsyncReadExt;

fuzz_target!(|data: &[u8]| {
    let config = StdioConfig {
        max_line_bytes: 4096,
        shutdown_grace: Duration::from_millis(50),
        ..StdioConfig::default()
    };
    let output = runtime().block_on(async {
        let (mut reader, writer) = tokio::io::duplex(1 << 20);
        let input = std::io::Cursor::new(data.to_vec());
        let serving = echo_server().clone().serve_io(input, writer, config);
        let served = tokio::time::timeout(Duration::from_secs(5), serving).await;
        assert!(
            matches!(served, Ok(Ok(()))),
            "serve_io did not end cleanly: {served:?}"
        );
        let mut output = Vec::new();
        reader
            .read_to_end(&mut output)
            .await
            .expect("the pipe reads");
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
