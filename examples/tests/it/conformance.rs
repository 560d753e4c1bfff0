//! The official MCP conformance suite, both versions, server and client:
//! runs `.ci/conformance.sh` against the binaries cargo built for this test.
//! The script installs Node 22 and the suites from npm into
//! `target/conformance`; the test fails (never skips) when it cannot, and
//! when any scenario fails.

use std::io::Write;
use std::path::Path;
use std::process::Command;

#[test]
fn official_conformance_suite_passes_in_both_eras() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = Command::new("bash")
        .arg(root.join(".ci/conformance.sh"))
        .env(
            "CONFORMANCE_SERVER",
            env!("CARGO_BIN_EXE_conformance-server"),
        )
        .env(
            "CONFORMANCE_CLIENT",
            env!("CARGO_BIN_EXE_conformance-client"),
        )
        .output()
        .expect("bash runs .ci/conformance.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the conformance suite failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    // The summaries, past libtest's capture of println!/eprintln!, so that a
    // passing run's log shows them too.
    std::io::stderr()
        .write_all(stdout.as_bytes())
        .expect("write the summaries to stderr");
    // A run that printed no summaries ran nothing: never count it as a pass.
    assert!(
        stdout.contains("Total: ") && stdout.contains("OVERALL: PASSED"),
        "the conformance suite printed no summaries:\n{stdout}"
    );
    assert!(stdout.contains("conformance: every run passed"));
}
