//! `mcp-host serve --http` behind authentication, end to end with the real
//! `mcp-host` binary in front of `echo-server`: without authentication it
//! refuses any address but loopback; with `--auth-issuer` it takes JWT
//! access tokens from a real issuer (the npm `oidc-provider`,
//! tests/interop/oidc_issuer.mjs); with `--bearer-env` it takes one static
//! token. And a consent question never goes to a caller over HTTP that
//! nobody authenticated.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_toolkit_host::{
    Config, GatewayAccess, GatewayListener, GatewayOptions, Host, HostOptions, StaticBearer,
};
use mcp_toolkit_runtime::client::{AuthError, Client, ClientError, ConnectOptions, InputHandler};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ClientCapabilities, ElicitRequestParams, InputRequest, InputRequests,
    InputResponse, InputResponses,
};
use mcp_toolkit_runtime::server::BoxFuture;
use serde_json::{Value, json};
use support::host::mcp_host;
use support::interop::HttpFixture;
use support::oidc::{Issuer, http};

/// The environment variable the static token travels in.
const TOKEN_VAR: &str = "GATEWAY_TEST_TOKEN";
/// The static token (64 hex digits, as `openssl rand -hex 32` makes).
const TOKEN: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/// A configuration with one server, `echo` (echo-server over stdio), which
/// first writes what it inherited of [`TOKEN_VAR`] to `inherited`.
fn echo_config(dir: &Path) -> (PathBuf, PathBuf) {
    let inherited = dir.join("inherited");
    let script = format!(
        "printf %s \"${TOKEN_VAR}\" > '{}'; exec '{}'",
        inherited.display(),
        env!("CARGO_BIN_EXE_echo-server")
    );
    let config = json!({
        "mcpServers": {"echo": {"command": "sh", "args": ["-c", script]}}
    });
    let path = dir.join(".mcp.json");
    std::fs::write(&path, config.to_string()).unwrap();
    (path, inherited)
}

/// `mcp-host --config CONFIG serve ARGS` over HTTP, started once it says
/// where it listens.
fn gateway(config: &Path, args: &[&str], env: &[(&str, &str)]) -> HttpFixture {
    let mut command = Command::new(mcp_host());
    command
        .arg("--config")
        .arg(config)
        .arg("serve")
        .args(args)
        .envs(env.iter().copied());
    HttpFixture::start_command(mcp_host(), command)
}

/// A `tools/list` POST as a 2026-07-28 client sends it, with `headers`.
fn post_list(url: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": support::modern_meta()}
    });
    let mut all = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
    ];
    all.extend_from_slice(headers);
    http("POST", url, &body.to_string(), &all)
}

/// The `WWW-Authenticate` header of a response head.
fn challenge(head: &str) -> &str {
    head.lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("www-authenticate")
                .then_some(value.trim())
        })
        .unwrap_or_else(|| panic!("no WWW-Authenticate in {head}"))
}

async fn connect(url: &str, token: &str, options: ConnectOptions) -> Result<Client, ClientError> {
    Client::connect_http_with(url, options.bearer_token(token)?).await
}

fn refused(result: Result<Client, ClientError>) -> AuthError {
    match result {
        Err(ClientError::Auth(error)) => error,
        Err(other) => panic!("expected 401, got {other}"),
        Ok(_) => panic!("expected 401, got a connection"),
    }
}

/// Answers every consent form with "allow" and remembers its message.
#[derive(Clone, Default)]
struct Consenting {
    asked: Arc<Mutex<Vec<String>>>,
}

impl Consenting {
    fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }

    /// Client options that declare elicitation and answer through `self`.
    fn options(&self) -> ConnectOptions {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {}})).unwrap();
        ConnectOptions {
            capabilities,
            input_handler: Some(Arc::new(self.clone())),
            ..ConnectOptions::default()
        }
    }
}

impl InputHandler for Consenting {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        let mut responses = InputResponses::new();
        for (key, request) in requests {
            let InputRequest::Elicit(elicit) = request else {
                panic!("the gateway only elicits, got {request:?}");
            };
            let ElicitRequestParams::Form(form) = elicit.params else {
                panic!("the gateway asks with forms");
            };
            self.asked.lock().unwrap().push(form.message);
            let response: InputResponse =
                serde_json::from_value(json!({"action": "accept", "content": {"allow": true}}))
                    .unwrap();
            responses.insert(key, response);
        }
        Box::pin(async move { Ok(responses) })
    }
}

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().unwrap_or_default()
}

