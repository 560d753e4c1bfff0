//! Retrying a 2026-07-28 request that the server rejected with -32022
//! (unsupported protocol version) when the versions it lists include ours:
//! the spec's client behaviour, and what some servers (and the conformance
//! suite) expect after a rejected first choice.

use serde_json::{Map, Value};
use tokio::sync::mpsc;

use super::{ClientError, Inner, RequestMethod};
use crate::jsonrpc::code;
use crate::protocol::Era;
use crate::protocol::{LATEST_PROTOCOL_VERSION, ProgressNotificationParams};

impl Inner {
    /// [`send_once`](Self::send_once), sent once more (under a new id) when
    /// a modern request gets -32022 whose `data.supported` names the version
    /// we speak. Any other outcome, or a second -32022, is final.
    pub(super) async fn round_trip(
        &self,
        method: RequestMethod<'_>,
        params: Map<String, Value>,
        progress: Option<mpsc::UnboundedSender<ProgressNotificationParams>>,
        era: Era,
    ) -> Result<Value, ClientError> {
        let outcome = self
            .send_once(method, params.clone(), progress.clone(), era)
            .await;
        match outcome {
            Err(ClientError::Protocol(error))
                if era == Era::Modern
                    && error.code == code::UNSUPPORTED_PROTOCOL_VERSION
                    && offers_ours(&error.data) =>
            {
                tracing::debug!(%method, "retrying after -32022 that lists our version");
                self.send_once(method, params, progress, era).await
            }
            other => other,
        }
    }
}

/// Whether a -32022 error's `data.supported` lists the version we speak.
pub(super) fn offers_ours(data: &Option<Value>) -> bool {
    data.as_ref()
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .is_some_and(|versions| versions.iter().any(|v| v == LATEST_PROTOCOL_VERSION))
}

#[cfg(test)]
mod tests {
    use super::offers_ours;
    use serde_json::json;

    #[test]
    fn retries_only_when_our_version_is_offered() {
        assert!(offers_ours(&Some(
            json!({"supported": ["2026-07-28"], "requested": "x"})
        )));
        assert!(!offers_ours(&Some(json!({"supported": ["2025-11-25"]}))));
        assert!(!offers_ours(&None));
    }
}
