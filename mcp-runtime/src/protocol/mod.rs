//! Typed MCP protocol messages.
//!
//! Covers the modern (stateless, `2026-07-28`) revision and, as optional superset fields
//! and extra types, the legacy handshake era (`2024-11-05` … `2025-11-25`). Every type
//! round-trips the spec examples exactly: optional members are `Option`s that are omitted
//! when `None`, and `_meta` members are raw [`Meta`] maps (typed views of their reserved
//! keys are [`RequestMetaObject`], [`ResultMetaObject`] and friends).

mod capabilities;
mod common;
mod completion;
mod content;
mod elicit_schema;
mod elicitation;
mod envelope;
mod era;
pub mod headers;
mod input;
mod lifecycle;
mod list_result;
mod logging;
mod messages;
mod meta;
mod method;
pub mod methods;
mod notifications;
#[cfg(feature = "http")]
pub(crate) mod param_headers;
mod prompts;
#[cfg(feature = "http")]
pub(crate) mod request_headers;
mod resources;
mod roots;
mod sampling;
mod serde_util;
pub(crate) use serde_util::to_json_via_bytes;
mod skills;
mod subscriptions;
mod tasks;
mod tools;
mod version;

pub use capabilities::*;
pub use common::*;
pub use completion::*;
pub use content::*;
pub use elicit_schema::*;
pub use elicitation::*;
pub use envelope::*;
pub use era::Era;
pub use input::*;
pub use lifecycle::*;
pub use list_result::Paged;
pub use logging::*;
pub use messages::*;
pub use meta::*;
pub use method::{Answerer, Eras, Method, UnknownMethod};
pub use notifications::*;
pub use prompts::*;
pub use resources::*;
pub use roots::*;
pub use sampling::*;
pub use skills::*;
pub use subscriptions::*;
pub use tasks::*;
pub use tools::*;
pub use version::*;
