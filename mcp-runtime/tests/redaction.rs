//! No credential or OAuth parameter in a URL reaches an error, a `Debug`
//! output or a log line: URLs carrying `user:password@`, `?token=`,
//! `state=`, `code=` and a fragment are connected to (a closed port, a
//! server that hangs up, a malformed URL) and used for OAuth (discovery
//! and token requests against a fake authorization server), and every
//! error's `Display` and `Debug`, and everything logged meanwhile (at
//! TRACE, every crate), is searched for them.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper::{Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_toolkit_runtime::client::auth::{
    ClientCredentials, ClientSecret, FollowRedirect, OAuthConfig,
};
use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions};
use serde_json::json;

/// What must never be shown, whatever the URL carried it in.
const SECRETS: [&str; 7] = [
    "hunter2",
    "user:",
    "tok-secret",
    "state=",
    "code-secret",
    "code_challenge",
    "frag-secret",
];

/// Query and fragment that carry secrets, for any URL.
const TAIL: &str = "?token=tok-secret&state=st-secret&code=code-secret#frag-secret";

/// Everything logged by this test binary, at every level.
fn log() -> &'static Mutex<Vec<u8>> {
    static LOG: OnceLock<Mutex<Vec<u8>>> = OnceLock::new();
    static INSTALLED: OnceLock<()> = OnceLock::new();
    let log = LOG.get_or_init(Mutex::default);
    INSTALLED.get_or_init(|| {
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(|| Capture)
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
    });
    log
}

struct Capture;

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        log().lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Connects to `url` and returns the error, after checking that neither
/// it (shown and debugged) nor the log holds a secret.
async fn failure(url: &str, options: ConnectOptions) -> ClientError {
    log();
    let outcome = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        Client::connect_http_with(url, options),
    )
    .await
    .expect("the failure comes in time");
    let error = match outcome {
        Err(error) => error,
        Ok(_) => panic!("{url}: connected"),
    };
    let shown = format!("{error}\n{error:?}");
    assert_no_secret(&shown, &format!("the error for {url}"));
    let logged = String::from_utf8_lossy(&log().lock().unwrap()).into_owned();
    assert_no_secret(&logged, "the log");
    error
}

fn assert_no_secret(text: &str, what: &str) {
    for secret in SECRETS {
        assert!(!text.contains(secret), "{what} shows {secret:?}:\n{text}");
    }
}

fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test]
async fn connect_errors_show_no_credentials() {
    let port = closed_port();
    let refused = failure(
        &format!("http://user:hunter2@127.0.0.1:{port}/mcp{TAIL}"),
        ConnectOptions::default(),
    )
    .await;
    assert!(matches!(refused, ClientError::Connect(_)), "{refused}");
    assert!(
        refused
            .to_string()
            .contains(&format!("127.0.0.1:{port}/mcp")),
        "the error still names the server: {refused}"
    );
    let unsupported = failure(
        &format!("ftp://user:hunter2@127.0.0.1:{port}/mcp{TAIL}"),
        ConnectOptions::default(),
    )
    .await;
    assert!(
        matches!(unsupported, ClientError::Connect(_)),
        "{unsupported}"
    );
    // A password with an unescaped `?`, `/` or `#` ends the authority
    // early: the part before it must not be shown as the host.
    for password in ["hunter2?x", "hunter2/x", "hunter2#x"] {
        failure(
            &format!("http://user:{password}@127.0.0.1:{port}/mcp{TAIL}"),
            ConnectOptions::default(),
        )
        .await;
    }
    let malformed = failure(
        &format!("http://user:hunter2@127.0.0.1:{port}/m cp{TAIL}"),
        ConnectOptions::default(),
    )
    .await;
    assert!(
        matches!(malformed, ClientError::InvalidArguments(_)),
        "{malformed}"
    );
}

