//! Runs mcp-toolkit-runtime's OpenTelemetry test (`mcp-runtime/tests/otel.rs`: spans
//! exported over OTLP/HTTP to a collector inside the test) as part of
//! `cargo test --workspace`, which does not enable the crate's optional
//! `opentelemetry` feature. A nested cargo enables it for that one test:
//! enabling it through a dev-dependency here instead would unify the
//! feature into every crate's test build in the workspace.
//!
//! The nested build shares the workspace's target directory; its artifacts
//! (mcp-toolkit-runtime with the feature, the OpenTelemetry crates) sit next to the
//! others under their own hashes, so they are built once and then reused
//! (the first time, building the OpenTelemetry crates takes a minute or
//! two).

use crate::support;

#[test]
fn mcp_runtime_exports_traces_over_otlp() {
    let output = support::cargo()
        .args([
            "test",
            "--quiet",
            "-p",
            "mcp-toolkit-runtime",
            "--features",
            "opentelemetry",
            "--test",
            "otel",
        ])
        .output()
        .expect("run cargo test");
    assert!(
        output.status.success(),
        "mcp-toolkit-runtime's otel test failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // The test ran (rather than being filtered out or skipped).
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("1 passed"), "{stdout}");
}
