//! `echo-server --http 0 --auth-issuer ISSUER` as an OAuth 2.1 protected
//! resource, against a real authorization server nobody here wrote: the
//! npm `oidc-provider` (tests/interop/oidc_issuer.mjs), issuing JWT access
//! tokens for the server's URL through the client_credentials grant. Our
//! runtime client and the official TypeScript and Python SDK clients call
//! it with a bearer token, and fail cleanly without one.

use crate::support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_toolkit_runtime::client::{AuthError, Client, ClientError, ConnectOptions};
use serde_json::{Value, json};
use support::interop::{HttpFixture, python, script, sdks};
use support::oidc::{Issuer, http, keep_cookies_and_find_redirect};

fn protected_server(issuer: &Issuer) -> HttpFixture {
    HttpFixture::start(
        Path::new(env!("CARGO_BIN_EXE_echo-server")),
        &[Path::new("--auth-issuer"), Path::new(&issuer.url)],
    )
}

async fn connect(url: &str, token: Option<&str>) -> Result<Client, ClientError> {
    let mut options = ConnectOptions::default();
    if let Some(token) = token {
        options = options.bearer_token(token)?;
    }
    Client::connect_http_with(url, options).await
}

fn auth_error(result: Result<Client, ClientError>) -> AuthError {
    match result {
        Err(ClientError::Auth(error)) => error,
        Err(other) => panic!("expected an HTTP 401/403, got {other}"),
        Ok(_) => panic!("expected an HTTP 401/403, got a connection"),
    }
}

/// The JWT's three parts.
fn parts(token: &str) -> [String; 3] {
    let parts: Vec<_> = token.split('.').map(str::to_owned).collect();
    parts.try_into().expect("a JWS compact serialization")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_protected_server_takes_tokens_from_a_real_issuer_and_refuses_every_bad_one() {
    let issuer = Issuer::start();
    let server = protected_server(&issuer);
    let resource = server.url.clone();

    // No token: 401, and the challenge leads to metadata naming the issuer.
    let denied = auth_error(connect(&resource, None).await);
    assert_eq!(denied.status, 401, "{denied}");
    let metadata_url = denied
        .resource_metadata()
        .expect("resource_metadata")
        .to_owned();
    assert!(
        metadata_url.ends_with("/.well-known/oauth-protected-resource/mcp"),
        "{metadata_url}"
    );
    let (status, head, body) = http("GET", &metadata_url, "", &[]);
    assert_eq!(status, 200, "{head}");
    let metadata: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(metadata["resource"], json!(resource));
    assert_eq!(metadata["authorization_servers"], json!([issuer.url]));
    assert!(
        metadata["scopes_supported"]
            .as_array()
            .unwrap()
            .contains(&json!("calc")),
        "{metadata}"
    );

    // A valid token: calls work, and the handler sees the principal.
    let token = issuer.token("mcp-test", &resource, "calc profile");
    let client = connect(&resource, Some(&token))
        .await
        .expect("a valid token connects");
    let sum = client
        .call_tool("add", &json!({"a": 2, "b": 40}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 42})));
    let me = client.call_tool("whoami", &json!({})).await.unwrap();
    let me = me.structured_content.unwrap();
    assert_eq!(me["subject"], "mcp-test");
    assert_eq!(me["client_id"], "mcp-test");
    assert_eq!(me["scopes"], json!(["calc", "profile"]));

    // A token without the tool's scope: 403 insufficient_scope naming it;
    // tools that need no scope still work.
    let narrow = issuer.token("mcp-test", &resource, "profile");
    let client = connect(&resource, Some(&narrow)).await.unwrap();
    assert!(
        client
            .call_tool("echo", &json!({"text": "hi"}))
            .await
            .is_ok()
    );
    match client.call_tool("add", &json!({"a": 1, "b": 1})).await {
        Err(ClientError::Auth(error)) => {
            assert_eq!(error.status, 403, "{error}");
            let challenge = error.challenge.as_ref().unwrap();
            assert_eq!(challenge.error(), Some("insufficient_scope"));
            assert!(
                challenge.scope().unwrap().split(' ').any(|s| s == "calc"),
                "{error}"
            );
        }
        other => panic!("expected 403, got {other:?}"),
    }

    // Every bad token: 401 invalid_token.
    let other_issuer = Issuer::start();
    let foreign = other_issuer.token("mcp-test", &resource, "calc");
    let other_audience = issuer.token("mcp-test", "http://127.0.0.1:9/other", "calc");
    let [header, payload, _] = parts(&token);
    let [_, _, foreign_signature] = parts(&foreign);
    let none_header = URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"at+jwt"}"#);
    let hmac_header =
        URL_SAFE_NO_PAD.encode(r#"{"alg":"HS256","typ":"at+jwt","kid":"es256-test"}"#);
    let unknown_kid = URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256","typ":"at+jwt","kid":"nobody"}"#);
    let bad = [
        ("another audience", other_audience),
        ("another issuer", foreign.clone()),
        (
            "signed by another key",
            format!("{header}.{payload}.{foreign_signature}"),
        ),
        ("alg none", format!("{none_header}.{payload}.")),
        (
            "HMAC with the public key",
            format!("{hmac_header}.{payload}.{foreign_signature}"),
        ),
        (
            "unknown kid",
            format!("{unknown_kid}.{payload}.{foreign_signature}"),
        ),
        ("garbage", "not-a-jwt".to_owned()),
    ];
    for (what, bad_token) in bad {
        let error = auth_error(connect(&resource, Some(&bad_token)).await);
        assert_eq!(error.status, 401, "{what}: {error}");
        assert_eq!(
            error.challenge.as_ref().and_then(|c| c.error()),
            Some("invalid_token"),
            "{what}: {error}"
        );
    }

    // An expired token (the short client's live 1 s; the leeway is 5 s).
    let short = issuer.token("mcp-test-short", &resource, "calc");
    assert!(
        connect(&resource, Some(&short)).await.is_ok(),
        "fresh, it works"
    );
    tokio::time::sleep(Duration::from_secs(8)).await;
    let error = auth_error(connect(&resource, Some(&short)).await);
    assert_eq!(error.status, 401);
    assert!(error.to_string().contains("expired"), "{error}");
}