/// What the fake answers on a path: status, extra headers, body.
type Route = (StatusCode, Vec<(&'static str, String)>, String);

/// A fake MCP server and authorization server on one free port; `routes`
/// get its base URL. An unknown path closes the connection unanswered.
async fn fake(routes: impl FnOnce(&str) -> HashMap<&'static str, Route>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let routes = Arc::new(routes(&base));
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let routes = routes.clone();
            tokio::spawn(async move {
                let handler = service_fn(move |request: hyper::Request<_>| {
                    let route = routes.get(request.uri().path()).cloned();
                    async move {
                        let Some((status, headers, body)) = route else {
                            return Err("hang up");
                        };
                        let mut response = Response::new(Full::new(Bytes::from(body)));
                        *response.status_mut() = status;
                        for (name, value) in headers {
                            response.headers_mut().insert(name, value.parse().unwrap());
                        }
                        Ok::<_, &str>(response)
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(tcp), handler)
                    .await;
            });
        }
    });
    base
}

fn challenge(resource_metadata: &str) -> Route {
    let value = format!("Bearer resource_metadata=\"{resource_metadata}\"");
    (
        StatusCode::UNAUTHORIZED,
        vec![("www-authenticate", value)],
        String::new(),
    )
}

fn ok_json(value: serde_json::Value) -> Route {
    (
        StatusCode::OK,
        vec![("content-type", "application/json".to_owned())],
        value.to_string(),
    )
}

fn client_credentials() -> ConnectOptions {
    let credentials = ClientCredentials::new("c", ClientSecret::Secret("s".into()));
    ConnectOptions {
        oauth: Some(Arc::new(OAuthConfig::client_credentials(credentials))),
        ..ConnectOptions::default()
    }
}

/// A server whose resource and authorization server metadata are fine,
/// with `endpoints` (built from the base URL) in the latter.
async fn authorization_server(
    endpoints: impl FnOnce(&str) -> serde_json::Value,
    extra: Vec<(&'static str, Route)>,
) -> String {
    fake(|base| {
        let mut metadata = json!({ "issuer": base });
        for (name, value) in endpoints(base).as_object().unwrap() {
            metadata[name] = value.clone();
        }
        let mut routes = HashMap::from([
            ("/mcp", challenge(&format!("{base}/prm"))),
            (
                "/prm",
                ok_json(
                    json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]}),
                ),
            ),
            ("/.well-known/oauth-authorization-server", ok_json(metadata)),
        ]);
        routes.extend(extra);
        routes
    })
    .await
}

#[tokio::test]
async fn oauth_discovery_failures_name_the_endpoint_not_its_parameters() {
    // A metadata URL with a query is refused; with userinfo it is fetched
    // and fails.
    let base = fake(|base| {
        HashMap::from([
            ("/mcp", challenge(&format!("{base}/prm{TAIL}"))),
            (
                "/userinfo/mcp",
                challenge(&base.replace("http://", "http://user:hunter2@")),
            ),
        ])
    })
    .await;
    let refused = failure(&format!("{base}/mcp"), client_credentials()).await;
    assert!(
        matches!(refused, ClientError::Authorization(_)),
        "{refused}"
    );
    let shown = refused.to_string();
    assert!(shown.contains(&format!("{base}/prm is not")), "{shown}");
    assert!(shown.contains("has a query or fragment"), "{shown}");
    let unanswered = failure(&format!("{base}/userinfo/mcp"), client_credentials()).await;
    assert!(
        matches!(unanswered, ClientError::Authorization(_)),
        "{unanswered}"
    );
}

#[tokio::test]
async fn oauth_token_failures_name_the_endpoint_not_its_parameters() {
    // The token endpoint answers 400; then it is a closed port.
    let refusing = authorization_server(
        |base| {
            json!({"token_endpoint": format!("{}/token", base.replace("http://", "http://user:hunter2@"))})
        },
        vec![(
            "/token",
            (
                StatusCode::BAD_REQUEST,
                vec![("content-type", "application/json".to_owned())],
                json!({"error": "invalid_client"}).to_string(),
            ),
        )],
    )
    .await;
    let error = failure(&format!("{refusing}/mcp"), client_credentials()).await;
    let shown = error.to_string();
    assert!(
        shown.contains(&format!("{refusing}/token answered HTTP 400")),
        "{shown}"
    );
    let port = closed_port();
    let closed = authorization_server(
        |_| json!({"token_endpoint": format!("http://user:hunter2@127.0.0.1:{port}/token")}),
        Vec::new(),
    )
    .await;
    let error = failure(&format!("{closed}/mcp"), client_credentials()).await;
    assert!(error.to_string().contains("refused"), "{error}");
}

