//! mcp-toolkit-runtime's integration tests, one module per subject, in one binary
//! (one link instead of one per file). A module that needs an optional
//! feature is compiled only with it. `otel` and `redaction` are separate
//! binaries: each installs a process-wide tracing subscriber.

#[cfg(all(feature = "client", feature = "jwt"))]
mod auth_hostile;
#[cfg(feature = "client")]
mod client;
#[cfg(feature = "client")]
mod client_cache;
#[cfg(feature = "client")]
mod client_calls;
#[cfg(feature = "client")]
mod client_connect_errors;
#[cfg(feature = "client")]
mod client_http_cancel;
#[cfg(feature = "client")]
mod client_input_handlers;
#[cfg(feature = "client")]
mod client_listen_events;
#[cfg(feature = "client")]
mod client_notifications;
#[cfg(feature = "client")]
mod client_routing_headers;
#[cfg(feature = "client")]
mod client_session_renewal;
#[cfg(all(feature = "client", feature = "skills"))]
mod client_skills;
#[cfg(feature = "client")]
mod client_sse_resume;
#[cfg(feature = "client")]
mod client_support;
#[cfg(feature = "client")]
mod client_tasks;
#[cfg(feature = "client")]
mod codegen_requests;
#[cfg(feature = "jwt")]
mod dpop_server;
#[cfg(feature = "client")]
mod http_axum;
#[cfg(feature = "http")]
mod http_legacy;
#[cfg(feature = "http")]
mod http_modern;
#[cfg(feature = "http")]
mod http_param_headers;
#[cfg(feature = "http")]
mod http_safe_defaults;
#[cfg(feature = "client")]
mod http_stateless;
#[cfg(feature = "http")]
mod http_support;
#[cfg(feature = "client")]
mod input_rounds;
#[cfg(feature = "client")]
mod live_registry;
#[cfg(feature = "client")]
mod live_registry_legacy;
#[cfg(feature = "client")]
mod middleware;
#[cfg(feature = "client")]
mod mount;
#[cfg(feature = "client")]
mod mount_live;
#[cfg(feature = "client")]
mod readme_in_memory;
mod server_features;
#[cfg(all(feature = "client", feature = "skills"))]
mod skills_server;
mod spec_examples;
mod stdio_shutdown;
#[cfg(feature = "client")]
mod tasks;
