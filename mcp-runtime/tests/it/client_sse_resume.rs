//! A response stream that keeps ending before its response arrives is
//! resumed (GET with `Last-Event-ID`, after the server's `retry`) a bounded
//! number of times, then the request fails as closed: no wait and no
//! request beyond the last resumption, whose answer nobody would read.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice};
use serde_json::{Value, json};

/// How often the client resumes one response stream (its
/// `MAX_RESUMPTIONS`).
const RESUMPTIONS: usize = 5;

/// A 2026-07-28 server that answers `server/discover`, and any other
/// request with an event stream that ends after one event without a
/// response (and so does every resumption); counts the resumptions.
async fn serve(resumed: Arc<AtomicUsize>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let resumed = resumed.clone();
            tokio::spawn(async move {
                let service = service_fn(move |request: Request<Incoming>| {
                    let resumed = resumed.clone();
                    async move { Ok::<_, Infallible>(answer(request, &resumed).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    url
}

async fn answer(request: Request<Incoming>, resumed: &AtomicUsize) -> Response<Full<Bytes>> {
    if request.method() == Method::GET {
        resumed.fetch_add(1, Ordering::SeqCst);
        return cut_short_stream();
    }
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let message: Value = serde_json::from_slice(&body).unwrap();
    if message["method"] != "server/discover" {
        return cut_short_stream();
    }
    let discovered = json!({"jsonrpc": "2.0", "id": message["id"], "result": {
        "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
        "resultType": "complete"}});
    Response::builder()
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(discovered.to_string())))
        .unwrap()
}

/// One event with an id and no message, resumable at once, then the end.
fn cut_short_stream() -> Response<Full<Bytes>> {
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Full::new(Bytes::from_static(
            b"retry: 0\nid: 1\ndata: \n\n",
        )))
        .unwrap()
}

#[tokio::test]
async fn a_stream_that_keeps_ending_is_resumed_a_bounded_number_of_times() {
    let resumed = Arc::new(AtomicUsize::new(0));
    let url = serve(resumed.clone()).await;
    let options = ConnectOptions {
        era: EraChoice::Modern,
        ..ConnectOptions::default()
    };
    let client = Client::connect_http_with(&url, options).await.unwrap();
    let outcome = client.request::<_, Value>("tools/list", &json!({})).await;
    assert!(matches!(outcome, Err(ClientError::Closed)), "{outcome:?}");
    assert_eq!(resumed.load(Ordering::SeqCst), RESUMPTIONS);
}
