//! Legacy sessions (2025-11-25 and earlier, `initialize`) are told of a live
//! registry's changes: in memory and over stdio on the connection, over
//! Streamable HTTP on the session's standalone GET stream. List changes
//! arrive once per batch; `notifications/resources/updated` only for the
//! resources the session subscribed to. The GET stream keeps the session's
//! rules: one per session, only for its owner, gone with the session.

use crate::http_support;

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::BodyExt;
use http_support::{bounded, legacy_initialize, open, post, send, sse_data};
use hyper::body::Incoming;
use hyper::{Method, StatusCode};
use mcp_toolkit_runtime::client::{Caching, Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::jsonrpc::Notification;
use mcp_toolkit_runtime::jsonrpc::code::INVALID_PARAMS;
use mcp_toolkit_runtime::protocol::{CallToolResult, ReadResourceResult};
use mcp_toolkit_runtime::server::auth::{
    AuthConfig, Principal, TokenError, TokenVerifier, VerifyFuture,
};
use mcp_toolkit_runtime::server::{
    Batch, LiveRegistry, ResourceDef, ResourceRead, Server, ToolCall, ToolDef,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{broadcast, oneshot};

/// How long "nothing more arrives" is watched for.
const QUIET: Duration = Duration::from_millis(300);

fn answering(name: &str) -> ToolDef {
    ToolDef::new(name, |_call: ToolCall| async {
        Ok(CallToolResult::text("ok"))
    })
}

fn resource(uri: &str) -> ResourceDef {
    ResourceDef::new(uri, "r", |read: ResourceRead| async move {
        Ok(ReadResourceResult::text(read.uri, None, "text"))
    })
}

/// A live server with one tool and the resources `test://a` and `test://b`.
fn live_server() -> (Server, LiveRegistry) {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(answering("status"))
        .resource(resource("test://a"))
        .resource(resource("test://b"))
        .live_registry()
        .build()
        .unwrap();
    let registry = server.registry().expect("a live registry");
    (server, registry)
}

fn legacy() -> ConnectOptions {
    ConnectOptions {
        era: EraChoice::Legacy,
        cache: Caching::Off,
        ..ConnectOptions::default()
    }
}

/// The next notification, within the bound.
async fn next(notifications: &mut broadcast::Receiver<Notification>) -> Notification {
    bounded(notifications.recv()).await.unwrap()
}

/// Asserts that no notification arrives for a while.
async fn quiet(notifications: &mut broadcast::Receiver<Notification>) {
    let more = tokio::time::timeout(QUIET, notifications.recv()).await;
    assert!(more.is_err(), "nothing more was announced: {more:?}");
}

/// What the tests below check on any legacy connection: one list change
/// per kind per batch, resource updates only while subscribed.
async fn told_of_changes(client: &Client, registry: &LiveRegistry) {
    let capabilities = &client.server().capabilities;
    assert_eq!(
        capabilities.tools.as_ref().unwrap().list_changed,
        Some(true)
    );
    let resources = capabilities.resources.as_ref().unwrap();
    assert_eq!(resources.subscribe, Some(true));
    let mut notifications = client.notifications();

    registry.add_tool(answering("added")).unwrap();
    let told = next(&mut notifications).await;
    assert_eq!(told.method, "notifications/tools/list_changed");
    quiet(&mut notifications).await;
    let names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert!(names.contains(&"added".to_owned()), "{names:?}");

    // A batch of many changes: one notification per kind.
    let batch = (0..20).fold(Batch::new(), |batch, i| {
        batch.add_tool(answering(&format!("tool{i}")))
    });
    registry
        .apply(batch.add_resource(resource("test://c")))
        .unwrap();
    let mut methods = vec![
        next(&mut notifications).await.method,
        next(&mut notifications).await.method,
    ];
    methods.sort();
    assert_eq!(
        methods,
        [
            "notifications/resources/list_changed",
            "notifications/tools/list_changed"
        ]
    );
    quiet(&mut notifications).await;

    // Updates: only of what the session follows, and only while it does.
    let changes = registry.list_changes();
    changes.resource_updated("test://a");
    quiet(&mut notifications).await;
    client.subscribe_resource("test://a").await.unwrap();
    changes.resource_updated("test://b");
    changes.resource_updated("test://a");
    let told = next(&mut notifications).await;
    assert_eq!(told.method, "notifications/resources/updated");
    assert_eq!(told.params, Some(json!({"uri": "test://a"})));
    quiet(&mut notifications).await;
    client.unsubscribe_resource("test://a").await.unwrap();
    changes.resource_updated("test://a");
    quiet(&mut notifications).await;

    // A resource the server does not have cannot be followed.
    let unknown = client.subscribe_resource("test://nope").await.unwrap_err();
    assert!(unknown.to_string().contains("test://nope"), "{unknown}");
}

#[tokio::test]
async fn a_legacy_session_in_memory_is_told_of_changes() {
    let (server, registry) = live_server();
    let client = Client::connect_in_memory(server, legacy()).await.unwrap();
    told_of_changes(&client, &registry).await;
}

#[tokio::test]
async fn a_2026_session_is_not_sent_legacy_notifications() {
    let (server, registry) = live_server();
    let options = ConnectOptions {
        era: EraChoice::Modern,
        ..legacy()
    };
    let client = Client::connect_in_memory(server, options).await.unwrap();
    let mut notifications = client.notifications();
    registry.add_tool(answering("added")).unwrap();
    quiet(&mut notifications).await;
}

/// Serves `server` over HTTP with `config` until the returned sender is
/// dropped or fires.
async fn serve(
    server: Server,
    config: HttpConfig,
) -> (
    SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_http_with(listener, config, async {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

#[tokio::test]
async fn a_legacy_http_session_is_told_on_its_get_stream() {
    let (server, registry) = live_server();
    let (addr, _stop, _task) = serve(server, HttpConfig::default()).await;
    let url = format!("http://{addr}/mcp");
    let client = Client::connect_http_with(&url, legacy()).await.unwrap();
    told_of_changes(&client, &registry).await;
}

/// Runs the handshake with `extra` headers; returns the session id.
async fn start_session(addr: SocketAddr, extra: &[(&str, &str)]) -> String {
    let reply = post(addr, extra, &legacy_initialize()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned()
}

/// The headers of a GET for session `id`'s stream.
fn stream_headers(id: &str) -> [(&str, &str); 3] {
    [
        ("accept", "text/event-stream"),
        ("mcp-session-id", id),
        ("mcp-protocol-version", "2025-11-25"),
    ]
}

/// The next JSON-RPC message on an SSE body; `None` when it ends.
async fn next_event(body: &mut Incoming) -> Option<Value> {
    let mut text = String::new();
    loop {
        let frame = bounded(body.frame()).await?.unwrap();
        if let Some(data) = frame.data_ref() {
            text.push_str(std::str::from_utf8(data).unwrap());
        }
        if text.ends_with("\n\n") {
            return sse_data(&text).into_iter().next();
        }
    }
}

#[tokio::test]
async fn one_get_stream_per_session_until_the_session_ends() {
    let (server, registry) = live_server();
    let (addr, _stop, _task) = serve(server, HttpConfig::default()).await;
    let id = start_session(addr, &[]).await;

    // Without a session there is no stream to open; nor for a client that
    // does not take an event stream.
    let reply = send(addr, Method::GET, &[("accept", "text/event-stream")], "").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text());
    let mut json_only = stream_headers(&id);
    json_only[0].1 = "application/json";
    let reply = send(addr, Method::GET, &json_only, "").await;
    assert_eq!(reply.status, StatusCode::NOT_ACCEPTABLE, "{}", reply.text());

    let (stream, connection) = open(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(
        stream.headers()["content-type"],
        "text/event-stream",
        "{:?}",
        stream.headers()
    );
    let reply = send(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.text());

    let mut body = stream.into_body();
    registry.add_tool(answering("added")).unwrap();
    let event = next_event(&mut body).await.expect("an event");
    assert_eq!(
        event,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );

    // Closed by the client: the session may open another.
    connection.abort();
    drop(body);
    let (stream, _connection) = bounded(async {
        loop {
            let (stream, connection) = open(addr, Method::GET, &stream_headers(&id), "").await;
            if stream.status() == StatusCode::OK {
                return (stream, connection);
            }
            assert_eq!(stream.status(), StatusCode::CONFLICT);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let mut body = stream.into_body();

    // Deleting the session ends its stream.
    let delete = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let reply = send(addr, Method::DELETE, &delete, "").await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_eq!(next_event(&mut body).await, None, "the stream ended");
    let reply = send(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_stream_ends_when_the_session_expires() {
    let (server, _registry) = live_server();
    let config = HttpConfig {
        session_idle_timeout: Duration::from_millis(300),
        ..HttpConfig::default()
    };
    let (addr, _stop, _task) = serve(server, config).await;
    let id = start_session(addr, &[]).await;
    let (stream, _connection) = open(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(stream.status(), StatusCode::OK);
    let mut body = stream.into_body();
    assert_eq!(next_event(&mut body).await, None, "ended by expiry");
    let reply = send(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_open_stream_does_not_hold_the_shutdown() {
    let (server, _registry) = live_server();
    let config = HttpConfig {
        // Far longer than the test's bound.
        shutdown_grace: Duration::from_secs(60),
        ..HttpConfig::default()
    };
    let (addr, stop, task) = serve(server, config).await;
    let id = start_session(addr, &[]).await;
    let (stream, _connection) = open(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(stream.status(), StatusCode::OK);
    let mut body = stream.into_body();
    let _ = stop.send(());
    bounded(task).await.unwrap().unwrap();
    assert_eq!(next_event(&mut body).await, None, "ended by the shutdown");
}

#[tokio::test]
async fn without_sessions_or_announcements_get_is_405() {
    let (server, _registry) = live_server();
    let config = HttpConfig {
        stateless_legacy: true,
        ..HttpConfig::default()
    };
    let (addr, _stop, _task) = serve(server, config).await;
    let reply = send(addr, Method::GET, &[("accept", "text/event-stream")], "").await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.header("allow"), Some("POST, DELETE"));

    let fixed = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(answering("status"))
        .build()
        .unwrap();
    let (addr, _stop, _task) = serve(fixed, HttpConfig::default()).await;
    let id = start_session(addr, &[]).await;
    let reply = send(addr, Method::GET, &stream_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);

    let (live, _registry) = live_server();
    let (addr, _stop, _task) = serve(live, HttpConfig::default()).await;
    let reply = send(addr, Method::PUT, &[], "").await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.header("allow"), Some("GET, POST, DELETE"));
}

/// Accepts any token, as the principal whose subject is the token.
struct AnyoneIsWhoTheySay;

impl TokenVerifier for AnyoneIsWhoTheySay {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move {
            let claims = json!({"iss": "https://issuer.test", "sub": token});
            match claims {
                Value::Object(claims) => Ok(Principal::from_claims(claims)),
                _ => Err(TokenError::Invalid("unreachable".into())),
            }
        })
    }
}

#[tokio::test]
async fn only_the_sessions_owner_opens_its_stream() {
    let (server, _registry) = live_server();
    let resource = "http://127.0.0.1/mcp";
    let config = HttpConfig {
        auth: Some(AuthConfig::new(resource, AnyoneIsWhoTheySay).unwrap()),
        ..HttpConfig::default()
    };
    let (addr, _stop, _task) = serve(server, config).await;
    let alice = ("authorization", "Bearer alice");
    let id = start_session(addr, &[alice]).await;
    let [accept, session, version] = stream_headers(&id);
    let mallory = ("authorization", "Bearer mallory");
    let reply = send(addr, Method::GET, &[accept, session, version, mallory], "").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text());
    let (stream, _connection) =
        open(addr, Method::GET, &[accept, session, version, alice], "").await;
    assert_eq!(stream.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_session_follows_a_bounded_number_of_resources() {
    let server =
        Server::builder(mcp_toolkit_runtime::server_info!())
            .resource_template(
                mcp_toolkit_runtime::server::ResourceTemplateDef::new(
                    "test://items/{id}",
                    "item",
                    |read: ResourceRead| async move {
                        Ok(ReadResourceResult::text(read.uri, None, "x"))
                    },
                )
                .unwrap(),
            )
            .live_registry()
            .build()
            .unwrap();
    let client = Client::connect_in_memory(server, legacy()).await.unwrap();
    for i in 0..1024 {
        client
            .subscribe_resource(&format!("test://items/{i}"))
            .await
            .unwrap();
    }
    let error = client
        .subscribe_resource("test://items/one-too-many")
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("1024") && text.contains("unsubscribe"),
        "{text}"
    );
    assert!(
        matches!(&error, mcp_toolkit_runtime::client::ClientError::Protocol(e) if e.code == INVALID_PARAMS),
        "{error:?}"
    );
}
