//! Export the `tracing` spans (ours and the application's) to an
//! OpenTelemetry collector over OTLP/HTTP (binary protobuf), feature
//! `opentelemetry`.
//!
//! [`layer`] builds a [`tracing-opentelemetry`] layer whose spans go to
//! the collector in batches, and an [`OtlpGuard`] that flushes and stops
//! the exporter when dropped: keep it alive as long as spans should be
//! exported (usually until `main` returns). The export runs on its own
//! threads (the SDK's batch thread and a one-worker Tokio runtime), so it
//! works under any runtime, or none, and dropping the guard does not need
//! the application's runtime to make progress.
//!
//! `https://` collectors need the `tls` feature and trust the same roots as
//! the MCP client (the platform's plus `SSL_CERT_FILE` / `SSL_CERT_DIR`).
//! The usual `OTEL_*` variables (`OTEL_RESOURCE_ATTRIBUTES`,
//! `OTEL_EXPORTER_OTLP_HEADERS`, ...) are honoured by the SDK; the endpoint
//! given here wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.
//!
//! ```no_run
//! use tracing_subscriber::layer::SubscriberExt;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let (otlp, _guard) = mcp_toolkit_runtime::trace::otlp::layer("echo-server", "http://localhost:4318")?;
//! let subscriber = tracing_subscriber::registry().with(otlp);
//! tracing::subscriber::set_global_default(subscriber)?;
//! // ... serve; every request's `mcp.request` span is exported, as a child
//! // of the caller's span when the request carried a `traceparent`.
//! # Ok(())
//! # }
//! ```
//!
//! [`tracing-opentelemetry`]: https://docs.rs/tracing-opentelemetry

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetryLayer;
use tracing_subscriber::registry::LookupSpan;

use crate::outbound;

/// How long one export may take (OTLP's default).
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest collector response read (it is a small status message).
const MAX_RESPONSE: usize = 1 << 20;
/// The OTLP/HTTP path for traces.
const TRACES_PATH: &str = "/v1/traces";

/// A `tracing` layer exporting spans to the OTLP/HTTP collector at
/// `endpoint`, under the resource `service.name` = `service_name`, and the
/// guard that flushes it.
///
/// `endpoint` is the collector's base URL, such as
/// `http://localhost:4318`; `/v1/traces` is appended unless the URL already
/// ends with it.
///
/// # Errors
///
/// When `endpoint` is not an `http://` or `https://` URL (or `https://`
/// without the `tls` feature), or the exporter cannot be built.
pub fn layer<S>(
    service_name: &str,
    endpoint: &str,
) -> Result<(OpenTelemetryLayer<S, SdkTracer>, OtlpGuard), OtlpError>
where
    S: tracing::Subscriber + for<'span> LookupSpan<'span>,
{
    let endpoint = traces_url(endpoint);
    let uri = endpoint.parse().map_err(|e| {
        let endpoint = crate::redact::RedactedUrl::new(&endpoint);
        OtlpError(format!("invalid endpoint {endpoint:?}: {e}"))
    })?;
    let client = outbound::client_for(&uri).map_err(|e| OtlpError(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("mcp-otlp-export")
        .enable_all()
        .build()
        .map_err(|e| OtlpError(format!("cannot start the export runtime: {e}")))?;
    let transport = Transport {
        client,
        runtime: Some(runtime),
    };
    let exporter = SpanExporter::builder()
        .with_http()
        .with_http_client(transport)
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(endpoint)
        .with_timeout(EXPORT_TIMEOUT)
        .build()
        .map_err(|e| OtlpError(format!("cannot build the OTLP exporter: {e}")))?;
    let resource = Resource::builder()
        .with_service_name(service_name.to_owned())
        .build();
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource)
        .build();
    let tracer = provider.tracer("mcp-toolkit-runtime");
    let layer = tracing_opentelemetry::layer().with_tracer(tracer);
    Ok((layer, OtlpGuard { provider }))
}

/// Keeps the exporter of [`layer`] running; dropping it exports the spans
/// still buffered and stops the exporter (waiting at most for one export).
#[must_use = "dropping the guard stops the export"]
pub struct OtlpGuard {
    provider: SdkTracerProvider,
}

impl OtlpGuard {
    /// Exports the spans ended so far now, and waits for it.
    ///
    /// # Errors
    ///
    /// When the collector could not be reached or refused the spans.
    pub fn flush(&self) -> Result<(), OtlpError> {
        self.provider
            .force_flush()
            .map_err(|e| OtlpError(format!("OTLP export failed: {e}")))
    }

    /// The tracer provider behind the layer, for code that uses the
    /// OpenTelemetry API directly (for instance to make it the global one
    /// with `opentelemetry::global::set_tracer_provider`).
    pub fn provider(&self) -> &SdkTracerProvider {
        &self.provider
    }
}

impl Drop for OtlpGuard {
    fn drop(&mut self) {
        // Shutting down flushes what is buffered; a failure here has no one
        // left to tell.
        let _ = self.provider.shutdown();
    }
}

impl fmt::Debug for OtlpGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OtlpGuard").finish_non_exhaustive()
    }
}

/// Why the OTLP exporter could not be set up or flushed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtlpError(String);

impl fmt::Display for OtlpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OtlpError {}

/// `endpoint` with the traces path, unless it already has it.
fn traces_url(endpoint: &str) -> String {
    let base = endpoint.trim_end_matches('/');
    if base.ends_with(TRACES_PATH) {
        base.to_owned()
    } else {
        format!("{base}{TRACES_PATH}")
    }
}

/// The exporter's HTTP client: our hyper client (HTTP/1.1, rustls for
/// `https://`), driven by a runtime of its own, because the SDK's batch
/// thread polls exports outside any Tokio runtime.
struct Transport {
    client: outbound::HttpClient,
    /// Always `Some` until dropped.
    runtime: Option<tokio::runtime::Runtime>,
}

impl fmt::Debug for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transport").finish_non_exhaustive()
    }
}

impl Drop for Transport {
    fn drop(&mut self) {
        // Never blocks, so the exporter may be dropped anywhere (even in
        // async code, where dropping a runtime would panic).
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

#[async_trait::async_trait]
impl HttpClient for Transport {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let runtime = self.runtime.as_ref().ok_or("the exporter has stopped")?;
        let client = self.client.clone();
        let (parts, body) = request.into_parts();
        let request = Request::from_parts(parts, Full::new(body));
        let exchange = async move {
            let response = client.request(request).await?;
            let (parts, body) = response.into_parts();
            let body = Limited::new(body, MAX_RESPONSE).collect().await?.to_bytes();
            Ok::<_, HttpError>(Response::from_parts(parts, body))
        };
        let timed = async move {
            tokio::time::timeout(EXPORT_TIMEOUT, exchange)
                .await
                .map_err(|_| HttpError::from("the OTLP export timed out"))?
        };
        // A JoinHandle may be awaited from any executor.
        runtime.spawn(timed).await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_traces_path_is_appended_once() {
        for endpoint in [
            "http://collector:4318",
            "http://collector:4318/",
            "http://collector:4318/v1/traces",
        ] {
            assert_eq!(traces_url(endpoint), "http://collector:4318/v1/traces");
        }
    }

    #[test]
    fn only_http_urls_are_accepted() {
        let error = layer::<tracing_subscriber::Registry>("svc", "ftp://collector")
            .err()
            .unwrap();
        assert!(error.to_string().contains("http"), "{error}");
    }
}
