//! A protected server taking DPoP-bound access tokens (RFC 9449 section
//! 7), over real HTTP: proofs made by hand, each broken in one way, and
//! the exact `WWW-Authenticate` (and `DPoP-Nonce`) of every refusal.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hyper::{Method, StatusCode};
use mcp_toolkit_runtime::server::auth::{
    AuthConfig, DpopPolicy, Principal, TokenError, TokenVerifier, VerifyFuture,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};

use crate::http_support::{Reply, TestServer, call_body, call_headers, post, send};

#[path = "../../src/oauth/dpop/check/test_proofs.rs"]
mod test_proofs;

use test_proofs::{TestKey, claims};

/// The server's canonical URL: what `htu` must name.
const RESOURCE: &str = "http://127.0.0.1/mcp";
const METADATA: &str = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp";
const BEARER: &str =
    r#"Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp""#;

/// Takes any token whose middle part is Base64url JSON claims: the JWT
/// shape, without a signature to check (the binding is what is tested).
struct ClaimsVerifier;

impl TokenVerifier for ClaimsVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move {
            let claims = token
                .split('.')
                .nth(1)
                .and_then(|part| URL_SAFE_NO_PAD.decode(part).ok())
                .and_then(|json| serde_json::from_slice::<Value>(&json).ok())
                .and_then(|claims| claims.as_object().cloned())
                .ok_or_else(|| TokenError::Invalid("not a test token".to_owned()))?;
            Ok(Principal::from_claims(claims))
        })
    }
}

/// A token bound to `key`, or a plain one.
fn token(key: Option<&TestKey>) -> String {
    let mut claims = json!({"sub": "alice", "aud": RESOURCE});
    if let Some(key) = key {
        claims["cnf"] = json!({"jkt": key.thumbprint()});
    }
    let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
    format!("eyJhbGciOiJub25lIn0.{claims}.c2ln")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A proof of `key` for a POST to the resource with `token`.
fn proof(key: &TestKey, token: &str) -> String {
    proof_with(key, |_| {}, token)
}

/// The same, with its claims changed by `change`.
fn proof_with(key: &TestKey, change: impl FnOnce(&mut Value), token: &str) -> String {
    let mut claims = claims(&jti(), "POST", RESOURCE, now(), Some(token));
    change(&mut claims);
    key.proof(&claims)
}

fn jti() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("jti-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

async fn serve(policy: Option<DpopPolicy>) -> TestServer {
    let mut auth = AuthConfig::new(RESOURCE, ClaimsVerifier).unwrap();
    if let Some(policy) = policy {
        auth = auth.dpop(policy);
    }
    TestServer::start(HttpConfig {
        auth: Some(auth),
        ..HttpConfig::default()
    })
    .await
}

fn es256() -> DpopPolicy {
    DpopPolicy::new().algorithms(["ES256", "EdDSA"]).unwrap()
}

/// A `tools/call` of `echo` with `authorization` and any `DPoP` headers.
async fn call(server: &TestServer, authorization: &str, proofs: &[&str]) -> Reply {
    let headers = call_headers("echo");
    let mut headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    headers.push(("authorization", authorization));
    headers.extend(proofs.iter().map(|proof| ("dpop", *proof)));
    post(
        server.addr,
        &headers,
        &call_body(1, "echo", json!({"text": "hi"})),
    )
    .await
}

fn challenges(reply: &Reply) -> Vec<&str> {
    reply
        .headers
        .get_all("www-authenticate")
        .iter()
        .map(|value| value.to_str().unwrap())
        .collect()
}

fn assert_answered(reply: &Reply) {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.json()["result"]["content"][0]["text"], "hi");
}

/// 401 with the `Bearer` challenge and a `DPoP` one holding `error` and
/// `why`.
fn assert_refused(reply: &Reply, error: &str, why: &str) {
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.text());
    let dpop = format!(
        r#"DPoP error="{error}", error_description="{why}", algs="ES256 EdDSA", resource_metadata="{METADATA}""#
    );
    assert_eq!(challenges(reply), [BEARER, dpop.as_str()]);
}

fn assert_bad_proof(reply: &Reply, why: &str) {
    assert_refused(reply, "invalid_dpop_proof", why);
}

