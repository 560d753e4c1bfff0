//! Against a hostile issuer. A protected server's token verification: its
//! metadata and key documents are wrong, oversized or redirect elsewhere,
//! and its clients send floods of tokens naming unknown keys. And the
//! client's OAuth flow: the metadata and token responses are wrong,
//! oversized, malformed, redirect elsewhere or never come. Every case is a
//! clear error within bounded time, none a panic, and a flood costs one key
//! fetch.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper::{Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_toolkit_runtime::server::auth::{JwtVerifier, TokenError, TokenVerifier};
use serde_json::json;

/// What the hostile issuer answers on a path: status, extra header, body.
type Route = (StatusCode, Option<(&'static str, String)>, String);

/// An issuer on a free port serving `routes` (built from its own URL, and
/// changed with [`Hostile::route`]); counts the requests per path.
struct Hostile {
    url: String,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    routes: Arc<Mutex<HashMap<String, Route>>>,
}

impl Hostile {
    async fn start(routes: impl Fn(&str) -> HashMap<String, Route>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let routes = Arc::new(Mutex::new(routes(&url)));
        let served = routes.clone();
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let counted = hits.clone();
        tokio::spawn(async move {
            let routes = served;
            while let Ok((tcp, _)) = listener.accept().await {
                let (routes, hits) = (routes.clone(), counted.clone());
                tokio::spawn(async move {
                    let handler = service_fn(move |request: hyper::Request<_>| {
                        let path = request.uri().path().to_owned();
                        *hits.lock().unwrap().entry(path.clone()).or_default() += 1;
                        let route = routes.lock().unwrap().get(&path).cloned();
                        let (status, header, body) =
                            route.unwrap_or((StatusCode::NOT_FOUND, None, String::new()));
                        let hang = body == HANG;
                        let mut response = Response::new(Full::new(Bytes::from(body)));
                        *response.status_mut() = status;
                        if let Some((name, value)) = header {
                            response.headers_mut().insert(name, value.parse().unwrap());
                        }
                        async move {
                            if hang {
                                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                            }
                            Ok::<_, Infallible>(response)
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tcp), handler)
                        .await;
                });
            }
        });
        Hostile { url, hits, routes }
    }

    /// Answers `path` with `route` from now on.
    fn route(&self, path: &str, route: Route) {
        self.routes.lock().unwrap().insert(path.to_owned(), route);
    }

    fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }
}

/// A body that makes the route never answer.
const HANG: &str = "(never answers)";

fn ok(body: serde_json::Value) -> Route {
    (StatusCode::OK, None, body.to_string())
}

/// A public P-256 key (RFC 7517 appendix A.1), marked for signatures.
fn jwks() -> serde_json::Value {
    json!({"keys": [{
        "kty": "EC", "crv": "P-256", "use": "sig", "kid": "known",
        "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
        "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"
    }]})
}

fn token(kid: &str) -> String {
    let header = URL_SAFE_NO_PAD.encode(json!({"alg": "ES256", "kid": kid}).to_string());
    let claims = URL_SAFE_NO_PAD.encode(r#"{"iss":"x","aud":"y","exp":99999999999}"#);
    format!("{header}.{claims}.c2lnbmF0dXJl")
}

const RESOURCE: &str = "http://127.0.0.1:1/mcp";

fn unavailable(outcome: Result<impl std::fmt::Debug, TokenError>) -> String {
    match outcome {
        Err(TokenError::Unavailable(why)) => why,
        other => panic!("expected an unavailable issuer, got {other:?}"),
    }
}

#[tokio::test]
async fn a_flood_of_unknown_key_ids_costs_one_key_fetch() {
    let issuer = Hostile::start(|url| {
        HashMap::from([
            (
                "/.well-known/oauth-authorization-server".to_owned(),
                ok(json!({"issuer": url, "jwks_uri": format!("{url}/jwks")})),
            ),
            ("/jwks".to_owned(), ok(jwks())),
        ])
    })
    .await;
    let verifier = JwtVerifier::new(&issuer.url, RESOURCE).unwrap();
    for i in 0..200 {
        match verifier.verify(&token(&format!("made-up-{i}"))).await {
            Err(TokenError::Invalid(why)) => assert!(why.contains("does not publish"), "{why}"),
            other => panic!("unknown kid {i}: {other:?}"),
        }
    }
    assert_eq!(
        issuer.hits("/jwks"),
        1,
        "the key set is fetched once per interval"
    );
    assert_eq!(issuer.hits("/.well-known/oauth-authorization-server"), 1);
    // A known key with a bad signature is refused without a fetch.
    assert!(matches!(
        verifier.verify(&token("known")).await,
        Err(TokenError::Invalid(_))
    ));
    assert_eq!(issuer.hits("/jwks"), 1);
}

#[tokio::test]
async fn metadata_naming_another_issuer_is_refused() {
    let issuer = Hostile::start(|_| {
        HashMap::from([(
            "/.well-known/oauth-authorization-server".to_owned(),
            ok(json!({"issuer": "https://evil.example", "jwks_uri": "https://evil.example/jwks"})),
        )])
    })
    .await;
    let verifier = JwtVerifier::new(&issuer.url, RESOURCE).unwrap();
    let why = unavailable(verifier.verify(&token("k")).await);
    assert!(
        why.contains("names the issuer \"https://evil.example\""),
        "{why}"
    );
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let issuer = Hostile::start(|_| {
        let redirect = (
            StatusCode::FOUND,
            Some(("location", "https://evil.example/metadata".to_owned())),
            String::new(),
        );
        HashMap::from([
            (
                "/.well-known/oauth-authorization-server".to_owned(),
                redirect.clone(),
            ),
            ("/.well-known/openid-configuration".to_owned(), redirect),
        ])
    })
    .await;
    let verifier = JwtVerifier::new(&issuer.url, RESOURCE).unwrap();
    let why = unavailable(verifier.verify(&token("k")).await);
    assert!(why.contains("redirects are not followed"), "{why}");
}

#[tokio::test]
async fn oversized_and_malformed_key_sets_are_refused() {
    let huge = format!("{{\"keys\": [], \"pad\": \"{}\"}}", "x".repeat(300 * 1024));
    for (body, expected) in [
        (huge, "at most"),
        ("{\"keys\": 3}".to_owned(), "not a JWK set"),
        (
            "{\"keys\": [{\"kty\": \"nope\"}]}".to_owned(),
            "no usable key",
        ),
        ("not json".to_owned(), "unreadable document"),
    ] {
        let issuer = Hostile::start(move |url| {
            HashMap::from([
                (
                    "/.well-known/oauth-authorization-server".to_owned(),
                    ok(json!({"issuer": url, "jwks_uri": format!("{url}/jwks")})),
                ),
                ("/jwks".to_owned(), (StatusCode::OK, None, body.clone())),
            ])
        })
        .await;
        let verifier = JwtVerifier::new(&issuer.url, RESOURCE).unwrap();
        let why = unavailable(verifier.verify(&token("k")).await);
        assert!(why.contains(expected), "{expected}: {why}");
    }
}

#[tokio::test]
async fn malformed_tokens_are_refused_before_any_fetch() {
    let issuer = Hostile::start(|_| HashMap::new()).await;
    let verifier = JwtVerifier::new(&issuer.url, RESOURCE).unwrap();
    let none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#),
        URL_SAFE_NO_PAD.encode("{}")
    );
    let hmac = format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode(r#"{"alg":"HS256"}"#));
    for bad in ["", "garbage", "a.b.c", &none, &hmac, &"a".repeat(20_000)] {
        assert!(
            matches!(verifier.verify(bad).await, Err(TokenError::Invalid(_))),
            "{}",
            &bad[..bad.len().min(40)]
        );
    }
    assert_eq!(
        issuer.hits.lock().unwrap().len(),
        0,
        "no document was fetched"
    );
}

#[test]
fn issuers_must_use_https_except_on_loopback() {
    assert!(JwtVerifier::new("http://auth.example.com", RESOURCE).is_err());
    assert!(JwtVerifier::new("https://auth.example.com/?x=1", RESOURCE).is_err());
    assert!(JwtVerifier::new("http://127.0.0.1:9000", RESOURCE).is_ok());
    assert!(JwtVerifier::new("https://auth.example.com", RESOURCE).is_ok());
    assert!(
        JwtVerifier::new("https://auth.example.com", RESOURCE)
            .unwrap()
            .algorithms(&["HS256"])
            .is_err()
    );
}

#[tokio::test]
async fn introspected_expiries_of_any_number_form_are_checked() {
    use mcp_toolkit_runtime::server::auth::IntrospectionVerifier;
    for (exp, accepted) in [
        (json!(1.5), false),
        (json!(-1), false),
        (json!("tomorrow"), false),
        (json!(1e12), true),
        (json!(u64::MAX), true),
        (json!(null), true),
    ] {
        let answer = json!({"active": true, "aud": RESOURCE, "exp": exp});
        let issuer = Hostile::start(move |_| {
            HashMap::from([("/introspect".to_owned(), ok(answer.clone()))])
        })
        .await;
        let endpoint = format!("{}/introspect", issuer.url);
        let verifier = IntrospectionVerifier::new(&endpoint, RESOURCE).unwrap();
        match verifier.verify("opaque").await {
            Ok(_) => assert!(accepted, "exp {exp}: accepted"),
            Err(TokenError::Invalid(why)) => {
                assert!(!accepted, "exp {exp}: refused ({why})");
                assert!(why.contains("expired"), "{why}");
            }
            Err(other) => panic!("exp {exp}: {other:?}"),
        }
    }
}

/// Token lifetimes no issuer should send: each is read without a panic,
/// as a year when it claims more (or the number overflows) and as unknown
/// when it is no positive number, and a client that makes several
/// requests asks for one token, not one per request.
mod token_lifetimes {
    use std::thread::ThreadId;
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use mcp_toolkit_runtime::client::auth::{
        AuthorizationStep, AuthorizeFuture, ClientCredentials, ClientSecret, MemoryTokenStore,
        OAuthConfig, StoreLock, StoredEntry, StoredIssuer, StoredRegistration, StoredToken,
        TokenStore,
    };
    use mcp_toolkit_runtime::client::{Client, ConnectOptions};
    use mcp_toolkit_runtime::lifetime::MAX_LIFETIME;
    use mcp_toolkit_runtime::protocol::CallToolResult;
    use mcp_toolkit_runtime::server::auth::{AuthConfig, Principal, VerifyFuture};
    use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
    use mcp_toolkit_runtime::transport::HttpConfig;

    use super::*;

    /// The one access token the issuer issues.
    const ISSUED: &str = "issued-token";

    /// Accepts [`ISSUED`] only.
    struct Issued;

    impl TokenVerifier for Issued {
        fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
            Box::pin(async move {
                if token == ISSUED {
                    Ok(Principal::from_claims(serde_json::Map::new()))
                } else {
                    Err(TokenError::Invalid("unknown token".into()))
                }
            })
        }
    }

    /// The client's token store, which the test reads too; it records
    /// which of its methods were called, and on which thread.
    #[derive(Clone, Default)]
    struct Shared {
        inner: Arc<MemoryTokenStore>,
        calls: Arc<Mutex<Vec<(&'static str, ThreadId)>>>,
    }

    impl Shared {
        fn record(&self, method: &'static str) {
            let thread = std::thread::current().id();
            self.calls.lock().unwrap().push((method, thread));
        }

        /// The methods called that change the store, in order.
        fn changes(&self) -> Vec<&'static str> {
            let calls = self.calls.lock().unwrap();
            let changes = ["save", "save_issuer", "update"];
            calls
                .iter()
                .map(|(method, _)| *method)
                .filter(|method| changes.contains(method))
                .collect()
        }

        /// The methods called on `thread`.
        fn called_on(&self, thread: ThreadId) -> Vec<&'static str> {
            let calls = self.calls.lock().unwrap();
            calls
                .iter()
                .filter(|(_, on)| *on == thread)
                .map(|(method, _)| *method)
                .collect()
        }
    }

    impl TokenStore for Shared {
        fn load(&self, resource: &str) -> Option<StoredToken> {
            self.record("load");
            self.inner.load(resource)
        }

        fn save(&self, resource: &str, token: Option<&StoredToken>) {
            self.record("save");
            self.inner.save(resource, token);
        }

        fn load_issuer(&self, server: &str, issuer: &str) -> Option<StoredIssuer> {
            self.record("load_issuer");
            self.inner.load_issuer(server, issuer)
        }

        fn save_issuer(&self, server: &str, issuer: &str, record: Option<&StoredIssuer>) {
            self.record("save_issuer");
            self.inner.save_issuer(server, issuer, record);
        }

        fn update(&self, server: &str, issuer: &str, change: &mut dyn FnMut(&mut StoredEntry)) {
            self.record("update");
            self.inner.update(server, issuer, change);
        }

        fn try_lock(&self, server: &str) -> std::io::Result<Option<StoreLock>> {
            self.record("try_lock");
            self.inner.try_lock(server)
        }
    }

    fn now() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs()
    }

    /// An MCP server with an `echo` tool on a free port, whose tokens come
    /// from `issuer`: its URL.
    async fn protected_server(issuer: &str) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let server = Server::builder(mcp_toolkit_runtime::server_info!())
            .tool(
                ToolDef::new("echo", |call: ToolCall| async move {
                    Ok(CallToolResult::text(call.argument::<String>("text")?))
                })
                .input_schema(json!({"type": "object"})),
            )
            .build()
            .unwrap();
        let auth = AuthConfig::new(&url, Issued)
            .unwrap()
            .authorization_server(issuer)
            .unwrap();
        let config = HttpConfig {
            auth: Some(auth),
            ..HttpConfig::default()
        };
        tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));
        url
    }

    /// A client of a protected server whose issuer answers `expires_in`
    /// (with a refresh token, so that a token taken for expired is
    /// refreshed).
    struct Setup {
        issuer: Hostile,
        url: String,
        store: Shared,
        client: Client,
    }

    /// What the issuer answers a token request with.
    fn issued(expires_in: serde_json::Value) -> Route {
        ok(json!({
            "access_token": ISSUED,
            "token_type": "Bearer",
            "refresh_token": "refresh",
            "expires_in": expires_in,
        }))
    }

    impl Setup {
        async fn connect(expires_in: serde_json::Value) -> Self {
            Setup::connect_with(expires_in, Duration::from_secs(2)).await
        }

        /// With `timeout` for the issuer's answers.
        async fn connect_with(expires_in: serde_json::Value, timeout: Duration) -> Self {
            let issuer = Hostile::start(move |url| {
                HashMap::from([
                    (
                        "/.well-known/oauth-authorization-server".to_owned(),
                        ok(json!({"issuer": url, "token_endpoint": format!("{url}/token")})),
                    ),
                    ("/token".to_owned(), issued(expires_in.clone())),
                ])
            })
            .await;
            let url = protected_server(&issuer.url).await;
            let store = Shared::default();
            let credentials = ClientCredentials::new("c", ClientSecret::Secret("s".into()));
            let config = OAuthConfig::client_credentials(credentials)
                .store(store.clone())
                .timeout(timeout);
            let options = ConnectOptions {
                oauth: Some(Arc::new(config)),
                request_timeout: Duration::from_secs(10),
                ..ConnectOptions::default()
            };
            let client = Client::connect_http_with(&url, options).await.unwrap();
            Setup {
                issuer,
                url,
                store,
                client,
            }
        }

        /// Calls `echo` five times.
        async fn five_calls(&self) {
            for i in 0..5 {
                let text = i.to_string();
                let result = self
                    .client
                    .call_tool("echo", &json!({ "text": text }))
                    .await
                    .unwrap();
                assert_eq!(result.content[0].as_text(), Some(text.as_str()));
            }
        }

        fn token(&self) -> StoredToken {
            self.store
                .load(&self.url)
                .expect("the client keeps its token")
        }
    }

    /// Five calls with an issuer that answers `expires_in`: the token the
    /// client keeps, and how many token requests it made.
    async fn five_calls(expires_in: serde_json::Value) -> (StoredToken, usize) {
        let setup = Setup::connect(expires_in).await;
        setup.five_calls().await;
        (setup.token(), setup.issuer.hits("/token"))
    }

    #[tokio::test]
    async fn a_lifetime_past_a_year_is_a_year() {
        let year = MAX_LIFETIME.as_secs();
        for expires_in in [json!(u64::MAX), json!(1e308), json!("99999999999")] {
            let before = now();
            let (token, requests) = five_calls(expires_in.clone()).await;
            assert_eq!(requests, 1, "expires_in {expires_in}: token requests");
            let at = token.expires_at.expect("a known expiry");
            assert!(
                (before + year..=now() + year).contains(&at),
                "expires_in {expires_in}: expires at {at}, {} s from now",
                at.saturating_sub(now())
            );
            assert!(!token.is_expired());
        }
    }

    #[tokio::test]
    async fn a_lifetime_that_is_no_positive_number_is_unknown() {
        for expires_in in [json!(-1), json!("soon"), json!(0), json!(null)] {
            let (token, requests) = five_calls(expires_in.clone()).await;
            assert_eq!(requests, 1, "expires_in {expires_in}: token requests");
            assert_eq!(token.expires_at, None, "expires_in {expires_in}");
        }
    }

    #[tokio::test]
    async fn a_lifetime_in_a_string_is_read() {
        let before = now();
        let (token, requests) = five_calls(json!("3600")).await;
        assert_eq!(requests, 1);
        let at = token.expires_at.expect("a known expiry");
        assert!((before + 3600..=now() + 3600).contains(&at), "{at}");
    }

    #[tokio::test]
    async fn a_token_is_refreshed_once_per_lifetime_not_on_every_use() {
        // 8 s (as a number and as a string), shorter than the 30 s a token
        // is usually renewed early: renewed at half its lifetime (4 to 5 s
        // after it was issued, Unix seconds being whole), so five calls
        // right away use it, and five after that renew it once.
        for expires_in in [json!(8), json!("8")] {
            let setup = Setup::connect(expires_in.clone()).await;
            setup.five_calls().await;
            assert_eq!(setup.issuer.hits("/token"), 1, "{expires_in}: at first");
            tokio::time::sleep(Duration::from_millis(5500)).await;
            setup.five_calls().await;
            assert_eq!(setup.issuer.hits("/token"), 2, "{expires_in}: one renewal");
        }
    }

    /// An issuer's routes: metadata and a token endpoint that issues
    /// tokens for an hour.
    fn issuer_routes(url: &str) -> HashMap<String, Route> {
        HashMap::from([
            (
                "/.well-known/oauth-authorization-server".to_owned(),
                ok(metadata(url)),
            ),
            ("/token".to_owned(), issued(json!(3600))),
        ])
    }

    /// The metadata of the issuer at `url`.
    fn metadata(url: &str) -> serde_json::Value {
        json!({
            "issuer": url,
            "authorization_endpoint": format!("{url}/authorize"),
            "token_endpoint": format!("{url}/token"),
        })
    }

    /// Approves every authorization request at once, keeping its URL.
    #[derive(Clone)]
    struct Approve {
        redirect_uri: String,
        asked: Arc<Mutex<Vec<String>>>,
    }

    impl AuthorizationStep for Approve {
        fn redirect_uri(&self) -> String {
            self.redirect_uri.clone()
        }

        fn authorize<'a>(&'a self, url: &'a str) -> AuthorizeFuture<'a> {
            Box::pin(async move {
                self.asked.lock().unwrap().push(url.to_owned());
                let state = url
                    .split(['?', '&'])
                    .find_map(|pair| pair.strip_prefix("state="))
                    .expect("a state");
                Ok(format!("{}?code=approved&state={state}", self.redirect_uri))
            })
        }
    }

    /// The client was registered at the issuer (a stored registration that
    /// takes its redirect URI) and is configured with credentials too: the
    /// configured ones are used, as a refresh would.
    #[tokio::test]
    async fn configured_credentials_come_before_a_stored_registration() {
        let issuer = Hostile::start(issuer_routes).await;
        let url = protected_server(&issuer.url).await;
        let step = Approve {
            redirect_uri: "http://127.0.0.1:1/callback".to_owned(),
            asked: Arc::default(),
        };
        let store = Shared::default();
        let metadata = serde_json::from_value(metadata(&issuer.url)).unwrap();
        let stored = StoredRegistration::new("stored", None, "none", Some(step.redirect_uri()));
        let record = StoredIssuer::new(metadata, &url, Some(stored));
        store.inner.save_issuer(&url, &issuer.url, Some(&record));
        let config = OAuthConfig::authorization_code("app", step.clone())
            .pre_registered(ClientCredentials::new("configured", ClientSecret::None))
            .store(store.clone())
            .timeout(Duration::from_secs(2));
        let options = ConnectOptions {
            oauth: Some(Arc::new(config)),
            request_timeout: Duration::from_secs(10),
            ..ConnectOptions::default()
        };
        Client::connect_http_with(&url, options).await.unwrap();
        let asked = step.asked.lock().unwrap().clone();
        assert_eq!(asked.len(), 1, "{asked:?}");
        assert!(asked[0].contains("client_id=configured&"), "{}", asked[0]);
    }

    /// The session's wait after the authorization server failed.
    const FAILURE_BACKOFF: Duration = Duration::from_secs(10);

    /// Once the token expired, the issuer answers 503: eight concurrent
    /// calls make one token request between them and share its failure
    /// (sending the token they hold, which this server still takes), and
    /// so do calls for the next ten seconds; after them, a call asks again,
    /// and refreshes once the issuer is back.
    #[tokio::test]
    async fn an_issuer_that_fails_is_asked_once_not_once_per_call() {
        // Renewed after one second, at half its lifetime.
        let setup = Setup::connect(json!(2)).await;
        assert_eq!(setup.issuer.hits("/token"), 1);
        let unavailable = json!({"error": "temporarily_unavailable"}).to_string();
        setup.issuer.route(
            "/token",
            (StatusCode::SERVICE_UNAVAILABLE, None, unavailable),
        );
        tokio::time::sleep(Duration::from_millis(2100)).await;
        assert!(setup.token().is_expired());

        let mut calls = tokio::task::JoinSet::new();
        for i in 0..8 {
            let client = setup.client.clone();
            calls.spawn(async move {
                let text = i.to_string();
                let result = client.call_tool("echo", &json!({ "text": text })).await;
                assert_eq!(result.unwrap().content[0].as_text(), Some(text.as_str()));
            });
        }
        while let Some(call) = calls.join_next().await {
            call.unwrap();
        }
        assert_eq!(setup.issuer.hits("/token"), 2, "one refresh for 8 calls");
        setup.five_calls().await;
        assert_eq!(setup.issuer.hits("/token"), 2, "none within the window");

        setup.issuer.route("/token", issued(json!(3600)));
        tokio::time::sleep(FAILURE_BACKOFF).await;
        setup.five_calls().await;
        assert_eq!(setup.issuer.hits("/token"), 3, "one refresh after it");
        assert!(!setup.token().is_expired());
    }

    /// A timeout as long as can be is a year: a refresh, which waits for
    /// the store's lock up to twice the timeout, does not overflow the
    /// clock.
    #[tokio::test]
    async fn the_longest_timeout_refreshes_without_a_panic() {
        let setup = Setup::connect_with(json!(2), Duration::MAX).await;
        tokio::time::sleep(Duration::from_millis(2100)).await;
        setup.five_calls().await;
        assert_eq!(setup.issuer.hits("/token"), 2);
    }

    /// The store is used only on the runtime's blocking threads (a file
    /// store may wait a minute for a lock), and the token is saved with
    /// its issuer's record in one change, so that no other client reads
    /// the one without the other.
    #[tokio::test]
    async fn the_store_is_changed_in_one_step_off_the_async_threads() {
        let this_thread = std::thread::current().id();
        let setup = Setup::connect(json!(2)).await;
        assert_eq!(
            setup.store.changes(),
            ["update"],
            "the token with its issuer"
        );
        let record = setup.store.inner.load_issuer(&setup.url, &setup.issuer.url);
        assert!(record.is_some(), "the issuer's record is kept");
        tokio::time::sleep(Duration::from_millis(2100)).await;
        setup.five_calls().await;
        assert_eq!(setup.issuer.hits("/token"), 2, "refreshed");
        assert_eq!(setup.store.changes(), ["update", "save"]);
        assert_eq!(setup.store.called_on(this_thread), Vec::<&str>::new());
        assert!(setup.store.calls.lock().unwrap().len() > 3);
    }

    /// The store names another issuer in the record of the token's issuer
    /// (a file edited, or written by a bug): the refresh token is not sent
    /// there; the client gets a new token from the token's issuer.
    #[tokio::test]
    async fn a_token_is_never_refreshed_at_another_issuer() {
        let elsewhere = Hostile::start(issuer_routes).await;
        let issuer = Hostile::start(issuer_routes).await;
        let url = protected_server(&issuer.url).await;
        let store = Shared::default();
        let stale: StoredToken = serde_json::from_value(json!({
            "access_token": "stale", "refresh_token": "refresh-stale",
            "expires_at": 1, "scopes": [], "issuer": issuer.url,
        }))
        .unwrap();
        store.inner.save(&url, Some(&stale));
        let metadata = serde_json::from_value(metadata(&elsewhere.url)).unwrap();
        let record = StoredIssuer::new(metadata, &url, None);
        store.inner.save_issuer(&url, &issuer.url, Some(&record));
        let credentials = ClientCredentials::new("c", ClientSecret::Secret("s".into()));
        let config = OAuthConfig::client_credentials(credentials)
            .store(store.clone())
            .timeout(Duration::from_secs(2));
        let options = ConnectOptions {
            oauth: Some(Arc::new(config)),
            request_timeout: Duration::from_secs(10),
            ..ConnectOptions::default()
        };
        Client::connect_http_with(&url, options).await.unwrap();
        assert_eq!(elsewhere.hits("/token"), 0, "nothing sent elsewhere");
        assert_eq!(issuer.hits("/token"), 1, "a new token at the issuer");
        assert_eq!(store.load(&url).unwrap().access_token, ISSUED);
    }
}

