//! `raw-echo-http --http IP:PORT`: the floor of JSON-RPC over HTTP/1.1 with
//! hyper on this machine, for `bench/run-http.sh`. The same server setup as
//! `echo-server` and `rmcp-echo-http` (a multi-threaded Tokio runtime,
//! hyper's HTTP/1.1 connections, `TCP_NODELAY`), and per request only what
//! any responder must do: read the body, parse it as JSON and answer
//! `application/json` with the reply `loadgen` checks (see [`raw_echo`]).
//! No MCP: no headers checked, no session, no schemas; a notification gets
//! 202, any path is the endpoint.

use std::convert::Infallible;
use std::net::SocketAddr;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode, header};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

const USAGE: &str = "usage: raw-echo-http --http IP:PORT";
/// Largest request body read, in bytes.
const MAX_BODY: usize = 1 << 20;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr: SocketAddr = match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => addr.parse()?,
        _ => return Err(USAGE.into()),
    };
    let listener = TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(async move {
            let connection =
                http1::Builder::new().serve_connection(TokioIo::new(stream), service_fn(respond));
            // A client that goes away ends its connection, nothing more.
            let _ = connection.await;
        });
    }
}

async fn respond(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let body = match Limited::new(request.into_body(), MAX_BODY).collect().await {
        Ok(body) => body.to_bytes(),
        Err(e) => return Ok(status(StatusCode::BAD_REQUEST, e.to_string())),
    };
    let message = match serde_json::from_slice(&body) {
        Ok(message) => message,
        Err(e) => return Ok(status(StatusCode::BAD_REQUEST, e.to_string())),
    };
    let Some(reply) = raw_echo::answer(&message) else {
        return Ok(status(StatusCode::ACCEPTED, String::new()));
    };
    let mut response = Response::new(Full::new(Bytes::from(reply.to_string())));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    Ok(response)
}

fn status(code: StatusCode, text: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(text)));
    *response.status_mut() = code;
    response
}
