//! `requestState` for multi-round-trip requests (2026-07-28): the answers
//! gathered so far, sealed with HMAC-SHA-256 so that a client can carry
//! them but not change them, bound to one request and an expiry.
//!
//! Format: `base64url(payload) "." base64url(mac)`, payload JSON
//! `{"v":1,"m":method,"d":digest,"e":expiry_ms,"r":{answers}}`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac_sha256::{HMAC, Hash};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::canonical::write_canonical;
use crate::jsonrpc::ErrorObject;
use crate::lifetime::millis;
use crate::protocol::JsonObject;

/// The secret that seals request states. Give every instance behind a load
/// balancer the same key so that any of them can continue a request.
#[derive(Clone)]
pub struct StateKey([u8; 32]);

impl StateKey {
    /// A key from 32 secret bytes.
    pub fn new(bytes: [u8; 32]) -> Self {
        StateKey(bytes)
    }

    /// A fresh random key (request states then only verify on this process).
    pub fn random() -> Self {
        let mut bytes = [0; 32];
        getrandom::fill(&mut bytes).expect("the OS random source is available");
        StateKey(bytes)
    }

    fn mac(&self, payload: &str) -> [u8; 32] {
        HMAC::mac(payload, self.0)
    }

    /// Whether `tag` is this key's MAC of `payload`, compared in constant time.
    fn verifies(&self, payload: &str, tag: &[u8; 32]) -> bool {
        HMAC::verify(payload, self.0, tag)
    }
}

impl std::fmt::Debug for StateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateKey(..)")
    }
}

/// Sealed with borrowed parts (`Payload<&str, &A>`), opened as owned ones.
#[derive(Serialize, Deserialize)]
struct Payload<S, R> {
    v: u8,
    m: S,
    d: S,
    e: u64,
    r: R,
}

/// A digest of what makes a request itself: its method, its target and
/// its arguments (canonical JSON), so that state from one request is
/// refused on another.
pub(crate) fn request_digest(method: &str, target: &str, arguments: &Value) -> String {
    let mut hasher = Hash::new();
    for part in [method, "\0", target, "\0"] {
        hasher.update(part.as_bytes());
    }
    write_canonical(arguments, &mut |bytes| hasher.update(bytes));
    URL_SAFE_NO_PAD.encode(hasher.finalize())
}

/// Seals `answers` (a JSON object of answers, keyed like the questions)
/// for the request with `digest`, valid for `ttl`.
pub(crate) fn seal(
    key: &StateKey,
    method: &str,
    digest: &str,
    answers: &impl Serialize,
    ttl: Duration,
) -> String {
    let payload = Payload {
        v: 1,
        m: method,
        d: digest,
        e: now_ms().saturating_add(millis(ttl)),
        r: answers,
    };
    let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&payload).expect("answers serialize"));
    let tag = URL_SAFE_NO_PAD.encode(key.mac(&payload));
    format!("{payload}.{tag}")
}

