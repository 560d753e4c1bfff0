use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::test_proofs::{TestKey, claims};
use super::*;

/// The server's clock in these tests.
const NOW: u64 = 1_800_000_000;

/// What one generated request is.
#[derive(Debug, Clone)]
struct Case {
    seed: u8,
    jti: String,
    method: String,
    url: String,
    token: Option<String>,
    iat: u64,
}

impl Case {
    fn key(&self) -> TestKey {
        TestKey::new(&[self.seed])
    }

    fn claims(&self) -> Value {
        claims(
            &self.jti,
            &self.method,
            &self.url,
            self.iat,
            self.token.as_deref(),
        )
    }

    fn request(&self) -> ProofRequest<'_> {
        ProofRequest {
            access_token: self.token.as_deref(),
            ..ProofRequest::new(&self.method, &self.url, NOW)
        }
    }
}

fn check(proof: &str, request: &ProofRequest<'_>) -> Result<CheckedProof, ProofError> {
    check_proof([proof.as_bytes()], request)
}

fn url() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("https"), Just("http")],
        "[a-z][a-z0-9-]{0,12}(\\.[a-z]{2,6})?",
        proptest::option::of(1u16..),
        "(/[A-Za-z0-9._~-]{0,8}){0,3}",
    )
        .prop_map(|(scheme, host, port, path)| match port {
            Some(port) => format!("{scheme}://{host}:{port}{path}"),
            None => format!("{scheme}://{host}{path}"),
        })
}

