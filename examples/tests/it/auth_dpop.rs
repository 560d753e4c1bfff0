//! DPoP-bound tokens (RFC 9449) from a real issuer nobody here wrote: the
//! npm `oidc-provider`, which binds a token to the key of the proof that
//! came with the token request (`token_type` DPoP, `cnf.jkt`). Our client
//! gets such tokens and calls our protected server, which requires them;
//! then proofs made by hand, each wrong in one way, are refused with the
//! challenge RFC 9449 section 7.1 asks for.

use crate::support;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_toolkit_runtime::client::auth::{
    ClientCredentials, ClientSecret, FileTokenStore, OAuthConfig, TokenStore,
};
use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::auth::{AuthConfig, DpopPolicy};
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
use mcp_toolkit_runtime::transport::http::HttpConfig;
use serde_json::{Value, json};
use support::oidc::{Issuer, encode, http};

#[path = "../../../mcp-runtime/src/oauth/dpop/check/test_proofs.rs"]
mod test_proofs;

use test_proofs::{TestKey, claims};

/// Our protected server at `/mcp` on a free port, taking JWT access
/// tokens from `issuer` under `policy`; its one tool says who called.
async fn protected_server(issuer: &Issuer, policy: DpopPolicy) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!(
        "http://127.0.0.1:{}/mcp",
        listener.local_addr().unwrap().port()
    );
    serve(listener, &resource, issuer, policy);
    resource
}

/// Serves on `listener` the protected server whose canonical URL is
/// `resource` (instances behind a balancer share one).
fn serve(listener: tokio::net::TcpListener, resource: &str, issuer: &Issuer, policy: DpopPolicy) {
    let auth = AuthConfig::jwt(resource, &issuer.url).unwrap().dpop(policy);
    let whoami = ToolDef::new("whoami", |call: ToolCall| async move {
        let principal = call.context().principal().expect("a principal");
        CallToolResult::structured(&json!({
            "client_id": principal.client_id,
            "jkt": principal.claims.get("cnf").and_then(|cnf| cnf.get("jkt")),
        }))
    });
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(whoami)
        .build()
        .unwrap();
    let config = HttpConfig {
        auth: Some(auth),
        ..HttpConfig::default()
    };
    tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));
}

/// Our client with the client credentials grant, keeping tokens in the
/// file `store`.
async fn our_client(resource: &str, store: &std::path::Path) -> Client {
    let credentials =
        ClientCredentials::new("mcp-test", ClientSecret::Secret("test-secret".into()));
    let config = OAuthConfig::client_credentials(credentials).store(FileTokenStore::new(store));
    let options = ConnectOptions {
        oauth: Some(Arc::new(config)),
        ..ConnectOptions::default()
    };
    Client::connect_http_with(resource, options)
        .await
        .expect("our client gets a bound token and connects")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn jti() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("e2e-{}-{}", now(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The claims of a JWT.
fn jwt_claims(token: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

/// A token bound to `key`, straight from the issuer's token endpoint with
/// a proof of `key` (the client credentials grant, as `mcp-test`).
fn bound_token(issuer: &Issuer, key: &TestKey, resource: &str) -> String {
    let endpoint = format!("{}/token", issuer.url);
    let proof = key.proof(&claims(&jti(), "POST", &endpoint, now(), None));
    let form = format!(
        "grant_type=client_credentials&client_id=mcp-test&client_secret=test-secret&resource={}&scope=calc",
        encode(resource)
    );
    let (status, head, body) = http(
        "POST",
        &endpoint,
        &form,
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("DPoP", &proof),
        ],
    );
    assert_eq!(status, 200, "{head}\n{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["token_type"], "DPoP", "{answer}");
    let token = answer["access_token"].as_str().unwrap().to_owned();
    assert_eq!(jwt_claims(&token)["cnf"]["jkt"], json!(key.thumbprint()));
    token
}

/// A legacy `initialize` POSTed to `url` with `authorization` and, when
/// given, the `DPoP` header: status and response head.
fn call(url: &str, authorization: &str, proof: Option<&str>) -> (u16, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "dpop-e2e", "version": "1"}}})
    .to_string();
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Authorization", authorization),
    ];
    if let Some(proof) = proof {
        headers.push(("DPoP", proof));
    }
    let (status, head, _) = http("POST", url, &body, &headers);
    (status, head)
}