fn run_official(program: &Path, client: &str, extra: &[&str], url: &str) -> (bool, String) {
    let output = Command::new(program)
        .arg(script(client))
        .args(extra)
        .args(["--timeout", "30", "--url", url])
        .env("MCP_INTEROP_NODE_DIR", sdks().join("node"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {client}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn official_sdk_clients_call_the_protected_server_with_a_bearer_token() {
    let issuer = Issuer::start();
    let server = protected_server(&issuer);
    let token = issuer.token("mcp-test", &server.url, "calc");
    let clients: [(&Path, &str, &[&str]); 3] = [
        (Path::new("node"), "ts_client.mjs", &[]),
        (&python(), "py_client.py", &["--mode", "auto"]),
        (&python(), "py_client.py", &["--mode", "legacy"]),
    ];
    for (program, client, extra) in clients {
        let with_token = [extra, &["--bearer", &token]].concat();
        let (ok, output) = run_official(program, client, &with_token, &server.url);
        assert!(ok, "{client} {extra:?} with a token failed:\n{output}");
        let (ok, output) = run_official(program, client, extra, &server.url);
        assert!(
            !ok,
            "{client} {extra:?} without a token succeeded:\n{output}"
        );
        assert!(
            output.contains("401")
                || output.contains("nauthorized")
                || output.contains("an access token is required"),
            "{client} {extra:?} failed without naming the 401:\n{output}"
        );
        println!(
            "{client} {extra:?}: with a token ok; without: {}",
            output.lines().last().unwrap_or("")
        );
    }
}

/// A server in this process protected by token introspection (RFC 7662)
/// at the real issuer, which hands out opaque tokens for `/opaque`.
#[tokio::test(flavor = "multi_thread")]
async fn introspection_headers_and_session_owners() {
    use mcp_toolkit_runtime::protocol::CallToolResult;
    use mcp_toolkit_runtime::server::auth::{AuthConfig, IntrospectionVerifier};
    use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
    use mcp_toolkit_runtime::transport::http::HttpConfig;

    let issuer = Issuer::start();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!(
        "http://127.0.0.1:{}/opaque",
        listener.local_addr().unwrap().port()
    );
    let verifier =
        IntrospectionVerifier::new(&format!("{}/token/introspection", issuer.url), &resource)
            .unwrap()
            .client_credentials("mcp-test", "test-secret")
            .issuer(&issuer.url);
    let auth = AuthConfig::new(&resource, verifier)
        .unwrap()
        .authorization_server(&issuer.url)
        .unwrap();
    let inspect = ToolDef::new("inspect", |call: ToolCall| async move {
        let context = call.context();
        let headers = context.http_headers().expect("HTTP headers");
        let principal = context.principal().expect("a principal");
        CallToolResult::structured(&json!({
            "authorization": headers.contains_key("authorization"),
            "trace": headers.get("x-trace").and_then(|v| v.to_str().ok()),
            "client_id": principal.client_id,
            "scopes": principal.scopes,
        }))
    });
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(inspect)
        .build()
        .unwrap();
    let config = HttpConfig {
        path: "/opaque".into(),
        auth: Some(auth),
        ..HttpConfig::default()
    };
    tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));

    // An opaque token, checked by introspection; the handler sees the
    // principal and the headers, without Authorization.
    let token = issuer.token("mcp-test", &resource, "calc");
    assert_eq!(token.split('.').count(), 1, "opaque, not a JWT: {token}");
    let mut options = ConnectOptions::default().bearer_token(&token).unwrap();
    options.headers.insert("x-trace", "abc".parse().unwrap());
    let client = Client::connect_http_with(&resource, options).await.unwrap();
    let seen = client.call_tool("inspect", &json!({})).await.unwrap();
    assert_eq!(
        seen.structured_content,
        Some(
            json!({"authorization": false, "trace": "abc", "client_id": "mcp-test", "scopes": ["calc"]})
        )
    );
    let error = auth_error(connect(&resource, Some("made-up-opaque-token")).await);
    assert_eq!(error.status, 401);
    assert!(error.to_string().contains("not active"), "{error}");

    // A legacy session serves only the token owner that started it.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}})
    .to_string();
    let bearer = format!("Bearer {token}");
    let common = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    let (status, head, _) = http(
        "POST",
        &resource,
        &initialize,
        &[common[0], common[1], ("Authorization", &bearer)],
    );
    assert_eq!(status, 200, "{head}");
    let session = head
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .to_owned();
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    // Another client's token, long-lived: the short client's (1 s) could
    // expire on a loaded machine before it is used, and answer 401.
    let other = format!(
        "Bearer {}",
        issuer.token("mcp-test-other", &resource, "calc")
    );
    for (who, status) in [(&other, 404), (&bearer, 200)] {
        let headers = [
            common[0],
            common[1],
            ("Authorization", who.as_str()),
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let (got, head, body) = http("POST", &resource, &list, &headers);
        assert_eq!(got, status, "{head}\n{body}");
    }
}

/// The user's part, answered programmatically: follows the issuer's
/// redirects (login, consent), keeping its cookies, until one leads to the
/// redirect URI.
struct ProgrammaticConsent {
    issuer: String,
    redirect_uri: String,
}

impl mcp_toolkit_runtime::client::auth::AuthorizationStep for ProgrammaticConsent {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> mcp_toolkit_runtime::client::auth::AuthorizeFuture<'a> {
        let (issuer, redirect_uri, url) = (
            self.issuer.clone(),
            self.redirect_uri.clone(),
            url.to_owned(),
        );
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut cookies: Vec<String> = Vec::new();
                let mut next = url;
                for _ in 0..10 {
                    let cookie = cookies.join("; ");
                    let headers: Vec<(&str, &str)> = if cookie.is_empty() {
                        vec![]
                    } else {
                        vec![("Cookie", cookie.as_str())]
                    };
                    let (status, head, body) = http("GET", &next, "", &headers);
                    let location = keep_cookies_and_find_redirect(&head, &mut cookies);
                    let Some(location) = location else {
                        return Err(ClientError::Authorization(format!(
                            "HTTP {status} without redirect: {body}"
                        )));
                    };
                    if location.starts_with(&redirect_uri) {
                        return Ok(location);
                    }
                    next = if location.starts_with('/') {
                        format!("{issuer}{location}")
                    } else {
                        location
                    };
                }
                Err(ClientError::Authorization("too many redirects".into()))
            })
            .await
            .expect("the consent thread")
        })
    }
}