fn case() -> impl Strategy<Value = Case> {
    (
        // A few keys: making one costs more than checking a proof.
        0u8..4,
        "[ -~]{1,64}|\\PC{1,16}",
        prop_oneof![
            Just("GET".to_owned()),
            Just("POST".to_owned()),
            Just("DELETE".to_owned()),
            "[A-Z]{1,8}"
        ],
        url(),
        proptest::option::of("[A-Za-z0-9._~+/-]{1,64}"),
        NOW - DEFAULT_MAX_AGE_SECS..=NOW + MAX_CLOCK_SKEW_SECS,
    )
        .prop_map(|(seed, jti, method, url, token, iat)| Case {
            seed,
            jti,
            method,
            url,
            token,
            iat,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_proof_made_as_the_rfc_says_passes(case in case()) {
        let key = case.key();
        let checked = check(&key.proof(&case.claims()), &case.request()).unwrap();
        prop_assert_eq!(checked.thumbprint, key.thumbprint());
        prop_assert_eq!(checked.jti, case.jti);
        prop_assert_eq!(checked.iat, case.iat);
        prop_assert_eq!(checked.nonce, None);
    }

    #[test]
    fn htu_is_compared_without_query_fragment_case_or_default_port(
        case in case(),
        query in "[a-z0-9=&]{0,12}",
        fragment in "[a-z0-9]{0,8}",
    ) {
        let key = case.key();
        let mut claims = case.claims();
        let (scheme, rest) = case.url.split_once("://").unwrap();
        let port = if scheme == "https" { ":443" } else { ":80" };
        let (authority, path) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
        let authority = if authority.contains(':') {
            authority.to_owned()
        } else {
            format!("{authority}{port}")
        };
        claims["htu"] = json!(format!(
            "{}://{}{path}?{query}#{fragment}",
            scheme.to_uppercase(),
            authority.to_uppercase()
        ));
        prop_assert!(check(&key.proof(&claims), &case.request()).is_ok());
    }

    #[test]
    fn every_broken_member_is_refused_with_its_error(case in case(), flip in 0usize..64) {
        let key = case.key();
        let request = case.request();
        let header = key.header();
        let claims = case.claims();
        let signed = |header: &Value, claims: &Value| {
            key.sign(header, &serde_json::to_vec(claims).unwrap())
        };
        let with_header = |name: &str, value: Value| {
            let mut header = header.clone();
            header[name] = value;
            signed(&header, &claims)
        };
        let without_header = |name: &str| {
            let mut header = header.clone();
            header.as_object_mut().unwrap().remove(name);
            signed(&header, &claims)
        };
        let with_claim = |name: &str, value: Value| {
            let mut claims = claims.clone();
            claims[name] = value;
            signed(&header, &claims)
        };
        let without_claim = |name: &str| {
            let mut claims = claims.clone();
            claims.as_object_mut().unwrap().remove(name);
            signed(&header, &claims)
        };
        let other = TestKey::new(&[case.seed + 100]);
        let mut private = key.jwk();
        private["d"] = json!(URL_SAFE_NO_PAD.encode([7u8; 32]));
        let mut secret = key.jwk();
        secret["k"] = json!("c2VjcmV0");
        let stale = NOW - DEFAULT_MAX_AGE_SECS - 1;
        let early = NOW + MAX_CLOCK_SKEW_SECS + 1;
        let mut refusals = vec![
            (without_header("typ"), ProofError::Type),
            (with_header("typ", json!("jwt")), ProofError::Type),
            (with_header("typ", json!("DPOP+JWT")), ProofError::Type),
            (with_header("alg", json!("none")), ProofError::Algorithm),
            (with_header("alg", json!("HS256")), ProofError::Algorithm),
            (without_header("alg"), ProofError::Algorithm),
            // An algorithm of another key kind than the jwk.
            (with_header("alg", json!("RS256")), ProofError::Key),
            (with_header("alg", json!("ES384")), ProofError::Key),
            (without_header("jwk"), ProofError::Key),
            (with_header("jwk", json!("a string")), ProofError::Key),
            (with_header("jwk", json!({"kty": "EC"})), ProofError::Key),
            (with_header("jwk", other.jwk()), ProofError::Signature),
            (with_header("jwk", private), ProofError::PrivateKey),
            (with_header("jwk", secret), ProofError::PrivateKey),
            (without_claim("jti"), ProofError::Jti),
            (with_claim("jti", json!("")), ProofError::Jti),
            (with_claim("jti", json!(7)), ProofError::Jti),
            (with_claim("jti", json!("j".repeat(MAX_JTI_BYTES + 1))), ProofError::Jti),
            (without_claim("htm"), ProofError::Method),
            (with_claim("htm", json!(format!("{}X", case.method))), ProofError::Method),
            (with_claim("htm", json!(case.method.to_lowercase())), ProofError::Method),
            (without_claim("htu"), ProofError::Url),
            (with_claim("htu", json!(format!("{}/other", case.url.trim_end_matches('/')))), ProofError::Url),
            (with_claim("htu", json!("/relative")), ProofError::Url),
            (without_claim("iat"), ProofError::IssuedAt),
            (with_claim("iat", json!(stale)), ProofError::IssuedAt),
            (with_claim("iat", json!(early)), ProofError::IssuedAt),
            (with_claim("iat", json!(NOW.to_string())), ProofError::IssuedAt),
            (with_claim("iat", json!(-1)), ProofError::IssuedAt),
            (with_claim("iat", json!(u64::MAX)), ProofError::IssuedAt),
            (with_claim("iat", json!(1e300)), ProofError::IssuedAt),
        ];
        if let Some(token) = &case.token {
            refusals.push((without_claim("ath"), ProofError::TokenHash));
            refusals.push((
                with_claim("ath", json!(access_token_hash(&format!("{token}x")))),
                ProofError::TokenHash,
            ));
        }
        // One signature byte changed.
        let proof = key.proof(&claims);
        let (message, signature) = proof.rsplit_once('.').unwrap();
        let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap();
        bytes[flip] ^= 1;
        refusals.push((
            format!("{message}.{}", URL_SAFE_NO_PAD.encode(bytes)),
            ProofError::Signature,
        ));
        for (proof, error) in refusals {
            prop_assert_eq!(check(&proof, &request), Err(error), "{}", proof);
        }
        // Claims the server does not ask for are no reason to refuse.
        prop_assert!(check(&with_claim("nonce", json!("unasked")), &request).is_ok());
        prop_assert!(check(&with_claim("exp", json!("not a date")), &request).is_ok());
    }

    #[test]
    fn a_nonce_is_checked_only_when_one_is_expected(case in case(), nonce in "[A-Za-z0-9_-]{1,43}") {
        let key = case.key();
        let accepted = [nonce.as_str(), "previous"];
        let request = ProofRequest { nonces: &accepted, ..case.request() };
        let mut claims = case.claims();
        prop_assert_eq!(check(&key.proof(&claims), &request), Err(ProofError::Nonce));
        claims["nonce"] = json!(format!("{nonce}x"));
        prop_assert_eq!(check(&key.proof(&claims), &request), Err(ProofError::Nonce));
        claims["nonce"] = json!(nonce.as_str());
        let checked = check(&key.proof(&claims), &request).unwrap();
        prop_assert_eq!(checked.nonce.as_deref(), Some(nonce.as_str()));
        claims["nonce"] = json!("previous");
        prop_assert!(check(&key.proof(&claims), &request).is_ok());
    }

    #[test]
    fn arbitrary_text_is_refused_without_panicking(text in "\\PC{0,200}|[A-Za-z0-9_.-]{0,300}") {
        let request = ProofRequest::new("POST", "https://h/mcp", NOW);
        prop_assert!(check(&text, &request).is_err());
    }
}

#[test]
fn exactly_one_bounded_proof_is_read() {
    let key = TestKey::new(b"one");
    let url = "https://mcp.example.com/mcp";
    let proof = key.proof(&claims("j", "POST", url, NOW, None));
    let request = ProofRequest::new("POST", url, NOW);
    assert!(check(&proof, &request).is_ok());
    assert_eq!(
        check_proof(std::iter::empty(), &request),
        Err(ProofError::Missing)
    );
    assert_eq!(
        check_proof([proof.as_bytes(), proof.as_bytes()], &request),
        Err(ProofError::Repeated)
    );
    let long = "a".repeat(MAX_PROOF_BYTES + 1);
    assert_eq!(check(&long, &request), Err(ProofError::TooLarge));
    for bad in [
        "",
        "a.b",
        "a.b.c.d",
        "...",
        format!("{proof}.x").as_str(),
        "\u{0}.\u{0}.\u{0}",
    ] {
        assert_eq!(check(bad, &request), Err(ProofError::Malformed), "{bad:?}");
    }
    assert_eq!(
        check_proof([&[0xff, b'.', b'.'][..]], &request),
        Err(ProofError::Malformed)
    );
    // The header must be an object, and the claims too.
    let array = key.sign(&json!([1]), b"{}");
    assert_eq!(check(&array, &request), Err(ProofError::Malformed));
    let text = key.sign(&key.header(), b"\"claims\"");
    assert_eq!(check(&text, &request), Err(ProofError::Malformed));
}

#[test]
fn only_the_algorithms_asked_for_are_taken() {
    let key = TestKey::new(b"alg");
    let url = "https://mcp.example.com/mcp";
    let proof = key.proof(&claims("j", "POST", url, NOW, None));
    let request = ProofRequest {
        algorithms: &["PS256", "EdDSA"],
        ..ProofRequest::new("POST", url, NOW)
    };
    assert_eq!(check(&proof, &request), Err(ProofError::Algorithm));
    // A MAC is never taken, even when a caller lists it.
    let mut header = key.header();
    header["alg"] = json!("HS256");
    let request = ProofRequest {
        algorithms: &["HS256"],
        ..ProofRequest::new("POST", url, NOW)
    };
    let proof = key.sign(&header, br#"{"jti":"j"}"#);
    assert_eq!(check(&proof, &request), Err(ProofError::Algorithm));
}

#[test]
fn a_fractional_iat_is_read_and_rounded_down() {
    let key = TestKey::new(b"iat");
    let url = "https://mcp.example.com/mcp";
    let mut claims = claims("j", "GET", url, NOW, None);
    claims["iat"] = json!(NOW as f64 - 0.5);
    let checked = check(&key.proof(&claims), &ProofRequest::new("GET", url, NOW)).unwrap();
    assert_eq!(checked.iat, NOW - 1);
    // Near the epoch, the window stops at zero instead of wrapping.
    claims["iat"] = json!(0);
    let request = ProofRequest::new("GET", url, 10);
    assert_eq!(check(&key.proof(&claims), &request).unwrap().iat, 0);
}

#[test]
fn errors_say_which_check_failed_and_nothing_of_the_proof() {
    assert_eq!(
        ProofError::Url.to_string(),
        "the DPoP proof's htu is not the request's URL"
    );
    assert!(ProofError::Nonce.is_nonce());
    assert!(!ProofError::Signature.is_nonce());
}
