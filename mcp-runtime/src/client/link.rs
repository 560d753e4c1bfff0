//! The transports a client can use, behind one interface.

use serde_json::Value;
use tokio::sync::mpsc;

use super::ClientError;
use super::connection::LineConnection;
use super::http::{HttpLink, MessageHeaders};
use crate::jsonrpc::{ErrorObject, RequestId};
use crate::protocol::{ProgressNotificationParams, ProgressToken};

type Progress = Option<(
    ProgressToken,
    mpsc::UnboundedSender<ProgressNotificationParams>,
)>;

pub(crate) enum Link {
    /// One JSON message per line over a byte stream pair (stdio).
    Lines(LineConnection),
    /// Streamable HTTP (boxed: it is much larger than a line connection).
    Http(Box<HttpLink>),
}

impl Link {
    pub(crate) async fn request(
        &self,
        id: RequestId,
        frame: Vec<u8>,
        headers: MessageHeaders<'_>,
        progress: Progress,
    ) -> Result<Result<Value, ErrorObject>, ClientError> {
        match self {
            Link::Lines(lines) => lines.request(id, frame, progress).await,
            Link::Http(http) => http.request(&id, frame, headers, progress).await,
        }
    }

    pub(crate) async fn notify(
        &self,
        frame: Vec<u8>,
        headers: MessageHeaders<'_>,
    ) -> Result<(), ClientError> {
        match self {
            Link::Lines(lines) => lines.send(frame).await,
            Link::Http(http) => http.notify(frame, headers).await,
        }
    }
}
