//! The `opentelemetry` feature end to end: spans go through the OTLP/HTTP
//! exporter of `trace::otlp` to a collector started here (hyper on
//! loopback), which decodes the protobuf export; the server's span for a
//! request carrying a `traceparent` is the caller's span's child, and a
//! client request made inside an OpenTelemetry span continues its trace.
//!
//! Runs with `cargo test -p mcp-toolkit-runtime --features opentelemetry --test
//! otel`, and in every `cargo test --workspace`: the `mcp-tests` package
//! turns the feature on, and the workspace's build unifies it.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use mcp_toolkit_runtime::client::Client;
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::transport::HttpConfig;
use mcp_toolkit_runtime::{definitions, mcp_tool, server_info};
use opentelemetry::trace::TraceContextExt;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;

const WAIT: Duration = Duration::from_secs(20);
const CALLER_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

/// Echo the text back.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_reach_an_otlp_collector_with_the_callers_trace() {
    let (collector, mut exported) = collector().await;
    let (layer, guard) =
        mcp_toolkit_runtime::trace::otlp::layer("otel-test", &format!("http://{collector}"))
            .unwrap();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).unwrap();

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = Server::builder(server_info!())
        .register(definitions![echo])
        .build()
        .unwrap();
    tokio::spawn(server.serve_http_with(listener, HttpConfig::default(), std::future::pending()));
    let client = Client::connect_http(&format!("http://{addr}/mcp"))
        .await
        .unwrap();

    // A request whose caller (not an OpenTelemetry span here) sent its own
    // traceparent: the server's span continues it.
    let _: CallToolResult = client
        .request(
            "tools/call",
            &json!({
                "name": "echo",
                "arguments": {"text": "from a remote caller"},
                "_meta": {"traceparent": format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01")},
            }),
        )
        .await
        .unwrap();

    // A request made inside the application's own OpenTelemetry span.
    let app = tracing::info_span!("app.work");
    let app_context = app.context().span().span_context().clone();
    assert!(app_context.is_valid(), "the layer gives the span a context");
    let (app_trace, app_span) = (
        app_context.trace_id().to_string(),
        app_context.span_id().to_string(),
    );
    client
        .call_tool("echo", &json!({"text": "inside app.work"}))
        .instrument(app.clone())
        .await
        .unwrap();
    drop(app);

    // Export what has ended (the batch would wait up to 5 s), then read the
    // collector until every span looked for has arrived.
    let flushed = tokio::task::spawn_blocking(move || {
        guard.flush().unwrap();
        guard
    });
    let guard = tokio::time::timeout(WAIT, flushed).await.unwrap().unwrap();
    let mut spans: Vec<ExportedSpan> = Vec::new();
    let wanted = |spans: &[ExportedSpan]| {
        let found = |name: &str, trace: &str| {
            spans
                .iter()
                .any(|span| span.name == name && span.trace_id == trace)
        };
        found("mcp.request", CALLER_TRACE)
            && found("mcp.request", &app_trace)
            && found("mcp.client.request", &app_trace)
            && found("app.work", &app_trace)
    };
    while !wanted(&spans) {
        match tokio::time::timeout(WAIT, exported.recv()).await {
            Ok(Some(batch)) => spans.extend(batch),
            _ => panic!("the collector did not receive every span; it has {spans:#?}"),
        }
    }
    let by = |name: &str, trace: &str| {
        spans
            .iter()
            .filter(|span| span.name == name && span.trace_id == trace)
            .collect::<Vec<_>>()
    };

    // The caller's span is the server span's parent.
    let [served] = by("mcp.request", CALLER_TRACE)[..] else {
        panic!("one server span in the caller's trace: {spans:#?}");
    };
    assert_eq!(served.parent_span_id, CALLER_SPAN, "{served:#?}");
    assert_eq!(served.service_name, "otel-test");
    assert_ne!(served.span_id, CALLER_SPAN);

    // The application's span continues through the client to the server.
    let [root] = by("app.work", &app_trace)[..] else {
        panic!("the application's span: {spans:#?}");
    };
    assert_eq!(root.span_id, app_span);
    let [served] = by("mcp.request", &app_trace)[..] else {
        panic!("one server span in the application's trace: {spans:#?}");
    };
    let [sent] = by("mcp.client.request", &app_trace)[..] else {
        panic!("one client span in the application's trace: {spans:#?}");
    };
    // application span → client request span → server span.
    assert_eq!(sent.parent_span_id, app_span, "{sent:#?}");
    assert_eq!(served.parent_span_id, sent.span_id, "{served:#?}");
    // The traceparent on the wire named the client span (recorded as its
    // `span_id` field).
    assert_eq!(
        sent.attributes.get("span_id"),
        Some(&sent.span_id),
        "{sent:#?}"
    );

    client.close(Duration::from_secs(1)).await;
    tokio::task::spawn_blocking(move || drop(guard))
        .await
        .unwrap();
}