/// Every `WWW-Authenticate` value of a response head.
fn challenges(head: &str) -> Vec<String> {
    head.lines()
        .filter_map(|line| line.split_once(": "))
        .filter(|(name, _)| name.eq_ignore_ascii_case("www-authenticate"))
        .map(|(_, value)| value.trim().to_owned())
        .collect()
}

fn header<'a>(head: &'a str, wanted: &str) -> Option<&'a str> {
    head.lines()
        .filter_map(|line| line.split_once(": "))
        .find(|(name, _)| name.eq_ignore_ascii_case(wanted))
        .map(|(_, value)| value.trim())
}

#[tokio::test(flavor = "multi_thread")]
async fn our_client_gets_a_bound_token_from_a_real_issuer_and_our_server_refuses_every_misuse() {
    let issuer = Issuer::start();
    let resource = protected_server(&issuer, DpopPolicy::new().required(true)).await;

    // The metadata says bound tokens are required, and for which proofs.
    let metadata_url = resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let (status, _, body) = http("GET", &metadata_url, "", &[]);
    assert_eq!(status, 200);
    let metadata: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        metadata["dpop_bound_access_tokens_required"], true,
        "{metadata}"
    );
    assert!(
        metadata["dpop_signing_alg_values_supported"]
            .as_array()
            .unwrap()
            .contains(&json!("ES256"))
    );

    // Our client: the issuer offers DPoP, so its token is bound to the
    // client's own key, which the store keeps with it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens.json");
    let client = our_client(&resource, &file).await;
    let me = client.call_tool("whoami", &json!({})).await.unwrap();
    let me = me.structured_content.unwrap();
    assert_eq!(me["client_id"], "mcp-test");
    // The key is in the token file, which only its owner may read.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let kept = FileTokenStore::new(&file)
        .load(&resource)
        .expect("the token is kept");
    assert!(kept.dpop_key.is_some(), "kept with its key: {kept:?}");
    assert_eq!(jwt_claims(&kept.access_token)["cnf"]["jkt"], me["jkt"]);
    assert!(!format!("{kept:?}").contains(&kept.dpop_key.as_ref().unwrap().pkcs8));
    // The token alone, as a bearer token, is refused.
    let (status, head) = call(&resource, &format!("Bearer {}", kept.access_token), None);
    assert_eq!(status, 401, "{head}");
    assert!(
        challenges(&head).iter().any(|c| c.starts_with("DPoP ")),
        "{head}"
    );

    // Proofs by hand, with a token the issuer bound to the test's key.
    let key = TestKey::new(b"e2e key");
    let other_key = TestKey::new(b"another key");
    let token = bound_token(&issuer, &key, &resource);
    let dpop = format!("DPoP {token}");
    let proof = |change: &dyn Fn(&mut Value)| {
        let mut claims = claims(&jti(), "POST", &resource, now(), Some(&token));
        change(&mut claims);
        key.proof(&claims)
    };
    let good = proof(&|_| {});
    let (status, head) = call(&resource, &dpop, Some(&good));
    assert_eq!(status, 200, "a good proof: {head}");

    let other_url = resource.replace("/mcp", "/other");
    let stale = now() - 600;
    let other_token_hash = URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(b"another token"));
    let signed_by_other_key =
        other_key.proof(&claims(&jti(), "POST", &resource, now(), Some(&token)));
    let refused: [(&str, String, Option<String>); 7] = [
        ("a replayed proof", dpop.clone(), Some(good.clone())),
        (
            "a proof for another URL",
            dpop.clone(),
            Some(proof(&|c| c["htu"] = json!(other_url))),
        ),
        (
            "a proof for another method",
            dpop.clone(),
            Some(proof(&|c| c["htm"] = json!("GET"))),
        ),
        (
            "a stale iat",
            dpop.clone(),
            Some(proof(&|c| c["iat"] = json!(stale))),
        ),
        (
            "a wrong ath",
            dpop.clone(),
            Some(proof(&|c| c["ath"] = json!(other_token_hash))),
        ),
        (
            "a proof by another key",
            dpop.clone(),
            Some(signed_by_other_key),
        ),
        (
            "the token as a bearer token",
            format!("Bearer {token}"),
            Some(proof(&|_| {})),
        ),
    ];
    for (what, authorization, proof) in refused {
        let (status, head) = call(&resource, &authorization, proof.as_deref());
        assert_eq!(status, 401, "{what}: {head}");
        let dpop_challenge = challenges(&head)
            .into_iter()
            .find(|c| c.starts_with("DPoP "))
            .unwrap_or_else(|| panic!("{what}: no DPoP challenge in {head}"));
        let expected = match what {
            "the token as a bearer token" => r#"error="invalid_token""#,
            _ => r#"error="invalid_dpop_proof""#,
        };
        assert!(
            dpop_challenge.contains(expected),
            "{what}: {dpop_challenge}"
        );
        assert!(
            dpop_challenge.contains(r#"algs=""#),
            "{what}: {dpop_challenge}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn nonces_from_the_issuer_and_from_our_server_are_each_answered_once() {
    // The issuer requires its nonce in token-request proofs; our server
    // requires its own in every proof.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("issuer.log");
    let issuer = Issuer::start_with(&[("DPOP_NONCE", "1"), ("REQUEST_LOG", log.to_str().unwrap())]);
    let policy = DpopPolicy::new()
        .required(true)
        .nonces(Duration::from_secs(300));
    let resource = protected_server(&issuer, policy).await;

    // Our client meets both challenges and still gets through.
    let file = dir.path().join("tokens.json");
    let client = our_client(&resource, &file).await;
    let me = client.call_tool("whoami", &json!({})).await.unwrap();
    assert_eq!(me.structured_content.unwrap()["client_id"], "mcp-test");
    let kept = FileTokenStore::new(&file).load(&resource).unwrap();
    assert!(kept.dpop_key.is_some());
    // Once each: one token request refused for the issuer's nonce, one
    // grant; the server's nonce challenge was answered with a proof, not
    // by getting another token.
    let lines = std::fs::read_to_string(&log).unwrap();
    let count = |wanted: &str| lines.lines().filter(|l| *l == wanted).count();
    assert_eq!(count("POST /token"), 2, "{lines}");
    assert_eq!(count("grant client_credentials"), 1, "{lines}");

    // By hand: a proof without the nonce gets `use_dpop_nonce` and the
    // nonce; the same request with it goes through.
    let key = TestKey::new(b"nonce key");
    let endpoint = format!("{}/token", issuer.url);
    let form = format!(
        "grant_type=client_credentials&client_id=mcp-test&client_secret=test-secret&resource={}&scope=calc",
        encode(&resource)
    );
    let token_request = |nonce: Option<&str>| {
        let mut claims = claims(&jti(), "POST", &endpoint, now(), None);
        if let Some(nonce) = nonce {
            claims["nonce"] = json!(nonce);
        }
        let proof = key.proof(&claims);
        http(
            "POST",
            &endpoint,
            &form,
            &[
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("DPoP", &proof),
            ],
        )
    };
    let (status, head, body) = token_request(None);
    assert_eq!(status, 400, "{head}");
    assert!(body.contains("use_dpop_nonce"), "{body}");
    let issuer_nonce = header(&head, "dpop-nonce")
        .expect("the issuer's nonce")
        .to_owned();
    let (status, _, body) = token_request(Some(&issuer_nonce));
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned();

    let dpop = format!("DPoP {token}");
    let resource_proof = |nonce: Option<&str>| {
        let mut claims = claims(&jti(), "POST", &resource, now(), Some(&token));
        if let Some(nonce) = nonce {
            claims["nonce"] = json!(nonce);
        }
        key.proof(&claims)
    };
    let (status, head) = call(&resource, &dpop, Some(&resource_proof(None)));
    assert_eq!(status, 401, "{head}");
    assert!(
        challenges(&head)
            .iter()
            .any(|c| c.starts_with("DPoP ") && c.contains(r#"error="use_dpop_nonce""#)),
        "{head}"
    );
    let nonce = header(&head, "dpop-nonce")
        .expect("the server's nonce")
        .to_owned();
    let (status, head) = call(&resource, &dpop, Some(&resource_proof(Some(&nonce))));
    assert_eq!(status, 200, "{head}");
    let (status, head) = call(&resource, &dpop, Some(&resource_proof(Some("made-up"))));
    assert_eq!(status, 401, "a nonce the server never gave: {head}");
}

#[tokio::test(flavor = "multi_thread")]
async fn instances_sharing_redis_take_a_proof_once_between_them() {
    let redis = support::redis::RedisServer::start(&support::redis::ensure_installed());
    let state = mcp_toolkit_runtime::server::SharedState::redis(&redis.url).unwrap();
    let issuer = Issuer::start();
    // Two instances of one server (one canonical URL), one store.
    let first = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let second = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!(
        "http://127.0.0.1:{}/mcp",
        first.local_addr().unwrap().port()
    );
    let second_url = format!(
        "http://127.0.0.1:{}/mcp",
        second.local_addr().unwrap().port()
    );
    let policy = DpopPolicy::new().required(true).shared(&state);
    serve(first, &resource, &issuer, policy.clone());
    serve(second, &resource, &issuer, policy);

    let key = TestKey::new(b"shared key");
    let token = bound_token(&issuer, &key, &resource);
    let dpop = format!("DPoP {token}");
    let proof = || key.proof(&claims(&jti(), "POST", &resource, now(), Some(&token)));
    let taken = proof();
    let (status, head) = call(&resource, &dpop, Some(&taken));
    assert_eq!(status, 200, "the first instance takes it: {head}");
    let (status, head) = call(&second_url, &dpop, Some(&taken));
    assert_eq!(status, 401, "the second one saw it through Redis: {head}");
    assert!(head.contains("the DPoP proof was used before"), "{head}");
    let (status, head) = call(&second_url, &dpop, Some(&proof()));
    assert_eq!(status, 200, "a new proof is taken there: {head}");

    // The store gone, proofs are refused (503), not let through unchecked.
    drop(redis);
    let (status, head) = call(&resource, &dpop, Some(&proof()));
    assert_eq!(status, 503, "{head}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stored_token_whose_key_cannot_be_used_is_replaced() {
    let issuer = Issuer::start();
    let resource = protected_server(&issuer, DpopPolicy::new().required(true)).await;
    // A token file from elsewhere: the token's DPoP key is unreadable.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens.json");
    let broken = json!({"version": 2, "servers": {&resource: {"token": {
        "access_token": "stale", "issuer": issuer.url,
        "dpop_key": {"algorithm": "ES256", "pkcs8": "AAAA"}}}}});
    std::fs::write(&file, broken.to_string()).unwrap();
    let client = our_client(&resource, &file).await;
    let me = client.call_tool("whoami", &json!({})).await.unwrap();
    assert_eq!(me.structured_content.unwrap()["client_id"], "mcp-test");
    let kept = FileTokenStore::new(&file).load(&resource).unwrap();
    assert_ne!(kept.access_token, "stale");
    assert_ne!(kept.dpop_key.unwrap().pkcs8, "AAAA");
}