#[test]
fn without_authentication_the_gateway_refuses_any_address_but_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = echo_config(dir.path());
    let port = support::free_port().to_string();
    for addr in [format!("0.0.0.0:{port}"), format!("[::]:{port}")] {
        let started = Instant::now();
        let mut child = Command::new(mcp_host())
            .arg("--config")
            .arg(&config)
            .args(["serve", "--http", &addr])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            // Bounded, not timed: the refusal comes before any server
            // starts, but a loaded machine (node-heavy tests beside it)
            // has taken over 5 s just to start the process.
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("serve --http {addr} without authentication still runs after 30 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(!status.success(), "{addr}: {stderr}");
        assert!(
            stderr.contains("without authentication"),
            "{addr}: {stderr}"
        );
        for flag in ["--auth-issuer", "--bearer-env", "127.0.0.1"] {
            assert!(
                stderr.contains(flag),
                "{addr}: {stderr} does not name {flag}"
            );
        }
        assert!(!stderr.contains("listening on"), "{addr}: {stderr}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_an_issuer_it_serves_only_callers_holding_its_tokens() {
    let issuer = Issuer::start();
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = echo_config(dir.path());
    let gateway = gateway(
        &config,
        &["--http", "127.0.0.1:0", "--auth-issuer", &issuer.url],
        &[],
    );
    let url = gateway.url.clone();
    assert!(
        gateway
            .stderr()
            .iter()
            .any(|line| line.contains(&format!("access tokens from {}", issuer.url))),
        "{:?}",
        gateway.stderr()
    );

    // No token: 401, with a challenge that leads to the gateway's metadata,
    // which names the issuer.
    let (status, head, body) = post_list(&url, &[]);
    assert_eq!(status, 401, "{head}\n{body}");
    let metadata_url = url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let challenge = challenge(&head);
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(
        challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")),
        "{challenge}"
    );
    let (status, _, metadata) = http("GET", &metadata_url, "", &[]);
    assert_eq!(status, 200);
    let metadata: Value = serde_json::from_str(&metadata).unwrap();
    assert_eq!(metadata["resource"], json!(url));
    assert_eq!(metadata["authorization_servers"], json!([issuer.url]));

    // A token the issuer made for another resource: 401 invalid_token.
    let elsewhere = issuer.token("mcp-test", "http://127.0.0.1:9/mcp", "calc");
    let error = refused(connect(&url, &elsewhere, ConnectOptions::default()).await);
    assert_eq!(error.status, 401, "{error}");
    assert_eq!(
        error.challenge.as_ref().and_then(|c| c.error()),
        Some("invalid_token")
    );

    // A token for the gateway: listed and called, and, with no --yes, the
    // authenticated caller is asked before a tool with side effects runs.
    let token = issuer.token("mcp-test", &url, "calc");
    let (status, head, body) = post_list(&url, &[("Authorization", &format!("Bearer {token}"))]);
    assert_eq!(status, 200, "{head}\n{body}");
    assert!(body.contains("echo.add"), "{body}");
    let consenting = Consenting::default();
    let client = connect(&url, &token, consenting.options()).await.unwrap();
    assert_eq!(
        support::sorted_tool_names(&client).await,
        ["echo.add", "echo.echo", "echo.sleep", "echo.whoami"]
    );
    let sum = client
        .call_tool("echo.add", &json!({"a": 2, "b": 40}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 42})));
    let echo = client
        .call_tool("echo.echo", &json!({"text": "asked first"}))
        .await
        .unwrap();
    assert_eq!(text(&echo), "asked first", "{echo:?}");
    let asked = consenting.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(asked[0].starts_with("Allow echo.echo?"), "{asked:?}");
}