#[tokio::test]
async fn a_failed_authorization_request_does_not_show_its_state() {
    // The authorization URL carries `state` and the PKCE challenge: a
    // malformed endpoint makes it unparseable, a closed one unreachable.
    let port = closed_port();
    for endpoint in [
        "/author ize".to_owned(),
        format!("http://user:hunter2@127.0.0.1:{port}/authorize"),
    ] {
        let base = authorization_server(
            |base| {
                let endpoint = match endpoint.starts_with('/') {
                    true => format!("{base}{endpoint}"),
                    false => endpoint.clone(),
                };
                json!({"authorization_endpoint": endpoint, "token_endpoint": format!("{base}/token")})
            },
            Vec::new(),
        )
        .await;
        let config = OAuthConfig::authorization_code(
            "redaction-test",
            FollowRedirect::new("http://127.0.0.1:1/callback"),
        )
        .pre_registered(ClientCredentials::new("c", ClientSecret::None));
        let options = ConnectOptions {
            oauth: Some(Arc::new(config)),
            ..ConnectOptions::default()
        };
        let error = failure(&format!("{base}/mcp"), options).await;
        assert!(matches!(error, ClientError::Authorization(_)), "{error}");
    }
}

#[tokio::test]
async fn a_server_that_hangs_up_is_named_without_credentials() {
    let base = fake(|_| HashMap::new()).await;
    let url = base.replace("http://", "http://user:hunter2@") + "/mcp" + TAIL;
    let error = failure(&url, ConnectOptions::default()).await;
    assert!(
        error.to_string().contains(&format!("{base}/mcp")),
        "{error}"
    );
}

/// A DPoP-bound token (RFC 9449) the server keeps refusing: the client's
/// private key (read back from its token file), the token and the proofs
/// it signed appear in no error and no log line.
#[tokio::test]
async fn a_dpop_key_token_and_proofs_stay_out_of_errors_and_logs() {
    let base = authorization_server(
        |base| {
            json!({"token_endpoint": format!("{base}/token"),
                   "dpop_signing_alg_values_supported": ["ES256"]})
        },
        vec![(
            "/token",
            ok_json(json!({"access_token": "tok-secret-dpop", "token_type": "DPoP"})),
        )],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens.json");
    let credentials = ClientCredentials::new("c", ClientSecret::Secret("s".into()));
    let config = OAuthConfig::client_credentials(credentials).store(
        mcp_toolkit_runtime::client::auth::FileTokenStore::new(&file),
    );
    let options = ConnectOptions {
        oauth: Some(Arc::new(config)),
        ..ConnectOptions::default()
    };
    // The first request gets the token, which the server keeps refusing
    // (each retry with a new proof).
    let error = failure(&format!("{base}/mcp"), options).await;
    assert!(matches!(error, ClientError::Auth(_)), "{error}");
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let token = &kept["servers"][format!("{base}/mcp")]["token"];
    assert_eq!(token["access_token"], "tok-secret-dpop", "{kept}");
    let key = token["dpop_key"]["pkcs8"]
        .as_str()
        .expect("the key is kept");
    let logged = String::from_utf8_lossy(&log().lock().unwrap()).into_owned();
    let shown = format!("{error}\n{error:?}");
    for text in [&logged, &shown] {
        assert!(!text.contains(key), "the key shows:\n{text}");
        // A proof's header is always this Base64url prefix ({"typ":"dpop+jwt").
        assert!(
            !text.contains("eyJ0eXAiOiJkcG9wK2p3dCI"),
            "a proof shows:\n{text}"
        );
    }
}
