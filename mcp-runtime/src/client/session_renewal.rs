//! A legacy HTTP session the server forgot (404 on its id: it expired, or
//! the server restarted) is started again with `initialize`, and the
//! request sent once more, as the spec asks of clients.

use serde_json::{Map, Value};
use tokio::sync::mpsc;

use super::link::Link;
use super::{ClientError, Inner, RequestMethod, negotiate};
use crate::protocol::ProgressNotificationParams;

impl Inner {
    /// [`round_trip`](Self::round_trip) in the negotiated era, renewing an
    /// expired legacy session once.
    pub(super) async fn renewing_session(
        &self,
        method: RequestMethod<'_>,
        params: Map<String, Value>,
        progress: Option<mpsc::UnboundedSender<ProgressNotificationParams>>,
    ) -> Result<Value, ClientError> {
        let era = self.server.era;
        match self
            .round_trip(method, params.clone(), progress.clone(), era)
            .await
        {
            Err(ClientError::SessionExpired) => {
                let Link::Http(http) = &self.link else {
                    return Err(ClientError::SessionExpired);
                };
                tracing::info!(%method, "the server forgot the session; starting a new one");
                http.forget_session();
                negotiate::initialize(self).await?;
                self.round_trip(method, params, progress, era).await
            }
            other => other,
        }
    }
}