/// Opens a state sealed by [`seal`], refusing a forged, altered, expired or
/// misplaced one with -32602.
pub(crate) fn open(
    key: &StateKey,
    state: &str,
    method: &str,
    digest: &str,
) -> Result<JsonObject, ErrorObject> {
    let refuse = |why: &str| ErrorObject::invalid_params(format!("invalid requestState: {why}"));
    let (payload, tag) = state.split_once('.').ok_or_else(|| refuse("malformed"))?;
    let tag: [u8; 32] = URL_SAFE_NO_PAD
        .decode(tag)
        .ok()
        .and_then(|tag| tag.try_into().ok())
        .ok_or_else(|| refuse("malformed"))?;
    if !key.verifies(payload, &tag) {
        return Err(refuse("it was not issued by this server or was altered"));
    }
    let payload = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| refuse("malformed"))?;
    let payload: Payload<String, JsonObject> =
        serde_json::from_slice(&payload).map_err(|_| refuse("malformed"))?;
    if payload.v != 1 || payload.m != method || payload.d != digest {
        return Err(refuse("it belongs to a different request"));
    }
    if payload.e < now_ms() {
        return Err(refuse("it has expired; start the request again"));
    }
    Ok(payload.r)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, millis)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    fn answers() -> JsonObject {
        let answer = json!({"action": "accept", "content": {"name": "octocat"}});
        JsonObject::from_iter([("input-0".to_owned(), answer)])
    }

    #[test]
    fn round_trips_for_the_same_request() {
        let key = StateKey::random();
        let digest = request_digest("tools/call", "login", &json!({"a": 1, "b": [2]}));
        let state = seal(
            &key,
            "tools/call",
            &digest,
            &answers(),
            Duration::from_secs(60),
        );
        assert_eq!(
            open(&key, &state, "tools/call", &digest).unwrap(),
            answers()
        );
    }

    #[test]
    fn key_order_does_not_change_the_digest() {
        assert_eq!(
            request_digest("tools/call", "t", &json!({"a": 1, "b": 2})),
            request_digest(
                "tools/call",
                "t",
                &serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap()
            )
        );
    }

    #[test]
    fn refuses_tampering_other_keys_other_requests_and_expiry() {
        let key = StateKey::random();
        let digest = request_digest("tools/call", "login", &json!({}));
        let state = seal(
            &key,
            "tools/call",
            &digest,
            &answers(),
            Duration::from_secs(60),
        );

        let mut tampered = state.clone().into_bytes();
        tampered[3] ^= 1;
        let tampered = String::from_utf8(tampered).unwrap();
        assert!(open(&key, &tampered, "tools/call", &digest).is_err());
        assert!(open(&StateKey::random(), &state, "tools/call", &digest).is_err());
        let other = request_digest("tools/call", "login", &json!({"x": 1}));
        assert!(open(&key, &state, "tools/call", &other).is_err());
        assert!(open(&key, &state, "prompts/get", &digest).is_err());
        assert!(open(&key, "garbage", "tools/call", &digest).is_err());

        let expired = seal(&key, "tools/call", &digest, &answers(), Duration::ZERO);
        std::thread::sleep(Duration::from_millis(5));
        let error = open(&key, &expired, "tools/call", &digest).unwrap_err();
        assert!(error.message.contains("expired"), "{error}");
    }

    #[test]
    fn a_ttl_too_long_for_milliseconds_saturates_instead_of_wrapping() {
        // 2^61 s is 125 * 2^64 ms: wrapped to u64, no time at all.
        let key = StateKey::random();
        let digest = request_digest("tools/call", "t", &json!({}));
        let ttl = Duration::from_secs(1 << 61);
        let state = seal(&key, "tools/call", &digest, &answers(), ttl);
        std::thread::sleep(Duration::from_millis(5));
        assert!(open(&key, &state, "tools/call", &digest).is_ok());
    }

    #[test]
    fn a_shared_key_works_across_instances() {
        let (a, b) = (StateKey::new([7; 32]), StateKey::new([7; 32]));
        let digest = request_digest("tools/call", "t", &json!({}));
        let state = seal(
            &a,
            "tools/call",
            &digest,
            &answers(),
            Duration::from_secs(60),
        );
        assert!(open(&b, &state, "tools/call", &digest).is_ok());
    }

    /// States sealed before answers were sealed in place (from an owned
    /// `JsonObject`) are still in clients' hands: the borrowed answers must
    /// seal to the same bytes, in the documented format.
    #[test]
    fn borrowed_answers_seal_to_the_format_of_owned_ones() {
        let key = StateKey::new([7; 32]);
        // An expiry that saturates at u64::MAX: the same state every time.
        let forever = Duration::MAX;
        let owned: JsonObject = serde_json::from_value(json!({
            "b/1": {"action": "accept", "content": {"name": "Ada \u{e9}\"\n", "n": 12345678901234567890u64}},
            "a": {"roots": []},
        }))
        .unwrap();
        let borrowed: BTreeMap<&str, &Value> = owned.iter().map(|(k, v)| (k.as_str(), v)).collect();
        let sealed = seal(&key, "tools/call", "digest", &borrowed, forever);
        assert_eq!(sealed, seal(&key, "tools/call", "digest", &owned, forever));
        let payload = sealed.split_once('.').unwrap().0;
        let payload: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        assert_eq!(
            payload,
            json!({"v": 1, "m": "tools/call", "d": "digest", "e": u64::MAX, "r": owned})
        );
        assert_eq!(open(&key, &sealed, "tools/call", "digest").unwrap(), owned);
    }
}