mod client_flow {
    use std::time::{Duration, Instant};

    use mcp_toolkit_runtime::client::auth::{ClientCredentials, ClientSecret, OAuthConfig};
    use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions};

    use super::*;

    /// A server whose MCP endpoint always answers 401 pointing at its own
    /// metadata, with `change` applied to the issuer's documents.
    async fn hostile(
        change: impl Fn(&str, &mut HashMap<String, Route>) + Send + 'static,
    ) -> Hostile {
        Hostile::start(move |url| {
            let challenge = format!(
                "Bearer resource_metadata=\"{url}/.well-known/oauth-protected-resource/mcp\""
            );
            let mut routes = HashMap::from([
                (
                    "/mcp".to_owned(),
                    (
                        StatusCode::UNAUTHORIZED,
                        Some(("www-authenticate", challenge)),
                        String::new(),
                    ),
                ),
                (
                    "/.well-known/oauth-protected-resource/mcp".to_owned(),
                    ok(json!({"resource": format!("{url}/mcp"), "authorization_servers": [url]})),
                ),
                (
                    "/.well-known/oauth-authorization-server".to_owned(),
                    ok(json!({"issuer": url, "token_endpoint": format!("{url}/token")})),
                ),
                (
                    "/token".to_owned(),
                    ok(json!({"access_token": "t", "token_type": "Bearer"})),
                ),
            ]);
            change(url, &mut routes);
            routes
        })
        .await
    }

    /// Connects with client credentials; the error must name `expected`
    /// and come within 10 s. Its text.
    async fn refused(issuer: &Hostile, expected: &str) -> String {
        let credentials = ClientCredentials::new("c", ClientSecret::Secret("s".into()));
        let config = OAuthConfig::client_credentials(credentials).timeout(Duration::from_secs(2));
        let options = ConnectOptions {
            oauth: Some(std::sync::Arc::new(config)),
            ..ConnectOptions::default()
        };
        let started = Instant::now();
        let outcome = Client::connect_http_with(&format!("{}/mcp", issuer.url), options).await;
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{expected}: took {:?}",
            started.elapsed()
        );
        match outcome {
            Err(error @ (ClientError::Authorization(_) | ClientError::Auth(_))) => {
                let text = error.to_string();
                assert!(text.contains(expected), "expected {expected:?} in: {text}");
                text
            }
            Err(other) => panic!("{expected}: unexpected error {other}"),
            Ok(_) => panic!("{expected}: connected"),
        }
    }

    #[tokio::test]
    async fn metadata_naming_another_issuer_stops_the_flow() {
        let issuer = hostile(|_, routes| {
            routes.insert(
                "/.well-known/oauth-authorization-server".into(),
                ok(json!({"issuer": "https://evil.example", "token_endpoint": "https://evil.example/token"})),
            );
        })
        .await;
        refused(&issuer, "names the issuer \"https://evil.example\"").await;
        assert_eq!(issuer.hits("/token"), 0);
    }

    #[tokio::test]
    async fn a_resource_for_another_server_gets_no_token() {
        let issuer = hostile(|url, routes| {
            routes.insert(
                "/.well-known/oauth-protected-resource/mcp".into(),
                ok(json!({"resource": "https://evil.example/mcp", "authorization_servers": [url]})),
            );
        })
        .await;
        refused(&issuer, "is for \"https://evil.example/mcp\"").await;
        assert_eq!(issuer.hits("/token"), 0);
    }

    #[tokio::test]
    async fn plain_http_endpoints_off_loopback_are_refused() {
        let issuer = hostile(|url, routes| {
            routes.insert(
                "/.well-known/oauth-authorization-server".into(),
                ok(json!({"issuer": url, "token_endpoint": "http://auth.example.com/token"})),
            );
        })
        .await;
        refused(&issuer, "http://auth.example.com/token is not https://").await;
    }

    #[tokio::test]
    async fn redirects_are_not_followed() {
        let issuer = hostile(|_, routes| {
            routes.insert(
                "/token".into(),
                (
                    StatusCode::TEMPORARY_REDIRECT,
                    Some(("location", "https://evil.example/token".into())),
                    String::new(),
                ),
            );
        })
        .await;
        refused(&issuer, "redirects are not followed").await;
    }

    #[tokio::test]
    async fn oversized_and_malformed_token_responses_are_refused() {
        for (body, expected) in [
            (
                format!("{{\"access_token\": \"{}\"}}", "x".repeat(300 * 1024)),
                "at most",
            ),
            ("not json".to_owned(), "unreadable document"),
            (
                "{\"token_type\": \"Bearer\"}".to_owned(),
                "unreadable document",
            ),
        ] {
            let issuer = hostile(move |_, routes| {
                routes.insert("/token".into(), (StatusCode::OK, None, body.clone()));
            })
            .await;
            refused(&issuer, expected).await;
        }
    }

    /// A token endpoint that echoes the request in its error answer: the
    /// error shows the OAuth `error` and `error_description`, never the
    /// body, which holds the client's secret.
    #[tokio::test]
    async fn an_error_answer_echoing_the_request_shows_no_secret() {
        for body in [
            json!({"error": "invalid_request", "error_description": "bad",
                   "request": "grant_type=client_credentials&client_secret=s3cret"})
            .to_string(),
            "grant_type=client_credentials&client_secret=s3cret".to_owned(),
        ] {
            let issuer = hostile(move |_, routes| {
                routes.insert(
                    "/token".into(),
                    (StatusCode::BAD_REQUEST, None, body.clone()),
                );
            })
            .await;
            let text = refused(&issuer, "answered HTTP 400").await;
            assert!(!text.contains("s3cret"), "{text}");
        }
    }

    #[tokio::test]
    async fn a_token_endpoint_that_never_answers_times_out() {
        let issuer = hostile(|_, routes| {
            routes.insert("/token".into(), (StatusCode::OK, None, HANG.to_owned()));
        })
        .await;
        refused(&issuer, "did not answer within 2s").await;
    }

    #[tokio::test]
    async fn a_server_that_refuses_every_token_is_given_up_on() {
        // The endpoint answers 401 to the issued token too: the client gets
        // a token and tries it, a bounded number of times (three attempts
        // by default: `max_step_ups` 2, plus one), then reports the 401.
        let issuer = hostile(|_, _| {}).await;
        refused(&issuer, "HTTP 401").await;
        let (tokens, calls) = (issuer.hits("/token"), issuer.hits("/mcp"));
        assert!(
            (1..=3).contains(&tokens),
            "{tokens} token requests, not 1 to 3"
        );
        // The first call without a token, then at least one with a token,
        // at most one per attempt.
        assert!(
            (2..=4).contains(&calls),
            "{calls} requests to the MCP endpoint, not 2 to 4"
        );
    }
}
