//! A tool's schemas are compiled when its server's tools are listed, not on
//! each call: a tool whose output schema does not compile is refused before
//! anything is sent (its output could not be checked), and a new listing
//! compiles the schemas again.
//!
//! The server is the runtime's, over Streamable HTTP on 127.0.0.1, with a
//! middleware that lists its one tool with a hostile output schema until
//! the test fixes it, and asks for a new listing before every call
//! (`ttlMs: 0`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use mcp_toolkit_host::{AlwaysAllow, CallOptions, Config, Host, HostError, HostOptions};
use mcp_toolkit_runtime::protocol::{CallToolResult, Era, Method};
use mcp_toolkit_runtime::server::middleware::{McpRequest, Next};
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};

/// The output schema the server serves its tool with.
fn output_schema() -> Value {
    json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
}

/// The server's tools/list answer while its schema is hostile: `type`
/// must be a string or an array of strings, so it does not compile.
fn hostile_listing(era: Era) -> Value {
    let mut listing = json!({
        "tools": [{
            "name": "report",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": 12}
        }],
        "ttlMs": 0
    });
    if era == Era::Modern {
        listing["resultType"] = json!("complete");
    }
    listing
}

struct Fake {
    url: String,
    /// The calls of `report` the server received.
    calls: Arc<AtomicUsize>,
    /// Whether the listing is still hostile.
    hostile: Arc<AtomicBool>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn fake_server() -> Fake {
    let calls = Arc::new(AtomicUsize::new(0));
    let hostile = Arc::new(AtomicBool::new(true));
    let counted = calls.clone();
    let report = ToolDef::new("report", move |_: ToolCall| {
        let n = counted.fetch_add(1, Ordering::SeqCst) + 1;
        async move { CallToolResult::structured(&json!({"n": n})) }
    })
    .output_schema(output_schema());
    let listing_is_hostile = hostile.clone();
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(report)
        .middleware(move |request: McpRequest, next: Next| {
            let hostile = listing_is_hostile.load(Ordering::SeqCst)
                && request.method() == Method::ToolsList.name();
            async move {
                if hostile {
                    return request.reply(&hostile_listing(request.era()));
                }
                next.run(request).await
            }
        })
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel();
    tokio::spawn(
        server.serve_http_with(listener, HttpConfig::default(), async {
            let _ = stopped.await;
        }),
    );
    Fake {
        url,
        calls,
        hostile,
        _stop: stop,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_whose_output_schema_does_not_compile_is_not_called() {
    let fake = fake_server().await;
    let config = Config::parse(
        &json!({"mcpServers": {"fake": {"url": fake.url}}}).to_string(),
        |_| None,
    )
    .unwrap();
    let options = HostOptions {
        connect_timeout: Duration::from_secs(10),
        ..HostOptions::default()
    };
    let host = Host::start(config, options).await;
    let status = &host.servers()[0];
    assert!(status.state.is_ok(), "{status:?}");
    let names: Vec<String> = host.tools().iter().map(|entry| entry.name()).collect();
    assert_eq!(names, ["fake.report"], "listed, though it cannot be called");

    let consent = AlwaysAllow;
    let call_options = CallOptions::new(&consent);
    match host.call("fake.report", json!({}), &call_options).await {
        Err(HostError::Unavailable { server, why }) => {
            assert_eq!(server, "fake");
            assert!(
                why.starts_with("the output schema of report does not compile"),
                "{why}"
            );
        }
        other => panic!("expected the schema to be refused, got {other:?}"),
    }
    assert_eq!(
        fake.calls.load(Ordering::SeqCst),
        0,
        "nothing was sent whose output could not be checked"
    );

    // Listed again before the next call (`ttlMs: 0`), now with the schema
    // the tool was built with: compiled again, and the call goes through,
    // its output checked against it.
    fake.hostile.store(false, Ordering::SeqCst);
    let outcome = host
        .call("fake.report", json!({}), &call_options)
        .await
        .expect("called with the new listing's schema");
    assert_eq!(outcome.result.structured_content, Some(json!({"n": 1})));
    assert_eq!(fake.calls.load(Ordering::SeqCst), 1);
    host.shutdown(Duration::from_secs(1)).await;
}