type Saved = std::sync::Arc<std::sync::Mutex<Vec<mcp_toolkit_runtime::client::auth::StoredToken>>>;

/// Remembers every token the client keeps.
struct RecordingStore(Saved);

impl mcp_toolkit_runtime::client::auth::TokenStore for RecordingStore {
    fn load(&self, _: &str) -> Option<mcp_toolkit_runtime::client::auth::StoredToken> {
        self.0.lock().unwrap().last().cloned()
    }

    fn save(&self, _: &str, token: Option<&mcp_toolkit_runtime::client::auth::StoredToken>) {
        if let Some(token) = token {
            self.0.lock().unwrap().push(token.clone());
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn our_client_registers_authorizes_with_pkce_refreshes_and_calls_again() {
    use mcp_toolkit_runtime::client::auth::OAuthConfig;
    // Code-flow tokens live 1 s: every later request needs a refresh.
    let issuer = Issuer::start_with(&[("CODE_TTL", "1")]);
    let server = protected_server(&issuer);
    let saved = Saved::default();
    let step = ProgrammaticConsent {
        issuer: issuer.url.clone(),
        redirect_uri: "http://127.0.0.1:1/callback".into(),
    };
    let config = OAuthConfig::authorization_code("mcp-toolkit-test", step)
        .store(RecordingStore(saved.clone()));
    let options = ConnectOptions {
        oauth: Some(std::sync::Arc::new(config)),
        ..ConnectOptions::default()
    };
    let client = Client::connect_http_with(&server.url, options)
        .await
        .expect("authorized");
    let sum = client
        .call_tool("add", &json!({"a": 2, "b": 40}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 42})));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let me = client.call_tool("whoami", &json!({})).await.unwrap();
    let me = me.structured_content.unwrap();
    assert_eq!(me["subject"], "alice", "{me}");
    assert!(
        me["scopes"].as_array().unwrap().contains(&json!("calc")),
        "{me}"
    );

    let saved = saved.lock().unwrap().clone();
    assert!(
        saved.len() >= 2,
        "a token, then at least one refreshed one: {saved:?}"
    );
    assert!(
        saved[0].refresh_token.is_some(),
        "the code flow gave a refresh token"
    );
    assert_ne!(saved[0].access_token, saved[saved.len() - 1].access_token);
    assert!(saved.iter().all(|t| t.issuer == issuer.url));
    // The issuer offers DPoP: every token, refreshed ones too, is bound to
    // the one key the client made (RFC 9449 section 5: refresh keeps it).
    let key = saved[0].dpop_key.clone().expect("a DPoP-bound token");
    assert!(saved.iter().all(|t| t.dpop_key.as_ref() == Some(&key)));
}

/// Tokens by the server they were kept for.
#[derive(Clone, Default)]
struct KeyedStore(
    std::sync::Arc<std::sync::Mutex<Vec<(String, mcp_toolkit_runtime::client::auth::StoredToken)>>>,
);

impl mcp_toolkit_runtime::client::auth::TokenStore for KeyedStore {
    fn load(&self, key: &str) -> Option<mcp_toolkit_runtime::client::auth::StoredToken> {
        let saved = self.0.lock().unwrap();
        saved
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, t)| t.clone())
    }

    fn save(&self, key: &str, token: Option<&mcp_toolkit_runtime::client::auth::StoredToken>) {
        if let Some(token) = token {
            self.0.lock().unwrap().push((key.to_owned(), token.clone()));
        }
    }
}

