//! The protected server's side of DPoP (RFC 9449 section 7): a request
//! with a DPoP-bound access token (`Authorization: DPoP <token>`) carries
//! a proof, signed with the key the token names (`cnf.jkt`), that is made
//! for this request (method, URL, token) and never seen before.
//!
//! [`DpopPolicy`] is what a server sets; the HTTP transport asks it about
//! each request: the proof first ([`DpopPolicy::check`], no I/O), then,
//! once the token is verified, the binding and the replay
//! ([`DpopPolicy::accept`]), so that only the holder of a valid token can
//! fill the memory of seen proofs.

mod nonce;
mod replay;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::{AuthSetupError, Principal};
use crate::lifetime::unix_now;
use crate::oauth::dpop::{
    ALGORITHMS, CheckedProof, DEFAULT_MAX_AGE_SECS, MAX_CLOCK_SKEW_SECS, ProofError, ProofRequest,
    check_proof,
};
use nonce::Nonces;
use replay::{MemoryReplayCache, replay_key};
#[cfg(not(feature = "redis"))]
use replay::{ReplayCache, ReplayError};
#[cfg(feature = "redis")]
pub(crate) use replay::{ReplayCache, ReplayError, ReplayKey};

/// How many proofs a server remembers by default: a hundred thousand,
/// about 10 MB at most, enough for over 300 requests a second under the
/// default five-minute window.
pub const DEFAULT_REPLAY_ENTRIES: usize = 100_000;

/// The longest proof age a policy takes: a day.
const MAX_AGE_LIMIT_SECS: u64 = 24 * 60 * 60;

/// How a protected server takes DPoP-bound access tokens (RFC 9449), set
/// with [`AuthConfig::dpop`](super::AuthConfig::dpop).
///
/// With a policy, the server's Protected Resource Metadata lists the
/// proof algorithms it takes (`dpop_signing_alg_values_supported`) and
/// whether bound tokens are required (`dpop_bound_access_tokens_required`);
/// its 401 answers carry a `DPoP` challenge beside the `Bearer` one (alone
/// when bound tokens are required); and a DPoP-bound token sent as a
/// bearer token is refused, as the RFC asks.
///
/// Without a policy, a server still takes a bound token with its proof
/// under the defaults below, and still refuses a bound token sent as a
/// bearer token (its key unproven, it may be stolen), but says nothing
/// of DPoP until a request uses it: unbound bearer tokens work as they
/// always did.
///
/// ```
/// use std::time::Duration;
/// use mcp_toolkit_runtime::server::auth::DpopPolicy;
///
/// let policy = DpopPolicy::new()
///     .required(true)
///     .algorithms(["ES256", "EdDSA"])?
///     .max_age(Duration::from_secs(120))
///     .nonces(Duration::from_secs(300));
/// # Ok::<(), mcp_toolkit_runtime::server::auth::AuthSetupError>(())
/// ```
///
/// Proofs seen are remembered in this process's memory, so that each is
/// taken once. Several instances behind a load balancer share that memory
/// through Redis with [`shared`](Self::shared) (the `redis` feature);
/// without it a proof replayed to another instance within its age window
/// is not caught. Nonces are each instance's own: behind a load balancer,
/// leave them off or keep clients on one instance.
#[derive(Clone)]
pub struct DpopPolicy {
    required: bool,
    algorithms: Vec<&'static str>,
    max_age: u64,
    nonces: Option<Arc<Nonces>>,
    replay: Arc<dyn ReplayCache>,
}

impl Default for DpopPolicy {
    fn default() -> Self {
        DpopPolicy::new()
    }
}

impl DpopPolicy {
    /// Bound tokens taken but not required, every algorithm of
    /// [`ALGORITHMS`], proofs up to five minutes old, no nonces, and
    /// [`DEFAULT_REPLAY_ENTRIES`] proofs remembered.
    pub fn new() -> Self {
        DpopPolicy {
            required: false,
            algorithms: ALGORITHMS.to_vec(),
            max_age: DEFAULT_MAX_AGE_SECS,
            nonces: None,
            replay: Arc::new(MemoryReplayCache::new(DEFAULT_REPLAY_ENTRIES)),
        }
    }

