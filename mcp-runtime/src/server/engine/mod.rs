//! The request engine: one decoded request in, one encoded reply out. The
//! stages run in this order, each in the module named for it:
//!
//! 1. [`request`]: the entry; settles the era on the session.
//! 2. [`classify`]: the method parsed into a [`Method`](crate::protocol::Method),
//!    `_meta` taken off, a 2026-07-28 client's declarations read and its
//!    HTTP headers checked: the typed request.
//! 3. [`era`]: the era's rules (a legacy session needs `initialize`) and
//!    the [`RequestContext`](crate::server::RequestContext).
//! 4. [`intercept`]: the server's middleware, if any, which may answer
//!    the request itself (era plumbing bypasses it, by the method table).
//! 5. [`route`]: one `match` over the method, to the code that answers it.
//! 6. [`rounds`]: answers from earlier rounds in, open questions out.
//! 7. [`invoke`]: validate the arguments, run the handler, check its result.
//! 8. [`shape`]: the result in its era's shape, encoded.
//!
//! Shared by the stages: [`params`] (reading parameters), [`session`]
//! (per connection), [`context`] and [`peer`] (what a handler sees and
//! where its notifications go), [`input`] (asking the client), and
//! [`request_state`]. Methods outside the common path have their own
//! modules: [`discover`], [`listen`], [`subscribe`] and [`task`].
//! Announcements of changes reach a listener through [`announce`]: a
//! `subscriptions/listen` stream, or a legacy session's [`legacy_feed`],
//! which the transports run.

pub(crate) mod announce;
pub(crate) mod ask;
pub(crate) mod classify;
pub(crate) mod client_meta;
pub(crate) mod context;
pub(crate) mod discover;
pub(crate) mod era;
pub(crate) mod inbound;
pub(crate) mod input;
pub(crate) mod intercept;
pub(crate) mod invoke;
pub(crate) mod legacy_feed;
pub(crate) mod listen;
pub(crate) mod method;
pub(crate) mod params;
pub(crate) mod peer;
pub(crate) mod request;
pub(crate) mod request_state;
pub(crate) mod rounds;
pub(crate) mod route;
pub(crate) mod session;
pub(crate) mod shape;
pub(crate) mod subscribe;
pub(crate) mod task;

pub(crate) use discover::discover_result;