/// Opaque tokens, checked at the issuer's introspection endpoint with the
/// gateway's client secret from the environment. The resource is the URL a
/// proxy would publish, not where the gateway listens.
#[tokio::test(flavor = "multi_thread")]
async fn with_introspection_it_serves_callers_holding_opaque_tokens() {
    let issuer = Issuer::start();
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = echo_config(dir.path());
    // The issuer makes opaque tokens for resources ending in /opaque.
    let resource = "http://127.0.0.1:1/opaque";
    let endpoint = format!("{}/token/introspection", issuer.url);
    let gateway = gateway(
        &config,
        &[
            "--http",
            "127.0.0.1:0",
            "--auth-issuer",
            &issuer.url,
            "--resource",
            resource,
            "--introspect",
            &endpoint,
            "--introspect-client",
            "mcp-test",
            "--introspect-secret-env",
            "GATEWAY_TEST_INTROSPECTION_SECRET",
        ],
        &[("GATEWAY_TEST_INTROSPECTION_SECRET", "test-secret")],
    );
    let url = gateway.url.clone();

    let token = issuer.token("mcp-test", resource, "calc");
    assert_eq!(token.split('.').count(), 1, "opaque, not a JWT: {token}");
    let client = connect(&url, &token, ConnectOptions::default())
        .await
        .unwrap();
    let sum = client
        .call_tool("echo.add", &json!({"a": 40, "b": 2}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 42})));

    // An opaque token for another resource, and a made-up one: 401.
    let elsewhere = issuer.token("mcp-test", "http://127.0.0.1:2/opaque", "calc");
    for wrong in [elsewhere.as_str(), "made-up-opaque-token"] {
        let error = refused(connect(&url, wrong, ConnectOptions::default()).await);
        assert_eq!(error.status, 401, "{error}");
        let metadata = error.resource_metadata().unwrap_or_default();
        assert!(
            metadata.ends_with("/.well-known/oauth-protected-resource/opaque"),
            "{metadata}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_a_static_token_it_serves_only_its_holder() {
    let dir = tempfile::tempdir().unwrap();
    let (config, inherited) = echo_config(dir.path());
    let gateway = gateway(
        &config,
        &["--http", "127.0.0.1:0", "--bearer-env", TOKEN_VAR, "--yes"],
        &[(TOKEN_VAR, TOKEN)],
    );
    let url = gateway.url.clone();

    // No token, and wrong ones: 401 with a Bearer challenge.
    let (status, head, _) = post_list(&url, &[]);
    assert_eq!(status, 401, "{head}");
    assert!(challenge(&head).starts_with("Bearer "), "{head}");
    let one_off = format!("{}0", &TOKEN[..TOKEN.len() - 1]);
    for wrong in [&TOKEN[..32], one_off.as_str(), &format!("{TOKEN}0")] {
        let (status, head, _) = post_list(&url, &[("Authorization", &format!("Bearer {wrong}"))]);
        assert_eq!(status, 401, "{wrong}: {head}");
        assert!(
            challenge(&head).contains("error=\"invalid_token\""),
            "{wrong}: {head}"
        );
        let error = refused(connect(&url, wrong, ConnectOptions::default()).await);
        assert_eq!(error.status, 401, "{error}");
    }

    // The token: listed and called.
    let client = connect(&url, TOKEN, ConnectOptions::default())
        .await
        .unwrap();
    assert_eq!(
        support::sorted_tool_names(&client).await,
        ["echo.add", "echo.echo", "echo.sleep", "echo.whoami"]
    );
    let echo = client
        .call_tool("echo.echo", &json!({"text": "with the token"}))
        .await
        .unwrap();
    assert_eq!(text(&echo), "with the token", "{echo:?}");

    // The configured server did not inherit the gateway's token.
    let seen = std::fs::read_to_string(&inherited).unwrap();
    assert_eq!(seen, "", "the server inherited the gateway's token");
}

/// The library's gateway served over HTTP without authentication, as a
/// program that skips `GatewayListener` would: a caller that declares
/// elicitation is still never asked, and the call is refused saying why.
/// Through a loopback `GatewayListener` without authentication the same
/// caller is asked.
#[tokio::test(flavor = "multi_thread")]
async fn an_unauthenticated_caller_over_http_is_never_asked_for_consent() {
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = echo_config(dir.path());
    let host = Arc::new(Host::start(Config::load(&config).unwrap(), HostOptions::default()).await);

    let server = host.gateway(GatewayOptions::default()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let stop = Arc::new(tokio::sync::Notify::new());
    let stopped = stop.clone();
    let served = tokio::spawn(server.serve_http_with(
        listener,
        mcp_toolkit_runtime::transport::HttpConfig::default(),
        async move { stopped.notified().await },
    ));
    let consenting = Consenting::default();
    let client = Client::connect_http_with(&url, consenting.options())
        .await
        .unwrap();
    let refused = client
        .call_tool("echo.echo", &json!({"text": "unasked"}))
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    assert!(
        text(&refused).contains("only a caller it authenticated"),
        "{refused:?}"
    );
    assert_eq!(consenting.asked(), Vec::<String>::new());
    stop.notify_one();
    served.await.unwrap().unwrap();

    // A loopback listener without authentication: every caller is local,
    // and is asked.
    let listener = GatewayListener::bind("127.0.0.1:0".parse().unwrap(), &GatewayAccess::Open)
        .await
        .unwrap();
    let url = listener.url().to_owned();
    let stopped = stop.clone();
    let gateway = host.clone();
    let served = tokio::spawn(async move {
        gateway
            .serve_gateway_http(GatewayOptions::default(), listener, async move {
                stopped.notified().await
            })
            .await
    });
    let client = Client::connect_http_with(&url, consenting.options())
        .await
        .unwrap();
    let echo = client
        .call_tool("echo.echo", &json!({"text": "asked"}))
        .await
        .unwrap();
    assert_eq!(text(&echo), "asked", "{echo:?}");
    assert_eq!(consenting.asked().len(), 1);
    stop.notify_one();
    served.await.unwrap().unwrap();

    // Beyond loopback, Open is refused before binding.
    let anywhere = GatewayListener::bind("0.0.0.0:0".parse().unwrap(), &GatewayAccess::Open).await;
    assert!(anywhere.is_err());
    let token = StaticBearer::new(TOKEN).unwrap();
    let no_url = GatewayAccess::Bearer {
        token,
        resource: None,
    };
    assert!(
        GatewayListener::bind("0.0.0.0:0".parse().unwrap(), &no_url)
            .await
            .is_err()
    );
    host.shutdown(Duration::from_millis(500)).await;
}