    /// Whether every access token must be DPoP-bound: a bearer token is
    /// then refused with a `DPoP` challenge, whatever it holds.
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// The proof algorithms taken, among [`ALGORITHMS`] (asymmetric
    /// only: never `none` or a MAC).
    pub fn algorithms<I, S>(mut self, algorithms: I) -> Result<Self, AuthSetupError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut taken = Vec::new();
        for name in algorithms {
            let name = name.as_ref();
            let known = ALGORITHMS
                .iter()
                .find(|known| **known == name)
                .ok_or_else(|| {
                    AuthSetupError::new(format!(
                        "{name:?} is not a DPoP proof algorithm; take some of {ALGORITHMS:?}"
                    ))
                })?;
            if !taken.contains(known) {
                taken.push(*known);
            }
        }
        if taken.is_empty() {
            return Err(AuthSetupError::new("a DPoP policy needs an algorithm"));
        }
        self.algorithms = taken;
        Ok(self)
    }

    /// How old a proof may be (its `iat`), in whole seconds, from one to a
    /// day; default five minutes. A proof made up to 30 seconds in the future
    /// is taken too, for clocks a little ahead. Proofs are remembered as
    /// long as this, so it bounds the replay memory in time.
    pub fn max_age(mut self, max_age: Duration) -> Self {
        // At most a day: a proof is made for one request, and the replay
        // memory must outlive it.
        self.max_age = max_age.as_secs().clamp(1, MAX_AGE_LIMIT_SECS);
        self
    }

    /// Asks for a server nonce in every proof (RFC 9449 section 9): a
    /// proof without the current one is refused with `use_dpop_nonce` and
    /// a `DPoP-Nonce` header that holds it. The nonce changes every
    /// `rotate_every` (whole seconds, at least one); the one before is
    /// still taken, and the answer to a request that used it brings the
    /// new one.
    pub fn nonces(mut self, rotate_every: Duration) -> Self {
        self.nonces = Some(Arc::new(Nonces::new(rotate_every)));
        self
    }

    /// How many proofs are remembered at most (default
    /// [`DEFAULT_REPLAY_ENTRIES`]). When that many are younger than the
    /// age window, a new proof is refused with 503 until one expires:
    /// forgetting one early would let it be replayed.
    pub fn max_replay_entries(mut self, entries: usize) -> Self {
        self.replay = Arc::new(MemoryReplayCache::new(entries.max(1)));
        self
    }

    /// Remembers proofs in `state`, the store the instances of this server
    /// share, instead of this process's memory: a proof one instance took
    /// is refused by every other. Each proof is a key that expires with
    /// its age window. When the store cannot answer, proofs are refused
    /// with 503 until it can.
    #[cfg(feature = "redis")]
    pub fn shared(mut self, state: &crate::server::SharedState) -> Self {
        self.replay = Arc::new(state.replay_cache());
        self
    }

    /// Whether bound tokens are required.
    pub(crate) fn is_required(&self) -> bool {
        self.required
    }

    /// The `algs` of a `DPoP` challenge.
    pub(crate) fn algs(&self) -> String {
        self.algorithms.join(" ")
    }

    /// Adds this policy's members to the Protected Resource Metadata
    /// (RFC 9449 section 5.1 names them for RFC 9728).
    pub(crate) fn publish(&self, metadata: &mut Map<String, Value>) {
        metadata.insert(
            "dpop_signing_alg_values_supported".to_owned(),
            json!(self.algorithms),
        );
        metadata.insert(
            "dpop_bound_access_tokens_required".to_owned(),
            json!(self.required),
        );
    }

    /// The nonce to send now, when nonces are on.
    pub(crate) fn nonce(&self) -> Option<String> {
        self.nonces
            .as_ref()
            .map(|nonces| nonces.current(unix_now()))
    }

    /// Checks the request's proof (every `DPoP` header in `values`) for a
    /// `method` request to `resource` with `access_token`.
    pub(crate) fn check<'v>(
        &self,
        values: impl IntoIterator<Item = &'v [u8]>,
        method: &str,
        resource: &str,
        access_token: &str,
    ) -> Result<CheckedProof, DpopRefusal> {
        self.check_at(values, method, resource, access_token, unix_now())
    }

    fn check_at<'v>(
        &self,
        values: impl IntoIterator<Item = &'v [u8]>,
        method: &str,
        resource: &str,
        access_token: &str,
        now: u64,
    ) -> Result<CheckedProof, DpopRefusal> {
        let nonces = self
            .nonces
            .as_ref()
            .map(|nonces| [nonces.current(now), nonces.previous(now)]);
        let nonces: Vec<&str> = nonces.iter().flatten().map(String::as_str).collect();
        let request = ProofRequest {
            method,
            url: resource,
            access_token: Some(access_token),
            algorithms: &self.algorithms,
            now,
            max_age: self.max_age,
            max_skew: MAX_CLOCK_SKEW_SECS,
            nonces: &nonces,
        };
        check_proof(values, &request).map_err(DpopRefusal::Proof)
    }

    /// Takes `proof` for the token `principal` was verified from: the
    /// token must be bound to the proof's key, and the proof new. `Ok`
    /// holds the nonce to send with the answer, when the proof used the
    /// one before the current.
    pub(crate) async fn accept(
        &self,
        proof: &CheckedProof,
        principal: &Principal,
    ) -> Result<Option<String>, DpopRefusal> {
        self.accept_at(proof, principal, unix_now()).await
    }

    async fn accept_at(
        &self,
        proof: &CheckedProof,
        principal: &Principal,
        now: u64,
    ) -> Result<Option<String>, DpopRefusal> {
        match bound_key(principal) {
            None => return Err(DpopRefusal::Unbound),
            Some(jkt) if jkt != proof.thumbprint => return Err(DpopRefusal::OtherKey),
            Some(_) => {}
        }
        // Past iat + max_age the proof is refused as too old, so that is
        // as long as it needs remembering.
        let ttl = proof
            .iat
            .saturating_add(self.max_age)
            .saturating_sub(now)
            .saturating_add(1);
        let key = replay_key(&proof.thumbprint, &proof.jti);
        match self.replay.first_use(key, Duration::from_secs(ttl)).await {
            Ok(true) => {}
            Ok(false) => return Err(DpopRefusal::Replayed),
            Err(ReplayError::Full) => return Err(DpopRefusal::Busy),
            Err(ReplayError::Unavailable(why)) => {
                tracing::warn!(reason = %why, "the store of seen DPoP proofs failed");
                return Err(DpopRefusal::Busy);
            }
        }
        let current = self.nonces.as_ref().map(|nonces| nonces.current(now));
        Ok(current.filter(|current| proof.nonce.as_ref() != Some(current)))
    }
}