/// One span as the collector decoded it.
#[derive(Debug)]
struct ExportedSpan {
    service_name: String,
    name: String,
    trace_id: String,
    span_id: String,
    parent_span_id: String,
    /// String-valued attributes.
    attributes: HashMap<String, String>,
}

/// An OTLP/HTTP collector on loopback: every `POST /v1/traces` is decoded
/// and its spans sent on the channel; the answer is an empty (successful)
/// `ExportTraceServiceResponse`.
async fn collector() -> (SocketAddr, mpsc::UnboundedReceiver<Vec<ExportedSpan>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (sender, receiver) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let sender = sender.clone();
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let sender = sender.clone();
                async move {
                    assert_eq!(request.uri().path(), "/v1/traces");
                    assert_eq!(request.headers()["content-type"], "application/x-protobuf");
                    let body = request.into_body().collect().await.unwrap().to_bytes();
                    let _ = sender.send(decode_export(&body));
                    let response = Response::builder()
                        .header("content-type", "application/x-protobuf")
                        .body(Full::new(Bytes::new()))
                        .unwrap();
                    Ok::<_, Infallible>(response)
                }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service),
            );
        }
    });
    (addr, receiver)
}

/// The spans of an `ExportTraceServiceRequest` (opentelemetry-proto's
/// `collector/trace/v1`), read straight from the protobuf wire format: the
/// few fields this test looks at, so the test needs no protobuf crates
/// (which, as dev-dependencies, every build of these tests would compile).
fn decode_export(body: &[u8]) -> Vec<ExportedSpan> {
    let mut spans = Vec::new();
    // ExportTraceServiceRequest.resource_spans = 1
    for resource_spans in fields(body, 1) {
        // ResourceSpans.resource = 1, Resource.attributes = 1
        let resource = attributes(fields(resource_spans, 1).flat_map(|r| fields(r, 1)));
        let service_name = resource.get("service.name").cloned().unwrap_or_default();
        // ResourceSpans.scope_spans = 2, ScopeSpans.spans = 2
        for span in fields(resource_spans, 2).flat_map(|scope| fields(scope, 2)) {
            let one = |number| fields(span, number).next().unwrap_or_default();
            spans.push(ExportedSpan {
                service_name: service_name.clone(),
                name: String::from_utf8(one(5).to_vec()).unwrap(),
                trace_id: hex(one(1)),
                span_id: hex(one(2)),
                parent_span_id: hex(one(4)),
                // Span.attributes = 9
                attributes: attributes(fields(span, 9)),
            });
        }
    }
    spans
}

/// `KeyValue { key = 1, value = 2 (AnyValue { string_value = 1 }) }`s with
/// a string value.
fn attributes<'a>(pairs: impl Iterator<Item = &'a [u8]>) -> HashMap<String, String> {
    pairs
        .filter_map(|pair| {
            let key = fields(pair, 1).next()?;
            let value = fields(pair, 2).next().and_then(|v| fields(v, 1).next())?;
            Some((
                String::from_utf8(key.to_vec()).ok()?,
                String::from_utf8(value.to_vec()).ok()?,
            ))
        })
        .collect()
}

/// The length-delimited fields numbered `number` of a protobuf message.
fn fields(message: &[u8], number: u64) -> impl Iterator<Item = &[u8]> {
    let mut rest = message;
    std::iter::from_fn(move || {
        while !rest.is_empty() {
            let key = varint(&mut rest);
            let value: &[u8] = match key & 7 {
                0 => {
                    varint(&mut rest);
                    &[]
                }
                1 => take(&mut rest, 8),
                2 => {
                    let len = varint(&mut rest) as usize;
                    take(&mut rest, len)
                }
                5 => take(&mut rest, 4),
                other => panic!("wire type {other} is not in OTLP"),
            };
            if key >> 3 == number && key & 7 == 2 {
                return Some(value);
            }
        }
        None
    })
}

fn varint(bytes: &mut &[u8]) -> u64 {
    let mut value = 0;
    for shift in (0..64).step_by(7) {
        let byte = take(bytes, 1)[0];
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            break;
        }
    }
    value
}

fn take<'a>(bytes: &mut &'a [u8], len: usize) -> &'a [u8] {
    let (head, tail) = bytes.split_at(len);
    *bytes = tail;
    head
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
