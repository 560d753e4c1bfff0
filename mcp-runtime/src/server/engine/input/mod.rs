//! Asking the client for input while a request runs (elicitation, sampling,
//! roots), with one API for both eras:
//!
//! - legacy: a server-to-client JSON-RPC request, answered by the client;
//! - 2026-07-28: the handler's question is collected, the request ends with
//!   an `input_required` result, and the client retries with the answers.
//!   The handler then runs again from the start and the same question, asked
//!   in the same order, is answered at once from the retry.
//!
//! Handlers should therefore ask their questions before side effects.

mod error;
mod replies;
mod state;

pub use error::InputError;
pub(crate) use replies::{Forget, Replies};
pub(crate) use state::{InputState, unreadable_answer};