impl fmt::Debug for DpopPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DpopPolicy")
            .field("required", &self.required)
            .field("algorithms", &self.algorithms)
            .field("max_age", &self.max_age)
            .field("nonces", &self.nonces)
            .finish_non_exhaustive()
    }
}

/// The `cnf.jkt` of a verified token: the thumbprint of the key it is
/// bound to, if it is bound.
pub(crate) fn bound_key(principal: &Principal) -> Option<&str> {
    principal.claims.get("cnf")?.get("jkt")?.as_str()
}

/// Why a DPoP request, or a bearer one under a DPoP policy, is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DpopRefusal {
    /// The proof fails a check (or lacks the nonce).
    Proof(ProofError),
    /// The proof was seen before.
    Replayed,
    /// The token is bound to another key than the proof's.
    OtherKey,
    /// The token sent with the `DPoP` scheme is not bound.
    Unbound,
    /// A bound token was sent with the `Bearer` scheme.
    BoundAsBearer,
    /// A bearer token, where bound ones are required.
    BearerRefused,
    /// The memory of seen proofs is full.
    Busy,
}

impl DpopRefusal {
    /// The `error` of the `DPoP` challenge; `None` for a refusal that is
    /// no fault of the client's.
    pub(crate) fn error(&self) -> Option<&'static str> {
        match self {
            DpopRefusal::Proof(error) if error.is_nonce() => Some(crate::oauth::dpop::USE_NONCE),
            DpopRefusal::Proof(_) | DpopRefusal::Replayed | DpopRefusal::OtherKey => {
                Some("invalid_dpop_proof")
            }
            DpopRefusal::Unbound | DpopRefusal::BoundAsBearer | DpopRefusal::BearerRefused => {
                Some("invalid_token")
            }
            DpopRefusal::Busy => None,
        }
    }
}

/// The `error_description`: which check failed, never the proof or token.
impl fmt::Display for DpopRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DpopRefusal::Proof(error) => write!(f, "{error}"),
            DpopRefusal::Replayed => f.write_str("the DPoP proof was used before"),
            DpopRefusal::OtherKey => {
                f.write_str("the access token is bound to another key than the DPoP proof's")
            }
            DpopRefusal::Unbound => f.write_str("the access token is not DPoP-bound"),
            DpopRefusal::BoundAsBearer => {
                f.write_str("a DPoP-bound access token must be sent with the DPoP scheme")
            }
            DpopRefusal::BearerRefused => {
                f.write_str("this resource takes only DPoP-bound access tokens")
            }
            DpopRefusal::Busy => f.write_str("too many DPoP proofs to remember; try again later"),
        }
    }
}

#[cfg(test)]
mod tests;
