use serde_json::json;

use super::*;
use crate::oauth::dpop::test_proofs::{TestKey, claims};

const NOW: u64 = 1_800_000_000;
const URL: &str = "https://mcp.example.com/mcp";
const TOKEN: &str = "an.access.token";

/// The principal of a token bound to `jkt`, or of an unbound one.
fn principal(jkt: Option<&str>) -> Principal {
    let mut claims = json!({"sub": "alice"});
    if let Some(jkt) = jkt {
        claims["cnf"] = json!({"jkt": jkt});
    }
    Principal::from_claims(claims.as_object().unwrap().clone())
}

fn proof(key: &TestKey, jti: &str, nonce: Option<&str>) -> String {
    let mut claims = claims(jti, "POST", URL, NOW, Some(TOKEN));
    if let Some(nonce) = nonce {
        claims["nonce"] = json!(nonce);
    }
    key.proof(&claims)
}

fn check(policy: &DpopPolicy, proof: &str, now: u64) -> Result<CheckedProof, DpopRefusal> {
    policy.check_at([proof.as_bytes()], "POST", URL, TOKEN, now)
}

#[tokio::test]
async fn a_bound_token_with_its_proof_is_taken_once() {
    let policy = DpopPolicy::new();
    let key = TestKey::new(b"client");
    let bound = principal(Some(&key.thumbprint()));
    let checked = check(&policy, &proof(&key, "1", None), NOW).unwrap();
    assert_eq!(policy.accept_at(&checked, &bound, NOW).await, Ok(None));
    let again = check(&policy, &proof(&key, "1", None), NOW + 1).unwrap();
    assert_eq!(
        policy.accept_at(&again, &bound, NOW + 1).await,
        Err(DpopRefusal::Replayed)
    );
    assert_eq!(DpopRefusal::Replayed.error(), Some("invalid_dpop_proof"));
    // Another jti of the same key is another proof.
    let next = check(&policy, &proof(&key, "2", None), NOW).unwrap();
    assert_eq!(policy.accept_at(&next, &bound, NOW).await, Ok(None));
}

#[tokio::test]
async fn the_token_must_be_bound_to_the_proofs_key() {
    let policy = DpopPolicy::new();
    let key = TestKey::new(b"client");
    let checked = check(&policy, &proof(&key, "1", None), NOW).unwrap();
    let other = TestKey::new(b"other").thumbprint();
    assert_eq!(
        policy
            .accept_at(&checked, &principal(Some(&other)), NOW)
            .await,
        Err(DpopRefusal::OtherKey)
    );
    assert_eq!(
        policy.accept_at(&checked, &principal(None), NOW).await,
        Err(DpopRefusal::Unbound)
    );
    assert_eq!(DpopRefusal::Unbound.error(), Some("invalid_token"));
    // Neither refusal used up the proof.
    let bound = principal(Some(&key.thumbprint()));
    assert_eq!(policy.accept_at(&checked, &bound, NOW).await, Ok(None));
}

#[tokio::test]
async fn nonces_rotate_and_the_one_before_is_still_taken() {
    let policy = DpopPolicy::new().nonces(Duration::from_secs(60));
    let nonces = policy.nonces.clone().unwrap();
    let key = TestKey::new(b"client");
    let bound = principal(Some(&key.thumbprint()));
    let refused = check(&policy, &proof(&key, "1", None), NOW).unwrap_err();
    assert_eq!(refused, DpopRefusal::Proof(ProofError::Nonce));
    assert_eq!(refused.error(), Some("use_dpop_nonce"));
    let current = nonces.current(NOW);
    let checked = check(&policy, &proof(&key, "2", Some(&current)), NOW).unwrap();
    assert_eq!(policy.accept_at(&checked, &bound, NOW).await, Ok(None));
    // A period later the nonce is the one before: taken, and the answer
    // brings the new one.
    let later = NOW + 60;
    let checked = check(&policy, &proof(&key, "3", Some(&current)), later).unwrap();
    let renewed = policy.accept_at(&checked, &bound, later).await.unwrap();
    assert_eq!(renewed, Some(nonces.current(later)));
    assert_ne!(renewed.as_deref(), Some(current.as_str()));
    // Two periods later it is stale.
    assert_eq!(
        check(&policy, &proof(&key, "4", Some(&current)), NOW + 120),
        Err(DpopRefusal::Proof(ProofError::Nonce))
    );
}

#[tokio::test]
async fn a_full_memory_refuses_rather_than_forgets() {
    let policy = DpopPolicy::new().max_replay_entries(1);
    let key = TestKey::new(b"client");
    let bound = principal(Some(&key.thumbprint()));
    let first = check(&policy, &proof(&key, "1", None), NOW).unwrap();
    assert_eq!(policy.accept_at(&first, &bound, NOW).await, Ok(None));
    let second = check(&policy, &proof(&key, "2", None), NOW).unwrap();
    assert_eq!(
        policy.accept_at(&second, &bound, NOW).await,
        Err(DpopRefusal::Busy)
    );
    assert_eq!(DpopRefusal::Busy.error(), None);
}

#[test]
fn only_asymmetric_algorithms_can_be_set() {
    for bad in [&["none"][..], &["HS256"], &[], &["es256"]] {
        assert!(DpopPolicy::new().algorithms(bad).is_err(), "{bad:?}");
    }
    let policy = DpopPolicy::new()
        .algorithms(["EdDSA", "ES256", "EdDSA"])
        .unwrap();
    assert_eq!(policy.algs(), "EdDSA ES256");
    let key = TestKey::new(b"client");
    let only_ed = DpopPolicy::new().algorithms(["EdDSA"]).unwrap();
    assert_eq!(
        check(&only_ed, &proof(&key, "1", None), NOW),
        Err(DpopRefusal::Proof(ProofError::Algorithm))
    );
}

#[test]
fn a_proof_older_than_the_policys_age_is_refused() {
    let policy = DpopPolicy::new().max_age(Duration::from_secs(10));
    let key = TestKey::new(b"client");
    assert!(check(&policy, &proof(&key, "1", None), NOW + 10).is_ok());
    assert_eq!(
        check(&policy, &proof(&key, "1", None), NOW + 11),
        Err(DpopRefusal::Proof(ProofError::IssuedAt))
    );
}

#[test]
fn the_metadata_lists_algorithms_and_whether_binding_is_required() {
    let mut metadata = Map::new();
    DpopPolicy::new()
        .required(true)
        .algorithms(["ES256", "PS256"])
        .unwrap()
        .publish(&mut metadata);
    assert_eq!(
        Value::Object(metadata),
        json!({
            "dpop_signing_alg_values_supported": ["ES256", "PS256"],
            "dpop_bound_access_tokens_required": true
        })
    );
}

#[test]
fn refusals_never_repeat_the_proof_or_the_token() {
    for refusal in [
        DpopRefusal::Proof(ProofError::Signature),
        DpopRefusal::Replayed,
        DpopRefusal::OtherKey,
        DpopRefusal::Unbound,
        DpopRefusal::BoundAsBearer,
        DpopRefusal::BearerRefused,
        DpopRefusal::Busy,
    ] {
        let text = refusal.to_string();
        assert!(!text.contains(TOKEN) && !text.is_empty(), "{text}");
    }
}
