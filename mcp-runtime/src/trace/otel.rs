//! The bridge between [`TraceContext`] and OpenTelemetry (feature
//! `opentelemetry`): the server's request span takes the caller's span as
//! its OpenTelemetry parent, and a client request continues the current
//! OpenTelemetry span when there is one. Both do nothing when no
//! `tracing-opentelemetry` layer is installed.

use std::str::FromStr;

use opentelemetry::Context;
use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
use tracing_opentelemetry::OpenTelemetrySpanExt;

use super::TraceContext;

/// Makes the caller's span (the one its `traceparent` named) the
/// OpenTelemetry parent of `span`, the server's `mcp.request` span. A
/// request without a valid `traceparent` leaves `span` as it is.
pub(crate) fn set_parent(span: &tracing::Span, caller: Option<&TraceContext>) {
    let Some(remote) = caller.and_then(remote_parent) else {
        return;
    };
    // Fails only when no OpenTelemetry layer sees the span (none installed,
    // or the span is filtered out): then there is nothing to connect.
    let _ = span.set_parent(Context::new().with_remote_span_context(remote));
}

/// The current `tracing` span's OpenTelemetry context, as the context an
/// outgoing request sends (its `span_id` is that span's), when it is valid.
/// Only the client sends requests.
#[cfg(feature = "client")]
pub(crate) fn current() -> Option<TraceContext> {
    let context = tracing::Span::current().context();
    let span = context.span();
    let span = span.span_context();
    if !span.is_valid() {
        return None;
    }
    let header = span.trace_state().header();
    Some(TraceContext {
        trace_id: span.trace_id().to_bytes(),
        span_id: span.span_id().to_bytes(),
        parent_span_id: None,
        flags: span.trace_flags().to_u8(),
        tracestate: (!header.is_empty()).then_some(header),
    })
}

/// The caller's span as an OpenTelemetry remote span context.
fn remote_parent(caller: &TraceContext) -> Option<SpanContext> {
    let span_id = caller.parent_span_id?;
    let state = caller
        .tracestate()
        .and_then(|state| TraceState::from_str(state).ok())
        .unwrap_or_default();
    let remote = SpanContext::new(
        TraceId::from_bytes(caller.trace_id),
        SpanId::from_bytes(span_id),
        TraceFlags::new(caller.flags),
        true,
        state,
    );
    remote.is_valid().then_some(remote)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remote_parent_is_the_callers_span() {
        let caller = TraceContext::parse(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            Some("vendor=value"),
        )
        .unwrap();
        let remote = remote_parent(&caller).unwrap();
        assert_eq!(
            remote.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(remote.span_id().to_string(), "00f067aa0ba902b7");
        assert!(remote.is_remote() && remote.is_sampled());
        assert_eq!(remote.trace_state().header(), "vendor=value");
        // A root has no caller to be the child of.
        assert!(remote_parent(&TraceContext::new_root()).is_none());
    }

    #[cfg(feature = "client")]
    #[test]
    fn without_a_layer_there_is_no_current_context() {
        assert_eq!(current(), None);
    }
}
