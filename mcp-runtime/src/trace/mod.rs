//! W3C Trace Context carried in a request's `_meta` (SEP-414: the keys
//! `traceparent` and `tracestate`), so that one call can be followed across
//! processes.
//!
//! - A server reads them from every request, in both eras. The request's
//!   `tracing` span (`mcp.request`) records `trace_id`, its own `span_id`
//!   and the caller's `parent_span_id`, and the handler runs with the
//!   span's context as the [current](TraceContext::current) one.
//! - A client sends the current context's trace with a new span id (its
//!   `mcp.client.request` span) on every request made while one is current:
//!   inside a handler, that forwards the trace to the next server; elsewhere,
//!   start one with [`TraceContext::new_root`] and
//!   [`in_scope`](TraceContext::in_scope). A `traceparent` the caller put
//!   in `_meta` itself is left alone.
//!
//! A malformed `traceparent` or `tracestate` is ignored: it never fails a
//! request. `baggage` is passed through untouched and not interpreted.
//!
//! # OpenTelemetry
//!
//! With the `opentelemetry` feature (off by default) the same context also
//! reaches OpenTelemetry through [`tracing-opentelemetry`]'s layer, when the
//! application installs one (for example the one `trace::otlp::layer`
//! builds, which exports to an OTLP/HTTP collector):
//!
//! - the server's `mcp.request` span gets the caller's span (from
//!   `traceparent`/`tracestate`) as its OpenTelemetry parent, so the
//!   exported span continues the caller's trace under the caller's span;
//! - a client request made while a `tracing` span with a valid
//!   OpenTelemetry context is current (the application's own span, or a
//!   handler's `mcp.request`) sends that span as the `traceparent`, so an
//!   application that already uses OpenTelemetry continues its own trace.
//!   The span sent is the request's own `mcp.client.request` span (a child
//!   of the current one), so the exported trace reads caller → client
//!   request → server request. Without a valid OpenTelemetry context the
//!   client falls back to the [current](TraceContext::current) context as
//!   above.
//!
//! The `trace_id`/`span_id`/`parent_span_id` fields of the `tracing` spans
//! are recorded as before; OpenTelemetry gives its spans ids of its own.
//!
//! [`tracing-opentelemetry`]: https://docs.rs/tracing-opentelemetry
//!
//! ```
//! use mcp_toolkit_runtime::trace::TraceContext;
//!
//! let parent = TraceContext::parse(
//!     "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
//!     Some("vendor=value"),
//! )
//! .unwrap();
//! let child = parent.child();
//! assert_eq!(child.trace_id(), "4bf92f3577b34da6a3ce929d0e0e4736");
//! assert_ne!(child.span_id(), parent.span_id());
//! assert!(child.traceparent().starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
//! assert_eq!(child.tracestate(), Some("vendor=value"));
//! ```

use std::fmt::Write;
use std::future::Future;

use tokio::task::futures::TaskLocalFuture;
use tokio_util::either::Either;

#[cfg(feature = "opentelemetry")]
pub(crate) mod otel;
#[cfg(feature = "opentelemetry")]
pub mod otlp;

/// The `_meta` key of the W3C `traceparent`.
pub const META_TRACEPARENT: &str = "traceparent";
/// The `_meta` key of the W3C `tracestate`.
pub const META_TRACESTATE: &str = "tracestate";

/// The longest `tracestate` kept (W3C: 32 members; 512 characters is what
/// the spec asks every vendor to accept).
const MAX_TRACESTATE: usize = 512;

tokio::task_local! {
    static CURRENT: TraceContext;
}

/// A position in a distributed trace: the trace, this span in it, and the
/// vendor state that travels with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceContext {
    trace_id: [u8; 16],
    span_id: [u8; 8],
    parent_span_id: Option<[u8; 8]>,
    flags: u8,
    tracestate: Option<String>,
}

impl TraceContext {
    /// A context that continues the caller's: the trace and span named by
    /// `traceparent` (`00-<32 hex>-<16 hex>-<2 hex>`, lowercase, neither id
    /// all zeros), as a new span whose parent is the caller's. `None` when
    /// `traceparent` is malformed; an invalid `tracestate` is dropped.
    pub fn parse(traceparent: &str, tracestate: Option<&str>) -> Option<Self> {
        let parent = Self::parse_parent(traceparent)?;
        let tracestate = tracestate
            .filter(|state| state.len() <= MAX_TRACESTATE && state.bytes().all(is_state_byte))
            .filter(|state| !state.trim().is_empty())
            .map(str::to_owned);
        Some(TraceContext {
            tracestate,
            ..parent
        })
    }

    /// The caller's span as sent: its trace, span id and flags.
    fn parse_parent(traceparent: &str) -> Option<Self> {
        let mut parts = traceparent.split('-');
        let version = parts.next()?;
        let trace_id = parts.next()?;
        let span_id = parts.next()?;
        let flags = parts.next()?;
        // Version 00 has exactly four fields; a later version may add more,
        // which a version-00 reader skips (W3C Trace Context 4.3).
        if version.len() != 2 || version == "ff" || (version == "00" && parts.next().is_some()) {
            return None;
        }
        hex::<1>(version)?;
        let trace_id = hex::<16>(trace_id).filter(|id| *id != [0; 16])?;
        let span_id = hex::<8>(span_id).filter(|id| *id != [0; 8])?;
        let [flags] = hex::<1>(flags)?;
        Some(TraceContext {
            trace_id,
            span_id,
            parent_span_id: None,
            flags,
            tracestate: None,
        })
        .map(|caller| caller.child())
    }

