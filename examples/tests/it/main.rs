//! End-to-end tests of the example servers, the host and the generated
//! clients against official SDKs, the Inspector, the conformance suite,
//! nginx, Redis and a real OAuth issuer, one module per subject in one
//! binary (one link instead of one per file; the tests' waits overlap).

mod auth_dpop;
mod auth_oidc;
mod auth_restart;
mod codegen_e2e;
mod command_line;
mod conformance;
mod gateway;
mod gateway_auth;
mod gateway_live;
mod generated_client;
mod host;
mod hostile_servers;
mod inspector_stdio;
mod official_clients;
mod official_clients_http;
mod official_clients_input_http;
mod official_clients_live;
mod official_server_features;
mod official_servers;
mod run_examples;
mod runtime_client;
mod runtime_client_input_http;
mod runtime_client_tasks_http;
mod scale_out;
mod scale_out_redis;
mod snapshots;
mod stdio_pipelining;
mod stdio_protocol;
mod support;
mod trace_across_servers;
mod visibility_oidc;
