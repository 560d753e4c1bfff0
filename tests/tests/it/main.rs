//! Workspace-level tests, one module per subject, in one binary: macro-built
//! servers, packaging, MSRV, docs, the published crates' public API, fuzz
//! targets and bench tools (the modules that drive a nested cargo run side
//! by side with the others).

mod bench_smoke;
mod fuzz_smoke;
mod macro_items;
mod macro_server;
mod msrv;
mod package;
mod public_api;
mod resource_templates;
mod support;
mod workspace_docs;