/// A TCP relay to `target` that keeps a copy of every byte sent through it.
async fn recording_relay(target: String) -> (String, std::sync::Arc<std::sync::Mutex<Vec<u8>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let tee = seen.clone();
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let (target, tee) = (target.clone(), tee.clone());
            tokio::spawn(async move {
                let Ok(outbound) = tokio::net::TcpStream::connect(&target).await else {
                    return;
                };
                let (mut from_client, mut to_client) = inbound.into_split();
                let (mut from_server, mut to_server) = outbound.into_split();
                let upstream = async {
                    let mut buffer = [0u8; 8192];
                    while let Ok(n @ 1..) = from_client.read(&mut buffer).await {
                        tee.lock().unwrap().extend_from_slice(&buffer[..n]);
                        if to_server.write_all(&buffer[..n]).await.is_err() {
                            break;
                        }
                    }
                    let _ = to_server.shutdown().await;
                };
                let downstream = tokio::io::copy(&mut from_server, &mut to_client);
                let _ = tokio::join!(upstream, downstream);
            });
        }
    });
    (format!("http://127.0.0.1:{port}/mcp"), seen)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_never_reaches_another_server_of_the_same_issuer() {
    use mcp_toolkit_runtime::client::auth::OAuthConfig;
    let issuer = Issuer::start();
    let first = protected_server(&issuer);
    // The second server is reached through a relay that records what it
    // is sent; its canonical URL is the relay's.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let second_addr = listener.local_addr().unwrap().to_string();
    drop(listener);
    let (relay_url, seen) = recording_relay(second_addr.clone()).await;
    let port = second_addr.rsplit(':').next().unwrap().to_owned();
    let _second = HttpFixture::start_with_args(
        Path::new(env!("CARGO_BIN_EXE_echo-server")),
        &[
            "--auth-issuer",
            &issuer.url,
            "--resource",
            &relay_url,
            "--http",
            &port,
        ],
    );
    let store = KeyedStore::default();
    let step = ProgrammaticConsent {
        issuer: issuer.url.clone(),
        redirect_uri: "http://127.0.0.1:1/callback".into(),
    };
    let config = std::sync::Arc::new(
        OAuthConfig::authorization_code("mcp-toolkit-test", step).store(store.clone()),
    );
    let options = ConnectOptions {
        oauth: Some(config),
        ..ConnectOptions::default()
    };
    let a = Client::connect_http_with(&first.url, options.clone())
        .await
        .unwrap();
    a.call_tool("add", &json!({"a": 1, "b": 2})).await.unwrap();
    let b = Client::connect_http_with(&relay_url, options)
        .await
        .unwrap();
    b.call_tool("add", &json!({"a": 3, "b": 4})).await.unwrap();

    let saved = store.0.lock().unwrap().clone();
    let for_first: Vec<_> = saved.iter().filter(|(k, _)| *k == first.url).collect();
    let for_second: Vec<_> = saved.iter().filter(|(k, _)| *k == relay_url).collect();
    assert!(
        !for_first.is_empty() && !for_second.is_empty(),
        "{:?}",
        saved.iter().map(|(k, _)| k).collect::<Vec<_>>()
    );
    let traffic = String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    assert!(
        traffic.contains(&for_second[0].1.access_token),
        "the second server got its own token"
    );
    for (_, token) in for_first {
        assert!(
            !traffic.contains(&token.access_token),
            "the first server's token reached the second"
        );
    }
}