#[tokio::test]
async fn a_bound_token_with_its_proof_is_taken() {
    let server = serve(Some(es256())).await;
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    let reply = call(&server, &format!("DPoP {token}"), &[&proof(&key, &token)]).await;
    assert_answered(&reply);
    assert!(reply.header("dpop-nonce").is_none());
    // The scheme in any case, and a query in htu, are the same.
    let query = proof_with(
        &key,
        |claims| claims["htu"] = json!("HTTP://127.0.0.1:80/mcp?x=1"),
        &token,
    );
    assert_answered(&call(&server, &format!("dpop {token}"), &[&query]).await);
}

#[tokio::test]
async fn a_replayed_proof_is_refused() {
    let server = serve(Some(es256())).await;
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    let proof = proof(&key, &token);
    let authorization = format!("DPoP {token}");
    assert_answered(&call(&server, &authorization, &[&proof]).await);
    let reply = call(&server, &authorization, &[&proof]).await;
    assert_bad_proof(&reply, "the DPoP proof was used before");
}

#[tokio::test]
async fn a_proof_for_another_url_or_method_is_refused() {
    let server = serve(Some(es256())).await;
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    let authorization = format!("DPoP {token}");
    let elsewhere = proof_with(
        &key,
        |claims| claims["htu"] = json!("http://127.0.0.1/other"),
        &token,
    );
    let reply = call(&server, &authorization, &[&elsewhere]).await;
    assert_bad_proof(&reply, "the DPoP proof's htu is not the request's URL");
    let get = proof_with(&key, |claims| claims["htm"] = json!("GET"), &token);
    let reply = call(&server, &authorization, &[&get]).await;
    assert_bad_proof(&reply, "the DPoP proof's htm is not the request's method");
}

#[tokio::test]
async fn a_stale_proof_is_refused() {
    let server = serve(Some(es256().max_age(Duration::from_secs(60)))).await;
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    let stale = proof_with(&key, |claims| claims["iat"] = json!(now() - 120), &token);
    let reply = call(&server, &format!("DPoP {token}"), &[&stale]).await;
    assert_bad_proof(
        &reply,
        "the DPoP proof's iat is missing or too old or too new",
    );
}

#[tokio::test]
async fn a_proof_for_another_token_is_refused() {
    let server = serve(Some(es256())).await;
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    let other = proof(&key, "another token");
    let reply = call(&server, &format!("DPoP {token}"), &[&other]).await;
    assert_bad_proof(
        &reply,
        "the DPoP proof's ath does not match the access token",
    );
}

#[tokio::test]
async fn a_proof_by_another_key_is_refused() {
    let server = serve(Some(es256())).await;
    let key = TestKey::new(b"client");
    let thief = TestKey::new(b"thief");
    let token = token(Some(&key));
    let reply = call(&server, &format!("DPoP {token}"), &[&proof(&thief, &token)]).await;
    assert_bad_proof(
        &reply,
        "the access token is bound to another key than the DPoP proof's",
    );
    // A proof must come once, and a DPoP token without one is refused.
    let proof = proof(&key, &token);
    let reply = call(&server, &format!("DPoP {token}"), &[&proof, &proof]).await;
    assert_bad_proof(&reply, "the request has more than one DPoP header");
    let reply = call(&server, &format!("DPoP {token}"), &[]).await;
    assert_bad_proof(&reply, "the request has no DPoP proof");
}

#[tokio::test]
async fn a_bound_token_sent_as_bearer_is_refused() {
    let server = serve(Some(es256())).await;
    let key = TestKey::new(b"client");
    let reply = call(&server, &format!("Bearer {}", token(Some(&key))), &[]).await;
    assert_refused(
        &reply,
        "invalid_token",
        "a DPoP-bound access token must be sent with the DPoP scheme",
    );
    // An unbound token is still a bearer token, and an unbound token sent
    // with the DPoP scheme is refused.
    assert_answered(&call(&server, &format!("Bearer {}", token(None)), &[]).await);
    let plain = token(None);
    let reply = call(&server, &format!("DPoP {plain}"), &[&proof(&key, &plain)]).await;
    assert_refused(
        &reply,
        "invalid_token",
        "the access token is not DPoP-bound",
    );
}

