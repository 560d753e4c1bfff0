//! The Streamable HTTP request path: an arbitrary method, path, headers and
//! body through `McpService`. Every request must get a response in bounded
//! time without a panic, and a JSON response must hold JSON.
//!
//! Input layout: the first byte picks the method; then header lines
//! (`name: value`) up to an empty line; the rest is the body. The service
//! is the one `serve_http` mounts, in its default (stateful) mode, around
//! the shared echo server (`mcp_fuzz::echo_server`).
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request};
use libfuzzer_sys::fuzz_target;
use mcp_fuzz::{echo_server, runtime};
use mcp_toolkit_runtime::transport::http::{HttpConfig, McpService};
use tower_service::Service;

fn service() -> &'static McpService {
    static SERVICE: OnceLock<McpService> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let config = HttpConfig {
            max_sessions: 64,
            ..HttpConfig::default()
        };
        McpService::new(echo_server().clone(), config)
    })
}

const METHODS: [Method; 5] = [
    Method::POST,
    Method::GET,
    Method::DELETE,
    Method::PUT,
    Method::OPTIONS,
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut builder = Request::builder()
        .method(METHODS[usize::from(pick) % METHODS.len()].clone())
        .uri(if pick & 0x80 == 0 { "/mcp" } else { "/other" });
    let mut body = rest;
    while let Some(end) = body.iter().position(|&b| b == b'\n') {
        let line = &body[..end];
        body = &body[end + 1..];
        if line.is_empty() {
            break;
        }
        if let Some(colon) = line.iter().position(|&b| b == b':') {
            let value = line[colon + 1..].trim_ascii_start();
            builder = builder.header(&line[..colon], value);
        }
    }
    // An invalid header name or value is refused before the service, as
    // hyper would refuse it on the wire.
    let Ok(request) = builder.body(Full::new(Bytes::copy_from_slice(body))) else {
        return;
    };
    runtime().block_on(async {
        let mut service = service().clone();
        let call = service.call(request);
        let response = tokio::time::timeout(Duration::from_secs(5), call)
            .await
            .expect("the service answers in bounded time")
            .expect("the service is infallible");
        let json = response
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
        // An event stream may stay open (a GET stream): read what arrives
        // promptly, then let it go.
        let collected =
            tokio::time::timeout(Duration::from_millis(200), response.into_body().collect()).await;
        if json {
            let bytes = collected
                .expect("a JSON body ends")
                .expect("the body reads")
                .to_bytes();
            if !bytes.is_empty() {
                serde_json::from_slice::<serde_json::Value>(&bytes).expect("a JSON body is JSON");
            }
        }
    });
});