/// The official SDK clients with their own OAuth support (TypeScript
/// `authProvider`, Python `OAuthClientProvider`): they register,
/// authorize with PKCE (the user's part answered by the scripts), call
/// `add`, get their expired token refreshed and call again.
#[test]
fn official_sdk_clients_authorize_refresh_and_call_with_their_own_oauth() {
    // Code-flow tokens live 1 s; our server allows 5 s of leeway.
    let issuer = Issuer::start_with(&[("CODE_TTL", "1")]);
    let server = protected_server(&issuer);
    let clients: [(&Path, &str, &[&str]); 3] = [
        // The TypeScript SDK refreshes when the server refuses the token.
        (Path::new("node"), "ts_oauth_client.mjs", &["--wait", "7"]),
        // The Python SDK refreshes a token it knows has expired.
        (
            &python(),
            "py_oauth_client.py",
            &["--mode", "auto", "--wait", "2"],
        ),
        (
            &python(),
            "py_oauth_client.py",
            &["--mode", "legacy", "--wait", "2"],
        ),
    ];
    for (program, client, extra) in clients {
        let output = Command::new(program)
            .arg(script(client))
            .args(extra)
            .args(["--url", &server.url])
            .env("MCP_INTEROP_NODE_DIR", sdks().join("node"))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {client}: {e}"));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{client} {extra:?} failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: Value = serde_json::from_str(stdout.trim()).expect("a JSON summary");
        assert_eq!(summary["subject"], "alice", "{summary}");
        assert_eq!(summary["refreshed"], true, "{summary}");
        println!("{client} {extra:?}: {summary}");
    }
}

