//! JSON-RPC 2.0: ids, error objects, decoding and encoding of messages.

mod encode;
mod error;
mod id;
mod message;

pub(crate) use encode::written_result_frame;
pub use encode::{error_frame, notification_frame, request_frame, result_frame};
pub use error::{ErrorObject, code};
pub use id::RequestId;
pub use message::{Incoming, Notification, Rejected, Request, Response, decode};