#[tokio::test]
async fn a_missing_nonce_is_asked_for_then_taken() {
    let server = serve(Some(es256().nonces(Duration::from_secs(300)))).await;
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    let authorization = format!("DPoP {token}");
    let reply = call(&server, &authorization, &[&proof(&key, &token)]).await;
    assert_refused(
        &reply,
        "use_dpop_nonce",
        "the DPoP proof lacks the server's current nonce",
    );
    let nonce = reply.header("dpop-nonce").expect("a nonce").to_owned();
    let with_nonce = proof_with(&key, |claims| claims["nonce"] = json!(nonce), &token);
    let reply = call(&server, &authorization, &[&with_nonce]).await;
    assert_answered(&reply);
    // The nonce is current: the answer brings no new one.
    assert_eq!(reply.header("dpop-nonce"), None);
    // A made-up nonce is refused the same way.
    let made_up = proof_with(&key, |claims| claims["nonce"] = json!("guess"), &token);
    let reply = call(&server, &authorization, &[&made_up]).await;
    assert_eq!(reply.header("dpop-nonce"), Some(nonce.as_str()));
    assert_refused(
        &reply,
        "use_dpop_nonce",
        "the DPoP proof lacks the server's current nonce",
    );
}

#[tokio::test]
async fn where_bound_tokens_are_required_only_dpop_is_offered() {
    let server = serve(Some(es256().required(true))).await;
    let dpop_only = format!(r#"DPoP algs="ES256 EdDSA", resource_metadata="{METADATA}""#);
    let reply = send(server.addr, Method::POST, &[], "{}").await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(challenges(&reply), [dpop_only.as_str()]);
    let reply = call(&server, &format!("Bearer {}", token(None)), &[]).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenges(&reply),
        [format!(
            r#"DPoP error="invalid_token", error_description="this resource takes only DPoP-bound access tokens", algs="ES256 EdDSA", resource_metadata="{METADATA}""#
        )]
    );
    let key = TestKey::new(b"client");
    let token = token(Some(&key));
    assert_answered(&call(&server, &format!("DPoP {token}"), &[&proof(&key, &token)]).await);
}

/// The Protected Resource Metadata a server with `auth` serves.
async fn metadata(auth: AuthConfig) -> Value {
    use http_body_util::{BodyExt, Empty};
    use mcp_toolkit_runtime::transport::http::McpService;

    let (events, _) = tokio::sync::mpsc::unbounded_channel();
    let config = HttpConfig {
        auth: Some(auth),
        ..HttpConfig::default()
    };
    let service = McpService::new(crate::http_support::test_server(events), config);
    let request = hyper::Request::get("/.well-known/oauth-protected-resource/mcp")
        .header("host", "127.0.0.1")
        .body(Empty::<hyper::body::Bytes>::new())
        .unwrap();
    let response = service.handle(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test]
async fn the_metadata_lists_the_policy() {
    let auth = || AuthConfig::new(RESOURCE, ClaimsVerifier).unwrap();
    let document = metadata(auth().dpop(es256().required(true))).await;
    assert_eq!(
        document["dpop_signing_alg_values_supported"],
        json!(["ES256", "EdDSA"])
    );
    assert_eq!(document["dpop_bound_access_tokens_required"], true);
    let document = metadata(auth().dpop(DpopPolicy::new())).await;
    assert_eq!(document["dpop_bound_access_tokens_required"], false);
    assert_eq!(document["dpop_signing_alg_values_supported"][0], "ES256");
    let document = metadata(auth()).await;
    assert_eq!(document.get("dpop_signing_alg_values_supported"), None);
    assert_eq!(document.get("dpop_bound_access_tokens_required"), None);
    assert_eq!(document["resource"], RESOURCE);
}

#[tokio::test]
async fn without_a_policy_bearer_is_as_before_and_dpop_still_works() {
    let server = serve(None).await;
    let key = TestKey::new(b"client");
    let bound = token(Some(&key));
    // Nothing of DPoP in the challenge; an unbound token passes as bearer,
    // a bound one does not (its key unproven).
    let reply = send(server.addr, Method::POST, &[], "{}").await;
    assert_eq!(challenges(&reply), [BEARER]);
    assert_answered(&call(&server, &format!("Bearer {}", token(None)), &[]).await);
    let reply = call(&server, &format!("Bearer {bound}"), &[]).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert!(
        challenges(&reply)
            .iter()
            .any(|c| c.starts_with(r#"DPoP error="invalid_token""#)),
        "{:?}",
        challenges(&reply)
    );
    assert_answered(&call(&server, &format!("DPoP {bound}"), &[&proof(&key, &bound)]).await);
    let reply = call(&server, &format!("DPoP {bound}"), &[]).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let default_algs = "ES256 ES384 RS256 RS384 RS512 PS256 PS384 PS512 EdDSA";
    assert_eq!(
        challenges(&reply),
        [
            BEARER.to_owned(),
            format!(
                r#"DPoP error="invalid_dpop_proof", error_description="the request has no DPoP proof", algs="{default_algs}", resource_metadata="{METADATA}""#
            )
        ]
    );
}