/// `mcp-host` configured for a protected server three ways: without
/// `oauth` (reported unavailable with the server's challenge), with the
/// client credentials grant (a secret from `${VAR}`), and with the
/// authorization code flow (the user's part answered programmatically;
/// tokens kept in a 0600 file).
#[tokio::test(flavor = "multi_thread")]
async fn the_host_authorizes_as_its_configuration_says() {
    use mcp_toolkit_host::{AlwaysAllow, CallOptions, Config, Host, HostOptions};

    let issuer = Issuer::start();
    let server = protected_server(&issuer);
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.json");
    let config = json!({"mcpServers": {
        "plain": {"url": server.url},
        "machine": {"url": server.url, "oauth": {
            "grant": "client_credentials", "clientId": "mcp-test", "clientSecret": "${MCP_TEST_SECRET}"
        }},
        "user": {"url": server.url, "oauth": {"tokenFile": tokens}}
    }});
    let env = |name: &str| (name == "MCP_TEST_SECRET").then(|| "test-secret".to_owned());
    let config = Config::parse(&config.to_string(), env).unwrap();
    assert!(
        !format!("{config:?}").contains("test-secret"),
        "the secret stays out of debug output"
    );
    let step = ProgrammaticConsent {
        issuer: issuer.url.clone(),
        redirect_uri: "http://127.0.0.1:1/callback".into(),
    };
    let options = HostOptions {
        authorization_step: Some(std::sync::Arc::new(step)),
        ..HostOptions::default()
    };
    let host = Host::start(config.clone(), options).await;
    let states: std::collections::BTreeMap<_, _> = host
        .servers()
        .into_iter()
        .map(|status| (status.name, status.state))
        .collect();
    let plain = states["plain"].as_ref().unwrap_err();
    assert!(
        plain.contains("401") && plain.contains("resource_metadata"),
        "{plain}"
    );
    assert!(states["machine"].is_ok(), "{states:?}");
    assert!(states["user"].is_ok(), "{states:?}");

    let yes = AlwaysAllow;
    let calls = CallOptions::new(&yes);
    let who = |server: &'static str| {
        let host = &host;
        let calls = &calls;
        async move {
            let outcome = host
                .call(&format!("{server}.whoami"), json!({}), calls)
                .await
                .unwrap();
            outcome.result.structured_content.unwrap()
        }
    };
    assert_eq!(who("machine").await["client_id"], "mcp-test");
    assert_eq!(who("user").await["subject"], "alice");

    let saved = std::fs::read_to_string(&tokens).expect("the token file");
    assert!(saved.contains("access_token"), "{saved}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&tokens).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    host.shutdown(Duration::from_millis(100)).await;

    // Without a way to ask the user, the stored token still serves; where
    // the code flow would have to run, the host says why.
    let config = json!({"mcpServers": {
        "user": {"url": server.url, "oauth": {"tokenFile": tokens}},
        "stranger": {"url": server.url, "oauth": {}}
    }});
    let config = Config::parse(&config.to_string(), |_| None).unwrap();
    let host = Host::start(config, HostOptions::default()).await;
    let states: std::collections::BTreeMap<_, _> = host
        .servers()
        .into_iter()
        .map(|status| (status.name, status.state))
        .collect();
    assert!(states["user"].is_ok(), "{states:?}");
    let why = states["stranger"].as_ref().unwrap_err();
    assert!(why.contains("authorization_step"), "{why}");
}

/// A user who takes `delay` to approve.
struct Slowly<S>(S, Duration);

impl<S: mcp_toolkit_runtime::client::auth::AuthorizationStep>
    mcp_toolkit_runtime::client::auth::AuthorizationStep for Slowly<S>
{
    fn redirect_uri(&self) -> String {
        self.0.redirect_uri()
    }

    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> mcp_toolkit_runtime::client::auth::AuthorizeFuture<'a> {
        Box::pin(async move {
            tokio::time::sleep(self.1).await;
            self.0.authorize(url).await
        })
    }
}

/// The user's time in the browser counts against no client time limit:
/// a user who takes 3 s to approve is fine under limits of 1 to 2 s.
#[tokio::test(flavor = "multi_thread")]
async fn the_time_a_user_takes_to_approve_counts_against_no_limit() {
    use mcp_toolkit_runtime::client::auth::OAuthConfig;
    let issuer = Issuer::start();
    let server = protected_server(&issuer);
    let step = ProgrammaticConsent {
        issuer: issuer.url.clone(),
        redirect_uri: "http://127.0.0.1:1/callback".into(),
    };
    let config =
        OAuthConfig::authorization_code("mcp-toolkit-test", Slowly(step, Duration::from_secs(3)));
    let options = ConnectOptions {
        oauth: Some(std::sync::Arc::new(config)),
        request_timeout: Duration::from_secs(1),
        discover_timeout: Duration::from_secs(1),
        connect_timeout: Some(Duration::from_secs(2)),
        ..ConnectOptions::default()
    };
    let started = std::time::Instant::now();
    let client = Client::connect_http_with(&server.url, options)
        .await
        .expect("authorized although the user took longer than every limit");
    assert!(started.elapsed() >= Duration::from_secs(3));
    let me = client.call_tool("whoami", &json!({})).await.unwrap();
    assert_eq!(me.structured_content.unwrap()["subject"], "alice");
}