    /// The first span of a new trace (sampled).
    pub fn new_root() -> Self {
        let mut trace_id = random::<16>();
        // An all-zero id is invalid; the odds are 2^-128, the fix is free.
        trace_id[15] |= (trace_id == [0; 16]) as u8;
        TraceContext {
            trace_id,
            span_id: span_id(),
            parent_span_id: None,
            flags: 1,
            tracestate: None,
        }
    }

    /// A new span in the same trace, whose parent is this one.
    pub fn child(&self) -> Self {
        TraceContext {
            trace_id: self.trace_id,
            span_id: span_id(),
            parent_span_id: Some(self.span_id),
            flags: self.flags,
            tracestate: self.tracestate.clone(),
        }
    }

    /// The trace id, 32 lowercase hex digits.
    pub fn trace_id(&self) -> String {
        to_hex(&self.trace_id)
    }

    /// This span's id, 16 lowercase hex digits.
    pub fn span_id(&self) -> String {
        to_hex(&self.span_id)
    }

    /// The parent span's id, when this span has one.
    pub fn parent_span_id(&self) -> Option<String> {
        self.parent_span_id.as_ref().map(|id| to_hex(id))
    }

    /// Whether the trace is sampled (flag `01`).
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }

    /// The `traceparent` that makes this span the parent of the receiver's.
    pub fn traceparent(&self) -> String {
        format!(
            "00-{}-{}-{:02x}",
            self.trace_id(),
            self.span_id(),
            self.flags
        )
    }

    /// The vendor state travelling with the trace.
    pub fn tracestate(&self) -> Option<&str> {
        self.tracestate.as_deref()
    }

    /// The context of the code running now: inside a server's handler, its
    /// request's; inside [`in_scope`](Self::in_scope), that one.
    pub fn current() -> Option<TraceContext> {
        CURRENT.try_with(Clone::clone).ok()
    }

    /// Runs `future` with this context as the [current](Self::current) one,
    /// so that the requests its clients make continue this trace. The
    /// returned future holds `future` once (an `async fn` here would hold it
    /// twice over, in its argument and in the scope it awaits).
    pub fn in_scope<F: Future>(self, future: F) -> TaskLocalFuture<TraceContext, F> {
        CURRENT.scope(self, future)
    }
}

/// The context an outgoing request sends: with the `opentelemetry`
/// feature, the current span's OpenTelemetry context when it has one;
/// otherwise a child of the [current](TraceContext::current) context.
#[cfg(feature = "client")]
pub(crate) fn outgoing() -> Option<TraceContext> {
    #[cfg(feature = "opentelemetry")]
    if let Some(context) = otel::current() {
        return Some(context);
    }
    TraceContext::current().map(|context| context.child())
}

/// Runs `future` under `context` when there is one. Not an `async fn`:
/// that would hold `future` once as its argument and again in the branch it
/// awaits, and a request's future is moved (copied) into its box whole.
pub(crate) fn scoped<F: Future>(
    context: Option<TraceContext>,
    future: F,
) -> Either<TaskLocalFuture<TraceContext, F>, F> {
    match context {
        Some(context) => Either::Left(context.in_scope(future)),
        None => Either::Right(future),
    }
}

/// `tracestate` allows printable ASCII (list members and their separators).
fn is_state_byte(byte: u8) -> bool {
    (0x20..=0x7e).contains(&byte)
}

/// Exactly `2 * N` lowercase hex digits.
fn hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 * N {
        return None;
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let mut out = [0; N];
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

fn span_id() -> [u8; 8] {
    let mut id = random::<8>();
    id[7] |= (id == [0; 8]) as u8;
    id
}

fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0; N];
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn a_valid_traceparent_continues_its_trace_under_a_new_span() {
        let context = TraceContext::parse(PARENT, None).unwrap();
        assert_eq!(context.trace_id(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(
            context.parent_span_id().as_deref(),
            Some("00f067aa0ba902b7")
        );
        assert_ne!(context.span_id(), "00f067aa0ba902b7");
        assert!(context.sampled());
        let sent = context.traceparent();
        assert_eq!(
            TraceContext::parse(&sent, None).unwrap().parent_span_id(),
            Some(context.span_id())
        );
    }

    #[test]
    fn malformed_traceparents_are_refused() {
        for bad in [
            "",
            "00",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",
            "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
            "00-4bf92f3577b34da6a3ce929d0e0e47é-00f067aa0ba902b7-01",
        ] {
            assert_eq!(TraceContext::parse(bad, None), None, "{bad:?}");
        }
        // A later version may carry more fields.
        assert!(
            TraceContext::parse(
                "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future",
                None
            )
            .is_some()
        );
    }

    #[test]
    fn an_invalid_tracestate_is_dropped_not_fatal() {
        let long = "a=".to_owned() + &"b".repeat(600);
        for bad in ["line\nbreak", long.as_str(), "  "] {
            let context = TraceContext::parse(PARENT, Some(bad)).unwrap();
            assert_eq!(context.tracestate(), None);
        }
    }

    #[test]
    fn roots_are_valid_and_distinct() {
        let (a, b) = (TraceContext::new_root(), TraceContext::new_root());
        assert_ne!(a.trace_id(), b.trace_id());
        assert_eq!(a.parent_span_id(), None);
        assert!(TraceContext::parse(&a.traceparent(), None).is_some());
    }

    #[tokio::test]
    async fn the_scope_sets_the_current_context() {
        assert_eq!(TraceContext::current(), None);
        let root = TraceContext::new_root();
        let seen = root
            .clone()
            .in_scope(async { TraceContext::current() })
            .await;
        assert_eq!(seen, Some(root));
    }
}
