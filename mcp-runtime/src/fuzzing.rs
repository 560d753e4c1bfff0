//! Entry points for the fuzz targets in `fuzz/`: internal parsers that have
//! no public API of their own. Compiled only with the `fuzzing` feature; not
//! a stable API.

use serde_json::{Map, Value};

/// Parses a `SKILL.md` and returns its frontmatter fields, or the error
/// message the loader would report.
pub fn frontmatter(text: &str) -> Result<Map<String, Value>, String> {
    crate::frontmatter::parse(text)
        .map(|document| document.fields)
        .map_err(|error| error.to_string())
}

/// Checks `value` against `schema` with the built-in validator (the one a
/// build without the `validation` feature uses, whatever features this
/// build has): `Err` when the schema is refused, else every violation as
/// `(pointer, message)`.
pub fn lean_schema_check(schema: &Value, value: &Value) -> Result<Vec<(String, String)>, String> {
    let compiled = crate::schema::lean::LeanSchema::compile(schema)?;
    let errors = compiled.errors(value);
    debug_assert_eq!(errors.is_empty(), compiled.is_valid(value));
    Ok(errors)
}

/// One completed SSE event: its `id`, if any, and its data.
pub type SseEvent = (Option<String>, Vec<u8>);

/// Feeds `chunks` to one SSE decoder with a per-event `limit`; returns each
/// completed event, or the decoder's error.
pub fn sse_events(chunks: &[&[u8]], limit: usize) -> Result<Vec<SseEvent>, String> {
    let mut decoder = crate::client::sse::SseDecoder::default();
    let mut events = Vec::new();
    for chunk in chunks {
        for event in decoder.feed(chunk, limit)? {
            events.push((event.id, event.data));
        }
    }
    Ok(events)
}

/// The request every DPoP proof of the fuzz target is checked against: a
/// POST to `https://mcp.example.com/mcp` at Unix time 1,800,000,000 with
/// the access token `an-access-token`, wanting the nonce `a-nonce`.
#[cfg(feature = "jwt")]
fn dpop_request() -> crate::oauth::dpop::ProofRequest<'static> {
    crate::oauth::dpop::ProofRequest {
        access_token: Some("an-access-token"),
        nonces: &["a-nonce"],
        ..crate::oauth::dpop::ProofRequest::new(
            "POST",
            "https://mcp.example.com/mcp",
            1_800_000_000,
        )
    }
}

/// Checks `value` as the one `DPoP` header of the request above: the
/// thumbprint of the proof's key, or the refusal.
#[cfg(feature = "jwt")]
pub fn dpop_check(value: &[u8]) -> Result<String, String> {
    crate::oauth::dpop::check_proof([value], &dpop_request())
        .map(|proof| proof.thumbprint)
        .map_err(|error| error.to_string())
}

/// A proof whose claims are `payload` (any bytes), with a well-formed
/// header, signed by a fixed P-256 key: what reaches the claims checks,
/// which only a signed proof does. Returns the proof and the key's
/// thumbprint.
#[cfg(feature = "jwt")]
pub fn dpop_sign(payload: &[u8]) -> (String, String) {
    use crate::oauth::dpop::test_proofs::TestKey;
    use std::sync::OnceLock;

    // Making a key costs more than a run of the target.
    static KEY: OnceLock<TestKey> = OnceLock::new();
    let key = KEY.get_or_init(|| TestKey::new(b"fuzz"));
    (key.sign(&key.header(), payload), key.thumbprint())
}
